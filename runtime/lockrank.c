/*
 * lockrank.c — GLDEBUG=lockrank: the lock order written in rt.h (enum
 * lockRank), checked at every lock() (Go's lockrank.go and
 * lockrank_on.go; Go builds its checks in with
 * GOEXPERIMENT=staticlockranking, gl makes them when asked, at run time).
 *
 * Two Ms that take two locks in opposite orders can each end up holding
 * the one the other waits for, and nothing reports it: both threads just
 * sleep in futex(2), with m.locks raised, so the scheduler hangs.  Such a
 * deadlock needs an unlucky interleaving to happen, but the *order* is
 * visible on every run: each M keeps the list of the mutexes it holds
 * (M.locksheld), and a mutex may be taken only if its rank is above every
 * rank in the list — or equal, for the ranks that say they nest.  A
 * violation prints the M's list and throws "lock ordering problem", as
 * Go's does, whether or not this run would have deadlocked.
 *
 * The check runs before the lock is taken (a bad order reports rather
 * than hangs).  trylock does not wait, so it is not checked, but what it
 * took is held and counts for the locks taken after it.  Unlocks may come
 * in any order: the entry is found by address.  A lock taken on a thread
 * with no M (before the runtime is set up) is not tracked.
 */
#include "rt.h"

/* The ranks' names, as a report prints them. */
static const char *const rankNames[lockRankCount] = {
	[lockRankNone] = "NONE",
	[lockRankBgworker] = "bgworker",
	[lockRankGcoff] = "gcoff",
	[lockRankFfi] = "ffi",
	[lockRankSweep] = "sweep",
	[lockRankAssistQueue] = "assistQueue",
	[lockRankPollDesc] = "pollDesc",
	[lockRankHchan] = "hchan",
	[lockRankSemaRoot] = "semaRoot",
	[lockRankNotifyList] = "notifyList",
	[lockRankSig] = "sig",
	[lockRankTimer] = "timer",
	[lockRankTimers] = "timers",
	[lockRankFin] = "fin",
	[lockRankSched] = "sched",
	[lockRankAllg] = "allg",
	[lockRankGFree] = "gFree",
	[lockRankSudog] = "sudog",
	[lockRankItab] = "itab",
	[lockRankProf] = "prof",
	[lockRankWork] = "work",
	[lockRankMarkWait] = "markwait",
	[lockRankNop] = "nop",
	[lockRankMcentral] = "mcentral",
	[lockRankSpanSpecial] = "spanSpecial",
	[lockRankMheap] = "mheap",
	[lockRankMheapSpecial] = "mheapSpecial",
	[lockRankStack] = "stack",
	[lockRankPoison] = "poison",
	[lockRankPollCache] = "pollCache",
};

/* The ranks an M may hold more than one of at once (rt.h says in which
 * order each is taken). */
static const bool rankNests[lockRankCount] = {
	[lockRankHchan] = true,
	[lockRankTimers] = true,
};

/* lockrank=2: the pairs (held, taken) already printed; atomic bytes */
static uint8_t pairSeen[lockRankCount][lockRankCount];

static const char *rankName(uint32_t r) {
	return r < lockRankCount && rankNames[r] != NULL ? rankNames[r] : "?";
}

/* The M whose list to use: NULL before the runtime is set up, and on an
 * M that is already dying (its throw may take any lock). */
static M *rankm(void) {
	G *g = tls_g;
	if (g == NULL || g->m == NULL || g->m->dying != 0)
		return NULL;
	return g->m;
}

static void printHeldLock(uint32_t rank, mutex *l) {
	prints(rankName(rank));
	prints(" ");
	printint(rank);
	prints(" ");
	printpointer(l);
	prints("\n");
}

/* Print what mp holds and what it was about to do with l, and throw.
 * Checking stops first: the throw takes locks of its own in any order. */
static GL_NORETURN void rankProblem(M *mp, mutex *l, const char *what, const char *msg) {
	__atomic_store_n(&gl_debug.lockrank, 0, __ATOMIC_RELAXED);
	printlock();
	printint(mp->procid);
	prints(" ======\n");
	if (mp->nlocksheld == 0)
		prints("<none>\n");
	for (int32_t i = 0; i < mp->nlocksheld; i++) {
		printint(i);
		prints(" : ");
		printHeldLock(mp->locksheld[i].rank, mp->locksheld[i].l);
	}
	prints(what);
	prints(": ");
	printHeldLock(l->rank, l);
	printunlock();
	gl_throw(msg);
}

