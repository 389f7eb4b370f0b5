/* fuzz_front.c — a libFuzzer target for glc: the lexer, the parser, the
 * type checker, escape analysis and the C emitter run on arbitrary input
 * as one file of package main, in one process, millions of times (the C
 * goes to /dev/null: cc is testdata/fuzz/mutate.py's part).  glc must
 * never crash, hang or leak on any input: it reports errors and goes on.
 *
 *   make fuzz-front          # builds testdata/fuzz/fuzz_front with clang
 *   testdata/fuzz/fuzz_front -max_total_time=600 -timeout=10 corpus/ $(top_srcdir)/testdata/run $(top_srcdir)/testdata/errors
 *
 * Every crash it finds becomes a program in testdata/errors (or run). */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit.h"
#include "parser.h"

/* Imports: only unsafe exists here (loading the standard library for
 * every input would make the fuzzer slow and test the library, not glc). */
Package *importpackage(const char *path, Pos pos) {
	if (!strcmp(path, "unsafe"))
		return unsafepkg;
	errorat(pos, "package %s is not in std", path);
	return NULL;
}

/* runtime.GOROOT's default, which the emitter writes into main's C */
const char *glroot(void) { return "/usr/lib/gl"; }

static FILE *devnull;

/* What glc does after checking a program without errors, up to the
 * file cc would read. */
static void emit(Package *p) {
	vpush(&allpackages, p);
	escapeanalysis();
	emitprepare();
	emitunit(p);
	splitunit(1, 0);
	writepart(p, 0, devnull);
}

/* GMP's memory (exact constants, compiler/const.c) from glc's arena:
 * glc never frees a constant — it lives as long as the compile — so here
 * freeall must take GMP's limbs with everything else, or every input
 * with a float constant would leak them. */
static void *gmpalloc(size_t n) { return xalloc(n); }
static void *gmprealloc(void *p, size_t old, size_t n) {
	(void)old;
	return xrealloc(p, n);
}
static void gmpfree(void *p, size_t n) { /* freeall's */
	(void)p;
	(void)n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
	(void)argc;
	(void)argv;
	mp_set_memory_functions(gmpalloc, gmprealloc, gmpfree);
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	char *src = malloc(size + 1);
	memcpy(src, data, size);
	src[size] = 0; /* the lexer's sentinel */
	inittypes();
	vpush(&srcfiles, "fuzz.gl");
	/* the compiler's global vectors: their arrays went with the last
	 * input's freeall */
	memset(&allpackages, 0, sizeof allpackages);
	memset(&sizedtypes, 0, sizeof sizedtypes);
	emitforget();
	Node *f = parsefile(0, src, size);
	if (!nerrors() && f->name) {
		Package *p = xalloc(sizeof *p);
		p->path = p->name = intern("main");
		vpush(&p->files, f);
		checkpackage(p);
		if (!nerrors())
			emit(p);
	}
	clearerrors();
	freeall();
	free(src);
	return 0;
}
