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
 * The work list is a stack of object addresses in memory from the OS
 * (sysAlloc), grown by doubling; it is never on the heap it describes.
 */
#include "rt.h"

/* ---- the work lists (Go's gcWork) ----
 *
 * work: the drainer's list — whoever drains holds drainlock: the thread
 * that stopped the world, or the background worker.  wbwork: the grey
 * objects the mutators' write barriers found (gcShadeBuf), under
 * wbworklock; the drainer takes them over when its own list runs dry. */
typedef struct gcWork {
	uintptr_t *stack;
	uint64_t n, cap;
	/* what this list's owner marked and scanned, not yet added to
	 * gcstats: counted under the list's lock and added once per drain or
	 * buffer, since one shared counter written for every object by the
	 * worker and every barrier was a cache line the Ps fought over */
	uint64_t markedObjects, markedBytes, scannedBytes;
} gcWork;

static gcWork work, wbwork;
static mutex drainlock = MUTEX(lockRankDrain), wbworklock = MUTEX(lockRankWbwork);

static GL_NOINLINE void workgrow(gcWork *w) {
	uint64_t ncap = w->cap == 0 ? 4096 : w->cap * 2;
	uintptr_t *ns = sysAlloc(ncap * sizeof(uintptr_t), &memstats.gc_sys);
	if (w->n != 0)
		memcpy(ns, w->stack, w->n * sizeof(uintptr_t));
	if (w->stack != NULL)
		sysFree(w->stack, w->cap * sizeof(uintptr_t), &memstats.gc_sys);
	w->stack = ns;
	w->cap = ncap;
}

static inline void workpush(gcWork *w, uintptr_t obj) {
	if (GL_UNLIKELY(w->n == w->cap))
		workgrow(w);
	w->stack[w->n++] = obj;
}

/* Move the barriers' grey objects to the drainer's list; false if there
 * were none. */
static bool takewbwork(void) {
	lock(&wbworklock);
	uint64_t n = wbwork.n;
	for (uint64_t i = 0; i < n; i++)
		workpush(&work, wbwork.stack[i]);
	wbwork.n = 0;
	unlock(&wbworklock);
	return n != 0;
}

/* ---- greying ---- */

gcstats_t gcstats;

/* Shade the object p points into, if any: set its mark bit, and put it on
 * the work list unless it has no pointers (noscan: it is black at once).
 * p may be any word: findObject rejects what is not inside an allocated
 * slot (Go's greyobject, reached through findObject as its shade). */
/* Set the mark bit idx of s; false if it was set already (by anyone). */
static inline bool setmarked(mspan *s, uint32_t idx) {
	uint8_t *b = &s->gcmarkBits[idx / 8], m = (uint8_t)(1 << (idx % 8));
	if (__atomic_load_n(b, __ATOMIC_RELAXED) & m)
		return false;
	return !(__atomic_fetch_or(b, m, __ATOMIC_RELAXED) & m);
}

/* Add w's counts to gcstats (the caller holds w's lock, or the world is
 * stopped). */
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
static inline void greyheapword(uintptr_t p, uintptr_t obj, uintptr_t slot) {
	mspan *s;
	uint32_t idx;
	if (p < 4096)
		return;
	uintptr_t o = findObject(p, &s, &idx);
	if (o != 0)
		greyfound(o, s, idx, &work);
	else if (GL_UNLIKELY(gl_debug.invalidptr) && badheappointer(p, &s))
		badPointer(p, s, obj, slot);
}

/* Set while marking runs with the mutators: the write barrier shades,
 * and new objects are allocated black. */
bool gcBlackenEnabled;

/* Go's shade, for a write barrier's buffer of n pointers (mbarrier.c's
 * wbBufFlush): grey each, onto wbwork.  On the system stack. */
void gcShadeBuf(const uintptr_t *p, uint64_t n) {
	if (!__atomic_load_n(&gcBlackenEnabled, __ATOMIC_ACQUIRE))
		return;
	lock(&wbworklock);
	for (uint64_t i = 0; i < n; i++)
		greyobject(p[i], &wbwork);
	flushWorkStats(&wbwork);
	unlock(&wbworklock);
}

void gcShade(uintptr_t p) {
	gcShadeBuf(&p, 1);
}

