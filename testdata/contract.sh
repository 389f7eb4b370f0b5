#!/bin/sh
# testdata/contract.sh — glc contract (compiler/emit.c, writecontract): the
# runtime's C is checked against the standard library by the C compiler.
#   1. The build's runtime/contract.h is what glc writes now, and writing
#      it twice gives the same bytes.
#   2. Every function the header declares is defined in libglrt.a (and in
#      libglrt_boehm.a when it is built).
#   3. A runtime definition that disagrees with the library's declaration
#      does not compile; the one that agrees does.
#   4. A struct of the library that the runtime mirrors (//gl:ctype) with
#      two fields swapped, or a field added, does not compile (a copy of
#      stdlib/ changed so); nor does a runtime file that reads a field a
#      struct it uses by glc's name (bare //gl:ctype: time.Time) no longer
#      has.
. "$(dirname "$0")/testlib.sh"
top_builddir=${top_builddir:-$top_srcdir}
CC=${CC:-cc}

# contract STDLIB OUT: glc contract's header of the library at STDLIB
contract() {
	"$GLC" contract -stdlib "$1" -o "$2" >"$tmp/contract.err" 2>&1 || {
		fail "glc contract -stdlib $1 failed"
		sed 's/^/    /' "$tmp/contract.err"
		return 1
	}
}

