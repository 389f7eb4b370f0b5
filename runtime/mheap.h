/*
 * mheap.h — the heap's data structures (Go's mheap.go, mcentral.go,
 * mcache.go, mbitmap.go and mfixalloc.go, by Go's names): the types the
 * allocator's files share, and that the collector will walk.  docs/gc.md,
 * "the heap's structures", tells the whole story; each .c file opens with
 * the essay on its own mechanism:
 *
 *	mem_linux.c   memory from the kernel: reserve, map, return
 *	mfixalloc.c   fixalloc, for the heap's own metadata (over mpersistent.c)
 *	mheap.c       arenas, the address -> span index, the page allocator
 *	mcentral.c    the spans of one span class, shared by all Ps
 *	mcache.c      each P's spans, one per span class, used without a lock
 *	mbitmap.c     alloc bits, mark bits, pointer bits, findObject
 *	mspecial.c    special records on spans: finalizers (mfinal.c), heap
 *	              profile samples (mprof.c)
 *	malloc.c      mallocgc, the fast path and the routes to the slow ones
 *
 * Included by rt.h after its mutex (a P holds its mcache); sizeclasses.h
 * gives the classes.
 */
#ifndef GL_MHEAP_H
#define GL_MHEAP_H

#include <stdbool.h>
#include <stdint.h>

#include "sizeclasses.h"

/* The address space and its division (linux/amd64, Go's values). */
enum {
	heapAddrBits = 48,          /* user addresses are below 1 << 47; 48 as Go */
	logHeapArenaBytes = 26,     /* 64 MiB arenas */
	heapArenaBytes = 1 << logHeapArenaBytes,
	pagesPerArena = heapArenaBytes / pageSize,      /* 8192 */
	heapArenaWords = heapArenaBytes / 8,
	heapArenaBitmapBytes = heapArenaWords / 8,      /* 1 pointer bit per word: 1 MiB */
	arenaL2Bits = heapAddrBits - logHeapArenaBytes, /* a flat index of 4 M entries */
	heapGrowChunk = 4 << 20,    /* the heap maps memory in steps of this (two huge pages) */
	hugePageHeapMin = 16 << 20, /* huge pages for the steps that take the heap past this (mheap_grow) */
	hugePageSize = 2 << 20,     /* and for a step made for an object at least this big */
	numSpanClasses = numSizeClasses * 2,
	maxArenas = 4096,           /* 256 GiB of heap */
	/* an alloc or mark bitmap: one bit per slot, padded to 64-bit words;
	 * the most slots a span has is pageSize / 8 (class 1, one page) */
	gcBitsBytes = pageSize / 8 / 8,
};

/* A span class: size class << 1 | noscan.  Class 0 is a large object (a
 * span of its own); noscan spans hold objects without pointers, which the
 * collector never scans and which get no pointer bits. */
typedef uint8_t spanClass;
static inline spanClass makeSpanClass(uint8_t sizeclass, bool noscan) {
	return (spanClass)(sizeclass << 1 | (noscan ? 1 : 0));
}
static inline uint8_t spanClass_sizeclass(spanClass sc) {
	return sc >> 1;
}
static inline bool spanClass_noscan(spanClass sc) {
	return sc & 1;
}

/* mspan.state */
enum {
	mSpanDead = 0,  /* a struct in fixalloc's free list, describing nothing */
	mSpanInUse = 1, /* heap objects: small-object span or a large object */
	mSpanFree = 2,  /* a run of free pages in mheap.free */
	mSpanScavenging = 3, /* free pages taken out of mheap.free while the
			      * scavenger gives them back to the kernel (the
			      * heap lock is dropped meanwhile): neither
			      * allocated nor merged with its neighbours */
};

typedef struct mSpanList mSpanList;
typedef struct mspan mspan;
typedef struct special special;

