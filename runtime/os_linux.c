/* os_linux.c — the functions package os declares without a body.
 *
 * They are called from generated code with its calling convention (G *g
 * first; results of more than 16 bytes through an out-pointer), on the
 * goroutine stack: each is a small leaf (S7).
 */
#include <stdlib.h>
#include <unistd.h>

#include "gl.h"

extern int gl_argc;
extern char **gl_argv;

static GlString cstring(const char *s) {
	return (GlString){(const uint8_t *)s, (int64_t)strlen(s)};
}

/* os.Args: the strings point at the process's own argv, which lives as
 * long as the process; only the slice is allocated. */
void os_runtimeArgs(G *g, GlSlice *out) {
	(void)g;
	GlString *a = mallocgc((uint64_t)gl_argc * sizeof(GlString), NULL, true);
	for (int i = 0; i < gl_argc; i++)
		a[i] = cstring(gl_argv[i]);
	*out = (GlSlice){a, gl_argc, gl_argc};
}

void os_Exit(G *g, int64_t code) {
	(void)g;
	_exit((int)code);
}

/* The key is copied to the heap, not the goroutine stack, to be NUL
 * terminated; getenv itself is a small leaf. */
GlString os_Getenv(G *g, GlString key) {
	(void)g;
	if (key.len <= 0 || memchr(key.ptr, 0, (size_t)key.len))
		return (GlString){0};
	char *name = mallocgc((uint64_t)key.len + 1, NULL, false);
	memcpy(name, key.ptr, (size_t)key.len);
	name[key.len] = 0;
	const char *v = getenv(name);
	return v ? cstring(v) : (GlString){0};
}

int64_t os_Getpid(G *g) {
	(void)g;
	return (int64_t)getpid();
}
