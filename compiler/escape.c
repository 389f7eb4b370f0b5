/* escape.c — escape analysis: which address-taken locals may stay in the
 * data frame (on the goroutine stack) and which must move to the heap.
 *
 * A local whose address is taken (&x, x[:], a pointer method call on x)
 * stays in its function's data frame unless the address may outlive the
 * frame, as in Go.  The analysis is flow-insensitive and conservative:
 *
 *   - A "holder" is a local variable (or parameter) that may hold the
 *     address of locals: p := &x makes p hold x; q := p makes q hold what p
 *     holds.
 *   - The address escapes when it, or a holder of it, is stored anywhere
 *     but a local holder (a global, through a pointer, in a slice, map,
 *     channel or interface, a closure), returned, passed to a function
 *     whose parameter escapes, or passed where the callee is unknown (func
 *     values, interface methods, C).
 *   - A parameter escapes when what it holds escapes in its function;
 *     summaries of all functions are computed together, to a fixed point.
 *     That summary (valueescapes) is its callers' business; whether the
 *     parameter's own address escapes (escapes) is its function's, as for
 *     a local: t.m() for a pointer method m, or &t passed where nothing
 *     keeps it, leaves a value parameter t in the frame.
 *
 * Addresses that stay on the stack are what copystack rewrites (DESIGN.md
 * S4): they live only in data-frame slots and in pointer parameters.
 */
#include <string.h>

#include "check.h"
#include "parse.h"

typedef struct Flow {
	Obj *from, *to; /* from's addresses flow into to */
} Flow;

typedef struct Esc {
	int loopdepth;  /* of the statement being walked */
	Vec flows;      /* Flow* */
	Vec addrof;     /* pairs (x, holder): &x stored in holder */
	Vec escroots;   /* locals whose address escapes directly */
	Vec eschold;    /* holders whose value escapes */
	FuncInfo *fi;
} Esc;

static bool changed;

/* Each new(T) and &T{...} is an allocation site: a pseudo-variable that
 * can stay in the data frame like a local if its address does not escape.
 * Inside a loop a site gives a fresh object each iteration; the frame has
 * one slot for it, so the site must escape if its address can reach a
 * variable that outlives the iteration (declared in an outer loop).  One
 * over 64 KiB goes to the heap whatever its address does (Go's
 * MaxImplicitStackVarSize): a frame that big would make every stack that
 * holds it grow, and copy, megabytes. */
enum { maxImplicitStackVarSize = 64 << 10 };

static Obj *allocsite(Esc *e, Node *n, Type *t) {
	if (!n->obj) {
		Obj *o = newobj(O_VAR, intern("(alloc)"), n->pos);
		o->type = t;
		o->isalloc = true;
		o->addrtaken = true;
		o->escapes = tsize(t) > maxImplicitStackVarSize;
		n->obj = o;
	}
	n->obj->loopdepth = e->loopdepth;
	return n->obj;
}

static bool islocal(Obj *o) {
	return o && o->kind == O_VAR && !o->global && !o->isfield;
}

static void add(Vec *v, void *x) {
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return;
	vpush(v, x);
}

