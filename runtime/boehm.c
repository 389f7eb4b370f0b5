/*
 * boehm.c — the comparison runtime's heap: the Boehm-Demers-Weiser
 * conservative collector (Debian's libgc) in place of gl's own, for
 * `./configure --with-gc=boehm` and `glc build -gc=boehm` only.  The
 * point is to measure, on the same programs, what gl's precise
 * concurrent collector buys over a conservative stop-the-world one
 * (docs/gc.md, "gl on Boehm").  Everything else — scheduler, stacks,
 * channels, preemption — is the same code; this file is compiled into
 * libglrt_boehm.a only, and the hooks that call it elsewhere are under
 * #ifdef GL_GC_BOEHM.
 *
 * What Boehm must see, and how it does:
 *
 *   - Package variables: the executable's data and bss, which Boehm
 *     scans by itself (conservatively, so gl's GL_GLOBAL_ROOT records
 *     are not used).
 *   - Objects: every mallocgc is a GC_malloc (GC_malloc_atomic for a
 *     pointer-free type), scanned conservatively word by word.
 *   - Threads: every M's thread is registered (boehmminit), so Boehm's
 *     stop-the-world signal reaches it.  Boehm scans a stopped thread
 *     from its stack pointer up — but the stack pointer of an M that runs
 *     a goroutine is inside a 2 KiB goroutine stack, nowhere near its
 *     thread's stack.  So the signal runs on the M's signal stack
 *     (SA_ONSTACK, added to Boehm's handlers here), that stack is
 *     registered with Boehm as the thread's "altstack", and Boehm then
 *     scans only it: the handler's frames and the interrupted registers
 *     in the signal frame — the vector registers too, so an M zeroes
 *     them before it sleeps (gl_clearvectors: an idle M's xmm0 kept a
 *     copied pointer, and its object, alive for as long as it slept).  Every other stack is pushed by pushroots
 *     (after Boehm's own procedure, which scans those altstacks and the
 *     collecting thread: leaving it out lost every thread's registers,
 *     and live objects were freed): each goroutine's stack from its
 *     stack pointer up — saved in G.sched while it is switched out, where
 *     the signal found its M while it runs (suspendwrap records it) —
 *     and each M's g0 stack from its stack pointer up to where
 *     gl_mstart left it (nothing, if the M was on a goroutine stack:
 *     every switch to g0 starts there).  Below a stack pointer are
 *     dead frames, whose stale words would keep garbage alive; a dead
 *     goroutine's last frames are zeroed (boehmgfput).  This is Crystal's problem (fibers
 *     on Boehm); Crystal instead moves the thread's stack bottom with
 *     GC_set_stackbottom at every fiber switch, under a lock — a cost
 *     on every switch that this way does not have.  The collecting
 *     thread itself is always on g0 (every call into libgc that may
 *     collect is made there), so Boehm's own scan of it is right.
 *   - The runtime's own records outside the heap (Gs, Ms, Ps, sudogs,
 *     timers, finalizers due): the same slots gl's collector marks
 *     (gcscanruntime), pushed one by one.
 *
 * And what must not happen meanwhile: a goroutine's stack moving
 * (copystack) while Boehm reads G.stack — boehmstackbegin/end hold off
 * a collection around it.
 *
 * Finalizers are registered with Boehm (ignoring self-pointers: Go's
 * order), which reports the unreachable ones; they go to gl's finq and
 * gl's finalizer goroutine runs them, as with gl's collector.
 */
#ifdef GL_GC_BOEHM
#define _GNU_SOURCE /* REG_RSP */
#define GC_THREADS
#define GC_NO_THREAD_REDIRECTS /* gl creates its threads and registers them itself */
#include <gc/gc.h>
#include <gc/gc_mark.h>

#include "rt.h"

#include <signal.h>
#include <stdio.h>
#include <ucontext.h>
#include <unistd.h>

/* ---- stacks ---- */

/* The round of the current collection's stop-the-world: a thread's
 * recorded stack pointer (M.boehmsp) is this collection's only if its
 * M.boehmround matches (an M whose thread exited is not stopped). */
static uint32_t boehmround;

/* Boehm's own handler of its suspend signal, which suspendwrap calls. */
static struct sigaction boehmsuspend;

