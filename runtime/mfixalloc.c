/*
 * mfixalloc.c — fixalloc: records of one size for the heap's own
 * metadata (Go's mfixalloc.go).
 *
 * The heap cannot allocate its metadata from itself: an mspan describes
 * heap pages, so it must exist before them, and the collector must never
 * see these records as objects.  fixalloc keeps records of one size
 * (mheap.spanalloc: the mspans) with a free list, so that freed records
 * are reused; it takes 16 KiB chunks from persistentalloc
 * (mpersistent.c), and the memory never goes back to the OS.  Its
 * caller's lock protects it (mheap.lock).
 */
#include "rt.h"

enum { fixallocChunk = 16 << 10 };

void fixalloc_init(fixalloc *f, uint64_t size, uint64_t *stat) {
	f->size = (size + 7) & ~(uint64_t)7;
	f->stat = stat;
	f->list = NULL;
	f->chunk = 0;
	f->nchunk = 0;
	f->inuse = 0;
}

/* A zeroed record. */
void *fixalloc_alloc(fixalloc *f) {
	void *p;
	if (f->list != NULL) {
		p = f->list;
		f->list = *(void **)p;
		memset(p, 0, f->size);
	} else {
		if (f->nchunk < f->size) {
			f->chunk = (uintptr_t)persistentallocStat(fixallocChunk, f->stat);
			f->nchunk = fixallocChunk;
		}
		p = (void *)f->chunk; /* fresh: zero */
		f->chunk += f->size;
		f->nchunk -= f->size;
	}
	f->inuse += f->size;
	return p;
}

void fixalloc_free(fixalloc *f, void *p) {
	f->inuse -= f->size;
	*(void **)p = f->list;
	f->list = p;
}
