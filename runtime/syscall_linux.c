/*
 * syscall_linux.c — the system calls of package syscall
 * (stdlib/syscall/syscall.gl): RawSyscall, RawSyscall6, Syscall,
 * Syscall6.  Raw system calls, no libc: each is a leaf that runs on the
 * goroutine stack.
 *
 * Syscall differs from RawSyscall, as in Go, by entersyscall/exitsyscall
 * around the call (proc.c): the P is marked Psyscall, sysmon's retake
 * hands it to another M if the call blocks for more than a sysmon tick
 * (handoffp), and exitsyscall gets a P back (the same one if it is still
 * free).  RawSyscall keeps its P: a RawSyscall that blocks stops every
 * goroutine of that P, with GLMAXPROCS=1 all of them.  Each is noinline,
 * so that ENTERSYSCALL sees the generated caller's frame right above.
 */
#include "rt.h"

/* (r1, r2 uintptr, err Errno): 24 bytes, returned through out (glc's
 * tuple: runtime/contract.h) */
typedef struct gltuple_uintptr_uintptr_syscall_Errno sysresult;

static inline void result(sysresult *out, long r) {
	if ((unsigned long)r > -4096UL)
		*out = (sysresult){(uintptr_t)-1, 0, (uintptr_t)-r};
	else
		*out = (sysresult){(uintptr_t)r, 0, 0};
}

void syscall_RawSyscall(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3) {
	(void)g;
	result(out, rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, 0, 0, 0));
}

void syscall_RawSyscall6(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3,
			 uintptr_t a4, uintptr_t a5, uintptr_t a6) {
	(void)g;
	result(out, rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, (long)a4, (long)a5, (long)a6));
}

GL_NOINLINE void syscall_Syscall(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3) {
	(void)g;
	ENTERSYSCALL();
	long r = rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, 0, 0, 0);
	exitsyscall();
	result(out, r);
}

GL_NOINLINE void syscall_Syscall6(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2,
				  uintptr_t a3, uintptr_t a4, uintptr_t a5, uintptr_t a6) {
	(void)g;
	ENTERSYSCALL();
	long r = rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, (long)a4, (long)a5, (long)a6);
	exitsyscall();
	result(out, r);
}
