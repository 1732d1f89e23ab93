package table

import "fmt"

// Terrain is the kind of ground of an area. The fragment names open
// ground, obstacle terrain, higher elevation and gentle slopes (COMBAT
// TABLE; WEAPON OF CHOICE "only in open terrain and on gentle slopes").
type Terrain string

const (
	Open         Terrain = "open"
	Obstacle     Terrain = "obstacle"
	HigherGround Terrain = "higher"
	GentleSlope  Terrain = "slope"
)

// Area is one terrain area: a simple polygon of one kind of ground.
type Area struct {
	Name    string
	Terrain Terrain
	Shape   Polygon
}

// Table is the playing surface: Width × Height inches, open ground except
// for its areas.
type Table struct {
	Width, Height float64
	Areas         []Area
}

// Check reports a table the geometry cannot use.
func (t Table) Check() error {
	if !(t.Width > 0) || !(t.Height > 0) {
		return fmt.Errorf("the table needs a width and a height over 0, not %g×%g", t.Width, t.Height)
	}
	for _, a := range t.Areas {
		switch a.Terrain {
		case Open, Obstacle, HigherGround, GentleSlope:
		default:
			return fmt.Errorf("area %q: terrain %q is not open, obstacle, higher or slope", a.Name, a.Terrain)
		}
		if len(a.Shape) < 3 {
			return fmt.Errorf("area %q needs at least 3 corners, not %d", a.Name, len(a.Shape))
		}
	}
	return nil
}

// OnTable reports whether p is on the table, edges included.
func (t Table) OnTable(p Vec) bool {
	return p.X >= -Eps && p.Y >= -Eps && p.X <= t.Width+Eps && p.Y <= t.Height+Eps
}

// TerrainAt is the ground at p: the last listed area that contains it
// (so a hill's wood, listed after the hill, is obstacle), or Open.
func (t Table) TerrainAt(p Vec) Terrain {
	ground := Open
	for _, a := range t.Areas {
		if a.Shape.Contains(p) {
			ground = a.Terrain
		}
	}
	return ground
}

// AllOpen reports whether a footprint touches no area other than open
// ground: the fragment's "totally in the open" (COMBAT TABLE). A footprint
// that merely touches an obstacle's edge is not totally in the open (R508).
func (t Table) AllOpen(p Polygon) bool {
	for _, a := range t.Areas {
		if a.Terrain != Open && Meets(p, a.Shape) {
			return false
		}
	}
	return true
}

// Meets reports whether two simple polygons (convex or not) share a point:
// an edge of one crosses or touches an edge of the other, or one lies
// inside the other.
func Meets(a, b Polygon) bool {
	if a.Contains(b[0]) || b.Contains(a[0]) {
		return true
	}
	for i := range a {
		for j := range b {
			if segsMeet(a[i], a[(i+1)%len(a)], b[j], b[(j+1)%len(b)]) {
				return true
			}
		}
	}
	return false
}

// segsMeet reports whether segments pq and rs share a point.
func segsMeet(p, q, r, s Vec) bool {
	d1 := q.Sub(p).Cross(r.Sub(p))
	d2 := q.Sub(p).Cross(s.Sub(p))
	d3 := s.Sub(r).Cross(p.Sub(r))
	d4 := s.Sub(r).Cross(q.Sub(r))
	if ((d1 > Eps && d2 < -Eps) || (d1 < -Eps && d2 > Eps)) &&
		((d3 > Eps && d4 < -Eps) || (d3 < -Eps && d4 > Eps)) {
		return true
	}
	return segDist(r, p, q) <= Eps || segDist(s, p, q) <= Eps ||
		segDist(p, r, s) <= Eps || segDist(q, r, s) <= Eps
}

// FoeHigherOrObstacle reports the COMBAT TABLE's "Foe is on higher
// elevation or is in obstacle terrain" for a stand me against a stand foe:
// the ground under the foe's centre is obstacle, or it is higher ground
// and the ground under mine is not. A gentle slope is not higher
// elevation (R536).
func (t Table) FoeHigherOrObstacle(me, foe Polygon) bool {
	f := t.TerrainAt(Centre(foe))
	return f == Obstacle || (f == HigherGround && t.TerrainAt(Centre(me)) != HigherGround)
}
