package main

import "example.com/unexported/b"

func main() { println(b.B, b.b) }
