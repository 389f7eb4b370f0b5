/*
 * mfinal.c — finalizers (Go's mfinal.go): runtime.SetFinalizer's checks,
 * the queue of finalizers due (finq) and the goroutine that runs them
 * (fing, running stdlib/runtime/mfinal.gl's runfinq).
 *
 * The life of a finalizer:
 *
 *   1. SetFinalizer(obj, fn) checks its arguments as Go does (throwing
 *      with Go's messages), starts fing the first time (createfing) and
 *      records fn in a special record on obj's span (mspecial.c,
 *      addfinalizer).  fn(nil) drops the record (removefinalizer).
 *   2. While the record exists, the marker treats fn and whatever obj
 *      points to as roots, but not obj (mgcmark.c, markrootSpans).  So
 *      obj can be found unreachable while everything it needs survives,
 *      and an object that a finalized object points to is not finalized
 *      in the same cycle: finalizers run in dependency order.
 *   3. The sweeper, meeting obj unmarked with a record, marks it instead
 *      of freeing it, drops the record and queues (fn, obj) on finq
 *      (queuefinalizer).  finq is a root, so obj stays reachable until
 *      fing has taken the entry; fing's frame then holds it until the
 *      call returns.  The next cycle that finds obj unreachable frees it
 *      (no record any more) — unless the finalizer stored it somewhere:
 *      then it lives on, without a finalizer, as in Go.
 *   4. After the cycle, with the world started again, wakefing readies
 *      fing if it is parked with work queued; fing calls the finalizers
 *      one at a time, in its own goroutine, through the call code glc
 *      emits for every func type (GlType.call, as reflect's Value.Call).
 *
 * fing is a system goroutine while it waits: runtime.NumGoroutine does
 * not count it, checkdead does not count it as a goroutine that could
 * still run, and goroutine dumps leave it out — unless it is in the
 * middle of a finalizer (fingRunning), which is user code like any other.
 */
#include "rt.h"

/* A finalizer due (Go's finalizer): fn(arg), arg converted to fint.
 * stdlib/runtime/mfinal.gl's finalizer struct starts with these fields,
 * in this order, and then has the call's frame. */
typedef struct finalizer {
	GlFunc *fn;
	void *arg;          /* the object (or the inner address of a tiny one) */
	const GlType *ft;   /* fn's type */
	const GlType *fint; /* fn's parameter type */
	const GlType *ot;   /* arg's pointer type */
} finalizer;
GL_SAMEFIELD(finalizer, struct runtime_finalizer, fn);
GL_SAMEFIELD(finalizer, struct runtime_finalizer, arg);
GL_SAMEFIELD(finalizer, struct runtime_finalizer, ft);
GL_SAMEFIELD(finalizer, struct runtime_finalizer, fint);
GL_SAMEFIELD(finalizer, struct runtime_finalizer, ot);
/* Its type, for the copy into fing's variable (a heap box: its address
 * is passed to takefinalizer) */
GL_RTTYPE(gltype_finalizer, finalizer, "runtime.finalizer",
	  GL_PTRWORD(finalizer, fn) | GL_PTRWORD(finalizer, arg) | GL_PTRWORD(finalizer, ft) |
		  GL_PTRWORD(finalizer, fint) | GL_PTRWORD(finalizer, ot));

/* A block of queued finalizers, outside the heap (persistentalloc): the
 * collector scans its fin[0:cnt] (finqscan) — fn and arg, and the type
 * words in case reflect made a type on the heap. */
enum { finblockN = 62 };
typedef struct finblock {
	struct finblock *next;
	int32_t cnt;
	finalizer fin[finblockN];
} finblock;

/* All under finlock:
 *  - finq: the blocks with finalizers due, each with cnt > 0; entries
 *    are taken from the first block's end (the order finalizers of one
 *    cycle run in is not specified, as in Go);
 *  - finc: empty blocks to reuse;
 *  - fing: the finalizer goroutine, NULL until createfing (also read
 *    atomically without the lock);
 *  - fingwait: fing is parked (or about to be: it parks releasing the lock);
 *  - fingwake: finalizers were queued since fing last looked. */
static mutex finlock = MUTEX(lockRankFin);
static finblock *finq, *finc;
static G *fing;
static bool fingwait, fingwake;
static bool fingRunning;   /* fing is running a finalizer (atomic) */
static uint32_t fingCreate; /* createfing was called (atomic) */

/* ---- the queue ---- */

/* Queue fn(p): the sweeper's, the world stopped, on g0. */
void queuefinalizer(uintptr_t p, GlFunc *fn, const GlType *ft, const GlType *fint, const GlType *ot) {
	lock(&finlock);
	if (finq == NULL || finq->cnt == finblockN) {
		finblock *b = finc;
		if (b != NULL)
			finc = b->next;
		else
			b = persistentalloc(sizeof(finblock));
		b->cnt = 0;
		b->next = finq;
		finq = b;
	}
	finq->fin[finq->cnt++] = (finalizer){fn, (void *)p, ft, fint, ot};
	fingwake = true;
	unlock(&finlock);
}

