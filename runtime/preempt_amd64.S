/*
 * preempt_amd64.S — asyncPreempt, the function a SIGURG handler makes a
 * goroutine "call" at an asynchronous safe point (Go's preempt_amd64.s).
 *
 * The handler (preempt.c, sigpreempt) found the interrupted pc in generated
 * code, with room on the goroutine stack, and rewrote the signal context:
 *
 *	rsp = interrupted rsp - 128 - 8, [rsp] = interrupted pc, rip = asyncPreempt
 *
 * The 128 bytes are the System V red zone: the interrupted function, if it
 * is a leaf, may keep values below its rsp there (Go's ABI has none, so Go
 * pushes the pc right below rsp).  `ret $128` at the end pops the pc and
 * gives the red zone back, so the goroutine resumes with every register,
 * the flags and rsp exactly as they were.
 *
 * Unlike mcall, which is called and saves only what the C ABI says a callee
 * must keep, this interrupts arbitrary code: it saves all fourteen
 * general-purpose registers that are not rsp or rbp, the flags, xmm0–15
 * and the SSE/x87 control words.  Generated code is built for the x86-64
 * baseline (GL_CFLAGS has no -m flags), so it keeps no values in the upper
 * halves of ymm/zmm registers or in zmm16–31; libc code that does is never
 * interrupted here (not a safe point).
 *
 * The save area (AR_* below) is what the collector scans conservatively,
 * with the red zone and the interrupted function's own frame:
 * asyncPreempt2 records its address in g->asyncregs (preempt.c).
 * It is 16-aligned, so the call into C is aligned whatever rsp was.
 */

/* save area: 14 GPRs, 16 xmm registers, the two control words */
#define AR_GPR 0          /* rax rbx rcx rdx rsi rdi r8 ... r15: 14 x 8 */
#define AR_XMM 112        /* xmm0 ... xmm15: 16 x 16 */
#define AR_MXCSR 368      /* 4 bytes */
#define AR_FCW 372        /* 2 bytes */
#define AR_RBP 376        /* asyncPreempt's own rbp: where the frame record is */
#define AR_SIZE 384       /* rounded to 16 */

	.text
	.globl	asyncPreempt
	.type	asyncPreempt, @function
asyncPreempt:
	pushq	%rbp			/* a frame record: [rbp] = interrupted rbp, */
	movq	%rsp, %rbp		/*   [rbp+8] = interrupted pc (the chain goes on) */
	pushfq				/* flags first: sub/and below change them */
	subq	$AR_SIZE, %rsp		/* the save area ... */
	andq	$-16, %rsp		/* ... 16-aligned: the C call below is aligned */
	movq	%rax, AR_GPR+0(%rsp)	/* general-purpose registers */
	movq	%rbx, AR_GPR+8(%rsp)
	movq	%rcx, AR_GPR+16(%rsp)
	movq	%rdx, AR_GPR+24(%rsp)
	movq	%rsi, AR_GPR+32(%rsp)
	movq	%rdi, AR_GPR+40(%rsp)
	movq	%r8, AR_GPR+48(%rsp)
	movq	%r9, AR_GPR+56(%rsp)
	movq	%r10, AR_GPR+64(%rsp)
	movq	%r11, AR_GPR+72(%rsp)
	movq	%r12, AR_GPR+80(%rsp)
	movq	%r13, AR_GPR+88(%rsp)
	movq	%r14, AR_GPR+96(%rsp)
	movq	%r15, AR_GPR+104(%rsp)
	movups	%xmm0, AR_XMM+0(%rsp)	/* vector registers (movups: no alignment needed) */
	movups	%xmm1, AR_XMM+16(%rsp)
	movups	%xmm2, AR_XMM+32(%rsp)
	movups	%xmm3, AR_XMM+48(%rsp)
	movups	%xmm4, AR_XMM+64(%rsp)
	movups	%xmm5, AR_XMM+80(%rsp)
	movups	%xmm6, AR_XMM+96(%rsp)
	movups	%xmm7, AR_XMM+112(%rsp)
	movups	%xmm8, AR_XMM+128(%rsp)
	movups	%xmm9, AR_XMM+144(%rsp)
	movups	%xmm10, AR_XMM+160(%rsp)
	movups	%xmm11, AR_XMM+176(%rsp)
	movups	%xmm12, AR_XMM+192(%rsp)
	movups	%xmm13, AR_XMM+208(%rsp)
	movups	%xmm14, AR_XMM+224(%rsp)
	movups	%xmm15, AR_XMM+240(%rsp)
	stmxcsr	AR_MXCSR(%rsp)		/* SSE rounding/exception control */
	fnstcw	AR_FCW(%rsp)		/* x87 control word */
	movq	%rbp, AR_RBP(%rsp)	/* for the conservative scan: the frame record */
	cld				/* the C ABI wants DF clear at a call */
	movq	%rsp, %rdi		/* asyncPreempt2(the save area) */
	call	asyncPreempt2		/* parks; returns when the G runs again */
	.globl	asyncPreemptRet		/* its return address: tracebacks know the */
asyncPreemptRet:			/*   frame above is an interrupted one */
	ldmxcsr	AR_MXCSR(%rsp)		/* control words */
	fldcw	AR_FCW(%rsp)
	movups	AR_XMM+0(%rsp), %xmm0	/* vector registers */
	movups	AR_XMM+16(%rsp), %xmm1
	movups	AR_XMM+32(%rsp), %xmm2
	movups	AR_XMM+48(%rsp), %xmm3
	movups	AR_XMM+64(%rsp), %xmm4
	movups	AR_XMM+80(%rsp), %xmm5
	movups	AR_XMM+96(%rsp), %xmm6
	movups	AR_XMM+112(%rsp), %xmm7
	movups	AR_XMM+128(%rsp), %xmm8
	movups	AR_XMM+144(%rsp), %xmm9
	movups	AR_XMM+160(%rsp), %xmm10
	movups	AR_XMM+176(%rsp), %xmm11
	movups	AR_XMM+192(%rsp), %xmm12
	movups	AR_XMM+208(%rsp), %xmm13
	movups	AR_XMM+224(%rsp), %xmm14
	movups	AR_XMM+240(%rsp), %xmm15
	movq	AR_GPR+0(%rsp), %rax	/* general-purpose registers */
	movq	AR_GPR+8(%rsp), %rbx
	movq	AR_GPR+16(%rsp), %rcx
	movq	AR_GPR+24(%rsp), %rdx
	movq	AR_GPR+32(%rsp), %rsi
	movq	AR_GPR+40(%rsp), %rdi
	movq	AR_GPR+48(%rsp), %r8
	movq	AR_GPR+56(%rsp), %r9
	movq	AR_GPR+64(%rsp), %r10
	movq	AR_GPR+72(%rsp), %r11
	movq	AR_GPR+80(%rsp), %r12
	movq	AR_GPR+88(%rsp), %r13
	movq	AR_GPR+96(%rsp), %r14
	movq	AR_GPR+104(%rsp), %r15
	leaq	-8(%rbp), %rsp		/* back to the flags (lea leaves them alone) */
	popfq				/* flags, after the last flag-changing instruction */
	popq	%rbp			/* the interrupted frame pointer */
	ret	$128			/* to the interrupted pc; rsp += 128: the red zone */
	.size	asyncPreempt, .-asyncPreempt

	.section .note.GNU-stack,"",@progbits
