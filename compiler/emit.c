/* emit.c — the C back end: program layout, C types, type descriptors,
 * itabs and method wrappers.
 *
 * glc writes one C file per package (a "unit"), so that the standard
 * library is compiled once and cached (main.c).  Each file is meant to be
 * read.  It has, in order: the C types of the gl types it uses,
 * prototypes, the type descriptors' declarations, the package's variables,
 * wrappers, the functions (each with its data frame struct and stack map),
 * and finally the descriptors and itabs.
 *
 * Names that cross files are canonical: gl functions are pkg_Name (stable
 * per package, assigned by assignnames in declaration order); a type's
 * descriptor has the linker symbol gltype_<hash of the type's canonical
 * key> and an itab glitab_<hash>, defined weak in every file that uses
 * them, so the linker keeps one and a type has one descriptor in the
 * program (type switches and interface conversions compare descriptor
 * addresses).  In the C they are called after the type (readablename).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "emitint.h"

Buf gdecls, gfuncs;
Buf gprotos;
static Buf gtypes, gdescs, gfwd, gglobals, gvardefs, groots;
/* per unit (C file): */
static Package *unitpkg;
static int unitid;
static Vec structs;   /* Types whose C struct this file defines */
static Vec descs;     /* Types whose descriptor this file defines */
static Vec itabs;     /* triples (T, I, symbol) */
static PtrMap unitnames; /* file-scope names declared in this file: prototypes, externs */
static Vec cglobals;  /* names of this file's static helpers */

/* ---------------------------------------------------------------- names */

/* Names a struct member must not take: C keywords, and macros of C's
 * headers and of gcc's gnu dialect (which predefines unix, linux, i386). */
static const char *ckeywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
	"float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
	"sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "asm",
	"typeof", "bool", "true", "false", "errno", "stdin", "stdout", "stderr", "NULL", "offsetof", "unix", "linux",
	"i386", NULL};

static bool ckeyword(const char *s) {
	for (const char **k = ckeywords; *k; k++)
		if (!strcmp(*k, s))
			return true;
	return false;
}

/* s with bytes outside [A-Za-z0-9_] written as x and two hex digits; with
 * esc, an 'x' too, so that distinct names stay distinct. */
static const char *cleanname(const char *s, bool esc) {
	Buf b = {0};
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((isalnum(*p) || *p == '_') && !(esc && *p == 'x'))
			bputc(&b, (char)*p);
		else
			bprintf(&b, "x%02x", *p);
	}
	return bstr(&b);
}

/* The C name of a local made from a gl identifier: "_" and the identifier
 * when it starts with a lowercase ASCII letter, else "_0" and the
 * identifier.  So it starts with "_" and a lowercase letter or a digit,
 * which no other name the generated code uses does: the emitter's own
 * locals (temporaries t1, parameters p0, g, fp, out, ...) and all globals
 * (runtime functions, pkg_name, gltype_...) start with a letter, C
 * reserves "_" with an uppercase letter or "_", and the runtime and C's
 * headers declare no "_x" that the generated code refers to.  Locals are
 * unique within the function (Fn.cnames): a shadowing declaration gets a
 * suffix _1, _2, .... */
const char *cname(const char *base) {
	const char *b = !strcmp(base, "_") ? "blank" : cleanname(base, false);
	const char *first = intern(xprintf("%s%s", b[0] >= 'a' && b[0] <= 'z' ? "_" : "_0", b));
	const char *name = first;
	for (int k = 1;; k++) {
		bool used = false;
		for (int i = 0; i < fn->cnames.n; i++)
			if (fn->cnames.v[i] == name)
				used = true;
		if (!used)
			break;
		name = intern(xprintf("%s_%d", first, k));
	}
	vpush(&fn->cnames, (void *)name);
	return name;
}

/* A gl identifier in a file-scope name (pkg_name, pkg_T_M, struct pkg_T).
 * Such a name never holds "__": that marks the names derived from one
 * (f's pkg_f__info, __frame, __closure, __slots, __fv; a local type's
 * struct pkg_T__hash), so an identifier such as f__info, _x or x_ has its
 * underscores written x5f. */
const char *gident(const char *name) {
	const char *s = cleanname(name, false);
	size_t n = strlen(s);
	if (!strstr(s, "__") && s[0] != '_' && s[n - 1] != '_')
		return s;
	Buf b = {0};
	for (const char *p = s; *p; p++)
		if (*p == '_')
			bput(&b, "x5f");
		else
			bputc(&b, *p);
	return bstr(&b);
}

/* File-scope names are unique within their package (Package.cnames), so a
 * package's names do not depend on which other packages are compiled. */
static Vec *namereg;
static Vec namescratch; /* names made outside a package (namereg NULL) */

const char *globalname(const char *base) {
	char buf[512];
	Buf clean = {0};
	for (const unsigned char *p = (const unsigned char *)base; *p; p++) {
		if (isalnum(*p) || *p == '_')
			bputc(&clean, (char)*p);
		else if (*p == '/' || *p == '.')
			bputc(&clean, '_');
		else
			bprintf(&clean, "x%02x", *p);
	}
	const char *b = bstr(&clean);
	const char *name = intern(b);
	Vec *reg = namereg ? namereg : &namescratch;
	for (int k = 1;; k++) {
		bool used = false;
		for (int i = 0; i < reg->n; i++)
			if (reg->v[i] == name)
				used = true;
		if (!used)
			break;
		snprintf(buf, sizeof buf, "%s_%d", b, k);
		name = intern(buf);
	}
	vpush(reg, (void *)name);
	return name;
}

/* Wrappers and thunks (method wrappers, func values, defer and go thunks)
 * start with a pc record naming an unnamed GlFuncInfo: tracebacks hide
 * them (showing only what gcc inlined into them), and do not mistake their
 * code for the gl function before them. */
static Vec wrappers, wrapped;
static void helperuse(const char *name, const char *used);

/* wraps: the C function that a func value's wrapper calls (for
 * reflect's Value.Pointer), or NULL. */
static const char *wrapperentrykind(const char *name, const char *wraps, int kind) {
	helperuse(name, xprintf("%s__info", name));
	vpush(&wrappers, (void *)name);
	vpush(&wrapped, (void *)wraps);
	stackrec(unitpkg, name, name, (Pos){0}, kind, NULL);
	return xprintf("\tGL_PCLINE(%s__info, 0);\n", name);
}

static const char *wrapperentryof(const char *name, const char *wraps) {
	return wrapperentrykind(name, wraps, SR_WRAPPER);
}

const char *wrapperentry(const char *name) { return wrapperentryof(name, NULL); }

static void emitwrapperinfos(void) {
	for (int i = 0; i < wrappers.n; i++) {
		const char *w = wrapped.v[i] ? xprintf("(void (*)(void))%s", (char *)wrapped.v[i]) : "0";
		int64_t at = helperstart();
		bprintf(&gdecls, "static const GlFuncInfo %s__info __attribute__((used)) = {0, \"<autogenerated>\", 0, 0, 0, 0, (void (*)(void))%s, %s};\n",
			(char *)wrappers.v[i], (char *)wrappers.v[i], w);
		helperend(xprintf("%s__info", (char *)wrappers.v[i]), at, NULL);
		helperuse(xprintf("%s__info", (char *)wrappers.v[i]), wrappers.v[i]);
	}
}

/* ---- helpers: each part of a unit gets the ones it uses ----
 *
 * glc's static helpers (wrappers, thunks, their pc records and func
 * values) are written to gdecls, each as one run of text under the names
 * it defines.  A unit cut into parts (splitunit) writes into each part
 * only the helpers that its code names — its functions, and in the first
 * part the descriptors and itabs — and the helpers those name in turn,
 * found by reading the identifiers of the C: gcc's time goes mostly per
 * function, and every part used to compile every wrapper of the unit.
 * A helper two parts use is in both, static in each, as all were. */
typedef struct Helper {
	int64_t start, end; /* in gdecls */
	const char *name;   /* interned */
	bool need;          /* in the part being written */
} Helper;
static Vec helpers;      /* in the order of gdecls */
static PtrMap helperof;  /* a name a helper defines, interned → Helper */

/* Which helpers each piece of the unit's C uses, recorded as it is written
 * (no one reads the C back to find out).  A piece is a top-level function
 * with its literals (funcuses, one per funcstarts entry), part 0's data
 * (variables, descriptors, itabs: part0uses), or a helper (helperuses: a
 * helper's name → the names it uses).  usehelper records a name for the
 * piece being written now; names that turn out to be no helper's (a method
 * that is its own itab entry) are ignored when parts are placed. */
typedef struct Uses {
	Vec names; /* interned */
} Uses;
static Uses part0uses;
static Uses *curuses;    /* the function being written, or NULL: part 0 */
static Vec funcuses;     /* Uses * per funcstarts entry */
static PtrMap helperuses; /* interned name → Uses * */

void usehelper(const char *name) { vpush(&(curuses ? curuses : &part0uses)->names, (void *)intern(name)); }

/* Helper name's text uses helper (or function) used. */
static void helperuse(const char *name, const char *used) {
	Uses *u = pmget(&helperuses, intern(name));
	if (!u) {
		u = xalloc(sizeof *u);
		pmput(&helperuses, intern(name), u);
	}
	vpush(&u->names, (void *)intern(used));
}

int64_t helperstart(void) { return (int64_t)gdecls.n; }

/* gdecls[start, now) is the helper that defines name (and alias, a second
 * name such as its func value, if not NULL). */
void helperend(const char *name, int64_t start, const char *alias) {
	Helper *last = helpers.n ? helpers.v[helpers.n - 1] : NULL;
	if (last && start < last->end)
		fatal("internal error: helper %s overlaps the one before it", name);
	Helper *h = xalloc(sizeof *h);
	h->start = start;
	h->end = (int64_t)gdecls.n;
	h->name = intern(name);
	vpush(&helpers, h);
	pmput(&helperof, intern(name), h);
	if (alias)
		pmput(&helperof, intern(alias), h);
}


/* The index of method name in interface type iface's itab (methods sorted
 * as completeiface orders them). */
int imethodindex(Type *iface, const char *name) {
	Type *u = under(iface);
	completeiface(u);
	for (int i = 0; i < u->methods.n; i++)
		if (((Method *)u->methods.v[i])->name == name)
			return i;
	return 0;
}

/* A name this file declares once (a prototype, an extern): true the first time. */
static bool firstinunit(const char *name) {
	name = intern(name);
	if (pmget(&unitnames, name))
		return false;
	pmput(&unitnames, name, (void *)name);
	return true;
}

/* A new file-scope name for one of glc's static helpers (wrappers,
 * boxed constants): base, or base_2, base_3, ... the first this unit has
 * not used. */
const char *unitname(const char *base) {
	if (firstinunit(base))
		return intern(base);
	for (int i = 2;; i++) {
		const char *n = xprintf("%s_%d", base, i);
		if (firstinunit(n))
			return intern(n);
	}
}

/* ---- canonical type keys: equal for identical types, across files ---- */

