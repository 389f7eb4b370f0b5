#!/usr/bin/env python3
"""Go's own test suite on gl (make check-go, and part of make check).

Every program of Go 1.19's test/ken, test/chan, test/interface and test/*.go
whose first line is exactly `// run` is built with glc and run; its stdout
and stderr (combined) and its exit status must equal what is expected: the
program's .out file in Go's suite, or no output, and exit status 0 (what
Go's own runner, test/run.go, wants); when gl's run is not that, what Go
1.19's build of the program prints and returns (Go is asked only then, so
the suite does not build and run ~190 programs with Go every time).  Panic
tracebacks are cut as testdata/run.py's cut does.

Skipped, and counted: `// run` with arguments or flags, programs whose build
constraints exclude linux/amd64, programs Go 1.19 itself cannot build.
Multi-file tests (`// rundir` and the like) are not `// run` tests.

testdata/gotest-expected-failures lists the programs expected to fail, one a
line: the path relative to Go's test directory, then why.  The test fails
when a program not on the list fails, and when a program on the list passes
(the list must stay true: remove it).  Without Go the test is skipped (77).

  testdata/gotest.py [-v] [SUBSTRING...]   only the programs whose path contains one
  GO              the go command (default: /usr/lib/go-1.19/bin/go, then PATH)
  GOTEST_JOBS     parallel programs (default 2)
  GOTEST_BUILD_TIMEOUT, GOTEST_RUN_TIMEOUT   seconds per build, per run (120, 30)
"""
import concurrent.futures, difflib, os, re, resource, shutil, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, here)
from run import cut, warmcache  # the same truncation of panic tracebacks as the run tests; the stdlib cache

DIRS = ["ken", "chan", "interface", "."]
LISTFILE = os.path.join("testdata", "gotest-expected-failures")
MEMLIMIT = 4 << 30  # address space of a test program: a runaway allocation fails instead of filling the machine

def skip77(why):
    print("gotest: SKIPPED: " + why)
    sys.exit(77)

def findgo():
    cands = [os.environ.get("GO"), "/usr/lib/go-1.19/bin/go", shutil.which("go")]
    for g in cands:
        if g and os.access(g, os.X_OK):
            return g
    return None

# ---------------------------------------------------------------- build constraints
# As Go's test/run.go: a constraint line before `package` that is false for
# linux/amd64 with the gc toolchain skips the program.
TAGS = {"linux", "amd64", "unix", "gc", "cgo", "test_run"} | {"go1.%d" % i for i in range(1, 20)}

def evalexpr(s):
    """A //go:build expression: ! && || ( ) and tags."""
    toks = re.findall(r"&&|\|\||[!()]|[A-Za-z0-9_.]+|\S", s)
    pos = [0]
    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None
    def take(t=None):
        tok = peek()
        if tok is None or (t is not None and tok != t):
            raise ValueError("bad build expression: " + s)
        pos[0] += 1
        return tok
    def orx():
        v = andx()
        while peek() == "||":
            take()
            v = andx() or v
        return v
    def andx():
        v = notx()
        while peek() == "&&":
            take()
            v = notx() and v
        return v
    def notx():
        if peek() == "!":
            take()
            return not notx()
        if peek() == "(":
            take()
            v = orx()
            take(")")
            return v
        tok = take()
        if not re.match(r"^[A-Za-z0-9_.]+$", tok):
            raise ValueError("bad build expression: " + s)
        return tok in TAGS
    v = orx()
    if peek() is not None:
        raise ValueError("bad build expression: " + s)
    return v

def plusbuild(s):
    """A // +build line: space-separated options, any true; each a
    comma-separated list of (possibly negated) tags, all true."""
    def term(t):
        return (t[1:] not in TAGS) if t.startswith("!") else (t in TAGS)
    return any(all(term(t) for t in opt.split(",")) for opt in s.split())

def constraints_ok(src):
    """(True, "") or (False, the line that excludes linux/amd64)."""
    for line in src.split("\n"):
        if line.startswith("package "):
            break
        m = re.match(r"^//go:build\s+(.*)$", line)
        if m and not evalexpr(m.group(1)):
            return False, line
        m = re.match(r"^//\s*\+build\s+(.*)$", line)
        if m and not plusbuild(m.group(1)):
            return False, line
    return True, ""

# ---------------------------------------------------------------- one program
def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMLIMIT, MEMLIMIT))

def runprog(exe, cwd, timeout, goroot=None):
    """(output, exit status or None if it hung, seconds).  For gl's runs
    goroot names Go's tree in GOROOT: a program that asks runtime.GOROOT()
    for it (winbatch.go walks it) gets it, as under Go, where the linker
    builds it in; gl's runtime reads the variable first, as Go's does, and
    defaults to gl's own root."""
    t0 = time.time()
    try:
        p = subprocess.run([exe], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, preexec_fn=limit_memory,
                           env=dict(os.environ, GOROOT=goroot) if goroot else None)
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b"").decode("utf-8", "replace"), None, time.time() - t0
    return p.stdout.decode("utf-8", "replace"), p.returncode, time.time() - t0

