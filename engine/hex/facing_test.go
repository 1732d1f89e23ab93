package hex

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseFacing(t *testing.T) {
	for f := FaceE; f <= FaceSE; f++ {
		for _, s := range []string{f.String(), strings.ToLower(f.String()), " " + f.String() + " "} {
			if got, err := ParseFacing(s); err != nil || got != f {
				t.Errorf("ParseFacing(%q) = %v, %v, want %v", s, got, err, f)
			}
		}
		var u Facing
		if b, err := f.MarshalText(); err != nil || u.UnmarshalText(b) != nil || u != f {
			t.Errorf("%v: MarshalText/UnmarshalText round trip gives %v (%s, %v)", f, u, b, err)
		}
	}
	for _, s := range []string{"", "N", "S", "north-east", "ENE"} {
		if got, err := ParseFacing(s); !errors.Is(err, ErrFacing) {
			t.Errorf("ParseFacing(%q) = %v, %v, want ErrFacing", s, got, err)
		}
	}
	if got := Facing(6).String(); got != "Facing(6)" {
		t.Errorf("Facing(6).String() = %q", got)
	}
}

// 6.1: the two hexsides beside the faced vertex are Frontal, the two at the
// other end Rear, the remaining two Flank; each pair [left, right].
func TestFacingSides(t *testing.T) {
	for _, tc := range []struct {
		f                  Facing
		front, flank, rear string
	}{
		{FaceE, "[NE SE]", "[N S]", "[NW SW]"},
		{FaceNE, "[N NE]", "[NW SE]", "[SW S]"},
		{FaceNW, "[NW N]", "[SW NE]", "[S SE]"},
		{FaceW, "[SW NW]", "[S N]", "[SE NE]"},
		{FaceSW, "[S SW]", "[SE NW]", "[NE N]"},
		{FaceSE, "[SE S]", "[NE SW]", "[N NW]"},
	} {
		if got := fmt.Sprint(tc.f.Frontal()); got != tc.front {
			t.Errorf("%v.Frontal() = %s, want %s", tc.f, got, tc.front)
		}
		if got := fmt.Sprint(tc.f.Flank()); got != tc.flank {
			t.Errorf("%v.Flank() = %s, want %s", tc.f, got, tc.flank)
		}
		if got := fmt.Sprint(tc.f.Rear()); got != tc.rear {
			t.Errorf("%v.Rear() = %s, want %s", tc.f, got, tc.rear)
		}
	}
}

// Each facing partitions the six hexsides 2/2/2, consistently with
// SideAspect; the Frontal pair sits beside the faced vertex, the Rear pair
// beside the opposite one.
func TestFacingPartition(t *testing.T) {
	for f := FaceE; f <= FaceSE; f++ {
		seen := map[Dir]Aspect{}
		for asp, pair := range map[Aspect][2]Dir{Front: f.Frontal(), Flank: f.Flank(), Rear: f.Rear()} {
			for _, d := range pair {
				if prev, dup := seen[d]; dup {
					t.Errorf("%v: hexside %v is both %v and %v", f, d, prev, asp)
				}
				seen[d] = asp
				if got := f.SideAspect(d); got != asp {
					t.Errorf("%v.SideAspect(%v) = %v, want %v", f, d, got, asp)
				}
			}
		}
		if len(seen) != 6 {
			t.Errorf("%v covers %d hexsides, want 6", f, len(seen))
		}
		if got, want := (Approach{Sides: f.Frontal(), Spine: true, Vertex: f}), odd.spineApproach(f); got != want {
			t.Errorf("%v.Frontal() = %v, want the hexsides beside vertex %v: %v", f, got.Sides, f, want.Sides)
		}
		rear := odd.spineApproach(f.Opposite()).Sides
		if r := f.Rear(); !(r == rear || r == [2]Dir{rear[1], rear[0]}) {
			t.Errorf("%v.Rear() = %v, want the hexsides beside vertex %v: %v", f, r, f.Opposite(), rear)
		}
	}
}

// spineApproach is the approach down the spine of vertex v, from the hex
// two steps away between the hexsides beside it.
func (g Grid) spineApproach(v Facing) Approach {
	c := Hex{20, 15}
	sides := [2]Dir{Dir(mod6(1 - int(v))), Dir(mod6(2 - int(v)))}
	return g.ApproachFrom(c, g.Neighbor(g.Neighbor(c, sides[0]), sides[1]))
}

