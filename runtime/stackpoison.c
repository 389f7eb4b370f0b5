/*
 * stackpoison.c — the stacks of GLDEBUG=stackforcemove: a pool of blocks
 * carved from large reservations, and a bounded quarantine for the old
 * stacks moves leave behind (stack.c's stackalloc and stackfree, and
 * copystack's stackretire, come here in that mode).
 *
 * Under stackforcemove a stack moves at every prologue check and at every
 * park, so the old block is garbage the moment copystack is done with it.
 * A pointer that copystack failed to adjust still points there.  Three
 * things make such a pointer show:
 *
 *  - Clobbering: the part of the old stack that was in use is overwritten
 *    with 0xdb bytes at once.  A stale read gets 0xdbdb…, which faults
 *    when used as a pointer and prints as garbage otherwise.
 *  - Checking: a retired block waits in a FIFO quarantine while the next
 *    maxQuarantined blocks are retired, and is checked on the way in (in
 *    batches of poisonBatch) and on the way out: a byte that is not 0xdb
 *    any more is a stale write, reported with its address and the stack.
 *  - Poisoning (PROT_NONE): a stale access faults at once, at the
 *    instruction that made it, and signal_linux.c names the old stack.
 *    The first eagerPoisoned blocks are poisoned as they retire, one
 *    mprotect each; after that one batch in poisonEvery is, one mprotect
 *    per run of neighbouring blocks.  Why not all: taking permissions away
 *    costs a TLB shootdown, and on this kind of machine (a VM) that and
 *    the next touch of the page cost tens of microseconds — poisoning
 *    every block made a move cost 25 us, this makes it 1.8 us for a
 *    1.6 KiB stack and 3.2 us for 6.4 KiB (bench/stacks/run, part 6).
 *    A stale-pointer bug repeats at every move of the code that has it,
 *    so a sample soon hits a poisoned block.
 *
 * Blocks are carved from reservations of arenaBytes and recycled once out
 * of quarantine; no mapping is created or removed per move.  That also
 * keeps the kernel's vm.max_map_count (65,530 by default) out of reach: a
 * run of pages with one protection between pages of another is a mapping
 * of its own, so what must stay bounded is the number of PROT_NONE runs —
 * at most maxQuarantined poisoned blocks plus the guard pages below — not
 * the number of stacks.  100,000 parked goroutines run in this mode (one
 * mapping per stack, as before, ran out at 32,000).  The quarantine also
 * has a byte budget, and a poisoned block of a big stack gives its pages
 * back (MADV_DONTNEED) at once.
 *
 * A block is one page and then the stack, rounded up to whole pages; the
 * stack's lo is base + PAGESIZE.  Blocks carved from the first
 * reservation (guardArenaBytes: at most 8,192 blocks) keep that page
 * PROT_NONE for life, a guard page: a frame that overflows the reserve
 * band faults at once (signal_linux.c names it).  Later blocks have an
 * ordinary page there, so their mappings merge with their neighbours';
 * for them an overflow is found when the stack is retired — the fill
 * pattern at lo is gone — and is a fatal error then.
 *
 * Everything here runs on g0 (copystack, newproc1, goexit0); poisonlock
 * guards the quarantine, the free lists and the reservations.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <sys/mman.h>

enum {
	maxQuarantined = 1024, /* retired blocks waiting (a FIFO) */
	stackFill = 0xA5,      /* the pattern fresh stacks are filled with */
	/* only the bottom is filled (and looked at): the reserve band and
	 * as much again, enough to say how much of the band was left */
	stackFillMax = 2 * GL_STACK_GUARD,
	dontneedMin = 65536,   /* blocks this big free their pages when poisoned */
	populateMax = 65536,   /* blocks up to this big are faulted in when carved */
	poisonBatch = 64,      /* retired blocks poisoned together */
	poisonEvery = 32,      /* after the first eagerPoisoned: one batch in this many */
	eagerPoisoned = 256,   /* the first retirements: each poisoned at once */
	stackClobber = 0xDB,   /* what a retired stack's top is overwritten with */
	clobberMax = 16384,    /* how much of it, if its live part is not known */
	numBlockOrders = 40,   /* stack sizes 2 KiB << 0..39, as stack.c's orders */
};
static const uint64_t arenaBytes = (uint64_t)64 << 20;
/* 8,192 of the smallest blocks (2 KiB stack, 8 KiB block) */
static const uint64_t guardArenaBytes = (uint64_t)64 << 20;
static const uint64_t maxQuarantinedBytes = (uint64_t)256 << 20;

