/*
 * heap_test.c — tests of the heap (mheap.h): size classes, span classes,
 * spanOf/findObject, pointer bits, large objects, reuse of freed pages
 * (needzero), statistics, released pages (the scavenger's accounting,
 * coalescing, reuse), many allocations from several caches at once,
 * the lazy sweep (each way a span is swept, sweepers on several
 * threads at once), and the pacer's goal and trigger.
 *
 * The program starts the runtime (gl_main) with GLMAXPROCS=1 and a main
 * goroutine that moves to g0 at once (systemstack): the tests are plain C
 * and need a big stack, and on g0 the M still holds the P, so mallocgc
 * takes its ordinary fast and slow paths with the P's mcache.  The
 * concurrency test runs pthreads, each allocating through an mcache of
 * its own as a P would (mcache_nextFree after nextFreeFast), so the
 * mcentrals and the page heap see several Ps refill at once.
 *
 * Built by `make check` (linked with libglrt.a).  Prints PASS and exits 0,
 * or lists the failures and exits 1.
 */
#define _GNU_SOURCE
#include "rt.h"
#include "sizeclasses.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern uint64_t zerobase; /* malloc.c */

static int fails;
#define CHECK(c, msg)                                                          \
	do {                                                                   \
		if (!(c)) {                                                    \
			fails++;                                               \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, msg); \
		}                                                              \
	} while (0)

#define GS(s) ((GlString){(const uint8_t *)(s), sizeof(s) - 1})
/* struct { p *T; n int; q *T }: pointers in words 0 and 2 */
static const uint8_t mask_pip[] = {0x5};
static const GlType t_pip = {.size = 24, .ptrdata = 24, .kind = GL_KIND_STRUCT, .align = 8,
			     .gcdata = mask_pip, .str = GS("main.pip")};
/* struct { a, b int }: no pointers */
static const GlType t_ii = {.size = 16, .ptrdata = 0, .kind = GL_KIND_STRUCT, .align = 8, .str = GS("main.ii")};
/* *T */
static const uint8_t mask_p[] = {0x1};
static const GlType t_ptr = {.size = 8, .ptrdata = 8, .kind = GL_KIND_POINTER, .align = 8, .gcdata = mask_p,
			     .str = GS("*main.T")};

static uintptr_t find(void *p) {
	return findObject((uintptr_t)p, NULL, NULL);
}

static void test_classes(void) {
	bool ok = true;
	for (uint64_t size = 1; size <= maxSmallSize; size++) {
		uint8_t c = size_to_class(size);
		ok &= class_to_size[c] >= size && (c == 1 || class_to_size[c - 1] < size);
		ok &= roundupsize(size) == class_to_size[c];
	}
	CHECK(ok, "size_to_class: the smallest class that holds the size");
	CHECK(roundupsize(33) == 48 && roundupsize(1025) == 1152 && roundupsize(32768) == 32768,
	      "roundupsize of 33, 1025, 32768");
	CHECK(roundupsize(32769) == 40960, "roundupsize of a large object: whole pages");
	ok = true;
	for (uint64_t size = 1; size < maxTinySize; size++) {
		uint8_t *p = mallocgc(size, NULL, true);
		mspan *s;
		uint32_t idx;
		uintptr_t base = findObject((uintptr_t)p, &s, &idx);
		uint64_t align = size % 8 == 0 ? 8 : size % 4 == 0 ? 4 : size % 2 == 0 ? 2 : 1;
		ok &= base != 0 && s->spanclass == tinySpanClass && (uintptr_t)p + size <= base + maxTinySize;
		ok &= ((uintptr_t)p & (align - 1)) == 0;
	}
	CHECK(ok, "mallocgc: pointer-free objects under 16 bytes are aligned pieces of 16-byte blocks");
	ok = true;
	for (uint64_t size = maxTinySize; size <= maxSmallSize; size += size / 16 + 1) {
		uint8_t *p = mallocgc(size, NULL, true);
		mspan *s;
		uint32_t idx;
		ok &= findObject((uintptr_t)p, &s, &idx) == (uintptr_t)p;
		ok &= s->elemsize == roundupsize(size) && spanClass_sizeclass(s->spanclass) == size_to_class(size);
		ok &= s->npages == class_to_allocnpages[size_to_class(size)];
		ok &= (uintptr_t)p == s->startAddr + idx * s->elemsize;
		ok &= ((uintptr_t)p & 7) == 0 && (size < 16 || ((uintptr_t)p & 15) == 0 || s->elemsize % 16 != 0);
	}
	CHECK(ok, "mallocgc: slots of the size's class, in spans of its page count");
}

