/*
 * map_test.c — unit test of runtime/map.c and runtime/alg.c, outside the
 * runtime: type descriptors are built by hand and the runtime services the
 * two files use (mallocgc, fastrand, getg, gl_panicstring, gl_throw) are
 * stubs.
 *
 *	gcc -O2 -Iruntime runtime/map_test.c runtime/map.c runtime/alg.c runtime/mbarrier.c -o /tmp/map_test && /tmp/map_test
 *
 * Prints PASS and exits 0, or prints each failure and exits 1.  Also prints
 * the time of 1M int inserts + 1M lookups (compare bench/compute/mapint.go).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "gl.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void alginit(void);

/* ---- stubs of the runtime services ---- */

static G theG;
static char panicmsg[256];
static int npanics;
static uint64_t allocated;

/* Stack-move simulation: while movestacks is set, every mallocgc "moves"
 * the goroutine's (fake) stack, as a GC assist that parks and lets the
 * stack shrink would: the contents are copied to the other buffer, the old
 * one is poisoned, and g->stack follows. */
static int movestacks, nmoves;
static uint8_t *fakestack[2];
enum { FAKESTACK = 4096 };

static void movestack(void) {
	G *gp = &theG;
	uint8_t *from = (uint8_t *)gp->stack.lo, *to = fakestack[from == fakestack[0]];
	memcpy(to, from, FAKESTACK);
	memset(from, 0xAA, FAKESTACK);
	gp->stack.lo = (uintptr_t)to;
	gp->stack.hi = (uintptr_t)to + FAKESTACK;
	nmoves++;
}

void *mallocgc(uint64_t size, const GlType *typ, bool needzero) {
	(void)typ;
	(void)needzero;
	if (movestacks)
		movestack();
	allocated += size;
	void *p = calloc(1, size ? size : 1);
	if (p == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return p;
}

static uint64_t rngstate = 0x853c49e6748fea9bull;

uint32_t fastrand(void) {
	/* xorshift64*: a stand-in for proc.c's per-M generator */
	rngstate ^= rngstate >> 12;
	rngstate ^= rngstate << 25;
	rngstate ^= rngstate >> 27;
	return (uint32_t)((rngstate * 0x2545f4914f6cdd1dull) >> 32);
}

/* bigzero's memory (map.c): from the C heap here.  memstats is rt.h's
 * mstats (not included here: its declarations would clash with the stubs);
 * map.c only counts bytes into it, so room enough is all it needs. */
uint64_t memstats[64];
void *sysAlloc(uint64_t n, uint64_t *stat) {
	(void)stat;
	return calloc(1, n);
}

G *getg(void) { return &theG; }
__thread G *tls_g __attribute__((tls_model("initial-exec"))) = &theG;

/* g0: the test's one thread stack serves as both (alg.c and map.c run
 * nested hashes, comparisons and generic evacuations there). */
void systemstack(void (*fn)(void *), void *arg) { fn(arg); }

/* theG.preempt is never set, so no map entry stops (preempt.c). */
void entryPreempt(G *g) {
	(void)g;
	fprintf(stderr, "fatal error: entryPreempt in map_test\nFAIL\n");
	exit(1);
}

/* the write barrier's heap side (mbarrier.c): runtime/heapstub_test.c */

/* theG.stackguard0 is 0, so no stack check ever fails. */
void gl_morestackneed(G *g, uintptr_t need) {
	(void)g;
	(void)need;
	fprintf(stderr, "fatal error: morestack in map_test\nFAIL\n");
	exit(1);
}

/* Records the message; returns as if a deferred call recovered, which is
 * the case the runtime must survive. */
void gl_panicstring(G *g, const char *msg) {
	snprintf(panicmsg, sizeof panicmsg, "%s", msg);
	npanics++;
	g->unwinding = 1;
}

/* A throw is fatal, except in the test that expects one. */
static jmp_buf *throwcatch;
static const char *thrown;

void gl_throw(const char *msg) {
	if (throwcatch != NULL) {
		thrown = msg;
		longjmp(*throwcatch, 1);
	}
	fprintf(stderr, "fatal error: %s\nFAIL\n", msg);
	exit(1);
}

void gl_fatal(const char *msg) {
	gl_throw(msg);
}

/* ---- checking ---- */

static int failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			failures++;                                            \
			if (failures <= 30) {                                  \
				fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
				fprintf(stderr, __VA_ARGS__);                  \
				fputc('\n', stderr);                           \
			}                                                      \
		}                                                              \
	} while (0)

/* A recovered panic: returns its message and resets the G. */
static const char *takepanic(void) {
	static char buf[256];
	if (!theG.unwinding)
		return "";
	theG.unwinding = 0;
	snprintf(buf, sizeof buf, "%s", panicmsg);
	panicmsg[0] = 0;
	return buf;
}

/* ---- type descriptors ---- */

#define S(lit) ((GlString){(const uint8_t *)(lit), sizeof(lit) - 1})

static const GlType t_int64 = {
	.size = 8, .kind = GL_KIND_INT64, .align = 8, .tflag = GL_TFLAG_REGMEM, .hash = 0x1111,
	.str = S("int64"), .equal = gl_memequal, .hashfn = gl_memhash,
};
static const GlType t_int32 = {
	.size = 4, .kind = GL_KIND_INT32, .align = 4, .tflag = GL_TFLAG_REGMEM, .hash = 0x2222,
	.str = S("int32"), .equal = gl_memequal, .hashfn = gl_memhash,
};
static const GlType t_uint8 = {
	.size = 1, .kind = GL_KIND_UINT8, .align = 1, .tflag = GL_TFLAG_REGMEM,
	.str = S("uint8"), .equal = gl_memequal, .hashfn = gl_memhash,
};
static const GlType t_string = {
	.size = 16, .ptrdata = 8, .kind = GL_KIND_STRING, .align = 8, .hash = 0x3333,
	.str = S("string"), .equal = gl_strequal, .hashfn = gl_strhash,
};
static const GlType t_float64 = {
	.size = 8, .kind = GL_KIND_FLOAT64, .align = 8, .hash = 0x4444,
	.str = S("float64"), .equal = gl_f64equal, .hashfn = gl_f64hash,
};
static const GlType t_eface = {
	.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8,
	.str = S("interface {}"), .equal = gl_efaceequal, .hashfn = gl_efacehash,
};
static const GlType t_ptrint = {
	.size = 8, .ptrdata = 8, .kind = GL_KIND_POINTER, .align = 8,
	.tflag = GL_TFLAG_REGMEM | GL_TFLAG_DIRECTIFACE, .hash = 0x5555,
	.str = S("*int64"), .equal = gl_memequal, .hashfn = gl_memhash, .elem = &t_int64,
};
static const GlType t_sliceint = {
	.size = 24, .ptrdata = 8, .kind = GL_KIND_SLICE, .align = 8, .hash = 0x6666,
	.str = S("[]int"), .elem = &t_int64, /* equal, hashfn NULL: not comparable */
};

/* struct { a int32; _ int32; s string; f float64 } */
static const GlStructField skey_fields[] = {
	{S("a"), &t_int32, 0, false},
	{S("_"), &t_int32, 4, false},
	{S("s"), &t_string, 8, false},
	{S("f"), &t_float64, 24, false},
};
static const GlType t_skey = {
	.size = 32, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8, .hash = 0x7777,
	.str = S("main.K"), .equal = gl_structequal, .hashfn = gl_structhash,
	.fields = skey_fields, .nfields = 4,
};
typedef struct {
	int32_t a, blank;
	GlString s;
	double f;
} SKey;

/* struct { x interface{} } — hashing recurses through the interface */
static const GlStructField ikey_fields[] = {{S("x"), &t_eface, 0, false}};
static const GlType t_ikey = {
	.size = 16, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8, .hash = 0x8888,
	.str = S("main.T"), .equal = gl_structequal, .hashfn = gl_structhash,
	.fields = ikey_fields, .nfields = 1,
};

