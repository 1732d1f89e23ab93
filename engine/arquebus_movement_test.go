package engine_test

import (
	"maps"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// Arquebus movement and mounted missile fire (arquebus.md 7.2, 7.4, 11.1,
// 11.2, 11.5; rulings R340–R350 in docs/rulings.md) on the
// volume's house tables, through orders and scripted dice. The enemy is a
// Pike (no missile weapon, so no Return or Reaction Fire) unless a test
// says otherwise; the paths are brAround's: CA1 in c, x next to it, w two
// hexes off beyond x, s next to CA1 and x.

// arqMelee is the melee fixture on a copy of the Arquebus tables.
func arqMelee(t *testing.T, dice ...int) *game {
	t.Helper()
	g := melee(t, dice...)
	tb, err := data.Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	cp := *tb
	cp.WSM = maps.Clone(tb.WSM)
	cp.UnitTypes = maps.Clone(tb.UnitTypes)
	g.sc.Tables, g.sc.Volume = &cp, "arquebus"
	return g
}

// movedMP is what the unit's UnitMoved events and its fire inside the
// move cost together, among evs.
func movedMP(evs []engine.Event, id string) int {
	mp := 0
	for _, e := range evs {
		switch e := e.(type) {
		case engine.UnitMoved:
			if e.Unit == id {
				mp += e.MP
			}
		case engine.UnitFired:
			if e.Unit == id && !e.Return && !e.Reaction {
				mp += e.MP
			}
		}
	}
	return mp
}

// 7.2 "An Activated, in Command, unit which begins in a hex adjacent to an
// enemy unit may move, at the cost of one extra MP to leave the hex"
// (movement.leave_adjacent_mp; ruling R340). Blood & Roses 7.1 has no such
// cost.
func TestArquebusLeaveAdjacentCostsOneMP(t *testing.T) {
	g := arqMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "PK")
	g.troop("AN1", p.x, hex.FaceNE, "AQ")
	g.send(red, "ACTIVATE Anna")
	for _, r := range engine.Reach(g.sc, g.st, "AN1") {
		if r.Hex.String() == p.w && r.Cost != 2 {
			t.Errorf("Reach: %s costs %d, want 2 (1 clear + 1 to leave)", p.w, r.Cost)
		}
	}
	// AQ has 5 MP: 2 to reach w, 3 more clear hexes, not 4.
	far := []string{p.w, g.nb(p.w, hex.N), g.nb(p.w, hex.N, hex.N), g.nb(p.w, hex.N, hex.N, hex.N), g.nb(p.w, hex.N, hex.N, hex.N, hex.N)}
	g.refuse(red, "MOVE AN1 "+strings.Join(far, " "), "5.1")
	g.send(red, "MOVE AN1 "+strings.Join(far[:4], " "))
	if m := g.lastMove(); m.MP != 5 || g.unit("AN1").Hex.String() != far[3] {
		t.Errorf("move %+v, want 5 MP to %s", m, far[3])
	}

	b := brMelee(t)
	b.troop("CA1", p.c, hex.FaceW, "INF")
	b.troop("AN1", p.x, hex.FaceNE, "INF")
	b.send(red, "ACTIVATE Anna\nMOVE AN1 "+p.w)
	if m := b.lastMove(); m.MP != 1 {
		t.Errorf("Blood & Roses: %d MP, want 1 (no cost to leave)", m.MP)
	}
}

// 7.2 "they must stop when they move adjacent to an enemy unit (Exception:
// Light Cavalry Archers and Genitors who fire; 11.2)"; 11.2 "If they are
// in a hex adjacent to an enemy when they fire, it costs 1 MP to fire ...
// After firing, they may leave a hex adjacent to an enemy unit they have
// entered in the same Activation, paying the additional 1MP cost ... They
// may not enter another hex adjacent to the same enemy unit during that
// Activation." (rules.fire_on_move, rules.mounted_fire_adjacent_mp;
// rulings R341, R342.)
func TestArquebusLightCavalryArchersFireOnTheMove(t *testing.T) {
	for _, typ := range []string{"LCA", "GE"} {
		g := arqMelee(t, 0)
		p := brAround(g)
		y := g.nb(p.x, hex.NW) // two hexes from CA1
		g.troop("CA1", p.c, hex.FaceW, "PK")
		g.troop("AN1", p.w, hex.FaceNE, typ)
		g.send(red, "ACTIVATE Anna")
		// Without a fire it stops next to CA1 (7.2).
		g.refuse(red, "MOVE AN1 "+p.x+" "+y, "Blood & Roses 7.1")
		// Having fired next to CA1, not into another hex next to it.
		e := g.refuse(red, "MOVE AN1 "+p.x+" FIRE CA1 "+p.s, "Arquebus 11.2")
		if !strings.Contains(e.Reason, "fired next to CA1") {
			t.Errorf("%s: refusal %v", typ, e)
		}
		res := g.send(red, "MOVE AN1 "+p.x+" FIRE CA1 "+y)
		f, ok := findEvent[engine.UnitFired](res.Events)
		if !ok || f.MP != 1 || !f.Adjacent || f.Moves || f.Marker {
			t.Errorf("%s: fire %+v, want 1 MP to fire next to CA1, the move going on, no FIRED marker", typ, f)
		}
		// 1 into x, 1 to fire, 1 to leave x, 1 into y.
		if u := g.unit("AN1"); u.Hex.String() != y || movedMP(res.Events, "AN1") != 4 {
			t.Errorf("%s: AN1 %+v after %d MP, want in %s after 4:\n%s", typ, u, movedMP(res.Events, "AN1"), y, g.story(res.Events))
		}
	}
}