/* Go's gcmarknewobject: x, just allocated from s while marking, is
 * black: marked, and never scanned (what is stored into it is shaded by
 * the barrier, or was reachable anyway).  Counted in c, the allocating
 * P's mcache (or the no-P cache, under its lock), until releaseAll adds
 * it to gcstats; and charged to the allocating goroutine's assist
 * credit.  On g0. */
void gcmarknewobject(mcache *c, mspan *s, uintptr_t x) {
	uint32_t idx = s->nelems == 1 ? 0 : (uint32_t)((x - s->startAddr) / s->elemsize);
	if (setmarked(s, idx)) {
		c->blackObjects++;
		c->blackBytes += s->elemsize;
	}
	M *mp = getm();
	if (mp->curg != NULL && mp->p != NULL) /* its debt: paid at the slow path's end (gcAssistAlloc) */
		mp->curg->gcAssistBytes -= (int64_t)s->elemsize;
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
 * allocations).  If the worker holds the work list (drainlock) and has
 * no credit to give, the goroutine parks on the assist queue, as Go's,
 * until the worker's scan work pays its debt (gcFlushBgCredit) or the
 * mark ends: an allocator in debt must not hold a P and wait, or the
 * program's other goroutines (a ticker) wait behind it; nor go on
 * allocating, or it outruns the collector.  Not with a runtime lock held (the worker,
 * holding drainlock, may need one to move a stack), nor in the worker
 * itself.  When nothing is grey the debt is forgiven: the mark is about
 * to end. */
enum {
	gcOverAssistWork = 64 << 10, /* the least an assist scans (Go's) */
	gcMaxAssistWork = 1 << 20,   /* the most, in one go */
	assistChunk = 64 << 10,      /* scanned between looks at a stop-the-world */
};

static int64_t bgScanCredit; /* scan work the worker did that no assist took (atomic) */

/* Go's assist queue: goroutines in debt that found neither credit nor a
 * free work list, parked (waitReasonGCAssistWait) until the worker's scan
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
 * credit for the next assists to take.  On g0, with drainlock held. */
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

/* Scan about want bytes of grey objects for an assist, if the work list
 * is free: what was scanned, 0 if nothing is grey, -1 if the list is
 * busy or the assist had to stop before it scanned anything (the world
 * is stopping, or gp is asked to stop) — not "nothing grey", which
 * forgives the debt. */
static int64_t assistDrain(int64_t want) {
	if (!trylock(&drainlock))
		return -1;
	int64_t done = 0;
	bool empty = false;
	G *gp = getm()->curg; /* the assisting goroutine: it stops for a preemption request */
	while (done < want && gcMarking() && !__atomic_load_n(&sched.gcwaiting, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&gp->preempt, __ATOMIC_ACQUIRE)) {
		uint64_t s0 = __atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED);
		bool more = gcDrainN(assistChunk);
		done += (int64_t)(__atomic_load_n(&gcstats.scannedBytes, __ATOMIC_RELAXED) - s0);
		if (!more) {
			empty = true;
			break;
		}
	}
	unlock(&drainlock);
	return done > 0 || empty ? done : -1;
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

/* Mark termination, the world stopped: the drainer's counts (the
 * mcaches' come with mcache_flushAll). */
void gcFlushMarkStats(void) {
	flushWorkStats(&work);
	flushWorkStats(&wbwork);
}

/* The root callback: slot holds a pointer (precisely, or conservatively:
 * the same test serves both). */
