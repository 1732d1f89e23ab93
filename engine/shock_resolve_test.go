package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// modRules lists an attack's modifiers as "+1 10.4 #1; -2 10.4 #7".
func modRules(r engine.AttackResolved) string {
	var out []string
	for _, m := range r.Roll.Mods {
		out = append(out, fmt.Sprintf("%+d %s", m.DRM, m.Rule))
	}
	return strings.Join(out, "; ")
}

// shockRound runs ACTIVATE Anna and the block, and returns the events of
// the block.
func (g *game) shockRound(block string) []engine.Event {
	g.t.Helper()
	g.send(0, "ACTIVATE Anna")
	return g.send(0, block).Events
}

func (g *game) story(evs []engine.Event) string {
	return strings.Join(narrative(g.sc, evs), "\n")
}

// TestOneAttackerTwoDefenders: 10.3 Example 1 and 2, 10.4 #1 Example. One
// Mounted MAA Shocks the two Longbows in its Frontal hexes: −1 Strength on
// both rolls, both rolled before any result applies; the first roll
// eliminates its defender with a Continued Attack, the second disorders
// the attacker, and the Continued Attack is made Disordered: −2, and −1
// for the previous attack (12.7).
func TestOneAttackerTwoDefenders(t *testing.T) {
	g := melee(t, 9, 0, 5)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "LB")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "LB") // in AN2's front once it stands in 0505
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 3 {
		t.Fatalf("%d attacks, want 3:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 9, []string{"-1 10.4 #1", "+1 10.4 #3", "+3 10.4 #6"}, 12, "Shock", "Defender Eliminated, Continued Attack")
	wantAttack(t, atts[1], "CA2", 0, []string{"-1 10.4 #1", "+1 10.4 #3", "+3 10.4 #6"}, 3, "Shock", "Attacker Disordered")
	wantAttack(t, atts[2], "DO1", 5, []string{"+1 10.4 #3", "+3 10.4 #6", "-2 10.4 #7", "-1 12.7"}, 6, "Shock", "Defender Disordered")
	// Both rolls come before either result (10.3 PLAY NOTE).
	order := []string{}
	for _, e := range evs {
		switch e := e.(type) {
		case engine.AttackResolved:
			order = append(order, "roll "+e.Defender)
		case engine.UnitEliminated:
			order = append(order, "eliminated "+e.Unit)
		case engine.UnitDisordered:
			order = append(order, "disordered "+e.Unit)
		}
	}
	if got := strings.Join(order, ", "); got != "roll CA1, roll CA2, eliminated CA1, disordered AN2, roll DO1, disordered DO1" {
		t.Errorf("order of events: %s", got)
	}
	if u := g.unit("AN2"); u.Hex != h(t, c) || u.Status != engine.Disordered {
		t.Errorf("AN2: %+v, want Disordered in %s: it advanced with its Continued Attack though Disordered (10.5)", u, c)
	}
}

// TestContinuedAttackChain: 12.7 "If any unit that has earned a Continued
// Attack obtains another Continued Attack result, conduct another Shock
// Phase ... until no unit earns a Continued Attack", each round −1 more.
// A Mounted MAA cuts through a column of four Longbows; its fifth round
// finds no enemy in front and lapses.
func TestContinuedAttackChain(t *testing.T) {
	g := melee(t, 9, 9, 9, 9)
	g.troop("AN2", "0502", hex.FaceSE, "MMAA") // Front: SE and S
	for k, id := range []string{"CA1", "CA2", "DO1", "DO2"} {
		g.troop(id, fmt.Sprintf("05%02d", 3+k), hex.FaceNE, "LB")
	}
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 4 {
		t.Fatalf("%d attacks, want 4:\n%s", len(atts), g.story(evs))
	}
	results := []string{"Defender Eliminated, Continued Attack", "Defender Eliminated, Continued Attack",
		"Defender Retired, Continued Attack", "Defender Retired, Continued Attack"}
	for k, a := range atts {
		mods := "+1 10.4 #3; +3 10.4 #6"
		if k > 0 {
			mods += fmt.Sprintf("; %+d 12.7", -k)
		}
		if got := modRules(a); got != mods || a.Result != results[k] || a.Round != k {
			t.Errorf("round %d: mods %s, %q; want %s, %q", k, got, a.Result, mods, results[k])
		}
	}
	var rounds []int
	for _, e := range evs {
		if r, ok := e.(engine.ShockRound); ok && r.Round > 0 {
			rounds = append(rounds, r.Round)
		}
	}
	if fmt.Sprint(rounds) != "[1 2 3 4]" {
		t.Errorf("Continued Attack rounds %v, want [1 2 3 4]", rounds)
	}
	if _, ok := findEvent[engine.AttackLapsed](evs); !ok {
		t.Errorf("the fifth round did not lapse:\n%s", g.story(evs))
	}
	if u := g.unit("AN2"); u.Status != engine.Normal || u.Hex != h(t, "0506") || u.Facing != hex.FaceSE {
		t.Errorf("AN2 after its last attack: %+v, want in 0506, facing SE as it began (12.7)", u)
	}
}

// TestChargeReluctance: 11.4. A Charge into the Front of a Pike rolls:
// 0–4 charges home, 5–9 balks and attacks by Shock without the Charge DRM;
// a hedge adds +1; a Charge into its Flank, or at Axes, rolls nothing.
func TestChargeReluctance(t *testing.T) {
	for _, c := range []struct {
		name      string
		facing    hex.Facing // of the Pike in 0505; the charger ends in 0405
		typ       string
		hedge     bool
		dice      []int
		rolls     bool
		table     string
		chargeDRM bool
	}{
		{"front, 4 charges", hex.FaceW, "PK", false, []int{4, 5}, true, "Charge", true},
		{"front, 7 balks", hex.FaceW, "PK", false, []int{7, 5}, true, "Shock", false},
		{"front, hedge: 4+1 balks", hex.FaceW, "PK", true, []int{4, 5}, true, "Shock", false},
		{"flank: no roll", hex.FaceSW, "PK", false, []int{5}, false, "Charge", true},
		{"axes: no roll", hex.FaceW, "AX", false, []int{5, 0}, false, "Charge", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := melee(t, c.dice...)
			g.troop("CA1", "0505", c.facing, c.typ)
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
			if c.hedge {
				g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, "0405"), B: h(t, "0505"), Feature: "hedge"})
			}
			evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
			_, rolled := findEvent[engine.ChargeReluctance](evs)
			atts := resolved(evs)
			if rolled != c.rolls || len(atts) == 0 || !strings.HasPrefix(atts[0].Table, c.table) ||
				strings.Contains(modRules(atts[0]), "11.2") != c.chargeDRM {
				t.Errorf("reluctance rolled %v, attacks %+v\n%s", rolled, atts, g.story(evs))
			}
		})
	}
}

