/* expr.c — type checking of expressions: operands, operators, conversions,
 * calls and built-ins, composite literals, selectors, assignability.
 *
 * Untyped constants are folded as they are checked and keep their untyped
 * type until the context gives them one (convertuntyped), as Go's checker
 * does; messages follow types2's wording.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"

FuncInfo *curfn;
int64_t curiota = -1;


/* ---------------------------------------------------------------- printing */

static const char *opstr(int op) {
	switch (op) {
	case TK_ADD: return "+";
	case TK_SUB: return "-";
	case TK_MUL: return "*";
	case TK_QUO: return "/";
	case TK_REM: return "%";
	case TK_AND: return "&";
	case TK_OR: return "|";
	case TK_XOR: return "^";
	case TK_SHL: return "<<";
	case TK_SHR: return ">>";
	case TK_AND_NOT: return "&^";
	case TK_LAND: return "&&";
	case TK_LOR: return "||";
	case TK_ARROW: return "<-";
	case TK_EQL: return "==";
	case TK_NEQ: return "!=";
	case TK_LSS: return "<";
	case TK_LEQ: return "<=";
	case TK_GTR: return ">";
	case TK_GEQ: return ">=";
	case TK_NOT: return "!";
	}
	return "?";
}

static void wexpr(Buf *b, Node *n, int depth);

static void wlist(Buf *b, Vec *v, int depth) {
	for (int i = 0; i < v->n; i++) {
		if (i)
			bput(b, ", ");
		wexpr(b, v->v[i], depth);
	}
}

static void wexpr(Buf *b, Node *n, int depth) {
	if (!n)
		return;
	if (depth > 12) {
		bput(b, "…");
		return;
	}
	depth++;
	switch (n->kind) {
	case N_IDENT: bput(b, n->name); break;
	case N_INTLIT: case N_FLOATLIT: case N_IMAGLIT: bput(b, n->lit); break;
	case N_RUNELIT:
		if (n->ival >= 32 && n->ival < 127 && n->ival != '\'' && n->ival != '\\')
			bprintf(b, "'%c'", (char)n->ival);
		else
			bprintf(b, "%lld", (long long)n->ival);
		break;
	case N_STRLIT: quote(b, n->lit, n->litlen, false); break; /* Go prints the literal; gl, its value quoted */
	case N_COMPLIT:
		wexpr(b, n->a, depth);
		bput(b, "{…}");
		break;
	case N_FUNCLIT: bput(b, "func literal"); break;
	case N_PAREN:
		bputc(b, '(');
		wexpr(b, n->a, depth);
		bputc(b, ')');
		break;
	case N_SELECTOR:
		wexpr(b, n->a, depth);
		bputc(b, '.');
		bput(b, n->name);
		break;
	case N_INDEX:
		wexpr(b, n->a, depth);
		bputc(b, '[');
		wexpr(b, n->b, depth);
		bputc(b, ']');
		break;
	case N_SLICEEXPR:
		wexpr(b, n->a, depth);
		bputc(b, '[');
		wexpr(b, n->b, depth);
		bputc(b, ':');
		wexpr(b, n->c, depth);
		if (n->op == 3) {
			bputc(b, ':');
			wexpr(b, n->d, depth);
		}
		bputc(b, ']');
		break;
	case N_TYPEASSERT:
		wexpr(b, n->a, depth);
		bput(b, ".(");
		if (n->b)
			wexpr(b, n->b, depth);
		else
			bput(b, "type");
		bputc(b, ')');
		break;
	case N_CALL:
		wexpr(b, n->a, depth);
		bputc(b, '(');
		wlist(b, &n->list, depth);
		if (n->op)
			bput(b, "...");
		bputc(b, ')');
		break;
	case N_STAR:
		bputc(b, '*');
		wexpr(b, n->a, depth);
		break;
	case N_UNARY:
		bput(b, opstr(n->op));
		wexpr(b, n->a, depth);
		break;
	case N_BINARY:
		wexpr(b, n->a, depth);
		bprintf(b, " %s ", opstr(n->op));
		wexpr(b, n->b, depth);
		break;
	case N_KEYVAL:
		wexpr(b, n->a, depth);
		bput(b, ": ");
		wexpr(b, n->b, depth);
		break;
	case N_ARRAYTYPE:
		bputc(b, '[');
		if (n->a && n->a->kind == N_ELLIPSIS)
			bput(b, "...");
		else
			wexpr(b, n->a, depth);
		bputc(b, ']');
		wexpr(b, n->b, depth);
		break;
	case N_MAPTYPE:
		bput(b, "map[");
		wexpr(b, n->a, depth);
		bputc(b, ']');
		wexpr(b, n->b, depth);
		break;
	case N_CHANTYPE:
		bput(b, n->op == 1 ? "<-chan " : n->op == 2 ? "chan<- " : "chan ");
		wexpr(b, n->a, depth);
		break;
	case N_FUNCTYPE: bput(b, "func(…)"); break;
	case N_STRUCTTYPE: bput(b, "struct{…}"); break;
	case N_IFACETYPE: bput(b, n->list.n ? "interface{…}" : "interface{}"); break;
	default: bput(b, "expression");
	}
}

/* Array and struct type expressions, for checktypesizes: a size is known
 * only once every type of the package is complete. */
Vec sizedtypes;

/* Go's "larger than address space" (2^50 bytes on amd64), for every array
 * or struct type written since sizedtypes had mark entries — in a
 * declaration, a conversion, new(T), a composite literal, behind a
 * pointer: C cannot declare such a type, whatever holds it.  Once per
 * type expression: not again for one whose element or field is already
 * too large (it was reported where it was written). */
void checktypesizes(int mark) {
	for (int i = mark; i < sizedtypes.n; i++) {
		Node *n = sizedtypes.v[i];
		Type *t = n->type;
		if (!t || bad(t) || tsize(t) <= maxTypeSize)
			continue;
		bool inner = false;
		if (t->kind == T_ARRAY)
			inner = tsize(t->elem) > maxTypeSize;
		else
			for (int j = 0; j < t->fields.n; j++)
				inner |= tsize(((Field *)t->fields.v[j])->type) > maxTypeSize;
		if (!inner)
			errorat(n->pos, "type %s larger than address space", ts(t));
	}
	sizedtypes.n = mark;
}

const char *exprstr(Node *n) {
	Buf b = {0};
	wexpr(&b, n, 0);
	return bstr(&b);
}

/* types2's description of an operand, as in
 * "x (variable of type int)" or "300 (untyped int constant)". */
const char *opdesc(Node *n) {
	const char *e = exprstr(n);
	Type *t = n->type;
	if (n->flags & NF_NIL)
		return "nil";
	if (n->flags & NF_TYPE)
		return xprintf("%s (type)", e);
	if (n->flags & NF_BUILTIN)
		return xprintf("%s (built-in function %s)", e, n->obj ? n->obj->name : e);
	if (n->flags & NF_NOVALUE)
		return xprintf("%s (no value)", e);
	if (!t)
		return e;
	if (n->cv) {
		const char *v = cstr(n->cv);
		bool lit = strcmp(v, e) == 0;
		if (isuntyped(t))
			return lit ? xprintf("%s (%s constant)", e, ts(t)) : xprintf("%s (%s constant %s)", e, ts(t), v);
		return lit ? xprintf("%s (constant of type %s)", e, ts(t)) : xprintf("%s (constant %s of type %s)", e, v, ts(t));
	}
	if (isuntyped(t))
		return xprintf("%s (%s value)", e, ts(t));
	if (n->flags & NF_MAPINDEX)
		return xprintf("%s (map index expression of type %s)", e, ts(t));
	if (n->flags & NF_COMMAOK && n->kind == N_TYPEASSERT)
		return xprintf("%s (comma, ok expression of type %s)", e, ts(t));
	if (n->flags & (NF_VAR | NF_ADDRESSABLE))
		return xprintf("%s (variable of type %s)", e, ts(t));
	return xprintf("%s (value of type %s)", e, ts(t));
}

/* ---------------------------------------------------------------- identifiers */

/* A local variable of an enclosing function used inside a func literal is
 * captured: every literal between the use and the declaration records it,
 * and the variable moves to the heap so all of them share it. */
static void capture(Obj *o) {
	if (o->kind != O_VAR || o->global || !o->fnlit || !curfn || curfn->node == o->fnlit)
		return;
	o->captured = true;
	for (FuncInfo *f = curfn; f && f->node != o->fnlit; f = f->outer) {
		bool have = false;
		for (int i = 0; i < f->captures.n; i++)
			if (f->captures.v[i] == o)
				have = true;
		if (!have)
			vpush(&f->captures, o);
	}
}

static Type *checkident(Node *n) {
	if (n->name == intern("_")) {
		errorat(n->pos, "cannot use _ as value");
		return fail(n);
	}
	Obj *o = lookup(curscope, n->name);
	if (!o) {
		errorat(n->pos, "undefined: %s", n->name);
		return fail(n);
	}
	n->obj = o;
	switch (o->kind) {
	case O_PKG:
		errorat(n->pos, "use of package %s without selector", o->name);
		o->used = true;
		return fail(n);
	case O_CONST:
		objdecl(o);
		markused(o);
		if (o->builtin == -1) { /* iota */
			if (curiota < 0) {
				errorat(n->pos, "cannot use iota outside constant declaration");
				return fail(n);
			}
			n->cv = cint(curiota);
			n->type = types[T_UNTYPED_INT];
			return n->type;
		}
		n->cv = o->cv;
		n->type = o->type ? o->type : t_bad;
		if (!n->cv)
			n->type = t_bad;
		return n->type;
	case O_TYPE:
		objdecl(o);
		markused(o);
		n->flags |= NF_TYPE;
		n->type = o->type ? o->type : t_bad;
		return n->type;
	case O_VAR:
		objdecl(o);
		markused(o);
		capture(o);
		noteref(o);
		n->flags |= NF_VAR | NF_ADDRESSABLE;
		n->type = o->type ? o->type : t_bad;
		return n->type;
	case O_FUNC:
		objdecl(o);
		markused(o);
		noteref(o);
		n->type = o->type ? o->type : t_bad;
		return n->type;
	case O_BUILTIN:
		n->flags |= NF_BUILTIN;
		n->type = NULL;
		return NULL;
	case O_NIL:
		n->flags |= NF_NIL;
		n->type = types[T_UNTYPED_NIL];
		return n->type;
	}
	return fail(n);
}

/* ---------------------------------------------------------------- lookup */

typedef struct Embedded {
	Type *type;  /* the struct or named type at this level (pointers removed) */
	Vec path;    /* Field* followed to get here */
	bool indirect;
	bool multiples;
} Embedded;

