#!/usr/bin/env python3
"""mkdescriptions.py: writes the table of metrics in description.gl (between its
BEGIN metrics and END metrics lines) from Go 1.19's documented list.

The names and descriptions come from the "Supported metrics" section of
`go doc runtime/metrics` (a description's lines joined by spaces).  The doc
does not spell out each metric's kind and whether it is cumulative, so those
come from running a small Go program that prints metrics.All(); the script
stops if the program and the doc do not list the same names in the same
order.  GO may name the go command (default /usr/lib/go-1.19/bin/go)."""
import os, subprocess, sys, tempfile

GO = os.environ.get("GO", "/usr/lib/go-1.19/bin/go")
here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "description.gl")
env = dict(os.environ, GO111MODULE="off", GOFLAGS="")


def documented():
    doc = subprocess.run([GO, "doc", "runtime/metrics"], capture_output=True, text=True, check=True,
                         env=env).stdout.splitlines()
    start = doc.index("# Supported metrics")
    out, name = [], None
    for line in doc[start + 1:]:
        if line.startswith("    /"):
            name = line.strip()
            out.append([name, []])
        elif line.startswith("    \t") and name:
            out[-1][1].append(line.strip())
        elif line.startswith("#"):
            break
    return [(n, " ".join(d)) for n, d in out]


PROGRAM = """package main

import (
	"fmt"
	"runtime/metrics"
)

func main() {
	for _, d := range metrics.All() {
		fmt.Println(d.Name, d.Kind, d.Cumulative)
	}
}
"""


def kinds():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "main.go"), "w") as f:
            f.write(PROGRAM)
        out = subprocess.run([GO, "run", "main.go"], cwd=d, capture_output=True, text=True, check=True,
                             env=env).stdout
    kind = {"1": "KindUint64", "2": "KindFloat64", "3": "KindFloat64Histogram"}
    return [(n, kind[k], c) for n, k, c in (l.split() for l in out.splitlines())]


def gostring(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


docs, ks = documented(), kinds()
if [n for n, _ in docs] != [n for n, _, _ in ks]:
    sys.exit("mkdescriptions.py: go doc and metrics.All() list different metrics")
rows = ["\t{%s, %s, %s, %s},\n" % (gostring(n), gostring(d), k, c) for (n, d), (_, k, c) in zip(docs, ks)]
table = "var metricList = []Description{\n" + "".join(rows) + "}\n"

src = open(path).read()
begin = "// BEGIN metrics: written by stdlib/runtime/metrics/mkdescriptions.py; do not edit.\n"
end = "// END metrics\n"
i, j = src.index(begin) + len(begin), src.index(end)
open(path, "w").write(src[:i] + table + src[j:])
