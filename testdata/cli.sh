#!/bin/sh
# testdata/cli.sh — glc's command line as a Go programmer expects it: help
# and its topics, env NAME, build with no argument or a directory (the
# executable named after it), -o into directories (made if missing), .go
# files, clear one-line errors for missing inputs and non-main packages,
# a killed glc leaving no work directory behind, runtime.GOROOT,
# -gc=boehm where the Boehm runtime was not built, GLFLAGS, -p n, and the
# README's tour run command by command.
. "$(dirname "$0")/testlib.sh"

# expect NAME STATUS PATTERN CMD...: CMD exits with STATUS and its output
# (stdout and stderr) has a line matching the grep pattern
expect() {
	name=$1 want=$2 pat=$3
	shift 3
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, want $want"
		sed 's/^/    /' "$tmp/out" | head -5
	elif ! grep -q -e "$pat" "$tmp/out"; then
		fail "$name: no line matching '$pat'"
		sed 's/^/    /' "$tmp/out" | head -5
	else
		echo "ok   $name"
	fi
}

expect "help" 0 "glc help TOPIC says more" "$GLC" help
expect "-h" 0 "^usage: glc build" "$GLC" -h
expect "help build" 0 "missing directories are made" "$GLC" help build
expect "help environment" 0 "GLMEMLIMIT" "$GLC" help environment
expect "help gldebug" 0 "stackforcemove" "$GLC" help gldebug
expect "help trace" 0 "GLDEBUG=trace=FILE" "$GLC" help trace
expect "help contract" 0 "//gl:ctype" "$GLC" help contract
expect "usage names trace" 2 "glc trace \[-o output.html\] trace.json" "$GLC"
expect "help unknown topic" 2 "unknown help topic" "$GLC" help nosuchtopic
expect "env NAME" 0 "^/nonexistent/cache$" env GLCACHE=/nonexistent/cache "$GLC" env GLCACHE
expect "env lists GLCACHE" 0 '^GLCACHE="off"$' env GLCACHE=off "$GLC" env
expect "env lists GLROOT" 0 '^GLROOT=' "$GLC" env

mkdir -p "$tmp/proj" "$tmp/empty"
printf 'package main\n\nfunc main() { println("from proj") }\n' >"$tmp/proj/main.go"
printf 'package main\n\nfunc main() { println("never") }\n' >"$tmp/proj/main_test.go"
expect "build with no argument: the directory, named after it" 0 "from proj" \
	sh -c "cd '$tmp/proj' && '$GLC' build && ./proj"
expect "build DIR: named after it" 0 "from proj" sh -c "cd '$tmp/proj' && '$GLC' build ../proj && ./proj"
expect "build DIR beside DIR: go build's error" 1 'build output "proj" already exists and is a directory' \
	sh -c "cd '$tmp' && '$GLC' build proj"
expect "build -o DIR/: the default name inside" 0 "from proj" \
	sh -c "cd '$tmp' && '$GLC' build -o outdir/ proj && ./outdir/proj"
expect "build -o into missing directories" 0 "from proj" \
	sh -c "cd '$tmp' && '$GLC' build -o a/b/c/prog proj/main.go && ./a/b/c/prog"
expect "build -o where nothing can be written: go build's one line" 1 "^glc: copying .*: open /proc/x: no such file or directory$" \
	"$GLC" build -o /proc/x "$tmp/proj/main.go"
expect "build -o on another file system: copied" 0 "from proj" \
	sh -c "'$GLC' build -o /dev/shm/glc-cli-\$\$ '$tmp/proj/main.go' && /dev/shm/glc-cli-\$\$; rc=\$?; rm -f /dev/shm/glc-cli-\$\$; exit \$rc"
expect "run x.go" 0 "from proj" "$GLC" run "$tmp/proj/main.go"
expect "run a missing directory" 1 "nodir/: no such file or directory" "$GLC" run "$tmp/nodir/"
expect "build a directory without sources" 1 "no .gl or .go files" "$GLC" build "$tmp/empty"
printf 'package lib\n\nfunc F() {}\n' >"$tmp/lib.gl"
expect "not a main package: file:line:col" 1 "lib.gl:1:9: package lib is not a main package" "$GLC" build "$tmp/lib.gl"

