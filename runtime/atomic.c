/*
 * atomic.c — package sync/atomic (stdlib/sync/atomic): the functions on
 * int32, int64, uint32, uint64, uintptr and unsafe.Pointer, with gcc's
 * __atomic builtins, sequentially consistent as Go's are.  glc compiles
 * direct calls inline (compiler/emitexpr.c atomicintrinsic), as Go's
 * compiler does; these copies serve func values (f := atomic.AddInt64)
 * and must behave the same.  A nil address panics like Go's nil
 * dereference.
 */
#include "rt.h"

#define NILCHECK(g, addr, ret)                   \
	do {                                      \
		if (GL_UNLIKELY(addr == NULL)) {  \
			gl_panicnil(g);           \
			return ret;               \
		}                                 \
	} while (0)

/* Swap, CompareAndSwap, Load and Store for values of C type T, named
 * after Go's type name N. */
#define ATOMICS(T, N)                                                                      \
	T sync_atomic_Swap##N(G *g, T *addr, T v) {                                        \
		NILCHECK(g, addr, 0);                                                      \
		return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);                     \
	}                                                                                  \
	bool sync_atomic_CompareAndSwap##N(G *g, T *addr, T old, T v) {                    \
		NILCHECK(g, addr, false);                                                  \
		return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, \
						   __ATOMIC_SEQ_CST);                      \
	}                                                                                  \
	T sync_atomic_Load##N(G *g, T *addr) {                                             \
		NILCHECK(g, addr, 0);                                                      \
		return __atomic_load_n(addr, __ATOMIC_SEQ_CST);                            \
	}                                                                                  \
	void sync_atomic_Store##N(G *g, T *addr, T v) {                                    \
		NILCHECK(g, addr, );                                                       \
		__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);                               \
	}

/* ... and Add, for the integer types. */
#define ATOMICADD(T, N)                                                                    \
	T sync_atomic_Add##N(G *g, T *addr, T delta) {                                     \
		NILCHECK(g, addr, 0);                                                      \
		return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);                  \
	}

ATOMICS(int32_t, Int32)
ATOMICADD(int32_t, Int32)
ATOMICS(int64_t, Int64)
ATOMICADD(int64_t, Int64)
ATOMICS(uint32_t, Uint32)
ATOMICADD(uint32_t, Uint32)
ATOMICS(uint64_t, Uint64)
ATOMICADD(uint64_t, Uint64)
ATOMICS(uintptr_t, Uintptr)
ATOMICADD(uintptr_t, Uintptr)
/* On unsafe.Pointer.  The operations that store a pointer have the write
 * barrier first (atomicwb: the old and the new pointer are shaded while
 * the collector marks), as Go's; glc calls these for them rather than
 * compile them inline, so that the barrier's test and the store are in
 * runtime C, which no signal stops in between (the unsafe-point rule of
 * gl.h's GL_STOREPTR).  Under GLDEBUG=wbshadow the operation and its
 * shadow write happen under one lock (mwbshadow.c). */
enum { opSwap, opCAS, opStore };

static GL_NOINLINE void *shadowop(int op, void **addr, void *old, void *v, bool *swapped) {
	wbshadowAtomicLock();
	atomicwb(addr, v);
	void *prev = *addr;
	*swapped = op != opCAS || prev == old;
	if (*swapped) {
		wbshadowWrite((uintptr_t)addr, (uintptr_t)v);
		__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
	}
	wbshadowAtomicUnlock();
	return prev;
}

void *sync_atomic_SwapPointer(G *g, void **addr, void *v) {
	NILCHECK(g, addr, NULL);
	bool swapped;
	if (GL_UNLIKELY(wbshadowEnabled))
		return shadowop(opSwap, addr, NULL, v, &swapped);
	atomicwb(addr, v);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapPointer(G *g, void **addr, void *old, void *v) {
	NILCHECK(g, addr, false);
	bool swapped;
	if (GL_UNLIKELY(wbshadowEnabled)) {
		shadowop(opCAS, addr, old, v, &swapped);
		return swapped;
	}
	atomicwb(addr, v);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void *sync_atomic_LoadPointer(G *g, void **addr) {
	NILCHECK(g, addr, NULL);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StorePointer(G *g, void **addr, void *v) {
	NILCHECK(g, addr, );
	bool swapped;
	if (GL_UNLIKELY(wbshadowEnabled)) {
		shadowop(opStore, addr, NULL, v, &swapped);
		return;
	}
	atomicwb(addr, v);
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}
