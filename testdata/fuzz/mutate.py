#!/usr/bin/env python3
"""Mutation fuzzing of the whole of glc: lexer, parser, checker, emitter and
the C compiler's verdict on what glc writes.

  testdata/fuzz/mutate.py                make check: a fixed-seed batch (CHECK_INPUTS
                                      inputs, seed CHECK_SEED); fails on a finding
  testdata/fuzz/mutate.py [options]
     --time SECONDS                   mutate until the time is up (make fuzz-mutate)
     --inputs N                       stop after N inputs
     --seed S                         the random seed (default: the time)
     --jobs N                         parallel builds (default 2)
     --save DIR                       write each finding there (finding-N.gl and .txt)

Each input is a program of testdata/run or testdata/errors with one to three
token-level mutations (a token deleted, repeated, swapped with its
neighbour, or replaced by a token from elsewhere in the corpus — keywords,
operators, built-in names, identifiers, literals) or a line deleted or
repeated.  It is built with `$GLC build -o /dev/null` under a time limit.
glc may accept it (exit 0) or reject it (exit 1, every message in the form
file:line:col: message); anything else is a finding:

  crash      glc killed by a signal (a segmentation fault, an abort)
  badC       exit 3: the C compiler rejected the C glc wrote, or linking failed
  internal   an "internal error" message with exit 1
  format     an error message not in the file:line:col: form
  hang       no answer within the time limit (120 s: a cold standard-library
             build on a loaded machine can take a minute)
  exit       any other exit status

A finding is reduced (lines deleted while the same kind of finding stays)
and printed with its mutations.  Every finding becomes a testdata/errors or
testdata/run program once fixed.

GLC (default: ./glc of the build tree).
"""
import concurrent.futures, os, random, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
top = os.environ.get("top_srcdir", os.path.join(here, "..", ".."))
sys.dont_write_bytecode = True

CHECK_SEED = 20261202
CHECK_INPUTS = 150
TIMEOUT = 120

TOKEN = re.compile(r'''"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'|//[^\n]*|/\*.*?\*/|'''
                   r'''[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|<<=|>>=|&\^=|\.\.\.|&&|\|\||<-|\+\+|--|'''
                   r'''==|!=|<=|>=|:=|[-+*/%&|^]=|<<|>>|&\^|\S''', re.S)
ERRLINE = re.compile(r"^[^:\s][^:]*:\d+:\d+: \S")

def corpus():
    files = []
    for d in ("run", "errors"):
        dd = os.path.join(top, "testdata", d)
        for f in sorted(os.listdir(dd)):
            p = os.path.join(dd, f)
            if f.endswith(".gl") and os.path.isfile(p):
                files.append(p)
    return files

def tokens(src):
    """(start, end) of every token that is not a comment."""
    return [(m.start(), m.end()) for m in TOKEN.finditer(src) if not m.group().startswith(("//", "/*"))]

def mutate(src, rng, pool):
    """src with one to three mutations, and what they were."""
    what = []
    for _ in range(rng.randint(1, 3)):
        toks = tokens(src)
        if len(toks) < 2:
            break
        kind = rng.choice(["delete", "repeat", "swap", "replace", "replace", "replace", "dropline", "dupline"])
        i = rng.randrange(len(toks) - 1)
        s, e = toks[i]
        t = src[s:e]
        if kind == "delete":
            src = src[:s] + src[e:]
            what.append("delete %r" % t)
        elif kind == "repeat":
            src = src[:e] + " " + t + src[e:]
            what.append("repeat %r" % t)
        elif kind == "swap":
            s2, e2 = toks[i + 1]
            u = src[s2:e2]
            src = src[:s] + u + src[e:s2] + t + src[e2:]
            what.append("swap %r %r" % (t, u))
        elif kind == "replace":
            u = rng.choice(pool)
            src = src[:s] + u + src[e:]
            what.append("replace %r by %r" % (t, u))
        else:
            lines = src.split("\n")
            j = rng.randrange(len(lines))
            what.append("%s line %d" % (kind, j + 1))
            if kind == "dropline":
                del lines[j]
            else:
                lines.insert(j, lines[j])
            src = "\n".join(lines)
    return src, what

def warm(glc, srcs):
    """Build, once and with a generous limit, a program importing every
    package the corpus imports: with a cold $GLCACHE the first builds
    compile the standard library, and two at once on a loaded machine can
    pass the time limit — slow, not hung."""
    pkgs = set()
    for src in srcs:
        for block in re.findall(r'^import\s*\((.*?)\)', src, re.S | re.M):
            pkgs |= set(re.findall(r'"([a-z0-9/]+)"', block))
        pkgs |= set(re.findall(r'^import\s+"([a-z0-9/]+)"', src, re.M))
    # not the bad paths of testdata/errors
    pkgs = {p for p in pkgs if re.fullmatch(r"[a-z0-9]+(/[a-z0-9]+)*", p) and os.path.isdir(os.path.join(top, "stdlib", p))}
    prog = "package main\n\nimport (\n%s)\n\nfunc main() {}\n" % "".join('\t_ "%s"\n' % p for p in sorted(pkgs))
    with tempfile.TemporaryDirectory(prefix="glfuzz") as tmp:
        path = os.path.join(tmp, "warm.gl")
        open(path, "w").write(prog)
        try:
            subprocess.run([glc, "build", "-o", os.path.join(tmp, "warm"), path], capture_output=True, timeout=1800)
        except subprocess.TimeoutExpired:
            pass
    return len(pkgs)