static void wkey(Buf *b, Type *t, int depth) {
	if (depth > 50) {
		bput(b, "...");
		return;
	}
	depth++;
	if (t == t_byte)
		t = types[T_UINT8];
	if (t == t_rune)
		t = types[T_INT32];
	switch (t->kind) {
	case T_NAMED:
		bprintf(b, "%s.%s", t->pkg ? t->pkg->path : "", t->name);
		if (t->obj && !t->obj->global && t->obj->pos.line) {
			/* a type declared in a function: its place tells it apart */
			const char *f = fileof(t->obj->pos), *slash = strrchr(f, '/');
			bprintf(b, "@%s:%d:%d", slash ? slash + 1 : f, t->obj->pos.line, t->obj->pos.col);
		}
		return;
	case T_POINTER: bputc(b, '*'); wkey(b, t->elem, depth); return;
	case T_SLICE: bput(b, "[]"); wkey(b, t->elem, depth); return;
	case T_ARRAY: bprintf(b, "[%lld]", (long long)t->len); wkey(b, t->elem, depth); return;
	case T_MAP: bput(b, "map["); wkey(b, t->key, depth); bputc(b, ']'); wkey(b, t->elem, depth); return;
	case T_CHAN: bprintf(b, "chan%lld ", (long long)t->len); wkey(b, t->elem, depth); return;
	case T_FUNC:
	case T_TUPLE:
		bput(b, t->kind == T_FUNC ? "func(" : "(");
		for (int i = 0; i < t->fields.n; i++) {
			if (i)
				bputc(b, ',');
			wkey(b, ((Field *)t->fields.v[i])->type, depth);
		}
		bput(b, t->variadic ? "...)" : ")");
		for (int i = 0; i < t->results.n; i++) {
			bputc(b, i ? ',' : ' ');
			wkey(b, ((Field *)t->results.v[i])->type, depth);
		}
		return;
	case T_STRUCT:
		bput(b, "struct{");
		for (int i = 0; i < t->fields.n; i++) {
			Field *f = t->fields.v[i];
			bprintf(b, "%s%s%s%s ", i ? ";" : "", f->embedded ? "!" : "", f->name ? f->name : "",
				f->name && !exported(f->name) && f->pkg ? xprintf("@%s", f->pkg->path) : "");
			wkey(b, f->type, depth);
			if (f->tag && *f->tag)
				bprintf(b, " %s", cstr(cstring(f->tag, (int64_t)strlen(f->tag))));
		}
		bputc(b, '}');
		return;
	case T_INTERFACE:
		completeiface(t);
		bput(b, "interface{");
		for (int i = 0; i < t->methods.n; i++) {
			Method *m = t->methods.v[i];
			bprintf(b, "%s%s%s", i ? ";" : "", m->name, !exported(m->name) && m->pkg ? xprintf("@%s", m->pkg->path) : "");
			resolvemethod(m);
			if (m->type)
				wkey(b, m->type, depth);
		}
		bputc(b, '}');
		return;
	default:
		bput(b, typestr(defaulttype(t)));
	}
}

/* t's canonical key, interned: equal for identical types. */
static const char *typekey(Type *t) {
	Buf b = {0};
	wkey(&b, t, 0);
	return intern(bstr(&b));
}

static const char *typehash(Type *t) {
	const char *k = typekey(t);
	uint64_t h = 14695981039346656037ull;
	for (const char *p = k; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	return xprintf("%016llx", (unsigned long long)h);
}

/* ---- readable names: descriptors, itabs, C struct tags ----
 *
 * A descriptor's linker symbol is the same in every unit and differs
 * between distinct types: gltype_<hash of the canonical key>.  The C a
 * reader sees calls it after its type instead — gltype_main_Point,
 * gltype_slice_int, gltype_map_string_ptr_main_Point — through an asm
 * label on its declaration (extern const GlType gltype_main_Point
 * __asm__("gltype_e570265de88ce2e4")).  C identifiers do not cross files,
 * so a readable name need only be unique within its unit: glc keeps one per
 * canonical key while it writes a unit, and a second key that renders the
 * same (a type declared in a function, a name cut short) takes _2, _3, ...
 * in the order the unit meets them, so a unit's names do not depend on
 * what else is compiled.
 * Readable names never hold "__", which the names derived from them use
 * (gltype_main_Point__gc, glitab_main_Point__fmt_Stringer), and start
 * with "gl", which no package's C prefix does (cprefix). */
static PtrMap rnamebykey; /* namespace and canonical key, interned → name */
static PtrMap rnametaken; /* name, interned → its key */

static Type *descfor(Type *t);

static void rname(Buf *b, Type *t, int depth);

static void rnamelist(Buf *b, Vec *fields, int depth) {
	for (int i = 0; i < fields->n; i++) {
		bputc(b, '_');
		rname(b, ((Field *)fields->v[i])->type, depth);
	}
}

/* t, written as a C identifier for a reader: lossy (glc's registry keeps
 * the names apart), cut short past 48 bytes. */
static void rname(Buf *b, Type *t, int depth) {
	if (b->n > 48 || depth > 8)
		return;
	depth++;
	t = descfor(t);
	switch (t->kind) {
	case T_NAMED:
		if (t->pkg && t->pkg->cprefix)
			bprintf(b, "%s_", t->pkg->cprefix);
		bput(b, gident(t->name));
		if (t->obj && !t->obj->global && t->obj->pos.line) /* declared in a function */
			bprintf(b, "_at%d", t->obj->pos.line);
		return;
	case T_POINTER: bput(b, "ptr_"); rname(b, t->elem, depth); return;
	case T_SLICE: bput(b, "slice_"); rname(b, t->elem, depth); return;
	case T_ARRAY: bprintf(b, "array%lld_", (long long)t->len); rname(b, t->elem, depth); return;
	case T_CHAN:
		bput(b, t->len == 1 ? "recvchan_" : t->len == 2 ? "sendchan_" : "chan_");
		rname(b, t->elem, depth);
		return;
	case T_MAP:
		bput(b, "map_");
		rname(b, t->key, depth);
		bputc(b, '_');
		rname(b, t->elem, depth);
		return;
	case T_FUNC:
		bput(b, "func");
		rnamelist(b, &t->fields, depth);
		if (t->results.n)
			bput(b, "_ret");
		rnamelist(b, &t->results, depth);
		return;
	case T_TUPLE: bput(b, "tuple"); rnamelist(b, &t->fields, depth); return;
	case T_STRUCT:
		bput(b, "struct");
		for (int i = 0; i < t->fields.n && b->n <= 48; i++) {
			Field *f = t->fields.v[i];
			bprintf(b, "_%s", f->name && strcmp(f->name, "_") ? cleanname(f->name, false) : "blank");
		}
		return;
	case T_INTERFACE:
		completeiface(t);
		bput(b, t->methods.n ? "iface" : "any");
		for (int i = 0; i < t->methods.n && b->n <= 48; i++)
			bprintf(b, "_%s", cleanname(((Method *)t->methods.v[i])->name, false));
		return;
	case T_UNSAFEPTR: bput(b, "unsafe_Pointer"); return;
	default: bput(b, cleanname(typestr(t), false)); return;
	}
}

static const char *readablename(const char *ns, Type *t, const char *key);

/* t's readable descriptor name without its "gltype_": main_Point. */
static const char *typerealname(Type *t) {
	t = descfor(t);
	return readablename("gltype_", t, typekey(t)) + strlen("gltype_");
}

/* The readable name in namespace ns (a prefix: "gltype_", "gl") of the
 * type whose canonical key is key. */
static const char *readablename(const char *ns, Type *t, const char *key) {
	const char *k = intern(xprintf("%s %s", ns, key));
	const char *name = pmget(&rnamebykey, k);
	if (name)
		return name;
	Buf raw = {0}, b = {0};
	bput(&raw, ns);
	rname(&raw, t, 0);
	for (const char *p = bstr(&raw); *p; p++) /* no "__", no final "_" */
		if (!(*p == '_' && (p[1] == '_' || p[1] == 0)))
			bputc(&b, *p);
	const char *base = intern(bstr(&b));
	name = base;
	for (int i = 2; pmget(&rnametaken, name); i++)
		name = intern(xprintf("%s_%d", base, i));
	pmput(&rnametaken, name, (void *)k);
	pmput(&rnamebykey, k, (void *)name);
	return name;
}

/* Whether s is in the style of C's macros (SIZE_MAX, INT64_C): capitals,
 * digits and at least one "_". */
static bool macrostyle(const char *s) {
	bool us = false;
	for (; *s; s++) {
		if (islower((unsigned char)*s))
			return false;
		us |= *s == '_';
	}
	return us;
}

/* A name a struct member may keep: ASCII, no C keyword or macro, not
 * reserved by C ("__x", "_X"), not ending in "_". */
static bool plainfield(const char *s) {
	size_t n = strlen(s);
	return !strcmp(cleanname(s, false), s) && !ckeyword(s) && !macrostyle(s) && s[n - 1] != '_' &&
	       !(s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1])));
}

/* A struct member's C name: a plain name stays; any other is escaped
 * (cleanname, and a leading "_" as x5f) and gets a final "_".  Distinct
 * fields keep distinct names, and a name that starts and ends with "_"
 * (glc's own _pad_, blank fields _1_, ...) is never a gl field's. */
const char *cfield(const char *name) {
	if (!name)
		return "anon";
	if (plainfield(name))
		return intern(name);
	const char *e = cleanname(name, true);
	return intern(e[0] == '_' ? xprintf("x5f%s_", e + 1) : xprintf("%s_", e));
}

/* The C name of struct u's i-th field: blank fields, any number of them,
 * are _1_, _2_, ... by position. */
const char *cmember(Type *u, int i) {
	Field *f = u->fields.v[i];
	if (f->name && !strcmp(f->name, "_"))
		return xprintf("_%d_", i);
	return cfield(f->name);
}

const char *fileof(Pos p) {
	const char *f = p.file >= 0 && p.file < srcfiles.n ? srcfiles.v[p.file] : "?";
	return f;
}

/* The absolute path of p's file, for tracebacks and runtime.Caller, which
 * print absolute paths as Go's do (the C comments keep the path as glc was
 * given it). */
const char *abspathof(Pos p) {
	const char *f = fileof(p);
	if (f[0] == '/' || f[0] == '?')
		return f;
	char *r = realpath(f, NULL);
	if (r != NULL) {
		const char *a = intern(r);
		free(r);
		return a;
	}
	char cwd[4096];
	return getcwd(cwd, sizeof cwd) ? intern(xprintf("%s/%s", cwd, f)) : f;
}

/* ---------------------------------------------------------------- C types */

static const char *structname(Type *t) {
	if (!t->cname || (t->kind != T_NAMED && t->cnameunit != unitid)) {
		t->cnameunit = unitid;
		if (t->kind == T_NAMED) {
			const char *pk = t->pkg && t->pkg->cprefix ? t->pkg->cprefix : "x";
			if (t->obj && !t->obj->global)
				t->cname = xprintf("struct %s_%s__%.8s", pk, gident(t->name), typehash(t));
			else
				t->cname = xprintf("struct %s_%s", pk, gident(t->name));
		} else
			t->cname = xprintf("struct %s", readablename("gl", t, typekey(t)));
	}
	if (firstinunit(t->cname)) {
		vpush(&structs, t);
		bprintf(&gtypes, "%s; /* %s */\n", t->cname, typestr(t));
	}
	return t->cname;
}

/* Whether t is a pointer whose chain of element types is pointers without
 * end (type N *N; type A *B; type B *A; and *N): C has no type for it, so
 * it is void * and a dereference casts (derefptr). */
bool ptrloop(Type *t) {
	Vec seen = {0};
	for (Type *u = under(t); u->kind == T_POINTER; u = under(u->elem)) {
		Type *e = u->elem;
		if (e->kind != T_NAMED)
			continue;
		for (int i = 0; i < seen.n; i++)
			if (seen.v[i] == e)
				return true;
		vpush(&seen, e);
	}
	return false;
}

bool checkstores;

/* A func value that is a static closure object (read-only, const in C) as
 * the GlFunc * every func value is. */
const char *staticfunc(const char *sym) {
	return xprintf(checkstores ? "((GlFunc *)(uintptr_t)&%s)" : "((GlFunc *)&%s)", sym);
}

static const char *runtimename(Type *t);

