#!/bin/sh
# docs/tools/screenshot.sh — a picture of glc trace's page, for the docs.
#
#   docs/tools/screenshot.sh [-g glc] [-s WxH] [-v FROM,TO] trace.json|page.html out.png
#
# A trace (.json) is made into its page first (glc trace, into a temporary
# directory); a page (.html) is taken as it is.  Headless Chromium (Debian's
# chromium) renders it at WxH (default 1400x900) and writes out.png.
# -v FROM,TO shows that part of the trace (µs since its start: the page's
# #view=FROM,TO); default: the whole trace.  Without a trace at hand,
# testdata/tracegen.py makes one:
#
#   testdata/tracegen.py --events 3000 -o /tmp/t.json && docs/tools/screenshot.sh /tmp/t.json trace.png
set -eu

glc=${GLC:-glc}
size=1400x900
view=
usage() {
	echo "usage: $0 [-g glc] [-s WxH] [-v FROM,TO] trace.json|page.html out.png" >&2
	exit 2
}
while getopts g:s:v: opt; do
	case $opt in
	g) glc=$OPTARG ;;
	s) size=$OPTARG ;;
	v) view=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
in=$1 out=$2

browser=
for b in "${CHROMIUM:-}" chromium chromium-browser google-chrome; do
	if [ -n "$b" ] && command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "$0: no chromium (apt-get install chromium), or set CHROMIUM" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $in in
*.html) page=$in ;;
*)
	page=$tmp/page.html
	"$glc" trace -o "$page" "$in"
	;;
esac
case $page in
/*) ;;
*) page=$(pwd)/$page ;;
esac
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac
url="file://$page"
[ -z "$view" ] || url="$url#view=$view"

# --no-sandbox: Chromium's sandbox does not run as root (CI, containers);
# the page is our own file and loads nothing else
TMPDIR=$tmp "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/profile" --window-size="$(echo "$size" | tr x ,)" \
	--screenshot="$out" "$url" >"$tmp/log" 2>&1 || {
	cat "$tmp/log" >&2
	exit 1
}
[ -s "$out" ] || {
	echo "$0: chromium wrote no $out" >&2
	cat "$tmp/log" >&2
	exit 1
}
echo "$out"
