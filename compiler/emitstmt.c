/* emitstmt.c — functions and statements.
 *
 * A gl function becomes one C function:
 *
 *   GL_FUNC static RT name(G *g, [GlFunc *ctx,] [RT *out,] [recv,] params) {
 *       entry marker; prologue check; data frame carved, zeroed and linked;
 *       parameters that live in the frame copied in;
 *       the body, in which every call is its own statement followed by a
 *       reload of the frame pointer and a check for unwinding;
 *   ret:    deferred calls run, the frame unlinked, the results returned;
 *   unwind: a recovered panic passing through: return at once (or, in the
 *           frame that deferred the recovering call, continue at ret).
 *   }
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "emitint.h"

Fn *fn;
Buf *out;
static Type *selectcasetype; /* runtime's scase {c, elem}: emitselect's, made once per program */

void emitstmtforget(void) {
	fn = NULL;
	out = NULL;
	selectcasetype = NULL;
}

typedef struct Labels {
	const char *brk, *cont;
	Vec clauses; /* switch: body label of each clause, for fallthrough */
} Labels;

void line(const char *fmt, ...) {
	/* a line at a lower depth than the last one ends the blocks below it */
	for (int d = fn->indent + 1; d <= fn->lastindent && d < MAXDEPTH; d++)
		fn->levelgen[d]++;
	fn->lastindent = fn->indent;
	for (int i = 0; i < fn->indent; i++)
		bputc(out, '\t');
	va_list ap;
	va_start(ap, fmt);
	bvprintf(out, fmt, ap);
	va_end(ap);
	bputc(out, '\n');
}

/* A C label: a place a jump may reach without passing what precedes it,
 * so the nil checks made before it in its block no longer hold after it. */
void label(const char *name) {
	line("%s:;", name);
	nilfactsforget(fn->indent);
}

void srcline(Pos p) {
	if (p.line <= 0 || (p.line == fn->line && fn->file == fileof(p)))
		return;
	fn->line = p.line;
	fn->file = fileof(p);
	if (fn->srclineend == out->n && fn->srclineend > 0) /* nothing under the last one: replace it */
		out->n = fn->srclinestart;
	fn->srclinestart = out->n;
	line("/* %s:%d */", fn->file, p.line);
	fn->srclineend = out->n;
}

const char *newlabel(const char *what) { return xprintf("L%d_%s", ++fn->nlabel, what); }

/* ---------------------------------------------------------------- variables */

/* Members holding pointers come first in the frame: only they need
 * zeroing at entry (so the stack map never shows garbage); the rest are
 * written before they are read. */
/* A member of the data frame of gl type t and C type ct. */
static void framememberc(const char *name, Type *t, const char *ct, const char *comment) {
	if (haspointers(t)) {
		bprintf(&fn->frameptr, "\t%s %s;%s\n", ct, name, comment ? comment : "");
		vpush(&fn->frameslots, (void *)name);
		vpush(&fn->frametypes, t);
	} else
		plainmember(name, xprintf("\t%s %s;%s\n", ct, name, comment ? comment : ""));
}

/* A frame member without pointers (declared by decl); the first one's
 * offset is where the part that entry zeroes ends. */
void plainmember(const char *name, const char *decl) {
	if (!fn->frame.n)
		fn->firstplain = name;
	bput(&fn->frame, decl);
}

static void framemember(const char *name, Type *t, const char *comment) { framememberc(name, t, ctype(t), comment); }

/* Local o, in the frame with its address taken, is a stack object (Go's
 * name): a pointer may reach it where no statement names it, so it cannot
 * be zeroed at its last use; bit k of the frame's dead mask says instead
 * that no statement names it any more, and the collector then scans it
 * only if a pointer it finds on the stack points into it (runtime
 * mgcstack.c).  A new variable is live from its declaration (GL_OBJLIVE,
 * written here, where the declaration runs; a parameter's bit is zero
 * from the frame's entry).  64 bits: a 65th such local is scanned always.
 * Named results are read by every return: scanned always. */
static void stackobject(Obj *o) {
	if (o->result || !haspointers(o->type) || fn->objslots.n == 64)
		return;
	if (fn->objslots.n == 0)
		bprintf(&fn->frameptr, "\tuint64_t gl_objdead; /* stack objects named by no later statement (GL_OBJDEAD) */\n");
	vpush(&fn->objslots, (void *)o->cname);
	o->objbit = fn->objslots.n;
	if (!o->param)
		line("GL_OBJLIVE(fp, %d);", o->objbit - 1);
}

/* Local o is named by no later statement: zero its member, or for a stack
 * object mark it dead. */
static void killvar(Obj *o) {
	if (o->objbit)
		line("GL_OBJDEAD(fp, %d);", o->objbit - 1);
	else
		line("GL_CLEAR(%s);", slotref(o));
}

/* Decide where a local lives: the heap when captured or address-taken,
 * the data frame when it holds pointers or is an aggregate, else a C local. */
void declarevar(Obj *o) {
	if (o->slot)
		return;
	const char *nm = cname(o->name);
	o->cname = nm;
	Type *t = o->type ? o->type : types[T_INT];
	if (tsize(t) > maxTypeSize) { /* Go's error too, at the variable */
		errorat(o->pos, "type %s larger than address space", typestrq(t, NULL));
		t = types[T_INT];
	}
	const char *comment = xprintf(" /* %s %s:%d */", o->name, fileof(o->pos), o->pos.line);
	/* escape.c decided whether an address-taken local may stay in the
	 * frame; a pointer to it is then a pointer into the stack, which only
	 * frame slots and parameters ever hold (S4) */
	if (o->captured || (o->addrtaken && o->escapes) || (tsize(t) > 65536)) {
		o->slot = S_BOX;
		framemember(nm, ptrto(t), comment);
		if (!o->param && !o->result)
			vpush(&fn->scopevars, o);
	} else if (inframe(t) || o->addrtaken) {
		o->slot = S_FRAME;
		framemember(nm, t, comment);
		if (o->addrtaken)
			stackobject(o);
		if (!o->param && !o->result && (!o->addrtaken || o->objbit) && haspointers(t))
			vpush(&fn->scopevars, o);
	} else {
		o->slot = S_LOCAL;
		bprintf(&fn->decls, "\t%s %s;%s\n", ctype(t), nm, comment);
	}
}

/* The zero value a C local is set to: 0, or a register leaf's string,
 * slice or interface header of zeros. */
static const char *czero(Type *t) {
	int k = under(t)->kind;
	return k == T_STRING || k == T_SLICE || k == T_INTERFACE ? zeroval(t) : "0";
}

/* At the declaration: a fresh zero value (a new box for heap variables, so
 * each loop iteration's variable is its own, as Go 1.22 says). */
void initvar(Obj *o) {
	Type *t = o->type;
	switch (o->slot) {
	case S_BOX:
		pcline();
		callto(xprintf("fp->%s", o->cname), xprintf("newobject(%s)", typedesc(t)));
		afterCall(false);
		break;
	case S_FRAME:
		line("memset(&fp->%s, 0, sizeof fp->%s);", o->cname, o->cname);
		break;
	case S_LOCAL:
		line("%s = %s;", o->cname, czero(t));
		break;
	}
}

const char *varref(Obj *o) {
	if (!o->slot && o->global) {
		o->slot = S_GLOBAL;
		if (!o->cname)
			o->cname = globalname(xprintf("%s_%s", o->pkg ? o->pkg->cprefix : "x", gident(o->name)));
	}
	switch (o->slot) {
	case S_LOCAL: return cmark(o->cname, CE_LOCAL);
	case S_FRAME: return cmark(xprintf("fp->%s", o->cname), CE_FRAME);
	case S_BOX: return cmark(derefptr(xprintf("fp->%s", o->cname), ptrto(o->type)), CE_BOXED);
	case S_GLOBAL:
		declareglobal(o);
		if (checkstores) /* written only by store(), as the heap */
			return cmark(xprintf("(*(%s const *)&%s)", ctype(o->type), o->cname), CE_GLOBAL);
		return cmark(o->cname, CE_GLOBAL);
	}
	fatal("internal error: variable %s has no storage (%s:%d)", o->name, fileof(o->pos), o->pos.line);
}

Place varplace(Obj *o) {
	const char *c = varref(o);
	return (Place){c, o->slot == S_BOX || o->slot == S_GLOBAL ? PL_HEAP : PL_STACK};
}

/* ---------------------------------------------------------------- statements */

/* The frame member that holds local o: the variable itself, or the
 * pointer to its box (zeroing that drops this frame's reference; a
 * closure keeps its own). */
const char *slotref(Obj *o) {
	return o->slot == S_BOX ? xprintf("fp->%s", o->cname) : varref(o);
}

/* Whether o can die before its scope ends: the collector scans its
 * member, and only its name reaches it -- or it is a stack object, which
 * a pointer may reach, and is marked dead instead (killvar).  Named
 * results are read by every return. */
static bool scoped(Obj *o) {
	if (o->result)
		return false;
	return o->slot == S_BOX || (o->slot == S_FRAME && (!o->addrtaken || o->objbit) && haspointers(o->type));
}

/* ---- last uses ----
 *
 * Go's liveness analysis makes a local's last use its death: the stack
 * map of every later call leaves it out.  glc gets the same effect from
 * stores, statement by statement: in a statement list, a local declared
 * in it (or, in the body, a parameter) that no later statement of the
 * list names is zeroed right after the last statement that does
 * (deadafter).  A statement that names it once, as a whole argument of
 * a call of a gl function, hands it over instead: GL_TAKE reads and
 * zeroes it as the argument is evaluated, so that during the call the
 * callee's parameter is the only reference (Go's test/stackobj.go).
 *
 * Sound without a flow graph because a list runs from top to bottom:
 * loops around it declare its locals afresh, and break, continue,
 * return and fallthrough leave it.  Only goto can go back, so a
 * function with a goto keeps the scope rule (Fn.lastuses).  Names in a
 * function literal count as uses where the literal is: the closure is
 * made there. */

typedef struct LastUse {
	Obj *o;
	int last;  /* the last statement of the list that names o */
	int count; /* how many times it does */
} LastUse;

typedef struct Uses {
	LastUse *v;
	int cap; /* a power of two, or 0 */
} Uses;

