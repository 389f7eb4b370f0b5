/*
 * barrier_test.c — tests of the runtime's typed memory (runtime/mbarrier.c):
 * typedmemmove, typedmemclr, memclrHasPointers and typedslicecopy copy and
 * clear the right bytes, overlapping slice copies in both directions
 * included; and the write barrier's entries (bulkBarrierPreWrite and
 * friends) are reached exactly for types with pointers, with
 * the range the barrier will have to cover — directly, and through the
 * runtime's users: a channel's buffer, growslice, convT, reflect's copies
 * and sort's swap.  gcWriteBarrierTestHook counts the calls.  Outside the
 * heap, a typed copy shades only its type's pointer words (test_nonheap).
 *
 * The program starts the runtime (gl_main) with GLMAXPROCS=1 and moves to
 * g0 at once, as heap_test does: the channel operations here never park
 * (buffered, with room or with values), and mallocgc works from g0.  The
 * maps' use of the barrier is tested in map_test.c.
 *
 * Built by `make check` (linked with libglrt.a).  Prints PASS and exits 0,
 * or lists the failures and exits 1.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fails;
#define CHECK(c, msg)                                                          \
	do {                                                                   \
		if (!(c)) {                                                    \
			fails++;                                               \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, msg); \
		}                                                              \
	} while (0)

#define GS(s) ((GlString){(const uint8_t *)(s), sizeof(s) - 1})
/* struct { p *T; a, b int }: one pointer word, then scalars (ptrdata 8 < size 24) */
static const uint8_t mask_1[] = {0x1};
static const GlType t_pii = {.size = 24, .ptrdata = 8, .kind = GL_KIND_STRUCT, .align = 8, .gcdata = mask_1,
			     .str = GS("main.pii")};
/* struct { a, b, c int }: no pointers, same size */
static const GlType t_iii = {.size = 24, .kind = GL_KIND_STRUCT, .align = 8, .str = GS("main.iii")};
/* struct {}: nothing to copy */
static const GlType t_empty = {.size = 0, .kind = GL_KIND_STRUCT, .align = 1, .str = GS("struct {}")};
static const GlType t_chanpii = {.size = 8, .ptrdata = 8, .kind = GL_KIND_CHAN, .align = 8, .gcdata = mask_1,
				 .elem = &t_pii, .len = 3, .str = GS("chan main.pii")};
static const GlType t_chaniii = {.size = 8, .ptrdata = 8, .kind = GL_KIND_CHAN, .align = 8, .gcdata = mask_1,
				 .elem = &t_iii, .len = 3, .str = GS("chan main.iii")};
static const GlType t_slicepii = {.size = 24, .ptrdata = 8, .kind = GL_KIND_SLICE, .align = 8, .gcdata = mask_1,
				  .elem = &t_pii, .str = GS("[]main.pii")};
static const GlType t_sliceiii = {.size = 24, .ptrdata = 8, .kind = GL_KIND_SLICE, .align = 8, .gcdata = mask_1,
				  .elem = &t_iii, .str = GS("[]main.iii")};


/* ---- the hook: the last few calls ---- */

typedef struct call {
	int kind;
	uintptr_t dst, src, size;
} call;
static call calls[16];
static int ncalls;

static void hook(int kind, uintptr_t dst, uintptr_t src, uintptr_t size) {
	if (ncalls < 16)
		calls[ncalls] = (call){kind, dst, src, size};
	ncalls++;
}

static bool called(int i, int kind, const void *dst, const void *src, uintptr_t size) {
	return i < ncalls && calls[i].kind == kind && calls[i].dst == (uintptr_t)dst && calls[i].src == (uintptr_t)src &&
	       calls[i].size == size;
}

/* Fill n words with a pattern that differs for every (seed, word). */
static void fill(uint64_t *w, int n, uint64_t seed) {
	for (int i = 0; i < n; i++)
		w[i] = seed * 1000003 + (uint64_t)i * 7919 + 1;
}

