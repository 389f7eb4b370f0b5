/*
 * mstats.c — runtime.ReadMemStats (Go's runtime/mstats.go), from what
 * the allocator (malloc.c, mcache.c, mheap.c) and the stacks (stack.c)
 * count, and the collector's figures (mgc.c): Alloc and HeapAlloc are
 * TotalAlloc less what the sweeper freed, HeapObjects Mallocs less Frees.
 */
#include "rt.h"

/* stdlib/runtime's MemStats (glc contract's layout: its arrays are
 * structs whose elements are .a[i]). */
typedef struct runtime_MemStats MemStats;

/* MemStats.BySize's length, Go's: the size classes up to 32 KiB less
 * the last seven (Go fixed the array before it had 68 classes). */
enum { bySizeLen = sizeof(((MemStats *)0)->BySize.a) / sizeof(((MemStats *)0)->BySize.a[0]) };
_Static_assert(bySizeLen == 61, "MemStats.BySize has Go's length");

/* The page heap's three sizes, read together under its lock so that
 * Go's invariants hold in every snapshot: HeapSys = HeapInuse + HeapIdle,
 * HeapReleased <= HeapIdle. */
typedef struct heapsizes {
	uint64_t sys, inuse, released, mspaninuse;
} heapsizes;

static void readheapsizes(heapsizes *hs) {
	lock(&mheap_.lock);
	hs->sys = memstats.heap_sys;
	hs->inuse = memstats.heap_inuse;
	hs->released = memstats.heap_released;
	hs->mspaninuse = mheap_.spanalloc.inuse;
	unlock(&mheap_.lock);
}

/* BySize: per size class, the objects allocated (counted when an mcache
 * takes a span, less the free slots the mcaches hold now) and freed. */
static void readBySize(MemStats *m) {
	uint64_t n[numSizeClasses];
	readclassallocs(n);
	for (int i = 0; i < bySizeLen; i++) {
		m->BySize.a[i].Size = (uint32_t)class_to_size[i];
		m->BySize.a[i].Mallocs = n[i];
		m->BySize.a[i].Frees = i == 0 ? 0 : memstats.nfree[i];
	}
}

/* On g0 (its arrays would not fit the goroutine stack's band), with the
 * world stopped. */
static void readMemStats_m(void *arg) {
	MemStats *m = arg;
	uint64_t totalalloc, nmalloc;
	readheapstats(&totalalloc, &nmalloc, NULL);
	memset(m, 0, sizeof *m);
	/* Go counts the tiny allocator's pieces in both Mallocs and Frees:
	 * HeapObjects counts its blocks */
	uint64_t tiny = tinyAllocCount();
	nmalloc += tiny;
	uint64_t nfree = memstats.nlargefree + tiny, freed = memstats.largefreed;
	for (int i = 1; i < numSizeClasses; i++) {
		nfree += memstats.nfree[i];
		freed += memstats.nfree[i] * class_to_size[i];
	}
	m->TotalAlloc = totalalloc;
	m->Alloc = totalalloc - freed;
	m->HeapAlloc = m->Alloc;
	m->Mallocs = nmalloc;
	m->Frees = nfree;
	m->HeapObjects = nmalloc - nfree;
	m->NextGC = gcstats.nextGC;
	m->LastGC = gcstats.lastGC;
	m->PauseTotalNs = gcstats.pauseTotalNs;
	memcpy(m->PauseNs.a, gcstats.pauseNs, sizeof m->PauseNs.a);
	memcpy(m->PauseEnd.a, gcstats.pauseEnd, sizeof m->PauseEnd.a);
	m->NumGC = gcstats.numgc;
	m->NumForcedGC = gcstats.numforcedgc;
	m->GCCPUFraction = gcstats.cpuFraction;
	m->EnableGC = true; /* as Go's: true even with GLGC=off */
	heapsizes hs;
	readheapsizes(&hs);
	m->HeapSys = hs.sys;
	m->HeapInuse = hs.inuse;
	m->HeapIdle = hs.sys - hs.inuse;
	m->HeapReleased = hs.released;
	m->StackInuse = __atomic_load_n(&memstats.stacks_inuse, __ATOMIC_RELAXED);
	m->StackSys = __atomic_load_n(&memstats.stacks_sys, __ATOMIC_RELAXED);
	/* the runtime's own memory, each byte on one line (mpersistent.c) */
	m->MSpanInuse = hs.mspaninuse;
	m->MSpanSys = __atomic_load_n(&memstats.mspan_sys, __ATOMIC_RELAXED);
	m->MCacheInuse = m->MCacheSys = __atomic_load_n(&memstats.mcache_sys, __ATOMIC_RELAXED);
	m->BuckHashSys = __atomic_load_n(&memstats.buckhash_sys, __ATOMIC_RELAXED);
	m->GCSys = __atomic_load_n(&memstats.gc_sys, __ATOMIC_RELAXED);
	m->OtherSys = __atomic_load_n(&memstats.other_sys, __ATOMIC_RELAXED);
	readBySize(m);
#ifdef GL_GC_BOEHM
	/* the heap is Boehm's (gl's own holds the stacks only) */
	boehmReadMemStats(&m->HeapAlloc, &m->HeapSys, &m->HeapIdle, &m->HeapReleased, &m->TotalAlloc, &m->NextGC,
			  &m->Mallocs);
	m->HeapObjects = m->Mallocs; /* Boehm counts no frees: Frees stays 0 */
	m->Alloc = m->HeapAlloc;
	m->HeapInuse = m->HeapSys - m->HeapIdle;
	memset(&m->BySize, 0, sizeof m->BySize); /* Boehm's size classes are its own */
	for (int i = 0; i < bySizeLen; i++)
		m->BySize.a[i].Size = (uint32_t)class_to_size[i];
#endif
	m->Sys = m->HeapSys + m->StackSys + m->MSpanSys + m->MCacheSys + m->BuckHashSys + m->GCSys + m->OtherSys;
	m->StackCopies = __atomic_load_n(&memstats.stack_copies, __ATOMIC_RELAXED);
	m->StackBytesCopied = __atomic_load_n(&memstats.stack_bytes_copied, __ATOMIC_RELAXED);
	m->StackCopyNs = __atomic_load_n(&memstats.stack_copy_ns, __ATOMIC_RELAXED);
}

/* With the world stopped, as Go's: the sweepers run on Ps, and a span
 * freed between the read of the frees and the read of HeapInuse would
 * show more heap allocated than in use. */
void runtime_readMemStats(G *g, MemStats *m) {
	(void)g;
	/* m may lie in this goroutine's stack, which may move while
	 * stopTheWorld waits for another stop (S4): kept as an offset from
	 * the stack's top meanwhile */
	G *gp = getg();
	bool onstack = (uintptr_t)m >= gp->stack.lo && (uintptr_t)m < gp->stack.hi;
	uintptr_t off = gp->stack.hi - (uintptr_t)m;
	stopTheWorld("read mem stats");
	if (onstack)
		m = (MemStats *)(getg()->stack.hi - off);
	systemstack(readMemStats_m, m);
	startTheWorld();
}
