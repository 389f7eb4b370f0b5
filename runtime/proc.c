/*
 * proc.c — goroutines, threads and the scheduler (Go's runtime/proc.go),
 * by Go's names: G (goroutine), M (OS thread), P (the right to run gl
 * code, with its run queue), sched (global state).
 *
 * GLMAXPROCS Ps (default: the CPUs in the affinity mask).  An M runs gl
 * code only while it holds a P; Ms are threads created as needed
 * (pthread_create) and parked on a futex note when idle.  Each P has a
 * lock-free run queue of 256 Gs plus runnext; there is a global queue
 * under sched.lock; idle Ps steal half of another P's queue.
 *
 *   gl_main ─ schedinit ─ newproc1(runtime_main) ─ gl_mstart(mstart1)
 *   mstart1 ─ schedule ─ findRunnable ─ execute ─ gogo ─► main goroutine
 *   gopark ─ mcall(park_m) ─ schedule ...    goready ─ runqput(runnext) ─ wakep
 *   goroutine returns ─ goexit1 ─ mcall(goexit0) ─ schedule ...
 *   findRunnable: local runq, global runq (every 61 ticks first), timers,
 *     steal from other Ps (spinning), then release the P and either wait
 *     in netpoll until the next timer or stopm (sleep on m->park).
 *
 * The switch itself (mcall/gogo, asm_amd64.S) is a handful of
 * instructions, and parking never enters the kernel: only idle Ms sleep.
 * A G may resume on another M than it parked on, so runtime C that parks
 * reads TLS again through the noinline getg() afterwards (DESIGN.md S9).
 *
 * A system call that may block (syscall.Syscall, os.File I/O) goes
 * through entersyscall/exitsyscall: its P waits in Psyscall, and sysmon's
 * retake hands it to another M (handoffp, startm) when the call lasts, so
 * a blocked call costs a thread but no P (docs/syscalls.md).  Preemption:
 * a request sets stackguard0 = GL_STACK_PREEMPT and the goroutine's next
 * prologue ends in newstack → gopreempt_m; sysmon's retake asks goroutines
 * that run too long, and preempt.c adds the SIGURG preemption.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The current G.  Generated code never reads it (S9); asm_amd64.S writes
 * it at every switch. */
GL_TLS G *tls_g;

schedt sched = {.lock = MUTEX(lockRankSched), .gFreelock = MUTEX(lockRankGFree), .sudoglock = MUTEX(lockRankSudog)};
M m0;
G g0;
M *allm = &m0;
P **allp;              /* allp[0, gomaxprocs) are in use; never freed */
static int32_t allpcap;
int32_t gomaxprocs;    /* atomic: changes only with the world stopped */
int32_t ncpu;
static int32_t newprocs; /* GOMAXPROCS(n) waiting for startTheWorld */
G **allgs;
int64_t allglen;
static int64_t allgcap;
static mutex allglock = MUTEX(lockRankAllg);
static bool mainStarted; /* wakep only once the main goroutine runs */
static uint32_t worldsema = 1; /* one stop-the-world at a time */
static int64_t runtimeInitTime;

int gl_argc;
char **gl_argv;

static void (*main_init)(G *);
static void (*main_main)(G *);

enum {
	maxmcount = 10000,
	g0StackSize = 512 * 1024, /* the stack of threads the runtime creates */
	forcegcperiod = 2 * 60 * 1000000000LL,
};

static void checkdead(void);
static void stopm(void);
static void handoffp(P *pp);
static void incidlelocked(int32_t v);
static void acquirep(P *pp);
static P *releasep(void);
static void mexit(void) GL_NORETURN;

/* noinline, so that code that parks and resumes on another thread reads
 * TLS again (gcc may keep the address of a TLS variable across calls). */
GL_NOINLINE G *getg(void) {
	return tls_g;
}

void setg(G *gp) {
	tls_g = gp;
}

/* ---- fastrand: Go 1.19's wyrand, per M ---- */

uint32_t fastrand(void) {
	M *mp = getm();
	mp->fastrand += 0xa0761d6478bd642full;
	__uint128_t r = (__uint128_t)mp->fastrand * (mp->fastrand ^ 0xe7037ed1a0b428dbull);
	return (uint32_t)((uint64_t)r ^ (uint64_t)(r >> 64));
}

/* A uniform number in [0, n) (Lemire's multiply-shift, as Go's fastrandn). */
static inline uint32_t fastrandn(uint32_t n) {
	return (uint32_t)(((uint64_t)fastrand() * n) >> 32);
}

static uint64_t randomseed(void) {
	uint64_t seed = 0;
	long n = rawsyscall6(SYS_getrandom_, (long)&seed, sizeof seed, 1 /* GRND_NONBLOCK */, 0, 0, 0);
	if (n != (long)sizeof seed || seed == 0) {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		seed = ((uint64_t)hi << 32 | lo) ^ (uint64_t)(uintptr_t)&seed;
	}
	return seed;
}

/* Monotonic and wall-clock nanoseconds, through libc and the vDSO, on
 * g0 as Go's vdsoCall does: callable from a goroutine stack (time.Now,
 * sync's runtime_nanotime), where libc must not run (S7).  On g0
 * systemstack is a direct call; a thread with no G (core_test's driver)
 * calls libc directly. */
static void clockread(void *arg) {
	struct timespec ts;
	int64_t *t = arg;
	clock_gettime((clockid_t)*t, &ts);
	*t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline int64_t clock_ns(int64_t clock) {
	if (tls_g == NULL) /* a thread that is not an M (tests' C code) */
		clockread(&clock);
	else
		systemstack(clockread, &clock);
	return clock;
}

int64_t nanotime(void) {
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t walltime(void) {
	return clock_ns(CLOCK_REALTIME);
}

/* CPU time of the calling thread (user and system): what the background
 * scavenger paces itself by (mgcscavenge.c). */
int64_t threadcputime(void) {
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* ---- the CPU's features (Go's internal/cpu) ----
 * What generated code may use beyond x86-64's baseline, read once at
 * start-up: gl.h's intrinsics test them (bits.OnesCount is one POPCNT
 * and math.FMA one VFMADD231SD where the CPU has them, as in Go). */
bool gl_x86HasPOPCNT;
bool gl_x86HasFMA; /* VFMADD231SD for math.FMA: the CPU has it and the kernel saves ymm state */
/* The vector registers the CPU has and the kernel saves in a signal
 * frame, for gl_clearvectors: 0, xmm0–15; 1, ymm0–15; 2, zmm0–31. */
int32_t gl_x86VectorRegs;

void cpuinit(void) {
	uint32_t a, b, c, d;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	gl_x86HasPOPCNT = (c >> 23) & 1; /* CPUID.1:ECX.POPCNT[bit 23] */
	if (!((c >> 27) & 1) || !((c >> 28) & 1)) /* OSXSAVE[bit 27] and AVX[bit 28] */
		return;
	uint32_t xcr0, xcr0hi;
	__asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0hi) : "c"(0));
	if ((xcr0 & 0x6) != 0x6) /* the kernel saves xmm and ymm state */
		return;
	gl_x86VectorRegs = 1;
	gl_x86HasFMA = (c >> 12) & 1; /* CPUID.1:ECX.FMA[bit 12] */
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
	if (((b >> 16) & 1) && (xcr0 & 0xe0) == 0xe0) /* AVX512F[EBX bit 16]; opmask, zmm0-15 high, zmm16-31 */
		gl_x86VectorRegs = 2;
}

/* ---- G status ---- */

static const char *const gstatusnames[] = {
	[Gidle] = "idle", [Grunnable] = "runnable", [Grunning] = "running", [Gsyscall] = "syscall",
	[Gwaiting] = "waiting", [Gdead] = "dead", [Gcopystack] = "copystack", [Gpreempted] = "preempted",
};

/* Printed on g0 (systemstack): goready reaches here from chan.c and
 * select.c on the goroutine stack, where printing does not fit the band
 * (testdata/stackusage.py). */
typedef struct badgstatusargs {
	G *gp;
	uint32_t oldval, newval;
} badgstatusargs;

static void badgstatus_m(void *arg) {
	const badgstatusargs *a = arg;
	uint32_t oldval = a->oldval, newval = a->newval, st = readgstatus(a->gp);
	printlock();
	prints("runtime: casgstatus: oldval=");
	prints(oldval < 10 && gstatusnames[oldval] ? gstatusnames[oldval] : "?");
	prints(" newval=");
	prints(newval < 10 && gstatusnames[newval] ? gstatusnames[newval] : "?");
	prints(" status=");
	prints(st < 10 && gstatusnames[st] ? gstatusnames[st] : "?");
	prints(" goid=");
	printint(a->gp->goid);
	prints("\n");
	printunlock();
	gl_throw("casgstatus: bad incoming values");
}

static GL_COLD void badgstatus(G *gp, uint32_t oldval, uint32_t newval) {
	badgstatusargs a = {gp, oldval, newval};
	systemstack(badgstatus_m, &a);
}

/* Go's casgstatus: other threads read a G's status without locks (the
 * stealing, checkdead, the goroutine dump), and goready must not race with
 * the G's own transition into Gwaiting. */
void casgstatus(G *gp, uint32_t oldval, uint32_t newval) {
	if (GL_UNLIKELY(trace_on))
		traceGoStatus(gp, oldval, newval);
	uint32_t o = oldval;
	if (GL_UNLIKELY(!__atomic_compare_exchange_n(&gp->atomicstatus, &o, newval, false, __ATOMIC_ACQ_REL,
						     __ATOMIC_ACQUIRE)))
		badgstatus(gp, oldval, newval);
}

/* The hot transitions — a G parking (Grunning → Gwaiting), being readied
 * (Gwaiting → Grunnable) and run (Grunnable → Grunning) — have exactly one
 * writer each: the G's own M, or the one G that took it off a wait queue
 * under that queue's lock (a select's waker wins selectDone first).  So
 * a plain release store does, checked with a plain load: the locked
 * compare-and-swap of casgstatus is the most expensive line of Go's
 * channel hand-off (seed 000's profile), and gl's hand-off is a third
 * cheaper without it. */
static inline __attribute__((always_inline)) void setgstatusnotrace(G *gp, uint32_t oldval, uint32_t newval) {
	if (GL_UNLIKELY(__atomic_load_n(&gp->atomicstatus, __ATOMIC_RELAXED) != oldval))
		badgstatus(gp, oldval, newval);
	__atomic_store_n(&gp->atomicstatus, newval, __ATOMIC_RELEASE);
}

/* With GLDEBUG=trace, the trace records the change (trace.c) before it
 * is published, as casgstatus does. */
static inline __attribute__((always_inline)) void setgstatus(G *gp, uint32_t oldval, uint32_t newval) {
	if (GL_UNLIKELY(trace_on))
		traceGoStatus(gp, oldval, newval);
	setgstatusnotrace(gp, oldval, newval);
}

/* ---- Gs: allgs and the free lists (Go's gfput/gfget) ---- */

/* gp joins allgs.  The order of the stores is what lock-free readers
 * rely on (rt.h, atomicAllG): a grown array, then the entry, then the
 * length. */
static void allgadd(G *gp) {
	lock(&allglock);
	if (allglen == allgcap) {
		int64_t ncap = allgcap ? 2 * allgcap : 64;
		G **n = persistentalloc((uint64_t)ncap * sizeof(G *)); /* the old array stays valid: readers take no lock */
		if (allglen)
			memcpy(n, allgs, (size_t)allglen * sizeof(G *));
		__atomic_store_n(&allgs, n, __ATOMIC_RELEASE);
		allgcap = ncap;
	}
	allgs[allglen] = gp;
	__atomic_store_n(&allglen, allglen + 1, __ATOMIC_RELEASE);
	unlock(&allglock);
}

/* A dead G goes on its P's free list, keeping its stack if it has the
 * start size (GL_STACK_MIN, or GLDEBUG=adaptivestackstart=1's) for the
 * next newproc, which swaps a stack of another size; beyond 64, half the
 * list moves to the global one. */
static void gfput(P *pp, G *gp) {
	uint64_t keep = gl_debug.adaptivestackstart == 1 ? stackstartsize(0) : GL_STACK_MIN;
	if (gp->stack.hi - gp->stack.lo != keep || gl_debug.stackforcemove) {
		/* a grown stack goes back; stackforcemove poisons every old block.
		 * gp->stack is cleared first: a conservative collector that
		 * reads it meanwhile (boehm.c) must not scan a freed stack */
		GlStack stk = gp->stack;
		gp->stack = (GlStack){0, 0};
		gp->stackguard0 = 0;
		stackfree(stk);
	}
#ifdef GL_GC_BOEHM
	boehmgfput(gp);
#endif
	gp->schedlink = pp->gfree;
	pp->gfree = gp;
	pp->gfreecnt++;
	if (pp->gfreecnt >= 64) {
		G *head = NULL, *tail = NULL;
		int32_t n = 0;
		while (pp->gfreecnt >= 32) {
			G *g1 = pp->gfree;
			pp->gfree = g1->schedlink;
			pp->gfreecnt--;
			g1->schedlink = head;
			head = g1;
			if (tail == NULL)
				tail = g1;
			n++;
		}
		lock(&sched.gFreelock);
		tail->schedlink = sched.gfree;
		sched.gfree = head;
		sched.ngfree += n;
		unlock(&sched.gFreelock);
	}
}

static G *gfget(P *pp) {
	if (pp->gfree == NULL && __atomic_load_n(&sched.gfree, __ATOMIC_RELAXED) != NULL) {
		lock(&sched.gFreelock);
		while (pp->gfreecnt < 32 && sched.gfree != NULL) {
			G *g1 = sched.gfree;
			sched.gfree = g1->schedlink;
			sched.ngfree--;
			g1->schedlink = pp->gfree;
			pp->gfree = g1;
			pp->gfreecnt++;
		}
		unlock(&sched.gFreelock);
	}
	G *gp = pp->gfree;
	if (gp == NULL)
		return NULL;
	pp->gfree = gp->schedlink;
	pp->gfreecnt--;
	gp->schedlink = NULL;
	return gp;
}

/* Move pp's free Gs to the global list (a P being destroyed). */
static void gfpurge(P *pp) {
	lock(&sched.gFreelock);
	while (pp->gfree != NULL) {
		G *gp = pp->gfree;
		pp->gfree = gp->schedlink;
		pp->gfreecnt--;
		gp->schedlink = sched.gfree;
		sched.gfree = gp;
		sched.ngfree++;
	}
	unlock(&sched.gFreelock);
}

/* Free the stacks of dead Gs, which gfget gives a new stack when it
 * reuses them (Go's markrootFreeGStacks, at each collection, for the global
 * list): after a burst of goroutines ends, their stacks need not wait for
 * new goroutines.  gl frees those of the Ps' lists too: one 2 KiB stack
 * left there keeps its whole 32 KiB chunk from going back to the OS.
 * runtime.GC, world stopped. */
static void gfreestackslist(G *list) {
	for (G *gp = list; gp != NULL; gp = gp->schedlink)
		if (gp->stack.hi != 0) {
			GlStack stk = gp->stack; /* cleared first, as gfput's */
			gp->stack = (GlStack){0, 0};
			gp->stackguard0 = 0;
			stackfree(stk);
		}
}

void gfreestacks(void) {
	lock(&sched.gFreelock);
	gfreestackslist(sched.gfree);
	unlock(&sched.gFreelock);
	for (int32_t i = 0; i < gomaxprocs; i++)
		gfreestackslist(allp[i]->gfree);
}

/* The number of live goroutines (runtime.NumGoroutine), the runtime's
 * own (fing) left out. */
