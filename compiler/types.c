/* types.c — type construction, identity, layout, printing; scopes. */
#include "types.h"

#include <stdlib.h>
#include <string.h>

Type *types[T_NKINDS];
Type *t_byte, *t_rune, *t_error, *t_any, *t_bad, *t_emptyiface;
Scope *universe;
Package *unsafepkg, *builtinpkg;

Type *newtype(int kind) {
	Type *t = xalloc(sizeof *t);
	t->kind = kind;
	return t;
}

Type *ptrto(Type *t) {
	if (!t->ptrto) {
		t->ptrto = newtype(T_POINTER);
		t->ptrto->elem = t;
	}
	return t->ptrto;
}

Type *sliceof(Type *t) {
	if (!t->sliceof) {
		t->sliceof = newtype(T_SLICE);
		t->sliceof->elem = t;
	}
	return t->sliceof;
}

Type *arrayof(Type *t, int64_t n) {
	Type *a = newtype(T_ARRAY);
	a->elem = t;
	a->len = n;
	return a;
}

Type *mapof(Type *k, Type *v) {
	Type *m;
	for (int i = 0; i < k->mapcache.n; i++) {
		m = k->mapcache.v[i];
		if (m->elem == v)
			return m;
	}
	m = newtype(T_MAP);
	m->key = k;
	m->elem = v;
	vpush(&k->mapcache, m);
	return m;
}

Type *chanof(Type *t, int dir) {
	Type *c = newtype(T_CHAN);
	c->elem = t;
	c->len = dir;
	return c;
}

Type *tupleof(Vec *ts) {
	Type *t = newtype(T_TUPLE);
	for (int i = 0; i < ts->n; i++) {
		Field *f = xalloc(sizeof *f);
		f->type = ts->v[i];
		vpush(&t->fields, f);
	}
	return t;
}

Type *under(Type *t) {
	/* a defined type's underlying type is never itself a defined type once
	 * resolved; resolution of `type A B` may leave a chain, follow it */
	int guard = 0;
	while (t && t->kind == T_NAMED && guard++ < 100)
		t = t->underlying ? t->underlying : t_bad;
	return t;
}

bool isnamed(Type *t) { return t->kind == T_NAMED || (t->kind >= T_BOOL && t->kind <= T_UNSAFEPTR); }

static bool identicalfields(Vec *a, Vec *b, bool names) {
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		Field *x = a->v[i], *y = b->v[i];
		if (names) {
			if (x->name != y->name || x->embedded != y->embedded)
				return false;
			if (x->name && !exported(x->name) && x->pkg != y->pkg)
				return false;
			const char *tx = x->tag ? x->tag : "", *ty = y->tag ? y->tag : "";
			if (strcmp(tx, ty) != 0)
				return false;
		}
		if (!identical(x->type, y->type))
			return false;
	}
	return true;
}

bool identical(Type *x, Type *y) {
	if (x == y)
		return true;
	if (!x || !y)
		return false;
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case T_NAMED:
		return false;
	case T_ARRAY:
		return x->len == y->len && identical(x->elem, y->elem);
	case T_SLICE:
	case T_POINTER:
		return identical(x->elem, y->elem);
	case T_MAP:
		return identical(x->key, y->key) && identical(x->elem, y->elem);
	case T_CHAN:
		return x->len == y->len && identical(x->elem, y->elem);
	case T_STRUCT:
		return identicalfields(&x->fields, &y->fields, true);
	case T_FUNC:
		return x->variadic == y->variadic && identicalfields(&x->fields, &y->fields, false) &&
		       identicalfields(&x->results, &y->results, false);
	case T_TUPLE:
		return identicalfields(&x->fields, &y->fields, false);
	case T_INTERFACE:
		completeiface(x);
		completeiface(y);
		if (x->methods.n != y->methods.n)
			return false;
		for (int i = 0; i < x->methods.n; i++) {
			Method *a = x->methods.v[i], *b = y->methods.v[i];
			if (a->name != b->name || !identical(a->type, b->type))
				return false;
			if (!exported(a->name) && a->pkg != b->pkg)
				return false;
		}
		return true;
	default:
		return true; /* basic types: same kind (byte and uint8 are one type) */
	}
}

bool exported(const char *name) { return name && name[0] >= 'A' && name[0] <= 'Z'; }

