package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// TestShockWaitsForARetreat: with STANDING RETREAT ASK the owner chooses
// where his unit retreats in the Shock Phase too (12.3, ruling R56): the
// phase stops with the attack's results half applied, the attacker's
// further orders are not carried out, and the answer finishes the attack
// (its Advance) and the rest of the phase.
func TestShockWaitsForARetreat(t *testing.T) {
	g := melee(t, 7, 4)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
	g.troop("CA2", "0808", hex.FaceW, "PK")
	g.troop("BE1", "0708", hex.FaceE, "DMAA")
	g.send(1, "STANDING RETREAT ASK")
	g.send(0, "ACTIVATE Anna")
	res := g.send(0, "SHOCK AN1 AT CA1\nSHOCK BE1 AT CA2\nEND\nCONTINUE Bert")
	if g.st.Pending.Kind != engine.DecideRetreat || g.st.Pending.Side != 1 || len(res.NotApplied) != 1 {
		t.Fatalf("after END: %s; not applied %v\n%s", engine.Waiting(g.sc, g.st), res.NotApplied, g.story(res.Events))
	}
	if len(resolved(res.Events)) != 1 {
		t.Errorf("the second attack was rolled before the retreat:\n%s", g.story(res.Events))
	}
	legal := engine.Legal(g.sc, g.st)
	evs := g.send(1, legal[len(legal)-1]).Events
	want := strings.TrimPrefix(legal[len(legal)-1], "RETREAT CA1 ")
	if u := g.unit("CA1"); u.Hex.String() != want {
		t.Errorf("CA1 in %s, want the hex chosen, %s", u.Hex, want)
	}
	if adv, ok := findEvent[engine.UnitAdvanced](evs); !ok || adv.Unit != "AN1" {
		t.Errorf("no Advance after the retreat:\n%s", g.story(evs))
	}
	if len(resolved(evs)) < 1 || g.st.Shock != nil || g.st.Pending.Kind != engine.DecideContinuation {
		t.Errorf("the phase did not go on to its end: %s\n%s", engine.Waiting(g.sc, g.st), g.story(evs))
	}
}

// TestShockWaitsForTheAttackersRetreat: the active player's own retreat
// choice stops the phase too, and his next block gives it.
func TestShockWaitsForTheAttackersRetreat(t *testing.T) {
	g := melee(t, 0)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
	g.send(0, "STANDING RETREAT ASK")
	g.send(0, "ACTIVATE Anna")
	g.send(0, "SHOCK AN1 AT CA1\nEND")
	if g.st.Pending.Kind != engine.DecideRetreat || g.st.Pending.Side != 0 {
		t.Fatalf("after END: %s", engine.Waiting(g.sc, g.st))
	}
	g.send(0, engine.Legal(g.sc, g.st)[0])
	if g.st.Shock != nil || g.st.Pending.Kind != engine.DecideContinuation || g.unit("AN1").Status != engine.Disordered {
		t.Errorf("after the retreat: %s, AN1 %+v", engine.Waiting(g.sc, g.st), g.unit("AN1"))
	}
}

// TestChargeWaitsForReactionFire: with STANDING REACTION FIRE ASK a Charge
// into a missile unit's Frontal hex stops there (9.2, ruling R71); REACT
// fires and the Charge goes on to its attack, HOLD FIRE lets it go on.
func TestChargeWaitsForReactionFire(t *testing.T) {
	for _, answer := range []string{"REACT DO1", "HOLD FIRE"} {
		dice := []int{5, 5}
		if answer == "HOLD FIRE" {
			dice = []int{5, 5}
		}
		g := melee(t, dice...)
		g.troop("CA1", "0505", hex.FaceSW, "PK")
		g.troop("DO1", "0504", hex.FaceSW, "LB") // its Front: 0505 and 0405, where the Charge ends
		g.troop("AN2", "0304", hex.FaceE, "MMAA")
		g.send(1, "STANDING REACTION FIRE ASK")
		g.send(0, "ACTIVATE Anna")
		res := g.send(0, "CHARGE AN2 AT CA1\nEND")
		if g.st.Pending.Kind != engine.DecideReaction || res.Rolled {
			t.Fatalf("%s: after END: %s, rolled %v", answer, engine.Waiting(g.sc, g.st), res.Rolled)
		}
		if legal := strings.Join(engine.Legal(g.sc, g.st), "|"); legal != "REACT DO1|HOLD FIRE" {
			t.Errorf("legal: %s", legal)
		}
		evs := g.send(1, answer).Events
		fired, ok := findEvent[engine.UnitFired](evs)
		if ok != (answer == "REACT DO1") || ok && !fired.Reaction {
			t.Errorf("%s: fired %v:\n%s", answer, ok, g.story(evs))
		}
		a := resolved(evs)
		if len(a) != 1 {
			t.Fatalf("%s: %d attacks:\n%s", answer, len(a), g.story(evs))
		}
		// Reacting: 5 +2 at range 1 = 7 Disorders the charger, which
		// Shocks (11.3); holding, the Charge goes home.
		if wantTable := map[string]string{"REACT DO1": "Shock", "HOLD FIRE": "Charge"}[answer]; !strings.HasPrefix(a[0].Table, wantTable) {
			t.Errorf("%s: %s Table, want %s:\n%s", answer, a[0].Table, wantTable, g.story(evs))
		}
		if g.st.Shock != nil || g.st.Pending.Kind != engine.DecideContinuation {
			t.Errorf("%s: %s", answer, engine.Waiting(g.sc, g.st))
		}
	}
}
