/* module.c — where packages are.
 *
 * A program's own packages live in a module, as Go's do: a directory tree
 * whose root holds go.mod, which names the module's path.  An import path
 * that is the module's path, or starts with it and a slash, names the
 * directory below the root with the rest of the path ("example.com/hello"
 * with "example.com/hello/greet" is <root>/greet); any other path is the
 * standard library's.  gl fetches nothing, so a go.mod that requires other
 * modules is an error; everything else in it that only matters to other
 * modules (exclude, retract, replace, toolchain) is read and left alone.
 *
 * Without go.mod a program is one package that imports the standard
 * library only (Go would refuse; gl's own tests and the seeds' programs
 * are single directories).
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module.h"

Module mainmodule;

bool isdir(const char *p) {
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

bool isfile(const char *p) {
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---------------------------------------------------------------- go.mod */

/* One line of go.mod cut into words: Go's modfile syntax has words,
 * "quoted strings", ( and ) and // comments. */
typedef struct Line {
	const char *w[8];
	int col[8];
	int n;
} Line;

static void cutline(char *s, Line *l) {
	l->n = 0;
	char *p = s;
	while (*p && l->n < 8) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || (p[0] == '/' && p[1] == '/'))
			break;
		l->col[l->n] = (int)(p - s) + 1;
		if (*p == '"' || *p == '`') { /* a quoted word: the text between the quotes */
			char q = *p++;
			char *end = strchr(p, q);
			l->w[l->n++] = xstrndup(p, end ? (size_t)(end - p) : strlen(p));
			p = end ? end + 1 : p + strlen(p);
			continue;
		}
		if (*p == '(' || *p == ')') {
			l->w[l->n++] = *p == '(' ? "(" : ")";
			p++;
			continue;
		}
		char *start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '(' && *p != ')' && !(p[0] == '/' && p[1] == '/'))
			p++;
		l->w[l->n++] = xstrndup(start, (size_t)(p - start));
	}
}

/* One directive (verb and its words, from a line or a block's line). */
static void directive(const char *verb, Line *l, int first, Pos pos) {
	int nargs = l->n - first;
	if (!strcmp(verb, "module")) {
		if (nargs != 1 || !*l->w[first])
			errorat(pos, "usage: module module/path");
		else if (mainmodule.path)
			errorat(pos, "repeated module statement");
		else
			mainmodule.path = l->w[first];
	} else if (!strcmp(verb, "go")) {
		if (nargs != 1)
			errorat(pos, "usage: go 1.23");
		else
			mainmodule.gover = l->w[first];
	} else if (!strcmp(verb, "require")) {
		errorat(pos, "require %s: gl builds modules with no dependencies (it fetches no other module)",
		        nargs ? l->w[first] : "");
	} else if (strcmp(verb, "exclude") && strcmp(verb, "replace") && strcmp(verb, "retract") &&
	           strcmp(verb, "toolchain") && strcmp(verb, "godebug")) {
		errorat(pos, "unknown directive: %s", verb);
	}
}

static bool readgomod(const char *path) {
	size_t len;
	char *src = readwhole(path, &len);
	int file = srcfiles.n;
	vpush(&srcfiles, (void *)xstrdup(path));
	if (!src) {
		errorat((Pos){file, 1, 1}, "cannot read go.mod");
		return false;
	}
	int errs = nerrors();
	const char *block = NULL; /* the verb of an open ( block */
	int lineno = 0;
	for (char *s = src, *nl; s && *s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		Line l;
		cutline(s, &l);
		if (!l.n)
			continue;
		Pos pos = {file, lineno, l.col[0]};
		if (block) {
			if (!strcmp(l.w[0], ")"))
				block = NULL;
			else
				directive(block, &l, 0, pos);
		} else if (l.n == 2 && !strcmp(l.w[1], "(")) {
			block = l.w[0];
		} else
			directive(l.w[0], &l, 1, pos);
	}
	if (!mainmodule.path && nerrors() == errs)
		errorat((Pos){file, 1, 1}, "missing module declaration (a first line such as: module example.com/hello)");
	if (!mainmodule.gover)
		mainmodule.gover = "";
	return nerrors() == errs;
}

