/*
 * rt.h — the runtime's internal header: M, P and sched (Go's names), the
 * register block the stack switches save, raw system calls, locks, and the
 * helpers several runtime files share.  Generated code never includes it;
 * its contract with the runtime is gl.h.
 *
 * The first part is plain #defines, because asm_amd64.S includes this file
 * too: the offsets of the G and M fields the assembly touches.  The C part
 * checks each of them with a static assertion, so the two cannot drift.
 */
#ifndef GL_RT_H
#define GL_RT_H

/* ---- offsets for asm_amd64.S (checked below) ---- */
#define G_stackguard0 0
#define G_m 48
#define G_sched_sp 56
#define G_sched_pc 64
#define G_sched_bp 72
#define Gobuf_sp 0
#define M_g0 0
#define M_curg 8
#define M_gsignal 16

/* The block that gl_morestack, mcall and systemstack push on the goroutine
 * stack when they leave it, at g->sched.sp; 64 bytes with the return
 * address of the call that entered them (lowest address first):
 *	+0  x87 control word (2 bytes), pad, +4 mxcsr (4 bytes)
 *	+8  r15   +16 r14   +24 r13   +32 r12   +40 rbx
 *	+48 rbp   (the caller's frame pointer: the first link of the chain)
 *	+56 return address into the caller (= g->sched.pc)
 * gcc code keeps live values in rbx and r12–r15 across calls (Go's ABI has
 * no callee-saved registers, so Go saves only sp/pc/bp: DESIGN.md).  The
 * block is part of the stack, so copystack copies it verbatim; only the
 * rbp slot is adjusted, as the head of the saved-rbp chain. */
#define SAVEDREGS_SIZE 64
#define SAVEDREGS_RBP 48
#define SAVEDREGS_PC 56
#define FPU_CW_DEFAULT 0x037f
#define MXCSR_DEFAULT 0x1f80

#ifndef __ASSEMBLER__

#include "gl.h"

#include <stdatomic.h>

/* Thread-local storage in the initial-exec model: one %fs-relative load,
 * never a call to __tls_get_addr (libc, on the goroutine stack). */
#define GL_TLS _Thread_local __attribute__((tls_model("initial-exec")))

/* ---- locks (Go's lock_futex.go: mutex, lock, unlock) ---- */
typedef struct mutex {
	uint32_t key; /* 0 unlocked, 1 locked, 2 locked with waiters */
} mutex;
void lock(mutex *l);
void unlock(mutex *l);

/* ---- M, P, sched ---- */

/* The allocator's per-M state (Go keeps an mcache per P; with one P per M
 * for now, this is the same thing). */
typedef struct mcache {
	uintptr_t next, end; /* bump pointer into the current chunk */
	uint64_t nmalloc;    /* objects allocated through this M */
	uint64_t totalalloc; /* bytes, after rounding up to the size class */
} mcache;

struct M {
	G *g0;           /* scheduling stack (offset 0: asm) */
	G *curg;         /* the user goroutine running on this M (asm) */
	G *gsignal;      /* signal-handling g, on the sigaltstack (asm) */
	P *p;
	int64_t id;
	uint64_t fastrand;
	mcache mcache;
	/* A nil dereference reported as a panic (gl_panicnil): what Go keeps in
	 * g.sig/sigcode/sigpc, printed as the "[signal ...]" line. */
	uint32_t sig;
	uintptr_t sigcode0, sigcode1, sigpc;
	bool (*waitunlockf)(G *, void *); /* gopark's: run once g is parked */
	void *waitlock;
	int32_t dying;       /* fatal error in progress on this M */
	int32_t preprinting; /* calling Error/String of a dying panic's value */
	uint64_t forcemoveticks; /* stackforcemove: prologue checks seen on deep stacks */
	M *alllink;
};

enum { Pidle = 0, Prunning = 1 };

struct P {
	int32_t id;
	uint32_t status;
	M *m;
	G *runnext;            /* the goroutine to run next (goready) */
	uint32_t runqhead, runqtail;
	G *runq[256];
};

typedef struct schedt {
	mutex lock;
	G *runqhead, *runqtail; /* global run queue, linked through schedlink */
	int32_t runqsize;
	G *gfree;               /* dead Gs, for reuse */
	int64_t goidgen;
	int32_t mainexited;     /* main goroutine called Goexit */
} schedt;

