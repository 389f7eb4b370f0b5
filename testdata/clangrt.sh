#!/bin/sh
# testdata/clangrt.sh — the runtime compiled by clang.  The build compiles
# libglrt.a with the configured C compiler (gcc in CI), but the runtime
# must be right under both: C leaves some things unspecified that gcc
# and clang decide differently (the order of the two sides of
# `*f(&m) |= m` lost a third of a map's entries under clang — the
# pointer bits of mbitmap.c were or'ed with an unset mask).  So: every
# runtime source compiled by clang with the build's flags into a
# libglrt.a of its own, in a throwaway install root (GLROOT: include/gl,
# lib/gl, share/gl/stdlib; the first and last are links to the source
# tree), and the collector's stress programs (testdata/gcstress.sh's: `// run gcstress`)
# built against it and run plainly at GLMAXPROCS=2 and under
# gcstress/clobberfree/gccheckmark at GLMAXPROCS=4, outputs compared with
# the goldens.  The generated C is still compiled by the build's
# compiler.  Skipped (77) without clang.
. "$(dirname "$0")/testlib.sh"
command -v clang >/dev/null 2>&1 || { echo "clangrt.sh: SKIPPED: no clang"; exit 77; }
top_builddir=${top_builddir:-.}

root=$tmp/root
mkdir -p "$root/include" "$root/lib/gl" "$root/share/gl" "$tmp/obj"
ln -s "$(cd "$top_srcdir/runtime" && pwd)" "$root/include/gl"
ln -s "$(cd "$top_srcdir/stdlib" && pwd)" "$root/share/gl/stdlib"

# GLCFLAGS as the build has them (glc env prints them, quoted), less the
# ones clang does not take (configure probes them for the compiler it is
# given: gcc's code-layout flags have no clang spelling)
cflags=
for f in $("$GLC" env | sed -n 's/^GLCFLAGS="\(.*\)"$/\1/p'); do
	echo 'int x;' | clang -Werror "$f" -x c -c -o /dev/null - 2>/dev/null && cflags="$cflags $f"
done
# runtime/*_test.c are the runtime's unit tests, not the runtime
srcs=$(ls "$top_srcdir"/runtime/*.c "$top_srcdir"/runtime/*.S | grep -v '_test\.c$')
t0=$(date +%s)
# two at a time, as make -j2; a failure names the file
printf '%s\n' $srcs | xargs -P 2 -I{} sh -c '
	f={}; o='"$tmp/obj"'/$(basename "$f").o
	clang -DHAVE_CONFIG_H -I'"$top_builddir"' -I'"$top_builddir/runtime"' '"$cflags"' -O2 -Wall -c -o "$o" "$f" 2>"$o.err" ||
		{ echo "FAIL clang: $f"; sed "s/^/    /" "$o.err"; exit 255; }' || exit 1
ar rcs "$root/lib/gl/libglrt.a" "$tmp"/obj/*.o || exit 1
echo "ok   runtime compiled by clang ($(ls "$tmp"/obj/*.o | wc -l) files, $(($(date +%s) - t0)) s)"

# the same programs as testdata/gcstress.sh (their header: `// run gcstress`)
export GLROOT="$root"
echo "GLMAXPROCS=2"
GLMAXPROCS=2 "$here/run.py" --kind gcstress || status=1
echo "GLMAXPROCS=4 GLDEBUG=gcstress=7,clobberfree=1,gccheckmark=1"
GLMAXPROCS=4 GLDEBUG=gcstress=7,clobberfree=1,gccheckmark=1 "$here/run.py" --kind gcstress || status=1
exit $status
