/* emitexpr.c — expressions, calls, built-ins, conversions, literals.
 *
 * expr(n) returns a C expression for n's value after emitting, into the
 * current function, the statements needed to compute it: every call is its
 * own statement (followed by a reload of the data frame and a check for a
 * recovering panic), and run-time checks (bounds, nil, zero divisors) are
 * statements placed right before the access they guard.  The expression
 * returned is valid only until the next call: an operand that is followed
 * by an operand with calls is first copied ("spilled") into a temporary, so
 * nothing computed before a call is used after it (DESIGN.md S2).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emitint.h"

static const char *unsafeslice(Node *n, bool str);

static const char *builtin(Node *n);
static bool maybeinframe(const char *e);
static const char *constbox(const char *e, Type *from);
static const char *complit(Node *n);
static const char *closure(Node *n);
static const char *methodvalue(Node *n);
static const char *assertion(Node *n);
void commaok(Node *r, const char **v, Type *want);

/* ---------------------------------------------------------------- helpers */

void pcline(void) {
	pcrecord(false);
}

/* pcline's record, as an inline mark (gl.h) for a call gcc may inline. */
void pcrecord(bool inlmark) {
	if (fn->regleaf) /* regleaf.c's prediction missed a safe point */
		fatal("internal error: %s:%d: a safe point in %s, emitted as a register leaf", fn->file ? fn->file : "?", fn->line, fn->gname);
	fn->leaf = false;
	line("%s(%s, %d);", inlmark ? "GL_PCLINE_INLMARK" : "GL_PCLINE", fn->info, fn->line);
}

/* lhs = call, where lhs may be in the data frame: the result is held in a
 * register until the frame pointer is reloaded, because C may compute the
 * address of the left side before the call, in the frame that the call may
 * have moved (DESIGN.md S2). */
void callto(const char *lhs, const char *call) {
	if (maybeinframe(lhs)) {
		line("{ __auto_type r_ = %s; RELOAD; %s = r_; }", call, lhs);
		fn->reloadedat = out->n; /* afterCall need not reload again */
	} else
		line("%s = %s;", lhs, call);
}

void afterCall(bool mayunwind) {
	if (fn->reloadedat != out->n)
		line("RELOAD;");
	if (mayunwind)
		line("if (GL_UNLIKELY(g->unwinding)) goto unwind;");
}

/* A call into the panic machinery: it returns only if a deferred call
 * recovered, and then this frame unwinds. */
void panicstmt(const char *call) {
	line("%s(%s, %d);", fn->regleaf ? "GL_PCLINE_LEAF" : "GL_PCLINE", fn->info, fn->line);
	line("%s;", call);
	line("goto unwind;");
}

static void check(const char *cond, const char *panic) {
	line("if (GL_UNLIKELY(%s)) {", cond);
	fn->indent++;
	panicstmt(panic);
	fn->indent--;
	line("}");
}


static Type *anyfunct; /* anyfunc's, made once per program */

static Type *anyfunc(void) {
	if (!anyfunct)
		anyfunct = newtype(T_FUNC);
	return anyfunct;
}

/* Temporaries live until the end of the statement that made them (a
 * compound statement's own temporaries, such as a range loop's copy of
 * its operand, until the end of the whole statement): then they are free
 * for later statements of the same C type, which keeps data frames small
 * (they are zeroed at every call). */
typedef struct Temp {
	const char *name, *ctype;
	bool frame, free;
	bool scanned; /* a data-frame member the collector scans: cleared when freed */
} Temp;

int tempmark(void) { return fn->livetemps.n; }

/* The temporaries made after mark hold values no later statement reads:
 * zero those the collector would scan, so that they stop being roots.
 * gl's stack map has one entry per member for the whole function
 * (liveness comes from these stores: emitstmt.c, "last uses"), so a stale
 * pointer in a temporary would keep its object alive until the member is
 * used again or the function returns: binary trees' `sum += bottomUp(d).check()` kept the previous
 * 8 MiB tree alive while it built the next one (bench/gc/run's peak RSS,
 * 1.40x Go's before).  Go's compiler gets this from its stack maps. */
void tempclear(int mark) {
	for (int i = mark; i < fn->livetemps.n; i++) {
		Temp *x = fn->livetemps.v[i];
		if (x->scanned)
			line("GL_CLEAR(fp->%s);", x->name);
	}
}

void temprelease(int mark) {
	for (int i = mark; i < fn->livetemps.n; i++)
		((Temp *)fn->livetemps.v[i])->free = true;
	if (mark < fn->livetemps.n)
		fn->livetemps.n = mark;
}

static const char *newtemp(Type *t, bool frame) {
	const char *ct = t ? ctype(t) : "GlMapIter";
	for (int i = 0; i < fn->temps.n; i++) {
		Temp *x = fn->temps.v[i];
		if (x->free && x->frame == frame && !strcmp(x->ctype, ct)) {
			x->free = false;
			vpush(&fn->livetemps, x);
			return frame ? cmark(xprintf("fp->%s", x->name), CE_TEMPFRAME) : cmark(x->name, CE_TEMPLOCAL);
		}
	}
	Temp *x = xalloc(sizeof *x);
	x->name = xprintf("t%d", ++fn->ntemp); /* per function: a function's C does not change with another's */
	x->ctype = ct;
	x->frame = frame;
	vpush(&fn->temps, x);
	vpush(&fn->livetemps, x);
	if (!frame) {
		bprintf(&fn->decls, "\t%s %s;\n", ct, x->name);
		return cmark(x->name, CE_TEMPLOCAL);
	}
	x->scanned = !t || haspointers(t);
	if (!t) {
		/* a map iterator: pointers into the map (never into the stack),
		 * a root while the loop runs; the runtime describes its layout */
		bprintf(&fn->frameptr, "\tGlMapIter %s;\n", x->name);
		vpush(&fn->frameslots, (void *)x->name);
		vpush(&fn->frametypes, NULL);
	} else if (haspointers(t)) {
		bprintf(&fn->frameptr, "\t%s %s;\n", ct, x->name);
		vpush(&fn->frameslots, (void *)x->name);
		vpush(&fn->frametypes, t);
	} else
		plainmember(x->name, xprintf("\t%s %s;\n", ct, x->name));
	return cmark(xprintf("fp->%s", x->name), CE_TEMPFRAME);
}

/* In a register leaf, a temporary is a C local unless it is a large
 * aggregate, which would swell gcc's fixed frame past the reserve band
 * (S3): that one is in a data frame even there. */
static bool regtemp(Type *t) { return t && fn->regleaf && tsize(t) <= REGLEAF_TEMP; }

const char *temp(Type *t) { return newtemp(t, t && inframe(t) && !regtemp(t)); }

/* A temporary in the data frame: it can be passed by address.  A NULL
 * type asks for a map iterator.  A register leaf's is a C local: nothing
 * moves its stack, so an address of one stays good (regleaf.c). */
const char *frametemp(Type *t) { return newtemp(t, !regtemp(t)); }

/* ---- what glc knows of the C expressions it writes ----
 *
 * No decision reads the C text back.  The functions that write a
 * constant, a variable's C name or a temporary record what it is, under the
 * address of the string they return (each is made once, by them), and
 * ckind() looks it up: an expression no one recorded is a computed value,
 * which every user treats the safe way (copied before it is read twice,
 * its result held in a register across a frame reload, passed by a copy). */
static PtrMap ckinds;

const char *cmark(const char *e, int kind) {
	pmput(&ckinds, e, (void *)(intptr_t)kind);
	return e;
}

int ckind(const char *e) { return (int)(intptr_t)pmget(&ckinds, e); }

/* Whether e is a constant (cvalue). */
static bool isconstexpr(const char *e) { return ckind(e) == CE_CONST; }

/* Whether e names storage: a variable, a temporary, a field or element of
 * one in the data frame, a package variable. */
static bool addressable(const char *e) { return ckind(e) > CE_CONST; }

/* A variable or a temporary: reading it twice reads the same value as long
 * as no call comes between, so it need not be copied first. */
static bool isvar(const char *e) { return addressable(e); }

static bool istemp(const char *e) { return ckind(e) == CE_TEMPLOCAL || ckind(e) == CE_TEMPFRAME; }

/* Whether storing into e after a call must wait for the frame's reload:
 * anything but a C local or a package variable may lie in the data frame
 * (or be found through it). */
static bool maybeinframe(const char *e) {
	int k = ckind(e);
	return k != CE_LOCAL && k != CE_TEMPLOCAL && k != CE_GLOBAL;
}

const char *spill(const char *e, Type *t) {
	if (istemp(e) || isconstexpr(e))
		return e;
	const char *tmp = temp(t);
	line("%s = %s;", tmp, e);
	return tmp;
}

/* e, or a copy of it if reading e twice could cost or differ: a pointer
 * that is nil-checked and then dereferenced is read twice, with no call
 * between, so a variable need not be copied. */
static const char *once(const char *e, Type *t) {
	return isvar(e) ? e : spill(e, t);
}

/* Whether evaluating n may call into the runtime or gl code (and so move
 * the stack or run a deferred call). */
bool hascall(Node *n) {
	if (!n)
		return false;
	if (n->cv)
		return false;
	switch (n->kind) {
	case N_CALL:
		if (n->flags & NF_CONVERSION) {
			Type *to = under(n->type), *from = ((Node *)n->list.v[0])->type;
			if (isinterface(n->type) && !isinterface(from))
				return true;
			if (to->kind == T_STRING && !isstring(from))
				return true;
			if (to->kind == T_SLICE && isstring(from))
				return true;
			return hascall(n->list.v[0]);
		}
		if (n->flags & NF_CALLEE_BUILTIN) {
			if (n->ival == B_LEN || n->ival == B_CAP || n->ival == B_REAL || n->ival == B_IMAG || n->ival == B_COMPLEX ||
			    n->ival == B_MIN || n->ival == B_MAX) {
				for (int i = 0; i < n->list.n; i++)
					if (hascall(n->list.v[i]))
						return true;
				if ((n->ival == B_LEN) && under(((Node *)n->list.v[0])->type)->kind == T_MAP)
					return true;
				if ((n->ival == B_MIN || n->ival == B_MAX) && isstring(n->type))
					return false;
				return false;
			}
		}
		return true;
	case N_FUNCLIT: case N_TYPEASSERT: case N_COMPLIT:
		return true;
	case N_INDEX:
		if (n->flags & NF_MAPINDEX)
			return true;
		return hascall(n->a) || hascall(n->b);
	case N_UNARY:
		if (n->op == TK_ARROW)
			return true;
		if (n->op == TK_AND) {
			Node *x = n->a;
			while (x->kind == N_PAREN)
				x = x->a;
			if (x->kind == N_COMPLIT)
				return true;
		}
		return hascall(n->a);
	case N_BINARY:
		if (n->op == TK_ADD && isstring(n->type))
			return true;
		if ((n->op == TK_EQL || n->op == TK_NEQ) && n->a->type &&
		    (isinterface(n->a->type) || isinterface(n->b->type) || under(n->a->type)->kind == T_STRUCT ||
		     under(n->a->type)->kind == T_ARRAY))
			return true;
		return hascall(n->a) || hascall(n->b);
	case N_SELECTOR:
		if (n->op == SEL_METHOD || n->op == SEL_IMETHOD || n->op == SEL_METHODEXPR)
			return true;
		return n->op != SEL_PKG && hascall(n->a);
	case N_SLICEEXPR:
		return hascall(n->a) || hascall(n->b) || hascall(n->c) || hascall(n->d);
	case N_STAR: case N_PAREN:
		return hascall(n->a);
	case N_IDENT:
		return n->obj && n->obj->kind == O_FUNC; /* a func value may need its wrapper: no call, but harmless */
	}
	return false;
}

/* ---------------------------------------------------------------- constants */

static const char *intconst(i128 v, Type *t) {
	const char *ct = ctype(t);
	if (isunsigned(t) || under(t)->kind == T_UINTPTR) {
		unsigned long long u = (unsigned long long)(v & (((unsigned __int128)1 << 64) - 1));
		return xprintf("((%s)%lluull)", ct, u);
	}
	long long s = (long long)v;
	if (s == INT64_MIN)
		return xprintf("((%s)(-9223372036854775807ll - 1))", ct);
	return xprintf("((%s)%lldll)", ct, s);
}

/* c's real part, rounded (once) to float32 or float64, in C: %a is exact */
static const char *floatconst(Const *c, bool f32) {
	double d = ctodouble(c, f32);
	if (d == 0)
		return f32 ? "0.0f" : "0.0";
	return xprintf(f32 ? "((float)%a)" : "%a", d);
}

static const char *cvalue1(Const *c, Type *t);

const char *cvalue(Const *c, Type *t) {
	const char *v = cvalue1(c, t);
	return v ? cmark(v, CE_CONST) : NULL;
}

static const char *cvalue1(Const *c, Type *t) {
	if (!t || isuntyped(t))
		t = defaulttype(t ? t : types[T_INT]);
	Type *u = under(t);
	if (u->kind == T_INTERFACE)
		return NULL;
	switch (c->kind) {
	case CK_BOOL:
		return c->b ? "true" : "false";
	case CK_STRING:
		return strlit(c->s, c->slen);
	case CK_INT:
		if (isfloat(u))
			return floatconst(c, u->kind == T_FLOAT32);
		if (iscomplex(u))
			return xprintf("__builtin_complex((%s)%s, (%s)0)", u->kind == T_COMPLEX64 ? "float" : "double",
				       floatconst(c, u->kind == T_COMPLEX64), u->kind == T_COMPLEX64 ? "float" : "double");
		return intconst(ctoint(c), t);
	case CK_FLOAT:
		if (isinteger(u))
			return intconst(ctoint(c), t);
		if (iscomplex(u))
			return xprintf("__builtin_complex((%s)%s, (%s)0)", u->kind == T_COMPLEX64 ? "float" : "double",
				       floatconst(c, u->kind == T_COMPLEX64), u->kind == T_COMPLEX64 ? "float" : "double");
		return floatconst(c, u->kind == T_FLOAT32);
	case CK_COMPLEX:
		if (iscomplex(u)) {
			bool f32 = u->kind == T_COMPLEX64;
			return xprintf("__builtin_complex((%s)%s, (%s)%s)", f32 ? "float" : "double", floatconst(c, f32),
				       f32 ? "float" : "double", floatconst(cimagpart(c), f32));
		}
		if (isfloat(u))
			return floatconst(c, u->kind == T_FLOAT32);
		return intconst(ctoint(c), t);
	}
	return "0";
}

const char *zeroval(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_STRING:
		return cmark("((GlString){0})", CE_CONST);
	case T_STRUCT: case T_ARRAY: case T_TUPLE: case T_SLICE: case T_INTERFACE:
		return xprintf("((%s){0})", ctype(t));
	case T_BOOL:
		return "false";
	}
	return xprintf("((%s)0)", ctype(t));
}

/* ---------------------------------------------------------------- conversions */

/* The first word of an interface of type to holding a value of concrete
 * type from: the type's descriptor, or the itab for a non-empty to. */
static const char *ifacetab(Type *from, Type *to) {
	Type *tu = under(to);
	completeiface(tu);
	return tu->methods.n == 0 ? typedesc(from) : itabsym(from, to);
}

/* A C expression of type GlIface holding e (of concrete type from) as
 * interface type to. */
