/*
 * mprof.c — the heap profile: runtime.MemProfileRate, runtime.MemProfile
 * (Go's mprof.go, and malloc.go's sampling), by Go's names.
 *
 * What is sampled.  Recording every allocation would cost a stack walk
 * each; Go records a random sample instead, one allocation per
 * MemProfileRate bytes on average, and lets the reader scale the counts
 * back up.  The sample points are a Poisson process over the bytes
 * allocated: each mcache counts down nextSample bytes, drawn from an
 * exponential distribution of mean MemProfileRate, and the allocation
 * that reaches zero is sampled and a new distance drawn.  Being
 * memoryless, an object of s bytes is then sampled with probability
 * 1 - exp(-s/MemProfileRate) whatever came before it, which is what
 * pprof's unsampling (and Go's test/heapsampling.go) divides by.  Sizes
 * are what the heap hands out: the size class, a large object's whole
 * pages, a whole 16-byte block for the tiny allocator (its pieces placed
 * in an existing block are not sampled on their own, as in Go).
 * MemProfileRate 1 samples every allocation, 0 none; the program may
 * change it at any time and mallocgc reads it at each allocation (the
 * distance already drawn stands: the first sample after a change comes
 * at the old rate, as in Go).
 *
 * What a sample records: the call stack of the allocating goroutine, as
 * runtime.Callers would give it (runtime C frames are not shown), and the
 * size.  Each (stack, size) has one bucket, found through a hash table,
 * holding the allocations and frees counted there.  The sampled object
 * gets a special record on its span (mspecial.c's specialprofile, naming
 * the bucket): when the sweeper frees the object, the free is counted in
 * the bucket.  An object kept alive for its finalizer keeps its record.
 *
 * When it is published (Go's three-cycle scheme).  Allocations happen at
 * once but frees only when a collection sweeps, so a profile that counted
 * both as they happen would show garbage not yet collected as live.  So
 * MemProfile shows the heap as of the last completed collection: the
 * allocations made before it and the frees its sweep made.  Counts go
 * first into one of three future slots of the bucket, chosen by the cycle
 * number mProfCycle (incremented at each mark termination, world stopped):
 *
 *   allocation while mProfCycle = C     -> future[(C+2) % 3]
 *   free by the sweep after cycle C     -> future[(C+1) % 3]
 *
 * so the allocations made before cycle C+1 and the frees of its sweep
 * meet in one slot, which is added to the published counts (active) once
 * that sweep is complete (mProf_PostSweep); mProf_Flush, at mark
 * termination, publishes the slot of the cycle before, whose sweep is
 * surely done.  Go does mProf_PostSweep only in runtime.GC; gl's last
 * sweeper does it whenever a cycle's sweep completes (mgcsweep.c), so a
 * profile read after the sweep shows it, and runtime.GC, which sweeps
 * everything before it returns, gets it as Go's.
 *
 * Memory and locks.  Buckets come from persistentalloc: outside the
 * heap, never freed, never scanned — they hold pcs and counts, no heap
 * pointer, so the collector needs to see nothing here.  proflock guards
 * the hash table, the bucket list, every bucket's counts and mProfCycle;
 * it is taken on g0 only and held without parking.  Lock order: noplock
 * (malloc.c), proflock, a span's speciallock, mheap_.speciallock; the
 * sweepers take proflock through mProf_Free.
 */
#include <math.h>

#include "rt.h"

/* The variable when the program does not link package runtime (whose
 * definition takes precedence), Go's default: one sample per 512 KiB. */
enum { defaultMemProfileRate = 512 * 1024 };
__attribute__((weak)) int64_t runtime_MemProfileRate = defaultMemProfileRate;

enum {
	maxStack = 32,          /* pcs kept per sample: MemProfileRecord.Stack0's */
	buckHashSize = 1 << 14, /* chains of the bucket table */
};

/* What one bucket counted in one cycle, or in total (active). */
typedef struct memRecordCycle {
	int64_t allocs, frees;
	int64_t alloc_bytes, free_bytes;
} memRecordCycle;

/* One (stack, size) of the heap profile (Go's bucket with its memRecord).
 * Invariants, under proflock: active is what MemProfile shows, the sum of
 * the published future slots; future[i] counts what is not published
 * yet, by the cycle rule at the top; stk[0..nstk) are the pcs, innermost
 * first. */
