package main

import "example.com/missing/nope"

func main() { nope.X() }
