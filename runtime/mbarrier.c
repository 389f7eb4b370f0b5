/*
 * mbarrier.c — typed memory: every copy or clear the runtime makes of a
 * value of a gl type that may hold pointers (Go's mbarrier.go).
 *
 * Why these exist.  A collector that stopped the world for its whole mark
 * would need none of this: no goroutine would run while it marks, and a
 * plain memmove of a struct full of pointers would be as good as any other
 * copy.  gl's marks while goroutines run (the default; mgc.c), with Go's
 * hybrid write barrier: before a pointer slot in the heap (or in a
 * package variable) is overwritten, both the pointer it held and the
 * pointer written into it are shaded (made grey, so the marker visits
 * them).  Shading the old value keeps alive everything that was reachable
 * when marking began, however the program reshuffles its pointers while
 * the marker is behind it (Yuasa's deletion barrier); shading the new one
 * covers a pointer that a goroutine whose stack was already scanned moves
 * into the heap (Dijkstra's insertion barrier).  Together they let a
 * stack be scanned once, without rescans at the end of the cycle.
 *
 * The compiler puts the barrier on each single store of a pointer into
 * the heap or a package variable (glc's store(); gl.h's GL_STOREPTR and
 * GL_STORE1..4 call gcWriteBarrier and gcWriteBarrier2..4 below, and
 * GL_STOREBIG calls typedmemmove).  What it cannot see is the runtime copying
 * whole values on the program's behalf: a channel element from the
 * sender's frame into the buffer, a map key into its bucket, copy() of a
 * []*T, a value boxed in an interface.  Those go through the functions
 * below, which know the value's type: a type whose ptrdata is 0 cannot
 * hold a pointer and takes a plain memmove or memset, exactly what the
 * callers did before; a type with pointers first calls bulkBarrierPreWrite
 * over the part of the destination that can hold them (the ptrdata
 * prefix), and then copies.  The barrier does its work only while
 * writeBarrier.enabled (below): while a concurrent mark runs, and the
 * whole time under GLDEBUG=wbforce=1 or wbshadow=1.
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

/* Tests only (runtime/barrier_test.c, map_test.c): called by each
 * barrier entry below with its arguments, so a test can check that the
 * barrier is reached exactly for the copies of types with pointers.  NULL
 * in programs: one predictable branch in a call made only for pointerful
 * types. */
void (*gcWriteBarrierTestHook)(int kind, uintptr_t dst, uintptr_t src, uintptr_t size);

static inline void testhook(int kind, uintptr_t dst, uintptr_t src, uintptr_t size) {
	if (GL_UNLIKELY(gcWriteBarrierTestHook != NULL))
		gcWriteBarrierTestHook(kind, dst, src, size);
}

/* ---- the barrier that generated code calls ----
 *
 * Go's writeBarrier: enabled while the collector marks with the program
 * running (mgc.c sets it in the first pause and clears it in the last);
 * glc's GL_STOREPTR and GL_STORE1..4 (gl.h) read it before every store
 * of pointers into the heap or a package variable.  GLDEBUG=wbforce=1
 * keeps it on for the whole run, so every barrier's slow path runs all
 * the time (a test of the barriers glc emits, and their cost). */
GlWriteBarrier writeBarrier;

/* Shade what pp's buffer holds and empty it; true if that greyed
 * objects still to scan.  By the M that holds pp, or with pp stopped.
 * On the system stack: greying may take blocks from the OS. */
bool wbBufFlush(P *pp) {
	wbBuf *b = &pp->wbBuf;
	bool grey = gcShadeBuf(b->buf, b->next);
	b->next = 0;
	return grey;
}

static void wbBufFlush_m(void *arg) { (void)wbBufFlush(arg); }
static void shade_m(void *arg) { gcShadeBuf(arg, 1); }

/* Queue p to be shaded: into the current P's buffer, which is flushed
 * on the system stack when full.  Without a P (runtime code that dropped
 * it), p is shaded at once, on the system stack too.  The barrier's
 * entries run as leaves on goroutine stacks (DESIGN.md S7); this is how
 * they stay small. */