func TestTurnAndVertexSteps(t *testing.T) {
	for _, tc := range []struct {
		f     Facing
		steps int
		want  Facing
	}{
		{FaceE, 1, FaceNE}, {FaceE, -1, FaceSE}, {FaceSE, 1, FaceE}, {FaceW, 3, FaceE},
		{FaceNE, 13, FaceNW}, {FaceNE, -13, FaceE}, {FaceSW, 0, FaceSW},
	} {
		if got := tc.f.Turn(tc.steps); got != tc.want {
			t.Errorf("%v.Turn(%d) = %v, want %v", tc.f, tc.steps, got, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b Facing
		want int
	}{
		{FaceE, FaceE, 0}, {FaceE, FaceNE, 1}, {FaceE, FaceSE, 1}, {FaceE, FaceW, 3},
		{FaceNE, FaceSE, 2}, {FaceSE, FaceNE, 2}, {FaceNW, FaceSE, 3}, {FaceSW, FaceE, 2},
	} {
		if got := VertexSteps(tc.a, tc.b); got != tc.want {
			t.Errorf("VertexSteps(%v, %v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNeighborAspect(t *testing.T) {
	// A unit in 1010 (odd-shifted map) facing E: 1109 and 1110 in front,
	// 1009 and 1011 on its flanks, 0909 and 0910 behind.
	h := mustParse(t, "1010")
	for _, tc := range []struct {
		other string
		want  Aspect
		ok    bool
	}{
		{"1109", Front, true}, {"1110", Front, true}, {"1009", Flank, true}, {"1011", Flank, true},
		{"0909", Rear, true}, {"0910", Rear, true}, {"1210", 0, false}, {"1010", 0, false},
	} {
		got, ok := odd.NeighborAspect(h, FaceE, mustParse(t, tc.other))
		if got != tc.want || ok != tc.ok {
			t.Errorf("NeighborAspect(1010, E, %s) = %v, %v, want %v, %v", tc.other, got, ok, tc.want, tc.ok)
		}
	}
	if got, want := fmt.Sprint(odd.FrontalHexes(h, FaceNE)), "[1009 1109]"; got != want {
		t.Errorf("FrontalHexes(1010, NE) = %s, want %s", got, want)
	}
}

// Lines from neighbours cross the hexside towards them; lines from two
// steps away between two hexsides run down the spine between them; every
// other line crosses the hexside towards the hex it comes through last.
func TestApproachFrom(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		for _, c := range []Hex{{20, 15}, {21, 15}} {
			for d := N; d <= NW; d++ {
				want := Approach{Sides: [2]Dir{d, d}}
				if got := g.ApproachFrom(c, g.Neighbor(c, d)); got != want {
					t.Errorf("%s.ApproachFrom(%v, neighbour %v) = %v, want %v", gridName(g), c, d, got, want)
				}
				far := g.Neighbor(g.Neighbor(g.Neighbor(c, d), d), d)
				if got := g.ApproachFrom(c, far); got != want {
					t.Errorf("%s.ApproachFrom(%v, 3 hexes %v) = %v, want %v", gridName(g), c, d, got, want)
				}
			}
			for v := FaceE; v <= FaceSE; v++ {
				sides := [2]Dir{Dir(mod6(1 - int(v))), Dir(mod6(2 - int(v)))}
				from := c
				for m := 1; m <= 3; m++ {
					from = g.Neighbor(g.Neighbor(from, sides[0]), sides[1])
					want := Approach{Sides: sides, Spine: true, Vertex: v}
					if got := g.ApproachFrom(c, from); got != want {
						t.Errorf("%s.ApproachFrom(%v, %v) = %v, want %v", gridName(g), c, from, got, want)
					}
				}
			}
		}
	}
	// 3220 from 3420 (infidel.md 11.2 hexes): down the E spine, touching
	// the NE and SE hexsides, where 3319 and 3320 are.
	a := odd.ApproachFrom(mustParse(t, "3220"), mustParse(t, "3420"))
	if want := (Approach{Sides: [2]Dir{NE, SE}, Spine: true, Vertex: FaceE}); a != want {
		t.Errorf("ApproachFrom(3220, 3420) = %v, want %v", a, want)
	}
	if got := a.String(); got != "spine E (NE/SE)" {
		t.Errorf("Approach.String() = %q", got)
	}
}

// ApproachFrom agrees with Line: the line enters the target from the hex
// across the approach hexside, or along the hexside between the two hexes
// beside the spine.
func TestApproachAgreesWithLine(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		for _, c := range []Hex{{20, 15}, {21, 15}} {
			for _, from := range g.Within(c, 7) {
				if from == c {
					continue
				}
				a := g.ApproachFrom(c, from)
				steps := g.Line(from, c)
				var want LineStep
				switch {
				case !a.Spine && len(steps) == 0:
					if g.Neighbor(c, a.Sides[0]) != from {
						t.Errorf("%s.ApproachFrom(%v, %v) = %v, but they are adjacent", gridName(g), c, from, a)
					}
					continue
				case !a.Spine:
					want = LineStep{Kind: Through, Hex: g.Neighbor(c, a.Sides[0])}
				default:
					x, y := g.Neighbor(c, a.Sides[0]), g.Neighbor(c, a.Sides[1])
					if cmpHex(y, x) < 0 {
						x, y = y, x
					}
					want = LineStep{Kind: Along, Hex: x, Other: y}
				}
				if len(steps) == 0 || steps[len(steps)-1] != want {
					t.Errorf("%s.ApproachFrom(%v, %v) = %v, but Line ends %v", gridName(g), c, from, a, steps)
				}
			}
		}
	}
}

// The angle of each approach for a unit facing E, and what it counts as
// for fire (9.1, 9.3).
func TestApproachAspect(t *testing.T) {
	side := func(d Dir) Approach { return Approach{Sides: [2]Dir{d, d}} }
	spine := func(v Facing) Approach { return odd.spineApproach(v) }
	for _, tc := range []struct {
		a       Approach
		want    Angle
		aspects [2]Aspect
		fire    Aspect
	}{
		{side(NE), SideFront, [2]Aspect{Front, Front}, Front},
		{side(SE), SideFront, [2]Aspect{Front, Front}, Front},
		{side(N), SideFlank, [2]Aspect{Flank, Flank}, Flank},
		{side(S), SideFlank, [2]Aspect{Flank, Flank}, Flank},
		{side(NW), SideRear, [2]Aspect{Rear, Rear}, Rear},
		{side(SW), SideRear, [2]Aspect{Rear, Rear}, Rear},
		{spine(FaceE), SpineFront, [2]Aspect{Front, Front}, Front},
		{spine(FaceNE), SpineFrontFlank, [2]Aspect{Front, Flank}, Front}, // 9.3; B&R 11.1
		{spine(FaceSE), SpineFrontFlank, [2]Aspect{Front, Flank}, Front},
		{spine(FaceNW), SpineFlankRear, [2]Aspect{Flank, Rear}, Rear}, // 9.1
		{spine(FaceSW), SpineFlankRear, [2]Aspect{Flank, Rear}, Rear},
		{spine(FaceW), SpineRear, [2]Aspect{Rear, Rear}, Rear},
	} {
		got := FaceE.ApproachAspect(tc.a)
		if got != tc.want {
			t.Errorf("E.ApproachAspect(%v) = %v, want %v", tc.a, got, tc.want)
		}
		if got.Spine() != tc.a.Spine {
			t.Errorf("%v.Spine() = %v, want %v", got, got.Spine(), tc.a.Spine)
		}
		if asp := got.Aspects(); asp != tc.aspects {
			t.Errorf("%v.Aspects() = %v, want %v", got, asp, tc.aspects)
		}
		if fire := got.FireAspect(); fire != tc.fire {
			t.Errorf("%v.FireAspect() = %v, want %v", got, fire, tc.fire)
		}
	}
	// Rotating the unit and the approach together changes nothing.
	for f := FaceE; f <= FaceSE; f++ {
		for v := FaceE; v <= FaceSE; v++ {
			want := FaceE.ApproachAspect(odd.spineApproach(v))
			if got := f.ApproachAspect(odd.spineApproach(v.Turn(int(f)))); got != want {
				t.Errorf("%v.ApproachAspect(spine %v) = %v, want %v", f, v.Turn(int(f)), got, want)
			}
		}
	}
	// A spine is never Flank for fire (9.3).
	for a := SideFront; a <= SpineRear; a++ {
		if a.Spine() && a.FireAspect() == Flank {
			t.Errorf("%v.FireAspect() = Flank", a)
		}
	}
}
