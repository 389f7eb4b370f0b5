package main

import "example.com/internal/b"

func main() { println(b.B) }