/* The collector's roots in finq (gcscanruntime). */
void finqscan(void (*f)(uintptr_t *slot, void *arg), void *arg) {
	for (finblock *b = finq; b != NULL; b = b->next)
		for (int32_t i = 0; i < b->cnt; i++) {
			finalizer *x = &b->fin[i];
			f((uintptr_t *)&x->fn, arg);
			f((uintptr_t *)&x->arg, arg);
			f((uintptr_t *)&x->ft, arg);
			f((uintptr_t *)&x->fint, arg);
			f((uintptr_t *)&x->ot, arg);
		}
}

typedef struct takearg {
	finalizer *out; /* in fing's frame */
	bool got;
} takearg;

/* On g0: move the next finalizer due into *out. */
static void takefinalizer_m(void *arg) {
	takearg *a = arg;
	lock(&finlock);
	finblock *b = finq;
	a->got = b != NULL;
	if (b != NULL) {
		typedmemmove(&gltype_finalizer, a->out, &b->fin[--b->cnt]);
		b->fin[b->cnt] = (finalizer){0};
		if (b->cnt == 0) {
			finq = b->next;
			b->next = finc;
			finc = b;
		}
	}
	__atomic_store_n(&fingRunning, a->got, __ATOMIC_RELEASE);
	unlock(&finlock);
}

/* fing, if it waits and there is work: the caller readies it (goready,
 * or with no P, as sysmon, injectglist).  NULL if not. */
G *fingtowake(void) {
	G *gp = NULL;
	lock(&finlock);
	if (fingwait && fingwake) {
		fingwait = fingwake = false;
		gp = fing;
	}
	unlock(&finlock);
	return gp;
}

static void wakefing_m(void *arg) {
	(void)arg;
	G *gp = fingtowake();
	if (gp != NULL)
		goready(gp);
}

/* Wake fing if it waits and there is work: after a cycle, once the world
 * runs again (goready needs a P that schedules).  On any stack; true if
 * fing exists (then it may have work, woken now or not yet started). */
bool wakefing(void) {
	systemstack(wakefing_m, NULL);
	return __atomic_load_n(&fingCreate, __ATOMIC_ACQUIRE) != 0;
}

/* ---- fing: stdlib/runtime/mfinal.gl's runfinq calls these ---- */

/* runtime.takefinalizer(f *finalizer) bool: the next finalizer due into
 * *f (fing's variable), or false if none is.  From here until the next
 * call fing counts as running user code. */
bool runtime_takefinalizer(G *g, struct runtime_finalizer *f) {
	(void)g;
	takearg a = {(finalizer *)f, false};
	systemstack(takefinalizer_m, &a);
	return a.got;
}

static bool parkfing_unlock(G *gp, void *arg) {
	(void)gp;
	unlock(arg);
	return true;
}

/* runtime.parkfing(): wait until wakefing, unless finalizers were queued
 * meanwhile.  fing is a system goroutine from here on. */
void runtime_parkfing(G *g) {
	(void)g;
	lock(&finlock); /* a leaf lock: parkfing runs no gl code and cannot move */
	if (finq != NULL) {
		unlock(&finlock);
		return;
	}
	fingwait = true;
	gopark(parkfing_unlock, &finlock, waitReasonFinalizerWait);
}

/* fing's call frame on the heap (runtime.prepfinalizer), in words:
 * args[0], results[0..nout), the argument's value (2 words: a pointer or
 * an interface), each result's storage, and for nout > 1 the results
 * tuple the call code returns them through.  All pointer words for the
 * collector: a scalar result can only keep something alive a little
 * longer. */
static uint64_t resultwords(const GlType *ft) {
	uint64_t n = 0;
	for (int i = 0; i < ft->nout; i++)
		n += (ft->out[i]->size + 7) / 8;
	return n;
}

static uint64_t tuplewords(const GlType *ft) {
	return ft->nout > 1 ? resultwords(ft) : 0;
}

static uint64_t callwords(const GlType *ft) {
	return 1 + (uint64_t)ft->nout + 2 + resultwords(ft) + tuplewords(ft);
}

/* The argument as fn's parameter type wants it, into v[0..2) (in the
 * heap: each store with the barrier). */