bool isinteger(Type *t) {
	t = under(t);
	return (t->kind >= T_INT && t->kind <= T_UINTPTR) || t->kind == T_UNTYPED_INT || t->kind == T_UNTYPED_RUNE;
}
bool isunsigned(Type *t) {
	t = under(t);
	return t->kind >= T_UINT && t->kind <= T_UINTPTR;
}
bool isfloat(Type *t) {
	t = under(t);
	return t->kind == T_FLOAT32 || t->kind == T_FLOAT64 || t->kind == T_UNTYPED_FLOAT;
}
bool iscomplex(Type *t) {
	t = under(t);
	return t->kind == T_COMPLEX64 || t->kind == T_COMPLEX128 || t->kind == T_UNTYPED_COMPLEX;
}
bool isnumeric(Type *t) { return isinteger(t) || isfloat(t) || iscomplex(t); }
bool isstring(Type *t) {
	t = under(t);
	return t->kind == T_STRING || t->kind == T_UNTYPED_STRING;
}
bool isboolean(Type *t) {
	t = under(t);
	return t->kind == T_BOOL || t->kind == T_UNTYPED_BOOL;
}
bool isuntyped(Type *t) { return t && t->kind >= T_UNTYPED_BOOL && t->kind <= T_UNTYPED_NIL; }
bool isconstkind(Type *t) {
	t = under(t);
	return (t->kind >= T_BOOL && t->kind <= T_STRING) || (isuntyped(t) && t->kind != T_UNTYPED_NIL);
}
bool isinterface(Type *t) { return under(t)->kind == T_INTERFACE; }
bool ispointer(Type *t) { return under(t)->kind == T_POINTER; }

bool comparable(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_SLICE: case T_MAP: case T_FUNC: case T_BAD:
		return false;
	case T_ARRAY:
		return comparable(u->elem);
	case T_STRUCT:
		for (int i = 0; i < u->fields.n; i++)
			if (!comparable(((Field *)u->fields.v[i])->type))
				return false;
		return true;
	default:
		return true;
	}
}

bool hasnil(Type *t) {
	switch (under(t)->kind) {
	case T_POINTER: case T_SLICE: case T_MAP: case T_CHAN: case T_FUNC: case T_INTERFACE:
	case T_UNSAFEPTR: case T_UNTYPED_NIL:
		return true;
	}
	return false;
}

/* Go stores pointer-shaped values directly in an interface's data word. */
bool isdirectiface(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_POINTER: case T_MAP: case T_CHAN: case T_FUNC: case T_UNSAFEPTR:
		return true;
	case T_ARRAY:
		return u->len == 1 && isdirectiface(u->elem);
	case T_STRUCT:
		return u->fields.n == 1 && isdirectiface(((Field *)u->fields.v[0])->type);
	}
	return false;
}

bool haspointers(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_POINTER: case T_SLICE: case T_MAP: case T_CHAN: case T_FUNC: case T_INTERFACE:
	case T_STRING: case T_UNSAFEPTR:
		return true;
	case T_ARRAY:
		return u->len > 0 && haspointers(u->elem);
	/* A tuple is a call's results, in a frame temporary that the caller
	 * reads after the call: for `a, b := f()` with a in a heap box, the
	 * box's newobject runs before b is read, and for g(f()) or `return
	 * f()` so may an interface conversion's.  A collection there must see
	 * the pointers still waiting in the tuple: with pointers it is a
	 * scanned frame member like any other value (emitexpr.c newtemp),
	 * zeroed at entry and after its statement, and its descriptor has
	 * their bitmap.  (Seen as no pointers, it lay in the frame's
	 * unscanned part, and os/exec's `pr, pw, err := c.pipe()` freed the
	 * pipe's Files in the box's allocation: testdata/run/gc_tuple.) */
	case T_STRUCT: case T_TUPLE:
		for (int i = 0; i < u->fields.n; i++)
			if (haspointers(((Field *)u->fields.v[i])->type))
				return true;
		return false;
	}
	return false;
}

Type *defaulttype(Type *t) {
	switch (t->kind) {
	case T_UNTYPED_BOOL: return types[T_BOOL];
	case T_UNTYPED_INT: return types[T_INT];
	case T_UNTYPED_RUNE: return t_rune;
	case T_UNTYPED_FLOAT: return types[T_FLOAT64];
	case T_UNTYPED_COMPLEX: return types[T_COMPLEX128];
	case T_UNTYPED_STRING: return types[T_STRING];
	}
	return t;
}