/* [200]byte keys and [300]byte / [2000]byte elems: stored indirectly */
static const GlType t_big200 = {
	.size = 200, .kind = GL_KIND_ARRAY, .align = 1, .tflag = GL_TFLAG_REGMEM,
	.str = S("[200]uint8"), .equal = gl_memequal, .hashfn = gl_memhash, .elem = &t_uint8, .len = 200,
};
static const GlType t_big300 = {
	.size = 300, .kind = GL_KIND_ARRAY, .align = 1, .tflag = GL_TFLAG_REGMEM,
	.str = S("[300]uint8"), .equal = gl_memequal, .hashfn = gl_memhash, .elem = &t_uint8, .len = 300,
};
static const GlType t_big2000 = {
	.size = 2000, .kind = GL_KIND_ARRAY, .align = 1, .tflag = GL_TFLAG_REGMEM,
	.str = S("[2000]uint8"), .equal = gl_memequal, .hashfn = gl_memhash, .elem = &t_uint8, .len = 2000,
};

/* [3]string: arrayhash over non-memory elements */
static const GlType t_arr3str = {
	.size = 48, .ptrdata = 40, .kind = GL_KIND_ARRAY, .align = 8,
	.str = S("[3]string"), .equal = gl_arrayequal, .hashfn = gl_arrayhash, .elem = &t_string, .len = 3,
};

/* A key type with a deliberately weak hash: its low 16 bits choose the
 * bucket, so the test controls collisions.  Not REGMEM, so the map takes the
 * generic path. */
static uintptr_t colhash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	(void)seed;
	uint64_t k = *(const uint64_t *)p;
	return (k & 0xffff) | ((k * 0x9e3779b97f4a7c15ull) & ~(uint64_t)0xffff);
}
static const GlType t_colkey = {
	.size = 8, .kind = GL_KIND_INT64, .align = 8, .str = S("main.Col"),
	.equal = gl_memequal, .hashfn = colhash,
};

/* A map type's bucket layout is glc's to emit (GlType.bucket); here each
 * map type gets one at start-up, sized as glc sizes it (8 tophash bytes,
 * 8 keys, 8 elems, the overflow word; a key or elem over 128 bytes is a
 * pointer), which makemap checks against its own — and with pointers
 * (through the overflow word, the last) only if a key or an elem has any:
 * else the buckets are noscan (map.c's ovflist).  No gcdata: every word
 * of ptrdata counts as a pointer, which this test's mallocgc ignores. */
static uint64_t bucketsize(const GlType *k, const GlType *e) {
	uint64_t ks = k->size > 128 ? 8 : k->size, es = e->size > 128 ? 8 : e->size;
	return 8 + 8 * (ks + es) + 8;
}
static uint64_t bucketptrdata(const GlType *k, const GlType *e) {
	bool ptrs = k->size > 128 || e->size > 128 || k->ptrdata != 0 || e->ptrdata != 0;
	return ptrs ? bucketsize(k, e) : 0;
}
#define MAPTYPE(name, k, e)                                                                          \
	static GlType name##_bucket = {.kind = GL_KIND_STRUCT, .align = 8, .str = S("bucket")};       \
	static const GlType name = {.size = 8, .ptrdata = 8, .kind = GL_KIND_MAP, .align = 8, .str = S("map"), \
				    .key = k, .elem = e, .bucket = &name##_bucket};                \
	__attribute__((constructor)) static void name##_init(void) {                                  \
		name##_bucket.size = bucketsize(k, e);                                                \
		name##_bucket.ptrdata = bucketptrdata(k, e);                                          \
	}
MAPTYPE(m_int_int, &t_int64, &t_int64);
MAPTYPE(m_i32_int, &t_int32, &t_int64);
MAPTYPE(m_str_int, &t_string, &t_int64);
MAPTYPE(m_f64_int, &t_float64, &t_int64);
MAPTYPE(m_skey_int, &t_skey, &t_int64);
MAPTYPE(m_eface_int, &t_eface, &t_int64);
MAPTYPE(m_ikey_int, &t_ikey, &t_int64);
MAPTYPE(m_big_big, &t_big200, &t_big300);
MAPTYPE(m_int_big2000, &t_int64, &t_big2000);
MAPTYPE(m_arr_int, &t_arr3str, &t_int64);
MAPTYPE(m_col_int, &t_colkey, &t_int64);
MAPTYPE(m_ptr_str, &t_ptrint, &t_string);

/* hmap's first fields, for white-box checks of growth state */
static uint8_t hflags(GlMap *m) { return ((uint8_t *)m)[8]; }
static uint8_t hB(GlMap *m) { return ((uint8_t *)m)[9]; }
static uint16_t hnoverflow(GlMap *m) { uint16_t v; memcpy(&v, (uint8_t *)m + 10, 2); return v; }
#define SAMESIZEGROW 8

/* ---- helpers ---- */

static G *g = &theG;

static int64_t *put(const GlType *mt, GlMap *m, const void *k) {
	int64_t *e = mapassign(g, mt, m, k);
	if (e == NULL) {
		fprintf(stderr, "mapassign returned NULL\nFAIL\n");
		exit(1);
	}
	return e;
}

static void setint(const GlType *mt, GlMap *m, const void *k, int64_t v) { *put(mt, m, k) = v; }

static int64_t *get(const GlType *mt, GlMap *m, const void *k) { return mapaccess2(g, mt, m, k); }

/* Keys i*KMUL + KADD are distinct for distinct i and map back with KINV. */
#define KMUL 0x9e3779b97f4a7c15ull
#define KADD 0x5bd1e995ull
static uint64_t KINV;
static int64_t ikey(uint64_t i) { return (int64_t)(i * KMUL + KADD); }
static uint64_t iindex(int64_t k) { return ((uint64_t)k - KADD) * KINV; }

static GlString mkstr(const char *fmt, long v) {
	char buf[64];
	int n = snprintf(buf, sizeof buf, fmt, v);
	uint8_t *p = malloc((size_t)n + 1); /* NUL after the bytes, for strtol */
	memcpy(p, buf, (size_t)n + 1);
	return (GlString){p, n};
}

static uint64_t rnd(void) { return (uint64_t)fastrand() << 32 | fastrand(); }

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- tests ---- */

static void test_ints(void) {
	enum { N = 1000000 };
	GlMap *m = makemap(g, &m_int_int, 0);
	uint8_t *seen = calloc(N, 1);
	for (uint64_t i = 0; i < N; i++) {
		int64_t k = ikey(i);
		setint(&m_int_int, m, &k, (int64_t)i);
	}
	CHECK(maplen(m) == N, "len %lld", (long long)maplen(m));
	/* overwrite keeps the length */
	for (uint64_t i = 0; i < N; i += 7) {
		int64_t k = ikey(i);
		*put(&m_int_int, m, &k) += 1000000000;
	}
	CHECK(maplen(m) == N, "len after overwrite %lld", (long long)maplen(m));
	for (uint64_t i = 0; i < N; i++) {
		int64_t k = ikey(i), want = (int64_t)i + (i % 7 == 0 ? 1000000000 : 0);
		int64_t *e = get(&m_int_int, m, &k);
		CHECK(e != NULL && *e == want, "lookup %llu", (unsigned long long)i);
		CHECK(*(int64_t *)mapaccess1(g, &m_int_int, m, &k) == want, "access1 %llu", (unsigned long long)i);
	}
	for (uint64_t i = N; i < 2 * N; i++) {
		int64_t k = ikey(i);
		CHECK(get(&m_int_int, m, &k) == NULL, "absent %llu found", (unsigned long long)i);
		CHECK(*(int64_t *)mapaccess1(g, &m_int_int, m, &k) == 0, "absent access1");
	}
	for (uint64_t i = 0; i < N; i += 3) {
		int64_t k = ikey(i);
		mapdelete(g, &m_int_int, m, &k);
	}
	int64_t left = N - (N + 2) / 3;
	CHECK(maplen(m) == left, "len after delete %lld want %lld", (long long)maplen(m), (long long)left);
	for (uint64_t i = 0; i < N; i++) {
		int64_t k = ikey(i);
		int64_t *e = get(&m_int_int, m, &k);
		CHECK((e != NULL) == (i % 3 != 0), "after delete %llu", (unsigned long long)i);
	}
	/* iteration: each present key exactly once, with its elem */
	GlMapIter it;
	int64_t n = 0;
	for (mapiterinit(g, &m_int_int, m, &it); it.key != NULL; mapiternext(&it)) {
		uint64_t i = iindex(*(int64_t *)it.key);
		CHECK(i < N && i % 3 != 0 && !seen[i], "iter key %llu", (unsigned long long)i);
		if (i < N) {
			seen[i] = 1;
			CHECK(*(int64_t *)it.elem == (int64_t)i + (i % 7 == 0 ? 1000000000 : 0), "iter elem");
		}
		n++;
	}
	CHECK(n == left, "iterated %lld want %lld", (long long)n, (long long)left);
	/* deleted slots read as zero when reused */
	for (uint64_t i = 0; i < N; i += 3) {
		int64_t k = ikey(i);
		CHECK(*put(&m_int_int, m, &k) == 0, "reused slot not zero");
	}
	mapclear(g, &m_int_int, m);
	CHECK(maplen(m) == 0, "len after clear");
	int64_t k0 = ikey(1);
	CHECK(get(&m_int_int, m, &k0) == NULL, "found after clear");
	mapiterinit(g, &m_int_int, m, &it);
	CHECK(it.key == NULL, "iteration after clear");
	free(seen);
}

