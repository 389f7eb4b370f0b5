/*
 * malloc.c — the allocator behind Go's interface: mallocgc, newobject,
 * newarray.
 *
 * There is no collector yet (a later issue brings Go's mspan / mcache /
 * mcentral / mheap and the GC), so this is a bump allocator that never
 * frees: each M allocates from its own chunk of at least 1 MiB obtained
 * with mmap, after rounding the size up to Go's size class (so cap() of
 * appended slices and the statistics match Go).  Memory from mmap is
 * zero and never reused, so needzero costs nothing.  Objects larger than
 * 32 KiB get their own mapping, rounded to 8 KiB pages.
 *
 * mallocgc is called straight from generated code and from runtime C on
 * the goroutine stack (DESIGN.md S7), so the fast path is a small leaf:
 * one TLS load, a compare and an add.  The slow path makes raw mmap
 * system calls, which need no stack either.
 */
#define _GNU_SOURCE
#include "rt.h"
#include "sizeclasses.h"

#include <sys/mman.h>

/* The address of every 0-byte allocation, as Go's zerobase. */
uint64_t zerobase;

/* Chunks are 8 MiB, aligned to 2 MiB and backed by transparent huge pages
 * where the kernel allows it (madvise mode is the common default): until
 * the collector reuses memory, every allocation touches fresh memory, and
 * one fault per 2 MiB instead of per 4 KiB is most of the difference for
 * allocation-heavy programs (strbuild: 160,000 page faults). */
enum { chunkSize = 8 << 20, hugePage = 2 << 20 };

/* n bytes aligned to align (a power of two, a multiple of the page): map
 * n + align and give back the ends.  Inline: mallocgc's slow path reaches
 * it from the goroutine stack, and a frame more would not fit the reserve
 * band (tests/stackusage.py). */
static inline __attribute__((always_inline)) void *allocaligned(uint64_t n, uint64_t align, uint64_t *stat) {
	uint8_t *p = sysAlloc(n + align, stat);
	uintptr_t a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	if (a > (uintptr_t)p)
		sysFree(p, a - (uintptr_t)p, stat);
	uintptr_t end = (uintptr_t)p + n + align;
	if (end > a + n)
		sysFree((void *)(a + n), end - (a + n), stat);
	return (void *)a;
}

/* n bytes (a multiple of hugePage) aligned to a huge page and backed by
 * huge pages where the kernel allows it. */
static void *hugeAlloc(uint64_t n) {
	void *a = allocaligned(n, hugePage, &memstats.heap_sys);
	sys_madvise(a, n, MADV_HUGEPAGE);
	return a;
}

static void *chunkAlloc(void) {
	return hugeAlloc(chunkSize);
}

/* n bytes of zeroed memory from the OS, accounted in *stat. */
void *sysAlloc(uint64_t n, uint64_t *stat) {
	void *p = sys_mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	if (p == NULL)
		gl_throw("out of memory");
	if (stat != NULL)
		__atomic_fetch_add(stat, n, __ATOMIC_RELAXED);
	return p;
}

void sysFree(void *p, uint64_t n, uint64_t *stat) {
	sys_munmap(p, n);
	if (stat != NULL)
		__atomic_fetch_sub(stat, n, __ATOMIC_RELAXED);
}

/* For stack.c (on g0): allocaligned's code once more, a call away. */
void *sysAllocAligned(uint64_t n, uint64_t align, uint64_t *stat) {
	return allocaligned(n, align, stat);
}

void mallocinit(void) {
	/* chunks are mapped on first use, per M */
}

/* A large object: its own mapping, whole 8 KiB pages. */
static GL_NOINLINE void *largeAlloc(uint64_t size) {
	if (size > maxAlloc)
		gl_throw("out of memory: allocation size out of range");
	uint64_t n = (size + pageSize - 1) & ~(uint64_t)(pageSize - 1);
	void *p;
	/* a buffer of megabytes (a growing slice, a big string) takes huge
	 * pages too: 1 fault per 2 MiB instead of 512 */
	if (n >= hugePage) {
		n = (n + hugePage - 1) & ~(uint64_t)(hugePage - 1);
		p = hugeAlloc(n);
	} else
		p = sysAlloc(n, &memstats.heap_sys);
	__atomic_fetch_add(&memstats.heap_large, n, __ATOMIC_RELAXED);
	mcache *c = &getm()->mcache;
	c->nmalloc++;
	c->totalalloc += n;
	return p;
}

/* The chunk is used up: start a new one (the rest of the old one is
 * wasted, at most one size class). */
static GL_NOINLINE void *mallocslow(uint64_t size) {
	mcache *c = &getm()->mcache;
	uint8_t *chunk = chunkAlloc();
	c->next = (uintptr_t)chunk + size;
	c->end = (uintptr_t)chunk + chunkSize;
	c->nmalloc++;
	c->totalalloc += size;
	return chunk;
}

void *mallocgc(uint64_t size, const GlType *typ, bool needzero) {
	(void)typ;      /* for the collector, later */
	(void)needzero; /* fresh memory is zero */
	if (GL_UNLIKELY(size == 0))
		return &zerobase;
	if (GL_UNLIKELY(size > maxSmallSize))
		return largeAlloc(size);
	size = class_to_size[size_to_class(size)];
	mcache *c = &getm()->mcache;
	uintptr_t p = c->next;
	if (GL_UNLIKELY(size > c->end - p))
		return mallocslow(size);
	c->next = p + size;
	c->nmalloc++;
	c->totalalloc += size;
	return (void *)p;
}

void *newobject(const GlType *typ) {
	return mallocgc(typ->size, typ, true);
}

/* new([n]T) and the like: n elements of elem. */
void *gl_newarray(G *g, const GlType *elem, int64_t n) {
	uint64_t mem;
	if (n < 0 || __builtin_mul_overflow(elem->size, (uint64_t)n, &mem) || mem > maxAlloc) {
		gl_panicstring(g, "runtime: allocation size out of range");
		return NULL;
	}
	return mallocgc(mem, elem->ptrdata ? elem : NULL, true);
}

/* MemStats' TotalAlloc and Mallocs: the sum over Ms. */
void readmemstats(uint64_t *totalalloc, uint64_t *nmalloc) {
	uint64_t ta = 0, nm = 0;
	for (M *mp = &m0; mp != NULL; mp = mp->alllink) {
		ta += mp->mcache.totalalloc;
		nm += mp->mcache.nmalloc;
	}
	*totalalloc = ta;
	*nmalloc = nm;
}
