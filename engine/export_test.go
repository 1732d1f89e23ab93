package engine

import (
	"fmt"

	"herald/engine/hex"
)

// EnterCostsDiffer lists where Reach's index prices a step otherwise than
// enterCost does: every hex of the map into itself (an entry from off the
// map) and into each neighbour on the map, for both classes.
func EnterCostsDiffer(sc *Scenario) []string {
	ix := newHexIndex(sc, NewState(sc))
	var out []string
	for _, h := range sc.Map.Grid.Hexes() {
		for _, n := range append([]hex.Hex{h}, sc.Map.Grid.Neighbors(h)...) {
			for _, class := range []Class{Foot, Mounted} {
				if got, want := ix.enterCost(h, n, class), enterCost(sc, h, n, class); got != want {
					out = append(out, fmt.Sprintf("%s to %s, %s: %d, want %d", h, n, class, got, want))
				}
			}
		}
	}
	return out
}
