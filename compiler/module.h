/* module.h — where packages are: the module of go.mod, the standard
 * library, and the source files of a package directory (module.c). */
#ifndef GLC_MODULE_H
#define GLC_MODULE_H

#include "util.h"

/* The main module, read from go.mod: its path ("example.com/hello") and
 * the directory holding go.mod.  path is NULL when there is none: then
 * a program imports the standard library only, as before modules. */
typedef struct Module {
	const char *path;
	const char *dir;   /* absolute */
	const char *shown; /* dir as messages show it: ./sub when it is below the working directory */
	const char *gover; /* the go directive's version, "" if none */
} Module;
extern Module mainmodule;

/* Find go.mod in dir or the nearest directory above it, and read it into
 * mainmodule.  False, with the errors printed, if it is malformed or asks
 * for what gl cannot give (require: other modules). */
bool loadmodule(const char *dir);

/* The directory of an import path inside the main module, or NULL if the
 * path is not the module's. */
const char *moduledir(const char *importpath);

/* The import path of a directory inside the main module, or NULL. */
const char *moduleimportpath(const char *dir);

/* Go's rule for internal/: whether a package whose import path is
 * importer may import path.  A path with an element "internal" may be
 * imported only from the tree rooted at the parent of that element; for
 * the standard library's ("internal/fmtsort"), only from the standard
 * library (importerstd). */
bool internalok(const char *importer, bool importerstd, const char *path);

/* Whether p is a directory; a regular file. */
bool isdir(const char *p);
bool isfile(const char *p);

/* A gl source file name: name.gl, or name.go. */
bool issource(const char *name);

/* The source files of a package directory, sorted; not hidden files and
 * not tests (name_test.gl, name_test.go), as go build. */
Vec dirfiles(const char *dir);

/* The directories that "dir/..." names, sorted: dir and those below it
 * that hold source files, except hidden ones, those whose name starts
 * with "_", testdata, and the trees of other modules (a go.mod of their
 * own) — Go's rules for the pattern. */
Vec walkpattern(const char *dir);

#endif
