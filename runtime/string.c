/*
 * string.c — strings: concatenation, comparison, conversions to and from
 * []byte and []rune, and UTF-8 (Go's runtime/string.go and utf8.go).
 *
 * These run on the goroutine stack, called from generated code, and call
 * mallocgc.  mallocgc may park the goroutine (a GC assist), and a parked
 * goroutine's stack may be moved (shrunk) before it runs again (DESIGN.md
 * S8), so a pointer into the stack — an out-pointer or an array in the
 * caller's data frame, string bytes held there — is not kept in a C local
 * across mallocgc: its distance from stack.hi is, which copystack preserves.
 */
#include "rt.h" /* gl.h, and stackoff/stackptr */
#include "sizeclasses.h"

/* Go's utf8 constants. */
enum {
	runeError = 0xFFFD,
	runeSelf = 0x80,   /* bytes below this are runes by themselves */
	maxRune = 0x10FFFF,
	surrogateMin = 0xD800,
	surrogateMax = 0xDFFF,
	rune1Max = 0x7F,
	rune2Max = 0x7FF,
	rune3Max = 0xFFFF,
	locb = 0x80,       /* continuation bytes are locb..hicb */
	hicb = 0xBF,
};

/* One-byte strings point into this table instead of being allocated, as
 * Go's point into staticuint64s. */
#define B4(n) n, n + 1, n + 2, n + 3
#define B16(n) B4(n), B4(n + 4), B4(n + 8), B4(n + 12)
#define B64(n) B16(n), B16(n + 16), B16(n + 32), B16(n + 48)
static const uint8_t staticbytes[256] = {B64(0), B64(64), B64(128), B64(192)};

static inline GlString mkstring(const uint8_t *p, int64_t n) {
	return (GlString){p, n};
}

static inline uint8_t *rawstring(int64_t size) {
	return mallocgc((uint64_t)size, NULL, false);
}

/* Go's concatstrings without a temporary buffer: the result may escape. */
GlString concatstrings(G *g, const GlString *a, int64_t n) {
	int64_t l = 0, count = 0, idx = 0;
	for (int64_t i = 0; i < n; i++) {
		int64_t m = a[i].len;
		if (m == 0)
			continue;
		if (m > INT64_MAX - l)
			gl_throw("string concatenation too long");
		l += m;
		count++;
		idx = i;
	}
	if (count == 0)
		return mkstring(NULL, 0);
	/* A lone non-empty operand is the result, unless its bytes live on a
	 * stack the result could outlive. */
	if (count == 1 && !stackoff(g, a[idx].ptr))
		return a[idx];
	uintptr_t aoff = stackoff(g, a);
	uint8_t *p = rawstring(l);
	a = stackptr(g, a, aoff);
	int64_t off = 0;
	for (int64_t i = 0; i < n; i++) {
		if (a[i].len == 0)
			continue;
		memcpy(p + off, a[i].ptr, (size_t)a[i].len);
		off += a[i].len;
	}
	return mkstring(p, l);
}

/* concatstrings of two, without building the array (S1: the address of a
 * C local must not be taken in code that may see its stack move). */
GlString concatstring2(G *g, GlString a, GlString b) {
	if (a.len == 0 && (b.len == 0 || !stackoff(g, b.ptr)))
		return b.len == 0 ? mkstring(NULL, 0) : b;
	if (b.len == 0 && !stackoff(g, a.ptr))
		return a;
	if (b.len > INT64_MAX - a.len)
		gl_throw("string concatenation too long");
	uintptr_t aoff = stackoff(g, a.ptr), boff = stackoff(g, b.ptr);
	uint8_t *p = rawstring(a.len + b.len);
	if (a.len > 0)
		memcpy(p, stackptr(g, a.ptr, aoff), (size_t)a.len);
	if (b.len > 0)
		memcpy(p + a.len, stackptr(g, b.ptr, boff), (size_t)b.len);
	return mkstring(p, a.len + b.len);
}

int64_t cmpstring(GlString a, GlString b) {
	int64_t l = a.len < b.len ? a.len : b.len;
	if (l > 0 && a.ptr != b.ptr) {
		int c = memcmp(a.ptr, b.ptr, (size_t)l);
		if (c != 0)
			return c < 0 ? -1 : 1;
	}
	return a.len < b.len ? -1 : a.len > b.len;
}

GlString slicebytetostring(G *g, const uint8_t *p, int64_t n) {
	if (n == 0)
		return mkstring(NULL, 0);
	if (n == 1)
		return mkstring(&staticbytes[*p], 1);
	uintptr_t poff = stackoff(g, p);
	uint8_t *s = rawstring(n);
	memmove(s, stackptr(g, p, poff), (size_t)n);
	return mkstring(s, n);
}

/* []byte(s).  The capacity is the whole allocation, as Go's rawbyteslice
 * reports it: cap([]byte("abc")) is 8 when the result escapes. */
void stringtoslicebyte(G *g, GlSlice *out, GlString s) {
	uint64_t cap = roundupsize((uint64_t)s.len);
	uintptr_t soff = stackoff(g, s.ptr), ooff = stackoff(g, out);
	uint8_t *p = mallocgc(cap, NULL, false);
	if (cap != (uint64_t)s.len)
		memset(p + s.len, 0, cap - (uint64_t)s.len);
	if (s.len > 0)
		memmove(p, stackptr(g, s.ptr, soff), (size_t)s.len);
	out = stackptr(g, out, ooff);
	out->ptr = p;
	out->len = s.len;
	out->cap = (int64_t)cap;
}