const char *toiface(const char *e, Type *from, Type *to) {
	Type *tu = under(to);
	completeiface(tu);
	bool empty = tu->methods.n == 0;
	if (isinterface(from)) {
		Type *fu = under(from);
		completeiface(fu);
		if (fu->methods.n == 0 && empty)
			return e;
		const char *v = spill(e, from);
		const char *dyn = fu->methods.n ? xprintf("gl_ifacetype(%s)", v) : xprintf("((const GlType *)%s.tab)", v);
		if (empty)
			return xprintf("((GlIface){%s, %s.data})", dyn, v);
		/* to a smaller interface: the itab is found at run time */
		const char *r = temp(to);
		line("%s = (GlIface){%s ? getitab(%s, %s, false) : 0, %s.data};", r, dyn, typedesc(to), dyn, v);
		return r;
	}
	if (from->kind == T_UNTYPED_NIL)
		return "((GlIface){0})";
	const char *tab = ifacetab(from, to);
	if (isdirectiface(from)) {
		if (under(from)->kind == T_POINTER || under(from)->kind == T_UNSAFEPTR || under(from)->kind == T_MAP ||
		    under(from)->kind == T_CHAN || under(from)->kind == T_FUNC)
			return xprintf("((GlIface){%s, (%svoid *)(%s)})", tab, cq(), e);
		const char *v = spill(e, from);
		return xprintf("((GlIface){%s, *(void **)&%s})", tab, v);
	}
	/* constants are boxed once, statically */
	if (isconstexpr(e))
		return xprintf("((GlIface){%s, (%svoid *)&%s})", tab, cq(), constbox(e, from));
	if (tsize(from) == 0)
		return xprintf("((GlIface){%s, newobject(%s)})", tab, typedesc(from));
	int64_t sz = tsize(from);
	if (!haspointers(from) && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
		/* small values need no allocation (runtime convTsmall) */
		const char *v = spill(e, from);
		const char *box = temp(types[T_UNSAFEPTR]);
		pcline();
		callto(box, xprintf("convTsmall(%s, *(const uint%d_t *)&%s)", typedesc(from), (int)sz * 8, v));
		afterCall(false);
		return xprintf("((GlIface){%s, %s})", tab, box);
	}
	const char *v = spill(e, from);
	const char *box = temp(ptrto(from));
	pcline();
	callto(box, xprintf("newobject(%s)", typedesc(from)));
	afterCall(false);
	store(heapplace(xprintf("*%s", box)), v, from);
	return xprintf("((GlIface){%s, %s})", tab, box);
}

/* A static object holding the constant e of type from: an interface's
 * box that costs no allocation. */
static const char *constbox(const char *e, Type *from) {
	const char *nm = unitname(xprintf("%s__const", fn ? fn->cname : "glstatic"));
	bprintf(&gdecls, "static const %s %s = %s;\n", ctype(from), nm, e);
	return nm;
}

static bool sameC(Type *a, Type *b) { return !strcmp(ctype(a), ctype(b)); }

const char *conv(const char *e, Type *from, Type *to) {
	if (!from || !to || from == to)
		return e;
	Type *fu = under(from), *tu = under(to);
	if (tu->kind == T_INTERFACE) {
		if (identical(from, to))
			return e;
		return toiface(e, from, to);
	}
	if (from->kind == T_UNTYPED_NIL)
		return zeroval(to);
	if (identical(fu, tu) || (fu->kind == tu->kind && fu->kind <= T_UNSAFEPTR)) {
		if (sameC(from, to))
			return e;
		if (fu->kind == T_STRUCT || fu->kind == T_ARRAY) {
			const char *v = frametemp(from);
			line("%s = %s;", v, e);
			return xprintf("(*(%s *)&%s)", ctype(to), v);
		}
		return xprintf("((%s)(%s))", ctype(to), e);
	}
	/* string conversions */
	if (tu->kind == T_STRING) {
		if (isinteger(fu)) {
			const char *r = temp(to);
			pcline();
			callto(r, xprintf("intstring(g, (int64_t)(%s))", e));
			afterCall(false);
			return r;
		}
		if (fu->kind == T_SLICE) {
			const char *s = spill(e, from);
			const char *r = temp(to);
			pcline();
			if (under(fu->elem)->kind == T_UINT8)
				callto(r, xprintf("slicebytetostring(g, (const uint8_t *)%s.ptr, %s.len)", s, s));
			else
				callto(r, xprintf("slicerunetostring(g, (const int32_t *)%s.ptr, %s.len)", s, s));
			afterCall(false);
			return r;
		}
		if (fu->kind == T_STRING)
			return e;
	}
	if (tu->kind == T_SLICE && fu->kind == T_STRING) {
		const char *s = spill(e, from);
		const char *r = frametemp(to);
		pcline();
		if (under(tu->elem)->kind == T_UINT8)
			line("stringtoslicebyte(g, &%s, %s);", r, s);
		else
			line("stringtoslicerune(g, &%s, %s);", r, s);
		afterCall(false);
		return r;
	}
	if (tu->kind == T_POINTER && fu->kind == T_SLICE) {
		/* slice to array pointer: the slice must be long enough */
		const char *s = spill(e, from);
		int64_t n = under(tu->elem)->len;
		check(xprintf("%s.len < %lld", s, (long long)n), xprintf("gl_panicsliceconvert(g, %lld, %s.len)", (long long)n, s));
		return xprintf("((%s)%s.ptr)", ctype(to), s);
	}
	if (iscomplex(tu))
		return xprintf("((%s)(%s))", ctype(to), e);
	return xprintf("((%s)(%s))", ctype(to), e);
}

const char *exprto(Node *n, Type *t) {
	if (n->kind == N_COMPLIT && !n->a && !n->type)
		n->type = t;
	if (n->cv && t && !isinterface(t)) {
		const char *c = cvalue(n->cv, t);
		if (c)
			return c;
	}
	return conv(expr(n), n->type, t);
}

/* ---------------------------------------------------------------- lvalues */

/* *p for a pointer p of type t */
const char *derefptr(const char *p, Type *t) {
	if (ptrloop(t)) /* void * in C, pointing at another void * */
		return xprintf("(*(void *%s*)%s)", checkstores ? "const " : "", p);
	return xprintf("(*%s)", p);
}

static const char *nilchecked(const char *p) {
	const char *v = p;
	check(xprintf("!(%s)", v), "gl_panicnil(g)");
	return v;
}

/* e.m, a field of the struct e: storage in the data frame when e is */
static const char *fieldof(const char *e, const char *m) {
	int k = ckind(e);
	const char *r = xprintf("%s.%s", e, m);
	if (k == CE_FRAME || k == CE_TEMPFRAME)
		return cmark(r, CE_FRAME);
	if (k == CE_BOXED)
		return cmark(r, CE_BOXED);
	return r;
}

/* ---- nil checks once (Go's nilcheckelim, its simplest case) ----
 *
 * A local pointer that is never assigned after its declaration, never
 * address-taken and not captured keeps its value for the rest of its scope,
 * so after the code has checked it for nil, code that runs only after that
 * check need not check it again.  glc writes C in the order it runs, and
 * the C's blocks give dominance: a check at block depth d covers what
 * follows it in the same block and the blocks inside, up to the block's
 * end or the next label (a jump may arrive there without passing the
 * check; label() forgets).  fn->levelgen[d] counts the blocks closed at
 * depth d (line() sees a close as a line at a lower depth), and a fact
 * holds only while the block it was made in is open.  A variable declared
 * in a loop is checked again in each iteration: its declaration is written
 * before the check, in the same block. */
typedef struct NilFact {
	Obj *o;
	int depth, gen;
} NilFact;

static bool nilfactholds(Obj *o) {
	for (int i = 0; i < fn->nonnil.n; i++) {
		NilFact *f = fn->nonnil.v[i];
		if (f->o == o && f->depth <= fn->indent && fn->levelgen[f->depth] == f->gen)
			return true;
	}
	return false;
}

void nilfactsforget(int depth) {
	int k = 0;
	for (int i = 0; i < fn->nonnil.n; i++)
		if (((NilFact *)fn->nonnil.v[i])->depth < depth)
			fn->nonnil.v[k++] = fn->nonnil.v[i];
	fn->nonnil.n = k;
}

/* Whether x is a variable whose nil checks can be shared (above). */
static Obj *factvar(Node *x);

static Obj *nilfactvar(Node *x) {
	Obj *o = factvar(x);
	return o && fn->indent < MAXDEPTH ? o : NULL;
}

/* nilchecked(p) for the pointer p that x evaluated to: no check if one
 * made before still holds for x's variable. */
static const char *nilcheckedvar(Node *x, const char *p) {
	Obj *o = nilfactvar(x);
	if (o && nilfactholds(o))
		return p;
	nilchecked(p);
	if (o) {
		NilFact *f = xalloc(sizeof *f);
		*f = (NilFact){o, fn->indent, fn->levelgen[fn->indent]};
		vpush(&fn->nonnil, f);
	}
	return p;
}

/* Follow a selector's embedded-field path from the value e of type t. */
/* ---- bounds checks once: the index of a range loop ----
 *
 * In `for i := range s` (s a slice, array, pointer to array or string),
 * i < len(s) holds in the body as long as neither i nor s is assigned:
 * s[i] needs no bounds check (Go's prove pass, its commonest case).  The
 * loop reads s once; a slice or string variable that is never reassigned
 * keeps that length, and an array's length is its type's.  emitrange
 * pushes a fact for the body and pops it after. */
typedef struct RangeFact {
	Obj *key, *seq;
	bool fixedlen; /* an array or pointer to one: any value of its type has this length */
} RangeFact;

/* An eligible variable for facts: local, never reassigned, address-taken
 * or captured (the same rule as nil facts). */
static Obj *factvar(Node *x) {
	while (x && x->kind == N_PAREN)
		x = x->a;
	if (!x || x->kind != N_IDENT || !x->obj)
		return NULL;
	Obj *o = x->obj;
	if (o->kind != O_VAR || o->global || o->addrtaken || o->captured || o->reassigned || o->onheap || o->slot == S_BOX)
		return NULL;
	return o;
}

void rangefactpush(Node *key, Node *seq) {
	Obj *k = factvar(key), *q = factvar(seq);
	Node *sx = seq;
	while (sx->kind == N_PAREN)
		sx = sx->a;
	int kind = under(seq->type)->kind;
	bool fixed = kind == T_ARRAY || kind == T_POINTER;
	if (!q && fixed && sx->kind == N_IDENT)
		q = sx->obj; /* an array variable may be reassigned: its length cannot change */
	RangeFact *f = xalloc(sizeof *f);
	*f = (RangeFact){k, q, fixed};
	vpush(&fn->rangefacts, f); /* pushed even when empty: the pop is unconditional */
}

/* The body of `for i := c; i < len(seq); i++` (emitstmt.c, forlenfact,
 * has checked the loop): i counts up from c >= 0 and the body does not
 * assign it, so i < len(seq) holds there if seq keeps its length, which a
 * variable never reassigned does.  Pushes the fact, or returns false. */
bool forlenfactpush(Obj *i, Node *seq) {
	Obj *q = factvar(seq);
	if (!q)
		return false;
	RangeFact *f = xalloc(sizeof *f);
	*f = (RangeFact){i, q, false};
	vpush(&fn->rangefacts, f);
	return true;
}

void rangefactpop(void) { fn->rangefacts.n--; }

/* Whether seq[idx] is in range by a loop around it (no check needed). */
static bool inrangeloop(Node *seq, Node *idx) {
	while (seq->kind == N_PAREN)
		seq = seq->a;
	while (idx->kind == N_PAREN)
		idx = idx->a;
	if (seq->kind != N_IDENT || idx->kind != N_IDENT || !seq->obj || !idx->obj)
		return false;
	for (int i = 0; i < fn->rangefacts.n; i++) {
		RangeFact *f = fn->rangefacts.v[i];
		if (f->key && f->seq && f->key == idx->obj && f->seq == seq->obj)
			return true;
	}
	return false;
}

/* ... from the value e of node x (NULL if not known): the first step's nil
 * check may be one made before (nilcheckedvar). */
static const char *navigatex(Node *x, const char *e, Type *t, Vec *path, Type **out) {
	for (int i = 0; i < path->n; i++) {
		Field *f = path->v[i];
		if (under(t)->kind == T_POINTER) {
			e = i == 0 && x ? nilcheckedvar(x, e) : nilchecked(e);
			e = xprintf("(%s)->%s", e, cfield(f->name));
		} else
			e = fieldof(e, cfield(f->name));
		t = f->type;
	}
	if (out)
		*out = t;
	return e;
}

static const char *navigate(const char *e, Type *t, Vec *path, Type **out) { return navigatex(NULL, e, t, path, out); }

static const char *indexexpr(const char *i, Node *in) {
	if (in->cv)
		return intconst(ctoint(in->cv), types[T_INT]);
	return i;
}

static void boundscheck(const char *i, const char *len) {
	check(xprintf("(uint64_t)(%s) >= (uint64_t)(%s)", i, len), xprintf("gl_panicindex(g, (int64_t)(%s), (int64_t)(%s))", i, len));
}

Place heapplace(const char *c) { return (Place){c, PL_HEAP}; }
Place stackplace(const char *c) { return (Place){c, PL_STACK}; }

/* The place an addressable expression names.  A field or an array element
 * is where its struct or array is; anything reached through a pointer or a
 * slice is the heap's (escape analysis may have put it on the stack, and
 * then the barrier is needless but harmless, as Go's is). */
Place lvplace(Node *n) {
	switch (n->kind) {
	case N_BAD: /* an operand evaluated earlier (stablelhs): ival says where */
		return (Place){n->lit, (int)n->ival};
	case N_PAREN:
		return lvplace(n->a);
	case N_IDENT:
		return varplace(n->obj);
	case N_SELECTOR: {
		if (n->op == SEL_PKG)
			return varplace(n->obj);
		Node *x = n->a;
		Type *xt = x->type;
		Place base = under(xt)->kind == T_POINTER ? heapplace(expr(x)) : lvplace(x);
		bool viaptr = under(xt)->kind == T_POINTER;
		for (int i = 1; i < n->path.n && !viaptr; i++)
			viaptr = under(((Field *)n->path.v[i - 1])->type)->kind == T_POINTER;
		return (Place){navigatex(x, base.c, xt, &n->path, NULL), viaptr ? PL_HEAP : base.where};
	}
	case N_INDEX: {
		Type *xt = under(n->a->type);
		if (xt->kind == T_SLICE) {
			const char *s = expr(n->a);
			if (!isvar(s) || hascall(n->b))
				s = spill(s, n->a->type);
			const char *i = indexexpr(expr(n->b), n->b);
			if (!isvar(i) && !n->b->cv)
				i = spill(i, n->b->type);
			if (!inrangeloop(n->a, n->b))
				boundscheck(i, xprintf("%s.len", s));
			return heapplace(xprintf("((%s)%s.ptr)[%s]", heapptr(xt->elem), s, i));
		}
		if (xt->kind == T_ARRAY) {
			Place a = lvplace(n->a);
			const char *i = indexexpr(expr(n->b), n->b);
			if (!n->b->cv) {
				i = spill(i, n->b->type);
				if (!inrangeloop(n->a, n->b))
					boundscheck(i, xprintf("%lld", (long long)xt->len));
			}
			const char *el = xprintf("%s.a[%s]", a.c, i);
			if (ckind(a.c) == CE_FRAME || ckind(a.c) == CE_TEMPFRAME) /* i is a constant or a copy */
				cmark(el, CE_FRAME);
			return (Place){el, a.where};
		}
		if (xt->kind == T_POINTER) {
			Type *at = under(xt->elem);
			const char *p = once(expr(n->a), n->a->type);
			const char *i = indexexpr(expr(n->b), n->b);
			nilcheckedvar(n->a, p);
			if (!n->b->cv) {
				i = spill(i, n->b->type);
				if (!inrangeloop(n->a, n->b))
					boundscheck(i, xprintf("%lld", (long long)at->len));
			}
			return heapplace(xprintf("%s->a[%s]", p, i));
		}
		break;
	}
	case N_STAR: {
		const char *p = once(expr(n->a), n->a->type);
		nilcheckedvar(n->a, p);
		return heapplace(derefptr(p, n->a->type));
	}
	}
	errorat(n->pos, "internal error: not an lvalue");
	return stackplace("0");
}

const char *lvalue(Node *n) { return lvplace(n).c; }

const char *cq(void) { return checkstores ? "const " : ""; }

const char *heapptr(Type *t) { return checkstores ? xprintf("%s const *", ctype(t)) : xprintf("%s *", ctype(t)); }

