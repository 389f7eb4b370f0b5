package main

// Go twin of fmt_bench.gl. fmt: 1M formatted lines through a bufio.Writer to /dev/null, as
// fmt.Fprintf(w, "%d %s %5.2f\n", ...), then a few other verbs.

import (
	"bufio"
	"fmt"
	"os"
)

type countWriter struct {
	f *os.File
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.f.Write(p)
}

func main() {
	f, err := os.OpenFile("/dev/null", os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	cw := &countWriter{f: f}
	w := bufio.NewWriter(cw)
	names := []string{"alpha", "beta", "gamma", "delta"}
	for i := 0; i < 1000000; i++ {
		fmt.Fprintf(w, "%d %s %5.2f\n", i, names[i&3], float64(i)*0.37)
	}
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(w, "%x %-8v %q %v\n", i, i*3, names[i&3], i%7 == 0)
	}
	w.Flush()
	fmt.Println(cw.n)
}
