/*
 * traceback.c — stack traces in Go's format, from the saved-rbp chain and
 * the pc/line records glc emits (GL_PCLINE, section glpcln).
 *
 * Every frame of generated code and of the runtime has a frame pointer
 * (DESIGN.md S6): [bp] is the caller's bp, [bp+8] the return address into
 * the caller.  A return address inside gltext names a gl function: the
 * nearest pc/line record below it gives the function and the line of the
 * call.  Frames outside gltext are runtime C and are not shown unless
 * GLTRACEBACK=system; gldefer thunks are never shown.  As in Go, a frame
 * of gopanic that is not the first one shown is printed as "panic(...)":
 * it separates the deferred call a panic is running from the frame that
 * panicked.
 *
 * Runs on g0 or the signal stack (print.c writes with raw system calls).
 * It dereferences only addresses inside the goroutine's stack, so a broken
 * chain ends the trace instead of faulting.
 */
#include "rt.h"

extern const char __start_gltext[] __attribute__((weak));
extern const char __stop_gltext[] __attribute__((weak));
extern const char __start_gldefer[] __attribute__((weak));
extern const char __stop_gldefer[] __attribute__((weak));
extern const GlPcLine __start_glpcln[] __attribute__((weak));
extern const GlPcLine __stop_glpcln[] __attribute__((weak));
/* gopanic's own section (panic.c), to recognise its frames */
extern const GlWbRange __start_glwbunsafe[] __attribute__((weak));
extern const GlWbRange __stop_glwbunsafe[] __attribute__((weak));
extern const char __start_glpanic[] __attribute__((weak));
extern const char __stop_glpanic[] __attribute__((weak));
extern const int gopanic_line;
extern const char gopanic_file[];
void gopanic(G *g, GlEface e);

bool ingltext(uintptr_t pc) {
	return pc - (uintptr_t)__start_gltext < (uintptr_t)__stop_gltext - (uintptr_t)__start_gltext;
}

bool ingldefer(uintptr_t pc) {
	return pc - (uintptr_t)__start_gldefer < (uintptr_t)__stop_gldefer - (uintptr_t)__start_gldefer;
}

static bool ingopanic(uintptr_t pc) {
	return pc - (uintptr_t)__start_glpanic < (uintptr_t)__stop_glpanic - (uintptr_t)__start_glpanic;
}

/* ---- the pc table: glpcln records, absolute and sorted ---- */

/* seq is the record's index in glpcln: the order glc emitted records in,
 * which sorting keeps among records at one pc (below). */
typedef struct pcrec {
	uintptr_t pc;
	const GlFuncInfo *fn;
	int32_t line;
	uint32_t seq;
} pcrec;

static pcrec *pctab;
static int64_t npctab;
static const GlFuncInfo **functab; /* every function with a record, by entry */
static int64_t nfunctab;
static int32_t pctabstate; /* 0 not built, 1 building, 2 ready */

/* The order of the table: by pc, and records at one pc in the order they
 * were emitted.  Several records share a pc when a function is inlined at
 * the start of another (a goroutine's body in glc's wrapper glgoN, for
 * one: about one function in eight under either compiler, by
 * testdata/preemptentry.py's count): the outer function's entry record comes
 * first, then the inlined one's.  funcentryrec and findrec rely on that
 * order, which heapsort alone does not keep. */
static bool pcrecless(const pcrec *a, const pcrec *b) {
	return a->pc < b->pc || (a->pc == b->pc && a->seq < b->seq);
}

/* The end of the ascending run of a[from, n). */
static int64_t runend(const pcrec *a, int64_t from, int64_t n) {
	int64_t i = from + 1;
	while (i < n && !pcrecless(&a[i], &a[i - 1]))
		i++;
	return i;
}

/* Merge the sorted a[lo, mid) and a[mid, hi) into t[lo, hi). */
static void mergeruns(const pcrec *a, pcrec *t, int64_t lo, int64_t mid, int64_t hi) {
	int64_t i = lo, j = mid, k = lo;
	while (i < mid && j < hi)
		t[k++] = pcrecless(&a[j], &a[i]) ? a[j++] : a[i++];
	while (i < mid)
		t[k++] = a[i++];
	while (j < hi)
		t[k++] = a[j++];
}

