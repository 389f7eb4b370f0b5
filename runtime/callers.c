/*
 * callers.c — runtime.Callers, runtime.Caller and runtime.FuncForPC
 * (stdlib/runtime/extern.gl), from the saved-rbp chain and the pc/line
 * records glc emits (traceback.c), as Go's runtime/traceback.go and
 * symtab.go do from Go's pclntab.
 *
 * A pc runtime.Callers stores is a return address into generated code, or
 * one of three made-up pcs standing for the runtime functions Go shows
 * around the program's frames: runtime.main (at the bottom of the main
 * goroutine), runtime.goexit (at the bottom of every goroutine) and
 * runtime.gopanic (a deferred call run by a panic).  Code gcc inlined gets
 * a frame of its own, as Go's inlined calls do: the return address names
 * the inlined function (its pc/line record does), and the next pc stored,
 * the pc of the outer function's record of the call plus one, names the
 * function it was inlined into.  Frames of runtime C, of the thunks of
 * defer and go statements and of the wrappers glc makes are not shown.
 *
 * A pc is looked up as the code before it: the record at or below pc-1,
 * which for a return address is the call's (CallersFrames), and for the
 * pc of an instruction, pc+1 looked up, is the instruction's (FuncForPC).
 *
 * Called from generated code on the goroutine stack (DESIGN.md S7): the
 * entries here only switch to g0 (systemstack), where the lookups run
 * (the first one builds the tables with sysAlloc).  The stack cannot move
 * meanwhile, so the argument blocks live in the entries' C frames.
 */
#include "rt.h"

extern const char __start_glpanic[] __attribute__((weak));
extern const char __stop_glpanic[] __attribute__((weak));
extern const int gopanic_line;
extern const char gopanic_file[];

/* The made-up pcs: the address of a byte of synthpc, plus one. */
enum { synthMain, synthGoexit, synthPanic, nsynth };
static const char synthpc[nsynth];
static const char *const synthname[nsynth] = {"runtime.main", "runtime.goexit", "runtime.gopanic"};
static const char *const synthfile[nsynth] = {"runtime/proc.c", "runtime/proc.c", gopanic_file};

static uintptr_t synth(int k) {
	return (uintptr_t)&synthpc[k] + 1;
}

static bool ingopanic(uintptr_t pc) {
	return pc - (uintptr_t)__start_glpanic < (uintptr_t)__stop_glpanic - (uintptr_t)__start_glpanic;
}

typedef struct callersarg {
	G *gp;
	uintptr_t bp;   /* frame pointer of runtime_callers */
	int64_t skip;
	uintptr_t *pcs;
	int64_t max, n;
} callersarg;

/* Store pc unless it is skipped; false when pcs is full. */
static bool put(callersarg *a, uintptr_t pc) {
	if (a->skip > 0) {
		a->skip--;
		return true;
	}
	if (a->n >= a->max)
		return false;
	a->pcs[a->n++] = pc;
	return true;
}

static void callers_m(void *arg) {
	callersarg *a = arg;
	G *gp = a->gp;
	uintptr_t bp = a->bp;
	for (;;) {
		if (bp - gp->stack.lo >= gp->stack.hi - gp->stack.lo - 16 || (bp & 7) != 0)
			break; /* the end of the chain (0), or a broken one */
		uintptr_t next = ((uintptr_t *)bp)[0];
		uintptr_t pc = ((uintptr_t *)bp)[1];
		if (ingltext(pc - 1)) {
			const GlFuncInfo *f = findfunc(pc, NULL);
			if (f != NULL && f->name != NULL) {
				uintptr_t callrec;
				funcouter(pc, &callrec);
				if (!put(a, pc) || (callrec != 0 && !put(a, callrec + 1)))
					return;
			}
		} else if (ingopanic(pc - 1)) {
			if (!put(a, synth(synthPanic)))
				return;
		}
		if (next != 0 && next <= bp)
			break;
		bp = next;
	}
	if (gp->goid == 1 && !put(a, synth(synthMain)))
		return;
	put(a, synth(synthGoexit));
}