int32_t gcount(void) {
	int64_t n = __atomic_load_n(&allglen, __ATOMIC_ACQUIRE) - __atomic_load_n(&sched.ngfree, __ATOMIC_RELAXED) -
		    __atomic_load_n(&sched.ngsys, __ATOMIC_RELAXED);
	int32_t np;
	P **ap = allpsnapshot(&np);
	for (int32_t i = 0; i < np; i++)
		n -= __atomic_load_n(&ap[i]->gfreecnt, __ATOMIC_RELAXED);
	return n < 1 ? 1 : (int32_t)n;
}

/* allp and its length, read without the lock: gomaxprocs first, since
 * procresize publishes a larger array before a larger count and arrays
 * only grow (and are never freed). */
P **allpsnapshot(int32_t *n) {
	*n = __atomic_load_n(&gomaxprocs, __ATOMIC_ACQUIRE);
	return __atomic_load_n(&allp, __ATOMIC_ACQUIRE);
}

/* ---- the global run queue (under sched.lock) ---- */

static void globrunqput(G *gp) {
	assertLockHeld(&sched.lock);
	gp->schedlink = NULL;
	if (sched.runqtail != NULL)
		sched.runqtail->schedlink = gp;
	else
		sched.runqhead = gp;
	sched.runqtail = gp;
	sched.runqsize++;
}

static void globrunqputhead(G *gp) {
	assertLockHeld(&sched.lock);
	gp->schedlink = sched.runqhead;
	sched.runqhead = gp;
	if (sched.runqtail == NULL)
		sched.runqtail = gp;
	sched.runqsize++;
}

/* A batch linked through schedlink, head..tail, n Gs. */
static void globrunqputbatch(G *head, G *tail, int32_t n) {
	assertLockHeld(&sched.lock);
	tail->schedlink = NULL;
	if (sched.runqtail != NULL)
		sched.runqtail->schedlink = head;
	else
		sched.runqhead = head;
	sched.runqtail = tail;
	sched.runqsize += n;
}

static G *globrunqpop(void) {
	assertLockHeld(&sched.lock);
	G *gp = sched.runqhead;
	if (gp != NULL) {
		sched.runqhead = gp->schedlink;
		if (sched.runqhead == NULL)
			sched.runqtail = NULL;
		gp->schedlink = NULL;
	}
	return gp;
}

static void runqput(P *pp, G *gp, bool next);

/* Take a fair share of the global queue into pp's (at most max, if
 * max > 0): one G to run, the rest queued locally.  Go's globrunqget. */
static G *globrunqget(P *pp, int32_t max) {
	assertLockHeld(&sched.lock);
	if (sched.runqsize == 0)
		return NULL;
	int32_t n = sched.runqsize / gomaxprocs + 1;
	if (n > sched.runqsize)
		n = sched.runqsize;
	if (max > 0 && n > max)
		n = max;
	if (n > runqSize / 2)
		n = runqSize / 2;
	sched.runqsize -= n;
	G *gp = globrunqpop();
	while (--n > 0)
		runqput(pp, globrunqpop(), false);
	return gp;
}

/* ---- the local run queues (lock-free, Go's runqput/runqget/runqsteal) ----
 * Only the owner P writes runqtail and the slots; the owner and thieves
 * advance runqhead with a CAS.  runnext is taken with a CAS too. */

static inline bool runqempty(P *pp) {
	/* runnext read between head and tail, as Go does, so a G moving from
	 * runnext to the queue is not missed */
	for (;;) {
		uint32_t head = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
		uint32_t tail = __atomic_load_n(&pp->runqtail, __ATOMIC_ACQUIRE);
		G *runnext = __atomic_load_n(&pp->runnext, __ATOMIC_ACQUIRE);
		if (tail == __atomic_load_n(&pp->runqtail, __ATOMIC_ACQUIRE))
			return head == tail && runnext == NULL;
	}
}

/* The queue is full: move half of it and gp to the global queue.  The
 * CAS claims the slots first, so they can be linked in place (only the
 * owner — this thread — ever writes them). */
