#!/bin/sh
# testdata/preempt.sh — preemption (docs/preempt.md), what testdata/run cannot say with
# a golden file from Go: run.py already runs preempt_spin and preempt_fair
# there (a loop with no preemption point lets main run; loops in many
# goroutines all progress).  Here:
#   1. the runtime's own tests, testdata/runtime/preempt_*.gl against their
#      .out (written by hand: they use gl's test hooks), as they are and with
#      every stack moved at every function entry (GLDEBUG=stackforcemove=1):
#      registers kept alive across a forced stack scan, a storm of
#      preemption requests against deep recursion, signals landing in the
#      runtime's own stack switches (preempt_clock); the storm and forEachP
#      again with a mark always under way, at 1, 2, 4 and 8 Ps;
#   2. GLDEBUG=asyncpreemptoff=1: bench/preempt/preempt.gl hangs, and
#      `timeout 5` ends it with 124; leaf.gl's loop through a frameless leaf
#      hangs too, its loop through a function with a prologue does not,
#      nor its loop of map lookups (rt.h's entry check: entrySafePoint),
#      nor testdata/runtime/preempt_rtentry's loops, each on one kind of
#      map or channel operation or select;
#   3. the SIGQUIT dump lists every goroutine with its gl function and
#      file:line, the running ones too, then the registers; exit status 2;
#      two quits print one dump; GLTRACEBACK=system adds the runtime's C
#      frames, named; GLTRACEBACK=none leaves the goroutines out;
#      runtime/debug.SetTraceback raises a panic's traceback to every
#      goroutine or lowers it to none, but not below GLTRACEBACK's;
#   4. testdata/preemptentry.py: the machine code keeps what the signal
#      handler's safe-point test assumes (skipped without objdump).
# Every program runs under timeout: a hang is a failure, never a wait.
. "$(dirname "$0")/testlib.sh"

# 1. testdata/runtime/preempt_*.gl
for src in "$top_srcdir"/testdata/runtime/preempt_*.gl "$top_srcdir"/testdata/runtime/gc_*.gl; do
	n=$(basename "$src" .gl)
	build "$n" "$src" || continue
	checkmoved "$n" "$src" 120
done

# 1b. The collector's proof (docs/gc.md, "The concurrent mark"): the
# preemption storm (suspendG against deep recursion) and forEachP (the
# ragged barrier's mechanism) with a mark always under way (gcstress=7,
# concurrent), freed memory poisoned, every mark checked, and every stack
# moved at every function entry, at GLMAXPROCS 1, 2, 4 and 8 (about 2 s
# a run).
for n in preempt_storm preempt_foreachp; do
	[ -x "$tmp/$n" ] || continue # its build failed above
	for p in 1 2 4 8; do
		check "$n" "$top_srcdir/testdata/runtime/$n.gl" 120 \
			"GLMAXPROCS=$p GLDEBUG=gcstoptheworld=0,gcstress=7,clobberfree=1,gccheckmark=1,stackforcemove=1"
	done
done

# 2. asyncpreemptoff
if build preempt "$top_srcdir/bench/preempt/preempt.gl" && build leaf "$top_srcdir/bench/preempt/leaf.gl"; then
	expect() { # want-exit description command...
		want=$1 what=$2
		shift 2
		"$@" >"$tmp/out" 2>&1
		rc=$?
		if [ $rc -eq "$want" ]; then
			echo "ok   $what: exit $rc"
		else
			fail "$what: exit $rc, want $want"
			head -5 "$tmp/out" | sed 's/^/    /'
		fi
	}
	expect 0 "preempt" timeout 5 "$tmp/preempt"
	expect 124 "preempt, asyncpreemptoff=1" env GLDEBUG=asyncpreemptoff=1 timeout 5 "$tmp/preempt"
	expect 124 "leaf -mode=leaf, asyncpreemptoff=1" env GLDEBUG=asyncpreemptoff=1 timeout 5 "$tmp/leaf" -mode=leaf
	expect 0 "leaf -mode=call, asyncpreemptoff=1" env GLDEBUG=asyncpreemptoff=1 timeout 5 "$tmp/leaf" -mode=call
	expect 0 "leaf -mode=map, asyncpreemptoff=1" env GLDEBUG=asyncpreemptoff=1 timeout 5 "$tmp/leaf" -mode=map
	expect 0 "leaf -mode=leaf" timeout 5 "$tmp/leaf" -mode=leaf
	# every kind of map and channel operation and select, each alone in
	# its loop (built in part 1)
	[ -x "$tmp/preempt_rtentry" ] &&
		expect 0 "preempt_rtentry, asyncpreemptoff=1" env GLDEBUG=asyncpreemptoff=1 timeout 20 "$tmp/preempt_rtentry"
fi

