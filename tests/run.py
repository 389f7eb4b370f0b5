#!/usr/bin/env python3
"""Run tests: every program in testdata/run (a .gl file, or a directory of
them) is built with glc and run; its combined stdout and stderr must equal the
golden .out file and its exit status the .exit file (0 if absent).  For a
program that panics, the traceback is not compared: output is cut after the
panic message lines, as testdata/README.md says.  Each program has a time
limit and is killed, and reported as hung, if it exceeds it.

  GLDEBUG=... is passed through (CI also runs everything with stackforcemove=1;
  the few programs testdata/run/STACKFORCEMOVE lists then move their stacks
  at one call in N, for the reason it gives).
  GLFLAGS=... (glc's flags for every build, as Go's GOFLAGS) are part of
  the executables' cache key; with -gc=boehm in them (tests/boehm.sh) the
  programs testdata/run/BOEHM lists are not run, for the reasons it gives.
"""
import os, re, subprocess, sys, tempfile, concurrent.futures, time, hashlib

def cut(out):
    """Drop the traceback of an uncaught panic (and Go's [signal ...] line),
    and of a fatal error: Go's "runtime stack:" block (gl has none) and the
    "runtime: sp=... stack=[...]" line of a stack overflow (addresses), and
    the "PC=0x... m=N sigcode=N" line of a fatal signal (SIGTRAP)."""
    lines = out.split("\n")
    res, i = [], 0
    while i < len(lines):
        l = lines[i]
        if (re.match(r"^goroutine \d+ \[", l) or l == "runtime stack:") and res and res[-1] == "":
            res.pop()
            break
        if l.startswith("runtime: sp=") or re.match(r"^PC=0x[0-9a-f]+ m=\d+ sigcode=-?\d+$", l):
            i += 1
            continue
        if l.startswith("[signal ") and res and res[-1].startswith("panic: "):
            i += 1
            continue
        res.append(l)
        i += 1
    s = "\n".join(res)
    return s if s.endswith("\n") or not s else s + "\n"

def forcemoverates(d):
    """testdata/run/STACKFORCEMOVE: name -> N, the programs that run with
    stackforcemove=N when the suite runs with stackforcemove=1 (the file
    says why)."""
    rates = {}
    for line in open(os.path.join(d, "STACKFORCEMOVE")):
        f = line.split("#")[0].split()
        if f:
            rates[f[0]] = int(f[1])
    return rates

def runenv(name, rates):
    """The environment of program name's run: GLDEBUG's stackforcemove=1
    becomes stackforcemove=N for the programs STACKFORCEMOVE lists."""
    dbg = os.environ.get("GLDEBUG", "")
    knobs = dbg.split(",")
    if name not in rates or "stackforcemove=1" not in knobs:
        return None
    knobs = ["stackforcemove=%d" % rates[name] if k == "stackforcemove=1" else k for k in knobs]
    return dict(os.environ, GLDEBUG=",".join(knobs))

_toolstate = None

def toolstate(glc):
    """What else an executable depends on besides its source: glc, the
    runtime library and every file of the standard library it builds with
    (named by path, size and modification time), and the environment that
    changes a build."""
    global _toolstate
    if _toolstate is None:
        h = hashlib.sha256()
        env = dict(l.split("=", 1) for l in subprocess.run([glc, "env"], capture_output=True, text=True).stdout.splitlines() if "=" in l)
        lib = env["GLROOT_LIB"].strip('"')
        files = [glc] + [os.path.join(lib, f) for f in ("libglrt.a", "libglrt_boehm.a") if os.path.exists(os.path.join(lib, f))]
        for root, _, fs in os.walk(env["GLROOT_STDLIB"].strip('"')):
            files += [os.path.join(root, f) for f in fs]
        for f in sorted(files):
            st = os.stat(f)
            h.update(("%s %d %d\n" % (f, st.st_size, st.st_mtime_ns)).encode())
        for v in ("CC", "GLCPARTS", "GLCACHE", "GLFLAGS"):
            h.update(("%s=%s\n" % (v, os.environ.get(v, ""))).encode())
        _toolstate = h.digest()
    return _toolstate

def cachedexe(glc, src):
    """$GLTEST_BINCACHE/<key>: where the executable built from src is kept,
    so that the suites that run the same programs again under other GLDEBUG
    knobs (run-stackforcemove.sh, gcstress.sh) do not build them again.
    None without GLTEST_BINCACHE."""
    cache = os.environ.get("GLTEST_BINCACHE")
    if not cache:
        return None
    h = hashlib.sha256(toolstate(glc))
    srcs = [src] if not os.path.isdir(src) else sorted(os.path.join(src, f) for f in os.listdir(src))
    for f in srcs:
        h.update(f.encode() + b"\0" + open(f, "rb").read())
    os.makedirs(cache, exist_ok=True)
    return os.path.join(cache, h.hexdigest()[:32])