# compiles DIR FILE: FILE compiles with rt.h and DIR's contract.h
compiles() {
	mkdir -p "$tmp/inc"
	cp "$top_srcdir"/runtime/*.h "$tmp/inc/" && cp "$1/contract.h" "$tmp/inc/contract.h"
	$CC -std=gnu11 -fsyntax-only -I"$tmp/inc" "$2" >"$tmp/cc.out" 2>&1
}

# 1. the build's header, and the same twice
mkdir -p "$tmp/a" "$tmp/b"
contract "$top_srcdir/stdlib" "$tmp/a/contract.h" || exit 1
contract "$top_srcdir/stdlib" "$tmp/b/contract.h" || exit 1
if cmp -s "$tmp/a/contract.h" "$tmp/b/contract.h"; then
	echo "ok   the header is the same written twice"
else
	fail "the header differs between two runs"
fi
if cmp -s "$tmp/a/contract.h" "$top_builddir/runtime/contract.h"; then
	echo "ok   the build's runtime/contract.h is current"
else
	fail "runtime/contract.h is not what glc contract writes now (make did not remake it)"
fi
n=$(grep -c '^extern ' "$tmp/a/contract.h")
if [ "$n" -ge 150 ]; then
	echo "ok   $n functions declared"
else
	fail "only $n functions in the header"
fi

# 2. each declared function is defined by the runtime
sed -n 's/^extern .*[ *]\([A-Za-z_0-9]*\)(G \*g.*/\1/p' "$tmp/a/contract.h" | sort -u >"$tmp/declared"
for lib in libglrt.a libglrt_boehm.a; do
	[ -f "$top_builddir/$lib" ] || continue
	nm -g --defined-only "$top_builddir/$lib" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/defined"
	missing=$(comm -23 "$tmp/declared" "$tmp/defined")
	if [ -z "$missing" ]; then
		echo "ok   $lib defines all $(wc -l <"$tmp/declared") of them"
	else
		fail "$lib does not define: $missing"
	fi
done

# 3. a definition that disagrees, and one that agrees
printf '#include "rt.h"\nvoid runtime_readMemStats(G *g, struct runtime_MemStats *m) { (void)g; (void)m; }\n' >"$tmp/good.c"
printf '#include "rt.h"\nvoid runtime_readMemStats(G *g, void *m) { (void)g; (void)m; }\n' >"$tmp/bad.c"
printf '#include "rt.h"\nbool sync_atomic_CompareAndSwapInt32(G *g, int32_t *p, int64_t o, int32_t n) { (void)g; (void)p; (void)o; (void)n; return 0; }\n' >"$tmp/bad2.c"
if compiles "$tmp/a" "$tmp/good.c"; then
	echo "ok   an agreeing definition compiles"
else
	fail "an agreeing definition does not compile"
	sed 's/^/    /' "$tmp/cc.out" | head -5
fi
for f in bad bad2; do
	if compiles "$tmp/a" "$tmp/$f.c"; then
		fail "$f.c: a definition that disagrees with the library compiled"
	elif grep -q 'conflicting types' "$tmp/cc.out"; then
		echo "ok   $f.c: a disagreeing definition does not compile"
	else
		fail "$f.c: not the error expected"
		sed 's/^/    /' "$tmp/cc.out" | head -5
	fi
done

# 4. the library's structs changed under the runtime
cp -R "$top_srcdir/stdlib" "$tmp/std"
# mirror STD-FILE SED WHAT: after sed on the copy's file, rt.h must not
# compile, and cc must name WHAT
mirror() {
	rm -rf "$tmp/std" && cp -R "$top_srcdir/stdlib" "$tmp/std"
	sed -i "$2" "$tmp/std/$1"
	if cmp -s "$tmp/std/$1" "$top_srcdir/stdlib/$1"; then
		fail "$3: the sed changed nothing"
		return
	fi
	mkdir -p "$tmp/c"
	contract "$tmp/std" "$tmp/c/contract.h" || return
	printf '#include "rt.h"\n' >"$tmp/rt.c"
	if compiles "$tmp/c" "$tmp/rt.c"; then
		fail "$3: rt.h compiled"
	elif grep -q "$3" "$tmp/cc.out"; then
		echo "ok   $3: does not compile"
	else
		fail "$3: not the error expected"
		sed 's/^/    /' "$tmp/cc.out" | head -5
	fi
}
mirror reflect/type.gl '/^	equal  *unsafe.Pointer$/{h;d};/^	hashfn  *unsafe.Pointer$/G' 'reflect.rtype.hashfn'
mirror reflect/value.gl 's/^	checkBucket uintptr$/&\n	extra uintptr/' 'reflect.hiter: size'

# A small library of our own: a mirror whose field has another name than
# the runtime's, and time.Time without the field the runtime reads.
# mini NAME FILE C-SOURCE WHAT: the library of one file (package path
# FILE's directory) and C-SOURCE must not compile, cc naming WHAT; WHAT
# empty: they must compile
mini() {
	rm -rf "$tmp/mini" && mkdir -p "$tmp/mini/$(dirname "$2")" "$tmp/m"
	cat >"$tmp/mini/$2"
	contract "$tmp/mini" "$tmp/m/contract.h" || return
	printf '#include "rt.h"\n%s\n' "$3" >"$tmp/mini.c"
	if [ -z "$4" ]; then
		if compiles "$tmp/m" "$tmp/mini.c"; then
			echo "ok   $1: compiles"
		else
			fail "$1: does not compile"
			sed 's/^/    /' "$tmp/cc.out" | head -5
		fi
	elif compiles "$tmp/m" "$tmp/mini.c"; then
		fail "$1: compiled"
	elif grep -q "$4" "$tmp/cc.out"; then
		echo "ok   $1: does not compile"
	else
		fail "$1: not the error expected"
		sed 's/^/    /' "$tmp/cc.out" | head -5
	fi
}
imethod='package reflect

import "unsafe"

//gl:ctype const GlIMethod
type imethod struct {
	name string
	%s unsafe.Pointer
}
'
printf "$imethod" mtyp | mini "a mirror of GlIMethod" reflect/type.gl '' ''
printf "$imethod" mtype | mini "a mirror with a field GlIMethod lacks" reflect/type.gl '' 'mtype'
timet='package time

//gl:ctype
type Time struct {
	wall uint64
%s
}
'
use='int64_t f(struct time_Time *t) { return t->ext; }'
printf "$timet" '	ext int64' | mini "time.Time, ext read by the runtime" time/time.gl "$use" ''
printf "$timet" '' | mini "time.Time without ext, read by the runtime" time/time.gl "$use" 'ext'
exit $status
