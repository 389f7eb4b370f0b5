/*
 * time.c — timers (Go ≥ 1.14's runtime/time.go): a heap of timers per P,
 * run by the scheduler of the P that owns them (checkTimers in
 * findRunnable), or stolen by an idle P; idle Ms wait for the earliest
 * one in netpoll.  time.Sleep parks the goroutine on its timer: the
 * thread goes on running other goroutines.
 *
 * A timer is in at most one heap, t->pp's, and only that P's timersLock
 * guards its place there (pp, idx, when); t->mu serializes the goroutines
 * that stop or reset the same timer.  Lock order: t->mu, then a
 * timersLock.  The timer functions (f) run with no lock held, on g0 of
 * the M that runs the timer, and must not block: goroutineReady, and
 * sendTime's non-blocking channel send.
 *
 * Also here: the C side of package time (stdlib/time/time.gl).
 */
#include "rt.h"

static const int64_t maxWhen = INT64_MAX;

/* ---- the 4-ary heap ----
 *
 * pp->timers and the timers are heap objects, and the collector may be
 * marking while they change: every store of a pointer into them goes
 * through writebarrierptr (rt.h), and a grown array gets its timers with
 * the copy's barrier. */

static void siftupTimer(timer **h, int32_t i) {
	timer *t = h[i];
	int64_t when = t->when;
	while (i > 0) {
		int32_t p = (i - 1) / 4;
		if (when >= h[p]->when)
			break;
		writebarrierptr(&h[i], h[p]);
		h[i]->idx = i;
		i = p;
	}
	writebarrierptr(&h[i], t);
	t->idx = i;
}

static void siftdownTimer(timer **h, int32_t n, int32_t i) {
	timer *t = h[i];
	int64_t when = t->when;
	for (;;) {
		int32_t c = i * 4 + 1, c3 = c + 2;
		if (c >= n)
			break;
		int64_t w = h[c]->when;
		if (c + 1 < n && h[c + 1]->when < w) {
			w = h[c + 1]->when;
			c++;
		}
		if (c3 < n) {
			int64_t w3 = h[c3]->when;
			if (c3 + 1 < n && h[c3 + 1]->when < w3) {
				w3 = h[c3 + 1]->when;
				c3++;
			}
			if (w3 < w) {
				w = w3;
				c = c3;
			}
		}
		if (w >= when)
			break;
		writebarrierptr(&h[i], h[c]);
		h[i]->idx = i;
		i = c;
	}
	writebarrierptr(&h[i], t);
	t->idx = i;
}

/* A timer is a heap object: arg is a G (outside the heap), a channel
 * (time.Timer's) or a closure (AfterFunc's), which the timer alone may
 * keep alive.  pp is a P, outside the heap. */
GL_RTTYPE(gltype_timer, timer, "runtime.timer", GL_PTRWORD(timer, arg));

static void updateTimer0When(P *pp) {
	__atomic_store_n(&pp->timer0When, pp->ntimers > 0 ? pp->timers[0]->when : 0, __ATOMIC_RELEASE);
}

/* Add t to pp's heap (timersLock held). */
static void doaddtimer(P *pp, timer *t) {
	if (pp->ntimers == pp->timerscap) {
		int32_t ncap = pp->timerscap ? 2 * pp->timerscap : 16;
		timer **n = mallocgc((uint64_t)ncap * sizeof(timer *), &gltype_ptrword, true);
		if (pp->ntimers) {
			/* into a new array (black while the collector marks): shade what it receives */
			bulkBarrierPreWriteSrcOnly((uintptr_t)n, (uintptr_t)pp->timers, (uintptr_t)pp->ntimers * sizeof(timer *));
			memcpy(n, pp->timers, (size_t)pp->ntimers * sizeof(timer *));
		}
		pp->timers = n;
		pp->timerscap = ncap;
	}
	t->pp = pp;
	int32_t i = pp->ntimers;
	writebarrierptr(&pp->timers[i], t);
	__atomic_store_n(&pp->ntimers, i + 1, __ATOMIC_RELEASE);
	siftupTimer(pp->timers, i);
	if (t == pp->timers[0])
		updateTimer0When(pp);
}

/* Remove the timer at index i of pp's heap (timersLock held). */
static void dodeltimer(P *pp, int32_t i) {
	timer *t = pp->timers[i];
	int32_t last = pp->ntimers - 1;
	if (i != last) {
		writebarrierptr(&pp->timers[i], pp->timers[last]);
		pp->timers[i]->idx = i;
	}
	writebarrierptr(&pp->timers[last], NULL);
	__atomic_store_n(&pp->ntimers, last, __ATOMIC_RELEASE);
	if (i != last) {
		timer *moved = pp->timers[i];
		siftupTimer(pp->timers, i);
		siftdownTimer(pp->timers, last, moved->idx);
	}
	t->pp = NULL;
	t->idx = -1;
	updateTimer0When(pp);
}

