/* math.c — the functions packages math and math/bits declare without a
 * body: the ones Go's compiler turns into single instructions (Sqrt, Floor,
 * Ceil, Trunc, Abs, the float/bits reinterpretations, bits.Mul64).
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

double math_Sqrt(G *g, double x) {
	(void)g;
	return __builtin_sqrt(x);
}

double math_Floor(G *g, double x) {
	(void)g;
	if (x != x)
		return x + x; /* quiet a signaling NaN, as ROUNDSD (Go's) does */
	return floor(x);
}

double math_Ceil(G *g, double x) {
	(void)g;
	if (x != x)
		return x + x; /* quiet a signaling NaN, as ROUNDSD (Go's) does */
	return ceil(x);
}

double math_Trunc(G *g, double x) {
	(void)g;
	if (x != x)
		return x + x; /* quiet a signaling NaN, as ROUNDSD (Go's) does */
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
typedef struct {
	uint64_t hi, lo;
} mul64result;

mul64result math_bits_Mul64(G *g, uint64_t x, uint64_t y) {
	(void)g;
	unsigned __int128 p = (unsigned __int128)x * y;
	return (mul64result){(uint64_t)(p >> 64), (uint64_t)p};
}

/* RoundToEven: rint in the default rounding mode (ROUNDSD where glibc can) */
double math_RoundToEven(G *g, double x) {
	(void)g;
	if (x != x)
		return x + x;
	return rint(x);
}

/* FMA: x*y + z rounded once (libm's fma: VFMADD where the processor has it) */
double math_FMA(G *g, double x, double y, double z) {
	(void)g;
	return fma(x, y, z);
}
