package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// zocAhead is the ZOC of a unit at e facing f, and the hex ahead of it:
// the one next to both Frontal hexes that is not e, outside the ZOC.
func zocAhead(t *testing.T, g *game, e string, f hex.Facing) (z [2]hex.Hex, ahead hex.Hex) {
	t.Helper()
	grid := g.sc.Map.Grid
	z = grid.FrontalHexes(h(t, e), f)
	for _, n := range grid.Neighbors(z[0]) {
		if n != h(t, e) && grid.Distance(n, z[1]) == 1 {
			return z, n
		}
	}
	t.Fatalf("no hex ahead of %s facing %s", e, f)
	return z, ahead
}

// zocOnto finds a hex next to x, none of avoid, and a facing from which a
// unit there has x among its Frontal hexes and no hex of avoid.
func zocOnto(t *testing.T, g *game, x hex.Hex, avoid ...hex.Hex) (p struct {
	hex    hex.Hex
	facing hex.Facing
}) {
	t.Helper()
	grid := g.sc.Map.Grid
	for _, n := range grid.Neighbors(x) {
		if contains(avoid, n) || !grid.Contains(n) {
			continue
		}
		for _, f := range []hex.Facing{hex.FaceE, hex.FaceNE, hex.FaceNW, hex.FaceW, hex.FaceSW, hex.FaceSE} {
			fr := grid.FrontalHexes(n, f)
			if (fr[0] == x || fr[1] == x) && !contains(avoid, fr[0]) && !contains(avoid, fr[1]) {
				p.hex, p.facing = n, f
				return p
			}
		}
	}
	t.Fatalf("no hex from which to cover %s", x)
	return p
}

// across is a pair of hexes on opposite sides of x, both on the map and
// neither among avoid: a path from one to the other goes through x.
func across(t *testing.T, g *game, x hex.Hex, avoid ...hex.Hex) (a, b hex.Hex) {
	t.Helper()
	grid := g.sc.Map.Grid
	for d := hex.Dir(0); d < 6; d++ {
		a, b = grid.Neighbor(x, d), grid.Neighbor(x, d.Opposite())
		if grid.Contains(a) && grid.Contains(b) && !contains(avoid, a) && !contains(avoid, b) {
			return a, b
		}
	}
	t.Fatalf("no way across %s", x)
	return a, b
}

func contains(hs []hex.Hex, h hex.Hex) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// 7.1: "The following units, only, exert a ZOC into their frontal hexes:
// Missile Infantry; all Mounted units that are capable of Attacking by
// Shock"; Retired units have none (12.4 Play Note). AN1 walks across the
// first Frontal hex of Blue's CA1 at 0505: it must stop there only when
// CA1 has a ZOC, and it may walk across CA1's Flank hexes.
func TestWhichUnitsHaveAZOC(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(g *game)
		across func(g *game) hex.Hex
		stops  bool
	}{
		{"infantry with a ZOC, Frontal hex", func(g *game) {}, func(g *game) hex.Hex { return zocOf(t, g, "0505", hex.FaceW)[0] }, true},
		{"foot men-at-arms, no ZOC", func(g *game) { g.sc.Units[2].Type = "MAA" }, func(g *game) hex.Hex { return zocOf(t, g, "0505", hex.FaceW)[0] }, false},
		{"Retired, no ZOC", func(g *game) { g.st.Units[2].Status = engine.Retired }, func(g *game) hex.Hex { return zocOf(t, g, "0505", hex.FaceW)[0] }, false},
		{"Flank hex", func(g *game) {}, func(g *game) hex.Hex { return g.sc.Map.Grid.Neighbor(h(t, "0505"), hex.FaceW.Flank()[0]) }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := movers(t)
			g.put("CA1", "0505", hex.FaceW)
			c.setup(g)
			x := c.across(g)
			a, b := across(t, g, x, h(t, "0505"), zocOf(t, g, "0505", hex.FaceW)[0], zocOf(t, g, "0505", hex.FaceW)[1])
			g.put("AN1", a.String(), hex.FaceE)
			g.st.Leader("anna").Hex = a
			g.send(red, "ACTIVATE Anna")
			order := "MOVE AN1 " + x.String() + " " + b.String()
			if c.stops {
				g.refuse(red, order, "7.2")
				g.send(red, "MOVE AN1 "+x.String())
				return
			}
			g.send(red, order)
			if g.unit("AN1").Hex != b {
				t.Errorf("AN1 at %s, want %s", g.unit("AN1").Hex, b)
			}
		})
	}
}