/* Start t (not in any heap) on the current P's heap.  t->mu held. */
static void addtimerLocked(timer *t) {
	if (t->when < 0)
		t->when = maxWhen;
	P *pp = getm()->p;
	lock(&pp->timersLock);
	doaddtimer(pp, t);
	unlock(&pp->timersLock);
	wakeNetPoller(t->when);
}

/* Take t off its heap.  t->mu held.  Whether it was pending. */
static bool deltimerLocked(timer *t) {
	for (;;) {
		P *pp = __atomic_load_n(&t->pp, __ATOMIC_ACQUIRE);
		if (pp == NULL)
			return false;
		lock(&pp->timersLock);
		if (t->pp != pp) { /* run or moved meanwhile */
			unlock(&pp->timersLock);
			continue;
		}
		dodeltimer(pp, t->idx);
		unlock(&pp->timersLock);
		return true;
	}
}

void addtimer(timer *t) {
	lock(&t->mu);
	if (t->pp != NULL)
		gl_throw("addtimer called with initialized timer");
	addtimerLocked(t);
	unlock(&t->mu);
}

/* Stop t: whether it was pending (and now will not fire). */
bool deltimer(timer *t) {
	lock(&t->mu);
	bool pending = deltimerLocked(t);
	unlock(&t->mu);
	return pending;
}

/* Reset t to fire at when (every period if > 0): whether it was pending. */
bool modtimer(timer *t, int64_t when, int64_t period) {
	lock(&t->mu);
	bool pending = deltimerLocked(t);
	t->when = when;
	t->period = period;
	addtimerLocked(t);
	unlock(&t->mu);
	return pending;
}

/* Run the first timer of pp's heap if it is due (timersLock held, and
 * released while f runs).  Returns 0 if it ran, else when the first timer
 * is due (-1: no timers). */
static int64_t runtimer(P *pp, int64_t now) {
	if (pp->ntimers == 0)
		return -1;
	timer *t = pp->timers[0];
	if (t->when > now)
		return t->when;
	void (*f)(void *, uintptr_t, int64_t) = t->f;
	void *arg = t->arg;
	uintptr_t seq = t->seq;
	int64_t when = t->when;
	int64_t delta = now - when;
	if (t->period > 0) {
		/* leave it in the heap, at its next time */
		t->when += t->period * (1 + delta / t->period);
		if (t->when < 0)
			t->when = maxWhen;
		siftdownTimer(pp->timers, pp->ntimers, 0);
		updateTimer0When(pp);
	} else {
		dodeltimer(pp, 0);
	}
	unlock(&pp->timersLock);
	f(arg, seq, when);
	lock(&pp->timersLock);
	return 0;
}

/* checkTimers (rt.h) when pp has timers, the first due at next. */
int64_t checkTimersSlow(P *pp, int64_t next, int64_t now, int64_t *pollUntil, bool *ran) {
	if (now == 0)
		now = nanotime();
	if (now < next) {
		*pollUntil = next;
		return now;
	}
	*pollUntil = 0;
	lock(&pp->timersLock);
	for (;;) {
		int64_t tw = runtimer(pp, now);
		if (tw != 0) {
			if (tw > 0)
				*pollUntil = tw;
			break;
		}
		*ran = true;
	}
	unlock(&pp->timersLock);
	return now;
}

/* The world is stopped and from is going away: its timers move to the
 * heap of to (Go's moveTimers). */
void moveTimers(P *to, P *from) {
	lock(&to->timersLock);
	lock(&from->timersLock);
	while (from->ntimers > 0) {
		timer *t = from->timers[from->ntimers - 1];
		dodeltimer(from, from->ntimers - 1);
		doaddtimer(to, t);
	}
	unlock(&from->timersLock);
	unlock(&to->timersLock);
}

/* The earliest timer of all Ps (maxWhen if none): for sysmon. */
int64_t timeSleepUntil(void) {
	int64_t next = maxWhen;
	int32_t n;
	P **ap = allpsnapshot(&n);
	for (int32_t i = 0; i < n; i++) {
		int64_t w = __atomic_load_n(&ap[i]->timer0When, __ATOMIC_ACQUIRE);
		if (w != 0 && w < next)
			next = w;
	}
	return next;
}

/* ---- time.Sleep ---- */

/* The timer of a sleeping goroutine fired. */
static void goroutineReady(void *arg, uintptr_t seq, int64_t when) {
	(void)seq;
	(void)when;
	goready(arg);
}

/* gopark's unlockf: start the timer only once the goroutine is parked,
 * so that it cannot fire before. */
