/*
 * sema.c — runtime semaphores (Go's runtime/sema.go), the sleep and
 * wakeup under sync.Mutex, RWMutex and WaitGroup, and the notify lists
 * under sync.Cond.
 *
 * A semaphore is a uint32 anywhere in memory (in the heap: glc moves every
 * variable whose address is taken there).  semacquire1 takes a unit if
 * there is one, else parks the goroutine on a wait list keyed by the
 * address; semrelease1 adds a unit and readies the first waiter, which
 * goes to this P's runnext.  With handoff (a starving sync.Mutex), the
 * release gives the unit straight to that waiter (ticket) and yields the
 * P to it at once (goyield), so it runs next on this P: seed 002's "fair
 * mode".
 *
 * The waiters live in a table of 251 roots, by address hash; each root
 * holds a list of per-address heads (sudogs with semaddr set), and each
 * head the FIFO of the other waiters on its address (waitlink, waittail).
 * Go keeps the heads in a treap; a list is enough for the handful of
 * distinct contended addresses that share a root in practice.
 */
#include "rt.h"

typedef struct semaRoot {
	mutex lock;
	uint32_t nwait; /* waiters, read without the lock */
	sudog *head;    /* per-address heads, linked through next/prev */
	uint8_t pad[64 - 24];
} semaRoot;

enum { semTabSize = 251 }; /* a prime, not to correlate with user patterns */
static semaRoot semtable[semTabSize] = {[0 ... semTabSize - 1] = {.lock = MUTEX(lockRankSemaRoot)}};

/* The collector's roots in semtable: the heap words of the sudogs queued
 * on each root (sudogs are outside the heap, chan.c): each address's head
 * and the queue that hangs off it. */
void semtablescan(void (*f)(uintptr_t *slot, void *arg), void *arg) {
	for (int i = 0; i < semTabSize; i++)
		for (sudog *h = semtable[i].head; h != NULL; h = h->next)
			for (sudog *s = h; s != NULL; s = s->waitlink) {
				f((uintptr_t *)&s->semaddr, arg);
				f((uintptr_t *)&s->elem, arg);
			}
}

static inline semaRoot *semroot(uint32_t *addr) {
	return &semtable[((uintptr_t)addr >> 3) % semTabSize];
}

