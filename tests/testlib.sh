# tests/testlib.sh — what the shell test drivers (preempt.sh, syscalls.sh)
# share; they source it after setting nothing.  Gives: here (tests/),
# top_srcdir, GLC, a temporary directory tmp removed at exit, status (0,
# set to 1 by fail) and build NAME SOURCE (glc build into $tmp/NAME; a
# failure is reported with glc's output).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(dirname "$here")}
GLC=${GLC:-glc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL $*"
	status=1
}

build() { # name source
	"$GLC" build -o "$tmp/$1" "$2" >"$tmp/$1.build" 2>&1 || {
		fail "$1: build failed"
		sed 's/^/    /' "$tmp/$1.build"
		return 1
	}
}
