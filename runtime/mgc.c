/*
 * mgc.c — the garbage collector's driver (Go's mgc.go): when a cycle
 * starts, its phases, the pacer, runtime.GC; and the collector's roots.
 *
 * A cycle with the world stopped for the whole mark (every cycle under
 * GLDEBUG=gcstoptheworld=1, runtime.GC's too; the default cycle marks
 * concurrently, below, runtime.GC's as well):
 *
 *   1. stop the world (every P parked at a safe point, proc.c);
 *   2. finish the last cycle's sweep (mgcsweep.c, finishsweep_m):
 *      marking needs every mark bitmap clear; age sync's pools
 *      (clearpools, below);
 *   3. every mcache gives its spans back to the mcentrals, so that no P
 *      allocates from a span the sweep will claim;
 *   4. mark (mgcmark.c): grey the objects the roots point to, then scan
 *      grey objects until none is left;
 *   5. start the sweep (gcSweep): every span becomes unswept, and is
 *      swept later, with the world running, by the background sweeper
 *      or the allocator;
 *   6. set the next goal, shrink the stacks as runtime.GC always has,
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

/* The heap words of the sudogs (outside the heap, chan.c) of a parked
 * channel operation or select: the list from g->waiting. */
static void scanwaiting(G *gp, rootfn f, void *arg) {
	for (sudog *s = gp->waiting; s != NULL; s = s->waitlink) {
		ROOT(f, arg, s->elem);
		ROOT(f, arg, s->c);
	}
}

/* What a G (outside the heap) refers to on the heap. */
static void scanGroots(G *gp, rootfn f, void *arg) {
	ROOT(f, arg, gp->_panic);   /* panic records, linked */
	ROOT(f, arg, gp->_defer);   /* defer records, linked */
	ROOT(f, arg, gp->startfn);  /* the go statement's closure, until it runs */
	ROOT(f, arg, gp->param);    /* what goready passed (a sudog) */
	scanwaiting(gp, f, arg);    /* the sudogs of a parked channel operation */
	ROOT(f, arg, gp->timer);    /* time.Sleep's timer */
	ROOT(f, arg, gp->selorder); /* select's order arrays */
}

/* Every heap object the runtime's own records and globals refer to.
 * Gs, Ms and Ps are not heap objects (persistentalloc); what they hold
 * is listed here, field by field.  Stacks are scanned separately. */
