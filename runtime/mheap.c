/*
 * mheap.c — the page heap (Go's mheap.go): arenas, the index from an
 * address to its span, and the page allocator that hands out runs of 8 KiB
 * pages as spans.
 *
 * Arenas.  The heap lives in 64 MiB arenas (heapArenaBytes), reserved
 * whole, aligned to their size, from 0xc000000000 upwards when the kernel
 * agrees (Go's arena hints: heap addresses are easy to recognise in a
 * crash, and consecutive reservations are contiguous, so page runs can
 * grow across arena boundaries).  An arena's memory is mapped as the heap
 * grows into it, heapGrowChunk (4 MiB, two huge pages) at a time, and only
 * that counts in HeapSys.  Each arena has a heapArena record beside it,
 * outside the heap: the owner of each page (spans[]), the pointer bitmap
 * and the pageInUse bits.  mheap_.arenas is a flat index of every possible
 * arena of the 48-bit address space (4 M entries, 32 MiB of address space
 * that the kernel backs only where it is written): arenaOf(p) is a shift
 * and a load, spanOf(p) two loads more.  Go calls this the L2 index; with
 * 48-bit addresses on amd64 its L1 has a single entry, so it is left out.
 *
 * Spans and pages.  Every mapped page belongs to exactly one span: an
 * in-use span (small objects of one span class, or one large object) or a
 * free run.  In-use spans have every page's spans[] entry pointing at them,
 * so findObject works from any interior pointer; free runs only their first
 * and last pages, which is all coalescing needs: the page before a run
 * being freed is the last page of its left neighbour, the page after it the
 * first page of its right one.  A stale entry inside a free run is never
 * looked at (spanOfHeap checks the state and the range).
 *
 * The page allocator.  Free runs are mspans in state mSpanFree on
 * mheap_.free, in address order, always coalesced with their free
 * neighbours.  Allocation is first fit: the lowest run that is big enough
 * gives its first pages (so the heap fills from low addresses and fresh
 * spans come in address order), the rest stays in place.  When no run is
 * big enough the heap grows: the next part of the current arena is mapped
 * and freed into the list, where it merges with the free run ending at the
 * old frontier.  Go 1.19 replaced its list of free spans (a treap until
 * 1.13) with a radix tree of bitmaps over all pages (pageAlloc).  Here
 * every piece is cut or merged by two functions, takeFreeRange and
 * freeSpanLocked, and the list keeps a bitmap beside it, a bit per page
 * that starts a run (heapArena.freeStart), so a run freed anywhere finds
 * its place in the list without walking it: a heap whose live objects are
 * scattered has thousands of free runs (a table of 100 MB of blocks
 * replaced at random: 61% of the program's time went to that walk).  First
 * fit still walks from the bottom, which the small spans most allocations
 * ask for end at once.
 *
 * needzero: fresh memory is zero; a freed run is marked needzero, and the
 * spans cut from it carry the mark, so mallocgc clears reused slots (and
 * their pointer bits) before handing them out.
 *
 * Released pages (Go's "scavenged" pages).  A free page whose memory was
 * given back to the kernel (MADV_DONTNEED: still mapped, zero on the next
 * touch) has its bit set in its arena's pageScav bitmap, and every free
 * run counts its released pages (mspan.scavenged), so HeapReleased is the
 * sum and "all of this piece is released" is one comparison.  Coalescing
 * adds the counts (and ORs needzero); cutting a piece out of a run counts
 * the bits of the smaller side only and derives the other, so allocating
 * from the bottom of a big, partly released run costs the pages taken, not
 * the run.  An allocation clears the bits of its pages and takes them out
 * of HeapReleased; if all of them were released the memory reads zero and
 * needs no clearing — but the scavenger leaves pointer bits as they were
 * (clearing them would fault in the bitmap pages of noscan memory, which
 * cost more than the madvise), so a scan span clears its pages' bits then
 * (unscavenge).  A piece only partly released keeps the run's needzero:
 * clearing it touches the released pages, which the span will touch
 * anyway.
 *
 * mheap_scavenge releases pages: it takes a piece out of the free list
 * under the lock (state mSpanScavenging: its neighbours do not merge with
 * it, nobody allocates it), drops the lock for the madvise, and frees the
 * piece back, all released, under the lock again — so allocation on other
 * Ps waits for the list, never for the kernel.  Which pieces: whole huge
 * pages (2 MiB, aligned, inside one free run) before anything else, since
 * releasing part of one splits it (slower to use again, and khugepaged
 * may collapse it back, memory and all); the highest addresses first,
 * since first fit allocates from the bottom and needs the top last.  The
 * policy — when, and how much — is mgcscavenge.c's.
 *
 * Everything here runs on g0 (systemstack) or on sysmon (the background
 * scavenger) under mheap_.lock, but spanOf/spanOfHeap/arenaOf, which read
 * only published records, and mheap_scavenge's madvise.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <sys/mman.h>

mheap mheap_;

/* The index has an entry for every arena of the 48-bit address space. */
enum { arenaIndexBytes = (1ULL << arenaL2Bits) * sizeof(heapArena *) };

