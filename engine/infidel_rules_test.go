package engine_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// The rules Infidel changes outside Shock, each played on Infidel's own
// house tables (data/tables/infidel.yaml) through orders: every case
// cites the section of infidel.md it holds.

// infidelField is the shooters fixture on Infidel's tables (a copy the
// test may change), its leaders commanding the whole small map.
func infidelField(t *testing.T, dice ...int) *game {
	t.Helper()
	g := shooters(t)
	tb, err := data.Tables("infidel")
	if err != nil {
		t.Fatal(err)
	}
	cp := *tb
	cp.Rules.LeaderPresenceTypes = append([]string(nil), tb.Rules.LeaderPresenceTypes...)
	cp.WSM = maps.Clone(tb.WSM)
	g.sc.Tables, g.sc.Volume = &cp, "infidel"
	g.dice = engine.NewScript(dice...)
	for i := range g.sc.Leaders {
		g.sc.Leaders[i].Range = 20
	}
	g.lead("anna", "0101")
	g.lead("bert", "0110")
	g.lead("carl", "1001")
	g.lead("dora", "1010")
	return g
}

// front is a Frontal hex of a unit in hex c facing f, and away a hex next
// to it two hexes from c.
func (g *game) front(c string, f hex.Facing) (front, away string) {
	g.t.Helper()
	grid := g.sc.Map.Grid
	fr := grid.FrontalHexes(h(g.t, c), f)[0]
	for _, n := range grid.Neighbors(fr) {
		if grid.Contains(n) && grid.Distance(n, h(g.t, c)) == 2 {
			return fr.String(), n.String()
		}
	}
	g.t.Fatalf("no hex away from %s", c)
	return "", ""
}

// lastMove is the MP of the last UnitMoved among evs.
func lastMove(t *testing.T, evs []engine.Event) int {
	t.Helper()
	mv := moves(evs)
	if len(mv) == 0 {
		t.Fatal("no move")
	}
	return mv[len(mv)-1].MP
}

// infidel.md 9.0: "+2 MP for a foot unit to exit a hex in the ZOC of an
// enemy mounted unit. +1 MP for any unit to exit a hex in the ZOC of an
// enemy missile unit (cumulative with the modifier above)." And "A
// mounted missile unit ... may enter and then exit a hex in an enemy
// ZOC, regardless of the unit type exerting the ZOC, in the same turn by
// paying an additional 1 MP to leave" (ruling R154: that +1 is all it
// pays).
func TestInfidelLeavingAZOC(t *testing.T) {
	for _, tc := range []struct {
		mover, zoc string
		mp         int
	}{
		{"PK", "A", 1 + 1},       // foot from an archer's ZOC
		{"PK", "MC", 1 + 2},      // foot from a mounted unit's ZOC
		{"PK", "LCA", 1 + 2 + 1}, // foot from a mounted archer's ZOC: both
		{"PK", "PK", 1},          // a Pike exerts no ZOC (9.0 "not other infantry")
		{"MC", "A", 1 + 1},       // any unit from a missile unit's ZOC
		{"MC", "KN", 1},          // mounted from a mounted unit's ZOC: nothing more
		{"LCA", "A", 1 + 1},      // a mounted archer pays its own +1 only (R154)
		{"LCA", "KN", 1 + 1},
	} {
		t.Run(tc.mover+" from "+tc.zoc, func(t *testing.T) {
			g := infidelField(t)
			c := "0505"
			g.troop("CA1", c, hex.FaceW, tc.zoc)
			fr, away := g.front(c, hex.FaceW)
			g.troop("AN1", fr, hex.FaceE, tc.mover)
			res := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+away)
			if mp := lastMove(t, res.Events); mp != tc.mp {
				t.Errorf("%s leaving the ZOC of %s: %d MP, want %d", tc.mover, tc.zoc, mp, tc.mp)
			}
		})
	}
	// Illegal: a Disordered Pike (MA 3) cannot pay 1 + 2 + 1 to leave a
	// mounted archer's ZOC (9.0; the Movement Allowance, 7.1).
	g := infidelField(t)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "LCA")
	fr, away := g.front(c, hex.FaceW)
	g.troop("AN1", fr, hex.FaceE, "PK")
	g.st.Unit("AN1").Status = engine.Disordered
	g.send(red, "ACTIVATE Anna")
	if e := g.refuse(red, "MOVE AN1 "+away, "5.1"); !strings.Contains(e.Reason, "4 MP") {
		t.Errorf("refusal %q, want the 4 MP it would cost", e.Reason)
	}
	// Illegal: 9.0 "may not enter or reenter a hex in the ZOC of the same
	// enemy unit during a single Activation", mounted archers too.
	g = infidelField(t)
	g.troop("CA1", c, hex.FaceW, "KN")
	fr, away = g.front(c, hex.FaceW)
	g.troop("AN1", fr, hex.FaceE, "LCA")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 "+away+" "+fr, "7.2")
}

