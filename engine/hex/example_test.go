package hex_test

import (
	"fmt"

	"herald/engine/hex"
)

// A map whose odd columns are half a hex lower, as in Infidel.
var g = hex.Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30, OddShifted: true}

func ExampleGrid_Neighbors() {
	h, _ := hex.Parse("3420")
	fmt.Println(g.Neighbors(h))
	// Output: [3419 3519 3520 3421 3320 3319]
}

// A unit in 3420 faces vertex E (6.1): which of its neighbours are Front,
// Flank and Rear.
func ExampleFacing_Frontal() {
	h, _ := hex.Parse("3420")
	f, _ := hex.ParseFacing("e")
	for _, n := range g.Neighbors(h) {
		a, _ := g.NeighborAspect(h, f, n)
		fmt.Println(n, a)
	}
	fmt.Println("front hexsides", f.Frontal(), "front hexes", g.FrontalHexes(h, f))
	// Output:
	// 3419 Flank
	// 3519 Front
	// 3520 Front
	// 3421 Flank
	// 3320 Rear
	// 3319 Rear
	// front hexsides [NE SE] front hexes [3519 3520]
}

// A Longbow in 1010 facing NE shoots at a mounted unit in 0908 facing W
// (9.1, 9.3). The line leaves the firer down the spine between its Front
// (N) and Flank (NW) hexsides, which counts as Front: it may fire. It
// reaches the target down the spine between its Flank (S) and Rear (SE)
// hexsides, which counts as Rear: the target may not Return Fire, and there
// is no Angle of Fire bonus.
func ExampleGrid_ApproachFrom() {
	firer, target := hex.Hex{Col: 10, Row: 10}, hex.Hex{Col: 9, Row: 8}
	out := g.ApproachFrom(firer, target)
	in := g.ApproachFrom(target, firer)
	fmt.Println(out, "|", hex.FaceNE.ApproachAspect(out), "|", hex.FaceNE.ApproachAspect(out).FireAspect())
	fmt.Println(in, "|", hex.FaceW.ApproachAspect(in), "|", hex.FaceW.ApproachAspect(in).FireAspect())
	// Output:
	// spine NW (NW/N) | Front/Flank spine | Front
	// spine SE (SE/S) | Flank/Rear spine | Rear
}

// Line of sight (9.4) from 1010 to 1207: along the hexside between 1009
// and 1109 (blocked only if both block), through 1108, then along the
// hexside between 1107 and 1208.
func ExampleGrid_Line() {
	for _, s := range g.Line(hex.Hex{Col: 10, Row: 10}, hex.Hex{Col: 12, Row: 7}) {
		fmt.Println(s.Kind, s.Hexes())
	}
	// Output:
	// along [1009 1109]
	// through [1108]
	// along [1107 1208]
}
