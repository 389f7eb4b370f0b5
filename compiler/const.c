/* const.c — Go's constant arithmetic.
 *
 * Go's untyped constants are exact: integers of up to 512 bits (beyond is
 * "constant overflow") and floats with at least a 256-bit mantissa.  gl's
 * integers are exact to Go's 512 bits (Big, two's complement in 576);
 * its floats are x87 80-bit, so float constant arithmetic rounds where Go's
 * would not (0.1 + 0.2 == 0.3 is false here, true in Go).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "types.h"

static Const *mk(int kind) {
	Const *c = xalloc(sizeof *c);
	c->kind = kind;
	return c;
}
/* ---- exact integers (Big): two's complement, BIGW 64-bit words ---- */

static bool bneg_(const Big *x) { return x->w[BIGW - 1] >> 63; }

static Big bfrom128(i128 v) {
	Big b;
	uint64_t fill = v < 0 ? ~0ull : 0;
	b.w[0] = (uint64_t)v;
	b.w[1] = (uint64_t)((unsigned __int128)v >> 64);
	for (int i = 2; i < BIGW; i++)
		b.w[i] = fill;
	return b;
}

static Big badd(Big x, Big y) {
	Big r;
	unsigned __int128 c = 0;
	for (int i = 0; i < BIGW; i++) {
		c += (unsigned __int128)x.w[i] + y.w[i];
		r.w[i] = (uint64_t)c;
		c >>= 64;
	}
	return r;
}

static Big bnot(Big x) {
	for (int i = 0; i < BIGW; i++)
		x.w[i] = ~x.w[i];
	return x;
}

static Big bneg(Big x) { return badd(bnot(x), bfrom128(1)); }
static Big bsub(Big x, Big y) { return badd(x, bneg(y)); }
static Big babs(Big x) { return bneg_(&x) ? bneg(x) : x; }
static bool biszero(Big x) {
	for (int i = 0; i < BIGW; i++)
		if (x.w[i])
			return false;
	return true;
}

static int bcmpu(const Big *x, const Big *y) {
	for (int i = BIGW - 1; i >= 0; i--)
		if (x->w[i] != y->w[i])
			return x->w[i] < y->w[i] ? -1 : 1;
	return 0;
}

static int bcmp_(Big x, Big y) {
	bool nx = bneg_(&x), ny = bneg_(&y);
	if (nx != ny)
		return nx ? -1 : 1;
	return bcmpu(&x, &y);
}

/* magnitudes of at most 512 bits: Go's limit for untyped constants */
static bool bfits(Big x) {
	Big a = babs(x);
	return a.w[BIGW - 1] == 0 && !bneg_(&x) == !bneg_(&x);
}

static Big bmulu(Big x, Big y) {
	Big r = {{0}};
	for (int i = 0; i < BIGW; i++) {
		unsigned __int128 c = 0;
		for (int j = 0; i + j < BIGW; j++) {
			c += (unsigned __int128)x.w[i] * y.w[j] + r.w[i + j];
			r.w[i + j] = (uint64_t)c;
			c >>= 64;
		}
	}
	return r;
}

static Big bshl(Big x, unsigned s) {
	Big r = {{0}};
	unsigned wsh = s / 64, bsh = s % 64;
	for (int i = BIGW - 1; i >= 0; i--) {
		if ((unsigned)i < wsh)
			break;
		uint64_t v = x.w[i - wsh] << bsh;
		if (bsh && (unsigned)i > wsh)
			v |= x.w[i - wsh - 1] >> (64 - bsh);
		r.w[i] = v;
	}
	return r;
}

static Big bshr(Big x, unsigned s) { /* arithmetic */
	bool neg = bneg_(&x);
	Big r;
	uint64_t fill = neg ? ~0ull : 0;
	unsigned wsh = s / 64, bsh = s % 64;
	for (int i = 0; i < BIGW; i++) {
		unsigned j = i + wsh;
		uint64_t lo = j < BIGW ? x.w[j] : fill, hi = j + 1 < BIGW ? x.w[j + 1] : fill;
		r.w[i] = bsh ? (lo >> bsh) | (hi << (64 - bsh)) : lo;
	}
	return r;
}