/* A run of pages.  In use, it holds nelems slots of elemsize bytes from
 * startAddr (a large object: one slot of npages pages).
 * Invariants:
 *  - slots [0, freeindex) are allocated; a slot i >= freeindex is
 *    allocated iff bit i of allocBits is set (the sweeper will rebuild
 *    allocBits from gcmarkBits and reset freeindex to 0);
 *  - allocCache is the complement of the 64 alloc bits of freeindex's
 *    64-slot window, shifted right by freeindex % 64: bit 0 says whether
 *    slot freeindex is free (1), bits past the window are 0;
 *  - allocCount counts allocated slots; a span in an mcache is used by
 *    that P only (no lock), one in an mcentral list under its lock;
 *  - allocBits and gcmarkBits have (nelems + 63) / 64 * 8 bytes;
 *  - needzero: some slot may hold old data (memory reused, or a noscan
 *    slot the sweeper freed and left as it was), so an allocation that
 *    needs zeroed memory must clear it;
 *  - specials: the span's special records (mspecial.c), sorted by offset
 *    then kind, under speciallock; the sweeper frees a span only once it
 *    has none (a special's object is live, or the sweeper queued its
 *    finalizer, kept the object and dropped the record); the arena's
 *    pageSpecials bit for the span is set iff specials is not NULL;
 *  - sweepgen, against mheap_.sweepgen = sg (Go's states; gl has no
 *    span cached across a cycle's end, so not Go's sg+1 and sg+3):
 *      sg - 2  marked by the last cycle, not swept yet: in an unswept
 *              list of its mcentral;
 *      sg - 1  being swept by the sweeper that claimed it: in no list;
 *      sg      swept: in a swept list, an mcache, or moving between;
 *    written under its mcentral's lock or by its claimant, read with
 *    atomics (mgcsweep.c);
 *  - scavenged: 0 in use; for a free or scavenging run, how many of its
 *    pages have their pageScav bit set (memory given back to the kernel,
 *    mgcscavenge.c), so scavenged == npages says the whole run reads
 *    zero; the sum over all runs is memstats.heap_released / pageSize.
 * The fast path reads the first fields only (one cache line). */
struct mspan {
	uint64_t allocCache;
	uint32_t freeindex;
	uint32_t nelems;
	uintptr_t startAddr;
	uint64_t elemsize;
	uint32_t allocCount;
	uint32_t divMul;     /* class_to_divmagic: slot index = off * divMul >> 32 */
	spanClass spanclass;
	uint8_t state;
	bool needzero;
	uintptr_t npages;
	uintptr_t limit;     /* end of the last slot */
	uint8_t *allocBits;  /* 1 bit per slot, set = allocated (see above) */
	uint8_t *gcmarkBits; /* 1 bit per slot, for the collector's marking */
	/* GLDEBUG=clobberfree=1 only (else NULL): the slots the last sweep
	 * freed, held back from the allocator for one more cycle — their
	 * alloc bits stay set, they count as freed, not as live (mgcsweep.c) */
	uint8_t *quarBits;
	uint8_t *heapBits;   /* the arena bitmap byte of startAddr's word; NULL if the span
			      * crosses an arena boundary (mallocgc's inline bit write) */
	uint32_t sweepgen;   /* the collector's: in sync with mheap.sweepgen */
	mspan *next, *prev;  /* in the list below (mcentral's or mheap.free) */
	mSpanList *list;
	mutex speciallock;   /* guards specials */
	special *specials;   /* finalizers of its objects (see above) */
	uintptr_t scavenged; /* pages released to the kernel (see above) */
};

/* A doubly linked list of spans (Go's mSpanList). */
struct mSpanList {
	mspan *first, *last;
};
void mSpanList_insertBack(mSpanList *l, mspan *s);
void mSpanList_insertAfter(mSpanList *l, mspan *prev, mspan *s); /* prev NULL: at the front */
void mSpanList_remove(mSpanList *l, mspan *s);

