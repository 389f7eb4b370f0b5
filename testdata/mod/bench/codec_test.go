package codec

import (
	"fmt"
	"sync/atomic"
	"testing"
)

var block = make([]byte, 4096)

func TestChecksum(t *testing.T) {
	if Checksum(nil) == Checksum([]byte{0}) {
		t.Error("a zero byte changes nothing")
	}
}

// SetBytes: an MB/s column after ns/op
func BenchmarkChecksum(b *testing.B) {
	b.SetBytes(int64(len(block)))
	for i := 0; i < b.N; i++ {
		Checksum(block)
	}
}

// ReportAllocs, and two metrics of its own, printed by name after ns/op
// and before the allocation columns
func BenchmarkFrame(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Frame(block[:63])
	}
	b.ReportMetric(64, "bytes/frame")
	b.ReportMetric(1, "frames/op")
}

// a metric replacing the runner's: ns/op set to 0 leaves its column out
func BenchmarkOnlyMetric(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Checksum(block[:8])
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(8, "words/op")
}

// RunParallel hands out exactly b.N iterations to its goroutines,
// SetParallelism's times GOMAXPROCS of them
func BenchmarkParallel(b *testing.B) {
	b.SetParallelism(3)
	var iters, bodies int64
	b.RunParallel(func(pb *testing.PB) {
		atomic.AddInt64(&bodies, 1)
		for pb.Next() {
			atomic.AddInt64(&iters, 1)
			Checksum(block[:16])
		}
	})
	if iters != int64(b.N) {
		b.Fatalf("RunParallel ran %d iterations, b.N is %d", iters, b.N)
	}
	b.ReportMetric(float64(bodies), "goroutines")
}

// sub-benchmarks: a name longer than the column widens it (by eight more)
func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{16, 4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := 0; i < b.N; i++ {
				Checksum(block[:n])
			}
		})
	}
}

func ExampleFrame() {
	fmt.Println(Frame([]byte("gl")))
	// Output: [2 103 108]
}

// AllocsPerRun counts Frame's one allocation; testing.Benchmark measures
// outside the runner, with the same result type the lines print
func TestAllocsAndBenchmark(t *testing.T) {
	if n := testing.AllocsPerRun(50, func() { Frame(block[:7]) }); n != 1 {
		t.Errorf("AllocsPerRun(Frame) = %v, want 1", n)
	}
	if n := testing.AllocsPerRun(50, func() { Checksum(block) }); n != 0 {
		t.Errorf("AllocsPerRun(Checksum) = %v, want 0", n)
	}
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(64)
		for i := 0; i < b.N; i++ {
			Frame(block[:63])
		}
		b.ReportMetric(2, "x/op")
	})
	if r.N < 1 || r.T <= 0 || r.Bytes != 64 || r.AllocsPerOp() != 1 || r.AllocedBytesPerOp() != 64 ||
		r.NsPerOp() <= 0 || r.Extra["x/op"] != 2 {
		t.Errorf("Benchmark: %+v", r)
	}
	if m := r.MemString(); m != "      64 B/op\t       1 allocs/op" {
		t.Errorf("MemString() = %q", m)
	}
	if d, ok := t.Deadline(); !ok || d.IsZero() {
		t.Errorf("Deadline() = %v, %v under go test's default timeout", d, ok)
	}
}

// a fuzz target's seed corpus (go test without -fuzz): Add's inputs, then
// testdata/fuzz/FuzzFrame's files, each a subtest
func FuzzFrame(f *testing.F) {
	f.Add([]byte("gl"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, p []byte) {
		out := Frame(p)
		if int(out[0]) != len(p)%256 || string(out[1:]) != string(p) {
			t.Fatalf("Frame(%q) = %q", p, out)
		}
		t.Logf("%q", p)
	})
}

// every type an input may have, read from a corpus file in go test's
// format (testdata/fuzz/FuzzTypes), the values logged with -v
func FuzzTypes(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, c byte, r rune, f32 float32, f64 float64,
		i int, i8 int8, i16 int16, i64 int64, u uint, u16 uint16, u32 uint32, u64 uint64) {
		t.Logf("%q %q %v %d %q %v %v", b, s, ok, c, r, f32, f64)
		t.Logf("%d %d %d %d %d %d %d %d", i, i8, i16, i64, u, u16, u32, u64)
	})
}
