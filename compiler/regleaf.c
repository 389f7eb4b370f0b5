/* regleaf.c — leaves that keep their pointers in registers.
 *
 * A data frame exists so that a stack scan finds a function's pointers
 * and so that copystack can fix those that point into the stack (S1, S4).
 * Both happen only at a safe point: a call that may reach the scheduler,
 * the collector or morestack.  A *leaf* — a function that makes no such
 * call — meets a stack scan in one way only: stopped asynchronously by
 * the preemption signal while it runs, and then it is the innermost frame,
 * which the scan reads conservatively, saved registers and C frame alike
 * (runtime/preempt.c, asyncframe).  And its stack never moves while it
 * runs: copystack runs in morestack, at a synchronous safe point, and
 * never for a goroutine stopped asynchronously (S8).  So a leaf's
 * pointers, strings, slices and interfaces can be C locals, as Go keeps
 * them in registers between safe points, and a leaf with nothing else to
 * put in a data frame has none: no alloca, no frame chain link, no entry
 * zeroing, and, as a frameless leaf, no stack check; gcc may then inline
 * it into its callers, which is where most of the time of a call such as
 * time's digitAt(s, i) went.
 *
 * Its panics are calls too, but they never come back into it: a panic
 * unwinds the leaf (goto unwind), so nothing it holds is read after one.
 *
 * A *bare leaf* is a register leaf that calls nothing at all and has no
 * data frame, hence no stack check: a call of one cannot stop the
 * goroutine or move its stack, so it is no safe point, and a function
 * whose only calls are of its package's bare leaves is a register
 * function too (its own prologue check comes before any C local holds a
 * pointer).  While the leaf runs, the caller's pointers are in
 * callee-saved registers or in the caller's C frame, which the scan of an
 * asynchronous stop reads up to the frame record of the innermost data
 * frame's owner (runtime/preempt.c, asyncframe).
 *
 * regleafok and bareleaf decide before the body is written, from the
 * checked tree, so the rule has to be conservative: anything whose C might
 * be a safe point — a call other than an intrinsic, len, cap, min, max,
 * copy, panic of an interface or constant, or a bare leaf; an allocation, a map,
 * channel or interface operation, a conversion that builds a value —
 * makes the function an ordinary one.  The emitter checks the predictions:
 * pcline() (the mark of every safe point) in a function emitted this way,
 * or a call or a data frame in a bare leaf, is glc's internal error, never
 * a silent loss of a root.  Variables stay where S1 puts them when their
 * address is taken or they are captured, and struct and array variables
 * stay in a data frame (which then has its stack check, whose morestack
 * fixes the parameters before any C local is set from them); a register
 * function's temporaries are all C locals. */
#include <string.h>

#include "emitint.h"

/* At most this many bytes of gl locals move into C locals, and at most
 * this many variables: a frameless register leaf may call runtime C with
 * no check of its own, so gcc's fixed frame, spills included, must leave
 * RTCALL of the band free (stackcheck.c: at most 280 bytes), or glc would
 * reject the program ("its C frame is too large"). */
enum { REGLEAF_BYTES = 256, REGLEAF_VARS = 32 };

/* Kinds whose values can be C locals in a leaf: scalars with pointers,
 * and the small headers (string, slice, interface). */
bool regleafkind(Type *t) {
	switch (under(t)->kind) {
	case T_POINTER: case T_UNSAFEPTR: case T_MAP: case T_CHAN: case T_FUNC:
	case T_STRING: case T_SLICE: case T_INTERFACE:
		return true;
	}
	return false;
}

static bool isiface(Type *t) { return t && under(t)->kind == T_INTERFACE; }
static bool isnil(Node *n) { return n && (n->flags & NF_NIL); }

static bool okexpr(Node *n);
static bool okbody(FuncInfo *fi, bool bare);

/* Whether the tree being looked at may call its package's bare leaves
 * (regleafok's functions may; bareleaf's may call nothing). */
static bool leafcalls;

/* okbody(fi, bare), decided once: *memo is 1 for yes, 2 for no. */
static bool decide(int *memo, FuncInfo *fi, bool bare) {
	if (!*memo) {
		bool saved = leafcalls;
		leafcalls = !bare;
		*memo = okbody(fi, bare) ? 1 : 2;
		leafcalls = saved;
	}
	return *memo == 1;
}

