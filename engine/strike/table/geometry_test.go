package table

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

// box is a one-stand unit of w×d whose front edge is centred at (x, y),
// facing f.
func box(x, y, f, w, d float64) Unit {
	return Unit{Pos: Vec{x, y}, Facing: f, Files: 1, Ranks: 1, StandWidth: w, StandDepth: d}
}

func TestHeadingExactQuarters(t *testing.T) {
	for _, c := range []struct {
		deg  float64
		want Vec
	}{{0, Vec{0, 1}}, {90, Vec{1, 0}}, {180, Vec{0, -1}}, {270, Vec{-1, 0}}, {-90, Vec{-1, 0}}, {450, Vec{1, 0}}} {
		if got := Heading(c.deg); got != c.want {
			t.Errorf("Heading(%g) = %v, want %v", c.deg, got, c.want)
		}
	}
	h := Heading(45)
	if !near(h.X, math.Sqrt2/2) || !near(h.Y, math.Sqrt2/2) {
		t.Errorf("Heading(45) = %v", h)
	}
}

func TestStandCorners(t *testing.T) {
	// 3 files × 2 ranks of 2"×1" facing up the table, front edge centred
	// at (10, 10): the unit covers x 7..13, y 8..10.
	u := Unit{Pos: Vec{10, 10}, Facing: 0, Files: 3, Ranks: 2, StandWidth: 2, StandDepth: 1}
	cases := []struct {
		s    Stand
		want Polygon
	}{
		{Stand{0, 0}, Polygon{{7, 10}, {9, 10}, {9, 9}, {7, 9}}},
		{Stand{2, 1}, Polygon{{11, 9}, {13, 9}, {13, 8}, {11, 8}}},
	}
	for _, c := range cases {
		got := u.StandPoly(c.s)
		for i := range got {
			if !got[i].Near(c.want[i], 1e-12) {
				t.Errorf("%v corner %d = %v, want %v", c.s, i, got[i], c.want[i])
			}
		}
	}
	// Facing 90 (towards +x): the left file is up the table.
	v := Unit{Pos: Vec{0, 0}, Facing: 90, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}
	fl := v.StandPoly(Stand{0, 0})[0]
	if fl != (Vec{0, 2}) {
		t.Errorf("facing 90: front-left of file 1 = %v, want (0,2)", fl)
	}
}

