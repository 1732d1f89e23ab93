package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The Scots Mounted MAA CA1 stands in 0505 facing W; the English Longbow
// AN1 shoots at it from 0305, two hexes off its Front.

// TestCounterChargeAgainstFire: 11.6's third case. The Counter-Charge roll
// comes before the fire (5 -1 = 4: success); the fire (0 +1 range) does
// nothing; CA1 charges through 0406, drawing AN1's Reaction Fire there
// (9.2, ruling R87: 0 +2 = 2, no effect), and attacks on the Charge Table: +1
// the Longbow's Shock DRM, +2 Charge, +3 WSM, 3 -> 9, "Defender
// Disordered, Retreat 1 Hex"; CA1 advances.
func TestCounterChargeAgainstFire(t *testing.T) {
	g := melee(t, 5, 0, 0, 3)
	g.troop("CA1", "0505", hex.FaceW, "MMAA")
	g.troop("AN1", "0305", hex.FaceE, "LB")
	g.send(0, "ACTIVATE Anna")
	evs := g.send(0, "FIRE AN1 AT CA1").Events
	var order []string
	for _, e := range evs {
		switch e.(type) {
		case engine.CounterChargeRolled, engine.UnitFired, engine.ChargeMade, engine.AttackResolved, engine.UnitAdvanced:
			order = append(order, typeName(e))
		}
	}
	if got := strings.Join(order, " "); got != "CounterChargeRolled UnitFired ChargeMade UnitFired AttackResolved UnitAdvanced" {
		t.Fatalf("events %s:\n%s", got, g.story(evs))
	}
	a := resolved(evs)[0]
	wantAttack(t, a, "AN1", 3, []string{"+1 10.4 #3", "+2 10.4 #4, 11.2", "+3 10.4 #6"}, 9, "Charge", "Defender Disordered, Retreat 1 Hex")
	if u := g.unit("CA1"); u.Hex != h(t, "0305") {
		t.Errorf("CA1 in %s, want advanced into 0305", u.Hex)
	}
	if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != 0 {
		t.Errorf("after the Counter-Charge: %s", engine.Waiting(g.sc, g.st))
	}
}

func typeName(e engine.Event) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", e), "engine.")
}

// TestCounterChargeAgainstFireLimits: not through the Rear; STANDING
// COUNTER-CHARGE ASK stops the fire before any die for COUNTER-CHARGE or
// STAND; a mounted archer's move ends with the Counter-Charge.
func TestCounterChargeAgainstFireLimits(t *testing.T) {
	t.Run("rear", func(t *testing.T) {
		g := melee(t, 0)
		g.troop("CA1", "0505", hex.FaceE, "MMAA")
		g.troop("AN1", "0305", hex.FaceE, "LB")
		g.send(0, "ACTIVATE Anna")
		if evs := g.send(0, "FIRE AN1 AT CA1").Events; len(resolved(evs)) > 0 {
			t.Errorf("a Counter-Charge against fire through the Rear:\n%s", g.story(evs))
		}
	})
	t.Run("asked", func(t *testing.T) {
		for _, answer := range []string{"STAND CA1", "COUNTER-CHARGE CA1"} {
			g := melee(t, 5, 0, 0, 3)
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN1", "0305", hex.FaceE, "LB")
			g.send(1, "STANDING COUNTER-CHARGE ASK")
			g.send(0, "ACTIVATE Anna")
			res := g.send(0, "FIRE AN1 AT CA1\nEND")
			if res.Rolled || g.st.Pending.Kind != engine.DecideCounterCharge || len(res.NotApplied) != 1 {
				t.Fatalf("after FIRE: rolled %v, %s", res.Rolled, engine.Waiting(g.sc, g.st))
			}
			if legal := strings.Join(engine.Legal(g.sc, g.st), "|"); legal != "COUNTER-CHARGE CA1|STAND CA1" {
				t.Errorf("legal: %s", legal)
			}
			evs := g.send(1, answer).Events
			_, charged := findEvent[engine.ChargeMade](evs)
			if charged != (answer == "COUNTER-CHARGE CA1") {
				t.Errorf("%s: charged %v:\n%s", answer, charged, g.story(evs))
			}
			if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != 0 {
				t.Errorf("%s: %s", answer, engine.Waiting(g.sc, g.st))
			}
		}
	})
	t.Run("ends a mounted archer's move", func(t *testing.T) {
		g := melee(t, 5, 0, 0)
		g.troop("CA1", "0505", hex.FaceW, "MMAA")
		g.troop("AN2", "0404", hex.FaceSE, "GEN")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "MOVE AN2 0405 FIRE CA1 0406").Events
		if u := g.unit("AN2"); u.Hex != h(t, "0405") || u.Status != engine.Disordered {
			t.Errorf("AN2: %+v, want Disordered in 0405, its move ended by the Counter-Charge:\n%s", u, g.story(evs))
		}
	})
}

