#!/bin/sh
# docs/tools/trace-pingpong.sh — docs/img/trace-pingpong.png: glc trace's
# page for bench/pingpong's channel mode (300 round trips, 2 Ps), 30 µs of
# it where the two goroutines hand off, drawn by headless Chromium
# (docs/tools/screenshot.sh).  Run by `make docs`; GLC names the glc.
#
#   docs/tools/trace-pingpong.sh [out.png]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
glc=${GLC:-$top/glc}
out=${1:-$top/docs/img/trace-pingpong.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$glc" build -o "$tmp/pp" "$top/bench/pingpong/pingpong.gl"
GLMAXPROCS=2 GLDEBUG=trace="$tmp/pp.json" "$tmp/pp" -mode=chan -n=300 >/dev/null
# the window: 30 µs from the middle of the partner goroutine's spans on Ps
from=$(python3 - "$tmp/pp.json" <<'PYEOF'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
spans = sorted(e["ts"] for e in ev if e["ph"] == "X" and e["pid"] == 1 and "chanPingPong" in e["name"])
print(int(spans[len(spans) // 2]) if spans else 0)
PYEOF
)
GLC=$glc sh "$top/docs/tools/screenshot.sh" -s 1400x700 -v "$from,$((from + 30))" "$tmp/pp.json" "$out"
