#!/bin/sh
# testdata/boehm.sh — the Boehm comparison build (docs/gc.md, "gl on Boehm";
# runtime/boehm.c).  With every program built by `glc build -gc=boehm`:
#   1. testdata/run at GLMAXPROCS 1 and 4, the same goldens as gl's own
#      collector, less the programs whose header says `// skip-boehm: why`
#      (they test what only gl's collector has; testdata/README.md);
#   2. the concurrency programs (as testdata/gcloop.sh's: `// run gcloop`) ROUNDS times
#      (default 3) at GLMAXPROCS 1, 2, 4 and 8, and once with every stack
#      moved at every call (GLDEBUG=stackforcemove=1): Boehm's stops of
#      the world land at any instruction of any M, and must find every
#      goroutine's stack where it is.
# Skipped (exit 77) when this glc has no Boehm runtime (configured without
# --with-gc=boehm): `make check-boehm` builds one in boehm-build/.
# Every run has a time limit: a hang is a failure.
. "$(dirname "$0")/testlib.sh"
rounds=${1:-3}

lib=$("$GLC" env | sed -n 's/^GLROOT_LIB="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p')
if [ ! -f "$lib/libglrt_boehm.a" ]; then
	echo "SKIP: $GLC has no Boehm runtime ($lib/libglrt_boehm.a): configure --with-gc=boehm, or make check-boehm"
	exit 77
fi

for procs in 1 4; do
	GLMAXPROCS=$procs GLFLAGS=-gc=boehm "$here/run.py" || fail "testdata/run at GLMAXPROCS=$procs"
done

progs=$("$here/run.py" --list gcloop) || exit 1
for p in $progs; do
	"$GLC" build -gc=boehm -o "$tmp/$p" "$top_srcdir/testdata/run/$p.gl" >"$tmp/build.log" 2>&1 || {
		fail "glc build -gc=boehm $p:"
		sed 's/^/    /' "$tmp/build.log"
		exit 1
	}
done

# once PROGRAM ENV...: one run under env ENV, its output the golden's
once() {
	p=$1
	shift
	(cd "$tmp" && env "$@" timeout 60 "$tmp/$p" >"$tmp/$p.got" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || ! cmp -s "$tmp/$p.got" "$top_srcdir/testdata/run/$p.out"; then
		fail "$p ($*): exit $rc"
		diff "$top_srcdir/testdata/run/$p.out" "$tmp/$p.got" | head -20 | sed 's/^/    /'
		return 1
	fi
}

runs=0
for r in $(seq 1 "$rounds"); do
	for procs in 1 2 4 8; do
		for p in $progs; do
			once "$p" GLMAXPROCS=$procs && runs=$((runs + 1))
		done
	done
done
for p in $progs; do
	once "$p" GLMAXPROCS=4 GLDEBUG=stackforcemove=1 && runs=$((runs + 1))
done
echo "boehm: the concurrency programs, $runs runs passed"
exit $status