static LastUse *usefind(Uses *u, Obj *o, bool add) {
	if (u->cap == 0)
		return NULL;
	unsigned h = (unsigned)((uintptr_t)o >> 4) & (unsigned)(u->cap - 1);
	while (u->v[h].o && u->v[h].o != o)
		h = (h + 1) & (unsigned)(u->cap - 1);
	if (!u->v[h].o && add)
		u->v[h] = (LastUse){o, -1, 0};
	return u->v[h].o ? &u->v[h] : NULL;
}

static bool countnodes(Node *n, void *k) {
	if (n) {
		++*(int *)k;
		anychild(n, countnodes, k);
	}
	return false;
}

typedef struct UseWalk {
	Uses *u;
	int stmt; /* the index of the list's statement being walked */
} UseWalk;

static bool usewalk(Node *n, void *arg) {
	if (!n)
		return false;
	UseWalk *w = arg;
	if (n->kind == N_IDENT && n->obj && n->obj->kind == O_VAR && !n->obj->global) {
		LastUse *e = usefind(w->u, n->obj, true);
		if (e->last != w->stmt)
			e->last = w->stmt, e->count = 0;
		e->count++;
	}
	return anychild(n, usewalk, arg);
}

static Uses lastuses(Vec *v) {
	Uses u = {0};
	if (!fn->lastuses)
		return u;
	int k = 0;
	for (int i = 0; i < v->n; i++)
		countnodes(v->v[i], &k);
	for (u.cap = 8; u.cap < 2 * k; u.cap *= 2)
		;
	u.v = xalloc((size_t)u.cap * sizeof *u.v);
	for (int i = 0; i < v->n; i++)
		usewalk(v->v[i], &(UseWalk){&u, i});
	return u;
}

static int lastuse(Uses *u, Obj *o) {
	LastUse *e = usefind(u, o, false);
	return e ? e->last : -1;
}

/* Before statement i: the locals of the list it names once and last. */
static void settakes(Uses *u, int i, int mark) {
	fn->takeset.n = 0;
	fn->taken.n = 0;
	for (int j = mark; u->cap && j < fn->scopevars.n; j++) {
		LastUse *e = usefind(u, fn->scopevars.v[j], false);
		if (e && e->last == i && e->count == 1 && !e->o->objbit) /* a pointer may read a stack object after */
			vpush(&fn->takeset, e->o);
	}
}

static bool vhas(Vec *v, void *x) {
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return true;
	return false;
}

/* A return with no call in it: no safe point before the frame dies. */
static bool plainreturn(Node *n) {
	if (!n || n->kind != N_RETURN)
		return false;
	for (int i = 0; i < n->list.n; i++)
		if (hascall(n->list.v[i]))
			return false;
	return true;
}

/* After the i-th statement of list v: zero the list's locals that no
 * later statement names, and forget them.  No store where it would be
 * wasted: after a statement that leaves the list, before a return with
 * no call, at the end of the body (the frame dies), for a local a call
 * took.  At the end of a loop's body (loop) the locals stay listed:
 * the next round assigns them again, and stmt clears them once, after
 * the loop. */
static void deadafter(Uses *u, Vec *v, int i, int mark, bool loop) {
	fn->takeset.n = 0;
	if (!u->cap)
		return;
	Node *n = v->v[i], *next = i + 1 < v->n ? v->v[i + 1] : NULL;
	if (loop && !next)
		return;
	bool wasted = n->kind == N_RETURN || n->kind == N_BRANCH || plainreturn(next) ||
		      (fn->listdepth == 1 && !next);
	int k = mark;
	for (int j = mark; j < fn->scopevars.n; j++) {
		Obj *o = fn->scopevars.v[j];
		if (lastuse(u, o) > i) {
			fn->scopevars.v[k++] = o;
			continue;
		}
		if (!wasted && !vhas(&fn->taken, o))
			killvar(o);
	}
	fn->scopevars.n = k;
	fn->taken.n = 0;
}

/* The argument a of a call of a gl function, for a parameter of type pt,
 * whose C value is v: GL_TAKE(v) if a is a local in the take set, whole
 * (x, or &x of a boxed x), passed by value. */
const char *takearg(Node *a, Type *pt, const char *v) {
	while (a->kind == N_PAREN)
		a = a->a;
	if (!identical(a->type, pt) || bypointer(pt)) /* converted, or passed by address */
		return v;
	Obj *o = NULL;
	if (a->kind == N_IDENT && a->obj && a->obj->slot == S_FRAME)
		o = a->obj;
	else if (a->kind == N_UNARY && a->op == TK_AND && a->a->kind == N_IDENT && a->a->obj && a->a->obj->slot == S_BOX)
		o = a->a->obj;
	if (!o || !vhas(&fn->takeset, o) || vhas(&fn->taken, o))
		return v;
	vpush(&fn->taken, o);
	return xprintf("GL_TAKE(%s)", slotref(o));
}

/* The locals declared after mark go out of scope here: zero those the
 * collector would scan (the frame's stack map covers the whole call, so
 * a dead local's last pointer would keep its object alive until the
 * function returns), or mark them dead if they are stack objects (a
 * pointer may still read one after its scope ends; the collector scans it
 * while one does).  A captured local lives in a box: its pointer is
 * zeroed.  A jump out of the scope (break, goto, return) skips the
 * clearing: the value stays as it would have without it. */
static void varclear(int mark) {
	for (int i = mark; i < fn->scopevars.n; i++)
		killvar(fn->scopevars.v[i]);
	fn->scopevars.n = mark;
}

static bool endsinjump(Vec *v) {
	if (v->n == 0)
		return false;
	Node *last = v->v[v->n - 1];
	return last->kind == N_RETURN || last->kind == N_BRANCH;
}

/* A statement list: a block's, a branch's, a case's.  Its locals die at
 * its end (not in the body of the function, whose frame dies with them). */
/* The statements of list v, each local of the list dying after its last
 * use (mark: where the list's locals start in scopevars). */
static void liststmts(Vec *v, int mark, bool loop) {
	Uses u = lastuses(v);
	fn->listdepth++;
	for (int i = 0; i < v->n; i++) {
		settakes(&u, i, mark);
		stmt(v->v[i]);
		deadafter(&u, v, i, mark, loop);
	}
	fn->listdepth--;
}

static void stmts(Vec *v) {
	int mark = fn->listdepth == 0 ? 0 : fn->scopevars.n; /* the body's: the parameters too */
	liststmts(v, mark, false);
	if (fn->listdepth > 0 && !endsinjump(v))
		varclear(mark);
	fn->scopevars.n = mark;
}

/* A loop's body: its locals die at their last use in a round, but not
 * after its last statement (the next round assigns them again): stmt
 * clears those once, after the loop. */
static void loopbody(Vec *v) {
	liststmts(v, fn->scopevars.n, true);
}

static void block(Node *b) {
	line("{");
	fn->indent++;
	stmts(&b->list);
	fn->indent--;
	line("}");
}

static Labels *labelsof(Node *n) {
	if (!n->aux) {
		Labels *l = xalloc(sizeof *l);
		l->brk = newlabel("break");
		l->cont = newlabel("continue");
		n->aux = l;
	}
	return n->aux;
}

static bool isblankid(Node *n) { return n->kind == N_IDENT && !strcmp(n->name, "_"); }

/* Assignment of several values: every operand is evaluated (left sides'
 * index and pointer operands, then right sides) before any is assigned. */
static void assignlist(Vec *lhs, Vec *rhs, bool declare) {
	int nl = lhs->n, nr = rhs->n;
	const char *vals[nl > 0 ? nl : 1];
	Type *vtypes[nl > 0 ? nl : 1];
	if (nl == nr) {
		if (nl == 1) {
			Node *l = lhs->v[0], *r = rhs->v[0];
			if (isblankid(l) || (declare && l->kind == N_IDENT && !l->obj)) {
				if (hascall(r) || r->kind == N_CALL)
					(void)expr(r);
				else
					(void)expr(r);
				return;
			}
			Type *lt = l->obj && l->kind == N_IDENT ? l->obj->type : l->type;
			if (declare && l->kind == N_IDENT && l->ival == 1) {
				/* a new variable: its storage appears after the value is computed */
				const char *v = exprto(r, lt);
				declarevar(l->obj);
				if (l->obj->slot == S_BOX) {
					v = spill(v, lt);
					initvar(l->obj);
				}
				store(varplace(l->obj), v, l->obj->type);
				return;
			}
			assign(l, NULL, NULL); /* marker: evaluated below */
			(void)0;
			return;
		}
		for (int i = 0; i < nl; i++) {
			Node *l = lhs->v[i], *r = rhs->v[i];
			Type *lt = isblankid(l) ? r->type : (l->kind == N_IDENT && l->obj ? l->obj->type : l->type);
			if (!lt)
				lt = r->type;
			vals[i] = spill(exprto(r, lt), lt);
			vtypes[i] = lt;
		}
	} else {
		/* one multi-valued right side: a call, or a comma-ok form */
		Node *r = rhs->v[0];
		if (r->flags & NF_COMMAOK) {
			Type *ts[2] = {r->type, types[T_BOOL]};
			const char *v[2];
			Node *inner = r;
			while (inner->kind == N_PAREN)
				inner = inner->a;
			extern void commaok(Node *r, const char **v, Type *want);
			Node *l0 = lhs->v[0];
			Type *want = isblankid(l0) ? r->type : (l0->kind == N_IDENT && l0->obj ? l0->obj->type : l0->type);
			commaok(inner, v, want ? want : r->type);
			ts[0] = want ? want : r->type;
			for (int i = 0; i < 2; i++) {
				vals[i] = v[i];
				vtypes[i] = ts[i];
			}
		} else {
			Type *tt = r->type;
			const char *tv = callexpr(r);
			for (int i = 0; i < nl; i++) {
				vals[i] = xprintf("%s.r%d", tv, i);
				vtypes[i] = ((Field *)tt->fields.v[i])->type;
			}
		}
	}
	for (int i = 0; i < nl; i++) {
		Node *l = lhs->v[i];
		if (isblankid(l))
			continue;
		if (declare && l->kind == N_IDENT && l->ival == 1) {
			declarevar(l->obj);
			if (l->obj->slot == S_BOX)
				initvar(l->obj);
			store(varplace(l->obj), conv(vals[i], vtypes[i], l->obj->type), l->obj->type);
			continue;
		}
		Type *lt = l->kind == N_IDENT && l->obj ? l->obj->type : l->type;
		assign(l, conv(vals[i], vtypes[i], lt), lt);
	}
}