struct bucket {
	bucket *next;    /* in its hash chain */
	bucket *allnext; /* in mbuckets, newest first */
	uint64_t hash;
	uint64_t size;
	memRecordCycle active;
	memRecordCycle future[3];
	int64_t nstk;
	uintptr_t stk[];
};

static mutex proflock = MUTEX(lockRankProf);
static bucket **buckhash; /* buckHashSize chains, made by the first sample */
static bucket *mbuckets;  /* every bucket */
static uint32_t mProfCycle;

static void addcycle(memRecordCycle *to, memRecordCycle *from) {
	to->allocs += from->allocs;
	to->frees += from->frees;
	to->alloc_bytes += from->alloc_bytes;
	to->free_bytes += from->free_bytes;
	*from = (memRecordCycle){0};
}

static uint64_t hashstack(const uintptr_t *stk, int64_t n, uint64_t size) {
	uint64_t h = 0xcbf29ce484222325ull;
	for (int64_t i = 0; i < n; i++)
		h = (h ^ stk[i]) * 0x100000001b3ull;
	h = (h ^ size) * 0x100000001b3ull;
	return h ^ h >> 29;
}

/* The bucket of (stk, size), made if new.  proflock held, on g0. */
static bucket *stkbucket(const uintptr_t *stk, int64_t n, uint64_t size) {
	if (buckhash == NULL)
		buckhash = persistentallocStat(buckHashSize * sizeof(bucket *), &memstats.buckhash_sys);
	uint64_t h = hashstack(stk, n, size);
	bucket **chain = &buckhash[h % buckHashSize];
	for (bucket *b = *chain; b != NULL; b = b->next)
		if (b->hash == h && b->size == size && b->nstk == n && memcmp(b->stk, stk, n * sizeof *stk) == 0)
			return b;
	bucket *b = persistentallocStat(sizeof(bucket) + n * sizeof *stk, &memstats.buckhash_sys);
	b->hash = h;
	b->size = size;
	b->nstk = n;
	memcpy(b->stk, stk, n * sizeof *stk);
	b->next = *chain;
	*chain = b;
	b->allnext = mbuckets;
	mbuckets = b;
	return b;
}

/* ---- sampling (malloc.c calls these on g0) ---- */

/* A uniform double in (0, 1], 53 random bits: the M's fastrand, or on
 * a thread that is no M (runtime/heap_test's allocators) the cycle
 * counter, hashed. */
static double uniform01(void) {
	uint64_t r;
	if (tls_g != NULL)
		r = (uint64_t)fastrand() << 32 | fastrand();
	else {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__uint128_t m = (__uint128_t)((uint64_t)hi << 32 | lo) * 0x9e3779b97f4a7c15ull;
		r = (uint64_t)m ^ (uint64_t)(m >> 64);
	}
	return (double)((r >> 11) + 1) * 0x1p-53;
}

/* Bytes to allocate before the next sample: exponential with mean
 * MemProfileRate (Go's nextSample; 1 and 0 never count down). */
uint64_t nextSample(void) {
	int64_t rate = runtime_MemProfileRate;
	if (rate <= 0)
		rate = defaultMemProfileRate; /* before package runtime's init */
	double d = -log(uniform01()) * (double)rate;
	return d >= 0x1p62 ? (uint64_t)1 << 62 : (uint64_t)d;
}

/* The goroutine that allocates: its pcs from the frame record where it
 * switched to g0.  None if no goroutine switched here (the scheduler's
 * own allocations). */
static int64_t allocstack(uintptr_t *stk) {
	G *gp = getm()->curg;
	if (gp == NULL || gp->sched.sp == 0)
		return 0;
	return tracebackpcs(gp, gp->sched.bp, stk, maxStack);
}

/* Record the sampled allocation x of size bytes (Go's mProf_Malloc). */
static void mProf_Malloc(uintptr_t x, uint64_t size) {
	uintptr_t stk[maxStack];
	int64_t n = allocstack(stk);
	lock(&proflock);
	bucket *b = stkbucket(stk, n, size);
	memRecordCycle *mpc = &b->future[(mProfCycle + 2) % 3];
	mpc->allocs++;
	mpc->alloc_bytes += (int64_t)size;
	unlock(&proflock);
	setprofilebucket(x, b); /* takes span locks: outside proflock, as Go */
}