static GL_NOINLINE bool runqputslow(P *pp, G *gp, uint32_t h, uint32_t t) {
	uint32_t n = (t - h) / 2;
	if (!__atomic_compare_exchange_n(&pp->runqhead, &h, h + n, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return false;
	G *head = pp->runq[h % runqSize], *prev = head;
	for (uint32_t i = 1; i < n; i++) {
		G *g1 = pp->runq[(h + i) % runqSize];
		prev->schedlink = g1;
		prev = g1;
	}
	prev->schedlink = gp;
	lock(&sched.lock);
	globrunqputbatch(head, gp, (int32_t)n + 1);
	unlock(&sched.lock);
	return true;
}

/* Put gp on pp's queue; next: in runnext, ahead of everything (goready,
 * newproc), the old runnext going to the tail.  Inline everywhere: its
 * call saved registers for runqputslow on every goroutine switch. */
static inline __attribute__((always_inline)) void runqput(P *pp, G *gp, bool next) {
	if (next) {
		/* Thieves only ever take runnext (CAS to NULL), never fill it:
		 * an empty runnext can be filled with a plain store. */
		G *old = __atomic_load_n(&pp->runnext, __ATOMIC_ACQUIRE);
		if (old == NULL) {
			__atomic_store_n(&pp->runnext, gp, __ATOMIC_RELEASE);
			return;
		}
		old = __atomic_exchange_n(&pp->runnext, gp, __ATOMIC_ACQ_REL);
		if (old == NULL)
			return;
		gp = old;
	}
	for (;;) {
		uint32_t h = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
		uint32_t t = pp->runqtail;
		if (t - h < runqSize) {
			pp->runq[t % runqSize] = gp;
			__atomic_store_n(&pp->runqtail, t + 1, __ATOMIC_RELEASE);
			return;
		}
		if (runqputslow(pp, gp, h, t))
			return;
	}
}

/* The next G of pp's queue: runnext first, which inherits the time
 * slice (no schedtick: a ping-pong pair looks like one goroutine). */
static G *runqget(P *pp, bool *inheritTime) {
	G *next = __atomic_load_n(&pp->runnext, __ATOMIC_ACQUIRE);
	if (next != NULL) {
		/* With one P there is no thief (only an M with a P steals, and
		 * GOMAXPROCS changes only with this M stopped): a plain store
		 * takes runnext, saving the hand-off a locked instruction. */
		if (__atomic_load_n(&gomaxprocs, __ATOMIC_RELAXED) == 1) {
			__atomic_store_n(&pp->runnext, NULL, __ATOMIC_RELAXED);
			*inheritTime = true;
			return next;
		}
		if (__atomic_compare_exchange_n(&pp->runnext, &next, NULL, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			*inheritTime = true;
			return next;
		}
	}
	*inheritTime = false;
	for (;;) {
		uint32_t h = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
		uint32_t t = pp->runqtail;
		if (t == h)
			return NULL;
		G *gp = pp->runq[h % runqSize];
		if (__atomic_compare_exchange_n(&pp->runqhead, &h, h + 1, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return gp;
	}
}

/* Copy half of pp's queue into batch (the thief's ring, from batchHead)
 * and claim it.  With stealRunNextG, an otherwise empty pp gives up its
 * runnext — after a 3 µs pause if pp is running, so that the owner, which
 * is probably about to run it (a G that just readied another and is about
 * to block), gets the chance (Go's runqgrab). */
static uint32_t runqgrab(P *pp, G **batch, uint32_t batchHead, bool stealRunNextG) {
	for (;;) {
		uint32_t h = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
		uint32_t t = __atomic_load_n(&pp->runqtail, __ATOMIC_ACQUIRE);
		uint32_t n = t - h;
		n = n - n / 2;
		if (n == 0) {
			if (stealRunNextG) {
				G *next = __atomic_load_n(&pp->runnext, __ATOMIC_ACQUIRE);
				if (next != NULL) {
					if (__atomic_load_n(&pp->status, __ATOMIC_RELAXED) == Prunning &&
					    gl_debug.runnextsleep > 0)
						usleep_((uint32_t)gl_debug.runnextsleep);
					if (!__atomic_compare_exchange_n(&pp->runnext, &next, NULL, false,
									 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
						continue;
					batch[batchHead % runqSize] = next;
					return 1;
				}
			}
			return 0;
		}
		if (n > runqSize / 2) /* inconsistent h and t */
			continue;
		for (uint32_t i = 0; i < n; i++)
			batch[(batchHead + i) % runqSize] = pp->runq[(h + i) % runqSize];
		if (__atomic_compare_exchange_n(&pp->runqhead, &h, h + n, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return n;
	}
}

/* Steal half of p2's queue into pp's; returns one G to run. */
static G *runqsteal(P *pp, P *p2, bool stealRunNextG) {
	uint32_t t = pp->runqtail;
	uint32_t n = runqgrab(p2, pp->runq, t, stealRunNextG);
	if (n == 0)
		return NULL;
	n--;
	G *gp = pp->runq[(t + n) % runqSize];
	if (n == 0)
		return gp;
	uint32_t h = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
	if (t - h + n >= runqSize)
		gl_throw("runqsteal: runq overflow");
	__atomic_store_n(&pp->runqtail, t + n, __ATOMIC_RELEASE);
	return gp;
}

/* ---- Ps ---- */

/* Idle Ps (under sched.lock).
 *
 * The two places that make a running P idle — findRunnable, when its M
 * found nothing to run, and handoffp, when a P's M gives it up (sysmon
 * retakes the P of a goroutine in a long system call; a locked goroutine
 * waits; an M exits) — must agree on when that is allowed, or
 * work is left with no M to run it.  Both, holding sched.lock:
 *   - not while the world is being stopped (sched.gcwaiting): the P goes
 *     to Pgcstop and counts down stopwait instead (handoffp), or the M
 *     stops for it at the top of findRunnable;
 *   - not while the global run queue has a G (the M runs it, or handoffp
 *     starts an M for it);
 *   - not with a G in its own run queue (pidleput throws);
 * and then whoever made the P idle sees to its timers, which stay with it:
 * findRunnable looks at every P's timers after it stopped spinning
 * (checkTimersNoP) and waits in netpoll until the first, handoffp asks
 * the poller to wake for the P's first timer (wakeNetPoller), or keeps
 * the last P running when no M polls.  A G made ready after the check
 * is found by the wakep protocol (findRunnable's spinning M looks at
 * every queue again after it stops spinning).  Change one end, change
 * the other. */
static void pidleput(P *pp) {
	assertLockHeld(&sched.lock);
	if (!runqempty(pp))
		gl_throw("pidleput: P has non-empty run queue");
	pp->link = sched.pidle;
	sched.pidle = pp;
	__atomic_add_fetch(&sched.npidle, 1, __ATOMIC_RELEASE);
}

static P *pidleget(void) {
	assertLockHeld(&sched.lock);
	P *pp = sched.pidle;
	if (pp != NULL) {
		sched.pidle = pp->link;
		__atomic_sub_fetch(&sched.npidle, 1, __ATOMIC_RELEASE);
	}
	return pp;
}

static void acquirep(P *pp) {
	M *mp = getm();
	if (mp->p != NULL)
		gl_throw("wirep: already in go");
	if (pp->m != NULL || __atomic_load_n(&pp->status, __ATOMIC_RELAXED) != Pidle)
		gl_throw("wirep: invalid p state");
	mp->p = pp;
	pp->m = mp;
	__atomic_store_n(&pp->status, Prunning, __ATOMIC_RELEASE);
	if (GL_UNLIKELY(trace_on))
		traceProcStart();
}

static P *releasep(void) {
	M *mp = getm();
	P *pp = mp->p;
	if (pp == NULL || pp->m != mp || __atomic_load_n(&pp->status, __ATOMIC_RELAXED) != Prunning)
		gl_throw("releasep: invalid p state");
	if (GL_UNLIKELY(trace_on))
		traceProcStop();
	mp->p = NULL;
	pp->m = NULL;
	__atomic_store_n(&pp->status, Pidle, __ATOMIC_RELEASE);
	return pp;
}

/* The order a thief visits the Ps in: from a random start, by a random
 * stride coprime with their number (Go's randomOrder), so every P is
 * visited once and thieves do not all start at the same one. */
static uint32_t stealcount;
static uint32_t stealcoprimes[256];
static uint32_t nstealcoprimes;

static uint32_t gcd(uint32_t a, uint32_t b) {
	while (b != 0) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* During a stop-the-world: a thief that still enumerates sees the old
 * count or the new one, and allp has room for both. */
static void stealOrderReset(uint32_t count) {
	uint32_t n = 0;
	for (uint32_t i = 1; i <= count && n < 256; i++)
		if (gcd(i, count) == 1)
			stealcoprimes[n++] = i;
	__atomic_store_n(&nstealcoprimes, n, __ATOMIC_RELEASE);
	__atomic_store_n(&stealcount, count, __ATOMIC_RELEASE);
}

static void pinit(P *pp, int32_t id) {
	pp->id = id;
	pp->status = Pgcstop;
	pp->m = NULL;
	pp->link = NULL;
	lockInit(&pp->timersLock, lockRankTimers);
	mcache_init(&pp->mcache);
}

/* A P that GOMAXPROCS no longer uses: its Gs go to the global queue, its
 * timers to the current P, its free Gs and sudogs to the global lists,
 * its write-barrier buffer to the mark.  The world is stopped; on g0. */
static void pdestroy(P *pp) {
	while (pp->runqhead != pp->runqtail) {
		pp->runqtail--;
		globrunqputhead(pp->runq[pp->runqtail % runqSize]);
	}
	if (pp->runnext != NULL) {
		globrunqputhead(pp->runnext);
		pp->runnext = NULL;
	}
	if (pp->ntimers > 0)
		moveTimers(getm()->p, pp);
	/* what its write barriers queued must still be shaded: a mark may be
	 * under way (Go's p.destroy flushes its wbBuf too); mark termination
	 * flushes only the Ps in use */
	wbBufFlush(pp);
	sudogcache_flush(pp);
	gfpurge(pp);
	stackcache_clear(pp);
	mcache_releaseAll(&pp->mcache); /* Go's freemcache */
	__atomic_store_n(&pp->status, Pdead, __ATOMIC_RELEASE);
}

/* Change the number of Ps to nprocs (Go's procresize).  The world is
 * stopped, or this is start-up.  Returns the Ps that have work, linked
 * through link; the others are idle. */
static P *procresize(int32_t nprocs) {
	int32_t old = gomaxprocs;
	if (nprocs > allpcap) {
		int32_t ncap = nprocs;
		P **n = persistentalloc((uint64_t)ncap * sizeof(P *));
		if (allpcap)
			memcpy(n, allp, (size_t)allpcap * sizeof(P *));
		__atomic_store_n(&allp, n, __ATOMIC_RELEASE);
		allpcap = ncap;
	}
	for (int32_t i = old; i < nprocs; i++) {
		if (allp[i] == NULL) {
			allp[i] = persistentalloc(sizeof(P));
			persistentStat(sizeof(mcache), &memstats.mcache_sys); /* its mcache: MCacheSys */
		}
		pinit(allp[i], i);
	}
	M *mp = getm();
	if (mp->p != NULL && mp->p->id < nprocs) {
		__atomic_store_n(&mp->p->status, Prunning, __ATOMIC_RELEASE); /* keep it */
	} else {
		if (mp->p != NULL)
			mp->p->m = NULL;
		mp->p = NULL;
		allp[0]->m = NULL;
		allp[0]->status = Pidle;
		acquirep(allp[0]);
	}
	for (int32_t i = nprocs; i < old; i++)
		pdestroy(allp[i]);
	P *runnablePs = NULL;
	for (int32_t i = nprocs - 1; i >= 0; i--) {
		P *pp = allp[i];
		if (mp->p == pp)
			continue;
		pp->status = Pidle;
		if (runqempty(pp)) {
			pidleput(pp);
		} else {
			pp->link = runnablePs;
			runnablePs = pp;
		}
	}
	stealOrderReset((uint32_t)nprocs);
	__atomic_store_n(&gomaxprocs, nprocs, __ATOMIC_RELEASE);
	return runnablePs;
}

/* ---- Ms ---- */

static void mcommoninit(M *mp) {
	mp->fastrand = randomseed();
	if (mp->fastrand == 0)
		mp->fastrand = 0x49f6428a;
}

static int32_t mcount(void) {
	return (int32_t)(sched.mnext - sched.nmfreed);
}

static void threadexhaustion(void *arg) {
	(void)arg;
	printlock();
	prints("runtime: program exceeds ");
	printint(sched.maxmcount);
	prints("-thread limit\n");
	printunlock();
	gl_throw("thread exhaustion");
}

/* The id of the next M (under sched.lock, so that checkdead counts it
 * from now on).  goready can get here on a goroutine stack (wakep,
 * startm): the error report runs on g0. */
static int64_t mReserveID(void) {
	assertLockHeld(&sched.lock);
	int64_t id = sched.mnext++;
	checkmcount();
	return id;
}

/* Go's checkmcount: more threads than debug.SetMaxThreads allows is
 * fatal (Go does not throttle: the limit catches runaway thread
 * creation, such as goroutines piling up in blocking system calls).
 * Under sched.lock. */
void checkmcount(void) {
	if (GL_UNLIKELY(mcount() > sched.maxmcount))
		systemstack(threadexhaustion, NULL);
}

/* Idle Ms (under sched.lock). */
static void mput(M *mp) {
	assertLockHeld(&sched.lock);
	mp->schedlink = sched.midle;
	sched.midle = mp;
	sched.nmidle++;
	checkdead();
}

static M *mget(void) {
	assertLockHeld(&sched.lock);
	M *mp = sched.midle;
	if (mp != NULL) {
		sched.midle = mp->schedlink;
		sched.nmidle--;
	}
	return mp;
}

/* Sleep until startm or startlockedm hands this M a P. */
static void mPark(void) {
	M *mp = getm();
#ifdef GL_GC_BOEHM
	gl_clearvectors(gl_x86VectorRegs); /* no stale pointer in a sleeper's registers (asm_amd64.S) */
#endif
	mp->blocked = true;
	notesleep(&mp->park);
	noteclear(&mp->park);
	mp->blocked = false;
}

static void mstart1(void);

/* gl_mstart, called so that it can return (gl_mexit makes it). */
extern void gl_mstart_returning(void (*fn)(void)) __asm__("gl_mstart");

/* The thread of an M other than m0.  Its g0 runs on the thread's own
 * stack; the scheduler loop starts in gl_mstart and ends (mexit) by
 * returning from it here. */
static void *mstart_thread(void *arg) {
	M *mp = arg;
	setg(mp->g0);
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		pthread_attr_getstack(&attr, &addr, &size);
		pthread_attr_destroy(&attr);
	}
	/* attr keeps the stack's upper end, which is also where the next
	 * mapping up begins — on Boehm, often a heap block, kept alive by
	 * this frame when Boehm scans this thread: see boehmminit */
	explicit_bzero(&attr, sizeof attr);
	G *g0p = mp->g0;
	g0p->stack.hi = (uintptr_t)__builtin_frame_address(0) + 256;
	g0p->stack.lo = (uintptr_t)addr + 16 * 1024;
	g0p->stackguard0 = g0p->stack.lo + GL_STACK_GUARD;
	mp->procid = (int64_t)gettid();
	minitSignalStack(mp);
#ifdef GL_GC_BOEHM
	boehmminit(mp, __builtin_frame_address(0));
#endif
	sigset_t none;
	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	gl_mstart_returning(mstart1);
	/* mexit: the M is done */
#ifdef GL_GC_BOEHM
	boehmmexit();
#endif
	unminitSignalStack(mp);
	return NULL;
}

/* Create the thread of mp (Go's newosproc).  Signals stay blocked until
 * the thread has its signal stack. */
static void newosproc(M *mp) {
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, g0StackSize);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t th;
	int err = pthread_create(&th, &attr, mstart_thread, mp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		printlock();
		prints("runtime: failed to create new OS thread (have ");
		printint(mcount());
		prints(" already; errno=");
		printint(err);
		prints(")\n");
		printunlock();
		gl_throw("newosproc");
	}
}

typedef struct newmArgs {
	void (*fn)(void);
	P *pp;
	int64_t id;
} newmArgs;

static void newm_m(void *arg) {
	newmArgs *a = arg;
	M *mp = persistentalloc(sizeof(M));
	mp->id = a->id;
	mp->mstartfn = a->fn;
	mp->nextp = a->pp;
	mcommoninit(mp);
	G *g0p = persistentalloc(sizeof(G));
	g0p->m = mp;
	g0p->atomicstatus = Grunning;
	mp->g0 = g0p;
	lock(&sched.lock);
	mp->alllink = m0.alllink; /* m0 stays first: readmemstats walks from it */
	__atomic_store_n(&m0.alllink, mp, __ATOMIC_RELEASE);
	unlock(&sched.lock);
	newosproc(mp);
}

/* A new M that will run fn (if any), then schedule with pp (Go's newm).
 * pthread_create needs g0's stack. */
static void newm(void (*fn)(void), P *pp, int64_t id) {
	newmArgs a = {fn, pp, id};
	systemstack(newm_m, &a);
}

/* The first thing a spinning M started by startm does. */
static void mspinning(void) {
	getm()->spinning = true;
}

/* Run pp (an idle P if NULL) on an idle M, or a new one.  spinning: the
 * caller incremented nmspinning and the M starts out looking for work.
 * With no idle P there is nothing to do. */
void startm(P *pp, bool spinning) {
	lock(&sched.lock);
	if (pp == NULL) {
		pp = pidleget();
		if (pp == NULL) {
			unlock(&sched.lock);
			if (spinning && __atomic_sub_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL) < 0)
				gl_throw("startm: negative nmspinning");
			return;
		}
	}
	M *nmp = mget();
	if (nmp == NULL) {
		int64_t id = mReserveID();
		unlock(&sched.lock);
		newm(spinning ? mspinning : NULL, pp, id);
		return;
	}
	unlock(&sched.lock);
	if (nmp->spinning)
		gl_throw("startm: m is spinning");
	if (nmp->nextp != NULL)
		gl_throw("startm: m has p");
	if (spinning && !runqempty(pp))
		gl_throw("startm: p has runnable gs");
	nmp->spinning = spinning;
	nmp->nextp = pp;
	notewakeup(&nmp->park);
}

/* Stop this M until it is given a P to run (Go's stopm). */
static void stopm(void) {
	M *mp = getm();
	if (mp->locks != 0)
		gl_throw("stopm holding locks");
	if (mp->p != NULL)
		gl_throw("stopm holding p");
	if (mp->spinning)
		gl_throw("stopm spinning");
	lock(&sched.lock);
	mput(mp);
	unlock(&sched.lock);
	mPark();
	acquirep(mp->nextp);
	mp->nextp = NULL;
}

/* Give pp, which this M no longer runs, to another M if it has work, or
 * make it idle (Go's handoffp) — by the rule findRunnable keeps too
 * (written at pidleput). */
static void handoffp(P *pp) {
	checkSafePointFn(pp); /* whoever hands pp off owns it: a forEachP may wait for it */
	if (!runqempty(pp) || __atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) != 0) {
		startm(pp, false);
		return;
	}
	/* no local work: look for some only if nobody else does */
	int32_t zero = 0;
	if (__atomic_load_n(&sched.nmspinning, __ATOMIC_ACQUIRE) + __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) == 0 &&
	    __atomic_compare_exchange_n(&sched.nmspinning, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		startm(pp, true);
		return;
	}
	lock(&sched.lock);
	if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&pp->status, Pgcstop, __ATOMIC_RELEASE);
		if (--sched.stopwait == 0)
			notewakeup(&sched.stopnote);
		unlock(&sched.lock);
		return;
	}
	if (sched.runqsize != 0) {
		unlock(&sched.lock);
		startm(pp, false);
		return;
	}
	/* the last running P, and nobody waits for timers: an M must, so
	 * that they fire (and so that checkdead runs when nothing can) */
	if (__atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) == gomaxprocs - 1 &&
	    __atomic_load_n(&sched.lastpoll, __ATOMIC_ACQUIRE) != 0) {
		unlock(&sched.lock);
		startm(pp, false);
		return;
	}
	/* pp's timers stay with it while it is idle: make sure an M wakes
	 * for the first (sysmon's retake makes Ps of goroutines in system
	 * calls idle this way, timers and all) */
	int64_t when = __atomic_load_n(&pp->timer0When, __ATOMIC_ACQUIRE);
	pidleput(pp);
	unlock(&sched.lock);
	if (when != 0)
		wakeNetPoller(when);
}

/* Take pp from the goroutine in a system call that left it (Psyscall →
 * Pidle, one CAS: exitsyscallfast may take it back first) and hand it
 * off; 1 if taken.  For sysmon's retake and forEachP.  One more M counts
 * as running while the P changes hands: the M in the call may return,
 * find no P and stop (mput → checkdead) before handoffp has started the
 * M that runs this one. */
static uint32_t takesyscallp(P *pp) {
	incidlelocked(-1);
	uint32_t s = Psyscall, n = 0;
	if (__atomic_compare_exchange_n(&pp->status, &s, Pidle, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		pp->syscalltick++;
		handoffp(pp);
		n = 1;
	}
	incidlelocked(1);
	return n;
}

/* Someone must wake at when for a timer (Go's wakeNetPoller): the M
 * blocked in netpoll, if it would sleep past it, else a spinning M, which
 * looks at every P's timers before it sleeps.  For a timer added earlier
 * than the poller waits for (time.c), and an idle P's timers (handoffp). */
void wakeNetPoller(int64_t when) {
	if (__atomic_load_n(&sched.lastpoll, __ATOMIC_ACQUIRE) == 0) {
		int64_t pollerPollUntil = __atomic_load_n(&sched.pollUntil, __ATOMIC_ACQUIRE);
		if (pollerPollUntil == 0 || pollerPollUntil > when)
			netpollBreak();
	} else {
		wakep();
	}
}

/* Try to get another P running, if there is an idle one and nobody is
 * already looking for work (Go's wakep).  On the hot path of goready,
 * this is two loads. */
void wakep(void) {
	if (__atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) == 0)
		return;
	int32_t zero = 0;
	if (__atomic_load_n(&sched.nmspinning, __ATOMIC_ACQUIRE) != 0 ||
	    !__atomic_compare_exchange_n(&sched.nmspinning, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	startm(NULL, true);
}

/* This M found work: it is no longer spinning; if it was the last one,
 * another should look (work may come in bursts). */
static void resetspinning(void) {
	M *mp = getm();
	if (!mp->spinning)
		gl_throw("resetspinning: not a spinning m");
	mp->spinning = false;
	if (__atomic_sub_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL) < 0)
		gl_throw("findrunnable: negative nmspinning");
	wakep();
}

/* Make the Gs of list (linked through schedlink, Gwaiting: the
 * netpoller's) runnable (Go's injectglist): with no P, all on the global
 * queue and an M started for each idle P, up to their number; with a P,
 * as many on the global queue as there are idle Ps to run them (with an M
 * each), the rest on this P's queue. */
void injectglist(G *list, uint8_t why) {
	if (list == NULL)
		return;
	int32_t n = 0;
	G *tail = NULL;
	for (G *gp = list; gp != NULL; gp = gp->schedlink) {
		getm()->tracewhy = why; /* what the trace says readied it */
		casgstatus(gp, Gwaiting, Grunnable);
		tail = gp;
		n++;
	}
	P *pp = getm()->p;
	if (pp == NULL) {
		lock(&sched.lock);
		globrunqputbatch(list, tail, n);
		unlock(&sched.lock);
		for (; n > 0 && __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0; n--)
			startm(NULL, false);
		return;
	}
	int32_t npidle = __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE);
	if (npidle > 0) {
		G *head = list, *last = list;
		int32_t k = 1;
		while (k < npidle && last->schedlink != NULL) {
			last = last->schedlink;
			k++;
		}
		list = last->schedlink;
		lock(&sched.lock);
		globrunqputbatch(head, last, k);
		unlock(&sched.lock);
		for (int32_t i = 0; i < k && __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0; i++)
			startm(NULL, false);
	}
	while (list != NULL) {
		G *gp = list;
		list = gp->schedlink;
		runqput(pp, gp, false);
	}
}

/* The first G of list (the netpoller's), runnable, to run now; the rest
 * injected. */
static G *netpollpick(G *list) {
	G *gp = list;
	injectglist(gp->schedlink, traceWhyNetpoll);
	gp->schedlink = NULL;
	getm()->tracewhy = traceWhyNetpoll;
	casgstatus(gp, Gwaiting, Grunnable);
	return gp;
}

/* The last goroutine waiting in the netpoller was taken out (by
 * netpollunblock: an event, or a close).  An M blocked in netpoll with no
 * deadline now waits for nothing, and counts as running: if every
 * goroutine then blocks elsewhere, checkdead would never run and the
 * program would hang instead of reporting the deadlock.  That happens when
 * another M's netpoll(0) (findRunnable's look, sysmon's) took the event the
 * blocked poller was waiting for: wake the poller, so that it looks again
 * and stops like any idle M.  findRunnable's poller checks the count again
 * after it takes lastpoll: with the decrement before the load here, both
 * sequentially consistent, one of the two sees the other. */
void netpollLastWaiter(void) {
	if (__atomic_load_n(&sched.lastpoll, __ATOMIC_SEQ_CST) == 0 &&
	    __atomic_load_n(&sched.pollUntil, __ATOMIC_ACQUIRE) == 0)
		netpollBreak();
}

static void incidlelocked(int32_t v) {
	lock(&sched.lock);
	sched.nmidlelocked += v;
	if (v > 0)
		checkdead();
	unlock(&sched.lock);
}

/* This M's locked goroutine blocked: give the P away and sleep until the
 * goroutine is runnable again (Go's stoplockedm). */
static void stoplockedm(void) {
	M *mp = getm();
	if (mp->lockedg == NULL || mp->lockedg->lockedm != mp)
		gl_throw("stoplockedm: inconsistent locking");
	if (mp->p != NULL)
		handoffp(releasep());
	incidlelocked(1);
	mPark();
	if (readgstatus(mp->lockedg) != Grunnable)
		gl_throw("stoplockedm: not runnable");
	acquirep(mp->nextp);
	mp->nextp = NULL;
}

/* gp is locked to another M: hand it our P and stop (Go's startlockedm). */
static void startlockedm(G *gp) {
	M *mp = gp->lockedm;
	if (mp == getm())
		gl_throw("startlockedm: locked to me");
	if (mp->nextp != NULL)
		gl_throw("startlockedm: m has p");
	incidlelocked(-1);
	P *pp = releasep();
	mp->nextp = pp;
	notewakeup(&mp->park);
	stopm();
}

/* Stop for the stop-the-world (Go's gcstopm). */
static void gcstopm(void) {
	M *mp = getm();
	if (!__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE))
		gl_throw("gcstopm: not waiting for gc");
	if (mp->spinning) {
		mp->spinning = false;
		if (__atomic_sub_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL) < 0)
			gl_throw("gcstopm: negative nmspinning");
	}
	P *pp = releasep();
	lock(&sched.lock);
	__atomic_store_n(&pp->status, Pgcstop, __ATOMIC_RELEASE);
	if (--sched.stopwait == 0)
		notewakeup(&sched.stopnote);
	unlock(&sched.lock);
	stopm();
}

/* The M's thread ends (a goroutine exited while locked to it). */
static void mexit(void) {
	M *mp = getm();
	handoffp(releasep());
	lock(&sched.lock);
	sched.nmfreed++;
	mp->dead = true;
	checkdead();
	unlock(&sched.lock);
	if (mp == &m0) {
		/* the main thread: the process lives on in the others; wedge it */
		mPark();
		gl_throw("locked m0 woke up");
	}
	gl_mexit(mp->g0);
}

/* ---- deadlock detection (Go's checkdead, under sched.lock) ----
 * When the last M goes idle with no M waiting for timers, nothing can
 * ever run again. */
static void checkdead(void) {
	assertLockHeld(&sched.lock);
	int32_t run = mcount() - sched.nmidle - sched.nmidlelocked - sched.nmsys;
	if (run > 0)
		return;
	if (run < 0) {
		printlock();
		prints("runtime: checkdead: nmidle=");
		printint(sched.nmidle);
		prints(" nmidlelocked=");
		printint(sched.nmidlelocked);
		prints(" mcount=");
		printint(mcount());
		prints(" nmsys=");
		printint(sched.nmsys);
		prints("\n");
		printunlock();
		gl_throw("checkdead: inconsistent counts");
	}
	int64_t grunning = 0, n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		uint32_t s = readgstatus(gp);
		if (isSystemGoroutine(gp))
			continue; /* fing waiting for finalizers cannot end a deadlock */
		if (s == Gwaiting || s == Gpreempted) {
			grunning++;
		} else if (s == Grunnable || s == Grunning || s == Gsyscall) {
			printlock();
			prints("runtime: checkdead: find g ");
			printint(gp->goid);
			prints(" in status ");
			printint(s);
			prints("\n");
			printunlock();
			gl_throw("checkdead: runnable g");
		}
	}
	if (grunning == 0) /* possible if main goroutine calls runtime.Goexit */
		gl_fatal("no goroutines (main called runtime.Goexit) - deadlock!");
	/* no goroutine is running, so the Ps' timers can be looked at: one
	 * will fire and make something runnable */
	for (int32_t i = 0; i < gomaxprocs; i++)
		if (__atomic_load_n(&allp[i]->ntimers, __ATOMIC_ACQUIRE) > 0)
			return;
	gl_fatal("all goroutines are asleep - deadlock!");
}