# 3. SIGQUIT
sigquit() { # GLTRACEBACK value [twice]; leaves the dump in $tmp/sq.err, the exit status in $rc
	# The previous run's "ready" must not be seen: the shell goes on
	# before the child truncates sq.out, and a SIGQUIT sent before the
	# program installs its handler is lost (a background job starts with
	# SIGQUIT ignored), leaving timeout to end the run with 124.
	rm -f "$tmp/sq.out"
	GLTRACEBACK=$1 timeout 20 "$tmp/sigquit" >"$tmp/sq.out" 2>"$tmp/sq.err" &
	pid=$!
	i=0
	while [ $i -lt 200 ] && ! grep -qs ready "$tmp/sq.out"; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -QUIT $pid 2>/dev/null
	if [ "${2-}" = twice ]; then
		# a second quit while the first dump prints: timeout forwards
		# each to the program and to its process group, and the kernel
		# gives a quit to a thread that does not block it — another M
		sleep 0.01
		kill -QUIT $pid 2>/dev/null
	fi
	wait $pid
	rc=$?
}
if build sigquit "$top_srcdir/testdata/runtime/sigquit.gl"; then
	sigquit ""
	probs=""
	[ $rc -eq 2 ] || probs="$probs exit=$rc(want 2)"
	grep -q '^SIGQUIT: quit$' "$tmp/sq.err" || probs="$probs no-header"
	grep -q '^PC=0x[0-9a-f]* m=[0-9]* sigcode=' "$tmp/sq.err" || probs="$probs no-PC-line"
	n=$(grep -c '^goroutine [0-9]* \[' "$tmp/sq.err")
	[ "$n" -eq 5 ] || probs="$probs goroutines=$n(want 5)"
	# as Go prints them: "()" for a function without arguments; "(...)"
	# where Go prints argument words (blocked's channel), which gl does not have
	for f in main spinner ticker sleeper; do
		grep -q "^main\.$f()\$" "$tmp/sq.err" || probs="$probs no-main.$f()"
	done
	grep -q "^main\.blocked(\.\.\.)\$" "$tmp/sq.err" || probs="$probs no-main.blocked(...)"

	[ "$(grep -c '^	.*sigquit\.gl:[0-9]* +0x[0-9a-f]*$' "$tmp/sq.err")" -ge 5 ] || probs="$probs few-file:line"
	[ "$(grep -c '^goroutine [0-9]* \[running\]:$' "$tmp/sq.err")" -eq 2 ] || probs="$probs running!=2"
	grep -q '^goroutine [0-9]* \[chan receive\]:$' "$tmp/sq.err" || probs="$probs no-chan-receive"
	[ "$(grep -c '^goroutine [0-9]* \[sleep\]:$' "$tmp/sq.err")" -eq 2 ] || probs="$probs sleep!=2"
	grep -q 'stack unavailable' "$tmp/sq.err" && probs="$probs stack-unavailable"
	# the four go statements of main, each under its goroutine (Go's printCreatedBy)
	[ "$(grep -c '^created by main\.main$' "$tmp/sq.err")" -eq 4 ] || probs="$probs created-by!=4"
	for l in 43 44 45 46; do
		grep -A1 '^created by main\.main$' "$tmp/sq.err" | grep -q "^	.*sigquit\.gl:$l +0x[0-9a-f]*\$" ||
			probs="$probs no-created-by-line-$l"
	done
	grep -q '^rip    0x' "$tmp/sq.err" || probs="$probs no-registers"
	if [ -n "$probs" ]; then
		fail "SIGQUIT dump:$probs"
		sed 's/^/    /' "$tmp/sq.err" | head -60
	else
		echo "ok   SIGQUIT dump: 5 goroutines, created by lines, exit 2"
	fi
	# two quits: one dump, and every goroutine in it (the second M's too)
	sigquit "" twice
	n=$(grep -c '^goroutine [0-9]* \[' "$tmp/sq.err")
	d=$(grep -c '^SIGQUIT: quit$' "$tmp/sq.err")
	if [ $rc -ne 2 ] || [ "$n" -ne 5 ] || [ "$d" -ne 1 ] || grep -q 'stack unavailable' "$tmp/sq.err"; then
		fail "SIGQUIT twice: exit $rc, $d dumps, $n goroutines (want 2, 1, 5, no \"stack unavailable\")"
		sed 's/^/    /' "$tmp/sq.err" | grep -v '^    	' | head -30
	else
		echo "ok   SIGQUIT twice: one dump of 5 goroutines, exit 2"
	fi
	# GLTRACEBACK=system: the runtime's C frames too, named from the
	# symbol table (runtime/symtab.c): the channel receive's C
	sigquit system
	n=$(grep -c '^goroutine [0-9]* \[' "$tmp/sq.err")
	if [ $rc -eq 2 ] && [ "$n" -eq 5 ] && grep -q '^chanrecv[.a-z0-9]*(\.\.\.)$' "$tmp/sq.err" &&
		grep -A1 '^chanrecv[.a-z0-9]*(\.\.\.)$' "$tmp/sq.err" | grep -q '^	chan\.c +0x[0-9a-f]*$' &&
		! grep -q 'runtime C frame' "$tmp/sq.err"; then
		echo "ok   SIGQUIT with GLTRACEBACK=system: the runtime's frames named (chanrecv, chan.c)"
	else
		fail "SIGQUIT with GLTRACEBACK=system: exit $rc, $n goroutines, want 5 and a named chanrecv frame"
		sed 's/^/    /' "$tmp/sq.err" | head -40
	fi
	sigquit none
	n=$(grep -c '^goroutine ' "$tmp/sq.err")
	if [ $rc -ne 2 ] || [ "$n" -ne 0 ] || ! grep -q '^SIGQUIT: quit$' "$tmp/sq.err"; then
		fail "SIGQUIT with GLTRACEBACK=none: exit $rc, $n goroutines"
	else
		echo "ok   SIGQUIT with GLTRACEBACK=none: no goroutines, exit 2"
	fi
