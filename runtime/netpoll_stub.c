/*
 * netpoll_stub.c — the place of Go's network poller, without the network.
 *
 * Go's idle Ms wait for the next timer inside netpoll(delay) (epoll_wait
 * with a timeout), and addtimer interrupts that wait with netpollBreak when
 * it adds an earlier timer.  gl has no epoll poller yet (the netpoll issue
 * brings netpoll_epoll.c with the same three functions), so this one waits
 * on a futex word with a timeout: netpoll(delay) returns when the delay has
 * passed or netpollBreak was called.  There are never goroutines to make
 * ready from it.  At most one M is in netpoll at a time (findRunnable's
 * sched.lastpoll protocol), as with epoll.
 */
#include "rt.h"

/* Set by netpollBreak, cleared when netpoll returns: level-triggered like
 * Go's eventfd, so a break that comes before the poller sleeps is not
 * lost (the next netpoll returns at once instead). */
static uint32_t netpollBroken;

bool netpollinited(void) {
	return true;
}

/* Block for delay ns (< 0: until netpollBreak; 0: do not block). */
void netpoll(int64_t delay) {
	if (delay != 0 && __atomic_load_n(&netpollBroken, __ATOMIC_ACQUIRE) == 0)
		futexsleep(&netpollBroken, 0, delay);
	__atomic_store_n(&netpollBroken, 0, __ATOMIC_RELEASE);
}

void netpollBreak(void) {
	if (__atomic_exchange_n(&netpollBroken, 1, __ATOMIC_ACQ_REL) == 0)
		futexwakeup(&netpollBroken, 1);
}
