#!/usr/bin/env python3
"""The generated C, checked: every testdata/emit/NAME.gl is compiled by glc
and its C file (the package main one) must equal testdata/emit/NAME.c, so a
change to what glc writes shows in review as a change to these files.  The
programs are small and each shows one part of the C a reader meets (see
testdata/emit/README.md).  Absolute paths (GlFuncInfo records the source's
absolute path for tracebacks, and the root as runtime.GOROOT's default) are
written as $SRCDIR.

Usage: GLC=path/to/glc testdata/emit.py [--update] [NAME...]
  --update rewrites the .c files from what glc writes now (then read the diff).
Exit 0 pass, 1 fail."""
import difflib, os, re, shutil, subprocess, sys, tempfile

def main():
    args = sys.argv[1:]
    update = "--update" in args
    names = [a for a in args if a != "--update"]
    glc = os.path.abspath(os.environ.get("GLC", "./glc"))
    top = os.path.abspath(os.environ.get("top_srcdir", "."))
    d = os.path.join(top, "testdata", "emit")
    progs = sorted(f[:-3] for f in os.listdir(d) if f.endswith(".gl"))
    if names:
        progs = [p for p in progs if p in names]
    if not progs:
        print("emit: no programs")
        return 1
    failed = 0
    tmp = tempfile.mkdtemp(prefix="glemit")
    try:
        for name in progs:
            failed += not check(glc, top, d, tmp, name, update)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"emit: {len(progs)} programs, {failed} failed")
    return 1 if failed else 0

def generate(glc, top, tmp, name):
    """glc's C for testdata/emit/NAME.gl, paths made relative; None on error."""
    src = os.path.join("testdata", "emit", name + ".gl")
    r = subprocess.run([glc, "build", "-work", "-o", os.path.join(tmp, name), src], cwd=top,
                       capture_output=True, text=True, timeout=300)
    m = re.search(r"^WORK=(\S+)$", r.stderr, re.M)
    if r.returncode != 0 or not m:
        print(f"FAIL {name}: glc build exit {r.returncode}\n{r.stderr[-2000:]}")
        return None
    work = m.group(1)
    try:
        with open(os.path.join(work, "main.c")) as f:
            c = f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # runtime.GOROOT's default names the root itself, without a slash
    return c.replace(top + "/", "$SRCDIR/").replace('"%s"' % top, '"$SRCDIR"')

def check(glc, top, d, tmp, name, update):
    got = generate(glc, top, tmp, name)
    if got is None:
        return False
    golden = os.path.join(d, name + ".c")
    if update:
        with open(golden, "w") as f:
            f.write(got)
        print(f"wrote testdata/emit/{name}.c")
        return True
    try:
        with open(golden) as f:
            want = f.read()
    except FileNotFoundError:
        print(f"FAIL {name}: no testdata/emit/{name}.c (testdata/emit.py --update {name} writes it)")
        return False
    if got == want:
        print(f"ok   {name}")
        return True
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), f"testdata/emit/{name}.c", "glc now", lineterm="", n=2))
    print(f"FAIL {name}: the generated C changed ({len(diff)} diff lines; if meant, testdata/emit.py --update {name}):")
    print("\n".join(diff[:80]))
    return False

if __name__ == "__main__":
    sys.exit(main())
