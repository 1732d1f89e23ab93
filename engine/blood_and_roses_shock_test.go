package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses Shock, Charge and Counter-Charge (blood-and-roses.md 12.0
// to 14.5), played through orders and scripted dice on the volume's own
// house tables (data/tables/blood-and-roses.yaml). Each test cites the
// section it holds; a switch turned off in a copy of the tables shows the
// rule is the switch's, not the volume's name.

// brRules is brMelee with the rule switches changed by edit.
func brRules(t *testing.T, edit func(*engine.Rules), dice ...int) *game {
	t.Helper()
	g := brMelee(t, dice...)
	edit(&g.sc.Tables.Rules)
	return g
}

// blood-and-roses.md 12.2: "A Mounted unit that is not Disordered, if
// attacked solely by foot units, may Retreat Before Combat ... Mounted
// units that Retreat Before Combat become Disordered at the completion of
// the retreat" — Cavalry as well as Mounted Men-at-Arms (Men of Iron 10.2
// Disorders only Mounted MAA). Not when Disordered (14.2), not when a
// mounted unit is among the attackers.
func TestBloodAndRosesRetreatBeforeShockDisorders(t *testing.T) {
	c := "0505"
	for _, typ := range []string{"CAV", "MM"} {
		g := brMelee(t)
		g.troop("CA1", c, hex.FaceW, typ)
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "INF")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
		if !ok || len(resolved(evs)) != 0 {
			t.Fatalf("%s: want a Retreat Before Shock and no attack:\n%s", typ, g.story(evs))
		}
		u := g.unit("CA1")
		if !rbs.Disordered || u.Status != engine.Disordered || g.sc.Map.Grid.Distance(u.Hex, h(t, g.nb(c, hex.SW))) != 2 {
			t.Errorf("%s after its retreat: %+v, want Disordered, two hexes from AN1 (12.2)", typ, u)
		}
		if !strings.Contains(g.story(evs), "(Blood & Roses 12.2)") {
			t.Errorf("%s: the narrative does not cite Blood & Roses 12.2:\n%s", typ, g.story(evs))
		}
	}
	// The switch off: Cavalry retreats unharmed, as Men of Iron's
	// non-MAA mounted units do (10.2).
	g := brRules(t, func(r *engine.Rules) { r.RetreatBeforeDisorders = false })
	g.troop("CA1", c, hex.FaceW, "CAV")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "INF")
	g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if rbs, ok := findEvent[engine.RetreatedBeforeShock](evs); !ok || rbs.Disordered || g.unit("CA1").Status != engine.Normal {
		t.Errorf("without retreat_before_disorders Cavalry retreats unharmed:\n%s", g.story(evs))
	}
	// Who may not: a Disordered Cavalry (14.2 "A Disordered unit may not
	// Retreat Before Combat"); a Cavalry attacked by a Mounted MAA (12.2
	// "solely by foot units"); a foot unit. Each stands, the attack is
	// rolled: die 4.
	for _, tc := range []struct {
		name, def, att string
		status         engine.Status
	}{
		{"Disordered Cavalry", "CAV", "INF", engine.Disordered},
		{"attacked by a mounted unit", "CAV", "MM", engine.Normal},
		{"Infantry", "INF", "INF", engine.Normal},
	} {
		g := brMelee(t, 4, 4)
		g.troop("CA1", c, hex.FaceW, tc.def)
		g.st.Unit("CA1").Status = tc.status
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, tc.att)
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok || len(resolved(evs)) != 1 {
			t.Errorf("%s: want no retreat and one attack:\n%s", tc.name, g.story(evs))
		}
	}
	// Asked by mail: toward the attacker is refused (12.2 "one hex away
	// from all units attacking it").
	g = brMelee(t)
	g.troop("CA1", c, hex.FaceW, "CAV")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "INF")
	g.send(1, "STANDING RETREAT BEFORE SHOCK ASK")
	g.shockRound("SHOCK AN1 AT CA1\nEND")
	g.refuse(1, "RETREAT BEFORE SHOCK CA1 "+g.nb(c, hex.NW), "10.2")
	evs = g.send(1, "RETREAT BEFORE SHOCK CA1 "+g.nb(c, hex.NE)+" FACE W").Events
	if rbs, _ := findEvent[engine.RetreatedBeforeShock](evs); !rbs.Disordered || g.unit("CA1").Facing != hex.FaceW {
		t.Errorf("the answered retreat: %+v, want Disordered, facing W", rbs)
	}
}

// blood-and-roses.md 12.2: "Retreat Before Combat applies to any attack,
// including a Continued Attack" (rules.retreat_before_continued). The
// Dismounted MAA AN2 Shocks the Infantry CA1: die 9 +1 (DM against INF) =
// 10, Defender Retired, Continued Attack. AN2 advances into CA1's hex;
// the Cavalry DO1, now in its front and attacked by foot alone, Retreats
// Before the Continued Attack (its owner's ASK counts as ALWAYS, ruling
// R178) and is Disordered by it, with no die (Infidel's table is not
// Blood & Roses').
func TestBloodAndRosesRetreatBeforeAContinuedAttack(t *testing.T) {
	c := "0505"
	g := brMelee(t, 9)
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "DM")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "CAV")
	g.send(1, "STANDING RETREAT BEFORE SHOCK ASK DO1")
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want the first round's only:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 9, []string{"+1 10.4 #6"}, 10, "Shock", "Defender Retired, Continued Attack")
	rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
	if !ok || rbs.Unit != "DO1" || !rbs.Disordered || rbs.Roll != nil {
		t.Fatalf("want DO1 to Retreat Before the Continued Attack, Disordered, no die:\n%s", g.story(evs))
	}
}

