package strike_test

import (
	"testing"

	"herald/engine/strike"
)

// COMBAT TABLE and COMBAT VALUE (CV): 7, then every modifier in the order
// listed, the ×½ of disorder last (R501).
func TestModifiedCV(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		name string
		f    strike.Factors
		want int
	}{
		{"basic CV", strike.Factors{}, 7},
		{"massed target", strike.Factors{MassedTarget: true}, 10},
		{"distant range", strike.Factors{DistantRange: true}, 4},
		{"skirmisher", strike.Factors{Skirmisher: true}, 4},
		{"massed, distant, skirmisher", strike.Factors{MassedTarget: true, DistantRange: true, Skirmisher: true}, 4},
		{"Fkn charging", strike.Factors{Melee: true, FknCharging: true}, 10},
		{"foot charging", strike.Factors{Melee: true, FootCharging: true}, 9},
		{"other mounted charging", strike.Factors{Melee: true, MountedCharging: true}, 9},
		{"Fkn vs foot", strike.Factors{Melee: true, FknVsFoot: true}, 10},
		{"superior", strike.Factors{Melee: true, Superior: true}, 10},
		{"trained, shooting", strike.Factors{Trained: true}, 10},
		{"trained, melee", strike.Factors{Melee: true, Trained: true}, 10},
		{"foe higher, shooting", strike.Factors{FoeHigherOrObstacle: true}, 4},
		{"foe in obstacle, melee", strike.Factors{Melee: true, FoeHigherOrObstacle: true}, 4},
		{"disordered: 7 ×½ rounds down", strike.Factors{Disordered: true}, 3},
		{"halved after the additions: (7+3+3) ×½", strike.Factors{Melee: true, Superior: true, Trained: true, Disordered: true}, 6},
		{"everything melee: 7+3+2+3+3+3-3 = 18, ×½ = 9", strike.Factors{Melee: true, FknCharging: true, MountedCharging: true, FknVsFoot: true, Superior: true, Trained: true, FoeHigherOrObstacle: true, Disordered: true}, 9},
		{"below zero: 7-3-3-3 = -2, ×½ = -1", strike.Factors{DistantRange: true, Skirmisher: true, FoeHigherOrObstacle: true, Disordered: true}, -1},
		{"melee lines do not count in shooting", strike.Factors{FknCharging: true, Superior: true}, 7},
		{"shooting lines do not count in melee", strike.Factors{Melee: true, MassedTarget: true, DistantRange: true}, 7},
	}
	for _, c := range cases {
		got := strike.ModifiedCV(tb, c.f)
		if got.Value != c.want {
			t.Errorf("%s: CV %d (%s), want %d", c.name, got.Value, got, c.want)
		}
	}
}

// The steps are logged in the fragment's order.
func TestModifiedCVStepsInListedOrder(t *testing.T) {
	tb := tables(t)
	cv := strike.ModifiedCV(tb, strike.Factors{Melee: true, Disordered: true, FoeHigherOrObstacle: true, Trained: true, Superior: true, FootCharging: true})
	var what []string
	for _, s := range cv.Steps {
		what = append(what, s.What)
	}
	want := []string{"basic CV", "foot charging", "superior", "trained", "foe higher or in obstacle", "disorder ×½"}
	if len(what) != len(want) {
		t.Fatalf("steps %q, want %q", what, want)
	}
	for i := range want {
		if what[i] != want[i] {
			t.Fatalf("steps %q, want %q", what, want)
		}
	}
	if s := cv.String(); s != "7 +2 +3 +3 -3 ×½ = 6 → CV 6" {
		t.Errorf("log %q", s)
	}
}