/* A local whose value only a plain assignment to it can change: no
 * pointer, closure or heap box reaches it. */
static bool plainlocal(Node *x) {
	while (x->kind == N_PAREN)
		x = x->a;
	if (x->kind != N_IDENT || !x->obj)
		return false;
	Obj *o = x->obj;
	return o->kind == O_VAR && !o->global && !o->addrtaken && !o->captured && !o->onheap && o->slot != S_BOX;
}

/* Whether the tuple assignment's left sides lhs assign x (a plain local)
 * as a whole. */
static bool assignedin(Node *x, Vec *lhs) {
	while (x->kind == N_PAREN)
		x = x->a;
	for (int i = 0; i < lhs->n; i++) {
		Node *l = lhs->v[i];
		while (l->kind == N_PAREN)
			l = l->a;
		if (l->kind == N_IDENT && l->obj == x->obj)
			return true;
	}
	return false;
}

/* Whether l, a left side of a tuple assignment, names the same place in
 * phase two as in phase one: l is s[i] or v.f (v a struct, or a pointer
 * followed once) whose operands are plain locals or constants that no
 * left side assigns.  Nothing else can change such a local between the
 * phases — calls on the right side cannot reach it — and reaching the
 * place reads no memory but theirs.  The swap `a[i], a[j] = a[j], a[i]`
 * then needs no pointer temporaries. */
static bool fixedplace(Node *l, Vec *lhs) {
	while (l->kind == N_PAREN)
		l = l->a;
	if (l->kind == N_INDEX && !(l->flags & NF_MAPINDEX)) {
		int k = under(l->a->type)->kind;
		if (k != T_SLICE && k != T_ARRAY)
			return false;
		if (!plainlocal(l->a) || assignedin(l->a, lhs))
			return false;
		return l->b->cv || (plainlocal(l->b) && !assignedin(l->b, lhs));
	}
	if (l->kind == N_SELECTOR && l->op != SEL_PKG) {
		for (int i = 1; i < l->path.n; i++)
			if (under(((Field *)l->path.v[i - 1])->type)->kind == T_POINTER)
				return false;
		return plainlocal(l->a) && !assignedin(l->a, lhs);
	}
	return false;
}

static void emitassign(Node *n) {
	if (n->op) { /* x op= y */
		Node *l = n->list.v[0], *r = n->list2.v[0];
		Node bin = {0};
		bin.kind = N_BINARY;
		bin.op = n->op;
		bin.pos = n->pos;
		bin.type = l->type;
		/* evaluate the left side's operands once */
		extern Node *stablelhs(Node *l, bool rhscalls);
		Node *sl = stablelhs(l, hascall(r));
		bin.a = sl;
		bin.b = r;
		const char *v = exprto(&bin, l->type);
		assign(sl, v, l->type);
		return;
	}
	bool declare = n->ival == 1;
	if (n->list.n == 1 && n->list2.n == 1) {
		Node *l = n->list.v[0], *r = n->list2.v[0];
		if (isblankid(l)) {
			(void)expr(r);
			return;
		}
		if (l->kind == N_IDENT && l->obj && l->obj->global && declare) {
			store(varplace(l->obj), exprto(r, l->obj->type), l->obj->type);
			return;
		}
		extern bool appendinplace(Node * l, Node * r);
		if (appendinplace(l, r))
			return;
		extern Node *stablelhs(Node *l, bool rhscalls);
		Node *sl = stablelhs(l, hascall(r));
		Type *lt = l->kind == N_IDENT && l->obj ? l->obj->type : l->type;
		const char *v = exprto(r, lt);
		assign(sl, v, lt);
		return;
	}
	/* phase one: left operands, then right values; phase two: stores */
	extern Node *stablelhs(Node *l, bool rhscalls);
	Vec ls = {0};
	/* a left side is held by its address (a pointer in the frame): a
	 * store of phase two may change what another left side reads (a[i],
	 * i = 1, 2).  One whose operands nothing in the statement changes is
	 * left for phase two whole, where its index and nil checks then run,
	 * as Go's do: after the right side, after the stores before it. */
	for (int i = 0; i < n->list.n; i++) {
		Node *l = n->list.v[i];
		vpush(&ls, isblankid(l) || fixedplace(l, &n->list) ? l : stablelhs(l, true));
	}
	assignlist(&ls, &n->list2, declare);
}

static void emitdefine(Node *n) {
	int nl = n->list.n, nr = n->list2.n;
	if (nl == 1 && nr == 1) {
		Node *l = n->list.v[0], *r = n->list2.v[0];
		if (isblankid(l)) {
			(void)expr(r);
			return;
		}
		Type *t = l->obj->type;
		const char *v = exprto(r, t);
		if (l->ival == 1) {
			declarevar(l->obj);
			if (l->obj->slot == S_BOX) {
				v = spill(v, t);
				initvar(l->obj);
			}
			store(varplace(l->obj), v, l->obj->type);
		} else
			store(varplace(l->obj), v, l->obj->type);
		return;
	}
	assignlist(&n->list, &n->list2, true);
}

static void emitincdec(Node *n) {
	extern Node *stablelhs(Node *l, bool rhscalls);
	Node *sl = stablelhs(n->a, false);
	Node one = {0};
	one.kind = N_INTLIT;
	one.type = n->a->type;
	one.cv = cint(1);
	if (isfloat(n->a->type))
		one.cv = cfloat(1);
	else if (iscomplex(n->a->type))
		one.cv = ccomplex(1, 0);
	Node bin = {0};
	bin.kind = N_BINARY;
	bin.op = n->op == TK_INC ? TK_ADD : TK_SUB;
	bin.a = sl;
	bin.b = &one;
	bin.type = n->a->type;
	bin.pos = n->pos;
	assign(sl, expr(&bin), n->a->type);
}

static void emitvarspec(Node *spec) {
	int nn = spec->list.n, nv = spec->list2.n;
	if (nv == 0) {
		for (int i = 0; i < nn; i++) {
			Node *id = spec->list.v[i];
			if (!id->obj || isblankid(id))
				continue;
			declarevar(id->obj);
			initvar(id->obj);
		}
		return;
	}
	Vec lhs = {0};
	for (int i = 0; i < nn; i++) {
		Node *id = spec->list.v[i];
		id->ival = 1;
		vpush(&lhs, id);
	}
	if (nn == 1 && nv == 1) {
		Node *id = spec->list.v[0], *r = spec->list2.v[0];
		if (isblankid(id) || !id->obj) {
			(void)expr(r);
			return;
		}
		const char *v = exprto(r, id->obj->type);
		declarevar(id->obj);
		if (id->obj->slot == S_BOX) {
			v = spill(v, id->obj->type);
			initvar(id->obj);
		}
		store(varplace(id->obj), v, id->obj->type);
		return;
	}
	assignlist(&lhs, &spec->list2, true);
}

/* if init; cond { ... } else if ... : each link's init and condition go
 * in the else block of the link before (Go's scopes: the else branches
 * see the init's variables), written at the same depth as that link, so
 * that a chain reads flat — 4,000 else-ifs nested one tab deeper each
 * made a 128 MB C file of tabs.  The else blocks close together at the
 * end. */
static void emitif(Node *n) {
	line("{");
	fn->indent++;
	int chained = 0;
	for (;;) {
		if (n->a)
			stmt(n->a);
		const char *c = expr(n->b);
		line("if (%s) {", c);
		fn->indent++;
		stmts(&n->c->list);
		fn->indent--;
		if (n->d && n->d->kind == N_IF) {
			line("} else { /* else if */");
			chained++;
			n = n->d;
			continue;
		}
		if (n->d) {
			line("} else {");
			fn->indent++;
			stmts(&n->d->list);
			fn->indent--;
		}
		line("}");
		break;
	}
	for (; chained > 0; chained--)
		line("} /* else if */");
	fn->indent--;
	line("}");
}

/* Go 1.22: each iteration of a three-clause loop has its own variables;
 * a heap-boxed one is copied to a fresh box before the post statement. */
static void reboxloopvars(Node *init) {
	if (!init || init->kind != N_DEFINE)
		return;
	for (int i = 0; i < init->list.n; i++) {
		Node *id = init->list.v[i];
		Obj *o = id->obj;
		if (!o || o->slot != S_BOX || id->ival != 1)
			continue;
		const char *old = temp(ptrto(o->type));
		line("%s = fp->%s;", old, o->cname);
		pcline();
		callto(xprintf("fp->%s", o->cname), xprintf("newobject(%s)", typedesc(o->type)));
		afterCall(false);
		store(varplace(o), derefptr(old, ptrto(o->type)), o->type);
	}
}

/* Whether n assigns to variable o (o is never address-taken or
 * captured: only a statement naming it can). */
static bool assigns(Node *n, void *o) {
	if (!n)
		return false;
	if (n->kind == N_INCDEC && n->a->kind == N_IDENT && n->a->obj == o)
		return true;
	if (n->kind == N_ASSIGN || n->kind == N_DEFINE || n->kind == N_RANGE)
		for (int i = 0; i < n->list.n; i++) {
			Node *l = n->list.v[i];
			while (l->kind == N_PAREN)
				l = l->a;
			if (l->kind == N_IDENT && l->obj == o)
				return true;
		}
	return anychild(n, assigns, o);
}

/* `for i := c; i < len(s); i++ { body }` with c a constant >= 0, s a
 * slice or string variable never assigned after its declaration, and no
 * assignment to i in the body: in the body 0 <= i < len(s), so s[i]
 * needs no bounds check (Go's prove pass, its commonest case; the range
 * loop's is in emitrange).  Returns whether it pushed that fact. */
static bool forlenfact(Node *n) {
	Node *init = n->a, *cond = n->b, *post = n->c;
	if (!init || !cond || !post || init->kind != N_DEFINE || init->list.n != 1 || init->list2.n != 1)
		return false;
	Node *iv = init->list.v[0], *c0 = init->list2.v[0];
	Obj *i = iv->obj;
	if (!i || !c0->cv || !cisint(c0->cv) || ctoint(c0->cv) < 0 || i->addrtaken || i->captured || i->slot == S_BOX)
		return false;
	if (post->kind != N_INCDEC || post->op != TK_INC || post->a->kind != N_IDENT || post->a->obj != i)
		return false;
	if (cond->kind != N_BINARY || cond->op != TK_LSS || cond->a->kind != N_IDENT || cond->a->obj != i)
		return false;
	Node *ln = cond->b;
	if (ln->kind != N_CALL || !(ln->a->flags & NF_BUILTIN) || !ln->a->obj || ln->a->obj->builtin != B_LEN || ln->list.n != 1)
		return false;
	Node *sv = ln->list.v[0];
	while (sv->kind == N_PAREN)
		sv = sv->a;
	int k = under(sv->type)->kind;
	if (sv->kind != N_IDENT || (k != T_SLICE && k != T_STRING) || assigns(n->d, i))
		return false;
	return forlenfactpush(i, sv);
}