static void test_findObject(void) {
	/* the class of 9472 bytes, 6 objects in 7 pages: up to the first
	 * slot of a fresh span */
	uint8_t *p;
	mspan *s;
	uint32_t idx;
	do {
		p = mallocgc(9000, NULL, true);
	} while (findObject((uintptr_t)p, &s, &idx) != (uintptr_t)p || idx != 0);
	CHECK(findObject((uintptr_t)p, &s, &idx) == (uintptr_t)p && idx == 0, "findObject: base");
	CHECK(s->elemsize == 9472 && s->nelems == 6 && s->npages == 7 && spanOfHeap((uintptr_t)p) == s && spanOf((uintptr_t)p) == s,
	      "spanOf: the span");
	CHECK(find(p + 1) == (uintptr_t)p && find(p + 4000) == (uintptr_t)p && find(p + 9471) == (uintptr_t)p,
	      "findObject: interior pointers");
	CHECK(spanOfHeap((uintptr_t)p + 20000) == s, "spanOf: a later page of the span");
	CHECK(find(p + 9472) == 0, "findObject: one past the end is the next slot, free");
	CHECK(find(p + 5 * 9472 + 7) == 0, "findObject: a free slot further on");
	CHECK(find(p + 6 * 9472) == 0 && find(p + 7 * 8192 - 1) == 0, "findObject: the tail after the last slot");
	uint8_t *q = mallocgc(9000, NULL, true);
	CHECK(q == p + 9472, "the next slot is taken next");
	CHECK(find(p + 9472) == (uintptr_t)q && find(q + 9471) == (uintptr_t)q, "findObject: now allocated");
	static uint64_t global;
	uint64_t local;
	CHECK(find(&global) == 0 && find(&local) == 0 && find(&zerobase) == 0, "findObject: not heap memory");
	CHECK(find(NULL) == 0 && find((void *)(1ULL << 50)) == 0 && find((void *)~0ULL) == 0,
	      "findObject: outside the address space");
	/* all the slots of a span, then the next span */
	uint8_t *r[5];
	for (int i = 0; i < 5; i++)
		r[i] = mallocgc(9000, NULL, true);
	bool ok = true;
	for (int i = 0; i < 5; i++)
		ok &= find(r[i] + 100) == (uintptr_t)r[i];
	CHECK(ok && spanOfHeap((uintptr_t)r[4]) != s && s->allocCount == s->nelems,
	      "findObject: every slot of a full span, and the next span");
}

/* Give s's pages back behind the sweeper's back: out of its mcentral
 * list first (a large object's span is in one from its birth). */
static void freespan(mspan *s) {
	if (s->list != NULL) {
		mcentral *c = &mheap_.central[s->spanclass].mcentral;
		lock(&c->lock);
		mSpanList_remove(s->list, s);
		unlock(&c->lock);
	}
	mheap_freeSpan(s);
}

static void test_large(void) {
	uint8_t *p = mallocgc(100000, NULL, true);
	mspan *s;
	uint32_t idx;
	CHECK(findObject((uintptr_t)p + 99999, &s, &idx) == (uintptr_t)p && idx == 0, "large: interior pointer");
	CHECK(s->npages == 13 && s->elemsize == 13 * 8192 && spanClass_sizeclass(s->spanclass) == 0 &&
		      spanClass_noscan(s->spanclass) && ((uintptr_t)p & 8191) == 0,
	      "large: a noscan span of 13 pages of its own");
	CHECK(find(p + 100000) == 0, "large: one past the end");
	CHECK(p[0] == 0 && p[99999] == 0, "large: zero");
	/* pointers: an array of 5000 *T */
	void **a = mallocgc(5000 * 8, &t_ptr, true);
	s = spanOfHeap((uintptr_t)a);
	bool ok = !spanClass_noscan(s->spanclass);
	for (int i = 0; i < 5000; i++)
		ok &= heapBitsIsPointer((uintptr_t)&a[i]);
	CHECK(ok, "large: scan span, every word a pointer");
	/* reuse: freed pages come back marked needzero and are cleared */
	uint8_t *b = mallocgc(200000, &t_ii, true);
	memset(b, 0xee, 200000);
	mspan *bs = spanOfHeap((uintptr_t)b);
	freespan(bs);
	CHECK(find(b) == 0 && spanOfHeap((uintptr_t)b) == NULL, "freed span: not in the heap");
	void **c = mallocgc(24 * 8000, &t_pip, true);
	CHECK((uint8_t *)c == b, "freed pages reused (first fit)");
	ok = true;
	for (int i = 0; i < 24000; i++)
		ok &= c[i] == NULL;
	CHECK(ok, "reused pages cleared (needzero)");
	ok = true;
	for (int i = 0; i < 24000; i++)
		ok &= heapBitsIsPointer((uintptr_t)&c[i]) == (i % 3 != 1);
	CHECK(ok, "pointer bits of an array of structs");
	memset(c, 0x11, 24 * 8000);
	freespan(spanOfHeap((uintptr_t)c));
	uint8_t *d = mallocgc(50000, &t_ptr, true);
	ok = (uint8_t *)d == b;
	for (int i = 0; i < 50000; i++)
		ok &= d[i] == 0;
	for (int i = 0; i < 50000 / 8; i++)
		ok &= heapBitsIsPointer((uintptr_t)d + 8 * i);
	for (int i = 50000 / 8; i < 57344 / 8; i++)
		ok &= !heapBitsIsPointer((uintptr_t)d + 8 * i);
	CHECK(ok, "reused again for a smaller object: zero, bits rewritten, stale bits cleared");
	uint8_t *e = mallocgc(100000, NULL, false);
	CHECK(spanOfHeap((uintptr_t)e) != spanOfHeap((uintptr_t)d) && (e > d + 50000 || e + 100000 <= d),
	      "the rest of a freed run is used apart");
}

