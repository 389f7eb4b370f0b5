/*
 * asm_amd64.S — the stack switches of the scheduler (Go's asm_amd64.s):
 * gl_morestack, mcall, gogo, systemstack, gl_mstart and the goroutine start
 * trampoline gl_gostart.
 *
 * The current G lives in the TLS variable tls_g (proc.c); these routines
 * switch it together with rsp, so C code always sees getg() match the stack
 * it runs on.  Every switch away from a goroutine pushes the same block on
 * that goroutine's stack (rt.h, SAVEDREGS_*): rbp, rbx, r12–r15 (the
 * System V callee-saved registers, which gcc code keeps live across calls)
 * and the x87/SSE control words, and records in g->sched the sp of the
 * block, the return address and the caller's rbp.  The block starts with
 * push rbp; mov rsp,rbp, so it is also an ordinary frame record and the
 * saved-rbp chain runs through it.
 *
 * Stack alignment: every routine is entered by a call, with rsp = 8 mod 16;
 * after the seven 8-byte pushes of SAVEREGS rsp = 0 mod 16, so g->sched.sp
 * is 16-aligned, and a g0 sched.sp is too, so calls made there are aligned.
 */
#include "rt.h"

/* Push the register block.  rsp = 8 mod 16 on entry, 0 mod 16 after. */
.macro SAVEREGS
	pushq	%rbp			/* caller's frame pointer: head of the chain */
	movq	%rsp, %rbp		/* a frame record, for debuggers walking rbp */
	pushq	%rbx			/* callee-saved registers, live in the caller */
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp		/* room for the two control words */
	stmxcsr	4(%rsp)			/* SSE rounding/exception control */
	fnstcw	(%rsp)			/* x87 control word */
.endm

/* Pop the block pushed by SAVEREGS; rsp must point at it. */
.macro RESTOREREGS
	ldmxcsr	4(%rsp)			/* SSE control */
	fldcw	(%rsp)			/* x87 control */
	addq	$8, %rsp		/* drop the control words */
	popq	%r15			/* callee-saved registers */
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp			/* frame pointer (adjusted if the stack moved) */
.endm

/* g->sched = {sp: rsp, pc: return address, bp: caller's rbp}.  g in \g;
 * uses rax. */
.macro SAVESCHED g
	movq	%rsp, G_sched_sp(\g)		/* the block: where to resume */
	movq	SAVEDREGS_PC(%rsp), %rax	/* return address into the caller */
	movq	%rax, G_sched_pc(\g)
	movq	SAVEDREGS_RBP(%rsp), %rax	/* the caller's frame pointer */
	movq	%rax, G_sched_bp(\g)
.endm

/* tls_g = \reg, using \tmp (initial-exec TLS, as the C side declares). */
.macro SETG reg, tmp
	movq	tls_g@gottpoff(%rip), \tmp	/* offset of tls_g from %fs base */
	movq	\reg, %fs:(\tmp)		/* store the new current G */
.endm

/* \reg = tls_g, using \tmp. */
.macro GETG reg, tmp
	movq	tls_g@gottpoff(%rip), \tmp	/* offset of tls_g from %fs base */
	movq	%fs:(\tmp), \reg		/* load the current G */
.endm

	.text

/*
 * void gl_morestack(G *g)
 * Called from a function prologue whose check failed (GL_STACKCHECK).
 * Saves the caller's registers on the goroutine stack, runs
 * newstack(g, sp) on the M's g0 stack — it copies the stack to a larger
 * one, or handles a preemption request — and resumes on the stack at the
 * sp newstack returns.  The caller's frame moved with the stack; its rbp
 * comes back from the (adjusted) rbp slot of the block.
 */
	.globl	gl_morestack
	.type	gl_morestack, @function
gl_morestack:
	movq	$-1, %rsi			/* need: from the caller's descriptor */
	/* fall through */

/*
 * void gl_morestackneed(G *g, uintptr_t need)
 * gl_morestack for runtime C that calls into gl code or needs more of the
 * stack than the reserve band: the stack is grown until `need` bytes are
 * free above stackguard0 below the caller's frame (newstack cannot look
 * the need up: runtime C has no descriptor).  The caller's C locals that
 * point into the stack are stale afterwards, as after any call into gl
 * code; pointer parameters are fixed with GL_FIXPARAM.
 */
	.globl	gl_morestackneed
	.type	gl_morestackneed, @function
