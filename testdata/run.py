#!/usr/bin/env python3
"""Run tests: every program in testdata/run (a .gl file, or a directory of
them) is built with glc and run; its combined stdout and stderr must equal the
golden .out file and its exit status the .exit file (0 if absent).  For a
program that panics, the traceback is not compared: output is cut after the
panic message lines, as testdata/README.md says.  Each program has a time
limit and is killed, and reported as hung, if it exceeds it.

A program says how else it runs in a header, its first lines (`// run
sched gcstress`, `// skip-boehm: why`, ...; testdata/README.md has the
rules).  This is the one reader of those headers: a header that is
malformed or names an unknown kind fails every run of this driver, and
the other suites ask it for their programs.

  run.py [NAME...]              the programs whose name contains a NAME (all
                                without one)
  run.py --kind KIND [NAME...]  only those whose `// run` line names KIND
                                (testdata/sched.sh: sched; testdata/gcstress.sh and
                                testdata/clangrt.sh: gcstress)
  run.py --list KEY             print, one a line, the programs whose header
                                has KEY (a kind, or skip-go, skip-boehm,
                                go-timing, stackforcemove): for the suites
                                that build and run programs themselves
                                (testdata/boehm.sh, testdata/gcloop.sh: gcloop;
                                testdata/mkgolden.sh: skip-go)
  run.py --skip FILE [NAME...]  all but the programs FILE lists, each with
                                why (testdata/gcstress-skip, for
                                testdata/gcstress.sh's whole-suite leg)

  GLDEBUG=... is passed through (CI also runs everything with stackforcemove=1;
  a program whose header says `// stackforcemove=N: why` then moves its
  stack at one call in N).
  GLFLAGS=... (glc's flags for every build, as Go's GOFLAGS) are part of
  the executables' cache key; with -gc=boehm in them (testdata/boehm.sh) the
  programs whose header says `// skip-boehm: why` are not run.
"""
import argparse, os, re, subprocess, sys, tempfile, concurrent.futures, time, hashlib

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

# The kinds a `// run` line may name: the suites that run the program again.
KINDS = {
    "sched": "testdata/sched.sh: at GLMAXPROCS=1, 2, 4 and 8, and under stackforcemove",
    "gcstress": "testdata/gcstress.sh and testdata/clangrt.sh: the collector's stress modes",
    "gcloop": "testdata/gcloop.sh and testdata/boehm.sh: built once, run round after round",
}
# The lines a header may have after `// run`, each with the reason the
# program needs it (the last group; stackforcemove's first is its N).
ATTRS = {
    "skip-go": re.compile(r"^// skip-go: (\S.*)$"),
    "skip-boehm": re.compile(r"^// skip-boehm: (\S.*)$"),
    "go-timing": re.compile(r"^// go-timing: (\S.*)$"),
    "stackforcemove": re.compile(r"^// stackforcemove=([1-9][0-9]*): (\S.*)$"),
}
RUNLINE = re.compile(r"^// run((?: [a-z0-9-]+)*)$")
# What looks meant as a header but is not one: `//run`, `// run: sched`,
# a header line on line 1 without `// run` above it.
LOOKSLIKE = re.compile(r"^//\s*(run(\s|:|,|$)|(skip-go|skip-boehm|go-timing|stackforcemove)\b)")

class HeaderError(Exception):
    pass

def parseheader(path):
    """The header of the file path: {"kinds": set, KEY: reason, or for
    stackforcemove (N, reason)}; empty without one.  HeaderError says
    where a header is malformed."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    m = RUNLINE.match(lines[0])
    if not m:
        if LOOKSLIKE.match(lines[0]):
            raise HeaderError("%s:1: a header starts with `// run [KIND...]` alone on its line" % path)
        return {}
    hdr = {"kinds": set()}
    for k in m.group(1).split():
        if k not in KINDS:
            raise HeaderError("%s:1: unknown kind %r (known: %s)" % (path, k, ", ".join(sorted(KINDS))))
        if k in hdr["kinds"]:
            raise HeaderError("%s:1: kind %s named twice" % (path, k))
        hdr["kinds"].add(k)
    for i, l in enumerate(lines[1:], 2):
        if not l.startswith("//"):
            break
        key, val = headerline(l)
        if key is None:
            raise HeaderError("%s:%d: not a header line (%s; a comment after the header "
                              "needs a blank line before it): %s" % (path, i, ", ".join(sorted(ATTRS)), l))
        if key in hdr:
            raise HeaderError("%s:%d: %s given twice" % (path, i, key))
        hdr[key] = val
    return hdr

def headerline(l):
    """(KEY, value) of one header line after `// run`, or (None, None)."""
    for key, rx in ATTRS.items():
        m = rx.match(l)
        if m:
            return key, (int(m.group(1)), m.group(2)) if key == "stackforcemove" else m.group(1)
    return None, None

def headerfiles(d, name):
    """The files of program name that may hold its header: NAME.gl, or for
    a directory the file that declares func main (the others must have
    none; NAME.cgo, Go's twin of a program that calls C, is not read)."""
    p = os.path.join(d, name)
    if not os.path.isdir(p):
        return [p + ".gl"], p + ".gl"
    files = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".gl"))
    mains = [f for f in files if re.search(r"^func main\(\)", open(f, encoding="utf-8", errors="replace").read(), re.M)]
    if len(mains) != 1:
        raise HeaderError("%s: %d files declare func main, want 1 (it holds the header)" % (p, len(mains)))
    return files, mains[0]

