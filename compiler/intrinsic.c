/* intrinsic.c — Go's intrinsics: calls of math and math/bits functions
 * that glc compiles to a few instructions instead of a call.
 *
 * Go's compiler replaces calls such as math.Sqrt(x) or bits.OnesCount64(x)
 * with the instructions that compute them (cmd/compile's intrinsics).
 * gl's library keeps these functions (they are still needed as func
 * values, through reflect and from runtime C), but a direct call of one is
 * written as a call of its inline twin in runtime/gl.h, gl_math_Sqrt(x):
 * not a call at run time, so not a safe point, with no frame reload and no
 * unwinding check after it, and gcc keeps the operands in registers around
 * it.  `glc -m` reports each one ("intrinsic math.Sqrt").  The twins give
 * exactly the library's results; testdata/run/intrinsics.gl compares them
 * with Go over special values.  bits.Add64, Sub64 and Mul64 (and the
 * uint forms) return two results: their twins return the first and store
 * the second into the result tuple (intrinsicpair).  Functions that can
 * panic (bits.Div64) stay calls. */
#include <string.h>

#include "emitint.h"

/* the functions, by package path; each has gl_<last element>_<Name> in gl.h */
static const char *const mathfns[] = {
	"Sqrt", "Abs", "Copysign", "Trunc", "Floor", "Ceil", "RoundToEven", "FMA",
	"Float64bits", "Float64frombits", "Float32bits", "Float32frombits", NULL,
};
static const char *const bitsfns[] = {
	"OnesCount", "OnesCount64", "OnesCount32", "OnesCount16", "OnesCount8",
	"LeadingZeros", "LeadingZeros64", "LeadingZeros32", "LeadingZeros16", "LeadingZeros8",
	"TrailingZeros", "TrailingZeros64", "TrailingZeros32", "TrailingZeros16", "TrailingZeros8",
	"Len", "Len64", "Len32", "Len16", "Len8",
	"RotateLeft", "RotateLeft64", "RotateLeft32", "RotateLeft16", "RotateLeft8",
	"ReverseBytes", "ReverseBytes64", "ReverseBytes32", "ReverseBytes16", NULL,
};
static const char *const bitspairs[] = {"Add", "Add64", "Sub", "Sub64", "Mul", "Mul64", NULL};

static bool listed(const char *const *list, const char *name) {
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* The C function of f's intrinsic, or NULL if f has none. */
const char *intrinsicname(Obj *f) {
	if (!f || f->kind != O_FUNC || !f->pkg || f->ismethod)
		return NULL;
	if (!strcmp(f->pkg->path, "math") && listed(mathfns, f->name))
		return xprintf("gl_math_%s", f->name);
	if (!strcmp(f->pkg->path, "math/bits") && listed(bitsfns, f->name))
		return xprintf("gl_bits_%s", f->name);
	return NULL;
}

/* The same for a function of two results, whose twin returns the first
 * and stores the second through a last pointer argument. */
const char *intrinsicpair(Obj *f) {
	if (!f || f->kind != O_FUNC || !f->pkg || f->ismethod)
		return NULL;
	if (!strcmp(f->pkg->path, "math/bits") && listed(bitspairs, f->name))
		return xprintf("gl_bits_%s", f->name);
	return NULL;
}
