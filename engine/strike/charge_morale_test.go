package strike_test

import (
	"testing"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// 2. REACTION TO A CHARGE through the house Charge Reaction Table.
func TestReactTo(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		name      string
		id        string
		s         strike.ChargeSituation
		want      strike.Reaction
		destroyed bool
	}{
		{"knights counter-charge", "Kn", strike.ChargeSituation{}, strike.CounterCharge, false},
		{"knights in support with the charger in reach counter-charge", "Kn", strike.ChargeSituation{Role: strike.Supporting, ChargerInReach: true}, strike.CounterCharge, false},
		{"knights in support with the charger beyond 2 moves do nothing", "Kn", strike.ChargeSituation{Role: strike.Supporting}, strike.NoReaction, false},
		{"formed cavalry counter-charge half the distance", "Cv", strike.ChargeSituation{}, strike.CounterChargeHalf, false},
		{"cavalry contacted in the first move cannot counter-charge", "Cv", strike.ChargeSituation{ContactedFirstMove: true}, strike.Stand, false},
		{"Maa counter-charge half", "Maa", strike.ChargeSituation{}, strike.CounterChargeHalf, false},
		{"Maa charged by formed cavalry stand", "Maa", strike.ChargeSituation{ChargerIsFormedCavalry: true}, strike.Stand, false},
		{"longbow stand and fire", "LB", strike.ChargeSituation{}, strike.StandAndFire, false},
		{"longbow in support shoot", "LB", strike.ChargeSituation{Role: strike.Supporting}, strike.ShootAtCharger, false},
		{"handguns never get defensive fire", "HG", strike.ChargeSituation{}, strike.Stand, false},
		{"artillery contacted is destroyed", "Art", strike.ChargeSituation{ContactedFirstMove: true}, "", true},
		{"skirmishers fire and retire", "Sk", strike.ChargeSituation{}, strike.FireAndRetire, false},
		{"skirmishers contacted by formed troops are destroyed", "Sk", strike.ChargeSituation{ContactedFirstMove: true, ChargerFormedOrLight: true}, "", true},
		{"horse archers contacted by Lc are destroyed", "Ha", strike.ChargeSituation{ContactedFirstMove: true, ChargerFormedOrLight: true}, "", true},
		{"spears stand", "Sp", strike.ChargeSituation{}, strike.Stand, false},
	}
	for _, c := range cases {
		r, destroyed, err := strike.ReactTo(tb, unit(t, tb, c.id, 3), c.s)
		if err != nil {
			t.Fatal(err)
		}
		if r != c.want || destroyed != c.destroyed {
			t.Errorf("%s: %q destroyed %v; want %q %v", c.name, r, destroyed, c.want, c.destroyed)
		}
	}
	if d := strike.CounterChargeDistance(9); d != 4.5 {
		t.Errorf("half of 9\" remaining is %g\"", d)
	}
	kn, _ := tb.Troop("Kn")
	if d := strike.ChargeDistance(kn); d != 18 {
		t.Errorf("a knights' charge move is %g\", want 3 moves of 6\"", d)
	}
}

// The house morale check (R526) and 6. MELEE MORALE CHECKS.
func TestMoraleCheck(t *testing.T) {
	tb := tables(t)
	// Ordinary Maa, base 10: lost by 2 (-2 -2), one stand lost (-1): 5 or less.
	f := strike.MoraleFacts{StandsLost: 1, LostMelee: true, StrikeDiff: 2}
	for _, c := range []struct {
		roll int
		want strike.Morale
	}{{5, strike.Pass}, {6, strike.FallBack}, {9, strike.FallBack}, {10, strike.Break}} {
		u := unit(t, tb, "Maa", 4)
		got, _, err := strike.MoraleCheck(tb, strike.NewScript(c.roll), u, f)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want || u.Broken != (c.want == strike.Break) || u.Disordered != (c.want == strike.FallBack) {
			t.Errorf("roll %d: %s, %+v; want %s", c.roll, got, u, c.want)
		}
	}
	// 20 always fails, even for superior troops with a Personality (16).
	u := unit(t, tb, "Kn", 2)
	u.Superior = true
	if got, _, _ := strike.MoraleCheck(tb, strike.NewScript(20), u, strike.MoraleFacts{Personality: true}); got != strike.FallBack {
		t.Errorf("20: %s", got)
	}
}

