package main

// A fannkuch kernel: every permutation of 0..9 (3,628,800 of them, in the
// order of Heap's algorithm), and for each the number of prefix reversals
// it takes to bring 0 to the front, reversing the first k+1 elements while
// the first is k.  Prints the most flips and a checksum (the flip counts
// added and subtracted in turn).  Slice indexing and swaps in short loops.

import "fmt"

// flips counts the reversals of a copy of perm (into work).
func flips(perm, work []int) int {
	copy(work, perm)
	n := 0
	for k := work[0]; k != 0; k = work[0] {
		for i, j := 0, k; i < j; i, j = i+1, j-1 {
			work[i], work[j] = work[j], work[i]
		}
		n++
	}
	return n
}

func main() {
	const n = 10
	perm := make([]int, n)
	work := make([]int, n)
	c := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	most, checksum, sign := 0, 0, 1
	visit := func() {
		f := flips(perm, work)
		if f > most {
			most = f
		}
		checksum += sign * f
		sign = -sign
	}
	visit()
	for i := 1; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				perm[0], perm[i] = perm[i], perm[0]
			} else {
				perm[c[i]], perm[i] = perm[i], perm[c[i]]
			}
			visit()
			c[i]++
			i = 1
		} else {
			c[i] = 0
			i++
		}
	}
	fmt.Println(most, checksum)
}