// blood-and-roses.md 13.5: "There is no Charge Reluctance is this version
// of the game": a Mounted MAA charging a Dismounted MAA through its front
// rolls none. Die 6, MM against DM −1, DM's Shock Defense −2: 3, Charge
// Table, Defender Disordered.
func TestBloodAndRosesNoChargeReluctance(t *testing.T) {
	g := brMelee(t, 6)
	g.troop("CA1", "0505", hex.FaceW, "DM")
	g.troop("AN2", "0305", hex.FaceE, "MM")
	evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
	if _, ok := findEvent[engine.ChargeReluctance](evs); ok {
		t.Errorf("a Charge Reluctance roll in Blood & Roses (13.5):\n%s", g.story(evs))
	}
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 6, []string{"-2 10.4 #3", "-1 10.4 #6"}, 3, "Charge", "Defender Disordered")
}

// blood-and-roses.md 13.3 #2: a Mounted MAA may not Charge if "It began
// the Activation or the Shock Phase adjacent to an enemy unit". AN2 moves
// next to CA2 and then may not Charge CA1, three hexes off; with the
// switch off the same Charge goes home (the path by 0304, clear of CA2).
func TestBloodAndRosesNoChargeFromAdjacent(t *testing.T) {
	setup := func(g *game) {
		g.troop("CA1", "0505", hex.FaceW, "INF")
		g.troop("CA2", "0206", hex.FaceNW, "INF")
		g.troop("AN2", "0203", hex.FaceE, "MM")
		g.send(0, "ACTIVATE Anna")
		g.send(0, "MOVE AN2 0204 0205")
	}
	g := brMelee(t)
	setup(g)
	ill := g.refuse(0, "CHARGE AN2 AT CA1", "Blood & Roses 13.3 #2")
	if !strings.Contains(ill.Error(), "CA2") {
		t.Errorf("refusal %q does not name CA2", ill)
	}
	g = brRules(t, func(r *engine.Rules) { r.ChargeNotAdjacentAtShock = false }, 9)
	setup(g)
	evs := g.send(0, "CHARGE AN2 AT CA1\nEND").Events
	cm, ok := findEvent[engine.ChargeMade](evs)
	if !ok || hexIDsOf(cm.Path) != "0304 0405" {
		t.Errorf("without the switch: charge %+v, want by 0304 0405:\n%s", cm, g.story(evs))
	}
}

func hexIDsOf(hs []hex.Hex) string {
	var out []string
	for _, x := range hs {
		out = append(out, x.String())
	}
	return strings.Join(out, " ")
}

// blood-and-roses.md 13.3 #5d: a Charge Path "May not cross a hex adjacent
// to an enemy unit, but may end in such a hex"; #5h: "May not cross a
// Woods, Marsh, Bog, Town, or Hedgerow/Brush hex". AN2 (0205) charges CA1
// (0505) across two hexes; CA2 in 0405 blocks the paths through it and
// stands next to 0305, the first hex of the only other path.
func TestBloodAndRosesChargePath(t *testing.T) {
	t.Run("13.3 #5d not across a hex next to an enemy", func(t *testing.T) {
		g := brMelee(t)
		g.troop("CA1", "0505", hex.FaceW, "INF")
		g.troop("CA2", "0405", hex.FaceW, "INF")
		g.troop("AN2", "0205", hex.FaceE, "MM")
		g.send(0, "ACTIVATE Anna")
		ill := g.refuse(0, "CHARGE AN2 AT CA1", "11.3")
		if !strings.Contains(ill.Error(), "Blood & Roses 13.3 #5d") || !strings.Contains(ill.Error(), "0305") {
			t.Errorf("refusal %q, want 0305 next to CA2 (13.3 #5d)", ill)
		}
		g = brRules(t, func(r *engine.Rules) { r.ChargePathNotAdjacent = false }, 9)
		g.troop("CA1", "0505", hex.FaceW, "INF")
		g.troop("CA2", "0405", hex.FaceW, "INF")
		g.troop("AN2", "0205", hex.FaceE, "MM")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "CHARGE AN2 AT CA1\nEND").Events
		if cm, ok := findEvent[engine.ChargeMade](evs); !ok || hexIDsOf(cm.Path) != "0305 0406" {
			t.Errorf("without the switch: charge %+v, want by 0305 0406, ending next to CA2:\n%s", cm, g.story(evs))
		}
	})
	t.Run("13.3 #5d may end next to an enemy", func(t *testing.T) {
		g := brMelee(t, 9)
		g.troop("CA1", "0505", hex.FaceW, "INF")
		g.troop("CA2", "0507", hex.FaceW, "INF") // next to 0406, not to 0305
		g.troop("AN2", "0305", hex.FaceE, "MM")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "CHARGE AN2 AT CA1 0406\nEND").Events
		if cm, ok := findEvent[engine.ChargeMade](evs); !ok || hexIDsOf(cm.Path) != "0406" {
			t.Errorf("charge %+v, want into 0406 next to CA2:\n%s", cm, g.story(evs))
		}
	})
	t.Run("13.3 #5h not across Hedgerow/Brush", func(t *testing.T) {
		setup := func(g *game) {
			g.troop("CA1", "0505", hex.FaceW, "INF")
			g.troop("AN2", "0305", hex.FaceE, "MM")
			for _, x := range []string{"0405", "0406"} {
				g.sc.Map.Terrain[h(t, x)] = "hedgerow-brush" // no_charge, and no bar to the line of sight
			}
			g.send(0, "ACTIVATE Anna")
		}
		g := brMelee(t)
		setup(g)
		ill := g.refuse(0, "CHARGE AN2 AT CA1", "11.3")
		if !strings.Contains(ill.Error(), "Hedgerow/Brush: a Charge may not cross it (Blood & Roses 13.3 #5h)") {
			t.Errorf("refusal %q, want Hedgerow/Brush on the path (13.3 #5h)", ill)
		}
		g = brRules(t, func(r *engine.Rules) { r.ChargePathTerrain = false }, 9)
		setup(g)
		if _, ok := findEvent[engine.ChargeMade](g.send(0, "CHARGE AN2 AT CA1\nEND").Events); !ok {
			t.Error("without charge_path_terrain the Charge through Hedgerow/Brush is Men of Iron's, legal (11.3)")
		}
	})
}

