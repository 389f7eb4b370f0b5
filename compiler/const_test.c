/* const_test.c — unit tests of constant evaluation: exact untyped
 * arithmetic to 512 bits, exact float rationals and their correctly
 * rounded conversions, overflow, representability, conversions. */
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

static Const *F(const char *lit) { return parsefloatlit(P, lit); }
static Const *add(Const *x, Const *y) { return cbinary(P, TK_ADD, x, y, false); }
static Const *sub(Const *x, Const *y) { return cbinary(P, TK_SUB, x, y, false); }
static Const *mul(Const *x, Const *y) { return cbinary(P, TK_MUL, x, y, false); }
static Const *quo(Const *x, Const *y) { return cbinary(P, TK_QUO, x, y, false); }

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
	/* floats are exact rationals */
	CHECK(ccompare(TK_EQL, add(F("0.1"), F("0.2")), F("0.3")), "0.1 + 0.2 == 0.3");
	CHECK(ccompare(TK_EQL, mul(quo(cint(1), F("3.0")), cint(3)), cint(1)), "1/3*3 == 1");
	CHECK(ccompare(TK_EQL, quo(mul(F("1e300"), F("1e300")), F("1e300")), F("1e300")), "1e300*1e300/1e300");
	CHECK(cisint(F("1e100")) && !cisint(F("1.5")) && cisint(F("0x1p500")), "integral floats");
	CHECK(cconvert(F("1e1000"), CK_INT) == NULL && cisintegral(F("1e1000")), "1e1000 is integral, not an int");
	eqs(cconvert(F("12345678901234567890123e-3"), CK_INT), "(error)");
	eqs(cconvert(F("1.2345678901234567890123e22"), CK_INT), "12345678901234567890123");
	eqs(F("0.1"), "0.1");
	eqs(F("1e1000"), "1e+1000");
	eqs(F("1e-646456992"), "1e-646456992");
	eqs(cunary(P, TK_SUB, F("2.5e100000"), NULL), "-2.5e+100000");
	/* huge exponents are rounded, not exact, and cost no memory */
	CHECK(ctodouble(quo(F("1e646456992"), F("1e646456991")), false) == 10, "1e646456992/1e646456991 == 10");
	e0 = nerrors();
	CHECK(F("1e646456993") && nerrors() > e0, "1e646456993 is malformed");
	CHECK(ciszero(F("1e-1000000000")), "1e-1000000000 underflows to 0");
	CHECK(ciszero(F("0x1p-2147483648")), "0x1p-2147483648 underflows to 0");
	e0 = nerrors();
	CHECK(cisintegral(F("0.0000000001e646457000")) && nerrors() == e0, "leading zeros do not count toward the limit");
	CHECK(ctofloat(F("0x1.ffffffffffffffffp0")) == 2.0L, "long double rounding up to the next power of two");
	e0 = nerrors();
	CHECK(F("1e-3000000000") && nerrors() > e0, "an exponent beyond 32 bits is malformed");
	e0 = nerrors();
	CHECK(mul(F("1e600000000"), F("1e600000000")) == NULL && nerrors() > e0, "1e600000000 squared is not representable");
	/* hex floats */
	CHECK(ccompare(TK_EQL, F("0x1.8p1"), cint(3)), "0x1.8p1 == 3");
	CHECK(ccompare(TK_EQL, F("0x.1p4"), cint(1)), "0x.1p4 == 1");
	CHECK(ctodouble(F("0x1p-1074"), false) == 0x1p-1074, "0x1p-1074 is the least subnormal");
	CHECK(ctodouble(F("0x1p-1075"), false) == 0, "0x1p-1075 ties to even 0");
	CHECK(ctodouble(F("0x1.0000000000001p-1075"), false) == 0x1p-1074, "just above half the least subnormal");
	CHECK(ctodouble(F("0x1.8p-1074"), false) == 0x1p-1073, "1.5 subnormal ulps ties to 2");
	CHECK(ctodouble(F("4.9406564584124654e-324"), false) == 0x1p-1074, "smallest subnormal in decimal");
	CHECK(ctodouble(F("2.4703282292062327e-324"), false) == 0, "below half the least subnormal");
	CHECK(ctodouble(F("2.4703282292062328e-324"), false) == 0x1p-1074, "above half the least subnormal");
	/* float64 rounding at halfway: 1 + 2^-53 ties to 1, 1 + 3*2^-53 to 1 + 2^-51 */
	CHECK(ctodouble(F("0x1.00000000000008p0"), false) == 1.0, "1+2^-53 ties to even 1");
	CHECK(ctodouble(F("0x1.00000000000018p0"), false) == 1 + 0x1p-51, "1+3*2^-53 ties to even up");
	CHECK(ctodouble(add(F("0x1.00000000000008p0"), F("1e-400")), false) == 1 + 0x1p-52, "past the tie rounds up");
	CHECK(ctodouble(F("0.1"), false) == 0.1, "0.1 to float64");
	CHECK(ctodouble(F("0.1"), true) == 0.1f, "0.1 to float32");
	/* float32: 1 + 2^-24 ties to 1, a hair more rounds up; double rounding through float64 would not */
	CHECK(ctodouble(F("0x1.000001p0"), true) == 1.0f, "float32 1+2^-24 ties to 1");
	CHECK(ctodouble(F("0x1.000003p0"), true) == 1 + 0x1p-22f, "float32 1+3*2^-24 ties up");
	CHECK(ctodouble(F("0x1.0000010000001p0"), true) == 1 + 0x1p-23f, "float32 just past the tie");
	CHECK(ctodouble(F("0x1.00000100000000001p0"), true) == 1 + 0x1p-23f, "float32 past the tie beyond float64 precision");
	/* max float64 and beyond */
	Const *max64 = F("0x1.fffffffffffffp1023");
	CHECK(crepresentable(max64, types[T_FLOAT64], &r) && ctodouble(r, false) == 1.7976931348623157e308, "MaxFloat64");
	/* max + ulp/2 rounds to 2^1024: overflow; a hair less rounds down to max */
	Const *ulp = F("0x1p971");
	CHECK(!crepresentable(add(max64, quo(ulp, cint(2))), types[T_FLOAT64], &r), "MaxFloat64 + ulp/2 overflows");
	CHECK(crepresentable(sub(add(max64, quo(ulp, cint(2))), cint(1)), types[T_FLOAT64], &r) &&
		      ctodouble(r, false) == 1.7976931348623157e308, "MaxFloat64 + ulp/2 - 1 is MaxFloat64");
	CHECK(!crepresentable(F("1e309"), types[T_FLOAT64], &r), "1e309 overflows float64");
	CHECK(!crepresentable(F("0x1.ffffffp127"), types[T_FLOAT32], &r), "max32 + ulp32/2 overflows float32");
	CHECK(crepresentable(F("0x1.fffffefffffffffffffp127"), types[T_FLOAT32], &r) && ctodouble(r, true) == 0x1.fffffep127f,
	      "max32 + ulp32/2 - a bit is max32");
	CHECK(crepresentable(F("1e-400"), types[T_FLOAT64], &r) && ciszero(r), "1e-400 rounds to float64 0");
	/* complex constants */
	Const *c1 = parseimaglit(P, "2i"), *c2 = cbinary(P, TK_ADD, cint(1), c1, false);
	eqs(c2, "(1 + 2i)");
	eqs(cbinary(P, TK_MUL, c2, c2, false), "(-3 + 4i)");
	eqs(cbinary(P, TK_QUO, cint(1), parseimaglit(P, "3i"), false), "(0 - 0.333333i)");
	CHECK(ccompare(TK_EQL, cbinary(P, TK_MUL, cbinary(P, TK_QUO, cint(1), c2, false), c2, false), cint(1)), "1/(1+2i)*(1+2i) == 1");
	eqs(crealpart(c2), "1");
	eqs(cimagpart(parseimaglit(P, "0x1p-2i")), "0.25");
	eqs(parseimaglit(P, "0123i"), "(0 + 123i)");
	/* shifts of integral floats */
	eqs(cshift(P, TK_SHL, F("1.0"), 10), "1024");
	eqs(cshift(P, TK_SHR, F("1e600"), 1990), "8");
	eqs(cshift(P, TK_SHR, cunary(P, TK_SUB, F("1e600"), NULL), 1990), "-9");
	/* string concatenation */
	eqs(cbinary(P, TK_ADD, cstring("a", 1), cstring("bc", 2), false), "\"abc\"");
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
