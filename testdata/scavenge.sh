#!/bin/sh
# testdata/scavenge.sh — the scavenger's knobs (runtime/mgcscavenge.c), which
# testdata/run cannot set: testdata/runtime/scav_env.gl makes 300 MiB of
# garbage, collects it, and says whether it stayed resident and whether
# it fell under 96 MiB in time.
#   GLGC=off                 no heap goal: the memory stays (1 s allowed)
#   GLGC=off GLMEMLIMIT=64MiB   the limit alone brings it down (20 s allowed)
#   GLMEMLIMIT=junk          ignored, as off
#   GLDEBUG=scavtrace=1      Go's line, "scav N KiB work, N KiB total, N% util",
#                            once per cycle and " (forced)" for FreeOSMemory
# And GLGC=N's heap goal (testdata/runtime/heap_gcpercent.gl): unset, 50,
# 200; and the heap's transparent huge pages (heap_hugepages.gl).
# Every run is under timeout: a hang is a failure.
. "$(dirname "$0")/testlib.sh"

prog=$top_srcdir/testdata/runtime/scav_env.gl
build scav_env "$prog" || exit 1

# run NAME ARGS WANT ENV...: run with ENV and ARGS (the wait in seconds,
# and "kept" to report whether the memory stayed for 0.5 s), compare
# stdout+stderr (less scavtrace lines) with WANT.
run() {
	name=$1 args=$2 want=$3
	shift 3
	env "$@" timeout 120 "$tmp/scav_env" $args >"$tmp/$name.out" 2>&1
	rc=$?
	grep -v '^scav ' "$tmp/$name.out" >"$tmp/$name.got"
	printf '%s\n' "$want" >"$tmp/$name.want"
	if [ $rc -ne 0 ]; then
		fail "$name: exit $rc"
		tail -5 "$tmp/$name.out" | sed 's/^/    /'
	elif ! cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
		fail "$name: output differs"
		diff "$tmp/$name.want" "$tmp/$name.got" | sed 's/^/    /'
	else
		echo "ok   $name"
	fi
}

kept="kept after 0.5 s: true
under 96 MiB in time: false
under 96 MiB after FreeOSMemory: true"
returned="under 96 MiB in time: true
under 96 MiB after FreeOSMemory: true"
run gcoff "1 kept" "$kept" GLGC=off
run memlimit 20 "$returned" GLGC=off GLMEMLIMIT=64MiB
run badlimit "1 kept" "$kept" GLGC=off GLMEMLIMIT=64XB
run scavtrace 20 "$returned" GLDEBUG=scavtrace=1
t=$tmp/scavtrace.out
line='^scav [0-9][0-9]* KiB work, [0-9][0-9]* KiB total, [0-9][0-9]*% util'
if [ "$(grep -c "^scav " "$t")" -lt 2 ] || grep "^scav " "$t" | grep -v "$line\( (forced)\)\{0,1\}\$" >/dev/null; then
	fail "scavtrace: want Go's lines"
	grep "^scav " "$t" | head -5 | sed 's/^/    /'
elif [ "$(grep "$line (forced)\$" "$t" | wc -l)" -ne 1 ] || ! grep "^scav " "$t" | tail -1 | grep -q "(forced)"; then
	fail "scavtrace: want one (forced) line, for FreeOSMemory"
	grep "^scav " "$t" | tail -3 | sed 's/^/    /'
else
	echo "ok   scavtrace lines: $(grep -c "^scav " "$t"), the last: $(grep "^scav " "$t" | tail -1)"
fi

# GLGC=N, the heap goal's percentage (testdata/runtime/heap_gcpercent.gl)
build heap_gcpercent "$top_srcdir/testdata/runtime/heap_gcpercent.gl" && for c in "unset:2.0:100" "50:1.5:50" "200:3.0:200"; do
	v=${c%%:*} rest=${c#*:}
	ratio=${rest%%:*} prev=${rest#*:}
	if [ "$v" = unset ]; then
		env -u GLGC timeout 60 "$tmp/heap_gcpercent" >"$tmp/pct.out" 2>&1
	else
		GLGC=$v timeout 60 "$tmp/heap_gcpercent" >"$tmp/pct.out" 2>&1
	fi
	printf 'goal/live: %s\nSetGCPercent returned %s\n' "$ratio" "$prev" >"$tmp/pct.want"
	if cmp -s "$tmp/pct.want" "$tmp/pct.out"; then
		echo "ok   GLGC=$v: goal/live $ratio"
	else
		fail "GLGC=$v: want goal/live $ratio and SetGCPercent's answer $prev"
		sed 's/^/    /' "$tmp/pct.out" | head -5
	fi
done

# The heap's huge pages (testdata/runtime/heap_hugepages.gl): where the
# kernel lets a program ask for them, 64 MiB touched must be backed by at
# least 16 MiB of them.
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case "$thp" in
*"[always]"* | *"[madvise]"*)
	if build heap_hugepages "$top_srcdir/testdata/runtime/heap_hugepages.gl"; then
		got=$(timeout 60 "$tmp/heap_hugepages" 2>&1)
		mib=$(echo "$got" | sed -n 's/^huge pages in the heap, MiB: //p')
		if [ -n "$mib" ] && [ "$mib" -ge 16 ]; then
			echo "ok   huge pages: $mib MiB of the heap's 64 touched"
		else
			fail "huge pages: want at least 16 MiB of the heap in huge pages ($thp)"
			echo "$got" | head -3 | sed 's/^/    /'
		fi
	fi ;;
*) echo "skip huge pages: transparent_hugepage is '$thp'" ;;
esac
exit $status
