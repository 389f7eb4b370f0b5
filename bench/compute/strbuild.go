package main

// String building: concatenation in a loop (each + allocates, as in Go),
// and a byte slice grown by append, converted once.

func main() {
	s := ""
	for i := 0; i < 20000; i++ {
		s += "x"
	}
	total := len(s)
	var buf []byte
	for i := 0; i < 50000000; i++ {
		buf = append(buf, byte('a'+i%26))
	}
	t := string(buf)
	total += len(t)
	n := 0
	for i := 0; i < 2000000; i++ {
		u := "item-" + t[i%1000:i%1000+8] + "-" + s[:i%100]
		n += len(u)
	}
	println(total, n)
}