_Static_assert(sizeof(((heapArena *)0)->bitmap) * 8 * 8 == heapArenaBytes, "one bit per word");

/* ---- span lists ---- */

void mSpanList_insertAfter(mSpanList *l, mspan *prev, mspan *s) {
	mspan *next = prev != NULL ? prev->next : l->first;
	s->prev = prev;
	s->next = next;
	if (prev != NULL)
		prev->next = s;
	else
		l->first = s;
	if (next != NULL)
		next->prev = s;
	else
		l->last = s;
	s->list = l;
}

void mSpanList_insertBack(mSpanList *l, mspan *s) {
	mSpanList_insertAfter(l, l->last, s);
}

void mSpanList_remove(mSpanList *l, mspan *s) {
	if (s->list != l)
		gl_throw("mSpanList.remove: span not in list");
	if (s->prev != NULL)
		s->prev->next = s->next;
	else
		l->first = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	else
		l->last = s->prev;
	s->next = s->prev = NULL;
	s->list = NULL;
}

/* ---- the index ---- */

/* spanOf and spanOfHeap are inline in mheap.h: the marker calls them
 * for every pointer it follows. */

/* spans[] of pages [base, base + npages*pageSize) := s. */
static void setSpans(uintptr_t base, uintptr_t npages, mspan *s) {
	for (uintptr_t i = 0; i < npages; i++) {
		uintptr_t p = base + i * pageSize;
		arenaOf(p)->spans[pageIndex(p)] = s;
	}
}

/* A free run's boundary pages := s. */
static void setFreeSpanEnds(mspan *s) {
	arenaOf(s->startAddr)->spans[pageIndex(s->startAddr)] = s;
	uintptr_t last = s->startAddr + (s->npages - 1) * pageSize;
	arenaOf(last)->spans[pageIndex(last)] = s;
}

static void setPageInUse(mspan *s, bool inuse) {
	heapArena *ha = arenaOf(s->startAddr);
	uintptr_t i = pageIndex(s->startAddr);
	if (inuse)
		ha->pageInUse[i / 8] |= (uint8_t)(1 << (i % 8));
	else
		ha->pageInUse[i / 8] &= (uint8_t)~(1 << (i % 8));
}

/* ---- arenas ---- */

/* Reserve n bytes (a multiple of heapArenaBytes) aligned to an arena, at
 * the hint if possible, and create their heapArena records. */
static uintptr_t reserveArenas(uint64_t n) {
	uintptr_t a = (uintptr_t)sysReserve((void *)mheap_.arenaHint, n);
	if (a != 0 && (a != mheap_.arenaHint || (a + n) >> (heapAddrBits - 1) != 0)) {
		sys_munmap((void *)a, n);
		a = 0;
	}
	if (a == 0) { /* anywhere: reserve an arena more and trim to alignment */
		uintptr_t p = (uintptr_t)sysReserve(NULL, n + heapArenaBytes);
		if (p == 0)
			sysOutOfMemory(n + heapArenaBytes, "the heap's address space (mmap failed)");
		a = (p + heapArenaBytes - 1) & ~(uintptr_t)(heapArenaBytes - 1);
		if (a > p)
			sys_munmap((void *)p, a - p);
		if (p + heapArenaBytes > a)
			sys_munmap((void *)(a + n), p + heapArenaBytes - a); /* [a+n, p+n+A) */
	} else
		mheap_.arenaHint = a + n;
	for (uintptr_t q = a; q < a + n; q += heapArenaBytes) {
		if (mheap_.nallArenas == maxArenas)
			gl_throw("out of memory: too many arenas");
		heapArena *ha = sysAlloc(sizeof(heapArena), &memstats.gc_sys);
		wbshadowArena(ha);
		mheap_.allArenas[mheap_.nallArenas++] = q;
		__atomic_store_n(&mheap_.arenas[q >> logHeapArenaBytes], ha, __ATOMIC_RELEASE);
	}
	return a;
}

