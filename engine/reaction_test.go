package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

func shots(evs []engine.Event) []engine.UnitFired {
	var out []engine.UnitFired
	for _, e := range evs {
		if f, ok := e.(engine.UnitFired); ok {
			out = append(out, f)
		}
	}
	return out
}

func moves(evs []engine.Event) []engine.UnitMoved {
	var out []engine.UnitMoved
	for _, e := range evs {
		if m, ok := e.(engine.UnitMoved); ok {
			out = append(out, m)
		}
	}
	return out
}

// 9.2: a unit moving into a longbow's Frontal hex is fired at the instant
// it enters, before it goes on.
func TestReactionFireWhenEnteringAFrontalHex(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0505", hex.FaceW, "LB")
	g.at("AN1", "0203", hex.FaceE, "GEN")
	g.dice = engine.NewScript(0) // 0 +2 (range 1) = 2: No Effect
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405 0305")
	f := shots(res.Events)
	mv := moves(res.Events)
	if len(f) != 1 || !f[0].Reaction || f[0].Unit != "CA1" || f[0].Target != "AN1" {
		t.Fatalf("shots %+v", f)
	}
	// Genitors are mounted missile units: they go on through the ZOC
	// (5.1), in two parts around the shot.
	if len(mv) != 2 || mv[0].Path[len(mv[0].Path)-1] != h(t, "0405") || mv[1].Path[0] != h(t, "0305") {
		t.Fatalf("moves %+v\n%v", mv, narrative(g.sc, res.Events))
	}
	if mv[0].MP+mv[1].MP != 4 || g.unit("AN1").Hex != h(t, "0305") {
		t.Errorf("MP %d+%d, AN1 in %s", mv[0].MP, mv[1].MP, g.unit("AN1").Hex)
	}
}

// "The instant the unit is no longer in the hex that caused the Reaction
// Fire (due to Retreat, Retire, or Elimination), Reaction Fire ends" —
// and so does its move.
func TestReactionFireStopsTheMover(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0505", hex.FaceW, "LB")
	g.at("CA2", "0506", hex.FaceNW, "LB")
	g.at("AN1", "0203", hex.FaceE, "GEN")
	g.dice = engine.NewScript(9) // 9 +2 = 11 on the Mounted column: Retire
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405 0305")
	if f := shots(res.Events); len(f) != 1 {
		t.Errorf("%d shots after the mover retired, want 1: %v", len(f), narrative(g.sc, res.Events))
	}
	if u := g.unit("AN1"); u.Status != engine.Retired {
		t.Errorf("AN1 %+v, want Retired and its move over", u)
	}
	if mv := moves(res.Events); len(mv) != 1 {
		t.Errorf("AN1 moved on after retiring: %v", narrative(g.sc, res.Events))
	}
}

// A mover Disordered on its way goes on only as far as its Disordered
// Movement Allowance reaches (ruling R69).
func TestReactionFireDisorderShortensTheMove(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0505", hex.FaceW, "LB")
	g.at("AN1", "0203", hex.FaceE, "GEN")
	g.sc.Units[g.index("AN1")].Ratings = engine.Ratings{MA: 9, MADisordered: 3}
	g.dice = engine.NewScript(4) // 4 +2 = 6 on the Mounted column: Disordered
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405 0305 0205 0105")
	if u := g.unit("AN1"); u.Status != engine.Disordered || u.Hex != h(t, "0405") {
		t.Errorf("AN1 %+v, want Disordered in 0405: its Disordered MA of 3 is spent there", u)
	}
}

// Crossbows react to one enemy unit per enemy Activation (9.2); a side
// whose standing orders say NEVER does not react.
func TestReactionFireLimits(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0505", hex.FaceW, "CB")
	g.at("AN1", "0203", hex.FaceE, "AX")
	g.at("AN2", "0204", hex.FaceE, "AX")
	g.dice = engine.NewScript(0)
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405\nMOVE AN2 0304 0305 0406")
	if f := shots(res.Events); len(f) != 1 || f[0].Target != "AN1" {
		t.Errorf("crossbow shots %+v, want one at AN1", f)
	}
	n := shooters(t)
	n.at("CA1", "0505", hex.FaceW, "LB")
	n.at("AN1", "0203", hex.FaceE, "AX")
	n.send(blue, "STANDING REACTION FIRE NEVER")
	res = n.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405")
	if f := shots(res.Events); len(f) != 0 {
		t.Errorf("reaction against the standing order: %+v", f)
	}
}

