#!/usr/bin/env python3
"""gosmith.py — a generator of random gl programs that are also Go programs.

  testdata/fuzz/gosmith.py SEED            print the program of SEED
  testdata/fuzz/gosmith.py SEED FILE       write it to FILE

In the spirit of Csmith and of the Go team's gosmith: every program is
package main, well typed, deterministic and terminating, uses no imports
(println and the built-ins only), and prints a running hash of its state
("h N VALUE") after each part, plus values along the way, so that a
miscompile shows as a differing line.  testdata/fuzz/diff.py builds each
program with glc and with Go 1.19 and compares what they print.

What keeps the programs valid and deterministic:
  - every binary or unary operation has a non-constant operand (no constant
    overflow), literals fit their type, division goes through nz_T (never
    zero) or a non-zero literal, shift counts are unsigned or masked
    non-negative, float->int goes through f2_T (in range), string indexes
    through ix and cl;
  - loops are bounded, the call graph is acyclic but for a self-recursion
    with a depth counter, and a cost estimate bounds the work;
  - no closure, defer or goroutine captures (or takes the address of) a loop
    variable: Go 1.19 and gl (Go 1.22 loop variables) differ there;
  - maps are read in order-independent ways (sums, sorted keys); no pointer,
    slice, map or interface is printed; no append growth (cap) is observed;
  - goroutines talk to main over channels in a fixed order.
"""
import random, sys

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "int", "uint", "uintptr"]
FLOATS = ["float32", "float64"]
SCALARS = INTS + FLOATS + ["string", "bool"]
BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "int": 64, "uint8": 8, "uint16": 16,
        "uint32": 32, "uint64": 64, "uint": 64, "uintptr": 64}
STRS = ['""', '"a"', '"gl"', '"hello"', '"héllo"', '"日本語"', '"\\xff\\xfe"', '"a\\x00b"',
        '"Go€"', '"zz"', '"\\u00e9t\\u00e9"', '"abcdefghij"', '"\\xe2\\x82"', '"🙂x"']


def signed(t):
    return not t.startswith("u")


def rng(t):
    b = BITS[t]
    return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if signed(t) else (0, (1 << b) - 1)


def hasptr(t):
    """Does a value of type t hold a pointer (that must not be nil)?"""
    if isinstance(t, str):
        return False
    if t and t[0] == "ptr":
        return True
    return any(hasptr(x) for x in t if isinstance(x, tuple))


def ts(t):
    """Go spelling of a type."""
    if isinstance(t, str):
        return t
    k = t[0]
    if k == "arr":
        return "[%d]%s" % (t[1], ts(t[2]))
    if k == "slice":
        return "[]" + ts(t[1])
    if k == "map":
        return "map[%s]%s" % (ts(t[1]), ts(t[2]))
    if k == "ptr":
        return "*" + ts(t[1])
    if k == "st":
        return t[1]
    if k == "chan":
        return "chan " + ts(t[1])
    raise ValueError(t)


class E:
    """A generated expression: code, constant?, untyped (type set by context)?"""
    __slots__ = ("c", "k", "u")

    def __init__(self, c, k=False, u=False):
        self.c, self.k, self.u = c, k, u


class V:
    __slots__ = ("name", "t", "loop", "ro")

    def __init__(self, name, t, loop=False, ro=False):
        self.name, self.t, self.loop, self.ro = name, t, loop, ro