static void emitfor(Node *n) {
	Labels *l = labelsof(n);
	line("{");
	fn->indent++;
	if (n->a)
		stmt(n->a);
	line("for (;;) {");
	fn->indent++;
	if (n->b) {
		const char *c = expr(n->b);
		line("if (!(%s)) goto %s;", c, l->brk);
	}
	bool fact = forlenfact(n);
	loopbody(&n->d->list);
	if (fact)
		rangefactpop();
	label(l->cont);
	reboxloopvars(n->a);
	if (n->c)
		stmt(n->c);
	fn->indent--;
	line("}");
	label(l->brk);
	fn->indent--;
	line("}");
}

/* Range loop variables: := declares fresh ones each iteration. */
static void rangedeclare(Node *v, const char *val, Type *vt) {
	declarevar(v->obj);
	if (v->obj->slot == S_BOX) {
		const char *s = spill(val, vt);
		initvar(v->obj);
		val = s;
	}
	store(varplace(v->obj), conv(val, vt, v->obj->type), v->obj->type);
}

/* Store an iteration's key and value (val NULL: none).  With = it is an
 * assignment k, v = key, val: the operands of both left sides (x[i]'s i)
 * are evaluated before either is stored.  key and val are stable. */
static void rangeassign(Node *n, const char *key, Type *kt, const char *val, Type *vt) {
	const char *vals[2] = {key, val};
	Type *ts[2] = {kt, vt};
	Node *ls[2] = {NULL, NULL};
	for (int i = 0; i < 2 && i < n->list.n; i++)
		if (vals[i] && !isblankid(n->list.v[i]))
			ls[i] = n->list.v[i];
	if (n->op == 1) {
		for (int i = 0; i < 2; i++)
			if (ls[i])
				rangedeclare(ls[i], vals[i], ts[i]);
		return;
	}
	extern Node *stablelhs(Node *l, bool rhscalls);
	Node *sl[2] = {NULL, NULL};
	for (int i = 0; i < 2; i++)
		if (ls[i])
			sl[i] = stablelhs(ls[i], true);
	for (int i = 0; i < 2; i++)
		if (sl[i])
			assign(sl[i], conv(vals[i], ts[i], ls[i]->type), ls[i]->type);
}

static bool wantvar(Node *n, int i) { return i < n->list.n && !isblankid(n->list.v[i]); }

/* k == k for every value of t: no floating-point number, nor an interface
 * that may hold one, anywhere in it (a NaN key is never found again). */
static bool reflexivekey(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_FLOAT32: case T_FLOAT64: case T_COMPLEX64: case T_COMPLEX128: case T_INTERFACE:
		return false;
	case T_ARRAY:
		return reflexivekey(u->elem);
	case T_STRUCT:
		for (int i = 0; i < u->fields.n; i++)
			if (!reflexivekey(((Field *)u->fields.v[i])->type))
				return false;
		return true;
	}
	return true;
}

/* `for k := range m { delete(m, k) }` empties m, and Go compiles it to one
 * clear of the map (runtime mapclear: the buckets cleared in place, no
 * iteration; its walk's isMapClear), and so does glc — when m is a
 * variable, k the loop's own key, and the key type reflexive: a NaN key
 * is never deleted by the loop, so with floats the loop is kept. */
static bool ismapclear(Node *n) {
	Node *x = n->a, *body = n->d;
	if (n->op != 1 || n->list.n != 1 || !wantvar(n, 0) || x->kind != N_IDENT || x->obj == NULL ||
	    x->obj->kind != O_VAR || !reflexivekey(under(x->type)->key) || body->list.n != 1)
		return false;
	Node *s = body->list.v[0];
	if (s->kind != N_EXPRSTMT)
		return false;
	Node *c = s->a;
	if (c->kind != N_CALL || !(c->flags & NF_CALLEE_BUILTIN) || c->ival != B_DELETE || c->list.n != 2)
		return false;
	Node *m = c->list.v[0], *k = c->list.v[1], *kv = n->list.v[0];
	return m->kind == N_IDENT && m->obj == x->obj && k->kind == N_IDENT && k->obj != NULL && k->obj == kv->obj;
}

static void emitrange(Node *n) {
	Labels *l = labelsof(n);
	Node *x = n->a;
	Type *xt = x->type, *u = under(xt);
	line("{");
	fn->indent++;
	switch (n->ival) {
	case RANGE_INT: {
		const char *lim = spill(expr(x), xt);
		const char *i = temp(xt);
		line("for (%s = 0; %s < %s; %s++) {", i, i, lim, i);
		fn->indent++;
		rangeassign(n, i, xt, NULL, NULL);
		loopbody(&n->d->list);
		label(l->cont);
		fn->indent--;
		line("}");
		break;
	}
	case RANGE_ARRAY:
	case RANGE_PTRARRAY:
	case RANGE_SLICE: {
		Type *et;
		const char *len, *elem;
		const char *base;
		if (n->ival == RANGE_SLICE) {
			base = spill(expr(x), xt);
			len = xprintf("%s.len", base);
			et = u->elem;
			elem = xprintf("((%s)%s.ptr)[%%s]", heapptr(et), base);
		} else if (n->ival == RANGE_ARRAY) {
			et = u->elem;
			if (wantvar(n, 1)) {
				/* the array is copied once: the loop sees its value at the start */
				base = spill(expr(x), xt);
				elem = xprintf("%s.a[%%s]", base);
			} else {
				(void)expr(x);
				elem = NULL;
			}
			len = xprintf("%lld", (long long)u->len);
		} else {
			Type *a = under(u->elem);
			et = a->elem;
			base = spill(expr(x), xt);
			if (wantvar(n, 1)) {
				line("if (GL_UNLIKELY(!%s)) {", base);
				fn->indent++;
				panicstmt("gl_panicnil(g)");
				fn->indent--;
				line("}");
			}
			elem = xprintf("%s->a[%%s]", base);
			len = xprintf("%lld", (long long)a->len);
		}
		const char *i = temp(types[T_INT]);
		line("for (%s = 0; %s < %s; %s++) {", i, i, len, i);
		fn->indent++;
		rangeassign(n, i, types[T_INT], wantvar(n, 1) ? spill(xprintf(elem, i), et) : NULL, et);
		rangefactpush(n->op == 1 && wantvar(n, 0) ? n->list.v[0] : NULL, x);
		loopbody(&n->d->list);
		rangefactpop();
		label(l->cont);
		fn->indent--;
		line("}");
		break;
	}
	case RANGE_STRING: {
		const char *s = spill(expr(x), types[T_STRING]);
		const char *k = temp(types[T_INT]), *next = temp(types[T_INT]), *r = temp(t_rune);
		line("for (%s = 0; %s < %s.len; %s = %s) {", k, k, s, k, next);
		fn->indent++;
		line("if (%s.ptr[%s] < 0x80) { %s = %s.ptr[%s]; %s = %s + 1; }", s, k, r, s, k, next, k);
		line("else { uint64_t d_ = decoderune(%s, %s); %s = (int32_t)d_; %s = %s + (int64_t)(d_ >> 32); }", s, k, r, next,
		     k);
		rangeassign(n, k, types[T_INT], r, t_rune);
		rangefactpush(n->op == 1 && wantvar(n, 0) ? n->list.v[0] : NULL, x);
		loopbody(&n->d->list);
		rangefactpop();
		label(l->cont);
		fn->indent--;
		line("}");
		break;
	}
	case RANGE_MAP: {
		const char *m = spill(expr(x), xt);
		if (ismapclear(n)) {
			pcline();
			line("mapclear(g, %s, %s); /* for k := range m { delete(m, k) } */", typedesc(xt), m);
			afterCall(true);
			break;
		}
		const char *it = frametemp(NULL);
		pcline();
		line("mapiterinit(g, %s, %s, &%s);", typedesc(xt), m, it);
		afterCall(true);
		line("while (%s.key) {", it);
		fn->indent++;
		const char *k = wantvar(n, 0) ? spill(xprintf("*(%s *)%s.key", ctype(u->key), it), u->key) : NULL;
		const char *v = wantvar(n, 1) ? spill(xprintf("*(%s *)%s.elem", ctype(u->elem), it), u->elem) : NULL;
		rangeassign(n, k, u->key, v, u->elem);
		loopbody(&n->d->list);
		label(l->cont);
		pcline();
		line("mapiternext(&%s);", it);
		afterCall(true);
		fn->indent--;
		line("}");
		break;
	}
	case RANGE_CHAN: {
		Type *et = u->elem;
		const char *c = spill(expr(x), xt);
		const char *v = frametemp(et);
		const char *ok = temp(types[T_BOOL]);
		line("for (;;) {");
		fn->indent++;
		pcline();
		callto(ok, xprintf("chanrecv2(g, %s, &%s)", c, v));
		afterCall(true);
		line("if (!%s) break;", ok);
		rangeassign(n, spill(v, et), et, NULL, NULL);
		loopbody(&n->d->list);
		label(l->cont);
		fn->indent--;
		line("}");
		break;
	}
	}
	label(l->brk);
	fn->indent--;
	line("}");
}

/* Whether switch n can be C's switch: an integer tag and only constant
 * cases, all different (the checker rejects duplicates; a C switch with
 * one would not compile, so they are looked for again here).  gcc turns
 * a C switch into a jump table or a binary search, where a chain of ifs
 * is compared one by one — and takes minutes to compile 50,000 of them. */
static int cmpi128(const void *a, const void *b) {
	i128 x = *(const i128 *)a, y = *(const i128 *)b;
	return x < y ? -1 : x > y;
}

static bool cswitchable(Node *n, Type *tt) {
	if (!tt || !isinteger(tt))
		return false;
	int nv = 0;
	for (int i = 0; i < n->list.n; i++)
		nv += ((Node *)n->list.v[i])->list.n;
	i128 *vals = xalloc((size_t)(nv + 1) * sizeof *vals);
	nv = 0;
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			if (!e->cv || !cisint(e->cv) || !cvalue(e->cv, tt))
				return false;
			vals[nv++] = ctoint(e->cv);
		}
	}
	qsort(vals, (size_t)nv, sizeof *vals, cmpi128);
	for (int i = 1; i < nv; i++)
		if (vals[i] == vals[i - 1])
			return false;
	return true;
}

