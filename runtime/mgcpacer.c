/*
 * mgcpacer.c — when the next collection starts (Go's mgcpacer.go), and
 * the limit on the CPU the collector may take (Go's mgclimit.go).
 *
 * Two goals, and the heap is collected when it reaches the lower one.
 *
 * The GLGC goal (Go's gcPercent, as Go 1.18 counts it): after a cycle
 * marked M bytes of live heap and scanned S bytes of goroutine stacks and
 * G of package variables, the heap may grow to M + (M + S + G) × GLGC/100
 * before the next cycle ends — the roots are work for the collector as
 * the heap is, so they buy room as it does — and not under 4 MiB.
 * GLGC=off (debug.SetGCPercent(-1)) removes it.  It is computed once per
 * cycle, and again when SetGCPercent changes GLGC.  A concurrent mark
 * starts ahead of it, at the trigger (triggerFor), so that what the
 * program allocates while it marks fits under the goal.
 *
 * The memory limit (Go 1.19's GOMEMLIMIT, here GLMEMLIMIT and
 * debug.SetMemoryLimit): a soft bound on all the memory the runtime holds
 * ready, not only the heap: the heap's in-use pages, goroutine stacks, the
 * heap's metadata and the runtime's own records.  Free heap pages do not
 * count: the scavenger gives them back to the kernel to keep the total
 * under the limit (mgcscavenge.c).  A cycle starts when
 *
 *	max(heap in use, heap_live) + stacks + metadata + headroom >= limit
 *
 * heap_live is what the pacer counts (live heap after the last cycle plus
 * what mcaches took since), heap in use the pages of in-use spans, which
 * is more when fragments of swept spans sit unused; the larger of the two
 * is what the heap really holds.  The headroom (3% of the limit) leaves
 * room for what is allocated between the request and the cycle, and for
 * the scavenger to work under the limit rather than at it.  Because the
 * stacks and the metadata change between cycles, this goal is not fixed
 * at the end of a cycle: the test is made whenever the pacer counts new
 * heap (gcnoteAlloc, once per span an mcache takes or large object, so a
 * few more loads there cost nothing per object).  With no limit set
 * (the default, "off") the test is skipped.
 *
 * The CPU limiter.  A limit below what the program keeps live would have
 * the collector run at every span — a death spiral in which the program
 * makes no progress.  Go caps the collector at half the CPU, and so does
 * gl, with a debt counted in CPU time: each pause adds to it (every P
 * stands still: pause × GOMAXPROCS), the program's run between pauses
 * pays it off (× GOMAXPROCS), and it never falls below zero.  A cycle
 * asked for by the memory limit alone is refused while the debt exceeds
 * an allowance of 100 ms of CPU per P: so the collector may take all the
 * CPU for a burst of about a tenth of a second, and then must wait after
 * each pause for as long a run.  (Go's allowance is a second per P, and
 * it counts its assists' and workers' time too; gl's debt counts the
 * pauses only — with the concurrent mark (the default) they are short,
 * but a stop-the-world mark (GLDEBUG=gcstoptheworld=1) stops the whole
 * program, and a second of that is too long a burst.)  The heap then grows past the
 * limit, as Go's does: the limit is soft.  The GLGC goal is never refused
 * (the heap's growth between its cycles bounds the collector's share
 * already).
 *
 * Everything here is read at allocation without locks (atomics); the
 * goal and the limiter are written at the end of a cycle with the world
 * stopped, or by SetGCPercent / SetMemoryLimit (atomically).
 */
#include "rt.h"

enum {
	minHeapGoal = 4 << 20,    /* no GLGC cycle before this much heap */
	limitHeadroomPercent = 3, /* of the memory limit, kept free */
	limiterMaxPercent = 50,   /* of the CPU the collector may take */
	limiterAllowanceNs = 100 * 1000 * 1000, /* of debt per P: the burst */
};

extern int64_t gl_memorylimit; /* stdlib.c: GLMEMLIMIT, SetMemoryLimit; INT64_MAX: off */

/* The pacer's state.  heapMarked is written at the end of a cycle, world
 * stopped; the limiter's fields there too, and read by gcnoteAlloc. */
