package main

import "internal/fmtsort"

func main() { fmtsort.Sort(nil) }