void resolvemethod(Method *m) {
	if (!m->type && m->fn)
		objdecl(m->fn);
}

/* Go's lookupFieldOrMethod: a breadth-first search through embedded
 * fields; a name found twice at the same depth is ambiguous.  Returns the
 * field's or method's object (kind SEL_FIELD / SEL_METHOD / SEL_IMETHOD),
 * with the fields followed in path.  *indirect says a pointer was followed. */
Obj *lookupfieldormethod(Type *T, const char *name, Vec *path, int *kind, bool *indirect) {
	Vec cur = {0}, next = {0}, seen = {0};
	bool ind = false;
	/* a defined pointer type (type P *S) has no methods, but p.f is
	 * (*p).f for a field f (the spec's exception) */
	if (T->kind == T_NAMED && under(T)->kind == T_POINTER) {
		Obj *o = lookupfieldormethod(under(T), name, path, kind, indirect);
		if (*kind == SEL_METHOD || *kind == SEL_IMETHOD) {
			*kind = 0;
			return NULL;
		}
		return o;
	}
	if (T->kind == T_POINTER && T->elem->kind == T_NAMED) {
		T = T->elem;
		ind = true;
	} else if (T->kind == T_POINTER && under(T->elem)->kind == T_STRUCT) {
		T = T->elem;
		ind = true;
	}
	/* a pointer to an interface has neither fields nor methods */
	if (ind && under(T)->kind == T_INTERFACE) {
		*kind = 0;
		return NULL;
	}
	Embedded *e0 = xalloc(sizeof *e0);
	e0->type = T;
	e0->indirect = ind;
	vpush(&cur, e0);
	while (cur.n) {
		Obj *found = NULL;
		Embedded *fe = NULL;
		int fkind = 0, nfound = 0;
		Method *fm = NULL;
		next.n = 0;
		for (int i = 0; i < cur.n; i++) {
			Embedded *e = cur.v[i];
			Type *t = e->type;
			if (t->kind == T_NAMED) {
				bool dup = false;
				for (int j = 0; j < seen.n; j++)
					if (seen.v[j] == t)
						dup = true;
				if (dup)
					continue;
				vpush(&seen, t);
				for (int j = 0; j < t->methods.n; j++) {
					Method *m = t->methods.v[j];
					if (m->name == name && (exported(name) || m->pkg == curpkg || !curpkg)) {
						nfound++;
						found = m->fn;
						fm = m;
						fe = e;
						fkind = SEL_METHOD;
					}
				}
				t = under(t);
			}
			if (t->kind == T_STRUCT) {
				for (int j = 0; j < t->fields.n; j++) {
					Field *f = t->fields.v[j];
					if (f->name == name && (exported(name) || f->pkg == curpkg || !f->pkg || !curpkg)) {
						nfound++;
						found = f->obj;
						fe = e;
						fkind = SEL_FIELD;
						fm = NULL;
						Embedded *x = xalloc(sizeof *x);
						x->path = e->path;
						vpush(&x->path, f);
						x->indirect = e->indirect;
						fe = x;
					}
					if (f->embedded) {
						Type *ft = f->type;
						bool fi = e->indirect;
						if (ft->kind == T_POINTER) {
							ft = ft->elem;
							fi = true;
						}
						Embedded *x = xalloc(sizeof *x);
						Vec p = {0};
						for (int k = 0; k < e->path.n; k++)
							vpush(&p, e->path.v[k]);
						vpush(&p, f);
						x->path = p;
						x->type = ft;
						x->indirect = fi;
						vpush(&next, x);
					}
				}
			} else if (t->kind == T_INTERFACE) {
				completeiface(t);
				Method *m = findmethod(&t->methods, name, curpkg);
				if (m) {
					nfound++;
					found = NULL;
					fm = m;
					fe = e;
					fkind = SEL_IMETHOD;
				}
			}
		}
		if (nfound > 1) {
			*kind = -1; /* ambiguous */
			return NULL;
		}
		if (nfound == 1) {
			*path = fe->path;
			*kind = fkind;
			*indirect = fe->indirect;
			if (fkind == SEL_IMETHOD || fkind == SEL_METHOD) {
				/* methods return their Method through the Obj's decl slot */
				Obj *o = found;
				if (!o) {
					o = newobj(O_FUNC, fm->name, fm->pos);
					o->type = fm->type;
					o->ismethod = true;
				}
				o->lit = (Node *)fm; /* the Method record */
				return o;
			}
			return found;
		}
		Vec t = cur;
		cur = next;
		next = t;
	}
	*kind = 0;
	return NULL;
}

/* The method named name in the method set of t (value t: value methods,
 * plus pointer methods only when t is a pointer).  *ptrrecv tells whether
 * it is declared on a pointer receiver. */
Method *methodof(Type *t, const char *name, Vec *path, bool *ptrrecv, bool *indirect) {
	int kind;
	Vec p = {0};
	bool ind = false;
	Obj *o = lookupfieldormethod(t, name, &p, &kind, &ind);
	if (kind != SEL_METHOD && kind != SEL_IMETHOD)
		return NULL;
	(void)o;
	Method *m = (Method *)o->lit;
	resolvemethod(m);
	if (path)
		*path = p;
	if (ptrrecv)
		*ptrrecv = kind == SEL_METHOD && m->ptrrecv;
	if (indirect)
		*indirect = ind;
	return m;
}

/* Whether t (a concrete type or interface) implements the interface iface;
 * *why gets types2's explanation. */
bool implements(Type *t, Type *iface, const char **why) {
	Type *iu = under(iface);
	if (iu->kind != T_INTERFACE)
		return false;
	completeiface(iu);
	Type *tu = under(t);
	if (iu->methods.n && tu->kind == T_POINTER && under(tu->elem)->kind == T_INTERFACE) {
		if (why)
			*why = xprintf("%s does not implement %s (type %s is pointer to interface, not interface)", ts(t), ts(iface), ts(t));
		return false;
	}
	for (int i = 0; i < iu->methods.n; i++) {
		Method *want = iu->methods.v[i];
		resolvemethod(want);
		if (tu->kind == T_INTERFACE) {
			completeiface(tu);
			Method *have = findmethod(&tu->methods, want->name, want->pkg);
			if (!have) {
				if (why)
					*why = xprintf("%s does not implement %s (missing method %s)", ts(t), ts(iface), want->name);
				return false;
			}
			if (!identical(have->type, want->type)) {
				if (why)
					*why = xprintf("%s does not implement %s (wrong type for method %s)", ts(t), ts(iface), want->name);
				return false;
			}
			continue;
		}
		bool ptr = false, ind = false;
		Vec path = {0};
		Method *have = methodof(t, want->name, &path, &ptr, &ind);
		if (!have) {
			if (why)
				*why = xprintf("%s does not implement %s (missing method %s)", ts(t), ts(iface), want->name);
			return false;
		}
		resolvemethod(have);
		if (!have->type || !identical(have->type, want->type)) {
			if (why)
				*why = xprintf("%s does not implement %s (wrong type for method %s)\n\t\thave %s%s\n\t\twant %s%s",
					       ts(t), ts(iface), want->name, want->name,
					       have->type ? typestrq(have->type, curpkg) + 4 : "?", want->name,
					       typestrq(want->type, curpkg) + 4);
			return false;
		}
		/* a pointer method is in the method set of T only through an
		 * embedded pointer on the way */
		if (ptr && t->kind != T_POINTER && !ind) {
			if (why)
				*why = xprintf("%s does not implement %s (method %s has pointer receiver)", ts(t), ts(iface), want->name);
			return false;
		}
	}
	return true;
}

/* ---------------------------------------------------------------- untyped */

static bool representable(Node *n, Type *t, const char *context) {
	Const *r = NULL;
	if (crepresentable(n->cv, t, &r)) {
		n->cv = r;
		return true;
	}
	const char *why = "overflows";
	Type *u = under(t);
	if (isinteger(u) && (n->cv->kind == CK_FLOAT || n->cv->kind == CK_COMPLEX) && !cisint(n->cv))
		why = "truncated";
	bool numeric = isnumeric(u) && n->cv->kind != CK_STRING && n->cv->kind != CK_BOOL;
	if (context) {
		if (numeric)
			errorat(n->pos, "cannot use %s as %s value in %s (%s)", opdesc(n), ts(t), context, why);
		else
			errorat(n->pos, "cannot use %s as %s value in %s", opdesc(n), ts(t), context);
	} else if (numeric) {
		if (isuntyped(n->type))
			errorat(n->pos, "%s %s %s", opdesc(n), why, ts(t));
		else
			errorat(n->pos, "cannot use %s as %s value (%s)", opdesc(n), ts(t), why);
	} else {
		errorat(n->pos, "cannot convert %s to type %s", opdesc(n), ts(t));
	}
	return false;
}

/* Give an untyped expression the type t (Go's implicit conversion of an
 * untyped operand).  context is the message phrase for assignments, or
 * NULL for operands of operators. */
