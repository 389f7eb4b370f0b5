#!/usr/bin/env python3
"""What gl reports about stack copies, where Go reports nothing (seed 001):
runtime.MemStats.StackCopies, StackBytesCopied and StackCopyNs, and the
line GLDEBUG=stacktrace=1 prints for each copy,

    stack copy: goroutine N OLD -> NEW bytes, copied USED in NS ns, stack=[lo, hi]

must agree with each other: a goroutine that grows its stack by recursing
is counted copy for copy, byte for byte and nanosecond for nanosecond by
both; runtime.GC() then halves its stack while it is parked (a copy to a
smaller size, counted the same way, and StackInuse drops by what was
freed); the bounds are the old stack's.  Programs in testdata/run cannot
test this: their goldens come from Go, which has neither.

Then the stack a new goroutine starts with (GLDEBUG=adaptivestackstart,
runtime/stack.c), counted by the same StackCopies: START's goroutines all
come from one go statement, one at a time or parked together, deep (a
64 KiB stack and more) or not.  Under 0 every goroutine starts at 2 KiB
and the deep ones copy their stacks five times or more; under 1 (Go's)
they start at the average stack in use that the last collection found,
so deep goroutines parked during a collection make the next ones start
big; under site (gl's) the statement learns from its goroutines as they
end: the deep ones copy at most a tenth as often, goroutines started
right after them start big, and after a run of shallow ones (whose
probes, one start in 32 at 2 KiB, measure them) they start small again.

Usage: GLC=path/to/glc testdata/stackstats.py   (exit 0 pass, 1 fail)"""
import os, re, subprocess, sys, tempfile

PROG = r'''
package main

import "runtime"

//gl:noinline
func deep(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	if n == 0 {
		return 0
	}
	return deep(n-1) + int(pad[(n*3)%64])
}

func main() {
	done, park := make(chan bool), make(chan bool)
	var m0, m1, m2 runtime.MemStats
	// a first collection makes the runtime's own goroutines (a mark
	// worker per P), whose stacks would count in StackInuse below
	runtime.GC()
	runtime.ReadMemStats(&m0)
	println("mark grow")
	go func() {
		deep(3000) // about 400 KB of stack: 8 copies
		done <- true
		<-park // runtime.GC shrinks the stack while it waits here
		done <- true
	}()
	<-done
	runtime.ReadMemStats(&m1)
	println("grew", m1.StackCopies-m0.StackCopies, m1.StackBytesCopied-m0.StackBytesCopied,
		m1.StackCopyNs-m0.StackCopyNs)
	println("mark shrink")
	runtime.GC()
	runtime.ReadMemStats(&m2)
	println("shrank", m2.StackCopies-m1.StackCopies, m2.StackBytesCopied-m1.StackBytesCopied,
		m2.StackCopyNs-m1.StackCopyNs, m1.StackInuse-m2.StackInuse)
	park <- true
	<-done
}
'''

