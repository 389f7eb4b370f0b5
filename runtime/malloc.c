/*
 * malloc.c — the allocator behind Go's interface: mallocgc, newobject,
 * newarray (Go's malloc.go).
 *
 * The heap is Go's (mheap.h lists the pieces; docs/gc.md tells the
 * story): small objects (up to 32 KiB) are rounded up to one of 67 size
 * classes (sizeclasses.c) and carved from spans of 8 KiB pages, one span
 * class per size class and pointer-ness; each P allocates from its own
 * mcache of spans without a lock; mcentrals trade spans between Ps; the
 * page heap (mheap.c) cuts spans out of 64 MiB arenas.  Large objects get
 * a span of their own straight from the page heap.  There is no collector
 * yet: nothing is freed, but every structure it needs is kept (alloc and
 * mark bits, pointer bits, the address -> span index).
 *
 * Span classes: a type with no pointers (typ == NULL or typ->ptrdata ==
 * 0) goes to the noscan class of its size; the collector will never look
 * inside those objects, and they get no pointer bits.  Other objects get
 * their pointer bits set from typ right after the slot is taken.
 *
 * The tiny allocator (Go's): pointer-free requests under 16 bytes are
 * pieces of a 16-byte block the mcache keeps (mcache.tiny), aligned as
 * their size allows; only a new block is an allocation of the heap's.
 *
 * The heap profile (mprof.c): each allocation's size is subtracted from
 * the mcache's nextSample countdown; the one that would take it below
 * zero (every one at MemProfileRate 1, none at 0) takes the slow path
 * (mallocslow), which records it on g0.
 *
 * The fast path.  mallocgc is called straight from generated code and
 * from runtime C on the goroutine stack (DESIGN.md S7), so it is a leaf
 * with a small frame (testdata/stackusage.py): the size class from a table,
 * the P from TLS (tls_g->m->p), the cached span, nextFreeFast (a count of
 * trailing zeros, a compare, a shift, two stores, a multiply-add), then
 * clearing if the slot may hold old data and the caller wants zeroed
 * memory (span.needzero: a noscan span's freed slots are cleared here, a
 * scan span's by the sweeper) and the pointer bits for scan classes;
 * while the collector marks, the mark bit (gcmarknew, rt.h: black).
 * No lock, no atomic operation but that mark bit's or, no shared
 * counter: statistics are settled per span (mcache.c).  Everything else
 * goes through systemstack to g0:
 *  - mallocslow: the span's 64-slot window or the span is used up
 *    (nextFree, refill from the mcentral, perhaps a new span);
 *  - largeAlloc: a span from the page heap under mheap.lock;
 *  - mallocnop: the M has no P (start-up, an M in a system call, sysmon,
 *    newm): one shared mcache under noplock, as Go's mcache0;
 *  - heapBitsSlow: pointer bits of arrays and of objects with more than
 *    8 words of ptrdata (the common object is written inline: a mask of
 *    at most 8 bits into one or two bitmap bytes).
 * A goroutine is never preempted inside runtime C, so its P cannot change
 * between reading tls_g->m->p and the last store to the span.
 *
 * Zeroing: memory fresh from the kernel is zero, and so is every slot
 * of a span cut from fresh pages; the page heap marks pages it reuses
 * (needzero) and mallocgc clears such slots when the caller asks for
 * zeroed memory.  Go also publishes the object with a store-store barrier
 * for the concurrent collector; that comes with it.
 */
#include "rt.h"
#include "sizeclasses.h"

/* The address of every 0-byte allocation, as Go's zerobase. */
uint64_t zerobase;

/* The mcache of Ms without a P, under noplock (lock order: noplock, then
 * an mcentral's lock, then mheap.lock). */
static mutex noplock = MUTEX(lockRankNop);
static mcache nopcache;

void mallocinit(void) {
	mheap_init();
	mcache_init(&nopcache);
	gcinit();
}

/* The collector's start (world stopped, on g0): every P's mcache and the
 * no-P cache give their spans back.  noplock stays held until
 * mcache_unlockNop, so that an M without a P (in a system call, sysmon)
 * cannot allocate while the heap is marked and swept. */
