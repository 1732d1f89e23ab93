package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// toward is the facing from which unit hex from has to among its Frontal
// hexes.
func (g *game) toward(from, to string) hex.Facing {
	g.t.Helper()
	for _, f := range []hex.Facing{hex.FaceE, hex.FaceNE, hex.FaceNW, hex.FaceW, hex.FaceSW, hex.FaceSE} {
		fr := g.sc.Map.Grid.FrontalHexes(h(g.t, from), f)
		if fr[0] == h(g.t, to) || fr[1] == h(g.t, to) {
			return f
		}
	}
	g.t.Fatalf("%s is not next to %s", from, to)
	return 0
}

// schiltronGame: the Scots Pike CA1 in 0505 facing W, in Schiltron since
// set-up, its comrade CA2 a Pike in 0808; the English around.
func schiltronGame(t *testing.T, dice ...int) *game {
	g := melee(t, dice...)
	g.troop("CA1", "0505", hex.FaceW, "PK")
	g.st.Unit("CA1").Schiltron = true
	g.troop("CA2", "0808", hex.FaceW, "PK")
	return g
}

// Ruling R89: SCHILTRON is ordered upon activation, before anything else,
// for the Command's Pike units that are Normal and not in Shield Wall;
// SCHILTRON OFF breaks it. A unit in Schiltron may not move nor Shock, and
// turns one vertex at most.
func TestSchiltronOrders(t *testing.T) {
	g := schiltronGame(t)
	g.st.Unit("CA1").Schiltron = false
	g.troop("AN1", "0202", hex.FaceE, "LB")
	g.st.Unit("CA2").Status = engine.Disordered
	g.send(red, "ACTIVATE Anna\nEND")
	g.send(red, "PASS")
	g.send(blue, "ACTIVATE Carl")
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); !strings.Contains(l, "SCHILTRON") {
		t.Errorf("legal upon activation %s: want SCHILTRON", l)
	}
	res := g.send(blue, "SCHILTRON")
	for _, l := range engine.Legal(g.sc, g.st) {
		if l == "MOVE CA1 <hexes> [FACE <vertex>]" || l == "SHIELD WALL" || l == "SCHILTRON" {
			t.Errorf("legal in Schiltron: %s", l)
		}
	}
	ord, ok := findEvent[engine.SchiltronOrdered](res.Events)
	if !ok || strings.Join(ord.Units, ",") != "CA1" || !ord.On {
		t.Fatalf("SCHILTRON: %+v, want CA1 alone (CA2 is Disordered)", ord)
	}
	g.refuse(blue, "MOVE CA1 0605", "R89")
	g.refuse(blue, "FACE CA1 E", "R89")
	g.send(blue, "FACE CA1 NW")            // one vertex
	g.refuse(blue, "SCHILTRON OFF", "R89") // the Command has acted
	g.refuse(blue, "SHOCK CA1 AT AN1", "R89")
	g.send(blue, "END")
	g.send(blue, "PASS")
	g.send(red, "PASS")
	g.refuse(blue, "ACTIVATE Carl\nSHIELD WALL\nSCHILTRON", "R89") // nothing left to form it: CA1 is in it, CA2 Disordered
	g.send(blue, "ACTIVATE Carl\nSCHILTRON OFF")
	if g.unit("CA1").Schiltron {
		t.Errorf("CA1 still in Schiltron after SCHILTRON OFF")
	}
	g.send(blue, "MOVE CA1 0605")
}

// Ruling R89 in combat: Shock attacked through any hexside a Schiltron
// earns shock_drm.schiltron (-2) and no Angle of Attack DRM; it may not
// be Charged from any side; fire gets no DRM against it.
func TestSchiltronInCombat(t *testing.T) {
	t.Run("shock from the rear", func(t *testing.T) {
		g := schiltronGame(t, 7)
		rear := g.nb("0505", hex.NE)
		g.troop("AN1", rear, g.toward(rear, "0505"), "MMAA")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		a := resolved(evs)
		if len(a) != 1 {
			t.Fatalf("attacks:\n%s", g.story(evs))
		}
		// 7, -2 Schiltron, no +3 for the Rear, +0 WSM and Shock Defense.
		wantAttack(t, a[0], "CA1", 7, []string{"-2 10.4 #9, R89"}, 5, "Shock", "Defender Disordered")
	})
	t.Run("no Charge from any side", func(t *testing.T) {
		for _, from := range []hex.Dir{hex.NE, hex.SW} {
			g := schiltronGame(t)
			at := g.nb("0505", from, from, from)
			g.troop("AN1", at, g.toward(at, g.nb("0505", from, from)), "MMAA")
			g.send(red, "ACTIVATE Anna")
			g.refuse(red, "CHARGE AN1 AT CA1 "+g.nb("0505", from), "11.3")
		}
	})
	t.Run("holds its hex under fire", func(t *testing.T) {
		g := schiltronGame(t, 2) // 2 +2 at range 1 = 4 on the Foot Disordered column: Retreat 1 Hex
		g.st.Unit("CA1").Status = engine.Disordered
		g.troop("AN1", g.nb("0505", hex.NW), g.toward(g.nb("0505", hex.NW), "0505"), "LB")
		evs := g.shockRound("FIRE AN1 AT CA1")
		held, ok := findEvent[engine.HeldGround](evs)
		if !ok || !held.Schiltron || g.unit("CA1").Hex != h(t, "0505") {
			t.Errorf("CA1 %+v, held %+v; want it to hold 0505 in Schiltron:\n%s", g.unit("CA1"), held, g.story(evs))
		}
	})
	t.Run("fire as at any Pike", func(t *testing.T) {
		g := schiltronGame(t)
		g.troop("AN1", "0305", hex.FaceE, "LB")
		for _, m := range engine.FireModifiers(g.sc, g.st, g.index("AN1"), g.index("CA1")) {
			if strings.Contains(m.Reason, "Schiltron") || m.Rule != "9.3" {
				t.Errorf("fire modifier %+v against a Schiltron, want the range DRM only", m)
			}
		}
	})
}