gl_morestackneed:
	SAVEREGS
	movq	%rdi, %rbx			/* rbx = g, kept across newstack */
	SAVESCHED %rdi				/* g->sched: the goroutine's state */
	movq	%rsi, %rdx			/* arg 3: need */
	movq	%rsp, %rsi			/* arg 2: sp of the block */
	movq	G_m(%rdi), %rax			/* g->m */
	movq	M_g0(%rax), %rax		/* g->m->g0 */
	SETG	%rax, %rcx			/* now running as g0 */
	movq	G_sched_sp(%rax), %rsp		/* onto g0's stack */
	call	newstack			/* rax = sp on the (new) stack */
	movq	%rax, %rsp			/* back on the goroutine stack */
	SETG	%rbx, %rcx			/* running as g again */
	movq	$0, G_sched_sp(%rbx)		/* g->sched no longer describes g */
	RESTOREREGS
	ret					/* into the caller, on the new stack */
	.size	gl_morestackneed, .-gl_morestackneed
	.size	gl_morestack, .-gl_morestack

/*
 * void mcall(void (*fn)(G *))
 * Saves the current goroutine's state in g->sched, switches to g0's stack
 * and calls fn(g) there.  fn must not return: it ends in schedule(), and
 * the goroutine resumes, when gogo restores g->sched, as if mcall had
 * returned.
 */
	.globl	mcall
	.type	mcall, @function
mcall:
	SAVEREGS
	movq	%rdi, %r11			/* r11 = fn */
	GETG	%rdi, %rcx			/* rdi = g: fn's argument */
	SAVESCHED %rdi				/* where the goroutine resumes */
	movq	G_m(%rdi), %rax			/* g->m */
	movq	M_g0(%rax), %rax		/* g->m->g0 */
	cmpq	%rax, %rdi			/* mcall on g0 is a bug */
	je	1f
	SETG	%rax, %rcx			/* now running as g0 */
	movq	G_sched_sp(%rax), %rsp		/* onto g0's stack */
	xorl	%ebp, %ebp			/* g0's frames do not chain to g's */
	call	*%r11				/* fn(g) */
	call	badmcall2			/* fn returned: fatal */
1:	call	badmcall			/* fatal */
	ud2
	.size	mcall, .-mcall

/*
 * void gogo(Gobuf *buf)
 * Resumes the goroutine whose state buf holds: the block at buf->sp, then
 * the return address above it.  The caller has already set tls_g to the
 * goroutine (execute).  buf->sp is cleared: g->sched describes a goroutine
 * only while it is switched out.
 */
	.globl	gogo
	.type	gogo, @function
gogo:
	movq	Gobuf_sp(%rdi), %rsp		/* the goroutine's stack, at the block */
	movq	$0, Gobuf_sp(%rdi)		/* no longer switched out */
	RESTOREREGS
	ret					/* into the goroutine */
	.size	gogo, .-gogo

/*
 * void systemstack(void (*fn)(void *), void *arg)
 * Runs fn(arg) on the M's g0 stack and returns on the goroutine's stack,
 * which must not move meanwhile (the caller is C that may hold pointers to
 * it).  On g0 or the signal stack already, just calls fn.  g->sched
 * describes the goroutine while fn runs, so fn can print its traceback.
 */
	.globl	systemstack
	.type	systemstack, @function
systemstack:
	GETG	%rax, %rcx			/* rax = g */
	movq	G_m(%rax), %rdx			/* rdx = g->m */
	cmpq	%rax, M_gsignal(%rdx)		/* on the signal stack: */
	je	2f				/*   call directly */
	movq	M_g0(%rdx), %rdx		/* rdx = g0 */
	cmpq	%rax, %rdx			/* on g0 already: */
	je	2f				/*   call directly */
	SAVEREGS
	movq	%rax, %rbx			/* rbx = g, kept across fn */
	SAVESCHED %rbx				/* for tracebacks of g from g0 */
	SETG	%rdx, %rcx			/* now running as g0 */
	movq	G_sched_sp(%rdx), %rsp		/* onto g0's stack */
	movq	%rdi, %rax			/* rax = fn */
	movq	%rsi, %rdi			/* arg */
	call	*%rax				/* fn(arg) */
	movq	G_sched_sp(%rbx), %rsp		/* back to g's stack (it did not move) */
	movq	$0, G_sched_sp(%rbx)		/* g runs again */
	SETG	%rbx, %rcx			/* running as g again */
	RESTOREREGS
	ret
2:	movq	%rdi, %rax			/* rax = fn */
	movq	%rsi, %rdi			/* arg */
	jmp	*%rax				/* tail call: fn returns to our caller */
	.size	systemstack, .-systemstack

