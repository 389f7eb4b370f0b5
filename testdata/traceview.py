#!/usr/bin/env python3
"""glc trace: an execution trace made into one HTML page (compiler/trace.c,
compiler/traceview.html, docs/trace.md), on traces from testdata/tracegen.py.

glc's side: the page is written (beside the trace, or -o's name), is one
file that loads nothing from anywhere (no http(s)://, no src= or href=, no
@import or url() but the page's own), holds the trace as it was (the JSON
read back out of the page equals the file's), and a "</script>" or "<!--"
in an event's name cannot end the script element; a missing file, a
directory, bad JSON, a JSON that is not a trace, usage errors and an
unwritable output are one "glc: trace: ..." line and exit 1 (2 for usage),
and leave no page behind.

The page's side, where Chromium is installed (a Debian package; without it
this part is skipped and said so): headless Chromium's --dump-dom shows the
timeline drawn (the script ran: rows, spans, the "</script>" goroutine's
name as text), and driven through its DevTools pipe the page zooms at the
pointer on the wheel (over the names the wheel scrolls), pans on a drag,
shows a tooltip on hover, folds a group on a click, fits on "0", keeps its
view in #view=FROM,TO, requests nothing but itself, and draws a
100,000-event trace with far fewer shapes than spans.  Where node is
installed, the page's script is also parsed by node --check (a syntax
error shows even without Chromium).  Real traces too:
testdata/trace/sched.gl (testdata/trace.py's program) run with
GLDEBUG=trace=FILE in its collector mode and its many-goroutines mode: glc
trace takes them, and the page draws gl's four groups in order with every
GC span and instant in a colour its legend names.  And the seeds' samples
(bench/: pingpong, stacks, preempt, threads, mutex, stall, a compute
program, gc, ffi), each run shortened with GLDEBUG=trace=FILE at two Ps:
every trace keeps testdata/trace.py's invariants (Chrome's trace-event
fields, the format Perfetto opens; goroutine spans without gaps, one
goroutine per P, arrows that end where their goroutine runs), glc trace
makes its page, and the page draws it in the browser.

Usage: GLC=path/to/glc testdata/traceview.py    (top_srcdir: the source tree)
  CHROMIUM=path: the browser (default: chromium, chromium-browser or
  google-chrome on PATH); CHROMIUM=none: check glc's output only.
Exit 0 pass, 1 fail."""
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

GLC = os.path.abspath(os.environ.get("GLC", "./glc"))
TOP = os.path.abspath(os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), "..")))
TRACEGEN = os.path.join(TOP, "testdata", "tracegen.py")
ODD = "</script><!--<script>odd"  # a function name that would end the script element raw

passed, failed, skipped = 0, 0, 0


def ok(name):
    global passed
    passed += 1
    print(f"ok   {name}")


def fail(name, why):
    global failed
    failed += 1
    print(f"FAIL {name}: {why}")


def skip(name, why):
    global skipped
    skipped += 1
    print(f"skip {name}: {why}")


def check(name, cond, why=""):
    ok(name) if cond else fail(name, why or "no")
    return cond


