/*
 * mgcmark.c — marking (Go's mgcmark.go), with the world stopped or
 * beside the running program.
 *
 * Tri-color marking, as Go's collector: an object is white while its mark
 * bit is clear, grey once its bit is set and it waits on the work list,
 * black once scanned.  markroots greys what the roots point to; gcDrain
 * takes grey objects off the list and scans them (scanobject), greying
 * the white objects they point to, until the list is empty.  Then every
 * object still white is unreachable, and the sweeper (mgcsweep.c) frees
 * it.
 *
 * Marking runs either with the world stopped for the whole cycle
 * (GLDEBUG=gcstoptheworld=1) or, by default, concurrently with the
 * program (mgc.c's gcStart): then the roots are greyed with the world
 * stopped, and the program runs again while the background worker drains
 * the grey objects, with the write barrier on.  The tri-color invariant
 * the barrier keeps: no black object points to a white one that nothing
 * grey still reaches — Go's hybrid barrier shades the pointer a store
 * overwrites (so whatever was reachable when marking began stays
 * reachable for the marker) and the one it writes.  Objects allocated
 * while marking are black at once (gcmarknewobject).  So three parties
 * set mark bits at the same time — the worker, the mutators' barriers
 * (gcShade, from their wbBuf) and allocation — and the bits are set
 * with an atomic or.
 *
 * A word is followed only if the heap's pointer bits say it holds a
 * pointer (heapBitsSetType wrote them at allocation from the object's
 * type; noscan spans have no pointers at all), so the heap is scanned
 * precisely.  Roots are precise too — package variables (glc's
 * GL_GLOBAL_ROOT records), the runtime's own fields (gcscanruntime, the
 * finalizer queue among them), what finalizer records refer to
 * (markrootSpans), every data frame through its stack map, its stack
 * objects only if something reaches them (mgcstack.c) — except the innermost frames
 * of a stopped goroutine, which no map describes (preempt.c, asyncframe
 * and syncframe): their words are taken as pointers if they point into an
 * allocated object, which keeps that object alive (conservatively) and
 * is harmless otherwise: the collector never moves objects.
 *
 * Interior pointers are common (a slice of the middle of an array, a
 * pointer to a field): findObject maps any address inside an allocated
 * slot to the slot.  Addresses outside the heap (stacks, globals, type
 * descriptors, persistentalloc'd records) are ignored.
 *
 * Grey objects wait in workbufs (below), never on the heap they
 * describe; any number of drainers mark at once, each with a gcWork.
 */
#include "rt.h"

/* ---- the work lists (Go's gcWork and workbufs) ----
 *
 * Grey objects wait in workbufs: fixed blocks of addresses, in memory
 * from the OS (sysAlloc), never on the heap they describe.  Two global
 * lists hold the blocks nobody is working on: work.full (blocks with grey
 * objects, full or not) and work.empty.  Whoever greys or scans — the
 * background workers, an assist, a write barrier's flush, the thread that
 * stopped the world — does it through a gcWork of its own, on its g0
 * stack for the length of that one job: two blocks in hand (Go's wbuf1
 * and wbuf2, so that a drainer that fills a block and empties it again
 * does not go to the lists each time), blocks taken from and given to the
 * lists under work.lock, one lock per some 250 objects.  So any number
 * of them mark at once, each on its own blocks; what they share is the
 * mark bits (set with an atomic or) and the lists.
 *
 * A job ends with gcWorkDispose: the blocks it holds go back to the lists,
 * so grey objects are never kept where only their owner sees them
 * (Go keeps a P's blocks across jobs and gathers them with a ragged
 * barrier; gl's jobs are long, a millisecond of a worker's or 64 KiB of
 * an assist's, and a block handed back costs one lock).  work.nactive
 * counts the jobs that may hold grey objects (Go's nproc - nwait): while
 * one does, grey objects may be in its hands though work.full is empty,
 * so the mark is over only when both are zero (gcMarkWorkLeft).  A job
 * counts itself in when it begins and before it takes a block from
 * work.full, and out when it ends, after giving its blocks back, or
 * when it found nothing to drain and waits (gcWorkWait) — else workers
 * waiting for one another's work would each see the others under way
 * and wait forever.  The check reads the count first, then the list.
 * Not a proof that the
 * mark is over — a write barrier's buffer may still hold pointers — but
 * the sign to end it: gcMarkDone, the world stopped, flushes the buffers
 * and drains what is left. */