// Men of Iron charges nothing to leave a missile unit's ZOC (7.2 knows
// only the mounted unit's 2 MP): its tables leave leave_missile_zoc_mp
// out.
func TestMoILeavingAMissileZOCIsFree(t *testing.T) {
	g := melee(t)
	c := "0505"
	g.at("CA1", c, hex.FaceW, "LB")
	fr, away := g.front(c, hex.FaceW)
	g.at("AN1", fr, hex.FaceE, "PK")
	g.sc.Units[g.index("AN1")].Ratings = g.sc.Tables.UnitTypes["PK"].Ratings
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+away)
	if mp := lastMove(t, res.Events); mp != 1 {
		t.Errorf("%d MP, want 1", mp)
	}
}

// infidel.md 10.0: "Combat units may not stack (be together in the same
// hex) at any time, even during movement." A Knight may go round a
// friendly Archer, never through it (Men of Iron 8.0 let a Mounted MAA
// through missile infantry).
func TestInfidelNoPassingThrough(t *testing.T) {
	g := infidelField(t)
	g.troop("AN1", "0303", hex.FaceE, "KN")
	g.troop("AN2", "0403", hex.FaceE, "A")
	g.send(red, "ACTIVATE Anna")
	if e := g.refuse(red, "MOVE AN1 0403 0503", "8.0"); !strings.Contains(e.Reason, "may not stack") {
		t.Errorf("refusal %q", e.Reason)
	}
	// Legal: around it.
	grid := g.sc.Map.Grid
	var around []string
	for _, n := range grid.Neighbors(h(t, "0303")) {
		if grid.Distance(n, h(t, "0403")) == 1 && grid.Distance(n, h(t, "0503")) == 1 {
			around = append(around, n.String())
		}
	}
	if len(around) == 0 {
		t.Fatal("no way round")
	}
	res := g.send(red, "MOVE AN1 "+around[0]+" 0503")
	if mp := lastMove(t, res.Events); mp != 2 {
		t.Errorf("round the Archer: %d MP, want 2", mp)
	}
}

// infidel.md 8.0: "A unit may ignore this facing when moving, but once it
// stops movement or conducts missile fire it must be faced in a specific
// direction." A Light Cavalry Archer riding away from an enemy with its
// back to it turns to fire at it (ruling R155), and rides on; without the
// switch (Men of Iron 6.1) the target is in its Rear and it cannot fire.
func TestInfidelFacingSetToFire(t *testing.T) {
	for _, face := range []bool{true, false} {
		g := infidelField(t, 4)
		g.sc.Tables.Rules.FaceToFire = face
		g.troop("CA1", "0705", hex.FaceW, "MC")
		g.troop("AN1", "0505", hex.FaceW, "LCA") // CA1 two hexes behind it
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 FIRE CA1 0405")
		faced, turned := findEvent[engine.FacedToFire](res.Events)
		fired := shots(res.Events)
		switch {
		case face && (!turned || len(fired) != 1):
			t.Errorf("face_to_fire: faced %v, %d shots:\n%s", turned, len(fired), g.story(res.Events))
		case face:
			if a := g.sc.Map.Grid.ApproachFrom(h(t, "0505"), h(t, "0705")); faced.Facing.ApproachAspect(a).FireAspect() != hex.Front {
				t.Errorf("faced %s: CA1 not in its Front", faced.Facing)
			}
			// Composite bow at range 2: 0; mounted archer -1; MC fired at
			// through its Front: no Angle of Fire. 4 - 1 = 3: No Effect.
			if s := fired[0]; s.Roll.Die != 4 || s.Roll.Total != 3 || s.Result != "No Effect" {
				t.Errorf("shot %+v (%s)", s, modText(s.Roll.Mods))
			}
			if u := g.unit("AN1"); u.Hex != h(t, "0405") || u.Facing != hex.FaceW {
				t.Errorf("after its move AN1 is %+v, want in 0405 facing W as it was", u)
			}
		case turned || len(fired) != 0:
			t.Errorf("without face_to_fire: faced %v, %d shots", turned, len(fired))
		default:
			if f, ok := findEvent[engine.FireForgone](res.Events); !ok || f.Rule != "9.1" {
				t.Errorf("without face_to_fire: %v, want the fire forgone under 9.1:\n%s", f, g.story(res.Events))
			}
		}
	}
}

