package table

import "math"

// Eps is the tolerance of every comparison of lengths, in inches: far below
// anything a player measures, far above float rounding on a table of a few
// hundred inches.
const Eps = 1e-9

// Vec is a point or a displacement on the table, in inches.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec                { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec                { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(k float64) Vec          { return Vec{a.X * k, a.Y * k} }
func (a Vec) Dot(b Vec) float64            { return a.X*b.X + a.Y*b.Y }
func (a Vec) Cross(b Vec) float64          { return a.X*b.Y - a.Y*b.X }
func (a Vec) Len() float64                 { return math.Hypot(a.X, a.Y) }
func (a Vec) Dist(b Vec) float64           { return a.Sub(b).Len() }
func (a Vec) Near(b Vec, tol float64) bool { return a.Dist(b) <= tol }

// Heading is the unit vector of a compass bearing in degrees (0 = +y,
// 90 = +x). Multiples of 90° are exact, so that tests of square
// layouts compare without rounding.
func Heading(deg float64) Vec {
	d := math.Mod(deg, 360)
	if d < 0 {
		d += 360
	}
	switch d {
	case 0:
		return Vec{0, 1}
	case 90:
		return Vec{1, 0}
	case 180:
		return Vec{0, -1}
	case 270:
		return Vec{-1, 0}
	}
	r := d * math.Pi / 180
	return Vec{math.Sin(r), math.Cos(r)}
}

// Polygon is a closed convex polygon, its corners in order (either way
// round). Stands are rectangles; terrain areas may be any simple polygon
// (see Area), but the distance functions need convex ones.
type Polygon []Vec

// segDist is the distance from p to the segment ab.
func segDist(p, a, b Vec) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Dist(a)
	}
	t := p.Sub(a).Dot(ab) / l2
	t = math.Max(0, math.Min(1, t))
	return p.Dist(a.Add(ab.Scale(t)))
}

// Intersects reports whether two convex polygons share any point, touching
// included: by the separating axis theorem, they are apart exactly when
// some edge direction of one of them separates them by more than Eps.
func Intersects(a, b Polygon) bool {
	return !separated(a, b) && !separated(b, a)
}

// separated reports whether an edge normal of a separates a from b.
func separated(a, b Polygon) bool {
	for i := range a {
		e := a[(i+1)%len(a)].Sub(a[i])
		n := Vec{-e.Y, e.X}
		l := n.Len()
		if l == 0 {
			continue
		}
		n = n.Scale(1 / l)
		amin, amax := project(a, n)
		bmin, bmax := project(b, n)
		if bmin > amax+Eps || amin > bmax+Eps {
			return true
		}
	}
	return false
}

func project(p Polygon, n Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range p {
		d := v.Dot(n)
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// Distance is the distance between the closest points of two convex
// polygons: 0 when they touch or overlap, otherwise the least distance
// from a corner of one to an edge of the other (for apart convex shapes
// the closest pair always includes a corner).
func Distance(a, b Polygon) float64 {
	if Intersects(a, b) {
		return 0
	}
	return math.Min(cornerToEdges(a, b), cornerToEdges(b, a))
}

func cornerToEdges(a, b Polygon) float64 {
	best := math.Inf(1)
	for _, p := range a {
		for i := range b {
			best = math.Min(best, segDist(p, b[i], b[(i+1)%len(b)]))
		}
	}
	return best
}

// Contains reports whether p lies inside or on the edge of a simple
// polygon (convex or not), by the even-odd rule with the boundary counted
// inside.
func (poly Polygon) Contains(p Vec) bool {
	n := len(poly)
	in := false
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		a, b := poly[j], poly[i]
		if segDist(p, a, b) <= Eps {
			return true
		}
		if (a.Y > p.Y) != (b.Y > p.Y) {
			x := a.X + (p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if p.X < x {
				in = !in
			}
		}
	}
	return in
}
