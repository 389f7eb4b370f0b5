/*
 * mgcsweep.c — sweeping (Go's mgcsweep.go): a span at a time, lazily,
 * while the program runs.
 *
 * After marking, a span's mark bits say which of its slots are live.
 * Sweeping a span makes them its alloc bits: the mark bitmap becomes the
 * alloc bitmap (the old alloc bitmap, cleared, is the next cycle's mark
 * bitmap), freeindex goes back to 0 and the allocator finds the freed
 * slots through the bits (mheap.h: a slot at or past freeindex is free
 * iff its alloc bit is clear).  A scan span's freed slots are cleared at
 * once — memory and pointer bits — so that mallocgc's fast path, which
 * writes pointer bits by OR and hands out memory as zero, meets no old
 * data (its needzero stays false).  A noscan span's are not: it is marked
 * needzero, and mallocgc clears a slot only when its caller asks for
 * zeroed memory (Go's way for every span) — a string, or a slice append
 * fills, is written over anyway.  With GLDEBUG=clobberfree=1 freed slots are
 * filled with 0xdb instead and the span is marked needzero, so that a
 * pointer the marker missed reads poison, not a plausible object — and
 * for one more cycle, not a new object put in the same place: the slots
 * a sweep frees are held back (span.quarBits; their alloc bits stay set,
 * a large object's span stays in use) and given to the allocator by the
 * next sweep.  They count as freed when first swept.  A span
 * with nothing live goes back to the page heap; a large object's span
 * when its one object is unmarked.  The others go to their mcentral's
 * swept lists.
 *
 * When.  Mark termination only starts the sweep (gcSweep, world stopped):
 * it adds 2 to mheap_.sweepgen, and every span is unswept at once — the
 * mcentrals' swept and unswept lists trade places (mheap.h), and every
 * in-use span is in one of them, since the mcaches were emptied just
 * before.  The spans are swept afterwards, with the world running, by
 *   - the background sweeper, bgsweep, a goroutine of the runtime that
 *     sweeps ten spans at a time and yields between;
 *   - the allocator: an mcentral out of swept spans with a free slot
 *     sweeps its own unswept ones before it takes fresh pages (mcentral.c);
 *     a large allocation sweeps large objects first, for the pages it
 *     needs (sweepReclaim); and every span or large object the allocator
 *     takes pays its share of the sweep first (deductSweepCredit, Go's
 *     proportional sweep), so that the sweep is done before the heap
 *     reaches the next cycle's trigger, even if bgsweep never runs;
 *   - whoever is about to touch a span's special records (ensureSwept).
 * A sweeper claims a span by taking it out of its unswept list under the
 * mcentral's lock (sweepgen becomes sg - 1), sweeps it with no lock held
 * and puts it in a swept list, or frees it: each span is swept once.
 * The next cycle's first pause sweeps what is left (finishsweep_m):
 * marking needs every mark bitmap clear.  runtime.GC sweeps everything
 * before it returns, as Go's does; GLDEBUG=gcstoptheworld=2 sweeps in the
 * pause (Go's meaning of 2).
 *
 * The end.  The sweep is done when no span is left to claim and no
 * sweeper is at one: sweepers register in sweep.active (Go's activeSweep:
 * their count and a "drained" bit in one word), the first to find the
 * lists empty sets the bit, and the last to leave after that finishes
 * the cycle's sweep — the heap profile's frees are published
 * (mProf_PostSweep) and isSweepDone becomes true.
 */
#include "rt.h"

/* Clear n bits of the bitmap b from bit off on. */
static void clearbits(uint8_t *b, uintptr_t off, uintptr_t n) {
	b += off / 8;
	off %= 8;
	if (off != 0) {
		uintptr_t k = 8 - off < n ? 8 - off : n;
		*b++ &= (uint8_t) ~(((1u << k) - 1) << off);
		n -= k;
	}
	if (n >= 8) {
		memset(b, 0, n / 8);
		b += n / 8;
		n %= 8;
	}
	if (n != 0)
		*b &= (uint8_t) ~((1u << n) - 1);
}