static void wbBufPut(uintptr_t p) {
	P *pp = getm()->p;
	if (GL_UNLIKELY(pp == NULL)) {
		systemstack(shade_m, &p);
		return;
	}
	wbBuf *b = &pp->wbBuf;
	if (GL_UNLIKELY(b->next == wbBufEntries))
		systemstack(wbBufFlush_m, pp);
	b->buf[b->next++] = p;
}

/* The hybrid barrier's pair: the pointer *slot holds and the one about
 * to be written. */
static inline void shadepair(void **slot, void *ptr) {
	wbBufPut((uintptr_t)*slot);
	wbBufPut((uintptr_t)ptr);
}

/* *slot = ptr with the hybrid barrier: the pointer the slot held and the
 * one written into it are queued to be shaded (Go's gcWriteBarrier, with
 * its wbBuf: two words per store, a flush every 256 stores).  Called by
 * generated code when it saw writeBarrier.enabled set; it may have been
 * cleared since (a goroutine stopped between the branch and the call, as
 * marking ended), and a pointer queued then would be shaded in the next
 * cycle, perhaps after its object was freed: so the switch is read again
 * here, where no signal stops the goroutine. */
void gcWriteBarrier(G *g, void **slot, void *ptr) {
	(void)g;
	if (GL_LIKELY(writeBarrier.enabled)) {
		shadepair(slot, ptr);
		if (GL_UNLIKELY(wbshadowEnabled)) {
			/* GLDEBUG=wbshadow on the system stack, the slot its one
			 * argument: this leaf's callers are at the edge of their
			 * band (testdata/stackusage.py) */
			systemstack(wbshadowVerify_m, slot);
			*slot = ptr;
			systemstack(wbshadowSync_m, slot);
			return;
		}
	}
	*slot = ptr;
}

/* The barrier of an atomic operation that may store ptr into *slot
 * (Go's atomicwb), before it: the pointer the slot holds and ptr are
 * queued to be shaded, whether or not a compare-and-swap then stores. */
void atomicwb(void **slot, void *ptr) {
	if (GL_LIKELY(writeBarrier.enabled))
		shadepair(slot, ptr);
}

/* The barrier's shading of one new pointer, for runtime C that publishes
 * it some other way than by a plain store (an atomic exchange into a
 * package variable: fmt's printer cache). */
void writebarrierShade(const void *p) {
	if (writeBarrier.enabled)
		wbBufPut((uintptr_t)p);
}

/* Shade the old pointer in each word of dst's n words that the bits mark
 * as a pointer (bit i of bits[i/8]), and the new one from src (0: zeros). */
static void shadewords(const uint8_t *bits, uintptr_t dst, uintptr_t src, uintptr_t n) {
	for (uintptr_t i = 0; i < n; i++) {
		if (!(bits[i / 8] >> (i % 8) & 1))
			continue;
		wbBufPut(((uintptr_t *)dst)[i]);
		if (src != 0)
			wbBufPut(((uintptr_t *)src)[i]);
	}
}

/* GLDEBUG=wbshadow: word p of the heap will hold v after the bulk copy.
 * The destination of a src-only copy is a new object, not yet filled: its
 * old contents are not checked. */
static void shadowbulk(uintptr_t p, uintptr_t v, bool fresh) {
	if (!fresh) {
		wbshadowWrite(p, v);
		return;
	}
	uintptr_t *sh = wbshadowOf(p);
	if (sh != NULL)
		*sh = v;
}

