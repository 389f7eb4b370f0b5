/*
 * panic.c — panic, defer and recover without setjmp (DESIGN.md S6), and
 * the run-time error values (Go's runtime/panic.go and error.go).
 *
 * The protocol (gl.h): gopanic runs the deferred calls from the top of
 * g->_defer, on the goroutine stack below the panicking frame.  If one of
 * them recovers, gopanic sets g->unwinding and g->unwindTarget (the data
 * frame of the function that deferred the recovering call) and returns;
 * generated code checks g->unwinding after every call and returns at once,
 * frame by frame, until the target frame, which runs its remaining deferred
 * calls and returns normally.  If none recovers, gopanic prints Go's
 * message and traceback and exits with status 2.
 *
 * Stack.  gopanic, calldefer, gl_deferproc, gl_rundefers, gl_recover and
 * the panic helpers run on the goroutine stack, called straight from
 * generated code, perhaps with only the reserve band left (S7): small
 * frames, no libc, printing only on g0 (systemstack).  The deferred calls
 * they make are gl code that may grow — move — the stack, so across those
 * calls their C locals hold no address into it: a defer's frame is kept as
 * its distance from stack.hi, which copystack preserves.
 *
 * A runtime entry may use only RTCALL (512) bytes of that band, and the
 * panic path is longer: a map lookup that finds an uncomparable key is
 * eight runtime frames deep when it reaches gopanic, and what gopanic then
 * calls — gl code — assumes a checked stack pointer, as any callee of a gl
 * function does.  So the path checks its stack as a gl prologue does, with
 * RT_STACKCHECK (rt.h): gopanic at its entry for what it calls below it
 * (PANICSTACK), and every function that calls gl code (calldefer,
 * gl_rundefers, preprintpanics) just before the call.  A check that fails
 * grows the stack by copying (gl_morestackneed), and the frames above are
 * moved as they would be by the gl code about to run: the callers of
 * gopanic (the panic helpers, map.c, alg.c, chan.c ...) are never resumed
 * if nothing recovers, and if something does, they return at once to
 * generated code without touching their arguments (gl.h: every panicking
 * runtime call returns with g->unwinding set), which holds already because
 * the deferred gl code may have moved the stack; the pointer parameters of
 * the checking functions themselves are fixed (GL_FIXPARAM).  Checked
 * functions are where testdata/stackusage.py stops counting an entry's chain.
 *
 * recover.  Go's rule is that recover stops a panic only when called
 * directly by the deferred function the panic is running.  calldefer
 * records its own frame pointer, as a distance from stack.hi, in
 * g->defercallOff; gl_recover(g, callerbp) compares it with the frame
 * pointer saved at callerbp (the caller of the deferred function must be
 * calldefer itself), or further up past the gldefer thunk of `defer
 * f(args)` and glc's wrappers (`defer i.M()`, a method value).  Deferred
 * calls run at a normal return (gl_rundefers) do not go through calldefer,
 * so a recover there finds a frame pointer that does not match, as in Go.
 * `defer recover()` in F is F's own recover, made when F returns: the
 * thunk gets F's caller, found at the defer (gl_recoverframe), and stops
 * the panic only if that is the calldefer running F (not the one running
 * the thunk itself).
 */
#define _GNU_SOURCE
#include "rt.h"

#include <signal.h>
#include <stdlib.h>

/* ---- run-time types ---- */

/* A panic record: the panic value's data word (its type word is a static
 * descriptor) and the earlier panic. */
GL_RTTYPE(gltype_panic, GlPanic, "runtime._panic", GL_PTRWORD(GlPanic, link) | GL_PTRWORD(GlPanic, arg.data));

/* A defer record: the closure to call and the next record.  frame is a
 * stack address (the deferring function's data frame), not a heap one. */
GL_RTTYPE(gltype_defer, GlDefer, "runtime._defer", GL_PTRWORD(GlDefer, link) | GL_PTRWORD(GlDefer, fn));

static const uint8_t ptrmask1[] = {1};
static const uint8_t ptrmask2[] = {3};

