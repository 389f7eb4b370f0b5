/* check.c — type checking of packages, declarations and statements.
 *
 * Package-level objects are collected first and checked on demand (objdecl),
 * so declaration order does not matter, as in Go; then function bodies are
 * checked, then the initialization order of package variables is computed
 * from the references each initializer makes (through functions too).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse.h"

Package *curpkg;
Scope *curscope;
Vec allpackages;
static Obj *curdecl;        /* package-level var or func whose code is being checked */
static const char *blank;

static Type *tupleof_results(Type *sig) {
	Vec ts = {0};
	for (int i = 0; i < sig->results.n; i++)
		vpush(&ts, ((Field *)sig->results.v[i])->type);
	return tupleof(&ts);
}

Scope *openscope(void) {
	curscope = newscope(curscope);
	return curscope;
}

/* Closing a scope reports its unused local variables. */
void closescope(void) {
	for (int i = 0; i < curscope->objs.n; i++) {
		Obj *o = curscope->objs.v[i];
		if (o->kind == O_VAR && !o->used && !o->param && !o->result && !o->global && o->name != blank)
			errorat(o->pos, "declared and not used: %s", o->name);
	}
	curscope = curscope->parent;
}

void markused(Obj *o) { o->used = true; }

void noteref(Obj *o) {
	if (!curdecl || !o || o == curdecl)
		return;
	if (!((o->kind == O_VAR && o->global) || (o->kind == O_FUNC && o->decl)))
		return;
	for (int i = 0; i < curdecl->refs.n; i++)
		if (curdecl->refs.v[i] == o)
			return;
	vpush(&curdecl->refs, o);
}

static void redeclared(Obj *o, Obj *prev) {
	errorat(o->pos, "%s redeclared in this block", o->name);
	(void)prev;
}

FuncInfo *newfuncinfo(Node *node, Type *sig) {
	FuncInfo *fi = xalloc(sizeof *fi);
	fi->node = node;
	fi->sig = sig;
	fi->pkg = curpkg;
	node->aux = fi;
	return fi;
}

Obj *declarelocal(Node *id, Type *t, int kind) {
	Obj *o = newobj(kind, id->name, id->pos);
	o->type = t;
	o->pkg = curpkg;
	id->obj = o;
	if (curfn) {
		o->fnlit = curfn->node;
		if (kind == O_VAR)
			vpush(&curfn->locals, o);
	}
	if (id->name == blank)
		return o;
	Obj *prev = lookuplocal(curscope, id->name);
	if (prev) {
		redeclared(o, prev);
		return o;
	}
	declare(curscope, o);
	return o;
}

/* ---------------------------------------------------------------- declarations */

typedef struct Saved {
	Scope *scope;
	FuncInfo *fn;
	int64_t iota;
	Obj *decl;
} Saved;

static Saved save(void) { return (Saved){curscope, curfn, curiota, curdecl}; }
static void restore(Saved s) {
	curscope = s.scope;
	curfn = s.fn;
	curiota = s.iota;
	curdecl = s.decl;
}

/* a call (possibly parenthesized): may yield several values */
static bool iscalllike(Node *e) {
	while (e->kind == N_PAREN)
		e = e->a;
	return e->kind == N_CALL;
}

static bool commaokable(Node *e) {
	while (e->kind == N_PAREN)
		e = e->a;
	return e->kind == N_INDEX || e->kind == N_TYPEASSERT || (e->kind == N_UNARY && e->op == TK_ARROW);
}

/* v, ok = (<-c): parentheses do not change a comma-ok form.  They are
 * dropped from the tree, so that every later look (the variables' types,
 * the emitter) finds the form itself. */
static void unparencommaok(Vec *rhs, int nl) {
	if (nl != 2 || rhs->n != 1)
		return;
	Node *e = rhs->v[0];
	while (e->kind == N_PAREN)
		e = e->a;
	if (commaokable(e))
		rhs->v[0] = e;
}

/* v := f() where f returns several values: Go's assignment-mismatch message */
static bool singlemismatch(Node *at, Node *r) {
	Node *c = r;
	while (c->kind == N_PAREN)
		c = c->a;
	if (c->kind != N_CALL)
		return false;
	Type *t = checkexpr(r);
	if (t && t->kind == T_TUPLE) {
		errorat(at->pos, "assignment mismatch: 1 variable but %s returns %d values", exprstr(c->a), t->fields.n);
		return true;
	}
	return false;
}

static void checkconstspec(Obj *o) {
	Node *spec = o->decl;
	Node *src = spec->orig ? spec->orig : spec;
	int idx = -1;
	for (int i = 0; i < spec->list.n; i++)
		if (((Node *)spec->list.v[i])->obj == o)
			idx = i;
	Type *t = src->a ? typexpr(src->a) : NULL;
	if (t && !bad(t) && !isconstkind(t)) {
		errorat(src->a->pos, "invalid constant type %s", ts(t));
		o->type = t_bad;
		return;
	}
	if (idx < 0 || idx >= src->list2.n) {
		if (idx >= src->list2.n && src->list2.n)
			errorat(o->pos, "missing init expr for const declaration");
		else if (!src->list2.n)
			errorat(o->pos, "missing init expr for const declaration");
		o->type = t_bad;
		return;
	}
	Node *e = src->list2.v[idx];
	if (spec->orig) /* an implicit repetition: checked anew, with its own iota */
		e = clonetree(e);
	curiota = spec->ival;
	Type *et = rvalue(e);
	curiota = -1;
	if (bad(et)) {
		o->type = t_bad;
		return;
	}
	if (!e->cv) {
		errorat(e->pos, "%s is not constant", opdesc(e));
		o->type = t_bad;
		return;
	}
	if (t) {
		if (!assignop(e, t, "constant declaration")) {
			o->type = t_bad;
			return;
		}
		o->type = t;
	} else
		o->type = et;
	o->cv = e->cv;
}

/* Check a var spec (package-level or local): returns the type for each name. */
static void checkvarspec(Node *spec, Vec *objs) {
	Type *t = spec->a ? typexpr(spec->a) : NULL;
	int nn = spec->list.n, nv = spec->list2.n;
	unparencommaok(&spec->list2, nn);
	if (nv == 0) {
		for (int i = 0; i < objs->n; i++)
			((Obj *)objs->v[i])->type = t ? t : t_bad;
		return;
	}
	if (nv == 1 && nn > 1 && !iscalllike(spec->list2.v[0])) {
		Node *e = spec->list2.v[0];
		checkexpr(e);
		if (!commaokable(e) || nn != 2) {
			errorat(((Node *)spec->list.v[0])->pos, "assignment mismatch: %d variables but 1 value", nn);
			for (int i = 0; i < objs->n; i++)
				((Obj *)objs->v[i])->type = t ? t : t_bad;
			return;
		}
	}
	if (nv == 1 && nn > 1) {
		Node *e = spec->list2.v[0];
		Type *et = checkexpr(e);
		int have = 1;
		if (e->kind == N_INDEX && e->type && !bad(e->type) && (e->flags & NF_MAPINDEX) && nn == 2) {
			e->flags |= NF_COMMAOK;
			et = NULL;
		} else if (e->kind == N_TYPEASSERT && nn == 2 && !bad(e->type)) {
			e->flags |= NF_COMMAOK;
			et = NULL;
		} else if (e->kind == N_UNARY && e->op == TK_ARROW && nn == 2 && !bad(e->type)) {
			e->flags |= NF_COMMAOK;
			et = NULL;
		} else if (et && et->kind == T_TUPLE) {
			have = et->fields.n;
		}
		if (et == NULL && (e->flags & NF_COMMAOK)) {
			Type *vt[2] = {e->type, types[T_BOOL]};
			for (int i = 0; i < 2; i++) {
				Obj *o = objs->v[i];
				o->type = t ? t : vt[i];
				if (t && i == 0 && !identical(t, vt[0])) {
					const char *why = NULL;
					(void)why;
					assignop(e, t, "variable declaration");
				}
			}
			return;
		}
		if (bad(et) || !et) {
			if (!bad(et) && (e->flags & NF_NOVALUE))
				errorat(e->pos, "%s (no value) used as value", exprstr(e));
			for (int i = 0; i < objs->n; i++)
				((Obj *)objs->v[i])->type = t ? t : t_bad;
			return;
		}
		if (have != nn) {
			errorat(((Node *)spec->list.v[0])->pos, "assignment mismatch: %d variables but %s returns %d value%s", nn,
				exprstr(e->kind == N_CALL ? e->a : e), have, have == 1 ? "" : "s");
			for (int i = 0; i < objs->n; i++)
				((Obj *)objs->v[i])->type = t ? t : t_bad;
			return;
		}
		for (int i = 0; i < nn; i++) {
			Obj *o = objs->v[i];
			Type *ft = ((Field *)et->fields.v[i])->type;
			o->type = t ? t : ft;
			if (t && !identical(t, ft)) {
				/* assignability of a tuple element */
				Node tmp = {0};
				tmp.kind = N_CALL;
				tmp.type = ft;
				tmp.pos = e->pos;
				tmp.a = e->a;
				assignop(&tmp, t, "variable declaration");
			}
		}
		return;
	}
	if (nv != nn) {
		Node *p = nv > nn ? spec->list2.v[nn] : spec->list.v[nv < nn ? nv : 0];
		errorat(p->pos, "assignment mismatch: %d variable%s but %d value%s", nn, nn == 1 ? "" : "s", nv, nv == 1 ? "" : "s");
		for (int i = 0; i < nv; i++)
			checkexpr(spec->list2.v[i]);
		for (int i = 0; i < objs->n; i++)
			((Obj *)objs->v[i])->type = t ? t : t_bad;
		return;
	}
	if (nn == 1 && nv == 1 && singlemismatch(spec->list.v[0], spec->list2.v[0])) {
		((Obj *)objs->v[0])->type = t ? t : t_bad;
		return;
	}
	for (int i = 0; i < nn; i++) {
		Node *e = spec->list2.v[i];
		Obj *o = objs->v[i];
		Type *et;
		if (e->kind == N_COMPLIT && !e->a && t)
			et = checkexpr(e);
		else
			et = rvalue(e);
		if (bad(et)) {
			o->type = t ? t : t_bad;
			continue;
		}
		if (t) {
			assignop(e, t, "variable declaration");
			o->type = t;
		} else {
			if (e->flags & NF_NIL) {
				errorat(e->pos, "use of untyped nil in variable declaration");
				o->type = t_bad;
				continue;
			}
			defaultuntyped(e);
			o->type = e->type;
		}
	}
}