# killed while the C compiler runs: no glc-* directory stays in TMPDIR.  With
# no cache, fmt's build takes seconds: time to kill glc in the middle.
mkdir -p "$tmp/work"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("x") }\n' >"$tmp/fmtprog.gl"
TMPDIR="$tmp/work" GLCACHE=off "$GLC" build -o "$tmp/fmtprog" "$tmp/fmtprog.gl" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ] && ! ls "$tmp/work" 2>/dev/null | grep -q '^glc-'; do
	sleep 0.1
	i=$((i + 1))
done
if ! ls "$tmp/work" | grep -q '^glc-'; then
	fail "killed glc: no work directory appeared in 30 s"
else
	kill -TERM $pid
	{ wait $pid; } 2>/dev/null
	rc=$?
	sleep 0.5
	if ls "$tmp/work" | grep -q '^glc-'; then
		fail "killed glc (exit $rc): its work directory stayed: $(ls "$tmp/work" | grep '^glc-')"
	else
		echo "ok   killed glc removes its work directory (exit $rc)"
	fi
fi

# runtime.GOROOT: GOROOT if set (as Go's), else the root glc builds from:
# the directory holding its stdlib/ (glc env GLROOT_STDLIB's parent)
printf 'package main\n\nimport (\n\t"fmt"\n\t"runtime"\n)\n\nfunc main() { fmt.Println(runtime.GOROOT()) }\n' >"$tmp/goroot.gl"
if "$GLC" build -o "$tmp/goroot" "$tmp/goroot.gl" >"$tmp/out" 2>&1; then
	want=$(cd "$(dirname "$("$GLC" env GLROOT_STDLIB)")" && pwd -P)
	expect "runtime.GOROOT without GOROOT" 0 "^$want\$" env -u GOROOT "$tmp/goroot"
	expect "runtime.GOROOT with GOROOT" 0 "^/some/go\$" env GOROOT=/some/go "$tmp/goroot"
else
	fail "runtime.GOROOT: build failed"
	sed 's/^/    /' "$tmp/out" | head -5
fi
# -gc=boehm with a gl that has no Boehm runtime (an install root without
# libglrt_boehm.a): one clear line and exit 2, not a link error
lib=$("$GLC" env GLROOT_LIB)
inc=$("$GLC" env GLROOT_INCLUDE)
std=$("$GLC" env GLROOT_STDLIB)
mkdir -p "$tmp/root/lib/gl" "$tmp/root/include" "$tmp/root/share/gl"
ln -s "$lib/libglrt.a" "$tmp/root/lib/gl/libglrt.a"
ln -s "$inc" "$tmp/root/include/gl"
ln -s "$std" "$tmp/root/share/gl/stdlib"
expect "-gc=boehm without the Boehm runtime" 2 "configured without --with-gc=boehm" \
	env GLROOT="$tmp/root" "$GLC" build -gc=boehm -o "$tmp/nob" "$tmp/proj/main.go"
expect "-gc=other" 2 "unknown flag -gc=other" "$GLC" build -gc=other "$tmp/proj/main.go"
# GLFLAGS (Go's GOFLAGS): before the command line's, which override them
expect "GLFLAGS=-gc=boehm" 2 "configured without --with-gc=boehm" \
	env GLROOT="$tmp/root" GLFLAGS=-gc=boehm "$GLC" build -o "$tmp/nob" "$tmp/proj/main.go"
expect "GLFLAGS=-gc=boehm, then -gc=gl" 0 "from proj" \
	env GLROOT="$tmp/root" GLFLAGS=-gc=boehm "$GLC" run -gc=gl "$tmp/proj/main.go"
