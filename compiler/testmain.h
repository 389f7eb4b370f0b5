/* testmain.h — glc test's view of a package's tests (testmain.c). */
#ifndef GLC_TESTMAIN_H
#define GLC_TESTMAIN_H

#include "util.h"

typedef struct TestFunc {
	const char *name;
	bool external;        /* in package <name>_test */
	bool hasoutput;       /* an example with an output comment */
	bool unordered;
	const char *output;
} TestFunc;

/* A package under test.  While its test binary is built, importing ipath
 * gives the package with infiles added, and ipath + "_test" the package
 * of xfiles (main.c's importpackage). */
typedef struct TestPkg {
	const char *dir, *ipath;
	Vec infiles, xfiles;             /* paths */
	Vec tests, benchmarks, fuzz, examples; /* TestFunc */
	TestFunc *testmain;              /* TestMain, or NULL */
} TestPkg;

/* Find dir's test files and functions; false if it has none. */
bool scantests(TestPkg *tp);

/* The source of the test binary's main package. */
const char *testmainsource(TestPkg *tp);

#endif
