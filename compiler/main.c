/* main.c — glc, the gl compiler driver: the commands (usagetext below,
 * and glc help's topics, say what each does).
 *
 * glc build parses and checks the program and the standard library
 * packages it imports (module.c finds a module's packages), runs the
 * escape analysis, writes one C file per package (a large program package
 * is cut into parts compiled in parallel; each library package's object is
 * cached under a key of everything its C depends on), runs the C compiler
 * with the flags of DESIGN.md S6 and glc's stack check (stackcheck.c), and
 * links the runtime library.  glc test writes a test main (testmain.c);
 * glc trace makes a trace into a page (trace.c); glc contract writes the
 * runtime's prototypes (emit.c, writecontract).  glc finds its runtime and
 * standard library relative to its own executable, in the build tree and
 * installed (like Go's GOROOT), or under GLROOT.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "unicode.h"
#include "config.h"
#include "emit.h"
#include "module.h"
#include "testmain.h"
#include "trace.h"
#include "parser.h"

#define GL_VERSION "gl " PACKAGE_VERSION

/* where things are */
static char rootinc[PATH_MAX];  /* directory with gl.h */
static char rootlib[PATH_MAX];  /* directory with libglrt.a */
static char rootstd[PATH_MAX];  /* directory with the stdlib packages */


static void findroot(void) {
	const char *env = getenv("GLROOT");
	if (env && *env) {
		snprintf(rootinc, sizeof rootinc, "%s/include/gl", env);
		snprintf(rootlib, sizeof rootlib, "%s/lib/gl", env);
		snprintf(rootstd, sizeof rootstd, "%s/share/gl/stdlib", env);
		return;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		fatal("cannot find my own executable");
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	*slash = 0;
	/* in the build tree: glc sits next to libglrt.a in the top build dir */
	char probe[PATH_MAX + 32];
	snprintf(probe, sizeof probe, "%s/libglrt.a", exe);
	if (isfile(probe) && !strcmp(exe, GL_BUILD_DIR)) {
		snprintf(rootinc, sizeof rootinc, "%s/runtime", GL_BUILD_SRCDIR);
		snprintf(rootlib, sizeof rootlib, "%s", exe);
		snprintf(rootstd, sizeof rootstd, "%s/stdlib", GL_BUILD_SRCDIR);
		return;
	}
	/* installed: <prefix>/bin/glc, <prefix>/lib/gl, <prefix>/include/gl, <prefix>/share/gl */
	snprintf(rootinc, sizeof rootinc, "%s/../include/gl", exe);
	snprintf(rootlib, sizeof rootlib, "%s/../lib/gl", exe);
	snprintf(rootstd, sizeof rootstd, "%s/../share/gl/stdlib", exe);
}

/* The toolchain's root, for runtime.GOROOT: the directory holding
 * stdlib/ (the source tree in a build tree, <prefix>/share/gl installed). */
const char *glroot(void) {
	static char root[PATH_MAX];
	char *r = realpath(rootstd, NULL);
	snprintf(root, sizeof root, "%s", r ? r : rootstd);
	free(r);
	char *slash = strrchr(root, '/');
	if (slash != NULL && slash != root)
		*slash = 0;
	return root;
}

static Package *newpackage(const char *path, bool std) {
	Package *p = xalloc(sizeof *p);
	p->path = intern(path);
	p->ipath = p->path;
	p->std = std;
	const char *slash = strrchr(path, '/');
	p->name = intern(slash ? slash + 1 : path);
	return p;
}

static const char *basename_(const char *path) {
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Parse files into package p; the package clause must agree.  The
 * standard library's package names are their paths' last elements; the
 * program's packages are named by their first file's clause.  at: the
 * import that asks for the package, where go build reports a directory
 * of two packages (NULL: the command line's package). */
static bool parsefiles(Package *p, Vec *files, const Pos *at) {
	bool ok = true;
	const char *firstfile = NULL;
	for (int i = 0; i < files->n; i++) {
		const char *path = files->v[i];
		size_t len;
		char *src = readwhole(path, &len);
		if (!src) {
			fprintf(stderr, "glc: cannot read %s: %s\n", path, strerror(errno));
			exit(1);
		}
		int id = srcfiles.n;
		vpush(&srcfiles, (void *)path);
		Node *f = parsefile(id, src, len);
		if (!f->name)
			continue;
		if (!firstfile && !p->std) {
			p->name = f->name;
			firstfile = path;
		}
		if (f->name != intern(p->name) && firstfile) { /* go build's words */
			errorat(at ? *at : f->pos, "found packages %s (%s) and %s (%s) in %s", p->name, basename_(firstfile),
			        f->name, basename_(path), xstrndup(path, (size_t)(basename_(path) - path - 1)));
			ok = false;
			continue;
		}
		if (f->name != intern(p->name)) {
			errorat(f->pos, "package %s; expected package %s", f->name, p->name);
			continue;
		}
		vpush(&p->files, f);
	}
	return ok && p->files.n > 0;
}

static Vec loading; /* import cycle detection */
static TestPkg *undertest; /* glc test: the package whose test binary is built */

/* Whether path may be imported, with Go's error (module mode) if not:
 * no characters Go forbids, not relative or absolute, no empty, "." or
 * ".." element.  (A path such as "./fmt" used to load fmt a second time
 * under another name, and the link failed.) */
static bool importpathok(const char *path, Pos pos) {
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		if (*c <= ' ' || *c == 0x7f || strchr("!\"#$%&'()*,:;<=>?[\\]^`{|}", *c)) {
			Buf q = {0}; /* Go's %q: a newline in the path is \n in the message */
			quote(&q, path, (int64_t)strlen(path), false);
			errorat(pos, "invalid import path: %s", bstr(&q));
			return false;
		}
	if (!*path) {
		errorat(pos, "invalid import path: \"\"");
		return false;
	}
	if (!strcmp(path, ".") || !strcmp(path, "..") || !strncmp(path, "./", 2) || !strncmp(path, "../", 3)) {
		errorat(pos, "\"%s\" is relative, but relative import paths are not supported in module mode", path);
		return false;
	}
	if (path[0] == '/') {
		errorat(pos, "\"%s\" is not a package path; see 'go help packages'", path);
		return false;
	}
	const char *why = NULL;
	size_t n = strlen(path);
	if (path[n - 1] == '/')
		why = "trailing slash";
	else if (strstr(path, "//"))
		why = "double slash";
	for (const char *e = path; !why && *e; e = strchr(e, '/') ? strchr(e, '/') + 1 : e + strlen(e)) {
		size_t len = strcspn(e, "/");
		if ((len == 1 && e[0] == '.') || (len == 2 && e[0] == '.' && e[1] == '.'))
			why = xprintf("invalid path element \"%.*s\"", (int)len, e);
	}
	if (why) {
		errorat(pos, "malformed import path \"%s\": %s", path, why);
		return false;
	}
	return true;
}

Package *importpackage(const char *path, Pos pos) {
	if (!strcmp(path, "unsafe"))
		return unsafepkg;
	Package *importer = loading.n ? loading.v[loading.n - 1] : NULL;
	/* before the loaded packages are looked at: fmt may have loaded
	 * internal/fmtsort, which main still may not import */
	if (importer && !internalok(importer->ipath, importer->std, path)) {
		errorat(pos, "use of internal package %s not allowed", path);
		return NULL;
	}
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		if (!strcmp(p->path, path))
			return p;
	}
	for (int i = 0; i < loading.n; i++)
		if (!strcmp(((Package *)loading.v[i])->path, path)) {
			/* go build's chain, from the program down to the repeat */
			Buf chain = {0};
			for (int j = 0; j < loading.n; j++)
				bprintf(&chain, "\n\t%s %s", j ? "imports" : "package", ((Package *)loading.v[j])->ipath);
			bprintf(&chain, "\n\timports %s", path);
			errorat(pos, "import cycle not allowed%s", bstr(&chain));
			return NULL;
		}
	if (!importpathok(path, pos))
		return NULL;
	const char *dir = moduledir(path);
	bool std = !dir;
	if (std)
		dir = xprintf("%s/%s", rootstd, path);
	Vec files = dirfiles(dir);
	bool testing = false; /* the package under test, or its external test package */
	if (undertest && !strcmp(path, undertest->ipath)) {
		for (int i = 0; i < undertest->infiles.n; i++)
			vpush(&files, undertest->infiles.v[i]);
		testing = true;
	} else if (undertest && !strcmp(path, xprintf("%s_test", undertest->ipath))) {
		files = undertest->xfiles;
		std = false;
		testing = true;
	}
	if (!files.n && !strcmp(path, "C")) { /* Go's cgo */
		errorat(pos, "import \"C\" (cgo) is not supported: gl calls C functions declared with //gl:extern (docs/ffi.md)");
		return NULL;
	}
	if (!files.n) {
		if (std && mainmodule.path)
			errorat(pos, "package %s is not in std (%s) nor in module %s", path, rootstd, mainmodule.path);
		else if (std)
			errorat(pos, "package %s is not in std (%s)", path, rootstd);
		else if (isdir(dir))
			errorat(pos, "no Go files in %s", dir);
		else
			errorat(pos, "no required module provides package %s (no directory %s)", path, dir);
		return NULL;
	}
	Package *p = newpackage(path, std);
	vpush(&loading, p);
	int errs = nerrors();
	if (!parsefiles(p, &files, &pos)) {
		loading.n--;
		return NULL;
	}
	if (!std && !testing && p->name == intern("main")) {
		errorat(pos, "import \"%s\" is a program, not an importable package", path);
		loading.n--;
		return NULL;
	}
	if (nerrors() == errs)
		checkpackage(p);
	loading.n--;
	vpush(&allpackages, p);
	return p;
}

/* ---------------------------------------------------------------- commands */

/* ---------------------------------------------------------------- the build cache */

static uint64_t hashbytes(const void *p, size_t n, uint64_t h) {
	const unsigned char *s = p;
	if (!h)
		h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	return h;
}

static uint64_t hashstr(const char *s, uint64_t h) { return hashbytes(s, strlen(s) + 1, h); }

static uint64_t hashfile(const char *path, uint64_t h) {
	size_t len = 0;
	char *s = readwhole(path, &len);
	h = hashstr(path, h);
	return s ? hashbytes(s, len, h) : hashstr("(missing)", h);
}

/* $GLCACHE (off disables it), else $XDG_CACHE_HOME/gl, else ~/.cache/gl. */
static const char *cachedir(void) {
	const char *c = getenv("GLCACHE");
	char *dir;
	if (c && !strcmp(c, "off"))
		return NULL;
	if (c && *c)
		dir = xstrdup(c);
	else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
		dir = xprintf("%s/gl", getenv("XDG_CACHE_HOME"));
	else if (getenv("HOME") && *getenv("HOME"))
		dir = xprintf("%s/.cache/gl", getenv("HOME"));
	else
		dir = xprintf("/tmp/gl-cache-%d", (int)getuid());
	/* make each component */
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(dir, 0755);
			*p = '/';
		}
	mkdir(dir, 0755);
	return isdir(dir) ? dir : NULL;
}

/* A package's key: glc, gl.h and the C flags (base), its path and source
 * files, and the keys of the packages it imports. */
static uint64_t packagekey(Package *p, uint64_t base) {
	if (p->keydone)
		return p->key;
	uint64_t h = hashstr(p->path, base);
	for (int i = 0; i < p->files.n; i++) {
		Node *f = p->files.v[i];
		h = hashfile(srcfiles.v[f->pos.file], h);
		for (int j = 0; j < f->list.n; j++) {
			Node *imp = f->list.v[j];
			for (int k = 0; k < allpackages.n; k++) {
				Package *q = allpackages.v[k];
				if (!strcmp(q->path, imp->lit)) {
					uint64_t qk = packagekey(q, base);
					h = hashbytes(&qk, sizeof qk, h);
				}
			}
		}
	}
	p->key = h;
	p->keydone = true;
	return h;
}

/* Compile jobs (pairs: C file, object) with up to n compilers at once; each
 * object is written under a temporary name and renamed, so a concurrent glc
 * never sees half of it. */
/* cc -fstack-usage writes x.su for the object x.o */
static const char *sufile(const char *obj) {
	size_t n = strlen(obj);
	if (n > 2 && !strcmp(obj + n - 2, ".o"))
		n -= 2;
	return xprintf("%.*s.su", (int)n, obj);
}

/* errs: cc's messages for x.c go to x.c.err instead of glc's stderr */
static int runjobs(Vec *ccargs, Vec *jobs, int n, bool echo, bool errs) {
	int running = 0, failed = 0;
	for (int i = 0; i < jobs->n || running;) {
		if (i < jobs->n && running < n) {
			const char *c = jobs->v[i], *obj = jobs->v[i + 1];
			const char *tmp = xprintf("%s.%d.tmp", obj, (int)getpid());
			Vec argv = {0};
			for (int k = 0; k < ccargs->n; k++)
				vpush(&argv, ccargs->v[k]);
			vpush(&argv, "-c");
			vpush(&argv, "-o");
			vpush(&argv, (void *)tmp);
			vpush(&argv, (void *)c);
			vpush(&argv, NULL);
			if (echo) {
				for (int k = 0; argv.v[k]; k++)
					fprintf(stderr, "%s%s", k ? " " : "", (char *)argv.v[k]);
				fputc('\n', stderr);
			}
			pid_t pid = fork();
			if (pid < 0)
				fatal("fork: %s", strerror(errno));
			if (pid == 0) {
				if (errs) {
					int fd = open(xprintf("%s.err", c), O_WRONLY | O_CREAT | O_TRUNC, 0644);
					if (fd >= 0)
						dup2(fd, 2);
				}
				execvp(((char **)argv.v)[0], (char **)argv.v);
				_exit(127);
			}
			jobs->v[i] = (void *)xprintf("%d", (int)pid); /* remember which */
			jobs->v[i + 1] = (void *)xprintf("%s\n%s", tmp, obj);
			i += 2;
			running++;
			continue;
		}
		int st;
		pid_t pid = wait(&st);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		running--;
		for (int k = 0; k < i; k += 2)
			if (atoi(jobs->v[k]) == pid) {
				char *names = jobs->v[k + 1], *nl = strchr(names, '\n');
				*nl = 0;
				/* cc named it after the temporary object x.o.PID.tmp */
				const char *su = xprintf("%.*s.su", (int)(strlen(names) - 4), names);
				if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
					rename(su, sufile(nl + 1));
					rename(names, nl + 1);
				} else {
					unlink(names);
					unlink(su);
					failed = 1;
				}
			}
	}
	return failed;
}