/* string, for panic values the runtime makes: the results of Error() and
 * String() of a dying panic's value. */
const GlType gltype_rtstring = {
	.size = 16, .ptrdata = 8, .kind = GL_KIND_STRING, .align = 8, .gcdata = ptrmask1,
	.str = {(const uint8_t *)"string", 6}, .equal = gl_strequal, .hashfn = gl_strhash,
};

/* interface {}, the static type of the operand of an assertion from an
 * empty interface, for its error message. */
const GlType gltype_eface = {
	.size = 16, .ptrdata = 16, .kind = GL_KIND_INTERFACE, .align = 8, .gcdata = ptrmask2,
	.str = {(const uint8_t *)"interface {}", 12}, .equal = gl_efaceequal, .hashfn = gl_efacehash,
};

/* Method types: getitab compares them by their type string. */
static const GlType functype_string = {
	.size = 8, .ptrdata = 8, .kind = GL_KIND_FUNC, .align = 8, .tflag = GL_TFLAG_DIRECTIFACE,
	.gcdata = ptrmask1, .str = {(const uint8_t *)"func() string", 13},
};
static const GlType functype_void = {
	.size = 8, .ptrdata = 8, .kind = GL_KIND_FUNC, .align = 8, .tflag = GL_TFLAG_DIRECTIFACE,
	.gcdata = ptrmask1, .str = {(const uint8_t *)"func()", 6},
};

/* runtime.Error values: the message, a GlString, boxed in the heap.
 * Error() returns it; RuntimeError() marks the type as runtime.Error. */
static GlString rterror_Error(G *g, void *data) {
	(void)g;
	return *(const GlString *)data;
}
static void rterror_RuntimeError(G *g, void *data) {
	(void)g;
	(void)data;
}
static const GlMethod rterror_methods[] = {
	{{(const uint8_t *)"Error", 5}, &functype_string, (void (*)(void))rterror_Error},
	{{(const uint8_t *)"RuntimeError", 12}, &functype_void, (void (*)(void))rterror_RuntimeError},
};
const GlType gltype_rterror = {
	.size = 16, .ptrdata = 8, .kind = GL_KIND_STRING, .align = 8, .tflag = GL_TFLAG_NAMED,
	.gcdata = ptrmask1, .str = {(const uint8_t *)"runtime.Error", 13},
	.equal = gl_strequal, .hashfn = gl_strhash, .methods = rterror_methods, .nmethods = 2,
};

/* *runtime.TypeAssertionError: a pointer (stored directly in the
 * interface) to a heap struct holding the message. */
static const GlType gltype_typeassertionerror = {
	.size = 16, .ptrdata = 8, .kind = GL_KIND_STRUCT, .align = 8, .tflag = GL_TFLAG_NAMED,
	.gcdata = ptrmask1, .str = {(const uint8_t *)"runtime.TypeAssertionError", 26},
};
static const GlType gltype_ptrtypeassertionerror = {
	.size = 8, .ptrdata = 8, .kind = GL_KIND_POINTER, .align = 8,
	.tflag = GL_TFLAG_DIRECTIFACE | GL_TFLAG_REGMEM, .gcdata = ptrmask1,
	.str = {(const uint8_t *)"*runtime.TypeAssertionError", 27},
	.equal = gl_memequal, .hashfn = gl_memhash, .elem = &gltype_typeassertionerror,
	.methods = rterror_methods, .nmethods = 2,
};

/* ---- building messages in the heap (no buffers on the goroutine stack) */

static char *appendstr(char *w, const char *s) {
	while (*s)
		*w++ = *s++;
	return w;
}

static char *appendgs(char *w, GlString s) {
	memcpy(w, s.ptr, (size_t)s.len);
	return w + s.len;
}

static char *appenduint(char *w, uint64_t v) {
	int n = 1;
	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	for (int i = n - 1; i >= 0; i--, v /= 10)
		w[i] = (char)('0' + v % 10);
	return w + n;
}

static char *appendint(char *w, int64_t v) {
	if (v < 0) {
		*w++ = '-';
		return appenduint(w, -(uint64_t)v);
	}
	return appenduint(w, (uint64_t)v);
}