/*
 * void asmcgocall(void (*fn)(void *), void *arg)
 * Go's asmcgocall: runs fn(arg) — C code, through libffi (ffi.c) — on the
 * M's g0 stack and returns on the goroutine's.  Unlike systemstack it
 * leaves g->sched alone: the caller is in a system call (entersyscall),
 * and g->sched says where its frames are for tracebacks and the
 * collector.  C may call back into gl (cgocallback below), and the
 * callback may move the goroutine's stack: so the way back is kept as
 * stack.hi - sp, on g0 at g0.sched.sp - 8, where cgocallback finds it.
 * On g0 already, just calls fn.
 */
	.globl	asmcgocall
	.type	asmcgocall, @function
asmcgocall:
	pushq	%rbp				/* a frame record; rsp = 0 mod 16 */
	movq	%rsp, %rbp
	pushq	%rbx				/* callee-saved, ours to use */
	pushq	%r12				/* rsp = 0 mod 16 again */
	GETG	%rbx, %rcx			/* rbx = g */
	movq	G_m(%rbx), %rdx			/* rdx = g->m */
	movq	M_g0(%rdx), %rdx		/* rdx = g0 */
	movq	%rdi, %rax			/* rax = fn */
	movq	%rsi, %rdi			/* fn's argument */
	cmpq	%rbx, %rdx			/* on g0 already: */
	je	1f				/*   call on this stack */
	movq	G_stack_hi(%rbx), %r12
	subq	%rsp, %r12			/* r12 = stack.hi - sp */
	SETG	%rdx, %rcx			/* now running as g0 */
	movq	G_sched_sp(%rdx), %rsp		/* onto g0's stack (0 mod 16) */
	pushq	%r12				/* at g0.sched.sp - 8: cgocallback's */
	pushq	%rbx				/* g; rsp = 0 mod 16 */
	call	*%rax				/* fn(arg) */
	popq	%rbx				/* g */
	popq	%r12				/* stack.hi - sp */
	SETG	%rbx, %rcx			/* running as g again */
	movq	G_stack_hi(%rbx), %rsp		/* back to the goroutine's stack, */
	subq	%r12, %rsp			/*   wherever it is now */
	jmp	2f
1:	call	*%rax				/* fn(arg), on g0 */
2:	popq	%r12
	popq	%rbx
	popq	%rbp				/* moved with the stack: a link of the chain */
	ret
	.size	asmcgocall, .-asmcgocall

/*
 * void cgocallback(G *gp, void (*fn)(G *, void *), void *arg)
 * Go's cgocallback: C that gl called through asmcgocall calls back into
 * gl (an ffi.Callback closure, ffi.c's callback_m, on g0): fn(gp, arg)
 * runs on gp's stack, below asmcgocall's frame, and returns to C on g0.
 * While it runs, g0.sched.sp is moved below the C frames, so that mcall
 * and systemstack, which start at g0.sched.sp, leave them alone.  A frame
 * record on the goroutine stack links fn's frames to asmcgocall's, so the
 * saved-rbp chain that copystack adjusts and tracebacks follow runs
 * unbroken through the C call.
 */
	.globl	cgocallback
	.type	cgocallback, @function
cgocallback:
	pushq	%rbp				/* rsp = 0 mod 16 */
	movq	%rsp, %rbp
	pushq	%rbx				/* callee-saved registers we use */
	pushq	%r12
	pushq	%r13
	pushq	%r14				/* rsp = 0 mod 16 */
	GETG	%r12, %rcx			/* r12 = g0 */
	movq	G_sched_sp(%r12), %rax
	pushq	%rax				/* g0.sched.sp, restored below */
	movq	-8(%rax), %rax			/* rax = stack.hi - sp, from asmcgocall */
	subq	$8, %rsp			/* rsp = 0 mod 16 */
	movq	%rsp, G_sched_sp(%r12)		/* g0 is used below here meanwhile */
	movq	%rsp, %r13			/* r13 = our place on g0 */
	movq	%rdi, %rbx			/* rbx = gp */
	movq	%rsi, %r14			/* r14 = fn */
	movq	G_stack_hi(%rbx), %rcx
	subq	%rax, %rcx			/* rcx = gp's sp in asmcgocall (0 mod 16) */
	leaq	16(%rcx), %r8			/* r8 = asmcgocall's frame record */
	movq	%rcx, %rsp			/* onto gp's stack, below that frame */
	leaq	3f(%rip), %rax
	pushq	%rax				/* a frame record: a return address */
	pushq	%r8				/*   and the link to asmcgocall's */
	movq	%rsp, %rbp			/* rsp = 0 mod 16 */
	SETG	%rbx, %rcx			/* running as gp */
	movq	%rbx, %rdi			/* fn(gp, arg) */
	movq	%rdx, %rsi
	call	*%r14
