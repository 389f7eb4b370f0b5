/*
 * stack.c — goroutine stacks (Go's runtime/stack.go): stackalloc and
 * stackfree, newstack (called by gl_morestack when a prologue check fails)
 * and copystack, which moves a stack and adjusts every word on it that
 * points into it, exactly as DESIGN.md S8 lists them and nothing else.
 *
 * A stack is [lo, hi), a power of two in size, 2 KiB to start.  Its
 * stackguard0 is lo + GL_STACK_GUARD: a prologue that would take the stack
 * pointer below it (after its data frame) calls morestack instead, so the
 * GL_STACK_GUARD bytes below the guard only ever hold what runs without a
 * check (gcc's fixed frames, runtime leaves, morestack's pushes).
 *
 * Everything here but stackguard() runs on g0 (newstack, copystack) or
 * under the scheduler (stackalloc/stackfree from newproc1 and goexit0).
 *
 * GLDEBUG=stackforcemove=1 makes every prologue check fail (stackguard0 =
 * hi) and newstack then moves the stack to another block of the same size
 * (more if needed) and makes the old block PROT_NONE for the next 4,096
 * moves, so a stale pointer into the old stack faults at its first use
 * (the SIGSEGV handler names it); stackpoison.c keeps those blocks.
 * stackforcemove=N
 * (N > 1) moves at one check in N of each M instead: every prologue still
 * enters newstack, but only some move — for programs that make millions
 * of calls, where even a cheap move per call (two mprotect calls, one with
 * a TLB shootdown) would take hours.
 */
#define _GNU_SOURCE
#include "rt.h"

#include <stdlib.h>
#include <sys/mman.h>

mstats memstats = {.stack_min_headroom = ~(uint64_t)0};
uintptr_t maxstacksize = GL_STACK_MAX;

enum {
	stackMinShift = 11,  /* log2(GL_STACK_MIN) */
	numStackOrders = 40, /* 2 KiB << 39: more than any address space */
	stackChunk = 32768,  /* small stacks are carved from chunks this big */
};

/* ---- the global pool (Go's stackpool and stackLarge, one list per size) ----
 * Free stacks are linked through their first word.  Sizes below stackChunk
 * are carved from stackChunk-byte chunks aligned to stackChunk, so a
 * stack's chunk is its address rounded down; larger stacks have their own
 * mapping.  Each P caches the small sizes (stackcache below) and takes the
 * lock only to refill or drain its cache.  runtime.GC gives back to the OS
 * every chunk whose stacks are all free and every free large stack (Go
 * does the same at each collection: freeStackSpans). */
static mutex stacklock = MUTEX(lockRankStack);
static void *stackpool[numStackOrders];
/* chunks are cut from a batch mapped at once (address space only: a page
 * costs memory when a stack first touches it) */
static uint8_t *chunknext, *chunkend;
enum { chunkBatch = 32 * stackChunk };

static inline int stackorder(uint64_t n) {
	return __builtin_ctzll(n) - stackMinShift;
}

/* ---- stackforcemove: stackpoison.c ---- */

/* Whether addr lies just below the current goroutine's stack: in the guard
 * page of stackforcemove mode, or the page below lo otherwise. */
bool stackguardpage(uintptr_t addr) {
	G *gp = tls_g ? tls_g->m->curg : NULL;
	return gp && gp->stack.lo && addr < gp->stack.lo && gp->stack.lo - addr <= PAGESIZE;
}

/* ---- stackalloc / stackfree ---- */

void stackinit(void) {
	/* nothing yet: the pool fills on demand */
}

/* A free stack of the given order from the global pool; stacklock held. */
static void *stackpoolalloc(int order) {
	uint64_t n = (uint64_t)GL_STACK_MIN << order;
	void *p = stackpool[order];
	if (p != NULL) {
		stackpool[order] = *(void **)p;
		return p;
	}
	if (n >= stackChunk)
		return sysAlloc(n, &memstats.stacks_sys);
	/* carve a new chunk; keep all but its first stack */
	if (chunknext == chunkend) {
		chunknext = sysAllocAligned(chunkBatch, stackChunk, NULL);
		chunkend = chunknext + chunkBatch;
	}
	uint8_t *c = chunknext;
	chunknext += stackChunk;
	memstats.stacks_sys += stackChunk;
	for (uint64_t off = n; off < stackChunk; off += n) {
		*(void **)(c + off) = stackpool[order];
		stackpool[order] = c + off;
	}
	return c;
}

