/*
 * mwbshadow.c — GLDEBUG=wbshadow=1: a shadow heap that catches pointer
 * stores that bypassed the write barrier (Go 1.5 had the same mode, under
 * the same name, while its concurrent collector was being built).
 *
 * Why.  The concurrent mark is only as good as the barrier: a pointer
 * stored into the heap while marking, without shading the old value and
 * the new one, can leave an object reachable only through a black object
 * or an already scanned stack, and the sweeper frees it under the
 * program.  glc proves at compile time that generated code stores heap
 * pointers only through store() (glc build -d=checkstores).  Nothing
 * proves it for the runtime's C, for inline code glc writes outside
 * store() (sync/atomic's pointer operations), or for a bug in the
 * barrier's own entries.  Such a bug shows only when a cycle happens to
 * be marking at the wrong instant, so tests rarely see it; this mode
 * sees every one, deterministically.
 *
 * How.  Each heap arena gets a shadow: another 64 MiB mapping (reserved,
 * touched only where used), word for word beside the arena.  The mode
 * turns the barrier on for the whole run (it implies wbforce=1), and
 * every barrier entry (mbarrier.c) writes the value it stores into the
 * shadow word as well.  So, for every pointer word of every allocated
 * object,
 *
 *	*word == *shadow(word)
 *
 * unless something stored into the word without the barrier.  The
 * invariant's other half: the shadow of a word that is not in use is 0,
 * and so is the word when its object is allocated (every object with
 * pointers is allocated zeroed — mallocgc's callers pass needzero for
 * them — and the sweeper zeroes the shadow of each object it frees,
 * mgcsweep.c).
 *
 * A store without the barrier does harm only if the pointer it overwrites
 * or the one it writes points into the heap: shading anything else does
 * nothing.  So a difference where neither value is a heap pointer (a code
 * address stored into a new closure, a package variable's address) is
 * not reported, as Go's compiler leaves out the barrier for such stores
 * into new objects.
 *
 * Checked twice over: each barrier first checks the word it overwrites
 * (the goroutine's traceback then shows the store after the one that
 * missed, and the message names the object); and at each pause of a
 * cycle, with the world stopped, every pointer word of every allocated
 * object in the heap is compared (wbshadowCheck).  A mismatch is a fatal
 * error naming the word, the object and both values.
 *
 * Only the heap is shadowed: package variables are not (glc's proof covers
 * the stores generated code makes into them; the runtime's own roots are
 * greyed again at mark termination), nor are stacks (no barrier there).
 * Atomic stores of pointers (sync/atomic) take a lock of this file's
 * around the operation and its shadow write, so that two of them on one
 * word cannot leave the shadow behind; plain stores that race are a bug
 * of the program, and may be reported.
 */
#include "rt.h"

#include <sys/mman.h>

bool wbshadowEnabled;

void wbshadowInit(void) {
#ifndef GL_GC_BOEHM /* Boehm's heap has no shadow: the knob does nothing there */
	wbshadowEnabled = gl_debug.wbshadow != 0;
#endif
}

/* Arena ha was just reserved: map its shadow (heapArena.shadow), zero
 * and untouched (MAP_NORESERVE: only the pages the barrier writes cost
 * memory).  Before the arena is published (mheap.c). */
