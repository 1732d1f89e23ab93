package engine_test

import (
	"bytes"
	"slices"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// replays checks that the events sent since start rebuild the game's state.
func (g *game) replays(start *engine.State) {
	g.t.Helper()
	st := start.Clone()
	engine.ReplayFrom(st, g.events)
	if !bytes.Equal(st.Encode(), g.st.Encode()) {
		g.t.Errorf("replaying the events does not give the state:\nreplayed %s\nplayed   %s", st.Encode(), g.st.Encode())
	}
}

// TestAdvanceChosenByTheAttacker: 10.5. Two Mounted MAA, neither charging
// nor Disordered, drive a Pike back: the priorities leave a tie, and "The
// English player chooses unit Z" (10.5 example). With STANDING ADVANCE
// AFTER COMBAT ASK the phase waits for the attacker's ADVANCE; the unit
// advancing without a Continued Attack "may change its facing as it
// wishes". A unit or hex outside the choices is refused, nothing changed.
func TestAdvanceChosenByTheAttacker(t *testing.T) {
	c := "0505"
	g := melee(t, 7)
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN2", g.nb(c, hex.NW), hex.FaceSE, "MMAA")
	g.troop("BE2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
	g.troop("AN1", "0101", hex.FaceE, "DMAA")
	start := g.st.Clone()
	g.send(0, "STANDING ADVANCE AFTER COMBAT ASK")
	evs := g.shockRound("SHOCK AN2 AT CA1\nSHOCK BE2 AT CA1\nEND")
	a := resolved(evs)
	if len(a) != 1 || a[0].Result != "Defender Disordered, Retreat 1 Hex" {
		t.Fatalf("want one attack that drives the Pike back:\n%s", g.story(evs))
	}
	if g.st.Pending.Kind != engine.DecideAdvance || g.st.Pending.Side != 0 {
		t.Fatalf("waiting: %s; want the attacker's choice of Advance", engine.Waiting(g.sc, g.st))
	}
	want := []string{"ADVANCE AN2 " + c, "ADVANCE BE2 " + c, "ADVANCE <unit> <hex> [FACE <vertex>]"}
	if got := engine.Legal(g.sc, g.st); !slices.Equal(got, want) {
		t.Errorf("Legal %q, want %q", got, want)
	}
	g.refuse(0, "ADVANCE AN1 "+c, "10.5")
	g.refuse(0, "ADVANCE BE2 "+g.nb(c, hex.N), "10.5")
	g.refuse(1, "ADVANCE BE2 "+c, "4.1")
	res := g.send(0, "ADVANCE BE2 "+c+" FACE SE")
	adv, ok := findEvent[engine.UnitAdvanced](res.Events)
	if !ok || adv.Unit != "BE2" || adv.To != h(t, c) {
		t.Errorf("advance %+v, want BE2 into %s:\n%s", adv, c, g.story(res.Events))
	}
	if u := g.unit("BE2"); u.Hex != h(t, c) || u.Facing != hex.FaceSE {
		t.Errorf("BE2 after its advance: %+v, want in %s facing SE", u, c)
	}
	if u := g.unit("AN2"); u.Hex != h(t, g.nb(c, hex.NW)) {
		t.Errorf("AN2 moved: %+v", u)
	}
	if g.st.Shock != nil || g.st.Pending.Kind != engine.DecideContinuation {
		t.Errorf("after the Advance: %s; want the Shock Phase over", engine.Waiting(g.sc, g.st))
	}
	g.replays(start)
}

// TestAdvanceIntoEitherHex: 10.5 "If a unit attacked more than one
// defender and both hexes are vacated, the attacker chooses which hex to
// Advance into" — but a unit advancing for its Continued Attack keeps its
// facing (10.5, 12.7).
func TestAdvanceIntoEitherHex(t *testing.T) {
	c := "0505"
	g := melee(t, 9, 9)
	s := g.nb(c, hex.S)
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("CA2", s, hex.FaceW, "LB")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
	start := g.st.Clone()
	g.send(0, "STANDING ADVANCE AFTER COMBAT ASK")
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	if a := resolved(evs); len(a) != 2 || a[0].Result != "Defender Eliminated, Continued Attack" || a[1].Result != "Defender Eliminated, Continued Attack" {
		t.Fatalf("want both Longbows eliminated:\n%s", g.story(evs))
	}
	want := []string{"ADVANCE AN2 " + c, "ADVANCE AN2 " + s}
	if got := engine.Legal(g.sc, g.st); !slices.Equal(got, want) {
		t.Errorf("Legal %q, want %q", got, want)
	}
	g.refuse(0, "ADVANCE AN2 "+s+" FACE E", "10.5, 12.7")
	res := g.send(0, "ADVANCE AN2 "+s)
	if u := g.unit("AN2"); u.Hex != h(t, s) || u.Facing != hex.FaceE {
		t.Errorf("AN2 after its advance: %+v, want in %s, facing E as before", u, s)
	}
	round, ok := findEvent[engine.ShockRound](res.Events)
	if !ok || round.Round != 1 || !slices.Equal(round.Units, []string{"AN2"}) {
		t.Errorf("Continued Attack round %+v, want AN2's first:\n%s", round, g.story(res.Events))
	}
	g.replays(start)
}

// TestAdvanceNotAskedWithoutAChoice: one unit, one vacated hex and a
// Continued Attack leave nothing to choose, so no question is asked even
// with STANDING ADVANCE AFTER COMBAT ASK.
func TestAdvanceNotAskedWithoutAChoice(t *testing.T) {
	c := "0505"
	g := melee(t, 9, 0, 0, 0)
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
	g.send(0, "STANDING ADVANCE AFTER COMBAT ASK")
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	if _, ok := findEvent[engine.AdvanceAsked](evs); ok {
		t.Errorf("asked with one choice:\n%s", g.story(evs))
	}
	if adv, ok := findEvent[engine.UnitAdvanced](evs); !ok || adv.Unit != "AN2" || !adv.ContinuedAttack {
		t.Errorf("advance %+v, want AN2 for its Continued Attack:\n%s", adv, g.story(evs))
	}
}

// TestAdvanceAfterACounterChargeAgainstFire: the Charge of a Counter-Charge
// against fire is the non-active player's (11.6), and so is its Advance:
// asked of him, it gives the move back to the firing player once made.
func TestAdvanceAfterACounterChargeAgainstFire(t *testing.T) {
	g := melee(t, 5, 0, 0, 3) // 0: AN1's Reaction Fire at the Counter-Charge (9.2, R87)
	g.troop("CA1", "0505", hex.FaceW, "MMAA")
	g.troop("AN1", "0305", hex.FaceE, "LB")
	start := g.st.Clone()
	g.send(1, "STANDING ADVANCE AFTER COMBAT ASK")
	g.send(0, "ACTIVATE Anna")
	g.send(0, "FIRE AN1 AT CA1")
	if g.st.Pending.Kind != engine.DecideAdvance || g.st.Pending.Side != 1 {
		t.Fatalf("waiting: %s; want the Counter-Charger's owner to choose its Advance", engine.Waiting(g.sc, g.st))
	}
	g.send(1, "ADVANCE CA1 0305 FACE SW")
	if u := g.unit("CA1"); u.Hex != h(t, "0305") || u.Facing != hex.FaceSW {
		t.Errorf("CA1: %+v, want in 0305 facing SW", u)
	}
	if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != 0 || g.st.Shock != nil {
		t.Errorf("after the Advance: %s; want the firing player's orders again", engine.Waiting(g.sc, g.st))
	}
	g.replays(start)
}