/* Put a stack of the given order back in the global pool; stacklock held. */
static void stackpoolfree(void *p, int order) {
	*(void **)p = stackpool[order];
	stackpool[order] = p;
}

/* ---- the per-P caches (Go's stackcache, which lives in the mcache) ----
 * Nearly every goroutine has a stack of 2 to 16 KiB; its P keeps free ones
 * of those sizes, so newproc and goexit, and most copies, take no lock.  A
 * cache refills from the pool to half of stackCacheSize at a time and
 * drains to half when it would exceed it: a P that only creates (or only
 * ends) goroutines takes the lock once per 16 KiB of stacks, and one that
 * does both at the same rate never does.  Go's sizes: _StackCacheSize =
 * 32 KiB, _NumStackOrders = 4. */

/* The P whose cache the caller may use: its M's, if it holds one. */
static P *stackcacheP(void) {
	G *g = tls_g;
	if (g == NULL)
		return NULL;
	M *mp = g->m;
	P *pp = mp->p;
	return pp != NULL && pp->m == mp ? pp : NULL;
}

static void stackcacherefill(stackfreelist *c, int order) {
	uint64_t n = (uint64_t)GL_STACK_MIN << order;
	lock(&stacklock);
	while (c->size < stackCacheSize / 2) {
		void *p = stackpoolalloc(order);
		*(void **)p = c->list;
		c->list = p;
		c->size += n;
	}
	unlock(&stacklock);
}

static void stackcacherelease(stackfreelist *c, int order, uint64_t keep) {
	uint64_t n = (uint64_t)GL_STACK_MIN << order;
	lock(&stacklock);
	while (c->size > keep) {
		void *p = c->list;
		c->list = *(void **)p;
		c->size -= n;
		stackpoolfree(p, order);
	}
	unlock(&stacklock);
}

/* Empty pp's cache into the pool: a P that GOMAXPROCS no longer uses, and
 * every P at runtime.GC (Go's stackcache_clear). */
void stackcache_clear(P *pp) {
	for (int order = 0; order < numStackCacheOrders; order++)
		stackcacherelease(&pp->stackcache[order], order, 0);
}

/* A stack of n bytes, n a power of two >= GL_STACK_MIN. */
GlStack stackalloc(uint64_t n) {
	if (n < GL_STACK_MIN || (n & (n - 1)) != 0)
		gl_throw("stackalloc: bad size");
	__atomic_fetch_add(&memstats.stacks_inuse, n, __ATOMIC_RELAXED);
	if (gl_debug.stackforcemove)
		return stackallocforcemove(n);
	int order = stackorder(n);
	P *pp = stackcacheP();
	void *p;
	if (order < numStackCacheOrders && pp != NULL) {
		stackfreelist *c = &pp->stackcache[order];
		if (c->list == NULL)
			stackcacherefill(c, order);
		p = c->list;
		c->list = *(void **)p;
		c->size -= n;
	} else {
		lock(&stacklock);
		p = stackpoolalloc(order);
		unlock(&stacklock);
	}
	return (GlStack){(uintptr_t)p, (uintptr_t)p + n};
}

void stackfree(GlStack stk) {
	uint64_t n = stk.hi - stk.lo;
	__atomic_fetch_sub(&memstats.stacks_inuse, n, __ATOMIC_RELAXED);
	if (gl_debug.stackforcemove) {
		stackfreeforcemove(stk, 0);
		return;
	}
	int order = stackorder(n);
	P *pp = stackcacheP();
	if (order < numStackCacheOrders && pp != NULL) {
		stackfreelist *c = &pp->stackcache[order];
		if (c->size >= stackCacheSize)
			stackcacherelease(c, order, stackCacheSize / 2);
		*(void **)stk.lo = c->list;
		c->list = (void *)stk.lo;
		c->size += n;
		return;
	}
	lock(&stacklock);
	stackpoolfree((void *)stk.lo, order);
	unlock(&stacklock);
}