static void checktypedecl(Obj *o) {
	Node *spec = o->decl;
	if (spec->op == 1) { /* alias */
		o->type = typexpr(spec->a);
		return;
	}
	Type *t = o->type; /* the T_NAMED created at collection */
	Type *u = typexpr(spec->a);
	if (u->kind == T_NAMED) {
		if (u->obj)
			objdecl(u->obj);
		u = under(u);
	}
	t->underlying = u;
	if (t->underlying == NULL)
		t->underlying = t_bad;
	/* a struct or array containing itself has no finite size */
	if (u->kind == T_STRUCT || u->kind == T_ARRAY) {
		t->layoutstate = 0;
	}
}

static void checkfuncdecl(Obj *o) {
	Node *d = o->decl;
	Type *sig = functypeof(d->b, NULL);
	o->type = sig;
	if (d->a) {
		Type *rt = typexpr(d->a->a);
		o->ptrrecv = rt->kind == T_POINTER;
	}
	if (o->ismethod) {
		Method *m = (Method *)o->lit;
		if (m)
			m->type = sig;
	}
}

void objdecl(Obj *o) {
	if (o->state == 2 || !o->decl || o->global == false ? (o->state == 2 || !o->decl) : false)
		return;
	if (o->state == 2)
		return;
	if (o->state == 1) {
		if (o->kind == O_TYPE || o->kind == O_FUNC)
			return;
		errorat(o->pos, "initialization cycle for %s", o->name);
		o->type = t_bad;
		o->state = 2;
		return;
	}
	if (!o->decl) {
		o->state = 2;
		return;
	}
	o->state = 1;
	Saved s = save();
	curscope = o->decl->scope ? o->decl->scope : curpkg->scope;
	curfn = NULL;
	curiota = -1;
	Package *savedpkg = curpkg;
	if (o->pkg && o->pkg != builtinpkg)
		curpkg = o->pkg;
	switch (o->kind) {
	case O_CONST:
		curdecl = NULL;
		checkconstspec(o);
		break;
	case O_VAR: {
		/* all the names of a package-level spec are checked together */
		Node *spec = o->decl;
		Vec objs = {0};
		for (int i = 0; i < spec->list.n; i++) {
			Obj *x = ((Node *)spec->list.v[i])->obj;
			vpush(&objs, x);
			if (x)
				x->state = 1;
		}
		curdecl = o;
		checkvarspec(spec, &objs);
		for (int i = 0; i < objs.n; i++) {
			Obj *x = objs.v[i];
			if (x && x != o) {
				x->state = 2;
				for (int j = 0; j < o->refs.n; j++)
					vpush(&x->refs, o->refs.v[j]);
			}
		}
		break;
	}
	case O_TYPE:
		curdecl = NULL;
		checktypedecl(o);
		break;
	case O_FUNC:
		curdecl = NULL;
		checkfuncdecl(o);
		break;
	}
	curpkg = savedpkg;
	restore(s);
	o->state = 2;
}

/* ---------------------------------------------------------------- statements */

typedef struct Target {
	Node *stmt;       /* N_FOR, N_RANGE, N_SWITCH, N_TYPESWITCH, N_SELECT */
	const char *label;
	struct Target *outer;
} Target;
static Target *targets;
static Vec labels;          /* N_LABELED of the current function */
static Vec labeluse;

static void stmt(Node *n);
static void stmtlist(Vec *v);

/* x op= y and x++ read their variable x too: that is a use. */
static void readslhs(Node *l) {
	if (l->kind == N_IDENT && l->obj && l->obj->kind == O_VAR)
		markused(l->obj);
}

static bool isblankn(Node *n) { return n->kind == N_IDENT && n->name == blank; }

/* The left side of an assignment: a variable, a pointer indirection, a
 * field, a slice or array element, or a map index; or _. */
static Type *lhs(Node *n) {
	if (isblankn(n)) {
		n->type = NULL;
		return NULL;
	}
	if (n->kind == N_IDENT) {
		Obj *o = lookup(curscope, n->name);
		if (o && o->kind == O_VAR) {
			/* assigning is not using */
			bool used = o->used;
			Type *t = checkexpr(n);
			o->used = used;
			return t;
		}
	}
	Type *t = checkexpr(n);
	if (n->flags & NF_NOVALUE)
		return rvalue(n); /* Go's "(no value) used as value" */
	if (n->flags & NF_BUILTIN) { /* it has no type: bad(t) would say nothing */
		builtinuncalled(n);
		return t_bad;
	}
	if (bad(t))
		return t;
	if (n->flags & NF_MAPINDEX)
		return t;
	if (!(n->flags & NF_ADDRESSABLE)) {
		Node *inner = n;
		while (inner->kind == N_PAREN)
			inner = inner->a;
		if (inner->kind == N_SELECTOR && inner->op == SEL_FIELD) {
			Node *x = inner->a;
			while (x->kind == N_PAREN)
				x = x->a;
			if (x->flags & NF_MAPINDEX) {
				errorat(n->pos, "cannot assign to struct field %s in map", exprstr(n));
				return t_bad;
			}
		}
		if (n->cv)
			errorat(n->pos, "cannot assign to %s (neither addressable nor a map index expression)", exprstr(n));
		else
			errorat(n->pos, "cannot assign to %s (neither addressable nor a map index expression)", exprstr(n));
		return t_bad;
	}
	return t;
}

static bool commaok(Node *e) {
	if (e->kind == N_PAREN)
		return commaok(e->a);
	if ((e->kind == N_INDEX && (e->flags & NF_MAPINDEX)) || e->kind == N_TYPEASSERT ||
	    (e->kind == N_UNARY && e->op == TK_ARROW)) {
		e->flags |= NF_COMMAOK;
		return true;
	}
	return false;
}