static void pushwords(Vec *v, const char *s);

/* A function whose C frame is too large to run before its stack check is
 * most often gcc's code sinking and small-function inlining at work
 * (configure.ac, GL_BIGFRAME_CFLAGS): the C files that hold such functions
 * are compiled again without them, before stackcheck judges.  Only with
 * the C compiler glc was configured for (a GLCC may not know the flags).
 * Returns cc's failure, else 0. */
static int bigframes(Package *p, Vec *sus, Vec *ccargs, Vec *jobs, int n, bool echo) {
	const char *cc = getenv("GLCC");
	if (!*GL_BIGFRAME_CFLAGS || (cc && *cc && strcmp(cc, GL_CC)))
		return 0;
	Vec big = {0}, again = {0};
	stackbigframes(p, sus, &big);
	for (int i = 0; i < big.n; i++)
		for (int k = 0; k + 1 < jobs->n; k += 2)
			if (!strcmp(sufile(jobs->v[k + 1]), big.v[i])) {
				vpush(&again, jobs->v[k]);
				vpush(&again, jobs->v[k + 1]);
			}
	if (!again.n)
		return 0;
	Vec args = {0};
	for (int i = 0; i < ccargs->n; i++)
		vpush(&args, ccargs->v[i]);
	pushwords(&args, GL_BIGFRAME_CFLAGS);
	int rc = runjobs(&args, &again, n, echo, false);
	stackreset(p);
	return rc;
}

static const char usagetext[] =
	"usage: glc build [-o output] [-p n] [-work] [-x] [-m] [-O0|-O1|-O2] [-gc=boehm] [file.gl... | dir | packages]\n"
	"       glc run [-p n] [-work] [-x] [-m] [-gc=boehm] file.gl... | dir [arguments...]\n"
	"       glc list [packages]\n"
	"       glc test [-v] [-run re] [-bench re] [-benchtime d|Nx] [-benchmem] [-count n] [-cpu list] [-failfast] [-list re] [-short] [-shuffle off|on|n] [-timeout d] [packages]\n"
	"       glc trace [-o output.html] trace.json\n"
	"       glc env [NAME...]\n"
	"       glc contract [-stdlib dir] [-o header.h]\n"
	"       glc version\n"
	"       glc help [build | run | list | test | modules | env | environment | gldebug | trace | contract]\n";

static int usage(void) {
	fputs(usagetext, stderr);
	return 2;
}

/* glc help TOPIC: what each says (the README says the same at more
 * length). */