/* The stack copystack moved from, whose frames were [sp, hi): under
 * stackforcemove those are what a stale pointer can reach. */
void stackretire(GlStack old, uintptr_t sp) {
	if (gl_debug.stackforcemove) {
		__atomic_fetch_sub(&memstats.stacks_inuse, old.hi - old.lo, __ATOMIC_RELAXED);
		stackfreeforcemove(old, sp);
		return;
	}
	stackfree(old);
}

/* ---- giving memory back (runtime.GC, world stopped) ---- */

static int cmpaddr(const void *a, const void *b) {
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return x < y ? -1 : x > y;
}

/* Unmap the chunks of one small order whose stacks are all free, and keep
 * the rest in the pool.  The free list is sorted by address, so the
 * stacks of one chunk are neighbours. */
static void freechunks(int order) {
	uint64_t n = (uint64_t)GL_STACK_MIN << order, perchunk = stackChunk / n, count = 0;
	for (void *p = stackpool[order]; p != NULL; p = *(void **)p)
		count++;
	if (count < perchunk)
		return;
	uint64_t bytes = roundpage(count * sizeof(uintptr_t));
	uintptr_t *v = sysAlloc(bytes, NULL);
	uint64_t i = 0;
	for (void *p = stackpool[order]; p != NULL; p = *(void **)p)
		v[i++] = (uintptr_t)p;
	qsort(v, count, sizeof *v, cmpaddr);
	stackpool[order] = NULL;
	for (i = 0; i < count;) {
		uintptr_t chunk = v[i] & ~(uintptr_t)(stackChunk - 1);
		uint64_t j = i;
		while (j < count && (v[j] & ~(uintptr_t)(stackChunk - 1)) == chunk)
			j++;
		if (j - i == perchunk)
			sysFree((void *)chunk, stackChunk, &memstats.stacks_sys);
		else
			for (uint64_t k = i; k < j; k++)
				stackpoolfree((void *)v[k], order);
		i = j;
	}
	sysFree(v, bytes, NULL);
}

/* Go's freeStackSpans, called by runtime.GC with the world stopped, after
 * the per-P caches went back to the pool (stackcache_clear). */
void stackfreeunused(void) {
	lock(&stacklock);
	for (int order = 0; order < numStackOrders; order++) {
		uint64_t n = (uint64_t)GL_STACK_MIN << order;
		if (n < stackChunk) {
			freechunks(order);
			continue;
		}
		while (stackpool[order] != NULL) {
			void *p = stackpool[order];
			stackpool[order] = *(void **)p;
			sysFree(p, n, &memstats.stacks_sys);
		}
	}
	unlock(&stacklock);
}


/* stackforcemove moves the stack at every prologue while it uses at most
 * this much, and proportionally less often beyond (see newstack). */
#define FORCEMOVE_EVERY (16 * 1024)

/* ---- copystack ---- */

typedef struct adjustinfo {
	uintptr_t lo, hi; /* the old stack */
	intptr_t delta;   /* new.hi - old.hi */
} adjustinfo;

static inline bool inold(const adjustinfo *a, uintptr_t v) {
	return v - a->lo < a->hi - a->lo;
}

/* A word known to hold a pointer: moved if it points into the old stack. */
static inline void adjustpointer(const adjustinfo *a, void *vp) {
	uintptr_t *p = vp;
	if (inold(a, *p))
		*p += (uintptr_t)a->delta;
}

/* (a) The saved-rbp chain, from the rbp slot of the block gl_morestack (or
 * mcall) pushed: each slot holding an address in the old stack is moved
 * and followed; the chain ends with a value outside it (0 at the base). */
static void adjustframepointers(G *g, const adjustinfo *a) {
	uintptr_t *slot = (uintptr_t *)(g->sched.sp + SAVEDREGS_RBP);
	while (inold(a, *slot)) {
		uintptr_t next = *slot + (uintptr_t)a->delta;
		if (next <= (uintptr_t)slot || next >= g->stack.hi)
			gl_throw("copystack: broken frame-pointer chain");
		*slot = next;
		slot = (uintptr_t *)next;
	}
}