enum { workbufBytes = 2048 }; /* Go's _WorkbufSize */

typedef struct workbuf {
	struct workbuf *next; /* on work.full or work.empty */
	uint64_t nobj;
	uintptr_t obj[(workbufBytes - 16) / sizeof(uintptr_t)];
} workbuf;

enum { workbufObjs = sizeof(((workbuf *)0)->obj) / sizeof(uintptr_t) };

static struct {
	mutex lock;
	workbuf *full, *empty; /* under lock; full is read without it as a hint */
	int32_t nactive;       /* gcWorks in use (atomic) */
} work = {MUTEX(lockRankWork), NULL, NULL, 0};

/* An empty block: from work.empty, or a new batch from the OS. */
static workbuf *getempty(void) {
	lock(&work.lock);
	workbuf *b = work.empty;
	if (b == NULL) {
		enum { batch = 32 }; /* 64 KiB at a time */
		b = sysAlloc(batch * sizeof(workbuf), &memstats.gc_sys);
		for (int i = 1; i < batch; i++) {
			b[i].next = work.empty;
			work.empty = &b[i];
		}
	} else
		work.empty = b->next;
	unlock(&work.lock);
	b->next = NULL;
	b->nobj = 0;
	return b;
}

static void putempty(workbuf *b) {
	lock(&work.lock);
	b->next = work.empty;
	work.empty = b;
	unlock(&work.lock);
}

static void putfull(workbuf *b) {
	lock(&work.lock);
	b->next = work.full;
	__atomic_store_n(&work.full, b, __ATOMIC_RELEASE);
	unlock(&work.lock);
}

/* A block with grey objects, or NULL when work.full is empty. */
static workbuf *trygetfull(void) {
	if (__atomic_load_n(&work.full, __ATOMIC_ACQUIRE) == NULL)
		return NULL;
	lock(&work.lock);
	workbuf *b = work.full;
	if (b != NULL)
		__atomic_store_n(&work.full, b->next, __ATOMIC_RELAXED);
	unlock(&work.lock);
	return b;
}

/* A job begins: its gcWork counts as active. */
void gcWorkInit(gcWork *w) {
	*w = (gcWork){.counted = true};
	__atomic_fetch_add(&work.nactive, 1, __ATOMIC_ACQ_REL);
}

/* w, empty, found nothing on work.full: it holds no grey object, and
 * counts itself out until it takes a block again (workpopslow). */
void gcWorkWait(gcWork *w) {
	if (w->counted) {
		w->counted = false;
		__atomic_fetch_sub(&work.nactive, 1, __ATOMIC_ACQ_REL);
	}
}

/* Before w takes a block from work.full: counted in first, so that
 * no one sees the list empty and nobody active while the block is in
 * transit. */
static inline void workcountin(gcWork *w) {
	if (!w->counted) {
		w->counted = true;
		__atomic_fetch_add(&work.nactive, 1, __ATOMIC_ACQ_REL);
	}
}

static GL_NOINLINE void workputslow(gcWork *w, uintptr_t obj) {
	if (w->wbuf1 == NULL) {
		w->wbuf1 = getempty();
		w->wbuf2 = getempty();
	} else {
		workbuf *t = w->wbuf1; /* the spare may have room */
		w->wbuf1 = w->wbuf2;
		w->wbuf2 = t;
		if (w->wbuf1->nobj == workbufObjs) {
			putfull(w->wbuf1);
			w->wbuf1 = getempty();
		}
	}
	w->wbuf1->obj[w->wbuf1->nobj++] = obj;
}

static inline void workpush(gcWork *w, uintptr_t obj) {
	workbuf *b = w->wbuf1;
	if (GL_UNLIKELY(b == NULL || b->nobj == workbufObjs)) {
		workputslow(w, obj);
		return;
	}
	b->obj[b->nobj++] = obj;
}

/* The next grey object of w's, or of work.full's; 0 if there is none. */
static GL_NOINLINE uintptr_t workpopslow(gcWork *w) {
	if (__atomic_load_n(&work.full, __ATOMIC_ACQUIRE) != NULL)
		workcountin(w);
	if (w->wbuf1 == NULL) { /* a new job: its first block a full one */
		if ((w->wbuf1 = trygetfull()) == NULL)
			return 0;
		w->wbuf2 = getempty();
		return w->wbuf1->obj[--w->wbuf1->nobj];
	}
	workbuf *t = w->wbuf1;
	w->wbuf1 = w->wbuf2;
	w->wbuf2 = t;
	if (w->wbuf1->nobj == 0) {
		workbuf *b = trygetfull();
		if (b == NULL)
			return 0;
		putempty(w->wbuf1);
		w->wbuf1 = b;
	}
	return w->wbuf1->obj[--w->wbuf1->nobj];
}

