/*
 * core_test.c — tests of the runtime core: stack growth by copying
 * (gl_morestack, newstack, copystack), the scheduler primitives (mcall,
 * gogo, systemstack, newproc/gosched), panic/defer/recover, run-time error
 * messages, tracebacks, interfaces, the allocator, and the write barrier's
 * hook in channel hand-offs between stacks.
 *
 * The functions below are hand-written in the style glc generates (gl.h's
 * contract): g as a parameter, a GL_PCLINE record at the entry and before
 * each call, the GL_STACKCHECK prologue, data frames carved with
 * GL_FRAME_ENTER and re-derived after every call, pointer parameters fixed
 * with GL_FIXPARAM and saved in the data frame, the unwinding checks, and a
 * GlFuncInfo with slots per function — all in section gltext.  Results are
 * checked against plain C computing the same thing on an ordinary stack.
 *
 * Each group runs in a child process (fork) running gl_main, so a crash is
 * a reported failure and fatal paths (uncaught panics, stack overflow,
 * faults) can be checked by their output and exit status; every group runs
 * again under GLDEBUG=stackforcemove=1 (with smaller depths: every call
 * then copies the whole stack).
 *
 * Built by `make check` (linked with libglrt.a), or by hand:
 *   F="-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-stack-protector
 *      -fcf-protection=none -fno-shrink-wrap -fwrapv -fno-strict-aliasing"
 *   gcc -O2 $F -Iruntime runtime/core_test.c runtime/{proc,stack,malloc,panic,
 *       traceback,iface,debug,print,string,slice,sizeclasses,map,alg}.c
 *       runtime/asm_amd64.S -Wl,-z,now -lpthread -o core_test && ./core_test
 *   (clang: -mllvm -enable-shrink-wrap=false instead of -fno-shrink-wrap)
 *
 * ./core_test prints PASS and exits 0, or lists the failures and exits 1.
 * ./core_test bench also prints the growth timings (2 KiB -> 1 MiB);
 * CORE_TEST_BIG=1 adds a stack overflow at the real 1 GB limit (~10 s);
 * CORE_TEST_VERBOSE=1 prints every child's output.
 */
#define _GNU_SOURCE
#include "rt.h"
#include "sizeclasses.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GL_FUNC __attribute__((section("gltext"), used))
#define GL_DEFERTHUNK __attribute__((section("gldefer"), used))
typedef uint64_t u64;
extern uint64_t zerobase; /* malloc.c */

/* After a call: re-derive the data frame; leave if a panic is unwinding. */
#define AFTER(T)                                 \
	GL_FRAME_RELOAD(T, fp, fpoff);           \
	if (GL_UNLIKELY(g->unwinding))           \
		goto unwind
/* The unwind label of a function with defers. */
#define UNWIND_TO_SELF(T)                                        \
	GL_FRAME_RELOAD(T, fp, fpoff);                           \
	if (g->unwindTarget == &fp->h) {                        \
		g->unwinding = 0;                                \
		g->unwindTarget = 0;                            \
		goto ret;                                        \
	}

/* ---- type descriptors the frames need ---- */
static const uint8_t mask1[] = {1}, mask3[] = {3}, mask2[] = {2};
static const GlType t_int = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_REGMEM,
			     .str = {(const uint8_t *)"int", 3}, .equal = gl_memequal, .hashfn = gl_memhash};
static const GlType t_ptr = {.size = 8, .ptrdata = 8, .kind = GL_KIND_POINTER, .align = 8,
			     .tflag = GL_TFLAG_REGMEM | GL_TFLAG_DIRECTIFACE, .gcdata = mask1,
			     .str = {(const uint8_t *)"*int", 4}, .equal = gl_memequal, .hashfn = gl_memhash,
			     .elem = &t_int};
static const GlType t_eface = {.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8,
			       .gcdata = mask3, .str = {(const uint8_t *)"interface {}", 12}};
static const GlType t_string = {.size = 16, .ptrdata = 8, .kind = GL_KIND_STRING, .align = 8, .gcdata = mask1,
				.str = {(const uint8_t *)"string", 6}, .equal = gl_strequal, .hashfn = gl_strhash};
/* a closure or defer record: code pointer, then one captured pointer */
static const GlType t_clo = {.size = 16, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8, .gcdata = mask3,
			     .str = {(const uint8_t *)"struct { F uintptr; X *int }", 28}};
/* {k int; p *int}: only the second word is a pointer */
static const GlType t_intptr = {.size = 16, .ptrdata = 16, .kind = GL_KIND_STRUCT, .align = 8, .gcdata = mask2,
				.str = {(const uint8_t *)"struct { K int; P *int }", 24}};