/* Iterate while deleting: the visited key and another random one each
 * step.  Every key present throughout must come exactly once; no deleted
 * key may come after its deletion.  Run on a settled map and on one that
 * is in the middle of growing. */
static void iter_delete(int grow) {
	enum { N = 20000 };
	static uint8_t seen[2 * N], deleted[2 * N];
	memset(seen, 0, sizeof seen);
	memset(deleted, 0, sizeof deleted);
	GlMap *m = makemap(g, &m_int_int, 0);
	int64_t n = grow ? 13 * 1024 + 1 : N; /* 13*1024 = 6.5 * 2^11: the next insert grows */
	for (int64_t i = 0; i < n; i++) {
		int64_t k = ikey((uint64_t)i);
		setint(&m_int_int, m, &k, i);
	}
	if (grow)
		CHECK(hB(m) == 12, "B = %d: not growing", hB(m));
	GlMapIter it;
	int64_t visits = 0;
	for (mapiterinit(g, &m_int_int, m, &it); it.key != NULL; mapiternext(&it)) {
		uint64_t i = iindex(*(int64_t *)it.key);
		CHECK(i < (uint64_t)n, "bad key");
		if (i >= (uint64_t)n)
			continue;
		CHECK(!seen[i], "key %llu twice", (unsigned long long)i);
		CHECK(!deleted[i], "deleted key %llu produced", (unsigned long long)i);
		CHECK(*(int64_t *)it.elem == (int64_t)i, "elem");
		seen[i] = 1;
		visits++;
		int64_t k = ikey(i);
		mapdelete(g, &m_int_int, m, &k);
		deleted[i] = 1;
		uint64_t j = rnd() % (uint64_t)n;
		if (!seen[j] && !deleted[j]) {
			int64_t kj = ikey(j);
			mapdelete(g, &m_int_int, m, &kj);
			deleted[j] = 1;
		}
	}
	for (int64_t i = 0; i < n; i++)
		CHECK(seen[i] || deleted[i], "key %lld never produced", (long long)i);
	CHECK(maplen(m) == 0, "len %lld after deleting all", (long long)maplen(m));
	(void)visits;
}

/* Iterate while inserting (which grows the map several times), deleting
 * keys not yet reached and updating elems: every original key that is not
 * deleted comes exactly once with its latest elem, deleted ones never, new
 * keys at most once.  Int keys, and string keys (whose old buckets must not
 * be cleared while an iterator may read them). */
static GlString *strkeys;

static void mkkey(int kind, uint64_t i, void *k) {
	if (kind == 0)
		*(int64_t *)k = ikey(i);
	else
		*(GlString *)k = strkeys[i];
}

static uint64_t keyindex(int kind, const void *k) {
	if (kind == 0)
		return iindex(*(const int64_t *)k);
	return (uint64_t)strtol((const char *)((const GlString *)k)->ptr + 1, NULL, 10);
}

static void iter_insert(int kind) {
	enum { N = 5000, MAXNEW = 200000 };
	static uint8_t seen[N + MAXNEW], deleted[N];
	static int64_t val[N];
	memset(seen, 0, sizeof seen);
	memset(deleted, 0, sizeof deleted);
	if (kind == 1 && strkeys == NULL) {
		strkeys = malloc((N + MAXNEW) * sizeof *strkeys);
		for (long i = 0; i < N + MAXNEW; i++)
			strkeys[i] = mkstr("k%ld", i);
	}
	const GlType *mt = kind == 0 ? &m_int_int : &m_str_int;
	GlMap *m = makemap(g, mt, 0);
	union {
		int64_t i;
		GlString s;
	} k;
	for (uint64_t i = 0; i < N; i++) {
		mkkey(kind, i, &k);
		setint(mt, m, &k, (int64_t)i);
		val[i] = (int64_t)i;
	}
	uint64_t next = N;
	int grows = 0, ndeleted = 0;
	uint8_t lastB = hB(m);
	GlMapIter it;
	for (mapiterinit(g, mt, m, &it); it.key != NULL; mapiternext(&it)) {
		uint64_t i = keyindex(kind, it.key);
		CHECK(i < next, "unknown key");
		if (i >= next)
			continue;
		CHECK(!seen[i], "key %llu twice", (unsigned long long)i);
		seen[i] = 1;
		if (i < N) {
			CHECK(!deleted[i], "deleted key %llu produced", (unsigned long long)i);
			CHECK(*(int64_t *)it.elem == val[i], "elem of %llu: %lld, want %lld", (unsigned long long)i,
			      (long long)*(int64_t *)it.elem, (long long)val[i]);
		}
		for (int r = 0; r < 10 && next < N + MAXNEW; r++, next++) {
			mkkey(kind, next, &k);
			setint(mt, m, &k, (int64_t)next);
		}
		uint64_t j = rnd() % N;
		if (!seen[j] && !deleted[j]) {
			mkkey(kind, j, &k);
			if (rnd() % 2) {
				mapdelete(g, mt, m, &k);
				deleted[j] = 1;
				ndeleted++;
			} else {
				val[j] += 1000000;
				*put(mt, m, &k) = val[j];
			}
		}
		if (hB(m) != lastB) {
			grows++;
			lastB = hB(m);
		}
	}
	for (uint64_t i = 0; i < N; i++)
		CHECK(seen[i] || deleted[i], "original key %llu missed", (unsigned long long)i);
	CHECK(grows >= 3, "only %d growths during iteration", grows);
	CHECK(maplen(m) == (int64_t)next - ndeleted, "len");
}

/* Two iterations of one map start in different places. */
static void iter_random(void) {
	GlMap *m = makemap(g, &m_int_int, 0);
	for (int64_t i = 0; i < 100; i++)
		setint(&m_int_int, m, &i, i);
	int64_t first[2][100];
	int differ = 0;
	for (int trial = 0; trial < 20 && !differ; trial++) {
		for (int r = 0; r < 2; r++) {
			GlMapIter it;
			int n = 0;
			for (mapiterinit(g, &m_int_int, m, &it); it.key != NULL; mapiternext(&it))
				first[r][n++] = *(int64_t *)it.key;
			CHECK(n == 100, "iterated %d", n);
		}
		differ = memcmp(first[0], first[1], sizeof first[0]) != 0 && first[0][0] != first[1][0];
	}
	CHECK(differ, "20 pairs of iterations all in the same order");
	/* a one-bucket map is randomised too (the slot offset) */
	GlMap *s = makemap(g, &m_int_int, 0);
	for (int64_t i = 0; i < 8; i++)
		setint(&m_int_int, s, &i, i);
	int starts = 0;
	for (int trial = 0; trial < 64; trial++) {
		GlMapIter it;
		mapiterinit(g, &m_int_int, s, &it);
		starts |= 1 << *(int64_t *)it.key;
	}
	CHECK(__builtin_popcount(starts) >= 4, "small map starts at only %d keys", __builtin_popcount(starts));
}