/* ---- scheduling ---- */

static void dropg(M *mp) {
	if (mp->curg != NULL) {
		mp->curg->m = NULL;
		mp->curg = NULL;
	}
}

/* Run gp on this M; never returns.  On g0.  inheritTime: gp was runnext
 * and shares the time slice of the G that readied it. */
static GL_NORETURN void execute(G *gp, bool inheritTime) {
	M *mp = getm();
	mp->curg = gp;
	gp->m = mp;
	setgstatus(gp, Grunnable, Grunning);
	gp->waitsince = 0;
	gp->preempt = false;
	gp->stackguard0 = stackguard(gp);
	if (!inheritTime)
		mp->p->schedtick++;
	/* A suspendG caller may own gp (preempt.c): it must not run until
	 * released.  Read after Grunning is published; the claimant's
	 * membarrier orders the two sides (or this fence, without it). */
	if (GL_UNLIKELY(suspendfence))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (GL_UNLIKELY(__atomic_load_n(&gp->suspendclaim, __ATOMIC_RELAXED)))
		suspendwaitexecute(gp);
	setg(gp);
	gogo(&gp->sched);
}

/* Any P (other than the ones idle) with a non-empty queue: get an idle P
 * to run it (Go's checkRunqsNoP). */
static P *checkRunqsNoP(P **snap, int32_t n) {
	for (int32_t i = 0; i < n; i++) {
		P *p2 = snap[i];
		if (__atomic_load_n(&p2->status, __ATOMIC_ACQUIRE) != Pidle && !runqempty(p2)) {
			lock(&sched.lock);
			P *pp = pidleget();
			unlock(&sched.lock);
			return pp;
		}
	}
	return NULL;
}

/* The earliest timer of all Ps, or pollUntil if earlier. */
static int64_t checkTimersNoP(P **snap, int32_t n, int64_t pollUntil) {
	for (int32_t i = 0; i < n; i++) {
		int64_t w = __atomic_load_n(&snap[i]->timer0When, __ATOMIC_ACQUIRE);
		if (w != 0 && (pollUntil == 0 || w < pollUntil))
			pollUntil = w;
	}
	return pollUntil;
}

/* Look for work in other Ps: their queues and, in the last round, their
 * expired timers and runnext (Go's stealWork). */
static G *stealWork(int64_t *now, int64_t *pollUntil, bool *inheritTime, bool *newWork) {
	P *pp = getm()->p;
	bool ranTimer = false;
	enum { stealTries = 4 };
	*inheritTime = false;
	*newWork = false;
	for (int i = 0; i < stealTries; i++) {
		bool stealTimersOrRunNextG = i == stealTries - 1;
		uint32_t count = __atomic_load_n(&stealcount, __ATOMIC_ACQUIRE), pos = fastrandn(count);
		uint32_t inc = stealcoprimes[fastrandn(__atomic_load_n(&nstealcoprimes, __ATOMIC_ACQUIRE))];
		for (uint32_t k = 0; k < count; k++, pos = (pos + inc) % count) {
			if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE)) {
				*newWork = true; /* the world stops: go and do it */
				return NULL;
			}
			P *p2 = __atomic_load_n(&allp, __ATOMIC_ACQUIRE)[pos];
			if (p2 == pp)
				continue;
			if (stealTimersOrRunNextG && __atomic_load_n(&p2->timer0When, __ATOMIC_ACQUIRE) != 0) {
				int64_t w = 0;
				bool ran = false;
				*now = checkTimers(p2, *now, &w, &ran);
				if (w != 0 && (*pollUntil == 0 || w < *pollUntil))
					*pollUntil = w;
				if (ran) {
					/* the timers may have readied Gs into our queue */
					G *gp = runqget(pp, inheritTime);
					if (gp != NULL)
						return gp;
					ranTimer = true;
				}
			}
			if (__atomic_load_n(&p2->status, __ATOMIC_ACQUIRE) != Pidle) {
				G *gp = runqsteal(pp, p2, stealTimersOrRunNextG);
				if (gp != NULL)
					return gp;
			}
		}
	}
	*newWork = ranTimer;
	return NULL;
}

/* Find a goroutine to run; blocks (stopm, netpoll) until there is one.
 * Go's findRunnable, without the GC and trace work. */
/* findRunnable's commonest answer, inline in schedule: the head of this
 * P's queue, when none of findRunnable's earlier steps has anything to
 * do — no stop-the-world, no safe-point function, no timer, the global
 * queue not due for its look (or empty), the collector not marking.  NULL
 * sends schedule to findRunnable, which takes every step. */
static inline G *findRunnableLocal(P *pp, bool *inheritTime) {
	if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&pp->runSafePointFn, __ATOMIC_RELAXED) != 0 ||
	    __atomic_load_n(&pp->timer0When, __ATOMIC_RELAXED) != 0 ||
	    __atomic_load_n(&gcBlackenEnabled, __ATOMIC_RELAXED) ||
	    (pp->schedtick % 61 == 0 && __atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) > 0))
		return NULL;
	return runqget(pp, inheritTime);
}

static G *findRunnable(bool *inheritTime) {
	M *mp = getm();
top:;
	P *pp = mp->p;
	if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE)) {
		gcstopm();
		goto top;
	}
	checkSafePointFn(pp);
	int64_t pollUntil = 0;
	bool ran;
	int64_t now = checkTimers(pp, 0, &pollUntil, &ran);

	/* the global queue once in a while, so that two goroutines readying
	 * each other through runnext cannot starve it */
	G *gp;
	if (pp->schedtick % 61 == 0 && __atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) > 0) {
		lock(&sched.lock);
		gp = globrunqget(pp, 1);
		unlock(&sched.lock);
		if (gp != NULL) {
			*inheritTime = false;
			return gp;
		}
	}
	/* The collector's mark worker, if its share of the CPU is due: after
	 * a goroutine just readied here (runnext), before the rest of the
	 * queue (Go's findRunnableGCWorker comes first of all; gl's worker
	 * leaves its P to a runnext goroutine too, mgc.c's bgworkerYield) */
	if (GL_UNLIKELY(__atomic_load_n(&gcBlackenEnabled, __ATOMIC_RELAXED)) &&
	    __atomic_load_n(&pp->runnext, __ATOMIC_ACQUIRE) == NULL) {
		gp = gcFindRunnableWorker(false);
		if (gp != NULL) {
			*inheritTime = false;
			return gp;
		}
	}
	gp = runqget(pp, inheritTime);
	if (gp != NULL)
		return gp;
	if (__atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) != 0) {
		lock(&sched.lock);
		gp = globrunqget(pp, 0);
		unlock(&sched.lock);
		if (gp != NULL) {
			*inheritTime = false;
			return gp;
		}
	}
	/* The poller, without blocking, if goroutines wait in it and no M
	 * is blocked in it already (it would have got the events): a cheap
	 * look before stealing (Go's "netpoll is an optimization before
	 * stealing"). */
	if (netpollAnyWaiters() && __atomic_load_n(&sched.lastpoll, __ATOMIC_ACQUIRE) != 0) {
		G *list = netpoll(0);
		if (list != NULL) {
			*inheritTime = false;
			return netpollpick(list);
		}
	}

	/* Steal, unless half the busy Ps already have a thief: spinning Ms
	 * burn CPU. */
	int32_t procs = __atomic_load_n(&gomaxprocs, __ATOMIC_ACQUIRE);
	if (mp->spinning || 2 * __atomic_load_n(&sched.nmspinning, __ATOMIC_ACQUIRE) <
				    procs - __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE)) {
		if (!mp->spinning) {
			mp->spinning = true;
			__atomic_add_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL);
		}
		bool newWork;
		gp = stealWork(&now, &pollUntil, inheritTime, &newWork);
		if (gp != NULL)
			return gp;
		if (newWork)
			goto top;
	}

	/* Nothing to run: mark, if a mark is under way (Go's idle worker) */
	gp = GL_UNLIKELY(__atomic_load_n(&gcBlackenEnabled, __ATOMIC_RELAXED)) ? gcFindRunnableWorker(true) : NULL;
	if (gp != NULL) {
		*inheritTime = false;
		return gp;
	}

	/* Nothing: give up the P, by the rule handoffp keeps too (written at
	 * pidleput).  The snapshot is for the checks below, made without a P
	 * (allp can grow meanwhile; old arrays stay). */
	int32_t nsnap;
	P **snap = allpsnapshot(&nsnap);
	lock(&sched.lock);
	if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&pp->runSafePointFn, __ATOMIC_ACQUIRE) != 0) {
		unlock(&sched.lock); /* forEachP sets the flag under the lock */
		goto top;
	}
	if (sched.runqsize != 0) {
		gp = globrunqget(pp, 0);
		unlock(&sched.lock);
		*inheritTime = false;
		return gp;
	}
	if (releasep() != pp)
		gl_throw("findrunnable: wrong p");
	pidleput(pp);
	unlock(&sched.lock);

	/* A spinning M that stops spinning must look again at every queue
	 * after nmspinning went down: a G readied meanwhile saw a spinner and
	 * did not wake anyone (the other half of wakep's protocol). */
	bool wasSpinning = mp->spinning;
	if (mp->spinning) {
		mp->spinning = false;
		if (__atomic_sub_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL) < 0)
			gl_throw("findrunnable: negative nmspinning");
		pp = checkRunqsNoP(snap, nsnap);
		if (pp != NULL) {
			acquirep(pp);
			mp->spinning = true;
			__atomic_add_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL);
			goto top;
		}
		pollUntil = checkTimersNoP(snap, nsnap, pollUntil);
	}

	/* Wait in the poller, for I/O or until the next timer, if no other
	 * M does.  An M blocked here is not idle: checkdead does not call a
	 * program deadlocked while goroutines wait for I/O. */
	int64_t one = __atomic_load_n(&sched.lastpoll, __ATOMIC_ACQUIRE);
	if (netpollinited() && (pollUntil != 0 || netpollAnyWaiters()) && one != 0 &&
	    __atomic_exchange_n(&sched.lastpoll, 0, __ATOMIC_SEQ_CST) != 0) {
		if (pollUntil == 0 && !netpollAnyWaiters()) {
			/* the last waiter was taken out between the look above
			 * and the exchange, by an M that saw lastpoll != 0 and
			 * so woke nobody (netpollLastWaiter): nothing to wait for */
			__atomic_store_n(&sched.lastpoll, nanotime(), __ATOMIC_RELEASE);
			stopm();
			goto top;
		}
		__atomic_store_n(&sched.pollUntil, pollUntil, __ATOMIC_RELEASE);
		int64_t delay = -1;
		if (pollUntil != 0) {
			now = nanotime();
			delay = pollUntil - now;
			if (delay < 0)
				delay = 0;
		}
#ifdef GL_GC_BOEHM
		if (delay != 0)
			gl_clearvectors(gl_x86VectorRegs); /* as mPark: it may sleep long */
#endif
		G *list = netpoll(delay);
		now = nanotime();
		__atomic_store_n(&sched.pollUntil, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&sched.lastpoll, now, __ATOMIC_RELEASE);
		lock(&sched.lock);
		pp = pidleget();
		unlock(&sched.lock);
		if (pp == NULL) {
			injectglist(list, traceWhyNetpoll); /* the global queue, and Ms for idle Ps */
		} else {
			acquirep(pp);
			if (wasSpinning) {
				mp->spinning = true;
				__atomic_add_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL);
			}
			if (list != NULL) {
				*inheritTime = false;
				return netpollpick(list);
			}
			goto top;
		}
	} else if (pollUntil != 0 && netpollinited()) {
		int64_t pollerPollUntil = __atomic_load_n(&sched.pollUntil, __ATOMIC_ACQUIRE);
		if (pollerPollUntil == 0 || pollerPollUntil > pollUntil)
			netpollBreak();
	}
	stopm();
	goto top;
}

/* One round of the scheduler: find a goroutine and run it.  On g0. */
void schedule(void) {
	M *mp = getm();
	if (mp->locks != 0)
		gl_throw("schedule: holding locks");
	if (mp->lockedg != NULL) {
		stoplockedm();
		execute(mp->lockedg, false);
	}
top:;
	P *pp = mp->p;
	pp->preempt = false;
	if (mp->spinning && (pp->runnext != NULL || pp->runqhead != pp->runqtail))
		gl_throw("schedule: spinning with local work");
	bool inheritTime = false;
	G *gp = findRunnableLocal(pp, &inheritTime);
	if (gp == NULL)
		gp = findRunnable(&inheritTime);
	if (mp->spinning)
		resetspinning();
	if (gp->lockedm != NULL) {
		/* hand our P to the M gp is locked to, and wait for a new one */
		startlockedm(gp);
		goto top;
	}
	execute(gp, inheritTime);
}

static void mstart1(void) {
	M *mp = getm();
	mp->g0base = mp->g0->sched.sp;
	if (mp->mstartfn != NULL)
		mp->mstartfn();
	if (mp != &m0) {
		acquirep(mp->nextp);
		mp->nextp = NULL;
	}
	schedule();
}

