package hex

import (
	"fmt"
	"testing"
)

var odd = Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30, OddShifted: true}
var even = Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30}

func mustParse(t testing.TB, s string) Hex {
	t.Helper()
	h, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// infidel.md 11.2: 3220→3319→3420→3320→3220 are steps between adjacent
// hexes; the Knights in 3419, 3519 and 3421 exert ZOC into 3420 and 3320.
func TestInfidelTurcomanHexes(t *testing.T) {
	path := []string{"3220", "3319", "3420", "3320", "3220"}
	for i := 1; i < len(path); i++ {
		a, b := mustParse(t, path[i-1]), mustParse(t, path[i])
		if d := odd.Distance(a, b); d != 1 {
			t.Errorf("Distance(%v, %v) = %d, want 1", a, b, d)
		}
	}
	for _, tc := range []struct {
		a, b string
		adj  bool
	}{
		{"3419", "3420", true}, {"3519", "3420", true}, {"3421", "3420", true},
		{"3421", "3320", true}, {"3519", "3320", false}, {"3419", "3319", true}, {"3419", "3320", false},
	} {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		if got := odd.Distance(a, b) == 1; got != tc.adj {
			t.Errorf("adjacent(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.adj)
		}
	}
}

// A hex in an even column touches rows YY-1 and YY of the neighbouring
// columns; in an odd column rows YY and YY+1 (odd columns shifted down).
func TestNeighborsByParity(t *testing.T) {
	for _, tc := range []struct {
		g    Grid
		h    string
		want string
	}{
		{odd, "1010", "[1009 1109 1110 1011 0910 0909]"},
		{odd, "1110", "[1109 1210 1211 1111 1011 1010]"},
		{even, "1010", "[1009 1110 1111 1011 0911 0910]"},
		{even, "1110", "[1109 1209 1210 1111 1010 1009]"},
		{odd, "0101", "[0201 0202 0102]"},
	} {
		if got := fmt.Sprint(tc.g.Neighbors(mustParse(t, tc.h))); got != tc.want {
			t.Errorf("Neighbors(%s, odd=%v) = %s, want %s", tc.h, tc.g.OddShifted, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Hex
		err  bool
	}{
		{"3420", Hex{34, 20}, false}, {"0101", Hex{1, 1}, false}, {"0000", Hex{0, 0}, false},
		{"342", Hex{}, true}, {"34A0", Hex{}, true}, {"34200", Hex{}, true}, {"", Hex{}, true}, {"-101", Hex{}, true},
	} {
		got, err := Parse(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// Properties over whole 40x30 grids of both parities.
func TestGridProperties(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		var all []Hex
		for c := g.MinCol; c <= g.MaxCol; c++ {
			for r := g.MinRow; r <= g.MaxRow; r++ {
				all = append(all, Hex{c, r})
			}
		}
		for _, h := range all {
			if p, err := Parse(h.String()); err != nil || p != h {
				t.Fatalf("Parse(String(%v)) = %v, %v", h, p, err)
			}
			interior := h.Col > 1 && h.Col < 40 && h.Row > 1 && h.Row < 30
			if n := len(g.Neighbors(h)); interior && n != 6 {
				t.Fatalf("%v has %d neighbours", h, n)
			}
			for d := N; d <= NW; d++ {
				n := g.Neighbor(h, d)
				if back := g.Neighbor(n, d.Opposite()); back != h {
					t.Fatalf("Neighbor(Neighbor(%v, %v), opposite) = %v", h, d, back)
				}
				if got, ok := g.DirTo(h, n); !ok || got != d {
					t.Fatalf("DirTo(%v, %v) = %v, %v; want %v", h, n, got, ok, d)
				}
				if g.Distance(h, n) != 1 {
					t.Fatalf("Distance to neighbour %v of %v is not 1", n, h)
				}
			}
		}
		// Symmetry and the triangle inequality on a sample of triples.
		for i := 0; i < len(all); i += 7 {
			for j := 0; j < len(all); j += 11 {
				a, b := all[i], all[j]
				if g.Distance(a, b) != g.Distance(b, a) {
					t.Fatalf("Distance not symmetric for %v, %v", a, b)
				}
				if (g.Distance(a, b) == 0) != (a == b) {
					t.Fatalf("Distance(%v, %v) = 0 for different hexes", a, b)
				}
				c := all[(i*j+5)%len(all)]
				if g.Distance(a, b) > g.Distance(a, c)+g.Distance(c, b) {
					t.Fatalf("triangle inequality fails for %v %v %v", a, b, c)
				}
			}
		}
	}
}

func TestWithin(t *testing.T) {
	h := mustParse(t, "1010")
	for r, want := range []int{1, 7, 19, 37} {
		if got := len(odd.Within(h, r)); got != want {
			t.Errorf("len(Within(1010, %d)) = %d, want %d", r, got, want)
		}
	}
}

func TestMarshalText(t *testing.T) {
	b, err := Hex{3, 12}.MarshalText()
	if err != nil || string(b) != "0312" {
		t.Fatalf("MarshalText = %s, %v", b, err)
	}
	var h Hex
	if err := h.UnmarshalText([]byte("3420")); err != nil || h != (Hex{34, 20}) {
		t.Fatalf("UnmarshalText = %v, %v", h, err)
	}
	var f Facing
	if err := f.UnmarshalText([]byte("sw")); err != nil || f != FaceSW {
		t.Fatalf("Facing.UnmarshalText = %v, %v", f, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"3420", "0101", "342", "34200", "ab12", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		if err == nil && h.String() != s {
			t.Fatalf("Parse(%q) = %v, prints %q", s, h, h.String())
		}
	})
}

func BenchmarkDistance(b *testing.B) {
	x, y := Hex{3, 4}, Hex{37, 28}
	for i := 0; i < b.N; i++ {
		odd.Distance(x, y)
	}
}

func BenchmarkLine(b *testing.B) {
	x, y := Hex{3, 4}, Hex{15, 11}
	for i := 0; i < b.N; i++ {
		odd.Line(x, y)
	}
}
