#!/usr/bin/env python3
"""What isAsyncSafePoint (runtime/preempt.c) assumes of the machine code gcc
makes of generated C, checked on built programs:

  1. every function in section gltext starts with its own pc record: one
     of the records at the first pc at or after its first instruction
     names it (GL_PCLINE of its GlFuncInfo, the first statement glc
     emits) — so a pc is never taken for another function's.  A clone
     gcc makes of a whole function for constant arguments or a cut
     signature (f.constprop.N, f.isra.N) copies f's body with its
     records, so its first record must name f (the runtime knows it as
     f: its tracebacks say f, as Go's say of an inlined copy), and the
     checks below hold for it as for f; a piece split off a function
     (f.part.N, partial inlining) has no entry record and is caught here.  Several records share that pc when
     a function is inlined at the start of another (clang inlines a
     goroutine's body into its glgoN wrapper); funcentryrec
     (runtime/traceback.c) looks at them all, and the table keeps them in
     emission order, the outer function's first.  Until it did, the
     runtime's unstable sort put the inlined function's record first now
     and then, the wrapper had "no entry record", and a loop inlined there
     was never preempted (preempt_spin hung under clang) while this
     check, sorting by (pc, name), passed;
  2. no instruction that sets up its frame (push %rbp; mov %rsp,%rbp)
     comes at or after that record: from the record on, rbp is the
     function's own frame pointer (or, in a function with no frame at all,
     still its caller's, and then nothing changes it), and the chain of
     frame records from rbp is whole.

The handler refuses a pc before the record, and a ret.  And what a stack
scan (suspendG's, copystack's, the collector's) assumes:

  3. a data frame is linked into G.topframe (a store to 0x18 off the G,
     of the register holding the frame) only after its header's prev
     (offset 0) and fn (offset 8) are written through that register:
     GL_FRAME_ENTERSZ's compiler barrier.  Without it gcc publishes the
     link first, and a scan landing between the two follows garbage.

  And what a stack move (copystack) assumes:

  4. no address of the caller's argument area — N(%rbp) with N >= 16,
     where a parameter passed in memory lives — is kept in a register
     that survives calls (rbx, r12-r15): after a call that moves the
     stack it points into the old one.  gcc reads such a parameter
     through rbp, which copystack relocates; clang computes a 16-byte
     aggregate's address (a string or interface passed in memory when
     the six argument registers run out) once at entry, before the
     prologue's check, and fmt.(*pp).fmtHex's digits was read from the
     old stack after gl_morestack (run-stackforcemove.sh: "stale pointer
     into a moved stack" and nil faults in fmt, flag, os, filepath).
     glc now has the callee read each such parameter into registers
     before its check (gl.h's GL_PARAMPIN), and the address is gone.

  And what the collector's write barrier assumes (gl.h, GL_WBRANGE):

  5. every read of writeBarrier.enabled in gltext is the first instruction
     of a range recorded in section glwbunsafe, and that range holds just
     the check (cmpb, jne out of the range) and the stores (one to four
     movs to memory), ending right after the last: a signal that lands
     anywhere from the check to the store is refused, and nowhere else.
     Without the ranges, a goroutine stopped between reading "off" and
     storing could resume after marking began and store unseen.

  usage: testdata/preemptentry.py EXE...   (exit 0 pass, 1 fail, 77 skip: no objdump)"""
import bisect, re, shutil, struct, subprocess, sys


def sections(exe):
    out = subprocess.run(["objdump", "-h", exe], capture_output=True, text=True).stdout
    secs = {}
    for l in out.splitlines():
        f = l.split()
        if len(f) >= 7 and f[0].isdigit():
            secs[f[1]] = (int(f[3], 16), int(f[2], 16), int(f[5], 16))  # vma, size, file offset
    return secs