/* truncated division of magnitudes, bit by bit (constants are few) */
static void bdivmodu(Big x, Big y, Big *q, Big *r) {
	Big qq = {{0}}, rr = {{0}};
	for (int i = BIGW * 64 - 1; i >= 0; i--) {
		rr = bshl(rr, 1);
		rr.w[0] |= (x.w[i / 64] >> (i % 64)) & 1;
		if (bcmpu(&rr, &y) >= 0) {
			rr = bsub(rr, y);
			qq.w[i / 64] |= 1ull << (i % 64);
		}
	}
	*q = qq;
	*r = rr;
}

static long double btold(Big x) {
	bool neg = bneg_(&x);
	Big a = babs(x);
	long double f = 0;
	for (int i = BIGW - 1; i >= 0; i--)
		f = f * 18446744073709551616.0L + (long double)a.w[i];
	return neg ? -f : f;
}

static Big bfromld(long double f) {
	bool neg = f < 0;
	if (neg)
		f = -f;
	Big r = {{0}};
	long double p = 1;
	int top = 0;
	while (p * 18446744073709551616.0L <= f && top < BIGW - 1)
		p *= 18446744073709551616.0L, top++;
	for (int i = top; i >= 0; i--) {
		long double q = floorl(f / p);
		r.w[i] = (uint64_t)q;
		f -= q * p;
		p /= 18446744073709551616.0L;
	}
	return neg ? bneg(r) : r;
}

static i128 bto128(Big x) {
	Big lim = bfrom128(((i128)1 << 126) - 1 + ((i128)1 << 126));
	if (bcmp_(x, lim) > 0)
		return ((i128)1 << 126) - 1 + ((i128)1 << 126);
	if (bcmp_(x, bneg(lim)) < 0)
		return -(((i128)1 << 126) - 1 + ((i128)1 << 126));
	return (i128)(((unsigned __int128)x.w[1] << 64) | x.w[0]);
}

static void bigstr(Buf *b, Big x) {
	char tmp[200];
	int n = 0;
	bool neg = bneg_(&x);
	Big a = babs(x), ten18 = bfrom128(1000000000000000000ll), q, r;
	do {
		bdivmodu(a, ten18, &q, &r);
		uint64_t part = r.w[0];
		a = q;
		for (int k = 0; k < 18 && (part || !biszero(a) || k == 0); k++) {
			tmp[n++] = (char)('0' + part % 10);
			part /= 10;
			if (!part && biszero(a))
				break;
		}
	} while (!biszero(a));
	if (neg)
		bputc(b, '-');
	while (n)
		bputc(b, tmp[--n]);
}

Const *cbool(bool b) {
	Const *c = mk(CK_BOOL);
	c->b = b;
	return c;
}
Const *cint(i128 v) {
	Const *c = mk(CK_INT);
	c->i = bfrom128(v);
	return c;
}

static Const *cbig(Big v) {
	Const *c = mk(CK_INT);
	c->i = v;
	return c;
}

bool cfits64(Const *c, bool unsig) {
	if (c->kind != CK_INT)
		return false;
	Big lo = unsig ? bfrom128(0) : bfrom128(INT64_MIN), hi = unsig ? bfrom128(UINT64_MAX) : bfrom128(INT64_MAX);
	return bcmp_(c->i, lo) >= 0 && bcmp_(c->i, hi) <= 0;
}
Const *cfloat(long double v) {
	Const *c = mk(CK_FLOAT);
	c->f = v;
	return c;
}
Const *ccomplex(long double re, long double im) {
	Const *c = mk(CK_COMPLEX);
	c->re = re;
	c->im = im;
	return c;
}
Const *cstring(const char *s, int64_t n) {
	Const *c = mk(CK_STRING);
	c->s = s;
	c->slen = n;
	return c;
}