3:	SETG	%r12, %rcx			/* g0 again */
	movq	%r13, %rsp			/* back on g0, below the C frames */
	addq	$8, %rsp
	popq	G_sched_sp(%r12)		/* g0.sched.sp as it was */
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	cgocallback, .-cgocallback

/*
 * void gl_mstart(void (*fn)(void))
 * Called on an M's g0 stack with tls_g = g0.  Records the sp below which
 * g0's stack is scratch — every later switch to g0 starts there — and calls
 * fn (the scheduler), which never returns.
 */
	.globl	gl_mstart
	.type	gl_mstart, @function
gl_mstart:
	pushq	%rbp				/* a frame record; rsp = 0 mod 16 */
	movq	%rsp, %rbp
	GETG	%rax, %rcx			/* rax = g0 */
	movq	%rsp, G_sched_sp(%rax)		/* g0 restarts here */
	call	*%rdi				/* fn() */
	ud2					/* fn returned */
	.size	gl_mstart, .-gl_mstart

/*
 * void gl_mexit(G *g0)
 * Ends an M's scheduling loop: back on g0's stack where gl_mstart saved
 * it (g0->sched.sp: gl_mstart's frame record), and return from gl_mstart
 * to the thread's start function, which lets the thread exit (proc.c's
 * mexit; Go's mstart returning into mexit).
 */
	.globl	gl_mexit
	.type	gl_mexit, @function
gl_mexit:
	movq	G_sched_sp(%rdi), %rsp		/* gl_mstart's frame on g0 */
	popq	%rbp				/* its caller's frame pointer */
	ret					/* "return" from gl_mstart */
	.size	gl_mexit, .-gl_mexit

/*
 * gl_gostart: where a new goroutine starts, reached by gogo's ret from the
 * block newproc1 built: rbx = g, r12 = fn, r13 = arg, rbp = 0 (so the
 * saved-rbp chain ends at the goroutine's first frame), rsp = 0 mod 16.
 * When fn returns the goroutine is done: goexit1 (Go's goexit frame).
 */
	.globl	gl_gostart
	.type	gl_gostart, @function
gl_gostart:
	movq	%rbx, %rdi			/* fn(g, arg) */
	movq	%r13, %rsi
	call	*%r12
	call	goexit1				/* never returns */
	ud2
	.size	gl_gostart, .-gl_gostart

/*
 * void gl_clearvectors(int32_t regs)
 * Zero the vector registers, for an M about to sleep (proc.c's mPark, in
 * the Boehm build): Boehm stops a thread with a signal and scans the
 * signal frame, and the frame holds the thread's vector registers — an M
 * that last copied a pointer with SSE moves (gcc copies 16-byte structs
 * that way) would keep the object alive for as long as it sleeps.  A call
 * leaves every vector register dead (System V: all are caller-saved), so
 * zeroing them here changes nothing for the caller.  regs says what the CPU
 * and kernel have (proc.c's cpuinit): 0, xmm0–15; 1, ymm0–15 (AVX); 2,
 * zmm0–31 (AVX-512).  The control words (mxcsr, x87) are not touched.
 */
	.text
	.globl	gl_clearvectors
	.type	gl_clearvectors, @function
gl_clearvectors:
	testl	%edi, %edi
	jnz	1f
	.irp	r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	pxor	%xmm\r, %xmm\r			/* SSE only: the 16 xmm registers */
	.endr
	ret
1:	vzeroall				/* AVX: all of ymm0–15 (and zmm0–15) */
	cmpl	$2, %edi
	jne	2f
	.irp	r, 16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	vpxord	%ymm\r, %ymm\r, %ymm\r		/* AVX-512: zmm16–31, which vzeroall leaves */
	.endr					/* alone (an EVEX write of ymm zeroes the rest) */
2:	ret
	.size	gl_clearvectors, .-gl_clearvectors

	.section .note.GNU-stack,"",@progbits

/* runtime.Breakpoint(G *g): int3, which the SIGTRAP handler reports
 * (signal_linux.c).  In asm for its frame record: the traceback then
 * shows its caller, as Go's does. */
	.text
	.globl	runtime_Breakpoint
	.type	runtime_Breakpoint, @function
runtime_Breakpoint:
	pushq	%rbp
	movq	%rsp, %rbp
	int3
	popq	%rbp
	ret
	.size	runtime_Breakpoint, .-runtime_Breakpoint