// blood-and-roses.md 13.3 #3: no Counter-Charge if "It began the
// Activation adjacent to an enemy unit and is still adjacent to that
// enemy unit ... If an Active unit leaves the hex in which it started the
// Activation, voluntarily or involuntarily, then it no longer prevents
// Mounted Men-at-Arms from Counter-Charging that Activation" (ruling
// R262: the attacker itself too). CA1, a Mounted MAA, begins Anna's
// Activation next to the Infantry AN1.
func TestBloodAndRosesCounterChargeAfterAdjacent(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name  string
		block []string
		cc    bool
	}{
		{"the attacker adjacent from the start: none", []string{"SHOCK AN1 AT CA1\nEND"}, false},
		{"another unit attacks, AN1 still adjacent: none", []string{"MOVE AN2 0306 0406", "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1\nEND"}, false},
		{"AN1 left its hex: AN2's Shock may be Counter-Charged", []string{"MOVE AN1 0404", "MOVE AN2 0306 0406", "SHOCK AN2 AT CA1\nEND"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := brMelee(t, 5, 5)
			g.troop("CA1", c, hex.FaceW, "MM")
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
			g.troop("AN2", "0206", hex.FaceE, "INF")
			g.send(0, "ACTIVATE Anna")
			var evs []engine.Event
			for _, b := range tc.block {
				evs = append(evs, g.send(0, b).Events...)
			}
			cc, ok := counterCharged(evs)
			if ok != tc.cc || ok && (!cc.Success || cc.Mode != "shock" || len(cc.Roll.Mods) != 0) {
				t.Errorf("Counter-Charge %v %+v, want %v (die 5, no DRM, 5 or less):\n%s", ok, cc, tc.cc, g.story(evs))
			}
		})
	}
}

// blood-and-roses.md 13.7–13.9: the Counter-Charge die has no Shock
// Defense DRM (the Mounted MAA's −1 would help it), only +1 for a change
// of facing; 4 or less against a Charge, 5 or less against a Shock, when
// the attacker takes −2 (13.8), and against fire.
func TestBloodAndRosesCounterChargeThresholds(t *testing.T) {
	c := "0505"
	t.Run("against Shock", func(t *testing.T) {
		for die, want := range map[int]bool{5: true, 6: false} {
			g := brMelee(t, die, 5)
			g.troop("CA1", c, hex.FaceW, "MM")
			g.troop("AN1", "0306", hex.FaceE, "INF")
			g.send(0, "ACTIVATE Anna")
			g.send(0, "MOVE AN1 0406")
			evs := g.send(0, "SHOCK AN1 AT CA1\nEND").Events
			cc, ok := counterCharged(evs)
			if !ok || cc.Mode != "shock" || cc.Max != 5 || cc.Roll.Total != die || len(cc.Roll.Mods) != 0 || cc.Success != want {
				t.Errorf("die %d: %+v, want %d, no DRM, against 5 or less: %v", die, cc, die, want)
			}
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
			}
			// INF against MM −1 on the matrix, MM's Shock Defense −1.
			mods, total := []string{"-1 10.4 #3", "-1 10.4 #6"}, 3
			if want {
				mods, total = []string{"-1 10.4 #3", "-1 10.4 #6", "-2 11.6"}, 1
			}
			wantAttack(t, atts[0], "CA1", 5, mods, total, "Shock", atts[0].Result)
		}
	})
	t.Run("against Shock, turning one vertex", func(t *testing.T) {
		// AN1 in CA1's Flank (0506, S of it): +1, 5 fails.
		g := brMelee(t, 5, 5)
		g.troop("CA1", c, hex.FaceW, "MM")
		g.troop("AN1", "0507", hex.FaceE, "INF")
		g.send(0, "ACTIVATE Anna")
		g.send(0, "MOVE AN1 0506 FACE NW")
		evs := g.send(0, "SHOCK AN1 AT CA1\nEND").Events
		cc, ok := counterCharged(evs)
		if !ok || cc.Roll.Total != 6 || len(cc.Roll.Mods) != 1 || cc.Roll.Mods[0].DRM != 1 || cc.Success {
			t.Errorf("%+v, want 5 +1 (facing) = 6, failed:\n%s", cc, g.story(evs))
		}
	})
	t.Run("against a Charge", func(t *testing.T) {
		for die, want := range map[int]bool{4: true, 5: false} {
			g := brMelee(t, die, 5)
			g.troop("CA1", c, hex.FaceW, "MM")
			g.troop("AN2", "0305", hex.FaceE, "MM")
			evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
			cc, ok := counterCharged(evs)
			if !ok || cc.Mode != "charge" || cc.Max != 4 || cc.Roll.Total != die || len(cc.Roll.Mods) != 0 || cc.Success != want {
				t.Errorf("die %d: %+v, want %d against 4 or less: %v", die, cc, die, want)
			}
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
			}
			table := "Charge"
			if want {
				table = "Shock" // 13.7 the Charge is negated
			}
			wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3"}, 4, table, atts[0].Result)
		}
	})
}