static void test_nan(void) {
	GlMap *m = makemap(g, &m_f64_int, 0);
	double nan = NAN, pz = 0.0, nz = -0.0;
	for (int i = 1; i <= 3; i++)
		setint(&m_f64_int, m, &nan, i);
	CHECK(maplen(m) == 3, "3 NaN inserts give len %lld", (long long)maplen(m));
	CHECK(get(&m_f64_int, m, &nan) == NULL, "NaN found");
	CHECK(*(int64_t *)mapaccess1(g, &m_f64_int, m, &nan) == 0, "NaN access1");
	mapdelete(g, &m_f64_int, m, &nan);
	CHECK(maplen(m) == 3, "NaN deleted");
	/* +0 and -0 are one key; the newest key is kept */
	setint(&m_f64_int, m, &pz, 10);
	setint(&m_f64_int, m, &nz, 20);
	CHECK(maplen(m) == 4, "+0/-0 are two keys");
	CHECK(*get(&m_f64_int, m, &pz) == 20, "m[+0]");
	int sum = 0, nans = 0, zeros = 0;
	GlMapIter it;
	for (mapiterinit(g, &m_f64_int, m, &it); it.key != NULL; mapiternext(&it)) {
		double k = *(double *)it.key;
		if (k != k) {
			nans++;
			sum += (int)*(int64_t *)it.elem;
		} else {
			zeros++;
			CHECK(k == 0 && signbit(k), "zero key should be the last stored, -0");
		}
	}
	CHECK(nans == 3 && sum == 6 && zeros == 1, "iteration nans %d sum %d zeros %d", nans, sum, zeros);
	/* NaNs through growth, and iteration during growth */
	for (int i = 0; i < 2000; i++) {
		double f = i + 0.5;
		setint(&m_f64_int, m, &f, i);
		if (i % 10 == 0)
			setint(&m_f64_int, m, &nan, 100);
	}
	int64_t want = 4 + 2000 + 200;
	CHECK(maplen(m) == want, "len %lld", (long long)maplen(m));
	for (int i = 0; i < 2000; i++) {
		double f = i + 0.5;
		int64_t *e = get(&m_f64_int, m, &f);
		CHECK(e && *e == i, "float key %d", i);
	}
	/* Start iterating just as the map starts to grow, then keep inserting,
	 * which drives the evacuation under the iterator: old buckets are split
	 * while it walks them, NaNs by their tophash bit.  Every entry that was
	 * there at the start must come exactly once. */
	uint8_t B0 = hB(m);
	int64_t added = 0;
	while (hB(m) == B0) {
		double f = 5e5 + added;
		setint(&m_f64_int, m, &f, 1);
		if (added++ % 3 == 0)
			setint(&m_f64_int, m, &nan, 100);
	}
	int64_t wantnans = 0, wantnums = 0;
	for (mapiterinit(g, &m_f64_int, m, &it); it.key != NULL; mapiternext(&it)) {
		double k = *(double *)it.key;
		if (k != k)
			wantnans++;
		else
			wantnums++;
	}
	B0 = hB(m);
	while (hB(m) == B0) { /* the iteration above finished the growth: start another */
		double f = 7e5 + added++;
		setint(&m_f64_int, m, &f, 1);
		wantnums++;
		if (added % 3 == 0) {
			setint(&m_f64_int, m, &nan, 100);
			wantnans++;
		}
	}
	int64_t counted = 0, extra = 0;
	nans = 0;
	for (mapiterinit(g, &m_f64_int, m, &it); it.key != NULL; mapiternext(&it)) {
		double k = *(double *)it.key;
		if (k != k) {
			if (*(int64_t *)it.elem == 999)
				extra++;
			else
				nans++;
		} else if (k >= 1e6) {
			extra++;
		} else {
			counted++;
		}
		double f = 1e6 + counted + nans + extra;
		setint(&m_f64_int, m, &f, 0);
		setint(&m_f64_int, m, &nan, 999);
	}
	CHECK(counted == wantnums && nans == wantnans, "NaN iteration during growth: %lld numbers, %lld NaNs; want %lld, %lld",
	      (long long)counted, (long long)nans, (long long)wantnums, (long long)wantnans);
	mapclear(g, &m_f64_int, m);
	CHECK(maplen(m) == 0, "clear");
	mapiterinit(g, &m_f64_int, m, &it);
	CHECK(it.key == NULL, "NaNs survive clear");
}

static void test_nil(void) {
	int64_t k = 5;
	CHECK(maplen(NULL) == 0, "len(nil)");
	int64_t *z = mapaccess1(g, &m_int_int, NULL, &k);
	CHECK(z != NULL && *z == 0, "nil access1");
	CHECK(mapaccess2(g, &m_int_int, NULL, &k) == NULL, "nil access2");
	mapdelete(g, &m_int_int, NULL, &k);
	mapclear(g, &m_int_int, NULL);
	GlMapIter it;
	memset(&it, 0xff, sizeof it);
	mapiterinit(g, &m_int_int, NULL, &it);
	CHECK(it.key == NULL, "nil iteration");
	CHECK(mapassign(g, &m_int_int, NULL, &k) == NULL, "nil assign returned a slot");
	const char *p = takepanic();
	CHECK(strcmp(p, "assignment to entry in nil map") == 0, "nil assign panic %s", p);
	CHECK(takepanic()[0] == 0 && npanics == 1, "other panics");
	/* large zero value */
	uint8_t *zb = mapaccess1(g, &m_int_big2000, NULL, &k);
	int nz = 0;
	for (int i = 0; i < 2000; i++)
		nz += zb[i] != 0;
	CHECK(nz == 0, "big zero value");
}


static void test_strings(void) {
	enum { N = 100000 };
	GlMap *m = makemap(g, &m_str_int, N);
	for (long i = 0; i < N; i++) {
		GlString s = mkstr("key-%ld", i);
		setint(&m_str_int, m, &s, i);
	}
	GlString empty = {NULL, 0};
	setint(&m_str_int, m, &empty, -1);
	CHECK(maplen(m) == N + 1, "len");
	for (long i = 0; i < N; i++) {
		GlString s = mkstr("key-%ld", i); /* another copy of the bytes */
		int64_t *e = get(&m_str_int, m, &s);
		CHECK(e && *e == i, "string %ld", i);
		GlString t = mkstr("kez-%ld", i);
		CHECK(get(&m_str_int, m, &t) == NULL, "absent string");
		if (i % 2)
			mapdelete(g, &m_str_int, m, &s);
	}
	CHECK(*get(&m_str_int, m, &empty) == -1, "empty string key");
	CHECK(maplen(m) == N / 2 + 1, "len after delete");
	int64_t n = 0;
	GlMapIter it;
	for (mapiterinit(g, &m_str_int, m, &it); it.key != NULL; mapiternext(&it))
		n++;
	CHECK(n == N / 2 + 1, "iterated %lld", (long long)n);
	/* long strings: the folding loop */
	static uint8_t big[1000];
	for (int i = 0; i < 1000; i++)
		big[i] = (uint8_t)i;
	GlMap *lm = makemap(g, &m_str_int, 0);
	for (int l = 0; l <= 1000; l++) {
		GlString s = {big, l};
		setint(&m_str_int, lm, &s, l);
	}
	CHECK(maplen(lm) == 1001, "prefix strings len %lld", (long long)maplen(lm));
	for (int l = 0; l <= 1000; l++) {
		GlString s = {big, l};
		int64_t *e = get(&m_str_int, lm, &s);
		CHECK(e && *e == l, "prefix string %d", l);
	}
}