/* A pointer p into the heap handed to what writes through it itself: the
 * runtime, which stores pointers with its own barriers (growslice,
 * typedslicecopy, typedmemmove), or a copy of bytes without pointers.
 * Under -d=checkstores it is cast to a mutable pointer, so that each such
 * hand-over is written here, in sight. */
const char *mutptr(const char *p) { return checkstores ? xprintf("(void *)(uintptr_t)(%s)", p) : p; }

/* The store statement, and in *copy a statement to write before it (or
 * NULL).  Its callers, storestmt and store, say what it is for. */
static const char *storeparts(Place dst, const char *val, Type *t, const char **copy) {
	*copy = NULL;
	/* the proofs that the checks can fail (testdata/checkstores.sh:
	 * -d=checkstores rejects the C; testdata/gcstress.sh: GLDEBUG=wbshadow
	 * catches the store at run time): this store written as if it
	 * bypassed store(), a plain assignment */
	static int bypass = -1;
	if (bypass < 0)
		bypass = getenv("GLC_TEST_STOREBYPASS") != NULL;
	if (dst.where == PL_HEAP && checkstores && !bypass)
		return xprintf("*(%s *)(uintptr_t)&%s = %s;", ctype(t), dst.c, val);
	if (dst.where != PL_HEAP || !haspointers(t) || checkstores || bypass)
		return xprintf("%s = %s;", dst.c, val);
	/* the write barrier (gl.h): one pointer, or a value's pointer words */
	if (ispointershaped(t))
		return xprintf("GL_STOREPTR(%s, %s);", dst.c, val);
	/* the others read val's words through its address: storage (a
	 * compound literal's, for a constant), or a copy in the frame (a C
	 * temporary per store would not share its stack slot) */
	int k = ckind(val);
	/* a register leaf's C locals may be read through their address
	 * (nothing moves its stack), and its copies are C locals too: it has
	 * no data frame (regleaf.c) */
	bool reg = fn && fn->regleaf;
	if (reg && (k == CE_LOCAL || k == CE_TEMPLOCAL))
		k = CE_FRAME;
	if (k != CE_CONST && k != CE_FRAME && k != CE_TEMPFRAME && k != CE_BOXED && k != CE_GLOBAL) {
		const char *tmp = reg ? temp(t) : frametemp(t);
		*copy = xprintf("%s = %s;", tmp, val);
		val = tmp;
	}
	int64_t words = tsize(t) / 8;
	if (words <= 4) /* through registers, in one asm with the check */
		return xprintf("GL_STORE%d(%s, %s, %s);", (int)words, dst.c, val, typedesc(t));
	return xprintf("GL_STOREBIG(%s, %s, %s);", dst.c, val, typedesc(t));
}

/* Every store of a gl value is written here, and nowhere else: the
 * collector's write barrier (a pointer stored into the heap or a global
 * while marking) is this function's to emit.  Under -d=checkstores every
 * pointer's target is const in C, so cc rejects a store into the heap
 * written anywhere else; this one casts the const away.  The statement,
 * for a caller that places it itself (store() writes it as a line). */
const char *storestmt(Place dst, const char *val, Type *t) {
	const char *copy, *st = storeparts(dst, val, t, &copy);
	return copy ? xprintf("%s %s", copy, st) : st;
}

/* A value that is one C pointer: a pointer, unsafe.Pointer, map, chan or
 * func. */
bool ispointershaped(Type *t) {
	switch (under(t)->kind) {
	case T_POINTER: case T_UNSAFEPTR: case T_MAP: case T_CHAN: case T_FUNC:
		return true;
	}
	return false;
}

void store(Place dst, const char *val, Type *t) {
	const char *copy, *st = storeparts(dst, val, t, &copy);
	if (copy)
		line("%s", copy);
	line("%s", st);
}

/* The address of the C function fname into the first word of a record
 * just allocated (a defer or go record, a method value): no barrier, as
 * nothing old is there to shade and a code address is not the heap's. */
void storecode(Place dst, const char *fname) {
	if (checkstores)
		line("*(void **)(uintptr_t)&%s = (void *)%s;", dst.c, fname);
	else
		line("%s = (void *)%s;", dst.c, fname);
}

const char *addrof(Node *n) {
	while (n->kind == N_PAREN)
		n = n->a;
	switch (n->kind) {
	case N_IDENT: {
		Obj *o = n->obj;
		if (o->slot == S_BOX)
			return xprintf("fp->%s", o->cname);
		return xprintf("(&%s)", varref(o));
	}
	case N_COMPLIT: {
		/* &T{...}: a new object, filled in place */
		Type *t = n->flags & NF_IMPLICITADDR ? under(n->type)->elem : n->type;
		const char *p = temp(ptrto(t));
		pcline();
		callto(p, xprintf("newobject(%s)", typedesc(t)));
		afterCall(false);
		extern void fillcomplit(Node *n, Type *t, Place dst);
		if (under(t)->kind == T_STRUCT || under(t)->kind == T_ARRAY)
			fillcomplit(n, t, heapplace(xprintf("(*%s)", p)));
		else {
			/* &[]T{...}, &map[K]V{...}: the value, then stored */
			Node v = *n;
			v.flags &= ~NF_IMPLICITADDR;
			v.type = t;
			const char *val = expr(&v);
			store(heapplace(xprintf("(*%s)", p)), val, t);
		}
		return p;
	}
	}
	return xprintf("(&%s)", lvalue(n));
}

/* An assignment's left side evaluated now (Go's first phase): a node whose
 * lvalue is a fixed C expression. */
Node *stablelhs(Node *l, bool rhscalls) {
	while (l->kind == N_PAREN)
		l = l->a;
	if (l->kind == N_IDENT || l->kind == N_BAD)
		return l;
	if (l->kind == N_SELECTOR && l->op == SEL_PKG)
		return l;
	Node *s = mknode(N_BAD, l->pos);
	s->type = l->type;
	if (l->kind == N_INDEX && (l->flags & NF_MAPINDEX)) {
		Node *m = mknode(N_BAD, l->pos), *k = mknode(N_BAD, l->pos);
		m->type = l->a->type;
		m->lit = spill(expr(l->a), m->type);
		k->type = under(l->a->type)->key;
		k->lit = frametemp(k->type);
		line("%s = %s;", k->lit, exprto(l->b, k->type));
		Node *ix = mknode(N_INDEX, l->pos);
		ix->a = m;
		ix->b = k;
		ix->type = l->type;
		ix->flags = l->flags;
		return ix;
	}
	Place lv = lvplace(l);
	s->ival = lv.where;
	if (!rhscalls) {
		s->lit = lv.c;
		return s;
	}
	const char *p = frametemp(ptrto(l->type));
	line("%s = &%s;", p, lv.c);
	s->lit = derefptr(p, ptrto(l->type));
	if (lv.where == PL_STACK && checkstores) /* a pointer into this frame: not const */
		s->lit = xprintf("(*(%s *)(uintptr_t)%s)", ctype(l->type), p);
	return s;
}

void assign(Node *lhs, const char *val, Type *t) {
	if (!val)
		return;
	if (lhs->kind == N_IDENT && !strcmp(lhs->name, "_"))
		return;
	if (lhs->kind == N_INDEX && (lhs->flags & NF_MAPINDEX)) {
		Type *mt = lhs->a->type;
		const char *m = lhs->a->kind == N_BAD ? lhs->a->lit : spill(expr(lhs->a), mt);
		const char *k;
		if (lhs->b->kind == N_BAD)
			k = lhs->b->lit;
		else {
			k = frametemp(under(mt)->key);
			line("%s = %s;", k, exprto(lhs->b, under(mt)->key));
		}
		const char *v = spill(val, t);
		const char *p = temp(types[T_UNSAFEPTR]);
		pcline();
		callto(p, xprintf("mapassign(g, %s, %s, &%s)", typedesc(mt), m, k));
		afterCall(true);
		store(heapplace(xprintf("(*(%s)%s)", heapptr(under(mt)->elem), p)), v, under(mt)->elem);
		return;
	}
	store(lvplace(lhs), val, t);
}

/* ---------------------------------------------------------------- operators */

static const char *concat(Node *n) {
	/* flatten a + b + c into one concatstrings */
	Vec parts = {0};
	Vec stack = {0};
	vpush(&stack, n);
	while (stack.n) {
		Node *x = stack.v[--stack.n];
		if (x->kind == N_BINARY && x->op == TK_ADD && isstring(x->type) && !x->cv) {
			vpush(&stack, x->b);
			vpush(&stack, x->a);
		} else
			vpush(&parts, x);
	}
	const char *vals[parts.n];
	for (int i = 0; i < parts.n; i++) {
		vals[i] = exprto(parts.v[i], types[T_STRING]);
		bool later = false;
		for (int j = i + 1; j < parts.n; j++)
			if (hascall(parts.v[j]))
				later = true;
		if (later)
			vals[i] = spill(vals[i], types[T_STRING]);
	}
	const char *r = temp(types[T_STRING]);
	if (parts.n == 2) {
		pcline();
		callto(r, xprintf("concatstring2(g, %s, %s)", vals[0], vals[1]));
	} else {
		const char *arr = frametemp(arrayof(types[T_STRING], parts.n));
		for (int i = 0; i < parts.n; i++)
			line("%s.a[%d] = %s;", arr, i, vals[i]);
		pcline();
		callto(r, xprintf("concatstrings(g, %s.a, %d)", arr, parts.n));
	}
	afterCall(false);
	return r;
}

/* a == b for struct and array values compared leaf by leaf, when the
 * leaves are few and need no run-time help (no interfaces); Go does the
 * same instead of calling the type's equal function. */
static int countleaves(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_INTERFACE: return 1000;
	case T_ARRAY: return u->len * countleaves(u->elem);
	case T_STRUCT: {
		int n = 0;
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			if (!f->name || strcmp(f->name, "_"))
				n += countleaves(f->type);
		}
		return n;
	}
	}
	return 1;
}

static void eqleaves(Buf *b, Type *t, const char *x, const char *y) {
	Type *u = under(t);
	switch (u->kind) {
	case T_ARRAY:
		for (int64_t i = 0; i < u->len; i++)
			eqleaves(b, u->elem, xprintf("%s.a[%lld]", x, (long long)i), xprintf("%s.a[%lld]", y, (long long)i));
		return;
	case T_STRUCT:
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			if (f->name && !strcmp(f->name, "_"))
				continue;
			eqleaves(b, f->type, xprintf("%s.%s", x, cfield(f->name)), xprintf("%s.%s", y, cfield(f->name)));
		}
		return;
	case T_STRING:
		bprintf(b, " && eqstring(%s, %s)", x, y);
		return;
	}
	bprintf(b, " && %s == %s", x, y);
}

static const char *inlineeq(Type *t, const char *a, const char *b, int op) {
	if (countleaves(t) > 12)
		return NULL;
	const char *x = spill(a, t), *y = spill(b, t);
	Buf e = {0};
	bput(&e, "(1");
	eqleaves(&e, t, x, y);
	bputc(&e, ')');
	return op == TK_EQL ? bstr(&e) : xprintf("(!%s)", bstr(&e));
}

static const char *compare(int op, const char *a, const char *b, Type *t, bool anil, bool bnil) {
	Type *u = under(t);
	const char *cop = op == TK_EQL ? "==" : op == TK_NEQ ? "!=" : op == TK_LSS ? "<" : op == TK_LEQ ? "<=" : op == TK_GTR ? ">" : ">=";
	if (anil || bnil) {
		const char *x = anil ? b : a;
		if (u->kind == T_SLICE)
			return xprintf("((%s).ptr %s NULL)", x, cop);
		if (u->kind == T_INTERFACE)
			return xprintf("((%s).tab %s NULL)", x, cop);
		return xprintf("((%s) %s NULL)", x, cop);
	}
	switch (u->kind) {
	case T_STRING:
		if (op == TK_EQL)
			return xprintf("eqstring(%s, %s)", a, b);
		if (op == TK_NEQ)
			return xprintf("(!eqstring(%s, %s))", a, b);
		return xprintf("(cmpstring(%s, %s) %s 0)", a, b, cop);
	case T_INTERFACE: {
		completeiface(u);
		const char *r = temp(types[T_BOOL]);
		pcline();
		callto(r, xprintf("%s(g, %s, %s)", u->methods.n ? "ifaceeq" : "efaceeq", a, b));
		afterCall(true);
		return op == TK_EQL ? r : xprintf("(!%s)", r);
	}
	case T_STRUCT:
	case T_ARRAY: {
		const char *inl = inlineeq(t, a, b, op);
		if (inl)
			return inl;
		const char *x = frametemp(t), *y = frametemp(t);
		line("%s = %s;", x, a);
		line("%s = %s;", y, b);
		const char *r = temp(types[T_BOOL]);
		const char *d = typedesc(t);
		pcline();
		line("%s = (%s)->equal(%s, &%s, &%s);", r, d, d, x, y);
		afterCall(true);
		return op == TK_EQL ? r : xprintf("(!%s)", r);
	}
	}
	return xprintf("((%s) %s (%s))", a, cop, b);
}

static int bitsof(Type *t) { return (int)tsize(t) * 8; }

static const char *arith(Node *n, const char *a, const char *b) {
	Type *t = n->type, *u = under(t);
	const char *ct = ctype(t);
	bool sig = isinteger(u) && !isunsigned(u);
	switch (n->op) {
	case TK_ADD: return xprintf("((%s)(%s + %s))", ct, a, b);
	case TK_SUB: return xprintf("((%s)(%s - %s))", ct, a, b);
	case TK_MUL: return xprintf("((%s)(%s * %s))", ct, a, b);
	case TK_AND: return xprintf("((%s)(%s & %s))", ct, a, b);
	case TK_OR: return xprintf("((%s)(%s | %s))", ct, a, b);
	case TK_XOR: return xprintf("((%s)(%s ^ %s))", ct, a, b);
	case TK_AND_NOT: return xprintf("((%s)(%s & ~%s))", ct, a, b);
	case TK_QUO:
	case TK_REM:
		if (isinteger(u)) {
			if (!n->b->cv) {
				b = spill(b, t);
				check(xprintf("%s == 0", b), "gl_panicdivide(g)");
			}
			if (sig)
				return xprintf(n->op == TK_QUO ? "GL_SDIV(%s, %s, %s)" : "GL_SREM(%s, %s, %s)", ct, a, b);
			return xprintf("((%s)(%s %s %s))", ct, a, n->op == TK_QUO ? "/" : "%", b);
		}
		return xprintf("((%s)(%s / %s))", ct, a, b);
	case TK_SHL:
	case TK_SHR: {
		Type *st = n->b->type;
		if (!n->b->cv && !isunsigned(st)) {
			b = spill(b, st);
			check(xprintf("%s < 0", b), "gl_panicshift(g)");
		}
		int bits = bitsof(t);
		if (n->b->cv && ctoint(n->b->cv) < bits) {
			long long s = (long long)ctoint(n->b->cv);
			if (n->op == TK_SHL)
				return xprintf("((%s)((uint64_t)(%s) << %lld))", ct, a, s);
			return xprintf("((%s)(%s >> %lld))", ct, a, s);
		}
		if (n->op == TK_SHL)
			return xprintf("GL_SHL(%s, (uint64_t)(%s), %s, %d)", ct, a, b, bits);
		if (sig)
			return xprintf("GL_SHRS(%s, %s, %s, %d)", ct, a, b, bits);
		return xprintf("GL_SHRU(%s, %s, %s, %d)", ct, a, b, bits);
	}
	}
	return "0";
}

