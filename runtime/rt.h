/*
 * rt.h — the runtime's internal header: M, P and sched (Go's names), the
 * register block the stack switches save, raw system calls, locks, and the
 * helpers several runtime files share.  Generated code never includes it;
 * its contract with the runtime is gl.h.
 *
 * The first part is plain #defines, because asm_amd64.S includes this file
 * too: the offsets of the G and M fields the assembly touches.  The C part
 * checks each of them with a static assertion, so the two cannot drift.
 */
#ifndef GL_RT_H
#define GL_RT_H

/* ---- offsets for asm_amd64.S (checked below) ---- */
#define G_stackguard0 0
#define G_stack_hi 16
#define G_m 48
#define G_sched_sp 56
#define G_sched_pc 64
#define G_sched_bp 72
#define Gobuf_sp 0
#define M_g0 0
#define M_curg 8
#define M_gsignal 16

/* The block that gl_morestack, mcall and systemstack push on the goroutine
 * stack when they leave it, at g->sched.sp; 64 bytes with the return
 * address of the call that entered them (lowest address first):
 *	+0  x87 control word (2 bytes), pad, +4 mxcsr (4 bytes)
 *	+8  r15   +16 r14   +24 r13   +32 r12   +40 rbx
 *	+48 rbp   (the caller's frame pointer: the first link of the chain)
 *	+56 return address into the caller (= g->sched.pc)
 * gcc code keeps live values in rbx and r12–r15 across calls (Go's ABI has
 * no callee-saved registers, so Go saves only sp/pc/bp: DESIGN.md).  The
 * block is part of the stack, so copystack copies it verbatim; only the
 * rbp slot is adjusted, as the head of the saved-rbp chain. */
#define SAVEDREGS_SIZE 64
#define SAVEDREGS_RBP 48
#define SAVEDREGS_PC 56
#define FPU_CW_DEFAULT 0x037f
#define MXCSR_DEFAULT 0x1f80

#ifndef __ASSEMBLER__

#include "gl.h"

#include <stdatomic.h>

/* Thread-local storage in the initial-exec model: one %fs-relative load,
 * never a call to __tls_get_addr (libc, on the goroutine stack). */
#define GL_TLS _Thread_local __attribute__((tls_model("initial-exec")))

/* ---- locks and notes (lock_futex.c, Go's lock_futex.go) ---- */

/* The lock order: every runtime mutex has a rank, and an M may take a
 * mutex only while every mutex it holds has a lower rank — so no two Ms
 * can each hold a lock the other waits for.  Two of the same rank may be
 * held together only where the rank says so below (and then in a fixed
 * order of their own, written where they are taken).  Outermost first;
 * GLDEBUG=lockrank=1 checks every lock() against this (lockrank.c, Go's
 * lockrank.go), and lockrank=2 also prints each pair of ranks the first
 * time one is taken inside the other: the graph this order was drawn
 * from (44 pairs over the whole test suite, every GLMAXPROCS and stress
 * mode, on 2026-12-06; where two ranks never nest, their places are
 * free).  A mutex gets its rank where it is declared (MUTEX(rank)) or made
 * (lockInit); lockrank mode throws on a lock without one. */
typedef enum lockRank {
	lockRankNone,
	/* Locks held while the runtime does larger work: starting the mark
	 * worker or a goroutine (allg, sched), scanning and shrinking stacks
	 * (which locks channels) */
	lockRankBgworker,    /* mgc.c bgworkerlock: starting the background mark worker */
	lockRankGcoff,       /* boehm.c gcofflock: GLGC=off and Boehm's GC_disable */
	lockRankFfi,         /* ffi.c ffilock: the cache of ffi_cif descriptions */
	lockRankSweep,       /* mgcsweep.c sweep.lock: the background sweeper's parking */
	lockRankAssistQueue, /* mgcmark.c assistQueue.lock: parked assists */
	lockRankMarkWait,    /* mgc.c markwait.lock: runtime.GC waiting for a mark to end */
	/* The objects goroutines wait on: held while the waiter is queued or
	 * readied (sched), a sudog taken (sudog), a value stored (work) */
	lockRankPollDesc,    /* netpoll_epoll.c pollDesc.lock: pollUnblock */
	lockRankHchan,       /* GlChan.lock; select holds several, in address order */
	lockRankSemaRoot,    /* sema.c semaRoot.lock: sync.Mutex's waiters */
	lockRankNotifyList,  /* sema.c notifyList.lock: sync.Cond's waiters */
	lockRankSig,         /* sigqueue.c sig.lock: signal.Notify's tables */
	lockRankTimer,       /* timer.mu: Stop/Reset of one timer */
	lockRankTimers,      /* P.timersLock; moveTimers holds two, the world stopped */
	/* Inside the timers: a timer's heap grows under their locks, and
	 * that allocation may sweep a span and queue the finalizers it finds
	 * (a pair a CI run met once); outside the scheduler's locks, which
	 * createfing takes with finlock held (newproc: allg, sched, stack) */
	lockRankFin,         /* mfinal.c finlock: the finalizer queue */
	/* The scheduler */
	lockRankSched,       /* sched.lock: idle Ms and Ps, the global run queue */
	lockRankAllg,        /* proc.c allglock: allgs' writers */
	lockRankGFree,       /* sched.gFreelock: the global dead-G cache */
	lockRankSudog,       /* sched.sudoglock: the global sudog cache */
	/* Tables and allocators: leaves, but that one allocator calls the next */
	lockRankItab,        /* iface.c itabLock: the itab table's writers */
	lockRankProf,        /* mprof.c proflock: the profiling buckets */
	lockRankWork,        /* mgcmark.c work.lock: the lists of blocks of grey objects */
	lockRankNop,         /* malloc.c noplock: the mcache of Ms without a P */
	lockRankMcentral,    /* mcentral.lock: one size class's spans */
	lockRankSpanSpecial, /* mspan.speciallock: one span's specials */
	lockRankMheap,       /* mheap_.lock: pages, arenas, spans */
	lockRankMheapSpecial,/* mheap_.speciallock: the specials' allocators */
	lockRankStack,       /* stack.c stacklock: the global stack pools */
	lockRankPoison,      /* stackpoison.c poisonlock: GLDEBUG=efence's quarantine */
	lockRankPollCache,   /* netpoll_epoll.c pollcacheLock: free pollDescs */
	lockRankCount
} lockRank;

typedef struct mutex {
	uint32_t key;  /* 0 unlocked, 1 locked, 2 locked with waiters */
	uint32_t rank; /* lockRank; constant once set */
} mutex;
#define MUTEX(r) ((mutex){.rank = (r)})
/* Atomic, so that a mutex in memory gl code allocates (sync.Cond's
 * notifyList) can be given its rank each time before it is taken. */
static inline void lockInit(mutex *l, lockRank r) {
	__atomic_store_n(&l->rank, r, __ATOMIC_RELAXED);
}
void lock(mutex *l);
bool trylock(mutex *l); /* lock(l) if free; false otherwise */
void lockWithRank(mutex *l);    /* lockrank.c: GLDEBUG=lockrank's check, l about to be taken */
void trylockWithRank(mutex *l); /* trylock took l */
void unlockWithRank(mutex *l);  /* l about to be released */
void assertLockHeldSlow(mutex *l); /* lockrank.c; assertLockHeld, below, calls it */
void gorootinit(void);  /* os_linux.c: GOROOT at start-up, for runtime.GOROOT */
void unlock(mutex *l);

/* A one-time event an M sleeps on in the kernel (Go's note): notesleep
 * waits until notewakeup; noteclear re-arms it.  Only g0 code sleeps on a
 * note: a goroutine parks instead (gopark never enters the kernel). */
typedef struct note {
	uint32_t key; /* 0 not yet, 1 woken */
} note;
void noteclear(note *n);
void notewakeup(note *n);
void notesleep(note *n);
bool notetsleep(note *n, int64_t ns); /* false if ns passed first */

void futexsleep(uint32_t *addr, uint32_t val, int64_t ns); /* ns < 0: forever */
void futexwakeup(uint32_t *addr, uint32_t cnt);
void osyield(void);
void procyield(uint32_t cycles);
void usleep_(uint32_t us);

/* ---- M, P, sched ---- */

/* the heap: mspan, mcache (one per P), mcentral, mheap */
#include "mheap.h"

typedef struct sudog sudog;
typedef struct timer timer;

