/*
 * iface.c — interface tables built at run time, and the conversions and
 * assertions generated code calls (Go's runtime/iface.go).
 *
 * glc emits the itabs it can see at compile time; getitab builds the rest
 * (assertions to an interface, type switches with interface cases) from
 * the concrete type's method set and the interface's methods, both sorted
 * by name, so one merge-like pass matches them: a method matches when the
 * names are equal and the method types have the same type string (type
 * descriptors are not unique across objects, their strings are).  Itabs
 * are cached in a hash table keyed by (interface, type) — failures too, as
 * an itab with fun[0] == NULL, so a failing type switch is fast the second
 * time — and never freed.  Lookups read the table without a lock; inserts
 * take itabLock and publish a grown table with one atomic store, as Go's
 * itabTable.
 *
 * All of it runs on the goroutine stack, called from generated code:
 * leaves and small frames (DESIGN.md S7).  An out-pointer into the
 * caller's data frame is kept as its distance from stack.hi across
 * mallocgc (rt.h stackoff).
 */
#include "rt.h"

extern const GlType gltype_eface; /* panic.c: "interface {}" */
extern uint64_t zerobase;         /* malloc.c */

typedef struct itabTableType {
	uint64_t size;  /* a power of two */
	uint64_t count;
	const GlItab *entries[];
} itabTableType;

static itabTableType *itabTable;
static mutex itabLock = MUTEX(lockRankItab);

static inline uint64_t itabHashFunc(const GlType *inter, const GlType *typ) {
	/* the type hashes are of their strings; mix in the addresses so two
	 * descriptors with one string still land apart */
	uint64_t h = (uint64_t)inter->hash * 0x9E3779B97F4A7C15ull ^ typ->hash ^ (uintptr_t)typ >> 4;
	return h ^ h >> 29;
}

static const GlItab *itabfind(const itabTableType *t, const GlType *inter, const GlType *typ) {
	if (t == NULL)
		return NULL;
	uint64_t mask = t->size - 1;
	for (uint64_t h = itabHashFunc(inter, typ) & mask, i = 1;; h = (h + i++) & mask) {
		const GlItab *m = __atomic_load_n(&t->entries[h], __ATOMIC_ACQUIRE);
		if (m == NULL)
			return NULL;
		if (m->inter == inter && m->type == typ)
			return m;
	}
}

/* Insert into t (which has room); itabLock held. */
static void itabinsert(itabTableType *t, const GlItab *m) {
	uint64_t mask = t->size - 1;
	for (uint64_t h = itabHashFunc(m->inter, m->type) & mask, i = 1;; h = (h + i++) & mask) {
		if (t->entries[h] == NULL) {
			__atomic_store_n(&t->entries[h], m, __ATOMIC_RELEASE);
			t->count++;
			return;
		}
	}
}

/* Add m, growing the table at 75% load; itabLock held. */
static void itabadd(const GlItab *m) {
	itabTableType *t = itabTable;
	if (t == NULL || 4 * (t->count + 1) > 3 * t->size) {
		uint64_t size = t ? 2 * t->size : 512;
		itabTableType *nt = persistentalloc(sizeof(itabTableType) + size * sizeof(GlItab *));
		nt->size = size;
		for (uint64_t i = 0; t != NULL && i < t->size; i++)
			if (t->entries[i] != NULL)
				itabinsert(nt, t->entries[i]);
		/* readers still holding the old table see a consistent one */
		__atomic_store_n(&itabTable, nt, __ATOMIC_RELEASE);
		t = nt;
	}
	itabinsert(t, m);
}

/* The first method of inter (in its sorted order) that typ lacks, or an
 * empty string if typ implements inter.  If m is not NULL, its fun[] is
 * filled as the methods are found. */
static GlString itabinit(const GlType *inter, const GlType *typ, GlItab *m) {
	int32_t j = 0, nt = typ->nmethods;
	for (int32_t k = 0; k < inter->nimethods; k++) {
		const GlIMethod *im = &inter->imethods[k];
		for (; j < nt; j++) {
			const GlMethod *tm = &typ->methods[j];
			if (eqstring(tm->name, im->name) &&
			    (tm->mtyp == im->mtyp || eqstring(tm->mtyp->str, im->mtyp->str))) {
				if (m != NULL)
					m->fun[k] = tm->ifn;
				goto next;
			}
		}
		if (m != NULL)
			m->fun[0] = NULL;
		return im->name;
	next:;
	}
	return (GlString){NULL, 0};
}

GlString missingmethod(const GlType *inter, const GlType *typ) {
	return itabinit(inter, typ, NULL);
}

/* The itab of (inter, typ).  NULL if typ does not implement inter: then,
 * unless canfail, it has also started a panic (the caller must look at
 * g->unwinding). */