bool loadmodule(const char *start) {
	char *dir = realpath(start, NULL);
	if (!dir)
		return true; /* the build itself says the directory is missing */
	for (;;) {
		const char *gomod = xprintf("%s/go.mod", dir);
		if (isfile(gomod)) {
			mainmodule.dir = mainmodule.shown = xstrdup(dir);
			char *cwd = getcwd(NULL, 0);
			size_t n = cwd ? strlen(cwd) : 0;
			if (cwd && !strncmp(dir, cwd, n) && (!dir[n] || dir[n] == '/'))
				mainmodule.shown = xprintf(".%s", dir + n);
			free(cwd);
			free(dir);
			return readgomod(xprintf("%s/go.mod", mainmodule.shown));
		}
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = 0;
	}
	free(dir);
	return true;
}

/* ---------------------------------------------------------------- import paths */

const char *moduledir(const char *importpath) {
	const char *m = mainmodule.path;
	if (!m)
		return NULL;
	size_t n = strlen(m);
	if (strncmp(importpath, m, n))
		return NULL;
	if (!importpath[n])
		return mainmodule.shown;
	if (importpath[n] != '/')
		return NULL;
	return xprintf("%s%s", mainmodule.shown, importpath + n);
}

const char *moduleimportpath(const char *dir) {
	if (!mainmodule.path)
		return NULL;
	char *abs = realpath(dir, NULL);
	if (!abs)
		return NULL;
	size_t n = strlen(mainmodule.dir);
	const char *r = NULL;
	if (!strncmp(abs, mainmodule.dir, n) && (!abs[n] || abs[n] == '/'))
		r = xprintf("%s%s", mainmodule.path, abs + n);
	free(abs);
	return r;
}

bool internalok(const char *importer, bool importerstd, const char *path) {
	/* the last element "internal" decides: its parent is the tree allowed */
	const char *last = NULL;
	for (const char *e = path; e; e = strchr(e, '/') ? strchr(e, '/') + 1 : NULL)
		if (!strncmp(e, "internal", 8) && (e[8] == '/' || !e[8]))
			last = e;
	if (!last)
		return true;
	if (last == path) /* the standard library's internal/... */
		return importerstd;
	size_t parent = (size_t)(last - path) - 1; /* without the slash */
	return !strncmp(importer, path, parent) && (importer[parent] == '/' || !importer[parent]);
}

/* ---------------------------------------------------------------- package directories */

bool issource(const char *name) {
	size_t n = strlen(name);
	return n > 3 && (!strcmp(name + n - 3, ".gl") || !strcmp(name + n - 3, ".go"));
}

static int strcmpp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

Vec dirfiles(const char *dir) {
	Vec v = {0};
	DIR *d = opendir(dir);
	if (!d)
		return v;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (issource(e->d_name) && e->d_name[0] != '.' && !(n > 8 && !strncmp(e->d_name + n - 8, "_test.g", 7)))
			vpush(&v, xprintf("%s/%s", dir, e->d_name));
	}
	closedir(d);
	if (v.n > 1)
		qsort(v.v, v.n, sizeof(void *), strcmpp);
	return v;
}

static void walk(const char *dir, bool root, Vec *out) {
	if (!root && isfile(xprintf("%s/go.mod", dir)))
		return; /* another module's tree */
	if (dirfiles(dir).n)
		vpush(out, (void *)dir);
	DIR *d = opendir(dir);
	if (!d)
		return;
	Vec subs = {0};
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *name = e->d_name;
		if (name[0] == '.' || name[0] == '_' || !strcmp(name, "testdata"))
			continue;
		const char *sub = xprintf("%s/%s", dir, name);
		if (isdir(sub))
			vpush(&subs, (void *)sub);
	}
	closedir(d);
	if (subs.n > 1)
		qsort(subs.v, subs.n, sizeof(void *), strcmpp);
	for (int i = 0; i < subs.n; i++)
		walk(subs.v[i], false, out);
}

Vec walkpattern(const char *dir) {
	Vec out = {0};
	walk(dir, true, &out);
	if (out.n > 1) /* by import path, as go list: "a-b" before "a/b" */
		qsort(out.v, out.n, sizeof(void *), strcmpp);
	return out;
}
