/*
 * sigqueue.c — signals for package os/signal (Go's sigqueue.go).
 *
 * A signal the program asked for (signal.Notify → signal_enable) lands
 * in a handler, which may do almost nothing: no lock, no allocation, no
 * scheduler.  So sigsend only sets the signal's bit in sig.pending and
 * wakes, through a futex, the one goroutine that waits in signal_recv:
 * os/signal's loop.  That goroutine waits in a blocking system call
 * (entersyscall: its P goes on to other work, as with Go's notetsleepg,
 * and it costs a thread), takes the pending bits and returns them one at
 * a time; os/signal gives each to the channels that want it without
 * blocking (a full channel misses it).  Two arrivals of one signal before
 * the loop looks are one, as in Go.
 *
 * Dispositions.  The first time a signal's is changed here, the old one
 * is kept in sig.orig; signal_disable (Stop, Reset) puts it back.  For the
 * signals the runtime handles itself (SIGQUIT's dump, SIGPIPE, SIGURG's
 * preemption: signal_linux.c) the handler stays gl's and calls sigsend
 * first: a SIGQUIT a program asked for is its own, not a dump; SIGURG
 * still preempts.  Some signals are never the program's: SIGKILL and
 * SIGSTOP cannot be caught, the faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL)
 * and SIGTRAP are the runtime's reports of bugs, 32 and 33 belong to the
 * C library's threads, and the Boehm build's collector stops threads with
 * two more (boehmsignal).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>

enum { nsig = 65, sigwords = (nsig + 31) / 32 };

static struct {
	uint32_t pending[sigwords]; /* bit s: s arrived since signal_recv last took it */
	uint32_t wanted[sigwords];  /* bit s: a Notify wants s (sigsend queues it) */
	uint32_t ignored[sigwords]; /* bit s: signal.Ignore made it SIG_IGN */
	uint32_t wake;              /* futex word: sigsend bumps it, signal_recv sleeps on it */
	/* guarded by lock (signal_enable and the rest, never a handler): */
	mutex lock;
	bool saved[nsig];
	struct sigaction orig[nsig]; /* the disposition before the first change here */
} sig = {.lock = MUTEX(lockRankSig)};

static bool bitset(const uint32_t *w, uint32_t s) {
	return (__atomic_load_n(&w[s / 32], __ATOMIC_ACQUIRE) >> (s % 32)) & 1;
}

static void setbit(uint32_t *w, uint32_t s, bool on) {
	if (on)
		__atomic_fetch_or(&w[s / 32], 1u << (s % 32), __ATOMIC_ACQ_REL);
	else
		__atomic_fetch_and(&w[s / 32], ~(1u << (s % 32)), __ATOMIC_ACQ_REL);
}

/* From a handler: queue s for os/signal if a Notify wants it.  Returns
 * whether it did (the handler then does nothing else for it). */
bool sigsend(uint32_t s) {
	if (s == 0 || s >= nsig || !bitset(sig.wanted, s))
		return false;
	setbit(sig.pending, s, true);
	__atomic_fetch_add(&sig.wake, 1, __ATOMIC_RELEASE);
	futexwakeup(&sig.wake, 1);
	return true;
}

/* Whether the program may have s: see the comment at the top. */
static bool catchable(uint32_t s) {
	if (s == 0 || s >= nsig || s == 32 || s == 33)
		return false;
	switch (s) {
	case SIGKILL: case SIGSTOP: case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP:
		return false;
	}
#ifdef GL_GC_BOEHM
	if (boehmsignal((int)s))
		return false;
#endif
	return true;
}

/* The signals whose handler is the runtime's own and calls sigsend. */
static bool ownhandler(uint32_t s) {
	return s == SIGQUIT || s == SIGPIPE || s == SIGURG;
}

