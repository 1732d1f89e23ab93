package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus 14.5 Engaged (and 14.1, 8.0, 12.1, 12.2) on the volume's house
// tables, through orders and scripted dice (rulings R380–R387 in
// docs/rulings.md). Pike against Pike: the Weapon System
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
	e = h.refuse(red, "END", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "AN1 has none of the units it is Engaged with (CA1) in its Frontal hexes: it must turn to face them, or Disengage; legal: FACE AN1 NE") {
		t.Errorf("refusal %v", e)
	}
	e = h.refuse(red, "FACE AN1 NW", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "it may face only NE") {
		t.Errorf("refusal %v", e)
	}
	// The mail's legal orders offer the turn, not the END it refuses.
	if legal := engine.Legal(h.sc, h.st); slices.Contains(legal, "END") || !slices.Contains(legal, "FACE AN1 NE") {
		t.Errorf("legal %q: want FACE AN1 NE and no END", legal)
	}
	h.send(red, "FACE AN1 NE")
	if u := h.unit("AN1"); u.Facing != hex.FaceNE || u.Hex.String() != x {
		t.Errorf("AN1 %+v, want facing NE in %s", u, x)
	}
	// The turn 14.5 demands may come after another unit's SHOCK began the
	// Shock Phase (R373): else END would stay refused for good.
	k := arqMelee(t)
	c, _ := engagedPair(k)
	k.st.Unit("AN1").Facing = hex.FaceW
	k.engage("AN1", "CA1")
	an2 := k.nb(c, hex.NW)
	at := func(id string) hex.Hex { x, _ := hex.Parse(id); return x }
	k.troop("AN2", an2, k.sc.Map.Grid.FacingToward(at(an2), at(c)), "PK")
	k.send(red, "ACTIVATE Anna\nSHOCK AN2 AT CA1")
	if legal := engine.Legal(k.sc, k.st); len(legal) == 0 || legal[0] != "FACE AN1 NE" || slices.Contains(legal, "END") {
		t.Errorf("legal %q: want FACE AN1 NE first, no END", legal)
	}
	k.refuse(red, "MOVE AN2 "+k.nb(an2, hex.NW), "ExtSoP C")
	k.send(red, "FACE AN1 NE")
	if k.unit("AN1").Facing != hex.FaceNE {
		t.Errorf("AN1 faces %s, want NE", k.unit("AN1").Facing)
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
		if r := engine.Reach(h.sc, h.st, "AN1"); len(r) > 0 {
			t.Errorf("%s: Reach offers a Disengage: %v", tc.name, r)
		}
	}
	// The hexes a mail offers an Engaged unit are those of a Disengage:
	// none next to an enemy unit.
	reach := engine.Reach(g.sc, engagedAgain(t), "AN1")
	if len(reach) == 0 {
		t.Fatal("Reach offers no Disengage")
	}
	for _, r := range reach {
		if r.Hex.String() == g.nb(c, hex.S) || g.sc.Map.Grid.Distance(r.Hex, h(t, c)) == 1 {
			t.Errorf("Reach offers %s, next to CA1", r.Hex)
		}
	}
}