void wbshadowArena(heapArena *ha) {
	if (!wbshadowEnabled)
		return;
	void *p = sys_mmap(NULL, heapArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	if (p == NULL)
		sysOutOfMemory(heapArenaBytes, "the write-barrier shadow (GLDEBUG=wbshadow)");
	ha->shadow = p;
}

static uintptr_t *shadowword(uintptr_t p) {
	return arenaOf(p)->shadow + ((p & (heapArenaBytes - 1)) >> 3);
}

/* The shadow word of p, a word of an in-use span of objects with
 * pointers; NULL anywhere else (stacks, noscan spans, outside the heap). */
uintptr_t *wbshadowOf(uintptr_t p) {
	mspan *s = spanOfHeap(p);
	if (s == NULL || spanClass_noscan(s->spanclass))
		return NULL;
	return shadowword(p);
}

/* ---- reporting a miss ---- */

typedef struct missArgs {
	uintptr_t word, held, shadow;
	const char *when;
} missArgs;

/* The object's first words, "p" after each pointer word: what it is can
 * often be told from them (a type descriptor's address, a length). */
static void dumpobject(uintptr_t obj, uintptr_t size) {
	prints("runtime: the object's words:");
	for (uintptr_t q = obj; q < obj + size && q < obj + 32 * 8; q += 8) {
		prints(" ");
		printhex(*(uintptr_t *)q);
		if (heapBitsIsPointer(q))
			prints("p");
	}
	printnl();
}

static void missed_m(void *arg) {
	missArgs *a = arg;
	mspan *s = NULL;
	uintptr_t obj = findObject(a->word, &s, NULL);
	prints("runtime: write barrier missed ");
	prints(a->when);
	prints(": word ");
	printhex(a->word);
	if (obj != 0) {
		prints(" (object ");
		printhex(obj);
		prints(", ");
		printuint(s->elemsize);
		prints(" bytes, at +");
		printuint(a->word - obj);
		prints(")");
	}
	prints(" holds ");
	printhex(a->held);
	prints(", but the last store through the barrier wrote ");
	printhex(a->shadow);
	printnl();
	if (obj != 0)
		dumpobject(obj, s->elemsize);
	gl_throw("wbshadow: a pointer was stored into the heap without the write barrier");
}

/* Whether word w, which holds held where its shadow says shadow, was
 * written without a barrier that mattered: one of the two is a pointer
 * into the heap. */
static bool harmful(uintptr_t held, uintptr_t shadow) {
	return spanOfHeap(held) != NULL || spanOfHeap(shadow) != NULL;
}

/* The barrier is about to overwrite word w (its shadow sh) and found it
 * changed behind its back.  The report is made on the system stack: the
 * barrier's callers run as leaves on goroutine stacks (DESIGN.md S7). */
void wbshadowMissed(uintptr_t w, uintptr_t *sh) {
	missArgs a = {w, *(uintptr_t *)w, *sh, "before a store"};
	if (harmful(a.held, a.shadow))
		systemstack(missed_m, &a);
}

/* gcWriteBarrier's two halves, on the system stack, for a store into the
 * word at arg: before it, the word must hold what its shadow says; after
 * it, the shadow takes what it holds. */
void wbshadowVerify_m(void *arg) {
	uintptr_t w = (uintptr_t)arg, *sh = wbshadowOf(w);
	if (sh != NULL && *sh != *(uintptr_t *)w)
		wbshadowMissed(w, sh);
}

void wbshadowSync_m(void *arg) {
	uintptr_t w = (uintptr_t)arg, *sh = wbshadowOf(w);
	if (sh != NULL)
		*sh = *(uintptr_t *)w;
}

/* ---- atomics ---- */

/* Around an atomic pointer operation and its shadow write.  A spin lock:
 * its holders are runtime leaves on goroutine stacks (atomic.c), which
 * hold it for a few instructions and never block under it. */
static uint32_t atomicLock;

void wbshadowAtomicLock(void) {
	while (__atomic_exchange_n(&atomicLock, 1, __ATOMIC_ACQUIRE) != 0)
		__builtin_ia32_pause();
}

void wbshadowAtomicUnlock(void) {
	__atomic_store_n(&atomicLock, 0, __ATOMIC_RELEASE);
}

/* ---- the sweeper's side ---- */

/* [p, p+n) was freed: its shadow goes back to zero, as the memory will
 * be when it is allocated again. */
void wbshadowFree(uintptr_t p, uintptr_t n) {
	if (!wbshadowEnabled)
		return;
	memset(shadowword(p), 0, n);
}

/* ---- the whole heap, with the world stopped ---- */

static bool allocated(const mspan *s, uint32_t i) {
	return i < s->freeindex || (s->allocBits[i / 8] >> (i % 8) & 1);
}

static void checkspan(mspan *s, const char *when) {
	for (uint32_t i = 0; i < s->nelems; i++) {
		if (!allocated(s, i))
			continue;
		uintptr_t x = s->startAddr + (uintptr_t)i * s->elemsize;
		uintptr_t end = s->nelems == 1 ? s->limit : x + s->elemsize;
		for (uintptr_t w = x; w < end; w += 8) {
			if (!heapBitsIsPointer(w))
				continue;
			uintptr_t *sh = wbshadowOf(w);
			if (*sh != *(uintptr_t *)w && harmful(*(uintptr_t *)w, *sh)) {
				missArgs a = {w, *(uintptr_t *)w, *sh, when};
				missed_m(&a);
			}
		}
	}
}

/* Every pointer word of every allocated object against its shadow; on
 * g0, with the world stopped (a cycle's pauses, mgc.c). */
void wbshadowCheck(const char *when) {
	if (!wbshadowEnabled)
		return;
	for (uint32_t a = 0; a < mheap_.nallArenas; a++) {
		heapArena *ha = arenaOf(mheap_.allArenas[a]);
		for (uint32_t pg = 0; pg < pagesPerArena; pg++) {
			mspan *s = ha->spans[pg];
			if (s != NULL && s->state == mSpanInUse && !spanClass_noscan(s->spanclass) &&
			    s->startAddr == mheap_.allArenas[a] + (uintptr_t)pg * pageSize)
				checkspan(s, when);
		}
	}
}
