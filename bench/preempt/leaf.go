// leaf: seed 000's "Try this" 3.  With GOMAXPROCS=1 a goroutine spins in a
// loop whose only call is to a function that makes none: a leaf with no
// frame, which Go (and glc) compile without the stack check in the
// prologue, so the loop has no cooperative preemption point at all and
// with asynchronous preemption off (GODEBUG/GLDEBUG=asyncpreemptoff=1)
// main never wakes.  -mode=call calls a function that calls the leaf: it
// has a prologue check, a preemption point, and main wakes even without
// signals.  -mode=map spins on map lookups: its loop calls no function of
// the program, only the runtime's map access, which checks for a stop
// request on entry (Go's in its prologue, gl's runtime C in map.c), so main
// wakes without signals too.  Prints how long main's 10 ms sleep took.
package main

import (
	"flag"
	"fmt"
	"runtime"
	"time"
)

var n uint64

//go:noinline
func tick() { // a frameless leaf: no stack check
	n++
}

//go:noinline
func tock() { // calls a function: has a stack check in its prologue
	tick()
}

func spinLeaf() {
	for {
		tick()
	}
}

func spinCall() {
	for {
		tock()
	}
}

func spinMap() {
	m := map[uint64]uint64{1: 2, 3: 4}
	for {
		n += m[n&3]
	}
}

func main() {
	mode := flag.String("mode", "leaf", "leaf: the loop calls a frameless leaf; call: a function that calls it; map: the loop reads a map")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	if *mode == "call" {
		go spinCall()
	} else if *mode == "map" {
		go spinMap()
	} else {
		go spinLeaf()
	}
	t0 := time.Now()
	time.Sleep(10 * time.Millisecond)
	fmt.Printf("exp=leaf mode=%s compiler=%s slept_ms=10 waited_ms=%.3f\n", *mode, runtime.Compiler, float64(time.Since(t0).Microseconds())/1000)
}