bool convertuntyped2(Node *n, Type *t, const char *context) {
	if (!n->type || !isuntyped(n->type) || bad(t))
		return true;
	Type *u = under(t);
	if (u->kind == T_INTERFACE && !isuntyped(t)) {
		if (n->type->kind == T_UNTYPED_NIL) {
			n->type = t;
			return true;
		}
		if (u->methods.n && !implements(defaulttype(n->type), t, NULL)) {
			const char *why = NULL;
			implements(defaulttype(n->type), t, &why);
			if (context)
				errorat(n->pos, "cannot use %s as %s value in %s: %s", opdesc(n), ts(t), context, why ? why : "");
			else
				errorat(n->pos, "cannot use %s as %s value", opdesc(n), ts(t));
			return false;
		}
		return convertuntyped2(n, defaulttype(n->type), context);
	}
	if (n->type->kind == T_UNTYPED_NIL) {
		if (!hasnil(t)) {
			if (context)
				errorat(n->pos, "cannot use nil as %s value in %s", ts(t), context);
			else
				errorat(n->pos, "cannot convert nil to type %s", ts(t));
			return false;
		}
		n->type = t;
		return true;
	}
	if (n->cv) {
		if (!isconstkind(u)) {
			if (context)
				errorat(n->pos, "cannot use %s as %s value in %s", opdesc(n), ts(t), context);
			else
				errorat(n->pos, "cannot convert %s to type %s", opdesc(n), ts(t));
			return false;
		}
		if (!representable(n, t, context))
			return false;
		n->type = t;
		if (n->kind == N_PAREN)
			convertuntyped2(n->a, t, context);
		return true;
	}
	/* untyped non-constant: a comparison (untyped bool), or a shift of an
	 * untyped constant by a variable amount */
	if (n->type->kind == T_UNTYPED_BOOL) {
		if (!isboolean(u)) {
			if (context)
				errorat(n->pos, "cannot use %s as %s value in %s", opdesc(n), ts(t), context);
			else
				errorat(n->pos, "mismatched types untyped bool and %s", ts(t));
			return false;
		}
		n->type = t;
		if (n->kind == N_PAREN)
			convertuntyped2(n->a, t, context);
		else if (n->kind == N_BINARY && (n->op == TK_LAND || n->op == TK_LOR)) {
			convertuntyped2(n->a, t, context);
			convertuntyped2(n->b, t, context);
		} else if (n->kind == N_UNARY)
			convertuntyped2(n->a, t, context);
		return true;
	}
	switch (n->kind) {
	case N_PAREN:
		if (!convertuntyped2(n->a, t, context))
			return false;
		break;
	case N_UNARY:
		if (!convertuntyped2(n->a, t, context))
			return false;
		break;
	case N_BINARY:
		if (n->op == TK_SHL || n->op == TK_SHR) {
			if (!isinteger(u)) {
				errorat(n->pos, "invalid operation: shifted operand %s (type %s) must be integer", exprstr(n->a), ts(t));
				return false;
			}
			if (!convertuntyped2(n->a, t, context))
				return false;
		} else {
			if (!convertuntyped2(n->a, t, context) || !convertuntyped2(n->b, t, context))
				return false;
		}
		break;
	case N_CALL: /* min/max of untyped non-constant operands */
		for (int i = 0; i < n->list.n; i++)
			if (!convertuntyped2(n->list.v[i], t, context))
				return false;
		break;
	}
	if (isuntyped(t) == false && !isnumeric(u) && n->type->kind != T_UNTYPED_STRING) {
		if (context)
			errorat(n->pos, "cannot use %s as %s value in %s", opdesc(n), ts(t), context);
		else
			errorat(n->pos, "cannot convert %s to type %s", opdesc(n), ts(t));
		return false;
	}
	n->type = t;
	return true;
}

void convertuntyped(Node *n, Type *t) { convertuntyped2(n, t, NULL); }

void defaultuntyped(Node *n) {
	if (n->type && isuntyped(n->type)) {
		if (n->type->kind == T_UNTYPED_NIL) {
			errorat(n->pos, "use of untyped nil in %s", "assignment");
			n->type = t_bad;
			return;
		}
		convertuntyped(n, defaulttype(n->type));
	}
}

static bool assignable(Type *v, Type *t, const char **why) {
	if (bad(v) || bad(t))
		return true;
	if (identical(v, t))
		return true;
	Type *vu = under(v), *tu = under(t);
	if (identical(vu, tu) && (!isnamed(v) || !isnamed(t)) && vu->kind != T_BAD)
		return true;
	if (tu->kind == T_INTERFACE)
		return implements(v, t, why);
	if (vu->kind == T_CHAN && vu->len == 3 && tu->kind == T_CHAN && identical(vu->elem, tu->elem) &&
	    (!isnamed(v) || !isnamed(t)))
		return true;
	return false;
}

bool assignablet(Type *v, Type *t) { return assignable(v, t, NULL); }

bool assignop(Node *n, Type *t, const char *context) {
	if (!n->type || bad(n->type) || bad(t))
		return true;
	if (isuntyped(n->type))
		return convertuntyped2(n, t, context);
	const char *why = NULL;
	if (assignable(n->type, t, &why))
		return true;
	if (why)
		errorat(n->pos, "cannot use %s as %s value in %s: %s", opdesc(n), ts(t), context, why);
	else
		errorat(n->pos, "cannot use %s as %s value in %s", opdesc(n), ts(t), context);
	return false;
}

/* ---------------------------------------------------------------- values */


/* A built-in function's name where a value is wanted (rvalue, an
 * expression statement) or assigned to: Go 1.19's words. */
void builtinuncalled(Node *n) {
	errorat(n->pos, "%s (built-in) must be called", exprstr(n));
}

Type *rvalue(Node *n) {
	Type *t = checkexpr(n);
	if (n->flags & NF_TYPE) {
		errorat(n->pos, "%s (type) is not an expression", exprstr(n));
		return fail(n);
	}
	if (n->flags & NF_BUILTIN) {
		builtinuncalled(n);
		return fail(n);
	}
	if (n->flags & NF_NOVALUE) {
		errorat(startpos(n), "%s (no value) used as value", exprstr(n));
		return fail(n);
	}
	if (t && t->kind == T_TUPLE) {
		errorat(n->pos, "multiple-value %s (value of type %s) in single-value context", exprstr(n), ts(t));
		return fail(n);
	}
	if (!t)
		return fail(n);
	return t;
}

/* An integer operand of int's range: an index or size (allowneg false, a
 * constant must not be negative) or unsafe.Add's offset.  Returns the
 * constant value (INT64_MIN when negative), -1 if not constant, -2 on error. */
int64_t checkintval(Node *n, const char *what, int64_t bound, bool allowneg) {
	Type *t = rvalue(n);
	if (bad(t))
		return -2;
	if (n->cv) {
		if (!cisint(n->cv)) {
			if (n->cv->kind == CK_FLOAT)
				errorat(n->pos, "invalid argument: %s %s truncated to int", what, opdesc(n));
			else
				errorat(n->pos, "invalid argument: %s %s must be integer", what, opdesc(n));
			return -2;
		}
		i128 v = ctoint(n->cv);
		if (v < 0 && allowneg) {
			if (isuntyped(t))
				convertuntyped(n, types[T_INT]); /* reports overflow */
			return INT64_MIN;
		}
		if (v < 0 && isuntyped(t) && n->cv->kind == CK_INT)
			n->type = types[T_INT];
		if (v < 0) {
			errorat(n->pos, "invalid argument: %s %s must not be negative", what, opdesc(n));
			return -2;
		}
		if (isuntyped(t))
			convertuntyped(n, types[T_INT]);
		if (bound >= 0 && v >= bound) {
			errorat(n->pos, "invalid argument: %s %s out of bounds [0:%lld]", what, exprstr(n), (long long)bound);
			return -2;
		}
		return v > INT64_MAX ? INT64_MAX : (int64_t)v;
	}
	if (!isinteger(t)) {
		errorat(n->pos, "invalid argument: %s %s must be integer", what, opdesc(n));
		return -2;
	}
	if (isuntyped(t))
		convertuntyped(n, types[T_INT]);
	return -1;
}

int64_t checkindexval(Node *n, const char *what, int64_t bound) { return checkintval(n, what, bound, false); }

/* ---------------------------------------------------------------- types */

static Type *structtype(Node *n) {
	Type *t = newtype(T_STRUCT);
	for (int i = 0; i < n->list.n; i++) {
		Node *f = n->list.v[i];
		Type *ft = typexpr(f->a);
		if (f->op == 2) { /* embedded */
			Node *tn = f->a->kind == N_STAR ? f->a->a : f->a;
			Field *fd = xalloc(sizeof *fd);
			fd->name = tn->kind == N_SELECTOR ? tn->name : tn->name;
			fd->type = ft;
			fd->embedded = true;
			fd->pkg = curpkg;
			fd->pos = f->pos;
			fd->tag = f->lit;
			Type *base = ft->kind == T_POINTER ? ft->elem : ft;
			if (!bad(ft) && (under(base)->kind == T_POINTER || (ft->kind == T_POINTER && under(ft->elem)->kind == T_INTERFACE)))
				errorat(f->pos, "embedded field type cannot be a pointer%s", under(base)->kind == T_INTERFACE ? " to an interface" : "");
			vpush(&t->fields, fd);
			continue;
		}
		for (int j = 0; j < f->list.n; j++) {
			Node *id = f->list.v[j];
			Field *fd = xalloc(sizeof *fd);
			fd->name = id->name;
			fd->type = ft;
			fd->pkg = curpkg;
			fd->pos = id->pos;
			fd->tag = f->lit;
			vpush(&t->fields, fd);
		}
	}
	/* field objects, and duplicate names */
	for (int i = 0; i < t->fields.n; i++) {
		Field *f = t->fields.v[i];
		Obj *o = newobj(O_VAR, f->name, f->pos);
		o->type = f->type;
		o->isfield = true;
		o->pkg = curpkg;
		f->obj = o;
		if (f->name == intern("_"))
			continue;
		for (int j = 0; j < i; j++)
			if (((Field *)t->fields.v[j])->name == f->name) {
				errorat(f->pos, "%s redeclared", f->name);
				break;
			}
	}
	return t;
}

static Type *functype(Node *n, Vec *names) {
	Type *t = newtype(T_FUNC);
	for (int pass = 0; pass < 2; pass++) {
		Vec *fs = pass ? &n->list2 : &n->list;
		for (int i = 0; i < fs->n; i++) {
			Node *f = fs->v[i];
			Type *ft = typexpr(f->a);
			if (f->op == 1) {
				if (pass || i != fs->n - 1)
					errorat(f->pos, "can only use ... with final parameter in list");
				else
					t->variadic = true;
				ft = sliceof(ft);
			}
			int cnt = f->list.n ? f->list.n : 1;
			for (int j = 0; j < cnt; j++) {
				Field *fd = xalloc(sizeof *fd);
				fd->type = ft;
				fd->name = f->list.n ? ((Node *)f->list.v[j])->name : NULL;
				fd->pos = f->list.n ? ((Node *)f->list.v[j])->pos : f->pos;
				vpush(pass ? &t->results : &t->fields, fd);
				if (names)
					vpush(names, f->list.n ? f->list.v[j] : NULL);
			}
		}
		if (names && !pass)
			vpush(names, (void *)-1); /* separates params from results */
	}
	return t;
}

Type *functypeof(Node *n, Vec *names) { return functype(n, names); }

static Type *ifacetype(Node *n) {
	Type *t = newtype(T_INTERFACE);
	for (int i = 0; i < n->list.n; i++) {
		Node *f = n->list.v[i];
		if (f->list.n) {
			Method *m = xalloc(sizeof *m);
			Node *id = f->list.v[0];
			m->name = id->name;
			m->pos = id->pos;
			m->pkg = curpkg;
			m->type = functype(f->a, NULL);
			for (int j = 0; j < t->methods.n; j++)
				if (((Method *)t->methods.v[j])->name == m->name)
					errorat(id->pos, "duplicate method %s", m->name);
			vpush(&t->methods, m);
		} else {
			Type *e = typexpr(f->a);
			if (!bad(e) && under(e)->kind != T_INTERFACE) {
				errorat(f->pos, "cannot use %s as interface (not an interface type)", ts(e));
				continue;
			}
			vpush(&t->embeds, e);
		}
	}
	if (t->embeds.n == 0) {
		t->complete = false;
	}
	return t;
}