// 12.7 Play Note: "If a Pike unit in Schiltron is not Retired or
// eliminated and does not retreat when a Continued Attack results against
// it, the attacker does not Advance, but must continue to attack." Three
// Mounted MAA Shock the Schiltron: 9 +2 Strength -2 Schiltron = 9,
// "Defender Disordered, Retreat 1 Hex, Continued Attack": it is Disordered
// and holds its hex (R89); nobody advances; the three attack it again: 0 +2
// +1 (its Disordered Shock Defense) -2 -1 (12.7) = 0 on the Disordered
// column, "Attacker Disordered".
func TestSchiltronContinuedAttack127(t *testing.T) {
	g := schiltronGame(t, 9, 0)
	ids := []string{"AN1", "AN2", "BE1"}
	for k, d := range []hex.Dir{hex.NE, hex.N, hex.SE} {
		at := g.nb("0505", d)
		g.troop(ids[k], at, g.toward(at, "0505"), "MMAA")
	}
	evs := g.shockRound("SHOCK AN1 AN2 BE1 AT CA1\nEND")
	a := resolved(evs)
	if len(a) != 2 {
		t.Fatalf("%d attacks, want the attack and its Continued Attack:\n%s", len(a), g.story(evs))
	}
	wantAttack(t, a[0], "CA1", 9, []string{"+2 10.4 #1", "-2 10.4 #9, R89"}, 9, "Shock",
		"Defender Disordered, Retreat 1 Hex, Continued Attack")
	wantAttack(t, a[1], "CA1", 0, []string{"+2 10.4 #1", "+1 10.4 #3", "-2 10.4 #9, R89", "-1 12.7"}, 0, "Shock", "Attacker Disordered")
	if _, ok := findEvent[engine.UnitAdvanced](evs); ok {
		t.Errorf("an attacker advanced; the Schiltron held its hex:\n%s", g.story(evs))
	}
	if u := g.unit("CA1"); u.Hex != h(t, "0505") || u.Status != engine.Disordered || !u.Schiltron {
		t.Errorf("CA1 %+v, want Disordered in 0505, still in Schiltron", u)
	}
	for _, id := range ids {
		if g.unit(id).Status != engine.Disordered {
			t.Errorf("%s %+v, want Disordered by its Continued Attack", id, g.unit(id))
		}
	}
}

// 13.1 "rearmed", ruling R90: a Disordered unit that entered or left
// Shield Wall or Schiltron, or a Hobilar that mounted or dismounted, did
// something and does not rally; one that did nothing rallies.
func TestRallyNotAfterRearming(t *testing.T) {
	for _, c := range []struct {
		name, typ, order string
		wall, rallies    bool
	}{
		{"did nothing", "PK", "", false, true},
		{"left Shield Wall", "PK", "SHIELD WALL OFF", true, false},
		{"dismounted", "MHOB", "MOVE AN1 DISMOUNT", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := melee(t)
			g.troop("AN1", "0505", hex.FaceE, c.typ)
			g.st.Unit("AN1").Status = engine.Disordered
			g.st.Unit("AN1").ShieldWall = c.wall
			block := "ACTIVATE Anna\nEND"
			if c.order != "" {
				block = "ACTIVATE Anna\n" + c.order + "\nEND"
			}
			res := g.send(red, block)
			_, rallied := findEvent[engine.UnitRallied](res.Events)
			if rallied != c.rallies {
				t.Errorf("rallied %v, want %v:\n%s", rallied, c.rallies, g.story(res.Events))
			}
		})
	}
}
