#!/usr/bin/env python3
"""The runtime functions generated code calls run on the goroutine stack with
no stack check (DESIGN.md S7): each, with everything it calls before it
switches to g0, must fit in the reserve band below stackguard0 (gl.h,
GL_STACK_GUARD).  This test compiles runtime/*.c with gcc's
-fcallgraph-info=su (frame sizes and call edges), walks the call graph from
every entry generated code can call, and fails if a worst-case chain exceeds
the limit, reaches libc (but the small leaves budgeted below), recurses, or
makes an indirect call whose targets it cannot tell.  Fatal paths count until
they switch stacks; a panic unwinds by returning (panic.c), so the call
chains are the whole story.

Runtime C that checks its stack as a gl prologue does (rt.h's
RT_STACKCHECK(g, need, ...), a call of gl_morestackneed, which grows the
stack until need bytes are free above stackguard0) ends the chains of its
callers there: they count its frame, what it calls before the check and
the check's register block.  What it calls after the check (by source
line, within its own body) must fit in need + GL_STACK_GUARD, gl code
counted as glc's budget for a function's entry; a recursion through such
a function is still reported.

Bytes below the rsp of the generated caller: gcc's frame of each function
(its return address included: a frame-less leaf is 8), and 128 more below a
leaf, a function that calls nothing, where gcc keeps locals in the red zone
without counting them.  The limit is GL_STACK_GUARD - 128, since a caller
may be up to 128 bytes below stackguard0 already -- a glc wrapper or thunk
(WRAPPER of compiler/stackcheck.c; Go's StackSmall), or a checked caller's
outgoing stack arguments -- and at most RTCALL if compiler/stackcheck.c has
it: glc checks //gl:nosplit chains assuming a runtime call needs no more.
Usage: top_srcdir=DIR [top_builddir=DIR] [CC=gcc] [CFLAGS=...] testdata/stackusage.py
Exit status 0 pass, 1 fail, 77 skip (no -fcallgraph-info: gcc < 10, clang)."""
import glob, os, re, shlex, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

TOP = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("top_builddir") or TOP
CC = shlex.split(os.environ.get("CC") or "gcc")
RT = os.path.join(TOP, "runtime")
REDZONE = 128

def src(path):
    return open(path, encoding="utf-8", errors="replace").read()

def define(path, name):
    """A number a header #defines, or an enum sets, or None."""
    m = os.path.exists(path) and re.search(r"(?:#define\s+%s\s+|\b%s\s*=\s*)(\d+)" % (name, name), src(path))
    return m and int(m.group(1))

GUARD = define(os.path.join(RT, "gl.h"), "GL_STACK_GUARD")
STACKCHECK = os.path.join(TOP, "compiler", "stackcheck.c")
WRAPPER = define(STACKCHECK, "WRAPPER") or 128
RTCALL = define(STACKCHECK, "RTCALL")
LIMIT = min(GUARD - WRAPPER, RTCALL or GUARD)
# Generated code the runtime calls (deferred calls, methods of a panic value)
# runs until its own check in what glc allows a function's frame, return
# address and morestack push: GL_STACK_GUARD - WRAPPER (stackcheck.c's
# LIMIT).  The runtime's frames above it come on top, so such a call fits
# only if the runtime checks (grows) the stack first.
GLCODE, GLENTRY = "<gl code>", GUARD - WRAPPER
# GlType.call (reflect's Value.Call): a thunk glc lets use REFLECTCALL
# bytes (stackcheck.c), then the gl function it calls.
REFLECTCODE = "<reflect call code>"
REFLECTCALL = (define(STACKCHECK, "REFLECTCALL") or 4032) + GLENTRY

# The stack switches of asm_amd64.S: what they leave on the goroutine stack
# (the register block and the return address, rt.h SAVEDREGS_SIZE) before
# moving to g0; what runs there does not count.  gogo and gl_mexit leave the
# stack for good.
SAVEDREGS = define(os.path.join(RT, "rt.h"), "SAVEDREGS_SIZE")
# asmcgocall (runtime/ffi.c's way to C) leaves its return address and three
# saved registers (rbp, rbx, r12).
SWITCH = {"systemstack": SAVEDREGS, "mcall": SAVEDREGS, "gl_morestack": SAVEDREGS,
          "gl_morestackneed": SAVEDREGS, "gogo": 8, "gl_mexit": 8, "asmcgocall": 32}