/* mallocgc found x, of size bytes, at a sample point of c's countdown:
 * record it and draw the next distance (Go's profilealloc).  On g0. */
void profilealloc(mcache *c, uintptr_t x, uint64_t size) {
	c->nextSample = nextSample();
	mProf_Malloc(x, size);
}

/* ---- frees and publication (the collector's) ---- */

/* The sweeper freed a sampled object of bucket b. */
void mProf_Free(bucket *b, uint64_t size) {
	lock(&proflock);
	memRecordCycle *mpc = &b->future[(mProfCycle + 1) % 3];
	mpc->frees++;
	mpc->free_bytes += (int64_t)size;
	unlock(&proflock);
}

/* Mark termination, world stopped: a new cycle starts counting. */
void mProf_NextCycle(void) {
	lock(&proflock);
	mProfCycle++;
	unlock(&proflock);
}

static void publish(uint32_t slot) {
	for (bucket *b = mbuckets; b != NULL; b = b->allnext)
		addcycle(&b->active, &b->future[slot]);
}

/* After mProf_NextCycle: publish the cycle before's slot, whose sweep is
 * done. */
void mProf_Flush(void) {
	lock(&proflock);
	publish(mProfCycle % 3);
	unlock(&proflock);
}

/* The sweep of the cycle is complete: publish its slot (allocations made
 * before the cycle, frees of its sweep). */
void mProf_PostSweep(void) {
	lock(&proflock);
	publish((mProfCycle + 1) % 3);
	unlock(&proflock);
}

/* ---- runtime.MemProfile ---- */

/* stdlib/runtime's MemProfileRecord (glc contract's layout: Stack0 is a
 * struct whose elements are .a[i]) */
typedef struct runtime_MemProfileRecord MemProfileRecord;
_Static_assert(sizeof(((MemProfileRecord *)0)->Stack0.a) == maxStack * sizeof(uintptr_t), "Stack0 holds maxStack PCs");

typedef struct memprofarg {
	MemProfileRecord *p;
	int64_t len;
	bool inuseZero;
	int64_t n;
} memprofarg;

static int64_t countrecords(bool inuseZero, bool *clear) {
	int64_t n = 0;
	*clear = true;
	for (bucket *b = mbuckets; b != NULL; b = b->allnext) {
		if (inuseZero || b->active.alloc_bytes != b->active.free_bytes)
			n++;
		if (b->active.allocs != 0)
			*clear = false;
	}
	return n;
}

static void memprofile_m(void *arg) {
	memprofarg *a = arg;
	lock(&proflock);
	bool clear;
	int64_t n = countrecords(a->inuseZero, &clear);
	if (clear) {
		/* nothing published: no collection yet (GLGC=off from the
		 * start, or a short program).  Show everything counted so far,
		 * as Go does, rather than nothing. */
		for (int i = 0; i < 3; i++)
			publish((uint32_t)i);
		n = countrecords(a->inuseZero, &clear);
	}
	a->n = n;
	if (n <= a->len) {
		MemProfileRecord *r = a->p;
		for (bucket *b = mbuckets; b != NULL; b = b->allnext) {
			if (!a->inuseZero && b->active.alloc_bytes == b->active.free_bytes)
				continue;
			r->AllocBytes = b->active.alloc_bytes;
			r->FreeBytes = b->active.free_bytes;
			r->AllocObjects = b->active.allocs;
			r->FreeObjects = b->active.frees;
			memset(r->Stack0.a, 0, sizeof r->Stack0.a);
			memcpy(r->Stack0.a, b->stk, b->nstk * sizeof b->stk[0]);
			r++;
		}
	}
	unlock(&proflock);
}

/* runtime.memProfile(p []MemProfileRecord, inuseZero bool) int: the
 * number of records; copied into p if they fit (MemProfile's ok). */
int64_t runtime_memProfile(G *g, const GlSlice *p, bool inuseZero) {
	(void)g;
	memprofarg a = {p->ptr, p->len, inuseZero, 0};
	systemstack(memprofile_m, &a);
	return a.n;
}