static bool has(Vec *v, void *x) {
	for (int i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return true;
	return false;
}

/* The local variable whose storage an addressable expression denotes
 * (x, x.f, x[i] for an array x, (x)), or NULL (through a pointer or a
 * slice, the storage is elsewhere). */
static Obj *rootvar(Node *n) {
	for (;;) {
		switch (n->kind) {
		case N_PAREN:
			n = n->a;
			continue;
		case N_IDENT:
			return islocal(n->obj) ? n->obj : NULL;
		case N_SELECTOR:
			if (n->op != SEL_FIELD)
				return NULL;
			{
				/* a field reached through no pointer is in x's storage */
				Type *t = n->a->type;
				for (int i = 0; i < n->path.n; i++) {
					if (t && under(t)->kind == T_POINTER)
						return NULL;
					t = ((Field *)n->path.v[i])->type;
				}
				if (n->a->type && under(n->a->type)->kind == T_POINTER)
					return NULL;
			}
			n = n->a;
			continue;
		case N_INDEX:
			if (!n->a->type || under(n->a->type)->kind != T_ARRAY)
				return NULL;
			n = n->a;
			continue;
		default:
			return NULL;
		}
	}
}

/* &r: r's address is in a value.  Whoever gets the address may read
 * what r holds and store it anywhere, so r's contents escape (its own
 * address may still stay on the stack). */
static void addroot(Esc *e, Vec *roots, Obj *r) {
	r->addrtaken = true; /* also x.f[:] and &x.f, which the checker does not mark */
	add(roots, r);
	add(&e->eschold, r);
}

static void sources(Esc *e, Node *n, Vec *roots, Vec *holds);
static void escape(Esc *e, Node *n);

/* A value of type from stored where a value of type to goes is boxed when
 * to is an interface and from is not pointer-shaped: it is copied into a
 * heap object, and a heap object may never hold a stack address (S4: the
 * stack's move would not fix it), so what the value holds escapes. */
static bool boxed(Type *from, Type *to) {
	return from && to && isinterface(to) && !isinterface(from) && !isdirectiface(from);
}

/* The sources of value n stored into a place of type to (a composite
 * literal's element, a conversion's operand, a parameter). */
static void sourcesinto(Esc *e, Node *n, Type *to, Vec *roots, Vec *holds) {
	if (boxed(n->type, to))
		escape(e, n);
	else
		sources(e, n, roots, holds);
}

/* The type of a composite literal's i-th element el (keyed or not). */
static Type *elemtype(Type *lit, Node *el, int i) {
	Type *u = under(lit);
	if (u->kind == T_ARRAY)
		return u->elem;
	if (u->kind != T_STRUCT)
		return NULL;
	if (el->kind == N_KEYVAL && el->a->kind == N_IDENT) {
		for (int k = 0; k < u->fields.n; k++) {
			Field *f = u->fields.v[k];
			if (f->name && !strcmp(f->name, el->a->name))
				return f->type;
		}
		return NULL;
	}
	return i < u->fields.n ? ((Field *)u->fields.v[i])->type : NULL;
}

/* The sources of an integer expression converted to unsafe.Pointer: the
 * pointers converted to integers inside its arithmetic, as in
 * unsafe.Pointer(uintptr(unsafe.Pointer(&x)) + off) (the unsafe package's
 * pattern 3, which Go's escape analysis follows the same way).  An
 * integer variable in it gives nothing: a uintptr does not keep what it
 * was taken from. */
static void unsafesources(Esc *e, Node *n, Vec *roots, Vec *holds) {
	while (n->kind == N_PAREN)
		n = n->a;
	if (n->kind == N_CALL && (n->flags & NF_CONVERSION) && n->list.n == 1) {
		Node *x = n->list.v[0];
		if (x->type && under(x->type)->kind == T_UNSAFEPTR)
			sources(e, x, roots, holds);
		else if (x->type && isinteger(x->type))
			unsafesources(e, x, roots, holds);
		return;
	}
	if (n->kind == N_UNARY)
		unsafesources(e, n->a, roots, holds);
	if (n->kind == N_BINARY) {
		unsafesources(e, n->a, roots, holds);
		if (n->op != TK_SHL && n->op != TK_SHR) /* a shift count is a number */
			unsafesources(e, n->b, roots, holds);
	}
}

/* The sources of &x: a local's address (x, x.f, x[i] of an array), or,
 * when x's storage is reached through a pointer or a slice (p.f, s[i],
 * *p), whatever that pointer or slice holds. */
static void addrsources(Esc *e, Node *x, Vec *roots, Vec *holds) {
	while (x->kind == N_PAREN)
		x = x->a;
	Obj *r = rootvar(x);
	if (r) {
		addroot(e, roots, r);
		return;
	}
	switch (x->kind) {
	case N_SELECTOR:
		if (x->op == SEL_FIELD) {
			if (x->a->type && under(x->a->type)->kind == T_POINTER)
				sources(e, x->a, roots, holds);
			else
				addrsources(e, x->a, roots, holds);
		}
		return;
	case N_INDEX:
		if (x->a->type && under(x->a->type)->kind == T_ARRAY)
			addrsources(e, x->a, roots, holds);
		else
			sources(e, x->a, roots, holds);
		return;
	case N_STAR:
		sources(e, x->a, roots, holds);
		return;
	}
}

/* What an expression's value may hold: addresses of locals (roots) and
 * the contents of holders (holds).  Values loaded through pointers or
 * returned by calls hold no stack address: any store or pass that could put
 * one there already made it escape. */
static void sources(Esc *e, Node *n, Vec *roots, Vec *holds) {
	if (!n)
		return;
	switch (n->kind) {
	case N_PAREN:
		sources(e, n->a, roots, holds);
		return;
	case N_IDENT:
		if (islocal(n->obj) && n->type && haspointers(n->type))
			add(holds, n->obj);
		return;
	case N_UNARY:
		if (n->op == TK_AND) {
			Node *x = n->a;
			while (x->kind == N_PAREN)
				x = x->a;
			if (x->kind == N_COMPLIT) {
				addroot(e, roots, allocsite(e, n, x->type));
				return;
			}
			addrsources(e, x, roots, holds);
		}
		return;
	case N_SLICEEXPR:
		/* a[i:j] of an array is &a's sources (a local array, or what the
		 * pointer that reaches it holds: p.arr[:]); s[i:j] of a slice
		 * holds what s holds */
		if (n->a->type && under(n->a->type)->kind == T_ARRAY)
			addrsources(e, n->a, roots, holds);
		else
			sources(e, n->a, roots, holds);
		return;
	case N_INDEX:
		/* an element of a local array value is in the array's own
		 * storage: it holds what the array holds.  Elements of slices,
		 * strings and maps are loaded through a pointer. */
		if (n->a->type && under(n->a->type)->kind == T_ARRAY)
			sources(e, n->a, roots, holds);
		return;
	case N_TYPEASSERT:
		/* x.(T) gives back what the interface x holds */
		sources(e, n->a, roots, holds);
		return;
	case N_SELECTOR:
		/* a field of a holder struct (not through a pointer) */
		if (n->op == SEL_FIELD && n->a->type && under(n->a->type)->kind != T_POINTER)
			sources(e, n->a, roots, holds);
		return;
	case N_CALL:
		if ((n->flags & NF_CONVERSION) && n->list.n == 1) {
			Node *x = n->list.v[0];
			Type *to = n->type;
			/* conversions that copy bytes (to a string, []byte(s),
			 * []rune(s)) hold nothing; the others keep the value */
			if (!to || under(to)->kind == T_STRING || (x->type && under(x->type)->kind == T_STRING))
				return;
			/* a uintptr (or any value without pointers) holds no
			 * address: uintptr(unsafe.Pointer(&x)) does not keep x
			 * on the heap, as in Go — which is why such a uintptr
			 * goes stale when the stack moves */
			if (!haspointers(to))
				return;
			if (under(to)->kind == T_UNSAFEPTR && x->type && isinteger(x->type)) {
				unsafesources(e, x, roots, holds);
				return;
			}
			sourcesinto(e, x, to, roots, holds);
			return;
		}
		if ((n->flags & NF_CALLEE_BUILTIN) && n->ival == B_APPEND && n->list.n)
			sources(e, n->list.v[0], roots, holds); /* the result may be the first slice */
		if ((n->flags & NF_CALLEE_BUILTIN) && n->list.n &&
		    (n->ival == B_ADD || n->ival == B_SLICE || n->ival == B_STRING || n->ival == B_STRINGDATA || n->ival == B_SLICEDATA))
			sources(e, n->list.v[0], roots, holds); /* unsafe: the result points where the first argument does */
		if ((n->flags & NF_CALLEE_BUILTIN) && n->ival == B_NEW && n->type)
			addroot(e, roots, allocsite(e, n, under(n->type)->elem));
		return;
	case N_COMPLIT:
		/* a struct or array value holds what its elements hold */
		if (n->type && (under(n->type)->kind == T_STRUCT || under(n->type)->kind == T_ARRAY))
			for (int i = 0; i < n->list.n; i++) {
				Node *el = n->list.v[i];
				Type *to = elemtype(n->type, el, i);
				sourcesinto(e, el->kind == N_KEYVAL ? el->b : el, to, roots, holds);
			}
		return;
	case N_BINARY:
		return; /* comparisons and arithmetic make no pointers */
	}
}

/* roots and holds found for an expression go somewhere the analysis
 * cannot follow: the roots to rootset (escroots: their addresses escape;
 * eschold: what they hold does), the holders' values escape. */
static void lose(Esc *e, Vec *roots, Vec *holds, Vec *rootset) {
	for (int i = 0; i < roots->n; i++)
		add(rootset, roots->v[i]);
	for (int i = 0; i < holds->n; i++)
		add(&e->eschold, holds->v[i]);
}

/* The address of x goes somewhere the analysis cannot follow. */
static void escapeaddr(Esc *e, Node *x) {
	Vec roots = {0}, holds = {0};
	addrsources(e, x, &roots, &holds);
	lose(e, &roots, &holds, &e->escroots);
}

/* The elements of slice (or string) n are copied somewhere the analysis
 * cannot follow (copy's source, append's spread argument): what they hold
 * escapes, not the array they are in. */
static void copiedout(Esc *e, Node *n) {
	Vec roots = {0}, holds = {0};
	sources(e, n, &roots, &holds);
	lose(e, &roots, &holds, &e->eschold);
}

/* The value of n goes somewhere the analysis cannot follow. */
static void escape(Esc *e, Node *n) {
	Vec roots = {0}, holds = {0};
	sources(e, n, &roots, &holds);
	lose(e, &roots, &holds, &e->escroots);
}

/* The value of n is stored in the local holder dst. */
static void flowto(Esc *e, Node *n, Obj *dst) {
	Vec roots = {0}, holds = {0};
	sources(e, n, &roots, &holds);
	for (int i = 0; i < roots.n; i++) {
		vpush(&e->addrof, roots.v[i]);
		vpush(&e->addrof, dst);
	}
	for (int i = 0; i < holds.n; i++) {
		Flow *f = xalloc(sizeof *f);
		f->from = holds.v[i];
		f->to = dst;
		vpush(&e->flows, f);
	}
}

/* The value of n is assigned to the left side l. */
static void assignto(Esc *e, Node *l, Node *n) {
	while (l->kind == N_PAREN)
		l = l->a;
	if (l->kind == N_IDENT && !strcmp(l->name, "_"))
		return;
	if (l->kind == N_IDENT && islocal(l->obj) && !l->obj->captured) {
		flowto(e, n, l->obj);
		return;
	}
	/* x.f = v with x a local struct (not through a pointer): x holds v */
	Obj *r = rootvar(l);
	if (r && !r->captured && l->kind != N_IDENT) {
		flowto(e, n, r);
		return;
	}
	escape(e, n);
}

static void walkexpr(Esc *e, Node *n);

/* The function a call names statically (a function, a package's
 * function, a method), or NULL. */
static Obj *calleefunc(Node *call) {
	Node *f = call->a;
	while (f->kind == N_PAREN)
		f = f->a;
	if ((f->kind == N_IDENT || (f->kind == N_SELECTOR && f->op == SEL_PKG)) && f->obj && f->obj->kind == O_FUNC)
		return f->obj;
	if (f->kind == N_SELECTOR && f->op == SEL_METHOD && f->meth)
		return ((Method *)f->meth)->fn;
	return NULL;
}

/* A parameter of a function the analysis knows, or NULL. */
Obj *calleeparam(Node *call, int i, bool recv) {
	Obj *fo = calleefunc(call);
	if (!fo || fo->extern_ || !fo->decl || !fo->decl->aux)
		return NULL;
	FuncInfo *fi = fo->decl->aux;
	if (recv)
		return fi->recv;
	if (i < fi->params.n)
		return fi->params.v[i];
	return NULL;
}

/* Whether the call is of a body-less function marked //gl:noescape: its
 * arguments are lent to the runtime's C for the call, not kept. */
static bool calleenoescape(Node *call) {
	Obj *fo = calleefunc(call);
	return fo && fo->extern_ && (fo->directives & DIR_NOESCAPE);
}

static void walkcall(Esc *e, Node *n) {
	Node *f = n->a;
	while (f->kind == N_PAREN)
		f = f->a;
	if (n->flags & NF_CONVERSION) {
		walkexpr(e, n->list.n ? n->list.v[0] : NULL);
		return;
	}
	if (n->flags & NF_CALLEE_BUILTIN) {
		for (int i = 0; i < n->list.n; i++) {
			Node *a = n->list.v[i];
			walkexpr(e, a);
			switch (n->ival) {
			case B_APPEND:
				if (i > 0 && n->op) /* the call has ... */
					copiedout(e, a); /* append(s, t...): t's elements */
				else if (i > 0)
					escape(e, a); /* stored in the slice's array */
				break;
			case B_PANIC:
				escape(e, a);
				break;
			case B_COPY:
				if (i == 1)
					copiedout(e, a);
				break;
			}
		}
		return;
	}
	/* the callee: a method call's receiver is an operand, not a method
	 * value (which would bind it in a closure) */
	if (f->kind == N_SELECTOR && (f->op == SEL_METHOD || f->op == SEL_IMETHOD))
		walkexpr(e, f->a);
	else
		walkexpr(e, f);
	Type *sig = f->type ? under(f->type) : NULL;
	/* the receiver of a method call: &x for a pointer method */
	if (f->kind == N_SELECTOR && f->op == SEL_METHOD && (f->ival & RECV_ADDR)) {
		Obj *r = rootvar(f->a);
		Obj *p = calleeparam(n, 0, true);
		if (r) {
			r->addrtaken = true;
			add(&e->eschold, r); /* the method may read what r holds */
			if (!p || p->valueescapes)
				add(&e->escroots, r);
		} else if (!p || p->valueescapes) {
			/* &p.f for a pointer p: what p holds goes to the method */
			escapeaddr(e, f->a);
		}
	} else if (f->kind == N_SELECTOR && f->op == SEL_METHOD) {
		Obj *p = calleeparam(n, 0, true);
		if (!p || p->valueescapes)
			escape(e, f->a);
	} else if (f->kind == N_SELECTOR && f->op == SEL_IMETHOD) {
		/* an interface holds a pointer-shaped value in its data word
		 * itself, and the method called is unknown: what it holds escapes */
		escape(e, f->a);
	}
	bool spread = n->flags & NF_SPREAD;
	for (int i = 0; i < n->list.n; i++) {
		Node *a = n->list.v[i];
		walkexpr(e, a);
		if (spread)
			continue;
		Obj *p = calleeparam(n, i, false);
		bool variadic = sig && sig->kind == T_FUNC && sig->variadic && i >= sig->fields.n - 1 && !n->op;
		Type *pt = sig && sig->kind == T_FUNC && i < sig->fields.n ? ((Field *)sig->fields.v[i])->type : NULL;
		bool kept = p ? p->valueescapes || boxed(a->type, p->type)
			      : !calleenoescape(n) || !pt || boxed(a->type, pt);
		if (kept || variadic)
			escape(e, a);
		else {
			/* what the argument holds flows into the parameter: if the
			 * parameter escapes (checked on the next round), so does it */
			Vec roots = {0}, holds = {0};
			sources(e, a, &roots, &holds); /* marks what &x-arguments hold */
		}
	}
}

static void walkexpr(Esc *e, Node *n) {
	if (!n)
		return;
	switch (n->kind) {
	case N_CALL:
		walkcall(e, n);
		return;
	case N_FUNCLIT:
		return; /* its own function; captured variables are on the heap */
	case N_COMPLIT: {
		bool addressed = n->flags & NF_IMPLICITADDR;
		bool heapy = n->type && (under(n->type)->kind == T_SLICE || under(n->type)->kind == T_MAP);
		for (int i = 0; i < n->list.n; i++) {
			Node *el = n->list.v[i];
			if (el->kind == N_KEYVAL) {
				if (n->type && under(n->type)->kind == T_MAP)
					walkexpr(e, el->a), escape(e, el->a);
				el = el->b;
			}
			walkexpr(e, el);
			if (addressed || heapy)
				escape(e, el);
		}
		return;
	}
	case N_UNARY:
		if (n->op == TK_AND) {
			Node *x = n->a;
			while (x->kind == N_PAREN)
				x = x->a;
			if (x->kind == N_COMPLIT) {
				/* &T{...}: its elements are stored in the allocation */
				Obj *site = allocsite(e, n, x->type);
				for (int i = 0; i < x->list.n; i++) {
					Node *el = x->list.v[i];
					if (el->kind == N_KEYVAL)
						el = el->b;
					walkexpr(e, el);
					flowto(e, el, site);
				}
				return;
			}
		}
		walkexpr(e, n->a);
		return;
	case N_SELECTOR:
		if (n->op == SEL_METHOD || n->op == SEL_IMETHOD) {
			/* a method value binds its receiver in a closure */
			if (n->ival & RECV_ADDR) {
				escapeaddr(e, n->a);
			}
			escape(e, n->a);
		}
		if (n->op != SEL_PKG)
			walkexpr(e, n->a);
		return;
	case N_TYPEASSERT: case N_PAREN: case N_STAR:
		walkexpr(e, n->a);
		return;
	case N_INDEX: case N_SLICEEXPR: case N_BINARY: case N_KEYVAL:
		/* operands only: what they hold flows nowhere by itself */
		walkexpr(e, n->a);
		walkexpr(e, n->b);
		walkexpr(e, n->c);
		walkexpr(e, n->d);
		return;
	}
}

/* Values converted to an interface are boxed on the heap: what they hold
 * escapes.  The checker leaves the converted-to type on assignments, so
 * an assignment to an interface-typed place is treated as an escape. */
static bool toiface(Node *l) { return l && l->type && isinterface(l->type); }

static void walkstmt(Esc *e, Node *n);

static void walkstmts(Esc *e, Vec *v) {
	for (int i = 0; i < v->n; i++)
		walkstmt(e, v->v[i]);
}

/* m[k] = v (or op=, ++, --) stores k in the map: a heap object, which
 * may never hold a stack address, so what k holds escapes. */
static void mapkeystore(Esc *e, Node *l) {
	while (l->kind == N_PAREN)
		l = l->a;
	if (l->kind == N_INDEX && l->a->type && under(l->a->type)->kind == T_MAP)
		escape(e, l->b);
}

static void walkassign(Esc *e, Vec *lhs, Vec *rhs) {
	for (int i = 0; i < rhs->n; i++)
		walkexpr(e, rhs->v[i]);
	for (int i = 0; i < lhs->n; i++) {
		Node *l = lhs->v[i];
		if (l->kind != N_IDENT) {
			walkexpr(e, l);
			mapkeystore(e, l);
		}
	}
	if (lhs->n == rhs->n) {
		for (int i = 0; i < lhs->n; i++) {
			Node *l = lhs->v[i], *r = rhs->v[i];
			if (toiface(l))
				escape(e, r);
			else
				assignto(e, l, r);
		}
	}
	/* a multi-valued call or comma-ok form holds no stack address */
}

/* A variable on the left of an assignment that is not its declaration:
 * its value can change after it was checked for nil (emitexpr.c). */
static void reassigned(Node *l) {
	while (l && l->kind == N_PAREN)
		l = l->a;
	if (l && l->kind == N_IDENT && l->obj)
		l->obj->reassigned = true;
}

static void walkstmt(Esc *e, Node *n) {
	if (!n)
		return;
	switch (n->kind) {
	case N_EXPRSTMT:
		walkexpr(e, n->a);
		return;
	case N_ASSIGN:
	case N_DEFINE:
		for (int i = 0; i < n->list.n; i++) {
			Node *v = n->list.v[i];
			if (n->kind == N_ASSIGN || v->ival != 1)
				reassigned(v);
		}
		if (n->kind == N_DEFINE)
			for (int i = 0; i < n->list.n; i++) {
				Node *v = n->list.v[i];
				if (v->kind == N_IDENT && v->obj && v->ival == 1)
					v->obj->loopdepth = e->loopdepth;
			}
		if (n->kind == N_ASSIGN && n->op) {
			walkexpr(e, n->list.v[0]);
			walkexpr(e, n->list2.v[0]);
			mapkeystore(e, n->list.v[0]);
			return;
		}
		walkassign(e, &n->list, &n->list2);
		return;
	case N_INCDEC:
		reassigned(n->a);
		walkexpr(e, n->a);
		mapkeystore(e, n->a);
		return;
	case N_SEND:
		walkexpr(e, n->a);
		walkexpr(e, n->b);
		escape(e, n->b);
		return;
	case N_DECLSTMT:
		if (n->op == TK_VAR)
			for (int i = 0; i < n->list.n; i++) {
				Node *spec = n->list.v[i];
				for (int j = 0; j < spec->list.n; j++) {
					Node *v = spec->list.v[j];
					if (v->obj)
						v->obj->loopdepth = e->loopdepth;
				}
				if (spec->list2.n)
					walkassign(e, &spec->list, &spec->list2);
			}
		return;
	case N_BLOCK:
		walkstmts(e, &n->list);
		return;
	case N_IF:
		walkstmt(e, n->a);
		walkexpr(e, n->b);
		walkstmt(e, n->c);
		walkstmt(e, n->d);
		return;
	case N_FOR:
		e->loopdepth++;
		walkstmt(e, n->a);
		walkexpr(e, n->b);
		walkstmt(e, n->c);
		walkstmt(e, n->d);
		e->loopdepth--;
		return;
	case N_RANGE:
		walkexpr(e, n->a);
		if (n->op != 1) /* for k, v = range: assignments */
			for (int i = 0; i < n->list.n; i++)
				reassigned(n->list.v[i]);
		e->loopdepth++;
		for (int i = 0; i < n->list.n; i++) {
			Node *v = n->list.v[i];
			if (v->kind == N_IDENT && v->obj && n->op == 1)
				v->obj->loopdepth = e->loopdepth;
		}
		/* ranging over a local array by value copies it; the key and value
		 * variables receive elements (which hold what the array holds).
		 * The elements of a slice, string, map or channel, and of an
		 * array behind a pointer, are loaded through a pointer, as an
		 * index expression's: whatever address is stored there has
		 * escaped already (an address-taken array's contents escape),
		 * so they bring nothing to follow. */
		bool byvalue = n->a && n->a->type && under(n->a->type)->kind == T_ARRAY;
		for (int i = 0; byvalue && i < n->list.n; i++) {
			Node *v = n->list.v[i];
			if (v->kind == N_IDENT && islocal(v->obj))
				flowto(e, n->a, v->obj);
			else if (v->kind != N_IDENT)
				escape(e, n->a);
		}
		walkstmt(e, n->d);
		e->loopdepth--;
		return;
	case N_SWITCH:
	case N_TYPESWITCH:
		walkstmt(e, n->a);
		if (n->kind == N_SWITCH)
			walkexpr(e, n->b);
		else
			walkexpr(e, n->b->a);
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			for (int j = 0; j < c->list.n; j++)
				walkexpr(e, c->list.v[j]);
			if (n->kind == N_TYPESWITCH && c->obj) {
				c->obj->loopdepth = e->loopdepth;
				flowto(e, n->b->a, c->obj);
			}
			walkstmts(e, &c->list2);
		}
		return;
	case N_SELECT:
		for (int i = 0; i < n->list.n; i++) {
			Node *c = n->list.v[i];
			walkstmt(e, c->a);
			walkstmts(e, &c->list2);
		}
		return;
	case N_RETURN:
		for (int i = 0; i < n->list.n; i++) {
			walkexpr(e, n->list.v[i]);
			escape(e, n->list.v[i]);
		}
		return;
	case N_LABELED:
		walkstmt(e, n->a);
		return;
	case N_GO:
	case N_DEFER: {
		/* the call runs later, from a heap record: its operands escape */
		Node *c = n->a;
		while (c->kind == N_PAREN)
			c = c->a;
		walkexpr(e, c->a);
		if (c->a->kind == N_SELECTOR && (c->a->op == SEL_METHOD || c->a->op == SEL_IMETHOD)) {
			if (c->a->ival & RECV_ADDR) {
				escapeaddr(e, c->a->a);
			}
			escape(e, c->a->a);
		}
		for (int i = 0; i < c->list.n; i++) {
			walkexpr(e, c->list.v[i]);
			escape(e, c->list.v[i]);
		}
		return;
	}
	}
}