const GlItab *getitab(const GlType *inter, const GlType *typ, bool canfail) {
	if (inter->nimethods == 0)
		gl_throw("internal error - misuse of itab");
	const GlItab *m = itabfind(__atomic_load_n(&itabTable, __ATOMIC_ACQUIRE), inter, typ);
	if (m == NULL) {
		lock(&itabLock);
		m = itabfind(itabTable, inter, typ);
		if (m == NULL) {
			GlItab *n = persistentalloc(sizeof(GlItab) + (uint64_t)inter->nimethods * sizeof(void (*)(void)));
			n->inter = inter;
			n->type = typ;
			n->hash = typ->hash;
			itabinit(inter, typ, n);
			itabadd(n);
			m = n;
		}
		unlock(&itabLock);
	}
	if (m->fun[0] != NULL)
		return m;
	if (!canfail)
		gl_panicassert(getg(), typ, inter, NULL);
	return NULL;
}

/* Box the value at v, of type t, as an interface (out->tab = t; generated
 * code replaces it by the itab for a non-empty interface). */
void gl_convT(G *g, GlEface *out, const GlType *t, const void *v) {
	if (t->tflag & GL_TFLAG_DIRECTIFACE) {
		out->tab = t;
		out->data = *(void *const *)v;
		return;
	}
	void *x;
	if (t->size == 0) {
		x = &zerobase;
	} else {
		uintptr_t ooff = stackoff(g, out), voff = stackoff(g, v);
		x = mallocgc(t->size, t->ptrdata ? t : NULL, true); /* zeroed: a scan may see it before the copy */
		out = stackptr(g, out, ooff);
		v = stackptr(g, v, voff);
		if (t->ptrdata != 0)
			typedmemmove(t, x, v); /* mbarrier.c */
		else
			memmove(x, v, t->size);
	}
	out->tab = t;
	out->data = x;
}

/* x.(T) for x of empty-interface type: the data word (the value itself for
 * pointer-shaped T, a pointer to it otherwise), or NULL after starting a
 * panic. */
void *gl_assertE2T(G *g, GlEface e, const GlType *t) {
	if (GL_LIKELY(e.tab == t))
		return e.data;
	gl_panicassert(g, e.tab, t, &gltype_eface);
	return NULL;
}

/* x.(T) for x of the non-empty interface type iface. */
void *gl_assertI2T(G *g, GlIface i, const GlType *t, const GlType *iface) {
	const GlType *have = gl_ifacetype(i);
	if (GL_LIKELY(have == t))
		return i.data;
	gl_panicassert(g, have, t, iface);
	return NULL;
}

/* x.(I), x an interface (its dynamic type in e.tab) and I an interface:
 * out is I's value.  On failure out is zeroed and ok false. */
static bool assertE2I(G *g, GlIface *out, GlEface e, const GlType *inter, bool canfail) {
	const GlType *t = e.tab;
	if (t != NULL && inter->nimethods == 0) { /* interface{}-shaped: the type is the tab */
		out->tab = t;
		out->data = e.data;
		return true;
	}
	const GlItab *m = NULL;
	if (t != NULL) {
		uintptr_t ooff = stackoff(g, out);
		m = getitab(inter, t, true);
		out = stackptr(g, out, ooff);
	}
	if (m == NULL) {
		out->tab = NULL;
		out->data = NULL;
		if (!canfail)
			gl_panicassert(g, t, inter, NULL);
		return false;
	}
	out->tab = m;
	out->data = e.data;
	return true;
}

void gl_assertE2I(G *g, GlIface *out, GlEface e, const GlType *inter) {
	assertE2I(g, out, e, inter, false);
}

bool gl_assertE2I2(G *g, GlIface *out, GlEface e, const GlType *inter) {
	return assertE2I(g, out, e, inter, true);
}

/* ---- boxing a value into an interface (Go's convT16/32/64) ---- */

/* Small integer values (and any 1, 2, 4 or 8-byte value without pointers
 * whose bits are below 256: false, 0.0, 'a') are boxed by pointing into
 * this table instead of allocating, as Go's staticuint64s: fmt.Println(i)
 * in a loop allocates nothing for small i.  Values in interfaces are never
 * written through, so the table is shared; little-endian, the first 1, 2
 * or 4 bytes of entry v hold v too. */
const uint64_t staticuint64s[256] = {
#define S4(n) n, n + 1, n + 2, n + 3
#define S16(n) S4(n), S4(n + 4), S4(n + 8), S4(n + 12)
#define S64(n) S16(n), S16(n + 16), S16(n + 32), S16(n + 48)
	S64(0), S64(64), S64(128), S64(192)
#undef S64
#undef S16
#undef S4
};

/* The box for a pointer-free value of typ->size (1, 2, 4 or 8) bytes whose
 * bits, zero-extended, are v. */
void *convTsmall(const GlType *typ, uint64_t v) {
	if (v < 256)
		return (void *)&staticuint64s[v];
	void *p = mallocgc(typ->size, NULL, false);
	memcpy(p, &v, typ->size); /* little-endian: the low bytes */
	return p;
}
