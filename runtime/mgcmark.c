/*
 * mgcmark.c — marking (Go's mgcmark.go, with the world stopped).
 *
 * Tri-color marking, as Go's collector: an object is white while its mark
 * bit is clear, grey once its bit is set and it waits on the work list,
 * black once scanned.  markroots greys what the roots point to; gcDrain
 * takes grey objects off the list and scans them (scanobject), greying
 * the white objects they point to, until the list is empty.  Then every
 * object still white is unreachable, and the sweeper (mgcsweep.c) frees
 * it.  With the world stopped there is no write barrier to keep: no
 * goroutine runs while the graph is walked.
 *
 * A word is followed only if the heap's pointer bits say it holds a
 * pointer (heapBitsSetType wrote them at allocation from the object's
 * type; noscan spans have no pointers at all), so the heap is scanned
 * precisely.  Roots are precise too — package variables (glc's
 * GL_GLOBAL_ROOT records), the runtime's own fields (gcscanruntime, the
 * finalizer queue among them), what finalizer records refer to
 * (markrootSpans), every data frame through its stack map — except the innermost frames
 * of a stopped goroutine, which no map describes (preempt.c, asyncframe
 * and syncframe): their words are taken as pointers if they point into an
 * allocated object, which keeps that object alive (conservatively) and
 * is harmless otherwise: the collector never moves objects.
 *
 * Interior pointers are common (a slice of the middle of an array, a
 * pointer to a field): findObject maps any address inside an allocated
 * slot to the slot.  Addresses outside the heap (stacks, globals, type
 * descriptors, persistentalloc'd records) are ignored.
 *
 * The work list is a stack of object addresses in memory from the OS
 * (sysAlloc), grown by doubling; it is never on the heap it describes.
 */
#include "rt.h"

/* ---- the work list (Go's gcWork, one for the whole world) ---- */

static struct {
	uintptr_t *stack;
	uint64_t n, cap;
} work;

static GL_NOINLINE void workgrow(void) {
	uint64_t ncap = work.cap == 0 ? 4096 : work.cap * 2;
	uintptr_t *ns = sysAlloc(ncap * sizeof(uintptr_t), &memstats.gc_sys);
	if (work.n != 0)
		memcpy(ns, work.stack, work.n * sizeof(uintptr_t));
	if (work.stack != NULL)
		sysFree(work.stack, work.cap * sizeof(uintptr_t), &memstats.gc_sys);
	work.stack = ns;
	work.cap = ncap;
}

static inline void workpush(uintptr_t obj) {
	if (GL_UNLIKELY(work.n == work.cap))
		workgrow();
	work.stack[work.n++] = obj;
}

/* ---- greying ---- */

gcstats_t gcstats;

/* Shade the object p points into, if any: set its mark bit, and put it on
 * the work list unless it has no pointers (noscan: it is black at once).
 * p may be any word: findObject rejects what is not inside an allocated
 * slot (Go's greyobject, reached through findObject as its shade). */
static inline void greyobject(uintptr_t p) {
	mspan *s;
	uint32_t idx;
	if (p < 4096)
		return;
	uintptr_t obj = findObject(p, &s, &idx);
	if (obj == 0)
		return;
	uint8_t *b = &s->gcmarkBits[idx / 8], m = (uint8_t)(1 << (idx % 8));
	if (*b & m)
		return;
	*b |= m;
	gcstats.markedObjects++;
	gcstats.markedBytes += s->elemsize;
	if (!spanClass_noscan(s->spanclass))
		workpush(obj);
}

/* Set while marking runs with the mutators (part 2): only then does the
 * write barrier shade.  Today the world is stopped for the whole mark, so
 * no barrier runs while this is set and shade has nothing to do. */
bool gcBlackenEnabled;

/* Go's shade: the write barrier's way to grey an object. */
void gcShade(uintptr_t p) {
	if (gcBlackenEnabled)
		greyobject(p);
}

/* The root callback: slot holds a pointer (precisely, or conservatively:
 * the same test serves both). */
static void markslot(uintptr_t *slot, void *arg) {
	(void)arg;
	greyobject(*slot);
}

