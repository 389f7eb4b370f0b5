/* ffi.c — C functions declared with //gl:extern: their checks and their
 * wrappers (the runtime's side is runtime/ffi.c; docs/ffi.md).
 *
 *	//gl:extern libm.so.6 cos
 *	func cos(x float64) float64
 *
 * declares a C function that the program calls (through a call stub glc
 * writes, or libffi for a variadic one), from the
 * library named (or, with no library, from the program and the libraries
 * it links, libc among them).  glc writes a gl function of the declared
 * signature that hands the arguments to the runtime's gl_ffi_call; calls,
 * func values, go and defer treat it as any other function.
 *
 * C may be passed what it can hold without breaking the collector's or
 * the stack's rules, as cgo allows: integers, floats, bool, uintptr,
 * unsafe.Pointer, and pointers to values with no gl pointers inside (C
 * may not keep or store a gl pointer to gl pointers).  A variadic C
 * function (printf) is declared with its fixed parameters and a last
 * ...any, whose arguments must be of those types too.  The wrapper is
 * written by emitffi.c. */
#include <ctype.h>
#include <string.h>

#include "check.h"

/* The code of a value of type t in a GlFfiFunc's signature (runtime/ffi.c),
 * or 0 if C may not be passed one. */
char fficode(Type *t) {
	Type *u = under(t);
	switch (u->kind) {
	case T_BOOL: return 'z';
	case T_INT8: return 'b';
	case T_UINT8: return 'B';
	case T_INT16: return 'h';
	case T_UINT16: return 'H';
	case T_INT32: return 'i';
	case T_UINT32: return 'I';
	case T_INT: case T_INT64: return 'l';
	case T_UINT: case T_UINT64: case T_UINTPTR: return 'L';
	case T_FLOAT32: return 'f';
	case T_FLOAT64: return 'd';
	case T_UNSAFEPTR: return 'p';
	case T_POINTER: return haspointers(u->elem) ? 0 : 'p';
	}
	return 0;
}

static const char allowed[] = "C takes integers, floats, bool, uintptr, unsafe.Pointer and pointers to values "
			      "without gl pointers";

/* Why a value of type t cannot go to C, for a message. */
static const char *whynot(Type *t) {
	Type *u = under(t);
	if (u->kind == T_POINTER)
		return xprintf("%s points to gl pointers, which C may not keep", ts(t));
	if (isstring(t))
		return xprintf("type %s is not allowed (ffi.CString makes a C string of it)", ts(t));
	return xprintf("type %s is not allowed (%s)", ts(t), allowed);
}

static bool isany(Type *t) {
	Type *u = under(t);
	if (u->kind != T_INTERFACE)
		return false;
	completeiface(u);
	return u->methods.n == 0;
}