// blood-and-roses.md 13.6 Example: "a Lancastrian Mounted Men-at-Arms is
// fired upon by a Yorkist Longbow unit. It attempts to Counter-Charge in
// response (13.9), but rolls an 8 and fails. The Lancastrain Mounted
// Men-at-Arms is marked with a Counter-Charge Used marker. It may not now
// Counter-Charge if fired on by other missile units or attacked by
// Shock/Charge in the Shock Phase". CA1: die 8 against 5 or less, no DRM,
// fails; AN1's fire 0 +0 (range 2) −1 (MM) = −1, No Effect; BE1's fire at
// range 2 draws no roll: 0 −1, No Effect; in the Shock Phase AN2, moved
// next to it, Shocks with no Counter-Charge: die 5 −1 −1 = 3, Attacker
// Disordered.
func TestBloodAndRosesCounterChargeUsedExample(t *testing.T) {
	g := brMelee(t, 8, 0, 0, 5)
	g.troop("CA1", "0505", hex.FaceW, "MM")
	g.troop("AN1", "0305", hex.FaceE, "LB")
	g.troop("BE1", "0304", hex.FaceE, "LB")
	g.troop("AN2", "0306", hex.FaceE, "INF")
	g.send(0, "ACTIVATE Anna")
	evs := g.send(0, "FIRE AN1 AT CA1").Events
	cc, ok := counterCharged(evs)
	if !ok || cc.Mode != "fire" || cc.Roll.Die != 8 || cc.Roll.Total != 8 || len(cc.Roll.Mods) != 0 || cc.Max != 5 || cc.Success {
		t.Fatalf("Counter-Charge %+v, want 8 against 5 or less, failed:\n%s", cc, g.story(evs))
	}
	if !g.unit("CA1").CounterCharged {
		t.Error("CA1 carries no Counter-Charge Used marker (13.6)")
	}
	evs = g.send(0, "FIRE BE1 AT CA1").Events
	if _, ok := counterCharged(evs); ok {
		t.Errorf("a second Counter-Charge in one Activation (13.6):\n%s", g.story(evs))
	}
	g.send(0, "MOVE AN2 0406")
	evs = g.send(0, "SHOCK AN2 AT CA1\nEND").Events
	if _, ok := counterCharged(evs); ok {
		t.Errorf("a Counter-Charge against the Shock after the marker (13.6):\n%s", g.story(evs))
	}
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #3", "-1 10.4 #6"}, 3, "Shock", "Attacker Disordered or Retreat 1 Hex")
}

// blood-and-roses.md 13.9: "Resolve the missile fire, if the
// Counter-Charging unit is not Unhorsed by the fire, ... move the
// Counter-Charging unit adjacent to the firing/missile unit ... If the
// Counter-Charging unit is Unhorsed by the fire, the Counter-Charge ends
// immediately and the unit is left in its starting hex in its original
// facing" (14.3: "This does not apply to Counter-Charge against Fire").
// CA1 rolls 5, success; AN1's fire 8 +0 (range 2) −1 (MM) = 7: Unhorsed.
func TestBloodAndRosesCounterChargeFireUnhorsed(t *testing.T) {
	setup := func(g *game) {
		g.troop("CA1", "0505", hex.FaceW, "MM")
		g.troop("AN1", "0305", hex.FaceE, "LB")
		g.send(0, "ACTIVATE Anna")
	}
	g := brMelee(t, 5, 8)
	setup(g)
	evs := g.send(0, "FIRE AN1 AT CA1").Events
	lapse, ok := findEvent[engine.AttackLapsed](evs)
	if !ok || !strings.Contains(lapse.Reason, "Unhorsed") || len(resolved(evs)) != 0 {
		t.Fatalf("want the Counter-Charge to end, no attack:\n%s", g.story(evs))
	}
	if _, ok := findEvent[engine.ChargeMade](evs); ok {
		t.Errorf("the Unhorsed unit charged:\n%s", g.story(evs))
	}
	u := g.unit("CA1")
	if u.Hex != h(t, "0505") || u.Facing != hex.FaceW || u.Type != "UH" || u.Status != engine.Disordered {
		t.Errorf("CA1 %+v, want Unhorsed, Disordered, in 0505 facing W (13.9, 14.3)", u)
	}
	// Without the switch the Unhorsed unit carries its attack on foot, a
	// Shock: die 5, UH against LB +1, LB's Shock Defense +1: 7.
	g = brRules(t, func(r *engine.Rules) { r.CounterChargeFireUnhorsedEnds = false }, 5, 8, 5)
	setup(g)
	evs = g.send(0, "FIRE AN1 AT CA1").Events
	if atts := resolved(evs); len(atts) != 1 || !strings.HasPrefix(atts[0].Table, "Shock") {
		t.Errorf("without the switch: want one Shock by the Unhorsed CA1:\n%s", g.story(evs))
	}
}

