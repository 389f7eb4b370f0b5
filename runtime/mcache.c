/*
 * mcache.c — each P's spans (Go's mcache.go).
 *
 * A P allocates small objects from its mcache: alloc[spc] is the span it
 * currently carves objects of span class spc from.  Only the M holding
 * the P touches it, so mallocgc's fast path (malloc.c, nextFreeFast in
 * mheap.h) takes no lock and makes no atomic operation: it finds the next
 * free slot in the span's allocCache and moves freeindex past it.  When
 * the cache window or the span is used up, nextFree (on g0) looks at the
 * span's alloc bits for the next window, and when the span is full,
 * refill trades it at the span class's mcentral for one with free slots.
 * An mcache starts with every entry at emptymspan, a span with no slots,
 * so the first allocation of each class goes the slow way without a test
 * for NULL on the fast path.
 *
 * Statistics (Go's way): when refill takes a span, all its free slots
 * are counted as allocated (memstats.smallAllocCount); when the mcache
 * gives a span up before it is full (releaseAll), the slots left are
 * taken back.  The fast path counts nothing, and readmemstats subtracts
 * the free slots of the spans the mcaches hold at the moment it looks.
 *
 * A P's mcache lives in the P (rt.h) and dies with it: procresize's
 * pdestroy gives its spans back (releaseAll).  Code running without a P
 * (start-up before the first P, an M in a system call, sysmon, newm)
 * allocates through one more mcache kept by malloc.c under a lock (Go
 * has mcache0 for start-up and requires a P elsewhere).
 */
#include "rt.h"

/* A span without slots: allocCache 0 and nelems 0, so nextFreeFast fails
 * and nextFreeIndex reports it full.  Never written. */
mspan emptymspan;

void mcache_init(mcache *c) {
	for (int i = 0; i < numSpanClasses; i++)
		c->alloc[i] = &emptymspan;
	c->tiny = 0;
	c->tinyoffset = 0;
	c->nextSample = nextSample();
	c->blackObjects = c->blackBytes = 0;
}

/* alloc[spc] is full: give it to its mcentral and take one with a free
 * slot.  On g0. */
void mcache_refill(mcache *c, spanClass spc) {
	mspan *s = c->alloc[spc];
	if (s->allocCount != s->nelems)
		gl_throw("refill of span with free space remaining");
	mcentral *central = &mheap_.central[spc].mcentral;
	if (s != &emptymspan)
		mcentral_uncacheSpan(central, s);
	s = mcentral_cacheSpan(central);
	if (s->allocCount == s->nelems)
		gl_throw("span has no free space");
	__atomic_fetch_add(&memstats.smallAllocCount[spanClass_sizeclass(spc)], s->nelems - s->allocCount,
			   __ATOMIC_RELAXED);
	c->alloc[spc] = s;
	gcnoteAlloc((uint64_t)(s->nelems - s->allocCount) * s->elemsize);
}

/* The next free slot of class spc, refilling as needed (Go's
 * mcache.nextFree): what nextFreeFast could not do.  On g0. */
uintptr_t mcache_nextFree(mcache *c, spanClass spc) {
	mspan *s = c->alloc[spc];
	uint32_t idx = nextFreeIndex(s);
	if (idx == s->nelems) {
		mcache_refill(c, spc);
		s = c->alloc[spc];
		idx = nextFreeIndex(s);
	}
	if (idx >= s->nelems)
		gl_throw("freeIndex is not valid");
	s->allocCount++;
	return s->startAddr + (uintptr_t)idx * s->elemsize;
}

/* Give every span back to the mcentrals, taking back the count of the
 * slots left.  On g0, the P stopped or owned by the caller. */
void mcache_releaseAll(mcache *c) {
	for (int i = 0; i < numSpanClasses; i++) {
		mspan *s = c->alloc[i];
		if (s == &emptymspan)
			continue;
		__atomic_fetch_sub(&memstats.smallAllocCount[spanClass_sizeclass((spanClass)i)],
				   s->nelems - s->allocCount, __ATOMIC_RELAXED);
		__atomic_fetch_sub(&memstats.heap_live, (uint64_t)(s->nelems - s->allocCount) * s->elemsize,
				   __ATOMIC_RELAXED);
		mcentral_uncacheSpan(&mheap_.central[i].mcentral, s);
		c->alloc[i] = &emptymspan;
	}
	if (c->blackObjects != 0) {
		__atomic_fetch_add(&gcstats.markedObjects, c->blackObjects, __ATOMIC_RELAXED);
		__atomic_fetch_add(&gcstats.markedBytes, c->blackBytes, __ATOMIC_RELAXED);
		c->blackObjects = c->blackBytes = 0;
	}
	/* the tiny block is an object like any: the sweeper may free it */
	c->tiny = 0;
	c->tinyoffset = 0;
	__atomic_fetch_add(&memstats.tinyallocs, c->tinyAllocs, __ATOMIC_RELAXED);
	__atomic_store_n(&c->tinyAllocs, 0, __ATOMIC_RELAXED);
}

/* The free slots of the spans c holds (counted as allocated already),
 * added to n[sizeclass].  Read without a lock by readclassallocs: a
 * moment's view. */
void mcache_unusedByClass(mcache *c, uint64_t n[numSizeClasses]) {
	for (int i = 0; i < numSpanClasses; i++) {
		mspan *s = __atomic_load_n(&c->alloc[i], __ATOMIC_RELAXED);
		n[spanClass_sizeclass((spanClass)i)] += s->nelems - __atomic_load_n(&s->allocCount, __ATOMIC_RELAXED);
	}
}