static const char *binary(Node *n) {
	if (n->op == TK_LAND || n->op == TK_LOR) {
		/* the right operand runs only if the left allows it: if computing
		 * it needs statements (a call, a bounds check), they go inside an if */
		const char *a = expr(n->a);
		Buf side = {0}, *saved = out;
		out = &side;
		fn->indent++;
		const char *b = expr(n->b);
		fn->indent--;
		out = saved;
		if (!side.n)
			return xprintf("(%s %s %s)", a, n->op == TK_LAND ? "&&" : "||", b);
		const char *r = temp(types[T_BOOL]);
		line("%s = %s;", r, a);
		line("if (%s%s) {", n->op == TK_LAND ? "" : "!", r);
		bput(out, bstr(&side));
		fn->indent++;
		line("%s = %s;", r, b);
		fn->indent--;
		line("}");
		return r;
	}
	if (n->op == TK_ADD && isstring(n->type))
		return concat(n);
	switch (n->op) {
	case TK_EQL: case TK_NEQ: case TK_LSS: case TK_LEQ: case TK_GTR: case TK_GEQ: {
		Type *at = n->a->type, *bt = n->b->type;
		bool anil = n->a->flags & NF_NIL, bnil = n->b->flags & NF_NIL;
		/* mixed interface and concrete operands compare as interfaces */
		Type *t = at;
		if (anil)
			t = bt;
		else if (!bnil && isinterface(bt) && !isinterface(at))
			t = bt;
		const char *a = anil ? "0" : exprto(n->a, t);
		if (hascall(n->b) && !anil)
			a = spill(a, t);
		const char *b = bnil ? "0" : exprto(n->b, t);
		return compare(n->op, a, b, t, anil, bnil);
	}
	}
	const char *a = exprto(n->a, n->type);
	if (hascall(n->b))
		a = spill(a, n->type);
	Type *bt = (n->op == TK_SHL || n->op == TK_SHR) ? n->b->type : n->type;
	const char *b = exprto(n->b, bt);
	return arith(n, a, b);
}

/* new(T) or &T{...} whose address does not escape (escape.c): a frame
 * member of its own (not a reused temporary: it lives as long as the
 * pointers to it), zeroed at each evaluation. */
static const char *stackalloc(Obj *site, Type *t) {
	static int nalloc;
	if (!site->cname) {
		site->cname = xprintf("alloc%d", ++nalloc);
		const char *decl = xprintf("\t%s %s; /* new(%s) that does not escape, %s:%d */\n", ctype(t), site->cname,
					   typestr(t), fileof(site->pos), site->pos.line);
		if (haspointers(t))
			bput(&fn->frameptr, decl);
		else
			plainmember(site->cname, decl);
		if (haspointers(t)) {
			vpush(&fn->frameslots, (void *)site->cname);
			vpush(&fn->frametypes, t);
		}
	}
	line("memset(&fp->%s, 0, sizeof fp->%s);", site->cname, site->cname);
	return xprintf("(&fp->%s)", site->cname);
}

static const char *unary(Node *n) {
	Type *t = n->type;
	switch (n->op) {
	case TK_AND: {
		Node *x = n->a;
		while (x->kind == N_PAREN)
			x = x->a;
		if (x->kind == N_COMPLIT && n->obj && n->obj->isalloc && !n->obj->escapes) {
			Type *ct = x->type;
			const char *p = stackalloc(n->obj, ct);
			extern void fillcomplit(Node *n, Type *t, Place dst);
			if (under(ct)->kind == T_STRUCT || under(ct)->kind == T_ARRAY)
				fillcomplit(x, ct, stackplace(xprintf("(*%s)", p)));
			else
				store(stackplace(xprintf("*%s", p)), expr(x), ct);
			return p;
		}
		return addrof(n->a);
	}
	case TK_SUB:
		return xprintf("((%s)(-%s))", ctype(t), exprto(n->a, t));
	case TK_ADD:
		return exprto(n->a, t);
	case TK_NOT:
		return xprintf("(!%s)", expr(n->a));
	case TK_XOR:
		return xprintf("((%s)(~%s))", ctype(t), exprto(n->a, t));
	case TK_ARROW: {
		/* v := <-c: the value arrives in a frame slot (the runtime may
		 * write it while this goroutine is parked: it is sudog.elem) */
		Type *ct = n->a->type;
		const char *c = spill(expr(n->a), ct);
		const char *v = frametemp(under(ct)->elem);
		pcline();
		line("chanrecv1(g, %s, &%s);", c, v);
		afterCall(true);
		return v;
	}
	}
	return "0";
}

/* ---------------------------------------------------------------- index, slice */

static const char *index_(Node *n) {
	Type *xt = under(n->a->type);
	if (n->flags & NF_MAPINDEX) {
		Type *mt = n->a->type;
		const char *m = spill(expr(n->a), mt);
		const char *k = frametemp(xt->key);
		line("%s = %s;", k, exprto(n->b, xt->key));
		const char *r = temp(xt->elem);
		pcline();
		/* the element is copied after the call through the pointer: a
		 * C temporary of the element type could make the fixed C frame
		 * larger than the band (stackcheck.c) */
		line("{ const void *r_ = mapaccess1(g, %s, %s, &%s); RELOAD; %s = *(%s const *)r_; }", typedesc(mt), m, k, r,
		     ctype(xt->elem));
		afterCall(true);
		return r;
	}
	if (xt->kind == T_STRING) {
		const char *s = expr(n->a);
		if (!isvar(s) || hascall(n->b))
			s = spill(s, types[T_STRING]);
		const char *i = indexexpr(expr(n->b), n->b);
		i = spill(i, n->b->type);
		if (!inrangeloop(n->a, n->b))
			boundscheck(i, xprintf("%s.len", s));
		return xprintf("%s.ptr[%s]", s, i);
	}
	if (xt->kind == T_ARRAY) {
		/* an array value that is not addressable (a call's result) is in a temp */
		const char *a = (n->a->flags & NF_ADDRESSABLE) ? lvalue(n->a) : spill(expr(n->a), n->a->type);
		if (hascall(n->b))
			a = spill(a, n->a->type);
		const char *i = indexexpr(expr(n->b), n->b);
		if (!n->b->cv) {
			i = spill(i, n->b->type);
			if (!inrangeloop(n->a, n->b))
				boundscheck(i, xprintf("%lld", (long long)xt->len));
		}
		return xprintf("%s.a[%s]", a, i);
	}
	return lvalue(n);
}

static const char *sliceexpr(Node *n) {
	Type *xt = n->a->type, *u = under(xt);
	const char *base, *len, *cap;
	Type *et = NULL;
	bool str = u->kind == T_STRING;
	/* a variable operand is read in place unless an index calls out */
	bool calls = hascall(n->b) || hascall(n->c) || hascall(n->d);
	if (str) {
		base = calls ? spill(expr(n->a), xt) : once(expr(n->a), xt);
		len = cap = xprintf("%s.len", base);
	} else if (u->kind == T_SLICE) {
		base = calls ? spill(expr(n->a), xt) : once(expr(n->a), xt);
		len = xprintf("%s.len", base);
		cap = xprintf("%s.cap", base);
		et = u->elem;
	} else if (u->kind == T_ARRAY) {
		base = temp(ptrto(xt));
		line("%s = %s;", base, addrof(n->a));
		len = cap = xprintf("%lld", (long long)u->len);
		et = u->elem;
	} else {
		Type *a = under(u->elem);
		base = spill(expr(n->a), xt);
		nilchecked(base);
		len = cap = xprintf("%lld", (long long)a->len);
		et = a->elem;
	}
	const char *lo = n->b ? spill(exprto(n->b, types[T_INT]), types[T_INT]) : "0";
	const char *hi = n->c ? spill(exprto(n->c, types[T_INT]), types[T_INT]) : len;
	const char *max = n->d ? spill(exprto(n->d, types[T_INT]), types[T_INT]) : cap;
	if (n->op == 3) {
		check(xprintf("(uint64_t)%s > (uint64_t)%s", max, cap), xprintf("gl_panicslice(g, 0, %s, %s, GL_SLICE_3ALEN)", max, cap));
		check(xprintf("(uint64_t)%s > (uint64_t)%s", hi, max), xprintf("gl_panicslice(g, 0, %s, %s, GL_SLICE_3B)", hi, max));
		check(xprintf("(uint64_t)%s > (uint64_t)%s", lo, hi), xprintf("gl_panicslice(g, %s, %s, 0, GL_SLICE_3C)", lo, hi));
	} else {
		check(xprintf("(uint64_t)%s > (uint64_t)%s", hi, cap),
		      xprintf("gl_panicslice(g, 0, %s, %s, %s)", hi, cap, str ? "GL_SLICE_ALEN" : u->kind == T_SLICE ? "GL_SLICE_ACAP" : "GL_SLICE_ALEN"));
		check(xprintf("(uint64_t)%s > (uint64_t)%s", lo, hi), xprintf("gl_panicslice(g, %s, %s, 0, GL_SLICE_B)", lo, hi));
	}
	/* an empty result keeps the base pointer, never one past the end: it
	 * would point into the next object (and keep it alive) */
	if (str)
		return xprintf("((GlString){(%s) - %s ? %s.ptr + %s : %s.ptr, %s - %s})", hi, lo, base, lo, base, hi, lo);
	const char *ptr = u->kind == T_SLICE ? xprintf("%s.ptr", base) : xprintf("(%svoid *)%s", cq(), base);
	/* so does a slice with no capacity */
	const char *r = temp(sliceof(et));
	line("%s = (GlSlice){(%s) - %s ? (%schar *)%s + %s * %lld : (%schar *)%s, %s - %s, %s - %s};", r, max, lo, cq(), ptr, lo,
	     (long long)tsize(et), cq(), ptr, hi, lo, max, lo);
	if (n->type->kind == T_NAMED)
		return r;
	return r;
}

/* ---------------------------------------------------------------- calls */


static const char *argfor(const char *v, Type *t) {
	if (!bypointer(t))
		return v;
	int k = ckind(v); /* storage outside the C locals: passed by its address */
	if (k == CE_FRAME || k == CE_TEMPFRAME || k == CE_BOXED || k == CE_GLOBAL)
		return xprintf("&%s", v);
	const char *tmp = frametemp(t);
	line("%s = %s;", tmp, v);
	return xprintf("&%s", tmp);
}

typedef struct Callee {
	int kind;           /* 0 static, 1 method, 2 interface, 3 func value */
	const char *fname;  /* static/method: C name */
	const char *recv;   /* method receiver argument / interface value / func value */
	Type *recvtype;
	Type *sig;
	int index;          /* interface method index */
} Callee;

static Callee callee(Node *n, bool laterCalls) {
	Callee c = {0};
	Node *f = n->a;
	while (f->kind == N_PAREN)
		f = f->a;
	c.sig = under(f->type);
	if ((f->kind == N_IDENT || (f->kind == N_SELECTOR && f->op == SEL_PKG)) && f->obj && f->obj->kind == O_FUNC) {
		c.kind = 0;
		c.fname = funcsym(f->obj);
		if (fn->nosplit)
			vpush(&fn->callees, (void *)intern(c.fname));
		return c;
	}
	if (f->kind == N_SELECTOR && f->op == SEL_METHOD) {
		Method *m = f->meth;
		c.kind = 1;
		c.fname = funcsym(m->fn);
		if (fn->nosplit)
			vpush(&fn->callees, (void *)intern(c.fname));
		Type *t;
		const char *base;
		Node *x = f->a;
		if ((f->ival & RECV_ADDR) && f->path.n == 0) {
			base = addrof(x);
			t = ptrto(x->type);
		} else if (f->ival & RECV_ADDR) {
			base = under(x->type)->kind == T_POINTER ? expr(x) : lvalue(x);
			base = xprintf("&%s", navigate(base, x->type, &f->path, &t));
			t = ptrto(t);
		} else {
			base = expr(x);
			base = navigate(base, x->type, &f->path, &t);
			if (f->ival & RECV_DEREF) {
				base = spill(base, t);
				nilchecked(base);
				if (bypointer(under(t)->elem))
					base = xprintf("%s", base); /* already the address the method wants */
				else
					base = xprintf("(*%s)", base);
				t = under(t)->elem;
				if (bypointer(t)) {
					c.recv = xprintf("@%s", base); /* pass the pointer itself */
					c.recvtype = t;
					if (laterCalls)
						c.recv = xprintf("@%s", spill(base, ptrto(t)));
					return c;
				}
			}
		}
		if (laterCalls && !bypointer(t))
			base = spill(base, t);
		c.recv = base;
		c.recvtype = t;
		return c;
	}
	if (f->kind == N_SELECTOR && f->op == SEL_IMETHOD) {
		Node *x = f->a;
		Type *t;
		const char *base = navigate(expr(x), x->type, &f->path, &t);
		if (under(t)->kind == T_POINTER) {
			base = nilchecked(spill(base, t));
			base = xprintf("(*%s)", base);
			t = under(t)->elem;
		}
		base = spill(base, t);
		c.index = imethodindex(t, f->name);
		c.kind = 2;
		c.recv = base;
		c.recvtype = t;
		return c;
	}
	c.kind = 3;
	c.recv = spill(expr(f), f->type);
	return c;
}

/* The arguments of call n, evaluated in order and converted to the
 * parameter types of sig, variadic extras packed into a slice: one C
 * expression per parameter (by-pointer parameters still as values).
 * deferred: the call runs later from a heap record (go, defer), which
 * holds the slice: its array is on the heap too, whatever the callee
 * does with it (in the frame, a stack move would leave the record
 * pointing at the old stack: Go's test/recover.go test8 under
 * GLDEBUG=stackforcemove=1). */
/* Set by call() while it evaluates the arguments of a call of a gl
 * function: an argument may then take a dead local (takearg). */
static bool takeargs;

static void evalargs(Node *n, Type *sig, Vec *args, bool deferred) {
	int np = sig->fields.n;
	bool spread = n->flags & NF_SPREAD;
	bool packing = sig->variadic && !n->op && !spread;
	Vec vals = {0}, vtypes = {0};
	if (spread) {
		Node *a0 = n->list.v[0];
		const char *tv = callexpr(a0);
		for (int i = 0; i < a0->type->fields.n; i++) {
			vpush(&vals, (void *)xprintf("%s.r%d", tv, i));
			vpush(&vtypes, ((Field *)a0->type->fields.v[i])->type);
		}
	} else {
		for (int i = 0; i < n->list.n; i++) {
			Node *a = n->list.v[i];
			Type *pt = i < np ? ((Field *)sig->fields.v[i])->type : NULL;
			if (sig->variadic && i >= np - 1 && !n->op)
				pt = ((Field *)sig->fields.v[np - 1])->type->elem;
			const char *v = exprto(a, pt ? pt : a->type);
			bool later = packing;
			for (int j = i + 1; j < n->list.n; j++)
				if (hascall(n->list.v[j]))
					later = true;
			if (later)
				v = spill(v, pt ? pt : a->type);
			else if (takeargs && !deferred && pt && !(sig->variadic && i >= np - 1))
				v = takearg(a, pt, v);
			vpush(&vals, (void *)v);
			vpush(&vtypes, pt ? pt : a->type);
		}
	}
	for (int i = 0; i < np; i++) {
		Type *pt = ((Field *)sig->fields.v[i])->type;
		if (sig->variadic && i == np - 1 && !n->op) {
			Type *et = pt->elem;
			int extra = vals.n - (np - 1);
			if (extra <= 0) {
				vpush(args, "((GlSlice){0})");
				break;
			}
			const char *s = frametemp(pt);
			Obj *p = calleeparam(n, np - 1, false);
			const char *arr = NULL;
			if (p && !p->valueescapes && !deferred) {
				/* the callee keeps no reference to the slice: its array
				 * can be in this frame, as Go does */
				arr = frametemp(arrayof(et, extra));
				line("%s = (GlSlice){%s.a, %d, %d};", s, arr, extra, extra);
			} else {
				pcline();
				callto(s, xprintf("(GlSlice){gl_newarray(g, %s, %d), %d, %d}", typedesc(et), extra, extra, extra));
				afterCall(false);
			}
			for (int j = 0; j < extra; j++) {
				Place el = arr ? stackplace(xprintf("%s.a[%d]", arr, j))
					       : heapplace(xprintf("((%s)%s.ptr)[%d]", heapptr(et), s, j));
				store(el, conv(vals.v[np - 1 + j], vtypes.v[np - 1 + j], et), et);
			}
			vpush(args, (void *)s);
			break;
		}
		vpush(args, (void *)(i < vals.n ? conv(vals.v[i], vtypes.v[i], pt) : zeroval(pt)));
	}
}

