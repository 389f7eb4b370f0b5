package main

import "example.com/cycle/a"

func main() { println(a.A) }
