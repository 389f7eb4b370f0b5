#!/bin/sh
# testdata/syscalls.sh — blocking system calls and the netpoller, what
# testdata/run cannot say with a golden file checked against Go 1.19 too
# (run.py and sched.sh already run syscall_block, syscall_threads,
# thread_limit and the ospipe_* programs there):
#   1. testdata/runtime/netpoll_*.gl against their .out (and .exit): a
#      deadlock on channels after goroutines used the netpoller is still
#      reported (Go 1.19 hangs on this program instead, as observed here;
#      not in testdata/run for that reason), at GLMAXPROCS=1, 2 and 4 and with
#      GLDEBUG=stackforcemove=1;
#   2. SIGQUIT while goroutines sit in read(2) on raw pipes (Gsyscall): the
#      dump shows them as "[syscall]" with their gl frames, and the process
#      exits with status 2.
# Every program runs under timeout: a hang is a failure, never a wait.
. "$(dirname "$0")/testlib.sh"

# 1. testdata/runtime/netpoll_*.gl
for src in "$top_srcdir"/testdata/runtime/netpoll_*.gl; do
	n=$(basename "$src" .gl)
	build "$n" "$src" || continue
	for env in GLMAXPROCS=1 GLMAXPROCS=2 GLMAXPROCS=4 GLDEBUG=stackforcemove=1; do
		check "$n" "$src" 60 "$env GLTRACEBACK=none"
	done
done

# 2. the SIGQUIT dump of goroutines in system calls
if build dump "$top_srcdir/testdata/runtime/syscall_dump.gl"; then
	sigquitdump dump
	n=$(grep -c '^goroutine [0-9]* \[syscall' "$tmp/dump.out")
	f=$(grep -c '^main\.blockedReader(' "$tmp/dump.out")
	if [ $rc -eq 2 ] && [ "$n" -ge 3 ] && [ "$f" -ge 3 ]; then
		echo "ok   SIGQUIT dump: $n goroutines in [syscall], $f blockedReader frames"
	else
		fail "SIGQUIT dump: exit $rc, $n goroutines in [syscall], $f blockedReader frames (want 2, 3, 3)"
		head -40 "$tmp/dump.out" | sed 's/^/    /'
	fi
fi
exit $status
