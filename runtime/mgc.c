/*
 * mgc.c — runtime.GC (Go's runtime/mgc.go).  gl has no collector yet (a
 * later issue brings Go's concurrent mark-sweep, which will shrink stacks
 * as it scans them, goroutine by goroutine).  Until then runtime.GC does
 * the part of a collection that concerns stacks: with the world stopped,
 * every goroutine using less than a quarter of its stack gets it halved
 * (stack.c, shrinkstack), so a goroutine that once recursed deep does not
 * keep its large stack forever; then the stacks of dead goroutines and the
 * stack memory no goroutine uses go back to the OS (stack.c,
 * stackfreeunused).  Nothing is freed on the heap.
 */
#include "rt.h"

/* ---- the rule for runtime C ----
 *
 * The collector finds heap objects from roots: package variables (glc's
 * records), every goroutine's data frames (stack maps), the innermost
 * frames of a stopped goroutine word by word (preempt.c's asyncframe and
 * syncframe: below its last data frame), and the runtime's own records
 * (gcscanruntime below).  A runtime C local is none of these unless it
 * lies in those innermost frames.  So:
 *
 *   Runtime C never holds the only reference to a heap object in a C
 *   local across a point where the collector may run — gopark, a call
 *   into gl code (a deferred call, a comparison or hash function, a
 *   method), entersyscall, or an allocation — unless it runs on the
 *   goroutine's own stack with no gl frame above it (then its frame is in
 *   the word-by-word range).  On g0 (systemstack, mcall) nothing is
 *   scanned: store the object where a root sees it (the G, a typed heap
 *   record) before such a point.
 *
 * Objects the runtime makes on the heap carry a type descriptor (GL_RTTYPE,
 * rt.h) or are pointer-free (NULL type: never scanned); records that live
 * as long as the process (G, M, P, itabs) come from persistentalloc and are
 * not on the heap at all.  Typed objects are zeroed before they can be
 * reached.
 */

/* One pointer: an array of n of them is allocated as n copies of it. */
static const uint8_t ptrword_gc[1] = {1};
const GlType gltype_ptrword = {
	.size = sizeof(void *), .ptrdata = sizeof(void *), .kind = GL_KIND_UNSAFEPOINTER, .align = 8,
	.gcdata = ptrword_gc, .str = {(const uint8_t *)"unsafe.Pointer", 14},
};

/* ---- roots: the runtime's own ---- */

typedef void (*rootfn)(uintptr_t *slot, void *arg);
#define ROOT(f, arg, field) f((uintptr_t *)&(field), arg)

/* What a G (outside the heap) refers to on the heap. */
static void scanGroots(G *gp, rootfn f, void *arg) {
	ROOT(f, arg, gp->_panic);   /* panic records, linked */
	ROOT(f, arg, gp->_defer);   /* defer records, linked */
	ROOT(f, arg, gp->startfn);  /* the go statement's closure, until it runs */
	ROOT(f, arg, gp->param);    /* what goready passed (a sudog) */
	ROOT(f, arg, gp->waiting);  /* the sudogs of a parked channel operation */
	ROOT(f, arg, gp->timer);    /* time.Sleep's timer */
	ROOT(f, arg, gp->selorder); /* select's order arrays */
}

/* Every heap object the runtime's own records and globals refer to.
 * Gs, Ms and Ps are not heap objects (persistentalloc); what they hold
 * is listed here, field by field.  Stacks are scanned separately. */
void gcscanruntime(rootfn f, void *arg) {
	int64_t n = __atomic_load_n(&allglen, __ATOMIC_ACQUIRE);
	G **gs = __atomic_load_n(&allgs, __ATOMIC_ACQUIRE);
	for (int64_t i = 0; i < n; i++)
		scanGroots(gs[i], f, arg);
	for (M *mp = allm; mp != NULL; mp = mp->alllink) {
		scanGroots(mp->g0, f, arg);
		if (mp->gsignal != NULL)
			scanGroots(mp->gsignal, f, arg);
		ROOT(f, arg, mp->waitlock); /* gopark's lock: may be in a channel */
	}
	for (int32_t i = 0; allp != NULL && i < gomaxprocs; i++) {
		P *pp = allp[i];
		for (int32_t k = 0; k < pp->nsudog; k++)
			ROOT(f, arg, pp->sudogcache[k]);
		ROOT(f, arg, pp->timers); /* the heap array; the timers from it */
	}
	ROOT(f, arg, sched.sudogcache); /* the central free list, linked */
	semtablescan(f, arg);           /* sudogs of goroutines in semacquire */
	timescanroots(f, arg);          /* time.Local */
}

/* runtime.CountRuntimeRootsForTest: how many of those slots are not nil. */
static void countroot(uintptr_t *slot, void *arg) {
	*(int64_t *)arg += *slot != 0;
}

static void countroots_m(void *arg) {
	gcscanruntime(countroot, arg);
}

/* On g0, as the collector will run it (and the walk's callbacks are
 * calls the goroutine stack's budget does not cover). */
int64_t runtime_countRuntimeRootsForTest(G *g) {
	(void)g;
	int64_t n = 0;
	systemstack(countroots_m, &n);
	return n;
}

/* ---- roots: package variables ---- */

/* glc's GL_GLOBAL_ROOT records, one per package variable that can hold
 * pointers (weak: a program may have none). */
extern const GlGlobalRoot __start_glroots[] __attribute__((weak));
extern const GlGlobalRoot __stop_glroots[] __attribute__((weak));

/* Call f on every word of a package variable that the variable's type
 * says holds a pointer. */
void gcscanglobals(void (*f)(uintptr_t *slot, void *arg), void *arg) {
	for (const GlGlobalRoot *r = __start_glroots; r < __stop_glroots; r++) {
		uintptr_t *w = r->addr;
		for (uint64_t i = 0; i < r->typ->ptrdata / 8; i++)
			if (r->typ->gcdata[i / 8] >> (i % 8) & 1)
				f(&w[i], arg);
	}
}

/* runtime.ScanGlobalsForTest: which of objs (each size bytes) a root
 * among the package variables points into. */
typedef struct globalscan {
	const GlSlice *objs;
	uintptr_t size;
	uint8_t seen[64];
} globalscan;

static void globalhit(uintptr_t *slot, void *arg) {
	globalscan *a = arg;
	const uintptr_t *objs = a->objs->ptr;
	for (int64_t i = 0; i < a->objs->len && i < 64; i++)
		if (*slot - objs[i] < a->size)
			a->seen[i] = 1;
}

static void scanglobals_m(void *arg) {
	gcscanglobals(globalhit, arg);
}

int64_t runtime_scanGlobalsForTest(G *g, const GlSlice *objs, uintptr_t size) {
	(void)g;
	globalscan a = {objs, size, {0}};
	systemstack(scanglobals_m, &a); /* on g0, as countroots_m */
	int64_t n = 0;
	for (int i = 0; i < 64; i++)
		n += a.seen[i];
	return n;
}

static void gcshrink_m(void *arg) {
	(void)arg;
	shrinkstacks();
	gfreestacks();
	for (int32_t i = 0; i < gomaxprocs; i++)
		stackcache_clear(allp[i]);
	stackfreeunused();
}

/* runtime.GC(). */
void runtime_GC(G *g) {
	(void)g;
	stopTheWorld("GC (forced)");
	systemstack(gcshrink_m, NULL);
	startTheWorld();
}
