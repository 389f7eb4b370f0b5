/*
 * mfixalloc.c — memory for the heap's own records (Go's mfixalloc.go and
 * malloc.go's persistentalloc).
 *
 * The heap cannot allocate its metadata from itself: an mspan describes
 * heap pages, so it must exist before them, and the collector must never
 * see these records as objects.  Two allocators sit beside the heap:
 *
 *  - persistentalloc hands out small blocks that are never freed (alloc
 *    and mark bits for now, the fixalloc chunks), bumping through 256 KiB
 *    chunks mapped with sysAlloc.  It has its own lock, taken on g0 only.
 *  - fixalloc keeps records of one size (mheap.spanalloc: the mspans),
 *    with a free list so that freed records are reused.  The memory never
 *    goes back to the OS.  Its caller's lock protects it (mheap.lock).
 *
 * Both count what they map in memstats.gc_sys (Go's GCSys / OtherSys).
 */
#include "rt.h"

enum { persistentChunkSize = 256 << 10, fixallocChunk = 16 << 10 };

/* the current persistentalloc chunk: [next, end), under persistentLock */
static struct {
	mutex lock;
	uintptr_t next, end;
} persistent;

void *persistentalloc(uint64_t size, uint64_t align, uint64_t *stat) {
	if (align == 0)
		align = 8;
	if (size >= persistentChunkSize / 4)
		return sysAlloc((size + 4095) & ~(uint64_t)4095, stat);
	lock(&persistent.lock);
	uintptr_t p = (persistent.next + align - 1) & ~(uintptr_t)(align - 1);
	if (persistent.next == 0 || p + size > persistent.end) {
		persistent.next = (uintptr_t)sysAlloc(persistentChunkSize, stat);
		persistent.end = persistent.next + persistentChunkSize;
		p = persistent.next;
	}
	persistent.next = p + size;
	unlock(&persistent.lock);
	return (void *)p;
}

void fixalloc_init(fixalloc *f, uint64_t size, uint64_t *stat) {
	f->size = (size + 7) & ~(uint64_t)7;
	f->list = NULL;
	f->chunk = 0;
	f->nchunk = 0;
	f->inuse = 0;
	f->stat = stat;
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
			f->chunk = (uintptr_t)persistentalloc(fixallocChunk, 64, f->stat);
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