// infidel.md 11.3: "Missile Fire aimed at Medium or Light Cavalry through
// the latter's Flank hexsides earns the firing unit a +1 DRM." Knights
// and Heavy Cavalry fired at through a Flank earn nothing; Men of Iron
// 9.3 gave it against every Mounted unit.
func TestInfidelAngleOfFireByType(t *testing.T) {
	for _, tc := range []struct {
		target string
		angle  bool
	}{{"MC", true}, {"MCA", true}, {"LCA", true}, {"KN", false}, {"HC", false}} {
		g := infidelField(t)
		a := g.troop("AN1", "0505", hex.FaceE, "A")
		c := g.troop("CA1", "0605", hex.FaceE, tc.target)
		// Face CA1 so that the line from AN1 crosses its Flank.
		for f := hex.FaceE; f <= hex.FaceSE; f++ {
			g.st.Units[c].Facing = f
			if engine.FiredThrough(g.sc, g.st, a, c) == hex.Flank {
				break
			}
		}
		mods := modText(engine.FireModifiers(g.sc, g.st, a, c))
		if got := strings.Contains(mods, "Angle of Fire"); got != tc.angle {
			t.Errorf("Archer at %s through its Flank: %s; want Angle of Fire %v", tc.target, mods, tc.angle)
		}
	}
}

// infidel.md 11.2, crossbow and javelin units: Reaction Fire "applies to
// only one enemy unit that does so in a given Activation ... They may use
// Reaction Fire only once during a given enemy Activation." Archers fire
// at each (Play Note: "any number of times per Activation").
func TestInfidelJavelinReactsOnce(t *testing.T) {
	for _, tc := range []struct {
		reactor string
		shots   int
	}{{"PKJ", 1}, {"CB", 1}, {"A", 2}} {
		g := infidelField(t, 0, 0)
		c := "0505"
		g.troop("CA1", c, hex.FaceW, tc.reactor)
		fr := g.sc.Map.Grid.FrontalHexes(h(t, c), hex.FaceW)
		var from [2]string
		for k, f := range fr {
			for _, n := range g.sc.Map.Grid.Neighbors(f) {
				if g.sc.Map.Grid.Distance(n, h(t, c)) == 2 && n != fr[1-k] && (k == 0 || n.String() != from[0]) {
					from[k] = n.String()
					break
				}
			}
		}
		g.troop("AN1", from[0], hex.FaceE, "MC")
		g.troop("AN2", from[1], hex.FaceE, "MC")
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+fr[0].String()+"\nMOVE AN2 "+fr[1].String())
		if n := len(shots(res.Events)); n != tc.shots {
			t.Errorf("%s reacting to two movers: %d shots, want %d:\n%s", tc.reactor, n, tc.shots, g.story(res.Events))
		}
	}
}