void mcache_flushAll(void) {
	for (int32_t i = 0; i < gomaxprocs; i++)
		mcache_releaseAll(&allp[i]->mcache);
	lock(&noplock);
	mcache_releaseAll(&nopcache);
}

void mcache_unlockNop(void) {
	unlock(&noplock);
}

/* ---- starting a collection from an allocation ---- */


/* GLDEBUG=gcstress=N: a cycle after every N-th allocation.  With it on,
 * every allocation takes a slow path (mallocslow or largeAlloc), which
 * counts: no extra frame on the way (testdata/stackusage.py). */
static int64_t stresscount;

static inline bool wantcycle(void) {
	if (GL_UNLIKELY(gl_debug.gcstress > 0) &&
	    __atomic_add_fetch(&stresscount, 1, __ATOMIC_RELAXED) % gl_debug.gcstress == 0)
		return true;
	return __atomic_load_n(&gcwanted, __ATOMIC_RELAXED);
}

/* ---- the slow paths, on g0 ---- */

typedef struct mallocArgs {
	uint64_t size;
	const GlType *typ;
	mcache *c;
	spanClass spc;
	bool noscan, needzero;
	uint8_t tinysize; /* a new tiny block for a piece of this size, or 0 */
	bool counted;     /* the fast path counted it down the profile's countdown */
	uintptr_t x;
	union { /* one word: mallocslow's frame must stay within its band (S7) */
		mspan *s; /* mallocclear's span */
		G *stopg; /* mallocslow, largeAlloc: stop this goroutine on the
			   * way out (allocStopCheck) */
	};
} mallocArgs;

/* Clear the slot if it may hold old data, and set its pointer bits. */
static inline __attribute__((always_inline)) void initObject(uintptr_t x, mspan *s, uint64_t size, const GlType *typ,
							     bool noscan, bool needzero) {
	if (GL_UNLIKELY(s->needzero) && needzero)
		memset((void *)x, 0, s->elemsize);
	if (!noscan)
		heapBitsSetType(x, s, size, typ);
}

/* The heap profile's countdown (mprof.c), on g0: x, of size bytes (its
 * slot's), was just allocated through c. */
static void sampleAlloc(mcache *c, uintptr_t x, uint64_t size) {
	int64_t rate = runtime_MemProfileRate;
	if (rate <= 0)
		return;
	if (GL_UNLIKELY(__atomic_load_n(&c->preemptKick, __ATOMIC_RELAXED))) {
		/* a kick zeroed the countdown: draw a fresh one, and this
		 * allocation is sampled by it as by any (the draw is
		 * exponential, memoryless, so the profile stays unbiased; at
		 * rate 1 it is sampled, as every allocation is — returning here
		 * lost samples: Go's test/finprofiled.go).  A load, not an
		 * exchange, on this path taken at every refill: a kick that
		 * lands between the two stores is simply repeated */
		__atomic_store_n(&c->preemptKick, false, __ATOMIC_RELAXED);
		c->nextSample = nextSample();
	}
	if (rate != 1 && size < c->nextSample) {
		c->nextSample -= size;
		return;
	}
	profilealloc(c, x, size);
}

/* x is a new tiny block of c, for a piece of size bytes: make it c's
 * block unless the old one has more room left (Go's rule). */
static inline void tinyInstall(mcache *c, uintptr_t x, uint64_t size) {
	if (size < c->tinyoffset || c->tiny == 0) {
		c->tiny = x;
		c->tinyoffset = size;
	}
}

/* On g0, in a slow path whose arguments a lie in the caller's frame:
 * whether the allocating goroutine has a stop request it can honour on
 * its way out (preempt.c's allocPreempt) — a's address lies in its own
 * stack (not g0's), it has a P, no runtime lock held, not printing.  If
 * so the request is taken here, where there is room for the calls, and
 * a->stopg says so: the goroutine stack band of mallocgc's callers has
 * room for a switch, not for more (testdata/stackusage.py). */
