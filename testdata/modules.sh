#!/bin/sh
# testdata/modules.sh — programs of many packages in a module (compiler/module.c).
# testdata/mod/hello is a module of five packages (one internal, one whose
# package name is not its directory's, a second program in cmd/tool):
#   1. `glc run .` and `glc run ./cmd/tool` (and by its import path) print the goldens (hello.out,
#      tool.out; tool exits 3), and so do Go 1.19's builds when $GO is set:
#      init order across packages is Go's;
#   2. `glc list ./...` prints list.out, as `go list ./...`;
#   3. `glc build ./...` and `glc build ./greet` (not a program) succeed and
#      write no file;
#   4. glc test prints what go test prints (times masked): passing and
#      failing packages, in package list mode and in the directory, with -v
#      and -run, subtests, Helper, Fatal, Skip, Cleanup, TempDir, examples
#      (in an external test package too), a benchmark's columns, TestMain in
#      a program's tests, a panic and -timeout (testdata/mod/failing,
#      mainpkg; the goldens test-*.out are also Go's output; the timeout
#      shows every goroutine), the
#      benchmark API (testdata/mod/bench: SetBytes, ReportMetric,
#      RunParallel, sub-benchmarks, testing.Benchmark, AllocsPerRun) with
#      -count, -cpu and -benchmem, T.Deadline, fuzz targets' seed corpora,
#      "[no tests to run]", -list, -failfast and -shuffle, and
#      the standard library's tests of package testing;
#   5. each module of testdata/mod/errors fails `glc build` with exit 1 and
#      the messages of its .err file (an import cycle with its chain, the
#      internal/ rule for the module's and the standard library's, a
#      program imported, a directory of two packages, a missing package,
#      a require line, an unexported name), and `glc build ./...` puts a
#      package's messages under "# its/import/path".
# Every command has a time limit.
. "$(dirname "$0")/testlib.sh"
mod=$top_srcdir/testdata/mod
export GOFLAGS=-mod=mod GO111MODULE=on GOPATH="$tmp/gopath" GOPROXY=off

# same FILE GOT: GOT must equal FILE
same() {
	cmp -s "$1" "$2" || { fail "${1#$top_srcdir/}: the output differs"; diff "$1" "$2" | head -20 | sed 's/^/    /'; }
}

# the module is copied, so that nothing is written into the source tree
cp -R "$mod/hello" "$tmp/hello"
cd "$tmp/hello" || exit 1
before=$(find . | sort)

timeout 300 "$GLC" run . >"$tmp/hello.got" 2>&1 || fail "glc run .: exit $?"
same "$mod/hello.out" "$tmp/hello.got"
timeout 300 "$GLC" run ./cmd/tool >"$tmp/tool.got" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "glc run ./cmd/tool: exit $rc, want 3"
same "$mod/tool.out" "$tmp/tool.got"
timeout 300 "$GLC" run example.com/hello/cmd/tool >"$tmp/tool2.got" 2>&1
[ $? -eq 3 ] || fail "glc run example.com/hello/cmd/tool: not exit 3"
same "$mod/tool.out" "$tmp/tool2.got"
timeout 60 "$GLC" list ./... >"$tmp/list.got" 2>&1 || fail "glc list ./...: exit $?"
same "$mod/list.out" "$tmp/list.got"
timeout 300 "$GLC" build ./... >"$tmp/build.got" 2>&1 || { fail "glc build ./...: exit $?"; cat "$tmp/build.got"; }
timeout 300 "$GLC" build ./greet >>"$tmp/build.got" 2>&1 || { fail "glc build ./greet: exit $?"; cat "$tmp/build.got"; }
[ -s "$tmp/build.got" ] && { fail "glc build ./... printed:"; sed 's/^/    /' "$tmp/build.got"; }
[ "$(find . | sort)" = "$before" ] || fail "glc build ./... wrote into the module: $(find . -newer go.mod)"

if [ -n "${GO:-}" ] && [ -x "$GO" ]; then
	# Go 1.19 on the same module: the goldens are Go's output
	timeout 300 "$GO" build -o "$tmp/hello.go.bin" . && timeout 60 "$tmp/hello.go.bin" >"$tmp/hello.go" 2>&1 &&
		same "$mod/hello.out" "$tmp/hello.go" || fail "Go 1.19 on testdata/mod/hello"
	timeout 300 "$GO" build -o "$tmp/tool.go.bin" ./cmd/tool || fail "Go 1.19 cannot build cmd/tool"
	timeout 60 "$tmp/tool.go.bin" >"$tmp/tool.go" 2>&1
	[ $? -eq 3 ] || fail "Go's cmd/tool did not exit 3"
	same "$mod/tool.out" "$tmp/tool.go"
	timeout 60 "$GO" list ./... >"$tmp/list.go" 2>&1 && same "$mod/list.out" "$tmp/list.go" || fail "go list ./..."