// infidel.md 3.0: "5 FP for losing your Overall Commander", "2 FP for
// each ... named leader"; 5.5: "Killed/captured named leaders (not
// replacements) count towards the Flight Point total", so his
// Replacement's loss adds nothing.
func TestInfidelOverallCommanderFlightPoints(t *testing.T) {
	sc, err := data.Scenario("testdata/examples/inf-6.1-continuation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st := engine.NewState(sc)
	st.Leader("godfrey").Losses = 1
	if fp := engine.FlightPoints(sc, st, red); fp != 5 {
		t.Errorf("Godfrey lost: %d FP, want 5", fp)
	}
	st.Leader("godfrey").Losses = 2
	if fp := engine.FlightPoints(sc, st, red); fp != 5 {
		t.Errorf("Godfrey and his Replacement lost: %d FP, want 5", fp)
	}
	st.Leader("robert").Losses = 2
	if fp := engine.FlightPoints(sc, st, red); fp != 7 {
		t.Errorf("and Robert and his Replacement: %d FP, want 5 + 2", fp)
	}
	// Men of Iron counts each loss (16.0).
	sc.Tables = tablesWith(t, sc.Tables, func(tb *engine.Tables) { tb.FlightPoints.NamedLeadersOnly = false })
	if fp := engine.FlightPoints(sc, st, red); fp != 5+2+2+2 {
		t.Errorf("counting every loss: %d FP, want 11", fp)
	}
}

// infidel.md 12.3 #4 Leader Presence: "Knights and Heavy Cavalry units
// stacked with their Command leader or the Overall Commander gain a + 1
// DRM when attacking. A Crusader leader with Charisma also adds their
// Charisma rating as a DRM to the attack. This only applies once"; 5.4:
// Charisma "when any Knights stacked with that leader are attacking in
// any way" (ruling R156). Each case: a unit of Anna's Command Shocks a
// Pike (no Shock Defense DRM, WSM 0 against Pike) with a die of 4.
func TestInfidelLeaderPresence(t *testing.T) {
	for _, tc := range []struct {
		name     string
		typ      string
		leader   string // stacked with the attacker
		oc       bool   // that leader is the Overall Commander
		charisma int
		mods     []string
		total    int
	}{
		{"Knight with its Command leader", "KN", "anna", false, 0, []string{"+1 5.3, 12.3 #4"}, 5},
		{"Heavy Cavalry with its Command leader", "HC", "anna", false, 0, []string{"+1 5.3, 12.3 #4"}, 5},
		{"Knight with another Command's leader", "KN", "bert", false, 0, nil, 4},
		{"Knight with the Overall Commander", "KN", "bert", true, 0, []string{"+1 5.3, 12.3 #4"}, 5},
		{"Medium Cavalry with its leader", "MC", "anna", false, 0, []string{"-1 10.4 #6"}, 3},
		{"Knight with a Crusader leader's Charisma", "KN", "anna", false, 2, []string{"+1 5.3, 12.3 #4", "+2 5.4, 12.3 #4"}, 7},
		{"Heavy Cavalry: no Charisma", "HC", "anna", false, 2, []string{"+1 5.3, 12.3 #4"}, 5},
		{"Knight with another Command's Crusader", "KN", "bert", false, 1, []string{"+1 5.4, 12.3 #4"}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelField(t, 4, 0) // the die, and a Leader Casualty Check's
			c := "0505"
			g.troop("CA1", c, hex.FaceW, "PK")
			fr, _ := g.front(c, hex.FaceW)
			g.troop("AN1", fr, g.toward(fr, c), tc.typ)
			for k := range g.sc.Leaders {
				if g.sc.Leaders[k].ID == tc.leader {
					g.sc.Leaders[k].OC, g.sc.Leaders[k].Charisma = tc.oc, tc.charisma
				}
			}
			g.lead(tc.leader, fr)
			atts := resolved(g.shockRound("SHOCK AN1 AT CA1\nEND"))
			if len(atts) != 1 {
				t.Fatalf("%d attacks", len(atts))
			}
			var got []string
			for _, m := range atts[0].Roll.Mods {
				got = append(got, fmt.Sprintf("%+d %s", m.DRM, m.Rule))
			}
			if strings.Join(got, "; ") != strings.Join(tc.mods, "; ") || atts[0].Roll.Total != tc.total {
				t.Errorf("modifiers %v total %d, want %v total %d (%s)", got, atts[0].Roll.Total, tc.mods, tc.total, modText(atts[0].Roll.Mods))
			}
		})
	}
}

// Ruling R156: Infidel's Leader Presence is for the attack; a Heavy
// Cavalry Counter-Charging a Shock with its leader earns the attacker's
// −2 (13.8) and nothing for the leader (Men of Iron 15.3 gave −1, R80).
func TestInfidelNoLeaderPresenceForTheCounterCharger(t *testing.T) {
	g := infidelField(t, 0, 6) // the Counter-Charge: 0 -1 = -1, 4 or less; the attack's die
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "HC")
	fr, _ := g.front(c, hex.FaceW)
	g.troop("AN1", fr, g.toward(fr, c), "MC")
	g.lead("carl", c)
	atts := resolved(g.shockRound("SHOCK AN1 AT CA1\nEND"))
	if len(atts) != 1 {
		t.Fatalf("%d attacks", len(atts))
	}
	mods := modText(atts[0].Roll.Mods)
	if !strings.Contains(mods, "Counter-Charged") || strings.Contains(mods, "leader") {
		t.Errorf("modifiers %s: want the Counter-Charge's -2 and no leader", mods)
	}
}

