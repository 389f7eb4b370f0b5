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

/* fmt's cache of printers: [4]*pp (glc contract's layout) */
typedef struct glarray4_ptr_fmt_pp ppcache;
_Static_assert(sizeof(ppcache) == ppCacheSlots * sizeof(void *), "fmt's ppCache has ppCacheSlots slots");

struct fmt_pp *fmt_ppGet(G *g, ppcache *pc) {
	(void)g;
	struct fmt_pp **cache = pc->a;
	for (int i = 0; i < ppCacheSlots; i++) {
		if (__atomic_load_n(&cache[i], __ATOMIC_RELAXED) == NULL)
			continue;
		struct fmt_pp *p = __atomic_exchange_n(&cache[i], NULL, __ATOMIC_ACQUIRE);
		if (p != NULL)
			return p;
	}
	return NULL;
}

void fmt_ppPut(G *g, ppcache *pc, struct fmt_pp *p) {
	(void)g;
	struct fmt_pp **cache = pc->a;
	writebarrierShade(p); /* into a package variable: the barrier's new value */
	for (int i = 0; i < ppCacheSlots; i++) {
		struct fmt_pp *expect = NULL;
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

/* runtime.Stack(buf []byte, all bool) int: the caller's traceback, as a
 * panic's shows it ("goroutine 1 [running]:", then each frame from
 * Stack's caller up, and "created by"), at traceback level 1 whatever
 * GLTRACEBACK says, and with all every other goroutine's, the world
 * stopped meanwhile, as Go; written into buf by traceback.c's own printer
 * (print.c's printtobuf: this thread's prints go to the buffer, Go's
 * g0.writebuf); what fits in buf.  The printing is on g0 (systemstack): it
 * needs more than the band.  (runtime/debug.Stack calls it.) */
typedef struct stackargs {
	G *gp;
	uintptr_t pc, bp; /* the caller's return address and frame pointer */
	uint8_t *p;       /* the buffer: its bytes, how many fit */
	int64_t cap;
	bool all;         /* and every other goroutine (the world is stopped) */
	int64_t n;        /* what was printed */
} stackargs;

static void stack_m(void *arg) {
	stackargs *a = arg;
	M *mp = getm();
	printtobuf(a->p, a->cap);
	mp->traceback = 1;
	goroutineheader(a->gp);
	traceback(a->gp, a->pc, 0, a->bp);
	if (a->all)
		tracebackstopped(a->gp);
	mp->traceback = 0;
	a->n = printtobufend();
}

/* buf lies in the caller's data frame, which stopTheWorld may move (S4):
 * its words are read first, and the caller's frame pointer after. */
int64_t runtime_Stack(G *g, const GlSlice *buf, bool all) {
	uint8_t *p = buf->ptr;
	int64_t cap = buf->len;
	if (all)
		stopTheWorld("stack trace");
	uintptr_t *rbp = (uintptr_t *)GL_RBP();
	stackargs a = {g, rbp[1], rbp[0], p, cap, all, 0};
	systemstack(stack_m, &a);
	int64_t n = a.n < cap ? a.n : cap;
	if (all)
		startTheWorld();
	return n;
}
