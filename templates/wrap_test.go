package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHang(t *testing.T) {
	hash := strings.Repeat("ab", 40) // 80 columns, never broken
	cases := []struct {
		first, rest, in, want string
	}{
		{"", "", "short line", "short line"},
		{" 1. ", "    ", "The French try to Seize Continuity with Alençon: a roll of 5, higher than Alençon's Activation Rating of 3.",
			" 1. The French try to Seize Continuity with Alençon: a roll of 5, higher\n    than Alençon's Activation Rating of 3."},
		{"", "", "seed " + hash + " end", "seed\n" + hash + "\nend"},
		{"", "", "first paragraph\nsecond", "first paragraph\nsecond"},
		{"", "", strings.Repeat("x ", 30) + "run `herald verify --game crecy-4f2a` now",
			strings.TrimSpace(strings.Repeat("x ", 30)) + " run\n`herald verify --game crecy-4f2a` now"},
		{"", "", "a  lot   of\tspace", "a lot of space"},
		// A hex and its cost stay on one line (issue 16, item 8).
		{"  ", "    ", "DM4: 0308 (1), 0407 (1), 0507 (1), 0508 (1), 0208 (2), 0209 (2), 0306 (2), 0309 (2), and 35 more",
			"  DM4: 0308 (1), 0407 (1), 0507 (1), 0508 (1), 0208 (2), 0209 (2),\n    0306 (2), 0309 (2), and 35 more"},
		{"", "", "rule (16.0) and (12)", "rule (16.0) and (12)"},
	}
	for _, c := range cases {
		if got := hang(c.first, c.rest, c.in); got != c.want {
			t.Errorf("hang(%q, %q, %q) =\n%s\nwant\n%s", c.first, c.rest, c.in, got, c.want)
		}
	}
}

// FuzzWrap: wrapped prose keeps its words in order, and a line is longer
// than Width only when it holds a single unbreakable unit.
func FuzzWrap(f *testing.F) {
	f.Add("The English have a Free Activation: the French failed their Continuity DR.")
	f.Add(strings.Repeat("é", 71) + " " + strings.Repeat("x", 73) + " `a b c`")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Contains(s, "`") {
			return
		}
		out := wrap(s)
		var got []string
		for _, l := range strings.Split(out, "\n") {
			got = append(got, strings.Fields(l)...)
			if utf8.RuneCountInString(l) > Width && countUnits(l) > 1 {
				t.Fatalf("line of %d columns with several words: %q", utf8.RuneCountInString(l), l)
			}
		}
		if want := strings.Fields(s); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("words changed: %q -> %q", s, out)
		}
	})
}

func TestTidyText(t *testing.T) {
	in := "\n\nTitle  \n\n\n\ntext\n--- herald orders: g move 1 ---\nKEY k\n\n\n--- end orders ---\n\n\n-- \nsig\n\n"
	want := "Title\n\ntext\n--- herald orders: g move 1 ---\nKEY k\n\n\n--- end orders ---\n\n-- \nsig\n"
	if got := tidyText(in); got != want {
		t.Errorf("tidyText = %q, want %q", got, want)
	}
}

// countUnits is how many units wrap may not break l holds.
func countUnits(l string) int {
	n := 0
	for range units(l) {
		n++
	}
	return n
}