static void test_structs(void) {
	GlMap *m = makemap(g, &m_skey_int, 0);
	for (int i = 0; i < 5000; i++) {
		SKey k = {.a = i % 100, .blank = i, .s = mkstr("%ld", i / 100), .f = i % 2 ? 0.0 : (double)i};
		setint(&m_skey_int, m, &k, i);
	}
	CHECK(maplen(m) == 5000, "len %lld", (long long)maplen(m));
	for (int i = 0; i < 5000; i++) {
		/* the blank field differs and 0.0 is looked up as -0.0: still equal */
		SKey k = {.a = i % 100, .blank = -i, .s = mkstr("%ld", i / 100), .f = i % 2 ? -0.0 : (double)i};
		int64_t *e = get(&m_skey_int, m, &k);
		CHECK(e && *e == i, "struct key %d", i);
		k.f = i % 2 ? 1.0 : i + 0.25;
		CHECK(get(&m_skey_int, m, &k) == NULL, "struct key %d with other f", i);
	}
	SKey nk = {.a = 1, .s = mkstr("%ld", 1), .f = NAN};
	setint(&m_skey_int, m, &nk, 1);
	setint(&m_skey_int, m, &nk, 2);
	CHECK(maplen(m) == 5002, "struct with NaN field: each insert is new");
	/* arrays of strings */
	GlMap *am = makemap(g, &m_arr_int, 0);
	for (int i = 0; i < 1000; i++) {
		GlString a[3] = {mkstr("%ld", i), mkstr("%ld", i / 10), mkstr("%ld", i % 7)};
		setint(&m_arr_int, am, a, i);
	}
	for (int i = 0; i < 1000; i++) {
		GlString a[3] = {mkstr("%ld", i), mkstr("%ld", i / 10), mkstr("%ld", i % 7)};
		int64_t *e = get(&m_arr_int, am, a);
		CHECK(e && *e == i, "array key %d", i);
	}
}

static void test_interfaces(void) {
	GlMap *m = makemap(g, &m_eface_int, 0);
	static int64_t ints[1000], ints2[1000];
	static int64_t targets[10];
	for (int i = 0; i < 1000; i++) {
		ints[i] = i;
		ints2[i] = i;
		GlEface e = {&t_int64, &ints[i]};
		setint(&m_eface_int, m, &e, i);
	}
	for (int i = 0; i < 10; i++) {
		GlEface e = {&t_ptrint, &targets[i]}; /* direct: the pointer is the data word */
		setint(&m_eface_int, m, &e, 5000 + i);
	}
	GlEface nilk = {NULL, NULL};
	setint(&m_eface_int, m, &nilk, -7);
	GlString hello = S("hello");
	GlEface se = {&t_string, &hello};
	setint(&m_eface_int, m, &se, 77);
	CHECK(maplen(m) == 1012, "len %lld", (long long)maplen(m));
	for (int i = 0; i < 1000; i++) {
		GlEface e = {&t_int64, &ints2[i]}; /* another box holding the same value */
		int64_t *v = get(&m_eface_int, m, &e);
		CHECK(v && *v == i, "interface key %d", i);
		int32_t i32 = i;
		GlEface e32 = {&t_int32, &i32}; /* same number, other type */
		CHECK(get(&m_eface_int, m, &e32) == NULL, "int32(%d) found as int64", i);
	}
	for (int i = 0; i < 10; i++) {
		GlEface e = {&t_ptrint, &targets[i]};
		int64_t *v = get(&m_eface_int, m, &e);
		CHECK(v && *v == 5000 + i, "pointer key %d", i);
	}
	CHECK(*get(&m_eface_int, m, &nilk) == -7, "nil interface key");
	GlString hello2 = {(const uint8_t *)"hello world", 5};
	GlEface se2 = {&t_string, &hello2};
	CHECK(get(&m_eface_int, m, &se2) && *get(&m_eface_int, m, &se2) == 77, "string in interface");

	/* unhashable dynamic type: every operation panics */
	GlSlice sl = {NULL, 0, 0};
	GlEface bad = {&t_sliceint, &sl};
	int64_t before = maplen(m);
	CHECK(mapassign(g, &m_eface_int, m, &bad) == NULL, "assign of unhashable key");
	const char *p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "assign panic '%s'", p);
	mapaccess1(g, &m_eface_int, m, &bad);
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "access panic '%s'", p);
	mapdelete(g, &m_eface_int, m, &bad);
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "delete panic '%s'", p);
	CHECK(maplen(m) == before, "len changed by a panicking assign");
	/* even on an empty or nil map */
	GlMap *em = makemap(g, &m_eface_int, 0);
	CHECK(mapaccess2(g, &m_eface_int, em, &bad) == NULL, "empty map access");
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "empty map panic '%s'", p);
	mapaccess1(g, &m_eface_int, NULL, &bad);
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "nil map panic '%s'", p);
	/* nested: struct { x any } holding a slice */
	GlMap *im = makemap(g, &m_ikey_int, 0);
	GlEface inner = {&t_int64, &ints[3]};
	setint(&m_ikey_int, im, &inner, 3);
	CHECK(*get(&m_ikey_int, im, &inner) == 3, "struct{any} key");
	CHECK(mapassign(g, &m_ikey_int, im, &bad) == NULL, "nested unhashable");
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "nested panic '%s'", p);

	/* == on interfaces */
	GlEface a = {&t_int64, &ints[5]}, b = {&t_int64, &ints2[5]}, c = {&t_int64, &ints[6]};
	CHECK(efaceeq(g, a, b) && !efaceeq(g, a, c), "efaceeq ints");
	CHECK(efaceeq(g, nilk, nilk) && !efaceeq(g, nilk, a), "efaceeq nil");
	GlSlice sl2 = {NULL, 0, 0};
	GlEface bad2 = {&t_sliceint, &sl2};
	CHECK(!efaceeq(g, bad, a) && takepanic()[0] == 0, "different types compare without panic");
	CHECK(!efaceeq(g, bad, bad2), "slices compare false");
	p = takepanic();
	CHECK(strcmp(p, "runtime error: comparing uncomparable type []int") == 0, "compare panic '%s'", p);
	double nan = NAN;
	GlEface fn = {&t_float64, &nan};
	CHECK(!efaceeq(g, fn, fn), "NaN in interface equals itself");
	/* non-empty interfaces: itab */
	static GlItab itab_int = {.inter = &t_eface, .type = &t_int64};
	static GlItab itab_int_dup = {.inter = &t_eface, .type = &t_int64};
	static GlItab itab_slice = {.inter = &t_eface, .type = &t_sliceint};
	GlIface ia = {&itab_int, &ints[5]}, ib = {&itab_int_dup, &ints2[5]}, is = {&itab_slice, &sl};
	CHECK(ifaceeq(g, ia, ib), "ifaceeq across itabs");
	CHECK(gl_ifaceequal(NULL, &ia, &ib) && gl_ifacehash(NULL, &ia, 1) == gl_ifacehash(NULL, &ib, 1), "iface hash/equal");
	CHECK(!ifaceeq(g, is, is), "ifaceeq slices");
	p = takepanic();
	CHECK(strcmp(p, "runtime error: comparing uncomparable type []int") == 0, "iface compare panic '%s'", p);
	gl_ifacehash(NULL, &is, 0);
	p = takepanic();
	CHECK(strcmp(p, "runtime error: hash of unhashable type []int") == 0, "iface hash panic '%s'", p);
}

static void test_big(void) {
	GlMap *m = makemap(g, &m_big_big, 0);
	static uint8_t key[200], val[300];
	for (int i = 0; i < 3000; i++) {
		memset(key, 0, sizeof key);
		memcpy(key + 100, &i, sizeof i);
		uint8_t *e = mapassign(g, &m_big_big, m, key);
		CHECK(e[0] == 0 && e[299] == 0, "new big elem not zero");
		memset(e, i & 0xff, 300);
	}
	CHECK(maplen(m) == 3000, "len");
	for (int i = 0; i < 3000; i++) {
		memset(key, 0, sizeof key);
		memcpy(key + 100, &i, sizeof i);
		uint8_t *e = mapaccess2(g, &m_big_big, m, key);
		CHECK(e && e[0] == (i & 0xff) && e[299] == (i & 0xff), "big key %d", i);
		if (i % 2)
			mapdelete(g, &m_big_big, m, key);
	}
	CHECK(maplen(m) == 1500, "len after delete");
	int n = 0;
	GlMapIter it;
	for (mapiterinit(g, &m_big_big, m, &it); it.key != NULL; mapiternext(&it)) {
		int i;
		memcpy(&i, (uint8_t *)it.key + 100, sizeof i);
		CHECK(i % 2 == 0 && ((uint8_t *)it.elem)[150] == (i & 0xff), "big iteration %d", i);
		n++;
	}
	CHECK(n == 1500, "big iterated %d", n);
	(void)val;
	/* absent large elem: the shared zero block */
	GlMap *bm = makemap(g, &m_int_big2000, 0);
	int64_t k = 3;
	uint8_t *e = mapassign(g, &m_int_big2000, bm, &k);
	memset(e, 1, 2000);
	k = 4;
	uint8_t *z = mapaccess1(g, &m_int_big2000, bm, &k);
	int nz = 0;
	for (int i = 0; i < 2000; i++)
		nz += z[i] != 0;
	CHECK(nz == 0, "absent big elem not zero");
}

