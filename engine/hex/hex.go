package hex

import (
	"errors"
	"fmt"
)

// Hex is one hex of a map, by column and row: 3420 is column 34, row 20.
// It is a small comparable value, usable as a map key.
type Hex struct{ Col, Row int }

// Parse reads a four-digit XXYY hex id.
func Parse(s string) (Hex, error) {
	if len(s) != 4 {
		return Hex{}, fmt.Errorf("hex %q: want four digits XXYY (column, row)", s)
	}
	var n [4]int
	for i := 0; i < 4; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return Hex{}, fmt.Errorf("hex %q: %q is not a digit; want four digits XXYY (column, row)", s, c)
		}
		n[i] = int(c - '0')
	}
	return Hex{Col: n[0]*10 + n[1], Row: n[2]*10 + n[3]}, nil
}

// String prints the XXYY id, zero-padded.
func (h Hex) String() string { return fmt.Sprintf("%02d%02d", h.Col, h.Row) }

// MarshalText writes the XXYY id, so hexes read well in JSON.
func (h Hex) MarshalText() ([]byte, error) {
	if h.Col < 0 || h.Col > 99 || h.Row < 0 || h.Row > 99 {
		return nil, fmt.Errorf("hex (%d,%d) has no XXYY id", h.Col, h.Row)
	}
	return []byte(h.String()), nil
}

// UnmarshalText reads an XXYY id.
func (h *Hex) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*h = p
	return nil
}

// Grid is a map's hex grid: its bounds and which columns are shifted.
type Grid struct {
	MinCol, MaxCol, MinRow, MaxRow int
	// OddShifted: odd columns are half a hex lower than even ones.
	// Otherwise even columns are.
	OddShifted bool
}

// Contains reports whether h is on the map.
func (g Grid) Contains(h Hex) bool {
	return h.Col >= g.MinCol && h.Col <= g.MaxCol && h.Row >= g.MinRow && h.Row <= g.MaxRow
}

// Dir is one of the six hexside directions, clockwise from north.
type Dir int

const (
	N Dir = iota
	NE
	SE
	S
	SW
	NW
)

var dirNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

func (d Dir) String() string {
	if d < 0 || d > 5 {
		return fmt.Sprintf("Dir(%d)", int(d))
	}
	return dirNames[d]
}

// Opposite is the direction pointing back.
func (d Dir) Opposite() Dir { return (d + 3) % 6 }

// cube deltas (dx, dz) per direction; dy = -dx-dz.
var dirDelta = [6][2]int{N: {0, -1}, NE: {1, -1}, SE: {1, 0}, S: {0, 1}, SW: {-1, 1}, NW: {-1, 0}}

// cube returns the cube coordinates x and z of h (y = -x-z).
func (g Grid) cube(h Hex) (x, z int) {
	x = h.Col
	if g.OddShifted {
		return x, h.Row - (x-(x&1))/2
	}
	return x, h.Row - (x+(x&1))/2
}

// fromCube is the inverse of cube.
func (g Grid) fromCube(x, z int) Hex {
	if g.OddShifted {
		return Hex{Col: x, Row: z + (x-(x&1))/2}
	}
	return Hex{Col: x, Row: z + (x+(x&1))/2}
}

// Neighbor is the hex across hexside d of h; it may be off the map.
func (g Grid) Neighbor(h Hex, d Dir) Hex {
	x, z := g.cube(h)
	return g.fromCube(x+dirDelta[d][0], z+dirDelta[d][1])
}

// Neighbors are h's neighbours on the map, in direction order.
func (g Grid) Neighbors(h Hex) []Hex {
	var out []Hex
	for d := N; d <= NW; d++ {
		if n := g.Neighbor(h, d); g.Contains(n) {
			out = append(out, n)
		}
	}
	return out
}

// DirTo is the direction from a hex to an adjacent one.
func (g Grid) DirTo(from, to Hex) (Dir, bool) {
	for d := N; d <= NW; d++ {
		if g.Neighbor(from, d) == to {
			return d, true
		}
	}
	return 0, false
}

// Distance counts hexes from a to b, counting b but not a (9.1: "You count
// the target hex, but not the firing hex").
func (g Grid) Distance(a, b Hex) int {
	ax, az := g.cube(a)
	bx, bz := g.cube(b)
	dx, dz := ax-bx, az-bz
	return max(abs(dx), abs(dz), abs(dx+dz))
}

// Within lists the hexes on the map at distance at most r from h, h
// included, ordered by column then row.
func (g Grid) Within(h Hex, r int) []Hex {
	var out []Hex
	for c := h.Col - r; c <= h.Col+r; c++ {
		for row := h.Row - r - 1; row <= h.Row+r+1; row++ {
			n := Hex{Col: c, Row: row}
			if g.Contains(n) && g.Distance(h, n) <= r {
				out = append(out, n)
			}
		}
	}
	return out
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// ErrFacing is returned for a facing name that is not one of the six.
var ErrFacing = errors.New("facing must be one of E, NE, NW, W, SW, SE")