def check(exe):
    secs = sections(exe)
    if "glpcln" not in secs or "gltext" not in secs:
        return ["%s: no gltext/glpcln sections" % exe], 0
    vma, size, off = secs["glpcln"]
    with open(exe, "rb") as f:
        f.seek(off)
        data = f.read(size)
    syms = {}
    for l in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.splitlines():
        f = l.split()
        if len(f) == 3:
            syms.setdefault(int(f[0], 16), f[2])
    recs = []
    for i in range(0, len(data) - 15, 16):
        pc, fn, _line, _ = struct.unpack("<iiii", data[i:i + 16])
        a = vma + i
        recs.append((a + pc, i, syms.get(a + 4 + fn, "?")))  # GlPcLine: relative to each field
    recs.sort()  # by pc, then emission order, as sortpctab
    recs = [(r[0], r[2]) for r in recs]
    pcs = [r[0] for r in recs]
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-j", "gltext", exe],
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for l in dis.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", l)
        if m:
            cur = m.group(2)
            funcs[cur] = (int(m.group(1), 16), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", l)
        if m and cur:
            funcs[cur][1].append((int(m.group(1), 16), m.group(2).strip()))
    probs = []
    for name, (start, insns) in funcs.items():
        i = bisect.bisect_left(pcs, start)
        j = bisect.bisect_right(pcs, pcs[i]) if i < len(recs) else i
        infos = [r[1] for r in recs[i:j]] or ["none"]
        whole = re.sub(r"\.(constprop|isra)\.\d+$", "", name)  # a clone of a whole function
        own = [k for k in range(i, j) if recs[k][1].split(".")[0] == whole + "__info"]
        if not own:
            probs.append("%s: %s at %#x: the first records after it name %s" % (exe, name, start, ", ".join(infos)))
            continue
        i = own[0]
        if j - i > 1:
            global shared
            shared += 1
        for a, ins in insns:
            if a >= recs[i][0] and (ins.startswith("push   %rbp") or ins.startswith("mov    %rsp,%rbp")):
                probs.append("%s: %s: frame set up at %#x (%s), after its entry record %#x" %
                             (exe, name, a, ins, recs[i][0]))
        probs += linkorder(exe, name, insns)
        probs += argaddr(exe, name, insns)
    probs += wbranges(exe, secs, funcs)
    return probs, len(funcs)


wbchecks = 0  # barrier checks found, for the summary


def wbranges(exe, secs, funcs):
    """Check 5 on one program."""
    global wbchecks
    ranges = {}
    if "glwbunsafe" in secs:
        vma, size, off = secs["glwbunsafe"]
        with open(exe, "rb") as f:
            f.seek(off)
            data = f.read(size)
        for i in range(0, len(data) - 7, 8):
            start, n = struct.unpack("<ii", data[i:i + 8])
            ranges[vma + i + start] = vma + i + start + n  # GlWbRange: start relative to itself
    probs = []
    for name, (_, insns) in funcs.items():
        for k, (a, ins) in enumerate(insns):
            if "<writeBarrier>" not in ins:
                continue
            wbchecks += 1
            where = "%s: %s at %#x" % (exe, name, a)
            if a not in ranges:
                probs.append("%s: the barrier's check (%s) starts no unsafe range" % (where, ins))
                continue
            end = ranges[a]
            body = [(b, i) for b, i in insns[k:] if b < end]
            after = [b for b, _ in insns[k + len(body):k + len(body) + 1]]
            jne = re.match(r"jne\s+([0-9a-f]+)", body[1][1]) if len(body) > 1 else None
            movs = [i for _, i in body[2:]]
            if not ins.startswith("cmpb   $0x0,") or not jne or a <= int(jne.group(1), 16) < end:
                probs.append("%s: the range does not begin with the check and a branch out of it" % where)
            elif not 1 <= len(movs) <= 4 or not all(re.match(r"mov\S*\s+\S+,.*\(", i) for i in movs):
                probs.append("%s: the range holds more than the stores: %s" % (where, "; ".join(movs)))
            elif after != [end]:
                probs.append("%s: the range does not end right after the stores" % where)
    checks = {a for _, insns in funcs.values() for a, ins in insns if "<writeBarrier>" in ins}
    for a in sorted(set(ranges) - checks)[:3]:
        probs.append("%s: an unsafe range at %#x begins with no barrier's check" % (exe, a))
    return probs


TOPFRAME = "0x18"  # offsetof(G, topframe): stackguard0, then stack.lo and .hi
linked = 0  # functions whose frame link was found, for the summary
shared = 0  # functions whose entry pc has records of inlined functions too


def linkorder(exe, name, insns):
    """Check 3 on one function: the first store of a register R to
    0x18(%X) whose R is also the base of stores to (R) and 0x8(R) in the
    function is the frame link; those two stores must come before it.
    clang addresses the fn field from the old rsp and the negated frame
    size instead, 0x8(%A,%B,1) with A + B = R: a store of that form
    stands for 0x8(R) (before the link, the only such store is the
    header's; after it, a later one must not pass for it)."""
    global linked
    stores = [(a, m.group(1), m.group(2), m.group(3), m.group(4)) for a, ins in insns
              for m in [re.match(r"mov\s+(\S+),(0x[0-9a-f]+)?\((%r\w+)(?:,(%r\w+),1)?\)$", ins)] if m]
    for a, src, off, base, index in stores:
        if off != TOPFRAME or index or not src.startswith("%"):
            continue
        # R must hold the same value at the header's stores as at the
        # link: a store of a parameter into the frame's slot 0x18 is not
        # the link, though R is the base of header-like stores into a
        # new object after a call has put another value in R
        sets = writes(insns, src)
        first = {}  # header offset -> address of its first store through R
        for b, _s, o, r, x in stores:
            o = o or "0x0"
            if r == src and not x and o in ("0x0", "0x8"):
                if not any(min(a, b) < w < max(a, b) for w in sets):
                    first.setdefault(o, b)
            elif x and o == "0x8":
                first.setdefault(o, b)
        if len(first) != 2:
            continue
        linked += 1
        if max(first.values()) > a:
            return ["%s: %s: frame linked at %#x before its header is written (%#x)" %
                    (exe, name, a, max(first.values()))]
        return []
    return []


# the System V caller-saved registers: a call may change any of them
CALLCLOBBERED = {"%rax", "%rcx", "%rdx", "%rsi", "%rdi", "%r8", "%r9", "%r10", "%r11"}
SUBREGS = {"%rax": "%eax", "%rbx": "%ebx", "%rcx": "%ecx", "%rdx": "%edx", "%rsi": "%esi", "%rdi": "%edi"}


def writes(insns, reg):
    """The addresses of the instructions that may change 64-bit register
    reg: those whose destination (last operand) is reg or its 32-bit half,
    and calls, if reg is caller-saved."""
    names = {reg, SUBREGS.get(reg, reg + "d")}
    out = []
    for a, ins in insns:
        if ins.startswith("call") and reg in CALLCLOBBERED:
            out.append(a)
            continue
        ops = ins.split(None, 1)
        if len(ops) == 2 and ops[1].rsplit(",", 1)[-1].strip() in names:
            out.append(a)
    return out


def argaddr(exe, name, insns):
    """Check 4 on one function."""
    for a, ins in insns:
        m = re.match(r"lea\s+0x([0-9a-f]+)\(%rbp\),%(rbx|r12|r13|r14|r15)$", ins)
        if m and int(m.group(1), 16) >= 16:
            return ["%s: %s: the address of a parameter passed in memory kept in %%%s at %#x (%s): "
                    "stale once the stack moves" % (exe, name, m.group(2), a, ins)]
    return []


def main():
    if not shutil.which("objdump") or not shutil.which("nm"):
        print("preemptentry: no objdump/nm: skipped")
        sys.exit(77)
    probs, n = [], 0
    for exe in sys.argv[1:]:
        p, k = check(exe)
        probs += p
        n += k
    for p in probs[:40]:
        print("FAIL " + p)
    print("preemptentry: %d programs, %d gl functions (%d frame links found, %d entries shared with inlined code, "
          "%d write barriers), %d problems" % (len(sys.argv) - 1, n, linked, shared, wbchecks, len(probs)))
    # Most functions have no data frame (no pointers, no aggregates), so
    # the share found is small (17% of the standard library); none, or
    # almost none, means the pattern no longer matches the code.
    if wbchecks == 0:
        print("FAIL preemptentry: no write barrier found: the check has lost its pattern")
        sys.exit(1)
    if linked < max(1, n // 100):
        print("FAIL preemptentry: found the frame link in only %d of %d functions: the check has lost its pattern" %
              (linked, n))
        sys.exit(1)
    sys.exit(1 if probs else 0)


if __name__ == "__main__":
    main()
