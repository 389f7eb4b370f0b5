/* builtin.c — type checking of calls of the built-in functions (len, cap,
 * new, make, append, copy, delete, clear, close, panic, recover, print,
 * println, min, max, complex, real, imag) and of package unsafe's (Sizeof,
 * Alignof, Offsetof, Add, Slice, String, StringData, SliceData): one
 * function each, and checkbuiltin, which expr.c's checkcall calls for them.
 * Messages follow types2's wording, as the rest of the checker's.
 */
#include <string.h>

#include "check.h"
#include "parse.h"

/* Whether the call n of the built-in name has from min to max arguments
 * (max < 0: no bound); if not, says so in Go's words. */
static bool nargs(Node *n, int min, int max, const char *name) {
	int k = n->list.n;
	if (k < min) {
		errorat(n->pos, "not enough arguments for %s() (expected %d, found %d)", name, min, k);
		return false;
	}
	if (max >= 0 && k > max) {
		errorat(((Node *)n->list.v[max])->pos, "too many arguments for %s() (expected %d, found %d)", name, max, k);
		return false;
	}
	return true;
}

static Type *unsafeslice(Node *n, int b, const char *name);

/* The built-in len and cap (checkbuiltin). */
static Type *checklen(Node *n, int b, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	Type *u = under(t);
	if (u->kind == T_POINTER && under(u->elem)->kind == T_ARRAY)
		u = under(u->elem);
	bool ok = u->kind == T_ARRAY || u->kind == T_SLICE || u->kind == T_CHAN ||
		  (b == B_LEN && (u->kind == T_STRING || u->kind == T_UNTYPED_STRING || u->kind == T_MAP));
	if (!ok) {
		errorat(x->pos, "invalid argument: %s for built-in %s", opdesc(x), name);
		return fail(n);
	}
	if (u->kind == T_STRING || u->kind == T_UNTYPED_STRING) {
		if (x->cv)
			n->cv = cint(x->cv->slen);
		if (isuntyped(t))
			convertuntyped(x, types[T_STRING]);
	} else if (u->kind == T_ARRAY && !(x->flags & NF_HASCALL))
		n->cv = cint(u->len);
	n->type = types[T_INT];
	return n->type;
}

/* The built-in new (checkbuiltin). */
static Type *checknew(Node *n, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = typexpr(x);
	if (bad(t))
		return fail(n);
	n->type = ptrto(t);
	n->flags |= NF_HASCALL;
	return n->type;
}

/* The built-in make (checkbuiltin). */
static Type *checkmake(Node *n, const char *name) {
	Vec *a = &n->list;
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 3, name))
		return fail(n);
	Type *t = typexpr(x);
	if (bad(t))
		return fail(n);
	Type *u = under(t);
	int min = u->kind == T_SLICE ? 2 : 1, max = u->kind == T_SLICE ? 3 : 2;
	if (u->kind != T_SLICE && u->kind != T_MAP && u->kind != T_CHAN) {
		errorat(x->pos, "invalid argument: cannot make %s; type must be slice, map, or channel", exprstr(x));
		return fail(n);
	}
	if (a->n < min) {
		errorat(n->pos, "invalid operation: %s expects %d or %d arguments; found %d", exprstr(n), min, max, a->n);
		return fail(n);
	}
	if (a->n > max) {
		errorat(n->pos, "invalid operation: %s expects %d or %d arguments; found %d", exprstr(n), min, max, a->n);
		return fail(n);
	}
	int64_t v[2] = {-1, -1};
	for (int i = 1; i < a->n; i++) {
		v[i - 1] = checkindexval(a->v[i], i == 1 ? "index" : "index", -1);
		if (v[i - 1] == -2)
			return fail(n);
	}
	if (v[0] >= 0 && v[1] >= 0 && v[0] > v[1]) {
		errorat(((Node *)a->v[1])->pos, "invalid argument: length and capacity swapped");
		return fail(n);
	}
	n->type = t;
	n->flags |= NF_HASCALL;
	return t;
}