static inline uintptr_t workpop(gcWork *w) {
	workbuf *b = w->wbuf1;
	if (GL_UNLIKELY(b == NULL || b->nobj == 0))
		return workpopslow(w);
	return b->obj[--b->nobj];
}

/* Go's balance: this drainer has a whole spare block and the list is
 * empty: give the block to the others, who may be waiting for work. */
static inline void workbalance(gcWork *w) {
	if (w->wbuf2 != NULL && w->wbuf2->nobj != 0 && __atomic_load_n(&work.full, __ATOMIC_RELAXED) == NULL) {
		putfull(w->wbuf2);
		w->wbuf2 = getempty();
	}
}

static void flushWorkStats(gcWork *w);

/* A job ends: its blocks back on the lists, its counts into gcstats. */
void gcWorkDispose(gcWork *w) {
	for (workbuf **bp = &w->wbuf1; bp <= &w->wbuf2; bp++) {
		if (*bp == NULL)
			continue;
		if ((*bp)->nobj != 0)
			putfull(*bp);
		else
			putempty(*bp);
		*bp = NULL;
	}
	flushWorkStats(w);
	gcWorkWait(w);
}

/* Whether grey objects wait on work.full for anyone to take. */
bool gcMarkWorkAvailable(void) {
	return __atomic_load_n(&work.full, __ATOMIC_ACQUIRE) != NULL;
}

/* Whether grey objects may be left: on work.full, or in the hands of a
 * job counted active (the caller's own not among them: gcWorkWait or
 * gcWorkDispose first). */
bool gcMarkWorkLeft(void) {
	return __atomic_load_n(&work.nactive, __ATOMIC_ACQUIRE) != 0 ||
	       __atomic_load_n(&work.full, __ATOMIC_ACQUIRE) != NULL;
}

/* ---- greying ---- */

gcstats_t gcstats;

/* Shade the object p points into, if any: set its mark bit, and put it on
 * the work list unless it has no pointers (noscan: it is black at once).
 * p may be any word: findObject rejects what is not inside an allocated
 * slot (Go's greyobject, reached through findObject as its shade). */

/* Add w's counts to gcstats: after each drain (the pacer's assist ratio
 * reads gcstats.scannedBytes, and a worker's slice holds a millisecond
 * of scan work) and at the end of its job. */
static void flushWorkStats(gcWork *w) {
	if (w->markedObjects != 0) {
		__atomic_fetch_add(&gcstats.markedObjects, w->markedObjects, __ATOMIC_RELAXED);
		__atomic_fetch_add(&gcstats.markedBytes, w->markedBytes, __ATOMIC_RELAXED);
	}
	if (w->scannedBytes != 0)
		__atomic_fetch_add(&gcstats.scannedBytes, w->scannedBytes, __ATOMIC_RELAXED);
	w->markedObjects = w->markedBytes = w->scannedBytes = 0;
}

static inline void greyfound(uintptr_t obj, mspan *s, uint32_t idx, gcWork *w) {
	if (!setmarked(s, idx))
		return;
	w->markedObjects++;
	w->markedBytes += s->elemsize;
	if (!spanClass_noscan(s->spanclass))
		workpush(w, obj);
}

static inline void greyobject(uintptr_t p, gcWork *w) {
	mspan *s;
	uint32_t idx;
	if (p < 4096)
		return;
	uintptr_t obj = findObject(p, &s, &idx);
	if (obj != 0)
		greyfound(obj, s, idx, w);
}

/* ---- bad pointers (Go's badPointer, GODEBUG=invalidptr) ----
 *
 * A pointer word of a heap object holds nil, an address outside the heap
 * (a package variable, a stack, the runtime's records), or an address
 * inside an allocated object: glc never makes any other (an empty slice
 * keeps its base, never one past the end).  One that points into the
 * heap's pages where no span in use has objects — a free page run, or a
 * span's tail past its last object — was put there by a program that
 * broke the rules through unsafe, or by a runtime bug; as Go does (with
 * its default GODEBUG=invalidptr=1), the mark stops there and says which
 * word of which object, before the sweeper or the allocator turns it into
 * a crash somewhere else.  A pointer to a free slot of a span in use is
 * not caught (Go's is not either): findObject ignores it, and
 * GLDEBUG=clobberfree makes such a slot read 0xdb.  GLDEBUG=invalidptr=0
 * turns the check off.  Words the collector reads conservatively (the
 * innermost frames) are never checked: they hold anything. */

