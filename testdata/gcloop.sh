#!/bin/sh
# The concurrent mark's long proof (docs/gc.md, "The concurrent
# mark"): the concurrency programs of testdata/run (those whose header says
# `// run gcloop`, testdata/README.md), each built once, run
# ROUNDS times (default 100) with the mark concurrent, a cycle at every 7th
# allocation, freed objects poisoned and every mark checked
# (GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1), at
# GLMAXPROCS 1, 2, 4 and 8 in turn; every output must equal its golden.
# It stops at the first failure and prints the run's output.  Too long for
# `make check` (about four minutes on two cores for 100 rounds); run it by
# hand after a change to the collector, the barrier or the scheduler:
#
#   GLC=./glc testdata/gcloop.sh [ROUNDS]
#
# Each run has a time limit (60 s): a hang is a failure, not a wait.
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
glc=${GLC:-$top/glc}
rounds=${1:-100}
progs=$(top_srcdir=$top "$here/run.py" --list gcloop) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gcloop.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
for p in $progs; do
	"$glc" build -o "$tmp/$p" "$top/testdata/run/$p.gl" >"$tmp/build.log" 2>&1 || {
		echo "gcloop: glc build $p failed:"
		cat "$tmp/build.log"
		exit 1
	}
done
start=$(date +%s)
runs=0
for r in $(seq 1 "$rounds"); do
	for procs in 1 2 4 8; do
		for p in $progs; do
			(cd "$tmp" &&
				GLMAXPROCS=$procs GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1 \
					timeout 60 "$tmp/$p" >"$tmp/out" 2>&1)
			rc=$?
			runs=$((runs + 1))
			if [ $rc -ne 0 ] || ! cmp -s "$tmp/out" "$top/testdata/run/$p.out"; then
				echo "FAIL gcloop: round $r, $p at GLMAXPROCS=$procs (exit $rc):"
				diff "$top/testdata/run/$p.out" "$tmp/out" | head -20
				exit 1
			fi
		done
	done
done
echo "gcloop: $rounds rounds, $runs runs, no failure, $(($(date +%s) - start)) s"