static bool argshavecalls(Node *n, Type *sig) {
	for (int i = 0; i < n->list.n; i++)
		if (hascall(n->list.v[i]))
			return true;
	return sig->variadic && !n->op && !(n->flags & NF_SPREAD);
}

/* The cast that calls a func value or an itab entry of signature sig. */
/* The C type of a function called through a func value (kind 3: it takes
 * the closure) or an itab (kind 2: it takes the receiver as void *). */
const char *fncast(Type *sig, int kind) {
	return xprintf("%s (*)(%s)", cresult(sig), cparams(sig, kind == 3 ? "GlFunc *" : NULL, kind == 2 ? xprintf("%svoid *", cq()) : NULL, 0, 0, false));
}

/* sync/atomic's functions on int32 ... unsafe.Pointer, compiled inline as
 * Go's compiler does (its intrinsics): one locked instruction instead of a
 * call into the runtime (runtime/atomic.c keeps them for func values).
 * Sequentially consistent, as Go's.  Returns the result (or "" for Store),
 * or NULL if f is not one of them. */
static const char *atomicintrinsic(Obj *f, Type *sig, Vec *args, Type *rt) {
	static const char *ops[] = {"CompareAndSwap", "Swap", "Load", "Store", "Add"};
	static const char *kinds[] = {"Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Pointer"};
	if (!f || !f->pkg || strcmp(f->pkg->path, "sync/atomic") || !f->extern_)
		return NULL;
	int op = -1, kind = -1;
	for (int i = 0; i < 5 && op < 0; i++)
		for (int k = 0; k < 6; k++)
			if (!strcmp(f->name, xprintf("%s%s", ops[i], kinds[k])))
				op = i, kind = k;
	if (op < 0)
		return NULL;
	/* The Pointer kinds' stores carry the write barrier (Go's atomicwb):
	 * they stay calls into runtime/atomic.c, where the barrier's test and
	 * the store cannot be split by a preemption signal. */
	if (kind == 5 && op != 2)
		return NULL;
	Type *pt = ((Field *)sig->fields.v[0])->type;
	const char *addr = nilchecked(once((char *)args->v[0], pt));
	/* the address the writing operations write through: a store into the
	 * heap outside store(), so under -d=checkstores it is cast mutable here
	 * (integers only: no barrier is due) */
	const char *waddr = checkstores ? xprintf("((%s *)(uintptr_t)%s)", ctype(under(pt)->elem), addr) : addr;
	const char *r = rt ? temp(rt) : NULL;
	char **a = (char **)args->v;
	switch (op) {
	case 0: /* the expected value goes through memory: a temp of its own */
		line("{ __typeof__(*%s) old_ = %s; %s = __atomic_compare_exchange_n(%s, &old_, %s, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }",
		     waddr, a[1], r, waddr, a[2]);
		break;
	case 1: line("%s = __atomic_exchange_n(%s, %s, __ATOMIC_SEQ_CST);", r, waddr, a[1]); break;
	case 2: line("%s = __atomic_load_n(%s, __ATOMIC_SEQ_CST);", r, addr); break;
	case 3: line("__atomic_store_n(%s, %s, __ATOMIC_SEQ_CST);", waddr, a[1]); break;
	case 4: line("%s = __atomic_add_fetch(%s, %s, __ATOMIC_SEQ_CST);", r, waddr, a[1]); break;
	}
	return r ? r : "";
}

/* The call of an expression statement, whose result no one reads: a
 * result returned in registers is dropped instead of kept in a temporary
 * that would then have to be cleared (tempclear). */
static Node *discarded;

/* Emit a call; returns the C expression of its result (a temp), or NULL. */
static const char *call(Node *n) {
	bool discard = n == discarded;
	Node *f = n->a;
	while (f->kind == N_PAREN)
		f = f->a;
	Type *sig = under(f->type);
	int np = sig->fields.n;
	Callee c = callee(n, argshavecalls(n, sig));
	Vec vargs = {0}, args = {0};
	/* the callee is gl code, which keeps its parameters where the
	 * collector sees them; runtime C that calls back into gl code does
	 * not (sort.Slice's array is then only in its C frame).  A C
	 * function declared //gl:extern is called through glc's wrapper,
	 * whose block of arguments the collector scans for the whole C call
	 * (runtime/ffi.c; testdata/run/ffi_roots) */
	Obj *fo = c.kind == 0 ? f->obj : c.kind == 1 ? ((Method *)f->meth)->fn : NULL;
	bool outer = takeargs; /* an argument's own call comes back here */
	takeargs = fo && (!fo->extern_ || fo->cfunc);
	evalargs(n, sig, &vargs, false);
	takeargs = outer;
	for (int i = 0; i < vargs.n; i++)
		vpush(&args, (void *)argfor(vargs.v[i], ((Field *)sig->fields.v[i])->type));
	(void)np;
	int mode;
	Type *rt = resulttype(sig, &mode);
	if (c.kind == 0 && f->obj && f->obj->kind == O_FUNC) {
		const char *r = atomicintrinsic(f->obj, sig, &args, mode == R_DIRECT ? rt : NULL);
		if (r)
			return *r ? r : NULL;
		const char *in = intrinsicname(f->obj);
		if (in && mode == R_DIRECT) { /* not a call: no safe point, nothing to reload */
			Buf a = {0};
			for (int i = 0; i < args.n; i++)
				bprintf(&a, "%s%s", i ? ", " : "", (char *)args.v[i]);
			r = temp(rt);
			line("%s = %s(%s);", r, in, bstr(&a));
			return r;
		}
		in = intrinsicpair(f->obj);
		if (in && mode == R_DIRECT) {
			Buf a = {0};
			for (int i = 0; i < args.n; i++)
				bprintf(&a, "%s, ", (char *)args.v[i]);
			r = frametemp(rt);
			line("%s.r0 = %s(%s&%s.r1);", r, in, bstr(&a), r);
			return r;
		}
	}
	const char *res = NULL;
	Buf a = {0};
	bput(&a, "g");
	if (c.kind == 3) {
		check(xprintf("!%s", c.recv), "gl_panicnil(g)");
		bprintf(&a, ", %s", c.recv);
	}
	if (mode == R_OUT) {
		res = frametemp(rt);
		bprintf(&a, ", &%s", res);
	} else if (mode == R_DIRECT && !discard)
		res = temp(rt);
	if (c.kind == 1) {
		if (c.recv[0] == '@')
			bprintf(&a, ", %s", c.recv + 1);
		else
			bprintf(&a, ", %s", argfor(c.recv, c.recvtype));
	}
	if (c.kind == 2) {
		check(xprintf("!%s.tab", c.recv), "gl_panicnil(g)");
		bprintf(&a, ", %s.data", c.recv);
	}
	for (int i = 0; i < args.n; i++)
		bprintf(&a, ", %s", (char *)args.v[i]);
	const char *target;
	if (c.kind == 0 || c.kind == 1)
		target = c.fname;
	else if (c.kind == 2)
		target = xprintf("((%s)((const GlItab *)%s.tab)->fun[%d])", fncast(sig, 2), c.recv, c.index);
	else
		target = xprintf("((%s)%s->fn)", fncast(sig, 3), c.recv);
	/* a bare leaf of this package (regleaf.c) is no safe point: it cannot
	 * stop or move the stack, so its call needs only the pc record a
	 * traceback reads, and no frame reload after it */
	bool bare = (c.kind == 0 || c.kind == 1) && bareleafcallee(n);
	if (bare) { /* a register leaf too: gcc may inline it */
		fn->leaf = false; /* the callee's frame runs in the band below this one's check */
		line("GL_PCLINE_INLMARK(%s, %d);", fn->info, fn->line);
	} else
		pcrecord((c.kind == 0 || c.kind == 1) && inlinablecallee(n));
	if (res != NULL && mode == R_DIRECT && !bare)
		callto(res, xprintf("%s(%s)", target, bstr(&a)));
	else if (res != NULL && mode == R_DIRECT)
		line("%s = %s(%s);", res, target, bstr(&a));
	else
		line("%s%s(%s);", mode == R_DIRECT ? "(void)" : "", target, bstr(&a));
	if (bare)
		line("if (GL_UNLIKELY(g->unwinding)) goto unwind;");
	else
		afterCall(true);
	return res;
}

const char *callexpr(Node *n) {
	while (n->kind == N_PAREN)
		n = n->a;
	if (n->flags & NF_CALLEE_BUILTIN)
		return builtin(n);
	if (n->flags & NF_CONVERSION)
		return expr(n);
	return call(n);
}

void emitcall(Node *n, const char **results, int nres) {
	(void)results;
	(void)nres;
	while (n->kind == N_PAREN)
		n = n->a;
	discarded = n;
	callexpr(n);
	discarded = NULL;
}

/* ---------------------------------------------------------------- built-ins */

void emitprint(Node *n) {
	Vec vals = {0};
	if (n->flags & NF_SPREAD) { /* print(f()) with several results */
		Node *c = n->list.v[0];
		const char *tv = callexpr(c);
		Node pr = *n;
		pr.flags &= ~NF_SPREAD;
		memset(&pr.list, 0, sizeof pr.list);
		for (int i = 0; i < c->type->fields.n; i++) {
			Node *a = mknode(N_BAD, c->pos);
			a->type = ((Field *)c->type->fields.v[i])->type;
			a->lit = xprintf("%s.r%d", tv, i);
			vpush(&pr.list, a);
		}
		emitprint(&pr);
		return;
	}
	for (int i = 0; i < n->list.n; i++) {
		Node *a = n->list.v[i];
		const char *v = expr(a);
		bool later = false;
		for (int j = i + 1; j < n->list.n; j++)
			if (hascall(n->list.v[j]))
				later = true;
		if (later || hascall(a))
			v = spill(v, a->type);
		vpush(&vals, (void *)v);
	}
	line("printlock();");
	for (int i = 0; i < n->list.n; i++) {
		Node *a = n->list.v[i];
		const char *v = vals.v[i];
		Type *u = under(a->type);
		if (i && n->ival == B_PRINTLN)
			line("printsp();");
		switch (u->kind) {
		case T_BOOL: line("printbool(%s);", v); break;
		case T_INT: case T_INT8: case T_INT16: case T_INT32: case T_INT64:
			line("printint((int64_t)(%s));", v);
			break;
		case T_UINT: case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINTPTR:
			line("printuint((uint64_t)(%s));", v);
			break;
		case T_FLOAT32: case T_FLOAT64: line("printfloat((double)(%s));", v); break;
		case T_COMPLEX64: case T_COMPLEX128: {
			const char *c = spill(v, a->type);
			line("printcomplex((GlComplex128){__real__ %s, __imag__ %s});", c, c);
			break;
		}
		case T_STRING: line("printstring(%s);", v); break;
		case T_SLICE: line("printslice(%s);", v); break;
		case T_INTERFACE:
			completeiface(u);
			line("%s(%s);", u->methods.n ? "printiface" : "printeface", v);
			break;
		default: line("printpointer((const void *)(%s));", v);
		}
	}
	if (n->ival == B_PRINTLN)
		line("printnl();");
	line("printunlock();");
}

static const char *minmax(Node *n) {
	Type *t = n->type;
	bool isstr = isstring(t), isf = isfloat(t);
	const char *r = temp(t);
	line("%s = %s;", r, spill(exprto(n->list.v[0], t), t));
	for (int i = 1; i < n->list.n; i++) {
		const char *v = spill(exprto(n->list.v[i], t), t);
		bool lt = n->ival == B_MIN;
		if (isstr)
			line("if (cmpstring(%s, %s) %s 0) %s = %s;", v, r, lt ? "<" : ">", r, v);
		else if (isf)
			line("%s = %s(%s, %s);", r, lt ? "gl_fmin" : "gl_fmax", r, v);
		else
			line("if (%s %s %s) %s = %s;", v, lt ? "<" : ">", r, r, v);
	}
	return r;
}

/* append(s, ...): into dst when it is given (x = append(x, ...) grows x in
 * place, as Go does), else into a temporary. */
static const char *append2(Node *n, Place *dst) {
	Type *st = n->type, *et = under(st)->elem;
	Place sp = dst ? *dst : stackplace(frametemp(st));
	const char *s = sp.c;
	Node *first = n->list.v[0];
	if (!dst)
		line("%s = %s;", s, exprto(first, st));
	/* the slice header's len: an int store into where the header is */
	Place len = {xprintf("%s.len", s), sp.where};
	if (n->op) {
		/* append(s, t...) */
		Node *y = n->list.v[1];
		const char *v;
		bool fromstr = isstring(y->type);
		/* growslice runs no gl code: a variable reads the same after it */
		v = once(expr(y), y->type);
		const char *nl = temp(types[T_INT]);
		line("%s = %s.len + %s.len;", nl, s, v);
		line("if ((uint64_t)%s > (uint64_t)%s.cap) {", nl, s);
		fn->indent++;
		pcline();
		line("growslice(g, %s, %s, %s);", mutptr(xprintf("&%s", s)), typedesc(et), nl);
		afterCall(true);
		fn->indent--;
		line("}");
		if (!fromstr && haspointers(et)) /* a typed copy: the write barrier's (mbarrier.c) */
			line("typedslicecopy(%s, %s, %s.len, %s.ptr, %s.len);", typedesc(et),
			     mutptr(xprintf("(%schar *)%s.ptr + %s.len * %lld", cq(), s, s, (long long)tsize(et))), v, v, v);
		else /* no pointers: no barrier */
			line("memmove(%s, %s.ptr, (size_t)%s.len * %lld);",
			     mutptr(xprintf("(%schar *)%s.ptr + %s.len * %lld", cq(), s, s, (long long)tsize(et))), v, v,
			     fromstr ? 1LL : (long long)tsize(et));
		store(len, nl, types[T_INT]);
		return s;
	}
	int k = n->list.n - 1;
	if (k == 0)
		return s;
	const char *vals[k];
	for (int i = 0; i < k; i++) {
		Node *a = n->list.v[i + 1];
		const char *v;
		if (a->kind == N_COMPLIT && !a->a)
			a->type = et;
		v = spill(exprto(a, et), et);
		vals[i] = v;
	}
	line("if ((uint64_t)(%s.len + %d) > (uint64_t)%s.cap) {", s, k, s);
	fn->indent++;
	pcline();
	line("growslice(g, %s, %s, %s.len + %d);", mutptr(xprintf("&%s", s)), typedesc(et), s, k);
	afterCall(true);
	fn->indent--;
	line("}");
	/* The header's pointer and length are read once, into a block's C
	 * locals (no safe point comes before they die), and the length is
	 * written once: an element stored through s.ptr might be s itself as
	 * far as C knows (a byte may alias anything), so gcc would read the
	 * header again after each element, and a length stored with `+=`
	 * right before the header is copied whole makes the copy's 16-byte
	 * load wait for the store to reach the cache. */
	line("{");
	fn->indent++;
	line("%s p_ = (%s)%s.ptr;", heapptr(et), heapptr(et), s);
	line("int64_t n_ = %s.len;", s);
	for (int i = 0; i < k; i++)
		store(heapplace(xprintf("p_[n_ + %d]", i)), vals[i], et);
	/* an int: never a barrier's, but under -d=checkstores still a store into the heap */
	store(len, xprintf("n_ + %d", k), types[T_INT]);
	fn->indent--;
	line("}");
	return s;
}