static void allocStopCheck(mallocArgs *a) {
	M *mp = getm();
	G *gp = mp->curg;
	a->stopg = NULL;
	if (GL_LIKELY(gp == NULL || (!__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED) && gp->gcAssistBytes >= 0)))
		return;
	if ((uintptr_t)a < gp->stack.lo || (uintptr_t)a >= gp->stack.hi || mp->p == NULL || !canpreemptm(mp))
		return;
	/* a mark assist's debt (mgcmark.c): paid here, or the goroutine
	 * parks until the worker's credit pays it (a stop request is taken
	 * first) */
	if (!__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED)) {
		if (!gcAssistAlloc(gp))
			return;
		mp->assistpark = !__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED); /* asked during the assist */
	}
	takeRuntimeCStop(gp);
	a->stopg = gp;
}

static void mallocslow_m(void *arg) {
	mallocArgs *a = arg;
	uintptr_t x = mcache_nextFree(a->c, a->spc);
	mspan *s = a->c->alloc[a->spc];
	initObject(x, s, a->size, a->typ, a->noscan, a->needzero);
	if (GL_UNLIKELY(gcBlackenEnabled))
		gcmarknewobject(a->c, s, x);
	if (a->tinysize != 0)
		tinyInstall(a->c, x, a->tinysize);
	if (!a->counted)
		sampleAlloc(a->c, x, s->elemsize);
	a->x = x;
	allocStopCheck(a);
}

/* slowflags: the piece's size for a new tiny block, and this bit when
 * the fast path has counted the allocation down the heap profile's
 * countdown already (or found MemProfileRate <= 0) */
enum { slowCounted = 1 << 8 };

/* A small object when nextFreeFast found no slot in c's span, or one
 * the heap profile samples: the rest of mallocgc, on g0. */
static GL_NOINLINE void *mallocslow(uint64_t size, const GlType *typ, bool needzero, mcache *c, spanClass spc,
				    uint64_t slowflags) {
	mallocArgs a = {.size = size, .typ = typ, .noscan = spanClass_noscan(spc), .needzero = needzero, .c = c,
			.spc = spc, .tinysize = (uint8_t)slowflags, .counted = (slowflags & slowCounted) != 0};
	systemstack(mallocslow_m, &a);
	/* the pacer asked for a cycle: start it here, on the way out of the
	 * slow path (gcTrigger checks this is a safe point); the new object
	 * is in a, in this frame, which the collector scans word by word */
	if (GL_UNLIKELY(wantcycle()))
		gcTrigger();
	if (GL_UNLIKELY(a.stopg != NULL)) /* a stop-the-world or a stack scan waits for it */
		allocPreempt(a.stopg);
	return (void *)a.x;
}

static void mallocclear_m(void *arg) {
	mallocArgs *a = arg;
	initObject(a->x, a->s, a->size, a->typ, a->noscan, a->needzero);
	if (GL_UNLIKELY(gcBlackenEnabled))
		gcmarknewobject(&getm()->p->mcache, a->s, a->x); /* mallocgc's callers have a P */
}

/* A slot of a scan span that may hold old data (needzero): cleared,
 * then its pointer bits, on g0 (a bitmap clear and a memset would not fit
 * the stack band after the callers' frames); black while the collector
 * marks.  Returns x. */
static GL_NOINLINE void *mallocclear(uintptr_t x, mspan *s, uint64_t size, const GlType *typ, bool noscan,
				     bool needzero) {
	mallocArgs a = {.size = size, .typ = typ, .noscan = noscan, .needzero = needzero, .x = x, .s = s};
	systemstack(mallocclear_m, &a);
	return (void *)x;
}

static void heapBitsSlow_m(void *arg) {
	mallocArgs *a = arg;
	heapBitsSetType(a->x, a->s, a->size, a->typ);
	if (GL_UNLIKELY(gcBlackenEnabled))
		gcmarknewobject(&getm()->p->mcache, a->s, a->x);
}

/* The pointer bits of an array or a big object, on g0 (the loop over the
 * type's mask would not fit the stack band after the callers' frames).
 * Returns x. */