bool cisint(Const *c) {
	switch (c->kind) {
	case CK_INT: return true;
	case CK_FLOAT: return isfinite(c->f) && c->f == floorl(c->f) && fabsl(c->f) < 1e154L;
	case CK_COMPLEX: return c->im == 0 && isfinite(c->re) && c->re == floorl(c->re) && fabsl(c->re) < 1e154L;
	}
	return false;
}

/* An integral value, however large (cisint: one that fits an exact
 * integer), as a shifted operand must be. */
bool cisintegral(Const *c) {
	long double f = c->kind == CK_COMPLEX ? c->re : c->f;
	if (c->kind == CK_COMPLEX && c->im != 0)
		return false;
	return c->kind == CK_INT || (c->kind != CK_STRING && c->kind != CK_BOOL && isfinite(f) && f == floorl(f));
}

i128 ctoint(Const *c) {
	switch (c->kind) {
	case CK_INT: return bto128(c->i);
	case CK_FLOAT: return (i128)c->f;
	case CK_COMPLEX: return (i128)c->re;
	}
	return 0;
}

long double ctofloat(Const *c) {
	switch (c->kind) {
	case CK_INT: return btold(c->i);
	case CK_FLOAT: return c->f;
	case CK_COMPLEX: return c->re;
	}
	return 0;
}

/* Convert between numeric constant kinds; NULL if the value is not exact
 * in the target kind (a float that is not integral to int, a complex with
 * an imaginary part to float). */
Const *cconvert(Const *c, int kind) {
	if (c->kind == kind)
		return c;
	switch (kind) {
	case CK_INT:
		if (c->kind == CK_FLOAT && cisint(c))
			return cbig(bfromld(c->f));
		if (c->kind == CK_COMPLEX && cisint(c))
			return cbig(bfromld(c->re));
		return NULL;
	case CK_FLOAT:
		if (c->kind == CK_COMPLEX && c->im != 0)
			return NULL;
		return cfloat(ctofloat(c));
	case CK_COMPLEX:
		if (c->kind == CK_INT || c->kind == CK_FLOAT)
			return ccomplex(ctofloat(c), 0);
	}
	return NULL;
}

static int numrank(int k) { return k == CK_INT ? 1 : k == CK_FLOAT ? 2 : k == CK_COMPLEX ? 3 : 0; }

static Const *overflow(Pos pos) {
	errorat(pos, "constant overflow");
	return NULL;
}

