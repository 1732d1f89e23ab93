package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// nb walks from hex s by the directions given and returns the hex reached.
func (g *game) nb(s string, dirs ...hex.Dir) string {
	g.t.Helper()
	at := h(g.t, s)
	for _, d := range dirs {
		at = g.sc.Map.Grid.Neighbor(at, d)
	}
	return at.String()
}

// TestShockDeclarationsRefused: every declaration the rules forbid is
// refused with its rule before any die is rolled, and changes nothing.
// The Scots Longbow CA1 stands in 0505 and the Pike CA2 south of it, both
// facing W; the Dismounted MAA AN1 faces them both from 0406.
func TestShockDeclarationsRefused(t *testing.T) {
	g := melee(t)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
	g.troop("AN2", "0202", hex.FaceE, "MMAA")
	g.troop("BE1", g.nb(c, hex.NW), hex.FaceSE, "LB")
	g.troop("BE2", g.nb(c, hex.N), hex.FaceSE, "MMAA")
	g.st.Unit("BE2").Status = engine.Retired
	g.send(0, "ACTIVATE Anna")

	for _, c := range []struct{ block, rule, says string }{
		{"SHOCK AN1 AT CA1\nEND", "10.1", "must also attack CA2"},
		{"SHOCK AN2 AT CA1", "10.1", "not in a Frontal hex of AN2"},
		{"SHOCK BE1 AT CA1", "10.1", "Attacker row"},
		{"SHOCK BE2 AT CA1", "12.4", "Retired"},
		{"SHOCK AN1 AT DO1", "10.1", "no unit called"},
		{"SHOCK AN1 AT CA1 CA2\nMOVE AN2 0302", "ExtSoP C", "Shock Phase has begun"},
		{"SHOCK AN1 AT CA1 CA2\nFACE AN2 SE", "ExtSoP C", "Shock Phase has begun"},
		{"CHARGE AN1 AT CA1", "11.1", "only Mounted Men-at-Arms"},
		{"CHARGE AN2 AT CA1", "11.3", "one or two hexes between"},
	} {
		ill := g.refuse(0, c.block, c.rule)
		if !strings.Contains(ill.Error(), c.says) {
			t.Errorf("%q: %v, want it to say %q", c.block, ill, c.says)
		}
	}
	ill := g.refuse(0, "SHOCK AN1 AT CA1\nEND", "10.1")
	if !strings.Contains(strings.Join(ill.Legal, "\n"), "SHOCK AN1 AT CA1 CA2") {
		t.Errorf("legal orders %v do not offer SHOCK AN1 AT CA1 CA2", ill.Legal)
	}
	g.st.Unit("AN1").ShieldWall = true
	g.refuse(0, "SHOCK AN1 AT CA1 CA2", "14.1")
}

// TestShockAttackedOnce: a unit is attacked once per Activation, and a
// unit attacking two defenders does so by itself (10.1); two Charges may
// not share a path (11.3).
func TestShockAttackedOnce(t *testing.T) {
	g := melee(t)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
	g.troop("BE1", g.nb(c, hex.S, hex.SW), hex.FaceNE, "DMAA")
	g.troop("AN2", g.nb(c, hex.NW, hex.NW), hex.FaceE, "MMAA")
	g.troop("BE2", g.nb(c, hex.NW, hex.NW, hex.SW), hex.FaceE, "MMAA")
	g.send(0, "ACTIVATE Anna")
	ill := g.refuse(0, "SHOCK AN1 AT CA1 CA2\nSHOCK BE1 AT CA2\nEND", "10.1")
	if !strings.Contains(ill.Reason, "attacked twice") {
		t.Errorf("%v: want 'attacked twice'", ill)
	}
	// Both Charges at CA1 would end in 0405.
	g.st.Unit("AN1").OffMap, g.st.Unit("BE1").OffMap = true, true
	ill = g.refuse(0, "CHARGE AN2 AT CA1 0405\nCHARGE BE2 AT CA1 0305 0405\nEND", "11.3")
	if !strings.Contains(ill.Reason, "shares 0405") {
		t.Errorf("%v: want the shared hex named", ill)
	}
}