/* What the runtime keeps about one heap object outside the object (Go's
 * special): a record linked from the object's span, found by the
 * object's offset from span.startAddr.  The records live in fixalloc
 * memory (mheap_.specialfinalizeralloc, specialprofilealloc), not on the
 * heap; what a finalizer refers to on the heap is a root of the collector
 * (mgcmark.c, markrootSpans).  Two kinds, as Go's: the finalizer, and the
 * heap profile's mark on a sampled object (mprof.c), which refers to no
 * heap object and keeps nothing alive. */
enum { KindSpecialFinalizer = 1, KindSpecialProfile = 2 };
struct special {
	special *next;   /* in span.specials, by offset then kind */
	uint32_t offset; /* of the address SetFinalizer was given: the
			  * object's start, or an inner address it accepts
			  * (a small pointer-free field: Go's tiny objects) */
	uint8_t kind;
};

/* A finalizer set by runtime.SetFinalizer (Go's specialfinalizer).
 * special is first: a special* of this kind is the record. */
typedef struct GlType GlType;
typedef struct specialfinalizer {
	special special;
	GlFunc *fn;         /* the func value to call (a heap closure or static) */
	const GlType *ft;   /* fn's func type: its call code (GlType.call) */
	const GlType *fint; /* the type of fn's parameter */
	const GlType *ot;   /* the object's pointer type, as SetFinalizer got it */
} specialfinalizer;

/* A sampled allocation (Go's specialprofile): when the sweeper frees the
 * object, its bucket's frees are counted (mprof.c).  On the object's
 * start (a tiny block's start).  special is first. */
typedef struct bucket bucket;
typedef struct specialprofile {
	special special;
	bucket *b; /* mprof.c's bucket: persistentalloc memory, never freed */
} specialprofile;

/* Per-P cache of spans: alloc[spc] is the span this P allocates spc's
 * objects from, &emptymspan (full, allocCache 0) when it has none.  Only
 * the M holding the P touches it, so the fast path takes no lock. */
typedef struct mcache {
	mspan *alloc[numSpanClasses];
	/* the tiny allocator (Go's): pointer-free requests under maxTinySize
	 * bytes are packed into the 16-byte block at tiny, whose bytes from
	 * tinyoffset on are free; tiny is 0 when there is none.  The block is
	 * an ordinary object that the collector keeps alive through any of
	 * its pieces; every collection empties the mcaches and forgets it
	 * (releaseAll), since the sweeper may free it.  tinyAllocs counts the
	 * pieces placed in an existing block (a new block counts as a slot),
	 * folded into memstats.tinyallocs by releaseAll. */
	uintptr_t tiny;
	uint64_t tinyoffset;
	uint64_t tinyAllocs;
	/* bytes to allocate before the next heap profile sample (mprof.c):
	 * the fast path subtracts each object's size and samples the
	 * allocation that would take it below zero */
	uint64_t nextSample;
	/* a stop request for the goroutine on this P (allocKick): nextSample
	 * was zeroed to send its next allocation down the slow path, where
	 * it stops (allocPreempt); the slow path draws a new countdown
	 * without taking a sample */
	bool preemptKick;
	/* objects allocated black while the collector marked (mgcmark.c's
	 * gcmarknewobject), and their bytes: added to gcstats' marked counts
	 * by releaseAll */
	uint64_t blackObjects, blackBytes;
} mcache;
enum { maxTinySize = 16 };
/* the span class of tiny blocks: the 16-byte size class, noscan */
#define tinySpanClass makeSpanClass(2, true)
extern mspan emptymspan;

/* The metadata of one 64 MiB arena (Go's heapArena).
 *  - bitmap: bit i is set iff word i of the arena holds a pointer, for
 *    objects in scan spans (written by heapBitsSetType at allocation;
 *    meaningless for noscan spans and free memory);
 *  - spans[i]: the span owning page i: every page of an in-use span, the
 *    first and last page of a free run, NULL for pages never mapped;
 *  - pageInUse: bit i set iff page i is the first page of an in-use span
 *    (the sweeper's list of spans to look at);
 *  - pageSpecials: bit i set iff page i is the first page of an in-use
 *    span with special records (the marker's list of spans whose
 *    finalizers are roots), written under that span's speciallock;
 *  - pageScav: bit i set iff page i belongs to no in-use span and its
 *    memory was given back to the kernel (MADV_DONTNEED) since it was
 *    last in use: it reads zero, though its pointer bits may be stale
 *    (the span's needzero says; Go keeps these "scavenged" bits in its
 *    page allocator's chunks); cleared when the page goes into an in-use
 *    span, under mheap.lock. */
