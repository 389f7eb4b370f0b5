// Package words holds the module's vocabulary.
package words

import "fmt"

// Hello is the greeting.
const Hello = "hello"

func init() { fmt.Println("words: init") }
