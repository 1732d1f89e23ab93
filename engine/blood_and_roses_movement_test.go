package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses movement (blood-and-roses.md 5.3, 7.1, 7.4, 8.0, 9.0,
// 10.0) on the volume's house tables, through orders. The enemy units are
// Infantry and Men-at-Arms, which never fire, so no Reaction Fire comes
// into the moves; the dice script is empty where no die may be rolled.

// brPaths are the hexes around CA1, a Blue Infantry in 0606: x next to
// it (SW), w two hexes off beyond x, v two hexes off and next to w, s
// next to CA1 (S) and to x and v.
type brPaths struct{ c, x, w, v, s string }

func brAround(g *game) brPaths {
	c := "0606"
	return brPaths{c: c, x: g.nb(c, hex.SW), w: g.nb(c, hex.SW, hex.SW), v: g.nb(c, hex.SW, hex.SW, hex.SE), s: g.nb(c, hex.S)}
}

func (g *game) lastMove() engine.UnitMoved {
	g.t.Helper()
	for k := len(g.events) - 1; k >= 0; k-- {
		if m, ok := g.events[k].(engine.UnitMoved); ok {
			return m
		}
	}
	g.t.Fatal("no UnitMoved")
	return engine.UnitMoved{}
}

// 9.0 "There are no Zones of Control"; 7.1 "they have to stop when they
// move adjacent to an enemy unit".
func TestBloodAndRosesStopAdjacent(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	far := g.nb(p.w, hex.SW)
	g.troop("AN1", far, hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+p.w+" "+p.x+" "+p.s, "Blood & Roses 7.1")
	if !strings.Contains(e.Reason, "must stop in "+p.x) || len(e.Legal) != 1 || strings.Contains(e.Legal[0], p.s+" (") {
		t.Errorf("refusal: %v", e)
	}
	for _, r := range engine.Reach(g.sc, g.st, "AN1") {
		if r.Hex.String() == p.s && len(r.Path) < 3 {
			t.Errorf("Reach goes on past an adjacent hex: %+v", r)
		}
	}
	g.send(red, "MOVE AN1 "+p.w+" "+p.x+" FACE NE")
	if u := g.unit("AN1"); u.Hex.String() != p.x || u.Facing != hex.FaceNE {
		t.Errorf("AN1 %+v, want in %s facing NE (8.0: faced as it stops)", u, p.x)
	}
}

// Men of Iron's units stop in enemy ZOCs only: the same move past the
// Infantry's flank is legal on Men of Iron's tables (the switch is off).
func TestMenOfIronNoAdjacencyStop(t *testing.T) {
	g := melee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceNE, "PK")
	g.troop("AN1", g.nb(p.w, hex.SW), hex.FaceNE, "PK")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 "+p.w+" "+p.x+" "+p.s)
	if g.unit("AN1").Hex.String() != p.s {
		t.Errorf("AN1 %+v", g.unit("AN1"))
	}
}

// 7.1 "An Activated, in Command, unit which begins in a hex adjacent to
// an enemy unit may not move directly into another hex adjacent to that
// unit ... If the hex it enters is adjacent to an enemy unit, it must
// stop."
func TestBloodAndRosesBeginAdjacent(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+p.s, "Blood & Roses 7.1")
	if !strings.Contains(e.Reason, "may not move directly into "+p.s) {
		t.Errorf("refusal: %v", e)
	}
	// Away first, then back next to CA1 by another way: not "directly"
	// (ruling R221); it stops there.
	g.send(red, "MOVE AN1 "+p.w+" "+p.v+" "+p.s+" FACE NE")
	if u := g.unit("AN1"); u.Hex.String() != p.s || g.lastMove().MP != 3 {
		t.Errorf("AN1 %+v, move %+v", u, g.lastMove())
	}
}

// 7.1: moving away from one enemy unit straight into a hex next to
// another is allowed, and stops there.
func TestBloodAndRosesBeginAdjacentAnotherEnemy(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("CA2", g.nb(p.w, hex.SW), hex.FaceNE, "MM")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 "+p.w+" "+g.nb(p.w, hex.NW), "Blood & Roses 7.1")
	g.send(red, "MOVE AN1 "+p.w)
	if g.unit("AN1").Hex.String() != p.w {
		t.Errorf("AN1 %+v", g.unit("AN1"))
	}
}

