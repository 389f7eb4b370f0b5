package calc

import (
	"fmt"
	"testing"
)

func check(t *testing.T, a, b, want int) {
	t.Helper()
	if got := Add(a, b); got != want {
		t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
	}
}

func TestPositive(t *testing.T) {
	t.Log("this log shows only with -v")
	check(t, 1, 2, 3)
}

func TestNegative(t *testing.T) {
	t.Log("a log before the failure")
	check(t, -1, 2, 1)
	check(t, -2, -2, -4)
}

func TestSubtests(t *testing.T) {
	t.Run("ok", func(t *testing.T) { check(t, 2, 2, 4) })
	t.Run("bad", func(t *testing.T) {
		check(t, -5, 5, 0)
		t.Log("after the check")
	})
	t.Run("fatal", func(t *testing.T) {
		t.Fatal("stops here")
		t.Error("never said")
	})
}

func TestParallel(t *testing.T) {
	for _, n := range []int{1, 2} {
		n := n
		t.Run(fmt.Sprint("p", n), func(t *testing.T) {
			t.Parallel()
			check(t, n, n, 2*n)
		})
	}
}

func TestSkipped(t *testing.T) {
	t.Skipf("skipped: %d", 42)
}

func ExampleAdd() {
	fmt.Println(Add(-1, 1))
	// Output: 0
}

// a fuzz target whose second seed fails (Add is wrong for negatives)
func FuzzAdd(f *testing.F) {
	f.Add(1, 2)
	f.Add(-3, 3)
	f.Fuzz(func(t *testing.T, a, b int) {
		check(t, a, b, a+b)
	})
}
