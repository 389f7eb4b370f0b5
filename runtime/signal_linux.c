/*
 * signal_linux.c — signal handling (Go's signal_unix.go): each M's signal
 * stack, the synchronous signals (faults), SIGURG (asynchronous
 * preemption: the work is preempt.c's sigpreempt), SIGQUIT (a dump of
 * every goroutine, then exit 2) and SIGPIPE (EPIPE instead).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>

static G gsignal0;

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
	G *gs = mp == &m0 ? &gsignal0 : persistentalloc(sizeof(G));
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

/* An M whose thread exits: stop using its signal stack and free it. */
void unminitSignalStack(M *mp) {
	stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
	sigaltstack(&ss, NULL);
	G *gs = mp->gsignal;
	if (gs != NULL && gs != &gsignal0)
		sysFree((void *)gs->stack.lo, signalStackSize, NULL);
}

static void sighandler(int sig, siginfo_t *info, void *ctx) {
	ucontext_t *uc = ctx;
	G *g = tls_g;
	M *mp = g != NULL ? g->m : &m0;
	if (mp->dying >= 3) { /* a fault while reporting one */
		printlock(); /* its unlock writes what was buffered before */
		prints("fatal error: fault while printing a fault report\n");
		printunlock();
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
	prints(signame((uint32_t)sig));
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

/* ---- SIGURG: asynchronous preemption ----
 * preemptM sends it to one thread (tgkill).  The handler runs on the M's
 * signal stack with every other signal blocked; sigpreempt decides and
 * may redirect the thread to asyncPreempt, by rewriting rip and rsp.
 *
 * It runs as the M's gsignal, as every handler here (Go's sigtrampgo
 * does the same), and puts the interrupted G back on the way out.  Not
 * only for tidiness: systemstack (nanotime's way to the vDSO) decides from
 * tls_g where it runs.  With tls_g still the interrupted goroutine it would
 * take itself for that goroutine: save its own state into g->sched and
 * clear g->sched.sp on return.  A signal landing in gl_morestack between
 * the save of the goroutine's state and the switch to g0 then left
 * newstack a goroutine with sched.sp == 0 ("copystack: goroutine is not
 * switched out", 1 run in 25 of stack_release under stackforcemove), and
 * one landing in execute() before gogo, a gogo to sp 0. */
static void sigurg(int sig, siginfo_t *info, void *ctx) {
	(void)info;
	sigsend((uint32_t)sig); /* also the program's, if it asked (signal.Notify) */
	G *g = tls_g;
	if (g == NULL) /* a thread that is not an M (a test's C code) */
		return;
	greg_t *r = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	uintptr_t pc = (uintptr_t)r[REG_RIP], sp = (uintptr_t)r[REG_RSP];
	setg(g->m->gsignal);
	if (sigpreempt(g, &pc, &sp, (uintptr_t)r[REG_RBP])) {
		r[REG_RIP] = (greg_t)pc;
		r[REG_RSP] = (greg_t)sp;
	}
	setg(g);
}

/* ---- SIGQUIT: every goroutine's stack, as Go prints it ----
 * In the handler, as Go does, on the signal stack: "SIGQUIT: quit", the
 * interrupted pc and M, the goroutine the signal interrupted, every other
 * goroutine — stopped first with suspendG, so a running one shows where
 * it is rather than Go's "stack unavailable" — and the registers.  Runtime
 * frames are shown (Go's level 2 for a signal that kills) unless
 * GLTRACEBACK=none.  Exit status 2; GLTRACEBACK=crash aborts instead. */
static void dumpregs(const greg_t *r) {
	static const struct {
		const char *name;
		int reg;
	} regs[] = {
		{"rax    ", REG_RAX}, {"rbx    ", REG_RBX}, {"rcx    ", REG_RCX}, {"rdx    ", REG_RDX},
		{"rdi    ", REG_RDI}, {"rsi    ", REG_RSI}, {"rbp    ", REG_RBP}, {"rsp    ", REG_RSP},
		{"r8     ", REG_R8},  {"r9     ", REG_R9},  {"r10    ", REG_R10}, {"r11    ", REG_R11},
		{"r12    ", REG_R12}, {"r13    ", REG_R13}, {"r14    ", REG_R14}, {"r15    ", REG_R15},
		{"rip    ", REG_RIP}, {"rflags ", REG_EFL},
	};
	for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		prints(regs[i].name);
		printhex((uint64_t)r[regs[i].reg]);
		prints("\n");
	}
}

/* The M that prints a fatal signal's dump (atomic; NULL until one does).
 * One dump per process: `timeout -s QUIT` sends its signal to the child
 * and again to the child's process group, and the kernel may hand the two
 * to two threads; without this each would print a whole dump, the second
 * one in the window between the first's last line and its exit — and
 * the first would wait in vain to suspend the goroutine of the second's
 * M, held in its handler, and print "stack unavailable" for it. */
static M *dumper;

/* SIGQUIT and SIGTRAP kill the program as Go's do: name, the pc, every
 * goroutine's traceback (GOTRACEBACK's level), the registers, exit 2. */
static void sigdie(const char *name, siginfo_t *info, void *ctx) {
	greg_t *r = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	G *g = tls_g;
	if (g == NULL) { /* a thread that is not an M: no goroutines to show */
		prints(name);
		prints(" (on a thread the runtime does not run)\n");
		sys_exit(2);
	}
	M *mp = g->m;
	M *first = NULL;
	if (!__atomic_compare_exchange_n(&dumper, &first, mp, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
	    first != mp) {
		/* another M prints the dump and ends the process: a second quit
		 * is dropped (returning lets the dump suspend this M's goroutine
		 * and show it); a trap waits, so its goroutine goes no further */
		if (info->si_signo == SIGQUIT)
			return;
		for (;;)
			usleep_(100 * 1000);
	}
	if (__atomic_exchange_n(&mp->dying, 3, __ATOMIC_ACQ_REL) >= 3) {
		printlock(); /* a second signal while this one prints */
		prints(name);
		prints(" (while printing the first)\n");
		printunlock();
		sys_exit(2);
	}
	/* what the signal interrupted: a goroutine running its own code, or
	 * the runtime on g0 (then curg, if any, is in a systemstack call) */
	G *gp = mp->curg;
	bool ongp = gp != NULL && g == gp;
	setg(mp->gsignal); /* systemstack calls run here, not on g0 */
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);
	/* how long the dump waits for running goroutines to stop (then: Go's
	 * "stack unavailable"): a second, as on a loaded machine their threads
	 * may wait that long for a CPU (200 ms missed two of them once, with
	 * two compilers beside the test on two cores) */
	int64_t deadline = nanotime() + 1000 * 1000 * 1000;
	printlock();
	prints(name);
	prints("\nPC=");
	printhex((uint64_t)r[REG_RIP]);
	prints(" m=");
	printint(mp->id);
	prints(" sigcode=");
	printint(info->si_code);
	prints("\n");
	if (level > 0) {
		dumpgoroutines(gp, ongp ? (uintptr_t)r[REG_RIP] : 0, (uintptr_t)r[REG_RSP], (uintptr_t)r[REG_RBP],
			       deadline);
		prints("\n");
		dumpregs(r);
	}
	printunlock();
	if (crash) {
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	sys_exit(2);
}

static void sigquit(int sig, siginfo_t *info, void *ctx) {
	if (sigsend((uint32_t)sig))
		return; /* the program's (signal.Notify), not a dump */
	sigdie("SIGQUIT: quit", info, ctx);
}

/* runtime.Breakpoint's int3 */
static void sigtrap(int sig, siginfo_t *info, void *ctx) {
	(void)sig;
	sigdie("SIGTRAP: trace trap", info, ctx);
}

/* ---- SIGPIPE ----
 * As in Go: a write to a pipe or socket whose reader has gone fails with
 * EPIPE instead of killing the program (the handler does nothing) —
 * except on standard output and error, where package os dies of SIGPIPE
 * at the failed write (os_sigpipe), as a C program would: `prog | head`
 * ends quietly. */
static void sigpipe(int sig, siginfo_t *info, void *ctx) {
	(void)info, (void)ctx;
	sigsend((uint32_t)sig); /* queued if a signal.Notify wants it */
}

static void sigpipedie_m(void *arg) {
	(void)arg;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGPIPE);
	_exit(2); /* not reached: the default action ends the process */
}

void os_sigpipe(G *g) {
	(void)g;
	if (sighandled(SIGPIPE))
		return; /* the program handles or ignores it (os/signal) */
	systemstack(sigpipedie_m, NULL);
}

static void installsig(int sig, void (*h)(int, siginfo_t *, void *), int flags) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | flags;
	sigfillset(&sa.sa_mask);
	sigdelset(&sa.sa_mask, SIGSEGV); /* a fault in a handler is reported */
	sigdelset(&sa.sa_mask, SIGBUS);
	sigaction(sig, &sa, NULL);
}

void initsig(void) {
	/* SA_RESTART: a preemption signal that lands in a system call
	 * (read, write, futex) restarts it rather than failing it with EINTR */
	installsig(SIGURG, sigurg, SA_RESTART);
	installsig(SIGQUIT, sigquit, 0);
	installsig(SIGTRAP, sigtrap, 0);
	installsig(SIGPIPE, sigpipe, SA_RESTART);
	preemptinit();
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