// 5.3 Out of Command units may not "Move, if they begin the Activation
// adjacent to an enemy unit"; 8.0 such a unit, "regardless of Command
// status", may still change facing one vertex in its hex.
func TestBloodAndRosesOutOfCommandAdjacent(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	for i := range g.sc.Leaders {
		if g.sc.Leaders[i].ID == "anna" {
			g.sc.Leaders[i].Range = 1 // Anna in 0101 commands nothing near 0606
		}
	}
	g.send(red, "ACTIVATE Anna")
	if !g.unit("AN1").OutOfCommand {
		t.Fatal("AN1 should be Out of Command")
	}
	e := g.refuse(red, "MOVE AN1 "+p.w, "Blood & Roses 5.3")
	if !strings.Contains(e.Reason, "may not move") {
		t.Errorf("refusal: %v", e)
	}
	g.refuse(red, "FACE AN1 W", "Blood & Roses 8.0")
	g.send(red, "FACE AN1 E")
	if g.unit("AN1").Facing != hex.FaceE {
		t.Errorf("AN1 %+v", g.unit("AN1"))
	}
}

// 8.0: an in-Command unit that begins adjacent turns one vertex in place;
// one not adjacent turns freely.
func TestBloodAndRosesFacingAdjacent(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	g.troop("AN2", "0303", hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "FACE AN1 SW", "Blood & Roses 8.0")
	if !strings.Contains(e.Reason, "to NW or E") && !strings.Contains(e.Reason, "to E or NW") {
		t.Errorf("refusal names the legal vertices: %v", e)
	}
	g.send(red, "FACE AN1 NW\nFACE AN2 SW")
	if g.unit("AN1").Facing != hex.FaceNW || g.unit("AN2").Facing != hex.FaceSW {
		t.Errorf("AN1 %+v AN2 %+v", g.unit("AN1"), g.unit("AN2"))
	}
}

// 7.1 a leader moving on his own: Movement Allowance 5 (the fixture's
// leaders print 8); never into a hex adjacent to an enemy unit unless a
// friendly unit is there; never into an enemy unit's hex.
func TestBloodAndRosesLeaderAlone(t *testing.T) {
	g := brMelee(t)
	g.lead("anna", "0201")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE Anna 0202 0203 0204 0205 0206 0207", "Blood & Roses 7.1")
	if !strings.Contains(e.Reason, "Movement Allowance of 5") {
		t.Errorf("refusal: %v", e)
	}
	g.send(red, "MOVE Anna 0202 0203 0204 0205 0206")
	if g.st.Leader("anna").Hex.String() != "0206" {
		t.Errorf("Anna in %s", g.st.Leader("anna").Hex)
	}

	g = brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.lead("anna", p.w)
	g.send(red, "ACTIVATE Anna")
	e = g.refuse(red, "MOVE Anna "+p.x, "Blood & Roses 7.1")
	if !strings.Contains(e.Reason, "adjacent to an enemy unit") {
		t.Errorf("refusal: %v", e)
	}
	g.refuse(red, "MOVE Anna "+p.x+" "+p.c, "Blood & Roses 7.1")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	g.refuse(red, "MOVE Anna "+p.x+" "+p.c, "5.1") // never into an enemy unit's hex
	g.send(red, "MOVE Anna "+p.x)
	if g.st.Leader("anna").Hex.String() != p.x {
		t.Errorf("Anna in %s, want with AN1 in %s", g.st.Leader("anna").Hex, p.x)
	}
}

// 7.1 "If a leader begins to move with a unit, it must continue to do so
// throughout the unit's movement and stop moving when the unit stops":
// Anna goes with AN1, farther than 5, and is then done.
func TestBloodAndRosesLeaderWithUnit(t *testing.T) {
	g := brMelee(t)
	g.troop("AN1", "0201", hex.FaceSE, "MM")
	g.lead("anna", "0201")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 WITH Anna 0202 0203 0204 0205 0206 0207 0208")
	if g.st.Leader("anna").Hex.String() != "0208" {
		t.Errorf("Anna in %s, want with AN1 in 0208", g.st.Leader("anna").Hex)
	}
	g.refuse(red, "MOVE Anna 0209", "5.1")
}

