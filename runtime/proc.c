/*
 * proc.c — goroutines, threads and the scheduler (Go's runtime/proc.go),
 * by Go's names: G (goroutine), M (OS thread), P (the right to run gl
 * code, with its run queue), sched (global state).
 *
 * For now there is one M (m0, the process's main thread) and one P; the
 * scheduler issue adds more Ms, sysmon, timers and the netpoller on this
 * skeleton.  What is here is already the real mechanism: every goroutine
 * has its own growable stack; switches go through mcall/gogo
 * (asm_amd64.S), and the scheduler runs on the M's g0 stack — for m0, the
 * OS stack gl_main was called on.
 *
 *   gl_main ─ schedinit ─ newproc1(runtime_main) ─ gl_mstart(mstart1)
 *   mstart1 ─ schedule ─ findRunnable ─ execute ─ gogo ─► main goroutine
 *   gopark ─ mcall(park_m) ─ schedule ...    goready ─ runqput(runnext)
 *   goroutine returns ─ goexit1 ─ mcall(goexit0) ─ schedule ...
 *
 * Also here: getg (TLS, S9), fastrand, locks, nanotime, and the
 * synchronous-signal handler (until signal_linux.c exists).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* The current G.  Generated code never reads it (S9); asm_amd64.S writes
 * it at every switch. */
GL_TLS G *tls_g;

schedt sched;
M m0;
G g0;
P p0;
static G gsignal0;
G **allgs;
int64_t allglen;
static int64_t allgcap;
static mutex allglock;

int gl_argc;
char **gl_argv;

static void (*main_init)(G *);
static void (*main_main)(G *);

/* noinline, so that code that parks and resumes on another thread reads
 * TLS again (gcc may keep the address of a TLS variable across calls). */
GL_NOINLINE G *getg(void) {
	return tls_g;
}

void setg(G *gp) {
	tls_g = gp;
}

/* ---- locks: Go's lock_futex.go ---- */

enum { FUTEX_WAIT_PRIVATE_ = 128, FUTEX_WAKE_PRIVATE_ = 129, SYS_futex_ = 202 };

void lock(mutex *l) {
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&l->key, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&l->key, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		rawsyscall6(SYS_futex_, (long)&l->key, FUTEX_WAIT_PRIVATE_, 2, 0, 0, 0);
		c = __atomic_exchange_n(&l->key, 2, __ATOMIC_ACQUIRE);
	}
}

void unlock(mutex *l) {
	if (__atomic_exchange_n(&l->key, 0, __ATOMIC_RELEASE) == 2)
		rawsyscall6(SYS_futex_, (long)&l->key, FUTEX_WAKE_PRIVATE_, 1, 0, 0, 0);
}

/* ---- fastrand: Go 1.19's wyrand, per M ---- */