class Fn:
    def __init__(self, name, params, results, cost):
        self.name, self.params, self.results, self.cost = name, params, results, cost


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.n = 0
        self.out = []          # top-level declarations
        self.structs = {}      # name -> [(field, type, embedded)]
        self.funcs = []        # callable Fn
        self.globals = []
        self.scopes = []
        self.ind = 1
        self.cost = 0
        self.mult = 1
        self.noclosure = False  # inside a closure or goroutine: no calls, no loop vars
        self.loopdepth = 0
        self.hashn = 0
        self.pure = False     # generating fN: no writes to package variables

    # ------------------------------------------------------------ helpers
    def name(self, p="v"):
        self.n += 1
        return "%s%d" % (p, self.n)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    def scalar(self, strings=True):
        r = self.r.random()
        if r < 0.65:
            return self.pick(INTS)
        if r < 0.8:
            return self.pick(FLOATS)
        if r < 0.92 and strings:
            return "string"
        return "bool" if strings else "int"

    def visible(self):
        vs = list(self.globals)
        for s in self.scopes:
            vs.extend(s)
        if self.noclosure:
            vs = [v for v in vs if not v.loop]
        return vs

    def declare(self, v):
        self.scopes[-1].append(v)
        return v

    # ------------------------------------------------------------ literals
    def lit(self, t):
        r = self.r
        if t in INTS:
            lo, hi = rng(t)
            c = r.random()
            if c < 0.3:
                v = r.choice([lo, hi, 0, 1, hi - 1, lo + 1, -1 if lo < 0 else 2, 7])
            elif c < 0.75:
                v = r.randint(max(lo, -20), min(hi, 40))
            else:
                v = r.randint(lo, hi)
            return E(str(v) if v >= 0 else "(%d)" % v, True, True)
        if t in FLOATS:
            c = r.random()
            if c < 0.15:
                s = r.choice(["1e10", "1048576.5", "3e5", "0.0", "65504.25", "1e-3"])
                if s == "1e-3":
                    s = "0.125"
            else:
                s = repr(r.randint(-64, 64) / r.choice([1, 2, 4, 8]))
            if s.startswith("-"):
                s = "(" + s + ")"
            return E(s, True, True)
        if t == "string":
            return E(r.choice(STRS), True, True)
        if t == "bool":
            return E(r.choice(["true", "false"]), True, True)
        raise ValueError(t)

    def nonconst(self, t, d):
        """A non-constant expression of type t, its type fixed (not untyped)."""
        for _ in range(4):
            e = self.expr(t, d)
            if not e.k:
                return E(self.typed(t, e))
        return E("id_%s(%s)" % (t, self.lit(t).c))

    def typed(self, t, e):
        """e in a context without a type (println, :=, comparison of two
        untyped operands): convert it to t."""
        return "%s(%s)" % (t, e.c) if e.u else e.c

    # ------------------------------------------------------------ lvalues and readables
    def paths(self, base, vt, want, depth, lval):
        """Expressions of type want reachable from base (of type vt)."""
        if vt == want:
            yield base
        if depth <= 0 or isinstance(vt, str):
            return
        k = vt[0]
        if k == "arr":
            yield from self.paths("%s[%s]" % (base, self.index(vt[1])), vt[2], want, depth - 1, lval)
        elif k == "st":
            for f, ft, emb in self.structs[vt[1]]:
                yield from self.paths(base + "." + f, ft, want, depth - 1, lval)
        elif k == "ptr":
            if isinstance(vt[1], tuple) and vt[1][0] == "st":
                yield from self.paths(base, vt[1], want, depth, lval)
            else:
                yield from self.paths("(*%s)" % base, vt[1], want, depth - 1, lval)
        elif k == "map" and vt[2] == want and isinstance(want, str):
            yield "%s[%s]" % (base, self.typed(vt[1], self.small(vt[1])))

    def index(self, n):
        ivs = [v for v in self.visible() if v.t in INTS]
        if ivs and self.chance(0.7):
            return "ix(int(%s), %d)" % (self.pick(ivs).name, n)
        return str(self.r.randrange(n))

    def small(self, t):
        vs = [v for v in self.visible() if v.t == t]
        if vs and self.chance(0.5):
            return E(self.pick(vs).name)
        if t in INTS:
            return E(str(self.r.randint(0, 9)), True, True)
        return self.lit(t)

    def readables(self, t):
        res = []
        for v in self.visible():
            if v.t == t:
                res.append(v.name)
            elif not isinstance(v.t, str) and v.t[0] in ("arr", "st", "ptr", "map"):
                res.extend(self.paths(v.name, v.t, t, 3, False))
        return res

    def writable(self):
        """Variables that may be assigned: not loop variables, and in the
        functions fN (called inside expressions) not the package variables,
        for Go leaves unspecified whether an operand is read before or after
        a call in the same expression changes it."""
        return [v for v in self.visible() if not v.ro and not v.loop
                and not (self.pure and v in self.globals)]

    def lvalues(self, t):
        res = []
        for v in self.writable():
            if v.ro or v.loop:
                continue
            if v.t == t:
                res.append(v.name)
            elif not isinstance(v.t, str) and v.t[0] in ("arr", "st", "ptr", "map"):
                res.extend(self.paths(v.name, v.t, t, 3, True))
        return res

    def addressable(self, t):
        return [v.name for v in self.writable() if v.t == t]

    # ------------------------------------------------------------ expressions
    def expr(self, t, d=3):
        if isinstance(t, tuple):
            return E(self.compositelit(t))
        if d <= 0 or self.chance(0.2):
            rs = self.readables(t)
            if rs and self.chance(0.75):
                return E(self.pick(rs))
            return self.lit(t)
        if t in INTS:
            return self.iexpr(t, d)
        if t in FLOATS:
            return self.fexpr(t, d)
        if t == "string":
            return self.sexpr(t, d)
        return self.bexpr(d)

    def call(self, t):
        if self.noclosure:
            return None
        fs = [f for f in self.funcs if f.results == [t] and self.cost + f.cost * self.mult < 4000]
        if not fs:
            return None
        f = self.pick(fs)
        self.cost += f.cost * self.mult
        args = [self.expr(p, 1).c for p in f.params]
        return E("%s(%s)" % (f.name, ", ".join(args)))

    def binop(self, t, op, d):
        a, b = self.expr(t, d - 1), self.expr(t, d - 1)
        if (a.k and b.k) or (op == "/" and b.k):
            b = self.nonconst(t, d - 1)
        return E("(%s %s %s)" % (a.c, op, b.c), False, a.u and b.u)

    def iexpr(self, t, d):
        r = self.r.random()
        if r < 0.3:
            return self.binop(t, self.pick(["+", "-", "*", "&", "|", "^", "&^", "+", "-"]), d)
        if r < 0.4:
            op = self.pick(["/", "%"])
            a = self.expr(t, d - 1)
            if self.chance(0.4):
                lo, hi = rng(t)
                v = self.pick([x for x in [-1, 2, 3, 7, -8, 16, 1, hi, lo, 10, -3, 64] if lo <= x <= hi and x != 0])
                a = a if not a.k else self.nonconst(t, d - 1)
                return E("(%s %s %s)" % (a.c, op, str(v) if v >= 0 else "(%d)" % v), False, a.u)
            return E("(%s %s nz_%s(%s))" % (a.c, op, t, self.expr(t, d - 1).c))
        if r < 0.52:
            a = self.expr(t, d - 1)
            op = self.pick(["<<", ">>"])
            ct = self.pick(INTS)
            c = self.nonconst(ct, d - 2)
            f = self.r.randrange(6)
            if f == 0:
                cnt = "uint8(%s)" % c.c
            elif f == 1:
                cnt = "(uint(%s) & 63)" % c.c
            elif f == 2:
                cnt = "(uint32(%s) %% 70)" % c.c
            elif f == 3 and signed(ct):
                cnt = "(%s & 15)" % c.c
            else:
                if a.k:
                    a = self.nonconst(t, d - 1)
                cnt = str(self.r.randrange(BITS[t] + (1 if self.chance(0.3) else 0)))
                if int(cnt) >= BITS[t]:
                    cnt = str(BITS[t] - 1)
            return E("(%s %s %s)" % (a.c, op, cnt), False, a.u)
        if r < 0.58:
            a = self.nonconst(t, d - 1)
            return E("(%s%s)" % (self.pick(["-", "^", "+"]), a.c), False, a.u)
        if r < 0.72:
            s = self.pick(INTS)
            return E("%s(%s)" % (t, self.nonconst(s, d - 1).c))
        if r < 0.78:
            s = self.pick(FLOATS)
            return E("f2_%s(float64(%s))" % (t, self.expr(s, d - 1).c))
        if r < 0.86:
            e = self.call(t)
            if e:
                return e
        if r < 0.9 and t == "int":
            return E("len(%s)" % self.nonconst("string", d - 1).c)
        if r < 0.93:
            sv = [v for v in self.visible() if v.t == "string"]
            if sv:
                v = self.pick(sv).name
                return E("%s((%s + \"x\")[ix(int(%s), len(%s)+1)])" % (t, v, self.nonconst("int", 0).c, v))
        rs = self.readables(t)
        if rs:
            return E(self.pick(rs))
        return self.binop(t, self.pick(["+", "^", "*"]), d)

    def fexpr(self, t, d):
        r = self.r.random()
        if r < 0.45:
            return self.binop(t, self.pick(["+", "-", "*", "/"]), d)
        if r < 0.55:
            return E("(-%s)" % self.nonconst(t, d - 1).c)
        if r < 0.75:
            return E("%s(%s)" % (t, self.nonconst(self.pick(INTS), d - 1).c))
        if r < 0.85:
            return E("%s(%s)" % (t, self.nonconst(self.pick(FLOATS), d - 1).c))
        e = self.call(t)
        if e:
            return e
        rs = self.readables(t)
        return E(self.pick(rs)) if rs else self.lit(t)

    def sexpr(self, t, d):
        r = self.r.random()
        if r < 0.3:
            return self.binop(t, "+", d)
        if r < 0.4:
            return E("string(rune(%s))" % self.nonconst(self.pick(INTS), d - 1).c)
        if r < 0.55:
            sv = [v for v in self.visible() if v.t == "string"]
            if sv:
                v = self.pick(sv).name
                i = self.nonconst("int", 1).c
                f = self.r.randrange(3)
                if f == 0:
                    return E("%s[cl(%s, len(%s)):]" % (v, i, v))
                if f == 1:
                    return E("%s[:cl(%s, len(%s))]" % (v, i, v))
                return E("%s[cl(%s, len(%s)/2):cl(%s, len(%s)/2)+len(%s)/2]" % (v, i, v, self.nonconst("int", 0).c, v, v))
        if r < 0.65:
            e = self.expr(t, d - 1)
            return E("string([]%s(%s))" % (self.pick(["byte", "rune"]), e.c))
        if r < 0.75:
            e = self.call(t)
            if e:
                return e
        rs = self.readables(t)
        return E(self.pick(rs)) if rs and self.chance(0.7) else self.lit(t)

    def bexpr(self, d):
        r = self.r.random()
        if r < 0.55:
            t = self.scalar()
            a, b = self.expr(t, d - 1), self.expr(t, d - 1)
            if t == "bool":
                ops = ["==", "!="]
            else:
                ops = ["==", "!=", "<", "<=", ">", ">="]
            if a.u and b.u:
                return E("(%s %s %s)" % (self.typed(t, a), self.pick(ops), b.c), a.k and b.k)
            return E("(%s %s %s)" % (a.c, self.pick(ops), b.c), a.k and b.k)
        if r < 0.75:
            a, b = self.bexpr(d - 1), self.bexpr(d - 1)
            return E("(%s %s %s)" % (a.c, self.pick(["&&", "||"]), b.c), a.k and b.k)
        if r < 0.85:
            a = self.bexpr(d - 1)
            return E("(!%s)" % a.c, a.k)
        rs = self.readables("bool")
        return E(self.pick(rs)) if rs else self.lit("bool")

    def compositelit(self, t):
        k = t[0]
        if k == "arr":
            n = t[1] if hasptr(t) else self.r.randint(0, t[1])
            return "%s{%s}" % (ts(t), ", ".join(self.expr(t[2], 1).c for _ in range(n)))
        if k == "slice":
            n = self.r.randint(0, 5)
            return "%s{%s}" % (ts(t), ", ".join(self.expr(t[1], 1).c for _ in range(n)))
        if k == "map":
            ks, parts = set(), []
            for _ in range(self.r.randint(0, 4)):
                kl = self.lit(t[1]).c
                if kl in ks:
                    continue
                ks.add(kl)
                parts.append("%s: %s" % (kl, self.expr(t[2], 1).c))
            return "%s{%s}" % (ts(t), ", ".join(parts))
        if k == "st":
            parts = []
            for f, ft, emb in self.structs[t[1]]:
                if self.chance(0.8):
                    parts.append("%s: %s" % (f, self.expr(ft, 1).c))
            return "%s{%s}" % (t[1], ", ".join(parts))
        if k == "ptr":
            a = self.addressable(t[1])
            if a and self.chance(0.6):
                return "&" + self.pick(a)
            if isinstance(t[1], tuple) and t[1][0] == "st":
                return "&" + self.compositelit(t[1])
            return "new(%s)" % ts(t[1])
        raise ValueError(t)

    # ------------------------------------------------------------ hashing
    def hashexpr(self, code, t):
        if t in INTS:
            return "uint64(%s)" % code
        if t in FLOATS:
            return "hf(float64(%s))" % code
        if t == "string":
            return "hs(%s)" % code
        if t == "bool":
            return "hb(%s)" % code
        return None

    def hashlines(self, code, t, depth=0):
        """Statements mixing the value code (of type t) into the hash."""
        h = self.hashexpr(code, t)
        if h:
            return ["mix(%s)" % h]
        k = t[0]
        x = self.name("e")
        if k in ("arr", "slice"):
            et = t[2] if k == "arr" else t[1]
            inner = self.hashlines(x, et, depth + 1)
            return ["mix(uint64(len(%s)))" % code, "for _, %s := range %s {" % (x, code)] + \
                ["\t" + l for l in inner] + ["}"]
        if k == "map":
            kx, vx, s = self.name("hk"), self.name("hv"), self.name("hs")
            kh = self.hashexpr(kx, t[1])
            vh = self.hashexpr(vx, t[2]) if isinstance(t[2], str) else "uint64(len(%s))" % vx
            return ["%s := uint64(len(%s))" % (s, code), "for %s, %s := range %s {" % (kx, vx, code),
                    "\t%s += %s*31 ^ %s" % (s, kh, vh), "}", "mix(%s)" % s]
        if k == "st":
            res = []
            for f, ft, emb in self.structs[t[1]]:
                res += self.hashlines(code + "." + f, ft, depth + 1)
            return res
        if k == "ptr":
            return ["if %s != nil {" % code] + ["\t" + l for l in self.hashlines("(*%s)" % code, t[1], depth + 1)] + ["}"]
        return ["_ = %s" % code]

    # ------------------------------------------------------------ emission
    def emit(self, s):
        self.body.append("\t" * self.ind + s)

    def emitlines(self, ls):
        for l in ls:
            self.emit(l)

    def open_scope(self):
        self.scopes.append([])

    def close_scope(self):
        vs = self.scopes.pop()
        for v in vs:
            if v.t == "func" or v.t == "any":
                self.emit("_ = %s" % v.name)
            else:
                self.emitlines(self.hashlines(v.name, v.t))

    def block(self, n, d):
        for _ in range(n):
            self.stmt(d)

    # ------------------------------------------------------------ types
    def randtype(self, d=2):
        r = self.r.random()
        if d <= 0 or r < 0.5:
            return self.scalar()
        if r < 0.62:
            return ("arr", self.r.randint(1, 5), self.randtype(d - 1))
        if r < 0.72:
            return ("slice", self.scalar())
        if r < 0.8:
            return ("map", self.pick(["int", "string", "int8", "uint16", "int64"]), self.scalar())
        if r < 0.88:
            return ("ptr", self.scalar())
        if self.structs:
            st = ("st", self.pick(list(self.structs)))
            return ("ptr", st) if self.chance(0.3) else st
        return self.scalar()

    def gen_struct(self):
        name = "S%d" % len(self.structs)
        fields = []
        for _ in range(self.r.randint(1, 4)):
            t = self.scalar() if self.chance(0.7) else ("arr", self.r.randint(1, 3), self.scalar())
            fields.append((self.name("f"), t, False))
        if self.structs and self.chance(0.6):
            inner = self.pick(list(self.structs))
            if self.chance(0.5):
                fields.insert(self.r.randint(0, len(fields)), (inner, ("st", inner), True))
            else:
                fields.append((self.name("f"), ("st", inner), False))
        self.structs[name] = fields
        lines = ["type %s struct {" % name]
        for f, t, emb in fields:
            lines.append("\t%s" % f if emb else "\t%s %s" % (f, ts(t)))
        lines.append("}")
        self.out.append("\n".join(lines))

    # ------------------------------------------------------------ statements
    def stmt(self, d):
        self.cost += self.mult
        r = self.r.random()
        if r < 0.16:
            return self.s_decl()
        if r < 0.36:
            return self.s_assign()
        if r < 0.42:
            return self.s_incdec()
        if r < 0.5 and d > 0:
            return self.s_if(d)
        if r < 0.58 and d > 0 and self.loopdepth < 3 and self.mult < 64:
            return self.s_for(d)
        if r < 0.62 and d > 0 and self.loopdepth < 3 and self.mult < 64:
            return self.s_range(d)
        if r < 0.67 and d > 0:
            return self.s_switch(d)
        if r < 0.72:
            return self.s_composite()
        if r < 0.78:
            return self.s_print()
        if r < 0.82 and d > 0 and not self.noclosure:
            return self.s_closure()
        if r < 0.87 and not self.noclosure:
            return self.s_multicall()
        if r < 0.9:
            return self.s_pointer()
        return self.s_assign()

    def s_decl(self):
        t = self.randtype()
        n = self.name()
        if isinstance(t, str):
            e = self.expr(t)
            if self.chance(0.5) and not e.u:
                self.emit("%s := %s" % (n, e.c))
            else:
                self.emit("var %s %s = %s" % (n, t, e.c))
        elif t[0] == "slice" and self.chance(0.4):
            l = self.r.randint(0, 4)
            self.emit("%s := make(%s, %d, %d)" % (n, ts(t), l, l + self.r.randint(0, 4)))
        elif self.chance(0.2) and not hasptr(t[1:]):
            self.emit("var %s %s" % (n, ts(t)))
            if t[0] in ("map", "ptr"):
                self.emit("%s = %s" % (n, self.compositelit(t)))
        else:
            self.emit("%s := %s" % (n, self.compositelit(t)))
        self.declare(V(n, t))

    def s_assign(self):
        t = self.scalar()
        lv = self.lvalues(t)
        if not lv:
            return self.s_decl()
        l = self.pick(lv)
        r = self.r.random()
        if t in INTS and r < 0.35:
            op = self.pick(["+=", "-=", "*=", "|=", "&=", "^=", "&^=", "/=", "%=", "<<=", ">>="])
            if op in ("/=", "%="):
                self.emit("%s %s nz_%s(%s)" % (l, op, t, self.expr(t).c))
            elif op in ("<<=", ">>="):
                self.emit("%s %s uint8(%s)" % (l, op, self.nonconst(self.pick(INTS), 1).c))
            else:
                self.emit("%s %s %s" % (l, op, self.expr(t).c))
        elif t in FLOATS and r < 0.3:
            self.emit("%s %s %s" % (l, self.pick(["+=", "-=", "*="]), self.expr(t).c))
        elif t == "string":
            # bounded: a string doubled in a loop would grow exponentially
            if r < 0.3:
                self.emit("%s = tr(%s + %s)" % (l, l, self.expr(t).c))
            else:
                self.emit("%s = tr(%s)" % (l, self.expr(t).c))
        else:
            self.emit("%s = %s" % (l, self.expr(t).c))

    def s_incdec(self):
        t = self.pick(INTS + FLOATS)
        lv = self.lvalues(t)
        if lv:
            self.emit("%s%s" % (self.pick(lv), self.pick(["++", "--"])))

    def s_if(self, d):
        self.emit("if %s {" % self.bexpr(2).c)
        self.sub(d)
        if self.chance(0.4):
            self.emit("} else {")
            self.sub(d)
        self.emit("}")

    def sub(self, d, n=None):
        self.ind += 1
        self.open_scope()
        self.block(n if n is not None else self.r.randint(1, 3), d - 1)
        self.close_scope()
        self.ind -= 1

    def s_for(self, d):
        i = self.name("i")
        n = self.r.randint(1, 6)
        lab = None
        if self.loopdepth < 2 and self.chance(0.3):
            lab = self.name("L")
            self.emit("%s:" % lab)
        if self.chance(0.2):
            self.emit("for %s := %d; %s > 0; %s-- {" % (i, n, i, i))
        else:
            self.emit("for %s := 0; %s < %d; %s++ {" % (i, i, n, i))
        om = self.open_loop(n)
        self.declare(V(i, "int", loop=True))
        if self.chance(0.3):
            self.emit("if %s %% %d == %d {" % (i, self.r.randint(2, 3), self.r.randint(0, 1)))
            self.emit("\t" + self.pick(["continue", "break"]))
            self.emit("}")
        if lab:
            j = self.name("j")
            m = self.r.randint(1, 4)
            self.emit("for %s := 0; %s < %d; %s++ {" % (j, j, m, j))
            self.mult *= m
            self.ind += 1
            self.open_scope()
            self.declare(V(j, "int", loop=True))
            self.emit("if %s == %d {" % (j, self.r.randint(0, m)))
            self.emit("\t%s %s" % (self.pick(["continue", "break"]), lab))
            self.emit("}")
            self.block(self.r.randint(1, 3), d - 1)
            self.close_scope()
            self.ind -= 1
            self.emit("}")
        self.block(self.r.randint(1, 3), d - 1)
        self.close_loop(om)

    def open_loop(self, n):
        """Enter a loop body run n times per entry: returns what close_loop
        restores (the statement multiplier bounds the work a program does)."""
        self.loopdepth += 1
        om = self.mult
        self.mult *= n
        self.ind += 1
        self.open_scope()
        return om

    def close_loop(self, om):
        self.close_scope()
        self.ind -= 1
        self.mult = om
        self.loopdepth -= 1
        self.emit("}")

    def s_range(self, d):
        cands = [v for v in self.visible() if not isinstance(v.t, str) and v.t[0] in ("arr", "slice")
                 or v.t == "string"]
        if not cands:
            return self.s_for(d)
        v = self.pick(cands)
        k, x = self.name("k"), self.name("x")
        if v.t == "string":
            et, n = "rune", 8
        else:
            et, n = (v.t[2], v.t[1]) if v.t[0] == "arr" else (v.t[1], 8)
        self.emit("for %s, %s := range %s {" % (k, x, v.name))
        om = self.open_loop(n)
        self.declare(V(k, "int", loop=True))
        if et == "rune":
            self.declare(V(x, "int32", loop=True))
        else:
            self.declare(V(x, et, loop=True))
        self.emitlines(self.hashlines(k, "int"))
        self.emitlines(self.hashlines(x, et if et != "rune" else "int32"))
        self.block(self.r.randint(1, 3), d - 1)
        self.close_loop(om)

    def s_switch(self, d):
        t = self.pick(["int", "int8", "uint16", "string", "int64"])
        e = self.nonconst(t, 2)
        self.emit("switch %s {" % e.c)
        seen, clauses = set(), []
        for c in range(self.r.randint(1, 4)):
            vals = []
            for _ in range(self.r.randint(1, 2)):
                l = self.lit(t).c if t == "string" else str(self.r.randint(0, 9))
                if l not in seen:
                    seen.add(l)
                    vals.append(l)
            if vals:
                clauses.append(vals)
        dflt = self.chance(0.5)
        for c, vals in enumerate(clauses):
            self.emit("case %s:" % ", ".join(vals))
            self.sub(d, self.r.randint(0, 2))
            if (c < len(clauses) - 1 or dflt) and self.chance(0.3):
                self.emit("\tfallthrough")
        if dflt:
            self.emit("default:")
            self.sub(d, 1)
        self.emit("}")

    def s_composite(self):
        cands = [v for v in self.writable() if not isinstance(v.t, str) and v.t[0] in ("slice", "map")]
        if not cands:
            return self.s_decl()
        v = self.pick(cands)
        t = v.t
        if t[0] == "slice":
            r = self.r.random()
            # appends are bounded: a slice ranged over while it grows, in a
            # closure called in a loop, would grow exponentially
            if r < 0.4:
                self.emit("if len(%s) < 64 {" % v.name)
                self.emit("\t%s = append(%s, %s)" % (v.name, v.name, ", ".join(
                    self.expr(t[1], 1).c for _ in range(self.r.randint(1, 3)))))
                self.emit("}")
            elif r < 0.55:
                self.emit("if len(%s) < 64 {" % v.name)
                self.emit("\t%s = append(%s, %s...)" % (v.name, v.name, self.compositelit(t)))
                self.emit("}")
            elif r < 0.7:
                self.emit("mix(uint64(copy(%s, %s)))" % (v.name, self.compositelit(t)))
            elif r < 0.85:
                i = self.nonconst("int", 0).c
                self.emit("%s = %s[cl(%s, len(%s)/2):len(%s):len(%s)]" % (v.name, v.name, i, v.name, v.name, v.name))
            else:
                self.emit("if len(%s) > 0 {" % v.name)
                self.emit("\t%s[ix(int(%s), len(%s))] = %s" % (v.name, self.nonconst("int", 0).c, v.name,
                                                               self.expr(t[1], 2).c))
                self.emit("}")
        else:
            r = self.r.random()
            key = self.expr(t[1], 1)
            if r < 0.6:
                self.emit("%s[%s] = %s" % (v.name, key.c, self.expr(t[2], 1).c))
            elif r < 0.8:
                self.emit("delete(%s, %s)" % (v.name, key.c))
            else:
                ok, x = self.name("ok"), self.name("x")
                self.emit("if %s, %s := %s[%s]; %s {" % (x, ok, v.name, key.c, ok))
                self.emitlines(["\t" + l for l in self.hashlines(x, t[2])])
                self.emit("}")

    def s_print(self):
        args = []
        for _ in range(self.r.randint(1, 3)):
            t = self.scalar()
            args.append(self.typed(t, self.expr(t, 2)))
        self.emit("println(%s)" % ", ".join(args))

    def s_closure(self):
        t = self.scalar()
        f = self.name("fn")
        p = self.name("p")
        self.emit("%s := func(%s %s) %s {" % (f, p, t, t))
        on, oc, om = self.noclosure, self.cost, self.mult
        self.noclosure = True
        self.ind += 1
        self.open_scope()
        self.declare(V(p, t))
        self.block(self.r.randint(1, 3), 1)
        e = self.expr(t, 2)
        self.close_scope()
        self.emit("return %s" % e.c)
        self.ind -= 1
        self.noclosure, self.cost, self.mult = on, oc, om
        self.emit("}")
        for _ in range(self.r.randint(1, 3)):
            self.emitlines(self.hashlines("%s(%s)" % (f, self.expr(t, 1).c), t))
        self.declare(V(f, "func"))

    def s_multicall(self):
        fs = [f for f in self.funcs if len(f.results) > 1 and self.cost + f.cost * self.mult < 4000]
        if not fs:
            return self.s_print()
        f = self.pick(fs)
        self.cost += f.cost * self.mult
        names = [self.name() if self.chance(0.85) else "_" for _ in f.results]
        args = ", ".join(self.expr(p, 1).c for p in f.params)
        self.emit("%s := %s(%s)" % (", ".join(names), f.name, args) if any(n != "_" for n in names)
                  else "%s = %s(%s)" % (", ".join(names), f.name, args))
        for n, t in zip(names, f.results):
            if n != "_":
                self.declare(V(n, t))

    def s_pointer(self):
        t = self.scalar()
        a = self.addressable(t)
        ps = [v for v in self.writable() if v.t == ("ptr", t)]
        if a and ps and self.chance(0.5):
            self.emit("%s = &%s" % (self.pick(ps).name, self.pick(a)))
        elif ps:
            p = self.pick(ps).name
            self.emit("*%s = %s" % (p, self.expr(t, 2).c))
        elif a:
            n = self.name("p")
            self.emit("%s := &%s" % (n, self.pick(a)))
            self.declare(V(n, ("ptr", t)))

    # ------------------------------------------------------------ functions
    def begin_func(self):
        self.body = []
        self.ind = 1
        self.cost = 1
        self.mult = 1
        self.scopes = []
        self.open_scope()

    def gen_func(self):
        self.pure = True
        name = self.name("f")
        params = [(self.name("a"), self.scalar()) for _ in range(self.r.randint(0, 3))]
        results = [self.scalar() for _ in range(self.r.randint(1, 2) if self.chance(0.8) else 3)]
        named = self.chance(0.35)
        self.begin_func()
        for p, t in params:
            self.declare(V(p, t))
        rnames = []
        if named:
            rnames = [self.name("r") for _ in results]
            for n, t in zip(rnames, results):
                self.declare(V(n, t))
            if self.chance(0.6):
                # a defer that modifies a named result after the return statement set it
                i = self.r.randrange(len(results))
                t = results[i]
                self.emit("defer func() {")
                if t in INTS or t in FLOATS or t == "string":
                    self.emit("\t%s += %s" % (rnames[i], self.expr(t, 1).c))
                else:
                    self.emit("\t%s = !%s" % (rnames[i], rnames[i]))
                self.emit("\tmix(%s)" % self.hashexpr(rnames[i], t))
                self.emit("}()")
        self.block(self.r.randint(2, 6), 2)
        rets = [self.expr(t, 2) for t in results]
        self.close_scope()
        self.emit("return %s" % ", ".join(e.c for e in rets))
        sig = ", ".join("%s %s" % (p, t) for p, t in params)
        if named:
            res = "(%s)" % ", ".join("%s %s" % (n, t) for n, t in zip(rnames, results))
        else:
            res = results[0] if len(results) == 1 else "(%s)" % ", ".join(results)
        noinline = "//go:noinline\n" if self.chance(0.3) else ""
        self.out.append("%sfunc %s(%s) %s {\n%s\n}" % (noinline, name, sig, res, "\n".join(self.body)))
        self.funcs.append(Fn(name, [t for _, t in params], results, self.cost + 1))
        self.pure = False

    def gen_rec(self):
        """A self-recursive function with a depth counter."""
        self.pure = True
        name = self.name("rec")
        t = self.pick(INTS + ["string"])
        self.begin_func()
        self.declare(V("d", "int", ro=True))
        self.declare(V("x", t))
        self.emit("if d <= 0 {")
        self.emit("\treturn x")
        self.emit("}")
        self.emit("var buf [4]%s" % t)
        self.emit("buf[d%4] = x")
        self.declare(V("buf", ("arr", 4, t)))
        self.noclosure = True  # no other calls: the cost is the depth
        self.block(self.r.randint(1, 3), 1)
        self.noclosure = False
        e = self.expr(t, 1)
        self.close_scope()
        self.emit("return %s(d-1, %s) %s buf[(d+1)%%4]" % (name, e.c, "+" if t == "string" else self.pick(["+", "^", "-"])))
        self.out.append("func %s(d int, x %s) %s {\n%s\n}" % (name, t, t, "\n".join(self.body)))
        depth = self.r.randint(1, 12)
        self.funcs.append(Fn("%s_%d" % (name, depth), [t], [t], self.cost * depth + 1))
        self.out.append("func %s_%d(x %s) %s { return %s(%d, x) }" % (name, depth, t, t, name, depth))
        self.pure = False

    # ------------------------------------------------------------ feature parts
    def part(self, fn):
        """A part: a function tN() called by main, then a hash line."""
        name = self.name("t")
        self.begin_func()
        fn()
        self.block(self.r.randint(0, 3), 2)
        self.close_scope()
        self.out.append("func %s() {\n%s\n}" % (name, "\n".join(self.body)))
        return name

    def p_random(self):
        for _ in range(self.r.randint(1, 4)):
            t = self.scalar()
            n = self.name()
            self.emit("var %s %s = %s" % (n, t, self.expr(t, 1).c))
            self.declare(V(n, t))
        self.block(self.r.randint(3, 10), 3)

    def p_overflow(self):
        """Wrapping arithmetic at the edges of a type, where C's undefined
        signed overflow and over-wide shifts would show."""
        t = self.pick(INTS)
        lo, hi = rng(t)
        x, y, m = self.name("x"), self.name("y"), self.name("m")
        self.emit("%s := id_%s(%d)" % (x, t, hi))
        self.emit("%s := id_%s(%s)" % (m, t, lo if lo >= 0 else "(%d)" % lo))
        self.emit("%s := id_%s(%d)" % (y, t, self.r.randint(1, 9)))
        self.emit("println(%s+1 > %s, %s+%s < %s, %s-1 < %s, %s*2/2 == %s)" % (x, x, x, y, x, m, m, x, x))
        neg1 = "-1" if signed(t) else "1"
        self.emit("println(%s+1, %s-%s, %s*%s, -%s, %s/%s == %s, %s%%%s)" % (x, m, y, x, x, m, m, neg1, m, m, neg1))
        self.emit("println(%s << 1, %s << %d, %s >> %d, %s >> uint(%s*%d))" % (
            x, y, BITS[t] - 1, m, BITS[t] - 1, m, y, self.r.randint(7, 40)))
        c = self.name("c")
        self.emit("%s := 0" % c)
        self.emit("for i := %s - %s; i != %s+%s && %s < 20; i++ {" % (x, y, m, y, c))
        self.emit("\t%s++" % c)
        self.emit("\tmix(uint64(i))")
        self.emit("}")
        self.emit("println(%s)" % c)
        u = self.pick(INTS)
        self.emit("println(%s(%s), %s(%s), %s(%s+%s))" % (u, x, u, m, u, x, y))
        self.emit("println(%s(%s)*%s(%s), int64(%s)<<%d>>%d)" % (u, x, u, y, m, self.r.randint(1, 63), self.r.randint(1, 63)))
        self.emit("if %s+%s > %s {" % (x, y, x))
        self.emit("\tprintln(\"nowrap\")")
        self.emit("} else {")
        self.emit("\tprintln(\"wrap\")")
        self.emit("}")
        f = self.pick(FLOATS)
        self.emit("println(%s(%s), %s(%s), %s(%s)/%s(%s))" % (f, x, f, m, f, x, f, y))
        self.declare(V(x, t))
        self.declare(V(y, t))
        self.declare(V(m, t))

    def p_pointers(self):
        t = self.pick(INTS + ["string", "float64"])
        ptr = ("ptr", t)
        mk = self.name("mkp")
        self.out.append("//go:noinline\nfunc %s(x %s) *%s {\n\tv := x\n\treturn &v\n}" % (mk, t, t))
        a, b = self.name(), self.name()
        self.emit("%s := %s" % (a, self.typed(t, self.expr(t, 2))))
        self.emit("var %s %s = %s" % (b, t, self.expr(t, 2).c))
        self.declare(V(a, t))
        self.declare(V(b, t))
        arr, st, m, sl = self.name("pa"), self.name("ps"), self.name("pm"), self.name("psl")
        self.emit("%s := [3]*%s{&%s, &%s, %s(%s)}" % (arr, t, a, b, mk, self.expr(t, 1).c))
        self.emit("%s := struct {" % st)
        self.emit("\tp *%s" % t)
        self.emit("\tq []*%s" % t)
        self.emit("}{&%s, []*%s{&%s, %s(%s)}}" % (b, t, a, mk, self.expr(t, 1).c))
        self.emit("%s := map[int]*%s{1: &%s, 2: %s(%s)}" % (m, t, a, mk, self.expr(t, 1).c))
        self.emit("%s := []*%s{&%s}" % (sl, t, b))
        self.emit("clobber(%d)" % self.r.randint(1, 20))
        for _ in range(self.r.randint(2, 6)):
            tgt = self.pick(["*%s[%d]" % (arr, self.r.randrange(3)), "*%s.p" % st, "*%s.q[%d]" % (st, self.r.randrange(2)),
                             "*%s[%d]" % (m, self.r.randint(1, 2)), "*%s[0]" % sl, a, b])
            op = "+=" if t != "string" or self.chance(0.5) else "="
            if t == "string":
                op = self.pick(["+=", "="])
            self.emit("%s %s %s" % (tgt, op, self.expr(t, 1).c))
            if self.chance(0.4):
                self.emit("clobber(%d)" % self.r.randint(1, 20))
            if self.chance(0.4):
                self.emit("%s = append(%s, %s(%s))" % (sl, sl, mk, self.expr(t, 1).c))
        for tgt in ["*%s[0]" % arr, "*%s[1]" % arr, "*%s[2]" % arr, "*%s.p" % st, "*%s.q[1]" % st,
                    "*%s[1]" % m, "*%s[2]" % m, a, b]:
            self.emit("mix(%s)" % self.hashexpr(tgt, t))
        self.emit("for _, q := range %s {" % sl)
        self.emit("\tmix(%s)" % self.hashexpr("*q", t))
        self.emit("}")
        self.emit("_ = %s" % sl)

    def p_closures(self):
        t = self.pick(INTS)
        c = self.name("cnt")
        self.emit("%s := %s" % (c, self.typed(t, self.expr(t, 1))))
        self.declare(V(c, t))
        inc = self.name("inc")
        self.emit("%s := func(d %s) %s {" % (inc, t, t))
        self.emit("\t%s += d" % c)
        self.emit("\treturn %s * 3" % c)
        self.emit("}")
        mk = self.name("mkacc")
        self.out.append("func %s(start %s) (func(%s) %s, func() %s) {\n\tv := start\n"
                        "\treturn func(d %s) %s { v += d; return v }, func() %s { return v }\n}" % (mk, t, t, t, t, t, t, t))
        add, get = self.name("add"), self.name("get")
        self.emit("%s, %s := %s(%s)" % (add, get, mk, self.expr(t, 1).c))
        fs = self.name("fs")
        self.emit("var %s []func() %s" % (fs, t))
        i = self.name("i")
        self.emit("for %s := 0; %s < %d; %s++ {" % (i, i, self.r.randint(1, 5), i))
        w = self.name("w")
        self.emit("\t%s := %s(%s) + %s" % (w, t, i, self.expr(t, 1).c))
        self.emit("\t%s = append(%s, func() %s { %s++; return %s * 2 })" % (fs, fs, t, w, w))
        self.emit("\tmix(uint64(%s(%s(%s))))" % (inc, t, i))
        self.emit("\tmix(uint64(%s(%s)))" % (add, w))
        self.emit("}")
        self.emit("for _, f := range %s {" % fs)
        self.emit("\tmix(uint64(f()))")
        self.emit("\tmix(uint64(f()))")
        self.emit("}")
        self.emit("println(%s, %s())" % (c, get))

    def p_methods(self):
        t = self.pick(INTS)
        T = self.name("N")
        I = self.name("Getter")
        self.out.append("type %s struct {\n\ta %s\n\tb [2]%s\n}" % (T, t, t))
        self.out.append("func (n %s) Get() %s { return n.a + n.b[0]*3 }" % (T, t))
        self.out.append("func (n *%s) Add(x %s) { n.a += x; n.b[1] ^= x }" % (T, t))
        self.out.append("type %s interface {\n\tGet() %s\n}" % (I, t))
        B = self.name("Both")
        self.out.append("type %s interface {\n\t%s\n\tAdd(%s)\n}" % (B, I, t))
        O = self.name("Outer")
        self.out.append("type %s struct {\n\t%s\n\tc %s\n}" % (O, T, t))
        K = self.name("K")
        self.out.append("type %s %s" % (K, t))
        self.out.append("func (k %s) Twice() %s { return k*2 + 1 }" % (K, K))
        self.out.append("func (k *%s) Bump() { *k += 5 }" % K)
        v = self.name("nv")
        self.emit("%s := %s{a: %s, b: [2]%s{%s, %s}}" % (v, T, self.expr(t, 1).c, t, self.expr(t, 1).c, self.expr(t, 1).c))
        f, g = self.name("mv"), self.name("mp")
        self.emit("%s := %s.Get" % (f, v))
        self.emit("%s.Add(%s)" % (v, self.expr(t, 1).c))
        self.emit("%s := %s.Add" % (g, v))
        self.emit("%s(%s)" % (g, self.expr(t, 1).c))
        self.emit("mix(uint64(%s()))" % f)
        self.emit("mix(uint64(%s.Get()))" % v)
        self.emit("mix(uint64(%s.Get(%s)))" % (T, v))
        self.emit("(*%s).Add(&%s, %s)" % (T, v, self.expr(t, 1).c))
        iv, ip = self.name("iv"), self.name("ip")
        self.emit("var %s %s = %s" % (iv, I, v))
        self.emit("var %s %s = &%s" % (ip, I, v))
        self.emit("%s.Add(%s)" % (v, self.expr(t, 1).c))
        self.emit("mix(uint64(%s.Get()) + 7*uint64(%s.Get()))" % (iv, ip))
        self.emit("println(%s.Get(), %s.Get(), %s == %s, %s.a)" % (iv, ip, iv, ip, v))
        bo = self.name("bo")
        self.emit("var %s %s = &%s" % (bo, B, v))
        self.emit("%s.Add(%s)" % (bo, self.expr(t, 1).c))
        self.emit("%s = %s" % (ip, bo))
        self.emit("if g, ok := %s.(%s); ok {" % (iv, B))
        self.emit("\tg.Add(1)")
        self.emit("} else if b2, ok := %s.(%s); ok {" % (ip, B))
        self.emit("\tb2.Add(2)")
        self.emit("}")
        self.emit("println(%s.Get(), %s.Get(), %s.a)" % (ip, bo, v))
        o = self.name("ov")
        self.emit("%s := %s{%s: %s, c: %s}" % (o, O, T, v, self.expr(t, 1).c))
        self.emit("%s.Add(%s.c)" % (o, o))
        io = self.name("io")
        self.emit("var %s %s = &%s" % (io, I, o))
        self.emit("%s.Add(1)" % o)
        self.emit("println(%s.Get(), %s.a, %s == %s.%s)" % (o, o, v, o, T))
        k = self.name("kv")
        self.emit("%s := %s(%s)" % (k, K, self.expr(t, 1).c))
        self.emit("%s.Bump()" % k)
        self.emit("tw := %s.Twice" % k)
        self.emit("%s.Bump()" % k)
        self.emit("println(%s, tw(), %s.Twice(%s))" % (k, K, k))
        self.emit("_ = %s" % io)

    def p_iface(self):
        xs = []
        for _ in range(self.r.randint(3, 7)):
            t = self.pick(["int", "int8", "uint16", "string", "float64", "bool", "E", "*E", "nil", "S", "error"])
            if t == "nil":
                xs.append("nil")
            elif t == "E":
                xs.append("E{%s}" % self.expr("int", 1).c)
            elif t == "*E":
                xs.append("&E{%s}" % self.expr("int", 1).c)
            elif t == "S":
                xs.append("Str(%s)" % self.expr("string", 1).c)
            elif t == "error":
                xs.append("error(E{%s})" % self.expr("int", 1).c)
            else:
                xs.append("%s(%s)" % (t, self.expr(t, 1).c))
        s = self.name("xs")
        self.emit("%s := []interface{}{%s}" % (s, ", ".join(xs)))
        self.emit("for i, x := range %s {" % s)
        self.emit("\tswitch v := x.(type) {")
        self.emit("\tcase nil:")
        self.emit("\t\tprintln(i, \"nil\")")
        self.emit("\tcase int, int8:")
        self.emit("\t\tprintln(i, \"int-ish\", v == x)")
        self.emit("\tcase uint16:")
        self.emit("\t\tprintln(i, \"u16\", v+1)")
        self.emit("\tcase Namer:")
        self.emit("\t\tprintln(i, \"namer\", v.Name())")
        self.emit("\tcase string:")
        self.emit("\t\tprintln(i, \"string\", v, len(v))")
        self.emit("\tcase float64:")
        self.emit("\t\tprintln(i, \"f64\", v*2)")
        self.emit("\tdefault:")
        self.emit("\t\tprintln(i, \"other\")")
        self.emit("\t}")
        self.emit("\tif e, ok := x.(error); ok {")
        self.emit("\t\tprintln(\"error\", e.Error())")
        self.emit("\t}")
        self.emit("\tif n, ok := x.(Namer); ok {")
        self.emit("\t\tprintln(\"namer\", n.Name())")
        self.emit("\t}")
        self.emit("\tif x == %s[%d] {" % (s, self.r.randrange(len(xs))))
        self.emit("\t\tmix(uint64(i))")
        self.emit("\t}")
        self.emit("}")

    def p_panics(self):
        t = self.name("try")
        cases = self.r.sample(range(15), self.r.randint(3, 8))
        lines = ["func %s(k int, n int) (res string) {" % t,
                 "\tdefer func() {",
                 "\t\tr := recover()",
                 "\t\tswitch e := r.(type) {",
                 "\t\tcase nil:",
                 "\t\t\tres += \"|nil\"",
                 "\t\tcase error:",
                 "\t\t\tres += \"|err:\" + e.Error()",
                 "\t\tcase string:",
                 "\t\t\tres += \"|str:\" + e",
                 "\t\tcase int:",
                 "\t\t\tres += \"|int\"",
                 "\t\t\tmix(uint64(e))",
                 "\t\tdefault:",
                 "\t\t\tres += \"|other\"",
                 "\t\t}",
                 "\t}()",
                 "\tres = \"start\"",
                 "\tswitch k {"]
        for c in cases:
            lines.append("\tcase %d:" % c)
            lines += ["\t\t" + l for l in PANICS[c]]
        lines += ["\t}", "\tres += \"|done\"", "\treturn", "}"]
        self.out.append("\n".join(lines))
        for c in cases:
            for _ in range(self.r.randint(1, 2)):
                n = self.pick([-1, 0, 1, 2, 3, 4, 5, 7, 100])
                self.emit("println(%s(%d, id_int(%d)))" % (t, c, n))

    def p_strings(self):
        s = self.name("s")
        self.emit("%s := %s" % (s, self.typed("string", self.expr("string", 2))))
        self.declare(V(s, "string"))
        self.emit("%s += %s" % (s, self.expr("string", 2).c))
        self.emit("for i, r := range %s {" % s)
        self.emit("\tmix(uint64(i)*7 + uint64(r))")
        self.emit("}")
        b, rr = self.name("bs"), self.name("rs")
        self.emit("%s := []byte(%s)" % (b, s))
        self.emit("%s := []rune(%s)" % (rr, s))
        self.emit("if len(%s) > 0 {" % b)
        self.emit("\t%s[0]++" % b)
        self.emit("\t%s[len(%s)-1] ^= 0x20" % (b, b))
        self.emit("}")
        self.emit("for i, j := 0, len(%s)-1; i < j; i, j = i+1, j-1 {" % rr)
        self.emit("\t%s[i], %s[j] = %s[j], %s[i]" % (rr, rr, rr, rr))
        self.emit("}")
        self.emit("%s = append(%s, %s...)" % (b, b, self.expr("string", 1).c))
        self.emit("println(string(%s), string(%s), len(%s), len(%s))" % (b, rr, b, rr))
        self.emit("println(%s < string(%s), %s == string(%s))" % (s, b, s, rr))
        x = self.nonconst("int32", 1).c
        self.emit("println(string(rune(%s)), string(rune(-1)+%s), string(rune(0xD800)+rune(id_int(0))))" % (x, "rune(id_int(0))"))
        self.emit("mix(hs(string(%s[cl(%s, len(%s)):])))" % (b, self.nonconst("int", 1).c, b))
        self.emit("mix(uint64(copy(%s, %s)))" % (b, self.expr("string", 1).c))
        self.emit("mix(hs(string(%s)))" % b)

    def p_slices(self):
        t = self.pick(INTS)
        a = self.name("arr")
        n = self.r.randint(3, 8)
        self.emit("var %s [%d]%s" % (a, n, t))
        self.emit("for i := range %s {" % a)
        self.emit("\t%s[i] = %s(i*%d) + %s" % (a, t, self.r.randint(1, 9), self.expr(t, 1).c))
        self.emit("}")
        self.declare(V(a, ("arr", n, t)))
        lo = self.r.randint(0, n)
        hi = self.r.randint(lo, n)
        mx = self.r.randint(hi, n)
        s = self.name("sl")
        self.emit("%s := %s[%d:%d:%d]" % (s, a, lo, hi, mx))
        self.emit("println(len(%s), cap(%s))" % (s, s))
        self.emit("%s = append(%s, %s)" % (s, s, self.expr(t, 1).c))
        self.emit("%s = append(%s, %s)" % (s, s, self.expr(t, 1).c))
        self.emit("copy(%s[1:], %s[:])" % (a, a))
        self.declare(V(s, ("slice", t)))
        m = self.name("mk")
        self.emit("%s := make([]%s, %d, %d)" % (m, t, 2, 6))
        self.emit("%s2 := append(%s[:1], %s)" % (m, m, self.expr(t, 1).c))
        self.emit("%s3 := append(%s[:1], %s, %s)" % (m, m, self.expr(t, 1).c, self.expr(t, 1).c))
        self.emit("println(%s[1], %s2[1], %s3[1], len(%s3), cap(%s2))" % (m, m, m, m, m))
        self.declare(V(m + "2", ("slice", t)))
        g = self.name("grid")
        rows, cols = self.r.randint(1, 4), self.r.randint(1, 4)
        self.emit("var %s [%d][%d]%s" % (g, rows, cols, t))
        self.emit("for i := 0; i < %d; i++ {" % rows)
        self.emit("\tfor j := 0; j < %d; j++ {" % cols)
        self.emit("\t\t%s[i][j] = %s(i*%d - j) * %s" % (g, t, cols, self.expr(t, 1).c))
        self.emit("\t}")
        self.emit("}")
        g2 = self.name("grid")
        self.emit("%s := %s" % (g2, g))
        self.emit("%s[%d][%d]++" % (g2, self.r.randrange(rows), self.r.randrange(cols)))
        self.emit("println(%s == %s, %s[0] == %s[0])" % (g, g2, g, g2))
        self.declare(V(g, ("arr", rows, ("arr", cols, t))))
        self.declare(V(g2, ("arr", rows, ("arr", cols, t))))
        dd = self.name("dd")
        self.emit("%s := make([][]%s, %d)" % (dd, t, rows))
        self.emit("for i := range %s {" % dd)
        self.emit("\t%s[i] = %s[i][:]" % (dd, g2))
        self.emit("}")
        self.emit("%s[0][0] = %s" % (dd, self.expr(t, 1).c))
        self.emit("mix(uint64(%s[0][0]))" % g2)
        self.emit("_ = %s" % dd)

    def p_structs(self):
        names = list(self.structs)
        if not names:
            return self.p_random()
        sn = self.pick(names)
        t = ("st", sn)
        a, b = self.name("sa"), self.name("sb")
        self.emit("%s := %s" % (a, self.compositelit(t)))
        self.emit("%s := %s" % (b, a))
        self.declare(V(a, t))
        self.declare(V(b, t))
        for _ in range(self.r.randint(1, 4)):
            ls = [(ft, l) for ft in SCALARS for l in self.paths(b, t, ft, 3, True)]
            if ls:
                ft, l = self.pick(ls)
                self.emit("%s = %s" % (l, self.expr(ft, 1).c))
        self.emit("println(%s == %s, %s != %s)" % (a, b, a, b))
        p = self.name("sp")
        self.emit("%s := &%s" % (p, a))
        self.declare(V(p, ("ptr", t)))
        self.emit("%s = %s" % (b, "*" + p))
        self.emit("println(%s == %s)" % (a, b))
        fn = self.name("byval")
        self.out.append("func %s(s %s) %s {\n\ts = %s{}\n\treturn s\n}" % (fn, sn, sn, sn))
        self.emit("println(%s(%s) == %s{}, %s == %s)" % (fn, a, sn, a, b))

    def p_maps(self):
        kt = self.pick(["int", "string", "int8", "uint32"])
        vt = self.pick(INTS)
        m = self.name("m")
        self.emit("%s := map[%s]%s{}" % (m, kt, vt))
        n = self.r.randint(1, 20)
        if kt == "string":
            key = "string(rune('a' + i%%%d))" % self.r.randint(1, 26)
        else:
            key = "%s(i * %d %% %d)" % (kt, self.r.randint(1, 7), self.r.randint(1, 20))
        self.emit("for i := 0; i < %d; i++ {" % n)
        self.emit("\t%s[%s] += %s(i) + %s" % (m, key, vt, self.expr(vt, 1).c))
        self.emit("\tif i%%%d == 0 {" % self.r.randint(2, 5))
        self.emit("\t\tdelete(%s, %s)" % (m, key))
        self.emit("\t}")
        self.emit("}")
        ks = self.name("keys")
        self.emit("var %s []%s" % (ks, kt))
        self.emit("for k := range %s {" % m)
        self.emit("\t%s = append(%s, k)" % (ks, ks))
        self.emit("}")
        self.emit("for i := 1; i < len(%s); i++ {" % ks)
        self.emit("\tfor j := i; j > 0 && %s[j] < %s[j-1]; j-- {" % (ks, ks))
        self.emit("\t\t%s[j], %s[j-1] = %s[j-1], %s[j]" % (ks, ks, ks, ks))
        self.emit("\t}")
        self.emit("}")
        self.emit("for _, k := range %s {" % ks)
        self.emit("\tprintln(k, %s[k])" % m)
        self.emit("}")
        self.emit("v, ok := %s[%s]" % (m, self.lit(kt).c))
        self.emit("println(len(%s), v, ok)" % m)
        self.declare(V(m, ("map", kt, vt)))
        if self.structs:
            sn = self.pick(list(self.structs))
            ms = self.name("ms")
            self.emit("%s := map[%s]%s{}" % (ms, sn, vt))
            self.emit("%s[%s{}] = 3" % (ms, sn))
            self.emit("%s[%s]++" % (ms, self.compositelit(("st", sn))))
            self.emit("println(len(%s), %s[%s{}])" % (ms, ms, sn))
        ml = self.name("ml")
        self.emit("%s := map[int][]%s{}" % (ml, vt))
        self.emit("for i := 0; i < %d; i++ {" % self.r.randint(1, 8))
        self.emit("\t%s[i%%3] = append(%s[i%%3], %s(i))" % (ml, ml, vt))
        self.emit("}")
        self.emit("println(len(%s), len(%s[0]), len(%s[1]))" % (ml, ml, ml))

    def p_control(self):
        lab = self.name("Outer")
        n = self.name("n")
        self.emit("%s := 0" % n)
        self.emit("%s:" % lab)
        self.emit("for i := 0; i < %d; i++ {" % self.r.randint(2, 6))
        self.emit("\tfor j := 0; j < %d; j++ {" % self.r.randint(2, 6))
        self.emit("\t\tswitch {")
        self.emit("\t\tcase j == %d:" % self.r.randint(0, 4))
        self.emit("\t\t\tcontinue %s" % lab)
        self.emit("\t\tcase i+j == %d:" % self.r.randint(3, 9))
        self.emit("\t\t\tbreak %s" % lab)
        self.emit("\t\tcase (i^j)&1 == 0:")
        self.emit("\t\t\t%s += i * j" % n)
        self.emit("\t\t\tfallthrough")
        self.emit("\t\tcase i > j:")
        self.emit("\t\t\t%s += 100" % n)
        self.emit("\t\tdefault:")
        self.emit("\t\t\t%s--" % n)
        self.emit("\t\t}")
        self.emit("\t}")
        self.emit("}")
        self.emit("println(\"ctl\", %s)" % n)
        g = self.name("G")
        c = self.name("c")
        self.emit("%s := %d" % (c, self.r.randint(0, 5)))
        self.emit("%s:" % g)
        self.emit("%s++" % c)
        self.emit("if %s < %d {" % (c, self.r.randint(3, 9)))
        self.emit("\tgoto %s" % g)
        self.emit("}")
        self.emit("println(\"goto\", %s)" % c)
        self.declare(V(n, "int"))
        self.declare(V(c, "int"))

    def p_consts(self):
        t = self.pick(["int", "int64", "uint32", "int16", "uint8"])
        names = [self.name("C") for _ in range(self.r.randint(2, 5))]
        k, c0 = self.r.randint(1, 5), self.r.randint(0, 10)
        form = self.pick(["iota*%d + %d" % (k, c0), "1 << iota", "%d - iota" % (c0 + 8), "iota * iota"])
        lines = ["const ("]
        lines.append("\t%s %s = %s" % (names[0], t, form))
        for nm in names[1:]:
            lines.append("\t" + nm if self.chance(0.8) else "\t_")
        lines.append(")")
        self.out.append("\n".join(lines))
        shown = [l.strip() for l in lines[2:-1] if l.strip() != "_"]
        for nm in [names[0]] + shown:
            self.emit("println(%s, %s+1, %s(%s)*%s)" % (nm, nm, t, self.nonconst(t, 1).c, nm))
        u = self.name("U")
        self.out.append("const %s = 1 << 40 >> 38 * 3" % u)
        self.emit("println(%s, %s(%s) + %s)" % (u, t, self.nonconst(t, 1).c, u))

    def p_chans(self):
        t = self.pick(INTS)
        ch = self.name("ch")
        self.emit("%s := make(chan %s)" % (ch, t))
        n = self.r.randint(1, 8)
        base = self.name("base")
        self.emit("%s := %s" % (base, self.typed(t, self.expr(t, 1))))
        self.emit("go func(n int, c chan %s) {" % t)
        self.emit("\tx := %s" % base)
        self.emit("\tfor i := 0; i < n; i++ {")
        self.emit("\t\tx = x*3 + %s(i)" % t)
        self.emit("\t\tc <- x")
        self.emit("\t}")
        self.emit("\tclose(c)")
        self.emit("}(%d, %s)" % (n, ch))
        self.emit("for v := range %s {" % ch)
        self.emit("\tmix(uint64(v))")
        self.emit("\tprintln(\"recv\", v)")
        self.emit("}")
        bc, done = self.name("bc"), self.name("done")
        m = self.r.randint(1, 5)
        self.emit("%s := make(chan int, %d)" % (bc, m))
        self.emit("%s := make(chan bool)" % done)
        self.emit("go func() {")
        self.emit("\tfor i := 0; i < %d; i++ {" % m)
        self.emit("\t\t%s <- i * i" % bc)
        self.emit("\t}")
        self.emit("\t%s <- true" % done)
        self.emit("}()")
        self.emit("<-%s" % done)
        self.emit("close(%s)" % bc)
        self.emit("println(len(%s), cap(%s))" % (bc, bc))
        self.emit("for v := range %s {" % bc)
        self.emit("\tmix(uint64(v))")
        self.emit("}")
        self.emit("v, ok := <-%s" % bc)
        self.emit("println(v, ok)")
        self.emit("select {")
        self.emit("case x := <-%s:" % bc)
        self.emit("\tprintln(\"closed\", x)")
        self.emit("}")
        e = self.name("empty")
        self.emit("%s := make(chan int)" % e)
        self.emit("select {")
        self.emit("case x := <-%s:" % e)
        self.emit("\tprintln(\"never\", x)")
        self.emit("default:")
        self.emit("\tprintln(\"default\")")
        self.emit("}")

    def p_defers(self):
        fn = self.name("df")
        t = self.pick(INTS)
        self.out.append("\n".join([
            "func %s(x %s) (r %s, s string) {" % (fn, t, t),
            "\tdefer func() {",
            "\t\tr = r*2 + 1",
            "\t\ts += \"|d1\"",
            "\t}()",
            "\tfor i := 0; i < 3; i++ {",
            "\t\tdefer func(k int) {",
            "\t\t\ts += string(rune('0' + k))",
            "\t\t\tr += %s(k)" % t,
            "\t\t}(i)",
            "\t}",
            "\tif x%2 == 0 {",
            "\t\treturn x + %s, \"even\"" % self.lit(t).c,
            "\t}",
            "\tr = x ^ %s" % self.lit(t).c,
            "\ts = \"odd\"",
            "\treturn",
            "}"]))
        for _ in range(self.r.randint(1, 3)):
            a, b = self.name(), self.name()
            self.emit("%s, %s := %s(%s)" % (a, b, fn, self.expr(t, 2).c))
            self.emit("println(%s, %s)" % (a, b))
            self.declare(V(a, t))
            self.declare(V(b, "string"))

    # ------------------------------------------------------------ program
    def program(self):
        r = self.r
        for _ in range(r.randint(1, 4)):
            self.gen_struct()
        # package variables
        self.scopes = [[]]
        self.body = []
        gl = []
        for _ in range(r.randint(1, 5)):
            t = self.randtype(1)
            n = self.name("g")
            if isinstance(t, str):
                gl.append("var %s %s = %s" % (n, ts(t), self.expr(t, 1).c))
            else:
                gl.append("var %s = %s" % (n, self.compositelit(t)) if t[0] != "ptr" else "var %s %s" % (n, ts(t)))
                if t[0] == "ptr":
                    continue  # a nil pointer: not in scope
            self.globals.append(V(n, t))
        self.out.extend(gl)
        for _ in range(r.randint(2, 8)):
            if r.random() < 0.2:
                self.gen_rec()
            else:
                self.gen_func()
        parts = [self.p_random, self.p_pointers, self.p_closures, self.p_methods, self.p_iface,
                 self.p_panics, self.p_strings, self.p_slices, self.p_structs, self.p_maps,
                 self.p_control, self.p_consts, self.p_chans, self.p_defers, self.p_random,
                 self.p_overflow]
        chosen = [self.pick(parts) for _ in range(r.randint(3, 9))]
        tnames = [self.part(p) for p in chosen]
        main = ["func main() {"]
        for i, t in enumerate(tnames):
            main.append("\t%s()" % t)
            main.append("\tprintln(\"h\", %d, hh)" % i)
        for g in self.globals:
            self.hashn += 1
            main += ["\t" + l for l in self.hashlines(g.name, g.t)]
        main.append("\tprintln(\"end\", hh)")
        if r.random() < 0.1:
            main.append("\tvar z []int")
            main.append("\tz[id_int(%d)]++" % r.randint(0, 3))
        elif r.random() < 0.05:
            main.append("\tpanic(\"bye \" + %s)" % self.lit("string").c)
        main.append("}")
        return PRELUDE + "\n\n".join(self.out) + "\n\n" + "\n".join(main) + "\n"


