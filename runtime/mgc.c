/*
 * mgc.c — the garbage collector's driver (Go's mgc.go): when a cycle
 * starts, its phases, the pacer, runtime.GC; and the collector's roots.
 *
 * A cycle, with the world stopped from start to end (Go's collector runs
 * its mark phase concurrently with the program; that comes with the
 * write barrier, issue 13):
 *
 *   1. stop the world (every P parked at a safe point, proc.c);
 *   2. every mcache gives its spans back to the mcentrals, so that
 *      sweeping sees every span in a list and no P allocates from one;
 *   3. mark (mgcmark.c): grey the objects the roots point to, then scan
 *      grey objects until none is left;
 *   4. sweep (mgcsweep.c): free every unmarked object;
 *   5. set the next goal, shrink the stacks as runtime.GC always has,
 *      start the world.
 *
 * When: the pacer counts heap handed out since the last cycle (heap_live,
 * updated on g0 when an mcache takes a span or a large object is made)
 * and asks for a cycle once it reaches the goal, Go's GOGC rule:
 *
 *	goal = live heap after the last cycle × (1 + GLGC/100), at least 4 MiB
 *
 * or once all the runtime's memory nears the memory limit (GLMEMLIMIT),
 * with the collector's CPU capped at half (mgcpacer.c).
 *
 * The request (gcwanted) is taken up by the next allocation that is made
 * at a safe point: on a goroutine's own stack, with no runtime lock held
 * (mallocgc's slow paths, on their way out).  runtime C keeps no sole
 * reference to a heap object in a C local across an allocation unless
 * that frame lies in the allocating goroutine's innermost frames, which
 * are scanned word by word (the rule below).
 *
 * Stress modes (GLDEBUG): gcstress=N collects at every N-th allocation;
 * clobberfree=1 fills freed objects with 0xdb; gccheckmark=1 checks after
 * marking that no marked object points to an unmarked one; gctrace=1
 * prints a line per cycle in Go's format.
 */
#include "rt.h"

/* ---- the rule for runtime C ----
 *
 * The collector finds heap objects from roots: package variables (glc's
 * records), every goroutine's data frames (stack maps), the innermost
 * frames of a stopped goroutine word by word (preempt.c's asyncframe and
 * syncframe: below its last data frame), and the runtime's own records
 * (gcscanruntime below).  A runtime C local is none of these unless it
 * lies in those innermost frames.  So:
 *
 *   Runtime C never holds the only reference to a heap object in a C
 *   local across a point where the collector may run — gopark, a call
 *   into gl code (a deferred call, a comparison or hash function, a
 *   method), entersyscall, or an allocation — unless it runs on the
 *   goroutine's own stack with no gl frame above it (then its frame is in
 *   the word-by-word range).  On g0 (systemstack, mcall) nothing is
 *   scanned: store the object where a root sees it (the G, a typed heap
 *   record) before such a point.
 *
 * Objects the runtime makes on the heap carry a type descriptor (GL_RTTYPE,
 * rt.h) or are pointer-free (NULL type: never scanned); records that live
 * as long as the process (G, M, P, itabs) come from persistentalloc and are
 * not on the heap at all.  Typed objects are zeroed before they can be
 * reached.
 */

/* One pointer: an array of n of them is allocated as n copies of it. */
static const uint8_t ptrword_gc[1] = {1};
const GlType gltype_ptrword = {
	.size = sizeof(void *), .ptrdata = sizeof(void *), .kind = GL_KIND_UNSAFEPOINTER, .align = 8,
	.gcdata = ptrword_gc, .str = {(const uint8_t *)"unsafe.Pointer", 14},
};

/* ---- roots: the runtime's own ---- */

typedef void (*rootfn)(uintptr_t *slot, void *arg);
#define ROOT(f, arg, field) f((uintptr_t *)&(field), arg)