/* A natural merge sort: the records come in a few long ascending runs
 * (the linker concatenates each object's glpcln in the order of its
 * gltext; fmt's program has 15 runs in 13,243 records), so merging
 * neighbouring runs, pass after pass, sorts them in n log(runs).  The
 * heapsort this replaces spent a tenth of a small program's run in
 * sifting.  The buffer comes from sysAlloc, which a dying program's
 * reserve covers too (tracebackinit). */
static void sortpctab(pcrec *a, int64_t n) {
	if (n < 2 || runend(a, 0, n) == n)
		return;
	pcrec *t = sysAlloc((uint64_t)n * sizeof(pcrec), NULL), *src = a, *dst = t;
	for (;;) {
		int64_t runs = 0;
		for (int64_t lo = 0; lo < n; runs++) {
			int64_t mid = runend(src, lo, n);
			int64_t hi = mid < n ? runend(src, mid, n) : n;
			mergeruns(src, dst, lo, mid, hi);
			lo = hi;
		}
		pcrec *x = src;
		src = dst;
		dst = x;
		if (runs == 1)
			break;
	}
	if (src != a)
		memcpy(a, src, (size_t)n * sizeof(pcrec));
	sysFree(t, (uint64_t)n * sizeof(pcrec), NULL);
}

/* functab: the functions, sorted by entry, each once (for code inlined
 * into another function, the record names the inlined function; the
 * function whose code it is has the greatest entry below the pc). */
static void buildfunctab(void) {
	/* (entry, function) pairs, one per run of records of one function
	 * (a function's records lie together in pc order but where code of
	 * another is inlined into it), sorted by entry as pcrecs are by pc,
	 * then each function once.  Sorting pairs, not pointers to the
	 * functions, keeps the comparisons out of the records: an insertion
	 * sort through fn->entry took a fifth of a small program's run. */
	pcrec *e = sysAlloc((uint64_t)npctab * sizeof(*e), NULL);
	int64_t ne = 0;
	for (int64_t i = 0; i < npctab; i++) {
		const GlFuncInfo *fn = pctab[i].fn;
		if (fn->entry == NULL || (i > 0 && pctab[i - 1].fn == fn) || !ingltext((uintptr_t)fn->entry))
			continue;
		e[ne] = (pcrec){(uintptr_t)fn->entry, fn, 0, (uint32_t)ne};
		ne++;
	}
	sortpctab(e, ne);
	const GlFuncInfo **f = sysAlloc((uint64_t)(ne > 0 ? ne : 1) * sizeof(*f), NULL);
	int64_t n = 0;
	for (int64_t i = 0; i < ne; i++)
		if (n == 0 || f[n - 1] != e[i].fn)
			f[n++] = e[i].fn;
	sysFree(e, (uint64_t)npctab * sizeof(*e), NULL);
	functab = f;
	nfunctab = n;
}

/* ---- the write barrier's unsafe ranges ----
 *
 * Each store glc writes with a barrier records the range of machine code
 * from its check of writeBarrier.enabled to the end of its store (gl.h's
 * GL_WBRANGE, section glwbunsafe): no goroutine may be stopped
 * asynchronously inside one (isAsyncSafePoint, preempt.c).  Built with the
 * pc table, sorted by start.  The ranges never overlap: each is one asm
 * statement, laid out whole. */
typedef struct wbrange {
	uintptr_t start, end;
} wbrange;

static wbrange *wbtab;
static int64_t nwbtab;

/* Shell sort: no allocation (this may run in a dying program), and the
 * records come nearly sorted (each object's in the order of its code). */
static void sortwbtab(wbrange *a, int64_t n) {
	for (int64_t gap = n / 2; gap > 0; gap = gap == 2 ? 1 : gap * 5 / 11) {
		for (int64_t i = gap; i < n; i++) {
			wbrange x = a[i];
			int64_t j = i;
			for (; j >= gap && a[j - gap].start > x.start; j -= gap)
				a[j] = a[j - gap];
			a[j] = x;
		}
	}
}

static void buildwbtab(void) {
	int64_t n = __stop_glwbunsafe - __start_glwbunsafe;
	if (n <= 0)
		return;
	wbrange *t = sysAlloc((uint64_t)n * sizeof(*t), NULL);
	for (int64_t i = 0; i < n; i++) {
		const GlWbRange *r = &__start_glwbunsafe[i];
		t[i].start = (uintptr_t)&r->start + (intptr_t)r->start;
		t[i].end = t[i].start + (uintptr_t)r->len;
	}
	sortwbtab(t, n);
	wbtab = t;
	nwbtab = n;
}