/* A block: [base, top) in a reservation, its stack [lo, hi) with
 * lo = base + PAGESIZE.  Once retired, [clobbered, hi) holds the clobber
 * pattern. */
typedef struct block {
	uintptr_t base, top, lo, hi, clobbered;
	bool poisoned; /* PROT_NONE while quarantined */
} block;

/* A free block (unpoisoned, readable) keeps its link in its own first
 * stack bytes, one list per stack size. */
typedef struct freeblock {
	struct freeblock *next;
} freeblock;

/* The reservations: [guardlo, guardhi) the first, whose blocks have guard
 * pages, carved up to guardnext; [arenanext, arenaend) the uncarved rest
 * of the newest other one.  Both only grow.  The rest of the quarantine
 * and the free lists change under poisonlock. */
static mutex poisonlock = MUTEX(lockRankPoison);
static uintptr_t guardlo, guardhi, guardnext;
static uintptr_t arenanext, arenaend;
static block pending[poisonBatch];       /* retired, clobbered, not yet poisoned */
static uint32_t npending;
static uint64_t nbatches, nretired;
static block quarantine[maxQuarantined]; /* FIFO: qhead is the oldest */
static uint32_t qhead, qcount;
static uint64_t qbytes;
static freeblock *freeblocks[numBlockOrders];

static inline int blockorder(uint64_t n) {
	return __builtin_ctzll(n) - __builtin_ctzll(GL_STACK_MIN);
}

static inline block blockof(GlStack stk) {
	return (block){stk.lo - PAGESIZE, stk.lo + roundpage(stk.hi - stk.lo), stk.lo, stk.hi, stk.hi};
}

/* The readable part of b: all of it, or all but its guard page. */
static inline uintptr_t rwbase(const block *b) {
	return b->base - guardlo < guardhi - guardlo ? b->lo : b->base;
}

static uintptr_t reserve(uint64_t size) {
	void *p = sysReserve(NULL, size);
	if (p == NULL)
		sysOutOfMemory(size, "stackforcemove's stack reservation");
	return (uintptr_t)p;
}

/* Give b's stack (and its first page if it is not a guard) protection
 * prot.  Failing means the kernel's mapping limit: say so. */
static void protect(const block *b, int prot) {
	if (sys_mprotect((void *)rwbase(b), b->top - rwbase(b), prot) != 0)
		sysOutOfMemory(b->top - b->base, "a stackforcemove stack (mprotect failed: vm.max_map_count?)");
}

/* A new block for a stack of n bytes: from the guarded reservation while
 * it has room, else from the newest other one (a new one when it is used
 * up: the rest of the old one stays reserved, address space only). */
static block carve(uint64_t n) {
	uint64_t len = PAGESIZE + roundpage(n);
	uintptr_t base;
	if (guardlo == 0) {
		guardlo = guardnext = reserve(guardArenaBytes);
		guardhi = guardlo + guardArenaBytes;
	}
	if (guardhi - guardnext >= len) {
		base = guardnext;
		guardnext += len;
	} else {
		if (arenaend - arenanext < len) {
			uint64_t size = len > arenaBytes ? len : arenaBytes;
			arenanext = reserve(size);
			arenaend = arenanext + size;
		}
		base = arenanext;
		arenanext += len;
	}
	block b = {base, base + len, base + PAGESIZE, base + PAGESIZE + n, base + PAGESIZE + n};
	protect(&b, PROT_READ | PROT_WRITE);
	/* fault the pages in with one call, not one fault each as the fill
	 * and the copy touch them: a process's first maxQuarantined moves
	 * all take fresh blocks (advice: an older kernel refuses, harmless) */
	if (len <= populateMax)
		sys_madvise((void *)b.lo, b.top - b.lo, MADV_POPULATE_WRITE);
	return b;
}

