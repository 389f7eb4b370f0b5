/*
 * mgcstack.c — scanning a goroutine's stack for the collector, with stack
 * objects (Go's mgcstack.go and scanstack, in our own way).
 *
 * A data frame's stack map (GlFuncInfo.slots) covers the whole call, and
 * glc drops a local at its last use by zeroing its member (GL_CLEAR,
 * compiler/emitstmt.c "last uses").  A local whose address is taken and
 * stays in the frame cannot be zeroed there: a pointer may still read it.
 * Go calls such a variable a stack object and decides at each scan, as a
 * small collection of the stack, whether it is still reachable: an object
 * is scanned if a statement still names it (static liveness) or if a
 * pointer the scan finds points into it — from a live member, from the
 * words scanned conservatively, from a sudog, or from another stack
 * object scanned.  An object nothing reaches keeps nothing alive: the heap
 * objects only it points to are freed while its frame still exists (Go's
 * test/stackobj3.go).
 *
 * glc gives each such local a bit in a per-frame dead mask (at
 * GlFuncInfo.objdead), set after the last statement that names it and
 * cleared where it is declared (gl.h's GL_OBJDEAD, GL_OBJLIVE); its
 * GlFrameSlot has obj = bit + 1.  A slot whose bit is clear is scanned as
 * any other.  Only pointers into the goroutine's own stack can reach a
 * stack object: escape analysis moves a local to the heap when its address
 * could leave the goroutine's stack (DESIGN.md S4), and copystack's list of
 * the words that may hold such pointers (stack.c, adjustrecords) is the
 * list of sources below.
 *
 * The scan runs on the collector's own stack with a fixed table: an
 * object past the table's end is scanned unconditionally, which is what
 * glc did before stack objects existed — never wrong, only later to free.
 */
#include "rt.h"

enum { MAXSTACKOBJS = 64 };

/* A stack object found dead by its bit: the words of its member. */
typedef struct stackObject {
	uintptr_t lo, hi;
	const GlType *typ;
	bool scanned;
} stackObject;

/* One scan of one goroutine's stack.  Invariant: an object is on work
 * exactly once, from the moment something found points into it. */
typedef struct stackScanState {
	G *gp;
	void (*precise)(uintptr_t *, void *);
	void *arg;
	stackObject objs[MAXSTACKOBJS];
	int32_t nobjs;
	int32_t work[MAXSTACKOBJS];
	int32_t nwork;
} stackScanState;

/* Is slot s of frame f a stack object that no statement names any more? */
static bool deadobject(const GlFrame *f, const GlFrameSlot *s) {
	if (s->obj == 0 || f->fn->objdead == 0)
		return false;
	uint64_t mask = *(const uint64_t *)((const uint8_t *)f + f->fn->objdead);
	return mask >> (s->obj - 1) & 1;
}

/* Every dead stack object of gp, innermost frame first, as many as the
 * table holds; scanframes skips exactly these, in the same order. */
static void findobjects(stackScanState *st) {
	for (GlFrame *f = st->gp->topframe; f != NULL; f = f->prev) {
		const GlFuncInfo *fn = f->fn;
		for (int32_t i = 0; fn != NULL && i < fn->nslots; i++) {
			const GlFrameSlot *s = &fn->slots[i];
			if (!deadobject(f, s))
				continue;
			if (st->nobjs == MAXSTACKOBJS)
				return;
			uintptr_t lo = (uintptr_t)f + s->off;
			st->objs[st->nobjs++] = (stackObject){lo, lo + s->typ->size, s->typ, false};
		}
	}
}

/* Word v was found on the stack or in something the stack reaches: if it
 * points into a dead stack object not yet reached, that object is live. */
static void stackpointer(stackScanState *st, uintptr_t v) {
	if (st->nobjs == 0 || v - st->gp->stack.lo >= st->gp->stack.hi - st->gp->stack.lo)
		return;
	for (int32_t i = 0; i < st->nobjs; i++) {
		stackObject *o = &st->objs[i];
		if (v >= o->lo && v < o->hi) {
			if (!o->scanned) {
				o->scanned = true;
				st->work[st->nwork++] = i;
			}
			return;
		}
	}
}