/* A switch on a string whose cases are all constant strings, at least
 * strSwitchMin of them, is a C switch on the tag's length, and within a
 * length the tag's bytes are compared with each constant of that length
 * (memcmp of a constant size, which gcc makes a few loads) — or, when
 * more than strGroupMax share the length, found by binary search in a
 * sorted table (gl_strswitch, gl.h) and a C switch on its index.  A
 * chain of comparisons tests every case before the default, and gcc took
 * 75 s to compile one of 20,000 (bench/compile/shapes.py strings); a
 * binary search over all the constants ran a 15-keyword switch 1.7x
 * slower than the length does.  (Go's compiler also sorts a switch's
 * constant strings by length and value.)
 * The order of the cases does not matter: the checker rejects equal
 * constants, so at most one matches. */
enum { strSwitchMin = 8, strGroupMax = 8 };

typedef struct strcase {
	Const *c;
	const char *label;
} strcase;

static int cmpstrcase(const void *a, const void *b) {
	const Const *x = ((const strcase *)a)->c, *y = ((const strcase *)b)->c;
	if (x->slen != y->slen)
		return x->slen < y->slen ? -1 : 1;
	return x->slen ? memcmp(x->s, y->s, (size_t)x->slen) : 0;
}

static bool strswitchable(Node *n, Type *tt) {
	if (!tt || !isstring(tt))
		return false;
	int nv = 0;
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			if (!e->cv || e->cv->kind != CK_STRING)
				return false;
			nv++;
		}
	}
	return nv >= strSwitchMin;
}

/* The cases sw[0..n) of one length, more than strGroupMax: their table (a
 * static helper of the C file) and the switch on gl_strswitch's index. */
static void emitstrgroup(const char *tag, strcase *sw, int n) {
	static int ntab;
	const char *tab = xprintf("%s__strswitch%d", fn->cname, ++ntab);
	int64_t at = helperstart();
	bprintf(&gdecls, "static const GlString %s[%d] = { /* sorted by bytes */\n", tab, n);
	for (int i = 0; i < n; i++)
		bprintf(&gdecls, "\t%s,\n", strinit(sw[i].c->s, sw[i].c->slen));
	bprintf(&gdecls, "};\n");
	helperend(tab, at, NULL);
	usehelper(tab);
	line("switch (gl_strswitch(%s, %s, %d)) {", tag, tab, n);
	for (int i = 0; i < n; i++)
		line("case %d: goto %s;", i, sw[i].label);
	line("}");
}

/* The switch on the tag's length, and in it each length's cases. */
static void emitstrswitch(const char *tag, strcase *sw, int nv) {
	qsort(sw, (size_t)nv, sizeof *sw, cmpstrcase);
	for (int i = 1; i < nv; i++)
		if (cmpstrcase(&sw[i - 1], &sw[i]) == 0)
			fatal("internal error: string switch with equal cases");
	line("switch (%s.len) {", tag);
	for (int i = 0, j; i < nv; i = j) {
		int64_t len = sw[i].c->slen;
		for (j = i; j < nv && sw[j].c->slen == len; j++)
			;
		line("case %lld:", (long long)len);
		fn->indent++;
		if (len == 0) {
			line("goto %s;", sw[i].label);
		} else {
			if (j - i > strGroupMax)
				emitstrgroup(tag, sw + i, j - i);
			else
				for (int k = i; k < j; k++)
					line("if (memcmp(%s.ptr, %s, %lld) == 0) goto %s;", tag,
					     cbytes(sw[k].c->s, len), (long long)len, sw[k].label);
			line("break;");
		}
		fn->indent--;
	}
	line("}");
}

static void emitswitch(Node *n) {
	Labels *l = labelsof(n);
	line("{");
	fn->indent++;
	if (n->a)
		stmt(n->a);
	const char *tag = NULL;
	Type *tt = NULL;
	if (n->b) {
		tt = n->b->type;
		tag = spill(expr(n->b), tt);
	}
	const char *deflabel = NULL;
	Vec bodies = {0};
	bool cswitch = tag && cswitchable(n, tt);
	bool sswitch = tag && !cswitch && strswitchable(n, tt);
	Vec strcases = {0}; /* of strcase, for sswitch */
	if (cswitch)
		line("switch (%s) {", tag);
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		const char *bl = newlabel("case");
		vpush(&bodies, (void *)bl);
		vpush(&l->clauses, (void *)bl);
		if (c->op == 1)
			deflabel = bl;
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			if (cswitch) {
				line("case %s: goto %s;", cvalue(e->cv, tt), bl);
				continue;
			}
			if (sswitch) {
				strcase *sc = xalloc(sizeof *sc);
				*sc = (strcase){e->cv, bl};
				vpush(&strcases, sc);
				continue;
			}
			const char *cond;
			if (!tag && !isinterface(e->type))
				cond = expr(e);
			else {
				/* tag == e; without a tag, true == e for an interface e */
				Node cmp = {0};
				Node tagn = {0};
				tagn.kind = N_BAD;
				tagn.type = tag ? tt : types[T_BOOL];
				tagn.lit = tag ? tag : "1";
				cmp.kind = N_BINARY;
				cmp.op = TK_EQL;
				cmp.a = &tagn;
				cmp.b = e;
				cmp.type = types[T_BOOL];
				cmp.pos = e->pos;
				cond = expr(&cmp);
			}
			line("if (%s) goto %s;", cond, bl);
		}
	}
	if (cswitch)
		line("}");
	if (sswitch) {
		strcase *sw = xalloc((size_t)strcases.n * sizeof *sw);
		for (int i = 0; i < strcases.n; i++)
			sw[i] = *(strcase *)strcases.v[i];
		emitstrswitch(tag, sw, strcases.n);
	}
	line("goto %s;", deflabel ? deflabel : l->brk);
	/* The bodies are not C blocks: every variable and temporary is
	 * declared at the top of the function, and gcc's C parser takes time
	 * quadratic in labels × blocks (57 s for 50,000 braced cases, 2 s
	 * without). */
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		label((char *)bodies.v[i]);
		srcline(c->pos);
		stmts(&c->list2);
		Node *last = c->list2.n ? c->list2.v[c->list2.n - 1] : NULL;
		if (!(last && last->kind == N_BRANCH && last->op == TK_FALLTHROUGH))
			line("goto %s;", l->brk);
	}
	label(l->brk);
	fn->indent--;
	line("}");
}

static void emittypeswitch(Node *n) {
	Labels *l = labelsof(n);
	line("{");
	fn->indent++;
	if (n->a)
		stmt(n->a);
	Node *x = n->b->a;
	Type *xt = x->type;
	const char *v = spill(expr(x), xt);
	bool eface = !under(xt)->methods.n;
	completeiface(under(xt));
	eface = under(xt)->methods.n == 0;
	const char *dyn = spill(eface ? xprintf("(const GlType *)%s.tab", v) : xprintf("gl_ifacetype(%s)", v), types[T_UNSAFEPTR]);
	const char *deflabel = NULL;
	Vec bodies = {0};
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		const char *bl = newlabel("case");
		vpush(&bodies, (void *)bl);
		if (c->op == 1)
			deflabel = bl;
		for (int j = 0; j < c->list.n; j++) {
			Node *e = c->list.v[j];
			if (!(e->flags & NF_TYPE)) { /* nil */
				line("if (!%s) goto %s;", dyn, bl);
				continue;
			}
			Type *t = e->type;
			if (isinterface(t)) {
				completeiface(under(t));
				if (!under(t)->methods.n)
					line("if (%s) goto %s;", dyn, bl);
				else
					line("if (%s && getitab(%s, %s, true)) goto %s;", dyn, typedesc(t), dyn, bl);
			} else
				line("if (%s == %s) goto %s;", dyn, typedesc(t), bl);
		}
	}
	line("goto %s;", deflabel ? deflabel : l->brk);
	for (int i = 0; i < n->list.n; i++) {
		Node *c = n->list.v[i];
		label((char *)bodies.v[i]);
		line("{");
		fn->indent++;
		srcline(c->pos);
		if (c->obj) {
			/* the clause's variable: the value as the case's type, or x itself */
			Obj *o = c->obj;
			Type *ot = o->type;
			const char *val;
			if (c->list.n == 1 && (((Node *)c->list.v[0])->flags & NF_TYPE) && !isinterface(ot)) {
				if (isdirectiface(ot))
					val = xprintf(checkstores ? "*(%s *)(uintptr_t)&%s.data" : "*(%s *)&%s.data", ctype(ot), v);
				else
					val = xprintf("*(%s)%s.data", heapptr(ot), v);
				val = spill(val, ot);
			} else if (isinterface(ot) && !identical(ot, xt)) {
				val = toiface(v, xt, ot);
			} else
				val = v;
			declarevar(o);
			if (o->slot == S_BOX) {
				val = spill(val, ot);
				initvar(o);
			}
			store(varplace(o), val, o->type);
		}
		stmts(&c->list2);
		fn->indent--;
		line("}");
		line("goto %s;", l->brk);
	}
	label(l->brk);
	fn->indent--;
	line("}");
}

/* select: every channel and every value to send is evaluated first, in
 * source order; selectgo picks a ready case (sends are cases[0, nsends),
 * receives follow) or, without default, parks on all of them. */
