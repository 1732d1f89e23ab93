package games

import (
	"strings"
	"testing"
)

// Die faces are written as runs.
func TestFaces(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{[]int{0, 1, 2, 3, 7}, "0–3, 7"}, {[]int{9, 4, 5}, "4–5, 9"}, {[]int{6}, "6"}, {nil, ""}} {
		if got := faces(c.in); got != c.want {
			t.Errorf("faces(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A verdict says which faces carry a line out and why the others do not;
// a line refused wherever it is reached is wrong now whatever the roll.
func TestVerdict(t *testing.T) {
	tries := make([]map[int]fate, 10)
	for face := range tries {
		tries[face] = map[int]fate{
			1: {done: true},
			2: {done: face <= 2, reason: "the Continuity DR for Grimaldi failed"},
			3: {refused: face <= 2, reason: map[bool]string{true: "no unit called CB44", false: "not reached"}[face <= 2], rule: "5.1"},
		}
	}
	for line, want := range map[int]string{
		1: "legal whatever the die shows",
		2: "depends on the roll: carried out when the dice show 0–2; when they show 3–9, the Continuity DR for Grimaldi failed",
		3: "refused wherever the dice let it be reached, so it is wrong now: no unit called CB44",
	} {
		if got, _ := verdict(line, tries); !strings.HasPrefix(got, want) {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
}
