/* lex_test.c — unit tests of the lexer: semicolon insertion, literals,
 * runes, raw strings, comments, directives and lexical errors. */
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "lexer.h"
#include "parse.h"

static int failures;
#define CHECK(cond, ...)                                   \
	do {                                                \
		if (!(cond)) {                              \
			failures++;                         \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                \
			printf("\n");                       \
		}                                           \
	} while (0)

/* The tokens of src as a compact string: names as their text, literals as
 * their value, other tokens by tokname, separated by spaces. */
static const char *tokens(const char *src) {
	static char buf[4096];
	Lexer lx;
	Token t;
	buf[0] = 0;
	/* a file of its own, so errors never share a position with earlier ones */
	vpush(&srcfiles, "test.gl");
	lex_init(&lx, srcfiles.n - 1, src, strlen(src));
	int code;
	while ((code = lex_next(&lx, &t)) != 0) {
		char one[512];
		switch (code) {
		case TK_IDENT: snprintf(one, sizeof one, "%s", t.s); break;
		case TK_INT: snprintf(one, sizeof one, "INT(%s)", t.s); break;
		case TK_FLOAT: snprintf(one, sizeof one, "FLOAT(%s)", t.s); break;
		case TK_IMAG: snprintf(one, sizeof one, "IMAG(%s)", t.s); break;
		case TK_RUNE: snprintf(one, sizeof one, "RUNE(%lld)", (long long)t.ival); break;
		case TK_STRING: {
			char esc[400] = {0};
			int k = 0;
			for (int i = 0; i < t.len && k < 390; i++) {
				unsigned char c = (unsigned char)t.s[i];
				if (c < 32 || c >= 127)
					k += snprintf(esc + k, sizeof esc - k, "\\x%02x", c);
				else
					esc[k++] = (char)c;
			}
			snprintf(one, sizeof one, "STR(%s)", esc);
			break;
		}
		case TK_SEMI: snprintf(one, sizeof one, ";"); break;
		case TK_ASSIGN_OP: snprintf(one, sizeof one, "%s=", tokname((int)t.ival)); break;
		default: snprintf(one, sizeof one, "%s", tokname(code));
		}
		if (buf[0])
			strcat(buf, " ");
		strcat(buf, one);
	}
	return buf;
}

static void expect(const char *src, const char *want) {
	int before = nerrors();
	const char *got = tokens(src);
	CHECK(!strcmp(got, want), "tokens of %s:\n   got  %s\n   want %s", src, got, want);
	CHECK(nerrors() == before, "unexpected lexical error in %s", src);
}

static void experr(const char *src) {
	int before = nerrors();
	tokens(src);
	CHECK(nerrors() > before, "no error for %s", src);
}

int main(void) {
	/* semicolon insertion after identifiers, literals, keywords, closers */
	expect("x\ny", "x ; y ;");
	expect("return\nx", "keyword return ; x ;");
	expect("f()\ng", "f ( ) ; g ;");
	expect("a[1]\n", "a [ INT(1) ] ;");
	expect("{\n}\n", "{ } ;");
	expect("x++\ny--\n", "x ++ ; y -- ;");
	expect("x +\ny", "x + y ;");           /* no semicolon after an operator */
	expect("break\ncontinue\nfallthrough\n", "keyword break ; keyword continue ; keyword fallthrough ;");
	expect("x", "x ;");                     /* end of file ends a statement */
	expect("x // comment\ny", "x ; y ;");
	expect("x /* a\nb */ y", "x ; y ;");    /* a block comment with a newline is a newline */
	expect("x /* a b */ y", "x y ;");
	/* integers */
	expect("0 42 0x1F 0X_ff 0o17 0O7 0b101 017 1_000_000", "INT(0) INT(42) INT(0x1F) INT(0X_ff) INT(0o17) INT(0O7) INT(0b101) INT(017) INT(1_000_000) ;");
	/* floats and imaginaries */
	expect("1.5 .5 1. 1e9 1E-9 0x1p-2 0x1.8p1 1_0.2_5", "FLOAT(1.5) FLOAT(.5) FLOAT(1.) FLOAT(1e9) FLOAT(1E-9) FLOAT(0x1p-2) FLOAT(0x1.8p1) FLOAT(1_0.2_5) ;");
	expect("2i 1.5i 0x10i", "IMAG(2i) IMAG(1.5i) IMAG(0x10i) ;");
	/* a hex literal containing e is not an exponent */
	expect("0x1e+3", "INT(0x1e) + INT(3) ;");
	/* runes */
	expect("'a' '\\n' '\\'' '\\x41' '\\101' '\\u00e9' '\\U0001F600' 'é'", "RUNE(97) RUNE(10) RUNE(39) RUNE(65) RUNE(65) RUNE(233) RUNE(128512) RUNE(233) ;");
	/* strings */
	expect("\"a\\tb\\\"c\\\\\"", "STR(a\\x09b\"c\\) ;");
	expect("\"\\xff\\377\\u00e9\"", "STR(\\xff\\xff\\xc3\\xa9) ;");
	expect("`raw\\n\r\nline`", "STR(raw\\n\\x0aline) ;"); /* raw: no escapes, CR dropped */
	expect("`a\nb`\nx", "STR(a\\x0ab) ; x ;");
	/* operators */
	expect("a &^= b <<= c >>= d += e", "a &^= b <<= c >>= d += e ;");
	expect("a &^ b && c || d <- e ... :=", "a &^ b && c || d <- e ... :=");
	/* keywords */
	expect("func package import chan map select", "keyword func keyword package keyword import keyword chan keyword map keyword select");
	/* errors */
	experr("\"unterminated\n");
	experr("'ab'");
	experr("''");
	experr("\"\\q\"");
	experr("'\\400'");
	experr("\"\\uD800\"");
	experr("x # y");
	experr("09");
	experr("/* never closed");
	/* directives */
	{
		Lexer lx;
		Token t;
		const char *src = "//gl:noinline\nfunc f() {}\n//gl:nosplit\nfunc g() {}\n//go:noescape\nfunc h(p *int)\n";
		lex_init(&lx, 0, src, strlen(src));
		while (lex_next(&lx, &t))
			;
		CHECK(lex_directives(&lx, 1) == DIR_NOINLINE, "noinline directive on line 1");
		CHECK(lex_directives(&lx, 3) == DIR_NOSPLIT, "nosplit directive on line 3");
		CHECK(lex_directives(&lx, 2) == 0, "no directive on line 2");
		CHECK(lex_directives(&lx, 5) == DIR_NOESCAPE, "noescape directive on line 5");
	}
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
