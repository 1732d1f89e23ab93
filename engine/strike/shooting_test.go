package strike_test

import (
	"strings"
	"testing"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

func shots(n int, b strike.Band) []strike.Shot {
	var s []strike.Shot
	for i := 0; i < n; i++ {
		s = append(s, strike.Shot{Stand: table.Stand{File: i}, Band: b})
	}
	return s
}

// Strike Results Table: by the type attacked, its stands and the strikes;
// the last row and column cover more (R516).
func TestLookup(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		id              string
		stands, strikes int
		want            string
	}{
		{"Maa", 4, 1, "NE"},
		{"Maa", 4, 4, "2D"},
		{"Maa", 4, 5, "2DM"},
		{"Maa", 3, 3, "1D"},
		{"Maa", 9, 5, "2D"},   // the 6-or-more row
		{"Maa", 2, 12, "4DM"}, // the last column
		{"Lc", 3, 1, "1"},
		{"Maa", 4, 0, "NE"},
	}
	for _, c := range cases {
		r, err := strike.Lookup(tb, unit(t, tb, c.id, c.stands), c.strikes)
		if err != nil {
			t.Fatal(err)
		}
		if r.String() != c.want {
			t.Errorf("%s %d stands %d strikes: %s, want %s", c.id, c.stands, c.strikes, r, c.want)
		}
	}
}

// NOTES: "Crossbows increase the NE results ... to 1 figure casualty. All
// other results are unchanged."
func TestCrossbowNE(t *testing.T) {
	if r := strike.Crossbow(strike.Result{}, 1); r != (strike.Result{Figures: 1}) {
		t.Errorf("NE with a strike: %v", r)
	}
	if r := strike.Crossbow(strike.Result{}, 0); !r.NE() {
		t.Errorf("no strike: %v, want NE (R517)", r)
	}
	d := strike.Result{Disordered: true}
	if r := strike.Crossbow(d, 3); r != d {
		t.Errorf("D changed to %v", r)
	}
	// Through a volley: one strike on a 4-stand foot unit is NE, but 1
	// figure from crossbows and not from longbows.
	tb := tables(t)
	for _, c := range []struct {
		id   string
		figs int
	}{{"CB", 1}, {"LB", 0}} {
		target := unit(t, tb, "Maa", 4)
		v, err := strike.Shoot(tb, strike.NewScript(7, 8), strike.Fire{Unit: unit(t, tb, c.id, 2), Shots: shots(2, strike.Effective)}, target)
		if err != nil {
			t.Fatal(err)
		}
		if v.Strikes != 1 || target.FiguresLost != c.figs {
			t.Errorf("%s: %d strikes, %d figures, want 1 and %d", c.id, v.Strikes, target.FiguresLost, c.figs)
		}
	}
}

// RATE OF FIRE (ROF): "the one with the highest rate of fire will roll
// first. The lower applies the results of the fire upon it and then
// returns fire." Longbow ROF 3 against crossbow ROF 2, whichever starts it.
func TestDuelHigherROFFirst(t *testing.T) {
	tb := tables(t)
	for _, lbFirst := range []bool{true, false} {
		lb, cb := unit(t, tb, "LB", 4), unit(t, tb, "CB", 4)
		// LB: 1,2,3,4 at CV 7: 4 strikes → CB (4 stands) 2D.
		// CB, disordered: CV 3: 3,4,20,1 → 2 strikes → LB 1, not NE.
		d := strike.NewScript(1, 2, 3, 4, 3, 4, 20, 1)
		a, b := strike.Fire{Unit: lb, Shots: shots(4, strike.Effective)}, strike.Fire{Unit: cb, Shots: shots(4, strike.Effective)}
		if !lbFirst {
			a, b = b, a
		}
		vs, err := strike.Duel(tb, d, a, b)
		if err != nil {
			t.Fatal(err)
		}
		used(t, d)
		if len(vs) != 2 || vs[0].Shooter != "LB" || vs[1].Shooter != "CB" {
			t.Fatalf("volleys %+v", vs)
		}
		if vs[0].Result.String() != "2D" || !cb.Disordered || cb.FiguresLost != 2 {
			t.Errorf("LB's volley: %s, CB %+v", vs[0].Result, cb)
		}
		if vs[1].Rolls[0].CV != 3 || vs[1].Strikes != 2 || lb.FiguresLost != 1 {
			t.Errorf("CB's return: CV %d, %d strikes, LB lost %d figures", vs[1].Rolls[0].CV, vs[1].Strikes, lb.FiguresLost)
		}
		if !strings.Contains(d.Log[0], "LB stand 1 shoots at CB") {
			t.Errorf("first roll %q", d.Log[0])
		}
	}
}

