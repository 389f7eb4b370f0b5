package main

// A bit-twiddling kernel (gl.h's intrinsics): population counts, leading and
// trailing zeros and rotations over a xorshift stream, 200,000,000 words.
// Go compiles the math/bits calls to single instructions; gl to its
// intrinsics (runtime/gl.h).

import (
	"fmt"
	"math/bits"
)

func main() {
	x := uint64(88172645463325252)
	var ones, lz, tz, mix uint64
	for i := 0; i < 200000000; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		ones += uint64(bits.OnesCount64(x))
		lz += uint64(bits.LeadingZeros64(x >> (i & 31)))
		tz += uint64(bits.TrailingZeros32(uint32(x)))
		mix ^= bits.RotateLeft64(x, i&63)
	}
	fmt.Println(ones, lz, tz, mix)
}