def status(rc):
    return "killed by signal %d" % -rc if rc < 0 else "exit status %d" % rc

def tail(s, n=25):
    lines = s.rstrip("\n").split("\n")
    return "\n".join(lines[-n:]) if len(lines) > n else "\n".join(lines)

def head(s, n=15):
    lines = s.rstrip("\n").split("\n")
    return "\n".join(lines[:n] + ["... (%d more lines)" % (len(lines) - n)]) if len(lines) > n else "\n".join(lines)

class Result:
    def __init__(self, rel):
        self.rel, self.kind, self.why = rel, None, ""
        self.gltime = self.runtime = self.gotime = 0.0

def gowants(r, src, work, cfg, env):
    """What Go 1.19 says, as test/run.go builds it (compile and link) and
    runs it: (output, exit status), or None with r marked skipped when Go
    cannot build it or its own run hangs."""
    btime, rtime = cfg["build_timeout"], cfg["run_timeout"]
    t0 = time.time()
    goexe = os.path.join(work, "go.exe")
    try:
        for cmd in ([cfg["go"], "tool", "compile", "-p=main", "-o", os.path.join(work, "pkg.a"), src],
                    [cfg["go"], "tool", "link", "-s", "-w", "-o", goexe, os.path.join(work, "pkg.a")]):
            b = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=btime)
            if b.returncode != 0:
                r.kind = "skip"
                r.why = "Go 1.19 cannot build it: " + (b.stderr.strip().split("\n") or [""])[0][:120]
                return None
    except subprocess.TimeoutExpired:
        r.kind, r.why = "skip", "Go 1.19's build hung"
        return None
    outfile = src[:-3] + ".out"
    if os.path.exists(outfile):
        want = open(outfile, encoding="utf-8", errors="replace").read(), 0
    else:
        out, rc, _ = runprog(goexe, cfg["testdir"], rtime)
        if rc is None:
            r.kind, r.why = "skip", "Go 1.19's own run hung (over %g s)" % rtime
            return None
        want = out, rc
    r.gotime = time.time() - t0
    return want

def compare(out, rc, want, wantrc, rtime):
    """What differs between gl's run and the wanted one (empty if nothing)."""
    probs = []
    if rc is None:
        probs.append("hung: killed after %g s" % rtime)
    elif rc != wantrc:
        probs.append("%s, want %s" % (status(rc), status(wantrc)))
    if rc is not None and cut(out) != cut(want):
        diff = list(difflib.unified_diff(cut(want).splitlines(True), cut(out).splitlines(True), "want", "got"))
        if len(diff) > 40:
            diff = diff[:40] + ["... (%d more diff lines)\n" % (len(diff) - 40)]
        probs.append("output differs:\n" + "".join(diff).rstrip("\n"))
    elif rc is None and out:
        probs.append("its output before it was killed:\n" + tail(out, 10))
    return probs

def one(rel, cfg):
    r = Result(rel)
    src = os.path.join(cfg["testdir"], rel)
    work = os.path.join(cfg["tmp"], rel[:-3].replace("/", "_"))
    os.makedirs(work)
    env = dict(os.environ, GOENV="off", GOFLAGS="", GO111MODULE="off")
    btime, rtime = cfg["build_timeout"], cfg["run_timeout"]

    # gl: glc wants .gl files; the name is kept (runtime.Caller and panics show it).
    glsrc = os.path.join(work, os.path.basename(rel)[:-3] + ".gl")
    shutil.copy(src, glsrc)
    exe = os.path.join(work, "gl.exe")
    t0 = time.time()
    try:
        # TMPDIR: what glc keeps after an internal error goes with the rest.
        b = subprocess.run([cfg["glc"], "build", "-o", exe, glsrc], cwd=work, capture_output=True,
                           text=True, timeout=btime, env=dict(os.environ, TMPDIR=work))
    except subprocess.TimeoutExpired:
        b = None
    r.gltime = time.time() - t0
    if b is None or b.returncode != 0:
        if gowants(r, src, work, cfg, env) is None:
            return r  # Go cannot build it either: skipped
        r.kind = "fail"
        r.why = ("glc build hung (killed after %g s)" % btime if b is None else
                 "glc build failed (%s):\n%s" % (status(b.returncode), head(b.stdout + b.stderr)))
        return r
    out, rc, r.runtime = runprog(exe, cfg["testdir"], rtime, cfg["goroot"])

    # What Go's own runner (test/run.go) wants: the output in the program's
    # .out file, or none, and exit status 0.  Only when gl's run is not
    # that is Go asked: whether it can build the program (else it is
    # skipped) and, without a .out file, what its run prints and returns.
    outfile = src[:-3] + ".out"
    want = open(outfile, encoding="utf-8", errors="replace").read() if os.path.exists(outfile) else ""
    probs = compare(out, rc, want, 0, rtime)
    if probs:
        gw = gowants(r, src, work, cfg, env)
        if gw is None:
            return r
        probs = compare(out, rc, gw[0], gw[1], rtime)
    r.kind = "fail" if probs else "pass"
    r.why = "\n".join(probs)
    return r