typedef struct heapArena {
	uint8_t bitmap[heapArenaBitmapBytes];
	mspan *spans[pagesPerArena];
	uint8_t pageInUse[pagesPerArena / 8];
	uint8_t pageSpecials[pagesPerArena / 8];
	uint64_t pageScav[pagesPerArena / 64];
	/* a bit per page: the first page of a run on mheap_.free (set and
	 * cleared with the list), and how many such bits are set: how
	 * freeSpanLocked finds where a run goes in the list without walking
	 * it (mheap.c, freeRunBefore) */
	uint64_t freeStart[pagesPerArena / 64];
	uint32_t nfreeStart;
	uintptr_t *shadow; /* GLDEBUG=wbshadow: the arena's shadow, word for word (mwbshadow.c) */
} heapArena;

/* fixalloc (mfixalloc.c): fixed-size records that are never given back
 * to the OS, only to the free list.  Callers hold the lock that guards
 * the allocator (mheap.lock for spanalloc). */
typedef struct fixalloc {
	uint64_t size;
	void *list;        /* freed records, linked through their first word */
	uintptr_t chunk;   /* bump pointer into the current chunk */
	uint64_t nchunk;   /* bytes left in it */
	uint64_t inuse;    /* bytes handed out and not freed */
	uint64_t *stat;    /* where its chunks are counted (memstats) */
} fixalloc;
void fixalloc_init(fixalloc *f, uint64_t size, uint64_t *stat);
void *fixalloc_alloc(fixalloc *f);
void fixalloc_free(fixalloc *f, void *p);

/* The spans of one span class that no mcache holds (Go's mcentral).
 * partial: spans with a free slot; full: spans without, and the spans of
 * large objects (class 0).  Each list twice, as Go 1.19's: the spans swept
 * in this cycle in [sweepgen / 2 % 2], the ones still to sweep in the
 * other; adding 2 to mheap_.sweepgen swaps the roles, which makes every
 * span unswept at once (mgcsweep.c).  Under lock. */
typedef struct mcentral {
	mutex lock;
	spanClass spanclass;
	mSpanList partial[2], full[2];
	uint64_t nmalloc; /* spans handed to mcaches, for debugging */
} mcentral;
static inline mSpanList *partialSwept(mcentral *c, uint32_t sg) {
	return &c->partial[sg / 2 % 2];
}
static inline mSpanList *partialUnswept(mcentral *c, uint32_t sg) {
	return &c->partial[1 - sg / 2 % 2];
}
static inline mSpanList *fullSwept(mcentral *c, uint32_t sg) {
	return &c->full[sg / 2 % 2];
}
static inline mSpanList *fullUnswept(mcentral *c, uint32_t sg) {
	return &c->full[1 - sg / 2 % 2];
}

/* The heap (Go's mheap_). */
typedef struct mheap {
	mutex lock;            /* pages, arenas, spanalloc, gcBits */
	mSpanList free;        /* free page runs, in address order, coalesced */
	heapArena **arenas;    /* arenas[addr >> logHeapArenaBytes], lazily backed */
	uintptr_t arenaHint;   /* where the next arena reservation is tried */
	uintptr_t curArenaBase, curArenaEnd; /* reserved, not yet mapped */
	fixalloc spanalloc;
	fixalloc bitsalloc;    /* alloc and mark bitmaps, gcBitsBytes each */
	mutex speciallock;     /* specialfinalizeralloc, specialprofilealloc */
	fixalloc specialfinalizeralloc; /* specialfinalizer records (mspecial.c) */
	fixalloc specialprofilealloc;   /* specialprofile records (mspecial.c, mprof.c) */
	uint32_t sweepgen;     /* += 2 at each mark termination, world stopped (mgcsweep.c) */
	/* the base of every arena, in the order they were reserved: the
	 * sweeper walks their pageInUse bits (Go's allArenas) */
	uint32_t nallArenas;
	uintptr_t allArenas[maxArenas];
	struct {
		mcentral mcentral;
		uint8_t pad[64 - sizeof(mcentral) % 64];
	} central[numSpanClasses] __attribute__((aligned(64)));
} mheap;
extern mheap mheap_;