/* Whether p, which no allocated object contains, lies in the heap's
 * pages but in no span in use, or past the objects of the span in use
 * that holds its page. */
static bool badheappointer(uintptr_t p, mspan **sp) {
	mspan *s = spanOf(p); /* NULL: not the heap's, or a page not yet mapped */
	*sp = s;
	if (s == NULL)
		return false;
	/* an entry inside a free run may be stale: a span that no longer
	 * covers the page (mheap.c) */
	bool covers = p >= s->startAddr && p - s->startAddr < s->npages * pageSize;
	return !covers || s->state != mSpanInUse || p >= s->limit;
}

static void printword(const char *what, uintptr_t v) {
	prints(what);
	printhex(v);
}

/* "object=OBJ s.base()=... s.elemsize=N s.state=mSpanInUse", then the
 * words of the object at obj around the one at off: the first 16 and four
 * on either side of it (Go's gcDumpObject shows the beginning, which
 * hints at the type, and the field).  For the checkers' reports. */
void gcDumpObject(const char *label, uintptr_t obj, uintptr_t off) {
	mspan *s = spanOfHeap(obj);
	prints(label);
	printword("=", obj);
	if (s == NULL) {
		prints(" not in the heap\n");
		return;
	}
	printword(" s.base()=", s->startAddr);
	printword(" s.limit=", s->limit);
	prints(" s.spanclass=");
	printuint(s->spanclass);
	prints(" s.elemsize=");
	printuint(s->elemsize);
	prints(" s.state=mSpanInUse\n");
	uintptr_t size = spanClass_sizeclass(s->spanclass) == 0 ? s->limit - s->startAddr : s->elemsize;
	bool skipped = false;
	for (uintptr_t i = 0; i < size; i += 8) {
		if (!(i < 16 * 8 || (i + 4 * 8 > off && i < off + 5 * 8))) {
			skipped = true;
			continue;
		}
		if (skipped) {
			prints(" ...\n");
			skipped = false;
		}
		prints(" *(");
		prints(label);
		prints("+");
		printuint(i);
		printword(") = ", *(uintptr_t *)(obj + i));
		prints(i == off ? " <==\n" : "\n");
	}
	if (skipped)
		prints(" ...\n");
}

GL_NOINLINE static void badPointer(uintptr_t p, mspan *s, uintptr_t obj, uintptr_t slot) {
	printword("runtime: pointer ", p);
	bool covers = p >= s->startAddr && p - s->startAddr < s->npages * pageSize;
	if (!covers)
		prints(" to unallocated page");
	else {
		prints(s->state != mSpanInUse ? " to unallocated span" : " to unused region of span");
		printword(" span.base()=", s->startAddr);
		printword(" span.limit=", s->state == mSpanInUse ? s->limit : s->startAddr + s->npages * pageSize);
		prints(" span.state=");
		printuint(s->state);
	}
	printnl();
	printword("runtime: found in object at *(", obj);
	printword("+", slot - obj);
	prints(")\n");
	gcDumpObject("object", obj, slot - obj);
	getm()->traceback = 2;
	gl_throw("found bad pointer in gl heap (incorrect use of unsafe?)");
}

/* greyobject for the pointer word at slot of the heap object obj. */
static inline void greyheapword(uintptr_t p, uintptr_t obj, uintptr_t slot, gcWork *w) {
	mspan *s;
	uint32_t idx;
	if (p < 4096)
		return;
	uintptr_t o = findObject(p, &s, &idx);
	if (o != 0)
		greyfound(o, s, idx, w);
	else if (GL_UNLIKELY(gl_debug.invalidptr) && badheappointer(p, &s))
		badPointer(p, s, obj, slot);
}

/* Set while marking runs with the mutators: the write barrier shades,
 * and new objects are allocated black. */
bool gcBlackenEnabled;

/* Go's shade, for a write barrier's buffer of n pointers (mbarrier.c's
 * wbBufFlush): grey each, onto work.full.  True if that left objects to
 * scan there (Go's gcw.flushedWork: mark termination's ragged barrier
 * asks).  On the system stack. */
