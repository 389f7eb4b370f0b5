package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A spike then idle: 400 MiB of garbage, one collection, then the
// program sits for 3 s; prints resident MiB at the peak, after the GC,
// and 0.5, 1, 2, 3 s later.

func rss() int {
	b, _ := os.ReadFile("/proc/self/statm")
	n, _ := strconv.Atoi(strings.Fields(string(b))[1])
	return n * 4096 >> 20
}

var big [][]byte

func garbage() int {
	for i := 0; i < 400; i++ {
		b := make([]byte, 1<<20)
		for j := 0; j < len(b); j += 512 {
			b[j] = 1
		}
		big = append(big, b)
	}
	p := rss()
	big = nil
	return p
}

func main() {
	peak := garbage()
	runtime.GC()
	print("peak ", peak, " gc ", rss())
	for _, d := range []int{500, 500, 1000, 1000} {
		time.Sleep(time.Duration(d) * time.Millisecond)
		print(" ", rss())
	}
	println()
}