/* runtime.callers(skip int, pcs []uintptr) int: the return addresses of
 * the calling goroutine's frames, skip 0 being the gl function that calls
 * this one, into pcs; how many. */
int64_t runtime_callers(G *g, int64_t skip, const GlSlice *pcs) {
	callersarg a = {g, GL_RBP(), skip < 0 ? 0 : skip, pcs->ptr, pcs->len, 0};
	systemstack(callers_m, &a);
	return a.n;
}

/* On g0: the pcs runtime.Callers would store for gp from its frame
 * record at bp on (skip 0), at most max of them; how many.  For the
 * heap profile (mprof.c), from the G's sched.bp while it is switched to
 * g0. */
int64_t tracebackpcs(G *gp, uintptr_t bp, uintptr_t *pcs, int64_t max) {
	callersarg a = {gp, bp, 0, pcs, max, 0};
	callers_m(&a);
	return a.n;
}

/* stdlib/runtime's funcInfo (glc contract's layout) */
typedef struct runtime_funcInfo funcInfo;

typedef struct funcinfoarg {
	uintptr_t x;
	funcInfo *fi;
	bool ok;
} funcinfoarg;

static GlString cstr(const char *s) {
	return (GlString){(const uint8_t *)s, (int64_t)strlen(s)};
}

static void funcinfo_m(void *arg) {
	funcinfoarg *a = arg;
	funcInfo *fi = a->fi;
	uintptr_t x = a->x;
	for (int k = 0; k < nsynth; k++) {
		if (x == synth(k)) {
			fi->name = cstr(synthname[k]);
			fi->file = cstr(synthfile[k]);
			fi->line = k == synthPanic ? gopanic_line : 0;
			fi->entry = x - 1;
			fi->inlined = false;
			a->ok = true;
			return;
		}
	}
	if (!ingltext(x - 1))
		return;
	/* a function's entry (a func value's code): the record before it
	 * belongs to the function before */
	const GlFuncInfo *e = funcentry(x - 1);
	if (e != NULL && e->name != NULL) {
		fi->name = cstr(e->name);
		fi->file = cstr(e->file);
		fi->line = e->line;
		fi->entry = x - 1;
		fi->inlined = false;
		a->ok = true;
		return;
	}
	int32_t line = 0;
	const GlFuncInfo *f = findfunc(x, &line);
	if (f == NULL || f->name == NULL)
		return;
	uintptr_t callrec;
	const GlFuncInfo *outer = funcouter(x, &callrec);
	fi->name = cstr(f->name);
	fi->file = cstr(f->file);
	fi->line = line;
	fi->entry = (uintptr_t)(outer != NULL ? outer : f)->entry;
	fi->inlined = outer != NULL && outer != f;
	a->ok = true;
}

/* runtime.funcinfo(x uintptr, fi *funcInfo) bool: the function and line
 * of the code before x (see above), or false if x is not in a function
 * gl shows. */
bool runtime_funcinfo(G *g, uintptr_t x, funcInfo *fi) {
	(void)g;
	funcinfoarg a = {x, fi, false};
	systemstack(funcinfo_m, &a);
	return a.ok;
}

static void funcpc_m(void *arg) {
	uintptr_t *pc = arg;
	const GlFuncInfo *f = funcentry(*pc);
	if (f != NULL && f->name == NULL && f->wraps != NULL)
		*pc = (uintptr_t)f->wraps;
}

/* reflect.funcPC(f unsafe.Pointer) uintptr: Value.Pointer of a func, its
 * code, as in Go; for a top-level function's func value (a wrapper glc
 * made) the function's own code, which runtime.FuncForPC names. */
uintptr_t reflect_funcPC(G *g, void *fv) {
	(void)g;
	const GlFunc *f = fv;
	if (f == NULL)
		return 0;
	uintptr_t pc = (uintptr_t)f->fn;
	systemstack(funcpc_m, &pc);
	return pc;
}
