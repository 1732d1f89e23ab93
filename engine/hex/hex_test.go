package hex

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Two 40x30 maps, one of each parity.
var (
	odd  = Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30, OddShifted: true}
	even = Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30}
)

func gridName(g Grid) string {
	if g.OddShifted {
		return "odd"
	}
	return "even"
}

func mustParse(t testing.TB, s string) Hex {
	t.Helper()
	h, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Hex
		wantErr string // substring of the error, "" for none
	}{
		{"3420", Hex{34, 20}, ""},
		{"0705", Hex{7, 5}, ""},
		{"0101", Hex{1, 1}, ""},
		{"0000", Hex{0, 0}, ""},
		{"9999", Hex{99, 99}, ""},
		{"34A0", Hex{}, `hex "34A0": character 3 is not a digit`},
		{"342", Hex{}, `hex "342": 3 characters`},
		{"34200", Hex{}, `hex "34200": 5 characters`},
		{"", Hex{}, `hex "": 0 characters`},
		{"-101", Hex{}, `character 1 is not a digit`},
		{" 342", Hex{}, `character 1 is not a digit`},
		{"34²0", Hex{}, `5 characters`},
	} {
		got, err := Parse(tc.in)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Parse(%q) = %v, %v, want %v", tc.in, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrHex)):
			t.Errorf("Parse(%q) = %v, %v, want an ErrHex error containing %q", tc.in, got, err, tc.wantErr)
		case got != tc.want:
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		h    Hex
		want string
	}{{Hex{7, 5}, "0705"}, {Hex{34, 20}, "3420"}, {Hex{0, 0}, "0000"}, {Hex{99, 1}, "9901"}} {
		if got := tc.h.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.h, got, tc.want)
		}
	}
}

// infidel.md 11.2, on an odd-shifted map: 3220→3319→3420→3320→3220 are
// steps between adjacent hexes; of the Knights in 3419, 3519 and 3421, the
// ones in 3419 and 3519 are adjacent to 3420, 3519 is not adjacent to 3320,
// and 3421 is adjacent to both 3420 and 3320.
// String prints every hex as fmt's "%02d%02d" did, inside 0..99 and
// out of it (negative halves, three digits and more).
func TestStringAsPrintf(t *testing.T) {
	halves := []int{-1000, -100, -99, -10, -9, -1, 0, 1, 5, 9, 10, 42, 99, 100, 101, 999, 12345}
	for _, c := range halves {
		for _, r := range halves {
			h := Hex{Col: c, Row: r}
			if got, want := h.String(), fmt.Sprintf("%02d%02d", c, r); got != want {
				t.Errorf("Hex{%d, %d}.String() = %q, want %q", c, r, got, want)
			}
		}
	}
	for c := 0; c < 100; c++ {
		for r := 0; r < 100; r++ {
			h := Hex{Col: c, Row: r}
			b, err := h.MarshalText()
			if want := fmt.Sprintf("%02d%02d", c, r); err != nil || string(b) != want || h.String() != want {
				t.Fatalf("Hex{%d, %d}: MarshalText %q (%v), String %q, want %q", c, r, b, err, h.String(), want)
			}
		}
	}
}

func TestInfidelTurcomanHexes(t *testing.T) {
	path := []string{"3220", "3319", "3420", "3320", "3220"}
	for i := 1; i < len(path); i++ {
		a, b := mustParse(t, path[i-1]), mustParse(t, path[i])
		if d := odd.Distance(a, b); d != 1 {
			t.Errorf("Distance(%v, %v) = %d, want 1", a, b, d)
		}
		if _, ok := odd.DirTo(a, b); !ok {
			t.Errorf("DirTo(%v, %v) = _, false, want adjacent", a, b)
		}
	}
	for _, tc := range []struct {
		a, b string
		adj  bool
	}{
		{"3419", "3420", true}, {"3519", "3420", true}, {"3421", "3420", true},
		{"3421", "3320", true}, {"3519", "3320", false}, {"3419", "3320", false},
		{"3419", "3319", true}, {"3220", "3420", false},
	} {
		a, b := mustParse(t, tc.a), mustParse(t, tc.b)
		if got := odd.Distance(a, b) == 1; got != tc.adj {
			t.Errorf("Distance(%s, %s) == 1 is %v, want %v", tc.a, tc.b, got, tc.adj)
		}
		if got := slices.Contains(odd.Neighbors(a), b); got != tc.adj {
			t.Errorf("Neighbors(%s) contains %s is %v, want %v", tc.a, tc.b, got, tc.adj)
		}
	}
}

