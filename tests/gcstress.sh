#!/bin/sh
# The collector's stress modes (docs/gc.md).  Programs of testdata/run run
# with a collection forced every N allocations, freed objects filled with
# 0xdb (clobberfree: a pointer the marker missed reads poison), and every
# marked object's pointers checked against the mark bits after marking
# (gccheckmark: a missed root or a wrong pointer bit throws) — at
# GLMAXPROCS=1, 2, 4 and 8 (at 2 and 8 with the write barrier on all the
# time, wbforce: every barrier glc emits and the runtime's typed copies
# take their slow paths), with the mark stopping the world
# (gcstoptheworld=1); then all of it again with the mark concurrent (the
# default), and once more with every stack moved at every function entry
# and park (stackforcemove).  The outputs must still equal
# the goldens.  The programs: those that keep pointers in every kind of
# place (stacks of parked goroutines, channels, maps, closures, interfaces,
# defers and panics), those that allocate the most, and one that gives
# pages back to the OS while others allocate (gc_scavenge_churn).  Each has run.py's
# time limit (600 s under stackforcemove): a hang is reported, not waited for.
here=$(dirname "$0")
progs="gc_reachable heap_procs chan_basic chan_select select_stress sync_stress
map_basic map_keys escape_forms escape_loopvars escape_mapkey escape_closures closure_nested closure_iter
defer_order defer_modify goroutine_panic iface_smallbox interface_any append_fields alloc_churn fmt_concurrent
finalizer_basic finalizer_order finalizer_resurrect finalizer_deadlock finalizer_inner finalizer_keepalive finalizer_goroutine
gc_scavenge_churn typedmem_copy typedmem_chan typedmem_map typedmem_misc"
for p in $progs; do
	[ -e "$here/../testdata/run/$p.gl" ] || { echo "gcstress.sh: no program $p"; exit 1; }
done
status=0
for p in 1 2 4 8; do
	wb=
	[ $p = 2 ] || [ $p = 8 ] && wb=,wbforce=1
	echo "GLMAXPROCS=$p GLDEBUG=gcstoptheworld=1,gcstress=7,clobberfree=1,gccheckmark=1$wb"
	GLMAXPROCS=$p GLDEBUG=gcstoptheworld=1,gcstress=7,clobberfree=1,gccheckmark=1$wb "$here/run.py" $progs || status=1
done
# The concurrent mark (the default, gcstoptheworld=0; mgc.c): the same, the
# barrier and allocate-black doing their work while the program runs, and
# gccheckmark also checking after each concurrent mark that every root the
# program can see points to a marked object.
for p in 1 2 4 8; do
	echo "GLMAXPROCS=$p GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1"
	GLMAXPROCS=$p GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1 "$here/run.py" $progs || status=1
done
echo "GLMAXPROCS=4 GLDEBUG=gcstress=101,clobberfree=1,gccheckmark=1,stackforcemove=1"
GLMAXPROCS=4 GLDEBUG=gcstress=101,clobberfree=1,gccheckmark=1,stackforcemove=1 GLTEST_TIMEOUT=${GLTEST_TIMEOUT:-600} \
	"$here/run.py" $progs || status=1
exit $status