static void assignvalues(Node *n, Vec *lhsv, Vec *rhsv, bool define) {
	int nl = lhsv->n, nr = rhsv->n;
	unparencommaok(rhsv, nl);
	Vec lt = {0};
	if (!define)
		for (int i = 0; i < nl; i++)
			vpush(&lt, lhs(lhsv->v[i]));
	if (nl == 1 && nr == 1 && singlemismatch(lhsv->v[0], rhsv->v[0]))
		return;
	if (nl == nr) {
		for (int i = 0; i < nl; i++) {
			Node *r = rhsv->v[i];
			Node *l = lhsv->v[i];
			Type *t = define ? NULL : lt.v[i];
			if (define)
				t = l->obj && !l->aux ? NULL : (l->obj ? l->obj->type : NULL);
			Type *rt = (r->kind == N_COMPLIT && !r->a && t) ? checkexpr(r) : rvalue(r);
			if (bad(rt))
				continue;
			if (t)
				assignop(r, t, "assignment");
			else {
				if (r->flags & NF_NIL) {
					errorat(r->pos, "use of untyped nil in assignment");
					continue;
				}
				defaultuntyped(r);
			}
		}
		return;
	}
	if (nr == 1) {
		Node *r = rhsv->v[0];
		Type *rt = checkexpr(r);
		if (bad(rt))
			return;
		if (nl == 2 && commaok(r)) {
			if (!define) {
				if (lt.v[0])
					assignop(r, lt.v[0], "assignment");
				Type *okt = lt.v[1];
				if (okt && !bad(okt) && !isboolean(okt))
					errorat(((Node *)lhsv->v[1])->pos, "cannot use %s (untyped bool value) as %s value in assignment",
						exprstr(r), ts(okt));
			}
			return;
		}
		if (rt && rt->kind == T_TUPLE) {
			if (rt->fields.n != nl) {
				errorat(n->pos, "assignment mismatch: %d variable%s but %s returns %d value%s", nl, nl == 1 ? "" : "s",
					exprstr(r->kind == N_CALL ? r->a : r), rt->fields.n, rt->fields.n == 1 ? "" : "s");
				return;
			}
			if (!define)
				for (int i = 0; i < nl; i++) {
					Type *t = lt.v[i];
					Type *ft = ((Field *)rt->fields.v[i])->type;
					const char *why = NULL;
					if (t && !bad(t) && !identical(t, ft)) {
						Node tmp = {0};
						tmp.kind = N_CALL;
						tmp.type = ft;
						tmp.pos = r->pos;
						tmp.a = r->a;
						(void)why;
						assignop(&tmp, t, "assignment");
					}
				}
			return;
		}
		if (r->flags & NF_NOVALUE) {
			errorat(r->pos, "%s (no value) used as value", exprstr(r));
			return;
		}
		if (r->kind == N_CALL && rt) {
			errorat(n->pos, "assignment mismatch: %d variable%s but %s returns 1 value", nl, nl == 1 ? "" : "s", exprstr(r->a));
			return;
		}
	}
	errorat(n->pos, "assignment mismatch: %d variable%s but %d value%s", nl, nl == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
	for (int i = 0; i < nr; i++)
		checkexpr(rhsv->v[i]);
}

/* The types of the values a right-hand side produces, for := */
static void rhstypes(Vec *rhsv, int nl, Type **out) {
	int nr = rhsv->n;
	for (int i = 0; i < nl; i++)
		out[i] = t_bad;
	if (nl == nr) {
		for (int i = 0; i < nl; i++) {
			Node *r = rhsv->v[i];
			out[i] = r->type && r->type->kind != T_TUPLE ? r->type : t_bad;
		}
		return;
	}
	if (nr == 1) {
		Node *r = rhsv->v[0];
		if (nl == 2 && (r->flags & NF_COMMAOK)) {
			out[0] = r->type ? r->type : t_bad;
			out[1] = types[T_BOOL];
			return;
		}
		if (r->type && r->type->kind == T_TUPLE && r->type->fields.n == nl)
			for (int i = 0; i < nl; i++)
				out[i] = ((Field *)r->type->fields.v[i])->type;
	}
}

static void define(Node *n) {
	Vec *lv = &n->list, *rv = &n->list2;
	/* check the right side first: the new variables are not in scope there */
	bool anynew = false;
	for (int i = 0; i < lv->n; i++) {
		Node *l = lv->v[i];
		if (l->kind != N_IDENT) {
			errorat(l->pos, "non-name %s on left side of :=", exprstr(l));
			continue;
		}
		if (l->name != blank && !lookuplocal(curscope, l->name))
			anynew = true;
		for (int j = 0; j < i; j++) {
			Node *p = lv->v[j];
			if (p->kind == N_IDENT && p->name == l->name && l->name != blank)
				errorat(l->pos, "%s repeated on left side of :=", l->name);
		}
	}
	if (!anynew)
		errorat(n->pos, "no new variables on left side of :=");
	/* existing variables are assigned: check like assignment, using their types */
	for (int i = 0; i < lv->n; i++) {
		Node *l = lv->v[i];
		if (l->kind != N_IDENT || l->name == blank)
			continue;
		Obj *o = lookuplocal(curscope, l->name);
		if (o && o->kind == O_VAR) {
			l->obj = o;
			l->type = o->type;
			l->aux = NULL;
		} else {
			l->obj = NULL;
			l->aux = (void *)1;
		}
	}
	assignvalues(n, lv, rv, true);
	Type *ts_[64];
	int nl = lv->n > 64 ? 64 : lv->n;
	rhstypes(rv, nl, ts_);
	for (int i = 0; i < nl; i++) {
		Node *l = lv->v[i];
		if (l->kind != N_IDENT)
			continue;
		if (l->name == blank) {
			l->obj = NULL;
			continue;
		}
		if (l->aux) {
			Type *t = ts_[i];
			if (t && isuntyped(t))
				t = defaulttype(t);
			if (t && t->kind == T_UNTYPED_NIL)
				t = t_bad;
			Obj *o = declarelocal(l, t, O_VAR);
			l->type = t;
			l->flags |= NF_VAR | NF_ADDRESSABLE;
			l->ival = 1; /* a new variable */
			(void)o;
			l->aux = NULL;
		} else if (l->obj) {
			/* assignment to an existing variable: check assignability */
			Type *t = ts_[i];
			if (t && !bad(t) && !bad(l->obj->type) && !identical(t, l->obj->type) && lv->n == rv->n)
				assignop(rv->v[i], l->obj->type, "assignment");
			else if (t && !bad(t) && !bad(l->obj->type) && !identical(t, l->obj->type) && !isuntyped(t) &&
				 !isinterface(l->obj->type))
				errorat(l->pos, "cannot use %s value as %s value in assignment", ts(t), ts(l->obj->type));
		}
	}
}

static void localvarspec(Node *spec) {
	Vec objs = {0};
	for (int i = 0; i < spec->list.n; i++) {
		Obj *o = newobj(O_VAR, ((Node *)spec->list.v[i])->name, ((Node *)spec->list.v[i])->pos);
		vpush(&objs, o);
	}
	checkvarspec(spec, &objs);
	for (int i = 0; i < spec->list.n; i++) {
		Node *id = spec->list.v[i];
		Obj *tmp = objs.v[i];
		Obj *o = declarelocal(id, tmp->type, O_VAR);
		id->type = o->type;
	}
}

static void localdecl(Node *n) {
	Node *prevspec = NULL;
	for (int i = 0; i < n->list.n; i++) {
		Node *spec = n->list.v[i];
		if (n->op == TK_CONST) {
			if (!spec->list2.n && !spec->a && prevspec)
				spec->orig = prevspec;
			else
				prevspec = spec;
		}
		if (n->op == TK_VAR) {
			localvarspec(spec);
		} else if (n->op == TK_CONST) {
			for (int j = 0; j < spec->list.n; j++) {
				Node *id = spec->list.v[j];
				Obj *o = newobj(O_CONST, id->name, id->pos);
				o->decl = spec;
				o->pkg = curpkg;
				id->obj = o;
				Saved s = save();
				checkconstspec(o);
				restore(s);
				o->state = 2;
				o->used = true; /* unused constants are not an error */
				if (id->name != blank) {
					Obj *prev = lookuplocal(curscope, id->name);
					if (prev)
						redeclared(o, prev);
					else
						declare(curscope, o);
				}
			}
		} else {
			Obj *o = newobj(O_TYPE, spec->name, spec->pos);
			o->decl = spec;
			o->pkg = curpkg;
			o->used = true;
			if (spec->op != 1) {
				Type *t = newtype(T_NAMED);
				t->name = spec->name;
				t->pkg = curpkg;
				t->obj = o;
				t->decl = spec;
				o->type = t;
				/* local types get a unique C name later; record them */
				vpush(&curpkg->types, o);
			}
			if (spec->name != blank) {
				Obj *prev = lookuplocal(curscope, spec->name);
				if (prev)
					redeclared(o, prev);
				else
					declare(curscope, o);
			}
			Saved s = save();
			o->state = 1;
			if (spec->op == 1)
				o->type = typexpr(spec->a);
			else {
				Type *u = typexpr(spec->a);
				o->type->underlying = under(u);
			}
			restore(s);
			o->state = 2;
		}
	}
}

static bool isterminating(Node *n, const char *label);

static bool hasbreak(Node *n, Node *target, const char *label, bool nested) {
	if (!n)
		return false;
	switch (n->kind) {
	case N_BRANCH:
		if (n->op == TK_BREAK) {
			if (!n->name && !nested)
				return true;
			if (n->name && label && n->name == label)
				return true;
		}
		return false;
	case N_BLOCK:
		for (int i = 0; i < n->list.n; i++)
			if (hasbreak(n->list.v[i], target, label, nested))
				return true;
		return false;
	case N_LABELED:
		return hasbreak(n->a, target, label, nested);
	case N_IF:
		return hasbreak(n->c, target, label, nested) || hasbreak(n->d, target, label, nested);
	case N_CASE:
	case N_COMMCLAUSE:
		for (int i = 0; i < n->list2.n; i++)
			if (hasbreak(n->list2.v[i], target, label, nested))
				return true;
		return false;
	case N_FOR: case N_RANGE:
		return hasbreak(n->d, target, label, true);
	case N_SWITCH: case N_TYPESWITCH: case N_SELECT:
		for (int i = 0; i < n->list.n; i++)
			if (hasbreak(n->list.v[i], target, label, true))
				return true;
		return false;
	}
	return false;
}

/* Go's terminating statements (the spec's list), for "missing return". */
static bool isterminating(Node *n, const char *label) {
	if (!n)
		return false;
	switch (n->kind) {
	case N_RETURN:
		return true;
	case N_BRANCH:
		return n->op == TK_GOTO;
	case N_EXPRSTMT: {
		Node *c = n->a;
		while (c->kind == N_PAREN)
			c = c->a;
		return c->kind == N_CALL && (c->flags & NF_CALLEE_BUILTIN) && c->ival == B_PANIC;
	}
	case N_BLOCK:
		return n->list.n && isterminating(n->list.v[n->list.n - 1], NULL);
	case N_IF:
		return n->d && isterminating(n->c, NULL) && isterminating(n->d, NULL);
	case N_LABELED:
		return isterminating(n->a, n->name);
	case N_FOR:
		return !n->b && !hasbreak(n->d, n, label, false);
	case N_SWITCH:
	case N_TYPESWITCH:
	case N_SELECT: {
		bool hasdefault = n->kind == N_SELECT;
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			if (c->op == 1)
				hasdefault = true;
			Vec *body = &c->list2;
			if (hasbreak(c, n, label, false))
				return false;
			if (!body->n)
				return false;
			Node *last = body->v[body->n - 1];
			if (last->kind == N_BRANCH && last->op == TK_FALLTHROUGH)
				continue;
			if (!isterminating(last, NULL))
				return false;
		}
		return hasdefault;
	}
	}
	return false;
}

