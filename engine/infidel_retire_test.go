package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Infidel 14.4 Retire placement and 2.2's units with no Disordered side,
// played through orders and scripted dice on Infidel's own tables
// (infidelMelee): the unit that caused the result is known to the
// placement whether the Retire was printed or came from a Disorder the
// unit has no side for (rulings R173, R174, R179).

// causedRetire sets Carl's CA1, of type typ and status, in c facing W, and
// Anna's AN2, of type by, at its SW facing E (CA1 is in its front), with
// Carl's Standard south of AN2: next to AN2, two hexes from CA1. It
// returns AN2's hex and the Standard's.
func (g *game) causedRetire(c, typ string, status engine.Status, by string) (att, std string) {
	g.t.Helper()
	g.troop("CA1", c, hex.FaceW, typ)
	g.st.Unit("CA1").Status = status
	att = g.nb(c, hex.SW)
	g.troop("AN2", att, hex.FaceE, by)
	std = g.nb(att, hex.S)
	g.st.Standard("blue-std").Hex = h(g.t, std)
	return att, std
}

// wantRetiredClear checks a UnitRetired of CA1 placed next to its Standard
// std and not next to the causer that stood in att (Infidel 14.4): the
// Standard's own hex, next to att, would have been nearest.
func (g *game) wantRetiredClear(evs []engine.Event, att, std, cause string) {
	g.t.Helper()
	r, ok := findEvent[engine.UnitRetired](evs)
	if !ok || r.Unit != "CA1" {
		g.t.Fatalf("want CA1 Retired:\n%s", g.story(evs))
	}
	grid := g.sc.Map.Grid
	if grid.Distance(r.To, h(g.t, att)) < 2 || grid.Distance(r.To, h(g.t, std)) != 1 {
		g.t.Errorf("CA1 Retired to %s: want a hex next to its Standard in %s and not next to its causer in %s (Infidel 14.4):\n%s", r.To, std, att, g.story(evs))
	}
	if !strings.Contains(r.Cause, cause) {
		g.t.Errorf("Retire cause %q, want it to say %q", r.Cause, cause)
	}
	if u := g.unit("CA1"); u.Status != engine.Retired || u.Hex != r.To {
		g.t.Errorf("CA1 after its Retire: %+v", u)
	}
}

// blocker adds a Pike of Bert's Command (which has no units of its own in
// the melee fixture) to Anna's side, in hex at.
func (g *game) blocker(id, at string) {
	g.t.Helper()
	g.sc.Units = append(g.sc.Units, engine.UnitSpec{ID: id, Side: 0, Command: "bert", Type: "PK", Ratings: g.sc.Tables.UnitTypes["PK"].Ratings})
	g.st.Units = append(g.st.Units, engine.UnitState{ID: id, Hex: h(g.t, at), Facing: hex.FaceE})
}

// TestInfidelNoDisorderedSideRetiresClearOfCausers: Camp Followers "cannot
// be Disordered (and [are], instead, Retired)" (Infidel 2.2, 14.2), and a
// Retire is placed so that "The hex chosen must not be adjacent to the
// enemy units that caused the Retire result" (14.4): the Disorder's
// causer, the Shocking Heavy Cavalry or the firing Archer, is that unit.
// Carl's Standard stands next to the causer, so without it the Camp
// Followers would have been placed in the Standard's hex.
func TestInfidelNoDisorderedSideRetiresClearOfCausers(t *testing.T) {
	c := "0505"
	t.Run("Shock", func(t *testing.T) {
		// Die 0, +3 (their Shock Defense), +4 (HC against CF) = 7.
		g := infidelMelee(t, 0)
		att, std := g.causedRetire(c, "CF", engine.Normal, "HC")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
		}
		wantAttack(t, atts[0], "CA1", 0, []string{"+3 10.4 #3", "+4 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
		g.wantRetiredClear(evs, att, std, "no Disordered side, so it Retires (Infidel 2.2, 14.2)")
		if _, ok := findEvent[engine.UnitDisordered](evs); ok {
			t.Errorf("Camp Followers Disordered:\n%s", g.story(evs))
		}
	})
	t.Run("fire", func(t *testing.T) {
		// Die 4, +1 (Composite bow at range 1) = 5 on the foot column:
		// Disordered.
		g := infidelMelee(t, 4)
		att, std := g.causedRetire(c, "CF", engine.Normal, "A")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "FIRE AN2 AT CA1").Events
		f, ok := findEvent[engine.UnitFired](evs)
		if !ok || f.Roll.Die != 4 || f.Roll.Total != 5 || len(f.Roll.Mods) != 1 || f.Roll.Mods[0].DRM != +1 || f.Column != "foot" || f.Result != "Disordered" {
			t.Fatalf("want AN2's fire: die 4 +1 (range 1) = 5 on the foot column, Disordered; got %+v:\n%s", f, g.story(evs))
		}
		g.wantRetiredClear(evs, att, std, "fire of AN2; it has no Disordered side")
		if u := g.unit("AN2"); u.Hex != h(t, att) {
			t.Errorf("the firer moved: %+v", u)
		}
	})
	// Men of Iron's placement has no such rule (12.4): the same Disorder
	// by fire on a unit with no Disordered side, on Infidel's tables with
	// rules.retire_clear_of_attackers off, goes to the Standard's hex.
	t.Run("without retire_clear_of_attackers", func(t *testing.T) {
		g := infidelMelee(t, 4)
		g.sc.Tables = tablesWith(t, g.sc.Tables, func(tb *engine.Tables) { tb.Rules.RetireClearOfAttackers = false })
		_, std := g.causedRetire(c, "CF", engine.Normal, "A")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "FIRE AN2 AT CA1").Events
		if r, ok := findEvent[engine.UnitRetired](evs); !ok || r.To != h(t, std) {
			t.Errorf("want CA1 Retired into its Standard's hex %s:\n%s", std, g.story(evs))
		}
	})
}

