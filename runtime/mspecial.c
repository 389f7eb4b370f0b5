/*
 * mspecial.c — special records: what the runtime keeps about a heap
 * object outside the object (Go keeps them in mheap.go): finalizers, and
 * the heap profile's marks on sampled objects (mprof.c).
 *
 * A record hangs off the span of its object, in span.specials, sorted by
 * offset (from span.startAddr) and then by kind, so that the sweeper
 * meets each object's records together and in slot order.  Records come
 * from fixalloc (mheap_.specialfinalizeralloc): they are not heap
 * objects, are never scanned as such, and do not keep their object
 * alive — only by an offset do they name it.  What a finalizer record
 * points to on the heap (its func value, and everything its object
 * points to, but not the object) is a root: mgcmark.c's markrootSpans
 * finds the spans that have records through each arena's pageSpecials
 * bits, which are kept here.
 *
 * Locks: span.speciallock guards a span's list and its pageSpecials bit;
 * mheap_.speciallock guards the fixalloc.  Both are taken on g0 (the
 * callers switch with systemstack), or with the world stopped by the
 * sweeper, which takes them too: a goroutine cannot be in the middle of
 * an update then, since updates never park.
 */
#include "rt.h"

/* Set or clear the pageSpecials bit of s's first page.  Neighbouring
 * spans share a byte of the bitmap under different locks: atomic. */
static void setPageSpecials(mspan *s, bool on) {
	heapArena *ha = arenaOf(s->startAddr);
	uintptr_t i = (s->startAddr & (heapArenaBytes - 1)) / pageSize;
	uint8_t bit = (uint8_t)(1 << (i % 8));
	if (on)
		__atomic_fetch_or(&ha->pageSpecials[i / 8], bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&ha->pageSpecials[i / 8], (uint8_t)~bit, __ATOMIC_RELAXED);
}

/* The in-use span holding p, or a throw: the callers checked p is in an
 * allocated object.  Swept, so that no sweeper is at its records. */
static mspan *specialspan(uintptr_t p) {
	mspan *span = spanOfHeap(p);
	if (span == NULL)
		gl_throw("addspecial on invalid pointer");
	ensureSwept(span);
	return span;
}

/* Link rec into the list of p's span, unless a record of the same kind
 * is there for the same offset (then false: the caller still owns rec). */
static bool addspecial(uintptr_t p, special *rec) {
	mspan *span = specialspan(p);
	rec->offset = (uint32_t)(p - span->startAddr);
	lock(&span->speciallock);
	special **link = &span->specials;
	for (special *x = *link; x != NULL; link = &x->next, x = *link) {
		if (x->offset == rec->offset && x->kind == rec->kind) {
			unlock(&span->speciallock);
			return false;
		}
		if (x->offset > rec->offset || (x->offset == rec->offset && x->kind > rec->kind))
			break;
	}
	rec->next = *link;
	*link = rec;
	setPageSpecials(span, true);
	unlock(&span->speciallock);
	return true;
}

/* Unlink and return the record of this kind for exactly p, or NULL. */
static special *removespecial(uintptr_t p, uint8_t kind) {
	mspan *span = specialspan(p);
	uint32_t offset = (uint32_t)(p - span->startAddr);
	special *found = NULL;
	lock(&span->speciallock);
	for (special **link = &span->specials; *link != NULL; link = &(*link)->next) {
		special *x = *link;
		if (x->offset == offset && x->kind == kind) {
			*link = x->next;
			found = x;
			break;
		}
	}
	if (span->specials == NULL)
		setPageSpecials(span, false);
	unlock(&span->speciallock);
	return found;
}

static void freefinalizerrecord(specialfinalizer *f) {
	lock(&mheap_.speciallock);
	fixalloc_free(&mheap_.specialfinalizeralloc, f);
	unlock(&mheap_.speciallock);
}

/* Record that fn (of type ft, taking fint) is p's finalizer; false if p
 * has one already.  On g0. */
bool addfinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot) {
	lock(&mheap_.speciallock);
	specialfinalizer *f = fixalloc_alloc(&mheap_.specialfinalizeralloc);
	unlock(&mheap_.speciallock);
	*f = (specialfinalizer){.special = {.kind = KindSpecialFinalizer}, .fn = fn, .ft = ft, .fint = fint, .ot = ot};
	if (addspecial(p, &f->special))
		return true;
	freefinalizerrecord(f);
	return false;
}

/* Drop p's finalizer, if it has one.  On g0. */
void removefinalizer(uintptr_t p) {
	special *s = removespecial(p, KindSpecialFinalizer);
	if (s != NULL)
		freefinalizerrecord((specialfinalizer *)s);
}

/* Mark the object at p, just allocated and sampled, as belonging to the
 * heap profile's bucket b (Go's setprofilebucket).  On g0. */
void setprofilebucket(uintptr_t p, bucket *b) {
	lock(&mheap_.speciallock);
	specialprofile *sp = fixalloc_alloc(&mheap_.specialprofilealloc);
	unlock(&mheap_.speciallock);
	*sp = (specialprofile){.special = {.kind = KindSpecialProfile}, .b = b};
	if (!addspecial(p, &sp->special))
		gl_throw("setprofilebucket: profile already set");
}

/* The sweeper found s's object unmarked.  A finalizer: the object was
 * kept alive; queue the finalizer with the address it was set on.  A
 * profile mark: the object is being freed (the sweeper keeps the mark of
 * an object it keeps for its finalizer); count the free in its bucket.
 * Either way free the record, which the caller has unlinked from span. */
void freeSpecial(special *s, mspan *span) {
	switch (s->kind) {
	case KindSpecialFinalizer: {
		specialfinalizer *f = (specialfinalizer *)s;
		queuefinalizer(span->startAddr + s->offset, f->fn, f->ft, f->fint, f->ot);
		freefinalizerrecord(f);
		return;
	}
	case KindSpecialProfile:
		mProf_Free(((specialprofile *)s)->b, span->elemsize);
		lock(&mheap_.speciallock);
		fixalloc_free(&mheap_.specialprofilealloc, s);
		unlock(&mheap_.speciallock);
		return;
	}
	gl_throw("freeSpecial: bad special kind");
}

/* The sweeper emptied span.specials. */
void spanClearSpecials(mspan *s) {
	setPageSpecials(s, false);
}
