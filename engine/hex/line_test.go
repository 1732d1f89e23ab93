package hex

import (
	"fmt"
	"slices"
	"testing"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		name     string
		g        Grid
		from, to string
		want     string
	}{
		{"same hex", odd, "1010", "1010", "[]"},
		{"adjacent", odd, "1010", "1109", "[]"},
		{"two north", odd, "1010", "1008", "[1009]"},
		{"down a column", odd, "1010", "1014", "[1011 1012 1013]"},
		// infidel.md 11.2 hexes: 3220 to 3420 runs down the E spine of
		// 3220, along the hexside between 3319 and 3320.
		{"along a hexside", odd, "3220", "3420", "[3319|3320]"},
		{"along, reversed", odd, "3420", "3220", "[3319|3320]"},
		{"along, even map", even, "3220", "3420", "[3320|3321]"},
		{"along twice", odd, "1010", "1207", "[1009|1109 1108 1107|1208]"},
		{"along a N-S spine line", odd, "1010", "1610", "[1109|1110 1210 1309|1310 1410 1509|1510]"},
		// Through two vertices: from 1009 straight into 1008 at the
		// corner of 1108, and from 1107 into 1106 at the corner of 1007.
		{"through vertices", odd, "1010", "1105", "[1009 (1108) 1008 1107 (1007) 1106]"},
		{"through vertices, reversed", odd, "1105", "1010", "[1106 (1007) 1107 1008 (1108) 1009]"},
		// Across the midpoint of the hexside between 1109 and 1108.
		{"knight's move", odd, "1010", "1208", "[1109 1108]"},
		{"along the map edge", odd, "0101", "0301", "[0201|0202]"},
		{"along, off the map", odd, "0201", "0401", "[0300|0301]"},
	} {
		from, to := mustParse(t, tc.from), mustParse(t, tc.to)
		if got := fmt.Sprint(tc.g.Line(from, to)); got != tc.want {
			t.Errorf("%s: %s.Line(%s, %s) = %s, want %s", tc.name, gridName(tc.g), tc.from, tc.to, got, tc.want)
		}
	}
}

// lineBrute is Line without the candidate box: clip against every hex of a
// wide region, order by the contact's midpoint.
func lineBrute(g Grid, from, to Hex) []LineStep {
	a, b := g.frame(from), g.frame(to)
	type found struct {
		mid  frac
		step LineStep
	}
	var fs []found
	for c := min(from.Col, to.Col) - 3; c <= max(from.Col, to.Col)+3; c++ {
		for r := min(from.Row, to.Row) - 3; r <= max(from.Row, to.Row)+3; r++ {
			h := Hex{c, r}
			if h == from || h == to {
				continue
			}
			lo, hi, edge, ok := clip(a, b.sub(a), g.frame(h))
			if !ok {
				continue
			}
			mid := frac{lo.num*hi.den + hi.num*lo.den, 2 * lo.den * hi.den}
			switch {
			case edge >= 0:
				o := g.Neighbor(h, Dir(mod6(1-edge)))
				if cmpHex(h, o) < 0 { // report the pair once
					fs = append(fs, found{mid, LineStep{Kind: Along, Hex: h, Other: o}})
				}
			case lo.cmp(hi) < 0:
				fs = append(fs, found{mid, LineStep{Kind: Through, Hex: h}})
			default:
				fs = append(fs, found{mid, LineStep{Kind: Corner, Hex: h}})
			}
		}
	}
	slices.SortFunc(fs, func(p, q found) int { return p.mid.cmp(q.mid) })
	var out []LineStep
	for _, f := range fs {
		out = append(out, f.step)
	}
	return out
}

func adjacentOrSame(g Grid, a, b Hex) bool { return a == b || g.Distance(a, b) == 1 }