static GL_NOINLINE void *heapBitsSlow(uintptr_t x, mspan *s, uint64_t size, const GlType *typ) {
	mallocArgs a = {.size = size, .typ = typ, .x = x, .s = s};
	systemstack(heapBitsSlow_m, &a);
	return (void *)x;
}

static void mallocnop_m(void *arg) {
	mallocArgs *a = arg;
	spanClass spc = makeSpanClass(size_to_class(a->size), a->noscan);
	lock(&noplock);
	mspan *s = nopcache.alloc[spc];
	uintptr_t x = nextFreeFast(s);
	if (x == 0) {
		x = mcache_nextFree(&nopcache, spc);
		s = nopcache.alloc[spc];
	}
	initObject(x, s, a->size, a->typ, a->noscan, a->needzero);
	if (GL_UNLIKELY(gcBlackenEnabled))
		gcmarknewobject(&nopcache, s, x);
	sampleAlloc(&nopcache, x, s->elemsize);
	unlock(&noplock);
	a->x = x;
}

/* A small object for an M without a P. */
static GL_NOINLINE void *mallocnop(uint64_t size, const GlType *typ, bool noscan, bool needzero) {
	mallocArgs a = {.size = size, .typ = typ, .noscan = noscan, .needzero = needzero};
	systemstack(mallocnop_m, &a);
	return (void *)a.x;
}

static void largeAlloc_m(void *arg) {
	mallocArgs *a = arg;
	uint64_t npages = (a->size + pageSize - 1) >> pageShift;
	deductSweepCredit(npages * pageSize);
	sweepReclaim(npages);
	mspan *s = mheap_alloc(npages, makeSpanClass(0, a->noscan));
	s->freeindex = 1;
	s->allocCount = 1;
	s->allocCache = 0;
	s->limit = s->startAddr + a->size;
	__atomic_fetch_add(&memstats.heap_large, npages * pageSize, __ATOMIC_RELAXED);
	__atomic_fetch_add(&memstats.nlargealloc, 1, __ATOMIC_RELAXED);
	gcnoteAlloc(npages * pageSize);
	initObject(s->startAddr, s, a->size, a->typ, a->noscan, a->needzero);
	a->x = s->startAddr;
	mcentral_addLarge(s);
	P *pp = getm()->p;
	mcache *c = pp != NULL ? &pp->mcache : &nopcache;
	if (pp == NULL)
		lock(&noplock);
	if (GL_UNLIKELY(gcBlackenEnabled))
		gcmarknewobject(c, s, s->startAddr);
	sampleAlloc(c, a->x, s->elemsize);
	if (pp == NULL)
		unlock(&noplock);
	allocStopCheck(a);
}

/* A large object: a span of its own, whole pages (Go's largeAlloc).
 * Clearing and pointer bits happen on g0 too: Go does them after the
 * lock, preemptibly, but runtime C is never preempted here anyway. */
static GL_NOINLINE void *largeAlloc(uint64_t size, const GlType *typ, bool noscan, bool needzero) {
	if (size > maxAlloc)
		gl_throw("out of memory: allocation size out of range");
	mallocArgs a = {.size = size, .typ = typ, .noscan = noscan, .needzero = needzero};
	systemstack(largeAlloc_m, &a);
	if (GL_UNLIKELY(wantcycle()))
		gcTrigger(); /* as in mallocslow */
	if (GL_UNLIKELY(a.stopg != NULL))
		allocPreempt(a.stopg);
	return (void *)a.x;
}

/* ---- stopping an allocating goroutine ---- */

/* A stop request for the goroutine running on pp (preemptone, suspendG):
 * its next small allocation takes the slow path, which is a safe point
 * (allocPreempt).  Runtime C has no prologue check, and SIGURG is refused
 * there, so a goroutine that mostly allocates — in mallocgc's fast path
 * nearly all the time — could otherwise keep a stop-the-world or a stack
 * scan waiting for as long as it runs; Go's mallocgc, Go code, checks at
 * its prologue.  Zeroing the countdown from another thread races with the
 * owner's own update of it: either may be lost, and then the request is
 * repeated (the stopper asks again). */