static const struct {
	const char *topic, *text;
} helptexts[] = {
	{"build",
	 "glc build [-o output] [-p n] [-work] [-x] [-m] [-O0|-O1|-O2] [-gc=boehm] [file.gl... | dir | packages]\n\n"
	 "Compiles package main from the files named (.gl or .go), or from the .gl and .go files of a\n"
	 "directory (not *_test files; default: the current directory), into an executable named after\n"
	 "the first file or the directory, or -o's name (a directory, or a name ending in /, gets the\n"
	 "default name inside it; missing directories are made; -o /dev/null writes nothing).  In a module\n"
	 "(glc help modules), a package that is not a program is compiled and nothing is written, and\n"
	 "several packages (dir/..., several directories) are each compiled and nothing is written.\n"
	 "Exit 1 on compile errors (file:line:col: message), 2 on usage errors.\n\n"
	 "  -p n    run at most n C compilers at once (default: the CPUs, as go build's -p)\n"
	 "  -work   keep the generated C and print where (WORK=dir)\n"
	 "  -x      print the commands\n"
	 "  -m      print the escape analysis's decisions, as Go's -gcflags=-m\n"
	 "  -O0..-O2  the C compiler's optimisation (default -O2)\n"
	 "  -gc=boehm link the runtime whose heap is the Boehm GC (a gl configured --with-gc=boehm;\n"
	 "          for comparison with gl's own collector, docs/gc.md)\n"},
	{"run",
	 "glc run [-p n] [-work] [-x] [-m] [-gc=boehm] file.gl... | dir [arguments...]\n\n"
	 "Builds as glc build does, into a temporary directory, and runs the program with the\n"
	 "arguments; its exit status is glc's.\n"},
	{"list",
	 "glc list [dir | dir/... | import/path ...]\n\n"
	 "Prints the import paths of the packages named (default: the current directory's), one a\n"
	 "line, as go list; dir/... is dir and the package directories below it (not testdata, not\n"
	 "names starting with . or _, not other modules).  Needs a go.mod (glc help modules).\n"},
	{"test",
	 "glc test [-v] [-run re] [-bench re] [-benchtime d|Nx] [-benchmem] [-count n] [-cpu list] [-failfast] [-list re] [-short] [-shuffle off|on|n] [-timeout d] [packages]\n\n"
	 "Builds a test binary for each package named (default: the current directory) from its\n"
	 "*_test.go and *_test.gl files — of the package itself, and of an external package\n"
	 "<name>_test — and runs it in the package's directory, printing what go test prints:\n"
	 "ok or FAIL lines, and with -v (or in the directory, or on failure) the tests' output.\n"
	 "TestXxx(*testing.T), BenchmarkXxx(*testing.B), ExampleXxx with an Output: comment and\n"
	 "TestMain(*testing.M), as Go.  FuzzXxx(*testing.F) runs its seed corpus (F.Add's inputs\n"
	 "and testdata/fuzz/FuzzXxx's files) as subtests, as go test without -fuzz; -fuzz is not\n"
	 "supported.  -run and -bench are Go's regular expressions (package regexp), one per\n"
	 "/-separated level of names.  Needs a go.mod (glc help modules), but for the standard\n"
	 "library's packages.\n"
	 "glc build's -x -work -m -O -gc=boehm apply.\n"},
	{"modules",
	 "A module is a directory tree with a go.mod at its root:\n\n"
	 "    module example.com/hello\n"
	 "    go 1.19\n\n"
	 "An import path below the module's path names the directory below the root\n"
	 "(example.com/hello/greet is greet/); every other path is the standard library's.  glc\n"
	 "finds go.mod in the program's directory or above it; without one, a program is one\n"
	 "package.  gl fetches no module, so require lines are an error.  Packages are cached by\n"
	 "content in GLCACHE, as the standard library's.\n"},
	{"env",
	 "glc env [NAME...]\n\n"
	 "Prints where glc finds its runtime and standard library and how it compiles C, as\n"
	 "NAME=\"value\" lines; with names, only their values, one a line.\n"},
	{"environment",
	 "For glc:\n"
	 "  GLROOT      the install root (include/gl, lib/gl, share/gl/stdlib); default: beside glc\n"
	 "  GLCACHE     the package cache (default ~/.cache/gl); off: no cache\n"
	 "  GLCC        the C compiler for generated code (default: the one gl was built with)\n"
	 "  GLFLAGS     flags for every glc build and run, before the command line's (as GOFLAGS):\n"
	 "              GLFLAGS=-gc=boehm builds everything on the Boehm comparison runtime\n"
	 "  TMPDIR      where work directories go\n"
	 "For programs (Go's knobs with a GL prefix):\n"
	 "  GLMAXPROCS  Ps (default: the CPUs in the affinity mask)\n"
	 "  GLGC        the collector's goal percentage, or off (as GOGC)\n"
	 "  GLMEMLIMIT  a soft memory limit: n[B|KiB|MiB|GiB|TiB] or off (as GOMEMLIMIT)\n"
	 "  GLTRACEBACK none|single|all|system|crash (as GOTRACEBACK)\n"
	 "  GLDEBUG     name=value,... (glc help gldebug)\n"},
	{"gldebug",
	 "GLDEBUG=name=value,... (as GODEBUG):\n"
	 "  schedtrace=ms, scheddetail=1   Go's SCHED lines\n"
	 "  gctrace=1                      a line per collection, Go's format\n"
	 "  gcpacertrace=1                 a line per cycle on how its mark ended\n"
	 "  scavtrace=1                    the scavenger's line per cycle\n"
	 "  gcstress=N                     a collection every N allocations\n"
	 "  clobberfree=1, gccheckmark=1   poison freed objects; check marking\n"
	 "  gcstoptheworld=1               mark with the world stopped (2: sweep in the pause too)\n"
	 "  gcshrinkstackoff=1             collections do not shrink stacks\n"
	 "  stackforcemove=1 (or N)        move the stack at every function entry and park\n"
	 "  stacktrace=1                   a line per stack copy\n"
	 "  adaptivestackstart=1 (or site) new goroutines' stacks start at the last GC's average\n"
	 "                                 stack (Go's), or at what their go statement's needed (gl's)\n"
	 "  asyncpreemptoff=1              no preemption by signal\n"
	 "  preemptpacing=fixed            suspendG resends SIGURG as Go does\n"
	 "  cpu.popcnt=off                 bits.OnesCount without POPCNT\n"
	 "  cpu.fma=off                    math.FMA without VFMADD231SD (libm's fma)\n"
	 "  wbforce=1                      the write barrier on all the time (its slow paths)\n"
	 "  wbshadow=1                     check that every heap pointer store had the barrier\n"
	 "  lockrank=1                     check the runtime's lock order at every lock (2: print the pairs)\n"
	 "  trace=FILE                     an execution trace, written at exit (docs/trace.md)\n"
	 "  mutexpolicy=go                 sync.Mutex as Go's (default: adaptive, docs/mutex.md)\n"
	 "  mutexstats=1                   sync.MutexCounters counts every acquisition by path\n"
	 "  runnextsleep=us                a thief's pause before taking a running P's runnext (3)\n"
	 "  ffilibffi=1                    C calls through libffi's ffi_call, not glc's call stubs\n"
	 "  tracebackancestors=N, invalidptr=0, madvdontneed=1, efence=1\n"},
	{"contract",
	 "glc contract [-stdlib dir] [-o header.h]\n\n"
	 "Writes the C header of the contract between the standard library and the runtime: the\n"
	 "prototype of every function the library declares without a body (the runtime defines it\n"
	 "in C), the layouts of the structs those functions take, and, for each gl type that mirrors\n"
	 "one of the runtime's structs (//gl:ctype Name above its declaration), checks that the two\n"
	 "layouts agree field by field.  make runs it before compiling the runtime, whose rt.h\n"
	 "includes the header, so a runtime function or struct that disagrees with the library is a\n"
	 "C compile error.  -stdlib names the library's directory (default: this glc's); the header\n"
	 "goes to standard output, or to -o's file.  Exit 1 if the library does not compile.\n"},
	{"trace",
	 "glc trace [-o output.html] trace.json\n\n"
	 "A program run with GLDEBUG=trace=FILE writes an execution trace of its goroutines, Ps,\n"
	 "Ms and collections to FILE, in Chrome's trace-event JSON (which Perfetto and\n"
	 "chrome://tracing open too).  glc trace makes it into one HTML page that draws it and\n"
	 "needs no network (no scripts, fonts or styles from elsewhere): open it in a browser.\n"
	 "The page is written to trace.json's name with .json replaced by .html (FILE.html for a\n"
	 "name that does not end in .json), beside it, or to -o's name.\n\n"
	 "The page shows a row per P, M, goroutine and GC track, each span coloured by its state\n"
	 "(a legend says which), instant events as marks, arrows from the goroutine that made\n"
	 "another runnable to it, and a time axis.  The mouse wheel zooms around the pointer,\n"
	 "dragging pans, hovering shows an event's name, start, duration and arguments.\n"
	 "Exit 1 if the file cannot be read or is not a trace (glc: trace: FILE: why), 2 on\n"
	 "usage errors.  docs/trace.md says more.\n"},
};

