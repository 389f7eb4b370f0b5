/*
 * lock_futex.c — the runtime's locks and notes on Linux futexes (Go's
 * runtime/lock_futex.go and os_linux.go: futexsleep, futexwakeup).
 *
 * A mutex is what the runtime holds for a few hundred instructions at
 * most (a channel, the scheduler, a timer heap): it spins a little before
 * sleeping in the kernel, and blocks the whole thread while it waits —
 * goroutines never wait on a mutex for long, they park.  A note is a
 * one-time event an idle M sleeps on (stopm, the stop-the-world, sysmon).
 *
 * Everything here is a small leaf making raw system calls, so it runs on
 * any stack: a goroutine's (chan.c locks channels there), g0, or the
 * signal stack.  GLDEBUG=lockrank adds lockrank.c's checks of the lock
 * order (rt.h, enum lockRank) to lock and unlock.
 */
#include "rt.h"

enum {
	SYS_sched_yield_ = 24,
	SYS_nanosleep_ = 35,
	SYS_futex_ = 202,
	FUTEX_WAIT_PRIVATE_ = 128,
	FUTEX_WAKE_PRIVATE_ = 129,
};

/* Go's lock_futex.go spins this much before sleeping. */
enum {
	mutex_unlocked = 0,
	mutex_locked = 1,
	mutex_sleeping = 2,
	active_spin = 4,
	active_spin_cnt = 30,
	passive_spin = 1,
};

typedef struct timespec_ {
	int64_t tv_sec, tv_nsec;
} timespec_;

/* Sleep while *addr == val, at most ns nanoseconds (forever if ns < 0).
 * Spurious wakeups are allowed: callers re-check. */
void futexsleep(uint32_t *addr, uint32_t val, int64_t ns) {
	if (ns < 0) {
		rawsyscall6(SYS_futex_, (long)addr, FUTEX_WAIT_PRIVATE_, val, 0, 0, 0);
		return;
	}
	timespec_ ts = {ns / 1000000000, ns % 1000000000};
	rawsyscall6(SYS_futex_, (long)addr, FUTEX_WAIT_PRIVATE_, val, (long)&ts, 0, 0);
}

/* Wake up to cnt threads sleeping on addr. */
void futexwakeup(uint32_t *addr, uint32_t cnt) {
	rawsyscall6(SYS_futex_, (long)addr, FUTEX_WAKE_PRIVATE_, cnt, 0, 0, 0);
}

void osyield(void) {
	rawsyscall6(SYS_sched_yield_, 0, 0, 0, 0, 0, 0);
}

/* Busy-wait for about cycles pause instructions (Go's procyield). */
void procyield(uint32_t cycles) {
	while (cycles-- > 0)
		__builtin_ia32_pause();
}

void usleep_(uint32_t us) {
	timespec_ ts = {us / 1000000, (int64_t)(us % 1000000) * 1000};
	rawsyscall6(SYS_nanosleep_, (long)&ts, 0, 0, 0, 0, 0);
}

/* The M that holds a runtime lock must not be preempted or park (Go's
 * m.locks); tls_g is NULL only before the runtime is set up. */
static inline void incmlocks(int32_t d) {
	G *g = tls_g;
	if (g != NULL && g->m != NULL)
		g->m->locks += d;
}

void lock(mutex *l) {
	incmlocks(1);
	if (GL_UNLIKELY(gl_debug.lockrank))
		lockWithRank(l);
	/* speculative grab for the lock */
	uint32_t v = __atomic_exchange_n(&l->key, mutex_locked, __ATOMIC_ACQUIRE);
	if (v == mutex_unlocked)
		return;
	/* wait is mutex_locked or mutex_sleeping: what to leave in key when
	 * the lock is ours — sleeping if anyone might be asleep on it */
	uint32_t wait = v;
	int spin = ncpu > 1 ? active_spin : 0;
	for (;;) {
		for (int i = 0; i < spin; i++) {
			while (__atomic_load_n(&l->key, __ATOMIC_RELAXED) == mutex_unlocked) {
				uint32_t z = mutex_unlocked;
				if (__atomic_compare_exchange_n(&l->key, &z, wait, false, __ATOMIC_ACQUIRE,
								__ATOMIC_RELAXED))
					return;
			}
			procyield(active_spin_cnt);
		}
		for (int i = 0; i < passive_spin; i++) {
			while (__atomic_load_n(&l->key, __ATOMIC_RELAXED) == mutex_unlocked) {
				uint32_t z = mutex_unlocked;
				if (__atomic_compare_exchange_n(&l->key, &z, wait, false, __ATOMIC_ACQUIRE,
								__ATOMIC_RELAXED))
					return;
			}
			osyield();
		}
		/* sleep */
		v = __atomic_exchange_n(&l->key, mutex_sleeping, __ATOMIC_ACQUIRE);
		if (v == mutex_unlocked)
			return;
		wait = mutex_sleeping;
		futexsleep(&l->key, mutex_sleeping, -1);
	}
}

/* lock(l) if no one holds it; false, and nothing held, otherwise. */
bool trylock(mutex *l) {
	uint32_t z = mutex_unlocked;
	incmlocks(1);
	if (__atomic_compare_exchange_n(&l->key, &z, mutex_locked, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (GL_UNLIKELY(gl_debug.lockrank))
			trylockWithRank(l);
		return true;
	}
	incmlocks(-1);
	return false;
}

void unlock(mutex *l) {
	if (GL_UNLIKELY(gl_debug.lockrank))
		unlockWithRank(l);
	uint32_t v = __atomic_exchange_n(&l->key, mutex_unlocked, __ATOMIC_RELEASE);
	if (v == mutex_unlocked)
		gl_throw("unlock of unlocked lock");
	if (v == mutex_sleeping)
		futexwakeup(&l->key, 1);
	incmlocks(-1);
}

/* ---- notes ---- */

void noteclear(note *n) {
	__atomic_store_n(&n->key, 0, __ATOMIC_RELAXED);
}

void notewakeup(note *n) {
	uint32_t old = __atomic_exchange_n(&n->key, 1, __ATOMIC_RELEASE);
	if (old != 0)
		gl_throw("notewakeup - double wakeup");
	futexwakeup(&n->key, 1);
}

void notesleep(note *n) {
	while (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 0)
		futexsleep(&n->key, 0, -1);
}

/* Sleep until notewakeup or ns nanoseconds have passed. */
bool notetsleep(note *n, int64_t ns) {
	if (ns < 0) {
		notesleep(n);
		return true;
	}
	int64_t deadline = nanotime() + ns;
	while (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 0) {
		futexsleep(&n->key, 0, ns);
		if (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) != 0)
			break;
		int64_t now = nanotime();
		if (now >= deadline)
			return false;
		ns = deadline - now;
	}
	return true;
}