/* ---- mbarrier.c itself ---- */

static void test_typedmemmove(void) {
	uint64_t a[3], b[3], want[3];
	fill(a, 3, 1);
	fill(b, 3, 2);
	memcpy(want, b, sizeof want);
	ncalls = 0;
	typedmemmove(&t_pii, a, b);
	CHECK(memcmp(a, want, sizeof a) == 0, "typedmemmove: copies the value");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, a, b, 8), "typedmemmove: one barrier over ptrdata");

	fill(a, 3, 3);
	ncalls = 0;
	typedmemmove(&t_iii, a, b);
	CHECK(memcmp(a, want, sizeof a) == 0, "typedmemmove, no pointers: copies the value");
	CHECK(ncalls == 0, "typedmemmove, no pointers: no barrier");

	ncalls = 0;
	typedmemmove(&t_pii, a, a);
	CHECK(memcmp(a, want, sizeof a) == 0 && ncalls == 0, "typedmemmove to itself: nothing");
	typedmemmove(&t_empty, a, b);
	CHECK(ncalls == 0, "typedmemmove of a zero-size type: nothing");
}

static void test_typedmemclr(void) {
	uint64_t a[4];
	fill(a, 4, 4);
	uint64_t last = a[3];
	ncalls = 0;
	typedmemclr(&t_pii, a);
	CHECK(a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == last, "typedmemclr: clears the value, not past it");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, a, NULL, 8), "typedmemclr: one barrier over ptrdata, src 0");

	fill(a, 4, 5);
	ncalls = 0;
	typedmemclr(&t_iii, a);
	CHECK(a[0] == 0 && a[2] == 0 && a[3] != 0 && ncalls == 0, "typedmemclr, no pointers: clears, no barrier");

	fill(a, 4, 6);
	ncalls = 0;
	memclrHasPointers(a, 16);
	CHECK(a[0] == 0 && a[1] == 0 && a[2] != 0, "memclrHasPointers: clears n bytes");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, a, NULL, 16), "memclrHasPointers: one barrier over n bytes");
	memclrHasPointers(a, 0);
	CHECK(ncalls == 1, "memclrHasPointers of 0 bytes: no barrier");
}

/* typedslicecopy against a copy through a separate buffer: dst and src
 * are element offsets into one array of 12 elements (3 words each). */
static void slicecopy_case(const GlType *t, int dsti, int64_t dstlen, int srci, int64_t srclen, const char *what) {
	enum { N = 12, W = 3 };
	uint64_t arr[N * W], want[N * W], tmp[N * W];
	fill(arr, N * W, 7);
	memcpy(want, arr, sizeof arr);
	int64_t n = dstlen < srclen ? dstlen : srclen;
	memcpy(tmp, arr + srci * W, (size_t)n * W * 8);
	memcpy(want + dsti * W, tmp, (size_t)n * W * 8);
	ncalls = 0;
	int64_t got = typedslicecopy(t, arr + dsti * W, dstlen, arr + srci * W, srclen);
	char msg[160];
	snprintf(msg, sizeof msg, "typedslicecopy %s (%s): count and bytes", what, t->str.ptr);
	CHECK(got == n && memcmp(arr, want, sizeof arr) == 0, msg);
	snprintf(msg, sizeof msg, "typedslicecopy %s (%s): the barrier", what, t->str.ptr);
	if (t->ptrdata == 0 || n == 0 || dsti == srci)
		CHECK(ncalls == 0, msg);
	else
		CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, arr + dsti * W, arr + srci * W,
					    (uintptr_t)n * 24 - 24 + t->ptrdata), msg);
}