static int help(int argc, char **argv) {
	if (argc < 1) {
		fputs(usagetext, stdout);
		fputs("\nglc help TOPIC says more; topics: build run list test modules env environment gldebug trace contract\n", stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof helptexts / sizeof helptexts[0]; i++)
		if (!strcmp(argv[0], helptexts[i].topic)) {
			fputs(helptexts[i].text, stdout);
			return 0;
		}
	fprintf(stderr, "glc help %s: unknown help topic; topics: build run list test modules env environment gldebug trace contract\n", argv[0]);
	return 2;
}

typedef struct Opts {
	const char *out;
	bool work;
	bool x;
	bool m;
	bool checkstores;
	bool boehm; /* -gc=boehm: link the comparison runtime (libglrt_boehm.a) */
	bool nolink; /* glc build of packages that are not programs: compile, write nothing */
	const char *mainipath; /* glc test: the test binary's main package's import path */
	const char *opt;
	int procs; /* -p: C compilers at once (0: one per CPU) */
	Vec flags; /* the flags as written (not -o), for the builds of a pattern's packages */
	Vec inputs;
	Vec args;
} Opts;

static char workdir[PATH_MAX];

static int checkstoresdone(Opts *o, Vec *cfiles, Vec *chks, int rc);
static const char *outputname(Opts *o);

static void rmworkdir(bool keep);

/* Killed (Ctrl-C, kill, a closed terminal): the work directory goes
 * before glc does, unless -work asked to keep it; then the signal's
 * default action.  Only async-signal-safe calls here (glc may be inside
 * malloc): rm -rf in a child, by fork and execve. */
static bool keepwork;

static void onkill(int sig) {
	if (!keepwork && workdir[0]) {
		pid_t pid = fork();
		if (pid == 0) {
			char *argv[] = {"rm", "-rf", workdir, NULL};
			char *envp[] = {NULL};
			execve("/bin/rm", argv, envp);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* $TMPDIR, or /tmp: where glc's temporary files go */
static const char *tmpdir(void) {
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

/* cc failed on C that glc wrote: glc's bug, the C kept for its report */
static int ccrejected(void) {
	fprintf(stderr, "glc: internal error: the C compiler rejected the generated code (kept in %s)\n", workdir);
	return 3;
}

static void mkworkdir(void) {
	snprintf(workdir, sizeof workdir, "%s/glc-XXXXXX", tmpdir());
	if (!mkdtemp(workdir))
		fatal("cannot create a work directory: %s", strerror(errno));
	signal(SIGINT, onkill);
	signal(SIGTERM, onkill);
	signal(SIGHUP, onkill);
}

static void rmworkdir(bool keep) {
	if (!workdir[0])
		return;
	if (keep) {
		fprintf(stderr, "WORK=%s\n", workdir);
		return;
	}
	Vec f = {0};
	DIR *d = opendir(workdir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				vpush(&f, xprintf("%s/%s", workdir, e->d_name));
		closedir(d);
	}
	for (int i = 0; i < f.n; i++)
		unlink(f.v[i]);
	rmdir(workdir);
}

static pid_t spawn(char **argv, const char *dir, int fd);
static int waitchild(pid_t pid);

static int runcmd(char **argv, bool echo) {
	if (echo) {
		for (char **a = argv; *a; a++)
			fprintf(stderr, "%s%s", a == argv ? "" : " ", *a);
		fputc('\n', stderr);
	}
	return waitchild(spawn(argv, NULL, -1));
}

/* The exit status of child pid: its code, or 128 + the signal that killed it. */
static int waitchild(pid_t pid) {
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			fatal("waitpid: %s", strerror(errno));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Split a flag string ("-a -b") into argv entries. */
static void pushwords(Vec *v, const char *s) {
	char *c = xstrdup(s);
	for (char *t = strtok(c, " \t"); t; t = strtok(NULL, " \t"))
		vpush(v, t);
}

/* The source files o names (a directory's, or the files themselves) into
 * files; 0, or glc's exit status for a usage or file error. */
static int inputfiles(Opts *o, Vec *files) {
	if (!o->inputs.n) {
		fputs("glc: no input files\n", stderr);
		return 2;
	}
	const char *first = o->inputs.v[0];
	if (o->inputs.n == 1 && !isdir(first) && !issource(first) && first[0] != '.' && first[0] != '/') {
		/* an import path of the module: its directory (go build example.com/hello/cmd/tool) */
		if (!mainmodule.path && !loadmodule("."))
			flusherrors();
		if (moduledir(first) && isdir(moduledir(first)))
			o->inputs.v[0] = (void *)moduledir(first);
	}
	if (o->inputs.n == 1 && isdir(o->inputs.v[0])) {
		*files = dirfiles(o->inputs.v[0]);
		if (!files->n) {
			fprintf(stderr, "glc: no .gl or .go files in %s\n", (char *)o->inputs.v[0]);
			return 1;
		}
	} else {
		for (int i = 0; i < o->inputs.n; i++) {
			const char *f = o->inputs.v[i];
			if (!issource(f)) {
				fprintf(stderr, isfile(f) ? "glc: %s: not a .gl or .go file\n" :
				                "glc: %s: no such file or directory\n", f);
				return isfile(f) ? 2 : 1;
			}
			if (!isfile(f)) {
				fprintf(stderr, "glc: %s: no such file\n", f);
				return 1;
			}
			vpush(files, (void *)f);
		}
	}
	return 0;
}

/* The C compiler's command line for one package (without -c -o and the
 * file). */
static void ccargsfor(Opts *o, Vec *ccargs) {
	const char *cc = getenv("GLCC");
	pushwords(ccargs, cc && *cc ? cc : GL_CC);
	pushwords(ccargs, GL_CFLAGS);
	vpush(ccargs, (void *)(o->opt ? o->opt : "-O2"));
	if (o->checkstores) {
		/* only cc's front end, and only the errors that say a heap store
		 * bypassed store(): a const pointer written through, passed where
		 * something may write, or cast to a mutable one */
		vpush(ccargs, "-DGL_CHECKSTORES");
		vpush(ccargs, "-fsyntax-only");
		vpush(ccargs, "-Werror=discarded-qualifiers");
		vpush(ccargs, "-Werror=cast-qual");
	} else
		/* generated code is checked by glc; cc's warnings are not the user's */
		vpush(ccargs, "-w");
	/* a call in tail position must keep its caller's frame in tracebacks */
	vpush(ccargs, "-fno-optimize-sibling-calls");
	/* functions start on 32-byte boundaries, as Go's (its funcAlign): at
	 * gcc's 16, where a small hot function lands moves with the size of
	 * everything linked before it, and so does its speed — fib(35) took
	 * 45 ms at one offset and 36 at another, the same code (2026-12-07;
	 * 39 ms at 32, 37 at 64; fmt's program has 3.4% more text at 32,
	 * 11% at 64) */
	vpush(ccargs, "-falign-functions=32");
	vpush(ccargs, "-std=gnu11");
	/* the C frame sizes, for the reserve-band check (stackcheck.c) */
	vpush(ccargs, "-fstack-usage");
	vpush(ccargs, xprintf("-I%s", rootinc));
}

/* The libraries a -gc=boehm program links besides libglrt_boehm.a (the
 * Boehm GC's, as pkg-config gave them to configure). */
static const char *boehmlibs(void) {
#ifdef GL_BOEHM_LIBS
	return GL_BOEHM_LIBS;
#else
	return "-lgc";
#endif
}

/* errno's text as Go's os errors say it: "no such file or directory" */
static const char *goerrstr(int err) {
	char *s = xstrdup(strerror(err));
	if (s[0] >= 'A' && s[0] <= 'Z' && (s[1] < 'A' || s[1] > 'Z'))
		s[0] = (char)(s[0] - 'A' + 'a');
	return s;
}

/* Move (or copy, across file systems) the linked program to exe; 0, or 1
 * with go build's message. */
static int placeexe(const char *linked, const char *exe) {
	if (rename(linked, exe) == 0)
		return 0;
	int err = errno, in = -1, out = -1; /* errno now: the calls below may change it */
	if (err == EXDEV) { /* another file system: copy */
		in = open(linked, O_RDONLY);
		out = in < 0 ? -1 : open(exe, O_WRONLY | O_CREAT | O_TRUNC, 0777);
		err = errno;
	}
	if (out < 0) {
		fprintf(stderr, "glc: copying %s: open %s: %s\n", linked, exe, goerrstr(err));
		if (in >= 0)
			close(in);
		return 1;
	}
	char buf[1 << 16];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	err = errno;
	close(in);
	if (close(out) || n < 0) {
		fprintf(stderr, "glc: copying %s to %s: %s\n", linked, exe, goerrstr(err));
		unlink(exe);
		return 1;
	}
	return 0;
}

/* Link the objects with the runtime into exe; 0, or 3 if the linker failed. */
static int linkexe(Opts *o, const char *exe, Vec *objs) {
	const char *cc = getenv("GLCC");
	Vec argv = {0};
	pushwords(&argv, cc && *cc ? cc : GL_CC);
	vpush(&argv, "-o");
	vpush(&argv, (void *)exe);
	for (int i = 0; i < objs->n; i++)
		vpush(&argv, objs->v[i]);
	if (o->boehm) {
		/* the same objects: generated code does not know which heap it has */
		vpush(&argv, xprintf("%s/libglrt_boehm.a", rootlib));
		pushwords(&argv, boehmlibs());
	} else
		vpush(&argv, xprintf("%s/libglrt.a", rootlib));
	vpush(&argv, "-lpthread");
	vpush(&argv, "-lm");
	/* libffi and the dynamic loader for //gl:extern (runtime/ffi.c), only
	 * in a program that calls C: --as-needed drops them otherwise */
	vpush(&argv, "-Wl,--as-needed");
	pushwords(&argv, GL_FFI_LIBS);
	vpush(&argv, "-ldl");
	vpush(&argv, "-Wl,--no-as-needed");
	/* bind libc symbols at load time: the lazy resolver's first call saves
	 * the whole vector state (about 3 KB) on whatever stack it runs on,
	 * more than a goroutine stack's reserve band */
	vpush(&argv, "-Wl,-z,now");
	/* a fixed address, as Go's default build mode (exe, not pie): package
	 * variables lie low, where Go's test/nilptr.go expects them */
	vpush(&argv, "-no-pie");
	vpush(&argv, NULL);
	if (runcmd((char **)argv.v, o->x)) {
		fprintf(stderr, "glc: internal error: linking failed (kept in %s)\n", workdir);
		return 3;
	}
	return 0;
}

static int compile(Opts *o, const char *exe) {
	if (o->boehm && !isfile(xprintf("%s/libglrt_boehm.a", rootlib))) {
		fprintf(stderr, "glc: -gc=boehm: %s/libglrt_boehm.a does not exist: "
			"this gl was configured without --with-gc=boehm\n", rootlib);
		return 2;
	}
	Vec files = {0};
	int rc = inputfiles(o, &files);
	if (rc)
		return rc;
	/* the module (go.mod) of the directory the program is in */
	const char *maindir = isdir(o->inputs.v[0]) ? o->inputs.v[0] : xstrndup(files.v[0], (size_t)(basename_(files.v[0]) - (char *)files.v[0]));
	if (!*maindir)
		maindir = ".";
	if (!mainmodule.path && !loadmodule(maindir))
		flusherrors();
	inittypes();
	Package *mainpkg = newpackage("main", false);
	const char *ip = o->mainipath ? o->mainipath : moduleimportpath(maindir);
	mainpkg->ipath = ip ? intern(ip) : "command-line-arguments";
	vpush(&loading, mainpkg);
	parsefiles(mainpkg, &files, NULL);
	flusherrors();
	if (strcmp(mainpkg->name, "main") && ip && !exe && !o->mainipath) {
		/* glc build of a package of the module that is not a program: go
		 * build compiles it (and what it imports) and writes nothing */
		mainpkg->path = mainpkg->ipath;
		o->nolink = true;
	} else if (strcmp(mainpkg->name, "main")) { /* at the package clause, as a compile error */
		Node *f0 = mainpkg->files.v[0];
		errorat(f0->pos, "package %s is not a main package", mainpkg->name);
		flusherrors();
	}
	checkpackage(mainpkg);
	loading.n--;
	vpush(&allpackages, mainpkg);
	flusherrors();

	escapeanalysis();
	if (o->m) {
		/* Go's -m: the decisions, as diagnostics (printed, not errors) */
		escapereport();
		printerrors();
	}
	mkworkdir();
	emitprepare();

	Vec ccargs = {0};
	ccargsfor(o, &ccargs);

	/* one C file per package; each package's object is cached under a key
	 * made of everything its C depends on */
	uint64_t base = hashfile("/proc/self/exe", 0);
	base = hashfile(xprintf("%s/gl.h", rootinc), base);
	for (int i = 0; i < ccargs.n; i++)
		if (strncmp(ccargs.v[i], "-I", 2)) /* gl.h's place is not in the key: its text is */
			base = hashstr(ccargs.v[i], base);
	const char *cache = cachedir();
	long ncpu = o->procs > 0 ? o->procs : sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	/* GLCPARTS=n cuts every uncached package into n parts (a test of the
	 * cutting); otherwise parts of at least 256 KB of C, one per CPU
	 * (about 0.5 s of cc -O2 each) */
	const char *forceparts = getenv("GLCPARTS");
	Vec objs = {0}, jobs = {0}, chks = {0};
	Vec *pkgobjs = xalloc(allpackages.n * sizeof *pkgobjs);
	const char **stks = xalloc(allpackages.n * sizeof *stks);
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		uint64_t key = packagekey(p, base);
		/* the standard library is cached; the program itself is not (every
		 * test program would stay in the cache forever) */
		bool cached = cache && strcmp(p->path, "main") != 0;
		const char *obj = cached ? xprintf("%s/%016llx.o", cache, (unsigned long long)key) : NULL;
		if (o->checkstores) {
			/* a package that passed the check has a marker under its key */
			const char *chk = cached ? xprintf("%s/%016llx.chk", cache, (unsigned long long)key) : NULL;
			if (chk && isfile(chk))
				continue;
			emitunit(p);
			splitunit(1, 0);
			const char *cpath = xprintf("%s/%s.c", workdir, p->cprefix);
			FILE *out = fopen(cpath, "w");
			if (!out)
				fatal("cannot write %s: %s", cpath, strerror(errno));
			writepart(p, 0, out);
			if (fclose(out))
				fatal("cannot write %s: %s", cpath, strerror(errno));
			vpush(&jobs, (void *)cpath);
			vpush(&jobs, (void *)xprintf("%s.o", cpath));
			vpush(&chks, (void *)(chk ? chk : ""));
			continue;
		}
		/* .stk is written once the package passed the stack check */
		stks[i] = cached ? xprintf("%s/%016llx.stk", cache, (unsigned long long)key) : NULL;
		/* the standard library as make compiled it (the build tree's pkg/,
		 * or lib/gl/pkg installed), read only and looked at first */
		const char *preobj = xprintf("%s/pkg/%016llx.o", rootlib, (unsigned long long)key);
		const char *prestk = xprintf("%s/pkg/%016llx.stk", rootlib, (unsigned long long)key);
		if (cached && !o->work && isfile(preobj) && isfile(prestk)) {
			vpush(&objs, (void *)preobj);
			stks[i] = prestk;
			continue;
		}
		bool have = cached && isfile(obj) && isfile(stks[i]);
		if (have && !o->work) {
			vpush(&objs, (void *)obj);
			continue;
		}
		emitunit(p);
		/* a cached package stays one object; packages compile in
		 * parallel with each other anyway */
		int n = 1;
		if (!cached)
			n = forceparts && *forceparts ? splitunit(atoi(forceparts), 0) : splitunit((int)ncpu, 256 << 10);
		else
			splitunit(1, 0);
		for (int part = 0; part < n; part++) {
			const char *stem = n > 1 ? xprintf("%s/%s.%d", workdir, p->cprefix, part) : xprintf("%s/%s", workdir, p->cprefix);
			const char *cpath = xprintf("%s.c", stem);
			FILE *out = fopen(cpath, "w");
			if (!out)
				fatal("cannot write %s: %s", cpath, strerror(errno));
			writepart(p, part, out);
			if (fclose(out))
				fatal("cannot write %s: %s", cpath, strerror(errno));
			if (!cached)
				obj = xprintf("%s.o", stem);
			vpush(&objs, (void *)obj);
			vpush(&pkgobjs[i], (void *)obj);
			if (!have) {
				vpush(&jobs, (void *)cpath);
				vpush(&jobs, (void *)obj);
			}
		}
	}
	if (nerrors()) {
		rmworkdir(o->work);
		flusherrors();
	}
	/* compile what is missing, as many at once as there are CPUs */
	Vec cfiles = {0}, built = {0}; /* runjobs uses up jobs */
	for (int i = 0; i < jobs.n; i += 2)
		vpush(&cfiles, jobs.v[i]);
	for (int i = 0; i < jobs.n; i++)
		vpush(&built, jobs.v[i]);
	rc = runjobs(&ccargs, &jobs, (int)ncpu, o->x, o->checkstores);
	if (o->checkstores)
		return checkstoresdone(o, &cfiles, &chks, rc);
	if (rc)
		return ccrejected();
	/* in import order, so that a nosplit chain into another package
	 * finds that package's entry sizes */
	for (int i = 0; i < allpackages.n; i++) {
		if (!pkgobjs[i].n) {
			stackload(allpackages.v[i], stks[i]);
			continue;
		}
		Vec sus = {0};
		for (int k = 0; k < pkgobjs[i].n; k++)
			vpush(&sus, (void *)sufile(pkgobjs[i].v[k]));
		if (bigframes(allpackages.v[i], &sus, &ccargs, &built, (int)ncpu, o->x))
			return ccrejected();
		stackcheck(allpackages.v[i], &sus, stks[i]);
	}
	if (nerrors()) {
		rmworkdir(o->work);
		flusherrors();
	}
	if (o->nolink || (o->out && !strcmp(o->out, "/dev/null"))) /* go build -o /dev/null: check and compile only */
		return 0;
	if (!exe && !(exe = outputname(o)))
		return 1;
	/* linked in the work directory, then put in place: a destination that
	 * cannot be written is go build's one-line error, not a failed link */
	const char *linked = xprintf("%s/a.out", workdir);
	if ((rc = linkexe(o, linked, &objs)))
		return rc;
	return placeexe(linked, exe);
}

/* glc build -d=checkstores: cc's front end has read each package's C
 * (written with const pointers, ctype) and rejected any store into memory
 * reached through a pointer that bypasses store().  Prints cc's errors, and
 * marks the packages that passed in the cache. */
static int checkstoresdone(Opts *o, Vec *cfiles, Vec *chks, int rc) {
	int nerr = 0;
	for (int i = 0; i < cfiles->n; i++) {
		size_t len;
		char *msg = readwhole(xprintf("%s.err", (char *)cfiles->v[i]), &len);
		bool failed = false;
		for (char *l = msg; l && *l;) {
			char *nl = strchr(l, '\n');
			if (nl)
				*nl = 0;
			if (strstr(l, "error:")) {
				failed = true;
				nerr++;
				fprintf(stderr, "%s\n", l);
				if (nl && nl[1]) { /* the line of C it is about */
					char *nl2 = strchr(nl + 1, '\n');
					fprintf(stderr, "%.*s\n", nl2 ? (int)(nl2 - nl - 1) : (int)strlen(nl + 1), nl + 1);
				}
			}
			l = nl ? nl + 1 : l + strlen(l);
		}
		const char *chk = chks->v[i];
		if (!failed && *chk) {
			FILE *f = fopen(chk, "w");
			if (f)
				fclose(f);
		}
	}
	rmworkdir(o->work);
	if (rc || nerr) {
		fprintf(stderr, "glc: -d=checkstores: %d stores or hand-overs of heap memory bypass store() (cc's errors above)\n", nerr);
		return 1;
	}
	return 0;
}

static int parseopts(int argc, char **argv, Opts *o, bool run) {
	int i = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") && !run) {
			if (++i >= argc)
				return usage();
			o->out = argv[i];
		} else if (!strcmp(a, "-work") || !strcmp(a, "-keep-c")) {
			o->work = keepwork = true;
		} else if (!strcmp(a, "-x")) {
			o->x = true;
		} else if (!strcmp(a, "-m")) {
			o->m = true;
		} else if (!strcmp(a, "-d=checkstores") && !run) {
			o->checkstores = checkstores = true;
		} else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3")) {
			o->opt = a;
		} else if (!strcmp(a, "-p") || !strncmp(a, "-p=", 3)) {
			/* -p n or -p=n; kept as -p=n in flags, one word */
			const char *v = a[2] == '=' ? a + 3 : ++i < argc ? argv[i] : NULL;
			if (!v)
				return usage();
			char *end;
			long n = strtol(v, &end, 10);
			if (!*v || *end) {
				fprintf(stderr, "glc: invalid value \"%s\" for flag -p: parse error\n", v);
				return usage();
			}
			if (n < 1 || n > 4096) {
				fprintf(stderr, "glc: -p must be positive, got %ld\n", n);
				return 2;
			}
			o->procs = (int)n;
			a = xprintf("-p=%ld", n);
		} else if (!strcmp(a, "-gc=boehm")) {
			o->boehm = true;
		} else if (!strcmp(a, "-gc=gl")) {
			o->boehm = false;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "glc: unknown flag %s\n", a);
			return usage();
		} else
			break;
		if (strcmp(a, "-o"))
			vpush(&o->flags, (void *)a);
	}
	for (; i < argc; i++) {
		const char *a = argv[i];
		size_t n = strlen(a);
		(void)n;
		bool src = issource(a) || (!o->inputs.n && isdir(a));
		if (run && o->inputs.n && !src) {
			/* the rest are the program's arguments */
			for (; i < argc; i++)
				vpush(&o->args, argv[i]);
			break;
		}
		if (run && o->inputs.n && isdir(o->inputs.v[0])) {
			for (; i < argc; i++)
				vpush(&o->args, argv[i]);
			break;
		}
		vpush(&o->inputs, argv[i]);
	}
	return 0;
}

/* GLFLAGS (Go's GOFLAGS): flags for every glc build and run, words
 * separated by spaces, applied before the command line's (which so
 * override them: -gc=gl undoes -gc=boehm).  Only flags, and none that
 * takes a separate argument (-o). */
static int envflags(Opts *o, bool run) {
	const char *env = getenv("GLFLAGS");
	if (!env)
		return 0;
	char *words = xstrdup(env);
	for (char *w = strtok(words, " \t\n"); w; w = strtok(NULL, " \t\n")) {
		if (w[0] != '-' || !strcmp(w, "-o")) {
			fprintf(stderr, "glc: GLFLAGS: %s is not a flag glc build and run take\n", w);
			return 2;
		}
		char *one[1] = {w};
		if (parseopts(1, one, o, run)) {
			fprintf(stderr, "glc: (the flag is in GLFLAGS)\n");
			return 2;
		}
	}
	return 0;
}

/* The default executable name: the first file's without .gl or .go, or
 * the directory's own name (go build's rule), a.out if there is none. */
static const char *defaultexe(const char *first) {
	if (isdir(first)) {
		char abs[PATH_MAX];
		if (!realpath(first, abs) || !strcmp(abs, "/"))
			return "a.out";
		return xstrdup(strrchr(abs, '/') + 1);
	}
	char *base = xstrdup(strrchr(first, '/') ? strrchr(first, '/') + 1 : first);
	if (issource(base))
		base[strlen(base) - 3] = 0;
	return *base ? base : "a.out";
}

/* The output of glc build: -o's name, with go build's rules — a directory
 * (existing, or named with a trailing /) gets the default name inside
 * it, and missing directories on the way are made.  NULL, said why, if
 * they cannot be. */
static const char *outputname(Opts *o) {
	const char *def = defaultexe(o->inputs.v[0]);
	if (!o->out) {
		if (isdir(def)) { /* glc build proj, beside proj/: go build's error */
			fprintf(stderr, "glc: build output \"%s\" already exists and is a directory\n", def);
			return NULL;
		}
		return def;
	}
	const char *out = o->out;
	size_t n = strlen(out);
	if (n > 0 && (out[n - 1] == '/' || isdir(out)))
		out = xprintf("%s%s%s", out, out[n - 1] == '/' ? "" : "/", def);
	char *dir = xstrdup(out);
	for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = 0;
		if (!isdir(dir) && mkdir(dir, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "glc: cannot make the directory %s for -o %s: %s\n", dir, o->out, strerror(errno));
			return NULL;
		}
		*p = '/';
	}
	return out;
}