def readheaders(d, names):
    """name -> header of every program; exits, naming every malformed
    header, if there is one: a header that says nothing right must fail
    the suite, not leave a program out of it."""
    hdrs, errs = {}, []
    for n in names:
        try:
            files, main = headerfiles(d, n)
            for f in files:
                h = parseheader(f)
                if h and f != main:
                    raise HeaderError("%s: a header belongs in %s, the file with func main" % (f, main))
                if f == main:
                    hdrs[n] = h
        except HeaderError as e:
            errs.append(str(e))
    if errs:
        sys.exit("run.py: malformed test headers:\n  " + "\n  ".join(errs))
    return hdrs

def haskey(hdr, key):
    """Whether a header names key, a kind or a header line's key."""
    return key in hdr.get("kinds", ()) or (key != "kinds" and key in hdr)

def programs(d):
    """The programs of testdata/run: NAME.gl or NAME/, with a NAME.out."""
    names = sorted(set(f[:-3] for f in os.listdir(d) if f.endswith(".gl")) |
                   set(f for f in os.listdir(d) if os.path.isdir(os.path.join(d, f))))
    return [n for n in names if os.path.exists(os.path.join(d, n + ".out"))]

def runenv(name, rates):
    """The environment of program name's run: GLDEBUG's stackforcemove=1
    becomes stackforcemove=N for the programs in rates (name -> N: their
    header's `// stackforcemove=N: why`)."""
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

def glflags():
    """GLFLAGS: the flags glc adds to every build (testdata/boehm.sh: -gc=boehm)."""
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
    than a build's 120 s — slow, not hung.  A failure here is
    not reported: the program's own build reports it."""
    src = os.path.join(tmp, "warm.gl")
    with open(src, "w") as f:
        f.write('package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n\t"sort"\n\t"strings"\n\t"time"\n)\n\n'
                'func main() {\n\tfmt.Fprintln(bufio.NewWriter(os.Stdout), sort.IsSorted(nil), strings.ToUpper(""), time.Second)\n}\n')
    try:
        subprocess.run([glc, "build", "-o", os.path.join(tmp, "warm"), src], capture_output=True, timeout=900)
    except subprocess.TimeoutExpired:
        pass

def args():
    """--kind KIND, --list KEY and the NAMEs of the command line."""
    ap = argparse.ArgumentParser(description="Build and run the programs of testdata/run (see the docstring).")
    ap.add_argument("--kind", choices=sorted(KINDS), help="only the programs whose `// run` line names KIND")
    ap.add_argument("--list", metavar="KEY", choices=sorted(KINDS) + sorted(ATTRS),
                    help="print the programs whose header has KEY, run nothing")
    ap.add_argument("--skip", metavar="FILE",
                    help="leave out the programs FILE lists (a name and why on each line; # comments)")
    ap.add_argument("names", nargs="*", help="only the programs whose name contains one of these")
    return ap.parse_args()

def skiplist(path, names):
    """The programs a --skip file lists: `NAME  why` per line.  A line
    without a reason, or naming no program, stops the run: the list must
    say why, and must not outlive what it lists."""
    skip = {}
    with open(path) as f:
        for n, l in enumerate(f, 1):
            l = l.strip()
            if not l or l.startswith("#"):
                continue
            name, _, why = l.partition(" ")
            if not why.strip():
                sys.exit("run.py: %s:%d: %s has no reason" % (path, n, name))
            if name not in names:
                sys.exit("run.py: %s:%d: no program %s in testdata/run" % (path, n, name))
            skip[name] = why.strip()
    return skip

def select(names, hdrs, key, subs):
    """The programs whose name contains one of subs (all without any) and,
    given key, whose header has key; exits if key is a kind no program
    has: a suite that runs nothing must not pass."""
    if subs:
        names = [n for n in names if any(x in n for x in subs)]
    if key:
        names = [n for n in names if haskey(hdrs[n], key)]
        if not names and key in KINDS:
            sys.exit("run.py: no program%s has `// run %s` in its header" % (" of " + " ".join(subs) if subs else "", key))
    return names

def main():
    top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
    glc = os.environ.get("GLC", "glc")
    d = os.path.join(top, "testdata", "run")
    limit = float(os.environ.get("GLTEST_TIMEOUT", "60"))
    a = args()
    names = programs(d)
    hdrs = readheaders(d, names)  # all of them: a bad header fails every run
    if a.list:
        print("\n".join(select(names, hdrs, a.list, [])))
        return
    names = select(names, hdrs, a.kind, a.names)
    if "-gc=boehm" in glflags():
        names = [n for n in names if "skip-boehm" not in hdrs[n]]
    skipped = skiplist(a.skip, programs(d)) if a.skip else {}
    names = [n for n in names if n not in skipped]
    rates = {n: h["stackforcemove"][0] for n, h in hdrs.items() if "stackforcemove" in h}
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
    if skipped:
        print("skipped, as %s says: %s" % (os.path.basename(a.skip), ", ".join(sorted(skipped))))
    print("run: %d programs%s, %d failed%s%s" % (len(names), " (%s)" % a.kind if a.kind else "", failed,
          " (GLDEBUG=%s)" % os.environ["GLDEBUG"] if os.environ.get("GLDEBUG") else "",
          " (GLFLAGS=%s)" % " ".join(glflags()) if glflags() else ""))
    times.sort(reverse=True)
    print("slowest (build and run): " + ", ".join("%s %.1f s" % (n, t) for t, n in times[:6]))
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
