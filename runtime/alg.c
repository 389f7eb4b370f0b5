/*
 * alg.c — equality and hashing of gl values by type descriptor (Go's alg.go).
 *
 * Every comparable type's descriptor points at one of the gl_*equal and
 * gl_*hash functions below; maps hash keys with them and the == operator on
 * interfaces (efaceeq, ifaceeq) compares dynamic values with them.
 *
 * The hash.  A 64x64->128-bit multiply whose two halves are xor-folded
 * ("mum") spreads every input bit over the whole word in one step; two such
 * steps, keyed by the caller's seed and by a process-wide random key, give a
 * hash that is fast for short keys and not predictable from outside, which is
 * what a hash table needs (the idea of wyhash; Go's own non-AES fallback is of
 * the same family).  Inputs are read in whole 8-byte words; keys shorter than
 * 8 bytes are read as two overlapping 4-byte words or as three single bytes,
 * so no read ever leaves the key.  The length is mixed in last, so keys that
 * differ only in length hash differently.  The seed of every map is random
 * (map.c), so two maps order the same keys differently.
 *
 * Floats.  +0 and -0 are equal, so they must hash alike: 0 is hashed as +0.
 * NaN is unequal to everything, itself included; it hashes to a fresh random
 * value each time, so the NaN keys of a map never pile up in one bucket.
 *
 * Stack.  These functions run on the goroutine stack, inside the reserve band
 * below stackguard0 (DESIGN.md S7, gl.h GL_STACK_GUARD), called from map.c or
 * from generated code, so each frame is small and nothing recurses there.
 * Hashing or comparing a struct, array or interface would recurse through
 * the descriptors of its parts, one level per level of nesting of the value,
 * and a value reached through interfaces can nest without bound (type T
 * struct{ x any }; T{T{T{...}}}): the nested levels run on g0 (below,
 * "one level here, deeper on g0").
 *
 * Panics.  Hashing or comparing an interface whose dynamic type is not
 * comparable panics with Go's message.  gl_panicstring returns only if a
 * deferred call recovered, and by then deferred gl code may have grown — and
 * so moved — this goroutine's stack, so every pointer we were given into the
 * caller's frame is stale.  After anything that can panic we therefore
 * return at once (false or 0) without touching our arguments again; the
 * generated code checks g->unwinding after the call.
 */
#include "rt.h" /* gl.h, and RT_STACKCHECK */

void alginit(void);

/* The process-wide hash key.  Any odd constants work until alginit replaces
 * them with random ones; maps are randomised by their own seeds anyway. */
static uint64_t hashkey[4] = {
	0xa1da4f438c86cb3bull,
	0xfe2407f521121137ull,
	0xc5bc595b5041671bull,
	0x51f967eb5864feedull,
};

/* alginit: called once at startup, before any map exists (Go's alginit).
 * Changing the key later would change the hash of every key already in a
 * map. */
void alginit(void) {
	for (int i = 0; i < 4; i++)
		hashkey[i] = ((uint64_t)fastrand() << 32 | fastrand()) | 1;
}

/* ---- the mixing function ---- */