// 10.0 "Archer, Handgun, and Longbow units may move through friendly
// units (not Artillery and Handguns, see below) at a cost of 1 MP for
// each such hex entered ... Other units may move through friendly
// Artillery and Handgun units at no extra cost. However, Artillery units
// may not move through other units." No die is rolled (the script is
// empty); combat units never stop stacked.
func TestBloodAndRosesPassThrough(t *testing.T) {
	for _, tc := range []struct {
		mover, through string
		mp             int    // for 0302 0303: clear 1 + clear 1 + extra
		rule           string // the refusal, "" when it may pass
	}{
		{"LB", "INF", 3, ""},
		{"A", "MM", 3, ""},
		{"HG", "DM", 3, ""},
		{"LB", "HG", 2, ""},  // through a Handgun: free for anyone
		{"A", "ART", 2, ""},  // through Artillery: free
		{"INF", "HG", 2, ""}, // any unit through a Handgun
		{"MM", "ART", 2, ""}, // any unit through Artillery
		{"INF", "LB", 0, "Blood & Roses 10.0"},
		{"MM", "A", 0, "Blood & Roses 10.0"}, // Men of Iron's Mounted MAA pass-through is gone
		{"ART", "HG", 0, "Blood & Roses 10.0"},
		{"ART", "INF", 0, "Blood & Roses 10.0"},
	} {
		t.Run(tc.mover+" through "+tc.through, func(t *testing.T) {
			g := brMelee(t)
			i := g.troop("AN1", "0301", hex.FaceSE, tc.mover)
			g.st.Units[i].Limbered = tc.mover == "ART" // only limbered Artillery moves (7.6)
			g.troop("AN2", "0302", hex.FaceSE, tc.through)
			g.send(red, "ACTIVATE Anna")
			if tc.rule != "" {
				e := g.refuse(red, "MOVE AN1 0302 0303", tc.rule)
				if !strings.Contains(e.Reason, "AN2") {
					t.Errorf("refusal: %v", e)
				}
				return
			}
			g.refuse(red, "MOVE AN1 0302", "8.0") // may not stop there
			g.send(red, "MOVE AN1 0302 0303")
			if m := g.lastMove(); m.MP != tc.mp || g.unit("AN1").Hex.String() != "0303" || g.unit("AN2").Status != engine.Normal {
				t.Errorf("move %+v, AN2 %+v; want %d MP", m, g.unit("AN2"), tc.mp)
			}
			if _, rolled := findEvent[engine.PassedThrough](g.events); rolled {
				t.Error("10.0 has no pass-through die")
			}
		})
	}
}

// 10.0 with 7.1: a unit may not pass through a friendly unit in a hex
// adjacent to an enemy unit, since it must stop there and may not stop
// stacked; and an enemy unit is never passed through.
func TestBloodAndRosesPassThroughNextToEnemy(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.v, hex.FaceNE, "LB")
	g.troop("AN2", p.s, hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 "+p.s+" "+g.nb(p.s, hex.SE), "Blood & Roses 7.1")
	g.troop("BE1", g.nb(p.v, hex.S), hex.FaceNE, "LB")
	g.troop("DO1", g.nb(p.v, hex.S, hex.S), hex.FaceNE, "INF")
	g.refuse(red, "MOVE BE1 "+g.nb(p.v, hex.S, hex.S), "8.0")
}

// 7.4 Dismounting: "An individual Mounted Men-at-Arms unit may dismount
// at the beginning of its move at the cost of 2 MP (subtracted from its
// dismounted Movement Allowance)": 2 MP and two clear hexes spend a
// Dismounted MAA's 4; a third is too far.
func TestBloodAndRosesDismount(t *testing.T) {
	g := brMelee(t)
	g.troop("AN1", "0303", hex.FaceSE, "MM")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 DISMOUNT 0304 0305 0306", "5.1")
	g.refuse(red, "MOVE AN1 0304 DISMOUNT 0305", "Blood & Roses 7.4")
	g.send(red, "MOVE AN1 DISMOUNT 0304 0305 FACE NE")
	m := g.lastMove()
	if u := g.unit("AN1"); u.Type != "DM" || u.Hex.String() != "0305" || m.MP != 4 || m.Change != "DISMOUNT" {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}
	if s := g.story(g.events); !strings.Contains(s, "Blood & Roses 7.4") {
		t.Errorf("narrative: %s", s)
	}
	// "Once dismounted, they may not remount during the battle": a
	// Dismounted MAA has no way back, nor a second dismount.
	g.troop("AN2", "0308", hex.FaceSE, "DM")
	g.refuse(red, "MOVE AN2 MOUNT 0309", "Blood & Roses 7.4")
	g.refuse(red, "MOVE AN2 DISMOUNT 0309", "Blood & Roses 7.4")
}

// 7.4 a dismount alone, in place, costs its 2 MP; enemy missile range is
// no bar (Men of Iron 14.2's Hobilars are barred by it).
func TestBloodAndRosesDismountInPlace(t *testing.T) {
	g := brMelee(t)
	g.troop("AN1", "0303", hex.FaceSE, "MM")
	g.troop("CA1", "0306", hex.FaceNW, "LB") // in range, not adjacent
	g.send(red, "ACTIVATE Anna\nMOVE AN1 DISMOUNT FACE SE")
	if u, m := g.unit("AN1"), g.lastMove(); u.Type != "DM" || m.MP != 2 || u.Hex.String() != "0303" {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}
}