/* The function a call n calls statically, in the package being compiled,
 * with its body; NULL otherwise. */
static FuncInfo *samepkgcallee(Node *n) {
	Node *f = n->a;
	while (f->kind == N_PAREN)
		f = f->a;
	Obj *o = NULL;
	if ((f->kind == N_IDENT || (f->kind == N_SELECTOR && f->op == SEL_PKG)) && f->obj && f->obj->kind == O_FUNC)
		o = f->obj;
	else if (f->kind == N_SELECTOR && f->op == SEL_METHOD && f->meth)
		o = ((Method *)f->meth)->fn;
	if (!o || o->kind != O_FUNC || o->pkg != curpkg || o->extern_ || !o->decl || o->decl->kind != N_FUNCDECL ||
	    !o->decl->c)
		return NULL;
	return o->decl->aux;
}

/* Function fi is a bare leaf: a register leaf that calls nothing at all
 * and needs no data frame, so it has no stack check either (emitstmt.c,
 * emitprologue).  A call of one is not a safe point: nothing in it can
 * stop the goroutine but the signal, or move the stack; its caller can
 * then be a register function too, and need not re-derive its frame
 * after it.  emitfunc checks the prediction. */
bool bareleaf(FuncInfo *fi) { return decide(&fi->bareleaf, fi, true); }

/* The callee of call n when it is a bare leaf of this package, or NULL. */
FuncInfo *bareleafcallee(Node *n) {
	FuncInfo *c = samepkgcallee(n);
	return c && bareleaf(c) ? c : NULL;
}

/* The callee of call n when gcc may inline it: a register leaf of this
 * package (a function with a data frame carves it with alloca, which gcc
 * never inlines).  Its call's record is an inline mark (gl.h). */
FuncInfo *inlinablecallee(Node *n) {
	FuncInfo *c = samepkgcallee(n);
	return c && regleafok(c) ? c : NULL;
}

/* A value of n's type flowing into a place of type to: a concrete value
 * into an interface is a conversion that may allocate. */
static bool okflow(Type *to, Node *n) {
	if (!okexpr(n))
		return false;
	return !isiface(to) || isnil(n) || isiface(n->type) || n->cv != NULL;
}

static bool oklist(Vec *v) {
	for (int i = 0; i < v->n; i++)
		if (!okexpr(v->v[i]))
			return false;
	return true;
}

/* A conversion that only reinterprets or moves bits, never builds a new
 * string or slice. */
static bool plainconv(Type *to, Type *from) {
	Type *a = under(to), *b = under(from);
	if (isinteger(a) || isfloat(a) || a->kind == T_BOOL || a->kind == T_UNSAFEPTR || a->kind == T_POINTER)
		return isinteger(b) || isfloat(b) || b->kind == T_BOOL || b->kind == T_UNSAFEPTR || b->kind == T_POINTER ||
		       (b->kind >= T_UNTYPED_BOOL && b->kind <= T_UNTYPED_FLOAT);
	return a->kind == b->kind && a->kind != T_INTERFACE && a->kind != T_SLICE;
}

static bool okcall(Node *n) {
	Node *f = n->a;
	if (n->flags & NF_SPREAD)
		return false;
	if (n->flags & NF_CONVERSION)
		return n->list.n == 1 && plainconv(n->type, ((Node *)n->list.v[0])->type) && oklist(&n->list);
	while (f->kind == N_PAREN)
		f = f->a;
	Obj *o = f->obj;
	if (o && o->kind == O_BUILTIN) {
		switch (o->builtin) {
		case B_LEN: case B_CAP: case B_MIN: case B_MAX:
		case B_COPY: /* slicecopy or typedslicecopy: runtime C that never stops */
			return oklist(&n->list);
		case B_PANIC:
			return n->list.n == 1 && okflow(n->list.v[0] ? ((Node *)n->list.v[0])->type : NULL, n->list.v[0]) &&
			       (isiface(((Node *)n->list.v[0])->type) || ((Node *)n->list.v[0])->cv != NULL);
		}
		return false;
	}
	if ((f->kind == N_IDENT || (f->kind == N_SELECTOR && f->op == SEL_PKG)) && o && o->kind == O_FUNC &&
	    (intrinsicname(o) || intrinsicpair(o)))
		return oklist(&n->list);
	FuncInfo *c = leafcalls ? samepkgcallee(n) : NULL;
	if (!c || under(f->type)->variadic || !bareleaf(c))
		return false;
	if (f->kind == N_SELECTOR && f->op == SEL_METHOD && !okexpr(f->a))
		return false;
	Type *sig = under(f->type);
	for (int i = 0; i < n->list.n; i++)
		if (i >= sig->fields.n || !okflow(((Field *)sig->fields.v[i])->type, n->list.v[i]))
			return false;
	return true;
}