static bool findlabel(const char *name) {
	for (int i = 0; i < labels.n; i++)
		if (((Node *)labels.v[i])->name == name)
			return true;
	return false;
}

static void collectlabels(Node *n) {
	if (!n)
		return;
	switch (n->kind) {
	case N_LABELED:
		if (n->name != blank) {
			for (int i = 0; i < labels.n; i++)
				if (((Node *)labels.v[i])->name == n->name)
					errorat(n->pos, "label %s already defined", n->name);
			vpush(&labels, n);
		}
		collectlabels(n->a);
		break;
	case N_BLOCK:
		for (int i = 0; i < n->list.n; i++)
			collectlabels(n->list.v[i]);
		break;
	case N_IF:
		collectlabels(n->c);
		collectlabels(n->d);
		break;
	case N_FOR: case N_RANGE:
		collectlabels(n->d);
		break;
	case N_SWITCH: case N_TYPESWITCH: case N_SELECT:
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			for (int j = 0; j < c->list2.n; j++)
				collectlabels(c->list2.v[j]);
		}
		break;
	}
}

static void branch(Node *n) {
	switch (n->op) {
	case TK_BREAK:
	case TK_CONTINUE: {
		bool cont = n->op == TK_CONTINUE;
		if (n->name) {
			vpush(&labeluse, (void *)n->name);
			Target *t;
			for (t = targets; t; t = t->outer)
				if (t->label == n->name)
					break;
			if (!t) {
				if (!findlabel(n->name))
					errorat(n->pos, "%s label not defined: %s", cont ? "continue" : "break", n->name);
				else
					errorat(n->pos, "invalid %s label %s", cont ? "continue" : "break", n->name);
				return;
			}
			if (cont && t->stmt->kind != N_FOR && t->stmt->kind != N_RANGE) {
				errorat(n->pos, "invalid continue label %s", n->name);
				return;
			}
			n->aux = t->stmt;
			return;
		}
		Target *t;
		for (t = targets; t; t = t->outer)
			if (!cont || t->stmt->kind == N_FOR || t->stmt->kind == N_RANGE)
				break;
		if (!t) {
			errorat(n->pos, cont ? "continue is not in a loop" : "break is not in a loop, switch, or select");
			return;
		}
		n->aux = t->stmt;
		return;
	}
	case TK_GOTO:
		vpush(&labeluse, (void *)n->name);
		if (!findlabel(n->name))
			errorat(n->pos, "label %s not defined", n->name);
		return;
	case TK_FALLTHROUGH:
		/* legal placement is checked by the switch */
		if (!n->aux)
			errorat(n->pos, "fallthrough statement out of place");
		return;
	}
}

static void pushtarget(Target *t, Node *s, const char *label) {
	t->stmt = s;
	t->label = label;
	t->outer = targets;
	targets = t;
}

static const char *pendinglabel;

static void checkcond(Node *c, const char *what) {
	Type *t = rvalue(c);
	if (bad(t))
		return;
	if (!isboolean(t)) {
		errorat(c->pos, "non-boolean condition in %s statement", what);
		return;
	}
	if (isuntyped(t))
		convertuntyped(c, types[T_BOOL]);
}

static void checkrange(Node *n, const char *label) {
	openscope();
	Node *x = n->a;
	Type *xt = rvalue(x);
	Type *kt = NULL, *vt = NULL;
	int maxvars = 2;
	if (!bad(xt)) {
		Type *u = under(xt);
		switch (u->kind) {
		case T_STRING: case T_UNTYPED_STRING:
			n->ival = RANGE_STRING;
			if (isuntyped(xt))
				convertuntyped(x, types[T_STRING]);
			kt = types[T_INT];
			vt = t_rune;
			break;
		case T_ARRAY:
			n->ival = RANGE_ARRAY;
			kt = types[T_INT];
			vt = u->elem;
			break;
		case T_POINTER:
			if (under(u->elem)->kind == T_ARRAY) {
				n->ival = RANGE_PTRARRAY;
				kt = types[T_INT];
				vt = under(u->elem)->elem;
			}
			break;
		case T_SLICE:
			n->ival = RANGE_SLICE;
			kt = types[T_INT];
			vt = u->elem;
			break;
		case T_MAP:
			n->ival = RANGE_MAP;
			kt = u->key;
			vt = u->elem;
			break;
		case T_CHAN:
			n->ival = RANGE_CHAN;
			kt = u->elem;
			maxvars = 1;
			if (u->len == 2)
				errorat(x->pos, "invalid operation: range %s: receive from send-only channel", exprstr(x));
			break;
		default:
			if (isinteger(u)) {
				n->ival = RANGE_INT;
				if (isuntyped(xt))
					convertuntyped(x, types[T_INT]);
				kt = x->type;
				maxvars = 1;
			}
		}
		if (!n->ival) {
			errorat(x->pos, "cannot range over %s", opdesc(x));
			kt = vt = t_bad;
		}
	} else
		kt = vt = t_bad;
	if (n->list.n > maxvars) {
		errorat(((Node *)n->list.v[maxvars])->pos, "range over %s permits only one iteration variable", opdesc(x));
	}
	Type *vts[2] = {kt, vt};
	if (n->op == 1) { /* := */
		for (int i = 0; i < n->list.n && i < 2; i++) {
			Node *id = n->list.v[i];
			if (id->kind != N_IDENT) {
				errorat(id->pos, "non-name %s on left side of :=", exprstr(id));
				continue;
			}
			Obj *o = declarelocal(id, vts[i], O_VAR);
			id->type = vts[i];
			(void)o;
		}
	} else {
		for (int i = 0; i < n->list.n && i < 2; i++) {
			Node *l = n->list.v[i];
			Type *lt = lhs(l);
			if (lt && !bad(lt) && vts[i] && !bad(vts[i]) && !assignablet(vts[i], lt))
				errorat(l->pos, "cannot use %s (value of type %s) as %s value in range", exprstr(l), ts(vts[i]), ts(lt));
		}
	}
	Target t;
	pushtarget(&t, n, label);
	stmt(n->d);
	targets = t.outer;
	closescope();
}

/* A case value e of an expression switch, checked as tag == e is (tag
 * NULL: the implicit true, of type bool): nil matches a func, map or slice
 * tag, and an interface value any tag it could hold. */
static bool checkcase(Node *tag, Type *tt, Node *e, Type *et) {
	const char *on = tag ? xprintf(" on %s", exprstr(tag)) : "";
	if (isuntyped(et)) {
		if (!tag && !isboolean(et)) {
			errorat(e->pos, "invalid case %s in switch (mismatched types %s and bool)", exprstr(e), ts(et));
			return false;
		}
		convertuntyped(e, tt);
		if (!e->type || isuntyped(e->type) || e->type->kind == T_BAD)
			return false;
		et = e->type;
	}
	if (!assignablet(et, tt) && !assignablet(tt, et)) {
		errorat(e->pos, "invalid case %s in switch%s (mismatched types %s and %s)", exprstr(e), on, ts(et), ts(tt));
		return false;
	}
	if (e->flags & NF_NIL)
		return true; /* the conversion above checked that tt has nil */
	Type *nc = !comparable(tt) ? tt : !comparable(et) ? et : NULL;
	if (nc) {
		Type *u = under(nc);
		const char *what = u->kind == T_SLICE ? "slice" : u->kind == T_MAP ? "map" : u->kind == T_FUNC ? "func" : NULL;
		errorat(e->pos, "invalid case %s in switch%s (%s)", exprstr(e), on,
			what ? xprintf("%s can only be compared to nil", what) : xprintf("%s cannot be compared", ts(nc)));
		return false;
	}
	return true;
}