struct M {
	G *g0;           /* scheduling stack (offset 0: asm) */
	G *curg;         /* the user goroutine running on this M (asm) */
	G *gsignal;      /* signal-handling g, on the sigaltstack (asm) */
	P *p;            /* attached P, NULL when idle */
	P *nextp;        /* the P to acquire when woken (startm, startlockedm) */
	P *oldp;         /* the P it left in Psyscall (entersyscall), to take back */
	int32_t incgo;   /* C calls through libffi running on this M (ffi.c): callbacks may come */
	int64_t id;
	int64_t procid;  /* thread id */
	uint64_t fastrand;
	/* A nil dereference reported as a panic (gl_panicnil): what Go keeps in
	 * g.sig/sigcode/sigpc, printed as the "[signal ...]" line. */
	uint32_t sig;
	uintptr_t sigcode0, sigcode1, sigpc;
	bool (*waitunlockf)(G *, void *); /* gopark's: run once g is parked */
	void *waitlock;
	int32_t locks;       /* runtime locks held: no preemption, no parking */
	int32_t dying;       /* fatal error in progress on this M */
	int32_t throwing;    /* throwTypeUser (gl_fatal) or throwTypeRuntime (gl_throw) once one began */
	bool throwsystem;    /* gl_throw or gl_fatal was called on g0 or the signal stack (panic.c) */
	int32_t preprinting; /* calling Error/String of a dying panic's value */
	bool spinning;       /* looking for work without having found any */
	bool blocked;        /* sleeping on park */
	bool dead;           /* the thread exited (mexit); kept in allm for stats */
	uint32_t lockedExt;  /* runtime.LockOSThread nesting */
	uint32_t lockedInt;  /* the runtime's own lockOSThread */
	G *lockedg;          /* the goroutine locked to this thread */
	note park;           /* stopm sleeps here */
	M *schedlink;        /* sched.midle */
	void (*mstartfn)(void);
	uint64_t forcemoveticks; /* stackforcemove: prologue checks counted to pick the ones that move */
	M *alllink;          /* allm, newest first after m0 */
	/* Asynchronous preemption (preempt.c, Go's names): preemptM sends a
	 * SIGURG only while signalPending is 0, so at most one is in flight
	 * per M (Go's #37741); the handler clears it and counts preemptGen,
	 * which suspendG watches to tell that a signal was handled. */
	uint32_t signalPending; /* atomic */
	uint32_t preemptGen;    /* atomic */
	bool signalInRuntime;   /* the last signal handled found curg in runtime C (atomic) */
	int64_t signalSentAt;   /* nanotime of the tgkill in flight (the handler measures send-to-ack) */
	/* -gc=boehm only (boehm.c): where Boehm's stop signal found the
	 * thread, in Boehm's collection boehmround */
	uintptr_t boehmsp;
	uint32_t boehmround;
	/* g0.sched.sp as gl_mstart set it (mstart1): where every mcall and
	 * systemstack starts; above it only the thread's start, which no scan
	 * needs (boehm.c, pushg0) */
	uintptr_t g0base;
	uint64_t boehmmallocs; /* allocations by this M (written by it only; atomic) */
	int32_t traceback; /* if not 0, the traceback level in place of GLTRACEBACK's (Go's m.traceback) */
	/* set by allocStopCheck (malloc.c, on g0) for allocPreempt on the same
	 * M: the goroutine's assist could not pay, it parks on the assist
	 * queue rather than yield (mgcmark.c, gcParkAssist) */
	bool assistpark;
	/* GLDEBUG=trace (trace.c): the buffer this M records into (only its
	 * own thread writes it), and why its goroutine is about to become
	 * runnable (a traceWhy, set just before the status change) */
	struct traceBuf *tracebuf;
	uint8_t tracewhy;
	/* GLDEBUG=lockrank (lockrank.c): the mutexes this M holds, in the
	 * order it took them; written only by its own thread (and its signal
	 * handler, which leaves the list as it found it) */
	int32_t nlocksheld;
	struct heldLock {
		mutex *l;
		uint32_t rank;
	} locksheld[16];
};

/* P status, Go's values */
enum { Pidle = 0, Prunning = 1, Psyscall = 2, Pgcstop = 3, Pdead = 4 };

enum { runqSize = 256, sudogCacheSize = 128 };

/* Per-P stack caches (stack.c): the sizes 2, 4, 8 and 16 KiB (Go's
 * _NumStackOrders = 4 on Linux), up to stackCacheSize bytes of each. */
enum { numStackCacheOrders = 4, stackCacheSize = 32768 };

typedef struct stackfreelist {
	void *list;    /* free stacks, linked through their first word */
	uint64_t size; /* their total bytes */
} stackfreelist;

/* Go's wbBuf: the pointers the write barrier must shade, two per store
 * (the old value and the new), kept per P and flushed to the mark work
 * when full or when marking ends.  next indexes the first free entry. */
enum { wbBufEntries = 512 };
typedef struct wbBuf {
	uint32_t next;
	uintptr_t buf[wbBufEntries];
} wbBuf;

/* The resend pacing of the signals that ask one running goroutine to
 * stop (preempt.c, preemptMPaced): a suspendG's, or a stop-the-world's
 * for one P.  Zeroed when the asking begins. */
typedef struct pacing {
	bool outstanding; /* the last signal is not handled yet */
	int64_t sentAt;
	int64_t next;     /* no signal before this */
	int32_t failures; /* signals handled in gl code without the goroutine stopping */
} pacing;

struct P {
	int32_t id;
	uint32_t status;     /* atomic */
	P *link;             /* sched.pidle */
	uint32_t schedtick;  /* incremented on every scheduler call (not for runnext) */
	uint32_t syscalltick;
	M *m;                /* back-link to the M, NULL if idle */
	/* The local run queue, lock free: the owner puts at the tail, the
	 * owner and thieves take at the head with a CAS. */
	uint32_t runqhead, runqtail;
	G *runq[runqSize];
	/* The goroutine to run next, ahead of runq: the one the running G just
	 * readied.  It inherits the time slice (execute's inheritTime). */
	G *runnext;
	/* dead Gs, with their stacks, for newproc */
	G *gfree;
	int32_t gfreecnt;
	/* free sudogs (Go's sudogcache) */
	int32_t nsudog;
	sudog *sudogcache[sudogCacheSize];
	/* free stacks of the small sizes, taken and given back without a lock */
	stackfreelist stackcache[numStackCacheOrders];
	/* the write barrier's buffer (mbarrier.c): pointers to shade, in
	 * batches, so that a store pays no trip to the mark queues */
	wbBuf wbBuf;
	/* the stop-the-world's signals to this P's goroutine (proc.c,
	 * preemptall), under sched.gcwaiting's owner */
	pacing stwpacing;
	/* atomic: 1 while forEachP's function is due on this P (proc.c); the
	 * M that holds the P clears it with a CAS and runs the function */
	uint32_t runSafePointFn;
	/* the collector's mark worker that only this P gives turns (mgc.c,
	 * Go's p.gcBgMarkWorker); NULL until a mark first needs it */
	struct bgWorker *gcBgMarkWorker;
	/* the timer heap (time.c): a 4-ary min-heap on when, under timersLock */
	mutex timersLock;
	timer **timers;
	int32_t ntimers, timerscap;
	int64_t timer0When;  /* atomic: when of timers[0], 0 if none */
	bool preempt;        /* the scheduler should run soon (proc.c, retake) */
	/* sysmon's last observation, for retake (docs/preempt.md): the slice and,
	 * in Psyscall, the system call it saw (syscalltick) and since when */
	uint32_t sysmonsyscalltick;
	int64_t sysmonsyscallwhen;
	uint32_t sysmonschedtick;
	int64_t sysmonschedwhen;
	uint32_t sysmonpreempted;  /* times sysmon asked this slice's goroutine to stop */
	int64_t sysmonnextpreempt; /* and when it may ask again */
	/* the allocator's spans for this P (Go's p.mcache), used without a
	 * lock by the M holding the P: malloc.c's fast path */
	mcache mcache;
};

