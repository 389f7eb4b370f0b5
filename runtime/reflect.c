/*
 * reflect.c — the few functions package reflect (stdlib/reflect) declares
 * without a body.  Package reflect reads type descriptors (GlType) and
 * values itself, through unsafe pointers and a gl mirror of the C structs
 * (//gl:ctype: glc contract checks the two layouts when the runtime is
 * compiled); what needs the runtime is here: allocation, typed copies, map
 * iteration and lookup, equality, itabs.
 *
 * Called from generated code with its calling convention (G *g first), on
 * the goroutine stack: each is a small leaf, or calls only runtime entries
 * that generated code itself calls on the goroutine stack (mallocgc,
 * mapiterinit, mapaccess2, getitab, the equal functions) (DESIGN.md S7).
 */
#include "rt.h"

/* A new zeroed object of type t. */
void *reflect_unsafe_New(G *g, const GlType *t) {
	(void)g;
	return mallocgc(t->size, t->ptrdata ? t : NULL, true);
}

void *reflect_unsafe_NewArray(G *g, const GlType *t, int64_t n) {
	return gl_newarray(g, t, n);
}

/* Copies and clears of values of type t: the runtime's typed memory
 * (mbarrier.c), where the collector's write barrier will be. */
void reflect_typedmemmove(G *g, const GlType *t, void *dst, void *src) {
	(void)g;
	typedmemmove(t, dst, src);
}

void reflect_typedmemclr(G *g, const GlType *t, void *p) {
	(void)g;
	typedmemclr(t, p);
}

/* a == b for values of the comparable type t; may panic (an interface
 * holding an uncomparable value), as == does. */
bool reflect_valueEqual(G *g, const GlType *t, void *a, void *b) {
	(void)g;
	if (t->equal == NULL)
		return memcmp(a, b, t->size) == 0;
	return t->equal(t, a, b);
}

/* Map iteration: it is a GlMapIter in the caller's data frame or the heap. */
void reflect_mapiterinit(G *g, const GlType *t, void *m, GlMapIter *it) {
	mapiterinit(g, t, m, it);
}

void reflect_mapiternext(G *g, GlMapIter *it) {
	(void)g;
	mapiternext(it);
}

int64_t reflect_maplen(G *g, void *m) {
	(void)g;
	return maplen(m);
}

/* A pointer to the element for key, or NULL if absent. */
void *reflect_mapaccess(G *g, const GlType *t, void *m, void *key) {
	return mapaccess2(g, t, m, key);
}

int64_t reflect_chanlen(G *g, void *c) {
	(void)g;
	return c == NULL ? 0 : chanlen(c);
}

int64_t reflect_chancap(G *g, void *c) {
	(void)g;
	return c == NULL ? 0 : chancap(c);
}

/* Store the value (t, word) in the interface of type it at p (reflect has
 * checked that t implements it).  p is in the heap (a reflect.Value's
 * target): with the barrier. */
void reflect_setIface(G *g, const GlType *it, void *target, const GlType *t, void *word) {
	(void)g;
	GlIface *p = target;
	const GlItab *tab = t ? getitab(it, t, true) : NULL;
	writebarrierptr(&p->tab, tab);
	writebarrierptr(&p->data, tab ? word : NULL);
}

/* A word that holds a pointer: the element of reflect_makeFuncArgs's array. */
static const uint8_t ptrword_mask[] = {1};
static const GlType ptrword_type = {
	.size = sizeof(void *), .ptrdata = sizeof(void *), .kind = GL_KIND_UNSAFEPOINTER, .align = 8,
	.gcdata = ptrword_mask, .str = {(const uint8_t *)"unsafe.Pointer", 14},
};

/* The arguments of a call of a func value reflect.MakeFunc made, for
 * reflect.callMakeFunc: each *src[i] copied to a new object of the func
 * type's i'th parameter type, the pointers to those in a new array.  src
 * points into the caller's frame (glc's GlType.makefunc code): nothing
 * here moves the stack. */
void *reflect_makeFuncArgs(G *g, const GlType *ft, const void *const *src) {
	(void)g;
	void **a = mallocgc((uint64_t)ft->nin * sizeof(void *), &ptrword_type, true);
	for (int i = 0; i < ft->nin; i++) {
		const GlType *t = ft->in[i];
		void *p = mallocgc(t->size, t, true);
		typedmemmove(t, p, src[i]);
		writebarrierptr(&a[i], p);
	}
	return a;
}

/* Copy the results of the func type ft between a tuple and separate
 * objects: tuple is laid out as a function of ft returns them (one, or a
 * C struct of them, in order); r[i] points to the i'th.  With barriers:
 * either side may be the heap. */
static void copyResults(const GlType *ft, uint8_t *tuple, void *const *r, bool totuple) {
	uint64_t off = 0;
	for (int i = 0; i < ft->nout; i++) {
		const GlType *t = ft->out[i];
		off = (off + t->align - 1) & ~(uint64_t)(t->align - 1);
		if (totuple)
			typedmemmove(t, tuple + off, r[i]);
		else
			typedmemmove(t, r[i], tuple + off);
		off += t->size;
	}
}

/* The results of a call of a func value reflect.MakeFunc made, behind
 * the pointers in r, laid out at dst as that value's code returns them. */
void reflect_makeFuncResults(G *g, const GlType *ft, void *const *r, void *dst) {
	(void)g;
	copyResults(ft, dst, r, true);
}

/* The results of a call Value.Call made (GlType.call's code), laid out
 * at src, into the objects r[i]. */
void reflect_callResults(G *g, const GlType *ft, const void *src, void *const *r) {
	(void)g;
	copyResults(ft, (uint8_t *)(uintptr_t)src, r, false);
}

/* Value.Call: the code glc emitted for the func type t (GlType.call)
 * calls f with the arguments and results behind the pointers in a and r
 * (heap objects).  That code's frame holds the callee's stack arguments,
 * so it runs with GL_REFLECTCALL_STACK bytes free above the guard, which
 * glc checks its frame fits in; the callee then finds the whole band. */
void reflect_call(G *g, const GlType *t, void *f, void *a, void *r, void *s) {
	RT_STACKCHECK(g, GL_REFLECTCALL_STACK, GL_FIXPARAM(g, f)); /* f may be a closure in a frame */
	((void (*)(G *, GlFunc *, void *const *, void *const *, void *))t->call)(g, f, a, r, s);
}