/* Close the flow graph: holders' root sets, and which holders escape. */
static void solve(Esc *e) {
	/* escaping holders: also every holder whose value flows into one */
	bool more = true;
	while (more) {
		more = false;
		for (int i = 0; i < e->flows.n; i++) {
			Flow *f = e->flows.v[i];
			if (has(&e->eschold, f->to) && !has(&e->eschold, f->from)) {
				vpush(&e->eschold, f->from);
				more = true;
			}
		}
	}
	/* an address stored in an escaping holder escapes; so does the address
	 * of a variable declared in a loop (or of an allocation site in one)
	 * that reaches a variable outliving the iteration: the frame has one
	 * slot for it, and the next iteration's variable would reuse it */
	for (int i = 0; i + 1 < e->addrof.n; i += 2) {
		Obj *r = e->addrof.v[i], *h = e->addrof.v[i + 1];
		if (has(&e->eschold, h))
			add(&e->escroots, r);
		if (!h->isalloc && h->loopdepth < r->loopdepth)
			add(&e->escroots, r);
	}
	/* ... also through holders: q := p, where p holds the address */
	for (int j = 0; j + 1 < e->addrof.n; j += 2) {
		Obj *r = e->addrof.v[j];
		if (r->loopdepth == 0 || has(&e->escroots, r))
			continue;
		Vec reach = {0};
		vpush(&reach, e->addrof.v[j + 1]);
		for (int k = 0; k < reach.n; k++)
			for (int i = 0; i < e->flows.n; i++) {
				Flow *f = e->flows.v[i];
				if (f->from == reach.v[k])
					add(&reach, f->to);
			}
		for (int k = 0; k < reach.n; k++) {
			Obj *h = reach.v[k];
			if (!h->isalloc && h->loopdepth < r->loopdepth)
				add(&e->escroots, r);
		}
	}
	/* a parameter whose value escapes (what it holds, or all of it with
	 * its address): callers must treat what they pass it so.  Not its
	 * own escape: a parameter whose address stays in the frame (a
	 * pointer method called on it) stays there. */
	FuncInfo *fi = e->fi;
	Vec params = fi->params;
	for (int i = -1; i < params.n; i++) {
		Obj *p = i < 0 ? fi->recv : params.v[i];
		if (p && (has(&e->eschold, p) || has(&e->escroots, p)) && !p->valueescapes) {
			p->valueescapes = true;
			changed = true;
		}
	}
	for (int i = 0; i < e->escroots.n; i++) {
		Obj *o = e->escroots.v[i];
		if (!o->escapes) {
			o->escapes = true;
			changed = true;
		}
	}
}

