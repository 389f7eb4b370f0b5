#!/usr/bin/env python3
"""A synthetic execution trace in the format GLDEBUG=trace=FILE writes
(docs/trace.md, Chrome's trace-event JSON), for glc trace's page and its
test (testdata/traceview.sh) while the runtime's side is not there, and for
traces larger or odder than a test program makes.

  testdata/tracegen.py [-o FILE] [--events N] [--procs P] [--goroutines G]
                    [--seed S] [--name TEXT]

A small discrete-event simulation of a scheduler: P Ps take goroutines from
one run queue; a goroutine runs for a while, then blocks (and is woken
later, by a goroutine that is running then: a flow arrow), enters a system
call (its M leaves its P, which another M takes), is preempted, yields,
grows its stack or exits; goroutines create others; collections stop the
world twice around a concurrent mark.  The trace holds the spec's
invariants: a goroutine's states follow one another without gaps or
overlaps, a P or an M holds one span at a time, and each running span has
its twin on the P's track.  The events are written shuffled, as the spec
allows.  --name TEXT puts TEXT into one goroutine's function name (the
test's "</script>").  The same seed gives the same file.
"""
import argparse
import bisect
import heapq
import itertools
import json
import random
import sys

WAIT_REASONS = ["chan receive", "chan send", "select", "sleep", "sync.Mutex.Lock",
                "IO wait", "semacquire", "GC assist wait"]
FUNCS = ["main.worker", "main.producer", "main.consumer", "main.compute", "main.serve"]