const char *ctype(Type *t) {
	if (!t)
		return "void";
	switch (t->kind) {
	case T_NAMED: {
		if (runtimename(t))
			return runtimename(t);
		Type *u = under(t);
		if (u->kind == T_STRUCT || u->kind == T_ARRAY)
			return structname(t);
		return ctype(u);
	}
	case T_BOOL: case T_UNTYPED_BOOL: return "bool";
	case T_INT: case T_INT64: case T_UNTYPED_INT: return "int64_t";
	case T_INT8: return "int8_t";
	case T_INT16: return "int16_t";
	case T_INT32: case T_UNTYPED_RUNE: return "int32_t";
	case T_UINT: case T_UINT64: return "uint64_t";
	case T_UINT8: return "uint8_t";
	case T_UINT16: return "uint16_t";
	case T_UINT32: return "uint32_t";
	case T_UINTPTR: return "uintptr_t";
	case T_FLOAT32: return "float";
	case T_FLOAT64: case T_UNTYPED_FLOAT: return "double";
	case T_COMPLEX64: return "float _Complex";
	case T_COMPLEX128: case T_UNTYPED_COMPLEX: return "double _Complex";
	case T_STRING: case T_UNTYPED_STRING: return "GlString";
	case T_UNSAFEPTR: case T_UNTYPED_NIL: return checkstores ? "const void *" : "void *";
	case T_POINTER:
		if (checkstores) /* what a pointer points at is written only by store() */
			return ptrloop(t) ? "const void *" : xprintf("%s const *", ctype(t->elem));
		return ptrloop(t) ? "void *" : xprintf("%s *", ctype(t->elem));
	case T_SLICE: return "GlSlice";
	case T_MAP: return "GlMap *";
	case T_CHAN: return "GlChan *";
	case T_FUNC: return "GlFunc *";
	case T_INTERFACE: return "GlIface";
	case T_STRUCT: case T_ARRAY: case T_TUPLE: return structname(t);
	}
	return "void";
}

/* Aggregates bigger than 16 bytes, and arrays, cross calls by pointer (S5). */
bool bypointer(Type *t) {
	Type *u = under(t);
	if (u->kind == T_ARRAY || u->kind == T_SLICE)
		return true;
	if (u->kind == T_STRUCT || u->kind == T_TUPLE)
		return tsize(u) > 16;
	return false;
}

/* Variables holding pointers, and aggregates, live in the data frame (S1),
 * except a register leaf's pointers and headers (regleaf.c). */
bool inframe(Type *t) {
	Type *u = under(t);
	if (u->kind == T_STRUCT || u->kind == T_ARRAY || u->kind == T_TUPLE)
		return true;
	if (fn && fn->regleaf && regleafkind(t))
		return false;
	return haspointers(t);
}

/* Emit a struct definition after the definitions of the aggregates it
 * holds by value. */
static void defstruct(Type *t) {
	if (!firstinunit(xprintf("%s{}", t->cname)))
		return;
	Type *u = under(t);
	Buf b = {0};
	layout(t);
	bprintf(&b, "%s { /* %s */\n", t->cname, typestr(t));
	if (u->kind == T_ARRAY) {
		Type *e = u->elem;
		if (under(e)->kind == T_STRUCT || under(e)->kind == T_ARRAY) {
			ctype(e);
			defstruct(e);
		}
		bprintf(&b, "\t%s a[%lld];\n", ctype(e), (long long)u->len);
	} else {
		Vec *fs = &u->fields;
		for (int i = 0; i < fs->n; i++) {
			Field *f = fs->v[i];
			Type *ft = f->type;
			Type *fu = under(ft);
			if (fu->kind == T_STRUCT || fu->kind == T_ARRAY) {
				ctype(ft);
				defstruct(ft);
			}
			if (u->kind == T_TUPLE)
				bprintf(&b, "\t%s r%d;\n", ctype(ft), i);
			else
				bprintf(&b, "\t%s %s;\n", ctype(ft), cmember(u, i));
		}
		/* Go pads a final zero-size field so &s.last stays inside s */
		if (fs->n && tsize(((Field *)fs->v[fs->n - 1])->type) == 0 && tsize(u) > 0)
			bprintf(&b, "\tuint8_t _pad_[%lld];\n",
				(long long)(tsize(u) - ((Field *)fs->v[fs->n - 1])->offset));
	}
	bprintf(&b, "};\n");
	if (u->kind != T_TUPLE)
		bprintf(&b, "_Static_assert(sizeof(%s) == %lld, %s);\n", t->cname, (long long)tsize(t),
			cstrlit(xprintf("layout of %s", typestr(t)))); /* a struct tag has quotes */
	bput(&gtypes, bstr(&b));
}

/* ---------------------------------------------------------------- literals */

/* A string's bytes as the initializer of a GlString: {(const uint8_t *)"...", n} */
/* The C string literal of the n bytes at s (octal escapes: a hex escape
 * would swallow the digits after it). */
const char *cbytes(const char *s, int64_t n) {
	Buf b = {0};
	bputc(&b, '"');
	for (int64_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			bprintf(&b, "\\%c", c);
		else if (c == '\n')
			bput(&b, "\\n");
		else if (c < 32 || c >= 127 || c == '?')
			bprintf(&b, "\\%03o", c);
		else
			bputc(&b, (char)c);
	}
	bputc(&b, '"');
	return bstr(&b);
}

const char *strinit(const char *s, int64_t n) {
	if (n == 0)
		return "{0}";
	return xprintf("{(const uint8_t *)%s, %lld}", cbytes(s, n), (long long)n);
}

const char *strlit(const char *s, int64_t n) { return xprintf("((GlString)%s)", strinit(s, n)); }

/* A C string literal of s (a path): every byte that is not plain printed
 * in octal. */
const char *cstrlit(const char *s) {
	Buf b = {0};
	bputc(&b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 32 || c >= 127 || c == '"' || c == '\\' || c == '?')
			bprintf(&b, "\\%03o", c);
		else
			bputc(&b, (char)c);
	}
	bputc(&b, '"');
	return bstr(&b);
}

/* ---------------------------------------------------------------- descriptors */

int64_t ptrbitmap(Type *t, uint8_t *bits, int64_t off) {
	Type *u = under(t);
	int64_t last = 0;
#define SET(o) do { if (bits) bits[(o) / 64] |= (uint8_t)(1u << (((o) / 8) % 8)); last = (o) + 8; } while (0)
	switch (u->kind) {
	case T_POINTER: case T_MAP: case T_CHAN: case T_FUNC: case T_UNSAFEPTR:
		SET(off);
		break;
	case T_STRING: case T_SLICE:
		SET(off);
		break;
	case T_INTERFACE:
		SET(off);
		SET(off + 8);
		break;
	case T_ARRAY:
		if (haspointers(u->elem))
			for (int64_t i = 0; i < u->len; i++) {
				int64_t l = ptrbitmap(u->elem, bits, off + i * tsize(u->elem));
				if (l)
					last = l;
			}
		break;
	case T_STRUCT: case T_TUPLE:
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			int64_t l = ptrbitmap(f->type, bits, off + f->offset);
			if (l)
				last = l;
		}
		break;
	}
#undef SET
	return last;
}

static Type *descfor(Type *t) {
	if (t == t_byte)
		t = types[T_UINT8];
	if (t == t_rune)
		t = types[T_INT32];
	if (isuntyped(t))
		t = defaulttype(t);
	return t;
}

const char *typedesc(Type *t) {
	t = descfor(t);
	if (!t->sym || t->symunit != unitid) {
		t->sym = xprintf("&%s", readablename("gltype_", t, typekey(t)));
		t->symunit = unitid;
	}
	if (firstinunit(t->sym)) {
		vpush(&descs, t);
		bprintf(&gfwd, "extern const GlType %s __asm__(\"gltype_%s\") __attribute__((weak)); /* %s */\n", t->sym + 1,
			typehash(t), typestr(t));
	}
	return t->sym;
}

/* The full method set of t (value: value methods and those promoted
 * through embedded pointers; pointer: all), sorted by name. */
typedef struct MEntry {
	Method *m;
	Vec path;
	bool ptr;
} MEntry;

static void candidates(Type *t, Vec *names, int depth) {
	if (depth > 8)
		return;
	if (t->kind == T_POINTER)
		t = t->elem;
	if (t->kind == T_NAMED)
		for (int i = 0; i < t->methods.n; i++) {
			const char *n = ((Method *)t->methods.v[i])->name;
			bool have = false;
			for (int j = 0; j < names->n; j++)
				if (names->v[j] == n)
					have = true;
			if (!have)
				vpush(names, (void *)n);
		}
	Type *u = under(t);
	if (u->kind == T_STRUCT)
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			if (f->embedded)
				candidates(f->type, names, depth + 1);
		}
	if (u->kind == T_INTERFACE) {
		completeiface(u);
		for (int i = 0; i < u->methods.n; i++) {
			const char *n = ((Method *)u->methods.v[i])->name;
			bool have = false;
			for (int j = 0; j < names->n; j++)
				if (names->v[j] == n)
					have = true;
			if (!have)
				vpush(names, (void *)n);
		}
	}
}

static int mentrycmp(const void *a, const void *b) {
	const MEntry *x = *(MEntry *const *)a, *y = *(MEntry *const *)b;
	return strcmp(x->m->name, y->m->name);
}

static Vec methodset(Type *t) {
	Vec names = {0}, out = {0};
	if (under(t)->kind == T_INTERFACE)
		return out;
	candidates(t, &names, 0);
	Package *saved = curpkg;
	for (int i = 0; i < names.n; i++) {
		bool ptr = false, ind = false;
		Vec path = {0};
		/* unexported methods are found relative to their own package */
		curpkg = NULL;
		Method *m = methodof(t, names.v[i], &path, &ptr, &ind);
		curpkg = saved;
		if (!m)
			continue;
		if (ptr && t->kind != T_POINTER && !ind)
			continue; /* not in the value method set */
		MEntry *e = xalloc(sizeof *e);
		e->m = m;
		e->path = path;
		e->ptr = ptr;
		vpush(&out, e);
	}
	curpkg = saved;
	if (out.n > 1)
		qsort(out.v, out.n, sizeof(void *), mentrycmp);
	return out;
}

/* The function an itab slot holds for method m of t: it receives the
 * interface's data word (the value itself for pointer-shaped types, else a
 * pointer to a boxed copy), follows embedded fields and calls the method;
 * or the method itself when it takes the word as it is. */
static PtrMap wrapperbykey; /* type key, method and directness → the unit's wrapper */