typedef struct schedt {
	uint64_t goidgen;       /* atomic */
	int64_t lastpoll;       /* atomic: 0 while an M is blocked in netpoll */
	int64_t pollUntil;      /* atomic: when that netpoll wakes */
	/* Guards the fields from here to gFreelock (those marked atomic are
	 * written under it and may be read without it), and stopwait; the
	 * functions that need it say so with assertLockHeld (proc.c), which
	 * GLDEBUG=lockrank checks. */
	mutex lock;
	/* idle Ms, sleeping on their park note */
	M *midle;
	int32_t nmidle;
	int32_t nmidlelocked;   /* locked Ms waiting for their goroutine */
	int64_t mnext;          /* Ms created so far, the next M's id */
	int32_t maxmcount;
	int32_t nmsys;          /* system Ms (sysmon), not counted by checkdead */
	int32_t ngsys;          /* atomic: system goroutines (fing), not counted by NumGoroutine */
	int64_t nmfreed;        /* Ms that exited */
	P *pidle;               /* idle Ps */
	int32_t npidle;         /* atomic */
	int32_t nmspinning;     /* atomic */
	/* the global run queue, linked through schedlink */
	G *runqhead, *runqtail;
	int32_t runqsize;
	/* dead Gs (Go's sched.gFree) */
	mutex gFreelock;
	G *gfree;
	int32_t ngfree;
	/* the central sudog cache */
	mutex sudoglock;
	sudog *sudogcache;
	/* stop the world */
	uint32_t gcwaiting;     /* atomic */
	int32_t stopwait;
	note stopnote;
	/* forEachP (proc.c): the function every P runs at a safe point and
	 * how many have yet to, under lock; the caller sleeps on the note */
	void (*safePointFn)(P *);
	int32_t safePointWait;
	note safePointNote;
	uint32_t sysmonwait;    /* atomic */
	note sysmonnote;
	int32_t mainexited;     /* main goroutine called Goexit */
} schedt;

extern schedt sched;
extern M m0;
extern G g0; /* m0's g0 */
extern M *allm;
extern P **allp;
extern int32_t gomaxprocs;
extern int32_t ncpu;
/* Every G ever made (a G is never freed: a dead one waits on a free
 * list for reuse).  Written under allglock (proc.c, allgadd), which a
 * reader may take.  A reader without it (the collector, sysmon, the
 * tracebacks of a fatal error, Boehm's root scan) uses atomicAllG: the
 * length first, then the array, both acquire loads; every entry below
 * that length is set in whichever array it gets, since allgadd publishes
 * a grown array (a copy: the old one stays valid, arrays are
 * persistentalloc'd) before it writes a new entry, and the entry before
 * the length. */
extern G **allgs;
extern int64_t allglen;
static inline G **atomicAllG(int64_t *n) {
	*n = __atomic_load_n(&allglen, __ATOMIC_ACQUIRE);
	return __atomic_load_n(&allgs, __ATOMIC_ACQUIRE);
}
extern int gl_argc;
extern char **gl_argv;

/* The current G, in TLS.  asm_amd64.S switches it along with the stack.
 * Runtime C that may park and resume on another thread reads it through
 * the noinline getg() (DESIGN.md S9); a leaf that cannot park may use
 * getm() below, one %fs load. */
extern GL_TLS G *tls_g;
static inline M *getm(void) {
	return tls_g->m;
}
void setg(G *gp);

/* asm_amd64.S */
void gogo(Gobuf *buf) GL_NORETURN;
void mcall(void (*fn)(G *));
void gl_mstart(void (*fn)(void)) GL_NORETURN;
void gl_clearvectors(int32_t regs); /* zero the vector registers: 0 xmm, 1 ymm, 2 zmm (asm_amd64.S) */
extern int32_t gl_x86VectorRegs;
void cpuinit(void); /* the CPU's features, at start-up (proc.c) */
void gl_gostart(void);
/* gl_morestack with an explicit need, for runtime C (stack.c, panic.c).
 * RT_STACKCHECK is runtime C's prologue (gl.h's GL_STACKCHECK): make sure
 * need bytes are free above stackguard0 below the caller's frame, growing
 * (moving) the stack if they are not, then run fixups (GL_FIXPARAM of the
 * pointer parameters).  A macro, so that the call is on the caller's line,
 * where testdata/stackusage.py reads the need.  Never on g0.  PANICSTACK is
 * the need of a panic path's entry (panic.c, alg.c): what runs below it
 * before the next check, a message's allocation and gopanic, with room. */
void gl_morestackneed(G *g, uintptr_t need);
const char *signame(uint32_t sig); /* panic.c: "SIGSEGV: segmentation violation" */
#define RT_STACKCHECK(g, need, fixups)                                         \
	do {                                                                   \
		if (GL_UNLIKELY(GL_SP() - (uintptr_t)(need) < (g)->stackguard0)) { \
			gl_morestackneed((g), (need));                         \
			fixups;                                                \
		}                                                              \
	} while (0)
#define PANICSTACK 512
/* Leave the M's scheduling loop: return from the gl_mstart call that
 * started it, on g0's stack at g0->sched.sp (the thread then exits). */
void gl_mexit(G *g0) GL_NORETURN;

/* proc.c */
void schedule(void) GL_NORETURN;
void gopark(bool (*unlockf)(G *, void *), void *lock, uint32_t reason);
void park_m(G *gp); /* gopark's half on g0: mcall it with m->waitunlockf set (preempt.c's allocPreempt) */
void goparkunlock(mutex *l, uint32_t reason);
void goready(G *gp);
void gosched(void);
void runqkick_m(void *arg); /* this P's run queue to the global one */
void phaswork_m(void *arg); /* *(bool *)arg: this P has other goroutines to run */
void goyield(void);
G *newproc(void (*fn)(G *, void *), void *arg, const char *name);
G *newprocpc(void (*fn)(G *, void *), void *arg, GlFunc *startfn, uintptr_t gopc, const char *name);
G *newproc1(void (*fn)(G *, void *), void *arg, int64_t stacksize);
void goexit1(void) GL_NORETURN;
void gopreempt_m(G *gp) GL_NORETURN;
bool canpreemptm(M *mp);
void wakep(void);
void startm(P *pp, bool spinning);
void checkmcount(void); /* under sched.lock: throws past debug.SetMaxThreads */
int32_t gcount(void);
P **allpsnapshot(int32_t *n);
int64_t nanotime(void);
int64_t walltime(void);
int64_t threadcputime(void);
void exit_m(void *code) GL_NORETURN; /* exit(code) on g0 */
const char *waitreasonstr(uint32_t reason);
void stopTheWorld(const char *reason);
void startTheWorld(void);
/* stopTheWorld's two halves, for a caller that holds worldsema across
 * other work first (mgc.c's gcMarkDone, around forEachP) */
void semacquireWorld(void);
void semreleaseWorld(void);
void stopTheWorldHeld(const char *reason);
/* fn(pp) for every P, each at a safe point of its own, without stopping
 * the world (proc.c; Go's forEachP).  From a goroutine that holds
 * worldsema (semacquireWorld). */
void forEachP(void (*fn)(P *));
/* proc.c: make the Gwaiting goroutines of list (linked through
 * schedlink) runnable at the back of the queues, not runnext (Go's) */
void injectglist(G *list, uint8_t why);
void runSafePointFn(P *pp); /* proc.c: pp's M at a safe point runs forEachP's fn */
/* Called where a P's M is at a safe point anyway (every schedule): one
 * load when nothing is due. */
static inline void checkSafePointFn(P *pp) {
	if (GL_UNLIKELY(__atomic_load_n(&pp->runSafePointFn, __ATOMIC_ACQUIRE) != 0))
		runSafePointFn(pp);
}
int32_t procresize_request(int32_t n); /* runtime.GOMAXPROCS */
void lockOSThread(void);
void unlockOSThread(void);
/* Go's casgstatus: status changes other threads can observe */
static inline uint32_t readgstatus(const G *gp) {
	return __atomic_load_n(&gp->atomicstatus, __ATOMIC_ACQUIRE);
}
void casgstatus(G *gp, uint32_t oldval, uint32_t newval);
/* Around a system call that may block (Go's entersyscall/exitsyscall):
 * the P goes to Psyscall, where sysmon's retake may hand it to another M;
 * exitsyscall gets a P back (or parks the G until one is free).  pc and
 * fp are the caller's return address and frame address: ENTERSYSCALL()
 * in the C function generated code called, which makes the system call.
 * The G is Gsyscall meanwhile, stopped at a safe point for suspendG and
 * the goroutine dump, which read its frames from g->sched. */
void entersyscall(uintptr_t pc, uintptr_t fp);
/* the same with the frames' pc, sp and bp given (a callback from C going
 * back into C: ffi.c) */
void entersyscallsched(uintptr_t pc, uintptr_t sp, uintptr_t bp);
/* asm_amd64.S: fn(arg) on g0's stack, g->sched untouched (Go's asmcgocall;
 * ffi.c's way to C, and entersyscall's to g0) */
void asmcgocall(void (*fn)(void *), void *arg);
void exitsyscall(void);
#define ENTERSYSCALL() entersyscall((uintptr_t)__builtin_return_address(0), (uintptr_t)__builtin_frame_address(0))
/* the network poller (netpoll_epoll.c): idle Ms block in netpoll until
 * the next timer or an I/O event; it returns the goroutines the events
 * made ready, linked through schedlink and still Gwaiting (injectglist) */
void netpollinit(void);
bool netpollinited(void);
G *netpoll(int64_t delay);
void netpollBreak(void);
bool netpollAnyWaiters(void);
void netpollLastWaiter(void);
void wakeNetPoller(int64_t when); /* proc.c: someone wakes for a timer at when */