/* What a G (outside the heap) refers to on the heap. */
static void scanGroots(G *gp, rootfn f, void *arg) {
	ROOT(f, arg, gp->_panic);   /* panic records, linked */
	ROOT(f, arg, gp->_defer);   /* defer records, linked */
	ROOT(f, arg, gp->startfn);  /* the go statement's closure, until it runs */
	ROOT(f, arg, gp->param);    /* what goready passed (a sudog) */
	ROOT(f, arg, gp->waiting);  /* the sudogs of a parked channel operation */
	ROOT(f, arg, gp->timer);    /* time.Sleep's timer */
	ROOT(f, arg, gp->selorder); /* select's order arrays */
}

/* Every heap object the runtime's own records and globals refer to.
 * Gs, Ms and Ps are not heap objects (persistentalloc); what they hold
 * is listed here, field by field.  Stacks are scanned separately. */
void gcscanruntime(rootfn f, void *arg) {
	int64_t n = __atomic_load_n(&allglen, __ATOMIC_ACQUIRE);
	G **gs = __atomic_load_n(&allgs, __ATOMIC_ACQUIRE);
	for (int64_t i = 0; i < n; i++)
		scanGroots(gs[i], f, arg);
	for (M *mp = allm; mp != NULL; mp = mp->alllink) {
		scanGroots(mp->g0, f, arg);
		if (mp->gsignal != NULL)
			scanGroots(mp->gsignal, f, arg);
		ROOT(f, arg, mp->waitlock); /* gopark's lock: may be in a channel */
	}
	for (int32_t i = 0; allp != NULL && i < gomaxprocs; i++) {
		P *pp = allp[i];
		for (int32_t k = 0; k < pp->nsudog; k++)
			ROOT(f, arg, pp->sudogcache[k]);
		ROOT(f, arg, pp->timers); /* the heap array; the timers from it */
	}
	ROOT(f, arg, sched.sudogcache); /* the central free list, linked */
	semtablescan(f, arg);           /* sudogs of goroutines in semacquire */
	finqscan(f, arg);               /* finalizers due and their objects */
	timescanroots(f, arg);          /* time.Local */
}

/* runtime.CountRuntimeRootsForTest: how many of those slots are not nil. */
static void countroot(uintptr_t *slot, void *arg) {
	*(int64_t *)arg += *slot != 0;
}

static void countroots_m(void *arg) {
	gcscanruntime(countroot, arg);
}

/* On g0, as the collector will run it (and the walk's callbacks are
 * calls the goroutine stack's budget does not cover). */
int64_t runtime_countRuntimeRootsForTest(G *g) {
	(void)g;
	int64_t n = 0;
	systemstack(countroots_m, &n);
	return n;
}

/* ---- roots: package variables ---- */

/* glc's GL_GLOBAL_ROOT records, one per package variable that can hold
 * pointers (weak: a program may have none). */
extern const GlGlobalRoot __start_glroots[] __attribute__((weak));
extern const GlGlobalRoot __stop_glroots[] __attribute__((weak));

/* Call f on every word of a package variable that the variable's type
 * says holds a pointer. */
void gcscanglobals(void (*f)(uintptr_t *slot, void *arg), void *arg) {
	for (const GlGlobalRoot *r = __start_glroots; r < __stop_glroots; r++) {
		uintptr_t *w = r->addr;
		for (uint64_t i = 0; i < r->typ->ptrdata / 8; i++)
			if (r->typ->gcdata[i / 8] >> (i % 8) & 1)
				f(&w[i], arg);
	}
}

/* runtime.ScanGlobalsForTest: which of objs (each size bytes) a root
 * among the package variables points into. */
typedef struct globalscan {
	const GlSlice *objs;
	uintptr_t size;
	uint8_t seen[64];
} globalscan;

static void globalhit(uintptr_t *slot, void *arg) {
	globalscan *a = arg;
	const uintptr_t *objs = a->objs->ptr;
	for (int64_t i = 0; i < a->objs->len && i < 64; i++)
		if (*slot - objs[i] < a->size)
			a->seen[i] = 1;
}