/* The built-in append (checkbuiltin). */
static Type *checkappend(Node *n, const char *name) {
	Vec *a = &n->list;
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, -1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	if (x->flags & NF_NIL) {
		errorat(x->pos, "first argument to append must be a typed slice; found untyped nil");
		return fail(n);
	}
	Type *u = under(t);
	if (u->kind != T_SLICE) {
		errorat(x->pos, "invalid argument: first argument to append must be a slice; have %s", opdesc(x));
		return fail(n);
	}
	n->type = t;
	n->flags |= NF_HASCALL;
	if (n->op) {
		if (a->n != 2) {
			errorat(n->pos, "can only use ... with final argument in list");
			return fail(n);
		}
		Node *y = a->v[1];
		Type *yt = rvalue(y);
		if (bad(yt))
			return t;
		if (under(u->elem)->kind == T_UINT8 && isstring(yt)) {
			if (isuntyped(yt))
				convertuntyped(y, types[T_STRING]);
			return t;
		}
		assignop(y, sliceof(u->elem), "append");
		return t;
	}
	for (int i = 1; i < a->n; i++) {
		Node *y = a->v[i];
		if (y->kind == N_COMPLIT && !y->a)
			checkcomplit(y, u->elem);
		else if (!bad(rvalue(y)))
			assignop(y, u->elem, xprintf("argument to %s", name));
	}
	return t;
}

/* The built-in copy (checkbuiltin). */
static Type *checkcopy(Node *n, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 2, 2, name))
		return fail(n);
	Type *d = rvalue(a->v[0]), *s = rvalue(a->v[1]);
	if (bad(d) || bad(s))
		return fail(n);
	Type *du = under(d), *su = under(s);
	if (du->kind != T_SLICE) {
		errorat(n->pos, "invalid argument: copy expects slice arguments; found %s and %s", opdesc(a->v[0]), opdesc(a->v[1]));
		return fail(n);
	}
	if (isstring(su) && under(du->elem)->kind == T_UINT8) {
		if (isuntyped(s))
			convertuntyped(a->v[1], types[T_STRING]);
	} else if (su->kind != T_SLICE) {
		errorat(n->pos, "invalid argument: copy expects slice arguments; found %s and %s", opdesc(a->v[0]), opdesc(a->v[1]));
		return fail(n);
	} else if (!identical(du->elem, su->elem)) {
		errorat(n->pos, "invalid argument: arguments to copy %s and %s have different element types %s and %s",
			opdesc(a->v[0]), opdesc(a->v[1]), ts(du->elem), ts(su->elem));
		return fail(n);
	}
	n->type = types[T_INT];
	n->flags |= NF_HASCALL;
	return n->type;
}

/* The built-in delete (checkbuiltin). */
static Type *checkdelete(Node *n, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 2, 2, name))
		return fail(n);
	Type *m = rvalue(a->v[0]);
	if (bad(m))
		return fail(n);
	if (under(m)->kind != T_MAP) {
		errorat(((Node *)a->v[0])->pos, "invalid argument: %s is not a map", opdesc(a->v[0]));
		return fail(n);
	}
	if (!bad(rvalue(a->v[1])))
		assignop(a->v[1], under(m)->key, "argument to delete");
	n->flags |= NF_NOVALUE | NF_HASCALL;
	n->type = NULL;
	return NULL;
}

/* The built-in clear (checkbuiltin). */
static Type *checkclear(Node *n, const char *name) {
	Vec *a = &n->list;
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *m = rvalue(x);
	if (bad(m))
		return fail(n);
	if (under(m)->kind != T_MAP && under(m)->kind != T_SLICE) {
		errorat(x->pos, "invalid argument: %s must be a map or slice", opdesc(x));
		return fail(n);
	}
	n->flags |= NF_NOVALUE | NF_HASCALL;
	return NULL;
}