static void analyze(FuncInfo *fi) {
	Esc e = {0};
	e.fi = fi;
	Node *body = fi->node->kind == N_FUNCLIT ? fi->node->b : fi->node->c;
	if (!body)
		return;
	walkstmts(&e, &body->list);
	/* a captured variable lives in a heap box: what it holds escapes */
	for (int i = 0; i < fi->locals.n; i++) {
		Obj *o = fi->locals.v[i];
		if (o->captured)
			add(&e.eschold, o);
	}
	if (fi->recv && fi->recv->captured)
		add(&e.eschold, fi->recv);
	/* a named result is returned by a bare return (or read by a deferred
	 * call after the return): what it holds escapes */
	for (int i = 0; i < fi->results.n; i++)
		if (fi->results.v[i])
			add(&e.eschold, fi->results.v[i]);
	/* a func literal's parameters are reached through func values */
	if (fi->node->kind == N_FUNCLIT)
		for (int i = 0; i < fi->params.n; i++)
			add(&e.eschold, fi->params.v[i]);
	solve(&e);
	for (int i = 0; i < fi->lits.n; i++)
		analyze(((Node *)fi->lits.v[i])->aux);
}

const char *intrinsicname(Obj *f); /* intrinsic.c */
const char *intrinsicpair(Obj *f);