/* Is pc inside a barrier's unsafe range?  Only once pctabready(). */
bool inwbunsafe(uintptr_t pc) {
	int64_t lo = 0, hi = nwbtab; /* the first range starting above pc */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (wbtab[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < wbtab[lo - 1].end;
}

static void buildpctab(void) {
	int32_t s = 0;
	if (__atomic_compare_exchange_n(&pctabstate, &s, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		int64_t n = __stop_glpcln - __start_glpcln;
		pcrec *t = NULL;
		if (n > 0) {
			t = sysAlloc((uint64_t)n * sizeof(pcrec), NULL);
			for (int64_t i = 0; i < n; i++) {
				const GlPcLine *r = &__start_glpcln[i];
				t[i].pc = (uintptr_t)&r->pc + (intptr_t)r->pc;
				t[i].fn = (const GlFuncInfo *)((uintptr_t)&r->fn + (intptr_t)r->fn);
				t[i].line = r->line;
				t[i].seq = (uint32_t)i;
			}
			sortpctab(t, n);
		}
		pctab = t;
		npctab = n;
		if (n > 0)
			buildfunctab();
		buildwbtab();
		__atomic_store_n(&pctabstate, 2, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&pctabstate, __ATOMIC_ACQUIRE) != 2)
		__builtin_ia32_pause();
}

/* At start-up: set memory aside for building the tables, should the first
 * traceback be a fatal error's after mmap has failed (mem_linux.c). */
void tracebackinit(void) {
	uint64_t n = (uint64_t)(__stop_glpcln - __start_glpcln);
	uint64_t nwb = (uint64_t)(__stop_glwbunsafe - __start_glwbunsafe);
	/* the table, sortpctab's buffer, buildfunctab's pairs (and their
	 * buffer) and its result */
	sysReserveForDying(n * (4 * sizeof(pcrec) + sizeof(GlFuncInfo *)) + nwb * sizeof(wbrange) + 6 * PAGESIZE);
}

/* Index of the nearest record strictly below pc (the record is emitted
 * just before the call whose return address pc is), or -1. */
static int64_t findrec(uintptr_t pc) {
	if (__atomic_load_n(&pctabstate, __ATOMIC_ACQUIRE) != 2)
		buildpctab();
	if (!ingltext(pc - 1) || npctab == 0)
		return -1;
	int64_t lo = 0, hi = npctab; /* first record with pc >= the return address */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (pctab[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* The gl function whose record covers the return address pc, and the
 * line of the call.  For code inlined into another function that is the
 * inlined function (whose frame size is what its inlined prologue asks
 * for: what newstack wants).  NULL if pc is not in generated code. */
const GlFuncInfo *findfunc(uintptr_t pc, int32_t *line) {
	int64_t i = findrec(pc);
	if (i < 0)
		return NULL;
	if (line != NULL)
		*line = (int32_t)pctab[i].line;
	return pctab[i].fn;
}

/* The function whose machine code contains pc (the greatest entry below
 * it), or NULL. */
static const GlFuncInfo *funcat(uintptr_t pc) {
	int64_t lo = 0, hi = nfunctab;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)functab[mid]->entry < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? functab[lo - 1] : NULL;
}

/* The function whose code starts at pc, or NULL (builds the tables). */
const GlFuncInfo *funcentry(uintptr_t pc) {
	(void)findrec(pc);
	const GlFuncInfo *f = funcat(pc + 1);
	return f != NULL && (uintptr_t)f->entry == pc ? f : NULL;
}

/* The function whose machine code holds the return address pc (pc - 1 in
 * gltext): the outer one, for code gcc inlined; and in *callrec the pc of
 * the outer function's record of the call that the inlined code at pc is
 * part of (0 if pc is not in inlined code, or the code is inlined into a
 * wrapper glc made, which is not shown).  For runtime.Callers (callers.c),
 * which gives inlined code a frame of its own, as printframe does. */
const GlFuncInfo *funcouter(uintptr_t pc, uintptr_t *callrec) {
	*callrec = 0;
	int64_t i = findrec(pc); /* builds the tables */
	const GlFuncInfo *outer = funcat(pc);
	if (i < 0)
		return outer;
	const GlFuncInfo *f = pctab[i].fn;
	if (outer == NULL)
		return f;
	if (outer == f || outer->name == NULL)
		return outer;
	while (i > 0 && pctab[i].fn != outer && pctab[i].pc > (uintptr_t)outer->entry)
		i--;
	if (pctab[i].fn == outer)
		*callrec = pctab[i].pc;
	return outer;
}

/* For the SIGURG handler (preempt.c), which must not build the tables:
 * preemptM builds them before it sends the first signal. */
bool pctabready(void) {
	return __atomic_load_n(&pctabstate, __ATOMIC_ACQUIRE) == 2;
}

void pctabinit(void) {
	if (!pctabready())
		buildpctab();
}

/* The pc of the entry record (the first GL_PCLINE, which glc emits as
 * the function's first statement, after gcc's prologue) of the gl
 * function whose code contains pc; 0 if there is none.  pc is an exact
 * pc, not a return address. */
uintptr_t funcentryrec(uintptr_t pc) {
	const GlFuncInfo *f = funcat(pc + 1); /* an entry at pc is that function's */
	if (f == NULL)
		return 0;
	int64_t lo = 0, hi = npctab; /* the first record at or after the entry */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (pctab[mid].pc < (uintptr_t)f->entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* records at that pc: the function's own, then those of functions
	 * inlined at its start (sortpctab) — look at them all */
	for (int64_t i = lo; i < npctab && pctab[i].pc == pctab[lo].pc; i++)
		if (pctab[i].fn == f)
			return pctab[i].pc;
	return 0;
}

/* ---- printing ---- */

static const char *const gstatusstrings[] = {
	[Gidle] = "idle",       [Grunnable] = "runnable", [Grunning] = "running",
	[Gsyscall] = "syscall", [Gwaiting] = "waiting",   [5] = "moribund_unused",
	[Gdead] = "dead",       [7] = "enqueue_unused",   [Gcopystack] = "copystack",
	[Gpreempted] = "preempted",
};

static void goroutineheaderstatus(G *gp, uint32_t st, uint32_t reason) {
	const char *s = st < sizeof gstatusstrings / sizeof gstatusstrings[0] && gstatusstrings[st]
				? gstatusstrings[st] : "???";
	if (st == Gwaiting && reason != waitReasonZero)
		s = waitreasonstr(reason);
	prints("goroutine ");
	printint(gp->goid);
	prints(" [");
	prints(s);
	prints("]:\n");
}

void goroutineheader(G *gp) {
	goroutineheaderstatus(gp, gp->atomicstatus, gp->waitreason);
}

/* What a frame with return address pc shows, if anything. */
enum { frameHidden, frameGl, framePanic, frameSystem };

static int frameclass(uintptr_t pc, int32_t level, bool first) {
	if (ingltext(pc - 1))
		return frameGl;
	if (ingldefer(pc - 1))
		return frameHidden;
	if (ingopanic(pc - 1))
		return first && level < 2 ? frameHidden : framePanic;
	return level >= 2 ? frameSystem : frameHidden;
}

/* The i-th panic of gp, newest first: the one whose gopanic frame is the
 * i-th seen walking up from the innermost frame. */
static GlPanic *nthpanic(G *gp, int i) {
	GlPanic *p = gp->_panic;
	while (p != NULL && i-- > 0)
		p = p->link;
	return p;
}

/* Whether the instruction before the return address pc is a call of
 * gl_morestack: the frame is stopped in its prologue, and Go shows such a
 * frame at the line of its func keyword wherever the compiler put the
 * call (at -O2 the slow path is moved past the function's last call). */
static bool inprologue(uintptr_t pc) {
	const uint8_t *p = (const uint8_t *)pc - 5;
	int32_t rel;
	if (p[0] != 0xE8) /* call rel32 */
		return false;
	memcpy(&rel, p + 1, 4);
	return pc + (uintptr_t)(intptr_t)rel == (uintptr_t)gl_morestack;
}

/* f's frame at line.  Go prints a frame's arguments, "main.f(0x1, 0x2)",
 * and "(...)" for a function inlined into another; gl has no record of
 * where arguments are, so it prints "(...)" but for a function that takes
 * none, not inlined: "main.main()", as Go. */
static void printfuncline(const GlFuncInfo *f, int64_t line, bool inlined) {
	prints(f->name);
	prints(f->noargs && !inlined ? "()\n\t" : "(...)\n\t");
	prints(f->file);
	prints(":");
	printint(line);
}

/* A frame of the runtime's C (GLTRACEBACK=system, "runtime stack:"):
 * its function as the symbol table names it, with its source file where
 * the table says (a static function's), and the return address's offset;
 * Go prints the runtime's frames as "runtime.gopark(...)" and a line. */
static void printcframe(uintptr_t pc) {
	const char *name, *file;
	uintptr_t entry;
	if (!cfuncname(pc - 1, &name, &file, &entry)) {
		prints("runtime C frame\n\tpc=");
		printhex(pc);
		prints("\n");
		return;
	}
	prints(name);
	prints("(...)\n\t");
	prints(file != NULL ? file : "?");
	prints(" +");
	printhex(pc - entry);
	prints("\n");
}

static void printframe(G *gp, int cls, uintptr_t pc, int npanic) {
	if (cls == frameGl) {
		int64_t i = findrec(pc);
		if (i < 0) {
			prints("?(...)\n\t?:0 pc=");
			printhex(pc);
			prints("\n");
			return;
		}
		const GlFuncInfo *f = pctab[i].fn, *outer = funcat(pc);
		int64_t line = inprologue(pc) ? f->line : pctab[i].line;
		if (f->name == NULL)
			return; /* a wrapper or thunk glc made: not the program's */
		/* the offset is from the entry of the code's function */
		uintptr_t entry = (uintptr_t)(outer != NULL ? outer : f)->entry;
		/* Code inlined into a wrapper glc made (an outer function with
		 * no name: a go statement's glgoN) shows as the frame it stands
		 * for, as Go, which has no wrapper, shows it ("()" when it takes
		 * no arguments).  Code inlined into a gl function shows as Go
		 * shows an inlined call: the inlined function, then the one it
		 * is in at the line of its call (the nearest record of the
		 * outer function before the inlined code). */
		if (outer != NULL && outer != f && outer->name != NULL) {
			printfuncline(f, line, true);
			prints("\n");
			while (i > 0 && pctab[i].fn != outer && pctab[i].pc > (uintptr_t)outer->entry)
				i--;
			f = outer;
			line = pctab[i].fn == outer ? pctab[i].line : outer->line;
		}
		printfuncline(f, line, false);
		if (pc >= entry && pc - entry < (1u << 24)) {
			prints(" +");
			printhex(pc - entry);
		}
		prints("\n");
	} else if (cls == framePanic) {
		GlPanic *p = nthpanic(gp, npanic);
		prints("panic(");
		if (p != NULL) {
			prints("{");
			printpointer(p->arg.tab);
			prints(", ");
			printpointer(p->arg.data);
			prints("}");
		}
		prints(")\n\t");
		prints(gopanic_file);
		prints(":");
		printint(gopanic_line);
		prints(" +");
		printhex(pc - (uintptr_t)gopanic);
		prints("\n");
	} else {
		printcframe(pc);
	}
}

/* One step up the chain: the return address and frame pointer of the
 * caller of the frame whose frame pointer is *bp.  False at the end (bp 0
 * or outside the stack, or not increasing). */
static bool unwind(G *gp, uintptr_t *pc, uintptr_t *bp) {
	uintptr_t b = *bp;
	if (b - gp->stack.lo >= gp->stack.hi - gp->stack.lo - 16 || (b & 7) != 0)
		return false;
	uintptr_t next = ((uintptr_t *)b)[0];
	*pc = ((uintptr_t *)b)[1];
	*bp = next;
	return next == 0 || next > b;
}

/* Whether the gl function whose code contains pc has no prologue at all
 * (gcc made no frame: a leaf, or a loop that never returns): its entry
 * record is its first instruction, and while it runs rbp is still its
 * caller's and its return address is at rsp. */
static bool noprologue(uintptr_t pc) {
	const GlFuncInfo *f = funcat(pc + 1);
	return f != NULL && funcentryrec(pc) == (uintptr_t)f->entry;
}

/* unwind, and above asyncPreempt's frame, whose "return address" is the
 * exact pc where a goroutine was interrupted (preempt_amd64.S), make it
 * look like one: the lookups take the record below a return address.  If
 * the interrupted function made no frame, the frame record above is its
 * caller's caller's: its caller's return address, at the interrupted rsp
 * (above the red zone asyncPreempt skipped), comes next, in *pending. */
static bool unwindexact(G *gp, uintptr_t *pc, uintptr_t *bp, uintptr_t *pending) {
	if (*pending != 0) {
		*pc = *pending; /* bp stays: it is that caller's frame */
		*pending = 0;
		return true;
	}
	bool interrupted = inAsyncPreempt(*pc);
	uintptr_t aprbp = *bp;
	if (!unwind(gp, pc, bp))
		return false;
	if (interrupted) {
		uintptr_t isp = aprbp + 16 + 128;
		if (noprologue(*pc) && isp - gp->stack.lo < gp->stack.hi - gp->stack.lo)
			*pending = *(uintptr_t *)isp;
		(*pc)++;
	}
	return true;
}

enum { tracebackHead = 50, tracebackTail = 50 };

/* Print gp's frames, from the frame whose return address (or, for the
 * innermost frame of a fault, pc) is pc and frame pointer bp.  sp is not
 * needed with frame pointers; it is kept for Go's signature. */
static void tracebackpending(G *gp, uintptr_t pc, uintptr_t bp, uintptr_t pending0);

void traceback(G *gp, uintptr_t pc, uintptr_t sp, uintptr_t bp) {
	(void)sp;
	tracebackpending(gp, pc, bp, 0);
}

/* The line under a goroutine's frames that says which function's go
 * statement started it (Go's printCreatedBy): not for the main goroutine,
 * nor for one the runtime started (gopc 0, as time.AfterFunc's). */
static void printcreatedby(G *gp) {
	int64_t i = gp->gopc != 0 && gp->goid != 1 ? findrec(gp->gopc) : -1;
	if (i < 0)
		return;
	const GlFuncInfo *f = funcat(gp->gopc);
	if (f == NULL || f->name == NULL)
		f = pctab[i].fn;
	if (f->name == NULL)
		return;
	prints("created by ");
	prints(f->name);
	prints("\n\t");
	prints(f->file);
	prints(":");
	printint(pctab[i].line);
	prints(" +");
	printhex(gp->gopc - (uintptr_t)f->entry);
	prints("\n");
}

/* A goroutine that never ran: Go shows the function it will start in, at
 * its first line.  A go statement with arguments starts in a thunk glc
 * made, which has no name: then only "created by" says where it is from. */
static void printstartfn(G *gp) {
	const GlFuncInfo *f = gp->startfn != NULL ? funcat((uintptr_t)gp->startfn->fn + 1) : NULL;
	if (f == NULL || f->name == NULL || (uintptr_t)f->entry != (uintptr_t)gp->startfn->fn)
		return;
	printfuncline(f, f->line, false);
	prints("\n");
}

/* traceback, with the return address of a frame the chain misses
 * (pending0, or 0): the caller of an interrupted function that made no
 * frame. */
static void tracebackpending(G *gp, uintptr_t pc, uintptr_t bp, uintptr_t pending0) {
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);

	/* count the frames shown, to elide the middle of a very deep stack */
	int64_t total = 0;
	{
		uintptr_t p = pc, b = bp, pend = pending0;
		bool first = true;
		for (;;) {
			int cls = frameclass(p, level, first);
			if (cls != frameHidden) {
				total++;
				first = false;
			}
			if (!unwindexact(gp, &p, &b, &pend))
				break;
		}
	}
	int64_t shown = 0;
	int npanic = 0;
	bool first = true;
	uintptr_t pending = pending0;
	for (;;) {
		int cls = frameclass(pc, level, first);
		if (cls != frameHidden) {
			if (total <= tracebackHead + tracebackTail || shown < tracebackHead ||
			    shown >= total - tracebackTail)
				printframe(gp, cls, pc, npanic);
			else if (shown == tracebackHead)
				prints("...additional frames elided...\n");
			shown++;
			first = false;
		}
		if (ingopanic(pc - 1))
			npanic++;
		if (!unwindexact(gp, &pc, &bp, &pending))
			break;
	}
	printcreatedby(gp);
}

/* gp's traceback from its saved state (it is switched out: parked, or on
 * g0 through systemstack/morestack/mcall). */
void tracebackg(G *gp) {
	if (gp->sched.sp == 0) {
		prints("\t(goroutine running on other thread; stack unavailable)\n");
		return;
	}
	if (gp->sched.pc == (uintptr_t)gl_gostart) {
		pctabinit();
		printstartfn(gp);
		printcreatedby(gp);
		return;
	}
	traceback(gp, gp->sched.pc, gp->sched.sp, gp->sched.bp);
}

/* ---- dumps of every goroutine (a fatal error, SIGQUIT) ----
 * Go prints a goroutine that runs on another thread as "stack
 * unavailable".  gl stops each one first with suspendG (its first user),
 * up to a deadline, and leaves it stopped: the process is dying.  The
 * status printed is the one it had before. */

/* Stop gp for printing, noting in it what it was.  The goroutine of this
 * M (in a systemstack call or the scheduler) is not running its own code
 * and is not waited for. */
static void dumpsuspend(G *gp, int64_t deadline) {
	gp->dumpstatus = readgstatus(gp);
	gp->dumpreason = gp->waitreason;
	if (gp->m != NULL && gp->m == getm()) {
		gp->dumpgot = true;
		return;
	}
	suspendGState st = suspendG(gp, deadline);
	gp->dumpgot = st.g != NULL;
	if (st.dead)
		gp->dumpstatus = Gdead;
}

static void dumpprint(G *gp) {
	if (gp->dumpstatus == Gdead)
		return;
	prints("\n");
	goroutineheaderstatus(gp, gp->dumpstatus, gp->dumpreason);
	if (gp->dumpgot && gp->sched.sp != 0)
		tracebackg(gp);
	else
		prints("\tgoroutine running on other thread; stack unavailable\n");
}

/* Every goroutine but first, stopped, then printed.  No memory is asked
 * for: this runs in signal handlers and after mmap has failed. */
static void dumpothers(G *first, int64_t deadline) {
	int64_t n;
	G **gs = atomicAllG(&n);
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash); /* the runtime's goroutines show at level 2, as Go's */
	for (int64_t i = 0; i < n; i++) {
		if (gs[i] == first || readgstatus(gs[i]) == Gdead || (level < 2 && isSystemGoroutine(gs[i])))
			gs[i]->dumpstatus = Gdead; /* not printed */
		else
			dumpsuspend(gs[i], deadline);
	}
	for (int64_t i = 0; i < n; i++)
		dumpprint(gs[i]);
}

/* Every goroutine but me, with the world stopped (runtime.Stack(buf,
 * true)): each is switched out, and printed from its saved state, after a
 * blank line, as Go's tracebackothers does for Stack.  (A dying process's
 * dump, below, stops each one itself.) */
void tracebackstopped(G *me) {
	int64_t n;
	G **gs = atomicAllG(&n);
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);
	for (int64_t i = 0; i < n; i++) {
		G *gp = gs[i];
		if (gp == me || readgstatus(gp) == Gdead || (level < 2 && isSystemGoroutine(gp)))
			continue;
		prints("\n");
		goroutineheader(gp);
		tracebackg(gp);
	}
}

/* Every other goroutine, for GLTRACEBACK=all and fatal errors (Go's
 * tracebackothers). */
void tracebackothers(G *me) {
	dumpothers(me, nanotime() + 100 * 1000 * 1000);
}

void dumpgoroutines(G *first, uintptr_t pc, uintptr_t sp, uintptr_t bp, int64_t deadline) {
	if (first != NULL) {
		prints("\n");
		goroutineheader(first);
		if (pc != 0 && sp - first->stack.lo < first->stack.hi - first->stack.lo - 8) {
			/* +1: pc is where it was interrupted, not a return address;
			 * a function with no frame has its return address at sp */
			bool frameless = ingltext(pc) && noprologue(pc);
			tracebackpending(first, pc + 1, bp, frameless ? *(uintptr_t *)sp : 0);
		} else {
			tracebackg(first);
		}
	}
	dumpothers(first, deadline);
}

/* The goroutine part of a fatal error's output. */
void dumptraceback(G *gp) {
	int32_t level;
	bool all, crash;
	gotraceback(&level, &all, &crash);
	M *mp = getm();
	if (mp->dying >= 2) /* a throw shows every goroutine, as Go's */
		all = true;
	if (level <= 0)
		return;
	if (gp != NULL) {
		prints("\n");
		goroutineheader(gp);
		tracebackg(gp);
	}
	if (all)
		tracebackothers(gp);
}