// engagedAgain is TestArquebusDisengage's opening: AN1 Engaged with CA1,
// Anna's Command activated.
func engagedAgain(t *testing.T) *engine.State {
	g := arqMelee(t)
	engagedPair(g)
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	return g.st
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

// swiss makes Red's AN1 a Swiss Pike (ruling R385).
func (g *game) swiss(id string) {
	g.sc.Units[g.index(id)].Swiss = true
}

func swissRolls(evs []engine.Event) []engine.SwissReluctanceRolled {
	var out []engine.SwissReluctanceRolled
	for _, e := range evs {
		if r, ok := e.(engine.SwissReluctanceRolled); ok {
			out = append(out, r)
		}
	}
	return out
}

// 16.2 Swiss Shock Reluctance: the die plus the unit's Shock Defense DRM
// (the Pike's −1); 6 or less it attacks, 7 to 9 it refuses (declared, so
// no Rally), 10 or more it goes home, not Eliminated for Victory (no FP).
func TestArquebusSwissShockReluctance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shock   int // the counter's Shock Defense
		die     int
		total   int
		outcome engine.SwissOutcome
	}{
		{"6 attacks", -1, 7, 6, engine.SwissAttack},
		{"7 refuses", -1, 8, 7, engine.SwissRefuse},
		{"9 refuses", 0, 9, 9, engine.SwissRefuse},
		{"10 goes home", 1, 9, 10, engine.SwissHome},
	} {
		g := arqMelee(t, tc.die, 5)
		c, x := engagedPair(g)
		g.sc.Units[g.index("AN1")].Ratings.Shock = tc.shock
		g.swiss("AN1")
		fp := engine.FlightPoints(g.sc, g.st, red)
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		rolls := swissRolls(evs)
		if len(rolls) != 1 || rolls[0].Unit != "AN1" || rolls[0].Roll.Die != tc.die || rolls[0].Roll.Total != tc.total || rolls[0].Outcome != tc.outcome {
			t.Fatalf("%s: Swiss rolls %+v", tc.name, rolls)
		}
		if tc.shock != 0 && (len(rolls[0].Roll.Mods) != 1 || rolls[0].Roll.Mods[0].DRM != tc.shock || rolls[0].Roll.Mods[0].Rule != "Arquebus 16.2") {
			t.Errorf("%s: mods %+v", tc.name, rolls[0].Roll.Mods)
		}
		atts := resolved(evs)
		switch tc.outcome {
		case engine.SwissAttack:
			if len(atts) != 1 {
				t.Fatalf("%s: attacks %v", tc.name, atts)
			}
			wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3"}, 4, "Shock", "Engaged")
		case engine.SwissRefuse:
			if len(atts) != 0 || g.unit("AN1").Hex.String() != x || g.unit("AN1").OffMap || !g.unit("AN1").Acted { // Acted: no Rally (13.1)
				t.Errorf("%s: attacks %v, AN1 %+v", tc.name, atts, g.unit("AN1"))
			}
			if s := g.story(evs); !strings.Contains(s, "it refuses to Shock attack; it has declared one, so it may not Rally (Arquebus 16.2)") ||
				!strings.Contains(s, "No attack on CA1: its Swiss attackers did not attack (Arquebus 16.2).") {
				t.Errorf("%s: story:\n%s", tc.name, s)
			}
		case engine.SwissHome:
			u := g.unit("AN1")
			if len(atts) != 0 || !u.OffMap || u.Status == engine.Eliminated || engine.FlightPoints(g.sc, g.st, red) != fp {
				t.Errorf("%s: attacks %v, AN1 %+v, FP %d (was %d)", tc.name, atts, u, engine.FlightPoints(g.sc, g.st, red), fp)
			}
			if s := g.story(evs); !strings.Contains(s, "more than 9: it goes home and is removed from the game, not as an Eliminated unit (Arquebus 16.2)") {
				t.Errorf("%s: story:\n%s", tc.name, s)
			}
		}
		_ = c
	}
}

// 16.2 "If a Swiss Pike infantry unit refuses to Shock attack or is
// removed, it does not affect any other declared attacks": AN2 attacks
// CA1 alone, 1 against 1. "that is not already Engaged (which negates this
// rule)": an Engaged Swiss unit does not roll.
func TestArquebusSwissRefusalAndEngaged(t *testing.T) {
	g := arqMelee(t, 8, 5)
	c, _ := engagedPair(g)
	g.troop("AN2", g.nb(c, hex.NW), hex.FaceSE, "PK")
	g.swiss("AN1")
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	if rolls := swissRolls(evs); len(rolls) != 1 || rolls[0].Outcome != engine.SwissRefuse {
		t.Fatalf("Swiss rolls %+v", rolls)
	}
	atts := resolved(evs)
	if len(atts) != 1 || strings.Join(atts[0].Attackers, ",") != "AN2" {
		t.Fatalf("attacks %+v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3"}, 4, "Shock", "Engaged")
	if engine.IsEngaged(g.st, "AN1") || !slices.Equal(engine.EngagedWith(g.st, "CA1"), []string{"AN2"}) {
		t.Errorf("Engaged: AN1 %v, CA1 with %v", engine.EngagedWith(g.st, "AN1"), engine.EngagedWith(g.st, "CA1"))
	}

	h := arqMelee(t, 5)
	engagedPair(h)
	h.swiss("AN1")
	h.engage("AN1", "CA1")
	evs = h.shockRound("SHOCK AN1 AT CA1\nEND")
	if rolls := swissRolls(evs); len(rolls) != 0 {
		t.Errorf("an Engaged Swiss unit rolled: %+v", rolls)
	}
	if atts := resolved(evs); len(atts) != 1 || atts[0].Roll.Die != 5 {
		t.Errorf("attacks %+v", atts)
	}
}