// blood-and-roses.md 13.3 #5e iii: "Counter-Charges against Missile Fire:
// the target can be adjacent or any number of hexes may separate the
// Charging unit and the target unit". The Longbow AN1 fires from four
// hexes: −1 range, −1 MM, die 0: No Effect; CA1 (die 5, success) charges
// three hexes and attacks on the Charge Table: die 0, LB's Shock Defense
// +1, MM against LB +3: 4, Defender Disordered. Men of Iron's reach (one
// to three hexes, ruling R81) without the switch: no roll.
func TestBloodAndRosesCounterChargeFireAnyRange(t *testing.T) {
	setup := func(g *game) {
		g.troop("CA1", "0505", hex.FaceW, "MM")
		g.troop("AN1", "0105", hex.FaceE, "LB")
		g.send(0, "ACTIVATE Anna")
	}
	g := brMelee(t, 5, 0, 0)
	setup(g)
	evs := g.send(0, "FIRE AN1 AT CA1").Events
	cm, ok := findEvent[engine.ChargeMade](evs)
	if !ok || len(cm.Path) != 3 || g.sc.Map.Grid.Distance(cm.Path[2], h(t, "0105")) != 1 {
		t.Fatalf("want a three-hex Counter-Charge next to AN1:\n%s", g.story(evs))
	}
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "AN1", 0, []string{"+1 10.4 #3", "+3 10.4 #6"}, 4, "Charge", "Defender Disordered")
	g = brRules(t, func(r *engine.Rules) { r.CounterChargeFireAnyRange = false }, 0)
	setup(g)
	if _, ok := counterCharged(g.send(0, "FIRE AN1 AT CA1").Events); ok {
		t.Error("without counter_charge_fire_any_range: a Counter-Charge at four hexes")
	}
}

// blood-and-roses.md 14.5: "place it in a hex in or adjacent to its
// Standard ... If all hexes in or adjacent to its Standard are occupied by
// units or impassable terrain, it is Eliminated." The Mounted MAA AN2
// Shocks CA1: die 8 +2 (MM against INF) = 10, Defender Retired. Blue's
// Standard stands in the corner 1001, next to 0901 and 1002.
func TestBloodAndRosesRetireNextToStandard(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name     string
		occupied []string
		at       string // "" for Eliminated
	}{
		{"in the Standard's hex", nil, "1001"},
		{"next to it", []string{"1001", "1002"}, "0901"},
		{"all full: Eliminated", []string{"1001", "1002", "0901"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := brMelee(t, 8)
			g.troop("CA1", c, hex.FaceW, "INF")
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MM")
			for k, x := range tc.occupied {
				g.troop([]string{"CA2", "DO1", "DO2"}[k], x, hex.FaceW, "INF")
			}
			evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", 8, []string{"+2 10.4 #6"}, 10, "Shock", "Defender Retired, Continued Attack")
			u := g.unit("CA1")
			if tc.at == "" {
				el, ok := findEvent[engine.UnitEliminated](evs)
				if !ok || u.Status != engine.Eliminated || !strings.Contains(el.Cause, "Blood & Roses 14.5") {
					t.Errorf("CA1 %+v, want Eliminated citing 14.5:\n%s", u, g.story(evs))
				}
				return
			}
			if u.Status != engine.Retired || u.Hex != h(t, tc.at) {
				t.Errorf("CA1 %+v, want Retired in %s:\n%s", u, tc.at, g.story(evs))
			}
		})
	}
	// Without the switch, as close as it can: two hexes off.
	g := brRules(t, func(r *engine.Rules) { r.RetireNextToStandard = false }, 8)
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MM")
	for k, x := range []string{"1001", "1002", "0901"} {
		g.troop([]string{"CA2", "DO1", "DO2"}[k], x, hex.FaceW, "INF")
	}
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	if u := g.unit("CA1"); u.Status != engine.Retired || g.sc.Map.Grid.Distance(u.Hex, h(t, "1001")) != 2 {
		t.Errorf("without retire_next_to_standard: CA1 %+v, want Retired two hexes from its Standard:\n%s", u, g.story(evs))
	}
}

