/* util.c — memory, strings, vectors and diagnostics. */
#include "util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char **itab; /* the intern table */
static size_t icap, icount;
typedef struct Diag Diag;
static Vec diags;

static void oom(void) {
	fputs("glc: out of memory\n", stderr);
	exit(3);
}

/* Every block glc allocates is on one list, so a compile's memory can be
 * freed at once (the fuzz target compiles millions of inputs in one
 * process); glc itself just exits. */
typedef struct Block {
	struct Block *next, *prev;
	max_align_t align[];
} Block;
static Block blocks = {&blocks, &blocks};

static void *track(Block *b) {
	b->next = blocks.next;
	b->prev = &blocks;
	blocks.next->prev = b;
	blocks.next = b;
	return b->align;
}

void *xalloc(size_t n) {
	Block *b = calloc(1, sizeof(Block) + (n ? n : 1));
	if (!b)
		oom();
	return track(b);
}

void *xrealloc(void *p, size_t n) {
	if (!p)
		return xalloc(n);
	Block *b = (Block *)((char *)p - offsetof(Block, align));
	b->prev->next = b->next;
	b->next->prev = b->prev;
	b = realloc(b, sizeof(Block) + (n ? n : 1));
	if (!b)
		oom();
	return track(b);
}

void freeall(void) {
	for (Block *b = blocks.next, *n; b != &blocks; b = n) {
		n = b->next;
		free(b);
	}
	blocks.next = blocks.prev = &blocks;
	free(itab);
	itab = NULL;
	icap = icount = 0;
	memset(&srcfiles, 0, sizeof srcfiles);
	memset(&diags, 0, sizeof diags);
}

char *xstrndup(const char *s, size_t n) {
	char *p = xalloc(n + 1);
	memcpy(p, s, n);
	return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xprintf(const char *fmt, ...) {
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	bvprintf(&b, fmt, ap);
	va_end(ap);
	return (char *)bstr(&b);
}

/* ---- interning: open addressing on an FNV-1a hash ---- */

static uint64_t fnv(const char *s, size_t n) {
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

const char *internn(const char *s, size_t n) {
	if (icount * 2 >= icap) {
		size_t ncap = icap ? icap * 2 : 4096;
		const char **nt = calloc(ncap, sizeof *nt);
		if (!nt)
			oom();
		for (size_t i = 0; i < icap; i++)
			if (itab[i]) {
				size_t j = fnv(itab[i], strlen(itab[i])) & (ncap - 1);
				while (nt[j])
					j = (j + 1) & (ncap - 1);
				nt[j] = itab[i];
			}
		free(itab);
		itab = nt;
		icap = ncap;
	}
	size_t j = fnv(s, n) & (icap - 1);
	while (itab[j]) {
		if (strncmp(itab[j], s, n) == 0 && itab[j][n] == 0)
			return itab[j];
		j = (j + 1) & (icap - 1);
	}
	icount++;
	return itab[j] = xstrndup(s, n);
}

const char *intern(const char *s) { return internn(s, strlen(s)); }

void vpush(Vec *v, void *x) {
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->v = xrealloc(v->v, v->cap * sizeof *v->v);
	}
	v->v[v->n++] = x;
}

/* ---- pointer maps ---- */

static size_t pmslot(const PtrMap *m, const void *key) {
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
	size_t j = (size_t)(h >> 32) & (m->cap - 1);
	while (m->keys[j] && m->keys[j] != key)
		j = (j + 1) & (m->cap - 1);
	return j;
}

void *pmget(PtrMap *m, const void *key) {
	if (m->n == 0)
		return NULL;
	return m->vals[pmslot(m, key)];
}

void pmput(PtrMap *m, const void *key, void *val) {
	if ((m->n + 1) * 2 > m->cap) {
		PtrMap g = {xalloc((m->cap ? m->cap * 2 : 64) * sizeof(void *)), NULL, 0, m->cap ? m->cap * 2 : 64};
		g.vals = xalloc(g.cap * sizeof(void *));
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i])
				pmput(&g, m->keys[i], m->vals[i]);
		*m = g;
	}
	size_t j = pmslot(m, key);
	if (!m->keys[j]) {
		m->keys[j] = key;
		m->n++;
	}
	m->vals[j] = val;
}

