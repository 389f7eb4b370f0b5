#!/bin/sh
# testdata/gcassist.sh — mark assists (runtime/mgcmark.c, gcAssistAlloc): with
# one P the background worker marks only in the slices the program leaves
# it, so without assists bench/gc/pause.gl's two allocators (256 MiB/s
# against a 32 MiB live set) ran the heap to the pacer's backstop, which
# finished each mark with the world stopped: 2 cycles in 2 s, HeapSys 308
# MiB, a 26 ms pause, and the garbage rate fell to 190 MiB/s.  With
# assists the allocators pay for what they allocate: about 10 cycles,
# HeapSys near 116 MiB, pauses of a fraction of a millisecond.  The bounds
# below sit halfway (they must hold on a loaded machine too): HeapSys
# under 200 MiB and at least 4 cycles; and gctrace's assist CPU is not 0.
# runtime.GC's cycle is a concurrent one.  Then, at GLMAXPROCS=4, assists park on the assist queue, the mark
# workers, one per P, mark at the same time, and marks end by the ragged
# barrier; and gctrace's lines are in Go 1.19's format.
. "$(dirname "$0")/testlib.sh"

build pause "$top_srcdir/bench/gc/pause.gl" || exit 1
GLMAXPROCS=1 GLDEBUG=gctrace=1 timeout 60 "$tmp/pause" -secs=2 >"$tmp/out" 2>&1
rc=$?
res=$(grep '^cycles=' "$tmp/out")
if [ $rc -ne 0 ] || [ -z "$res" ]; then
	fail "pause at GLMAXPROCS=1: exit $rc"
	tail -5 "$tmp/out" | sed 's/^/    /'
	exit 1
fi
cycles=$(echo "$res" | sed 's/.*cycles=\([0-9]*\).*/\1/')
heap=$(echo "$res" | sed 's/.*heap_sys_mib=\([0-9]*\).*/\1/')
# the CPU split: "P1+ASSIST/BG/IDLE+P2 ms cpu"; any cycle with assist work
assisted=$(grep '^gc ' "$tmp/out" | sed 's/.* ms clock, [0-9.]*+\([0-9.]*\)\/.*/\1/' | grep -cv '^0$')
if [ "$heap" -ge 200 ] || [ "$cycles" -lt 4 ] || [ "$assisted" -eq 0 ]; then
	fail "GLMAXPROCS=1: HeapSys $heap MiB (want < 200), $cycles cycles (want >= 4), $assisted cycles with assists (want > 0)"
	echo "    $res"
	grep '^gc ' "$tmp/out" | tail -3 | sed 's/^/    /'
else
	echo "ok   GLMAXPROCS=1: HeapSys $heap MiB, $cycles cycles, $assisted with assists ($res)"
fi

# runtime.GC runs a concurrent cycle, as Go's (mgc.c, gcForcedCycle):
# pause.gl calls it once its live set is built, and that cycle's gctrace
# line ("(forced)") has a first pause and a mark with the world running
# — a stop-the-world cycle prints 0 for the first phase and has no
# assist/background/idle split to speak of.
forced=$(grep '^gc .*(forced)$' "$tmp/out" | head -1)
case "$forced" in
"") fail "runtime.GC: no (forced) gctrace line" ;;
*"%: 0+"*) fail "runtime.GC stopped the world for its whole cycle: $forced" ;;
*) echo "ok   runtime.GC's cycle is concurrent: ${forced#gc }" ;;
esac

# Assists that cannot pay park on the assist queue (mgcmark.c,
# gcParkAssist) until the worker's scan work pays them: with more Ps than
# one, an allocator often finds no grey object free while the worker holds
# some, and no credit.  The execution trace shows each park with Go's wait
# reason; at GLMAXPROCS=4 a 2-second run parked 154-851 times when this was
# written, when the worker held the one work list for its whole slice, and
# 37-56 times (six runs) once every drainer had blocks of its own
# (mgcmark.c's gcWork).  Since the trigger plans with the cons/mark ratio
# (mgcpacer.c) the mark mostly finishes before assists are needed at 256
# MiB/s (2-12 parks in three runs), so this run allocates 1 GiB/s: 63-105
# parks in three runs.  The run must also end (a parked assist nobody
# wakes would hang it: timeout).
GLMAXPROCS=4 GLDEBUG=trace="$tmp/trace.json",gcpacertrace=1 timeout 60 "$tmp/pause" -secs=2 -rate=1024 >"$tmp/out4" 2>&1
rc=$?
parks=$(grep -o '"reason":"GC assist wait"' "$tmp/trace.json" 2>/dev/null | wc -l)
if [ $rc -ne 0 ] || [ "$parks" -eq 0 ]; then
	fail "GLMAXPROCS=4: exit $rc, $parks assists parked (want > 0)"
	tail -3 "$tmp/out4" | sed 's/^/    /'
else
	echo "ok   GLMAXPROCS=4: $parks assists parked on the assist queue ($(grep '^cycles=' "$tmp/out4"))"
fi

