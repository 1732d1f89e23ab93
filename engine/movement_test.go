package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// movers is the fixture with Red's Anna (AN1 infantry with a ZOC, AN2
// men-at-arms) and Blue's Carl (CA1, CA2), on clear ground with a marsh
// at 0302, a slope rising from 0405 to 0404 and a road from 0506 to 0606.
func movers(t *testing.T, dice ...int) *game {
	t.Helper()
	sc := fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 3})
	tb := sc.Tables
	tb.UnitTypes["MMAA"] = &engine.UnitType{Key: "MMAA", Name: "Mounted Men-at-Arms", Mounted: true, MAA: true, ZOC: true, Charges: true, FlightPoints: 3}
	tb.UnitTypes["ARC"] = &engine.UnitType{Key: "ARC", Name: "Archers", Weapon: "bow", ZOC: true, FlightPoints: 2}
	tb.Terrain["woods"] = &engine.TerrainType{Key: "woods", Cost: map[engine.Class]engine.Cost{engine.Foot: 2, engine.Mounted: 3}}
	tb.Hexsides["slope"] = &engine.HexsideType{Key: "slope", Slope: true, Cost: map[engine.Class]engine.Cost{engine.Foot: 1, engine.Mounted: 1}}
	tb.Hexsides["road"] = &engine.HexsideType{Key: "road", Road: true, Cost: map[engine.Class]engine.Cost{engine.Foot: 1, engine.Mounted: 1}}
	sc.Map.Terrain = map[hex.Hex]string{h(t, "0302"): "marsh", h(t, "0606"): "woods"}
	sc.Map.Hexsides = []engine.Hexside{{A: h(t, "0405"), B: h(t, "0404"), Feature: "slope"}, {A: h(t, "0506"), B: h(t, "0606"), Feature: "road"}}
	return newGame(t, sc, dice...)
}

