package hex

import (
	"fmt"
	"testing"
)

// 6.1: the two hexsides beside the faced vertex are Frontal, the two at the
// other end Rear, the remaining two Flank.
func TestFacingSides(t *testing.T) {
	for _, tc := range []struct {
		f                  Facing
		front, flank, rear string
	}{
		{FaceE, "[NE SE]", "[N S]", "[NW SW]"},
		{FaceNE, "[N NE]", "[N S]"[:0] + "[NW SE]", "[SW S]"},
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
		// Each facing partitions the six hexsides 2/2/2.
		count := map[Aspect]int{}
		for d := N; d <= NW; d++ {
			count[tc.f.SideAspect(d)]++
		}
		if count[Front] != 2 || count[Flank] != 2 || count[Rear] != 2 {
			t.Errorf("%v partitions the hexsides %v", tc.f, count)
		}
	}
}

func TestVertexSteps(t *testing.T) {
	for _, tc := range []struct {
		a, b Facing
		want int
	}{{FaceE, FaceE, 0}, {FaceE, FaceNE, 1}, {FaceE, FaceSE, 1}, {FaceE, FaceW, 3}, {FaceNE, FaceSE, 2}} {
		if got := VertexSteps(tc.a, tc.b); got != tc.want {
			t.Errorf("VertexSteps(%v, %v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if FaceSE.Turn(1) != FaceE || FaceE.Turn(-1) != FaceSE {
		t.Error("Turn does not wrap around")
	}
}

// Lines from neighbours enter across the hexside towards them; lines along
// a spine touch the two hexsides beside that vertex.
func TestApproachFrom(t *testing.T) {
	c := Hex{10, 10}
	for d := N; d <= NW; d++ {
		a := odd.ApproachFrom(c, odd.Neighbor(c, d))
		if a.Spine || a.Sides[0] != d {
			t.Errorf("ApproachFrom(neighbour %v) = %+v, want hexside %v", d, a, d)
		}
	}
	// Two hexes away between N and NE lies the NE vertex's spine.
	far := odd.Neighbor(odd.Neighbor(c, N), NE)
	a := odd.ApproachFrom(c, far)
	if !a.Spine || a.Vertex != FaceNE || fmt.Sprint(a.Sides) != "[N NE]" {
		t.Errorf("ApproachFrom(N then NE) = %+v, want the NE spine between N and NE", a)
	}
	// A unit facing E fired on down that spine: Front and Flank touched.
	if got := fmt.Sprint(FaceSE.Aspects(a)); got != "[Rear Flank]" {
		t.Errorf("FaceSE.Aspects(NE spine) = %s, want [Rear Flank]", got)
	}
	// Two hexes straight north: across the N hexside, not a spine.
	if a := odd.ApproachFrom(c, odd.Neighbor(odd.Neighbor(c, N), N)); a.Spine || a.Sides[0] != N {
		t.Errorf("ApproachFrom(2 N) = %+v", a)
	}
}

func TestNeighborAspect(t *testing.T) {
	h := Hex{10, 10}
	asp, ok := odd.NeighborAspect(h, FaceE, odd.Neighbor(h, SE))
	if !ok || asp != Front {
		t.Errorf("NeighborAspect(E, SE) = %v, %v; want Front", asp, ok)
	}
	if _, ok := odd.NeighborAspect(h, FaceE, Hex{12, 10}); ok {
		t.Error("NeighborAspect of a non-adjacent hex")
	}
	fr := odd.FrontalHexes(h, FaceNE)
	if fr[0] != odd.Neighbor(h, N) || fr[1] != odd.Neighbor(h, NE) {
		t.Errorf("FrontalHexes(NE) = %v", fr)
	}
}
