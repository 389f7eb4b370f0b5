/*
 * mgcsweep.c — sweeping (Go's mgcsweep.go, eagerly, with the world
 * stopped).
 *
 * After marking, a span's mark bits say which of its slots are live.
 * Sweeping a span makes them its alloc bits: the mark bitmap becomes the
 * alloc bitmap (the old alloc bitmap, cleared, is the next cycle's mark
 * bitmap), freeindex goes back to 0 and the allocator finds the freed
 * slots through the bits (mheap.h: a slot at or past freeindex is free
 * iff its alloc bit is clear).  Freed slots are cleared at once — memory
 * and pointer bits — so that mallocgc's fast path, which writes pointer
 * bits by OR and hands out memory as zero, meets no old data
 * (span.needzero stays false).  With GLDEBUG=clobberfree=1 freed slots are
 * filled with 0xdb instead and the span is marked needzero, so that a
 * pointer the marker missed reads poison, not a plausible object.
 *
 * A span with nothing live goes back to the page heap; a large object's
 * span when its one object is unmarked.  The others are put back in
 * their mcentral's partial or full list (every mcache was emptied before
 * marking, so every small-object span is in one of those lists, and the
 * lists are rebuilt here from scratch).
 *
 * Go sweeps lazily, a span at a time as the allocator needs it or in a
 * background goroutine, with the world running; gl does it all in the
 * pause for now (a later stage of the collector, issue 13).
 */
#include "rt.h"

/* Clear slot i of s after it was freed: its memory (or poison it) and
 * its pointer bits. */
static void freeslot(mspan *s, uint32_t i) {
	uintptr_t x = s->startAddr + (uintptr_t)i * s->elemsize;
	if (gl_debug.clobberfree) {
		memset((void *)x, 0xdb, s->elemsize);
		s->needzero = true;
	} else
		memset((void *)x, 0, s->elemsize);
	if (!spanClass_noscan(s->spanclass)) {
		heapArena *ha = arenaOf(x);
		for (uintptr_t a = x; a < x + s->elemsize; a += 8) {
			uintptr_t w = (a & (heapArenaBytes - 1)) >> 3;
			ha->bitmap[w >> 3] &= (uint8_t)~(1u << (w & 7));
		}
	}
}

static inline bool bit(const uint8_t *b, uint32_t i) {
	return b[i / 8] >> (i % 8) & 1;
}

/* Sweep a small-object span: free its unmarked slots, swap its bitmaps.
 * Returns the number of live slots. */
static uint32_t sweepsmall(mspan *s) {
	uint32_t live = 0;
	for (uint32_t i = 0; i < s->nelems; i++) {
		bool alloc = i < s->freeindex || bit(s->allocBits, i);
		if (bit(s->gcmarkBits, i))
			live++;
		else if (alloc) {
			freeslot(s, i);
			gcstats.freedObjects++;
			gcstats.freedBytes += s->elemsize;
			memstats.nfree[spanClass_sizeclass(s->spanclass)]++;
		}
	}
	uint8_t *old = s->allocBits;
	s->allocBits = s->gcmarkBits;
	s->gcmarkBits = old;
	memset(old, 0, gcBitsBytes);
	s->freeindex = 0;
	s->allocCount = live;
	refillAllocCache(s, 0);
	return live;
}

/* The slot index of a special record of s. */
static inline uint32_t specialidx(const special *sp, const mspan *s) {
	return sp->offset / (uint32_t)s->elemsize;
}

/* The special records of the objects the marker left white.  An object
 * with a finalizer is kept one more cycle: mark it now (what it points to
 * was marked from markrootSpans, so the heap stays closed under marking),
 * drop the finalizer records and queue them, and keep its profile mark
 * (it is not freed yet).  Once the finalizer has run and nothing refers
 * to the object any more, a later cycle frees it like any other.  An
 * object without one is freed: its profile mark counts the free (Go's
 * sweep does both).  Several records may name one slot (inner addresses
 * of small pointer-free values, where the tiny allocator packs several
 * objects in one slot): the slot's mark bit is read once for all of them,
 * before it is set.  The world is stopped: no speciallock is held by
 * anyone. */
static void sweepspecials(mspan *s) {
	special **link = &s->specials;
	while (*link != NULL) {
		uint32_t idx = specialidx(*link, s);
		if (bit(s->gcmarkBits, idx)) {
			while (*link != NULL && specialidx(*link, s) == idx)
				link = &(*link)->next;
			continue;
		}
		bool hasFin = false;
		for (special *sp = *link; sp != NULL && specialidx(sp, s) == idx; sp = sp->next)
			hasFin |= sp->kind == KindSpecialFinalizer;
		while (*link != NULL && specialidx(*link, s) == idx) {
			special *sp = *link;
			if (sp->kind == KindSpecialProfile && hasFin) {
				link = &sp->next;
				continue;
			}
			*link = sp->next;
			freeSpecial(sp, s);
		}
		if (hasFin)
			s->gcmarkBits[idx / 8] |= (uint8_t)(1 << (idx % 8));
	}
	if (s->specials == NULL)
		spanClearSpecials(s);
}

/* Sweep the in-use span s; false if it was freed. */
static bool sweepspan(mspan *s) {
	if (s->specials != NULL)
		sweepspecials(s);
	if (spanClass_sizeclass(s->spanclass) == 0) {
		if (bit(s->gcmarkBits, 0)) {
			s->gcmarkBits[0] = 0;
			gcstats.liveBytes += s->elemsize;
			return true;
		}
		gcstats.freedObjects++;
		gcstats.freedBytes += s->elemsize;
		memstats.nlargefree++;
		memstats.largefreed += s->npages * pageSize; /* as heap_large counted it */
		if (gl_debug.clobberfree)
			memset((void *)s->startAddr, 0xdb, s->limit - s->startAddr);
		mheap_freeSpan(s);
		return false;
	}
	uint32_t live = sweepsmall(s);
	mcentral *c = &mheap_.central[s->spanclass].mcentral;
	mSpanList_remove(s->list, s);
	if (live == 0) {
		mheap_freeSpan(s);
		return false;
	}
	gcstats.liveBytes += (uint64_t)live * s->elemsize;
	mSpanList_insertBack(live == s->nelems ? &c->full : &c->partial, s);
	return true;
}

/* Sweep every in-use span of every arena (the world stopped, every
 * mcache empty).  A span is found at its first page through the arena's
 * pageInUse bits. */
void gcSweepAll(void) {
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		uintptr_t base = mheap_.allArenas[a];
		heapArena *ha = arenaOf(base);
		for (uint32_t i = 0; i < pagesPerArena / 8; i++) {
			uint8_t bits = ha->pageInUse[i];
			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctz(bits);
				bits &= (uint8_t)(bits - 1);
				mspan *s = ha->spans[i * 8 + b];
				gcstats.spans++;
				sweepspan(s);
			}
		}
	}
}