/* The barrier for the size bytes at dst, about to be overwritten by the
 * size bytes at src (src 0: by zeros).  dst and size are word-aligned.
 *
 * When the barrier is on, it finds which words of dst hold pointers from
 * the heap's pointer bits (mbitmap.c) and shades the old pointer at dst
 * and the new one at src of each.  Outside the heap — a package variable,
 * a goroutine's stack, runtime memory — there are no such bits: a typed
 * copy (typedmemmove, typedmemclr, typedslicecopy: dst holds values of
 * one type end to end) finds the pointer words from the type's bits, as
 * Go finds a package variable's from its module's bitmap; an untyped one
 * (memclrHasPointers, the map's moves) shades every word, old and new, as
 * if it were a pointer: greying a word that points to no object does
 * nothing, and one that happens to point into an object keeps it for this
 * cycle only.  (A package variable needs the barrier: with stacks scanned
 * while the program runs, the value copied in may be held by nothing else
 * but a stack not scanned yet.  A stack or runtime memory would not, but
 * telling them apart costs more than the shading.) */
/* Four words: it lies in the frame of callers at the edge of the reserve
 * band (mapassign's typedmemmove), so the source-only kind is a function
 * of its own rather than a flag here. */
typedef struct bulkargs {
	uintptr_t dst, src, size;
	const GlType *typ; /* the type of the values at dst, or NULL: untyped */
} bulkargs;

/* The bulk barriers' work, on the system stack: their callers (map
 * growth, channel hand-offs) are deep in the runtime already, at the edge
 * of the goroutine stack's reserve band (testdata/stackusage.py).
 * srconly: dst is a new object; only what src holds is shaded. */
static void bulkBarrier(bulkargs *a, bool srconly) {
	bool heap = spanOfHeap(a->dst) != NULL;
	if (!heap && a->typ != NULL) {
		/* value by value; the last may stop at its ptrdata (typedslicecopy) */
		const GlType *t = a->typ;
		for (uintptr_t off = 0; off < a->size; off += t->size) {
			uintptr_t n = a->size - off < t->ptrdata ? a->size - off : t->ptrdata;
			shadewords(t->gcdata, a->dst + off, a->src != 0 ? a->src + off : 0, n / 8);
		}
		return;
	}
	for (uintptr_t p = a->dst; p < a->dst + a->size; p += 8) {
		if (heap && !heapBitsIsPointer(p))
			continue;
		uintptr_t v = a->src != 0 ? *(uintptr_t *)(a->src + (p - a->dst)) : 0;
		if (!srconly)
			wbBufPut(*(uintptr_t *)p);
		if (a->src != 0)
			wbBufPut(v);
		if (GL_UNLIKELY(wbshadowEnabled) && heap)
			shadowbulk(p, v, srconly);
	}
}

static void bulkBarrier_m(void *arg) { bulkBarrier(arg, false); }
static void bulkBarrierSrcOnly_m(void *arg) { bulkBarrier(arg, true); }

void bulkBarrierPreWrite(uintptr_t dst, uintptr_t src, uintptr_t size) {
	testhook(GL_BARRIER_BULK, dst, src, size);
	if (GL_UNLIKELY(writeBarrier.enabled)) {
		bulkargs a = {dst, src, size, NULL};
		systemstack(bulkBarrier_m, &a);
	}
}

/* bulkBarrierPreWrite for values of type t end to end at dst: outside the
 * heap, only t's pointer words are shaded. */
void typedBulkBarrierPreWrite(const GlType *t, uintptr_t dst, uintptr_t src, uintptr_t size) {
	testhook(GL_BARRIER_BULK, dst, src, size);
	if (GL_UNLIKELY(writeBarrier.enabled)) {
		bulkargs a = {dst, src, size, t};
		systemstack(bulkBarrier_m, &a);
	}
}

/* The barrier for copying into memory that was just allocated (zeroed,
 * so there are no old pointers to shade): growslice's move of the old
 * elements into the new array: only the pointers at src are shaded,
 * found by dst's pointer bits (the new object is typed like the
 * old one).  Needed because an object allocated during marking is black:
 * the marker will not scan it, so what it receives must be grey already. */
void bulkBarrierPreWriteSrcOnly(uintptr_t dst, uintptr_t src, uintptr_t size) {
	testhook(GL_BARRIER_SRCONLY, dst, src, size);
	if (GL_UNLIKELY(writeBarrier.enabled)) {
		bulkargs a = {dst, src, size, NULL};
		systemstack(bulkBarrierSrcOnly_m, &a);
	}
}