static Type *typexpr1(Node *n);

/* []T, *T, chan T, func() T nest without brackets: bounded like expressions */
Type *typexpr(Node *n) {
	static int depth;
	if (!n)
		return t_bad;
	if (depth > 500) {
		errorat(n->pos, "type nesting too deep");
		n->type = t_bad;
		return t_bad;
	}
	depth++;
	Type *t = typexpr1(n);
	depth--;
	return t;
}

static Type *typexpr1(Node *n) {
	Type *t;
	switch (n->kind) {
	case N_IDENT:
	case N_SELECTOR:
		t = checkexpr(n);
		if (!(n->flags & NF_TYPE)) {
			if (!bad(t) || n->obj)
				errorat(n->pos, "%s is not a type", exprstr(n));
			return fail(n);
		}
		return t;
	case N_PAREN:
		t = typexpr(n->a);
		n->flags |= NF_TYPE;
		n->type = t;
		return t;
	case N_STAR:
		t = ptrto(typexpr(n->a));
		break;
	case N_ARRAYTYPE:
		if (!n->a)
			t = sliceof(typexpr(n->b));
		else if (n->a->kind == N_ELLIPSIS) {
			errorat(n->pos, "invalid use of [...] array (outside a composite literal)");
			t = t_bad;
		} else {
			Type *et = typexpr(n->b);
			Type *lt = checkexpr(n->a);
			int64_t len = 0;
			if (n->a->flags & (NF_BUILTIN | NF_TYPE | NF_NOVALUE)) { /* [len]int, [T]int, [f()]int */
				errorat(n->a->pos, "invalid array length %s", exprstr(n->a));
				return fail(n);
			}
			if (bad(lt))
				return fail(n);
			if (!n->a->cv) {
				errorat(n->a->pos, "array length %s (%s) must be constant", exprstr(n->a),
					n->a->flags & NF_VAR ? xprintf("variable of type %s", ts(lt)) : xprintf("value of type %s", ts(lt)));
				return fail(n);
			}
			if (!cisint(n->a->cv) || !isnumeric(lt)) {
				errorat(n->a->pos, "array length %s must be integer", opdesc(n->a));
				return fail(n);
			}
			i128 v = ctoint(n->a->cv);
			if (v < 0 || v > (i128)INT64_MAX) { /* a size past maxTypeSize is the layout's error */
				errorat(n->a->pos, "invalid array length %s", exprstr(n->a));
				return fail(n);
			}
			len = (int64_t)v;
			t = arrayof(et, len);
			vpush(&sizedtypes, n);
		}
		break;
	case N_MAPTYPE: {
		Type *k = typexpr(n->a), *v = typexpr(n->b);
		if (!bad(k) && k->kind != T_NAMED && !comparable(k)) {
			errorat(n->a->pos, "invalid map key type %s", ts(k));
		} else if (!bad(k) && k->kind == T_NAMED && k->underlying && !comparable(k)) {
			errorat(n->a->pos, "invalid map key type %s", ts(k));
		}
		t = mapof(k, v);
		break;
	}
	case N_CHANTYPE:
		t = chanof(typexpr(n->a), n->op);
		break;
	case N_FUNCTYPE:
		t = functype(n, NULL);
		break;
	case N_STRUCTTYPE:
		t = structtype(n);
		vpush(&sizedtypes, n);
		break;
	case N_IFACETYPE:
		t = ifacetype(n);
		break;
	default:
		t = checkexpr(n);
		if (!(n->flags & NF_TYPE)) {
			if (!bad(t))
				errorat(n->pos, "%s is not a type", exprstr(n));
			return fail(n);
		}
		return t;
	}
	n->flags |= NF_TYPE;
	n->type = t;
	return t;
}

/* ---------------------------------------------------------------- operators */

bool ordered(Type *t) {
	Type *u = under(t);
	return isinteger(u) || isfloat(u) || isstring(u);
}

static bool opallowed(int op, Type *t, Node *n) {
	Type *u = under(t);
	bool ok;
	switch (op) {
	case TK_ADD: ok = isnumeric(u) || isstring(u); break;
	case TK_SUB: case TK_MUL: case TK_QUO: ok = isnumeric(u); break;
	case TK_REM: case TK_AND: case TK_OR: case TK_XOR: case TK_AND_NOT: ok = isinteger(u); break;
	case TK_LAND: case TK_LOR: ok = isboolean(u); break;
	default: ok = true;
	}
	if (!ok)
		errorat(n->pos, "invalid operation: operator %s not defined on %s", opstr(op), opdesc(n));
	return ok;
}

/* Where expression n starts, as Go reports its operands: a call's,
 * selector's or index's left end, not its parenthesis, dot or bracket. */
Pos startpos(Node *n) {
	while ((n->kind == N_CALL || n->kind == N_SELECTOR || n->kind == N_INDEX || n->kind == N_SLICEEXPR ||
		n->kind == N_TYPEASSERT || n->kind == N_BINARY) && n->a)
		n = n->a;
	return n->pos;
}

/* the result of a typed constant operation must fit its type */
static bool constfits(Node *n) {
	if (!n->cv || isuntyped(n->type) || bad(n->type))
		return true;
	Const *r;
	if (crepresentable(n->cv, n->type, &r)) {
		n->cv = r;
		return true;
	}
	errorat(startpos(n), "%s overflows %s", opdesc(n), ts(n->type));
	return false;
}

/* The largest count of a constant shift, Go's: 1074, the binary exponent
 * of float64's smallest denormal.  A larger count has no use (a constant
 * integer has 512 bits), and Go rejects it whatever the operand, so glc
 * does too: the same programs compile. */
enum { MAXCONSTSHIFT = 1074 };

static Type *checkshift(Node *n) {
	Node *x = n->a, *y = n->b;
	Type *xt = rvalue(x), *yt = rvalue(y);
	const char *ydesc = NULL;
	if (bad(xt) || bad(yt))
		return fail(n);
	/* the shift count: an integer, or an untyped constant representable as uint */
	if (y->cv) {
		if (!cisint(y->cv)) {
			errorat(startpos(y), "%s truncated to uint", opdesc(y));
			return fail(n);
		}
		if (ctoint(y->cv) < 0) {
			errorat(startpos(y), "invalid operation: negative shift count %s", opdesc(y));
			return fail(n);
		}
		ydesc = opdesc(y); /* as written: it becomes a uint */
		if (isuntyped(yt))
			convertuntyped(y, types[T_UINT]);
	} else if (!isinteger(yt)) {
		errorat(y->pos, "invalid operation: shift count %s must be integer", opdesc(y));
		return fail(n);
	} else if (isuntyped(yt))
		convertuntyped(y, types[T_UINT]);
	if (x->cv) {
		if (isuntyped(xt) && !cisintegral(x->cv)) {
			errorat(x->pos, "invalid operation: shifted operand %s must be integer", opdesc(x));
			return fail(n);
		}
		if (!isuntyped(xt) && !isinteger(xt)) {
			errorat(x->pos, "invalid operation: shifted operand %s must be integer", opdesc(x));
			return fail(n);
		}
		if (y->cv) {
			i128 s = ctoint(y->cv);
			if (s > MAXCONSTSHIFT) {
				errorat(startpos(y), "invalid operation: invalid shift count %s", ydesc);
				return fail(n);
			}
			Const *c = cshift(n->pos, n->op, x->cv, (uint64_t)s);
			if (!c)
				return fail(n);
			n->cv = c;
			n->type = isuntyped(xt) ? (xt->kind == T_UNTYPED_FLOAT ? types[T_UNTYPED_INT] : xt) : xt;
			constfits(n);
			return n->type;
		}
		/* non-constant shift of an untyped constant: typed by context */
		n->type = isuntyped(xt) ? types[T_UNTYPED_INT] : xt;
		return n->type;
	}
	if (!isinteger(xt)) {
		errorat(x->pos, "invalid operation: shifted operand %s must be integer", opdesc(x));
		return fail(n);
	}
	n->type = xt;
	return xt;
}

static Type *checkcompare(Node *n) {
	Node *x = n->a, *y = n->b;
	Type *xt = x->type, *yt = y->type;
	const char *err = NULL;
	bool eq = n->op == TK_EQL || n->op == TK_NEQ;
	if (!assignable(xt, yt, NULL) && !assignable(yt, xt, NULL)) {
		errorat(n->pos, "invalid operation: %s (mismatched types %s and %s)", exprstr(n), ts(xt), ts(yt));
		return fail(n);
	}
	Type *t = isuntyped(xt) ? yt : xt;
	if (eq) {
		if (x->flags & NF_NIL || y->flags & NF_NIL) {
			Type *o = x->flags & NF_NIL ? yt : xt;
			if (!hasnil(o))
				err = xprintf("mismatched types %s and untyped nil", ts(o));
		} else if (!comparable(xt) || !comparable(yt)) {
			Type *bt = !comparable(xt) ? xt : yt;
			Type *bu = under(bt);
			const char *what = bu->kind == T_SLICE ? "slice" : bu->kind == T_MAP ? "map" : bu->kind == T_FUNC ? "func" : NULL;
			if (what)
				err = xprintf("%s can only be compared to nil", what);
			else
				err = xprintf("%s cannot be compared", ts(bt));
		}
	} else if (!ordered(t)) {
		err = xprintf("operator %s not defined on %s", opstr(n->op), opdesc(x));
	}
	if (err) {
		errorat(n->pos, "invalid operation: %s (%s)", exprstr(n), err);
		return fail(n);
	}
	if (x->cv && y->cv) {
		n->cv = cbool(ccompare(n->op, x->cv, y->cv));
		n->type = types[T_UNTYPED_BOOL];
		return n->type;
	}
	if (isuntyped(xt) && isuntyped(yt) && xt->kind != T_UNTYPED_NIL) {
		defaultuntyped(x);
		defaultuntyped(y);
	}
	n->type = types[T_UNTYPED_BOOL];
	return n->type;
}

