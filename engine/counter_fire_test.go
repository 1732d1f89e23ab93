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
// nothing; CA1 charges through 0406 and attacks on the Charge Table: +1
// the Longbow's Shock DRM, +2 Charge, +3 WSM, 3 -> 9, "Defender
// Disordered, Retreat 1 Hex"; CA1 advances.
func TestCounterChargeAgainstFire(t *testing.T) {
	g := melee(t, 5, 0, 3)
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
	if got := strings.Join(order, " "); got != "CounterChargeRolled UnitFired ChargeMade AttackResolved UnitAdvanced" {
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
			g := melee(t, 5, 0, 3)
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