bool gcShadeBuf(const uintptr_t *p, uint64_t n) {
	if (!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE))
		return false;
	gcWork w;
	gcWorkInit(&w);
	for (uint64_t i = 0; i < n; i++)
		greyobject(p[i], &w);
	bool grey = w.wbuf1 != NULL && (w.wbuf1->nobj != 0 || w.wbuf2->nobj != 0);
	gcWorkDispose(&w);
	return grey;
}

void gcShade(uintptr_t p) {
	gcShadeBuf(&p, 1);
}

/* Go's gcmarknewobject, for the slow paths (on g0); the fast paths use
 * rt.h's inline gcmarknew. */
void gcmarknewobject(mcache *c, mspan *s, uintptr_t x) {
	gcmarknew(c, s, x);
}

/* ---- mark assists (Go's gcAssistAlloc) ----
 *
 * One background worker marks at a fixed share of the CPU, and the
 * program allocates as fast as it likes: alone, the worker would let the
 * heap run far past its goal before the mark ends (and the pacer's
 * backstop, mgcpacer.c's gcMarkAssistDue, would then finish the mark in
 * a long pause).  So, as in Go, every byte a goroutine allocates while
 * the collector marks costs it scan work: gcmarknewobject charges the
 * new object to G.gcAssistBytes, and the pacer's ratio
 * (gcAssistWorkPerByte: scan work left over heap left before the goal)
 * turns a negative balance into scan work owed.  The goroutine pays at
 * the end of an allocation's slow path (malloc.c's allocStopCheck, on g0,
 * a safe point), by taking the background worker's unclaimed scan work
 * (bgScanCredit) or by scanning grey objects itself, at least
 * gcOverAssistWork at a time (the surplus is credit for its next
 * allocations).  If it finds no grey object while others hold some (the
 * worker, other assists: gcMarkWorkLeft) and has no credit to take, the
 * goroutine parks on the assist queue, as Go's, until the worker's scan
 * work pays its debt (gcFlushBgCredit) or the mark ends: an allocator in
 * debt must not hold a P and wait, or the program's other goroutines (a
 * ticker) wait behind it; nor go on allocating, or it outruns the
 * collector.  Not with a runtime lock held, nor in the worker itself.
 * When nothing is grey anywhere the debt is forgiven: the mark is about
 * to end. */
enum {
	gcOverAssistWork = 64 << 10, /* the least an assist scans (Go's) */
	gcMaxAssistWork = 1 << 20,   /* the most, in one go */
	assistChunk = 64 << 10,      /* scanned between looks at a stop-the-world */
};

static int64_t bgScanCredit; /* scan work the worker did that no assist took (atomic) */

/* Go's assist queue: goroutines in debt that found neither credit nor
 * grey objects, parked (waitReasonGCAssistWait) until the worker's scan
 * work pays their debt (gcFlushBgCredit) or the mark ends
 * (gcWakeAllAssists).  Linked through G.schedlink, which a parked G does
 * not use; first in, first paid. */
static struct {
	mutex lock;
	G *head, *tail;
} assistQueue = {MUTEX(lockRankAssistQueue), NULL, NULL};

/* gp, switched out at an allocation's safe point to wait (park_m's
 * unlockf, on g0: preempt.c's allocPreempt parks it): onto the assist
 * queue, true — unless the mark is over or credit came meanwhile: then
 * false, and it goes on at once, to pay or park at its next slow path. */
bool gcParkAssist(G *gp, void *arg) {
	(void)arg;
	lock(&assistQueue.lock);
	if (!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE) || __atomic_load_n(&bgScanCredit, __ATOMIC_RELAXED) > 0) {
		unlock(&assistQueue.lock);
		return false;
	}
	gp->schedlink = NULL;
	if (assistQueue.tail != NULL)
		assistQueue.tail->schedlink = gp;
	else
		assistQueue.head = gp;
	assistQueue.tail = gp;
	unlock(&assistQueue.lock);
	return true;
}

/* The worker's scan work since the last call: it pays the parked assists'
 * debts first, in order, readying each one paid in full; the rest is
 * credit for the next assists to take.  On g0. */