static struct {
	uint64_t heapMarked;    /* live heap the last cycle found */
	uint64_t lastScanned;   /* heap the last cycle scanned (gcstats.scannedBytes) */
	uint64_t lastStackScan; /* stack bytes it scanned (gcstats.stackBytes) */
	uint64_t globalsScan;   /* package variables' bytes the collector scans */
	double consMark;        /* the cons/mark ratio the trigger plans with (triggerFor) */
	double lastConsMark[4]; /* the last four concurrent marks' own */
	uint64_t scanExpected;  /* the scan work the mark under way expects */
	/* the CPU limiter: CPU-ns the collector took beyond its share */
	int64_t debt;           /* >= 0, as of lastUpdate */
	int64_t lastUpdate;     /* nanotime of the end of the last pause */
} pacer;

/* All the memory the runtime holds ready, outside free heap pages: the
 * heap's in-use pages (or heap_live, if more), stacks, metadata.  Spans
 * not swept yet are left out (heap_live counts what is live in them): the
 * last cycle found their garbage, and the sweep frees it without
 * another. */
static uint64_t memoryInUse(uint64_t live) {
	uint64_t inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
	uint64_t pending = sweepPendingBytes();
	inuse = inuse > pending ? inuse - pending : 0;
	if (live > inuse)
		inuse = live;
	return inuse + __atomic_load_n(&memstats.stacks_sys, __ATOMIC_RELAXED) +
	       __atomic_load_n(&memstats.gc_sys, __ATOMIC_RELAXED) +
	       __atomic_load_n(&memstats.other_sys, __ATOMIC_RELAXED);
}

/* Whether the collector has had more than its share of the CPU: its debt
 * as of the last pause, less what the program's run since paid off, is
 * over the allowance.  Read outside the pause, written only inside it. */
static bool gcLimiterFull(void) {
	int64_t procs = gomaxprocs;
	int64_t ran = nanotime() - __atomic_load_n(&pacer.lastUpdate, __ATOMIC_RELAXED);
	return __atomic_load_n(&pacer.debt, __ATOMIC_RELAXED) - ran * procs > limiterAllowanceNs * procs;
}

