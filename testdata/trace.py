#!/usr/bin/env python3
"""GLDEBUG=trace=FILE (runtime/trace.c): the execution trace is Chrome's
trace-event JSON and tells a story that holds together.

testdata/trace/sched.gl runs one kind of scheduling per mode (channel
hand-offs, a loop only a signal stops, blocking system calls, the
collector, stack growth, many goroutines, and the exits: os.Exit, a panic,
a deadlock).  Each mode runs traced at GLMAXPROCS 1, 2 and 4, and the
hand-offs also under GLDEBUG=stackforcemove=1; every trace must satisfy:

  - it parses, and its events have the fields of their kind;
  - a goroutine's state spans follow one another without gap or overlap,
    and each change of state is one the scheduler can make;
  - no P runs two goroutines at once, no M holds two Ps at once;
  - every "running" span of a goroutine is the same span on its P's track;
  - every ready arrow ("s") ends ("f") where its goroutine next runs;
and, per mode, what the program did is there: 2,000 round trips leave at
least 2,000 arrows each way; the spinning loop is preempted
asynchronously; the pipe's reader waits in the poller, which readies it;
the collector's
pauses and marks appear; the recursion's stack grows by doubling; 50
goroutines are created and end; the exits still write the trace.  Every
run has a time limit: a hang fails.  Also: a trace path that cannot be
created is reported and the program runs on.
"""
import json
import os
import subprocess
import sys
import tempfile

top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
glc = os.environ.get("GLC", os.path.join(os.environ.get("top_builddir", top), "glc"))
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def ns(x):
    """A JSON time in µs with 3 decimals, as integer nanoseconds."""
    return round(x * 1000)


# The status changes the scheduler makes (runtime/proc.c, preempt.c,
# stack.c); a goroutine's consecutive spans must be one of these.
ALLOWED = {
    ("runnable", "running"),
    ("running", "runnable"), ("running", "waiting"), ("running", "syscall"),
    ("running", "copystack"), ("running", "preempted"),
    ("waiting", "runnable"), ("waiting", "running"),  # stopTheWorld's own G
    ("waiting", "copystack"),
    ("syscall", "running"), ("syscall", "runnable"),
    ("copystack", "running"), ("copystack", "waiting"),
    ("preempted", "waiting"), ("preempted", "runnable"),
}