/* The pointer words of the member at w of type typ. */
static void scanmember(stackScanState *st, uintptr_t *w, const GlType *typ) {
	for (uint64_t j = 0; j < typ->ptrdata / 8; j++)
		if (typ->gcdata[j / 8] >> (j % 8) & 1) {
			st->precise(&w[j], st->arg);
			stackpointer(st, w[j]);
		}
}

/* Every data frame's members by its stack map, but the dead stack objects
 * findobjects listed (those past its table are scanned here). */
static void scanframes(stackScanState *st) {
	int32_t k = 0;
	for (GlFrame *f = st->gp->topframe; f != NULL; f = f->prev) {
		const GlFuncInfo *fn = f->fn;
		for (int32_t i = 0; fn != NULL && i < fn->nslots; i++) {
			const GlFrameSlot *s = &fn->slots[i];
			if (deadobject(f, s) && k < st->nobjs) {
				k++;
				continue;
			}
			scanmember(st, (uintptr_t *)((uint8_t *)f + s->off), s->typ);
		}
	}
}

/* The words from lo to hi, which no map describes: each is handed to
 * conservative, and may point into a stack object.  The innermost data
 * frame lies inside the innermost C frame: its words are left to its map,
 * or a dead stack object in it would be found alive by its own words. */
static void scanwords(stackScanState *st, uintptr_t lo, uintptr_t hi, void (*conservative)(uintptr_t *, void *)) {
	const GlFrame *top = st->gp->topframe;
	uintptr_t skiplo = (uintptr_t)top, skiphi = skiplo;
	if (top != NULL && top->fn != NULL)
		skiphi = skiplo + top->fn->framesize;
	for (uintptr_t p = lo; p < hi; p += 8) {
		if (p - skiplo < skiphi - skiplo)
			continue;
		conservative((uintptr_t *)p, st->arg);
		stackpointer(st, *(uintptr_t *)p);
	}
}

/* The collector's view of a stopped goroutine's stack: its data frames'
 * pointer members (precise), then the words of its innermost frames, which
 * no map describes (conservative: preempt.c's gcinnerframes), and those
 * of a C call a callback runs below (ffi.c); then the runtime's records
 * that may point into the stack; then every stack object those reached,
 * and what they reach in turn.  Returns the bytes of the stack in use
 * (for gctrace). */
uint64_t gcscanstack(G *gp, void (*precise)(uintptr_t *, void *), void (*conservative)(uintptr_t *, void *), void *arg) {
	stackScanState st;
	st.gp = gp;
	st.precise = precise;
	st.arg = arg;
	st.nobjs = 0;
	st.nwork = 0;
	findobjects(&st);
	scanframes(&st);
	uintptr_t lo, hi, low = gp->stack.hi; /* the lowest address in use */
	if (gcinnerframes(gp, &lo, &hi)) {
		scanwords(&st, lo, hi, conservative);
		low = lo;
	}
	if (gp->topframe != NULL && (uintptr_t)gp->topframe < low)
		low = (uintptr_t)gp->topframe;

	if (gp->cgoscanhi != 0)
		scanwords(&st, gp->stack.hi - gp->cgoscanlo, gp->stack.hi - gp->cgoscanhi, conservative);
	/* a channel operation's value, in the stack of the G parked on it */
	for (sudog *sg = gp->waiting; sg != NULL; sg = sg->waitlink)
		stackpointer(&st, (uintptr_t)sg->elem);
	for (GlDefer *d = gp->_defer; d != NULL; d = d->link)
		stackpointer(&st, (uintptr_t)d->fn);
	while (st.nwork > 0) {
		stackObject *o = &st.objs[st.work[--st.nwork]];
		scanmember(&st, (uintptr_t *)o->lo, o->typ);
	}
	return gp->stack.hi - low;
}