/* The built-in close (checkbuiltin). */
static Type *checkclose(Node *n, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *c = rvalue(x);
	if (bad(c))
		return fail(n);
	if (under(c)->kind != T_CHAN) {
		errorat(x->pos, "invalid operation: cannot close non-channel %s", opdesc(x));
		return fail(n);
	}
	if (under(c)->len == 1) {
		errorat(x->pos, "invalid operation: cannot close receive-only channel %s", opdesc(x));
		return fail(n);
	}
	n->flags |= NF_NOVALUE | NF_HASCALL;
	return NULL;
}

/* The built-in panic (checkbuiltin). */
static Type *checkpanic(Node *n, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	if (!bad(rvalue(x)))
		assignop(x, t_emptyiface, "argument to panic");
	n->flags |= NF_NOVALUE | NF_HASCALL;
	return NULL;
}

/* The built-in recover (checkbuiltin). */
static Type *checkrecover(Node *n, const char *name) {
	if (!nargs(n, 0, 0, name))
		return fail(n);
	if (curfn)
		curfn->hasrecover = true;
	n->type = t_emptyiface;
	n->flags |= NF_HASCALL;
	return n->type;
}

/* print and println take what the runtime can print: no struct or array
 * (Go's compiler says so at the call, whichever of the two it is). */
static bool printable(Node *call, Type *t) {
	int k = under(t)->kind;
	if (k != T_STRUCT && k != T_ARRAY)
		return true;
	errorat(call->pos, "illegal types for operand: print\n\t%s", ts(t));
	return false;
}

/* The built-in print and println (checkbuiltin). */
static Type *checkprint(Node *n, const char *name) {
	Vec *a = &n->list;
	if (a->n == 1 && ((Node *)a->v[0])->kind == N_CALL) {
		Type *t = checkexpr(a->v[0]);
		if (t && t->kind == T_TUPLE) {
			for (int i = 0; i < t->fields.n; i++)
				if (!printable(n, ((Field *)t->fields.v[i])->type))
					break;
			n->flags |= NF_SPREAD;
			n->flags |= NF_NOVALUE | NF_HASCALL;
			return NULL;
		}
	}
	for (int i = 0; i < a->n; i++) {
		Node *y = a->v[i];
		Type *t = rvalue(y);
		if (bad(t))
			continue;
		if (y->flags & NF_NIL) {
			errorat(y->pos, "use of untyped nil in argument to built-in %s", name);
			continue;
		}
		defaultuntyped(y);
		printable(n, y->type);
	}
	n->flags |= NF_NOVALUE | NF_HASCALL;
	return NULL;
}

/* The built-in min and max (checkbuiltin). */
static Type *checkminmax(Node *n, int b, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 1, -1, name))
		return fail(n);
	Type *t = NULL;
	bool allconst = true;
	for (int i = 0; i < a->n; i++) {
		Node *y = a->v[i];
		Type *yt = rvalue(y);
		if (bad(yt))
			return fail(n);
		if (!ordered(yt)) {
			errorat(y->pos, "invalid argument: %s cannot be ordered", opdesc(y));
			return fail(n);
		}
		if (!y->cv)
			allconst = false;
		if (!isuntyped(yt)) {
			if (t && !identical(t, yt)) {
				errorat(y->pos, "invalid argument: mismatched types %s (previous argument) and %s (type of %s)", ts(t),
					ts(yt), exprstr(y));
				return fail(n);
			}
			t = yt;
		}
	}
	if (t) {
		for (int i = 0; i < a->n; i++)
			if (!convertuntyped2(a->v[i], t, NULL))
				return fail(n);
	}
	if (allconst) {
		Node *best = a->v[0];
		for (int i = 1; i < a->n; i++) {
			Node *y = a->v[i];
			if (ccompare(b == B_MIN ? TK_LSS : TK_GTR, y->cv, best->cv))
				best = y;
		}
		n->cv = best->cv;
		Type *bt = best->type;
		if (!t) {
			/* untyped: the largest kind among the arguments */
			for (int i = 0; i < a->n; i++)
				if (((Node *)a->v[i])->type->kind > bt->kind)
					bt = ((Node *)a->v[i])->type;
			if (isnumeric(bt) && n->cv->kind == CK_INT && bt->kind == T_UNTYPED_FLOAT)
				n->cv = cconvert(n->cv, CK_FLOAT);
		}
		n->type = t ? t : bt;
		return n->type;
	}
	if (!t) {
		t = defaulttype(((Node *)a->v[0])->type);
		for (int i = 0; i < a->n; i++)
			convertuntyped(a->v[i], t);
	}
	n->type = t;
	return t;
}