/* ---- the page allocator ---- */

/* mheap_.free's own insert and remove: each keeps the run's bit in its
 * arena's freeStart, so the runs' starts are also a bitmap. */
static void freeStartBit(uintptr_t start, bool set) {
	heapArena *ha = arenaOf(start);
	uintptr_t i = pageIndex(start);
	if (set)
		ha->freeStart[i / 64] |= (uint64_t)1 << (i % 64), ha->nfreeStart++;
	else
		ha->freeStart[i / 64] &= ~((uint64_t)1 << (i % 64)), ha->nfreeStart--;
}

static void freeListInsertAfter(mspan *prev, mspan *s) {
	mSpanList_insertAfter(&mheap_.free, prev, s);
	freeStartBit(s->startAddr, true);
}

static void freeListRemove(mspan *s) {
	mSpanList_remove(&mheap_.free, s);
	freeStartBit(s->startAddr, false);
}

/* The highest start bit of ha's below page index lim (lim = pagesPerArena
 * for all of it), as an address; 0 if none. */
static uintptr_t highestStartBelow(uintptr_t base, heapArena *ha, uintptr_t lim) {
	for (uintptr_t w = (lim + 63) / 64; w-- > 0;) {
		uint64_t bits = ha->freeStart[w];
		if (w == lim / 64)
			bits &= ((uint64_t)1 << (lim % 64)) - 1; /* pages from lim up are not below */
		if (bits != 0)
			return base + (w * 64 + 63 - (uintptr_t)__builtin_clzll(bits)) * pageSize;
	}
	return 0;
}

/* The free run on mheap_.free with the highest start below addr, or NULL:
 * the run a run starting at addr follows in the list.  The bitmap of addr's
 * arena is searched down from addr, then the highest arena below it that
 * has a run start: at most 128 words an arena, however many runs the list
 * holds (a walk of the list took time in proportion to them, and a
 * fragmented heap makes thousands). */
static mspan *freeRunBefore(uintptr_t addr) {
	uintptr_t base = addr & ~(uintptr_t)(heapArenaBytes - 1);
	heapArena *ha = arenaOf(base);
	uintptr_t p = ha->nfreeStart != 0 ? highestStartBelow(base, ha, pageIndex(addr)) : 0;
	while (p == 0) {
		uintptr_t below = 0; /* the highest arena under base with a run start */
		for (uint32_t i = 0; i < mheap_.nallArenas; i++) {
			uintptr_t a = mheap_.allArenas[i];
			if (a < base && a > below && arenaOf(a)->nfreeStart != 0)
				below = a;
		}
		if (below == 0)
			return NULL;
		base = below;
		p = highestStartBelow(base, arenaOf(base), pagesPerArena);
	}
	return spanOf(p);
}

/* ---- scavenged bits ---- */

enum { scavCount, scavSet, scavClear };

/* The pageScav bits of [base, base + npages*pageSize): counted, set or
 * cleared, a 64-page word at a time; returns how many were set before. */
static uint64_t scavBits(uintptr_t base, uintptr_t npages, int op) {
	uint64_t n = 0;
	while (npages > 0) {
		heapArena *ha = arenaOf(base);
		uintptr_t i = pageIndex(base), end = i + npages;
		if (end > pagesPerArena)
			end = pagesPerArena;
		for (uintptr_t j = i; j < end;) {
			uintptr_t b = j % 64, k = end - j < 64 - b ? end - j : 64 - b;
			uint64_t mask = (k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1) << b;
			uint64_t *w = &ha->pageScav[j / 64];
			n += (uint64_t)__builtin_popcountll(*w & mask);
			if (op == scavSet)
				*w |= mask;
			else if (op == scavClear)
				*w &= ~mask;
			j += k;
		}
		base += (end - i) * pageSize;
		npages -= end - i;
	}
	return n;
}