/* [64]*int: a pointer array of 64 words, an 8-byte mask */
static const uint8_t mask64[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const GlType t_ptrarr = {.size = 512, .ptrdata = 512, .kind = GL_KIND_ARRAY, .align = 8,
				.gcdata = mask64, .str = {(const uint8_t *)"[64]*int", 8}, .elem = &t_ptr, .len = 64};

/* ---- failures, reported on g0 ---- */
static int failures;
static const char *failwhat;
static int failline;
static u64 failgot, failwant;

static void report_fail(void *arg) {
	(void)arg;
	printf("FAIL core_test.c:%d: %s (got %#llx, want %#llx)\n", failline, failwhat,
	       (unsigned long long)failgot, (unsigned long long)failwant);
	fflush(stdout);
}

static GL_NOINLINE void check_(bool ok, int line, const char *what, u64 got, u64 want) {
	if (ok)
		return;
	failures++;
	failline = line;
	failwhat = what;
	failgot = got;
	failwant = want;
	systemstack(report_fail, NULL);
}
#define CHECK(cond, what) check_((cond), __LINE__, (what), 0, 0)
#define CHECKEQ(got, want, what)                                                   \
	do {                                                                       \
		u64 got_ = (u64)(got), want_ = (u64)(want);                         \
		check_(got_ == want_, __LINE__, (what), got_, want_);               \
	} while (0)

static void say_(void *s) {
	printf("%s", (const char *)s);
	fflush(stdout);
}
static void say(const char *s) {
	systemstack(say_, (void *)s);
}

/* printf on g0 (libc needs more stack than the reserve band; DESIGN.md S7) */
static const char *sayfmt;
static u64 sayargs[3];
static void sayf_(void *arg) {
	(void)arg;
	printf(sayfmt, sayargs[0], sayargs[1], sayargs[2]);
	fflush(stdout);
}
static void sayf(const char *fmt, u64 a, u64 b, u64 c) {
	sayfmt = fmt;
	sayargs[0] = a;
	sayargs[1] = b;
	sayargs[2] = c;
	systemstack(sayf_, NULL);
}

/* a string compared with what it should be, reported on g0 */
static GlString cmpgot;
static const char *cmpwant;
static void report_str(void *arg) {
	printf("FAIL core_test.c:%d: %s: got \"%.*s\" want \"%s\"\n", failline, (const char *)arg,
	       (int)cmpgot.len, (const char *)cmpgot.ptr, cmpwant);
	fflush(stdout);
}
static GL_NOINLINE void checkstr_(GlString got, const char *want, int line, const char *what) {
	if (got.len == (int64_t)strlen(want) && memcmp(got.ptr, want, (size_t)got.len) == 0)
		return;
	failures++;
	failline = line;
	cmpgot = got;
	cmpwant = want;
	systemstack(report_str, (void *)what);
}
#define CHECKSTR(got, want, what) checkstr_((got), (want), __LINE__, (what))

/* Sizes of the tests: full, and small for stackforcemove, where every
 * call copies the whole stack.  The reference results are computed by
 * plain C before the children start (on a thread with a big stack). */
typedef struct params {
	u64 recdeep, addrdepth, loopdepths, loopk, addpdepth, manymax, manystep, mkn, panicdepth, growdepth;
} params;
static const params P_full = {100000, 3000, 40, 9, 8000, 5000, 97, 2000, 20000, 3000};
static const params P_small = {1500, 300, 6, 2, 300, 300, 37, 100, 400, 200};
typedef struct refs {
	u64 rec_deep, addr_rec, loopsum, addp, many, usemk, rec3;
} refs;
static params TP; /* the sizes of this run */
static refs R;   /* their results */
static bool depthsmall(void) {
	return gl_debug.stackforcemove != 0;
}

/* ======================================================================
 * T1: deep recursion, a 128-byte array per frame
 * ==================================================================== */
struct rec__frame {
	GlFrame h;
	u64 a[16];
};
static const GlFuncInfo rec__info;
GL_FUNC u64 t_rec(G *g, u64 d) {
	struct rec__frame *fp;
	uintptr_t fpoff;
	u64 r;
	GL_PCLINE(rec__info, 10);
	GL_STACKCHECK(g, sizeof(*fp), rec__info, 10, );
	GL_FRAME_ENTER(g, struct rec__frame, fp, fpoff, rec__info);
	for (u64 i = 0; i < 16; i++)
		fp->a[i] = d * i + 1;
	fp->a[d % 16] = d;
	if (d == 0) {
		r = fp->a[3];
		goto ret;
	}
	GL_PCLINE(rec__info, 14);
	r = t_rec(g, d - 1);
	AFTER(struct rec__frame);
	for (u64 i = 0; i < 16; i++)
		r = r * 31 + fp->a[i];
	fp->a[(d * 7) % 16] ^= r;
	r += fp->a[(d * 7) % 16];
ret:
	GL_FRAME_LEAVE(g, fp);
	return r;
unwind:
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo rec__info __attribute__((used)) = {
	"main.rec", "core_test.gl", 10, sizeof(struct rec__frame), NULL, 0, (void (*)(void))t_rec};

static u64 rec_ref(u64 d) {
	u64 a[16];
	for (u64 i = 0; i < 16; i++)
		a[i] = d * i + 1;
	a[d % 16] = d;
	if (d == 0)
		return a[3];
	u64 r = rec_ref(d - 1);
	for (u64 i = 0; i < 16; i++)
		r = r * 31 + a[i];
	a[(d * 7) % 16] ^= r;
	return r + a[(d * 7) % 16];
}

/* ======================================================================
 * T2: a loop writing a data-frame array around calls that grow the stack,
 * and a pointer to an element kept across them; entered from many depths
 * ==================================================================== */
struct loop__frame {
	GlFrame h;
	u64 a[64];
	u64 *p;
};
static const GlFrameSlot loop__slots[] = {{&t_ptr, offsetof(struct loop__frame, p)}};
static const GlFuncInfo loop__info;
GL_FUNC u64 t_loop(G *g, u64 k) {
	struct loop__frame *fp;
	uintptr_t fpoff;
	u64 s = 0;
	GL_PCLINE(loop__info, 20);
	GL_STACKCHECK(g, sizeof(*fp), loop__info, 20, );
	GL_FRAME_ENTER(g, struct loop__frame, fp, fpoff, loop__info);
	for (u64 i = 0; i < 64; i++)
		fp->a[i] = i * k;
	for (u64 i = 0; i < 64; i++) { /* a[i] = a[i] + rec(i*k) + a[(i+63)%64] */
		GL_PCLINE(loop__info, 23);
		u64 t = t_rec(g, i * k);
		AFTER(struct loop__frame);
		fp->a[i] = fp->a[i] + t + fp->a[(i + 63) % 64];
	}
	for (u64 i = 0; i < 64; i += 2) { /* p := &a[i]; *p = rec(..) + *p + a[i+1] */
		fp->p = &fp->a[i];
		GL_PCLINE(loop__info, 27);
		u64 t = t_rec(g, i * k / 2 + 1);
		AFTER(struct loop__frame);
		*fp->p = t + *fp->p + fp->a[i + 1];
	}
	for (u64 i = 0; i < 64; i++)
		s = s * 7 + fp->a[i];
	GL_FRAME_LEAVE(g, fp);
	return s;
unwind:
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo loop__info __attribute__((used)) = {
	"main.loop", "core_test.gl", 20, sizeof(struct loop__frame), loop__slots, 1, (void (*)(void))t_loop};

static u64 loop_ref(u64 k) {
	u64 a[64];
	for (u64 i = 0; i < 64; i++)
		a[i] = i * k;
	for (u64 i = 0; i < 64; i++)
		a[i] = a[i] + rec_ref(i * k) + a[(i + 63) % 64];
	for (u64 i = 0; i < 64; i += 2) {
		u64 *p = &a[i];
		u64 t = rec_ref(i * k / 2 + 1);
		*p = t + *p + a[i + 1];
	}
	u64 s = 0;
	for (u64 i = 0; i < 64; i++)
		s = s * 7 + a[i];
	return s;
}

struct deep__frame {
	GlFrame h;
	u64 pad[4];
};
static const GlFuncInfo deep__info;
GL_FUNC u64 t_deep_then_loop(G *g, u64 d, u64 k) {
	struct deep__frame *fp;
	uintptr_t fpoff;
	u64 r;
	GL_PCLINE(deep__info, 35);
	GL_STACKCHECK(g, sizeof(*fp), deep__info, 35, );
	GL_FRAME_ENTER(g, struct deep__frame, fp, fpoff, deep__info);
	fp->pad[0] = d;
	if (d == 0) {
		GL_PCLINE(deep__info, 37);
		r = t_loop(g, k);
	} else {
		GL_PCLINE(deep__info, 38);
		r = t_deep_then_loop(g, d - 1, k);
	}
	AFTER(struct deep__frame);
	r ^= fp->pad[0] * 0x9E3779B97F4A7C15ull;
	GL_FRAME_LEAVE(g, fp);
	return r;
unwind:
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo deep__info __attribute__((used)) = {
	"main.deepThenLoop", "core_test.gl", 35, sizeof(struct deep__frame), NULL, 0, (void (*)(void))t_deep_then_loop};

static u64 deep_then_loop_ref(u64 d, u64 k) {
	u64 r = d == 0 ? loop_ref(k) : deep_then_loop_ref(d - 1, k);
	return r ^ d * 0x9E3779B97F4A7C15ull;
}

/* ======================================================================
 * T3: the address of a local kept in another local across growth: the
 * pointer is rewritten, its uintptr copy is not (seed 001)
 * ==================================================================== */
struct addr__frame {
	GlFrame h;
	u64 x;
	u64 *p;
	uintptr_t u;
	u64 *many[64]; /* pointers to x and into a[] */
	u64 a[8];
};
static const GlFrameSlot addr__slots[] = {
	{&t_ptr, offsetof(struct addr__frame, p)},
	{&t_ptrarr, offsetof(struct addr__frame, many)},
};
static const GlFuncInfo addr__info;
static u64 addr_moved; /* how far p moved */
GL_FUNC void t_addr(G *g, u64 depth) {
	struct addr__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(addr__info, 45);
	GL_STACKCHECK(g, sizeof(*fp), addr__info, 45, );
	GL_FRAME_ENTER(g, struct addr__frame, fp, fpoff, addr__info);
	fp->x = 0;
	fp->p = &fp->x;                /* p := &x */
	fp->u = (uintptr_t)fp->p;      /* u := uintptr(unsafe.Pointer(p)) */
	for (int i = 0; i < 64; i++)
		fp->many[i] = i % 9 == 8 ? &fp->x : &fp->a[i % 8];
	int64_t c0 = g->stackcopies;
	GL_PCLINE(addr__info, 49);
	u64 r = t_rec(g, depth); /* grows: the stack moves */
	AFTER(struct addr__frame);
	*fp->p = 42;
	CHECKEQ(r, R.addr_rec, "T3 rec result");
	CHECKEQ(fp->x, 42, "T3 write through the moved pointer");
	CHECK(fp->p == &fp->x, "T3 pointer rewritten");
	CHECK(g->stackcopies > c0, "T3 stack moved");
	CHECK(fp->u != (uintptr_t)fp->p, "T3 the uintptr copy is stale");
	for (int i = 0; i < 64; i++)
		CHECK(fp->many[i] == (i % 9 == 8 ? &fp->x : &fp->a[i % 8]), "T3 pointer array rewritten");
	addr_moved = (u64)((uintptr_t)fp->p - fp->u);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo addr__info __attribute__((used)) = {
	"main.addr", "core_test.gl", 45, sizeof(struct addr__frame), addr__slots, 2, (void (*)(void))t_addr};

/* ======================================================================
 * T4: pointer parameters into the caller's frame (GL_FIXPARAM), and an
 * out-pointer for a 24-byte result written after the callee grew
 * ==================================================================== */
struct addp__frame {
	GlFrame h;
	u64 *p;
	u64 a[16];
};
static const GlFrameSlot addp__slots[] = {{&t_ptr, offsetof(struct addp__frame, p)}};
static const GlFuncInfo addp__info;
/* func addp(p *int, d int) { var a [16]int; a[d%16] = d; if d > 0 { addp(p, d-1) }; *p = *p*3 + a[d%16] } */
GL_FUNC void t_addp(G *g, u64 *p, u64 d) {
	struct addp__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(addp__info, 55);
	GL_STACKCHECK(g, sizeof(*fp), addp__info, 55, GL_FIXPARAM(g, p));
	GL_FRAME_ENTER(g, struct addp__frame, fp, fpoff, addp__info);
	fp->p = p; /* pointer parameters live in the data frame from here on */
	fp->a[d % 16] = d;
	if (d > 0) {
		GL_PCLINE(addp__info, 57);
		t_addp(g, fp->p, d - 1);
		AFTER(struct addp__frame);
	}
	*fp->p = *fp->p * 3 + fp->a[d % 16];
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo addp__info __attribute__((used)) = {
	"main.addp", "core_test.gl", 55, sizeof(struct addp__frame), addp__slots, 1, (void (*)(void))t_addp};
static void addp_ref(u64 *p, u64 d) {
	if (d > 0)
		addp_ref(p, d - 1);
	*p = *p * 3 + d;
}

/* func mk(n int) []int: the result through an out-pointer, written after
 * a call that grows the stack */
struct mk__frame {
	GlFrame h;
	GlSlice *out;
};
static const GlFrameSlot mk__slots[] = {{&t_ptr, offsetof(struct mk__frame, out)}};
static const GlFuncInfo mk__info;
GL_FUNC void t_mk(G *g, GlSlice *out, u64 n) {
	struct mk__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(mk__info, 62);
	GL_STACKCHECK(g, sizeof(*fp), mk__info, 62, GL_FIXPARAM(g, out));
	GL_FRAME_ENTER(g, struct mk__frame, fp, fpoff, mk__info);
	fp->out = out;
	GL_PCLINE(mk__info, 63);
	u64 r = t_rec(g, n);
	AFTER(struct mk__frame);
	fp->out->ptr = (void *)(uintptr_t)r;
	fp->out->len = (int64_t)n;
	fp->out->cap = (int64_t)(n * 2);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo mk__info __attribute__((used)) = {
	"main.mk", "core_test.gl", 62, sizeof(struct mk__frame), mk__slots, 1, (void (*)(void))t_mk};

struct usemk__frame {
	GlFrame h;
	GlSlice s[3];
	u64 x;
};
static const GlFuncInfo usemk__info;
GL_FUNC u64 t_usemk(G *g, u64 n) {
	struct usemk__frame *fp;
	uintptr_t fpoff;
	u64 r = 0;
	GL_PCLINE(usemk__info, 70);
	GL_STACKCHECK(g, sizeof(*fp), usemk__info, 70, );
	GL_FRAME_ENTER(g, struct usemk__frame, fp, fpoff, usemk__info);
	for (int i = 0; i < 3; i++) {
		GL_PCLINE(usemk__info, 72);
		t_mk(g, &fp->s[i], n * (u64)(i + 1));
		AFTER(struct usemk__frame);
	}
	fp->x = 1;
	GL_PCLINE(usemk__info, 74);
	t_addp(g, &fp->x, n);
	AFTER(struct usemk__frame);
	for (int i = 0; i < 3; i++)
		r = r * 1000003 + (u64)(uintptr_t)fp->s[i].ptr + (u64)fp->s[i].len * 7 + (u64)fp->s[i].cap;
	r ^= fp->x;
	GL_FRAME_LEAVE(g, fp);
	return r;
unwind:
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo usemk__info __attribute__((used)) = {
	"main.usemk", "core_test.gl", 70, sizeof(struct usemk__frame), NULL, 0, (void (*)(void))t_usemk};
static u64 usemk_ref(u64 n) {
	u64 r = 0;
	for (int i = 0; i < 3; i++) {
		u64 m = n * (u64)(i + 1);
		r = r * 1000003 + rec_ref(m) + m * 7 + 2 * m;
	}
	u64 x = 1;
	addp_ref(&x, n);
	return r ^ x;
}

/* ======================================================================
 * T5: many values live in callee-saved registers across a growing call
 * (no data frame: only the prologue)
 * ==================================================================== */
static const GlFuncInfo many__info;
GL_FUNC u64 t_manylive(G *g, u64 x) {
	GL_PCLINE(many__info, 80);
	GL_STACKCHECK(g, 0, many__info, 80, );
	u64 v0 = x * 3 + 1, v1 = x ^ 0x55, v2 = x * x, v3 = x + 7, v4 = x * 11, v5 = x >> 1, v6 = x * 13 + 5,
	    v7 = ~x, v8 = x * 17, v9 = x + 99, v10 = x * 19, v11 = x ^ 0xabcdef, v12 = x * 23, v13 = x - 3,
	    v14 = x * 29, v15 = x << 3;
	double f0 = (double)x * 0.5, f1 = (double)x + 0.25;
	GL_PCLINE(many__info, 84);
	u64 r = t_rec(g, x);
	if (g->unwinding)
		return 0;
	return r + v0 * 1 + v1 * 2 + v2 * 3 + v3 * 4 + v4 * 5 + v5 * 6 + v6 * 7 + v7 * 8 + v8 * 9 + v9 * 10 +
	       v10 * 11 + v11 * 12 + v12 * 13 + v13 * 14 + v14 * 15 + v15 * 16 + (u64)(f0 * f1);
}
static const GlFuncInfo many__info __attribute__((used)) = {
	"main.manylive", "core_test.gl", 80, 0, NULL, 0, (void (*)(void))t_manylive};
static u64 manylive_ref(u64 x) {
	u64 v0 = x * 3 + 1, v1 = x ^ 0x55, v2 = x * x, v3 = x + 7, v4 = x * 11, v5 = x >> 1, v6 = x * 13 + 5,
	    v7 = ~x, v8 = x * 17, v9 = x + 99, v10 = x * 19, v11 = x ^ 0xabcdef, v12 = x * 23, v13 = x - 3,
	    v14 = x * 29, v15 = x << 3;
	double f0 = (double)x * 0.5, f1 = (double)x + 0.25;
	u64 r = rec_ref(x);
	return r + v0 * 1 + v1 * 2 + v2 * 3 + v3 * 4 + v4 * 5 + v5 * 6 + v6 * 7 + v7 * 8 + v8 * 9 + v9 * 10 +
	       v10 * 11 + v11 * 12 + v12 * 13 + v13 * 14 + v14 * 15 + v15 * 16 + (u64)(f0 * f1);
}

/* ======================================================================
 * T6: defer, panic, recover
 * ==================================================================== */

/* A func literal capturing one variable by reference: code, then &var.
 * It lives in the data frame of the function that defers it (it does not
 * escape), so it is a slot of that frame, and gl_deferproc's record points
 * into the stack. */
typedef struct clo_p {
	GlFunc f;
	int64_t *p;
} clo_p;
typedef struct clo_e {
	GlFunc f;
	GlEface *pe;
} clo_e;

static const GlString str_first = {(const uint8_t *)"first", 5};
static const GlString str_second = {(const uint8_t *)"second", 6};
static const GlString str_y = {(const uint8_t *)"y", 1};
static GlEface strval(const GlString *s) {
	return (GlEface){&t_string, (void *)s};
}

static bool streq(GlString s, const char *c) {
	return s.len == (int64_t)strlen(c) && memcmp(s.ptr, c, (size_t)s.len) == 0;
}

/* The Error() of an error value, or its string if it is one. */
static GlString errstr(G *g, GlEface e) {
	const GlType *t = e.tab;
	if (t == NULL)
		return (GlString){(const uint8_t *)"<nil>", 5};
	if (t->kind == GL_KIND_STRING && !(t->tflag & GL_TFLAG_NAMED))
		return *(const GlString *)e.data;
	for (int32_t i = 0; i < t->nmethods; i++)
		if (streq(t->methods[i].name, "Error"))
			return ((GlString(*)(G *, void *))t->methods[i].ifn)(g, e.data);
	return (GlString){(const uint8_t *)"<no Error method>", 17};
}

/* func panicky(n int) int { var a [8]int; a[n%8] = n; if n == 0 { _ = a[5:3]-ish: index 5 of 3 }; return panicky(n-1) + a[n%8] } */
struct panicky__frame {
	GlFrame h;
	u64 a[8];
};
static const GlFuncInfo panicky__info;
GL_FUNC u64 t_panicky(G *g, u64 n) {
	struct panicky__frame *fp;
	uintptr_t fpoff;
	u64 r;
	GL_PCLINE(panicky__info, 90);
	GL_STACKCHECK(g, sizeof(*fp), panicky__info, 90, );
	GL_FRAME_ENTER(g, struct panicky__frame, fp, fpoff, panicky__info);
	fp->a[n % 8] = n;
	if (n == 0) {
		GL_PCLINE(panicky__info, 92);
		gl_panicindex(g, 5, 3);
		goto unwind;
	}
	GL_PCLINE(panicky__info, 94);
	r = t_panicky(g, n - 1);
	AFTER(struct panicky__frame);
	r += fp->a[n % 8];
	GL_FRAME_LEAVE(g, fp);
	return r;
unwind:
	GL_FRAME_RELOAD(struct panicky__frame, fp, fpoff);
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo panicky__info __attribute__((used)) = {
	"main.panicky", "core_test.gl", 90, sizeof(struct panicky__frame), NULL, 0, (void (*)(void))t_panicky};

/* --- (a) a recover in the deferred func literal; named result survives ---
 * func deferrec(n int) (r int) {
 *	defer func() { rec(grow); if recover() != nil { r = r*10 + 7 } }()
 *	r = 3
 *	panicky(n)
 *	r = 100
 *	return
 * } */
struct deferrec__frame {
	GlFrame h;
	int64_t r;
	clo_p c;
};
static const GlFrameSlot deferrec__slots[] = {{&t_clo, offsetof(struct deferrec__frame, c)}};
struct deferrec_func1__frame {
	GlFrame h;
	clo_p *c;
	GlEface e;
};
static const GlFrameSlot deferrec_func1__slots[] = {
	{&t_ptr, offsetof(struct deferrec_func1__frame, c)},
	{&t_eface, offsetof(struct deferrec_func1__frame, e)},
};
static const GlFuncInfo deferrec__info, deferrec_func1__info;
static int64_t deferrec_copies; /* stack copies inside the deferred call */

GL_FUNC void t_deferrec_func1(G *g, GlFunc *ctx) {
	struct deferrec_func1__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(deferrec_func1__info, 101);
	GL_STACKCHECK(g, sizeof(*fp), deferrec_func1__info, 101, GL_FIXPARAM(g, ctx));
	GL_FRAME_ENTER(g, struct deferrec_func1__frame, fp, fpoff, deferrec_func1__info);
	fp->c = (clo_p *)ctx;
	int64_t c0 = g->stackcopies;
	GL_PCLINE(deferrec_func1__info, 102);
	t_rec(g, TP.growdepth); /* move the stack before recovering */
	AFTER(struct deferrec_func1__frame);
	deferrec_copies = g->stackcopies - c0;
	GL_PCLINE(deferrec_func1__info, 103);
	fp->e = gl_recover(g, GL_RBP());
	AFTER(struct deferrec_func1__frame);
	if (fp->e.tab != NULL)
		*fp->c->p = *fp->c->p * 10 + 7;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}

GL_FUNC int64_t t_deferrec(G *g, u64 n) {
	struct deferrec__frame *fp;
	uintptr_t fpoff;
	int64_t result;
	GL_PCLINE(deferrec__info, 98);
	GL_STACKCHECK(g, sizeof(*fp), deferrec__info, 98, );
	GL_FRAME_ENTER(g, struct deferrec__frame, fp, fpoff, deferrec__info);
	fp->c.f.fn = (void (*)(void))t_deferrec_func1;
	fp->c.p = &fp->r;
	GL_PCLINE(deferrec__info, 99);
	gl_deferproc(g, &fp->h, &fp->c.f);
	AFTER(struct deferrec__frame);
	fp->r = 3;
	GL_PCLINE(deferrec__info, 105);
	t_panicky(g, n);
	AFTER(struct deferrec__frame);
	fp->r = 100;
ret:
	GL_PCLINE(deferrec__info, 107);
	gl_rundefers(g, &fp->h);
	AFTER(struct deferrec__frame);
	result = fp->r;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct deferrec__frame);
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo deferrec__info __attribute__((used)) = {
	"main.deferrec", "core_test.gl", 98, sizeof(struct deferrec__frame), deferrec__slots, 1,
	(void (*)(void))t_deferrec};
static const GlFuncInfo deferrec_func1__info __attribute__((used)) = {
	"main.deferrec.func1", "core_test.gl", 101, sizeof(struct deferrec_func1__frame), deferrec_func1__slots, 2,
	(void (*)(void))t_deferrec_func1};

/* --- (b) recover in a function the deferred call calls returns nil ---
 * func nestedrec() (r int) {
 *	defer func() { if recover() != nil { r += 1000 } }()
 *	inner(&r)
 *	return
 * }
 * func inner(pr *int) { defer func() { *pr = helper() }(); panic("y") }
 * func helper() int { if recover() != nil { return 2 }; return 1 } */
static const GlFuncInfo helper__info;
/* A function that calls recover must not be inlined (Go's inliner refuses
 * them too): inlined into the deferred call, its recover would see the
 * deferred call's frame as its own and stop the panic. */
GL_FUNC GL_NOINLINE int64_t t_helper(G *g) {
	GL_PCLINE(helper__info, 120);
	GL_STACKCHECK(g, 0, helper__info, 120, );
	GL_PCLINE(helper__info, 121);
	GlEface e = gl_recover(g, GL_RBP());
	return e.tab != NULL ? 2 : 1;
}
static const GlFuncInfo helper__info __attribute__((used)) = {
	"main.helper", "core_test.gl", 120, 0, NULL, 0, (void (*)(void))t_helper};

/* closures: func() { *pr = helper() } captures pr (a *int) by reference:
 * its second word points at inner's slot holding pr */
typedef struct clo_pp {
	GlFunc f;
	int64_t **pp;
} clo_pp;
struct inner__frame {
	GlFrame h;
	int64_t *pr;
	clo_pp c;
};
static const GlFrameSlot inner__slots[] = {
	{&t_ptr, offsetof(struct inner__frame, pr)},
	{&t_clo, offsetof(struct inner__frame, c)},
};
struct innerf__frame {
	GlFrame h;
	clo_pp *c;
};
static const GlFrameSlot innerf__slots[] = {{&t_ptr, offsetof(struct innerf__frame, c)}};
static const GlFuncInfo inner__info, innerf__info;
GL_FUNC void t_inner_func1(G *g, GlFunc *ctx) {
	struct innerf__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(innerf__info, 126);
	GL_STACKCHECK(g, sizeof(*fp), innerf__info, 126, GL_FIXPARAM(g, ctx));
	GL_FRAME_ENTER(g, struct innerf__frame, fp, fpoff, innerf__info);
	fp->c = (clo_pp *)ctx;
	GL_PCLINE(innerf__info, 127);
	t_rec(g, TP.growdepth);
	AFTER(struct innerf__frame);
	GL_PCLINE(innerf__info, 128);
	int64_t h = t_helper(g);
	AFTER(struct innerf__frame);
	**fp->c->pp = h;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
GL_FUNC void t_inner(G *g, int64_t *pr) {
	struct inner__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(inner__info, 125);
	GL_STACKCHECK(g, sizeof(*fp), inner__info, 125, GL_FIXPARAM(g, pr));
	GL_FRAME_ENTER(g, struct inner__frame, fp, fpoff, inner__info);
	fp->pr = pr;
	fp->c.f.fn = (void (*)(void))t_inner_func1;
	fp->c.pp = &fp->pr;
	GL_PCLINE(inner__info, 126);
	gl_deferproc(g, &fp->h, &fp->c.f);
	AFTER(struct inner__frame);
	GL_PCLINE(inner__info, 130);
	gopanic(g, strval(&str_y));
	goto unwind;
ret:
	GL_PCLINE(inner__info, 131);
	gl_rundefers(g, &fp->h);
	AFTER(struct inner__frame);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	UNWIND_TO_SELF(struct inner__frame);
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo inner__info __attribute__((used)) = {
	"main.inner", "core_test.gl", 125, sizeof(struct inner__frame), inner__slots, 2, (void (*)(void))t_inner};
static const GlFuncInfo innerf__info __attribute__((used)) = {
	"main.inner.func1", "core_test.gl", 126, sizeof(struct innerf__frame), innerf__slots, 1,
	(void (*)(void))t_inner_func1};

struct nestedrec__frame {
	GlFrame h;
	int64_t r;
	clo_p c;
};
static const GlFrameSlot nestedrec__slots[] = {{&t_clo, offsetof(struct nestedrec__frame, c)}};
struct nestedrecf__frame {
	GlFrame h;
	clo_p *c;
};
static const GlFrameSlot nestedrecf__slots[] = {{&t_ptr, offsetof(struct nestedrecf__frame, c)}};
static const GlFuncInfo nestedrec__info, nestedrecf__info;
GL_FUNC void t_nestedrec_func1(G *g, GlFunc *ctx) {
	struct nestedrecf__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(nestedrecf__info, 116);
	GL_STACKCHECK(g, sizeof(*fp), nestedrecf__info, 116, GL_FIXPARAM(g, ctx));
	GL_FRAME_ENTER(g, struct nestedrecf__frame, fp, fpoff, nestedrecf__info);
	fp->c = (clo_p *)ctx;
	GL_PCLINE(nestedrecf__info, 116);
	GlEface e = gl_recover(g, GL_RBP());
	AFTER(struct nestedrecf__frame);
	if (e.tab != NULL && e.tab == &t_string && streq(*(GlString *)e.data, "y"))
		*fp->c->p += 1000;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
GL_FUNC int64_t t_nestedrec(G *g) {
	struct nestedrec__frame *fp;
	uintptr_t fpoff;
	int64_t result;
	GL_PCLINE(nestedrec__info, 115);
	GL_STACKCHECK(g, sizeof(*fp), nestedrec__info, 115, );
	GL_FRAME_ENTER(g, struct nestedrec__frame, fp, fpoff, nestedrec__info);
	fp->c.f.fn = (void (*)(void))t_nestedrec_func1;
	fp->c.p = &fp->r;
	GL_PCLINE(nestedrec__info, 116);
	gl_deferproc(g, &fp->h, &fp->c.f);
	AFTER(struct nestedrec__frame);
	GL_PCLINE(nestedrec__info, 117);
	t_inner(g, &fp->r);
	AFTER(struct nestedrec__frame);
ret:
	GL_PCLINE(nestedrec__info, 118);
	gl_rundefers(g, &fp->h);
	AFTER(struct nestedrec__frame);
	result = fp->r;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct nestedrec__frame);
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo nestedrec__info __attribute__((used)) = {
	"main.nestedrec", "core_test.gl", 115, sizeof(struct nestedrec__frame), nestedrec__slots, 1,
	(void (*)(void))t_nestedrec};
static const GlFuncInfo nestedrecf__info __attribute__((used)) = {
	"main.nestedrec.func1", "core_test.gl", 116, sizeof(struct nestedrecf__frame), nestedrecf__slots, 1,
	(void (*)(void))t_nestedrec_func1};

/* --- (c) defer f(args): through a gldefer thunk ---
 * func viathunk(k int) (r int) { defer recoverer(&r, k); panic("z") }
 * func recoverer(p *int, k int) { rec(grow); if recover() != nil { *p = k } } */
typedef struct deferrec_rec {
	GlFunc f;
	int64_t *p;
	int64_t k;
} deferrec_rec;
static const GlFuncInfo recoverer__info;
struct recoverer__frame {
	GlFrame h;
	int64_t *p;
};
static const GlFrameSlot recoverer__slots[] = {{&t_ptr, offsetof(struct recoverer__frame, p)}};
GL_FUNC void t_recoverer(G *g, int64_t *p, int64_t k) {
	struct recoverer__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(recoverer__info, 140);
	GL_STACKCHECK(g, sizeof(*fp), recoverer__info, 140, GL_FIXPARAM(g, p));
	GL_FRAME_ENTER(g, struct recoverer__frame, fp, fpoff, recoverer__info);
	fp->p = p;
	GL_PCLINE(recoverer__info, 141);
	t_rec(g, TP.growdepth);
	AFTER(struct recoverer__frame);
	GL_PCLINE(recoverer__info, 142);
	GlEface e = gl_recover(g, GL_RBP());
	AFTER(struct recoverer__frame);
	if (e.tab != NULL)
		*fp->p = k;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo recoverer__info __attribute__((used)) = {
	"main.recoverer", "core_test.gl", 140, sizeof(struct recoverer__frame), recoverer__slots, 1,
	(void (*)(void))t_recoverer};

/* the thunks glc makes for `defer recoverer(&r, k)`: one ends in a tail
 * call (the thunk frame disappears), one does not */
GL_DEFERTHUNK static void gldefer_tail(G *g, GlFunc *ctx) {
	deferrec_rec *d = (deferrec_rec *)ctx;
	t_recoverer(g, d->p, d->k);
}
GL_DEFERTHUNK static void gldefer_notail(G *g, GlFunc *ctx) {
	deferrec_rec *d = (deferrec_rec *)ctx;
	t_recoverer(g, d->p, d->k);
	__asm__ volatile("" ::: "memory"); /* no tail call: the thunk keeps its frame */
}

struct viathunk__frame {
	GlFrame h;
	int64_t r;
	deferrec_rec d; /* the defer record, in the frame (it does not escape) */
};
static const GlFrameSlot viathunk__slots[] = {{&t_intptr, offsetof(struct viathunk__frame, d)}};
static const GlFuncInfo viathunk__info;
static const GlString str_z = {(const uint8_t *)"z", 1};
GL_FUNC int64_t t_viathunk(G *g, int64_t k, int tail) {
	struct viathunk__frame *fp;
	uintptr_t fpoff;
	int64_t result;
	GL_PCLINE(viathunk__info, 135);
	GL_STACKCHECK(g, sizeof(*fp), viathunk__info, 135, );
	GL_FRAME_ENTER(g, struct viathunk__frame, fp, fpoff, viathunk__info);
	fp->d.f.fn = tail ? (void (*)(void))gldefer_tail : (void (*)(void))gldefer_notail;
	fp->d.p = &fp->r;
	fp->d.k = k;
	GL_PCLINE(viathunk__info, 136);
	gl_deferproc(g, &fp->h, &fp->d.f);
	AFTER(struct viathunk__frame);
	GL_PCLINE(viathunk__info, 137);
	gopanic(g, strval(&str_z));
	goto unwind;
ret:
	GL_PCLINE(viathunk__info, 138);
	gl_rundefers(g, &fp->h);
	AFTER(struct viathunk__frame);
	result = fp->r;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct viathunk__frame);
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo viathunk__info __attribute__((used)) = {
	"main.viathunk", "core_test.gl", 135, sizeof(struct viathunk__frame), viathunk__slots, 1,
	(void (*)(void))t_viathunk};

/* --- (d) a panic while panicking, recovered further out ---
 * func nestedpanic() (r int) {
 *	defer func() { if e := recover(); e == "second" { r = 2 } else { r = -1 } }()
 *	defer func() { panic("second") }()
 *	panic("first")
 * } */
struct nestedpanic__frame {
	GlFrame h;
	int64_t r;
	clo_p c1, c2;
};
static const GlFrameSlot nestedpanic__slots[] = {
	{&t_clo, offsetof(struct nestedpanic__frame, c1)},
	{&t_clo, offsetof(struct nestedpanic__frame, c2)},
};
static const GlFuncInfo nestedpanic__info, nestedpanicf1__info, nestedpanicf2__info;
GL_FUNC void t_nestedpanic_func1(G *g, GlFunc *ctx) {
	GL_PCLINE(nestedpanicf1__info, 151);
	GL_STACKCHECK(g, 0, nestedpanicf1__info, 151, GL_FIXPARAM(g, ctx));
	/* no data frame: nothing after the check can move the stack
	 * (gl_recover does not), so ctx stays valid */
	GL_PCLINE(nestedpanicf1__info, 151);
	GlEface e = gl_recover(g, GL_RBP());
	*((clo_p *)ctx)->p = (e.tab == &t_string && streq(*(GlString *)e.data, "second")) ? 2 : -1;
}
GL_FUNC void t_nestedpanic_func2(G *g, GlFunc *ctx) {
	GL_PCLINE(nestedpanicf2__info, 152);
	GL_STACKCHECK(g, 0, nestedpanicf2__info, 152, );
	(void)ctx;
	GL_PCLINE(nestedpanicf2__info, 152);
	gopanic(g, strval(&str_second));
}
GL_FUNC int64_t t_nestedpanic(G *g) {
	struct nestedpanic__frame *fp;
	uintptr_t fpoff;
	int64_t result;
	GL_PCLINE(nestedpanic__info, 150);
	GL_STACKCHECK(g, sizeof(*fp), nestedpanic__info, 150, );
	GL_FRAME_ENTER(g, struct nestedpanic__frame, fp, fpoff, nestedpanic__info);
	fp->c1.f.fn = (void (*)(void))t_nestedpanic_func1;
	fp->c1.p = &fp->r;
	fp->c2.f.fn = (void (*)(void))t_nestedpanic_func2;
	GL_PCLINE(nestedpanic__info, 151);
	gl_deferproc(g, &fp->h, &fp->c1.f);
	AFTER(struct nestedpanic__frame);
	GL_PCLINE(nestedpanic__info, 152);
	gl_deferproc(g, &fp->h, &fp->c2.f);
	AFTER(struct nestedpanic__frame);
	GL_PCLINE(nestedpanic__info, 153);
	gopanic(g, strval(&str_first));
	goto unwind;
ret:
	GL_PCLINE(nestedpanic__info, 154);
	gl_rundefers(g, &fp->h);
	AFTER(struct nestedpanic__frame);
	result = fp->r;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct nestedpanic__frame);
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo nestedpanic__info __attribute__((used)) = {
	"main.nestedpanic", "core_test.gl", 150, sizeof(struct nestedpanic__frame), nestedpanic__slots, 2,
	(void (*)(void))t_nestedpanic};
static const GlFuncInfo nestedpanicf1__info __attribute__((used)) = {
	"main.nestedpanic.func1", "core_test.gl", 151, 0, NULL, 0, (void (*)(void))t_nestedpanic_func1};
static const GlFuncInfo nestedpanicf2__info __attribute__((used)) = {
	"main.nestedpanic.func2", "core_test.gl", 152, 0, NULL, 0, (void (*)(void))t_nestedpanic_func2};

/* --- catch: func catch(f func(u64), a u64) (e interface{}) {
 *	defer func() { e = recover() }(); f(a); return } --- */
struct catch__frame {
	GlFrame h;
	GlEface e;
	clo_e c;
};
static const GlFrameSlot catch__slots[] = {
	{&t_eface, offsetof(struct catch__frame, e)},
	{&t_clo, offsetof(struct catch__frame, c)},
};
struct catchf__frame {
	GlFrame h;
	clo_e *c;
};
static const GlFrameSlot catchf__slots[] = {{&t_ptr, offsetof(struct catchf__frame, c)}};
static const GlFuncInfo catch__info, catchf__info;
GL_FUNC void t_catch_func1(G *g, GlFunc *ctx) {
	struct catchf__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(catchf__info, 161);
	GL_STACKCHECK(g, sizeof(*fp), catchf__info, 161, GL_FIXPARAM(g, ctx));
	GL_FRAME_ENTER(g, struct catchf__frame, fp, fpoff, catchf__info);
	fp->c = (clo_e *)ctx;
	GL_PCLINE(catchf__info, 161);
	GlEface e = gl_recover(g, GL_RBP());
	AFTER(struct catchf__frame);
	*fp->c->pe = e;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
GL_FUNC GlEface t_catch(G *g, void (*f)(G *, u64), u64 a) {
	struct catch__frame *fp;
	uintptr_t fpoff;
	GlEface result;
	GL_PCLINE(catch__info, 160);
	GL_STACKCHECK(g, sizeof(*fp), catch__info, 160, );
	GL_FRAME_ENTER(g, struct catch__frame, fp, fpoff, catch__info);
	fp->c.f.fn = (void (*)(void))t_catch_func1;
	fp->c.pe = &fp->e;
	GL_PCLINE(catch__info, 161);
	gl_deferproc(g, &fp->h, &fp->c.f);
	AFTER(struct catch__frame);
	GL_PCLINE(catch__info, 162);
	f(g, a);
	AFTER(struct catch__frame);
ret:
	GL_PCLINE(catch__info, 163);
	gl_rundefers(g, &fp->h);
	AFTER(struct catch__frame);
	result = fp->e;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct catch__frame);
	GL_FRAME_LEAVE(g, fp);
	return (GlEface){0, 0};
}
static const GlFuncInfo catch__info __attribute__((used)) = {
	"main.catch", "core_test.gl", 160, sizeof(struct catch__frame), catch__slots, 2, (void (*)(void))t_catch};
static const GlFuncInfo catchf__info __attribute__((used)) = {
	"main.catch.func1", "core_test.gl", 161, sizeof(struct catchf__frame), catchf__slots, 1,
	(void (*)(void))t_catch_func1};

/* --- order of deferred calls across frames; recovered by the outer one ---
 * func order() { defer logf(1); mid() }      (logf(1) recovers)
 * func mid() { defer logf(2); defer logf(3); panic(...) } */
static int64_t orderlog[8];
static int norderlog;
typedef struct clo_k {
	GlFunc f;
	int64_t k;
} clo_k;
static const GlFuncInfo logf__info, order__info, mid__info;
GL_FUNC void t_logf(G *g, GlFunc *ctx) {
	GL_PCLINE(logf__info, 170);
	GL_STACKCHECK(g, 0, logf__info, 170, GL_FIXPARAM(g, ctx));
	int64_t k = ((clo_k *)ctx)->k; /* read before any call */
	GL_PCLINE(logf__info, 171);
	GlEface e = k == 1 ? gl_recover(g, GL_RBP()) : (GlEface){0, 0};
	if (norderlog < 8)
		orderlog[norderlog++] = k * 10 + (e.tab != NULL);
}
static const GlFuncInfo logf__info __attribute__((used)) = {
	"main.logf", "core_test.gl", 170, 0, NULL, 0, (void (*)(void))t_logf};
struct mid__frame {
	GlFrame h;
	clo_k c2, c3;
};
GL_FUNC void t_mid(G *g, u64 depth) {
	struct mid__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(mid__info, 175);
	GL_STACKCHECK(g, sizeof(*fp), mid__info, 175, );
	GL_FRAME_ENTER(g, struct mid__frame, fp, fpoff, mid__info);
	fp->c2 = (clo_k){{(void (*)(void))t_logf}, 2};
	fp->c3 = (clo_k){{(void (*)(void))t_logf}, 3};
	GL_PCLINE(mid__info, 176);
	gl_deferproc(g, &fp->h, &fp->c2.f);
	AFTER(struct mid__frame);
	GL_PCLINE(mid__info, 177);
	gl_deferproc(g, &fp->h, &fp->c3.f);
	AFTER(struct mid__frame);
	GL_PCLINE(mid__info, 178);
	t_panicky(g, depth);
	AFTER(struct mid__frame);
ret:
	GL_PCLINE(mid__info, 179);
	gl_rundefers(g, &fp->h);
	AFTER(struct mid__frame);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	UNWIND_TO_SELF(struct mid__frame);
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo mid__info __attribute__((used)) = {
	"main.mid", "core_test.gl", 175, sizeof(struct mid__frame), NULL, 0, (void (*)(void))t_mid};
struct order__frame {
	GlFrame h;
	clo_k c1;
	int64_t after; /* set when order returns normally */
};
GL_FUNC int64_t t_order(G *g, u64 depth) {
	struct order__frame *fp;
	uintptr_t fpoff;
	int64_t result;
	GL_PCLINE(order__info, 185);
	GL_STACKCHECK(g, sizeof(*fp), order__info, 185, );
	GL_FRAME_ENTER(g, struct order__frame, fp, fpoff, order__info);
	fp->c1 = (clo_k){{(void (*)(void))t_logf}, 1};
	GL_PCLINE(order__info, 186);
	gl_deferproc(g, &fp->h, &fp->c1.f);
	AFTER(struct order__frame);
	GL_PCLINE(order__info, 187);
	t_mid(g, depth);
	AFTER(struct order__frame);
	fp->after = 99; /* not reached: mid panicked */
ret:
	GL_PCLINE(order__info, 188);
	gl_rundefers(g, &fp->h);
	AFTER(struct order__frame);
	result = fp->after + 1;
	GL_FRAME_LEAVE(g, fp);
	return result;
unwind:
	UNWIND_TO_SELF(struct order__frame);
	GL_FRAME_LEAVE(g, fp);
	return -1;
}
static const GlFuncInfo order__info __attribute__((used)) = {
	"main.order", "core_test.gl", 185, sizeof(struct order__frame), NULL, 0, (void (*)(void))t_order};

/* --- T7: a panic and a recovering deferred call at every offset from
 * the reserve band: a recursion with small frames, then, at the bottom,
 * defer a recovering func literal (with a large fixed frame of its own)
 * and index out of range.  Under stackforcemove, stacks have a guard page
 * right below lo and the lowest point reached is measured. ---
 * func band(d int) { if d > 0 { band(d-1); return }; defer func() { recover() }(); _ = a[d+9] } */
struct band__frame {
	GlFrame h;
	u64 x;
	GlFunc c;
};
static const GlFuncInfo band__info, bandrec__info;
static u64 bandrecovered;
GL_FUNC void t_bandrec(G *g, GlFunc *ctx) {
	(void)ctx;
	GL_PCLINE(bandrec__info, 190);
	GL_STACKCHECK(g, 0, bandrec__info, 190, );
	/* many live values: a fixed frame of spills */
	volatile u64 v[24];
	for (int i = 0; i < 24; i++)
		v[i] = (u64)i * bandrecovered;
	GL_PCLINE(bandrec__info, 191);
	GlEface e = gl_recover(g, GL_RBP());
	bandrecovered += (e.tab != NULL) + v[23] * 0;
}
static const GlFuncInfo bandrec__info __attribute__((used)) = {
	"main.band.func1", "core_test.gl", 190, 0, NULL, 0, (void (*)(void))t_bandrec};
GL_FUNC void t_band(G *g, u64 d) {
	struct band__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(band__info, 185);
	GL_STACKCHECK(g, sizeof(*fp), band__info, 185, );
	GL_FRAME_ENTER(g, struct band__frame, fp, fpoff, band__info);
	if (d > 0) {
		GL_PCLINE(band__info, 186);
		t_band(g, d - 1);
		AFTER(struct band__frame);
		GL_FRAME_LEAVE(g, fp);
		return;
	}
	fp->c.fn = (void (*)(void))t_bandrec;
	GL_PCLINE(band__info, 187);
	gl_deferproc(g, &fp->h, &fp->c);
	AFTER(struct band__frame);
	GL_PCLINE(band__info, 188);
	gl_panicindex(g, (int64_t)d + 9, 3);
	goto unwind;
ret:
	GL_PCLINE(band__info, 189);
	gl_rundefers(g, &fp->h);
	AFTER(struct band__frame);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	UNWIND_TO_SELF(struct band__frame);
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo band__info __attribute__((used)) = {
	"main.band", "core_test.gl", 185, sizeof(struct band__frame), NULL, 0, (void (*)(void))t_band};

/* ======================================================================
 * Run-time error messages, interfaces
 * ==================================================================== */
static const GlType ft_void = {.size = 8, .ptrdata = 8, .kind = GL_KIND_FUNC, .align = 8,
			       .tflag = GL_TFLAG_DIRECTIFACE, .gcdata = mask1, .str = {(const uint8_t *)"func()", 6}};
static const GlType ft_string = {.size = 8, .ptrdata = 8, .kind = GL_KIND_FUNC, .align = 8,
				 .tflag = GL_TFLAG_DIRECTIFACE, .gcdata = mask1,
				 .str = {(const uint8_t *)"func() string", 13}};
static int64_t ncallM;
static void T_M(G *g, void *data) {
	(void)g;
	ncallM += *(int64_t *)data;
}
static GlString T_String(G *g, void *data) {
	(void)g;
	(void)data;
	return (GlString){(const uint8_t *)"T!", 2};
}
#define GS(s) {(const uint8_t *)(s), sizeof(s) - 1}
static const GlMethod T_methods[] = {
	{GS("M"), &ft_void, (void (*)(void))T_M},
	{GS("String"), &ft_string, (void (*)(void))T_String},
};
static const GlType t_T = {.size = 8, .kind = GL_KIND_STRUCT, .align = 8, .tflag = GL_TFLAG_NAMED, .hash = 11,
			   .str = GS("main.T"), .methods = T_methods, .nmethods = 2};
static const GlMethod AB_methods[] = {{GS("M"), &ft_void, (void (*)(void))T_M}};
static const GlType t_A = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED, .hash = 12,
			   .str = GS("main.A"), .methods = AB_methods, .nmethods = 1};
static const GlType t_B = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED, .hash = 13,
			   .str = GS("main.B"), .methods = AB_methods, .nmethods = 1};
static const GlIMethod I_imethods[] = {{GS("M"), &ft_void}};
static const GlIMethod J_imethods[] = {{GS("M"), &ft_void}, {GS("N"), &ft_void}};
static const GlIMethod K_imethods[] = {{GS("M"), &ft_string}};
static const GlType t_I = {.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8, .gcdata = mask3,
			   .tflag = GL_TFLAG_NAMED, .hash = 21, .str = GS("main.I"), .imethods = I_imethods,
			   .nimethods = 1};
static const GlType t_J = {.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8, .gcdata = mask3,
			   .tflag = GL_TFLAG_NAMED, .hash = 22, .str = GS("main.J"), .imethods = J_imethods,
			   .nimethods = 2};
static const GlType t_K = {.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8, .gcdata = mask3,
			   .tflag = GL_TFLAG_NAMED, .hash = 23, .str = GS("main.K"), .imethods = K_imethods,
			   .nimethods = 1};

static int64_t val5 = 5;
static const GlString strhello = GS("hello");
static GlIface ifout; /* out-pointer targets outside the stack */

static const char *const panicmsgs[] = {
	"runtime error: index out of range [5] with length 3",
	"runtime error: index out of range [-1]",
	"runtime error: slice bounds out of range [:9] with capacity 8",
	"runtime error: slice bounds out of range [:9] with length 8",
	"runtime error: slice bounds out of range [3:2]",
	"runtime error: slice bounds out of range [::10] with capacity 8",
	"runtime error: slice bounds out of range [:5:4]",
	"runtime error: slice bounds out of range [3:2:]",
	"runtime error: slice bounds out of range [-2:]",
	"runtime error: integer divide by zero",
	"runtime error: invalid memory address or nil pointer dereference",
	"runtime error: negative shift amount",
	"assignment to entry in nil map",
	"interface conversion: interface {} is string, not int",
	"interface conversion: interface is nil, not main.T",
	"interface conversion: main.I is main.A, not main.B",
	"interface conversion: main.T is not main.J: missing method N",
	"interface conversion: interface {} is string, not int",
	"interface conversion: main.T is not main.J: missing method N",
	"interface conversion: interface is nil, not main.I",
	"interface conversion: main.T is not main.J: missing method N",
	"runtime: allocation size out of range",
	"interface conversion: main.I is main.A, not main.B",
	"interface conversion: main.T is not main.K: missing method M",
	"runtime error: slice bounds out of range [:7] with length 4",
};
enum { npanicmsgs = sizeof panicmsgs / sizeof panicmsgs[0] };

static const GlFuncInfo panicwith__info;
GL_FUNC void t_panicwith(G *g, u64 which) {
	GL_PCLINE(panicwith__info, 200);
	GL_STACKCHECK(g, 0, panicwith__info, 200, );
	GL_PCLINE(panicwith__info, 201);
	switch (which) {
	case 0: gl_panicindex(g, 5, 3); break;
	case 1: gl_panicindex(g, -1, 3); break;
	case 2: gl_panicslice(g, 0, 9, 8, GL_SLICE_ACAP); break;
	case 3: gl_panicslice(g, 0, 9, 8, GL_SLICE_ALEN); break;
	case 4: gl_panicslice(g, 3, 2, 0, GL_SLICE_B); break;
	case 5: gl_panicslice(g, 0, 10, 8, GL_SLICE_3ALEN); break;
	case 6: gl_panicslice(g, 0, 5, 4, GL_SLICE_3B); break;
	case 7: gl_panicslice(g, 3, 2, 0, GL_SLICE_3C); break;
	case 8: gl_panicslice(g, -2, 2, 0, GL_SLICE_B); break;
	case 9: gl_panicdivide(g); break;
	case 10: gl_panicnil(g); break;
	case 11: gl_panicshift(g); break;
	case 12: gl_panicstring(g, "assignment to entry in nil map"); break;
	case 13: gl_panicassert(g, &t_string, &t_int, &gltype_eface); break;
	case 14: gl_panicassert(g, NULL, &t_T, NULL); break;
	case 15: gl_panicassert(g, &t_A, &t_B, &t_I); break;
	case 16: gl_panicassert(g, &t_T, &t_J, NULL); break;
	case 17: gl_assertE2T(g, (GlEface){&t_string, (void *)&strhello}, &t_int); break;
	case 18: gl_assertE2I(g, &ifout, (GlEface){&t_T, &val5}, &t_J); break;
	case 19: gl_assertE2I(g, &ifout, (GlEface){NULL, NULL}, &t_I); break;
	case 20: getitab(&t_J, &t_T, false); break;
	case 21: gl_newarray(g, &t_int, -1); break;
	case 22: gl_assertI2T(g, (GlIface){getitab(&t_I, &t_A, false), &val5}, &t_B, &t_I); break;
	case 23: gl_assertE2I(g, &ifout, (GlEface){&t_T, &val5}, &t_K); break;
	case 24: gl_panicslice(g, 0, 7, 4, GL_SLICE_ALEN); break;
	}
}
static const GlFuncInfo panicwith__info __attribute__((used)) = {
	"main.panicwith", "core_test.gl", 200, 0, NULL, 0, (void (*)(void))t_panicwith};

/* func deeppanic(n int) { panicky(n) } with the signature catch wants */
static const GlFuncInfo deeppanic__info;
GL_FUNC void t_deeppanic(G *g, u64 n) {
	GL_PCLINE(deeppanic__info, 210);
	GL_STACKCHECK(g, 0, deeppanic__info, 210, );
	GL_PCLINE(deeppanic__info, 211);
	t_panicky(g, n);
}
static const GlFuncInfo deeppanic__info __attribute__((used)) = {
	"main.deeppanic", "core_test.gl", 210, 0, NULL, 0, (void (*)(void))t_deeppanic};

static void test_messages(G *g) {
	for (u64 i = 0; i < npanicmsgs; i++) {
		GlEface e = t_catch(g, t_panicwith, i);
		CHECKSTR(errstr(g, e), panicmsgs[i], "run-time error message");
		bool assertion = (i >= 13 && i <= 20) || i == 22 || i == 23;
		const GlType *t = e.tab;
		CHECK(t != NULL && streq(t->str, assertion ? "*runtime.TypeAssertionError" : "runtime.Error"),
		      "dynamic type of a run-time error");
		CHECK(t != NULL && t->nmethods == 2 && streq(t->methods[1].name, "RuntimeError"),
		      "run-time errors implement runtime.Error");
		CHECK(g->_panic == NULL && g->_defer == NULL && g->topframe == NULL && !g->unwinding,
		      "panic state clean after recovery");
	}
}

static void test_iface(G *g) {
	const GlItab *m = getitab(&t_I, &t_T, true);
	CHECK(m != NULL && m->inter == &t_I && m->type == &t_T && m->hash == t_T.hash, "getitab builds an itab");
	CHECK(m != NULL && m->fun[0] == (void (*)(void))T_M, "itab method");
	CHECK(getitab(&t_I, &t_T, true) == m, "itab cached");
	CHECK(getitab(&t_J, &t_T, true) == NULL && getitab(&t_J, &t_T, true) == NULL, "missing method: NULL");
	CHECK(getitab(&t_K, &t_T, true) == NULL, "method type differs: NULL");
	CHECK(streq(missingmethod(&t_J, &t_T), "N") && missingmethod(&t_I, &t_T).len == 0, "missingmethod");
	/* many types: the table grows */
	enum { ntypes = 3000 };
	GlType *ts = mallocgc(ntypes * sizeof(GlType), NULL, true);
	const GlItab **its = mallocgc(ntypes * sizeof(GlItab *), NULL, true);
	for (int i = 0; i < ntypes; i++) {
		ts[i] = t_T;
		ts[i].hash = (uint32_t)i * 7;
		its[i] = getitab(&t_I, &ts[i], true);
	}
	bool ok = true;
	for (int i = 0; i < ntypes; i++)
		ok &= its[i] != NULL && getitab(&t_I, &ts[i], true) == its[i] && its[i]->type == &ts[i];
	CHECK(ok, "itab table growth keeps every itab");
	/* conversions */
	GlEface *e = mallocgc(sizeof(GlEface), NULL, true);
	static int64_t v = 77;
	gl_convT(g, e, &t_int, &v);
	CHECK(e->tab == &t_int && e->data != &v && *(int64_t *)e->data == 77, "convT boxes a copy");
	static int64_t *pv = &val5;
	gl_convT(g, e, &t_ptr, &pv);
	CHECK(e->tab == &t_ptr && e->data == &val5, "convT of a pointer is direct");
	static const GlType t_empty = {.size = 0, .kind = GL_KIND_STRUCT, .str = GS("struct {}")};
	gl_convT(g, e, &t_empty, &v);
	CHECK(e->data == (void *)&zerobase, "convT of a zero-size value");
	CHECK(gl_assertE2T(g, (GlEface){&t_int, &v}, &t_int) == &v, "assertE2T ok");
	GlIface *out = mallocgc(sizeof(GlIface), NULL, true);
	CHECK(gl_assertE2I2(g, out, (GlEface){&t_T, &val5}, &t_I) && out->tab == m && out->data == &val5, "E2I2 ok");
	CHECK(!gl_assertE2I2(g, out, (GlEface){&t_T, &val5}, &t_J) && out->tab == NULL, "E2I2 fails");
	CHECK(!gl_assertE2I2(g, out, (GlEface){NULL, NULL}, &t_I) && !g->unwinding, "E2I2 of nil");
	gl_assertE2I(g, out, (GlEface){&t_T, &val5}, &t_I);
	CHECK(!g->unwinding && out->tab == m, "E2I ok");
	ncallM = 0;
	((void (*)(G *, void *))((const GlItab *)out->tab)->fun[0])(g, out->data);
	CHECKEQ(ncallM, 5, "call through a run-time itab");
	CHECK(gl_assertI2T(g, (GlIface){m, &val5}, &t_T, &t_I) == &val5, "assertI2T ok");
}

static void test_malloc(G *g) {
	u64 ta0, nm0, ta1, nm1;
	readmemstats(&ta0, &nm0);
	static const GlType t_empty = {.size = 0, .kind = GL_KIND_STRUCT, .str = GS("struct {}")};
	CHECK(mallocgc(0, NULL, true) == (void *)&zerobase && newobject(&t_empty) == (void *)&zerobase, "zerobase");
	int n = 0;
	u64 bytes = 0;
	uint8_t *prev = NULL;
	u64 prevsize = 0;
	bool ok = true;
	for (u64 size = 1; size <= 40000; size += size / 8 + 1, n++) {
		uint8_t *p = mallocgc(size, NULL, true);
		u64 rs = roundupsize(size);
		bytes += size > 32768 ? (size + 8191) / 8192 * 8192 : rs;
		/* pointer-free objects under 16 bytes are pieces of a tiny block
		 * (Go's tiny allocator), aligned only as their size needs */
		u64 align = size >= 16 || size % 8 == 0 ? 8 : size % 4 == 0 ? 4 : size % 2 == 0 ? 2 : 1;
		ok &= ((uintptr_t)p & (align - 1)) == 0;
		for (u64 i = 0; i < size; i++)
			ok &= p[i] == 0;
		memset(p, 0xAB, size);
		if (prev != NULL && size <= 32768 && prevsize >= 16 && prevsize <= 32768 && p > prev && p - prev < (1 << 20))
			ok &= (u64)(p - prev) >= (u64)roundupsize(prevsize);
		else if (prev != NULL && prevsize < 16 && p > prev && p - prev < 16)
			ok &= (u64)(p - prev) >= prevsize; /* pieces do not overlap */
		prev = p;
		prevsize = size;
	}
	CHECK(ok, "mallocgc: aligned, zeroed, not overlapping");
	uint8_t *a = mallocgc(33, NULL, false), *b = mallocgc(33, NULL, false);
	CHECK(b - a == 48 || b < a || b - a > 4096, "size classes: 33 bytes take 48");
	uint8_t *big = mallocgc(100000, NULL, true);
	CHECK(((uintptr_t)big & 4095) == 0 && big[99999] == 0, "large object: own pages");
	int64_t *arr = gl_newarray(g, &t_int, 1000);
	ok = arr != NULL;
	for (int i = 0; ok && i < 1000; i++)
		ok = arr[i] == 0;
	CHECK(ok, "newarray zeroed");
	readmemstats(&ta1, &nm1);
	CHECKEQ(nm1 - nm0, (u64)n + 4, "Mallocs counted");
	CHECK(ta1 - ta0 >= bytes, "TotalAlloc counted");
	CHECK(memstats.heap_sys >= ta1 - ta0, "HeapSys");
}

/* ======================================================================
 * Goroutines: two ping-pong with gosched while both grow (mcall/gogo with
 * stacks that move between switches)
 * ==================================================================== */
static u64 ppres[3], ppgrow[3];
static int ppdone;
struct worker__frame {
	GlFrame h;
	u64 acc[8];
	u64 *pa;
};
static const GlFrameSlot worker__slots[] = {{&t_ptr, offsetof(struct worker__frame, pa)}};
static const GlFuncInfo worker__info;
GL_FUNC void t_worker(G *g, void *arg) {
	struct worker__frame *fp;
	uintptr_t fpoff;
	long me = (long)arg;
	GL_PCLINE(worker__info, 220);
	GL_STACKCHECK(g, sizeof(*fp), worker__info, 220, );
	GL_FRAME_ENTER(g, struct worker__frame, fp, fpoff, worker__info);
	for (int i = 0; i < 8; i++)
		fp->acc[i] = (u64)me;
	u64 iters = depthsmall() ? 30 : 200, mul = depthsmall() ? 5 : 25;
	for (u64 i = 0; i < iters; i++) {
		fp->pa = &fp->acc[i % 8];
		GL_PCLINE(worker__info, 224);
		u64 t = t_rec(g, i * mul + (u64)me * 7);
		AFTER(struct worker__frame);
		*fp->pa = *fp->pa * 5 + t;
		GL_PCLINE(worker__info, 226);
		gosched();
		AFTER(struct worker__frame);
	}
	u64 s = 0;
	for (int i = 0; i < 8; i++)
		s = s * 11 + fp->acc[i];
	ppres[me] = s;
	ppgrow[me] = (u64)g->stackcopies;
	ppdone++;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo worker__info __attribute__((used)) = {
	"main.worker", "core_test.gl", 220, sizeof(struct worker__frame), worker__slots, 1,
	(void (*)(void))t_worker};
static u64 pp_ref(long me, bool small) {
	u64 acc[8];
	u64 iters = small ? 30 : 200, mul = small ? 5 : 25;
	for (int i = 0; i < 8; i++)
		acc[i] = (u64)me;
	for (u64 i = 0; i < iters; i++)
		acc[i % 8] = acc[i % 8] * 5 + rec_ref(i * mul + (u64)me * 7);
	u64 s = 0;
	for (int i = 0; i < 8; i++)
		s = s * 11 + acc[i];
	return s;
}
static u64 ppwant[2][3];

static void test_sched(G *g) {
	for (int round = 0; round < 2; round++) {
		ppdone = 0;
		ppres[1] = ppres[2] = 0;
		G *a = newproc(t_worker, (void *)1, "core_test.t_worker");
		G *b = newproc(t_worker, (void *)2, "core_test.t_worker");
		CHECK(a != b && a->goid > 1 && b->goid > 1, "newproc");
		int spins = 0;
		while (ppdone < 2 && spins++ < 100000)
			gosched();
		CHECKEQ(ppdone, 2, "both goroutines finished");
		CHECKEQ(ppres[1], ppwant[depthsmall()][1], "goroutine 1 result");
		CHECKEQ(ppres[2], ppwant[depthsmall()][2], "goroutine 2 result");
		CHECK(ppgrow[1] > 0 && ppgrow[2] > 0, "goroutine stacks grew");
		CHECK(a->atomicstatus == Gdead && b->atomicstatus == Gdead, "goroutines dead");
	}
	CHECK(getg() == g && g->m->curg == g, "back on the main goroutine");
}

/* ======================================================================
 * The driver of the in-process tests
 * ==================================================================== */
/* A preemption request (stackguard0 = GL_STACK_PREEMPT) makes the next
 * prologue enter newstack, which clears it (and still grows the stack if
 * the frame needs it). */
static const GlFuncInfo preempt__info;
GL_FUNC void tg_preempt(G *g) {
	GL_PCLINE(preempt__info, 400);
	GL_STACKCHECK(g, 0, preempt__info, 400, );
	GL_PCLINE(preempt__info, 401);
	t_rec(g, 3000); /* room for what follows */
	int64_t c0 = g->stackcopies;
	g->stackguard0 = GL_STACK_PREEMPT;
	GL_PCLINE(preempt__info, 402);
	u64 r = t_rec(g, 3);
	CHECKEQ(r, R.rec3, "preempt: result");
	CHECK(g->stackguard0 == stackguard(g), "preempt: request cleared");
	CHECK(g->stackcopies == c0 || depthsmall(), "preempt: no copy needed");
	/* a request where the frame does not fit: newstack grows anyway */
	c0 = g->stackcopies;
	g->stackguard0 = GL_STACK_PREEMPT;
	GL_PCLINE(preempt__info, 403);
	r = t_rec(g, 100000 < TP.recdeep ? 100000 : TP.recdeep);
	CHECKEQ(r, R.rec_deep, "preempt then growth: result");
	CHECK(g->stackcopies > c0, "preempt then growth: grew");
}
static const GlFuncInfo preempt__info __attribute__((used)) = {
	"main.preempt", "core_test.gl", 400, 0, NULL, 0, (void (*)(void))tg_preempt};

/* gopark / goready, and runtime.Goexit on a goroutine */
static G *parked;
static int parkstate;
static const GlFuncInfo parker__info;
GL_FUNC void t_parker(G *g, void *arg) {
	(void)arg;
	GL_PCLINE(parker__info, 410);
	GL_STACKCHECK(g, 0, parker__info, 410, );
	parked = g;
	parkstate = 1;
	GL_PCLINE(parker__info, 411);
	gopark(NULL, NULL, waitReasonChanReceive);
	parkstate = 2;
	GL_PCLINE(parker__info, 412);
	t_rec(g, 500); /* grow after being resumed */
	parkstate = 3;
}
static const GlFuncInfo parker__info __attribute__((used)) = {
	"main.parker", "core_test.gl", 410, 0, NULL, 0, (void (*)(void))t_parker};
static int goexitstate;
GL_FUNC void t_goexitdeferred(G *g, GlFunc *ctx) {
	(void)g;
	(void)ctx;
	goexitstate = 2;
}
static GlFunc goexitdeferred_clo = {(void (*)(void))t_goexitdeferred};
struct goexiter__frame {
	GlFrame h;
};
static const GlFuncInfo goexiter__info;
GL_FUNC void t_goexiter(G *g, void *arg) {
	struct goexiter__frame *fp;
	uintptr_t fpoff;
	(void)arg;
	GL_PCLINE(goexiter__info, 420);
	GL_STACKCHECK(g, sizeof(*fp), goexiter__info, 420, );
	GL_FRAME_ENTER(g, struct goexiter__frame, fp, fpoff, goexiter__info);
	goexitstate = 1;
	GL_PCLINE(goexiter__info, 421);
	gl_deferproc(g, &fp->h, &goexitdeferred_clo);
	AFTER(struct goexiter__frame);
	GL_PCLINE(goexiter__info, 422);
	t_rec(g, 300);
	AFTER(struct goexiter__frame);
	GL_PCLINE(goexiter__info, 423);
	gl_goexit(g);
	goexitstate = 99; /* not reached */
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo goexiter__info __attribute__((used)) = {
	"main.goexiter", "core_test.gl", 420, sizeof(struct goexiter__frame), NULL, 0, (void (*)(void))t_goexiter};

/* Yield until *state reaches want, for at most 10 s: the other goroutine
 * may be run by another M, and under stackforcemove on a loaded machine
 * ten yields were not always enough (a time limit, not a count). */
static void yielduntil(volatile int *state, int want) {
	for (int64_t end = nanotime() + 10000000000; *state < want && nanotime() < end;)
		gosched();
}

/* Yield until gp has exited, for at most 10 s. */
static void waitdead(G *gp) {
	for (int64_t end = nanotime() + 10000000000;
	     __atomic_load_n(&gp->atomicstatus, __ATOMIC_ACQUIRE) != Gdead && nanotime() < end;)
		gosched();
}

static void test_park(G *g) {
	parkstate = 0;
	G *p = newproc(t_parker, NULL, "core_test.t_parker");
	yielduntil(&parkstate, 1);
	CHECK(parkstate == 1 && parked == p && p->atomicstatus == Gwaiting && p->waitreason == waitReasonChanReceive,
	      "gopark: parked");
	gosched();
	gosched();
	CHECKEQ(parkstate, 1, "gopark: stays parked");
	goready(p);
	yielduntil(&parkstate, 3);
	CHECKEQ(parkstate, 3, "goready: resumed and ran to the end");
	waitdead(p); /* it set parkstate just before returning */
	CHECK(p->atomicstatus == Gdead, "parker exited");
	goexitstate = 0;
	G *x = newproc(t_goexiter, NULL, "core_test.t_goexiter");
	waitdead(x);
	CHECKEQ(goexitstate, 2, "Goexit ran the deferred call and ended the goroutine");
	CHECK(x->atomicstatus == Gdead, "Goexit: goroutine dead");
	CHECK(getg() == g, "main goroutine continues");
}

/* Channel hand-offs with a parked goroutine (chan.c's sendDirect and
 * recvDirect) write to or read from another goroutine's stack: for
 * elements with pointers that takes typeBitsBulkBarrier (mbarrier.c),
 * once, with the other side's variable and the element's size; for
 * pointer-free elements no barrier at all.  The parked side's variable is
 * a static here, so it is the same before and after any stack move. */
static const GlType t_chanstring = {.size = 8, .ptrdata = 8, .kind = GL_KIND_CHAN, .align = 8, .gcdata = mask1,
				    .elem = &t_string, .len = 3, .str = {(const uint8_t *)"chan string", 11}};
static const GlType t_chanint = {.size = 8, .ptrdata = 8, .kind = GL_KIND_CHAN, .align = 8, .gcdata = mask1,
				 .elem = &t_int, .len = 3, .str = {(const uint8_t *)"chan int", 8}};
static hchan *hoffchan;
static u64 hoffvar[2];
static volatile int hoffstate;
static int hoffcalls, hoffkind;
static uintptr_t hoffdst, hoffsrc, hoffsize;
static void hoffhook(int kind, uintptr_t dst, uintptr_t src, uintptr_t size) {
	hoffcalls++;
	hoffkind = kind;
	hoffdst = dst;
	hoffsrc = src;
	hoffsize = size;
}
static const GlFuncInfo hoff__info;
GL_FUNC void t_hoffrecv(G *g, void *arg) {
	(void)arg;
	GL_PCLINE(hoff__info, 430);
	GL_STACKCHECK(g, 0, hoff__info, 430, );
	hoffstate = 1;
	GL_PCLINE(hoff__info, 431);
	chanrecv1(g, hoffchan, hoffvar);
	hoffstate = 2;
}
GL_FUNC void t_hoffsend(G *g, void *arg) {
	(void)arg;
	GL_PCLINE(hoff__info, 440);
	GL_STACKCHECK(g, 0, hoff__info, 440, );
	hoffstate = 1;
	GL_PCLINE(hoff__info, 441);
	chansend1(g, hoffchan, hoffvar);
	hoffstate = 2;
}
static const GlFuncInfo hoff__info __attribute__((used)) = {
	"main.hoff", "core_test.gl", 430, 0, NULL, 0, (void (*)(void))t_hoffrecv};

/* Yield until gp is parked on a channel, for at most 10 s. */
static void waitchanpark(G *gp) {
	for (int64_t end = nanotime() + 10000000000;
	     (__atomic_load_n(&gp->atomicstatus, __ATOMIC_ACQUIRE) != Gwaiting || !gp->activeStackChans) &&
	     nanotime() < end;)
		gosched();
}

static void handoff(G *g, const GlType *ct) {
	bool ptrs = ct->elem->ptrdata != 0;
	uintptr_t size = ct->elem->size;
	u64 v[2] = {0x1111, 0x2222}, out[2] = {0, 0};
	hoffchan = makechan(g, ct, 0);
	/* the receiver parks first: the send copies into its variable */
	hoffvar[0] = hoffvar[1] = 0;
	hoffstate = 0;
	G *r = newproc(t_hoffrecv, NULL, "core_test.t_hoffrecv");
	waitchanpark(r);
	hoffcalls = 0;
	chansend1(g, hoffchan, v);
	CHECK(ptrs ? hoffcalls == 1 && hoffkind == GL_BARRIER_TYPEBITS && hoffdst == (uintptr_t)hoffvar &&
			     hoffsrc == (uintptr_t)v && hoffsize == size
		   : hoffcalls == 0,
	      ptrs ? "sendDirect of pointers: typeBitsBulkBarrier into the receiver's variable"
		   : "sendDirect of scalars: no barrier");
	yielduntil(&hoffstate, 2);
	CHECK(hoffvar[0] == 0x1111 && (size == 8 || hoffvar[1] == 0x2222), "sendDirect: the value");
	waitdead(r);
	/* the sender parks first: the receive copies from its variable */
	hoffvar[0] = 0x3333;
	hoffvar[1] = 0x4444;
	hoffstate = 0;
	G *s = newproc(t_hoffsend, NULL, "core_test.t_hoffsend");
	waitchanpark(s);
	hoffcalls = 0;
	chanrecv1(g, hoffchan, out);
	CHECK(ptrs ? hoffcalls == 1 && hoffkind == GL_BARRIER_TYPEBITS && hoffdst == (uintptr_t)out &&
			     hoffsrc == (uintptr_t)hoffvar && hoffsize == size
		   : hoffcalls == 0,
	      ptrs ? "recvDirect of pointers: typeBitsBulkBarrier from the sender's variable"
		   : "recvDirect of scalars: no barrier");
	CHECK(out[0] == 0x3333 && (size == 8 || out[1] == 0x4444), "recvDirect: the value");
	waitdead(s);
}

static void test_handoff(G *g) {
	gcWriteBarrierTestHook = hoffhook;
	handoff(g, &t_chanstring);
	handoff(g, &t_chanint);
	gcWriteBarrierTestHook = NULL;
}

static const GlFuncInfo coremain__info;
/* Each group runs on a goroutine of its own, so it starts on a fresh
 * 2 KiB stack. */
static int testdone;
GL_FUNC void t_testg(G *g, void *arg) {
	GL_PCLINE(coremain__info, 290);
	GL_STACKCHECK(g, 0, coremain__info, 290, );
	GL_PCLINE(coremain__info, 291);
	((void (*)(G *))arg)(g);
	CHECK(g->topframe == NULL && g->_defer == NULL && g->_panic == NULL && !g->unwinding,
	      "test goroutine ends clean");
	testdone = 1;
}
static void runtest(void (*fn)(G *)) {
	testdone = 0;
	newproc(t_testg, (void *)fn, "core_test.t_testg");
	while (!testdone)
		gosched();
}

GL_FUNC void tg_T1(G *g) {
	GL_PCLINE(coremain__info, 301);
	GL_STACKCHECK(g, 0, coremain__info, 301, );
	GL_PCLINE(coremain__info, 302);
	u64 r = t_rec(g, TP.recdeep);
	CHECKEQ(r, R.rec_deep, "T1 deep recursion");
	CHECK(g->topframe == NULL, "T1 frames popped");
	sayf("  T1 rec(%llu): %llu copies, stack %llu KiB\n", TP.recdeep, (u64)g->stackcopies,
	     (g->stack.hi - g->stack.lo) >> 10);
}
GL_FUNC void tg_T2(G *g) {
	GL_PCLINE(coremain__info, 305);
	GL_STACKCHECK(g, 0, coremain__info, 305, );
	u64 s = 0;
	for (u64 d = 0; d < TP.loopdepths; d++) {
		GL_PCLINE(coremain__info, 306);
		s = s * 3 + t_deep_then_loop(g, d * 37, TP.loopk);
	}
	CHECKEQ(s, R.loopsum, "T2 loop over growing calls");
}
GL_FUNC void tg_T3(G *g) {
	GL_PCLINE(coremain__info, 310);
	GL_STACKCHECK(g, 0, coremain__info, 310, );
	GL_PCLINE(coremain__info, 311);
	t_addr(g, TP.addrdepth);
	sayf("  T3 pointer to a local moved by %+lld bytes; its uintptr copy did not\n", addr_moved, 0, 0);
}
GL_FUNC void tg_T4(G *g) {
	GL_PCLINE(coremain__info, 315);
	GL_STACKCHECK(g, 0, coremain__info, 315, );
	GL_PCLINE(coremain__info, 316);
	CHECKEQ(t_usemk(g, TP.mkn), R.usemk, "T4 pointer parameters and out-pointers");
}
GL_FUNC void tg_T5(G *g) {
	GL_PCLINE(coremain__info, 320);
	GL_STACKCHECK(g, 0, coremain__info, 320, );
	u64 s = 0;
	for (u64 x = 0; x < TP.manymax; x += TP.manystep) {
		GL_PCLINE(coremain__info, 321);
		s += t_manylive(g, x);
	}
	CHECKEQ(s, R.many, "T5 callee-saved registers across growth");
}
GL_FUNC void tg_T6(G *g) {
	GL_PCLINE(coremain__info, 330);
	GL_STACKCHECK(g, 0, coremain__info, 330, );
	GL_PCLINE(coremain__info, 331);
	CHECKEQ(t_deferrec(g, 50), 37, "T6a recover in a deferred func literal");
	CHECK(deferrec_copies > 0, "T6a the deferred call moved the stack");
	CHECK(g->_panic == NULL && g->_defer == NULL && g->topframe == NULL, "T6a state after recovery");
	GL_PCLINE(coremain__info, 332);
	CHECKEQ(t_nestedrec(g), 1001, "T6b recover in a nested call is nil");
	GL_PCLINE(coremain__info, 333);
	CHECKEQ(t_viathunk(g, 5, 1), 5, "T6c recover through a defer thunk (tail call)");
	GL_PCLINE(coremain__info, 334);
	CHECKEQ(t_viathunk(g, 6, 0), 6, "T6c recover through a defer thunk (thunk frame)");
	GL_PCLINE(coremain__info, 335);
	CHECKEQ(t_nestedpanic(g), 2, "T6d panic while panicking, recovered");
	CHECK(g->_panic == NULL && g->_defer == NULL && !g->unwinding, "T6d no panic left");
	norderlog = 0;
	GL_PCLINE(coremain__info, 336);
	CHECKEQ(t_order(g, 30), 1, "T6e the recovering frame returns normally");
	CHECK(norderlog == 3 && orderlog[0] == 30 && orderlog[1] == 20 && orderlog[2] == 11, "T6e defer order");
}
GL_FUNC void tg_T6deep(G *g) {
	GL_PCLINE(coremain__info, 340);
	GL_STACKCHECK(g, 0, coremain__info, 340, );
	GL_PCLINE(coremain__info, 341);
	GlEface e = t_catch(g, t_deeppanic, TP.panicdepth);
	CHECKSTR(errstr(g, e), panicmsgs[0], "T6f panic deep in a grown stack");
	for (u64 i = 0; i < 300; i++) {
		GL_PCLINE(coremain__info, 342);
		e = t_catch(g, t_deeppanic, i % 64);
		if (e.tab == NULL || g->topframe != NULL || g->_defer != NULL || g->_panic != NULL) {
			CHECK(false, "T6g repeated panics leave no state");
			break;
		}
	}
}
static u64 banddepth;
GL_FUNC void tg_band(G *g) {
	GL_PCLINE(coremain__info, 345);
	GL_STACKCHECK(g, 0, coremain__info, 345, );
	GL_PCLINE(coremain__info, 346);
	t_band(g, banddepth);
}
GL_FUNC void tg_misc(G *g) {
	GL_PCLINE(coremain__info, 350);
	GL_STACKCHECK(g, 0, coremain__info, 350, );
	test_messages(g);
	test_iface(g);
	test_malloc(g);
}

static const GlFuncInfo coremain__info;
GL_FUNC void t_coremain(G *g) {
	GL_PCLINE(coremain__info, 360);
	GL_STACKCHECK(g, 0, coremain__info, 360, );
	runtest(tg_T1);
	runtest(tg_T2);
	runtest(tg_T3);
	runtest(tg_T4);
	runtest(tg_T5);
	runtest(tg_T6);
	runtest(tg_T6deep);
	runtest(tg_misc);
	runtest(tg_preempt);
	test_park(g);
	test_handoff(g);
	bandrecovered = 0;
	for (banddepth = 0; banddepth < 160; banddepth++)
		runtest(tg_band); /* each on a fresh 2 KiB stack */
	CHECKEQ(bandrecovered, 160, "T7 panics at every offset from the band recovered");
	test_sched(g);
	/* and once on the main goroutine itself */
	GL_PCLINE(coremain__info, 370);
	tg_T1(g);
	sayf("  stacks: %llu copies, %llu bytes copied, %llu us copying\n", memstats.stack_copies,
	     memstats.stack_bytes_copied, memstats.stack_copy_ns / 1000);
	if (depthsmall()) {
		sayf("  lowest point reached: %llu bytes above stack.lo (reserve band %llu)\n",
		     memstats.stack_min_headroom, GL_STACK_GUARD, 0);
		CHECK(memstats.stack_min_headroom >= 256 && memstats.stack_min_headroom < GL_STACK_GUARD,
		      "the reserve band is used but never exhausted");
	}
	say(failures ? "core: FAILED\n" : "core: ok\n");
	systemstack(exit_m, (void *)(intptr_t)(failures != 0));
}
static const GlFuncInfo coremain__info __attribute__((used)) = {
	"main.coremain", "core_test.gl", 300, 0, NULL, 0, (void (*)(void))t_coremain};

/* ======================================================================
 * Fatal paths, each in a child: uncaught panics and their tracebacks,
 * stack overflow, faults, throw, deadlock, Goexit
 * ==================================================================== */
static u64 childarg; /* which variant a child runs */

/* main.tbmain → main.fa → main.fb → index out of range */
static const GlFuncInfo fa__info, fb__info, tbmain__info;
struct fb__frame {
	GlFrame h;
	u64 a[3];
};
GL_FUNC void t_fb(G *g, u64 i) {
	struct fb__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(fb__info, 28);
	GL_STACKCHECK(g, sizeof(*fp), fb__info, 28, );
	GL_FRAME_ENTER(g, struct fb__frame, fp, fpoff, fb__info);
	if (GL_UNLIKELY(i >= 3)) {
		GL_PCLINE(fb__info, 31);
		gl_panicindex(g, (int64_t)i, 3);
		goto unwind;
	}
	fp->a[i] = 1;
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_RELOAD(struct fb__frame, fp, fpoff);
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo fb__info __attribute__((used)) = {
	"main.fb", "/src/core_test.gl", 28, sizeof(struct fb__frame), NULL, 0, (void (*)(void))t_fb};
GL_FUNC void t_fa(G *g, u64 n) {
	GL_PCLINE(fa__info, 20);
	GL_STACKCHECK(g, 0, fa__info, 20, );
	if (n > 0) {
		GL_PCLINE(fa__info, 21);
		t_fa(g, n - 1);
		__asm__ volatile("" ::: "memory");
		return;
	}
	GL_PCLINE(fa__info, 23);
	t_fb(g, 5);
	__asm__ volatile("" ::: "memory"); /* keep the frame: no tail call */
}
static const GlFuncInfo fa__info __attribute__((used)) = {
	"main.fa", "/src/core_test.gl", 20, 0, NULL, 0, (void (*)(void))t_fa};
GL_FUNC void t_tbmain(G *g) {
	GL_PCLINE(tbmain__info, 14);
	GL_STACKCHECK(g, 0, tbmain__info, 14, );
	GL_PCLINE(tbmain__info, 15);
	t_fa(g, childarg);
	__asm__ volatile("" ::: "memory");
}
static const GlFuncInfo tbmain__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 14, 0, NULL, 0, (void (*)(void))t_tbmain};

/* panic while panicking, uncaught: "panic: panic in work\n\tpanic: panic in
 * cleanup", and a repanic after recover: "panic: first [recovered]\n\tpanic: second" */
static const GlString str_work = GS("panic in work"), str_cleanup = GS("panic in cleanup");
static const GlFuncInfo tbnested__info, tbnestedf__info;
GL_FUNC void t_tbnested_func1(G *g, GlFunc *ctx) {
	(void)ctx;
	GL_PCLINE(tbnestedf__info, 41);
	GL_STACKCHECK(g, 0, tbnestedf__info, 41, );
	if (childarg == 1) {
		GL_PCLINE(tbnestedf__info, 42);
		gl_recover(g, GL_RBP());
		GL_PCLINE(tbnestedf__info, 43);
		gopanic(g, strval(&str_second));
		__asm__ volatile("" ::: "memory");
	} else {
		GL_PCLINE(tbnestedf__info, 44);
		gopanic(g, strval(&str_cleanup));
		__asm__ volatile("" ::: "memory");
	}
}
static const GlFuncInfo tbnestedf__info __attribute__((used)) = {
	"main.main.func1", "/src/core_test.gl", 41, 0, NULL, 0, (void (*)(void))t_tbnested_func1};
struct tbnested__frame {
	GlFrame h;
	GlFunc c;
};
GL_FUNC void t_tbnested(G *g) {
	struct tbnested__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(tbnested__info, 40);
	GL_STACKCHECK(g, sizeof(*fp), tbnested__info, 40, );
	GL_FRAME_ENTER(g, struct tbnested__frame, fp, fpoff, tbnested__info);
	fp->c.fn = (void (*)(void))t_tbnested_func1;
	GL_PCLINE(tbnested__info, 41);
	gl_deferproc(g, &fp->h, &fp->c);
	AFTER(struct tbnested__frame);
	GL_PCLINE(tbnested__info, 46);
	gopanic(g, strval(childarg == 1 ? &str_first : &str_work));
	goto unwind;
ret:
	GL_PCLINE(tbnested__info, 47);
	gl_rundefers(g, &fp->h);
	AFTER(struct tbnested__frame);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	UNWIND_TO_SELF(struct tbnested__frame);
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo tbnested__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 40, sizeof(struct tbnested__frame), NULL, 0, (void (*)(void))t_tbnested};

/* panic values of many kinds */
static int64_t boxed5 = 5;
static const GlString boxedx = GS("x");
static double boxed15 = 1.5;
static bool boxedtrue = true;
static int64_t boxed42 = 42;
static GlComplex128 boxedc = {1, 2};
static GlString E_Error(G *g, void *data) {
	(void)g;
	(void)data;
	return (GlString)GS("boom");
}
static GlString St_String(G *g, void *data) {
	(void)g;
	(void)data;
	return (GlString)GS("stringer!");
}
static const GlFuncInfo deeperr__info;
/* an Error method that grows the stack: it runs on the goroutine stack
 * before the runtime switches to g0 to print */
GL_FUNC GlString t_deeperr_Error(G *g, void *data) {
	(void)data;
	GL_PCLINE(deeperr__info, 60);
	GL_STACKCHECK(g, 0, deeperr__info, 60, );
	GL_PCLINE(deeperr__info, 61);
	u64 r = t_rec(g, 3000);
	return r ? (GlString)GS("deep error") : (GlString)GS("?");
}
static const GlFuncInfo deeperr__info __attribute__((used)) = {
	"main.deepErr.Error", "/src/core_test.gl", 60, 0, NULL, 0, (void (*)(void))t_deeperr_Error};
static const GlMethod E_methods[] = {{GS("Error"), &ft_string, (void (*)(void))E_Error}};
static const GlMethod St_methods[] = {{GS("String"), &ft_string, (void (*)(void))St_String}};
static const GlMethod DE_methods[] = {{GS("Error"), &ft_string, (void (*)(void))t_deeperr_Error}};
static const GlType tv_T = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED, .str = GS("main.T")};
static const GlType tv_S = {.size = 16, .ptrdata = 8, .gcdata = mask1, .kind = GL_KIND_STRING, .align = 8,
			    .tflag = GL_TFLAG_NAMED, .str = GS("main.S")};
static const GlType tv_E = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED, .str = GS("main.E"),
			    .methods = E_methods, .nmethods = 1};
static const GlType tv_St = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED,
			     .str = GS("main.St"), .methods = St_methods, .nmethods = 1};
static const GlType tv_P = {.size = 8, .kind = GL_KIND_STRUCT, .align = 8, .tflag = GL_TFLAG_NAMED, .str = GS("main.P")};
static const GlType tv_f64 = {.size = 8, .kind = GL_KIND_FLOAT64, .align = 8, .str = GS("float64")};
static const GlType tv_bool = {.size = 1, .kind = GL_KIND_BOOL, .align = 1, .str = GS("bool")};
static const GlType tv_DE = {.size = 8, .kind = GL_KIND_INT, .align = 8, .tflag = GL_TFLAG_NAMED,
			     .str = GS("main.deepErr"), .methods = DE_methods, .nmethods = 1};
static const GlType tv_C = {.size = 16, .kind = GL_KIND_COMPLEX128, .align = 8, .tflag = GL_TFLAG_NAMED,
			    .str = GS("main.C")};
static const struct {
	const GlType *t;
	void *v;
	const char *want;
} panicvals[] = {
	{&tv_T, &boxed5, "panic: main.T(5)\n"},
	{&tv_S, (void *)&boxedx, "panic: main.S(\"x\")\n"},
	{&tv_E, &boxed5, "panic: boom\n"},
	{&tv_St, &boxed5, "panic: stringer!\n"},
	{&tv_P, &boxed5, "panic: (main.P) 0x"},
	{&t_int, &boxed42, "panic: 42\n"},
	{&tv_f64, &boxed15, "panic: +1.500000e+000\n"},
	{&tv_bool, &boxedtrue, "panic: true\n"},
	{NULL, NULL, "panic: nil\n"},
	{&tv_DE, &boxed5, "panic: deep error\n"},
	{&tv_C, &boxedc, "panic: main.C(+1.000000e+000+2.000000e+000i)\n"},
	{&t_string, (void *)&boxedx, "panic: x\n"},
};
static const GlFuncInfo tbvalue__info;
GL_FUNC void t_tbvalue(G *g) {
	GL_PCLINE(tbvalue__info, 70);
	GL_STACKCHECK(g, 0, tbvalue__info, 70, );
	GL_PCLINE(tbvalue__info, 71);
	gopanic(g, (GlEface){panicvals[childarg].t, panicvals[childarg].v});
	__asm__ volatile("" ::: "memory");
}
static const GlFuncInfo tbvalue__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 70, 0, NULL, 0, (void (*)(void))t_tbvalue};

static const GlFuncInfo tbnil__info;
GL_FUNC void t_tbnil(G *g) {
	GL_PCLINE(tbnil__info, 80);
	GL_STACKCHECK(g, 0, tbnil__info, 80, );
	GL_PCLINE(tbnil__info, 81);
	gl_panicnil(g);
	__asm__ volatile("" ::: "memory");
}
static const GlFuncInfo tbnil__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 80, 0, NULL, 0, (void (*)(void))t_tbnil};

/* unbounded recursion */
struct inf__frame {
	GlFrame h;
	u64 a[12];
};
static const GlFuncInfo inf__info;
static volatile u64 infstop = ~(u64)0; /* never reached: unbounded */
GL_FUNC u64 t_inf(G *g, u64 n) {
	struct inf__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(inf__info, 90);
	GL_STACKCHECK(g, sizeof(*fp), inf__info, 90, );
	GL_FRAME_ENTER(g, struct inf__frame, fp, fpoff, inf__info);
	fp->a[n % 12] = n;
	GL_PCLINE(inf__info, 92);
	u64 r = n == infstop ? 0 : t_inf(g, n + 1);
	AFTER(struct inf__frame);
	r += fp->a[n % 12];
	GL_FRAME_LEAVE(g, fp);
	return r;
unwind:
	GL_FRAME_LEAVE(g, fp);
	return 0;
}
static const GlFuncInfo inf__info __attribute__((used)) = {
	"main.inf", "/src/core_test.gl", 90, sizeof(struct inf__frame), NULL, 0, (void (*)(void))t_inf};
static const GlFuncInfo overflow__info;
GL_FUNC void t_overflow(G *g) {
	GL_PCLINE(overflow__info, 95);
	GL_STACKCHECK(g, 0, overflow__info, 95, );
	maxstacksize = childarg ? childarg : maxstacksize;
	GL_PCLINE(overflow__info, 96);
	t_inf(g, 0);
	__asm__ volatile("" ::: "memory");
}
static const GlFuncInfo overflow__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 95, 0, NULL, 0, (void (*)(void))t_overflow};

/* a stale address into a moved stack, used (stackforcemove) */
struct stale__frame {
	GlFrame h;
	u64 x;
	uintptr_t u;
};
static const GlFuncInfo stale__info;
GL_FUNC void t_stale(G *g) {
	struct stale__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(stale__info, 100);
	GL_STACKCHECK(g, sizeof(*fp), stale__info, 100, );
	GL_FRAME_ENTER(g, struct stale__frame, fp, fpoff, stale__info);
	fp->u = (uintptr_t)&fp->x; /* u := uintptr(unsafe.Pointer(&x)) */
	GL_PCLINE(stale__info, 102);
	t_rec(g, 10);
	AFTER(struct stale__frame);
	GL_PCLINE(stale__info, 103);
	*(volatile u64 *)fp->u = 1; /* *(*int)(unsafe.Pointer(u)) = 1 */
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo stale__info __attribute__((used)) = {
	"main.stale", "/src/core_test.gl", 100, sizeof(struct stale__frame), NULL, 0, (void (*)(void))t_stale};

/* the same after the stress mode's first 256 retirements, which are
 * poisoned one by one: later retired stacks are clobbered and checked in
 * batches, and only some batches are poisoned, so the stale write is found
 * either by the fault or by the check (before the block is reused) */
static const GlFuncInfo stalelate__info;
GL_FUNC void t_stalelate(G *g) {
	struct stale__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(stalelate__info, 104);
	GL_STACKCHECK(g, sizeof(*fp), stalelate__info, 104, );
	GL_FRAME_ENTER(g, struct stale__frame, fp, fpoff, stalelate__info);
	GL_PCLINE(stalelate__info, 105);
	t_rec(g, 400); /* past the eager poisonings */
	AFTER(struct stale__frame);
	fp->u = (uintptr_t)&fp->x;
	GL_PCLINE(stalelate__info, 107);
	t_rec(g, 10);
	AFTER(struct stale__frame);
	*(volatile u64 *)fp->u = 1; /* stale */
	GL_PCLINE(stalelate__info, 109);
	t_rec(g, 1500); /* enough retirements to check the block */
	AFTER(struct stale__frame);
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo stalelate__info __attribute__((used)) = {
	"main.stalelate", "/src/core_test.gl", 104, sizeof(struct stale__frame), NULL, 0,
	(void (*)(void))t_stalelate};

/* a nil dereference glc "forgot" to check */
static const GlFuncInfo nilderef__info;
static volatile uintptr_t niladdr = 8;
GL_FUNC void t_nilderef(G *g) {
	GL_PCLINE(nilderef__info, 110);
	GL_STACKCHECK(g, 0, nilderef__info, 110, );
	*(volatile u64 *)niladdr = 1;
	GL_PCLINE(nilderef__info, 112);
	t_rec(g, 1);
}
static const GlFuncInfo nilderef__info __attribute__((used)) = {
	"main.nilderef", "/src/core_test.gl", 110, 0, NULL, 0, (void (*)(void))t_nilderef};

static const GlFuncInfo misc__info;
/* childarg 0: GLDEBUG=stacktrace lines; 1: throw; 2: deadlock; 3: Goexit
 * from main after a deferred call */
static const GlString str_deferran = GS("deferred call ran\n");
GL_FUNC void t_printdeferred(G *g, GlFunc *ctx) {
	(void)g;
	(void)ctx;
	printstring(str_deferran);
}
static GlFunc printdeferred_clo = {(void (*)(void))t_printdeferred};
struct misc__frame {
	GlFrame h;
};
GL_FUNC void t_misc(G *g) {
	struct misc__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(misc__info, 120);
	GL_STACKCHECK(g, sizeof(*fp), misc__info, 120, );
	GL_FRAME_ENTER(g, struct misc__frame, fp, fpoff, misc__info);
	switch (childarg) {
	case 0:
		GL_PCLINE(misc__info, 121);
		t_rec(g, 100);
		AFTER(struct misc__frame);
		break;
	case 1:
		GL_PCLINE(misc__info, 122);
		gl_throw("test throw");
	case 2:
		GL_PCLINE(misc__info, 123);
		gopark(NULL, NULL, waitReasonChanReceive);
		AFTER(struct misc__frame);
		break;
	case 3:
		GL_PCLINE(misc__info, 124);
		gl_deferproc(g, &fp->h, &printdeferred_clo);
		AFTER(struct misc__frame);
		GL_PCLINE(misc__info, 125);
		gl_goexit(g);
		AFTER(struct misc__frame);
		break;
	}
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo misc__info __attribute__((used)) = {
	"main.main", "/src/core_test.gl", 120, sizeof(struct misc__frame), NULL, 0, (void (*)(void))t_misc};

/* ======================================================================
 * Timing: a 4096-deep descent with a 128-byte array per frame, on a fresh
 * goroutine (2 KiB stack, grows to 1 MiB) and again on the grown stack
 * (warm), as seed 001 measures
 * ==================================================================== */
struct descend__frame {
	GlFrame h;
	uint8_t frame[128];
};
static const GlFuncInfo descend__info;
static volatile uint8_t sinkbyte;
GL_FUNC void t_descend(G *g, u64 depth, u64 n) {
	struct descend__frame *fp;
	uintptr_t fpoff;
	GL_PCLINE(descend__info, 130);
	GL_STACKCHECK(g, sizeof(*fp), descend__info, 130, );
	GL_FRAME_ENTER(g, struct descend__frame, fp, fpoff, descend__info);
	fp->frame[0] = (uint8_t)depth;
	if (depth + 1 < n) {
		GL_PCLINE(descend__info, 134);
		t_descend(g, depth + 1, n);
		AFTER(struct descend__frame);
	}
	sinkbyte = fp->frame[0];
	GL_FRAME_LEAVE(g, fp);
	return;
unwind:
	GL_FRAME_LEAVE(g, fp);
}
static const GlFuncInfo descend__info __attribute__((used)) = {
	"main.Descend", "/src/core_test.gl", 130, sizeof(struct descend__frame), NULL, 0, (void (*)(void))t_descend};

enum { nbench = 41 };
static int64_t stamps[8];
static void stamp_(void *i) {
	stamps[(intptr_t)i] = nanotime();
}
static int64_t bfresh[nbench], bwarm[nbench], bfresh1[nbench], bwarm1[nbench], bcopyns[nbench];
static u64 bcopies[nbench], bbytes[nbench], bsize[nbench];
static int benchrun, benchdone;
static u64 benchdepth;
GL_FUNC void t_benchg(G *g, void *arg) {
	(void)arg;
	GL_PCLINE(descend__info, 140);
	GL_STACKCHECK(g, 0, descend__info, 140, );
	u64 c0 = memstats.stack_copies, ns0 = memstats.stack_copy_ns, b0 = memstats.stack_bytes_copied;
	systemstack(stamp_, (void *)0);
	t_descend(g, 0, benchdepth);
	systemstack(stamp_, (void *)1);
	u64 c1 = memstats.stack_copies, ns1 = memstats.stack_copy_ns, b1 = memstats.stack_bytes_copied;
	t_descend(g, 0, benchdepth);
	systemstack(stamp_, (void *)2);
	int i = benchrun;
	bfresh[i] = stamps[1] - stamps[0];
	bwarm[i] = stamps[2] - stamps[1];
	bcopies[i] = c1 - c0;
	bcopyns[i] = (int64_t)(ns1 - ns0);
	bbytes[i] = b1 - b0;
	bsize[i] = g->stack.hi - g->stack.lo;
	benchdone++;
}
GL_FUNC void t_benchg1(G *g, void *arg) {
	(void)arg;
	GL_PCLINE(descend__info, 150);
	GL_STACKCHECK(g, 0, descend__info, 150, );
	systemstack(stamp_, (void *)3);
	t_descend(g, 0, 1);
	systemstack(stamp_, (void *)4);
	t_descend(g, 0, 1);
	systemstack(stamp_, (void *)5);
	bfresh1[benchrun] = stamps[4] - stamps[3];
	bwarm1[benchrun] = stamps[5] - stamps[4];
	benchdone++;
}
static int cmpi64(const void *a, const void *b) {
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}
static void benchreport(void *arg) {
	(void)arg;
	printf("  growth 2 KiB -> %llu KiB: %llu copies, %llu KiB copied\n", (unsigned long long)bsize[0] >> 10,
	       (unsigned long long)bcopies[0], (unsigned long long)bbytes[0] >> 10);
	qsort(bfresh, nbench, sizeof(int64_t), cmpi64);
	qsort(bwarm, nbench, sizeof(int64_t), cmpi64);
	qsort(bfresh1, nbench, sizeof(int64_t), cmpi64);
	qsort(bwarm1, nbench, sizeof(int64_t), cmpi64);
	qsort(bcopyns, nbench, sizeof(int64_t), cmpi64);
	int m = nbench / 2;
	printf("  descent of %llu frames (median of %d): fresh %.1f us, warm %.1f us; depth 1: fresh %.2f us, warm %.2f us\n",
	       (unsigned long long)benchdepth, nbench, bfresh[m] / 1e3, bwarm[m] / 1e3, bfresh1[m] / 1e3, bwarm1[m] / 1e3);
	printf("  cost of growth (fresh - warm, less depth 1): %.1f us; copystack's own time %.1f us (min %.1f)\n",
	       ((bfresh[m] - bwarm[m]) - (bfresh1[m] - bwarm1[m])) / 1e3, bcopyns[m] / 1e3, bcopyns[0] / 1e3);
	fflush(stdout);
}
static const GlFuncInfo benchmain__info;
GL_FUNC void t_benchmain(G *g) {
	GL_PCLINE(benchmain__info, 160);
	GL_STACKCHECK(g, 0, benchmain__info, 160, );
	benchdepth = 4096;
	for (benchrun = 0; benchrun < nbench; benchrun++) {
		benchdone = 0;
		newproc(t_benchg, NULL, "core_test.t_benchg");
		newproc(t_benchg1, NULL, "core_test.t_benchg1");
		while (benchdone < 2)
			gosched();
	}
	systemstack(benchreport, NULL);
}
static const GlFuncInfo benchmain__info __attribute__((used)) = {
	"main.bench", "/src/core_test.gl", 160, 0, NULL, 0, (void (*)(void))t_benchmain};

/* ======================================================================
 * The harness: children, their expected output and status
 * ==================================================================== */
GL_FUNC void t_init(G *g) {
	(void)g;
}

enum { NORMAL = 1, FORCEMOVE = 2, BOTH = 3 };
typedef struct tcase {
	const char *name;
	void (*main)(G *);
	u64 arg;
	int modes;
	const char *gldebug;     /* added to GLDEBUG */
	const char *gltraceback; /* GLTRACEBACK */
	int status;
	const char *want[8];
	const char *notwant;
} tcase;

static const tcase cases[] = {
	{"core", t_coremain, 0, BOTH, NULL, NULL, 0, {"core: ok\n"}, "FAIL"},
	{"traceback of an index panic", t_tbmain, 3, BOTH, NULL, NULL, 2,
	 {"panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\n"
	  "main.fb(...)\n\t/src/core_test.gl:31 +0x",
	  "\nmain.fa(...)\n\t/src/core_test.gl:23 +0x", "\nmain.fa(...)\n\t/src/core_test.gl:21 +0x",
	  "\nmain.main(...)\n\t/src/core_test.gl:15 +0x"},
	 "runtime C frame"},
	{"GLTRACEBACK=none", t_tbmain, 0, NORMAL, NULL, "none", 2,
	 {"panic: runtime error: index out of range [5] with length 3\n"}, "goroutine"},
	{"GLTRACEBACK=system", t_tbmain, 0, NORMAL, NULL, "system", 2,
	 {"goroutine 1 [running]:\n", "fatalpanic(...)\n\tpanic.c +0x", "main.fb(...)"}, "runtime C frame"},
	{"nested panics", t_tbnested, 0, BOTH, NULL, NULL, 2,
	 {"panic: panic in work\n\tpanic: panic in cleanup\n\ngoroutine 1 [running]:\nmain.main.func1(...)\n"
	  "\t/src/core_test.gl:44 +0x",
	  "\npanic({0x", "\nmain.main(...)\n\t/src/core_test.gl:46 +0x"},
	 NULL},
	{"repanic after recover", t_tbnested, 1, BOTH, NULL, NULL, 2,
	 {"panic: first [recovered]\n\tpanic: second\n\ngoroutine 1 [running]:\n"}, NULL},
	{"nil dereference panic", t_tbnil, 0, BOTH, NULL, NULL, 2,
	 {"panic: runtime error: invalid memory address or nil pointer dereference\n"
	  "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x",
	  "]\n\ngoroutine 1 [running]:\nmain.main(...)\n\t/src/core_test.gl:81 +0x"},
	 NULL},
	{"stack overflow", t_overflow, 1 << 20, BOTH, NULL, NULL, 2,
	 {"runtime: goroutine stack exceeds 1048576-byte limit\nruntime: sp=0x", " stack=[0x",
	  "fatal error: stack overflow\n\nruntime stack:\ngl_throw(...)\n", "\nnewstack(...)\n",
	  "\n\ngoroutine 1 [running]:\nmain.inf(...)\n\t/src/core_test.gl:90 +0x",
	  "\nmain.inf(...)\n\t/src/core_test.gl:92 +0x",
	  "...additional frames elided...\n", "\nmain.main(...)\n\t/src/core_test.gl:96 +0x"},
	 NULL},
	{"stale pointer into a moved stack", t_stale, 0, FORCEMOVE, NULL, NULL, 2,
	 {"fatal error: stale pointer into a moved stack (addr=0x", "[signal SIGSEGV: segmentation violation",
	  "goroutine 1 [running]:\nmain.stale(...)\n\t/src/core_test.gl:10"},
	 NULL},
	{"stale write into a moved stack, after the eager poisonings", t_stalelate, 0, FORCEMOVE, NULL, NULL, 2,
	 {"stale pointer into a moved stack", "goroutine 1 [running]:\nmain.stalelate(...)\n\t/src/core_test.gl:"},
	 NULL},
	{"unchecked nil dereference", t_nilderef, 0, BOTH, NULL, NULL, 2,
	 {"fatal error: unchecked nil pointer dereference in generated code (addr=0x8)\n"
	  "[signal SIGSEGV: segmentation violation code=0x1 addr=0x8 pc=0x",
	  "goroutine 1 [running]:\nmain.nilderef(...)\n\t/src/core_test.gl:110"},
	 NULL},
	{"GLDEBUG=stacktrace=1", t_misc, 0, BOTH, "stacktrace=1", NULL, 0,
	 {"stack copy: goroutine 1 2048 -> ", " bytes, copied ", " ns, stack=[0x", "]\n"}, NULL},
	{"throw", t_misc, 1, BOTH, NULL, NULL, 2,
	 {"fatal error: test throw\n\ngoroutine 1 [running]:\ngl_throw(...)\n", "\nmain.main(...)\n\t/src/core_test.gl:122 +0x"}, NULL},
	{"deadlock", t_misc, 2, BOTH, NULL, NULL, 2,
	 {"fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main(...)\n"
	  "\t/src/core_test.gl:123 +0x"},
	 NULL},
	{"Goexit from main", t_misc, 3, BOTH, NULL, NULL, 2,
	 {"deferred call ran\nfatal error: no goroutines (main called runtime.Goexit) - deadlock!\n"}, NULL},
};

static const size_t nvalcases = sizeof panicvals / sizeof panicvals[0];

/* Run one child: its combined output in *out (malloc'd), its status. */
static int runchild(void (*mainfn)(G *), u64 arg, bool forcemove, const char *gldebug, const char *gltb,
		    char **out) {
	int pfd[2];
	if (pipe(pfd) != 0)
		abort();
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[1]);
		char env[256];
		snprintf(env, sizeof env, "%s%s%s", forcemove ? "stackforcemove=1" : "",
			 forcemove && gldebug ? "," : "", gldebug ? gldebug : "");
		setenv("GLDEBUG", env, 1);
		/* The groups synchronise through gosched spin loops with a
		 * bounded number of rounds, written for one P: with more, a
		 * goroutine runs in parallel on another thread and the bounds
		 * no longer mean anything.  The scheduler's own tests
		 * (testdata/run, testdata/sched.sh) cover GLMAXPROCS > 1. */
		setenv("GLMAXPROCS", "1", 1);
		if (gltb)
			setenv("GLTRACEBACK", gltb, 1);
		else
			unsetenv("GLTRACEBACK");
		alarm(300);
		childarg = arg;
		gl_main(1, (char *[]){"core_test", NULL}, t_init, mainfn);
		_exit(99);
	}
	close(pfd[1]);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n + 4096 > cap)
			buf = realloc(buf, cap *= 2);
		ssize_t r = read(pfd[0], buf + n, cap - n - 1);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	close(pfd[0]);
	int st;
	waitpid(pid, &st, 0);
	*out = buf;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int harnessfails;

static void expect(const char *name, bool forcemove, int status, const char *out, int wantstatus,
		   const char *const *want, int nwant, const char *notwant) {
	bool ok = status == wantstatus;
	for (int i = 0; i < nwant && want[i]; i++)
		ok &= strstr(out, want[i]) != NULL;
	if (notwant)
		ok &= strstr(out, notwant) == NULL;
	if (!ok) {
		harnessfails++;
		printf("FAIL %s%s: status %d (want %d)\n", name, forcemove ? " [stackforcemove]" : "", status,
		       wantstatus);
		for (int i = 0; i < nwant && want[i]; i++)
			if (!strstr(out, want[i]))
				printf("  missing: \"%s\"\n", want[i]);
		if (notwant && strstr(out, notwant))
			printf("  unexpected: \"%s\"\n", notwant);
		printf("---- output ----\n%.6000s\n----------------\n", out);
	}
}

static void *computerefs(void *arg) {
	(void)arg;
	for (int small = 0; small < 2; small++) {
		const params *p = small ? &P_small : &P_full;
		refs *r = &((refs *)arg)[small];
		r->rec_deep = rec_ref(p->recdeep);
		r->addr_rec = rec_ref(p->addrdepth);
		r->rec3 = rec_ref(3);
		u64 s = 0;
		for (u64 d = 0; d < p->loopdepths; d++)
			s = s * 3 + deep_then_loop_ref(d * 37, p->loopk);
		r->loopsum = s;
		r->usemk = usemk_ref(p->mkn);
		s = 0;
		for (u64 x = 0; x < p->manymax; x += p->manystep)
			s += manylive_ref(x);
		r->many = s;
		ppwant[small][1] = pp_ref(1, small);
		ppwant[small][2] = pp_ref(2, small);
	}
	return NULL;
}

/* gl_clearvectors (asm_amd64.S), which an M calls before it sleeps in the
 * Boehm build: clearprobe(level, v) puts v in xmm0 and xmm15, and at
 * levels 1 and 2 in the upper half of ymm3, at level 2 in zmm31 too;
 * calls gl_clearvectors(level); and returns the OR of those registers
 * afterwards — 0 if every one was zeroed. */
__asm__(".text\n"
	"clearprobe:\n"
	"	pushq	%rbx\n"			/* rsp 16-aligned for the call */
	"	movl	%edi, %ebx\n"		/* level, kept across the call */
	"	movq	%rsi, %xmm0\n"
	"	movq	%rsi, %xmm15\n"
	"	testl	%ebx, %ebx\n"
	"	jz	1f\n"
	"	vinsertf128 $1, %xmm0, %ymm3, %ymm3\n"	/* ymm3[255:128] = v */
	"	cmpl	$2, %ebx\n"
	"	jne	1f\n"
	"	vpbroadcastq %rsi, %zmm31\n"		/* every lane of zmm31 = v */
	"1:	call	gl_clearvectors\n"
	"	movq	%xmm0, %rax\n"
	"	movq	%xmm15, %rcx\n"
	"	orq	%rcx, %rax\n"
	"	testl	%ebx, %ebx\n"
	"	jz	2f\n"
	"	vextractf128 $1, %ymm3, %xmm4\n"
	"	movq	%xmm4, %rcx\n"
	"	orq	%rcx, %rax\n"
	"	cmpl	$2, %ebx\n"
	"	jne	2f\n"
	"	vextracti64x4 $1, %zmm31, %ymm30\n"	/* zmm31[511:256] */
	"	vmovq	%xmm30, %rcx\n"
	"	orq	%rcx, %rax\n"
	"	vmovq	%xmm31, %rcx\n"
	"	orq	%rcx, %rax\n"
	"2:	popq	%rbx\n"
	"	ret\n");
uint64_t clearprobe(int32_t level, uint64_t v);

static int testclearvectors(void) {
	int fails = 0;
	cpuinit();
	int want = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx") ? 1 : 0;
	if (gl_x86VectorRegs != want) {
		printf("FAIL cpuinit: gl_x86VectorRegs %d, the CPU has level %d\n", gl_x86VectorRegs, want);
		fails++;
	}
	for (int level = 0; level <= gl_x86VectorRegs; level++) {
		uint64_t left = clearprobe(level, 0x00007f0123456780ull);
		if (left != 0) {
			printf("FAIL gl_clearvectors(%d) left %#llx in a vector register\n", level,
			       (unsigned long long)left);
			fails++;
		}
	}
	printf("gl_clearvectors: levels 0..%d checked\n", gl_x86VectorRegs);
	return fails;
}

/* The words the collector reads word by word in a goroutine that stopped
 * itself (preempt.c, syncframe): from its saved sp up to its innermost data
 * frame, not over the rest of that frame's owner's C frame — the
 * callee-saved registers its prologue pushed hold its caller's stale
 * values (Go's test/stackobj.go kept a dead object alive through one).  A
 * made-up stack: a runtime C frame, the data frame, its owner's frame
 * record, the caller's record. */
static int testsyncframe(void) {
	static uintptr_t stk[256] __attribute__((aligned(16)));
	static G gp;
	int fails = 0;
	uintptr_t base = (uintptr_t)stk;
	uintptr_t calleebp = base + 0x200, ownerbp = base + 0x400, callerbp = base + 0x700;
	*(uintptr_t *)calleebp = ownerbp;
	*(uintptr_t *)ownerbp = callerbp;
	*(uintptr_t *)callerbp = 0;
	gp.stack = (GlStack){base, base + sizeof stk};
	gp.sched.sp = base + 0x100;
	gp.sched.bp = calleebp;
	gp.asyncSafePoint = false;
	gp.topframe = (GlFrame *)(base + 0x300); /* alloca'd below ownerbp */
	uintptr_t lo = 0, hi = 0;
	if (!gcinnerframes(&gp, &lo, &hi) || lo != gp.sched.sp || hi != base + 0x300) {
		printf("FAIL syncframe: words [%#lx, %#lx), want [%#lx, %#lx) (up to the data frame)\n",
		       (unsigned long)(lo - base), (unsigned long)(hi - base), 0x100ul, 0x300ul);
		fails++;
	}
	gp.topframe = NULL; /* no data frame: the whole stack above sp */
	if (!gcinnerframes(&gp, &lo, &hi) || lo != gp.sched.sp || hi != gp.stack.hi) {
		printf("FAIL syncframe without a data frame: words [%#lx, %#lx), want [%#lx, %#lx)\n",
		       (unsigned long)(lo - base), (unsigned long)(hi - base), 0x100ul, (unsigned long)sizeof stk);
		fails++;
	}
	printf("syncframe: checked\n");
	return fails;
}

int main(int argc, char **argv) {
	bool bench = argc > 1 && strcmp(argv[1], "bench") == 0;
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the references: plain C recursion 100000 deep needs a big stack */
	static refs allrefs[2];
	pthread_attr_t attr;
	pthread_t th;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 512 << 20);
	if (pthread_create(&th, &attr, computerefs, allrefs) != 0)
		abort();
	pthread_join(th, NULL);
	harnessfails += testclearvectors();
	harnessfails += testsyncframe();

	for (int fm = 0; fm < 2; fm++) {
		TP = fm ? P_small : P_full;
		R = allrefs[fm];
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			const tcase *tc = &cases[i];
			if (!(tc->modes & (fm ? FORCEMOVE : NORMAL)))
				continue;
			char *out;
			int64_t t0 = nanotime();
			int st = runchild(tc->main, tc->arg, fm, tc->gldebug, tc->gltraceback, &out);
			int64_t t1 = nanotime();
			expect(tc->name, fm, st, out, tc->status, tc->want, 8, tc->notwant);
			if (i == 0 || getenv("CORE_TEST_VERBOSE")) {
				printf("%s%s (%.2f s):\n%s", tc->name, fm ? " [stackforcemove]" : "", (t1 - t0) / 1e9,
				       out);
			}
			free(out);
		}
		for (size_t k = 0; k < nvalcases; k++) {
			char *out;
			int st = runchild(t_tbvalue, k, fm, NULL, NULL, &out);
			const char *want[2] = {panicvals[k].want, "\ngoroutine 1 [running]:\nmain.main(...)\n"};
			expect("panic value", fm, st, out, 2, want, 2, NULL);
			if (getenv("CORE_TEST_VERBOSE"))
				printf("panic value %zu (status %d):\n%s", k, st, out);
			if (st == 2 && strncmp(out, panicvals[k].want, strlen(panicvals[k].want)) != 0) {
				harnessfails++;
				printf("FAIL panic value %zu: output does not start with \"%s\":\n%s\n", k,
				       panicvals[k].want, out);
			}
			free(out);
		}
	}
	if (getenv("CORE_TEST_BIG")) { /* the real 1 GB limit: ~1.5 GB of memory, a few seconds */
		char *out;
		TP = P_full;
		int st = runchild(t_overflow, 0, false, NULL, NULL, &out);
		const char *want[4] = {"runtime: goroutine stack exceeds 1000000000-byte limit\nruntime: sp=0x",
				       "fatal error: stack overflow\n\nruntime stack:\ngl_throw(...)\n",
				       "\n\ngoroutine 1 [running]:\nmain.inf(...)",
				       "...additional frames elided...\n"};
		expect("stack overflow at 1 GB", false, st, out, 2, want, 4, NULL);
		printf("stack overflow at 1 GB: status %d, %.300s\n", st, out);
		free(out);
	}
	if (bench) {
		char *out;
		TP = P_full;
		int st = runchild(t_benchmain, 0, false, NULL, NULL, &out);
		printf("bench (status %d):\n%s", st, out);
		free(out);
	}
	if (harnessfails) {
		printf("core_test: %d failures\n", harnessfails);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