static bool cansemacquire(uint32_t *addr) {
	for (;;) {
		uint32_t v = __atomic_load_n(addr, __ATOMIC_ACQUIRE);
		if (v == 0)
			return false;
		if (__atomic_compare_exchange_n(addr, &v, v - 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return true;
	}
}

/* Take the semaphore if it can be had at once (the collector's start from
 * an allocation, which must not park). */
bool semtryacquire(uint32_t *addr) {
	return cansemacquire(addr);
}

/* Add s to the waiters on addr: at the end, or (lifo: a waiter that was
 * woken and lost the race again) at the front. */
static void semqueue(semaRoot *root, uint32_t *addr, sudog *s, bool lifo) {
	s->g = getg();
	s->semaddr = addr;
	s->next = s->prev = NULL;
	s->waitlink = s->waittail = NULL;
	sudog *h = root->head;
	while (h != NULL && h->semaddr != addr)
		h = h->next;
	if (h == NULL) { /* the first waiter on addr */
		s->next = root->head;
		if (root->head != NULL)
			root->head->prev = s;
		root->head = s;
		return;
	}
	if (!lifo) {
		if (h->waittail == NULL)
			h->waitlink = s;
		else
			h->waittail->waitlink = s;
		h->waittail = s;
		return;
	}
	/* s takes h's place in the list of heads, h first in s's waiters */
	s->prev = h->prev;
	s->next = h->next;
	if (s->prev != NULL)
		s->prev->next = s;
	else
		root->head = s;
	if (s->next != NULL)
		s->next->prev = s;
	s->waitlink = h;
	s->waittail = h->waittail != NULL ? h->waittail : h;
	h->next = h->prev = NULL;
	h->waittail = NULL;
}

/* The first waiter on addr, removed, or NULL. */
static sudog *semdequeue(semaRoot *root, uint32_t *addr) {
	sudog *s = root->head;
	while (s != NULL && s->semaddr != addr)
		s = s->next;
	if (s == NULL)
		return NULL;
	sudog *t = s->waitlink;
	if (t != NULL) { /* the next waiter becomes the head */
		t->prev = s->prev;
		t->next = s->next;
		t->waittail = t->waitlink != NULL ? s->waittail : NULL;
		if (t->prev != NULL)
			t->prev->next = t;
		else
			root->head = t;
		if (t->next != NULL)
			t->next->prev = t;
	} else {
		if (s->prev != NULL)
			s->prev->next = s->next;
		else
			root->head = s->next;
		if (s->next != NULL)
			s->next->prev = s->prev;
	}
	s->next = s->prev = NULL;
	s->waitlink = s->waittail = NULL;
	s->semaddr = NULL;
	s->ticket = 0;
	return s;
}

/* Take a unit of *addr, parking until there is one. */
void semacquire1(uint32_t *addr, bool lifo, uint32_t reason) {
	if (cansemacquire(addr))
		return;
	sudog *s = acquireSudog();
	semaRoot *root = semroot(addr);
	s->releasetime = 0;
	s->acquiretime = 0;
	s->ticket = 0;
	for (;;) {
		lock(&root->lock);
		/* counted first, so semrelease1 does not take its easy path */
		__atomic_add_fetch(&root->nwait, 1, __ATOMIC_ACQ_REL);
		if (cansemacquire(addr)) { /* a release came in between */
			__atomic_sub_fetch(&root->nwait, 1, __ATOMIC_ACQ_REL);
			unlock(&root->lock);
			break;
		}
		semqueue(root, addr, s, lifo);
		goparkunlock(&root->lock, reason);
		if (s->ticket != 0 || cansemacquire(addr))
			break;
	}
	releaseSudog(s);
}

/* Add a unit to *addr and wake a waiter; handoff: give it the unit
 * directly and run it now, on this P. */
void semrelease1(uint32_t *addr, bool handoff) {
	semaRoot *root = semroot(addr);
	__atomic_add_fetch(addr, 1, __ATOMIC_ACQ_REL);
	/* after the add, or a waiter could be missed (see semacquire1) */
	if (__atomic_load_n(&root->nwait, __ATOMIC_ACQUIRE) == 0)
		return;
	lock(&root->lock);
	if (__atomic_load_n(&root->nwait, __ATOMIC_ACQUIRE) == 0) {
		/* the unit was taken by another goroutine meanwhile */
		unlock(&root->lock);
		return;
	}
	sudog *s = semdequeue(root, addr);
	if (s != NULL)
		__atomic_sub_fetch(&root->nwait, 1, __ATOMIC_ACQ_REL);
	unlock(&root->lock);
	if (s == NULL)
		return;
	if (handoff && cansemacquire(addr))
		s->ticket = 1;
	goready(s->g);
	if (s->ticket == 1 && getm()->locks == 0) {
		/* Direct hand-off: the waiter is in runnext; yield so that it
		 * runs now, inheriting our time slice, and we wait at the tail
		 * of the local queue.  Only when starving: otherwise another
		 * goroutine may take the unit while we schedule. */
		goyield();
	}
}

/* ---- notify lists (sync.Cond) ----
 * Tickets: Wait takes one (notifyListAdd) before unlocking the Cond's
 * lock, then waits until the notify count passes it. */
typedef struct notifyList {
	uint32_t wait;   /* atomic: the ticket of the next waiter */
	uint32_t notify; /* the ticket of the next waiter to notify */
	mutex lock;      /* its rank set each time before it is taken: the memory is sync.Cond's */
	sudog *head, *tail;
} notifyList;
/* it is stdlib/sync/cond.gl's notifyList (glc contract's layout) */
GL_SAMEFIELD(notifyList, struct sync_notifyList, wait);
GL_SAMEFIELD(notifyList, struct sync_notifyList, notify);
GL_SAMEFIELD(notifyList, struct sync_notifyList, lock);
GL_SAMEFIELD(notifyList, struct sync_notifyList, head);
GL_SAMEFIELD(notifyList, struct sync_notifyList, tail);
_Static_assert(sizeof(notifyList) == sizeof(struct sync_notifyList), "notifyList's size");

/* a < b for counters that wrap */
static inline bool less(uint32_t a, uint32_t b) {
	return (int32_t)(a - b) < 0;
}

uint32_t sync_runtime_notifyListAdd(G *g, struct sync_notifyList *sl) {
	notifyList *l = (notifyList *)sl;
	(void)g;
	return __atomic_fetch_add(&l->wait, 1, __ATOMIC_ACQ_REL);
}

void sync_runtime_notifyListWait(G *g, struct sync_notifyList *sl, uint32_t t) {
	notifyList *l = (notifyList *)sl;
	(void)g;
	lockInit(&l->lock, lockRankNotifyList);
	lock(&l->lock);
	if (less(t, l->notify)) { /* notified already */
		unlock(&l->lock);
		return;
	}
	sudog *s = acquireSudog();
	s->g = getg();
	s->ticket = t;
	s->releasetime = 0;
	if (l->tail == NULL)
		l->head = s;
	else
		l->tail->next = s;
	l->tail = s;
	goparkunlock(&l->lock, waitReasonSyncCondWait);
	releaseSudog(s);
}

void sync_runtime_notifyListNotifyAll(G *g, struct sync_notifyList *sl) {
	notifyList *l = (notifyList *)sl;
	(void)g;
	if (__atomic_load_n(&l->wait, __ATOMIC_ACQUIRE) == __atomic_load_n(&l->notify, __ATOMIC_ACQUIRE))
		return;
	lockInit(&l->lock, lockRankNotifyList);
	lock(&l->lock);
	sudog *s = l->head;
	l->head = NULL;
	l->tail = NULL;
	__atomic_store_n(&l->notify, __atomic_load_n(&l->wait, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	unlock(&l->lock);
	while (s != NULL) {
		sudog *next = s->next;
		s->next = NULL;
		goready(s->g);
		s = next;
	}
}

void sync_runtime_notifyListNotifyOne(G *g, struct sync_notifyList *sl) {
	notifyList *l = (notifyList *)sl;
	(void)g;
	if (__atomic_load_n(&l->wait, __ATOMIC_ACQUIRE) == __atomic_load_n(&l->notify, __ATOMIC_ACQUIRE))
		return;
	lockInit(&l->lock, lockRankNotifyList);
	lock(&l->lock);
	uint32_t t = l->notify;
	if (t == __atomic_load_n(&l->wait, __ATOMIC_ACQUIRE)) {
		unlock(&l->lock);
		return;
	}
	__atomic_store_n(&l->notify, t + 1, __ATOMIC_RELEASE);
	/* the waiter with ticket t may not have queued itself yet: then its
	 * notifyListWait will see notify past its ticket and not sleep */
	for (sudog *p = NULL, *s = l->head; s != NULL; p = s, s = s->next) {
		if (s->ticket == t) {
			sudog *n = s->next;
			if (p != NULL)
				p->next = n;
			else
				l->head = n;
			if (n == NULL)
				l->tail = p;
			unlock(&l->lock);
			s->next = NULL;
			goready(s->g);
			return;
		}
	}
	unlock(&l->lock);
}

/* ---- package sync's hooks (Go's sync_runtime_*) ---- */

void sync_runtime_Semacquire(G *g, uint32_t *addr) {
	(void)g;
	semacquire1(addr, false, waitReasonSemacquire);
}

void sync_runtime_SemacquireMutex(G *g, uint32_t *addr, bool lifo, int64_t skipframes) {
	(void)g;
	(void)skipframes;
	semacquire1(addr, lifo, waitReasonSemacquire);
}

void sync_runtime_Semrelease(G *g, uint32_t *addr, bool handoff, int64_t skipframes) {
	(void)g;
	(void)skipframes;
	semrelease1(addr, handoff);
}

/* sync's fatal errors: its own fault ("sync: inconsistent mutex state",
 * a throw), or the program's ("sync: unlock of unlocked mutex", fatal). */
static char *cstring(GlString s) {
	char *msg = mallocgc((uint64_t)s.len + 1, NULL, false);
	memcpy(msg, s.ptr, (size_t)s.len);
	msg[s.len] = 0;
	return msg;
}

void sync_throw(G *g, GlString s) {
	(void)g;
	gl_throw(cstring(s));
}

void sync_fatal(G *g, GlString s) {
	(void)g;
	gl_fatal(cstring(s));
}
