package hex

import (
	"fmt"
	"strings"
)

// 6.1 Facing: "A unit must be faced so that the top of the unit faces one
// of the hex's vertices, not the side of the hex. [...] The two hexes to
// each side of the vertex the unit is facing are Frontal; the two at the
// other end, the Rear; the side, Flank."

// Facing is the vertex of its hex a unit faces. The six vertices of a
// flat-topped hex point at 0°, 60°, ... 300° (east, then counter-clockwise),
// and the values run in that order, so Facing(k) is the vertex at 60k°.
type Facing int

// The six vertices, counter-clockwise from east. A player writes them as
// E, NE, NW, W, SW, SE (any case).
const (
	FaceE  Facing = iota // 0°, between hexsides NE and SE
	FaceNE               // 60°, between hexsides N and NE
	FaceNW               // 120°, between hexsides NW and N
	FaceW                // 180°, between hexsides SW and NW
	FaceSW               // 240°, between hexsides S and SW
	FaceSE               // 300°, between hexsides SE and S
)

var facingNames = [6]string{"E", "NE", "NW", "W", "SW", "SE"}

func (f Facing) String() string {
	if f < 0 || f > 5 {
		return fmt.Sprintf("Facing(%d)", int(f))
	}
	return facingNames[f]
}

// ParseFacing reads a facing name in any case ("ne", "W"), surrounding
// spaces ignored.
func ParseFacing(s string) (Facing, error) {
	t := strings.TrimSpace(s)
	for i, n := range facingNames {
		if strings.EqualFold(n, t) {
			return Facing(i), nil
		}
	}
	return 0, fmt.Errorf("facing %q: %w", s, ErrFacing)
}