/* ---- the panic protocol ---- */

static void fatalpanic(G *g) GL_NORETURN;

/* What a deferred call of a nil func value runs: it panics, as calling a
 * nil func does (Go: when the deferred call runs, not at the defer).  A
 * closure called like the gl code it stands for, so that a nested panic is
 * entered from "gl code" with gl code's budget, as the panic of any
 * deferred call is (gopanic is not re-entered from its own frames). */
static void nilfuncpanic(G *g, GlFunc *self) {
	(void)self;
	gl_panicnil(g);
}
static const GlFunc nilfunc = {(void (*)(void))nilfuncpanic};

/* Call a deferred function for a panic (or Goexit), recording where its
 * caller's frame is, for gl_recover. */
static GL_NOINLINE void calldefer(G *g, GlFunc *fn) {
	RT_STACKCHECK(g, 0, GL_FIXPARAM(g, fn)); /* fn may be a closure in a frame */
	if (GL_UNLIKELY(fn == NULL))
		fn = (GlFunc *)&nilfunc;
	uintptr_t saved = g->defercallOff; /* an outer panic's, restored after */
	g->defercallOff = g->stack.hi - (uintptr_t)__builtin_frame_address(0);
	((void (*)(G *, GlFunc *))fn->fn)(g, fn);
	g->defercallOff = saved;
}

/* Go's "panic on system stack": runtime code on g0 (or the signal stack)
 * cannot unwind into a goroutine's deferred calls.  Printed on g0, where
 * this runs already (systemstack only calls it). */
static void panicsystemstack_m(void *arg) {
	printlock();
	prints("panic: ");
	printpanicval(*(const GlEface *)arg);
	prints("\n");
	printunlock();
	gl_throw("panic on system stack");
}

static GL_COLD GL_NOINLINE void panicsystemstack(GlEface e) {
	systemstack(panicsystemstack_m, &e);
}

const char gopanic_file[] = __FILE__;
const int gopanic_line = __LINE__ + 4;
/* gopanic lives in its own section so tracebacks can recognise its frames
 * (printed as "panic(...)" between a deferred call and the frame that
 * panicked). */
GL_NOINLINE __attribute__((section("glpanic"))) void gopanic(G *g, GlEface e) {
	if (GL_UNLIKELY(g != g->m->curg))
		panicsystemstack(e);
	RT_STACKCHECK(g, PANICSTACK, GL_FIXPARAM(g, e.data));
	GlPanic *p = mallocgc(sizeof(GlPanic), &gltype_panic, true);
	/* p is in the heap: its pointers are stored with the barrier */
	p->arg.tab = e.tab;
	writebarrierptr(&p->arg.data, e.data);
	writebarrierptr((void **)&p->link, g->_panic);
	g->_panic = p;
	for (GlDefer *d; (d = g->_defer) != NULL;) {
		g->_defer = d->link;
		/* d->frame is a stack address: across the call, keep its
		 * distance from the top of the stack */
		uintptr_t frameoff = g->stack.hi - (uintptr_t)d->frame;
		calldefer(g, d->fn);
		if (g->unwinding) {
			/* A later panic, raised during the call, was recovered by
			 * a frame outside it: that frame's defers came after
			 * ours, so this panic is over too (Go: aborted). */
			p->aborted = true;
			if (g->_panic == p)
				g->_panic = p->link;
			return;
		}
		if (p->recovered) {
			g->_panic = p->link;
			g->unwinding = 1;
			g->unwindTarget = (GlFrame *)(g->stack.hi - frameoff);
			return;
		}
	}
	fatalpanic(g);
}

/* defer fn() in the function whose data frame is frame. */
void gl_deferproc(G *g, GlFrame *frame, GlFunc *fn) {
	uintptr_t frameoff = stackoff(g, frame), fnoff = stackoff(g, fn);
	GlDefer *d = mallocgc(sizeof(GlDefer), &gltype_defer, true); /* may park, and the stack move */
	d->frame = stackptr(g, frame, frameoff);
	/* d may be black (allocated while the collector marks) and this
	 * stack grey: the barrier shades what goes into d, or a closure
	 * held only here could stay white under a marked record */
	writebarrierptr((void **)&d->fn, stackptr(g, fn, fnoff));
	writebarrierptr((void **)&d->link, g->_defer);
	g->_defer = d;
}

