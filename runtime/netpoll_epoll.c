/*
 * netpoll_epoll.c — the network poller (Go's netpoll.go and
 * netpoll_epoll.go): goroutines that wait for a file descriptor to become
 * readable or writable park here instead of blocking their thread in
 * read(2) or write(2).
 *
 * A descriptor opened for polling (non-blocking: os.Pipe's, through
 * internal/poll) gets a pollDesc and is registered with one epoll
 * instance, edge-triggered for reading and writing.  A read that returns
 * EAGAIN calls pollWait, which parks the goroutine on the pollDesc's rg
 * (wg for writes) with gopark; netpoll (epoll_wait) turns the events it
 * gets into the goroutines to make runnable.  The scheduler polls when it
 * looks for work (findRunnable: without blocking, and blocking when it has
 * nothing else to do, until the next timer), and sysmon polls when nobody
 * did for 10 ms.  An eventfd in the epoll set is netpollBreak: it wakes
 * the M blocked in epoll_wait when an earlier timer is added or work comes.
 *
 * rg and wg are Go's binary semaphores, each one word, changed by CAS only:
 *   0        nothing: no notification, no waiter
 *   pdReady  an I/O readiness notification is pending (consumed by the
 *            next wait, which then returns at once)
 *   pdWait   a goroutine is about to park (between netpollblock's CAS and
 *            gopark's commit)
 *   G*       the goroutine parked, waiting
 * A notification that comes while a goroutine is about to park (pdWait →
 * pdReady) makes the commit fail, and the goroutine does not park.
 *
 * pollDescs are never given back to the heap: they live in chunks from the
 * OS and are reused through a free list (Go's pollCache), so a pollDesc's
 * address (the handle the stdlib holds, and the epoll event's data) always
 * points to one.  A stale event for a descriptor closed meanwhile can only
 * mark a reused pollDesc ready: a spurious wakeup, which the reader's loop
 * (read again, EAGAIN, wait again) absorbs.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>

enum {
	SYS_read_ = 0,
	SYS_close_ = 3,
	SYS_epoll_ctl_ = 233,
	SYS_epoll_wait_ = 232,
	SYS_epoll_create1_ = 291,
	SYS_eventfd2_ = 290,
	SYS_epoll_pwait2_ = 441,
	ENOSYS_ = 38,
	EINTR_ = 4,
};

enum { pdReady = 1, pdWait = 2 };

/* pollWait's results, Go's pollNoError etc. (stdlib/internal/poll) */
enum { pollNoError = 0, pollErrClosing = 1, pollErrTimeout = 2, pollErrNotPollable = 3 };

typedef struct pollDesc pollDesc;
struct pollDesc {
	pollDesc *link;  /* the free list */
	int32_t fd;
	uint32_t closing; /* atomic: pollUnblock was called; waits fail */
	uint32_t everr;   /* atomic: epoll reported an error */
	uintptr_t rg, wg; /* atomic: the semaphores above */
	mutex lock;       /* pollUnblock against itself */
};

static int32_t epfd = -1;
static int32_t netpollEventFd = -1;
static uint32_t netpollWakeSig; /* atomic: a netpollBreak is pending */
static int32_t netpollWaiters;  /* atomic: goroutines parked here */
static bool nopwait2;           /* epoll_pwait2 is missing (Linux < 5.11) */

/* The eventfd's epoll data: an address no pollDesc has. */
static uint8_t eventfdTag;

static mutex pollcacheLock = MUTEX(lockRankPollCache);
static pollDesc *pollcacheFree;