/* (c) The pointer words of one data frame, from its function's slots: each
 * slot's type says, one bit per word of its ptrdata, which words hold
 * pointers. */
static void adjustframe(GlFrame *f, const adjustinfo *a) {
	const GlFuncInfo *fn = f->fn;
	if (fn == NULL)
		return;
	for (int32_t i = 0; i < fn->nslots; i++) {
		const GlFrameSlot *s = &fn->slots[i];
		uintptr_t *w = (uintptr_t *)((uint8_t *)f + s->off);
		uint64_t nw = s->typ->ptrdata / 8;
		const uint8_t *bits = s->typ->gcdata;
		for (uint64_t j = 0; j < nw; j++)
			if (bits[j / 8] >> (j % 8) & 1)
				adjustpointer(a, &w[j]);
	}
}

/* (b) The data-frame chain: g->topframe and every prev link, and each
 * frame's pointer slots. */
static void adjustframes(G *g, const adjustinfo *a) {
	GlFrame **link = &g->topframe;
	while (*link != NULL && inold(a, (uintptr_t)*link)) {
		adjustpointer(a, link);
		adjustframe(*link, a);
		link = &(*link)->prev;
	}
}

/* (d) What the runtime itself keeps that may point into the stack. */
static void adjustrecords(G *g, const adjustinfo *a) {
	for (GlDefer *d = g->_defer; d != NULL; d = d->link) {
		adjustpointer(a, &d->frame);
		adjustpointer(a, &d->fn); /* a closure in the deferring frame */
	}
	adjustpointer(a, &g->unwindTarget);
	adjustpointer(a, &g->sched.bp);
	/* (e) the sudogs of a channel operation or select g is parked in:
	 * elem is where a sender copies from or a receiver's value goes */
	for (sudog *sg = g->waiting; sg != NULL; sg = sg->waitlink)
		adjustpointer(a, &sg->elem);
}

/* g is parked on channels (activeStackChans): another G holding one of
 * their locks may be copying a value into or out of g's stack through a
 * sudog, so the copy holds every one of those locks (Go's
 * syncadjustsudogs).  g->waiting is in lock order; a select on the same
 * channel twice lists it twice, in a row. */
static void lockwaitingchans(G *g, bool lk) {
	GlChan *last = NULL;
	for (sudog *sg = g->waiting; sg != NULL; sg = sg->waitlink) {
		if (sg->c != last) {
			if (lk)
				lock(&sg->c->lock);
			else
				unlock(&sg->c->lock);
		}
		last = sg->c;
	}
}

/* Move g's stack to a new one of newsize bytes.  g is not running: it is
 * switched out with g->sched describing it (gl_morestack or mcall pushed
 * the register block at g->sched.sp). */