CHECK = "gl_morestackneed"
# libc (and libm) leaves allowed on the goroutine stack, with what each may
# use there, return address included.  glc links with -z now, so the lazy PLT
# resolver (3 KB) never runs in them.  Measured by painting a 64 KiB stack
# around calls (glibc 2.36, an AVX-512 machine, -z now): the string
# functions, getpid and _exit use 8 bytes (the return address; sizes 0 to
# 3 MiB, alignments 0 to 63).  Other CPUs pick other ifunc variants, so each
# gets what a leaf can use without moving rsp: the return address and the
# red zone.  sqrt used 64 (its errno path).  fma used 180 in the software
# variant (no FMA3: GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4,-AVX2;
# 800,000 random operands, four rounding modes), 8 with FMA3.
LIBC = dict.fromkeys("memmove memcpy memset memcmp bcmp memchr strlen strcmp strncmp strchr "
                     "getpid _exit sqrt".split(), 8 + REDZONE)
LIBC["fma"] = 256
# libm's functions that math's entries call (runtime/math.c) after making
# 1024 bytes free (RT_STACKCHECK): measured the same way (30,000 calls of
# each: special, random and huge arguments; with and without FMA/AVX2),
# jn used 416 bytes, lgamma_r 376, yn 368, remainder 304, tgamma 296, j1
# 288, j0 and y0 and y1 272, sincos 208, sin, cos and tan 144, the others
# (log1p acosh atanh expm1 erf erfc fmod exp exp2 log log2 log10 pow cbrt
# asin acos atan atan2 sinh cosh tanh asinh) under 100.
LIBM = dict.fromkeys("log1p acosh atanh expm1 erf erfc fmod remainder exp exp2 log log2 log10 pow cbrt "
                     "sin cos tan sincos asin acos atan atan2 sinh cosh tanh asinh tgamma lgamma_r "
                     "j0 j1 jn y0 y1 yn".split(), 512)
LIBC.update(LIBM)
# Calls in the graph that a goroutine never makes, from reading the code:
# gl_throw prints on the stack it is on only if tls_g == NULL, before
# schedinit (proc.c) sets it; while a goroutine runs tls_g is that G (the asm
# switches it with rsp), so gl_throw goes straight to systemstack(throw_m).
# proc.c's clock_ns, inlined into nanotime, walltime and
# sync_runtime_nanotime, reads the clock (libc's clock_gettime, the vDSO) on
# the stack it is on only if tls_g == NULL, a thread that is not an M; on a
# goroutine it goes through systemstack.
ONLY = {"gl_throw": {"systemstack"}, "nanotime": {"systemstack"}, "walltime": {"systemstack"},
        "sync_runtime_nanotime": {"systemstack"}}
# gl.h functions that run before any goroutine exists, on the process stack:
# the C main() of a program calls gl_main (emit.c), whose schedinit calls
# alginit, and it ends in gl_mstart.
STARTUP = ("gl_main", "alginit")

def cflags():
    """GL_CFLAGS as configure found them (config.h), or as configure.ac
    would: the fixed list and each probed flag the compiler takes."""
    h = os.path.join(BUILD, "config.h")
    m = os.path.exists(h) and re.search(r'#define GL_CFLAGS "([^"]*)"', src(h))
    if m:
        return m.group(1).split()
    ac = src(os.path.join(TOP, "configure.ac"))
    flags = re.search(r'^GL_CFLAGS="([^"$]*)"', ac, re.M).group(1).split()
    for f in re.search(r"^for f in ([^;]*); do", ac, re.M).group(1).split():
        if subprocess.run(CC + [f, "-Werror", "-x", "c", "-c", "-o", os.devnull, "-"], input="",
                          capture_output=True).returncode == 0:
            flags.append(f)
    return flags