def check(name, path):
    """The invariants every trace keeps; returns the parsed events."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{name}: trace does not parse: {e}")
        return None
    evs = doc.get("traceEvents")
    if not isinstance(evs, list) or not evs:
        fail(f"{name}: no traceEvents")
        return None
    bad = 0
    for e in evs:
        ph = e.get("ph")
        need = {"X": ("ts", "dur", "pid", "tid", "name"), "i": ("ts", "pid", "tid", "name"),
                "s": ("ts", "id", "pid", "tid"), "f": ("ts", "id", "pid", "tid"),
                "M": ("pid", "name", "args")}.get(ph)
        if need is None or any(k not in e for k in need):
            bad += 1
            if bad < 4:
                fail(f"{name}: malformed event {e}")
    if bad:
        return None

    # goroutine tracks: contiguous spans, allowed changes
    tracks = {}
    for e in evs:
        if e["ph"] == "X" and e["pid"] == 3:
            tracks.setdefault(e["tid"], []).append(e)
    errs = []
    for g, spans in tracks.items():
        spans.sort(key=lambda e: ns(e["ts"]))
        for a, b in zip(spans, spans[1:]):
            if ns(a["ts"]) + ns(a["dur"]) != ns(b["ts"]):
                errs.append(f"G{g}: {a['name']} at {a['ts']}+{a['dur']} then {b['name']} at {b['ts']}")
            if (a["name"], b["name"]) not in ALLOWED:
                errs.append(f"G{g}: {a['name']} -> {b['name']} at {b['ts']}")
    for msg in errs[:5]:
        fail(f"{name}: {msg}")

    # P and M tracks: one thing at a time
    for pid, what in ((1, "P"), (2, "M")):
        rows = {}
        for e in evs:
            if e["ph"] == "X" and e["pid"] == pid:
                rows.setdefault(e["tid"], []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
        for tid, spans in rows.items():
            spans.sort()
            for a, b in zip(spans, spans[1:]):
                if b[0] < a[1]:
                    fail(f"{name}: {what}{tid} runs {a[2]} and {b[2]} at once ({a[0]}..{a[1]} and {b[0]})")
                    break

    # running spans: the same on the goroutine's track and its P's
    onp = {(e["args"]["g"], ns(e["ts"]), ns(e["dur"])) for e in evs
           if e["ph"] == "X" and e["pid"] == 1 and not e["name"].endswith("(stack copy)")}
    ong = {(e["tid"], ns(e["ts"]), ns(e["dur"])) for e in evs
           if e["ph"] == "X" and e["pid"] == 3 and e["name"] == "running"}
    if onp != ong:
        diff = sorted(onp ^ ong)[:3]
        fail(f"{name}: {len(onp ^ ong)} running spans differ between P and goroutine tracks, e.g. {diff}")

    # ready arrows: each start has its end, later, where its goroutine runs
    starts = {e["id"]: e for e in evs if e["ph"] == "s"}
    ends = {e["id"]: e for e in evs if e["ph"] == "f"}
    runs = {(e["tid"], ns(e["ts"])) for e in evs if e["ph"] == "X" and e["pid"] == 3 and e["name"] == "running"}
    lost = [i for i in starts if i not in ends]
    # an arrow whose goroutine never ran again before the end is left open
    lastts = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in evs if "ts" in e)
    for i, f in ends.items():
        s = starts.get(i)
        if s is None or ns(f["ts"]) < ns(s["ts"]) or (f["tid"], ns(f["ts"])) not in runs:
            fail(f"{name}: ready arrow {i} does not end where its goroutine runs: {s} {f}")
            break
    if len(lost) > len(tracks):
        fail(f"{name}: {len(lost)} ready arrows never end")
    return evs


def count(evs, **kw):
    return sum(1 for e in evs if all(e.get(k) == v for k, v in kw.items()))


def expect(name, what, ok):
    if not ok:
        fail(f"{name}: {what}")


def modechecks(mode, name, evs, out, procs):
    """What each mode must show."""
    gs = {e["tid"] for e in evs if e.get("pid") == 3 and e["ph"] == "X"}
    if mode == "pingpong":
        expect(name, "output", out.startswith("pingpong 2001000"))
        expect(name, "2,000 hand-offs each way: at least 4,000 ready arrows",
               count(evs, ph="s") >= 4000)
        # each transfer of an unbuffered channel parks one side (the
        # first to come), so 4,000 channel waits at least
        waits = sum(1 for e in evs if e["ph"] == "X" and e["pid"] == 3 and
                    e.get("args", {}).get("reason") in ("chan send", "chan receive"))
        expect(name, f"4,000 channel waits (got {waits})", waits >= 4000)
        expect(name, "the partner named", any(e["ph"] == "M" and e["args"].get("name") == "G2 main.pingpong.func1"
                                                 for e in evs))
    elif mode == "spin":
        expect(name, "output", out.startswith("spin done"))
        expect(name, "the loop preempted asynchronously (runnable, why 'preempted (async)')",
               any(e.get("args", {}).get("why") == "preempted (async)" for e in evs))
        for p in range(procs):  # a spinner for every P
            expect(name, f"P{p} ran something", count(evs, ph="X", pid=1, tid=p) > 0)
    elif mode == "syscalls":
        expect(name, "output", out.startswith("read 5"))
        expect(name, "system calls", count(evs, ph="X", pid=3, name="syscall") >= 5)
        # the pipe is non-blocking: its reader parks (IO wait) until the
        # poller sees a write, 2 ms apart, five times
        expect(name, "five waits for the pipe",
               sum(1 for e in evs if e.get("args", {}).get("reason") == "IO wait") >= 5)
        expect(name, "five goroutines readied by the poller",
               sum(1 for e in evs if e.get("args", {}).get("why") == "netpoll") >= 5)
    elif mode == "gc":
        expect(name, "output", out.startswith("gc 40"))
        stw = [e for e in evs if e["ph"] == "X" and e["pid"] == 4 and e["tid"] == 0]
        marks = [e for e in evs if e["ph"] == "X" and e["pid"] == 4 and e["tid"] == 1]
        expect(name, f"pauses and marks (got {len(stw)} STW, {len(marks)} marks)", len(stw) >= 2 and len(marks) >= 2)
        # runtime.GC runs a concurrent cycle, as Go's (mgc.c,
        # gcForcedCycle): its first pause, then a mark beside the program
        forced = [e for e in stw if e["name"] == "STW: GC (forced)"]
        expect(name, f"runtime.GC's two first pauses (got {len(forced)})", len(forced) >= 2)
        expect(name, "no mark with the world stopped",
               not any(e["name"] == "mark (world stopped)" for e in marks))
        expect(name, "a concurrent mark after each of runtime.GC's pauses",
               all(any(m["name"] == "mark" and ns(m["ts"]) >= ns(f["ts"]) for m in marks) for f in forced))
    elif mode == "stack":
        expect(name, "output", out.startswith("deep 250216"))
        grow = [e["args"] for e in evs if e["ph"] == "i" and e["name"] == "stack growth"]
        expect(name, f"the stack doubles at least 4 times (got {grow[:8]})",
               sum(1 for a in grow if a["to"] == 2 * a["from"]) >= 4)
    elif mode == "many":
        expect(name, "output", out.startswith("many 1225"))
        # a go statement with arguments starts in a thunk with no name:
        # the track says where it was created
        creates = [e for e in evs if e["ph"] == "i" and e["name"] == "create" and
                   e["args"]["fn"] == "created by main.many"]
        endsn = count(evs, ph="i", name="end")
        expect(name, f"50 goroutines created by main.many (got {len(creates)})", len(creates) == 50)
        expect(name, f"and ended (got {endsn} ends)", endsn >= 50)
        expect(name, "sleeps", any(e.get("args", {}).get("reason") == "sleep" for e in evs))
        expect(name, "Gosched", any(e.get("args", {}).get("why") == "Gosched" for e in evs))
    elif mode in ("exit", "panic", "deadlock"):
        expect(name, "goroutines traced", len(gs) >= 2)


def main():
    if not os.path.exists(glc):
        print(f"trace.py: no glc at {glc}")
        return 1
    tmp = tempfile.mkdtemp(prefix="trace.", dir=os.environ.get("TMPDIR"))
    exe = os.path.join(tmp, "sched")
    r = subprocess.run([glc, "build", "-o", exe, os.path.join(top, "testdata/trace/sched.gl")],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        print("FAIL build:", r.stderr)
        return 1
    wantrc = {"exit": 3, "panic": 2, "deadlock": 2}
    runs = [(m, p, "") for m in ("pingpong", "spin", "syscalls", "gc", "stack", "many", "exit", "panic", "deadlock")
            for p in (1, 2, 4)]
    runs += [("pingpong", p, "stackforcemove=1") for p in (1, 2)]
    for mode, procs, extra in runs:
        name = f"{mode} GLMAXPROCS={procs}" + (f" {extra}" if extra else "")
        path = os.path.join(tmp, f"{mode}.{procs}.json")
        env = dict(os.environ, GLMAXPROCS=str(procs),
                   GLDEBUG=f"trace={path}" + (f",{extra}" if extra else ""))
        try:
            r = subprocess.run([exe, mode], env=env, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            fail(f"{name}: killed after 120 s")
            continue
        if r.returncode != wantrc.get(mode, 0):
            fail(f"{name}: exit status {r.returncode}, want {wantrc.get(mode, 0)}: {r.stderr[-300:]}")
            continue
        before = failures
        evs = check(name, path)
        if evs is not None:
            modechecks(mode, name, evs, r.stdout, procs)
        if failures == before:
            print(f"ok   {name}: {len(evs)} events, {os.path.getsize(path)} bytes")
        os.unlink(path)

    # a trace file that cannot be created: said, and the program runs on
    env = dict(os.environ, GLMAXPROCS="2", GLDEBUG=f"trace={tmp}/no/such/dir/t.json")
    r = subprocess.run([exe, "pingpong"], env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not r.stdout.startswith("pingpong 2001000") or \
            f"GLDEBUG=trace={tmp}/no/such/dir/t.json: No such file or directory" not in r.stderr:
        fail(f"bad path: exit {r.returncode}, stderr {r.stderr!r}")
    else:
        print("ok   bad path: " + r.stderr.strip())
    subprocess.run(["rm", "-rf", tmp])
    print(f"{'FAIL' if failures else 'PASS'}: testdata/trace.py, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
