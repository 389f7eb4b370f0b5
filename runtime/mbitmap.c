/*
 * mbitmap.c — the heap's bitmaps (Go's mbitmap.go): which slots of a span
 * are allocated, which are marked, which words of an object hold
 * pointers; and findObject, the way from any pointer to its object.
 *
 * Alloc bits.  Each in-use span has allocBits, one bit per slot, and
 * freeindex: every slot below freeindex is allocated, and a slot at or
 * above it is allocated iff its bit is set.  A fresh span has all bits
 * clear and freeindex 0, so allocating is moving freeindex forward over
 * clear bits; the bits themselves are not written by the allocator (the
 * fast path would pay a load and a store for them).  The sweeper will
 * make a span's gcmarkBits its new allocBits and reset freeindex to 0:
 * the slots of the objects the collector marked are then the set bits,
 * everything else is free.  allocCache is the allocator's view of the
 * 64 bits at freeindex, inverted (1 = free) and shifted so that bit 0 is
 * slot freeindex: the next free slot is a count of trailing zeros away
 * (nextFreeFast, mheap.h); nextFreeIndex below moves to the next window
 * of 64 when the cache runs dry.
 *
 * Mark bits.  gcmarkBits has the same shape, all clear until the
 * collector marks.  Both arrays come from persistentalloc, padded to whole
 * 64-bit words so the cache can load 8 bytes at a time; Go's gcBits arenas,
 * recycled every cycle, come with the sweeper.
 *
 * Pointer bits.  Each heapArena has one bit per word of its 64 MiB: set iff
 * the word is a pointer slot of an object in a scan span.  mallocgc sets
 * them from the type (heapBitsSetType: the type's gcdata, one bit per word
 * of its ptrdata, repeated for each element of an array allocation).  Words
 * past ptrdata and words of noscan spans stay clear, and a slot that may
 * hold an old object's bits (span.needzero) is cleared first.  Go 1.19
 * keeps two bits per word (pointer, and "more pointers follow" to stop a
 * scan early); the collector here stops at the object's end, and noscan
 * spans are never scanned at all.  A bitmap byte covers 64 bytes and spans
 * are page-aligned, so only the P allocating in a span writes its bytes:
 * no atomic operation is needed.
 *
 * findObject(p): the arena index gives the span of p's page (mheap.c);
 * p must lie in an in-use span, below its last slot's end, and in a slot
 * that is allocated, else it is not a heap pointer (0).  The slot index
 * is (p - base) * divMul >> 32, a multiplication instead of a division.
 */
#include "rt.h"

/* Bits for nelems slots, all clear, padded to 64-bit words.  Every
 * bitmap has the size of the largest (gcBitsBytes), so that the spans the
 * sweeper frees give theirs to the next span whatever its class (Go
 * keeps them in gcBits arenas, renewed each cycle).  Under mheap.lock. */
uint8_t *newAllocBits(uint32_t nelems) {
	if ((nelems + 63) / 64 * 8 > gcBitsBytes)
		gl_throw("newAllocBits: too many slots");
	return fixalloc_alloc(&mheap_.bitsalloc); /* zeroed */
}

void freeAllocBits(uint8_t *b) {
	fixalloc_free(&mheap_.bitsalloc, b);
}

/* allocCache := the complement of the 64 alloc bits from slot whichBit (a
 * multiple of 64). */
void refillAllocCache(mspan *s, uint32_t whichBit) {
	if (whichBit >= s->nelems) {
		s->allocCache = 0;
		return;
	}
	uint64_t bits;
	memcpy(&bits, s->allocBits + whichBit / 8, 8);
	s->allocCache = ~bits;
}

/* Take the next free slot at or after freeindex: its index, freeindex
 * moved past it and allocCache kept in step; nelems if there is none. */
uint32_t nextFreeIndex(mspan *s) {
	uint32_t sfreeindex = s->freeindex, snelems = s->nelems;
	if (sfreeindex >= snelems)
		return snelems;
	uint64_t cache = s->allocCache;
	while (cache == 0) { /* nothing free in this window: the next one */
		sfreeindex = (sfreeindex + 64) & ~63u;
		if (sfreeindex >= snelems) {
			s->freeindex = snelems;
			return snelems;
		}
		refillAllocCache(s, sfreeindex);
		cache = s->allocCache;
	}
	uint32_t bit = (uint32_t)__builtin_ctzll(cache);
	uint32_t result = sfreeindex + bit;
	if (result >= snelems) {
		s->freeindex = snelems;
		return snelems;
	}
	s->allocCache = cache >> bit >> 1;
	sfreeindex = result + 1;
	if (sfreeindex % 64 == 0 && sfreeindex != snelems)
		refillAllocCache(s, sfreeindex);
	s->freeindex = sfreeindex;
	return result;
}

bool mspan_isFree(mspan *s, uint32_t index) {
	if (index < s->freeindex)
		return false;
	return !(s->allocBits[index / 8] >> (index % 8) & 1);
}

/* The base of the object p points into, with its span and slot index, or
 * 0 if p is not inside an allocated heap object. */
uintptr_t findObject(uintptr_t p, mspan **sp, uint32_t *objIndex) {
	mspan *s = spanOfHeap(p);
	if (s == NULL || p < s->startAddr || p >= s->limit)
		return 0;
	uint32_t idx = 0;
	if (spanClass_sizeclass(s->spanclass) != 0)
		idx = (uint32_t)(((uint64_t)(p - s->startAddr) * s->divMul) >> 32);
	if (mspan_isFree(s, idx))
		return 0;
	if (sp != NULL)
		*sp = s;
	if (objIndex != NULL)
		*objIndex = idx;
	return s->startAddr + (uintptr_t)idx * s->elemsize;
}

