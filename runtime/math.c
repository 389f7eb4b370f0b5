/* math.c — the functions packages math and math/bits declare without a
 * body: the ones Go's compiler turns into single instructions (Sqrt, Floor,
 * Ceil, Trunc, Abs, the float/bits reinterpretations, bits.Mul64), and
 * the calls of libm's transcendental functions (stdlib/math/libm.gl and
 * the files beside it).
 *
 * Called from generated code with its calling convention (G *g first), on
 * the goroutine stack: each is a leaf with no frame to speak of (DESIGN.md
 * S7).  sqrt compiles to SQRTSD (plus a call of libm's sqrt, itself a
 * leaf, for a negative argument, to set errno); floor, ceil and trunc call
 * libm's, which glibc resolves to ROUNDSD on SSE4.1 machines and a short
 * bit-manipulating leaf elsewhere.  All of them are exact, so they give
 * Go's results bit for bit.
 */
#include <math.h>

#include "gl.h"
#include "rt.h"

double math_Sqrt(G *g, double x) {
	(void)g;
	return __builtin_sqrt(x);
}

double math_Floor(G *g, double x) {
	(void)g;
	if (x != x)
		return x; /* Go's: a NaN comes back as it was, signaling or not */
	return floor(x);
}

double math_Ceil(G *g, double x) {
	(void)g;
	if (x != x)
		return x; /* Go's: a NaN comes back as it was, signaling or not */
	return ceil(x);
}

double math_Trunc(G *g, double x) {
	(void)g;
	if (x != x)
		return x; /* Go's: a NaN comes back as it was, signaling or not */
	return trunc(x);
}

double math_Abs(G *g, double x) {
	(void)g;
	return __builtin_fabs(x);
}

uint64_t math_Float64bits(G *g, double f) {
	(void)g;
	uint64_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

double math_Float64frombits(G *g, uint64_t b) {
	(void)g;
	double f;
	memcpy(&f, &b, sizeof f);
	return f;
}

uint32_t math_Float32bits(G *g, float f) {
	(void)g;
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

float math_Float32frombits(G *g, uint32_t b) {
	(void)g;
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}

/* bits.Mul64(x, y uint64) (hi, lo uint64): the tuple comes back in
 * rax:rdx, as a struct of two words. */
struct gltuple_uint64_uint64 math_bits_Mul64(G *g, uint64_t x, uint64_t y) {
	(void)g;
	unsigned __int128 p = (unsigned __int128)x * y;
	return (struct gltuple_uint64_uint64){.r0 = (uint64_t)(p >> 64), .r1 = (uint64_t)p};
}

/* RoundToEven: rint in the default rounding mode (ROUNDSD where glibc can) */
double math_RoundToEven(G *g, double x) {
	(void)g;
	if (x != x)
		return x;
	return rint(x);
}

/* libm's functions, called on the goroutine stack: each is a leaf that
 * calls nothing but itself, but may use more stack than a frame-less leaf
 * may (DESIGN.md S7), so its entry first makes LIBM_STACK bytes free
 * above the guard, as a prologue would (growing the stack if need be).
 * Measured with glibc 2.36 by painting the stack around 30,000 calls of
 * each (special, random, huge and near-pole arguments): jn used 416
 * bytes, lgamma_r 376, the other Bessel functions, tgamma and remainder
 * 272 to 368, sincos 208, sin, cos and tan 144, the rest under 100
 * (testdata/stackusage.py's LIBM lists them all with a bound of 512).  Other
 * processors pick other ifunc variants of some; 1024 leaves room for
 * them.
 *
 * The special cases (NaNs, infinities, poles, domain errors) are Go's and
 * are handled in gl before these are called (stdlib/math/libm.gl): libm
 * sees only arguments whose results are numbers, or infinities and signed
 * zeros that are Go's too. */
#define LIBM_STACK 1024

/* (Written out, not made by a macro: testdata/stackusage.py finds the
 * check and the call after it by their lines.) */
double math_libmLog1p(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return log1p(x);
}

double math_libmAcosh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return acosh(x);
}

double math_libmAtanh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return atanh(x);
}