void netpollinit(void) {
	epfd = (int32_t)rawsyscall6(SYS_epoll_create1_, EPOLL_CLOEXEC, 0, 0, 0, 0, 0);
	if (epfd < 0)
		gl_throw("runtime: netpollinit failed (epoll_create1)");
	netpollEventFd = (int32_t)rawsyscall6(SYS_eventfd2_, 0, EFD_CLOEXEC | EFD_NONBLOCK, 0, 0, 0, 0);
	if (netpollEventFd < 0)
		gl_throw("runtime: netpollinit failed (eventfd)");
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &eventfdTag};
	if (rawsyscall6(SYS_epoll_ctl_, epfd, EPOLL_CTL_ADD, netpollEventFd, (long)&ev, 0, 0) != 0)
		gl_throw("runtime: netpollinit failed (epoll_ctl)");
}

bool netpollinited(void) {
	return epfd >= 0;
}

bool netpollAnyWaiters(void) {
	return __atomic_load_n(&netpollWaiters, __ATOMIC_SEQ_CST) > 0;
}

/* Wake the M blocked in netpoll, if one is (Go's netpollBreak): the
 * eventfd stays readable until that M reads it, so a break that comes
 * before the poller sleeps is not lost.  Coalesced by netpollWakeSig. */
void netpollBreak(void) {
	uint32_t zero = 0;
	if (!__atomic_compare_exchange_n(&netpollWakeSig, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	uint64_t one = 1;
	for (;;) {
		long r = rawsyscall6(SYS_write_, netpollEventFd, (long)&one, sizeof one, 0, 0, 0);
		if (r == sizeof one || r == -11 /* EAGAIN: the counter is full, it is readable */)
			return;
		if (r != -EINTR_)
			gl_throw("runtime: netpollBreak write failed");
	}
}

/* ---- the semaphores ---- */

static inline uintptr_t *pdsema(pollDesc *pd, int32_t mode) {
	return mode == 'r' ? &pd->rg : &pd->wg;
}

/* Post a notification (ioready) or none (a close): returns the goroutine
 * that was parked, to be made runnable, or NULL (Go's netpollunblock). */
static G *netpollunblock(pollDesc *pd, int32_t mode, bool ioready) {
	uintptr_t *gpp = pdsema(pd, mode);
	for (;;) {
		uintptr_t old = __atomic_load_n(gpp, __ATOMIC_ACQUIRE);
		if (old == pdReady)
			return NULL;
		if (old == 0 && !ioready)
			return NULL; /* only set pdReady for I/O readiness */
		uintptr_t new = ioready ? pdReady : 0;
		if (__atomic_compare_exchange_n(gpp, &old, new, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			if (old <= pdWait)
				return NULL; /* pdWait: its commit fails, it does not park */
			if (__atomic_sub_fetch(&netpollWaiters, 1, __ATOMIC_SEQ_CST) == 0)
				netpollLastWaiter();
			return (G *)old;
		}
	}
}

/* gopark's unlockf, on g0 once the goroutine is switched out: publish it
 * in the semaphore, unless a notification came meanwhile (then it runs
 * on at once). */
static bool netpollblockcommit(G *gp, void *arg) {
	uintptr_t *gpp = arg;
	uintptr_t old = pdWait;
	if (!__atomic_compare_exchange_n(gpp, &old, (uintptr_t)gp, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	/* counted before anyone can take gp out (netpollunblock decrements) */
	__atomic_add_fetch(&netpollWaiters, 1, __ATOMIC_ACQ_REL);
	return true;
}

static int32_t netpollcheckerr(pollDesc *pd, int32_t mode) {
	if (__atomic_load_n(&pd->closing, __ATOMIC_ACQUIRE))
		return pollErrClosing;
	if (mode == 'r' && __atomic_load_n(&pd->everr, __ATOMIC_ACQUIRE))
		return pollErrNotPollable;
	return pollNoError;
}

/* Wait for I/O readiness on pd; true if it came, false if woken by a
 * close (Go's netpollblock).  Parks with gopark, perhaps resuming on
 * another M: nothing read from TLS before is used after. */
static bool netpollblock(pollDesc *pd, int32_t mode) {
	uintptr_t *gpp = pdsema(pd, mode);
	for (;;) {
		uintptr_t old = pdReady;
		if (__atomic_compare_exchange_n(gpp, &old, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return true;
		old = 0;
		if (__atomic_compare_exchange_n(gpp, &old, pdWait, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
		if (old != pdReady && old != 0)
			gl_throw("runtime: double wait");
	}
	/* a close after the CAS: netpollunblock sees pdWait and leaves it,
	 * so look at closing again before parking */
	if (netpollcheckerr(pd, mode) == pollNoError)
		gopark(netpollblockcommit, gpp, waitReasonIOWait);
	uintptr_t old = __atomic_exchange_n(gpp, 0, __ATOMIC_ACQ_REL);
	if (old > pdWait)
		gl_throw("runtime: corrupted polldesc");
	return old == pdReady;
}

/* ---- netpoll ---- */

/* Wait up to delay ns for events (delay < 0: until one comes or
 * netpollBreak; 0: do not block).  Returns the goroutines made ready,
 * linked through schedlink, still Gwaiting: the caller makes them
 * runnable (injectglist).  On g0. */
G *netpoll(int64_t delay) {
	if (epfd < 0)
		return NULL;
	struct epoll_event events[128];
	long n;
retry:
	if (!nopwait2) {
		struct timespec ts = {delay / 1000000000, delay % 1000000000};
		n = rawsyscall6(SYS_epoll_pwait2_, epfd, (long)events, 128, delay < 0 ? 0 : (long)&ts, 0, 0);
		if (n == -ENOSYS_) {
			nopwait2 = true;
			goto retry;
		}
	} else {
		/* milliseconds, rounded up so that a timer is not polled for
		 * over and over until it is due (Go rounds below 1 ms up) */
		long ms = delay < 0 ? -1 : delay == 0 ? 0 : delay > 1000000000000000LL ? 1000000000 : (delay + 999999) / 1000000;
		n = rawsyscall6(SYS_epoll_wait_, epfd, (long)events, 128, ms, 0, 0);
	}
	if (n < 0) {
		if (n != -EINTR_)
			gl_throw("runtime: netpoll failed");
		if (delay > 0) /* a timed wait: let the caller work out the rest */
			return NULL;
		goto retry;
	}
	G *head = NULL;
	for (long i = 0; i < n; i++) {
		struct epoll_event *ev = &events[i];
		if (ev->events == 0)
			continue;
		if (ev->data.ptr == &eventfdTag) {
			/* only a blocking poll consumes the break: it was for
			 * the M that sleeps here, not for a passing look */
			if (delay != 0) {
				uint64_t buf;
				rawsyscall6(SYS_read_, netpollEventFd, (long)&buf, sizeof buf, 0, 0, 0);
				__atomic_store_n(&netpollWakeSig, 0, __ATOMIC_RELEASE);
			}
			continue;
		}
		pollDesc *pd = ev->data.ptr;
		uint32_t e = ev->events;
		if (e & EPOLLERR)
			__atomic_store_n(&pd->everr, 1, __ATOMIC_RELEASE);
		G *gp;
		if ((e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && (gp = netpollunblock(pd, 'r', true)) != NULL) {
			gp->schedlink = head;
			head = gp;
		}
		if ((e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) && (gp = netpollunblock(pd, 'w', true)) != NULL) {
			gp->schedlink = head;
			head = gp;
		}
	}
	return head;
}

/* ---- the pollDesc cache ---- */

static pollDesc *pollcachealloc(void) {
	lock(&pollcacheLock);
	if (pollcacheFree == NULL) {
		enum { chunk = 4096 };
		pollDesc *c = sysAlloc(chunk, NULL);
		if (c == NULL)
			gl_throw("runtime: cannot allocate memory for pollDescs");
		for (size_t i = 0; i < chunk / sizeof(pollDesc); i++) {
			lockInit(&c[i].lock, lockRankPollDesc);
			c[i].link = pollcacheFree;
			pollcacheFree = &c[i];
		}
	}
	pollDesc *pd = pollcacheFree;
	pollcacheFree = pd->link;
	unlock(&pollcacheLock);
	return pd;
}

static void pollcachefree(pollDesc *pd) {
	lock(&pollcacheLock);
	pd->link = pollcacheFree;
	pollcacheFree = pd;
	unlock(&pollcacheLock);
}

/* ---- package internal/poll (stdlib/internal/poll/fd.gl) ----
 * Called from generated code on the goroutine stack: small, lock-free or
 * with the runtime's own short locks, and pollWait parks by gopark. */

/* pollOpen's (pd uintptr, errno int): glc's tuple (runtime/contract.h) */
typedef struct gltuple_uintptr_int pollopenresult;

/* Register fd (non-blocking) with the poller: its pollDesc, or an errno. */
pollopenresult internal_poll_runtime_pollOpen(G *g, uintptr_t fd) {
	(void)g;
	pollDesc *pd = pollcachealloc();
	if (__atomic_load_n(&pd->rg, __ATOMIC_ACQUIRE) > pdWait || __atomic_load_n(&pd->wg, __ATOMIC_ACQUIRE) > pdWait)
		gl_throw("runtime: blocked read or write on free polldesc");
	pd->fd = (int32_t)fd;
	__atomic_store_n(&pd->closing, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->everr, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->rg, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->wg, 0, __ATOMIC_RELEASE);
	struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.ptr = pd};
	long r = rawsyscall6(SYS_epoll_ctl_, epfd, EPOLL_CTL_ADD, (long)fd, (long)&ev, 0, 0);
	if (r != 0) {
		pollcachefree(pd);
		return (pollopenresult){0, -r};
	}
	return (pollopenresult){(uintptr_t)pd, 0};
}

/* Unregister (after pollUnblock, with no goroutine left in a wait). */
void internal_poll_runtime_pollClose(G *g, uintptr_t ctx) {
	(void)g;
	pollDesc *pd = (pollDesc *)ctx;
	if (!__atomic_load_n(&pd->closing, __ATOMIC_ACQUIRE))
		gl_throw("runtime: close polldesc w/o unblock");
	if (__atomic_load_n(&pd->rg, __ATOMIC_ACQUIRE) > pdWait || __atomic_load_n(&pd->wg, __ATOMIC_ACQUIRE) > pdWait)
		gl_throw("runtime: blocked read or write on closing polldesc");
	struct epoll_event ev = {0};
	rawsyscall6(SYS_epoll_ctl_, epfd, EPOLL_CTL_DEL, pd->fd, (long)&ev, 0, 0);
	pollcachefree(pd);
}

/* Wait until the descriptor is ready for mode ('r' or 'w'): pollNoError,
 * or why not (closing). */
int64_t internal_poll_runtime_pollWait(G *g, uintptr_t ctx, int64_t mode) {
	(void)g;
	pollDesc *pd = (pollDesc *)ctx;
	int32_t err = netpollcheckerr(pd, (int32_t)mode);
	if (err != pollNoError)
		return err;
	while (!netpollblock(pd, (int32_t)mode)) {
		err = netpollcheckerr(pd, (int32_t)mode);
		if (err != pollNoError)
			return err;
		/* a spurious wakeup (a stale event): wait again */
	}
	return pollNoError;
}

/* The descriptor is being closed: waits fail from now on, and the
 * goroutines parked in them wake with pollErrClosing. */
void internal_poll_runtime_pollUnblock(G *g, uintptr_t ctx) {
	(void)g;
	pollDesc *pd = (pollDesc *)ctx;
	lock(&pd->lock);
	if (__atomic_exchange_n(&pd->closing, 1, __ATOMIC_ACQ_REL))
		gl_throw("runtime: unblock on closing polldesc");
	G *rg = netpollunblock(pd, 'r', false);
	G *wg = netpollunblock(pd, 'w', false);
	unlock(&pd->lock);
	if (rg != NULL)
		goready(rg);
	if (wg != NULL)
		goready(wg);
}
