package strike_test

import (
	"testing"

	"herald/engine/strike"
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
		{"knights in support counter-charge", "Kn", strike.ChargeSituation{Role: strike.Supporting}, strike.CounterCharge, false},
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