static Type *checkbinary(Node *n) {
	if (n->op == TK_SHL || n->op == TK_SHR)
		return checkshift(n);
	Node *x = n->a, *y = n->b;
	Type *xt = rvalue(x), *yt = rvalue(y);
	if (bad(xt) || bad(yt))
		return fail(n);
	if ((x->flags | y->flags) & NF_HASCALL)
		n->flags |= NF_HASCALL;
	/* an untyped operand of another kind than the typed one: mismatched */
	{
		Type *ut = isuntyped(xt) && !isuntyped(yt) ? xt : isuntyped(yt) && !isuntyped(xt) ? yt : NULL;
		Type *tt = ut == xt ? yt : xt;
		if (ut && ut->kind != T_UNTYPED_NIL && !isinterface(tt)) {
			bool ok = isnumeric(ut) ? isnumeric(tt) : isstring(ut) ? isstring(tt) : isboolean(ut) ? isboolean(tt) : true;
			if (!ok) {
				errorat(n->pos, "invalid operation: %s (mismatched types %s and %s)", exprstr(n), ts(xt), ts(yt));
				return fail(n);
			}
		}
	}
	/* untyped operands take the type of the other operand */
	if (isuntyped(xt) && !isuntyped(yt)) {
		if (!(x->flags & NF_NIL) || hasnil(yt)) {
			if (!convertuntyped2(x, yt, NULL))
				return fail(n);
			xt = x->type;
		}
	} else if (isuntyped(yt) && !isuntyped(xt)) {
		if (!(y->flags & NF_NIL) || hasnil(xt)) {
			if (!convertuntyped2(y, xt, NULL))
				return fail(n);
			yt = y->type;
		}
	} else if (isuntyped(xt) && isuntyped(yt) && xt != yt && xt->kind != T_UNTYPED_NIL && yt->kind != T_UNTYPED_NIL) {
		/* untyped constants of different kinds: the "larger" kind wins */
		bool xn = isnumeric(xt), yn = isnumeric(yt);
		if (xn && yn) {
			Type *w = xt->kind > yt->kind ? xt : yt;
			if (x->cv && y->cv) {
				x->type = w;
				y->type = w;
			}
			xt = yt = w;
		}
	}
	switch (n->op) {
	case TK_EQL: case TK_NEQ: case TK_LSS: case TK_LEQ: case TK_GTR: case TK_GEQ:
		return checkcompare(n);
	}
	if (!identical(xt, yt) && !(isuntyped(xt) && isuntyped(yt) && isnumeric(xt) && isnumeric(yt))) {
		errorat(n->pos, "invalid operation: %s (mismatched types %s and %s)", exprstr(n), ts(xt), ts(yt));
		return fail(n);
	}
	if (!opallowed(n->op, xt, x))
		return fail(n);
	if ((n->op == TK_QUO || n->op == TK_REM) && y->cv && isnumeric(yt)) {
		Const *z = y->cv;
		bool zero = ciszero(z);
		if (zero && (isinteger(xt) || x->cv)) {
			errorat(y->pos, "invalid operation: division by zero");
			return fail(n);
		}
	}
	n->type = xt;
	if (x->cv && y->cv) {
		bool intdiv = isinteger(xt) && (x->cv->kind == CK_INT || !isuntyped(xt)) && (y->cv->kind == CK_INT || !isuntyped(xt));
		if (isuntyped(xt) && (x->cv->kind != CK_INT || y->cv->kind != CK_INT))
			intdiv = false;
		Const *c = cbinary(n->pos, n->op, x->cv, y->cv, intdiv);
		if (!c)
			return fail(n);
		if (isuntyped(xt)) {
			int k = c->kind;
			n->type = k == CK_INT ? (xt->kind == T_UNTYPED_RUNE || yt->kind == T_UNTYPED_RUNE ? types[T_UNTYPED_RUNE] : types[T_UNTYPED_INT])
				  : k == CK_FLOAT ? types[T_UNTYPED_FLOAT] : k == CK_COMPLEX ? types[T_UNTYPED_COMPLEX] : xt;
			if (xt->kind == T_UNTYPED_FLOAT || yt->kind == T_UNTYPED_FLOAT)
				if (k == CK_INT && n->op != TK_REM)
					n->type = types[T_UNTYPED_FLOAT], c = cconvert(c, CK_FLOAT);
			if (k == CK_STRING)
				n->type = types[T_UNTYPED_STRING];
			if (k == CK_BOOL)
				n->type = types[T_UNTYPED_BOOL];
		} else if (isinteger(xt) && c->kind != CK_INT) {
			c = cconvert(c, CK_INT);
		}
		n->cv = c;
		constfits(n);
	}
	return n->type;
}

static bool hascall(Node *n) { return n && (n->flags & NF_HASCALL); }

static Type *checkunary(Node *n) {
	Node *x = n->a;
	if (n->op == TK_AND) {
		/* &T{...} is allowed; otherwise the operand must be addressable */
		Node *inner = x;
		while (inner->kind == N_PAREN)
			inner = inner->a;
		Type *t = rvalue(x);
		if (bad(t))
			return fail(n);
		if (inner->kind != N_COMPLIT && !(x->flags & NF_ADDRESSABLE)) {
			errorat(n->pos, "invalid operation: cannot take address of %s", opdesc(x));
			return fail(n);
		}
		if (inner->kind == N_IDENT && inner->obj && inner->obj->kind == O_VAR)
			inner->obj->addrtaken = true;
		n->type = ptrto(t);
		return n->type;
	}
	if (n->op == TK_ARROW) {
		Type *t = rvalue(x);
		if (bad(t))
			return fail(n);
		Type *u = under(t);
		if (u->kind != T_CHAN) {
			errorat(n->pos, "invalid operation: cannot receive from non-channel %s", opdesc(x));
			return fail(n);
		}
		if (u->len == 2) {
			errorat(n->pos, "invalid operation: cannot receive from send-only channel %s", opdesc(x));
			return fail(n);
		}
		n->flags |= NF_HASCALL;
		n->type = u->elem;
		return n->type;
	}
	Type *t = rvalue(x);
	if (bad(t))
		return fail(n);
	bool ok = n->op == TK_NOT ? isboolean(t) : n->op == TK_XOR ? isinteger(t) : isnumeric(t);
	if (!ok) {
		errorat(n->pos, "invalid operation: operator %s not defined on %s", opstr(n->op), opdesc(x));
		return fail(n);
	}
	n->type = t;
	if (hascall(x))
		n->flags |= NF_HASCALL;
	if (x->cv) {
		Const *c = cunary(n->pos, n->op, x->cv, t);
		if (!c)
			return fail(n);
		n->cv = c;
		constfits(n);
	}
	return t;
}

/* ---------------------------------------------------------------- selectors */

/* The type of the method expression T.M: sig with the receiver first. */
Type *methodtype(Type *recv, Type *sig) {
	Type *t = newtype(T_FUNC);
	Field *r = xalloc(sizeof *r);
	r->type = recv;
	vpush(&t->fields, r);
	for (int i = 0; i < sig->fields.n; i++)
		vpush(&t->fields, sig->fields.v[i]);
	t->results = sig->results;
	t->variadic = sig->variadic;
	return t;
}

bool reflectmethods;

static Type *checkselector(Node *n) {
	Node *x = n->a;
	/* reflect reaches a method's Method.Func and method value only from
	 * Type.Method/MethodByName and Value.Method/MethodByName: a program
	 * that names neither (of any type, outside reflect) never reads them */
	if ((!strcmp(n->name, "Method") || !strcmp(n->name, "MethodByName")) && curpkg && strcmp(curpkg->path, "reflect"))
		reflectmethods = true;
	/* a qualified identifier pkg.Name */
	if (x->kind == N_IDENT) {
		Obj *po = lookup(curscope, x->name);
		if (po && po->kind == O_PKG) {
			po->used = true;
			x->obj = po;
			x->flags |= NF_PKGNAME;
			Package *p = po->imported;
			Obj *o = p && p->scope ? lookuplocal(p->scope, n->name) : NULL;
			if (!o || (!exported(n->name) && p != unsafepkg)) {
				if (p && p->bad)
					;
				else if (o)
					errorat(n->pos, "name %s not exported by package %s", n->name, p->name);
				else
					errorat(n->pos, "undefined: %s.%s", x->name, n->name);
				return fail(n);
			}
			n->op = SEL_PKG;
			n->obj = o;
			switch (o->kind) {
			case O_CONST: n->cv = o->cv; n->type = o->type; break;
			case O_TYPE: n->flags |= NF_TYPE; n->type = o->type; break;
			case O_VAR: n->flags |= NF_VAR | NF_ADDRESSABLE; n->type = o->type; noteref(o); break;
			case O_FUNC: n->type = o->type; noteref(o); break;
			case O_BUILTIN: n->flags |= NF_BUILTIN; n->type = NULL; return NULL;
			}
			if (!n->type)
				return fail(n);
			return n->type;
		}
	}
	Type *xt = checkexpr(x);
	if (x->flags & NF_BUILTIN) { /* a built-in has no type: bad(xt) would say nothing */
		errorat(n->pos, "cannot select on %s (built-in)", exprstr(x));
		return fail(n);
	}
	if (bad(xt))
		return fail(n);
	if (x->flags & NF_NOVALUE || (xt && xt->kind == T_TUPLE)) {
		rvalue(x);
		return fail(n);
	}
	if (x->flags & NF_TYPE) {
		/* a method expression T.M or (*T).M */
		Vec path = {0};
		bool ptr = false, ind = false;
		Method *m = methodof(xt, n->name, &path, &ptr, &ind);
		if (!m) {
			errorat(n->pos, "%s.%s undefined (type %s has no method %s)", exprstr(x), n->name, ts(xt), n->name);
			return fail(n);
		}
		if (ptr && xt->kind != T_POINTER && !ind) {
			errorat(n->pos, "invalid method expression %s.%s (needs pointer receiver (*%s).%s)", exprstr(x), n->name,
				ts(xt), n->name);
			return fail(n);
		}
		n->op = SEL_METHODEXPR;
		n->path = path;
		n->meth = m;
		n->obj = m->fn;
		if (m->fn)
			noteref(m->fn);
		n->type = methodtype(xt, m->type);
		return n->type;
	}
	if (xt->kind == T_POINTER && under(xt->elem)->kind == T_POINTER) {
		errorat(n->pos, "%s.%s undefined (type %s has no field or method %s)", exprstr(x), n->name, ts(xt), n->name);
		return fail(n);
	}
	int kind = 0;
	Vec path = {0};
	bool ind = false;
	/* (x of a defined pointer type: lookupfieldormethod gives fields only) */
	Obj *o = lookupfieldormethod(xt, n->name, &path, &kind, &ind);
	if (kind == -1) {
		errorat(n->pos, "ambiguous selector %s.%s", exprstr(x), n->name);
		return fail(n);
	}
	if (!kind) {
		Type *xu = under(xt);
		if (xu->kind == T_POINTER && under(xu->elem)->kind == T_INTERFACE)
			errorat(n->pos, "%s.%s undefined (type %s is pointer to interface, not interface)", exprstr(x), n->name, ts(xt));
		else {
			/* a different capitalization is a common mistake: say so */
			const char *hint = "";
			char alt[256];
			snprintf(alt, sizeof alt, "%s", n->name);
			alt[0] = (char)(alt[0] >= 'a' && alt[0] <= 'z' ? alt[0] - 32 : alt[0] >= 'A' && alt[0] <= 'Z' ? alt[0] + 32 : alt[0]);
			int k2;
			Vec p2 = {0};
			bool i2;
			if (lookupfieldormethod(xt, intern(alt), &p2, &k2, &i2) || k2 > 0)
				hint = xprintf(", but does have %s %s", k2 == SEL_FIELD ? "field" : "method", alt);
			errorat(n->pos, "%s.%s undefined (type %s has no field or method %s%s)", exprstr(x), n->name, ts(xt), n->name, hint);
		}
		return fail(n);
	}
	n->op = kind;
	n->path = path;
	if (kind == SEL_FIELD) {
		n->obj = o;
		n->type = o->type;
		if ((x->flags & NF_ADDRESSABLE) || ind || under(xt)->kind == T_POINTER)
			n->flags |= NF_ADDRESSABLE | NF_VAR;
		if (hascall(x))
			n->flags |= NF_HASCALL;
		return n->type;
	}
	Method *m = (Method *)o->lit;
	n->meth = m;
	resolvemethod(m);
	if (kind == SEL_IMETHOD) {
		n->type = m->type;
		return n->type;
	}
	n->obj = m->fn;
	if (m->fn)
		noteref(m->fn);
	/* how the receiver is reached: take its address for a pointer method,
	 * dereference a pointer for a value method */
	Type *rt = xt;
	for (int i = 0; i < path.n; i++)
		rt = ((Field *)path.v[i])->type;
	bool rptr = under(rt)->kind == T_POINTER && rt->kind != T_NAMED;
	if (m->ptrrecv && !rptr) {
		bool addressable = (x->flags & NF_ADDRESSABLE) || path.n > 0 ? ((x->flags & NF_ADDRESSABLE) || ind) : false;
		if (path.n == 0)
			addressable = x->flags & NF_ADDRESSABLE;
		if (!addressable) {
			errorat(n->pos, "cannot call pointer method %s on %s", n->name, ts(rt));
			return fail(n);
		}
		n->ival |= RECV_ADDR;
		Node *inner = x;
		while (inner->kind == N_PAREN)
			inner = inner->a;
		if (path.n == 0 && inner->kind == N_IDENT && inner->obj && inner->obj->kind == O_VAR)
			inner->obj->addrtaken = true;
	} else if (!m->ptrrecv && rptr) {
		n->ival |= RECV_DEREF;
	}
	n->type = m->type;
	return n->type;
}

