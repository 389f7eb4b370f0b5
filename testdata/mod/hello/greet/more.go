package greet

import "fmt"

var suffix = punctuation()

func punctuation() string {
	fmt.Println("greet: variables")
	return "!"
}

func init() { fmt.Println("greet: init in more.go") }

// Count is how many greetings were made.
func Count() int { return calls }
