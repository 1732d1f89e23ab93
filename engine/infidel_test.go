package engine_test

import (
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// turcomans is the situation of infidel.md 11.2's example on Infidel's
// house tables (a copy the test may change): a Turcoman LC/A in 3220,
// Crusader Knights in 3419, 3519 (Disordered) and 3421, faced so that
// 3319 lies in the ZOC of the Knight in 3419, 3420 in that of 3519 only,
// and 3320 in that of 3421 only, as the example's MP say.
func turcomans(t *testing.T) *game {
	t.Helper()
	inf, err := data.Tables("infidel")
	if err != nil {
		t.Fatal(err)
	}
	cp := *inf
	tb := &cp
	hx := func(s string) hex.Hex { return h(t, s) }
	sc := &engine.Scenario{
		ID: "inf-11.2", Name: "Infidel 11.2", Volume: "infidel", Tables: tb, First: 1,
		Map:   engine.Map{Grid: hex.Grid{MinCol: 30, MaxCol: 37, MinRow: 16, MaxRow: 24, OddShifted: true}, DefaultTerrain: "clear"},
		Sides: [2]engine.SideSpec{{Name: "Crusaders", FlightLevel: 20}, {Name: "Ayyubids", FlightLevel: 20}},
		Commands: []engine.CommandSpec{
			{ID: "templars", Name: "Templars", Side: 0, Leader: "master", Standard: "beauseant"},
			{ID: "turcomans", Name: "Turcomans", Side: 1, Leader: "emir", Standard: "banner"},
		},
		Leaders: []engine.LeaderSpec{
			{ID: "master", Name: "Master", Side: 0, Command: "templars", AR: 3, Range: 4, MA: 8, Hex: hx("3519")},
			{ID: "emir", Name: "Emir", Side: 1, Command: "turcomans", AR: 3, Range: 4, MA: 8, Hex: hx("3220")},
		},
		Standards: []engine.StandardSpec{{ID: "beauseant", Name: "Beauseant", Side: 0, Hex: hx("3717")}, {ID: "banner", Name: "Banner", Side: 1, Hex: hx("3017")}},
	}
	for _, k := range []string{"3419", "3519", "3421"} {
		sc.Units = append(sc.Units, engine.UnitSpec{ID: "KN" + k, Side: 0, Command: "templars", Type: "KN", Hex: hx(k), Ratings: tb.UnitTypes["KN"].Ratings})
	}
	sc.Units = append(sc.Units, engine.UnitSpec{ID: "LCA", Side: 1, Command: "turcomans", Type: "LCA", Hex: hx("3220"), Facing: hex.FaceE, Ratings: tb.UnitTypes["LCA"].Ratings})
	sc.Units[1].Status = engine.Disordered
	in := func(k, at string, f hex.Facing) bool {
		fr := sc.Map.Grid.FrontalHexes(hx(k), f)
		return fr[0] == hx(at) || fr[1] == hx(at)
	}
	facing := func(k string, want, not []string) hex.Facing {
		for f := hex.FaceE; f <= hex.FaceSE; f++ {
			ok := true
			for _, w := range want {
				ok = ok && in(k, w, f)
			}
			for _, n := range not {
				ok = ok && !in(k, n, f)
			}
			if ok {
				return f
			}
		}
		t.Fatalf("no facing of the Knight in %s has %v in its ZOC and not %v", k, want, not)
		return 0
	}
	sc.Units[0].Facing = facing("3419", []string{"3319"}, []string{"3420", "3320", "3220"})
	sc.Units[1].Facing = facing("3519", []string{"3420"}, []string{"3319", "3320", "3220"})
	sc.Units[2].Facing = facing("3421", []string{"3320"}, []string{"3319", "3420", "3220"})
	return newGame(t, sc)
}

// infidel.md 11.2: "It spends 1 MP moving to hex 3319. It then spends 2 MP
// to move to hex 3420 (1 MP for clear terrain + 1 MP to leave the ZOC of
// the Knight in hex 3419) ... It then moves to 3320, spending another 2 MP
// ... Finally, the Turcoman moves back to its starting hex 3220, spending
// its last 2 MP." (Firing in 3420, 1 MP in a ZOC, arrives with fire.)
func TestInfidelTurcomanMovesThroughZOCs(t *testing.T) {
	for _, step := range []struct {
		path string
		mp   int
	}{{"3319", 1}, {"3319 3420", 3}, {"3319 3420 3320", 5}, {"3319 3420 3320 3220", 7}} {
		g := turcomans(t)
		res := g.send(1, "ACTIVATE Turcomans\nMOVE LCA "+step.path)
		mv := res.Events[len(res.Events)-1].(engine.UnitMoved)
		if mv.MP != step.mp {
			t.Errorf("MOVE LCA %s: %d MP, want %d", step.path, mv.MP, step.mp)
		}
	}
	// "They may not enter another hex in the same enemy unit's ZOC during
	// that Activation": back from 3420 into the ZOC of 3419 it left.
	g := turcomans(t)
	g.send(1, "ACTIVATE Turcomans")
	g.refuse(1, "MOVE LCA 3319 3420 3319", "7.2")
}

// Under Men of Iron's 5.1 a mounted missile unit need not stop in an enemy
// ZOC and pays nothing more to leave it.
func TestMoIMountedMissileIgnoresZOC(t *testing.T) {
	g := turcomans(t)
	g.sc.Tables.Rules.MountedMissileZOC = engine.ZOCIgnore
	res := g.send(1, "ACTIVATE Turcomans\nMOVE LCA 3319 3420 3320 3220")
	if mv := res.Events[len(res.Events)-1].(engine.UnitMoved); mv.MP != 4 {
		t.Errorf("%d MP, want 4", mv.MP)
	}
}

// infidel.md 11.2: "the DRM for the missile fire is a net -1 (+1 for
// range, -1 for firing at Knights, and -1 for mounted archers firing). The
// luck of the LC/A is poor and it rolls a 2. A 1 (DR of 2 with a –1 DRM) on
// the Target Mounted Disordered column of the Fire Results table equals
// 'No Result.'" (The whole example, move and fire in one order, is
// testdata/examples/inf-11.2-turcoman-move-fire-move.txt.)
func TestInfidelTurcomanFires(t *testing.T) {
	g := turcomans(t)
	lca := g.st.Unit("LCA")
	lca.Hex = h(t, "3420")
	for f := hex.FaceE; f <= hex.FaceSE; f++ {
		if fr := g.sc.Map.Grid.FrontalHexes(lca.Hex, f); fr[0] == h(t, "3519") || fr[1] == h(t, "3519") {
			lca.Facing = f
		}
	}
	g.dice = engine.NewScript(2)
	res := g.send(1, "ACTIVATE Turcomans\nFIRE LCA AT KN3519")
	f := shots(res.Events)
	if len(f) != 1 {
		t.Fatalf("shots: %v", narrative(g.sc, res.Events))
	}
	if s := f[0]; s.Roll.Die != 2 || s.Roll.Total != 1 || s.Column != engine.FireMountedDisordered || s.Result != "No Effect" {
		t.Errorf("the Turcoman's shot: %+v (%s), want 2 -1 = 1 on Mounted Disordered: No Effect", s, modText(s.Roll.Mods))
	}
}

// infidel.md 11.2, mounted archers: "If in a hex in an enemy ZOC when
// they fire, it costs 1 MP to fire" — within the Movement Allowance —
// and "A mounted archer may only fire once in its Activation."
func TestInfidelMountedArcherFireLimits(t *testing.T) {
	g := turcomans(t)
	g.sc.Units[g.index("LCA")].Ratings.MA = 5
	g.send(1, "ACTIVATE Turcomans")
	// 1 + 2 + 2 = 5 MP to 3320, in the ZOC of KN3421: no MP left to fire.
	g.refuse(1, "MOVE LCA 3319 3420 3320 FIRE KN3421", "Infidel 11.2")
	// In 3319, in the ZOC of KN3419, at the Disordered KN3519 (which may
	// not Counter-Charge, 13.6): 1 MP to move, 1 MP to fire.
	g.dice = engine.NewScript(2)
	res := g.send(1, "MOVE LCA 3319 FIRE KN3519")
	if mv, f := moves(res.Events), shots(res.Events); len(mv) != 1 || mv[0].MP != 1 || len(f) != 1 || f[0].MP != 1 {
		t.Errorf("to 3319 and fire from an enemy ZOC: %v", g.story(res.Events))
	}
	// Once.
	g.refuse(1, "FIRE LCA AT KN3519", "9.2")
}

// infidel.md 11.2, foot archers, crossbows and javelins: "A unit may fire
// once when its Command is Activated at any time during Movement.
// However, once they fire, their movement for that Activation is
// finished."
func TestInfidelFootMissileFireEndsMovement(t *testing.T) {
	for _, typ := range []string{"A", "CB", "PKJ"} {
		g := infidelField(t, 0)
		c := "0505"
		g.troop("CA1", c, hex.FaceW, "PK")
		fr, away := g.front(c, hex.FaceW)
		g.troop("AN1", fr, g.toward(fr, c), typ)
		g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
		g.refuse(red, "FIRE AN1 AT CA1", "9.2")
		g.refuse(red, "MOVE AN1 "+away, "5.1")
	}
}