/* Under stackforcemove, a goroutine's stack also moves whenever it parks
 * (as the collector's shrinking will move parked stacks): every address
 * into the stack that runtime C keeps across gopark must be an offset or
 * a sudog.elem.  Done before the status says Gwaiting, so no one can
 * ready the G while its stack is in flight. */
static void parkforcemove(G *gp) {
	casgstatus(gp, Grunning, Gcopystack);
	copystack(gp, gp->stack.hi - gp->stack.lo);
	casgstatus(gp, Gcopystack, Grunning);
}

/* gopark's second half, on g0: unlockf(gp, lock) runs once gp is
 * switched out (so a G that readies it cannot run it too early); if it
 * returns false gp resumes at once. */
void park_m(G *gp) {
	M *mp = getm();
	/* not below runtime C frames that stopped at a request (a parked
	 * assist: runtimeCSafePoint): gcc may address their locals through
	 * saved registers (isShrinkStackSafe) */
	if (GL_UNLIKELY(gl_debug.stackforcemove) && !gp->runtimeCSafePoint)
		parkforcemove(gp);
	setgstatus(gp, Grunning, Gwaiting);
	dropg(mp);
	bool (*fn)(G *, void *) = mp->waitunlockf;
	if (fn != NULL) {
		void *l = mp->waitlock;
		mp->waitunlockf = NULL;
		mp->waitlock = NULL;
		if (!fn(gp, l)) {
			setgstatus(gp, Gwaiting, Grunnable);
			execute(gp, true);
		}
	}
	schedule();
}

/* Park the current goroutine (Go's gopark).  Never enters the kernel.
 * The caller resumes, perhaps on another M, after goready: nothing here
 * may use what it read from TLS before (S9). */
void gopark(bool (*unlockf)(G *, void *), void *lock, uint32_t reason) {
	G *gp = getg();
	M *mp = gp->m;
	if (GL_UNLIKELY(readgstatus(gp) != Grunning))
		gl_throw("gopark: bad g status");
	gp->waitreason = reason;
	gp->waitsince = 1;
	mp->waitunlockf = unlockf;
	mp->waitlock = lock;
	mcall(park_m);
}

static bool parkunlock_c(G *gp, void *l) {
	(void)gp;
	unlock(l);
	return true;
}

/* Park, releasing l once parked. */
void goparkunlock(mutex *l, uint32_t reason) {
	gopark(parkunlock_c, l, reason);
}

static void ready_m(void *arg) {
	G *gp = arg;
	setgstatus(gp, Gwaiting, Grunnable);
	runqput(getm()->p, gp, true);
	wakep();
}

/* Make gp runnable, next in line on this P, and wake an idle P if there
 * is one and nobody is looking for work (Go's ready).  Callable from a
 * goroutine stack: the rare startm of a new thread switches to g0.  With
 * the trace on, all of it runs on g0: the trace's call in setgstatus
 * would cost this frame a register kept across it, and goready sits at
 * the bottom of the deepest runtime path on a goroutine stack (selectgo >
 * chan_recv > goready > wakep > startm > lock: testdata/stackusage.py). */
void goready(G *gp) {
	if (GL_UNLIKELY(trace_on)) {
		systemstack(ready_m, gp);
		return;
	}
	setgstatusnotrace(gp, Gwaiting, Grunnable);
	runqput(getm()->p, gp, true);
	wakep();
}

static void gosched_m(G *gp) {
	M *mp = getm();
	P *pp = mp->p;
	setgstatus(gp, Grunning, Grunnable);
	dropg(mp);
	lock(&sched.lock);
	globrunqput(gp);
	/* The shortcut of schedule(): when findRunnable would take the head
	 * of the global queue anyway — nothing local, no timers, no
	 * stop-the-world, no locked goroutine on either side — take it under
	 * the lock already held.  Two goroutines yielding to each other then
	 * cost one lock round trip per switch instead of two. */
	G *next = sched.runqhead;
	if (next != gp && next->lockedm == NULL && mp->lockedg == NULL && runqempty(pp) &&
	    __atomic_load_n(&pp->timer0When, __ATOMIC_RELAXED) == 0 &&
	    !__atomic_load_n(&sched.gcwaiting, __ATOMIC_RELAXED)) {
		sched.runqsize--;
		globrunqpop();
		unlock(&sched.lock);
		pp->preempt = false;
		execute(next, false);
	}
	unlock(&sched.lock);
	schedule();
}

/* Run this P's due timers, then move every G of its run queue to the
 * global queue, where other Ps find them, and wake one (Go's runqdrain
 * and globrunqputbatch, as its dedicated mark worker does when asked to
 * yield: it keeps its P, the goroutines queued behind it — and those its
 * timers ready, which no other P runs while every P is busy — go
 * elsewhere).  On g0, with a P. */
void runqkick_m(void *arg) {
	(void)arg;
	P *pp = getm()->p;
	G *head = NULL, *tail = NULL, *gp;
	int32_t n = 0;
	bool inherit, ran;
	int64_t pollUntil = 0;
	checkTimers(pp, 0, &pollUntil, &ran);
	while ((gp = runqget(pp, &inherit)) != NULL) {
		gp->schedlink = NULL;
		if (tail != NULL)
			tail->schedlink = gp;
		else
			head = gp;
		tail = gp;
		n++;
	}
	if (n == 0)
		return;
	lock(&sched.lock);
	globrunqputbatch(head, tail, n);
	unlock(&sched.lock);
	wakep();
}

/* Whether this P has something to run besides the goroutine on it: one
 * in its queue or the global one, or a due timer (run here, which readies
 * its goroutine on this P).  *arg: the answer.  On g0, with a P (the
 * collector's worker asks, mgc.c). */
void phaswork_m(void *arg) {
	P *pp = getm()->p;
	int64_t pollUntil = 0;
	bool ran;
	checkTimers(pp, 0, &pollUntil, &ran);
	*(bool *)arg = !runqempty(pp) || __atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) != 0;
}

/* runtime.Gosched, on g0.  Go puts the yielding G on the global queue,
 * behind everything this P would run before it, and schedules.  When
 * this P's queue and the global queue are both empty, nothing is waiting
 * for the processor: G comes straight back, after the scheduler's checks
 * (timers, a safe-point function, the collector's worker), from the tail
 * of its own queue, without sched.lock.  At two Ps Go's way took the lock
 * twice per Gosched (put, then findRunnable's get), on both Ps at once,
 * and the lock's cache line moved between them on every switch
 * (bench/pingpong gosched, 2 Ps: 44 to 145 ns per Gosched, with the memory
 * layout, against 30 at one P; 14.5 since).  With anything queued, Go's
 * way: the G goes behind it on the global queue, where another P may take
 * it (keeping it local instead made the seed's Gosched-after-Unlock mutex
 * 11% slower: sync's spinning needs an empty local queue).  At one P,
 * where no other P could take it and sync never spins, G goes behind the
 * local queue's goroutines unless the global queue has any — the order
 * Go's way gives, without the lock (bench/pingpong gosched, 1 P: 36–43 ns
 * per Gosched to 29–30).  A locked G takes Go's path too (startlockedm
 * must hand it over). */
static void goschedlocal_m(G *gp) {
	M *mp = getm();
	P *pp = mp->p;
	/* relaxed looks are enough: only this M adds to its queue, and a
	 * thief that empties it meanwhile changes nothing that matters here
	 * (gomaxprocs changes only with the world stopped) */
	if (__atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) != 0 || gp->lockedm != NULL ||
	    (gomaxprocs > 1 && (__atomic_load_n(&pp->runqhead, __ATOMIC_RELAXED) != pp->runqtail ||
				__atomic_load_n(&pp->runnext, __ATOMIC_RELAXED) != NULL))) {
		gosched_m(gp);
		return;
	}
	setgstatus(gp, Grunning, Grunnable);
	dropg(mp);
	runqput(pp, gp, false);
	schedule();
}

/* runtime.Gosched: every G this P would run first runs first (Go's
 * order; goschedlocal_m). */
void gosched(void) {
	getm()->tracewhy = traceWhyGosched;
	mcall(goschedlocal_m);
}

/* Preempted (newstack saw a request, or asyncPreempt stopped it): like
 * Gosched; or, if suspendG asked for it, park until resumeG (Go's
 * newstack and asyncPreempt2 choose between the two). */
void gopreempt_m(G *gp) {
	if (gp->preemptStop)
		preemptPark(gp);
	preemptcountstop(gp);
	getm()->tracewhy = gp->asyncSafePoint ? traceWhyPreemptAsync : traceWhyPreemptSync;
	/* The P's time slice is over: what runs next starts a new one, even
	 * a G in runnext that would inherit it (otherwise it inherits an
	 * expired slice, and sysmon preempts it at once in turn). */
	getm()->p->schedtick++;
	gosched_m(gp);
	__builtin_unreachable();
}

/* Stop for suspendG (Go's preemptPark): Gpreempted, out of every queue,
 * until the suspendG caller, who owns it now, lets it go with resumeG.
 * dropg comes first: the moment the status says Gpreempted the claimant
 * may look at gp. */
void preemptPark(G *gp) {
	M *mp = getm();
	if (readgstatus(gp) != Grunning)
		gl_throw("preemptPark: bad g status");
	preemptcountstop(gp);
	mp->tracewhy = gp->asyncSafePoint ? traceWhyPreemptAsync : traceWhyPreemptSync;
	gp->waitreason = waitReasonPreempted;
	dropg(mp);
	casgstatus(gp, Grunning, Gpreempted);
	schedule();
}

/* resumeG of a goroutine that stopped itself for suspendG (it is
 * Gwaiting, claimed no more): runnable again, on this P if the caller has
 * one, else (sysmon) on the global queue. */
void readyfromsuspend(G *gp) {
	M *mp = getm();
	if (mp->p != NULL) {
		goready(gp);
		return;
	}
	lock(&sched.lock);
	casgstatus(gp, Gwaiting, Grunnable);
	globrunqput(gp);
	unlock(&sched.lock);
	wakep();
}

/* Whether the goroutine running on mp may be switched out now: not while
 * it holds runtime locks, is dying, or is in the middle of a print
 * statement (print.c's buffer and depth are per thread). */
bool canpreemptm(M *mp) {
	return mp->locks == 0 && mp->dying == 0 && !gl_printlocked();
}

static void goyield_m(G *gp) {
	M *mp = getm();
	P *pp = mp->p;
	mp->tracewhy = traceWhyYield;
	casgstatus(gp, Grunning, Grunnable);
	dropg(mp);
	runqput(pp, gp, false);
	schedule();
}

/* Yield to the G in runnext, staying at the tail of the local queue
 * (Go's goyield: semrelease with handoff). */
void goyield(void) {
	mcall(goyield_m);
}

/* The goroutine is done (Go's goexit0): on g0. */
static void goexit0(G *gp) {
	M *mp = getm();
	P *pp = mp->p;
	casgstatus(gp, Grunning, Gdead);
	gp->m = NULL;
	bool locked = gp->lockedm != NULL;
	gp->lockedm = NULL;
	mp->lockedg = NULL;
	mp->lockedExt = 0;
	gp->topframe = NULL;
	gp->_defer = NULL;
	gp->_panic = NULL;
	gp->unwinding = 0;
	gp->unwindTarget = NULL;
	gp->waitreason = waitReasonZero;
	gp->param = NULL;
	gp->startfn = NULL; /* a root (mgc.c): a dead G must not keep its closure alive */
	gp->preempt = false;
	dropg(mp);
	if (mp->lockedInt != 0)
		gl_throw("internal lockOSThread error");
	stackstartnote(gp);
	gfput(pp, gp);
	if (locked) {
		/* The goroutine may have locked this thread because it put it in
		 * an unusual kernel state: end the thread rather than reuse it. */
		mexit();
	}
	schedule();
}

void goexit1(void) {
	mcall(goexit0);
	__builtin_unreachable();
}

void badmcall(void) {
	gl_throw("runtime: mcall called on m->g0 stack");
}

void badmcall2(void) {
	gl_throw("runtime: mcall function returned");
}

const char *waitreasonstr(uint32_t reason) {
	switch (reason) {
	case waitReasonIOWait: return "IO wait";
	case waitReasonChanReceiveNilChan: return "chan receive (nil chan)";
	case waitReasonChanSendNilChan: return "chan send (nil chan)";
	case waitReasonSelect: return "select";
	case waitReasonSelectNoCases: return "select (no cases)";
	case waitReasonChanReceive: return "chan receive";
	case waitReasonChanSend: return "chan send";
	case waitReasonFinalizerWait: return "finalizer wait";
	case waitReasonGCWorkerIdle: return "GC worker (idle)";
	case waitReasonGCAssistWait: return "GC assist wait";
	case waitReasonGCSweepWait: return "GC sweep wait";
	case waitReasonSemacquire: return "semacquire";
	case waitReasonSleep: return "sleep";
	case waitReasonSyncCondWait: return "sync.Cond.Wait";
	case waitReasonWaitForGCCycle: return "wait for GC cycle";
	case waitReasonPreempted: return "preempted";
	case waitReasonStoppingTheWorld: return "stopping the world";
	case waitReasonGarbageCollection: return "garbage collection";
	}
	return "waiting";
}

/* ---- system calls (Go's entersyscall/exitsyscall) ----
 *
 * A goroutine about to make a system call that may block keeps its M
 * (the thread makes the call) but lets go of its P: the P goes to
 * Psyscall with no M, and the M remembers it in oldp.  A call that
 * returns quickly takes its P back with one CAS (Psyscall → Pidle →
 * Prunning); one that blocks longer than a sysmon tick has its P taken by
 * retake (Psyscall → Pidle, handoffp), which starts another M for the P's
 * work — so a blocked call costs a thread, not a P.  The goroutine is
 * Gsyscall meanwhile: its frames are stable (g->sched says where they
 * start) and it touches none of the scheduler's state until exitsyscall,
 * so suspendG and the goroutine dump treat it as stopped.
 *
 * entersyscall and exitsyscall run on the goroutine stack, called from
 * the C function that makes the system call: their fast paths are small
 * and lock free; what needs locks or more stack runs on g0. */

/* sysmon sleeps when every P is idle; a P in Psyscall is not idle, and
 * sysmon must watch it (retake). */
static void entersyscall_sysmon(void *arg) {
	(void)arg;
	lock(&sched.lock);
	if (__atomic_load_n(&sched.sysmonwait, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sched.sysmonwait, 0, __ATOMIC_RELEASE);
		notewakeup(&sched.sysmonnote);
	}
	unlock(&sched.lock);
}

/* A stop-the-world is waiting for this P: it is stopped already (the
 * goroutine runs no gl code until exitsyscall), so give it up now. */
static void entersyscall_gcwait(void *arg) {
	P *pp = arg;
	lock(&sched.lock);
	uint32_t s = Psyscall;
	if (sched.stopwait > 0 && __atomic_compare_exchange_n(&pp->status, &s, Pgcstop, false, __ATOMIC_ACQ_REL,
							      __ATOMIC_RELAXED)) {
		pp->syscalltick++;
		if (--sched.stopwait == 0)
			notewakeup(&sched.stopnote);
	}
	unlock(&sched.lock);
}

/* A forEachP waits for this P: its function runs now, before the P is
 * left in Psyscall (forEachP would take it from there otherwise). */
static void entersyscall_safepoint(void *arg) {
	checkSafePointFn(arg);
}

/* Go's reentersyscall: the work of both entries below, inlined into each
 * (a system call's cost is mostly here). */