// 7.4 "They must be within Command Range of their leader. They may not
// be adjacent to an enemy unit." Only Mounted Men-at-Arms dismount.
func TestBloodAndRosesDismountRefused(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.x, hex.FaceNE, "MM")
	g.troop("AN2", "0303", hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 DISMOUNT "+p.w, "Blood & Roses 7.4")
	if !strings.Contains(e.Reason, "next to an enemy unit") {
		t.Errorf("refusal: %v", e)
	}
	g.refuse(red, "MOVE AN2 DISMOUNT 0304", "Blood & Roses 7.4")

	g = brMelee(t)
	g.troop("AN1", "0808", hex.FaceNE, "MM")
	for i := range g.sc.Leaders {
		if g.sc.Leaders[i].ID == "anna" {
			g.sc.Leaders[i].Range = 1
		}
	}
	g.send(red, "ACTIVATE Anna")
	e = g.refuse(red, "MOVE AN1 DISMOUNT 0807", "Blood & Roses 7.4")
	if !strings.Contains(e.Reason, "Command Range") {
		t.Errorf("refusal: %v", e)
	}
	g.send(red, "MOVE AN1 0807") // mounted it may move
}

// 7.4 with a dearer dismount than the dismounted side's allowance: the
// dismount alone is refused.
func TestBloodAndRosesDismountBeyondAllowance(t *testing.T) {
	g := brMelee(t)
	mm := *g.sc.Tables.UnitTypes["MM"]
	mm.ChangeCost = 5
	g.sc.Tables.UnitTypes["MM"] = &mm
	g.troop("AN1", "0303", hex.FaceSE, "MM")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 DISMOUNT", "Blood & Roses 7.4")
	if !strings.Contains(e.Reason, "dismounted Movement Allowance of 4") {
		t.Errorf("refusal: %v", e)
	}
}

// 7.4, 7.5: a reinforcing Mounted Men-at-Arms is in Command and next to no
// enemy off the map: it may dismount as it begins its move, and enters
// with the 2 MP left (ruling R226).
func TestBloodAndRosesReinforcementDismounts(t *testing.T) {
	g := brMelee(t)
	i := g.index("AN1")
	g.sc.Units[i].Type = "MM"
	g.sc.Units[i].Ratings = g.sc.Tables.UnitTypes["MM"].Ratings
	g.sc.Commands[0].Entry = []hex.Hex{h(t, "0110")}
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 DISMOUNT 0110 0210 0310", "5.1")
	g.send(red, "MOVE AN1 DISMOUNT 0110 0210 FACE NE")
	if u, m := g.unit("AN1"), g.lastMove(); u.Type != "DM" || u.Hex.String() != "0210" || m.MP != 4 {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}
}

// 7.1 "an enemy unit": a Retired enemy unit stops a move next to it like
// any other (ruling R220; Men of Iron's Retired units have no ZOC).
func TestBloodAndRosesRetiredEnemyStops(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.st.Unit("CA1").Status = engine.Retired
	g.troop("AN1", g.nb(p.w, hex.SW), hex.FaceNE, "INF")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 "+p.w+" "+p.x+" "+p.s, "Blood & Roses 7.1")
}

// 7.2 "A unit may not move into a hex where enemy reinforcements enter
// the map"; Battle Flight is not built, so its Standard hexes are not
// either.
func TestBloodAndRosesEnemyEntryHex(t *testing.T) {
	g := brMelee(t)
	g.troop("AN1", "0303", hex.FaceSE, "INF")
	for k := range g.sc.Commands {
		if g.sc.Commands[k].ID == "carl" {
			g.sc.Commands[k].Entry = []hex.Hex{h(t, "0304")}
		}
	}
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 0304 0305", "5.2")
	if !strings.Contains(e.Reason, "enemy reinforcements") {
		t.Errorf("refusal: %v", e)
	}
	g.send(red, "MOVE AN1 0404 0405")
}

// The orders a reply lists as legal: a Mounted Men-at-Arms may DISMOUNT
// (7.4); an Out of Command unit next to an enemy unit may only turn
// (5.3, 8.0).
func TestBloodAndRosesMovementForms(t *testing.T) {
	g := brMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "INF")
	g.troop("AN1", p.x, hex.FaceNE, "INF")
	g.troop("AN2", "0808", hex.FaceNE, "MM")
	for i := range g.sc.Leaders {
		if g.sc.Leaders[i].ID == "anna" {
			g.sc.Leaders[i].Range = 1
		}
	}
	g.st.Leader("anna").Hex = h(t, "0909")
	g.send(red, "ACTIVATE Anna")
	got := strings.Join(engine.Legal(g.sc, g.st), "|")
	for _, want := range []string{"FACE AN1 <vertex>", "MOVE AN2 <hexes> [FACE <vertex>]", "MOVE AN2 DISMOUNT [<hexes>] [FACE <vertex>]"} {
		if !strings.Contains(got, want) {
			t.Errorf("Legal lacks %q: %s", want, got)
		}
	}
	if strings.Contains(got, "MOVE AN1") {
		t.Errorf("Legal offers AN1 a move: %s", got)
	}
}