static void emitselect(Node *n) {
	Labels *l = labelsof(n);
	line("{");
	fn->indent++;
	int ncl = n->list.n, nsends = 0, nrecvs = 0;
	bool hasdefault = false;
	Vec sends = {0}, recvs = {0};
	for (int i = 0; i < ncl; i++) {
		Node *c = n->list.v[i];
		if (c->op == 1) {
			hasdefault = true;
			continue;
		}
		vpush(c->a->kind == N_SEND ? &sends : &recvs, c);
	}
	nsends = sends.n;
	nrecvs = recvs.n;
	if (nsends + nrecvs == 0 && !hasdefault) {
		/* select {}: block forever */
		pcline();
		line("selectgo(g, 0, 0, 0, true);");
		afterCall(true);
		fn->indent--;
		line("}");
		return;
	}
	/* the cases array, and a slot for each value */
	Type *sc = selectcasetype;
	if (!sc) {
		Vec fts = {0};
		vpush(&fts, types[T_UNSAFEPTR]);
		vpush(&fts, types[T_UNSAFEPTR]);
		sc = newtype(T_STRUCT);
		for (int i = 0; i < 2; i++) {
			Field *f = xalloc(sizeof *f);
			f->name = intern(i ? "elem" : "c");
			f->type = types[T_UNSAFEPTR];
			vpush(&sc->fields, f);
		}
		layout(sc);
		selectcasetype = sc;
	}
	int total = nsends + nrecvs;
	const char *cases = total ? frametemp(arrayof(sc, total)) : NULL;
	const char *elems[total > 0 ? total : 1];
	Node *clauses[total > 0 ? total : 1];
	/* evaluate in source order, fill in sends-first order */
	for (int i = 0, si = 0, ri = nsends; i < ncl; i++) {
		Node *c = n->list.v[i];
		if (c->op == 1)
			continue;
		Node *s = c->a;
		int k;
		if (s->kind == N_SEND) {
			k = si++;
			Type *ct = s->a->type;
			const char *ch = spill(expr(s->a), ct);
			const char *v = frametemp(under(ct)->elem);
			line("%s = %s;", v, exprto(s->b, under(ct)->elem));
			line("%s.a[%d].c = %s;", cases, k, ch);
			line("%s.a[%d].elem = &%s;", cases, k, v);
			elems[k] = v;
		} else {
			k = ri++;
			Node *rx = s->kind == N_EXPRSTMT ? s->a : s->list2.v[0];
			while (rx->kind == N_PAREN)
				rx = rx->a;
			Type *ct = rx->a->type;
			const char *ch = spill(expr(rx->a), ct);
			const char *v = frametemp(under(ct)->elem);
			line("%s.a[%d].c = %s;", cases, k, ch);
			line("%s.a[%d].elem = &%s;", cases, k, v);
			elems[k] = v;
		}
		clauses[k] = c;
	}
	const char *r = temp(types[T_INT64]);
	pcline();
	if (total)
		callto(r, xprintf("selectgo(g, (GlSelectCase *)%s.a, %d, %d, %s)", cases, nsends, nrecvs, hasdefault ? "false" : "true"));
	else
		callto(r, "selectgo(g, 0, 0, 0, false)");
	afterCall(true);
	line("switch ((int32_t)%s) {", r);
	for (int k = 0; k < total; k++) {
		Node *c = clauses[k];
		line("case %d: {", k);
		fn->indent++;
		srcline(c->pos);
		Node *s = c->a;
		if (k >= nsends && s->kind != N_EXPRSTMT) {
			/* v [, ok] = / := <-c */
			Node *rx = s->list2.v[0];
			while (rx->kind == N_PAREN)
				rx = rx->a;
			Type *et = under(rx->a->type)->elem;
			const char *vals[2] = {elems[k], xprintf("((%s >> 32) & 1)", r)};
			Type *vts[2] = {et, types[T_BOOL]};
			for (int j = 0; j < s->list.n && j < 2; j++) {
				Node *lv = s->list.v[j];
				if (lv->kind == N_IDENT && !strcmp(lv->name, "_"))
					continue;
				if (s->kind == N_DEFINE && lv->ival == 1) {
					declarevar(lv->obj);
					const char *v = spill(vals[j], vts[j]);
					if (lv->obj->slot == S_BOX)
						initvar(lv->obj);
					store(varplace(lv->obj), conv(v, vts[j], lv->obj->type), lv->obj->type);
				} else {
					extern Node *stablelhs(Node *l, bool rhscalls);
					Type *lt = lv->kind == N_IDENT && lv->obj ? lv->obj->type : lv->type;
					assign(stablelhs(lv, false), conv(vals[j], vts[j], lt), lt);
				}
			}
		}
		stmts(&c->list2);
		line("goto %s;", l->brk);
		fn->indent--;
		line("}");
	}
	line("default: {");
	fn->indent++;
	for (int i = 0; i < ncl; i++) {
		Node *c = n->list.v[i];
		if (c->op == 1) {
			srcline(c->pos);
			stmts(&c->list2);
		}
	}
	fn->indent--;
	line("}");
	line("}");
	label(l->brk);
	fn->indent--;
	line("}");
}

/* A return in a function with defers runs them here, with this line's pc
 * record, so that a deferred call's caller is the return statement (or the
 * closing brace), as Go's deferreturn is; the results are set already, and
 * the deferred calls may change named ones. */
static void deferreturn(void) {
	if (!fn->fi->hasdefer)
		return;
	pcline();
	line("gl_rundefers(g, &fp->h);");
	line("RELOAD;");
	line("if (GL_UNLIKELY(g->unwinding)) goto unwind;");
}

static void emitreturn(Node *n) {
	FuncInfo *fi = fn->fi;
	int nr = fi->results.n;
	if (n->list.n == 0) {
		deferreturn();
		line("goto ret;");
		fn->retat = out->n;
		return;
	}
	Vec vals = {0};
	if (n->list.n == 1 && nr > 1) {
		Node *c = n->list.v[0];
		const char *tv = callexpr(c);
		for (int i = 0; i < nr; i++) {
			Type *ft = ((Field *)c->type->fields.v[i])->type;
			Obj *r = fi->results.v[i];
			vpush(&vals, (void *)conv(xprintf("%s.r%d", tv, i), ft, r->type));
		}
	} else {
		for (int i = 0; i < nr; i++) {
			Obj *r = fi->results.v[i];
			const char *v = exprto(n->list.v[i], r->type);
			/* later results may call functions, or name earlier results */
			if (nr > 1)
				v = spill(v, r->type);
			vpush(&vals, (void *)v);
		}
	}
	for (int i = 0; i < nr; i++) {
		Obj *r = fi->results.v[i];
		store(varplace(r), vals.v[i], r->type);
	}
	deferreturn();
	line("goto ret;");
	fn->retat = out->n;
}

static void emitbranch(Node *n) {
	switch (n->op) {
	case TK_BREAK:
		line("goto %s;", labelsof(n->aux)->brk);
		return;
	case TK_CONTINUE:
		line("goto %s;", labelsof(n->aux)->cont);
		return;
	case TK_GOTO:
		line("goto U_%s;", cfield(n->name));
		return;
	case TK_FALLTHROUGH: {
		Node *sw = n->aux;
		Labels *l = labelsof(sw);
		/* the clause after the one this statement ends */
		for (int i = 0; i < sw->list.n; i++) {
			Node *c = sw->list.v[i];
			if (c->list2.n && c->list2.v[c->list2.n - 1] == n && i + 1 < l->clauses.n) {
				line("goto %s;", (char *)l->clauses.v[i + 1]);
				return;
			}
		}
		return;
	}
	}
}

extern void emitdefer(Node *n);
static void emitselect(Node *n);

static void stmt1(Node *n);

void stmt(Node *n) {
	if (!n)
		return;
	int mark = tempmark(), vmark = fn->scopevars.n;
	/* a loop's header runs again and again: it takes nothing */
	if (n->kind == N_FOR || n->kind == N_RANGE || n->kind == N_LABELED)
		fn->takeset.n = 0;
	stmt1(n);
	if (n->kind != N_RETURN) /* after a return the frame is gone */
		tempclear(mark);
	temprelease(mark);
	if ((n->kind == N_FOR || n->kind == N_RANGE) && fn->listdepth > 0)
		varclear(vmark); /* the loop's own locals and its body's */
}

static void stmt1(Node *n) {
	if (n->kind != N_BLOCK && n->kind != N_LABELED)
		srcline(n->pos);
	switch (n->kind) {
	case N_EMPTY:
		return;
	case N_EXPRSTMT: {
		Node *e = n->a;
		while (e->kind == N_PAREN)
			e = e->a;
		if (e->kind == N_CALL)
			emitcall(e, NULL, 0);
		else
			(void)expr(e);
		return;
	}
	case N_ASSIGN:
		emitassign(n);
		return;
	case N_DEFINE:
		emitdefine(n);
		return;
	case N_INCDEC:
		emitincdec(n);
		return;
	case N_DECLSTMT:
		if (n->op == TK_VAR)
			for (int i = 0; i < n->list.n; i++)
				emitvarspec(n->list.v[i]);
		return;
	case N_BLOCK:
		block(n);
		return;
	case N_IF:
		emitif(n);
		return;
	case N_FOR:
		emitfor(n);
		return;
	case N_RANGE:
		emitrange(n);
		return;
	case N_SWITCH:
		emitswitch(n);
		return;
	case N_TYPESWITCH:
		emittypeswitch(n);
		return;
	case N_RETURN:
		emitreturn(n);
		return;
	case N_BRANCH:
		emitbranch(n);
		return;
	case N_LABELED:
		label(xprintf("U_%s", cfield(n->name)));
		if (n->a && (n->a->kind == N_FOR || n->a->kind == N_RANGE || n->a->kind == N_SWITCH ||
			     n->a->kind == N_TYPESWITCH || n->a->kind == N_SELECT))
			labelsof(n->a);
		stmt(n->a);
		return;
	case N_DEFER:
		emitdefer(n);
		return;
	case N_GO: {
		extern void emitgo(Node *n);
		emitgo(n);
		return;
	}
	case N_SELECT:
		emitselect(n);
		return;
	case N_SEND: {
		/* the value goes through a frame slot: a receiver may copy it out
		 * while this goroutine is parked (sudog.elem) */
		Type *ct = n->a->type;
		const char *c = spill(expr(n->a), ct);
		const char *v = frametemp(under(ct)->elem);
		line("%s = %s;", v, exprto(n->b, under(ct)->elem));
		pcline();
		line("chansend1(g, %s, &%s);", c, v);
		afterCall(true);
		return;
	}
	}
	errorat(n->pos, "internal error: cannot compile this statement");
}

/* ---------------------------------------------------------------- functions */

static const char *goname(FuncInfo *fi) {
	if (fi->name)
		return fi->name;
	Obj *o = fi->obj;
	if (!o)
		return "?";
	/* Go names a function by its package's import path, "runtime/debug.Stack"
	 * ("main" for the program's) */
	const char *pk = !o->pkg || !strcmp(o->pkg->name, "main") ? "main" : o->pkg->ipath;
	/* a package's init functions are init.0, init.1, ... as in Go */
	if (!o->ismethod && o->pkg && !strcmp(o->name, "init"))
		for (int i = 0; i < o->pkg->inits.n; i++)
			if (o->pkg->inits.v[i] == o)
				return xprintf("%s.init.%d", pk, i);
	if (o->ismethod && o->recvtype)
		return o->ptrrecv ? xprintf("%s.(*%s).%s", pk, o->recvtype->name, o->name)
				  : xprintf("%s.%s.%s", pk, o->recvtype->name, o->name);
	return xprintf("%s.%s", pk, o->name);
}

