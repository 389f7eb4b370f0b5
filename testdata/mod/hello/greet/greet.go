// Package greet says hello; its words come from an internal package
// that only this module may import.
package greet

import (
	"fmt"

	"example.com/hello/internal/words"
)

var calls int

func init() { fmt.Println("greet: init in greet.go") }

// Hello greets name with the module's own word.
func Hello(name string) string {
	calls++
	return words.Hello + ", " + name + suffix
}