// 7.2, 11.2: a Light Cavalry Archer that begins next to CA1 and fires from
// its starting hex pays 1 MP to fire and 1 to leave, and may come next to
// CA1 again in none of its move, where one that does not fire may, after a
// first hex away from it (ruling R344, R221).
func TestArquebusFireFromTheStartingHex(t *testing.T) {
	g := arqMelee(t, 0)
	p := brAround(g)
	y := g.nb(p.x, hex.NW)
	g.troop("CA1", p.c, hex.FaceW, "PK")
	g.troop("AN1", p.x, hex.FaceNE, "LCA")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 FIRE CA1 "+p.w+" "+p.v+" "+p.s, "Arquebus 11.2")
	back := false
	for _, r := range engine.Reach(g.sc, g.st, "AN1") {
		back = back || r.Hex.String() == p.s && r.Cost == 3 // 1 to leave, 2 hexes round CA1's
	}
	if !back {
		t.Errorf("without a fire AN1 cannot come back next to CA1 in %s: %v", p.s, engine.Reach(g.sc, g.st, "AN1"))
	}
	res := g.send(red, "MOVE AN1 FIRE CA1 "+y)
	if u := g.unit("AN1"); u.Hex.String() != y || movedMP(res.Events, "AN1") != 3 {
		t.Errorf("AN1 %+v after %d MP, want in %s after 3:\n%s", u, movedMP(res.Events, "AN1"), y, g.story(res.Events))
	}
}

// 11.2: firing next to an enemy unit costs 1 MP of the Movement Allowance.
func TestArquebusFireOnTheMoveWithinAllowance(t *testing.T) {
	g := arqMelee(t)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "PK")
	i := g.troop("AN1", p.w, hex.FaceNE, "LCA")
	g.sc.Units[i].Ratings.MA = 1
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+p.x+" FIRE CA1", "Arquebus 11.2")
	if !strings.Contains(e.Reason, "would spend 2 MP") {
		t.Errorf("refusal %v", e)
	}
}

// 11.2 "Once a missile capable unit fires, its Move/Fire Phase is finished
// ... Thus, if it fires before moving it cannot then move": a Mounted
// Arquebus or Crossbow does not fire inside its move, and its fire ends
// its move; so does a FIRE order of a Light Cavalry Archer outside a MOVE
// (ruling R343).
func TestArquebusMountedArquebusFireEndsItsMove(t *testing.T) {
	for _, typ := range []string{"MAQ", "MCB", "LCA"} {
		g := arqMelee(t, 0)
		p := brAround(g)
		g.troop("CA1", p.c, hex.FaceW, "PK")
		g.troop("AN1", p.w, hex.FaceNE, typ)
		g.send(red, "ACTIVATE Anna")
		if typ != "LCA" {
			e := g.refuse(red, "MOVE AN1 "+p.x+" FIRE CA1", "Arquebus 11.2")
			if !strings.Contains(e.Reason, "Light Cavalry Archers") {
				t.Errorf("%s: refusal %v", typ, e)
			}
		}
		res := g.send(red, "FIRE AN1 AT CA1")
		if f, ok := findEvent[engine.UnitFired](res.Events); !ok || !f.Moves {
			t.Errorf("%s: fire %+v, want its move ended", typ, f)
		}
		g.refuse(red, "MOVE AN1 "+g.nb(p.w, hex.NW), "5.1")
	}
	// A Mounted Arquebus may move and then fire (11.2 "at any time during
	// its movement"), which Men of Iron 14.2 forbids its Hobilars.
	g := arqMelee(t, 0)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(p.w, hex.SW), hex.FaceNE, "MAQ")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 "+p.w+"\nFIRE AN1 AT CA1")
	if u := g.unit("AN1"); !u.Fired || !u.FiredMarker {
		t.Errorf("AN1 %+v, want fired with a FIRED marker", u)
	}
}