static void finargvalue(const finalizer *f, void **v) {
	switch (f->fint->kind) {
	case GL_KIND_POINTER:
		writebarrierptr(&v[0], f->arg);
		break;
	case GL_KIND_INTERFACE:
		writebarrierptr(&v[0], f->fint->nimethods == 0 ? (void *)f->ot : (void *)getitab(f->fint, f->ot, false));
		writebarrierptr(&v[1], f->arg);
		break;
	default:
		gl_throw("runfinq: bad kind in finalizer");
	}
}

/* runtime.prepfinalizer(f *finalizer): make f's call frame on the heap
 * (f.frame).  f is fing's variable, a heap box (its address is given
 * to C), so it cannot move meanwhile. */
void runtime_prepfinalizer(G *g, struct runtime_finalizer *gf) {
	(void)g;
	finalizer *f = (finalizer *)gf;
	const GlType *ft = f->ft;
	void **w = mallocgc(callwords(ft) * sizeof(void *), &gltype_ptrword, true);
	/* f and w are in the heap: the stores have the barrier */
	writebarrierptr(&gf->frame, w);
	uint64_t at = 1 + (uint64_t)ft->nout;
	writebarrierptr(&w[0], &w[at]);
	finargvalue(f, &w[at]);
	at += 2;
	for (int i = 0; i < ft->nout; i++) {
		writebarrierptr(&w[1 + i], &w[at]);
		at += (ft->out[i]->size + 7) / 8;
	}
}

/* runtime.callfinalizer(f *finalizer): f.fn(f.arg) through the frame
 * prepfinalizer made.  As reflect_call: the call code's frame holds the
 * callee's stack arguments, so it runs with GL_REFLECTCALL_STACK bytes
 * free.  fing's frame keeps fn and the frame alive during the call. */
void runtime_callfinalizer(G *g, struct runtime_finalizer *gf) {
	RT_STACKCHECK(g, GL_REFLECTCALL_STACK, GL_FIXPARAM(g, gf));
	finalizer *f = (finalizer *)gf;
	void **w = gf->frame;
	const GlType *ft = f->ft;
	void *scratch = ft->nout > 1 ? w + callwords(ft) - tuplewords(ft) : NULL;
	((void (*)(G *, GlFunc *, void *const *, void *const *, void *))ft->call)(g, f->fn, w, w + 1, scratch);
}

/* ---- createfing ---- */

/* The weak reference: only a program that calls SetFinalizer links the
 * runtime package's runfinq, and only such a program starts fing. */
extern void runtime_runfinq(G *g) __attribute__((weak));

static void fingstart(G *g, void *arg) {
	(void)arg;
	runtime_runfinq(g);
}

/* Start fing, once (counted as a system goroutine from the start, as
 * Go's newproc counts it).  On g0. */