void gcscanruntime(rootfn f, void *arg) {
	int64_t n;
	G **gs = atomicAllG(&n);
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

/* ---- gccheckmark's path: how the program reaches an object ----
 *
 * When the check finds an object the mark missed, the report says how
 * the program reaches the object that points to it: a breadth-first walk
 * from the roots (package variables, the runtime's records, every
 * goroutine's stack) over the heap's pointer bits, each object found
 * remembering where it was found, until the object turns up.  It runs
 * once, on the way to a throw, with the world stopped: its tables are
 * mapped for it and are never given back.  gcPathTo is also what
 * runtime/heap_test checks it by. */
typedef struct pathnode {
	uintptr_t obj;    /* an object's base; 0: an empty entry */
	uintptr_t parent; /* the object it was found in, or 0 for a root */
	uintptr_t slot;   /* the word that points to it: in parent, or the root's */
} pathnode;

typedef struct pathsearch {
	pathnode *table; /* open addressing on obj */
	uint64_t cap;    /* a power of two */
	uintptr_t *queue;
	uint64_t head, tail, max;
	uintptr_t target;
	bool found;
} pathsearch;

static pathnode *pathentry(pathsearch *ps, uintptr_t obj) {
	uint64_t i = (obj >> 3) * 0x9e3779b97f4a7c15ull & (ps->cap - 1);
	while (ps->table[i].obj != 0 && ps->table[i].obj != obj)
		i = (i + 1) & (ps->cap - 1);
	return &ps->table[i];
}

/* The word at slot (in parent, or a root's if parent is 0) points to p. */
static void pathvisit(pathsearch *ps, uintptr_t parent, uintptr_t *slot) {
	uintptr_t o = findObject(*slot, NULL, NULL);
	if (o == 0 || ps->found || ps->tail == ps->max)
		return;
	pathnode *e = pathentry(ps, o);
	if (e->obj != 0)
		return;
	*e = (pathnode){o, parent, (uintptr_t)slot};
	ps->queue[ps->tail++] = o;
	ps->found = o == ps->target;
}

static void pathroot(uintptr_t *slot, void *arg) {
	pathvisit(arg, 0, slot);
}

/* Fills path with the objects from a root to target (path[0] the root's
 * object, path[n-1] target; slots[i] the word that points to path[i]) and
 * returns n, or 0 if target was not found among the first max objects
 * reached (or n would exceed maxpath).  The world is stopped. */
int64_t gcPathTo(uintptr_t target, uintptr_t *path, uintptr_t *slots, int64_t maxpath, uint64_t max) {
	pathsearch ps = {0};
	ps.cap = 1;
	while (ps.cap < 2 * max)
		ps.cap <<= 1;
	ps.max = max;
	ps.target = target;
	ps.table = sysAlloc(ps.cap * sizeof(pathnode), &memstats.other_sys);
	ps.queue = sysAlloc(max * sizeof(uintptr_t), &memstats.other_sys);
	if (ps.table == NULL || ps.queue == NULL)
		return 0;
	gcscanglobals(pathroot, &ps);
	gcscanruntime(pathroot, &ps);
	int64_t ng;
	G **gs = atomicAllG(&ng);
	for (int64_t i = 0; i < ng && !ps.found; i++)
		if (readgstatus(gs[i]) != Gdead)
			gcscanstack(gs[i], pathroot, pathroot, &ps);
	while (ps.head < ps.tail && !ps.found) {
		uintptr_t o = ps.queue[ps.head++];
		mspan *s = spanOfHeap(o);
		uintptr_t end = spanClass_sizeclass(s->spanclass) == 0 ? s->limit : o + s->elemsize;
		for (uintptr_t w = o; w < end && !ps.found && !spanClass_noscan(s->spanclass); w += 8)
			if (heapBitsIsPointer(w))
				pathvisit(&ps, o, (uintptr_t *)w);
	}
	if (!ps.found)
		return 0;
	int64_t n = 0;
	for (uintptr_t o = target; o != 0; o = pathentry(&ps, o)->parent)
		n++;
	if (n > maxpath)
		return 0;
	int64_t i = n;
	for (uintptr_t o = target; o != 0; o = pathentry(&ps, o)->parent) {
		path[--i] = o;
		slots[i] = pathentry(&ps, o)->slot;
	}
	return n;
}

/* "runtime: path to it: root word 0x... -> 0x... (+off) -> ...". */
static void printpath(uintptr_t target) {
	enum { maxpath = 64 };
	uintptr_t path[maxpath], slots[maxpath];
	int64_t n = gcPathTo(target, path, slots, maxpath, 1 << 22);
	if (n == 0) {
		prints("runtime: no path to it found from the roots (or a longer one than shown here)\n");
		return;
	}
	prints("runtime: path to it: root word ");
	printhex(slots[0]);
	for (int64_t i = 0; i < n; i++) {
		prints(" -> ");
		printhex(path[i]);
		if (i + 1 < n) {
			prints(" (+");
			printuint(slots[i + 1] - path[i]);
			prints(")");
		}
	}
	printnl();
}

/* gccheckmark: every pointer word of every marked object points to a
 * marked object or outside the heap; a miss is a bug in the roots or
 * the pointer bits, found before the sweeper frees what is still used.
 * The report shows both objects with their spans, and how the program
 * reaches the marked one. */
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
					mspan *ps = spanOfHeap(p);
					prints("runtime: marked object ");
					printhex(x);
					prints(" (");
					printuint(s->elemsize);
					prints(" bytes) at +");
					printuint(w - x);
					prints(" points at unmarked ");
					printhex(p);
					prints(" (");
					printuint(ps != NULL ? ps->elemsize : 0);
					prints(" bytes)");
					printnl();
					gcDumpObject("object", x, w - x);
					uintptr_t u = findObject(p, NULL, NULL);
					gcDumpObject("unmarked", u, p - u);
					printpath(x);
					getm()->traceback = 2;
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

/* ns nanoseconds as milliseconds, as Go's gctrace writes them: whole
 * milliseconds from 10 ms up; below, the microseconds cut to two
 * significant digits with the point put back (1,234,567 ns is "1.2",
 * 12,345 ns "0.012"); "0" under a microsecond. */
static void printms(int64_t ns) {
	if (ns >= 10000000) {
		printint(ns / 1000000);
		return;
	}
	int64_t us = ns / 1000, unit = 1000; /* us / unit milliseconds */
	if (us <= 0) {
		prints("0");
		return;
	}
	while (us >= 100)
		us /= 10, unit /= 10;
	printint(us / unit);
	if (unit > 1) {
		prints(".");
		for (int64_t d = unit / 10; d > 0; d /= 10) /* the digits after the point, zeros too */
			printint(us / d % 10);
	}
}

/* The bytes of package variables the collector scans: those that can hold
 * pointers (glc's GL_GLOBAL_ROOT records), for gctrace's "MB globals"
 * (Go's counts its whole data and bss). */
static uint64_t globalsBytes(void) {
	uint64_t n = 0;
	for (const GlGlobalRoot *r = __start_glroots; r < __stop_glroots; r++)
		n += r->typ->size;
	return n;
}

static int64_t gccpuTotal; /* the collector's CPU time, all cycles (gctrace's %) */

/* A cycle's CPU time in nanoseconds: each pause stops every P; the mark
 * is the assists' and the worker's time, or every P's when it stopped
 * the world. */
typedef struct cyclecpu {
	int64_t p1, assist, bg, idle, p2;
} cyclecpu;

static cyclecpu cycleCPU(int64_t t0, int64_t t1, int64_t t2, int64_t tend, bool concurrent) {
	cyclecpu c = {(t1 - t0) * gomaxprocs, gcstats.assistNs, gcstats.bgMarkNs, gcstats.idleMarkNs,
		      (tend - t2) * gomaxprocs};
	if (!concurrent)
		c.bg = (t2 - t1) * gomaxprocs;
	return c;
}

/* After a cycle: the collector's share of the CPU since the program
 * began (MemStats.GCCPUFraction, gctrace's U%). */
static void gcCPUAccount(cyclecpu c, int64_t tend) {
	gccpuTotal += c.p1 + c.assist + c.bg + c.idle + c.p2;
	int64_t elapsed = (tend - gcstartnano) * gomaxprocs;
	gcstats.cpuFraction = elapsed > 0 ? (double)gccpuTotal / (double)elapsed : 0;
}

/* Go's gctrace line, with the cycle's three clock phases: the first
 * pause (sweep termination and the roots; 0 when the world stays stopped
 * throughout), the mark (concurrent, or with the world stopped), and the
 * last pause (mark termination); their CPU time — a pause stops every P,
 * and the mark's is split into assists (allocating goroutines scanning,
 * mgcmark.c), the background worker in its own share, and the worker on
 * Ps that had nothing else to run;
 * the share of the CPU the collector took since the program began; the
 * heap when the cycle began, when marking ended, and marked live:
 * the stacks the cycle scanned (their bytes in use) and the package
 * variables it scanned:
 * "gc N @T s U%: PAUSE+MARK+PAUSE ms clock, P1+ASSIST/BG/IDLE+P2 ms cpu,
 * BEFORE->AFTER->MARKED MB, GOAL MB goal, S MB stacks, V MB globals,
 * NP P", times as printms writes them. */
static void gctrace(int64_t t0, int64_t t1, int64_t t2, int64_t tend, uint64_t before, uint64_t after, cyclecpu cpu) {
	prints("gc ");
	printuint(gcstats.numgc);
	prints(" @");
	printmilli((t0 - gcstartnano) / 1000000);
	prints("s ");
	printint((int64_t)(gcstats.cpuFraction * 100));
	prints("%: ");
	printms((t1 - t0));
	prints("+");
	printms((t2 - t1));
	prints("+");
	printms((tend - t2));
	prints(" ms clock, ");
	printms(cpu.p1);
	prints("+");
	printms(cpu.assist);
	prints("/");
	printms(cpu.bg);
	prints("/");
	printms(cpu.idle);
	prints("+");
	printms(cpu.p2);
	prints(" ms cpu, ");
	printuint(before >> 20);
	prints("->");
	printuint(after >> 20);
	prints("->");
	printuint(gcstats.markedBytes >> 20);
	prints(" MB, ");
	printuint(gcstats.nextGC >> 20);
	prints(" MB goal, ");
	printuint(gcstats.stackBytes >> 20);
	prints(" MB stacks, ");
	printuint(globalsBytes() >> 20);
	prints(" MB globals, ");
	printint(gomaxprocs);
	prints(" P");
	if (forcedlast)
		prints(" (forced)");
	printnl();
}

/* A pause of the collector, into runtime/metrics' histogram: bucket k
 * holds the pauses of [2^(k-1), 2^k) ns, bucket 0 those under 1 ns, the
 * last everything from 2^62 ns.  With the world stopped. */
void gcRecordPause(int64_t ns) {
	int k = ns <= 0 ? 0 : 64 - __builtin_clzll((uint64_t)ns);
	gcstats.pauseHist[k > 63 ? 63 : k]++;
}

/* runtime/metrics' reads (stdlib/runtime/metrics/sample.gl): the pause
 * histogram, the tiny allocator's pieces, the limiter's last cycle.
 * Plain loads of counters the pauses write: a read between two of them
 * may see one pause counted and the next not yet, as Go's may. */
void runtime_metrics_runtime_gcPauses(G *g, const GlSlice *counts) {
	(void)g;
	uint64_t *c = counts->ptr;
	for (int64_t k = 0; k < 64 && k < counts->len; k++)
		c[k] = __atomic_load_n(&gcstats.pauseHist[k], __ATOMIC_RELAXED);
}

uint64_t runtime_metrics_runtime_tinyAllocs(G *g) {
	(void)g;
	return tinyAllocCount();
}

uint64_t runtime_metrics_runtime_limiterLastEnabled(G *g) {
	(void)g;
	return __atomic_load_n(&gcstats.limiterLastEnabled, __ATOMIC_RELAXED);
}

/* The stacks: a concurrent cycle shrank each as it scanned it
 * (gcScanStack, Go's scanstack); a stop-the-world one shrinks them all
 * here, with the world stopped. */
static void gcshrink(bool all) {
	if (all)
		shrinkstacks();
	gfreestacks();
	for (int32_t i = 0; i < gomaxprocs; i++)
		stackcache_clear(allp[i]);
	stackfreeunused();
}

/* gccheckmark, after a concurrent mark: every precise root — package
 * variables, every data frame's pointer slots — points to a marked
 * object or outside the heap.  With checkmarks' closure, every object
 * the program can reach was marked.  (The runtime's records were greyed
 * again at the end; conservative words may be stale and prove nothing.) */
static void checkslot(uintptr_t *slot, void *arg) {
	(void)arg;
	uintptr_t obj = findObject(*slot, NULL, NULL);
	if (obj == 0 || gcIsMarked(obj))
		return;
	prints("runtime: root at ");
	printhex((uintptr_t)slot);
	prints(" points at unmarked ");
	printhex(*slot);
	printnl();
	gl_throw("gccheckmark: a root's object was not marked by the concurrent mark");
}

static void ignoreslot(uintptr_t *slot, void *arg) {
	(void)slot;
	(void)arg;
}

static void checkroots(void) {
	gcscanglobals(checkslot, NULL);
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++)
		if (readgstatus(gs[i]) != Gdead)
			gcscanstack(gs[i], checkslot, ignoreslot, NULL);
}