/* ---------------------------------------------------------------- index, slice */

static Type *checkindex(Node *n) {
	Node *x = n->a;
	Type *xt = checkexpr(x);
	if (bad(xt))
		return fail(n);
	if (x->flags & NF_TYPE) {
		errorat(n->pos, "%s is not a generic type", ts(xt));
		return fail(n);
	}
	rvalue(x);
	Type *u = under(xt);
	if (hascall(x))
		n->flags |= NF_HASCALL;
	switch (u->kind) {
	case T_STRING: case T_UNTYPED_STRING: {
		int64_t bound = x->cv ? x->cv->slen : -1;
		int64_t v = checkindexval(n->b, "index", bound);
		if (v == -2)
			return fail(n);
		if (x->cv && n->b->cv)
			n->cv = NULL; /* indexing a constant string is not a constant */
		if (isuntyped(xt))
			convertuntyped(x, types[T_STRING]);
		n->type = t_byte;
		return n->type;
	}
	case T_ARRAY:
		if (checkindexval(n->b, "index", u->len) == -2)
			return fail(n);
		n->type = u->elem;
		if (x->flags & NF_ADDRESSABLE)
			n->flags |= NF_ADDRESSABLE | NF_VAR;
		return n->type;
	case T_POINTER:
		if (under(u->elem)->kind == T_ARRAY) {
			Type *a = under(u->elem);
			if (checkindexval(n->b, "index", a->len) == -2)
				return fail(n);
			n->type = a->elem;
			n->flags |= NF_ADDRESSABLE | NF_VAR;
			return n->type;
		}
		break;
	case T_SLICE:
		if (checkindexval(n->b, "index", -1) == -2)
			return fail(n);
		n->type = u->elem;
		n->flags |= NF_ADDRESSABLE | NF_VAR;
		return n->type;
	case T_MAP: {
		Type *kt = rvalue(n->b);
		if (bad(kt))
			return fail(n);
		assignop(n->b, u->key, "map index");
		n->type = u->elem;
		n->flags |= NF_MAPINDEX;
		return n->type;
	}
	}
	errorat(n->pos, "invalid operation: cannot index %s", opdesc(x));
	return fail(n);
}

static Type *checkslice(Node *n) {
	Node *x = n->a;
	Type *xt = rvalue(x);
	if (bad(xt))
		return fail(n);
	Type *u = under(xt);
	int64_t cap = -1;
	Type *rt = NULL;
	switch (u->kind) {
	case T_STRING: case T_UNTYPED_STRING:
		if (n->op == 3) {
			errorat(n->pos, "invalid operation: 3-index slice of string");
			return fail(n);
		}
		if (x->cv)
			cap = x->cv->slen;
		if (isuntyped(xt)) {
			convertuntyped(x, types[T_STRING]);
			xt = x->type;
		}
		rt = xt;
		break;
	case T_ARRAY:
		if (!(x->flags & NF_ADDRESSABLE)) {
			errorat(n->pos, "invalid operation: %s (slice of unaddressable value)", exprstr(n));
			return fail(n);
		}
		cap = u->len;
		rt = sliceof(u->elem);
		{
			Node *inner = x;
			while (inner->kind == N_PAREN)
				inner = inner->a;
			if (inner->kind == N_IDENT && inner->obj && inner->obj->kind == O_VAR)
				inner->obj->addrtaken = true;
		}
		break;
	case T_POINTER:
		if (under(u->elem)->kind == T_ARRAY) {
			cap = under(u->elem)->len;
			rt = sliceof(under(u->elem)->elem);
		}
		break;
	case T_SLICE:
		rt = xt;
		break;
	}
	if (!rt) {
		errorat(n->pos, "cannot slice %s", opdesc(x));
		return fail(n);
	}
	int64_t v[3] = {-1, -1, -1};
	Node *ix[3] = {n->b, n->c, n->d};
	for (int i = 0; i < 3; i++) {
		if (!ix[i])
			continue;
		v[i] = checkindexval(ix[i], "index", cap >= 0 ? cap + 1 : -1);
		if (v[i] == -2)
			return fail(n);
	}
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (v[i] >= 0 && v[j] >= 0 && v[i] > v[j]) {
				errorat(ix[j]->pos, "invalid slice indices: %lld < %lld", (long long)v[j], (long long)v[i]);
				return fail(n);
			}
	n->type = rt;
	return rt;
}

/* ---------------------------------------------------------------- composite literals */

Type *checkcomplit(Node *n, Type *elided);

/* An element of a composite literal, to be assigned to type t (an elided
 * literal's type is t). */
static void checkelem(Node *v, Type *t, const char *context) {
	if (v->kind == N_COMPLIT && !v->a)
		checkcomplit(v, t);
	else if (!bad(rvalue(v)))
		assignop(v, t, context);
}

/* The type a composite literal makes: written, [...]T with the length
 * still open, or elided (an element of an outer literal; &T for *T). */
static Type *complittype(Node *n, Type *elided) {
	if (n->a) {
		if (n->a->kind == N_ARRAYTYPE && n->a->a && n->a->a->kind == N_ELLIPSIS) {
			Type *et = typexpr(n->a->b);
			n->a->flags |= NF_TYPE;
			return arrayof(et, -1); /* length from the elements, checkarraylit */
		}
		return typexpr(n->a);
	}
	if (elided) {
		if (under(elided)->kind == T_POINTER) {
			n->flags |= NF_IMPLICITADDR;
			return under(elided)->elem;
		}
		return elided;
	}
	errorat(n->pos, "invalid composite literal type: missing type");
	return NULL;
}

/* T{f: v, ...} */
static void checkkeyedstructlit(Node *n, Type *t, Type *u) {
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		if (e->kind != N_KEYVAL) {
			errorat(e->pos, "mixture of field:value and value elements in struct literal");
			continue;
		}
		if (e->a->kind != N_IDENT) {
			errorat(e->a->pos, "invalid field name %s in struct literal", exprstr(e->a));
			continue;
		}
		Field *f = NULL;
		for (int j = 0; j < u->fields.n; j++) {
			Field *g = u->fields.v[j];
			if (g->name == e->a->name)
				f = g;
		}
		if (!f) {
			errorat(e->a->pos, "unknown field %s in struct literal of type %s", e->a->name, ts(t));
			if (e->b->kind != N_COMPLIT || e->b->a)
				rvalue(e->b);
			continue;
		}
		if (!exported(f->name) && f->pkg != curpkg)
			errorat(e->a->pos, "cannot refer to unexported field %s in struct literal of type %s", f->name, ts(t));
		for (int j = 0; j < i; j++) {
			Node *d = n->list.v[j];
			if (d->kind == N_KEYVAL && d->a->kind == N_IDENT && d->a->name == f->name)
				errorat(e->a->pos, "duplicate field name %s in struct literal", f->name);
		}
		e->a->obj = f->obj;
		e->a->type = f->type;
		e->aux = f;
		checkelem(e->b, f->type, "struct literal");
	}
}

/* T{v, ...}: every field, in order */
static void checkpositionalstructlit(Node *n, Type *t, Type *u) {
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		if (e->kind == N_KEYVAL) {
			errorat(e->pos, "mixture of field:value and value elements in struct literal");
			continue;
		}
		if (i >= u->fields.n) {
			errorat(e->pos, "too many values in struct literal of type %s", ts(t));
			break;
		}
		Field *f = u->fields.v[i];
		if (!exported(f->name) && f->pkg != curpkg)
			errorat(e->pos, "implicit assignment to unexported field %s in struct literal of type %s", f->name, ts(t));
		checkelem(e, f->type, "struct literal");
	}
	if (n->list.n < u->fields.n)
		errorat(((Node *)n->list.v[n->list.n - 1])->pos, "too few values in struct literal of type %s", ts(t));
}