static const char *builtin(Node *n) {
	Vec *a = &n->list;
	Node *x = a->n ? a->v[0] : NULL;
	if (n->cv)
		return cvalue(n->cv, n->type);
	switch (n->ival) {
	case B_LEN:
	case B_CAP: {
		Type *u = under(x->type);
		if (u->kind == T_POINTER) {
			(void)expr(x);
			return intconst(under(u->elem)->len, types[T_INT]);
		}
		const char *v = expr(x);
		if (u->kind == T_MAP) {
			const char *r = temp(types[T_INT]);
			line("%s = maplen(%s);", r, v);
			return r;
		}
		if (u->kind == T_ARRAY)
			return intconst(u->len, types[T_INT]);
		if (u->kind == T_CHAN) {
			const char *r = temp(types[T_INT]);
			line("%s = %s(%s);", r, n->ival == B_LEN ? "chanlen" : "chancap", v);
			return r;
		}
		return xprintf("(%s).%s", v, n->ival == B_LEN ? "len" : "cap");
	}
	case B_NEW: {
		Type *t = x->type;
		if (n->obj && n->obj->isalloc && !n->obj->escapes)
			return stackalloc(n->obj, t);
		const char *r = temp(n->type);
		pcline();
		callto(r, xprintf("newobject(%s)", typedesc(t)));
		afterCall(false);
		return r;
	}
	case B_MAKE: {
		Type *t = x->type, *u = under(t);
		if (u->kind == T_SLICE) {
			const char *len = exprto(a->v[1], types[T_INT]);
			if (a->n > 2 && hascall(a->v[2]))
				len = spill(len, types[T_INT]);
			const char *cap = a->n > 2 ? exprto(a->v[2], types[T_INT]) : len;
			const char *r = frametemp(t);
			pcline();
			line("makeslice(g, &%s, %s, %s, %s);", r, typedesc(u->elem), len, cap);
			afterCall(true);
			return r;
		}
		if (u->kind == T_MAP) {
			const char *hint = a->n > 1 ? exprto(a->v[1], types[T_INT]) : "0";
			const char *r = temp(t);
			pcline();
			callto(r, xprintf("makemap(g, %s, %s)", typedesc(t), hint));
			afterCall(true);
			return r;
		}
		const char *size = a->n > 1 ? exprto(a->v[1], types[T_INT]) : "0";
		const char *r = temp(t);
		pcline();
		callto(r, xprintf("makechan(g, %s, %s)", typedesc(t), size));
		afterCall(true);
		return r;
	}
	case B_APPEND:
		return append2(n, NULL);
	case B_COPY: {
		Node *d = a->v[0], *s = a->v[1];
		const char *dv = spill(expr(d), d->type);
		const char *sv = spill(expr(s), s->type);
		Type *et = under(d->type)->elem;
		const char *r = temp(types[T_INT]);
		/* elements with pointers: a typed copy, where the write barrier
		 * will be (runtime/mbarrier.c); copy(b, "str") has none */
		if (haspointers(et) && !isstring(s->type))
			line("%s = typedslicecopy(%s, %s, %s.len, %s.ptr, %s.len);", r, typedesc(et), mutptr(xprintf("%s.ptr", dv)), dv, sv, sv);
		else
			line("%s = slicecopy(%s, %s.len, %s.ptr, %s.len, %lld);", r, mutptr(xprintf("%s.ptr", dv)), dv, sv, sv, (long long)tsize(et));
		return r;
	}
	case B_DELETE: {
		Type *mt = x->type;
		const char *m = spill(expr(x), mt);
		const char *k = frametemp(under(mt)->key);
		line("%s = %s;", k, exprto(a->v[1], under(mt)->key));
		pcline();
		line("mapdelete(g, %s, %s, &%s);", typedesc(mt), m, k);
		afterCall(true);
		return NULL;
	}
	case B_CLEAR: {
		Type *u = under(x->type);
		const char *v = spill(expr(x), x->type);
		if (u->kind == T_MAP) {
			pcline();
			line("mapclear(g, %s, %s);", typedesc(x->type), v);
			afterCall(true);
		} else if (haspointers(u->elem)) /* a typed clear (runtime/mbarrier.c) */
			line("typedsliceclear(%s, %s, (uintptr_t)%s.len * %lld);", typedesc(u->elem), mutptr(xprintf("%s.ptr", v)), v,
			     (long long)tsize(u->elem));
		else
			line("memset(%s, 0, (size_t)%s.len * %lld);", mutptr(xprintf("%s.ptr", v)), v, (long long)tsize(u->elem));
		return NULL;
	}
	case B_PANIC: {
		const char *v = exprto(x, t_emptyiface);
		panicstmt(xprintf("gopanic(g, %s)", v));
		return NULL;
	}
	case B_RECOVER: {
		const char *r = temp(t_emptyiface);
		pcline();
		callto(r, "gl_recover(g, GL_RBP())");
		afterCall(false);
		return r;
	}
	case B_PRINT:
	case B_PRINTLN:
		emitprint(n);
		return NULL;
	case B_MIN:
	case B_MAX:
		return minmax(n);
	case B_COMPLEX: {
		const char *re = spill(exprto(a->v[0], under(n->type)->kind == T_COMPLEX64 ? types[T_FLOAT32] : types[T_FLOAT64]),
				       under(n->type)->kind == T_COMPLEX64 ? types[T_FLOAT32] : types[T_FLOAT64]);
		const char *im = exprto(a->v[1], under(n->type)->kind == T_COMPLEX64 ? types[T_FLOAT32] : types[T_FLOAT64]);
		return xprintf("__builtin_complex(%s, %s)", re, im);
	}
	case B_REAL:
		return xprintf("(__real__ (%s))", expr(x));
	case B_IMAG:
		return xprintf("(__imag__ (%s))", expr(x));
	case B_ADD: {
		const char *p = spill(expr(x), x->type);
		return xprintf("((%svoid *)((%schar *)%s + (%s)))", cq(), cq(), p, exprto(a->v[1], types[T_INT]));
	}
	case B_SLICE:
	case B_STRING:
		return unsafeslice(n, n->ival == B_STRING);
	case B_STRINGDATA:
		return xprintf("((%s)%s.ptr)", ctype(n->type), spill(expr(x), x->type));
	case B_SLICEDATA:
		return xprintf("((%s)%s.ptr)", ctype(n->type), spill(expr(x), x->type));
	case B_CLOSE: {
		const char *c = spill(expr(x), x->type);
		pcline();
		line("closechan(g, %s);", c);
		afterCall(true);
		return NULL;
	}
	}
	errorat(n->pos, "internal error: built-in not supported");
	return "0";
}

/* unsafe.Slice(p, len) or unsafe.String(p, len), with Go's panics for a
 * length that is negative, does not fit in int, or makes the memory wrap
 * around the address space (gl_unsafeslicecheck). */
static const char *unsafeslice(Node *n, bool str) {
	Node *x = n->list.v[0], *ln = n->list.v[1];
	const char *p = spill(expr(x), x->type);
	const char *l = spill(expr(ln), ln->type);
	const char *len = temp(types[T_INT]);
	if (isunsigned(ln->type))
		line("%s = (uint64_t)%s > (uint64_t)INT64_MAX ? -1 : (int64_t)%s;", len, l, l);
	else
		line("%s = (int64_t)%s;", len, l);
	const char *what = str ? "unsafe.String" : "unsafe.Slice";
	const char *ok = temp(types[T_INT]);
	line("%s = gl_unsafeslicecheck(%s, %s, %lld);", ok, p, len, (long long)tsize(str ? types[T_UINT8] : under(x->type)->elem));
	check(xprintf("%s == 1", ok), xprintf("gl_panicstring(g, \"runtime error: %s: len out of range\")", what));
	check(xprintf("%s == 2", ok), xprintf("gl_panicstring(g, \"runtime error: %s: ptr is nil and len is not zero\")", what));
	if (str)
		return xprintf("((GlString){(const uint8_t *)%s, %s})", p, len);
	return xprintf("((GlSlice){(%svoid *)%s, %s, %s})", cq(), p, len, len);
}

/* Whether a and b denote the same variable: the same local or global, or
 * the same field path from it (x.f, p.f.g through pointers), with no call
 * or index to evaluate on the way. */
static bool samevar(Node *a, Node *b) {
	while (a->kind == N_PAREN)
		a = a->a;
	while (b->kind == N_PAREN)
		b = b->a;
	if (a->kind != b->kind)
		return false;
	if (a->kind == N_IDENT)
		return a->obj && a->obj == b->obj && a->obj->kind == O_VAR;
	if (a->kind == N_SELECTOR && a->op == SEL_FIELD && b->op == SEL_FIELD) {
		if (a->path.n != b->path.n)
			return false;
		for (int i = 0; i < a->path.n; i++)
			if (a->path.v[i] != b->path.v[i])
				return false;
		return samevar(a->a, b->a);
	}
	return false;
}

/* x = append(x, args) with x a variable or a field path (b.buf through a
 * pointer b) and args free of calls: the append works on x itself, as Go
 * does, instead of on a copy written back (which also costs a
 * store-forwarding stall: the copy's len is written alone, then the slice
 * read back whole).  Returns false if the pattern does not apply. */
bool appendinplace(Node *l, Node *r) {
	while (r->kind == N_PAREN)
		r = r->a;
	if (r->kind != N_CALL || !(r->flags & NF_CALLEE_BUILTIN) || r->ival != B_APPEND || (r->flags & NF_SPREAD))
		return false;
	if (!samevar(l, r->list.v[0]) || !identical(l->type, r->type))
		return false;
	for (int i = 1; i < r->list.n; i++)
		if (hascall(r->list.v[i]))
			return false;
	Place p = lvplace(l);
	append2(r, &p);
	return true;
}

/* ---------------------------------------------------------------- literals */

/* elided literals of these types are filled in place */
static bool isaggregate(Type *t) { return under(t)->kind == T_STRUCT || under(t)->kind == T_ARRAY; }

/* Constant literals as static data.  The constant values of a composite
 * literal (all of them, or most: see templateholes) are written once as a
 * static const C object, a template, copied where the literal is
 * evaluated; the other values are stored after the copy (Go's compiler
 * also keeps such literals in static data).  A table then reads as a
 * table in the C, and gcc gets no run of constant stores: its SLP
 * vectorizer packs each interface value's {type, &constant} pair into a
 * vector register built at the function's entry, spills them all to the
 * C frame, and the frame outgrows the budget of DESIGN.md S3 (Go's
 * float_lit2.go: 1664 bytes). */
enum { STATICMIN = 4 }; /* below this many values, stores read better */

static bool staticvalue(Node *v, Type *t, int *leaves);

static Type *elemtype(Node *n, Type *t, int i);

/* Whether every value of literal n (of type t) is a constant; counts them. */
static bool staticelems(Node *n, Type *t, int *leaves) {
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		if (!staticvalue(e->kind == N_KEYVAL ? e->b : e, elemtype(n, t, i), leaves))
			return false;
	}
	return true;
}

/* The elements of literal n (of type t) that are not constant, the holes
 * of its template, or -1 if too few are constant for a template: fewer
 * than STATICMIN values, or fewer constant elements than holes. */
static int templateholes(Node *n, Type *t) {
	int leaves = 0, holes = 0;
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		int l = 0;
		if (staticvalue(e->kind == N_KEYVAL ? e->b : e, elemtype(n, t, i), &l))
			leaves += l;
		else
			holes++;
	}
	return leaves < STATICMIN || holes > n->list.n - holes ? -1 : holes;
}

/* Whether v, a value of type t inside a literal, is constant: a constant
 * (boxed statically when t is an interface), nil, or a struct or array
 * literal of such values.  A nested slice is not: its backing array would
 * be shared by every evaluation. */
static bool staticvalue(Node *v, Type *t, int *leaves) {
	Type *u = under(t);
	if (v->kind == N_COMPLIT) {
		/* boxed into an interface, the value is a static object too */
		Type *vt = u->kind == T_INTERFACE && v->a ? v->type : t;
		if ((v->flags & NF_IMPLICITADDR) || !isaggregate(vt) || (v->a && !identical(v->type, vt)) ||
		    (vt != t && isdirectiface(vt)))
			return false;
		return staticelems(v, vt, leaves);
	}
	++*leaves;
	if (v->flags & NF_NIL)
		return true;
	if (!v->cv || iscomplex(u))
		return false;
	if (u->kind == T_INTERFACE) {
		Type *from = isuntyped(v->type) ? defaulttype(v->type) : v->type;
		return !iscomplex(under(from));
	}
	return true;
}

/* Whether element value v (of type t) goes into its literal's template. */
static bool isstatic(Node *v, Type *t) {
	int leaves = 0;
	return staticvalue(v, t, &leaves);
}

/* The type of literal n's i-th element (n of type t). */
static Type *elemtype(Node *n, Type *t, int i) {
	Type *u = under(t);
	if (u->kind != T_STRUCT)
		return u->elem;
	Node *e = n->list.v[i];
	return ((Field *)(e->kind == N_KEYVAL ? e->aux : u->fields.v[i]))->type;
}

/* Integer v of type t in a static initializer: a table of small numbers
 * reads as one, so up to nine digits are written bare (the initializer
 * converts to the member's type); longer ones keep their suffix (ll, ull)
 * and so their C type. */
static const char *intinit(i128 v, Type *t) {
	if (isunsigned(t) || under(t)->kind == T_UINTPTR) {
		unsigned long long u = (unsigned long long)(v & (((unsigned __int128)1 << 64) - 1));
		return xprintf(u <= 999999999ull ? "%llu" : "%lluull", u);
	}
	long long n = (long long)v;
	if (n == INT64_MIN)
		return intconst(v, t);
	return xprintf(n >= -999999999ll && n <= 999999999ll ? "%lld" : "%lldll", n);
}

/* The C initializer of constant c of type t (not an interface): a
 * string's bytes without the compound literal around them (a compound
 * literal in a static initializer is a GNU extension), integers as
 * intinit says, other constants as cvalue writes them. */
static const char *cinit(Const *c, Type *t) {
	Type *u = under(t);
	if (c->kind == CK_STRING && u->kind == T_STRING)
		return strinit(c->s, c->slen);
	if (isinteger(u) && (c->kind == CK_INT || c->kind == CK_FLOAT || c->kind == CK_COMPLEX))
		return intinit(ctoint(c), t);
	return cvalue(c, t);
}

static void staticinit(Buf *b, Node *n, Type *t, bool top);

/* The C initializer of constant value v of type t. */
static const char *staticleaf(Node *v, Type *t) {
	if (v->kind == N_COMPLIT && isinterface(t)) {
		static int nbox;
		const char *nm = xprintf("glbox%d", ++nbox);
		bprintf(&gdecls, "static const %s %s = %s;\n", ctype(v->type), nm, staticleaf(v, v->type));
		return xprintf("{%s, (%svoid *)&%s}", ifacetab(v->type, t), cq(), nm);
	}
	if (v->kind == N_COMPLIT) {
		/* a gl array is a C struct with the array as member a */
		bool arr = under(t)->kind == T_ARRAY;
		Buf b = {0};
		bput(&b, arr ? "{.a = {" : "{");
		staticinit(&b, v, t, false);
		bput(&b, arr ? "}}" : "}");
		return bstr(&b);
	}
	if (v->flags & NF_NIL)
		return under(t)->kind == T_SLICE || under(t)->kind == T_INTERFACE ? "{0}" : "0";
	if (isinterface(t)) {
		Type *from = isuntyped(v->type) ? defaulttype(v->type) : v->type;
		return xprintf("{%s, (%svoid *)&%s}", ifacetab(from, t), cq(), constbox(cvalue(v->cv, from), from));
	}
	return cinit(v->cv, t);
}

/* The elements of constant literal n, with C's designators where Go's has
 * keys (then both continue from the key) and for every struct field; one
 * a line at the top. */
static void staticinit(Buf *b, Node *n, Type *t, bool top) {
	Type *u = under(t);
	int start = b->n;
	bool skipped = false;
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		Node *v = e->kind == N_KEYVAL ? e->b : e;
		const char *sep = top ? (b->n > start ? ",\n\t" : "\n\t") : (b->n > start ? ", " : "");
		if (!isstatic(v, elemtype(n, t, i))) { /* a hole: stored after the copy */
			skipped = true;
			continue;
		}
		if (u->kind == T_STRUCT) {
			Field *f = e->kind == N_KEYVAL ? e->aux : u->fields.v[i];
			if (v->flags & NF_NIL) /* zero already */
				continue;
			bput(b, sep);
			bprintf(b, ".%s = %s", e->kind == N_KEYVAL ? cfield(f->name) : cmember(u, i), staticleaf(v, f->type));
			continue;
		}
		bput(b, sep);
		if (e->kind == N_KEYVAL || skipped)
			bprintf(b, "[%lld] = ", (long long)(intptr_t)n->path.v[i]);
		skipped = false;
		bput(b, staticleaf(v, u->elem));
	}
}

