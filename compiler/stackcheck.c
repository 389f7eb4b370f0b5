/* stackcheck.c — what runs between two stack checks must fit in the band.
 *
 * A gl function checks its stack after gcc has allocated its fixed C frame
 * (DESIGN.md S3), and some code runs with no check at all: //gl:nosplit
 * functions, frameless leaves, wrappers and thunks.  All of it uses the
 * reserve band below stackguard0 (GL_STACK_GUARD, 928 bytes, Go's
 * StackGuard).  Go's linker checks its nosplit chains against the band;
 * glc does the same after cc has run, from cc's -fstack-usage output (the
 * .su file next to each object), so the numbers are the real frames.
 *
 * The budget, from the band down:
 *   WRAPPER  128  a wrapper or thunk may sit between a caller that passed
 *                 its check and the function it forwards to: every wrapper
 *                 must fit in it, so the rest has 928 - 128 = 800 bytes
 *                 (Go's StackLimit is also 800).
 *   (GLType.call, reflect's way into a func value, is a thunk whose frame
 *   holds the callee's stack arguments: runtime/reflect.c makes
 *   GL_REFLECTCALL_STACK bytes free above stackguard0 before it, so it
 *   may use all of them and leave its callee the band untouched.)
 *   then, at the entry of a function f, one of:
 *     checked:  f's C frame + its return address + morestack's 64-byte
 *               register save (SAVEDREGS_SIZE) if the check fails;
 *     leaf:     f's C frame + return address + the 128-byte red zone;
 *     register leaf (compiler/regleaf.c): a leaf that may call the
 *               runtime (string comparisons, copy, the write barrier)
 *               with no check before: f's C frame + return address +
 *               RTCALL;
 *     nosplit:  f's C frame + return address + the most that any call it
 *               makes needs: a gl callee's entry, or RTCALL for a call
 *               into the runtime (testdata/stackusage.py checks that every
 *               runtime entry used by generated code fits in RTCALL).
 *
 * Each package's entry sizes are kept next to its cached object (.stk), so
 * that a nosplit chain into an already compiled package is checked too. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"

enum {
	BAND = 928,     /* runtime/gl.h GL_STACK_GUARD */
	WRAPPER = 128,
	REFLECTCALL = 4032, /* runtime/gl.h GL_REFLECTCALL_STACK (4096), less 64 for reflect_call's own frame */
	LIMIT = BAND - WRAPPER,
	RET = 8,        /* the call's return address (gcc counts it, clang not) */
	MORESTACK = 64, /* runtime/rt.h SAVEDREGS_SIZE */
	REDZONE = 128,  /* the SysV ABI's red zone, used by leaves */
	RTCALL = 512,
};

typedef struct StackRec {
	const char *cname, *gname;
	Pos pos;
	int kind;
	Vec callees;     /* nosplit: C names of the gl functions it calls */
	Package *pkg;
	int64_t frame;   /* from the .su file; -1 if cc left no copy of it */
	const char *su;  /* that .su file */
	int64_t entry;   /* what entering it may use; -1 until known */
	bool visiting;
	struct StackRec *next; /* hash chain */
} StackRec;

enum { NBUCKET = 4096 };
static StackRec *recs[NBUCKET];
static Vec allrecs;

void stackforget(void) {
	memset(recs, 0, sizeof recs);
	memset(&allrecs, 0, sizeof allrecs);
}

static unsigned bucket(const char *interned) {
	return (unsigned)(((uintptr_t)interned >> 4) * 2654435761u) % NBUCKET;
}

static StackRec *lookuprec(const char *cname) {
	cname = intern(cname);
	for (StackRec *r = recs[bucket(cname)]; r; r = r->next)
		if (r->cname == cname)
			return r;
	return NULL;
}

static StackRec *newrec(const char *cname) {
	StackRec *r = lookuprec(cname);
	if (r)
		return r;
	r = xalloc(sizeof *r);
	r->cname = intern(cname);
	r->frame = r->entry = -1;
	unsigned b = bucket(r->cname);
	r->next = recs[b];
	recs[b] = r;
	vpush(&allrecs, r);
	return r;
}

void stackrec(Package *p, const char *cname, const char *gname, Pos pos, int kind, Vec *callees) {
	StackRec *r = newrec(cname);
	r->gname = gname;
	r->pos = pos;
	r->kind = kind;
	r->pkg = p;
	if (callees)
		r->callees = *callees;
}

/* cc's C frame sizes: "file:line:col:name<TAB>bytes<TAB>qualifiers" (clang
 * omits the column).  gcc may add clones (f.constprop.0, f.isra.0, f.part.0)
 * that callers reach instead of f: f's frame is the largest of them. */
static void readsu(const char *path) {
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = 0;
		char *name = strrchr(line, ':');
		name = name ? name + 1 : line;
		char *dot = strchr(name, '.');
		if (dot)
			*dot = 0;
		StackRec *r = lookuprec(name);
		if (!r) /* runtime helpers inlined as static functions */
			continue;
		int64_t n = strtoll(tab + 1, NULL, 10);
		if (n > r->frame) {
			r->frame = n;
			r->su = intern(path);
		}
	}
	fclose(f);
}

/* What entering r may use.  A recursive nosplit chain can never be
 * bounded: Go's linker rejects it too. */
