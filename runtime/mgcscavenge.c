/*
 * mgcscavenge.c — the scavenger (Go's mgcscavenge.go): when free heap
 * pages go back to the kernel, and how many.
 *
 * The sweeper gives the pages of dead spans back to the page heap
 * (mheap.c), but the memory behind them stays mapped and counts in the
 * process's RSS.  Releasing a free page (sysUnused: MADV_DONTNEED) lets the
 * kernel take it; it stays mapped and reads zero when touched again, so
 * the allocator can hand it out again without clearing it.  mheap.c keeps
 * one bit per page (heapArena.pageScav) and a count per free run
 * (mspan.scavenged), and gives pages back through mheap_scavenge: whole
 * huge pages first, the highest addresses first.  This file decides when.
 *
 * The goal (Go's, set at the end of every cycle by gcPaceScavenger): keep
 * mapped ("retained": HeapSys - HeapReleased) what the heap will need up to
 * the next cycle's goal, with 10% to spare — the heap in use when the
 * cycle started, scaled by how the goal moved, plus 10%:
 *
 *	gcPercentGoal = inuse before sweeping × nextGC / previous nextGC × 1.1
 *
 * so a program whose live heap shrank gives back what it no longer needs
 * and one in a steady state keeps what it reuses.  None before the second
 * cycle (no previous goal) or with the collector off (GLGC=off).  With a
 * memory limit (debug.SetMemoryLimit) all of the runtime's mapped memory
 * (retained heap, stacks, metadata) is also kept under 95% of it.
 *
 * The background scavenger (Go's bgscavenge) is run by sysmon, not by a
 * goroutine as in Go: releasing pages needs no P and no heap object, only
 * mheap.lock and a system call, which sysmon's M (no P, the OS thread's
 * stack) can do without taking a P from the program's goroutines; and it
 * adds no goroutine that NumGoroutine, tracebacks and the deadlock check
 * would have to leave out.  Each step releases one huge page (2 MiB) or
 * less, and is paced to about 1% of one CPU (Go's scavengePercent): after
 * a step that cost sysmon's thread t of CPU time, the next comes t × 99
 * later, at least 1 ms.  CPU time, not the clock: on a loaded machine a
 * step descheduled half-way would otherwise look a hundred times dearer
 * and slow the scavenger down to nothing (gc_bgscavenge missed its 20 s
 * that way once, paced by the clock).  When there is nothing
 * over the goal it parks until the next cycle (or a new memory limit);
 * sysmon then sleeps as long as it would without it (and a cycle's
 * startTheWorld wakes it).  Over the goal with no free page is not a
 * reason to park while the cycle's sweep is under way: the garbage is
 * not free until it is swept, so it looks again every 10 ms until the
 * sweep is done (parked there, it slept through the sweep of 300 MiB
 * that runtime.GC had just found dead, on a loaded machine).
 *
 * The allocator helps (scavengeAssist, Go's in allocSpan): an allocation
 * that grew the heap past the goal releases up to what it grew by, one
 * over the memory limit what the runtime is over it.  Fresh memory counts
 * as released until allocated (mheap_grow), as in Go: it is not resident.
 *
 * debug.FreeOSMemory (Go's scavengeAll) collects, then releases every
 * free page at once, whatever the goal.
 *
 * GLDEBUG=scavtrace=1 prints Go's line once per cycle and at each
 * FreeOSMemory (" (forced)"):
 *	scav W KiB work, T KiB total, U% util
 * W: released since the last line, T: HeapReleased, U: HeapInuse as a
 * percentage of the retained heap.
 */
#include "rt.h"

enum {
	retainExtraPercent = 10, /* kept over the heap goal */
	reduceExtraPercent = 5,  /* kept under the memory limit */
	scavengePercent = 1,     /* of one CPU for the background scavenger */
	scavengeQuantum = 2 << 20,               /* a step: one huge page */
	scavengeMinGapNS = 1000 * 1000,          /* between steps, at least */
	sweepWaitNS = 10 * 1000 * 1000,          /* nothing free while sweeping: look again after */
};