enum { /* Go 1.19's waitReason values */
	waitReasonZero = 0,
	waitReasonIOWait = 2,
	waitReasonChanReceiveNilChan = 3,
	waitReasonChanSendNilChan = 4,
	waitReasonGarbageCollection = 6, /* gl: mgc.c's ragged barrier, waiting for every P (forEachP) */
	waitReasonSelect = 9,
	waitReasonSelectNoCases = 10,
	waitReasonGCAssistWait = 11,
	waitReasonGCSweepWait = 12,
	waitReasonChanReceive = 14,
	waitReasonChanSend = 15,
	waitReasonFinalizerWait = 16,
	waitReasonSemacquire = 18,
	waitReasonSleep = 19,
	waitReasonSyncCondWait = 20,
	waitReasonWaitForGCCycle = 23,
	waitReasonGCWorkerIdle = 24,
	waitReasonPreempted = 25,
	waitReasonStoppingTheWorld = 27, /* Go 1.21's; 1.19 leaves the reason as it was */
};

/* ---- channels (chan.c, select.c) ---- */

/* A G waiting on a channel or a semaphore (Go's sudog).  For channels,
 * elem points to the value to send or the place to receive into, often
 * in the waiting G's own stack: copystack adjusts it, following
 * g->waiting. */
struct sudog {
	G *g;
	sudog *next, *prev;   /* in a waitq, or the semaphore's list */
	void *elem;           /* data element (may point into g's stack) */
	int64_t acquiretime, releasetime;
	uint32_t ticket;      /* semaphore: 1 when the release handed it over */
	bool isSelect;        /* g is in a select: selectDone decides who wins */
	bool success;         /* woken by a value (true) or by close (false) */
	sudog *waitlink;      /* g->waiting list, or the semaphore's waiters */
	sudog *waittail;      /* semaphore: the last of the waiters */
	GlChan *c;            /* the channel */
	void *semaddr;        /* semaphore: the address waited on */
};

typedef struct waitq {
	sudog *first, *last;
} waitq;

/* Go's hchan. */
struct GlChan {
	uint64_t qcount;        /* values in the buffer */
	uint64_t dataqsiz;      /* size of the ring buffer */
	void *buf;              /* dataqsiz elements */
	uint16_t elemsize;
	uint32_t closed;
	const GlType *elemtype;
	uint64_t sendx, recvx;  /* ring indices */
	waitq recvq, sendq;     /* blocked receivers and senders */
	/* protects all the fields above and the sudogs queued here; never
	 * ready a G while holding it (stack shrinking locks it too) */
	mutex lock;
};
typedef GlChan hchan;

bool chansend(hchan *c, const void *ep, bool block);
bool selectnbsend(hchan *c, const void *elem);
void waitq_enqueue(waitq *q, sudog *sgp);
sudog *waitq_dequeue(waitq *q);
void waitq_dequeueSudoG(waitq *q, sudog *sgp);
void chan_send(hchan *c, sudog *sg, const void *ep, void (*unlockf)(void *), void *arg);
void chan_recv(hchan *c, sudog *sg, void *ep, void (*unlockf)(void *), void *arg);
sudog *acquireSudog(void);
void releaseSudog(sudog *s);
void sudogcache_flush(P *pp);

/* ---- semaphores (sema.c) ---- */
void semacquire1(uint32_t *addr, bool lifo, uint32_t reason);
void semrelease1(uint32_t *addr, bool handoff);

/* ---- timers (time.c) ---- */
struct timer {
	mutex mu;       /* serializes Stop/Reset of one timer */
	int32_t idx;    /* index in pp->timers */
	P *pp;          /* the P whose heap holds it (under its timersLock), or NULL */
	int64_t when;
	int64_t period; /* > 0: fire every period */
	/* called without locks, on g0 of the M that runs the timer;
	 * it must not block */
	void (*f)(void *arg, uintptr_t seq, int64_t when); /* when: the time it was due */
	void *arg;
	uintptr_t seq;
};
void addtimer(timer *t);
bool deltimer(timer *t);
bool modtimer(timer *t, int64_t when, int64_t period);
int64_t checkTimersSlow(P *pp, int64_t next, int64_t now, int64_t *pollUntil, bool *ran);
/* Run pp's due timers (Go's checkTimers).  now: the time, or 0 to read
 * it.  Returns now; *pollUntil gets the next timer's time (0 if none);
 * *ran whether any ran.  pp is this M's P, or one it steals from.  Every
 * schedule() asks, and a P mostly has no timer: that answer is inline
 * (out of line, the call's saved registers cost more than the test). */
static inline int64_t checkTimers(P *pp, int64_t now, int64_t *pollUntil, bool *ran) {
	*ran = false;
	int64_t next = __atomic_load_n(&pp->timer0When, __ATOMIC_ACQUIRE);
	if (next == 0) {
		*pollUntil = 0;
		return now;
	}
	return checkTimersSlow(pp, next, now, pollUntil, ran);
}
void moveTimers(P *to, P *from);
int64_t timeSleepUntil(void);
void timeSleep(int64_t ns);

/* stack.c */
typedef struct mstats {
	uint64_t stacks_inuse;      /* bytes in stacks in use (StackInuse) */
	uint64_t stacks_sys;        /* bytes of stack memory from the OS (StackSys) */
	uint64_t stack_copies;      /* copystack calls (gl: StackCopies) */
	uint64_t stack_bytes_copied;/* used bytes moved (gl: StackBytesCopied) */
	uint64_t stack_copy_ns;     /* time in copystack (gl: StackCopyNs) */
	uint64_t heap_sys;          /* bytes of heap memory mapped from the OS (HeapSys) */
	uint64_t heap_inuse;        /* bytes in in-use spans (HeapInuse), under mheap.lock */
	uint64_t heap_released;     /* bytes of free heap pages given back to the kernel
				     * (HeapReleased; pageScav bits), under mheap.lock:
				     * heap_released <= heap_sys - heap_inuse */
	uint64_t heap_large;        /* bytes in large objects (whole pages) */
	uint64_t nlargealloc;       /* large objects allocated */
	uint64_t gc_sys;            /* the heap's metadata: arena index, heapArenas, spans, bits */
	/* small objects of each size class counted as allocated: a span's
	 * free slots are counted when an mcache takes it, and the ones left
	 * are taken back when it gives it up (mcache.c), so the fast path
	 * counts nothing; readmemstats subtracts what the mcaches hold */
	uint64_t smallAllocCount[numSizeClasses];
	/* what the sweeper freed (mgcsweep.c, world stopped): small objects
	 * of each class, large objects and their bytes */
	uint64_t nfree[numSizeClasses];
	uint64_t nlargefree, largefreed;
	uint64_t tinyallocs;        /* pieces of tiny blocks, from released mcaches (malloc.c) */
	/* bytes in objects reachable at the last collection plus bytes handed
	 * to mcaches and large objects since (Go's heapLive; an overestimate
	 * by the free slots the mcaches hold): the pacer compares it with
	 * gc_trigger */
	uint64_t heap_live;
	uint64_t other_sys;         /* runtime metadata outside the heap: G, M, P,
				     * itabs, the heap's own records (persistentalloc), bigzero (OtherSys) */
	/* parts of persistentalloc's chunks that MemStats reports apart
	 * (mpersistent.c's persistentStat moves them out of other_sys) */
	uint64_t mspan_sys;         /* fixalloc chunks of mspans (MSpanSys) */
	uint64_t mcache_sys;        /* the mcaches in the Ps (MCacheSys = MCacheInuse) */
	uint64_t buckhash_sys;      /* the heap profile's buckets and their hash table (BuckHashSys) */
	/* stackforcemove only: the least distance from stack.lo of anything
	 * written to a stack (fresh blocks are filled with a pattern, looked
	 * at when the block is retired): what was left of the reserve band */
	uint64_t stack_min_headroom;
} mstats;
extern mstats memstats;
extern uintptr_t maxstacksize; /* Go's maxstacksize; tests may lower it */
GlStack stackalloc(uint64_t n);
void stackfree(GlStack stk);
void stackretire(GlStack old, uintptr_t sp); /* copystack's old stack, used from sp */
void stackcache_clear(P *pp);
void stackfreeunused(void); /* runtime.GC: unused stack memory back to the OS */
void gfreestacks(void);     /* runtime.GC: free the stacks of the global dead Gs */
uintptr_t newstack(G *g, uintptr_t sp, uintptr_t need); /* need ~0: from the descriptor */
void copystack(G *g, uint64_t newsize);
void shrinkstack(G *g);
bool isShrinkStackSafe(G *g);
void shrinkstacks(void); /* every G that qualifies; world stopped, on g0 */
uint64_t stackstartsize(uintptr_t gopc); /* a new goroutine's stack (GLDEBUG=adaptivestackstart) */
void stackstartnote(G *gp);              /* goexit0: what gp's stack grew to */
void gcComputeStartingStackSize(uint64_t bytes, uint64_t n); /* mark termination */
void allocPreempt(G *gp);    /* preempt.c: stop gp, at an allocation (malloc.c) */
void entryPreempt(G *gp) GL_COLD; /* preempt.c: stop gp, at a map or channel operation's entry */

