/*
 * sizeclasses.c — Go 1.19's malloc size classes (see sizeclasses.h).
 *
 * The classes are Go's (generated there by mksizeclasses.go): sizes are
 * stepped through at an alignment that grows with the size, each gets the
 * fewest 8 KiB pages per span that leave at most 1/8 of the span unused at
 * its end, and of the sizes sharing the same (pages, objects per span) only
 * the largest is kept.  The size_to_class tables are the inverse of
 * class_to_size: entry i is the smallest class holding i*8 bytes (up to
 * 1024) or 1024+i*128 bytes (up to 32 KiB), so a lookup is one division by a
 * power of two instead of a search.
 */
#include "sizeclasses.h"

/* X(bytes per object, pages per span), one row per class (number in the
 * comment); class 0 stands for large objects, allocated in whole pages. */
#define SIZECLASSES(X) \
	X(    0,  0) /*  0 */ \
	X(    8,  1) /*  1 */ \
	X(   16,  1) /*  2 */ \
	X(   24,  1) /*  3 */ \
	X(   32,  1) /*  4 */ \
	X(   48,  1) /*  5 */ \
	X(   64,  1) /*  6 */ \
	X(   80,  1) /*  7 */ \
	X(   96,  1) /*  8 */ \
	X(  112,  1) /*  9 */ \
	X(  128,  1) /* 10 */ \
	X(  144,  1) /* 11 */ \
	X(  160,  1) /* 12 */ \
	X(  176,  1) /* 13 */ \
	X(  192,  1) /* 14 */ \
	X(  208,  1) /* 15 */ \
	X(  224,  1) /* 16 */ \
	X(  240,  1) /* 17 */ \
	X(  256,  1) /* 18 */ \
	X(  288,  1) /* 19 */ \
	X(  320,  1) /* 20 */ \
	X(  352,  1) /* 21 */ \
	X(  384,  1) /* 22 */ \
	X(  416,  1) /* 23 */ \
	X(  448,  1) /* 24 */ \
	X(  480,  1) /* 25 */ \
	X(  512,  1) /* 26 */ \
	X(  576,  1) /* 27 */ \
	X(  640,  1) /* 28 */ \
	X(  704,  1) /* 29 */ \
	X(  768,  1) /* 30 */ \
	X(  896,  1) /* 31 */ \
	X( 1024,  1) /* 32 */ \
	X( 1152,  1) /* 33 */ \
	X( 1280,  1) /* 34 */ \
	X( 1408,  2) /* 35 */ \
	X( 1536,  1) /* 36 */ \
	X( 1792,  2) /* 37 */ \
	X( 2048,  1) /* 38 */ \
	X( 2304,  2) /* 39 */ \
	X( 2688,  1) /* 40 */ \
	X( 3072,  3) /* 41 */ \
	X( 3200,  2) /* 42 */ \
	X( 3456,  3) /* 43 */ \
	X( 4096,  1) /* 44 */ \
	X( 4864,  3) /* 45 */ \
	X( 5376,  2) /* 46 */ \
	X( 6144,  3) /* 47 */ \
	X( 6528,  4) /* 48 */ \
	X( 6784,  5) /* 49 */ \
	X( 6912,  6) /* 50 */ \
	X( 8192,  1) /* 51 */ \
	X( 9472,  7) /* 52 */ \
	X( 9728,  6) /* 53 */ \
	X(10240,  5) /* 54 */ \
	X(10880,  4) /* 55 */ \
	X(12288,  3) /* 56 */ \
	X(13568,  5) /* 57 */ \
	X(14336,  7) /* 58 */ \
	X(16384,  2) /* 59 */ \
	X(18432,  9) /* 60 */ \
	X(19072,  7) /* 61 */ \
	X(20480,  5) /* 62 */ \
	X(21760,  8) /* 63 */ \
	X(24576,  3) /* 64 */ \
	X(27264, 10) /* 65 */ \
	X(28672,  7) /* 66 */ \
	X(32768,  4) /* 67 */

#define SIZE(bytes, npages) bytes,
#define NPAGES(bytes, npages) npages,
/* class 0 has no objects; the divisor is kept nonzero so the dead branch
 * does not divide by zero */
#define NONZERO(bytes) ((bytes) ? (bytes) : 1)
#define NOBJS(bytes, npages) (npages) * pageSize / NONZERO(bytes),
#define DIVMAGIC(bytes, npages) (bytes) ? UINT32_MAX / NONZERO(bytes) + 1 : 0,

const uint16_t class_to_size[numSizeClasses] = {SIZECLASSES(SIZE)};
const uint8_t class_to_allocnpages[numSizeClasses] = {SIZECLASSES(NPAGES)};
const uint16_t class_to_nobjs[numSizeClasses] = {SIZECLASSES(NOBJS)};
const uint32_t class_to_divmagic[numSizeClasses] = {SIZECLASSES(DIVMAGIC)};

const uint8_t size_to_class8[smallSizeMax / smallSizeDiv + 1] = {
	0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
	14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 19, 19, 20, 20, 20, 20, 21,
	21, 21, 21, 22, 22, 22, 22, 23, 23, 23, 23, 24, 24, 24, 24, 25, 25, 25, 25,
	26, 26, 26, 26, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28,
	28, 29, 29, 29, 29, 29, 29, 29, 29, 30, 30, 30, 30, 30, 30, 30, 30, 31, 31,
	31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 32, 32, 32, 32, 32,
	32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
};

const uint8_t size_to_class128[(maxSmallSize - smallSizeMax) / largeSizeDiv + 1] = {
	32, 33, 34, 35, 36, 37, 37, 38, 38, 39, 39, 40, 40, 40, 41, 41, 41, 42, 43,
	43, 44, 44, 44, 44, 44, 45, 45, 45, 45, 45, 45, 46, 46, 46, 46, 47, 47, 47,
	47, 47, 47, 48, 48, 48, 49, 49, 50, 51, 51, 51, 51, 51, 51, 51, 51, 51, 51,
	52, 52, 52, 52, 52, 52, 52, 52, 52, 52, 53, 53, 54, 54, 54, 54, 55, 55, 55,
	55, 55, 56, 56, 56, 56, 56, 56, 56, 56, 56, 56, 56, 57, 57, 57, 57, 57, 57,
	57, 57, 57, 57, 58, 58, 58, 58, 58, 58, 59, 59, 59, 59, 59, 59, 59, 59, 59,
	59, 59, 59, 59, 59, 59, 59, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60,
	60, 60, 60, 60, 61, 61, 61, 61, 61, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62,
	62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 65, 65, 65, 65, 65,
	65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 65, 66, 66, 66,
	66, 66, 66, 66, 66, 66, 66, 66, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67,
	67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67, 67,
	67, 67,
};

uint64_t roundupsize(uint64_t size) {
	if (size < maxSmallSize)
		return class_to_size[size_to_class(size)];
	/* Large objects get whole pages; a size so large that rounding would
	 * wrap is returned as is and fails in the allocator, as in Go. */
	if (size + pageSize < size)
		return size;
	return (size + pageSize - 1) & ~(uint64_t)(pageSize - 1);
}