def compile_all(tmp, flags):
    """As Makefile.am's libglrt_a_CFLAGS (GL_CFLAGS -O2 -Wall, and the build
    directory's runtime/ for the generated contract.h) and the user's
    CFLAGS; two at a time (the machines are shared)."""
    def one(c):
        o = os.path.splitext(os.path.basename(c))[0]
        p = subprocess.run(CC + flags + ["-O2"] + shlex.split(os.environ.get("CFLAGS", "")) +
                           ["-fcallgraph-info=su", "-I" + RT, "-I" + os.path.join(BUILD, "runtime"), "-c", c, "-o", o + ".o"],
                           cwd=tmp, capture_output=True, text=True)
        return c, os.path.join(tmp, o + ".ci"), p
    with ThreadPoolExecutor(2) as ex:
        # runtime/*_test.c are the runtime's unit tests, not the runtime
        srcs = [c for c in sorted(glob.glob(os.path.join(RT, "*.c"))) if not c.endswith("_test.c")]
        done = list(ex.map(one, srcs))
    return ({ci: c for c, ci, p in done if p.returncode == 0},
            ["cannot compile %s:\n%s" % (c, p.stderr[-2000:]) for c, ci, p in done if p.returncode])

def readci(ci, frame, calls, dynamic):
    """gcc's VCG graph.  A node is a global function by name, a static one
    (or a clone, f.constprop.0) as "file:name", made unique per object: a
    header's static inline function may be out of line in several."""
    txt = src(ci)
    key = lambda t: ci + "|" + t if ":" in t else t.lstrip("*")  # "*x": asm("x")
    for t, label in re.findall(r'node: \{ title: "([^"]*)" label: "([^"]*)"', txt):
        m = re.search(r"\\n(\d+) bytes \(([^)]*)\)", label)
        if m:
            frame[key(t)] = int(m.group(1))
            calls.setdefault(key(t), [])
            if m.group(2) == "dynamic":  # not "dynamic,bounded": alloca, a VLA
                dynamic.append(key(t))
    for s, t, where in re.findall(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"'
                                  r'(?: label: "([^"]*)")?', txt):
        calls.setdefault(key(s), []).append((key(t), where))

def name(n):  # "file:f" -> "f"
    return n.split(":")[-1]

def line_at(where, fromcol=False):
    """The source line at gcc's "file:line:col", or its text from col on."""
    f, l, c = where.rsplit(":", 2)
    text = src(f).split("\n")[int(l) - 1] if os.path.exists(f) else ""
    return text[int(c) - 1:] if fromcol else text

def args_of(text, i):
    """The arguments of the call or declaration whose "(" is at text[i]."""
    depth, out = 0, [""]
    for ch in text[i:]:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return [a.strip() for a in out]
        if depth == 1 and ch == ",":
            out.append("")
        elif depth > 1 or ch != "(":
            out[-1] += ch
    return []