static void test_scan(void) {
	void *n1 = mallocgc(24, NULL, true), *s1 = mallocgc(24, &t_pip, true);
	void *n2 = mallocgc(16, &t_ii, true);
	mspan *sn = spanOfHeap((uintptr_t)n1), *ss = spanOfHeap((uintptr_t)s1), *sn2 = spanOfHeap((uintptr_t)n2);
	CHECK(sn != ss && spanClass_noscan(sn->spanclass) && !spanClass_noscan(ss->spanclass) &&
		      spanClass_sizeclass(sn->spanclass) == spanClass_sizeclass(ss->spanclass),
	      "noscan and scan objects of one size: two span classes");
	CHECK(spanClass_noscan(sn2->spanclass), "a type without pointers: noscan");
	CHECK(heapBitsIsPointer((uintptr_t)s1) && !heapBitsIsPointer((uintptr_t)s1 + 8) &&
		      heapBitsIsPointer((uintptr_t)s1 + 16),
	      "pointer bits from gcdata");
	bool ok = true;
	for (int i = 0; i < 1000; i++) {
		uint8_t *p = mallocgc(3 * 24, &t_pip, true);
		for (int w = 0; w < 9; w++)
			ok &= heapBitsIsPointer((uintptr_t)p + 8 * w) == (w % 3 != 1);
		ok &= !heapBitsIsPointer((uintptr_t)p + 72) || find(p + 72) != 0;
	}
	CHECK(ok, "pointer bits of small arrays ([3]pip in 80-byte slots)");
	uint64_t *pp = newobject(&t_ptr);
	CHECK(heapBitsIsPointer((uintptr_t)pp) && !spanClass_noscan(spanOfHeap((uintptr_t)pp)->spanclass),
	      "newobject(*T)");
}

/* Arrays of elements whose masks take each of heapBitsSetType's paths:
 * a map bucket's shape (one pointer word in eighteen), a mask of more
 * than 64 words, a mask whose last byte has bits past ptrdata (they must
 * be ignored), and no mask at all (every word of ptrdata a pointer). */
static uint8_t mask_bucket[3] = {0, 0, 0x2};
static uint8_t mask_wide[10];
static const uint8_t mask_stray[] = {0xff};
static const GlType t_bucket = {.size = 144, .ptrdata = 144, .kind = GL_KIND_STRUCT, .align = 8,
				.gcdata = mask_bucket, .str = GS("main.bucket")};
static const GlType t_wide = {.size = 640, .ptrdata = 600, .kind = GL_KIND_STRUCT, .align = 8,
			      .gcdata = mask_wide, .str = GS("main.wide")};
static const GlType t_stray = {.size = 24, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8,
			       .gcdata = mask_stray, .str = GS("main.stray")};
static const GlType t_ppp_i = {.size = 32, .ptrdata = 24, .kind = GL_KIND_STRUCT, .align = 8,
			       .str = GS("main.pppi")};

static bool bitsMatch(const void *p, uint64_t n, const GlType *t, bool (*isptr)(uint64_t w)) {
	bool ok = true;
	for (uint64_t i = 0; i < n; i++)
		for (uint64_t w = 0; w < t->size / 8; w++)
			ok &= heapBitsIsPointer((uintptr_t)p + i * t->size + 8 * w) == isptr(w);
	return ok;
}
static bool isBucketPtr(uint64_t w) { return w == 17; }
static bool isWidePtr(uint64_t w) { return w < 75 && (w % 5 == 0 || w >= 72); }
static bool isStrayPtr(uint64_t w) { return w < 2; }
static bool isPppiPtr(uint64_t w) { return w < 3; }

static void test_arraybits(void) {
	for (int w = 0; w < 75; w++)
		if (w % 5 == 0)
			mask_wide[w / 8] |= (uint8_t)(1 << (w % 8));
	mask_wide[9] = 0xff; /* words 72..74 pointers, 75..79 past ptrdata */
	uint64_t counts[] = {1, 3, 1000};
	for (int k = 0; k < 3; k++) {
		uint64_t n = counts[k];
		void *b = mallocgc(n * t_bucket.size, &t_bucket, true);
		CHECK(bitsMatch(b, n, &t_bucket, isBucketPtr), "array bits: buckets (one pointer word in 18)");
		void *w = mallocgc(n * t_wide.size, &t_wide, true);
		CHECK(bitsMatch(w, n, &t_wide, isWidePtr), "array bits: a mask of 75 words");
		void *s = mallocgc(n * t_stray.size, &t_stray, true);
		CHECK(bitsMatch(s, n, &t_stray, isStrayPtr), "array bits: mask bits past ptrdata ignored");
		void *q = mallocgc(n * t_ppp_i.size, &t_ppp_i, true);
		CHECK(bitsMatch(q, n, &t_ppp_i, isPppiPtr), "array bits: no mask, ptrdata < size");
	}
}

