package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// blood-and-roses.md 16.3 Levy Infantry, on the volume's house tables
// (unit_types.LVY: shock_partner, no_advance, no_continued_attack).

// 16.3 "May only Shock attack in conjunction with another unit that is
// not also a Levy Infantry unit": alone or with another Levy it is
// refused before any die; with Infantry at the same defender it attacks.
func TestBloodAndRosesLevyShocksWithAPartner(t *testing.T) {
	g := brMelee(t, 0)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "LVY")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "LVY")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "SHOCK AN1 AT CA1\nEND", "Blood & Roses 16.3")
	if !strings.Contains(e.Reason, "AN1 (Levy Infantry) may Shock attack only in conjunction with another unit") {
		t.Errorf("refusal: %v", e)
	}
	g.refuse(red, "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1\nEND", "Blood & Roses 16.3")
	// Declared alone in a block without END, a Levy could never be
	// taken back: it is refused at once, and its partner comes first.
	e = g.refuse(red, "SHOCK AN1 AT CA1", "Blood & Roses 16.3")
	if !strings.Contains(e.Reason, "declare that unit's SHOCK or CHARGE at CA1 first") {
		t.Errorf("refusal: %v", e)
	}
	g.troop("BE1", g.nb(c, hex.SE), hex.FaceNW, "INF")
	g.send(red, "SHOCK BE1 AT CA1")
	g.send(red, "SHOCK AN1 AT CA1")
	g.send(red, "END")
}

// 16.3 "They may never Advance After Combat and may never be the unit
// chosen to receive a Continued Attack marker". The Levy AN1 and the
// Infantry AN2 retire CA1 with a Continued Attack (9 +1 Strength = 10):
// into the impassable hex CA1 leaves nobody advances, and only AN2
// continues; where the hex is open AN2 advances, not AN1 (the first by
// id, which Herald would otherwise take, R75).
func TestBloodAndRosesLevyNeverAdvancesNorContinues(t *testing.T) {
	for _, open := range []bool{false, true} {
		g := brMelee(t, 9)
		c := "0505"
		g.troop("CA1", c, hex.FaceW, "INF")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "LVY")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "INF")
		if !open {
			g.impassable(c)
		}
		evs := g.shockRound("SHOCK AN2 AT CA1\nSHOCK AN1 AT CA1\nEND")
		if g.unit("CA1").Status != engine.Retired {
			t.Fatalf("want CA1 Retired:\n%s", g.story(evs))
		}
		adv, advanced := findEvent[engine.UnitAdvanced](evs)
		var rounds []string
		for _, e := range evs {
			if r, ok := e.(engine.ShockRound); ok && r.Round > 0 {
				rounds = append(rounds, strings.Join(r.Units, " "))
			}
		}
		switch {
		case !open && (advanced || strings.Join(rounds, ";") != "AN2"):
			t.Errorf("closed hex: advanced %v, Continued Attacks by %q, want AN2 alone:\n%s", advanced, rounds, g.story(evs))
		case open && (!advanced || adv.Unit != "AN2" || !adv.ContinuedAttack):
			t.Errorf("open hex: advance %+v, want AN2 with the Continued Attack:\n%s", adv, g.story(evs))
		}
	}
}