uint64_t countScav(uintptr_t base, uintptr_t npages) {
	return scavBits(base, npages, scavCount);
}

static bool pageScavenged(uintptr_t p) {
	uintptr_t i = pageIndex(p);
	return arenaOf(p)->pageScav[i / 64] >> (i % 64) & 1;
}

/* ---- the page allocator ---- */

/* Put the run s into mheap_.free, merged with free neighbours: the
 * merged run holds both runs' scavenged pages and needs zeroing if
 * either did. */
static void freeSpanLocked(mspan *s) {
	s->state = mSpanFree;
	mspan *b = s->startAddr != 0 ? spanOf(s->startAddr - 1) : NULL;
	if (b != NULL && b->state == mSpanFree && b->startAddr + b->npages * pageSize == s->startAddr) {
		freeListRemove(b);
		s->startAddr = b->startAddr;
		s->npages += b->npages;
		s->scavenged += b->scavenged;
		s->needzero |= b->needzero;
		b->state = mSpanDead;
		fixalloc_free(&mheap_.spanalloc, b);
	}
	uintptr_t end = s->startAddr + s->npages * pageSize;
	mspan *a = spanOf(end);
	if (a != NULL && a->state == mSpanFree && a->startAddr == end) {
		freeListRemove(a);
		s->npages += a->npages;
		s->scavenged += a->scavenged;
		s->needzero |= a->needzero;
		a->state = mSpanDead;
		fixalloc_free(&mheap_.spanalloc, a);
	}
	setFreeSpanEnds(s);
	freeListInsertAfter(freeRunBefore(s->startAddr), s);
}

/* A new free run [base, base + npages*pageSize) after f in the list, with
 * scav of its pages scavenged. */
static mspan *newFreeRun(mspan *after, uintptr_t base, uintptr_t npages, uintptr_t scav, bool needzero) {
	mspan *r = fixalloc_alloc(&mheap_.spanalloc);
	r->startAddr = base;
	r->npages = npages;
	r->scavenged = scav;
	r->needzero = needzero;
	r->state = mSpanFree;
	freeListInsertAfter(after, r);
	setFreeSpanEnds(r);
	return r;
}

/* Take the pages [base, base + npages*pageSize) of the free run f out of
 * mheap_.free as a span of their own (startAddr, npages, needzero and
 * scavenged set, boundary pages pointing at it, state for the caller to
 * set); what is left of f on either side stays free, in place.  The
 * scavenged pages are counted in the smaller pieces only: an allocation
 * from the bottom of a big run counts its own pages, not the rest. */
static mspan *takeFreeRange(mspan *f, uintptr_t base, uintptr_t npages) {
	uintptr_t end = base + npages * pageSize, fend = f->startAddr + f->npages * pageSize;
	uintptr_t nleft = (base - f->startAddr) / pageSize, nright = (fend - end) / pageSize;
	uintptr_t sleft = 0, sright = 0, st = 0;
	if (f->scavenged == f->npages) { /* all of it: no counting */
		sleft = nleft, sright = nright, st = npages;
	} else if (f->scavenged != 0) {
		st = countScav(base, npages);
		if (nleft == 0)
			sright = f->scavenged - st;
		else if (nright == 0)
			sleft = f->scavenged - st;
		else if (nleft < nright)
			sleft = countScav(f->startAddr, nleft), sright = f->scavenged - st - sleft;
		else
			sright = countScav(end, nright), sleft = f->scavenged - st - sright;
	}
	if (nright > 0)
		newFreeRun(f, end, nright, sright, f->needzero);
	mspan *t = f;
	if (nleft > 0) { /* f stays, as the left piece */
		f->npages = nleft;
		f->scavenged = sleft;
		setFreeSpanEnds(f);
		t = fixalloc_alloc(&mheap_.spanalloc);
		t->needzero = f->needzero;
	} else
		freeListRemove(f);
	t->startAddr = base;
	t->npages = npages;
	t->scavenged = st;
	setFreeSpanEnds(t);
	return t;
}