/* glc env [NAME...]: every setting as NAME="value", or the values of the
 * names asked for, one a line (as go env). */
static int env(int argc, char **argv) {
	const char *root = getenv("GLROOT");
	const char *cc = getenv("GLCC");
	const char *vars[][2] = {
		{"GLROOT", root && *root ? root : ""},
		{"GLROOT_INCLUDE", rootinc},
		{"GLROOT_LIB", rootlib},
		{"GLROOT_STDLIB", rootstd},
		{"GLCACHE", cachedir() ? cachedir() : "off"},
		{"GLFLAGS", getenv("GLFLAGS") ? getenv("GLFLAGS") : ""},
		{"GLCC", cc && *cc ? cc : GL_CC},
		{"GLCFLAGS", GL_CFLAGS},
		{"GLOS", "linux"},
		{"GLARCH", "amd64"},
	};
	size_t n = sizeof vars / sizeof vars[0];
	if (argc == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s=\"%s\"\n", vars[i][0], vars[i][1]);
		return 0;
	}
	for (int a = 0; a < argc; a++) {
		size_t i = 0;
		while (i < n && strcmp(argv[a], vars[i][0]))
			i++;
		printf("%s\n", i < n ? vars[i][1] : ""); /* go env prints an empty line for an unknown name */
	}
	return 0;
}