/* -m: each call of fn (not of the literals inside it, reported with their
 * own) that glc compiles to its inline twin (intrinsic.c). */
static bool reportintrinsics(Node *n, void *fn) {
	if (!n || (n->kind == N_FUNCLIT && n != fn))
		return false;
	if (n->kind == N_CALL) {
		Node *f = n->a;
		while (f->kind == N_PAREN)
			f = f->a;
		Obj *o = f->obj;
		if (o && (intrinsicname(o) || intrinsicpair(o)))
			errorat(n->pos, "intrinsic %s.%s", o->pkg->name, o->name);
	}
	return anychild(n, reportintrinsics, fn);
}

/* glc build -m: Go's -m messages for the main package's decisions. */
static void report(FuncInfo *fi) {
	if (fi->pkg && !strcmp(fi->pkg->path, "main"))
		reportintrinsics(fi->node, fi->node);
	for (int i = 0; i < fi->locals.n; i++) {
		Obj *o = fi->locals.v[i];
		if (o->pkg && strcmp(o->pkg->path, "main"))
			continue;
		if (o->captured)
			errorat(o->pos, "moved to heap: %s (captured by a closure)", o->name);
		else if (o->addrtaken && o->escapes)
			errorat(o->pos, "moved to heap: %s", o->name);
		else if (o->addrtaken)
			errorat(o->pos, "%s does not escape", o->name);
	}
	for (int i = 0; i < fi->lits.n; i++)
		report(((Node *)fi->lits.v[i])->aux);
}