/* The heapArena of p's arena, NULL outside the heap's arenas. */
static inline heapArena *arenaOf(uintptr_t p) {
	if (p >> heapAddrBits != 0 || mheap_.arenas == NULL)
		return NULL;
	return __atomic_load_n(&mheap_.arenas[p >> logHeapArenaBytes], __ATOMIC_ACQUIRE);
}

/* mheap.c */
void mheap_init(void);
mspan *mheap_alloc(uintptr_t npages, spanClass spc);       /* locks; NULL never (throws) */
void mheap_freeSpan(mspan *s);                              /* locks */
static inline uintptr_t pageIndex(uintptr_t p) {
	return (p >> pageShift) & (pagesPerArena - 1);
}

/* The span p's page belongs to, any state, or NULL. */
static inline mspan *spanOf(uintptr_t p) {
	heapArena *ha = arenaOf(p);
	return ha != NULL ? ha->spans[pageIndex(p)] : NULL;
}

/* The in-use span containing p, or NULL. */
static inline mspan *spanOfHeap(uintptr_t p) {
	mspan *s = spanOf(p);
	if (s == NULL || s->state != mSpanInUse || p < s->startAddr || p - s->startAddr >= s->npages * pageSize)
		return NULL;
	return s;
}
/* Give free pages back to the kernel (mgcscavenge.c says when): at
 * least nbytes if there are that many, the highest addresses first and
 * whole huge pages first; returns the bytes newly released.  Takes
 * mheap.lock, and drops it around each madvise.  On g0 or sysmon. */
uint64_t mheap_scavenge(uint64_t nbytes);
uint64_t countScav(uintptr_t base, uintptr_t npages); /* pageScav bits set in the range */

/* mgcscavenge.c: the scavenger's policy */
void gcPaceScavenger(uint64_t inuse); /* end of a cycle, world stopped: the goal */
int64_t bgscavenge(int64_t now);    /* sysmon: a paced step; when to call again */
void scavengeAll(void);             /* everything free, now (debug.FreeOSMemory) */
void scavengeAssist(uint64_t growth); /* mheap_alloc's, lock dropped */
void printScavTrace(uint64_t released, bool forced); /* GLDEBUG=scavtrace=1 */
uint64_t heapRetained(void);        /* HeapSys - HeapReleased */

/* mspecial.c: special records; the caller is on g0 */
bool addfinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot);
void removefinalizer(uintptr_t p);
void setprofilebucket(uintptr_t p, bucket *b); /* mprof.c's: p was sampled */
void freeSpecial(special *s, mspan *span); /* the sweeper's: queue a finalizer or count a free; free the record */
void spanClearSpecials(mspan *s);          /* the sweeper's: s.specials became NULL */

/* mprof.c: the heap profile */
void profilealloc(mcache *c, uintptr_t x, uint64_t size); /* on g0: sample x, draw c.nextSample */
uint64_t nextSample(void);   /* bytes to the next sample, at MemProfileRate */
void mProf_Free(bucket *b, uint64_t size); /* the sweeper's */
void mProf_NextCycle(void);  /* mark termination, world stopped */
void mProf_Flush(void);      /* after mProf_NextCycle */
void mProf_PostSweep(void);  /* the sweep is complete */
/* runtime.MemProfileRate: stdlib/runtime's variable when the program
 * links package runtime, else a weak definition in mprof.c */