extern schedt sched;
extern M m0;
extern G g0; /* m0's g0 */
extern P p0;
extern G **allgs;
extern int64_t allglen;
extern int gl_argc;
extern char **gl_argv;

/* The current G, in TLS.  asm_amd64.S switches it along with the stack.
 * Runtime C that may park and resume on another thread reads it through
 * the noinline getg() (DESIGN.md S9); a leaf that cannot park may use
 * getm() below, one %fs load. */
extern GL_TLS G *tls_g;
static inline M *getm(void) {
	return tls_g->m;
}
void setg(G *gp);

/* asm_amd64.S */
void gogo(Gobuf *buf) GL_NORETURN;
void mcall(void (*fn)(G *));
void gl_mstart(void (*fn)(void)) GL_NORETURN;
void gl_gostart(void);

/* proc.c */
void schedule(void) GL_NORETURN;
void gopark(bool (*unlockf)(G *, void *), void *lock, uint32_t reason);
void goready(G *gp);
void gosched(void);
G *newproc(void (*fn)(G *, void *), void *arg);
G *newproc1(void (*fn)(G *, void *), void *arg, int64_t stacksize);
void goexit1(void) GL_NORETURN;
int64_t nanotime(void);
void exit_m(void *code) GL_NORETURN; /* exit(code) on g0 */
const char *waitreasonstr(uint32_t reason);

enum { /* Go's waitReason values that exist so far */
	waitReasonZero = 0,
	waitReasonChanReceive = 14,
	waitReasonChanSend = 15,
	waitReasonSleep = 19,
	waitReasonSemacquire = 18,
};

/* stack.c */
typedef struct mstats {
	uint64_t stacks_inuse;      /* bytes in stacks in use (StackInuse) */
	uint64_t stacks_sys;        /* bytes of stack memory from the OS (StackSys) */
	uint64_t stack_copies;      /* copystack calls (gl: StackCopies) */
	uint64_t stack_bytes_copied;/* used bytes moved (gl: StackBytesCopied) */
	uint64_t stack_copy_ns;     /* time in copystack (gl: StackCopyNs) */
	uint64_t heap_sys;          /* bytes of heap memory from the OS (HeapSys) */
	uint64_t heap_large;        /* bytes in large objects */
	/* stackforcemove only: the least distance from stack.lo of anything
	 * written to a stack (fresh blocks are filled with a pattern, looked
	 * at when the block is retired): what was left of the reserve band */
	uint64_t stack_min_headroom;
} mstats;
extern mstats memstats;
extern uintptr_t maxstacksize; /* Go's maxstacksize; tests may lower it */
GlStack stackalloc(uint64_t n);
void stackfree(GlStack stk);
uintptr_t newstack(G *g, uintptr_t sp);
void copystack(G *g, uint64_t newsize);
void shrinkstack(G *g);
uintptr_t stackguard(G *g); /* the stackguard0 g should have */
bool stalestack(uintptr_t addr, uintptr_t *lo, uintptr_t *hi);
bool stackguardpage(uintptr_t addr);
void stackinit(void);

/* malloc.c */
void mallocinit(void);
void *sysAlloc(uint64_t n, uint64_t *stat);
void sysFree(void *p, uint64_t n, uint64_t *stat);
void readmemstats(uint64_t *totalalloc, uint64_t *nmalloc);

/* panic.c */
extern const GlType gltype_rtstring; /* the runtime's string type */
extern const GlType gltype_eface;    /* interface {} */
extern const GlType gltype_rterror;  /* runtime.Error values (gl_panicstring) */

/* iface.c */
GlString missingmethod(const GlType *inter, const GlType *typ);
void gl_panicnilat(G *g, uintptr_t pc, uintptr_t addr);
void printpanicval(GlEface e);

/* traceback.c */
const GlFuncInfo *findfunc(uintptr_t pc, int32_t *line);
bool ingltext(uintptr_t pc);
bool ingldefer(uintptr_t pc);
void traceback(G *gp, uintptr_t pc, uintptr_t sp, uintptr_t bp);
void tracebackothers(G *me);
void goroutineheader(G *gp);
void tracebackg(G *gp); /* from gp->sched, or from gp itself if running here */
void dumptraceback(G *gp); /* the "goroutine N [...]" block(s) for a fatal error */

