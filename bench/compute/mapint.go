// mapint: 1M int inserts into a map grown from empty, then 1M lookups.
// The Go twin of the gl map benchmark (tests/unit/map_test.c "bench").
package main

import (
	"fmt"
	"time"
)

const N = 1000000

func main() {
	bestIns, bestGet := time.Hour, time.Hour
	for rep := 0; rep < 5; rep++ {
		t0 := time.Now()
		m := make(map[int]int)
		for i := 0; i < N; i++ {
			m[i] = i
		}
		t1 := time.Now()
		sum := 0
		for i := 0; i < N; i++ {
			sum += m[i]
		}
		t2 := time.Now()
		if sum != N*(N-1)/2 {
			panic("bad sum")
		}
		if d := t1.Sub(t0); d < bestIns {
			bestIns = d
		}
		if d := t2.Sub(t1); d < bestGet {
			bestGet = d
		}
	}
	fmt.Printf("go: 1M int inserts %.1f ms (%.1f ns/op), 1M lookups %.1f ms (%.1f ns/op), total %.1f ms (best of 5)\n",
		float64(bestIns)/1e6, float64(bestIns)/N, float64(bestGet)/1e6, float64(bestGet)/N,
		float64(bestIns+bestGet)/1e6)
}