/* ---------------------------------------------------------------- patterns: build ./..., list */

/* "dir/..." or "...": a pattern of package directories (module.c) */
static bool ispattern(const char *a) {
	size_t n = strlen(a);
	return n >= 3 && !strcmp(a + n - 3, "...") && (n == 3 || a[n - 4] == '/');
}

/* The package directories the command line names: directories, patterns,
 * and import paths of the main module.  1, said why, if one names none. */
static int expandinputs(Vec *inputs, Vec *dirs) {
	for (int i = 0; i < inputs->n; i++) {
		const char *a = inputs->v[i];
		if (ispattern(a)) {
			size_t n = strlen(a);
			const char *base = n == 3 ? "." : xstrndup(a, n - 4);
			if (!isdir(base)) {
				fprintf(stderr, "glc: %s: directory %s does not exist\n", a, base);
				return 1;
			}
			Vec v = walkpattern(base);
			if (!v.n)
				fprintf(stderr, "glc: warning: \"%s\" matched no packages\n", a);
			for (int k = 0; k < v.n; k++)
				vpush(dirs, v.v[k]);
		} else if (isdir(a)) {
			vpush(dirs, (void *)a);
		} else if (moduledir(a) && isdir(moduledir(a))) {
			vpush(dirs, (void *)moduledir(a));
		} else {
			fprintf(stderr, "glc: %s: no such directory or package of module %s\n", a,
			        mainmodule.path ? mainmodule.path : "(no go.mod)");
			return 1;
		}
	}
	return 0;
}