static void checkswitch(Node *n, const char *label) {
	openscope();
	if (n->a)
		stmt(n->a);
	Type *tt = types[T_BOOL];
	Node *tag = n->b;
	if (tag) {
		tt = rvalue(tag);
		if (!bad(tt)) {
			defaultuntyped(tag);
			tt = tag->type;
			if (tag->flags & NF_NIL) {
				errorat(tag->pos, "use of untyped nil in switch expression");
				tt = t_bad;
			} else if (!comparable(tt) && !hasnil(tt)) {
				/* func, map and slice tags may still be compared to nil */
				errorat(tag->pos, "cannot switch on %s", opdesc(tag));
				tt = t_bad;
			}
		}
	}
	Target t;
	pushtarget(&t, n, label);
	ConstSet consts = {0};
	int ndefault = 0;
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		if (c->op == 1 && ++ndefault > 1)
			errorat(c->pos, "multiple defaults in switch");
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			Type *et = rvalue(e);
			if (bad(et) || bad(tt) || !checkcase(tag, tt, e, et))
				continue;
			Node *prev;
			if (e->cv && tag && (prev = constsetadd(&consts, e)))
				errorat(startpos(e), "duplicate case %s in expression switch\n\t%s: previous case", opdesc(e),
					posstr(startpos(prev)));
		}
		openscope();
		for (int j = 0; j < c->list2.n; j++) {
			Node *s = c->list2.v[j];
			if (s->kind == N_BRANCH && s->op == TK_FALLTHROUGH) {
				if (j != c->list2.n - 1)
					errorat(s->pos, "fallthrough statement out of place");
				else if (i == n->list.n - 1)
					errorat(s->pos, "cannot fallthrough final case in switch");
				else
					s->aux = n;
			}
		}
		stmtlist(&c->list2);
		closescope();
	}
	targets = t.outer;
	closescope();
}

static void checktypeswitch(Node *n, const char *label) {
	openscope();
	if (n->a)
		stmt(n->a);
	Node *x = n->b->a;
	Type *xt = rvalue(x);
	if (!bad(xt) && !isinterface(xt)) {
		errorat(x->pos, "%s is not an interface", opdesc(x));
		xt = t_bad;
	}
	n->b->type = xt;
	Target t;
	pushtarget(&t, n, label);
	Vec bound = {0};
	int ndefault = 0;
	Vec seen = {0}, seenat = {0}; /* the types of the cases so far, and their nodes */
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		if (c->op == 1 && ++ndefault > 1)
			errorat(c->pos, "multiple defaults in switch");
		Type *single = NULL;
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			Type *et;
			if (e->kind == N_IDENT && e->name == intern("nil") && lookup(curscope, e->name) &&
			    lookup(curscope, e->name)->kind == O_NIL) {
				checkexpr(e);
				et = NULL;
			} else {
				et = typexpr(e);
				if (bad(et))
					continue;
				if (!bad(xt) && !isinterface(et)) {
					const char *why = NULL;
					if (!implements(et, xt, &why))
						errorat(e->pos, "impossible type switch case: %s cannot have dynamic type %s (%s)", opdesc(x),
							ts(et), why ? strstr(why, "(") ? strstr(why, "(") + 1 : why : "");
				}
			}
			for (int k = 0; k < seen.n; k++) {
				Type *p = seen.v[k];
				if ((p == NULL && et == NULL) || (p && et && identical(p, et))) {
					errorat(e->pos, "duplicate case %s in type switch\n\t%s: previous case", et ? ts(et) : "nil",
						posstr(((Node *)seenat.v[k])->pos));
					break;
				}
			}
			vpush(&seen, et);
			vpush(&seenat, e);
			if (c->list.n == 1)
				single = et;
		}
		if (c->list2.n) {
			Node *last = c->list2.v[c->list2.n - 1];
			if (last->kind == N_BRANCH && last->op == TK_FALLTHROUGH) {
				errorat(last->pos, "cannot fallthrough in type switch");
				last->aux = n;
			}
		}
		openscope();
		if (n->name) {
			Type *vt = single && !bad(single) ? single : xt;
			if (c->list.n == 1 && !single)
				vt = xt; /* case nil: the variable has x's type */
			Node id = {0};
			id.kind = N_IDENT;
			id.name = n->name;
			id.pos = n->pos;
			Obj *o = declarelocal(&id, vt, O_VAR);
			o->used = false;
			c->obj = o;
			vpush(&bound, o);
		}
		stmtlist(&c->list2);
		/* the clause variable's use is judged over all clauses */
		if (n->name && c->obj)
			c->obj->used = true, c->obj->param = true;
		curscope = curscope->parent;
	}
	if (n->name) {
		bool used = false;
		for (int i = 0; i < bound.n; i++) {
			Obj *o = bound.v[i];
			if (o->captured || o->addrtaken)
				used = true;
		}
		/* uses were recorded before we set used above: look again */
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			if (c->obj && c->obj->refs.n)
				used = true;
		}
		if (!used && !n->aux && !bound.n)
			used = true;
		if (!used && n->ival == 1 && !n->aux) {
			/* decided in stmt via the usage counter */
		}
	}
	targets = t.outer;
	closescope();
}

static void checkselect(Node *n, const char *label) {
	Target t;
	pushtarget(&t, n, label);
	int ndefault = 0;
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		openscope();
		if (c->op == 1) {
			if (++ndefault > 1)
				errorat(c->pos, "multiple defaults in select");
		} else {
			Node *s = c->a;
			bool ok = false;
			if (s->kind == N_SEND)
				ok = true;
			else if (s->kind == N_EXPRSTMT) {
				Node *e = s->a;
				while (e->kind == N_PAREN)
					e = e->a;
				ok = e->kind == N_UNARY && e->op == TK_ARROW;
			} else if ((s->kind == N_ASSIGN && !s->op) || s->kind == N_DEFINE) {
				if (s->list2.n == 1 && s->list.n <= 2) {
					Node *e = s->list2.v[0];
					while (e->kind == N_PAREN)
						e = e->a;
					ok = e->kind == N_UNARY && e->op == TK_ARROW;
				}
			}
			if (!ok)
				errorat(s->pos, "select case must be receive, send or assign recv");
			stmt(s);
		}
		stmtlist(&c->list2);
		closescope();
	}
	targets = t.outer;
}

static void checkreturn(Node *n) {
	if (!curfn)
		return;
	Type *sig = curfn->sig;
	int nr = sig->results.n;
	Vec *v = &n->list;
	if (v->n == 0) {
		if (nr && !curfn->namedresults) {
			errorat(n->pos, "not enough return values\n\thave ()\n\twant %s", ts(tupleof_results(sig)));
			return;
		}
		if (nr && curfn->namedresults) {
			/* a result shadowed by a local of the same name cannot be returned implicitly */
			for (int i = 0; i < curfn->results.n; i++) {
				Obj *r = curfn->results.v[i];
				Obj *o = lookup(curscope, r->name);
				if (o && o != r && r->name != blank)
					errorat(n->pos, "result parameter %s not in scope at return\n\tinner declaration of %s", r->name,
						r->name);
			}
		}
		return;
	}
	if (v->n == 1 && nr > 1) {
		Node *e = v->v[0];
		Type *t = checkexpr(e);
		if (t && t->kind == T_TUPLE) {
			if (t->fields.n != nr) {
				errorat(e->pos, "%s return values\n\thave %s\n\twant %s", t->fields.n < nr ? "not enough" : "too many",
					ts(t), ts(tupleof_results(sig)));
				return;
			}
			for (int i = 0; i < nr; i++) {
				Type *have = ((Field *)t->fields.v[i])->type, *want = ((Field *)sig->results.v[i])->type;
				if (!identical(have, want)) {
					Node tmp = {0};
					tmp.kind = N_CALL;
					tmp.type = have;
					tmp.pos = e->pos;
					tmp.a = e->a;
					assignop(&tmp, want, "return statement");
				}
			}
			return;
		}
	}
	if (v->n != nr) {
		for (int i = 0; i < v->n; i++)
			checkexpr(v->v[i]);
		Buf have = {0};
		bputc(&have, '(');
		for (int i = 0; i < v->n; i++) {
			Node *e = v->v[i];
			if (i)
				bput(&have, ", ");
			bput(&have, e->type ? (e->cv && isuntyped(e->type) ? "number" : ts(e->type)) : "?");
		}
		bputc(&have, ')');
		if (nr == 0)
			errorat(((Node *)v->v[0])->pos, "too many return values\n\thave %s\n\twant ()", bstr(&have));
		else
			errorat(((Node *)v->v[v->n < nr ? 0 : nr])->pos, "%s return values\n\thave %s\n\twant %s",
				v->n < nr ? "not enough" : "too many", bstr(&have), ts(tupleof_results(sig)));
		return;
	}
	for (int i = 0; i < nr; i++) {
		Node *e = v->v[i];
		Type *want = ((Field *)sig->results.v[i])->type;
		Type *t = (e->kind == N_COMPLIT && !e->a) ? checkexpr(e) : rvalue(e);
		if (!bad(t))
			assignop(e, want, "return statement");
	}
}

static void checkgo(Node *n, const char *what) {
	Node *c = n->a;
	while (c->kind == N_PAREN)
		c = c->a;
	if (c->kind != N_CALL) {
		errorat(n->a->pos, "expression in %s must be function call", what);
		checkexpr(n->a);
		return;
	}
	Type *t = checkcall(c);
	(void)t;
	if (c->flags & NF_CONVERSION) {
		errorat(c->pos, "%s requires function call, not conversion", what);
		return;
	}
	if (c->flags & NF_CALLEE_BUILTIN) {
		switch (c->ival) {
		case B_APPEND: case B_CAP: case B_COMPLEX: case B_IMAG: case B_LEN: case B_MAKE: case B_NEW:
		case B_REAL: case B_MIN: case B_MAX: case B_SIZEOF: case B_ALIGNOF: case B_OFFSETOF:
			errorat(c->pos, "%s discards result of %s", what, exprstr(c));
		}
	}
	if (!strcmp(what, "defer") && curfn)
		curfn->hasdefer = true;
}

