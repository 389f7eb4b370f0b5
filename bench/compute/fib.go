package main

// fib(35): the call-overhead benchmark (Go 1.19 on this machine: 57 ms).

//gl:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() {
	println(fib(35))
}
