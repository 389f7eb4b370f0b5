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
