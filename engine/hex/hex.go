package hex

import (
	"fmt"
	"strconv"
	"strings"
)

// Hex is one hex of a map, by column and row: 3420 is column 34, row 20.
// It is a small comparable value, usable as a map key.
type Hex struct{ Col, Row int }

// Parse reads a four-digit XXYY hex id: "3420" is column 34, row 20.
// Errors quote the text and wrap ErrHex.
func Parse(s string) (Hex, error) {
	if len(s) != 4 {
		return Hex{}, fmt.Errorf("hex %q: %d characters: %w", s, len(s), ErrHex)
	}
	var n [4]int
	for i := 0; i < 4; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return Hex{}, fmt.Errorf("hex %q: character %d is not a digit: %w", s, i+1, ErrHex)
		}
		n[i] = int(c - '0')
	}
	return Hex{Col: n[0]*10 + n[1], Row: n[2]*10 + n[3]}, nil
}

// String prints the XXYY id, each half zero-padded to two digits ("0705").
// A column or row outside 0..99 prints with more digits and has no id that
// Parse reads back.
// It prints as fmt's "%02d%02d" would, without fmt: a game's state holds
// hundreds of hexes, and each is printed whenever the state is encoded.
func (h Hex) String() string { return string(h.appendID(make([]byte, 0, 4))) }

func (h Hex) appendID(b []byte) []byte { return appendHalf(appendHalf(b, h.Col), h.Row) }