/* At a return: run (and pop) the deferred calls of frame, newest first.
 * Returns early if one of them panics and a frame further out recovers
 * (g->unwinding: the caller must look). */
void gl_rundefers(G *g, GlFrame *frame) {
	uintptr_t frameoff = g->stack.hi - (uintptr_t)frame;
	for (GlDefer *d; (d = g->_defer) != NULL && (uintptr_t)d->frame == g->stack.hi - frameoff;) {
		/* before d leaves g->_defer, where copystack adjusts d->fn */
		RT_STACKCHECK(g, 0, );
		g->_defer = d->link;
		GlFunc *fn = d->fn != NULL ? d->fn : (GlFunc *)&nilfunc;
		((void (*)(G *, GlFunc *))fn->fn)(g, fn);
		if (g->unwinding)
			return;
	}
}

static void pctabinit_m(void *arg) {
	(void)arg;
	pctabinit();
}

/* Whether the frame that made a call with return address ra only passes
 * the call on: a gldefer thunk, or a wrapper glc made (a method through an
 * interface or an embedded field, a method value, a func value), whose
 * pc/line record has no name.  Go's recover sees through wrappers too. */
static bool passesthrough(uintptr_t ra) {
	if (ingldefer(ra - 1))
		return true;
	if (!ingltext(ra - 1))
		return false;
	if (GL_UNLIKELY(!pctabready()))
		systemstack(pctabinit_m, NULL); /* it allocates: not on this stack */
	const GlFuncInfo *f = findfunc(ra, NULL);
	return f != NULL && f->name == NULL;
}

/* The frame that called the function whose frame pointer is bp, past any
 * thunks and wrappers, as a distance from stack.hi (0 if the chain leaves
 * the stack): calldefer's (g->defercallOff) when the function is the
 * deferred call a panic is running. */
static uintptr_t deferredby(G *g, uintptr_t bp) {
	uintptr_t lo = g->stack.lo, hi = g->stack.hi;
	/* a short chain: the longest is a func made by reflect.MakeFunc, of a
	 * top-level function, deferred with `defer f()` — the function's func
	 * value wrapper, reflect.callMakeFunc, the made func's code, the
	 * gldefer thunk */
	for (int i = 0; i < 6; i++) {
		uintptr_t parent = *(const uintptr_t *)bp, ra = ((const uintptr_t *)bp)[1];
		if (parent - lo >= hi - lo)
			return 0;
		if (hi - parent == g->defercallOff || !passesthrough(ra))
			return hi - parent;
		bp = parent;
	}
	return 0;
}

/* Whether a recover in the frame deferred by the frame at distance off
 * from stack.hi stops the current panic; marks it recovered if so. */
static bool recoverat(G *g, uintptr_t off) {
	GlPanic *p = g->_panic;
	if (p == NULL || p->recovered || p->goexit || off == 0 || off != g->defercallOff)
		return false;
	p->recovered = true;
	return true;
}

GlEface gl_recover(G *g, uintptr_t callerbp) {
	GlPanic *p = g->_panic;
	if (p == NULL || p->recovered || p->goexit || g->defercallOff == 0)
		return (GlEface){NULL, NULL};
	if (!recoverat(g, deferredby(g, callerbp)))
		return (GlEface){NULL, NULL};
	return p->arg;
}

uintptr_t gl_recoverframe(G *g, uintptr_t callerbp) { return deferredby(g, callerbp); }

void gl_deferredrecover(G *g, uintptr_t off) { (void)recoverat(g, off); }

/* runtime.Goexit: run every deferred call, then end the goroutine.  A
 * panic raised by one of them and recovered further out does not stop
 * Goexit: the frames it would return to are never resumed. */
