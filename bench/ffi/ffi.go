package main

// The cgo twin of ffi.gl: the same C functions called through cgo; the
// comparator is an exported Go function (so the preamble only declares).

/*
#cgo LDFLAGS: -lm
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int cmp(void *, void *);
*/
import "C"

import (
	"flag"
	"fmt"
	"time"
	"unsafe"
)

var sink float64

//export cmp
func cmp(a, b unsafe.Pointer) C.int { return C.int(*(*int32)(a) - *(*int32)(b)) }

func measure(name string, n int, f func(n int)) {
	f(n / 100)
	t0 := time.Now()
	f(n)
	ns := float64(time.Since(t0).Nanoseconds()) / float64(n)
	fmt.Printf("exp=ffi fn=%s ns_per_call=%.2f\n", name, ns)
}

func main() {
	n := flag.Int("n", 5000000, "calls per function")
	flag.Parse()
	measure("abs", *n, func(n int) {
		s := int32(0)
		for i := 0; i < n; i++ {
			s += int32(C.abs(C.int(-i)))
		}
		sink = float64(s)
	})
	measure("cos", *n, func(n int) {
		s := 0.0
		for i := 0; i < n; i++ {
			s += float64(C.cos(C.double(float64(i) * 1e-6)))
		}
		sink = s
	})
	b := []byte("the length of this string\x00")
	measure("strlen", *n, func(n int) {
		s := uintptr(0)
		for i := 0; i < n; i++ {
			s += uintptr(C.strlen((*C.char)(unsafe.Pointer(&b[0]))))
		}
		sink = float64(s)
	})
	key, elem := int32(7), int32(7)
	measure("bsearch", *n/5, func(n int) {
		found := 0
		for i := 0; i < n; i++ {
			if C.bsearch(unsafe.Pointer(&key), unsafe.Pointer(&elem), 1, 4, (*[0]byte)(C.cmp)) != nil {
				found++
			}
		}
		sink = float64(found)
	})
}