static void test_many(void) {
	uint64_t ta0, nm0, ta1, nm1;
	readmemstats(&ta0, &nm0);
	enum { N = 200000 };
	uint8_t **ps = malloc(N * sizeof *ps);
	uint64_t bytes = 0;
	for (int i = 0; i < N; i++) {
		uint64_t size = maxTinySize + (uint64_t)(i * 7919) % (2048 - maxTinySize); /* not tiny */
		ps[i] = mallocgc(size, i % 2 ? &t_ptr : NULL, true);
		bytes += roundupsize(size);
		ps[i][0] = (uint8_t)i;
		ps[i][size - 1] = (uint8_t)(i >> 8);
	}
	readmemstats(&ta1, &nm1);
	/* exact but for what other Ms allocate meanwhile (a new M's records) */
	CHECK(nm1 - nm0 >= N && nm1 - nm0 <= N + 8, "Mallocs: this P's allocations counted");
	CHECK(ta1 - ta0 >= bytes && ta1 - ta0 <= bytes + 8 * 4096, "TotalAlloc: this P's allocations counted");
	if (nm1 - nm0 < N || nm1 - nm0 > N + 8 || ta1 - ta0 < bytes || ta1 - ta0 > bytes + 8 * 4096)
		printf("Mallocs %llu TotalAlloc %llu, want %d %llu\n", (unsigned long long)(nm1 - nm0),
		       (unsigned long long)(ta1 - ta0), N, (unsigned long long)bytes);
	bool ok = true;
	for (int i = 0; i < N; i++) {
		uint64_t size = maxTinySize + (uint64_t)(i * 7919) % (2048 - maxTinySize); /* not tiny */
		ok &= (size == 1 || ps[i][0] == (uint8_t)i) && ps[i][size - 1] == (uint8_t)(i >> 8);
		ok &= find(ps[i] + size - 1) == (uintptr_t)ps[i];
		if (!ok) {
			printf("object %d size %llu at %p: find %p\n", i, (unsigned long long)size, (void *)ps[i],
			       (void *)find(ps[i] + size - 1));
			break;
		}
	}
	CHECK(ok, "200000 objects across spans: intact, found from their last byte");
	free(ps);
	CHECK(memstats.heap_inuse <= memstats.heap_sys && memstats.heap_inuse >= bytes, "HeapInuse");
}

/* Several caches at once, each on its own thread as a P on its M. */
enum { NTHREADS = 4, PERTHREAD = 100000 };
static void *allocator(void *arg) {
	uintptr_t *out = arg;
	mcache *c = calloc(1, sizeof *c);
	mcache_init(c);
	for (int i = 0; i < PERTHREAD; i++) {
		spanClass spc = makeSpanClass((uint8_t)(1 + i % 40), i % 3 == 0);
		uintptr_t x = nextFreeFast(c->alloc[spc]);
		if (x == 0)
			x = mcache_nextFree(c, spc);
		*(uint64_t *)x = (uint64_t)(uintptr_t)arg ^ (uint64_t)i;
		out[i] = x;
	}
	mcache_releaseAll(c);
	return NULL;
}

static int cmpaddr(const void *a, const void *b) {
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return x < y ? -1 : x > y;
}

static void test_threads(void) {
	pthread_t th[NTHREADS];
	uintptr_t *out = malloc(NTHREADS * PERTHREAD * sizeof *out);
	for (int t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, allocator, out + t * PERTHREAD);
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	bool ok = true;
	for (int t = 0; t < NTHREADS; t++)
		for (int i = 0; i < PERTHREAD; i++) {
			uintptr_t x = out[t * PERTHREAD + i];
			ok &= *(uint64_t *)x == ((uint64_t)(uintptr_t)(out + t * PERTHREAD) ^ (uint64_t)i);
			ok &= find((void *)x) == x;
		}
	CHECK(ok, "threads: every object intact and found");
	qsort(out, NTHREADS * PERTHREAD, sizeof *out, cmpaddr);
	ok = true;
	for (int i = 1; i < NTHREADS * PERTHREAD; i++)
		ok &= out[i] >= out[i - 1] + spanOfHeap(out[i - 1])->elemsize;
	CHECK(ok, "threads: no two objects overlap");
	/* the spans given back are partial: another cache picks them up */
	mspan *s = partialSwept(&mheap_.central[makeSpanClass(5, false)].mcentral, mheap_.sweepgen)->first;
	CHECK(s != NULL && s->allocCount < s->nelems, "releaseAll: partial spans in the mcentral");
	free(out);
}

/* ---- a fragmented page heap (mheap.c: the free list and its bitmap) ---- */

/* mheap_.free in strictly increasing address order, no two runs adjacent
 * (coalesced), and heapArena.freeStart's bits exactly the runs' starts. */