def glc(*args):
    p = subprocess.run([GLC, "trace", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def gen(path, *args):
    subprocess.run([sys.executable, TRACEGEN, "-o", path, *args], check=True, timeout=300)


def datapart(page):
    """The text of the page's data element, and the JSON in it (None if
    there is no such element, or what it holds is not JSON)."""
    m = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', page, re.S)
    if not m:
        return None, None
    try:
        return m.group(1), json.loads(m.group(1))
    except json.JSONDecodeError:
        return m.group(1), None


def script(page):
    """The page's own script (the element after the data)."""
    m = re.search(r"<script>(.*?)</script>", page, re.S)
    return m.group(1) if m else ""


# ---------------------------------------------------------------- glc's side

def check_page(tmp, small):
    rc, out, err = glc(small)
    html = small[:-len(".json")] + ".html"
    if not check("trace.json gives trace.html beside it", rc == 0 and os.path.isfile(html) and not err,
                 f"exit {rc}, stderr {err!r}, {html} exists: {os.path.isfile(html)}"):
        return None
    page = open(html, encoding="utf-8").read()
    check("one HTML document", page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
          and page.count("<html") == 1)
    external = re.findall(r"https?://|\b(?:src|href|xlink:href)\s*=|@import|url\((?!#)|<link\b|<iframe\b", page)
    check("nothing external (no http(s)://, src=, href=, @import, url(), <link>)", not external,
          f"found {sorted(set(external))}")
    check("two script elements, neither loading a file",
          len(re.findall(r"<script\b", page)) == 2 and page.count("</script>") == 2,
          f"{len(re.findall(r'<script', page))} <script, {page.count('</script>')} </script>")
    raw, data = datapart(page)
    want = json.load(open(small, encoding="utf-8"))
    check("the trace is in the page as it was", data == {"file": os.path.basename(small), "trace": want},
          "the JSON read back differs" if data else "no data element, or not JSON in it")
    check(f"{ODD!r} in a name stays inside the data", raw is not None and "<" not in raw and data and
          any(ODD in json.dumps(e, ensure_ascii=False) for e in data["trace"]["traceEvents"]),
          "a '<' is left in the data, or the name is lost")
    return html


def check_names(tmp, small):
    rc, _, err = glc("-o", os.path.join(tmp, "sub.html"), small)
    check("-o names the page", rc == 0 and os.path.isfile(os.path.join(tmp, "sub.html")), err)
    rc, _, err = glc(f"-o={tmp}/eq.html", small)
    check("-o=NAME too", rc == 0 and os.path.isfile(os.path.join(tmp, "eq.html")), err)
    plain = os.path.join(tmp, "trace.out")
    shutil.copy(small, plain)
    rc, _, err = glc(plain)
    check("a name without .json gets .html added", rc == 0 and os.path.isfile(plain + ".html"), err)
    rc, _, err = glc("-o", small, small)
    check("-o the trace itself: refused, trace kept", rc == 2 and "is the trace itself" in err
          and json.load(open(small)) is not None, f"exit {rc}: {err!r}")
    empty = os.path.join(tmp, "empty.json")
    with open(empty, "w") as f:
        f.write('{"traceEvents": []}')
    rc, _, err = glc(empty)
    check("no events: still a page", rc == 0 and os.path.isfile(os.path.join(tmp, "empty.html")), err)
    odd = os.path.join(tmp, "odd.json")
    with open(odd, "w", encoding="utf-8") as f:  # JSON that JSON.parse takes: glc must too
        f.write('\ufeff{ "a" : [1, -0, 0.5e-3, 2E+2, true, false, null, "\\u00e9\\n\\/\\"", {}, []],\r\n'
                '"traceEvents":[{"ph":"X","ts":1,"dur":2,"name":"é <!-- </SCRIPT >"}] }\n')
    rc, _, err = glc(odd)
    check("any JSON (escapes, numbers, a BOM) is taken", rc == 0, err)


def check_errors(tmp):
    def file(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def expect(name, args, status, message):
        rc, out, err = glc(*args)
        lines = err.splitlines()
        check(name, rc == status and lines and re.search(message, lines[0]) and (status == 2 or len(lines) == 1),
              f"exit {rc} (want {status}), stderr {err!r} (want a line matching {message!r})")

    missing = os.path.join(tmp, "missing.json")
    expect("missing file", [missing], 1, f"^glc: trace: {re.escape(missing)}: No such file or directory$")
    expect("a directory", [tmp], 1, f"^glc: trace: {re.escape(tmp)}: is a directory$")
    bad = file("bad.json", '{"traceEvents": [\n  {"ph": "X",}\n]}\n')
    expect("invalid JSON: line and column", [bad], 1,
           f"^glc: trace: {re.escape(bad)}: not JSON: line 2, column 14: invalid character '}}' "
           "looking for beginning of object key string$")
    check("invalid JSON: no page left", not os.path.exists(bad[:-5] + ".html"))
    expect("truncated", [file("cut.json", '{"traceEvents": [{"ph": "X", "na')], 1,
           "not JSON: line 1, column 33: unexpected end of JSON input$")
    expect("empty file", [file("zero.json", "")], 1, "not JSON: line 1, column 1: unexpected end of JSON input$")
    expect("text after the JSON", [file("two.json", '{"traceEvents": []} {}')], 1,
           "not JSON: line 1, column 21: invalid character '{' after top-level value$")
    expect("a control character in a string", [file("ctl.json", '{"traceEvents": ["a\tb"]}')], 1,
           r"not JSON: line 1, column 20: invalid character byte 0x09 in string literal$")
    expect("a bad escape", [file("esc.json", '{"traceEvents": ["\\x"]}')], 1,
           "invalid character 'x' in string escape code$")
    expect("a bad number", [file("num.json", '{"traceEvents": [01]}')], 1,
           "invalid character '1' after array element$")
    expect("NaN", [file("nan.json", '{"traceEvents": [NaN]}')], 1,
           "invalid character 'N' looking for beginning of value$")
    expect("no traceEvents", [file("none.json", '{"events": []}')], 1,
           r"not a trace: an object with no traceEvents \(a trace is an object with a traceEvents array\)$")
    expect("a JSON array", [file("arr.json", '[{"ph": "X"}]')], 1, "not a trace: an array with no traceEvents")
    expect("traceEvents not an array", [file("obj.json", '{"traceEvents": {}}')], 1,
           "not a trace: traceEvents is an object, not an array$")
    expect("an event not an object", [file("ev.json", '{"traceEvents": [{}, 3]}')], 1,
           r"not a trace: traceEvents\[1\] is a number, not an event object$")
    expect("traceEvents only at the top", [file("deep.json", '{"x": {"traceEvents": []}}')], 1,
           "not a trace: an object with no traceEvents")
    expect("nested a million deep: an error, not a crash", [file("nest.json", "[" * 1000000)], 1,
           r"not JSON: line 1, column 1001: exceeded max depth \(1000 nested arrays and objects\)$")
    expect("no file", [], 2, "^glc: trace: no trace file$")
    expect("two files", ["a.json", "b.json"], 2, "^glc: trace: one trace file at a time$")
    expect("unknown flag", ["-x", "a.json"], 2, "^glc: trace: unknown flag -x$")
    expect("-o without a name", ["a.json", "-o"], 2, "^glc: trace: flag -o needs a file name$")
    good = file("good.json", '{"traceEvents": []}')
    expect("an output that cannot be written", ["-o", os.path.join(tmp, "no", "dir", "x.html"), good], 1,
           f"^glc: trace: {re.escape(tmp)}/no/dir/x.html: No such file or directory$")


# The seeds' samples, each traced as a learner would run it (shortened):
# NAME, its program under bench/, its arguments.
SAMPLES = [
    ("pingpong", "pingpong/pingpong.gl", ["-mode=chan", "-n=2000"]),
    ("stacks", "stacks/stacks.gl", ["-exp=start", "-n=300", "-depth=200"]),
    ("preempt", "preempt/preempt.gl", ["-reps=3"]),
    ("threads", "threads/threads.gl", ["-mode=rawpipe", "-n=20", "-dur=200ms"]),
    ("mutex", "mutex/mutex.gl", ["-h=1", "-g=4", "-runs=1", "-dur=100ms", "-modes=default"]),
    ("stall", "stall/stall.gl", ["-collector=gc", "-secs=1", "-live=4"]),
    ("compute", "compute/strbuild.gl", []),
    ("gc", "gc/pause.gl", ["-secs=1", "-live=4"]),
    ("ffi", "ffi/ffi.gl", ["-n=1000"]),
]


def trace_invariants():
    """testdata/trace.py's check(name, path): what every trace must keep."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gltrace", os.path.join(TOP, "testdata", "trace.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_samples(tmp):
    """Each sample of the seeds traced (GLDEBUG=trace=FILE, two Ps): the trace
    keeps testdata/trace.py's invariants, and glc trace makes its page.
    The pages, for the browser."""
    inv = trace_invariants()
    pages = []
    for name, src, args in SAMPLES:
        prog, trace = os.path.join(tmp, "sample-" + name), os.path.join(tmp, f"sample-{name}.json")
        p = subprocess.run([GLC, "build", "-o", prog, os.path.join(TOP, "bench", src)], capture_output=True,
                           text=True, timeout=900)
        if not check(f"sample {name}: bench/{src} builds", p.returncode == 0, p.stderr[-800:]):
            continue
        env = dict(os.environ, GLMAXPROCS="2", GLDEBUG="trace=" + trace)
        try:
            run = subprocess.run([prog] + args, env=env, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            fail(f"sample {name}", "killed after 120 s")
            continue
        if not check(f"sample {name}: runs traced", run.returncode == 0 and os.path.isfile(trace),
                     f"exit {run.returncode} {run.stderr[-300:]!r}"):
            continue
        before = inv.failures
        evs = inv.check(f"sample {name}", trace)
        check(f"sample {name}: the trace keeps trace.py's invariants ({len(evs or [])} events)",
              evs is not None and inv.failures == before, "above")
        rc, _, err = glc(trace)
        if check(f"sample {name}: glc trace makes its page", rc == 0, err):
            pages.append(trace[:-5] + ".html")
    return pages


def check_runtime(tmp):
    """Traces the runtime wrote (GLDEBUG=trace=FILE) of testdata/trace/sched.gl,
    testdata/trace.py's program: the collector's mode and the many goroutines'.
    Their pages, or [] if there are none."""
    src = os.path.join(TOP, "testdata", "trace", "sched.gl")
    prog = os.path.join(tmp, "sched")
    p = subprocess.run([GLC, "build", "-o", prog, src], capture_output=True, text=True, timeout=900)
    if not check("the runtime's traces: testdata/trace/sched.gl builds", p.returncode == 0, p.stderr[-800:]):
        return []
    pages = []
    for mode in ("gc", "many"):
        trace = os.path.join(tmp, f"sched-{mode}.json")
        env = dict(os.environ, GLMAXPROCS="2", GLDEBUG="trace=" + trace)
        run = subprocess.run([prog, mode], env=env, capture_output=True, text=True, timeout=120)
        rc, _, err = glc(trace) if os.path.isfile(trace) else (-1, "", "no trace written")
        if check(f"the runtime's trace of sched.gl {mode}: glc trace takes it", run.returncode == 0 and rc == 0,
                 f"sched {mode}: exit {run.returncode} {run.stderr[-300:]!r}; glc trace: exit {rc} {err!r}"):
            pages.append(trace[:-5] + ".html")
    return pages


# ---------------------------------------------------------------- the page's side

def browser():
    """$CHROMIUM (none: no browser), else the first of these on PATH."""
    if "CHROMIUM" in os.environ:
        return shutil.which(os.environ["CHROMIUM"]) if os.environ["CHROMIUM"] not in ("", "none") else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def dump_dom(exe, tmp, html):
    p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile",
                        "--window-size=1400,900", "--dump-dom", "file://" + html],
                       capture_output=True, text=True, timeout=180, env=dict(os.environ, TMPDIR=tmp))
    return p.stdout


def check_dump(exe, tmp, html):
    dom = dump_dom(exe, tmp, html)
    body = re.search(r"<body([^>]*)>", dom)
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1))) if body else {}
    if not check("--dump-dom: the script drew the timeline", attrs.get("drawn", "0") != "0" and "error" not in attrs,
                 f"body attributes {attrs}; error: {re.findall(r'<div id=.error.[^>]*>([^<]*)', dom)}"):
        return
    timeline = re.search(r'<svg id="timeline".*?</svg>', dom, re.S).group(0)
    running = len(re.findall(r'<path fill="#3fa34d" d="M', timeline))
    check("--dump-dom: SVG shapes, running spans among them",
          timeline.count("<rect") > 0 and running == 1 and timeline.count("<text") > 10,
          f"{timeline.count('<rect')} rect, {running} running path, {timeline.count('<text')} text")
    label = ("G3 main." + ODD)[:21]  # as much as the names' column shows
    check(f"--dump-dom: the goroutine named {ODD!r} has its row",
          label.replace("<", "&lt;").replace(">", "&gt;") in timeline, f"no label {label!r}")
    check("--dump-dom: the summary", re.search(r'id="summary">[^<]*\d+ goroutines · [\d,]+ events', dom),
          re.findall(r'id="summary">[^<]*', dom))


class Chrome:
    """Headless Chromium driven through --remote-debugging-pipe: DevTools
    protocol messages as NUL-terminated JSON, to it on its fd 3 and from it
    on its fd 4 (no port, no WebSocket library)."""

    def __init__(self, exe, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def fds():  # in the child: the pipes at 3 and 4, by way of numbers above both
            a, b = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        # its temporary files under the profile, which goes with the test's directory
        os.makedirs(profile, exist_ok=True)
        self.proc = subprocess.Popen([exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                                      f"--user-data-dir={profile}", "about:blank"], preexec_fn=fds, pass_fds=(3, 4),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=dict(os.environ, TMPDIR=profile))
        os.close(to_r)
        os.close(from_w)
        self.buf, self.n, self.events, self.sid = b"", 0, [], None

    def send(self, method, params=None, timeout=60):
        self.n += 1
        msg = {"id": self.n, "method": method, "params": params or {}}
        if self.sid:
            msg["sessionId"] = self.sid
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            while b"\0" not in self.buf:
                if not select.select([self.from_r], [], [], max(0, deadline - time.time()))[0]:
                    raise TimeoutError(f"no answer to {method} in {timeout} s")
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise EOFError("Chromium closed its pipe")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            m = json.loads(raw)
            if m.get("id") == self.n:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m["result"]
            self.events.append(m)

    def open(self, url, width=1400, height=900):
        """A tab at url, this object's commands going to it from now on."""
        self.sid = None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.sid = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Network.enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.navigate", {"url": url})

    def js(self, expr, wait=False):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": wait})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def until(self, expr, timeout=60):
        """expr's value once it is truthy; None after timeout seconds."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                v = self.js(expr)
            except RuntimeError:
                v = None
            if v:
                return v
            time.sleep(0.05)
        return None

    def frame(self):
        """Until the page has drawn a frame (what input asked for is drawn)."""
        self.js("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))", wait=True)

    def mouse(self, kind, x, y, **more):
        self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **more})

    def key(self, key, code, keycode):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code, "text": key,
                                                 "windowsVirtualKeyCode": keycode})

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
            self.proc.wait(timeout=10)
        except (TimeoutError, EOFError, RuntimeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)


# The page's state, as the page's own script sees it.
VIEW = "({start: view.start, scale: view.scale, width: view.width, rows: view.rows.length, LABEL_W, " \
       "top: document.getElementById('rows').getBoundingClientRect().top, hash: location.hash})"


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)


def check_interaction(c, html):
    c.open("file://" + html)
    if not check("DevTools: the page loads and draws", c.until("document.body.dataset.drawn > 0 && view.width === "
                                                               "document.getElementById('rows').clientWidth")):
        return
    v0 = c.js(VIEW)
    x, y = 700, int(v0["top"]) + 300
    t_at = v0["start"] + (x - v0["LABEL_W"]) / v0["scale"]
    c.mouse("mouseWheel", x, y, deltaX=0, deltaY=-300)
    v1 = c.until(f"view.scale > {v0['scale']} && {VIEW}")
    check("wheel: zooms in around the pointer", v1 and close(v1["start"] + (x - v1["LABEL_W"]) / v1["scale"], t_at),
          f"before {v0}, after {v1}")
    if not v1:
        return
    c.mouse("mousePressed", x, y, button="left", buttons=1, clickCount=1)
    c.mouse("mouseMoved", x + 100, y, button="left", buttons=1)
    c.mouse("mouseMoved", x + 200, y, button="left", buttons=1)
    c.mouse("mouseReleased", x + 200, y, button="left", buttons=0, clickCount=1)
    v2 = c.until(f"view.start !== {v1['start']} && {VIEW}", 10)
    check("drag: pans by the distance dragged", v2 and close(v2["start"], v1["start"] - 200 / v1["scale"]),
          f"before {v1}, after {v2}")
    check("the view goes into the address (#view=FROM,TO)", c.until("/^#view=[-\\d.]+,[-\\d.]+$/.test(location.hash)", 5))

    # hover: a wide span on a goroutine's row
    c.frame()
    spot = c.js("""(() => {
      for (const r of hits) for (const it of r.items)
        if (it.span && r.row.track.group.name === "Goroutines" && it.x1 - it.x0 > 6 && it.x0 > LABEL_W)
          return {x: (it.x0 + it.x1) / 2, y: r.y + 12, name: it.span.ev.name};
    })()""")
    if check("a span to hover over is drawn", spot, "no span wider than 6 px on a goroutine's row"):
        top = c.js("document.getElementById('rows').getBoundingClientRect().top")
        c.mouse("mouseMoved", spot["x"], top + spot["y"])
        tip = c.until("!document.getElementById('tooltip').hidden && document.getElementById('tooltip').innerText", 10)
        check("hover: a tooltip with the name, start and duration",
              tip and tip.startswith(spot["name"]) and "start " in tip and "duration " in tip, repr(tip))

    # with Ms and Goroutines unfolded the small trace's rows are higher than the view
    scale = c.js("view.scale")
    c.mouse("mouseWheel", 50, y, deltaX=0, deltaY=200)
    scrolled = c.until("document.getElementById('rows').scrollTop > 0 && "
                       f"[document.getElementById('rows').scrollTop, view.scale === {scale}]", 10)
    check("wheel over the names: scrolls the rows, no zoom", scrolled and scrolled[1], repr(scrolled))
    c.js("document.getElementById('rows').scrollTop = 0")
    c.frame()

    rows = c.js("view.rows.length")
    msy = c.js("view.rows.find((r) => r.kind === 'group' && r.group.name === 'Ms').y")
    nms = c.js("model.order.find((g) => g.name === 'Ms').list.length")
    top = c.js("document.getElementById('rows').getBoundingClientRect().top - document.getElementById('rows').scrollTop")
    c.mouse("mousePressed", 50, top + msy + 8, button="left", buttons=1, clickCount=1)
    c.mouse("mouseReleased", 50, top + msy + 8, button="left", buttons=0, clickCount=1)
    folded = c.until(f"view.rows.length !== {rows} && view.rows.length", 10)
    check("click on a group's title: folds it", folded == rows - nms, f"{rows} rows, then {folded}; {nms} Ms")

    c.key("0", "Digit0", 48)
    v3 = c.until(f"Math.abs(view.scale - {v0['scale']}) < 1e-9 * {v0['scale']} && {VIEW}", 10)
    check("key 0: the whole trace again", v3, f"scale {c.js('view.scale')}, want {v0['scale']}")

    c.open("file://" + html + "#view=1000,2000")
    shown = c.until("document.body.dataset.drawn > 0 && [tOf(LABEL_W) - model.origin, tOf(view.width) - model.origin]")
    check("#view=1000,2000 shows 1000-2000 µs", shown and close(shown[0], 1000) and close(shown[1], 2000), repr(shown))

    requested = {e["params"]["request"]["url"] for e in c.events if e.get("method") == "Network.requestWillBeSent"}
    check("nothing requested but the page", requested <= {"file://" + html, "file://" + html + "#view=1000,2000"},
          f"requests: {sorted(requested)}")


def check_big(c, tmp):
    big = os.path.join(tmp, "big.json")
    gen(big, "--events", "100000", "--goroutines", "40", "--seed", "7")
    rc, _, err = glc(big)
    if not check("100,000 events: glc writes the page", rc == 0, err):
        return
    started = time.time()
    c.open("file://" + os.path.join(tmp, "big.html"))
    info = c.until("document.body.dataset.drawn > 0 && ({drawn: +document.body.dataset.drawn, "
                   "load: +document.body.dataset.loadMs, events: model.events, "
                   "spans: model.order.reduce((n, g) => n + g.list.reduce((m, t) => m + t.spans.length, 0), 0)})", 120)
    if not check("100,000 events: the page draws them", info and info["events"] >= 100000, repr(info)):
        return
    # merged below a pixel: at most a few shapes per pixel of each row in view
    check("100,000 events: far fewer shapes than spans (merged, only what is in view)",
          info["drawn"] < info["spans"] / 4, repr(info))
    c.js("delete document.body.dataset.renderMs")
    c.mouse("mouseWheel", 900, 500, deltaX=0, deltaY=-500)
    ms = c.until("document.body.dataset.renderMs !== undefined && +document.body.dataset.renderMs + ' ms'", 30)
    print(f"     (100,000 events: opened in {time.time() - started:.1f} s, the script's start "
          f"{info['load']} ms, a redraw {ms}; {info['drawn']} shapes for {info['spans']} spans)")


def check_real(c, html):
    """A page of the runtime's trace: drawn, gl's four groups in order, and
    every GC span and instant in a colour of the legend (a name the runtime
    writes and the page does not know would get a made-up colour)."""
    name = os.path.basename(html)
    c.open("file://" + html)
    info = c.until("document.body.dataset.drawn > 0 && ({error: document.body.dataset.error || null, "
                   "groups: model.order.map((g) => g.name), "
                   "gc: model.order.filter((g) => g.name === 'GC').flatMap((g) => g.list)"
                   "  .flatMap((t) => t.spans).filter((s) => !Object.values(GC_COLORS).includes(s.color))"
                   "  .map((s) => s.ev.name), "
                   "marks: model.order.flatMap((g) => g.list).flatMap((t) => t.instants)"
                   "  .filter((i) => !INSTANT_COLORS[i.ev.name]).map((i) => i.ev.name)})", 60)
    check(f"{name}: drawn, Ps, Ms, Goroutines, GC in order", info and not info["error"] and
          info["groups"] == ["Ps", "Ms", "Goroutines", "GC"][:len(info["groups"])] and len(info["groups"]) >= 3,
          repr(info))
    check(f"{name}: every GC span and instant in a colour of the legend",
          info and not info["gc"] and not info["marks"],
          f"not in the legend: {sorted(set(info['gc'] + info['marks'])) if info else None}")


def check_browser(tmp, html, real):
    exe = browser()
    if not exe:
        skip("the page in a browser", "no chromium (Debian package chromium): glc's output only was checked")
        return
    check_dump(exe, tmp, html)
    c = Chrome(exe, os.path.join(tmp, "profile2"))
    try:
        check_interaction(c, html)
        for page in real:
            check_real(c, page)
        check_big(c, tmp)
    except (TimeoutError, EOFError, RuntimeError) as e:
        fail("DevTools", f"{type(e).__name__}: {e}")
    finally:
        c.close()


def check_syntax(html):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        skip("node --check", "no node")
        return
    js = html[:-5] + ".js"
    with open(js, "w", encoding="utf-8") as f:
        f.write(script(open(html, encoding="utf-8").read()))
    p = subprocess.run([node, "--check", js], capture_output=True, text=True, timeout=60)
    check("node --check: the page's script parses", p.returncode == 0, p.stderr[:500])


def main():
    tmp = tempfile.mkdtemp(prefix="gltraceview", dir=os.environ.get("TMPDIR"))
    try:
        small = os.path.join(tmp, "trace.json")
        gen(small, "--events", "3000", "--name", ODD)
        html = check_page(tmp, small)
        check_names(tmp, small)
        check_errors(tmp)
        real = check_runtime(tmp) + check_samples(tmp)
        if html:
            check_syntax(html)
            check_browser(tmp, html, real)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