static inline __attribute__((always_inline)) void reentersyscall(uintptr_t pc, uintptr_t sp, uintptr_t bp) {
	G *gp = getg();
	M *mp = gp->m;
	/* published by the status store */
	gp->sched.pc = pc;
	gp->sched.sp = sp;
	gp->sched.bp = bp;
	setgstatus(gp, Grunning, Gsyscall);
	/* From here on g->sched is what the collector, suspendG and tracebacks
	 * read: what little runs on g0 now goes there through asmcgocall,
	 * which leaves it alone (systemstack would describe its own block in
	 * it, and clear it on the way back). */
	if (GL_UNLIKELY(__atomic_load_n(&sched.sysmonwait, __ATOMIC_ACQUIRE)))
		asmcgocall(entersyscall_sysmon, NULL);
	P *pp = mp->p;
	if (GL_UNLIKELY(__atomic_load_n(&pp->runSafePointFn, __ATOMIC_ACQUIRE) != 0))
		asmcgocall(entersyscall_safepoint, pp);
	pp->m = NULL;
	mp->oldp = pp;
	mp->p = NULL;
	/* from here on, retake and stopTheWorld may take pp (CAS) */
	__atomic_store_n(&pp->status, Psyscall, __ATOMIC_SEQ_CST);
	if (GL_UNLIKELY(__atomic_load_n(&sched.gcwaiting, __ATOMIC_SEQ_CST)))
		asmcgocall(entersyscall_gcwait, pp);
}

void entersyscall(uintptr_t pc, uintptr_t fp) {
	/* Where the goroutine's frames start, for tracebacks (the caller's
	 * return address and frame pointer; the saved rbp at fp links to
	 * the generated caller's frame). */
	reentersyscall(pc, fp + 16, *(uintptr_t *)fp);
}

void entersyscallsched(uintptr_t pc, uintptr_t sp, uintptr_t bp) { reentersyscall(pc, sp, bp); }

/* Any idle P, under the lock (Go's exitsyscallfast_pidle). */
static void exitsyscall_pidle(void *arg) {
	bool *ok = arg;
	lock(&sched.lock);
	P *pp = pidleget();
	if (pp != NULL && __atomic_load_n(&sched.sysmonwait, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sched.sysmonwait, 0, __ATOMIC_RELEASE);
		notewakeup(&sched.sysmonnote);
	}
	unlock(&sched.lock);
	if (pp != NULL)
		acquirep(pp);
	*ok = pp != NULL;
}

/* The P back without blocking: the old one if retake has not taken it
 * (the common case, one CAS), else an idle one. */
static bool exitsyscallfast(P *oldp) {
	uint32_t s = Psyscall;
	if (oldp != NULL && __atomic_load_n(&oldp->status, __ATOMIC_RELAXED) == Psyscall &&
	    __atomic_compare_exchange_n(&oldp->status, &s, Pidle, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		acquirep(oldp);
		return true;
	}
	bool ok = false;
	if (__atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0)
		systemstack(exitsyscall_pidle, &ok);
	return ok;
}

/* No P: the goroutine waits on the global queue and the M stops (Go's
 * exitsyscall0).  On g0. */
static void exitsyscall0(G *gp) {
	M *mp = getm();
	casgstatus(gp, Gsyscall, Grunnable);
	dropg(mp);
	lock(&sched.lock);
	P *pp = pidleget();
	bool locked = false;
	if (pp == NULL) {
		globrunqput(gp);
		locked = mp->lockedg != NULL;
	} else if (__atomic_load_n(&sched.sysmonwait, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sched.sysmonwait, 0, __ATOMIC_RELEASE);
		notewakeup(&sched.sysmonnote);
	}
	unlock(&sched.lock);
	if (pp != NULL) {
		acquirep(pp);
		execute(gp, false);
	}
	if (locked) {
		/* gp runs on this thread only: wait until an M with a P
		 * schedules it and hands us that P (startlockedm) */
		stoplockedm();
		execute(gp, false);
	}
	stopm();
	schedule();
}

void exitsyscall(void) {
	G *gp = getg();
	M *mp = gp->m;
	P *oldp = mp->oldp;
	mp->oldp = NULL;
	if (exitsyscallfast(oldp)) {
		/* a new syscalltick: sysmon must not take the next call's P
		 * for this one's duration */
		mp->p->syscalltick++;
		setgstatus(gp, Gsyscall, Grunning);
		/* as execute: a suspendG caller that claimed gp while it was
		 * in the call may still be reading its stack */
		if (GL_UNLIKELY(suspendfence))
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (GL_UNLIKELY(__atomic_load_n(&gp->suspendclaim, __ATOMIC_RELAXED)))
			suspendwaitexecute(gp);
		return;
	}
	mcall(exitsyscall0);
	/* runs again, perhaps on another M (nothing read from TLS above is
	 * used after this point) */
}

/* ---- creating goroutines ---- */

/* A goroutine that will call fn(g, arg) on a new stack of stacksize bytes
 * when first scheduled: its stack holds the register block gogo pops, as
 * if it had switched out just before gl_gostart.  On g0 (or before the
 * scheduler runs). */
G *newproc1(void (*fn)(G *, void *), void *arg, int64_t stacksize) {
	M *mp = getm();
	G *newg = mp->p != NULL ? gfget(mp->p) : NULL;
	GlStack stk = {0, 0};
	struct timer *t = NULL;
	uint16_t *selorder = NULL;
	int64_t selordercap = 0;
	if (newg == NULL) {
		newg = persistentalloc(sizeof(G));
		newg->atomicstatus = Gdead;
		allgadd(newg);
	} else {
		stk = newg->stack;
		if (stk.hi != 0 && stk.hi - stk.lo != (uint64_t)stacksize) { /* kept for another start size */
			newg->stack = (GlStack){0, 0};
			stackfree(stk);
			stk = (GlStack){0, 0};
		}
		t = newg->timer;
		selorder = newg->selorder;
		selordercap = newg->selordercap;
	}
	uint32_t st = readgstatus(newg);
	memset(newg, 0, sizeof(G));
	newg->atomicstatus = st;
	newg->stack = stk.hi != 0 ? stk : stackalloc((uint64_t)stacksize);
	newg->stackstart = (uint32_t)stacksize;
	newg->timer = t;
	newg->selorder = selorder;
	newg->selordercap = selordercap;
	newg->stackguard0 = stackguard(newg);

	/* the block (with its return address), 16 bytes below hi: gogo's ret
	 * leaves rsp = hi - 16, 16-aligned for gl_gostart's call */
	uintptr_t *blk = (uintptr_t *)(newg->stack.hi - 16 - SAVEDREGS_SIZE);
	memset(blk, 0, SAVEDREGS_SIZE + 16);
	((uint16_t *)blk)[0] = FPU_CW_DEFAULT;
	((uint32_t *)blk)[1] = MXCSR_DEFAULT;
	blk[3] = (uintptr_t)arg;            /* r13 */
	blk[4] = (uintptr_t)fn;             /* r12 */
	blk[5] = (uintptr_t)newg;           /* rbx */
	blk[6] = 0;                         /* rbp: the chain ends here */
	blk[7] = (uintptr_t)gl_gostart;     /* where gogo's ret goes */
	newg->sched.sp = (uintptr_t)blk;
	newg->sched.pc = (uintptr_t)gl_gostart;
	newg->sched.bp = 0;

	newg->goid = (int64_t)__atomic_add_fetch(&sched.goidgen, 1, __ATOMIC_RELAXED);
	newg->gcscancycle = gcCycle(); /* while marking: born scanned (nothing on it yet) */
	casgstatus(newg, Gdead, Grunnable);
	return newg;
}

/* go fn(arg): a new goroutine in the current P's runnext (Go's newproc),
 * so it runs soon, on this P, unless an idle P steals it.  startfn and
 * gopc are for tracebacks: the closure of the go statement, and the return
 * address of its call in generated code ("created by"). */
G *newprocpc(void (*fn)(G *, void *), void *arg, GlFunc *startfn, uintptr_t gopc, const char *name) {
	G *newg = newproc1(fn, arg, (int64_t)stackstartsize(gopc));
	newg->startfn = startfn;
	newg->gopc = gopc;
	if (GL_UNLIKELY(trace_on))
		traceGoCreate(newg, startfn != NULL ? (uintptr_t)startfn->fn : 0, name);
	runqput(getm()->p, newg, true);
	if (mainStarted)
		wakep();
	return newg;
}

/* A goroutine the runtime starts (no go statement: no "created by");
 * name is Go's name for its function ("runtime.bgsweep"), for traces. */
G *newproc(void (*fn)(G *, void *), void *arg, const char *name) {
	return newprocpc(fn, arg, NULL, 0, name);
}

/* A goroutine's first frame: call the closure of a go statement. */
static void gostartclosure(G *g, void *arg) {
	GlFunc *fn = arg;
	((void (*)(G *, GlFunc *))fn->fn)(g, fn);
}

typedef struct goargs {
	GlFunc *fn;
	uintptr_t pc;
} goargs;

static void gl_go_m(void *arg) {
	goargs *a = arg;
	newprocpc(gostartclosure, a->fn, a->fn, a->pc, NULL);
}

/* The go statement: fn is a closure of no arguments and no results. */
void gl_go(G *g, GlFunc *fn) {
	(void)g;
	if (fn == NULL)
		gl_fatal("go of nil func value");
	goargs a = {fn, (uintptr_t)__builtin_return_address(0)};
	systemstack(gl_go_m, &a);
}

/* ---- stop the world (GOMAXPROCS) ---- */

/* Ask the goroutine running on pp to stop (Go's preemptone): at its next
 * prologue (stackguard0 poisoned), or, if it runs without calls, at the
 * instruction it is at, by signal (preemptM, unless asyncpreemptoff; at
 * once, or, with pc, when its pacing allows: preempt.c).  Best effort:
 * the goroutine may be gone by the time it looks. */
static bool preemptone(P *pp, pacing *pc) {
	M *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL || mp == getm())
		return false;
	G *gp = __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE);
	if (gp == NULL || gp == mp->g0)
		return false;
	gp->preempt = true;
	__atomic_store_n(&gp->stackguard0, GL_STACK_PREEMPT, __ATOMIC_RELEASE);
	pp->preempt = true; /* the handler also honours the P's flag */
	allocKick(pp);      /* and an allocation's slow path (malloc.c) */
	preemptcountrequest();
	if (pc != NULL)
		preemptMPaced(mp, pc);
	else if (!gl_debug.asyncpreemptoff)
		preemptM(mp);
	return true;
}

/* Every running P's goroutine, for the stop-the-world: each P's signals
 * paced as suspendG's are (P.stwpacing, zeroed when a stop begins), or,
 * with GLDEBUG=preemptpacing=fixed, one at every call, as Go's. */
static bool preemptall(void) {
	bool res = false;
	bool fixed = gl_debug.preemptpacing == 1;
	for (int32_t i = 0; i < gomaxprocs; i++)
		if (__atomic_load_n(&allp[i]->status, __ATOMIC_ACQUIRE) == Prunning &&
		    preemptone(allp[i], fixed ? NULL : &allp[i]->stwpacing))
			res = true;
	return res;
}

