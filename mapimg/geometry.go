package mapimg

import (
	"math"

	"herald/engine/hex"
)

// layout places hexes on the image: flat-topped columns, odd or even
// columns shifted half a hex down as the grid says.
type layout struct {
	grid   hex.Grid
	size   float64 // centre to vertex, pixels
	origin pt      // centre of the hex at (MinCol, MinRow) when unshifted
	// cols and rows are the drawn window of the grid (all of it, or a crop).
	minCol, maxCol, minRow, maxRow int
}

type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt             { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt             { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) scale(k float64) pt      { return pt{p.X * k, p.Y * k} }
func (p pt) lerp(q pt, t float64) pt { return p.add(q.sub(p).scale(t)) }
func (p pt) len() float64            { return math.Hypot(p.X, p.Y) }

var sqrt3 = math.Sqrt(3)

// shifted reports whether column c sits half a hex lower (hex.Grid).
func (l *layout) shifted(c int) bool {
	odd := c%2 != 0
	return odd == l.grid.OddShifted
}

// centre is the pixel centre of h.
func (l *layout) centre(h hex.Hex) pt {
	x := l.origin.X + 1.5*l.size*float64(h.Col-l.minCol)
	y := l.origin.Y + sqrt3*l.size*float64(h.Row-l.minRow)
	if l.shifted(h.Col) {
		y += sqrt3 / 2 * l.size
	}
	return pt{x, y}
}

// vertex is corner k of h (hex.Facing(k)): 60k degrees counter-clockwise
// from east, with the image's y axis pointing down.
func (l *layout) vertex(h hex.Hex, k int) pt {
	return l.centre(h).add(unit(float64(k) * 60).scale(l.size))
}

// unit is the unit vector at deg degrees counter-clockwise from east.
func unit(deg float64) pt {
	r := deg * math.Pi / 180
	return pt{math.Cos(r), -math.Sin(r)}
}

// corners are the six corners of h, shrunk toward its centre by shrink.
func (l *layout) corners(h hex.Hex, shrink float64) []pt {
	return l.cornersAt(l.centre(h), shrink)
}

// cornersAt are the corners of a hex of the layout's size centred at c.
func (l *layout) cornersAt(c pt, shrink float64) []pt {
	out := make([]pt, 6)
	for k := range out {
		out[k] = c.add(unit(float64(k) * 60).scale(l.size * shrink))
	}
	return out
}

// side is the edge of h across hexside d: hexside N lies between the
// vertices at 120° and 60°, and each next hexside clockwise 60° further.
func (l *layout) side(h hex.Hex, d hex.Dir) (pt, pt) {
	k := (2 - int(d) + 6) % 6
	return l.vertex(h, k), l.vertex(h, (k+5)%6)
}

// width and height of the map window in pixels, without margins.
func (l *layout) extent() (float64, float64) {
	cols := float64(l.maxCol - l.minCol)
	rows := float64(l.maxRow - l.minRow + 1)
	return 1.5*l.size*cols + 2*l.size, sqrt3 * l.size * (rows + 0.5)
}

// inWindow reports whether h is drawn.
func (l *layout) inWindow(h hex.Hex) bool {
	return h.Col >= l.minCol && h.Col <= l.maxCol && h.Row >= l.minRow && h.Row <= l.maxRow
}
