/*
 * slice.c — make, append and copy for slices (Go 1.19's runtime/slice.go).
 *
 * makeslice and growslice run on the goroutine stack and call mallocgc,
 * which may park the goroutine and let its stack move (DESIGN.md S8): the
 * slice header they fill and an old backing array they copy from may both be
 * in the caller's data frame, so across mallocgc they are kept as distances
 * from stack.hi, which copystack preserves, never as C pointers.
 */
#include "rt.h" /* gl.h, and stackoff/stackptr */
#include "sizeclasses.h"

/* The collector scans only allocations made with a type; element types
 * without pointers get a noscan allocation. */
static inline const GlType *scantype(const GlType *elem) {
	return elem->ptrdata != 0 ? elem : NULL;
}

/* make([]T, len, cap).  make([]T, n) comes here with cap == len, so when
 * len is bad too the message names len, the only size that was written
 * (Go issue 4085). */
void makeslice(G *g, GlSlice *out, const GlType *elem, int64_t len, int64_t cap) {
	uint64_t mem;
	bool overflow = __builtin_mul_overflow(elem->size, (uint64_t)cap, &mem);
	if (overflow || mem > maxAlloc || len < 0 || len > cap) {
		overflow = __builtin_mul_overflow(elem->size, (uint64_t)len, &mem);
		if (overflow || mem > maxAlloc || len < 0)
			gl_panicstring(g, "runtime error: makeslice: len out of range");
		else
			gl_panicstring(g, "runtime error: makeslice: cap out of range");
		return;
	}
	uintptr_t ooff = stackoff(g, out);
	void *p = mallocgc(mem, scantype(elem), true);
	out = stackptr(g, out, ooff);
	out->ptr = p;
	out->len = len;
	out->cap = cap;
}

/* Go 1.19's append growth (a function, nextslicecap, from Go 1.20 on): to
 * at least newlen; doubling while the old capacity is below 256 elements,
 * then adding a quarter plus 192 (which eases from 2x to 1.25x) until newlen
 * fits.  The additions wrap as Go's do, done unsigned to stay defined in C:
 * a capacity that wraps negative ends the loop and falls back to newlen. */
static int64_t nextslicecap(int64_t oldcap, int64_t newlen) {
	const int64_t threshold = 256;
	int64_t doublecap = (int64_t)((uint64_t)oldcap * 2);
	if (newlen > doublecap)
		return newlen;
	if (oldcap < threshold)
		return doublecap;
	int64_t newcap = oldcap;
	while (0 < newcap && newcap < newlen)
		newcap = (int64_t)((uint64_t)newcap + ((uint64_t)newcap + 3 * threshold) / 4);
	return newcap <= 0 ? newlen : newcap;
}

/* append's slow path: make s hold at least newlen elements.  The new
 * capacity is the growth rule's, rounded up to fill the malloc size class,
 * so cap() matches Go.  s->len stays: the caller stores the new length. */
void growslice(G *g, GlSlice *s, const GlType *elem, int64_t newlen) {
	const void *old = s->ptr;
	int64_t oldlen = s->len, oldcap = s->cap;
	uint64_t size = elem->size;
	if (newlen < oldcap) { /* len + n overflowed */
		gl_panicstring(g, "runtime error: growslice: cap out of range");
		return;
	}
	uintptr_t soff = stackoff(g, s), ooff = stackoff(g, old);
	if (size == 0) {
		/* No memory needed, but the pointer must not be nil: mallocgc(0)
		 * gives zerobase, as Go's append uses. */
		void *p = mallocgc(0, NULL, false);
		s = stackptr(g, s, soff);
		writebarrierptr(&s->ptr, p);
		s->cap = newlen;
		return;
	}
	int64_t newcap = nextslicecap(oldcap, newlen);
	uint64_t capmem;
	bool overflow = __builtin_mul_overflow((uint64_t)newcap, size, &capmem);
	capmem = roundupsize(capmem);
	if (overflow || capmem > maxAlloc) {
		gl_panicstring(g, "runtime error: growslice: cap out of range");
		return;
	}
	newcap = (int64_t)(capmem / size);
	uint64_t lenmem = (uint64_t)oldlen * size;
	void *p;
	if (elem->ptrdata == 0) {
		p = mallocgc(capmem, NULL, false);
		/* append writes [oldlen, newlen) next; only the rest is cleared */
		uint64_t newlenmem = (uint64_t)newlen * size;
		memset((uint8_t *)p + newlenmem, 0, capmem - newlenmem);
	} else {
		/* Zeroed: the collector may scan the whole object at once. */
		p = mallocgc(capmem, elem, true);
		/* The new array holds no old pointers, but the ones moved into
		 * it must be seen by a marker that will not scan it (mbarrier.c):
		 * up to the last old element's ptrdata. */
		if (lenmem > 0)
			bulkBarrierPreWriteSrcOnly((uintptr_t)p, (uintptr_t)stackptr(g, old, ooff),
						   lenmem - size + elem->ptrdata);
	}
	if (lenmem > 0)
		memmove(p, stackptr(g, old, ooff), lenmem);
	/* the header may be in the heap (append to a field through a
	 * pointer): the old array, overwritten, is shaded by the barrier */
	s = stackptr(g, s, soff);
	writebarrierptr(&s->ptr, p);
	s->cap = newcap;
}

/* copy(to, from) for element types without pointers (a pointerful copy
 * needs write barriers: typedslicecopy, mbarrier.c, which glc calls for
 * copy() and append(s, t...) of such elements). */
int64_t slicecopy(void *to, int64_t tolen, const void *from, int64_t fromlen, uint64_t width) {
	if (fromlen == 0 || tolen == 0)
		return 0;
	int64_t n = fromlen < tolen ? fromlen : tolen;
	if (width == 0)
		return n;
	uint64_t size = (uint64_t)n * width;
	if (size == 1) /* common for byte slices: skip the call */
		*(uint8_t *)to = *(const uint8_t *)from;
	else
		memmove(to, from, size);
	return n;
}