void pmclear(PtrMap *m) {
	if (m->cap) {
		memset(m->keys, 0, m->cap * sizeof(void *));
		memset(m->vals, 0, m->cap * sizeof(void *));
	}
	m->n = 0;
}

static void bgrow(Buf *b, size_t n) {
	if (b->n + n + 1 > b->cap) {
		while (b->n + n + 1 > b->cap)
			b->cap = b->cap ? b->cap * 2 : 256;
		b->s = xrealloc(b->s, b->cap);
	}
}

void bputn(Buf *b, const char *s, size_t n) {
	bgrow(b, n);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void bput(Buf *b, const char *s) { bputn(b, s, strlen(s)); }

void bputc(Buf *b, char c) { bputn(b, &c, 1); }

void bvprintf(Buf *b, const char *fmt, va_list ap) {
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	bgrow(b, (size_t)n);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	b->n += (size_t)n;
}

void bprintf(Buf *b, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	bvprintf(b, fmt, ap);
	va_end(ap);
}

const char *bstr(Buf *b) {
	bgrow(b, 0);
	b->s[b->n] = 0;
	return b->s;
}

/* ---- diagnostics ---- */
Vec srcfiles;

struct Diag {
	Pos pos;
	char *msg;
	int seq;
};

static int diagcmp(const void *a, const void *b) {
	const Diag *x = *(Diag *const *)a, *y = *(Diag *const *)b;
	if (x->pos.file != y->pos.file)
		return x->pos.file - y->pos.file;
	if (x->pos.line != y->pos.line)
		return x->pos.line - y->pos.line;
	if (x->pos.col != y->pos.col)
		return x->pos.col - y->pos.col;
	return x->seq - y->seq;
}

void verrorat(Pos p, const char *fmt, va_list ap) {
	Diag *d = xalloc(sizeof *d);
	Buf b = {0};
	bvprintf(&b, fmt, ap);
	d->pos = p;
	d->msg = b.s;
	d->seq = diags.n;
	/* one error per position is enough: later ones are usually echoes */
	for (int i = 0; i < diags.n; i++) {
		Diag *e = diags.v[i];
		if (e->pos.file == p.file && e->pos.line == p.line && e->pos.col == p.col)
			return;
	}
	vpush(&diags, d);
}

void errorat(Pos p, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	verrorat(p, fmt, ap);
	va_end(ap);
}

int nerrors(void) { return diags.n; }

void clearerrors(void) { diags.n = 0; }

static int diagcmp(const void *a, const void *b);

/* Print the diagnostics (sorted) without failing: glc build -m. */
void printerrors(void) {
	qsort(diags.v, diags.n, sizeof *diags.v, diagcmp);
	for (int i = 0; i < diags.n; i++) {
		Diag *d = diags.v[i];
		fprintf(stderr, "%s:%d:%d: %s\n", (const char *)srcfiles.v[d->pos.file], d->pos.line, d->pos.col, d->msg);
	}
	diags.n = 0;
}

/* "file:line:col" of p, as a message's continuation line names another
 * place ("\tprevious case"). */
const char *posstr(Pos p) {
	const char *f = p.file >= 0 && p.file < srcfiles.n ? srcfiles.v[p.file] : "?";
	return xprintf("%s:%d:%d", f, p.line, p.col);
}

void flusherrors(void) {
	if (!diags.n)
		return;
	qsort(diags.v, diags.n, sizeof *diags.v, diagcmp);
	int shown = 0;
	for (int i = 0; i < diags.n; i++) {
		Diag *d = diags.v[i];
		const char *f = d->pos.file >= 0 && d->pos.file < srcfiles.n ? srcfiles.v[d->pos.file] : "?";
		if (shown == 10) {
			fprintf(stderr, "%s:%d:%d: too many errors\n", f, d->pos.line, d->pos.col);
			break;
		}
		fprintf(stderr, "%s:%d:%d: %s\n", f, d->pos.line, d->pos.col, d->msg);
		shown++;
	}
	exit(1);
}

void fatal(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	fputs("glc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* The whole file at path, NUL-terminated (the lexer's sentinel); its
 * length without the NUL in *len.  NULL if it cannot be opened. */
char *readwhole(const char *path, size_t *len) {
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	char tmp[65536];
	size_t k;
	while ((k = fread(tmp, 1, sizeof tmp, f)) > 0)
		bputn(&b, tmp, k);
	fclose(f);
	bput(&b, "");
	*len = b.n;
	return b.s;
}
