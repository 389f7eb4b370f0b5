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

int64_t runtime_scanGlobalsForTest(G *g, const GlSlice *objs, uintptr_t size) {
	(void)g;
	globalscan a = {objs, size, {0}};
	gcscanglobals(globalhit, &a);
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