Const *cbinary(Pos pos, int op, Const *x, Const *y, bool intdiv) {
	if (x->kind == CK_BOOL && y->kind == CK_BOOL) {
		if (op == TK_LAND)
			return cbool(x->b && y->b);
		if (op == TK_LOR)
			return cbool(x->b || y->b);
		return NULL;
	}
	if (x->kind == CK_STRING && y->kind == CK_STRING && op == TK_ADD) {
		char *s = xalloc((size_t)(x->slen + y->slen + 1));
		memcpy(s, x->s, (size_t)x->slen);
		memcpy(s + x->slen, y->s, (size_t)y->slen);
		return cstring(s, x->slen + y->slen);
	}
	int k = numrank(x->kind) > numrank(y->kind) ? x->kind : y->kind;
	if (!numrank(k))
		return NULL;
	x = cconvert(x, k);
	y = cconvert(y, k);
	if (!x || !y)
		return NULL;
	if (k == CK_INT) {
		Big a = x->i, b = y->i, r;
		switch (op) {
		case TK_ADD: r = badd(a, b); break;
		case TK_SUB: r = bsub(a, b); break;
		case TK_MUL: {
			bool neg = bneg_(&a) != bneg_(&b);
			Big ua = babs(a), ub = babs(b);
			if (!bfits(a) || !bfits(b))
				return overflow(pos);
			r = bmulu(ua, ub);
			if (r.w[BIGW - 1] || bneg_(&r))
				return overflow(pos);
			if (neg)
				r = bneg(r);
			break;
		}
		case TK_QUO:
		case TK_REM: {
			if (biszero(b)) {
				errorat(pos, "invalid operation: division by zero");
				return NULL;
			}
			if (op == TK_QUO && !intdiv)
				return cfloat(btold(a) / btold(b));
			Big q, rm;
			bdivmodu(babs(a), babs(b), &q, &rm);
			if (op == TK_QUO)
				r = bneg_(&a) != bneg_(&b) ? bneg(q) : q;
			else
				r = bneg_(&a) ? bneg(rm) : rm;
			break;
		}
		case TK_AND: for (int i = 0; i < BIGW; i++) r.w[i] = a.w[i] & b.w[i]; break;
		case TK_OR: for (int i = 0; i < BIGW; i++) r.w[i] = a.w[i] | b.w[i]; break;
		case TK_XOR: for (int i = 0; i < BIGW; i++) r.w[i] = a.w[i] ^ b.w[i]; break;
		case TK_AND_NOT: for (int i = 0; i < BIGW; i++) r.w[i] = a.w[i] & ~b.w[i]; break;
		default: return NULL;
		}
		if (!bfits(r))
			return overflow(pos);
		return cbig(r);
	}
	if (k == CK_FLOAT) {
		long double a = x->f, b = y->f;
		switch (op) {
		case TK_ADD: return cfloat(a + b);
		case TK_SUB: return cfloat(a - b);
		case TK_MUL: return cfloat(a * b);
		case TK_QUO:
			if (b == 0) {
				errorat(pos, "invalid operation: division by zero");
				return NULL;
			}
			return cfloat(a / b);
		}
		return NULL;
	}
	long double ar = x->re, ai = x->im, br = y->re, bi = y->im;
	switch (op) {
	case TK_ADD: return ccomplex(ar + br, ai + bi);
	case TK_SUB: return ccomplex(ar - br, ai - bi);
	case TK_MUL: return ccomplex(ar * br - ai * bi, ar * bi + ai * br);
	case TK_QUO: {
		long double d = br * br + bi * bi;
		if (d == 0) {
			errorat(pos, "invalid operation: division by zero");
			return NULL;
		}
		return ccomplex((ar * br + ai * bi) / d, (ai * br - ar * bi) / d);
	}
	}
	return NULL;
}

/* Unary operators.  For ^x on a typed unsigned constant the result has
 * only the type's bits (^uint8(1) == 254); untyped and signed ^x is -x-1. */
Const *cunary(Pos pos, int op, Const *x, Type *t) {
	switch (op) {
	case TK_ADD:
		return x->kind == CK_BOOL || x->kind == CK_STRING ? NULL : x;
	case TK_SUB:
		if (x->kind == CK_INT)
			return cbig(bneg(x->i));
		if (x->kind == CK_FLOAT)
			return cfloat(-x->f);
		if (x->kind == CK_COMPLEX)
			return ccomplex(-x->re, -x->im);
		return NULL;
	case TK_NOT:
		return x->kind == CK_BOOL ? cbool(!x->b) : NULL;
	case TK_XOR:
		if (x->kind != CK_INT)
			return NULL;
		if (t && isunsigned(t)) {
			int64_t bits = tsize(under(t)) * 8;
			Big mask = bsub(bshl(bfrom128(1), (unsigned)bits), bfrom128(1)), r = bnot(x->i);
			for (int i = 0; i < BIGW; i++)
				r.w[i] &= mask.w[i];
			return cbig(r);
		}
		return cbig(bnot(x->i));
	}
	return NULL;
}

/* x >> s for an integral float beyond the exact integers (1e302 >> 1000):
 * the float scaled down, rounded toward -inf as an arithmetic shift is. */
static Const *bigfloatshr(Pos pos, Const *x, uint64_t s) {
	long double f = x->kind == CK_COMPLEX ? x->re : x->f;
	Const *r = cfloat(floorl(ldexpl(f, s > 100000 ? -100000 : -(int)s)));
	if (!cisint(r))
		return overflow(pos);
	return cconvert(r, CK_INT);
}