// Neighbors in direction order N, NE, SE, S, SW, NW. With odd columns
// shifted down a hex in an even column touches rows YY-1 and YY of the
// neighbouring columns, in an odd column rows YY and YY+1; with even
// columns shifted down the other way round.
func TestNeighbors(t *testing.T) {
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
		{odd, "0201", "[0301 0202 0101]"},
		{even, "0101", "[0201 0102]"},
		{odd, "4030", "[4029 3930 3929]"},
	} {
		if got := fmt.Sprint(tc.g.Neighbors(mustParse(t, tc.h))); got != tc.want {
			t.Errorf("%s.Neighbors(%s) = %s, want %s", gridName(tc.g), tc.h, got, tc.want)
		}
	}
}

func TestParseDir(t *testing.T) {
	for d := N; d <= NW; d++ {
		for _, s := range []string{d.String(), strings.ToLower(d.String())} {
			if got, err := ParseDir(s); err != nil || got != d {
				t.Errorf("ParseDir(%q) = %v, %v, want %v", s, got, err, d)
			}
		}
	}
	for _, s := range []string{"", "E", "W", "NNE", "north"} {
		if got, err := ParseDir(s); !errors.Is(err, ErrDir) {
			t.Errorf("ParseDir(%q) = %v, %v, want ErrDir", s, got, err)
		}
	}
	if got := Dir(7).String(); got != "Dir(7)" {
		t.Errorf("Dir(7).String() = %q", got)
	}
}

// Properties over whole 40x30 maps of both parities.
func TestGridProperties(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		t.Run(gridName(g), func(t *testing.T) {
			all := g.Hexes()
			if len(all) != 40*30 {
				t.Fatalf("len(Hexes()) = %d, want %d", len(all), 40*30)
			}
			for _, h := range all {
				if p, err := Parse(h.String()); err != nil || p != h {
					t.Fatalf("Parse(%q) = %v, %v, want %v", h.String(), p, err, h)
				}
				interior := h.Col > g.MinCol && h.Col < g.MaxCol && h.Row > g.MinRow && h.Row < g.MaxRow
				if n := len(g.Neighbors(h)); interior && n != 6 || n < 2 || n > 6 {
					t.Errorf("len(Neighbors(%v)) = %d (interior %v)", h, n, interior)
				}
				for d := N; d <= NW; d++ {
					n := g.Neighbor(h, d)
					if back := g.Neighbor(n, d.Opposite()); back != h {
						t.Errorf("Neighbor(Neighbor(%v, %v), %v) = %v, want %v", h, d, d.Opposite(), back, h)
					}
					if got, ok := g.DirTo(h, n); !ok || got != d {
						t.Errorf("DirTo(%v, %v) = %v, %v, want %v", h, n, got, ok, d)
					}
					if got := g.Distance(h, n); got != 1 {
						t.Errorf("Distance(%v, %v) = %d, want 1", h, n, got)
					}
				}
			}
			for _, a := range all {
				for _, b := range all {
					dab := g.Distance(a, b)
					if dab != g.Distance(b, a) {
						t.Fatalf("Distance(%v, %v) = %d, Distance(%v, %v) = %d", a, b, dab, b, a, g.Distance(b, a))
					}
					if (dab == 0) != (a == b) {
						t.Fatalf("Distance(%v, %v) = %d", a, b, dab)
					}
					if _, ok := g.DirTo(a, b); ok != (dab == 1) {
						t.Fatalf("DirTo(%v, %v) ok = %v, Distance = %d", a, b, ok, dab)
					}
				}
			}
			for i := 0; i < len(all); i += 3 {
				for j := 0; j < len(all); j += 7 {
					for k := 0; k < len(all); k += 11 {
						a, b, c := all[i], all[j], all[k]
						if g.Distance(a, b) > g.Distance(a, c)+g.Distance(c, b) {
							t.Fatalf("Distance(%v, %v) > Distance(%v, %v) + Distance(%v, %v)", a, b, a, c, c, b)
						}
					}
				}
			}
		})
	}
}

// Distance is the length of a shortest path of neighbour steps, found by
// breadth-first search on a larger board.
func TestDistanceIsPathLength(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		big := Grid{MinCol: -30, MaxCol: 70, MinRow: -30, MaxRow: 60, OddShifted: g.OddShifted}
		for _, src := range []Hex{{1, 1}, {20, 15}, {40, 30}, {2, 29}} {
			dist := map[Hex]int{src: 0}
			queue := []Hex{src}
			for len(queue) > 0 {
				h := queue[0]
				queue = queue[1:]
				for _, n := range big.Neighbors(h) {
					if _, seen := dist[n]; !seen {
						dist[n] = dist[h] + 1
						queue = append(queue, n)
					}
				}
			}
			for _, h := range g.Hexes() {
				if got := g.Distance(src, h); got != dist[h] {
					t.Errorf("%s.Distance(%v, %v) = %d, want %d", gridName(g), src, h, got, dist[h])
				}
			}
		}
	}
}