/* The built-in complex (checkbuiltin). */
static Type *checkcomplex(Node *n, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 2, 2, name))
		return fail(n);
	Node *re = a->v[0], *im = a->v[1];
	Type *rt = rvalue(re), *it = rvalue(im);
	if (bad(rt) || bad(it))
		return fail(n);
	if (isuntyped(rt) && !isuntyped(it))
		convertuntyped(re, it), rt = it;
	if (isuntyped(it) && !isuntyped(rt))
		convertuntyped(im, rt), it = rt;
	if (re->cv && im->cv && isuntyped(rt)) {
		n->cv = cmkcomplex(re->cv, im->cv);
		n->type = types[T_UNTYPED_COMPLEX];
		return n->type;
	}
	if (isuntyped(rt)) {
		convertuntyped(re, types[T_FLOAT64]);
		convertuntyped(im, types[T_FLOAT64]);
		rt = it = types[T_FLOAT64];
	}
	if (!identical(rt, it) || !isfloat(rt)) {
		errorat(n->pos, "invalid operation: %s (mismatched types %s and %s)", exprstr(n), ts(rt), ts(it));
		return fail(n);
	}
	n->type = under(rt)->kind == T_FLOAT32 ? types[T_COMPLEX64] : types[T_COMPLEX128];
	if (re->cv && im->cv)
		n->cv = cmkcomplex(re->cv, im->cv);
	return n->type;
}

/* The built-in real and imag (checkbuiltin). */
static Type *checkrealimag(Node *n, int b, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	if (x->cv && isuntyped(t)) {
		Const *c = cconvert(x->cv, CK_COMPLEX);
		n->cv = b == B_REAL ? crealpart(c) : cimagpart(c);
		n->type = types[T_UNTYPED_FLOAT];
		return n->type;
	}
	if (!iscomplex(t)) {
		errorat(x->pos, "invalid argument: %s must be of complex type", opdesc(x));
		return fail(n);
	}
	n->type = under(t)->kind == T_COMPLEX64 ? types[T_FLOAT32] : types[T_FLOAT64];
	if (x->cv) {
		n->cv = b == B_REAL ? crealpart(x->cv) : cimagpart(x->cv);
	}
	return n->type;
}

/* The built-in sizeof and alignof (checkbuiltin). */
static Type *checksizeof(Node *n, int b, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	defaultuntyped(x);
	t = x->type;
	n->cv = cint(b == B_SIZEOF ? tsize(t) : talign(t));
	n->type = types[T_UINTPTR];
	return n->type;
}

/* The built-in offsetof (checkbuiltin). */
static Type *checkoffsetof(Node *n, const char *name) {
	Vec *a = &n->list;
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	if (x->kind != N_SELECTOR) {
		errorat(x->pos, "invalid argument: %s is not a selector expression", exprstr(x));
		return fail(n);
	}
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	if (x->op != SEL_FIELD) {
		errorat(x->pos, "invalid argument: %s is a method value", exprstr(x));
		return fail(n);
	}
	int64_t off = 0;
	for (int i = 0; i < x->path.n; i++) {
		Field *f = x->path.v[i];
		layout(f->type);
		off += f->offset;
	}
	Type *base = x->a->type;
	layout(under(base)->kind == T_POINTER ? under(base)->elem : base);
	off = 0;
	for (int i = 0; i < x->path.n; i++)
		off += ((Field *)x->path.v[i])->offset;
	n->cv = cint(off);
	n->type = types[T_UINTPTR];
	return n->type;
}