/* The start of a runtime entry that generated code calls as a safe point
 * (a map or channel operation, a select): a pending stop request is
 * honoured here, as Go's runtime functions honour one at their prologue
 * (preempt.c). */
static inline bool entryStopWanted(const G *g) {
	return GL_UNLIKELY(__atomic_load_n(&g->preempt, __ATOMIC_RELAXED));
}

static inline void entrySafePoint(G *g) {
	if (entryStopWanted(g))
		entryPreempt(g);
}
void allocKick(P *pp);       /* malloc.c: pp's next allocation takes the slow path */
bool stackguardpage(uintptr_t addr);
/* stackpoison.c: the stacks of GLDEBUG=stackforcemove */
GlStack stackallocforcemove(uint64_t n);
void stackfreeforcemove(GlStack stk, uintptr_t sp); /* [sp, hi) was in use */
bool stalestack(uintptr_t addr, uintptr_t *lo, uintptr_t *hi);
void stackinit(void);
/* panic.c: the two kinds of fatal error, Go 1.19's.  gl_throw is the
 * runtime's fault: its traceback shows runtime frames (GLTRACEBACK=system's
 * level) whatever the setting says.  gl_fatal is the program's (a deadlock,
 * racing map writes, an unlock of an unlocked mutex): the setting's level.
 * Both show every goroutine. */
enum { throwTypeNone, throwTypeUser, throwTypeRuntime };
void gl_fatal(const char *msg) GL_NORETURN;
void tracebackinit(void); /* traceback.c: memory for a dying traceback */

/* malloc.c; mem_linux.c (sys*: memory from the kernel) */
void mallocinit(void);
void *sysAlloc(uint64_t n, uint64_t *stat);
GL_NORETURN void sysOutOfMemory(uint64_t n, const char *what);
void sysReserveForDying(uint64_t n); /* start-up: memory for printing a fatal error */
void sysFree(void *p, uint64_t n, uint64_t *stat);
void *sysAllocAligned(uint64_t n, uint64_t align, uint64_t *stat);
void *sysReserve(void *hint, uint64_t n);
void sysMap(void *p, uint64_t n, uint64_t *stat);
void sysHugePage(void *p, uint64_t n);
void sysUnused(void *p, uint64_t n);
void readmemstats(uint64_t *totalalloc, uint64_t *nmalloc);
void readheapstats(uint64_t *totalalloc, uint64_t *nmalloc, uint64_t *inuse);
void readclassallocs(uint64_t n[numSizeClasses]); /* per size class (both: g0, 1 KiB of locals) */
uint64_t tinyAllocCount(void);

/* mgc.c: the collector's roots */
void gcscanglobals(void (*f)(uintptr_t *slot, void *arg), void *arg);
void gcscanruntime(void (*f)(uintptr_t *slot, void *arg), void *arg);
void semtablescan(void (*f)(uintptr_t *slot, void *arg), void *arg); /* sema.c */
void timescanroots(void (*f)(uintptr_t *slot, void *arg), void *arg); /* time.c */

/* mgc.c, mgcmark.c, mgcsweep.c: the collector */
typedef struct gcstats_t {
	/* the cycle in progress or the last one */
	uint64_t markedObjects, markedBytes, scannedBytes, stacks, spans;
	uint64_t stackBytes; /* the stacks' bytes in use, as each was scanned (gctrace's "MB stacks") */
	int64_t assistNs, bgMarkNs, idleMarkNs; /* the concurrent mark's CPU: assists, the worker, the worker on idle Ps */
	uint64_t freedObjects, freedBytes; /* by the sweep of the last cycle, so far */
	/* all cycles */
	uint32_t numgc, numforcedgc;
	uint64_t pauseTotalNs, lastGC;
	uint64_t pauseNs[256], pauseEnd[256]; /* rings, as MemStats': cycle n (from 1) at (n+255)%256 */
	/* every stop-the-world pause of the collector (a concurrent cycle
	 * makes two), by bits.Len64 of its nanoseconds: runtime/metrics'
	 * /gc/pauses:seconds (gcRecordPause) */
	uint64_t pauseHist[64];
	uint32_t limiterLastEnabled; /* the cycle the CPU limiter last held one back (mgcpacer.c) */
	uint64_t nextGC, trigger;
	double cpuFraction; /* the collector's share of the CPU since start-up (GCCPUFraction) */
} gcstats_t;
extern gcstats_t gcstats;
extern int32_t gl_gcpercent;
extern bool gcwanted; /* the pacer asks for a cycle: the next safe allocation starts it */
void gcinit(void);
void gcenvinit(void); /* stdlib.c: GLGC and GLMEMLIMIT */
void gcTrigger(void); /* from an allocation: a cycle if this is a safe point */
/* One marking job's hands (mgcmark.c, Go's gcWork): two blocks of grey
 * objects taken from the global lists, and what the job marked and
 * scanned, added to gcstats when it ends.  On the g0 stack of whoever
 * marks, from gcWorkInit to gcWorkDispose. */
typedef struct gcWork {
	struct workbuf *wbuf1, *wbuf2;
	uint64_t markedObjects, markedBytes, scannedBytes; /* not yet in gcstats */
	uint64_t scanWork; /* scanned by this job in all: the assists' and workers' pay */
	bool counted; /* in work.nactive: it may hold grey objects */
} gcWork;
void gcWorkInit(gcWork *w);         /* a job begins: it counts as active */
void gcWorkWait(gcWork *w);         /* it found nothing to drain: not active until it takes a block */
void gcWorkDispose(gcWork *w);      /* it ends: its blocks back on the lists, its counts into gcstats */
bool gcMarkWorkLeft(void);          /* grey objects on the lists, or a job active */
bool gcMarkWorkAvailable(void);     /* grey objects on the lists */
void gcMarkRoots(gcWork *w);
void gcDrain(void);                 /* with the world stopped: until nothing is grey */
bool gcDrainN(gcWork *w, int64_t budget); /* scan about budget bytes (< 0: all); true if w still has grey objects */
void gcmarknewobject(mcache *c, mspan *s, uintptr_t x); /* allocated while marking: black */

/* Go's gcmarknewobject: x, just allocated from s while marking, is
 * black: marked, and never scanned (what is stored into it is shaded by
 * the barrier, or was reachable anyway).  Counted in c, the allocating
 * P's mcache (or the no-P cache, under its lock), until releaseAll adds
 * it to gcstats; and charged to the allocating goroutine's assist
 * credit, paid at the next slow path's end (malloc.c, gcAssistAlloc).
 * No call: mallocgc's fast path runs it on the goroutine stack, in the
 * band below the guard (S7). */