// 11.1, 11.5 "Whenever a Mounted Arquebus or Mounted Crossbow unit fires
// while mounted, place a FIRED marker on that unit to indicate that it may
// not fire again until it reloads"; 11.2 no Return or Reaction Fire either
// (unit_types fired_marker; ruling R348).
func TestArquebusFiredMarker(t *testing.T) {
	g := arqMelee(t, 0)
	p := brAround(g)
	j := g.troop("CA1", p.c, hex.FaceW, "PK")
	i := g.troop("AN1", p.w, hex.FaceNE, "MAQ")
	g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if u := g.unit("AN1"); !u.FiredMarker {
		t.Fatalf("AN1 %+v, want a FIRED marker", u)
	}
	if !strings.Contains(string(g.st.Encode()), `"fired_marker":true`) {
		t.Errorf("the state does not show the FIRED marker")
	}
	if !strings.Contains(g.story(g.events), "takes a FIRED marker") {
		t.Errorf("the story does not say so:\n%s", g.story(g.events))
	}
	// It stays from one Activation to the next (only the Activation's own
	// marks are cleared): no Active, Return or Reaction Fire.
	us := g.st.Unit("AN1")
	us.Fired, us.Moved, us.Acted = false, false, false
	g.wantFire(i, j, false, "Arquebus 11.5")
	g.wantFire(i, j, true, "Arquebus 11.5")
	g.st.Acting = ""
	g.refuse(red, "FIRE AN1 AT CA1", "Arquebus 11.5")
}

// 11.2, 11.5: a loaded Mounted Arquebus returns fire and reacts, and takes
// its FIRED marker for it; marked, it does neither.
func TestArquebusFiredMarkerReturnAndReaction(t *testing.T) {
	for _, marked := range []bool{false, true} {
		// Return Fire: AN1's Arquebus fires at CA1 two hexes off.
		g := arqMelee(t, 0, 0)
		p := brAround(g)
		g.troop("CA1", p.c, hex.FaceSW, "MAQ")
		g.troop("AN1", p.w, hex.FaceNE, "AQ")
		g.st.Unit("CA1").FiredMarker = marked
		res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
		back := false
		for _, e := range res.Events {
			if f, ok := e.(engine.UnitFired); ok && f.Return {
				back = true
				if !f.Marker {
					t.Errorf("Return Fire %+v without a FIRED marker", f)
				}
			}
		}
		if back == marked || !g.unit("CA1").FiredMarker || g.unit("AN1").FiredMarker {
			t.Errorf("marked %v: Return Fire %v, CA1 %+v, AN1 %+v", marked, back, g.unit("CA1"), g.unit("AN1"))
		}

		// Reaction Fire: AN2 moves into x, in CA1's front.
		g = arqMelee(t, 0)
		g.troop("CA1", p.c, hex.FaceSW, "MAQ")
		g.troop("AN2", p.w, hex.FaceNE, "PK")
		g.st.Unit("CA1").FiredMarker = marked
		res = g.send(red, "ACTIVATE Anna\nMOVE AN2 "+p.x)
		f, reacted := findEvent[engine.UnitFired](res.Events)
		if reacted == marked || reacted && (!f.Reaction || !f.Marker) || !g.unit("CA1").FiredMarker {
			t.Errorf("marked %v: reaction %v %+v, CA1 %+v", marked, reacted, f, g.unit("CA1"))
		}
	}
}

// 7.4 "That foot unit may not move any further this Activation, but it
// does reload if marked with a FIRED marker"; 11.5 "When it dismounts, the
// unit reloads its weapons. Remove the FIRED marker." It may then fire on
// foot (ruling R347).
func TestArquebusDismountReloads(t *testing.T) {
	g := arqMelee(t, 0)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "PK")
	g.troop("AN1", p.w, hex.FaceNE, "MAQ")
	g.st.Unit("AN1").FiredMarker = true
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 DISMOUNT\nFIRE AN1 AT CA1")
	m, _ := findEvent[engine.UnitMoved](res.Events)
	f, fired := findEvent[engine.UnitFired](res.Events)
	if u := g.unit("AN1"); u.FiredMarker || u.Type != "DAQ" || !m.Reloaded || m.MP != 3 || !fired || f.Marker {
		t.Errorf("AN1 %+v, move %+v, fire %+v", u, m, f)
	}
	if !strings.Contains(g.story(res.Events), "reloads") {
		t.Errorf("story:\n%s", g.story(res.Events))
	}
}