static void scanglobals_m(void *arg) {
	gcscanglobals(globalhit, arg);
}

int64_t runtime_scanGlobalsForTest(G *g, const GlSlice *objs, uintptr_t size) {
	(void)g;
	globalscan a = {objs, size, {0}};
	systemstack(scanglobals_m, &a); /* on g0, as countroots_m */
	int64_t n = 0;
	for (int i = 0; i < 64; i++)
		n += a.seen[i];
	return n;
}

/* ---- the cycle ---- */

bool gcwanted;
static int64_t gcstartnano; /* the first cycle's clock, for gctrace's @ */
static bool forcedlast;     /* the last cycle was runtime.GC's */

void gcinit(void) {
	gcenvinit();
	gcstartnano = nanotime();
	gcControllerInit(); /* mgcpacer.c: the first goal */
}

/* gccheckmark: every pointer word of every marked object points to a
 * marked object or outside the heap; a miss is a bug in the roots or
 * the pointer bits, found before the sweeper frees what is still used. */
static void checkmarks(void) {
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		for (uint32_t pg = 0; pg < pagesPerArena; pg++) {
			mspan *s = ha->spans[pg];
			if (s == NULL || s->state != mSpanInUse || s->startAddr != mheap_.allArenas[a] + (uintptr_t)pg * pageSize ||
			    spanClass_noscan(s->spanclass))
				continue;
			for (uint32_t i = 0; i < s->nelems; i++) {
				if (!(s->gcmarkBits[i / 8] >> (i % 8) & 1))
					continue;
				uintptr_t x = s->startAddr + (uintptr_t)i * s->elemsize;
				uintptr_t end = s->nelems == 1 ? s->limit : x + s->elemsize;
				for (uintptr_t w = x; w < end; w += 8) {
					uintptr_t p = *(uintptr_t *)w;
					if (!heapBitsIsPointer(w) || findObject(p, NULL, NULL) == 0 || gcIsMarked(findObject(p, NULL, NULL)))
						continue;
					prints("runtime: marked object ");
					printhex(x);
					prints(" points at unmarked ");
					printhex(p);
					printnl();
					gl_throw("gccheckmark: a reachable object was not marked");
				}
			}
		}
	}
}

/* v with three decimals (print.c's floats are println's %e). */
static void printmilli(int64_t v1000) {
	printint(v1000 / 1000);
	prints(".");
	int64_t f = v1000 % 1000;
	if (f < 100)
		prints(f < 10 ? "00" : "0");
	printint(f);
}

/* Go's gctrace line, the world stopped for the whole cycle, so the
 * clock has one pause (sweep termination 0, mark, sweep):
 * "gc N @T s: 0+MARK+SWEEP ms clock, BEFORE->AFTER->MARKED MB, GOAL MB goal, NP P". */
static void gctrace(int64_t t0, int64_t tmark, int64_t tend, uint64_t before) {
	prints("gc ");
	printuint(gcstats.numgc);
	prints(" @");
	printmilli((t0 - gcstartnano) / 1000000);
	prints("s: 0+");
	printmilli((tmark - t0) / 1000);
	prints("+");
	printmilli((tend - tmark) / 1000);
	prints(" ms clock, ");
	printuint(before >> 20);
	prints("->");
	printuint(gcstats.liveBytes >> 20);
	prints("->");
	printuint(gcstats.markedBytes >> 20);
	prints(" MB, ");
	printuint(gcstats.nextGC >> 20);
	prints(" MB goal, ");
	printint(gomaxprocs);
	prints(" P");
	if (forcedlast)
		prints(" (forced)");
	printnl();
}

static void gcshrink(void) {
	shrinkstacks();
	gfreestacks();
	for (int32_t i = 0; i < gomaxprocs; i++)
		stackcache_clear(allp[i]);
	stackfreeunused();
}

/* The cycle itself, on g0 with the world stopped (Go's gcStart,
 * gcMarkTermination and gcSweep in one pause). */
