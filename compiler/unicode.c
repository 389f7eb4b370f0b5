/*
 * unicode.c — which runes are letters and digits, for identifiers (the
 * spec: letter = unicode_letter | "_", and unicode_digit, categories L and
 * Nd).  The tables are the standard library's own (stdlib/unicode/
 * tables.gl, tabL and tabNd: strings of 8-byte records lo, hi (3 bytes
 * each, big endian) and stride (2 bytes), sorted), read the first time an
 * identifier has a byte past ASCII, so glc and package unicode cannot
 * disagree and no second copy of the table lives in the tree.  Without the
 * file (the lexer's unit test and fuzzer) every rune past ASCII counts as
 * a letter, as glc did before.
 */
#include "util.h"
#include "unicode.h"

#include <stdio.h>
#include <string.h>

const char *unicodetables; /* the path of tables.gl; NULL: none */

typedef struct Ranges {
	unsigned char *rec; /* 8 bytes a record */
	size_t n;
} Ranges;

static bool loaded, have;
static Ranges letters, digits;

/* The bytes of the string constant `const name = "..." + "..."`: \xNN
 * escapes only (the generator writes every byte so). */
static bool parsetable(const char *src, const char *name, Ranges *r) {
	char *key = xprintf("\nconst %s = ", name);
	const char *p = strstr(src, key);
	if (!p)
		return false;
	p += strlen(key);
	Buf b = {0};
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '+')
			p++;
		if (*p != '"')
			break;
		for (p++; *p && *p != '"'; p += 4) {
			unsigned v;
			if (p[0] != '\\' || p[1] != 'x' || sscanf(p + 2, "%2x", &v) != 1)
				return false;
			char c = (char)v;
			bputn(&b, &c, 1);
		}
		if (*p++ != '"')
			return false;
		const char *q = p; /* another piece only after a '+' */
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '+')
			break;
	}
	if (b.n % 8 != 0)
		return false;
	r->rec = (unsigned char *)b.s;
	r->n = b.n / 8;
	return true;
}

static void load(void) {
	loaded = true;
	if (!unicodetables)
		return;
	size_t n;
	char *src = readwhole(unicodetables, &n);
	if (src)
		have = parsetable(src, "tabL", &letters) && parsetable(src, "tabNd", &digits);
}

static uint32_t be(const unsigned char *p, int n) {
	uint32_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Whether r is in the ranges: binary search for the last record with
 * lo <= r, then its hi and stride. */
static bool inranges(const Ranges *t, int32_t r) {
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (be(t->rec + 8 * m, 3) <= (uint32_t)r)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == 0)
		return false;
	const unsigned char *e = t->rec + 8 * (lo - 1);
	uint32_t rlo = be(e, 3), rhi = be(e + 3, 3), stride = be(e + 6, 2);
	return (uint32_t)r <= rhi && stride != 0 && ((uint32_t)r - rlo) % stride == 0;
}

bool uniletter(int32_t r) {
	if (r < 0x80)
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r == '_';
	if (!loaded)
		load();
	return have ? inranges(&letters, r) : true;
}

bool unidigit(int32_t r) {
	if (r < 0x80)
		return r >= '0' && r <= '9';
	if (!loaded)
		load();
	return have ? inranges(&digits, r) : false;
}