static inline uint64_t mum(uint64_t a, uint64_t b) {
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t r8(const uint8_t *p) {
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t r4(const uint8_t *p) {
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* memhash hashes n bytes at p.  Up to 16 bytes it reads two (possibly
 * overlapping) words a and b; longer inputs are folded 16 bytes at a time,
 * three independent lanes for inputs over 48 bytes so that the multiplies
 * overlap in the pipeline. */
static uintptr_t memhash(const uint8_t *p, uint64_t n, uintptr_t seed) {
	uint64_t s = seed ^ hashkey[0];
	uint64_t a, b;
	if (GL_LIKELY(n <= 16)) {
		if (n >= 8) {
			a = r8(p);
			b = r8(p + n - 8);
		} else if (n >= 4) {
			a = r4(p);
			b = r4(p + n - 4);
		} else if (n > 0) {
			a = (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
			b = 0;
		} else {
			a = b = 0;
		}
	} else {
		uint64_t i = n;
		if (i > 48) {
			uint64_t s1 = s, s2 = s;
			do {
				s = mum(r8(p) ^ hashkey[1], r8(p + 8) ^ s);
				s1 = mum(r8(p + 16) ^ hashkey[2], r8(p + 24) ^ s1);
				s2 = mum(r8(p + 32) ^ hashkey[3], r8(p + 40) ^ s2);
				p += 48;
				i -= 48;
			} while (i > 48);
			s ^= s1 ^ s2;
		}
		while (i > 16) {
			s = mum(r8(p) ^ hashkey[1], r8(p + 8) ^ s);
			p += 16;
			i -= 16;
		}
		/* the last 16 bytes, overlapping what was folded already */
		a = r8(p + i - 16);
		b = r8(p + i - 8);
	}
	return mum(hashkey[1] ^ n, mum(a ^ hashkey[1], b ^ s));
}

/* One 8-byte word: the n <= 16 path of memhash with a == b, written out so
 * that floats and plain words share it. */
static inline uintptr_t memhash64(uint64_t v, uintptr_t seed) {
	return mum(hashkey[1] ^ 8, mum(v ^ hashkey[1], v ^ seed ^ hashkey[0]));
}

static inline uintptr_t memhash32(uint64_t v, uintptr_t seed) {
	return mum(hashkey[1] ^ 4, mum(v ^ hashkey[1], v ^ seed ^ hashkey[0]));
}

/* A hash no key can predict or repeat: for NaNs. */
static uintptr_t randhash(uintptr_t seed) {
	return mum(seed ^ hashkey[2], ((uint64_t)fastrand() << 32 | fastrand()) ^ hashkey[3]);
}

/* ---- the stack: one level here, deeper on g0 ----
 *
 * The leaf types — those whose descriptor points at one of the memory,
 * string, float or complex functions — are compared and hashed by direct
 * calls, and so are interfaces holding them.  Anything that nests (an
 * array or struct element that is itself an array or struct, or an
 * interface holding one) is compared or hashed on the M's g0 stack
 * (deepequal, deephash: systemstack), where the walk through the
 * descriptors may recurse as deep as the value nests.  So on the goroutine
 * stack nothing recurses, and the common map keys (strings, numbers,
 * structs of them, interfaces holding them) never switch stacks.
 *
 * On g0 nothing may panic: a value that cannot be compared or hashed is
 * recorded (algbad) and the walk returns false or 0 at once — an array or
 * struct stops at its first unequal element, so the record is the one Go
 * would have panicked at — and the goroutine side panics after the switch
 * back.  algdeep counts the g0 levels of this thread; the switch back
 * happens on the same thread (systemstack never parks).
 *
 * The limit: g0's stack, 512 KiB on the Ms the runtime creates (proc.c),
 * about 190 bytes a level at -O2, so some 2,700 levels of nesting; deeper,
 * nestcheck throws.  Go has no such limit short of its 1 GB stacks: it
 * recurses on the goroutine stack, which grows.  Doing that here needs
 * every pointer into the goroutine stack that these functions and map.c
 * hold across a nested call kept as an offset (stackoff), and a stack
 * check per level. */
static __thread int algdeep __attribute__((tls_model("initial-exec")));
static __thread const GlType *algbad __attribute__((tls_model("initial-exec")));
static __thread bool algbadhash __attribute__((tls_model("initial-exec")));

/* Leave this much of a stack unused when recursing on g0: room for
 * gl_throw's switch and a leaf's red zone. */
#define ALG_STACK_RESERVE 256

static inline void nestcheck(void) {
	G *g = getg();
	/* unsigned: an sp outside [lo, ...) (lo unknown and 0) gives a huge
	 * difference and passes */
	if (GL_UNLIKELY(GL_SP() - g->stack.lo < ALG_STACK_RESERVE))
		gl_throw("runtime: hash or equality of a value nested too deeply for the system stack");
}

/* panicwithtype: panic(runtime.Error("runtime error: " + what + t.str)).
 * The message lives in the heap: the panic outlives this frame. */
static GL_COLD GL_NOINLINE void panicwithtype(G *g, const char *what, size_t nw, const GlType *t) {
	static const char prefix[] = "runtime error: ";
	size_t np = sizeof prefix - 1, nt = (size_t)t->str.len;
	char *msg = mallocgc(np + nw + nt + 1, NULL, false);
	memcpy(msg, prefix, np);
	memcpy(msg + np, what, nw);
	memcpy(msg + np + nw, t->str.ptr, nt);
	msg[np + nw + nt] = 0;
	gl_panicstring(g, msg);
}

/* A value of type t cannot be hashed (hash) or compared: panic, or on g0
 * record it for the goroutine side.  The entry of the panic path, reached
 * from map.c's entries through several frames: it grows the stack first
 * (panic.c explains why the frames above may move). */
static GL_COLD GL_NOINLINE void badtype(const GlType *t, bool hash) {
	if (algdeep > 0) {
		if (algbad == NULL) {
			algbad = t;
			algbadhash = hash;
		}
		return;
	}
	G *g = tls_g; /* getg(), without a call before the check */
	RT_STACKCHECK(g, PANICSTACK, );
	static const char unhashable[] = "hash of unhashable type ";
	static const char uncomparable[] = "comparing uncomparable type ";
	if (hash)
		panicwithtype(g, unhashable, sizeof unhashable - 1, t);
	else
		panicwithtype(g, uncomparable, sizeof uncomparable - 1, t);
}

/* Back from g0: panic for what was recorded there, if anything. */
static inline bool deepfailed(void) {
	if (GL_LIKELY(algbad == NULL) || algdeep > 0)
		return algbad != NULL;
	const GlType *t = algbad;
	algbad = NULL;
	badtype(t, algbadhash);
	return true;
}

/* Whether hashing or comparing a value of type t can panic (it holds an
 * interface somewhere).  Conservative: any struct or array that is not
 * plain memory counts; the answer only decides whether to look at
 * g->unwinding after the call. */
static inline bool mightpanic(const GlType *t) {
	uint8_t k = t->kind;
	return k == GL_KIND_INTERFACE ||
	       ((k == GL_KIND_STRUCT || k == GL_KIND_ARRAY) && !(t->tflag & GL_TFLAG_REGMEM));
}

static inline bool panicked(const GlType *t) {
	return mightpanic(t) && getg()->unwinding;
}

static inline bool blankfield(const GlStructField *f) {
	return f->name.len == 1 && f->name.ptr[0] == '_';
}

/* ---- equality ---- */

bool gl_memequal(const GlType *t, const void *a, const void *b) {
	switch (t->size) {
	case 8: return *(const uint64_t *)a == *(const uint64_t *)b;
	case 4: return *(const uint32_t *)a == *(const uint32_t *)b;
	case 1: return *(const uint8_t *)a == *(const uint8_t *)b;
	default: return a == b || memcmp(a, b, t->size) == 0;
	}
}

bool gl_strequal(const GlType *t, const void *a, const void *b) {
	(void)t;
	return eqstring(*(const GlString *)a, *(const GlString *)b);
}

bool gl_f32equal(const GlType *t, const void *a, const void *b) {
	(void)t;
	return *(const float *)a == *(const float *)b;
}

bool gl_f64equal(const GlType *t, const void *a, const void *b) {
	(void)t;
	return *(const double *)a == *(const double *)b;
}

bool gl_c64equal(const GlType *t, const void *a, const void *b) {
	(void)t;
	const float *x = a, *y = b;
	return x[0] == y[0] && x[1] == y[1];
}

bool gl_c128equal(const GlType *t, const void *a, const void *b) {
	(void)t;
	const double *x = a, *y = b;
	return x[0] == y[0] && x[1] == y[1];
}

/* a == b for a type whose equal does not recurse (0 or 1), or -1.  Plain
 * memory (gl_memequal, and arrays and structs of it) is bytes. */
static inline int leafequal(const GlType *t, const void *a, const void *b) {
	bool (*eq)(const GlType *, const void *, const void *) = t->equal;
	if (eq == gl_memequal || (t->tflag & GL_TFLAG_REGMEM))
		return gl_memequal(t, a, b);
	if (eq == gl_strequal)
		return gl_strequal(t, a, b);
	if (eq == gl_f64equal)
		return gl_f64equal(t, a, b);
	if (eq == gl_f32equal)
		return gl_f32equal(t, a, b);
	if (eq == gl_c128equal)
		return gl_c128equal(t, a, b);
	if (eq == gl_c64equal)
		return gl_c64equal(t, a, b);
	return -1;
}

typedef struct deepcall {
	const GlType *t;
	const void *a, *b;
	uintptr_t seed; /* hash: the seed in, the hash out */
	bool eq;
} deepcall;

static void deepequal_m(void *arg) {
	deepcall *c = arg;
	nestcheck();
	algdeep++;
	c->eq = c->t->equal(c->t, c->a, c->b);
	algdeep--;
}

/* a == b for an array or struct t, on g0: a and b stay put meanwhile (the
 * goroutine is not running, so its stack cannot move). */
static GL_NOINLINE bool deepequal(const GlType *t, const void *a, const void *b) {
	deepcall c = {t, a, b, 0, false};
	systemstack(deepequal_m, &c);
	return deepfailed() ? false : c.eq;
}

/* Two interface values of the same dynamic type t (non-NULL): data words
 * x and y.  Pointer-shaped types are stored in the data word itself. */
static bool ifacedataeq(const GlType *t, void *x, void *y) {
	if (GL_UNLIKELY(t->equal == NULL)) {
		badtype(t, false);
		return false;
	}
	if (t->tflag & GL_TFLAG_DIRECTIFACE)
		return x == y;
	int r = leafequal(t, x, y);
	return r >= 0 ? r : deepequal(t, x, y);
}

bool efaceeq(G *g, GlEface a, GlEface b) {
	(void)g;
	if (a.tab != b.tab)
		return false;
	if (a.tab == NULL)
		return true;
	return ifacedataeq((const GlType *)a.tab, a.data, b.data);
}

bool ifaceeq(G *g, GlIface a, GlIface b) {
	(void)g;
	if (a.tab != b.tab) {
		/* itabs are meant to be unique per (interface, type), but compare
		 * the dynamic types so that a duplicated itab cannot make equal
		 * values unequal */
		if (a.tab == NULL || b.tab == NULL ||
		    ((const GlItab *)a.tab)->type != ((const GlItab *)b.tab)->type)
			return false;
	}
	if (a.tab == NULL)
		return true;
	return ifacedataeq(((const GlItab *)a.tab)->type, a.data, b.data);
}

bool gl_efaceequal(const GlType *t, const void *a, const void *b) {
	(void)t;
	const GlEface *x = a, *y = b;
	if (x->tab != y->tab)
		return false;
	if (x->tab == NULL)
		return true;
	return ifacedataeq((const GlType *)x->tab, x->data, y->data);
}

bool gl_ifaceequal(const GlType *t, const void *a, const void *b) {
	(void)t;
	const GlIface *x = a, *y = b;
	const GlType *tx = x->tab ? ((const GlItab *)x->tab)->type : NULL;
	const GlType *ty = y->tab ? ((const GlItab *)y->tab)->type : NULL;
	if (tx != ty)
		return false;
	if (tx == NULL)
		return true;
	return ifacedataeq(tx, x->data, y->data);
}

/* An element or field of an array or struct: leaves and interfaces here,
 * nested arrays and structs on g0.  false also when it panicked. */
static inline bool elemequal(const GlType *t, const void *a, const void *b) {
	int r = leafequal(t, a, b);
	if (r >= 0)
		return r;
	if (t->equal == gl_efaceequal)
		return gl_efaceequal(t, a, b);
	if (t->equal == gl_ifaceequal)
		return gl_ifaceequal(t, a, b);
	return deepequal(t, a, b);
}

/* Elementwise; an element type of plain memory compares the whole array
 * at once.  Stops at the first difference, as Go's generated code does, so
 * a later uncomparable element does not panic. */
bool gl_arrayequal(const GlType *t, const void *a, const void *b) {
	const GlType *et = t->elem;
	if (et->tflag & GL_TFLAG_REGMEM)
		return memcmp(a, b, t->size) == 0;
	const uint8_t *x = a, *y = b;
	for (int64_t i = 0; i < t->len; i++) {
		/* false also when the element panicked: stop either way */
		if (!elemequal(et, x + i * et->size, y + i * et->size))
			return false;
	}
	return true;
}

bool gl_structequal(const GlType *t, const void *a, const void *b) {
	const uint8_t *x = a, *y = b;
	for (int32_t i = 0; i < t->nfields; i++) {
		const GlStructField *f = &t->fields[i];
		if (blankfield(f))
			continue;
		const GlType *ft = f->typ;
		if (ft->tflag & GL_TFLAG_REGMEM) {
			if (memcmp(x + f->offset, y + f->offset, ft->size) != 0)
				return false;
		} else if (!elemequal(ft, x + f->offset, y + f->offset)) {
			return false;
		}
	}
	return true;
}

/* ---- hashing ---- */

uintptr_t gl_memhash(const GlType *t, const void *p, uintptr_t seed) {
	switch (t->size) {
	case 8: return memhash64(*(const uint64_t *)p, seed);
	case 4: return memhash32(*(const uint32_t *)p, seed);
	default: return memhash(p, t->size, seed);
	}
}

uintptr_t gl_strhash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	const GlString *s = p;
	return memhash(s->ptr, (uint64_t)s->len, seed);
}

static inline uintptr_t f32hash(float f, uintptr_t seed) {
	if (f == 0)
		return memhash32(0, seed); /* +0 and -0 */
	if (f != f)
		return randhash(seed); /* NaN */
	uint32_t bits;
	memcpy(&bits, &f, 4);
	return memhash32(bits, seed);
}

static inline uintptr_t f64hash(double f, uintptr_t seed) {
	if (f == 0)
		return memhash64(0, seed);
	if (f != f)
		return randhash(seed);
	uint64_t bits;
	memcpy(&bits, &f, 8);
	return memhash64(bits, seed);
}

uintptr_t gl_f32hash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	return f32hash(*(const float *)p, seed);
}

uintptr_t gl_f64hash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	return f64hash(*(const double *)p, seed);
}

uintptr_t gl_c64hash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	const float *x = p;
	return f32hash(x[1], f32hash(x[0], seed));
}

