/*
 * peakrss FILE PROG ARGS...: run PROG, write its peak resident set size
 * (KiB, from wait4) to FILE, and exit as it did.
 *
 * Why not wait4 in the Python scripts: Linux keeps ru_maxrss across
 * execve, and a child forked (or vforked) by Python starts from
 * Python's own resident set, 14-20 MiB here: every program smaller than
 * that showed Python's size (bench/gc's churn read 19.21 MiB for gl,
 * Boehm and Go alike).  Forked from this small program, the floor is
 * this program's size, about 1 MiB — as with /usr/bin/time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: peakrss FILE PROG ARGS...\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("peakrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("peakrss: wait4");
		return 2;
	}
	FILE *f = fopen(argv[1], "w");
	if (f == NULL || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