class Sim:
    def __init__(self, args):
        self.rnd = random.Random(args.seed)
        self.target = args.events
        self.maxg = args.goroutines
        self.odd = args.name
        self.out = []
        self.queue = []      # (time ns, seq, action, arguments)
        self.seq = itertools.count()
        self.runq = []
        self.procs = [{"id": i, "g": None, "m": None, "since": 0, "copying": False} for i in range(args.procs)]
        self.ms = []         # {"id", "p", "since"}
        self.idlems = []
        self.gs = {}         # goid: {"fn", "state", "since", "args", "left", "flow"}
        self.live = 0
        self.nextg = 1
        self.flows = itertools.count(1)
        self.stw = []        # (start, end) of the stop-the-world windows, in order
        self.gc = []         # the GC tracks' spans, kept aside until the trace's end is known
        self.now = 0

    # ---------------------------------------------------------- emitting
    def emit(self, ev):
        self.out.append(ev)

    def span(self, pid, tid, name, cat, start, end, args):
        ev = {"ph": "X", "pid": pid, "tid": tid, "name": name, "ts": start / 1000, "dur": (end - start) / 1000}
        if cat:
            ev["cat"] = cat
        if args:
            ev["args"] = args
        self.emit(ev)

    def instant(self, tid, name, t, args=None):
        ev = {"ph": "i", "s": "t", "pid": 3, "tid": tid, "name": name, "ts": t / 1000}
        if args:
            ev["args"] = args
        self.emit(ev)

    def setstate(self, goid, state, t, args=None):
        """Ends goid's current state span at t and starts state (None: the
        goroutine is gone)."""
        g = self.gs[goid]
        if g["state"] and t > g["since"]:
            self.span(3, goid, g["state"], g["state"], g["since"], t, g["args"])
        g.update(state=state, since=t, args=args)

    def at(self, t, action, *args):
        heapq.heappush(self.queue, (t, next(self.seq), action, args))

    # ---------------------------------------------------------- the world
    def instw(self, t):
        i = bisect.bisect_right(self.stw, (t, float("inf"))) - 1
        return i >= 0 and self.stw[i][0] <= t < self.stw[i][1]

    def nextstw(self, t):
        i = bisect.bisect_left(self.stw, (t, 0))
        return self.stw[i][0] if i < len(self.stw) else None

    def plangc(self, end):
        """Collections every ~2 ms: STW, a concurrent mark, STW."""
        t = self.rnd.randint(500_000, 1_500_000)
        while t < end:
            s1 = self.rnd.randint(10_000, 40_000)
            mark = self.rnd.randint(200_000, 600_000)
            s2 = self.rnd.randint(10_000, 50_000)
            self.stw += [(t, t + s1), (t + s1 + mark, t + s1 + mark + s2)]
            self.gc += [(0, "STW: sweep termination", t, t + s1), (1, "mark", t + s1, t + s1 + mark),
                        (0, "STW: mark termination", t + s1 + mark, t + s1 + mark + s2),
                        (1, "mark termination", t + s1 + mark, t + s1 + mark + s2)]
            self.at(t + s1, "dispatch")
            self.at(t + s1 + mark + s2, "dispatch")
            t += s1 + mark + s2 + self.rnd.randint(1_000_000, 3_000_000)

    def newm(self):
        if self.idlems:
            return self.idlems.pop()
        m = {"id": len(self.ms), "p": None, "since": 0}
        self.ms.append(m)
        return m

    def takep(self, p, t):
        if p["m"] is None:
            m = self.newm()
            m.update(p=p["id"], since=t)
            p["m"] = m

    def dropp(self, p, t):
        """p's M lets go of it (p idle, or its goroutine in a system call)."""
        m = p["m"]
        if m is not None:
            if t > m["since"]:
                self.span(2, m["id"], "P%d" % p["id"], "", m["since"], t, {"p": p["id"]})
            m["p"] = None
            p["m"] = None
        return m

    def create(self, parent, t):
        goid = self.nextg
        self.nextg += 1
        fn = "main.main" if goid == 1 else self.rnd.choice(FUNCS)
        if goid == 3 and self.odd:
            fn = "main." + self.odd
        self.gs[goid] = {"fn": fn, "state": None, "since": t, "args": None,
                         "left": self.rnd.randint(3, 60), "flow": None}
        self.live += 1
        if parent:
            self.instant(goid, "create", t, {"parent": parent, "fn": fn})
        self.setstate(goid, "runnable", t)
        self.runq.append(goid)

    # ---------------------------------------------------------- scheduling
    def dispatch(self, t):
        for p in self.procs:
            if p["g"] is None and not p["copying"]:
                if self.runq and not self.instw(t):
                    self.run(p, self.runq.pop(0), t)
                elif p["m"] is not None:
                    self.idlems.append(self.dropp(p, t))

    def run(self, p, goid, t):
        g = self.gs[goid]
        self.takep(p, t)
        p.update(g=goid, since=t)
        self.setstate(goid, "running", t, {"p": p["id"]})
        if g["flow"]:
            self.emit({"ph": "f", "bp": "e", "cat": "ready", "name": "ready", "id": g["flow"],
                       "pid": 3, "tid": goid, "ts": t / 1000})
            g["flow"] = None
        d = max(1_000, int(self.rnd.expovariate(1 / 40_000)))
        if goid == 1 or (self.rnd.random() < 0.05):
            for _ in range(self.rnd.randint(1, 4)):  # goroutines created while it runs
                self.at(t + self.rnd.randint(0, d - 1), "create", goid)
        g["left"] -= 1
        outcome = self.rnd.choices(["block", "syscall", "preempt", "gosched", "copystack", "suspend"],
                                   [50, 12, 12, 6, 4, 3])[0]
        if g["left"] <= 0 and goid != 1:
            outcome = "end"
        stw = self.nextstw(t)
        if stw is not None and stw < t + d:
            d, outcome = max(stw - t, 1), "stw"
        self.at(t + d, "stop", p["id"], outcome)

    def stop(self, t, pid, outcome):
        p = self.procs[pid]
        goid = p["g"]
        g = self.gs[goid]
        self.span(1, pid, "G%d %s" % (goid, g["fn"]), "", p["since"], t,
                  {"g": goid, "fn": g["fn"], "end": outcome})
        p["g"] = None
        rnd = self.rnd
        if outcome == "block":
            self.setstate(goid, "waiting", t, {"reason": rnd.choice(WAIT_REASONS)})
            self.at(t + int(rnd.expovariate(1 / 150_000)) + 1, "wake", goid)
        elif outcome == "syscall":
            self.setstate(goid, "syscall", t)
            m = self.dropp(p, t)
            self.at(t + int(rnd.expovariate(1 / 60_000)) + 1, "sysexit", goid, m)
        elif outcome in ("preempt", "gosched", "stw"):
            why = {"preempt": "preempted (async)", "gosched": rnd.choice(["Gosched", "yield"]),
                   "stw": "preempted (sync)"}[outcome]
            self.setstate(goid, "runnable", t, {"why": why})
            self.runq.append(goid)
        elif outcome == "copystack":
            size = 2048 << rnd.randint(0, 5)
            self.instant(goid, "stack growth", t, {"from": size, "to": size * 2})
            self.setstate(goid, "copystack", t)
            p["copying"] = True
            self.at(t + rnd.randint(500, 8_000), "copied", pid, goid)
        elif outcome == "suspend":
            self.setstate(goid, "preempted", t)
            self.at(t + rnd.randint(1_000, 20_000), "resume", goid)
        elif outcome == "end":
            self.instant(goid, "end", t)
            self.setstate(goid, None, t)
            self.live -= 1
        self.dispatch(t)

    def wake(self, t, goid):
        running = [p["g"] for p in self.procs if p["g"] is not None]
        if running:  # woken by a running goroutine: a flow from it
            fid = next(self.flows)
            self.emit({"ph": "s", "cat": "ready", "name": "ready", "id": fid, "pid": 3,
                       "tid": self.rnd.choice(running), "ts": t / 1000})
            self.gs[goid]["flow"] = fid
        self.setstate(goid, "runnable", t)
        self.runq.append(goid)
        self.dispatch(t)

    def step(self):
        t, _, action, args = heapq.heappop(self.queue)
        self.now = t
        if action == "stop":
            self.stop(t, *args)
        elif action == "wake":
            self.wake(t, *args)
        elif action == "sysexit":
            goid, m = args
            if m is not None:
                self.idlems.append(m)
            self.setstate(goid, "runnable", t)
            self.runq.append(goid)
            self.dispatch(t)
        elif action == "copied":
            pid, goid = args
            self.procs[pid]["copying"] = False
            if self.instw(t):  # the copy ran into a stop of the world
                self.setstate(goid, "runnable", t, {"why": "preempted (sync)"})
                self.runq.append(goid)
                self.dispatch(t)
            else:
                self.run(self.procs[pid], goid, t)
        elif action == "resume":
            self.setstate(args[0], "runnable", t)
            self.runq.append(args[0])
            self.dispatch(t)
        elif action == "create":
            if self.live < self.maxg and self.gs[args[0]]["state"] == "running":
                self.create(args[0], t)
                self.dispatch(t)
        elif action == "dispatch":
            self.dispatch(t)

    # ---------------------------------------------------------- the whole
    def finish(self, t):
        """The trace stops at t: every open span ends there."""
        for p in self.procs:
            if p["g"] is not None:
                g = self.gs[p["g"]]
                self.span(1, p["id"], "G%d %s" % (p["g"], g["fn"]), "", p["since"], t,
                          {"g": p["g"], "fn": g["fn"], "end": "trace stopped"})
            self.dropp(p, t)
        for goid in self.gs:
            self.setstate(goid, None, t)

    def metadata(self, nprocs):
        def meta(pid, tid, name, value):
            ev = {"ph": "M", "pid": pid, "name": name, "args": value}
            if tid is not None:
                ev["tid"] = tid
            self.emit(ev)
        for pid, pname in ((1, "Ps"), (2, "Ms"), (3, "Goroutines"), (4, "GC")):
            meta(pid, None, "process_name", {"name": pname})
            meta(pid, None, "process_sort_index", {"sort_index": pid})
        tracks = [(1, i, "P%d" % i) for i in range(nprocs)]
        tracks += [(2, m["id"], "M%d" % m["id"]) for m in self.ms]
        tracks += [(3, goid, "G%d %s" % (goid, g["fn"])) for goid, g in self.gs.items()]
        tracks += [(4, 0, "STW"), (4, 1, "phases")]
        for pid, tid, name in tracks:
            meta(pid, tid, "thread_name", {"name": name})
            meta(pid, tid, "thread_sort_index", {"sort_index": tid})

    def simulate(self):
        self.plangc(10**10)  # 10 s: far longer than any trace asked for
        self.create(0, 0)
        self.dispatch(0)
        while self.queue and len(self.out) < self.target:
            self.step()
        end = self.now + 1
        self.finish(end)
        for tid, name, a, b in self.gc:  # those the trace saw begin
            if a < end:
                self.span(4, tid, name, "gc", a, min(b, end), None)
        self.metadata(len(self.procs))
        self.rnd.shuffle(self.out)
        return self.out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", default="-", help="output file (default: standard output)")
    ap.add_argument("--events", type=int, default=2000, help="about how many events")
    ap.add_argument("--procs", type=int, default=4, help="Ps (gomaxprocs)")
    ap.add_argument("--goroutines", type=int, default=20, help="at most this many live goroutines")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="", help="text in the function name of goroutine 3")
    args = ap.parse_args()
    events = Sim(args).simulate()
    trace = {"displayTimeUnit": "ns",
             "otherData": {"producer": "gl", "gomaxprocs": args.procs, "start_ns": 123456789000,
                           "events": len(events)},
             "traceEvents": events}
    text = json.dumps(trace, separators=(",", ":"))
    # one event a line, as a writer that streams them would
    text = text.replace(',{"ph"', ',\n{"ph"')
    if args.o == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(args.o, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