static void createfing(void) {
	uint32_t no = 0;
	if (__atomic_load_n(&fingCreate, __ATOMIC_ACQUIRE) != 0 ||
	    !__atomic_compare_exchange_n(&fingCreate, &no, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	__atomic_add_fetch(&sched.ngsys, 1, __ATOMIC_RELAXED);
	lock(&finlock); /* before fing can park (parkfing takes it) */
	__atomic_store_n(&fing, newproc(fingstart, NULL, "runtime.runfinq"), __ATOMIC_RELEASE);
	unlock(&finlock);
}

/* Whether gp is a goroutine of the runtime, not of the program: the
 * collector's mark worker, the background sweeper, and fing while it is
 * not in a finalizer (Go's isSystemGoroutine). */
bool isSystemGoroutine(const G *gp) {
	if (isGCWorker(gp) || isBgSweeper(gp))
		return true;
	return gp == __atomic_load_n(&fing, __ATOMIC_ACQUIRE) && !__atomic_load_n(&fingRunning, __ATOMIC_ACQUIRE);
}

/* ---- runtime.SetFinalizer ---- */

/* Room for a message naming two types: the process is dying, one
 * message is ever built. */
static char throwbuf[512];

static void appendmsg(uint64_t *n, const void *s, uint64_t len) {
	if (len > sizeof throwbuf - 1 - *n)
		len = sizeof throwbuf - 1 - *n;
	memcpy(throwbuf + *n, s, len);
	*n += len;
}

/* throw(a + t1 + b + t2 + c), t2 may be NULL. */
static GL_NORETURN void throwtypes(const char *a, const GlType *t1, const char *b, const GlType *t2, const char *c) {
	uint64_t n = 0;
	appendmsg(&n, a, strlen(a));
	appendmsg(&n, t1->str.ptr, (uint64_t)t1->str.len);
	appendmsg(&n, b, strlen(b));
	if (t2 != NULL)
		appendmsg(&n, t2->str.ptr, (uint64_t)t2->str.len);
	appendmsg(&n, c, strlen(c));
	throwbuf[n] = 0;
	gl_throw(throwbuf);
}

static bool sametype(const GlType *a, const GlType *b) {
	return a == b || (a->hash == b->hash && a->kind == b->kind && eqstring(a->str, b->str));
}

/* Whether Go would give t an uncommon record: a name or methods. */
static bool uncommon(const GlType *t) {
	return (t->tflag & GL_TFLAG_NAMED) || t->nmethods > 0;
}

/* Whether a finalizer taking fint accepts etyp (Go's rules: the same
 * type; pointers to the same type, one of them unnamed and without
 * methods; an interface etyp implements). */
static bool finargok(const GlType *fint, const GlType *etyp) {
	if (sametype(fint, etyp))
		return true;
	switch (fint->kind) {
	case GL_KIND_POINTER:
		return (!uncommon(fint) || !uncommon(etyp)) && sametype(fint->elem, etyp->elem);
	case GL_KIND_INTERFACE:
		return fint->nimethods == 0 || getitab(fint, etyp, true) != NULL;
	}
	return false;
}

/* Whether p is in the program's data or bss: a package variable's
 * address, which SetFinalizer accepts and ignores, as Go does for
 * linker-allocated objects. */
extern char __data_start[], _end[];
static bool indatasegment(uintptr_t p) {
	return p >= (uintptr_t)__data_start && p < (uintptr_t)_end;
}

/* The object SetFinalizer was given: a pointer to the start of a heap
 * object (or inside a pointer-free object of less than 16 bytes, which
 * Go's tiny allocator may have packed with others).  0 if there is
 * nothing to do: a 0-byte object or a package variable. */
static uintptr_t finobject(const GlType *ot, void *data) {
	uintptr_t p = (uintptr_t)data;
#ifdef GL_GC_BOEHM
	uintptr_t base = boehmbase(p);
#else
	uintptr_t base = findObject(p, NULL, NULL);
#endif
	if (base == 0) {
		if (data == &zerobase || indatasegment(p))
			return 0;
		gl_throw("runtime.SetFinalizer: pointer not in allocated block");
	}
	if (p != base && (ot->elem->ptrdata != 0 || ot->elem->size >= 16))
		gl_throw("runtime.SetFinalizer: pointer not at beginning of allocated block");
	return p;
}

typedef struct setfinarg {
	GlEface obj, fin;
} setfinarg;

/* SetFinalizer's work, on g0 (the checks call getitab, the throws
 * print): Go's checks in Go's order, then the record. */
static void setfinalizer_m(void *arg) {
	setfinarg *a = arg;
	const GlType *etyp = gl_efacetype(a->obj);
	if (etyp == NULL)
		gl_throw("runtime.SetFinalizer: first argument is nil");
	if (etyp->kind != GL_KIND_POINTER)
		throwtypes("runtime.SetFinalizer: first argument is ", etyp, ", not pointer", NULL, "");
	if (etyp->elem == NULL)
		gl_throw("nil elem type!");
	uintptr_t p = finobject(etyp, a->obj.data);
	if (p == 0)
		return;
	const GlType *ftyp = gl_efacetype(a->fin);
	if (ftyp == NULL) {
#ifdef GL_GC_BOEHM
		boehmremovefinalizer(p);
#else
		removefinalizer(p);
#endif
		return;
	}
	if (ftyp->kind != GL_KIND_FUNC)
		throwtypes("runtime.SetFinalizer: second argument is ", ftyp, ", not a function", NULL, "");
	if (ftyp->variadic)
		throwtypes("runtime.SetFinalizer: cannot pass ", etyp, " to finalizer ", ftyp, " because dotdotdot");
	if (ftyp->nin != 1 || !finargok(ftyp->in[0], etyp))
		throwtypes("runtime.SetFinalizer: cannot pass ", etyp, " to finalizer ", ftyp, "");
	createfing();
#ifdef GL_GC_BOEHM
	if (!boehmaddfinalizer(p, a->fin.data, ftyp, ftyp->in[0], etyp))
#else
	if (!addfinalizer(p, a->fin.data, ftyp, ftyp->in[0], etyp))
#endif
		gl_throw("runtime.SetFinalizer: finalizer already set");
}

/* runtime.SetFinalizer(obj, finalizer any): all of it on g0, where the
 * goroutine's stack does not move and no collection starts. */
void runtime_SetFinalizer(G *g, GlEface obj, GlEface fin) {
	(void)g;
	setfinarg a = {obj, fin};
	systemstack(setfinalizer_m, &a);
}

/* runtime.KeepAlive(x): x's value is in the caller's data frame, which
 * the collector scans precisely for the whole call (glc keeps no
 * per-call-site liveness), so a call that the C compiler cannot drop is
 * all it takes. */
GL_NOINLINE void runtime_KeepAlive(G *g, GlEface x) {
	(void)g;
	__asm__ volatile("" : : "r"(x.tab), "r"(x.data) : "memory");
}