# ---------------------------------------------------------------- the suite
def readlist(path):
    """{relative path: reason}; '#' starts a comment line."""
    res = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            sys.exit("%s:%d: a program and a reason, please: %r" % (path, n, line))
        if parts[0] in res:
            sys.exit("%s:%d: %s is listed twice" % (path, n, parts[0]))
        res[parts[0]] = parts[1]
    return res

def programs(testdir):
    """The `// run` programs (relative paths) and the ones skipped with why."""
    run, skipped = [], []
    for d in DIRS:
        full = os.path.join(testdir, d)
        for f in sorted(os.listdir(full)):
            if not f.endswith(".go") or not os.path.isfile(os.path.join(full, f)):
                continue
            rel = f if d == "." else d + "/" + f
            src = open(os.path.join(full, f), encoding="utf-8", errors="replace").read()
            first = src.split("\n", 1)[0].rstrip()
            if first == "// run":
                ok, line = constraints_ok(src)
                if ok:
                    run.append(rel)
                else:
                    skipped.append((rel, "build constraint excludes linux/amd64: " + line))
            elif first.startswith("// run "):
                skipped.append((rel, "'%s': run with arguments or flags" % first))
    return run, skipped

def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    top = os.environ.get("top_srcdir", os.path.join(here, ".."))
    glc = os.environ.get("GLC", "glc")
    go = findgo()
    if not go:
        skip77("Go is not installed (apt-get install golang-1.19-go)")
    try:
        v = subprocess.run([go, "env", "GOVERSION", "GOROOT"], capture_output=True, text=True, timeout=60)
        version, goroot = v.stdout.split("\n")[:2]
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        skip77("%s env failed: %s" % (go, e))
    if not version.startswith("go1.19"):
        skip77("%s is %s; the expected failures are Go 1.19's suite's" % (go, version))
    testdir = os.path.join(goroot, "test")
    if not os.path.isdir(os.path.join(testdir, "ken")):
        skip77("Go's test suite is not in %s" % testdir)

    expected = readlist(os.path.join(top, LISTFILE))
    progs, skipped = programs(testdir)
    stale = [p for p in expected if p not in progs and p not in (s for s, _ in skipped)]
    if args:
        progs = [p for p in progs if any(a in p for a in args)]
        skipped = [s for s in skipped if any(a in s[0] for a in args)]
        stale = []

    t0 = time.time()
    jobs = int(os.environ.get("GOTEST_JOBS", "2"))
    counts = dict.fromkeys(["pass", "fail", "xfail", "xpass", "skip"], 0)
    results = []
    for rel, why in skipped:
        print("skip %s: %s" % (rel, why))
        counts["skip"] += 1
    with tempfile.TemporaryDirectory(prefix="gotest.") as tmp:
        cfg = dict(testdir=testdir, tmp=tmp, go=go, glc=glc, goroot=goroot,
                   build_timeout=float(os.environ.get("GOTEST_BUILD_TIMEOUT", "120")),
                   run_timeout=float(os.environ.get("GOTEST_RUN_TIMEOUT", "30")))
        warmcache(glc, tmp)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            for r in ex.map(lambda p: one(p, cfg), progs):
                results.append(r)
                listed = expected.get(r.rel)
                if r.kind == "skip":
                    counts["skip"] += 1
                    print("skip %s: %s" % (r.rel, r.why))
                    if listed:
                        print("    (listed as expected to fail: %s)" % listed)
                elif r.kind == "pass" and listed:
                    counts["xpass"] += 1
                    print("FAIL %s: passes, but %s lists it (%s); remove it from the list" % (r.rel, LISTFILE, listed))
                elif r.kind == "pass":
                    counts["pass"] += 1
                    if verbose:
                        print("ok   %s" % r.rel)
                elif listed:
                    counts["xfail"] += 1
                    print("xfail %s: %s" % (r.rel, listed))
                    if verbose:
                        print("    " + r.why.replace("\n", "\n    "))
                else:
                    counts["fail"] += 1
                    print("FAIL %s: %s" % (r.rel, r.why.replace("\n", "\n    ")))
    for p in stale:
        print("FAIL %s: listed in %s but not a `// run` program of Go's suite" % (p, LISTFILE))
    el = time.time() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    gl = sum(r.gltime for r in results)
    rn = sum(r.runtime for r in results)
    gotime = sum(r.gotime for r in results)
    slow = sorted(results, key=lambda r: -(r.gltime + r.runtime))[:3]
    print("%d passed, %d failed" % (counts["pass"], counts["fail"]))
    print("%d expected failures, %d listed but passed, %d stale list entries, %d skipped" %
          (counts["xfail"], counts["xpass"], len(stale), counts["skip"]))
    print("total time %.1f s, %.1f s of CPU (%d jobs; wall time summed over programs: glc builds %.1f s, "
          "gl runs %.1f s, Go's builds and runs %.1f s; slowest: %s)" %
          (el, ru.ru_utime + ru.ru_stime, jobs, gl, rn, gotime,
           ", ".join("%s %.1f s" % (r.rel, r.gltime + r.runtime) for r in slow)))
    sys.exit(1 if counts["fail"] or counts["xpass"] or stale else 0)

if __name__ == "__main__":
    main()