uintptr_t gl_c128hash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	const double *x = p;
	return f64hash(x[1], f64hash(x[0], seed));
}

/* The hash of a type whose hashfn does not recurse, by a direct call;
 * *ok false for the others.  Plain memory, arrays and structs of it
 * included, hashes as its bytes (gl_memhash, gl_arrayhash, gl_structhash
 * agree on that). */
static inline uintptr_t leafhash(const GlType *t, const void *p, uintptr_t seed, bool *ok) {
	uintptr_t (*h)(const GlType *, const void *, uintptr_t) = t->hashfn;
	*ok = true;
	if (h == gl_memhash || (t->tflag & GL_TFLAG_REGMEM))
		return gl_memhash(t, p, seed);
	if (h == gl_strhash)
		return gl_strhash(t, p, seed);
	if (h == gl_f64hash)
		return gl_f64hash(t, p, seed);
	if (h == gl_f32hash)
		return gl_f32hash(t, p, seed);
	if (h == gl_c128hash)
		return gl_c128hash(t, p, seed);
	if (h == gl_c64hash)
		return gl_c64hash(t, p, seed);
	*ok = false;
	return 0;
}

static void deephash_m(void *arg) {
	deepcall *c = arg;
	nestcheck();
	algdeep++;
	c->seed = c->t->hashfn(c->t, c->a, c->seed);
	algdeep--;
}

