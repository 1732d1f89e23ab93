package hex

import "sort"

// 9.4 Line of Sight: traced from the centre of the firing hex to the centre
// of the target hex.

// point is a position in the frame used for lines: X = 3x and
// Y = -(2z + x) in cube coordinates, north up. It is a linear image of the
// plane (x scaled by 2/r, y by 2/(r√3) for a hex of circumradius r), so it
// keeps incidence and betweenness, and in it every hex centre and every hex
// corner has integer coordinates: all tests below are exact integer cross
// products, with no floating point and no epsilon nudge.
type point struct{ X, Y int64 }

// spines are the vectors from a hex centre to its six corners, counter-
// clockwise from the east vertex, in the frame: vertex k is Facing(k).
var spines = [6]point{{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}}

func (g Grid) frame(h Hex) (int64, int64) {
	x, z := g.cube(h)
	return int64(3 * x), int64(-(2*z + x))
}

func cross(a, b point) int64 { return a.X*b.Y - a.Y*b.X }
func dot(a, b point) int64   { return a.X*b.X + a.Y*b.Y }

// StepKind says how a line meets a hex.
type StepKind int

const (
	// Through: the line crosses the hex's interior.
	Through StepKind = iota
	// Along: the line runs exactly along the hexside between two hexes,
	// touching both but entering neither (9.4 LOS AND HEXSIDES).
	Along
	// Corner: the line only touches one corner of the hex.
	Corner
)

var stepNames = [3]string{"through", "along", "corner"}

func (k StepKind) String() string { return stepNames[k] }

// LineStep is one hex (Through, Corner) or one pair of hexes sharing a
// hexside (Along) met by a line.
type LineStep struct {
	Kind  StepKind
	Hexes []Hex
}

// frac is a rational number num/den with den > 0.
type frac struct{ num, den int64 }

func (a frac) less(b frac) bool { return a.num*b.den < b.num*a.den }
func (a frac) add(b frac) frac  { return frac{a.num*b.den + b.num*a.den, a.den * b.den} }

// Line lists what the line from the centre of from to the centre of to
// meets between them, in order from from: hexes whose interior it crosses,
// pairs of hexes along whose common hexside it runs, and hexes it touches at
// a corner only. The end hexes are not included; adjacent hexes give an
// empty line. Hexes are reported whether or not they are on the map.
func (g Grid) Line(from, to Hex) []LineStep {
	ax, ay := g.frame(from)
	bx, by := g.frame(to)
	a, dv := point{ax, ay}, point{bx - ax, by - ay}
	n := g.Distance(from, to)
	// Steps are ordered by the midpoint of their contact with the line
	// (at holds twice it), which a reversed line reverses exactly.
	type keyed struct {
		at   frac
		step LineStep
	}
	var found []keyed
	seenAlong := map[[2]Hex]bool{}
	for _, c := range g.band(from, to, n) {
		if c == from || c == to {
			continue
		}
		cx, cy := g.frame(c)
		lo, hi, edge, ok := clip(a, dv, point{cx, cy})
		if !ok {
			continue
		}
		switch {
		case edge >= 0:
			other := g.Neighbor(c, Dir(mod6(1-edge)))
			pair := [2]Hex{c, other}
			if less(other, c) {
				pair = [2]Hex{other, c}
			}
			if !seenAlong[pair] {
				seenAlong[pair] = true
				found = append(found, keyed{lo.add(hi), LineStep{Kind: Along, Hexes: pair[:]}})
			}
		case lo.less(hi):
			found = append(found, keyed{lo.add(hi), LineStep{Kind: Through, Hexes: []Hex{c}}})
		default:
			found = append(found, keyed{lo.add(hi), LineStep{Kind: Corner, Hexes: []Hex{c}}})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		fi, fj := found[i], found[j]
		if fi.at.less(fj.at) || fj.at.less(fi.at) {
			return fi.at.less(fj.at)
		}
		if fi.step.Kind != fj.step.Kind {
			return fi.step.Kind < fj.step.Kind
		}
		return less(fi.step.Hexes[0], fj.step.Hexes[0])
	})
	out := make([]LineStep, len(found))
	for i, f := range found {
		out[i] = f.step
	}
	return out
}

// clip intersects the segment a + t·dv, t in [0, 1], with the closed hex
// centred at c. It returns the parameter interval [lo, hi] of contact, and
// the index of the hex edge (between corners k and k+1) the segment runs
// along, or -1.
func clip(a, dv, c point) (lo, hi frac, edge int, ok bool) {
	lo, hi, edge = frac{0, 1}, frac{1, 1}, -1
	for k := 0; k < 6; k++ {
		v := point{c.X + spines[k].X, c.Y + spines[k].Y}
		w := point{c.X + spines[(k+1)%6].X, c.Y + spines[(k+1)%6].Y}
		e := point{w.X - v.X, w.Y - v.Y}
		// Inside is to the left of each counter-clockwise edge:
		// cross(e, a + t·dv - v) = p + t·q >= 0.
		p, q := cross(e, point{a.X - v.X, a.Y - v.Y}), cross(e, dv)
		switch {
		case q == 0 && p < 0:
			return lo, hi, -1, false
		case q == 0 && p == 0:
			edge = k
		case q > 0: // t >= -p/q
			if b := (frac{-p, q}); lo.less(b) {
				lo = b
			}
		case q < 0: // t <= p/-q
			if b := (frac{p, -q}); b.less(hi) {
				hi = b
			}
		}
	}
	if hi.less(lo) {
		return lo, hi, -1, false
	}
	if edge >= 0 && !lo.less(hi) {
		edge = -1 // only a corner of that edge is touched
	}
	return lo, hi, edge, true
}

// band lists the hexes that can meet the line from a to b: those whose
// distances to both ends add up to at most n+2.
func (g Grid) band(a, b Hex, n int) []Hex {
	var out []Hex
	for c := min(a.Col, b.Col) - 1; c <= max(a.Col, b.Col)+1; c++ {
		for r := min(a.Row, b.Row) - n - 2; r <= max(a.Row, b.Row)+n+2; r++ {
			h := Hex{Col: c, Row: r}
			if g.Distance(a, h)+g.Distance(h, b) <= n+2 {
				out = append(out, h)
			}
		}
	}
	return out
}

func less(a, b Hex) bool {
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return a.Row < b.Row
}
