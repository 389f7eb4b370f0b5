/* testmain.c — glc test: a package's test files, and the main package of
 * its test binary.
 *
 * As go test does, a package directory's *_test.go (or *_test.gl) files
 * are of two kinds: those of the package itself, compiled into it (they
 * see its unexported names), and those of package <name>_test, an
 * external package that imports it.  The test binary's main package is
 * written here, as gl source: it imports both, lists their TestXxx,
 * BenchmarkXxx, FuzzXxx and ExampleXxx functions for package testing, and
 * runs them (or hands them to TestMain).
 *
 * The functions are found in the text, as top-level declarations written
 * the way gofmt writes them: "func TestXxx(t *testing.T) {" at the start
 * of a line.  An example's wanted output is its body's last comment that
 * starts with "Output:" or "Unordered output:", as Go's rule says.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "testmain.h"

static bool endswith(const char *s, const char *suf) {
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static int strcmpp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The name after a prefix, if it is Go's test name: Test, Test_x or
 * TestX (not Testx); NULL if the line declares no such function. */
static const char *testname(const char *line, const char *prefix) {
	size_t n = strlen(prefix);
	if (strncmp(line, "func ", 5) || strncmp(line + 5, prefix, n))
		return NULL;
	const char *p = line + 5 + n;
	if (*p >= 'a' && *p <= 'z')
		return NULL;
	const char *e = line + 5;
	while (*e == '_' || (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9'))
		e++;
	if (*e != '(')
		return NULL;
	return xstrndup(line + 5, (size_t)(e - line - 5));
}

/* The comment text of a line "\t// text", or NULL if it is not a comment. */
static const char *commenttext(const char *line) {
	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, "//", 2))
		return NULL;
	line += 2;
	return *line == ' ' ? line + 1 : line;
}

/* An example's output comment, from the lines of its body. */
static void exampleoutput(char **lines, int from, int n, TestFunc *ex) {
	int end = from;
	while (end < n && strcmp(lines[end], "}"))
		end++;
	for (int i = from; i < end; i++) {
		const char *c = commenttext(lines[i]);
		if (!c)
			continue;
		bool unordered = !strncasecmp(c, "unordered output:", 17);
		if (!unordered && strncasecmp(c, "output:", 7))
			continue;
		Buf b = {0};
		const char *first = c + (unordered ? 17 : 7);
		while (*first == ' ')
			first++;
		bput(&b, first);
		int j = i + 1;
		for (; j < end && commenttext(lines[j]); j++) {
			bputc(&b, '\n');
			bput(&b, commenttext(lines[j]));
		}
		ex->output = bstr(&b); /* the last such comment wins */
		ex->unordered = unordered;
		ex->hasoutput = true;
		i = j - 1;
	}
}

/* Read one test file: its package clause and its test functions. */
static void scanfile(TestPkg *tp, const char *path) {
	size_t len;
	char *src = readwhole(path, &len);
	if (!src)
		return;
	Vec lines = {0};
	for (char *s = src, *nl; s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		vpush(&lines, s);
	}
	char **l = (char **)lines.v;
	bool external = false, self = false; /* self: package testing's own tests, of *T */
	for (int i = 0; i < lines.n; i++)
		if (!strncmp(l[i], "package ", 8)) {
			const char *name = strtok(l[i] + 8, " \t\r/");
			external = endswith(name, "_test");
			self = !strcmp(name, "testing");
			break;
		}
	const char *tparam = self ? " *T)" : "*testing.T)", *bparam = self ? " *B)" : "*testing.B)";
	const char *mparam = self ? " *M)" : "*testing.M)", *fparam = self ? " *F)" : "*testing.F)";
	vpush(external ? &tp->xfiles : &tp->infiles, (void *)path);
	for (int i = 0; i < lines.n; i++) {
		const char *name;
		TestFunc *f = xalloc(sizeof *f);
		f->external = external;
		if (!strncmp(l[i], "func TestMain(", 14) && strstr(l[i], mparam)) {
			tp->testmain = f;
			f->name = "TestMain";
		} else if ((name = testname(l[i], "Test")) && strstr(l[i], tparam)) {
			f->name = name;
			vpush(&tp->tests, f);
		} else if ((name = testname(l[i], "Benchmark")) && strstr(l[i], bparam)) {
			f->name = name;
			vpush(&tp->benchmarks, f);
		} else if ((name = testname(l[i], "Fuzz")) && strstr(l[i], fparam)) {
			f->name = name;
			vpush(&tp->fuzz, f);
		} else if ((name = testname(l[i], "Example")) && strstr(l[i], "()")) {
			f->name = name;
			exampleoutput(l, i + 1, lines.n, f);
			if (f->hasoutput) /* one without is compiled, not run (Go's rule) */
				vpush(&tp->examples, f);
		}
	}
}

