package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus 14.5 Engaged (and 14.1, 8.0, 12.1, 12.2) on the volume's house
// tables, through orders and scripted dice (rulings R380–R386 in
// docs/rulings-arq-engaged.md). Pike against Pike: the Weapon System
// Matrix gives 0 and the defending Pike's Shock Defense is −1, so a Shock
// DR is the die −1, and a modified 4 on the Normal column is "Engaged".

// engagedPair stands Red's Pike AN1 and Blue's Pike CA1 face to face:
// CA1 in c facing W, AN1 south-west of it facing NE.
func engagedPair(g *game) (c, x string) {
	c = "0606"
	x = g.nb(c, hex.SW)
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", x, hex.FaceNE, "PK")
	return c, x
}

// 14.5 "Place an ENGAGED marker atop the units": the result binds the
// attacker and the defender, each to the other; the exported IsEngaged
// and EngagedWith say so, and the map's marker is mapimg's.
func TestArquebusEngagedResult(t *testing.T) {
	g := arqMelee(t, 5)
	engagedPair(g)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("attacks %v", atts)
	}
	wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3"}, 4, "Shock", "Engaged")
	e, ok := findEvent[engine.UnitsEngaged](evs)
	if !ok || len(e.Pairs) != 1 || e.Pairs[0] != (engine.EngagedPair{Attacker: "AN1", Defender: "CA1"}) {
		t.Errorf("UnitsEngaged %+v, want AN1 and CA1", e)
	}
	if !engine.IsEngaged(g.st, "AN1") || !engine.IsEngaged(g.st, "CA1") || engine.IsEngaged(g.st, "AN2") || engine.IsEngaged(g.st, "nobody") {
		t.Errorf("IsEngaged AN1 %v CA1 %v AN2 %v", engine.IsEngaged(g.st, "AN1"), engine.IsEngaged(g.st, "CA1"), engine.IsEngaged(g.st, "AN2"))
	}
	if w := engine.EngagedWith(g.st, "AN1"); !slices.Equal(w, []string{"CA1"}) {
		t.Errorf("AN1 Engaged with %v, want CA1", w)
	}
	if w := engine.EngagedWith(g.st, "CA1"); !slices.Equal(w, []string{"AN1"}) {
		t.Errorf("CA1 Engaged with %v, want AN1", w)
	}
	if s := g.story(evs); !strings.Contains(s, "AN1 and CA1 are Engaged (Arquebus 14.5).") {
		t.Errorf("story:\n%s", s)
	}
	if g.unit("AN1").Status != engine.Normal || g.unit("CA1").Status != engine.Normal {
		t.Errorf("Engaged alone Disorders no one: AN1 %v CA1 %v", g.unit("AN1").Status, g.unit("CA1").Status)
	}
}

// 14.5 "Retired units cannot be Engaged, disregard this result against a
// Retired unit": a Retired defender is attacked on the Disordered column,
// +2 (12.3 #7), and its 2–3 "Engaged" places no marker.
func TestArquebusRetiredNeverEngaged(t *testing.T) {
	g := arqMelee(t, 1)
	engagedPair(g)
	g.st.Unit("CA1").Status = engine.Retired
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("attacks %v", atts)
	}
	wantAttack(t, atts[0], "CA1", 1, []string{"+2 10.4 #8, 12.4"}, 3, "Shock", "Engaged")
	if _, ok := findEvent[engine.UnitsEngaged](evs); ok || engine.IsEngaged(g.st, "AN1") || engine.IsEngaged(g.st, "CA1") {
		t.Errorf("a Retired defender was Engaged:\n%s", g.story(evs))
	}
}

// engage marks units Engaged with one another, as an Engaged result
// leaves them (TestArquebusEngagedResult plays one).
func (g *game) engage(a, b string) {
	g.t.Helper()
	for _, p := range [][2]string{{a, b}, {b, a}} {
		u := g.st.Unit(p[0])
		u.EngagedWith = append(u.EngagedWith, p[1])
	}
}