// blood-and-roses.md 16.2 Timed Engagement: "The timed player loses the
// battle if the time marker reaches the zero (0) space on the General
// Track. The non-timed player may Pass when he has a Free Activation and
// move the time marker one (1) space towards zero (0). This is the only
// way the time marker is moved." The Red are timed, the marker on 2: the
// Red's own Passes, and the Blue's Pass of a Continuation, move nothing;
// each Free Activation the Blue pass moves it one space; at 0 the Red
// lose.
func TestBloodAndRosesTimedEngagement(t *testing.T) {
	g := brMelee(t)
	g.sc.Rules.TimedEngagement = &engine.TimedEngagement{Timed: 0, Start: 2}
	moved := func(evs []engine.Event) int {
		n := 0
		for _, e := range evs {
			if _, ok := e.(engine.TimeMarkerMoved); ok {
				n++
			}
		}
		return n
	}
	step := func(side engine.Side, block string, want, left int) {
		t.Helper()
		evs := g.send(side, block).Events
		if moved(evs) != want || engine.TimeLeft(g.sc, g.st) != left {
			t.Fatalf("%s sends %q: %d moves, marker on %d; want %d, %d:\n%s", g.sc.SideName(side), block, moved(evs), engine.TimeLeft(g.sc, g.st), want, left, g.story(evs))
		}
	}
	step(0, "PASS", 0, 2) // the timed player's own Free Activation
	step(1, "PASS", 1, 1) // the Blue's Free Activation: 2 -> 1
	if g.st.Outcome != nil {
		t.Fatalf("the battle ended at 1: %+v", g.st.Outcome)
	}
	step(0, "ACTIVATE Anna\nEND", 0, 1)
	step(0, "PASS", 0, 1) // the Red give up their Continuation
	step(1, "ACTIVATE Carl\nEND", 0, 1)
	step(1, "PASS", 0, 1) // a Continuation passed: no move (16.2 "when he has a Free Activation")
	step(0, "PASS", 0, 1)
	evs := g.send(1, "PASS").Events
	if moved(evs) != 1 || g.st.Outcome == nil || g.st.Outcome.Winner != 1 || g.st.Outcome.Draw || !strings.Contains(g.st.Outcome.Reason, "16.2") {
		t.Fatalf("at 0 the timed Red lose: outcome %+v:\n%s", g.st.Outcome, g.story(evs))
	}
	g.refuse(0, "PASS", "16.0") // the battle is over
	// Without the battle rule no Pass moves anything.
	g = brMelee(t)
	if evs := g.send(0, "PASS").Events; moved(evs) != 0 || engine.TimeLeft(g.sc, g.st) != -1 {
		t.Errorf("a time marker in a battle that is not a Timed Engagement:\n%s", g.story(evs))
	}
}

// blood-and-roses.md 13.3, the rest of the list, as the engine already
// held it for Men of Iron 11.3, checked on Blood & Roses' tables. The
// Mounted MAA AN2 (0305, facing E) charges the Infantry CA1 (0505,
// facing W) through 0405 or 0406 unless a case says otherwise.
func TestBloodAndRosesChargeRestrictions(t *testing.T) {
	side := func(g *game, a, b, feature string) {
		g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, a), B: h(t, b), Feature: feature})
	}
	for _, tc := range []struct {
		name    string
		prepare func(g *game)
		block   string
		rule    string // "" when legal
		reason  string
	}{
		{"#1 Disordered", func(g *game) { g.st.Unit("AN2").Status = engine.Disordered }, "", "11.1", "Disordered"},
		{"#4 no line of sight", func(g *game) {
			g.sc.Map.Terrain[h(t, "0405")], g.sc.Map.Terrain[h(t, "0406")] = "woods", "woods"
		}, "", "11.3", "line of sight"},
		{"#2 adjacent from the Activation's start", func(g *game) { g.put("AN2", "0406", hex.FaceE) }, "", "11.1", "began the Activation next to an enemy unit"},
		{"#5e i three hexes between", func(g *game) { g.put("AN2", "0105", hex.FaceE) }, "", "11.3", "one or two hexes between"},
		{"#5f friendly units on the path", func(g *game) {
			g.troop("AN1", "0405", hex.FaceE, "INF")
			g.troop("BE1", "0406", hex.FaceE, "INF")
		}, "", "11.3", "on the path"},
		{"#5g a River", func(g *game) { side(g, "0405", "0505", "river"); side(g, "0406", "0505", "river") }, "", "11.3", "River"},
		{"#5g a Hedgerow", func(g *game) { side(g, "0405", "0505", "hedgerow"); side(g, "0406", "0505", "hedgerow") }, "", "11.3", "Hedgerow"},
		{"#5g a Stream (+1 MP, no Disorder) may be crossed", func(g *game) { side(g, "0405", "0505", "stream"); side(g, "0406", "0505", "stream") }, "", "", ""},
		{"#5h the target in Town", func(g *game) { g.sc.Map.Terrain[h(t, "0505")] = "town" }, "", "11.3", "Town"},
		{"#5h, #5i Marsh, where mounted units may not go", func(g *game) {
			g.sc.Map.Terrain[h(t, "0405")], g.sc.Map.Terrain[h(t, "0406")] = "marsh", "marsh"
		}, "", "11.3", "Marsh"},
		{"#5j a path shared", func(g *game) { g.troop("BE2", "0304", hex.FaceSE, "MM") },
			"CHARGE AN2 AT CA1 0405\nCHARGE BE2 AT CA1 0405\nEND", "11.3", "shares 0405"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := brMelee(t, 9, 9, 9)
			g.troop("CA1", "0505", hex.FaceW, "INF")
			g.troop("AN2", "0305", hex.FaceE, "MM")
			tc.prepare(g)
			g.send(0, "ACTIVATE Anna")
			block := tc.block
			if block == "" {
				block = "CHARGE AN2 AT CA1\nEND"
			}
			if tc.rule == "" {
				if atts := resolved(g.send(0, block).Events); len(atts) != 1 || !strings.HasPrefix(atts[0].Table, "Charge") {
					t.Errorf("want the Charge resolved on the Charge Table: %+v", atts)
				}
				return
			}
			if ill := g.refuse(0, block, tc.rule); !strings.Contains(ill.Error(), tc.reason) {
				t.Errorf("refusal %q does not say %q", ill, tc.reason)
			}
		})
	}
}

