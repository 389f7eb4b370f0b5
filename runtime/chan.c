/*
 * chan.c — channels (Go's runtime/chan.go): hchan with its ring buffer,
 * the queues of blocked senders and receivers (sudogs), direct hand-off
 * between a sender and a parked receiver (and back), close.
 *
 * Invariants (Go's): at least one of c->sendq and c->recvq is empty; for
 * a buffered channel, qcount > 0 implies recvq is empty and
 * qcount < dataqsiz implies sendq is empty.
 *
 * These functions are called by generated code on the goroutine stack
 * (DESIGN.md S7): their frames are small, and the value pointers they get
 * (elem) point into the caller's data frame.  While a goroutine is parked
 * here its stack may move; the runtime then reaches the value only through
 * sudog.elem, which copystack adjusts (g->waiting lists the sudogs), never
 * through the C parameter, which is not used after gopark.  A sender that
 * finds a parked receiver copies straight into the receiver's stack
 * (sendDirect), under the channel lock, which copystack also takes.
 * Every element copy and clear is typed (mbarrier.c, through rt.h's
 * chan_typedmove, chan_typedclr, chan_recvslot) when the element type has pointers,
 * for the collector's write barrier.
 */
#include "rt.h"
#include "sizeclasses.h"

enum { maxAlign = 8, hchanSize = (sizeof(hchan) + maxAlign - 1) & ~(size_t)(maxAlign - 1) };

/* The collector's view of a channel whose elements hold pointers: the
 * header is an object of its own and buf the only reference to the
 * (typed) buffer.  A channel of pointer-free elements is one noscan
 * object, header and buffer (elemtype is static; the sudogs in its queues
 * are outside the heap, below). */
GL_RTTYPE(gltype_hchan, hchan, "runtime.hchan", GL_PTRWORD(hchan, buf));

/* A sudog lives outside the heap, as a G does (Go's are heap objects).
 * Runtime C rewrites its links (next, prev, waitlink, waittail) all the
 * time, with the program running while the collector marks: as heap
 * pointers each store would need the write barrier (a sudog moved onto a
 * black one's list and dropped from a root would be freed while cached).
 * Outside the heap they are not the collector's, and the three words that
 * may point into the heap — elem (a value being sent or received), c (the
 * channel), semaddr (the word a semaphore waits on) — are roots, found
 * through the goroutines that wait (mgc.c's scanGroots: g->waiting and its
 * waitlink chain) and the semaphore table (sema.c's semtablescan).  A
 * cached sudog holds none.  Sudogs are made once and reused (the caches
 * below), as Gs are: at most one per waiting goroutine and channel case. */

static inline void *chanbuf(hchan *c, uint64_t i) {
	return (uint8_t *)c->buf + i * c->elemsize;
}

/* ---- waitq ---- */

void waitq_enqueue(waitq *q, sudog *sgp) {
	sgp->next = NULL;
	sudog *x = q->last;
	if (x == NULL) {
		sgp->prev = NULL;
		q->first = sgp;
		q->last = sgp;
		return;
	}
	sgp->prev = x;
	x->next = sgp;
	q->last = sgp;
}

/* The first waiter that can still proceed: a select whose other case has
 * already won (selectDone) is skipped, and removed by its own selectgo. */