void copystack(G *g, uint64_t newsize) {
	int64_t t0 = nanotime();
	GlStack old = g->stack;
	uintptr_t sp = g->sched.sp;
	if (sp == 0 || sp < old.lo || sp >= old.hi)
		gl_throw("copystack: goroutine is not switched out");
	uint64_t used = old.hi - sp;
	if (GL_UNLIKELY(trace_on))
		traceStackCopy(g, old.hi - old.lo, newsize);

	GlStack new = stackalloc(newsize);
	adjustinfo a = {old.lo, old.hi, (intptr_t)(new.hi - old.hi)};
	bool chanlocks = g->activeStackChans;
	if (chanlocks)
		lockwaitingchans(g, true);
	memcpy((void *)(new.hi - used), (void *)sp, used);

#ifdef GL_GC_BOEHM
	boehmstackbegin(); /* the conservative collector reads g->stack */
#endif
	g->stack = new;
	g->sched.sp = sp + (uintptr_t)a.delta;
	adjustframepointers(g, &a);
	adjustframes(g, &a);
	adjustrecords(g, &a);
	if (chanlocks)
		lockwaitingchans(g, false);

	/* For the prologue's GL_FIXPARAM: its parameters point into the stack
	 * gl_morestack was entered on (newstack clears oldLo/oldHi there);
	 * should it move again before they are fixed (a parked goroutine
	 * shrunk twice), keep that range and add up the deltas. */
	if (g->oldHi == 0) {
		g->oldLo = old.lo;
		g->oldHi = old.hi;
		g->stackDelta = a.delta;
	} else {
		g->stackDelta += a.delta;
	}
	if (g->stackguard0 != GL_STACK_PREEMPT)
		g->stackguard0 = stackguard(g);
	stackretire(old, sp);
#ifdef GL_GC_BOEHM
	boehmstackend();
#endif

	int64_t ns = nanotime() - t0;
	g->stackcopies++;
	__atomic_fetch_add(&memstats.stack_copies, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&memstats.stack_bytes_copied, used, __ATOMIC_RELAXED);
	__atomic_fetch_add(&memstats.stack_copy_ns, (uint64_t)ns, __ATOMIC_RELAXED);
	if (gl_debug.stacktrace) {
		printlock();
		prints("stack copy: goroutine ");
		printint(g->goid);
		prints(" ");
		printuint(old.hi - old.lo);
		prints(" -> ");
		printuint(newsize);
		prints(" bytes, copied ");
		printuint(used);
		prints(" in ");
		printint(ns);
		/* the old bounds, as Go's stack overflow message prints them:
		 * with them and a frame's address a program can tell how much
		 * headroom its deepest frame had (bench/stacks) */
		prints(" ns, stack=[");
		printhex(old.lo);
		prints(", ");
		printhex(old.hi);
		prints("]\n");
		printunlock();
	}
}

/* ---- newstack ---- */

/* "<what>0x... stack=[0x..., 0x...]", Go's way of showing where sp was. */
static void printstackat(const char *what, uintptr_t sp, GlStack stk) {
	prints(what);
	printhex(sp);
	prints(" stack=[");
	printhex(stk.lo);
	prints(", ");
	printhex(stk.hi);
	prints("]\n");
}

/* Called by gl_morestack (need ~0) or gl_morestackneed on g0.  sp is the
 * register block on g's stack; the prologue that failed ran with rsp = sp +
 * SAVEDREGS_SIZE (above the block and its return address) and wants its
 * function's data frame (or runtime C, need bytes) below that.  Returns the
 * sp to resume at: the same, or the block's place on the new stack. */
