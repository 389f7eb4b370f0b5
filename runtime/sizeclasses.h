/*
 * sizeclasses.h — Go's malloc size classes (runtime/sizeclasses.go, Go 1.19,
 * 8 KiB pages).  Small objects (<= maxSmallSize bytes) are rounded up to one
 * of numSizeClasses sizes; each class is carved from spans of
 * class_to_allocnpages[c] pages holding class_to_nobjs[c] objects.  The
 * allocator and everything that reports capacities (append, []byte(s))
 * must use the same table, or cap() stops matching Go.
 *
 * Names are Go's, without the leading underscore of _MaxSmallSize etc.
 * (identifiers starting with _ and a capital letter are reserved in C).
 */
#ifndef GL_SIZECLASSES_H
#define GL_SIZECLASSES_H

#include <stdint.h>

enum {
	maxSmallSize = 32768,
	smallSizeDiv = 8,    /* size_to_class8 step, for sizes <= smallSizeMax-8 */
	smallSizeMax = 1024,
	largeSizeDiv = 128,  /* size_to_class128 step, above smallSizeMax */
	numSizeClasses = 68, /* class 0 is "large object", allocated in pages */
	pageShift = 13,
	pageSize = 1 << pageShift,
};

/* Largest allocation: the 48-bit heap address space of linux/amd64
 * (Go's maxAlloc = 1 << heapAddrBits).  Here until malloc.c has a header. */
static const uint64_t maxAlloc = (uint64_t)1 << 48;

extern const uint16_t class_to_size[numSizeClasses];
extern const uint8_t class_to_allocnpages[numSizeClasses];
extern const uint16_t class_to_nobjs[numSizeClasses];
/* class_to_divmagic[c] = 2^32 / size + 1: (off * magic) >> 32 == off / size
 * for every offset inside a span of class c, without a division. */
extern const uint32_t class_to_divmagic[numSizeClasses];
extern const uint8_t size_to_class8[smallSizeMax / smallSizeDiv + 1];
extern const uint8_t size_to_class128[(maxSmallSize - smallSizeMax) / largeSizeDiv + 1];

/* The size class of a small object, 0 < size <= maxSmallSize. */
static inline uint8_t size_to_class(uint64_t size) {
	if (size <= smallSizeMax - 8)
		return size_to_class8[(size + smallSizeDiv - 1) / smallSizeDiv];
	return size_to_class128[(size - smallSizeMax + largeSizeDiv - 1) / largeSizeDiv];
}

/* The size mallocgc actually allocates for a request of size bytes. */
uint64_t roundupsize(uint64_t size);

#endif