/* signal (proc.c) */
void initsig(void);
void minitSignalStack(M *m);

/* debug.c */
typedef struct gl_debugvars {
	int32_t stackforcemove;  /* move the stack at every prologue, poison old */
	int32_t stacktrace;      /* print a line per stack copy */
	int32_t gctrace;
	int32_t schedtrace;
	int32_t scheddetail;
	int32_t asyncpreemptoff;
	int32_t gcshrinkstackoff;
	int32_t efence;
	int32_t invalidptr;
	int32_t madvdontneed;
	int32_t tracebackancestors;
	int32_t adaptivestackstart;
} gl_debugvars;
extern gl_debugvars gl_debug;
void parsedebugvars(void);
/* GLTRACEBACK (Go's GOTRACEBACK): level 0 none, 1 user frames, 2 runtime
 * frames too; all: every goroutine; crash: abort() for a core dump. */
void gotraceback(int32_t *level, bool *all, bool *crash);

/* ---- pointers into the goroutine stack across calls that can move it ----
 * Runtime C keeps such a pointer as its distance from stack.hi, which
 * copystack preserves, never as a C pointer (DESIGN.md S4). */

/* Distance of p from the top of g's stack, 0 if p is not in the stack. */
static inline uintptr_t stackoff(const G *g, const void *p) {
	uintptr_t u = (uintptr_t)p;
	return u - g->stack.lo < g->stack.hi - g->stack.lo ? g->stack.hi - u : 0;
}

/* p again, after a call that may have moved g's stack. */
static inline void *stackptr(const G *g, const void *p, uintptr_t off) {
	return off ? (void *)(g->stack.hi - off) : (void *)p;
}

/* ---- raw system calls: leaves with no frame, usable on any stack ---- */
enum {
	SYS_write_ = 1,
	SYS_mmap_ = 9,
	SYS_mprotect_ = 10,
	SYS_munmap_ = 11,
	SYS_madvise_ = 28,
	SYS_getpid_ = 39,
	SYS_exit_group_ = 231,
	SYS_tgkill_ = 234,
	SYS_getrandom_ = 318,
};

static inline long rawsyscall6(long nr, long a, long b, long c, long d, long e, long f) {
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline void *sys_mmap(void *addr, uint64_t n, int prot, int flags) {
	long r = rawsyscall6(SYS_mmap_, (long)addr, (long)n, prot, flags, -1, 0);
	return (unsigned long)r > -4096UL ? NULL : (void *)r;
}
static inline int sys_munmap(void *addr, uint64_t n) {
	return (int)rawsyscall6(SYS_munmap_, (long)addr, (long)n, 0, 0, 0, 0);
}
static inline int sys_mprotect(void *addr, uint64_t n, int prot) {
	return (int)rawsyscall6(SYS_mprotect_, (long)addr, (long)n, prot, 0, 0, 0);
}
static inline int sys_madvise(void *addr, uint64_t n, int advice) {
	return (int)rawsyscall6(SYS_madvise_, (long)addr, (long)n, advice, 0, 0, 0);
}
static inline GL_NORETURN void sys_exit(int code) {
	for (;;)
		rawsyscall6(SYS_exit_group_, code, 0, 0, 0, 0, 0);
}

/* ---- printing helpers the runtime uses (print.c does the writing) ---- */
static inline void prints(const char *s) {
	printstring((GlString){(const uint8_t *)s, (int64_t)strlen(s)});
}

#define PAGESIZE 4096

_Static_assert(offsetof(G, stackguard0) == G_stackguard0, "G.stackguard0");
_Static_assert(offsetof(G, m) == G_m, "G.m");
_Static_assert(offsetof(G, sched.sp) == G_sched_sp, "G.sched.sp");
_Static_assert(offsetof(G, sched.pc) == G_sched_pc, "G.sched.pc");
_Static_assert(offsetof(G, sched.bp) == G_sched_bp, "G.sched.bp");
_Static_assert(offsetof(Gobuf, sp) == Gobuf_sp, "Gobuf.sp");
_Static_assert(offsetof(M, g0) == M_g0, "M.g0");
_Static_assert(offsetof(M, curg) == M_curg, "M.curg");
_Static_assert(offsetof(M, gsignal) == M_gsignal, "M.gsignal");

#endif /* __ASSEMBLER__ */
#endif