/* ---- printing ---- */

static const char *basicnames[T_NKINDS] = {
	[T_BAD] = "invalid type", [T_BOOL] = "bool", [T_INT] = "int", [T_INT8] = "int8", [T_INT16] = "int16",
	[T_INT32] = "int32", [T_INT64] = "int64", [T_UINT] = "uint", [T_UINT8] = "uint8",
	[T_UINT16] = "uint16", [T_UINT32] = "uint32", [T_UINT64] = "uint64", [T_UINTPTR] = "uintptr",
	[T_FLOAT32] = "float32", [T_FLOAT64] = "float64", [T_COMPLEX64] = "complex64",
	[T_COMPLEX128] = "complex128", [T_STRING] = "string", [T_UNSAFEPTR] = "unsafe.Pointer",
	[T_UNTYPED_BOOL] = "untyped bool", [T_UNTYPED_INT] = "untyped int", [T_UNTYPED_RUNE] = "untyped rune",
	[T_UNTYPED_FLOAT] = "untyped float", [T_UNTYPED_COMPLEX] = "untyped complex",
	[T_UNTYPED_STRING] = "untyped string", [T_UNTYPED_NIL] = "untyped nil",
};

/* mode 0: runtime spelling (reflect's String: "main.T", "struct { X int }",
 * "interface {}", uint8 for byte); mode 1: message spelling (types2's:
 * names of rel's package unqualified, "struct{X int}", byte stays byte). */
static void wtype(Buf *b, Type *t, int mode, Package *rel, int depth);

static void wfields(Buf *b, Vec *fs, int mode, Package *rel, int depth, bool variadic) {
	for (int i = 0; i < fs->n; i++) {
		Field *f = fs->v[i];
		if (i)
			bput(b, ", ");
		if (mode == 1 && f->name) {
			bput(b, f->name);
			bputc(b, ' ');
		}
		if (variadic && i == fs->n - 1) {
			bput(b, "...");
			wtype(b, f->type->elem, mode, rel, depth);
		} else
			wtype(b, f->type, mode, rel, depth);
	}
}

static void wsig(Buf *b, Type *t, int mode, Package *rel, int depth) {
	bputc(b, '(');
	wfields(b, &t->fields, mode, rel, depth, t->variadic);
	bputc(b, ')');
	if (t->results.n == 1 && !(mode == 1 && ((Field *)t->results.v[0])->name)) {
		bputc(b, ' ');
		wtype(b, ((Field *)t->results.v[0])->type, mode, rel, depth);
	} else if (t->results.n) {
		bput(b, " (");
		wfields(b, &t->results, mode, rel, depth, false);
		bputc(b, ')');
	}
}