static bool freelistconsistent(void) {
	bool ok = true;
	uint64_t runs = 0, bits = 0;
	lock(&mheap_.lock);
	uintptr_t prevend = 0;
	for (mspan *f = mheap_.free.first; f != NULL; f = f->next, runs++) {
		ok &= f->startAddr > prevend; /* after the last, with a gap */
		prevend = f->startAddr + f->npages * pageSize;
		uintptr_t i = pageIndex(f->startAddr);
		ok &= (arenaOf(f->startAddr)->freeStart[i / 64] >> (i % 64) & 1) != 0;
	}
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		uint64_t n = 0;
		for (int w = 0; w < pagesPerArena / 64; w++)
			n += (uint64_t)__builtin_popcountll(ha->freeStart[w]);
		ok &= n == ha->nfreeStart;
		bits += n;
	}
	unlock(&mheap_.lock);
	return ok && bits == runs;
}

/* 4,000 one-page spans freed in a shuffled order, every other one first:
 * each free finds its place among thousands of runs through the bitmap;
 * then the rest, which merge everything back. */
static void test_fragmented(void) {
	enum { N = 4000 };
	mspan **sp = malloc(N * sizeof *sp);
	int *order = malloc(N / 2 * sizeof *order);
	for (int i = 0; i < N; i++)
		sp[i] = mheap_alloc(1, makeSpanClass(0, true));
	for (int i = 0; i < N / 2; i++)
		order[i] = 2 * i;
	uint32_t x = 12345;
	for (int i = N / 2 - 1; i > 0; i--) { /* Fisher-Yates */
		x = x * 1103515245 + 12345;
		int j = (int)((x >> 8) % (uint32_t)(i + 1)), t = order[i];
		order[i] = order[j], order[j] = t;
	}
	for (int i = 0; i < N / 2; i++)
		mheap_freeSpan(sp[order[i]]);
	CHECK(freelistconsistent(), "every other page freed, shuffled: the free list in address order, its bitmap exact");
	for (int i = N / 2 - 1; i >= 0; i--)
		mheap_freeSpan(sp[order[i] + 1]);
	CHECK(freelistconsistent(), "the rest freed: coalesced, in order, its bitmap exact");
	free(order);
	free(sp);
}

/* ---- the scavenger's accounting (mheap.c, mgcscavenge.c) ---- */

/* Every free run's scavenged count is its pageScav bits; their sum is
 * HeapReleased, which fits in HeapIdle. */
static bool scavconsistent(void) {
	uint64_t sum = 0;
	bool ok = true;
	lock(&mheap_.lock);
	for (mspan *f = mheap_.free.first; f != NULL; f = f->next) {
		ok &= f->state == mSpanFree && f->scavenged == countScav(f->startAddr, f->npages);
		sum += f->scavenged;
	}
	ok &= sum * pageSize == memstats.heap_released;
	ok &= memstats.heap_released <= memstats.heap_sys - memstats.heap_inuse;
	unlock(&mheap_.lock);
	return ok;
}

/* How many of the OS pages of [p, p+n) are resident. */
static size_t resident(void *p, size_t n) {
	size_t os = (size_t)sysconf(_SC_PAGESIZE), k = 0;
	unsigned char v[4096];
	for (size_t off = 0; off < n; off += os * sizeof v) {
		size_t m = n - off < os * sizeof v ? n - off : os * sizeof v;
		if (mincore((uint8_t *)p + off, m, v) != 0)
			return (size_t)-1;
		for (size_t i = 0; i < (m + os - 1) / os; i++)
			k += v[i] & 1;
	}
	return k;
}

/* Three adjacent in-use spans of n pages (noscan, large); the spans tried
 * on the way are freed again. */
static void threeAdjacent(uintptr_t n, mspan **out) {
	mspan *got[64];
	int k = 0;
	for (;;) {
		got[k++] = mheap_alloc(n, makeSpanClass(0, true));
		if (k >= 3 && got[k - 2]->startAddr == got[k - 3]->startAddr + n * pageSize &&
		    got[k - 1]->startAddr == got[k - 2]->startAddr + n * pageSize)
			break;
		if (k == 64) {
			printf("no three adjacent spans\n");
			exit(1);
		}
	}
	for (int i = 0; i < k - 3; i++)
		mheap_freeSpan(got[i]);
	memcpy(out, &got[k - 3], 3 * sizeof *out);
}