void gcFlushBgCredit(int64_t work) {
	if (work <= 0)
		return;
	if (__atomic_load_n(&assistQueue.head, __ATOMIC_RELAXED) == NULL) {
		__atomic_fetch_add(&bgScanCredit, work, __ATOMIC_RELAXED);
		return;
	}
	double perByte = gcAssistWorkPerByte();
	G *paid = NULL, **last = &paid;
	lock(&assistQueue.lock);
	while (work > 0 && assistQueue.head != NULL) {
		G *gp = assistQueue.head;
		int64_t owed = (int64_t)((double)-gp->gcAssistBytes * perByte) + 1;
		if (owed > work) { /* part of its debt: it stays first in line */
			gp->gcAssistBytes += (int64_t)((double)work / perByte);
			work = 0;
			break;
		}
		gp->gcAssistBytes = 0;
		work -= owed;
		assistQueue.head = gp->schedlink;
		if (assistQueue.head == NULL)
			assistQueue.tail = NULL;
		gp->schedlink = NULL;
		*last = gp, last = &gp->schedlink;
	}
	unlock(&assistQueue.lock);
	if (work > 0)
		__atomic_fetch_add(&bgScanCredit, work, __ATOMIC_RELAXED);
	while (paid != NULL) {
		G *gp = paid;
		paid = gp->schedlink;
		gp->schedlink = NULL;
		goready(gp);
	}
}

/* The mark is over (gcBlackenEnabled is false): every parked assist runs
 * again; its debt is forgiven at its next allocation (gcAssistAlloc).
 * The world is stopped, so none is half parked. */
void gcWakeAllAssists(void) {
	lock(&assistQueue.lock);
	G *gp = assistQueue.head;
	assistQueue.head = assistQueue.tail = NULL;
	unlock(&assistQueue.lock);
	while (gp != NULL) {
		G *next = gp->schedlink;
		gp->schedlink = NULL;
		goready(gp);
		gp = next;
	}
}

/* When a mark begins, the world stopped: no credit and no debt. */
void gcAssistReset(void) {
	bgScanCredit = 0;
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++)
		gs[i]->gcAssistBytes = 0;
}

/* Take up to want of the worker's credit; what was taken. */
static int64_t stealBgCredit(int64_t want) {
	int64_t have = __atomic_load_n(&bgScanCredit, __ATOMIC_RELAXED);
	while (have > 0) {
		int64_t take = have < want ? have : want;
		if (__atomic_compare_exchange_n(&bgScanCredit, &have, have - take, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return take;
	}
	return 0;
}

/* Scan about want bytes of grey objects for an assist: what was
 * scanned; 0 if nothing is grey anywhere; -1 if the assist found none
 * while others hold some, or had to stop before it scanned anything (the
 * world is stopping, or gp is asked to stop) — not "nothing grey", which
 * forgives the debt. */
static int64_t assistDrain(int64_t want) {
	gcWork w;
	gcWorkInit(&w);
	bool empty = false;
	G *gp = getm()->curg; /* the assisting goroutine: it stops for a preemption request */
	while ((int64_t)w.scanWork < want && gcMarking() && !__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&gp->preempt, __ATOMIC_ACQUIRE)) {
		if (!gcDrainN(&w, assistChunk)) {
			empty = true;
			break;
		}
	}
	int64_t done = (int64_t)w.scanWork;
	gcWorkDispose(&w);
	if (done > 0)
		return done;
	return empty && !gcMarkWorkLeft() ? 0 : -1;
}

/* gp, which allocated on this M and holds its P with no runtime lock,
 * pays its debt if it has one (see above); true if it could not and
 * should stop: park on the assist queue (malloc.c's allocStopCheck, then
 * preempt.c's allocPreempt).  On g0. */
bool gcAssistAlloc(G *gp) {
	if (GL_LIKELY(gp->gcAssistBytes >= 0) || isGCWorker(gp))
		return false;
	if (!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE)) {
		/* the mark ended with gp in debt: forgiven now, or every slow
		 * path would come here again until the next mark resets it */
		gp->gcAssistBytes = 0;
		return false;
	}
	double perByte = gcAssistWorkPerByte();
	int64_t want = (int64_t)((double)-gp->gcAssistBytes * perByte);
	if (want < gcOverAssistWork)
		want = gcOverAssistWork;
	if (want > gcMaxAssistWork)
		want = gcMaxAssistWork;
	int64_t t0 = nanotime();
	int64_t got = stealBgCredit(want);
	bool yield = false;
	if (got < want) {
		int64_t scanned = assistDrain(want - got);
		if (scanned == 0) /* nothing grey: the mark is about to end */
			got = (int64_t)((double)-gp->gcAssistBytes * perByte) + 1;
		else if (scanned > 0)
			got += scanned;
		else
			yield = true;
	}
	gp->gcAssistBytes += (int64_t)((double)got / perByte);
	__atomic_fetch_add(&gcstats.assistNs, nanotime() - t0, __ATOMIC_RELAXED);
	return yield && gp->gcAssistBytes < 0;
}

