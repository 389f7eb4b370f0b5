/* const.c — Go's constant arithmetic.
 *
 * Go's untyped constants are exact: integers of up to 512 bits (beyond is
 * "constant overflow") and floats with at least a 256-bit mantissa.
 *
 * Integers are Big: two's complement in 576 bits, so Go's 512 are exact
 * and overflow past them is seen.
 *
 * Floats (and both parts of complex constants) are Real: q * 2^e with q a
 * GMP rational.  While q's numerator and denominator each fit MAXBITS
 * bits, e is 0 and the value is exact: 0.1 + 0.2 == 0.3, 1/3*3 == 1,
 * 1e1000 and 0x1p-1074 are exact.  A value that outgrows that (1e100000,
 * or a denominator that keeps growing) is rounded to nearest-even at PREC
 * (512) bits and q becomes that integer mantissa, its binary exponent in
 * e, so huge exponents cost no memory.  A rounded value stays rounded:
 * every result computed from it is rounded to PREC bits too, as Go's
 * constants are once they are a big.Float (1e5000/1e4999 == 10).  Like Go's, the exponent is bounded
 * by 2^31: beyond it a literal is "malformed constant" and an operation's
 * result "constant result is not representable"; far below it a value is 0.
 *
 * Conversion to float32/float64 (and long double) rounds the exact value
 * once, to nearest with ties to even, subnormals included; a value whose
 * rounding is infinite overflows the type.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "types.h"
#include "unicode.h"

#define MAXBITS 4096           /* exact while numerator and denominator fit this */
#define PREC 512               /* mantissa bits of a rounded (huge) value */
#define MAXEXP 2147483647LL    /* |value| < 2^MAXEXP, as Go's big.Float */

static void rinit(Real *r) {
	mpq_init(r->q);
	r->e = 0;
	r->rounded = false;
}

