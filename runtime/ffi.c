/*
 * ffi.c — calling C through libffi (//gl:extern; docs/ffi.md).
 *
 * A gl program declares a C function as a body-less function with a
 * directive,
 *
 *	//gl:extern libm.so.6 cos
 *	func cos(x float64) float64
 *
 * and glc writes a wrapper with the gl signature (compiler/emitffi.c) that
 * puts the arguments' addresses in an array and calls gl_ffi_call with a
 * GlFfiFunc describing the C function, and, unless it is variadic, a call
 * stub: a C function that calls it with the declared C types, as cgo's
 * generated C does.  Nothing is resolved at link time:
 * the first call opens the library (dlopen) and looks the symbol up
 * (dlsym), and prepares libffi's description of the call (an ffi_cif);
 * later calls find both in the GlFfiFunc.
 *
 * A call crosses to C as Go's cgocall does:
 *
 *   entersyscall   the P goes to Psyscall: a C call that blocks (sleep, a
 *                  read, a lock) lets sysmon hand the P to another M, so
 *                  the program's other goroutines go on running, on
 *                  GLMAXPROCS=1 too; the goroutine is Gsyscall, stopped
 *                  where the collector and tracebacks can read it
 *   asmcgocall     onto the M's g0 stack (asm_amd64.S): C code has no stack
 *                  checks and no frame pointers, and needs far more stack
 *                  than a goroutine's reserve band (DESIGN.md S7)
 *   the stub       glc's C for this signature puts the arguments in
 *                  registers and calls; a variadic function (printf), or
 *                  any with GLDEBUG=ffilibffi=1, goes through libffi's
 *                  ffi_call, which reads the call's description (the cif)
 *                  and places each argument at run time
 *   exitsyscall    the P back (or another, or wait for one)
 *
 * The arguments, the array of their addresses and the result slot are in
 * a block the wrapper alloca'd on the goroutine stack; libffi reads the
 * arguments from g0 before C runs.  A Gsyscall stack is never moved
 * (stack.c's isShrinkStackSafe), but a callback from C (the last part of
 * this file) runs gl code on it, which may grow it: so everything on the
 * goroutine side finds its records again from stack.hi after the call.
 * The arguments are the call's roots: the collector scans a Gsyscall
 * goroutine's innermost frames, from the frame entersyscall recorded (the
 * wrapper's) up to its first data frame, word by word (preempt.c,
 * syncframe), and the same frames during a callback (g->cgoscanlo/hi), so
 * a pointer the wrapper passed stays alive until the call returns.
 *
 * The codes of GlFfiFunc.sig, one character per value, the result first:
 *	v void (result only)   z bool        p a pointer
 *	b int8   B uint8   h int16   H uint16   i int32   I uint32
 *	l int64  L uint64 (gl's int, uint and uintptr too)
 *	f float32   d float64
 */
#define _GNU_SOURCE /* vasprintf */
#include "rt.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ffi_type *ffitype(char code) {
	switch (code) {
	case 'v': return &ffi_type_void;
	case 'z': return &ffi_type_uint8;
	case 'b': return &ffi_type_sint8;
	case 'B': return &ffi_type_uint8;
	case 'h': return &ffi_type_sint16;
	case 'H': return &ffi_type_uint16;
	case 'i': return &ffi_type_sint32;
	case 'I': return &ffi_type_uint32;
	case 'l': return &ffi_type_sint64;
	case 'L': return &ffi_type_uint64;
	case 'f': return &ffi_type_float;
	case 'd': return &ffi_type_double;
	case 'p': return &ffi_type_pointer;
	}
	gl_throw("ffi: bad type code");
}

/* ---- resolving: once per GlFfiFunc, on g0 ----
 *
 * ffilock serializes first calls; dlopen counts the opens of a library,
 * so each GlFfiFunc opens its own and keeps it.  Everything that formats
 * text runs on g0 (snprintf needs more stack than the band below a
 * goroutine's guard); a failure's text is malloc'd there, copied to the
 * gl heap for the panic (panicmsg), and freed on g0 again. */
static mutex ffilock = MUTEX(lockRankFfi);

typedef struct resolveargs {
	GlFfiFunc *f;
	char *err; /* why it failed (C's malloc), or NULL */
} resolveargs;

