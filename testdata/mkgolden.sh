#!/bin/sh
# mkgolden.sh — produce the expected output of testdata/run programs with Go.
#
# usage: testdata/mkgolden.sh            (every program in testdata/run)
#        testdata/mkgolden.sh NAME ...   (NAME, NAME.gl, a path to it, or a
#                                         multi-file directory under run/)
#
# Each program (NAME.gl, or the directory NAME/ of several .gl files, all
# package main) is copied into a temporary directory as .go files, built with
# Go (GO111MODULE=off go build -o bin) and run as ./bin 2>&1.  Its combined
# output is written to run/NAME.out, truncated for an uncaught panic: the
# "panic: ..." line(s) (and "[recovered]" lines) are kept; the "[signal ...]"
# line (it holds a pc address), the blank line before "goroutine N [" and
# everything from that line on are dropped.  For a fatal error the same
# goes for Go's "runtime stack:" block, and a stack overflow's "runtime:
# sp=... stack=[...]" line (addresses) is dropped.  When the exit status
# is not 0 it is written to run/NAME.exit; otherwise run/NAME.exit is
# removed.
#
# A program that calls C (//gl:extern) is not Go: its golden comes from its
# cgo twin, run/NAME.cgo (Go source), built and run the same way.
#
# Programs whose header says `// skip-go: why` (README.md) need a newer Go
# (range over int, min/max, per-iteration loop variables, Go 1.20 API);
# their goldens are written by hand and this script skips them.
#
# GO may be set to the go command to use (default /usr/lib/go-1.19/bin/go).
set -u

GO=${GO:-/usr/lib/go-1.19/bin/go}
here=$(cd "$(dirname "$0")" && pwd)
rundir=$here/run

# the programs whose header says skip-go, from testdata/run.py, the headers' reader
skipgo=$(top_srcdir=$(dirname "$here") python3 "$here/run.py" --list skip-go) || exit 1

is_skipgo() {
	printf '%s\n' $skipgo | grep -qx "$1"
}

# truncate: keep a panic's own lines, drop Go's traceback — from the
# first "goroutine N [" or "runtime stack:" line after the panic, a fatal
# error or a signal's dump began (a program may print such lines itself:
# runtime_stack prints runtime.Stack's).
truncate_panic() {
	awk '
		/^(panic: |fatal error: |SIG[A-Z]+: )/ { failing = 1 }
		failing && (/^goroutine [0-9]+ \[/ || /^runtime stack:$/) { done = 1 }
		done { next }
		/^\[signal / { next }
		/^runtime: sp=/ { next }
		/^PC=0x[0-9a-f]+ m=[0-9]+ sigcode=-?[0-9]+$/ { next }
		{ if (held) print ""; held = 0 }
		/^$/ { held = 1; next }
		{ print }
		END { if (held && !done) print "" }
	'
}

golden() {
	name=$1
	if is_skipgo "$name"; then
		echo "skip $name (skip-go in its header: golden written by hand)"
		return 0
	fi
	tmp=$(mktemp -d)
	if [ -d "$rundir/$name" ]; then
		for f in "$rundir/$name"/*.gl; do
			b=$(basename "$f" .gl)
			cp "$f" "$tmp/$b.go"
		done
	elif [ -f "$rundir/$name.cgo" ]; then
		cp "$rundir/$name.cgo" "$tmp/main.go"
	elif [ -f "$rundir/$name.gl" ]; then
		cp "$rundir/$name.gl" "$tmp/main.go"
	else
		echo "mkgolden: no program $name" >&2
		rm -rf "$tmp"
		return 1
	fi
	if ! (cd "$tmp" && GO111MODULE=off "$GO" build -o bin . >"$tmp/build.log" 2>&1); then
		echo "mkgolden: $name does not build:" >&2
		cat "$tmp/build.log" >&2
		rm -rf "$tmp"
		return 1
	fi
	(cd "$tmp" && ./bin >"$tmp/raw" 2>&1 </dev/null)
	status=$?
	truncate_panic <"$tmp/raw" >"$rundir/$name.out"
	if [ "$status" -ne 0 ]; then
		echo "$status" >"$rundir/$name.exit"
	else
		rm -f "$rundir/$name.exit"
	fi
	echo "ok   $name (exit $status)"
	rm -rf "$tmp"
	return 0
}

rc=0
if [ $# -eq 0 ]; then
	for f in "$rundir"/*.gl "$rundir"/*/; do
		[ -e "$f" ] || continue
		case $f in
		*/) name=$(basename "$f") ;;
		*) name=$(basename "$f" .gl) ;;
		esac
		golden "$name" || rc=1
	done
else
	for a in "$@"; do
		name=$(basename "$a")
		name=${name%.gl}
		name=${name%.out}
		golden "$name" || rc=1
	done
fi
exit $rc