else
	echo "note: Go 1.19 not found (GO): the goldens are not compared with Go's output"
fi

# glc test: goldens with the times masked (and a benchmark's ns/op, MB/s
# and CPU), compared with Go's output too.  Parallel subtests report in
# the order they finish, in Go as in gl: the result lines of
# TestParallel's subtests, one after another, are sorted.
mask() {
	sed -E 's/\(([0-9]+\.[0-9]+)s\)/(X.XXs)/; s/\t[0-9]+\.[0-9]+s( \[no tests to run\])?$/\tX.XXXs\1/
		s/\t *[0-9.]+ (ns\/op|MB\/s)/\tX \1/g; s/^cpu: .*/cpu: X/' "$@" |
		awk '/^    --- [A-Z]+: TestParallel\// { run[n++] = $0; next }
			{ flush(); print }
			END { flush() }
			function flush(  i, j, t) {
				for (i = 1; i < n; i++)
					for (j = i; j > 0 && run[j - 1] > run[j]; j--) {
						t = run[j]; run[j] = run[j - 1]; run[j - 1] = t
					}
				for (i = 0; i < n; i++)
					print run[i]
				n = 0
			}'
}
# gotest NAME DIR WANTRC ARGS...: glc test ARGS in DIR, exit WANTRC, output NAME.out
gotest() {
	name=$1 dir=$2 want=$3
	shift 3
	cd "$tmp/$dir" || exit 1
	timeout 300 "$GLC" test "$@" >"$tmp/$name.raw" 2>&1
	rc=$?
	[ $rc -eq "$want" ] || fail "$name: glc test $*: exit $rc, want $want"
	mask "$tmp/$name.raw" >"$tmp/$name.got"
	same "$mod/$name.out" "$tmp/$name.got"
	if [ -n "${GO:-}" ] && [ -x "$GO" ]; then
		timeout 300 "$GO" test -vet=off "$@" >"$tmp/$name.goraw" 2>&1
		rc=$?
		[ $rc -eq "$want" ] || fail "$name: go test $*: exit $rc, want $want"
		mask "$tmp/$name.goraw" >"$tmp/$name.go"
		same "$mod/$name.out" "$tmp/$name.go"
	fi
}
cp -R "$mod/failing" "$tmp/failing"
gotest test-hello hello 0 ./...
gotest test-hello-v hello 0 -v ./...
gotest test-failing failing 1 ./...
gotest test-failing-local failing 1
gotest test-failing-run failing 1 -v -run 'Sub/bad|Positive' .
# -run's elements are regular expressions (package regexp); a bad one is
# reported before anything runs, in Go's words
gotest test-failing-regexp failing 1 -v -run 'Sub[a-z]+/^(b.d|o[k])$|Pos{1}it' .
gotest test-failing-badrun failing 1 -run 'Pos|Sub/b(' .
# -list names what would run, runs nothing; -failfast starts nothing after
# the first failure (subtests included)
gotest test-failing-list failing 0 -list 'Sub|Fuzz|Add' .
gotest test-failing-failfast failing 1 -failfast -v -run 'Neg|Sub|Pos' .
# -shuffle N: the seed printed, the tests in the order Go draws with it
gotest test-failing-shuffle failing 1 -shuffle 7 -v -run 'Pos|Neg|Skip|Par' .
cd "$tmp/failing" || exit 1
timeout 60 "$GLC" test -shuffle x . >"$tmp/shuffle.got" 2>&1
rc=$?
{ [ $rc -eq 2 ] && grep -q '^invalid value "x" for flag -shuffle: -shuffle argument must be "on", "off", or an int64' "$tmp/shuffle.got"; } ||
	{ fail "glc test -shuffle x (exit $rc):"; sed 's/^/    /' "$tmp/shuffle.got"; }
# a benchmark run 100 times: go test's columns (the figures differ)
cd "$tmp/hello" || exit 1
timeout 300 "$GLC" test -run XXX -bench . -benchtime 100x ./greet >"$tmp/bench.got" 2>&1 || fail "glc test -bench: exit $?"
grep -Eq '^BenchmarkHello(-[0-9]+)? +	     100	 +[0-9.]+ ns/op	 +[0-9]+ B/op	 +[0-9]+ allocs/op$' "$tmp/bench.got" &&
	grep -q '^pkg: example.com/hello/greet$' "$tmp/bench.got" ||
	{ fail "glc test -bench printed:"; sed 's/^/    /' "$tmp/bench.got"; }