func h(t *testing.T, s string) hex.Hex {
	t.Helper()
	x, err := hex.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// put places a unit, and optionally retypes it.
func (g *game) put(id, at string, f hex.Facing, typ ...string) {
	g.t.Helper()
	for i := range g.sc.Units {
		if g.sc.Units[i].ID == id {
			g.st.Units[i].Hex, g.st.Units[i].Facing = h(g.t, at), f
			if len(typ) > 0 {
				g.sc.Units[i].Type = typ[0]
				g.sc.Units[i].Ratings = engine.Ratings{MA: 5, MADisordered: 4}
			}
			return
		}
	}
	g.t.Fatalf("no unit %s", id)
}

func (g *game) unit(id string) engine.UnitState { return *g.st.Unit(id) }

func TestMoveCostsTheTerrainEffectsChart(t *testing.T) {
	g := movers(t)
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0301 0302 FACE SE")
	if u := g.unit("AN1"); u.Hex != h(t, "0302") || u.Facing != hex.FaceSE || !u.Moved {
		t.Errorf("AN1 after its move: %+v", u)
	}
	mv := g.events[len(g.events)-1].(engine.UnitMoved)
	if mv.MP != 4 { // clear 1 + marsh 3 (5.1)
		t.Errorf("MP %d, want 4 (clear 1, marsh 3)", mv.MP)
	}
}

func TestMoveBeyondTheAllowanceIsRefusedWithWhereItCanGo(t *testing.T) {
	g := movers(t)
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 0301 0302 0402", "5.1")
	if !strings.Contains(e.Reason, "Movement Allowance of 4") || len(e.Legal) != 1 || !strings.HasPrefix(e.Legal[0], "AN1 can reach ") {
		t.Errorf("refusal %v", e)
	}
}

func TestMountedMayNotEnterMarsh(t *testing.T) {
	g := movers(t)
	g.put("AN2", "0202", hex.FaceE, "MMAA")
	g.send(red, "ACTIVATE Anna")
	g.put("AN2", "0301", hex.FaceE)
	g.refuse(red, "MOVE AN2 0302", "5.1")
}

// A slope costs its MP climbing it, not going down; a road negates the
// terrain of the hex it leads into (5.1, ruling R45).
func TestSlopeAndRoad(t *testing.T) {
	g := movers(t)
	g.put("AN1", "0405", hex.FaceE)
	g.put("AN2", "0506", hex.FaceE)
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0404\nMOVE AN2 0606")
	up, road := g.events[len(g.events)-2].(engine.UnitMoved), g.events[len(g.events)-1].(engine.UnitMoved)
	if up.MP != 2 || road.MP != 1 {
		t.Errorf("up the slope %d MP (want 2), along the road into woods %d MP (want 1)", up.MP, road.MP)
	}
	g2 := movers(t)
	g2.put("AN1", "0404", hex.FaceE)
	g2.send(red, "ACTIVATE Anna\nMOVE AN1 0405")
	if down := g2.events[len(g2.events)-1].(engine.UnitMoved); down.MP != 1 {
		t.Errorf("down the slope %d MP, want 1", down.MP)
	}
}

// zocOf is a hex in the ZOC of the unit at at facing f: its first Frontal hex.
func zocOf(t *testing.T, g *game, at string, f hex.Facing) [2]hex.Hex {
	return g.sc.Map.Grid.FrontalHexes(h(t, at), f)
}

func TestEnemyZOCStopsMovement(t *testing.T) {
	g := movers(t)
	g.put("CA1", "0505", hex.FaceW)
	z := zocOf(t, g, "0505", hex.FaceW)
	g.put("AN1", "0203", hex.FaceE)
	path := pathTo(t, g, "0203", z[1])
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 "+path+" "+g.sc.Map.Grid.Neighbor(z[1], hex.N).String(), "7.2")
	g.send(red, "MOVE AN1 "+path)
	if g.unit("AN1").Hex != z[1] {
		t.Errorf("AN1 did not stop in %s", z[1])
	}
}

// pathTo is a straight path of adjacent hexes from one hex to another.
func pathTo(t *testing.T, g *game, from string, to hex.Hex) string {
	t.Helper()
	cur := h(t, from)
	var out []string
	for cur != to {
		best := cur
		for _, n := range g.sc.Map.Grid.Neighbors(cur) {
			if g.sc.Map.Grid.Distance(n, to) < g.sc.Map.Grid.Distance(best, to) {
				best = n
			}
		}
		cur = best
		out = append(out, cur.String())
	}
	return strings.Join(out, " ")
}

// 6.2, 7.2: no leaving a ZOC and entering it again in one Activation;
// turning in place in an enemy ZOC is one vertex at most; foot leaving a
// mounted unit's ZOC pays 2 MP more.
func TestZOCLimits(t *testing.T) {
	g := movers(t)
	g.put("CA2", "0505", hex.FaceW, "MMAA")
	z := zocOf(t, g, "0505", hex.FaceW)
	g.put("AN1", z[0].String(), hex.FaceE)
	g.st.Leaders[0].Hex = h(t, "0305") // Anna keeps AN1 in Command
	out := g.sc.Map.Grid.Neighbor(z[0], hex.NW)
	g.send(red, "ACTIVATE Anna")
	if zo := g.sc.Map.Grid.FrontalHexes(h(t, "0505"), hex.FaceW); out == zo[1] {
		t.Fatal("test geometry: the way out is in the ZOC")
	}
	g.refuse(red, "FACE AN1 W", "6.2")
	if d := g.sc.Map.Grid.Distance(out, z[1]); d == 1 {
		g.refuse(red, "MOVE AN1 "+out.String()+" "+z[1].String(), "7.2")
	}
	g.send(red, "MOVE AN1 "+out.String())
	if mv := g.events[len(g.events)-1].(engine.UnitMoved); mv.MP != 3 {
		t.Errorf("leaving a mounted unit's ZOC cost %d MP, want 1 + 2 (7.2)", mv.MP)
	}
}

func TestStackingAndPassingThroughMissileInfantry(t *testing.T) {
	g := movers(t, 2)
	g.put("AN1", "0303", hex.FaceE, "ARC")
	g.put("AN2", "0203", hex.FaceE, "MMAA")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN2 0303", "8.0")
	res := g.send(red, "MOVE AN2 0303 0403")
	pass := res.Events[len(res.Events)-1].(engine.PassedThrough)
	if pass.Through != "AN1" || pass.Result != engine.Disordered || g.unit("AN1").Status != engine.Disordered {
		t.Errorf("pass-through: %+v, AN1 %v", pass, g.unit("AN1").Status)
	}
	if mv := res.Events[len(res.Events)-2].(engine.UnitMoved); mv.MP != 3 {
		t.Errorf("moving through a missile unit cost %d MP, want 2 + 1 (8.0)", mv.MP)
	}
	g2 := movers(t)
	g2.put("AN1", "0303", hex.FaceE)
	g2.send(red, "ACTIVATE Anna")
	g2.refuse(red, "MOVE AN2 0203 0303 0403", "8.0") // foot men-at-arms may not pass through
}

func TestEachUnitMovesOnce(t *testing.T) {
	g := movers(t)
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0301")
	g.refuse(red, "MOVE AN1 0401", "5.1")
	g.refuse(red, "FACE AN1 NE", "5.1")
	g.refuse(red, "MOVE CA1 0703", "5.1")
}

// 15.2: out of Command units may not move next to an enemy; the status is
// fixed when the Activation begins.
func TestOutOfCommand(t *testing.T) {
	g := movers(t)
	g.put("AN2", "0606", hex.FaceE)
	res := g.send(red, "ACTIVATE Anna")
	tr, ok := res.Events[len(res.Events)-1].(engine.CommandTraced)
	if !ok || len(tr.OutOfCommand) != 1 || tr.OutOfCommand[0] != "AN2" {
		t.Fatalf("events %v", narrative(g.sc, res.Events))
	}
	g.refuse(red, "MOVE AN2 0705 0704", "15.2") // 0704 is next to CA2 at 0804
	g.send(red, "MOVE AN2 0705")
}

func TestReinforcementsEnterAtTheirHexes(t *testing.T) {
	g := movers(t)
	g.sc.Commands[0].Entry = []hex.Hex{h(t, "0110")}
	g.sc.Commands[1].Entry = []hex.Hex{h(t, "0501")}
	i := 1 // AN2
	g.st.Units[i].OffMap = true
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN2 0210", "5.3")
	g.refuse(red, "MOVE AN1 0301 0401 0501", "5.2")
	g.send(red, "MOVE AN2 0110 0210 0310 0410")
	if u := g.unit("AN2"); u.OffMap || u.Hex != h(t, "0410") {
		t.Errorf("AN2 after entering: %+v", u)
	}
}

func TestRetiredUnitsCrawlToTheirStandard(t *testing.T) {
	g := movers(t)
	g.put("AN1", "0404", hex.FaceE)
	g.st.Units[0].Status = engine.Retired
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 0504", "12.4")
	g.refuse(red, "MOVE AN1 0303 0203", "12.4")
	g.send(red, "MOVE AN1 0303")
}

// 5.1: a leader moves with the unit he is stacked with, or alone; once
// in an Activation (ruling R61).
func TestLeadersMove(t *testing.T) {
	g := movers(t)
	g.send(red, "ACTIVATE Anna\nMOVE AN1 WITH Anna 0301 0401")
	if l := g.st.Leader("anna"); l.Hex != h(t, "0401") || !l.Moved {
		t.Errorf("Anna %+v, want with AN1 at 0401", l)
	}
	g.refuse(red, "MOVE Anna 0501", "5.1")          // he has moved
	g.refuse(red, "MOVE AN2 WITH Anna 0302", "5.1") // not stacked with AN2
	g.refuse(red, "MOVE Carl 0703", "5.1")          // not of the activated Command
	g.refuse(red, "MOVE AN2 WITH Carl 0302", "5.1") // an enemy leader

	alone := movers(t, 0)
	res := alone.send(red, "ACTIVATE Anna\nMOVE Anna 0301 0401 0501")
	if mv, ok := findEvent[engine.LeaderMoved](res.Events); !ok || mv.MP != 3 || alone.st.Leader("anna").Hex != h(t, "0501") {
		t.Errorf("Anna alone: %v", narrative(alone.sc, res.Events))
	}
	alone.put("AN2", "0501", hex.FaceE)
	alone.refuse(red, "MOVE AN2 WITH Anna 0601", "5.1") // he has moved alone
	alone.send(red, "END\nCONTINUE Anna")
	alone.send(blue, "DECLINE")
	if alone.st.Command != "anna" || alone.st.Pending.Side != red || alone.st.Leader("anna").Moved {
		t.Errorf("in Anna's next Activation: command %q, leader %+v", alone.st.Command, *alone.st.Leader("anna"))
	}
}

// 5.1: a leader alone spends his own Movement Allowance, and never enters
// an enemy unit's hex, nor an enemy ZOC without a friendly unit there.
func TestLeaderAlone(t *testing.T) {
	g := movers(t)
	g.put("CA1", "0505", hex.FaceW)
	z := zocOf(t, g, "0505", hex.FaceW)
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE Anna 0301 0401 0501 0601 0701 0801 0901 1001 1002", "5.1") // 9 MP, his MA is 8
	if len(e.Legal) != 1 || !strings.HasPrefix(e.Legal[0], "Anna can reach ") {
		t.Errorf("refusal %v", e)
	}
	in := z[0]
	if strings.Contains(pathTo(t, g, "0201", in), z[1].String()) {
		in = z[1]
	}
	g.refuse(red, "MOVE Anna "+pathTo(t, g, "0201", in), "5.1")
	g.put("CA2", "0303", hex.FaceE)
	g.refuse(red, "MOVE Anna 0302 0303", "5.1")
	g.put("AN2", in.String(), hex.FaceE) // a friendly unit in the ZOC hex
	var on hex.Hex                       // and on out of the ZOC: a leader need not stop (R62)
	for _, n := range g.sc.Map.Grid.Neighbors(in) {
		if n != z[0] && n != z[1] && n != h(t, "0505") && g.sc.Map.Grid.Contains(n) && !strings.Contains(pathTo(t, g, "0201", in), n.String()) {
			on = n
		}
	}
	g.send(red, "MOVE Anna "+pathTo(t, g, "0201", in)+" "+on.String())
	if l := g.st.Leader("anna"); l.Hex != on {
		t.Errorf("Anna at %s, want %s", l.Hex, on)
	}

	// Nor do enemy entry hexes stop a leader (R62).
	entry := movers(t)
	entry.sc.Commands[1].Entry = []hex.Hex{h(t, "0401")}
	entry.send(red, "ACTIVATE Anna")
	entry.refuse(red, "MOVE AN1 0301 0401", "5.2")
	entry.send(red, "MOVE Anna 0301 0401 0501")
}

// 5.1: "A leader stacked with a unit at the start of the unit's Activation
// may move with that unit, even if the leader belongs to a different
// Command than the unit."
func TestLeaderOfAnotherCommandMovesWithAUnit(t *testing.T) {
	g := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3}))
	g.st.Leader("bert").Hex = h(t, "0202") // with AN2
	g.send(red, "ACTIVATE Anna\nMOVE AN2 WITH Bert 0302")
	if l := g.st.Leader("bert"); l.Hex != h(t, "0302") {
		t.Errorf("Bert at %s, want 0302", l.Hex)
	}
	g.refuse(red, "MOVE Bert 0402", "5.1") // alone he moves only with his own Command
}