// TestChargeDisorderedByReactionFire: 9.2 a Charge draws Reaction Fire;
// 11.3 "If a Charging unit is Disordered during its Charge, the attack is
// resolved as a Shock attack against the original target".
func TestChargeDisorderedByReactionFire(t *testing.T) {
	g := melee(t, 5, 5)
	g.troop("CA1", "0505", hex.FaceSW, "PK")
	g.troop("DO1", "0504", hex.FaceSW, "LB") // its Front: 0505 and 0405, where the Charge ends
	g.troop("AN2", "0304", hex.FaceE, "MMAA")
	evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
	fired, ok := findEvent[engine.UnitFired](evs)
	lost, lostOK := findEvent[engine.ChargeLost](evs)
	atts := resolved(evs)
	if !ok || !fired.Reaction || !lostOK || lost.Unit != "AN2" || len(atts) != 1 || !strings.HasPrefix(atts[0].Table, "Shock") ||
		!strings.Contains(modRules(atts[0]), "-2 10.4 #7") {
		t.Errorf("want Reaction Fire, the Charge lost, a Shock with -2:\n%s", g.story(evs))
	}
}

// TestUnhorsedAndHeight: a Charge up a slope at a Pike on higher ground:
// +2 Charge, -1 slope (10.4 #2B), -1 height (10.4 #2C); a 0 gives 0 on the
// Charge Table: "Attacker Unhorsed" (12.5), an Unhorsed MAA in Disorder.
func TestUnhorsedAndHeight(t *testing.T) {
	g := melee(t, 2, 0)
	g.troop("CA1", "0505", hex.FaceW, "PK")
	g.troop("AN2", "0304", hex.FaceE, "MMAA")
	g.sc.Map.Elevation[h(t, "0505")] = 1
	g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, "0405"), B: h(t, "0505"), Feature: "slope"})
	evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%s", g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 0, []string{"-1 10.4 #2B", "-1 10.4 #2C", "+2 10.4 #4, 11.2"}, 0, "Charge", "Attacker Unhorsed")
	if u := g.unit("AN2"); u.Type != "UMAA" || u.Status != engine.Disordered {
		t.Errorf("AN2: %+v, want an Unhorsed MAA, Disordered (12.5)", u)
	}
}

