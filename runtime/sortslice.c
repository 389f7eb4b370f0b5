/* sortslice.c — what sort.Slice, SliceStable and SliceIsSorted need of a
 * slice they only see as an interface (Go's internal/reflectlite
 * ValueOf(x).Len() and Swapper(x)): its length, and swapping two of its
 * elements, whatever their type.  The interface's type descriptor gives
 * the slice's element size; the interface's data word points to the slice
 * header (slices are not pointer-shaped, so an interface boxes them).
 *
 * Leaves on the goroutine stack (DESIGN.md S7).  A swap of elements
 * that hold pointers (ptrdata != 0) is a typed copy both ways: it takes
 * the write barrier (mbarrier.c) over both elements before it moves
 * anything.
 */
#include "rt.h"

/* sort.sliceLen(x any) int: the length, or -1-kind if x is not a slice */
int64_t sort_sliceLen(G *g, GlEface x) {
	(void)g;
	const GlType *t = gl_efacetype(x);
	if (t == NULL)
		return -1;
	if (t->kind != GL_KIND_SLICE)
		return -1 - (int64_t)t->kind;
	return ((const GlSlice *)x.data)->len;
}

/* Swap the size bytes at a and b, in place: no buffer on the stack. */
static inline __attribute__((always_inline)) void swapbytes(uint8_t *a, uint8_t *b, uint64_t size) {
	switch (size) {
	case 8: {
		uint64_t t = *(uint64_t *)a;
		*(uint64_t *)a = *(uint64_t *)b;
		*(uint64_t *)b = t;
		return;
	}
	case 16: {
		uint64_t t0 = ((uint64_t *)a)[0], t1 = ((uint64_t *)a)[1];
		((uint64_t *)a)[0] = ((uint64_t *)b)[0];
		((uint64_t *)a)[1] = ((uint64_t *)b)[1];
		((uint64_t *)b)[0] = t0;
		((uint64_t *)b)[1] = t1;
		return;
	}
	}
	/* any size, in word-sized pieces then bytes: no buffer on the stack */
	uint64_t k = 0;
	for (; k + 8 <= size; k += 8) {
		uint64_t t;
		memcpy(&t, a + k, 8);
		memmove(a + k, b + k, 8);
		memcpy(b + k, &t, 8);
	}
	for (; k < size; k++) {
		uint8_t t = a[k];
		a[k] = b[k];
		b[k] = t;
	}
}

/* Elements with pointers: a gets b's value and b gets a's, a typed copy
 * each way, so the pre-write barrier covers both while both still hold
 * their old values (the swap goes through no buffer that typedmemmove
 * could use).  Out of line, so that the pointer-free swap stays a leaf. */
static GL_NOINLINE void swapptrs(const GlType *elem, uint8_t *a, uint8_t *b) {
	if (a != b) {
		typedBulkBarrierPreWrite(elem, (uintptr_t)a, (uintptr_t)b, elem->ptrdata);
		typedBulkBarrierPreWrite(elem, (uintptr_t)b, (uintptr_t)a, elem->ptrdata);
	}
	swapbytes(a, b, elem->size);
}

/* sort.sliceSwap(x any, i, j int) */
void sort_sliceSwap(G *g, GlEface x, int64_t i, int64_t j) {
	const GlSlice *s = x.data;
	if ((uint64_t)i >= (uint64_t)s->len) {
		gl_panicindex(g, i, s->len);
		return;
	}
	if ((uint64_t)j >= (uint64_t)s->len) {
		gl_panicindex(g, j, s->len);
		return;
	}
	const GlType *elem = gl_efacetype(x)->elem;
	uint64_t size = elem->size;
	uint8_t *a = (uint8_t *)s->ptr + (uint64_t)i * size;
	uint8_t *b = (uint8_t *)s->ptr + (uint64_t)j * size;
	if (GL_UNLIKELY(elem->ptrdata != 0)) {
		swapptrs(elem, a, b);
		return;
	}
	swapbytes(a, b, size);
}