static void gcResetStats(void) {
	gcstats.markedObjects = gcstats.markedBytes = gcstats.scannedBytes = 0;
	gcstats.assistNs = gcstats.bgMarkNs = gcstats.idleMarkNs = 0;
	gcstats.stacks = gcstats.spans = gcstats.freedObjects = gcstats.freedBytes = 0;
	gcstats.stackBytes = 0;
}

/* ---- sync.Pool: emptied at the start of every cycle ----
 *
 * Go's clearpools calls sync's poolCleanup, which sync registered with
 * the runtime.  gl's sync (stdlib/sync/pool.gl) registers the two lists
 * instead: allPools (the pools that have shards for the cycle under
 * way) and oldPools (those that may have a victim set), two package
 * variables, and the runtime ages the pools itself, in C.  Calling a gl
 * function here is what it avoids: the first pause runs on g0, often
 * inside an allocation whose runtime C callers keep pointers into their
 * frames (the rule above), where gl code, with its prologue checks,
 * barriers and allocations, has no place.  The work is a few pointer
 * stores per pool:
 *
 *	every pool of oldPools:  victim = nil       (dropped: two cycles old)
 *	every pool of allPools:  victim = local; local = nil
 *	oldPools = allPools; allPools = nil
 *
 * The world is stopped, and sync touches a pool's shards only pinned
 * (sync_runtime_procPin: no preemption, so never across a pause), so
 * nothing of sync's is half done.  No mark is under way (the cycle's
 * mark starts after this), so nothing needs shading; the stores still go
 * through writebarrierptr, so that under GLDEBUG=wbforce/wbshadow the
 * heap's shadow stays equal to the heap.  What the dropped shards held is
 * garbage to the mark that follows, unless something else refers to it. */
static GlSlice *poolsAll, *poolsOld; /* sync.allPools, sync.oldPools */

void sync_runtime_registerPools(G *g, GlSlice *all, GlSlice *old) {
	(void)g;
	__atomic_store_n(&poolsOld, old, __ATOMIC_RELAXED);
	__atomic_store_n(&poolsAll, all, __ATOMIC_RELEASE);
}

/* With the world stopped. */
static void clearpools(void) {
	GlSlice *all = __atomic_load_n(&poolsAll, __ATOMIC_ACQUIRE), *old = poolsOld;
	if (all == NULL) /* the program does not use package sync */
		return;
	struct sync_Pool **v = (struct sync_Pool **)old->ptr;
	for (int64_t i = 0; i < old->len; i++)
		writebarrierptr(&v[i]->victim, NULL);
	v = (struct sync_Pool **)all->ptr;
	for (int64_t i = 0; i < all->len; i++) {
		writebarrierptr(&v[i]->victim, v[i]->local);
		writebarrierptr(&v[i]->local, NULL);
	}
	writebarrierptr((void **)&old->ptr, all->ptr);
	old->len = all->len;
	old->cap = all->cap;
	writebarrierptr((void **)&all->ptr, NULL);
	all->len = all->cap = 0;
}

#ifdef GL_GC_BOEHM
/* On Boehm, which stops the world at any instruction (a pinned
 * goroutine's too), the pools are aged with gl's own stop-the-world:
 * runtime.GC does it before it collects, as gl's cycle does, and after
 * one of Boehm's own collections (collectionevent, boehm.c, sets
 * poolsdue) the next allocation at a safe point does (mallocgc,
 * gcStartTry_m).  So Boehm's own collections age the pools one step late:
 * an item Put lives through two of them and is freed by the third. */
static bool poolsdue;

void boehmPoolsDue(void) {
	if (__atomic_load_n(&poolsAll, __ATOMIC_RELAXED) != NULL)
		__atomic_store_n(&poolsdue, true, __ATOMIC_RELEASE);
}

bool boehmPoolsWanted(void) {
	return __atomic_load_n(&poolsdue, __ATOMIC_RELAXED);
}

static void boehmPoolsTry(void) {
	if (!__atomic_load_n(&poolsdue, __ATOMIC_ACQUIRE) || gl_printlocked() ||
	    !trystopTheWorld_m("GC pools"))
		return;
	__atomic_store_n(&poolsdue, false, __ATOMIC_RELAXED);
	clearpools();
	startTheWorld_m();
}

static void clearpools_m(void *arg) {
	(void)arg;
	clearpools();
}
#endif

/* The clock of the cycle under way, for the statistics at its end. */
static struct {
	int64_t t0;       /* the cycle began (the first pause) */
	int64_t t1;       /* the first pause ended: marking began */
	int64_t t2;       /* marking ended: the last pause began */
	int64_t pausens;  /* the first pause's length (concurrent cycles) */
	uint64_t before;  /* heap_live when it began */
	uint64_t after;   /* heap_live when marking ended */
	bool forced;
	bool concurrent;  /* marked with the world running */
} cycle;

/* How this cycle's mark ended, for GLDEBUG=gcpacertrace=1: ragged
 * barriers run and those that found grey objects, pauses restarted,
 * and the bytes scanned in the last pause (what the barrier left to it).
 * Zeroed when a mark begins; under worldsema or the world stopped. */
static struct {
	uint32_t barriers, grey, restarts;
	uint64_t pausescan;
} markdone;

/* GLDEBUG=gcpacertrace=1: gl's line on the end of a concurrent mark (Go's
 * gcpacertrace prints its pacer's inputs; gl's pacer is mgcpacer.c). */
static void markdonetrace(void) {
	printlock();
	prints("pacer: mark done after ");
	printuint(markdone.barriers);
	prints(" ragged barriers (");
	printuint(markdone.grey);
	prints(" found grey objects), ");
	printuint(markdone.restarts);
	prints(" pauses restarted, ");
	printuint(markdone.pausescan);
	prints(" B scanned in the pause\n");
	printunlock();
}