// TestChargeRestrictions: 11.1 (Disordered, next to the enemy when the
// Activation began, Out of Command 15.2), 11.3 (no Charge into Woods,
// across a river, through an enemy ZOC, without a frontal path), 14.1 (not
// through the Front of a Shield Wall).
func TestChargeRestrictions(t *testing.T) {
	setup := func(t *testing.T) *game {
		g := melee(t)
		g.troop("CA1", "0505", hex.FaceW, "PK")
		g.troop("AN2", "0304", hex.FaceE, "MMAA") // two hexes away, 0405 between
		return g
	}
	t.Run("legal", func(t *testing.T) {
		g := setup(t)
		g.send(0, "ACTIVATE Anna")
		if legal := strings.Join(engine.Legal(g.sc, g.st), "\n"); !strings.Contains(legal, "CHARGE AN2 AT CA1 0405") {
			t.Errorf("legal orders do not offer the Charge:\n%s", legal)
		}
		g.send(0, "CHARGE AN2 AT CA1")
	})
	for _, c := range []struct {
		name, rule, says string
		prepare          func(g *game)
	}{
		{"disordered", "11.1", "Disordered", func(g *game) { g.st.Unit("AN2").Status = engine.Disordered }},
		{"engaged", "11.1", "began the Activation next to an enemy", func(g *game) { g.troop("DO1", "0204", hex.FaceE, "PK") }},
		{"out of command", "15.2", "Out of Command", func(g *game) { g.sc.Leaders[0].Range = 1 }},
		{"woods", "11.3", "Woods", func(g *game) { g.sc.Map.Terrain[h(g.t, "0505")] = "woods" }},
		{"river", "11.3", "River", func(g *game) {
			g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(g.t, "0405"), B: h(g.t, "0505"), Feature: "river"})
		}},
		{"enemy ZOC on the way", "11.3", "enemy ZOC", func(g *game) {
			g.troop("CA1", "0606", hex.FaceW, "PK")  // three hexes away: the only path is 0405 0505
			g.troop("DO1", "0406", hex.FaceNE, "LB") // its ZOC covers 0405
		}},
		{"no frontal path", "11.3", "Frontal hexes", func(g *game) { g.st.Unit("AN2").Facing = hex.FaceW }},
		{"shield wall", "11.3", "Shield Wall", func(g *game) { g.st.Unit("CA1").ShieldWall = true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := setup(t)
			c.prepare(g)
			g.send(0, "ACTIVATE Anna")
			ill := g.refuse(0, "CHARGE AN2 AT CA1", c.rule)
			if !strings.Contains(ill.Error(), c.says) {
				t.Errorf("%v: want it to say %q", ill, c.says)
			}
		})
	}
}

// TestChargeTargetsOneUnit: 11.3 "A Charge is a special form of Shock that
// targets only one unit" (ruling R83): a second target is refused as a
// path hex that is not a hex.
func TestChargeTargetsOneUnit(t *testing.T) {
	_, err := engine.ParseOrders(engine.SplitLines("CHARGE AN2 AT CA1 CA2"))
	if err == nil || !strings.Contains(err.Error(), "targets only one unit") {
		t.Errorf("CHARGE at two units: %v", err)
	}
}

// TestChargeAfterTurningOnly: 11.2 "if the unit moved during its
// Activation, the DRM is only +1": a change of facing is not Movement
// (5.2 PLAY NOTE, ruling R82), so the Charge keeps its +2.
func TestChargeAfterTurningOnly(t *testing.T) {
	g := melee(t, 5, 0)
	g.troop("CA1", "0505", hex.FaceSW, "PK")
	g.troop("AN2", "0304", hex.FaceNE, "MMAA")
	evs := g.shockRound("FACE AN2 E\nCHARGE AN2 AT CA1\nEND")
	if a := resolved(evs); len(a) == 0 || !strings.Contains(modRules(a[0]), "+2 10.4 #4, 11.2") {
		t.Errorf("want the full +2:\n%s", g.story(evs))
	}
}