static void test_typedslicecopy(void) {
	const GlType *ts[] = {&t_pii, &t_iii};
	for (int i = 0; i < 2; i++) {
		const GlType *t = ts[i];
		slicecopy_case(t, 0, 5, 6, 6, "disjoint, dst shorter");
		slicecopy_case(t, 6, 6, 0, 4, "disjoint, src shorter");
		slicecopy_case(t, 2, 10, 0, 12, "overlapping, dst after src");
		slicecopy_case(t, 0, 12, 3, 9, "overlapping, dst before src");
		slicecopy_case(t, 4, 3, 4, 3, "onto itself");
		slicecopy_case(t, 0, 0, 3, 4, "empty dst");
		slicecopy_case(t, 3, 4, 0, 0, "empty src");
		slicecopy_case(t, 1, 1, 2, 1, "one element, overlapping neighbours");
	}
	uint64_t x = 1;
	CHECK(typedslicecopy(&t_empty, &x, 5, &x, 3) == 3 && ncalls == 0, "typedslicecopy of struct{}: the count");
}

/* ---- the runtime's users ---- */

static void test_chan(void) {
	G *g = getg();
	uint64_t v[3], out[3];
	/* pointers: the buffer slot gets a typed copy; a receive is a typed
	 * copy out and a typed clear of the slot */
	hchan *c = makechan(g, &t_chanpii, 2);
	fill(v, 3, 8);
	ncalls = 0;
	CHECK(chansend(c, v, false), "chansend into the buffer");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, c->buf, v, 8), "chansend of pointers: a barrier into the buffer");
	ncalls = 0;
	chanrecv1(g, c, out);
	CHECK(memcmp(out, v, sizeof v) == 0, "chanrecv1: the value sent");
	CHECK(ncalls == 2 && called(0, GL_BARRIER_BULK, out, c->buf, 8) && called(1, GL_BARRIER_BULK, c->buf, NULL, 8),
	      "chanrecv1 of pointers: a barrier out of the buffer, one clearing the slot");
	closechan(g, c);
	fill(out, 3, 9);
	ncalls = 0;
	chanrecv1(g, c, out);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0, "closed channel: the zero value");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, out, NULL, 8), "closed channel of pointers: a typed clear");

	/* no pointers: the same operations, no barrier */
	hchan *d = makechan(g, &t_chaniii, 2);
	ncalls = 0;
	chansend(d, v, false);
	chanrecv1(g, d, out);
	closechan(g, d);
	chanrecv1(g, d, out);
	CHECK(ncalls == 0, "channel of scalars: no barrier");
}

static void test_growslice(void) {
	G *g = getg();
	GlSlice s;
	makeslice(g, &s, &t_pii, 3, 3);
	fill(s.ptr, 9, 10);
	void *old = s.ptr;
	ncalls = 0;
	growslice(g, &s, &t_pii, 4);
	CHECK(s.cap >= 4 && memcmp(s.ptr, old, 72) == 0, "growslice: the old elements moved");
	/* the new array is fresh: the barrier shades only the sources, up to
	 * the last old element's pointer words */
	CHECK(ncalls == 1 && called(0, GL_BARRIER_SRCONLY, s.ptr, old, 2 * 24 + 8),
	      "growslice of pointers: bulkBarrierPreWriteSrcOnly over the old elements");
	GlSlice e = {NULL, 0, 0};
	ncalls = 0;
	growslice(g, &e, &t_pii, 1);
	CHECK(ncalls == 0, "growslice of an empty slice: nothing to move, no barrier");
	makeslice(g, &s, &t_iii, 3, 3);
	ncalls = 0;
	growslice(g, &s, &t_iii, 4);
	CHECK(ncalls == 0, "growslice of scalars: no barrier");
}

