package hex

import (
	"cmp"
	"fmt"
	"slices"
)

// 9.4 Line of Sight: "trace an unblocked LOS from the center of the firing
// hex to the center of the target hex." LOS AND HEXSIDES: "A LOS may be
// traced along a hexside if only one of the hexes tangent to the hexside
// contains blocking terrain."

// The lattice frame. point is a position in a frame where every hex centre
// and every hex corner has integer coordinates:
//
//	X = 3x,  Y = -(x + 2z)        (x, z cube coordinates, Y up = north)
//
// This is the usual flat-topped pixel position (Red Blob Games, "Hex to
// pixel") with the horizontal axis scaled by 2/size and the vertical one by
// 2/(size·√3). A linear map with positive scales keeps straight lines
// straight, keeps which side of a line a point is on, and keeps the order
// of points along a line, so every question a line of sight asks (does the
// segment cross this hexside, touch this corner, run along this edge, which
// comes first) has the same answer here as on the printed map. In this
// frame the six corners of a hex lie at (±2, 0) and (±1, ±1) from its
// centre: the lattice {X+Y even} holds exactly the centres (X divisible
// by 3) and the corners (the other points). Every test is then a sign of an
// integer cross product, and every position along a line a rational
// number compared by cross-multiplication: no floating point, and no
// epsilon nudge as in float line drawing (Red Blob Games, "Line drawing").
// With XXYY ids (columns and rows below 100) the largest product stays
// below 10^10, far inside int64.
type point struct{ X, Y int64 }

func (p point) add(q point) point { return point{p.X + q.X, p.Y + q.Y} }
func (p point) sub(q point) point { return point{p.X - q.X, p.Y - q.Y} }

func cross(a, b point) int64 { return a.X*b.Y - a.Y*b.X }
func dot(a, b point) int64   { return a.X*b.X + a.Y*b.Y }

// spines are the vectors from a hex centre to its six corners in the
// frame, counter-clockwise from the east vertex: spines[k] points at the
// vertex Facing(k). The edge from corner k to corner k+1 is hexside 1-k.
var spines = [6]point{{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}}

// frame is the centre of h in the lattice frame.
func (g Grid) frame(h Hex) point {
	x, z := g.cube(h)
	return point{int64(3 * x), int64(-(x + 2*z))}
}

// StepKind says how a line of sight meets the hexes of one LineStep.
type StepKind int

// The three ways a line meets a hex it does not start or end in.
const (
	// Through: the line crosses the hex's interior.
	Through StepKind = iota
	// Along: the line runs exactly along the hexside between two hexes,
	// touching both and entering neither (9.4 LOS AND HEXSIDES). A line
	// does so when it runs down a spine of a hex it leaves or enters.
	Along
	// Corner: the line touches one corner of the hex and nothing else of
	// it, passing at that vertex from the hex of the step before straight
	// into the hex of the step after (both Through).
	Corner
)

var stepNames = [3]string{"through", "along", "corner"}

func (k StepKind) String() string {
	if k < 0 || k > 2 {
		return fmt.Sprintf("StepKind(%d)", int(k))
	}
	return stepNames[k]
}

// LineStep is what a line meets, between its ends, in one place: one hex
// (Through, Corner) or the pair of hexes sharing a hexside (Along). It is
// comparable.
type LineStep struct {
	Kind StepKind
	// Hex is the hex; for Along the first hex of the pair by id (column,
	// then row), whichever way the line runs.
	Hex Hex
	// Other is the second hex of an Along pair; the zero Hex otherwise.
	Other Hex
}

// Hexes lists the one or two hexes of the step.
func (s LineStep) Hexes() []Hex {
	if s.Kind == Along {
		return []Hex{s.Hex, s.Other}
	}
	return []Hex{s.Hex}
}

// String writes "1009" (through), "1009|1109" (along the hexside between)
// or "(1108)" (a corner only).
func (s LineStep) String() string {
	switch s.Kind {
	case Along:
		return s.Hex.String() + "|" + s.Other.String()
	case Corner:
		return "(" + s.Hex.String() + ")"
	}
	return s.Hex.String()
}

// frac is the rational number num/den, den > 0.
type frac struct{ num, den int64 }

func (a frac) cmp(b frac) int { return cmp.Compare(a.num*b.den, b.num*a.den) }