/* A stack of n bytes: a free block of its size, or a new one. */
GlStack stackallocforcemove(uint64_t n) {
	int order = blockorder(n);
	lock(&poisonlock);
	block b;
	freeblock *f = freeblocks[order];
	if (f != NULL) {
		freeblocks[order] = f->next;
		b = blockof((GlStack){(uintptr_t)f, (uintptr_t)f + n});
	} else {
		b = carve(n);
	}
	unlock(&poisonlock);
	__atomic_fetch_add(&memstats.stacks_sys, b.top - rwbase(&b), __ATOMIC_RELAXED);
	/* to find how deep it was used: only the bottom matters */
	memset((void *)b.lo, stackFill, n < stackFillMax ? n : stackFillMax);
	return (GlStack){b.lo, b.hi};
}

/* The lowest byte of stk anything wrote (the fill pattern is intact below
 * it): its distance from lo is how much of the reserve band was left. */
static uint64_t measureheadroom(GlStack stk) {
	const uint8_t *p = (const uint8_t *)stk.lo;
	uint64_t n = stk.hi - stk.lo, i = 0;
	if (n > stackFillMax)
		n = stackFillMax;
	const uint64_t fill8 = 0x0101010101010101ull * stackFill;
	while (i + 8 <= n && *(const uint64_t *)(p + i) == fill8) /* lo is page-aligned */
		i += 8;
	while (i < n && p[i] == stackFill)
		i++;
	uint64_t cur = __atomic_load_n(&memstats.stack_min_headroom, __ATOMIC_RELAXED);
	while (i < cur && !__atomic_compare_exchange_n(&memstats.stack_min_headroom, &cur, i, false,
						       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return i;
}

/* Sort blocks by address (a batch is small: insertion). */
static void sortblocks(block *v, uint32_t n) {
	for (uint32_t i = 1; i < n; i++) {
		block x = v[i];
		uint32_t j = i;
		for (; j > 0 && v[j - 1].base > x.base; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Give the blocks of v (sorted) protection prot, one mprotect per run of
 * neighbours: a run of retired stacks is usually one range, since stacks
 * are carved and reused in address order and mostly retired in the order
 * they were taken.  A guard page inside a run may be made PROT_NONE again
 * (harmless) but never readable: readable runs stop at guarded blocks. */
static void protectruns(const block *v, uint32_t n, int prot) {
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i + 1;
		while (j < n && v[j].base == v[j - 1].top && (prot == PROT_NONE || rwbase(&v[j]) == v[j].base))
			j++;
		uintptr_t lo = rwbase(&v[i]), hi = v[j - 1].top;
		if (sys_mprotect((void *)lo, hi - lo, prot) != 0)
			sysOutOfMemory(hi - lo, "stackforcemove stacks (mprotect failed: vm.max_map_count?)");
		i = j;
	}
}

/* A retired stack must still hold the clobber pattern its retirement
 * wrote over [clobbered, hi): anything else is a write through a stale
 * pointer. */
static void checkclobbered(const block *b) {
	const uint64_t want = 0x0101010101010101ull * stackClobber;
	for (const uint64_t *p = (const uint64_t *)b->clobbered; (uintptr_t)p < b->hi; p++)
		if (*p != want) {
			printlock();
			prints("runtime: write to ");
			printhex((uintptr_t)p);
			prints(" in a moved stack [");
			printhex(b->lo);
			prints(", ");
			printhex(b->hi);
			prints(") after it was retired\n");
			printunlock();
			gl_throw("stale pointer into a moved stack (found before it was poisoned)");
		}
}

/* The oldest quarantined blocks, up to a batch, become free blocks again:
 * the poisoned ones readable, the others checked for stale writes. */
static void releasebatch(void) {
	block v[poisonBatch], w[poisonBatch];
	uint32_t n = 0, nw = 0;
	while (n < poisonBatch && qcount > 0) {
		block *b = &quarantine[qhead];
		qhead = (qhead + 1) % maxQuarantined;
		qcount--;
		qbytes -= b->top - b->base;
		if (b->poisoned)
			w[nw++] = *b;
		else
			checkclobbered(b);
		v[n++] = *b;
	}
	sortblocks(w, nw);
	protectruns(w, nw, PROT_READ | PROT_WRITE);
	for (uint32_t i = n; i-- > 0;) {
		freeblock *f = (freeblock *)v[i].lo;
		int order = blockorder(v[i].hi - v[i].lo);
		f->next = freeblocks[order];
		freeblocks[order] = f;
	}
}

/* Check the pending batch, poison it if eager or its turn has come, and
 * queue it, releasing the oldest blocks past either budget first.
 * poisonlock held. */
static void poisonpending(bool eager) {
	block w[poisonBatch];
	uint32_t nw = 0;
	bool poison = eager || ++nbatches % poisonEvery == 0;
	for (uint32_t i = 0; i < npending; i++) {
		block *b = &pending[i];
		checkclobbered(b);
		b->poisoned = poison;
		if (!b->poisoned)
			continue;
		if (b->top - b->base >= dontneedMin)
			sys_madvise((void *)b->lo, b->top - b->lo, MADV_DONTNEED);
		w[nw++] = *b;
	}
	sortblocks(w, nw);
	protectruns(w, nw, PROT_NONE);
	for (uint32_t i = 0; i < npending; i++) {
		const block *b = &pending[i];
		uint64_t len = b->top - b->base;
		while (qcount == maxQuarantined || (qcount > 0 && qbytes + len > maxQuarantinedBytes))
			releasebatch();
		quarantine[(qhead + qcount) % maxQuarantined] = *b;
		qcount++;
		qbytes += len;
	}
	npending = 0;
}

/* Retire stk, whose live part was [sp, hi) (what a stale pointer can
 * point to).  That part is overwritten with the clobber pattern at once
 * (a stale read gets 0xdbdb…, not a pointer: a fault at its first use as
 * one).  The first eagerPoisoned blocks are poisoned at once, one
 * mprotect each: a short program, or the start of any, gets the fault at
 * the stale access itself.  Later ones wait for poisonBatch - 1 others;
 * the batch is checked (a stale write since is reported) and one batch in
 * poisonEvery is poisoned: one mprotect per run of neighbours, each a TLB
 * shootdown of tens of microseconds in a VM. */
void stackfreeforcemove(GlStack stk, uintptr_t sp) {
	block b = blockof(stk);
	if (measureheadroom(stk) == 0)
		gl_throw("stack overflow below stack.lo: a frame exceeded the reserve band "
			 "(found when its stack was retired)");
	if (sp < stk.lo || sp > stk.hi)
		sp = stk.hi - (stk.hi - stk.lo < clobberMax ? stk.hi - stk.lo : clobberMax);
	b.clobbered = sp & ~(uintptr_t)7;
	memset((void *)b.clobbered, stackClobber, stk.hi - b.clobbered);
	/* StackSys counts the stacks in use here: retired blocks are not
	 * the program's, whether poisoned yet or not */
	__atomic_fetch_sub(&memstats.stacks_sys, b.top - rwbase(&b), __ATOMIC_RELAXED);
	lock(&poisonlock);
	pending[npending++] = b;
	bool eager = nretired++ < eagerPoisoned;
	if (eager || npending == poisonBatch)
		poisonpending(eager);
	unlock(&poisonlock);
}

/* Whether addr lies in a poisoned old stack; its bounds in *lo, *hi.  For
 * the SIGSEGV handler: reads only, no lock (it may interrupt a holder). */
bool stalestack(uintptr_t addr, uintptr_t *lo, uintptr_t *hi) {
	for (uint32_t i = 0; i < qcount && i < maxQuarantined; i++) {
		const block *b = &quarantine[(qhead + i) % maxQuarantined];
		if (addr - b->base < b->top - b->base) {
			*lo = b->lo;
			*hi = b->hi;
			return true;
		}
	}
	return false;
}