const char *methodwrapper(Type *t, Method *m, Vec *path, bool direct) {
	resolvemethod(m);
	/* one wrapper per method of a type, for its itabs and its descriptor */
	const char *key = intern(xprintf("%s\n%p\n%d", typekey(t), (void *)m, direct));
	const char *done = pmget(&wrapperbykey, key);
	if (done) {
		usehelper(done);
		return done;
	}
	/* a method of *T declared on *T takes the data word as it is, in the
	 * same C parameter: the itab holds the method itself, as Go's does */
	if (direct && m->ptrrecv && m->fn && (!path || !path->n) && t->kind == T_POINTER) {
		const char *fn = funcsym(m->fn);
		pmput(&wrapperbykey, key, (void *)fn);
		return fn;
	}
	Type *sig = m->type;
	const char *name = unitname(xprintf("glwrap_%s__%s", typerealname(t), gident(m->name)));
	pmput(&wrapperbykey, key, (void *)name);
	int mode;
	resulttype(sig, &mode);
	Buf b = {0};
	const char *params = cparams(sig, NULL, xprintf("%svoid *data", cq()), 0, 0, true);
	const char *args = cargs(sig, 0, 0); /* the parameters; the out pointer and receiver go before */
	const char *rc = cresult(sig);
	/* the receiver expression */
	Type *cur = t;
	const char *recv;
	if (direct && (under(t)->kind == T_STRUCT || under(t)->kind == T_ARRAY))
		recv = xprintf("(*(%s *)&data)", ctype(t)); /* a one-pointer aggregate, stored in the word */
	else if (direct && checkstores && under(t)->kind != T_POINTER && under(t)->kind != T_UNSAFEPTR)
		recv = xprintf("((%s)(uintptr_t)data)", ctype(t)); /* a map, chan or func: the runtime's to write */
	else if (direct)
		recv = xprintf("((%s)data)", ctype(t));
	else
		recv = xprintf("(*(%s)data)", heapptr(t));
	for (int i = 0; path && i < path->n; i++) {
		Field *f = path->v[i];
		if (under(cur)->kind == T_POINTER)
			recv = xprintf("%s->%s", recv, cfield(f->name));
		else
			recv = xprintf("%s.%s", recv, cfield(f->name));
		cur = f->type;
	}
	bool curptr = under(cur)->kind == T_POINTER;
	Type *base = curptr ? under(cur)->elem : cur;
	if (under(base)->kind == T_INTERFACE) {
		/* a method of an embedded interface: call through its itab */
		const char *iv = curptr ? xprintf("(*%s)", recv) : recv;
		int idx = imethodindex(base, m->name);
		bprintf(&b, "/* the method %s of embedded %s, for %s */\nGL_WRAPPER static %s %s(%s) {\n%s\tGlIface i = %s;\n",
			m->name, typestr(base), typestr(t), rc, name, params, wrapperentry(name), iv);
		if (under(base)->methods.n)
			bprintf(&b, "\tif (!i.tab) { gl_panicnil(g); %s }\n", mode == R_DIRECT ? xprintf("return (%s){0};", rc) : "return;");
		bprintf(&b, "\t%s((%s)((const GlItab *)i.tab)->fun[%d])(g%s%s);\n}\n", mode == R_DIRECT ? "return " : "",
			fncast(sig, 2), idx, mode == R_OUT ? ", out, i.data" : ", i.data", args);
		int64_t at = helperstart();
		bput(&gdecls, bstr(&b));
		helperend(name, at, NULL);
		usehelper(name);
		return name;
	}
	const char *r;
	if (m->ptrrecv)
		r = curptr ? recv : xprintf("&%s", recv);
	else if (bypointer(base))
		r = curptr ? recv : xprintf("&%s", recv);
	else
		r = curptr ? xprintf("(*%s)", recv) : recv;
	if (curptr && !m->ptrrecv)
		bprintf(&b, "/* %s.%s for an interface holding %s */\nGL_WRAPPER static %s %s(%s) {\n%s\tif (!%s) { gl_panicnil(g); %s }\n",
			typestr(base), m->name, typestr(t), rc, name, params, wrapperentry(name), recv,
			mode == R_DIRECT ? xprintf("return (%s){0};", rc) : "return;");
	else
		bprintf(&b, "/* %s.%s for an interface holding %s */\nGL_WRAPPER static %s %s(%s) {\n%s", typestr(base), m->name,
			typestr(t), rc, name, params, wrapperentry(name));
	if (mode == R_OUT) /* the out pointer goes first; the receiver follows */
		bprintf(&b, "\t%s(g, out, %s%s);\n}\n", funcsym(m->fn), r, args);
	else
		bprintf(&b, "\t%s%s(g, %s%s);\n}\n", mode == R_DIRECT ? "return " : "", funcsym(m->fn), r, args);
	int64_t at = helperstart();
	bput(&gdecls, bstr(&b));
	helperend(name, at, NULL);
	usehelper(name);
	return name;
}

const char *itabsym(Type *t, Type *iface) {
	const char *th = typehash(descfor(t)), *ih = typehash(iface);
	uint64_t h = 14695981039346656037ull;
	for (const char *p = th; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	for (const char *p = ih; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ull;
	/* readable: the two readable descriptor names, which hold no "__" */
	const char *sym = xprintf("glitab_%s__%s", typerealname(t), typerealname(iface));
	const char *ref = xprintf("&%s.h", sym);
	if (firstinunit(sym)) {
		vpush(&itabs, t);
		vpush(&itabs, iface);
		vpush(&itabs, (void *)sym);
		Type *iu = under(iface);
		completeiface(iu);
		bprintf(&gfwd,
			"extern const struct %s_t { GlItab h; void (*fun[%d])(void); } %s __asm__(\"glitab_%016llx\") "
			"__attribute__((weak)); /* %s, %s */\n",
			sym, iu->methods.n ? iu->methods.n : 1, sym, (unsigned long long)h, typestr(t), typestr(iface));
	}
	return ref;
}

/* The itab named name (itabsym) of concrete type t for interface iface. */
static void emititab(Type *t, Type *iface, const char *name) {
	Type *iu = under(iface);
	completeiface(iu);
	Buf b = {0};
	bprintf(&b, "__attribute__((weak)) const struct %s_t %s = {\n\t{%s, %s, 0, 0},\n\t{", name, name, typedesc(iface),
		typedesc(t));
	Vec ms = methodset(t);
	for (int i = 0; i < iu->methods.n; i++) {
		Method *want = iu->methods.v[i];
		MEntry *e = NULL;
		for (int j = 0; j < ms.n; j++)
			if (((MEntry *)ms.v[j])->m->name == want->name)
				e = ms.v[j];
		if (!e)
			fatal("internal error: itab %s for %s lacks %s", typestr(iface), typestr(t), want->name);
		bprintf(&b, "%s(void (*)(void))%s", i ? ", " : "", methodwrapper(t, e->m, &e->path, isdirectiface(t)));
	}
	if (!iu->methods.n)
		bput(&b, "0");
	bput(&b, "}\n};\n");
	bput(&gdescs, bstr(&b));
}

static const char *kindname(Type *u) {
	switch (u->kind) {
	case T_BOOL: return "GL_KIND_BOOL";
	case T_INT: return "GL_KIND_INT";
	case T_INT8: return "GL_KIND_INT8";
	case T_INT16: return "GL_KIND_INT16";
	case T_INT32: return "GL_KIND_INT32";
	case T_INT64: return "GL_KIND_INT64";
	case T_UINT: return "GL_KIND_UINT";
	case T_UINT8: return "GL_KIND_UINT8";
	case T_UINT16: return "GL_KIND_UINT16";
	case T_UINT32: return "GL_KIND_UINT32";
	case T_UINT64: return "GL_KIND_UINT64";
	case T_UINTPTR: return "GL_KIND_UINTPTR";
	case T_FLOAT32: return "GL_KIND_FLOAT32";
	case T_FLOAT64: return "GL_KIND_FLOAT64";
	case T_COMPLEX64: return "GL_KIND_COMPLEX64";
	case T_COMPLEX128: return "GL_KIND_COMPLEX128";
	case T_STRING: return "GL_KIND_STRING";
	case T_UNSAFEPTR: return "GL_KIND_UNSAFEPOINTER";
	case T_ARRAY: return "GL_KIND_ARRAY";
	case T_SLICE: return "GL_KIND_SLICE";
	case T_STRUCT: return "GL_KIND_STRUCT";
	case T_POINTER: return "GL_KIND_POINTER";
	case T_FUNC: return "GL_KIND_FUNC";
	case T_INTERFACE: return "GL_KIND_INTERFACE";
	case T_MAP: return "GL_KIND_MAP";
	case T_CHAN: return "GL_KIND_CHAN";
	}
	return "GL_KIND_INVALID";
}

static void algof(Type *t, const char **eq, const char **hash) {
	Type *u = under(t);
	*eq = *hash = "0";
	if (!comparable(t))
		return;
	switch (u->kind) {
	case T_STRING: *eq = "gl_strequal"; *hash = "gl_strhash"; return;
	case T_FLOAT32: *eq = "gl_f32equal"; *hash = "gl_f32hash"; return;
	case T_FLOAT64: *eq = "gl_f64equal"; *hash = "gl_f64hash"; return;
	case T_COMPLEX64: *eq = "gl_c64equal"; *hash = "gl_c64hash"; return;
	case T_COMPLEX128: *eq = "gl_c128equal"; *hash = "gl_c128hash"; return;
	case T_INTERFACE:
		completeiface(u);
		if (u->methods.n) {
			*eq = "gl_ifaceequal";
			*hash = "gl_ifacehash";
		} else {
			*eq = "gl_efaceequal";
			*hash = "gl_efacehash";
		}
		return;
	case T_ARRAY: *eq = "gl_arrayequal"; *hash = "gl_arrayhash"; return;
	case T_STRUCT: *eq = "gl_structequal"; *hash = "gl_structhash"; return;
	}
	*eq = "gl_memequal";
	*hash = "gl_memhash";
}

static bool regmem(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_STRING: case T_FLOAT32: case T_FLOAT64: case T_COMPLEX64: case T_COMPLEX128: case T_INTERFACE:
		return false;
	case T_ARRAY:
		return regmem(u->elem);
	case T_STRUCT: {
		int64_t off = 0;
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			if (f->offset != off || !regmem(f->type) || (f->name && !strcmp(f->name, "_")))
				return false;
			off = f->offset + tsize(f->type);
		}
		return off == tsize(u);
	}
	}
	return true;
}