START = r'''
package main

import (
	"os"
	"runtime"
)

// deep recurses n calls of about 170 bytes; given a park channel, it
// says it got there and waits at the bottom, its stack in use.
//gl:noinline
func deep(n int, park chan bool) int {
	var pad [100]byte
	pad[n%100] = byte(n)
	if n == 0 {
		if park != nil {
			done <- true
			<-park
		}
		return 0
	}
	return deep(n-1, park) + int(pad[(n*3)%100])
}

func worker(depth int, park chan bool, done chan bool) {
	deep(depth, park)
	done <- true
}

// spawn is the one go statement every goroutine here starts from.
func spawn(depth int, park chan bool, done chan bool) {
	go worker(depth, park, done)
}

var done = make(chan bool)

// quiesce waits until the goroutines of the last phase have ended: one
// that sent done may still sit in a run queue (each go statement's new
// goroutine takes runnext and pushes it back) holding its stack, which
// its end frees inside the next phase's measurement (25 of them, 6 MB,
// in one loaded run).
func quiesce() {
	for runtime.NumGoroutine() > 1 {
		runtime.Gosched()
	}
}

// MemStats before and after n goroutines of this depth, started one at
// a time (each parks on park, if not nil, once it has said done)
func measure(n, depth int, park chan bool) (m0, m1 runtime.MemStats) {
	quiesce()
	runtime.ReadMemStats(&m0)
	for i := 0; i < n; i++ {
		spawn(depth, park, done)
		<-done
	}
	runtime.ReadMemStats(&m1)
	return
}

// one at a time: the copies n goroutines of this depth made
func serial(n, depth int) uint64 {
	m0, m1 := measure(n, depth, nil)
	return m1.StackCopies - m0.StackCopies
}

// n goroutines of this depth parked at once: stack bytes each (signed:
// stacks freed meanwhile show as less, never as a wrapped huge number)
func parked(n, depth int, gc bool) int64 {
	park := make(chan bool)
	m0, m1 := measure(n, depth, park)
	if gc {
		runtime.GC() // the average the collector finds (adaptivestackstart=1)
	}
	for i := 0; i < n; i++ {
		park <- true
	}
	for i := 0; i < n; i++ {
		<-done
	}
	return int64(m1.StackInuse-m0.StackInuse) / int64(n)
}

func main() {
	runtime.GC() // the runtime's own goroutines first
	println("deep", serial(256, 600))       // about 100 KiB each
	println("parkshallow", parked(64, 0, false)) // right after deep ones
	println("shallow", serial(256, 0))
	println("parkshallow2", parked(64, 0, false)) // after the shallow ones
	println("parkdeep", parked(64, 600, true))
	println("deep2", serial(256, 600))
	os.Exit(0)
}
'''
TRACE = re.compile(r"stack copy: goroutine (\d+) (\d+) -> (\d+) bytes, copied (\d+) in (\d+) ns, "
                   r"stack=\[0x([0-9a-f]+), 0x([0-9a-f]+)\]$")


def main():
    glc = os.environ.get("GLC", "glc")
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "stackstats.gl"), os.path.join(tmp, "stackstats")
        open(src, "w").write(PROG)
        b = subprocess.run([glc, "build", "-o", exe, src], capture_output=True, text=True)
        if b.returncode != 0:
            print("FAIL: build:\n" + b.stderr)
            return 1
        env = dict(os.environ, GLDEBUG="stacktrace=1")
        p = subprocess.run([exe], capture_output=True, text=True, timeout=60, env=env)
        plain = subprocess.run([exe], capture_output=True, text=True, timeout=60,
                               env={k: v for k, v in os.environ.items() if k != "GLDEBUG"})
    if p.returncode != 0 or plain.returncode != 0:
        print("FAIL: exit status %d, %d\n%s" % (p.returncode, plain.returncode, p.stderr[-2000:]))
        return 1
    # stderr holds the program's println lines and the trace, in order
    phase, traces, counts = None, {"grow": [], "shrink": []}, {}
    for l in p.stderr.splitlines():
        if l.startswith("mark "):
            phase = l.split()[1]
        elif l.startswith(("grew ", "shrank ")):
            counts[phase] = [int(x) for x in l.split()[1:]]
            phase = None
        elif l.startswith("stack copy:"):
            m = TRACE.match(l)
            if not m:
                fails.append("malformed trace line: " + l)
            elif phase:
                g, old, new, used, ns, lo, hi = m.groups()
                traces[phase].append([int(g), int(lo, 16), int(hi, 16), int(old), int(new), int(used), int(ns)])
        elif l.strip():
            fails.append("unexpected output: " + l)
    for phase in ("grow", "shrink"):
        tr, c = traces[phase], counts.get(phase)
        if c is None:
            fails.append("no counts for %s" % phase)
            continue
        print("%-6s trace: %d copies, %d bytes, %d ns; MemStats: %s" % (
            phase, len(tr), sum(t[5] for t in tr), sum(t[6] for t in tr), " ".join(map(str, c))))
        if [len(tr), sum(t[5] for t in tr), sum(t[6] for t in tr)] != c[:3]:
            fails.append("%s: the trace and MemStats disagree" % phase)
        for g, lo, hi, old, new, used, ns in tr:
            if hi - lo != old or used > old or used == 0:
                fails.append("%s: inconsistent line: stack [%x, %x] %d -> %d copied %d" % (
                    phase, lo, hi, old, new, used))
    grow, shrink = traces["grow"], traces["shrink"]
    if len(grow) < 5 or any(new != 2 * old for _, _, _, old, new, _, _ in grow):
        fails.append("grow: want at least 5 doublings, got %s" % [(t[3], t[4]) for t in grow])
    if not shrink or any(new * 2 != old for _, _, _, old, new, _, _ in shrink):
        fails.append("shrink: want halvings, got %s" % [(t[3], t[4]) for t in shrink])
    if "shrink" in counts and counts["shrink"][3] != sum(old - new for _, _, _, old, new, _, _ in shrink):
        fails.append("shrink: StackInuse dropped by %d, the halvings freed %d" % (
            counts["shrink"][3], sum(old - new for _, _, _, old, new, _, _ in shrink)))
    if grow and shrink and grow[-1][0] not in {t[0] for t in shrink}:
        fails.append("shrink: the goroutine that grew (%d) was not shrunk" % grow[-1][0])
    # without GLDEBUG: no trace, the same counts of copies
    if "stack copy:" in plain.stderr:
        fails.append("trace printed without GLDEBUG=stacktrace=1")
    pc = {l.split()[0]: int(l.split()[1]) for l in plain.stderr.splitlines() if l.startswith(("grew", "shrank"))}
    if counts.get("grow") and pc.get("grew") != counts["grow"][0]:
        fails.append("without the trace: %s copies, with: %d" % (pc.get("grew"), counts["grow"][0]))
    fails += startsizes(glc)
    for f in fails:
        print("FAIL: " + f)
    print("stackstats: %s" % ("FAIL" if fails else "PASS"))
    return 1 if fails else 0