static inline __attribute__((always_inline)) void gcmarknew(mcache *c, mspan *s, uintptr_t x) {
	uint32_t idx = s->nelems == 1 ? 0 : (uint32_t)(((uint64_t)(x - s->startAddr) * s->divMul) >> 32);
	if (setmarked(s, idx)) {
		c->blackObjects++;
		c->blackBytes += s->elemsize;
	}
	M *mp = getm();
	if (mp->curg != NULL && mp->p != NULL)
		mp->curg->gcAssistBytes -= (int64_t)s->elemsize;
}
void gcMarkRootsAgain(gcWork *w);   /* mark termination: the roots written without barriers */
void gcMarkRootsNoStacks(gcWork *w); /* the concurrent mark's first pause */
void gcScanStack(G *gp, uint32_t c, gcWork *w); /* one goroutine's stack, for cycle c */
uint32_t gcCycle(void);             /* mgc.c: the number of the last cycle begun */
bool gcMarking(void);               /* mgc.c: a concurrent mark is under way */
bool gcMarkAssistDue(void);         /* mgcpacer.c: finish the concurrent mark now */
double gcAssistWorkPerByte(void);   /* mgcpacer.c: scan work owed per byte allocated while marking */
void gcControllerStartMark(void);   /* mgcpacer.c: a concurrent mark begins */
void gcAssistReset(void);           /* mgcmark.c: a mark begins: no assist credit or debt */
bool gcAssistAlloc(G *gp);          /* mgcmark.c: pay an allocation debt; true: stop (yield or park) */
bool gcParkAssist(G *gp, void *arg); /* mgcmark.c: park_m's unlockf: gp, in debt, waits for the worker's credit */
void gcWakeAllAssists(void);        /* mgcmark.c: the mark is over: every parked assist runs */
void gcFlushBgCredit(int64_t work); /* mgcmark.c: the worker's scan work, for the assists */
bool isGCWorker(const G *gp);       /* mgc.c: a background mark worker */
bool gcIsMarked(uintptr_t p);
/* mgcsweep.c: the cycle's sweep (mheap.h has the per-span part) */
void gcSweep(void);                 /* mark termination: start sweeping */
void gcPaceSweeper(uint64_t trigger); /* then: the allocator's share */
void finishsweep_m(void);           /* sweep what is left, wait for the sweepers */
void bgsweepStart_m(void);          /* the world started again: wake bgsweep */
bool isBgSweeper(const G *gp);
/* mgcstack.c: a stopped goroutine's stack, with its stack objects */
void gcRecordPause(int64_t ns); /* mgc.c: one pause into gcstats.pauseHist */
/* mgc.c: a chain from a root to target (gccheckmark's report) */
int64_t gcPathTo(uintptr_t target, uintptr_t *path, uintptr_t *slots, int64_t maxpath, uint64_t max);
void gcDumpObject(const char *label, uintptr_t obj, uintptr_t off); /* mgcmark.c: the checkers' reports */
uint64_t gcscanstack(G *gp, void (*precise)(uintptr_t *, void *), void (*conservative)(uintptr_t *, void *), void *arg);
bool gcinnerframes(G *gp, uintptr_t *lo, uintptr_t *hi); /* preempt.c: the words no map describes */
void gcnoteAlloc(uint64_t bytes); /* on g0: the pacer's count of new heap */
/* mgcpacer.c: the goals and the CPU limiter */
void gcControllerInit(void);
void gcControllerChanged(void);               /* after SetGCPercent, SetMemoryLimit */
/* What a cycle measured, for the pacer's next goal and trigger. */
typedef struct gcCycleMeasure {
	bool concurrent;        /* a concurrent mark (else the cons/mark ratio is not updated) */
	uint64_t before, after; /* heap_live when the mark began and when it ended */
	int64_t markNs;         /* the mark's clock time */
	uint64_t globals;       /* package variables' bytes scanned */
} gcCycleMeasure;
void gcControllerEndCycle(uint64_t marked, const gcCycleMeasure *m); /* world stopped */
void gcLimiterUpdate(int64_t t0, int64_t tend); /* the cycle's pause */
void mcache_flushAll(void);   /* malloc.c */
void mcache_unlockNop(void);
bool trystopTheWorld_m(const char *reason); /* proc.c, on g0: false if another stop is under way */
void startTheWorld_m(void);
bool semtryacquire(uint32_t *addr);       /* sema.c */

/* mspecial.c, mfinal.c: finalizers */
void queuefinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot);
void finqscan(void (*f)(uintptr_t *slot, void *arg), void *arg);
bool wakefing(void);              /* after a cycle, the world started; false: no fing */
G *fingtowake(void);             /* fing to ready, if it waits and has work; else NULL */
bool isSystemGoroutine(const G *gp); /* the mark worker; fing, waiting for finalizers */
extern uint64_t zerobase;         /* malloc.c: every 0-byte allocation */

/* mbarrier.c: typed memory.  Every copy or clear the runtime makes of a
 * value that may hold pointers goes through these (with typedslicecopy
 * typedmemmove and memclrHasPointers, gl.h), because the hybrid write barrier of the
 * concurrent collector will live in them; see the file's comment. */
void typedmemclr(const GlType *t, void *p);
/* *slot = ptr, for runtime C storing a pointer into a heap object (a map's
 * bucket pointers, an overflow bucket's link): the hybrid barrier while
 * the collector marks, as GL_STOREPTR is for generated code (Go's runtime
 * gets these from its compiler).  Runtime C is never stopped by a signal,
 * so the check and the store need no unsafe range.  Stores into the
 * runtime's roots (a G, a P, sched) need none: the mark greys them again
 * at its end. */
void writebarrierShade(const void *p); /* mbarrier.c: shade a pointer being published */
void atomicwb(void **slot, void *ptr);  /* mbarrier.c: the barrier of an atomic pointer store */
static inline void writebarrierptr(void *slot, const void *ptr) {
	if (GL_UNLIKELY(writeBarrier.enabled))
		gcWriteBarrier(NULL, (void **)slot, (void *)ptr);
	else
		*(void **)slot = (void *)ptr;
}
void bulkBarrierPreWrite(uintptr_t dst, uintptr_t src, uintptr_t size);
/* the same for values of type t end to end at dst: outside the heap only t's pointer words */
void typedBulkBarrierPreWrite(const GlType *t, uintptr_t dst, uintptr_t src, uintptr_t size);
void bulkBarrierPreWriteSrcOnly(uintptr_t dst, uintptr_t src, uintptr_t size);
void typeBitsBulkBarrier(const GlType *t, uintptr_t dst, uintptr_t src, uintptr_t size);
/* tests only: the barrier entries report their calls (kind, arguments) */
enum { GL_BARRIER_BULK, GL_BARRIER_SRCONLY, GL_BARRIER_TYPEBITS };
extern void (*gcWriteBarrierTestHook)(int kind, uintptr_t dst, uintptr_t src, uintptr_t size);
bool wbBufFlush(P *pp);             /* shade what pp's write-barrier buffer holds; true if that greyed work */

/* mwbshadow.c: GLDEBUG=wbshadow=1, the shadow heap that finds pointer
 * stores into the heap that bypassed the barrier.  Invariant, for every
 * pointer word w of an allocated object: *w == *wbshadowOf(w). */
extern bool wbshadowEnabled;
void wbshadowInit(void);
void wbshadowArena(heapArena *ha);           /* a new arena: map its shadow */
uintptr_t *wbshadowOf(uintptr_t p);          /* p's shadow word; NULL if p is not shadowed */
void wbshadowMissed(uintptr_t w, uintptr_t *sh); /* returns if the miss did no harm */
void wbshadowFree(uintptr_t p, uintptr_t n); /* the sweeper freed [p, p+n) */
void wbshadowCheck(const char *when);        /* world stopped: the whole heap */
void wbshadowVerify_m(void *word);           /* before a store: the word holds its shadow */
void wbshadowSync_m(void *word);             /* after it: the shadow takes the word */
void wbshadowAtomicLock(void);
void wbshadowAtomicUnlock(void);
/* A barrier is about to store v into word w: w must still hold what the
 * last barrier wrote there; then v is what it will hold. */
static inline void wbshadowWrite(uintptr_t w, uintptr_t v) {
	uintptr_t *sh = wbshadowOf(w);
	if (sh == NULL)
		return;
	if (GL_UNLIKELY(*sh != *(uintptr_t *)w))
		wbshadowMissed(w, sh);
	*sh = v;
}
void gcShade(uintptr_t p);          /* mgcmark.c: grey p's object, while marking */
bool gcShadeBuf(const uintptr_t *p, uint64_t n); /* the same for n pointers; true if any is left to scan */
extern bool gcBlackenEnabled;       /* mgcmark.c: marking runs and mutators may shade */
G *gcFindRunnableWorker(bool idle); /* mgc.c: the mark worker, if this P should run it now */
bool gcWorkerWantsP(P *pp, int64_t now); /* mgc.c: pp's mark worker waits for a turn and is due one */

/* One channel element into or out of c's buffer or a waiter's variable
 * (chan.c, select.c): typed when the element type has pointers; a
 * pointer-free element keeps its plain memmove or memset, at the cost of
 * one test. */
static inline void chan_typedmove(const hchan *c, void *dst, const void *src) {
	if (c->elemtype->ptrdata != 0)
		typedmemmove(c->elemtype, dst, src);
	else
		memmove(dst, src, c->elemsize);
}

static inline void chan_typedclr(const hchan *c, void *p) {
	if (c->elemtype->ptrdata != 0)
		typedmemclr(c->elemtype, p);
	else
		memset(p, 0, c->elemsize);
}

/* A receive from the buffer: slot qp into ep (NULL: the value is
 * dropped), then the slot cleared, with one test for both. */
static inline void chan_recvslot(const hchan *c, void *ep, void *qp) {
	if (c->elemtype->ptrdata != 0) {
		if (ep != NULL)
			typedmemmove(c->elemtype, ep, qp);
		typedmemclr(c->elemtype, qp);
	} else {
		if (ep != NULL)
			memmove(ep, qp, c->elemsize);
		memset(qp, 0, c->elemsize);
	}
}