// 14.5 "An Engaged unit may not fire, nor may it be targeted by missile
// fire."
func TestArquebusEngagedNoFire(t *testing.T) {
	g := arqMelee(t)
	c, _ := engagedPair(g)
	g.troop("AN2", g.nb(c, hex.S), hex.FaceNW, "AQ")
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "FIRE AN2 AT CA1", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "CA1 is Engaged with AN1: an Engaged unit may not be targeted by missile fire") {
		t.Errorf("refusal %v", e)
	}
	g.engage("AN2", "CA1")
	e = g.refuse(red, "FIRE AN2 AT CA1", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "AN2 is Engaged with CA1: an Engaged unit may not fire") {
		t.Errorf("refusal %v", e)
	}
	// Unengaged, the same shot is legal (a 0: no effect).
	h := arqMelee(t, 0)
	c, _ = engagedPair(h)
	h.troop("AN2", h.nb(c, hex.S), hex.FaceNW, "AQ")
	h.send(red, "ACTIVATE Anna")
	if res := h.send(red, "FIRE AN2 AT CA1"); len(res.Events) == 0 {
		t.Errorf("an unengaged AQ may fire at CA1")
	}
}

// 14.5, 12.1: "A unit listed as able to shock on the Weapons System Matrix
// that is Engaged must attack at least one enemy unit it is Engaged with.
// It can never attack an enemy unit it is not Engaged with." Another
// enemy in its Frontal hexes, not Engaged with it, is ignored.
func TestArquebusEngagedMustShockOnlyItsEnemies(t *testing.T) {
	g := arqMelee(t, 5)
	c, x := engagedPair(g)
	g.troop("CA2", g.nb(x, hex.N), hex.FaceSE, "PK") // AN1's other Frontal hex
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "END", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "AN1 is Engaged with CA1 in its Frontal hexes and did not Disengage: it must declare a Shock attack on them; legal: SHOCK AN1 AT CA1") {
		t.Errorf("refusal %v", e)
	}
	e = g.refuse(red, "SHOCK AN1 AT CA1 CA2", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "it can never attack an enemy unit it is not Engaged with, such as CA2") {
		t.Errorf("refusal %v", e)
	}
	e = g.refuse(red, "SHOCK AN1 AT CA2", "Arquebus 14.5")
	if len(g.st.Declared) != 0 {
		t.Errorf("refused declarations were kept: %v", g.st.Declared)
	}
	// Without the marker CA2 must be attacked too (12.1).
	evs := g.send(red, "SHOCK AN1 AT CA1\nEND").Events
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3"}, 4, "Shock", "Engaged")
	_ = c

	h := arqMelee(t)
	_, x = engagedPair(h)
	h.troop("CA2", h.nb(x, hex.N), hex.FaceSE, "PK")
	h.send(red, "ACTIVATE Anna")
	h.refuse(red, "SHOCK AN1 AT CA1\nEND", "10.1")
}

// 14.5 "If it does not Disengage and has one or two of the units it is
// Engaged with in its frontal hexes, it cannot turn"; with none, "it must
// turn one or two vertexes to place the maximum number of enemy units it
// is Engaged with in its frontal hexes" (two vertexes, where 8.0 lets a
// unit adjacent to an enemy turn one).
func TestArquebusEngagedFacing(t *testing.T) {
	g := arqMelee(t)
	_, x := engagedPair(g)
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "FACE AN1 E", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "it may face only NE") {
		t.Errorf("refusal %v", e)
	}

	// AN1 faced W (front NW and SW): CA1, north-east of it, is in no
	// Frontal hex. The facings that hold it are NE and E; of those only NE
	// is within two vertexes (W, NW, NE). It may not stay, nor turn one.
	h := arqMelee(t)
	_, x = engagedPair(h)
	h.st.Unit("AN1").Facing = hex.FaceW
	h.engage("AN1", "CA1")
	h.send(red, "ACTIVATE Anna")
	e = h.refuse(red, "FACE AN1 NW", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "it may face only NE") {
		t.Errorf("refusal %v", e)
	}
	h.send(red, "FACE AN1 NE")
	if u := h.unit("AN1"); u.Facing != hex.FaceNE || u.Hex.String() != x {
		t.Errorf("AN1 %+v, want facing NE in %s", u, x)
	}
}