expect "GLFLAGS with an unknown flag" 2 "the flag is in GLFLAGS" env GLFLAGS="-x -nosuch" "$GLC" build "$tmp/proj/main.go"
expect "GLFLAGS with a word not a flag" 2 "GLFLAGS: main.go is not a flag" env GLFLAGS="main.go" "$GLC" build "$tmp/proj/main.go"
expect "env GLFLAGS" 0 "^-gc=boehm$" env GLFLAGS=-gc=boehm "$GLC" env GLFLAGS
# -p n: at most n C compilers at once (go build's -p).  GLCC is a wrapper
# that notes how many compilers run beside it (each waits 0.5 s before it
# compiles), GLCPARTS=4 cuts main's C into four, and a fresh GLCACHE makes
# main uncached (the library comes from pkg/).
realcc=$("$GLC" env GLCC)
cat >"$tmp/cccount" <<EOF
#!/bin/sh
touch "$tmp/ccrun/\$\$"
sleep 0.5
ls "$tmp/ccrun" | wc -l >>"$tmp/cccounts"
rm -f "$tmp/ccrun/\$\$"
exec $realcc "\$@"
EOF
chmod +x "$tmp/cccount"
ccmax() { # ARGS: the most compilers the build with ARGS ran at once
	rm -rf "$tmp/ccrun" "$tmp/cccounts" "$tmp/cccache" && mkdir "$tmp/ccrun"
	env GLCC="$tmp/cccount" GLCPARTS=4 GLCACHE="$tmp/cccache" "$GLC" build "$@" -o "$tmp/ccp" "$tmp/proj/main.go" >"$tmp/ccout" 2>&1 || {
		sed 's/^/    /' "$tmp/ccout" | head -5 >&2
		echo 0
		return
	}
	sort -n "$tmp/cccounts" | tail -1
}
one=$(ccmax -p 1) two=$(ccmax -p=2)
if [ "$one" = 1 ] && [ "$two" = 2 ]; then
	echo "ok   -p 1 ran one C compiler at a time, -p=2 two"
else
	fail "-p: -p 1 ran up to $one C compilers at once, -p=2 up to $two (want 1 and 2)"
fi
expect "-p 0" 2 "-p must be positive, got 0" "$GLC" build -p 0 "$tmp/proj/main.go"
expect "-p x" 2 'invalid value "x" for flag -p' "$GLC" build -p x "$tmp/proj/main.go"
expect "GLFLAGS=-p=1" 0 "from proj" env GLFLAGS=-p=1 "$GLC" run "$tmp/proj/main.go"
# Every GLDEBUG setting the runtime knows (runtime/debug.c's table and its
# special cases) is in `glc help gldebug` and in the man page: the three
# cannot drift apart without this failing.
help=$("$GLC" help gldebug 2>&1)
man=$(sed 's/\\-/-/g; s/\\f[BIR]//g' "$top_srcdir/docs/glc.1")
knobs=$(sed -n 's/^	{"\([a-z.]*\)", &gl_debug\..*/\1/p' "$top_srcdir/runtime/debug.c")
knobs="$knobs $(sed -n 's/.*memcmp(name, "\([a-z.]*\)", [0-9]*).*/\1/p' "$top_srcdir/runtime/debug.c")"
missing=""
for k in $knobs; do
	printf '%s\n' "$help" | grep -q "$k" || missing="$missing help:$k"
done
for k in $knobs; do
	case $k in tracebackancestors|invalidptr|madvdontneed|efence) continue ;; esac
	printf '%s\n' "$man" | grep -q "$k" || missing="$missing glc.1:$k"
done
if [ -z "$knobs" ] || [ -n "$missing" ]; then
	fail "GLDEBUG settings missing from the docs:$missing (knobs found: $(echo $knobs | wc -w))"
else
	echo "ok   GLDEBUG settings in glc help gldebug and glc.1: $(echo $knobs | wc -w)"
fi

# The README's tour, command by command, as a newcomer types it in the
# source directory (./glc is this glc, /tmp/ this test's directory): each
# exits 0, and its last command leaves the trace's page, which holds the
# trace of the two goroutines' hand-offs.
sed -n '/^## A tour/,/^## /s/^    //p' "$top_srcdir/README.md" | sed 's/  *# .*//' >"$tmp/tour"
n=0
while IFS= read -r cmd; do
	[ -n "$cmd" ] || continue
	n=$((n + 1))
	cmd=$(printf '%s\n' "$cmd" | sed "s|^\./glc|\"\$GLC\"|; s|/tmp/|$tmp/|g")
	if ! (cd "$top_srcdir" && GLC="$GLC" timeout 120 sh -c "$cmd") >"$tmp/tour.out" 2>&1; then
		fail "README tour, command $n: $cmd"
		head -5 "$tmp/tour.out" | sed 's/^/    /'
	fi
	work=$(sed -n 's/^WORK=//p' "$tmp/tour.out") # -work's directory, kept for the reader
	case $work in */glc-*) rm -rf "$work" ;; esac
done <"$tmp/tour"
if [ "$n" -lt 6 ] || ! grep -q '"traceEvents"' "$tmp/pp.html" 2>/dev/null ||
	! grep -q 'main.chanPingPong' "$tmp/pp.html"; then
	fail "README tour: $n commands; the last should leave $tmp/pp.html with the pingpong trace"
else
	echo "ok   README tour: $n commands, the trace's page written"
fi

exit $status