double math_libmExpm1(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return expm1(x);
}

double math_libmErf(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return erf(x);
}

double math_libmFmod(G *g, double x, double y) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return fmod(x, y);
}

double math_libmRemainder(G *g, double x, double y) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return remainder(x, y);
}

double math_libmSin(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return sin(x);
}

double math_libmCos(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return cos(x);
}

double math_libmTan(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return tan(x);
}

double math_libmAsin(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return asin(x);
}

double math_libmAcos(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return acos(x);
}

double math_libmAtan(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return atan(x);
}

double math_libmSinh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return sinh(x);
}

double math_libmCosh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return cosh(x);
}

double math_libmTanh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return tanh(x);
}

double math_libmAsinh(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return asinh(x);
}

double math_libmExp(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return exp(x);
}

double math_libmExp2(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return exp2(x);
}

double math_libmLog(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return log(x);
}

double math_libmLog2(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return log2(x);
}

double math_libmLog10(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return log10(x);
}

double math_libmCbrt(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return cbrt(x);
}

double math_libmErfc(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return erfc(x);
}

double math_libmGamma(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return tgamma(x);
}

double math_libmJ0(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return j0(x);
}

double math_libmJ1(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return j1(x);
}

double math_libmY0(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return y0(x);
}

double math_libmY1(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return y1(x);
}

double math_libmAtan2(G *g, double x, double y) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return atan2(x, y);
}

double math_libmPow(G *g, double x, double y) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return pow(x, y);
}

/* Jn and Yn: gl's order is an int of 64 bits, libm's a C int; the gl
 * callers (stdlib/math/bessel.gl) pass only orders that fit. */
double math_libmJn(G *g, int64_t n, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return jn((int)n, x);
}

double math_libmYn(G *g, int64_t n, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	return yn((int)n, x);
}

/* Two results come back as glc returns a tuple of at most 16 bytes: a
 * struct in registers (xmm0:xmm1 for two doubles, xmm0 and rax for a
 * double and an int), glc's tuple type (runtime/contract.h). */

/* libm's sincos under another name: gcc expands the builtin sincos into a
 * call with no source line, and testdata/stackusage.py needs the line to see
 * that the call comes after the stack check. */
extern void libm_sincos(double x, double *sin, double *cos) __asm__("sincos");

struct gltuple_float64_float64 math_libmSincos(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	struct gltuple_float64_float64 r; /* sin, cos */
	libm_sincos(x, &r.r0, &r.r1);
	return r;
}

/* lgamma_r: the logarithm of |Gamma(x)| and the sign of Gamma(x) (the
 * reentrant variant: lgamma would write the global signgam). */
struct gltuple_float64_int math_libmLgamma(G *g, double x) {
	RT_STACKCHECK(g, LIBM_STACK, );
	int sign;
	double lg = lgamma_r(x, &sign);
	return (struct gltuple_float64_int){.r0 = lg, .r1 = sign};
}

/* FMA: x*y + z rounded once (libm's fma: VFMADD where the processor has
 * it, 180 bytes of stack in the software variant, see stackusage.py). */
double math_libmFMA(G *g, double x, double y, double z) {
	(void)g;
	return fma(x, y, z);
}

/* gl.h's math.FMA on a CPU without the instruction (or GLDEBUG=cpu.fma=off):
 * libm's fma, whose stack use is libm's business, on g0. */
typedef struct fmaargs {
	double x, y, z, r;
} fmaargs;

static void fma_m(void *p) {
	fmaargs *a = p;
	a->r = fma(a->x, a->y, a->z);
}

double gl_fmaslow(double x, double y, double z) {
	fmaargs a = {x, y, z, 0};
	systemstack(fma_m, &a);
	return a.r;
}
