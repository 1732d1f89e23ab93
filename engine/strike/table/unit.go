package table

import "fmt"

// Unit is the footprint of one unit on the table: Files × Ranks stands of
// StandWidth (frontage) × StandDepth inches, in a close block, facing
// Facing degrees, the centre of its front edge at Pos.
type Unit struct {
	Pos        Vec
	Facing     float64
	Files      int
	Ranks      int
	StandWidth float64
	StandDepth float64
}

// Stand names one stand of a unit: its file from the unit's left (0 first)
// and its rank from the front (0 first).
type Stand struct{ File, Rank int }

func (s Stand) String() string { return fmt.Sprintf("file %d rank %d", s.File+1, s.Rank+1) }

// Check reports a footprint the geometry cannot use.
func (u Unit) Check() error {
	switch {
	case u.Files < 1 || u.Ranks < 1:
		return fmt.Errorf("a unit needs at least one file and one rank, not %d×%d", u.Files, u.Ranks)
	case !(u.StandWidth > 0) || !(u.StandDepth > 0):
		return fmt.Errorf("a stand needs a frontage and a depth over 0, not %g×%g", u.StandWidth, u.StandDepth)
	}
	return nil
}

// Forward is the unit's facing as a unit vector; Right is a quarter turn
// clockwise from it, towards the unit's right flank.
func (u Unit) Forward() Vec { return Heading(u.Facing) }
func (u Unit) Right() Vec   { return Heading(u.Facing + 90) }

// Frontage and Depth are the unit's width and depth in inches.
func (u Unit) Frontage() float64 { return float64(u.Files) * u.StandWidth }
func (u Unit) Depth() float64    { return float64(u.Ranks) * u.StandDepth }

// Local turns a table point into the unit's frame: X to the right of the
// centre of the front edge, Y forward of the front edge (negative inside
// the unit).
func (u Unit) Local(p Vec) Vec {
	d := p.Sub(u.Pos)
	return Vec{d.Dot(u.Right()), d.Dot(u.Forward())}
}

// World is the inverse of Local.
func (u Unit) World(l Vec) Vec {
	return u.Pos.Add(u.Right().Scale(l.X)).Add(u.Forward().Scale(l.Y))
}

// rect is the rectangle between local x0..x1 and y0..y1 (y1 > y0) as a
// polygon on the table, corners front-left, front-right, back-right,
// back-left.
func (u Unit) rect(x0, x1, y0, y1 float64) Polygon {
	return Polygon{u.World(Vec{x0, y1}), u.World(Vec{x1, y1}), u.World(Vec{x1, y0}), u.World(Vec{x0, y0})}
}

// Outline is the whole unit.
func (u Unit) Outline() Polygon {
	w := u.Frontage() / 2
	return u.rect(-w, w, -u.Depth(), 0)
}

// StandPoly is one stand's rectangle, corners front-left, front-right,
// back-right, back-left.
func (u Unit) StandPoly(s Stand) Polygon {
	x0 := -u.Frontage()/2 + float64(s.File)*u.StandWidth
	y1 := -float64(s.Rank) * u.StandDepth
	return u.rect(x0, x0+u.StandWidth, y1-u.StandDepth, y1)
}

// Stands lists every stand, front rank first, left to right.
func (u Unit) Stands() []Stand {
	var out []Stand
	for r := 0; r < u.Ranks; r++ {
		for f := 0; f < u.Files; f++ {
			out = append(out, Stand{f, r})
		}
	}
	return out
}

// StandDistance is the distance between the closest points of two stands
// (ARC OF FIRE: "from the closest point of the firing stand to the closest
// point of the target").
func StandDistance(a Unit, sa Stand, b Unit, sb Stand) float64 {
	return Distance(a.StandPoly(sa), b.StandPoly(sb))
}

// UnitDistance is the distance between the closest points of two units.
func UnitDistance(a, b Unit) float64 { return Distance(a.Outline(), b.Outline()) }