/* the parameter list of a C function for signature sig */
/* "R name(params)": a gl function's C declarator, without storage class */
const char *cdeclarator(Type *sig, const char *name, bool closure, bool recv, Type *recvtype) {
	const char *r = recv ? xprintf(bypointer(recvtype) ? "const %s *recv" : "%s recv", ctype(recvtype)) : NULL;
	return xprintf("%s %s(%s)", cresult(sig), name, cparams(sig, closure ? "GlFunc *ctx" : NULL, r, 0, 0, true));
}

const char *csig(Type *sig, const char *name, bool closure, bool recv, Type *recvtype) {
	return xprintf("GL_FUNC static %s", cdeclarator(sig, name, closure, recv, recvtype));
}

/* Queue a GL_FIXPARAM for every pointer word of a parameter passed by
 * value in registers: a pointer, the data word of an interface, the bytes
 * of a string, and the same inside a struct of at most 16 bytes.  Any of
 * them may point into the caller's frame (an interface holding &local, a
 * string of a stack buffer), and the caller's frame moves if the prologue
 * grows the stack (S4).  Map, chan and func values are always on the heap. */
void fixwords(Vec *fix, const char *expr, Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_POINTER: case T_UNSAFEPTR:
		vpush(fix, (void *)expr);
		break;
	case T_INTERFACE:
		vpush(fix, (void *)xprintf("%s.data", expr));
		break;
	case T_STRING:
		vpush(fix, (void *)xprintf("%s.ptr", expr));
		break;
	case T_STRUCT:
		for (int i = 0; i < u->fields.n; i++) {
			Field *f = u->fields.v[i];
			if (haspointers(f->type))
				fixwords(fix, xprintf("%s.%s", expr, cmember(u, i)), f->type);
		}
		break;
	case T_ARRAY: /* arrays go by pointer (bypointer) */
	default:
		break;
	}
}

/* The C name of a parameter: C locals keep it; others arrive as p%d and
 * are copied into the frame or a box in the prologue. */
static void bindparam(Obj *o, const char *cparam, Type *t, bool byptr, Buf *entry) {
	if (!o)
		return;
	declarevar(o);
	if (scoped(o)) /* it may die at its last use in the body (stmts) */
		vpush(&fn->scopevars, o);
	/* An aggregate by value (at most 16 bytes: a string, an interface, a
	 * small struct) goes in memory, in the caller's frame, when the
	 * argument registers run out, and clang keeps the address it reads
	 * it through in a register from the entry on, across the prologue's
	 * gl_morestack: stale once the stack moved (gcc reads it through rbp,
	 * which copystack relocates).  So it is read at once, before the
	 * check, into a local that lives in registers, and only the local is
	 * used after (testdata/preemptentry.py's check 4). */
	Type *u = under(t);
	if (!byptr && (u->kind == T_STRING || u->kind == T_INTERFACE || u->kind == T_STRUCT ||
		       u->kind == T_TUPLE || u->kind == T_COMPLEX64 || u->kind == T_COMPLEX128)) {
		const char *r = xprintf("%s_r", cparam);
		bprintf(&fn->pins, "\t%s %s;\n\tGL_PARAMPIN(%s, %s);\n", ctype(t), r, r, cparam);
		cparam = r;
	}
	const char *src = byptr ? xprintf("*%s", cparam) : cparam;
	/* a pointer into the caller's frame (an aggregate passed by pointer, a
	 * receiver &x.f) moves with the stack if the prologue grows it (S4) */
	if (byptr)
		vpush(&fn->fixparams, (void *)cparam);
	else
		fixwords(&fn->fixparams, cparam, t);
	switch (o->slot) {
	case S_LOCAL:
		bprintf(entry, "\t%s = %s;\n", o->cname, src);
		break;
	case S_FRAME:
		bprintf(entry, "\tfp->%s = %s;\n", o->cname, src);
		break;
	case S_BOX:
		/* newobject is a call: a value with pointers waits for it in a
		 * frame temporary (cleared after the entry code), not in a
		 * callee-saved register, where it would stay, stale, for the
		 * whole call and be found by the conservative scan of the frames
		 * below (Go's test/stackobj3.go) */
		if (!byptr && haspointers(t)) {
			const char *tmp = frametemp(t);
			bprintf(entry, "\t%s = %s;\n", tmp, src);
			src = tmp;
		}
		bprintf(entry, "\t{ void *r_ = newobject(%s); GL_FRAME_RELOAD(struct %s__frame, fp, fpoff); fp->%s = r_; }\n\t%s\n",
			typedesc(t), fn->cname, o->cname, storestmt(varplace(o), src, t));
		break;
	}
}

/* The obj of frame member name's GlFrameSlot: 1 + its stack object's bit,
 * or 0. */
static int objslotbit(const char *name) {
	for (int i = 0; i < fn->objslots.n; i++)
		if (!strcmp(fn->objslots.v[i], name))
			return i + 1;
	return 0;
}

static void emitfuncinfo(const char *framestruct) {
	Buf b = {0};
	if (fn->frameslots.n) {
		bprintf(&b, "static const GlFrameSlot %s__slots[] = {\n", fn->cname);
		for (int i = 0; i < fn->frameslots.n; i++) {
			int obj = objslotbit(fn->frameslots.v[i]);
			bprintf(&b, "\t{%s, offsetof(%s, %s)%s},\n", fn->frametypes.v[i] ? typedesc(fn->frametypes.v[i]) : "&gl_mapitertype",
				framestruct, (char *)fn->frameslots.v[i], obj ? xprintf(", %d /* a stack object */", obj) : "");
		}
		bprintf(&b, "};\n");
	}
	bool wrapper = fn->fi->obj && (fn->fi->obj->directives & DIR_WRAPPER);
	bool noargs = !fn->fi->recv && under(fn->fi->sig)->fields.n == 0; /* tracebacks print f() */
	bprintf(&b, "static const GlFuncInfo %s __attribute__((used)) = {%s, \"%s\", %d, %s, %s, %d, (void (*)(void))%s%s%s};\n",
		fn->info, wrapper ? "0 /* //gl:wrapper */" : xprintf("\"%s\"", fn->gname), abspathof(fn->fi->node->pos), fn->fi->node->pos.line,
		fn->hasframe ? xprintf("sizeof(%s)", framestruct) : "0", fn->frameslots.n ? xprintf("%s__slots", fn->cname) : "0",
		fn->frameslots.n, fn->cname, noargs ? ", .noargs = true" : "",
		fn->objslots.n ? xprintf(", .objdead = offsetof(%s, gl_objdead)", framestruct) : "");
	bput(&gfuncs, bstr(&b));
}

static void emitlits(FuncInfo *fi);

/* The C names of fi and of its literals: Go's names for tracebacks
 * (main.f, main.f.func1, main.f.func1.1, main.glob..func1 in a package
 * variable's initializer) and C names from them. */
static void namefunc(FuncInfo *fi, bool islit) {
	if (!fi->cname)
		fi->cname = fi->obj ? funcsym(fi->obj) : globalname("funclit");
	if (fi->obj)
		fi->cname = funcsym(fi->obj);
	fn->cname = fi->cname;
	fn->gname = goname(fi);
	fi->name = fn->gname;
	fn->info = xprintf("%s__info", fn->cname);
	/* func literal names, as Go's: f.func1, f.func2, ... and inside a
	 * literal f.func1.1, f.func1.2 (C names from assignnames) */
	for (int i = 0; i < fi->lits.n; i++) {
		Node *l = fi->lits.v[i];
		FuncInfo *li = l->aux;
		if (!li->cname)
			li->cname = globalname(xprintf("%s_func%d", fn->cname, i + 1));
		if (islit)
			li->name = xprintf("%s.%d", fn->gname, i + 1);
		else if (fi == curpkg->varinit) /* in a package variable's initializer */
			li->name = xprintf("%s.glob..func%d", strcmp(curpkg->name, "main") ? curpkg->ipath : "main", i + 1);
		else
			li->name = xprintf("%s.func%d", fn->gname, i + 1);
	}
}

/* Captured variables, the receiver, parameters and named results: where
 * each lives, and the entry code that puts it there (into entry). */
static void bindparams(FuncInfo *fi, Buf *entry) {
	/* captured variables come in through the closure */
	for (int i = 0; i < fi->captures.n; i++) {
		Obj *o = fi->captures.v[i];
		vpush(&fn->cnames, (void *)o->cname);
		framemember(o->cname, ptrto(o->type), xprintf(" /* %s, captured */", o->name));
		bprintf(entry, "\tfp->%s = ((struct %s__closure *)ctx)->%s;\n", o->cname, fn->cname, o->cname);
	}
	/* parameters */
	Type *sig = fi->sig;
	if (fi->recv) {
		Type *rt = fi->recv->type;
		bindparam(fi->recv, "recv", rt, bypointer(rt), entry);
	}
	for (int i = 0; i < fi->params.n; i++) {
		Obj *o = fi->params.v[i];
		Type *pt = ((Field *)sig->fields.v[i])->type;
		if (!strcmp(o->name, "_"))
			continue;
		bindparam(o, xprintf("p%d", i), pt, bypointer(pt), entry);
	}
	for (int i = 0; i < fi->results.n; i++) {
		Obj *o = fi->results.v[i];
		if (!strcmp(o->name, "_")) {
			o->name = intern(xprintf("r%d", i));
		}
		declarevar(o);
		if (o->slot == S_BOX)
			bprintf(entry, "\t{ void *r_ = newobject(%s); GL_FRAME_RELOAD(struct %s__frame, fp, fpoff); fp->%s = r_; }\n",
				typedesc(o->type), fn->cname, o->cname);
		else if (o->slot == S_LOCAL)
			bprintf(entry, "\t%s = %s;\n", o->cname, czero(o->type));
		else if (o->slot == S_FRAME && !haspointers(o->type))
			bprintf(entry, "\tmemset(&fp->%s, 0, sizeof fp->%s);\n", o->cname, o->cname);
	}
	if (fn->rmode == R_OUT && fn->regleaf) {
		/* used as it is at the exit: a stack check's slow path fixes it,
		 * and nothing after that moves the stack */
		vpush(&fn->fixparams, "out");
	} else if (fn->rmode == R_OUT) {
		/* the out pointer points into the caller's frame: stack memory, which
		 * needs no barrier (not const under -d=checkstores) */
		framememberc("glout", ptrto(fn->rtype), xprintf("%s *", ctype(fn->rtype)), " /* where the results go (in the caller's frame) */");
		bprintf(entry, "\tfp->glout = out;\n");
		vpush(&fn->fixparams, "out");
	}
}