/* Map at least npages more pages into the heap, as a free run. */
static void mheap_grow(uintptr_t npages) {
	uint64_t ask = (npages * pageSize + heapGrowChunk - 1) & ~(uint64_t)(heapGrowChunk - 1);
	if (mheap_.curArenaEnd - mheap_.curArenaBase < ask) {
		uint64_t n = (ask + heapArenaBytes - 1) & ~(uint64_t)(heapArenaBytes - 1);
		uintptr_t a = reserveArenas(n);
		if (a == mheap_.curArenaEnd && a != 0) {
			mheap_.curArenaEnd += n; /* contiguous: the frontier runs on */
		} else {
			/* the rest of the old reservation stays reserved, unused */
			mheap_.curArenaBase = a;
			mheap_.curArenaEnd = a + n;
		}
	}
	uintptr_t base = mheap_.curArenaBase;
	mheap_.curArenaBase += ask;
	/* huge pages once the heap is big enough to fill them: below that,
	 * touching one word of a small heap's span makes 2 MiB resident (a
	 * program that keeps 3 MB live sat at 11 MB of RSS, Go's at 7) —
	 * or when the heap grows for an object of a huge page or more, which
	 * fills its pages itself (a map's bucket array: bench/compute's
	 * mapint faulted 4,646 times, 768 on the bump allocator before) */
	bool huge = __atomic_load_n(&memstats.heap_sys, __ATOMIC_RELAXED) + ask > hugePageHeapMin ||
		    npages * pageSize >= hugePageSize;
	sysMap((void *)base, ask, &memstats.heap_sys);
	if (huge)
		sysHugePage((void *)base, ask);
	mspan *s = fixalloc_alloc(&mheap_.spanalloc);
	s->startAddr = base;
	s->npages = ask / pageSize;
	s->needzero = false; /* fresh from the kernel */
	/* and not yet touched, so not resident: it counts as released (as in
	 * Go), until allocated, and the scavenger has nothing to give back */
	s->scavenged = s->npages;
	scavBits(base, s->npages, scavSet);
	__atomic_fetch_add(&memstats.heap_released, ask, __ATOMIC_RELAXED);
	freeSpanLocked(s);
}

/* npages pages from the free runs, first fit; the span is not initialised
 * but for startAddr, npages, needzero and scavenged. */
static mspan *allocPagesLocked(uintptr_t npages) {
	for (;;) {
		for (mspan *f = mheap_.free.first; f != NULL; f = f->next)
			if (f->npages >= npages)
				return takeFreeRange(f, f->startAddr, npages);
		mheap_grow(npages);
	}
}

/* Clear the pointer bits of npages pages from base (whole bitmap bytes:
 * a page is 1024 words, 128 bytes of bits). */
static void clearPageBits(uintptr_t base, uintptr_t npages) {
	for (uintptr_t p = base; p < base + npages * pageSize; p += pageSize)
		memset(&arenaOf(p)->bitmap[(p & (heapArenaBytes - 1)) >> 6], 0, pageSize / 64);
}

/* Make s an in-use span of class spc (Go's initSpan). */
static void initSpan(mspan *s, spanClass spc) {
	uint8_t sc = spanClass_sizeclass(spc);
	s->state = mSpanInUse;
	s->spanclass = spc;
	if (sc == 0) {
		s->elemsize = s->npages * pageSize;
		s->nelems = 1;
		s->divMul = 0;
	} else {
		s->elemsize = class_to_size[sc];
		s->nelems = class_to_nobjs[sc];
		s->divMul = class_to_divmagic[sc];
	}
	s->freeindex = 0;
	s->allocCache = ~(uint64_t)0; /* all free; bits past nelems are never used */
	s->allocCount = 0;
	s->limit = s->startAddr + s->nelems * s->elemsize;
	s->allocBits = newAllocBits(s->nelems);
	s->gcmarkBits = newAllocBits(s->nelems);
	s->quarBits = gl_debug.clobberfree ? newAllocBits(s->nelems) : NULL;
	s->sweepgen = mheap_.sweepgen;
	uintptr_t last = s->startAddr + s->npages * pageSize - 1;
	s->heapBits = NULL;
	if (((s->startAddr ^ last) >> logHeapArenaBytes) == 0)
		s->heapBits = &arenaOf(s->startAddr)->bitmap[(s->startAddr & (heapArenaBytes - 1)) >> 6];
	s->next = s->prev = NULL;
	s->list = NULL;
	s->specials = NULL;
	s->speciallock = MUTEX(lockRankSpanSpecial);
}