/* A C string of the printf format, from C's malloc (on g0), or NULL. */
static char *cmsg(const char *format, ...) __attribute__((format(printf, 1, 2)));
static char *cmsg(const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	char *m = NULL;
	if (vasprintf(&m, format, ap) < 0)
		m = NULL;
	va_end(ap);
	return m;
}

/* f's cif, for a call with no variadic part: made once, never freed */
static char *prepcif(GlFfiFunc *f) {
	size_t n = strlen(f->sig) - 1;
	ffi_cif *cif = malloc(sizeof *cif + (n + 1) * sizeof(ffi_type *));
	if (cif == NULL)
		return cmsg("ffi: cannot call %s: out of C memory", f->name);
	ffi_type **at = (ffi_type **)(cif + 1);
	for (size_t i = 0; i < n; i++)
		at[i] = ffitype(f->sig[i + 1]);
	if (ffi_prep_cif(cif, FFI_DEFAULT_ABI, (unsigned)n, ffitype(f->sig[0]), at) != FFI_OK) {
		free(cif);
		return cmsg("ffi: cannot call %s: libffi cannot describe the call", f->name);
	}
	f->cif = cif;
	return NULL;
}

static void resolve_m(void *arg) {
	resolveargs *a = arg;
	GlFfiFunc *f = a->f;
	lock(&ffilock);
	if (__atomic_load_n(&f->fn, __ATOMIC_ACQUIRE) != NULL) {
		unlock(&ffilock);
		return;
	}
	void *h = RTLD_DEFAULT;
	if (f->lib != NULL && (h = dlopen(f->lib, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		const char *e = dlerror();
		a->err = cmsg("ffi: cannot call %s: %s", f->name, e ? e : "cannot open the library");
		unlock(&ffilock);
		return;
	}
	dlerror();
	void *fn = dlsym(h, f->sym);
	if (fn == NULL) {
		/* not dlerror's text: it starts with the file's full path,
		 * which says less than the name the program gave */
		if (f->lib == NULL)
			a->err = cmsg("ffi: cannot call %s: undefined symbol %s (in the program and the libraries it links)",
				      f->name, f->sym);
		else
			a->err = cmsg("ffi: cannot call %s: undefined symbol %s in %s", f->name, f->sym, f->lib);
		unlock(&ffilock);
		return;
	}
	if (!f->variadic)
		a->err = prepcif(f);
	if (a->err == NULL)
		__atomic_store_n(&f->fn, fn, __ATOMIC_RELEASE);
	unlock(&ffilock);
}

static void free_m(void *p) { free(p); }

/* Panic with the text m made on g0: a runtime.Error, as a user
 * would look it up (the loader's words name the library or the symbol). */
static GL_NOINLINE void panicmsg(G *g, char *m) {
	if (m == NULL) {
		gl_panicstring(g, "ffi: out of C memory for a message");
		return;
	}
	size_t n = strlen(m);
	char *msg = mallocgc(n + 1, NULL, false);
	memcpy(msg, m, n + 1);
	systemstack(free_m, m);
	gl_panicstring(g, msg);
}

/* The first call of f: its function, or NULL after a panic. */
static GL_NOINLINE void *resolve(G *g, GlFfiFunc *f) {
	resolveargs ra = {f, NULL};
	systemstack(resolve_m, &ra);
	void *fn = __atomic_load_n(&f->fn, __ATOMIC_ACQUIRE);
	if (fn == NULL)
		panicmsg(g, ra.err);
	return fn;
}

/* ---- the call ---- */

/* What the g0 side of a call needs and leaves: in gl_ffi_call's frame on
 * the goroutine stack.  A callback (below) runs gl code on that stack
 * while C runs, and the stack may move then: so the g0 side finds this
 * record again after the C function returns (cinvoke), as cgo's C
 * code does with _cgo_topofstack, and what libffi writes at the end of the
 * call (the result) goes to g0's stack first.  The arguments are read
 * before C runs, so their addresses need no care. */
typedef struct callargs {
	GlFfiFunc *f;
	void *fn;
	void *const *args;
	const GlSlice *varargs;
	uint64_t ret[2]; /* at least an ffi_arg, for small integer results */
	int32_t err;     /* errno after the call */
	bool failed;     /* variadic: not called, for the reason in msg */
	char *msg;       /* C's malloc */
} callargs;

/* The code of the value in a variadic argument after C's default argument
 * promotions (small integers to int, float to double), or 0 if C cannot
 * take it; *v is set to its value. */
static char varcode(const GlIface *x, uint64_t *v) {
	const GlType *t = x->tab;
	if (t == NULL)
		return 0;
	/* cgo's rule: C may have a pointer to gl memory, not to gl pointers */
	if (t->kind == GL_KIND_POINTER && t->elem != NULL && t->elem->ptrdata != 0)
		return 0;
	if (t->tflag & GL_TFLAG_DIRECTIFACE) {
		if (t->kind != GL_KIND_POINTER && t->kind != GL_KIND_UNSAFEPOINTER)
			return 0;
		*v = (uint64_t)(uintptr_t)x->data;
		return 'p';
	}
	const void *p = x->data;
	switch (t->kind) {
	case GL_KIND_BOOL: *v = (uint64_t)(int64_t)(int32_t) * (const uint8_t *)p; return 'i';
	case GL_KIND_INT8: *v = (uint64_t)(int64_t)(int32_t) * (const int8_t *)p; return 'i';
	case GL_KIND_UINT8: *v = (uint64_t)(int64_t)(int32_t) * (const uint8_t *)p; return 'i';
	case GL_KIND_INT16: *v = (uint64_t)(int64_t)(int32_t) * (const int16_t *)p; return 'i';
	case GL_KIND_UINT16: *v = (uint64_t)(int64_t)(int32_t) * (const uint16_t *)p; return 'i';
	case GL_KIND_INT32: *v = (uint64_t)(int64_t) * (const int32_t *)p; return 'i';
	case GL_KIND_UINT32: *v = (uint64_t) * (const uint32_t *)p; return 'I';
	case GL_KIND_INT:
	case GL_KIND_INT64: *v = (uint64_t) * (const int64_t *)p; return 'l';
	case GL_KIND_UINT:
	case GL_KIND_UINT64:
	case GL_KIND_UINTPTR: *v = *(const uint64_t *)p; return 'L';
	case GL_KIND_FLOAT32: {
		double d = *(const float *)p;
		memcpy(v, &d, 8);
		return 'd';
	}
	case GL_KIND_FLOAT64: memcpy(v, p, 8); return 'd';
	case GL_KIND_POINTER:
	case GL_KIND_UNSAFEPOINTER: memcpy(v, p, 8); return 'p';
	}
	return 0;
}

/* On g0: why variadic argument i, x, cannot go to C. */
static void badvararg(callargs *c, const GlIface *x, size_t i) {
	const GlType *t = x->tab;
	c->failed = true;
	if (t == NULL)
		c->msg = cmsg("ffi: argument %zu of %s's ... is nil: C cannot take it", i, c->f->name);
	else
		c->msg = cmsg("ffi: argument %zu of %s's ... has type %.*s: C cannot take it", i, c->f->name,
			      (int)t->str.len, (const char *)t->str.ptr);
}

static inline void cinvoke(callargs *c, ffi_cif *cif, void **av);

/* A variadic call: the cif is made for this call's argument types (libffi's
 * ffi_prep_cif_var), on g0's stack. */
static void callvar(callargs *c) {
	GlFfiFunc *f = c->f;
	size_t nfixed = strlen(f->sig) - 1, nvar = (size_t)c->varargs->len, n = nfixed + nvar;
	ffi_type *at[n + 1];
	void *av[n + 1];
	uint64_t slot[nvar + 1];
	const GlIface *va = c->varargs->ptr;
	for (size_t i = 0; i < nfixed; i++) {
		at[i] = ffitype(f->sig[i + 1]);
		av[i] = c->args[i];
	}
	for (size_t i = 0; i < nvar; i++) {
		char code = varcode(&va[i], &slot[i]);
		if (code == 0) {
			badvararg(c, &va[i], i);
			return;
		}
		at[nfixed + i] = ffitype(code);
		av[nfixed + i] = &slot[i];
	}
	ffi_cif cif;
	if (ffi_prep_cif_var(&cif, FFI_DEFAULT_ABI, (unsigned)nfixed, (unsigned)n, ffitype(f->sig[0]), at) != FFI_OK) {
		c->failed = true;
		c->msg = cmsg("ffi: cannot call %s: libffi cannot describe the call", f->name);
		return;
	}
	cinvoke(c, &cif, av);
}

/* On g0: the C function, with c's arguments.  errno is cleared first, as
 * cgo does, so that what ffi.Errno reports is this call's.  mp->incgo
 * says a callback may come (callback_m). */
static inline __attribute__((always_inline)) void cinvoke(callargs *c, ffi_cif *cif, void **av) {
	M *mp = getm();
	G *gp = mp->curg;
	uintptr_t hi = gp->stack.hi;
	uint64_t ret[2];
	mp->incgo++;
	errno = 0;
	if (c->f->stub != NULL && !gl_debug.ffilibffi)
		c->f->stub(c->fn, av, ret); /* glc's, for this signature */
	else
		ffi_call(cif, FFI_FN(c->fn), ret, av);
	int32_t err = errno;
	mp->incgo--;
	if (GL_UNLIKELY(gp->stack.hi != hi)) /* a callback moved the stack */
		c = (callargs *)((uintptr_t)c + (gp->stack.hi - hi));
	c->err = err;
	c->ret[0] = ret[0];
	c->ret[1] = ret[1];
}

static void call_m(void *arg) {
	callargs *c = arg;
	if (c->f->variadic)
		callvar(c);
	else
		cinvoke(c, c->f->cif, (void **)c->args);
}

/* The bytes of a result of this code: libffi widens integer results to a
 * full register (ffi_arg), the wrapper's slot is the gl type's size. */
static size_t codesize(char code) {
	switch (code) {
	case 'v': return 0;
	case 'z': case 'b': case 'B': return 1;
	case 'h': case 'H': return 2;
	case 'i': case 'I': case 'f': return 4;
	}
	return 8;
}

/* noinline: ENTERSYSCALL records the caller's frame, the wrapper's */
GL_NOINLINE void gl_ffi_call(G *g, GlFfiFunc *f, void *ret, void *const *args, const GlSlice *varargs) {
	void *fn = __atomic_load_n(&f->fn, __ATOMIC_ACQUIRE);
	if (GL_UNLIKELY(fn == NULL) && (fn = resolve(g, f)) == NULL)
		return;
	/* a callback may move the stack: ret and c are found again from
	 * their distance to its top (the wrapper re-derives its own) */
	uintptr_t retoff = g->stack.hi - (uintptr_t)ret;
	callargs c = {f, fn, args, varargs, {0, 0}, 0, false, NULL};
	uintptr_t coff = g->stack.hi - (uintptr_t)&c;
	ENTERSYSCALL();
	asmcgocall(call_m, &c);
	exitsyscall();
	callargs *cp = (callargs *)(g->stack.hi - coff);
	if (GL_UNLIKELY(cp->failed)) {
		panicmsg(g, cp->msg);
		return;
	}
	g->cgoerrno = cp->err;
	size_t n = codesize(f->sig[0]);
	if (n != 0)
		memcpy((void *)(g->stack.hi - retoff), cp->ret, n);
}

/* ffi.errno (stdlib/ffi, whose C prefix is xffi: compiler/emit.c's
 * cprefix keeps gl's names out of libffi's): errno as this goroutine's
 * last C call left it */
int64_t xffi_errno(G *g) { return g->cgoerrno; }

/* ---- callbacks: C calling gl (ffi.Callback) ----
 *
 * ffi.Callback(fn) makes a libffi closure: a little code that C calls as
 * a function pointer, which calls callback_m with the arguments.  C calls
 * it from inside a C call that gl made (qsort calling its comparator), on
 * that call's M and its g0 stack.  The gl function must run on the
 * goroutine that made the C call, on its own stack, with a P, as any gl
 * code: Go's cgocallback path, in three steps.
 *
 *   callback_m     (g0, C) checks where it is called from, and
 *   cgocallback    (asm_amd64.S) switches to the goroutine's stack below
 *                  the C call's frames, keeping g0's C frames safe
 *   cgocallbackg   (goroutine stack) leaves the system call (exitsyscall:
 *                  the P back) with the goroutine locked to this M — if it
 *                  parks, it resumes here, where its C frames are — calls
 *                  fn through its type's call code (reflect's way to call
 *                  any func value), and enters the system call again.
 *
 * The callback may grow the goroutine's stack: what points into it from
 * the C call's side is found again from stack.hi afterwards (callargs,
 * asmcgocall, the wrapper).  While it runs, the collector scans the C
 * call's frames word by word (g->cgoscanlo/hi): the wrapper's arguments
 * are the only holders of what C was passed.
 *
 * A C function calling a callback on a thread gl did not start (Go makes
 * that thread an M, needm) is a fatal error in gl, and so is a panic or
 * runtime.Goexit that would unwind through C's frames: gl does not skip
 * C frames as Go does. */

typedef struct Callback {
	GlFunc *fn;            /* the func value (package ffi keeps it alive) */
	const GlType *ft;      /* its type: ft->call calls it */
	char sig[24];          /* result code, then the parameters' */
	ffi_cif cif;
	ffi_type *at[22];
	ffi_closure *closure;
	void *code;            /* what C calls */
	struct Callback *next; /* callbacks, under ffilock */
} Callback;

static Callback *callbacks;

void cgocallback(G *gp, void (*fn)(G *, void *), void *arg);

/* On g0, where they do not move while the callback may move the
 * goroutine's stack (reflect's call code wants the same of its args,
 * results and scratch). */
typedef struct cbargs {
	Callback *cb;
	void **args;        /* libffi's */
	void *results[1];   /* libffi's result slot */
	uint64_t scratch[8];
} cbargs;

/* On gp's stack, below its C call (cgocallback). */
static void cgocallbackg(G *g, void *arg) {
	cbargs *a = arg; /* on g0: it does not move */
	if (g->sched.sp == 0)
		gl_throw("ffi: callback: the frames of its C call are unknown");
	/* where entersyscall left the goroutine's frames, to go back into C
	 * with the same; distances from stack.hi, which may move */
	uintptr_t pc = g->sched.pc, spoff = g->stack.hi - g->sched.sp, bpoff = g->stack.hi - g->sched.bp;
	uintptr_t scanlo = g->cgoscanlo, scanhi = g->cgoscanhi;
	g->cgoscanlo = spoff;
	if (scanhi == 0)
		g->cgoscanhi = bpoff - 16; /* the wrapper's frame record, included */
	lockOSThread();
	exitsyscall();
	RT_STACKCHECK(g, GL_REFLECTCALL_STACK, );
	((void (*)(G *, GlFunc *, void *const *, void *const *, void *))a->cb->ft->call)(g, a->cb->fn, a->args, a->results,
											  a->scratch);
	if (GL_UNLIKELY(g->unwinding))
		gl_fatal("ffi: a panic or runtime.Goexit in a callback from C would unwind C's frames");
	unlockOSThread();
	g->cgoscanlo = scanlo;
	g->cgoscanhi = scanhi;
	entersyscallsched(pc, g->stack.hi - spoff, g->stack.hi - bpoff);
}

/* What libffi's closure calls: on g0 of the M whose C call called back. */
static void callback_m(ffi_cif *cif, void *ret, void **args, void *userdata) {
	(void)cif;
	Callback *cb = userdata;
	G *g0 = getg();
	if (g0 == NULL)
		gl_fatal("ffi: C called a gl callback on a thread gl did not start");
	M *mp = g0->m;
	if (g0 != mp->g0 || mp->incgo == 0 || mp->curg == NULL)
		gl_fatal("ffi: C called a gl callback outside a C call that gl made");
	cbargs a = {cb, args, {ret}, {0}};
	cgocallback(mp->curg, cgocallbackg, &a);
	/* a small integer result fills libffi's register-wide slot */
	switch (cb->sig[0]) {
	case 'z': case 'B': *(ffi_arg *)ret = *(uint8_t *)ret; break;
	case 'b': *(ffi_sarg *)ret = *(int8_t *)ret; break;
	case 'H': *(ffi_arg *)ret = *(uint16_t *)ret; break;
	case 'h': *(ffi_sarg *)ret = *(int16_t *)ret; break;
	case 'I': *(ffi_arg *)ret = *(uint32_t *)ret; break;
	case 'i': *(ffi_sarg *)ret = *(int32_t *)ret; break;
	}
}

/* The signature code of a value of type t, or 0 if C cannot have it (the
 * same rule as glc's fficode, compiler/ffi.c). */
static char typecode(const GlType *t) {
	switch (t->kind) {
	case GL_KIND_BOOL: return 'z';
	case GL_KIND_INT8: return 'b';
	case GL_KIND_UINT8: return 'B';
	case GL_KIND_INT16: return 'h';
	case GL_KIND_UINT16: return 'H';
	case GL_KIND_INT32: return 'i';
	case GL_KIND_UINT32: return 'I';
	case GL_KIND_INT: case GL_KIND_INT64: return 'l';
	case GL_KIND_UINT: case GL_KIND_UINT64: case GL_KIND_UINTPTR: return 'L';
	case GL_KIND_FLOAT32: return 'f';
	case GL_KIND_FLOAT64: return 'd';
	case GL_KIND_UNSAFEPOINTER: return 'p';
	case GL_KIND_POINTER: return t->elem != NULL && t->elem->ptrdata != 0 ? 0 : 'p';
	}
	return 0;
}

typedef struct newcbargs {
	GlFunc *fn;
	const GlType *ft;
	void *code; /* the result, or NULL and */
	char *err;  /* why (C's malloc) */
} newcbargs;

static char *badcallback(const GlType *ft, const char *why) {
	return cmsg("ffi: Callback of a %.*s: %s", (int)ft->str.len, (const char *)ft->str.ptr, why);
}

static void newcallback_m(void *arg) {
	newcbargs *a = arg;
	const GlType *ft = a->ft;
	if (ft->variadic || ft->nout > 1 || ft->nin > 21) {
		a->err = badcallback(ft, ft->variadic ? "C cannot call a variadic gl function"
				     : ft->nout > 1 ? "C takes one result or none"
						    : "too many parameters");
		return;
	}
	Callback *cb = calloc(1, sizeof *cb);
	if (cb == NULL) {
		a->err = cmsg("ffi: Callback: out of C memory");
		return;
	}
	cb->sig[0] = ft->nout == 1 ? typecode(ft->out[0]) : 'v';
	for (int i = 0; i < ft->nin; i++)
		cb->sig[i + 1] = typecode(ft->in[i]);
	for (int i = 0; i <= ft->nin; i++)
		if (cb->sig[i] == 0) {
			const GlType *t = i == 0 ? ft->out[0] : ft->in[i - 1];
			char *why = cmsg("%s %.*s cannot go between gl and C", i == 0 ? "its result's type" : "a parameter's type",
					 (int)t->str.len, (const char *)t->str.ptr);
			a->err = badcallback(ft, why ? why : "a type C cannot have");
			free(why);
			free(cb);
			return;
		}
	for (int i = 0; i < ft->nin; i++)
		cb->at[i] = ffitype(cb->sig[i + 1]);
	cb->fn = a->fn;
	cb->ft = ft;
	cb->closure = ffi_closure_alloc(sizeof(ffi_closure), &cb->code);
	if (cb->closure == NULL || ffi_prep_cif(&cb->cif, FFI_DEFAULT_ABI, (unsigned)ft->nin, ffitype(cb->sig[0]), cb->at) != FFI_OK ||
	    ffi_prep_closure_loc(cb->closure, &cb->cif, callback_m, cb, cb->code) != FFI_OK) {
		if (cb->closure != NULL)
			ffi_closure_free(cb->closure);
		free(cb);
		a->err = badcallback(ft, "libffi cannot make the closure");
		return;
	}
	lock(&ffilock);
	cb->next = callbacks;
	callbacks = cb;
	unlock(&ffilock);
	a->code = cb->code;
}

/* ffi.newCallback (stdlib/ffi): the C function pointer that calls fn, a
 * func value (in an interface, as ffi.Callback takes it). */
void *xffi_newCallback(G *g, GlEface fn) {
	const GlType *ft = fn.tab;
	if (ft == NULL || ft->kind != GL_KIND_FUNC || fn.data == NULL) {
		gl_panicstring(g, "ffi: Callback of something that is not a func (or a nil func)");
		return NULL;
	}
	newcbargs a = {fn.data, ft, NULL, NULL};
	systemstack(newcallback_m, &a);
	if (a.code == NULL)
		panicmsg(g, a.err);
	return a.code;
}

static void freecallback_m(void *arg) {
	void *code = arg;
	lock(&ffilock);
	for (Callback **p = &callbacks; *p != NULL; p = &(*p)->next)
		if ((*p)->code == code) {
			Callback *cb = *p;
			*p = cb->next;
			ffi_closure_free(cb->closure);
			free(cb);
			break;
		}
	unlock(&ffilock);
}

/* ffi.freeCallback (stdlib/ffi): C must not call code again. */
void xffi_freeCallback(G *g, void *code) {
	(void)g;
	systemstack(freecallback_m, code);
}