void gl_goexit(G *g) {
	GlPanic *p = mallocgc(sizeof(GlPanic), &gltype_panic, true);
	p->goexit = true;
	writebarrierptr((void **)&p->link, g->_panic);
	g->_panic = p;
	for (GlDefer *d; (d = g->_defer) != NULL;) {
		g->_defer = d->link;
		calldefer(g, d->fn);
		g->unwinding = 0;
		g->unwindTarget = NULL;
	}
	goexit1();
}

/* ---- run-time errors ---- */

/* panic(runtime.Error(msg)); msg lives as long as the panic (static or
 * heap). */
void gl_panicstring(G *g, const char *msg) {
	GlString *s = mallocgc(sizeof(GlString), &gltype_rtstring, true);
	writebarrierptr(&s->ptr, msg); /* in the heap, and msg may be too */
	s->len = (int64_t)strlen(msg);
	gopanic(g, (GlEface){&gltype_rterror, s});
}

/* Go's boundsErrorCode. */
enum {
	GL_BOUNDS_INDEX,
	GL_BOUNDS_SLICE_ALEN,
	GL_BOUNDS_SLICE_ACAP,
	GL_BOUNDS_SLICE_B,
	GL_BOUNDS_SLICE3_ALEN,
	GL_BOUNDS_SLICE3_ACAP,
	GL_BOUNDS_SLICE3_B,
	GL_BOUNDS_SLICE3_C,
	GL_BOUNDS_CONVERT,
};

/* Go's boundsErrorFmts and boundsNegErrorFmts, indexed by boundsErrorCode. */
static const char *const boundsfmt[] = {
	"index out of range [%x] with length %y",
	"slice bounds out of range [:%x] with length %y",
	"slice bounds out of range [:%x] with capacity %y",
	"slice bounds out of range [%x:%y]",
	"slice bounds out of range [::%x] with length %y",
	"slice bounds out of range [::%x] with capacity %y",
	"slice bounds out of range [:%x:%y]",
	"slice bounds out of range [%x:%y:]",
	"cannot convert slice with length %y to pointer to array with length %x",
};
static const char *const boundsnegfmt[] = {
	"index out of range [%x]",
	"slice bounds out of range [:%x]",
	"slice bounds out of range [:%x]",
	"slice bounds out of range [%x:]",
	"slice bounds out of range [::%x]",
	"slice bounds out of range [::%x]",
	"slice bounds out of range [:%x:]",
	"slice bounds out of range [%x::]",
	"cannot convert slice with length %y to pointer to array with length %x",
};

static GL_NOINLINE void panicbounds(G *g, int code, int64_t x, int64_t y) {
	if (code < 0 || code > GL_BOUNDS_CONVERT)
		code = GL_BOUNDS_INDEX;
	const char *f = x < 0 ? boundsnegfmt[code] : boundsfmt[code];
	/* the longest message is under 100 bytes with two 20-digit numbers */
	char *msg = mallocgc(128, NULL, false), *w = msg;
	w = appendstr(w, "runtime error: ");
	for (; *f; f++) {
		if (*f != '%') {
			*w++ = *f;
			continue;
		}
		f++;
		w = appendint(w, *f == 'x' ? x : y);
	}
	*w = 0;
	gl_panicstring(g, msg);
}

void gl_panicindex(G *g, int64_t i, int64_t len) {
	panicbounds(g, GL_BOUNDS_INDEX, i, len);
}

/* (*[n]T)(s) with len(s) < n */
void gl_panicsliceconvert(G *g, int64_t n, int64_t len) {
	panicbounds(g, GL_BOUNDS_CONVERT, n, len);
}

/* gl.h's GL_SLICE_* encoding → Go's boundsErrorCode and its (x, y). */
void gl_panicslice(G *g, int64_t lo, int64_t hi, int64_t cap, int which) {
	switch (which) {
	case GL_SLICE_ALEN: panicbounds(g, GL_BOUNDS_SLICE_ALEN, hi, cap); break;
	case GL_SLICE_ACAP: panicbounds(g, GL_BOUNDS_SLICE_ACAP, hi, cap); break;
	case GL_SLICE_B: panicbounds(g, GL_BOUNDS_SLICE_B, lo, hi); break;
	case GL_SLICE_3ALEN: panicbounds(g, GL_BOUNDS_SLICE3_ACAP, hi, cap); break;
	case GL_SLICE_3B: panicbounds(g, GL_BOUNDS_SLICE3_B, hi, cap); break;
	case GL_SLICE_3C: panicbounds(g, GL_BOUNDS_SLICE3_C, lo, hi); break;
	default: panicbounds(g, GL_BOUNDS_SLICE_B, lo, hi); break;
	}
}

