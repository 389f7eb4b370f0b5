#!/bin/sh
# The concurrency programs of testdata/run (those whose header says
# `// run sched`, testdata/README.md) again under GLMAXPROCS=1, 2, 4 and 8
# (run.py runs every program with the default, the CPUs of the affinity
# mask), and once more with 4 Ps and every stack moved at every
# function entry and at every park (GLDEBUG=stackforcemove=1).  Each
# program has run.py's time limit: a hang is reported, not waited for.
# Every run checks the runtime's lock order (GLDEBUG=lockrank=1,
# runtime/lockrank.c): these programs nest the scheduler's locks most.
# At 2 Ps goroutines start with stacks learned per go statement, at 8 with
# Go's average (GLDEBUG=adaptivestackstart=site and =1, runtime/stack.c):
# stacks of other sizes than 2 KiB from the start, and Gs whose kept
# stack newproc1 swaps (run.py's own run has the default).
# Under stackforcemove the limit is 600 s, as in run-stackforcemove.sh
# (sync_stress took 20 s there alone at one time, 115 s on 2026-12-01 at
# ed6c2cd and after alike; and make -j2 check runs two
# suites side by side).
here=$(dirname "$0")
status=0
for p in 1 2 4 8; do
	case $p in 2) start=,adaptivestackstart=site ;; 8) start=,adaptivestackstart=1 ;; *) start= ;; esac
	echo "GLMAXPROCS=$p GLDEBUG=lockrank=1$start"
	GLMAXPROCS=$p GLDEBUG=lockrank=1$start "$here/run.py" --kind sched || status=1
done
echo "GLMAXPROCS=4 GLDEBUG=stackforcemove=1,lockrank=1"
GLMAXPROCS=4 GLDEBUG=stackforcemove=1,lockrank=1 GLTEST_TIMEOUT=${GLTEST_TIMEOUT:-600} "$here/run.py" --kind sched || status=1
exit $status
