#!/bin/sh
# testdata/lockrank.sh — GLDEBUG=lockrank (runtime/lockrank.c): the lock
# order of rt.h checked at every lock().  (The whole suite runs with it on
# too: run-stackforcemove.sh, sched.sh and gcstress.sh's concurrent runs
# add lockrank=1, so every lock the programs take is checked there.)
#   1. Without the knob nothing is checked: every case of
#      runtime.LockRankForTest returns, whatever its order.
#   2. With lockrank=1 the cases in order (hchan then sched; two hchans, as
#      select nests them) return, and each wrong one is a fatal error with
#      Go's message, the M's held locks and the lock it was taking.
#      A violation at GLTRACEBACK=system prints the runtime's stack first.
#   3. lockrank=2 prints the pairs of ranks it sees nested: a blocking
#      select over two channels locks both.
. "$(dirname "$0")/testlib.sh"

build lockrank "$top_srcdir/testdata/runtime/lockrank.gl" || exit 1

# runcase ENV CASE: the output in $tmp/out, the exit status in rc
runcase() {
	env $1 timeout 30 "$tmp/lockrank" "$2" >"$tmp/out" 2>&1
	rc=$?
}

# returns ENV CASE WHAT: the case runs to its end, exit 0
returns() {
	runcase "$1" "$2"
	if [ $rc -eq 0 ] && grep -q '^done$' "$tmp/out"; then
		echo "ok   case $2 $3: returns"
	else
		fail "case $2 $3: exit $rc, want 0"
		sed 's/^/    /' "$tmp/out" | head -10
	fi
}

# 1. unchecked
for c in 0 1 2 3 4 5; do
	returns "GLDEBUG=" $c "without lockrank"
done

# 2. checked
for c in 1 3; do
	returns GLDEBUG=lockrank=1 $c "with lockrank=1 (in order)"
done
# case, message, the line naming the lock being taken (or asked for)
while IFS='|' read -r c msg taking; do
	runcase GLDEBUG=lockrank=1 "$c"
	if [ $rc -eq 2 ] && grep -q "^fatal error: $msg\$" "$tmp/out" &&
		grep -q "^$taking 0x[0-9a-f]*\$" "$tmp/out" && ! grep -q '^done$' "$tmp/out"; then
		echo "ok   case $c with lockrank=1: fatal error: $msg"
	else
		fail "case $c with lockrank=1: exit $rc, want 2 and \"$msg\" and \"$taking\""
		sed 's/^/    /' "$tmp/out" | head -12
	fi
done <<'CASES'
0|lock ordering problem|taking: hchan [0-9]*
2|lock ordering problem|taking: sched [0-9]*
4|not holding required lock!|caller requires: sched [0-9]*
5|lock without a rank|taking: NONE 0
CASES
# the held list of case 0: sched, at index 0
runcase GLDEBUG=lockrank=1 0
if grep -q '^[0-9]* ======$' "$tmp/out" && grep -q '^0 : sched [0-9]* 0x[0-9a-f]*$' "$tmp/out"; then
	echo "ok   case 0: the M's held locks printed"
else
	fail "case 0: no held-locks list (\"N ======\", \"0 : sched ...\")"
	sed 's/^/    /' "$tmp/out" | head -12
fi

# the throw came from the runtime's own stack (lockWithRank_m runs on g0):
# that stack comes first, under "runtime stack:", its C functions named
# from the symbol table (runtime/symtab.c) -- at GLTRACEBACK=system, and at
# the default level too: a lock-order problem is the runtime's fault, and
# such a throw shows the runtime's frames whatever the setting, as Go
# 1.19's throwTypeRuntime (a deadlock, the program's fault, does not:
# runtime/core_test's "deadlock")
for tb in GLTRACEBACK=system GLTRACEBACK=; do
	runcase "GLDEBUG=lockrank=1 $tb" 0
	if [ $rc -eq 2 ] && grep -q '^runtime stack:$' "$tmp/out" &&
		sed -n '/^runtime stack:$/,/^$/p' "$tmp/out" | grep -q '^rankProblem(\.\.\.)$' &&
		sed -n '/^runtime stack:$/,/^$/p' "$tmp/out" | grep -A1 '^lockWithRank_m(\.\.\.)$' | grep -q '^	lockrank\.c +0x' &&
		! grep -q 'runtime C frame' "$tmp/out"; then
		echo "ok   case 0, $tb: runtime stack: rankProblem, lockWithRank_m (lockrank.c)"
	else
		fail "case 0, $tb: exit $rc, want 2 and a runtime stack naming rankProblem and lockWithRank_m"
		sed 's/^/    /' "$tmp/out" | head -24
	fi
done

# 3. the pairs
runcase GLDEBUG=lockrank=2 select
if [ $rc -eq 0 ] && grep -q '^lockrank: hchan -> hchan$' "$tmp/out" && grep -q '^got 1$' "$tmp/out"; then
	echo "ok   lockrank=2: select's hchan -> hchan printed"
else
	fail "lockrank=2 select: exit $rc, want 0 and \"lockrank: hchan -> hchan\""
	sed 's/^/    /' "$tmp/out" | head -10
fi
exit $status