void escapereport(void) {
	for (int i = 0; i < allpackages.n; i++) {
		Package *p = allpackages.v[i];
		for (int j = 0; j < p->funcs.n; j++) {
			Obj *f = p->funcs.v[j];
			if (f->decl && f->decl->aux && f->decl->c)
				report(f->decl->aux);
		}
	}
}

/* All functions of all packages, until no summary changes. */
void escapeanalysis(void) {
	int rounds = 0;
	do {
		changed = false;
		for (int i = 0; i < allpackages.n; i++) {
			Package *p = allpackages.v[i];
			for (int j = 0; j < p->funcs.n; j++) {
				Obj *f = p->funcs.v[j];
				if (f->decl && f->decl->aux && f->decl->c)
					analyze(f->decl->aux);
			}
			/* func literals in package variables' initializers */
			for (int j = 0; j < p->funclits.n; j++) {
				FuncInfo *li = ((Node *)p->funclits.v[j])->aux;
				if (li && !li->outer)
					analyze(li);
			}
		}
	} while (changed && ++rounds < 50);
	if (changed) {
		/* no fixed point (cannot happen: escapes only turn on); be safe */
		for (int i = 0; i < allpackages.n; i++) {
			Package *p = allpackages.v[i];
			for (int j = 0; j < p->funcs.n; j++) {
				Obj *f = p->funcs.v[j];
				FuncInfo *fi = f->decl ? f->decl->aux : NULL;
				if (fi)
					for (int k = 0; k < fi->locals.n; k++) {
						((Obj *)fi->locals.v[k])->escapes = true;
						((Obj *)fi->locals.v[k])->valueescapes = true;
					}
			}
		}
	}
}
