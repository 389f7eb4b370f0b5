/*
 * map.c — Go's hash maps (runtime/map.go), by Go's names.
 *
 * A map is an hmap pointing to an array of 2^B buckets.  A bucket (bmap)
 * holds 8 entries:
 *
 *	tophash[8] | key[8] | elem[8] | overflow pointer
 *
 * Keys are packed together and so are elems, so no padding is needed
 * between a key and its elem (keys and elems are 8 * size bytes, which keeps
 * the elems and the overflow pointer 8-aligned).  tophash[i] holds the top
 * byte of entry i's hash, or one of the small marks below for an empty or
 * evacuated slot, so a lookup compares 8 bytes before touching any key; we
 * compare all 8 at once as one word (SWAR).  The low B bits of the hash
 * choose the bucket.  A full bucket chains to overflow buckets.
 *
 * Growth.  When the average load reaches 6.5 entries per bucket (Go's
 * measured trade-off between overflow chains and wasted slots: 13/2), the
 * map doubles; when it has about as many overflow buckets as buckets but is
 * not loaded (many deletes left sparse chains), it grows to the same size,
 * which repacks the chains.  Either way the old array stays in oldbuckets and
 * is evacuated incrementally: every assign or delete first evacuates the old
 * bucket it is about to use and one more, in order (nevacuate), so no single
 * operation pays for the whole copy.  Lookups look in the old bucket while it
 * is not yet evacuated.
 *
 * Iteration starts at a random bucket and at a random slot within each
 * bucket, so programs cannot depend on an order.  It survives growth and
 * concurrent deletes and inserts by the same goroutine the way Go's does:
 * an iterator that started before the current growth walks its own bucket
 * array and, for entries that were evacuated since, looks the key up again in
 * the live map (so deleted entries are not returned and updated elems are);
 * an iterator that started during growth walks the old bucket while it is
 * not evacuated, returning only the entries that belong to the new bucket it
 * is standing in.
 *
 * Keys and elems larger than 128 bytes are stored indirectly, as Go does:
 * the slot holds a pointer to a heap copy, which keeps buckets small (8
 * inline 1 KiB keys would make every bucket 8 KiB).
 *
 * Fast paths.  Most maps have 4- or 8-byte plain-memory keys (ints,
 * pointers) or string keys.  Their lookup, assign, delete and evacuate are
 * compiled separately from the generic code (one always_inline body,
 * instantiated per key kind: fastkind), with the key size, hash and
 * equality known at compile time; the kind is chosen once in makemap.  The
 * fast 4/8-byte hash is inlined here; it need not agree with gl_memhash
 * because a map always hashes its key type the same way.
 *
 * Stack.  Everything here runs on the goroutine stack inside the reserve
 * band below stackguard0 (DESIGN.md S7): no recursion, small frames, no libc
 * but memcpy/memmove/memset/memcmp.  The key argument usually points into
 * the caller's data frame, and two kinds of call can move that stack under
 * us: mallocgc, which may park the goroutine (a GC assist) and let its stack
 * be shrunk (DESIGN.md S8), and the key type's hash function, which can
 * panic (interface keys of uncomparable dynamic type) and run deferred code
 * that grows the stack before a recover returns here.  So assign and delete,
 * which allocate (buckets, overflow buckets, growth), keep the key's distance
 * from stack.hi — which copystack preserves — and re-derive the key after
 * every call that can allocate; and after a hash that panicked we return at
 * once without touching the key (the caller checks g->unwinding).  Lookups
 * and iteration never allocate.
 *
 * GC.  The map header is allocated with gltype_hmap (its bucket arrays and
 * the next preallocated overflow bucket are pointers), bucket arrays and
 * overflow buckets with the map type's bucket descriptor, which glc emits
 * (GlType.bucket): the keys' and elems' pointer words, and the overflow
 * word — when there are any.  A bucket of a map whose keys and elems hold
 * no pointers (map[int]int) has none: glc types its overflow word uintptr,
 * so its arrays are noscan, never read by the collector, and its heap
 * overflow buckets are kept alive by a list of them (ovflist, below; Go's
 * mapextra).  initlayout checks that glc's bucket and ours agree.
 * Every copy or clear of a key or elem that can hold pointers is typed
 * (mbarrier.c: movekey, moveelem_f, clearkeyelem below), for the write
 * barrier; maps of scalars keep their plain copies.
 */
#include "rt.h" /* gl.h, and stackoff/stackptr */

uint32_t fastrand(void); /* proc.c */

enum {
	bucketCntBits = 3,
	bucketCnt = 1 << bucketCntBits,
	/* maximum average load of a bucket before growing: 6.5 */
	loadFactorNum = 13,
	loadFactorDen = 2,
	/* larger keys and elems are stored indirectly */
	maxKeySize = 128,
	maxElemSize = 128,
	/* keys start after the 8 tophash bytes; everything stays 8-aligned */
	dataOffset = bucketCnt,
};

/* tophash marks.  Real tophash values are >= minTopHash. */
enum {
	emptyRest = 0,      /* empty, and so is every later slot and overflow bucket */
	emptyOne = 1,       /* empty */
	evacuatedX = 2,     /* entry moved to the first half of the new array */
	evacuatedY = 3,     /* entry moved to the second half */
	evacuatedEmpty = 4, /* empty slot of an evacuated bucket */
	minTopHash = 5,
};

/* hmap.flags */
enum {
	iterator = 1,     /* an iterator may be using buckets */
	oldIterator = 2,  /* an iterator may be using oldbuckets */
	hashWriting = 4,  /* a goroutine is writing: catches concurrent misuse */
	sameSizeGrow = 8, /* the current growth keeps the size */
};

/* hmap.keyflags: facts about the key and elem types, fixed at makemap */
enum {
	indirectKey = 1,
	indirectElem = 2,
	needKeyUpdate = 4,  /* equal keys can differ (+0/-0, strings): overwrite on assign */
	reflexiveKey = 8,   /* k == k for every k (no NaNs anywhere in the type) */
	hashMightPanic = 16,
	keyHasPtr = 32,
	elemHasPtr = 64,
};

/* hmap.fastkind */
enum { FK_GENERIC, FK_MEM32, FK_MEM64, FK_STR };

#define noCheck UINTPTR_MAX

struct GlMap {
	/* what every operation reads comes first, within one cache line */
	int64_t count;      /* live entries; first, so len() could read it directly */
	uint8_t flags;
	uint8_t B;          /* log2 of the number of buckets */
	uint16_t noverflow; /* overflow buckets, approximate for B >= 16 */
	uint8_t fastkind;
	uint8_t keyflags;
	uint16_t pad_;
	uintptr_t hash0;    /* per-map random seed */
	uint8_t *buckets;
	uint8_t *oldbuckets; /* non-NULL while growing */
	/* the layout, from the map type (every operation passes the same one) */
	uint32_t keysize, elemsize; /* slot sizes: 8 when indirect */
	uint32_t bucketsize;
	uint32_t pad2_;
	const GlType *key, *elem;
	uintptr_t nevacuate;   /* old buckets below this are evacuated */
	uint8_t *nextOverflow; /* next free preallocated overflow bucket */
	const GlType *bucket;  /* a bucket's layout, for the collector */
	/* Noscan buckets only (bucket->ptrdata == 0), else NULL: the overflow
	 * buckets allocated from the heap for buckets (ovf) and for oldbuckets
	 * (oldovf).  Each list belongs to one bucket array: hashGrow moves
	 * ovf to oldovf, the end of the evacuation drops oldovf. */
	struct ovflist *ovf, *oldovf;
};

