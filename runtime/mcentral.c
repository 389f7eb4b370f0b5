/*
 * mcentral.c — the spans of one span class that no P holds (Go's
 * mcentral.go).
 *
 * mheap_.central[spc] keeps the spans of span class spc that are not in
 * any mcache: partial, the ones with a free slot, and full, the ones
 * without — each list twice, swept and unswept (mheap.h: which is which
 * follows mheap_.sweepgen).  A P whose cached span of class spc is used up
 * (mcache.c's refill) gives it back with uncacheSpan and takes another
 * with cacheSpan: a swept partial one if there is one; else it sweeps
 * unswept spans of the class until one has a free slot (Go's way: the
 * allocator helps the sweeper where the sweeping pays it at once); else a
 * fresh span from the page heap (grow).  Each mcentral has its own lock,
 * so Ps refilling different classes do not contend, and the page heap's
 * lock is taken only to grow.  The spans of large objects are kept in the
 * full lists of classes 0 and 1 (noscan), as Go's, so that the sweeper
 * finds every in-use span in these lists.
 *
 * Invariants: a span is in at most one place — one mcache's alloc[], one
 * of these lists, or neither while it moves between them or is being
 * swept; a span on a partial list has allocCount < nelems, one on a full
 * list allocCount == nelems (as of its last sweep, for an unswept one);
 * a span in a swept list has sweepgen == mheap_.sweepgen, one in an
 * unswept list sweepgen == mheap_.sweepgen - 2.  All of it runs on g0.
 */
#include "rt.h"

void mcentral_init(mcentral *c, spanClass spc) {
	c->spanclass = spc;
	lockInit(&c->lock, lockRankMcentral);
	for (int i = 0; i < 2; i++) {
		c->partial[i] = (mSpanList){NULL, NULL};
		c->full[i] = (mSpanList){NULL, NULL};
	}
}

/* A fresh span for this class from the page heap. */
static mspan *mcentral_grow(mcentral *c) {
	uint8_t sc = spanClass_sizeclass(c->spanclass);
	return mheap_alloc(class_to_allocnpages[sc], c->spanclass);
}

/* Put a swept span that keeps objects in the swept list its fill says. */
static void putSwept(mcentral *c, mspan *s, uint32_t sg) {
	lock(&c->lock);
	mSpanList_insertBack(s->allocCount == s->nelems ? fullSwept(c, sg) : partialSwept(c, sg), s);
	unlock(&c->lock);
}

/* Sweep unswept spans of the class, partial ones first, until one has a
 * free slot; at most budget of them (Go's spanBudget: a class full of
 * live spans must not make one allocation sweep it all — the heap grows
 * instead, and the background sweeper gets to the rest). */
static mspan *sweepForSlot(mcentral *c, uint32_t sg) {
	int budget = 100;
	if (!sweepBegin())
		return NULL;
	mspan *s = NULL;
	for (int pass = 0; pass < 2 && s == NULL; pass++) {
		mSpanList *l = pass == 0 ? partialUnswept(c, sg) : fullUnswept(c, sg);
		while (budget-- > 0 && (s = sweepClaim(c, l)) != NULL) {
			mspan_sweep(s, true); /* kept even if empty: it is about to be used */
			if (s->allocCount < s->nelems)
				break;
			putSwept(c, s, sg);
			s = NULL;
		}
	}
	sweepEnd();
	return s;
}

/* A span with at least one free slot, for an mcache; its allocCache is
 * set up at freeindex. */
mspan *mcentral_cacheSpan(mcentral *c) {
	uint8_t sc = spanClass_sizeclass(c->spanclass);
	deductSweepCredit((uint64_t)class_to_allocnpages[sc] * pageSize);
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	lock(&c->lock);
	c->nmalloc++;
	mspan *s = partialSwept(c, sg)->first;
	if (s != NULL)
		mSpanList_remove(s->list, s);
	unlock(&c->lock);
	if (s == NULL)
		s = sweepForSlot(c, sg);
	if (s == NULL)
		return mcentral_grow(c); /* fresh: allocCache all free already */
	refillAllocCache(s, s->freeindex & ~63u);
	s->allocCache >>= s->freeindex % 64;
	return s;
}

/* Take back a span an mcache no longer uses (swept: mcaches hold swept
 * spans only, and give them all back before sweepgen moves on). */
void mcentral_uncacheSpan(mcentral *c, mspan *s) {
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	if (s->sweepgen != sg)
		gl_throw("mcentral.uncacheSpan: span not swept");
	putSwept(c, s, sg);
}

/* A large object's new span, swept by birth: into its class's full list,
 * where the sweeper will find it after the next mark. */
void mcentral_addLarge(mspan *s) {
	putSwept(&mheap_.central[s->spanclass].mcentral, s, __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE));
}