static bool cident(const char *s, int n) {
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (int i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

/* The directive's words: [library] symbol.  A bad one is reported at the
 * function's name: a comment after the directive would be more words. */
static void externwords(Obj *o, Node *d) {
	Pos at = d->pos;
	const char *w[3];
	int len[3], n = 0;
	for (const char *s = d->lit; *s;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != ' ' && *e != '\t')
			e++;
		if (n < 3) {
			w[n] = s;
			len[n] = (int)(e - s);
		}
		n++;
		s = e;
	}
	if (n < 1 || n > 2) {
		errorat(at, "//gl:extern above %s wants [library] symbol, as in //gl:extern libm.so.6 cos", o->name);
		return;
	}
	const char *sym = w[n - 1];
	if (!cident(sym, len[n - 1])) {
		errorat(at, "//gl:extern above %s: %.*s is not a C name", o->name, len[n - 1], sym);
		return;
	}
	o->csym = internn(sym, (size_t)len[n - 1]);
	o->clib = n == 2 ? internn(w[0], (size_t)len[0]) : NULL;
}

/* A //gl:extern declaration: its words and its signature. */
void checkextern(Obj *o) {
	Node *d = o->decl;
	if (d->a) {
		errorat(d->pos, "//gl:extern on a method: a C function is a plain func");
		return;
	}
	if (d->c) {
		errorat(d->pos, "//gl:extern function %s has a body: C's function is its body", o->name);
		return;
	}
	externwords(o, d);
	Type *sig = o->type;
	if (!sig || under(sig)->kind != T_FUNC)
		return;
	sig = under(sig);
	for (int i = 0; i < sig->fields.n; i++) {
		Field *f = sig->fields.v[i];
		const char *name = f->name && strcmp(f->name, "_") ? xprintf("parameter %s", f->name) : xprintf("parameter %d", i + 1);
		if (sig->variadic && i == sig->fields.n - 1) {
			if (!isany(f->type->elem))
				errorat(f->pos, "%s of C function %s: the variadic part of a C function is ...any, not ...%s", name,
					o->name, ts(f->type->elem));
			continue;
		}
		if (!fficode(f->type))
			errorat(f->pos, "%s of C function %s: %s", name, o->name, whynot(f->type));
	}
	if (sig->results.n > 1)
		errorat(d->pos, "C function %s has %d results: C returns one value or none", o->name, sig->results.n);
	else if (sig->results.n == 1) {
		Field *f = sig->results.v[0];
		if (!fficode(f->type))
			errorat(f->pos, "result of C function %s: %s", o->name, whynot(f->type));
	}
	o->cfunc = true;
}

/* ffi.Callback(fn) with fn of a func type glc can see: C must be able to
 * call it (runtime/ffi.c checks again what an interface holds). */
void checkcallbackcall(Node *call) {
	if (call->list.n != 1 || call->op)
		return;
	Node *a = call->list.v[0];
	Type *t = a->type;
	if (!t || t->kind == T_BAD || under(t)->kind != T_FUNC)
		return;
	Type *sig = under(t);
	const char *what = xprintf("argument %s to ffi.Callback", exprstr(a));
	if (sig->variadic)
		errorat(a->pos, "%s: C cannot call a variadic gl function", what);
	if (sig->results.n > 1)
		errorat(a->pos, "%s: C takes one result or none, not %d", what, sig->results.n);
	for (int i = 0; i < sig->fields.n && !sig->variadic; i++) {
		Type *pt = ((Field *)sig->fields.v[i])->type;
		if (!fficode(pt))
			errorat(a->pos, "%s: parameter %d: %s", what, i + 1, whynot(pt));
	}
	if (sig->results.n == 1 && !fficode(((Field *)sig->results.v[0])->type))
		errorat(a->pos, "%s: result: %s", what, whynot(((Field *)sig->results.v[0])->type));
}

/* A call of a variadic C function: each argument of its ... part must be a
 * value C can take.  The runtime checks what an interface value or a
 * spread slice holds. */
void checkexterncall(Node *call, Obj *fo) {
	Type *sig = under(fo->type);
	if (!sig->variadic || call->op || (call->flags & NF_SPREAD))
		return;
	for (int i = sig->fields.n - 1; i < call->list.n; i++) {
		Node *a = call->list.v[i];
		Type *t = a->type;
		if (!t || t->kind == T_BAD)
			continue;
		Node *x = a;
		while (x->kind == N_PAREN)
			x = x->a;
		if (t->kind == T_UNTYPED_NIL || (x->flags & NF_NIL)) {
			errorat(a->pos, "argument %s to C function %s: nil has no C type (use unsafe.Pointer(nil))", exprstr(a),
				fo->name);
			continue;
		}
		if (isuntyped(t))
			t = defaulttype(t);
		if (isinterface(t))
			continue; /* its dynamic value: the runtime checks it (runtime/ffi.c) */
		if (!fficode(t))
			errorat(a->pos, "argument %s to C function %s: %s", exprstr(a), fo->name, whynot(t));
	}
}