// 7.4 "The mounted unit expends three MPs at any time during its move and
// is replaced with the foot version of that unit ... That foot unit may
// not move any further this Activation." Enemy missile range is no bar
// (rules.change_in_command, rules.dismount_ends_move; rulings R345, R346).
func TestArquebusDismount(t *testing.T) {
	g := arqMelee(t)
	g.troop("CA1", "0909", hex.FaceW, "PK")
	g.troop("CA2", "0304", hex.FaceNE, "AQ") // two hexes from 0302: in range, not adjacent
	g.troop("AN1", "0302", hex.FaceSE, "MAQ")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 0402 DISMOUNT 0502", "Arquebus 7.4")
	if !strings.Contains(e.Reason, "may not move any further") {
		t.Errorf("refusal %v", e)
	}
	// 8 MP: six hexes and 3 to dismount are too many.
	g.refuse(red, "MOVE AN1 0402 0502 0602 0702 0802 0902 DISMOUNT", "Arquebus 7.4")
	g.refuse(red, "MOVE AN1 MOUNT", "Arquebus 7.4")
	g.send(red, "MOVE AN1 DISMOUNT FACE NE")
	if u, m := g.unit("AN1"), g.lastMove(); u.Type != "DAQ" || m.MP != 3 || m.Change != "DISMOUNT" {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}

	g = arqMelee(t)
	g.troop("CA1", "0909", hex.FaceW, "PK")
	g.troop("AN1", "0302", hex.FaceSE, "MAQ")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0402 0502 0602 0702 0802 DISMOUNT")
	if u, m := g.unit("AN1"), g.lastMove(); u.Type != "DAQ" || u.Hex.String() != "0802" || m.MP != 8 {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}
}

// 7.4 "To dismount, a Mounted Arquebus or Mounted Crossbow unit must be:
// Within Command Range of their leader. Not adjacent to an enemy unit. Not
// Disordered." Only they dismount.
func TestArquebusDismountRefused(t *testing.T) {
	p := brAround(arqMelee(t))
	for _, tc := range []struct {
		name, typ, at, want string
		setup               func(*game)
	}{
		{"adjacent", "MAQ", p.x, "next to an enemy unit", nil},
		{"Disordered", "MCB", p.w, "Disordered", func(g *game) { g.st.Unit("AN1").Status = engine.Disordered }},
		{"out of Command", "MAQ", p.w, "out of Command", func(g *game) {
			for k := range g.sc.Leaders {
				if g.sc.Leaders[k].ID == "anna" {
					g.sc.Leaders[k].Range = 1
				}
			}
		}},
		{"not a mounted arquebus", "LCA", p.w, "only Mounted Arquebus", nil},
	} {
		g := arqMelee(t)
		g.troop("CA1", p.c, hex.FaceW, "PK")
		g.troop("AN1", tc.at, hex.FaceNE, tc.typ)
		if tc.setup != nil {
			tc.setup(g)
		}
		g.send(red, "ACTIVATE Anna")
		if e := g.refuse(red, "MOVE AN1 DISMOUNT", "Arquebus 7.4"); !strings.Contains(e.Reason, tc.want) {
			t.Errorf("%s: refusal %v", tc.name, e)
		}
	}
}

// 7.4 "The foot unit expends three MPs at any time during its move and is
// replaced with the mounted version of that unit ... The mounted unit may
// continue to move, up to its original foot unit MA, if it has any MP
// remaining after remounting" (ruling R345).
func TestArquebusRemount(t *testing.T) {
	g := arqMelee(t)
	g.troop("CA1", "0909", hex.FaceW, "PK")
	g.troop("AN1", "0302", hex.FaceSE, "DAQ")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 DISMOUNT", "Arquebus 7.4")
	g.refuse(red, "MOVE AN1 MOUNT 0303 0304 0305", "5.1") // 3 + 3 > the foot MA of 5
	g.send(red, "MOVE AN1 MOUNT 0303 0304")
	if u, m := g.unit("AN1"), g.lastMove(); u.Type != "MAQ" || u.Hex.String() != "0304" || m.MP != 5 {
		t.Errorf("AN1 %+v, move %+v", u, m)
	}
}