uint32_t fastrand(void) {
	M *mp = getm();
	mp->fastrand += 0xa0761d6478bd642full;
	__uint128_t r = (__uint128_t)mp->fastrand * (mp->fastrand ^ 0xe7037ed1a0b428dbull);
	return (uint32_t)((uint64_t)r ^ (uint64_t)(r >> 64));
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

/* Monotonic nanoseconds (vDSO through libc: call it on g0). */
int64_t nanotime(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- Gs ---- */

static void allgadd(G *gp) {
	lock(&allglock);
	if (allglen == allgcap) {
		int64_t ncap = allgcap ? 2 * allgcap : 64;
		G **n = mallocgc((uint64_t)ncap * sizeof(G *), NULL, true);
		if (allglen)
			memcpy(n, allgs, (size_t)allglen * sizeof(G *));
		allgs = n;
		allgcap = ncap;
	}
	allgs[allglen++] = gp;
	unlock(&allglock);
}

/* A dead G to reuse, or NULL (Go's gfget, without the per-P list yet). */
static G *gfget(void) {
	lock(&sched.lock);
	G *gp = sched.gfree;
	if (gp != NULL)
		sched.gfree = gp->schedlink;
	unlock(&sched.lock);
	return gp;
}

static void gfput(G *gp) {
	lock(&sched.lock);
	gp->schedlink = sched.gfree;
	sched.gfree = gp;
	unlock(&sched.lock);
}

/* ---- run queues (Go's runqput/runqget and the global queue) ---- */

static void globrunqput(G *gp) {
	gp->schedlink = NULL;
	if (sched.runqtail != NULL)
		sched.runqtail->schedlink = gp;
	else
		sched.runqhead = gp;
	sched.runqtail = gp;
	sched.runqsize++;
}

static G *globrunqget(void) {
	G *gp = sched.runqhead;
	if (gp != NULL) {
		sched.runqhead = gp->schedlink;
		if (sched.runqhead == NULL)
			sched.runqtail = NULL;
		sched.runqsize--;
	}
	return gp;
}

/* Put gp on pp's queue; next: in runnext, ahead of everything (goready). */
static void runqput(P *pp, G *gp, bool next) {
	if (next) {
		G *old = pp->runnext;
		pp->runnext = gp;
		if (old == NULL)
			return;
		gp = old; /* the old runnext goes to the tail */
	}
	if (pp->runqtail - pp->runqhead < 256) {
		pp->runq[pp->runqtail % 256] = gp;
		pp->runqtail++;
		return;
	}
	lock(&sched.lock);
	globrunqput(gp);
	unlock(&sched.lock);
}

static G *runqget(P *pp) {
	G *gp = pp->runnext;
	if (gp != NULL) {
		pp->runnext = NULL;
		return gp;
	}
	if (pp->runqhead == pp->runqtail)
		return NULL;
	gp = pp->runq[pp->runqhead % 256];
	pp->runqhead++;
	return gp;
}

/* ---- creating goroutines ---- */

/* A goroutine that will call fn(g, arg) on a new stack of stacksize bytes
 * when first scheduled: its stack holds the register block gogo pops, as
 * if it had switched out just before gl_gostart. */
G *newproc1(void (*fn)(G *, void *), void *arg, int64_t stacksize) {
	G *newg = gfget();
	if (newg == NULL) {
		newg = mallocgc(sizeof(G), NULL, true);
		allgadd(newg);
	}
	memset(newg, 0, sizeof(G));
	newg->stack = stackalloc((uint64_t)stacksize);
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

	lock(&sched.lock);
	newg->goid = ++sched.goidgen;
	unlock(&sched.lock);
	newg->atomicstatus = Grunnable;
	return newg;
}

/* go fn(arg): a new goroutine on the current P's queue. */
G *newproc(void (*fn)(G *, void *), void *arg) {
	G *newg = newproc1(fn, arg, GL_STACK_MIN);
	runqput(getm()->p, newg, false);
	return newg;
}

/* ---- scheduling ---- */

static void dropg(M *mp) {
	if (mp->curg != NULL) {
		mp->curg->m = NULL;
		mp->curg = NULL;
	}
}

/* Run gp on this M; never returns.  On g0. */
static GL_NORETURN void execute(G *gp) {
	M *mp = getm();
	mp->curg = gp;
	gp->m = mp;
	gp->atomicstatus = Grunning;
	gp->waitreason = waitReasonZero;
	setg(gp);
	gogo(&gp->sched);
}

static G *findRunnable(void) {
	P *pp = getm()->p;
	G *gp = runqget(pp);
	if (gp != NULL)
		return gp;
	lock(&sched.lock);
	gp = globrunqget();
	unlock(&sched.lock);
	if (gp != NULL)
		return gp;
	/* one M, no timers or netpoller yet: nothing can ever run again */
	if (sched.mainexited)
		gl_throw("no goroutines (main called runtime.Goexit) - deadlock!");
	gl_throw("all goroutines are asleep - deadlock!");
}

void schedule(void) {
	execute(findRunnable());
}

static void mstart1(void) {
	schedule();
}

/* Park the current goroutine (Go's gopark): on g0, unlockf(gp, lock) runs
 * once gp is switched out; if it returns false gp resumes at once. */
static void park_m(G *gp) {
	M *mp = getm();
	gp->atomicstatus = Gwaiting;
	dropg(mp);
	bool (*fn)(G *, void *) = mp->waitunlockf;
	void *l = mp->waitlock;
	mp->waitunlockf = NULL;
	mp->waitlock = NULL;
	if (fn != NULL && !fn(gp, l)) {
		gp->atomicstatus = Grunnable;
		execute(gp);
	}
	schedule();
}

void gopark(bool (*unlockf)(G *, void *), void *lock, uint32_t reason) {
	G *gp = getg();
	M *mp = gp->m;
	gp->waitreason = reason;
	mp->waitunlockf = unlockf;
	mp->waitlock = lock;
	mcall(park_m);
	/* resumed, perhaps on another M: nothing here may use mp (S9) */
}

/* Make gp runnable, next in line (Go's goready/ready). */
void goready(G *gp) {
	if (gp->atomicstatus != Gwaiting)
		gl_throw("bad g->status in ready");
	gp->atomicstatus = Grunnable;
	runqput(getm()->p, gp, true);
}

static void gosched_m(G *gp) {
	M *mp = getm();
	gp->atomicstatus = Grunnable;
	dropg(mp);
	lock(&sched.lock);
	globrunqput(gp);
	unlock(&sched.lock);
	schedule();
}

/* runtime.Gosched */
void gosched(void) {
	mcall(gosched_m);
}

/* The goroutine is done: on g0, free its stack and schedule. */
static void goexit0(G *gp) {
	M *mp = getm();
	gp->atomicstatus = Gdead;
	if (gp->goid == 1)
		sched.mainexited = 1;
	dropg(mp);
	gp->topframe = NULL;
	gp->_defer = NULL;
	gp->_panic = NULL;
	gp->unwinding = 0;
	stackfree(gp->stack);
	gp->stack = (GlStack){0, 0};
	gp->stackguard0 = 0;
	gfput(gp);
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
	case waitReasonChanReceive: return "chan receive";
	case waitReasonChanSend: return "chan send";
	case waitReasonSleep: return "sleep";
	case waitReasonSemacquire: return "semacquire";
	}
	return "waiting";
}

/* ---- start-up ---- */

void exit_m(void *code) {
	exit((int)(intptr_t)code);
}

/* The main goroutine (Go's runtime.main): package initialisation, then
 * main.main, then exit(0) — whatever other goroutines are doing. */
static void runtime_main(G *g, void *arg) {
	(void)arg;
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

static void mcommoninit(M *mp) {
	mp->fastrand = randomseed();
	if (mp->fastrand == 0)
		mp->fastrand = 0x49f6428a;
}

static void schedinit(void) {
	m0.g0 = &g0;
	m0.p = &p0;
	m0.id = 0;
	g0.m = &m0;
	g0.goid = 0;
	g0.atomicstatus = Grunning;
	g0stack(&g0);
	setg(&g0);
	p0.m = &m0;
	p0.status = Prunning;
	mcommoninit(&m0);
	parsedebugvars();
	mallocinit();
	stackinit();
	alginit();
	initsig();
	minitSignalStack(&m0);
}

int gl_main(int argc, char **argv, void (*maininit)(G *), void (*mainmain)(G *)) {
	gl_argc = argc;
	gl_argv = argv;
	main_init = maininit;
	main_main = mainmain;
	schedinit();
	G *mg = newproc1(runtime_main, NULL, GL_STACK_MIN);
	runqput(&p0, mg, false);
	gl_mstart(mstart1);
}

/* ---- synchronous signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL) ----
 * Generated code checks nil pointers, bounds and division explicitly, so a
 * fault is a bug somewhere: the handler says what it can — a stale pointer
 * into a stack that moved (stackforcemove), an overflow of the reserve
 * band, a nil dereference glc did not check — prints the faulting
 * goroutine's traceback and exits with status 2.  It runs on the M's
 * signal stack (sigaltstack): a signal frame can be larger than a whole
 * goroutine stack. */

enum { signalStackSize = 64 * 1024 };

void minitSignalStack(M *mp) {
	G *gs = mp == &m0 ? &gsignal0 : mallocgc(sizeof(G), NULL, true);
	void *p = sysAlloc(signalStackSize, NULL);
	gs->stack = (GlStack){(uintptr_t)p, (uintptr_t)p + signalStackSize};
	gs->stackguard0 = gs->stack.lo + GL_STACK_GUARD;
	gs->m = mp;
	gs->goid = -1;
	gs->atomicstatus = Grunning;
	mp->gsignal = gs;
	stack_t ss = {.ss_sp = p, .ss_size = signalStackSize, .ss_flags = 0};
	sigaltstack(&ss, NULL);
}

static const char *signame_(int sig) {
	switch (sig) {
	case SIGSEGV: return "SIGSEGV: segmentation violation";
	case SIGBUS: return "SIGBUS: bus error";
	case SIGFPE: return "SIGFPE: floating-point exception";
	case SIGILL: return "SIGILL: illegal instruction";
	}
	return "signal";
}

static void sighandler(int sig, siginfo_t *info, void *ctx) {
	ucontext_t *uc = ctx;
	G *g = tls_g;
	M *mp = g != NULL ? g->m : &m0;
	if (mp->dying >= 3) { /* a fault while reporting one */
		prints("fatal error: fault while printing a fault report\n");
		sys_exit(2);
	}
	mp->dying = 3;
	setg(mp->gsignal); /* systemstack calls run here, not on g0 */
	G *gp = mp->curg;
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t bp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	uintptr_t addr = (uintptr_t)info->si_addr, lo, hi;

	printlock();
	if (sig == SIGSEGV && stalestack(addr, &lo, &hi)) {
		prints("fatal error: stale pointer into a moved stack (addr=");
		printhex(addr);
		prints(", old stack [");
		printhex(lo);
		prints(", ");
		printhex(hi);
		prints("))\n");
	} else if (sig == SIGSEGV && stackguardpage(addr)) {
		prints("fatal error: stack overflow below stack.lo (addr=");
		printhex(addr);
		prints("): a frame exceeded the reserve band\n");
	} else if ((sig == SIGSEGV || sig == SIGBUS) && addr < 4096 && ingltext(pc)) {
		prints("fatal error: unchecked nil pointer dereference in generated code (addr=");
		printhex(addr);
		prints(")\n");
	} else if (ingltext(pc)) {
		prints("unexpected fault address ");
		printhex(addr);
		prints("\nfatal error: fault\n");
	} else {
		prints("fatal error: unexpected signal during runtime execution\n");
	}
	prints("[signal ");
	prints(signame_(sig));
	prints(" code=");
	printhex((uint64_t)info->si_code);
	prints(" addr=");
	printhex(addr);
	prints(" pc=");
	printhex(pc);
	prints("]\n");
	if (gp != NULL) {
		prints("\n");
		goroutineheader(gp);
		if (sp - gp->stack.lo < gp->stack.hi - gp->stack.lo)
			traceback(gp, pc + 1, sp, bp); /* +1: pc is the faulting instruction */
		else
			tracebackg(gp);
	}
	printunlock();
	sys_exit(2);
}

void initsig(void) {
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = sighandler;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
		sigfillset(&sa.sa_mask);
		sigdelset(&sa.sa_mask, SIGSEGV); /* a fault in the handler re-enters */
		sigdelset(&sa.sa_mask, SIGBUS);
		sigaction(sigs[i], &sa, NULL);
	}
}
