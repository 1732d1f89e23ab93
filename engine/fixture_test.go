package engine_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// fixture builds a small battle in Go, independent of the data files: two
// sides, "Red" (first) and "Blue", each with the Commands named, each
// Command with one leader of the given Activation Rating and two units.
// Units of Red stand in column 2, Blue's in column 8, far apart.
func fixture(redCmds, blueCmds map[string]int) *engine.Scenario {
	tables := &engine.Tables{
		Volume: "test",
		UnitTypes: map[string]*engine.UnitType{
			"INF": {Key: "INF", Name: "Infantry", ZOC: true, FlightPoints: 2, Ratings: engine.Ratings{MA: 4, MADisordered: 3}},
			"MAA": {Key: "MAA", Name: "Men-at-Arms", MAA: true, FlightPoints: 3, Ratings: engine.Ratings{MA: 4, MADisordered: 3, ShockDisordered: 1}},
		},
		Terrain: map[string]*engine.TerrainType{
			"clear": {Key: "clear", Name: "Clear", Cost: map[engine.Class]engine.Cost{engine.Foot: 1, engine.Mounted: 1}},
			"marsh": {Key: "marsh", Name: "Marsh", Cost: map[engine.Class]engine.Cost{engine.Foot: 3, engine.Mounted: engine.NA}},
		},
		Hexsides:       map[string]*engine.HexsideType{},
		FlightPoints:   engine.FlightPointValues{Retired: 1, Leader: 2, King: 3},
		Movement:       engine.MovementRules{LeaveMountedZOCMP: 2, PassThroughMP: 1, PassThroughDisorderMax: 4},
		LeaderCasualty: engine.LeaderCasualty{FireTrigger: 9, Fire: 8, Shock: 3},
	}
	sc := &engine.Scenario{
		ID: "fixture", Name: "Test fixture", Volume: "test", Tables: tables,
		Map:   engine.Map{Grid: hex.Grid{MinCol: 1, MaxCol: 10, MinRow: 1, MaxRow: 10, OddShifted: true}, DefaultTerrain: "clear"},
		Sides: [2]engine.SideSpec{{Name: "Red", FlightLevel: 20}, {Name: "Blue", FlightLevel: 20}},
		Standards: []engine.StandardSpec{
			{ID: "red-std", Name: "Red", Side: 0, Hex: hex.Hex{Col: 1, Row: 1}},
			{ID: "blue-std", Name: "Blue", Side: 1, Hex: hex.Hex{Col: 10, Row: 1}},
		},
	}
	row := 1
	add := func(side engine.Side, cmds map[string]int, col int) {
		for _, name := range sortedKeys(cmds) {
			id := strings.ToLower(name)
			std := "red-std"
			if side == 1 {
				std = "blue-std"
			}
			sc.Commands = append(sc.Commands, engine.CommandSpec{ID: id, Name: name + "'s Command", Side: side, Leader: id, Standard: std})
			sc.Leaders = append(sc.Leaders, engine.LeaderSpec{ID: id, Name: name, Side: side, Command: id, AR: cmds[name], Range: 3, MA: 8, Hex: hex.Hex{Col: col, Row: row}})
			for k, typ := range []string{"INF", "MAA"} {
				u := engine.UnitSpec{ID: fmt.Sprintf("%s%d", strings.ToUpper(id[:2]), k+1), Side: side, Command: id, Type: typ,
					Hex: hex.Hex{Col: col, Row: row}, Ratings: tables.UnitTypes[typ].Ratings}
				sc.Units = append(sc.Units, u)
				row++
			}
		}
	}
	add(0, redCmds, 2)
	add(1, blueCmds, 8)
	return sc
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// game is a battle under test.
type game struct {
	t      *testing.T
	sc     *engine.Scenario
	st     *engine.State
	dice   *engine.Script
	events []engine.Event
}

func newGame(t *testing.T, sc *engine.Scenario, dice ...int) *game {
	t.Helper()
	return &game{t: t, sc: sc, st: engine.NewState(sc), dice: engine.NewScript(dice...)}
}

func parse(t *testing.T, text string) []engine.Order {
	t.Helper()
	orders, err := engine.ParseOrders(engine.SplitLines(text))
	if err != nil {
		t.Fatalf("ParseOrders(%q): %v", text, err)
	}
	return orders
}

// send applies a block from side and fails the test on any error.
func (g *game) send(side engine.Side, text string) *engine.BlockResult {
	g.t.Helper()
	res, err := engine.Apply(g.sc, g.st, side, parse(g.t, text), g.dice)
	if err != nil {
		g.t.Fatalf("%s sends %q: %v\nwaiting: %s", g.sc.SideName(side), text, err, engine.Waiting(g.sc, g.st))
	}
	g.st = res.State
	g.events = append(g.events, res.Events...)
	return res
}

// refuse applies a block that must be refused before any change, and
// returns the error; it checks that neither the state given to Apply nor the
// game changed, byte for byte.
func (g *game) refuse(side engine.Side, text, rule string) *engine.IllegalOrderError {
	g.t.Helper()
	return g.refuseOrders(side, rule, text, parse(g.t, text)...)
}

// refuseOrders is refuse for orders built by hand (text names them).
func (g *game) refuseOrders(side engine.Side, rule, text string, orders ...engine.Order) *engine.IllegalOrderError {
	g.t.Helper()
	before := g.st.Encode()
	res, err := engine.Apply(g.sc, g.st, side, orders, g.dice)
	ill, ok := err.(*engine.IllegalOrderError)
	if !ok {
		g.t.Fatalf("%s sends %q: got result %+v, error %v; want an IllegalOrderError", g.sc.SideName(side), text, res, err)
	}
	if ill.Rule != rule {
		g.t.Errorf("%s sends %q: rule %q, want %q (%v)", g.sc.SideName(side), text, ill.Rule, rule, ill)
	} else {
		checked(ill.Rule, ill.Reason)
	}
	if after := g.st.Encode(); !bytes.Equal(before, after) {
		g.t.Errorf("state changed by a refused block:\nbefore %s\nafter  %s", before, after)
	}
	return ill
}

// narrative describes events one per line.
func narrative(sc *engine.Scenario, evs []engine.Event) []string {
	var out []string
	for _, e := range evs {
		if line := engine.Describe(sc, e); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// has reports whether an event of the same type as want, equal to it, is
// among evs.
func findEvent[T engine.Event](evs []engine.Event) (T, bool) {
	for _, e := range evs {
		if v, ok := e.(T); ok {
			return v, true
		}
	}
	var zero T
	return zero, false
}
