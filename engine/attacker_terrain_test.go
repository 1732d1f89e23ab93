package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// 10.4 #2B: "In some battles there are also modifiers for the attacker's
// terrain ... If there are two attackers to a single defending unit and
// each of the attackers would generate a different terrain DRM ... the
// terrain DRM most favorable to the defender is used." The battle's
// rules.attacker_shock gives a foot attacker in marsh -1; the defender's
// rough adds its own -1 to the same attacker's DRM.
func TestAttackerTerrain(t *testing.T) {
	for _, c := range []struct {
		name     string
		marsh    []string // attackers standing in marsh
		rough    bool     // the defender stands in rough
		attack   string
		mods     []string
		total    int
		withRule bool
	}{
		{"from clear", nil, false, "SHOCK AN1 AT CA1", []string{"+2 10.4 #6"}, 7, true},
		{"from marsh", []string{"AN1"}, false, "SHOCK AN1 AT CA1", []string{"-1 10.4 #2B", "+2 10.4 #6"}, 6, true},
		{"from marsh, the battle says nothing", []string{"AN1"}, false, "SHOCK AN1 AT CA1", []string{"+2 10.4 #6"}, 7, false},
		{"from marsh into rough", []string{"AN1"}, true, "SHOCK AN1 AT CA1", []string{"-2 10.4 #2B", "+2 10.4 #6"}, 5, true},
		{"one of two from marsh: the defender's best", []string{"AN2"}, false, "SHOCK AN1 AN2 AT CA1",
			[]string{"+1 10.4 #1", "-1 10.4 #2B", "+2 10.4 #6"}, 7, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := melee(t, 5)
			g.troop("CA1", "0505", hex.FaceW, "LB")
			g.sc.Units[g.index("CA1")].Ratings.Shock = 0
			for k, d := range []hex.Dir{hex.SW, hex.NW} {
				at := g.nb("0505", d)
				g.troop([]string{"AN1", "AN2"}[k], at, g.toward(at, "0505"), "DMAA")
			}
			if c.withRule {
				g.sc.Rules.AttackerShock = map[string]map[engine.Class]int{"marsh": {engine.Foot: -1, engine.Mounted: -2}}
			}
			for _, id := range c.marsh {
				g.sc.Map.Terrain[g.st.Unit(id).Hex] = "marsh"
			}
			if c.rough {
				g.sc.Map.Terrain[h(t, "0505")] = "rough"
			}
			evs := g.shockRound(c.attack + "\nEND")
			a := resolved(evs)
			if len(a) != 1 {
				t.Fatalf("attacks:\n%s", g.story(evs))
			}
			wantAttack(t, a[0], "CA1", 5, c.mods, c.total, "Shock", a[0].Result)
		})
	}
}
