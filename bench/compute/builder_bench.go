package main

// Go twin of builder_bench.gl. strings.Builder: 100 MB built from short pieces (WriteString, WriteByte,
// WriteRune, Write), as a program assembling output would.

import "strings"

func main() {
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	piece := []byte("0123456789")
	i := 0
	for b.Len() < 100<<20 {
		b.WriteString(words[i%5])
		b.WriteByte(' ')
		if i%7 == 0 {
			b.WriteRune('é')
		}
		if i%3 == 0 {
			b.Write(piece)
		}
		i++
	}
	s := b.String()
	n := 0
	for j := 0; j < len(s); j += 4096 {
		n += int(s[j])
	}
	println(len(s), i, n)
}
