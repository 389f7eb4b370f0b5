package main

import (
	"os"
	"strconv"
	"strings"
)

// Waves: 20 times, build a 100 MiB structure of small and large objects
// and drop it.  The heap shrinks and grows again every wave: the
// scavenger may give back what the next wave needs (its cost), or keep it.

type node struct {
	next *node
	pad  [6]int
}

var hold []*node
var bufs [][]byte

func rss() int {
	b, _ := os.ReadFile("/proc/self/statm")
	n, _ := strconv.Atoi(strings.Fields(string(b))[1])
	return n * 4096 >> 20
}

func main() {
	sum := 0
	for w := 0; w < 20; w++ {
		var l *node
		for i := 0; i < 500000; i++ {
			l = &node{next: l}
			l.pad[0] = i
		}
		hold = append(hold, l)
		for i := 0; i < 60; i++ {
			b := make([]byte, 1<<20)
			b[i] = 1
			bufs = append(bufs, b)
		}
		for n := l; n != nil; n = n.next {
			sum += n.pad[0] & 1
		}
		hold = nil
		bufs = nil
	}
	println(sum)
}
