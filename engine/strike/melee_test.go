package strike_test

import (
	"testing"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// WHO CAN MELEE and SHOOT, OVERLAPS.
func TestFighters(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		name       string
		id         string
		disordered bool
		stationary bool
		inOpen     bool
		f          strike.Frontage
		want       int
	}{
		{"stationary Sp in good order in the open: 3 ranks", "Sp", false, true, true, strike.Frontage{InContact: 2, Depth: 3}, 6},
		{"Sp 4 deep still fight 3 ranks", "Sp", false, true, true, strike.Frontage{InContact: 2, Depth: 4}, 6},
		{"Sp 2 deep fight 2 ranks", "Sp", false, true, true, strike.Frontage{InContact: 2, Depth: 2}, 4},
		{"disordered Sp: the front rank", "Sp", true, true, true, strike.Frontage{InContact: 2, Depth: 3}, 2},
		{"Sp that moved: the front rank", "Sp", false, false, true, strike.Frontage{InContact: 2, Depth: 3}, 2},
		{"Sp in a wood: the front rank", "Sp", false, true, false, strike.Frontage{InContact: 2, Depth: 3}, 2},
		{"Maa 3 deep: the front rank (R510)", "Maa", false, true, true, strike.Frontage{InContact: 2, Depth: 3}, 2},
		{"two overlaps, each with the stand behind it", "Maa", false, false, true, strike.Frontage{InContact: 2, Overlaps: 2, Depth: 2}, 6},
		{"one overlap, one rank", "Maa", false, false, true, strike.Frontage{InContact: 2, Overlaps: 1, Depth: 1}, 3},
		{"Sp 3 ranks and an overlap with its rear stand", "Sp", false, true, true, strike.Frontage{InContact: 2, Overlaps: 1, Depth: 3}, 8},
		{"attacked in the flank: one stand, no overlaps", "Sp", false, true, true, strike.Frontage{InContact: 2, Overlaps: 1, Depth: 3, Aspect: table.RightFlank}, 1},
		{"attacked in the rear: the stands in contact only", "Sp", false, true, true, strike.Frontage{InContact: 2, Overlaps: 2, Depth: 3, Aspect: table.Rear}, 2},
	}
	for _, c := range cases {
		u := unit(t, tb, c.id, 12)
		u.Disordered = c.disordered
		if got := strike.Fighters(tb, u, c.f, c.stationary, c.inOpen); got != c.want {
			t.Errorf("%s: %d fight, want %d", c.name, got, c.want)
		}
	}
}

// REAR and FLANK ATTACKS, first example: "a unit deployed 2 stands deep is
// attacked on its flank. It is disordered and the two end stands that were
// contacted are rotated to face the attacker. The attacked unit will fight
// back with only the stand that is in contact; the rear stand will not
// fight." On the table and through the dice.
func TestFlankAttackExample(t *testing.T) {
	tb := tables(t)
	defF := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 0, Files: 3, Ranks: 2, StandWidth: 1, StandDepth: 1}
	attF := table.Unit{Pos: table.Vec{X: 1.5, Y: -1}, Facing: 270, Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}
	af, df, ok := strike.Engagement(attF, defF)
	if !ok || df.InContact != 2 || df.Aspect != table.RightFlank {
		t.Fatalf("defender %+v, want the 2 end stands contacted on the right flank", df)
	}
	def, att := unit(t, tb, "Maa", 6), unit(t, tb, "Maa", 2)
	if strike.FlankOrRearContact(def) || !def.Disordered {
		t.Fatal("the unit attacked in the flank is not disordered")
	}
	n := strike.Fighters(tb, def, df, true, true)
	if n != 1 {
		t.Fatalf("the defender fights with %d stands, want 1", n)
	}
	natt := strike.Fighters(tb, att, af, false, true)
	// The attacker's two stands touch the flank; the defender, disordered,
	// rolls one die at CV 7 ×½ = 3.
	d := strike.NewScript(9, 9, 3)
	r, err := strike.Melee(tb, d, strike.MeleeSide{Unit: att, Fighters: natt}, strike.MeleeSide{Unit: def, Fighters: n})
	if err != nil {
		t.Fatal(err)
	}
	used(t, d)
	if len(r.Defender.Rolls) != 1 || r.Defender.CV.Value != 3 || natt != 2 {
		t.Errorf("attacker %d dice; defender %d dice at CV %d", natt, len(r.Defender.Rolls), r.Defender.CV.Value)
	}
	// A previously broken unit is removed as destroyed.
	broken := unit(t, tb, "Maa", 6)
	broken.Broken = true
	if !strike.FlankOrRearContact(broken) || !broken.Destroyed() {
		t.Error("a broken unit attacked in the flank is not destroyed")
	}
}