/* The main module of the working directory (Go's rule for list and
 * patterns); 1, said why, without one. */
static int needmodule(void) {
	if (!loadmodule("."))
		flusherrors();
	if (!mainmodule.path) {
		fputs("glc: go.mod file not found in the current directory or any parent directory\n", stderr);
		return 1;
	}
	return 0;
}

/* glc list [packages]: their import paths, one a line, as go list */
static int list(int argc, char **argv) {
	Vec in = {0}, dirs = {0};
	for (int i = 0; i < argc; i++) {
		if (argv[i][0] == '-') {
			fprintf(stderr, "glc: list: unknown flag %s\n", argv[i]);
			return 2;
		}
		vpush(&in, argv[i]);
	}
	if (!in.n)
		vpush(&in, ".");
	if (needmodule() || expandinputs(&in, &dirs))
		return 1;
	int rc = 0;
	for (int i = 0; i < dirs.n; i++) {
		const char *ip = moduleimportpath(dirs.v[i]);
		if (ip)
			puts(ip);
		else {
			fprintf(stderr, "glc: directory %s is outside main module %s\n", (char *)dirs.v[i], mainmodule.path);
			rc = 1;
		}
	}
	return rc;
}

/* glc build of several packages (a pattern, or more than one directory):
 * each is compiled, by a glc of its own, and nothing is written (go
 * build's rule); a package's errors come under "# its/import/path". */
static int buildmany(Opts *o) {
	Vec dirs = {0};
	if (o->out) {
		fputs("glc: build: -o cannot be used with several packages\n", stderr);
		return 2;
	}
	if (needmodule() || expandinputs(&o->inputs, &dirs))
		return 1;
	int rc = 0;
	char *errs = xprintf("%s/glc-errs-XXXXXX", tmpdir());
	int fd = mkstemp(errs);
	if (fd < 0)
		fatal("mkstemp: %s", strerror(errno));
	for (int i = 0; i < dirs.n; i++) {
		Vec av = {0};
		vpush(&av, "/proc/self/exe");
		vpush(&av, "build");
		for (int k = 0; k < o->flags.n; k++)
			vpush(&av, o->flags.v[k]);
		vpush(&av, "-o");
		vpush(&av, "/dev/null");
		vpush(&av, dirs.v[i]);
		vpush(&av, NULL);
		fflush(stdout);
		fflush(stderr);
		int saved = dup(2);
		if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) || saved < 0 || dup2(fd, 2) < 0)
			fatal("cannot keep a build's messages: %s", strerror(errno));
		int r = runcmd((char **)av.v, o->x);
		dup2(saved, 2);
		close(saved);
		size_t n;
		char *text = readwhole(errs, &n);
		if (text && n) {
			const char *ip = moduleimportpath(dirs.v[i]);
			fprintf(stderr, "# %s\n%s", ip ? ip : (char *)dirs.v[i], text);
		}
		if (r > rc)
			rc = r;
	}
	close(fd);
	unlink(errs);
	return rc;
}

/* ---------------------------------------------------------------- glc test */

/* Start argv in directory dir (NULL: ours) with its standard output
 * and error on fd (-1: ours); the child's pid. */