/* Mark termination (Go's gcMarkTermination): on g0, the world stopped,
 * marking complete.  The sweep starts (gcSweep), the live heap is what
 * was marked; then the next goal, the statistics, the stacks shrunk. */
static void gcMarkTermination(void) {
	if (gl_debug.gccheckmark)
		checkmarks();
	mProf_NextCycle(); /* mark termination: the heap profile's cycle (mprof.c) */
	mProf_Flush();
	mcache_flushAll(); /* takes the no-P cache's lock, kept to the end */
	uint64_t inuse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED);
	cycle.after = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	gcSweep();
	mcache_unlockNop();
	uint64_t marked = __atomic_load_n(&gcstats.markedBytes, __ATOMIC_RELAXED);
	__atomic_store_n(&memstats.heap_live, marked, __ATOMIC_RELAXED);
	gcCycleMeasure m = {cycle.concurrent, cycle.before, cycle.after, cycle.t2 - cycle.t1, globalsBytes()};
	gcControllerEndCycle(marked, &m); /* the next goal (mgcpacer.c) */
	gcPaceSweeper(__atomic_load_n(&gcstats.trigger, __ATOMIC_RELAXED));
	gcPaceScavenger(inuse);
	gcshrink(!cycle.concurrent); /* stack.c heeds gcshrinkstackoff */
	gcComputeStartingStackSize(__atomic_load_n(&gcstats.stackBytes, __ATOMIC_RELAXED),
				   __atomic_load_n(&gcstats.stacks, __ATOMIC_RELAXED));
	int64_t tend = nanotime();
	int64_t pause = cycle.pausens + (tend - cycle.t2);
	if (cycle.concurrent) /* sweep termination, then mark termination */
		gcRecordPause(cycle.pausens);
	gcRecordPause(cycle.concurrent ? tend - cycle.t2 : pause);
	gcLimiterUpdate(tend - pause, tend);
	/* Go's ring: the most recent pause is at PauseNs[(NumGC+255)%256] */
	gcstats.pauseNs[gcstats.numgc % 256] = (uint64_t)pause;
	gcstats.lastGC = (uint64_t)walltime();
	gcstats.pauseEnd[gcstats.numgc % 256] = gcstats.lastGC;
	/* released: the scavenger reads numgc before the goal set above */
	__atomic_store_n(&gcstats.numgc, gcstats.numgc + 1, __ATOMIC_RELEASE);
	gcstats.numforcedgc += cycle.forced;
	/* a request made while this cycle marked was for this cycle; one
	 * for the next comes from the next goal */
	__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
	gcControllerChanged();
	forcedlast = cycle.forced;
	gcstats.pauseTotalNs += (uint64_t)pause;
	cyclecpu cpu = cycleCPU(cycle.t0, cycle.t1, cycle.t2, tend, cycle.concurrent);
	gcCPUAccount(cpu, tend);
	if (gl_debug.gctrace)
		gctrace(cycle.t0, cycle.t1, cycle.t2, tend, cycle.before, cycle.after, cpu);
	if (gl_debug.gcpacertrace && cycle.concurrent)
		markdonetrace();
}

/* A whole cycle with the world stopped, on g0: every cycle under
 * GLDEBUG=gcstoptheworld=1, runtime.GC's among them. */
static void gc_m(void *arg) {
	cycle.forced = arg != NULL; /* by value: see runtime_GC */
	cycle.concurrent = false;
	cycle.t0 = cycle.t1 = nanotime();
	cycle.pausens = 0;
	if (GL_UNLIKELY(trace_on))
		traceGCMarkStart(true);
	finishsweep_m();
	clearpools();
	cycle.before = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	mcache_flushAll();
	mcache_unlockNop();
	wbshadowCheck("before a stop-the-world mark");
	gcResetStats();
	gcWork w;
	gcWorkInit(&w);
	gcMarkRoots(&w);
	gcDrainN(&w, -1);
	gcWorkDispose(&w);
	if (GL_UNLIKELY(trace_on))
		traceGCMarkDone();
	cycle.t2 = nanotime();
	cycle.pausens = cycle.t2 - cycle.t0; /* the mark stopped the world too */
	gcMarkTermination();
}

/* ---- the concurrent cycle (Go's gcStart, gcBgMarkWorker, gcMarkDone) ----
 *
 *   gcStart, the world stopped: the last sweep finished and the pools
 *     aged (clearpools), every mcache gives its spans and its tiny
 *     block back (so that every object allocated from here on is new,
 *     and black), the roots are greyed — package variables, the
 *     runtime's records, finalizers, and the stack of the goroutine whose
 *     allocation started the cycle (its new object is in its innermost
 *     frames) — and the write barrier and allocate-black are switched on.
 *     The world starts.
 *   gcBgMarkWorker, a goroutine of the runtime per P, in the turns its
 *     P's scheduler gives it: scans the goroutines' stacks one at a time,
 *     each stopped by suspendG for the while and shrunk then
 *     (bgScanStacks), and drains the grey objects a slice at a time
 *     (bgMarkSlice), beside the other workers and the assists, yielding
 *     between slices, until nothing is grey anywhere.
 *   gcMarkDone, the world stopped again: every P's write-barrier buffer
 *     is flushed, the stacks left (a stop-the-world cut the workers'
 *     round short) are scanned, the runtime's own records (written
 *     without barriers) and finalizers are greyed again, and the rest drained; the barrier goes
 *     off; gcMarkTermination starts the sweep.
 *
 * A stack is scanned once: the barrier shades the pointer a store
 * overwrites (so a goroutine whose stack is black can only come to hold a
 * white object by loading it from a slot whose overwriting shades it) and
 * the one it writes (so a goroutine whose stack is grey cannot hide an
 * object in a black one and drop it).  docs/gc.md says more.
 *
 * gcphase (atomic) is 1 from gcStart to gcMarkDone; gccycle counts the
 * cycles begun, so that a worker woken for one cycle does not finish
 * another. */
static int32_t gcphase;
static uint32_t gccycle;

bool gcMarking(void) {
	return __atomic_load_n(&gcphase, __ATOMIC_ACQUIRE) != 0;
}

uint32_t gcCycle(void) {
	return __atomic_load_n(&gccycle, __ATOMIC_ACQUIRE);
}

/* The stacks the concurrent mark has not scanned yet, with the world
 * stopped: those of the goroutines that ran whenever the worker looked. */
static void scanleftstacks(uint32_t c, gcWork *w) {
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		if (readgstatus(gp) != Gdead && gp->gcscancycle != c)
			gcScanStack(gp, c, w);
	}
}

/* ---- runtime.GC's wait for a mark (Go's gcWaitOnMark) ----
 *
 * Goroutines in runtime.GC parked until the mark of the cycle they wait
 * for ends, linked through G.schedlink; readied by gcMarkDone_m, the world
 * stopped, once gcphase is 0.  A waiter checks the phase under the lock
 * before it parks, and the waker takes the list under it after clearing
 * the phase, so no wake is lost. */
static struct {
	mutex lock;
	G *head;
} markwait = {MUTEX(lockRankMarkWait), NULL};

static bool markwait_unlock(G *gp, void *arg) {
	(void)gp;
	unlock(arg);
	return true;
}

/* Park until cycle c's mark is over; at once if it is (or another cycle
 * marks).  From a goroutine. */