// 7.2, 6.2: a unit that starts in an enemy unit's ZOC may leave it, and
// may enter the ZOC of another enemy unit (and stops: "If that hex is
// another ZOC it must stop"), but may not step into another hex of the
// same unit's ZOC, nor leave it and enter it again (ruling R47, as
// Infidel 9.x words the same rule); leaving it, it may face any vertex.
func TestLeaveAndReenterZOC(t *testing.T) {
	setup := func(t *testing.T) (*game, [2]hex.Hex, hex.Hex) {
		g := movers(t)
		g.put("CA1", "0505", hex.FaceW)
		z, ahead := zocAhead(t, g, "0505", hex.FaceW)
		g.put("AN1", z[0].String(), hex.FaceE)
		g.st.Leader("anna").Hex = z[0]
		g.send(red, "ACTIVATE Anna")
		return g, z, ahead
	}
	g, z, ahead := setup(t)
	g.refuse(red, "MOVE AN1 "+ahead.String()+" "+z[1].String(), "7.2")
	g.refuse(red, "MOVE AN1 "+z[1].String()+" FACE W", "7.2")

	g, z, ahead = setup(t)
	other := zocOnto(t, g, ahead, h(t, "0505"), z[0], z[1])
	g.put("CA2", other.hex.String(), other.facing, "INF")
	var beyond hex.Hex
	for _, n := range g.sc.Map.Grid.Neighbors(ahead) {
		if g.sc.Map.Grid.Contains(n) && !contains([]hex.Hex{z[0], z[1], other.hex, h(t, "0505")}, n) {
			beyond = n
		}
	}
	g.refuse(red, "MOVE AN1 "+ahead.String()+" "+beyond.String(), "7.2")
	g.send(red, "MOVE AN1 "+ahead.String())
	if mv := g.events[len(g.events)-1].(engine.UnitMoved); mv.MP != 1 || g.unit("AN1").Hex != ahead {
		t.Errorf("from CA1's ZOC into CA2's: %+v", mv) // foot infantry's ZOC: no 2 MP more (7.2)
	}

	g, _, ahead = setup(t)
	g.send(red, "MOVE AN1 "+ahead.String()+" FACE "+hex.FaceE.Opposite().String())
	if u := g.unit("AN1"); u.Hex != ahead || u.Facing != hex.FaceW {
		t.Errorf("leaving the ZOC: %+v", u)
	}
}

// 6.2: "Units in an enemy ZOC may only change facing one vertex, if they
// stay in the hex"; out of one they turn freely, and only when activated.
func TestFacingInAndOutOfZOC(t *testing.T) {
	g := movers(t)
	g.put("CA1", "0505", hex.FaceW)
	z := zocOf(t, g, "0505", hex.FaceW)
	g.put("AN1", z[0].String(), hex.FaceE)
	g.st.Leader("anna").Hex = z[0]
	g.refuse(red, "FACE AN1 NE", "6.2") // not activated
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "FACE AN1 W", "6.2")
	g.refuse(red, "FACE AN1 NW", "6.2")
	g.send(red, "FACE AN1 SE\nFACE AN2 W")
	if a, b := g.unit("AN1"), g.unit("AN2"); a.Facing != hex.FaceSE || b.Facing != hex.FaceW {
		t.Errorf("AN1 faces %s (want SE), AN2 %s (want W)", a.Facing, b.Facing)
	}
	if f, ok := findEvent[engine.UnitFaced](g.events); !ok || engine.Describe(g.sc, f) != "AN1 turns to face SE (6.2)." {
		t.Errorf("event %+v", f)
	}
}