// infidel.md 9.0: "Zones of Control do not extend into or across hexes or
// hexsides that a unit is prohibited from entering or crossing." A Pike
// in a marsh before a Knight (mounted: NA) is in no ZOC and leaves for
// the marsh's neighbour at the clear terrain's 1 MP; before an Archer
// (foot: 3 MP) it is, and pays +1. Across a steep slope, which horses may
// not cross, the Knight's ZOC does not reach either.
func TestInfidelZOCStopsAtProhibitedTerrain(t *testing.T) {
	for _, tc := range []struct {
		name, zoc, terrain, hexside string
		mp                          int
	}{
		{"Knight into marsh", "KN", "marsh", "", 1},
		{"Archer into marsh", "A", "marsh", "", 1 + 1},
		{"Knight across a steep slope", "KN", "", "steep-slope", 1},
		{"Knight into clear", "KN", "", "", 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelField(t)
			c := "0505"
			g.troop("CA1", c, hex.FaceW, tc.zoc)
			fr, away := g.front(c, hex.FaceW)
			if tc.terrain != "" {
				g.sc.Map.Terrain[h(t, fr)] = tc.terrain
			}
			if tc.hexside != "" {
				g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, c), B: h(t, fr), Feature: tc.hexside}) // rising from the Knight to the Pike
			}
			g.troop("AN1", fr, hex.FaceE, "PK")
			res := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+away)
			if mp := lastMove(t, res.Events); mp != tc.mp {
				t.Errorf("leaving %s: %d MP, want %d", fr, mp, tc.mp)
			}
		})
	}
}

// tablesWith is a copy of tb changed by edit.
func tablesWith(t *testing.T, tb *engine.Tables, edit func(*engine.Tables)) *engine.Tables {
	t.Helper()
	cp := *tb
	edit(&cp)
	return &cp
}

// infidel.md 5.3: the Overall Commander's +1 is for leaders "within
// Command Range of their Overall Commander ... This does not apply to the
// Overall Commander himself" — nor while he is dead (5.6: his Replacement
// never counts as Overall Commander; ruling R157).
func TestInfidelOverallCommanderBonus(t *testing.T) {
	for _, tc := range []struct {
		name, leader string
		edit         func(*engine.State)
		ar           int
	}{
		{"Robert within Godfrey's range", "Robert", nil, 3 + 1},
		{"Raymond beyond it", "Raymond", nil, 2},
		{"Robert, Godfrey killed", "Robert", func(st *engine.State) { st.Leader("godfrey").Killed, st.Leader("godfrey").OffMap = true, true }, 3},
		{"Robert, Godfrey's Replacement", "Robert", func(st *engine.State) { st.Leader("godfrey").Replaced = true }, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := data.Scenario("testdata/examples/inf-6.1-continuation.yaml")
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, sc, 9)
			g.send(blue, "STANDING SEIZE NEVER")
			if tc.edit != nil {
				tc.edit(g.st)
			}
			first := "ACTIVATE Raymond"
			if tc.leader == "Raymond" {
				first = "ACTIVATE Robert"
			}
			res := g.send(red, first+"\nEND\nCONTINUE "+tc.leader)
			c, ok := findEvent[engine.ContinuityRolled](res.Events)
			if !ok || c.AR != tc.ar {
				t.Errorf("%s rolls against %d, want %d:\n%s", tc.leader, c.AR, tc.ar, g.story(res.Events))
			}
		})
	}
}

// The players' first mail says what the Overall Commanders and the
// Crusader leaders' Charisma do in an Infidel battle (5.3, 5.4, 3.0).
func TestInfidelLeaderNotes(t *testing.T) {
	sc, err := data.Scenario("testdata/examples/inf-6.1-continuation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(engine.BattleRuleNotes(sc), "\n")
	for _, want := range []string{
		"Godfrey is the Overall Commander of the Crusaders: the other leaders within his Command Range roll Continuation and Seizure at +1 to their Activation Rating (5.3); Knights and Heavy Cavalry stacked with him attack at +1, as with their own leader (12.3 #4); losing him costs 5 Flight Points (3.0).",
		"al-Afdal is the Overall Commander of the Fatimids:",
		"Robert (Crusaders) has a Charisma of +1: added when Knights stacked with him attack (5.4, 12.3 #4).",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
