/* errors.c — what package errors needs to know about types at run time
 * (Go's errors uses internal/reflectlite for the same three questions).
 *
 * Called from generated code on the goroutine stack: small leaves, except
 * assignTarget's getitab, which may allocate (as the generated code's own
 * assertions to an interface type do, iface.c).  The pointer stored
 * through is kept as a stack offset across that call (rt.h stackoff).
 *
 * When the collector's write barrier lands, the stores through target
 * below must go through it (they store an interface's words, or a value of
 * the error's type, into memory that may be in the heap).
 */
#include "rt.h"

/* Does t have the method Error() string? (Implements(error)) */
static bool implementserror(const GlType *t) {
	static const uint8_t name[] = "Error", sig[] = "func() string";
	for (int32_t i = 0; i < t->nmethods; i++) {
		const GlMethod *m = &t->methods[i];
		if (m->name.len == 5 && memcmp(m->name.ptr, name, 5) == 0)
			return m->mtyp->str.len == (int64_t)sizeof sig - 1 &&
			       memcmp(m->mtyp->str.ptr, sig, sizeof sig - 1) == 0;
	}
	return false;
}

static bool sametype(const GlType *a, const GlType *b) {
	return a == b || (a->kind == b->kind && eqstring(a->str, b->str));
}

/* errors.typeComparable(err error) bool */
bool errors_typeComparable(G *g, GlIface err) {
	(void)g;
	const GlType *t = gl_ifacetype(err);
	return t == NULL || t->equal != NULL;
}

/* errors.checkTarget(target any) int: 0 valid, 1 not a non-nil pointer,
 * 2 *target neither an interface nor a type implementing error. */
int64_t errors_checkTarget(G *g, GlEface target) {
	(void)g;
	const GlType *t = gl_efacetype(target);
	if (t == NULL || t->kind != GL_KIND_POINTER || target.data == NULL)
		return 1;
	const GlType *e = t->elem;
	if (e->kind != GL_KIND_INTERFACE && !implementserror(e))
		return 2;
	return 0;
}

/* errors.assignTarget(err error, target any) bool: if err's dynamic type
 * is assignable to *target's type, *target = err.  target is valid
 * (checkTarget) and err is not nil.  *target may be in the heap: every
 * store has the write barrier.  No local's address is taken: getitab may
 * move the stack, and gcc computes such an address once. */
bool errors_assignTarget(G *g, GlIface err, GlEface target) {
	const GlType *et = gl_ifacetype(err);
	const GlType *tt = gl_efacetype(target)->elem;
	if (et == NULL)
		return false;
	if (tt->kind == GL_KIND_INTERFACE) {
		GlIface *dst = target.data;
		const void *tab = et;
		if (tt->nimethods != 0) {
			uintptr_t off = stackoff(g, dst);
			tab = getitab(tt, et, true);
			dst = stackptr(g, dst, off);
			if (tab == NULL)
				return false;
		}
		writebarrierptr(&dst->tab, tab);
		writebarrierptr(&dst->data, err.data);
		return true;
	}
	if (!sametype(et, tt))
		return false;
	if (et->tflag & GL_TFLAG_DIRECTIFACE)
		writebarrierptr(target.data, err.data);
	else
		typedmemmove(et, target.data, err.data);
	return true;
}