# The same trace: one mark worker per P (mgc.c, P.gcBgMarkWorker), and
# workers marking at once on different Ps — each worker's turns are the
# trace's slices of a goroutine named runtime.gcBgMarkWorker on a P's row
# (pid 1); two slices of different workers that overlap in time are
# parallel marking (when this was written: 4 workers, 66 overlaps in 79
# turns in a 1-second run).  With one worker for all Ps there were none.
workers=$(python3 - "$tmp/trace.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
turns = sorted((e["ts"], e["ts"] + e["dur"], e["args"]["g"]) for e in ev
               if e.get("ph") == "X" and e.get("pid") == 1 and "runtime.gcBgMarkWorker" in e.get("name", ""))
overlaps = 0
for i, a in enumerate(turns):
    for b in turns[i + 1:]:
        if b[0] >= a[1]:
            break
        overlaps += b[2] != a[2]
print(len({t[2] for t in turns}), overlaps)
PY
)
set -- $workers
if [ "${1:-0}" -lt 2 ] || [ "${2:-0}" -eq 0 ]; then
	fail "GLMAXPROCS=4: $1 mark workers ran, $2 turns overlapped (want >= 2 workers, > 0 overlaps)"
else
	echo "ok   GLMAXPROCS=4: $1 mark workers ran, $2 pairs of turns overlapped"
fi

# The same run: how each mark ended (mgc.c, gcMarkDone; GLDEBUG=gcpacertrace=1
# prints a line per cycle).  A worker that runs dry first runs the ragged
# barrier — every P flushes its write-barrier buffer at a safe point of its
# own (proc.c's forEachP) — and stops the world only when that greyed
# nothing, so the last pause has (nearly) nothing left to mark.  Cycles
# ended otherwise print 0 barriers: the pacer's backstop (a heap half
# again past its goal, at start-up) finishes a mark in a pause.  When this
# was written, three runs: 40-41 of 42 cycles ended by the barrier, each
# with 0 B scanned in its pause; one in 42 needed a second barrier.
# Wanted: three quarters of the cycles end by the barrier, each of those
# with under 64 KiB scanned in its pause.
markdone=$(grep '^pacer: mark done after' "$tmp/out4" | awk '
	{ n++; if ($5 > 0) { b++; if ($(NF-5) >= 65536) big++ } }
	END { printf "%d %d %d\n", n, b, big }')
set -- $markdone
if [ "${1:-0}" -eq 0 ] || [ $((4 * ${2:-0})) -lt $((3 * $1)) ] || [ "${3:-0}" -ne 0 ]; then
	fail "GLMAXPROCS=4: of $1 marks, $2 ended by the ragged barrier (want 3/4), $3 of those scanned >= 64 KiB in the pause (want 0)"
	grep '^pacer:' "$tmp/out4" | head -3 | sed 's/^/    /'
else
	echo "ok   GLMAXPROCS=4: $2 of $1 marks ended by the ragged barrier, none scanning 64 KiB in its pause"
fi

# gctrace's line in Go 1.19's format, field by field (runtime/mgc.c,
# gctrace): times as Go's fmtNSAsMS writes them (whole ms from 10 ms,
# else two significant digits), then stacks and globals.  The pattern is
# checked against Go's own lines first, so it cannot drift from Go's.
T='(0|0\.0[0-9][0-9]|0\.[1-9][0-9]|[1-9]\.[0-9]|[1-9][0-9]+)'
LINE="^gc [0-9]+ @[0-9]+\.[0-9]{3}s [0-9]+%: $T\+$T\+$T ms clock, $T\+$T/$T/$T\+$T ms cpu, [0-9]+->[0-9]+->[0-9]+ MB, [0-9]+ MB goal, [0-9]+ MB stacks, [0-9]+ MB globals, [0-9]+ P( \(forced\))?\$"
# gctracelines FILE WHO: every "gc " line of FILE matches LINE, and there
# is one at least.
gctracelines() {
	n=$(grep -c '^gc ' "$1")
	bad=$(grep '^gc ' "$1" | grep -cEv "$LINE")
	if [ "$n" -eq 0 ] || [ "$bad" -ne 0 ]; then
		fail "$2: $bad of $n gctrace lines differ from Go 1.19's format"
		grep '^gc ' "$1" | grep -Ev "$LINE" | head -3 | sed 's/^/    /'
	else
		echo "ok   $2: $n gctrace lines in Go 1.19's format"
	fi
}
GO=${GO:-/usr/lib/go-1.19/bin/go}
if [ -x "$GO" ] || command -v "$GO" >/dev/null 2>&1; then
	cp "$top_srcdir/bench/gc/pause.go" "$tmp/pause.go"
	if (cd "$tmp" && GO111MODULE=off timeout 120 "$GO" build -o pause-go pause.go) >"$tmp/gobuild" 2>&1; then
		GODEBUG=gctrace=1 GOMAXPROCS=2 timeout 60 "$tmp/pause-go" -secs=1 >"$tmp/goout" 2>&1
		gctracelines "$tmp/goout" "Go's own lines (the pattern)"
	else
		fail "go build of bench/gc/pause.go"
	fi
else
	echo "skip Go's side of the gctrace check: no go at $GO"
fi
gctracelines "$tmp/out" "gl"
exit $status
