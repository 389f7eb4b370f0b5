#!/usr/bin/env python3
"""Compile-error tests, as Go's test suite does them: every program in
testdata/errors must fail to compile (exit 1); each `// ERROR "regexp"` comment
says an error is reported on that line whose message matches the regexp, and
every reported error must be expected by such a comment."""
import os, re, subprocess, sys, concurrent.futures

top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
glc = os.environ.get("GLC", "glc")
d = os.path.join(top, "testdata", "errors")
files = sorted(f for f in os.listdir(d) if f.endswith(".gl"))
if len(sys.argv) > 1:
    files = [f for f in files if any(a in f for a in sys.argv[1:])]

errline = re.compile(r"^(.*?):(\d+):(\d+): (.*)$")
want_re = re.compile(r'//\s*ERROR\s+(.*)$')

def check(name):
    path = os.path.join(d, name)
    src = open(path, encoding="utf-8", errors="replace").read().split("\n")
    want = {}
    for i, l in enumerate(src, 1):
        m = want_re.search(l)
        if m:
            want[i] = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
    try:
        p = subprocess.run([glc, "build", "-o", os.devnull, path], capture_output=True, text=True, errors="replace", timeout=60)
    except subprocess.TimeoutExpired:
        return name, ["glc hung (timeout 60 s)"]
    probs = []
    if p.returncode != 1:
        probs.append("exit status %d, want 1" % p.returncode)
    got = []
    for l in p.stderr.split("\n"):
        m = errline.match(l)
        if l.startswith("\t") and got:  # a continuation, which may name a place ("\tx.gl:3:5: previous case")
            got[-1] = (got[-1][0], got[-1][1] + "\n" + l)
        elif m and m.group(1).endswith(name):
            got.append((int(m.group(2)), m.group(4)))
        elif l.strip() and not m:
            probs.append("unexpected output: " + l)
    matched = set()
    for line, res in want.items():
        for rx in res:
            rx2 = rx.replace('\\"', '"')
            ok = False
            for j, (gl, msg) in enumerate(got):
                if gl == line and re.search(rx2, msg):
                    matched.add(j)
                    ok = True
            if not ok:
                have = [m for gl, m in got if gl == line]
                probs.append("line %d: no error matching %r (got %r)" % (line, rx, have))
    for j, (gl, msg) in enumerate(got):
        if j not in matched and gl not in want:
            probs.append("line %d: unexpected error: %s" % (gl, msg))
        elif j not in matched and msg != "too many errors":
            pass  # a second message on a line that expects one is fine if another matched
    return name, probs

failed = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
    for name, probs in ex.map(check, files):
        if probs:
            failed += 1
            print("FAIL %s" % name)
            for pr in probs:
                print("    " + pr)
print("errors: %d programs, %d failed" % (len(files), failed))
sys.exit(1 if failed else 0)