// TestLeadersInMelee: 15.3 a leader with a charging Mounted MAA adds +1;
// 15.4 a leader stacked with a unit that receives a Disordered, Retired or
// Eliminated result rolls the die minus his Activation Rating, 3 or more
// is killed; he survives a 2.
func TestLeadersInMelee(t *testing.T) {
	g := melee(t, 6, 6, 5)
	g.troop("CA1", "0505", hex.FaceSW, "PK") // the Charge comes through its Flank: no reluctance
	g.troop("AN2", "0304", hex.FaceE, "MMAA")
	g.lead("anna", "0304")
	g.lead("carl", "0505")
	evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) == 0 || !strings.Contains(modRules(atts[0]), "+1 10.4 #5, 15.3") {
		t.Fatalf("want the leader's +1:\n%s", g.story(evs))
	}
	var checks []engine.LeaderCasualtyRolled
	for _, e := range evs {
		if c, ok := e.(engine.LeaderCasualtyRolled); ok {
			checks = append(checks, c)
		}
	}
	// 6 +2 flank +2 charge +1 leader = 11: Defender Disordered, Retreat 1
	// Hex, Continued Attack; Carl (AR 3) rolls 6 - 3 = 3: killed.
	if len(checks) != 1 || checks[0].Leader != "carl" || checks[0].Roll.Total != 3 || !checks[0].Killed {
		t.Errorf("leader checks %+v\n%s", checks, g.story(evs))
	}
}

// TestAttackerResultsApplyToAll: 10.3 "any negative combat results apply
// to all attacking units".
func TestAttackerResultsApplyToAll(t *testing.T) {
	g := melee(t, 1)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
	g.troop("BE1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
	evs := g.shockRound("SHOCK AN1 AT CA1\nSHOCK BE1 AT CA1\nEND")
	if a := resolved(evs); len(a) != 1 || a[0].Result != "Attacker Disordered" {
		t.Fatalf("%s", g.story(evs))
	}
	for _, id := range []string{"AN1", "BE1"} {
		if g.unit(id).Status != engine.Disordered {
			t.Errorf("%s: %v, want Disordered", id, g.unit(id).Status)
		}
	}
}

// TestPositionAndDefenseDRMs: 10.4 #2A rear +3, two sides +4 (not
// cumulative), #2B the terrain most favourable to the defender, #8 a
// Retired defender +2 on the Disordered column, #9 Shield Wall −1 through
// its Front.
func TestPositionAndDefenseDRMs(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name    string
		prepare func(g *game)
		block   string
		mods    string
		column  string
	}{
		{"rear", func(g *game) {
			g.troop("AN1", g.nb(c, hex.NE), hex.FaceSW, "DMAA")
		}, "SHOCK AN1 AT CA1", "+3 10.4 #2A; +1 10.4 #6", "normal"},
		{"front and rear", func(g *game) {
			g.troop("AN1", g.nb(c, hex.NE), hex.FaceSW, "DMAA")
			g.troop("BE1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
		}, "SHOCK AN1 AT CA1\nSHOCK BE1 AT CA1", "+1 10.4 #1; +4 10.4 #2A; +1 10.4 #6", "normal"},
		{"stream for one attacker", func(g *game) {
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
			g.troop("BE1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
			g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(g.t, g.nb(c, hex.SW)), B: h(g.t, c), Feature: "stream"})
		}, "SHOCK AN1 AT CA1\nSHOCK BE1 AT CA1", "+1 10.4 #1; -1 10.4 #2B; +1 10.4 #6", "normal"},
		{"retired", func(g *game) {
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
			g.st.Unit("CA1").Status = engine.Retired
		}, "SHOCK AN1 AT CA1", "+2 10.4 #3; +1 10.4 #6; +2 10.4 #8, 12.4", "disordered"},
		{"shield wall", func(g *game) {
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
			g.st.Unit("CA1").ShieldWall = true
		}, "SHOCK AN1 AT CA1", "+1 10.4 #6; -1 10.4 #9, 14.1", "normal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := melee(t, 4)
			g.troop("CA1", c, hex.FaceW, "AX") // Shock Defense +1 only on the Disordered side here
			g.sc.Units[g.index("CA1")].Ratings.Shock = 0
			tc.prepare(g)
			evs := g.shockRound(tc.block + "\nEND")
			a := resolved(evs)
			if len(a) != 1 || modRules(a[0]) != tc.mods || a[0].Column != tc.column {
				t.Errorf("got %s\nwant mods %s, column %s", g.story(evs), tc.mods, tc.column)
			}
		})
	}
}

