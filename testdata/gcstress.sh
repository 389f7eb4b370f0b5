#!/bin/sh
# The collector's stress modes (docs/gc.md).  Programs of testdata/run run
# with a collection forced every N allocations, freed objects filled with
# 0xdb (clobberfree: a pointer the marker missed reads poison), and every
# marked object's pointers checked against the mark bits after marking
# (gccheckmark: a missed root or a wrong pointer bit throws) — at
# GLMAXPROCS=1, 2, 4 and 8 (at 2 and 8 with the write barrier on all the
# time and checked, wbshadow: every barrier glc emits and the runtime's
# typed copies take their slow paths, and a shadow heap written by each
# barrier finds any pointer store into the heap that bypassed it), with
# the mark stopping the world
# (gcstoptheworld=1); then all of it again with the mark concurrent (the
# default), and once more with every stack moved at every function entry
# and park (stackforcemove), and the concurrency programs so at GLMAXPROCS
# 1, 2 and 4; and all of testdata/run, less a listed few, with a
# collection always under way.  The outputs must still equal
# the goldens.  Last, wbshadow must catch a program whose stores bypass
# the barrier.  The programs, those whose header says `// run gcstress`
# (testdata/README.md): those that keep pointers in every kind of
# place (stacks of parked goroutines, channels, maps, closures, interfaces,
# defers and panics), those that allocate the most, and one that gives
# pages back to the OS while others allocate (gc_scavenge_churn).  Each has run.py's
# time limit (600 s under stackforcemove): a hang is reported, not waited for.
here=$(dirname "$0")
status=0
for p in 1 2 4 8; do
	wb=
	[ $p = 2 ] || [ $p = 8 ] && wb=,wbshadow=1
	echo "GLMAXPROCS=$p GLDEBUG=gcstoptheworld=1,gcstress=7,clobberfree=1,gccheckmark=1$wb"
	GLMAXPROCS=$p GLDEBUG=gcstoptheworld=1,gcstress=7,clobberfree=1,gccheckmark=1$wb "$here/run.py" --kind gcstress || status=1
done
# The concurrent mark (the default, gcstoptheworld=0; mgc.c): the same, the
# barrier and allocate-black doing their work while the program runs, and
# gccheckmark also checking after each concurrent mark that every root the
# program can see points to a marked object; and the runtime's lock order
# checked at every lock (lockrank=1: the collector's locks nest most here).
for p in 1 2 4 8; do
	echo "GLMAXPROCS=$p GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1,lockrank=1"
	GLMAXPROCS=$p GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1,lockrank=1 "$here/run.py" --kind gcstress || status=1
done
echo "GLMAXPROCS=4 GLDEBUG=gcstress=101,clobberfree=1,gccheckmark=1,stackforcemove=1"
GLMAXPROCS=4 GLDEBUG=gcstress=101,clobberfree=1,gccheckmark=1,stackforcemove=1 GLTEST_TIMEOUT=${GLTEST_TIMEOUT:-600} \
	"$here/run.py" --kind gcstress || status=1

# The concurrency programs (`// run sched`) with the stress modes and
# every stack moved at every call and park, at GLMAXPROCS 1, 2 and 4
# (about 5 s each).
for p in 1 2 4; do
	echo "GLMAXPROCS=$p GLDEBUG=gcstress=7,clobberfree=1,gccheckmark=1,stackforcemove=1 (sched)"
	GLMAXPROCS=$p GLDEBUG=gcstress=7,clobberfree=1,gccheckmark=1,stackforcemove=1 GLTEST_TIMEOUT=${GLTEST_TIMEOUT:-600} \
		"$here/run.py" --kind sched || status=1
done

# The whole of testdata/run with a collection always under way (gcstress=1
# with the concurrent mark: a cycle starts at the first allocation after
# the last one ended, so the barrier, allocate-black, the assists and the
# stack scans run all the time), freed memory poisoned, and every mark
# checked: every program but those testdata/gcstress-skip lists, each with
# why.  About 90 s on two cores once the executables are built.
echo "GLDEBUG=gcstress=1,clobberfree=1,gccheckmark=1 (all of testdata/run)"
GLDEBUG=gcstress=1,clobberfree=1,gccheckmark=1 "$here/run.py" --skip "$here/gcstress-skip" || status=1

# wbshadow can fail: built with GLC_TEST_STOREBYPASS, glc's store() writes
# its heap stores as plain assignments (no barrier), and the program must
# die naming the word; built normally, the same program passes.
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/bypass.gl" <<'GL'
package main

import "runtime"

type node struct {
	next *node
	v    int
}

var root *node // so that the nodes are on the heap

func main() {
	root = &node{v: 1}
	root.next = &node{v: 2}
	runtime.GC()
	println(root.next.v)
}
GL
GLCACHE=off "$GLC" build -o "$tmp/plain" "$tmp/bypass.gl" &&
	GLC_TEST_STOREBYPASS=1 GLCACHE=off "$GLC" build -o "$tmp/bypass" "$tmp/bypass.gl" || status=1
if ! GLDEBUG=wbshadow=1 "$tmp/plain" >"$tmp/plain.log" 2>&1; then
	echo "FAIL wbshadow: a program whose stores have the barrier failed:"; sed 's/^/    /' "$tmp/plain.log"; status=1
elif GLDEBUG=wbshadow=1 "$tmp/bypass" >"$tmp/bypass.log" 2>&1 || ! grep -q "write barrier missed" "$tmp/bypass.log"; then
	echo "FAIL wbshadow: stores without the barrier were not caught:"; sed 's/^/    /' "$tmp/bypass.log"; status=1
else
	echo "ok   wbshadow catches stores that bypass the barrier"
fi

# clobberfree holds freed memory back for a cycle, poisoned: freed objects
# of two sizes keep their poison while thousands of their size are
# allocated (testdata/runtime/heap_quarantine.gl; without the hold, the
# allocator writes over them).
if GLCACHE=off "$GLC" build -o "$tmp/quarantine" "$here/runtime/heap_quarantine.gl"; then
	want="freed and poisoned: true true
no cycle meanwhile: true
small reused: false poisoned: true
large reused: false poisoned: true"
	got=$(GLDEBUG=clobberfree=1 timeout 60 "$tmp/quarantine" 2>&1)
	if [ "$got" = "$want" ]; then
		echo "ok   clobberfree holds freed memory back, poisoned"
	else
		echo "FAIL clobberfree's hold:"; echo "$got" | sed 's/^/    /'; status=1
	fi
else
	status=1
fi
exit $status