// 5.1, 5.2: a path goes hex by adjacent hex and stays on the map.
func TestPathsAreContiguousAndOnTheMap(t *testing.T) {
	g := movers(t)
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 0401", "5.1")
	g.refuse(red, "MOVE AN1 0101 0001", "5.2")
	g.send(red, "MOVE AN1 0101")
}

// Every hex Reach offers is a legal MOVE along the path it gives.
func TestReachOffersOnlyLegalMoves(t *testing.T) {
	g := movers(t)
	g.put("CA1", "0505", hex.FaceW)
	g.put("AN1", "0303", hex.FaceE, "ARC")
	g.put("AN2", "0203", hex.FaceE, "MMAA")
	g.send(red, "ACTIVATE Anna")
	for _, id := range []string{"AN1", "AN2", "anna"} {
		reach := engine.Reach(g.sc, g.st, id)
		if len(reach) < 5 {
			t.Fatalf("%s reaches only %v", id, reach)
		}
		for _, r := range reach {
			var path []string
			for _, x := range r.Path {
				path = append(path, x.String())
			}
			res, err := engine.Apply(g.sc, g.st, red, parse(t, "MOVE "+id+" "+strings.Join(path, " ")), engine.NewScript(9, 9, 9))
			if err != nil {
				t.Errorf("%s to %s by %v: %v", id, r.Hex, path, err)
				continue
			}
			for _, e := range res.Events {
				mp := -1
				switch mv := e.(type) {
				case engine.UnitMoved:
					mp = mv.MP
				case engine.LeaderMoved:
					mp = mv.MP
				}
				if mp >= 0 && mp != r.Cost {
					t.Errorf("%s to %s: Reach says %d MP, the move costs %d", id, r.Hex, r.Cost, mp)
				}
			}
		}
	}
}

