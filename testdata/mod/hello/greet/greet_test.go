package greet

import (
	"strings"
	"testing"
)

// An in-package test: it sees the package's unexported names.
func TestHello(t *testing.T) {
	calls = 0
	if got := Hello("gl"); got != "hello, gl!" {
		t.Errorf("Hello(%q) = %q", "gl", got)
	}
	if calls != 1 {
		t.Fatalf("calls = %d after one greeting", calls)
	}
}

func TestTable(t *testing.T) {
	for _, name := range []string{"a", "bb", "a b"} {
		t.Run(name, func(t *testing.T) {
			if !strings.HasSuffix(Hello(name), name+"!") {
				t.Error("no name in", Hello(name))
			}
		})
	}
}

func TestCleanupOrder(t *testing.T) {
	var order []int
	t.Run("inner", func(t *testing.T) {
		t.Cleanup(func() { order = append(order, 1) })
		t.Cleanup(func() { order = append(order, 2) })
	})
	if len(order) != 2 || order[0] != 2 || order[1] != 1 {
		t.Errorf("cleanups ran as %v, want [2 1]", order)
	}
	dir := t.TempDir()
	if dir == "" {
		t.Error("no temporary directory")
	}
}

func TestShort(t *testing.T) {
	if testing.Short() {
		t.Skip("long test")
	}
}

func BenchmarkHello(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Hello("bench")
	}
}