static uint32_t strhash32(const char *s) {
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* The layout of a map's bucket, as runtime/map.c lays it out: 8 tophash
 * bytes, 8 keys, 8 elems, the overflow pointer; a key or elem larger than
 * 128 bytes is stored indirectly, as a pointer.  Every part is a multiple
 * of 8 bytes long, so there is no padding, and map.c checks at makemap
 * that the sizes agree.  Its descriptor tells the collector which words of
 * a bucket are pointers: the overflow word is one when a key or an elem
 * is, so overflow buckets are kept alive through their predecessor; else
 * it is a uintptr, the bucket has no pointers and is allocated noscan, and
 * the runtime lists its heap overflow buckets apart (map.c's ovflist, Go's
 * mapextra). */
static Type *buckettype(Type *m) {
	Type *k = m->key, *e = m->elem;
	if (tsize(k) > 128)
		k = ptrto(k);
	if (tsize(e) > 128)
		e = ptrto(e);
	Type *ovf = haspointers(k) || haspointers(e) ? types[T_UNSAFEPTR] : types[T_UINTPTR];
	Type *parts[] = {arrayof(types[T_UINT8], 8), arrayof(k, 8), arrayof(e, 8), ovf};
	const char *names[] = {"topbits", "keys", "elems", "overflow"};
	Type *t = newtype(T_STRUCT);
	for (int i = 0; i < 4; i++) {
		Field *f = xalloc(sizeof *f);
		f->name = intern(names[i]);
		f->type = parts[i];
		vpush(&t->fields, f);
	}
	layout(t);
	return t;
}

/* ---- what reflect calls through: Method.Func, Value.Method, Value.Call */

/* ", T p<first>, ..." for the parameters of sig from index from on (as a
 * C parameter list, or as the argument list when args is set). */
/* The C calling convention of gl functions, written once (DESIGN.md S5):
 *
 *     R f(G *g [, GlFunc *ctx] [, T *out] [, receiver], p0, p1, ...)
 *
 * ctxdecl: a closure's context ("GlFunc *ctx"), or NULL; out: the results
 * when they go through a pointer into the caller's data frame (resulttype);
 * recvdecl: a method's receiver or an interface's data word ("void *data"),
 * or NULL; then sig's parameters from index from on, named p<first>, ...,
 * aggregates by const pointer (bypointer).  names false gives the types
 * alone, for a function pointer type (ctxdecl and recvdecl are then types). */
const char *cparams(Type *sig, const char *ctxdecl, const char *recvdecl, int from, int first, bool names) {
	int mode;
	Type *rt = resulttype(sig, &mode);
	Buf b = {0};
	bput(&b, names ? "G *g" : "G *");
	if (ctxdecl)
		bprintf(&b, ", %s", ctxdecl);
	if (mode == R_OUT)
		bprintf(&b, names ? ", %s *out" : ", %s *", ctype(rt));
	if (recvdecl)
		bprintf(&b, ", %s", recvdecl);
	for (int i = from; i < sig->fields.n; i++) {
		Type *pt = ((Field *)sig->fields.v[i])->type;
		if (names)
			bprintf(&b, bypointer(pt) ? ", const %s *p%d" : ", %s p%d", ctype(pt), first + i - from);
		else
			bprintf(&b, bypointer(pt) ? ", const %s *" : ", %s", ctype(pt));
	}
	return bstr(&b);
}

/* The arguments that pass cparams' parameters on: ", p<first>, ..." for
 * sig's parameters from index from on. */
const char *cargs(Type *sig, int from, int first) {
	Buf b = {0};
	for (int i = from; i < sig->fields.n; i++)
		bprintf(&b, ", p%d", first + i - from);
	return bstr(&b);
}

/* The C result type of a function of signature sig. */
const char *cresult(Type *sig) {
	int mode;
	Type *rt = resulttype(sig, &mode);
	return mode == R_DIRECT ? ctype(rt) : "void";
}

/* The interface data word of the receiver p0 of type t, as the itab
 * function ifn takes it: the value itself when t is pointer-shaped, else a
 * pointer to it (ifn reads it before its call, so the address of the C
 * parameter does not outlive a stack move). */
static const char *recvword(Type *t) {
	if (isdirectiface(t)) {
		if (bypointer(t))
			return "(*(void *const *)p0)";
		if (under(t)->kind == T_STRUCT)
			return "({ void *w; memcpy(&w, &p0, sizeof w); w; })";
		return checkstores ? "((const void *)p0)" : "((void *)p0)";
	}
	return checkstores ? (bypointer(t) ? "((const void *)p0)" : "((const void *)&p0)") : bypointer(t) ? "((void *)p0)" : "((void *)&p0)";
}

/* Method.Func for method m of t whose itab function is ifn: T.M as a
 * static func value of type ftyp (the receiver first). */
static const char *reflectmexpr(Type *t, Method *m, const char *ifn, Type *ftyp) {
	const char *name = unitname(xprintf("glrme_%s__%s", typerealname(t), gident(m->name)));
	int mode;
	resulttype(ftyp, &mode);
	const char *rc = cresult(ftyp);
	const char *params = cparams(ftyp, "GlFunc *ctx", NULL, 0, 0, true);
	int64_t at = helperstart();
	bprintf(&gdecls, "static %s %s(%s);\n/* %s.%s for reflect's Method.Func */\nGL_WRAPPER static %s %s(%s) {\n%s\t(void)ctx;\n",
		rc, name, params, typestr(t), m->name, rc, name, params, wrapperentry(name));
	bprintf(&gdecls, "\t%s((%s)%s)(g%s, %s%s);\n}\n", mode == R_DIRECT ? "return " : "", fncast(m->type, 2), ifn,
		mode == R_OUT ? ", out" : "", recvword(t), cargs(ftyp, 1, 1));
	bprintf(&gdecls, "static const GlFunc %s__fv = {(void (*)(void))%s};\n", name, name);
	helperend(name, at, xprintf("%s__fv", name));
	helperuse(name, ifn);
	usehelper(name);
	return xprintf("&%s__fv", name);
}

/* Value.Method's code for method m of t whose itab function is ifn: the
 * closure reflect makes is {this function, the receiver's data word}. */
static const char *reflectmvalue(Type *t, Method *m, const char *ifn) {
	const char *name = unitname(xprintf("glrmv_%s__%s", typerealname(t), gident(m->name)));
	Type *sig = m->type;
	int mode;
	resulttype(sig, &mode);
	const char *rc = cresult(sig);
	const char *params = cparams(sig, "GlFunc *ctx", NULL, 0, 0, true);
	int64_t at = helperstart();
	bprintf(&gdecls, "static %s %s(%s);\n/* the method value of %s for reflect */\nGL_WRAPPER static %s %s(%s) {\n%s", rc, name,
		params, m->name, rc, name, params, wrapperentry(name));
	bprintf(&gdecls, "\t%s((%s)%s)(g%s, ((void *const *)ctx)[1]%s);\n}\n", mode == R_DIRECT ? "return " : "",
		fncast(sig, 2), ifn, mode == R_OUT ? ", out" : "", cargs(sig, 0, 0));
	helperend(name, at, NULL);
	helperuse(name, ifn);
	usehelper(name);
	return name;
}

/* GlType.call of the func type sig (runtime/gl.h): Value.Call's way into
 * a func value of this type, arguments and results through pointers. */
enum { reflectOutMax = 1024 }; /* the biggest out tuple reflectcall keeps in its frame */

static const char *reflectcall(Type *sig, const char *sym) {
	const char *name = xprintf("%s__call", sym);
	int mode;
	Type *rt = resulttype(sig, &mode);
	Buf args = {0}, b = {0};
	for (int i = 0; i < sig->fields.n; i++) {
		Type *pt = ((Field *)sig->fields.v[i])->type;
		bprintf(&args, bypointer(pt) ? ", (%s const *)a[%d]" : ", *(%s const *)a[%d]", ctype(pt), i);
	}
	const char *callee = xprintf("((%s)f->fn)", fncast(sig, 3));
	bprintf(&b, "/* reflect's Value.Call of %s */\nGL_WRAPPER static void %s(G *g, GlFunc *f, void *const *a, void *const *r, void *s) {\n%s\t(void)a, (void)r, (void)s;\n",
		typestr(sig), name, wrapperentrykind(name, NULL, SR_REFLECTCALL));
	/* The results reach r[i], heap objects, through typedmemmove (the
	 * write barrier: a pointer result held only by a stack the mark has
	 * not scanned must be shaded when a black object takes it).  They
	 * come back on the stack first — in registers, or in an out tuple in
	 * this frame (after the call, at its distance from stack.hi: the call
	 * may move the stack), since the callee writes its out tuple with
	 * plain stores; only a tuple too big for this frame goes to the heap
	 * scratch s (Value.Call's newTuple), or a single such result straight
	 * to r[0]. */
	if (mode == R_VOID)
		bprintf(&b, "\t%s(g, f%s);\n", callee, bstr(&args));
	else if (mode == R_DIRECT)
		bprintf(&b, "\t%s v = %s(g, f%s);\n\t%s *t = __builtin_alloca(GL_OPAQUE(sizeof v));\n\t*t = v;\n"
			    "\treflect_callResults(g, &%s, t, r);\n", ctype(rt), callee, bstr(&args), ctype(rt), sym);
	else if (tsize(rt) <= reflectOutMax) {
		bprintf(&b, "\t%s out;\n\tuintptr_t off = g->stack.hi - (uintptr_t)&out;\n\t%s(g, f, &out%s);\n", ctype(rt), callee,
			bstr(&args));
		bprintf(&b, "\treflect_callResults(g, &%s, (const void *)(g->stack.hi - off), r);\n", sym);
	} else if (sig->results.n == 1)
		bprintf(&b, "\t%s(g, f, (%s *)r[0]%s);\n", callee, ctype(rt), bstr(&args));
	else
		bprintf(&b, "\t%s(g, f, (%s *)s%s);\n\treflect_callResults(g, &%s, s, r);\n", callee, ctype(rt), bstr(&args), sym);
	bput(&b, "}\n");
	int64_t at = helperstart();
	bput(&gdecls, bstr(&b));
	helperend(name, at, NULL);
	usehelper(name);
	return name;
}

/* ---- reflect.MakeFunc's code, one per C shape of signature ----
 *
 * A func value made by reflect.MakeFunc is {code, its func type, the Go
 * function} (stdlib/reflect/makefunc.gl).  The code must take the func
 * type's C arguments, so it is emitted by glc; but its work does not
 * depend on the types, only on which registers and stack slots they come
 * in (the SysV x86-64 classes of each parameter), and the types are in
 * the closure.  So it is emitted once per shape — "I" an integer
 * eightbyte, "D" an SSE one, pairs of them for aggregates of 9 to 16
 * bytes, "P" an aggregate passed by pointer (S5), "E" one of no size —
 * and func(int, string) error and func(*T, []byte) (int, bool) share one
 * (I_II__II).  A C parameter of the same classes is passed in the same
 * place, and reflect_makeFuncArgs copies each argument out of its word(s)
 * with its real type. */

/* The classes of the eightbytes of t at offset off: bit 1 INTEGER data,
 * bit 2 SSE (a float or complex), merged as SysV does. */
static void eightbytes(Type *t, int64_t off, int *cls) {
	Type *u = under(t);
	layout(u);
	switch (u->kind) {
	case T_FLOAT32: case T_FLOAT64: case T_COMPLEX64:
		cls[off / 8] |= 2;
		return;
	case T_COMPLEX128:
		cls[off / 8] |= 2, cls[off / 8 + 1] |= 2;
		return;
	case T_STRING: case T_INTERFACE:
		cls[off / 8] |= 1, cls[off / 8 + 1] |= 1;
		return;
	case T_STRUCT: case T_TUPLE:
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			eightbytes(f->type, off + f->offset, cls);
		}
		return;
	case T_ARRAY:
		for (int64_t i = 0; i < u->len; i++)
			eightbytes(u->elem, off + i * tsize(u->elem), cls);
		return;
	default:
		cls[off / 8] |= 1;
		return;
	}
}

/* The shape of a parameter or direct result of type t. */
static const char *shapeof(Type *t) {
	if (bypointer(t))
		return "P";
	int64_t size = tsize(t);
	if (size == 0)
		return "E";
	int cls[2] = {0, 0};
	eightbytes(t, 0, cls);
	char buf[3] = {0};
	for (int k = 0; k < (size + 7) / 8; k++)
		buf[k] = cls[k] & 1 ? 'I' : 'D';
	return xstrdup(buf);
}

/* The C type of a shape (runtime/gl.h). */
static const char *shapectype(const char *sh) {
	if (!strcmp(sh, "I"))
		return "uint64_t";
	if (!strcmp(sh, "D"))
		return "double";
	if (!strcmp(sh, "P"))
		return "const void *";
	return xprintf("GlShape%s", sh);
}

static Vec mfdone; /* shapes emitted in unit mfunit */
static int mfunit = -1;

