package engine

import (
	"math/rand/v2"
	"sort"
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

// pathQueue gives its paths back cheapest first, then in the order they
// were found, however pushes and pops interleave: checked against a
// sorted list fed the same pushes and pops.
func TestPathQueueOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		var q pathQueue
		var ref []pathNode
		seq := 0
		for k := 0; k < 80 || len(ref) > 0; k++ {
			if k < 80 && (r.IntN(3) > 0 || len(ref) == 0) {
				seq++
				n := pathNode{step: step{mp: r.IntN(8)}, seq: seq}
				q.push(n)
				ref = append(ref, n)
				continue
			}
			sort.Slice(ref, func(a, b int) bool {
				return ref[a].mp < ref[b].mp || ref[a].mp == ref[b].mp && ref[a].seq < ref[b].seq
			})
			got := q.pop()
			if got.seq != ref[0].seq {
				t.Fatalf("round %d: popped seq %d (mp %d), want seq %d (mp %d)", round, got.seq, got.mp, ref[0].seq, ref[0].mp)
			}
			ref = ref[1:]
		}
		if len(q) != 0 {
			t.Fatalf("round %d: %d paths left", round, len(q))
		}
	}
}
