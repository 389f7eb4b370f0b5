#!/usr/bin/env python3
"""Conformance: every program in testdata/run that is also valid Go must
behave the same under Go.  run.py checks gl's output against the golden
files; this checks Go 1.19's output against the same goldens (cut the same
way), so together they say gl and Go agree.  Programs Go 1.19 cannot build
(newer Go's features: their header says `// skip-go: why`, testdata/README.md;
or gl-only packages) are counted and listed as skipped.  A program that
calls C through //gl:extern has a cgo twin, NAME.cgo, which is what Go builds.  Without Go installed the test is skipped
(exit 77), and says so."""
import difflib, os, shutil, subprocess, sys, tempfile, concurrent.futures

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import cut, programs, readheaders  # the same truncation of panic tracebacks, the same headers

top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
go = os.environ.get("GO") or "/usr/lib/go-1.19/bin/go"
if not go or not os.access(go, os.X_OK):
    print("conformance: SKIPPED: Go is not installed (apt-get install golang-1.19-go)")
    sys.exit(77)
d = os.path.join(top, "testdata", "run")
names = programs(d)
# A program's header may say `// skip-go: why` (Go 1.19 cannot build it) and
# `// go-timing: why`: its Go run depends on the machine's load, so Go gets
# three tries to print the golden output, and each try that misses is
# reported.  gl's own run (run.py) gets one.
hdrs = readheaders(d, names)
if len(sys.argv) > 1:
    names = [n for n in names if any(a in n for a in sys.argv[1:])]

def one(name, tmp):
    if "skip-go" in hdrs[name]:
        return name, "skip", "skip-go: " + hdrs[name]["skip-go"]
    work = os.path.join(tmp, name)
    os.makedirs(work)
    src = os.path.join(d, name)
    files = [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".gl")] if os.path.isdir(src) else [src + ".gl"]
    for f in files:
        shutil.copy(f, os.path.join(work, os.path.basename(f)[:-3] + ".go"))
    if os.path.exists(src + ".cgo"):  # calls C (//gl:extern): its cgo twin is the Go program
        os.remove(os.path.join(work, name + ".go"))
        shutil.copy(src + ".cgo", os.path.join(work, "main.go"))
    env = dict(os.environ, GO111MODULE="off", GOPATH=os.path.join(tmp, "gopath"), GOCACHE=os.path.join(tmp, "gocache"),
               GOFLAGS="")
    b = subprocess.run([go, "build", "-o", "prog", "."], cwd=work, capture_output=True, text=True, env=env, timeout=300)
    if b.returncode != 0:
        return name, "skip", "go build: " + b.stderr.strip().split("\n")[-1][:100]
    want = open(os.path.join(d, name + ".out"), encoding="utf-8", errors="replace").read()
    rc = int(open(os.path.join(d, name + ".exit")).read()) if os.path.exists(os.path.join(d, name + ".exit")) else 0
    tries = 3 if "go-timing" in hdrs[name] else 1
    for t in range(tries):
        try:
            p = subprocess.run(["./prog"], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        except subprocess.TimeoutExpired:
            return name, "fail", "Go's program hung"
        out = p.stdout.decode("utf-8", "replace")
        if cut(out) == cut(want) and p.returncode == rc:
            break
        if t + 1 < tries:
            print("note %s: Go's run %d of %d differs from the golden file (go-timing: runs again)" % (name, t + 1, tries))
    if cut(out) != cut(want) or p.returncode != rc:
        diff = "".join(difflib.unified_diff(cut(want).splitlines(True), cut(out).splitlines(True),
                                            "golden", "go", n=0))
        return name, "fail", "Go's output or status (%d, want %d) differs from the golden file:\n%s" % (
            p.returncode, rc, diff[:2000])
    return name, "ok", ""

failed = skipped = 0
with tempfile.TemporaryDirectory() as tmp:
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for name, res, why in ex.map(lambda n: one(n, tmp), names):
            if res == "fail":
                failed += 1
                print("FAIL %s: %s" % (name, why))
            elif res == "skip":
                skipped += 1
                print("skip %s: %s" % (name, why))
print("conformance: %d programs, %d agree with Go, %d failed, %d skipped (not valid Go 1.19)" %
      (len(names), len(names) - failed - skipped, failed, skipped))
sys.exit(1 if failed else 0)