/* Slots i to i+n-1 of s were freed, a run of them: clear a scan span's
 * slots and their pointer bits (or poison them), so that the allocator's
 * fast path may hand them out as they are and OR a new object's bits in
 * (malloc.c); a noscan span's are left as they are, the span marked
 * needzero.  A run at a time, not a slot: in bench/compute's bintree,
 * where nearly every 16-byte node dies young, the sweep's clearing was
 * 9% of the run's cycles slot by slot. */
static void freeslots(mspan *s, uint32_t i, uint32_t n) {
	uintptr_t x = s->startAddr + (uintptr_t)i * s->elemsize, len = (uintptr_t)n * s->elemsize;
	bool noscan = spanClass_noscan(s->spanclass);
	if (gl_debug.clobberfree) {
		memset((void *)x, 0xdb, len);
		s->needzero = true;
	} else if (noscan)
		s->needzero = true;
	else
		memset((void *)x, 0, len);
	if (noscan)
		return;
	wbshadowFree(x, len);
	if (s->heapBits != NULL) /* startAddr's word is bit 0 of that byte: spans are page-aligned */
		clearbits(s->heapBits, (x - s->startAddr) / 8, len / 8);
	else
		heapBitsClear(x, len);
}

static inline bool bit(const uint8_t *b, uint32_t i) {
	return b[i / 8] >> (i % 8) & 1;
}

/* Sweep a small-object span: free its unmarked slots, swap its bitmaps.
 * Returns the number of live slots.  A 64-slot word of bits at a time:
 * the slots allocated and unmarked are alloc & ~mark, where a slot below
 * freeindex counts as allocated whatever its alloc bit says (mheap.h). */
static uint32_t sweepsmall(mspan *s) {
	uint32_t live = 0, freed = 0;
	for (uint32_t base = 0; base < s->nelems; base += 64) {
		uint64_t alloc, mark, held = 0;
		memcpy(&alloc, s->allocBits + base / 8, 8);
		memcpy(&mark, s->gcmarkBits + base / 8, 8);
		if (s->quarBits != NULL) /* freed by the last sweep: free now, not again */
			memcpy(&held, s->quarBits + base / 8, 8);
		if (s->freeindex > base)
			alloc |= s->freeindex - base >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (s->freeindex - base)) - 1;
		if (s->nelems - base < 64)
			alloc &= ((uint64_t)1 << (s->nelems - base)) - 1;
		uint64_t dead = alloc & ~mark & ~held;
		for (uint64_t d = dead; d != 0;) { /* each run of dead slots */
			uint32_t i = (uint32_t)__builtin_ctzll(d);
			uint64_t rest = ~(d >> i); /* 0 only if all 64 are dead */
			uint32_t n = rest == 0 ? 64 : (uint32_t)__builtin_ctzll(rest);
			freeslots(s, base + i, n);
			freed += n;
			d = n == 64 ? 0 : d & ~((((uint64_t)1 << n) - 1) << i);
		}
		if (s->quarBits != NULL) { /* this sweep's dead wait a cycle, allocated */
			memcpy(s->quarBits + base / 8, &dead, 8);
			mark |= dead;
			memcpy(s->gcmarkBits + base / 8, &mark, 8);
		}
		live += (uint32_t)__builtin_popcountll(mark);
	}
	if (freed != 0) {
		__atomic_fetch_add(&gcstats.freedObjects, freed, __ATOMIC_RELAXED);
		__atomic_fetch_add(&gcstats.freedBytes, (uint64_t)freed * s->elemsize, __ATOMIC_RELAXED);
		__atomic_fetch_add(&memstats.nfree[spanClass_sizeclass(s->spanclass)], freed, __ATOMIC_RELAXED);
	}
	uint8_t *old = s->allocBits;
	s->allocBits = s->gcmarkBits;
	s->gcmarkBits = old;
	memset(old, 0, gcBitsBytes);
	s->freeindex = 0;
	s->allocCount = live; /* held slots too: not the allocator's yet */
	refillAllocCache(s, 0);
	return live;
}

/* The slot index of a special record of s. */
static inline uint32_t specialidx(const special *sp, const mspan *s) {
	return sp->offset / (uint32_t)s->elemsize;
}