def startsizes(glc):
    """START under each adaptivestackstart mode: what went wrong."""
    out, fails = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "start.gl"), os.path.join(tmp, "start")
        open(src, "w").write(START)
        b = subprocess.run([glc, "build", "-o", exe, src], capture_output=True, text=True)
        if b.returncode != 0:
            return ["start: build:\n" + b.stderr]
        for mode in ("0", "1", "site"):
            env = dict(os.environ, GLDEBUG="adaptivestackstart=" + mode)
            p = subprocess.run([exe], capture_output=True, text=True, timeout=60, env=env)
            if p.returncode != 0:
                return ["start: adaptivestackstart=%s: exit %d\n%s" % (mode, p.returncode, p.stderr[-2000:])]
            out[mode] = {l.split()[0]: int(l.split()[1]) for l in p.stderr.splitlines() if len(l.split()) == 2}
            print("start  adaptivestackstart=%-4s %s" % (mode, " ".join("%s=%d" % kv for kv in out[mode].items())))
    none, go, site = out["0"], out["1"], out["site"]
    want = [("0: a deep goroutine copies its stack 5 times or more", none["deep"] >= 5 * 256),
            ("0: the same after a collection", none["deep2"] >= 5 * 256),
            ("1: before a collection sees deep stacks, as 0", go["deep"] >= 0.9 * none["deep"]),
            ("1: after one did, at most a quarter of 0's copies", go["deep2"] <= none["deep2"] / 4),
            ("site: at most a tenth of 0's copies", site["deep"] <= none["deep"] / 10),
            ("site: again, after the statement came back down", site["deep2"] <= none["deep2"] / 10),
            ("site: right after deep ones, goroutines start at 64 KiB or more", site["parkshallow"] >= 64 << 10),
            ("site: after shallow ones, at 4 KiB or less", site["parkshallow2"] <= 4 << 10)]
    return ["start: " + what for what, ok in want if not ok]


if __name__ == "__main__":
    sys.exit(main())
