package hex

import (
	"fmt"
	"strings"
)

// 6.1 Facing: a unit faces one of the six vertices of its hex.

// Facing is the vertex a unit faces, counter-clockwise from east.
type Facing int

const (
	FaceE Facing = iota
	FaceNE
	FaceNW
	FaceW
	FaceSW
	FaceSE
)

var facingNames = [6]string{"E", "NE", "NW", "W", "SW", "SE"}

func (f Facing) String() string {
	if f < 0 || f > 5 {
		return fmt.Sprintf("Facing(%d)", int(f))
	}
	return facingNames[f]
}

// ParseFacing reads a facing name in any case.
func ParseFacing(s string) (Facing, error) {
	for i, n := range facingNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return Facing(i), nil
		}
	}
	return 0, fmt.Errorf("facing %q: %w", s, ErrFacing)
}

// MarshalText writes the facing's name.
func (f Facing) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a facing's name.
func (f *Facing) UnmarshalText(b []byte) error {
	p, err := ParseFacing(string(b))
	if err != nil {
		return err
	}
	*f = p
	return nil
}

// Turn rotates the facing by steps vertices, counter-clockwise for positive
// steps.
func (f Facing) Turn(steps int) Facing { return Facing(mod6(int(f) + steps)) }

// VertexSteps is how many vertices apart two facings are, 0 to 3 (6.2:
// "may only change facing one vertex").
func VertexSteps(a, b Facing) int {
	d := mod6(int(b) - int(a))
	return min(d, 6-d)
}

func mod6(n int) int { return ((n % 6) + 6) % 6 }

// Aspect is how a hexside stands to a unit's facing (6.1).
type Aspect int

const (
	Front Aspect = iota
	Flank
	Rear
)

var aspectNames = [3]string{"Front", "Flank", "Rear"}

func (a Aspect) String() string {
	if a < 0 || a > 2 {
		return fmt.Sprintf("Aspect(%d)", int(a))
	}
	return aspectNames[a]
}

// The vertex at 60f degrees lies between the hexsides at 60f±30 degrees;
// hexside d's outward normal points at 90-60d degrees. Solving gives the
// index arithmetic below.

// Frontal are the two hexsides beside the faced vertex.
func (f Facing) Frontal() [2]Dir { return [2]Dir{Dir(mod6(1 - int(f))), Dir(mod6(2 - int(f)))} }

// Flank are the two hexsides at the sides.
func (f Facing) Flank() [2]Dir { return [2]Dir{Dir(mod6(-int(f))), Dir(mod6(3 - int(f)))} }

// Rear are the two hexsides at the end opposite the faced vertex.
func (f Facing) Rear() [2]Dir { return [2]Dir{Dir(mod6(-1 - int(f))), Dir(mod6(4 - int(f)))} }

// SideAspect says whether hexside d is Front, Flank or Rear for facing f.
func (f Facing) SideAspect(d Dir) Aspect {
	for _, s := range f.Frontal() {
		if s == d {
			return Front
		}
	}
	for _, s := range f.Flank() {
		if s == d {
			return Flank
		}
	}
	return Rear
}

// NeighborAspect is the aspect of the hexside between h and an adjacent
// hex other, for a unit in h facing f.
func (g Grid) NeighborAspect(h Hex, f Facing, other Hex) (Aspect, bool) {
	d, ok := g.DirTo(h, other)
	if !ok {
		return 0, false
	}
	return f.SideAspect(d), true
}

// FrontalHexes are the two hexes in front of a unit in h facing f (its ZOC,
// 7.1), on or off the map.
func (g Grid) FrontalHexes(h Hex, f Facing) [2]Hex {
	fr := f.Frontal()
	return [2]Hex{g.Neighbor(h, fr[0]), g.Neighbor(h, fr[1])}
}

// Approach is how a line from another hex's centre enters a hex: across
// one hexside, or exactly down a hex spine, touching the two hexsides on
// either side of that vertex.
type Approach struct {
	Sides  [2]Dir // equal unless Spine
	Spine  bool
	Vertex Facing // the vertex the line passes through, when Spine
}

// Aspects returns the aspect of each hexside the approach touches, for a
// unit facing f: one for a hexside, two for a spine. The rules decide what a
// spine counts as (9.1: the Flank/Rear spine counts as Rear; 9.3: no spine
// counts as Flank for the Angle of Fire).
func (f Facing) Aspects(a Approach) []Aspect {
	if !a.Spine {
		return []Aspect{f.SideAspect(a.Sides[0])}
	}
	return []Aspect{f.SideAspect(a.Sides[0]), f.SideAspect(a.Sides[1])}
}

// ApproachFrom classifies the line from the centre of from to the centre
// of target, as it enters target. from must differ from target.
func (g Grid) ApproachFrom(target, from Hex) Approach {
	tx, ty := g.frame(target)
	fx, fy := g.frame(from)
	v := point{fx - tx, fy - ty}
	for k := 0; k < 6; k++ {
		s, next := spines[k], spines[(k+1)%6]
		if cross(s, v) == 0 && dot(s, v) > 0 {
			// Down the spine of vertex k, between hexsides 1-k and 2-k.
			return Approach{Sides: [2]Dir{Dir(mod6(1 - k)), Dir(mod6(2 - k))}, Spine: true, Vertex: Facing(k)}
		}
		if cross(s, v) > 0 && cross(v, next) > 0 {
			d := Dir(mod6(1 - k)) // the hexside between vertices k and k+1
			return Approach{Sides: [2]Dir{d, d}}
		}
	}
	return Approach{} // from == target
}