// 14.5 Disengage: "if it is not Disordered or Out of Command, but at a
// cost of one extra (+1) MP (cumulative with the cost for leaving a hex
// adjacent to an enemy unit) ... in so Disengaging the unit is
// automatically Disordered. During the Activation it Disengages, it may
// not move adjacent to an enemy unit." The enemy's marker goes when the
// unit is no longer adjacent.
func TestArquebusDisengage(t *testing.T) {
	g := arqMelee(t)
	c, x := engagedPair(g)
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	away := g.nb(x, hex.SW)
	e := g.refuse(red, "MOVE AN1 "+g.nb(c, hex.S), "Arquebus 14.5")
	if !strings.Contains(e.Reason, "may not move adjacent to an enemy unit: "+g.nb(c, hex.S)+" is") {
		t.Errorf("refusal %v", e)
	}
	// PK has 4 MP: 1 to leave, 1 to Disengage, 2 clear hexes; not 3.
	far := []string{away, g.nb(away, hex.SW), g.nb(away, hex.SW, hex.SW)}
	g.refuse(red, "MOVE AN1 "+strings.Join(far, " "), "5.1")
	res := g.send(red, "MOVE AN1 "+strings.Join(far[:2], " "))
	if m := g.lastMove(); m.MP != 4 || g.unit("AN1").Hex.String() != far[1] {
		t.Errorf("move %+v, want 4 MP (2 hexes, +1 to leave, +1 to Disengage) to %s", m, far[1])
	}
	if d, ok := findEvent[engine.UnitDisengaged](res.Events); !ok || !slices.Equal(d.From, []string{"CA1"}) {
		t.Errorf("UnitDisengaged %+v", d)
	}
	if g.unit("AN1").Status != engine.Disordered || engine.IsEngaged(g.st, "AN1") || engine.IsEngaged(g.st, "CA1") {
		t.Errorf("after Disengaging: AN1 %v Engaged %v, CA1 Engaged %v:\n%s", g.unit("AN1").Status, engine.IsEngaged(g.st, "AN1"), engine.IsEngaged(g.st, "CA1"), g.story(res.Events))
	}
	if s := g.story(res.Events); !strings.Contains(s, "CA1 is no longer Engaged with AN1: no longer adjacent (Arquebus 14.5).") {
		t.Errorf("story:\n%s", s)
	}

	for _, tc := range []struct {
		name string
		set  func(*engine.UnitState)
		want string
	}{
		{"Disordered", func(u *engine.UnitState) { u.Status = engine.Disordered }, "AN1 is Engaged and Disordered: it may not Disengage"},
		{"Out of Command", func(u *engine.UnitState) { u.OutOfCommand = true }, "AN1 is Engaged and Out of Command: it may not Disengage"},
	} {
		h := arqMelee(t)
		_, x := engagedPair(h)
		h.engage("AN1", "CA1")
		h.send(red, "ACTIVATE Anna")
		tc.set(h.st.Unit("AN1"))
		e := h.refuse(red, "MOVE AN1 "+h.nb(x, hex.SW), "Arquebus 14.5")
		if !strings.Contains(e.Reason, tc.want) || h.unit("AN1").Hex.String() != x {
			t.Errorf("%s: refusal %v", tc.name, e)
		}
	}
}

// 12.4: a unit is not eligible to Advance After Combat if "It is a unit of
// any type with a Shock Defense DRM +2 or higher", read from the unit's
// own counter (rules.no_advance_shock_defense; ruling R384): a Sword &
// Buckler whose battle prints +2 stays, one printing the type's 0
// advances. SB against Pike: +1 WSM, −1 the Pike's Shock Defense; a 7 is
// "Defender Disordered, Retreat 1 Hex".
func TestArquebusNoAdvanceFromTheUnitsOwnShockDefense(t *testing.T) {
	for _, tc := range []struct {
		shock   int
		advance bool
	}{{2, false}, {1, true}, {0, true}} {
		g := arqMelee(t, 7)
		c, x := engagedPair(g)
		i := g.troop("AN1", x, hex.FaceNE, "SB")
		g.sc.Units[i].Ratings.Shock = tc.shock
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("attacks %v", atts)
		}
		wantAttack(t, atts[0], "CA1", 7, []string{"-1 10.4 #3", "+1 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
		_, advanced := findEvent[engine.UnitAdvanced](evs)
		if advanced != tc.advance || (g.unit("AN1").Hex.String() == c) != tc.advance || g.unit("CA1").Hex.String() == c {
			t.Errorf("Shock Defense %+d: advanced %v (AN1 in %s), want %v:\n%s", tc.shock, advanced, g.unit("AN1").Hex, tc.advance, g.story(evs))
		}
	}
}