/* The write barrier (runtime/mbarrier.c): every copy and clear a map
 * makes of a key or elem slot that can hold pointers reaches
 * bulkBarrierPreWrite, with the slot and the range; maps of scalars never
 * do, not even clear(m): their buckets are noscan (map.c), and a map with
 * pointers clears its bucket array under one barrier. */
extern void (*gcWriteBarrierTestHook)(int kind, uintptr_t dst, uintptr_t src, uintptr_t size);
static int nbar, nbarbad;
static uintptr_t bardst, barsrc, barsize;

static void barhook(int kind, uintptr_t dst, uintptr_t src, uintptr_t size) {
	nbar++;
	nbarbad += kind != 0; /* GL_BARRIER_BULK */
	bardst = dst;
	barsrc = src;
	barsize = size;
}

static void test_barrier(void) {
	gcWriteBarrierTestHook = barhook;
	GlMap *m = makemap(g, &m_int_int, 0);
	nbar = 0;
	for (int64_t i = 0; i < 2000; i++)
		setint(&m_int_int, m, &i, i);
	for (int64_t i = 0; i < 2000; i += 2)
		mapdelete(g, &m_int_int, m, &i);
	CHECK(nbar == 0, "int map: %d barriers", nbar);
	mapclear(g, &m_int_int, m);
	CHECK(nbar == 0, "clear(m), scalars: no barrier (noscan buckets; %d)", nbar);

	/* string keys: a new key, an update of the key, a delete */
	GlMap *sm = makemap(g, &m_str_int, 0);
	GlString k1 = S("key"), k2 = S("key");
	nbar = 0;
	setint(&m_str_int, sm, &k1, 1);
	CHECK(nbar == 1 && barsrc == (uintptr_t)&k1 && barsize == 8, "string key inserted: one barrier (%d)", nbar);
	uintptr_t slot = bardst;
	setint(&m_str_int, sm, &k2, 2);
	CHECK(nbar == 2 && bardst == slot && barsrc == (uintptr_t)&k2, "string key updated: one barrier (%d)", nbar);
	mapdelete(g, &m_str_int, sm, &k1);
	CHECK(nbar == 3 && bardst == slot && barsrc == 0 && barsize == 16, "string key deleted: one clearing barrier");
	nbar = 0;
	for (int i = 0; i < 1000; i++) {
		GlString k = mkstr("s%ld", i);
		setint(&m_str_int, sm, &k, i);
	}
	CHECK(nbar > 1000 && nbarbad == 0, "string keys through growth: the inserts and the evacuations (%d)", nbar);
	nbar = 0;
	mapclear(g, &m_str_int, sm);
	CHECK(nbar == 1 && barsrc == 0 && barsize % m_str_int.bucket->size == 0, "clear(m): one barrier over the buckets");

	/* pointer keys, string elems: a delete clears both */
	GlMap *pm = makemap(g, &m_ptr_str, 0);
	int64_t x;
	int64_t *px = &x;
	nbar = 0;
	GlString *e = mapassign(g, &m_ptr_str, pm, &px);
	CHECK(nbar == 1 && barsrc == (uintptr_t)&px && barsize == 8, "pointer key inserted: one barrier");
	*e = S("v");
	mapdelete(g, &m_ptr_str, pm, &px);
	CHECK(nbar == 3 && bardst == (uintptr_t)e && barsrc == 0 && barsize == 16, "pointer key deleted: key and elem cleared");

	/* indirect keys and elems (no pointers in them): the slots are pointers */
	GlMap *bm = makemap(g, &m_big_big, 0);
	static uint8_t big[200];
	nbar = 0;
	mapassign(g, &m_big_big, bm, big);
	CHECK(nbar == 2 && barsize == 8, "indirect key and elem: a barrier for each slot's pointer (%d)", nbar);
	mapdelete(g, &m_big_big, bm, big);
	CHECK(nbar == 4 && barsrc == 0 && barsize == 8, "indirect key and elem deleted: two clearing barriers (%d)", nbar);
	CHECK(nbarbad == 0, "only bulkBarrierPreWrite");
	gcWriteBarrierTestHook = NULL;
}

/* Same-size growth: long collision chains, emptied by deletes, leave many
 * sparse overflow buckets; the map repacks them without doubling. */
static void test_samesize(void) {
	GlMap *m = makemap(g, &m_col_int, 0);
	/* group 0: 400 keys in bucket 0 */
	for (uint64_t s = 0; s < 400; s++) {
		int64_t k = (int64_t)(s << 16);
		setint(&m_col_int, m, &k, (int64_t)s);
	}
	uint8_t B = hB(m);
	CHECK(B == 6, "B = %d after 400 inserts", B);
	for (uint64_t s = 0; s < 400; s++) {
		int64_t k = (int64_t)(s << 16);
		mapdelete(g, &m_col_int, m, &k);
	}
	CHECK(maplen(m) == 0, "len");
	/* group 1: now the overflow count reaches the number of buckets */
	int sawsame = 0, itchecked = 0;
	for (uint64_t s = 0; s < 400; s++) {
		int64_t k = (int64_t)(s << 16 | 1);
		setint(&m_col_int, m, &k, (int64_t)s);
		if ((hflags(m) & SAMESIZEGROW) && !itchecked) {
			sawsame = 1;
			itchecked = 1;
			CHECK(hB(m) == B, "same-size growth changed B");
			/* iterate in the middle of the same-size growth */
			static uint8_t seen[400];
			int n = 0;
			GlMapIter it;
			for (mapiterinit(g, &m_col_int, m, &it); it.key != NULL; mapiternext(&it)) {
				uint64_t j = (uint64_t)*(int64_t *)it.key >> 16;
				CHECK(j <= s && !seen[j], "same-size iteration key %llu", (unsigned long long)j);
				seen[j] = 1;
				n++;
				/* keep the growth moving under the iterator */
				int64_t k2 = (int64_t)(j << 16 | 1);
				*put(&m_col_int, m, &k2) += 0;
			}
			CHECK(n == (int)s + 1, "same-size iteration saw %d of %d", n, (int)s + 1);
		}
	}
	CHECK(sawsame, "no same-size growth (noverflow %u, B %u)", hnoverflow(m), hB(m));
	CHECK(hB(m) == B, "B grew to %d", hB(m));
	CHECK(!(hflags(m) & SAMESIZEGROW), "growth never finished");
	for (uint64_t s = 0; s < 400; s++) {
		int64_t k = (int64_t)(s << 16 | 1);
		int64_t *e = get(&m_col_int, m, &k);
		CHECK(e && *e == (int64_t)s, "key %llu after same-size growth", (unsigned long long)s);
		k = (int64_t)(s << 16);
		CHECK(get(&m_col_int, m, &k) == NULL, "deleted key back");
	}
}

/* Random operations against a reference, with iterations (and deletes
 * and inserts inside them) thrown in. */
