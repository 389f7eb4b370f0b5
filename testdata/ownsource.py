#!/usr/bin/env python3
"""The standard library is written here (README.md, the rule): two checks, part of make
check.

1. No file of stdlib/, runtime/ or compiler/ carries another project's
   copyright notice or a line saying the file came from its source.
2. With Go's source installed (GOROOT/src, from `go env GOROOT`, or the
   Debian path), no stdlib file follows Go's source of the same package line
   by line: a line counts as shared when it lies in a run of RUN consecutive
   code lines (whitespace and comments aside) that also stand consecutively
   in one of the package's .go files.  No file may have more than FILEMAX of
   its lines shared, and the whole library no more than TOTALMAX.  Without
   Go's source the second check is skipped (and said so).

  testdata/ownsource.py [-v]     -v: every file's share, not only the offenders
"""
import os, re, subprocess, sys

RUN = 4
FILEMAX = 0.30
TOTALMAX = 0.10
NOTICE = re.compile(r"go\sauthors|\bported\s(to\sgl\s)?from|\bported\s.*from\sgo|\btranslated\sfrom|copyright\s\d{4}\sthe", re.I)


def codelines(text):
    """The lines of a Go or gl file as compared: comments and all
    whitespace removed; lines of three characters or fewer dropped (blank
    lines, lone braces and parentheses, `}()`: every Go file has runs of
    them, and they say nothing about where the code came from).  (A //
    inside a string literal cuts the line short; both sides are cut alike.)"""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    for line in text.split("\n"):
        line = re.sub(r"//.*", "", line)
        line = re.sub(r"\s+", "", line)
        if len(line) > 3:
            out.append(line)
    return out


def runsof(lines):
    """Every RUN consecutive lines of a file, as tuples."""
    return {tuple(lines[i:i + RUN]) for i in range(len(lines) - RUN + 1)}


def goruns(gosrc, pkg, cache={}):
    if pkg not in cache:
        runs = set()
        d = os.path.join(gosrc, pkg)
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith(".go") and not f.endswith("_test.go"):
                    runs |= runsof(codelines(open(os.path.join(d, f), errors="replace").read()))
        cache[pkg] = runs
    return cache[pkg]


def shared(lines, runs):
    """How many of lines lie in a run that runs holds."""
    hit = [False] * len(lines)
    for i in range(len(lines) - RUN + 1):
        if tuple(lines[i:i + RUN]) in runs:
            for j in range(i, i + RUN):
                hit[j] = True
    return sum(hit)


def findgosrc():
    for goroot in (os.environ.get("GOROOT"), "/usr/lib/go-1.19"):
        if goroot and os.path.isdir(os.path.join(goroot, "src", "fmt")):
            return os.path.join(goroot, "src")
    try:
        goroot = subprocess.run([os.environ.get("GO", "go"), "env", "GOROOT"], capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        return None
    src = os.path.join(goroot, "src")
    return src if os.path.isdir(os.path.join(src, "fmt")) else None


def main():
    verbose = "-v" in sys.argv[1:]
    top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
    bad = 0
    for tree in ("stdlib", "runtime", "compiler"):
        for root, _, files in os.walk(os.path.join(top, tree)):
            for f in files:
                if f.endswith((".gl", ".c", ".h", ".re", ".y", ".s", ".S", ".py")):
                    p = os.path.join(root, f)
                    for n, line in enumerate(open(p, errors="replace"), 1):
                        if NOTICE.search(line):
                            print("FAIL %s:%d: another project's notice: %s" % (os.path.relpath(p, top), n, line.strip()))
                            bad += 1
    gosrc = findgosrc()
    if gosrc is None:
        print("ownsource: Go's source not found: the line-by-line check is skipped")
        sys.exit(1 if bad else 77)
    stdlib = os.path.join(top, "stdlib")
    total = totalshared = 0
    for root, _, files in sorted(os.walk(stdlib)):
        pkg = os.path.relpath(root, stdlib)
        for f in sorted(files):
            if not f.endswith(".gl"):
                continue
            lines = codelines(open(os.path.join(root, f), errors="replace").read())
            n = shared(lines, goruns(gosrc, pkg))
            total += len(lines)
            totalshared += n
            share = n / len(lines) if lines else 0
            name = os.path.join(pkg, f)
            if share > FILEMAX:
                print("FAIL %s: %d of %d lines (%.0f%%) in runs of %d lines of Go's %s" %
                      (name, n, len(lines), 100 * share, RUN, pkg))
                bad += 1
            elif verbose and n:
                print("     %s: %d of %d lines (%.0f%%)" % (name, n, len(lines), 100 * share))
    share = totalshared / total if total else 0
    print("ownsource: %d of %d stdlib lines (%.1f%%) in runs shared with Go's source (limit %.0f%%, %.0f%% a file)" %
          (totalshared, total, 100 * share, 100 * TOTALMAX, 100 * FILEMAX))
    if share > TOTALMAX:
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