// TestInfidelRetireByFire: a printed Retire by fire is placed clear of
// the firer (Infidel 14.4). Die 5, +1 (range 1) = 6 on the foot-
// disordered column: Retire.
func TestInfidelRetireByFire(t *testing.T) {
	g := infidelMelee(t, 5)
	att, std := g.causedRetire("0505", "PK", engine.Disordered, "A")
	g.send(0, "ACTIVATE Anna")
	evs := g.send(0, "FIRE AN2 AT CA1").Events
	f, ok := findEvent[engine.UnitFired](evs)
	if !ok || f.Roll.Die != 5 || f.Roll.Total != 6 || f.Column != "foot-disordered" || f.Result != "Retire" {
		t.Fatalf("want AN2's fire: die 5 +1 = 6 on the foot-disordered column, Retire; got %+v:\n%s", f, g.story(evs))
	}
	g.wantRetiredClear(evs, att, std, "fire of AN2")
}

// TestInfidelRetireEliminated: the two ways 14.4 eliminates a Retiring
// unit: "unable to trace a route to the Standard not blocked by enemy
// units and impassable terrain (but not ZOC), in which case it is
// Eliminated", and "The hex chosen must not be adjacent to the enemy
// units that caused the Retire result, if this is not possible, it is
// Eliminated".
func TestInfidelRetireEliminated(t *testing.T) {
	c := "0505"
	t.Run("route blocked by enemy units", func(t *testing.T) {
		for _, enemy := range []bool{true, false} {
			// The Disordered Heavy Cavalry CA1, Shocked by AN2: die 5
			// Retires it (TestInfidelRetirePlacement). Its Standard,
			// moved to the corner 1001, is ringed by Pikes: Anna's
			// block the route; Carl's own do not.
			g := infidelMelee(t, 5)
			g.causedRetire(c, "HC", engine.Disordered, "HC")
			std := h(t, "1001")
			g.st.Standard("blue-std").Hex = std
			ring := 0
			for _, n := range g.sc.Map.Grid.Neighbors(std) {
				if !g.sc.Map.Grid.Contains(n) {
					continue
				}
				id := "PX" + n.String()
				g.blocker(id, n.String())
				if !enemy {
					g.sc.Units[g.index(id)].Side, g.sc.Units[g.index(id)].Command = 1, "carl"
				}
				ring++
			}
			if ring == 0 || ring > 3 {
				t.Fatalf("the corner 1001 has %d neighbours on the map", ring)
			}
			evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
			if atts := resolved(evs); len(atts) != 1 || atts[0].Result != "Defender Retired" {
				t.Fatalf("want one attack, Defender Retired:\n%s", g.story(evs))
			}
			if !enemy {
				if r, ok := findEvent[engine.UnitRetired](evs); !ok || r.To != std {
					t.Errorf("friendly units round the Standard: want CA1 Retired into its hex %s:\n%s", std, g.story(evs))
				}
				continue
			}
			e, ok := findEvent[engine.UnitEliminated](evs)
			if !ok || e.Unit != "CA1" || !strings.Contains(e.Cause, "no route to its Standard free of enemy units and impassable terrain (Infidel 14.4)") {
				t.Errorf("want CA1 Eliminated for want of a route to its Standard (Infidel 14.4):\n%s", g.story(evs))
			}
			if _, ok := findEvent[engine.UnitRetired](evs); ok {
				t.Errorf("CA1 Retired though enemy units ring its Standard:\n%s", g.story(evs))
			}
		}
	})
	t.Run("no hex clear of the causer", func(t *testing.T) {
		// Camp Followers, Disordered by AN2's Shock as in
		// TestInfidelNoDisorderedSideRetiresClearOfCausers, Retire; their
		// Standard stands next to both, and every other hex next to the
		// Camp Followers or the Standard holds one of Anna's Pikes: the
		// two hexes they can reach are both next to AN2.
		g := infidelMelee(t, 0)
		att, _ := g.causedRetire(c, "CF", engine.Normal, "HC")
		grid := g.sc.Map.Grid
		var std hex.Hex
		for _, n := range grid.Neighbors(h(t, c)) {
			if grid.Distance(n, h(t, att)) == 1 {
				std = n
				break
			}
		}
		g.st.Standard("blue-std").Hex = std
		seen := map[hex.Hex]bool{h(t, c): true, std: true, h(t, att): true}
		for _, from := range []hex.Hex{h(t, c), std} {
			for _, n := range grid.Neighbors(from) {
				if grid.Contains(n) && !seen[n] {
					seen[n] = true
					g.blocker("PX"+n.String(), n.String())
				}
			}
		}
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
		}
		wantAttack(t, atts[0], "CA1", 0, []string{"+3 10.4 #3", "+4 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
		e, ok := findEvent[engine.UnitEliminated](evs)
		if !ok || e.Unit != "CA1" || !strings.Contains(e.Cause, "no Disordered side") ||
			!strings.Contains(e.Cause, "every hex it can reach by a route to its Standard is next to an enemy unit that caused the Retire (Infidel 14.4)") {
			t.Errorf("want CA1 Eliminated, every hex it could reach next to AN2 (Infidel 14.4):\n%s", g.story(evs))
		}
		if _, ok := findEvent[engine.UnitRetired](evs); ok {
			t.Errorf("CA1 Retired next to the unit that caused it:\n%s", g.story(evs))
		}
	})
}

// TestInfidelRallyNoDisorderedSide: "When Activated, remove the Retired
// marker from every eligible unit and make sure the units are in
// Disordered status" (Infidel 15.1, 15.2), but a unit with no reverse
// side "cannot be Disordered" (2.2): Camp Followers and Wagons rally to
// their one side, good order (ruling R179); Archers rally Disordered. The
// three Retired units cost Anna's side 3 Flight Points; rallied, none.
func TestInfidelRallyNoDisorderedSide(t *testing.T) {
	g := infidelMelee(t)
	std := g.st.Standard("red-std").Hex
	grid := g.sc.Map.Grid
	var near []hex.Hex
	for _, n := range grid.Neighbors(std) {
		if grid.Contains(n) && n != g.st.Leader("anna").Hex {
			near = append(near, n)
		}
	}
	if len(near) < 2 {
		t.Fatalf("too few hexes next to the Standard in %s", std)
	}
	want := map[string]engine.Status{"AN1": engine.Normal, "AN2": engine.Normal, "BE1": engine.Disordered}
	for id, at := range map[string]hex.Hex{"AN1": std, "AN2": near[0], "BE1": near[1]} {
		typ := map[string]string{"AN1": "CF", "AN2": "WG", "BE1": "A"}[id]
		g.troop(id, at.String(), hex.FaceE, typ)
		g.st.Unit(id).Status = engine.Retired
	}
	evs := g.send(0, "ACTIVATE STANDARD Red").Events
	rallied := map[string]engine.UnitRallied{}
	for _, e := range evs {
		if r, ok := e.(engine.UnitRallied); ok {
			rallied[r.Unit] = r
		}
	}
	for id, st := range want {
		r, ok := rallied[id]
		if !ok || r.To != st || !r.Retired {
			t.Errorf("%s rallied %+v (%v), want from Retired to %v:\n%s", id, r, ok, st, g.story(evs))
		}
		if u := g.unit(id); u.Status != st {
			t.Errorf("%s after the rally: %v, want %v", id, u.Status, st)
		}
	}
	story := g.story(evs)
	for _, line := range []string{
		"AN1 rallies at its Standard: no longer Retired, and in good order, having no Disordered side (13.1, 13.2; Infidel 2.2, it has no Disordered side).",
		"BE1 rallies at its Standard: no longer Retired, now Disordered (13.1, 13.2).",
		"Loss Check for the Red: 0 Flight Points",
	} {
		if !strings.Contains(story, line) {
			t.Errorf("the narrative does not say %q:\n%s", line, story)
		}
	}
	// No unit takes a Disordered status by the rally but the Archers'.
	for _, e := range evs {
		if d, ok := e.(engine.UnitDisordered); ok {
			t.Errorf("%s Disordered during a rally", d.Unit)
		}
	}
}