static Const *mk(int kind) {
	Const *c = xalloc(sizeof *c);
	c->kind = kind;
	if (kind == CK_FLOAT || kind == CK_COMPLEX) {
		rinit(&c->re);
		rinit(&c->im);
	}
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

/* ---- Big <-> GMP integers ---- */

static void bigtoz(mpz_t z, Big x) {
	Big a = babs(x);
	mpz_import(z, BIGW, -1, sizeof a.w[0], 0, 0, a.w);
	if (bneg_(&x))
		mpz_neg(z, z);
}

/* false if |z| needs more than 512 bits */
static bool ztobig(const mpz_t z, Big *out) {
	if (mpz_sizeinbase(z, 2) > 512)
		return false;
	Big r = {{0}};
	mpz_export(r.w, NULL, -1, sizeof r.w[0], 0, 0, z);
	*out = mpz_sgn(z) < 0 ? bneg(r) : r;
	return true;
}

/* ---- reals: q * 2^e ---- */

static int64_t zbits(mpz_srcptr z) { return (int64_t)mpz_sizeinbase(z, 2); }

/* n/d = |q| * 2^s, as two integers (n and d initialized) */
static void qscaled(mpz_ptr n, mpz_ptr d, mpq_srcptr q, int64_t s) {
	mpz_abs(n, mpq_numref(q));
	mpz_set(d, mpq_denref(q));
	if (s >= 0)
		mpz_mul_2exp(n, n, (mp_bitcnt_t)s);
	else
		mpz_mul_2exp(d, d, (mp_bitcnt_t)-s);
}

/* floor(log2 |q|) for q != 0: the bit lengths give it or one more */
static int64_t qlog2(mpq_srcptr q) {
	int64_t l = zbits(mpq_numref(q)) - zbits(mpq_denref(q));
	mpz_t n, d;
	mpz_init(n);
	mpz_init(d);
	qscaled(n, d, q, -l);
	if (mpz_cmp(n, d) < 0)
		l--;
	mpz_clear(n);
	mpz_clear(d);
	return l;
}

static int64_t rlog2(const Real *r) { return qlog2(r->q) + r->e; }

/* m = |q| * 2^s rounded to nearest, ties to even; the caller keeps s
 * small (it is relative to q's own magnitude). */
static void qround(mpz_ptr m, mpq_srcptr q, int64_t s) {
	mpz_t n, d, rem;
	mpz_init(n);
	mpz_init(d);
	mpz_init(rem);
	qscaled(n, d, q, s);
	mpz_tdiv_qr(m, rem, n, d);
	mpz_mul_2exp(rem, rem, 1); /* the sticky remainder against half */
	int c = mpz_cmp(rem, d);
	if (c > 0 || (c == 0 && mpz_odd_p(m)))
		mpz_add_ui(m, m, 1);
	mpz_clear(n);
	mpz_clear(d);
	mpz_clear(rem);
}

/* Move e into q while q stays within MAXBITS: the exact form. */
static void rfold(Real *r) {
	if (r->e > 0 && zbits(mpq_numref(r->q)) + r->e <= MAXBITS) {
		mpq_mul_2exp(r->q, r->q, (mp_bitcnt_t)r->e);
		r->e = 0;
	} else if (r->e < 0 && zbits(mpq_denref(r->q)) - r->e <= MAXBITS) {
		mpq_div_2exp(r->q, r->q, (mp_bitcnt_t)-r->e);
		r->e = 0;
	}
}

/* Bring r to its canonical form: exact if it fits and was never rounded,
 * else PREC bits rounded.  False if |r| reaches 2^MAXEXP; a value below
 * 2^-MAXEXP is 0. */
static bool rnorm(Real *r) {
	if (mpq_sgn(r->q) == 0) {
		r->e = 0;
		return true;
	}
	rfold(r);
	if (!r->rounded && r->e == 0 && zbits(mpq_numref(r->q)) <= MAXBITS &&
	    zbits(mpq_denref(r->q)) <= MAXBITS)
		return true;
	r->rounded = true;
	int sign = mpq_sgn(r->q);
	int64_t k = qlog2(r->q) - (PREC - 1);
	mpz_t m;
	mpz_init(m);
	qround(m, r->q, -k);
	mp_bitcnt_t tz = mpz_scan1(m, 0);
	mpz_tdiv_q_2exp(m, m, tz);
	if (sign < 0)
		mpz_neg(m, m);
	mpq_set_z(r->q, m);
	mpz_clear(m);
	r->e += k + (int64_t)tz;
	rfold(r);
	int64_t x = rlog2(r);
	if (x >= MAXEXP)
		return false;
	if (x < -MAXEXP) {
		mpq_set_ui(r->q, 0, 1);
		r->e = 0;
	}
	return true;
}

static void rset(Real *z, const Real *x) {
	mpq_set(z->q, x->q);
	z->e = x->e;
	z->rounded = x->rounded;
}

/* z = x + y, or x - y; false on overflow */
static bool radd(Real *z, const Real *x, const Real *y, bool sub) {
	bool rounded = x->rounded || y->rounded;
	if (mpq_sgn(y->q) == 0) {
		rset(z, x);
		z->rounded = rounded;
		return true;
	}
	if (mpq_sgn(x->q) == 0) {
		rset(z, y);
		z->rounded = rounded;
		if (sub)
			mpq_neg(z->q, z->q);
		return true;
	}
	int64_t d = x->e - y->e;
	int64_t gap = rlog2(x) - rlog2(y);
	if (d != 0 && (gap > PREC + 2 || gap < -(PREC + 2))) {
		/* the smaller is below half an ulp of the larger's PREC bits */
		bool xbig = gap > 0;
		rset(z, xbig ? x : y);
		z->rounded = rounded;
		if (!xbig && sub)
			mpq_neg(z->q, z->q);
		return true;
	}
	/* the exponents differ by at most the bits of the mantissas */
	mpq_t a, b;
	mpq_init(a);
	mpq_init(b);
	mpq_set(a, x->q);
	mpq_set(b, y->q);
	int64_t e = d >= 0 ? y->e : x->e;
	if (d > 0)
		mpq_mul_2exp(a, a, (mp_bitcnt_t)d);
	else if (d < 0)
		mpq_mul_2exp(b, b, (mp_bitcnt_t)-d);
	if (sub)
		mpq_sub(z->q, a, b);
	else
		mpq_add(z->q, a, b);
	z->e = e;
	z->rounded = rounded;
	mpq_clear(a);
	mpq_clear(b);
	return rnorm(z);
}

static bool rmul(Real *z, const Real *x, const Real *y) {
	z->rounded = x->rounded || y->rounded;
	mpq_mul(z->q, x->q, y->q);
	z->e = x->e + y->e;
	return rnorm(z);
}

static bool rquo(Real *z, const Real *x, const Real *y) { /* y != 0 */
	z->rounded = x->rounded || y->rounded;
	mpq_div(z->q, x->q, y->q);
	z->e = x->e - y->e;
	return rnorm(z);
}

static int rcmp(const Real *x, const Real *y) {
	Real t;
	rinit(&t);
	radd(&t, x, y, true);
	int c = mpq_sgn(t.q);
	mpq_clear(t.q);
	return c;
}

/* r correctly rounded to a binary float of p mantissa bits whose normal
 * exponents are emin..emax: to nearest, ties to even, subnormals below
 * emin.  False if it rounds to infinity. */
static bool rround(const Real *r, int p, int emin, int emax, long double *out) {
	*out = 0;
	if (mpq_sgn(r->q) == 0)
		return true;
	long double sign = mpq_sgn(r->q) < 0 ? -1 : 1;
	int64_t x = rlog2(r);
	if (x > emax) {
		*out = sign * INFINITY;
		return false;
	}
	int64_t u = (x < emin ? emin : x) - (p - 1); /* the exponent of one ulp */
	if (x < u - 1) {                             /* below half the least subnormal */
		*out = sign * 0.0L;
		return true;
	}
	mpz_t m;
	mpz_init(m);
	qround(m, r->q, r->e - u);
	if (zbits(m) > p) { /* rounded up to 2^p: keep p bits (for p = 64, a word) */
		mpz_tdiv_q_2exp(m, m, 1);
		u++;
	}
	bool ok = zbits(m) - 1 + u <= emax;
	*out = ok ? sign * ldexpl((long double)mpz_get_ui(m), (int)u) : sign * INFINITY;
	mpz_clear(m);
	return ok;
}

static bool rto64(const Real *r, double *d) {
	long double f;
	bool ok = rround(r, 53, -1022, 1023, &f);
	*d = (double)f; /* exact: f is a float64 */
	return ok;
}

static bool rto32(const Real *r, float *v) {
	long double f;
	bool ok = rround(r, 24, -126, 127, &f);
	*v = (float)f;
	return ok;
}

static long double rtold(const Real *r) {
	long double f;
	rround(r, 64, -16382, 16383, &f);
	return f;
}

static void rfromz(Real *r, const mpz_t z) {
	mpq_set_z(r->q, z);
	r->e = 0;
	r->rounded = false;
	rnorm(r);
}

static void rfrombig(Real *r, Big x) {
	mpz_t z;
	mpz_init(z);
	bigtoz(z, x);
	rfromz(r, z);
	mpz_clear(z);
}

static void rfromld(Real *r, long double v) {
	mpq_set_ui(r->q, 0, 1);
	r->e = 0;
	r->rounded = false;
	if (v == 0 || !isfinite(v))
		return;
	int ex;
	long double fr = frexpl(fabsl(v), &ex);
	mpz_t z;
	mpz_init(z);
	mpz_set_ui(z, (unsigned long)ldexpl(fr, 64)); /* all 64 mantissa bits */
	if (v < 0)
		mpz_neg(z, z);
	mpq_set_z(r->q, z);
	mpz_clear(z);
	r->e = ex - 64;
	rnorm(r);
}

/* r is an integer (of any size) */
static bool rintegral(const Real *r) {
	if (mpz_cmp_ui(mpq_denref(r->q), 1) != 0)
		return false;
	if (r->e >= 0 || mpq_sgn(r->q) == 0)
		return true;
	return (int64_t)mpz_scan1(mpq_numref(r->q), 0) >= -r->e;
}

/* z = r rounded toward zero (floor if down) as an integer; false if
 * |r| >= 2^limit (z is then not set) */
static bool rtoz(mpz_t z, const Real *r, bool down, int64_t limit) {
	if (mpq_sgn(r->q) == 0) {
		mpz_set_ui(z, 0);
		return true;
	}
	if (rlog2(r) >= limit)
		return false;
	if (r->e < 0 && rlog2(r) < 0) { /* |r| < 1 */
		mpz_set_si(z, down && mpq_sgn(r->q) < 0 ? -1 : 0);
		return true;
	}
	/* the shifts are bounded: e and q's magnitude nearly cancel */
	mpz_t n, d;
	mpz_init_set(n, mpq_numref(r->q));
	mpz_init_set(d, mpq_denref(r->q));
	if (r->e >= 0)
		mpz_mul_2exp(n, n, (mp_bitcnt_t)r->e);
	else
		mpz_mul_2exp(d, d, (mp_bitcnt_t)-r->e);
	if (down)
		mpz_fdiv_q(z, n, d);
	else
		mpz_tdiv_q(z, n, d);
	mpz_clear(n);
	mpz_clear(d);
	return true;
}

static bool rtobig(const Real *r, Big *out) {
	if (!rintegral(r))
		return false;
	mpz_t z;
	mpz_init(z);
	bool ok = rtoz(z, r, false, 520) && ztobig(z, out);
	mpz_clear(z);
	return ok;
}

Const *cfloat(long double v) {
	Const *c = mk(CK_FLOAT);
	rfromld(&c->re, v);
	return c;
}
Const *ccomplex(long double re, long double im) {
	Const *c = mk(CK_COMPLEX);
	rfromld(&c->re, re);
	rfromld(&c->im, im);
	return c;
}
Const *cstring(const char *s, int64_t n) {
	Const *c = mk(CK_STRING);
	c->s = s;
	c->slen = n;
	return c;
}

static Const *cfloatr(const Real *r) {
	Const *c = mk(CK_FLOAT);
	rset(&c->re, r);
	return c;
}

static Const *ccomplexr(const Real *re, const Real *im) {
	Const *c = mk(CK_COMPLEX);
	rset(&c->re, re);
	rset(&c->im, im);
	return c;
}

static bool isreal(Const *c) { return c->kind == CK_FLOAT || (c->kind == CK_COMPLEX && mpq_sgn(c->im.q) == 0); }

bool cisint(Const *c) {
	Big b;
	return c->kind == CK_INT || (isreal(c) && rtobig(&c->re, &b));
}

/* An integral value, however large (cisint: one that fits an exact
 * integer), as a shifted operand must be. */
bool cisintegral(Const *c) { return c->kind == CK_INT || (isreal(c) && rintegral(&c->re)); }

bool ciszero(Const *c) {
	switch (c->kind) {
	case CK_INT: return biszero(c->i);
	case CK_FLOAT: return mpq_sgn(c->re.q) == 0;
	case CK_COMPLEX: return mpq_sgn(c->re.q) == 0 && mpq_sgn(c->im.q) == 0;
	}
	return false;
}

/* truncated toward zero, saturated to 128 bits */
i128 ctoint(Const *c) {
	if (c->kind == CK_INT)
		return bto128(c->i);
	if (c->kind != CK_FLOAT && c->kind != CK_COMPLEX)
		return 0;
	i128 max = ((i128)1 << 126) - 1 + ((i128)1 << 126);
	mpz_t z;
	mpz_init(z);
	Big b;
	i128 v = mpq_sgn(c->re.q) < 0 ? -max : max;
	if (rtoz(z, &c->re, false, 512) && ztobig(z, &b))
		v = bto128(b);
	mpz_clear(z);
	return v;
}

long double ctofloat(Const *c) {
	switch (c->kind) {
	case CK_INT: {
		Real r;
		rinit(&r);
		rfrombig(&r, c->i);
		long double f = rtold(&r);
		mpq_clear(r.q);
		return f;
	}
	case CK_FLOAT:
	case CK_COMPLEX: return rtold(&c->re);
	}
	return 0;
}

double ctodouble(Const *c, bool f32) {
	Const *f = crealpart(c);
	if (!f)
		return 0;
	if (f32) {
		float v;
		rto32(&f->re, &v);
		return v;
	}
	double d;
	rto64(&f->re, &d);
	return d;
}

Const *crealpart(Const *c) {
	if (c->kind == CK_INT) {
		Const *r = mk(CK_FLOAT);
		rfrombig(&r->re, c->i);
		return r;
	}
	if (c->kind == CK_FLOAT)
		return c;
	return c->kind == CK_COMPLEX ? cfloatr(&c->re) : NULL;
}

Const *cimagpart(Const *c) {
	if (c->kind == CK_COMPLEX)
		return cfloatr(&c->im);
	return c->kind == CK_INT || c->kind == CK_FLOAT ? mk(CK_FLOAT) : NULL;
}

Const *cmkcomplex(Const *re, Const *im) {
	Const *r = crealpart(re), *i = crealpart(im);
	if (!r || !i)
		return NULL;
	return ccomplexr(&r->re, &i->re);
}

/* Convert between numeric constant kinds; NULL if the value is not exact
 * in the target kind (a float that is not integral to int, a complex with
 * an imaginary part to float). */
Const *cconvert(Const *c, int kind) {
	if (c->kind == kind)
		return c;
	switch (kind) {
	case CK_INT: {
		Big b;
		if ((c->kind == CK_FLOAT || c->kind == CK_COMPLEX) && isreal(c) && rtobig(&c->re, &b))
			return cbig(b);
		return NULL;
	}
	case CK_FLOAT:
		if (c->kind == CK_COMPLEX && mpq_sgn(c->im.q) != 0)
			return NULL;
		return crealpart(c);
	case CK_COMPLEX:
		if (c->kind == CK_INT || c->kind == CK_FLOAT)
			return ccomplexr(&crealpart(c)->re, &mk(CK_FLOAT)->re);
	}
	return NULL;
}

static int numrank(int k) { return k == CK_INT ? 1 : k == CK_FLOAT ? 2 : k == CK_COMPLEX ? 3 : 0; }

static Const *overflow(Pos pos) {
	errorat(pos, "constant overflow");
	return NULL;
}

static Const *unrepresentable(Pos pos) {
	errorat(pos, "constant result is not representable");
	return NULL;
}

static Const *divzero(Pos pos) {
	errorat(pos, "invalid operation: division by zero");
	return NULL;
}

static Const *floatbinary(Pos pos, int op, Const *x, Const *y) {
	Const *z = mk(CK_FLOAT);
	bool ok;
	switch (op) {
	case TK_ADD: ok = radd(&z->re, &x->re, &y->re, false); break;
	case TK_SUB: ok = radd(&z->re, &x->re, &y->re, true); break;
	case TK_MUL: ok = rmul(&z->re, &x->re, &y->re); break;
	case TK_QUO:
		if (mpq_sgn(y->re.q) == 0)
			return divzero(pos);
		ok = rquo(&z->re, &x->re, &y->re);
		break;
	default: return NULL;
	}
	return ok ? z : unrepresentable(pos);
}

/* (a+bi)(c+di) = (ac-bd) + (ad+bc)i */
static bool cmul(Real *zr, Real *zi, const Const *x, const Const *y) {
	Real t1, t2;
	rinit(&t1);
	rinit(&t2);
	bool ok = rmul(&t1, &x->re, &y->re) && rmul(&t2, &x->im, &y->im) && radd(zr, &t1, &t2, true) &&
		  rmul(&t1, &x->re, &y->im) && rmul(&t2, &x->im, &y->re) && radd(zi, &t1, &t2, false);
	mpq_clear(t1.q);
	mpq_clear(t2.q);
	return ok;
}

/* x/y = x * conj(y) / |y|^2 */
static bool cquo(Real *zr, Real *zi, const Const *x, const Const *y) {
	Const *conj = ccomplexr(&y->re, &y->im);
	mpq_neg(conj->im.q, conj->im.q);
	Real d, t;
	rinit(&d);
	rinit(&t);
	bool ok = rmul(&d, &y->re, &y->re) && rmul(&t, &y->im, &y->im) && radd(&d, &d, &t, false) &&
		  cmul(zr, zi, x, conj) && rquo(zr, zr, &d) && rquo(zi, zi, &d);
	mpq_clear(d.q);
	mpq_clear(t.q);
	return ok;
}

static Const *complexbinary(Pos pos, int op, Const *x, Const *y) {
	Const *z = mk(CK_COMPLEX);
	bool ok;
	switch (op) {
	case TK_ADD:
	case TK_SUB:
		ok = radd(&z->re, &x->re, &y->re, op == TK_SUB) && radd(&z->im, &x->im, &y->im, op == TK_SUB);
		break;
	case TK_MUL: ok = cmul(&z->re, &z->im, x, y); break;
	case TK_QUO:
		if (ciszero(y))
			return divzero(pos);
		ok = cquo(&z->re, &z->im, x, y);
		break;
	default: return NULL;
	}
	return ok ? z : unrepresentable(pos);
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
	if (k == CK_INT && op == TK_QUO && !intdiv)
		k = CK_FLOAT; /* untyped 1/3 with a float operand elsewhere: exact */
	x = cconvert(x, k);
	y = cconvert(y, k);
	if (!x || !y)
		return NULL;
	if (k == CK_FLOAT)
		return floatbinary(pos, op, x, y);
	if (k == CK_COMPLEX)
		return complexbinary(pos, op, x, y);
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
		if (biszero(b))
			return divzero(pos);
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

/* Unary operators.  For ^x on a typed unsigned constant the result has
 * only the type's bits (^uint8(1) == 254); untyped and signed ^x is -x-1. */
Const *cunary(Pos pos, int op, Const *x, Type *t) {
	(void)pos;
	switch (op) {
	case TK_ADD:
		return x->kind == CK_BOOL || x->kind == CK_STRING ? NULL : x;
	case TK_SUB:
		if (x->kind == CK_INT)
			return cbig(bneg(x->i));
		if (x->kind == CK_FLOAT || x->kind == CK_COMPLEX) {
			Const *r = x->kind == CK_FLOAT ? cfloatr(&x->re) : ccomplexr(&x->re, &x->im);
			mpq_neg(r->re.q, r->re.q);
			mpq_neg(r->im.q, r->im.q);
			return r;
		}
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
 * the value scaled down, rounded toward -inf as an arithmetic shift is. */
static Const *bigfloatshr(Pos pos, Const *x, uint64_t s) {
	Real r;
	rinit(&r);
	rset(&r, &x->re);
	r.e -= s > (uint64_t)4 * MAXEXP ? 4 * MAXEXP : (int64_t)s;
	mpz_t z;
	mpz_init(z);
	Big b;
	bool ok = rtoz(z, &r, true, 513) && ztobig(z, &b);
	mpz_clear(z);
	mpq_clear(r.q);
	return ok ? cbig(b) : overflow(pos);
}

/* A constant shift's result is past the 512 bits of an untyped integer. */
static Const *shiftoverflow(Pos pos) {
	errorat(pos, "constant shift overflow");
	return NULL;
}

Const *cshift(Pos pos, int op, Const *x, uint64_t s) {
	Const *xi = cconvert(x, CK_INT);
	if (!xi && op == TK_SHR && cisintegral(x))
		return bigfloatshr(pos, x, s);
	if (!xi)
		return cisintegral(x) ? shiftoverflow(pos) : NULL; /* too large to shift left */
	if (op == TK_SHR)
		return cbig(bshr(xi->i, s >= BIGW * 64 ? BIGW * 64 - 1 : (unsigned)s));
	if (biszero(xi->i))
		return cint(0);
	if (s >= 512)
		return shiftoverflow(pos);
	Big r = bshl(xi->i, (unsigned)s);
	if (!bfits(r) || bneg_(&r) != bneg_(&xi->i) || bcmp_(bshr(r, (unsigned)s), xi->i) != 0)
		return shiftoverflow(pos);
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
			c = rcmp(&x->re, &y->re);
		else
			c = rcmp(&x->re, &y->re) != 0 || rcmp(&x->im, &y->im) != 0;
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

/* r rounded to float32 or float64 in place (as t holds it); false if the
 * rounding is infinite */
static bool roundto(Real *r, bool f32) {
	long double f;
	bool ok = f32 ? rround(r, 24, -126, 127, &f) : rround(r, 53, -1022, 1023, &f);
	if (ok)
		rfromld(r, f);
	return ok;
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
		if (r && k != T_UNTYPED_FLOAT) {
			r = cfloatr(&r->re);
			ok = roundto(&r->re, k == T_FLOAT32);
		} else
			ok = r != NULL;
	} else if (k == T_COMPLEX64 || k == T_COMPLEX128 || k == T_UNTYPED_COMPLEX) {
		r = c->kind == CK_STRING || c->kind == CK_BOOL ? NULL : cconvert(c, CK_COMPLEX);
		if (r && k != T_UNTYPED_COMPLEX) {
			r = ccomplexr(&r->re, &r->im);
			ok = roundto(&r->re, k == T_COMPLEX64) && roundto(&r->im, k == T_COMPLEX64);
		} else
			ok = r != NULL;
	}
	if (ok && rounded)
		*rounded = r;
	return ok;
}

/* Go's %.6g of a constant, also for exponents no long double holds */
static void floatstr(Buf *b, const Real *r) {
	char tmp[64];
	if (mpq_sgn(r->q) == 0 || (rlog2(r) > -16000 && rlog2(r) < 16000)) {
		snprintf(tmp, sizeof tmp, "%.6Lg", rtold(r));
		bput(b, tmp);
		return;
	}
	/* |r| = f * 2^x with f in [1, 2): its decimal exponent from logs */
	int64_t x = rlog2(r);
	Real m;
	rinit(&m);
	rset(&m, r);
	m.e -= x;
	long double l10 = log10l(fabsl(rtold(&m))) + (long double)x * 0.30102999566398119521373889472449302677L;
	long double d = floorl(l10), f = powl(10, l10 - d);
	mpq_clear(m.q);
	if (f >= 9.999995L)
		f = 1, d++;
	snprintf(tmp, sizeof tmp, "%.6Lg", f);
	bprintf(b, "%s%se%c%lld", mpq_sgn(r->q) < 0 ? "-" : "", tmp, d < 0 ? '-' : '+', (long long)fabsl(d));
}

/* A string constant as Go's messages write it: strconv.Quote's form (a
 * printable rune as it is; \n, \t and the like; \xNN for a byte that is
 * not UTF-8; \uNNNN or \UNNNNNNNN for any other rune), cut (if cut) as
 * go/constant cuts a long one: past 72 runes, the first 69 and "...". */
void quote(Buf *b, const char *s, int64_t n, bool cut) {
	Buf q = {0};
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	bputc(&q, '"');
	while (p < e) {
		int w;
		int32_t r = utf8decode(p, e, &w);
		const char *esc = r == '\a' ? "a" : r == '\b' ? "b" : r == '\f' ? "f" : r == '\n' ? "n" :
				  r == '\r' ? "r" : r == '\t' ? "t" : r == '\v' ? "v" : NULL;
		if (r < 0) /* Go's decoder steps one byte past anything invalid */
			bprintf(&q, "\\x%02x", *p), w = 1;
		else if (r == '"' || r == '\\')
			bprintf(&q, "\\%c", r);
		else if (uniprint(r))
			bprintf(&q, "%.*s", w, (const char *)p);
		else if (esc)
			bprintf(&q, "\\%s", esc);
		else if (r < ' ' || r == 0x7F)
			bprintf(&q, "\\x%02x", (unsigned)r);
		else if (r < 0x10000)
			bprintf(&q, "\\u%04x", (unsigned)r);
		else
			bprintf(&q, "\\U%08x", (unsigned)r);
		p += w;
	}
	bputc(&q, '"');
	const unsigned char *t = (const unsigned char *)q.s, *te = t + q.n;
	int runes = 0, w;
	for (const unsigned char *u = t; u < te; u += w, runes++)
		utf8decode(u, te, &w);
	if (!cut || runes <= 72) {
		bput(b, bstr(&q));
		return;
	}
	for (int i = 0; i < 69; i++, t += w)
		utf8decode(t, te, &w);
	bprintf(b, "%.*s...", (int)(t - (const unsigned char *)q.s), q.s);
}

const char *cstr(Const *c) {
	Buf b = {0};
	if (!c)
		return "?";
	switch (c->kind) {
	case CK_BOOL: bput(&b, c->b ? "true" : "false"); break;
	case CK_INT: bigstr(&b, c->i); break;
	case CK_FLOAT: floatstr(&b, &c->re); break;
	case CK_COMPLEX: {
		Real im;
		rinit(&im);
		mpq_abs(im.q, c->im.q);
		im.e = c->im.e;
		bputc(&b, '(');
		floatstr(&b, &c->re);
		bput(&b, mpq_sgn(c->im.q) < 0 ? " - " : " + ");
		floatstr(&b, &im);
		bput(&b, "i)");
		mpq_clear(im.q);
		break;
	}
	case CK_STRING: quote(&b, c->s, c->slen, true); break;
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

/* r = 5^n to a little more than PREC bits (n may be near a billion):
 * square and multiply, truncating each product; the error stays far
 * below the final rounding's. */
static void pow5(Real *r, uint64_t n) {
	const int64_t work = PREC + 64;
	mpz_t m, base;
	mpz_init_set_ui(m, 1);
	mpz_init_set_ui(base, 5);
	int64_t e = 0;
	for (int bit = 63; bit >= 0; bit--) {
		mpz_mul(m, m, m);
		e *= 2;
		if ((n >> bit) & 1)
			mpz_mul(m, m, base);
		int64_t extra = zbits(m) - work;
		if (extra > 0) {
			mpz_tdiv_q_2exp(m, m, (mp_bitcnt_t)extra);
			e += extra;
		}
	}
	mpq_set_z(r->q, m);
	r->e = e;
	r->rounded = true; /* truncated to PREC + 64 bits above */
	mpz_clear(m);
	mpz_clear(base);
}

/* a decimal exponent's digits, saturated far past any meaningful value */
static int64_t parseexp(const char *p) {
	bool neg = *p == '-';
	if (*p == '+' || *p == '-')
		p++;
	int64_t v = 0;
	for (; isdigit((unsigned char)*p); p++)
		if (v < (int64_t)1 << 40)
			v = v * 10 + (*p - '0');
	return neg ? -v : v;
}

/* r = digits * 10^exp10 exactly when small, else to PREC bits;
 * false past the exponent limit */
static bool decimal(Real *r, const char *digits, int64_t exp10) {
	mpz_t m;
	mpz_init_set_str(m, digits, 10);
	mpq_set_z(r->q, m);
	r->e = 0;
	const char *sig = digits + strspn(digits, "0");
	int64_t mag = (int64_t)strlen(sig) + exp10; /* |r| < 10^mag */
	bool ok = true;
	if (mpz_sgn(m) == 0) {
	} else if (mag > 646456994) {
		ok = false;
	} else if (mag < -646457100) {
		mpq_set_ui(r->q, 0, 1);
	} else if (exp10 >= -20000 && exp10 <= 20000) {
		mpz_t p;
		mpz_init(p);
		mpz_ui_pow_ui(p, 10, (unsigned long)(exp10 < 0 ? -exp10 : exp10));
		if (exp10 >= 0)
			mpz_mul(mpq_numref(r->q), mpq_numref(r->q), p);
		else {
			mpz_set(mpq_denref(r->q), p);
			mpq_canonicalize(r->q);
		}
		mpz_clear(p);
		ok = rnorm(r);
	} else {
		/* 10^n = 5^n * 2^n */
		Real p;
		rinit(&p);
		uint64_t n = (uint64_t)(exp10 < 0 ? -exp10 : exp10);
		pow5(&p, n);
		p.e += (int64_t)n;
		ok = exp10 >= 0 ? rmul(r, r, &p) : rquo(r, r, &p);
		mpq_clear(p.q);
	}
	mpz_clear(m);
	return ok;
}

/* r = the hex mantissa digits * 2^exp2 */
static bool hexfloat(Real *r, const char *digits, int64_t exp2) {
	mpz_t m;
	mpz_init_set_str(m, digits, 16);
	mpq_set_z(r->q, m);
	mpz_clear(m);
	r->e = exp2;
	return rnorm(r);
}

/* A float literal's value; false if malformed or beyond the exponent limit */
static bool floatlit(Real *r, const char *s) {
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *p = hex ? s + 2 : s;
	char *digits = xalloc(strlen(s) + 2);
	size_t nd = 0;
	int64_t frac = 0;
	bool dot = false;
	for (; *p; p++) {
		if (*p == '.' && !dot)
			dot = true;
		else if (hex ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)) {
			digits[nd++] = *p;
			frac += dot;
		} else
			break;
	}
	if (nd == 0)
		return false;
	digits[nd] = 0;
	int64_t exp = 0;
	if (*p == (hex ? 'p' : 'e') || *p == (hex ? 'P' : 'E')) {
		p++;
		const char *q = *p == '+' || *p == '-' ? p + 1 : p;
		if (!isdigit((unsigned char)*q))
			return false;
		exp = parseexp(p);
		p = q + strspn(q, "0123456789");
		if (exp < INT32_MIN || exp > INT32_MAX) /* Go's bound on the written exponent */
			return false;
	} else if (hex)
		return false;
	if (*p)
		return false;
	return hex ? hexfloat(r, digits, exp - 4 * frac) : decimal(r, digits, exp - frac);
}

Const *parsefloatlit(Pos pos, const char *lit) {
	Const *c = mk(CK_FLOAT);
	if (!floatlit(&c->re, nounderscores(lit))) {
		errorat(pos, "malformed constant: %s", lit);
		mpq_set_ui(c->re.q, 0, 1);
		c->re.e = 0;
	}
	return c;
}

Const *parseimaglit(Pos pos, const char *lit) {
	char *s = nounderscores(lit);
	size_t n = strlen(s);
	if (n)
		s[n - 1] = 0; /* drop the i */
	Const *f;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	/* 0123i is decimal 123i for backward compatibility, as Go */
	bool legacy = s[0] == '0' && isdigit((unsigned char)s[1]);
	if (strpbrk(s, hex ? ".pP" : ".eE") || legacy)
		f = parsefloatlit(pos, s);
	else
		f = crealpart(parseintlit(pos, s));
	Const *c = mk(CK_COMPLEX);
	rset(&c->im, &f->re);
	return c;
}
