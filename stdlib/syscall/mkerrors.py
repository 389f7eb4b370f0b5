#!/usr/bin/env python3
"""mkerrors.py: writes the errnoText table of stdlib/syscall/syscall.gl (between
its BEGIN errnoText and END errnoText lines) from the C library's strerror, as
Python's os.strerror gives it on Linux with glibc, with the first letter made
lower case (Go's syscall prints the same texts).  The errnos are 1 to 39 and
ETIMEDOUT (110): the Errno constants syscall.gl declares, and the numbers
between them, so that Error has a text for each."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "syscall.gl")
numbers = list(range(1, 40)) + [110]

texts = []
for n in numbers:
    t = os.strerror(n)
    if t.startswith("Unknown error"):
        sys.exit("mkerrors.py: no text for errno %d: not glibc?" % n)
    texts.append('%d: "%s",' % (n, t[0].lower() + t[1:]))
# Several entries a line, as many as fit in 100 columns.
rows, row = [], ""
for t in texts:
    if row and len(row) + 1 + len(t) > 92:
        rows.append(row)
        row = ""
    row = (row + " " + t).strip()
rows.append(row)
table = "var errnoText = [...]string{\n" + "".join("\t%s\n" % r for r in rows) + "}\n\n"  # gofmt wants the blank line

src = open(path).read()
begin = "// BEGIN errnoText: written by stdlib/syscall/mkerrors.py; do not edit.\n"
end = "// END errnoText\n"
i, j = src.index(begin) + len(begin), src.index(end)
open(path, "w").write(src[:i] + table + src[j:])
