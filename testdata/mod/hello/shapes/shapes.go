// Package geometry lives in directory shapes: an import binds the name
// of the package clause, not of the directory.
package geometry

import "fmt"

// Shape is anything with an area.
type Shape interface{ Area() int }

// Square is a Shape.
type Square struct{ Side int }

func (s Square) Area() int { return s.Side * s.Side }

func (s Square) String() string { return fmt.Sprintf("square(%d)", s.Side) }

// Describe names a shape and its area.
func Describe(s Shape) string { return fmt.Sprintf("%v has area %d", s, s.Area()) }

// Total is the sum of the areas.
func Total(shapes ...Shape) (t int) {
	for _, s := range shapes {
		t += s.Area()
	}
	return
}

func init() { fmt.Println("geometry: init") }