static void stopTheWorldWithSema(const char *reason) {
	M *mp = getm();
	if (GL_UNLIKELY(trace_on))
		traceSTWStart(reason);
	lock(&sched.lock);
	sched.stopwait = gomaxprocs;
	/* seq_cst: against entersyscall's store of Psyscall and load of
	 * gcwaiting (one of the two sides sees the other) */
	__atomic_store_n(&sched.gcwaiting, 1, __ATOMIC_SEQ_CST);
	for (int32_t i = 0; i < gomaxprocs; i++)
		allp[i]->stwpacing = (pacing){0};
	preemptall();
	__atomic_store_n(&mp->p->status, Pgcstop, __ATOMIC_RELEASE);
	sched.stopwait--;
	/* Ps in system calls: their goroutines run no gl code until
	 * exitsyscall, which then finds its P gone */
	for (int32_t i = 0; i < gomaxprocs; i++) {
		P *p2 = allp[i];
		uint32_t s = Psyscall;
		if (__atomic_load_n(&p2->status, __ATOMIC_ACQUIRE) == Psyscall &&
		    __atomic_compare_exchange_n(&p2->status, &s, Pgcstop, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			p2->syscalltick++;
			sched.stopwait--;
		}
	}
	P *pp;
	while ((pp = pidleget()) != NULL) {
		__atomic_store_n(&pp->status, Pgcstop, __ATOMIC_RELEASE);
		sched.stopwait--;
	}
	bool wait = sched.stopwait > 0;
	unlock(&sched.lock);
	if (wait) {
		for (;;) {
			/* wait 100 µs, then preempt again in case of races */
			if (notetsleep(&sched.stopnote, 100 * 1000)) {
				noteclear(&sched.stopnote);
				break;
			}
			preemptall();
		}
	}
	if (sched.stopwait != 0)
		gl_throw("stopTheWorld: not stopped");
	for (int32_t i = 0; i < gomaxprocs; i++)
		if (__atomic_load_n(&allp[i]->status, __ATOMIC_ACQUIRE) != Pgcstop)
			gl_throw("stopTheWorld: not stopped (status != _Pgcstop)");
}

/* On g0: fn (stopTheWorldWithSema, forEachP's wait) with the caller's
 * goroutine Gwaiting, not Grunning, while it waits for the other Ps (as
 * Go's stopTheWorld does).
 * Otherwise a suspendG caller on another P, which keeps its P until it
 * has the goroutine, would wait for a goroutine that waits for that P:
 * neither moves (testdata/preempt.sh's preempt_clock, a goroutine whose
 * allocation started a cycle while ScanStackForTest asked for it).  As
 * Gwaiting it can be claimed and its stack read (systemstack saved
 * g->sched); it never moves meanwhile (isShrinkStackSafe refuses this
 * wait reason: runtime C below systemstack holds addresses in it), and,
 * as in execute, a claim is waited out before it runs again. */
static void runAsWaiting(void (*fn)(const char *), const char *arg, uint32_t reason) {
	G *gp = getm()->curg;
	if (gp == NULL) {
		fn(arg);
		return;
	}
	gp->waitreason = reason;
	casgstatus(gp, Grunning, Gwaiting);
	fn(arg);
	casgstatus(gp, Gwaiting, Grunning);
	gp->waitreason = waitReasonZero;
	if (GL_UNLIKELY(suspendfence))
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (GL_UNLIKELY(__atomic_load_n(&gp->suspendclaim, __ATOMIC_RELAXED)))
		suspendwaitexecute(gp);
}

static void stopTheWorldAsWaiting_m(void *reason) {
	runAsWaiting(stopTheWorldWithSema, reason, waitReasonStoppingTheWorld);
}

/* Stop every P but the caller's: each finishes what it runs up to its
 * next prologue (or block), then waits; a P in a system call is taken
 * as it is (its goroutine runs no gl code until exitsyscall). */
void stopTheWorld(const char *reason) {
	semacquireWorld();
	stopTheWorldHeld(reason);
}

/* One stop-the-world (or forEachP) at a time: worldsema, from a
 * goroutine, which parks while another holds it. */
void semacquireWorld(void) {
	semacquire1(&worldsema, false, waitReasonSemacquire);
}

void semreleaseWorld(void) {
	semrelease1(&worldsema, false);
}

/* stopTheWorld for a caller that holds worldsema already. */
void stopTheWorldHeld(const char *reason) {
	getg()->m->locks++; /* the caller must not be preempted meanwhile */
	systemstack(stopTheWorldAsWaiting_m, (void *)reason);
}

static void startTheWorldWithSema(void *arg) {
	(void)arg;
	lock(&sched.lock);
	int32_t procs = gomaxprocs;
	if (newprocs != 0) {
		procs = newprocs;
		newprocs = 0;
	}
	P *p1 = procresize(procs);
	__atomic_store_n(&sched.gcwaiting, 0, __ATOMIC_RELEASE);
	if (GL_UNLIKELY(trace_on))
		traceSTWDone();
	if (__atomic_load_n(&sched.sysmonwait, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&sched.sysmonwait, 0, __ATOMIC_RELEASE);
		notewakeup(&sched.sysmonnote);
	}
	unlock(&sched.lock);
	while (p1 != NULL) {
		P *pp = p1;
		p1 = p1->link;
		startm(pp, false);
	}
}

/* After worldsema is released: an M for an idle P, in case the queues
 * hold more than the restarted Ps run (Go's startTheWorldWithSema calls
 * wakep before the release).  Not under worldsema: a futex wake may cost
 * the waker its CPU for a scheduler tick, when the kernel puts the
 * wakee on the waker's CPU, and meanwhile no one can stop the world —
 * an allocation that wants a collection cannot start it (mgc.c's
 * gcStartTry_m) and the heap grows (bench/gc's churn: cycles 3-5 ms
 * late, at 15-27 MiB under a 4 MiB goal, in one run of four). */
static void startTheWorldWake(void *arg) {
	(void)arg;
	wakep();
}

void startTheWorld(void) {
	systemstack(startTheWorldWithSema, NULL);
	G *gp = getg();
	gp->m->locks--;
	semrelease1(&worldsema, false);
	systemstack(startTheWorldWake, NULL);
}

/* stopTheWorld and startTheWorld for code already on g0 that must not
 * park (the collector started from an allocation, mgc.c): the stop is
 * made only if no other is under way or waiting (false otherwise).  The
 * M's locks count keeps its goroutine from being preempted meanwhile. */
bool trystopTheWorld_m(const char *reason) {
	if (!semtryacquire(&worldsema))
		return false;
	getm()->locks++;
	stopTheWorldAsWaiting_m((void *)reason);
	return true;
}

void startTheWorld_m(void) {
	startTheWorldWithSema(NULL);
	getm()->locks--;
	semrelease1(&worldsema, false);
	wakep();
}

/* ---- forEachP: a function every P runs at a safe point (Go's) ----
 *
 * What mark termination's ragged barrier needs (mgc.c's gcMarkDone):
 * every P's write-barrier buffer flushed, by the M that holds the P, so
 * that the collector learns whether grey objects are left anywhere,
 * without stopping the world for it.  forEachP sets P.runSafePointFn on
 * every other P and preempts their goroutines; a P's M runs the
 * function when it next schedules (findRunnable), enters a system call,
 * or hands the P off, and when a mark worker on it ends a slice.  The
 * caller runs it for its own P, for the idle Ps (under sched.lock, so
 * that none is taken meanwhile) and for the Ps in system calls (each
 * taken with a CAS and handed off, as sysmon's retake does), and waits,
 * preempting again every 100 µs, until every P has.  The caller holds
 * worldsema, so no stop-the-world or procresize changes the Ps under
 * it; its goroutine is Gwaiting meanwhile, for the reason
 * stopTheWorldAsWaiting_m gives. */

/* fn has run for one more P; the caller wakes when it was the last. */
static void safePointDone(void) {
	lock(&sched.lock);
	if (--sched.safePointWait == 0)
		notewakeup(&sched.safePointNote);
	unlock(&sched.lock);
}

/* The M that holds pp runs the function due on it, if any (Go's
 * runSafePointFn).  The function was set before the flag (release). */
void runSafePointFn(P *pp) {
	uint32_t one = 1;
	if (!__atomic_compare_exchange_n(&pp->runSafePointFn, &one, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	sched.safePointFn(pp);
	safePointDone();
}


/* The Ps in system calls that fn is due on: taken and handed off, which
 * runs fn first (handoffp). */
static void forEachPsyscall(void) {
	for (int32_t i = 0; i < gomaxprocs; i++) {
		P *pp = allp[i];
		if (__atomic_load_n(&pp->runSafePointFn, __ATOMIC_ACQUIRE) != 0 &&
		    __atomic_load_n(&pp->status, __ATOMIC_ACQUIRE) == Psyscall)
			takesyscallp(pp);
	}
}

static void (*forEachPFn)(P *); /* forEachP's argument, under worldsema */

static void forEachPWithSema(const char *unused) {
	(void)unused;
	void (*fn)(P *) = forEachPFn;
	P *self = getm()->p;
	lock(&sched.lock);
	if (sched.safePointWait != 0)
		gl_throw("forEachP: sched.safePointWait != 0");
	sched.safePointWait = gomaxprocs - 1;
	sched.safePointFn = fn;
	for (int32_t i = 0; i < gomaxprocs; i++) {
		allp[i]->stwpacing = (pacing){0};
		if (allp[i] != self)
			__atomic_store_n(&allp[i]->runSafePointFn, 1, __ATOMIC_RELEASE);
	}
	preemptall();
	/* a P that goes idle from now on sees its flag first (findRunnable) */
	for (P *pp = sched.pidle; pp != NULL; pp = pp->link) {
		uint32_t one = 1;
		if (__atomic_compare_exchange_n(&pp->runSafePointFn, &one, 0, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			fn(pp);
			sched.safePointWait--;
		}
	}
	bool wait = sched.safePointWait > 0;
	unlock(&sched.lock);
	fn(self);
	forEachPsyscall();
	while (wait) {
		if (notetsleep(&sched.safePointNote, 100 * 1000)) {
			noteclear(&sched.safePointNote);
			break;
		}
		preemptall();
		forEachPsyscall(); /* one that entered its call between our looks */
	}
	lock(&sched.lock);
	if (sched.safePointWait != 0)
		gl_throw("forEachP: not done");
	for (int32_t i = 0; i < gomaxprocs; i++)
		if (__atomic_load_n(&allp[i]->runSafePointFn, __ATOMIC_ACQUIRE) != 0)
			gl_throw("forEachP: P did not run fn");
	sched.safePointFn = NULL;
	unlock(&sched.lock);
}

static void forEachP_m(void *arg) {
	(void)arg;
	runAsWaiting(forEachPWithSema, NULL, waitReasonGarbageCollection);
}

void forEachP(void (*fn)(P *)) {
	forEachPFn = fn;
	getg()->m->locks++; /* its P stays its own until every P has run fn */
	systemstack(forEachP_m, NULL);
	getg()->m->locks--;
}

/* runtime.ForEachPForTest (stdlib/runtime/preempt.gl): forEachP with a
 * function that records, for each P by id, how many times it ran and
 * who ran it: 0 the caller's M (its own P, an idle P, a P it took from a
 * system call), 1 the M holding the P (at its safe point), 2 another M
 * (sysmon's retake).  The record is the runtime's, read afterwards one P
 * at a time (forEachPResultForTest): the caller parks for worldsema, and
 * its stack may move meanwhile (DESIGN.md S4). */
enum { fptestMax = 256 };
static struct {
	M *caller;
	int64_t ran[fptestMax], where[fptestMax];
} fptest; /* under worldsema */

static void forEachPTestFn(P *pp) {
	if (pp->id >= fptestMax)
		return;
	__atomic_fetch_add(&fptest.ran[pp->id], 1, __ATOMIC_RELAXED);
	M *mp = getm();
	fptest.where[pp->id] = mp == fptest.caller ? 0 : mp->p == pp ? 1 : 2;
}

int64_t runtime_forEachPForTest(G *g) {
	(void)g;
	semacquireWorld();
	for (int i = 0; i < fptestMax; i++)
		fptest.ran[i] = 0, fptest.where[i] = -1;
	fptest.caller = getm();
	forEachP(forEachPTestFn);
	int64_t n = gomaxprocs;
	semreleaseWorld();
	return n;
}

struct gltuple_int_int runtime_forEachPResultForTest(G *g, int64_t i) {
	(void)g;
	if (i < 0 || i >= fptestMax)
		return (struct gltuple_int_int){.r0 = 0, .r1 = -1};
	return (struct gltuple_int_int){.r0 = fptest.ran[i], .r1 = fptest.where[i]};
}

/* runtime.GOMAXPROCS(n): the old value; n > 0 changes it, with the world
 * stopped. */
int32_t procresize_request(int32_t n) {
	lock(&sched.lock);
	int32_t ret = gomaxprocs;
	unlock(&sched.lock);
	if (n <= 0 || n == ret)
		return ret;
	stopTheWorld("GOMAXPROCS");
	newprocs = n;
	startTheWorld();
	return ret;
}

/* ---- LockOSThread ---- */

void lockOSThread(void) {
	G *gp = getg();
	M *mp = gp->m;
	mp->lockedInt++;
	mp->lockedg = gp;
	gp->lockedm = mp;
}

void unlockOSThread(void) {
	G *gp = getg();
	M *mp = gp->m;
	if (mp->lockedInt == 0)
		gl_throw("runtime: internal error: misuse of lockOSThread/unlockOSThread");
	mp->lockedInt--;
	if (mp->lockedInt != 0 || mp->lockedExt != 0)
		return;
	gp->lockedm = NULL;
	mp->lockedg = NULL;
}

/* runtime.LockOSThread: the calling goroutine runs only on this thread,
 * and no other goroutine does, until as many UnlockOSThread calls. */
void runtime_LockOSThread(G *g) {
	M *mp = g->m;
	if (++mp->lockedExt == 0) {
		mp->lockedExt--;
		gl_panicstring(g, "LockOSThread nesting overflow");
		return;
	}
	mp->lockedg = g;
	g->lockedm = mp;
}

void runtime_UnlockOSThread(G *g) {
	M *mp = g->m;
	if (mp->lockedExt == 0)
		return;
	mp->lockedExt--;
	if (mp->lockedInt != 0 || mp->lockedExt != 0)
		return;
	g->lockedm = NULL;
	mp->lockedg = NULL;
}

/* ---- sysmon ---- */

static int64_t starttime;

static void printbool_(bool b) {
	prints(b ? "true" : "false");
}

/* GLDEBUG=schedtrace=N: Go's SCHED line (and with scheddetail=1 the
 * per-P, per-M and per-G lines), read without stopping anything: the
 * numbers are a racy snapshot, as in Go. */
static void schedtrace(bool detailed) {
	int64_t now = nanotime();
	if (starttime == 0)
		starttime = now;
	lock(&sched.lock);
	printlock();
	prints("SCHED ");
	printint((now - starttime) / 1000000);
	prints("ms: gomaxprocs=");
	printint(gomaxprocs);
	prints(" idleprocs=");
	printint(__atomic_load_n(&sched.npidle, __ATOMIC_RELAXED));
	prints(" threads=");
	printint(mcount());
	prints(" spinningthreads=");
	printint(__atomic_load_n(&sched.nmspinning, __ATOMIC_RELAXED));
	prints(" needspinning=0 idlethreads="); /* Go ≥ 1.21's needspinning: always 0 here */
	printint(sched.nmidle);
	prints(" runqueue=");
	printint(sched.runqsize);
	if (detailed) {
		prints(" gcwaiting=");
		printbool_(__atomic_load_n(&sched.gcwaiting, __ATOMIC_RELAXED));
		prints(" nmidlelocked=");
		printint(sched.nmidlelocked);
		prints(" stopwait=");
		printint(sched.stopwait);
		prints(" sysmonwait=");
		printbool_(__atomic_load_n(&sched.sysmonwait, __ATOMIC_RELAXED));
		prints("\n");
	}
	for (int32_t i = 0; i < gomaxprocs; i++) {
		P *pp = allp[i];
		uint32_t h = __atomic_load_n(&pp->runqhead, __ATOMIC_ACQUIRE);
		uint32_t t = __atomic_load_n(&pp->runqtail, __ATOMIC_ACQUIRE);
		if (detailed) {
			prints("  P");
			printint(i);
			prints(": status=");
			printint(pp->status);
			prints(" schedtick=");
			printint(pp->schedtick);
			prints(" syscalltick=");
			printint(pp->syscalltick);
			prints(" m=");
			M *mp = pp->m;
			if (mp != NULL)
				printint(mp->id);
			else
				prints("nil");
			prints(" runqsize=");
			printint((int32_t)(t - h));
			prints(" gfreecnt=");
			printint(pp->gfreecnt);
			prints(" timerslen=");
			printint(pp->ntimers);
			prints("\n");
		} else {
			prints(i == 0 ? " [ " : " ");
			printint((int32_t)(t - h));
			if (i == gomaxprocs - 1)
				prints(" ]");
		}
	}
	if (!detailed) {
		prints(" schedticks=[ ");
		for (int32_t i = 0; i < gomaxprocs; i++) {
			printint(allp[i]->schedtick);
			prints(" ");
		}
		prints("]\n");
		printunlock();
		unlock(&sched.lock);
		return;
	}
	for (M *mp = allm; mp != NULL; mp = mp->alllink) {
		if (mp->dead)
			continue;
		P *pp = mp->p;
		G *curg = mp->curg, *lockedg = mp->lockedg;
		prints("  M");
		printint(mp->id);
		prints(": p=");
		if (pp != NULL)
			printint(pp->id);
		else
			prints("nil");
		prints(" curg=");
		if (curg != NULL)
			printint(curg->goid);
		else
			prints("nil");
		prints(" mallocing=0 throwing=");
		printint(mp->dying);
		prints(" preemptoff= locks=");
		printint(mp->locks);
		prints(" dying=");
		printint(mp->dying);
		prints(" spinning=");
		printbool_(mp->spinning);
		prints(" blocked=");
		printbool_(mp->blocked);
		prints(" lockedg=");
		if (lockedg != NULL)
			printint(lockedg->goid);
		else
			prints("nil");
		prints("\n");
	}
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		uint32_t st = readgstatus(gp);
		if (st == Gdead)
			continue;
		M *mp = gp->m, *lockedm = gp->lockedm;
		prints("  G");
		printint(gp->goid);
		prints(": status=");
		printint(st);
		prints("(");
		prints(st == Gwaiting ? waitreasonstr(gp->waitreason) : "");
		prints(") m=");
		if (mp != NULL)
			printint(mp->id);
		else
			prints("nil");
		prints(" lockedm=");
		if (lockedm != NULL)
			printint(lockedm->id);
		else
			prints("nil");
		prints("\n");
	}
	printunlock();
	unlock(&sched.lock);
}

/* Whether anything but pp's current goroutine wants pp: a goroutine in its
 * queue or the global one, a timer of pp's that is due (its goroutine
 * would be readied; with every P busy only pp will run it), or a
 * stop-the-world. */
static bool pwantsrun(P *pp, int64_t now) {
	if (!runqempty(pp) || __atomic_load_n(&sched.runqsize, __ATOMIC_RELAXED) != 0 ||
	    __atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE))
		return true;
	int64_t w = __atomic_load_n(&pp->timer0When, __ATOMIC_ACQUIRE);
	return (w != 0 && w <= now) || gcWorkerWantsP(pp, now);
}

/* A P in Psyscall: take it from its M if the system call has lasted a
 * sysmon tick (at least 20 µs: sysmon saw the same syscalltick at its last
 * look), or the goroutine's time slice is over (sliceover), and the P is
 * wanted — it has work queued, or no other P is idle
 * or spinning to pick up new work, or the call has lasted 10 ms (Go's
 * rule: a P left in Psyscall keeps sysmon from sleeping deeply).  Then
 * handoffp gives it to another M, started if need be: this is where a
 * blocking system call costs a thread.  Returns 1 if it took the P. */
static uint32_t retakesyscall(P *pp, int64_t now, bool sliceover) {
	uint32_t t = __atomic_load_n(&pp->syscalltick, __ATOMIC_RELAXED);
	if (!sliceover && pp->sysmonsyscalltick != t) {
		pp->sysmonsyscalltick = t;
		pp->sysmonsyscallwhen = now;
		return 0;
	}
	if (runqempty(pp) &&
	    __atomic_load_n(&sched.nmspinning, __ATOMIC_ACQUIRE) + __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0 &&
	    pp->sysmonsyscallwhen + 10 * 1000 * 1000 > now)
		return 0;
	return takesyscallp(pp);
}

/* sysmon's preemption of goroutines that hold a P too long (Go's retake),
 * and its taking of Ps from long system calls (retakesyscall).
 *
 * A P's time slice starts when it runs a goroutine not inherited through
 * runnext (schedtick counts those); sysmon sees it start at its first look
 * after (sysmonschedtick/when, Go's sysmontick).  A slice longer than
 * forcePreemptNS is preempted (preemptone: prologue poison and SIGURG),
 * as in Go — but only if something else wants the P: otherwise the
 * goroutine would come straight back, after a signal and a full register
 * save for nothing.  Such a P is watched, and preempted at once when work
 * comes (a due timer: the first sleep of bench/preempt).
 *
 * Go waits for its next tick to see a slice expire and ticks every 10 ms
 * once idle, so a goroutine runs 10–20 ms (bench/preempt's steady 20 ms).
 * Here *wake gets the earliest moment sysmon must look again: a slice's
 * end, or the next timer of a P whose slice is over — and, while any P
 * runs, at most sysmonNoticeNS from now: a slice is timed from the look
 * that first sees it, so a new slice that starts during a long sleep
 * would otherwise be seen, and preempted, up to a whole sleep late (the
 * first 10 ms sleep of bench/preempt took 13–22 ms).  Returns how many Ps
 * began a new slice after a preemption sysmon asked for: sysmon then
 * looks every 20 µs sysmonBurstLooks more times, to see the next slice
 * start on time if the one just seen is brief (a timer's goroutine), and
 * backs off from there.  (It used to start over from 20 µs, 50 looks
 * before the first doubling: after every preemption of a goroutine that
 * runs for ever, 50 wake-ups of sysmon's thread, which took CPU from the
 * program on a machine with one free core or none — mapint pinned to
 * one CPU lost 2-5%.) */
static uint32_t retake(int64_t now, int64_t *wake) {
	uint32_t n = 0;
	bool running = false;
	int32_t np;
	P **ap = allpsnapshot(&np);
	for (int32_t i = 0; i < np; i++) {
		P *pp = ap[i];
		uint32_t s = __atomic_load_n(&pp->status, __ATOMIC_ACQUIRE);
		if (s != Prunning && s != Psyscall)
			continue;
		uint32_t t = __atomic_load_n(&pp->schedtick, __ATOMIC_RELAXED);
		if (pp->sysmonschedtick != t) {
			n += pp->sysmonpreempted != 0;
			pp->sysmonschedtick = t;
			pp->sysmonschedwhen = now;
			pp->sysmonpreempted = 0;
			pp->sysmonnextpreempt = 0;
		}
		int64_t end = pp->sysmonschedwhen + forcePreemptNS;
		running = true;
		if (s == Psyscall) {
			/* A goroutine whose slice is over, caught in a system
			 * call (even a short one: it makes many), loses its P
			 * now, as Go's retake does (sysretake): it cannot be
			 * preempted there, and the P's queue waits. */
			n += retakesyscall(pp, now, end <= now);
			continue;
		}
		if (end > now) {
			if (end < *wake)
				*wake = end;
			continue;
		}
		if (pwantsrun(pp, now)) {
			if (now >= pp->sysmonnextpreempt && preemptone(pp, NULL)) {
				/* again soon if it does not stop (a goroutine in
				 * a long runtime call or system call refuses),
				 * backing off from 20 µs to 10 ms */
				int64_t d = 20 * 1000LL << (pp->sysmonpreempted < 9 ? pp->sysmonpreempted : 9);
				pp->sysmonpreempted++;
				pp->sysmonnextpreempt = now + d;
			}
			if (pp->sysmonnextpreempt < *wake)
				*wake = pp->sysmonnextpreempt;
			continue;
		}
		int64_t w = __atomic_load_n(&pp->timer0When, __ATOMIC_ACQUIRE);
		if (w != 0 && w < *wake)
			*wake = w;
	}
	/* a slice that starts while sysmon sleeps is seen within sysmonNoticeNS */
	if (running && now + sysmonNoticeNS < *wake)
		*wake = now + sysmonNoticeNS;
	return n;
}

/* The system monitor, on its own M without a P (Go's sysmon): preempts
 * goroutines that hold a P too long (retake), starts an M when timers are
 * overdue, runs the background scavenger, prints schedtrace.  It sleeps 20 µs, doubling after 1 ms of
 * nothing up to 10 ms (Go's rule), but never past the moment retake says
 * it must look; with every P idle it sleeps until the next timer. */
static void sysmon(void) {
	lock(&sched.lock);
	sched.nmsys++;
	checkdead();
	unlock(&sched.lock);
	int64_t lasttrace = 0, wake = INT64_MAX, now = nanotime(), scavwake = INT64_MAX;
	int idle = 0;
	uint32_t delay = 0;
	for (;;) {
		if (idle == 0)
			delay = 20; /* start with a 20 µs sleep... */
		else if (idle > 50)
			delay *= 2; /* ...then double it after 1 ms of nothing */
		if (delay > 10 * 1000)
			delay = 10 * 1000; /* up to 10 ms */
		uint32_t sleep = delay;
		if (wake - now < (int64_t)sleep * 1000)
			sleep = wake > now ? (uint32_t)((wake - now + 999) / 1000) : 1;
		usleep_(sleep);
		now = nanotime();
		if (gl_debug.schedtrace <= 0 && (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) ||
						 __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) == gomaxprocs)) {
			lock(&sched.lock);
			if (__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) ||
			    __atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) == gomaxprocs) {
				int64_t next = timeSleepUntil();
				if (next > now) {
					__atomic_store_n(&sched.sysmonwait, 1, __ATOMIC_RELEASE);
					unlock(&sched.lock);
					int64_t sleep = forcegcperiod / 2;
					if (next - now < sleep)
						sleep = next - now;
					if (scavwake - now < sleep) /* the scavenger's next step */
						sleep = scavwake > now ? scavwake - now : 1;
					notetsleep(&sched.sysmonnote, sleep);
					lock(&sched.lock);
					__atomic_store_n(&sched.sysmonwait, 0, __ATOMIC_RELEASE);
					noteclear(&sched.sysmonnote);
				}
				idle = 0;
				delay = 20;
			}
			unlock(&sched.lock);
			now = nanotime();
		}
		/* The poller, if nobody looked for 10 ms (every P busy with
		 * goroutines that do not block): its goroutines go to the
		 * global queue, with Ms for idle Ps. */
		int64_t lastpoll = __atomic_load_n(&sched.lastpoll, __ATOMIC_ACQUIRE);
		if (netpollinited() && lastpoll != 0 && lastpoll + 10 * 1000 * 1000 < now) {
			__atomic_compare_exchange_n(&sched.lastpoll, &lastpoll, now, false, __ATOMIC_ACQ_REL,
						    __ATOMIC_RELAXED);
			G *list = netpoll(0);
			if (list != NULL) {
				incidlelocked(-1); /* as retakesyscall: checkdead must not run meanwhile */
				injectglist(list, traceWhyNetpoll);
				incidlelocked(1);
			}
		}
		/* timers that should have run already (their P runs a G that
		 * does not yield): an M that steals them */
		if (timeSleepUntil() < now)
			startm(NULL, false);
		wake = INT64_MAX;
		if (retake(now, &wake) != 0) {
			/* a P began a new slice after a preemption: a few
			 * more quick looks, then back off as usual */
			idle = 50 - sysmonBurstLooks;
			delay = 20;
		} else {
			idle++;
		}
		/* free heap memory over the goal back to the kernel, paced
		 * (mgcscavenge.c says why here and not in a goroutine) */
		scavwake = bgscavenge(now);