/* The barrier for a copy of one value of type t into memory whose
 * pointer words the heap bitmap does not describe: another goroutine's
 * stack (a channel hand-off, chan.c's sendDirect and recvDirect).  The
 * words are found from t's gcdata instead.  Why a stack write needs a
 * barrier at all: the collector scans a stack once, assuming that only its
 * own goroutine, while running, writes to it — and a hand-off breaks that
 * assumption.  Shades the old and new pointer of each pointer word of t
 * (size must be t->size). */
void typeBitsBulkBarrier(const GlType *t, uintptr_t dst, uintptr_t src, uintptr_t size) {
	if (size != t->size)
		gl_throw("runtime: typeBitsBulkBarrier with type size mismatch");
	testhook(GL_BARRIER_TYPEBITS, dst, src, size);
	if (writeBarrier.enabled && t->ptrdata != 0)
		shadewords(t->gcdata, dst, src, t->ptrdata / 8);
}

/* *dst = the n words w of a value of type t, with the hybrid barrier on
 * its pointer words (glc's GL_STORE2..4 when the switch was on; read
 * again here, as in gcWriteBarrier). */
static void storewords(const GlType *t, void *dst, const uintptr_t *w, uintptr_t n) {
	if (t->size != n * 8)
		gl_throw("runtime: write barrier with type size mismatch");
	if (GL_LIKELY(writeBarrier.enabled)) {
		shadewords(t->gcdata, (uintptr_t)dst, (uintptr_t)w, t->ptrdata / 8);
		if (GL_UNLIKELY(wbshadowEnabled))
			for (uintptr_t i = 0; i < t->ptrdata / 8; i++)
				if (t->gcdata[i / 8] >> (i % 8) & 1)
					wbshadowWrite((uintptr_t)dst + i * 8, w[i]);
	}
	memcpy(dst, w, t->size);
}

void gcWriteBarrier2(const GlType *t, void *dst, uintptr_t w0, uintptr_t w1) {
	uintptr_t w[2] = {w0, w1};
	storewords(t, dst, w, 2);
}

void gcWriteBarrier3(const GlType *t, void *dst, uintptr_t w0, uintptr_t w1, uintptr_t w2) {
	uintptr_t w[3] = {w0, w1, w2};
	storewords(t, dst, w, 3);
}

void gcWriteBarrier4(const GlType *t, void *dst, uintptr_t w0, uintptr_t w1, uintptr_t w2, uintptr_t w3) {
	uintptr_t w[4] = {w0, w1, w2, w3};
	storewords(t, dst, w, 4);
}

/* *dst = *src for a value of type t.  dst and src may be the same (a
 * value assigned to itself through reflect): then nothing happens. */
void typedmemmove(const GlType *t, void *dst, const void *src) {
	if (dst == src || t->size == 0)
		return;
	if (t->ptrdata != 0)
		typedBulkBarrierPreWrite(t, (uintptr_t)dst, (uintptr_t)src, t->ptrdata);
	memmove(dst, src, t->size);
}

/* *p = zero value of t. */
void typedmemclr(const GlType *t, void *p) {
	if (t->size == 0)
		return;
	if (t->ptrdata != 0)
		typedBulkBarrierPreWrite(t, (uintptr_t)p, 0, t->ptrdata);
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

/* clear(s) of a slice of n bytes of elem values with pointers (glc's
 * B_CLEAR): memclrHasPointers with the type, so that outside the heap (a
 * slice of a package variable's array) the barrier shades only the
 * elements' pointer words, as the typed copies do. */
void typedsliceclear(const GlType *elem, void *p, uintptr_t n) {
	if (n == 0)
		return;
	typedBulkBarrierPreWrite(elem, (uintptr_t)p, 0, n);
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
		typedBulkBarrierPreWrite(elem, (uintptr_t)dst, (uintptr_t)src, size - elem->size + elem->ptrdata);
	}
	memmove(dst, src, size);
	return n;
}