/* A list of the heap overflow buckets of one noscan bucket array: the
 * collector does not read a noscan bucket's overflow word, so it finds
 * them here.  The first block is the list's identity, which an iterator
 * keeps (GlMapIter.overflow) while it may walk that array's chains; blocks
 * after it, newest first, hold the rest.  clear(m) empties the array in
 * place and starts a new list for it: an iterator may still be in its old
 * chains and walk on into buckets added after the clear, so the old list
 * links to the new one (next) — the map keeps only the newest, an
 * iterator all from the one it started with. */
enum { ovflistCap = 13 }; /* a block is 128 bytes, a size class */
typedef struct ovflist {
	struct ovflist *more, *next;
	uintptr_t n;
	uint8_t *b[ovflistCap];
} ovflist;

GL_RTTYPE(gltype_ovflist, ovflist, "runtime.ovflist",
	  GL_PTRWORD(ovflist, more) | GL_PTRWORD(ovflist, next) |
		  (((uint64_t)1 << ovflistCap) - 1) * GL_PTRWORD(ovflist, b));

/* The map header's own descriptor: the words the collector follows.  key,
 * elem and bucket are static descriptors, not heap objects. */
GL_RTTYPE(gltype_hmap, GlMap, "runtime.hmap",
	  GL_PTRWORD(GlMap, buckets) | GL_PTRWORD(GlMap, oldbuckets) | GL_PTRWORD(GlMap, nextOverflow) |
		  GL_PTRWORD(GlMap, ovf) | GL_PTRWORD(GlMap, oldovf));

/* A slot: bucket and index.  Returned in two registers. */
typedef struct {
	uint8_t *b;
	uintptr_t i;
} slot;

#define INLINE static inline __attribute__((always_inline))

/* ---- small pieces ---- */

static inline uintptr_t bucketShift(uint8_t B) { return (uintptr_t)1 << (B & 63); }
static inline uintptr_t bucketMask(uint8_t B) { return bucketShift(B) - 1; }

/* The top byte of the hash, moved above the marks. */
static inline uint8_t tophash(uintptr_t hash) {
	uint8_t top = (uint8_t)(hash >> 56);
	return top < minTopHash ? top + minTopHash : top;
}

static inline bool isEmpty(uint8_t x) { return x <= emptyOne; }

/* Evacuation marks every slot, so the first one tells. */
static inline bool evacuated(const uint8_t *b) {
	return b[0] > emptyOne && b[0] < minTopHash;
}

static inline uint8_t **overflowp(const GlMap *h, uint8_t *b) {
	return (uint8_t **)(b + h->bucketsize - sizeof(void *));
}

static inline bool growing(const GlMap *h) { return h->oldbuckets != NULL; }

/* The buckets hold no pointers: allocated noscan, heap overflow buckets
 * listed in h->ovf. */
static inline bool noscanBuckets(const GlMap *h) { return h->bucket->ptrdata == 0; }

/* Buckets in the old array. */
static inline uintptr_t noldbuckets(const GlMap *h) {
	uint8_t B = h->B;
	if (!(h->flags & sameSizeGrow))
		B--;
	return bucketShift(B);
}

static inline uintptr_t oldbucketmask(const GlMap *h) { return noldbuckets(h) - 1; }

/* count entries in 2^B buckets exceed the load factor.  Up to 8 entries
 * always fit: one bucket. */
static inline bool overLoadFactor(int64_t count, uint8_t B) {
	return count > bucketCnt && (uint64_t)count > loadFactorNum * (bucketShift(B) / loadFactorDen);
}

/* About as many overflow buckets as buckets: the chains are sparse (or the
 * map would have grown by load), so a same-size growth will repack them.
 * Above 2^15 buckets noverflow is only sampled (incrnoverflow). */
static inline bool tooManyOverflowBuckets(uint16_t noverflow, uint8_t B) {
	if (B > 15)
		B = 15;
	return noverflow >= (uint16_t)1 << (B & 15);
}

static inline uintptr_t newseed(void) {
	return (uintptr_t)fastrand() << 32 | fastrand();
}

/* ---- tophash words: 8 slots compared at once ---- */

#define LSB 0x0101010101010101ull
#define MSB 0x8080808080808080ull

static inline uint64_t loadtop(const uint8_t *b) {
	uint64_t w;
	memcpy(&w, b, 8);
	return w;
}

/* 0x80 in each byte of w that is zero, and nothing else.  Exact: no carry
 * crosses a byte, unlike the shorter (w - LSB) & ~w & MSB. */
static inline uint64_t zerobytes(uint64_t w) {
	return ~(((w & ~MSB) + ~MSB) | w | ~MSB);
}

static inline uint64_t matchbytes(uint64_t w, uint8_t top) { return zerobytes(w ^ (LSB * top)); }
/* slots holding emptyRest or emptyOne */
static inline uint64_t emptybytes(uint64_t w) { return zerobytes(w & ~LSB); }
static inline uintptr_t slotof(uint64_t m) { return (uintptr_t)__builtin_ctzll(m) >> 3; }

/* ---- keys by kind: fk is a constant in every instantiation ---- */

