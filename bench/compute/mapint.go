package main

// 1M int inserts then 1M lookups (hits and misses) then deletes.

func main() {
	const n = 1000000
	m := make(map[int]int)
	for i := 0; i < n; i++ {
		m[i*7919%n] = i
	}
	hits := 0
	for i := 0; i < 2*n; i++ {
		if _, ok := m[i]; ok {
			hits++
		}
	}
	sum := 0
	for k, v := range m {
		sum += k - v
	}
	for i := 0; i < n; i += 2 {
		delete(m, i)
	}
	println(len(m), hits, sum)
}