sudog *waitq_dequeue(waitq *q) {
	for (;;) {
		sudog *sgp = q->first;
		if (sgp == NULL)
			return NULL;
		sudog *y = sgp->next;
		if (y == NULL) {
			q->first = NULL;
			q->last = NULL;
		} else {
			y->prev = NULL;
			q->first = y;
			sgp->next = NULL;
		}
		if (sgp->isSelect) {
			uint32_t zero = 0;
			if (!__atomic_compare_exchange_n(&sgp->g->selectDone, &zero, 1, false, __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
				continue;
		}
		return sgp;
	}
}

/* Remove sgp from q, if it is still there (select's pass 3). */
void waitq_dequeueSudoG(waitq *q, sudog *sgp) {
	sudog *x = sgp->prev, *y = sgp->next;
	if (x != NULL) {
		if (y != NULL) {
			x->next = y;
			y->prev = x;
			sgp->next = NULL;
			sgp->prev = NULL;
			return;
		}
		x->next = NULL;
		q->last = x;
		sgp->prev = NULL;
		return;
	}
	if (y != NULL) {
		y->prev = NULL;
		q->first = y;
		sgp->next = NULL;
		return;
	}
	if (q->first == sgp) {
		q->first = NULL;
		q->last = NULL;
	}
}

/* ---- sudogs (Go's acquireSudog/releaseSudog): per-P caches with a
 * central list behind them.  The G is on its P all along (no async
 * preemption inside the runtime). */

sudog *acquireSudog(void) {
	P *pp = getm()->p;
	if (pp->nsudog == 0) {
		lock(&sched.sudoglock);
		while (pp->nsudog < sudogCacheSize / 2 && sched.sudogcache != NULL) {
			sudog *s = sched.sudogcache;
			sched.sudogcache = s->next;
			s->next = NULL;
			pp->sudogcache[pp->nsudog++] = s;
		}
		unlock(&sched.sudoglock);
		if (pp->nsudog == 0)
			pp->sudogcache[pp->nsudog++] = persistentalloc(sizeof(sudog));
	}
	sudog *s = pp->sudogcache[--pp->nsudog];
	if (s->elem != NULL)
		gl_throw("acquireSudog: found s.elem != nil in cache");
	return s;
}

void releaseSudog(sudog *s) {
	if (s->elem != NULL || s->isSelect || s->next != NULL || s->prev != NULL || s->waitlink != NULL ||
	    s->c != NULL)
		gl_throw("runtime: sudog with non-nil fields");
	s->g = NULL;
	s->ticket = 0;
	s->success = false;
	s->semaddr = NULL;
	s->waittail = NULL;
	P *pp = getm()->p;
	if (pp->nsudog == sudogCacheSize) {
		/* move half to the central cache */
		sudog *first = NULL, *last = NULL;
		while (pp->nsudog > sudogCacheSize / 2) {
			sudog *p = pp->sudogcache[--pp->nsudog];
			if (first == NULL)
				first = p;
			else
				last->next = p;
			last = p;
		}
		lock(&sched.sudoglock);
		last->next = sched.sudogcache;
		sched.sudogcache = first;
		unlock(&sched.sudoglock);
	}
	pp->sudogcache[pp->nsudog++] = s;
}

/* A P being destroyed gives its sudogs to the central cache. */
void sudogcache_flush(P *pp) {
	lock(&sched.sudoglock);
	while (pp->nsudog > 0) {
		sudog *s = pp->sudogcache[--pp->nsudog];
		s->next = sched.sudogcache;
		sched.sudogcache = s;
	}
	unlock(&sched.sudoglock);
}

/* ---- make ---- */

GlChan *makechan(G *g, const GlType *chantype, int64_t size) {
	const GlType *elem = chantype->elem;
	if (elem->size >= 1 << 16)
		gl_throw("makechan: invalid channel element type");
	if (elem->align > maxAlign)
		gl_throw("makechan: bad alignment");
	uint64_t mem;
	if (size < 0 || __builtin_mul_overflow(elem->size, (uint64_t)size, &mem) ||
	    mem > maxAlloc - hchanSize) {
		gl_panicstring(g, "makechan: size out of range");
		return NULL;
	}
	hchan *c;
	if (elem->ptrdata == 0 || mem == 0) {
		/* one allocation: the buffer right after the header */
		c = mallocgc(hchanSize + mem, NULL, true);
		c->buf = (uint8_t *)c + hchanSize;
	} else {
		c = mallocgc(hchanSize, &gltype_hchan, true);
		void *buf = mallocgc(mem, elem, true);
		writebarrierptr(&c->buf, buf); /* into the heap, as every pointer store */
	}
	lockInit(&c->lock, lockRankHchan);
	c->elemsize = (uint16_t)elem->size;
	c->elemtype = elem;
	c->dataqsiz = (uint64_t)size;
	return c;
}

/* ---- send ---- */

/* The hand-off copies: the one place where a goroutine writes to
 * another goroutine's stack (sg->elem is usually the parked goroutine's
 * variable, in its frame), or reads from it.  The channel lock is held, and
 * copystack takes it before it moves a stack with waiters on channels
 * (activeStackChans), so sg->elem stays valid from its read to the end of
 * the copy; nothing between may park.  A stack is scanned once, on the
 * assumption that only its goroutine writes to it: a pointer put into an
 * already-scanned stack by someone else would go unseen.  So for elements
 * with pointers both directions take a barrier (mbarrier.c) — and it must be
 * typeBitsBulkBarrier, which finds the pointer words from the type, since
 * the heap bitmap that bulkBarrierPreWrite reads does not describe stacks. */
static GL_NOINLINE void directcopyptrs(hchan *c, void *dst, const void *src) {
	typeBitsBulkBarrier(c->elemtype, (uintptr_t)dst, (uintptr_t)src, c->elemsize);
	memmove(dst, src, c->elemsize);
}

/* A pointer-free element: most are a word, or nothing (chan struct{}),
 * and neither needs memmove's call. */
static inline void elemmove(void *dst, const void *src, uint64_t n) {
	if (n == 8) {
		uint64_t w;
		memcpy(&w, src, 8);
		memcpy(dst, &w, 8);
	} else if (n != 0) {
		memmove(dst, src, n);
	}
}

/* (The barrier's case out of line: the pointer-free hand-off stays one
 * test and the copy, with no more registers to save.) */
static inline void sendDirect(hchan *c, sudog *sg, const void *src) {
	void *dst = sg->elem;
	if (GL_UNLIKELY(c->elemtype->ptrdata != 0))
		directcopyptrs(c, dst, src);
	else
		elemmove(dst, src, c->elemsize);
}

/* dst is our own variable (our stack, or the heap); the source is the
 * parked sender's, which cannot move while we hold the lock. */
static inline void recvDirect(hchan *c, sudog *sg, void *dst) {
	const void *src = sg->elem;
	if (GL_UNLIKELY(c->elemtype->ptrdata != 0))
		directcopyptrs(c, dst, src);
	else
		elemmove(dst, src, c->elemsize);
}

/* The send part of a hand-off to the waiting receiver sg (dequeued from
 * c, which is locked): copy, unlock, ready the receiver — next on this P
 * (runnext), so the switch is the next thing that happens.  unlockf is
 * how select releases its several locks. */
void chan_send(hchan *c, sudog *sg, const void *ep, void (*unlockf)(void *), void *arg) {
	if (sg->elem != NULL) {
		sendDirect(c, sg, ep);
		sg->elem = NULL;
	}
	G *gp = sg->g;
	unlockf(arg);
	gp->param = sg;
	sg->success = true;
	goready(gp);
}

/* The receive part of a hand-off from the waiting sender sg: from an
 * unbuffered channel, straight from the sender; from a full buffer, the
 * head of the queue to us and the sender's value to the tail (the same
 * slot). */
void chan_recv(hchan *c, sudog *sg, void *ep, void (*unlockf)(void *), void *arg) {
	if (c->dataqsiz == 0) {
		if (ep != NULL)
			recvDirect(c, sg, ep);
	} else {
		void *qp = chanbuf(c, c->recvx);
		if (ep != NULL)
			chan_typedmove(c, ep, qp);
		chan_typedmove(c, qp, sg->elem);
		if (++c->recvx == c->dataqsiz)
			c->recvx = 0;
		c->sendx = c->recvx;
	}
	sg->elem = NULL;
	G *gp = sg->g;
	unlockf(arg);
	gp->param = sg;
	sg->success = true;
	goready(gp);
}

static void unlockchan(void *c) {
	unlock(&((hchan *)c)->lock);
}

/* gopark's unlockf for a channel operation: on g0, once the G is parked.
 * From here on the G's stack may be moved only with the channel locked. */
static bool chanparkcommit(G *gp, void *chanLock) {
	gp->activeStackChans = true;
	__atomic_store_n(&gp->parkingOnChan, 0, __ATOMIC_RELEASE);
	unlock(chanLock);
	return true;
}

/* Park forever (a nil channel, a select with no cases). */
static GL_NOINLINE void blockforever(uint32_t reason) {
	gopark(NULL, NULL, reason);
	gl_throw("unreachable");
}

/* c <- *ep.  Returns whether it sent (false only if !block and it would
 * have blocked).  May panic (send on closed channel): then returns with
 * the panic recovered and g->unwinding set, or not at all. */
bool chansend(hchan *c, const void *ep, bool block) {
	if (c == NULL) {
		if (!block)
			return false;
		blockforever(waitReasonChanSendNilChan);
	}
	/* fast path: a failed non-blocking send, without the lock (Go's
	 * reasoning: not closed, then not ready, observed in that order) */
	if (!block && __atomic_load_n(&c->closed, __ATOMIC_RELAXED) == 0 &&
	    ((c->dataqsiz == 0 && __atomic_load_n(&c->recvq.first, __ATOMIC_RELAXED) == NULL) ||
	     (c->dataqsiz > 0 && __atomic_load_n(&c->qcount, __ATOMIC_RELAXED) == c->dataqsiz)))
		return false;

	lock(&c->lock);
	if (c->closed != 0) {
		unlock(&c->lock);
		gl_panicstring(getg(), "send on closed channel");
		return true;
	}
	sudog *sg = waitq_dequeue(&c->recvq);
	if (sg != NULL) {
		/* a receiver is waiting: straight to it, past the buffer */
		chan_send(c, sg, ep, unlockchan, c);
		return true;
	}
	if (c->qcount < c->dataqsiz) {
		chan_typedmove(c, chanbuf(c, c->sendx), ep);
		if (++c->sendx == c->dataqsiz)
			c->sendx = 0;
		c->qcount++;
		unlock(&c->lock);
		return true;
	}
	if (!block) {
		unlock(&c->lock);
		return false;
	}

	/* Block: a receiver will take the value from mysg->elem. */
	G *gp = getg();
	sudog *mysg = acquireSudog();
	mysg->releasetime = 0;
	mysg->elem = (void *)ep;
	mysg->waitlink = NULL;
	mysg->g = gp;
	mysg->isSelect = false;
	mysg->c = c;
	gp->waiting = mysg;
	gp->param = NULL;
	waitq_enqueue(&c->sendq, mysg);
	__atomic_store_n(&gp->parkingOnChan, 1, __ATOMIC_RELEASE);
	gopark(chanparkcommit, &c->lock, waitReasonChanSend);

	/* woken up, perhaps on another M (S9: getg again); ep is stale */
	gp = getg();
	if (mysg != gp->waiting)
		gl_throw("G waiting list is corrupted");
	gp->activeStackChans = false;
	bool closed = !mysg->success;
	gp->waiting = NULL;
	gp->param = NULL;
	mysg->c = NULL;
	releaseSudog(mysg);
	if (closed) {
		if (c->closed == 0)
			gl_throw("chansend: spurious wakeup");
		gl_panicstring(gp, "send on closed channel");
	}
	return true;
}

/* The stop request first (rt.h's entrySafePoint), in a function of its
 * own: inline, its call made these wrappers, tail calls otherwise, build
 * a frame on every operation (eleven instructions more, bench/pingpong's
 * chan round trip 1,383 -> 1,426). */
static GL_NOINLINE GL_COLD void chansend1_stop(G *g, GlChan *c, const void *elem) {
	entryPreempt(g);
	chansend(c, elem, true);
}

void chansend1(G *g, GlChan *c, const void *elem) {
	if (entryStopWanted(g)) {
		chansend1_stop(g, c, elem);
		return;
	}
	chansend(c, elem, true);
}

/* ---- receive ---- */

/* *ep = <-c (ep may be NULL: the value is dropped).  Returns
 * selected | received << 1: selected false only if !block and it would
 * have blocked; received false for the zero value of a closed channel. */
static int chanrecv(hchan *c, void *ep, bool block) {
	if (c == NULL) {
		if (!block)
			return 0;
		blockforever(waitReasonChanReceiveNilChan);
	}
	/* fast path: a failed non-blocking receive (not ready, then not
	 * closed: the order matters, a channel cannot reopen) */
	if (!block &&
	    ((c->dataqsiz == 0 && __atomic_load_n(&c->sendq.first, __ATOMIC_RELAXED) == NULL) ||
	     (c->dataqsiz > 0 && __atomic_load_n(&c->qcount, __ATOMIC_ACQUIRE) == 0))) {
		if (__atomic_load_n(&c->closed, __ATOMIC_ACQUIRE) == 0)
			return 0;
		/* closed meanwhile: re-check for values that came before the close */
		if (c->dataqsiz == 0 ? __atomic_load_n(&c->sendq.first, __ATOMIC_RELAXED) == NULL
				     : __atomic_load_n(&c->qcount, __ATOMIC_ACQUIRE) == 0) {
			if (ep != NULL)
				chan_typedclr(c, ep);
			return 1;
		}
	}

	lock(&c->lock);
	if (c->closed != 0 && c->qcount == 0) {
		unlock(&c->lock);
		if (ep != NULL)
			chan_typedclr(c, ep);
		return 1;
	}
	sudog *sg = waitq_dequeue(&c->sendq);
	if (sg != NULL) {
		/* a sender is waiting: from it (unbuffered) or from the full
		 * buffer, whose tail it then fills */
		chan_recv(c, sg, ep, unlockchan, c);
		return 3;
	}
	if (c->qcount > 0) {
		chan_recvslot(c, ep, chanbuf(c, c->recvx));
		if (++c->recvx == c->dataqsiz)
			c->recvx = 0;
		c->qcount--;
		unlock(&c->lock);
		return 3;
	}
	if (!block) {
		unlock(&c->lock);
		return 0;
	}

	/* Block: a sender will copy into mysg->elem. */
	G *gp = getg();
	sudog *mysg = acquireSudog();
	mysg->releasetime = 0;
	mysg->elem = ep;
	mysg->waitlink = NULL;
	gp->waiting = mysg;
	mysg->g = gp;
	mysg->isSelect = false;
	mysg->c = c;
	gp->param = NULL;
	waitq_enqueue(&c->recvq, mysg);
	__atomic_store_n(&gp->parkingOnChan, 1, __ATOMIC_RELEASE);
	gopark(chanparkcommit, &c->lock, waitReasonChanReceive);

	/* woken up, perhaps on another M; ep is stale */
	gp = getg();
	if (mysg != gp->waiting)
		gl_throw("G waiting list is corrupted");
	gp->activeStackChans = false;
	bool success = mysg->success;
	gp->waiting = NULL;
	gp->param = NULL;
	mysg->c = NULL;
	releaseSudog(mysg);
	return 1 | (int)success << 1;
}

static GL_NOINLINE GL_COLD int chanrecv_stop(G *g, GlChan *c, void *elem) {
	entryPreempt(g); /* as chansend1_stop */
	return chanrecv(c, elem, true);
}

void chanrecv1(G *g, GlChan *c, void *elem) {
	if (entryStopWanted(g)) {
		chanrecv_stop(g, c, elem);
		return;
	}
	chanrecv(c, elem, true);
}

bool chanrecv2(G *g, GlChan *c, void *elem) {
	if (entryStopWanted(g))
		return chanrecv_stop(g, c, elem) >> 1;
	return chanrecv(c, elem, true) >> 1;
}

/* ---- close ---- */

void closechan(G *g, GlChan *c) {
	if (c == NULL) {
		gl_panicstring(g, "close of nil channel");
		return;
	}
	lock(&c->lock);
	if (c->closed != 0) {
		unlock(&c->lock);
		gl_panicstring(g, "close of closed channel");
		return;
	}
	__atomic_store_n(&c->closed, 1, __ATOMIC_RELEASE);

	/* Release every waiter: receivers get zero values, senders panic.
	 * They are readied after the lock is dropped (never ready a G with a
	 * channel lock held). */
	G *glist = NULL;
	for (;;) {
		sudog *sg = waitq_dequeue(&c->recvq);
		if (sg == NULL)
			break;
		if (sg->elem != NULL) {
			chan_typedclr(c, sg->elem); /* the receiver's variable */
			sg->elem = NULL;
		}
		G *gp = sg->g;
		gp->param = sg;
		sg->success = false;
		gp->schedlink = glist;
		glist = gp;
	}
	for (;;) {
		sudog *sg = waitq_dequeue(&c->sendq);
		if (sg == NULL)
			break;
		sg->elem = NULL;
		G *gp = sg->g;
		gp->param = sg;
		sg->success = false;
		gp->schedlink = glist;
		glist = gp;
	}
	unlock(&c->lock);
	while (glist != NULL) {
		G *gp = glist;
		glist = gp->schedlink;
		gp->schedlink = NULL;
		goready(gp);
	}
}

int64_t chanlen(GlChan *c) {
	return c == NULL ? 0 : (int64_t)__atomic_load_n(&c->qcount, __ATOMIC_RELAXED);
}

int64_t chancap(GlChan *c) {
	return c == NULL ? 0 : (int64_t)c->dataqsiz;
}

/* select { case c <- v: ... default: } and the receive forms, for the
 * timers (time.c's sendTime) and anything else in the runtime. */
bool selectnbsend(hchan *c, const void *elem) {
	return chansend(c, elem, false);
}