/* The built-in add (checkbuiltin). */
static Type *checkunsafeadd(Node *n, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 2, 2, name))
		return fail(n);
	Type *p = rvalue(a->v[0]);
	if (!bad(p))
		assignop(a->v[0], types[T_UNSAFEPTR], "argument to unsafe.Add");
	/* the offset may be negative: p moves back */
	(void)checkintval(a->v[1], "length", -1, true);
	n->type = types[T_UNSAFEPTR];
	return n->type;
}

/* The built-in slice and string (checkbuiltin). */
static Type *checkunsafeslicestring(Node *n, int b, const char *name) {
	return unsafeslice(n, b, name);
}

/* The built-in stringdata (checkbuiltin). */
static Type *checkstringdata(Node *n, const char *name) {
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	assignop(x, types[T_STRING], "argument to unsafe.StringData");
	n->type = ptrto(t_byte);
	return n->type;
}

/* The built-in slicedata (checkbuiltin). */
static Type *checkslicedata(Node *n, const char *name) {
	Vec *a = &n->list;
	Node *x = n->list.n ? n->list.v[0] : NULL;
	if (!nargs(n, 1, 1, name))
		return fail(n);
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	if (under(t)->kind != T_SLICE) {
		errorat(x->pos, "invalid argument: %s is not a slice", opdesc(x));
		return fail(n);
	}
	n->type = ptrto(under(t)->elem);
	return n->type;
}

Type *checkbuiltin(Node *n, int b) {
	Node *fn = n->a;
	const char *name = fn->kind == N_SELECTOR ? xprintf("unsafe.%s", fn->name) : fn->name;
	n->flags |= NF_CALLEE_BUILTIN;
	n->ival = b;
	if (n->op && b != B_APPEND) {
		errorat(n->pos, "invalid operation: invalid use of ... with built-in %s", name);
		return fail(n);
	}
	switch (b) {
	case B_LEN:
	case B_CAP:
		return checklen(n, b, name);
	case B_NEW:
		return checknew(n, name);
	case B_MAKE:
		return checkmake(n, name);
	case B_APPEND:
		return checkappend(n, name);
	case B_COPY:
		return checkcopy(n, name);
	case B_DELETE:
		return checkdelete(n, name);
	case B_CLEAR:
		return checkclear(n, name);
	case B_CLOSE:
		return checkclose(n, name);
	case B_PANIC:
		return checkpanic(n, name);
	case B_RECOVER:
		return checkrecover(n, name);
	case B_PRINT:
	case B_PRINTLN:
		return checkprint(n, name);
	case B_MIN:
	case B_MAX:
		return checkminmax(n, b, name);
	case B_COMPLEX:
		return checkcomplex(n, name);
	case B_REAL:
	case B_IMAG:
		return checkrealimag(n, b, name);
	case B_SIZEOF:
	case B_ALIGNOF:
		return checksizeof(n, b, name);
	case B_OFFSETOF:
		return checkoffsetof(n, name);
	case B_ADD:
		return checkunsafeadd(n, name);
	case B_SLICE:
	case B_STRING:
		return checkunsafeslicestring(n, b, name);
	case B_STRINGDATA:
		return checkstringdata(n, name);
	case B_SLICEDATA:
		return checkslicedata(n, name);
	default:
		errorat(n->pos, "%s not supported", name);
		return fail(n);
	}
}

/* unsafe.Slice(ptr *T, len) []T and unsafe.String(ptr *byte, len) string:
 * len of any integer type, a constant one not negative. */
static Type *unsafeslice(Node *n, int b, const char *name) {
	Vec *a = &n->list;
	if (!nargs(n, 2, 2, name))
		return fail(n);
	Node *p = a->v[0];
	Type *pt = rvalue(p);
	if (bad(pt))
		return fail(n);
	if (b == B_STRING)
		assignop(p, ptrto(t_byte), "argument to unsafe.String");
	else if (under(pt)->kind != T_POINTER) {
		errorat(p->pos, "invalid argument: %s is not a pointer", opdesc(p));
		return fail(n);
	}
	if (checkintval(a->v[1], "length", -1, false) == -2)
		return fail(n);
	n->type = b == B_STRING ? types[T_STRING] : sliceof(under(pt)->elem);
	return n->type;
}