void allocKick(P *pp) {
	if (pp == NULL || runtime_MemProfileRate <= 0)
		return;
	__atomic_store_n(&pp->mcache.preemptKick, true, __ATOMIC_RELAXED);
	__atomic_store_n(&pp->mcache.nextSample, 0, __ATOMIC_RELAXED);
}

/* ---- the interface ---- */


/* x, just taken from s while the collector marks: black (gcmarknew,
 * rt.h), then its first n bytes cleared.  Tail-called by the fast paths,
 * on the goroutine stack: its work inline in them cost mallocgc two more
 * saved registers, and the deepest runtime chain of testdata/stackusage.py
 * (mapassign > ... > mallocgc > malloctiny > mallocslow) 16 bytes past
 * its 512 (S7). */
static GL_NOINLINE void *mallocblack(mcache *c, mspan *s, uintptr_t x, uint64_t n) {
	gcmarknew(c, s, x);
	if (n != 0)
		return memset((void *)x, 0, n); /* a tail call */
	return (void *)x;
}

/* A pointer-free request of size < maxTinySize bytes (Go's tiny
 * allocator): a piece of c's block, aligned as its size allows (a
 * multiple of 8, 4 or 2), or a new zeroed 16-byte block, which is the
 * allocation the heap and the profile see.  Tail-called by mallocgc, and
 * every call here is a tail call: one small frame (S7). */
static GL_NOINLINE void *malloctiny(mcache *c, uint64_t size) {
	uint64_t off = c->tinyoffset;
	if ((size & 7) == 0)
		off = (off + 7) & ~(uint64_t)7;
	else if ((size & 3) == 0)
		off = (off + 3) & ~(uint64_t)3;
	else if ((size & 1) == 0)
		off = (off + 1) & ~(uint64_t)1;
	if (off + size <= maxTinySize && c->tiny != 0) {
		c->tinyoffset = off + size;
		c->tinyAllocs++;
		return (void *)(c->tiny + off);
	}
	/* the heap profile's countdown, as in mallocgc */
	int64_t rate = runtime_MemProfileRate;
	if (GL_LIKELY(rate > 0)) {
		uint64_t next = c->nextSample;
		if (GL_UNLIKELY(rate == 1 || maxTinySize >= next))
			return mallocslow(maxTinySize, NULL, true, c, tinySpanClass, size);
		c->nextSample = next - maxTinySize;
	}
	mspan *s = c->alloc[tinySpanClass];
	uintptr_t x = GL_LIKELY(gl_debug.gcstress == 0) ? nextFreeFast(s) : 0;
	if (GL_UNLIKELY(x == 0))
		return mallocslow(maxTinySize, NULL, true, c, tinySpanClass, size | slowCounted);
	tinyInstall(c, x, size);
	if (GL_UNLIKELY(gcBlackenEnabled)) /* black, and zeroed as below */
		return mallocblack(c, s, x, s->needzero ? maxTinySize : 0);
	if (GL_UNLIKELY(s->needzero)) /* a new block: zero, for its next pieces too */
		return memset((void *)x, 0, maxTinySize);
	return (void *)x;
}