static void test_iface_reflect_sort(void) {
	G *g = getg();
	uint64_t v[3], w[3];
	fill(v, 3, 11);
	GlEface e;
	ncalls = 0;
	gl_convT(g, &e, &t_pii, v);
	CHECK(e.tab == &t_pii && memcmp(e.data, v, sizeof v) == 0, "convT: boxes the value");
	CHECK(ncalls == 1 && called(0, GL_BARRIER_BULK, e.data, v, 8), "convT of pointers: a typed copy into the box");
	ncalls = 0;
	gl_convT(g, &e, &t_iii, v);
	CHECK(memcmp(e.data, v, sizeof v) == 0 && ncalls == 0, "convT of scalars: no barrier");

	ncalls = 0;
	reflect_typedmemmove(g, &t_pii, w, v);
	reflect_typedmemclr(g, &t_pii, v);
	CHECK(ncalls == 2 && called(0, GL_BARRIER_BULK, w, v, 8) && called(1, GL_BARRIER_BULK, v, NULL, 8),
	      "reflect's typedmemmove and typedmemclr: mbarrier.c's");

	/* sort.Slice's swap: both elements' old values and new ones */
	uint64_t arr[9], want[9];
	fill(arr, 9, 12);
	memcpy(want, arr, sizeof arr);
	memcpy(want, arr + 6, 24);
	memcpy(want + 6, arr, 24);
	GlSlice s = {arr, 3, 3};
	ncalls = 0;
	sort_sliceSwap(g, (GlEface){&t_slicepii, &s}, 0, 2);
	CHECK(memcmp(arr, want, sizeof arr) == 0, "sort's swap: the elements swapped");
	CHECK(ncalls == 2 && called(0, GL_BARRIER_BULK, arr, arr + 6, 8) && called(1, GL_BARRIER_BULK, arr + 6, arr, 8),
	      "sort's swap of pointers: a barrier each way");
	ncalls = 0;
	sort_sliceSwap(g, (GlEface){&t_slicepii, &s}, 1, 1);
	sort_sliceSwap(g, (GlEface){&t_sliceiii, &s}, 0, 2);
	CHECK(memcmp(arr + 6, want + 6, 24) != 0 && ncalls == 0, "sort's swap onto itself, or of scalars: no barrier");
}

/* ---- what the barrier shades outside the heap ---- */

/* Whether v is among the words the barrier put in this P's buffer since
 * entry from. */
static bool shaded(uint32_t from, uintptr_t v) {
	wbBuf *b = &getm()->p->wbBuf;
	for (uint32_t i = from; i < b->next; i++)
		if (b->buf[i] == v)
			return true;
	return false;
}

/* struct { a int; p *T }: a scalar before the pointer, so the barrier's
 * range (ptrdata, 16 bytes) holds both */
static const uint8_t mask_01[] = {0x2};
static const GlType t_ip = {.size = 16, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8, .gcdata = mask_01,
			    .str = GS("main.ip")};
static const GlType t_sliceip = {.size = 24, .ptrdata = 8, .kind = GL_KIND_SLICE, .align = 8, .gcdata = mask_1,
				 .elem = &t_ip, .str = GS("[]main.ip")};

/* A typed copy into memory outside the heap (a package variable; here a
 * static) shades the old and new value of the type's pointer words only:
 * a scalar that looks like an address is not greyed (it would keep what
 * it points to for a cycle).  An untyped clear still shades every word.
 * The barrier is switched on by hand and its buffer put back after: the
 * words are not heap addresses, and nothing is marking. */
