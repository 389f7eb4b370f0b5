/*
 * signal_linux.c — signal handling (Go's signal_unix.go), so far only the
 * synchronous signals and each M's signal stack.  Asynchronous preemption
 * (SIGURG, issue 6) comes here too.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>
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

/* An M whose thread exits: stop using its signal stack and free it. */
void unminitSignalStack(M *mp) {
	stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
	sigaltstack(&ss, NULL);
	G *gs = mp->gsignal;
	if (gs != NULL && gs != &gsignal0)
		sysFree((void *)gs->stack.lo, signalStackSize, NULL);
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