/* The scavenger's state.  gcPercentGoal and released are written under
 * the world stopped or atomically, read anywhere; the rest is sysmon's. */
static struct {
	uint64_t gcPercentGoal; /* retained heap to keep; UINT64_MAX: no goal */
	uint64_t lastHeapGoal;  /* the goal set by the cycle before (0: none yet) */
	uint64_t released;      /* released since the last scavtrace line */
	bool parked;            /* found nothing to do: wait for a cycle... */
	uint32_t parkedgc;      /* ...that is, for gcstats.numgc to move on */
	int64_t parkedlimit;    /* ...or for another memory limit */
	int64_t next;           /* no step before this nanotime */
} scavenger = {.gcPercentGoal = UINT64_MAX};

extern int64_t gl_memorylimit; /* stdlib.c */
void runtime_GC(G *g);         /* mgc.c: runtime.GC */

uint64_t heapRetained(void) {
	return __atomic_load_n(&memstats.heap_sys, __ATOMIC_RELAXED) -
	       __atomic_load_n(&memstats.heap_released, __ATOMIC_RELAXED);
}

/* At the end of a cycle, world stopped: the gcPercent goal from the heap
 * in use before sweeping (inuse) and the goal the cycle set. */
void gcPaceScavenger(uint64_t inuse) {
	uint64_t heapGoal = gcstats.nextGC, goal = UINT64_MAX;
	if (scavenger.lastHeapGoal != 0 && gl_gcpercent >= 0) {
		goal = (uint64_t)((unsigned __int128)inuse * heapGoal / scavenger.lastHeapGoal);
		goal += goal / (100 / retainExtraPercent);
		goal = (goal + pageSize - 1) & ~(uint64_t)(pageSize - 1);
	}
	scavenger.lastHeapGoal = heapGoal;
	__atomic_store_n(&scavenger.gcPercentGoal, goal, __ATOMIC_RELAXED);
	if (gl_debug.scavtrace > 0) {
		printScavTrace(__atomic_exchange_n(&scavenger.released, 0, __ATOMIC_RELAXED), false);
	}
}

/* All the memory the runtime has mapped and not released, for the
 * memory limit (Go's mappedReady): the retained heap, stacks, metadata. */
static uint64_t mappedReady(uint64_t retained) {
	return retained + __atomic_load_n(&memstats.stacks_sys, __ATOMIC_RELAXED) +
	       __atomic_load_n(&memstats.gc_sys, __ATOMIC_RELAXED) +
	       __atomic_load_n(&memstats.other_sys, __ATOMIC_RELAXED);
}

/* How many bytes are over the goals now (0 if less than a page). */
static uint64_t scavengeWanted(void) {
	uint64_t retained = heapRetained(), want = 0;
	uint64_t goal = __atomic_load_n(&scavenger.gcPercentGoal, __ATOMIC_RELAXED);
	if (retained > goal)
		want = retained - goal;
	int64_t limit = __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
	if (limit != INT64_MAX) {
		uint64_t limitGoal = (uint64_t)limit / 100 * (100 - reduceExtraPercent);
		uint64_t mapped = mappedReady(retained);
		if (mapped > limitGoal && mapped - limitGoal > want)
			want = mapped - limitGoal;
	}
	return want < pageSize ? 0 : want;
}

/* Park until a cycle after gen or a limit other than limit: both read
 * before the goal was, so a cycle that ends meanwhile unparks it. */
static void park(uint32_t gen, int64_t limit) {
	scavenger.parked = true;
	scavenger.parkedgc = gen;
	scavenger.parkedlimit = limit;
}

static bool stillparked(void) {
	return scavenger.parked && scavenger.parkedgc == __atomic_load_n(&gcstats.numgc, __ATOMIC_RELAXED) &&
	       scavenger.parkedlimit == __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
}

/* sysmon's: one paced step of the background scavenger if one is due;
 * returns when sysmon should call again (INT64_MAX: not before the next
 * cycle, whose startTheWorld wakes sysmon). */