/* [n]T{...}, [...]T{...}, []T{...}: each element's index into n->path, in
 * order; a duplicate index is an error (found in a hash set: a table of
 * 100,000 elements is checked in linear time). */
static void checkarraylit(Node *n, Type *u) {
	int64_t idx = 0, max = 0;
	int64_t len = u->kind == T_ARRAY ? u->len : -1;
	PtrMap seen = {0}; /* index + 1 → itself */
	n->path.n = 0; /* rebuilt if the literal is checked again */
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		Node *v = e;
		if (e->kind == N_KEYVAL) {
			int64_t k = checkindexval(e->a, "index", len);
			if (k >= 0)
				idx = k;
			else if (k == -1)
				errorat(e->a->pos, "index %s must be integer constant", exprstr(e->a));
			v = e->b;
		} else if (len >= 0 && idx >= len)
			errorat(e->pos, "index %lld out of bounds [0:%lld]", (long long)idx, (long long)len);
		void *key = (void *)(intptr_t)(idx + 1);
		if (pmget(&seen, key))
			errorat(e->pos, "duplicate index %lld in array or slice literal", (long long)idx);
		pmput(&seen, key, key);
		vpush(&n->path, (void *)(intptr_t)idx);
		checkelem(v, u->elem, "array or slice literal");
		idx++;
		if (idx > max)
			max = idx;
	}
	if (u->kind == T_ARRAY && u->len < 0) {
		u->len = max;
		layout(u);
	}
	n->ival = max;
}

/* The value's hash for a ConstSet (check.h).  Equal constants of one kind
 * have one representation for integers (Big's fixed words), strings and
 * booleans; a float or complex value has more than one (an exact rational
 * and an exponent), so those share one bucket and are compared one by one. */
static uint64_t consthash(const Const *c) {
	uint64_t h = 14695981039346656037ull ^ (uint64_t)c->kind;
	switch (c->kind) {
	case CK_BOOL:
		h ^= c->b;
		break;
	case CK_INT:
		for (int i = 0; i < BIGW; i++)
			h = (h ^ c->i.w[i]) * 1099511628211ull;
		break;
	case CK_STRING:
		for (int64_t i = 0; i < c->slen; i++)
			h = (h ^ (uint8_t)c->s[i]) * 1099511628211ull;
		break;
	}
	return h | 1; /* PtrMap's keys are never 0 */
}

Node *constsetadd(ConstSet *s, Node *e) {
	const void *key = (const void *)(uintptr_t)consthash(e->cv);
	Vec *b = pmget(&s->byhash, key);
	if (b == NULL) {
		b = xalloc(sizeof *b);
		pmput(&s->byhash, key, b);
	}
	for (int j = 0; j < b->n; j++) {
		Node *k = b->v[j];
		if (k->cv->kind == e->cv->kind && identical(k->type, e->type) && ccompare(TK_EQL, k->cv, e->cv))
			return k;
	}
	vpush(b, e);
	return NULL;
}

/* map[K]V{k: v, ...}: constant keys must differ */
static void checkmaplit(Node *n, Type *u) {
	ConstSet keys = {0};
	for (int i = 0; i < n->list.n; i++) {
		Node *e = n->list.v[i];
		if (e->kind != N_KEYVAL) {
			errorat(e->pos, "missing key in map literal");
			continue;
		}
		checkelem(e->a, u->key, "map literal");
		if (e->a->cv && constsetadd(&keys, e->a))
			errorat(e->a->pos, "duplicate key %s in map literal", exprstr(e->a));
		checkelem(e->b, u->elem, "map literal");
	}
}

Type *checkcomplit(Node *n, Type *elided) {
	Type *t = complittype(n, elided);
	if (!t || bad(t))
		return fail(n);
	Type *u = under(t);
	switch (u->kind) {
	case T_STRUCT:
		if (n->list.n && ((Node *)n->list.v[0])->kind == N_KEYVAL)
			checkkeyedstructlit(n, t, u);
		else if (n->list.n)
			checkpositionalstructlit(n, t, u);
		break;
	case T_ARRAY:
	case T_SLICE:
		checkarraylit(n, u);
		break;
	case T_MAP:
		checkmaplit(n, u);
		break;
	default:
		errorat(n->pos, "invalid composite literal type %s", ts(t));
		return fail(n);
	}
	n->type = n->flags & NF_IMPLICITADDR ? ptrto(t) : t;
	return n->type;
}

/* ---------------------------------------------------------------- conversions */

static bool convertible(Type *v, Type *t, Node *x) {
	if (assignable(v, t, NULL))
		return true;
	Type *vu = under(v), *tu = under(t);
	if (identical(vu, tu))
		return true;
	if (vu->kind == T_POINTER && tu->kind == T_POINTER && identical(under(vu->elem), under(tu->elem)))
		return true;
	if (isnumeric(vu) && isnumeric(tu))
		return true;
	if (isstring(tu)) {
		if (isinteger(vu))
			return true;
		if (vu->kind == T_SLICE && (under(vu->elem)->kind == T_UINT8 || under(vu->elem)->kind == T_INT32))
			return true;
	}
	if (isstring(vu) && tu->kind == T_SLICE && (under(tu->elem)->kind == T_UINT8 || under(tu->elem)->kind == T_INT32))
		return true;
	if (tu->kind == T_UNSAFEPTR && (vu->kind == T_POINTER || vu->kind == T_UINTPTR))
		return true;
	if (vu->kind == T_UNSAFEPTR && (tu->kind == T_POINTER || tu->kind == T_UINTPTR))
		return true;
	if (vu->kind == T_SLICE && tu->kind == T_ARRAY && identical(vu->elem, tu->elem))
		return true;
	if (vu->kind == T_SLICE && tu->kind == T_POINTER && under(tu->elem)->kind == T_ARRAY &&
	    identical(vu->elem, under(tu->elem)->elem))
		return true;
	(void)x;
	return false;
}

static Type *checkconversion(Node *n, Type *t) {
	n->flags |= NF_CONVERSION;
	if (n->list.n != 1 || n->op) {
		if (n->list.n == 0)
			errorat(n->pos, "missing argument in conversion to %s", ts(t));
		else
			errorat(((Node *)n->list.v[n->list.n - 1])->pos, "too many arguments in conversion to %s", ts(t));
		return fail(n);
	}
	Node *x = n->list.v[0];
	Type *v = rvalue(x);
	if (bad(v) || bad(t))
		return fail(n);
	if (hascall(x))
		n->flags |= NF_HASCALL;
	Type *tu = under(t);
	n->type = t;
	if (x->cv && isconstkind(tu) && tu->kind != T_UNTYPED_NIL) {
		/* constant conversions yield constants */
		if (isstring(tu) && isinteger(v) && x->cv->kind == CK_INT) {
			i128 r = ctoint(x->cv);
			char buf[8];
			int len;
			uint32_t c = (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r < 0xE000)) ? 0xFFFD : (uint32_t)r;
			if (c < 0x80) buf[0] = (char)c, len = 1;
			else if (c < 0x800) buf[0] = (char)(0xC0 | c >> 6), buf[1] = (char)(0x80 | (c & 0x3F)), len = 2;
			else if (c < 0x10000)
				buf[0] = (char)(0xE0 | c >> 12), buf[1] = (char)(0x80 | ((c >> 6) & 0x3F)), buf[2] = (char)(0x80 | (c & 0x3F)), len = 3;
			else
				buf[0] = (char)(0xF0 | c >> 18), buf[1] = (char)(0x80 | ((c >> 12) & 0x3F)),
				buf[2] = (char)(0x80 | ((c >> 6) & 0x3F)), buf[3] = (char)(0x80 | (c & 0x3F)), len = 4;
			n->cv = cstring(xstrndup(buf, (size_t)len), len);
			if (isuntyped(v))
				convertuntyped(x, defaulttype(v));
			return t;
		}
		if (isnumeric(tu) && (x->cv->kind == CK_INT || x->cv->kind == CK_FLOAT || x->cv->kind == CK_COMPLEX)) {
			Const *c = x->cv, *r = NULL;
			if (isinteger(tu) && !cisint(c)) {
				if (isuntyped(v))
					errorat(x->pos, "cannot convert %s to type %s (truncated)", opdesc(x), ts(t));
				else
					goto runtime; /* typed float constant to int converts at run time semantics: truncate */
				return fail(n);
			}
			if (isinteger(tu) && c->kind != CK_INT)
				x->cv = c = cconvert(c, CK_INT); /* Go shows the integer in the message */
			if (!crepresentable(c, t, &r)) {
				errorat(x->pos, "cannot convert %s to type %s (overflows)", opdesc(x), ts(t));
				return fail(n);
			}
			n->cv = r;
			if (isuntyped(v))
				x->type = t;
			return t;
		}
		if ((isstring(tu) && x->cv->kind == CK_STRING) || (isboolean(tu) && x->cv->kind == CK_BOOL)) {
			n->cv = x->cv;
			if (isuntyped(v))
				x->type = t;
			return t;
		}
	}
runtime:
	if (isuntyped(v)) {
		if (x->flags & NF_NIL) {
			if (!hasnil(t)) {
				errorat(x->pos, "cannot convert nil to type %s", ts(t));
				return fail(n);
			}
			x->type = t;
			return t;
		}
		Type *target = isnumeric(tu) || isstring(tu) || isboolean(tu) ? t : defaulttype(v);
		if (isstring(tu) && isinteger(v))
			target = defaulttype(v);
		if (!convertible(defaulttype(v), t, x)) {
			errorat(x->pos, "cannot convert %s to type %s", opdesc(x), ts(t));
			return fail(n);
		}
		convertuntyped(x, target);
		return t;
	}
	if (!convertible(v, t, x)) {
		errorat(x->pos, "cannot convert %s to type %s", opdesc(x), ts(t));
		return fail(n);
	}
	return t;
}

/* ---------------------------------------------------------------- calls */

/* Check the arguments of a call against a signature.  Arguments that are
 * a single multi-valued call are spread over the parameters. */