/* GlType.makefunc of the func type sig: the code of its shape. */
static const char *reflectmakefunc(Type *sig) {
	int mode;
	Type *rt = resulttype(sig, &mode);
	int nin = sig->fields.n;
	Buf sh = {0};
	for (int i = 0; i < nin; i++)
		bprintf(&sh, "%s_", shapeof(((Field *)sig->fields.v[i])->type));
	bprintf(&sh, "_%s", mode == R_VOID ? "V" : mode == R_OUT ? "O" : shapeof(rt));
	const char *name = xprintf("glmakefunc_%s", bstr(&sh));
	if (mfunit != unitid)
		mfdone.n = 0, mfunit = unitid;
	for (int i = 0; i < mfdone.n; i++)
		if (!strcmp(mfdone.v[i], name))
			return name;
	vpush(&mfdone, (void *)name);

	const char *rc = mode == R_DIRECT ? shapectype(shapeof(rt)) : "void";
	Buf params = {0}, pins = {0}, block = {0}, copies = {0}, fx = {0}, b = {0};
	bput(&params, "G *g, GlFunc *ctx");
	if (mode == R_OUT)
		bput(&params, ", void *out"), bput(&fx, "GL_FIXPARAM(g, out); ");
	for (int i = 0; i < nin; i++) {
		const char *s = shapeof(((Field *)sig->fields.v[i])->type), *ct = shapectype(s);
		bprintf(&params, ", %s p%d", ct, i);
		if (!strcmp(s, "P")) { /* a pointer into the caller's frame */
			bprintf(&fx, "GL_FIXPARAM(g, p%d); ", i);
			bprintf(&copies, "\targs->src[%d] = p%d;\n", i, i);
		} else if (!strcmp(s, "E")) {
			bprintf(&copies, "\targs->src[%d] = args;\n", i);
		} else {
			const char *v = xprintf("p%d", i);
			if (strlen(s) == 2) { /* an aggregate: read before the check (bindparam) */
				bprintf(&pins, "\t%s p%d_r;\n\tGL_PARAMPIN(p%d_r, p%d);\n", ct, i, i, i);
				v = xprintf("p%d_r", i);
			}
			bprintf(&block, "\t%s a%d;\n", ct, i);
			bprintf(&copies, "\targs->a%d = %s;\n\targs->src[%d] = &args->a%d;\n", i, v, i, i);
		}
	}
	const char *bs = xprintf("struct %s__args", name);
	bprintf(&b, "/* reflect.MakeFunc's code for func types of the shape %s (compiler/emit.c) */\n", bstr(&sh));
	if (nin > 0)
		bprintf(&b, "%s {\n%s\tconst void *src[%d];\n};\n", bs, bstr(&block), nin);
	bprintf(&b, "GL_WRAPPER static %s %s(%s) {\n\tGL_PCLINE(%s__info, 0);\n%s", rc, name, bstr(&params), name, bstr(&pins));
	bprintf(&b, "\tGL_STACKCHECK(g, %s, %s__info, 0, %s);\n", nin > 0 ? xprintf("sizeof(%s)", bs) : "0", name, bstr(&fx));
	bput(&b, "\tconst GlType *ft = ((const GlType *const *)ctx)[1];\n");
	if (mode == R_OUT)
		bput(&b, "\tuintptr_t outoff = (uintptr_t)out - g->stack.lo < g->stack.hi - g->stack.lo ? g->stack.hi - (uintptr_t)out : 0;\n");
	if (nin > 0)
		bprintf(&b, "\t%s *args = __builtin_alloca(GL_OPAQUE(sizeof(%s)));\n%s"
			    "\tvoid *a = reflect_makeFuncArgs(g, ft, args->src);\n", bs, bs, bstr(&copies));
	bprintf(&b, "\tvoid *const *r = gl_callMakeFunc(g, ctx, %s);\n", nin > 0 ? "a" : "0");
	const char *zero = mode == R_DIRECT ? xprintf("{ %s z = {0}; return z; }", rc) : "return;";
	bprintf(&b, "\tif (GL_UNLIKELY(g->unwinding)) %s\n", zero);
	if (mode == R_OUT) {
		bput(&b, "\tif (outoff != 0) out = (void *)(g->stack.hi - outoff);\n");
		bput(&b, "\treflect_makeFuncResults(g, ft, r, out);\n");
	} else if (mode == R_DIRECT) {
		/* alloca'd now, after the call that may have moved the stack */
		bprintf(&b, "\t%s res = {0};\n\tvoid *rb = __builtin_alloca(GL_OPAQUE(sizeof res));\n"
			    "\tmemset(rb, 0, sizeof res);\n\treflect_makeFuncResults(g, ft, r, rb);\n"
			    "\tmemcpy(&res, rb, sizeof res);\n\treturn res;\n", rc);
	} else
		bput(&b, "\t(void)r, (void)ft;\n");
	bput(&b, "}\n");
	/* its record: no name (recover sees through it, tracebacks skip it);
	 * the block is its frame, for newstack's need */
	bprintf(&b, "static const GlFuncInfo %s__info __attribute__((used)) = {0, \"<autogenerated>\", 0, %s, 0, 0, (void (*)(void))%s, 0};\n",
		name, nin > 0 ? xprintf("sizeof(%s)", bs) : "0", name);
	stackrec(unitpkg, name, name, (Pos){0}, SR_CHECKED, NULL);
	int64_t at = helperstart();
	bput(&gdecls, bstr(&b));
	helperend(name, at, NULL);
	usehelper(name);
	return name;
}

static void emitdesc(Type *t) {
	Type *u = under(t);
	layout(t);
	const char *sym = t->sym + 1; /* gltypeN */
	Buf b = {0}, pre = {0};
	int64_t size = tsize(t);
	uint8_t *bits = xalloc((size_t)(size / 64 + 2));
	int64_t ptrdata = haspointers(t) ? ptrbitmap(t, bits, 0) : 0;
	const char *eq, *hash;
	algof(t, &eq, &hash);
	int tflag = 0;
	if (regmem(t) && comparable(t))
		tflag |= 1;
	if (t->kind == T_NAMED)
		tflag |= 2;
	if (isdirectiface(t))
		tflag |= 4;
	/* the pointer bitmap */
	const char *gcdata = "0";
	if (ptrdata) {
		bprintf(&pre, "static const uint8_t %s__gc[] = {", sym);
		for (int64_t i = 0; i < (ptrdata + 63) / 64; i++)
			bprintf(&pre, "%s%u", i ? ", " : "", bits[i]);
		bprintf(&pre, "};\n");
		gcdata = xprintf("%s__gc", sym);
	}
	const char *elem = "0", *key = "0", *bucket = "0", *fields = "0", *methods = "0", *imethods = "0", *in = "0", *outs = "0", *call = "0", *makefunc = "0";
	int64_t len = 0;
	int nfields = 0, nmethods = 0, nimethods = 0, nin = 0, nout = 0;
	bool variadic = false;
	switch (u->kind) {
	case T_POINTER: case T_SLICE: case T_CHAN:
		elem = typedesc(u->elem);
		len = u->kind == T_CHAN ? u->len : 0;
		break;
	case T_ARRAY:
		elem = typedesc(u->elem);
		len = u->len;
		break;
	case T_MAP:
		elem = typedesc(u->elem);
		key = typedesc(u->key);
		bucket = typedesc(buckettype(u));
		break;
	case T_STRUCT:
		nfields = u->fields.n;
		if (nfields) {
			bprintf(&pre, "static const GlStructField %s__fields[] = {\n", sym);
			for (int i = 0; i < u->fields.n; i++) {
				Field *f = u->fields.v[i];
				/* the tag only where there is one: C zeroes a missing member */
				const char *tag = f->tag && *f->tag ? xprintf(", %s", strlit(f->tag, (int64_t)strlen(f->tag))) : "";
				bprintf(&pre, "\t{%s, %s, %lld, %d%s},\n", strlit(f->name, (int64_t)strlen(f->name)), typedesc(f->type),
					(long long)f->offset, f->embedded, tag);
			}
			bprintf(&pre, "};\n");
			fields = xprintf("%s__fields", sym);
		}
		break;
	case T_INTERFACE:
		completeiface(u);
		nimethods = u->methods.n;
		if (nimethods) {
			bprintf(&pre, "static const GlIMethod %s__imethods[] = {\n", sym);
			for (int i = 0; i < u->methods.n; i++) {
				Method *m = u->methods.v[i];
				bprintf(&pre, "\t{%s, %s},\n", strlit(m->name, (int64_t)strlen(m->name)), typedesc(m->type));
			}
			bprintf(&pre, "};\n");
			imethods = xprintf("%s__imethods", sym);
		}
		break;
	case T_FUNC:
		call = reflectcall(u, sym);
		makefunc = reflectmakefunc(u);
		nin = u->fields.n;
		nout = u->results.n;
		variadic = u->variadic;
		if (nin) {
			bprintf(&pre, "static const GlType *const %s__in[] = {", sym);
			for (int i = 0; i < nin; i++)
				bprintf(&pre, "%s%s", i ? ", " : "", typedesc(((Field *)u->fields.v[i])->type));
			bprintf(&pre, "};\n");
			in = xprintf("%s__in", sym);
		}
		if (nout) {
			bprintf(&pre, "static const GlType *const %s__out[] = {", sym);
			for (int i = 0; i < nout; i++)
				bprintf(&pre, "%s%s", i ? ", " : "", typedesc(((Field *)u->results.v[i])->type));
			bprintf(&pre, "};\n");
			outs = xprintf("%s__out", sym);
		}
		break;
	}
	/* methods, for interface conversions decided at run time */
	if (u->kind != T_INTERFACE && (t->kind == T_NAMED || (t->kind == T_POINTER && t->elem->kind == T_NAMED) ||
				       u->kind == T_STRUCT)) {
		Vec ms = methodset(t);
		if (ms.n) {
			Buf mb = {0};
			bprintf(&mb, "static const GlMethod %s__methods[] = {\n", sym);
			for (int i = 0; i < ms.n; i++) {
				MEntry *e = ms.v[i];
				resolvemethod(e->m);
				const char *ifn = methodwrapper(t, e->m, &e->path, isdirectiface(t));
				const char *refl = "0, 0, 0";
				/* the reflect entries, unless the program cannot read
				 * them (reflectmethods); the C of a cached package does
				 * not depend on the program */
				if (exported(e->m->name) && (reflectmethods || strcmp(unitpkg->path, "main"))) {
					Type *ft = methodtype(t, e->m->type);
					refl = xprintf("%s, %s, (void (*)(void))%s", typedesc(ft), reflectmexpr(t, e->m, ifn, ft),
						       reflectmvalue(t, e->m, ifn));
				}
				bprintf(&mb, "\t{%s, %s, (void (*)(void))%s, %s},\n", strlit(e->m->name, (int64_t)strlen(e->m->name)),
					typedesc(e->m->type), ifn, refl);
			}
			bprintf(&mb, "};\n");
			bput(&pre, bstr(&mb));
			methods = xprintf("%s__methods", sym);
			nmethods = ms.n;
		}
	}
	/* *T of a defined type, as Go's compiler emits it: reflect's PtrTo and
	 * New, and the methods of *T, work for every defined type */
	const char *ptrtothis = t->kind == T_NAMED ? typedesc(ptrto(t)) : "0";
	const char *str = typestr(t);
	bput(&b, bstr(&pre));
	bprintf(&b,
		"__attribute__((weak)) const GlType %s = { /* %s */\n\t.size = %lld, .ptrdata = %lld, .hash = %uu, .kind = %s, .align = %lld, .tflag = %d,\n"
		"\t.gcdata = %s, .str = %s, .equal = %s, .hashfn = %s,\n"
		"\t.elem = %s, .key = %s, .len = %lld, .fields = %s, .methods = %s, .imethods = %s, .in = %s, .out = %s,\n"
		"\t.nfields = %d, .nmethods = %d, .nimethods = %d, .nin = %d, .nout = %d, .variadic = %d,\n"
		"\t.call = (void (*)(void))%s, .makefunc = (void (*)(void))%s, .ptrtothis = %s, .bucket = %s,\n};\n",
		sym, str, (long long)size, (long long)ptrdata, strhash32(str), kindname(u), (long long)talign(t), tflag, gcdata,
		strlit(str, (int64_t)strlen(str)), eq, hash, elem, key, (long long)len, fields, methods, imethods, in, outs,
		nfields, nmethods, nimethods, nin, nout, variadic, call, makefunc, ptrtothis, bucket);
	bput(&gdescs, bstr(&b));
}

/* ---------------------------------------------------------------- signatures */

/* The C result of a signature: nothing, one value returned directly (at
 * most 16 bytes and not an array), or a value (or tuple) written through
 * an out-pointer into the caller's data frame. */
Type *resulttype(Type *sig, int *mode) {
	int n = sig->results.n;
	if (n == 0) {
		*mode = R_VOID;
		return NULL;
	}
	Type *rt;
	if (n == 1)
		rt = ((Field *)sig->results.v[0])->type;
	else {
		if (!sig->rtuple) { /* cache the tuple on the signature */
			Vec ts = {0};
			for (int i = 0; i < n; i++)
				vpush(&ts, ((Field *)sig->results.v[i])->type);
			sig->rtuple = tupleof(&ts);
		}
		rt = sig->rtuple;
		layout(rt);
	}
	*mode = bypointer(rt) ? R_OUT : R_DIRECT;
	return rt;
}

static void declarefunc(Obj *f);

const char *funcsym(Obj *f) {
	if (!f->cname) {
		/* names are assigned per package before any file is written
		 * (assignnames); this is for objects it did not see */
		const char *pk = f->pkg && f->pkg->cprefix ? f->pkg->cprefix : "x";
		Vec *saved = namereg;
		if (f->pkg)
			namereg = &f->pkg->cnames;
		if (f->extern_)
			f->cname = intern(xprintf("%s_%s", pk, f->name));
		else if (f->ismethod && f->recvtype)
			f->cname = globalname(xprintf("%s_%s_%s", pk, gident(f->recvtype->name), gident(f->name)));
		else
			f->cname = globalname(xprintf("%s_%s", pk, gident(f->name)));
		namereg = saved;
	}
	if (f->pkg != unitpkg || f->extern_)
		declarefunc(f);
	return f->cname;
}

