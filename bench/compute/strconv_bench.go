package main

// strconv round trips: 1M floats formatted shortest (FormatFloat(x, 'g',
// -1, 64)) and parsed back (ParseFloat), half of them random bit patterns
// (any exponent), half random numbers of everyday size (x * 10^k, k in
// [-10, 10]).  Prints the total length of the strings and the count of
// failed round trips (0).

import (
	"strconv"
	"unsafe"
)

var seed uint64 = 0x9E3779B97F4A7C15

func next() uint64 {
	seed ^= seed << 13
	seed ^= seed >> 7
	seed ^= seed << 17
	return seed
}

func frombits(b uint64) float64 { return *(*float64)(unsafe.Pointer(&b)) }

func main() {
	const n = 1000000
	pow := [21]float64{}
	p := 1e-10
	for i := range pow {
		pow[i] = p
		p *= 10
	}
	total, bad := 0, 0
	for i := 0; i < n; i++ {
		x := next()
		var f float64
		if i%2 == 0 {
			f = frombits(x)
			if f != f || f-f != 0 { // NaN or Inf
				f = 1.5
			}
		} else {
			f = float64(x>>11) / (1 << 53) * pow[x%21]
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		g, err := strconv.ParseFloat(s, 64)
		if err != nil || g != f {
			bad++
		}
		total += len(s)
	}
	println(total, bad)
}
