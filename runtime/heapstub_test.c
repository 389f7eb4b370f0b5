/*
 * heapstub.c — the heap as runtime/mbarrier.c sees it, for the unit tests
 * that link mbarrier.c without the heap (rt_test, map_test): an mheap_
 * with no arenas, so every address is outside the heap (mheap.h's
 * spanOfHeap returns NULL), and the collector's side of the barrier,
 * never reached, since the barrier is off (writeBarrier.enabled is only
 * set by GLDEBUG=wbforce or a concurrent mark).
 */
#include "rt.h"

mheap mheap_;

bool gcShadeBuf(const uintptr_t *p, uint64_t n) {
	(void)p;
	(void)n;
	return false;
}

bool wbshadowEnabled; /* never: GLDEBUG is not read */

uintptr_t *wbshadowOf(uintptr_t p) {
	(void)p;
	return NULL;
}

void wbshadowMissed(uintptr_t w, uintptr_t *sh) {
	(void)w;
	(void)sh;
}

void wbshadowVerify_m(void *w) {
	(void)w;
}

void wbshadowSync_m(void *w) {
	(void)w;
}

bool heapBitsIsPointer(uintptr_t a) {
	(void)a;
	return false;
}