# the benchmark API beyond b.N (testdata/mod/bench: SetBytes, ReportMetric,
# ReportAllocs, RunParallel, sub-benchmarks widening the column), each
# benchmark once per -cpu value and -count, leaves only; -benchmem; and
# -count runs the tests again but the examples once
cp -R "$mod/bench" "$tmp/bench"
# (2000 runs each: B/op is the whole program's allocation over N, as Go's,
# so a rare allocation of the runtime's own during a run — 1.8 KiB seen
# once in some 200 runs at N=100, cause not found — must not round up to
# 1 B/op)
gotest test-bench bench 0 -run XXX -bench . -benchtime 2000x -count 2 -cpu 1,2 .
gotest test-bench-mem bench 0 -run XXX -bench 'Frame|Checksum' -benchmem -benchtime 2000x -cpu 2 .
gotest test-bench-count bench 0 -v -count 2 -cpu 1,2 -run 'Checksum|Example' .
# AllocsPerRun, testing.Benchmark, BenchmarkResult, T.Deadline
gotest test-bench-api bench 0 -v -run Allocs .
# fuzz targets' seed corpora (Add's and testdata/fuzz's files, every input
# type) as subtests; a failing seed is in testdata/mod/failing
gotest test-bench-fuzz bench 0 -v -run Fuzz .
# nothing matched: the warning, and go test's note on the ok line
gotest test-bench-none bench 0 -run XXX .
gotest test-bench-none-v bench 0 -v -run XXX .
# no fuzzing engine: -fuzz is refused, in one line
cd "$tmp/bench" || exit 1
timeout 60 "$GLC" test -fuzz FuzzFrame . >"$tmp/fuzz.got" 2>&1
rc=$?
{ [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/fuzz.got")" -eq 1 ] && grep -q '^glc: test: -fuzz is not supported' "$tmp/fuzz.got"; } ||
	{ fail "glc test -fuzz (exit $rc):"; sed 's/^/    /' "$tmp/fuzz.got"; }
# a program's tests, with TestMain; then a panic, then a timeout
cp -R "$mod/mainpkg" "$tmp/mainpkg"
gotest test-mainpkg mainpkg 0 -v
cd "$tmp/mainpkg" || exit 1
PANIC=1 timeout 300 "$GLC" test >"$tmp/panic.got" 2>&1
rc=$?
{ [ $rc -eq 1 ] && grep -q '^--- FAIL: TestPanic' "$tmp/panic.got" && grep -q '^panic: boom \[recovered\]' "$tmp/panic.got" &&
	grep -q '^FAIL	example.com/mainpkg' "$tmp/panic.got"; } || { fail "a panicking test (exit $rc):"; head -12 "$tmp/panic.got" | sed 's/^/    /'; }
SLOW=1 timeout 300 "$GLC" test -timeout 300ms >"$tmp/slow.got" 2>&1
rc=$?
# (every goroutine's traceback, as go test's: where the test hangs)
{ [ $rc -eq 1 ] && grep -q '^panic: test timed out after 300ms' "$tmp/slow.got" &&
	grep -q '^goroutine [0-9]* \[sleep\]:$' "$tmp/slow.got" && grep -q '^main\.TestSlow(' "$tmp/slow.got"; } ||
	{ fail "a test past -timeout (exit $rc):"; head -12 "$tmp/slow.got" | sed 's/^/    /'; }

# the standard library's own tests (stdlib/testing/match_test.gl), named
# by import path as go test names them: no module needed
cd "$tmp" || exit 1
timeout 300 "$GLC" test testing >"$tmp/std.got" 2>&1 && grep -q '^ok  	testing	' "$tmp/std.got" ||
	{ fail "glc test testing:"; sed 's/^/    /' "$tmp/std.got"; }

for d in "$mod"/errors/*/; do
	name=$(basename "$d")
	cp -R "$d" "$tmp/err-$name"
	cd "$tmp/err-$name" || exit 1
	timeout 300 "$GLC" build -o /dev/null . >"$tmp/$name.got" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "errors/$name: glc build exit $rc, want 1"
	same "$mod/errors/$name.err" "$tmp/$name.got"
done
cd "$tmp/err-unexported" || exit 1
timeout 300 "$GLC" build ./... >"$tmp/all.got" 2>&1
[ $? -eq 1 ] || fail "errors/unexported: glc build ./... did not fail"
{ echo "# example.com/unexported"; cat "$mod/errors/unexported.err"; } | cmp -s - "$tmp/all.got" ||
	{ fail "errors/unexported: glc build ./... printed:"; sed 's/^/    /' "$tmp/all.got"; }

[ $status -eq 0 ] && echo "modules: testdata/mod passed"
exit $status
