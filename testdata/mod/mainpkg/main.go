package main

func double(x int) int { return 2 * x }

func main() { println(double(2)) }