// Issue 4's acceptance: a unit moving along a line of Frontal hexes — each
// longbow fires, the crossbow only once though the mover enters two of its
// Frontal hexes, and the fire stops when the mover is Retired.
func TestReactionFireAlongALineOfFrontalHexes(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0404", hex.FaceE, "CB") // Frontal: 0503, 0504
	g.at("CA2", "0406", hex.FaceE, "LB") // 0505, 0506
	g.at("DO1", "0408", hex.FaceE, "LB") // 0507, 0508
	g.at("AN1", "0502", hex.FaceSE, "GEN")
	g.sc.Units[g.index("AN1")].Ratings = engine.Ratings{MA: 9, MADisordered: 8}
	g.dice = engine.NewScript(0, 0, 9) // No Effect, No Effect, 9 +2 = 11 on Mounted: Retire
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0503 0504 0505 0506 0507 0508")
	var who []string
	for _, f := range shots(res.Events) {
		who = append(who, f.Unit+"@"+g.unit(f.Unit).Hex.String())
	}
	if len(who) != 3 || who[0] != "CA1@0404" || who[1] != "CA2@0406" || who[2] != "DO1@0408" {
		t.Errorf("reaction shots %v, want CA1, CA2, DO1 once each", who)
	}
	if u := g.unit("AN1"); u.Status != engine.Retired {
		t.Errorf("AN1 %+v, want Retired, its move ended", u)
	}
	if g.dice.Remaining() != 0 {
		t.Errorf("%d dice unrolled", g.dice.Remaining())
	}
}

// 9.2: a mounted missile unit fires as part of its move and goes on;
// Infidel 11.2: firing from a hex in an enemy ZOC costs 1 MP (0 in Men of
// Iron).
func TestMountedMissileFiresDuringItsMove(t *testing.T) {
	for _, c := range []struct {
		rule   int
		wantMP int
	}{{0, 4}, {1, 5}} {
		g := shooters(t)
		g.sc.Tables.Rules.MountedFireZOCMP = c.rule
		g.at("CA1", "0505", hex.FaceW, "PK")    // no missiles: no Reaction Fire; a ZOC? pikes have none
		g.at("CA2", "0504", hex.FaceSW, "MMAA") // its ZOC: 0505 and 0405, where AN1 fires
		g.at("AN1", "0203", hex.FaceE, "GEN")
		g.sc.Units[g.index("AN1")].Ratings = engine.Ratings{MA: 9, MADisordered: 8}
		g.dice = engine.NewScript(0)
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0303 0404 0405 FIRE CA1 0305")
		mv, f := moves(res.Events), shots(res.Events)
		total := 0
		for _, m := range mv {
			total += m.MP
		}
		for _, s := range f {
			total += s.MP
		}
		if len(f) != 1 || f[0].Unit != "AN1" || f[0].Target != "CA1" || total != c.wantMP || g.unit("AN1").Hex != h(t, "0305") {
			t.Errorf("rule %d: shots %+v, MP %d (want %d), AN1 in %s: %v", c.rule, f, total, c.wantMP, g.unit("AN1").Hex, narrative(g.sc, res.Events))
		}
	}
	g := shooters(t)
	g.at("AN1", "0203", hex.FaceE, "LB")
	g.at("CA1", "0405", hex.FaceW, "PK")
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN1 0303 FIRE CA1", "9.2") // foot missile units fire after their move
}

// Standing orders for fire per unit or per Command: the most particular
// decides (issue 4: "per unit or per Command").
func TestFireStandingOrdersPerUnitAndCommand(t *testing.T) {
	g := shooters(t)
	g.at("CA1", "0404", hex.FaceE, "LB") // Frontal: 0503, 0504
	g.at("CA2", "0406", hex.FaceE, "LB") // 0505, 0506
	g.at("AN1", "0502", hex.FaceSE, "GEN")
	g.sc.Units[g.index("AN1")].Ratings = engine.Ratings{MA: 9, MADisordered: 8}
	g.send(blue, "STANDING REACTION FIRE NEVER Carl\nSTANDING REACTION FIRE ALWAYS CA2")
	g.dice = engine.NewScript(0)
	res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0503 0504 0505 0506")
	if f := shots(res.Events); len(f) != 1 || f[0].Unit != "CA2" {
		t.Errorf("shots %+v, want CA2 only: Carl's Command holds its fire but CA2's own order says fire", f)
	}
}