#ifdef GL_GC_BOEHM
		G *fg = boehmsysmon();
		if (fg != NULL) {
			fg->schedlink = NULL;
			incidlelocked(-1); /* as for the poller's list above */
			injectglist(fg, traceWhyNone);
			incidlelocked(1);
		}
#endif
		if (scavwake < wake)
			wake = scavwake;
		if (gl_debug.schedtrace > 0 && lasttrace + (int64_t)gl_debug.schedtrace * 1000000 <= now) {
			lasttrace = now;
			schedtrace(gl_debug.scheddetail > 0);
		}
	}
}

/* ---- start-up ---- */

void exit_m(void *code) {
	exit((int)(intptr_t)code);
}

static void startsysmon(void *arg) {
	(void)arg;
	/* The main goroutine's slice began a moment ago: time it from now,
	 * not from sysmon's first look, which a new thread may take
	 * milliseconds to make (bench/preempt's first sleep then took 13 ms). */
	int64_t now = nanotime();
	for (int32_t i = 0; i < gomaxprocs; i++) {
		allp[i]->sysmonschedtick = allp[i]->schedtick;
		allp[i]->sysmonschedwhen = now;
	}
	lock(&sched.lock);
	int64_t id = mReserveID();
	unlock(&sched.lock);
	newm(sysmon, NULL, id);
}

/* The main goroutine (Go's runtime.main): sysmon, package initialisation,
 * then main.main, then exit(0) — whatever other goroutines are doing. */
static void runtime_main(G *g, void *arg) {
	(void)arg;
	mainStarted = true;
	systemstack(startsysmon, NULL);
	main_init(g);
	main_main(g);
	systemstack(exit_m, (void *)0);
}

/* m0's g0 is the OS thread's stack: from a little above here down to
 * the RLIMIT_STACK limit (at most 8 MiB counted), minus a margin. */
static void g0stack(G *gp) {
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	struct rlimit rl;
	uint64_t size = 8 << 20;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < size)
		size = rl.rlim_cur;
	gp->stack.hi = sp + 1024;
	gp->stack.lo = gp->stack.hi - size + 64 * 1024;
	gp->stackguard0 = gp->stack.lo + GL_STACK_GUARD;
}

/* The CPUs this process may run on (Go's getproccount). */
static int32_t getproccount(void) {
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}

static void schedinit(void) {
#ifdef GL_GC_BOEHM
	boehminit();
#endif
	m0.g0 = &g0;
	m0.id = 0;
	g0.m = &m0;
	g0.goid = 0;
	g0.atomicstatus = Grunning;
	g0stack(&g0);
	setg(&g0);
	m0.procid = (int64_t)gettid();
	mcommoninit(&m0);
	sched.mnext = 1; /* m0 */
	sched.maxmcount = maxmcount;
	sched.lastpoll = nanotime();
	runtimeInitTime = sched.lastpoll;
	ncpu = getproccount();
	cpuinit();
	parsedebugvars();
	if (gl_debug.trace != NULL)
		traceStart(gl_debug.trace);
	writeBarrier.enabled = gl_debug.wbforce != 0;
	wbshadowInit();
	mallocinit();
	stackinit();
	tracebackinit();
	netpollinit();
	alginit();
	initsig();
	minitSignalStack(&m0);
#ifdef GL_GC_BOEHM
	boehmminit(&m0, NULL);
#endif
	int32_t procs = ncpu;
	gorootinit(); /* os_linux.c: runtime.GOROOT reads the environment of the start */
	const char *s = getenv("GLMAXPROCS");
	if (s != NULL) {
		char *end;
		long n = strtol(s, &end, 10);
		if (end != s && *end == 0 && n > 0)
			procs = n > 1024 ? 1024 : (int32_t)n;
	}
	lock(&sched.lock);
	if (procresize(procs) != NULL)
		gl_throw("unknown runnable goroutine during bootstrap");
	unlock(&sched.lock);
}

int gl_main(int argc, char **argv, void (*maininit)(G *), void (*mainmain)(G *)) {
	gl_argc = argc;
	gl_argv = argv;
	main_init = maininit;
	main_main = mainmain;
	schedinit();
	G *mg = newproc1(runtime_main, NULL, GL_STACK_MIN);
	runqput(m0.p, mg, false);
	gl_mstart(mstart1);
}

/* ---- package runtime's functions in C (stdlib/runtime) ---- */

int64_t runtime_GOMAXPROCS(G *g, int64_t n) {
	(void)g;
	return procresize_request(n > 1024 ? 1024 : (int32_t)n);
}

int64_t runtime_NumCPU(G *g) {
	(void)g;
	return ncpu;
}

int64_t runtime_NumGoroutine(G *g) {
	(void)g;
	return gcount();
}

void runtime_Gosched(G *g) {
	(void)g;
	gosched();
}

void runtime_Goexit(G *g) {
	gl_goexit(g);
}

/* ---- package sync's hooks (Go's sync_runtime_canSpin etc.) ---- */

enum { active_spin = 4, active_spin_cnt = 30 };

/* Whether sync.Mutex.Lock should spin rather than park: only a few times,
 * on a multicore machine, with GOMAXPROCS > 1 and another P running (the
 * one that will unlock), and nothing else to run here. */
bool sync_runtime_canSpin(G *g, int64_t i) {
	if (i >= active_spin || ncpu <= 1 ||
	    gomaxprocs <= __atomic_load_n(&sched.npidle, __ATOMIC_RELAXED) +
				  __atomic_load_n(&sched.nmspinning, __ATOMIC_RELAXED) + 1)
		return false;
	return runqempty(g->m->p);
}

void sync_runtime_doSpin(G *g) {
	(void)g;
	procyield(active_spin_cnt);
}

int64_t sync_runtime_nanotime(G *g) {
	(void)g;
	return nanotime();
}

/* GLDEBUG=mutexpolicy=go: sync.Mutex runs Go's algorithm, not gl's
 * adaptive hand-off (stdlib/sync/mutex.gl). */
bool sync_runtime_mutexPolicyGo(G *g) {
	(void)g;
	return gl_debug.mutexpolicygo != 0;
}

/* GLDEBUG=mutexstats=1: sync.Mutex counts its fast, spinning and barging
 * acquisitions too (a shared counter on the hot path: off by default). */
bool sync_runtime_mutexStats(G *g) {
	(void)g;
	return gl_debug.mutexstats != 0;
}

/* For sync.Mutex's sampling of hold times. */
uint32_t sync_runtime_fastrand(G *g) {
	(void)g;
	return fastrand();
}

/* sync.Pool's pin (Go's procPin): with the M's lock count raised, the
 * goroutine is neither preempted (canpreemptm: a stop-the-world's
 * request is dropped, and repeated) nor allowed to park, so it stays on
 * its P, and no stop-the-world — no collection, whose first pause
 * empties the pools (mgc.c, clearpools) — completes until it unpins.
 * It must not block meanwhile.  The P's id picks the pool's shard
 * (stdlib/sync/pool.gl). */
int64_t sync_runtime_procPin(G *g) {
	M *mp = g->m;
	mp->locks++;
	return mp->p->id;
}

void sync_runtime_procUnpin(G *g) {
	g->m->locks--;
}

/* How many shards a pool needs: one per P. */
int64_t sync_runtime_procCount(G *g) {
	(void)g;
	return __atomic_load_n(&gomaxprocs, __ATOMIC_RELAXED);
}

/* The wait of a pool shard's spin lock, whose holder is pinned on
 * another P (so it runs, and lets go within a few instructions): pause a
 * little, and after many tries give the CPU away, in case the holder's
 * thread is waiting for it (more Ps than CPUs). */
void sync_runtime_poolSpin(G *g, int64_t tries) {
	(void)g;
	if (tries < 64)
		procyield(16);
	else
		osyield();
}
