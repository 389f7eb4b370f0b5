/*
 * mcentral.c — the spans of one span class that no P holds (Go's
 * mcentral.go).
 *
 * mheap_.central[spc] keeps the spans of span class spc that are not in
 * any mcache: partial, the ones with a free slot, and full, the ones
 * without.  A P whose cached span of class spc is used up (mcache.c's
 * refill) gives it back with uncacheSpan and takes another with
 * cacheSpan: a partial one if there is one, else a fresh span from the
 * page heap (grow).  Each mcentral has its own lock, so Ps refilling
 * different classes do not contend, and the page heap's lock is taken
 * only to grow.
 *
 * Invariants: a span is in at most one place — one mcache's alloc[], one
 * of these lists, or neither while it moves between them; a span on
 * partial has allocCount < nelems, one on full allocCount == nelems.
 * While nothing is freed, partial is fed only by Ps that give up their
 * spans before they are used up (procresize, releaseAll).  Go 1.19 keeps
 * two partial and two full sets, swept and unswept, indexed by the sweep
 * generation, and sweeps a span before handing it out: they come with the
 * sweeper.  All of it runs on g0.
 */
#include "rt.h"

void mcentral_init(mcentral *c, spanClass spc) {
	c->spanclass = spc;
	c->partial.first = c->partial.last = NULL;
	c->full.first = c->full.last = NULL;
}

/* A fresh span for this class from the page heap. */
static mspan *mcentral_grow(mcentral *c) {
	uint8_t sc = spanClass_sizeclass(c->spanclass);
	return mheap_alloc(class_to_allocnpages[sc], c->spanclass);
}

/* A span with at least one free slot, for an mcache; its allocCache is
 * set up at freeindex. */
mspan *mcentral_cacheSpan(mcentral *c) {
	lock(&c->lock);
	mspan *s = c->partial.first;
	if (s != NULL)
		mSpanList_remove(&c->partial, s);
	c->nmalloc++;
	unlock(&c->lock);
	if (s == NULL)
		return mcentral_grow(c); /* fresh: allocCache all free already */
	refillAllocCache(s, s->freeindex & ~63u);
	s->allocCache >>= s->freeindex % 64;
	return s;
}

/* Take back a span an mcache no longer uses. */
void mcentral_uncacheSpan(mcentral *c, mspan *s) {
	lock(&c->lock);
	if (s->allocCount == s->nelems)
		mSpanList_insertBack(&c->full, s);
	else
		mSpanList_insertBack(&c->partial, s);
	unlock(&c->lock);
}