// The lower ROF returns fire with the stands it has left (R515); trained
// longbow scores double strikes when firing.
func TestDuelReturnFireWithStandsLeft(t *testing.T) {
	tb := tables(t)
	lb, cb := unit(t, tb, "LB", 4), unit(t, tb, "CB", 2)
	lb.Trained = true // CV 10, doubles on 5 or less
	d := strike.NewScript(1, 1, 1, 1, 2)
	vs, err := strike.Duel(tb, d, strike.Fire{Unit: cb, Shots: shots(2, strike.Effective)}, strike.Fire{Unit: lb, Shots: shots(4, strike.Effective)})
	if err != nil {
		t.Fatal(err)
	}
	used(t, d)
	// 8 strikes on 2 stands: 4DM, one stand of 4 figures lost.
	if vs[0].Strikes != 8 || vs[0].StandsLost != 1 || cb.Stands != 1 || !vs[0].MoraleCheck {
		t.Errorf("LB volley %+v; CB %+v", vs[0], cb)
	}
	// One stand left returns one shot: 2 ≤ 3 (disordered), one strike,
	// NE on LB's table, 1 figure for a crossbow.
	if len(vs[1].Rolls) != 1 || vs[1].Result != (strike.Result{Figures: 1}) {
		t.Errorf("CB return %+v", vs[1])
	}
}

// Equal rates of fire shoot at the same time (R514): the second shooter
// rolls before the first volley's disorder halves it.
func TestDuelEqualROFSimultaneous(t *testing.T) {
	tb := tables(t)
	lb, ha := unit(t, tb, "LB", 4), unit(t, tb, "Ha", 3)
	d := strike.NewScript(1, 1, 1, 1, 7, 7, 7)
	vs, err := strike.Duel(tb, d, strike.Fire{Unit: lb, Shots: shots(4, strike.Effective)}, strike.Fire{Unit: ha, Shots: shots(3, strike.Effective)})
	if err != nil {
		t.Fatal(err)
	}
	used(t, d)
	if !ha.Disordered {
		t.Error("LB's 4 strikes did not disorder the Ha")
	}
	if vs[1].Strikes != 3 {
		t.Errorf("Ha scored %d strikes at CV %d, want 3 at 7", vs[1].Strikes, vs[1].Rolls[0].CV)
	}
}

// NOTES: "Missile units that are fired on MUST shoot back if able".
func TestMustShootBack(t *testing.T) {
	tb := tables(t)
	if !strike.MustShootBack(tb, unit(t, tb, "CB", 3), shots(1, strike.Distant)) {
		t.Error("crossbows with a shot need not shoot back")
	}
	if strike.MustShootBack(tb, unit(t, tb, "CB", 3), nil) {
		t.Error("crossbows without a shot must shoot back")
	}
	if strike.MustShootBack(tb, unit(t, tb, "Maa", 3), shots(1, strike.Effective)) {
		t.Error("men-at-arms must shoot back")
	}
}

// PERSONALITIES UNDER FIRE: "must roll under a 20 to have been unharmed.
// This roll is made even if no strikes were rolled."
func TestPersonalityUnderFire(t *testing.T) {
	tb := tables(t)
	for _, c := range []struct {
		roll    int
		wounded bool
	}{{19, false}, {20, true}} {
		target := unit(t, tb, "Maa", 4)
		target.Personality = &strike.Personality{Name: "Sir John", SR: 7}
		d := strike.NewScript(15, 16, c.roll) // two misses, then his check
		v, err := strike.Shoot(tb, d, strike.Fire{Unit: unit(t, tb, "LB", 2), Shots: shots(2, strike.Effective)}, target)
		if err != nil {
			t.Fatal(err)
		}
		used(t, d)
		if v.Strikes != 0 || len(v.Checks) != 1 || target.Personality.Wounded != c.wounded {
			t.Errorf("roll %d: %+v, wounded %v", c.roll, v, target.Personality.Wounded)
		}
	}
}

// SKIRMISHERS: "They can never be a massed target"; "Skirmisher shooting
// or as a target" −3, once even when both are (R504).
func TestSkirmisherShooting(t *testing.T) {
	tb := tables(t)
	sk := unit(t, tb, "Sk", 2)
	sk.Column = true
	if strike.Massed(sk, table.Unit{Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}, table.Vec{X: 0, Y: -5}) {
		t.Error("skirmishers in column are a massed target")
	}
	d := strike.NewScript(4, 5)
	v, err := strike.Shoot(tb, d, strike.Fire{Unit: unit(t, tb, "Sk", 2), Shots: shots(2, strike.Effective)}, sk)
	if err != nil {
		t.Fatal(err)
	}
	if v.Rolls[0].CV != 4 || v.Strikes != 1 {
		t.Errorf("skirmishers at skirmishers: CV %d, %d strikes; want 4 and 1", v.Rolls[0].CV, v.Strikes)
	}
}