/* A prototype for a function defined in another file (another package's,
 * or the runtime's for bodyless functions). */
static void declarefunc(Obj *f) {
	if (!firstinunit(f->cname))
		return;
	Type *rt = f->recvtype;
	if (rt && f->ptrrecv)
		rt = ptrto(rt);
	const char *proto = cdeclarator(f->type, f->cname, false, f->ismethod && rt, rt);
	bprintf(&gprotos, "extern %s;%s\n", proto, f->extern_ ? " /* in the runtime */" : "");
}

/* A static closure object for a declared function used as a value; its C
 * function takes the closure pointer the calling convention passes. */
const char *fvsym(Obj *f) {
	const char *name = xprintf("%s__fv", funcsym(f));
	usehelper(name);
	if (!firstinunit(name))
		return staticfunc(name);
	Type *sig = f->type;
	int mode;
	resulttype(sig, &mode);
	const char *params = cparams(sig, "GlFunc *ctx", NULL, 0, 0, true);
	const char *args = xprintf("%s%s", mode == R_OUT ? ", out" : "", cargs(sig, 0, 0));
	const char *rc = cresult(sig);
	int64_t at = helperstart();
	bprintf(&gdecls, "/* %s as a func value */\nGL_WRAPPER static %s %s_fn(%s) {\n%s\t(void)ctx;\n\t%s%s(g%s);\n}\n",
		f->name, rc, name, params, wrapperentryof(xprintf("%s_fn", name), funcsym(f)), mode == R_DIRECT ? "return " : "",
		funcsym(f), args);
	bprintf(&gdecls, "static const GlFunc %s = {(void (*)(void))%s_fn};\n", name, name);
	helperend(xprintf("%s_fn", name), at, name);
	return staticfunc(name);
}

void addprototype(const char *proto) { bprintf(&gprotos, "%s;\n", proto); }

/* ---------------------------------------------------------------- the program */

/* A package's prefix of file-scope names: its path, bytes other than
 * letters and digits written "_" (unicode/utf8: unicode_utf8).  Unless
 * that would not start with a letter (locals' names start with "_",
 * cname), would start with the runtime's gl or libffi's ffi (package
 * ffi's Call would be libffi's ffi_call), would hold "__" (gident) or
 * end in "_", or could make a macro's name (package SIZE's MAX): then it
 * is x and the path, those bytes in hex. */
static const char *cprefix(const char *path) {
	Buf b = {0};
	for (const char *s = path; *s; s++)
		bputc(&b, isalnum((unsigned char)*s) ? *s : '_');
	const char *c = bstr(&b);
	if (isalpha((unsigned char)c[0]) && strncasecmp(c, "gl", 2) && strncasecmp(c, "ffi", 3) && !strstr(c, "__") &&
	    c[strlen(c) - 1] != '_' &&
	    !macrostyle(xprintf("%s_", c)))
		return c;
	Buf x = {0};
	bputc(&x, 'x');
	for (const char *s = path; *s; s++)
		if (isalnum((unsigned char)*s))
			bputc(&x, *s);
		else
			bprintf(&x, "x%02x", (unsigned char)*s);
	return bstr(&x);
}

static void assignprefixes(void) {
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		p->cprefix = cprefix(p->path);
	}
}

static void namelits(FuncInfo *fi, const char *base, const char *gbase) {
	for (int i = 0; i < fi->lits.n; i++) {
		FuncInfo *li = ((Node *)fi->lits.v[i])->aux;
		li->cname = globalname(xprintf("%s_func%d", base, i + 1));
		li->name = xprintf("%s.func%d", gbase, i + 1);
		namelits(li, li->cname, li->name);
	}
}

static void eachglobal(Package *p, void (*f)(Obj *o, Node *id)) {
	for (int i = 0; i < p->files.n; i++) {
		Node *file = p->files.v[i];
		for (int j = 0; j < file->list2.n; j++) {
			Node *d = file->list2.v[j];
			if (d->kind != N_DECLSTMT || d->op != TK_VAR)
				continue;
			for (int k = 0; k < d->list.n; k++) {
				Node *spec = d->list.v[k];
				for (int l = 0; l < spec->list.n; l++) {
					Node *id = spec->list.v[l];
					if (id->obj && id->obj->type)
						f(id->obj, id);
				}
			}
		}
	}
}

static void nameglobal(Obj *o, Node *id) {
	(void)id;
	o->slot = S_GLOBAL;
	o->cname = globalname(xprintf("%s_%s", o->pkg->cprefix, gident(o->name)));
}

/* The synthetic function holding a package's variable initializers. */
static FuncInfo *varinit(Package *p) {
	if (p->varinit)
		return p->varinit;
	Node *fd = mknode(N_FUNCDECL, ((Node *)p->files.v[0])->pos);
	fd->name = intern("init");
	FuncInfo *fi = xalloc(sizeof *fi);
	fi->node = fd;
	fi->sig = newtype(T_FUNC);
	fi->pkg = p;
	fd->aux = fi;
	Node *body = mknode(N_BLOCK, fd->pos);
	for (int j = 0; j < p->vars.n; j++) {
		Node *spec = p->vars.v[j];
		if (!spec->list2.n)
			continue;
		Node *as = mknode(N_ASSIGN, spec->pos);
		as->list = spec->list;
		as->list2 = spec->list2;
		as->ival = 1; /* a variable declaration's initialization */
		vpush(&body->list, as);
	}
	fd->c = body;
	fi->name = xprintf("%s.init", p->name);
	/* func literals in initializers belong to this function */
	for (int j = 0; j < p->funclits.n; j++) {
		Node *l = p->funclits.v[j];
		FuncInfo *li = l->aux;
		if (li && !li->outer)
			vpush(&fi->lits, l), li->outer = fi;
	}
	p->varinit = fi;
	return fi;
}

/* Every file-scope name of a package, in declaration order, so the names
 * are the same whichever other packages are compiled with it. */
static void assignnames(Package *p) {
	namereg = &p->cnames;
	eachglobal(p, nameglobal);
	for (int j = 0; j < p->funcs.n; j++) {
		Obj *f = p->funcs.v[j];
		unitpkg = p;
		funcsym(f);
		if (f->decl && f->decl->aux) {
			FuncInfo *fi = f->decl->aux;
			fi->cname = f->cname;
			namelits(fi, f->cname, NULL);
		}
	}
	if (p->vars.n || p->inits.n) {
		FuncInfo *vi = varinit(p);
		vi->cname = globalname(xprintf("%s__varinit", p->cprefix));
		namelits(vi, vi->cname, vi->name);
	}
	namereg = NULL;
}

void emitprepare(void) {
	assignprefixes();
	for (int i = 0; i < allpackages.n; i++)
		assignnames(allpackages.v[i]);
}

static void defineglobal(Obj *o, Node *id) {
	if (tsize(o->type) > maxTypeSize)
		errorat(id->pos, "type %s larger than address space", typestrq(o->type, NULL));
	/* declared in every part of the unit, defined in the first */
	bprintf(&gglobals, "extern %s %s;\n", ctype(o->type), o->cname);
	bprintf(&gvardefs, "%s %s; /* %s:%d */\n", ctype(o->type), o->cname, fileof(id->pos), id->pos.line);
	/* a variable that can hold pointers is a root of the collector */
	if (haspointers(o->type))
		bprintf(&groots, "GL_GLOBAL_ROOT(%s, %s);\n", o->cname, typedesc(o->type));
	firstinunit(o->cname);
}

/* A variable of another package, used in this file. */
void declareglobal(Obj *o) {
	if (o->pkg != unitpkg && firstinunit(o->cname))
		bprintf(&gglobals, "extern %s %s; /* package %s */\n", ctype(o->type), o->cname, o->pkg->path);
}

static void resetunit(Package *p) {
	Buf *bufs[] = {&gdecls, &gfuncs, &gprotos, &gtypes, &gdescs, &gfwd, &gglobals, &gvardefs, &groots};
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		bufs[i]->n = 0;
	structs.n = descs.n = itabs.n = cglobals.n = wrappers.n = wrapped.n = 0;
	pmclear(&unitnames);
	pmclear(&wrapperbykey);
	pmclear(&helperof);
	helpers.n = 0;
	pmclear(&rnamebykey);
	pmclear(&rnametaken);
	unitpkg = p;
	unitid++;
	namereg = &p->cnames;
}

/* Package initialization: each package's variables in dependency order,
 * then its init functions, packages in import order (Go's rule). */
static void emitinitall(void) {
	bprintf(&gfuncs, "/* package initialization, in import order */\nstatic void gl_initall(G *g) {\n");
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		if (!p->vars.n && !p->inits.n)
			continue;
		FuncInfo *vi = varinit(p);
		if (p != unitpkg && firstinunit(vi->cname))
			bprintf(&gprotos, "extern void %s(G *g);\n", vi->cname);
		bprintf(&gfuncs, "\t%s(g);\n\tif (g->unwinding) return;\n", vi->cname);
		for (int j = 0; j < p->inits.n; j++)
			bprintf(&gfuncs, "\t%s(g);\n\tif (g->unwinding) return;\n", funcsym(p->inits.v[j]));
	}
	bprintf(&gfuncs, "}\n");
}

/* Where each top-level function's code starts in gfuncs (its literals,
 * pc tables and func values follow it), and where the parts begin. */
static Vec funcstarts;
static int cuts[GL_MAXPARTS + 1], nparts;

/* A top-level function's C begins here in gfuncs: a place a part may
 * begin, and the helpers it uses are recorded from here on. */
static void funcstart(void) {
	vpush(&funcstarts, (void *)(intptr_t)gfuncs.n);
	curuses = xalloc(sizeof *curuses);
	vpush(&funcuses, curuses);
}

/* Generate package p's C into the unit buffers; writepart writes it out. */
void emitunit(Package *p) {
	resetunit(p);
	curpkg = p;
	funcstarts.n = funcuses.n = 0;
	part0uses.names.n = 0;
	curuses = NULL;
	pmclear(&helperuses);
	eachglobal(p, defineglobal);
	for (int j = 0; j < p->funcs.n; j++) {
		Obj *f = p->funcs.v[j];
		if (!f->extern_ && f->decl && f->decl->aux) {
			funcstart();
			emitfunc(f->decl->aux);
		} else if (f->cfunc) {
			funcstart();
			emitextern(f);
		}
	}
	funcstart();
	if (p->vars.n || p->inits.n)
		emitfunc(varinit(p));
	bool ismain = !strcmp(p->path, "main");
	if (ismain) {
		emitinitall();
		Obj *m = lookuplocal(p->scope, intern("main"));
		/* runtime.GOROOT's default (runtime/os_linux.c) */
		bprintf(&gfuncs, "\nconst char gl_defaultGOROOT[] = %s;\n", cstrlit(glroot()));
		bprintf(&gfuncs, "\nint main(int argc, char **argv) {\n\treturn gl_main(argc, argv, gl_initall, %s);\n}\n",
			funcsym(m));
	}
	curuses = NULL; /* what follows is part 0's */
	/* descriptors and itabs may ask for more descriptors and wrappers */
	int nd = 0, ni = 0;
	while (nd < descs.n || ni < itabs.n) {
		while (nd < descs.n)
			emitdesc(descs.v[nd++]);
		while (ni < itabs.n) {
			emititab(itabs.v[ni], itabs.v[ni + 1], itabs.v[ni + 2]);
			ni += 3;
		}
	}
	for (int i = 0; i < structs.n; i++)
		defstruct(structs.v[i]);
	emitwrapperinfos();
}

/* Cut the functions into at most maxparts parts of at least minsize bytes
 * each, so that cc can compile a large package on several CPUs.  Every part
 * repeats the declarations and has the helpers it uses (placehelpers); the
 * first also holds the variables, the type descriptors and so most of the
 * wrappers.  Parts are balanced by bytes of C weighed by what they cost cc
 * (measured on bench/compile: a wrapper's byte about 0.7 of a function's,
 * a descriptor's 0.1).  Returns the number of parts. */
