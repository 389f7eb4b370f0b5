#!/bin/sh
# testdata/outofmemory.sh — fatal errors that must say why even when the
# kernel refuses memory (docs/stacks.md): each testdata/runtime/oom_*.gl program
# is driven into one refusal and must exit 2 with Go's report —
# "runtime: out of memory: cannot allocate N-byte block (M in use) for
# WHAT", "fatal error: out of memory" — and its goroutine's traceback,
# printed from memory set aside at start-up (the traceback's tables are
# built on first use, after mmap has already failed).
#   oom_heap      the heap cannot grow under an address-space limit (ulimit -v);
#   oom_stack     a goroutine's stack cannot double under the same limit;
#   oom_mapcount  the program used up vm.max_map_count itself: no new
#                 mapping at all, for the heap or for the report.
# Then a heap corrupted through unsafe (heap_badptr: the mark's report).
# And the other side: heap_bounded allocates 50 GB with 100 MB live under
# the same 1 GiB limit, and must finish with its peak RSS under 512 MB
# (Go 1.19 peaks near 300 MB on it, and cannot run under the limit: it
# reserves more address space).
# Every program runs under timeout: a hang is a failure, never a wait.
. "$(dirname "$0")/testlib.sh"

# oom NAME LIMIT_KB WHAT FRAME: run testdata/runtime/NAME.gl (ulimit -v
# LIMIT_KB unless it is -) and check the report names WHAT and FRAME.
oom() {
	build "$1" "$top_srcdir/testdata/runtime/$1.gl" || return
	(
		[ "$2" = - ] || ulimit -v "$2"
		exec timeout 120 "$tmp/$1" >"$tmp/$1.out" 2>"$tmp/$1.err"
	)
	rc=$?
	e="$tmp/$1.err"
	if [ $rc -eq 124 ]; then
		fail "$1: killed after 120 s (timeout)"
	elif [ $rc -ne 2 ]; then
		fail "$1: exit $rc, want 2"
	elif ! grep -q "^runtime: out of memory: cannot allocate [0-9]*-byte block ([0-9]* in use) for $3" "$e"; then
		fail "$1: no 'runtime: out of memory: cannot allocate ... for $3' line"
	elif ! grep -q "^fatal error: out of memory$" "$e"; then
		fail "$1: no 'fatal error: out of memory' line"
	elif ! grep -q "^goroutine [0-9]* \[" "$e" || ! grep -q "^$4(" "$e"; then
		fail "$1: no traceback with $4"
	else
		echo "ok   $1: $(head -1 "$e" | cut -c1-100)"
		return
	fi
	head -20 "$e" | sed 's/^/    /'
}

oom oom_heap 1000000 "the heap" main.main
oom oom_stack 400000 "a goroutine stack" main.down
max=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if [ "$max" -gt 0 ] && [ "$max" -le 1100000 ]; then
	oom oom_mapcount - "the heap" main.main
else
	echo "skip oom_mapcount: vm.max_map_count is $max"
fi

# A heap pointer made by unsafe into freed memory: the mark stops with
# Go's bad-pointer report (runtime/mgcmark.c, badPointer) — the pointer,
# where it was found, the object's words — exit 2; and with
# GLDEBUG=invalidptr=0 the program runs on, as Go's GODEBUG does.
build heap_badptr "$top_srcdir/testdata/runtime/heap_badptr.gl" && {
	timeout 60 "$tmp/heap_badptr" >"$tmp/badptr.out" 2>&1
	rc=$?
	o="$tmp/badptr.out"
	if [ $rc -ne 2 ]; then
		fail "heap_badptr: exit $rc, want 2"
		head -5 "$o" | sed 's/^/    /'
	elif ! grep -q '^runtime: pointer 0x[0-9a-f]* to unallocated \(span\|page\)' "$o" ||
		! grep -q '^runtime: found in object at \*(0x[0-9a-f]*+0x8)$' "$o" ||
		! grep -q '^ \*(object+8) = 0x[0-9a-f]* <==$' "$o" ||
		! grep -q '^fatal error: found bad pointer in gl heap (incorrect use of unsafe?)$' "$o"; then
		fail "heap_badptr: not Go's bad-pointer report"
		head -12 "$o" | sed 's/^/    /'
	elif ! GLDEBUG=invalidptr=0 timeout 60 "$tmp/heap_badptr" 2>&1 | grep -q '^survived 42$'; then
		fail "heap_badptr: GLDEBUG=invalidptr=0 did not let it run on"
	else
		echo "ok   heap_badptr: $(grep '^runtime: pointer' "$o" | cut -c1-90)"
	fi
}

build heap_bounded "$top_srcdir/testdata/runtime/heap_bounded.gl" && {
	t0=$(date +%s)
	(
		ulimit -v 1048576
		exec timeout 180 "$tmp/heap_bounded" 50 >"$tmp/bounded.out" 2>&1
	)
	rc=$? t=$(($(date +%s) - t0))
	peak=$(sed -n 's/^peak RSS MB: //p' "$tmp/bounded.out")
	if [ $rc -ne 0 ] || ! grep -q '^allocated GB: 50 live entries: true' "$tmp/bounded.out" || [ -z "$peak" ]; then
		fail "heap_bounded: exit $rc after $t s under ulimit -v 1 GiB"
		head -5 "$tmp/bounded.out" | sed 's/^/    /'
	elif [ "$peak" -ge 512 ]; then
		fail "heap_bounded: peak RSS $peak MB, want under 512"
	else
		echo "ok   heap_bounded: 50 GB allocated, 100 MB live, peak RSS $peak MB, $t s"
	fi
}
exit $status