uintptr_t newstack(G *g, uintptr_t sp, uintptr_t need) {
	if (g == g->m->g0)
		gl_throw("morestack on g0");
	if (sp < g->stack.lo || sp >= g->stack.hi) {
		printlock();
		printstackat("runtime: newstack sp=", sp, g->stack);
		printunlock();
		gl_throw(sp < g->stack.lo ? "stack overflow below stack.lo (a frame exceeded the reserve band)"
					  : "morestack: sp outside the goroutine stack");
	}
	/* no copy yet: GL_FIXPARAM must not move anything */
	g->oldLo = g->oldHi = 0;
	g->stackDelta = 0;

	/* What the function asked for: its data frame, from its descriptor
	 * (Go uses funcMaxSPDelta the same way), plus alloca's rounding; or
	 * what runtime C said it needs. */
	if (need == ~(uintptr_t)0) {
		const GlFuncInfo *fn = findfunc(g->sched.pc, NULL);
		need = (fn ? fn->framesize : 0) + 16;
	}
	uintptr_t callersp = sp + SAVEDREGS_SIZE;

	bool fits = callersp >= g->stack.lo + GL_STACK_GUARD + need;

	/* A preemption request (preemptone, the stop-the-world): park the
	 * goroutine once its frame fits — gopreempt_m queues it and its next
	 * gogo returns into the prologue, exactly as gl_morestack's own return
	 * would.  Not while the M holds runtime locks or prints: then the
	 * request is dropped (the stop-the-world repeats it). */
	bool preempt = __atomic_load_n(&g->stackguard0, __ATOMIC_ACQUIRE) == GL_STACK_PREEMPT;
	if (preempt) {
		g->stackguard0 = stackguard(g);
		preempt = canpreemptm(g->m);
		if (preempt)
			g->preempt = false;
	}

	uint64_t oldsize = g->stack.hi - g->stack.lo;
	uint64_t used = g->stack.hi - sp;
	bool move = !fits || gl_debug.stackforcemove;
	if (gl_debug.stackforcemove > 1 && fits)
		move = ++getm()->forcemoveticks % (uint64_t)gl_debug.stackforcemove == 0;
	else if (gl_debug.stackforcemove && fits && used > FORCEMOVE_EVERY) {
		/* Moving a deep stack at every call makes the stress mode
		 * quadratic: a 100,000-frame recursion would copy terabytes.  Up
		 * to FORCEMOVE_EVERY bytes of used stack every check moves it;
		 * beyond, one check in (used/FORCEMOVE_EVERY)^2 does, so a call
		 * costs FORCEMOVE_EVERY^2/used bytes of copying (and of page
		 * faults on the fresh block): 16 KiB at 16 KiB deep, 256 bytes
		 * at 1 MiB.  Deep frames still move, just less often. */
		M *m = getm();
		uint64_t every = used / FORCEMOVE_EVERY;
		move = ++m->forcemoveticks % (every * every) == 0;
	}
	/* A move and a park never share one morestack (Go's newstack parks
	 * before it would copy): a pointer parameter into the stack is fixed
	 * by the prologue only after morestack returns (GL_FIXPARAM), so a
	 * goroutine parked just after a copy would wait with it pointing into
	 * the old stack, and a scan meanwhile would find nothing that reaches
	 * the stack object it points to and free what that holds
	 * (testdata/run/gc_stackobj's callee, under stackforcemove on a
	 * loaded machine).  A move that can wait (stackforcemove's) waits for
	 * the next prologue; one that cannot comes first, and the request
	 * waits for the next prologue instead. */
	bool rerequest = false;
	if (move && preempt) {
		if (fits) {
			move = false;
		} else {
			preempt = false;
			rerequest = true;
		}
	}
	if (move) {
		uint64_t newsize = gl_debug.stackforcemove ? oldsize : oldsize * 2;
		/* more doublings until the frame being entered fits above the band */
		while (newsize - used + SAVEDREGS_SIZE < need + GL_STACK_GUARD)
			newsize *= 2;
		if (newsize > maxstacksize) {
			printlock();
			prints("runtime: goroutine stack exceeds ");
			printuint(maxstacksize);
			prints("-byte limit\n");
			printstackat("runtime: sp=", sp, g->stack);
			printunlock();
			gl_throw("stack overflow");
		}
		casgstatus(g, Grunning, Gcopystack);
		copystack(g, newsize);
		casgstatus(g, Gcopystack, Grunning);
	}
	if (rerequest) {
		g->preempt = true;
		__atomic_store_n(&g->stackguard0, GL_STACK_PREEMPT, __ATOMIC_RELEASE);
	}
	g->preemptneed = preempt ? need : 0;
	if (preempt)
		gopreempt_m(g);
	return g->sched.sp;
}

/* Go's isShrinkStackSafe: whether g's stack may move now, from outside g.
 * Only at a synchronous safe point: g is switched out (sched.sp) at a
 * call — gopark, or the morestack of a preempted prologue — where every
 * address into its stack is in a data frame, a gobuf, a sudog or an
 * offset runtime C keeps (DESIGN.md S4).  Never while it runs (Grunning),
 * is in a system call (Gsyscall: the kernel may be writing into its
 * stack), is being copied, is dead, or was preempted asynchronously
 * (Gpreempted, or any status with g->asyncSafePoint: asyncPreempt
 * stopped it at an arbitrary instruction, its innermost C frame is
 * scanned conservatively and may hold stack addresses in registers, as
 * Go's asyncSafePoint; or g->runtimeCSafePoint: stopped inside runtime C
 * (an allocation's slow path, a map operation's entry),
 * below runtime C frames that gcc may address through saved registers),
 * nor between gopark and the unlockf that publishes
 * its sudogs (parkingOnChan: a sender may be writing through one without
 * the channel lock copystack would take), nor while it stops the world
 * or waits in forEachP (Gwaiting inside systemstack, proc.c: runtime C
 * frames below hold addresses into its stack). */