static bool okexpr(Node *n) {
	if (!n)
		return true;
	if (n->cv || (n->flags & NF_TYPE))
		return true; /* a constant or a type: no code */
	Type *t = n->type;
	if (t && (under(t)->kind == T_COMPLEX64 || under(t)->kind == T_COMPLEX128 || under(t)->kind == T_TUPLE))
		return false;
	if (t && (under(t)->kind == T_STRUCT || under(t)->kind == T_ARRAY) && tsize(t) > REGLEAF_TEMP)
		return false; /* its copies would need a data frame */
	switch (n->kind) {
	case N_IDENT:
		return !n->obj || n->obj->kind != O_FUNC; /* a function as a value is a closure object */
	case N_INTLIT: case N_FLOATLIT: case N_RUNELIT: case N_STRLIT:
		return true;
	case N_PAREN:
		return okexpr(n->a);
	case N_SELECTOR:
		if (n->op == SEL_PKG)
			return !n->obj || n->obj->kind != O_FUNC;
		return n->op == SEL_FIELD && okexpr(n->a);
	case N_INDEX:
		return under(n->a->type)->kind != T_MAP && okexpr(n->a) && okexpr(n->b);
	case N_SLICEEXPR:
		return under(n->a->type)->kind != T_ARRAY && okexpr(n->a) && okexpr(n->b) && okexpr(n->c) && okexpr(n->d);
	case N_STAR:
		return okexpr(n->a);
	case N_UNARY:
		return n->op != TK_AND && n->op != TK_ARROW && okexpr(n->a);
	case N_BINARY: {
		Type *ta = n->a->type, *tb = n->b->type;
		if (isiface(ta) || isiface(tb)) /* efaceeq, ifaceeq: calls */
			return (isnil(n->a) || isnil(n->b)) && okexpr(n->a) && okexpr(n->b);
		int k = ta ? under(ta)->kind : T_BAD;
		if (k == T_STRUCT || k == T_ARRAY)
			return false;
		if (n->op == TK_ADD && (k == T_STRING || k == T_UNTYPED_STRING))
			return false; /* concatenation allocates */
		return okexpr(n->a) && okexpr(n->b);
	}
	case N_CALL:
		return okcall(n);
	}
	return false; /* composite and function literals, type assertions, ... */
}

static bool okstmt(Node *n, FuncInfo *fi);

static bool okstmts(Vec *v, FuncInfo *fi) {
	for (int i = 0; i < v->n; i++)
		if (!okstmt(v->v[i], fi))
			return false;
	return true;
}

/* The type of what an assignment or declaration writes: a declared
 * name's type is its object's (the checker types the object, not always
 * the name's node); NULL if unknown, which the callers refuse. */
static Type *placetype(Node *l) {
	if (l->kind == N_IDENT && l->obj && l->obj->type)
		return l->obj->type;
	return l->type;
}

/* lhs = rhs, pairwise (a call with several results is not a leaf's). */
static bool okassign(Vec *lhs, Vec *rhs, int op) {
	if (lhs->n != rhs->n)
		return false;
	for (int i = 0; i < lhs->n; i++) {
		Node *l = lhs->v[i], *r = rhs->v[i];
		if (l->kind == N_INDEX && under(l->a->type)->kind == T_MAP)
			return false;
		if (op == TK_ADD && l->type && under(l->type)->kind == T_STRING)
			return false;
		bool blank = l->kind == N_IDENT && !strcmp(l->name, "_");
		Type *to = blank ? r->type : placetype(l);
		if (!to || (!blank && !okexpr(l)) || !okflow(to, r))
			return false;
	}
	return true;
}

