#!/bin/sh
# testdata/mathlibm.sh — math results that testdata/run cannot check with a
# golden file from Go 1.19, because Go's are wrong there (its amd64 Log of
# subnormal numbers, its amd64 Exp near overflow, J1 of tiny negative
# numbers, ...; docs/language.md): testdata/runtime/math_*.gl against
# their .out, written by hand, as they are and with every stack moved at
# every function entry (GLDEBUG=stackforcemove=1); and the intrinsics'
# fallbacks for CPUs without POPCNT or FMA.
. "$(dirname "$0")/testlib.sh"

for src in "$top_srcdir"/testdata/runtime/math_*.gl; do
	n=$(basename "$src" .gl)
	build "$n" "$src" || continue
	checkmoved "$n" "$src" 60
done

# gl.h's intrinsics without POPCNT (Go's GODEBUG=cpu.popcnt=off) or FMA
# (cpu.fma=off): the fallbacks that CPUs before Nehalem and Haswell take
# give Go's results too
# (testdata/run/intrinsics.out comes from Go 1.19)
src="$top_srcdir/testdata/run/intrinsics.gl"
if build intrinsics "$src"; then
	check intrinsics "$src" 60 "GLDEBUG=cpu.popcnt=off"
	check intrinsics "$src" 60 "GLDEBUG=cpu.fma=off"
fi
exit $status