static void gcWaitOnMark(uint32_t c) {
	lock(&markwait.lock);
	if (!gcMarking() || gcCycle() != c) {
		unlock(&markwait.lock);
		return;
	}
	G *gp = getm()->curg;
	gp->schedlink = markwait.head;
	markwait.head = gp;
	gopark(markwait_unlock, &markwait.lock, waitReasonWaitForGCCycle);
}

/* The mark is over (gcphase is 0), the world stopped: every waiter is
 * runnable — at the back of the run queue, as Go's gcMarkTermination
 * injects them, not next.  Readied next (goready), a goroutine that
 * calls runtime.GC in a loop came back ahead of everything queued, and
 * with one P the mark worker (due at the start of every mark) and it took
 * turns for ever while the program's other goroutines waited in the
 * queue behind: testdata/run/gc_scavenge_churn, whose main calls
 * debug.FreeOSMemory until its workers end, ran 350,000 cycles and
 * never ended, about one run in ten under gcstress on a loaded machine. */
static void gcWakeMarkWaiters(void) {
	lock(&markwait.lock);
	G *list = markwait.head;
	markwait.head = NULL;
	unlock(&markwait.lock);
	injectglist(list, traceWhyNone);
}

/* The first pause, on g0 with the world stopped; forced: runtime.GC's. */
static void gcStartMarkCycle_m(bool forced) {
	cycle.forced = forced;
	cycle.concurrent = true;
	cycle.t0 = nanotime();
	finishsweep_m();
	clearpools();
	cycle.before = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	mcache_flushAll();
	mcache_unlockNop();
	wbshadowCheck("before a concurrent mark");
	gcResetStats();
	markdone = (__typeof__(markdone)){0};
	uint32_t c = __atomic_add_fetch(&gccycle, 1, __ATOMIC_RELEASE);
	gcAssistReset();
	gcControllerStartMark();
	gcWork w;
	gcWorkInit(&w);
	gcMarkRootsNoStacks(&w);
	/* the goroutine whose allocation started the cycle is in the middle
	 * of mallocgc: its new object, not yet stored anywhere, is in its
	 * innermost frames, which only this pause can see (mgc.c's rule) */
	G *self = getm()->curg;
	if (self != NULL)
		gcScanStack(self, c, &w);
	gcWorkDispose(&w);
	writeBarrier.enabled = true;
	__atomic_store_n(&gcBlackenEnabled, true, __ATOMIC_RELEASE);
	__atomic_store_n(&gcphase, 1, __ATOMIC_RELEASE);
	if (GL_UNLIKELY(trace_on))
		traceGCMarkStart(false);
	cycle.t1 = nanotime();
	cycle.pausens = cycle.t1 - cycle.t0;
}

/* The last pause, on g0 with the world stopped: finish the cycle whose
 * number arg is (or whatever cycle is marking, for NULL), unless it is
 * over already.  Whatever grey objects are left are marked here: the
 * ragged barrier (gcMarkDone) keeps them few; the pacer's backstop and
 * GLDEBUG=gcstoptheworld=1 come here without it. */
static void gcMarkDone_m(void *arg) {
	if (!gcMarking() || (arg != NULL && (uint32_t)(uintptr_t)arg != gccycle))
		return;
	if (GL_UNLIKELY(trace_on))
		traceGCMarkDone();
	cycle.t2 = nanotime();
	for (int32_t i = 0; i < gomaxprocs; i++)
		wbBufFlush(allp[i]);
	wbshadowCheck("during a concurrent mark");
	uint64_t scanned = __atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED);
	gcWork w;
	gcWorkInit(&w);
	scanleftstacks(gccycle, &w);
	gcMarkRootsAgain(&w);
	gcDrainN(&w, -1);
	gcWorkDispose(&w);
	markdone.pausescan = __atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED) - scanned;
	__atomic_store_n(&gcBlackenEnabled, false, __ATOMIC_RELEASE);
	gcWakeAllAssists();
	writeBarrier.enabled = gl_debug.wbforce != 0;
	__atomic_store_n(&gcphase, 0, __ATOMIC_RELEASE);
	gcWakeMarkWaiters();
	if (gl_debug.gccheckmark)
		checkroots();
	gcMarkTermination();
}

/* The world runs again after a pause that ended a cycle: the
 * background sweeper gets its work. */
static void gcAfterTermination_m(void *arg) {
	(void)arg;
	bgsweepStart_m();
}

/* ---- the end of the mark (Go's gcMarkDone) ----
 *
 * A worker that finds nothing grey anywhere — work.full empty, no job
 * holding grey objects (mgcmark.c's gcMarkWorkLeft) — may still be
 * wrong: the Ps' write-barrier buffers hold pointers no one has shaded,
 * and shading them may make more grey objects.  Stopping the world to
 * flush them would make the pause as long as the marking they lead to.
 * So, as Go's, the worker first runs a ragged barrier: every P flushes
 * its own buffer at a safe point of its own (proc.c's forEachP) while
 * the others run.  If any flush greyed an object, the mark goes on
 * (the workers get turns for it) and the next worker to run dry tries
 * again.  If none did, there were no grey objects at the barrier, and
 * none can appear after it but through a barrier's buffer: so the world
 * is stopped and the buffers flushed once more — the stores made since
 * the barrier — and if even that greyed something the world starts
 * again and the mark goes on (Go's issue 27993; rare).  Otherwise the
 * pause ends the cycle (gcMarkDone_m) with nothing, or nearly nothing,
 * left to mark.
 *
 * worldsema is held from the barrier to the pause: no other stop (nor
 * GOMAXPROCS change) comes between, and a second worker that ran dry
 * waits for it, then finds the cycle over or the work back. */
static int32_t markDoneFlushed; /* Ps whose flush greyed objects (atomic) */

static void markDoneFlushP(P *pp) {
	if (wbBufFlush(pp))
		__atomic_fetch_add(&markDoneFlushed, 1, __ATOMIC_RELAXED);
}

/* With the world stopped: flush the buffers filled since the barrier;
 * markDoneRestart says whether that greyed objects (the mark goes on,
 * and this pause counts as one of its own, measured as the cycle's
 * pauses are: from the world stopped). */
static bool markDoneRestart; /* under worldsema */

static void markDoneRecheck_m(void *arg) {
	(void)arg;
	int64_t t0 = nanotime();
	bool grey = false;
	for (int32_t i = 0; i < gomaxprocs; i++)
		grey |= wbBufFlush(allp[i]);
	markDoneRestart = grey;
	if (grey) {
		markdone.restarts++;
		gcRecordPause(nanotime() - t0);
	}
}

/* From a worker goroutine that ran dry in cycle c: end the mark, if it
 * can be.  True if the mark of c is over (by this call or another's);
 * false if grey objects turned up, and the mark goes on. */