/* The pages of s, about to be a span of class spc, are in use again:
 * released ones come back on first touch, zero (Go's sysUsed has nothing
 * more to do on Linux while no page is marked MADV_NOHUGEPAGE).  If all
 * were released there is no memory to clear, only their pointer bits,
 * which the scavenger left (and only for a scan span: a noscan span's
 * bits are never read, and clearing them would fault in bitmap pages
 * for nothing). */
static void unscavenge(mspan *s, spanClass spc) {
	scavBits(s->startAddr, s->npages, scavClear);
	__atomic_fetch_sub(&memstats.heap_released, s->scavenged * pageSize, __ATOMIC_RELAXED);
	if (s->scavenged == s->npages && s->needzero) {
		s->needzero = false;
		if (!spanClass_noscan(spc))
			clearPageBits(s->startAddr, s->npages);
	}
	s->scavenged = 0;
}

/* A new in-use span of npages pages for span class spc.  On g0. */
mspan *mheap_alloc(uintptr_t npages, spanClass spc) {
	lock(&mheap_.lock);
	uint64_t sys0 = memstats.heap_sys;
	mspan *s = allocPagesLocked(npages);
	uint64_t growth = memstats.heap_sys - sys0, reused = s->scavenged * pageSize;
	if (s->scavenged != 0)
		unscavenge(s, spc);
	if (s->needzero && spanClass_sizeclass(spc) != 0 && !spanClass_noscan(spc)) {
		/* reused pages of a small-object scan span: cleared once here,
		 * so that mallocgc's fast path for pointerful objects never
		 * meets needzero (a noscan span keeps it, and mallocgc clears
		 * a slot when asked, inline; a large object is cleared by
		 * mallocgc, only as far as asked) */
		memset((void *)s->startAddr, 0, npages * pageSize);
		s->needzero = false;
		clearPageBits(s->startAddr, npages);
	}
	initSpan(s, spc);
	setSpans(s->startAddr, npages, s); /* published: findObject may see it */
	setPageInUse(s, true);
	__atomic_fetch_add(&memstats.heap_inuse, npages * pageSize, __ATOMIC_RELAXED);
	unlock(&mheap_.lock);
	if (growth != 0 || reused != 0)
		scavengeAssist(growth);
	return s;
}

/* Give the pages of an in-use span back to the heap (the sweeper's).
 * On g0. */
void mheap_freeSpan(mspan *s) {
	lock(&mheap_.lock);
	if (s->state != mSpanInUse)
		gl_throw("mheap.freeSpan: span not in use");
	if (s->specials != NULL)
		gl_throw("mheap.freeSpan: span has special records");
	setPageInUse(s, false);
	__atomic_fetch_sub(&memstats.heap_inuse, s->npages * pageSize, __ATOMIC_RELAXED);
	s->needzero = true;
	freeAllocBits(s->allocBits);
	freeAllocBits(s->gcmarkBits);
	if (s->quarBits != NULL)
		freeAllocBits(s->quarBits);
	s->allocBits = s->gcmarkBits = s->quarBits = NULL;
	freeSpanLocked(s);
	unlock(&mheap_.lock);
}

/* ---- giving pages back (the scavenger's mechanism; mgcscavenge.c has
 * the policy) ---- */

/* The huge page the kernel backs the heap with (x86-64's PMD size). */
enum { physHugePageSize = 2 << 20, hugePagePages = physHugePageSize / pageSize };

/* In the free run f, the highest huge-page-aligned huge page that lies
 * wholly inside f and has a page not yet released; 0 if none. */
static uintptr_t hugeCandidate(mspan *f) {
	uintptr_t lo = f->startAddr, w = (lo + f->npages * pageSize) & ~(uintptr_t)(physHugePageSize - 1);
	while (w >= lo + physHugePageSize) { /* [w - 2 MiB, w) lies in f */
		w -= physHugePageSize;
		if (countScav(w, hugePagePages) < hugePagePages)
			return w;
	}
	return 0;
}

