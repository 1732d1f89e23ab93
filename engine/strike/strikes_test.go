package strike_test

import (
	"testing"

	"herald/engine/strike"
)

// BASIC COMBAT VALUE: a strike on a roll equal to or less than the CV.
// DOUBLE STRIKES: a second strike on half the CV or less; "the actual
// number to hit may never exceed 19 (remember, 20s always miss). However
// it is possible for the hit number to exceed 20."
func TestStrike(t *testing.T) {
	cases := []struct {
		name         string
		cv, roll     int
		double, want int
	}{
		{"equal to the CV strikes", 7, 7, 0, 1},
		{"one over misses", 7, 8, 0, 0},
		{"1 strikes", 7, 1, 0, 1},
		{"half of 7 is 3: 3 doubles", 7, 3, 1, 2},
		{"4 is over half of 7", 7, 4, 1, 1},
		{"half of 10 is 5", 10, 5, 1, 2},
		{"6 is over half of 10", 10, 6, 1, 1},
		{"no double strikes: single", 10, 1, 0, 1},
		{"CV 25: 19 strikes", 25, 19, 1, 1},
		{"CV 25: 20 always misses", 25, 20, 1, 0},
		{"CV 24: half is 12, a double", 24, 12, 1, 2},
		{"CV 24: 13 single", 24, 13, 1, 1},
		{"CV 20: 20 misses even so", 20, 20, 0, 0},
		{"CV 19: 19 strikes", 19, 19, 0, 1},
		{"CV 0: nothing strikes", 0, 1, 1, 0},
		{"CV 3 halved to 1: 1 doubles", 3, 1, 1, 2},
	}
	for _, c := range cases {
		if got := strike.Strike(c.cv, c.roll, c.double == 1); got != c.want {
			t.Errorf("%s: Strike(%d, %d, %v) = %d, want %d", c.name, c.cv, c.roll, c.double == 1, got, c.want)
		}
	}
}

// DOUBLE STRIKES: "Melee only - Kn, Cv, Maa, and trained Sp"; NOTES
// TRAINED LONGBOW: "These score double strikes when firing".
func TestWhoScoresDoubleStrikes(t *testing.T) {
	tb := tables(t)
	melee := map[string][2]bool{ // untrained, trained
		"Kn": {true, true}, "Cv": {true, true}, "Maa": {true, true}, "Sp": {false, true},
		"Fkn": {false, false}, "Sk": {false, false}, "Lc": {false, false}, "Ha": {false, false},
		"LB": {false, false}, "CB": {false, false}, "HG": {false, false}, "Art": {false, false},
	}
	for id, want := range melee {
		for i, trained := range []bool{false, true} {
			u := unit(t, tb, id, 4)
			u.Trained = trained
			if got := strike.DoublesInMelee(u); got != want[i] {
				t.Errorf("%s trained=%v in melee: %v, want %v", id, trained, got, want[i])
			}
			wantFire := id == "LB" && trained
			if got := strike.DoublesFiring(tb, u); got != wantFire {
				t.Errorf("%s trained=%v firing: %v, want %v", id, trained, got, wantFire)
			}
		}
	}
}

// One D20 per stand (SHOOTING PROCEDURE, MELEEPROCEDURE), each named in
// the log.
func TestRollStandsOneDiePerStand(t *testing.T) {
	d := strike.NewScript(3, 8, 20, 1)
	rolls, n, err := strike.RollStands(d, "Knights", 4, 8, true)
	if err != nil {
		t.Fatal(err)
	}
	// 3 ≤ 4 double, 8 single, 20 miss, 1 double
	if n != 5 || len(rolls) != 4 {
		t.Errorf("%d strikes from %d rolls, want 5 from 4", n, len(rolls))
	}
	if d.Log[0] != "d20 3: Knights stand 1 (CV 8)" {
		t.Errorf("log %q", d.Log)
	}
	used(t, d)
	if _, _, err := strike.RollStands(strike.NewScript(5), "X", 2, 7, false); err == nil {
		t.Error("an exhausted script rolled")
	}
	if _, _, err := strike.RollStands(strike.NewScript(21), "X", 1, 7, false); err == nil {
		t.Error("a 21 rolled")
	}
}