// MarshalText writes the facing's name.
func (f Facing) MarshalText() ([]byte, error) {
	if f < 0 || f > 5 {
		return nil, fmt.Errorf("%v is not a facing", f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads a facing's name.
func (f *Facing) UnmarshalText(b []byte) error {
	p, err := ParseFacing(string(b))
	if err != nil {
		return err
	}
	*f = p
	return nil
}

// Turn rotates the facing by steps vertices: counter-clockwise for positive
// steps (E → NE), clockwise for negative ones (E → SE).
func (f Facing) Turn(steps int) Facing { return Facing(mod6(int(f) + steps)) }

// Opposite is the vertex at the other end of the hex (E ↔ W).
func (f Facing) Opposite() Facing { return f.Turn(3) }

// VertexSteps is how many vertices apart two facings are, 0 to 3, the
// shorter way round (6.2: in an enemy ZOC a unit "may only change facing one
// vertex").
func VertexSteps(a, b Facing) int {
	d := mod6(int(b) - int(a))
	return min(d, 6-d)
}

// Aspect is how a hexside, or the neighbour across it, stands to a unit's
// facing (6.1).
type Aspect int

// The three aspects.
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

// Vertex k (at 60k°) lies between the hexsides whose outward normals point
// at 60k+30° and 60k-30°; hexside d's normal points at 90-60d°. Solving
// gives hexsides 1-k and 2-k (mod 6) beside vertex k, and the index
// arithmetic below. Every pair is [left, right] as the unit sees it,
// looking towards its faced vertex; Flank()[0] is the left flank.

// Frontal are the two hexsides beside the faced vertex, [left, right].
func (f Facing) Frontal() [2]Dir { return [2]Dir{Dir(mod6(1 - int(f))), Dir(mod6(2 - int(f)))} }

// Flank are the two side hexsides, [left, right].
func (f Facing) Flank() [2]Dir { return [2]Dir{Dir(mod6(-int(f))), Dir(mod6(3 - int(f)))} }

// Rear are the two hexsides at the end opposite the faced vertex, [left,
// right].
func (f Facing) Rear() [2]Dir { return [2]Dir{Dir(mod6(-1 - int(f))), Dir(mod6(4 - int(f)))} }

// SideAspect says whether hexside d is Front, Flank or Rear for a unit
// facing f.
func (f Facing) SideAspect(d Dir) Aspect {
	// Hexside 1-f and 2-f are Front; the rest follow round the hex in
	// pairs: Flank, Rear, Rear, Flank.
	return [6]Aspect{Front, Front, Flank, Rear, Rear, Flank}[mod6(int(d)+int(f)-1)]
}

// NeighborAspect is the aspect of the hex other, adjacent to h, for a
// unit in h facing f; ok is false when other is not adjacent to h.
func (g Grid) NeighborAspect(h Hex, f Facing, other Hex) (a Aspect, ok bool) {
	d, ok := g.DirTo(h, other)
	if !ok {
		return 0, false
	}
	return f.SideAspect(d), true
}

// FrontalHexes are the two hexes in front of a unit in h facing f,
// [left, right] (6.1; its ZOC, 7.0), on or off the map.
func (g Grid) FrontalHexes(h Hex, f Facing) [2]Hex {
	fr := f.Frontal()
	return [2]Hex{g.Neighbor(h, fr[0]), g.Neighbor(h, fr[1])}
}

// FacingToward is the facing in h whose two frontal hexes are, together,
// nearest foe: the way a unit turns to face an enemy.
func (g Grid) FacingToward(h, foe Hex) Facing {
	best, score := FaceE, 1<<30
	for f := FaceE; f <= FaceSE; f++ {
		fr := g.FrontalHexes(h, f)
		if s := g.Distance(fr[0], foe) + g.Distance(fr[1], foe); s < score {
			best, score = f, s
		}
	}
	return best
}

// Approach is how the line from the centre of another hex reaches a hex:
// across one hexside, or exactly through a vertex, "down a hex spine" (9.1),
// touching the two hexsides on either side of that vertex.
type Approach struct {
	// Sides are the hexsides the line touches: the same one twice across a
	// hexside, the two beside Vertex, in clockwise order, down a spine.
	Sides [2]Dir
	// Spine is set when the line passes exactly through Vertex.
	Spine bool
	// Vertex is the vertex the line passes through when Spine, else 0.
	Vertex Facing
}

func (a Approach) String() string {
	if a.Spine {
		return fmt.Sprintf("spine %v (%v/%v)", a.Vertex, a.Sides[0], a.Sides[1])
	}
	return fmt.Sprintf("hexside %v", a.Sides[0])
}

// ApproachFrom classifies the line from the centre of from to the centre
// of target where it crosses target's edge. A line is the same traced
// either way, so ApproachFrom(firer, target) is also where a line of fire
// leaves the firer's hex (fire arcs, 9.1). from must differ from target;
// for the same hex the result is the zero Approach and means nothing.
//
// Exact: the direction from the target's centre is compared with its six
// spines by integer cross products in the lattice frame of line.go.
func (g Grid) ApproachFrom(target, from Hex) Approach {
	v := g.frame(from).sub(g.frame(target))
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
	return Approach{}
}

// Angle is an Approach seen by a unit facing some vertex: across which
// kind of hexside the line comes, or down which kind of spine. It is the
// raw geometry; the rules decide what a spine counts as (see FireAspect).
type Angle int

// The seven angles. Each spine is named after the two hexsides it divides.
const (
	SideFront       Angle = iota // across a Frontal hexside
	SideFlank                    // across a Flank hexside
	SideRear                     // across a Rear hexside
	SpineFront                   // down the spine of the faced vertex, between the two Frontal hexsides
	SpineFrontFlank              // down a spine between a Frontal and a Flank hexside
	SpineFlankRear               // down a spine between a Flank and a Rear hexside
	SpineRear                    // down the spine opposite the faced vertex, between the two Rear hexsides
)

var angleNames = [7]string{"Front", "Flank", "Rear", "Front spine", "Front/Flank spine", "Flank/Rear spine", "Rear spine"}

func (a Angle) String() string {
	if a < 0 || a > 6 {
		return fmt.Sprintf("Angle(%d)", int(a))
	}
	return angleNames[a]
}

// ApproachAspect is the Angle of approach a for a unit facing f.
func (f Facing) ApproachAspect(a Approach) Angle {
	if !a.Spine {
		return Angle(f.SideAspect(a.Sides[0])) // SideFront, SideFlank, SideRear
	}
	return SpineFront + Angle(VertexSteps(f, a.Vertex))
}

// Spine reports whether the line runs down a hex spine.
func (a Angle) Spine() bool { return a >= SpineFront }

// Aspects are the aspects of the hexsides the line touches: the same one
// twice across a hexside, the two beside the vertex down a spine (Front
// before Flank before Rear).
func (a Angle) Aspects() [2]Aspect {
	switch a {
	case SpineFront:
		return [2]Aspect{Front, Front}
	case SpineFrontFlank:
		return [2]Aspect{Front, Flank}
	case SpineFlankRear:
		return [2]Aspect{Flank, Rear}
	case SpineRear:
		return [2]Aspect{Rear, Rear}
	}
	return [2]Aspect{Aspect(a), Aspect(a)}
}

// FireAspect is what a line of fire or sight counts as, spines resolved:
//
//   - 9.1: a LOS "down a hex spine between Flank and Rear counts as Rear"
//     (a missile unit may not fire, nor Return Fire, down it);
//   - 9.3: "Fire that passes down a hex spine does not count as Flank", so
//     the Front/Flank spine is Front, as B&R and Arquebus 11.1 say outright;
//   - the Front and Rear spines touch only Front, or only Rear, hexsides.
//
// Hence a spine is never Flank, and the 9.3 Angle of Fire bonus applies
// exactly when FireAspect is Flank.
func (a Angle) FireAspect() Aspect {
	switch a {
	case SpineFront, SpineFrontFlank:
		return Front
	case SpineFlankRear, SpineRear:
		return Rear
	}
	return Aspect(a)
}
