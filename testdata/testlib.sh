# testdata/testlib.sh — what the shell test drivers (preempt.sh, syscalls.sh, ffi.sh)
# share; they source it after setting nothing.  Gives: here (testdata/),
# top_srcdir, GLC, a temporary directory tmp removed at exit, status (0,
# set to 1 by fail), build NAME SOURCE (glc build into $tmp/NAME; a
# failure is reported with glc's output), check NAME SOURCE LIMIT ENV,
# checkmoved NAME SOURCE LIMIT and sigquitdump NAME.
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

# check NAME SOURCE LIMIT ENV: run $tmp/NAME (built from SOURCE) under
# `env ENV`, killed after LIMIT seconds; its combined output must equal
# SOURCE's .out (written by hand: testdata/runtime) and its exit status
# SOURCE's .exit, 0 if there is none.
check() {
	want=0
	[ -f "${2%.gl}.exit" ] && want=$(cat "${2%.gl}.exit")
	env $4 timeout "$3" "$tmp/$1" >"$tmp/$1.got" 2>&1
	rc=$?
	if [ $rc -eq 124 ] && [ "$want" -ne 124 ]; then
		fail "$1 ($4): killed after $3 s (timeout)"
		tail -5 "$tmp/$1.got" | sed 's/^/    /'
	elif [ $rc -ne "$want" ] || ! cmp -s "$tmp/$1.got" "${2%.gl}.out"; then
		fail "$1 ($4): exit $rc, want $want"
		diff "${2%.gl}.out" "$tmp/$1.got" | head -20 | sed 's/^/    /'
	else
		echo "ok   $1 ($4)"
	fi
}

# sigquitdump NAME: run $tmp/NAME (GLTRACEBACK=all, at most 30 s) until
# it prints "ready", send it SIGQUIT, and wait: its output is left in
# $tmp/NAME.out and its exit status in rc.
sigquitdump() {
	GLTRACEBACK=all timeout 30 "$tmp/$1" >"$tmp/$1.out" 2>&1 &
	pid=$!
	i=0
	while ! grep -q ready "$tmp/$1.out" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
	kill -QUIT $pid 2>/dev/null
	wait $pid
	rc=$?
}

# checkmoved NAME SOURCE LIMIT: check as it is and with every stack moved
# at every function entry (GLDEBUG=stackforcemove=1).
checkmoved() {
	for dbg in "" stackforcemove=1; do
		check "$1" "$2" "$3" "GLDEBUG=$dbg"
	done
}