static void test_scavenge(void) {
	CHECK(scavconsistent(), "scavenged counts consistent at the start");
	/* a big scan object full of pointer bits and data, freed, released */
	enum { big = 600 * 8192 };
	void **l = mallocgc(big, &t_ptr, true);
	memset(l, 0xee, big);
	freespan(spanOfHeap((uintptr_t)l));
	uint64_t r0 = memstats.heap_released;
	uint64_t got = mheap_scavenge(UINT64_MAX);
	CHECK(got >= big && memstats.heap_released == r0 + got, "scavenge: the freed object's pages and HeapReleased");
	CHECK(countScav((uintptr_t)l, big / 8192) == big / 8192, "scavenge: its pages marked released");
	CHECK(resident(l, big) == 0, "scavenge: its pages no longer resident (mincore)");
	CHECK(mheap_scavenge(UINT64_MAX) == 0, "scavenge again: nothing left to release");
	CHECK(scavconsistent(), "scavenged counts consistent after scavenge");
	/* reused: zero, with the pointer bits of the new type only */
	uint64_t r1 = memstats.heap_released;
	void **c = mallocgc(big, &t_pip, true);
	mspan *cs = spanOfHeap((uintptr_t)c);
	bool ok = true;
	for (int i = 0; i < big / 8; i++)
		ok &= c[i] == NULL && heapBitsIsPointer((uintptr_t)&c[i]) == (i % 3 != 1);
	CHECK(ok, "reused released pages: zero, stale pointer bits cleared");
	CHECK((uintptr_t)c < (uintptr_t)l + big && (uintptr_t)c + big > (uintptr_t)l, "the released pages were reused");
	CHECK(memstats.heap_released == r1 - cs->npages * pageSize && countScav(cs->startAddr, cs->npages) == 0,
	      "allocating released pages takes them out of HeapReleased");
	CHECK(scavconsistent(), "scavenged counts consistent after reuse");
	freespan(cs);

	/* coalescing: B released, then A and C freed next to it */
	mspan *abc[3];
	threeAdjacent(64, abc);
	uintptr_t a = abc[0]->startAddr;
	for (int i = 0; i < 3; i++)
		memset((void *)abc[i]->startAddr, 0x5a, 64 * pageSize);
	mheap_freeSpan(abc[1]);
	mheap_scavenge(UINT64_MAX);
	mspan *b = spanOf(a + 64 * pageSize);
	CHECK(b->state == mSpanFree && b->npages == 64 && b->scavenged == 64, "B alone, released");
	CHECK(resident((void *)b->startAddr, 64 * pageSize) == 0, "B not resident");
	mheap_freeSpan(abc[0]);
	mspan *ab = spanOf(a);
	CHECK(ab->state == mSpanFree && ab->startAddr <= a && ab->scavenged == 64 + countScav(ab->startAddr, (a - ab->startAddr) / pageSize) &&
		      ab->needzero,
	      "A merged with released B: B's pages counted, needzero");
	mheap_freeSpan(abc[2]);
	mspan *all = spanOf(a);
	CHECK(all->state == mSpanFree && all->startAddr + all->npages * pageSize >= a + 3 * 64 * pageSize &&
		      all->scavenged == countScav(all->startAddr, all->npages) && all->scavenged >= 64 &&
		      all->scavenged < all->npages,
	      "A, B and C merged: part released");
	CHECK(scavconsistent(), "scavenged counts consistent after coalescing");
	/* what comes out of it, released or not, is zero */
	uint8_t *z = mallocgc(3 * 64 * pageSize, NULL, true);
	ok = true;
	for (size_t i = 0; i < 3 * 64 * pageSize; i++)
		ok &= z[i] == 0;
	CHECK(ok, "allocated from a partly released run: zero");
	CHECK(scavconsistent(), "scavenged counts consistent at the end");
}

/* ---- the lazy sweep (mgcsweep.c, mcentral.c) ----
 *
 * A cycle by hand: objects allocated, some marked (gcmarknewobject sets
 * the bit as the marker would), the caches emptied, gcSweep.  Then each
 * way a span gets swept: ensureSwept, sweepReclaim for a large object,
 * the allocator's refill (sweepForSlot), and sweepers on four threads at
 * once with a fifth allocating.  Runs last: every object of the earlier
 * tests is unmarked, and is freed here. */
enum { NSWEEP = 3000, NSWEEPERS = 4 };
static void *sweeper(void *arg) {
	(void)arg;
	while (sweepone() != UINTPTR_MAX)
		;
	return NULL;
}

static void *sweepallocator(void *arg) {
	(void)arg;
	mcache *c = calloc(1, sizeof *c);
	mcache_init(c);
	for (int i = 0; i < 100000; i++) {
		spanClass spc = makeSpanClass((uint8_t)(1 + i % 30), true);
		uintptr_t x = nextFreeFast(c->alloc[spc]);
		if (x == 0)
			x = mcache_nextFree(c, spc);
		*(uint64_t *)x = 0x5eed;
	}
	mcache_releaseAll(c);
	return NULL;
}

