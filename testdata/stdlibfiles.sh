#!/bin/sh
# testdata/stdlibfiles.sh — Makefile.am's nobase_dist_pkgdata_DATA, the files
# of the standard library that make install and make dist take, is written
# by hand: a new stdlib .gl file left out of it builds and passes in the
# source tree, and is missing from every installed glc and every tarball.
# So every stdlib/**/*.gl (not *_test.gl, not under testdata/) must be in
# the list, and every file the list names must exist.  And the check must
# be able to fail: against a copy of Makefile.am with one file taken out
# of the list, it must name that file.
. "$(dirname "$0")/testlib.sh"

# listed MAKEFILE_AM: the files nobase_dist_pkgdata_DATA names in it, one a line
listed() {
	awk '/^nobase_dist_pkgdata_DATA[ \t]*\+?=/ { on = 1 }
		on { for (i = 1; i <= NF; i++) if ($i ~ /^stdlib\//) print $i; if ($NF != "\\") on = 0 }' "$1" | sort
}

# missing MAKEFILE_AM: what the list lacks, then what it names that is not there
missing() {
	(cd "$top_srcdir" && find stdlib -name '*.gl' ! -name '*_test.gl' ! -path '*/testdata/*') | sort >"$tmp/files"
	listed "$1" >"$tmp/listed"
	comm -23 "$tmp/files" "$tmp/listed" | sed 's/^/not in nobase_dist_pkgdata_DATA: /'
	comm -13 "$tmp/files" "$tmp/listed" | while read -r f; do
		[ -f "$top_srcdir/$f" ] || echo "listed, but no such file: $f"
	done
}

missing "$top_srcdir/Makefile.am" >"$tmp/out"
if [ -s "$tmp/out" ]; then
	fail "Makefile.am's stdlib file list:"
	sed 's/^/    /' "$tmp/out"
else
	echo "ok   Makefile.am lists every stdlib .gl file ($(listed "$top_srcdir/Makefile.am" | wc -l) files)"
fi

# the check fails: a copy of Makefile.am without the list's first file
first=$(listed "$top_srcdir/Makefile.am" | head -1)
grep -vx "[[:space:]]*$first[[:space:]]*\\\\" "$top_srcdir/Makefile.am" >"$tmp/Makefile.am"
if missing "$tmp/Makefile.am" | grep -qx "not in nobase_dist_pkgdata_DATA: $first"; then
	echo "ok   a list without $first fails the check"
else
	fail "a Makefile.am whose list lacks $first passed the check"
fi
exit $status
