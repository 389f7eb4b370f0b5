package main

// The spectral norm of the matrix A(i, j) = 1/((i+j)(i+j+1)/2 + i + 1),
// truncated to 3,000 x 3,000, by the power method on AᵀA: ten rounds of
// v = AᵀA u, u = AᵀA v, then sqrt(u·v / v·v).  The inner loops call a small
// function per element, which Go inlines and glc calls.

import (
	"fmt"
	"math"
)

func entry(i, j int) float64 {
	s := i + j
	return 1 / float64(s*(s+1)/2+i+1)
}

// times sets out = A·in.
func times(out, in []float64) {
	for i := range out {
		sum := 0.0
		for j, x := range in {
			sum += entry(i, j) * x
		}
		out[i] = sum
	}
}

// timesTransposed sets out = Aᵀ·in.
func timesTransposed(out, in []float64) {
	for i := range out {
		sum := 0.0
		for j, x := range in {
			sum += entry(j, i) * x
		}
		out[i] = sum
	}
}

func timesAtA(out, in, tmp []float64) {
	times(tmp, in)
	timesTransposed(out, tmp)
}

func main() {
	const n = 3000
	u := make([]float64, n)
	v := make([]float64, n)
	tmp := make([]float64, n)
	for i := range u {
		u[i] = 1
	}
	for round := 0; round < 10; round++ {
		timesAtA(v, u, tmp)
		timesAtA(u, v, tmp)
	}
	var uv, vv float64
	for i := range u {
		uv += u[i] * v[i]
		vv += v[i] * v[i]
	}
	fmt.Printf("%.9f\n", math.Sqrt(uv/vv))
}