static bool gcMarkDone(uint32_t c) {
	semacquireWorld();
	if (!gcMarking() || gcCycle() != c) {
		semreleaseWorld();
		return true;
	}
	if (gcMarkWorkLeft()) { /* someone found more since */
		semreleaseWorld();
		return false;
	}
	__atomic_store_n(&markDoneFlushed, 0, __ATOMIC_RELAXED);
	forEachP(markDoneFlushP);
	markdone.barriers++;
	if (__atomic_load_n(&markDoneFlushed, __ATOMIC_RELAXED) != 0) {
		markdone.grey++;
		semreleaseWorld();
		return false;
	}
	stopTheWorldHeld("GC mark termination");
	systemstack(markDoneRecheck_m, NULL);
	if (markDoneRestart) {
		startTheWorld();
		return false;
	}
	/* the cycle by value: stopTheWorld may have moved this stack
	 * (DESIGN.md S4), and cycles count from 1, so it is never NULL */
	systemstack(gcMarkDone_m, (void *)(uintptr_t)c);
	startTheWorld();
	systemstack(gcAfterTermination_m, NULL);
	wakefing();
	return true;
}

/* ---- the background mark workers (Go's gcBgMarkWorker) ----
 *
 * One worker goroutine per P (P.gcBgMarkWorker, made the first time a
 * mark needs it), and only that P's scheduler gives it turns (findRunnable
 * calls gcFindRunnableWorker).  A turn is one of three kinds, chosen when
 * it begins — Go's split of the collector's 25% of GLMAXPROCS
 * (gcControllerState.startCycle):
 *
 *   dedicated   int(procs/4 + 0.5) of them, unless that count misses the
 *               25% by more than 30% (then one fewer): marks without
 *               giving its P back until the mark ends or the world stops;
 *               when sysmon asks it to yield, the goroutines queued on
 *               its P go to the global queue instead (runqkick_m).
 *   fractional  the rest of the 25%, spread over the Ps: each P's worker
 *               marks while its P's fractional time this mark is under
 *               that share of the time since the mark began (Go's
 *               fractionalUtilizationGoal), and gives the P back at 1.2
 *               times it, or when a goroutine readied on the P waits.
 *   idle        a P with nothing else to run marks until it has (Go's
 *               idle worker), on any number of Ps.
 *
 * At 1 to 3 Ps every worker is fractional (at 2 Ps a dedicated one would
 * take half the machine: with two goroutines making garbage and a 1 ms
 * ticker, the ticker's worst wait was 34 ms, 21 ms with the share:
 * bench/gc/run's pause, medians of 3); at 4, one dedicated; at 6, one
 * dedicated and a twelfth of every P fractional.
 *
 * A worker is in one of three states: it runs; or it is parked between
 * cycles (workerParkedCycle), and gcBgMarkStart_m hands it to the
 * scheduler for the new one; or it is parked during a mark, waiting for a
 * turn (workerWaitingP).  The state changes from workerParkedCycle only
 * under bgworkerlock, from workerWaitingP by a compare-and-swap (the
 * scheduler takes no lock), and to either only in parkworker_unlock, once
 * the worker is switched out.  The workers never scan one another's
 * stacks (two suspendGs waiting for each other would wait forever); mark
 * termination does, and there is nothing on them. */
enum { workerRunning, workerParkedCycle, workerWaitingP };
enum { turnNone, turnDedicated, turnFractional, turnIdle };

typedef struct bgslice {
	uint32_t cycle;
	bool more;
	bool stacksdone; /* every stack of the cycle scanned */
	bool starved;    /* nothing to take while others hold grey objects */
} bgslice;

/* A worker's record, outside the heap (persistentalloc).  The turn's
 * state is here, not in the worker's frames: its parks may move its stack
 * (DESIGN.md S4). */
struct bgWorker {
	G *g;
	int32_t id;           /* the P whose scheduler gives it turns */
	int32_t state;        /* atomic: workerRunning, ... */
	int32_t parkas;       /* the state its next park enters */
	uint32_t cycle;       /* the cycle it was woken for (bgworkerlock) */
	int32_t turn;         /* the kind of this turn; turnNone between turns */
	int64_t fractionalNs; /* its P's fractional time this mark (atomic) */
	bgslice slice;
	bool busy;            /* bgworkerYield's look at its P */
};
static mutex bgworkerlock = MUTEX(lockRankBgworker);

/* This mark's split (set when it begins, the world stopped). */
static struct {
	int32_t dedicatedNeeded;   /* atomic: dedicated turns not handed out */
	double fractionalGoal;     /* of each P's time, for fractional turns */
	int64_t markStart;         /* when the mark began */
} markctl;

static void workerSplit(int32_t procs) {
	double goal = procs * 0.25;
	int32_t n = (int32_t)(goal + 0.5);
	double err = (double)n / goal - 1;
	markctl.fractionalGoal = 0;
	if (err > 0.3 || err < -0.3) {
		if (n > goal)
			n--;
		markctl.fractionalGoal = (goal - n) / procs;
	}
	__atomic_store_n(&markctl.dedicatedNeeded, n, __ATOMIC_RELAXED);
}

/* Whether w's P has fractional time left this mark, below slack times
 * its share (Go stops a fractional worker at 1.2 times its share,
 * pollFractionalWorkerExit, and starts it again below 1). */
static bool fractionalLeft(bgWorker *w, int64_t now, double slack) {
	int64_t elapsed = now - markctl.markStart;
	return markctl.fractionalGoal > 0 &&
	       (elapsed <= 0 || (double)__atomic_load_n(&w->fractionalNs, __ATOMIC_RELAXED) <
				    slack * markctl.fractionalGoal * (double)elapsed);
}

/* The kind of turn w may take now on a busy P: a dedicated one if any is
 * left (taken), else a fractional one if its P's share is due. */