fi
# runtime/debug.SetTraceback: a panic's traceback follows the level set
# last, never below GLTRACEBACK's (unset: single) — ENV LEVEL
# GOROUTINES(of 2) WHAT, as Go 1.19 prints them with GOTRACEBACK
if build settraceback "$top_srcdir/testdata/runtime/settraceback.gl"; then
	while read -r env level want what; do
		env GLTRACEBACK="${env#-}" timeout 20 "$tmp/settraceback" "$level" >"$tmp/st.out" 2>&1
		rc=$?
		n=$(grep -c '^goroutine [0-9]* \[' "$tmp/st.out")
		p=$(grep -c '^main\.parked(' "$tmp/st.out")
		if [ $rc -eq 2 ] && grep -q '^panic: boom$' "$tmp/st.out" && [ "$n" -eq "$want" ] &&
			{ [ "$want" -lt 2 ] || [ "$p" -eq 1 ]; }; then
			echo "ok   SetTraceback($level), GLTRACEBACK=${env#-}: $what"
		else
			fail "SetTraceback($level), GLTRACEBACK=${env#-}: exit $rc, $n goroutines, $p main.parked (want 2, $want)"
			sed 's/^/    /' "$tmp/st.out" | head -20
		fi
	done <<'CASES'
- all 2 every goroutine
- none 1 the default, single, stays
- single 1 the panicking goroutine
all none 2 GLTRACEBACK's all stays
none all 2 every goroutine
none none 0 no goroutines
none single 1 the panicking goroutine
CASES
fi

# Go 1.19's two kinds of fatal error: the program's fault (gl_fatal, Go's
# fatal) at GLTRACEBACK's level, the runtime's (gl_throw, Go's throw) with
# the runtime's frames whatever the level; every goroutine either way --
# MODE ENV RUNTIMEFRAMES(yes/no) WHAT
if build fatal_kinds "$top_srcdir/testdata/runtime/fatal_kinds.gl"; then
	while read -r mode env frames what; do
		env GLTRACEBACK="${env#-}" timeout 20 "$tmp/fatal_kinds" "$mode" >"$tmp/fk.out" 2>&1
		rc=$?
		n=$(grep -c '^goroutine [0-9]* \[' "$tmp/fk.out")
		got=no
		grep -q '^gl_\(fatal\|throw\)(\.\.\.)$' "$tmp/fk.out" && got=yes
		if [ $rc -eq 2 ] && grep -q '^fatal error: ' "$tmp/fk.out" && [ "$n" -eq 2 ] && [ "$got" = "$frames" ] &&
			grep -q '^main\.parked(' "$tmp/fk.out"; then
			echo "ok   $mode, GLTRACEBACK=${env#-}: $what"
		else
			fail "$mode, GLTRACEBACK=${env#-}: exit $rc, $n goroutines, runtime frames: $got (want 2, 2, $frames)"
			sed 's/^/    /' "$tmp/fk.out" | head -30
		fi
	done <<'CASES'
fatal - no the program's fault: its own frames, both goroutines
fatal system yes the runtime's frames when asked for
throw - yes the runtime's fault: its frames, both goroutines
throw none yes the runtime's frames even at none, as Go 1.19's
CASES
	GLTRACEBACK= timeout 20 "$tmp/fatal_kinds" throw >"$tmp/fk.out" 2>&1
	if sed -n '/^runtime stack:$/,/^$/p' "$tmp/fk.out" | grep -q '^gl_throw(\.\.\.)$'; then
		echo "ok   throw from the runtime's stack: runtime stack: gl_throw"
	else
		fail "throw from the runtime's stack: no \"runtime stack:\" starting at gl_throw"
		sed 's/^/    /' "$tmp/fk.out" | head -20
	fi
fi

# 4. the machine code
set -- "$tmp"/preempt "$tmp"/leaf "$tmp"/sigquit "$tmp"/preempt_regs "$tmp"/preempt_storm
ls "$@" >/dev/null 2>&1 && {
	python3 "$here/preemptentry.py" "$@"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
}
exit $status
