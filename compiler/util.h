/* util.h — memory, strings, vectors and diagnostics shared by all of glc. */
#ifndef GLC_UTIL_H
#define GLC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* glc allocates from one arena and never frees: a compile is short-lived. */
void *xalloc(size_t n);               /* zeroed */
void *xrealloc(void *p, size_t n);
void freeall(void);                   /* free everything glc allocated (the fuzz target) */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Interned strings can be compared with ==. */
const char *intern(const char *s);
const char *internn(const char *s, size_t n);

/* A growable array of pointers. */
typedef struct Vec {
	void **v;
	int n, cap;
} Vec;
void vpush(Vec *v, void *x);
#define VEACH(vec, i, x) for (int i = 0; i < (vec)->n && ((x) = (vec)->v[i], 1); i++)

/* A map from pointers (interned strings, Types) to pointers, by open
 * addressing; a NULL value is "absent". */
typedef struct PtrMap {
	const void **keys;
	void **vals;
	size_t n, cap;
} PtrMap;
void *pmget(PtrMap *m, const void *key);
void pmput(PtrMap *m, const void *key, void *val);
void pmclear(PtrMap *m);

/* A growable byte buffer. */
typedef struct Buf {
	char *s;
	size_t n, cap;
} Buf;
void bput(Buf *b, const char *s);
void bputn(Buf *b, const char *s, size_t n);
char *readwhole(const char *path, size_t *len); /* NUL-terminated; NULL if unreadable */
void bprintf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bvprintf(Buf *b, const char *fmt, va_list ap);
void bputc(Buf *b, char c);
const char *bstr(Buf *b); /* NUL-terminated contents */

/* Source positions: file index, line, column (1-based, columns in bytes). */
typedef struct Pos {
	int file, line, col;
} Pos;
extern Vec srcfiles; /* const char * names, indexed by Pos.file */

/* Diagnostics are collected, sorted by position and printed as
 * file:line:col: message; after 10 errors glc stops, as Go does. */
void errorat(Pos p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *posstr(Pos p); /* "file:line:col" */
void verrorat(Pos p, const char *fmt, va_list ap);
int nerrors(void);
void flusherrors(void); /* print sorted; exit(1) if any */
void clearerrors(void);
void printerrors(void); /* print the diagnostics, then forget them */
_Noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