// 14.1: Shield Wall is ordered upon activation, before anything else, for
// the Pike and Dismounted MAA that are not Disordered; in it a unit may not
// move and turns one vertex at most.
func TestShieldWall(t *testing.T) {
	g := movers(t)
	g.sc.Tables.UnitTypes["PK"] = &engine.UnitType{Key: "PK", Name: "Pike", ShieldWall: true, FlightPoints: 2}
	g.put("AN1", "0203", hex.FaceE, "PK")
	res := g.send(red, "ACTIVATE Anna\nSHIELD WALL")
	if sw, ok := res.Events[len(res.Events)-1].(engine.ShieldWallOrdered); !ok || len(sw.Units) != 1 || sw.Units[0] != "AN1" || !g.unit("AN1").ShieldWall {
		t.Fatalf("events %v", narrative(g.sc, res.Events))
	}
	g.refuse(red, "MOVE AN1 0303", "14.1")
	g.refuse(red, "FACE AN1 NW", "14.1")
	g.send(red, "FACE AN1 NE\nMOVE AN2 0302")
	g.refuse(red, "SHIELD WALL OFF", "14.1") // not upon activation any more

	d := movers(t)
	d.sc.Tables.UnitTypes["PK"] = &engine.UnitType{Key: "PK", Name: "Pike", ShieldWall: true, FlightPoints: 2}
	d.put("AN1", "0203", hex.FaceE, "PK")
	d.st.Units[0].Status = engine.Disordered
	d.send(red, "ACTIVATE Anna")
	d.refuse(red, "SHIELD WALL", "14.1")
}

