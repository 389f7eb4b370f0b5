// Package codec is testdata/modules.sh's benchmark module: what go test
// prints for the benchmark API beyond b.N (SetBytes, ReportMetric,
// ReportAllocs, RunParallel, sub-benchmarks) and for -count and -cpu.
package codec

// Checksum folds the bytes of p into a word.
func Checksum(p []byte) uint64 {
	var h uint64 = 14695981039346656037
	for _, c := range p {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// Frame copies p into a new slice with a length byte in front.
func Frame(p []byte) []byte {
	out := make([]byte, len(p)+1)
	out[0] = byte(len(p))
	copy(out[1:], p)
	return out
}
