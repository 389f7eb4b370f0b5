/*
 * stdlib.c — the C halves of standard-library packages (other than os,
 * reflect and errors, which have their own files): fmt's printer cache and
 * runtime/debug.
 *
 * Called from generated code with its calling convention (G *g first), on
 * the goroutine stack (DESIGN.md S7): small leaves, or work moved to the
 * g0 stack with systemstack.
 */
#include "rt.h"

#include <stdlib.h> /* getenv, at start-up only */

/* ---- fmt: the printer cache (Go uses a sync.Pool) ----
 * Four slots, each taken with an atomic exchange and given back with a
 * compare-and-swap, so goroutines running on several threads never get the
 * same printer.  A printer that finds no free slot is dropped.
 * When the collector's write barrier lands, the stores of p here must go
 * through it (the slots are a gl global). */
enum { ppCacheSlots = 4 };

void *fmt_ppGet(G *g, void **cache) {
	(void)g;
	for (int i = 0; i < ppCacheSlots; i++) {
		if (__atomic_load_n(&cache[i], __ATOMIC_RELAXED) == NULL)
			continue;
		void *p = __atomic_exchange_n(&cache[i], NULL, __ATOMIC_ACQUIRE);
		if (p != NULL)
			return p;
	}
	return NULL;
}

void fmt_ppPut(G *g, void **cache, void *p) {
	(void)g;
	writebarrierShade(p); /* into a package variable: the barrier's new value */
	for (int i = 0; i < ppCacheSlots; i++) {
		void *expect = NULL;
		if (__atomic_compare_exchange_n(&cache[i], &expect, p, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
	}
}

/* ---- runtime/debug ---- */

/* The collector's target percentage, Go's gcPercent: GLGC at start-up
 * (a number, or "off" for -1), 100 by default; read at start-up
 * (gcenvinit) and by the first SetGCPercent, whichever comes first. */
int32_t gl_gcpercent = 100;
static int32_t gcpercentinit;

/* GLGC's value: "off", or a decimal number; anything else is ignored. */
static void setgcpercentenv(const char *s) {
	if (strcmp(s, "off") == 0) {
		gl_gcpercent = -1;
	} else if (*s) {
		int64_t v = 0;
		bool neg = *s == '-';
		for (s += neg; *s >= '0' && *s <= '9' && v < 1000000000; s++)
			v = v * 10 + (*s - '0');
		if (*s == 0)
			gl_gcpercent = (int32_t)(neg ? -v : v);
	}
}

static void initgcpercent(void) {
	if (__atomic_exchange_n(&gcpercentinit, 1, __ATOMIC_ACQ_REL))
		return;
	extern int gl_argc;
	extern char **gl_argv;
	/* the environment as the kernel passed it: no libc (getenv is not
	 * a leaf we want on a goroutine stack) */
	for (char **e = gl_argv + gl_argc + 1; *e != NULL; e++)
		if (strncmp(*e, "GLGC=", 5) == 0)
			setgcpercentenv(*e + 5);
}

#ifdef GL_GC_BOEHM
static void boehmgcenv_m(void *arg) {
	(void)arg;
	boehmgcenv(); /* GLGC's value to Boehm's divisor */
}
#endif

int64_t runtime_debug_setGCPercent(G *g, int64_t in) {
	(void)g;
	initgcpercent();
	if (in < 0)
		in = -1;
	if (in > INT32_MAX)
		in = INT32_MAX;
	int64_t out = __atomic_exchange_n(&gl_gcpercent, (int32_t)in, __ATOMIC_ACQ_REL);
	gcControllerChanged();
#ifdef GL_GC_BOEHM
	systemstack(boehmgcenv_m, NULL);
#endif
	return out;
}

/* Go's limit on OS threads, sched.maxmcount (Go's setMaxThreads): set
 * under sched.lock, and checked at once — a limit below the threads that
 * exist already is the fatal "thread exhaustion", as in Go. */
int64_t runtime_debug_setMaxThreads(G *g, int64_t in) {
	(void)g;
	lock(&sched.lock);
	int64_t out = sched.maxmcount;
	sched.maxmcount = in > INT32_MAX ? INT32_MAX : (int32_t)in;
	checkmcount();
	unlock(&sched.lock);
	return out;
}

/* The memory limit, Go 1.19's SetMemoryLimit: GLMEMLIMIT at start-up,
 * heeded by the pacer (mgcpacer.c) and the scavenger (mgcscavenge.c). */
int64_t gl_memorylimit = INT64_MAX;

/* GLMEMLIMIT's value (Go's GOMEMLIMIT syntax): "off", or digits with an
 * optional unit B, KiB, MiB, GiB or TiB; -1 if malformed or overflowing
 * (ignored, as Go's start-up would refuse it with a fatal error). */
static int64_t parsememlimit(const char *s) {
	if (strcmp(s, "off") == 0)
		return INT64_MAX;
	uint64_t v = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (uint64_t)INT64_MAX / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	static const struct { const char *unit; int shift; } units[] = {
		{"", 0}, {"B", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40},
	};
	if (p == s)
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(p, units[i].unit) != 0)
			continue;
		if (v > (uint64_t)INT64_MAX >> units[i].shift)
			return -1;
		return (int64_t)(v << units[i].shift);
	}
	return -1;
}