// appendHalf appends n as "%02d" prints it: 0 to 9 with a leading zero,
// any other number (a sign counts as a digit) as it is.
func appendHalf(b []byte, n int) []byte {
	if n >= 0 && n < 10 {
		return append(b, '0', byte('0'+n))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// MarshalText writes the XXYY id, so hexes read well in JSON and YAML.
func (h Hex) MarshalText() ([]byte, error) {
	if h.Col < 0 || h.Col > 99 || h.Row < 0 || h.Row > 99 {
		return nil, fmt.Errorf("hex (%d,%d) has no XXYY id", h.Col, h.Row)
	}
	return h.appendID(make([]byte, 0, 4)), nil
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

// Grid is a map's hex grid: its bounds (inclusive) and which columns are
// shifted. All geometry depends on the shift, so it hangs off Grid.
type Grid struct {
	MinCol, MaxCol, MinRow, MaxRow int
	// OddShifted: odd columns sit half a hex lower than even ones, so a
	// hex in an even column touches rows YY-1 and YY of the neighbouring
	// columns and a hex in an odd column rows YY and YY+1 ("odd-q").
	// Otherwise even columns are the lower ones ("even-q").
	OddShifted bool
}

// Contains reports whether h is on the map.
func (g Grid) Contains(h Hex) bool {
	return h.Col >= g.MinCol && h.Col <= g.MaxCol && h.Row >= g.MinRow && h.Row <= g.MaxRow
}

// Hexes lists every hex of the map, by column then row.
func (g Grid) Hexes() []Hex {
	if g.MaxCol < g.MinCol || g.MaxRow < g.MinRow {
		return nil
	}
	out := make([]Hex, 0, (g.MaxCol-g.MinCol+1)*(g.MaxRow-g.MinRow+1))
	for c := g.MinCol; c <= g.MaxCol; c++ {
		for r := g.MinRow; r <= g.MaxRow; r++ {
			out = append(out, Hex{Col: c, Row: r})
		}
	}
	return out
}

// Dir is one of the six hexside directions of a flat-topped hex, clockwise
// from north. It names both a hexside and the neighbour across it.
type Dir int

// The six hexsides, clockwise from north (north is up, rows grow
// southwards).
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

// ParseDir reads a hexside direction name in any case ("ne", "SW").
func ParseDir(s string) (Dir, error) {
	for i, n := range dirNames {
		if strings.EqualFold(n, s) {
			return Dir(i), nil
		}
	}
	return 0, fmt.Errorf("hexside %q: %w", s, ErrDir)
}

// MarshalText writes the direction's name.
func (d Dir) MarshalText() ([]byte, error) {
	if d < 0 || d > 5 {
		return nil, fmt.Errorf("%v is not a hexside direction", d)
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads a direction's name.
func (d *Dir) UnmarshalText(b []byte) error {
	p, err := ParseDir(string(b))
	if err != nil {
		return err
	}
	*d = p
	return nil
}

// Opposite is the direction pointing back across the same hexside.
func (d Dir) Opposite() Dir { return Dir(mod6(int(d) + 3)) }

func mod6(n int) int { return ((n % 6) + 6) % 6 }

// Cube coordinates (Red Blob Games, "Hexagonal Grids", sections
// "Coordinates" and "Conversions", flat-topped "q" offset layouts:
// https://www.redblobgames.com/grids/hexagons/#conversions-offset): x is the
// column, z grows southwards along a column, y = -x-z. Only x and z are kept.

// dirDelta is the cube step (dx, dz) across each hexside.
var dirDelta = [6][2]int{N: {0, -1}, NE: {1, -1}, SE: {1, 0}, S: {0, 1}, SW: {-1, 1}, NW: {-1, 0}}

// cube returns the cube coordinates x and z of h (y = -x-z). The halving
// is exact: x-(x&1) and x+(x&1) are even, negative columns included.
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

// Neighbor is the hex across hexside d of h; it may be off the map (check
// with Contains). d must be one of the six directions.
func (g Grid) Neighbor(h Hex, d Dir) Hex {
	x, z := g.cube(h)
	return g.fromCube(x+dirDelta[d][0], z+dirDelta[d][1])
}

// Neighbors are h's neighbours on the map, in direction order N to NW.
func (g Grid) Neighbors(h Hex) []Hex {
	out := make([]Hex, 0, 6)
	for d := N; d <= NW; d++ {
		if n := g.Neighbor(h, d); g.Contains(n) {
			out = append(out, n)
		}
	}
	return out
}

// DirTo is the hexside of from that faces the adjacent hex to; ok is false
// when the two are not adjacent.
func (g Grid) DirTo(from, to Hex) (d Dir, ok bool) {
	fx, fz := g.cube(from)
	tx, tz := g.cube(to)
	for d := N; d <= NW; d++ {
		if dirDelta[d] == [2]int{tx - fx, tz - fz} {
			return d, true
		}
	}
	return 0, false
}

// Distance is the number of hexes from a to b, counting b but not a
// (9.1: "You count the target hex, but not the firing hex"): 0 for the same
// hex, 1 for neighbours.
func (g Grid) Distance(a, b Hex) int {
	ax, az := g.cube(a)
	bx, bz := g.cube(b)
	dx, dz := ax-bx, az-bz
	return max(abs(dx), abs(dz), abs(dx+dz))
}

// Within lists the hexes on the map at distance at most r from h, h
// included (when on the map), by column then row.
func (g Grid) Within(h Hex, r int) []Hex {
	var out []Hex
	for c := h.Col - r; c <= h.Col+r; c++ {
		for row := h.Row - r; row <= h.Row+r; row++ {
			n := Hex{Col: c, Row: row}
			if g.Contains(n) && g.Distance(h, n) <= r {
				out = append(out, n)
			}
		}
	}
	return out
}

// Ring lists the hexes on the map at distance exactly r from h, clockwise,
// starting with the hex r steps north of h. Ring(h, 0) is h itself when it
// is on the map; a negative r gives nothing.
func (g Grid) Ring(h Hex, r int) []Hex {
	switch {
	case r < 0:
		return nil
	case r == 0:
		if g.Contains(h) {
			return []Hex{h}
		}
		return nil
	}
	x, z := g.cube(h)
	x, z = x+r*dirDelta[N][0], z+r*dirDelta[N][1]
	var out []Hex
	// From the north corner of the ring walk r steps SE to the NE corner,
	// then S, SW, NW, N and NE, each r steps.
	for _, d := range [6]Dir{SE, S, SW, NW, N, NE} {
		for i := 0; i < r; i++ {
			if c := g.fromCube(x, z); g.Contains(c) {
				out = append(out, c)
			}
			x, z = x+dirDelta[d][0], z+dirDelta[d][1]
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