// TestAdvanceAfterCombat: 10.5 the attacker must advance into the vacated
// hex, a Charging unit first, then a Mounted one, then one in good order;
// a Disordered unit without a Continued Attack may not.
func TestAdvanceAfterCombat(t *testing.T) {
	c := "0505"
	t.Run("mounted before foot", func(t *testing.T) {
		g := melee(t, 7)
		g.troop("CA1", c, hex.FaceW, "PK")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
		g.troop("BE2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
		evs := g.shockRound("SHOCK AN1 AT CA1\nSHOCK BE2 AT CA1\nEND")
		adv, ok := findEvent[engine.UnitAdvanced](evs)
		if !ok || adv.Unit != "BE2" || adv.To != h(t, c) {
			t.Errorf("advance %+v, want BE2 into %s:\n%s", adv, c, g.story(evs))
		}
	})
	t.Run("disordered stays", func(t *testing.T) {
		g := melee(t, 9)
		g.troop("CA1", c, hex.FaceW, "PK")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "DMAA")
		g.st.Unit("AN1").Status = engine.Disordered
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if a := resolved(evs); len(a) != 1 || !strings.Contains(a[0].Result, "Retreat") {
			t.Fatalf("%s", g.story(evs))
		}
		if _, ok := findEvent[engine.UnitAdvanced](evs); ok {
			t.Errorf("a Disordered unit without a Continued Attack advanced:\n%s", g.story(evs))
		}
	})
}

// TestStandardCapturedByAdvance: 13.2 "Standards may be captured by the
// enemy, if an enemy combat unit enters a hex occupied solely by the
// Standard ... Eliminate all currently Retired units".
func TestStandardCapturedByAdvance(t *testing.T) {
	g := melee(t, 9)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "LB")
	g.troop("CA2", "0909", hex.FaceW, "LB")
	g.st.Unit("CA2").Status = engine.Retired
	g.st.Standards[1].Hex = h(t, c)
	g.troop("AN2", g.nb(c, hex.NW), hex.FaceSE, "MMAA")
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	if _, ok := findEvent[engine.StandardCaptured](evs); !ok || !g.st.Standards[1].Captured {
		t.Fatalf("no capture:\n%s", g.story(evs))
	}
	if g.unit("CA2").Status != engine.Eliminated {
		t.Errorf("the Retired CA2 survived the loss of its Standard:\n%s", g.story(evs))
	}
}

// TestRetreatThroughMissileInfantryChecksLeaders: 12.3 a unit whose
// retreat is blocked retreats through a friendly missile unit, which is
// Retired if it was Disordered, and "Any leader stacked with the Retired
// missile unit must make a Leader Casualty Check (15.4) as if the unit
// suffered a Retire result from Shock combat".
func TestRetreatThroughMissileInfantryChecksLeaders(t *testing.T) {
	g := melee(t, 7, 6)
	g.troop("CA1", "0505", hex.FaceW, "PK")
	g.troop("AN1", "0405", hex.FaceSE, "DMAA")
	g.troop("BE1", "0406", hex.FaceE, "DMAA")
	g.troop("CA2", "0605", hex.FaceW, "LB")
	g.st.Unit("CA2").Status = engine.Disordered
	g.troop("DO1", "0606", hex.FaceW, "PK")
	g.lead("carl", "0605")
	evs := g.shockRound("SHOCK AN1 AT CA1\nSHOCK BE1 AT CA1\nEND")
	ret, _ := findEvent[engine.UnitRetreated](evs)
	if len(ret.Path) != 2 || ret.Path[0] != h(t, "0605") || g.unit("CA2").Status != engine.Retired {
		t.Fatalf("want CA1 through CA2, CA2 Retired:\n%s", g.story(evs))
	}
	c, ok := findEvent[engine.LeaderCasualtyRolled](evs)
	if !ok || c.Leader != "carl" || c.Roll.Total != 3 || !c.Killed {
		t.Errorf("leader check %+v:\n%s", c, g.story(evs))
	}
}

// TestCaptureOnTheMove: 13.2 a unit moving into the hex of an enemy
// Standard standing alone captures it; 15.5 a leader alone in a hex a
// unit enters goes to the nearest unit of his Command.
func TestCaptureOnTheMove(t *testing.T) {
	g := melee(t)
	g.troop("AN2", "0303", hex.FaceE, "MMAA")
	g.troop("CA1", "0909", hex.FaceW, "LB")
	g.st.Standards[1].Hex = h(t, "0403")
	g.lead("carl", "0503")
	g.send(0, "ACTIVATE Anna")
	evs := g.send(0, "MOVE AN2 0403 0503").Events
	if _, ok := findEvent[engine.StandardCaptured](evs); !ok || !g.st.Standards[1].Captured {
		t.Errorf("no capture:\n%s", g.story(evs))
	}
	if p, ok := findEvent[engine.LeaderPlaced](evs); !ok || p.Leader != "carl" || p.To != h(t, "0909") {
		t.Errorf("Carl %+v, want him with CA1 in 0909:\n%s", p, g.story(evs))
	}
}