void gl_panicdivide(G *g) {
	gl_panicstring(g, "runtime error: integer divide by zero");
}

void gl_panicshift(G *g) {
	gl_panicstring(g, "runtime error: negative shift amount");
}

static const char nilmsg[] = "runtime error: invalid memory address or nil pointer dereference";

/* A nil dereference at pc (addr: the address used).  Go's comes from a
 * SIGSEGV and prints a "[signal SIGSEGV ...]" line; so does ours. */
void gl_panicnilat(G *g, uintptr_t pc, uintptr_t addr) {
	M *mp = getm();
	mp->sig = SIGSEGV;
	mp->sigcode0 = 1; /* SEGV_MAPERR */
	mp->sigcode1 = addr;
	mp->sigpc = pc;
	gl_panicstring(g, nilmsg);
}

GL_NOINLINE void gl_panicnil(G *g) {
	gl_panicnilat(g, (uintptr_t)__builtin_return_address(0), 0);
}

void gl_panicunreachable(G *g) {
	(void)g;
	gl_throw("reached code glc marked unreachable");
}

/* Go's TypeAssertionError.Error(), for x.(want) where x's dynamic type is
 * have (NULL: x is nil) and its static type iface (NULL: "interface"). */
void gl_panicassert(G *g, const GlType *have, const GlType *want, const GlType *iface) {
	static const char pre[] = "interface conversion: ";
	GlString inter = iface ? iface->str : (GlString){(const uint8_t *)"interface", 9};
	GlString missing = {NULL, 0};
	if (have != NULL && want->kind == GL_KIND_INTERFACE)
		missing = missingmethod(want, have);
	uint64_t n = sizeof pre + inter.len + want->str.len + (have ? have->str.len : 0) + missing.len + 64;
	char *msg = mallocgc(n, NULL, false), *w = msg;
	w = appendstr(w, pre);
	if (have == NULL) {
		w = appendgs(appendstr(appendgs(w, inter), " is nil, not "), want->str);
	} else if (missing.len != 0) {
		w = appendgs(appendstr(appendgs(w, have->str), " is not "), want->str);
		w = appendgs(appendstr(w, ": missing method "), missing);
	} else {
		w = appendgs(appendstr(appendgs(w, inter), " is "), have->str);
		w = appendgs(appendstr(w, ", not "), want->str);
		if (eqstring(have->str, want->str))
			w = appendstr(w, " (types from different scopes)");
	}
	GlString *e = mallocgc(sizeof(GlString), &gltype_rtstring, true);
	writebarrierptr(&e->ptr, msg);
	e->len = w - msg;
	gopanic(g, (GlEface){&gltype_ptrtypeassertionerror, e});
}

/* ---- dying ---- */

/* The method name of t with type func() string, or NULL. */
static const GlMethod *stringmethod(const GlType *t, const char *name, int64_t len) {
	for (int32_t i = 0; i < t->nmethods; i++) {
		const GlMethod *m = &t->methods[i];
		if (m->name.len == len && memcmp(m->name.ptr, name, (size_t)len) == 0 &&
		    eqstring(m->mtyp->str, functype_string.str))
			return m;
	}
	return NULL;
}

/* Go's preprintpanics: replace each value that is an error or a Stringer
 * by the string its method returns.  The methods are gl code, so this runs
 * on the goroutine stack, before fatalpanic switches to g0. */
