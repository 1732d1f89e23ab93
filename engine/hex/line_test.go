package hex

import (
	"fmt"
	"testing"
)

func steps(ls []LineStep) string {
	s := ""
	for i, l := range ls {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%v%v", l.Kind, l.Hexes)
	}
	return s
}

func TestLine(t *testing.T) {
	c := Hex{10, 10}
	n, ne := odd.Neighbor(c, N), odd.Neighbor(c, NE)
	for _, tc := range []struct {
		name     string
		from, to Hex
		want     string
	}{
		{"adjacent", c, n, ""},
		{"straight north", c, odd.Neighbor(n, N), "through[1009]"},
		{"straight down a column", Hex{10, 10}, Hex{10, 14}, "through[1011] through[1012] through[1013]"},
		// Between N and NE: exactly along the hexside between them.
		{"along a hexside", c, odd.Neighbor(n, NE), fmt.Sprintf("along[%v %v]", n, ne)},
		{"along, longer", c, odd.Neighbor(odd.Neighbor(odd.Neighbor(n, NE), N), NE), "along[1009 1109] through[1108] along[1107 1208]"},
	} {
		if got := steps(odd.Line(tc.from, tc.to)); got != tc.want {
			t.Errorf("%s: Line(%v, %v) = %s, want %s", tc.name, tc.from, tc.to, got, tc.want)
		}
	}
}

// A line and its reverse meet the same hexes in reverse order; every hex it
// crosses lies between the ends; the count of crossed hexes is at least
// distance-1.
func TestLineProperties(t *testing.T) {
	for _, g := range []Grid{odd, even} {
		from := Hex{12, 12}
		for c := 3; c <= 21; c++ {
			for r := 3; r <= 21; r++ {
				to := Hex{c, r}
				if to == from {
					continue
				}
				fw, bw := g.Line(from, to), g.Line(to, from)
				if len(fw) != len(bw) {
					t.Fatalf("Line(%v,%v) has %d steps, reverse %d", from, to, len(fw), len(bw))
				}
				for i := range fw {
					if fmt.Sprint(fw[i]) != fmt.Sprint(bw[len(bw)-1-i]) {
						t.Fatalf("Line(%v,%v) = %s\nreverse %s", from, to, steps(fw), steps(bw))
					}
				}
				d, cells := g.Distance(from, to), 0
				for _, s := range fw {
					for _, h := range s.Hexes {
						if g.Distance(from, h)+g.Distance(h, to) > d+1 {
							t.Fatalf("Line(%v,%v) meets %v, off the band", from, to, h)
						}
					}
					if s.Kind != Corner {
						cells++
					}
				}
				if cells < d-1 {
					t.Fatalf("Line(%v,%v) = %s: %d steps for distance %d", from, to, steps(fw), cells, d)
				}
			}
		}
	}
}
