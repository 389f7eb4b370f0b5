/*
 * mpersistent.c — persistentalloc: memory for the runtime's own records
 * that live as long as the process and that the collector neither frees
 * nor scans: G, M, P, the allgs and allp arrays, itabs and the itab table
 * (Go's persistentalloc, malloc.go, serves the same purpose).
 *
 * Why outside the heap: these records are reached from runtime C globals
 * (allgs, allm, allp, itabTable) that no stack map describes, and a G
 * must stay valid while no goroutine refers to it (a dead G waits on the
 * free list).  Whatever heap objects they point to are roots, listed in
 * one place: mgc.c's gcscanruntime.
 *
 * The allocator is a lock-free bump over 256 KiB chunks from mmap: a CAS
 * on the current chunk's offset, and when a chunk is used up a new one is
 * published with a CAS (the loser of that race unmaps its own).  Memory
 * from mmap is zero.  No locks and no libc, so it runs on any stack,
 * goroutine stacks included (DESIGN.md S7: raw system calls only).
 */
#include "rt.h"

enum {
	chunkBytes = 256 << 10,
	granule = 64, /* every record starts on its own cache line */
};

typedef struct pchunk {
	uint64_t off;  /* atomic: the next free byte, from the chunk's start */
	uint64_t size;
} pchunk;

static pchunk *curchunk; /* atomic */

static uint64_t roundup(uint64_t size) {
	return (size + granule - 1) & ~(uint64_t)(granule - 1);
}

/* size bytes of zeroed memory, aligned to 64 bytes, never freed. */
void *persistentalloc(uint64_t size) {
	size = roundup(size);
	for (;;) {
		pchunk *c = __atomic_load_n(&curchunk, __ATOMIC_ACQUIRE);
		if (c != NULL) {
			uint64_t off = __atomic_fetch_add(&c->off, size, __ATOMIC_RELAXED);
			if (off + size <= c->size)
				return (uint8_t *)c + off;
		}
		/* used up (or none yet): a chunk large enough for this record */
		uint64_t n = size + granule > chunkBytes ? size + granule : chunkBytes;
		pchunk *nc = sysAlloc(n, &memstats.other_sys);
		nc->off = granule;
		nc->size = n;
		if (!__atomic_compare_exchange_n(&curchunk, &c, nc, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			sysFree(nc, n, &memstats.other_sys);
	}
}

/* The chunks are counted in memstats.other_sys (OtherSys).  Records that
 * MemStats reports on their own line (MSpanSys, MCacheSys, BuckHashSys,
 * GCSys) move their bytes from there to their stat, so that every byte
 * is counted once and the lines add up to Sys, as Go's do. */
void persistentStat(uint64_t size, uint64_t *stat) {
	size = roundup(size);
	__atomic_fetch_sub(&memstats.other_sys, size, __ATOMIC_RELAXED);
	__atomic_fetch_add(stat, size, __ATOMIC_RELAXED);
}

/* persistentalloc, counted in *stat. */
void *persistentallocStat(uint64_t size, uint64_t *stat) {
	void *p = persistentalloc(size);
	persistentStat(size, stat);
	return p;
}
