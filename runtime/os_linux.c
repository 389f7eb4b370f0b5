/* os_linux.c — the functions packages os and syscall declare without a
 * body (syscall's environment: env.gl).
 *
 * They are called from generated code with its calling convention (G *g
 * first; results of more than 16 bytes through an out-pointer), on the
 * goroutine stack: each is a small leaf (S7).
 */
#include <stdlib.h>
#include <unistd.h>

#include "rt.h"

extern int gl_argc;
extern char **gl_argv;

static GlString cstring(const char *s) {
	return (GlString){(const uint8_t *)s, (int64_t)strlen(s)};
}

/* os.Args: the strings point at the process's own argv, which lives as
 * long as the process; only the slice is allocated.  Its array is typed
 * ([]string's): a program may store its own strings into os.Args, and
 * the collector must see them (untyped, the array was noscan, and a
 * string stored there was freed under it). */
void os_runtimeArgs(G *g, GlSlice *out) {
	(void)g;
	GlString *a = mallocgc((uint64_t)gl_argc * sizeof(GlString), &gltype_rtstring, true);
	for (int i = 0; i < gl_argc; i++)
		a[i] = cstring(gl_argv[i]);
	*out = (GlSlice){a, gl_argc, gl_argc};
}

/* runtime.GOROOT: GOROOT as the process started with it (read once by
 * gorootinit, at start-up: getenv is libc, too deep for a goroutine's
 * stack band), else the toolchain's root glc wrote into the program
 * (gl_defaultGOROOT; weak: a C test of the runtime has none). */
extern const char gl_defaultGOROOT[] __attribute__((weak));
static const char *startGOROOT;

void gorootinit(void) {
	const char *s = getenv("GOROOT");
	startGOROOT = s != NULL && *s != 0 ? s : NULL;
}

GlString runtime_GOROOT(G *g) {
	(void)g;
	const char *s = startGOROOT;
	if (s == NULL)
		s = gl_defaultGOROOT != NULL ? gl_defaultGOROOT : "";
	return cstring(s);
}

static void traceexit_m(void *arg) {
	(void)arg;
	traceExit();
}

void os_Exit(G *g, int64_t code) {
	(void)g;
	if (trace_on) /* _exit skips atexit, where the trace is written */
		systemstack(traceexit_m, NULL);
	_exit((int)code);
}

int64_t os_Getpid(G *g) {
	(void)g;
	return (int64_t)getpid();
}

/* syscall.runtime_envs (Go's runtime_envs, stdlib/syscall/env.gl): the
 * process's environment as the kernel passed it (after argv's terminating
 * NULL); syscall keeps its own copy from here on, as Go's syscall.envs, so
 * Setenv never calls libc.  Package os and package time read that copy. */
void syscall_runtime_envs(G *g, GlSlice *out) {
	(void)g;
	char **envp = gl_argv + gl_argc + 1;
	int64_t n = 0;
	while (envp[n] != NULL)
		n++;
	GlString *a = mallocgc((uint64_t)n * sizeof(GlString), &gltype_rtstring, true); /* typed, as os.Args' */
	for (int64_t i = 0; i < n; i++)
		a[i] = cstring(envp[i]);
	*out = (GlSlice){a, n, n};
}

/* os.syscall6: a Linux system call, as Go's syscall.Syscall6 (os.File
 * I/O goes through it); the result is the kernel's (a negative errno on
 * failure).  Around the call entersyscall/exitsyscall (proc.c): a call
 * that blocks (a read of a terminal, a regular file on a slow disk) lets
 * sysmon hand the P to another thread.  Pipes from os.Pipe never block
 * here: they are non-blocking and wait in the netpoller (stdlib/os). */
GL_NOINLINE uintptr_t os_syscall6(G *g, uintptr_t trap, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4,
				  uintptr_t a5, uintptr_t a6) {
	(void)g;
	ENTERSYSCALL();
	long ret = rawsyscall6((long)trap, (long)a1, (long)a2, (long)a3, (long)a4, (long)a5, (long)a6);
	exitsyscall();
	return (uintptr_t)ret;
}