// 9.2 with STANDING REACTION FIRE ASK: the move stops where the asked unit
// may fire, its owner answers REACT or HOLD FIRE, and the move goes on
// from there as ordered.
func TestReactionFireAskedOfItsOwner(t *testing.T) {
	for _, c := range []struct {
		answer string
		shots  int
	}{{"REACT CA2", 1}, {"HOLD FIRE", 0}} {
		g := shooters(t)
		g.at("CA1", "0404", hex.FaceE, "LB") // Frontal: 0503, 0504; reacts at once
		g.at("CA2", "0406", hex.FaceE, "LB") // 0505, 0506; asked
		g.at("AN1", "0502", hex.FaceSE, "GEN")
		g.sc.Units[g.index("AN1")].Ratings = engine.Ratings{MA: 9, MADisordered: 8}
		g.send(blue, "STANDING REACTION FIRE ASK CA2")
		g.dice = engine.NewScript(0, 0)
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 0503 0504 0505 0506 0507\nEND")
		if g.st.Pending.Kind != engine.DecideReaction || g.st.Pending.Side != blue || len(res.NotApplied) != 1 || g.unit("AN1").Hex != h(t, "0505") {
			t.Fatalf("pending %+v, AN1 in %s, not applied %v: %v", g.st.Pending, g.unit("AN1").Hex, res.NotApplied, narrative(g.sc, res.Events))
		}
		if n := len(shots(res.Events)); n != 1 {
			t.Errorf("%d shots before the question, want CA1's", n)
		}
		g.refuse(blue, "REACT CA1", "9.2") // CA1 is not asked
		res = g.send(blue, c.answer)
		if n := len(shots(res.Events)); n != c.shots {
			t.Errorf("%s: %d shots, want %d", c.answer, n, c.shots)
		}
		if u := g.unit("AN1"); u.Hex != h(t, "0507") {
			t.Errorf("%s: AN1 in %s, want its move finished in 0507: %v", c.answer, u.Hex, narrative(g.sc, res.Events))
		}
		if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != red {
			t.Errorf("%s: then waiting for %+v, want Red's orders", c.answer, g.st.Pending)
		}
		g.send(red, "END")
		// The interrupted move travels in the events: JSON and back.
		for k, e := range roundTrip(t, g.events) {
			a, _ := engine.MarshalEvent(e)
			b, _ := engine.MarshalEvent(g.events[k])
			if string(a) != string(b) {
				t.Errorf("event %d changes in JSON:\n%s\n%s", k, b, a)
			}
		}
	}
}

// 9.2: "Retreat, Advance, or Continued Attack do not trigger Reaction
// Fire." The Mounted MAA AN1 Shocks the Pike CA1 (7: "Defender
// Disordered, Retreat 1 Hex") and advances into its hex, a Frontal hex of
// the Longbow CA2: CA2 does not fire, though it would at a move there.
func TestAdvanceDrawsNoReactionFire(t *testing.T) {
	g := melee(t, 7)
	g.troop("AN1", "0505", hex.FaceSE, "MMAA")
	g.troop("CA1", "0606", hex.FaceNW, "PK")
	g.troop("CA2", "0706", hex.FaceNW, "LB")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	adv, ok := findEvent[engine.UnitAdvanced](evs)
	if !ok || adv.Unit != "AN1" || adv.To != h(t, "0606") {
		t.Fatalf("advance %+v, want AN1 into 0606:\n%s", adv, g.story(evs))
	}
	if f, ok := findEvent[engine.UnitFired](evs); ok {
		t.Errorf("%s fired at the advance (9.2: an Advance draws no Reaction Fire):\n%s", f.Unit, g.story(evs))
	}
	if g.dice.Remaining() != 0 {
		t.Errorf("%d dice left", g.dice.Remaining())
	}
}