static void fuzz(const GlType *mt, int kind) {
	enum { U = 3000, OPS = 400000 };
	static int64_t ref[U];
	static uint8_t present[U], seen[U];
	memset(present, 0, sizeof present);
	GlMap *m = makemap(g, mt, (int64_t)(rnd() % 100));
	int64_t count = 0;
	union {
		int64_t i64;
		int32_t i32;
		GlString s;
	} k;
	static GlString strs[U];
	if (kind == 2 && strs[0].ptr == NULL)
		for (long i = 0; i < U; i++)
			strs[i] = mkstr("s%ld", i);
#define MKKEY(i) \
	(kind == 0 ? (void)(k.i64 = (int64_t)(i) << 16 | (int64_t)((i) % 5)) : kind == 1 ? (void)(k.i32 = (int32_t)(i)*7919) : (void)(k.s = strs[i]))
	for (int op = 0; op < OPS; op++) {
		uint64_t r = rnd();
		uint64_t i = (r >> 8) % U;
		MKKEY(i);
		switch (r % 8) {
		case 0: case 1: case 2:
			*put(mt, m, &k) = (int64_t)r;
			if (!present[i])
				count++;
			present[i] = 1;
			ref[i] = (int64_t)r;
			break;
		case 3: case 4:
			mapdelete(g, mt, m, &k);
			if (present[i])
				count--;
			present[i] = 0;
			break;
		case 5: case 6: {
			int64_t *e = get(mt, m, &k);
			CHECK((e != NULL) == present[i] && (!e || *e == ref[i]), "fuzz lookup kind %d op %d", kind, op);
			break;
		}
		case 7:
			if (r % 1000 == 7) {
				memset(seen, 0, sizeof seen);
				GlMapIter it;
				int64_t n = 0;
				for (mapiterinit(g, mt, m, &it); it.key != NULL; mapiternext(&it)) {
					uint64_t j = kind == 0 ? (uint64_t)*(int64_t *)it.key >> 16
						   : kind == 1 ? (uint64_t)(*(int32_t *)it.key / 7919)
							       : (uint64_t)strtol((const char *)((GlString *)it.key)->ptr + 1, NULL, 10);
					CHECK(j < U && present[j] && !seen[j] && *(int64_t *)it.elem == ref[j], "fuzz iteration kind %d", kind);
					if (j < U)
						seen[j] = 1;
					n++;
				}
				CHECK(n == count, "fuzz iterated %lld of %lld", (long long)n, (long long)count);
			}
			if (r % 5000 == 3) {
				mapclear(g, mt, m);
				memset(present, 0, sizeof present);
				count = 0;
			}
			break;
		}
		CHECK(maplen(m) == count, "fuzz len");
	}
#undef MKKEY
}

/* clear in the middle of an iteration ends it */
static void iter_clear(void) {
	GlMap *m = makemap(g, &m_int_int, 0);
	for (int64_t i = 0; i < 10000; i++)
		setint(&m_int_int, m, &i, i);
	/* and in the middle of a growth */
	for (int64_t i = 10000; i < 13 * 2048 + 1; i++)
		setint(&m_int_int, m, &i, i);
	GlMapIter it;
	int n = 0;
	for (mapiterinit(g, &m_int_int, m, &it); it.key != NULL; mapiternext(&it)) {
		if (++n == 100)
			mapclear(g, &m_int_int, m);
	}
	CHECK(n == 100, "iteration went on after clear: %d", n);
	for (int64_t i = 0; i < 100; i++)
		setint(&m_int_int, m, &i, i);
	CHECK(maplen(m) == 100, "reuse after clear");
	for (int64_t i = 0; i < 200; i++)
		CHECK((get(&m_int_int, m, &i) != NULL) == (i < 100), "after clear %lld", (long long)i);
	/* one long chain of separately allocated overflow buckets */
	for (int stop = 1; stop < 200; stop += 37) {
		GlMap *c = makemap(g, &m_col_int, 0);
		for (int64_t s = 0; s < 200; s++) {
			int64_t k = s << 16;
			setint(&m_col_int, c, &k, s);
		}
		n = 0;
		for (mapiterinit(g, &m_col_int, c, &it); it.key != NULL; mapiternext(&it))
			if (++n == stop)
				mapclear(g, &m_col_int, c);
		CHECK(n == stop, "chain iteration went on after clear: %d of %d", n, stop);
	}
}