// A. FINAL MELEE RESULTS: "If neither unit fails morale the original loser
// retreats"; "it is possible for the original loser to remain as the
// final winner".
func TestFinalMelee(t *testing.T) {
	cases := []struct {
		name               string
		attLost            bool
		att, def           strike.Morale
		attFinalLoser, ret bool
	}{
		{"both pass: the original loser retreats", true, strike.Pass, strike.Pass, true, true},
		{"the loser fails", true, strike.Break, strike.Pass, true, false},
		{"the winner fails, the loser passes: reversed", true, strike.Pass, strike.FallBack, false, false},
		{"both fail: the original loser stays (R525)", false, strike.Break, strike.Break, false, false},
	}
	for _, c := range cases {
		l, r := strike.FinalMelee(c.attLost, c.att, c.def)
		if l != c.attFinalLoser || r != c.ret {
			t.Errorf("%s: attacker final loser %v retreat %v", c.name, l, r)
		}
	}
}

// CHARGE RESTRICTIONS.
func TestMayCharge(t *testing.T) {
	tb := tables(t)
	disorderedKn := unit(t, tb, "Kn", 2)
	disorderedKn.Disordered = true
	cases := []struct {
		name    string
		charger string
		target  *strike.Unit
		open    bool
		aspect  table.Aspect
		inches  float64
		ok      bool
	}{
		{"Maa at knights' front from 3\"", "Maa", unit(t, tb, "Kn", 2), true, table.Front, 3, true},
		{"Maa at knights' front from 3.5\"", "Maa", unit(t, tb, "Kn", 2), true, table.Front, 3.5, false},
		{"Maa at knights' flank from one move (4\")", "Maa", unit(t, tb, "Kn", 2), true, table.LeftFlank, 4, true},
		{"Maa at knights' rear from 4.5\"", "Maa", unit(t, tb, "Kn", 2), true, table.Rear, 4.5, false},
		{"Maa at disordered knights", "Maa", disorderedKn, true, table.Front, 10, true},
		{"Maa at knights in a wood", "Maa", unit(t, tb, "Kn", 2), false, table.Front, 10, true},
		{"Maa at Sp from afar", "Maa", unit(t, tb, "Sp", 2), true, table.Front, 10, true},
		{"LB at Sp's front from 5\"", "LB", unit(t, tb, "Sp", 2), true, table.Front, 5, false},
		{"LB at Sk from 5\"", "LB", unit(t, tb, "Sk", 2), true, table.Front, 5, true},
		{"Lc at Sp's flank from a third of 8\"", "Lc", unit(t, tb, "Sp", 2), true, table.RightFlank, 8.0 / 3, true},
		{"Lc at Sp's flank from 3\"", "Lc", unit(t, tb, "Sp", 2), true, table.RightFlank, 3, false},
		{"Sk at Sp's front from 3\"", "Sk", unit(t, tb, "Sp", 2), true, table.Front, 3, true},
		{"Ha at Lc from afar", "Ha", unit(t, tb, "Lc", 2), true, table.Front, 12, true},
		{"Kn at anything", "Kn", unit(t, tb, "Sp", 2), true, table.Front, 12, true},
	}
	for _, c := range cases {
		err := strike.MayCharge(unit(t, tb, c.charger, 2), strike.ChargeTarget{Unit: c.target, InOpen: c.open, Aspect: c.aspect, Inches: c.inches})
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want allowed %v", c.name, err, c.ok)
		}
	}
	err := strike.MayCharge(unit(t, tb, "LB", 2), strike.ChargeTarget{Unit: unit(t, tb, "Sp", 2), InOpen: true, Aspect: table.Front, Inches: 5})
	if err == nil || err.Error() != `missile infantry may not charge formed troops in the open from 5" of its front: only within 3" of its front or 4" of its flank or rear (CHARGE RESTRICTIONS)` {
		t.Errorf("refusal %v", err)
	}
}
