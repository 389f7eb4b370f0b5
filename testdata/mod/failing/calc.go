// Package calc has a bug for its tests to find.
package calc

// Add adds, except that it is wrong for negative numbers.
func Add(a, b int) int {
	if a < 0 {
		return b - a
	}
	return a + b
}