static int32_t takeTurn(bgWorker *w, int64_t now) {
	int32_t n = __atomic_load_n(&markctl.dedicatedNeeded, __ATOMIC_RELAXED);
	while (n > 0)
		if (__atomic_compare_exchange_n(&markctl.dedicatedNeeded, &n, n - 1, true, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return turnDedicated;
	return fractionalLeft(w, now, 1.0) ? turnFractional : turnNone;
}

/* The turn is over: a dedicated one goes back for another worker. */
static void endTurn(bgWorker *w) {
	if (w->turn == turnDedicated)
		__atomic_fetch_add(&markctl.dedicatedNeeded, 1, __ATOMIC_RELAXED);
	w->turn = turnNone;
}

static bgWorker *pWorker(P *pp) {
	return __atomic_load_n(&pp->gcBgMarkWorker, __ATOMIC_ACQUIRE);
}

/* Whether a turn of w's would find something to do now: grey objects on
 * the list, stacks of its cycle to scan, or the mark to end — not when
 * others hold every grey object (the assists of a mark's last moments):
 * it would end at once (Go's findRunnableGCWorker asks
 * gcMarkWorkAvailable for the same reason).  Whoever holds them gives
 * back what is left when its job ends, or ends the mark's last job. */
static bool workerHasWork(bgWorker *w) {
	return gcMarkWorkAvailable() || w->slice.cycle != gcCycle() || !w->slice.stacksdone || !gcMarkWorkLeft();
}

/* For sysmon (proc.c, pwantsrun): pp's worker waits for a turn and is due
 * one, so a goroutine that holds pp past its time slice is preempted for
 * it, as for any goroutine waiting in a run queue. */
bool gcWorkerWantsP(P *pp, int64_t now) {
	if (!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE))
		return false;
	bgWorker *w = pWorker(pp);
	return w != NULL && __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == workerWaitingP && workerHasWork(w) &&
	       (__atomic_load_n(&markctl.dedicatedNeeded, __ATOMIC_RELAXED) > 0 || fractionalLeft(w, now, 1.0));
}


/* From findRunnable, on g0 with a P: the P's worker, runnable, if it waits
 * for a turn, has work, and should have one now — always on a P with
 * nothing else to do (idle), else when a dedicated turn is left or its
 * fractional share is due; NULL otherwise. */
G *gcFindRunnableWorker(bool idle) {
	if (GL_LIKELY(!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE)))
		return NULL;
	bgWorker *w = pWorker(getm()->p);
	if (w == NULL || __atomic_load_n(&w->state, __ATOMIC_ACQUIRE) != workerWaitingP || !workerHasWork(w))
		return NULL;
	int32_t turn = idle ? turnIdle : takeTurn(w, nanotime());
	if (turn == turnNone)
		return NULL;
	int32_t want = workerWaitingP;
	if (!__atomic_compare_exchange_n(&w->state, &want, workerRunning, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		if (turn == turnDedicated) /* not w's: its record is not ours to write */
			__atomic_fetch_add(&markctl.dedicatedNeeded, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	w->turn = turn;
	casgstatus(w->g, Gwaiting, Grunnable);
	return w->g;
}

/* Scan the stacks of cycle c's goroutines one at a time, each stopped
 * and claimed for the while by suspendG (preempt.c): a parked, runnable
 * or syscall goroutine at once, a running one by asking it to stop at its
 * next safe point — a prologue, an allocation, or wherever SIGURG finds
 * it in gl code (seed 004's mechanism; bench/stall measures it).  The
 * stack is shrunk then, if it uses little of itself.  Each worker starts
 * at its own place in allgs, so that workers marking at once seldom want
 * the same goroutine (the one that claims it second finds it scanned).
 * Stops early, false, when someone waits to stop the world: this
 * worker's P is one it waits for. */
static bool bgScanStacks(bgWorker *self, uint32_t c, gcWork *w) {
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t k = 0; k < n; k++) {
		G *gp = gs[(k + self->id * 16) % n];
		if (gp->gcworker != NULL || __atomic_load_n(&gp->gcscancycle, __ATOMIC_ACQUIRE) == c)
			continue;
		if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) || !gcMarking())
			return false;
		suspendGState st = suspendG(gp, 0);
		if (st.g == NULL)
			continue; /* dead */
		if (gp->gcscancycle != c)
			gcScanStack(gp, c, w);
		resumeG(st);
	}
	return true;
}

/* One slice of a worker's time, on g0: the stacks not scanned yet, then
 * drain for about a millisecond, less on an idle P that gets other work
 * meanwhile (Go's dedicated worker runs until preempted; gl's yields
 * between slices, so that a stop-the-world or suspendG finds it soon).
 * When it finds nothing grey while others still hold some, it ends its
 * turn (starved) rather than end the mark under them or spin. */
static void bgMarkSlice_m(void *arg) {
	bgWorker *bw = arg;
	bgslice *a = &bw->slice;
	int64_t t0 = nanotime(), end = t0 + 1000000;
	gcWork w;
	gcWorkInit(&w);
	if (!a->stacksdone && gcMarking() && a->cycle == gccycle)
		a->stacksdone = bgScanStacks(bw, a->cycle, &w);
	bool busy = false;
	a->starved = false;
	do {
		a->more = false;
		if (gcMarking() && a->cycle == gccycle) {
			a->more = gcDrainN(&w, 64 << 10);
			if (!a->more) {
				gcWorkWait(&w);
				a->more = a->starved = gcMarkWorkLeft();
			}
		}
		if (bw->turn == turnIdle)
			phaswork_m(&busy);
	} while (a->more && !a->starved && !busy && nanotime() < end &&
		 !__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) &&
		 !__atomic_load_n(&getm()->p->runSafePointFn, __ATOMIC_RELAXED));
	int64_t scanned = (int64_t)w.scanWork;
	gcWorkDispose(&w);
	/* the assists may take this scan work as theirs (mgcmark.c) */
	gcFlushBgCredit(scanned);
	int64_t ns = nanotime() - t0;
	__atomic_fetch_add(bw->turn == turnIdle ? &gcstats.idleMarkNs : &gcstats.bgMarkNs, ns, __ATOMIC_RELAXED);
	if (bw->turn != turnDedicated && bw->turn != turnIdle)
		__atomic_fetch_add(&bw->fractionalNs, ns, __ATOMIC_RELAXED);
	/* stacks left for a later slice (a stop-the-world came first) */
	if (!a->stacksdone && gcMarking() && a->cycle == gccycle)
		a->more = true;
	/* a dedicated worker keeps its P past a preemption: the ragged
	 * barrier's function runs here (proc.c's forEachP) */
	checkSafePointFn(getm()->p);
}

/* gopark's unlockf: the worker is switched out; the scheduler (or
 * gcBgMarkStart_m) may take it from here.  arg: bgworkerlock, or NULL. */
static bool parkworker_unlock(G *gp, void *arg) {
	bgWorker *w = gp->gcworker;
	__atomic_store_n(&w->state, w->parkas, __ATOMIC_RELEASE);
	if (arg != NULL)
		unlock(arg);
	return true;
}

static void wakep_m(void *arg) {
	(void)arg;
	wakep();
}

/* Between two slices.  Dedicated: it keeps its P, and when sysmon asks
 * it to yield, the goroutines queued behind it go to the global queue
 * instead, as Go's do; it stops only for a stop-the-world or suspendG.
 * Fractional, or on an idle P: it gives the P back when its share is used
 * up, or when the idle P has other work, and waits for the scheduler to
 * give it a turn again; an idle P, if there is one, is woken meanwhile.
 * Any worker starved of work ends its turn.  (A worker made or woken
 * outside a turn, turnNone, is fractional here.) */
static void bgworkerYield(G *g, bgWorker *w) {
	if (__atomic_load_n(&g->preemptStop, __ATOMIC_ACQUIRE)) {
		gosched();
		return;
	}
	bool stw = __atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE);
	if (w->slice.starved)
		goto park;
	if (w->turn == turnDedicated) {
		if (stw)
			gosched();
		else if (__atomic_load_n(&g->preempt, __ATOMIC_ACQUIRE)) {
			g->preempt = false;
			systemstack(runqkick_m, NULL);
		}
		return;
	}
	systemstack(phaswork_m, &w->busy);
	if (w->turn != turnIdle)
		/* its share used up, or a goroutine just readied on this P
		 * (runnext: a timer's, a channel partner's) waits for it, or
		 * sysmon asks for the P for the goroutines queued on it */
		w->busy = !fractionalLeft(w, nanotime(), 1.2) ||
			  __atomic_load_n(&getm()->p->runnext, __ATOMIC_ACQUIRE) != NULL ||
			  (__atomic_load_n(&g->preempt, __ATOMIC_ACQUIRE) && w->busy);
	if (!stw && !w->busy)
		return;
	if (!stw && __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0)
		systemstack(wakep_m, NULL);
park:
	g->preempt = false;
	endTurn(w);
	w->parkas = workerWaitingP;
	gopark(parkworker_unlock, NULL, waitReasonGCWorkerIdle);
}