/* In the free run f (not wholly released), the highest run of
 * unreleased pages, at most max of them (its top ones). */
static uintptr_t pageCandidate(mspan *f, uintptr_t max, uintptr_t *npages) {
	uintptr_t p = f->startAddr + (f->npages - 1) * pageSize;
	while (pageScavenged(p))
		p -= pageSize;
	uintptr_t n = 1;
	while (n < max && p > f->startAddr && !pageScavenged(p - pageSize))
		p -= pageSize, n++;
	*npages = n;
	return p;
}

/* The next pages to release, taken out of mheap_.free (state
 * mSpanScavenging), or NULL if every free page is released already.
 * Whole huge pages first: releasing one leaves no huge page split (a
 * split one is slower to use again, and khugepaged may collapse it and
 * take the memory back in), and the highest first: the allocator is
 * first fit from the bottom, so the top is what it needs last.  Then
 * smaller pieces, at most maxpages, highest first. */
static mspan *scavengeCandidateLocked(uintptr_t maxpages) {
	for (mspan *f = mheap_.free.last; f != NULL; f = f->prev) {
		uintptr_t w;
		if (f->scavenged != f->npages && (w = hugeCandidate(f)) != 0)
			return takeFreeRange(f, w, hugePagePages);
	}
	for (mspan *f = mheap_.free.last; f != NULL; f = f->prev) {
		if (f->scavenged == f->npages)
			continue;
		uintptr_t n, p = pageCandidate(f, maxpages, &n);
		return takeFreeRange(f, p, n);
	}
	return NULL;
}

uint64_t mheap_scavenge(uint64_t nbytes) {
	uint64_t released = 0;
	while (released < nbytes) {
		uint64_t want = (nbytes - released + pageSize - 1) / pageSize;
		lock(&mheap_.lock);
		mspan *t = scavengeCandidateLocked(want > UINTPTR_MAX / pageSize ? UINTPTR_MAX / pageSize : (uintptr_t)want);
		if (t != NULL)
			t->state = mSpanScavenging;
		unlock(&mheap_.lock);
		if (t == NULL)
			break;
		/* without the lock: the pages are no one's but ours.  Their
		 * pointer bits stay as they are (mheap_alloc clears them if a
		 * scan span gets the pages): clearing them here would fault in
		 * the bitmap of pages that never held pointers, and cost more
		 * than the madvise (bench: 150 us a huge page) */
		sysUnused((void *)t->startAddr, t->npages * pageSize);
		lock(&mheap_.lock);
		uintptr_t fresh = t->npages - t->scavenged;
		scavBits(t->startAddr, t->npages, scavSet);
		t->scavenged = t->npages;
		/* needzero stays: the memory reads zero now, but the pointer
		 * bits may not be (see unscavenge) */
		__atomic_fetch_add(&memstats.heap_released, fresh * pageSize, __ATOMIC_RELAXED);
		freeSpanLocked(t);
		unlock(&mheap_.lock);
		released += fresh * pageSize;
	}
	return released;
}

void mheap_init(void) {
	lockInit(&mheap_.lock, lockRankMheap);
	lockInit(&mheap_.speciallock, lockRankMheapSpecial);
	fixalloc_init(&mheap_.spanalloc, sizeof(mspan), &memstats.mspan_sys);
	fixalloc_init(&mheap_.bitsalloc, gcBitsBytes, &memstats.gc_sys); /* Go's gcBits arenas: GCSys */
	fixalloc_init(&mheap_.specialfinalizeralloc, sizeof(specialfinalizer), &memstats.other_sys);
	fixalloc_init(&mheap_.specialprofilealloc, sizeof(specialprofile), &memstats.other_sys);
	/* the index: address space only, backed page by page as arenas appear */
	mheap_.arenas = sys_mmap(NULL, arenaIndexBytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	if (mheap_.arenas == NULL)
		gl_throw("runtime: cannot allocate the arena index");
	mheap_.arenaHint = (uintptr_t)0xc0 << 32;
	for (int i = 0; i < numSpanClasses; i++)
		mcentral_init(&mheap_.central[i].mcentral, (spanClass)i);
}
