/*
 * select.c — the select statement (Go's runtime/select.go: selectgo).
 *
 * Pass 1 looks, in a random order, for a case that can proceed at once;
 * without one and without a default, pass 2 queues a sudog on every
 * channel and parks (the G waits on several channels at once); whoever
 * completes one of the cases first wins the G's selectDone, and pass 3
 * takes the other sudogs back off their queues.  All the channels are
 * locked together, in order of address (so two selects cannot deadlock),
 * each once even if several cases use it.
 *
 * The cases array lives in the caller's data frame, on the goroutine
 * stack: across gopark it is reached by its offset from stack.hi (the
 * stack may move while the G is parked), and selparkcommit, which runs
 * when the G may already be running elsewhere, does not touch it at all.
 * The poll and lock orders live in a buffer of the G's (g->selorder), not
 * on the stack: small C frames (DESIGN.md S7).
 */
#include "rt.h"

/* The channels of the cases in lockorder, each locked once. */
static void sellock(GlSelectCase *scases, const uint16_t *lockorder, int n) {
	hchan *c = NULL;
	for (int i = 0; i < n; i++) {
		hchan *c0 = scases[lockorder[i]].c;
		if (c0 != c) {
			c = c0;
			lock(&c->lock);
		}
	}
}

static void selunlock(GlSelectCase *scases, const uint16_t *lockorder, int n) {
	/* in reverse, and nothing of scases after the last unlock: from then
	 * on the G may run again, elsewhere */
	for (int i = n - 1; i >= 0; i--) {
		hchan *c = scases[lockorder[i]].c;
		if (i > 0 && c == scases[lockorder[i - 1]].c)
			continue; /* unlocked on the next iteration */
		unlock(&c->lock);
	}
}

/* For chan_send/chan_recv: release all of a select's locks. */
typedef struct selunlockArgs {
	GlSelectCase *scases;
	const uint16_t *lockorder;
	int n;
} selunlockArgs;

static void selunlock_f(void *arg) {
	selunlockArgs *a = arg;
	selunlock(a->scases, a->lockorder, a->n);
}

/* gopark's unlockf, on g0 once the G is parked.  It walks g->waiting
 * (sudogs in lock order), never the cases on the G's stack, and unlocks a
 * channel only past its last sudog: once a channel is unlocked, its
 * sudogs may change. */
static bool selparkcommit(G *gp, void *unused) {
	(void)unused;
	gp->activeStackChans = true;
	__atomic_store_n(&gp->parkingOnChan, 0, __ATOMIC_RELEASE);
	hchan *lastc = NULL;
	for (sudog *sg = gp->waiting; sg != NULL; sg = sg->waitlink) {
		if (sg->c != lastc && lastc != NULL)
			unlock(&lastc->lock);
		lastc = sg->c;
	}
	if (lastc != NULL)
		unlock(&lastc->lock);
	return true;
}

/* The G's scratch for 2*n orders. */
static uint16_t *selorderbuf(G *g, int n) {
	if (g->selordercap < 2 * n) {
		int64_t cap = 2 * n < 16 ? 16 : 2 * n;
		g->selorder = mallocgc((uint64_t)cap * sizeof(uint16_t), NULL, false);
		g->selordercap = cap;
	}
	return g->selorder;
}

/* A random permutation of the cases with a channel (nil channels never
 * proceed) into pollorder; returns how many. */
static int mkpollorder(GlSelectCase *scases, int ncases, uint16_t *pollorder) {
	int norder = 0;
	for (int i = 0; i < ncases; i++) {
		if (scases[i].c == NULL) {
			scases[i].elem = NULL;
			continue;
		}
		uint32_t j = (uint32_t)(((uint64_t)fastrand() * (uint32_t)(norder + 1)) >> 32);
		pollorder[norder] = pollorder[j];
		pollorder[j] = (uint16_t)i;
		norder++;
	}
	return norder;
}