static void test_nonheap(void) {
	static uint64_t dst[4], src[4];
	wbBuf *b = &getm()->p->wbBuf;
	uint32_t from = b->next;
	fill(dst, 4, 41);
	fill(src, 4, 42);
	uint64_t d[4], s[4];
	memcpy(d, dst, sizeof d);
	memcpy(s, src, sizeof s);
	writeBarrier.enabled = true;
	typedmemmove(&t_ip, dst, src);
	bool ptrs = shaded(from, d[1]) && shaded(from, s[1]);
	bool scalars = shaded(from, d[0]) || shaded(from, s[0]);
	b->next = from;
	/* two values end to end, and a clear */
	memcpy(dst, d, sizeof d);
	typedslicecopy(&t_ip, dst, 2, src, 2);
	bool ptrs2 = shaded(from, d[1]) && shaded(from, s[1]) && shaded(from, d[3]) && shaded(from, s[3]);
	bool scalars2 = shaded(from, d[0]) || shaded(from, s[0]) || shaded(from, d[2]) || shaded(from, s[2]);
	b->next = from;
	memcpy(dst, d, sizeof d);
	typedmemclr(&t_ip, dst);
	bool clr = shaded(from, d[1]) && !shaded(from, d[0]);
	b->next = from;
	memcpy(dst, d, sizeof d);
	memclrHasPointers(dst, 16);
	bool untyped = shaded(from, d[0]) && shaded(from, d[1]);
	b->next = from;
	/* clear(s) of two elements, typed (glc's B_CLEAR) */
	memcpy(dst, d, sizeof d);
	typedsliceclear(&t_ip, dst, 32);
	bool cleared = shaded(from, d[1]) && shaded(from, d[3]) && !shaded(from, d[0]) && !shaded(from, d[2]) &&
		       dst[0] == 0 && dst[1] == 0 && dst[2] == 0 && dst[3] == 0;
	b->next = from;
	/* sort.Slice's swap of two elements of a static array */
	memcpy(dst, d, sizeof d);
	GlSlice sl = {dst, 2, 2};
	sort_sliceSwap(getg(), (GlEface){&t_sliceip, &sl}, 0, 1);
	bool swapped = shaded(from, d[1]) && shaded(from, d[3]) && !shaded(from, d[0]) && !shaded(from, d[2]);
	b->next = from;
	writeBarrier.enabled = false;
	CHECK(ptrs && !scalars, "typedmemmove outside the heap: the pointer word shaded, old and new; the scalar not");
	CHECK(ptrs2 && !scalars2, "typedslicecopy outside the heap: each element's pointer word, no scalar");
	CHECK(clr, "typedmemclr outside the heap: the old pointer shaded, the scalar not");
	CHECK(untyped, "memclrHasPointers (no type): every word shaded");
	CHECK(cleared, "typedsliceclear outside the heap: each element's pointer word, no scalar, all zeroed");
	CHECK(swapped, "sort's swap outside the heap: both pointer words, no scalar");
}

static void tests(void *arg) {
	(void)arg;
	gcWriteBarrierTestHook = hook;
	test_typedmemmove();
	test_typedmemclr();
	test_typedslicecopy();
	test_chan();
	test_growslice();
	test_iface_reflect_sort();
	test_nonheap();
	gcWriteBarrierTestHook = NULL;
	printf(fails ? "FAIL: %d\n" : "PASS\n", fails);
	fflush(stdout);
	_exit(fails ? 1 : 0);
}

static void t_init(G *g) {
	(void)g;
}

/* ---- a P that GOMAXPROCS drops ----
 *
 * Its write-barrier buffer goes to the mark (proc.c's pdestroy), which
 * may be under way: mark termination flushes only the Ps in use.  An
 * entry put by hand into P 1's buffer must be gone once GOMAXPROCS is
 * back to 1 (with no mark running, the flush drops it; during a mark it
 * would shade it).  On a goroutine: GOMAXPROCS stops the world. */
static void test_pdestroy(void) {
	procresize_request(2);
	wbBuf *b = &allp[1]->wbBuf;
	static uintptr_t word;
	b->buf[b->next++] = (uintptr_t)&word;
	procresize_request(1);
	CHECK(allp[1]->wbBuf.next == 0, "GOMAXPROCS 2 -> 1: the dropped P's write-barrier buffer flushed");
}

static void t_main(G *g) {
	(void)g;
	test_pdestroy();
	systemstack(tests, NULL);
}

int main(void) {
	setenv("GLMAXPROCS", "1", 1);
	unsetenv("GLDEBUG");
	return gl_main(1, (char *[]){"barrier_test", NULL}, t_init, t_main);
}