// Second example: "a unit is deployed 3 stands deep and 4 stands across
// and is attacked on its rear. The rear 4 stands face about to meet the
// attack and unit is in disorder. The attacker is only 2 stands wide so the
// defender will only fight with the two stands in contact."
func TestRearAttackExample(t *testing.T) {
	tb := tables(t)
	defF := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 0, Files: 4, Ranks: 3, StandWidth: 1, StandDepth: 1}
	attF := table.Unit{Pos: table.Vec{X: 0, Y: -3}, Facing: 0, Files: 2, Ranks: 1, StandWidth: 1, StandDepth: 1}
	af, df, _ := strike.Engagement(attF, defF)
	if df.Aspect != table.Rear {
		t.Fatalf("aspect %v", df.Aspect)
	}
	def, att := unit(t, tb, "Sp", 12), unit(t, tb, "Maa", 2)
	strike.FlankOrRearContact(def)
	if n := strike.Fighters(tb, def, df, true, true); n != 2 || !def.Disordered {
		t.Errorf("the defender fights with %d stands (disordered %v), want 2", n, def.Disordered)
	}
	if n := strike.Fighters(tb, att, af, false, true); n != 2 {
		t.Errorf("the attacker fights with %d stands, want 2", n)
	}
}

// MELEEPROCEDURE: "The unit that took the most strikes is the original
// loser of the melee. Ties always go to the defender or counter-charger."
// B. RETREAT AFTER MELEE: "one half a move plus 1" per strike difference".
func TestMeleeWinnerAndRetreat(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		name           string
		rolls          []int
		counterCharger bool
		attLost        bool
		diff           int
		retreat        float64
	}{
		// Kn charged 4" in the open: CV 9, doubles on 4 or less. Maa CV 7, doubles on 3.
		{"attacker wins by 1", []int{4, 9, 3, 8}, false, false, 1, 3},        // 2+1 against 2+0; Maa: 4/2 + 1
		{"defender wins by 4", []int{10, 11, 1, 2}, false, true, 4, 7},       // 0 against 4; Kn: 6/2 + 4
		{"tie goes to the defender", []int{9, 12, 7, 12}, false, true, 0, 3}, // 1 and 1; Kn: 6/2
		{"tie goes to the counter-charger", []int{9, 12, 7, 12}, true, false, 0, 2},
	}
	for _, c := range cases {
		kn, maa := unit(t, tb, "Kn", 2), unit(t, tb, "Maa", 4)
		d := strike.NewScript(c.rolls...)
		att := strike.MeleeSide{Unit: kn, Fighters: 2, Charged: 4, Ranks: 1, InOpen: true, CounterCharger: c.counterCharger}
		r, err := strike.Melee(tb, d, att, strike.MeleeSide{Unit: maa, Fighters: 2, Ranks: 2, InOpen: true})
		if err != nil {
			t.Fatal(err)
		}
		used(t, d)
		if r.Attacker.CV.Value != 9 || r.AttackerLost != c.attLost || r.Difference != c.diff {
			t.Errorf("%s: CV %s, attacker lost %v by %d; want lost %v by %d", c.name, r.Attacker.CV, r.AttackerLost, r.Difference, c.attLost, c.diff)
		}
		loser := maa
		if r.AttackerLost {
			loser = kn
		}
		if got := strike.RetreatInches(tb, loser, r.Difference); got != c.retreat {
			t.Errorf("%s: retreat %g\", want %g\"", c.name, got, c.retreat)
		}
	}
}

// Strikes go to the SRT of the unit that took them.
func TestMeleeResultsApplied(t *testing.T) {
	tb := tables(t)
	kn, maa := unit(t, tb, "Kn", 2), unit(t, tb, "Maa", 4)
	d := strike.NewScript(4, 9, 3, 8) // Kn 3 strikes, Maa 2
	r, err := strike.Melee(tb, d, strike.MeleeSide{Unit: kn, Fighters: 2, Charged: 4, Ranks: 1, InOpen: true}, strike.MeleeSide{Unit: maa, Fighters: 2, InOpen: true})
	if err != nil {
		t.Fatal(err)
	}
	// Maa, 4 stands, 3 strikes: 1. Kn, 2 stands, 2 strikes: 1.
	if r.Defender.Taken.String() != "1" || maa.FiguresLost != 1 || r.Attacker.Taken.String() != "1" || kn.FiguresLost != 1 {
		t.Errorf("Maa took %s (%d figures), Kn took %s (%d figures)", r.Defender.Taken, maa.FiguresLost, r.Attacker.Taken, kn.FiguresLost)
	}
}

