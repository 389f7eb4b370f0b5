#!/usr/bin/env python3
"""The test headers of testdata/run (testdata/README.md) must be able to
fail: testdata/run.py, their one reader, is run on small copies of a
testdata/run in a temporary directory.  A well-formed header (in a .gl
file, and in the file with func main of a directory program) selects its
program for the kinds and keys it names; each malformed header (an
unknown kind, a line that is not a header line, `//run`, a header line
without `// run` above it, a key given twice, a bad N, a header in a
directory's file without func main) makes every use of run.py fail and
name the file and line, before anything is built; and a kind that no
program names is an error, so that a suite cannot pass by running
nothing."""
import os, subprocess, sys, tempfile

RUNPY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run.py")
GOOD = {
    "plain.gl": "package main\n\nfunc main() {}\n",
    "conc.gl": "// run sched gcloop\n\npackage main\n\nfunc main() {}\n",
    "nogo.gl": "// run\n// skip-go: needs Go 1.22: range over an integer\n// stackforcemove=10: many calls\n\n"
               "package main\n\nfunc main() {}\n",
    "dir/main.gl": "// run gcstress\n// skip-boehm: a reason\npackage main\n\nfunc main() { f() }\n",
    "dir/f.gl": "// f's file: its first comment is not a header\npackage main\n\nfunc f() {}\n",
}
BAD = {  # program -> (its text, where run.py must say the header is wrong)
    "unknown.gl": ("// run sched procs\n\npackage main\n", "unknown.gl:1: unknown kind 'procs'"),
    "notheader.gl": ("// run sched\n// a comment, no blank line before it\npackage main\n", "notheader.gl:2: not a header line"),
    "nospace.gl": ("//run sched\n\npackage main\n", "nospace.gl:1: a header starts with"),
    "norun.gl": ("// skip-boehm: no run line\n\npackage main\n", "norun.gl:1: a header starts with"),
    "twice.gl": ("// run\n// skip-go: a\n// skip-go: b\n\npackage main\n", "twice.gl:3: skip-go given twice"),
    "kindtwice.gl": ("// run sched sched\n\npackage main\n", "kindtwice.gl:1: kind sched named twice"),
    "badn.gl": ("// run\n// stackforcemove=0: zero\n\npackage main\n", "badn.gl:2: not a header line"),
    "noreason.gl": ("// run\n// skip-boehm:\n\npackage main\n", "noreason.gl:2: not a header line"),
    "dir/f.gl": ("// run sched\n\npackage main\n\nfunc f() {}\n", "f.gl: a header belongs in"),
}

def tree(tmp, files):
    """A top_srcdir whose testdata/run holds files, each program with a golden."""
    d = os.path.join(tmp, "testdata", "run")
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        prog = name.split("/")[0]
        open(os.path.join(d, prog[:-3] if prog.endswith(".gl") else prog) + ".out", "w").close()
    return tmp

def runpy(top, *args):
    """run.py ARGS on top's testdata/run: (exit status, output); glc is
    /bin/false, so a run.py that got as far as building fails there."""
    env = dict(os.environ, top_srcdir=top, GLC="/bin/false", GLTEST_BINCACHE="")
    p = subprocess.run([sys.executable, RUNPY] + list(args), env=env, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr

def check(what, ok):
    print("%s %s" % ("ok  " if ok else "FAIL", what))
    return ok

def main():
    good = True
    with tempfile.TemporaryDirectory() as tmp:
        top = tree(os.path.join(tmp, "good"), GOOD)
        for key, want in (("sched", "conc"), ("gcloop", "conc"), ("gcstress", "dir"), ("skip-go", "nogo"),
                          ("stackforcemove", "nogo"), ("skip-boehm", "dir"), ("go-timing", "")):
            rc, out = runpy(top, "--list", key)
            good &= check("--list %s: %r" % (key, want), rc == 0 and out.strip() == want)
        rc, out = runpy(top, "--list", "procs")
        good &= check("--list of an unknown key fails", rc != 0)
        for name, (text, want) in BAD.items():
            top = tree(os.path.join(tmp, "bad-" + name.replace("/", "-")), dict(GOOD, **{name: text}))
            for args in (["--list", "sched"], ["--kind", "sched"], []):
                rc, out = runpy(top, *args)
                good &= check("%s: run.py %s fails naming %r" % (name, " ".join(args), want),
                              rc != 0 and want in out and "malformed test headers" in out)
        top = tree(os.path.join(tmp, "nokind"), {"plain.gl": GOOD["plain.gl"]})
        for args in (["--list", "sched"], ["--kind", "sched"]):
            rc, out = runpy(top, *args)
            good &= check("no program is sched: run.py %s fails" % " ".join(args), rc != 0 and "no program" in out)
    sys.exit(0 if good else 1)

if __name__ == "__main__":
    main()