/* The special records of the objects the marker left white.  An object
 * with a finalizer is kept one more cycle: mark it now (what it points to
 * was marked from markrootSpans, so the heap stays closed under marking),
 * drop the finalizer records and queue them, and keep its profile mark
 * (it is not freed yet).  Once the finalizer has run and nothing refers
 * to the object any more, a later cycle frees it like any other.  An
 * object without one is freed: its profile mark counts the free (Go's
 * sweep does both).  Several records may name one slot (inner addresses
 * of small pointer-free values, where the tiny allocator packs several
 * objects in one slot): the slot's mark bit is read once for all of them,
 * before it is set.  No lock: only the sweeper that claimed s touches
 * its records (addspecial and removespecial sweep the span first). */
static void sweepspecials(mspan *s) {
	special **link = &s->specials;
	while (*link != NULL) {
		uint32_t idx = specialidx(*link, s);
		if (bit(s->gcmarkBits, idx)) {
			while (*link != NULL && specialidx(*link, s) == idx)
				link = &(*link)->next;
			continue;
		}
		bool hasFin = false;
		for (special *sp = *link; sp != NULL && specialidx(sp, s) == idx; sp = sp->next)
			hasFin |= sp->kind == KindSpecialFinalizer;
		while (*link != NULL && specialidx(*link, s) == idx) {
			special *sp = *link;
			if (sp->kind == KindSpecialProfile && hasFin) {
				link = &sp->next;
				continue;
			}
			*link = sp->next;
			freeSpecial(sp, s);
		}
		if (hasFin)
			s->gcmarkBits[idx / 8] |= (uint8_t)(1 << (idx % 8));
	}
	if (s->specials == NULL)
		spanClearSpecials(s);
}

/* ---- who sweeps, and when it is done ---- */

enum { sweepDrained = 1u << 31 };

static struct {
	uint32_t active;       /* sweepers at work | sweepDrained (atomic) */
	bool done;             /* this cycle's sweep is complete (atomic) */
	uint32_t centralIndex; /* the class sweepone looks at first (atomic) */
	/* the proportional sweep (Go's sweepPagesPerByte): the allocator owes
	 * pagesPerByte32 / 2^32 pages of sweeping for every byte heap_live
	 * grows past heapLiveBasis; pagesSwept counts the pages swept this
	 * cycle (atomic) out of pagesInUse, the in-use pages at its start */
	uint64_t pagesPerByte32;
	uint64_t heapLiveBasis;
	uint64_t pagesSwept;
	uint64_t pagesInUse;
	/* the background sweeper: parked while the sweep is done */
	mutex lock;
	G *g;
	bool parked;
	bool more; /* bgsweep's: spans may be left */
} sweep = {.active = sweepDrained, .done = true, .lock = MUTEX(lockRankSweep)};

bool isSweepDone(void) {
	return __atomic_load_n(&sweep.done, __ATOMIC_ACQUIRE);
}

/* Bytes of the spans not swept yet: the heap in use that may be garbage
 * this cycle already found (mgcpacer.c's memory limit does not count
 * them). */
uint64_t sweepPendingBytes(void) {
	if (isSweepDone())
		return 0;
	uint64_t swept = __atomic_load_n(&sweep.pagesSwept, __ATOMIC_RELAXED);
	return swept < sweep.pagesInUse ? (sweep.pagesInUse - swept) * pageSize : 0;
}

