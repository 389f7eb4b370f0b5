/* const_test.c — unit tests of constant evaluation: exact untyped
 * arithmetic to 512 bits, overflow, representability, conversions. */
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "types.h"

static int failures;
#define CHECK(cond, ...)                                            \
	do {                                                         \
		if (!(cond)) {                                       \
			failures++;                                  \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
			printf(__VA_ARGS__);                         \
			printf("\n");                                \
		}                                                    \
	} while (0)

/* each use a new position: errors at one position are reported once */
static Pos nextpos(void) {
	static int line;
	return (Pos){0, ++line, 1};
}
#define P nextpos()

static Const *I(const char *lit) { return parseintlit(P, lit); }

static void eqs(Const *c, const char *want) {
	const char *got = c ? cstr(c) : "(error)";
	CHECK(!strcmp(got, want), "got %s, want %s", got, want);
}

int main(void) {
	vpush(&srcfiles, "test.gl");
	inittypes();
	/* literals */
	eqs(I("0x7fffffffffffffff"), "9223372036854775807");
	eqs(I("1_000_000"), "1000000");
	eqs(I("0b1010"), "10");
	eqs(I("017"), "15");
	eqs(I("0o17"), "15");
	/* exact beyond 64 and 128 bits */
	Const *big = cshift(P, TK_SHL, cint(1), 100);
	eqs(big, "1267650600228229401496703205376");
	Const *sq = cbinary(P, TK_MUL, big, big, true);
	eqs(sq, "1606938044258990275541962092341162602522202993782792835301376");
	eqs(cbinary(P, TK_QUO, cbinary(P, TK_QUO, sq, big, true), big, true), "1");
	eqs(cshift(P, TK_SHR, big, 98), "4");
	/* overflow beyond 512 bits is an error */
	int e0 = nerrors();
	CHECK(cshift(P, TK_SHL, cint(1), 600) == NULL && nerrors() > e0, "1<<600 must overflow");
	e0 = nerrors();
	Const *b511 = cshift(P, TK_SHL, cint(1), 511);
	CHECK(b511 && nerrors() == e0, "1<<511 fits");
	CHECK(cbinary(P, TK_MUL, b511, cint(4), true) == NULL && nerrors() > e0, "1<<511 * 4 must overflow");
	/* division and remainder truncate toward zero, as Go */
	eqs(cbinary(P, TK_QUO, cint(-7), cint(2), true), "-3");
	eqs(cbinary(P, TK_REM, cint(-7), cint(2), true), "-1");
	eqs(cbinary(P, TK_QUO, cint(7), cint(2), false), "3.5");
	e0 = nerrors();
	CHECK(cbinary(P, TK_QUO, cint(1), cint(0), true) == NULL && nerrors() > e0, "division by zero");
	/* bit operations */
	eqs(cbinary(P, TK_AND_NOT, cint(0xff), cint(0x0f), true), "240");
	eqs(cunary(P, TK_XOR, cint(1), NULL), "-2");
	eqs(cunary(P, TK_XOR, cint(1), types[T_UINT8]), "254");
	eqs(cunary(P, TK_SUB, big, NULL), "-1267650600228229401496703205376");
	/* representability */
	Const *r;
	CHECK(crepresentable(cint(255), types[T_UINT8], &r), "255 fits uint8");
	CHECK(!crepresentable(cint(256), types[T_UINT8], &r), "256 does not fit uint8");
	CHECK(!crepresentable(cint(-1), types[T_UINT64], &r), "-1 does not fit uint64");
	CHECK(crepresentable(I("18446744073709551615"), types[T_UINT64], &r), "MaxUint64 fits uint64");
	CHECK(!crepresentable(I("18446744073709551616"), types[T_UINT64], &r), "MaxUint64+1 does not fit");
	CHECK(!crepresentable(big, types[T_INT64], &r), "1<<100 does not fit int64");
	CHECK(crepresentable(cfloat(2.0L), types[T_INT], &r) && r->kind == CK_INT, "2.0 fits int");
	CHECK(!crepresentable(cfloat(2.5L), types[T_INT], &r), "2.5 does not fit int");
	CHECK(crepresentable(big, types[T_FLOAT64], &r), "1<<100 fits float64");
	CHECK(!crepresentable(cfloat(1e300L), types[T_FLOAT32], &r), "1e300 overflows float32");
	CHECK(crepresentable(cint(1), types[T_COMPLEX128], &r), "1 fits complex128");
	/* comparisons across kinds */
	CHECK(ccompare(TK_LSS, cint(1), cfloat(1.5L)), "1 < 1.5");
	CHECK(ccompare(TK_EQL, cstring("ab", 2), cstring("ab", 2)), "\"ab\" == \"ab\"");
	CHECK(ccompare(TK_LSS, cstring("ab", 2), cstring("abc", 3)), "\"ab\" < \"abc\"");
	CHECK(ccompare(TK_GTR, big, cint(0)), "1<<100 > 0");
	/* string concatenation */
	eqs(cbinary(P, TK_ADD, cstring("a", 1), cstring("bc", 2), false), "\"abc\"");
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