static bool resetForSleep(G *gp, void *ut) {
	timer *t = ut;
	modtimer(t, gp->sleepWhen, 0);
	return true;
}

void timeSleep(int64_t ns) {
	if (ns <= 0)
		return;
	G *gp = getg();
	timer *t = gp->timer;
	if (t == NULL) {
		t = mallocgc(sizeof(timer), &gltype_timer, true);
		lockInit(&t->mu, lockRankTimer);
		t->idx = -1;
		gp->timer = t;
	}
	t->f = goroutineReady;
	t->arg = gp;
	gp->sleepWhen = nanotime() + ns;
	if (gp->sleepWhen < 0) /* overflow */
		gp->sleepWhen = maxWhen;
	gopark(resetForSleep, t, waitReasonSleep);
}

/* ---- package time (stdlib/time/time.gl) ---- */

void time_Sleep(G *g, int64_t ns) {
	(void)g;
	timeSleep(ns);
}

int64_t time_runtimeNano(G *g) {
	(void)g;
	return nanotime();
}

/* time.Time as package time lays it out (Go's): wall holds the
 * hasMonotonic flag, 33 bits of seconds since 1885 and 30 bits of
 * nanoseconds; ext the monotonic clock minus the package's startNano;
 * loc the Location (time.Local).  Package time's init gives startNano and
 * Local (runtimeInit), as the Time a timer sends is Now's. */
typedef struct time_Time glTime; /* glc contract's layout */

static int64_t timeStartNano;
static struct time_Location *timeLocal;

/* The collector's roots among time.c's variables: time.Local. */
void timescanroots(void (*f)(uintptr_t *slot, void *arg), void *arg) {
	f((uintptr_t *)&timeLocal, arg);
}

void time_runtimeInit(G *g, int64_t startNano, struct time_Location *local) {
	(void)g;
	timeStartNano = startNano;
	timeLocal = local;
}

int64_t time_walltimeNano(G *g) {
	(void)g;
	return walltime();
}

/* Go's Now() from the clocks' readings (time.go). */
static glTime maketime(int64_t wall, int64_t mono) {
	enum { nsecShift = 30 };
	const int64_t unixToInternal = 62135596800, wallToInternal = 59453308800;
	int64_t sec = wall / 1000000000, nsec = wall % 1000000000;
	if (nsec < 0) {
		sec--;
		nsec += 1000000000;
	}
	sec += unixToInternal - wallToInternal;
	if ((uint64_t)sec >> 33 != 0)
		return (glTime){(uint64_t)nsec, sec + wallToInternal, timeLocal};
	return (glTime){1ull << 63 | (uint64_t)sec << nsecShift | (uint64_t)nsec, mono - timeStartNano, timeLocal};
}

/* A timer's channel gets the time it was due, if there is room: the
 * channel has a buffer of 1 and nobody may be receiving (Go's sendTime).
 * Go 1.23 sends Now().Add(-delta), delta being how late runtimer found
 * the timer; its monotonic reading is when plus however long this M took
 * between reading the clock and sending (a loaded machine can deschedule
 * it for tens of milliseconds, and then two late timers of two Ps send
 * values out of the order of their times).  The monotonic reading here
 * is when itself; the wall reading is the wall clock moved back by as
 * long ago as when was. */
static void sendTime(void *c, uintptr_t seq, int64_t when) {
	(void)seq;
	int64_t late = nanotime() - when;
	glTime v = maketime(walltime() - late, when);
	selectnbsend(c, &v);
}

/* time.AfterFunc: run f in its own goroutine. */
static void goFuncStart(G *g, void *arg) {
	GlFunc *fn = arg;
	((void (*)(G *, GlFunc *))fn->fn)(g, fn);
}

static void goFunc(void *arg, uintptr_t seq, int64_t when) {
	(void)seq;
	(void)when;
	newproc(goFuncStart, arg, "time.goFunc");
}

/* The runtime timer behind a time.Timer or time.Ticker: c's timer if c
 * is not nil, else f's (AfterFunc); started at once. */
void *time_newTimer(G *g, GlChan *c, GlFunc *f, int64_t when, int64_t period) {
	(void)g;
	timer *t = mallocgc(sizeof(timer), &gltype_timer, true);
	lockInit(&t->mu, lockRankTimer);
	t->idx = -1;
	t->when = when;
	t->period = period;
	if (c != NULL) {
		t->f = sendTime;
		writebarrierptr(&t->arg, c);
	} else {
		t->f = goFunc;
		writebarrierptr(&t->arg, f);
	}
	addtimer(t);
	return t;
}

bool time_stopTimer(G *g, void *t) {
	(void)g;
	return deltimer(t);
}

bool time_resetTimer(G *g, void *t, int64_t when, int64_t period) {
	(void)g;
	return modtimer(t, when, period);
}