/* An expression statement: only calls and receives may stand alone. */
static void exprstmt(Node *n) {
	Node *e = n->a;
	Node *c = e;
	while (c->kind == N_PAREN)
		c = c->a;
	if (c->kind == N_CALL) {
		Type *t = checkcall(c);
		if (c != e) {
			e->type = t;
			e->flags = c->flags;
		}
		if (c->flags & NF_CONVERSION) {
			if (!bad(t))
				errorat(e->pos, "%s is not used", opdesc(c));
			return;
		}
		if (c->flags & NF_CALLEE_BUILTIN) {
			switch (c->ival) {
			case B_APPEND: case B_CAP: case B_COMPLEX: case B_IMAG: case B_LEN: case B_MAKE: case B_NEW:
			case B_REAL: case B_MIN: case B_MAX: case B_SIZEOF: case B_ALIGNOF: case B_OFFSETOF:
				if (!bad(c->type))
					errorat(e->pos, "%s (value of type %s) is not used", exprstr(c), ts(c->type));
			}
		}
		return;
	}
	if (c->kind == N_UNARY && c->op == TK_ARROW) {
		checkexpr(e);
		return;
	}
	Type *t = checkexpr(e);
	if (e->flags & NF_BUILTIN) /* println alone: it has no type, bad(t) */
		builtinuncalled(e);
	else if (!bad(t) || (e->flags & NF_TYPE))
		errorat(e->pos, "%s is not used", (e->flags & NF_TYPE) ? xprintf("%s (type)", exprstr(e)) : opdesc(e));
}

/* x op= y is x = x op y with x evaluated once: reading x is a use (Go's
 * checker says so too). */
static void opassign(Node *n) {
	Node *l = n->list.v[0];
	if (isblankn(l)) { /* x op= y reads x */
		errorat(l->pos, "cannot use _ as value or type");
		rvalue(n->list2.v[0]);
		return;
	}
	Type *lt = lhs(l);
	readslhs(l);
	Node tmp = {0};
	tmp.kind = N_BINARY;
	tmp.op = n->op;
	tmp.a = l;
	tmp.b = n->list2.v[0];
	tmp.pos = n->pos;
	Node *r = n->list2.v[0];
	Type *rt = rvalue(r);
	if (bad(lt) || bad(rt) || !lt)
		return;
	if (n->op == TK_SHL || n->op == TK_SHR) {
		if (!isinteger(lt)) {
			errorat(n->pos, "invalid operation: shifted operand %s must be integer", opdesc(l));
			return;
		}
		if (r->cv) {
			if (!cisint(r->cv) || ctoint(r->cv) < 0) {
				errorat(r->pos, "invalid shift count %s", opdesc(r));
				return;
			}
			convertuntyped(r, types[T_UINT]);
		} else if (!isinteger(rt)) {
			errorat(r->pos, "invalid operation: shift count %s must be integer", opdesc(r));
		} else if (isuntyped(rt))
			convertuntyped(r, types[T_UINT]);
		return;
	}
	if (isuntyped(rt)) {
		if (!assignop(r, lt, "assignment"))
			return;
		rt = r->type;
	}
	if (!identical(lt, rt)) {
		errorat(n->pos, "invalid operation: %s %s= %s (mismatched types %s and %s)", exprstr(l),
			n->op == TK_ADD ? "+" : n->op == TK_SUB ? "-" : n->op == TK_MUL ? "*" : n->op == TK_QUO ? "/" :
			n->op == TK_REM ? "%" : n->op == TK_AND ? "&" : n->op == TK_OR ? "|" : n->op == TK_XOR ? "^" : "&^",
			exprstr(r), ts(lt), ts(rt));
		return;
	}
	Type *u = under(lt);
	bool ok;
	switch (n->op) {
	case TK_ADD: ok = isnumeric(u) || isstring(u); break;
	case TK_SUB: case TK_MUL: case TK_QUO: ok = isnumeric(u); break;
	default: ok = isinteger(u);
	}
	if (!ok)
		errorat(n->pos, "invalid operation: operator %s not defined on %s", n->op == TK_ADD ? "+" : "op", opdesc(l));
	else if ((n->op == TK_QUO || n->op == TK_REM) && r->cv && isinteger(u) && cisint(r->cv) && ctoint(r->cv) == 0)
		errorat(r->pos, "invalid operation: division by zero");
}

/* x++ and x--. */
static void incdec(Node *n) {
	if (isblankn(n->a)) { /* x++ reads x */
		errorat(n->a->pos, "cannot use _ as value or type");
		return;
	}
	Type *t = lhs(n->a);
	readslhs(n->a); /* x++ reads x */
	if (bad(t) || !t)
		return;
	if (!isnumeric(t))
		errorat(n->pos, "invalid operation: %s%s (non-numeric type %s)", exprstr(n->a), n->op == TK_INC ? "++" : "--",
			ts(t));
}

/* c <- v. */
static void sendstmt(Node *n) {
	Type *ct = rvalue(n->a), *vt = rvalue(n->b);
	if (bad(ct) || bad(vt))
		return;
	Type *u = under(ct);
	if (u->kind != T_CHAN) {
		errorat(n->pos, "invalid operation: cannot send to non-channel %s", opdesc(n->a));
		return;
	}
	if (u->len == 1) {
		errorat(n->pos, "invalid operation: cannot send to receive-only channel %s", opdesc(n->a));
		return;
	}
	assignop(n->b, u->elem, "send");
}

/* A three-clause for loop (label: its label, or NULL). */
static void forstmt(Node *n, const char *label) {
	openscope();
	if (n->a)
		stmt(n->a);
	if (n->b)
		checkcond(n->b, "for");
	if (n->c) {
		if (n->c->kind == N_DEFINE)
			errorat(n->c->pos, "cannot declare in post statement of for loop");
		else
			stmt(n->c);
	}
	Target t;
	pushtarget(&t, n, label);
	stmt(n->d);
	targets = t.outer;
	closescope();
}

static void stmt(Node *n) {
	if (!n)
		return;
	const char *label = pendinglabel;
	pendinglabel = NULL;
	switch (n->kind) {
	case N_EMPTY:
		return;
	case N_EXPRSTMT:
		exprstmt(n);
		return;
	case N_ASSIGN:
		if (n->op) {
			opassign(n);
			return;
		}
		assignvalues(n, &n->list, &n->list2, false);
		return;
	case N_DEFINE:
		define(n);
		return;
	case N_INCDEC:
		incdec(n);
		return;
	case N_SEND:
		sendstmt(n);
		return;
	case N_DECLSTMT:
		localdecl(n);
		return;
	case N_BLOCK:
		openscope();
		stmtlist(&n->list);
		closescope();
		return;
	case N_IF:
		openscope();
		if (n->a)
			stmt(n->a);
		if (n->b)
			checkcond(n->b, "if");
		stmt(n->c);
		if (n->d)
			stmt(n->d);
		closescope();
		return;
	case N_FOR:
		forstmt(n, label);
		return;
	case N_RANGE:
		checkrange(n, label);
		return;
	case N_SWITCH:
		checkswitch(n, label);
		return;
	case N_TYPESWITCH:
		checktypeswitch(n, label);
		return;
	case N_SELECT:
		checkselect(n, label);
		return;
	case N_RETURN:
		checkreturn(n);
		return;
	case N_BRANCH:
		branch(n);
		return;
	case N_LABELED:
		pendinglabel = n->name;
		stmt(n->a);
		pendinglabel = NULL;
		return;
	case N_GO:
		checkgo(n, "go");
		return;
	case N_DEFER:
		checkgo(n, "defer");
		return;
	default:
		errorat(n->pos, "unexpected statement");
	}
}

static void stmtlist(Vec *v) {
	for (int i = 0; i < v->n; i++)
		stmt(v->v[i]);
}

void checkblock(Node *n) { stmt(n); }

/* The type switch variable x in `switch x := y.(type)` must be used in
 * some clause; uses are counted by walking the clauses after checking. */
static bool usesobj(Node *n, void *o) {
	if (!n)
		return false;
	return (n->kind == N_IDENT && n->obj == o) || anychild(n, usesobj, o);
}

static void checktypeswitchuses(Node *n) {
	if (!n)
		return;
	if (n->kind == N_TYPESWITCH && n->name) {
		bool used = false;
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			for (int j = 0; j < c->list2.n; j++)
				if (c->obj && usesobj(c->list2.v[j], c->obj))
					used = true;
		}
		if (!used)
			errorat(n->c ? n->c->pos : n->pos, "declared and not used: %s", n->name);
	}
	if (n->kind == N_FUNCLIT)
		return; /* checked with its own body */
	checktypeswitchuses(n->a);
	checktypeswitchuses(n->b);
	checktypeswitchuses(n->c);
	checktypeswitchuses(n->d);
	for (int i = 0; i < n->list.n; i++)
		checktypeswitchuses(n->list.v[i]);
	for (int i = 0; i < n->list2.n; i++)
		checktypeswitchuses(n->list2.v[i]);
}

