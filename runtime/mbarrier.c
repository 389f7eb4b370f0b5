/*
 * mbarrier.c — typed memory: every copy or clear the runtime makes of a
 * value of a gl type that may hold pointers (Go's mbarrier.go).
 *
 * Why these exist.  The collector today stops the world, marks, and
 * sweeps: while it marks, no goroutine runs, so nothing can hide a pointer
 * from it, and a plain memmove of a struct full of pointers is as good as
 * any other copy.  Part 2 of the collector marks while goroutines run, with
 * Go's hybrid write barrier: before a pointer slot in the heap (or in a
 * package variable) is overwritten, both the pointer it held and the
 * pointer written into it are shaded (made grey, so the marker visits
 * them).  Shading the old value keeps alive everything that was reachable
 * when marking began, however the program reshuffles its pointers while
 * the marker is behind it (Yuasa's deletion barrier); shading the new one
 * covers a pointer that a goroutine whose stack was already scanned moves
 * into the heap (Dijkstra's insertion barrier).  Together they let a
 * stack be scanned once, without rescans at the end of the cycle.
 *
 * The compiler will put the barrier on each single store of a pointer
 * (issue 12's one store()).  What it cannot see is the runtime copying
 * whole values on the program's behalf: a channel element from the
 * sender's frame into the buffer, a map key into its bucket, copy() of a
 * []*T, a value boxed in an interface.  Those go through the functions
 * below, which know the value's type: a type whose ptrdata is 0 cannot
 * hold a pointer and takes a plain memmove or memset, exactly what the
 * callers did before; a type with pointers first calls bulkBarrierPreWrite
 * over the part of the destination that can hold them (the ptrdata
 * prefix), and then copies.  Today bulkBarrierPreWrite does nothing; when
 * part 2 lands, the barrier goes into these few functions and nowhere
 * else in the runtime's typed copies.
 *
 * "Pre-write": the barrier runs before the copy, over the whole range at
 * once, while dst still holds the old pointers and src the new ones.  That
 * is also why an overlapping copy (copy(s[1:], s), the same slice in both
 * directions) needs no care: every old and every new value is seen before
 * memmove moves anything.
 *
 * Hot paths (channel operations, map assign/delete) test ptrdata inline
 * and call in here only for types with pointers, so that pointer-free
 * elements pay nothing more than before.
 *
 * All of this runs on goroutine stacks as leaves (DESIGN.md S7): no
 * allocation, no locks, only memmove and memset.
 */
#include "rt.h"

/* Tests only (tests/unit/barrier_test.c, map_test.c): called by each
 * barrier entry below with its arguments, so a test can check that the
 * barrier is reached exactly for the copies of types with pointers.  NULL
 * in programs: one predictable branch in a call made only for pointerful
 * types. */
void (*gcWriteBarrierTestHook)(int kind, uintptr_t dst, uintptr_t src, uintptr_t size);

static inline void testhook(int kind, uintptr_t dst, uintptr_t src, uintptr_t size) {
	if (GL_UNLIKELY(gcWriteBarrierTestHook != NULL))
		gcWriteBarrierTestHook(kind, dst, src, size);
}

/* The barrier for the size bytes at dst, about to be overwritten by the
 * size bytes at src (src 0: by zeros).  dst and size are word-aligned.
 *
 * Today: nothing (the collector stops the world).  With part 2, when the
 * barrier is on (the mark phase), it will find which words of dst hold
 * pointers from the heap's pointer bits (mbitmap.c) — or from the data
 * and bss bitmaps for a package variable — and for each shade the old
 * pointer at dst and the new one at src.  A dst outside the heap and the
 * package variables (a goroutine stack, runtime memory from persistentalloc)
 * needs nothing: stacks are scanned, not barriered, and runtime memory
 * with pointers into the heap is a root that the marker scans itself. */
void bulkBarrierPreWrite(uintptr_t dst, uintptr_t src, uintptr_t size) {
	testhook(GL_BARRIER_BULK, dst, src, size);
}

/* The barrier for copying into memory that was just allocated (zeroed,
 * so there are no old pointers to shade): growslice's move of the old
 * elements into the new array.  With part 2: shade only the pointers at
 * src, found by dst's pointer bits (the new object is typed like the
 * old one).  Needed because an object allocated during marking is black:
 * the marker will not scan it, so what it receives must be grey already. */
void bulkBarrierPreWriteSrcOnly(uintptr_t dst, uintptr_t src, uintptr_t size) {
	testhook(GL_BARRIER_SRCONLY, dst, src, size);
}

/* The barrier for a copy of one value of type t into memory whose
 * pointer words the heap bitmap does not describe: another goroutine's
 * stack (a channel hand-off, chan.c's sendDirect and recvDirect).  The
 * words are found from t's gcdata instead.  Why a stack write needs a
 * barrier at all: the collector scans a stack once, assuming that only its
 * own goroutine, while running, writes to it — and a hand-off breaks that
 * assumption.  With part 2: shade the old and new pointer of each pointer
 * word of t (size must be t->size). */
void typeBitsBulkBarrier(const GlType *t, uintptr_t dst, uintptr_t src, uintptr_t size) {
	if (size != t->size)
		gl_throw("runtime: typeBitsBulkBarrier with type size mismatch");
	testhook(GL_BARRIER_TYPEBITS, dst, src, size);
}

/* *dst = *src for a value of type t.  dst and src may be the same (a
 * value assigned to itself through reflect): then nothing happens. */
void typedmemmove(const GlType *t, void *dst, const void *src) {
	if (dst == src || t->size == 0)
		return;
	if (t->ptrdata != 0)
		bulkBarrierPreWrite((uintptr_t)dst, (uintptr_t)src, t->ptrdata);
	memmove(dst, src, t->size);
}

/* *p = zero value of t. */
void typedmemclr(const GlType *t, void *p) {
	if (t->size == 0)
		return;
	if (t->ptrdata != 0)
		bulkBarrierPreWrite((uintptr_t)p, 0, t->ptrdata);
	memset(p, 0, t->size);
}

/* Zero n bytes that may hold pointers, of no one type: a map bucket's
 * data, several elements at once (clear(s) of a []*T). */
void memclrHasPointers(void *p, uintptr_t n) {
	if (n == 0)
		return;
	bulkBarrierPreWrite((uintptr_t)p, 0, n);
	memset(p, 0, n);
}

/* copy(dst[:dstlen], src[:srclen]) for elements of type elem: the count
 * copied, the smaller length, as slicecopy (slice.c) returns.  The two may
 * overlap (memmove).  The barrier covers the elements up to the last
 * one's ptrdata: past that, no word can hold a pointer. */
int64_t typedslicecopy(const GlType *elem, void *dst, int64_t dstlen, const void *src, int64_t srclen) {
	int64_t n = dstlen < srclen ? dstlen : srclen;
	if (n <= 0)
		return 0;
	uintptr_t size = (uintptr_t)n * elem->size;
	if (elem->ptrdata != 0) {
		if (dst == src)
			return n;
		bulkBarrierPreWrite((uintptr_t)dst, (uintptr_t)src, size - elem->size + elem->ptrdata);
	}
	memmove(dst, src, size);
	return n;
}