/* C type ct made const: "const T", or "T *const" for a pointer (a
 * leading const would be the pointee's). */
static const char *constof(const char *ct) {
	return ct[strlen(ct) - 1] == '*' ? xprintf("%sconst", ct) : xprintf("const %s", ct);
}

/* The name of the static template of literal n of type t, or NULL if n
 * has too few constants to be worth one.  A slice's template is its
 * backing array.  The elements that are not constant are zero in it: the
 * code stores them after the copy, as Go does (constants have no side
 * effects to order). */
static const char *statictemplate(Node *n, Type *t) {
	Type *u = under(t);
	if (n->kind != N_COMPLIT || (n->flags & NF_IMPLICITADDR) || u->kind == T_MAP || templateholes(n, t) < 0)
		return NULL;
	const char *nm = unitname(xprintf("%s__lit", fn->cname));
	Buf b = {0};
	if (u->kind == T_SLICE)
		bprintf(&b, "/* %s:%d */\nstatic %s %s[%lld] = {", fileof(n->pos), n->pos.line, constof(ctype(u->elem)), nm, (long long)n->ival);
	else
		bprintf(&b, "/* %s:%d */\nstatic %s %s = {%s", fileof(n->pos), n->pos.line, constof(ctype(t)), nm, u->kind == T_ARRAY ? ".a = {" : "");
	int open = b.n;
	staticinit(&b, n, t, true);
	bprintf(&b, "%s\n%s};\n", b.n > open ? "," : "", u->kind == T_ARRAY ? "}" : "");
	bput(&gdecls, bstr(&b));
	return nm;
}

void fillcomplit(Node *n, Type *t, Place dst);

/* A field or element of the aggregate at dst. */
static Place member(Place dst, const char *m, long long i) {
	return (Place){m ? xprintf("%s.%s", dst.c, m) : xprintf("%s.a[%lld]", dst.c, i), dst.where};
}

/* Store literal n's elements into dst, all of them or (templated) only
 * those its template leaves out. */
static void fillelems(Node *n, Type *t, Place dst, bool templated) {
	Type *u = under(t);
	switch (u->kind) {
	case T_STRUCT:
		for (int i = 0; i < n->list.n; i++) {
			Node *e = n->list.v[i];
			Field *f;
			Node *v = e;
			if (e->kind == N_KEYVAL) {
				f = e->aux;
				v = e->b;
			} else
				f = u->fields.v[i];
			if (templated && isstatic(v, f->type))
				continue;
			const char *m = e->kind == N_KEYVAL ? cfield(f->name) : cmember(u, i);
			if (v->kind == N_COMPLIT && !v->a && isaggregate(f->type)) {
				fillcomplit(v, f->type, member(dst, m, 0));
				continue;
			}
			const char *val = exprto(v, f->type);
			store(member(dst, m, 0), val, f->type);
		}
		return;
	case T_ARRAY:
		for (int i = 0; i < n->list.n; i++) {
			Node *e = n->list.v[i];
			Node *v = e->kind == N_KEYVAL ? e->b : e;
			if (templated && isstatic(v, u->elem))
				continue;
			Place el = member(dst, NULL, (long long)(intptr_t)n->path.v[i]);
			if (v->kind == N_COMPLIT && !v->a && isaggregate(u->elem)) {
				fillcomplit(v, u->elem, el);
				continue;
			}
			store(el, exprto(v, u->elem), u->elem);
		}
		return;
	}
}

void fillcomplit(Node *n, Type *t, Place dst) {
	const char *s = statictemplate(n, t);
	if (s)
		store(dst, s, t);
	fillelems(n, t, dst, s != NULL);
}

static const char *complit(Node *n) {
	Type *t = n->flags & NF_IMPLICITADDR ? under(n->type)->elem : n->type;
	if (n->flags & NF_IMPLICITADDR) {
		Node tmp = *n;
		(void)tmp;
		return addrof(n);
	}
	Type *u = under(t);
	switch (u->kind) {
	case T_STRUCT:
	case T_ARRAY: {
		const char *r = frametemp(t);
		const char *s = statictemplate(n, t);
		if (s)
			line("%s = %s;", r, s);
		else
			line("memset(&%s, 0, sizeof %s);", r, r);
		fillelems(n, t, stackplace(r), s != NULL);
		return r;
	}
	case T_SLICE: {
		int64_t len = n->ival;
		const char *r = frametemp(t);
		if (!len) {
			line("%s = (GlSlice){newobject(%s), 0, 0};", r, typedesc(arrayof(u->elem, 0)));
			return r;
		}
		pcline();
		callto(r, xprintf("(GlSlice){gl_newarray(g, %s, %lld), %lld, %lld}", typedesc(u->elem), (long long)len, (long long)len, (long long)len));
		afterCall(true);
		const char *s = statictemplate(n, t);
		if (s) /* a fresh array: nothing for a barrier to shade */
			line("memcpy(%s, %s, sizeof %s);", mutptr(xprintf("%s.ptr", r)), s, s);
		for (int i = 0; i < n->list.n; i++) {
			Node *e = n->list.v[i];
			Node *v = e->kind == N_KEYVAL ? e->b : e;
			if (s && isstatic(v, u->elem))
				continue;
			Place dst = heapplace(xprintf("((%s)%s.ptr)[%lld]", heapptr(u->elem), r, (long long)(intptr_t)n->path.v[i]));
			if (v->kind == N_COMPLIT && !v->a && isaggregate(u->elem)) {
				const char *tl = statictemplate(v, u->elem);
				if (tl && isstatic(v, u->elem)) { /* no holes: one copy */
					store(dst, tl, u->elem);
					continue;
				}
				const char *tmp = frametemp(u->elem);
				if (tl)
					line("%s = %s;", tmp, tl);
				else
					line("memset(&%s, 0, sizeof %s);", tmp, tmp);
				fillelems(v, u->elem, stackplace(tmp), tl != NULL);
				store(dst, tmp, u->elem);
				continue;
			}
			const char *val = exprto(v, u->elem);
			store(dst, val, u->elem);
		}
		return r;
	}
	case T_MAP: {
		const char *m = frametemp(t);
		pcline();
		callto(m, xprintf("makemap(g, %s, %d)", typedesc(t), n->list.n));
		afterCall(true);
		for (int i = 0; i < n->list.n; i++) {
			Node *e = n->list.v[i];
			const char *k = frametemp(u->key);
			if (e->a->kind == N_COMPLIT && !e->a->a)
				e->a->type = u->key;
			line("%s = %s;", k, exprto(e->a, u->key));
			if (e->b->kind == N_COMPLIT && !e->b->a && !e->b->type)
				e->b->type = u->elem;
			const char *v = spill(exprto(e->b, u->elem), u->elem);
			const char *p = temp(types[T_UNSAFEPTR]);
			pcline();
			callto(p, xprintf("mapassign(g, %s, %s, &%s)", typedesc(t), m, k));
			afterCall(true);
			store(heapplace(xprintf("(*(%s)%s)", heapptr(u->elem), p)), v, u->elem);
		}
		return m;
	}
	}
	errorat(n->pos, "internal error: composite literal");
	return "0";
}

/* A heap object laid out as a struct of the given types: closures and
 * defer records, with a descriptor for the collector. */
static Type *recordtype(Vec *fts) {
	Type *t = newtype(T_STRUCT);
	for (int i = 0; i < fts->n; i++) {
		Field *f = xalloc(sizeof *f);
		f->name = intern(xprintf("f%d", i));
		f->type = fts->v[i];
		vpush(&t->fields, f);
	}
	layout(t);
	return t;
}

static const char *closure(Node *n) {
	FuncInfo *li = n->aux;
	if (!li->captures.n) {
		const char *nm = xprintf("%s__fv", li->cname);
		/* with the function (gfuncs), as li is a static of its part */
		bprintf(&gfuncs, "static const GlFunc %s = {(void (*)(void))%s};\n", nm, li->cname);
		return staticfunc(nm);
	}
	Vec fts = {0};
	vpush(&fts, types[T_UNSAFEPTR]);
	for (int i = 0; i < li->captures.n; i++)
		vpush(&fts, ptrto(((Obj *)li->captures.v[i])->type));
	Type *rt = recordtype(&fts);
	const char *c = temp(anyfunc());
	pcline();
	callto(c, xprintf("newobject(%s)", typedesc(rt)));
	afterCall(false);
	const char *rec = xprintf("((%sstruct %s__closure *)%s)", cq(), li->cname, c);
	/* the code pointer: not a gl pointer, never a barrier's */
	line("((struct %s__closure *)%s)->fn = (void (*)(void))%s;", li->cname, c, li->cname);
	for (int i = 0; i < li->captures.n; i++) {
		Obj *o = li->captures.v[i];
		store(heapplace(xprintf("%s->%s", rec, o->cname)), xprintf("fp->%s", o->cname), ptrto(o->type));
	}
	return c;
}

/* x.M as a value: a closure binding the receiver (evaluated now). */
static const char *methodvalue(Node *n) {
	Type *sig = under(n->type);
	int mode;
	resulttype(sig, &mode);
	Node *x = n->a;
	Type *recvt;
	const char *recv;
	bool iface = n->op == SEL_IMETHOD;
	Method *m = n->meth;
	if (iface) {
		recv = navigate(expr(x), x->type, &n->path, &recvt);
		recv = spill(recv, recvt);
		check(xprintf("!%s.tab", recv), "gl_panicnil(g)");
	} else if (n->ival & RECV_ADDR) {
		if (n->path.n == 0) {
			recv = addrof(x);
			recvt = ptrto(x->type);
		} else {
			const char *b = under(x->type)->kind == T_POINTER ? expr(x) : lvalue(x);
			Type *t;
			recv = xprintf("&%s", navigate(b, x->type, &n->path, &t));
			recvt = ptrto(t);
		}
	} else {
		recv = navigate(expr(x), x->type, &n->path, &recvt);
		if (n->ival & RECV_DEREF) {
			recv = nilchecked(spill(recv, recvt));
			recv = xprintf("(*%s)", recv);
			recvt = under(recvt)->elem;
		}
	}
	recv = spill(recv, recvt);
	Vec fts = {0};
	vpush(&fts, types[T_UNSAFEPTR]);
	vpush(&fts, recvt);
	Type *ct = recordtype(&fts);
	const char *wname = unitname(xprintf("glmv_%s__%s", fn->cname, gident(n->name)));
	const char *params = cparams(sig, "GlFunc *ctx", NULL, 0, 0, true), *pl = cargs(sig, 0, 0);
	const char *rc = cresult(sig);
	Buf body = {0};
	bprintf(&body, "static %s %s(%s);\n", rc, wname, params);
	bprintf(&body, "/* the method value %s */\nGL_WRAPPER static %s %s(%s) {\n%s\t%s *c = (%s *)ctx;\n", exprstr(n), rc,
		wname, params, wrapperentry(wname), ctype(ct), ctype(ct));
	if (iface) {
		int idx = imethodindex(recvt, n->name);
		bprintf(&body, "\t%s((%s)((const GlItab *)c->f1.tab)->fun[%d])(g%s, c->f1.data%s);\n}\n",
			mode == R_DIRECT ? "return " : "", fncast(sig, 2), idx, mode == R_OUT ? ", out" : "", pl);
	} else {
		const char *r = bypointer(recvt) ? "&c->f1" : "c->f1";
		bprintf(&body, "\t%s%s(g%s, %s%s);\n}\n", mode == R_DIRECT ? "return " : "", funcsym(m->fn),
			mode == R_OUT ? ", out" : "", r, pl);
	}
	int64_t at = helperstart();
	bput(&gdecls, bstr(&body));
	helperend(wname, at, NULL);
	usehelper(wname);
	const char *c = temp(anyfunc());
	pcline();
	callto(c, xprintf("newobject(%s)", typedesc(ct)));
	afterCall(false);
	const char *rec = xprintf("((%s)%s)", heapptr(ct), c);
	storecode(heapplace(xprintf("%s->f0", rec)), wname);
	store(heapplace(xprintf("%s->f1", rec)), recv, recvt);
	return c;
}

/* The method expression wrapper wname of n whose receiver leads to the
 * interface value iv of type it: the call goes through iv's itab. */
static const char *ifacemethodexpr(Node *n, const char *wname, const char *rc, const char *params, int mode,
				   const char *iv, Type *it, const char *pl) {
	Method *m = n->meth;
	resolvemethod(m);
	const char *ret = mode == R_DIRECT ? xprintf("return (%s){0};", rc) : "return;";
	int64_t at = helperstart();
	bprintf(&gdecls, "static %s %s(%s);\n/* the method expression %s */\nGL_WRAPPER static %s %s(%s) {\n%s\t(void)ctx;\n"
		"\tif (!%s.tab) { gl_panicnil(g); %s }\n",
		rc, wname, params, exprstr(n), rc, wname, params, wrapperentry(wname), iv, ret);
	bprintf(&gdecls, "\t%s((%s)((const GlItab *)%s.tab)->fun[%d])(g%s, %s.data%s);\n}\n", mode == R_DIRECT ? "return " : "",
		fncast(m->type, 2), iv, imethodindex(it, m->name), mode == R_OUT ? ", out" : "", iv, pl);
	bprintf(&gdecls, "static const GlFunc %s__fv = {(void (*)(void))%s};\n", wname, wname);
	helperend(wname, at, xprintf("%s__fv", wname));
	usehelper(wname);
	return staticfunc(xprintf("%s__fv", wname));
}

/* T.M or (*T).M: a function whose first parameter is the receiver. */
static const char *methodexpr(Node *n) {
	Method *m = n->meth;
	Type *sig = under(n->type); /* includes the receiver */
	Type *recvt = ((Field *)sig->fields.v[0])->type;
	int mode;
	resulttype(sig, &mode);
	const char *wname = unitname(xprintf("glme_%s__%s", fn->cname, gident(n->name)));
	const char *params = cparams(sig, "GlFunc *ctx", NULL, 0, 0, true), *pl = cargs(sig, 1, 1);
	const char *rc = cresult(sig);
	const char *recv = "p0";
	bool recvptr = under(recvt)->kind == T_POINTER;
	Type *base = recvptr ? under(recvt)->elem : recvt;
	/* navigate embedded fields to the method's receiver */
	Type *cur = recvt;
	const char *e = bypointer(recvt) ? "(*p0)" : "p0";
	for (int i = 0; i < n->path.n; i++) {
		Field *f = n->path.v[i];
		e = xprintf(under(cur)->kind == T_POINTER ? "(%s)->%s" : "%s.%s", e, cfield(f->name));
		cur = f->type;
	}
	(void)base;
	if (under(cur)->kind == T_INTERFACE) /* I.M, or a method promoted from an embedded interface */
		return ifacemethodexpr(n, wname, rc, params, mode, e, cur, pl);
	bool curptr = under(cur)->kind == T_POINTER;
	if (m->ptrrecv)
		recv = curptr ? e : xprintf("&%s", e);
	else if (curptr)
		recv = bypointer(under(cur)->elem) ? e : xprintf("(*%s)", e);
	else
		recv = bypointer(cur) ? xprintf("&%s", e) : e;
	const char *call = xprintf("%s%s(g%s, %s%s);", mode == R_DIRECT ? "return " : "", funcsym(m->fn),
		mode == R_OUT ? ", out" : "", recv, pl);
	int64_t at = helperstart();
	bprintf(&gdecls, "static %s %s(%s);\n/* the method expression %s */\nGL_WRAPPER static %s %s(%s) {\n%s\t(void)ctx;\n\t%s\n}\n",
		rc, wname, params, exprstr(n), rc, wname, params, wrapperentry(wname), call);
	bprintf(&gdecls, "static const GlFunc %s__fv = {(void (*)(void))%s};\n", wname, wname);
	helperend(wname, at, xprintf("%s__fv", wname));
	usehelper(wname);
	return staticfunc(xprintf("%s__fv", wname));
}

