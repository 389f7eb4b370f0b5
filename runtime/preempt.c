/*
 * preempt.c — stopping a goroutine where it is (Go's runtime/preempt.go and
 * the preemption half of signal_unix.go), by Go's names.
 *
 * Two ways in, as in Go (seed 000 §7):
 *  - cooperative: a request sets g->preempt and stackguard0 =
 *    GL_STACK_PREEMPT, so the goroutine's next prologue check fails and
 *    morestack → newstack → gopreempt_m (or preemptPark) switches it out;
 *  - asynchronous: preemptM sends SIGURG to the M's thread (tgkill, at most
 *    one in flight per M: signalPending); the handler (sigpreempt) checks
 *    isAsyncSafePoint and, if the interrupted pc is one, rewrites the signal
 *    context so the thread "calls" asyncPreempt (preempt_amd64.S), which
 *    saves every register and calls asyncPreempt2 here; either way the
 *    handler acknowledges (preemptGen++, signalPending = 0), and whoever
 *    asked sees the goroutine stopped, or asks again later.
 *
 * Requests come from sysmon (retake, proc.c: a goroutine that ran more
 * than forcePreemptNS), from the stop-the-world (preemptall) and from
 * suspendG, which stops one goroutine wherever it is so that another party
 * can look at its stack (the SIGQUIT dump, the collector's stack scan).
 *
 * A goroutine stopped by asyncPreempt has live values in registers and in
 * its innermost C frame that no stack map describes: g->asyncSafePoint
 * says so, and then its stack must not move (isShrinkStackSafe, DESIGN.md
 * S8) and its innermost frame is scanned conservatively (scanstack below,
 * for now only the test hook uses it).
 *
 * suspendG claims a goroutine that is not running with g->suspendclaim
 * rather than Go's _Gscan status bit.  Go's claim makes every status
 * change a compare-and-swap; gl's hand-off changes status with plain
 * stores (proc.c, setgstatus), and the only change that matters to a
 * claimant — a goroutine starting to run — happens in execute().  So the
 * claim is a word execute() reads after it publishes Grunning, and the
 * claimant, after setting it, runs membarrier(PRIVATE_EXPEDITED) before it
 * reads the status: an asymmetric Dekker handshake that puts the fence on
 * the rare side (the claimant) and leaves the hand-off path a plain load.
 * Where the kernel lacks membarrier, execute() fences instead.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>

/* ---- counters (runtime.ReadPreemptStats) ---- */

static struct preemptstats {
	uint64_t requests;    /* preemptone / suspendG asked a running G to stop */
	uint64_t sent;        /* SIGURGs sent */
	uint64_t acked;       /* SIGURGs handled */
	uint64_t refused;     /* handled where preemption was wanted but unsafe */
	uint64_t async;       /* stops in asyncPreempt */
	uint64_t sync;        /* stops at a prologue (newstack) */
	uint64_t suspends;    /* suspendG calls that got the goroutine */
	uint64_t suspendns;   /* their total wait */
	uint64_t suspendmax;  /* the longest */
	uint64_t ackns;       /* send-to-acknowledge time of the handled SIGURGs, in all */
	uint64_t ackmax;      /* the longest (seed 004's "pre") */
} pstats;