/* mpersistent.c: runtime metadata that lives as long as the process */
void *persistentalloc(uint64_t size);
void *persistentallocStat(uint64_t size, uint64_t *stat); /* counted in stat, not OtherSys */
void persistentStat(uint64_t size, uint64_t *stat);         /* move size bytes of OtherSys to stat */

/* The runtime's own type descriptors, for its objects on the collected
 * heap.  GL_RTTYPE(name, T, "runtime.T", mask) defines a GlType for struct
 * T whose pointer bitmap is mask, an OR of GL_PTRWORD(T, field) for every
 * field the collector must follow (a heap pointer, or a word that may be
 * one).  Built from offsetof, so the bitmap follows the struct as it
 * changes; at most 64 words of pointers. */
#define GL_PTRWORD(T, f) ((uint64_t)1 << (offsetof(T, f) / sizeof(void *)))
#define GL_RTTYPE(name, T, strlit, mask)                                             \
	static const uint8_t name##_gc[8] = {                                          \
		(uint8_t)(mask), (uint8_t)((mask) >> 8), (uint8_t)((mask) >> 16), (uint8_t)((mask) >> 24), \
		(uint8_t)((mask) >> 32), (uint8_t)((mask) >> 40), (uint8_t)((mask) >> 48), (uint8_t)((mask) >> 56)}; \
	const GlType name = {.size = sizeof(T), .ptrdata = (64 - __builtin_clzll(mask)) * sizeof(void *), \
			     .kind = GL_KIND_STRUCT, .align = 8, .gcdata = name##_gc,               \
			     .str = {(const uint8_t *)strlit, sizeof strlit - 1}}
extern const GlType gltype_ptrword; /* one pointer: arrays of n of them */

/* panic.c */
extern const GlType gltype_rtstring; /* the runtime's string type */
extern const GlType gltype_eface;    /* interface {} */
extern const GlType gltype_rterror;  /* runtime.Error values (gl_panicstring) */

/* iface.c */
GlString missingmethod(const GlType *inter, const GlType *typ);
void gl_panicnilat(G *g, uintptr_t pc, uintptr_t addr);
void printpanicval(GlEface e);

/* symtab.c: the runtime C function holding pc, from the ELF symbol table */
bool cfuncname(uintptr_t pc, const char **name, const char **file, uintptr_t *entry);

/* traceback.c */
const GlFuncInfo *findfunc(uintptr_t pc, int32_t *line);
const GlFuncInfo *funcentry(uintptr_t pc);
const GlFuncInfo *funcouter(uintptr_t pc, uintptr_t *callrec);
bool ingltext(uintptr_t pc);
bool ingldefer(uintptr_t pc);
void traceback(G *gp, uintptr_t pc, uintptr_t sp, uintptr_t bp);
void tracebackothers(G *me);
void goroutineheader(G *gp);
void tracebackstopped(G *me); /* every other goroutine's traceback, the world stopped (runtime.Stack) */
void printtobuf(uint8_t *p, int64_t cap); /* print.c: this thread's prints go to p (runtime/debug.Stack) */
int64_t printtobufend(void);              /* and to standard error again: how much was printed */
void tracebackg(G *gp); /* from gp->sched, or from gp itself if running here */
int64_t tracebackpcs(G *gp, uintptr_t bp, uintptr_t *pcs, int64_t max); /* callers.c: runtime.Callers from a frame record, on g0 */
void dumptraceback(G *gp); /* the "goroutine N [...]" block(s) for a fatal error */
/* Every goroutine, each stopped (suspendG, until deadline) before it is
 * printed and left stopped: the process is dying.  first (if not NULL)
 * comes first, from pc/sp/bp if pc is not 0 (the SIGQUIT handler's
 * interrupted goroutine), else from its saved state. */
void dumpgoroutines(G *first, uintptr_t pc, uintptr_t sp, uintptr_t bp, int64_t deadline);

/* signal_linux.c */
void initsig(void);
void minitSignalStack(M *m);

/* preempt.c: preemption (Go's preempt.go and signal_unix.go's part) */
enum { forcePreemptNS = 10 * 1000 * 1000 }; /* sysmon's time slice */
/* While a P runs, sysmon looks at least this often (proc.c, retake): a
 * slice is preempted at most this much later than forcePreemptNS after
 * it began.  The cost, measured with two goroutines spinning on two Ps
 * for 4.5 s: 2,241 sysmon wake-ups instead of 507, 20 ms of sysmon CPU,
 * and as many involuntary switches of a spinning thread on a machine
 * with no idle core — about half a percent of one core in all. */
enum { sysmonNoticeNS = 2 * 1000 * 1000 };
/* After sysmon sees a preempted P begin a new slice, it looks again this
 * many times 20 µs apart before backing off (proc.c, sysmon). */
enum { sysmonBurstLooks = 5 };
typedef struct suspendGState {
	G *g;         /* the goroutine, claimed; NULL if dead or not got */
	bool dead;
	bool stopped; /* it was running and stopped itself (Gpreempted):
		       * resumeG makes it runnable again */
} suspendGState;
void preemptinit(void);          /* at start-up: membarrier for the claim */
bool preemptM(M *mp);             /* false: a signal was in flight already */
void preemptMPaced(M *mp, pacing *pc); /* preempt.c: preemptM when pc's resend pacing allows */
suspendGState suspendG(G *gp, int64_t deadline); /* deadline 0: none */
suspendGState trysuspendG(G *gp);                /* only if it is not running */
void resumeG(suspendGState state);
bool sigpreempt(G *g, uintptr_t *pc, uintptr_t *sp, uintptr_t bp);
bool wantAsyncPreempt(G *gp);
void asyncPreempt(void);         /* preempt_amd64.S */
void asyncPreempt2(uintptr_t *regs);
bool inAsyncPreempt(uintptr_t pc); /* a return address into asyncPreempt */
extern bool suspendfence;        /* no membarrier: execute fences */
void suspendwaitexecute(G *gp);  /* execute found gp claimed: wait */
void preemptcountrequest(void);
void preemptcountstop(G *gp);
/* proc.c's part */
void preemptPark(G *gp) GL_NORETURN;
void readyfromsuspend(G *gp);    /* resumeG: gp stopped for suspendG runs again */
/* traceback.c: for isAsyncSafePoint */
bool pctabready(void);
bool inwbunsafe(uintptr_t pc); /* in a write barrier's unsafe range (traceback.c) */
void pctabinit(void);
uintptr_t funcentryrec(uintptr_t pc); /* 0 if pc is in no gl function */
void unminitSignalStack(M *m);

/* trace.c: GLDEBUG=trace=FILE.  Each hook is called only while trace_on
 * (one load and a branch when the trace is off). */
extern bool trace_on;
enum { traceWhyNone, traceWhyGosched, traceWhyYield, traceWhyPreemptSync, traceWhyPreemptAsync, traceWhyNetpoll };
void traceStart(const char *path);
void traceStop(void);
void traceExit(void);
void traceGoStatus(G *gp, uint32_t oldval, uint32_t newval);
void traceGoCreate(G *newg, uintptr_t fnpc, const char *name);
void traceProcStart(void);
void traceProcStop(void);
void traceSTWStart(const char *reason);
void traceSTWDone(void);
void traceGCMarkStart(bool stw);
void traceGCMarkDone(void);
void traceStackCopy(G *gp, uint64_t oldsize, uint64_t newsize);

/* debug.c */
typedef struct gl_debugvars {
	int32_t stackforcemove;  /* move the stack at every prologue (1) or one in N, poison old */
	int32_t stacktrace;      /* print a line per stack copy */
	int32_t gctrace;
	int32_t gcpacertrace;    /* a line per cycle on how its mark ended (mgc.c, gcMarkDone) */
	int32_t schedtrace;
	int32_t scheddetail;
	int32_t asyncpreemptoff;
	int32_t gcshrinkstackoff;
	int32_t efence;
	int32_t invalidptr;
	int32_t madvdontneed;
	int32_t tracebackancestors;
	int32_t wbforce;         /* the write barrier on all the time (mbarrier.c) */
	int32_t wbshadow;        /* check every heap pointer store went through it (mwbshadow.c) */
	int32_t adaptivestackstart; /* a new goroutine's stack: 0 GL_STACK_MIN, 1 Go's average,
				     * 2 (=site) learned per go statement (stack.c) */
	int32_t gcstress;        /* collect at every N-th allocation (mgc.c) */
	int32_t clobberfree;     /* the sweeper fills freed objects with 0xdb */
	int32_t gccheckmark;     /* mark twice and compare (mgc.c) */
	int32_t gcstoptheworld;  /* 0: mark concurrently (the default, as Go's); 1: with the
				  * world stopped; 2: sweep in the pause too (mgc.c) */
	int32_t scavtrace;       /* a line per cycle on the scavenger's work (mgcscavenge.c) */
	int32_t preemptpacing;   /* suspendG's resends: 0 adaptive, 1 fixed
				  * (GLDEBUG=preemptpacing=fixed|adaptive) */
	const char *trace;       /* GLDEBUG=trace=FILE: the execution trace's file (trace.c) */
	int32_t mutexpolicygo;   /* GLDEBUG=mutexpolicy=go: sync.Mutex as Go's, not adaptive */
	int32_t mutexstats;      /* sync.Mutex counts every acquisition by path (MutexCounters) */
	int32_t runnextsleep;    /* µs a thief waits before taking a running P's runnext (Go: 3) */
	int32_t lockrank;        /* check the lock order (lockrank.c); 2: print the pairs too */
	int32_t ffilibffi;       /* plain C calls through libffi's ffi_call, not glc's stubs (ffi.c) */
} gl_debugvars;
extern gl_debugvars gl_debug;
void parsedebugvars(void);