Const *cshift(Pos pos, int op, Const *x, uint64_t s) {
	Const *xi = cconvert(x, CK_INT);
	if (!xi && op == TK_SHR && cisintegral(x))
		return bigfloatshr(pos, x, s);
	if (!xi)
		return cisintegral(x) ? overflow(pos) : NULL; /* too large to shift left */
	if (op == TK_SHR)
		return cbig(bshr(xi->i, s >= BIGW * 64 ? BIGW * 64 - 1 : (unsigned)s));
	if (biszero(xi->i))
		return cint(0);
	if (s >= 512)
		return overflow(pos);
	Big r = bshl(xi->i, (unsigned)s);
	if (!bfits(r) || bneg_(&r) != bneg_(&xi->i) || bcmp_(bshr(r, (unsigned)s), xi->i) != 0)
		return overflow(pos);
	return cbig(r);
}

bool ccompare(int op, Const *x, Const *y) {
	int c;
	if (x->kind == CK_STRING) {
		int64_t n = x->slen < y->slen ? x->slen : y->slen;
		c = memcmp(x->s, y->s, (size_t)n);
		if (c == 0)
			c = x->slen < y->slen ? -1 : x->slen > y->slen;
	} else if (x->kind == CK_BOOL) {
		c = x->b != y->b;
	} else {
		int k = numrank(x->kind) > numrank(y->kind) ? x->kind : y->kind;
		x = cconvert(x, k);
		y = cconvert(y, k);
		if (!x || !y)
			return false;
		if (k == CK_INT)
			c = bcmp_(x->i, y->i);
		else if (k == CK_FLOAT)
			c = x->f < y->f ? -1 : x->f > y->f;
		else
			c = !(x->re == y->re && x->im == y->im);
	}
	switch (op) {
	case TK_EQL: return c == 0;
	case TK_NEQ: return c != 0;
	case TK_LSS: return c < 0;
	case TK_LEQ: return c <= 0;
	case TK_GTR: return c > 0;
	case TK_GEQ: return c >= 0;
	}
	return false;
}

static bool intfits(Const *c, int kind) {
	if (kind == T_UNTYPED_INT || kind == T_UNTYPED_RUNE)
		return true;
	if (!cfits64(c, false) && !cfits64(c, true))
		return false;
	i128 v = ctoint(c);
	switch (kind) {
	case T_INT8: return v >= -128 && v <= 127;
	case T_INT16: return v >= -32768 && v <= 32767;
	case T_INT32: return v >= INT32_MIN && v <= INT32_MAX;
	case T_INT: case T_INT64: return v >= INT64_MIN && v <= INT64_MAX;
	case T_UINT8: return v >= 0 && v <= 255;
	case T_UINT16: return v >= 0 && v <= 65535;
	case T_UINT32: return v >= 0 && v <= UINT32_MAX;
	case T_UINT: case T_UINT64: case T_UINTPTR: return v >= 0 && v <= (i128)UINT64_MAX;
	}
	return false;
}

/* Whether c is representable in the basic type t (Go spec, "Representability");
 * *rounded receives the value as t holds it (floats rounded to t's precision). */
bool crepresentable(Const *c, Type *t, Const **rounded) {
	Type *u = under(t);
	int k = u->kind;
	Const *r = c;
	bool ok = false;
	if (k == T_BOOL || k == T_UNTYPED_BOOL) {
		ok = c->kind == CK_BOOL;
	} else if (k == T_STRING || k == T_UNTYPED_STRING) {
		ok = c->kind == CK_STRING;
	} else if (isinteger(u)) {
		r = cconvert(c, CK_INT);
		ok = r && intfits(r, k);
	} else if (k == T_FLOAT32 || k == T_FLOAT64 || k == T_UNTYPED_FLOAT) {
		r = c->kind == CK_STRING || c->kind == CK_BOOL ? NULL : cconvert(c, CK_FLOAT);
		if (r) {
			if (k == T_FLOAT32) {
				float f = (float)r->f;
				ok = isfinite(f) || !isfinite(r->f);
				r = cfloat(f);
			} else if (k == T_FLOAT64) {
				double d = (double)r->f;
				ok = isfinite(d) || !isfinite(r->f);
				r = cfloat(d);
			} else
				ok = true;
		}
	} else if (k == T_COMPLEX64 || k == T_COMPLEX128 || k == T_UNTYPED_COMPLEX) {
		r = c->kind == CK_STRING || c->kind == CK_BOOL ? NULL : cconvert(c, CK_COMPLEX);
		if (r) {
			if (k == T_COMPLEX64)
				r = ccomplex((float)r->re, (float)r->im);
			else if (k == T_COMPLEX128)
				r = ccomplex((double)r->re, (double)r->im);
			ok = isfinite(r->re) && isfinite(r->im);
		}
	}
	if (ok && rounded)
		*rounded = r;
	return ok;
}

