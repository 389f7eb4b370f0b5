package main

import (
	"fmt"
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	fmt.Println("before")
	code := m.Run()
	fmt.Println("after", code)
	os.Exit(code)
}

func TestDouble(t *testing.T) {
	if double(3) != 6 {
		t.Fatal("bad")
	}
}

func TestSlow(t *testing.T) {
	if os.Getenv("SLOW") != "" {
		time.Sleep(5 * time.Second) // past -timeout
	}
}

func TestPanic(t *testing.T) {
	if os.Getenv("PANIC") != "" {
		panic("boom")
	}
}

func ExampleUnordered() {
	fmt.Println("b")
	fmt.Println("a")
	// Unordered output:
	// a
	// b
}