/* lockorder: the cases sorted by channel address, by heap sort (n log n,
 * no recursion), starting from the poll order so cases on the same
 * channel come in random order too. */
static void mklockorder(GlSelectCase *scases, const uint16_t *pollorder, uint16_t *lockorder, int n) {
#define KEY(i) ((uintptr_t)scases[lockorder[i]].c)
	for (int i = 0; i < n; i++) {
		int j = i;
		uintptr_t c = (uintptr_t)scases[pollorder[i]].c;
		while (j > 0 && KEY((j - 1) / 2) < c) {
			int k = (j - 1) / 2;
			lockorder[j] = lockorder[k];
			j = k;
		}
		lockorder[j] = pollorder[i];
	}
	for (int i = n - 1; i >= 0; i--) {
		uint16_t o = lockorder[i];
		uintptr_t c = (uintptr_t)scases[o].c;
		lockorder[i] = lockorder[0];
		int j = 0;
		for (;;) {
			int k = j * 2 + 1;
			if (k >= i)
				break;
			if (k + 1 < i && KEY(k) < KEY(k + 1))
				k++;
			if (c < KEY(k)) {
				lockorder[j] = lockorder[k];
				j = k;
				continue;
			}
			break;
		}
		lockorder[j] = o;
	}
#undef KEY
}

/* Pass 2 and the park: a sudog on every channel, then sleep until one
 * completes.  Returns the winning sudog (gp->param), or NULL if woken by
 * a close... (then its success is false).  The G's waiting list is left
 * for pass 3. */
static void selpark(G *gp, GlSelectCase *scases, const uint16_t *lockorder, int n, int nsends) {
	if (gp->waiting != NULL)
		gl_throw("gp.waiting != nil");
	sudog **nextp = &gp->waiting;
	for (int i = 0; i < n; i++) {
		int casi = lockorder[i];
		GlSelectCase *cas = &scases[casi];
		sudog *sg = acquireSudog();
		sg->g = gp;
		sg->isSelect = true;
		sg->elem = cas->elem; /* from now on copystack keeps it right */
		sg->releasetime = 0;
		sg->c = cas->c;
		*nextp = sg; /* the waiting list, in lock order */
		nextp = &sg->waitlink;
		if (casi < nsends)
			waitq_enqueue(&cas->c->sendq, sg);
		else
			waitq_enqueue(&cas->c->recvq, sg);
	}
	gp->param = NULL;
	__atomic_store_n(&gp->parkingOnChan, 1, __ATOMIC_RELEASE);
	gopark(selparkcommit, NULL, waitReasonSelect);
}

/* Pass 3, with every channel locked again: the case whose sudog won
 * (sg), the others' sudogs taken off their queues.  Returns the case,
 * *ok its success. */
static int selunpark(G *gp, GlSelectCase *scases, const uint16_t *lockorder, int n, int nsends, sudog *sg,
		     bool *ok) {
	int casi = -1;
	sudog *sglist = gp->waiting;
	/* clear elem before unlinking from gp->waiting: copystack must not
	 * follow them any more */
	for (sudog *sg1 = gp->waiting; sg1 != NULL; sg1 = sg1->waitlink) {
		sg1->isSelect = false;
		sg1->elem = NULL;
		sg1->c = NULL;
	}
	gp->waiting = NULL;
	for (int i = 0; i < n; i++) {
		int k = lockorder[i];
		if (sg == sglist) {
			/* dequeued already by the G that woke us */
			casi = k;
			*ok = sglist->success;
		} else {
			hchan *c = scases[k].c;
			if (k < nsends)
				waitq_dequeueSudoG(&c->sendq, sglist);
			else
				waitq_dequeueSudoG(&c->recvq, sglist);
		}
		sudog *sgnext = sglist->waitlink;
		sglist->waitlink = NULL;
		releaseSudog(sglist);
		sglist = sgnext;
	}
	if (casi < 0)
		gl_throw("selectgo: bad wakeup");
	return casi;
}