/* The stackguard0 g should have: lo + GL_STACK_GUARD, or hi (every check
 * fails) under stackforcemove (stack.c).  Every execute sets it. */
static inline uintptr_t stackguard(const G *g) {
	return gl_debug.stackforcemove ? g->stack.hi : g->stack.lo + GL_STACK_GUARD;
}

/* gp takes its stop request inside runtime C (malloc.c's allocStopCheck,
 * preempt.c's entryPreempt; allocPreempt then stops it): the request is
 * done, the guard is the stack's own again, and until gp runs its stack
 * may not move (runtimeCSafePoint: the C frames below are read word by
 * word). */
static inline void takeRuntimeCStop(G *gp) {
	gp->preempt = false;
	gp->stackguard0 = stackguard(gp);
	gp->preemptneed = 0;
	gp->runtimeCSafePoint = true;
}

/* Throw unless this M holds l (Go's assertLockHeld); only in lockrank
 * mode, where the list of held locks exists.  Inline: the scheduler's
 * queue functions say what they need with it, a load and a branch. */
static inline void assertLockHeld(mutex *l) {
	if (GL_UNLIKELY(gl_debug.lockrank))
		assertLockHeldSlow(l);
}
/* GLTRACEBACK (Go's GOTRACEBACK): level 0 none, 1 user frames, 2 runtime
 * frames too; all: every goroutine; crash: abort() for a core dump. */
void gotraceback(int32_t *level, bool *all, bool *crash);

/* ---- pointers into the goroutine stack across calls that can move it ----
 * Runtime C keeps such a pointer as its distance from stack.hi, which
 * copystack preserves, never as a C pointer (DESIGN.md S4). */

/* Distance of p from the top of g's stack, 0 if p is not in the stack. */
static inline uintptr_t stackoff(const G *g, const void *p) {
	uintptr_t u = (uintptr_t)p;
	return u - g->stack.lo < g->stack.hi - g->stack.lo ? g->stack.hi - u : 0;
}

/* p again, after a call that may have moved g's stack. */
static inline void *stackptr(const G *g, const void *p, uintptr_t off) {
	return off ? (void *)(g->stack.hi - off) : (void *)p;
}

/* ---- raw system calls: leaves with no frame, usable on any stack ---- */
enum {
	SYS_write_ = 1,
	SYS_mmap_ = 9,
	SYS_mprotect_ = 10,
	SYS_munmap_ = 11,
	SYS_madvise_ = 28,
	SYS_getpid_ = 39,
	SYS_exit_group_ = 231,
	SYS_tgkill_ = 234,
	SYS_getrandom_ = 318,
};

static inline long rawsyscall6(long nr, long a, long b, long c, long d, long e, long f) {
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline void *sys_mmap(void *addr, uint64_t n, int prot, int flags) {
	long r = rawsyscall6(SYS_mmap_, (long)addr, (long)n, prot, flags, -1, 0);
	return (unsigned long)r > -4096UL ? NULL : (void *)r;
}
static inline int sys_munmap(void *addr, uint64_t n) {
	return (int)rawsyscall6(SYS_munmap_, (long)addr, (long)n, 0, 0, 0, 0);
}
static inline int sys_mprotect(void *addr, uint64_t n, int prot) {
	return (int)rawsyscall6(SYS_mprotect_, (long)addr, (long)n, prot, 0, 0, 0);
}
static inline int sys_madvise(void *addr, uint64_t n, int advice) {
	return (int)rawsyscall6(SYS_madvise_, (long)addr, (long)n, advice, 0, 0, 0);
}
static inline GL_NORETURN void sys_exit(int code) {
	for (;;)
		rawsyscall6(SYS_exit_group_, code, 0, 0, 0, 0, 0);
}

/* ---- printing helpers the runtime uses (print.c does the writing) ---- */
static inline void prints(const char *s) {
	printstring((GlString){(const uint8_t *)s, (int64_t)strlen(s)});
}

#define PAGESIZE 4096

static inline uint64_t roundpage(uint64_t n) {
	return (n + PAGESIZE - 1) & ~(uint64_t)(PAGESIZE - 1);
}

_Static_assert(offsetof(G, stackguard0) == G_stackguard0, "G.stackguard0");
_Static_assert(offsetof(G, m) == G_m, "G.m");
_Static_assert(offsetof(G, stack.hi) == G_stack_hi, "G.stack.hi");
_Static_assert(offsetof(G, sched.sp) == G_sched_sp, "G.sched.sp");
_Static_assert(offsetof(G, sched.pc) == G_sched_pc, "G.sched.pc");
_Static_assert(offsetof(G, sched.bp) == G_sched_bp, "G.sched.bp");
_Static_assert(offsetof(Gobuf, sp) == Gobuf_sp, "Gobuf.sp");
_Static_assert(offsetof(M, g0) == M_g0, "M.g0");
/* sigqueue.c: signals for os/signal, from the runtime's handlers */
bool sigsend(uint32_t s);    /* queue s if a Notify wants it */
bool sighandled(uint32_t s); /* s is queued or ignored for the program */

#ifdef GL_GC_BOEHM
/* boehm.c: the comparison runtime's heap (--with-gc=boehm, glc -gc=boehm) */
void boehminit(void);           /* schedinit, first */
bool boehmsignal(int s);        /* s is one of Boehm's stop/restart signals */
void boehmgcenv(void);          /* after gcenvinit: GLGC */
void boehmminit(M *mp, void *base); /* a thread's registration, before it unblocks signals */
void boehmmexit(void);          /* the thread exits */
void boehmgfput(G *gp);         /* gp is dead: its old frames are not roots */
void boehmstackbegin(void);     /* copystack: no collection until boehmstackend */
void boehmstackend(void);
void *boehmmallocgc(uint64_t size, const GlType *typ, bool needzero);
void boehmGC(void);             /* runtime.GC */
void boehmPoolsDue(void);       /* mgc.c: Boehm began a collection; sync's pools to be aged */
bool boehmPoolsWanted(void);    /* mgc.c: they are (mallocgc then calls gcTrigger) */
void boehmFreeOSMemory(void);   /* debug.FreeOSMemory */
void boehmsetgcpercent(int32_t percent);
G *boehmsysmon(void);           /* finalizers Boehm found, to finq: fing to inject, or NULL */
void boehmReadMemStats(uint64_t *heapalloc, uint64_t *heapsys, uint64_t *heapidle, uint64_t *heapreleased,
		       uint64_t *totalalloc, uint64_t *nextgc, uint64_t *mallocs);
uintptr_t boehmbase(uintptr_t p);
bool boehmaddfinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot);
void boehmremovefinalizer(uintptr_t p);
#endif

_Static_assert(offsetof(M, curg) == M_curg, "M.curg");
_Static_assert(offsetof(M, gsignal) == M_gsignal, "M.gsignal");

/* The contract with the standard library: glc's prototype of every
 * function the library declares without a body, the layouts of the structs
 * they take, and checks of the structs the library mirrors (//gl:ctype).
 * Written by `glc contract` when make builds the runtime (never committed):
 * a definition here that disagrees with the library does not compile. */
#include "contract.h"

/* Where the runtime keeps its own struct for part of one of the library's
 * (runtime/contract.h): field f of a is at b's f, with its size. */
#define GL_SAMEFIELD(a, b, f)                                                              \
	_Static_assert(offsetof(a, f) == offsetof(b, f) && sizeof(((a *)0)->f) == sizeof(((b *)0)->f), \
		       #a "." #f " is not " #b "." #f)

#endif /* __ASSEMBLER__ */
#endif