static void test_sweep(void) {
	mcache *c = &getm()->p->mcache;
	void ***obj = malloc(NSWEEP * sizeof *obj);
	for (int i = 0; i < NSWEEP; i++) {
		obj[i] = mallocgc(t_pip.size, &t_pip, true);
		obj[i][1] = (void *)(uintptr_t)(i + 1);
	}
	/* noscan objects of 48 bytes, every other one marked */
	uint8_t **ns = malloc(NSWEEP * sizeof *ns);
	for (int i = 0; i < NSWEEP; i++) {
		ns[i] = mallocgc(48, NULL, true);
		memset(ns[i], 0xee, 48);
	}
	for (int i = 0; i < NSWEEP; i += 2)
		gcmarknewobject(c, spanOfHeap((uintptr_t)ns[i]), (uintptr_t)ns[i]);
	uint8_t *big = mallocgc(100000, &t_ii, true), *dead = mallocgc(300000, &t_ii, true);
	memset(big, 0xab, 100000);
	memset(dead, 0xcd, 300000);
	for (int i = 0; i < NSWEEP / 2; i += 2) /* the first half, every other one */
		gcmarknewobject(c, spanOfHeap((uintptr_t)obj[i]), (uintptr_t)obj[i]);
	gcmarknewobject(c, spanOfHeap((uintptr_t)big), (uintptr_t)big);
	mcache_flushAll();
	mcache_unlockNop();
	uint64_t freed0 = gcstats.freedObjects;
	CHECK(isSweepDone(), "sweep: none under way before the cycle");
	gcSweep();
	uint32_t sg = mheap_.sweepgen;
	mspan *s0 = spanOfHeap((uintptr_t)obj[0]);
	CHECK(!isSweepDone() && s0->sweepgen == sg - 2, "gcSweep: every span unswept, and nothing swept in the pause");

	ensureSwept(s0);
	bool ok = s0->sweepgen == sg;
	for (int i = 0; i < NSWEEP / 2; i++)
		if (spanOfHeap((uintptr_t)obj[i]) == s0)
			ok &= (i % 2 == 0) == (find(obj[i]) == (uintptr_t)obj[i]) &&
			      obj[i][1] == (i % 2 == 0 ? (void *)(uintptr_t)(i + 1) : NULL);
	CHECK(ok, "ensureSwept: swept, marked objects kept, the others freed and cleared");
	mspan *ns0 = spanOfHeap((uintptr_t)ns[0]);
	ensureSwept(ns0);
	CHECK(ns0->needzero && find(ns[1]) == 0 && ns[1][0] == 0xee && ns[1][47] == 0xee && ns[0][47] == 0xee,
	      "ensureSwept, noscan: freed slots left as they were, the span marked needzero");
	ok = true;
	int reused = 0;
	for (int i = 0; i < NSWEEP; i++) {
		uint8_t *p = mallocgc(48, NULL, true);
		reused += spanOfHeap((uintptr_t)p) == ns0;
		for (int j = 0; j < 48; j++)
			ok &= p[j] == 0;
	}
	CHECK(ok && reused > 0, "noscan slots freed by the sweeper: cleared by mallocgc when asked");

	mspan *bs = spanOfHeap((uintptr_t)big);
	sweepReclaim(1 << 20); /* more than all: every large object's span swept (the earlier tests' first) */
	CHECK(spanOfHeap((uintptr_t)dead) == NULL, "sweepReclaim: the unmarked large object freed");
	CHECK(spanOfHeap((uintptr_t)big) == bs && bs->sweepgen == sg && big[0] == 0xab && big[99999] == 0xab,
	      "sweepReclaim: the marked one kept");

	void **fresh = mallocgc(t_pip.size, &t_pip, true);
	ok = spanOfHeap((uintptr_t)fresh)->sweepgen == sg && fresh[0] == NULL && fresh[1] == NULL;
	for (int i = 0; i < NSWEEP / 2; i += 2)
		ok &= obj[i] != fresh;
	CHECK(ok, "refill: a swept span, a free slot, zero");

	pthread_t th[NSWEEPERS + 1];
	for (int t = 0; t < NSWEEPERS; t++)
		pthread_create(&th[t], NULL, sweeper, NULL);
	pthread_create(&th[NSWEEPERS], NULL, sweepallocator, NULL);
	for (int t = 0; t <= NSWEEPERS; t++)
		pthread_join(th[t], NULL);
	CHECK(isSweepDone(), "sweepers: the sweep done once no span is left and no sweeper is at one");
	ok = true;
	for (int i = 0; i < NSWEEP; i++) {
		bool live = i < NSWEEP / 2 && i % 2 == 0;
		ok &= live ? find(obj[i]) == (uintptr_t)obj[i] && obj[i][1] == (void *)(uintptr_t)(i + 1)
			   : find(obj[i]) == 0;
	}
	CHECK(ok, "sweepers: every marked object intact, every other one free");
	CHECK(gcstats.freedObjects - freed0 >= NSWEEP - NSWEEP / 4 + 1, "sweepers: the frees counted");
	CHECK(sweepone() == UINTPTR_MAX && isSweepDone(), "sweepone: nothing left");
	free(obj);
	free(ns);
}

/* ---- gccheckmark's path (mgc.c, gcPathTo) ---- */

static void *pathroot_;
GL_GLOBAL_ROOT(pathroot_, &t_ptr);

/* A package variable points to a, a to b, b to c: the path to c is those
 * three, each with the word that points to it; with the variable cleared
 * there is none (this runs on the system stack, which is no root). */