/* Scan one grey object: every word its pointer bits mark (Go's
 * scanobject), but for pointers into the object itself.  A large object is scanned up to where its allocation
 * ends (limit), a small one its whole slot: the bits past the type's
 * ptrdata are clear. */
static void scanobject(uintptr_t obj) {
	mspan *s = spanOfHeap(obj);
	uintptr_t end = spanClass_sizeclass(s->spanclass) == 0 ? s->limit : obj + s->elemsize;
	heapArena *ha = arenaOf(obj);
	for (uintptr_t a = obj; a < end; a += 8) {
		uintptr_t w = (a & (heapArenaBytes - 1)) >> 3;
		if ((w & 7) == 0 && ha->bitmap[w >> 3] == 0 && a + 64 <= end) {
			a += 56; /* eight words without a pointer */
			continue;
		}
		uintptr_t p = *(uintptr_t *)a;
		/* a pointer back into obj is skipped: obj is marked already,
		 * except as a finalizer's root (markrootSpans), where a
		 * pointer to itself must not keep it alive */
		if ((ha->bitmap[w >> 3] >> (w & 7) & 1) && p - obj >= end - obj)
			greyobject(p);
		if (((a + 8) & (heapArenaBytes - 1)) == 0)
			ha = arenaOf(a + 8); /* a large object may cross into the next arena */
	}
	gcstats.scannedBytes += end - obj;
}

/* Blacken until nothing is grey (Go's gcDrain). */
void gcDrain(void) {
	while (work.n > 0)
		scanobject(work.stack[--work.n]);
}

/* ---- roots ---- */

/* Every goroutine's stack: each data frame's pointer slots by its stack
 * map, and the innermost frames word by word (preempt.c). */
static void markstacks(void) {
	int64_t n = __atomic_load_n(&allglen, __ATOMIC_ACQUIRE);
	for (int64_t i = 0; i < n; i++) {
		G *gp = allgs[i];
		if (readgstatus(gp) == Gdead)
			continue;
		gcscanstack(gp, markslot, markslot, NULL);
		gcstats.stacks++;
	}
}

/* The roots a span's finalizer records make (Go's markrootSpans): the
 * func value, and everything the object points to -- but not the
 * object, so that the sweeper can find it unreachable and queue its
 * finalizer while all it needs survives.  An object reachable only from
 * an object being finalized is marked here, so its own finalizer waits
 * for a later cycle: finalizers run in dependency order.  (The type
 * words are greyed too, in case reflect made a type on the heap.)
 * The world is stopped: nobody holds a span's speciallock. */
static void markspanspecials(mspan *s) {
	for (special *sp = s->specials; sp != NULL; sp = sp->next) {
		if (sp->kind != KindSpecialFinalizer)
			continue; /* a profile mark refers to nothing on the heap */
		uintptr_t obj = s->startAddr + sp->offset / s->elemsize * s->elemsize;
		if (!spanClass_noscan(s->spanclass))
			scanobject(obj);
		specialfinalizer *f = (specialfinalizer *)sp;
		greyobject((uintptr_t)f->fn);
		greyobject((uintptr_t)f->ft);
		greyobject((uintptr_t)f->fint);
		greyobject((uintptr_t)f->ot);
	}
}

/* Every span with special records, through the arenas' pageSpecials. */
static void markrootSpans(void) {
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		for (uint32_t i = 0; i < pagesPerArena / 8; i++) {
			uint8_t bits = ha->pageSpecials[i];
			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctz(bits);
				bits &= (uint8_t)(bits - 1);
				markspanspecials(ha->spans[i * 8 + b]);
			}
		}
	}
}

/* Grey everything the roots point to (Go's markroot, all jobs at once). */
void gcMarkRoots(void) {
	gcscanglobals(markslot, NULL);
	gcscanruntime(markslot, NULL);
	markrootSpans();
	markstacks();
}

/* Whether the object at p (an allocated slot's base) is marked: for the
 * tests and the checks. */
bool gcIsMarked(uintptr_t p) {
	mspan *s;
	uint32_t idx;
	if (findObject(p, &s, &idx) == 0)
		return false;
	return s->gcmarkBits[idx / 8] >> (idx % 8) & 1;
}
