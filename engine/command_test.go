package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// outOfCommand activates Anna and returns the units the Activation found
// out of her Command Range (15.2).
func outOfCommand(t *testing.T, g *game) []string {
	t.Helper()
	res := g.send(red, "ACTIVATE Anna")
	if tr, ok := findEvent[engine.CommandTraced](res.Events); ok {
		return tr.OutOfCommand
	}
	return nil
}

// 15.2: "You cannot trace Command range through an enemy unit, an enemy
// ZOC (7.0) hex not occupied by a friendly unit, or a hex(side) impassable
// to all unit types." Anna stands in the corner hex 0101, walled off from
// all her neighbours but n0; AN2 stands two hexes away, beyond n0, so her
// range reaches it only through n0.
func TestCommandRangeIsBlocked(t *testing.T) {
	type place func(g *game, n0 hex.Hex)
	enemyIn := func(g *game, n0 hex.Hex) { g.put("CA1", n0.String(), hex.FaceE) }
	zocOver := func(g *game, n0 hex.Hex) {
		grid := g.sc.Map.Grid
		for _, c := range grid.Neighbors(n0) {
			if c == h(t, "0101") || occupied(g, c) {
				continue
			}
			for f := hex.FaceE; f <= hex.FaceSE; f++ {
				if z := grid.FrontalHexes(c, f); z[0] == n0 || z[1] == n0 {
					g.put("CA1", c.String(), f)
					return
				}
			}
		}
		t.Fatal("no place for a ZOC over n0")
	}
	friendIn := func(g *game, n0 hex.Hex) { g.put("BE1", n0.String(), hex.FaceE) }
	wall := func(g *game, n0 hex.Hex) {
		g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, "0101"), B: n0, Feature: "wall"})
	}
	for _, c := range []struct {
		name  string
		place []place
		out   bool
	}{
		{"open", nil, false},
		{"an enemy unit", []place{enemyIn}, true},
		{"an enemy ZOC", []place{zocOver}, true},
		{"an enemy ZOC with a friendly unit in it", []place{zocOver, friendIn}, false},
		{"a friendly unit alone", []place{friendIn}, false},
		{"an impassable hexside", []place{wall}, true},
		{"an impassable hexside into a friendly unit", []place{wall, friendIn}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3}))
			g.sc.Tables.Hexsides["wall"] = &engine.HexsideType{Key: "wall", Cost: map[engine.Class]engine.Cost{engine.Foot: engine.NA, engine.Mounted: engine.NA}}
			grid := g.sc.Map.Grid
			l := h(t, "0101")
			g.st.Leader("anna").Hex = l
			ns := grid.Neighbors(l)
			var n0, x hex.Hex
			for _, n := range ns {
				if grid.Contains(n) && n0 == (hex.Hex{}) {
					n0 = n
				} else if grid.Contains(n) {
					g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: l, B: n, Feature: "wall"})
				}
			}
			for _, n := range grid.Neighbors(n0) {
				if grid.Contains(n) && grid.Distance(l, n) == 2 {
					x = n
					break
				}
			}
			g.put("AN1", "1010", hex.FaceE)
			g.put("AN2", x.String(), hex.FaceE)
			g.put("BE1", "1007", hex.FaceE)
			g.put("BE2", "1005", hex.FaceE)
			for _, p := range c.place {
				p(g, n0)
			}
			out := outOfCommand(t, g)
			if got := slices.Contains(out, "AN2"); got != c.out {
				t.Errorf("AN2 in %s beyond %s: out of Command %v, want %v (out: %v)", x, n0, got, c.out, out)
			}
		})
	}
}

func occupied(g *game, x hex.Hex) bool {
	for _, u := range g.st.Units {
		if !u.OffMap && u.Hex == x {
			return true
		}
	}
	return false
}