static void gc_m(void *arg) {
	bool forced = *(bool *)arg;
	int64_t t0 = nanotime();
	uint64_t before = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	mcache_flushAll(); /* takes the no-P cache's lock, kept to the end */
	gcstats.markedObjects = gcstats.markedBytes = gcstats.scannedBytes = 0;
	gcstats.stacks = gcstats.spans = gcstats.freedObjects = gcstats.freedBytes = gcstats.liveBytes = 0;
	gcMarkRoots();
	gcDrain();
	if (gl_debug.gccheckmark)
		checkmarks();
	mProf_NextCycle(); /* mark termination: the heap profile's cycle (mprof.c) */
	mProf_Flush();
	int64_t tmark = nanotime();
	uint64_t inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
	gcSweepAll();
	mProf_PostSweep(); /* the sweep is complete: publish its frees */
	mcache_unlockNop();
	__atomic_store_n(&memstats.heap_live, gcstats.liveBytes, __ATOMIC_RELAXED);
	gcControllerEndCycle(gcstats.liveBytes); /* the next goal (mgcpacer.c) */
	gcPaceScavenger(inuse);
	gcshrink(); /* stack.c heeds gcshrinkstackoff */
	int64_t tend = nanotime();
	gcLimiterUpdate(t0, tend);
	/* Go's ring: the most recent pause is at PauseNs[(NumGC+255)%256] */
	gcstats.pauseNs[gcstats.numgc % 256] = (uint64_t)(tend - t0);
	gcstats.lastGC = (uint64_t)walltime();
	gcstats.pauseEnd[gcstats.numgc % 256] = gcstats.lastGC;
	gcstats.numgc++;
	gcstats.numforcedgc += forced;
	forcedlast = forced;
	gcstats.pauseTotalNs += (uint64_t)(tend - t0);
	if (gl_debug.gctrace)
		gctrace(t0, tmark, tend, before);
}

/* A cycle started by the pacer or gcstress, on g0: only if no other
 * stop-the-world is under way (the allocation must not park: the runtime
 * C that called mallocgc may hold pointers into its stack, which could
 * move meanwhile).  All of it on g0, where the calls that wake the
 * goroutines waiting for the world have room. */
static void gcStartTry_m(void *arg) {
	(void)arg;
	if (gl_printlocked() || !trystopTheWorld_m()) /* not in the middle of a print statement */
		return;
	__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
	bool forced = false;
	gc_m(&forced);
	startTheWorld_m();
	wakefing();
}

/* On g0, for gcTrigger: whether the allocation that asked was made on
 * the goroutine's own stack (here, an address in its frame, lies in
 * curg's stack; not on g0 or the signal stack) with no runtime lock held
 * and outside a print statement; then a cycle. */
static void gcTrigger_m(void *here) {
	M *mp = getm();
	G *gp = mp->curg;
	if (gp == NULL || (uintptr_t)here < gp->stack.lo || (uintptr_t)here >= gp->stack.hi)
		return;
	if (mp->p == NULL || mp->locks != 0 || mp->dying != 0)
		return;
	gcStartTry_m(NULL);
}

/* A cycle asked for by the pacer or gcstress, from an allocation: only
 * at a safe point, on a goroutine's own stack with no runtime lock held.
 * All of it runs on g0 (the stack band of mallocgc's callers has no room
 * for the scheduler's calls). */
void gcTrigger(void) {
	char here;
	systemstack(gcTrigger_m, &here);
}

/* runtime.GC(): a cycle now, after any other stop-the-world. */
void runtime_GC(G *g) {
	(void)g;
	bool forced = true;
	stopTheWorld("GC (forced)");
	__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
	systemstack(gc_m, &forced);
	startTheWorld();
	/* Go's runtime.GC parks and yields before it returns, and the
	 * finalizer goroutine gets to run then: so here, if there is one */
	if (wakefing())
		gosched();
}