int splitunit(int maxparts, int64_t minsize) {
	int64_t total = gfuncs.n, hbytes = 0;
	for (int i = 0; i < helpers.n; i++)
		hbytes += ((Helper *)helpers.v[i])->end - ((Helper *)helpers.v[i])->start;
	int64_t first = (7 * hbytes + (int64_t)gdescs.n) / 10; /* the first part's share beyond functions */
	int k = minsize > 0 ? (int)((total + first) / minsize) : maxparts;
	if (k > maxparts)
		k = maxparts;
	if (k > GL_MAXPARTS)
		k = GL_MAXPARTS;
	if (k < 1)
		k = 1;
	nparts = 0;
	cuts[nparts++] = 0;
	/* the first part also compiles the descriptors and wrappers: give it less code */
	int64_t share = (total + first) / k;
	int64_t goal = share - first;
	for (int i = 0; i < funcstarts.n && nparts < k; i++) {
		int64_t at = (intptr_t)funcstarts.v[i];
		if (at > 0 && at < total && at >= goal && at > cuts[nparts - 1]) {
			cuts[nparts++] = (int)at;
			goal = at + share;
		}
	}
	cuts[nparts] = (int)total;
	return nparts;
}

static void needuses(Uses *u, Vec *work) {
	for (int i = 0; u && i < u->names.n; i++) {
		Helper *h = pmget(&helperof, u->names.v[i]);
		if (h && !h->need) {
			h->need = true;
			vpush(work, h);
		}
	}
}

/* Mark the helpers that part uses: those its functions (or, for part 0,
 * its data) use, and theirs. */
static void placehelpers(int part) {
	Vec work = {0};
	for (int i = 0; i < helpers.n; i++)
		((Helper *)helpers.v[i])->need = false;
	for (int j = 0; j < funcstarts.n; j++) {
		int64_t at = (intptr_t)funcstarts.v[j];
		if (at >= cuts[part] && at < cuts[part + 1])
			needuses(funcuses.v[j], &work);
	}
	if (part == 0)
		needuses(&part0uses, &work);
	while (work.n) {
		Helper *h = work.v[--work.n];
		needuses(pmget(&helperuses, h->name), &work);
	}
}

/* gdecls, with only the helpers placehelpers marked if the unit is cut. */
static void writedecls(FILE *o) {
	if (nparts <= 1) {
		fputs(bstr(&gdecls), o);
		return;
	}
	int64_t at = 0;
	for (int i = 0; i < helpers.n; i++) {
		Helper *h = helpers.v[i];
		fwrite(gdecls.s + at, 1, (size_t)(h->start - at), o);
		if (h->need)
			fwrite(gdecls.s + h->start, 1, (size_t)(h->end - h->start), o);
		at = h->end;
	}
	fwrite(gdecls.s + at, 1, gdecls.n - (size_t)at, o);
}

/* Write part i (of splitunit's) of the unit's C. */
void writepart(Package *p, int part, FILE *o) {
	if (nparts > 1)
		placehelpers(part);
	fprintf(o, "/* Generated by glc (%s): package %s, from", "gl " PACKAGE_VERSION, p->path);
	for (int i = 0; i < p->files.n; i++)
		fprintf(o, " %s", fileof(((Node *)p->files.v[i])->pos));
	if (nparts > 1)
		fprintf(o, " (part %d of %d)", part + 1, nparts);
	fprintf(o, ".\n * Written to be read: each gl function is one C function with its data frame\n"
		   " * (a struct carved by alloca and linked into the goroutine's frame chain) and\n"
		   " * its stack map; comments file:line give the gl source.  See DESIGN.md. */\n");
	fprintf(o, "#include \"gl.h\"\n\n/* gl functions live in their own section, so tracebacks and the\n"
		   " * preemption signal handler can tell generated code from the runtime */\n"
		   "#define GL_FUNC __attribute__((section(\"gltext\"), used))\n"
		   "#define GL_WRAPPER __attribute__((section(\"gltext\"), used))\n"
		   "#define GL_DEFERTHUNK __attribute__((section(\"gldefer\"), used))\n\n");
	fputs("/* ---- types ---- */\n", o);
	fputs(bstr(&gtypes), o);
	fputs("\n/* ---- prototypes ---- */\n", o);
	fputs(bstr(&gprotos), o);
	fputs("\n/* ---- type descriptors and itabs (defined at the end) ---- */\n", o);
	fputs(bstr(&gfwd), o);
	fputs("\n/* ---- package variables ---- */\n", o);
	fputs(bstr(&gglobals), o);
	if (part == 0)
		fputs(bstr(&gvardefs), o);
	fputs("\n/* ---- wrappers and constant data ---- */\n", o);
	writedecls(o);
	fputs("\n/* ---- functions ---- */\n", o);
	fwrite(bstr(&gfuncs) + cuts[part], 1, (size_t)(cuts[part + 1] - cuts[part]), o);
	if (part == 0) {
		fputs("\n/* ---- type descriptors ---- */\n", o);
		fputs(bstr(&gdescs), o);
		if (groots.n) {
			fputs("\n/* ---- the collector's roots: variables that hold pointers ---- */\n", o);
			fputs(bstr(&groots), o);
		}
	}
}

/* ---------------------------------------------------------------- glc contract */

/* The functions the standard library declares without a body are written
 * in the runtime's C; generated code declares each one itself (declarefunc).
 * Both sides must agree on its C signature and on the layout of every
 * struct it is passed, or a program corrupts memory without a word.  So
 * glc writes the runtime's side too: `glc contract` (make runs it before
 * the runtime is compiled) prints every such prototype, and the structs
 * they reach, as a header that runtime/rt.h includes.  A definition in the
 * runtime that disagrees is then a C compile error.
 *
 * A gl type that mirrors one of the runtime's own structs (reflect's rtype
 * is GlType) says so with //gl:ctype: the prototypes use the runtime's name,
 * and the header compares the two layouts field by field, so a field
 * added on one side only is a compile error too. */
static bool contractmode;

/* The runtime's C name of t (its //gl:ctype), while writing the contract. */
static const char *runtimename(Type *t) {
	if (!contractmode || !t->obj || !t->obj->decl || t->obj->decl->kind != N_TYPESPEC)
		return NULL;
	const char *c = t->obj->decl->lit;
	return c && *c ? c : NULL;
}

/* Put into the contract the structs a value of type t leads the runtime
 * to: ctype declares those it names; a slice's or a map's elements, which
 * C sees as GlSlice or GlMap only, are named here, also behind a pointer
 * (sync's *[]*Pool: the runtime clears the pools). */
static void contracttype(Type *t, int depth) {
	ctype(t);
	Type *u = under(t);
	if (depth > 8) /* type S []S */
		return;
	if (u->kind == T_SLICE || u->kind == T_CHAN || u->kind == T_POINTER)
		contracttype(u->elem, depth + 1);
	else if (u->kind == T_MAP) {
		contracttype(u->key, depth + 1);
		contracttype(u->elem, depth + 1);
	}
}

/* _Static_asserts that t, a //gl:ctype struct, has the layout of the
 * runtime's struct: the same size and each field at the same offset with
 * the same size, under the same name. */
static void checkmirror(Buf *b, Type *t) {
	const char *c = runtimename(t);
	if (!strncmp(c, "const ", 6))
		c += 6;
	Type *u = under(t);
	layout(t);
	bprintf(b, "/* %s is the runtime's %s */\n", typestr(t), c);
	bprintf(b, "_Static_assert(sizeof(%s) == %lld, \"%s: size\");\n", c, (long long)tsize(t), typestr(t));
	if (u->kind != T_STRUCT)
		return;
	for (int i = 0; i < u->fields.n; i++) {
		Field *f = u->fields.v[i];
		if (f->name && !strcmp(f->name, "_"))
			continue;
		const char *m = cmember(u, i);
		bprintf(b, "_Static_assert(offsetof(%s, %s) == %lld && sizeof(((%s *)0)->%s) == %lld, \"%s.%s\");\n", c, m,
			(long long)f->offset, c, m, (long long)tsize(f->type), typestr(t), f->name);
	}
}

/* path below dir, as stdlib/..., for the header's comments */
static const char *relpath(const char *path, const char *dir) {
	size_t n = strlen(dir);
	if (!strncmp(path, dir, n) && path[n] == '/')
		return xprintf("stdlib%s", path + n);
	return path;
}

/* Write the contract header of every package loaded from the standard
 * library at stdroot (glc contract). */
void writecontract(FILE *o, const char *stdroot) {
	static Package unit = {.path = "contract", .name = "contract"};
	contractmode = true;
	emitprepare();
	resetunit(&unit);
	Buf protos = {0}, mirrors = {0};
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		for (int j = 0; j < p->funcs.n; j++) {
			Obj *f = p->funcs.v[j];
			if (!f->extern_)
				continue;
			Type *rt = f->recvtype;
			if (rt && f->ptrrecv)
				rt = ptrto(rt);
			bprintf(&protos, "extern %s; /* %s:%d */\n", cdeclarator(f->type, funcsym(f), false, f->ismethod && rt, rt),
				relpath(fileof(f->pos), stdroot), f->pos.line);
			for (int k = 0; k < f->type->fields.n; k++)
				contracttype(((Field *)f->type->fields.v[k])->type, 0);
		}
		for (int j = 0; j < p->types.n; j++) {
			Obj *t = p->types.v[j];
			Node *d = t->decl;
			if (!t->type || !d || d->kind != N_TYPESPEC || !d->lit)
				continue;
			if (runtimename(t->type))
				checkmirror(&mirrors, t->type);
			else
				contracttype(t->type, 0);
		}
	}
	for (int i = 0; i < structs.n; i++)
		defstruct(structs.v[i]);
	fprintf(o, "/* Generated by glc contract (%s) from the standard library: do not edit.\n"
		   " * The prototypes of the functions it declares without a body, which the\n"
		   " * runtime defines, and the layouts of the types they take: runtime/rt.h\n"
		   " * includes this, so the C compiler checks the runtime against them\n"
		   " * (compiler/emit.c, writecontract). */\n", "gl " PACKAGE_VERSION);
	fputs("#ifndef GL_CONTRACT_H\n#define GL_CONTRACT_H\n#include <stddef.h>\n\n/* ---- types ---- */\n", o);
	fputs(bstr(&gtypes), o);
	fputs("\n/* ---- the runtime's own structs that gl mirrors (//gl:ctype) ---- */\n", o);
	fputs(bstr(&mirrors), o);
	fputs("\n/* ---- functions declared without a body ---- */\n", o);
	fputs(bstr(&protos), o);
	fputs("#endif\n", o);
	contractmode = false;
}

/* Forget the last program: every container above holds memory that
 * freeall took, and Types that no longer exist (testdata/fuzz/fuzz_front
 * compiles millions of programs in one process; glc itself compiles one
 * and exits). */
void emitforget(void) {
	Buf *bufs[] = {&gdecls, &gfuncs, &gprotos, &gtypes, &gdescs, &gfwd, &gglobals, &gvardefs, &groots};
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		memset(bufs[i], 0, sizeof *bufs[i]);
	Vec *vecs[] = {&structs, &descs, &itabs, &cglobals, &namescratch, &wrappers, &wrapped, &helpers,
		       &funcuses, &mfdone, &funcstarts};
	for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
		memset(vecs[i], 0, sizeof *vecs[i]);
	PtrMap *maps[] = {&unitnames, &helperof, &helperuses, &rnamebykey, &rnametaken, &wrapperbykey};
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
		memset(maps[i], 0, sizeof *maps[i]);
	memset(&part0uses, 0, sizeof part0uses);
	curuses = NULL;
	unitpkg = NULL;
	namereg = NULL;
	mfunit = -1;
	nparts = 0;
	emitexprforget();
	emitstmtforget();
	stackforget();
}