static pid_t spawn(char **argv, const char *dir, int fd) {
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		if ((fd >= 0 && (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)) || (dir && chdir(dir)))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "glc: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Run argv in dir with its standard output and error into one pipe, as
 * go test runs a test binary: copied to glc's standard output as it comes
 * if stream, and kept whole in *all.  Its exit status. */
static int runpiped(char **argv, const char *dir, bool stream, Buf *all) {
	int p[2];
	/* close-on-exec: the child keeps only its dup2'd 1 and 2 */
	if (pipe(p) || fcntl(p[0], F_SETFD, FD_CLOEXEC) || fcntl(p[1], F_SETFD, FD_CLOEXEC))
		fatal("pipe: %s", strerror(errno));
	pid_t pid = spawn(argv, dir, p[1]);
	close(p[1]);
	char buf[8192];
	for (;;) {
		ssize_t n = read(p[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		bputn(all, buf, (size_t)n);
		if (stream) {
			fwrite(buf, 1, (size_t)n, stdout);
			fflush(stdout);
		}
	}
	close(p[0]);
	return waitchild(pid);
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The test of one package directory: build its test binary (in a child
 * glc, a compile being once per process), run it there with the test
 * flags, and print what go test prints.  listmode: packages were named,
 * and a package that passes says only its "ok" line (unless -v). */
/* The import path of a standard library directory, or NULL. */
static const char *stdimportpath(const char *dir) {
	char *abs = realpath(dir, NULL), *std = realpath(rootstd, NULL);
	const char *r = NULL;
	size_t n = std ? strlen(std) : 0;
	if (abs && std && !strncmp(abs, std, n) && abs[n] == '/')
		r = xstrdup(abs + n + 1);
	free(abs);
	free(std);
	return r;
}

static int testone(Opts *o, const char *dir, Vec *testargs, bool listmode, bool stream) {
	TestPkg tp = {.dir = dir, .ipath = moduleimportpath(dir)};
	if (!tp.ipath)
		tp.ipath = stdimportpath(dir);
	if (!tp.ipath) {
		fprintf(stderr, "glc: directory %s is outside main module %s\n", dir,
		        mainmodule.path ? mainmodule.path : "(no go.mod)");
		return 1;
	}
	if (!scantests(&tp)) {
		printf("?   \t%s\t[no test files]\n", tp.ipath);
		return 0;
	}
	char *tdir = xprintf("%s/glc-test-XXXXXX", tmpdir());
	if (!mkdtemp(tdir))
		fatal("mkdtemp: %s", strerror(errno));
	const char *src = xprintf("%s/_testmain.go", tdir), *exe = xprintf("%s/%s.test", tdir, basename_(tp.ipath));
	const char *errs = xprintf("%s/build.err", tdir);
	FILE *f = fopen(src, "w");
	if (!f || fputs(testmainsource(&tp), f) < 0 || fclose(f))
		fatal("cannot write %s", src);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (pid == 0) { /* the build, with its messages kept for the # header */
		int fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(127);
		undertest = &tp;
		o->inputs.n = 0;
		vpush(&o->inputs, (void *)src);
		o->mainipath = xprintf("%s.test", tp.ipath);
		int rc = compile(o, exe);
		rmworkdir(o->work || rc == 3);
		fflush(stderr);
		_exit(rc);
	}
	int rc = waitchild(pid);
	size_t n;
	char *text = readwhole(errs, &n);
	if (rc) {
		printf("# %s\n%s", tp.ipath, text ? text : "");
		printf("FAIL\t%s [build failed]\n", tp.ipath);
	} else {
		Vec av = {0};
		vpush(&av, (void *)exe);
		for (int i = 0; i < testargs->n; i++)
			vpush(&av, testargs->v[i]);
		vpush(&av, NULL);
		stream |= !listmode;
		double t0 = now();
		Buf all = {0};
		rc = runpiped((char **)av.v, dir, stream, &all);
		double secs = now() - t0;
		const char *got = bstr(&all);
		if (rc && !stream)
			fputs(got, stdout);
		if (rc && !listmode)
			printf("exit status %d\n", rc);
		/* go test's note on a package where nothing matched */
		const char *warn = "testing: warning: no tests to run\n";
		bool none = !strncmp(got, warn, strlen(warn)) || strstr(got, xprintf("\n%s", warn));
		printf(rc ? "FAIL\t%s\t%.3fs\n" : "ok  \t%s\t%.3fs%s\n", tp.ipath, secs, none ? " [no tests to run]" : "");
	}
	fflush(stdout);
	Vec rm = {0};
	vpush(&rm, "/bin/rm");
	vpush(&rm, "-rf");
	vpush(&rm, tdir);
	vpush(&rm, NULL);
	waitchild(spawn((char **)rm.v, NULL, -1));
	return rc ? 1 : 0;
}

/* -shuffle's value is checked before anything is built, as go test does:
 * on, off or an int64, else go test's message and false. */
static bool shuffleok(const char *v) {
	if (!strcmp(v, "on") || !strcmp(v, "off"))
		return true;
	char *end;
	errno = 0;
	(void)strtoll(v, &end, 10);
	if (*v && !*end && errno == 0 && *v != ' ' && *v != '\t')
		return true;
	fprintf(stderr,
	        "invalid value \"%s\" for flag -shuffle: -shuffle argument must be \"on\", \"off\", or an int64: "
	        "strconv.ParseInt: parsing \"%s\": %s\nrun 'glc help test' for details\n",
	        v, v, errno == ERANGE ? "value out of range" : "invalid syntax");
	return false;
}

/* glc test [flags] [packages]: go test's flags -v -run -bench -benchtime
 * -benchmem -count -cpu -failfast -list -short -shuffle -timeout (given to
 * the test binary as -test.*), and glc build's -x -work -m -O -gc=boehm. */
static int testcmd(int argc, char **argv) {
	Opts o = {0};
	Vec testargs = {0}, pkgs = {0};
	bool verbose = false, timeout = false;
	if (envflags(&o, false))
		return 2;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *name = a[0] == '-' ? a + (a[1] == '-' ? 2 : 1) : NULL;
		if (!name) {
			vpush(&pkgs, (void *)a);
			continue;
		}
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		static const char *const valued[] = {"run", "bench", "benchtime", "count", "cpu", "list", "shuffle", "timeout", NULL};
		static const char *const boolean[] = {"v", "short", "benchmem", "failfast", NULL};
		bool done = false;
		for (int k = 0; valued[k] && !done; k++)
			if (strlen(valued[k]) == len && !strncmp(name, valued[k], len)) {
				const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
				if (!val) {
					fprintf(stderr, "glc: test: flag -%s needs a value\n", valued[k]);
					return 2;
				}
				if (!strcmp(valued[k], "shuffle") && !shuffleok(val))
					return 2;
				vpush(&testargs, xprintf("-test.%s=%s", valued[k], val));
				timeout |= !strcmp(valued[k], "timeout");
				/* go test shows benchmarks' output and -list's as it comes */
				verbose |= !strcmp(valued[k], "bench") || !strcmp(valued[k], "list");
				done = true;
			}
		for (int k = 0; boolean[k] && !done; k++)
			if (strlen(boolean[k]) == len && !strncmp(name, boolean[k], len)) {
				vpush(&testargs, xprintf("-test.%s=%s", boolean[k], eq ? eq + 1 : "true"));
				verbose |= !strcmp(boolean[k], "v") && (!eq || !strcmp(eq + 1, "true"));
				done = true;
			}
		if (!done && len == 4 && !strncmp(name, "fuzz", 4)) {
			fprintf(stderr, "glc: test: -fuzz is not supported: gl has no fuzzing engine (fuzz targets' seed "
			                "corpora run as tests)\n");
			return 2;
		}
		if (!done) {
			char *one[1] = {(char *)a};
			if (!strcmp(a, "-o") || parseopts(1, one, &o, false) || o.inputs.n) {
				fprintf(stderr, "glc: test: unknown flag %s\n", a);
				return 2;
			}
		}
	}
	if (!timeout)
		vpush(&testargs, "-test.timeout=10m0s"); /* go test's default */
	bool listmode = pkgs.n > 0;
	if (!pkgs.n)
		vpush(&pkgs, ".");
	/* standard library packages (by import path, or a directory of
	 * stdlib/) need no module; the rest are the module's */
	Vec dirs = {0}, modpkgs = {0};
	for (int i = 0; i < pkgs.n; i++) {
		const char *a = pkgs.v[i], *std = xprintf("%s/%s", rootstd, a);
		if (!ispattern(a) && !isdir(a) && a[0] != '.' && isdir(std))
			vpush(&dirs, (void *)std);
		else if (!ispattern(a) && isdir(a) && stdimportpath(a))
			vpush(&dirs, (void *)a);
		else
			vpush(&modpkgs, (void *)a);
	}
	if (modpkgs.n && (needmodule() || expandinputs(&modpkgs, &dirs)))
		return 1;
	int failed = 0;
	for (int i = 0; i < dirs.n; i++)
		failed |= testone(&o, dirs.v[i], &testargs, listmode, verbose);
	if (failed && listmode)
		puts("FAIL");
	return failed;
}

/* The import paths of the packages under dir/rel (directories holding .gl
 * files other than tests; testdata and hidden directories are not
 * packages), sorted. */
static void stdpackages(const char *dir, const char *rel, Vec *out) {
	DIR *d = opendir(*rel ? xprintf("%s/%s", dir, rel) : dir);
	if (!d)
		return;
	Vec names = {0};
	bool pkg = false;
	for (struct dirent *e; (e = readdir(d));) {
		const char *n = e->d_name;
		size_t len = strlen(n);
		if (len > 3 && !strcmp(n + len - 3, ".gl") && !(len > 8 && !strcmp(n + len - 8, "_test.gl")))
			pkg = true;
		else if (n[0] != '.' && n[0] != '_' && strcmp(n, "testdata") &&
			 isdir(xprintf("%s/%s%s%s", dir, rel, *rel ? "/" : "", n)))
			vpush(&names, (void *)xprintf("%s%s%s", rel, *rel ? "/" : "", n));
	}
	closedir(d);
	if (pkg && *rel)
		vpush(out, (void *)intern(rel));
	for (int i = 0; i < names.n; i++)
		stdpackages(dir, names.v[i], out);
}

/* Whether files a and b hold the same bytes. */
static bool samefile(const char *a, const char *b) {
	size_t na, nb;
	char *sa = readwhole(a, &na), *sb = readwhole(b, &nb);
	return sa && sb && na == nb && memcmp(sa, sb, na) == 0;
}

static int strpcmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* glc contract: the runtime's header of the functions the standard library
 * declares without a body (compiler/emit.c, writecontract). */
static int contractcmd(int argc, char **argv) {
	const char *out = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-stdlib") && i + 1 < argc)
			snprintf(rootstd, sizeof rootstd, "%s", argv[++i]);
		else {
			fprintf(stderr, "glc: contract: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	unicodetables = xprintf("%s/unicode/tables.gl", rootstd);
	inittypes();
	Vec paths = {0};
	stdpackages(rootstd, "", &paths);
	if (!paths.n) {
		fprintf(stderr, "glc: contract: no packages in %s\n", rootstd);
		return 1;
	}
	qsort(paths.v, (size_t)paths.n, sizeof paths.v[0], strpcmp);
	for (int i = 0; i < paths.n; i++)
		importpackage(paths.v[i], (Pos){0});
	flusherrors();
	const char *tmp = out ? xprintf("%s.tmp", out) : NULL;
	FILE *o = tmp ? fopen(tmp, "w") : stdout;
	if (!o) {
		fprintf(stderr, "glc: contract: cannot write %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	writecontract(o, rootstd);
	if (!tmp)
		return 0;
	if (fclose(o)) {
		fprintf(stderr, "glc: contract: cannot write %s: %s\n", tmp, strerror(errno));
		return 1;
	}
	/* an unchanged header keeps its time, so make does not compile the
	 * runtime again because glc was rebuilt */
	if (samefile(tmp, out)) {
		unlink(tmp);
		return 0;
	}
	if (rename(tmp, out)) {
		fprintf(stderr, "glc: contract: cannot write %s: %s\n", out, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 2)
		return usage();
	const char *cmd = argv[1];
	findroot();
	unicodetables = xprintf("%s/unicode/tables.gl", rootstd); /* identifiers' letters */
	if (!strcmp(cmd, "version") || !strcmp(cmd, "-version") || !strcmp(cmd, "--version")) {
		printf("%s linux/amd64\n", GL_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "-help") || !strcmp(cmd, "--help"))
		return help(argc - 2, argv + 2);
	if (!strcmp(cmd, "env"))
		return env(argc - 2, argv + 2);
	if (!strcmp(cmd, "list"))
		return list(argc - 2, argv + 2);
	if (!strcmp(cmd, "test"))
		return testcmd(argc - 2, argv + 2);
	if (!strcmp(cmd, "trace"))
		return tracecmd(argc - 2, argv + 2);
	if (!strcmp(cmd, "contract"))
		return contractcmd(argc - 2, argv + 2);
	Opts o = {0};
	if (!strcmp(cmd, "build")) {
		if (envflags(&o, false) || parseopts(argc - 2, argv + 2, &o, false))
			return 2;
		if (!o.inputs.n)
			vpush(&o.inputs, "."); /* go build: the current directory */
		bool many = o.inputs.n > 1 && isdir(o.inputs.v[0]);
		for (int i = 0; i < o.inputs.n; i++)
			many |= ispattern(o.inputs.v[i]);
		if (many)
			return buildmany(&o);
		int rc = compile(&o, NULL); /* the output's name once it is a program */
		rmworkdir(o.work || rc == 3);
		return rc;
	}
	if (!strcmp(cmd, "run")) {
		if (envflags(&o, true) || parseopts(argc - 2, argv + 2, &o, true))
			return 2;
		char exe[PATH_MAX + 16];
		int rc;
		mkworkdir();
		snprintf(exe, sizeof exe, "%s/prog", workdir);
		char savedwork[PATH_MAX];
		memcpy(savedwork, workdir, sizeof workdir);
		workdir[0] = 0;
		rc = compile(&o, exe);
		char buildwork[PATH_MAX];
		memcpy(buildwork, workdir, sizeof workdir);
		rmworkdir(o.work || rc == 3);
		memcpy(workdir, savedwork, sizeof workdir);
		if (rc) {
			rmworkdir(false);
			return rc;
		}
		Vec av = {0};
		vpush(&av, exe);
		for (int i = 0; i < o.args.n; i++)
			vpush(&av, o.args.v[i]);
		vpush(&av, NULL);
		fflush(stdout);
		rc = runcmd((char **)av.v, false);
		rmworkdir(false);
		return rc;
	}
	fprintf(stderr, "glc: unknown command %s\n", cmd);
	return usage();
}