// STANDS ELIGIBLE TO SHOOT on the table: arc, range, massed at the flank.
func TestEligible(t *testing.T) {
	tb := tables(t)
	lb, kn := unit(t, tb, "LB", 4), unit(t, tb, "Kn", 2)
	sf := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 0, Files: 4, Ranks: 1, StandWidth: 2, StandDepth: 1} // x -4..4, y -1..0
	cases := []struct {
		name   string
		tf     table.Unit
		n      int
		band   strike.Band
		massed bool
	}{
		{"face to face at 13\": distant", table.Unit{Pos: table.Vec{X: 0, Y: 13}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 4, strike.Distant, false},
		{"face to face at 12\": effective", table.Unit{Pos: table.Vec{X: 0, Y: 12}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 4, strike.Effective, false},
		{"at 25\": out of range", table.Unit{Pos: table.Vec{X: 0, Y: 25}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 0, strike.OutOfRange, false},
		{"showing its flank: massed", table.Unit{Pos: table.Vec{X: 0, Y: 11}, Facing: 90, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 4, strike.Effective, true},
		{"10\" away to the side, in range but outside every arc", table.Unit{Pos: table.Vec{X: 14, Y: 0.5}, Facing: 270, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}, 0, strike.OutOfRange, false},
	}
	for _, c := range cases {
		got := strike.Eligible(tb, lb, sf, kn, c.tf)
		if len(got) != c.n {
			t.Errorf("%s: %d eligible stands, want %d", c.name, len(got), c.n)
			continue
		}
		for _, s := range got {
			if s.Band != c.band || s.Massed != c.massed {
				t.Errorf("%s: %+v", c.name, s)
			}
		}
	}
	if got := strike.Eligible(tb, kn, sf, lb, sf); got != nil {
		t.Errorf("knights shoot: %v", got)
	}
}

// NOTES: "Artillery rolls 1 D20 per stand."
func TestArtilleryOneDiePerStand(t *testing.T) {
	tb := tables(t)
	d := strike.NewScript(1, 20, 7)
	v, err := strike.Shoot(tb, d, strike.Fire{Unit: unit(t, tb, "Art", 3), Shots: shots(3, strike.Distant)}, unit(t, tb, "Sp", 4))
	if err != nil {
		t.Fatal(err)
	}
	used(t, d)
	// CV 7 - 3 at distant range: 1 strikes, 20 and 7 miss.
	if len(v.Rolls) != 3 || v.Strikes != 1 || v.Rolls[0].CV != 4 {
		t.Errorf("%+v", v)
	}
}

// A side with no eligible shot does not take part: the other simply
// shoots, and a unit with no shot rolls nothing.
func TestDuelOneSideCannotShoot(t *testing.T) {
	tb := tables(t)
	lb, cb := unit(t, tb, "LB", 4), unit(t, tb, "CB", 4)
	cb.Personality = &strike.Personality{Name: "Messire Jean", SR: 6}
	d := strike.NewScript(1, 2, 19) // CB's two shots; the 19 stays: LB has no shot and no Personality
	vs, err := strike.Duel(tb, d, strike.Fire{Unit: lb}, strike.Fire{Unit: cb, Shots: shots(2, strike.Effective)})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Shooter != "CB" || len(vs[0].Rolls) != 2 {
		t.Errorf("volleys %+v", vs)
	}
	if d, _ := d.Remaining(); d != 1 {
		t.Errorf("%d rolls left, want 1", d)
	}
	v, err := strike.Shoot(tb, strike.NewScript(), strike.Fire{Unit: lb}, cb)
	if err != nil || len(v.Rolls) != 0 || len(v.Checks) != 0 {
		t.Errorf("a unit without a shot: %+v, %v", v, err)
	}
}

// Fire at a charger: out of range it still takes place, at distant range
// (−3) for supporting units, javelins included; artillery and handguns
// never fire.
func TestChargeFire(t *testing.T) {
	tb := tables(t)
	sf := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 0, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1}
	cf := table.Unit{Pos: table.Vec{X: 0, Y: 30}, Facing: 180, Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1} // 30": beyond every range
	kn := unit(t, tb, "Kn", 2)
	for _, c := range []struct {
		id string
		n  int
	}{{"LB", 2}, {"Lc", 2}, {"HG", 0}, {"Art", 0}, {"Maa", 0}} {
		got := strike.ChargeFire(tb, unit(t, tb, c.id, 2), sf, kn, cf, strike.Distant)
		if len(got) != c.n {
			t.Errorf("%s: %d shots, want %d", c.id, len(got), c.n)
		}
	}
	lc := unit(t, tb, "Lc", 2)
	d := strike.NewScript(4, 5)
	v, err := strike.Shoot(tb, d, strike.Fire{Unit: lc, Shots: strike.ChargeFire(tb, lc, sf, kn, cf, strike.Distant)}, kn)
	if err != nil {
		t.Fatal(err)
	}
	if v.Rolls[0].CV != 4 || v.Strikes != 1 {
		t.Errorf("javelins at a charger: CV %d, %d strikes; want 4 (7-3) and 1", v.Rolls[0].CV, v.Strikes)
	}
}
