#!/bin/sh
# testdata/ffi.sh — calls into C (//gl:extern; docs/ffi.md), by glc's call stubs and libffi:
# what run.py's single run of each program does not cover:
#   1. testdata/run/ffi_*.gl (goldens from their cgo twins, NAME.cgo) at
#      GLMAXPROCS 1, 2, 4 and 8, with every stack moved at every call
#      (GLDEBUG=stackforcemove=1), and with a collection at every 7th
#      allocation, freed memory poisoned and every mark checked; and with
#      every plain call through libffi's ffi_call instead of glc's call
#      stubs (GLDEBUG=ffilibffi=1: the path variadic calls always take);
#   2. testdata/runtime/ffi_missing.gl against its .out and .exit: a missing
#      symbol or library, and a variadic argument C cannot take, are panics
#      at the call (recoverable; exit 2 when not recovered), never a crash;
#   3. SIGQUIT while goroutines sit in C's read(2): the dump shows them as
#      "[syscall]" with the C function's gl frame, and the process exits 2;
#   4. testdata/runtime/ffi_callback_fail.gl: callbacks that cannot work
#      (a panic that would unwind C's frames, a call from a thread gl did
#      not start, a func C cannot call) fail with a clear message.
# Every program runs under timeout: a hang is a failure, never a wait.
. "$(dirname "$0")/testlib.sh"

# 1. the ffi programs of testdata/run
for src in "$top_srcdir"/testdata/run/ffi_*.gl; do
	n=$(basename "$src" .gl)
	build "$n" "$src" || continue
	for procs in 1 2 4 8; do
		check "$n" "$src" 60 "GLMAXPROCS=$procs"
		check "$n" "$src" 60 "GLMAXPROCS=$procs GLDEBUG=stackforcemove=1"
		check "$n" "$src" 60 "GLMAXPROCS=$procs GLDEBUG=gcstress=7,clobberfree=1,gccheckmark=1"
		check "$n" "$src" 60 "GLMAXPROCS=$procs GLDEBUG=ffilibffi=1,stackforcemove=1"
	done
done

# 2. what goes wrong at a call
src=$top_srcdir/testdata/runtime/ffi_missing.gl
if build missing "$src"; then
	check missing "$src" 60 "GLTRACEBACK=none"
	check missing "$src" 60 "GLTRACEBACK=none GLDEBUG=stackforcemove=1"
fi

# 3. the SIGQUIT dump of goroutines in C
if build dump "$top_srcdir/testdata/runtime/ffi_dump.gl"; then
	sigquitdump dump
	n=$(grep -c '^goroutine [0-9]* \[syscall' "$tmp/dump.out")
	f=$(grep -c '^main\.cread(' "$tmp/dump.out")
	c=$(grep -c '^main\.blockedInC(' "$tmp/dump.out")
	if [ $rc -eq 2 ] && [ "$n" -ge 3 ] && [ "$f" -ge 3 ] && [ "$c" -ge 3 ]; then
		echo "ok   SIGQUIT dump: $n goroutines in [syscall] in C, $f cread frames, $c callers"
	else
		fail "SIGQUIT dump: exit $rc, $n goroutines in [syscall], $f cread and $c blockedInC frames (want 2, 3, 3, 3)"
		head -40 "$tmp/dump.out" | sed 's/^/    /'
	fi
fi
# 4. callbacks that cannot work: MODE|STATUS|OUTPUT (\n between lines)
if build cbfail "$top_srcdir/testdata/runtime/ffi_callback_fail.gl"; then
	while IFS='|' read -r mode want out; do
		got=$(GLTRACEBACK=none timeout 30 "$tmp/cbfail" "$mode" 2>&1)
		rc=$?
		if [ $rc -ne "$want" ] || [ "$got" != "$(printf '%b' "$out")" ]; then
			fail "callback $mode: exit $rc, want $want; output:"
			printf '%s\n' "$got" | head -10 | sed 's/^/    /'
		else
			echo "ok   callback $mode"
		fi
	done <<'EOF'
recovered|2|recovered: in the comparator\nfatal error: ffi: a panic or runtime.Goexit in a callback from C would unwind C's frames
unrecovered|2|panic: in the comparator
recoveredinside|0|[1 2 3]\nend
thread|2|fatal error: ffi: C called a gl callback on a thread gl did not start
notfunc|2|panic: ffi: Callback of something that is not a func (or a nil func)
badsig|2|panic: ffi: Callback of a func(string) int: a parameter's type string cannot go between gl and C
variadic|2|panic: ffi: Callback of a func(...int32): C cannot call a variadic gl function
release|2|panic: ffi: ReleaseCallback of a pointer that Callback did not return, or released before
EOF
fi
exit $status