static GL_NOINLINE void preprintpanics(G *g) {
	for (GlPanic *p = g->_panic; p != NULL; p = p->link) {
		const GlType *t = p->arg.tab;
		if (t == NULL || t->nmethods == 0)
			continue;
		const GlMethod *m = stringmethod(t, "Error", 5);
		if (m == NULL)
			m = stringmethod(t, "String", 6);
		if (m == NULL)
			continue;
		RT_STACKCHECK(g, 0, );
		GlString s = ((GlString(*)(G *, void *))m->ifn)(g, p->arg.data);
		GlString *box = mallocgc(sizeof(GlString), &gltype_rtstring, true);
		/* field by field: an address of s, taken here, would be
		 * computed once at entry by gcc, before the call moved the
		 * stack (DESIGN.md S5) */
		box->len = s.len;
		writebarrierptr(&box->ptr, s.ptr);
		p->arg.tab = &gltype_rtstring;
		writebarrierptr(&p->arg.data, box);
	}
}

/* Go's printpanicval / printanycustomtype. */
void printpanicval(GlEface e) {
	const GlType *t = e.tab;
	if (t == NULL) {
		prints("nil");
		return;
	}
	const void *v = (t->tflag & GL_TFLAG_DIRECTIFACE) ? (const void *)&e.data : e.data;
	/* predeclared types print their value; defined types as T(value) */
	bool custom = (t->tflag & GL_TFLAG_NAMED) && memchr(t->str.ptr, '.', (size_t)t->str.len);
	bool basic = t->kind >= GL_KIND_BOOL && t->kind <= GL_KIND_COMPLEX128;
	if (!basic && t->kind != GL_KIND_STRING) {
		prints("(");
		printstring(t->str);
		prints(") ");
		printpointer(e.data);
		return;
	}
	bool paren = custom && t->kind != GL_KIND_COMPLEX64 && t->kind != GL_KIND_COMPLEX128;
	if (custom) {
		printstring(t->str);
		prints(paren ? (t->kind == GL_KIND_STRING ? "(\"" : "(") : "");
	}
	switch (t->kind) {
	case GL_KIND_BOOL: printbool(*(const bool *)v); break;
	case GL_KIND_INT: printint(*(const int64_t *)v); break;
	case GL_KIND_INT8: printint(*(const int8_t *)v); break;
	case GL_KIND_INT16: printint(*(const int16_t *)v); break;
	case GL_KIND_INT32: printint(*(const int32_t *)v); break;
	case GL_KIND_INT64: printint(*(const int64_t *)v); break;
	case GL_KIND_UINT: printuint(*(const uint64_t *)v); break;
	case GL_KIND_UINT8: printuint(*(const uint8_t *)v); break;
	case GL_KIND_UINT16: printuint(*(const uint16_t *)v); break;
	case GL_KIND_UINT32: printuint(*(const uint32_t *)v); break;
	case GL_KIND_UINT64: printuint(*(const uint64_t *)v); break;
	case GL_KIND_UINTPTR: printuint(*(const uint64_t *)v); break;
	case GL_KIND_FLOAT32: printfloat(*(const float *)v); break;
	case GL_KIND_FLOAT64: printfloat(*(const double *)v); break;
	case GL_KIND_COMPLEX64: {
		const float *c = v;
		printcomplex((GlComplex128){c[0], c[1]});
		break;
	}
	case GL_KIND_COMPLEX128: printcomplex(*(const GlComplex128 *)v); break;
	case GL_KIND_STRING: printstring(*(const GlString *)v); break;
	}
	if (paren)
		prints(t->kind == GL_KIND_STRING ? "\")" : ")");
}

/* Go's printpanics: the oldest first, later ones indented. */
static void printpanics(GlPanic *p) {
	if (p->link != NULL) {
		printpanics(p->link);
		if (!p->link->goexit)
			prints("\t");
	}
	if (p->goexit)
		return;
	prints("panic: ");
	printpanicval(p->arg);
	if (p->recovered)
		prints(" [recovered]");
	prints("\n");
}

/* Go's name for a fatal signal, as its crash messages print it. */
const char *signame(uint32_t sig) {
	switch (sig) {
	case SIGSEGV: return "SIGSEGV: segmentation violation";
	case SIGBUS: return "SIGBUS: bus error";
	case SIGFPE: return "SIGFPE: floating-point exception";
	case SIGILL: return "SIGILL: illegal instruction";
	}
	return "signal";
}

