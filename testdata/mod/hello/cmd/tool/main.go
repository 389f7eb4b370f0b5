// A second program of the module, using the same packages.
package main

import (
	"fmt"
	"os"

	"example.com/hello/greet"
	geo "example.com/hello/shapes"
)

func main() {
	fmt.Println(greet.Hello("tool"))
	fmt.Println(geo.Total(geo.Square{Side: 2}, geo.Square{Side: 5}))
	os.Exit(3)
}
