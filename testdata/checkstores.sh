#!/bin/sh
# testdata/checkstores.sh — every store into the heap or a global in the C
# that glc writes goes through one function, store() (compiler/emitexpr.c),
# where the collector's write barrier belongs.  The proof is the C
# compiler's: `glc build -d=checkstores` writes the C with every pointer's
# target const (and the heap words of slices and interfaces), so that a
# store written anywhere but in store() is a const violation cc rejects
# (only cc's front end runs; packages that passed are marked in the cache).
# Checked: every program of testdata/run, every standard library package,
# and bench's gl programs.  And the check must be able to fail: with
# GLC_TEST_STOREBYPASS set, store() writes its heap stores as plain
# assignments, and the check must then reject a program that stores into
# the heap.
. "$(dirname "$0")/testlib.sh"
t0=$(date +%s)

# a program that imports every package of the standard library (not the
# internal ones, which only the library may import: they come with it)
pkgs=$(cd "$top_srcdir/stdlib" && find . -name '*.gl' | xargs -n1 dirname | sort -u | sed 's|^\./||' | grep -v '^internal/')
{
	echo "package main"
	echo
	for p in $pkgs; do echo "import _ \"$p\""; done
	echo
	echo "func main() {}"
} >"$tmp/allstd.gl"

progs="$tmp/allstd.gl $(ls -d "$top_srcdir"/testdata/run/*.gl "$top_srcdir"/testdata/run/*/)
$(ls "$top_srcdir"/bench/*/*.gl 2>/dev/null)"
n=$(printf '%s\n' $progs | wc -l)
# two at a time; a failure prints cc's errors (the offending C lines)
printf '%s\n' $progs | xargs -P 2 -I{} sh -c '
	p={}; log='"$tmp"'/$(echo "$p" | tr / _).log
	timeout 300 "'"$GLC"'" build -d=checkstores -o '"$tmp"'/x "$p" >"$log" 2>&1 ||
		{ echo "FAIL checkstores: $p"; head -20 "$log" | sed "s/^/    /"; exit 255; }' || status=1
[ $status -eq 0 ] && echo "ok   checkstores: $n programs and every standard library package ($(($(date +%s) - t0)) s)"

# the check fails when a store bypasses store()
cat >"$tmp/bypass.gl" <<'GL'
package main

type node struct {
	next *node
	v    int
}

func main() {
	n := &node{v: 1}
	n.next = &node{v: 2}
	println(n.next.v)
}
GL
if GLC_TEST_STOREBYPASS=1 GLCACHE=off "$GLC" build -d=checkstores -o "$tmp/x" "$tmp/bypass.gl" >"$tmp/bypass.log" 2>&1; then
	fail "checkstores: a heap store written outside store() was not rejected"
elif ! grep -q "bypass store()" "$tmp/bypass.log"; then
	fail "checkstores: the bypassing build failed, but not for the stores:"
	sed 's/^/    /' "$tmp/bypass.log"
else
	echo "ok   checkstores rejects a heap store that bypasses store() ($(grep -c 'error:' "$tmp/bypass.log") errors)"
fi
exit $status