/* The hash of an array or struct t, on g0 (see deepequal). */
static GL_NOINLINE uintptr_t deephash(const GlType *t, const void *p, uintptr_t seed) {
	deepcall c = {t, p, NULL, seed, false};
	systemstack(deephash_m, &c);
	return deepfailed() ? 0 : c.seed;
}

/* The hash of an interface holding a value of type t in data word d.
 * The dynamic type's own hash is mixed into the seed: int(1) and int64(1)
 * are unequal interface values and need not collide. */
static uintptr_t ifacedatahash(const GlType *t, void *const *d, uintptr_t seed) {
	if (GL_UNLIKELY(t->hashfn == NULL)) {
		badtype(t, true);
		return 0;
	}
	seed ^= (uintptr_t)t->hash * 0x9e3779b97f4a7c15ull;
	const void *p = (t->tflag & GL_TFLAG_DIRECTIFACE) ? (const void *)d : *d; /* the word itself, or where it points */
	bool ok;
	uintptr_t h = leafhash(t, p, seed, &ok);
	return ok ? h : deephash(t, p, seed);
}

uintptr_t gl_efacehash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	const GlEface *e = p;
	if (e->tab == NULL)
		return memhash64(0, seed ^ hashkey[2]);
	return ifacedatahash((const GlType *)e->tab, &e->data, seed);
}