// Men of Iron 9.2: Reaction Fire is drawn "When any enemy unit moves ...
// or Charges (including Counter-Charge) into its adjacent ZOC/frontal
// hexes"; Blood & Roses 13.6 and Arquebus 13.6: "No Reaction Fire is
// allowed against a unit Counter-Charging against Fire". The switch
// rules.counter_charge_reaction_fire decides (ruling R87). CA1
// counter-charges the Longbow AN1 through 0406, AN1's Frontal hex: under
// Men of Iron AN1 reacts at range 1 (+2) and the Mounted column applies:
// 0 +2 = 2, No Effect, and the Charge goes home; 9 +2 = 11, Retire, and
// the Counter-Charge is gone. Without the switch no die is rolled for it.
func TestCounterChargeAgainstFireDrawsReactionFire(t *testing.T) {
	for _, c := range []struct {
		name     string
		reaction bool
		dice     []int
		order    string
	}{
		{"Men of Iron: reacted, no effect", true, []int{5, 0, 0, 3},
			"CounterChargeRolled UnitFired ChargeMade UnitFired AttackResolved UnitAdvanced"},
		{"Men of Iron: reacted, retired", true, []int{5, 0, 9},
			"CounterChargeRolled UnitFired ChargeMade UnitFired"},
		{"later volumes: no Reaction Fire", false, []int{5, 0, 3},
			"CounterChargeRolled UnitFired ChargeMade AttackResolved UnitAdvanced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := melee(t, c.dice...)
			if !g.sc.Tables.Rules.CounterChargeReactionFire {
				t.Fatal("Men of Iron's tables do not set rules.counter_charge_reaction_fire (9.2)")
			}
			tb := *g.sc.Tables
			tb.Rules.CounterChargeReactionFire = c.reaction
			g.sc.Tables = &tb
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN1", "0305", hex.FaceE, "LB")
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "FIRE AN1 AT CA1").Events
			var order []string
			var reacted []engine.UnitFired
			for _, e := range evs {
				switch e.(type) {
				case engine.CounterChargeRolled, engine.UnitFired, engine.ChargeMade, engine.AttackResolved, engine.UnitAdvanced:
					order = append(order, typeName(e))
				}
				if f, ok := e.(engine.UnitFired); ok && f.Reaction {
					reacted = append(reacted, f)
				}
			}
			if got := strings.Join(order, " "); got != c.order {
				t.Fatalf("events %s, want %s:\n%s", got, c.order, g.story(evs))
			}
			if !c.reaction {
				if len(reacted) != 0 {
					t.Errorf("Reaction Fire at a Counter-Charge: %+v", reacted)
				}
				return
			}
			if len(reacted) != 1 {
				t.Fatalf("reaction shots %+v, want AN1's one", reacted)
			}
			r := reacted[0]
			want := map[int]string{0: "No Effect", 9: "Retire"}[c.dice[2]]
			if r.Unit != "AN1" || r.Target != "CA1" || r.Column != "mounted" || r.Roll.Total != c.dice[2]+2 || modText(r.Roll.Mods) != "+2 Longbow at range 1 (9.3)" || r.Result != want {
				t.Errorf("reaction %+v (%s), want AN1 at CA1, %d +2 (9.3) = %d on the mounted column: %s", r, modText(r.Roll.Mods), c.dice[2], c.dice[2]+2, want)
			}
			if want == "Retire" && g.unit("CA1").Status != engine.Retired {
				t.Errorf("CA1 %+v, want Retired by the Reaction Fire", g.unit("CA1"))
			}
			if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != 0 {
				t.Errorf("after the Counter-Charge: %s", engine.Waiting(g.sc, g.st))
			}
		})
	}
}

// R87: the firing player's STANDING REACTION FIRE ASK stops the
// Counter-Charge in AN1's Frontal hex and asks him; his REACT or HOLD
// FIRE carries the Counter-Charge on, and the move comes back to him.
func TestCounterChargeReactionFireAsked(t *testing.T) {
	for _, c := range []struct {
		answer string
		dice   []int
		shots  int
	}{{"REACT AN1", []int{5, 0, 0, 3}, 1}, {"HOLD FIRE", []int{5, 0, 3}, 0}} {
		t.Run(c.answer, func(t *testing.T) {
			g := melee(t, c.dice...)
			g.troop("CA1", "0505", hex.FaceW, "MMAA")
			g.troop("AN1", "0305", hex.FaceE, "LB")
			start := g.st.Clone()
			g.send(0, "STANDING REACTION FIRE ASK")
			g.send(0, "ACTIVATE Anna")
			g.send(0, "FIRE AN1 AT CA1")
			if g.st.Pending.Kind != engine.DecideReaction || g.st.Pending.Side != 0 {
				t.Fatalf("waiting: %s; want the firing player asked about his Reaction Fire", engine.Waiting(g.sc, g.st))
			}
			evs := g.send(0, c.answer).Events
			n := 0
			for _, e := range evs {
				if f, ok := e.(engine.UnitFired); ok && f.Reaction {
					n++
				}
			}
			if n != c.shots || len(resolved(evs)) != 1 {
				t.Errorf("%d reaction shots, %d attacks; want %d and the Counter-Charge's attack:\n%s", n, len(resolved(evs)), c.shots, g.story(evs))
			}
			if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != 0 || g.st.Shock != nil {
				t.Errorf("after the Counter-Charge: %s", engine.Waiting(g.sc, g.st))
			}
			if g.dice.Remaining() != 0 {
				t.Errorf("%d dice left", g.dice.Remaining())
			}
			g.replays(start)
		})
	}
}