// Properties of every line from a few hexes to every hex of both maps.
func TestLineProperties(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		t.Run(gridName(g), func(t *testing.T) {
			var corners, alongs int
			for _, from := range []Hex{{20, 15}, {21, 15}, {1, 1}, {40, 30}} {
				for _, to := range g.Hexes() {
					if to == from {
						continue
					}
					line := g.Line(from, to)
					d := g.Distance(from, to)
					// The reverse line is the line reversed.
					back := g.Line(to, from)
					slices.Reverse(back)
					if !slices.Equal(line, back) {
						t.Fatalf("Line(%v, %v) = %v, Line(%v, %v) reversed = %v", from, to, line, to, from, back)
					}
					// Same as clipping against every hex of the region.
					if brute := lineBrute(g, from, to); !slices.Equal(line, brute) {
						t.Fatalf("Line(%v, %v) = %v, brute force %v", from, to, line, brute)
					}
					if d == 1 && len(line) != 0 {
						t.Fatalf("Line(%v, %v) = %v between adjacent hexes", from, to, line)
					}
					// Hexes crossed lie on a shortest path; hexes touched
					// (along or at a corner) at most one step off.
					for _, s := range line {
						for _, x := range s.Hexes() {
							sum := g.Distance(from, x) + g.Distance(x, to)
							if s.Kind == Through && sum != d || sum > d+1 {
								t.Fatalf("Line(%v, %v) = %v: %v at %v has distances summing to %d, line %d", from, to, line, s.Kind, x, sum, d)
							}
						}
					}
					// Each step touches the one before: every hex of a step
					// is adjacent to every hex of the next; a Corner sits
					// between two Through steps; an Along pair is adjacent.
					prev := []Hex{from}
					for i, s := range append(slices.Clone(line), LineStep{Kind: Through, Hex: to}) {
						for _, p := range prev {
							for _, x := range s.Hexes() {
								if !adjacentOrSame(g, p, x) || p == x {
									t.Fatalf("Line(%v, %v) = %v: step %d (%v) does not touch %v", from, to, line, i, s, p)
								}
							}
						}
						switch s.Kind {
						case Corner:
							corners++
							if line[i-1].Kind != Through || i+1 < len(line) && line[i+1].Kind != Through || i+1 == len(line) {
								t.Fatalf("Line(%v, %v) = %v: corner %v not between two Through steps", from, to, line, s)
							}
						case Along:
							alongs++
							if g.Distance(s.Hex, s.Other) != 1 || cmpHex(s.Hex, s.Other) >= 0 {
								t.Fatalf("Line(%v, %v) = %v: bad pair %v", from, to, line, s)
							}
						}
						prev = s.Hexes()
					}
					// A line down a spine alternates: along a hexside, then
					// through a hex, d/2 pairs in all; every other line
					// crosses at least d-1 hexes and runs along none.
					a := g.ApproachFrom(to, from)
					var nAlong, nThrough int
					for _, s := range line {
						switch s.Kind {
						case Along:
							nAlong++
						case Through:
							nThrough++
						}
					}
					if a.Spine && (nAlong != d/2 || nThrough != d/2-1) {
						t.Fatalf("Line(%v, %v) = %v down a spine: %d along, %d through, want %d, %d", from, to, line, nAlong, nThrough, d/2, d/2-1)
					}
					if !a.Spine && (nAlong != 0 || nThrough < d-1) {
						t.Fatalf("Line(%v, %v) = %v: %d along, %d through, distance %d", from, to, line, nAlong, nThrough, d)
					}
				}
			}
			if corners == 0 || alongs == 0 {
				t.Errorf("%d corner steps, %d along steps: the test misses a case", corners, alongs)
			}
		})
	}
}

func TestLineStep(t *testing.T) {
	for _, tc := range []struct {
		s     LineStep
		str   string
		hexes string
	}{
		{LineStep{Kind: Through, Hex: Hex{10, 9}}, "1009", "[1009]"},
		{LineStep{Kind: Along, Hex: Hex{10, 9}, Other: Hex{11, 9}}, "1009|1109", "[1009 1109]"},
		{LineStep{Kind: Corner, Hex: Hex{11, 7}}, "(1107)", "[1107]"},
	} {
		if got := tc.s.String(); got != tc.str {
			t.Errorf("%#v.String() = %q, want %q", tc.s, got, tc.str)
		}
		if got := fmt.Sprint(tc.s.Hexes()); got != tc.hexes {
			t.Errorf("%#v.Hexes() = %s, want %s", tc.s, got, tc.hexes)
		}
		if got := tc.s.Kind.String(); got == "" || got[0] == 'S' {
			t.Errorf("%d.String() = %q", tc.s.Kind, got)
		}
	}
}

func BenchmarkLine(b *testing.B) {
	for _, bc := range []struct {
		name     string
		from, to Hex
	}{
		{"range3", Hex{10, 10}, Hex{12, 8}},
		{"range12", Hex{3, 4}, Hex{15, 11}},
		{"range30", Hex{3, 4}, Hex{33, 20}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				odd.Line(bc.from, bc.to)
			}
		})
	}
}