uintptr_t gl_ifacehash(const GlType *t, const void *p, uintptr_t seed) {
	(void)t;
	const GlIface *e = p;
	if (e->tab == NULL)
		return memhash64(0, seed ^ hashkey[2]);
	return ifacedatahash(((const GlItab *)e->tab)->type, &e->data, seed);
}

/* An element or field: leaves and interfaces here, the rest on g0. */
static inline uintptr_t elemhash(const GlType *t, const void *p, uintptr_t seed) {
	bool ok;
	uintptr_t h = leafhash(t, p, seed, &ok);
	if (ok)
		return h;
	if (t->hashfn == gl_efacehash)
		return gl_efacehash(t, p, seed);
	if (t->hashfn == gl_ifacehash)
		return gl_ifacehash(t, p, seed);
	return deephash(t, p, seed);
}

/* Whether an element's hash failed: it panicked (on a goroutine stack; x
 * may point into a stack that has moved since) or, on g0, recorded a type
 * it could not hash. */
static inline bool hashfailed(const GlType *t) {
	return GL_UNLIKELY(algdeep > 0 ? algbad != NULL : panicked(t));
}

uintptr_t gl_arrayhash(const GlType *t, const void *p, uintptr_t seed) {
	const GlType *et = t->elem;
	if (et->tflag & GL_TFLAG_REGMEM)
		return memhash(p, t->size, seed); /* consistent with arrayequal's memcmp */
	const uint8_t *x = p;
	uintptr_t h = seed;
	for (int64_t i = 0; i < t->len; i++) {
		h = elemhash(et, x + i * et->size, h);
		if (hashfailed(et))
			return 0;
	}
	return h;
}

uintptr_t gl_structhash(const GlType *t, const void *p, uintptr_t seed) {
	if (t->tflag & GL_TFLAG_REGMEM)
		return memhash(p, t->size, seed); /* as gl_memhash: see leafhash */
	const uint8_t *x = p;
	uintptr_t h = seed;
	for (int32_t i = 0; i < t->nfields; i++) {
		const GlStructField *f = &t->fields[i];
		if (blankfield(f))
			continue;
		const GlType *ft = f->typ;
		h = elemhash(ft, x + f->offset, h);
		if (hashfailed(ft))
			return 0;
	}
	return h;
}
