package engine

import (
	"testing"

	"herald/engine/hex"
)

// field is a small battle for the results of chapter 12, built here
// because results are applied by fire and shock, not by an order of their
// own: Red's R1 (infantry), R2 (archers) and Red's Standard at 0101; Blue's
// B1 and B2 attacking from the east.
func field(t *testing.T) *game {
	t.Helper()
	tb := &Tables{
		UnitTypes: map[string]*UnitType{
			"INF": {Key: "INF", ZOC: true, Weapon: "", FlightPoints: 2, Ratings: Ratings{MA: 4, MADisordered: 3}},
			"ARC": {Key: "ARC", ZOC: true, Weapon: "bow", FlightPoints: 2, Ratings: Ratings{MA: 4, MADisordered: 3}},
		},
		Weapons:  map[string]*Weapon{"bow": {Key: "bow", RangeDRM: []int{1, 0}}},
		Terrain:  map[string]*TerrainType{"clear": {Key: "clear", Cost: map[Class]Cost{Foot: 1, Mounted: 1}}},
		Hexsides: map[string]*HexsideType{},
	}
	h := func(s string) hex.Hex { x, _ := hex.Parse(s); return x }
	sc := &Scenario{ID: "field", Tables: tb,
		Map:       Map{Grid: hex.Grid{MinCol: 1, MaxCol: 8, MinRow: 1, MaxRow: 8, OddShifted: true}, DefaultTerrain: "clear"},
		Sides:     [2]SideSpec{{Name: "Red", FlightLevel: 20}, {Name: "Blue", FlightLevel: 20}},
		Commands:  []CommandSpec{{ID: "r", Side: 0, Leader: "rl", Standard: "rs"}, {ID: "b", Side: 1, Leader: "bl", Standard: "bs"}},
		Leaders:   []LeaderSpec{{ID: "rl", Name: "Rex", Side: 0, Command: "r", Hex: h("0404")}, {ID: "bl", Name: "Bo", Side: 1, Command: "b", Hex: h("0808")}},
		Standards: []StandardSpec{{ID: "rs", Side: 0, Hex: h("0101")}, {ID: "bs", Side: 1, Hex: h("0808")}},
		Units: []UnitSpec{
			{ID: "R1", Side: 0, Command: "r", Type: "INF", Hex: h("0404"), Facing: hex.FaceE},
			{ID: "R2", Side: 0, Command: "r", Type: "ARC", Hex: h("0304"), Facing: hex.FaceE},
			{ID: "B1", Side: 1, Command: "b", Type: "INF", Hex: h("0504"), Facing: hex.FaceW},
			{ID: "B2", Side: 1, Command: "b", Type: "INF", Hex: h("0505"), Facing: hex.FaceW},
		},
	}
	st := NewState(sc)
	return &game{sc: sc, st: st, res: &BlockResult{}}
}

func TestDisorderTwiceAndRetiredUnits(t *testing.T) {
	g := field(t)
	g.disorder(0, "test", nil)
	g.disorder(0, "test again", nil)
	if n := len(g.res.Events); n != 1 || g.st.Units[0].Status != Disordered {
		t.Fatalf("two Disorders: %d events, status %v; want one event (12.2)", n, g.st.Units[0].Status)
	}
	g.st.Units[0].Status = Retired
	g.disorder(0, "fired upon", nil)
	if g.st.Units[0].Status != Eliminated {
		t.Errorf("a Retired unit Disordered is %v, want Eliminated (12.4)", g.st.Units[0].Status)
	}
}

func TestRetireGoesToTheStandardOrIsEliminated(t *testing.T) {
	g := field(t)
	g.retire(0, "test")
	u := g.st.Units[0]
	if u.Status != Retired || u.Hex.String() != "0101" {
		t.Errorf("R1 retired to %s as %v, want Retired at its Standard's hex 0101 (12.4)", u.Hex, u.Status)
	}
	// Surrounded by enemy ZOCs with no way out: eliminated instead.
	g = field(t)
	g.st.Units[1].Status = Eliminated // R2 out of the way
	for _, n := range g.sc.Map.Grid.Neighbors(g.st.Units[0].Hex) {
		g.st.Units = append(g.st.Units, UnitState{ID: "Z" + n.String(), Hex: n})
		g.sc.Units = append(g.sc.Units, UnitSpec{ID: "Z" + n.String(), Side: 1, Command: "b", Type: "INF"})
	}
	g.retire(0, "test")
	if g.st.Units[0].Status != Eliminated {
		t.Errorf("a surrounded unit retiring is %v, want Eliminated (12.4)", g.st.Units[0].Status)
	}
}

func TestRetreat(t *testing.T) {
	g := field(t)
	g.retreat(0, []int{2, 3}, "test")
	u := g.st.Units[0]
	for _, a := range []int{2, 3} {
		if d := g.sc.Map.Grid.Distance(u.Hex, g.st.Units[a].Hex); d < 2 {
			t.Errorf("R1 retreated to %s, %d hex from %s: must end one hex away from every attacker (12.3)", u.Hex, d, g.sc.Units[a].ID)
		}
	}
	if g.st.Leaders[0].Hex != u.Hex {
		t.Errorf("the leader stacked with R1 stayed at %s; he retreats with it (12.3)", g.st.Leaders[0].Hex)
	}
	// Hemmed in but for a friendly archer: through it, which is Disordered.
	g = field(t)
	g.st.Units[0].Hex, g.st.Units[1].Hex = hex.Hex{Col: 7, Row: 4}, hex.Hex{Col: 8, Row: 4}
	g.st.Units[2].Hex, g.st.Units[3].Hex = hex.Hex{Col: 6, Row: 4}, hex.Hex{Col: 6, Row: 5}
	paths := retreatPaths(g.sc, g.st, 0, []int{2, 3})
	for _, p := range paths {
		if p.through < 0 {
			continue
		}
		g.retreat(0, []int{2, 3}, "test")
		if g.st.Units[1].Status != Disordered {
			t.Errorf("the archer retreated through is %v, want Disordered (12.3)", g.st.Units[1].Status)
		}
		return
	}
	g.retreat(0, []int{2, 3}, "test")
	if len(paths) == 0 && g.st.Units[0].Status != Eliminated {
		t.Errorf("a unit that cannot retreat is %v, want Eliminated (12.3)", g.st.Units[0].Status)
	}
}