/* Width of the rune starting at s.ptr[k], as range over a string steps. */
static inline int64_t runewidth(GlString s, int64_t k) {
	return s.ptr[k] < runeSelf ? 1 : (int64_t)(decoderune(s, k) >> 32);
}

/* []rune(s): two passes, one to count, one to decode; cap rounded up to the
 * allocation as Go's rawruneslice does. */
void stringtoslicerune(G *g, GlSlice *out, GlString s) {
	int64_t n = 0;
	for (int64_t k = 0; k < s.len; k += runewidth(s, k))
		n++;
	if ((uint64_t)n > maxAlloc / 4)
		gl_throw("out of memory");
	uint64_t mem = roundupsize((uint64_t)n * 4);
	uintptr_t soff = stackoff(g, s.ptr), ooff = stackoff(g, out);
	int32_t *p = mallocgc(mem, NULL, false);
	if (mem != (uint64_t)n * 4)
		memset(p + n, 0, mem - (uint64_t)n * 4);
	s.ptr = stackptr(g, s.ptr, soff);
	n = 0;
	for (int64_t k = 0; k < s.len; n++) {
		uint64_t rw = decoderune(s, k);
		p[n] = (int32_t)(uint32_t)rw;
		k += (int64_t)(rw >> 32);
	}
	out = stackptr(g, out, ooff);
	out->ptr = p;
	out->len = n;
	out->cap = (int64_t)(mem / 4);
}

static inline int runelen(int32_t r) {
	uint32_t u = (uint32_t)r;
	if (u <= rune1Max)
		return 1;
	if (u <= rune2Max)
		return 2;
	if (u <= rune3Max || u > maxRune)
		return 3; /* invalid runes and surrogates become U+FFFD */
	return 4;
}

/* string(runes).  As Go: 3 spare bytes, so that a rune growing under a
 * racing writer between the passes cannot write past the end. */
GlString slicerunetostring(G *g, const int32_t *p, int64_t n) {
	int64_t size1 = 0, size2 = 0;
	for (int64_t i = 0; i < n; i++)
		size1 += runelen(p[i]);
	uintptr_t poff = stackoff(g, p);
	uint8_t *s = rawstring(size1 + 3);
	p = stackptr(g, p, poff);
	for (int64_t i = 0; i < n && size2 < size1; i++)
		size2 += encoderune(s + size2, p[i]);
	return mkstring(s, size2);
}

/* string(rune(v)).  Go allocates 4 bytes for any rune. */
GlString intstring(G *g, int64_t v) {
	(void)g;
	uint8_t *s = rawstring(4);
	if ((int32_t)v != v)
		v = runeError;
	return mkstring(s, encoderune(s, (int32_t)v));
}

static inline bool iscont(uint8_t b) {
	return locb <= b && b <= hicb;
}

/* Lead bytes 0xC0–0xDF start 2-byte, 0xE0–0xEF 3-byte and 0xF0–0xF7 4-byte
 * sequences; a sequence is accepted only if every continuation byte is
 * there and the value is not overlong, not a surrogate and <= U+10FFFF.
 * Anything else is one byte of U+FFFD, as Go's decoderune (range). */
uint64_t decoderune(GlString s, int64_t k) {
	const uint64_t bad = runeError | (uint64_t)1 << 32;
	if (k < 0 || k >= s.len)
		return bad;
	const uint8_t *p = s.ptr + k;
	int64_t n = s.len - k;
	uint32_t r;
	if (p[0] < runeSelf)
		return p[0] | (uint64_t)1 << 32;
	if (p[0] < 0xC0)
		return bad;
	if (p[0] < 0xE0) {
		if (n < 2 || !iscont(p[1]))
			return bad;
		r = (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
		return r > rune1Max ? r | (uint64_t)2 << 32 : bad;
	}
	if (p[0] < 0xF0) {
		if (n < 3 || !iscont(p[1]) || !iscont(p[2]))
			return bad;
		r = (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
		if (r <= rune2Max || (surrogateMin <= r && r <= surrogateMax))
			return bad;
		return r | (uint64_t)3 << 32;
	}
	if (p[0] < 0xF8) {
		if (n < 4 || !iscont(p[1]) || !iscont(p[2]) || !iscont(p[3]))
			return bad;
		r = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
		    (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
		if (r <= rune3Max || r > maxRune)
			return bad;
		return r | (uint64_t)4 << 32;
	}
	return bad;
}

/* utf8.EncodeRune: negative, surrogate and > U+10FFFF runes are written as
 * U+FFFD.  p must have room for 4 bytes. */
int encoderune(uint8_t *p, int32_t r) {
	uint32_t u = (uint32_t)r;
	if (u <= rune1Max) {
		p[0] = (uint8_t)u;
		return 1;
	}
	if (u <= rune2Max) {
		p[0] = (uint8_t)(0xC0 | u >> 6);
		p[1] = (uint8_t)(0x80 | (u & 0x3F));
		return 2;
	}
	if (u > maxRune || (surrogateMin <= u && u <= surrogateMax))
		u = runeError;
	if (u <= rune3Max) {
		p[0] = (uint8_t)(0xE0 | u >> 12);
		p[1] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
		p[2] = (uint8_t)(0x80 | (u & 0x3F));
		return 3;
	}
	p[0] = (uint8_t)(0xF0 | u >> 18);
	p[1] = (uint8_t)(0x80 | (u >> 12 & 0x3F));
	p[2] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
	p[3] = (uint8_t)(0x80 | (u & 0x3F));
	return 4;
}
