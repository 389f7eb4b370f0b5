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
 * The fast path.  mallocgc is called straight from generated code and
 * from runtime C on the goroutine stack (DESIGN.md S7), so it is a leaf
 * with a small frame (tests/stackusage.py): the size class from a table,
 * the P from TLS (tls_g->m->p), the cached span, nextFreeFast (a count of
 * trailing zeros, a compare, a shift, two stores, a multiply-add), then
 * clearing if the slot may hold old data (span.needzero; never yet, since
 * nothing is freed) and the pointer bits for scan classes.
 * No lock, no atomic operation, no counter: statistics are settled per
 * span (mcache.c).  Everything else goes through systemstack to g0:
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
static mutex noplock;
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
 * counts: no extra frame on the way (tests/stackusage.py). */
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
	uintptr_t x;
	mspan *s;
} mallocArgs;

/* Clear the slot if it may hold old data, and set its pointer bits. */
static inline __attribute__((always_inline)) void initObject(uintptr_t x, mspan *s, uint64_t size, const GlType *typ,
							     bool noscan, bool needzero) {
	if (GL_UNLIKELY(s->needzero) && needzero)
		memset((void *)x, 0, s->elemsize);
	if (!noscan)
		heapBitsSetType(x, s, size, typ);
}

static void mallocslow_m(void *arg) {
	mallocArgs *a = arg;
	uintptr_t x = mcache_nextFree(a->c, a->spc);
	initObject(x, a->c->alloc[a->spc], a->size, a->typ, a->noscan, a->needzero);
	a->x = x;
}

/* A small object when nextFreeFast found no slot in c's span: the rest
 * of mallocgc, on g0. */
static GL_NOINLINE void *mallocslow(uint64_t size, const GlType *typ, bool noscan, bool needzero, mcache *c,
				    spanClass spc) {
	mallocArgs a = {.size = size, .typ = typ, .noscan = noscan, .needzero = needzero, .c = c, .spc = spc};
	systemstack(mallocslow_m, &a);
	/* the pacer asked for a cycle: start it here, on the way out of the
	 * slow path (gcTrigger checks this is a safe point); the new object
	 * is in a, in this frame, which the collector scans word by word */
	if (GL_UNLIKELY(wantcycle()))
		gcTrigger();
	return (void *)a.x;
}

static void mallocclear_m(void *arg) {
	mallocArgs *a = arg;
	initObject(a->x, a->s, a->size, a->typ, a->noscan, true);
}

/* A slot of a span that may hold old data (needzero): cleared, then its
 * pointer bits, on g0 (a bitmap clear and a memset would not fit the
 * stack band after the callers' frames).  Returns x. */
static GL_NOINLINE void *mallocclear(uintptr_t x, mspan *s, uint64_t size, const GlType *typ, bool noscan) {
	mallocArgs a = {.size = size, .typ = typ, .noscan = noscan, .x = x, .s = s};
	systemstack(mallocclear_m, &a);
	return (void *)x;
}

static void heapBitsSlow_m(void *arg) {
	mallocArgs *a = arg;
	heapBitsSetType(a->x, a->s, a->size, a->typ);
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
	return (void *)a.x;
}

/* ---- the interface ---- */

void *mallocgc(uint64_t size, const GlType *typ, bool needzero) {
	if (GL_UNLIKELY(size == 0))
		return &zerobase;
	bool noscan = typ == NULL || typ->ptrdata == 0;
	if (GL_UNLIKELY(size > maxSmallSize))
		return largeAlloc(size, typ, noscan, needzero);
	P *pp = getm()->p;
	if (GL_UNLIKELY(pp == NULL))
		return mallocnop(size, typ, noscan, needzero);
	mcache *c = &pp->mcache;
	spanClass spc = makeSpanClass(size_to_class(size), noscan);
	mspan *s = c->alloc[spc];
	uintptr_t x = GL_LIKELY(gl_debug.gcstress == 0) ? nextFreeFast(s) : 0;
	/* every call from here is a tail call: the fast path keeps nothing
	 * across a call, so its frame stays a few words (S7) */
	if (GL_UNLIKELY(x == 0))
		return mallocslow(size, typ, noscan, needzero, c, spc);
	if (GL_UNLIKELY(s->needzero) && needzero)
		return mallocclear(x, s, size, typ, noscan);
	if (noscan)
		return (void *)x;
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
		return (void *)x;
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

/* TotalAlloc and Mallocs (nothing is freed: HeapAlloc and HeapObjects
 * too) and HeapInuse: the per-class counts, less the free slots of the
 * spans the mcaches hold now (mcache.c).  Exact for the calling P's own
 * allocations; other Ps' may be a moment apart, as in any read without
 * stopping the world. */
void readheapstats(uint64_t *totalalloc, uint64_t *nmalloc, uint64_t *inuse) {
	uint64_t objs = __atomic_load_n(&memstats.nlargealloc, __ATOMIC_RELAXED);
	uint64_t bytes = __atomic_load_n(&memstats.heap_large, __ATOMIC_RELAXED);
	for (int i = 1; i < numSizeClasses; i++) {
		uint64_t n = __atomic_load_n(&memstats.smallAllocCount[i], __ATOMIC_RELAXED);
		objs += n;
		bytes += n * class_to_size[i];
	}
	uint64_t ub, uo = mcache_unusedObjects(&nopcache, &ub);
	P **ps = __atomic_load_n(&allp, __ATOMIC_ACQUIRE);
	int32_t np = __atomic_load_n(&gomaxprocs, __ATOMIC_ACQUIRE);
	for (int32_t i = 0; ps != NULL && i < np; i++) {
		uint64_t b;
		uo += mcache_unusedObjects(&ps[i]->mcache, &b);
		ub += b;
	}
	*nmalloc = objs > uo ? objs - uo : 0;
	*totalalloc = bytes > ub ? bytes - ub : 0;
	if (inuse != NULL)
		*inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
}

void readmemstats(uint64_t *totalalloc, uint64_t *nmalloc) {
	readheapstats(totalalloc, nmalloc, NULL);
}