PANICS = {
    0: ["var a [5]int", "a[n]++", "res += \"a\""],
    1: ["var m map[string]int", "if n > 3 {", "\tm = map[string]int{}", "}", "m[\"x\"] = n"],
    2: ["x := 10 / n", "res += string(rune('a' + x%5))"],
    3: ["s := []int{1, 2, 3}", "res += string(rune('0' + len(s[1:n])))"],
    4: ["var i interface{} = n", "if n > 2 {", "\ti = \"str\"", "}", "res += i.(string)"],
    5: ["if n != 1 {", "\tpanic(\"boom\" + string(rune('0'+n%10)))", "}"],
    6: ["if n > 0 {", "\tpanic(E{n})", "}"],
    7: ["var p *E", "if n > 3 {", "\tp = &E{n}", "}", "res += string(rune('0' + p.x%10))"],
    8: ["s := \"hey\"", "res += string(s[n])"],
    9: ["s := make([]int, n+2)", "p := (*[3]int)(s)", "p[0]++", "res += \"ok\""],
    10: ["x := 1 << uint(n+60) >> 60", "y := id_int(1) << (n - 2)", "res += string(rune('0' + (x+y)%10))"],
    11: ["s := make([]byte, n-1)", "res += string(s)"],
    12: ["defer func() {", "\tif n == 2 {", "\t\tpanic(\"again\")", "\t}", "}()", "if n >= 2 {",
         "\tpanic(n)", "}"],
    13: ["var i interface{} = E{n}", "res += i.(Namer).Name()", "var j interface{} = Str(\"q\")",
         "if n > 3 {", "\tj = n", "}", "res += j.(Namer).Name()"],
    14: ["a := []int{1, 2, 3, 4}", "b := a[n%5:]", "c := b[:n%3:n%4]", "res += string(rune('0' + len(c)))"],
}

