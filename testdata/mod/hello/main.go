// A program of four packages: greet (two files), its internal words,
// and shapes, whose package is named geometry.  Each prints when it is
// initialized, so the output shows Go's order: a package after those it
// imports, its variables before its init functions, files in name order.
package main

import (
	"fmt"

	"example.com/hello/greet"
	"example.com/hello/shapes"
)

var ready = announce("main: variables")

func announce(s string) bool {
	fmt.Println(s)
	return true
}

func init() { fmt.Println("main: init") }

func main() {
	fmt.Println(greet.Hello("gl"), greet.Count())
	sq := geometry.Square{Side: 3}
	fmt.Println(geometry.Describe(sq), geometry.Total(sq, geometry.Square{Side: 1}))
	var s fmt.Stringer = sq
	fmt.Println(s, ready)
}