// 15.2: "A combat unit not actually within Command Range but adjacent to a
// unit that is (or one that is considered in Command by virtue of this
// specific rule) is considered to be in Command (in a chain effect)": a
// unit of the same Command (ruling R48).
func TestCommandChain(t *testing.T) {
	setup := func(t *testing.T) (*game, hex.Hex, hex.Hex) {
		g := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3}))
		grid := g.sc.Map.Grid
		l := h(t, "0505")
		g.st.Leader("anna").Hex = l
		g.st.Leader("bert").Hex = l
		var r3, r4 hex.Hex
		for _, a := range grid.Ring(l, 3) {
			for _, b := range grid.Neighbors(a) {
				if grid.Contains(a) && grid.Contains(b) && grid.Distance(l, b) == 4 && !occupied(g, a) && !occupied(g, b) {
					r3, r4 = a, b
				}
			}
		}
		g.put("BE1", "0101", hex.FaceE)
		g.put("BE2", "0102", hex.FaceE)
		g.put("AN2", r4.String(), hex.FaceE)
		return g, r3, r4
	}
	g, r3, _ := setup(t)
	g.put("AN1", r3.String(), hex.FaceE)
	if out := outOfCommand(t, g); len(out) != 0 {
		t.Errorf("AN1 in range, AN2 next to it: out of Command %v", out)
	}
	g, r3, _ = setup(t)
	g.put("AN1", "0110", hex.FaceE)
	g.put("BE1", r3.String(), hex.FaceE) // in range, but of Bert's Command
	if out := outOfCommand(t, g); !slices.Contains(out, "AN2") {
		t.Errorf("AN2 next to Bert's BE1 only: out of Command %v, want AN2 among them", out)
	}
}

// 15.2: "Command status is determined at the start of Activation and stays
// with the unit throughout that Activation": Anna riding up to AN2 does
// not bring it into Command.
func TestCommandStatusIsFixedForTheActivation(t *testing.T) {
	g := movers(t)
	g.put("AN2", "0606", hex.FaceE)
	if out := outOfCommand(t, g); !slices.Equal(out, []string{"AN2"}) {
		t.Fatalf("out of Command %v, want [AN2]", out)
	}
	g.send(red, "MOVE Anna "+pathTo(t, g, "0201", h(t, "0506")))
	if !g.unit("AN2").OutOfCommand {
		t.Error("AN2 came into Command during the Activation")
	}
	g.refuse(red, "MOVE AN2 0705 0704", "15.2") // 0704 is next to CA2 at 0804
}

// 15.2 OUT OF COMMAND EFFECTS: no moving adjacent to an enemy unit, nor
// into a hex with an enemy Standard or leader; a foot unit in an enemy ZOC
// may not move, a mounted one may.
func TestOutOfCommandEffects(t *testing.T) {
	g := movers(t)
	g.put("AN2", "0606", hex.FaceE)
	g.st.Standards[1].Hex = h(t, "0506")
	g.st.Leader("carl").Hex = h(t, "0605")
	outOfCommand(t, g)
	g.refuse(red, "MOVE AN2 0506", "15.2")
	g.refuse(red, "MOVE AN2 0605", "15.2")
	g.send(red, "MOVE AN2 0607")

	// Passing by an enemy is moving adjacent to it (ruling R64); moving
	// away from one is not.
	grid := g.sc.Map.Grid
	by := movers(t)
	by.put("AN2", "0606", hex.FaceE)
	outOfCommand(t, by)
	var beyond hex.Hex
	for _, n := range grid.Neighbors(h(t, "0704")) {
		if grid.Distance(n, h(t, "0804")) == 2 && grid.Distance(n, h(t, "0803")) > 1 && n != h(t, "0705") && grid.Distance(n, h(t, "0705")) == 1 {
			beyond = n
		}
	}
	if !grid.Contains(beyond) {
		t.Fatal("test geometry: no hex beyond 0704 away from the enemy")
	}
	if e := by.refuse(red, "MOVE AN2 0705 0704 "+beyond.String(), "15.2"); !strings.Contains(e.Reason, "0704") {
		t.Errorf("refusal %v, want it to name 0704", e)
	}
	away := movers(t)
	away.put("AN2", "0704", hex.FaceE) // next to CA2 at 0804
	outOfCommand(t, away)
	away.send(red, "MOVE AN2 0604")

	zoc := func(t *testing.T, typ string) *game {
		g := movers(t)
		g.put("CA1", "0505", hex.FaceW)
		z, ahead := zocAhead(t, g, "0505", hex.FaceW)
		g.put("AN1", z[0].String(), hex.FaceE, typ)
		if out := outOfCommand(t, g); !slices.Contains(out, "AN1") {
			t.Fatalf("AN1 in Command: %v", out)
		}
		_ = ahead
		return g
	}
	foot := zoc(t, "INF")
	_, ahead := zocAhead(t, foot, "0505", hex.FaceW)
	foot.refuse(red, "MOVE AN1 "+ahead.String(), "15.2")
	foot.send(red, "FACE AN1 NE") // turning is not moving (5.2 Play Note)
	mounted := zoc(t, "MMAA")
	mounted.send(red, "MOVE AN1 "+ahead.String())
}
