#!/usr/bin/env python3
"""Write the table of Go's results into testdata/run/math_funcs.gl.

math_funcs.gl compares gl's math functions with Go's results on seeded
arguments; the table of those results (their bits) comes from Go itself:
this script copies the program, sets its constant record, builds and runs
it with Go 1.19, and puts what it prints between the lines
"// BEGIN table" and "// END table".  Then `testdata/mkgolden.sh
math_funcs` makes the golden, with Go as always.

usage: testdata/mkmathtable.py   (GO: the go command, default Go 1.19's)"""
import os, re, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
prog = os.path.join(here, "run", "math_funcs.gl")
go = os.environ.get("GO", "/usr/lib/go-1.19/bin/go")

src = open(prog).read()
rec, n = re.subn(r"^const record = false$", "const record = true", src, flags=re.M)
if n != 1:
    sys.exit("mkmathtable: no 'const record = false' line in " + prog)
with tempfile.TemporaryDirectory() as tmp:
    open(os.path.join(tmp, "main.go"), "w").write(rec)
    env = dict(os.environ, GO111MODULE="off")
    subprocess.run([go, "build", "-o", "bin", "."], cwd=tmp, env=env, check=True)
    out = subprocess.run(["./bin"], cwd=tmp, capture_output=True, text=True, check=True)
# println writes to stderr; one line per four results, a blank line after
# each function.
rows = [l.strip() for l in out.stderr.splitlines()]
table = "\n".join("\t" + r if r else "" for r in rows).rstrip() + "\n"
begin, end = "// BEGIN table\n", "// END table\n"
i, j = src.index(begin) + len(begin), src.index(end)
open(prog, "w").write(src[:i] + table + src[j:])
print("mkmathtable: %d results" % sum(r.count("0x") for r in rows))