static void gcBgMarkWorker(G *g, void *arg) {
	bgWorker *w = arg;
	g->gcworker = w;
	uint32_t done = 0; /* the last cycle it worked for */
	for (;;) {
		lock(&bgworkerlock);
		if (w->cycle == done) {
			w->parkas = workerParkedCycle;
			gopark(parkworker_unlock, &bgworkerlock, waitReasonGCWorkerIdle);
		} else
			unlock(&bgworkerlock);
		w->slice = (bgslice){__atomic_load_n(&w->cycle, __ATOMIC_ACQUIRE), true, false, false};
		done = w->slice.cycle;
		for (;;) {
			systemstack(bgMarkSlice_m, w);
			if (w->slice.more) {
				bgworkerYield(g, w);
				continue;
			}
			endTurn(w);
			if (!gcMarking() || done != __atomic_load_n(&gccycle, __ATOMIC_ACQUIRE) || gcMarkDone(done))
				break;
			/* the ragged barrier found grey objects: a turn
			 * again when the scheduler gives one */
			g->preempt = false;
			w->parkas = workerWaitingP;
			gopark(parkworker_unlock, NULL, waitReasonGCWorkerIdle);
		}
	}
}

/* On g0, the world started again after a mark began: this mark's split of
 * the turns, and every P's worker waiting for one (made the first time,
 * a system goroutine as fing: it runs at once, outside a turn); an idle
 * P woken to mark. */
static void gcBgMarkStart_m(void) {
	int32_t procs = gomaxprocs;
	workerSplit(procs);
	markctl.markStart = nanotime();
	lock(&bgworkerlock);
	for (int32_t i = 0; i < procs; i++) {
		P *pp = allp[i];
		bgWorker *w = pWorker(pp);
		if (w == NULL) {
			w = persistentalloc(sizeof *w);
			w->id = i;
			w->state = workerRunning;
			w->cycle = gccycle;
			__atomic_add_fetch(&sched.ngsys, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&w->g, newproc(gcBgMarkWorker, w, "runtime.gcBgMarkWorker"), __ATOMIC_RELEASE);
			__atomic_store_n(&pp->gcBgMarkWorker, w, __ATOMIC_RELEASE);
			continue;
		}
		__atomic_store_n(&w->fractionalNs, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->cycle, gccycle, __ATOMIC_RELEASE);
		if (__atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == workerParkedCycle)
			__atomic_store_n(&w->state, workerWaitingP, __ATOMIC_RELEASE);
	}
	unlock(&bgworkerlock);
	if (__atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0)
		wakep();
}

bool isGCWorker(const G *gp) {
	return gp != NULL && gp->gcworker != NULL;
}

/* A cycle is wanted and another stop-the-world holds worldsema: most
 * often the goroutine that ended the last mark, between restarting the
 * world and releasing worldsema, and sometimes without its CPU for a
 * scheduler tick, taken by the M it woke (proc.c, startTheWorldWake).
 * Go's allocating goroutine would block on worldsema there; this one
 * may not park (gcStartTry_m), and allocates on past its goal.  Once
 * the heap is past the goal it gives up its CPU (sched_yield) at each
 * attempt: when the holder waits on this CPU — as when its wakee took
 * its place — the holder runs.  (bench/gc's churn: 15-27 MiB heaps under
 * a 4 MiB goal in one run of four without it.) */
static void startBusy(void) {
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	if (live >= __atomic_load_n(&gcstats.nextGC, __ATOMIC_RELAXED))
		osyield();
}

/* A cycle started by the pacer or gcstress, on g0: only if no other
 * stop-the-world is under way (the allocation must not park: the runtime
 * C that called mallocgc may hold pointers into its stack, which could
 * move meanwhile).  All of it on g0, where the calls that wake the
 * goroutines waiting for the world have room. */
static void gcStartTry_m(void *arg) {
	(void)arg;
#ifdef GL_GC_BOEHM
	boehmPoolsTry(); /* Boehm's heap collects itself; the pools are gl's */
	return;
#endif
	bool marking = gcMarking();
	/* a cycle is marking: finish it here only if the pacer says the
	 * allocating goroutine must (mgcpacer.c) */
	if (marking && !gcMarkAssistDue())
		return;
	if (gl_printlocked()) /* not in the middle of a print statement */
		return;
	if (!trystopTheWorld_m("GC sweep termination")) {
		startBusy();
		return;
	}
	__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
	if (marking)
		gcMarkDone_m(NULL);
	else if (gl_debug.gcstoptheworld) {
		gc_m(NULL);
	} else
		gcStartMarkCycle_m(false);
	startTheWorld_m();
	if (gcMarking())
		gcBgMarkStart_m();
	bgsweepStart_m();
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

static void finishsweep_sys(void *arg) {
	(void)arg;
	finishsweep_m();
}

/* runtime.GC's first pause. */
static void gcStartForced_m(void *arg) {
	(void)arg;
	gcStartMarkCycle_m(true);
}

static void gcBgMarkStart_sys(void *arg) {
	(void)arg;
	gcBgMarkStart_m();
	bgsweepStart_m();
}

/* runtime.GC's cycle, as Go's: wait for the mark under way to end, start
 * a concurrent cycle of its own (unless another began meanwhile: then
 * that one), and wait for its mark to end; the caller sweeps.  The first
 * pause is the only one it adds; the mark runs beside the program, the
 * workers and assists doing it while this goroutine waits, parked. */
static void gcForcedCycle(void) {
	uint32_t n = gcCycle();
	gcWaitOnMark(n);
	stopTheWorld("GC (forced)");
	bool start = gcCycle() == n && !gcMarking();
	if (start) {
		__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
		systemstack(gcStartForced_m, NULL);
	}
	startTheWorld();
	if (start)
		systemstack(gcBgMarkStart_sys, NULL);
	gcWaitOnMark(n + 1);
}

/* runtime.GC(): a whole cycle now, and the sweep; concurrent, as Go's,
 * but under GLDEBUG=gcstoptheworld=1. */
void runtime_GC(G *g) {
	(void)g;
#ifdef GL_GC_BOEHM
	/* the pools first, as in gl's own cycle (clearpools) */
	stopTheWorld("GC (forced)");
	systemstack(clearpools_m, NULL);
	startTheWorld();
	boehmGC();
	/* its collection was that of the pools cleared above */
	__atomic_store_n(&poolsdue, false, __ATOMIC_RELAXED);
	return;
#endif
	if (gl_debug.gcstoptheworld) {
		stopTheWorld("GC (forced)");
		__atomic_store_n(&gcwanted, false, __ATOMIC_RELAXED);
		systemstack(gcMarkDone_m, NULL); /* the cycle under way, if any */
		systemstack(gc_m, (void *)1); /* forced; a flag, not an address into this
					       * stack, which stopTheWorld may have moved (S4) */
		startTheWorld();
	} else
		gcForcedCycle();
	/* and sweeps it all before it returns, as Go's runtime.GC: what it
	 * freed is free, its finalizers are queued, the profile published */
	systemstack(finishsweep_sys, NULL);
	/* Go's runtime.GC parks and yields before it returns, and the
	 * finalizer goroutine gets to run then: so here, if there is one */
	if (wakefing())
		gosched();
}