func TestWithinAndRing(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		for _, h := range []Hex{{20, 15}, {21, 15}, {1, 1}, {40, 30}, {2, 1}, {39, 30}} {
			for r := 0; r <= 5; r++ {
				var want, wantRing []Hex
				for _, x := range g.Hexes() {
					if d := g.Distance(h, x); d <= r {
						want = append(want, x)
						if d == r {
							wantRing = append(wantRing, x)
						}
					}
				}
				if got := g.Within(h, r); !slices.Equal(got, want) {
					t.Errorf("%s.Within(%v, %d) = %v, want %v", gridName(g), h, r, got, want)
				}
				ring := g.Ring(h, r)
				sorted := slices.Clone(ring)
				slices.SortFunc(sorted, cmpHex)
				if !slices.Equal(sorted, wantRing) {
					t.Errorf("%s.Ring(%v, %d) = %v, want %v in some order", gridName(g), h, r, ring, wantRing)
				}
			}
		}
	}
	// Interior: 1, 7, 19, 37 hexes within; rings of 6r, clockwise from north.
	h := mustParse(t, "2015")
	for r, want := range []int{1, 7, 19, 37} {
		if got := len(odd.Within(h, r)); got != want {
			t.Errorf("len(Within(2015, %d)) = %d, want %d", r, got, want)
		}
	}
	if got, want := fmt.Sprint(odd.Ring(h, 1)), "[2014 2114 2115 2016 1915 1914]"; got != want {
		t.Errorf("Ring(2015, 1) = %s, want %s", got, want)
	}
	for r := 1; r <= 4; r++ {
		ring := odd.Ring(h, r)
		if len(ring) != 6*r || ring[0] != (Hex{20, 15 - r}) {
			t.Errorf("Ring(2015, %d) = %v, want %d hexes from 20%02d", r, ring, 6*r, 15-r)
		}
		for i := range ring {
			if d := odd.Distance(ring[i], ring[(i+1)%len(ring)]); d != 1 {
				t.Errorf("Ring(2015, %d): %v and %v not adjacent", r, ring[i], ring[(i+1)%len(ring)])
			}
		}
	}
	if got := odd.Ring(h, -1); got != nil {
		t.Errorf("Ring(2015, -1) = %v, want nil", got)
	}
}

func TestMarshalText(t *testing.T) {
	b, err := Hex{3, 12}.MarshalText()
	if err != nil || string(b) != "0312" {
		t.Errorf("Hex{3, 12}.MarshalText() = %s, %v, want 0312", b, err)
	}
	if b, err := (Hex{100, 1}).MarshalText(); err == nil {
		t.Errorf("Hex{100, 1}.MarshalText() = %s, want an error", b)
	}
	var h Hex
	if err := h.UnmarshalText([]byte("3420")); err != nil || h != (Hex{34, 20}) {
		t.Errorf("UnmarshalText(3420) = %v, %v", h, err)
	}
	if err := h.UnmarshalText([]byte("34x0")); !errors.Is(err, ErrHex) {
		t.Errorf("UnmarshalText(34x0) = %v, want ErrHex", err)
	}
	var d Dir
	if err := d.UnmarshalText([]byte("sw")); err != nil || d != SW {
		t.Errorf("Dir.UnmarshalText(sw) = %v, %v", d, err)
	}
	if b, err := NW.MarshalText(); err != nil || string(b) != "NW" {
		t.Errorf("NW.MarshalText() = %s, %v", b, err)
	}
}

// Seeded at the limits: the shortest and longest ids, one character too
// few and too many, and non-digits on either side of the digit range.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"3420", "0000", "9999", "342", "34200", "/000", ":999", "34A0", "", "३४२०"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		if err != nil {
			if h != (Hex{}) || !errors.Is(err, ErrHex) || !strings.HasPrefix(err.Error(), fmt.Sprintf("hex %q: ", s)) {
				t.Fatalf("Parse(%q) = %v, %v", s, h, err)
			}
			return
		}
		if h.Col < 0 || h.Col > 99 || h.Row < 0 || h.Row > 99 || h.String() != s {
			t.Fatalf("Parse(%q) = %v, prints %q", s, h, h.String())
		}
	})
}

func BenchmarkDistance(b *testing.B) {
	x, y := Hex{3, 4}, Hex{37, 28}
	for b.Loop() {
		odd.Distance(x, y)
	}
}