def verdict(glc, src, tmp):
    """None if glc behaved, else (kind, detail)."""
    path = os.path.join(tmp, "main.gl")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(src)
    try:
        p = subprocess.run([glc, "build", "-o", os.path.join(tmp, "a.out"), path], capture_output=True, timeout=TIMEOUT,
                           cwd=tmp)
    except subprocess.TimeoutExpired:
        return ("hang", "no answer in %d s" % TIMEOUT)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return ("crash", "signal %d\n%s" % (-p.returncode, err[-2000:]))
    if p.returncode == 3:
        return ("badC", err[-3000:])
    if p.returncode not in (0, 1):
        return ("exit", "exit %d\n%s" % (p.returncode, err[-2000:]))
    if "internal error" in err:
        return ("internal", err[-2000:])
    if p.returncode == 1:
        for l in err.splitlines():
            if not ERRLINE.match(l) and not l.startswith("\t") and l.strip():
                return ("format", l[:300])
    return None

def reduce(glc, src, kind, tmp, deadline):
    """Delete lines while the same kind of finding remains."""
    lines = src.split("\n")
    chunk = max(1, len(lines) // 4)
    while chunk >= 1 and time.time() < deadline:
        i, changed = 0, False
        while i < len(lines) and time.time() < deadline:
            cand = lines[:i] + lines[i + chunk:]
            v = verdict(glc, "\n".join(cand), tmp)
            if v and v[0] == kind:
                lines, changed = cand, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines)

def main():
    args = sys.argv[1:]
    opts = {"--time": None, "--inputs": None, "--seed": None, "--jobs": "2", "--save": None}
    while args:
        a = args.pop(0)
        if a not in opts or not args:
            sys.exit(__doc__)
        opts[a] = args.pop(0)
    check = opts["--time"] is None and opts["--inputs"] is None
    seed = int(opts["--seed"]) if opts["--seed"] else (CHECK_SEED if check else int(time.time()))
    ninputs = CHECK_INPUTS if check else (int(opts["--inputs"]) if opts["--inputs"] else 1 << 62)
    stop = time.time() + float(opts["--time"]) if opts["--time"] else float("inf")
    glc = os.environ.get("GLC") or os.path.join(top, "glc")
    files = corpus()
    srcs = [open(f, encoding="utf-8", errors="surrogateescape").read() for f in files]
    pool = sorted({src[s:e] for src in srcs for s, e in tokens(src) if e - s < 40})
    findings, done, t0 = [], 0, time.time()

    def one(i):
        r = random.Random(seed * 1000003 + i)
        k = r.randrange(len(files))
        src, what = mutate(srcs[k], r, pool)
        with tempfile.TemporaryDirectory(prefix="glfuzz") as tmp:
            v = verdict(glc, src, tmp)
            if v:
                red = reduce(glc, src, v[0], tmp, time.time() + 120)
                return (i, files[k], what, v, red)
        return None

    t = time.time()
    n = warm(glc, srcs)
    print("mutate: seed %d, %d programs in the corpus, %d tokens in the pool; %d packages warmed in %.0f s" %
          (seed, len(files), len(pool), n, time.time() - t))
    with concurrent.futures.ThreadPoolExecutor(int(opts["--jobs"])) as ex:
        i = 0
        pending = set()
        while (i < ninputs and time.time() < stop) or pending:
            while len(pending) < 2 * int(opts["--jobs"]) and i < ninputs and time.time() < stop:
                pending.add(ex.submit(one, i))
                i += 1
            fin, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in fin:
                done += 1
                r = f.result()
                if r:
                    findings.append(r)
                    n, src, what, v, red = r
                    print("FINDING %s (input %d, from %s: %s)\n    %s\n--- reduced:\n%s\n---" %
                          (v[0], n, os.path.relpath(src, top), "; ".join(what), v[1].strip().replace("\n", "\n    "), red))
                    if opts["--save"]:
                        os.makedirs(opts["--save"], exist_ok=True)
                        base = os.path.join(opts["--save"], "finding-%d" % n)
                        open(base + ".gl", "w", encoding="utf-8", errors="surrogateescape").write(red)
                        open(base + ".txt", "w").write("%s\n%s\n%s\n" % (v[0], "; ".join(what), v[1]))
    print("mutate: %d inputs in %.0f s, %d findings" % (done, time.time() - t0, len(findings)))
    sys.exit(1 if findings else 0)

if __name__ == "__main__":
    main()