/* print or println of a defer or go thunk's saved arguments, into body:
 * the thunk is a C function of its own, so the temporaries emitprint makes
 * (a complex value is copied once) are its C locals, not the enclosing
 * function's.  It has no data frame: the operands are the record's
 * members, which need no frame temporaries. */
static void thunkprint(Node *pr, Buf *body) {
	Fn tf = {0}, *savedfn = fn;
	Buf *saved = out, stmts = {0};
	tf.fi = fn->fi;
	tf.cname = fn->cname;
	tf.indent = 1;
	fn = &tf;
	out = &stmts;
	emitprint(pr);
	if (tf.frame.n || tf.frameptr.n)
		fatal("internal error: a thunk's print needs the data frame");
	bput(body, bstr(&tf.decls));
	bput(body, bstr(&stmts));
	fn = savedfn;
	out = saved;
}

/* ---------------------------------------------------------------- assertions */

static const char *extract(const char *v, Type *t) {
	if (isdirectiface(t))
		return xprintf(checkstores ? "(*(%s *)(uintptr_t)&%s.data)" : "(*(%s *)&%s.data)", ctype(t), v);
	return xprintf("(*(%s)%s.data)", heapptr(t), v);
}

static const char *dyntype(const char *v, Type *it) {
	Type *u = under(it);
	completeiface(u);
	return u->methods.n ? xprintf("gl_ifacetype(%s)", v) : xprintf("((const GlType *)%s.tab)", v);
}

static const char *assertion(Node *n) {
	Node *x = n->a;
	Type *t = n->type;
	const char *v = spill(expr(x), x->type);
	const char *dyn = spill(dyntype(v, x->type), types[T_UNSAFEPTR]);
	if (!isinterface(t)) {
		check(xprintf("%s != %s", dyn, typedesc(t)), xprintf("gl_panicassert(g, %s, %s, %s)", dyn, typedesc(t), typedesc(x->type)));
		return spill(extract(v, t), t);
	}
	Type *tu = under(t);
	completeiface(tu);
	if (!tu->methods.n) {
		check(xprintf("!%s", dyn), xprintf("gl_panicassert(g, %s, %s, %s)", dyn, typedesc(t), typedesc(x->type)));
		return xprintf("((GlIface){%s, %s.data})", dyn, v);
	}
	const char *tab = temp(types[T_UNSAFEPTR]);
	line("%s = %s ? (const void *)getitab(%s, %s, true) : 0;", tab, dyn, typedesc(t), dyn);
	check(xprintf("!%s", tab), xprintf("gl_panicassert(g, %s, %s, %s)", dyn, typedesc(t), typedesc(x->type)));
	return xprintf("((GlIface){%s, %s.data})", tab, v);
}

/* v, ok := m[k] / x.(T) */
void commaok(Node *r, const char **v, Type *want) {
	if (r->kind == N_INDEX) {
		Type *mt = r->a->type, *u = under(mt);
		const char *m = spill(expr(r->a), mt);
		const char *k = frametemp(u->key);
		line("%s = %s;", k, exprto(r->b, u->key));
		const char *p = temp(types[T_UNSAFEPTR]);
		pcline();
		callto(p, xprintf("mapaccess2(g, %s, %s, &%s)", typedesc(mt), m, k));
		afterCall(true);
		const char *val = temp(u->elem);
		line("%s = %s ? *(%s)%s : %s;", val, p, heapptr(u->elem), p, zeroval(u->elem));
		v[0] = conv(val, u->elem, want);
		v[1] = spill(xprintf("(%s != NULL)", p), types[T_BOOL]);
		return;
	}
	if (r->kind == N_TYPEASSERT) {
		Node *x = r->a;
		Type *t = r->type;
		const char *xv = spill(expr(x), x->type);
		const char *dyn = spill(dyntype(xv, x->type), types[T_UNSAFEPTR]);
		const char *ok = temp(types[T_BOOL]);
		const char *val = temp(t);
		if (!isinterface(t)) {
			line("%s = %s == %s;", ok, dyn, typedesc(t));
			line("%s = %s ? %s : %s;", val, ok, extract(xv, t), zeroval(t));
		} else {
			Type *tu = under(t);
			completeiface(tu);
			if (!tu->methods.n) {
				line("%s = %s != 0;", ok, dyn);
				line("%s = (GlIface){%s, %s.data};", val, dyn, xv);
			} else {
				const char *tab = temp(types[T_UNSAFEPTR]);
				line("%s = %s ? (const void *)getitab(%s, %s, true) : 0;", tab, dyn, typedesc(t), dyn);
				line("%s = %s != 0;", ok, tab);
				line("%s = %s ? (GlIface){%s, %s.data} : (GlIface){0};", val, ok, tab, xv);
			}
		}
		v[0] = conv(val, t, want);
		v[1] = ok;
		return;
	}
	/* v, ok := <-c */
	Type *ct = r->a->type;
	const char *c = spill(expr(r->a), ct);
	const char *val = frametemp(under(ct)->elem);
	const char *ok = temp(types[T_BOOL]);
	pcline();
	callto(ok, xprintf("chanrecv2(g, %s, &%s)", c, val));
	afterCall(true);
	v[0] = conv(val, under(ct)->elem, want);
	v[1] = ok;
}

/* ---------------------------------------------------------------- dispatch */

const char *expr(Node *n) {
	/* the checker gives every value a type: a node without one is a hole
	 * in the checker, said here with its position rather than found as a
	 * crash further on */
	if (!n->type && n->kind != N_BAD && !(n->flags & NF_NOVALUE)) {
		errorat(n->pos, "internal error: an expression without a type reached the emitter (node kind %d)", n->kind);
		return "0";
	}
	if (n->cv && n->type && !isinterface(n->type)) {
		const char *c = cvalue(n->cv, n->type);
		if (c)
			return c;
	}
	switch (n->kind) {
	case N_BAD:
		return n->lit;
	case N_PAREN:
		return expr(n->a);
	case N_IDENT: {
		Obj *o = n->obj;
		if (!o)
			return "0";
		switch (o->kind) {
		case O_VAR: return varref(o);
		case O_FUNC: return fvsym(o);
		case O_NIL: return zeroval(n->type);
		case O_CONST: return cvalue(o->cv, n->type);
		}
		break;
	}
	case N_SELECTOR:
		switch (n->op) {
		case SEL_PKG:
			if (n->obj->kind == O_VAR)
				return varref(n->obj);
			if (n->obj->kind == O_FUNC)
				return fvsym(n->obj);
			return cvalue(n->obj->cv, n->type);
		case SEL_FIELD: {
			Node *x = n->a;
			const char *base;
			if (under(x->type)->kind == T_POINTER)
				base = once(expr(x), x->type);
			else if (x->flags & NF_ADDRESSABLE)
				base = lvalue(x);
			else
				base = spill(expr(x), x->type);
			return navigatex(x, base, x->type, &n->path, NULL);
		}
		case SEL_METHOD:
		case SEL_IMETHOD:
			return methodvalue(n);
		case SEL_METHODEXPR:
			return methodexpr(n);
		}
		break;
	case N_INDEX:
		return index_(n);
	case N_SLICEEXPR:
		return sliceexpr(n);
	case N_STAR: {
		const char *p = once(expr(n->a), n->a->type);
		nilcheckedvar(n->a, p);
		return derefptr(p, n->a->type);
	}
	case N_UNARY:
		return unary(n);
	case N_BINARY:
		return binary(n);
	case N_CALL:
		if (n->flags & NF_CONVERSION) {
			Node *a = n->list.v[0];
			return conv(expr(a), a->type, n->type);
		}
		{
			const char *r = callexpr(n);
			return r ? r : "0";
		}
	case N_COMPLIT:
		return complit(n);
	case N_FUNCLIT:
		return closure(n);
	case N_TYPEASSERT:
		return assertion(n);
	}
	errorat(n->pos, "internal error: cannot compile this expression");
	return "0";
}

/* ---------------------------------------------------------------- defer */

/* defer f(args) and go f(args): f, its receiver and its arguments are
 * evaluated now and saved in a heap record whose first word is a thunk that
 * makes the call later: when the frame returns or panics (the thunks of
 * defer are in section gldefer, so recover() can see through them), or on
 * the new goroutine.  A func literal with no arguments is used as it is. */
static void deferorgo(Node *n, bool isgo);
void emitdefer(Node *n) { deferorgo(n, false); }
void emitgo(Node *n) { deferorgo(n, true); }

static void deferorgo(Node *n, bool isgo) {
	static int nthunk;
	Node *c = n->a;
	while (c->kind == N_PAREN)
		c = c->a;
	Node *f = c->a;
	while (f->kind == N_PAREN)
		f = f->a;
	if (f->kind == N_FUNCLIT && !c->list.n) {
		const char *clo = expr(f);
		pcline();
		if (isgo)
			line("gl_go(g, %s);", clo);
		else
			line("gl_deferproc(g, &fp->h, %s);", clo);
		afterCall(false);
		return;
	}
	Vec fts = {0}, vals = {0};
	vpush(&fts, types[T_UNSAFEPTR]);
	Buf body = {0};
	const char *name = xprintf(isgo ? "glgo%d" : "gldefer%d", ++nthunk);
	int kind = -1;
	Type *sig = NULL;
	Callee cal = {0};
	if (c->flags & NF_CALLEE_BUILTIN) {
		switch (c->ival) {
		case B_RECOVER:
			if (isgo)
				return; /* a new goroutine has no panic to recover */
			/* F's own recover, made as F returns: the thunk needs F's caller */
			vpush(&fts, types[T_UINTPTR]);
			vpush(&vals, "gl_recoverframe(g, GL_RBP())");
			break;
		case B_PRINT:
		case B_PRINTLN:
		case B_PANIC:
		case B_DELETE:
		case B_CLOSE:
			for (int i = 0; i < c->list.n; i++) {
				Node *a = c->list.v[i];
				Type *t = c->ival == B_PANIC ? t_emptyiface : c->ival == B_DELETE && i == 1 ? under(((Node *)c->list.v[0])->type)->key : a->type;
				vpush(&fts, t);
				const char *v = exprto(a, t);
				bool later = false;
				for (int j = i + 1; j < c->list.n; j++)
					if (hascall(c->list.v[j]))
						later = true;
				vpush(&vals, (void *)(later ? spill(v, t) : v));
			}
			break;
		default:
			errorat(c->pos, "defer of this built-in is not supported yet");
			return;
		}
	} else {
		sig = under(f->type);
		cal = callee(c, true);
		kind = cal.kind;
		if (kind == 1 || kind == 2) {
			Type *rt = cal.recv[0] == '@' ? ptrto(cal.recvtype) : cal.recvtype;
			vpush(&fts, rt);
			vpush(&vals, (void *)(cal.recv[0] == '@' ? cal.recv + 1 : cal.recv));
		} else if (kind == 3) {
			vpush(&fts, anyfunc());
			vpush(&vals, (void *)cal.recv);
		}
		Vec args = {0};
		evalargs(c, sig, &args, true);
		for (int i = 0; i < args.n; i++) {
			Type *pt = ((Field *)sig->fields.v[i])->type;
			vpush(&fts, pt);
			vpush(&vals, (void *)spill(args.v[i], pt));
		}
		int mode;
		Type *rt = resulttype(sig, &mode);
		if (mode == R_OUT)
			vpush(&fts, rt);
	}
	Type *rec = recordtype(&fts);
	const char *rc = ctype(rec);
	/* the thunk */
	bprintf(&body, "/* %s %s (%s:%d) */\n%s static void %s(G *g, GlFunc *ctx) {\n%s\t%s *d = (%s *)ctx;\n",
		isgo ? "go" : "defer", exprstr(c), fn->file ? fn->file : "?", fn->line, isgo ? "GL_WRAPPER" : "GL_DEFERTHUNK",
		name, wrapperentry(name), rc, rc);
	if (c->flags & NF_CALLEE_BUILTIN) {
		if (c->ival == B_CLOSE)
			bprintf(&body, "\tclosechan(g, d->f1);\n");
		else if (c->ival == B_PANIC)
			bprintf(&body, "\tgopanic(g, d->f1);\n");
		else if (c->ival == B_RECOVER)
			bprintf(&body, "\tgl_deferredrecover(g, d->f1);\n");
		else if (c->ival == B_DELETE)
			bprintf(&body, "\tmapdelete(g, %s, d->f1, &d->f2);\n", typedesc(((Node *)c->list.v[0])->type));
		else {
			/* print: reuse emitprint through synthetic operands; print(g())
			 * saved g's results as one record member, spread here */
			Node pr = *c;
			pr.flags &= ~NF_SPREAD;
			memset(&pr.list, 0, sizeof pr.list);
			Type *tup = c->flags & NF_SPREAD ? ((Node *)c->list.v[0])->type : NULL;
			int nops = tup ? tup->fields.n : c->list.n;
			for (int i = 0; i < nops; i++) {
				Node *a = mknode(N_BAD, c->pos);
				a->type = tup ? ((Field *)tup->fields.v[i])->type : ((Node *)c->list.v[i])->type;
				a->lit = tup ? xprintf("d->f1.r%d", i) : xprintf("d->f%d", i + 1);
				vpush(&pr.list, a);
			}
			thunkprint(&pr, &body);
		}
	} else {
		int mode;
		Type *rt = resulttype(sig, &mode);
		int k = 1;
		Buf a = {0};
		bput(&a, "g");
		const char *target = cal.fname;
		if (kind == 3) {
			bprintf(&body, "\tif (!d->f1) { gl_panicnil(g); return; }\n");
			bprintf(&a, ", d->f1");
			target = xprintf("((%s)d->f1->fn)", fncast(sig, 3));
			k = 2;
		}
		if (mode == R_OUT)
			bprintf(&a, ", &d->f%d", fts.n - 1);
		if (kind == 1) {
			Type *rt1 = ((Field *)rec->fields.v[1])->type;
			bprintf(&a, cal.recv[0] == '@' ? ", d->f1" : bypointer(rt1) ? ", &d->f1" : ", d->f1");
			k = 2;
		} else if (kind == 2) {
			bprintf(&body, "\tif (!d->f1.tab) { gl_panicnil(g); return; }\n");
			bprintf(&a, ", d->f1.data");
			target = xprintf("((%s)((const GlItab *)d->f1.tab)->fun[%d])", fncast(sig, 2), cal.index);
			k = 2;
		}
		for (int i = 0; i < sig->fields.n; i++, k++) {
			Type *pt = ((Field *)sig->fields.v[i])->type;
			bprintf(&a, bypointer(pt) ? ", &d->f%d" : ", d->f%d", k);
		}
		(void)rt;
		bprintf(&body, "\t%s(%s);\n", target, bstr(&a));
	}
	bprintf(&body, "}\n");
	int64_t at = helperstart();
	bput(&gdecls, bstr(&body));
	helperend(name, at, NULL);
	usehelper(name);
	/* the record, filled now */
	const char *d = temp(ptrto(rec));
	pcline();
	callto(d, xprintf("newobject(%s)", typedesc(rec)));
	afterCall(false);
	Vec *fs = &under(rec)->fields;
	storecode(heapplace(xprintf("%s->f0", d)), name);
	for (int i = 0; i < vals.n; i++)
		store(heapplace(xprintf("%s->f%d", d, i + 1)), vals.v[i], ((Field *)fs->v[i + 1])->type);
	pcline();
	if (isgo)
		line("gl_go(g, (GlFunc *)%s);", mutptr(d));
	else
		line("gl_deferproc(g, &fp->h, (GlFunc *)%s);", mutptr(d));
	afterCall(false);
}

void emitexprforget(void) {
	memset(&ckinds, 0, sizeof ckinds);
	anyfunct = NULL;
	discarded = NULL;
	takeargs = false;
}