/* Whether the memory limit, alone, wants a cycle now (heap_live = live). */
static bool limitReached(uint64_t live) {
	int64_t limit = __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
	if (limit == INT64_MAX)
		return false;
	uint64_t headroom = (uint64_t)limit / 100 * limitHeadroomPercent;
	if (memoryInUse(live) + headroom < (uint64_t)limit)
		return false;
	if (!gcLimiterFull())
		return true;
	/* the limiter holds the cycle back: runtime/metrics'
	 * /gc/limiter/last-enabled names the cycle it would have been */
	__atomic_store_n(&gcstats.limiterLastEnabled, __atomic_load_n(&gcstats.numgc, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
	return false;
}

/* While a concurrent mark runs (mgc.c), whether the goroutine that
 * allocates should finish it now, with the world stopped: the heap has
 * grown half again past its goal, or the memory limit is near.  A
 * backstop behind the mark assists (mgcmark.c, gcAssistAlloc), which
 * make an allocating goroutine scan in proportion to what it allocates
 * and keep the heap near its goal without it. */
bool gcMarkAssistDue(void) {
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	uint64_t goal = __atomic_load_n(&gcstats.nextGC, __ATOMIC_RELAXED);
	return live >= goal + goal / 2 || limitReached(live);
}

/* ---- the assist ratio (Go's revise) ----
 *
 * While the collector marks, each byte allocated owes scan work
 * (mgcmark.c, gcAssistAlloc): as much as is left to scan divided by the
 * heap left to allocate before the goal, so that both run out together.
 * What is left to scan is guessed from the last cycle's scan work (Go's
 * lastHeapScan); a mark that has done more than that finds the heap
 * grown, and expects the whole live heap to be scanned against a goal
 * 10% higher (Go's hard goal).  Read at every assist: no lock, the
 * inputs are atomics. */
void gcControllerStartMark(void) {
	uint64_t e = pacer.lastScanned;
	if (e == 0) /* the first cycle: all of the heap, say */
		e = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	pacer.scanExpected = e < (1 << 20) ? 1 << 20 : e;
}

double gcAssistWorkPerByte(void) {
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	uint64_t goal = __atomic_load_n(&gcstats.nextGC, __ATOMIC_RELAXED);
	uint64_t done = __atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED);
	uint64_t expected = pacer.scanExpected;
	if (done >= expected) {
		expected = live > done ? live : done;
		goal += goal / 10;
	}
	double work = (double)(expected - done), heap = live < goal ? (double)(goal - live) : 0;
	if (work < 64 << 10)
		work = 64 << 10;
	if (heap < 64 << 10)
		heap = 64 << 10;
	return work / heap;
}

/* On g0, under a lock or not: count bytes of new heap; ask for a cycle
 * once a goal is reached. */
void gcnoteAlloc(uint64_t bytes) {
	uint64_t live = __atomic_add_fetch(&memstats.heap_live, bytes, __ATOMIC_RELAXED);
	if (__atomic_load_n(&gcwanted, __ATOMIC_RELAXED))
		return;
	if (live >= __atomic_load_n(&gcstats.trigger, __ATOMIC_RELAXED) || limitReached(live))
		__atomic_store_n(&gcwanted, true, __ATOMIC_RELAXED);
}

/* The GLGC goal for heapMarked live bytes and the last cycle's roots;
 * UINT64_MAX when GLGC=off. */
static uint64_t gcPercentHeapGoal(uint64_t marked) {
	int32_t percent = __atomic_load_n(&gl_gcpercent, __ATOMIC_RELAXED);
	if (percent < 0)
		return UINT64_MAX;
	uint64_t base = marked + pacer.lastStackScan + pacer.globalsScan;
	uint64_t goal = marked + (uint64_t)((unsigned __int128)base * (uint64_t)percent / 100);
	return goal < minHeapGoal ? minHeapGoal : goal;
}

/* The goal MemStats.NextGC reports: the lower of the GLGC goal and what
 * the memory limit leaves the heap now. */
static uint64_t heapGoal(uint64_t gcgoal) {
	int64_t limit = __atomic_load_n(&gl_memorylimit, __ATOMIC_RELAXED);
	if (limit == INT64_MAX)
		return gcgoal;
	uint64_t other = memoryInUse(0) - __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
	uint64_t room = (uint64_t)limit / 100 * (100 - limitHeadroomPercent);
	uint64_t limitgoal = room > other ? room - other : 0;
	return limitgoal < gcgoal ? limitgoal : gcgoal;
}

/* ---- the trigger (Go 1.18's pacer) ----
 *
 * A concurrent mark should start early enough that what the program
 * allocates while it marks fits under the goal: the runway.  The program
 * allocates while the collector scans, each at its share of the CPU; the
 * cons/mark ratio says how fast the first goes against the second, per
 * unit of CPU each (bytes allocated per mutator CPU-second over bytes
 * scanned per collector CPU-second).  With the collector at its goal of
 * 25% of the CPU (gcGoalUtilization) and W bytes to scan (the last
 * cycle's heap, stacks and globals), the mark takes W / (scan rate ×
 * 0.25), during which the program allocates cons/mark × W × 0.75 / 0.25:
 * the runway.  The trigger is the goal less the runway, but never before
 * 70% nor after 95% of the way from the live heap to the goal (Go's
 * bounds).  A stop-the-world mark allocates nothing: it starts at the
 * goal.
 *
 * Each concurrent mark measures its own ratio (gcControllerEndCycle):
 * heap allocated between the trigger and the end of the mark, times the
 * collector's share of the CPU (the background's 25% plus what assists
 * and idle Ps took), over scan work times the program's share (75% less
 * the assists').  The trigger plans with the largest of the last four,
 * so that one quiet cycle does not start the next too late (Go 1.19 keeps
 * a like history). */
enum { goalUtilizationPct = 25 };

static uint64_t triggerFor(uint64_t goal) {
	uint64_t marked = pacer.heapMarked;
	if (gl_debug.gcstoptheworld || goal == UINT64_MAX || goal <= marked)
		return goal;
	uint64_t span = goal - marked;
	uint64_t lo = marked + span / 100 * 70, hi = marked + span / 100 * 95;
	double work = (double)(pacer.lastScanned + pacer.lastStackScan + pacer.globalsScan);
	double runway = pacer.consMark * (100 - goalUtilizationPct) / goalUtilizationPct * work;
	uint64_t t = runway < (double)goal ? goal - (uint64_t)runway : 0;
	return t < lo ? lo : t > hi ? hi : t;
}

/* A concurrent mark's cons/mark ratio (see above): alloc bytes allocated
 * between its trigger and its end, scanned bytes of scan work, in markNs
 * of clock time, of which the assists took assistNs and the idle Ps
 * idleNs of CPU time.  0 if there is nothing to say. */
static double consMarkOf(uint64_t alloc, uint64_t scanned, int64_t markNs, int64_t assistNs, int64_t idleNs) {
	double cpu = (double)markNs * gomaxprocs;
	if (cpu <= 0 || scanned == 0)
		return 0;
	double u = goalUtilizationPct / 100.0 + (double)assistNs / cpu, idle = (double)idleNs / cpu;
	if (u > 0.95) /* the assists took nearly everything: the program barely ran */
		u = 0.95;
	return (double)alloc * (u + idle) / ((double)scanned * (1 - u));
}

/* Set the trigger and NextGC from heapMarked and GLGC. */
static void gcControllerCommit(void) {
	uint64_t goal = gcPercentHeapGoal(pacer.heapMarked);
	__atomic_store_n(&gcstats.trigger, triggerFor(goal), __ATOMIC_RELAXED);
	__atomic_store_n(&gcstats.nextGC, heapGoal(goal), __ATOMIC_RELAXED);
}

void gcControllerInit(void) {
	pacer.heapMarked = 0;
	pacer.lastUpdate = nanotime();
	gcControllerCommit();
}

/* After SetGCPercent or SetMemoryLimit: the goals anew, and a cycle at
 * the next safe allocation if the heap is past one already. */
void gcControllerChanged(void) {
	gcControllerCommit();
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	if (live >= __atomic_load_n(&gcstats.trigger, __ATOMIC_RELAXED) || limitReached(live))
		__atomic_store_n(&gcwanted, true, __ATOMIC_RELAXED);
}

/* The limiter's debt after a cycle that stopped the world from t0 to
 * tend: the program's run since the last pause pays, this pause adds,
 * both counted on every P. */
void gcLimiterUpdate(int64_t t0, int64_t tend) {
	int64_t procs = gomaxprocs;
	int64_t ran = t0 > pacer.lastUpdate ? t0 - pacer.lastUpdate : 0;
	/* weighted so that the two balance at limiterMaxPercent: at 50%, a
	 * pause is paid for by as long a run */
	int64_t cost = (tend - t0) * procs * (100 - limiterMaxPercent) / limiterMaxPercent;
	int64_t d = pacer.debt - ran * procs;
	if (d < 0)
		d = 0;
	__atomic_store_n(&pacer.debt, d + cost, __ATOMIC_RELAXED);
	__atomic_store_n(&pacer.lastUpdate, tend, __ATOMIC_RELAXED);
}

/* The end of a cycle, world stopped, the sweep done: the goals from what
 * it marked and scanned, and, after a concurrent mark, the cons/mark
 * ratio (its heap growth from before to after, over markNs). */
void gcControllerEndCycle(uint64_t marked, const gcCycleMeasure *m) {
	pacer.heapMarked = marked;
	pacer.lastScanned = __atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED);
	pacer.lastStackScan = __atomic_load_n(&gcstats.stackBytes, __ATOMIC_RELAXED);
	pacer.globalsScan = m->globals;
	if (m->concurrent) {
		double cm = consMarkOf(m->after > m->before ? m->after - m->before : 0,
				       pacer.lastScanned + pacer.lastStackScan + pacer.globalsScan, m->markNs,
				       __atomic_load_n(&gcstats.assistNs, __ATOMIC_RELAXED),
				       __atomic_load_n(&gcstats.idleMarkNs, __ATOMIC_RELAXED));
		double max = cm;
		for (int i = 0; i < 3; i++) {
			pacer.lastConsMark[i] = pacer.lastConsMark[i + 1];
			if (pacer.lastConsMark[i] > max)
				max = pacer.lastConsMark[i];
		}
		pacer.lastConsMark[3] = cm;
		pacer.consMark = max;
	}
	gcControllerCommit();
}