static void wtype(Buf *b, Type *t, int mode, Package *rel, int depth) {
	if (!t) {
		bput(b, "<nil>");
		return;
	}
	if (depth > 20) {
		bput(b, "...");
		return;
	}
	depth++;
	if (mode == 1 && t == t_byte) {
		bput(b, "byte");
		return;
	}
	if (mode == 1 && t == t_rune) {
		bput(b, "rune");
		return;
	}
	if (mode == 1 && t == t_any) {
		bput(b, "any");
		return;
	}
	switch (t->kind) {
	case T_NAMED:
		if (t->pkg && t->pkg != builtinpkg && (mode == 0 || t->pkg != rel)) {
			bput(b, t->pkg->name);
			bputc(b, '.');
		}
		bput(b, t->name);
		return;
	case T_ARRAY:
		bprintf(b, "[%lld]", (long long)t->len);
		wtype(b, t->elem, mode, rel, depth);
		return;
	case T_SLICE:
		bput(b, "[]");
		wtype(b, t->elem, mode, rel, depth);
		return;
	case T_POINTER:
		bputc(b, '*');
		wtype(b, t->elem, mode, rel, depth);
		return;
	case T_MAP:
		bput(b, "map[");
		wtype(b, t->key, mode, rel, depth);
		bputc(b, ']');
		wtype(b, t->elem, mode, rel, depth);
		return;
	case T_CHAN:
		bput(b, t->len == 1 ? "<-chan " : t->len == 2 ? "chan<- " : "chan ");
		if (t->len == 3 && t->elem->kind == T_CHAN && t->elem->len == 1)
			bputc(b, '('), wtype(b, t->elem, mode, rel, depth), bputc(b, ')');
		else
			wtype(b, t->elem, mode, rel, depth);
		return;
	case T_FUNC:
		bput(b, "func");
		wsig(b, t, mode, rel, depth);
		return;
	case T_STRUCT:
		bput(b, mode == 0 ? "struct {" : "struct{");
		for (int i = 0; i < t->fields.n; i++) {
			Field *f = t->fields.v[i];
			bput(b, i ? "; " : mode == 0 ? " " : "");
			if (!f->embedded) {
				bput(b, f->name);
				bputc(b, ' ');
			}
			wtype(b, f->type, mode, rel, depth);
			if (f->tag && *f->tag) { /* quoted, as Go writes it: "json:\"a\"" */
				bputc(b, ' ');
				quote(b, f->tag, (int64_t)strlen(f->tag), false);
			}
		}
		bput(b, mode == 0 && t->fields.n ? " }" : "}");
		return;
	case T_INTERFACE:
		completeiface(t);
		bput(b, mode == 0 ? "interface {" : "interface{");
		for (int i = 0; i < t->methods.n; i++) {
			Method *m = t->methods.v[i];
			bput(b, i ? "; " : mode == 0 ? " " : "");
			bput(b, m->name);
			wsig(b, m->type, mode, rel, depth);
		}
		bput(b, mode == 0 && t->methods.n ? " }" : "}");
		return;
	case T_TUPLE:
		bputc(b, '(');
		wfields(b, &t->fields, mode, rel, depth, false);
		bputc(b, ')');
		return;
	default:
		bput(b, basicnames[t->kind] ? basicnames[t->kind] : "?");
	}
}

const char *typestr(Type *t) {
	Buf b = {0};
	wtype(&b, t, 0, NULL, 0);
	return bstr(&b);
}

const char *typestrq(Type *t, Package *rel) {
	Buf b = {0};
	wtype(&b, t, 1, rel, 0);
	return bstr(&b);
}

/* ---- layout (Go's sizes and alignments on amd64) ---- */

void layout(Type *t) {
	if (t->layoutstate == 2)
		return;
	if (t->layoutstate == 1) { /* invalid recursive type, reported by the checker */
		t->size = 0;
		t->align = 1;
		return;
	}
	t->layoutstate = 1;
	switch (t->kind) {
	case T_BOOL: case T_INT8: case T_UINT8: t->size = t->align = 1; break;
	case T_INT16: case T_UINT16: t->size = t->align = 2; break;
	case T_INT32: case T_UINT32: case T_FLOAT32: t->size = t->align = 4; break;
	case T_INT: case T_INT64: case T_UINT: case T_UINT64: case T_UINTPTR: case T_FLOAT64:
	case T_UNSAFEPTR: case T_POINTER: case T_MAP: case T_CHAN: case T_FUNC:
		t->size = t->align = 8;
		break;
	case T_COMPLEX64: t->size = 8; t->align = 4; break;
	case T_COMPLEX128: t->size = 16; t->align = 8; break;
	case T_STRING: case T_INTERFACE: t->size = 16; t->align = 8; break;
	case T_SLICE: t->size = 24; t->align = 8; break;
	case T_ARRAY:
		layout(t->elem);
		/* saturated: past maxTypeSize a size is only "too large" */
		if (t->elem->size != 0 && t->len > maxTypeSize / t->elem->size)
			t->size = maxTypeSize + 1;
		else
			t->size = t->elem->size * t->len;
		t->align = t->elem->align;
		break;
	case T_STRUCT:
	case T_TUPLE: {
		int64_t off = 0, al = 1;
		Field *last = NULL;
		for (int i = 0; i < t->fields.n; i++) {
			Field *f = t->fields.v[i];
			layout(f->type);
			int64_t a = f->type->align;
			off = (off + a - 1) / a * a;
			f->offset = off;
			off += f->type->size;
			if (off > maxTypeSize)
				off = maxTypeSize + 1; /* saturated, as arrays */
			if (a > al)
				al = a;
			last = f;
		}
		/* a final zero-size field gets a byte so &s.last stays inside s
		 * (Go's rule, so the collector never sees a pointer past the end) */
		if (last && last->type->size == 0 && off > 0)
			off++;
		t->size = (off + al - 1) / al * al;
		t->align = al;
		break;
	}
	case T_NAMED:
		if (t->underlying) {
			layout(t->underlying);
			t->size = t->underlying->size;
			t->align = t->underlying->align;
		} else {
			t->size = 0;
			t->align = 1;
		}
		break;
	default:
		t->size = 8;
		t->align = 8;
	}
	if (t->align == 0)
		t->align = 1;
	t->layoutstate = 2;
}

