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
    for f in fails:
        print("FAIL: " + f)
    print("stackstats: %s" % ("FAIL" if fails else "PASS"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