/* os/signal's handler for the other signals. */
static void signotify(int s, siginfo_t *info, void *ctx) {
	(void)info, (void)ctx;
	sigsend((uint32_t)s); /* not wanted any more (a Stop racing): dropped */
}

/* Sets s's disposition, keeping the first one replaced.  Under sig.lock. */
static void setaction(uint32_t s, void (*h)(int, siginfo_t *, void *), bool ignore) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (ignore) {
		sa.sa_handler = SIG_IGN;
	} else {
		sa.sa_sigaction = h;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigfillset(&sa.sa_mask);
	}
	sigaction((int)s, &sa, sig.saved[s] ? NULL : &sig.orig[s]);
	sig.saved[s] = true;
}

/* Puts back s's disposition from before os/signal.  Under sig.lock. */
static void restoreaction(uint32_t s) {
	if (sig.saved[s])
		sigaction((int)s, &sig.orig[s], NULL);
}

/* What signal_enable, signal_disable and signal_ignore do, on g0 (the C
 * library's sigaction wants more stack than a goroutine's reserve, S7). */
enum { sigEnable, sigDisable, sigIgnore };

typedef struct sigop {
	uint32_t s;
	int op;
} sigop;

static void sigop_m(void *arg) {
	sigop *o = arg;
	uint32_t s = o->s;
	lock(&sig.lock);
	switch (o->op) {
	case sigEnable: /* a Notify wants s */
		setbit(sig.wanted, s, true);
		setbit(sig.ignored, s, false);
		if (ownhandler(s))
			restoreaction(s); /* undo an Ignore: the runtime's handler again */
		else
			setaction(s, signotify, false);
		break;
	case sigDisable: /* none does any more (Stop, Reset): the old disposition */
		setbit(sig.wanted, s, false);
		setbit(sig.ignored, s, false);
		restoreaction(s);
		break;
	case sigIgnore: /* SIG_IGN, but SIGURG keeps the handler preemption needs */
		setbit(sig.wanted, s, false);
		setbit(sig.ignored, s, true);
		if (s != SIGURG)
			setaction(s, NULL, true);
		break;
	}
	unlock(&sig.lock);
}

static void sigdo(uint32_t s, int op) {
	sigop o = {s, op};
	if (catchable(s))
		systemstack(sigop_m, &o);
}

void os_signal_signal_enable(G *g, uint32_t s) {
	(void)g;
	sigdo(s, sigEnable);
}

void os_signal_signal_disable(G *g, uint32_t s) {
	(void)g;
	sigdo(s, sigDisable);
}

void os_signal_signal_ignore(G *g, uint32_t s) {
	(void)g;
	sigdo(s, sigIgnore);
}

bool os_signal_signal_ignored(G *g, uint32_t s) {
	(void)g;
	return s < nsig && bitset(sig.ignored, s);
}

/* Whether s is ignored or queued for the program: os.File.Write's EPIPE
 * on standard output does not kill a program that handles SIGPIPE. */
bool sighandled(uint32_t s) {
	return s < nsig && (bitset(sig.ignored, s) || bitset(sig.wanted, s));
}

/* os/signal's loop waits here for the next signal and returns it.  The
 * wait is a blocking system call: a thread, not a P.  GL_NOINLINE for
 * ENTERSYSCALL, which records the generated caller's frame. */
GL_NOINLINE uint32_t os_signal_signal_recv(G *g) {
	(void)g;
	for (;;) {
		uint32_t seq = __atomic_load_n(&sig.wake, __ATOMIC_ACQUIRE);
		for (uint32_t i = 0; i < sigwords; i++) {
			uint32_t p = __atomic_load_n(&sig.pending[i], __ATOMIC_ACQUIRE);
			if (p != 0) {
				uint32_t s = i * 32 + (uint32_t)__builtin_ctz(p);
				setbit(sig.pending, s, false);
				return s;
			}
		}
		ENTERSYSCALL();
		futexsleep(&sig.wake, seq, -1);
		exitsyscall();
	}
}