extern int64_t runtime_MemProfileRate;

/* mcentral.c */
void mcentral_init(mcentral *c, spanClass spc);
mspan *mcentral_cacheSpan(mcentral *c);
void mcentral_uncacheSpan(mcentral *c, mspan *s);
void mcentral_addLarge(mspan *s); /* a new large object's span: into its full list */

/* mgcsweep.c: the sweeper, all on g0 */
bool sweepBegin(void);          /* register as a sweeper; false if nothing is left to sweep */
void sweepEnd(void);            /* done sweeping (after sweepBegin returned true) */
mspan *sweepClaim(mcentral *c, mSpanList *unswept); /* an unswept span of the list, claimed, or NULL */
bool mspan_sweep(mspan *s, bool preserve); /* sweep a claimed span; false if it was freed */
uintptr_t sweepone(void);       /* one span: pages freed, UINTPTR_MAX if none was left */
void ensureSwept(mspan *s);     /* before touching s's specials */
void deductSweepCredit(uint64_t spanBytes); /* the allocator's share of the sweep */
void sweepReclaim(uintptr_t npages); /* sweep large objects' spans for npages free pages */
bool isSweepDone(void);
uint64_t sweepPendingBytes(void); /* bytes of spans not swept yet */

/* mcache.c */
void mcache_init(mcache *c);
void mcache_refill(mcache *c, spanClass spc);
uintptr_t mcache_nextFree(mcache *c, spanClass spc);
void mcache_releaseAll(mcache *c);
void mcache_unusedByClass(mcache *c, uint64_t n[numSizeClasses]); /* cached, not yet allocated, per size class */

/* mbitmap.c */
uint8_t *newAllocBits(uint32_t nelems); /* zero bits, under mheap.lock */
void freeAllocBits(uint8_t *b);         /* under mheap.lock */
void refillAllocCache(mspan *s, uint32_t whichBit);
uint32_t nextFreeIndex(mspan *s);
bool mspan_isFree(mspan *s, uint32_t index);
uintptr_t findObject(uintptr_t p, mspan **sp, uint32_t *objIndex);
bool heapBitsIsPointer(uintptr_t addr);

/* Set the mark bit idx of s; false if it was set already (by anyone: the
 * drainers, the barriers and the allocator set bits of one byte at once,
 * hence the atomic or). */
static inline __attribute__((always_inline)) bool setmarked(mspan *s, uint32_t idx) {
	uint8_t *b = &s->gcmarkBits[idx / 8], m = (uint8_t)(1 << (idx % 8));
	if (__atomic_load_n(b, __ATOMIC_RELAXED) & m)
		return false;
	return !(__atomic_fetch_or(b, m, __ATOMIC_RELAXED) & m);
}
void heapBitsClear(uintptr_t x, uint64_t n);
uintptr_t heapBitsSetType(uintptr_t x, const mspan *s, uint64_t dataSize, const GlType *typ);

/* The fast path's free-slot lookup (Go's nextFreeFast): the lowest set bit
 * of allocCache is the next free slot, if it is in this 64-slot window and
 * below nelems; 0 otherwise (the caller takes the slow path, which moves
 * to the next window or to another span). */
static inline __attribute__((always_inline)) uintptr_t nextFreeFast(mspan *s) {
	uint64_t cache = s->allocCache;
	if (cache == 0)
		return 0;
	uint32_t bit = (uint32_t)__builtin_ctzll(cache);
	uint32_t result = s->freeindex + bit;
	if (result >= s->nelems)
		return 0;
	uint32_t freeidx = result + 1;
	if (freeidx % 64 == 0 && freeidx != s->nelems)
		return 0; /* the window is used up: nextFreeIndex loads the next */
	s->allocCache = cache >> bit >> 1;
	s->freeindex = freeidx;
	s->allocCount++;
	return s->startAddr + (uintptr_t)result * s->elemsize;
}

#endif