static void test_path(void) {
	void **a = mallocgc(8, &t_ptr, true), **b = mallocgc(8, &t_ptr, true), **c = mallocgc(8, &t_ptr, true);
	*a = b;
	*b = c;
	pathroot_ = a;
	uintptr_t path[8], slots[8];
	int64_t n = gcPathTo((uintptr_t)c, path, slots, 8, 1 << 16);
	CHECK(n == 3 && path[0] == (uintptr_t)a && path[1] == (uintptr_t)b && path[2] == (uintptr_t)c &&
		      slots[0] == (uintptr_t)&pathroot_ && slots[1] == (uintptr_t)a && slots[2] == (uintptr_t)b,
	      "gcPathTo: root -> a -> b -> c, with the words that point");
	CHECK(gcPathTo((uintptr_t)c, path, slots, 2, 1 << 16) == 0, "gcPathTo: a path longer than asked for is none");
	pathroot_ = NULL;
	CHECK(gcPathTo((uintptr_t)c, path, slots, 8, 1 << 16) == 0, "gcPathTo: nothing reaches c once the root is cleared");
}

/* ---- the pacer (mgcpacer.c): Go 1.18's goal and cons/mark trigger ----
 * Cycles described by hand to gcControllerEndCycle; the goal and the
 * trigger it commits are read from gcstats.  GLMAXPROCS=1, GLGC=100, no
 * memory limit.  Run last: it leaves the pacer's state made up. */
static void test_pacer(void) {
	const uint64_t MiB = 1 << 20;
	uint64_t marked = 100 * MiB;
	gcstats.scannedBytes = 64 * MiB; /* heap scan work */
	gcstats.stackBytes = 8 * MiB;
	gcstats.assistNs = gcstats.idleMarkNs = 0;
	/* a stop-the-world cycle: the goal counts stacks and globals as heap */
	gcCycleMeasure stw = {false, 0, 0, 0, 8 * MiB};
	gcControllerEndCycle(marked, &stw);
	uint64_t goal = marked + (marked + 8 * MiB + 8 * MiB);
	CHECK(gcstats.nextGC == goal, "goal: live + (live + stacks + globals) x GLGC/100");
	uint64_t span = goal - marked, hi = marked + span / 100 * 95, lo = marked + span / 100 * 70;
	CHECK(gcstats.trigger == hi, "no cons/mark measured yet: trigger at 95% of the way to the goal");
	/* a concurrent mark: 20 MiB allocated in 10 ms while 80 MiB were
	 * scanned at the background's 25%: cons/mark = 20 x 0.25 / (80 x 0.75)
	 * = 1/12; the runway, 1/12 x 3 x 80 MiB = 20 MiB, ends at the goal */
	gcCycleMeasure conc = {true, 150 * MiB, 170 * MiB, 10 * 1000 * 1000, 8 * MiB};
	gcControllerEndCycle(marked, &conc);
	uint64_t want = goal - 20 * MiB, t = gcstats.trigger;
	CHECK(t + 4096 > want && t < want + 4096, "trigger: the goal less cons/mark x 3 x scan work");
	/* a quiet mark after it (2 MiB allocated): the trigger still plans
	 * with the larger ratio of the last four */
	gcCycleMeasure quiet = {true, 150 * MiB, 152 * MiB, 10 * 1000 * 1000, 8 * MiB};
	gcControllerEndCycle(marked, &quiet);
	CHECK(gcstats.trigger == t, "the largest cons/mark of the last four marks");
	/* assists that took half the CPU: the program had a quarter of it,
	 * the collector three quarters, so the same growth means a ratio
	 * nine times as high: the runway is past the 70% bound */
	gcstats.assistNs = 5 * 1000 * 1000;
	gcCycleMeasure assisted = {true, 150 * MiB, 170 * MiB, 10 * 1000 * 1000, 8 * MiB};
	gcControllerEndCycle(marked, &assisted);
	CHECK(gcstats.trigger == lo, "a trigger before 70% of the way is held at 70%");
	gcstats.assistNs = 0;
}

static void tests(void *arg) {
	(void)arg;
	CHECK(mallocgc(0, NULL, true) == (void *)&zerobase, "zerobase");
	test_classes();
	test_findObject();
	test_large();
	test_scan();
	test_arraybits();
	test_many();
	test_fragmented();
	test_path();
	test_threads();
	test_scavenge();
	test_sweep();
	test_pacer();
	printf(fails ? "FAIL: %d\n" : "PASS\n", fails);
	fflush(stdout);
	_exit(fails ? 1 : 0);
}

static void t_init(G *g) {
	(void)g;
}

static void t_main(G *g) {
	(void)g;
	systemstack(tests, NULL);
}

int main(void) {
	setenv("GLMAXPROCS", "1", 1);
	/* no heap profile: the tests free spans behind the sweeper's back,
	 * which a sampled object's profile record would not allow */
	runtime_MemProfileRate = 0;
	unsetenv("GLDEBUG");
	return gl_main(1, (char *[]){"heap_test", NULL}, t_init, t_main);
}