static void markslot(uintptr_t *slot, void *arg) {
	(void)arg;
	greyobject(*slot, &work);
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
static uintptr_t scanobject(uintptr_t b) {
	mspan *s = spanOfHeap(b);
	uintptr_t base = b, limit = b + s->elemsize, end = limit;
	if (spanClass_sizeclass(s->spanclass) == 0) {
		base = s->startAddr;
		limit = s->limit;
		end = limit;
		if (limit - base > maxObletBytes) {
			if (b == base)
				for (uintptr_t o = base + maxObletBytes; o < limit; o += maxObletBytes)
					workpush(&work, o);
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
			greyheapword(p, base, a);
		if (((a + 8) & (heapArenaBytes - 1)) == 0)
			ha = arenaOf(a + 8); /* a large object may cross into the next arena */
	}
	work.scannedBytes += end - b;
	return end - b;
}

/* Blacken until nothing is grey (Go's gcDrain), or until budget bytes
 * were scanned (budget < 0: no limit).  True if grey objects are left.
 * The caller holds drainlock (gcDrainLock): one drainer at a time.
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
bool gcDrainN(int64_t budget) {
	bool limited = budget >= 0;
	uintptr_t fifo[prefetchDepth];
	uint32_t head = 0, count = 0;
	for (;;) {
		while (work.n > 0 || count > 0) {
			uintptr_t obj;
			if (work.n > 0) {
				uintptr_t next = work.stack[--work.n];
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
			uintptr_t scanned = scanobject(obj);
			if (limited && (budget -= (int64_t)scanned) < 0) {
				for (uint32_t i = 0; i < count; i++) /* still grey: back on the list */
					workpush(&work, fifo[(head + i) % prefetchDepth]);
				flushWorkStats(&work);
				return true;
			}
		}
		if (!takewbwork()) {
			flushWorkStats(&work);
			return false;
		}
	}
}

void gcDrainLock(void) { lock(&drainlock); }
void gcDrainUnlock(void) { unlock(&drainlock); }

/* With the world stopped: drain everything. */
void gcDrain(void) {
	gcDrainLock();
	gcDrainN(-1);
	gcDrainUnlock();
}

/* ---- roots ---- */

/* Every goroutine's stack: each data frame's pointer slots by its stack
 * map, and the innermost frames word by word (preempt.c). */
static void markstacks(void) {
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		if (readgstatus(gp) == Gdead)
			continue;
		gcstats.stackBytes += gcscanstack(gp, markslot, markslot, NULL);
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
static void markspanspecials(mspan *s) {
	for (special *sp = s->specials; sp != NULL; sp = sp->next) {
		if (sp->kind != KindSpecialFinalizer)
			continue; /* a profile mark refers to nothing on the heap */
		uintptr_t obj = s->startAddr + sp->offset / s->elemsize * s->elemsize;
		if (!spanClass_noscan(s->spanclass))
			scanobject(obj);
		specialfinalizer *f = (specialfinalizer *)sp;
		greyobject((uintptr_t)f->fn, &work);
		greyobject((uintptr_t)f->ft, &work);
		greyobject((uintptr_t)f->fint, &work);
		greyobject((uintptr_t)f->ot, &work);
	}
}

/* Every span with special records, through the arenas' pageSpecials. */
static void markrootSpans(void) {
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		for (uint32_t i = 0; i < pagesPerArena / 8; i++) {
			uint8_t bits = ha->pageSpecials[i];
			while (bits != 0) {
				uint32_t b = (uint32_t)__builtin_ctz(bits);
				bits &= (uint8_t)(bits - 1);
				markspanspecials(ha->spans[i * 8 + b]);
			}
		}
	}
}

/* Grey everything the roots point to (Go's markroot, all jobs at once). */
void gcMarkRoots(void) {
	gcMarkRootsNoStacks();
	markstacks();
}

/* The roots but the goroutines' stacks: the concurrent mark's first pause
 * (the stacks are scanned one at a time afterwards, gcScanStack). */
void gcMarkRootsNoStacks(void) {
	gcscanglobals(markslot, NULL);
	gcscanruntime(markslot, NULL);
	markrootSpans();
}

/* Grey what gp's stack points to, for the concurrent mark of cycle c,
 * and stamp it scanned; then shrink it if it uses little of itself (Go's
 * scanstack: the one moment the collector owns the stack anyway;
 * shrinkstack checks it may).  The caller holds drainlock and has gp
 * stopped (claimed by suspendG, or the world stopped). */
void gcScanStack(G *gp, uint32_t c) {
	__atomic_fetch_add(&gcstats.stackBytes, gcscanstack(gp, markslot, markslot, NULL), __ATOMIC_RELAXED);
	shrinkstack(gp);
	gp->gcscancycle = c;
	__atomic_fetch_add(&gcstats.stacks, 1, __ATOMIC_RELAXED);
}

/* Mark termination of a concurrent cycle: the roots the runtime writes
 * without a barrier — its own records and the finalizers' — again. */
void gcMarkRootsAgain(void) {
	gcscanruntime(markslot, NULL);
	markrootSpans();
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
