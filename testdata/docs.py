#!/usr/bin/env python3
"""The measured tables in docs/*.md are generated, not typed: each sits
between <!-- bench:NAME --> and <!-- /bench:NAME --> markers, and
bench/splice-docs writes it from bench/run-all's NAME.csv (make docs).

This checks, without running a benchmark (make check stays fast):
  - each chapter in CHAPTERS has a marked block for each experiment listed
    against it, and the markers of every chapter are well formed and
    balanced: each opened once, closed by the same name, none nested;
  - every marker names an experiment bench/run-all runs (run-all -list),
    so that make docs has a CSV for it;
  - bench/splice-docs works, on a fake chapter and a directory of tiny
    CSVs in a temporary directory: the table lands between the markers,
    the picture is copied and linked, the prose is untouched, filtered
    markers keep their rows only, a second run changes nothing, --check
    passes and then fails once a CSV changes (and writes nothing), and
    unbalanced markers, a missing CSV and a filter on a column that does
    not exist are errors."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOCS = os.path.join(top, "docs")
RUNALL = os.path.join(top, "bench", "run-all")
SPLICE = os.path.join(top, "bench", "splice-docs")

# chapter: the experiments whose tables it shows
CHAPTERS = {
    "scheduler.md": ["pingpong"],
    "mutex.md": ["mutex", "mutexsweep"],
    "stacks.md": ["stacks", "stackstart"],
    "preempt.md": ["preempt", "stall"],
    "syscalls.md": ["threads"],
    "gc.md": ["gc"],
    "ffi.md": ["ffi"],
    "trace.md": ["tracecost"],
}
OPEN = re.compile(r"^<!-- bench:([\w-]+)( [^>]*)? -->$")
CLOSE = re.compile(r"^<!-- /bench:([\w-]+) -->$")
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def blocks(path):
    """Names of the chapter's balanced blocks, in order; each problem
    found is a failure."""
    names, opened, fenced = [], None, False
    for n, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not re.match(r"<!--\s*/?\s*bench", line):
            continue
        o, c = OPEN.match(line), CLOSE.match(line)
        where = "%s:%d" % (os.path.basename(path), n)
        if o and opened:
            fail("%s: bench:%s opened inside bench:%s" % (where, o.group(1), opened))
        elif o:
            opened = o.group(1)
        elif c and c.group(1) != opened:
            fail("%s: /bench:%s closes %s" % (where, c.group(1), "bench:" + opened if opened else "nothing"))
        elif c:
            names.append(opened)
            opened = None
        else:
            fail("%s: malformed marker %r" % (where, line))
    if opened:
        fail("%s: bench:%s never closed" % (os.path.basename(path), opened))
    return names


def check_chapters():
    """The markers of docs/*.md against CHAPTERS and run-all's list."""
    p = subprocess.run([sys.executable, RUNALL, "-list"], capture_output=True, text=True)
    produced = {line.split()[0] for line in p.stdout.splitlines() if line.strip()}
    if p.returncode != 0 or not produced:
        fail("bench/run-all -list: exit %d, %r" % (p.returncode, p.stdout + p.stderr))
    for path in sorted(os.listdir(DOCS)):
        if not path.endswith(".md"):
            continue
        names = blocks(os.path.join(DOCS, path))
        for n in names:
            if n not in produced:
                fail("%s: bench:%s names no CSV that bench/run-all writes (%s)" % (path, n, " ".join(sorted(produced))))
        for want in CHAPTERS.get(path, []):
            if want not in names:
                fail("%s: no <!-- bench:%s --> block" % (path, want))
    for path in CHAPTERS:
        if not os.path.exists(os.path.join(DOCS, path)):
            fail("docs/%s: missing" % path)


CHAPTER = """# A chapter

Prose before.

<!-- bench:toy -->
| a typed | table |
|---|---|
| 1 | 2 |
<!-- /bench:toy -->

Prose between.

<!-- bench:toy kind=b -->
<!-- /bench:toy -->

Prose after.
"""
TOY = "kind,gl ns,Go ns,gl/Go\na,10,20,0.50\nb,30,20,1.50\n"


def splice(d, *args):
    return subprocess.run([sys.executable, SPLICE, "-i", os.path.join(d, "out"), "-docs", os.path.join(d, "docs")]
                          + list(args), capture_output=True, text=True)


def setup(d):
    """A fake docs directory with one chapter, and run-all's output."""
    for sub in ("docs", "out"):
        os.makedirs(os.path.join(d, sub))
    with open(os.path.join(d, "docs", "ch.md"), "w") as f:
        f.write(CHAPTER)
    with open(os.path.join(d, "out", "toy.csv"), "w") as f:
        f.write(TOY)
    with open(os.path.join(d, "out", "toy.svg"), "w") as f:
        f.write("<svg xmlns='http://www.w3.org/2000/svg'/>\n")
    with open(os.path.join(d, "out", "about.csv"), "w") as f:
        f.write("experiment,date,run,commit,go,cpus,load,seconds\ntoy,2000-01-01,quick,abc,go1.19,2,0.5,1\n")


def expect(cond, msg):
    if not cond:
        fail(msg)


def check_splice():
    """bench/splice-docs on the fake chapter."""
    with tempfile.TemporaryDirectory() as d:
        setup(d)
        ch = os.path.join(d, "docs", "ch.md")
        p = splice(d)
        text = open(ch).read()
        expect(p.returncode == 0, "splice-docs: exit %d: %s" % (p.returncode, p.stderr))
        expect("| a typed |" not in text, "the typed table is still there")
        expect("| kind | gl ns | Go ns | gl/Go |\n|---|---|---|---|\n| a | 10 | 20 | 0.50 |\n| b | 30 | 20 | 1.50 |\n"
               in text, "the whole table is not there:\n" + text)
        expect("| gl ns | Go ns | gl/Go |\n|---|---|---|\n| 30 | 20 | 1.50 |\n" in text,
               "kind=b did not keep b's row alone without the kind column:\n" + text)
        expect(text.count("](img/toy.svg)") == 1, "not one picture link (the filtered block has none)")
        expect(os.path.exists(os.path.join(d, "docs", "img", "toy.svg")), "the picture was not copied")
        expect("2000-01-01" in text, "no line saying where the numbers come from")
        prose = [l for l in text.split("\n") if l.startswith("Prose") or l.startswith("# ")]
        expect(prose == [l for l in CHAPTER.split("\n") if l.startswith("Prose") or l.startswith("# ")],
               "the prose changed: %r" % prose)
        expect(text.endswith("\n<!-- /bench:toy -->\n\nProse after.\n"), "the end of the chapter moved")
        again = splice(d)
        expect(open(ch).read() == text and again.stdout == "", "a second splice changed something: " + again.stdout)
        expect(splice(d, "--check").returncode == 0, "--check fails on spliced docs")
        with open(os.path.join(d, "out", "toy.csv"), "a") as f:
            f.write("c,1,1,1.00\n")
        c = splice(d, "--check")
        expect(c.returncode == 1 and "ch.md" in c.stdout, "--check passes a stale table: %d %r" % (c.returncode, c.stdout))
        expect(open(ch).read() == text, "--check wrote the chapter")


def check_errors():
    """What splice-docs must refuse, and leave alone."""
    cases = {
        "unclosed": "x\n<!-- bench:toy -->\ny\n",
        "closed twice": "<!-- bench:toy -->\n<!-- /bench:toy -->\n<!-- /bench:toy -->\n",
        "nested": "<!-- bench:toy -->\n<!-- bench:toy kind=a -->\n<!-- /bench:toy -->\n",
        "mismatched": "<!-- bench:toy -->\n<!-- /bench:other -->\n",
        "malformed": "<!-- bench: toy -->\n<!-- /bench:toy -->\n",
        "no CSV": "<!-- bench:absent -->\n<!-- /bench:absent -->\n",
        "no such column": "<!-- bench:toy nosuch=1 -->\n<!-- /bench:toy -->\n",
    }
    for what, chapter in cases.items():
        with tempfile.TemporaryDirectory() as d:
            setup(d)
            ch = os.path.join(d, "docs", "ch.md")
            with open(ch, "w") as f:
                f.write(chapter)
            p = splice(d)
            expect(p.returncode == 2 and "ch.md" in p.stderr,
                   "%s: splice-docs exit %d, %r (want 2 and the file named)" % (what, p.returncode, p.stderr))
            expect(open(ch).read() == chapter, "%s: the chapter was written" % what)


check_chapters()
check_splice()
check_errors()
if failures:
    print("%d failures" % failures)
    sys.exit(1)
print("ok: docs' markers and bench/splice-docs")
