package engine_test

import (
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// turcomans is the situation of infidel.md 11.2's example, built in Go
// (Infidel's own tables arrive with its volume): a Turcoman LC/A in 3220,
// Crusader Knights in 3419, 3519 (Disordered) and 3421, faced so that
// 3319 lies in the ZOC of the Knight in 3419, 3420 in that of 3519 only,
// and 3320 in that of 3421 only, as the example's MP say.
func turcomans(t *testing.T) *game {
	t.Helper()
	tb := &engine.Tables{
		Volume: "inf",
		UnitTypes: map[string]*engine.UnitType{
			"KN":  {Key: "KN", Name: "Knights", Mounted: true, MAA: true, ZOC: true, Charges: true, FlightPoints: 3, Ratings: engine.Ratings{MA: 6, MADisordered: 5}},
			"LCA": {Key: "LCA", Name: "Light Cavalry, Archers", Mounted: true, Weapon: "composite", FlightPoints: 2, Ratings: engine.Ratings{MA: 8, MADisordered: 7}},
		},
		Terrain:      map[string]*engine.TerrainType{"clear": {Key: "clear", Cost: map[engine.Class]engine.Cost{engine.Foot: 1, engine.Mounted: 1}}},
		Hexsides:     map[string]*engine.HexsideType{},
		FlightPoints: engine.FlightPointValues{Retired: 1, Leader: 2, King: 3},
		Rules:        engine.Rules{MountedMissileZOC: engine.ZOCLeaveCost},
	}
	hx := func(s string) hex.Hex { return h(t, s) }
	sc := &engine.Scenario{
		ID: "inf-11.2", Name: "Infidel 11.2", Volume: "inf", Tables: tb, First: 1,
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
// 'No Result.'" Infidel's fire DRMs are built here as its tables would
// give them; the Fire Results Table is Men of Iron's house table.
func TestInfidelTurcomanFires(t *testing.T) {
	g := turcomans(t)
	moi, err := data.Tables("moi")
	if err != nil {
		t.Fatal(err)
	}
	tb := g.sc.Tables
	tb.Fire = moi.Fire
	tb.FireDRM = moi.FireDRM
	tb.LeaderCasualty = moi.LeaderCasualty
	tb.FireDRM.MountedFirer = -1
	tb.FireDRM.TargetType = map[string]int{"KN": -1}
	tb.Weapons = map[string]*engine.Weapon{"composite": {Key: "composite", Name: "Composite bow", RangeDRM: []int{+1, 0}, ReturnFire: true, OverUnits: true}}
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