PRELUDE = """package main

var hh uint64 = 14695981039346656037

func mix(x uint64) {
	hh ^= x
	hh *= 1099511628211
}

func hs(s string) uint64 {
	var h uint64 = 5381
	for i := 0; i < len(s); i++ {
		h = h*33 + uint64(s[i])
	}
	return h + uint64(len(s))
}

func hf(x float64) uint64 {
	if x != x {
		return 7
	}
	if x > 1e15 || x < -1e15 {
		return 9
	}
	return uint64(int64(x * 1024))
}

func tr(s string) string {
	if len(s) > 40 {
		return s[len(s)-40:]
	}
	return s
}

func hb(b bool) uint64 {
	if b {
		return 1
	}
	return 2
}

func ix(i int, n int) int {
	i %= n
	if i < 0 {
		i += n
	}
	return i
}

func cl(i int, n int) int {
	if i < 0 {
		i = -i
	}
	if i < 0 {
		i = 0
	}
	return i % (n + 1)
}

//go:noinline
func clobber(n int) int {
	var a [16]int
	for i := range a {
		a[i] = n * i
	}
	if n > 0 {
		return clobber(n-1) + a[n%16]
	}
	return a[3]
}

type E struct{ x int }

func (e E) Error() string { return "E" + string(rune('0'+e.x%10)) }
func (e E) Name() string  { return "nameE" }

type Str string

func (s Str) Name() string { return "Str:" + string(s) }

type Namer interface{ Name() string }

""" + "".join("//go:noinline\nfunc id_%s(x %s) %s { return x }\n\n" % (t, t, t) for t in SCALARS) + \
    "".join("func nz_%s(x %s) %s {\n\tif x == 0 {\n\t\treturn 3\n\t}\n\treturn x\n}\n\n" % (t, t, t) for t in INTS) + \
    "".join("func f2_%s(x float64) %s {\n\tif x != x || x <= %s || x >= %s {\n\t\treturn 1\n\t}\n\treturn %s(x)\n}\n\n"
            % (t, t, "%d.0" % (rng(t)[0] - 1), "%d.0" % (rng(t)[1] + 1), t) for t in INTS)


def generate(seed):
    return Gen(seed).program()


if __name__ == "__main__":
    src = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
