package main

// Sorting 1M random ints with sort.Ints (Go 1.19's pdqsort), then checking
// the order; prints a checksum.

import "sort"

var seed uint64 = 0x9E3779B97F4A7C15

func next() uint64 {
	seed ^= seed << 13
	seed ^= seed >> 7
	seed ^= seed << 17
	return seed
}

func main() {
	const n = 1000000
	x := make([]int, n)
	for i := range x {
		x[i] = int(next() >> 1)
	}
	sort.Ints(x)
	sum := 0
	for i := 1; i < n; i++ {
		if x[i-1] > x[i] {
			println("not sorted at", i)
			return
		}
		sum += x[i] % 1000
	}
	println(sort.IntsAreSorted(x), sum)
}