static void checkargs(Node *n, Type *sig, const char *fname) {
	Vec *args = &n->list;
	int np = sig->fields.n;
	Vec atypes = {0}; /* the type of each argument value */
	Vec anodes = {0};
	if (args->n == 1 && ((Node *)args->v[0])->kind == N_CALL) {
		Node *a0 = args->v[0];
		Type *t = checkexpr(a0);
		if (t && t->kind == T_TUPLE) {
			for (int i = 0; i < t->fields.n; i++) {
				vpush(&atypes, ((Field *)t->fields.v[i])->type);
				vpush(&anodes, a0);
			}
			n->flags |= NF_SPREAD;
			if (n->op)
				errorat(n->pos, "can only use ... with final argument in list");
			goto match;
		}
	}
	for (int i = 0; i < args->n; i++) {
		Node *a = args->v[i];
		Type *pt = NULL;
		if (i < np)
			pt = ((Field *)sig->fields.v[i])->type;
		if (sig->variadic && i >= np - 1 && !n->op)
			pt = ((Field *)sig->fields.v[np - 1])->type->elem;
		if (a->kind == N_FUNCLIT || !pt)
			rvalue(a);
		else
			rvalue(a);
		vpush(&atypes, a->type);
		vpush(&anodes, a);
	}
match:;
	int na = atypes.n;
	bool spread = n->flags & NF_SPREAD;
	if (n->op && !sig->variadic) {
		errorat(n->pos, "have (...) but function is not variadic: %s", fname);
		return;
	}
	int min = sig->variadic && !n->op ? np - 1 : np;
	if (na < min || (!sig->variadic && na > np) || (n->op && na != np)) {
		Buf have = {0};
		bputc(&have, '(');
		for (int i = 0; i < na; i++) {
			if (i)
				bput(&have, ", ");
			Type *t = atypes.v[i];
			Node *an = anodes.v[i];
			bput(&have, t ? (an->cv && isuntyped(t) ? "number" : ts(t)) : "?");
			if (an->cv && isuntyped(t) && t->kind == T_UNTYPED_STRING)
				have.n -= 6, bput(&have, "string");
		}
		bputc(&have, ')');
		Buf want = {0};
		bputc(&want, '(');
		for (int i = 0; i < np; i++) {
			if (i)
				bput(&want, ", ");
			Field *f = sig->fields.v[i];
			if (sig->variadic && i == np - 1) {
				bput(&want, "...");
				bput(&want, ts(f->type->elem));
			} else
				bput(&want, ts(f->type));
		}
		bputc(&want, ')');
		Pos p = n->pos;
		if (na > np && !spread && np < args->n)
			p = ((Node *)args->v[np])->pos;
		errorat(p, "%s arguments in call to %s\n\thave %s\n\twant %s", na < min ? "not enough" : "too many", fname,
			bstr(&have), bstr(&want));
		return;
	}
	if (spread) {
		for (int i = 0; i < na; i++) {
			Type *pt = i < np ? ((Field *)sig->fields.v[i])->type : NULL;
			if (sig->variadic && i >= np - 1)
				pt = ((Field *)sig->fields.v[np - 1])->type->elem;
			const char *why = NULL;
			if (!assignable(atypes.v[i], pt, &why))
				errorat(n->pos, "cannot use %s (value of type %s) as %s value in argument to %s", exprstr(anodes.v[i]),
					ts(atypes.v[i]), ts(pt), fname);
		}
		return;
	}
	for (int i = 0; i < na; i++) {
		Node *a = anodes.v[i];
		Type *pt = i < np ? ((Field *)sig->fields.v[i])->type : NULL;
		if (sig->variadic && i >= np - 1 && !n->op)
			pt = ((Field *)sig->fields.v[np - 1])->type->elem;
		if (!pt || bad(a->type))
			continue;
		assignop(a, pt, xprintf("argument to %s", fname));
	}
}

Type *checkcall(Node *n) {
	Node *fn = n->a;
	Type *ft = checkexpr(fn);
	n->flags |= NF_HASCALL;
	if (fn->flags & NF_TYPE) {
		if (bad(ft))
			return fail(n);
		return checkconversion(n, ft);
	}
	if (fn->flags & NF_BUILTIN)
		return checkbuiltin(n, fn->obj->builtin);
	if (fn->flags & NF_NOVALUE) { /* f()(): before bad(), which a missing type is */
		errorat(startpos(fn), "%s (no value) used as value or type", exprstr(fn));
		return fail(n);
	}
	if (bad(ft)) {
		for (int i = 0; i < n->list.n; i++)
			checkexpr(n->list.v[i]);
		return fail(n);
	}
	Type *u = under(ft);
	if (u->kind != T_FUNC) {
		errorat(startpos(fn), "invalid operation: cannot call non-function %s", opdesc(fn));
		for (int i = 0; i < n->list.n; i++)
			checkexpr(n->list.v[i]);
		return fail(n);
	}
	checkargs(n, u, exprstr(fn));
	if ((fn->kind == N_IDENT || (fn->kind == N_SELECTOR && fn->op == SEL_PKG)) && fn->obj && fn->obj->kind == O_FUNC &&
	    fn->obj->decl && (fn->obj->decl->op & DIR_EXTERN))
		checkexterncall(n, fn->obj);
	if (fn->kind == N_SELECTOR && fn->op == SEL_PKG && fn->obj && fn->obj->kind == O_FUNC && fn->obj->pkg &&
	    !strcmp(fn->obj->pkg->path, "ffi") && !strcmp(fn->obj->name, "Callback"))
		checkcallbackcall(n);
	int nr = u->results.n;
	if (nr == 0) {
		n->flags |= NF_NOVALUE;
		n->type = NULL;
		return NULL;
	}
	if (nr == 1) {
		n->type = ((Field *)u->results.v[0])->type;
		return n->type;
	}
	Vec ts_ = {0};
	for (int i = 0; i < nr; i++)
		vpush(&ts_, ((Field *)u->results.v[i])->type);
	n->type = tupleof(&ts_);
	return n->type;
}

/* ---------------------------------------------------------------- dispatch */

static Type *checkexpr1(Node *n);

/* Expressions nest without brackets too (a + a + ... , !!!!x): bounded,
 * so that glc never runs out of stack. */
Type *checkexpr(Node *n) {
	static int depth;
	if (!n)
		return t_bad;
	if (depth > 2000) {
		errorat(n->pos, "expression nesting too deep");
		n->type = t_bad;
		return t_bad;
	}
	depth++;
	Type *t = checkexpr1(n);
	depth--;
	return t;
}

static Type *checkexpr1(Node *n) {
	/* checking these has effects (func literals are registered, elided
	 * literal types recorded): a second visit returns the first answer */
	if ((n->kind == N_CALL || n->kind == N_FUNCLIT || n->kind == N_COMPLIT) && (n->flags & NF_CHECKED))
		return n->type;
	if (n->kind == N_CALL || n->kind == N_FUNCLIT || n->kind == N_COMPLIT)
		n->flags |= NF_CHECKED;
	switch (n->kind) {
	case N_IDENT:
		return checkident(n);
	case N_INTLIT:
		n->cv = parseintlit(n->pos, n->lit);
		n->type = types[T_UNTYPED_INT];
		return n->type;
	case N_FLOATLIT:
		n->cv = parsefloatlit(n->pos, n->lit);
		n->type = types[T_UNTYPED_FLOAT];
		return n->type;
	case N_IMAGLIT:
		n->cv = parseimaglit(n->pos, n->lit);
		n->type = types[T_UNTYPED_COMPLEX];
		return n->type;
	case N_RUNELIT:
		n->cv = cint(n->ival);
		n->type = types[T_UNTYPED_RUNE];
		return n->type;
	case N_STRLIT:
		n->cv = cstring(n->lit, n->litlen);
		n->type = types[T_UNTYPED_STRING];
		return n->type;
	case N_PAREN: {
		Type *t = checkexpr(n->a);
		n->type = t;
		n->cv = n->a->cv;
		n->flags = n->a->flags & (NF_TYPE | NF_ADDRESSABLE | NF_VAR | NF_BUILTIN | NF_NOVALUE | NF_NIL | NF_HASCALL | NF_MAPINDEX);
		n->obj = n->a->obj;
		return t;
	}
	case N_FUNCLIT:
		checkfunclit(n);
		n->flags |= NF_HASCALL;
		return n->type;
	case N_COMPLIT:
		return checkcomplit(n, NULL);
	case N_SELECTOR:
		return checkselector(n);
	case N_INDEX:
		return checkindex(n);
	case N_SLICEEXPR:
		return checkslice(n);
	case N_TYPEASSERT: {
		if (!n->b) {
			errorat(n->pos, "invalid syntax tree: use of .(type) outside type switch");
			checkexpr(n->a);
			return fail(n);
		}
		Type *xt = rvalue(n->a);
		Type *t = typexpr(n->b);
		if (bad(xt) || bad(t))
			return fail(n);
		if (!isinterface(xt)) {
			errorat(n->a->pos, "invalid operation: %s is not an interface", opdesc(n->a));
			return fail(n);
		}
		if (!isinterface(t)) {
			const char *why = NULL;
			if (!implements(t, xt, &why)) {
				errorat(n->b->pos, "impossible type assertion: %s\n\t%s", exprstr(n), why ? why : "");
				return fail(n);
			}
		}
		n->type = t;
		n->flags |= NF_HASCALL;
		return t;
	}
	case N_CALL:
		return checkcall(n);
	case N_STAR: {
		Type *t = checkexpr(n->a);
		if (n->a->flags & NF_NOVALUE) { /* *f() of a call with no value */
			errorat(startpos(n->a), "%s (no value) used as value or type", exprstr(n->a));
			return fail(n);
		}
		if (bad(t))
			return fail(n);
		if (n->a->flags & NF_TYPE) {
			n->flags |= NF_TYPE;
			n->type = ptrto(t);
			return n->type;
		}
		t = rvalue(n->a);
		if (bad(t))
			return fail(n);
		if (n->a->flags & NF_NIL) {
			errorat(n->pos, "invalid operation: cannot indirect nil");
			return fail(n);
		}
		if (under(t)->kind != T_POINTER) {
			errorat(n->pos, "invalid operation: cannot indirect %s", opdesc(n->a));
			return fail(n);
		}
		n->type = under(t)->elem;
		n->flags |= NF_ADDRESSABLE | NF_VAR;
		if (hascall(n->a))
			n->flags |= NF_HASCALL;
		return n->type;
	}
	case N_UNARY:
		return checkunary(n);
	case N_BINARY:
		return checkbinary(n);
	case N_KEYVAL:
		errorat(n->pos, "unexpected key:value expression");
		return fail(n);
	case N_ARRAYTYPE: case N_MAPTYPE: case N_CHANTYPE: case N_FUNCTYPE: case N_STRUCTTYPE: case N_IFACETYPE:
		return typexpr(n);
	case N_ELLIPSIS:
		errorat(n->pos, "invalid use of ...");
		return fail(n);
	}
	errorat(n->pos, "unexpected %s", nodekindname(n->kind));
	return fail(n);
}
