/*
 * exec_linux.c — starting a program: syscall.spawn, under syscall.ForkExec
 * (stdlib/syscall/exec.gl), os.StartProcess and os/exec.
 *
 * Go forks with clone(CLONE_VM|CLONE_VFORK) and runs its own code in the
 * child up to execve.  gl asks the C library's posix_spawn for the same:
 * glibc's starts the child on a stack of its own in the parent's memory
 * (clone with CLONE_VM|CLONE_VFORK), so nothing is copied and no lock of
 * another thread is inherited half-held; the parent's thread waits until
 * the child has exec'd or failed, and gets the failure's errno back (a
 * missing program is ENOENT here, not an exit status later).  The child
 * starts with every signal at its default action and none blocked: gl's
 * handlers and masks are the runtime's, not the program's.
 *
 * The call runs on g0 (libc needs more stack than a goroutine's reserve,
 * S7) and keeps the P, as Go's raw clone does: the wait is the child's
 * way to execve, short and not worth a hand-off.
 *
 * Descriptors: fds[i] is to become descriptor i of the child.  A plain
 * dup2(fds[i], i) could clobber a source not yet moved (fds = {1, 0} swaps
 * 0 and 1), so each source is first duplicated above every target
 * (F_DUPFD_CLOEXEC from nfds up), and the child's dup2s read only those
 * copies; dup2 clears close-on-exec on the target.  A target with no source
 * (-1) is closed in the child.  Every other descriptor of the parent is
 * close-on-exec (gl opens all of its own so), and goes at the exec.
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np, POSIX_SPAWN_SETSID */
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct spawnargs {
	const char *path;
	char *const *argv, *const *envv;
	const char *dir; /* NULL: the parent's */
	const int32_t *fds;
	int64_t nfds;
	bool setsid;
	int64_t pgid; /* < 0: the parent's process group */
	int64_t result; /* pid, or -errno */
} spawnargs;

/* The file actions and attributes of a, into fa and at; the copies of the
 * sources made in tmp (-1 where none).  Returns 0 or an errno. */
static int spawnsetup(spawnargs *a, posix_spawn_file_actions_t *fa, posix_spawnattr_t *at, int *tmp) {
	for (int64_t i = 0; i < a->nfds; i++) {
		tmp[i] = -1;
		if (a->fds[i] < 0) {
			if (posix_spawn_file_actions_addclose(fa, (int)i) != 0)
				return errno;
			continue;
		}
		tmp[i] = fcntl(a->fds[i], F_DUPFD_CLOEXEC, (int)a->nfds);
		if (tmp[i] < 0)
			return errno;
		int e = posix_spawn_file_actions_adddup2(fa, tmp[i], (int)i);
		if (e != 0)
			return e;
	}
	if (a->dir != NULL) {
		int e = posix_spawn_file_actions_addchdir_np(fa, a->dir);
		if (e != 0)
			return e;
	}
	sigset_t all, none;
	sigfillset(&all);
	sigemptyset(&none);
	short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
	posix_spawnattr_setsigdefault(at, &all);
	posix_spawnattr_setsigmask(at, &none);
	if (a->setsid)
		flags |= POSIX_SPAWN_SETSID;
	if (a->pgid >= 0) {
		flags |= POSIX_SPAWN_SETPGROUP;
		posix_spawnattr_setpgroup(at, (pid_t)a->pgid);
	}
	return posix_spawnattr_setflags(at, flags);
}

static void spawn_m(void *arg) {
	spawnargs *a = arg;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int *tmp = calloc((size_t)a->nfds + 1, sizeof *tmp);
	if (tmp == NULL) {
		a->result = -ENOMEM;
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	int e = spawnsetup(a, &fa, &at, tmp);
	pid_t pid = -1;
	if (e == 0)
		e = posix_spawn(&pid, a->path, &fa, &at, a->argv, a->envv);
	for (int64_t i = 0; i < a->nfds; i++)
		if (tmp[i] >= 0)
			close(tmp[i]);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(tmp);
	a->result = e != 0 ? -(int64_t)e : (int64_t)pid;
}

int64_t syscall_spawn(G *g, void *path, void *argv, void *envv, void *dir, void *fds, int64_t nfds, bool setsid,
		      int64_t pgid) {
	(void)g;
	spawnargs a = {path, argv, envv, dir, fds, nfds, setsid, pgid, 0};
	systemstack(spawn_m, &a);
	return a.result;
}