/* The select statement: the index of the case that ran (or -1 for the
 * default when !block), with the receive's ok in bit 32.  May panic (send
 * on a closed channel). */
int64_t selectgo(G *g, GlSelectCase *cases, int nsends, int nrecvs, bool block) {
	entrySafePoint(g); /* a select with a default, polled in a loop, never parks */
	int ncases = nsends + nrecvs;
	if (ncases == 0) {
		if (!block)
			return -1;
		gopark(NULL, NULL, waitReasonSelectNoCases);
		gl_throw("unreachable");
	}
	uint16_t *pollorder = selorderbuf(g, ncases);
	uint16_t *lockorder = pollorder + ncases;
	int n = mkpollorder(cases, ncases, pollorder);
	mklockorder(cases, pollorder, lockorder, n);
	if (n > 0)
		sellock(cases, lockorder, n);

	/* pass 1: something already waiting, in poll order */
	for (int i = 0; i < n; i++) {
		int casi = pollorder[i];
		GlSelectCase *cas = &cases[casi];
		hchan *c = cas->c;
		selunlockArgs ua = {cases, lockorder, n};
		if (casi >= nsends) {
			sudog *sg = waitq_dequeue(&c->sendq);
			if (sg != NULL) { /* from a sleeping sender */
				chan_recv(c, sg, cas->elem, selunlock_f, &ua);
				return casi | (int64_t)1 << 32;
			}
			if (c->qcount > 0) { /* from the buffer */
				void *qp = (uint8_t *)c->buf + c->recvx * c->elemsize;
				chan_recvslot(c, cas->elem, qp);
				if (++c->recvx == c->dataqsiz)
					c->recvx = 0;
				c->qcount--;
				selunlock(cases, lockorder, n);
				return casi | (int64_t)1 << 32;
			}
			if (c->closed != 0) { /* the end of a closed channel */
				selunlock(cases, lockorder, n);
				if (cas->elem != NULL)
					chan_typedclr(c, cas->elem);
				return casi;
			}
		} else {
			if (c->closed != 0) {
				selunlock(cases, lockorder, n);
				gl_panicstring(g, "send on closed channel");
				return casi;
			}
			sudog *sg = waitq_dequeue(&c->recvq);
			if (sg != NULL) { /* to a sleeping receiver */
				chan_send(c, sg, cas->elem, selunlock_f, &ua);
				return casi;
			}
			if (c->qcount < c->dataqsiz) { /* into the buffer */
				chan_typedmove(c, (uint8_t *)c->buf + c->sendx * c->elemsize, cas->elem);
				if (++c->sendx == c->dataqsiz)
					c->sendx = 0;
				c->qcount++;
				selunlock(cases, lockorder, n);
				return casi;
			}
		}
	}
	if (!block) {
		if (n > 0)
			selunlock(cases, lockorder, n);
		return -1;
	}

	/* pass 2: wait on all of them (with no channel at all, forever) */
	uintptr_t casesoff = stackoff(g, cases);
	selpark(g, cases, lockorder, n, nsends);

	/* woken, perhaps on another M and with the stack moved */
	G *gp = getg();
	cases = stackptr(gp, cases, casesoff);
	pollorder = gp->selorder;
	lockorder = pollorder + ncases;
	gp->activeStackChans = false;
	sellock(cases, lockorder, n);
	__atomic_store_n(&gp->selectDone, 0, __ATOMIC_RELEASE);
	sudog *sg = gp->param;
	gp->param = NULL;
	bool ok = false;
	int casi = selunpark(gp, cases, lockorder, n, nsends, sg, &ok);
	selunlock(cases, lockorder, n);
	if (casi < nsends) {
		if (!ok) /* woken by close */
			gl_panicstring(gp, "send on closed channel");
		return casi;
	}
	return casi | (int64_t)ok << 32;
}
