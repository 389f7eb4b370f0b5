#!/usr/bin/env python3
"""bench/compile/shapes.py [-n RUNS] [SHAPE[=N] ...]: compile time of the
program shapes that once made glc or the C compiler slow out of all
proportion, glc against Go 1.19 in the same run (median of RUNS builds
each, default 1, the standard library already compiled for both).

Shapes (default sizes in brackets):
  switch   one expression switch with N constant integer cases [50000]
  elseif   one if / else-if chain of N links [4000]
  funcs    N small functions, each called once [20000]
  strings  one switch on a string with N cases [20000]

Each program is valid Go and prints a checksum; gl's and Go's outputs are
compared.  Usage: bench/compile/shapes.py switch=50000 elseif"""
import os, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
glc = os.environ.get("GLC") or os.path.join(here, "..", "..", "glc")
go = os.environ.get("GO") or "/usr/lib/go-1.19/bin/go"


def switch(n):
    cases = "".join("\tcase %d:\n\t\treturn %d\n" % (i * 7, i % 97) for i in range(n))
    return ("package main\n\nfunc f(x int) int {\n\tswitch x {\n%s\t}\n\treturn -1\n}\n\n"
            "func main() {\n\ts := 0\n\tfor i := 0; i < %d; i++ {\n\t\ts += f(i)\n\t}\n\tprintln(s)\n}\n"
            % (cases, n * 7))


def elseif(n):
    links = "".join("\t} else if x == %d {\n\t\treturn %d\n" % (i * 3, i % 89) for i in range(1, n))
    return ("package main\n\nfunc f(x int) int {\n\tif x == 0 {\n\t\treturn 0\n%s\t}\n\treturn -1\n}\n\n"
            "func main() {\n\ts := 0\n\tfor i := 0; i < %d; i++ {\n\t\ts += f(i)\n\t}\n\tprintln(s)\n}\n"
            % (links, n * 3))


def funcs(n):
    # 50 calls to a group function, each group calling the next: a
    # function of some 400 calls or more can get a C frame over the 800
    # bytes allowed before the stack check, which glc rejects (compiler/stackcheck.c)
    defs = "".join("func f%d(x int) int { return x*%d + %d }\n" % (i, i % 13 + 1, i % 7) for i in range(n))
    ng = (n + 49) // 50
    groups = "".join("func g%d() (s int) {\n%s%s\treturn\n}\n" % (
        k, "".join("\ts += f%d(%d)\n" % (i, i % 5) for i in range(k * 50, min(n, k * 50 + 50))),
        "\ts += g%d()\n" % (k + 1) if k + 1 < ng else "") for k in range(ng))
    return "package main\n\n%s\n%s\nfunc main() {\n\tprintln(g0())\n}\n" % (defs, groups)


def strings(n):
    cases = "".join('\tcase "key%d":\n\t\treturn %d\n' % (i, i % 101) for i in range(n))
    return ('package main\n\nimport "strconv"\n\nfunc f(x string) int {\n\tswitch x {\n%s\t}\n\treturn -1\n}\n\n'
            'func main() {\n\ts := 0\n\tfor i := 0; i < %d; i += 3 {\n\t\ts += f("key" + strconv.Itoa(i))\n\t}\n'
            '\tprintln(s)\n}\n' % (cases, n + 5))


shapes = {"switch": (switch, 50000), "elseif": (elseif, 4000), "funcs": (funcs, 20000), "strings": (strings, 20000)}


def timed(cmd, cwd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stdout.decode()[-2000:]))
    return dt


def output(exe):
    return subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout


def main():
    args = sys.argv[1:]
    runs = 1
    if args[:1] == ["-n"]:
        runs, args = int(args[1]), args[2:]
    todo = []
    for a in args or list(shapes):
        name, _, n = a.partition("=")
        if name not in shapes:
            sys.exit("unknown shape %s (have %s)" % (name, ", ".join(shapes)))
        todo.append((name, int(n) if n else shapes[name][1]))
    havego = os.access(go, os.X_OK)
    print("%-8s %7s %9s %9s %7s  (median of %d; %d CPUs, load %s)" %
          ("shape", "N", "glc s", "go s", "gl/Go", runs, os.cpu_count(), open("/proc/loadavg").read().split()[0]))
    with tempfile.TemporaryDirectory() as tmp:
        for name, n in todo:
            src = shapes[name][0](n)
            d = os.path.join(tmp, name)
            os.makedirs(d)
            with open(os.path.join(d, "main.go"), "w") as f:
                f.write(src)
            gl, gg = [], []
            for r in range(runs):
                with open(os.path.join(d, "main.go"), "a") as f:
                    f.write("// run %d\n" % r)  # no build reuses the last one's object
                gl.append(timed([glc, "build", "-o", "gl.exe", "main.go"], d))
                if havego:
                    gg.append(timed([go, "build", "-o", "go.exe", "main.go"], d,
                                    dict(os.environ, GO111MODULE="off", GOFLAGS="")))
            tg = statistics.median(gl)
            if havego:
                to = statistics.median(gg)
                same = output(os.path.join(d, "gl.exe")) == output(os.path.join(d, "go.exe"))
                print("%-8s %7d %9.2f %9.2f %7.2f%s" % (name, n, tg, to, tg / to, "" if same else "  OUTPUTS DIFFER"))
            else:
                print("%-8s %7d %9.2f %9s %7s" % (name, n, tg, "-", "-"))


main()
