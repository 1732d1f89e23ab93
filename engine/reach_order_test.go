package engine

import (
	"testing"

	"herald/engine/hex"
)

// TestIdBeforeSortsAsPrinted checks that idBefore orders hexes as their
// printed ids did (the order of Reach's ties), outside 0..99 too.
func TestIdBeforeSortsAsPrinted(t *testing.T) {
	vals := []int{-12, -1, 0, 1, 5, 9, 10, 11, 42, 99, 100, 101, 105, 999, 1000}
	for _, ac := range vals {
		for _, ar := range vals {
			for _, bc := range vals {
				for _, br := range vals {
					a, b := hex.Hex{Col: ac, Row: ar}, hex.Hex{Col: bc, Row: br}
					if got, want := idBefore(a, b), a.String() < b.String(); got != want {
						t.Fatalf("idBefore(%v, %v) = %v, want %v", a, b, got, want)
					}
				}
			}
		}
	}
}