void *mallocgc(uint64_t size, const GlType *typ, bool needzero) {
	if (GL_UNLIKELY(size == 0))
		return &zerobase;
#ifdef GL_GC_BOEHM
	{
		void *p = boehmmallocgc(size, typ, needzero); /* the comparison runtime's heap */
		if (GL_UNLIKELY(boehmPoolsWanted()))
			gcTrigger(); /* sync's pools, after a collection of Boehm's (mgc.c) */
		return p;
	}
#endif
	bool noscan = typ == NULL || typ->ptrdata == 0;
	if (GL_UNLIKELY(size > maxSmallSize))
		return largeAlloc(size, typ, noscan, needzero);
	P *pp = getm()->p;
	if (GL_UNLIKELY(pp == NULL))
		return mallocnop(size, typ, noscan, needzero);
	mcache *c = &pp->mcache;
	if (noscan && size < maxTinySize)
		return malloctiny(c, size);
	uint8_t sizeclass = size_to_class(size);
	spanClass spc = makeSpanClass(sizeclass, noscan);
	/* the heap profile's countdown (mprof.c), by the slot's size: an
	 * allocation to sample (every one at rate 1) takes the slow path,
	 * which records it; counted before the slot is taken, so that
	 * nothing of it is live across nextFreeFast (at rate 0 nothing is
	 * counted, and the slow path's count does nothing either) */
	int64_t rate = runtime_MemProfileRate;
	if (GL_LIKELY(rate > 0)) {
		uint64_t next = c->nextSample, elemsize = class_to_size[sizeclass];
		if (GL_UNLIKELY(rate == 1 || elemsize >= next))
			return mallocslow(size, typ, needzero, c, spc, 0);
		c->nextSample = next - elemsize;
	}
	mspan *s = c->alloc[spc];
	uintptr_t x = GL_LIKELY(gl_debug.gcstress == 0) ? nextFreeFast(s) : 0;
	/* every call from here is a tail call (six arguments at most): the
	 * fast path keeps nothing across a call, so its frame stays a few
	 * words (S7) */
	if (GL_UNLIKELY(x == 0))
		return mallocslow(size, typ, needzero, c, spc, slowCounted);
	/* While the collector marks, the new object is black: marked by
	 * mallocblack, or by the slow helpers below (mallocclear,
	 * heapBitsSlow), which mark it themselves. */
	bool black = GL_UNLIKELY(gcBlackenEnabled);
	if (GL_UNLIKELY(s->needzero) && needzero) {
		/* a noscan slot is cleared here, memset a libc leaf the stack
		 * band allows (and a tail call: it returns x); a scan slot's
		 * pointer bits need g0 */
		if (!noscan)
			return mallocclear(x, s, size, typ, noscan, needzero);
		if (black)
			return mallocblack(c, s, x, s->elemsize);
		return memset((void *)x, 0, s->elemsize);
	}
	if (noscan)
		return black ? mallocblack(c, s, x, 0) : (void *)x;
	/* pointer bits of one object of at most 8 words of ptrdata, in a
	 * span within one arena: its mask, gcdata[0], into one or two bytes
	 * of the bitmap (only this P writes this span's bytes) */
	uint64_t nptr = typ->ptrdata >> 3;
	uint8_t *hb = s->heapBits;
	if (GL_LIKELY(typ->size == size && nptr <= 8 && hb != NULL && !s->needzero)) {
		uintptr_t off = (x - s->startAddr) >> 3;
		unsigned m = (typ->gcdata[0] & ((1u << nptr) - 1)) << (off & 7);
		hb += off >> 3;
		hb[0] |= (uint8_t)m;
		if (m >> 8)
			hb[1] |= (uint8_t)(m >> 8);
		return black ? mallocblack(c, s, x, 0) : (void *)x;
	}
	return heapBitsSlow(x, s, size, typ);
}

void *newobject(const GlType *typ) {
	return mallocgc(typ->size, typ, true);
}

/* new([n]T) and the like: n elements of elem. */
void *gl_newarray(G *g, const GlType *elem, int64_t n) {
	uint64_t mem;
	if (n < 0 || __builtin_mul_overflow(elem->size, (uint64_t)n, &mem) || mem > maxAlloc) {
		gl_panicstring(g, "runtime: allocation size out of range");
		return NULL;
	}
	return mallocgc(mem, elem->ptrdata ? elem : NULL, true);
}

/* ---- statistics ---- */

/* The objects of each size class counted as allocated (n[0], large
 * objects, is left 0): the per-class counts, less the free slots of the
 * spans the mcaches hold now (mcache.c).  Exact for the calling P's own
 * allocations; other Ps' may be a moment apart, as in any read without
 * stopping the world.  MemStats.BySize's Mallocs.  Its arrays want g0
 * (or a C thread's stack), not a goroutine's. */