/* ---------------------------------------------------------------- functions */

void checkfuncbody(FuncInfo *fi, Node *body) {
	Saved s = save();
	Vec savedlabels = labels, saveduse = labeluse;
	Target *savedtargets = targets;
	memset(&labels, 0, sizeof labels);
	memset(&labeluse, 0, sizeof labeluse);
	targets = NULL;
	FuncInfo *outer = curfn;
	curfn = fi;
	fi->outer = fi->outer ? fi->outer : (outer != fi ? outer : NULL);
	curiota = -1;
	openscope();
	curscope->isfunc = true;
	curscope->fn = fi->node;
	Node *ft = fi->node->kind == N_FUNCDECL ? fi->node->b : fi->node->a;
	/* receiver, parameters, results */
	if (fi->node->kind == N_FUNCDECL && fi->node->a) {
		Node *r = fi->node->a;
		Type *rt = r->a->type ? r->a->type : typexpr(r->a);
		Node id = {0};
		id.kind = N_IDENT;
		id.name = r->list.n ? ((Node *)r->list.v[0])->name : blank;
		id.pos = r->list.n ? ((Node *)r->list.v[0])->pos : r->pos;
		Obj *o = declarelocal(&id, rt, O_VAR);
		o->param = true;
		o->used = true;
		fi->recv = o;
		if (r->list.n)
			((Node *)r->list.v[0])->obj = o;
	}
	Type *sig = fi->sig;
	int pi = 0;
	for (int pass = 0; pass < 2; pass++) {
		Vec *fs = pass ? &ft->list2 : &ft->list;
		Vec *sf = pass ? &sig->results : &sig->fields;
		pi = 0;
		for (int i = 0; i < fs->n; i++) {
			Node *f = fs->v[i];
			int cnt = f->list.n ? f->list.n : 1;
			for (int j = 0; j < cnt; j++, pi++) {
				Field *fd = pi < sf->n ? sf->v[pi] : NULL;
				Node id = {0};
				id.kind = N_IDENT;
				id.name = f->list.n ? ((Node *)f->list.v[j])->name : blank;
				id.pos = f->list.n ? ((Node *)f->list.v[j])->pos : f->pos;
				Obj *o = declarelocal(&id, fd ? fd->type : t_bad, O_VAR);
				o->used = true;
				if (pass) {
					o->result = true;
					if (f->list.n)
						fi->namedresults = true;
					vpush(&fi->results, o);
				} else {
					o->param = true;
					vpush(&fi->params, o);
				}
				if (f->list.n)
					((Node *)f->list.v[j])->obj = o;
			}
		}
	}
	/* the body shares the function's scope */
	collectlabels(body);
	for (int i = 0; i < body->list.n; i++)
		stmt(body->list.v[i]);
	checktypeswitchuses(body);
	if (sig->results.n && !isterminating(body, NULL))
		errorat((Pos){body->pos.file, (int)body->ival, 1}, "missing return");
	for (int i = 0; i < labels.n; i++) {
		Node *l = labels.v[i];
		bool used = false;
		for (int j = 0; j < labeluse.n; j++)
			if (labeluse.v[j] == l->name)
				used = true;
		if (!used)
			errorat(l->pos, "label %s defined and not used", l->name);
	}
	closescope();
	labels = savedlabels;
	labeluse = saveduse;
	targets = savedtargets;
	restore(s);
	curfn = outer;
}

void checkfunclit(Node *n) {
	Type *sig = functypeof(n->a, NULL);
	FuncInfo *fi = newfuncinfo(n, sig);
	fi->outer = curfn;
	if (curfn)
		vpush(&curfn->lits, n);
	vpush(&curpkg->funclits, n);
	n->type = sig;
	Saved s = save();
	checkfuncbody(fi, n->b);
	restore(s);
}

/* ---------------------------------------------------------------- packages */

static void collect(Package *p, Node *file, Scope *filescope, Vec *methods) {
	for (int i = 0; i < file->list2.n; i++) {
		Node *d = file->list2.v[i];
		d->scope = filescope;
		if (d->kind == N_FUNCDECL) {
			Obj *o = newobj(O_FUNC, d->name, d->pos);
			o->decl = d;
			o->pkg = p;
			o->global = true;
			o->directives = d->op;
			o->order = p->order++;
			d->obj = o;
			vpush(&p->funcs, o);
			if (!d->c && !(d->op & DIR_EXTERN))
				o->extern_ = true;
			if (d->a) {
				o->ismethod = true;
				vpush(methods, o);
				continue;
			}
			if (d->name == intern("init")) {
				if (d->b->list.n || d->b->list2.n)
					errorat(d->pos, "func init must have no arguments and no return values");
				vpush(&p->inits, o);
				continue;
			}
			if (d->name == intern("main") && !strcmp(p->path, "main") && (d->b->list.n || d->b->list2.n))
				errorat(d->pos, "func main must have no arguments and no return values");
			if (d->name == blank)
				continue;
			Obj *prev = lookuplocal(p->scope, d->name);
			if (prev)
				redeclared(o, prev);
			else
				declare(p->scope, o);
			continue;
		}
		Node *prevspec = NULL;
		for (int j = 0; j < d->list.n; j++) {
			Node *spec = d->list.v[j];
			spec->scope = filescope;
			if (d->op == TK_TYPE) {
				Obj *o = newobj(O_TYPE, spec->name, spec->pos);
				o->decl = spec;
				o->pkg = p;
				o->global = true;
				o->used = true;
				o->order = p->order++;
				if (spec->op != 1) {
					Type *t = newtype(T_NAMED);
					t->name = spec->name;
					t->pkg = p;
					t->obj = o;
					t->decl = spec;
					o->type = t;
				}
				vpush(&p->types, o);
				if (spec->name == blank)
					continue;
				Obj *prev = lookuplocal(p->scope, spec->name);
				if (prev)
					redeclared(o, prev);
				else
					declare(p->scope, o);
				continue;
			}
			/* const specs without values repeat the previous spec */
			if (d->op == TK_CONST) {
				if (!spec->list2.n && !spec->a && prevspec)
					spec->orig = prevspec;
				else
					prevspec = spec;
			}
			for (int k = 0; k < spec->list.n; k++) {
				Node *id = spec->list.v[k];
				Obj *o = newobj(d->op == TK_CONST ? O_CONST : O_VAR, id->name, id->pos);
				o->decl = spec;
				o->pkg = p;
				o->global = true;
				o->used = true;
				o->order = p->order++;
				id->obj = o;
				if (d->op == TK_VAR)
					vpush(&p->vars, o);
				if (id->name == blank)
					continue;
				Obj *prev = lookuplocal(p->scope, id->name);
				if (prev)
					redeclared(o, prev);
				else
					declare(p->scope, o);
			}
		}
	}
}

static void attachmethod(Package *p, Obj *o) {
	Node *d = o->decl;
	Node *r = d->a;
	Node *tn = r->a;
	bool ptr = false;
	if (tn->kind == N_STAR) {
		tn = tn->a;
		ptr = true;
	}
	while (tn->kind == N_PAREN)
		tn = tn->a;
	if (tn->kind != N_IDENT) {
		errorat(tn->pos, "invalid receiver type %s", exprstr(r->a));
		return;
	}
	Obj *to = lookuplocal(p->scope, tn->name);
	if (!to) {
		Obj *u = lookup(universe, tn->name);
		if (u && u->kind == O_TYPE)
			errorat(tn->pos, "cannot define new methods on non-local type %s", tn->name);
		else
			errorat(tn->pos, "undefined: %s", tn->name);
		return;
	}
	if (to->kind != O_TYPE) {
		errorat(tn->pos, "%s is not a type", tn->name);
		return;
	}
	Type *t = to->type;
	if (!t || t->kind != T_NAMED) {
		errorat(tn->pos, "cannot define new methods on non-local type %s", tn->name);
		return;
	}
	objdecl(to);
	Type *u = under(t);
	if (u->kind == T_POINTER || u->kind == T_INTERFACE) {
		errorat(tn->pos, "invalid receiver type %s (pointer or interface type)", tn->name);
		return;
	}
	if (d->name == blank)
		return;
	for (int i = 0; i < t->methods.n; i++) {
		Method *m = t->methods.v[i];
		if (m->name == d->name) {
			errorat(d->pos, "method %s.%s already declared", tn->name, d->name);
			return;
		}
	}
	if (u->kind == T_STRUCT)
		for (int i = 0; i < u->fields.n; i++)
			if (((Field *)u->fields.v[i])->name == d->name) {
				errorat(d->pos, "field and method with the same name %s", d->name);
				return;
			}
	Method *m = xalloc(sizeof *m);
	m->name = d->name;
	m->fn = o;
	m->pkg = p;
	m->ptrrecv = ptr;
	m->pos = d->pos;
	o->lit = (Node *)m;
	o->recvtype = t;
	o->ptrrecv = ptr;
	vpush(&t->methods, m);
}

