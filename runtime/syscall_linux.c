/*
 * syscall_linux.c — the system calls of package syscall
 * (stdlib/syscall/syscall.gl): RawSyscall, RawSyscall6, Syscall,
 * Syscall6.  Raw system calls, no libc: each is a leaf that runs on the
 * goroutine stack.
 *
 * Syscall differs from RawSyscall in Go by entersyscall/exitsyscall
 * around the call: the P is marked Psyscall, sysmon's retake hands it to
 * another M if the call blocks for more than 20 µs (handoffp), and
 * exitsyscall gets a P back (the same one if it is still free).  That is
 * the syscalls issue; here both forms are the same, and a blocking
 * Syscall keeps its P for as long as it blocks — with GLMAXPROCS=1 no
 * other goroutine runs meanwhile.  The two calls marked below are where
 * entersyscall and exitsyscall go.
 */
#include "rt.h"

/* (r1, r2 uintptr, err Errno): 24 bytes, returned through out */
typedef struct sysresult {
	uintptr_t r1, r2, err;
} sysresult;

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

void syscall_Syscall(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3) {
	(void)g;
	/* entersyscall() goes here (the syscalls issue) */
	long r = rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, 0, 0, 0);
	/* exitsyscall() goes here */
	result(out, r);
}

void syscall_Syscall6(G *g, sysresult *out, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3,
		      uintptr_t a4, uintptr_t a5, uintptr_t a6) {
	(void)g;
	/* entersyscall() goes here (the syscalls issue) */
	long r = rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, (long)a4, (long)a5, (long)a6);
	/* exitsyscall() goes here */
	result(out, r);
}
