package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The battle markers of 2.2 (No Retreat, Wagon, Bombard) and the Nájera
// Genitors' battle switch (7.2 Design Note), played through the order
// language with scripted dice: rulings R113–R116.

// noRetreatRider is the melee fixture with the Scots Mounted MAA CA1 in
// 0505 facing W under a No Retreat marker, and the Dismounted MAA AN1
// facing it from 0406, in its Front: a Shock by foot that 10.2 would let
// CA1 Retreat Before.
func noRetreatRider(t *testing.T, dice ...int) *game {
	t.Helper()
	g := melee(t, dice...)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "MMAA")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
	g.st.Unit("CA1").NoRetreat = true
	return g
}

// TestNoRetreatBeforeShockR115: a unit under No Retreat "never retreats"
// (ruling R115), so a mounted one may not Retreat Before Shock (10.2):
// its STANDING RETREAT BEFORE SHOCK ALWAYS leaves it in its hex to be
// attacked; ASK asks nothing about a retreat; Legal offers none; the
// order is refused citing 10.2 and R115.
func TestNoRetreatBeforeShockR115(t *testing.T) {
	t.Run("standing ALWAYS: it stands and is attacked (10.2, R115)", func(t *testing.T) {
		g := noRetreatRider(t, 5)
		g.send(blue, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if rbs, ok := findEvent[engine.RetreatedBeforeShock](evs); ok {
			t.Fatalf("CA1 under No Retreat Retreated Before Shock: %+v\n%s", rbs, g.story(evs))
		}
		if a := resolved(evs); len(a) != 1 || a[0].Defender != "CA1" {
			t.Errorf("want the Shock on CA1 resolved:\n%s", g.story(evs))
		}
		if u := g.unit("CA1"); u.Hex != h(t, "0505") {
			t.Errorf("CA1 in %s, want 0505", u.Hex)
		}
	})
	t.Run("standing ASK: no retreat is asked (10.2, R115)", func(t *testing.T) {
		g := noRetreatRider(t, 5)
		g.send(blue, "STANDING RETREAT BEFORE SHOCK ASK\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if _, ok := findEvent[engine.ResponsesAsked](evs); ok || g.st.Pending.Kind == engine.DecideResponse {
			t.Fatalf("a Retreat Before Shock was asked of CA1 under No Retreat: %s\n%s", engine.Waiting(g.sc, g.st), g.story(evs))
		}
		if a := resolved(evs); len(a) != 1 || a[0].Defender != "CA1" {
			t.Errorf("want the Shock on CA1 resolved:\n%s", g.story(evs))
		}
	})
	t.Run("asked to Counter-Charge: no retreat offered, the order refused (10.2, R115)", func(t *testing.T) {
		g := noRetreatRider(t, 5)
		g.send(blue, "STANDING RETREAT BEFORE SHOCK ASK\nSTANDING COUNTER-CHARGE ASK")
		g.shockRound("SHOCK AN1 AT CA1\nEND")
		if g.st.Pending.Kind != engine.DecideResponse || g.st.Pending.Side != blue {
			t.Fatalf("want CA1's Counter-Charge asked: %s", engine.Waiting(g.sc, g.st))
		}
		legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
		if strings.Contains(legal, "RETREAT BEFORE SHOCK") || !strings.Contains(legal, "COUNTER-CHARGE CA1") {
			t.Errorf("legal answers for CA1 under No Retreat:\n%s", legal)
		}
		if w := engine.Waiting(g.sc, g.st); !strings.Contains(w, "CA1") {
			t.Errorf("waiting: %s", w)
		}
		ill := g.refuse(blue, "RETREAT BEFORE SHOCK CA1 0605", "10.2, R115")
		if !strings.Contains(ill.Reason, "No Retreat") || !strings.Contains(ill.Reason, "may not Retreat Before Shock") {
			t.Errorf("refusal %v: want it to name the No Retreat marker", ill)
		}
		evs := g.send(blue, "STAND CA1").Events
		if a := resolved(evs); len(a) != 1 || a[0].Defender != "CA1" || g.unit("CA1").Hex != h(t, "0505") {
			t.Errorf("want CA1 to stand and be attacked in 0505:\n%s", g.story(evs))
		}
	})
	t.Run("without the marker the same rider retreats (10.2)", func(t *testing.T) {
		g := noRetreatRider(t)
		g.st.Unit("CA1").NoRetreat = false
		g.send(blue, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if _, ok := findEvent[engine.RetreatedBeforeShock](evs); !ok || len(resolved(evs)) != 0 {
			t.Errorf("want CA1 to Retreat Before Shock and no attack:\n%s", g.story(evs))
		}
	})
}

// wagonsAt makes hex x of the melee fixture the Wagons terrain of the
// house TEC (ruling R113), with the Scots Longbow CA1 in it facing W.
func wagonsAt(t *testing.T, dice ...int) *game {
	t.Helper()
	g := melee(t, dice...)
	g.sc.Map.Terrain[h(t, "0505")] = "wagons"
	g.troop("CA1", "0505", hex.FaceW, "LB")
	return g
}

// TestWagonsInShockR113: Shock against a defender among the Wagons earns
// the terrain DRM of 10.4 #2B from the house TEC (moi.yaml wagons shock:
// foot -1, mounted -2; ruling R113), by the attacker's class.
func TestWagonsInShockR113(t *testing.T) {
	t.Run("foot attacker: -1 (10.4 #2B, R113)", func(t *testing.T) {
		g := wagonsAt(t, 5)
		g.troop("AN1", g.nb("0505", hex.SW), hex.FaceE, "DMAA")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%s", g.story(evs))
		}
		// 5 -1 Wagons +1 the Longbow's Shock Defense +2 DMAA against LB = 7.
		wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #2B", "+1 10.4 #3", "+2 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
		if !strings.Contains(modText(atts[0].Roll.Mods), "Wagons") {
			t.Errorf("the terrain DRM does not name the Wagons: %s", modText(atts[0].Roll.Mods))
		}
	})
	t.Run("mounted attacker: -2 (10.4 #2B, R113)", func(t *testing.T) {
		g := wagonsAt(t, 5)
		g.troop("AN2", g.nb("0505", hex.SW), hex.FaceE, "MMAA")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%s", g.story(evs))
		}
		// 5 -2 Wagons +1 the Longbow's Shock Defense +3 MMAA against LB = 7.
		wantAttack(t, atts[0], "CA1", 5, []string{"-2 10.4 #2B", "+1 10.4 #3", "+3 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
		if !strings.Contains(modText(atts[0].Roll.Mods), "Wagons") {
			t.Errorf("the terrain DRM does not name the Wagons: %s", modText(atts[0].Roll.Mods))
		}
	})
	t.Run("the same Shock in the open: no terrain DRM", func(t *testing.T) {
		g := wagonsAt(t, 5)
		g.sc.Map.Terrain[h(t, "0505")] = "clear"
		g.troop("AN2", g.nb("0505", hex.SW), hex.FaceE, "MMAA")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		if atts := resolved(evs); len(atts) != 1 || strings.Contains(modRules(atts[0]), "10.4 #2B") {
			t.Errorf("%s", g.story(evs))
		}
	})
}

// TestNoChargeIntoWagonsR113: "no Charge into the hex" (ruling R113, as
// 11.3's terrain a unit may not be Charged in): the Charge at a unit among
// the Wagons is refused citing 11.3 and naming the Wagons; a Shock from the
// same Mounted MAA is the way in.
func TestNoChargeIntoWagonsR113(t *testing.T) {
	g := wagonsAt(t)
	g.troop("AN2", "0304", hex.FaceE, "MMAA")
	g.send(red, "ACTIVATE Anna")
	if charges := legalCharges(g, "CHARGE AN2 AT CA1"); len(charges) != 0 {
		t.Errorf("a Charge into the Wagons offered: %v", charges)
	}
	ill := g.refuse(red, "CHARGE AN2 AT CA1", "11.3")
	if !strings.Contains(ill.Reason, "CA1 stands in Wagons") || !strings.Contains(ill.Reason, "may not be Charged") {
		t.Errorf("refusal %v: want it to name the Wagons", ill)
	}
	// Out of the Wagons the same Charge is declared.
	open := melee(t)
	open.troop("CA1", "0505", hex.FaceW, "LB")
	open.troop("AN2", "0304", hex.FaceE, "MMAA")
	open.send(red, "ACTIVATE Anna")
	if charges := legalCharges(open, "CHARGE AN2 AT CA1"); len(charges) == 0 {
		t.Errorf("no Charge at CA1 in the open offered: %v", engine.Legal(open.sc, open.st))
	}
	open.send(red, "CHARGE AN2 AT CA1")
}

// legalCharges are the Legal orders that begin with prefix.
func legalCharges(g *game, prefix string) []string {
	var out []string
	for _, l := range engine.Legal(g.sc, g.st) {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// genitorsFront is the melee fixture with the Genitors CA1 in 0505 facing
// W under the battle switch rules.no_zoc: [GEN] (ruling R114), and the
// Longbow AN1 on one side of CA1's first Frontal hex x, b across it.
func genitorsFront(t *testing.T, typ string, noZOC ...string) (g *game, x, b hex.Hex) {
	t.Helper()
	g = melee(t)
	g.sc.Rules.NoZOC = noZOC
	g.troop("CA1", "0505", hex.FaceW, typ)
	z := zocOf(t, g, "0505", hex.FaceW)
	a, b := across(t, g, z[0], h(t, "0505"), z[0], z[1])
	g.troop("AN1", a.String(), hex.FaceE, "LB")
	g.send(blue, "STANDING REACTION FIRE NEVER") // the Genitors' javelins hold (9.2): the move alone is tested
	return g, z[0], b
}

// TestGenitorsWithoutZOCR114: under rules.no_zoc: [GEN] an enemy walks
// through the Genitors' Frontal hex without stopping (7.1, 7.2 Design
// Note, ruling R114); without the switch, or past a Mounted MAA whose
// type the switch does not list, the same move is refused (7.2).
func TestGenitorsWithoutZOCR114(t *testing.T) {
	g, x, b := genitorsFront(t, "GEN", "GEN")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 "+x.String()+" "+b.String())
	if u := g.unit("AN1"); u.Hex != b {
		t.Errorf("AN1 in %s, want %s past the Genitors' front", u.Hex, b)
	}
	for _, c := range []struct {
		name, typ string
		noZOC     []string
	}{
		{"Genitors without the switch (7.2)", "GEN", nil},
		{"Mounted MAA under the switch for Genitors (7.2, R114)", "MMAA", []string{"GEN"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, x, b := genitorsFront(t, c.typ, c.noZOC...)
			g.send(red, "ACTIVATE Anna")
			ill := g.refuse(red, "MOVE AN1 "+x.String()+" "+b.String(), "7.2")
			if !strings.Contains(ill.Reason, "CA1") {
				t.Errorf("refusal %v: want it to name CA1", ill)
			}
			g.send(red, "MOVE AN1 "+x.String()) // it may enter, and stops
		})
	}
}

// TestGenitorsDoNotBlockCommandRangeR114: "You cannot trace Command range
// through ... an enemy ZOC hex not occupied by a friendly unit" (15.2);
// under rules.no_zoc: [GEN] the Genitors have none, so Anna's range of 2
// reaches AN2 through the one hex between them, in the Genitors' front
// (ruling R114); without the switch AN2 is Out of Command.
func TestGenitorsDoNotBlockCommandRangeR114(t *testing.T) {
	for _, c := range []struct {
		noZOC []string
		out   bool
	}{{[]string{"GEN"}, false}, {nil, true}} {
		g := melee(t)
		g.sc.Rules.NoZOC = c.noZOC
		g.sc.Leaders[0].Range = 2 // Anna
		l := h(t, "0308")
		n0 := g.sc.Map.Grid.Neighbor(l, hex.N)
		x := g.sc.Map.Grid.Neighbor(n0, hex.N) // two hexes straight on: n0 the only hex between
		g.lead("anna", l.String())
		g.troop("AN2", x.String(), hex.FaceE, "LB")
		p := zocOnto(t, g, n0, l, x)
		g.troop("CA1", p.hex.String(), p.facing, "GEN")
		if out := outOfCommand(t, g); slices.Contains(out, "AN2") != c.out {
			t.Errorf("no_zoc %v: Genitors in %s facing %s over %s; out of Command %v, want AN2 out %v", c.noZOC, p.hex, p.facing, n0, out, c.out)
		}
	}
}

// firedIn is the first UnitFired of unit id among evs.
func firedIn(evs []engine.Event, id string) (engine.UnitFired, bool) {
	for _, e := range evs {
		if f, ok := e.(engine.UnitFired); ok && f.Unit == id {
			return f, true
		}
	}
	return engine.UnitFired{}, false
}

// fireMods lists a shot's modifiers as "+1 9.3; +1 2.2, R116".
func fireMods(f engine.UnitFired) string {
	var out []string
	for _, m := range f.Roll.Mods {
		out = append(out, fmt.Sprintf("%+d %s", m.DRM, m.Rule))
	}
	return strings.Join(out, "; ")
}

// TestBombardInFireR116: in the battle-rules battle (Red's Bombard in
// 0403, range 3) Red's FIRE at a Mounted unit within the Bombard's range
// narrates the Bombard's +1 (fire_drm.bombard; 2.2, ruling R116), in
// Active and in Return Fire; fire at foot does not; once a Blue unit
// stands on the Bombard it gives nothing. The Bombard is no unit and lends
// no range: no order names it, and a shot beyond the bow's range is
// refused however near the Bombard the target stands (9.1).
func TestBombardInFireR116(t *testing.T) {
	t.Run("active fire at Mounted MAA: +1 (2.2, R116)", func(t *testing.T) {
		// 4 +1 Longbow at range 2 +1 Bombard = 6, mounted column: Disordered.
		g := battleGame(t, 4)
		res := g.send(red, "ACTIVATE anna\nFIRE LB1 AT MM1")
		f, ok := firedIn(res.Events, "LB1")
		if !ok || f.Target != "MM1" || f.Roll.Die != 4 || fireMods(f) != "+1 9.3; +1 2.2, R116" || f.Roll.Total != 6 ||
			f.Column != engine.FireMounted || f.Result != "Disordered" {
			t.Errorf("LB1's shot %+v (%s), want 4 +1 9.3 +1 2.2, R116 = 6 on the mounted column: Disordered", f, fireMods(f))
		}
		story := strings.Join(narrative(g.sc, res.Events), "\n")
		if !strings.Contains(story, "+1 MM1 is Mounted and within 3 hexes of the Bombard in 0403 (2.2, R116), modified to 6 on the mounted column: Disordered") {
			t.Errorf("the narrative does not give the Bombard's +1:\n%s", story)
		}
		if u := g.unit("MM1"); u.Status != engine.Disordered {
			t.Errorf("MM1 %+v, want Disordered", u)
		}
	})
	t.Run("return fire at the Genitors: +1 (2.2, R116)", func(t *testing.T) {
		// GEN1's javelin at LB1, 0; LB1's Return Fire at GEN1 (Mounted, 2
		// hexes from the Bombard), 3 +2 at range 1 +1 Bombard = 6.
		g := battleGame(t, 0, 3)
		g.send(red, "PASS")
		res := g.send(blue, "ACTIVATE carl\nFIRE GEN1 AT LB1")
		f, ok := firedIn(res.Events, "LB1")
		if !ok || !f.Return || f.Target != "GEN1" || f.Roll.Die != 3 || fireMods(f) != "+2 9.3; +1 2.2, R116" || f.Roll.Total != 6 {
			t.Errorf("LB1's Return Fire %+v (%s), want 3 +2 9.3 +1 2.2, R116 = 6\n%s", f, fireMods(f), strings.Join(narrative(g.sc, res.Events), "\n"))
		}
		if gf, ok := firedIn(res.Events, "GEN1"); !ok || strings.Contains(fireMods(gf), "R116") {
			t.Errorf("Blue's own shot %+v: the Bombard is Red's", gf)
		}
	})
	t.Run("fire at foot: none (R116)", func(t *testing.T) {
		g := battleGame(t, 4)
		res := g.send(red, "ACTIVATE anna\nFIRE LB1 AT NR2")
		if f, ok := firedIn(res.Events, "LB1"); !ok || strings.Contains(fireMods(f), "R116") {
			t.Errorf("LB1 at the foot NR2: %+v (%s)", f, fireMods(f))
		}
	})
	t.Run("an enemy on the Bombard: none (R116)", func(t *testing.T) {
		g := battleGame(t, 4)
		g.st.Unit("DM1").Hex = h(t, "0403")
		res := g.send(red, "ACTIVATE anna\nFIRE LB1 AT MM1")
		if f, ok := firedIn(res.Events, "LB1"); !ok || fireMods(f) != "+1 9.3" || f.Roll.Total != 5 {
			t.Errorf("LB1 at MM1 with DM1 on the Bombard: %+v (%s), want 4 +1 9.3 = 5", f, fireMods(f))
		}
	})
	t.Run("no order names the Bombard (9.1, R116)", func(t *testing.T) {
		g := battleGame(t)
		g.send(red, "PASS")
		g.send(blue, "ACTIVATE carl")
		ill := g.refuse(blue, "FIRE GEN1 AT 0403", "9.1") // it is never attacked: no unit stands there
		if !strings.Contains(ill.Reason, `no unit called "0403"`) {
			t.Errorf("refusal %v", ill)
		}
		for _, l := range engine.Legal(g.sc, g.st) {
			if strings.Contains(l, "0403") {
				t.Errorf("an order at the Bombard offered: %s", l)
			}
		}
	})
	t.Run("it lends no range (9.1, R116)", func(t *testing.T) {
		g := battleGame(t)
		grid := g.sc.Map.Grid
		bombard, lb1, lb2 := h(t, "0403"), g.unit("LB1").Hex, g.unit("LB2").Hex
		var far hex.Hex
		for c := grid.MinCol; c <= grid.MaxCol && far == (hex.Hex{}); c++ {
			for r := grid.MinRow; r <= grid.MaxRow; r++ {
				x := hex.Hex{Col: c, Row: r}
				if grid.Distance(x, bombard) <= 3 && grid.Distance(x, lb1) > 3 && grid.Distance(x, lb2) > 3 && !occupied(g, x) {
					far = x
					break
				}
			}
		}
		if far == (hex.Hex{}) {
			t.Fatal("test geometry: no hex near the Bombard beyond the bows' range")
		}
		g.st.Unit("MM1").Hex = far
		g.send(red, "ACTIVATE anna")
		ill := g.refuse(red, "FIRE LB1 AT MM1", "9.1")
		if !strings.Contains(ill.Reason, "beyond a") {
			t.Errorf("refusal %v: want the bow's range", ill)
		}
	})
}
