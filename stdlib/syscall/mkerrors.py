#!/usr/bin/env python3
"""mkerrors.py: writes the errnoText table of stdlib/syscall/syscall.gl (between
its BEGIN errnoText and END errnoText lines) from the C library's strerror, as
Python's os.strerror gives it on Linux with glibc, for every errno from 1 to
133 that has one (41 and 58 have none), and the signalText table of exec.gl
from strsignal (Python's signal.strsignal), signals 1 to 31.  Go's syscall
prints the same texts with the first letter made lower case, unless the
first word has another capital (RFS, CPU, I/O)."""
import os, re, signal, sys

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "syscall.gl")
numbers = range(1, 134)

def lower(t):
    word = t.split()[0]
    return t if any(c.isupper() for c in word[1:]) else t[0].lower() + t[1:]


# Go's texts came from an older C library, where ESTALE read so.
older = {116: "stale NFS file handle"}

texts = []
for n in numbers:
    t = os.strerror(n)
    if t.startswith("Unknown error"):
        if n not in (41, 58):
            sys.exit("mkerrors.py: no text for errno %d: not glibc?" % n)
        continue
    texts.append('%d: "%s",' % (n, older.get(n) or lower(t)))
def rows(texts):
    """Several entries a line, as many as fit in 100 columns."""
    out, row = [], ""
    for t in texts:
        if row and len(row) + 1 + len(t) > 92:
            out.append(row)
            row = ""
        row = (row + " " + t).strip()
    out.append(row)
    return out


def write(path, name, texts):
    table = "var %s = [...]string{\n" % name + "".join("\t%s\n" % r for r in rows(texts)) + "}\n\n"  # gofmt wants the blank line
    src = open(path).read()
    begin = "// BEGIN %s: written by stdlib/syscall/mkerrors.py; do not edit.\n" % name
    end = "// END %s\n" % name
    i, j = src.index(begin) + len(begin), src.index(end)
    open(path, "w").write(src[:i] + table + src[j:])


write(path, "errnoText", texts)
sigs = []
for n in range(1, 32):
    t = signal.strsignal(n)
    if t is None or t.startswith("Unknown signal") or t.startswith("Real-time"):
        sys.exit("mkerrors.py: no text for signal %d: not glibc?" % n)
    sigs.append('%d: "%s",' % (n, lower(t)))
write(os.path.join(here, "exec.gl"), "signalText", sigs)