static inline uint64_t mum(uint64_t a, uint64_t b) {
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* The 4/8-byte key hash of the fast paths: two multiply-folds keyed by the
 * per-map seed move every key bit into the low bits (bucket) and the top
 * byte (tophash). */
static inline uintptr_t hashword(uint64_t v, uintptr_t seed) {
	return mum(mum(v ^ seed, 0xe23a29a3abf7fb8bull), seed ^ 0xf55e821d1643995dull);
}

INLINE uintptr_t ksize(const GlMap *h, int fk) {
	switch (fk) {
	case FK_MEM32: return 4;
	case FK_MEM64: return 8;
	case FK_STR: return sizeof(GlString);
	default: return h->keysize;
	}
}

INLINE uint8_t *keyat(const GlMap *h, uint8_t *b, uintptr_t i, int fk) {
	return b + dataOffset + i * ksize(h, fk);
}

INLINE uint8_t *elemat(const GlMap *h, uint8_t *b, uintptr_t i, int fk) {
	return b + dataOffset + bucketCnt * ksize(h, fk) + i * h->elemsize;
}

/* The key or elem in a slot: indirect ones hold a pointer.  Only generic
 * maps can be indirect. */
INLINE void *kptr(const GlMap *h, uint8_t *k, int fk) {
	if (fk == FK_GENERIC && (h->keyflags & indirectKey))
		return *(void **)k;
	return k;
}

INLINE void *eptr(const GlMap *h, uint8_t *e, int fk) {
	if (fk == FK_GENERIC && (h->keyflags & indirectElem))
		return *(void **)e;
	return e;
}

INLINE uint64_t load64(const void *p) {
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

INLINE uint32_t load32(const void *p) {
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* String keys are mostly short: compare them with at most four word loads
 * rather than a call to memcmp.  Loads stay inside both strings. */
INLINE bool streq(const GlString *a, const GlString *b) {
	int64_t n = a->len;
	if (n != b->len)
		return false;
	const uint8_t *p = a->ptr, *q = b->ptr;
	if (p == q)
		return true;
	if (n >= 8) {
		if (n > 16)
			return memcmp(p, q, (size_t)n) == 0;
		return load64(p) == load64(q) && load64(p + n - 8) == load64(q + n - 8);
	}
	if (n >= 4)
		return load32(p) == load32(q) && load32(p + n - 4) == load32(q + n - 4);
	for (int64_t i = 0; i < n; i++)
		if (p[i] != q[i])
			return false;
	return true;
}

INLINE uintptr_t hashof(const GlMap *h, const void *k, int fk) {
	switch (fk) {
	case FK_MEM32: return hashword(load32(k), h->hash0);
	case FK_MEM64: return hashword(load64(k), h->hash0);
	case FK_STR: return gl_strhash(h->key, k, h->hash0);
	default: return h->key->hashfn(h->key, k, h->hash0);
	}
}

INLINE bool keyeq(const GlMap *h, const void *a, const void *b, int fk) {
	switch (fk) {
	case FK_MEM32: return load32(a) == load32(b);
	case FK_MEM64: return load64(a) == load64(b);
	case FK_STR: return streq(a, b);
	default: return h->key->equal(h->key, a, b);
	}
}

/* k == k: false only for keys holding a NaN. */
INLINE bool reflexive(const GlMap *h, const void *k, int fk) {
	return fk != FK_GENERIC || (h->keyflags & reflexiveKey) || keyeq(h, k, k, fk);
}

/* The hash of a caller's key panicked (an interface holding a slice, say):
 * the stack may have moved, so the key must not be touched again. */
INLINE bool hashpanicked(G *g, const GlMap *h, int fk) {
	return fk == FK_GENERIC && (h->keyflags & hashMightPanic) && g != NULL && GL_UNLIKELY(g->unwinding);
}

/* Copy an elem-sized block; elems of 8 bytes are the common case. */
static inline void copyelem(void *dst, const void *src, uint32_t n) {
	if (n == 8)
		memcpy(dst, src, 8);
	else
		memcpy(dst, src, n);
}

static inline void clearelem(void *p, uint32_t n) {
	if (n == 8)
		memset(p, 0, 8);
	else
		memset(p, 0, n);
}

/* Typed copies and clears of key and elem slots (mbarrier.c): where the
 * write barrier will see the pointers a map moves.  A slot of an indirect
 * key or elem holds a pointer to the value's heap copy, so moving it is a
 * one-word pointer copy.  Keys or elems without pointers (keyHasPtr and
 * elemHasPtr clear) keep the plain copies and pay one flag test.  kf is
 * h->keyflags, which evacuate keeps in a register across its loop (the
 * calls in it would make the compiler reload it from h). */
INLINE void movekey_f(const GlMap *h, uint8_t kf, void *dst, const void *src, int fk) {
	if (!(kf & keyHasPtr)) {
		memcpy(dst, src, ksize(h, fk));
	} else if (fk == FK_GENERIC && (kf & indirectKey)) {
		bulkBarrierPreWrite((uintptr_t)dst, (uintptr_t)src, sizeof(void *));
		memcpy(dst, src, sizeof(void *));
	} else {
		typedmemmove(h->key, dst, src);
	}
}

INLINE void movekey(const GlMap *h, void *dst, const void *src, int fk) {
	movekey_f(h, h->keyflags, dst, src, fk);
}

INLINE void moveelem_f(const GlMap *h, uint8_t kf, uint32_t es, void *dst, const void *src) {
	if (!(kf & elemHasPtr)) {
		copyelem(dst, src, es);
	} else if (kf & indirectElem) {
		bulkBarrierPreWrite((uintptr_t)dst, (uintptr_t)src, sizeof(void *));
		memcpy(dst, src, sizeof(void *));
	} else {
		typedmemmove(h->elem, dst, src);
	}
}

/* An equal key overwritten by the caller's (needKeyUpdate), in its slot
 * or its heap copy: typed if the key type has pointers. */
INLINE void updatekey(const GlMap *h, void *k, const void *key) {
	if (h->key->ptrdata != 0)
		typedmemmove(h->key, k, key);
	else
		memmove(k, key, h->key->size);
}

/* A pointer to a new heap copy into an indirect slot. */
INLINE void storeslotptr(void *slot, void *p) {
	bulkBarrierPreWrite((uintptr_t)slot, (uintptr_t)&p, sizeof p);
	*(void **)slot = p;
}

/* A deleted entry: drop what the key points to (a pointer-free key may
 * stay: nothing reads it); the elem must read as zero when the slot is
 * reused.  An indirect slot is cleared as the pointer it holds. */
INLINE void clearkeyelem(const GlMap *h, void *k, void *e, int fk) {
	if (h->keyflags & keyHasPtr)
		memclrHasPointers(k, ksize(h, fk));
	if (h->keyflags & elemHasPtr)
		memclrHasPointers(e, h->elemsize);
	else
		clearelem(e, h->elemsize);
}

/* ---- the zero value returned for absent keys ---- */

static const uint8_t zeroVal[1024] __attribute__((aligned(16)));

/* Elems larger than zeroVal share one zero block that only grows: a
 * header word (its size) and the zeros.  Published with a CAS; a block that
 * loses the race, or is replaced, stays zero and valid — forever: it is
 * mapped outside the collected heap (no root needs to name it), and never
 * unmapped, since a reader may still hold it. */
static uint64_t *bigzero;

static GL_NOINLINE GL_COLD void *bigzeroarea(uint64_t size) {
	for (;;) {
		uint64_t *z = __atomic_load_n(&bigzero, __ATOMIC_ACQUIRE);
		if (z != NULL && z[0] >= size)
			return z + 1;
		uint64_t n = 2048;
		while (n < size)
			n *= 2;
		uint64_t *nz = sysAlloc(n + 8, &memstats.other_sys);
		nz[0] = n;
		if (__atomic_compare_exchange_n(&bigzero, &z, nz, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return nz + 1;
	}
}

static inline void *zeroarea(uint64_t size) {
	if (GL_LIKELY(size <= sizeof zeroVal))
		return (void *)zeroVal;
	return bigzeroarea(size);
}

/* ---- bucket arrays ---- */

/* makeBucketArray: 2^B buckets, zeroed, reusing dirty (an array made
 * earlier for the same B) if given.  From B = 4 on, 1/16 more buckets are
 * allocated behind them as the first overflow buckets (Go's numbers: a
 * loaded map has a few overflows, and one allocation is cheaper than many).
 * The last preallocated bucket's overflow field is set non-NULL (to the
 * array) to mark it; newoverflow clears it when handing it out. */
static GL_NOINLINE uint8_t *makeBucketArray(GlMap *h, uint8_t B, uint8_t *dirty) {
	uintptr_t base = bucketShift(B), nb = base, bsz = h->bucketsize;
	if (B >= 4)
		nb += bucketShift(B - 4);
	uint8_t *buckets;
	if (dirty == NULL) {
		buckets = mallocgc(nb * bsz, h->bucket, true);
	} else {
		buckets = dirty; /* clear(m) */
		if (noscanBuckets(h))
			memset(buckets, 0, nb * bsz);
		else
			memclrHasPointers(buckets, nb * bsz);
	}
	writebarrierptr(&h->nextOverflow, NULL);
	if (nb != base) {
		writebarrierptr(&h->nextOverflow, buckets + base * bsz);
		writebarrierptr(overflowp(h, buckets + (nb - 1) * bsz), buckets);
	}
	return buckets;
}

/* Count an overflow bucket.  Exact up to 2^16 buckets; beyond, noverflow
 * (16 bits) is incremented with probability 2^15/2^B so that it still
 * approximates "as many overflow buckets as 2^15" for
 * tooManyOverflowBuckets. */
static inline void incrnoverflow(GlMap *h) {
	if (h->B < 16) {
		h->noverflow++;
		return;
	}
	uint32_t mask = ((uint32_t)1 << (h->B - 15)) - 1;
	if ((fastrand() & mask) == 0)
		h->noverflow++;
}

/* The list of h's current bucket array, made if there is none yet.  On
 * g0 (it allocates). */
static ovflist *ovflistOf(GlMap *h) {
	if (h->ovf == NULL)
		writebarrierptr(&h->ovf, mallocgc(sizeof(ovflist), &gltype_ovflist, true));
	return h->ovf;
}

/* The list block with room for one more bucket: the first until it is
 * full, then the newest of the rest, a new one after the first when that
 * one is full too.  On g0. */
static ovflist *ovflistRoom(GlMap *h) {
	ovflist *l = ovflistOf(h), *t = l;
	if (t->n == ovflistCap)
		t = l->more;
	if (t == NULL || t->n == ovflistCap) {
		t = mallocgc(sizeof(ovflist), &gltype_ovflist, true);
		writebarrierptr(&t->more, l->more);
		writebarrierptr(&l->more, t);
	}
	return t;
}

/* An overflow bucket from the heap.  On g0: an evacuation (or an assign)
 * that needs one is deep in the reserve band already, and what mallocgc
 * may call on its slow path does not fit below it; and it is rare (a
 * bucket array comes with preallocated overflow buckets).  A noscan
 * bucket goes into h's list at once: the room for it is made first, so
 * that no allocation comes between the bucket's and its first reference
 * the collector can see. */
typedef struct newbucketargs {
	GlMap *h;
	uint8_t *b;
} newbucketargs;

static void newbucket_m(void *arg) {
	newbucketargs *a = arg;
	GlMap *h = a->h;
	if (!noscanBuckets(h)) {
		a->b = mallocgc(h->bucket->size, h->bucket, true);
		return;
	}
	ovflist *t = ovflistRoom(h);
	a->b = mallocgc(h->bucket->size, h->bucket, true);
	writebarrierptr(&t->b[t->n], a->b);
	t->n++;
}

static GL_NOINLINE uint8_t *newbucket(GlMap *h) {
	newbucketargs a = {h, NULL};
	systemstack(newbucket_m, &a);
	return a.b;
}

/* mapiterinit's: h's list, made if there is none (on g0). */
static void ovflistOf_m(void *arg) {
	ovflistOf(arg);
}

/* Chain a new overflow bucket after b. */
static GL_NOINLINE uint8_t *newoverflow(GlMap *h, uint8_t *b) {
	uint8_t *ovf = h->nextOverflow;
	if (ovf != NULL) {
		uint8_t **op = overflowp(h, ovf);
		if (*op == NULL) {
			writebarrierptr(&h->nextOverflow, ovf + h->bucketsize);
		} else {
			writebarrierptr(op, NULL); /* the last preallocated one */
			writebarrierptr(&h->nextOverflow, NULL);
		}
	} else {
		ovf = newbucket(h);
	}
	incrnoverflow(h);
	writebarrierptr(overflowp(h, b), ovf);
	return ovf;
}

/* ---- make, len ---- */

/* Hashing a key of type kt can panic: it holds an interface somewhere
 * (conservatively: any struct or array that is not plain memory). */
static bool keyhashMightPanic(const GlType *kt) {
	return kt->kind == GL_KIND_INTERFACE ||
	       (!(kt->tflag & GL_TFLAG_REGMEM) && (kt->kind == GL_KIND_STRUCT || kt->kind == GL_KIND_ARRAY));
}

static void initlayout(GlMap *h, const GlType *mt) {
	const GlType *kt = mt->key, *et = mt->elem;
	uint8_t f = 0;
	uint64_t ks = kt->size, es = et->size;
	if (ks > maxKeySize) {
		f |= indirectKey;
		ks = sizeof(void *);
	}
	if (es > maxElemSize) {
		f |= indirectElem;
		es = sizeof(void *);
	}
	bool regmem = kt->tflag & GL_TFLAG_REGMEM;
	/* Conservative answers are safe: needKeyUpdate only rewrites an equal
	 * key, reflexiveKey only saves a k == k test, hashMightPanic only adds a
	 * look at g->unwinding. */
	if (!regmem)
		f |= needKeyUpdate;
	if (regmem || kt->kind == GL_KIND_STRING)
		f |= reflexiveKey;
	if (keyhashMightPanic(kt))
		f |= hashMightPanic;
	if (kt->ptrdata != 0 || (f & indirectKey))
		f |= keyHasPtr;
	if (et->ptrdata != 0 || (f & indirectElem))
		f |= elemHasPtr;
	h->keyflags = f;
	h->key = kt;
	h->elem = et;
	h->keysize = (uint32_t)ks;
	h->elemsize = (uint32_t)es;
	h->bucketsize = (uint32_t)(dataOffset + bucketCnt * (ks + es) + sizeof(void *));
	h->bucket = mt->bucket;
	if (mt->bucket == NULL || mt->bucket->size != h->bucketsize ||
	    (mt->bucket->ptrdata == 0) != !(f & (keyHasPtr | elemHasPtr)))
		gl_throw("makemap: glc's bucket layout and the runtime's disagree");
	h->fastkind = FK_GENERIC;
	if (!(f & indirectElem)) {
		if (kt->kind == GL_KIND_STRING)
			h->fastkind = FK_STR;
		else if (regmem && kt->size == 8)
			h->fastkind = FK_MEM64;
		else if (regmem && kt->size == 4)
			h->fastkind = FK_MEM32;
	}
}

GlMap *makemap(G *g, const GlType *mt, int64_t hint) {
	(void)g;
	GlMap *h = mallocgc(sizeof(GlMap), &gltype_hmap, true);
	initlayout(h, mt);
	h->hash0 = newseed();
	/* As Go: a hint that is negative or would need more than the address
	 * space (2^48) is ignored. */
	if (hint < 0 || (uint64_t)hint > ((uint64_t)1 << 48) / h->bucketsize)
		hint = 0;
	uint8_t B = 0;
	while (overLoadFactor(hint, B))
		B++;
	h->B = B;
	/* B == 0: the one bucket is allocated by the first assign */
	if (B != 0)
		writebarrierptr(&h->buckets, makeBucketArray(h, B, NULL));
	return h;
}

int64_t maplen(GlMap *h) {
	return h == NULL ? 0 : h->count;
}

/* ---- lookup ---- */

/* The bucket to search for hash: the old one while it is not evacuated. */
static inline uint8_t *bucketfor(const GlMap *h, uintptr_t hash) {
	uintptr_t m = bucketMask(h->B);
	uint8_t *b = h->buckets + (hash & m) * h->bucketsize;
	if (GL_UNLIKELY(h->oldbuckets != NULL)) {
		if (!(h->flags & sameSizeGrow))
			m >>= 1;
		uint8_t *ob = h->oldbuckets + (hash & m) * h->bucketsize;
		if (!evacuated(ob))
			b = ob;
	}
	return b;
}

/* Search the chain from b for key with tophash top. */
INLINE slot findin(const GlMap *h, uint8_t *b, const void *key, uint8_t top, int fk) {
	for (; b != NULL; b = *overflowp(h, b)) {
		uint64_t w = loadtop(b);
		for (uint64_t m = matchbytes(w, top); m != 0; m &= m - 1) {
			uintptr_t i = slotof(m);
			if (keyeq(h, key, kptr(h, keyat(h, b, i, fk), fk), fk))
				return (slot){b, i};
		}
		if (zerobytes(w) != 0)
			break; /* emptyRest: nothing further on */
	}
	return (slot){NULL, 0};
}

INLINE slot lookup_t(G *g, const GlMap *h, const void *key, int fk) {
	uintptr_t hash = hashof(h, key, fk);
	if (hashpanicked(g, h, fk))
		return (slot){NULL, 0};
	if (GL_UNLIKELY(h->flags & hashWriting))
		gl_fatal("concurrent map read and map write");
	return findin(h, bucketfor(h, hash), key, tophash(hash), fk);
}

#define FOR_EACH_FK(X) X(generic, FK_GENERIC) X(mem32, FK_MEM32) X(mem64, FK_MEM64) X(str, FK_STR)

#define DEF_LOOKUP(name, fk) \
	static GL_NOINLINE slot lookup_##name(G *g, const GlMap *h, const void *key) { return lookup_t(g, h, key, fk); }
FOR_EACH_FK(DEF_LOOKUP)

/* g may be NULL when the key came from the map (its hash cannot panic). */
static inline slot lookup(G *g, const GlMap *h, const void *key) {
	switch (h->fastkind) {
	case FK_MEM64: return lookup_mem64(g, h, key);
	case FK_STR: return lookup_str(g, h, key);
	case FK_MEM32: return lookup_mem32(g, h, key);
	default: return lookup_generic(g, h, key);
	}
}

/* A lookup in an empty map still hashes a key whose hash can panic, so
 * that m[k] panics for an unhashable k whatever the map holds (as Go). */
static GL_NOINLINE void hashforpanic(const GlType *mt, const void *key) {
	const GlType *kt = mt->key;
	if (keyhashMightPanic(kt))
		kt->hashfn(kt, key, 0);
}

void *mapaccess1(G *g, const GlType *mt, GlMap *h, const void *key) {
	entrySafePoint(g);
	if (h == NULL || h->count == 0) {
		hashforpanic(mt, key);
		return zeroarea(mt->elem->size);
	}
	slot s = lookup(g, h, key);
	if (s.b == NULL)
		return zeroarea(h->elem->size);
	return eptr(h, elemat(h, s.b, s.i, FK_GENERIC), FK_GENERIC);
}

void *mapaccess2(G *g, const GlType *mt, GlMap *h, const void *key) {
	entrySafePoint(g);
	if (h == NULL || h->count == 0) {
		hashforpanic(mt, key);
		return NULL;
	}
	slot s = lookup(g, h, key);
	if (s.b == NULL)
		return NULL;
	return eptr(h, elemat(h, s.b, s.i, FK_GENERIC), FK_GENERIC);
}

/* ---- growth ---- */

static GL_NOINLINE void hashGrow(GlMap *h) {
	uint8_t bigger = 1;
	if (!overLoadFactor(h->count + 1, h->B)) {
		bigger = 0;
		h->flags |= sameSizeGrow;
	}
	uint8_t *old = h->buckets;
	uint8_t *nb = makeBucketArray(h, (uint8_t)(h->B + bigger), NULL);
	/* iterators of the current array now iterate the old one */
	uint8_t f = h->flags & ~(iterator | oldIterator);
	if (h->flags & iterator)
		f |= oldIterator;
	h->flags = f;
	h->B += bigger;
	writebarrierptr(&h->oldbuckets, old);
	writebarrierptr(&h->buckets, nb);
	writebarrierptr(&h->oldovf, h->ovf); /* the lists follow their arrays */
	writebarrierptr(&h->ovf, NULL);
	h->nevacuate = 0;
	h->noverflow = 0;
}

/* Move nevacuate past evacuated buckets; at the end, drop the old array.
 * At most 1024 buckets are looked at per call (Go's bound), so one
 * operation's work stays small. */
static void advanceEvacuationMark(GlMap *h, uintptr_t newbit) {
	h->nevacuate++;
	uintptr_t stop = h->nevacuate + 1024;
	if (stop > newbit)
		stop = newbit;
	while (h->nevacuate != stop && evacuated(h->oldbuckets + h->nevacuate * h->bucketsize))
		h->nevacuate++;
	if (h->nevacuate == newbit) {
		writebarrierptr(&h->oldbuckets, NULL);
		writebarrierptr(&h->oldovf, NULL);
		h->flags &= ~sameSizeGrow;
	}
}

/* evacuate old bucket oldbucket (and its chain) into the new array: into
 * bucket x = oldbucket, or, when doubling, y = oldbucket + newbit according
 * to the hash bit that the new mask adds. */
INLINE void evacuate_b(GlMap *h, uintptr_t oldbucket, int fk, bool ptrs) {
	uintptr_t bsz = h->bucketsize;
	uint8_t kf = ptrs ? h->keyflags : 0; /* 0: the typed cases fold away */
	uint32_t es = h->elemsize;
	uintptr_t newbit = noldbuckets(h);
	uint8_t *b = h->oldbuckets + oldbucket * bsz;
	if (!evacuated(b)) {
		bool same = h->flags & sameSizeGrow;
		uint8_t *xb = h->buckets + oldbucket * bsz, *yb = NULL;
		uintptr_t xi = 0, yi = 0;
		if (!same)
			yb = h->buckets + (oldbucket + newbit) * bsz;
		for (; b != NULL; b = *overflowp(h, b)) {
			for (uintptr_t i = 0; i < bucketCnt; i++) {
				uint8_t top = b[i];
				if (isEmpty(top)) {
					b[i] = evacuatedEmpty;
					continue;
				}
				if (GL_UNLIKELY(top < minTopHash))
					gl_throw("bad map state");
				uint8_t *k = keyat(h, b, i, fk);
				bool useY = false;
				if (!same) {
					void *k2 = kptr(h, k, fk);
					uintptr_t hash = hashof(h, k2, fk);
					if (!reflexive(h, k2, fk)) {
						/* A NaN: its hash is random, and an iterator
						 * must agree with this choice without
						 * rehashing, so decide by the old tophash's
						 * low bit (mapiternext does the same) and
						 * give it a fresh tophash. */
						useY = top & 1;
						top = tophash(hash);
					} else {
						useY = (hash & newbit) != 0;
					}
				}
				b[i] = (uint8_t)(evacuatedX + useY);
				uint8_t *db;
				uintptr_t di;
				if (useY) {
					if (yi == bucketCnt) {
						yb = newoverflow(h, yb);
						yi = 0;
					}
					db = yb;
					di = yi++;
				} else {
					if (xi == bucketCnt) {
						xb = newoverflow(h, xb);
						xi = 0;
					}
					db = xb;
					di = xi++;
				}
				db[di] = top;
				movekey_f(h, kf, keyat(h, db, di, fk), k, fk); /* the pointer, if indirect */
				moveelem_f(h, kf, es, elemat(h, db, di, fk), elemat(h, b, i, fk));
			}
		}
		/* Unless an iterator may still read the old entries, drop their
		 * contents (and the chain) so the collector can free what they
		 * point to.  The tophash marks must stay. */
		if (ptrs && !(h->flags & oldIterator)) {
			uint8_t *ob = h->oldbuckets + oldbucket * bsz;
			memclrHasPointers(ob + dataOffset, bsz - dataOffset);
		}
	}
	if (oldbucket == h->nevacuate)
		advanceEvacuationMark(h, newbit);
}

/* evacuate's arguments, for a copy that runs on g0 (systemstack). */
typedef struct evacuation {
	GlMap *h;
	uintptr_t oldbucket;
} evacuation;

/* Two copies of the loop: maps whose keys and elems have no pointers move
 * them with plain copies and test nothing per entry, on the goroutine
 * stack; the typed copy (typedmemmove and the barrier entries below it)
 * runs on g0, as the generic one does: on top of mapassign's frames its
 * calls need more than the 512 bytes runtime C may use of the reserve band
 * (testdata/stackusage.py), and a switch per evacuated bucket of 8 entries
 * costs little next to their typed copies. */
#define DEF_EVACUATE(name, fk) \
	static void evacuate_##name##_ptrs_m(void *arg) { \
		evacuation *e = arg; \
		evacuate_b(e->h, e->oldbucket, fk, true); \
	} \
	static GL_NOINLINE void evacuate_##name##_noptrs(GlMap *h, uintptr_t oldbucket) { \
		evacuate_b(h, oldbucket, fk, false); \
	} \
	static GL_NOINLINE void evacuate_##name(GlMap *h, uintptr_t oldbucket) { \
		if (h->keyflags & (keyHasPtr | elemHasPtr)) { \
			evacuation e = {h, oldbucket}; \
			systemstack(evacuate_##name##_ptrs_m, &e); \
		} else \
			evacuate_##name##_noptrs(h, oldbucket); \
	}
DEF_EVACUATE(mem32, FK_MEM32)
DEF_EVACUATE(mem64, FK_MEM64)
/* string keys always hold a pointer: only the typed copy, on g0 */
static void evacuate_str_m(void *arg) {
	evacuation *e = arg;
	evacuate_b(e->h, e->oldbucket, FK_STR, true);
}

static GL_NOINLINE void evacuate_str(GlMap *h, uintptr_t oldbucket) {
	evacuation e = {h, oldbucket};
	systemstack(evacuate_str_m, &e);
}

/* The generic evacuation hashes (and, for NaNs, compares) keys through
 * their descriptors, whose nested levels alg.c runs on g0 already: on top
 * of assign's frames that is more than a runtime call may use of the
 * reserve band, so the whole evacuation runs on g0.  Nothing in it can
 * panic (every key in the map was hashed and compared when it went in)
 * or touch the goroutine stack.  Generic maps only: the fast kinds hash
 * inline. */
static void evacuate_generic_m(void *arg) {
	evacuation *e = arg;
	evacuate_b(e->h, e->oldbucket, FK_GENERIC, (e->h->keyflags & (keyHasPtr | elemHasPtr)) != 0);
}

static GL_NOINLINE void evacuate_generic(GlMap *h, uintptr_t oldbucket) {
	evacuation e = {h, oldbucket};
	systemstack(evacuate_generic_m, &e);
}

INLINE void evacuate(GlMap *h, uintptr_t oldbucket, int fk) {
	switch (fk) {
	case FK_MEM64: evacuate_mem64(h, oldbucket); break;
	case FK_STR: evacuate_str(h, oldbucket); break;
	case FK_MEM32: evacuate_mem32(h, oldbucket); break;
	default: evacuate_generic(h, oldbucket); break;
	}
}

/* Before writing to bucket, make sure its old bucket is evacuated, and
 * evacuate one more to keep the growth moving. */
INLINE void growWork(GlMap *h, uintptr_t bucket, int fk) {
	evacuate(h, bucket & oldbucketmask(h), fk);
	if (growing(h))
		evacuate(h, h->nevacuate, fk);
}

/* ---- assign ---- */

/* A new key goes into slot k: a copy, or for large keys a pointer to one.
 * koff: the key's stack offset (see stackoff). */
INLINE void storekey(G *g, GlMap *h, uint8_t *k, const void *key, uintptr_t koff, int fk) {
	if (fk != FK_GENERIC) {
		movekey(h, k, key, fk);
	} else if (h->keyflags & indirectKey) {
		void *p = mallocgc(h->key->size, h->key, true); /* zeroed: a scan may see it before the copy */
		key = stackptr(g, key, koff);
		updatekey(h, p, key);
		storeslotptr(k, p);
	} else if (h->keyflags & keyHasPtr) {
		typedmemmove(h->key, k, key);
	} else {
		memmove(k, key, h->keysize);
	}
}

INLINE void *assign_t(G *g, GlMap *h, const void *key, int fk) {
	entrySafePoint(g); /* here, not in mapassign: the dispatch keeps no frame */
	uintptr_t hash = hashof(h, key, fk);
	if (hashpanicked(g, h, fk))
		return NULL;
	if (GL_UNLIKELY(h->flags & hashWriting))
		gl_fatal("concurrent map writes");
	h->flags ^= hashWriting;
	uintptr_t koff = stackoff(g, key);
	if (GL_UNLIKELY(h->buckets == NULL)) {
		writebarrierptr(&h->buckets, makeBucketArray(h, 0, NULL));
		key = stackptr(g, key, koff);
	}
	uint8_t top = tophash(hash);
	uint8_t *b, *insb, *e;
	uintptr_t insi;
again:
	if (growing(h)) {
		growWork(h, hash & bucketMask(h->B), fk);
		key = stackptr(g, key, koff);
	}
	b = h->buckets + (hash & bucketMask(h->B)) * h->bucketsize;
	insb = NULL;
	insi = 0;
	for (;;) {
		uint64_t w = loadtop(b);
		for (uint64_t m = matchbytes(w, top); m != 0; m &= m - 1) {
			uintptr_t i = slotof(m);
			uint8_t *k = keyat(h, b, i, fk);
			if (!keyeq(h, key, kptr(h, k, fk), fk))
				continue;
			/* present: Go keeps the newest of equal keys */
			if (fk == FK_STR)
				movekey(h, k, key, fk);
			else if (fk == FK_GENERIC && (h->keyflags & needKeyUpdate))
				updatekey(h, kptr(h, k, fk), key);
			e = elemat(h, b, i, fk);
			goto done;
		}
		if (insb == NULL) {
			uint64_t em = emptybytes(w);
			if (em != 0) {
				insb = b;
				insi = slotof(em);
			}
		}
		if (zerobytes(w) != 0)
			break; /* emptyRest: the key is not further on */
		uint8_t *ovf = *overflowp(h, b);
		if (ovf == NULL)
			break;
		b = ovf;
	}
	/* Absent.  Grow first if the map is loaded or its chains are sparse;
	 * growing moves everything, so search again. */
	if (!growing(h) && (overLoadFactor(h->count + 1, h->B) || tooManyOverflowBuckets(h->noverflow, h->B))) {
		hashGrow(h);
		key = stackptr(g, key, koff);
		goto again;
	}
	if (insb == NULL) {
		insb = newoverflow(h, b);
		insi = 0;
		key = stackptr(g, key, koff);
	}
	storekey(g, h, keyat(h, insb, insi, fk), key, koff, fk);
	e = elemat(h, insb, insi, fk);
	if (fk == FK_GENERIC && (h->keyflags & indirectElem))
		storeslotptr(e, mallocgc(h->elem->size, h->elem, true));
	insb[insi] = top;
	h->count++;
done:
	if (GL_UNLIKELY(!(h->flags & hashWriting)))
		gl_fatal("concurrent map writes");
	h->flags &= ~hashWriting;
	return eptr(h, e, fk);
}

#define DEF_ASSIGN(name, fk) \
	static GL_NOINLINE void *assign_##name(G *g, GlMap *h, const void *key) { return assign_t(g, h, key, fk); }
FOR_EACH_FK(DEF_ASSIGN)

/* The elem slot of key, inserted (zero) if absent: the caller stores into
 * it.  Deleted slots are zeroed, so m[k] op= v reads zero for a new key. */
void *mapassign(G *g, const GlType *mt, GlMap *h, const void *key) {
	(void)mt;
	if (GL_UNLIKELY(h == NULL)) {
		gl_panicstring(g, "assignment to entry in nil map");
		return NULL;
	}
	switch (h->fastkind) {
	case FK_MEM64: return assign_mem64(g, h, key);
	case FK_STR: return assign_str(g, h, key);
	case FK_MEM32: return assign_mem32(g, h, key);
	default: return assign_generic(g, h, key);
	}
}

/* ---- delete ---- */

/* Slot i of bucket b (in the chain from bOrig) was just emptied.  If no
 * entry follows it, it and the empty slots before it become emptyRest, so
 * lookups and inserts stop early. */
static void markEmptyRest(GlMap *h, uint8_t *bOrig, uint8_t *b, uintptr_t i) {
	if (i == bucketCnt - 1) {
		uint8_t *ovf = *overflowp(h, b);
		if (ovf != NULL && ovf[0] != emptyRest)
			return;
	} else if (b[i + 1] != emptyRest) {
		return;
	}
	for (;;) {
		b[i] = emptyRest;
		if (i == 0) {
			if (b == bOrig)
				return;
			/* step back to the previous bucket of the chain */
			uint8_t *c = b;
			for (b = bOrig; *overflowp(h, b) != c; b = *overflowp(h, b)) {
			}
			i = bucketCnt - 1;
		} else {
			i--;
		}
		if (b[i] != emptyOne)
			return;
	}
}

INLINE void delete_t(G *g, GlMap *h, const void *key, int fk) {
	entrySafePoint(g);
	uintptr_t hash = hashof(h, key, fk);
	if (hashpanicked(g, h, fk))
		return;
	if (GL_UNLIKELY(h->flags & hashWriting))
		gl_fatal("concurrent map writes");
	h->flags ^= hashWriting;
	uintptr_t bucket = hash & bucketMask(h->B);
	if (growing(h)) {
		uintptr_t koff = stackoff(g, key);
		growWork(h, bucket, fk);
		key = stackptr(g, key, koff);
	}
	uint8_t *bOrig = h->buckets + bucket * h->bucketsize;
	slot s = findin(h, bOrig, key, tophash(hash), fk);
	if (s.b != NULL) {
		clearkeyelem(h, keyat(h, s.b, s.i, fk), elemat(h, s.b, s.i, fk), fk);
		s.b[s.i] = emptyOne;
		markEmptyRest(h, bOrig, s.b, s.i);
		h->count--;
		/* an empty map takes a new seed: an attacker who found
		 * colliding keys has to start over (Go issue 25237) */
		if (h->count == 0)
			h->hash0 = newseed();
	}
	if (GL_UNLIKELY(!(h->flags & hashWriting)))
		gl_fatal("concurrent map writes");
	h->flags &= ~hashWriting;
}

#define DEF_DELETE(name, fk) \
	static GL_NOINLINE void delete_##name(G *g, GlMap *h, const void *key) { delete_t(g, h, key, fk); }
FOR_EACH_FK(DEF_DELETE)

void mapdelete(G *g, const GlType *mt, GlMap *h, const void *key) {
	if (h == NULL || h->count == 0) {
		entrySafePoint(g); /* delete_t checks for the others */
		hashforpanic(mt, key);
		return;
	}
	switch (h->fastkind) {
	case FK_MEM64: delete_mem64(g, h, key); break;
	case FK_STR: delete_str(g, h, key); break;
	case FK_MEM32: delete_mem32(g, h, key); break;
	default: delete_generic(g, h, key); break;
	}
}

/* ---- clear ---- */

/* Mark every slot of n buckets and their chains emptyRest. */
static void emptychains(GlMap *h, uint8_t *buckets, uintptr_t n) {
	for (uintptr_t j = 0; j < n; j++)
		for (uint8_t *b = buckets + j * h->bucketsize; b != NULL; b = *overflowp(h, b))
			memset(b, emptyRest, bucketCnt);
}

/* clear(m).  The bucket array is zeroed and reused.  A live iterator
 * could still be standing in an overflow bucket that the zeroing does not
 * reach, or walk an old array; mark all of those empty first so that it
 * yields nothing more. */
void mapclear(G *g, const GlType *mt, GlMap *h) {
	(void)g;
	(void)mt;
	if (h == NULL || h->count == 0)
		return;
	if (GL_UNLIKELY(h->flags & hashWriting))
		gl_fatal("concurrent map writes");
	h->flags ^= hashWriting;
	if (h->flags & (iterator | oldIterator)) {
		emptychains(h, h->buckets, bucketShift(h->B));
		if (growing(h))
			emptychains(h, h->oldbuckets, noldbuckets(h));
	}
	h->flags &= ~sameSizeGrow;
	writebarrierptr(&h->oldbuckets, NULL);
	writebarrierptr(&h->oldovf, NULL);
	/* The array is reused and its heap overflow buckets are garbage —
	 * unless an iterator is still in one of its chains, and may walk on
	 * into buckets added after this: then the new list is made now and
	 * the old one links to it (ovflist).  (Go drops the list here, and
	 * its iterator can read freed buckets: testdata/run/map_clear_iter.) */
	ovflist *old = h->ovf;
	writebarrierptr(&h->ovf, NULL);
	if (old != NULL && (h->flags & (iterator | oldIterator))) {
		systemstack(ovflistOf_m, h);
		writebarrierptr(&old->next, h->ovf);
	}
	h->nevacuate = 0;
	h->noverflow = 0;
	h->count = 0;
	h->hash0 = newseed();
	makeBucketArray(h, h->B, h->buckets);
	if (GL_UNLIKELY(!(h->flags & hashWriting)))
		gl_fatal("concurrent map writes");
	h->flags &= ~hashWriting;
}

/* ---- iteration ---- */

/* GlMapIter (gl.h) is Go's hiter: key, elem, t, h, buckets (the array
 * when iteration started), bptr (current bucket), startBucket, bucket
 * (next bucket to visit), i (next slot), B, wrapped, offset (slot
 * rotation), checkBucket (see mapiternext), inheap, and overflow and
 * oldoverflow, the lists of the heap overflow buckets of buckets and of
 * the old array when the buckets are noscan. */

/* The layout of a GlMapIter for the stack maps: glc lists a range loop's
 * iterator as a frame slot of this type, so that a scan sees the map and
 * the bucket it walks.  Words 0 key, 1 elem, 3 h, 4 buckets, 5 bptr, 14
 * overflow and 15 oldoverflow point into the heap; word 2, t, is a static descriptor. */
static const uint8_t mapiter_ptrmask[] = {0x3b, 0xc0};
const GlType gl_mapitertype = {
	.size = sizeof(GlMapIter), .ptrdata = 16 * sizeof(void *), .kind = GL_KIND_STRUCT, .align = 8,
	.gcdata = mapiter_ptrmask, .str = {(const uint8_t *)"runtime.hiter", 13},
};

/* The iterator is usually a frame slot (a range loop's), which needs no
 * barrier (stacks are scanned), but reflect's MapIter keeps it in the
 * heap: there its pointer words are written with the barrier.  Which of
 * the two it is is decided once, by mapiterinit (it.inheap). */
static inline void iterptr(const GlMapIter *it, void *slot, const void *p) {
	if (it->inheap)
		writebarrierptr(slot, p);
	else
		*(const void **)slot = p;
}

void mapiterinit(G *g, const GlType *mt, GlMap *h, GlMapIter *it) {
	bool inheap = g == NULL || (uintptr_t)it < g->stack.lo || (uintptr_t)it >= g->stack.hi;
	if (inheap)
		typedmemclr(&gl_mapitertype, it);
	else
		memset(it, 0, sizeof *it);
	it->inheap = inheap;
	it->t = mt;
	if (h == NULL || h->count == 0)
		return;
	iterptr(it, &it->h, h);
	it->B = h->B;
	iterptr(it, &it->buckets, h->buckets);
	/* Noscan buckets: the iterator may walk a chain of buckets, or of the
	 * old array, after the end of a growth has dropped its list from the
	 * map, so it keeps both lists (buckets' made now if there is none:
	 * its chains may gain overflow buckets later; the old array gains
	 * none). */
	if (noscanBuckets(h)) {
		if (h->ovf == NULL)
			systemstack(ovflistOf_m, h);
		iterptr(it, &it->overflow, h->ovf);
		iterptr(it, &it->oldoverflow, h->oldovf);
	}
	uint64_t r = newseed();
	it->startBucket = r & bucketMask(h->B);
	it->offset = (r >> (h->B & 63)) & (bucketCnt - 1);
	it->bucket = it->startBucket;
	/* Other readers may be starting iterations too (that is allowed):
	 * set the bits atomically. */
	if ((h->flags & (iterator | oldIterator)) != (iterator | oldIterator))
		__atomic_fetch_or(&h->flags, iterator | oldIterator, __ATOMIC_RELAXED);
	mapiternext(it);
}

/* The map's hash of a key already in it, whatever its fastkind. */
static uintptr_t maphash(const GlMap *h, const void *k) {
	switch (h->fastkind) {
	case FK_MEM64: return hashof(h, k, FK_MEM64);
	case FK_STR: return hashof(h, k, FK_STR);
	case FK_MEM32: return hashof(h, k, FK_MEM32);
	default: return hashof(h, k, FK_GENERIC);
	}
}

/* Whether the entry at slot k (tophash top) of an old bucket that is being
 * split belongs to new bucket checkBucket, the one being visited. */
static bool inCheckBucket_t(const GlMapIter *it, const GlMap *h, const void *k, uint8_t top,
			    uintptr_t checkBucket) {
	if (reflexive(h, k, FK_GENERIC))
		return (maphash(h, k) & bucketMask((uint8_t)it->B)) == checkBucket;
	/* NaN: evacuate decides by the tophash's low bit; agree with it */
	return (checkBucket >> (it->B - 1)) == (uintptr_t)(top & 1);
}

/* The generic case hashes through the key's descriptor: on g0, as for
 * relookup below (and as rare: iterating while the map grows). */
typedef struct checkbucketargs {
	const GlMapIter *it;
	const GlMap *h;
	const void *k;
	uintptr_t checkBucket;
	uint8_t top;
	bool in;
} checkbucketargs;

static void inCheckBucket_m(void *arg) {
	checkbucketargs *a = arg;
	a->in = inCheckBucket_t(a->it, a->h, a->k, a->top, a->checkBucket);
}

static GL_NOINLINE bool inCheckBucket(const GlMapIter *it, const GlMap *h, const void *k, uint8_t top,
				      uintptr_t checkBucket) {
	uintptr_t m = bucketMask((uint8_t)it->B);
	switch (h->fastkind) { /* no NaNs in these kinds: reflexive */
	case FK_MEM64: return (hashof(h, k, FK_MEM64) & m) == checkBucket;
	case FK_STR: return (hashof(h, k, FK_STR) & m) == checkBucket;
	case FK_MEM32: return (hashof(h, k, FK_MEM32) & m) == checkBucket;
	}
	checkbucketargs a = {it, h, k, checkBucket, top, false};
	systemstack(inCheckBucket_m, &a);
	return a.in;
}

/* Look up again a key that came from the map.  Its hash cannot panic,
 * but a generic key's goes through its descriptor (alg.c), which with
 * mapiternext's frame is more than a runtime call may use of the reserve
 * band: on g0 (rare: only for entries moved by a growth since the
 * iteration started). */
typedef struct relookupargs {
	const GlMap *h;
	const void *key;
	slot s;
} relookupargs;

static void relookup_m(void *arg) {
	relookupargs *a = arg;
	a->s = lookup_generic(NULL, a->h, a->key);
}

static GL_NOINLINE slot relookup(const GlMap *h, const void *key) {
	switch (h->fastkind) {
	case FK_MEM64: return lookup_mem64(NULL, h, key);
	case FK_STR: return lookup_str(NULL, h, key);
	case FK_MEM32: return lookup_mem32(NULL, h, key);
	}
	relookupargs a = {h, key, {NULL, 0}};
	systemstack(relookup_m, &a);
	return a.s;
}

void mapiternext(GlMapIter *it) {
	entrySafePoint(tls_g);
	GlMap *h = it->h;
	if (h == NULL) {
		iterptr(it, &it->key, NULL);
		iterptr(it, &it->elem, NULL);
		return;
	}
	if (GL_UNLIKELY(h->flags & hashWriting))
		gl_fatal("concurrent map iteration and map write");
	uintptr_t bucket = it->bucket, i = it->i, checkBucket = it->checkBucket;
	uintptr_t bsz = h->bucketsize;
	uint8_t *b = it->bptr;
	for (;;) {
		if (b == NULL) {
			if (bucket == it->startBucket && it->wrapped) {
				iterptr(it, &it->key, NULL);
				iterptr(it, &it->elem, NULL);
				return;
			}
			if (growing(h) && it->B == h->B) {
				/* Started during this growth, which is not done:
				 * while the old bucket is not evacuated, walk it
				 * and take only the entries that go to bucket. */
				uint8_t *ob = h->oldbuckets + (bucket & oldbucketmask(h)) * bsz;
				if (!evacuated(ob)) {
					b = ob;
					checkBucket = bucket;
				} else {
					b = (uint8_t *)it->buckets + bucket * bsz;
					checkBucket = noCheck;
				}
			} else {
				b = (uint8_t *)it->buckets + bucket * bsz;
				checkBucket = noCheck;
			}
			bucket++;
			if (bucket == bucketShift((uint8_t)it->B)) {
				bucket = 0;
				it->wrapped = 1;
			}
			i = 0;
		}
		for (; i < bucketCnt; i++) {
			uintptr_t offi = (i + it->offset) & (bucketCnt - 1);
			uint8_t top = b[offi];
			if (isEmpty(top) || top == evacuatedEmpty)
				continue;
			void *k = kptr(h, keyat(h, b, offi, FK_GENERIC), FK_GENERIC);
			if (checkBucket != noCheck && !(h->flags & sameSizeGrow) &&
			    !inCheckBucket(it, h, k, top, checkBucket))
				continue;
			if ((top != evacuatedX && top != evacuatedY) || !reflexive(h, k, FK_GENERIC)) {
				/* Not moved since iteration began (or a NaN, which
				 * cannot be found, updated or deleted: this copy is
				 * as good as any). */
				iterptr(it, &it->key, k);
				iterptr(it, &it->elem, eptr(h, elemat(h, b, offi, FK_GENERIC), FK_GENERIC));
			} else {
				/* The map grew since; the entry may have been
				 * deleted or updated: look it up. */
				slot s = relookup(h, k);
				if (s.b == NULL)
					continue;
				iterptr(it, &it->key, kptr(h, keyat(h, s.b, s.i, FK_GENERIC), FK_GENERIC));
				iterptr(it, &it->elem, eptr(h, elemat(h, s.b, s.i, FK_GENERIC), FK_GENERIC));
			}
			it->bucket = bucket;
			iterptr(it, &it->bptr, b);
			it->i = i + 1;
			it->checkBucket = checkBucket;
			return;
		}
		b = *overflowp(h, b);
		i = 0;
	}
}