/* At start-up (gcinit, on the OS thread's stack, where getenv is fine):
 * GLGC and GLMEMLIMIT, so that they hold from the first allocation, not
 * only once a program calls SetGCPercent.  getenv, not gl_argv's tail: a
 * runtime started by a C test passes an argv with no environment after
 * it. */
void gcenvinit(void) {
	if (!__atomic_exchange_n(&gcpercentinit, 1, __ATOMIC_ACQ_REL)) {
		const char *s = getenv("GLGC");
		if (s != NULL)
			setgcpercentenv(s);
	}
	const char *m = getenv("GLMEMLIMIT");
	int64_t v = m != NULL ? parsememlimit(m) : -1;
	if (v >= 0)
		gl_memorylimit = v;
#ifdef GL_GC_BOEHM
	boehmgcenv();
#endif
}

int64_t runtime_debug_setMemoryLimit(G *g, int64_t in) {
	(void)g;
	if (in < 0)
		return __atomic_load_n(&gl_memorylimit, __ATOMIC_ACQUIRE);
	int64_t out = __atomic_exchange_n(&gl_memorylimit, in, __ATOMIC_ACQ_REL);
	gcControllerChanged();
	return out;
}

/* runtime/debug.stack(buf []byte) int: the current goroutine's traceback,
 * in the format of a panic's ("goroutine 1 [running]:", then for each gl
 * frame "pkg.f(...)\n\tfile:line +0xoff"), written into buf; the length it
 * needs, which may exceed len(buf) (the caller then grows buf and asks
 * again).  The frames are walked on g0 (systemstack): the goroutine's stack
 * cannot move meanwhile, and the formatting needs more than the band. */
typedef struct stackbuf {
	G *gp;
	uintptr_t bp;   /* frame pointer of runtime_debug_stack */
	uint8_t *p;
	int64_t cap, n;
} stackbuf;

static void sbwrite(stackbuf *b, const char *s, int64_t n) {
	for (int64_t i = 0; i < n; i++) {
		if (b->n + i < b->cap)
			b->p[b->n + i] = (uint8_t)s[i];
	}
	b->n += n;
}

static void sbstr(stackbuf *b, const char *s) {
	sbwrite(b, s, (int64_t)strlen(s));
}

static void sbint(stackbuf *b, uint64_t v, int base) {
	char tmp[24];
	int i = sizeof tmp;
	do {
		tmp[--i] = "0123456789abcdef"[v % (uint64_t)base];
		v /= (uint64_t)base;
	} while (v);
	sbwrite(b, tmp + i, (int64_t)sizeof tmp - i);
}

static void stack_m(void *arg) {
	stackbuf *b = arg;
	G *gp = b->gp;
	sbstr(b, "goroutine ");
	sbint(b, (uint64_t)gp->goid, 10);
	sbstr(b, " [running]:\n");
	uintptr_t bp = b->bp;
	for (int depth = 0; depth < 100; depth++) {
		if (bp - gp->stack.lo >= gp->stack.hi - gp->stack.lo - 16 || (bp & 7) != 0)
			break;
		uintptr_t next = ((uintptr_t *)bp)[0];
		uintptr_t pc = ((uintptr_t *)bp)[1];
		if (ingltext(pc - 1)) {
			int32_t line = 0;
			const GlFuncInfo *f = findfunc(pc, &line);
			if (f != NULL) {
				sbstr(b, f->name);
				sbstr(b, "(...)\n\t");
				sbstr(b, f->file);
				sbstr(b, ":");
				sbint(b, (uint64_t)line, 10);
				uintptr_t entry = (uintptr_t)f->entry;
				if (pc >= entry && pc - entry < (1u << 24)) {
					sbstr(b, " +0x");
					sbint(b, pc - entry, 16);
				}
				sbstr(b, "\n");
			}
		}
		if (next != 0 && next <= bp)
			break;
		bp = next;
		if (bp == 0)
			break;
	}
}

int64_t runtime_debug_stack(G *g, const GlSlice *buf) {
	stackbuf b = {g, GL_RBP(), buf->ptr, buf->len, 0};
	systemstack(stack_m, &b);
	return b.n;
}