/* The frame struct (and a literal's closure struct) of the function. */
static void emitframestruct(FuncInfo *fi, bool islit, const char *fs, Buf *g) {
	if (islit) {
		/* the closure object: the C function, then the captured variables' boxes */
		bprintf(&gdecls, "struct %s__closure { /* %s */\n\tvoid (*fn)(void);\n", fn->cname, fn->gname);
		for (int i = 0; i < fi->captures.n; i++) {
			Obj *o = fi->captures.v[i];
			bprintf(&gdecls, "\t%s *%s;\n", ctype(o->type), o->cname);
		}
		bprintf(&gdecls, "};\n");
	}
	if (fn->hasframe) {
		bprintf(g, "%s {\n\tGlFrame h;\n%s%s%s};\n", fs, bstr(&fn->frameptr),
			fn->frame.n && fn->frameptr.n ? "\t/* no pointers below: not zeroed at entry */\n" : "", bstr(&fn->frame));
		bprintf(g, "#define RELOAD GL_FRAME_RELOAD(%s, fp, fpoff)\n", fs);
	} else
		bprintf(g, "#define RELOAD ((void)0)\n");
}

/* The function's head: its prototype, C locals, entry record, parameter
 * pins, the stack check and the frame's entry. */
static void emitprologue(FuncInfo *fi, bool islit, const char *fs, Buf *g) {
	Node *node = fi->node;
	Type *sig = fi->sig;
	const char *proto = islit ? csig(sig, fn->cname, islit, fi->recv != NULL, fi->recv ? fi->recv->type : NULL)
				  : xprintf("GL_FUNC %s", cdeclarator(sig, fn->cname, false, fi->recv != NULL, fi->recv ? fi->recv->type : NULL)); /* other packages' files call it */
	bool noinline = fi->hasrecover || (fi->obj && (fi->obj->directives & (DIR_NOINLINE | DIR_WRAPPER)));
	if (noinline)
		proto = xprintf("GL_NOINLINE %s", proto);
	addprototype(proto);
	/* a bare leaf is worth inlining wherever it is called: the hint, on
	 * the definition only (the prototype has none, so the function stays
	 * external for other packages' calls) */
	if (!islit && !noinline && bareleaf(fi))
		proto = xprintf("GL_FUNC inline %s", proto + strlen("GL_FUNC "));
	bprintf(g, "%s {\n", proto);
	if (fn->hasframe)
		bprintf(g, "\t%s *fp;\n\tuintptr_t fpoff;\n", fs);
	bput(g, bstr(&fn->decls));
	bprintf(g, "\t%s(%s, %d);\n", fn->regleaf ? "GL_PCLINE_LEAF" : "GL_PCLINE", fn->info, node->pos.line); /* gl.h: a leaf's is short */
	bput(g, bstr(&fn->pins));
	/* a nosplit function that calls nothing is a leaf too */
	stackrec(curpkg, fn->cname, fn->gname, node->pos,
		 fn->leaf && (fn->nosplit || !fn->hasframe) ? (fn->regleaf ? SR_RTLEAF : SR_LEAF) : fn->nosplit ? SR_NOSPLIT : SR_CHECKED,
		 &fn->callees);
	if (fn->nosplit)
		bprintf(g, "\t/* //gl:nosplit: no stack check */\n");
	else if (!fn->hasframe && fn->leaf)
		bprintf(g, "\t/* a frameless leaf: no stack check, as Go omits it (it fits in the reserve band) */\n");
	else {
		Buf fx = {0};
		for (int i = 0; i < fn->fixparams.n; i++)
			bprintf(&fx, "GL_FIXPARAM(g, %s); ", (char *)fn->fixparams.v[i]);
		bprintf(g, "\tGL_STACKCHECK(g, %s, %s, %d, %s);\n", fn->hasframe ? xprintf("sizeof(%s)", fs) : "0", fn->info,
			node->pos.line, bstr(&fx));
	}
	if (fn->hasframe)
		bprintf(g, fn->nosplit ? "\tGL_FRAME_ENTERSZ(g, %1$s, sizeof(%1$s), fp, fpoff, %2$s, %3$s);\n"
				     : "\tGL_FRAME_ENTERZ(g, %1$s, fp, fpoff, %2$s, %3$s);\n", fs, fn->info,
			!fn->frameptr.n ? "sizeof(GlFrame)" : fn->frame.n ? xprintf("offsetof(%s, %s)", fs, fn->firstplain) : xprintf("sizeof(%s)", fs));
}

/* The one normal exit (ret: unlink the frame, hand over the results) and
 * the exit for unwinding a panic (unwind:, where a deferred call that
 * recovered resumes the function's return). */
static void emitexits(FuncInfo *fi, const char *fs, Node *body, Buf *g) {
	bool hasdefer = fi->hasdefer;
	/* the one exit */
	bprintf(g, "ret:\n");
	if (fn->hasframe)
		bprintf(g, "\tGL_FRAME_LEAVE(g, fp);\n");
	if (fn->rmode == R_DIRECT) {
		if (fi->results.n == 1)
			bprintf(g, "\treturn %s;\n", varref(fi->results.v[0]));
		else {
			bprintf(g, "\treturn (%s){", ctype(fn->rtype));
			for (int i = 0; i < fi->results.n; i++)
				bprintf(g, "%s%s", i ? ", " : "", varref(fi->results.v[i]));
			bprintf(g, "};\n");
		}
	} else if (fn->rmode == R_OUT) {
		const char *o = fn->regleaf ? "out" : "fp->glout";
		if (fi->results.n == 1)
			bprintf(g, "\t*%s = %s;\n", o, varref(fi->results.v[0]));
		else
			for (int i = 0; i < fi->results.n; i++)
				bprintf(g, "\t%s->r%d = %s;\n", o, i, varref(fi->results.v[i]));
		bprintf(g, "\treturn;\n");
	} else
		bprintf(g, "\treturn;\n");
	bprintf(g, "unwind: __attribute__((cold, unused));\n");
	if (fn->hasframe)
		bprintf(g, "\tRELOAD;\n");
	if (hasdefer)
		bprintf(g, "\tif (g->unwindTarget == &fp->h) { /* the recovering call was deferred here */\n"
			   "\t\tg->unwinding = 0;\n\t\tg->unwindTarget = 0;\n"
			   "\t\t/* the rest of the deferred calls, as a return at the closing brace */\n"
			   "\t\tGL_PCLINE(%s, %d);\n\t\tgl_rundefers(g, &fp->h);\n\t\tRELOAD;\n"
			   "\t\tif (GL_UNLIKELY(g->unwinding)) goto unwind;\n\t\tgoto ret;\n\t}\n",
			fn->info, (int)body->ival);
	if (fn->hasframe)
		bprintf(g, "\tGL_FRAME_LEAVE(g, fp);\n");
	if (fn->rmode == R_DIRECT)
		bprintf(g, "\treturn (%s){0};\n", ctype(fn->rtype));
	else
		bprintf(g, "\treturn;\n");
	bprintf(g, "}\n#undef RELOAD\n");
}

/* A goto in n, outside function literals (which are functions of their
 * own). */
static bool hasgoto(Node *n, void *unused) {
	if (!n || n->kind == N_FUNCLIT)
		return false;
	return (n->kind == N_BRANCH && n->op == TK_GOTO) || anychild(n, hasgoto, unused);
}

void emitfunc(FuncInfo *fi) {
	Fn f = {0};
	Fn *savedfn = fn;
	Buf *savedout = out;
	fn = &f;
	f.fi = fi;
	f.leaf = true; /* until it makes a call (pcline) */
	Node *node = fi->node;
	bool islit = node->kind == N_FUNCLIT;
	f.closure = islit;
	namefunc(fi, islit);
	f.rtype = resulttype(fi->sig, &f.rmode);
	f.nosplit = fi->obj && (fi->obj->directives & DIR_NOSPLIT);
	f.regleaf = regleafok(fi);
	out = &f.body;
	f.indent = 1;
	Buf entry = {0};
	int tm = tempmark();
	bindparams(fi, &entry);
	out = &entry; /* the temporaries of the entry code die with it */
	tempclear(tm);
	out = &f.body;
	temprelease(tm);
	/* the body */
	srcline(node->pos);
	Node *body = islit ? node->b : node->c;
	f.lastuses = !hasgoto(body, NULL);
	stmts(&body->list);
	/* falling off the end returns (unless a return just did), at the
	 * closing brace */
	if (f.body.n == 0 || f.body.n != f.retat) {
		srcline((Pos){node->pos.file, (int)body->ival, 1});
		deferreturn();
		line("goto ret;");
	}
	bool hasdefer = fi->hasdefer;
	f.hasframe = f.frame.n > 0 || f.frameptr.n > 0 || hasdefer;
	if (!islit && bareleaf(fi) && (!f.leaf || f.hasframe)) /* its callers took it for no safe point */
		fatal("internal error: %s: %s was taken for a bare leaf, but %s", fileof(node->pos), f.gname,
		      f.leaf ? "it has a data frame" : "it makes a call");

	/* assemble */
	const char *fs = xprintf("struct %s__frame", f.cname);
	Buf *g = &gfuncs;
	bprintf(g, "\n/* %s — %s:%d */\n", f.gname, fileof(node->pos), node->pos.line);
	emitframestruct(fi, islit, fs, g);
	emitfuncinfo(fs);
	emitprologue(fi, islit, fs, g);
	bput(g, bstr(&entry));
	bput(g, bstr(&f.body));
	emitexits(fi, fs, body, g);
	fn = savedfn;
	out = savedout;
	emitlits(fi);
}

static void emitlits(FuncInfo *fi) {
	for (int i = 0; i < fi->lits.n; i++) {
		Node *l = fi->lits.v[i];
		emitfunc(l->aux);
	}
}
