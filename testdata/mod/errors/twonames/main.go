package main

import "example.com/twonames/c"

func main() { c.X() }