/* The root callback: slot holds a pointer (precisely, or conservatively:
 * the same test serves both); arg is the gcWork. */
static void markslot(uintptr_t *slot, void *arg) {
	greyobject(*slot, arg);
}

/* A large object is scanned in pieces of this size, its oblets (Go's
 * maxObletBytes), each a unit of work of its own: the 8 MiB pointer
 * array of bench/gc's pause program, scanned at once, held an assisting
 * goroutine 13-16 ms past a preemption request, and its ticker waited. */
enum { maxObletBytes = 128 << 10 };

/* Scan one grey object, or one oblet of a large one: every word its
 * pointer bits mark (Go's scanobject), but for pointers into the object
 * itself.  b is an object's start, or an oblet's (b inside a large
 * object's span): the first visit of a large object queues its other
 * oblets.  A large object is scanned up to where its allocation ends
 * (limit), a small one its whole slot: the bits past the type's ptrdata
 * are clear. */
static uintptr_t scanobject(uintptr_t b, gcWork *gcw) {
	mspan *s = spanOfHeap(b);
	uintptr_t base = b, limit = b + s->elemsize, end = limit;
	if (spanClass_sizeclass(s->spanclass) == 0) {
		base = s->startAddr;
		limit = s->limit;
		end = limit;
		if (limit - base > maxObletBytes) {
			if (b == base)
				for (uintptr_t o = base + maxObletBytes; o < limit; o += maxObletBytes)
					workpush(gcw, o);
			end = limit - b > maxObletBytes ? b + maxObletBytes : limit;
		}
	}
	heapArena *ha = arenaOf(b);
	for (uintptr_t a = b; a < end; a += 8) {
		uintptr_t w = (a & (heapArenaBytes - 1)) >> 3;
		if ((w & 7) == 0 && ha->bitmap[w >> 3] == 0 && a + 64 <= end) {
			a += 56; /* eight words without a pointer */
			continue;
		}
		uintptr_t p = *(uintptr_t *)a;
		/* a pointer back into the object is skipped: it is marked
		 * already, except as a finalizer's root (markrootSpans), where
		 * a pointer to itself must not keep it alive */
		if ((ha->bitmap[w >> 3] >> (w & 7) & 1) && p - base >= limit - base)
			greyheapword(p, base, a, gcw);
		if (((a + 8) & (heapArenaBytes - 1)) == 0)
			ha = arenaOf(a + 8); /* a large object may cross into the next arena */
	}
	gcw->scannedBytes += end - b;
	gcw->scanWork += end - b;
	return end - b;
}

/* Blacken until nothing is grey (Go's gcDrain), or until budget bytes
 * were scanned (budget < 0: no limit), through w: its own blocks, then
 * work.full's.  True if grey objects are left in w (the budget ran out);
 * false when w and work.full had none left — others may still hold some
 * (gcMarkWorkLeft).  Any number of drainers run at once, each with its
 * own gcWork.
 *
 * Objects go through a small FIFO on their way from the work list to
 * scanobject, and each is prefetched as it enters: by the time it is
 * scanned, prefetchDepth objects later, its first line is in the cache.
 * (Cher, Hosking and Vijaykumar, "Software prefetching for mark-sweep
 * garbage collection", ASPLOS 2004.)  The heap's objects lie wherever
 * they were allocated, so without it the marker waits on a cache miss at
 * the first word of nearly every object: most of its time in
 * bench/compute's bintree. */
enum { prefetchDepth = 8 };
bool gcDrainN(gcWork *w, int64_t budget) {
	bool limited = budget >= 0;
	uintptr_t fifo[prefetchDepth];
	uint32_t head = 0, count = 0;
	for (;;) {
		uintptr_t next = workpop(w);
		if (next == 0 && count == 0) {
			flushWorkStats(w);
			return false;
		}
		uintptr_t obj;
		if (next != 0) {
			__builtin_prefetch((const void *)next);
			if (count < prefetchDepth) {
				fifo[(head + count++) % prefetchDepth] = next;
				continue;
			}
			obj = fifo[head];
			fifo[head] = next;
		} else {
			obj = fifo[head];
			count--;
		}
		head = (head + 1) % prefetchDepth;
		uintptr_t scanned = scanobject(obj, w);
		if (limited && (budget -= (int64_t)scanned) < 0) {
			for (uint32_t i = 0; i < count; i++) /* still grey: back on the list */
				workpush(w, fifo[(head + i) % prefetchDepth]);
			flushWorkStats(w);
			return true;
		}
		workbalance(w);
	}
}