/* Raise *max to v if v is larger. */
static void countmax(uint64_t *max, uint64_t v) {
	uint64_t m = __atomic_load_n(max, __ATOMIC_RELAXED);
	while (v > m && !__atomic_compare_exchange_n(max, &m, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline void count(uint64_t *c, uint64_t n) {
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

void preemptcountrequest(void) {
	count(&pstats.requests, 1);
}

/* gopreempt_m and preemptPark (proc.c): one stop, by either way in. */
void preemptcountstop(G *gp) {
	count(gp->asyncSafePoint ? &pstats.async : &pstats.sync, 1);
}

/* ---- sending the signal ---- */

enum {
	sigPreempt = SIGURG, /* Go's choice: rarely used by programs, ignored by default */
	SYS_membarrier_ = 324,
	MEMBARRIER_PRIVATE_EXPEDITED = 1 << 3,
	MEMBARRIER_REGISTER_PRIVATE_EXPEDITED = 1 << 4,
};

static long pid;

/* Ask mp's thread to stop its goroutine asynchronously (Go's preemptM);
 * false if a signal was in flight already (its handling will do).  Not
 * from a signal handler: the first call builds the pc tables the handler
 * reads. */
bool preemptM(M *mp) {
	if (GL_UNLIKELY(!pctabready()))
		pctabinit();
	uint32_t zero = 0;
	if (!__atomic_compare_exchange_n(&mp->signalPending, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	if (pid == 0)
		pid = rawsyscall6(SYS_getpid_, 0, 0, 0, 0, 0, 0);
	count(&pstats.sent, 1);
	__atomic_store_n(&mp->signalSentAt, nanotime(), __ATOMIC_RELEASE);
	if (rawsyscall6(SYS_tgkill_, pid, mp->procid, sigPreempt, 0, 0, 0) != 0) {
		__atomic_store_n(&mp->signalPending, 0, __ATOMIC_RELEASE); /* no such thread */
		return false;
	}
	return true;
}

/* ---- the handler's side ---- */

/* What asyncPreempt, asyncPreempt2, mcall and the scheduler's way into
 * g0 need below the interrupted rsp: the red zone (128), asyncPreempt's
 * frame (pc, rbp, flags, 384-byte save area and its alignment: 416), the
 * frame of asyncPreempt2 and mcall's register block with return address
 * (about 100), with room to spare. */
enum { asyncPreemptStack = 768 };

/* Whether gp, the goroutine the signal interrupted, asked to be preempted
 * (Go's wantAsyncPreempt): its own request, or its P's. */
bool wantAsyncPreempt(G *gp) {
	/* The signal may come while this M is on g0 in dropg, between
	 * gp->m = NULL and m->curg = NULL (exitsyscall0, park_m): gp is
	 * switched out then, not to be preempted. */
	M *mp = __atomic_load_n(&gp->m, __ATOMIC_RELAXED);
	if (mp == NULL)
		return false;
	P *pp = __atomic_load_n(&mp->p, __ATOMIC_RELAXED);
	return (__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED) || (pp != NULL && pp->preempt)) &&
	       readgstatus(gp) == Grunning;
}

/* Whether the thread, interrupted at pc with rsp sp and rbp bp while its
 * current G was g, runs gp's generated code at a point where it may be
 * stopped (Go's isAsyncSafePoint).  Everything generated code keeps is
 * then in its registers, its C frame and its data frames, and the chain
 * of frame records from bp is whole:
 *  - the thread runs gp on gp's own stack (g is gp: not g0, not a
 *    systemstack call, not the signal stack), and may be preempted (no
 *    runtime locks, not dying, not in a print statement: canpreemptm);
 *  - pc is in gltext, generated code: not the runtime, not libc, not a
 *    gldefer thunk;
 *  - pc is at or after its function's entry record (GL_PCLINE, emitted as
 *    the first statement, so after gcc's prologue: push rbp; mov rsp,rbp;
 *    pushes; sub) — before it, rbp is still the caller's;
 *  - pc is not a ret, the one instruction of an epilogue that runs after
 *    rbp went back to the caller's (-fno-optimize-sibling-calls: no jumps
 *    out of an epilogue);
 *  - pc is not inside a write barrier, between its read of
 *    writeBarrier.enabled and the end of its store (inwbunsafe: the
 *    collector may turn the barrier on before the goroutine runs again,
 *    and the store would then go unseen; gl.h says more);
 *  - the stack has room for asyncPreempt below sp, the red zone included
 *    (measured from stack.lo: stackguard0 may be stackforcemove's hi or
 *    the preemption poison), and bp lies in [sp, hi).
 * The data-frame chain (g->topframe) needs no test: a frame is linked by
 * one store, after its header is written and it is zeroed (gl.h's
 * GL_FRAME_PUBLISH_BARRIER keeps gcc to that order), and unlinked by one
 * store. */
static bool isAsyncSafePoint(G *g, G *gp, uintptr_t pc, uintptr_t sp, uintptr_t bp) {
	M *mp = gp->m;
	if (g != gp || mp->curg != gp || !canpreemptm(mp))
		return false;
	if (sp < gp->stack.lo + asyncPreemptStack || sp >= gp->stack.hi)
		return false;
	if (bp < sp || bp >= gp->stack.hi || (bp & 7) != 0)
		return false;
	if (!ingltext(pc) || !pctabready())
		return false;
	uintptr_t entry = funcentryrec(pc);
	if (entry == 0 || pc < entry)
		return false;
	const uint8_t *ip = (const uint8_t *)pc;
	if (ip[0] == 0xc3 || ip[0] == 0xc2 || (ip[0] == 0xf3 && ip[1] == 0xc3)) /* ret, ret imm16, rep ret */
		return false;
	if (inwbunsafe(pc)) /* between a write barrier's check and its store (gl.h) */
		return false;
	return true;
}

/* The SIGURG handler's work (signal_linux.c passes the G the signal
 * interrupted — tls_g is the M's gsignal meanwhile — and the interrupted
 * pc, sp and bp; Go's doSigPreempt).  Returns true if it rewrote pc and sp
 * so the thread calls asyncPreempt on return from the handler.  Runs on
 * the signal stack with signals blocked: only loads, stores, atomics and
 * clock_gettime (the vDSO: async-signal-safe). */
bool sigpreempt(G *g, uintptr_t *pc, uintptr_t *sp, uintptr_t bp) {
	M *mp = g->m;
	G *gp = mp->curg;
	bool inject = false;
	bool inruntime = false;
	if (gp != NULL && wantAsyncPreempt(gp)) {
		inject = !gl_debug.asyncpreemptoff && isAsyncSafePoint(g, gp, *pc, *sp, bp);
		if (!inject)
			count(&pstats.refused, 1);
		inruntime = !inject && !ingltext(*pc);
	}
	__atomic_store_n(&mp->signalInRuntime, inruntime, __ATOMIC_RELAXED);
	if (inject) {
		/* "call" asyncPreempt below the red zone; it returns with
		 * ret $128 (preempt_amd64.S) */
		uintptr_t nsp = *sp - 128 - 8;
		*(uintptr_t *)nsp = *pc;
		*sp = nsp;
		*pc = (uintptr_t)asyncPreempt;
	}
	/* acknowledge: whoever waits may ask again.  A SIGURG from outside
	 * (kill -URG) finds no send time, or an old one: only signals the
	 * runtime sent (signalPending set) count in the send-to-ack time. */
	if (__atomic_load_n(&mp->signalPending, __ATOMIC_ACQUIRE)) {
		int64_t ns = nanotime() - __atomic_load_n(&mp->signalSentAt, __ATOMIC_ACQUIRE);
		if (ns > 0) {
			count(&pstats.ackns, (uint64_t)ns);
			countmax(&pstats.ackmax, (uint64_t)ns);
		}
	}
	count(&pstats.acked, 1);
	__atomic_add_fetch(&mp->preemptGen, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&mp->signalPending, 0, __ATOMIC_RELEASE);
	return inject;
}

/* Whether pc is the return address of asyncPreempt's call of
 * asyncPreempt2: the frame above it is an interrupted one, whose "return
 * address" is the exact pc where it stopped (traceback.c). */
extern const char asyncPreemptRet[];

bool inAsyncPreempt(uintptr_t pc) {
	return pc == (uintptr_t)asyncPreemptRet;
}

/* Called by asyncPreempt on the goroutine stack, with regs its save area
 * (preempt_amd64.S).  Switches the goroutine out as a preemption at a
 * prologue would, and returns when it runs again, on whatever M. */
void asyncPreempt2(uintptr_t *regs) {
	G *gp = getg();
	gp->asyncSafePoint = true;
	gp->asyncregs = regs;
	if (gp->preemptStop)
		mcall(preemptPark);
	else
		mcall(gopreempt_m);
	gp->asyncregs = NULL;
	gp->asyncSafePoint = false;
}

/* A request to stop, seen on the way out of an allocation's slow path
 * (malloc.c), Go's yield in gcAssistAlloc ("if gp.preempt { Gosched() }").
 * A loop that allocates large objects spends nearly all its time in the
 * runtime's C — the allocator, memmove, page faults — where a SIGURG is
 * refused (not an async safe point), and in gl code too briefly for the
 * signal to land there: a stop-the-world or a suspendG could wait for it
 * for seconds while the heap grows (Go's test/init1.go: a gigabyte).  The
 * slow path is a synchronous safe point, as a prologue is: only on the
 * goroutine's own stack, with a P, no runtime lock held and not printing
 * (malloc.c's allocStopCheck decides, on g0, and takes the request).
 * Its runtime C frames hold no stack map; the scan reads them word by
 * word (syncframe), and the stack must not move meanwhile (gcc may keep
 * the address of a C local in a callee-saved register): runtimeCSafePoint
 * tells isShrinkStackSafe so. */
void allocPreempt(G *gp) {
	M *mp = getm();
	if (mp->assistpark) { /* set on this M just now, on g0 (malloc.c) */
		/* gopark by hand: a call more would not fit the band of the
		 * deepest allocating runtime C (testdata/stackusage.py) */
		mp->assistpark = false;
		gp->waitreason = waitReasonGCAssistWait;
		gp->waitsince = 1;
		mp->waitunlockf = gcParkAssist;
		mp->waitlock = NULL;
		mcall(park_m);
	} else if (gp->preemptStop)
		mcall(preemptPark);
	else
		mcall(gopreempt_m);
	gp->runtimeCSafePoint = false; /* the same G on whatever M (S9: no TLS here) */
}

/* A request to stop, seen at the start of a runtime entry that generated
 * code calls as it calls a gl function — with its pc record written
 * before and the frame re-derived after (RELOAD), since the entry may
 * allocate, park or panic anyway: the map operations, channel sends and
 * receives, and select (rt.h's entrySafePoint).  Go's runtime functions
 * check at their prologue, as every Go function does; runtime C has no
 * prologue, and a loop that spends nearly all its time inside map
 * operations (bench/compute's mapint: 98%) gave a SIGURG about one chance
 * in fifty of landing in gl code — its stops for mark termination took 50
 * to 70 ms, and the collector's cycle 150 ms, where Go's took 1 to 2; a
 * loop polling a select with a default, with asynchronous preemption off,
 * was never stopped.  The stop is allocPreempt's: on the goroutine's own
 * stack (not g0's: runtime C may call a map function on the system
 * stack), with a P, no runtime lock held; the C frames below it are
 * scanned word by word and the stack does not move until it runs. */
GL_NOINLINE GL_COLD void entryPreempt(G *gp) {
	M *mp = gp->m;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	if (mp == NULL || mp->curg != gp || sp < gp->stack.lo || sp >= gp->stack.hi || mp->p == NULL ||
	    !canpreemptm(mp))
		return;
	takeRuntimeCStop(gp);
	allocPreempt(gp);
}

/* ---- suspendG / resumeG ---- */

static bool usemembarrier; /* registered: claimants fence, execute does not */

/* Whether execute() must fence before it reads a G's claim (no membarrier). */
bool suspendfence = true;

/* At start-up (initsig): the membarrier registration the claim needs. */
void preemptinit(void) {
	if (rawsyscall6(SYS_membarrier_, MEMBARRIER_REGISTER_PRIVATE_EXPEDITED, 0, 0, 0, 0, 0) == 0) {
		usemembarrier = true;
		suspendfence = false;
	}
}

/* execute() published Grunning and found gp claimed by a suspendG caller:
 * gp may not run until the claim is released (Go's casgstatus spinning on
 * _Gscan).  The claimant holds it for as long as it looks at the stack. */
void suspendwaitexecute(G *gp) {
	for (int i = 0; __atomic_load_n(&gp->suspendclaim, __ATOMIC_ACQUIRE) != 0; i++) {
		if (i < 50)
			procyield(10);
		else
			osyield();
	}
}

/* Take the claim on gp, which was seen not running; false if it started
 * running meanwhile (or another claimant has it). */
static bool suspendclaim(G *gp, bool *stopped) {
	uint32_t zero = 0;
	if (!__atomic_compare_exchange_n(&gp->suspendclaim, &zero, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return false;
	/* The CAS is a full fence on this thread; membarrier makes every other
	 * thread's earlier stores (execute's Grunning) visible before the
	 * status is read again, or makes them see the claim. */
	if (usemembarrier)
		rawsyscall6(SYS_membarrier_, MEMBARRIER_PRIVATE_EXPEDITED, 0, 0, 0, 0, 0);
	uint32_t s = readgstatus(gp);
	if (s != Grunnable && s != Gwaiting && s != Gpreempted && s != Gsyscall) {
		__atomic_store_n(&gp->suspendclaim, 0, __ATOMIC_RELEASE);
		return false;
	}
	*stopped = s == Gpreempted;
	if (*stopped) {
		/* it parked itself for us: it is ours now, waiting until resumeG */
		casgstatus(gp, Gpreempted, Gwaiting);
	}
	/* the request is done; the stack is ours, so its guard can be reset
	 * (execute resets it too) */
	gp->preemptStop = false;
	gp->preempt = false;
	if (__atomic_load_n(&gp->stackguard0, __ATOMIC_RELAXED) == GL_STACK_PREEMPT)
		gp->stackguard0 = stackguard(gp);
	return true;
}

/* suspendG's resend pacing.  Go's (GLDEBUG=preemptpacing=fixed): another
 * signal once the last one was handled and yieldDelay/2 = 5 µs have
 * passed since it was sent.  Seed 004 shows that on cores where the way
 * back from a handler is slow, the next signal is already pending when
 * sigreturn unblocks signals, and a goroutine caught at an unsafe point
 * never gets past it.  The default, adaptive: after a signal was handled
 * without the goroutine stopping, give the goroutine time to run that
 * scales with what a signal costs on this core — four times the measured
 * send-to-acknowledge time (and at least 5 µs) from the acknowledgement —
 * doubled for each further such signal in a row up to 8 times that, and
 * never more than 1 ms.  On this machine's cores (a few µs a signal) it
 * resends within 10–100 µs; on seed 004's A520 (22 µs) from about 90 µs,
 * as the diagnostic builds there that removed the stall did.  A signal
 * that found the goroutine in the runtime's C (the allocator, memmove, a
 * page fault) does not count towards the doubling: it says nothing about
 * the way back from a handler, only that the goroutine was not in gl code
 * — an allocator, which its next slow-path allocation stops anyway
 * (allocKick) — and doubling there slowed every suspension of the
 * collector's allocating goroutines (bench/stall's gl-gc arms).
 *
 * The stop-the-world paces its signals the same way (proc.c,
 * preemptall), each P's on its own: it resent every 100 µs, as Go's
 * does, and under seed 004's slow return (bench/stall, 150 µs) an
 * allocator in runtime C had a signal pending at every sigreturn — the
 * livelock, moved from suspendG to the collector's stop-the-world: a
 * 271 ms stop for mark termination in a 4-second run, the locked loop
 * waiting for a P all that time. */
enum { yieldDelay = 10 * 1000, maxResendDelay = 1000 * 1000, resendScale = 4, maxBackoff = 8 };

static int64_t resenddelay(pacing *pc, int64_t now) {
	if (gl_debug.preemptpacing == 1)
		return pc->sentAt + yieldDelay / 2 - now;
	int64_t d = resendScale * (now - pc->sentAt);
	if (d < yieldDelay / 2)
		d = yieldDelay / 2;
	for (int32_t i = 1; i < pc->failures && (1 << i) <= maxBackoff; i++)
		d *= 2;
	return d < maxResendDelay ? d : maxResendDelay;
}

/* Signal mp, which runs a goroutine that has a stop request, when pc's
 * pacing allows: not while a signal to mp is in flight, and after one
 * that was handled without the goroutine stopping, only once the resend
 * delay has passed. */
void preemptMPaced(M *mp, pacing *pc) {
	if (gl_debug.asyncpreemptoff)
		return;
	/* A signal in flight (this caller's or anyone's): wait for its
	 * handler, which counts preemptGen and then clears signalPending.
	 * Reading preemptGen first instead could catch a handler between the
	 * two, and then wait for a signal that was never sent. */
	if (__atomic_load_n(&mp->signalPending, __ATOMIC_ACQUIRE))
		return;
	int64_t now = nanotime();
	if (pc->outstanding) { /* ours was handled, and the goroutine still runs */
		pc->outstanding = false;
		if (!__atomic_load_n(&mp->signalInRuntime, __ATOMIC_RELAXED))
			pc->failures++;
		pc->next = now + resenddelay(pc, now);
	}
	if (now < pc->next)
		return;
	pc->sentAt = now;
	pc->outstanding = preemptM(mp);
}

/* gp is running: make sure it has a request, and signal its M when the
 * pacing allows. */
static void suspendrequest(G *gp, pacing *pc) {
	if (!gp->preemptStop || !gp->preempt ||
	    __atomic_load_n(&gp->stackguard0, __ATOMIC_RELAXED) != GL_STACK_PREEMPT) {
		gp->preemptStop = true;
		gp->preempt = true;
		__atomic_store_n(&gp->stackguard0, GL_STACK_PREEMPT, __ATOMIC_RELEASE);
		count(&pstats.requests, 1);
	}
	M *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
	if (mp != NULL) {
		allocKick(__atomic_load_n(&mp->p, __ATOMIC_ACQUIRE)); /* malloc.c */
		preemptMPaced(mp, pc);
	}
}

/* Stop gp at a safe point and claim it, wherever it is: running (ask it to
 * park itself, Gpreempted), runnable, or waiting (Go's suspendG).  On g0
 * or a thread without a goroutine (sysmon), never from gp itself.  The
 * caller may then read gp's stack; resumeG lets it go.  deadline (a
 * nanotime, 0 for none) is for dumps of a dying process: past it,
 * suspendG gives up (the result has g == NULL), and a goroutine that stops
 * later stays stopped. */
suspendGState suspendG(G *gp, int64_t deadline) {
	G *self = tls_g;
	if (self != NULL && self == self->m->curg)
		gl_throw("suspendG from a goroutine stack");
	if (self != NULL && gp == self->m->curg)
		gl_throw("suspendG of the goroutine of this M"); /* it would wait for itself */
	int64_t t0 = nanotime(), nextYield = 0;
	pacing pc = {0};
	for (int i = 0;; i++) {
		uint32_t s = readgstatus(gp);
		bool stopped = false;
		switch (s) {
		case Gdead:
		case Gidle: /* a dead G that newproc1 is clearing for reuse: no stack yet */
			return (suspendGState){NULL, true, false};
		case Gcopystack: /* its own newstack or park is moving it */
			break;
		case Grunnable:
		case Gwaiting:
		case Gpreempted:
		case Gsyscall: /* stopped at a safe point already (Go's
				* _Gscansyscall): exitsyscall waits for the
				* claim as execute does */
			if (suspendclaim(gp, &stopped)) {
				int64_t ns = nanotime() - t0;
				count(&pstats.suspends, 1);
				count(&pstats.suspendns, (uint64_t)ns);
				countmax(&pstats.suspendmax, (uint64_t)ns);
				return (suspendGState){gp, false, stopped};
			}
			break;
		case Grunning:
			suspendrequest(gp, &pc);
			break;
		default:
			gl_throw("suspendG: invalid status");
		}
		/* wait a little, spinning at first (Go's yield loop) */
		int64_t now = nanotime();
		if (deadline != 0 && now > deadline)
			return (suspendGState){NULL, false, false};
		if (i == 0)
			nextYield = now + yieldDelay;
		if (now < nextYield) {
			procyield(10);
		} else {
			osyield();
			nextYield = now + yieldDelay / 2;
		}
	}
}

/* Claim gp as suspendG does, but only if it is stopped already —
 * runnable, waiting, in a system call, preempted: never ask a running
 * goroutine to stop (the collector's worker, which must not wait for a
 * goroutine that may be waiting for the worker's P to stop the world).
 * The result's g is NULL if gp runs (or is dead: then dead is set). */
suspendGState trysuspendG(G *gp) {
	uint32_t s = readgstatus(gp);
	bool stopped = false;
	if (s == Gdead || s == Gidle) /* Gidle: newproc1 clearing a dead G for reuse */
		return (suspendGState){NULL, true, false};
	if ((s == Grunnable || s == Gwaiting || s == Gpreempted || s == Gsyscall) && suspendclaim(gp, &stopped)) {
		count(&pstats.suspends, 1);
		return (suspendGState){gp, false, stopped};
	}
	return (suspendGState){NULL, false, false};
}

/* Release a goroutine suspendG claimed; one it stopped runs again. */
void resumeG(suspendGState st) {
	G *gp = st.g;
	if (gp == NULL)
		return;
	__atomic_store_n(&gp->suspendclaim, 0, __ATOMIC_RELEASE);
	if (st.stopped)
		readyfromsuspend(gp);
}

/* ---- the conservative scan of an async-stopped goroutine ---- */

/* The end of the frame record of the function that owns gp's innermost
 * data frame (a data frame is alloca'd below its function's rbp: the
 * owner is the first record above it on the rbp chain from bp), walking
 * records above floor; the stack's top if gp has no data frame or the
 * chain leaves the stack or stops climbing, which is safe. */
static uintptr_t topowner(G *gp, uintptr_t bp, uintptr_t floor) {
	uintptr_t top = (uintptr_t)gp->topframe, lim = gp->stack.hi;
	for (; top != 0 && bp > floor && bp + 16 <= lim; bp = *(uintptr_t *)bp) {
		if (bp > top)
			return bp + 16;
		if (*(uintptr_t *)bp <= bp)
			break;
	}
	return lim;
}

/* The words of gp's innermost frames that no stack map describes, when it
 * was stopped by asyncPreempt: the register save area, asyncPreempt's
 * frame record, the red zone, and the C frames from the interrupted
 * function's up to and with the frame record of the function that owns
 * the innermost data frame (that data frame, inside, is left to its map).
 * [*lo, *hi); false if gp was not stopped asynchronously.
 * preempt_amd64.S keeps asyncPreempt's rbp at regs[47] (byte 376). */
static bool asyncframe(G *gp, uintptr_t *lo, uintptr_t *hi) {
	uintptr_t *regs = gp->asyncregs;
	if (!gp->asyncSafePoint || regs == NULL)
		return false;
	uintptr_t aprbp = regs[47];
	uintptr_t ibp = *(uintptr_t *)aprbp; /* the interrupted rbp */
	uintptr_t end = aprbp + 16 + 128;    /* the interrupted rsp */
	if (ibp + 16 > end && ibp < gp->stack.hi)
		end = ibp + 16;
	/* A function without a data frame that calls bare leaves (a register
	 * function, compiler/regleaf.c) keeps its pointers in registers and
	 * its C frame while the leaf runs: the words up to the frame record
	 * of the function that owns the innermost data frame. */
	uintptr_t owner = topowner(gp, ibp, gp->stack.lo);
	if (owner > end)
		end = owner;
	*lo = (uintptr_t)regs;
	*hi = end;
	return true;
}

/* The words of a goroutine stopped synchronously (parked through mcall,
 * or in gl_morestack at a prologue) that no stack map describes: from the
 * register block its switch pushed (g->sched.sp) up to the innermost data
 * frame.  That covers a function stopped in its prologue, whose pointer
 * parameters are still only in registers (saved in the block) or in gcc's
 * spills of its C frame — its data frame does not exist yet, and its C
 * frame lies below its caller's, data frame and all — and runtime C frames
 * between the park and the gl code that called them, with the arguments
 * passed to them in memory.  It stops short of the rest of the data frame
 * owner's C frame (its spills and the callee-saved registers its prologue
 * pushed, which hold its caller's values): that function is past its
 * prologue and, by S1, keeps what it needs after the call in its data
 * frame, and a stale pointer read there as a root keeps a dead object
 * alive for as long as the goroutine stays parked (Go's test/stackobj.go,
 * one run in six on a loaded machine: the caller's register still held
 * the object's address).  With no data frame at all, the whole stack
 * above sp.  [*lo, *hi); false if gp has no saved state. */
static bool syncframe(G *gp, uintptr_t *lo, uintptr_t *hi) {
	uintptr_t sp = gp->sched.sp, lim = gp->stack.hi, top = (uintptr_t)gp->topframe;
	if (gp->asyncSafePoint || sp == 0 || sp < gp->stack.lo || sp >= lim)
		return false;
	*lo = sp;
	*hi = top >= sp && top < lim ? top : lim;
	return true;
}

/* ---- package runtime ---- */

/* stdlib/runtime's PreemptStats (glc contract's layout) */
typedef struct runtime_PreemptStats PreemptStats;

void runtime_readPreemptStats(G *g, PreemptStats *s) {
	(void)g;
	s->Requests = __atomic_load_n(&pstats.requests, __ATOMIC_RELAXED);
	s->SignalsSent = __atomic_load_n(&pstats.sent, __ATOMIC_RELAXED);
	s->SignalsAcked = __atomic_load_n(&pstats.acked, __ATOMIC_RELAXED);
	s->SignalsRefused = __atomic_load_n(&pstats.refused, __ATOMIC_RELAXED);
	s->AsyncPreempts = __atomic_load_n(&pstats.async, __ATOMIC_RELAXED);
	s->SyncPreempts = __atomic_load_n(&pstats.sync, __ATOMIC_RELAXED);
	s->Suspends = __atomic_load_n(&pstats.suspends, __ATOMIC_RELAXED);
	s->SuspendNs = __atomic_load_n(&pstats.suspendns, __ATOMIC_RELAXED);
	s->SuspendMaxNs = __atomic_load_n(&pstats.suspendmax, __ATOMIC_RELAXED);
	s->SignalAckNs = __atomic_load_n(&pstats.ackns, __ATOMIC_RELAXED);
	s->SignalAckMaxNs = __atomic_load_n(&pstats.ackmax, __ATOMIC_RELAXED);
}

/* ---- test hooks (stdlib/runtime/preempt.gl) ---- */

int64_t runtime_testGoid(G *g) {
	return g->goid;
}

typedef struct scanargs {
	int64_t goid;
	const uintptr_t *objs;
	int64_t nobjs;
	uintptr_t size;
	bool poison;
	int64_t found;
	int64_t how; /* -1 no such goroutine, 0 not running, 1 stopped at a prologue, 2 asynchronously */
} scanargs;

static bool hits(const scanargs *a, uintptr_t w, uint8_t *seen) {
	bool any = false;
	for (int64_t i = 0; i < a->nobjs; i++)
		if (w - a->objs[i] < a->size) {
			seen[i] = 1;
			any = true;
		}
	return any;
}

/* The words of gp's innermost frames that no stack map describes, for
 * the collector's conservative scan (mgcstack.c): asyncframe's if a
 * signal stopped it, syncframe's if it stopped itself.  [*lo, *hi); false
 * if it has no saved state. */
bool gcinnerframes(G *gp, uintptr_t *lo, uintptr_t *hi) {
	return asyncframe(gp, lo, hi) || syncframe(gp, lo, hi);
}

typedef struct testscanhit {
	const scanargs *a;
	uint8_t *seen;
} testscanhit;

static void testscanslot(uintptr_t *slot, void *arg) {
	testscanhit *h = arg;
	hits(h->a, *slot, h->seen);
}

static void testscan_m(void *arg) {
	scanargs *a = arg;
	G *gp = NULL;
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n && gp == NULL; i++)
		if (gs[i]->goid == a->goid && readgstatus(gs[i]) != Gdead)
			gp = gs[i];
	a->how = -1;
	if (gp == NULL || gp == getm()->curg) /* not the caller itself */
		return;
	bool wasrunning = readgstatus(gp) == Grunning;
	suspendGState st = suspendG(gp, 0);
	if (st.dead)
		return;
	a->how = gp->asyncSafePoint ? 2 : wasrunning ? 1 : 0;
	uint8_t *seen = mallocgc((uint64_t)a->nobjs + 1, NULL, true);
	testscanhit h = {a, seen};
	gcscanstack(gp, testscanslot, testscanslot, &h);
	for (int64_t i = 0; i < a->nobjs; i++) {
		if (seen[i])
			a->found++;
		else if (a->poison) /* what a collector that missed it would do: free and reuse it */
			memset((void *)a->objs[i], 0xdb, a->size);
	}
	resumeG(st);
}

/* runtime.ScanStackForTest: suspend goroutine goid, scan its stack as the
 * collector will (precise data frames, conservative innermost frame if it
 * was stopped asynchronously), count the objects of objs (each size bytes)
 * something on it points into, and with poison overwrite the others, as a
 * collector that freed them would; then let it run again.  Returns found,
 * and how it was stopped (16 bytes: in registers, DESIGN.md S5). */
struct gltuple_int_int runtime_scanStackForTest(G *g, int64_t goid, const GlSlice *objs, uintptr_t size, bool poison) {
	(void)g;
	scanargs a = {goid, objs->ptr, objs->len, size, poison, 0, 0};
	systemstack(testscan_m, &a);
	return (struct gltuple_int_int){.r0 = a.found, .r1 = a.how};
}