int64_t bgscavenge(int64_t now) {
	if (stillparked())
		return INT64_MAX;
	scavenger.parked = false;
	if (now < scavenger.next)
		return scavenger.next;
	uint32_t gen = __atomic_load_n(&gcstats.numgc, __ATOMIC_ACQUIRE);
	int64_t limit = __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
	uint64_t want = scavengeWanted();
	if (want == 0) {
		park(gen, limit);
		return INT64_MAX;
	}
	int64_t c0 = threadcputime();
	uint64_t r = mheap_scavenge(want < scavengeQuantum ? want : scavengeQuantum);
	int64_t t1 = nanotime(), cpu = threadcputime() - c0;
	if (r == 0 && !isSweepDone()) {
		/* nothing free yet, but the sweep under way is freeing the
		 * cycle's garbage (Go's sweeper wakes the scavenger when
		 * it finishes): look again soon */
		scavenger.next = t1 + sweepWaitNS;
		return scavenger.next;
	}
	if (r == 0) { /* everything free is released: the heap in use is over the goal */
		park(gen, limit);
		return INT64_MAX;
	}
	__atomic_fetch_add(&scavenger.released, r, __ATOMIC_RELAXED);
	int64_t gap = cpu * (100 - scavengePercent) / scavengePercent;
	scavenger.next = t1 + (gap > scavengeMinGapNS ? gap : scavengeMinGapNS);
	return scavenger.next;
}

/* The allocator's share (Go's allocSpan), on g0 after an allocation that
 * grew the heap by growth bytes or took released pages back into use:
 * over a memory limit, release as much elsewhere as the runtime's memory
 * is over it; past the gcPercent goal because the heap grew, release up
 * to what it grew by — the heap grew because no free run was big enough,
 * so the fragments left are the least likely to be reused.  Synchronous:
 * the background scavenger's pace is too slow for a program that
 * allocates quickly. */
void scavengeAssist(uint64_t growth) {
	uint64_t todo = 0, retained = heapRetained();
	int64_t limit = __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
	if (limit != INT64_MAX) {
		uint64_t mapped = mappedReady(retained);
		if (mapped > (uint64_t)limit)
			todo = mapped - (uint64_t)limit;
	}
	uint64_t goal = __atomic_load_n(&scavenger.gcPercentGoal, __ATOMIC_RELAXED);
	if (goal != UINT64_MAX && growth > 0 && retained > goal) {
		uint64_t over = retained - goal < growth ? retained - goal : growth;
		if (over > todo)
			todo = over;
	}
	if (todo != 0)
		__atomic_fetch_add(&scavenger.released, mheap_scavenge(todo), __ATOMIC_RELAXED);
}

/* Every free page, now (on g0). */
void scavengeAll(void) {
	uint64_t r = mheap_scavenge(UINT64_MAX);
	if (gl_debug.scavtrace > 0)
		printScavTrace(r, true);
}

void printScavTrace(uint64_t released, bool forced) {
	uint64_t retained = heapRetained();
	uint64_t inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
	printlock();
	prints("scav ");
	printuint(released >> 10);
	prints(" KiB work, ");
	printuint(__atomic_load_n(&memstats.heap_released, __ATOMIC_RELAXED) >> 10);
	prints(" KiB total, ");
	printuint(retained != 0 ? inuse * 100 / retained : 0);
	prints("% util");
	if (forced)
		prints(" (forced)");
	printnl();
	printunlock();
}

static void scavengeAll_m(void *arg) {
	(void)arg;
	scavengeAll();
}

/* runtime/debug.FreeOSMemory: a forced collection, then every free page
 * back to the kernel. */
void runtime_debug_freeOSMemory(G *g) {
#ifdef GL_GC_BOEHM
	(void)g;
	boehmFreeOSMemory(); /* Boehm's heap; the stacks' below */
#else
	runtime_GC(g);
#endif
	systemstack(scavengeAll_m, NULL);
}