/* Go's package initialization order: repeatedly the earliest variable (in
 * declaration order) that depends on no uninitialized variable, where
 * dependencies go through the functions an initializer refers to. */
static void depsof(Obj *o, Vec *out, Vec *visited) {
	for (int i = 0; i < o->refs.n; i++) {
		Obj *r = o->refs.v[i];
		bool seen = false;
		for (int j = 0; j < visited->n; j++)
			if (visited->v[j] == r)
				seen = true;
		if (seen)
			continue;
		vpush(visited, r);
		if (r->kind == O_VAR)
			vpush(out, r);
		else if (r->kind == O_FUNC)
			depsof(r, out, visited);
	}
}

static void initorder(Package *p) {
	int n = p->vars.n;
	Vec deps[n > 0 ? n : 1];
	bool done[n > 0 ? n : 1];
	for (int i = 0; i < n; i++) {
		memset(&deps[i], 0, sizeof deps[i]);
		Vec visited = {0};
		depsof(p->vars.v[i], &deps[i], &visited);
		done[i] = false;
	}
	Vec order = {0};
	for (int round = 0; round < n; round++) {
		int pick = -1;
		for (int i = 0; i < n && pick < 0; i++) {
			if (done[i])
				continue;
			bool ready = true;
			for (int j = 0; j < deps[i].n && ready; j++) {
				Obj *d = deps[i].v[j];
				if (d->pkg != p)
					continue;
				for (int k = 0; k < n; k++)
					if (p->vars.v[k] == d && !done[k] && d->decl != ((Obj *)p->vars.v[i])->decl)
						ready = false;
			}
			if (ready)
				pick = i;
		}
		if (pick < 0) {
			for (int i = 0; i < n; i++)
				if (!done[i]) {
					Obj *o = p->vars.v[i];
					errorat(o->pos, "initialization cycle for %s", o->name);
					break;
				}
			break;
		}
		/* the whole spec initializes together */
		Obj *o = p->vars.v[pick];
		for (int i = 0; i < n; i++)
			if (((Obj *)p->vars.v[i])->decl == o->decl)
				done[i] = true;
		vpush(&order, o->decl);
	}
	p->vars = order;
}

void checkpackage(Package *p) {
	int sizedmark = sizedtypes.n; /* an import's checkpackage runs inside this one */
	Package *saved = curpkg;
	curpkg = p;
	blank = intern("_");
	p->scope = newscope(universe);
	Vec methods = {0}, filescopes = {0};
	bool badimport = false;
	for (int i = 0; i < p->files.n; i++) {
		Node *f = p->files.v[i];
		Scope *fs = newscope(p->scope);
		vpush(&filescopes, fs);
		for (int j = 0; j < f->list.n; j++) {
			Node *imp = f->list.v[j];
			Package *ip = importpackage(imp->lit, imp->pos);
			if (!ip) { /* said at the import; its uses are not errors again */
				badimport = true;
				ip = xalloc(sizeof *ip);
				ip->path = ip->ipath = intern(imp->lit);
				ip->name = intern(strrchr(imp->lit, '/') ? strrchr(imp->lit, '/') + 1 : imp->lit);
				ip->bad = ip->checked = true;
			}
			const char *name = imp->name ? imp->name : ip->name;
			if (name == blank)
				continue;
			Obj *o = newobj(O_PKG, intern(name), imp->pos);
			o->imported = ip;
			o->decl = imp;
			imp->obj = o;
			if (lookuplocal(fs, o->name))
				errorat(imp->pos, "%s redeclared in this block", o->name);
			else
				declare(fs, o);
		}
	}
	/* A package that cannot be loaded is not checked, as go build stops
	 * at its import errors: what the missing package would have declared
	 * made only follow-on errors ("m.String undefined (type *invalid
	 * type …)") after the one that says why. */
	if (badimport) {
		p->bad = p->checked = true; /* and its importers' uses of it are not errors either */
		curpkg = saved;
		return;
	}
	for (int i = 0; i < p->files.n; i++)
		collect(p, p->files.v[i], filescopes.v[i], &methods);
	/* package-level names may not collide with the file's imports */
	for (int i = 0; i < filescopes.n; i++) {
		Scope *fs = filescopes.v[i];
		for (int j = 0; j < fs->objs.n; j++) {
			Obj *im = fs->objs.v[j];
			Obj *o = lookuplocal(p->scope, im->name);
			if (o)
				errorat(o->pos, "%s already declared through import of package %s", o->name, im->imported->path);
		}
	}
	for (int i = 0; i < methods.n; i++) {
		Obj *o = methods.v[i];
		curscope = o->decl->scope;
		attachmethod(p, o);
	}
	/* declarations, in source order */
	for (int i = 0; i < p->types.n; i++)
		objdecl(p->types.v[i]);
	for (int i = 0; i < p->types.n; i++) {
		Obj *o = p->types.v[i];
		if (o->type && o->type->kind == T_NAMED) {
			Type *u = under(o->type);
			if (u->kind == T_STRUCT || u->kind == T_ARRAY) {
				/* a struct or array that contains itself has no size */
				Type *t = o->type;
				t->layoutstate = 0;
				u->layoutstate = 0;
			}
		}
	}
	for (int f = 0; f < p->files.n; f++) {
		Node *file = p->files.v[f];
		for (int i = 0; i < file->list2.n; i++) {
			Node *d = file->list2.v[i];
			if (d->kind == N_FUNCDECL) {
				objdecl(d->obj);
				continue;
			}
			for (int j = 0; j < d->list.n; j++) {
				Node *spec = d->list.v[j];
				if (d->op == TK_TYPE)
					continue;
				for (int k = 0; k < spec->list.n; k++) {
					Node *id = spec->list.v[k];
					if (id->obj)
						objdecl(id->obj);
				}
			}
		}
	}
	/* invalid recursive types show up as layouts that never finish */
	for (int i = 0; i < p->types.n; i++) {
		Obj *o = p->types.v[i];
		if (!o->type || o->type->kind != T_NAMED || !o->type->underlying)
			continue;
		Type *u = o->type->underlying;
		if (u->kind == T_STRUCT || u->kind == T_ARRAY) {
			/* detect self-containment by a depth-first walk */
			Vec stack = {0};
			vpush(&stack, o->type);
			bool cyc = false;
			Vec work = {0};
			vpush(&work, u);
			int guard = 0;
			while (work.n && !cyc && guard++ < 10000) {
				Type *t = work.v[--work.n];
				if (t->kind == T_ARRAY) {
					if (t->elem == o->type)
						cyc = true;
					else if (t->elem->kind == T_NAMED && t->elem->underlying && t->elem->pkg == p)
						vpush(&work, t->elem->underlying);
					else
						vpush(&work, t->elem);
				} else if (t->kind == T_STRUCT) {
					for (int j = 0; j < t->fields.n; j++) {
						Type *ft = ((Field *)t->fields.v[j])->type;
						if (ft == o->type)
							cyc = true;
						else if (ft->kind == T_NAMED && ft->underlying && ft->pkg == p)
							vpush(&work, ft->underlying);
						else if (ft->kind == T_STRUCT || ft->kind == T_ARRAY)
							vpush(&work, ft);
					}
				}
			}
			if (cyc) {
				errorat(o->pos, "invalid recursive type %s", o->name);
				continue;
			}
		}
	}
	/* bodies */
	for (int i = 0; i < p->funcs.n; i++) {
		Obj *o = p->funcs.v[i];
		Node *d = o->decl;
		if (d->op & DIR_EXTERN) {
			curpkg = p;
			checkextern(o);
			continue;
		}
		if (!d->c) {
			if (!strcmp(p->path, "main") || !p->files.n)
				errorat(d->pos, "missing function body");
			continue;
		}
		if (d->op & DIR_NOESCAPE)
			errorat(d->pos, "can only use //go:noescape with external func implementations");
		FuncInfo *fi = newfuncinfo(d, o->type);
		fi->obj = o;
		curscope = d->scope;
		curdecl = o;
		checkfuncbody(fi, d->c);
		curdecl = NULL;
	}
	/* unused imports */
	for (int i = 0; i < filescopes.n; i++) {
		Scope *fs = filescopes.v[i];
		for (int j = 0; j < fs->objs.n; j++) {
			Obj *o = fs->objs.v[j];
			if (o->kind == O_PKG && !o->used && !o->imported->bad) {
				if (o->decl && o->decl->name)
					errorat(o->pos, "\"%s\" imported as %s and not used", o->imported->path, o->name);
				else
					errorat(o->pos, "\"%s\" imported and not used", o->imported->path);
			}
		}
	}
	if (!strcmp(p->path, "main")) {
		Obj *m = lookuplocal(p->scope, intern("main"));
		if (!m || m->kind != O_FUNC)
			errorat((Pos){((Node *)p->files.v[0])->pos.file, 1, 1}, "function main is undeclared in the main package");
	}
	if (nerrors()) /* a recursive type has no size to take */
		sizedtypes.n = sizedmark;
	else
		checktypesizes(sizedmark);
	initorder(p);
	p->checked = true;
	curpkg = saved;
}