// blood-and-roses.md 14.1: "If the attacker has a choice of Disorder or
// Retreat, he may choose different effects for each attacking unit."
// AN1 and AN2, Infantry, Shock the Infantry CA1: die 1 +1 (Strength) = 2,
// "Attacker Disordered or Retreat 1 Hex" (ruling R267). The Red's STANDING
// ATTACKER RETREAT ALWAYS AN2 takes the Retreat for AN2; AN1 takes the
// default, the Disorder. Die 0 +1 = 1, "Attacker Disordered, Retreat 1
// Hex", is no choice: both suffer both.
func TestBloodAndRosesAttackerChoosesDisorderOrRetreat(t *testing.T) {
	c := "0505"
	setup := func(g *game) {
		g.troop("CA1", c, hex.FaceW, "INF")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "INF")
		g.send(0, "STANDING ATTACKER RETREAT ALWAYS AN2")
	}
	g := brMelee(t, 1)
	setup(g)
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 1, []string{"+1 10.4 #1"}, 2, "Shock", "Attacker Disordered or Retreat 1 Hex")
	if u := g.unit("AN1"); u.Status != engine.Disordered || u.Hex != h(t, g.nb(c, hex.NW)) {
		t.Errorf("AN1 %+v, want Disordered where it stood (its default choice)", u)
	}
	if u := g.unit("AN2"); u.Status != engine.Normal || g.sc.Map.Grid.Distance(u.Hex, h(t, c)) != 2 {
		t.Errorf("AN2 %+v, want in good order, retreated one hex from CA1 (its chosen Retreat)", u)
	}
	if s := g.story(evs); !strings.Contains(s, "Retreat chosen over Disorder (Blood & Roses 14.1)") || !strings.Contains(s, "Disorder chosen over Retreat (Blood & Roses 14.1)") {
		t.Errorf("the narrative does not give both choices:\n%s", s)
	}
	g = brMelee(t, 0)
	setup(g)
	evs = g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	wantAttack(t, resolved(evs)[0], "CA1", 0, []string{"+1 10.4 #1"}, 1, "Shock", "Attacker Disordered, Retreat 1 Hex")
	for _, id := range []string{"AN1", "AN2"} {
		if u := g.unit(id); u.Status != engine.Disordered || g.sc.Map.Grid.Distance(u.Hex, h(t, c)) != 2 {
			t.Errorf("%s %+v, want Disordered and retreated: no choice", id, u)
		}
	}
	// The choice is made as the results apply: it cannot wait for a mail.
	if _, err := engine.ParseOrders(engine.SplitLines("STANDING ATTACKER RETREAT ASK")); err == nil || !strings.Contains(err.Error(), "14.1") {
		t.Errorf("STANDING ATTACKER RETREAT ASK: %v, want refused citing 14.1", err)
	}
}