def boehmskips(d):
    """testdata/run/BOEHM: the programs that test what only gl's own
    collector has, not run when GLFLAGS says -gc=boehm."""
    names = set()
    for line in open(os.path.join(d, "BOEHM")):
        line = line.split("#")[0].strip()
        if line:
            names.add(line)
    return names

def glflags():
    """GLFLAGS: the flags glc adds to every build (tests/boehm.sh: -gc=boehm)."""
    return os.environ.get("GLFLAGS", "").split()

def build(glc, src, exe):
    """Build src into exe (or find it in the cache): None, or what failed."""
    cached = cachedexe(glc, src)
    if cached and os.path.exists(cached):
        return None, cached
    out = cached + ".%d.tmp" % os.getpid() if cached else exe
    try:
        b = subprocess.run([glc, "build", "-o", out, src], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "glc hung", exe
    if b.returncode != 0:
        return "build failed (status %d):\n%s" % (b.returncode, b.stderr[-3000:]), exe
    if cached:
        os.replace(out, cached)  # atomic: a suite running beside may build it too
        return None, cached
    return None, exe

def runone(name, tmp, d, glc, limit, rates={}):
    src = os.path.join(d, name) if os.path.isdir(os.path.join(d, name)) else os.path.join(d, name + ".gl")
    t0 = time.time()
    err, exe = build(glc, src, os.path.join(tmp, name))
    if err:
        return name, [err], 0
    try:
        p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=limit, cwd=tmp,
                           env=runenv(name, rates))
    except subprocess.TimeoutExpired:
        return name, ["HUNG: killed after %.0f s" % limit], limit
    el = time.time() - t0
    out = p.stdout.decode("utf-8", "replace")
    want = open(os.path.join(d, name + ".out"), encoding="utf-8", errors="replace").read()
    wantrc = 0
    ef = os.path.join(d, name + ".exit")
    if os.path.exists(ef):
        wantrc = int(open(ef).read().strip())
    probs = []
    if p.returncode != wantrc:
        probs.append("exit status %d, want %d" % (p.returncode, wantrc))
    if cut(out) != cut(want):
        import difflib
        diff = "".join(list(difflib.unified_diff(cut(want).splitlines(True), cut(out).splitlines(True), "want", "got"))[:60])
        probs.append("output differs:\n" + diff)
    return name, probs, el

def warmcache(glc, tmp):
    """Build one program that imports most of the standard library, alone
    and with a generous limit, before the timed builds: with a cold
    $GLCACHE the first builds compile the standard library (tens of C
    files), and several of them at once on a loaded machine took longer
    than a build's 120 s — slow, not hung (issue 21).  A failure here is
    not reported: the program's own build reports it."""
    src = os.path.join(tmp, "warm.gl")
    with open(src, "w") as f:
        f.write('package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n\t"sort"\n\t"strings"\n\t"time"\n)\n\n'
                'func main() {\n\tfmt.Fprintln(bufio.NewWriter(os.Stdout), sort.IsSorted(nil), strings.ToUpper(""), time.Second)\n}\n')
    try:
        subprocess.run([glc, "build", "-o", os.path.join(tmp, "warm"), src], capture_output=True, timeout=900)
    except subprocess.TimeoutExpired:
        pass

def main():
    top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
    glc = os.environ.get("GLC", "glc")
    d = os.path.join(top, "testdata", "run")
    limit = float(os.environ.get("GLTEST_TIMEOUT", "60"))
    names = sorted(set(f[:-3] for f in os.listdir(d) if f.endswith(".gl")) |
                   set(f for f in os.listdir(d) if os.path.isdir(os.path.join(d, f))))
    names = [n for n in names if os.path.exists(os.path.join(d, n + ".out"))]
    if len(sys.argv) > 1:
        names = [n for n in names if any(a in n for a in sys.argv[1:])]

    rates = forcemoverates(d)
    skips = boehmskips(d)
    for listname, listed in (("STACKFORCEMOVE", rates), ("BOEHM", skips)):
        for n in listed:
            if n not in names and len(sys.argv) == 1:
                sys.exit("testdata/run/%s lists %s, which is not a program of testdata/run" % (listname, n))
    if "-gc=boehm" in glflags():
        names = [n for n in names if n not in skips]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        warmcache(glc, tmp)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            times = []
            for name, probs, el in ex.map(lambda n: runone(n, tmp, d, glc, limit, rates), names):
                times.append((el, name))
                if probs:
                    failed += 1
                    print("FAIL %s" % name)
                    for pr in probs:
                        print("    " + pr.replace("\n", "\n    "))
    print("run: %d programs, %d failed%s%s" % (len(names), failed,
          " (GLDEBUG=%s)" % os.environ["GLDEBUG"] if os.environ.get("GLDEBUG") else "",
          " (GLFLAGS=%s)" % " ".join(glflags()) if glflags() else ""))
    times.sort(reverse=True)
    print("slowest (build and run): " + ", ".join("%s %.1f s" % (n, t) for t, n in times[:6]))
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