bool scantests(TestPkg *tp) {
	DIR *d = opendir(tp->dir);
	if (!d)
		return false;
	Vec files = {0};
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && (endswith(e->d_name, "_test.go") || endswith(e->d_name, "_test.gl")))
			vpush(&files, xprintf("%s/%s", tp->dir, e->d_name));
	closedir(d);
	if (files.n > 1)
		qsort(files.v, files.n, sizeof(void *), strcmpp);
	for (int i = 0; i < files.n; i++)
		scanfile(tp, files.v[i]);
	return files.n > 0;
}

/* the Go string literal of s */
static void quoted(Buf *b, const char *s) {
	bputc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			bprintf(b, "\\%c", *s);
		else if (*s == '\n')
			bput(b, "\\n");
		else if ((unsigned char)*s < ' ')
			bprintf(b, "\\x%02x", (unsigned char)*s);
		else
			bputc(b, *s);
	}
	bputc(b, '"');
}

static bool uses(Vec *fs, bool external) {
	for (int i = 0; i < fs->n; i++)
		if (((TestFunc *)fs->v[i])->external == external)
			return true;
	return false;
}

static void list(Buf *b, const char *var, const char *type, Vec *fs) {
	bprintf(b, "\nvar %s = []testing.%s{\n", var, type);
	bool fuzz = !strcmp(type, "InternalFuzzTarget"); /* its field is Fn, as Go's */
	for (int i = 0; i < fs->n; i++) {
		TestFunc *f = fs->v[i];
		bprintf(b, "\t{Name: \"%s\", %s: %s.%s", f->name, fuzz ? "Fn" : "F", f->external ? "_xtest" : "_test",
		        f->name);
		if (f->hasoutput) {
			bput(b, ", Output: ");
			quoted(b, f->output);
			if (f->unordered)
				bput(b, ", Unordered: true");
		}
		bput(b, "},\n");
	}
	bput(b, "}\n");
}

const char *testmainsource(TestPkg *tp) {
	Buf b = {0};
	bprintf(&b, "// The test binary of %s, written by glc test.\npackage main\n\nimport (\n\t\"os\"\n\t\"testing\"\n",
	        tp->ipath);
	bool in = uses(&tp->tests, false) || uses(&tp->benchmarks, false) || uses(&tp->fuzz, false) ||
	          uses(&tp->examples, false) || (tp->testmain && !tp->testmain->external);
	bool ex = uses(&tp->tests, true) || uses(&tp->benchmarks, true) || uses(&tp->fuzz, true) ||
	          uses(&tp->examples, true) || (tp->testmain && tp->testmain->external);
	bprintf(&b, "\t%s \"%s\"\n", in ? "_test" : "_", tp->ipath);
	if (tp->xfiles.n)
		bprintf(&b, "\t%s \"%s_test\"\n", ex ? "_xtest" : "_", tp->ipath);
	bput(&b, ")\n");
	list(&b, "tests", "InternalTest", &tp->tests);
	list(&b, "benchmarks", "InternalBenchmark", &tp->benchmarks);
	list(&b, "fuzzTargets", "InternalFuzzTarget", &tp->fuzz);
	list(&b, "examples", "InternalExample", &tp->examples);
	bprintf(&b, "\nfunc main() {\n\tm := testing.MainStart(\"%s\", tests, benchmarks, fuzzTargets, examples)\n",
	        tp->ipath);
	if (tp->testmain)
		bprintf(&b, "\t%s.TestMain(m)\n\tos.Exit(testing.MainExitCode(m))\n}\n",
		        tp->testmain->external ? "_xtest" : "_test");
	else
		bput(&b, "\tos.Exit(m.Run())\n}\n");
	return bstr(&b);
}
