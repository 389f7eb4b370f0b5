package geometry_test

import (
	"fmt"
	"testing"

	geometry "example.com/hello/shapes"
)

// An external test package: only the exported names.
func TestTotal(t *testing.T) {
	if got := geometry.Total(geometry.Square{Side: 2}, geometry.Square{Side: 3}); got != 13 {
		t.Errorf("Total = %d, want 13", got)
	}
}

func ExampleDescribe() {
	fmt.Println(geometry.Describe(geometry.Square{Side: 4}))
	// Output: square(4) has area 16
}

func ExampleTotal() {
	fmt.Println(geometry.Total())
	fmt.Println(geometry.Total(geometry.Square{Side: 1}))
	// Output:
	// 0
	// 1
}