/* Boehm's suspend signal, on the M's signal stack: note where the
 * thread was stopped, then Boehm's handler (which waits there until the
 * world restarts). */
static void suspendwrap(int sig, siginfo_t *info, void *ctx) {
	G *g = tls_g;
	if (g != NULL) {
		ucontext_t *uc = ctx;
		M *mp = g->m;
		mp->boehmsp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
		__atomic_store_n(&mp->boehmround, __atomic_load_n(&boehmround, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
	}
	if (boehmsuspend.sa_flags & SA_SIGINFO)
		boehmsuspend.sa_sigaction(sig, info, ctx);
	else
		boehmsuspend.sa_handler(sig);
}

/* os/signal must leave these two to Boehm (sigqueue.c). */
bool boehmsignal(int s) {
	return s == GC_get_suspend_signal() || s == GC_get_thr_restart_signal();
}

/* Boehm's signals on the signal stack: a signal frame (some 1-3 KiB with
 * the vector state) does not fit on a 2 KiB goroutine stack.  The
 * suspend signal goes through suspendwrap; gl's own handlers block both
 * (their masks are full), so Boehm never stops a thread inside one. */
static void onsignalstack(void) {
	int sig = GC_get_suspend_signal();
	struct sigaction sa;
	sigaction(sig, NULL, &boehmsuspend);
	sa = boehmsuspend;
	sa.sa_flags = (boehmsuspend.sa_flags | SA_ONSTACK | SA_SIGINFO);
	sa.sa_sigaction = suspendwrap;
	sigaction(sig, &sa, NULL);
	int restart = GC_get_thr_restart_signal();
	if (restart != sig) {
		sigaction(restart, NULL, &sa);
		sa.sa_flags |= SA_ONSTACK;
		sigaction(restart, &sa, NULL);
	}
}

/* Push [lo, hi) for Boehm to scan now, if it is a plausible stack (a
 * G's two stack words are written one at a time: a stack being set up
 * or dropped reads as 0 in one of them). */
static void pushrange(uintptr_t lo, uintptr_t hi) {
	if (lo == 0 || hi <= lo || hi - lo > ((uintptr_t)1 << 32))
		return;
	GC_push_all_eager((void *)lo, (void *)hi);
}

/* x86-64's red zone: a leaf function may keep data in the 128 bytes
 * below its stack pointer, which a signal does not touch. */
enum { redZone = 128 };

/* The live part of mp's g0 stack.  The collecting thread's own stack is
 * Boehm's to scan; an M not stopped this round has no thread.  An M
 * asleep in mPark (M.blocked) is not scanned: its frames are the
 * scheduler's (schedule, findRunnable, stopm), which hold G, M, P and
 * sudog records, outside Boehm's heap, and no heap pointer — but their
 * uninitialised slots hold stale words of earlier calls on g0 (a go
 * statement's closure, passed through newproc), which kept garbage
 * alive for as long as the M slept: testdata/run/finalizer_goroutine
 * found one of its 20 objects never finalized in 8-10 runs of 100 at
 * GLMAXPROCS=8.  Above M.g0base, where gl_mstart left g0 and every mcall
 * and systemstack starts, is only the thread's start (gl_mstart,
 * mstart_thread, glibc's start_thread; on m0 gl_main and the C start),
 * which holds no heap pointer but words that look like one: glibc's
 * copies of the stack's upper end, the first byte of whatever is mapped
 * next — often a block of Boehm's heap (boehmminit).  So the scan ends
 * there.  An M on a goroutine stack has no live frame on g0 except those
 * of a C function that called back into gl, which are above g0.sched.sp
 * (cgocallback moves it below them). */
static void pushg0(M *mp) {
	G *g0p = mp->g0;
	if (g0p == NULL || mp == getm() || mp->dead || __atomic_load_n(&mp->blocked, __ATOMIC_ACQUIRE))
		return;
	if (__atomic_load_n(&mp->boehmround, __ATOMIC_RELAXED) != boehmround)
		return;
	uintptr_t sp = mp->boehmsp, top = mp->g0base;
	if (top == 0)
		top = g0p->stack.hi; /* before gl_mstart */
	if (sp >= g0p->stack.lo && sp < g0p->stack.hi)
		pushrange(sp - redZone, top);
	else
		pushrange(g0p->sched.sp, top);
}

static void pushslot(uintptr_t *slot, void *arg) {
	(void)arg;
	GC_push_all_eager(slot, slot + 1);
}

/* Boehm's push_other_roots: the world is stopped, by Boehm; nothing
 * here may take a runtime lock (a stopped thread may hold it). */
static bool rootsready; /* m0 is set up (boehmminit): before, there are no gl roots */

/* The stack pointers of the Ms stopped this round (nsps of them): where
 * the goroutines that were running are. */
enum { maxsps = 256 };
static uintptr_t sps[maxsps];
static int nsps;

/* The live part of gp's stack.  Switched out, gp's registers and frames
 * are from sched.sp up (asm_amd64.S: sched.sp is 0 only while it runs);
 * running, from the stopped M's sp that lies in it.  Below is dead frames,
 * whose stale pointers would keep garbage alive (a finished goroutine's
 * stack stays with its G for reuse).  A running G no M's sp is in (an M
 * past maxsps) is scanned whole. */
static void pushg(G *gp) {
	uintptr_t lo = gp->stack.lo, hi = gp->stack.hi, sp = gp->sched.sp;
	if (sp == 0 || sp < lo || sp >= hi) {
		sp = lo;
		for (int i = 0; i < nsps; i++)
			if (sps[i] >= lo && sps[i] < hi)
				sp = sps[i] - redZone;
	}
	pushrange(sp < lo ? lo : sp, hi);
}

/* gp finished and goes to the free list, keeping its stack for reuse.
 * Its last frames (gl_gostart's, holding the go statement's closure,
 * down to goexit's mcall) are zeroed, or Boehm would read them as roots
 * for as long as the G waits: a dead goroutine keeps nothing alive. */
void boehmgfput(G *gp) {
	uintptr_t sp = gp->sched.sp;
	if (sp >= gp->stack.lo && sp < gp->stack.hi)
		memset((void *)sp, 0, gp->stack.hi - sp);
}

static GC_push_other_roots_proc pushthreads; /* Boehm's own: the threads' stacks and registers */

static void pushroots(void) {
	pushthreads();
	if (!__atomic_load_n(&rootsready, __ATOMIC_ACQUIRE))
		return;
	nsps = 0;
	for (M *mp = __atomic_load_n(&allm, __ATOMIC_ACQUIRE); mp != NULL; mp = mp->alllink) {
		pushg0(mp);
		if (mp != getm() && __atomic_load_n(&mp->boehmround, __ATOMIC_RELAXED) == boehmround && nsps < maxsps)
			sps[nsps++] = mp->boehmsp;
	}
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++)
		pushg(gs[i]);
	gcscanruntime(pushslot, NULL);
}

/* copystack: no collection from here to boehmstackend (GC_disable waits
 * for one under way to end).  A G's stack words are then never read
 * half written, nor a stack read after it was freed. */
void boehmstackbegin(void) {
	GC_disable();
}

void boehmstackend(void) {
	GC_enable();
}

/* ---- threads ---- */

/* The M's thread, and its signal stack, made known to Boehm (m0's thread
 * is registered by GC_INIT); base: the frame of the thread's start
 * function, the upper end of what Boehm scans of this thread when it
 * collects on it.  Not the stack's own end (GC_get_stack_base), which is
 * also where the next mapping up begins — often a block of Boehm's heap
 * — and which Boehm would keep in its record of the thread, a heap
 * object it scans: a pointer to that block's first byte, keeping it alive
 * for the thread's life.  At exit from 60 runs of
 * testdata/run/finalizer_pacer (GLMAXPROCS=4), a block began at some M's
 * stack end in 38; in the one that failed, it was an old copy of Boehm's
 * finalizer table (dropped when the table grew), whose entries held
 * finalized blocks and the chains they headed, so most finalizers never
 * ran — about 1 run in 90.  Above base are glibc's frames, with such
 * copies too (the same reason for pushg0's bound, and for clearing the
 * attributes in mstart_thread).
 * Before the thread unblocks signals — and so with no collection allowed
 * meanwhile: one that began after the thread was registered would wait
 * for it to answer the stop signal, while the thread, signals blocked,
 * waited for Boehm's lock to register its signal stack (seen: "Signals
 * delivery fails constantly", 1 run in 5). */
void boehmminit(M *mp, void *base) {
	GC_disable();
	if (mp != &m0) {
		struct GC_stack_base sb = {.mem_base = base};
		GC_register_my_thread(&sb);
	}
	G *g0p = mp->g0, *gs = mp->gsignal;
	GC_register_altstack((void *)g0p->stack.lo, g0p->stack.hi - g0p->stack.lo, (void *)gs->stack.lo,
			     gs->stack.hi - gs->stack.lo);
	GC_enable();
	if (mp == &m0)
		__atomic_store_n(&rootsready, true, __ATOMIC_RELEASE);
}

static uint64_t exitedmallocs; /* boehmmallocs of the Ms that exited (atomic) */

void boehmmexit(void) {
	__atomic_add_fetch(&exitedmallocs, getm()->boehmmallocs, __ATOMIC_RELAXED);
	GC_unregister_my_thread();
}

/* ---- collections: gctrace and MemStats' pauses ---- */

static int64_t boehmstart, gcstart, stwstart;
static uint64_t heapbefore;

static void tracebuf(char *buf, size_t n) {
	ssize_t r = write(2, buf, n);
	(void)r;
}

/* One line per collection, in Go's gctrace shape as far as Boehm tells:
 * the stop-the-world (all of Boehm's marking), the heap in use before
 * and after, the heap's size. */
static void tracecycle(uint32_t n, int64_t end, int64_t pause) {
	char buf[256];
	uint64_t heap = GC_get_heap_size(), free = GC_get_free_bytes();
	int len = snprintf(buf, sizeof buf,
			   "gc %u @%.3fs: %.3f ms clock (world stopped: boehm), %llu->%llu MB, %llu MB heap, %d P\n", n,
			   (double)(end - boehmstart) / 1e9, (double)pause / 1e6,
			   (unsigned long long)(heapbefore >> 20), (unsigned long long)((heap - free) >> 20),
			   (unsigned long long)(heap >> 20), gomaxprocs);
	tracebuf(buf, (size_t)len);
}

/* Boehm's collection events, on the collecting thread with Boehm's lock
 * held (so no runtime lock here either). */
static void collectionevent(GC_EventType e) {
	switch (e) {
	case GC_EVENT_START:
		boehmPoolsDue();
		gcstart = nanotime();
		heapbefore = GC_get_heap_size() - GC_get_free_bytes();
		break;
	case GC_EVENT_PRE_STOP_WORLD:
		__atomic_add_fetch(&boehmround, 1, __ATOMIC_RELAXED);
		stwstart = nanotime();
		break;
	case GC_EVENT_POST_START_WORLD: {
		int64_t now = nanotime(), pause = now - stwstart;
		uint32_t n = gcstats.numgc + 1;
		gcstats.pauseNs[(n + 255) % 256] = (uint64_t)pause;
		gcstats.pauseEnd[(n + 255) % 256] = (uint64_t)walltime(); /* also LastGC, as Go's */
		gcstats.pauseTotalNs += (uint64_t)pause;
		gcRecordPause(pause); /* runtime/metrics' /gc/pauses:seconds */
		break;
	}
	case GC_EVENT_END: {
		int64_t now = nanotime();
		uint32_t n = gcstats.numgc + 1;
		gcstats.lastGC = gcstats.pauseEnd[(n + 255) % 256];
		__atomic_store_n(&gcstats.numgc, n, __ATOMIC_RELEASE);
		if (gl_debug.gctrace > 0)
			tracecycle(n, now, (int64_t)gcstats.pauseNs[(n + 255) % 256]);
		(void)gcstart;
		break;
	}
	default:
		break;
	}
}

/* ---- the heap ---- */

typedef struct boehmalloc {
	uint64_t size;
	bool noscan, needzero;
	void *p;
} boehmalloc;

static void boehmfinq_m(void *arg);
static bool boehmfindue; /* Boehm has finalizers ready (atomic) */

static void mallocgc_m(void *arg) {
	boehmalloc *a = arg;
	a->p = a->noscan ? GC_malloc_atomic(a->size) : GC_malloc(a->size);
	if (a->p == NULL)
		gl_throw("out of memory");
	if (a->noscan && a->needzero)
		memset(a->p, 0, a->size);
	M *mp = getm();
	__atomic_store_n(&mp->boehmmallocs, mp->boehmmallocs + 1, __ATOMIC_RELAXED);
	if (GL_UNLIKELY(__atomic_load_n(&boehmfindue, __ATOMIC_RELAXED))) {
		if (mp->locks == 0 && mp->p != NULL)
			boehmfinq_m(NULL);
	}
}

/* mallocgc's work (malloc.c hands every allocation here): on g0, where
 * a collection that this allocation starts runs with the thread's
 * stack pointer on the thread's own stack. */
void *boehmmallocgc(uint64_t size, const GlType *typ, bool needzero) {
	boehmalloc a = {size, typ == NULL || typ->ptrdata == 0, needzero, NULL};
	G *g = getg();
	if (g == getm()->g0 || g == getm()->gsignal)
		mallocgc_m(&a);
	else
		systemstack(mallocgc_m, &a);
	return a.p;
}

/* SetGCPercent: Boehm allows (twice the pointerful heap + the roots) /
 * divisor bytes of allocation between collections, Go live * GOGC/100:
 * for a heap of pointerful objects, divisor = 200 / GOGC. */
static mutex gcofflock = MUTEX(lockRankGcoff); /* guards gcoff and the GC_disable it stands for */
static bool gcoff;      /* GLGC=off: one GC_disable held */

void boehmsetgcpercent(int32_t percent) {
	lock(&gcofflock);
	if (percent < 0 && !gcoff)
		GC_disable();
	else if (percent >= 0 && gcoff)
		GC_enable();
	gcoff = percent < 0;
	unlock(&gcofflock);
	if (percent < 0)
		return;
	unsigned long d = percent > 0 ? (200 + (unsigned long)percent / 2) / (unsigned long)percent : 200;
	GC_set_free_space_divisor(d < 1 ? 1 : d);
}

/* One whole collection, for runtime.GC and FreeOSMemory (unmap: and the
 * free blocks back to the kernel).  GC_gcollect does nothing while a
 * GC_disable holds (copystack's, a new M's, GLGC=off's): it is tried
 * again until a collection has ended, as Go's runtime.GC always collects. */
static void collectnow(bool unmap) {
	uint32_t n0 = __atomic_load_n(&gcstats.numgc, __ATOMIC_ACQUIRE);
	lock(&gcofflock);
	if (gcoff)
		GC_enable();
	for (;;) {
		if (unmap)
			GC_gcollect_and_unmap();
		else
			GC_gcollect();
		if (__atomic_load_n(&gcstats.numgc, __ATOMIC_ACQUIRE) != n0)
			break;
		usleep(50); /* a GC_disable is held for a moment: try again */
	}
	if (gcoff)
		GC_disable();
	unlock(&gcofflock);
}

static void gcollect_m(void *arg) {
	(void)arg;
	collectnow(false);
	boehmfinq_m(NULL);
}

/* runtime.GC: a full collection, then the finalizers it found are
 * queued and fing runs before this returns (as gl's runtime.GC). */
void boehmGC(void) {
	systemstack(gcollect_m, NULL);
	if (wakefing())
		gosched();
}

static void freeosmemory_m(void *arg) {
	(void)arg;
	/* Boehm sweeps lazily: the blocks a collection frees are free blocks,
	 * which an unmap can return, only after the next one's sweep */
	collectnow(false);
	collectnow(true);
	boehmfinq_m(NULL);
}

void boehmFreeOSMemory(void) {
	systemstack(freeosmemory_m, NULL);
}

/* MemStats' heap fields, from Boehm's figures (the objects are not
 * counted: Mallocs, Frees and HeapObjects stay 0). */
void boehmReadMemStats(uint64_t *heapalloc, uint64_t *heapsys, uint64_t *heapidle, uint64_t *heapreleased,
		       uint64_t *totalalloc, uint64_t *nextgc, uint64_t *mallocs) {
	*mallocs = __atomic_load_n(&exitedmallocs, __ATOMIC_RELAXED);
	for (M *mp = __atomic_load_n(&allm, __ATOMIC_ACQUIRE); mp != NULL; mp = mp->alllink)
		*mallocs += __atomic_load_n(&mp->boehmmallocs, __ATOMIC_RELAXED);
	struct GC_prof_stats_s s;
	GC_get_prof_stats(&s, sizeof s);
	*heapsys = s.heapsize_full;
	*heapidle = s.free_bytes_full;
	*heapreleased = s.unmapped_bytes;
	*heapalloc = s.heapsize_full - s.free_bytes_full;
	*totalalloc = s.allocd_bytes_before_gc + s.bytes_allocd_since_gc;
	*nextgc = *heapalloc + s.bytes_allocd_since_gc; /* roughly: Boehm does not say */
}

/* ---- finalizers ---- */

/* What SetFinalizer gave, kept by Boehm with the object's registration
 * (its finalizer table is scanned, so these stay alive). */
typedef struct boehmfin {
	GlFunc *fn;
	const GlType *ft, *fint, *ot;
} boehmfin;

/* Boehm found obj unreachable: queue fn(obj) for fing (mfinal.c), which
 * keeps obj alive until it has run. */
static void finalizeobj(void *obj, void *cd) {
	boehmfin *f = cd;
	queuefinalizer((uintptr_t)obj, f->fn, f->ft, f->fint, f->ot);
}

/* Boehm queued finalizers (a collection's end, Boehm's lock held): only
 * a flag; the next allocation without runtime locks, runtime.GC or
 * sysmon moves them to finq and wakes fing. */
static void finalizernotify(void) {
	__atomic_store_n(&boehmfindue, true, __ATOMIC_RELEASE);
}

static void boehmfinq_m(void *arg) {
	(void)arg;
	if (!__atomic_exchange_n(&boehmfindue, false, __ATOMIC_ACQ_REL))
		return;
	GC_invoke_finalizers();
	wakefing();
}

/* From sysmon (no P, no lock): finalizers Boehm found, to finq; fing,
 * if it is to run them, for sysmon to inject (goready needs a P). */
G *boehmsysmon(void) {
	if (!__atomic_exchange_n(&boehmfindue, false, __ATOMIC_ACQ_REL))
		return NULL;
	GC_invoke_finalizers();
	return fingtowake();
}

/* The start of the allocated object p points into, or 0. */
uintptr_t boehmbase(uintptr_t p) {
	return (uintptr_t)GC_base((void *)p);
}

/* SetFinalizer's record: false if obj had one.  On g0. */
bool boehmaddfinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot) {
	boehmfin *f = GC_malloc(sizeof *f);
	if (f == NULL)
		gl_throw("out of memory");
	*f = (boehmfin){fn, ft, fint, ot};
	GC_finalization_proc ofn = NULL;
	void *ocd = NULL;
	GC_register_finalizer_ignore_self((void *)p, finalizeobj, f, &ofn, &ocd);
	if (ofn != NULL) { /* it had one: put it back */
		GC_register_finalizer_ignore_self((void *)p, ofn, ocd, NULL, NULL);
		return false;
	}
	return true;
}

void boehmremovefinalizer(uintptr_t p) {
	GC_register_finalizer_ignore_self((void *)p, NULL, NULL, NULL, NULL);
}

/* ---- start-up ---- */

/* First thing in schedinit, on the main thread: Boehm, its hooks and
 * GLGC; m0's signal stack is registered later (boehmminit). */
void boehminit(void) {
	boehmstart = nanotime();
	GC_set_finalize_on_demand(1);
	GC_set_finalizer_notifier(finalizernotify);
	GC_set_on_collection_event(collectionevent);
	GC_INIT();
	/* after GC_INIT, which sets Boehm's own (its thread support) */
	pushthreads = GC_get_push_other_roots();
	if (pushthreads == NULL)
		gl_throw("boehm: no procedure to scan the threads' stacks");
	GC_set_push_other_roots(pushroots);
	GC_allow_register_threads();
	onsignalstack();
}

/* After gcenvinit has read GLGC. */
void boehmgcenv(void) {
	boehmsetgcpercent(gl_gcpercent);
}

#endif /* GL_GC_BOEHM */