// blood-and-roses.md 14.8 Battle Flight (Optional), the battle's
// rules.battle_flight. Carl's Battle is CA1 (already Retired) and CA2;
// Anna's Mounted MAA AN2 Shocks CA2: die 8 +2 = 10, Defender Retired.
// At the end of the Activation Carl's Battle has lost 2 of its 2 units,
// more than half, and checks: "If the adjusted Battle Flight DR is 4 or
// less, the Battle flees", plus Carl's Charisma (1) while one of his units
// is in his Command Range. Fleeing, its Retired units are Eliminated and
// Carl leaves the field; an Overall Commander counts his 5 Flight Points
// (3.0). A Battle checks once. With no Battle left, a side loses.
func TestBloodAndRosesBattleFlight(t *testing.T) {
	setup := func(t *testing.T, flightDie int, edit func(g *game)) (*game, []engine.Event) {
		g := brMelee(t, 8, flightDie)
		g.sc.Rules.BattleFlight = true
		for k := range g.sc.Leaders {
			if g.sc.Leaders[k].ID == "carl" {
				g.sc.Leaders[k].Charisma = 1
			}
		}
		g.troop("CA1", "0909", hex.FaceW, "INF")
		g.st.Unit("CA1").Status = engine.Retired
		g.troop("CA2", "0505", hex.FaceW, "INF")
		g.troop("AN2", "0406", hex.FaceE, "MM")
		if edit != nil {
			edit(g)
		}
		return g, g.shockRound("SHOCK AN2 AT CA2\nEND")
	}
	flight := func(t *testing.T, evs []engine.Event, die, total int, flees bool) {
		t.Helper()
		bf, ok := findEvent[engine.BattleFlightRolled](evs)
		if !ok || bf.Command != "carl" || bf.Lost != 2 || bf.Start != 2 || bf.Roll.Die != die || bf.Roll.Total != total || bf.Max != 4 || bf.Flees != flees {
			t.Fatalf("Battle Flight %+v, want Carl's, 2 of 2 lost, %d -> %d against 4 or less: flees %v", bf, die, total, flees)
		}
	}
	t.Run("3 +1 Charisma = 4: it flees", func(t *testing.T) {
		g, evs := setup(t, 3, func(g *game) {
			for k := range g.sc.Leaders {
				if g.sc.Leaders[k].ID == "carl" {
					g.sc.Leaders[k].OC = true
				}
			}
		})
		flight(t, evs, 3, 4, true)
		for _, id := range []string{"CA1", "CA2"} {
			if u := g.unit(id); u.Status != engine.Eliminated {
				t.Errorf("%s %+v: a Retired unit of a fleeing Battle is Eliminated", id, u)
			}
		}
		if l := g.st.Leader("carl"); !l.Fled || !l.OffMap {
			t.Errorf("Carl %+v, want fled with his Battle", l)
		}
		// 1 + 1 for the two Infantry, 5 for the fleeing Overall Commander.
		if fp := engine.FlightPoints(g.sc, g.st, 1); fp != 7 {
			t.Errorf("the Blue's Flight Points %d, want 7", fp)
		}
		if g.st.Outcome != nil {
			t.Fatalf("Dora's Battle is still there: %+v", g.st.Outcome)
		}
		g.send(0, "PASS")
		g.refuse(1, "ACTIVATE Carl", "15.0")
	})
	t.Run("4 +1 = 5: it stands, and never checks again", func(t *testing.T) {
		g, evs := setup(t, 4, nil)
		flight(t, evs, 4, 5, false)
		if u := g.unit("CA2"); u.Status != engine.Retired {
			t.Errorf("CA2 %+v, want Retired, its Battle standing", u)
		}
		g.send(0, "PASS")
		// No die left: a second check would exhaust the script.
		if _, ok := findEvent[engine.BattleFlightRolled](g.send(1, "ACTIVATE Dora\nEND").Events); ok {
			t.Error("Carl's Battle checked twice")
		}
	})
	t.Run("Carl out of Command Range: 4, it flees", func(t *testing.T) {
		_, evs := setup(t, 4, func(g *game) {
			for k := range g.sc.Leaders {
				if g.sc.Leaders[k].ID == "carl" {
					g.sc.Leaders[k].Range = 1
				}
			}
			g.lead("carl", "0701")
		})
		flight(t, evs, 4, 4, true)
	})
	t.Run("the last Battle flees: the Blue lose", func(t *testing.T) {
		g, evs := setup(t, 3, func(g *game) {
			g.st.Unit("DO1").Status, g.st.Unit("DO2").Status = engine.Eliminated, engine.Eliminated
		})
		flight(t, evs, 3, 4, true)
		if o := g.st.Outcome; o == nil || o.Winner != 0 || o.Draw || !strings.Contains(o.Reason, "14.8") {
			t.Errorf("outcome %+v, want the Red to win (14.8)", o)
		}
	})
	t.Run("not a battle with Battle Flight: no roll", func(t *testing.T) {
		g := brMelee(t, 8)
		g.troop("CA1", "0909", hex.FaceW, "INF")
		g.st.Unit("CA1").Status = engine.Retired
		g.troop("CA2", "0505", hex.FaceW, "INF")
		g.troop("AN2", "0406", hex.FaceE, "MM")
		if _, ok := findEvent[engine.BattleFlightRolled](g.shockRound("SHOCK AN2 AT CA2\nEND")); ok {
			t.Error("Battle Flight without the battle's rule")
		}
	})
}

// The Activation's story names the enemy Mounted MAA that may not
// Counter-Charge, next to any unit of the active army, not only the
// activated Battle's (13.3 #3).
func TestBloodAndRosesAdjacentMAANamed(t *testing.T) {
	g := brMelee(t, 5, 5)
	e := engine.CommandEngaged{Command: "anna", InZOC: map[string][]string{"CA2": {"BE1"}, "CA1": {"AN1"}},
		At: map[string][]hex.Hex{"CA1": {g.st.Unit("AN1").Hex}, "CA2": {g.st.Unit("AN1").Hex}}}
	want := "As Anna's Activation begins, enemy Mounted MAA stand next to units of the Red, and may not Counter-Charge them: CA1, CA2 (Blood & Roses 13.3 #3)."
	if got := engine.Describe(g.sc, e); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