def indirect(frame, caller, where, sources, protos):
    """The targets of an indirect call, from its source line.  The rules,
    each from reading the code:
      t->equal(...), t->hashfn(...): a type descriptor's, one of gl.h's
        gl_*equal / gl_*hash (glc's algof in emit.c and the runtime's own
        descriptors put nothing else there);
      fn->fn(...), m->ifn(...): a closure or a method: generated code;
      t->call)(...): a func type's call code (reflect_call): generated code;
      p(...), p a function-pointer parameter of the caller: the functions
        the callers of the caller pass for it, found in runtime/*.c.
      gcWriteBarrierTestHook(...): none in a program (mbarrier.c: only the
        C unit tests set it).
    Returns the targets and how they were found; None for anything else
    (reported: it needs a rule here)."""
    text = line_at(where, True)  # the call expression
    if re.search(r"\bgcWriteBarrierTestHook\(", text):
        return [], "none: set by the unit tests only"
    for field, pat in (("equal", r"gl_\w+equal$"), ("hashfn", r"gl_\w+hash$")):
        if re.search(r"->%s\(" % field, text):
            return [p for p in protos if re.match(pat, p)], "gl.h's " + pat[:-1].replace(r"\w+", "*")
    if re.search(r"->i?fn\)\s*\(", text):
        return [GLCODE], "generated code"
    if re.search(r"->call\)\s*\(", text):
        return [REFLECTCODE], "generated code (GlType.call)"
    fp, fn = re.match(r"(\w+)\s*\(", text), name(caller).split(".")[0]
    d = fp and re.search(r"^\w[\w \*]*\b%s(\([^;{]*\))\s*\{" % fn, sources, re.M)
    idx = [i for i, a in enumerate(args_of(sources, d.start(1)) if d else [])
           if re.search(r"\(\s*\*\s*%s\s*\)" % fp.group(1), a)]
    targets = set()
    for c in re.finditer(r"\b%s\(" % fn, sources) if idx else []:
        before = sources[sources.rfind("\n", 0, c.start()) + 1:c.start()].strip()
        if re.fullmatch(r"[\w *]*\w[\w *]*", before) and before != "return":
            continue  # a declaration
        a = args_of(sources, c.end() - 1)
        ks = [k for k in frame if len(a) > idx[0] and name(k) == a[idx[0]]]
        if not ks:
            return None  # a variable, not a function
        targets.update(ks)
    return targets and (sorted(targets), "passed by callers: " + " ".join(sorted(map(name, targets))))

def checkof(n, cs):
    """For a function that checks its stack (calls CHECK): (need, the
    targets it calls only after its first check).  After means on a later
    line of its own body, in its own file; a call from a function inlined
    into it is in that function's lines, so it counts as before the check
    (conservative).  None if it does not check; (None, msg) if the need
    cannot be read."""
    sites = [w for t, w in cs if t == CHECK]
    if not sites:
        return None
    needs = []
    for w in sites:
        m = re.match(r"\w+\s*\(\s*[^,]+,\s*(\w+)", line_at(w, True))
        v = m and (int(m.group(1)) if m.group(1).isdigit() else
                   next((d for d in (define(f, m.group(1)) for f in sorted(glob.glob(os.path.join(RT, "*.[ch]"))) if not f.endswith("_test.c"))
                         if d is not None), None))
        if v is None:
            return None, "cannot read the need of the stack check at %s: %s" % (w, line_at(w).strip())
        needs.append(v)
    f, first = sites[0].rsplit(":", 2)[0], min(int(w.rsplit(":", 2)[1]) for w in sites)
    text = src(f) if os.path.exists(f) else ""
    d = re.search(r"^[^\n;{}#]*\b%s\s*\([^;{]*\)\s*\{" % re.escape(name(n).split(".")[0]), text, re.M)
    if not d:
        return None, "cannot find the body of %s in %s" % (name(n), f)
    depth_, i = 0, d.end() - 1
    for i in range(d.end() - 1, len(text)):
        depth_ += {"{": 1, "}": -1}.get(text[i], 0)
        if depth_ == 0:
            break
    last = text.count("\n", 0, i) + 1
    post = lambda w: w.rsplit(":", 2)[0] == f and first < int(w.rsplit(":", 2)[1]) <= last
    before = {t for t, w in cs if t != CHECK and not post(w)}
    return min(needs), {t for t, w in cs if t != CHECK and post(w) and t not in before}

