/*
 * mem_linux.c — memory from the kernel (Go's mem_linux.go), by Go's names.
 *
 * The heap takes address space in two steps, as Go does: sysReserve
 * claims a range without memory behind it (PROT_NONE, so it costs neither
 * RAM nor commit charge), and sysMap turns a part of it into ordinary
 * zero-filled memory when the heap grows into it.  HeapSys counts what is
 * mapped, not what is reserved.  sysUnused gives pages back (MADV_DONTNEED:
 * the range stays mapped and reads zero on the next touch; MADV_FREE would
 * be cheaper but leaves RSS high until the kernel is short, and the pages
 * would not read zero) — the scavenger's (mheap.c, mgcscavenge.c), which
 * then counts them in HeapReleased.  sysAlloc is reserve and map in one,
 * for memory outside the heap (stacks, the heap's metadata).
 *
 * Huge pages: the heap maps in 2 MiB-aligned steps and, once it passes
 * 16 MiB or when a step is made for an object of 2 MiB or more (mheap.c,
 * mheap_grow), asks for transparent huge pages there (sysHugePage), so filling fresh memory
 * faults once per 2 MiB instead of once per 4 KiB page (the bump allocator
 * this replaced measured 160,000 faults for strbuild without it).  It does
 * not stop memory from going back: MADV_DONTNEED on a whole huge page
 * frees it (about 10 us here), on part of one splits it (khugepaged may
 * later collapse it again, taking back the released part), which is why
 * the scavenger releases whole huge pages first.  Go 1.19 also marks
 * released ranges MADV_NOHUGEPAGE to keep khugepaged off them, at the
 * price of a VMA split each (vm.max_map_count); gl does not.
 *
 * All of this is raw system calls, no libc: mallocgc's slow paths run on
 * g0, but stack.c calls sysAllocAligned from places where a libc call
 * would be a frame too many.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <sys/mman.h>

/* Memory for the fatal-error path.  Printing a fatal error builds the
 * pc tables of the traceback on first use, and "out of memory" is a fatal
 * error: when mmap refuses, a dying M takes memory from here instead, so
 * the message and the tracebacks still come out.  Mapped at start-up but
 * never touched unless needed (MAP_NORESERVE: address space only). */
static uint8_t *dyingnext, *dyingend;

void sysReserveForDying(uint64_t n) {
	n = roundpage(n);
	uint8_t *p = sys_mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	if (p != NULL)
		dyingnext = p, dyingend = p + n;
}

static void *allocfordying(uint64_t n) {
	n = roundpage(n);
	uint8_t *p = __atomic_fetch_add(&dyingnext, n, __ATOMIC_RELAXED);
	return p != NULL && p + n <= dyingend ? p : NULL;
}

static bool dying(void) {
	return tls_g != NULL && tls_g->m->dying > 0;
}

/* Go's words for memory the kernel refused, with what it was for, then
 * the fatal error.  On g0 (systemstack), as gl_throw's printing is: this
 * may be called from runtime code on a goroutine stack, whose budget is
 * small (testdata/stackusage.py). */
typedef struct oomArgs {
	uint64_t n;
	const char *what;
} oomArgs;

static void outofmemory_m(void *arg) {
	const oomArgs *a = arg;
	uint64_t inuse = memstats.heap_sys + memstats.stacks_sys + memstats.gc_sys + memstats.other_sys;
	printlock();
	prints("runtime: out of memory: cannot allocate ");
	printuint(a->n);
	prints("-byte block (");
	printuint(inuse);
	prints(" in use) for ");
	prints(a->what);
	prints("\n");
	printunlock();
	gl_throw("out of memory");
}

void sysOutOfMemory(uint64_t n, const char *what) {
	oomArgs a = {n, what};
	if (tls_g == NULL) /* before the runtime exists: no g0 to print on */
		gl_throw("out of memory (before the runtime started)");
	systemstack(outofmemory_m, &a);
	__builtin_unreachable();
}

/* What memory accounted in stat is for, as an out-of-memory report says. */
static const char *statname(const uint64_t *stat) {
	if (stat == &memstats.stacks_sys)
		return "a goroutine stack (mmap failed)";
	if (stat == &memstats.gc_sys)
		return "the heap's metadata (mmap failed)";
	return "the runtime's own records (mmap failed)";
}

/* n bytes of zeroed memory from the OS, accounted in *stat. */
void *sysAlloc(uint64_t n, uint64_t *stat) {
	void *p = sys_mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	if (p == NULL && dying())
		p = allocfordying(n);
	if (p == NULL)
		sysOutOfMemory(n, statname(stat));
	if (stat != NULL)
		__atomic_fetch_add(stat, n, __ATOMIC_RELAXED);
	return p;
}

void sysFree(void *p, uint64_t n, uint64_t *stat) {
	sys_munmap(p, n);
	if (stat != NULL)
		__atomic_fetch_sub(stat, n, __ATOMIC_RELAXED);
}

/* n bytes aligned to align (a power of two, a multiple of the page): map
 * n + align and give back the ends. */
void *sysAllocAligned(uint64_t n, uint64_t align, uint64_t *stat) {
	uint8_t *p = sysAlloc(n + align, stat);
	uintptr_t a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	if (a > (uintptr_t)p)
		sysFree(p, a - (uintptr_t)p, stat);
	uintptr_t end = (uintptr_t)p + n + align;
	if (end > a + n)
		sysFree((void *)(a + n), end - (a + n), stat);
	return (void *)a;
}

/* Claim n bytes of address space, at hint if the kernel agrees (the
 * caller checks), without memory behind them.  NULL if refused. */
void *sysReserve(void *hint, uint64_t n) {
	return sys_mmap(hint, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
}

/* Back [p, p+n) of a reservation with zeroed memory. */
void sysMap(void *p, uint64_t n, uint64_t *stat) {
	void *q = sys_mmap(p, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED);
	if (q != p)
		sysOutOfMemory(n, "the heap (mmap failed)");
	if (stat != NULL)
		__atomic_fetch_add(stat, n, __ATOMIC_RELAXED);
}

/* Ask for transparent huge pages over [p, p+n) (advice: ignored where
 * the kernel does not do them). */
void sysHugePage(void *p, uint64_t n) {
	sys_madvise(p, n, MADV_HUGEPAGE);
}

/* The pages of [p, p+n) are not needed now: the kernel may take them
 * back; they read as zero when touched again. */
void sysUnused(void *p, uint64_t n) {
	sys_madvise(p, n, MADV_DONTNEED);
}