/* With the world stopped: drain everything. */
void gcDrain(void) {
	gcWork w;
	gcWorkInit(&w);
	gcDrainN(&w, -1);
	gcWorkDispose(&w);
}

/* ---- roots ---- */

/* Every goroutine's stack: each data frame's pointer slots by its stack
 * map, and the innermost frames word by word (preempt.c). */
static void markstacks(gcWork *w) {
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		if (readgstatus(gp) == Gdead)
			continue;
		gcstats.stackBytes += gcscanstack(gp, markslot, markslot, w);
		gcstats.stacks++;
	}
}

/* The roots a span's finalizer records make (Go's markrootSpans): the
 * func value, and everything the object points to -- but not the
 * object, so that the sweeper can find it unreachable and queue its
 * finalizer while all it needs survives.  An object reachable only from
 * an object being finalized is marked here, so its own finalizer waits
 * for a later cycle: finalizers run in dependency order.  (The type
 * words are greyed too, in case reflect made a type on the heap.)
 * The world is stopped: nobody holds a span's speciallock. */
static void markspanspecials(mspan *s, gcWork *w) {
	for (special *sp = s->specials; sp != NULL; sp = sp->next) {
		if (sp->kind != KindSpecialFinalizer)
			continue; /* a profile mark refers to nothing on the heap */
		uintptr_t obj = s->startAddr + sp->offset / s->elemsize * s->elemsize;
		if (!spanClass_noscan(s->spanclass))
			scanobject(obj, w);
		specialfinalizer *f = (specialfinalizer *)sp;
		greyobject((uintptr_t)f->fn, w);
		greyobject((uintptr_t)f->ft, w);
		greyobject((uintptr_t)f->fint, w);
		greyobject((uintptr_t)f->ot, w);
	}
}

/* Every span with special records, through the arenas' pageSpecials. */
static void markrootSpans(gcWork *w) {
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		for (uint32_t i = 0; i < pagesPerArena / 8; i++) {
			uint8_t bits = ha->pageSpecials[i];
			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctz(bits);
				bits &= (uint8_t)(bits - 1);
				markspanspecials(ha->spans[i * 8 + b], w);
			}
		}
	}
}

/* Grey everything the roots point to (Go's markroot, all jobs at once). */
void gcMarkRoots(gcWork *w) {
	gcMarkRootsNoStacks(w);
	markstacks(w);
}

/* The roots but the goroutines' stacks: the concurrent mark's first pause
 * (the stacks are scanned one at a time afterwards, gcScanStack). */
void gcMarkRootsNoStacks(gcWork *w) {
	gcscanglobals(markslot, w);
	gcscanruntime(markslot, w);
	markrootSpans(w);
}

/* Grey what gp's stack points to, for the concurrent mark of cycle c,
 * and stamp it scanned; then shrink it if it uses little of itself (Go's
 * scanstack: the one moment the collector owns the stack anyway;
 * shrinkstack checks it may).  The caller has gp stopped (claimed by
 * suspendG, or the world stopped); what it finds goes into w. */
void gcScanStack(G *gp, uint32_t c, gcWork *w) {
	__atomic_fetch_add(&gcstats.stackBytes, gcscanstack(gp, markslot, markslot, w), __ATOMIC_RELAXED);
	shrinkstack(gp);
	gp->gcscancycle = c;
	__atomic_fetch_add(&gcstats.stacks, 1, __ATOMIC_RELAXED);
}

/* Mark termination of a concurrent cycle: the roots the runtime writes
 * without a barrier — its own records and the finalizers' — again. */
void gcMarkRootsAgain(gcWork *w) {
	gcscanruntime(markslot, w);
	markrootSpans(w);
}

/* Whether the object at p (an allocated slot's base) is marked: for the
 * tests and the checks. */
bool gcIsMarked(uintptr_t p) {
	mspan *s;
	uint32_t idx;
	if (findObject(p, &s, &idx) == 0)
		return false;
	return s->gcmarkBits[idx / 8] >> (idx % 8) & 1;
}