// 14.1 "Engaged and Retreat: The unit must Retreat; ignore the Engaged
// result." AN1 alone against two Pikes (−1 Strength and −1 Shock Defense
// on each roll): 3 → 1 "Attacker Disordered, Retreat 1 Hex" against CA1,
// 6 → 4 "Engaged" against CA2. AN1 retreats, and is Engaged with no one.
func TestArquebusEngagedAndRetreat(t *testing.T) {
	g := arqMelee(t, 3, 6)
	_, x := engagedPair(g)
	g.troop("CA2", g.nb(x, hex.N), hex.FaceSE, "PK")
	evs := g.shockRound("SHOCK AN1 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 3, []string{"-1 10.4 #1", "-1 10.4 #3"}, 1, "Shock", "Attacker Disordered, Retreat 1 Hex")
	wantAttack(t, atts[1], "CA2", 6, []string{"-1 10.4 #1", "-1 10.4 #3"}, 4, "Shock", "Engaged")
	u := g.unit("AN1")
	if u.Hex.String() == x || u.Status != engine.Disordered || engine.IsEngaged(g.st, "AN1") || engine.IsEngaged(g.st, "CA2") {
		t.Errorf("AN1 %+v Engaged %v, CA2 Engaged %v, want AN1 retreated, Disordered, no one Engaged:\n%s", u, engine.IsEngaged(g.st, "AN1"), engine.IsEngaged(g.st, "CA2"), g.story(evs))
	}
	if _, ok := findEvent[engine.UnitsEngaged](evs); ok {
		t.Errorf("an Engaged result was placed on a retreated attacker:\n%s", g.story(evs))
	}
}

// 14.1 "Engaged/Retreat and Continued Attack: The unit must implement the
// Continued Attack; ignore the Engaged/Retreat result"; 14.5, 14.7
// "Remove all ENGAGED markers from a unit that receives a Continued Attack
// result." The Men-at-Arms AN1, Engaged with the Skirmisher CA1 and the
// Pike CA2, Shocks both: against CA1 −1 Strength, +3 Shock Defense, +3
// WSM, 4 → 9 "Defender Disordered, Retreat 1 Hex, Continued Attack";
// against CA2 −1, −1, −1 WSM, 7 → 4 "Engaged". AN1 advances into CA1's
// hex, still next to CA2, and loses its marker; CA2 keeps its own (the
// marker is each unit's, R381). The Continued Attack finds CA1 in AN1's
// front again: +2 Flank, +4 Disordered Skirmisher, +3, −1 (12.7), 0 → 8,
// "Defender Retired", and AN1 advances once more.
func TestArquebusContinuedAttackOverridesEngaged(t *testing.T) {
	g := arqMelee(t, 4, 7, 0)
	c, x := engagedPair(g)
	g.troop("CA1", c, hex.FaceW, "SK")
	g.troop("AN1", x, hex.FaceNE, "MM")
	g.troop("CA2", g.nb(x, hex.N), hex.FaceSE, "PK")
	g.engage("AN1", "CA1")
	g.engage("AN1", "CA2")
	evs := g.shockRound("SHOCK AN1 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 3 {
		t.Fatalf("attacks %v:\n%s", atts, g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 4, []string{"-1 10.4 #1", "+3 10.4 #3", "+3 10.4 #6"}, 9, "Shock", "Defender Disordered, Retreat 1 Hex, Continued Attack")
	wantAttack(t, atts[1], "CA2", 7, []string{"-1 10.4 #1", "-1 10.4 #3", "-1 10.4 #6"}, 4, "Shock", "Engaged")
	if _, ok := findEvent[engine.UnitsEngaged](evs); ok {
		t.Errorf("Engaged placed despite the Continued Attack:\n%s", g.story(evs))
	}
	wantAttack(t, atts[2], "CA1", 0, []string{"+2 10.4 #2A", "+4 10.4 #3", "+3 10.4 #6", "-1 12.7"}, 8, "Shock", "Defender Retired")
	if g.unit("AN1").Hex.String() == x || engine.IsEngaged(g.st, "AN1") || !slices.Equal(engine.EngagedWith(g.st, "CA2"), []string{"AN1"}) || engine.IsEngaged(g.st, "CA1") {
		t.Errorf("AN1 in %s Engaged with %v, CA2 with %v, CA1 with %v:\n%s", g.unit("AN1").Hex, engine.EngagedWith(g.st, "AN1"), engine.EngagedWith(g.st, "CA2"), engine.EngagedWith(g.st, "CA1"), g.story(evs))
	}
	if s := g.story(evs); !strings.Contains(s, "AN1 is no longer Engaged with CA2: it received a Continued Attack result (Arquebus 14.5, Arquebus 14.7).") {
		t.Errorf("story:\n%s", s)
	}
}

// 12.2 Retreat Before Combat: "Any Mounted unit, foot Arquebus, foot
// Crossbow, Longbow, or Skirmisher unit, that is not Disordered or
// Engaged, and attacked solely by foot units, may Retreat Before Combat.
// If the unit is foot (Skirmishers excluded), it may retreat one hex. If
// the unit is a Skirmisher or Mounted, it may retreat one to three hexes.
// Pike and Sword & Buckler units armed with arquebus or crossbow, cannot
// ... Each hex retreated must increase the distance from each of the
// attacking units" (rules.retreat_before_foot, retreat_before_far,
// retreat_before_hexes; ruling R387). The Pike AN1 Shocks CA1; the
// defender's owner is asked, and the hexes offered reach as far as the
// rule lets, each a hex farther from AN1.
func TestArquebusRetreatBeforeCombat(t *testing.T) {
	for _, tc := range []struct {
		def      string
		farthest int // from AN1; 0: no Retreat Before Combat
	}{
		{"AQ", 2}, {"CB", 2}, {"LB", 2}, {"DAQ", 2},
		{"SK", 4}, {"LC", 4}, {"STR", 4},
		{"PKAQ", 0}, {"SBCB", 0}, {"PK", 0}, {"SP", 0},
	} {
		g := arqMelee(t, 0)
		_, x := engagedPair(g)
		g.troop("CA1", "0606", hex.FaceW, tc.def)
		g.send(blue, "STANDING RETREAT BEFORE SHOCK ASK\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		far := 0
		if g.st.Shock != nil {
			for _, r := range g.st.Shock.Responses {
				for _, h := range r.Retreats {
					if d := g.sc.Map.Grid.Distance(h, g.unit("AN1").Hex); d > far {
						far = d
					}
					if d := g.sc.Map.Grid.Distance(h, g.unit("AN1").Hex); d < 2 {
						t.Errorf("%s: offered %s, next to AN1", tc.def, h)
					}
				}
			}
		}
		if far != tc.farthest || (tc.farthest == 0) != (len(resolved(evs)) == 1) {
			t.Errorf("%s: farthest retreat %d hexes from AN1, want %d; attacks %v:\n%s", tc.def, far, tc.farthest, resolved(evs), g.story(evs))
		}
		_ = x
	}
}

// 12.2: a Skirmisher retreats three hexes, each farther from AN1, and is
// Disordered; a hex toward AN1 is refused. Not when Engaged, nor when a
// mounted unit attacks.
func TestArquebusSkirmisherRetreatsThreeHexes(t *testing.T) {
	g := arqMelee(t)
	c, x := engagedPair(g)
	g.troop("CA1", c, hex.FaceW, "SK")
	g.send(blue, "STANDING RETREAT BEFORE SHOCK ASK\nSTANDING COUNTER-CHARGE NEVER")
	g.shockRound("SHOCK AN1 AT CA1\nEND")
	g.refuse(blue, "RETREAT BEFORE SHOCK CA1 "+g.nb(c, hex.S), "10.2")
	to := g.nb(c, hex.NE, hex.NE, hex.NE)
	evs := g.send(blue, "RETREAT BEFORE SHOCK CA1 "+to).Events
	rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
	if !ok || len(rbs.Path) != 3 || rbs.To.String() != to || !rbs.Disordered {
		t.Fatalf("retreat %+v:\n%s", rbs, g.story(evs))
	}
	for k, h := range rbs.Path {
		if d := g.sc.Map.Grid.Distance(h, g.unit("AN1").Hex); d != k+2 {
			t.Errorf("hex %d of the retreat, %s, is %d from AN1, want %d", k+1, h, d, k+2)
		}
	}
	if u := g.unit("CA1"); u.Hex.String() != to || u.Status != engine.Disordered {
		t.Errorf("CA1 %+v", u)
	}
	if s := g.story(evs); !strings.Contains(s, "CA1 Retreats Before Shock 3 hexes, through") {
		t.Errorf("story:\n%s", s)
	}
	_ = x

	for _, tc := range []struct {
		name    string
		att     string
		engaged bool
	}{{"Engaged", "PK", true}, {"attacked by a mounted unit", "MM", false}} {
		h := arqMelee(t, 0)
		engagedPair(h)
		h.troop("CA1", c, hex.FaceW, "SK")
		h.troop("AN1", x, hex.FaceNE, tc.att)
		if tc.engaged {
			h.engage("AN1", "CA1")
		}
		h.send(blue, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := h.shockRound("SHOCK AN1 AT CA1\nEND")
		if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok || len(resolved(evs)) != 1 {
			t.Errorf("%s: want no retreat and one attack:\n%s", tc.name, h.story(evs))
		}
	}
}

// 14.5 "Units that are not eligible to Shock attack must Disengage, if
// possible": an Engaged Arquebus (no Weapon System Matrix row) may not
// stay, nor turn, while it can; Disordered, it cannot, and stays.
func TestArquebusNonShockerMustDisengage(t *testing.T) {
	g := arqMelee(t)
	c, x := engagedPair(g)
	g.troop("AN1", x, hex.FaceNE, "AQ")
	g.engage("AN1", "CA1")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "END", "Arquebus 14.5")
	if !strings.Contains(e.Reason, "AN1 is Engaged and not eligible to Shock attack: it must Disengage, as it can; legal: MOVE AN1 ") {
		t.Errorf("refusal %v", e)
	}
	g.refuse(red, "FACE AN1 E", "Arquebus 14.5")
	g.send(red, "MOVE AN1 "+g.nb(x, hex.SW))
	g.send(red, "END")
	if u := g.unit("AN1"); u.Status != engine.Disordered || engine.IsEngaged(g.st, "CA1") {
		t.Errorf("AN1 %+v after Disengaging; CA1 Engaged %v", u, engine.IsEngaged(g.st, "CA1"))
	}
	_ = c

	h := arqMelee(t)
	_, x = engagedPair(h)
	h.troop("AN1", x, hex.FaceNE, "AQ")
	h.st.Unit("AN1").Status = engine.Disordered
	h.engage("AN1", "CA1")
	h.send(red, "ACTIVATE Anna")
	h.send(red, "END")
	if !engine.IsEngaged(h.st, "AN1") {
		t.Errorf("a Disordered Engaged Arquebus stays Engaged")
	}
}

// 14.5 "An Engaged unit may not fire": no Reaction Fire either. The
// Arquebus CA1, Engaged with AN1, lets AN2 come into its other Frontal
// hex; unengaged, it reacts (a 0: no effect).
func TestArquebusEngagedNoReactionFire(t *testing.T) {
	for _, engaged := range []bool{true, false} {
		g := arqMelee(t, 0)
		c, _ := engagedPair(g)
		g.troop("CA1", c, hex.FaceW, "AQ")
		g.troop("AN2", g.nb(c, hex.NW, hex.NW), hex.FaceSE, "PK")
		if engaged {
			g.engage("AN1", "CA1")
		}
		g.send(blue, "STANDING REACTION FIRE ALWAYS")
		g.send(red, "ACTIVATE Anna")
		evs := g.send(red, "MOVE AN2 "+g.nb(c, hex.NW)).Events
		if f, fired := findEvent[engine.UnitFired](evs); fired == engaged || fired && (f.Unit != "CA1" || !f.Reaction) {
			t.Errorf("Engaged %v: Reaction Fire %v %+v:\n%s", engaged, fired, f, g.story(evs))
		}
	}
}

// 14.5 "Leaders stacked with units are unaffected by Engaged results": a
// leader stacked with an Engaged unit carries no marker and moves away
// alone, where the unit would have to Disengage.
func TestArquebusLeadersUnaffectedByEngaged(t *testing.T) {
	g := arqMelee(t, 5)
	_, x := engagedPair(g)
	g.lead("anna", x)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if !engine.IsEngaged(g.st, "AN1") || engine.IsEngaged(g.st, "anna") {
		t.Fatalf("AN1 Engaged %v, anna %v:\n%s", engine.IsEngaged(g.st, "AN1"), engine.IsEngaged(g.st, "anna"), g.story(evs))
	}
	h := arqMelee(t)
	_, x = engagedPair(h)
	h.lead("anna", x)
	h.engage("AN1", "CA1")
	h.send(red, "ACTIVATE Anna")
	h.send(red, "MOVE Anna "+h.nb(x, hex.SW))
	if l := h.st.Leader("anna"); l.Hex.String() != h.nb(x, hex.SW) || h.unit("AN1").Status != engine.Normal || !engine.IsEngaged(h.st, "AN1") {
		t.Errorf("anna in %s, AN1 %+v", l.Hex, h.unit("AN1"))
	}
}