bool sweepBegin(void) {
	uint32_t a = __atomic_load_n(&sweep.active, __ATOMIC_RELAXED);
	do
		if (a & sweepDrained)
			return false;
	while (!__atomic_compare_exchange_n(&sweep.active, &a, a + 1, true, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return true;
}

/* The sweep is complete: publish the heap profile's frees of the
 * cycle, stop charging the allocator.  Once per cycle, by the last
 * sweeper. */
static void sweepFinished(void) {
	mProf_PostSweep();
	__atomic_store_n(&sweep.pagesPerByte32, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sweep.done, true, __ATOMIC_RELEASE);
}

void sweepEnd(void) {
	if (__atomic_sub_fetch(&sweep.active, 1, __ATOMIC_ACQ_REL) == sweepDrained)
		sweepFinished();
}

/* No span is left to claim (the caller is a registered sweeper). */
static void sweepMarkDrained(void) {
	__atomic_fetch_or(&sweep.active, sweepDrained, __ATOMIC_ACQ_REL);
}

/* ---- sweeping a span ---- */

/* Take the first span of c's unswept list l, claimed (sg - 1), or NULL.
 * The caller is a registered sweeper. */
mspan *sweepClaim(mcentral *c, mSpanList *l) {
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	lock(&c->lock);
	mspan *s = l->first;
	if (s != NULL) {
		mSpanList_remove(l, s);
		__atomic_store_n(&s->sweepgen, sg - 1, __ATOMIC_RELAXED);
	}
	unlock(&c->lock);
	return s;
}

/* A large object (unmarked) counted as freed. */
static void countLargeFree(mspan *s) {
	__atomic_fetch_add(&gcstats.freedObjects, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&gcstats.freedBytes, s->elemsize, __ATOMIC_RELAXED);
	__atomic_fetch_add(&memstats.nlargefree, 1, __ATOMIC_RELAXED);
	/* as heap_large counted it */
	__atomic_fetch_add(&memstats.largefreed, s->npages * pageSize, __ATOMIC_RELAXED);
}

/* Free a large object's span (its object is unmarked). */
static void freeLarge(mspan *s) {
	countLargeFree(s);
	if (gl_debug.clobberfree)
		memset((void *)s->startAddr, 0xdb, s->limit - s->startAddr);
	if (!spanClass_noscan(s->spanclass))
		wbshadowFree(s->startAddr, s->limit - s->startAddr);
	mheap_freeSpan(s);
}

/* clobberfree: the object freed and poisoned, its span kept until the
 * next sweep, so that no allocation reuses its pages meanwhile; its
 * pointer bits cleared, so that a dangling pointer that marks it finds
 * nothing to follow (freeslots). */
static void holdLarge(mspan *s) {
	countLargeFree(s);
	freeslots(s, 0, 1);
}

/* Sweep s, which the caller claimed (Go's sweepLocked.sweep); false if it
 * was freed.  A span that keeps objects is swept (sg) and, unless
 * preserve, put in its swept list; with preserve the caller keeps it,
 * even empty. */
bool mspan_sweep(mspan *s, bool preserve) {
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	if (s->state != mSpanInUse || s->sweepgen != sg - 1)
		gl_throw("mspan.sweep: bad span state");
	__atomic_fetch_add(&sweep.pagesSwept, s->npages, __ATOMIC_RELAXED);
	__atomic_fetch_add(&gcstats.spans, 1, __ATOMIC_RELAXED);
	if (s->specials != NULL)
		sweepspecials(s);
	if (spanClass_sizeclass(s->spanclass) == 0) {
		if (!bit(s->gcmarkBits, 0) && s->quarBits != NULL && !bit(s->quarBits, 0)) {
			holdLarge(s); /* clobberfree: freed, its pages held a cycle */
			s->quarBits[0] = 1;
		} else if (!bit(s->gcmarkBits, 0)) {
			if (s->quarBits != NULL && bit(s->quarBits, 0))
				mheap_freeSpan(s); /* counted as freed by the last sweep */
			else
				freeLarge(s);
			return false;
		} else if (s->quarBits != NULL)
			s->quarBits[0] = 0; /* marked again (through a dangling pointer): live */
		s->gcmarkBits[0] = 0;
	} else if (sweepsmall(s) == 0 && !preserve) {
		mheap_freeSpan(s);
		return false;
	}
	__atomic_store_n(&s->sweepgen, sg, __ATOMIC_RELEASE);
	if (!preserve) {
		mcentral *c = &mheap_.central[s->spanclass].mcentral;
		lock(&c->lock);
		mSpanList_insertBack(s->allocCount == s->nelems ? fullSwept(c, sg) : partialSwept(c, sg), s);
		unlock(&c->lock);
	}
	return true;
}

/* The next span to sweep, claimed: the classes in turn from
 * centralIndex, full spans first (they are the likeliest to stay
 * unswept otherwise: the allocator sweeps partial ones for itself). */
static mspan *nextSpanForSweep(void) {
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	for (uint32_t i = __atomic_load_n(&sweep.centralIndex, __ATOMIC_RELAXED); i < numSpanClasses; i++) {
		mcentral *c = &mheap_.central[i].mcentral;
		mspan *s = sweepClaim(c, fullUnswept(c, sg));
		if (s == NULL)
			s = sweepClaim(c, partialUnswept(c, sg));
		if (s != NULL)
			return s;
		uint32_t was = i;
		__atomic_compare_exchange_n(&sweep.centralIndex, &was, i + 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	return NULL;
}

uintptr_t sweepone(void) {
	if (!sweepBegin())
		return UINTPTR_MAX;
	uintptr_t freed = UINTPTR_MAX;
	mspan *s = nextSpanForSweep();
	if (s != NULL) {
		uintptr_t npages = s->npages;
		freed = mspan_sweep(s, false) ? 0 : npages;
	} else
		sweepMarkDrained();
	sweepEnd();
	return freed;
}

/* Make sure s is swept (Go's ensureSwept): claim and sweep it if nobody
 * has, or wait for whoever has.  s holds an object the caller reaches, so
 * it is not freed. */
void ensureSwept(mspan *s) {
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->sweepgen, __ATOMIC_ACQUIRE) == sg)
		return;
	if (sweepBegin()) {
		mcentral *c = &mheap_.central[s->spanclass].mcentral;
		lock(&c->lock);
		bool mine = s->sweepgen == sg - 2;
		if (mine) {
			mSpanList_remove(s->list, s);
			__atomic_store_n(&s->sweepgen, sg - 1, __ATOMIC_RELAXED);
		}
		unlock(&c->lock);
		if (mine)
			mspan_sweep(s, false);
		sweepEnd();
	}
	while (__atomic_load_n(&s->sweepgen, __ATOMIC_ACQUIRE) != sg)
		osyield();
}

/* ---- the allocator's part ---- */

/* Before the allocator takes spanBytes of new heap: sweep until the pages
 * swept this cycle keep pace with the heap's growth since it began (Go's
 * deductSweepCredit). */
void deductSweepCredit(uint64_t spanBytes) {
	uint64_t ppb = __atomic_load_n(&sweep.pagesPerByte32, __ATOMIC_RELAXED);
	if (ppb == 0)
		return;
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	uint64_t grown = spanBytes + (live > sweep.heapLiveBasis ? live - sweep.heapLiveBasis : 0);
	uint64_t target = (uint64_t)(((unsigned __int128)ppb * grown) >> 32);
	G *gp = getm()->curg;
	while (__atomic_load_n(&sweep.pagesSwept, __ATOMIC_RELAXED) < target) {
		if (sweepone() == UINTPTR_MAX)
			break;
		/* A goroutine asked to stop stops (the allocation's way out
		 * honours the request) and pays the rest at its next span:
		 * with the heap near the trigger the debt can be the whole
		 * heap, 10 ms of sweeping at 100 MB (bench/gc's pause). */
		if (gp != NULL && __atomic_load_n(&gp->preempt, __ATOMIC_RELAXED))
			break;
	}
}

/* Before a large allocation of npages: sweep the spans of large objects
 * until as many pages were freed, so that the garbage of the last cycle
 * is reused before the heap grows (Go's mheap.reclaim, which looks at
 * every span; large objects are where whole pages come back at once). */
void sweepReclaim(uintptr_t npages) {
	if (isSweepDone() || !sweepBegin())
		return;
	uint32_t sg = __atomic_load_n(&mheap_.sweepgen, __ATOMIC_ACQUIRE);
	uintptr_t freed = 0;
	for (spanClass spc = 0; spc < 2 && freed < npages; spc++) {
		mcentral *c = &mheap_.central[spc].mcentral;
		mspan *s;
		while (freed < npages && (s = sweepClaim(c, fullUnswept(c, sg))) != NULL) {
			uintptr_t n = s->npages;
			if (!mspan_sweep(s, false))
				freed += n;
		}
	}
	sweepEnd();
}

/* ---- the cycle's sweep ---- */

/* Mark termination, the world stopped, every mcache empty: start the
 * sweep of what this cycle marked.  The last cycle's sweep is done
 * (finishsweep_m ran before its mark began). */
void gcSweep(void) {
	if (!isSweepDone())
		gl_throw("gcSweep: the last sweep is not done");
	__atomic_store_n(&mheap_.sweepgen, mheap_.sweepgen + 2, __ATOMIC_RELEASE);
	sweep.centralIndex = 0;
	sweep.pagesSwept = 0;
	sweep.pagesInUse = __atomic_load_n(&memstats.heap_inuse, __ATOMIC_RELAXED) / pageSize;
	sweep.pagesPerByte32 = 0;
	__atomic_store_n(&sweep.done, false, __ATOMIC_RELAXED);
	__atomic_store_n(&sweep.active, 0, __ATOMIC_RELEASE);
	if (gl_debug.gcstoptheworld == 2)
		finishsweep_m();
}

/* Once the pacer has set the next trigger (world still stopped): pace
 * the sweep so that it ends before the heap reaches the trigger, with a
 * megabyte to spare (Go's gcPaceSweeper). */
void gcPaceSweeper(uint64_t trigger) {
	if (isSweepDone())
		return;
	uint64_t live = __atomic_load_n(&memstats.heap_live, __ATOMIC_RELAXED);
	uint64_t distance = trigger > live + (1 << 20) + pageSize ? trigger - live - (1 << 20) : pageSize;
	uint64_t pages = sweep.pagesInUse - sweep.pagesSwept;
	sweep.heapLiveBasis = live;
	__atomic_store_n(&sweep.pagesPerByte32, (uint64_t)(((unsigned __int128)pages << 32) / distance),
			 __ATOMIC_RELAXED);
}

/* Sweep everything not swept yet, and wait for the sweepers still at a
 * span (Go's finishsweep_m).  On g0: with the world stopped at a cycle's
 * start, or from runtime.GC. */
void finishsweep_m(void) {
	while (sweepone() != UINTPTR_MAX)
		;
	while (!isSweepDone())
		osyield();
}

/* ---- the background sweeper (Go's bgsweep) ---- */

/* Ten spans, on g0; sweep.more says whether any is left.  (bgsweep
 * keeps no address into its own stack across gosched, which may move it:
 * DESIGN.md S4.) */
static void bgsweepBatch_m(void *arg) {
	(void)arg;
	for (int i = 0; i < 10; i++)
		if (sweepone() == UINTPTR_MAX) {
			sweep.more = false;
			return;
		}
	sweep.more = true;
}

static bool parksweeper_unlock(G *gp, void *arg) {
	(void)gp;
	unlock(arg);
	return true;
}

static void bgsweep(G *g, void *arg) {
	(void)g;
	(void)arg;
	for (;;) {
		lock(&sweep.lock);
		if (isSweepDone()) {
			sweep.parked = true;
			gopark(parksweeper_unlock, &sweep.lock, waitReasonGCSweepWait);
			continue;
		}
		unlock(&sweep.lock);
		do {
			systemstack(bgsweepBatch_m, NULL);
			if (sweep.more)
				gosched();
		} while (sweep.more);
		wakefing(); /* the sweep may have queued finalizers */
	}
}

/* After the pause that started a sweep, the world running again (on
 * g0): wake the background sweeper, or start it — after the first
 * cycle, whether or not that cycle left anything to sweep (Go starts
 * its sweeper at start-up, gcenable): made only when a later cycle
 * needed it, its stack appeared in whichever runtime.GC that was
 * (testdata/stackstats.py's StackInuse, 2 KiB off in one CI run). */
void bgsweepStart_m(void) {
	if (isSweepDone() && __atomic_load_n(&sweep.g, __ATOMIC_ACQUIRE) != NULL)
		return;
	G *gp = NULL;
	lock(&sweep.lock);
	if (sweep.g == NULL) {
		__atomic_add_fetch(&sched.ngsys, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&sweep.g, newproc(bgsweep, NULL, "runtime.bgsweep"), __ATOMIC_RELEASE);
	} else if (sweep.parked && !isSweepDone()) {
		sweep.parked = false;
		gp = sweep.g;
	}
	unlock(&sweep.lock);
	if (gp != NULL)
		goready(gp);
}

bool isBgSweeper(const G *gp) {
	return gp != NULL && gp == __atomic_load_n(&sweep.g, __ATOMIC_ACQUIRE);
}