int64_t tsize(Type *t) {
	layout(t);
	return t->size;
}
int64_t talign(Type *t) {
	layout(t);
	return t->align;
}

/* ---- interfaces ---- */

static int methodcmp(const void *a, const void *b) {
	const Method *x = *(Method *const *)a, *y = *(Method *const *)b;
	return strcmp(x->name, y->name);
}

void completeiface(Type *t) {
	if (t->kind != T_INTERFACE || t->complete)
		return;
	t->complete = true;
	for (int i = 0; i < t->embeds.n; i++) {
		Type *e = under(t->embeds.v[i]);
		if (e->kind != T_INTERFACE)
			continue;
		completeiface(e);
		for (int j = 0; j < e->methods.n; j++) {
			Method *m = e->methods.v[j];
			if (!findmethod(&t->methods, m->name, m->pkg))
				vpush(&t->methods, m);
		}
	}
	if (t->methods.n > 1)
		qsort(t->methods.v, t->methods.n, sizeof(void *), methodcmp);
}

Method *findmethod(Vec *ms, const char *name, Package *pkg) {
	for (int i = 0; i < ms->n; i++) {
		Method *m = ms->v[i];
		if (m->name == name && (exported(name) || !pkg || !m->pkg || m->pkg == pkg))
			return m;
	}
	return NULL;
}

/* ---- scopes ---- */

Scope *newscope(Scope *parent) {
	Scope *s = xalloc(sizeof *s);
	s->parent = parent;
	return s;
}

static void rehash(Scope *s) {
	int cap = s->hcap ? s->hcap * 2 : 64;
	Obj **h = xalloc(cap * sizeof *h);
	for (int i = 0; i < s->objs.n; i++) {
		Obj *o = s->objs.v[i];
		uintptr_t j = ((uintptr_t)o->name >> 3) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = o;
	}
	s->hash = h;
	s->hcap = cap;
}

Obj *lookuplocal(Scope *s, const char *name) {
	if (s->hash) {
		uintptr_t j = ((uintptr_t)name >> 3) & (s->hcap - 1);
		while (s->hash[j]) {
			if (s->hash[j]->name == name)
				return s->hash[j];
			j = (j + 1) & (s->hcap - 1);
		}
		return NULL;
	}
	for (int i = s->objs.n - 1; i >= 0; i--) {
		Obj *o = s->objs.v[i];
		if (o->name == name)
			return o;
	}
	return NULL;
}

Obj *lookup(Scope *s, const char *name) {
	for (; s; s = s->parent) {
		Obj *o = lookuplocal(s, name);
		if (o)
			return o;
	}
	return NULL;
}

void declare(Scope *s, Obj *o) {
	vpush(&s->objs, o);
	if (s->hash && s->objs.n * 2 < s->hcap) {
		uintptr_t j = ((uintptr_t)o->name >> 3) & (s->hcap - 1);
		while (s->hash[j])
			j = (j + 1) & (s->hcap - 1);
		s->hash[j] = o;
	} else if (s->objs.n >= 16) {
		rehash(s);
	}
}

Obj *newobj(int kind, const char *name, Pos pos) {
	Obj *o = xalloc(sizeof *o);
	o->kind = kind;
	o->name = name;
	o->pos = pos;
	return o;
}

/* ---- the universe ---- */

static void univ(int kind, const char *name, Type *t) {
	Obj *o = newobj(kind, intern(name), (Pos){0});
	o->type = t;
	o->pkg = builtinpkg;
	o->used = true;
	declare(universe, o);
}

static void univbuiltin(Scope *s, const char *name, int b) {
	Obj *o = newobj(O_BUILTIN, intern(name), (Pos){0});
	o->builtin = b;
	o->used = true;
	declare(s, o);
}