static bool okstmt(Node *n, FuncInfo *fi) {
	if (!n)
		return true;
	switch (n->kind) {
	case N_EMPTY: case N_BRANCH:
		return true;
	case N_BLOCK:
		return okstmts(&n->list, fi);
	case N_LABELED:
		return okstmt(n->a, fi);
	case N_EXPRSTMT:
		return n->a->kind == N_CALL && okcall(n->a);
	case N_ASSIGN: case N_DEFINE:
		return okassign(&n->list, &n->list2, n->op);
	case N_INCDEC:
		return okexpr(n->a);
	case N_IF:
		return okstmt(n->a, fi) && okexpr(n->b) && okstmt(n->c, fi) && okstmt(n->d, fi);
	case N_FOR:
		return okstmt(n->a, fi) && okexpr(n->b) && okstmt(n->c, fi) && okstmt(n->d, fi);
	case N_RANGE:
		if (n->ival != RANGE_SLICE && n->ival != RANGE_STRING && n->ival != RANGE_INT)
			return false;
		return okexpr(n->a) && oklist(&n->list) && okstmt(n->d, fi);
	case N_SWITCH:
		if (!okstmt(n->a, fi) || !okexpr(n->b) || (n->b && isiface(n->b->type)))
			return false;
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			if (!oklist(&c->list) || !okstmts(&c->list2, fi))
				return false;
			for (int k = 0; k < c->list.n; k++)
				if (isiface(((Node *)c->list.v[k])->type))
					return false;
		}
		return true;
	case N_RETURN: {
		Type *sig = fi->sig;
		if (n->list.n == 0)
			return true;
		if (n->list.n != fi->results.n)
			return false;
		for (int i = 0; i < n->list.n; i++)
			if (!okflow(((Obj *)fi->results.v[i])->type, n->list.v[i]))
				return false;
		(void)sig;
		return true;
	}
	case N_DECLSTMT:
		for (int i = 0; i < n->list.n; i++) {
			Node *s = n->list.v[i];
			if (s->kind != N_VALUESPEC || n->op != TK_VAR)
				continue;
			if (s->list2.n != s->list.n && s->list2.n)
				return false;
			for (int k = 0; k < s->list2.n; k++) {
				Type *to = placetype(s->list.v[k]);
				if (!to || !okflow(to, s->list2.v[k]))
					return false;
			}
		}
		return true;
	}
	return false; /* go, defer, select, send, type switches */
}

/* Variables a leaf must leave where S1 puts them: in the heap (captured,
 * escaping) or in a data frame at a known address (address taken). */
static bool plainvars(Vec *v, int64_t *bytes, bool bare) {
	for (int i = 0; i < v->n; i++) {
		Obj *o = v->v[i];
		if (!o)
			continue;
		if (o->captured || o->addrtaken || o->onheap || (o->type && tsize(o->type) > 65536))
			return false; /* in a heap box (emitstmt.c, declarevar) */
		if (bare && o->type && !regleafkind(o->type) && haspointers(o->type))
			return false; /* a struct or array with pointers needs a data frame */
		if (bare && o->type && (under(o->type)->kind == T_STRUCT || under(o->type)->kind == T_ARRAY))
			return false;
		if (o->type && regleafkind(o->type))
			*bytes += tsize(o->type);
	}
	return true;
}

/* Whether function fi can be emitted as a register leaf (Fn.regleaf):
 * calling nothing but its package's bare leaves. */
bool regleafok(FuncInfo *fi) { return decide(&fi->regleaf, fi, false); }

static bool okbody(FuncInfo *fi, bool bare) {
	Node *node = fi->node;
	if (node->kind == N_FUNCLIT || (fi->pkg && fi == fi->pkg->varinit) || fi->hasdefer || fi->hasrecover || fi->captures.n)
		return false;
	if (fi->obj && (fi->obj->directives & (DIR_NOSPLIT | DIR_WRAPPER)))
		return false;
	int64_t bytes = 0;
	Vec recv = {0};
	if (fi->recv)
		vpush(&recv, fi->recv);
	if (!plainvars(&recv, &bytes, bare) || !plainvars(&fi->params, &bytes, bare) || !plainvars(&fi->results, &bytes, bare) ||
	    !plainvars(&fi->locals, &bytes, bare) || bytes > REGLEAF_BYTES ||
	    fi->params.n + fi->results.n + fi->locals.n > REGLEAF_VARS)
		return false;
	return node->c && okstmt(node->c, fi);
}