static int64_t entry(StackRec *r) {
	if (r->entry >= 0 || r->frame < 0)
		return r->entry >= 0 ? r->entry : 0;
	if (r->visiting) {
		errorat(r->pos, "%s: recursive nosplit chain: it cannot be bounded", r->gname);
		return LIMIT + 1;
	}
	int64_t below = 0;
	switch (r->kind) {
	case SR_CHECKED: below = MORESTACK; break;
	case SR_LEAF: below = REDZONE; break;
	case SR_RTLEAF: below = RTCALL; break;
	case SR_WRAPPER: case SR_REFLECTCALL: below = 0; break;
	case SR_NOSPLIT:
		r->visiting = true;
		below = RTCALL;
		for (int i = 0; i < r->callees.n; i++) {
			StackRec *c = lookuprec(r->callees.v[i]);
			int64_t e = c ? entry(c) : RTCALL;
			if (e > below)
				below = e;
		}
		r->visiting = false;
		break;
	}
	r->entry = r->frame + RET + below;
	return r->entry;
}

/* The chain that makes a nosplit function too deep, as Go's linker lists it. */
static void explain(Buf *b, StackRec *r, int depth) {
	bprintf(b, "\n\t%*s%s: %lld-byte C frame", depth * 2, "", r->gname, (long long)r->frame);
	if (r->kind == SR_CHECKED)
		bprintf(b, ", then morestack (%d)", MORESTACK);
	else if (r->kind == SR_LEAF)
		bprintf(b, ", red zone (%d)", REDZONE);
	else if (r->kind == SR_RTLEAF)
		bprintf(b, ", then a runtime call (%d)", RTCALL);
	else if (r->kind == SR_NOSPLIT) {
		StackRec *worst = NULL;
		for (int i = 0; i < r->callees.n; i++) {
			StackRec *c = lookuprec(r->callees.v[i]);
			if (c && c->frame >= 0 && entry(c) > RTCALL && (!worst || entry(c) > entry(worst)))
				worst = c;
		}
		if (worst && depth < 20)
			explain(b, worst, depth + 1);
		else
			bprintf(b, ", then a runtime call (%d)", RTCALL);
	}
}

/* The .su files (interned, once each) of package p's checked functions
 * whose C frames are too large, added to out: main.c compiles their C
 * again with GL_BIGFRAME_CFLAGS, then stackreset and stackcheck. */
void stackbigframes(Package *p, Vec *sus, Vec *out) {
	for (int i = 0; i < sus->n; i++)
		readsu(sus->v[i]);
	for (int i = 0; i < allrecs.n; i++) {
		StackRec *r = allrecs.v[i];
		if (r->pkg != p || r->frame < 0 || (r->kind != SR_CHECKED && r->kind != SR_RTLEAF) || entry(r) <= LIMIT || !r->su)
			continue;
		bool seen = false;
		for (int k = 0; k < out->n && !seen; k++)
			seen = out->v[k] == r->su;
		if (!seen)
			vpush(out, (void *)r->su);
	}
}

/* Forget package p's frames, to read them again from new .su files. */
void stackreset(Package *p) {
	for (int i = 0; i < allrecs.n; i++) {
		StackRec *r = allrecs.v[i];
		if (r->pkg == p)
			r->frame = r->entry = -1;
	}
}

/* Check package p's functions, whose .su files are sus; write the entry
 * sizes to stkout (if not NULL).  Errors are reported with errorat. */
void stackcheck(Package *p, Vec *sus, const char *stkout) {
	int errs = nerrors();
	for (int i = 0; i < sus->n; i++)
		readsu(sus->v[i]);
	FILE *o = stkout ? fopen(stkout, "w") : NULL;
	for (int i = 0; i < allrecs.n; i++) {
		StackRec *r = allrecs.v[i];
		if (r->pkg != p || r->frame < 0)
			continue;
		int64_t e = entry(r);
		if (o && r->kind != SR_WRAPPER && r->kind != SR_REFLECTCALL)
			fprintf(o, "%s\t%lld\n", r->cname, (long long)e);
		if (r->kind == SR_REFLECTCALL) {
			if (e > REFLECTCALL)
				errorat(r->pos, "%s: reflect cannot call this func type: its arguments need %lld bytes of stack (limit %d)",
					r->gname, (long long)e, REFLECTCALL);
		} else if (r->kind == SR_WRAPPER) {
			if (e > WRAPPER)
				errorat(r->pos, "glc: internal error: the wrapper %s needs %lld bytes of stack, more than the %d-byte budget of wrappers",
					r->cname, (long long)e, WRAPPER);
		} else if (e > LIMIT) {
			Buf b = {0};
			explain(&b, r, 0);
			if (r->kind == SR_NOSPLIT)
				errorat(r->pos, "%s: nosplit stack over %d byte limit (needs %lld):%s", r->gname, LIMIT, (long long)e, bstr(&b));
			else
				errorat(r->pos, "%s: its C frame is too large to run before the stack check (needs %lld bytes, limit %d): split the function:%s",
					r->gname, (long long)e, LIMIT, bstr(&b));
		}
	}
	if (o && fclose(o))
		fatal("cannot write %s: %s", stkout, strerror(errno));
	if (o && nerrors() > errs) /* checked again next time */
		unlink(stkout);
}

/* The entry sizes of a package compiled by an earlier glc (its .stk). */
void stackload(Package *p, const char *stk) {
	FILE *f = fopen(stk, "r");
	if (!f)
		return;
	char name[1024];
	long long n;
	while (fscanf(f, "%1023s %lld", name, &n) == 2) {
		StackRec *r = newrec(name);
		r->pkg = p;
		r->kind = SR_CHECKED;
		r->frame = 0;
		r->entry = n;
	}
	fclose(f);
}