void inittypes(void) {
	builtinpkg = xalloc(sizeof *builtinpkg);
	builtinpkg->path = builtinpkg->name = "";
	universe = newscope(NULL);
	for (int k = T_BAD; k <= T_UNTYPED_NIL; k++) {
		types[k] = newtype(k);
		layout(types[k]);
	}
	t_bad = types[T_BAD];
	t_byte = newtype(T_UINT8);
	layout(t_byte);
	t_rune = newtype(T_INT32);
	layout(t_rune);
	static const char *basics[] = {"bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8",
				       "uint16", "uint32", "uint64", "uintptr", "float32", "float64",
				       "complex64", "complex128", "string"};
	for (int k = T_BOOL; k <= T_STRING; k++)
		univ(O_TYPE, basics[k - T_BOOL], types[k]);
	univ(O_TYPE, "byte", t_byte);
	univ(O_TYPE, "rune", t_rune);

	/* error: interface { Error() string } */
	Type *errsig = newtype(T_FUNC);
	Field *r = xalloc(sizeof *r);
	r->type = types[T_STRING];
	vpush(&errsig->results, r);
	Method *m = xalloc(sizeof *m);
	m->name = intern("Error");
	m->type = errsig;
	Type *eu = newtype(T_INTERFACE);
	vpush(&eu->methods, m);
	eu->complete = true;
	t_error = newtype(T_NAMED);
	t_error->name = "error";
	t_error->pkg = builtinpkg;
	t_error->underlying = eu;
	univ(O_TYPE, "error", t_error);

	t_emptyiface = newtype(T_INTERFACE);
	t_emptyiface->complete = true;
	t_any = newtype(T_INTERFACE);
	t_any->complete = true;
	univ(O_TYPE, "any", t_any);

	Obj *o = newobj(O_CONST, intern("true"), (Pos){0});
	o->type = types[T_UNTYPED_BOOL];
	o->cv = cbool(true);
	o->used = true;
	declare(universe, o);
	o = newobj(O_CONST, intern("false"), (Pos){0});
	o->type = types[T_UNTYPED_BOOL];
	o->cv = cbool(false);
	o->used = true;
	declare(universe, o);
	o = newobj(O_CONST, intern("iota"), (Pos){0});
	o->type = types[T_UNTYPED_INT];
	o->used = true;
	o->builtin = -1; /* marks iota: its value depends on the spec */
	declare(universe, o);
	univ(O_NIL, "nil", types[T_UNTYPED_NIL]);

	static const struct { const char *n; int b; } bs[] = {
		{"append", B_APPEND}, {"cap", B_CAP}, {"clear", B_CLEAR}, {"close", B_CLOSE},
		{"complex", B_COMPLEX}, {"copy", B_COPY}, {"delete", B_DELETE}, {"imag", B_IMAG},
		{"len", B_LEN}, {"make", B_MAKE}, {"max", B_MAX}, {"min", B_MIN}, {"new", B_NEW},
		{"panic", B_PANIC}, {"print", B_PRINT}, {"println", B_PRINTLN}, {"real", B_REAL},
		{"recover", B_RECOVER},
	};
	for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++)
		univbuiltin(universe, bs[i].n, bs[i].b);

	/* package unsafe */
	unsafepkg = xalloc(sizeof *unsafepkg);
	unsafepkg->path = unsafepkg->ipath = unsafepkg->name = "unsafe";
	unsafepkg->std = true;
	unsafepkg->cprefix = "unsafe";
	unsafepkg->scope = newscope(NULL);
	unsafepkg->checked = true;
	o = newobj(O_TYPE, intern("Pointer"), (Pos){0});
	o->type = types[T_UNSAFEPTR];
	o->pkg = unsafepkg;
	declare(unsafepkg->scope, o);
	univbuiltin(unsafepkg->scope, "Sizeof", B_SIZEOF);
	univbuiltin(unsafepkg->scope, "Alignof", B_ALIGNOF);
	univbuiltin(unsafepkg->scope, "Offsetof", B_OFFSETOF);
	univbuiltin(unsafepkg->scope, "Add", B_ADD);
	univbuiltin(unsafepkg->scope, "Slice", B_SLICE);
	univbuiltin(unsafepkg->scope, "String", B_STRING);
	univbuiltin(unsafepkg->scope, "StringData", B_STRINGDATA);
	univbuiltin(unsafepkg->scope, "SliceData", B_SLICEDATA);
}
