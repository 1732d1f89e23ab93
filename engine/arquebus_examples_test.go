package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The Arquebus Shock examples of worked-examples.md section 4, and the
// 14.5 diagram, played through orders and scripted dice on the house
// tables. Two Blue Pikes stand in a line facing W: CA1 in p, CA2 south of
// it. Red's attackers face E from the hexes west of them: the middle one,
// south-west of CA1, has both in its Frontal hexes; the top one (north-west
// of CA1) only CA1, the bottom one (south-west of CA2) only CA2.
type arqLine struct{ p, top, middle, bottom string }

func arqTwoPikes(g *game) arqLine {
	p := "0606"
	l := arqLine{p: p, top: g.nb(p, hex.NW), middle: g.nb(p, hex.SW), bottom: g.nb(p, hex.S, hex.SW)}
	g.troop("CA1", p, hex.FaceW, "PK")
	g.troop("CA2", g.nb(p, hex.S), hex.FaceW, "PK")
	return l
}

// arq-12.1-three-vs-two: "Three units in a line attack two defending units
// in a line. The attacker must choose to attack one defender with two
// units and the other with one unit, the middle unit cannot split its
// attack against both defenders." The split is refused; two and one is
// played: against CA1 +1 Strength, −1 Shock Defense, 3 → 3 "Attacker
// Disordered" (both attackers); against CA2 −1, 5 → 4 "Engaged".
func TestArquebusThreeAgainstTwo(t *testing.T) {
	g := arqMelee(t)
	l := arqTwoPikes(g)
	g.troop("AN1", l.top, hex.FaceE, "PK")
	g.troop("AN2", l.middle, hex.FaceE, "PK")
	g.troop("BE1", l.bottom, hex.FaceE, "PK")
	g.send(red, "ACTIVATE Anna")
	g.send(red, "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1 CA2\nSHOCK BE1 AT CA2")
	e := g.refuse(red, "END", "10.1")
	if !strings.Contains(e.Reason, "would be attacked twice: a unit attacking two defenders does so by itself") {
		t.Errorf("refusal %v", e)
	}

	h := arqMelee(t, 3, 5)
	l = arqTwoPikes(h)
	h.troop("AN1", l.top, hex.FaceE, "PK")
	h.troop("AN2", l.middle, hex.FaceE, "PK")
	h.troop("BE1", l.bottom, hex.FaceE, "PK")
	evs := h.shockRound("SHOCK AN1 AN2 AT CA1\nSHOCK BE1 AT CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("attacks %v:\n%s", atts, h.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 3, []string{"+1 10.4 #1", "-1 10.4 #3"}, 3, "Shock", "Attacker Disordered")
	wantAttack(t, atts[1], "CA2", 5, []string{"-1 10.4 #3"}, 4, "Shock", "Engaged")
	if h.unit("AN1").Status != engine.Disordered || h.unit("AN2").Status != engine.Disordered || h.unit("BE1").Status != engine.Normal {
		t.Errorf("AN1 %v AN2 %v BE1 %v, want the two attackers of CA1 Disordered", h.unit("AN1").Status, h.unit("AN2").Status, h.unit("BE1").Status)
	}
	if !slices.Equal(engine.EngagedWith(h.st, "BE1"), []string{"CA2"}) || engine.IsEngaged(h.st, "AN2") {
		t.Errorf("Engaged: BE1 %v, AN2 %v", engine.EngagedWith(h.st, "BE1"), engine.EngagedWith(h.st, "AN2"))
	}
}

// arq-12.3-stradiotti-vs-two-pike: "One Stradiotti Cavalry attacks two
// Pike Infantry. There is a -1 Strength (Dis-)Advantage DRM to the Shock
// resolution against each infantry." Each roll: −1 Strength, −1 Shock
// Defense, −2 WSM (Stradiotti against Pike); 9 → 5, "Defender Disordered,
// Engaged" twice: the Stradiotti is Engaged with both.
func TestArquebusStradiottiAgainstTwoPike(t *testing.T) {
	g := arqMelee(t, 9, 9)
	l := arqTwoPikes(g)
	g.troop("AN1", l.middle, hex.FaceE, "STR")
	evs := g.shockRound("SHOCK AN1 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	for k, def := range []string{"CA1", "CA2"} {
		wantAttack(t, atts[k], def, 9, []string{"-1 10.4 #1", "-1 10.4 #3", "-2 10.4 #6"}, 5, "Shock", "Defender Disordered, Engaged")
		if g.unit(def).Status != engine.Disordered || !slices.Equal(engine.EngagedWith(g.st, def), []string{"AN1"}) {
			t.Errorf("%s %v Engaged with %v", def, g.unit(def).Status, engine.EngagedWith(g.st, def))
		}
	}
	if w := engine.EngagedWith(g.st, "AN1"); !slices.Equal(w, []string{"CA1", "CA2"}) {
		t.Errorf("AN1 Engaged with %v, want CA1 and CA2", w)
	}
}

// arq-12.3-maa-shocks-two-pike: "A Men-at-Arms Shock attacks two Pike
// infantry. In resolving each defender separately, the Men-at-Arms gets a
// Continued Attack against the first, but is Disordered in the second
// combat. The Men-at-Arms must then Continue Attacking, but is
// Disordered." AN1 comes through both Pikes' Rear (+3): against CA1 −1
// Strength, +3, −1 Shock Defense, −1 WSM, 9 → 9 "Defender Disordered,
// Retreat 1 Hex, Continued Attack"; against CA2 the same, 2 → 2 "Attacker
// Disordered". AN1, Disordered, advances into CA1's hex (a Continued
// Attack lets a Disordered unit advance, 12.4) and Shocks the Pike DO1 in
// its front: −1 Shock Defense, −1 WSM, −2 Disordered, −1 Continued
// Attack, 9 → 4, "Engaged".
func TestArquebusMenAtArmsShocksTwoPike(t *testing.T) {
	g := arqMelee(t, 9, 2, 9)
	l := arqTwoPikes(g)
	g.st.Unit("CA1").Facing = hex.FaceNE // AN1 in its Rear
	g.st.Unit("CA2").Facing = hex.FaceSE
	g.troop("DO1", g.nb(l.p, hex.NE), hex.FaceSW, "PK")
	g.troop("AN1", l.middle, hex.FaceE, "MM")
	evs := g.shockRound("SHOCK AN1 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 3 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 9, []string{"-1 10.4 #1", "+3 10.4 #2A", "-1 10.4 #3", "-1 10.4 #6"}, 9, "Shock", "Defender Disordered, Retreat 1 Hex, Continued Attack")
	wantAttack(t, atts[1], "CA2", 2, []string{"-1 10.4 #1", "+3 10.4 #2A", "-1 10.4 #3", "-1 10.4 #6"}, 2, "Shock", "Attacker Disordered")
	wantAttack(t, atts[2], "DO1", 9, []string{"-1 10.4 #3", "-1 10.4 #6", "-2 10.4 #7", "-1 12.7"}, 4, "Shock", "Engaged")
	if u := g.unit("AN1"); u.Hex.String() != l.p || u.Status != engine.Disordered || !slices.Equal(u.EngagedWith, []string{"DO1"}) {
		t.Errorf("AN1 %+v, want Disordered in %s, Engaged with DO1:\n%s", u, l.p, g.story(evs))
	}
}

// The 14.5 diagram: "the Spanish PK unit would only be forced to attack
// the French Swiss PK, since the French Landsknecht PK will be attacked by
// the Spanish SB unit. If the Spanish SB unit was not there or was from a
// different Battle, the Spanish PK would be forced to attack both French
// units." The Spanish Pike AN2 is Engaged with the Swiss CA1 and the
// Landsknechts CA2; the Sword & Buckler BE1 (of Anna's Command) or BE2
// (of Bert's, not activated) stands against CA2.
func TestArquebusEngagedDiagram(t *testing.T) {
	g := arqMelee(t, 5, 4)
	l := arqTwoPikes(g)
	g.troop("AN2", l.middle, hex.FaceE, "PK")
	g.troop("BE1", l.bottom, hex.FaceE, "SB")
	g.swiss("CA1")
	g.engage("AN2", "CA1")
	g.engage("AN2", "CA2")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "SHOCK AN2 AT CA1\nEND", "10.1")
	if !strings.Contains(e.Reason, "AN2 Shocks, so it must also attack CA2 in its Frontal hex, unless another unit attacks it") {
		t.Errorf("refusal %v", e)
	}
	evs := g.send(red, "SHOCK BE1 AT CA2\nSHOCK AN2 AT CA1\nEND").Events
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA2", 5, []string{"-1 10.4 #3", "+1 10.4 #6"}, 5, "Shock", "Defender Disordered, Engaged")
	wantAttack(t, atts[1], "CA1", 4, []string{"-1 10.4 #3"}, 3, "Shock", "Attacker Disordered")
	if w := engine.EngagedWith(g.st, "CA2"); !slices.Equal(w, []string{"AN2", "BE1"}) {
		t.Errorf("CA2 Engaged with %v, want AN2 (kept) and BE1", w)
	}

	// The Sword & Buckler of another Battle: it may not attack, so AN2
	// must attack both.
	h := arqMelee(t)
	l = arqTwoPikes(h)
	h.troop("AN2", l.middle, hex.FaceE, "PK")
	h.troop("BE2", l.bottom, hex.FaceE, "SB")
	h.sc.Units[h.index("BE2")].Command = "bert"
	h.engage("AN2", "CA1")
	h.engage("AN2", "CA2")
	h.send(red, "ACTIVATE Anna")
	h.refuse(red, "SHOCK BE2 AT CA2", "10.1")
	h.refuse(red, "SHOCK AN2 AT CA1\nEND", "10.1")
}
