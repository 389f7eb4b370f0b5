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
 *
 * And which runes are printable, for messages that quote a string or a
 * character as Go's do (strconv.Quote, fmt's %#U): Go's unicode.IsPrint,
 * categories L, M, N, P and S and the ASCII space, from the same file.
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

static bool loaded, have, haveprint;
static Ranges letters, digits, printable[5];

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
	if (!src)
		return;
	have = parsetable(src, "tabL", &letters) && parsetable(src, "tabNd", &digits);
	static const char *cats[] = {"tabL", "tabM", "tabN", "tabP", "tabS"};
	haveprint = true;
	for (int i = 0; i < 5; i++)
		haveprint = haveprint && parsetable(src, cats[i], &printable[i]);
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

/* Without the tables: the runes past ASCII that are not printable in the
 * ranges where such runes are common (controls, spaces other than ' ',
 * format characters, surrogates, private use); the rest count as
 * printable. */
static bool printfallback(int32_t r) {
	static const int32_t noprint[][2] = {
		{0x7F, 0xA0}, {0xAD, 0xAD}, {0x600, 0x605}, {0x61C, 0x61C}, {0x6DD, 0x6DD},
		{0x70F, 0x70F}, {0x1680, 0x1680}, {0x180E, 0x180E}, {0x2000, 0x200F}, {0x2028, 0x202F},
		{0x205F, 0x206F}, {0x3000, 0x3000}, {0xD800, 0xF8FF}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB},
		{0x110BD, 0x110BD}, {0xE0000, 0xE007F}, {0xF0000, 0x10FFFF},
	};
	for (size_t i = 0; i < sizeof noprint / sizeof noprint[0]; i++)
		if (r >= noprint[i][0] && r <= noprint[i][1])
			return false;
	return true;
}

bool uniprint(int32_t r) {
	if (r < 0x80)
		return r >= 0x20 && r < 0x7F;
	if (r > 0x10FFFF)
		return false;
	if (!loaded)
		load();
	if (!haveprint)
		return printfallback(r);
	for (int i = 0; i < 5; i++)
		if (inranges(&printable[i], r))
			return true;
	return false;
}

/* Decode the UTF-8 sequence at p (end e): the rune, and in *n its length;
 * -1 for an invalid sequence (overlong, a surrogate, past U+10FFFF,
 * truncated), of length *n, which is then 1 unless the sequence was valid
 * but its value was not (as the lexer has always stepped). */
int32_t utf8decode(const unsigned char *p, const unsigned char *e, int *n) {
	uint32_t c = *p, min;
	int k;
	*n = 1;
	if (c < 0x80)
		return (int32_t)c;
	if ((c & 0xE0) == 0xC0)
		k = 1, c &= 0x1F, min = 0x80;
	else if ((c & 0xF0) == 0xE0)
		k = 2, c &= 0x0F, min = 0x800;
	else if ((c & 0xF8) == 0xF0)
		k = 3, c &= 0x07, min = 0x10000;
	else
		return -1;
	if (e - p <= k)
		return -1;
	for (int i = 1; i <= k; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3F);
	}
	*n = k + 1;
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return -1;
	return (int32_t)c;
}