def main():
    tmpdir = tempfile.TemporaryDirectory(prefix="stackusage.")
    if shutil.which(CC[0]) is None or subprocess.run(
            CC + ["-fcallgraph-info=su", "-x", "c", "-c", "-o", "probe.o", "-"],
            input="", capture_output=True, cwd=tmpdir.name).returncode:
        print("SKIP: %s has no -fcallgraph-info (gcc 10 or later has)" % " ".join(CC))
        return 77
    flags = cflags()
    protos = re.findall(r"^(?!static|typedef|struct|enum)[A-Za-z][\w \*]*?\b(\w+)\(.*\)[^()]*;",
                        src(os.path.join(RT, "gl.h")), re.M)
    # The bodyless functions of stdlib/ are the runtime's too: glc calls them
    # as <package path, non-alphanumerics as _>_<name> (emit.c).
    bodyless = []
    for f in sorted(glob.glob(os.path.join(TOP, "stdlib", "**", "*.gl"), recursive=True)):
        pk = re.sub(r"[^A-Za-z0-9]", "_", os.path.relpath(os.path.dirname(f), os.path.join(TOP, "stdlib")))
        bodyless += [pk + "_" + n for n in re.findall(r"^func (\w+)\([^{\n]*$", src(f), re.M)]
    cis, errors = compile_all(tmpdir.name, flags)
    frame, calls, dynamic = {}, {}, []
    [readci(ci, frame, calls, dynamic) for ci in cis]
    tmpdir.cleanup()
    sources = re.sub(r"/\*.*?\*/|//[^\n]*", "", "\n".join(src(c) for c in sorted(cis.values())), flags=re.S)
    entries = [p for p in protos if p not in STARTUP and (p in frame or p in SWITCH)]
    entries += [b for b in bodyless if b in frame and b not in entries]
    missing = [p for p in protos if p not in STARTUP and p not in entries]

    # The graph as a goroutine stack sees it: indirect calls resolved; stack
    # switches, libc leaves and generated code end a chain.
    succ, problems, resolved = {}, {}, {}  # problems: (node, what) -> node
    checked = {}  # n -> (need, the callees it calls after its check only)
    for n, cs in calls.items():
        succ[n] = []
        cs = [c for c in cs if name(n) not in ONLY or c[0] in ONLY[name(n)]]
        ck = checkof(n, cs)
        if ck and ck[0] is None:
            problems[n, ck[1]] = n
        elif ck:
            checked[n] = (ck[0], set())
        for t, where in cs:
            ts = [t]
            if t == "__indirect_call":
                ts, how = indirect(frame, n, where, sources, protos) or (None, "?")
                site = os.path.basename(where).rsplit(":", 1)[0] + " " + how
                resolved.setdefault(site, set()).add(n)
                if ts is None:
                    problems[n, "an indirect call with unknown targets at %s: %s" % (
                        where, line_at(where).strip())] = n
            for u in ts or []:
                if u not in frame and u not in SWITCH and u not in LIBC and u not in (GLCODE, REFLECTCODE):
                    problems[u, "%s is not in runtime/*.c (libc? asm this test does not know?): "
                             "run it on g0 (systemstack)" % u] = u
                succ[n].append(u)
                if n in checked and t in ck[1]:
                    checked[n][1].add(u)
    problems.update({(n, "%s has a frame of unbounded size (alloca, a VLA)" % name(n)): n for n in dynamic})
    # Recursion: the strongly connected components (Tarjan's), each
    # reported once.  depth() ignores the edges that close a cycle.
    index, low, stack = {}, {}, []
    def tarjan(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in succ.get(v, []):
            if w not in index:
                tarjan(w)
            if w in stack:  # not in an SCC of its own yet
                low[v] = min(low[v], low[w])
        if low[v] == index[v]:
            c = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(c) > 1 or v in succ.get(v, []):
                problems[v, "recursion with no stack switch in the cycle, through " +
                         " ".join(sorted(map(name, c)))] = v
    sys.setrecursionlimit(20000)
    [tarjan(n) for n in list(succ) if n not in index]

    memo, below = {}, {}  # below: checked n -> (bytes after its check, chain)
    def depth(n, path):
        """The most bytes used from the call of n on, and the chain; for a
        function that checks its stack, up to its check."""
        if n not in frame:
            b = SWITCH.get(n) or LIBC.get(n) or {GLCODE: GLENTRY, REFLECTCODE: REFLECTCALL}.get(n, 0)
            return b, [(n, b)]
        if n not in memo:
            best, path = ((REDZONE, [("red zone", REDZONE)]) if not succ[n] else (0, [])), path | {n}
            after = checked[n][1] if n in checked else set()
            sub = (0, [])
            for u in succ[n]:
                if u not in path:
                    if u in after:
                        sub = max(sub, depth(u, path), key=lambda x: x[0])
                    else:
                        best = max(best, depth(u, path), key=lambda x: x[0])
            if n in checked:
                below[n] = sub
            memo[n] = (frame[n] + best[0], [(n, frame[n])] + best[1])
        return memo[n]
    results = sorted(((depth(e, frozenset()), e) for e in entries), key=lambda r: -r[0][0])
    # A callback from C (ffi.c's cgocallbackg, which asm's cgocallback calls)
    # runs below the frames of the C call it interrupts: the glc wrapper,
    # which checked its stack, then gl_ffi_call, asmcgocall's 32 bytes and
    # cgocallback's 16-byte frame record.
    for n in [n for n in frame if name(n) == "cgocallbackg"]:
        (d, c), under = depth(n, frozenset()), frame.get("gl_ffi_call", 0) + 32 + 16
        print("callback: cgocallbackg needs %d bytes below gl_ffi_call %d + asmcgocall 32 + record 16: %d, limit %d" % (
            d, frame.get("gl_ffi_call", 0), d + under, LIMIT))
        if d + under > LIMIT:
            errors.append("cgocallbackg needs %d bytes below a C call's %d, %d over: %s" % (
                d, under, d + under - LIMIT, " > ".join(name(m) for m, _ in c)))
    if not results:
        errors.append("no entry point found in runtime/gl.h")
        results = [((0, []), "-")]

    # A shortest chain from an entry to each problem (others do not matter).
    parent, queue = {e: None for e in entries}, list(entries)
    for n in queue:
        for u in succ.get(n, []):
            if u not in parent:
                parent[u] = n
                queue.append(u)
    chain = lambda n: (chain(parent[n]) if parent[n] else []) + [name(n)]
    for (n, what), at in sorted(problems.items(), key=lambda p: p[0][1]):
        if at in parent:
            errors.append("%s\n    reached by %s" % (what, " > ".join(chain(at))))

    print("stackusage: %s %s -O2 %s" % (" ".join(CC), " ".join(flags), os.environ.get("CFLAGS", "")))
    print("limit: %d bytes = min(GL_STACK_GUARD %d - wrapper budget %d%s)" % (
        LIMIT, GUARD, WRAPPER, ", RTCALL %d of compiler/stackcheck.c" % RTCALL if RTCALL else ""))
    print("entries (%d; gl.h's %s run before any goroutine):\n  %s" % (
        len(entries), " and ".join(STARTUP), " ".join(entries)))
    if missing:
        print("note: in gl.h but defined in no runtime/*.c, so not checked: " + " ".join(missing))
    print("indirect calls (site, targets: callers; * reached from an entry):")
    for site, ns in sorted(resolved.items()):
        print("  %s: %s" % (site, " ".join(sorted(name(n) + "*" * (n in parent) for n in ns))))
    print("\n%6s  %-24s %s" % ("bytes", "entry", "worst chain (bytes of each frame)"))
    for (d, c), e in results[:15]:
        print("%6d  %-24s %s" % (d, e, " > ".join("%s %d" % (name(n), b) for n, b in c)))
    errors += ["%s needs %d bytes, %d over: %s" % (e, d, d - LIMIT, " > ".join(name(n) for n, _ in c))
               for (d, c), e in results if d > LIMIT]
    reached = [n for n in sorted(below, key=name) if n in parent]
    if reached:
        print("\nstack checks in runtime C (need + band %d must hold what runs after the check):" % GUARD)
    for n in reached:
        (d, c), need = below[n], checked[n][0]
        print("%6d  %-24s need %d; %s" % (d, name(n), need, " > ".join("%s %d" % (name(m), b) for m, b in c) or "-"))
        if d > need + GUARD:
            errors.append("%s checks its stack for %d bytes but calls need %d after the check, %d over: %s" % (
                name(n), need, d, d - need - GUARD, " > ".join(name(m) for m, _ in c)))
    for e in errors:
        print("ERROR: " + e)
    print("%s: %d entries, the deepest %s needs %d bytes, limit %d; %d errors" % (
        "FAIL" if errors else "PASS", len(entries), results[0][1], results[0][0][0], LIMIT, len(errors)))
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