// COMBAT TABLE, MELEE lines from the facts of a charge.
func TestMeleeFactors(t *testing.T) {
	tb := tables(t)
	side := func(id string, charged float64, ranks int, open bool) strike.MeleeSide {
		return strike.MeleeSide{Unit: unit(t, tb, id, 4), Charged: charged, Ranks: ranks, InOpen: open}
	}
	disorderedSp := side("Sp", 0, 2, true)
	disorderedSp.Unit.Disordered = true
	cases := []struct {
		name    string
		me, foe strike.MeleeSide
		want    int
	}{
		{"Fkn 1 rank deep charging 3.5\" at Maa: +3 +3", side("Fkn", 3.5, 1, true), side("Maa", 0, 2, true), 13},
		{"Fkn charging exactly 3\": not over 3", side("Fkn", 3, 1, true), side("Maa", 0, 2, true), 10},
		{"Fkn 2 ranks deep: not the Fkn line, nor other mounted", side("Fkn", 4, 2, true), side("Maa", 0, 2, true), 10},
		{"Fkn against ordered Sp", side("Fkn", 4, 1, true), side("Sp", 0, 2, true), 10},
		{"Fkn against disordered Sp", side("Fkn", 4, 1, true), disorderedSp, 13},
		{"Fkn against foot in a wood", side("Fkn", 0, 1, true), side("Maa", 0, 2, false), 7},
		{"Fkn against knights", side("Fkn", 0, 1, true), side("Kn", 0, 2, true), 7},
		{"Maa charging 2.5\": +2", side("Maa", 2.5, 2, true), side("Sp", 0, 2, true), 9},
		{"Maa charging 2\": not over 2", side("Maa", 2, 2, true), side("Sp", 0, 2, true), 7},
		{"Kn charging 4\": other mounted +2", side("Kn", 4, 2, true), side("Sp", 0, 2, true), 9},
		{"Kn charging 4\" not totally in the open", side("Kn", 4, 2, false), side("Sp", 0, 2, true), 7},
		{"Lc charging 3.5\": over 3\" but not half its 8\" move (R509)", side("Lc", 3.5, 1, true), side("Sp", 0, 2, true), 7},
	}
	for _, c := range cases {
		got := strike.ModifiedCV(tb, strike.MeleeFactors(tb, c.me, c.foe))
		if got.Value != c.want {
			t.Errorf("%s: %s, want %d", c.name, got, c.want)
		}
	}
}

// A. WEAPON OF CHOICE: "Knights, mounted or on foot. Spears. Formed
// cavalry. Men At Arms" in priority; both or neither cancels; only in open
// terrain and on gentle slopes.
func TestWeaponOfChoice(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		a, b string
		open bool
		want int
	}{
		{"Kn", "Sp", true, 1},
		{"Sp", "Cv", true, 1},
		{"Maa", "Cv", true, 2},
		{"Maa", "LB", true, 1},
		{"Kn", "Kn", true, 0},
		{"Kn", "Fkn", true, 1}, // Fkn are not "Knights" (R512)
		{"LB", "Sk", true, 0},
		{"Kn", "Sp", false, 0},
	}
	for _, c := range cases {
		if got := strike.WeaponOfChoice(unit(t, tb, c.a, 2), unit(t, tb, c.b, 2), c.open); got != c.want {
			t.Errorf("%s against %s (open %v): %d, want %d", c.a, c.b, c.open, got, c.want)
		}
	}
	cv := strike.ModifiedCV(tb, strike.Factors{Melee: true, WeaponOfChoice: true})
	if cv.Value != 9 {
		t.Errorf("the house WOC bonus gives %d, want 9 (R512)", cv.Value)
	}
}

// SKIRMISHERS: "Contact with formed enemy troops in the open destroys
// skirmishers."
func TestSkirmishersContacted(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		by   string
		open bool
		want bool
	}{{"Maa", true, true}, {"Kn", true, true}, {"Maa", false, false}, {"Lc", true, false}, {"Sk", true, false}}
	for _, c := range cases {
		sk := unit(t, tb, "Sk", 3)
		if got := strike.SkirmishersContacted(sk, unit(t, tb, c.by, 2), c.open); got != c.want || sk.Destroyed() != c.want {
			t.Errorf("by %s in the open %v: destroyed %v, want %v", c.by, c.open, got, c.want)
		}
	}
	if strike.SkirmishersContacted(unit(t, tb, "LB", 3), unit(t, tb, "Kn", 2), true) {
		t.Error("formed longbowmen destroyed as skirmishers")
	}
}

// A frontal engagement on the table: 4 files of Sp, 3 deep, stationary,
// against 2 files of Maa centred on them: the Sp fight 2 × 3 ranks and an
// overlap on each flank with the stand behind it.
func TestFrontalEngagement(t *testing.T) {
	tb := tables(t)
	spF := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 0, Files: 4, Ranks: 3, StandWidth: 1, StandDepth: 1}
	maaF := table.Unit{Pos: table.Vec{X: 0, Y: 0}, Facing: 180, Files: 2, Ranks: 2, StandWidth: 1, StandDepth: 1}
	af, df, ok := strike.Engagement(maaF, spF)
	if !ok || df.Aspect != table.Front || df.InContact != 2 || df.Overlaps != 2 || af.Overlaps != 0 {
		t.Fatalf("attacker %+v defender %+v", af, df)
	}
	if n := strike.Fighters(tb, unit(t, tb, "Sp", 12), df, true, true); n != 10 {
		t.Errorf("Sp fight with %d stands, want 2×3 + 2×2 = 10", n)
	}
	if n := strike.Fighters(tb, unit(t, tb, "Maa", 4), af, false, true); n != 2 {
		t.Errorf("Maa fight with %d stands, want 2", n)
	}
}