bool isShrinkStackSafe(G *g) {
	uint32_t s = readgstatus(g);
	return (s == Gwaiting || s == Grunnable) && g->sched.sp != 0 && !g->asyncSafePoint && !g->runtimeCSafePoint &&
	       __atomic_load_n(&g->parkingOnChan, __ATOMIC_ACQUIRE) == 0 &&
	       !(s == Gwaiting && (g->waitreason == waitReasonStoppingTheWorld ||
				   g->waitreason == waitReasonGarbageCollection));
}

/* Go's shrinkstack: halve the stack of a switched-out goroutine that uses
 * less than a quarter of it, never below GL_STACK_MIN.  "Uses" counts the
 * reserve band too, as Go adds its StackLimit: what runs below the guard
 * must still fit after the halving; and so does the data frame of a
 * function stopped at its prologue for a preemption (g->preemptneed),
 * which resumes past its check.  The caller stops the world (or, with
 * the collector, suspends g) and checks isShrinkStackSafe. */
void shrinkstack(G *g) {
	if (gl_debug.gcshrinkstackoff || !isShrinkStackSafe(g))
		return;
	uint64_t oldsize = g->stack.hi - g->stack.lo, newsize = oldsize / 2;
	if (newsize < GL_STACK_MIN)
		return;
	uint64_t used = g->stack.hi - g->sched.sp + GL_STACK_GUARD + g->preemptneed;
	if (used >= oldsize / 4)
		return;
	copystack(g, newsize);
}

/* Shrink every goroutine's stack that qualifies: runtime.GC (mgc.c) calls
 * it on g0 with the world stopped, so no goroutine changes state under
 * it; the one that called runtime.GC is running and keeps its stack. */
void shrinkstacks(void) {
	int64_t n;
	G **gs = atomicAllG(&n);
	for (int64_t i = 0; i < n; i++)
		shrinkstack(gs[i]);
}

/* ---- how big a new goroutine's stack starts (GLDEBUG=adaptivestackstart) ----
 *
 * A goroutine starts at GL_STACK_MIN (2 KiB) and doubles by copying as it
 * needs: one that recurses to 64 KiB pays five copies (2→4→8→16→32→64)
 * before it gets there, and so does every goroutine after it that does
 * the same.  Two ways to learn a better start, chosen by
 * GLDEBUG=adaptivestackstart:
 *
 *   1     Go 1.19's (GODEBUG=adaptivestackstart=1): at each collection's
 *         mark termination, every new goroutine's start becomes the
 *         average of the stack bytes in use that the mark found, plus the
 *         reserve band, rounded up to a power of two.  One size for the
 *         whole program, however different its goroutines are.
 *   site  gl's: learned per go statement (Go's open issues #18138,
 *         #61052), keyed by the statement's return address (G.gopc,
 *         which tracebacks' "created by" already uses).  A goroutine that
 *         ends records the size its stack grew to; the next goroutines of
 *         its statement start at that size.  One start in probeEvery
 *         starts small anyway and so measures what the statement's
 *         goroutines need now: its size replaces the learned one, so a
 *         statement whose goroutines stop recursing deep comes back down
 *         (a goroutine that started big cannot say how little it used).
 *         Runtime goroutines (no go statement) start at GL_STACK_MIN.
 *
 * 0 (the default, as Go's): every goroutine starts at GL_STACK_MIN. */

enum {
	goSites = 1024,             /* the table's entries; beyond, a statement is not learned */
	goSiteProbe = 8,            /* entries a lookup tries (linear probing) */
	probeEvery = 32,            /* one start in 32 per statement starts at GL_STACK_MIN:
				     * the copies that remain are about 1/32 of none's */
	siteStartMax = 256 << 10,   /* no statement's goroutines start bigger: past it the
				     * copies are a small part of the work of filling the stack */
};