// Line is what the line from the centre of from to the centre of to meets
// strictly between them, in order from from:
//
//   - Through a hex whose interior it crosses;
//   - Along a pair of hexes when it runs exactly along their common
//     hexside (where 9.4 blocks it only if both hexes block);
//   - Corner a hex it touches at one vertex only. At such a vertex the
//     line passes from one Through hex directly into the next; the Corner
//     hex is on one side of it and the edge those two share on the other.
//     Read like a hexside, 9.4 lets such a hex block only if the hexes on
//     the other side do, which are the Through steps around it: a Corner
//     hex alone never blocks (an interpretation; the book is silent).
//
// A line through a vertex is thus always reported once and one way: along
// a hexside (the vertex ends it), or as a Corner between two Through
// steps. The end hexes are never included, the same hex or adjacent hexes
// give no steps, and Line(to, from) is Line(from, to) reversed. Hexes are
// reported whether or not they are on the map; the caller decides what an
// off-map hex means.
func (g Grid) Line(from, to Hex) []LineStep {
	a, b := g.frame(from), g.frame(to)
	dv := b.sub(a)
	type found struct {
		lo, hi frac // contact interval, as fractions of the way from a to b
		step   LineStep
	}
	var fs []found
	// Candidates: every hex whose centre is within (2, 1), the reach of
	// its corners, of the segment's bounding box.
	minX, maxX := min(a.X, b.X)-2, max(a.X, b.X)+2
	minY, maxY := min(a.Y, b.Y)-1, max(a.Y, b.Y)+1
	for x := floorDiv(minX, 3); 3*x <= maxX; x++ {
		// Y = -(x + 2z) in [minY, maxY] ⇔ z in [(-maxY-x)/2, (-minY-x)/2].
		for z := -floorDiv(maxY+x, 2); -(x + 2*z) >= minY; z++ {
			c := g.fromCube(int(x), int(z))
			if c == from || c == to {
				continue
			}
			lo, hi, edge, ok := clip(a, dv, g.frame(c))
			if !ok {
				continue
			}
			switch {
			case edge >= 0:
				other := g.Neighbor(c, Dir(mod6(1-edge)))
				first, second := c, other
				if cmpHex(other, c) < 0 {
					first, second = other, c
				}
				fs = append(fs, found{lo, hi, LineStep{Kind: Along, Hex: first, Other: second}})
			case lo.cmp(hi) < 0:
				fs = append(fs, found{lo, hi, LineStep{Kind: Through, Hex: c}})
			default:
				fs = append(fs, found{lo, hi, LineStep{Kind: Corner, Hex: c}})
			}
		}
	}
	// Contacts never overlap except for the two hexes of an Along pair,
	// which give the same step: ordering by the start of the contact, then
	// its end (a Corner before the Through hex starting at that vertex),
	// is the order along the line, and the reverse line's order reversed.
	slices.SortFunc(fs, func(p, q found) int {
		return cmp.Or(p.lo.cmp(q.lo), p.hi.cmp(q.hi), cmp.Compare(p.step.Kind, q.step.Kind),
			cmpHex(p.step.Hex, q.step.Hex), cmpHex(p.step.Other, q.step.Other))
	})
	var out []LineStep
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1] == f.step {
			continue // the second hex of an Along pair
		}
		out = append(out, f.step)
	}
	return out
}

// clip intersects the closed segment a + t·dv, t in [0, 1], with the
// closed hex centred at c. It returns the interval [lo, hi] of t where they
// meet, and the index k of the hex edge (from corner k to corner k+1) the
// segment runs along for more than a point, or -1.
func clip(a, dv, c point) (lo, hi frac, edge int, ok bool) {
	lo, hi, edge = frac{0, 1}, frac{1, 1}, -1
	for k := 0; k < 6; k++ {
		v := c.add(spines[k])
		e := spines[(k+1)%6].sub(spines[k])
		// The hex is to the left of each counter-clockwise edge:
		// cross(e, a + t·dv - v) = p + t·q >= 0.
		p, q := cross(e, a.sub(v)), cross(e, dv)
		switch {
		case q == 0 && p < 0:
			return lo, hi, -1, false // parallel, outside
		case q == 0 && p == 0:
			edge = k // on the edge's line
		case q > 0: // t >= -p/q
			if b := (frac{-p, q}); lo.cmp(b) < 0 {
				lo = b
			}
		default: // t <= p/-q
			if b := (frac{p, -q}); b.cmp(hi) < 0 {
				hi = b
			}
		}
	}
	if hi.cmp(lo) < 0 {
		return lo, hi, -1, false
	}
	if lo.cmp(hi) == 0 {
		edge = -1 // only one point, a corner, of that edge
	}
	return lo, hi, edge, true
}

func cmpHex(a, b Hex) int { return cmp.Or(cmp.Compare(a.Col, b.Col), cmp.Compare(a.Row, b.Row)) }

// floorDiv is a/b rounded down, b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
