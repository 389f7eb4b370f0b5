/*
 * atomic.c — package sync/atomic (stdlib/sync/atomic): the functions on
 * int32, int64, uint32, uint64, uintptr and unsafe.Pointer, with gcc's
 * __atomic builtins, sequentially consistent as Go's are.  Each is a tiny
 * leaf called from generated code (glc may later inline them).  A nil
 * address panics like Go's nil dereference.
 */
#include "gl.h"

#define NILCHECK(g, addr, ret)            \
	do {                               \
		if (GL_UNLIKELY(addr == NULL)) { \
			gl_panicnil(g);    \
			return ret;        \
		}                          \
	} while (0)

/* ---- int32 ---- */

int32_t sync_atomic_SwapInt32(G *g, int32_t *addr, int32_t v) {
	NILCHECK(g, addr, 0);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapInt32(G *g, int32_t *addr, int32_t old, int32_t v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int32_t sync_atomic_LoadInt32(G *g, int32_t *addr) {
	NILCHECK(g, addr, 0);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StoreInt32(G *g, int32_t *addr, int32_t v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}

int32_t sync_atomic_AddInt32(G *g, int32_t *addr, int32_t delta) {
	NILCHECK(g, addr, 0);
	return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);
}

/* ---- int64 ---- */

int64_t sync_atomic_SwapInt64(G *g, int64_t *addr, int64_t v) {
	NILCHECK(g, addr, 0);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapInt64(G *g, int64_t *addr, int64_t old, int64_t v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int64_t sync_atomic_LoadInt64(G *g, int64_t *addr) {
	NILCHECK(g, addr, 0);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StoreInt64(G *g, int64_t *addr, int64_t v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}

int64_t sync_atomic_AddInt64(G *g, int64_t *addr, int64_t delta) {
	NILCHECK(g, addr, 0);
	return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);
}

/* ---- uint32 ---- */

uint32_t sync_atomic_SwapUint32(G *g, uint32_t *addr, uint32_t v) {
	NILCHECK(g, addr, 0);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapUint32(G *g, uint32_t *addr, uint32_t old, uint32_t v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uint32_t sync_atomic_LoadUint32(G *g, uint32_t *addr) {
	NILCHECK(g, addr, 0);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StoreUint32(G *g, uint32_t *addr, uint32_t v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}

uint32_t sync_atomic_AddUint32(G *g, uint32_t *addr, uint32_t delta) {
	NILCHECK(g, addr, 0);
	return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);
}

/* ---- uint64 ---- */

uint64_t sync_atomic_SwapUint64(G *g, uint64_t *addr, uint64_t v) {
	NILCHECK(g, addr, 0);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapUint64(G *g, uint64_t *addr, uint64_t old, uint64_t v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uint64_t sync_atomic_LoadUint64(G *g, uint64_t *addr) {
	NILCHECK(g, addr, 0);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StoreUint64(G *g, uint64_t *addr, uint64_t v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}

uint64_t sync_atomic_AddUint64(G *g, uint64_t *addr, uint64_t delta) {
	NILCHECK(g, addr, 0);
	return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);
}

/* ---- uintptr ---- */

uintptr_t sync_atomic_SwapUintptr(G *g, uintptr_t *addr, uintptr_t v) {
	NILCHECK(g, addr, 0);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapUintptr(G *g, uintptr_t *addr, uintptr_t old, uintptr_t v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

uintptr_t sync_atomic_LoadUintptr(G *g, uintptr_t *addr) {
	NILCHECK(g, addr, 0);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StoreUintptr(G *g, uintptr_t *addr, uintptr_t v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}

uintptr_t sync_atomic_AddUintptr(G *g, uintptr_t *addr, uintptr_t delta) {
	NILCHECK(g, addr, 0);
	return __atomic_add_fetch(addr, delta, __ATOMIC_SEQ_CST);
}

/* ---- unsafe.Pointer ---- */

void *sync_atomic_SwapPointer(G *g, void **addr, void *v) {
	NILCHECK(g, addr, NULL);
	return __atomic_exchange_n(addr, v, __ATOMIC_SEQ_CST);
}

bool sync_atomic_CompareAndSwapPointer(G *g, void **addr, void *old, void *v) {
	NILCHECK(g, addr, false);
	return __atomic_compare_exchange_n(addr, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void *sync_atomic_LoadPointer(G *g, void **addr) {
	NILCHECK(g, addr, NULL);
	return __atomic_load_n(addr, __ATOMIC_SEQ_CST);
}

void sync_atomic_StorePointer(G *g, void **addr, void *v) {
	NILCHECK(g, addr, );
	__atomic_store_n(addr, v, __ATOMIC_SEQ_CST);
}
