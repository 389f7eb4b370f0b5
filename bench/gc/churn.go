// churn: the plainest garbage a program makes.  2 GiB of 1 KiB byte
// slices, each written once and dropped soon after: a ring of 64 keeps
// the newest alive (so none is dead at birth), and each is read back when
// it leaves the ring (so no compiler can drop the work).  All a collector has to do is find
// the small live set and give the rest back to the allocator quickly:
// peak RSS shows whether memory is reused, the time what it costs.
package main

import "fmt"

func main() {
	const total = 2 << 30
	const size = 1 << 10
	var ring [64][]byte
	sum := 0
	for i := 0; i < total/size; i++ {
		b := make([]byte, size)
		b[i%size] = byte(i)
		if old := ring[i%64]; old != nil { // made 64 slices ago
			sum += int(old[(i-64)%size])
		}
		ring[i%64] = b
	}
	fmt.Println(sum)
}