static void test_hashes(void) {
	/* +0/-0 hash alike, NaN hashes differ */
	double pz = 0.0, nz = -0.0, nan = NAN;
	CHECK(gl_f64hash(NULL, &pz, 9) == gl_f64hash(NULL, &nz, 9), "f64 hash of -0");
	CHECK(gl_f64hash(NULL, &nan, 9) != gl_f64hash(NULL, &nan, 9), "NaN hash repeats");
	float fpz = 0.0f, fnz = -0.0f;
	CHECK(gl_f32hash(NULL, &fpz, 9) == gl_f32hash(NULL, &fnz, 9), "f32 hash of -0");
	CHECK(gl_f32equal(NULL, &fpz, &fnz), "f32 -0");
	double c1[2] = {0.0, 1.0}, c2[2] = {-0.0, 1.0};
	CHECK(gl_c128equal(NULL, c1, c2) && gl_c128hash(NULL, c1, 3) == gl_c128hash(NULL, c2, 3), "complex -0");
	/* seeds matter; every length hashes */
	uint8_t buf[300];
	for (int i = 0; i < 300; i++)
		buf[i] = (uint8_t)(i * 7);
	int same = 0;
	for (int n = 0; n < 300; n++) {
		GlString s = {buf, n};
		same += gl_strhash(NULL, &s, 1) == gl_strhash(NULL, &s, 2);
		GlString s2 = {buf, n};
		CHECK(gl_strhash(NULL, &s, 5) == gl_strhash(NULL, &s2, 5), "strhash not deterministic");
	}
	CHECK(same == 0, "seed ignored %d times", same);
	/* a flipped bit changes about half of the hash bits */
	int64_t totalbits = 0, trials = 0;
	for (int n = 1; n < 64; n++) {
		for (int bit = 0; bit < n * 8; bit += 5) {
			GlString s = {buf, n};
			uintptr_t h1 = gl_strhash(NULL, &s, 0);
			buf[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			uintptr_t h2 = gl_strhash(NULL, &s, 0);
			buf[bit / 8] ^= (uint8_t)(1 << (bit % 8));
			totalbits += __builtin_popcountll(h1 ^ h2);
			trials++;
		}
	}
	double avg = (double)totalbits / trials;
	CHECK(avg > 30 && avg < 34, "avalanche: %.2f bits of 64 change", avg);
	/* struct blank fields are skipped by hash and equality */
	SKey a = {.a = 1, .blank = 2, .s = S("x"), .f = 1.5}, b = a;
	b.blank = 3;
	CHECK(gl_structequal(&t_skey, &a, &b) && gl_structhash(&t_skey, &a, 4) == gl_structhash(&t_skey, &b, 4), "blank field");
	GlString x[3] = {S("a"), S("b"), S("c")}, y[3] = {S("a"), S("b"), S("d")};
	CHECK(!gl_arrayequal(&t_arr3str, x, y) && gl_arrayequal(&t_arr3str, x, x), "array equal");
}

/* Values nested through interfaces: T{T{...T{int}...}} with
 * type T struct{ x any }.  Hashing recurses once per level. */
typedef struct {
	GlEface x;
} TNest;

static GlEface nest(TNest *store, int depth, int64_t *leaf) {
	GlEface e = {&t_int64, leaf};
	for (int d = 0; d < depth; d++) {
		store[d].x = e;
		e = (GlEface){&t_ikey, &store[d]};
	}
	return e;
}

static void test_nesting(void) {
	static TNest s1[64], s2[64];
	static int64_t leaves[2][8];
	GlMap *m = makemap(g, &m_eface_int, 0);
	for (int d = 0; d < 8; d++) {
		leaves[0][d] = leaves[1][d] = d;
		GlEface e = nest(s1 + 8 * d, d, &leaves[0][d]);
		setint(&m_eface_int, m, &e, 100 + d);
	}
	for (int d = 0; d < 8; d++) {
		GlEface e = nest(s2 + 8 * d, d, &leaves[1][d]);
		int64_t *v = get(&m_eface_int, m, &e);
		CHECK(v && *v == 100 + d, "nested key depth %d", d);
		CHECK(efaceeq(g, e, nest(s1 + 8 * d, d, &leaves[0][d])), "nested == depth %d", d);
	}
	/* Too deep for the stack band: a throw, not a stack overflow.  Pretend
	 * the stack ends a little below here. */
	jmp_buf jb;
	volatile int threw = 0;
	GlEface deep = nest(s1, 64, &leaves[0][0]);
	uintptr_t savelo = theG.stack.lo;
	theG.stack.lo = GL_SP() - 1024;
	throwcatch = &jb;
	if (setjmp(jb) == 0)
		gl_efacehash(&t_eface, &deep, 0);
	else
		threw = 1;
	throwcatch = NULL;
	theG.stack.lo = savelo;
	CHECK(threw && strstr(thrown, "nested too deeply") != NULL, "deep nesting did not throw");
}

/* The key argument lives in the caller's frame; mallocgc may move the
 * stack under assign and delete (growth, overflow buckets, indirect keys).
 * A stale key pointer would read the poison. */
static void test_stackmove(void) {
	fakestack[0] = calloc(1, FAKESTACK);
	fakestack[1] = calloc(1, FAKESTACK);
	theG.stack.lo = (uintptr_t)fakestack[0];
	theG.stack.hi = (uintptr_t)fakestack[0] + FAKESTACK;
	const uintptr_t off = 256; /* the key's distance from stack.hi */
#define KEYSLOT ((void *)(theG.stack.hi - off))
	GlMap *m = makemap(g, &m_int_int, 0);
	GlMap *sm = makemap(g, &m_str_int, 0);
	GlMap *bm = makemap(g, &m_big_big, 0);
	GlMap *cm = makemap(g, &m_col_int, 0);
	movestacks = 1;
	for (int64_t i = 0; i < 20000; i++) {
		int64_t k = ikey((uint64_t)i);
		memcpy(KEYSLOT, &k, 8);
		*put(&m_int_int, m, KEYSLOT) = i;
		memcpy(KEYSLOT, &strkeys[i], sizeof(GlString));
		*put(&m_str_int, sm, KEYSLOT) = i;
		/* three long chains: evacuating them allocates overflow buckets,
		 * under assign and (every 4th key) under delete */
		int64_t ck = i << 16 | i % 3;
		memcpy(KEYSLOT, &ck, 8);
		*put(&m_col_int, cm, KEYSLOT) = i;
		if (i % 4 == 3) {
			ck = (i - 1) << 16 | (i - 1) % 3;
			memcpy(KEYSLOT, &ck, 8);
			mapdelete(g, &m_col_int, cm, KEYSLOT);
		}
		if (i < 2000) {
			memset(KEYSLOT, 0, 200);
			memcpy((uint8_t *)KEYSLOT + 100, &i, 8);
			*(int64_t *)mapassign(g, &m_big_big, bm, KEYSLOT) = i;
		}
	}
	/* deletes while growing: fill to just past a growth, then delete */
	for (int64_t i = 0; i < 20000; i += 2) {
		int64_t k = ikey((uint64_t)i);
		memcpy(KEYSLOT, &k, 8);
		mapdelete(g, &m_int_int, m, KEYSLOT);
		memcpy(KEYSLOT, &strkeys[i], sizeof(GlString));
		mapdelete(g, &m_str_int, sm, KEYSLOT);
	}
	/* a delete that evacuates a long chain (allocating) under the key */
	GlMap *dm = makemap(g, &m_col_int, 0);
	int deletes = 0;
	for (int64_t i = 0; i < 30000; i++) {
		uint8_t B = hB(dm);
		int64_t ck = i << 16 | i % 3;
		memcpy(KEYSLOT, &ck, 8);
		*put(&m_col_int, dm, KEYSLOT) = i;
		if (hB(dm) != B && i > 100) {
			/* this insert evacuated chains 0 and i%3; delete from another */
			int64_t c = i % 3 == 1 ? 2 : 1, j = i - 3 + (c - (i - 3) % 3 + 3) % 3;
			ck = j << 16 | c;
			memcpy(KEYSLOT, &ck, 8);
			int moves = nmoves;
			mapdelete(g, &m_col_int, dm, KEYSLOT);
			CHECK(nmoves > moves + 1, "delete did not allocate");
			CHECK(get(&m_col_int, dm, &ck) == NULL, "key %lld not deleted under a stack move", (long long)j);
			deletes++;
		}
	}
	CHECK(deletes >= 3, "only %d deletes during growth", deletes);
	movestacks = 0;
	CHECK(nmoves > 100, "only %d stack moves", nmoves);
	CHECK(maplen(m) == 10000 && maplen(sm) == 10000 && maplen(cm) == 15000 && maplen(bm) == 2000,
	      "lens %lld %lld %lld %lld", (long long)maplen(m), (long long)maplen(sm), (long long)maplen(cm), (long long)maplen(bm));
	for (int64_t i = 0; i < 20000; i++) {
		int64_t k = ikey((uint64_t)i);
		int64_t *e = get(&m_int_int, m, &k);
		CHECK((i % 2 == 0) ? e == NULL : (e && *e == i), "int key %lld after stack moves", (long long)i);
		e = get(&m_str_int, sm, &strkeys[i]);
		CHECK((i % 2 == 0) ? e == NULL : (e && *e == i), "string key %lld after stack moves", (long long)i);
		int64_t ck = i << 16 | i % 3;
		e = get(&m_col_int, cm, &ck);
		CHECK((i % 4 == 2) ? e == NULL : (e && *e == i), "generic key %lld after stack moves", (long long)i);
	}
	static uint8_t key[200];
	for (int64_t i = 0; i < 2000; i++) {
		memset(key, 0, sizeof key);
		memcpy(key + 100, &i, 8);
		int64_t *e = mapaccess2(g, &m_big_big, bm, key);
		CHECK(e && *e == i, "indirect key %lld after stack moves", (long long)i);
	}
#undef KEYSLOT
	theG.stack.lo = theG.stack.hi = 0;
}

static void bench(void) {
	enum { N = 1000000 };
	double best_ins = 1e9, best_get = 1e9;
	for (int rep = 0; rep < 5; rep++) {
		double t0 = now();
		GlMap *m = makemap(g, &m_int_int, 0);
		for (int64_t i = 0; i < N; i++)
			*(int64_t *)mapassign(g, &m_int_int, m, &i) = i;
		double t1 = now();
		int64_t sum = 0;
		for (int64_t i = 0; i < N; i++)
			sum += *(int64_t *)mapaccess1(g, &m_int_int, m, &i);
		double t2 = now();
		CHECK(sum == (int64_t)N * (N - 1) / 2, "bench sum");
		if (t1 - t0 < best_ins)
			best_ins = t1 - t0;
		if (t2 - t1 < best_get)
			best_get = t2 - t1;
	}
	printf("bench: 1M int inserts %.1f ms (%.1f ns/op), 1M lookups %.1f ms (%.1f ns/op), total %.1f ms (best of 5)\n",
	       best_ins * 1e3, best_ins * 1e9 / N, best_get * 1e3, best_get * 1e9 / N, (best_ins + best_get) * 1e3);
}

int main(int argc, char **argv) {
	alginit();
	KINV = KMUL;
	for (int i = 0; i < 6; i++) /* Newton: KINV = 1/KMUL mod 2^64 */
		KINV *= 2 - KMUL * KINV;
	if (argc > 1 && strcmp(argv[1], "bench") == 0) {
		bench();
		return failures != 0;
	}
	test_hashes();
	test_nil();
	test_ints();
	iter_delete(0);
	iter_delete(1);
	iter_insert(0);
	iter_insert(1);
	iter_random();
	iter_clear();
	test_nan();
	test_strings();
	test_structs();
	test_interfaces();
	test_nesting();
	test_big();
	test_samesize();
	test_stackmove();
	test_barrier();
	for (int rep = 0; rep < 3; rep++) {
		fuzz(&m_col_int, 0);
		fuzz(&m_i32_int, 1);
		fuzz(&m_str_int, 2);
	}
	bench();
	if (failures) {
		printf("FAIL: %d checks failed\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