// 14.2: a Hobilar mounts or dismounts for 3 MP anywhere in its move, not
// next to an enemy nor within an enemy missile unit's range, and moves on
// as its new type.
func TestHobilarsMountAndDismount(t *testing.T) {
	hobilars := func(t *testing.T) *game {
		g := movers(t)
		tb := g.sc.Tables
		tb.UnitTypes["MHOB"] = &engine.UnitType{Key: "MHOB", Name: "Hobilars (mounted)", Mounted: true, FlightPoints: 2, Becomes: "DHOB", ChangeCost: 3, Ratings: engine.Ratings{MA: 8, MADisordered: 7}}
		tb.UnitTypes["DHOB"] = &engine.UnitType{Key: "DHOB", Name: "Hobilars (dismounted)", Weapon: "bow", ZOC: true, FlightPoints: 2, Becomes: "MHOB", ChangeCost: 3, Ratings: engine.Ratings{MA: 5, MADisordered: 4}}
		tb.Weapons = map[string]*engine.Weapon{"bow": {Key: "bow", RangeDRM: []int{1, 0, -1}}}
		g.put("AN2", "0203", hex.FaceE, "MHOB")
		g.sc.Units[1].Ratings = tb.UnitTypes["MHOB"].Ratings
		return g
	}
	g := hobilars(t)
	res := g.send(red, "ACTIVATE Anna\nMOVE AN2 0303 DISMOUNT 0403")
	mv := res.Events[len(res.Events)-1].(engine.UnitMoved)
	if mv.MP != 5 || mv.Type != "DHOB" || g.unit("AN2").Type != "DHOB" {
		t.Errorf("dismounting on the way: %+v, type now %q", mv, g.unit("AN2").Type)
	}
	in := hobilars(t)
	in.send(red, "ACTIVATE Anna\nMOVE AN2 DISMOUNT")
	if u := in.unit("AN2"); u.Type != "DHOB" || u.Hex != h(t, "0203") {
		t.Errorf("dismounting in place: %+v", u)
	}
	near := hobilars(t)
	near.put("CA1", "0404", hex.FaceW)
	near.send(red, "ACTIVATE Anna")
	near.refuse(red, "MOVE AN2 0303 DISMOUNT", "14.2") // 0303 is next to CA1
	near.refuse(red, "MOVE AN2 MOUNT", "14.2")         // mounted already
	ranged := hobilars(t)
	ranged.put("CA1", "0306", hex.FaceW, "ARC") // a Blue missile unit with the bow's range 3
	ranged.send(red, "ACTIVATE Anna")
	ranged.refuse(red, "MOVE AN2 0303 DISMOUNT", "14.2")
	ranged.send(red, "MOVE AN2 0202 DISMOUNT")
}