func TestDistance(t *testing.T) {
	a := Unit{Pos: Vec{10, 10}, Facing: 0, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1} // x 8..12, y 9..10
	cases := []struct {
		name string
		b    Unit
		want float64
	}{
		{"face to face 3 inches apart", Unit{Pos: Vec{10, 13}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 3},
		{"corner to corner, 2 across and 3 up", box(16, 14, 0, 4, 1), math.Sqrt(13)},
		{"side by side, touching", box(13, 10, 0, 2, 1), 0},
		{"overlapping", box(11, 10, 0, 2, 1), 0},
		{"corner to edge", box(20, 12, 0, 2, 4), 7},                                              // x 19..21, y 8..12: from x=12 to x=19
		{"rotated 45°, its corner points at us", box(10.5, 14.5, 45, math.Sqrt2, math.Sqrt2), 3}, // back-right corner at (10,13),
	}
	for _, c := range cases {
		got := UnitDistance(a, c.b)
		if !near(got, c.want) {
			t.Errorf("%s: distance %v, want %v", c.name, got, c.want)
		}
		if back := UnitDistance(c.b, a); !near(back, got) {
			t.Errorf("%s: not symmetric: %v and %v", c.name, got, back)
		}
	}
}

func TestStandDistanceClosestPoints(t *testing.T) {
	// The rear stand of a 1×2 column is 1" farther than its front stand.
	a := Unit{Pos: Vec{0, 0}, Facing: 0, Files: 1, Ranks: 2, StandWidth: 2, StandDepth: 1}
	b := box(0, 7, 180, 2, 1) // front edge at y=7
	if d := StandDistance(a, Stand{0, 0}, b, Stand{0, 0}); !near(d, 7) {
		t.Errorf("front stand: %v, want 7", d)
	}
	if d := StandDistance(a, Stand{0, 1}, b, Stand{0, 0}); !near(d, 8) {
		t.Errorf("rear stand: %v, want 8", d)
	}
}

func TestInArc(t *testing.T) {
	// A 2"-wide stand at the origin facing up; targets are 1"×1" stands
	// whose front edge is centred at (x, y), covering x±0.5, y-1..y.
	// The 45° arc is |x| ≤ 1 + y ahead of the front edge.
	sh := box(0, 0, 0, 2, 1)
	cases := []struct {
		name string
		half float64
		x, y float64
		want bool
	}{
		{"straight ahead", 45, 0, 5, true},
		{"touching straight ahead", 45, 0, 1, true},
		{"far corner on the arc line", 45, 4.5, 5, true}, // corner (5,4): 5 ≤ 1+4
		{"far corner just outside", 45, 4.6, 5, false},
		{"partly behind the front edge", 45, 3, 0.5, false},
		{"behind", 45, 0, -2, false},
		{"behind, all round", AllRound, 0, -2, true},
		{"formed 30°, inside", 30, 2, 5, true}, // (2.5,4): 1+4·tan30 = 3.31
		{"formed 30°, outside", 30, 3.5, 5, false},
	}
	for _, c := range cases {
		tg := box(c.x, c.y, 0, 1, 1)
		if got := InArc(sh, Stand{0, 0}, c.half, tg.StandPoly(Stand{0, 0})); got != c.want {
			t.Errorf("%s: InArc = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestInArcRearRankFromItsOwnFront(t *testing.T) {
	// The arc of the rear stand starts at its own front edge, 1" back, so
	// it reaches 1" wider at the same place: the target corner (5.5,4)
	// is 4" ahead of the front stand (reach 5) and 5" ahead of the rear
	// stand (reach 6).
	u := Unit{Pos: Vec{0, 0}, Facing: 0, Files: 1, Ranks: 2, StandWidth: 2, StandDepth: 1}
	tg := box(5, 5, 0, 1, 1).StandPoly(Stand{0, 0})
	if InArc(u, Stand{0, 0}, 45, tg) {
		t.Error("front stand: in arc")
	}
	if !InArc(u, Stand{0, 1}, 45, tg) {
		t.Error("rear stand: not in arc")
	}
}

func TestAspectOf(t *testing.T) {
	u := Unit{Pos: Vec{0, 0}, Facing: 0, Files: 4, Ranks: 3, StandWidth: 1, StandDepth: 1} // x -2..2, y -3..0
	cases := []struct {
		p    Vec
		want Aspect
	}{
		{Vec{0, 1}, Front},
		{Vec{3, 1}, Front}, // on the 45° line from the front-right corner
		{Vec{3, 0.5}, RightFlank},
		{Vec{-3, -1}, LeftFlank},
		{Vec{0, -4}, Rear},
		{Vec{3, -4.5}, Rear},
		{Vec{3, -3.5}, RightFlank},
	}
	for _, c := range cases {
		if got := AspectOf(u, c.p); got != c.want {
			t.Errorf("AspectOf(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	// The same, the unit turned to face +x: its left flank is up the table.
	r := Unit{Pos: Vec{0, 0}, Facing: 90, Files: 4, Ranks: 3, StandWidth: 1, StandDepth: 1}
	if got := AspectOf(r, Vec{-1, 5}); got != LeftFlank {
		t.Errorf("turned unit: %v, want left flank", got)
	}
}

// The fragment's first REAR and FLANK ATTACKS example on the table: a unit
// 2 stands deep is attacked on its flank and the two end stands are the
// ones contacted.
func TestFlankContactTouchesTheTwoEndStands(t *testing.T) {
	def := Unit{Pos: Vec{0, 0}, Facing: 0, Files: 3, Ranks: 2, StandWidth: 1, StandDepth: 1} // x -1.5..1.5, y -2..0
	att := Unit{Pos: Vec{1.5, -1}, Facing: 270, Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}
	a, ok := AttackAspect(att, def)
	if !ok || a != RightFlank {
		t.Fatalf("aspect %v %v, want right flank", a, ok)
	}
	got := InContact(def, att)
	want := []Stand{{2, 0}, {2, 1}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("contacted %v, want %v", got, want)
	}
}

// The second example: 4 across and 3 deep, attacked in the rear by a unit
// 2 stands wide: two rear stands are in contact, not the ones that meet
// the attacker at a corner.
func TestRearContactTwoOfFour(t *testing.T) {
	def := Unit{Pos: Vec{0, 0}, Facing: 0, Files: 4, Ranks: 3, StandWidth: 1, StandDepth: 1}
	att := Unit{Pos: Vec{0, -3}, Facing: 0, Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}
	if a, _ := AttackAspect(att, def); a != Rear {
		t.Fatalf("aspect %v, want rear", a)
	}
	got := InContact(def, att)
	if len(got) != 2 || got[0] != (Stand{1, 2}) || got[1] != (Stand{2, 2}) {
		t.Errorf("contacted %v, want files 2 and 3 of rank 3", got)
	}
	if n := len(InContact(att, def)); n != 2 {
		t.Errorf("attacker stands in contact %d, want 2", n)
	}
}

func TestOverlaps(t *testing.T) {
	// A 4-file unit meets a 2-file unit face to face, centred: one overlap
	// each flank. Shifted so that its left end is level with the enemy's
	// left end: one overlap only. The smaller unit never overlaps.
	small := Unit{Pos: Vec{0, 2}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}
	centred := Unit{Pos: Vec{0, 2}, Facing: 0, Files: 4, Ranks: 2, StandWidth: 1, StandDepth: 1}
	if n := Overlaps(centred, small); n != 2 {
		t.Errorf("centred: %d overlaps, want 2", n)
	}
	shifted := centred
	shifted.Pos = Vec{1, 2}
	if n := Overlaps(shifted, small); n != 1 {
		t.Errorf("shifted: %d overlaps, want 1", n)
	}
	if n := Overlaps(small, centred); n != 0 {
		t.Errorf("smaller unit: %d overlaps, want 0", n)
	}
	wide := Unit{Pos: Vec{0, 2}, Facing: 0, Files: 6, Ranks: 1, StandWidth: 1, StandDepth: 1}
	if n := Overlaps(wide, small); n != 2 {
		t.Errorf("6 against 2: %d overlaps, want 2 (one per flank)", n)
	}
}

func TestTerrain(t *testing.T) {
	tb := Table{Width: 72, Height: 48, Areas: []Area{
		{Name: "hill", Terrain: HigherGround, Shape: Polygon{{10, 10}, {30, 10}, {30, 30}, {10, 30}}},
		{Name: "wood on the hill", Terrain: Obstacle, Shape: Polygon{{20, 20}, {25, 20}, {25, 25}, {20, 25}}},
		{Name: "L-shaped marsh", Terrain: Obstacle, Shape: Polygon{{40, 0}, {50, 0}, {50, 5}, {45, 5}, {45, 10}, {40, 10}}},
	}}
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p    Vec
		want Terrain
	}{
		{Vec{5, 5}, Open},
		{Vec{15, 15}, HigherGround},
		{Vec{10, 20}, HigherGround}, // on the edge
		{Vec{22, 22}, Obstacle},     // the later area wins
		{Vec{47, 7}, Open},          // in the L's notch
		{Vec{42, 7}, Obstacle},
	}
	for _, c := range cases {
		if got := tb.TerrainAt(c.p); got != c.want {
			t.Errorf("TerrainAt(%v) = %s, want %s", c.p, got, c.want)
		}
	}
	if !tb.OnTable(Vec{72, 0}) || tb.OnTable(Vec{72.5, 1}) {
		t.Error("OnTable edges")
	}
	// A stand whose corners are all open but which straddles the marsh's
	// arm is not totally in the open.
	straddle := box(45, 8, 0, 12, 1).Outline() // x 39..51, y 7..8
	if tb.AllOpen(straddle) {
		t.Error("a stand across the marsh is totally in the open")
	}
	if !tb.AllOpen(box(60, 40, 0, 4, 2).Outline()) {
		t.Error("a stand in open ground is not totally in the open")
	}
	if tb.AllOpen(box(5, 10, 0, 10, 2).Outline()) { // x 0..10 touches the hill's edge
		t.Error("a stand touching the hill is totally in the open")
	}
}

func TestFoeHigherOrObstacle(t *testing.T) {
	tb := Table{Width: 72, Height: 48, Areas: []Area{
		{Name: "hill", Terrain: HigherGround, Shape: Polygon{{10, 10}, {30, 10}, {30, 30}, {10, 30}}},
		{Name: "slope", Terrain: GentleSlope, Shape: Polygon{{10, 5}, {30, 5}, {30, 10}, {10, 10}}},
		{Name: "wood", Terrain: Obstacle, Shape: Polygon{{40, 10}, {50, 10}, {50, 20}, {40, 20}}},
	}}
	stand := func(x, y float64) Polygon { return box(x, y, 0, 2, 1).Outline() }
	cases := []struct {
		name    string
		me, foe Polygon
		want    bool
	}{
		{"foe on the hill, me in the open", stand(20, 2), stand(20, 15), true},
		{"both on the hill", stand(20, 25), stand(20, 15), false},
		{"foe on the slope", stand(20, 2), stand(20, 8), false},
		{"foe in the wood", stand(45, 25), stand(45, 15), true},
		{"me in the wood, foe in the open", stand(45, 15), stand(45, 25), false},
	}
	for _, c := range cases {
		if got := tb.FoeHigherOrObstacle(c.me, c.foe); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