static void printPair(uint32_t held, uint32_t taken) {
	uint8_t zero = 0;
	if (!__atomic_compare_exchange_n(&pairSeen[held][taken], &zero, 1, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return;
	printlock();
	prints("lockrank: ");
	prints(rankName(held));
	prints(" -> ");
	prints(rankName(taken));
	prints("\n");
	printunlock();
}

static void pushHeld(M *mp, mutex *l) {
	int32_t n = mp->nlocksheld;
	if (n == (int32_t)(sizeof mp->locksheld / sizeof mp->locksheld[0]))
		rankProblem(mp, l, "taking", "too many locks held concurrently for rank checking");
	/* the entry before the count: a signal handler that comes between
	 * sees a consistent list, and leaves it as it found it */
	mp->locksheld[n] = (struct heldLock){l, l->rank};
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	mp->nlocksheld = n + 1;
}

/* The entry points below run their work on g0 (as Go's do): lock and
 * unlock run on goroutine stacks too, in the reserve band below
 * stackguard0, which a printing call chain would overrun
 * (testdata/stackusage.py). */

static void lockWithRank_m(void *arg) {
	mutex *l = arg;
	M *mp = rankm();
	if (mp == NULL)
		return;
	uint32_t r = __atomic_load_n(&l->rank, __ATOMIC_RELAXED);
	if (r == lockRankNone || r >= lockRankCount)
		rankProblem(mp, l, "taking", "lock without a rank");
	for (int32_t i = 0; i < mp->nlocksheld; i++) {
		uint32_t h = mp->locksheld[i].rank;
		if (gl_debug.lockrank >= 2)
			printPair(h, r);
		if (h > r || (h == r && !rankNests[r]))
			rankProblem(mp, l, "taking", "lock ordering problem");
	}
	pushHeld(mp, l);
}

/* l is about to be taken by lock(): check it against what this M holds. */
void lockWithRank(mutex *l) {
	systemstack(lockWithRank_m, l);
}

static void trylockWithRank_m(void *arg) {
	M *mp = rankm();
	if (mp != NULL)
		pushHeld(mp, arg);
}

/* trylock took l: held from now on, though not checked (it did not wait). */
void trylockWithRank(mutex *l) {
	systemstack(trylockWithRank_m, l);
}

static void unlockWithRank_m(void *arg) {
	mutex *l = arg;
	M *mp = rankm();
	if (mp == NULL)
		return;
	for (int32_t i = mp->nlocksheld - 1; i >= 0; i--) {
		if (mp->locksheld[i].l != l)
			continue;
		for (int32_t j = i; j + 1 < mp->nlocksheld; j++)
			mp->locksheld[j] = mp->locksheld[j + 1];
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		mp->nlocksheld--;
		return;
	}
	rankProblem(mp, l, "releasing", "unlock without matching lock acquire");
}

/* l is about to be released: drop it from this M's list. */
void unlockWithRank(mutex *l) {
	systemstack(unlockWithRank_m, l);
}

static void assertLockHeld_m(void *arg) {
	M *mp = rankm();
	if (mp == NULL)
		return;
	for (int32_t i = 0; i < mp->nlocksheld; i++)
		if (mp->locksheld[i].l == arg)
			return;
	rankProblem(mp, arg, "caller requires", "not holding required lock!");
}

/* assertLockHeld's check (rt.h), in lockrank mode. */
void assertLockHeldSlow(mutex *l) {
	systemstack(assertLockHeld_m, l);
}

/* ---- stdlib/runtime's LockRankForTest ---- */

void runtime_lockRankForTest(G *g, int64_t c) {
	(void)g;
	static mutex a, b;
	lockRank ra = c == 1 || c == 3 ? lockRankHchan : lockRankSched;
	lockRank rb = c == 0 || c == 3 ? lockRankHchan : lockRankSched;
	lockInit(&a, c == 5 ? lockRankNone : ra);
	lockInit(&b, rb);
	if (c == 4) {
		assertLockHeld(&a);
		return;
	}
	lock(&a);
	if (c != 5) {
		lock(&b);
		unlock(&b);
	}
	unlock(&a);
}