/* A go statement's learned start.  pc is claimed once (CAS from 0) and
 * never changes; size and starts are read and written without a lock:
 * a lost update costs at most one goroutine a copy or some unused stack. */
typedef struct goSite {
	uintptr_t pc;    /* the go statement's gopc, or 0: a free entry */
	uint32_t size;   /* the start learned for it, 0 until one of its goroutines ends */
	uint32_t starts; /* goroutines started from it: every probeEvery-th is a probe */
} goSite;

static goSite gosites[goSites];

/* mode 1's start, set at mark termination */
static uint32_t startingStackSize = GL_STACK_MIN;

/* pc's entry, claimed if add and none is; NULL if the table is full there. */
static goSite *gositefind(uintptr_t pc, bool add) {
	uint64_t h = ((uint64_t)pc * 0x9e3779b97f4a7c15ull) >> 54; /* top 10 bits: goSites */
	for (int i = 0; i < goSiteProbe; i++) {
		goSite *s = &gosites[(h + (uint64_t)i) % goSites];
		uintptr_t cur = __atomic_load_n(&s->pc, __ATOMIC_ACQUIRE);
		if (cur == pc)
			return s;
		if (cur == 0) {
			if (!add)
				return NULL;
			if (__atomic_compare_exchange_n(&s->pc, &cur, pc, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
			    cur == pc)
				return s;
		}
	}
	return NULL;
}

/* The stack a goroutine of the go statement at gopc (0: the runtime's)
 * starts with (newprocpc). */
uint64_t stackstartsize(uintptr_t gopc) {
	if (gl_debug.adaptivestackstart == 1)
		return __atomic_load_n(&startingStackSize, __ATOMIC_RELAXED);
	if (gl_debug.adaptivestackstart != 2 || gopc == 0)
		return GL_STACK_MIN;
	goSite *s = gositefind(gopc, true);
	if (s == NULL)
		return GL_STACK_MIN;
	uint32_t n = __atomic_fetch_add(&s->starts, 1, __ATOMIC_RELAXED);
	uint32_t size = __atomic_load_n(&s->size, __ATOMIC_RELAXED);
	if (size == 0 || n % probeEvery == probeEvery - 1)
		return GL_STACK_MIN; /* a probe */
	return size;
}

/* gp ends (goexit0, before its stack is freed): what its stack grew to
 * is what its go statement's goroutines need.  A goroutine that started
 * at GL_STACK_MIN measured it (a probe, or one of the first); one that
 * started at the learned size can only say it needed more, and only if
 * it grew: one that ends at the size it started with says nothing, and
 * must not overwrite a probe that ended meanwhile (it started before the
 * probe's note, which a loaded machine delays: testdata/stackstats.py's
 * goroutines started at 248 KiB after 256 shallow ones, in 7 runs of 60
 * beside two CPU hogs, when this compared with the learned size). */
void stackstartnote(G *gp) {
	if (gl_debug.adaptivestackstart != 2 || gp->gopc == 0)
		return;
	goSite *s = gositefind(gp->gopc, false);
	if (s == NULL)
		return;
	uint64_t size = gp->stack.hi - gp->stack.lo;
	if (size > siteStartMax)
		size = siteStartMax;
	if (gp->stackstart == GL_STACK_MIN || size > gp->stackstart)
		__atomic_store_n(&s->size, (uint32_t)size, __ATOMIC_RELAXED);
}

/* Mark termination (mgc.c), mode 1: the average stack in use among the
 * n stacks the mark scanned (bytes in all), plus the reserve band,
 * rounded up to a power of two (Go's gcComputeStartingStackSize). */
void gcComputeStartingStackSize(uint64_t bytes, uint64_t n) {
	if (gl_debug.adaptivestackstart != 1)
		return;
	uint64_t avg = n == 0 ? GL_STACK_MIN : bytes / n + GL_STACK_GUARD, size = GL_STACK_MIN;
	if (avg > maxstacksize)
		avg = maxstacksize;
	while (size < avg)
		size *= 2;
	__atomic_store_n(&startingStackSize, (uint32_t)size, __ATOMIC_RELAXED);
}
