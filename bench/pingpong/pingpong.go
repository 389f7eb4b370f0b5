// pingpong: the cost of one hand-off (half a round trip) between two
// execution contexts, seed 000 §6's program: the Go twin of pingpong.gl (same code, Go 1.19).  Modes:
//
//	gosched  two goroutines taking turns with runtime.Gosched (bare switch)
//	chan     two goroutines, unbuffered channels (runtime switch)
//	futex    two locked OS threads, raw futex wait/wake (kernel switch)
//	pipe     two locked OS threads, blocking read/write on pipes
//
// The futex mode needs two Ps: a goroutine blocked in a raw system call
// keeps its P.  Started from /work/shared/anchors/go/pingpong/main.go,
// then made line for line the same program as pingpong.gl, which
// bench/pingpong/run compares it with.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

const (
	futexWait = 0 | 128 // FUTEX_WAIT | FUTEX_PRIVATE_FLAG
	futexWake = 1 | 128 // FUTEX_WAKE | FUTEX_PRIVATE_FLAG
)

func chanPingPong(n int) {
	ping, pong := make(chan struct{}), make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			<-ping
			pong <- struct{}{}
		}
	}()
	for i := 0; i < n; i++ {
		ping <- struct{}{}
		<-pong
	}
}

// With GOMAXPROCS=1, each Gosched hands the P to the other goroutine,
// so one call is one goroutine switch.
func goschedPingPong(n int) {
	done := make(chan struct{})
	go func() {
		for i := 0; i < n; i++ {
			runtime.Gosched()
		}
		close(done)
	}()
	for i := 0; i < n; i++ {
		runtime.Gosched()
	}
	<-done
}

// turn is 0 when it is the main thread's turn and 1 for the partner.
func futexPingPong(n int) {
	var turn atomic.Uint32
	addr := uintptr(unsafe.Pointer(&turn))
	wait := func(v uint32) { // sleep in the kernel while turn == v
		for turn.Load() == v {
			syscall.RawSyscall6(syscall.SYS_FUTEX, addr, futexWait, uintptr(v), 0, 0, 0)
		}
	}
	wake := func(v uint32) {
		turn.Store(v)
		syscall.RawSyscall6(syscall.SYS_FUTEX, addr, futexWake, 1, 0, 0, 0)
	}
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		for i := 0; i < n; i++ {
			wait(0)
			wake(0)
		}
		close(done)
	}()
	runtime.LockOSThread()
	for i := 0; i < n; i++ {
		wake(1)
		wait(1)
	}
	<-done
}

func pipePingPong(n int) {
	var a, b [2]int
	must(syscall.Pipe(a[:]))
	must(syscall.Pipe(b[:]))
	buf := []byte{0}
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		x := []byte{0}
		for i := 0; i < n; i++ {
			syscall.Read(a[0], x)
			syscall.Write(b[1], x)
		}
		close(done)
	}()
	runtime.LockOSThread()
	for i := 0; i < n; i++ {
		syscall.Write(a[1], buf)
		syscall.Read(b[0], buf)
	}
	<-done
	for _, fd := range []int{a[0], a[1], b[0], b[1]} {
		syscall.Close(fd)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func rusage() (vol, invol int64) {
	var ru syscall.Rusage
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return ru.Nvcsw, ru.Nivcsw
}

func main() {
	mode := flag.String("mode", "chan", "gosched | chan | futex | pipe")
	n := flag.Int("n", 1000000, "round trips")
	flag.Parse()

	run := map[string]func(int){"gosched": goschedPingPong, "chan": chanPingPong, "futex": futexPingPong, "pipe": pipePingPong}[*mode]
	if run == nil {
		must(fmt.Errorf("unknown mode %q", *mode))
	}
	run(*n / 10) // warm up threads, stacks and caches

	v0, i0 := rusage()
	start := time.Now()
	run(*n)
	el := time.Since(start)
	v1, i1 := rusage()

	handoffs := 2 * *n
	fmt.Printf("mode=%-7s GOMAXPROCS=%d round-trips=%d  %6.1f ns/hand-off  ctx-switches: voluntary=%d involuntary=%d (%.2f per hand-off)\n",
		*mode, runtime.GOMAXPROCS(0), *n, float64(el.Nanoseconds())/float64(handoffs),
		v1-v0, i1-i0, float64(v1-v0+i1-i0)/float64(handoffs))
}
