/*
 * ffi.c — calling C through libffi (//gl:extern; docs/ffi.md).
 *
 * A gl program declares a C function as a body-less function with a
 * directive,
 *
 *	//gl:extern libm.so.6 cos
 *	func cos(x float64) float64
 *
 * and glc writes a wrapper with the gl signature (compiler/ffi.c) that
 * puts the arguments' addresses in an array and calls gl_ffi_call with a
 * GlFfiFunc describing the C function.  Nothing is resolved at link time:
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
 *   ffi_call       libffi puts the arguments in registers and calls
 *   exitsyscall    the P back (or another, or wait for one)
 *
 * While C runs, the goroutine's stack stays where it is (a Gsyscall
 * stack is never moved: stack.c's isShrinkStackSafe), so the argument
 * array, the arguments and the result slot, all in the wrapper's C frame
 * on that stack, can be read and written from g0.  They are the call's
 * roots too: the collector scans a Gsyscall goroutine's innermost frames,
 * from the frame entersyscall recorded (the wrapper's) up to its first
 * data frame, word by word (preempt.c, syncframe), so a pointer the
 * wrapper passed stays alive until the call returns.
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

/* asm_amd64.S: fn(arg) on g0's stack, g->sched untouched (Go's asmcgocall) */
void asmcgocall(void (*fn)(void *), void *arg);

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
static mutex ffilock;

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

/* Panic with the text m made on g0: a runtime.Error, as the user
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

/* What the g0 side of a call needs; on the goroutine stack, which does
 * not move meanwhile. */
typedef struct callargs {
	GlFfiFunc *f;
	void *fn;
	void *ret;
	void *const *args;
	const GlSlice *varargs;
	int32_t err;    /* errno after the call */
	bool failed;    /* variadic: not called, for the reason in msg */
	char *msg;      /* C's malloc */
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
	errno = 0;
	ffi_call(&cif, FFI_FN(c->fn), c->ret, av);
	c->err = errno;
}

/* On g0: the C function.  errno is cleared first, as cgo does, so that
 * what ffi.Errno reports is this call's. */
static void call_m(void *arg) {
	callargs *c = arg;
	if (c->f->variadic) {
		callvar(c);
		return;
	}
	errno = 0;
	ffi_call(c->f->cif, FFI_FN(c->fn), c->ret, (void **)c->args);
	c->err = errno;
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
	uint64_t rbuf[2] = {0, 0}; /* at least an ffi_arg, for small integer results */
	callargs c = {f, fn, rbuf, args, varargs, 0, false, NULL};
	ENTERSYSCALL();
	asmcgocall(call_m, &c);
	exitsyscall();
	if (GL_UNLIKELY(c.failed)) {
		panicmsg(g, c.msg);
		return;
	}
	g->cgoerrno = c.err;
	size_t n = codesize(f->sig[0]);
	if (n != 0)
		memcpy(ret, rbuf, n);
}

/* ffi.errno (stdlib/ffi, whose C prefix is xffi: compiler/emit.c's
 * cprefix keeps gl's names out of libffi's): errno as this goroutine's
 * last C call left it */
int64_t xffi_errno(G *g) { return g->cgoerrno; }