void readclassallocs(uint64_t n[numSizeClasses]) {
	uint64_t unused[numSizeClasses] = {0};
	mcache_unusedByClass(&nopcache, unused);
	P **ps = __atomic_load_n(&allp, __ATOMIC_ACQUIRE);
	int32_t np = __atomic_load_n(&gomaxprocs, __ATOMIC_ACQUIRE);
	for (int32_t i = 0; ps != NULL && i < np; i++)
		mcache_unusedByClass(&ps[i]->mcache, unused);
	n[0] = 0;
	for (int i = 1; i < numSizeClasses; i++) {
		uint64_t a = __atomic_load_n(&memstats.smallAllocCount[i], __ATOMIC_RELAXED);
		n[i] = a > unused[i] ? a - unused[i] : 0;
	}
}

/* TotalAlloc and Mallocs (before the sweep's frees are taken off) and
 * HeapInuse: readclassallocs' counts and the large objects. */
void readheapstats(uint64_t *totalalloc, uint64_t *nmalloc, uint64_t *inuse) {
	uint64_t n[numSizeClasses];
	readclassallocs(n);
	uint64_t objs = __atomic_load_n(&memstats.nlargealloc, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&memstats.heap_large, __ATOMIC_RELAXED);
	for (int i = 1; i < numSizeClasses; i++) {
		objs += n[i];
		bytes += n[i] * class_to_size[i];
	}
	*nmalloc = objs;
	*totalalloc = bytes;
	if (inuse != NULL)
		*inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
}

/* runtime/metrics' allocs-by-size and frees-by-size
 * (stdlib/runtime/metrics/sample.gl): for each size class, its size and
 * the objects allocated and freed ever; class 0 is the large objects
 * (size 0).  The tiny allocator's pieces are not among them (its blocks
 * are, in their class), as in Go.  Fills what fits in the slices and
 * returns the number of classes.  On g0: the class array is too big for
 * a goroutine stack's band (S7). */
typedef struct classStatsArgs {
	const GlSlice *sizes, *mallocs, *frees;
} classStatsArgs;

static void classStats_m(void *arg) {
	classStatsArgs *a = arg;
	uint64_t n[numSizeClasses];
	readclassallocs(n);
	n[0] = __atomic_load_n(&memstats.nlargealloc, __ATOMIC_RELAXED);
	for (int64_t i = 0; i < numSizeClasses; i++) {
		if (i < a->sizes->len)
			((uint64_t *)a->sizes->ptr)[i] = i == 0 ? 0 : class_to_size[i];
		if (i < a->mallocs->len)
			((uint64_t *)a->mallocs->ptr)[i] = n[i];
		if (i < a->frees->len)
			((uint64_t *)a->frees->ptr)[i] = i == 0 ? __atomic_load_n(&memstats.nlargefree, __ATOMIC_RELAXED)
								: __atomic_load_n(&memstats.nfree[i], __ATOMIC_RELAXED);
	}
}

int64_t runtime_metrics_runtime_sizeClassStats(G *g, const GlSlice *sizes, const GlSlice *mallocs, const GlSlice *frees) {
	(void)g;
	classStatsArgs a = {sizes, mallocs, frees};
	systemstack(classStats_m, &a);
	return numSizeClasses;
}

/* The pieces the tiny allocator placed in existing blocks, ever: Go's
 * MemStats counts them in Mallocs (and, so that HeapObjects counts
 * blocks, in Frees).  Other Ps' counts may be a moment old. */
uint64_t tinyAllocCount(void) {
	uint64_t n = __atomic_load_n(&memstats.tinyallocs, __ATOMIC_RELAXED);
	P **ps = __atomic_load_n(&allp, __ATOMIC_ACQUIRE);
	int32_t np = __atomic_load_n(&gomaxprocs, __ATOMIC_ACQUIRE);
	for (int32_t i = 0; ps != NULL && i < np; i++)
		n += __atomic_load_n(&ps[i]->mcache.tinyAllocs, __ATOMIC_RELAXED);
	return n;
}

void readmemstats(uint64_t *totalalloc, uint64_t *nmalloc) {
	readheapstats(totalalloc, nmalloc, NULL);
	*nmalloc += tinyAllocCount();
}