/* ---- pointer bits ---- */

static inline uint8_t *bitmapByte(uintptr_t addr, uint8_t *mask) {
	uintptr_t w = (addr & (heapArenaBytes - 1)) >> 3;
	*mask = (uint8_t)(1 << (w & 7));
	return &arenaOf(addr)->bitmap[w >> 3];
}

bool heapBitsIsPointer(uintptr_t addr) {
	uint8_t mask;
	return (*bitmapByte(addr, &mask) & mask) != 0;
}

static inline void heapBitsPut(uintptr_t addr, bool on) {
	/* two statements: in `*bitmapByte(.., &mask) |= mask` the read of
	 * mask is unsequenced with the call that sets it (clang reads it
	 * first) */
	uint8_t mask;
	uint8_t *b = bitmapByte(addr, &mask);
	if (on)
		*b |= mask;
	else
		*b &= (uint8_t)~mask;
}

/* Set (on) or clear the bits of every word of the n bytes at x
 * (8-aligned): bit by bit up to a 64-byte boundary, then whole bitmap
 * bytes a memset at a time (one per arena the range lies in), then bit by
 * bit to the end.  A whole byte is the range's own: a bitmap byte covers
 * the 64 bytes it describes and nothing else. */
static void heapBitsFill(uintptr_t x, uint64_t n, bool on) {
	uintptr_t end = x + n;
	while (x < end && ((x & 63) != 0 || end - x < 64)) { /* the head */
		heapBitsPut(x, on);
		x += 8;
	}
	while (end - x >= 64) { /* whole bytes, arena by arena */
		uintptr_t arenaEnd = (x | (heapArenaBytes - 1)) + 1;
		uintptr_t stop = (arenaEnd < end ? arenaEnd : end) & ~(uintptr_t)63;
		uint8_t mask;
		memset(bitmapByte(x, &mask), on ? 0xff : 0, (stop - x) / 64);
		x = stop;
	}
	for (; x < end; x += 8) /* the tail */
		heapBitsPut(x, on);
}

/* Clear the pointer bits of the n bytes at x (the sweep, for a span
 * that crosses an arena boundary). */
void heapBitsClear(uintptr_t x, uint64_t n) {
	heapBitsFill(x, n, false);
}

/* Record the pointer words of the object just allocated at x in span s:
 * dataSize bytes of typ values (one, or an array of them).  Returns x, so
 * that mallocgc can tail-call it.  A leaf with a small frame: it runs on
 * the goroutine stack (mallocgc's fast path). */
GL_NOINLINE uintptr_t heapBitsSetType(uintptr_t x, const mspan *s, uint64_t dataSize, const GlType *typ) {
	uintptr_t x0 = x;
	if (s->needzero)
		heapBitsFill(x, s->elemsize, false);
	uint64_t esize = typ->size, nptr = typ->ptrdata / 8;
	const uint8_t *gcdata = typ->gcdata;
	/* one object of at most 8 pointer words, all in one arena: its mask
	 * is gcdata[0], written into one or two bitmap bytes */
	if (dataSize == esize && nptr <= 8 && gcdata != NULL &&
	    ((x ^ (x + 8 * nptr - 8)) >> logHeapArenaBytes) == 0) {
		uintptr_t w = (x & (heapArenaBytes - 1)) >> 3;
		uint8_t *b = &arenaOf(x)->bitmap[w >> 3];
		unsigned m = (gcdata[0] & ((1u << nptr) - 1)) << (w & 7);
		b[0] |= (uint8_t)m;
		if (m >> 8)
			b[1] |= (uint8_t)(m >> 8);
		return x0;
	}
	uint64_t n = dataSize / esize;
	if (n == 0)
		n = 1;
	if (gcdata == NULL) { /* every word of ptrdata is a pointer */
		if (esize == typ->ptrdata) /* and so every word of the array */
			heapBitsFill(x, n * esize, true);
		else
			for (uint64_t e = 0; e < n; e++, x += esize)
				heapBitsFill(x, typ->ptrdata, true);
		return x0;
	}
	/* an array of elements with some pointer words (a map bucket of
	 * scalars has one in eighteen): only the set bits of the mask are
	 * visited, a count of trailing zeros apart; the mask of an element of
	 * up to 64 pointer words is read once, into a register */
	if (nptr <= 64) {
		uint64_t mask = 0;
		for (uint64_t j = 0; j < nptr; j += 8)
			mask |= (uint64_t)gcdata[j / 8] << j;
		if (nptr < 64)
			mask &= ((uint64_t)1 << nptr) - 1;
		for (uint64_t e = 0; e < n; e++, x += esize)
			for (uint64_t m = mask; m != 0; m &= m - 1)
				heapBitsPut(x + 8 * (uint64_t)__builtin_ctzll(m), true);
		return x0;
	}
	for (uint64_t e = 0; e < n; e++, x += esize)
		for (uint64_t j = 0; j < nptr; j += 8) {
			unsigned m = gcdata[j / 8];
			if (nptr - j < 8) /* the mask's last byte: its words only */
				m &= (1u << (nptr - j)) - 1;
			while (m != 0) {
				heapBitsPut(x + 8 * (j + (uint64_t)__builtin_ctz(m)), true);
				m &= m - 1;
			}
		}
	return x0;
}