/* On g0: the panic messages, the traceback, exit 2. */
static void fatalpanic_m(void *arg) {
	G *gp = arg;
	M *mp = getm();
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);
	mp->dying = 1;
	printlock();
	printpanics(gp->_panic);
	if (mp->sig != 0) {
		prints("[signal ");
		prints(signame(mp->sig));
		prints(" code=");
		printhex(mp->sigcode0);
		prints(" addr=");
		printhex(mp->sigcode1);
		prints(" pc=");
		printhex(mp->sigpc);
		prints("]\n");
	}
	dumptraceback(gp);
	printunlock();
	if (crash) {
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	exit(2);
}

static GL_NOINLINE void fatalpanic(G *g) {
	if (getm()->preprinting)
		gl_throw("panic while printing panic value");
	getm()->preprinting = 1;
	preprintpanics(g);
	systemstack(fatalpanic_m, g);
	__builtin_unreachable();
}

/* On g0 (or the signal stack): "fatal error: msg", every goroutine's
 * traceback, exit 2.  A throw from the runtime's own stack shows that
 * stack first at GLTRACEBACK=system, under "runtime stack:", as Go's: the
 * goroutine's traceback would not reach the C that threw. */
static void throw_m(void *arg) {
	const char *msg = arg;
	M *mp = getm();
	if (mp->dying >= 2) { /* a throw while throwing: say so and stop */
		printlock(); /* its unlock writes what the outer throw had buffered */
		prints("fatal error: ");
		prints(msg);
		prints(" (while dying)\n");
		printunlock();
		sys_exit(2);
	}
	mp->dying = 2;
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);
	printlock();
	prints("fatal error: ");
	prints(msg);
	prints("\n");
	if (mp->throwsystem && level >= 2) {
		prints("\nruntime stack:\n");
		/* from throw_m's caller: its return address, its caller's frame */
		uintptr_t *fp = __builtin_frame_address(0);
		traceback(getg(), fp[1], 0, fp[0]);
	}
	dumptraceback(mp->curg);
	printunlock();
	if (crash) {
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	exit(2);
}

/* A fatal error before the runtime exists: no M, no traceback, and no
 * print lock -- three raw writes, from a leaf, so that a throw's deepest
 * path stays in the stack band of the runtime calls that can throw. */
static GL_NOINLINE GL_NORETURN void throwearly(const char *msg) {
	static const char pre[] = "fatal error: ";
	long n = 0;
	while (msg[n] != 0)
		n++;
	rawsyscall6(SYS_write_, 2, (long)pre, (long)sizeof pre - 1, 0, 0, 0);
	rawsyscall6(SYS_write_, 2, (long)msg, n, 0, 0, 0);
	rawsyscall6(SYS_write_, 2, (long)"\n", 1, 0, 0, 0);
	sys_exit(2);
}

/* Go's fatalthrow: what kind of fatal error this is, and where it was
 * raised, go in M fields, not arguments: the frame of gl_throw counts in
 * the stack band of every runtime call that can throw
 * (testdata/stackusage.py).  Inlined: a runtime throw's traceback starts
 * at gl_throw, as Go's at runtime.throw. */
static inline __attribute__((always_inline)) void fatalthrow(const char *msg, int32_t kind) {
	if (tls_g == NULL)
		throwearly(msg);
	M *mp = tls_g->m;
	if (mp->throwing < kind)
		mp->throwing = kind;
	mp->throwsystem = tls_g != mp->curg;
	systemstack(throw_m, (void *)msg);
}

/* A fatal error that is the runtime's fault (Go's throw). */
void gl_throw(const char *msg) {
	fatalthrow(msg, throwTypeRuntime);
	__builtin_unreachable();
}

/* A fatal error that is the program's fault (Go's fatal): a deadlock,
 * racing map writes, an unlock of an unlocked mutex. */
void gl_fatal(const char *msg) {
	fatalthrow(msg, throwTypeUser);
	__builtin_unreachable();
}