static void floatstr(Buf *b, long double f) {
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%.6Lg", f);
	/* Go writes 1e+06 as 1e+06 too; keep %g's form */
	bput(b, tmp);
}

const char *cstr(Const *c) {
	Buf b = {0};
	if (!c)
		return "?";
	switch (c->kind) {
	case CK_BOOL: bput(&b, c->b ? "true" : "false"); break;
	case CK_INT: bigstr(&b, c->i); break;
	case CK_FLOAT: floatstr(&b, c->f); break;
	case CK_COMPLEX:
		bputc(&b, '(');
		floatstr(&b, c->re);
		bput(&b, c->im < 0 ? " - " : " + ");
		floatstr(&b, fabsl(c->im));
		bput(&b, "i)");
		break;
	case CK_STRING:
		bputc(&b, '"');
		for (int64_t i = 0; i < c->slen && i < 72; i++) {
			unsigned char ch = (unsigned char)c->s[i];
			if (ch == '"' || ch == '\\')
				bprintf(&b, "\\%c", ch);
			else if (ch == '\n')
				bput(&b, "\\n");
			else if (ch == '\t')
				bput(&b, "\\t");
			else if (ch < 32 || ch == 127)
				bprintf(&b, "\\x%02x", ch);
			else
				bputc(&b, (char)ch);
		}
		if (c->slen > 72)
			bput(&b, "...");
		bputc(&b, '"');
		break;
	}
	return bstr(&b);
}

static char *nounderscores(const char *s) {
	char *r = xstrdup(s), *w = r;
	for (const char *p = s; *p; p++)
		if (*p != '_')
			*w++ = *p;
	*w = 0;
	return r;
}

Const *parseintlit(Pos pos, const char *lit) {
	char *s = nounderscores(lit);
	int base = 10;
	const char *p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	Big v = bfrom128(0), bb = bfrom128(base);
	for (; *p; p++) {
		int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
		if (d >= base) {
			errorat(pos, "invalid digit in literal %s", lit);
			return cint(0);
		}
		v = badd(bmulu(v, bb), bfrom128(d));
		if (!bfits(v)) {
			errorat(pos, "integer constant too large: %s", lit);
			return cint(0);
		}
	}
	return cbig(v);
}

Const *parsefloatlit(Pos pos, const char *lit) {
	char *s = nounderscores(lit);
	errno = 0;
	char *end;
	long double f = strtold(s, &end);
	if (*end)
		errorat(pos, "invalid floating-point literal %s", lit);
	return cfloat(f);
}

Const *parseimaglit(Pos pos, const char *lit) {
	char *s = nounderscores(lit);
	size_t n = strlen(s);
	if (n)
		s[n - 1] = 0; /* drop the i */
	long double f;
	if (strpbrk(s, ".eEpP") && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strpbrk(s, ".pP")))
		f = strtold(s, NULL);
	else {
		/* 0123i is decimal 123i for backward compatibility, as Go */
		bool legacy = s[0] == '0' && isdigit((unsigned char)s[1]);
		f = legacy ? strtold(s, NULL) : (long double)ctoint(parseintlit(pos, s));
	}
	return ccomplex(0, f);
}
