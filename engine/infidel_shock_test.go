package engine_test

import (
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// infidelMelee is the melee fixture (Anna's and Bert's units against Carl's
// and Dora's, every leader with a long Command Range) on Infidel's own
// house tables, data/tables/infidel.yaml.
func infidelMelee(t *testing.T, dice ...int) *game {
	t.Helper()
	g := melee(t, dice...)
	tb, err := data.Tables("infidel")
	if err != nil {
		t.Fatal(err)
	}
	g.sc.Tables, g.sc.Volume = tb, tb.Volume
	return g
}

// retreatRoll is the Light Cavalry's die after it retreated (Infidel 12.2).
func retreatRoll(t *testing.T, e engine.RetreatedBeforeShock, die, total int, disordered bool) {
	t.Helper()
	if e.Roll == nil {
		t.Fatalf("%s retreated without a roll, want die %d", e.Unit, die)
	}
	r := *e.Roll
	if r.Die != die || r.Total != total || len(r.Mods) != 1 || r.Mods[0].DRM != +2 || r.Mods[0].Rule != "Infidel 12.2" || e.Disordered != disordered {
		t.Errorf("%s retreat roll %+v, Disordered %v; want die %d +2 (its own Shock Defense, Infidel 12.2) = %d, Disordered %v",
			e.Unit, r, e.Disordered, die, total, disordered)
	}
}

// TestInfidelLightCavalryRetreatBeforeShock: "Light Cavalry, that are not
// Disordered, may Retreat Before Shock or Charge if attacked by Knights,
// Heavy Cavalry, or Medium Cavalry by moving one hex away from the
// attacking unit and then rolling the die, adjusting the DR by the
// Retreating unit's Defensive DRM rating. If the adjusted DR is 5 or
// less, the Retreat has no negative effect. If the adjusted DR is 6 or
// more, the unit retreats but is Disordered" (Infidel 12.2). The LC\A's
// Shock Defense is +2.
func TestInfidelLightCavalryRetreatBeforeShock(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name       string
		attacker   string
		die, total int
		disordered bool
	}{
		{"from Heavy Cavalry, 3+2 = 5: unharmed", "HC", 3, 5, false},
		{"from Knights, 4+2 = 6: Disordered", "KN", 4, 6, true},
		{"from Medium Cavalry Archers as Medium Cavalry (R170), 0+2 = 2", "MCA", 0, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelMelee(t, tc.die)
			g.troop("CA1", c, hex.FaceW, "LCA")
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, tc.attacker)
			g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
			evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
			rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
			if !ok || len(resolved(evs)) != 0 {
				t.Fatalf("want a Retreat Before Shock and no attack:\n%s", g.story(evs))
			}
			retreatRoll(t, rbs, tc.die, tc.total, tc.disordered)
			want := engine.Normal
			if tc.disordered {
				want = engine.Disordered
			}
			if u := g.unit("CA1"); u.Status != want || g.sc.Map.Grid.Distance(u.Hex, h(t, g.nb(c, hex.SW))) != 2 {
				t.Errorf("CA1 %+v, want %v one hex away from AN2:\n%s", u, want, g.story(evs))
			}
			if !strings.Contains(g.story(evs), "(Infidel 12.2)") {
				t.Errorf("the narrative does not cite Infidel 12.2:\n%s", g.story(evs))
			}
		})
	}
	t.Run("asked, then answered by mail", func(t *testing.T) {
		g := infidelMelee(t, 5)
		g.troop("CA1", c, hex.FaceW, "LCA")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "KN")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ASK")
		g.shockRound("SHOCK AN2 AT CA1\nEND")
		legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
		if !strings.Contains(legal, "RETREAT BEFORE SHOCK CA1 0605") {
			t.Fatalf("legal answers:\n%s", legal)
		}
		g.refuse(1, "RETREAT BEFORE SHOCK CA1 0404", "10.2") // toward the Knights
		evs := g.send(1, "RETREAT BEFORE SHOCK CA1 0605 FACE E").Events
		rbs, _ := findEvent[engine.RetreatedBeforeShock](evs)
		retreatRoll(t, rbs, 5, 7, true)
	})
	// Who may not: a Disordered LC\A (14.2), a Knight (only Light
	// Cavalry, 12.2), an LC\A attacked by another LC\A (not in the list).
	for _, tc := range []struct {
		name, def, att string
		status         engine.Status
	}{
		{"Disordered Light Cavalry", "LCA", "HC", engine.Disordered},
		{"Knights", "KN", "HC", engine.Normal},
		{"from Light Cavalry", "LCA", "LCA", engine.Normal},
	} {
		t.Run("not: "+tc.name, func(t *testing.T) {
			g := infidelMelee(t, 5, 5, 5)
			g.troop("CA1", c, hex.FaceW, tc.def)
			g.st.Unit("CA1").Status = tc.status
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, tc.att)
			g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
			evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
			if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok || len(resolved(evs)) != 1 {
				t.Errorf("want the attack resolved and no retreat:\n%s", g.story(evs))
			}
		})
	}
	// "There is no penalty for mounted units retreating before shock
	// against dismounted units, unlike in Men of Iron Vol I" (12.2 Design
	// Note): Heavy Cavalry attacked by Men-at-Arms fall back, no die, not
	// Disordered.
	t.Run("from foot: no penalty, no die", func(t *testing.T) {
		g := infidelMelee(t)
		g.troop("CA1", c, hex.FaceW, "HC")
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "MA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
		if !ok || rbs.Roll != nil || rbs.Disordered || g.unit("CA1").Status != engine.Normal || len(resolved(evs)) != 0 {
			t.Errorf("want the Heavy Cavalry back one hex, no roll, not Disordered:\n%s", g.story(evs))
		}
	})
	// Men of Iron's own tables are unchanged: no mounted unit may
	// Retreat Before Shock from a mounted attacker (10.2).
	t.Run("Men of Iron: not from mounted attackers", func(t *testing.T) {
		g := melee(t, 5)
		g.troop("CA1", c, hex.FaceW, "GEN")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok {
			t.Errorf("a Men of Iron mounted unit retreated from mounted attackers:\n%s", g.story(evs))
		}
	})
}

// TestInfidelKnightsNeverRetire: "Knights never Retire (see 14.4).
// Whenever a Knight suffers a Retire result it is Retreated (14.3)
// instead" (Infidel 16.1). A Heavy Cavalry Shocks a Disordered Knight:
// die 9, −1 (HC against KN on the matrix), −2 (the Knight's Disordered
// Shock Defense) = 6, "Defender Retired": the Knight retreats one hex. The
// same roll against a Disordered Heavy Cavalry (0, 0) = 9... is not
// Retire; a 5 is, and it Retires.
func TestInfidelKnightsNeverRetire(t *testing.T) {
	c := "0505"
	t.Run("a Knight retreats", func(t *testing.T) {
		g := infidelMelee(t, 9, 0)
		g.troop("CA1", c, hex.FaceW, "KN")
		g.st.Unit("CA1").Status = engine.Disordered
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "HC")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) == 0 {
			t.Fatalf("no attack:\n%s", g.story(evs))
		}
		wantAttack(t, atts[0], "CA1", 9, []string{"-2 10.4 #3", "-1 10.4 #6"}, 6, "Shock", "Defender Retired")
		if _, ok := findEvent[engine.UnitRetired](evs); ok {
			t.Errorf("the Knight Retired:\n%s", g.story(evs))
		}
		r, ok := findEvent[engine.UnitRetreated](evs)
		if !ok || r.Unit != "CA1" || len(r.Path) != 1 {
			t.Fatalf("want the Knight Retreated one hex:\n%s", g.story(evs))
		}
		if u := g.unit("CA1"); u.Status != engine.Disordered || u.Hex == h(t, c) {
			t.Errorf("CA1 %+v, want Disordered out of %s", u, c)
		}
	})
	t.Run("Heavy Cavalry Retires", func(t *testing.T) {
		g := infidelMelee(t, 5)
		g.troop("CA1", c, hex.FaceW, "HC")
		g.st.Unit("CA1").Status = engine.Disordered
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "HC")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) == 0 {
			t.Fatalf("no attack:\n%s", g.story(evs))
		}
		wantAttack(t, atts[0], "CA1", 5, nil, 5, "Shock", "Defender Retired")
		if _, ok := findEvent[engine.UnitRetired](evs); !ok {
			t.Errorf("the Heavy Cavalry did not Retire:\n%s", g.story(evs))
		}
	})
}

// TestInfidelNoDisorderedSide: "If there is no reverse side, the unit
// cannot be Disordered (and is, instead, Retired)" (Infidel 2.2, 14.2):
// Camp Followers (ruling R173). A Heavy Cavalry Shocks them: die 0, +3
// (their Shock Defense), +4 (HC against CF) = 7, "Defender Disordered,
// Retreat 1 Hex": they Retire, and do not also retreat.
func TestInfidelNoDisorderedSide(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 0)
	g.troop("CA1", c, hex.FaceW, "CF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "HC")
	evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) == 0 {
		t.Fatalf("no attack:\n%s", g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 0, []string{"+3 10.4 #3", "+4 10.4 #6"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
	r, ok := findEvent[engine.UnitRetired](evs)
	if !ok || !strings.Contains(r.Cause, "no Disordered side") {
		t.Fatalf("want the Camp Followers Retired for want of a Disordered side:\n%s", g.story(evs))
	}
	if _, ok := findEvent[engine.UnitDisordered](evs); ok {
		t.Errorf("a unit with no Disordered side was Disordered:\n%s", g.story(evs))
	}
	if _, ok := findEvent[engine.UnitRetreated](evs); ok {
		t.Errorf("the Retired unit retreated too:\n%s", g.story(evs))
	}
}

// TestInfidelRetirePlacement: "place it as close to its Standard as you
// can ... unless that unit is unable to trace a route to the Standard not
// blocked by enemy units and impassable terrain (but not ZOC) ... The hex
// chosen must not be adjacent to the enemy units that caused the Retire
// result" (Infidel 14.4). Carl's Standard stands next to the attacker:
// on Infidel's tables the Retired unit goes to the nearest hex clear of
// it, on Men of Iron's into the Standard's hex (12.4). A Standard in an
// enemy ZOC: Infidel reaches it, Men of Iron eliminates the unit.
func TestInfidelRetirePlacement(t *testing.T) {
	c := "0505"
	setup := func(g *game, typ string) string {
		g.troop("CA1", c, hex.FaceW, typ)
		g.st.Unit("CA1").Status = engine.Disordered
		att := g.nb(c, hex.SW)
		g.troop("AN2", att, hex.FaceE, typ)
		std := g.nb(att, hex.S)
		g.st.Standard("blue-std").Hex = h(t, std)
		return std
	}
	t.Run("Infidel: clear of the attacker", func(t *testing.T) {
		g := infidelMelee(t, 5)
		std := setup(g, "HC")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		r, ok := findEvent[engine.UnitRetired](evs)
		if !ok {
			t.Fatalf("no Retire:\n%s", g.story(evs))
		}
		grid := g.sc.Map.Grid
		if grid.Distance(r.To, g.st.Unit("AN2").Hex) < 2 || grid.Distance(r.To, h(t, std)) != 1 {
			t.Errorf("Retired to %s, want a hex next to the Standard in %s and not next to AN2 in %s", r.To, std, g.st.Unit("AN2").Hex)
		}
	})
	t.Run("Men of Iron: the Standard's hex", func(t *testing.T) {
		g := melee(t, 9)
		std := setup(g, "MMAA")
		g.send(1, "STANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		r, ok := findEvent[engine.UnitRetired](evs)
		if !ok || r.To != h(t, std) {
			t.Errorf("want CA1 Retired into the Standard's hex %s:\n%s", std, g.story(evs))
		}
	})
	// BE1, a missile unit of Anna's side, stands next to the Standard,
	// moved to 0909, with it in its Frontal hexes: in its ZOC.
	zoc := func(g *game, typ string) {
		std := h(t, "0909")
		g.st.Standard("blue-std").Hex = std
		at := g.sc.Map.Grid.Neighbor(std, hex.N)
		for f := hex.FaceE; f <= hex.FaceSE; f++ {
			if fr := g.sc.Map.Grid.FrontalHexes(at, f); fr[0] == std || fr[1] == std {
				g.troop("BE1", at.String(), f, typ)
				return
			}
		}
		t.Fatal("no facing puts 0909 in front of BE1")
	}
	t.Run("Infidel: through an enemy ZOC", func(t *testing.T) {
		g := infidelMelee(t, 5)
		setup(g, "HC")
		zoc(g, "A")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		if r, ok := findEvent[engine.UnitRetired](evs); !ok || r.To != h(t, "0909") {
			t.Errorf("want CA1 Retired into its Standard's hex 0909 (14.4: a ZOC does not block):\n%s", g.story(evs))
		}
	})
	t.Run("Men of Iron: an enemy ZOC blocks", func(t *testing.T) {
		g := melee(t, 9)
		setup(g, "MMAA")
		zoc(g, "LB")
		g.send(1, "STANDING COUNTER-CHARGE NEVER")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		if e, ok := findEvent[engine.UnitEliminated](evs); !ok || e.Unit != "CA1" {
			t.Errorf("want CA1 Eliminated (12.4: its Standard is in an enemy ZOC):\n%s", g.story(evs))
		}
	})
}

// The Shock and Charge examples of Infidel 12.1, 12.3 and 13.5, replayed
// on Infidel's own tables (they were played on a copy of Men of Iron's
// before infidel.yaml existed): every die, modifier, total and result.

// infidel.md 12.1: "Three units attack two defending units. The attacker
// must choose to attack one defender with two units and the other with 1
// unit, the middle unit cannot split its attack against both defenders."
// AN2 stands next to both Pikes; AN1 reaches only CA1, BE1 only CA2.
func TestInfidelThreeAgainstTwo(t *testing.T) {
	c := "0505"
	setup := func(g *game) {
		g.troop("CA1", c, hex.FaceW, "PK")
		g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "PK")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "MA")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MA")
		g.troop("BE1", g.nb(c, hex.S, hex.SW), hex.FaceE, "MA")
	}
	g := infidelMelee(t)
	setup(g)
	g.send(0, "ACTIVATE Anna")
	ill := g.refuse(0, "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1 CA2\nSHOCK BE1 AT CA2\nEND", "10.1")
	if !strings.Contains(ill.Error(), "AN2") {
		t.Errorf("refusal %q does not name the middle unit AN2", ill)
	}
	// Two with one, one alone: MA against PK +1 on the matrix, the Pike's
	// Shock Defense 0. CA1: die 4 +1 (Strength 2 to 1) +1 = 6, Defender
	// Disordered; CA2: die 2 +1 = 3, Attacker Disordered.
	g = infidelMelee(t, 4, 2)
	setup(g)
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nSHOCK BE1 AT CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("%d attacks, want 2:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 4, []string{"+1 10.4 #1", "+1 10.4 #6"}, 6, "Shock", "Defender Disordered")
	wantAttack(t, atts[1], "CA2", 2, []string{"+1 10.4 #6"}, 3, "Shock", "Attacker Disordered")
}

// infidel.md 12.3 item 1: "One Heavy Cavalry unit attacks two infantry
// units. There is a -1 Strength (Dis-)Advantage DRM to the Shock
// resolution for each infantry unit." Two Pikes (Shock Defense 0, HC
// against PK 0 on the matrix): die 5 -1 = 4, No Effect; die 7 -1 = 6,
// Defender Disordered.
func TestInfidelOneAgainstTwo(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 5, 7)
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "PK")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "HC")
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("%d attacks, want 2:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 5, []string{"-1 10.4 #1"}, 4, "Shock", "No Effect")
	wantAttack(t, atts[1], "CA2", 7, []string{"-1 10.4 #1"}, 6, "Shock", "Defender Disordered")
	if !strings.Contains(modText(atts[0].Roll.Mods), "1 unit against 2") {
		t.Errorf("Strength reason %s, want 1 unit against 2", modText(atts[0].Roll.Mods))
	}
}

// infidel.md 12.3 item 1, second example: "A Knight unit Shock attacks
// two LC. In resolving each defender separately, the Knight gets a
// Continue Attack against the first, but is Disordered in the second
// combat. The Knight must then Continue Attacking, but is Disordered."
// KN against LC\A +3 on the matrix, the LC\A's Shock Defense +2, −1
// Strength each. CA1 in the open: die 8 → 12, Defender Eliminated,
// Continued Attack. CA2 in Woods (−2 against mounted): die 0 → 2, Attacker
// Disordered. The Knight advances into CA1's hex and attacks DO1, an LC\A
// now in its front: die 5 +2 +3 −2 (Disordered) −1 (its previous attack)
// = 7, Defender Disordered, Retreat 1 Hex.
func TestInfidelKnightAgainstTwoLightCavalry(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 8, 0, 5)
	g.troop("CA1", c, hex.FaceW, "LCA")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "LCA")
	g.sc.Map.Terrain[h(t, g.nb(c, hex.S))] = "woods"
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "KN")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "LCA")
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 3 {
		t.Fatalf("%d attacks, want 3:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 8, []string{"-1 10.4 #1", "+2 10.4 #3", "+3 10.4 #6"}, 12, "Shock", "Defender Eliminated, Continued Attack")
	wantAttack(t, atts[1], "CA2", 0, []string{"-1 10.4 #1", "-2 10.4 #2B", "+2 10.4 #3", "+3 10.4 #6"}, 2, "Shock", "Attacker Disordered")
	wantAttack(t, atts[2], "DO1", 5, []string{"+2 10.4 #3", "+3 10.4 #6", "-2 10.4 #7", "-1 12.7"}, 7, "Shock", "Defender Disordered, Retreat 1 Hex")
	if u := g.unit("AN2"); u.Hex != h(t, c) || u.Status != engine.Disordered {
		t.Errorf("the Knight %+v, want Disordered in %s", u, c)
	}
}

// infidel.md 12.3 item 3: "A Templar Knight is attacked by two Ayyubid
// Medium Cavalry from the front. The Knight's Shock Defense Rating is -3,
// which is added to the strength advantage the Ayyubid have. This makes
// the cumulative modifier 1 + (-3) = -2!" Infidel's matrix adds MC
// against KN −2: die 6 +1 −3 −2 = 2, Attacker Disordered.
func TestInfidelTemplarShockDefense(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 6)
	g.troop("CA1", c, hex.FaceW, "KN")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "MC")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MC")
	g.send(1, "STANDING COUNTER-CHARGE NEVER") // the Knight stands
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 6, []string{"+1 10.4 #1", "-3 10.4 #3", "-2 10.4 #6"}, 2, "Shock", "Attacker Disordered")
}

// infidel.md 12.3 item 5: "A Fatimid Pike Infantry (0) and a Sudanese
// Archer with Flails (+1) are attacking a Crusader Pike Infantry. The +1
// DRM would be used." Die 3 +1 (Strength) +1 (AF against PK) = 5,
// Defender Disordered.
func TestInfidelBestWSMOfMixedAttackers(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 3)
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "PK")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "AF")
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 3, []string{"+1 10.4 #1", "+1 10.4 #6"}, 5, "Shock", "Defender Disordered")
	if !strings.Contains(modText(atts[0].Roll.Mods), "AF against PK") {
		t.Errorf("WSM reason %s, want AF against PK", modText(atts[0].Roll.Mods))
	}
}

// infidel.md 13.5: "A Saracen Heavy Cavalry with a Defender DRM of -1
// rolls a '7' when checking for Reluctance. The DRM of -1 adjusts that to
// a '6', so he completes his Charge. If he had rolled an '8', he would
// have to use the Shock Table, instead." Knights never roll (16.1). The
// attack on the Pike (HC against PK 0, Shock Defense 0): die 5 on the
// Charge Table, Defender Disordered, Retreat 1 Hex; on the Shock Table,
// Defender Disordered. 12.3 #6 and 13.4: a Knight that moved before its
// Charge takes −1: die 5 −1 = 4, Defender Disordered.
func TestInfidelChargeReluctance(t *testing.T) {
	for _, tc := range []struct {
		name           string
		typ            string
		move           string
		dice           []int
		rolled, charge bool
		mods           []string
		total          int
		table, result  string
	}{
		{"HC rolls 7: 6 charges", "HC", "", []int{7, 5}, true, true, nil, 5, "Charge", "Defender Disordered, Retreat 1 Hex"},
		{"HC rolls 8: 7 balks", "HC", "", []int{8, 5}, true, false, nil, 5, "Shock", "Defender Disordered"},
		{"Knights never balk", "KN", "", []int{5}, false, true, nil, 5, "Charge", "Defender Disordered, Retreat 1 Hex"},
		{"Knights that moved: -1", "KN", "0204", []int{5}, false, true, []string{"-1 10.4 #4, 11.2"}, 4, "Charge", "Defender Disordered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelMelee(t, tc.dice...)
			g.troop("CA1", "0505", hex.FaceW, "PK")
			at := "0304"
			if tc.move != "" {
				at = tc.move
			}
			g.troop("AN2", at, hex.FaceE, tc.typ)
			g.send(0, "ACTIVATE Anna")
			if tc.move != "" {
				g.send(0, "MOVE AN2 0304")
			}
			evs := g.send(0, "CHARGE AN2 AT CA1\nEND").Events
			rel, rolled := findEvent[engine.ChargeReluctance](evs)
			if rolled != tc.rolled {
				t.Fatalf("Reluctance rolled: %v, want %v:\n%s", rolled, tc.rolled, g.story(evs))
			}
			if rolled && (rel.Charges != tc.charge || rel.Max != 6 || rel.Roll.Die != tc.dice[0] || rel.Roll.Total != tc.dice[0]-1 ||
				len(rel.Roll.Mods) != 1 || rel.Roll.Mods[0].DRM != -1 || rel.Roll.Mods[0].Rule != "Infidel 13.5") {
				t.Errorf("Reluctance %+v, want die %d -1 (own Shock Defense) = %d, 6 or less charges: %v", rel, tc.dice[0], tc.dice[0]-1, tc.charge)
			}
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			die := tc.dice[len(tc.dice)-1]
			wantAttack(t, atts[0], "CA1", die, tc.mods, tc.total, tc.table, tc.result)
		})
	}
}

// infidel.md 13.7: a Counter-Charge against a Charge succeeds on an
// adjusted 3 or less, the Heavy Cavalry's own Shock Defense −1 added
// (13.7): die 4 −1 = 3 succeeds, die 5 −1 = 4 fails.
func TestInfidelCounterChargeAgainstACharge(t *testing.T) {
	for die, want := range map[int]bool{4: true, 5: false} {
		g := infidelMelee(t, die, 5, 5)
		g.troop("CA1", "0505", hex.FaceW, "HC")
		g.troop("AN2", "0304", hex.FaceE, "KN")
		evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
		cc, ok := counterCharged(evs)
		if !ok || cc.Mode != "charge" || cc.Max != 3 || cc.Roll.Die != die || cc.Roll.Total != die-1 || cc.Success != want {
			t.Errorf("die %d: Counter-Charge %+v, want %d -1 = %d against 3 or less: %v:\n%s", die, cc, die, die-1, want, g.story(evs))
		}
	}
}

// TestInfidelKnightsMustCounterChargeFire: "For Knights, this inducement
// is automatic ... If the player does not want his Knight to
// Counter-Charge and its Command leader is in Command Range (see 5.2), he
// must roll one die, from which he subtracts the Command leader's
// Activation Rating. If the adjusted DR is 3 or less, no Counter-Charge
// takes place. If the adjusted DR is 4 or more, the Knight
// Counter-Charges" (Infidel 13.9); 16.1: never Out of Command "except for
// purposes of Charge Reaction to enemy missile fire". The Archers AN1 fire
// at the Knights CA1 two hexes away; Carl (Activation Rating 3) leads CA1.
// Not wanting it is STANDING COUNTER-CHARGE NEVER (or STAND when asked).
func TestInfidelKnightsMustCounterChargeFire(t *testing.T) {
	for _, tc := range []struct {
		name     string
		typ      string
		standing string
		rng      int    // Carl's Command Range
		dice     []int  // restraint (if any), Counter-Charge, fire...
		restrain string // "" none rolled, "held", "fails", "out of range"
		charges  bool   // the Counter-Charge DR is rolled
	}{
		{"wanted: no restraint roll", "KN", "ALWAYS", 20, []int{9, 0, 0, 0, 0, 0, 0}, "", true},
		{"restrained: 6 -3 = 3 holds it", "KN", "NEVER", 20, []int{6, 0, 0, 0, 0, 0}, "held", false},
		{"not restrained: 7 -3 = 4 charges", "KN", "NEVER", 20, []int{7, 9, 0, 0, 0, 0, 0}, "fails", true},
		{"out of Command Range: cannot be held", "KN", "NEVER", 1, []int{9, 0, 0, 0, 0, 0, 0}, "out of range", true},
		{"Heavy Cavalry: voluntary", "HC", "NEVER", 20, []int{0, 0, 0, 0}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelMelee(t, tc.dice...)
			for k := range g.sc.Leaders {
				if g.sc.Leaders[k].ID == "carl" {
					g.sc.Leaders[k].Range = tc.rng
				}
			}
			g.troop("CA1", "0505", hex.FaceW, tc.typ)
			g.troop("AN1", "0305", hex.FaceE, "A")
			g.send(1, "STANDING COUNTER-CHARGE "+tc.standing)
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "FIRE AN1 AT CA1").Events
			r, rolled := findEvent[engine.KnightsRestrained](evs)
			switch tc.restrain {
			case "":
				if rolled {
					t.Errorf("a restraint where none is due: %+v", r)
				}
			case "out of range":
				if !rolled || r.Roll != nil || r.Held {
					t.Errorf("restraint %+v, want none possible out of Command Range:\n%s", r, g.story(evs))
				}
			default:
				die := tc.dice[0]
				if !rolled || r.Roll == nil || r.Roll.Die != die || r.Roll.Total != die-3 || len(r.Roll.Mods) != 1 ||
					r.Roll.Mods[0].DRM != -3 || r.Roll.Mods[0].Rule != "Infidel 13.9" || r.Max != 3 || r.Held != (tc.restrain == "held") {
					t.Errorf("restraint %+v, want die %d -3 (Carl's Activation Rating) = %d against 3 or less:\n%s", r, die, die-3, g.story(evs))
				}
			}
			if _, ok := counterCharged(evs); ok != tc.charges {
				t.Errorf("Counter-Charge rolled %v, want %v:\n%s", ok, tc.charges, g.story(evs))
			}
		})
	}
	// Knights are never Out of Command otherwise (16.1): far from Anna,
	// whose Command Range is 1 here, AN2 is not listed when she
	// activates; Heavy Cavalry there is.
	for typ, want := range map[string]bool{"KN": false, "HC": true} {
		g := infidelMelee(t)
		for k := range g.sc.Leaders {
			if g.sc.Leaders[k].ID == "anna" {
				g.sc.Leaders[k].Range = 1
			}
		}
		g.troop("AN2", "0505", hex.FaceW, typ)
		evs := g.send(0, "ACTIVATE Anna").Events
		tr, _ := findEvent[engine.CommandTraced](evs)
		if got := strings.Contains(strings.Join(tr.OutOfCommand, " "), "AN2"); got != want {
			t.Errorf("%s far from Anna Out of Command: %v, want %v:\n%s", typ, got, want, g.story(evs))
		}
	}
}

// TestInfidelLightCavalryRetreatBeforeCounterCharge: a Light Cavalry
// Archer that fired at Knights and is Counter-Charged rolls on the
// Counter-Charge band: "If the adjusted DR is 3 or less, the Retreat has
// no negative effect. If the adjusted DR is 4-7 or more, the unit
// Retreats but is Disordered. If the adjusted DR is an 8 or more, there is
// no Retreat allowed ... resolve the Charge" (Infidel 12.2, 13.9). Dice:
// the Knights' Counter-Charge DR 0 (−3 = −3, 4 or less succeeds), the
// fire, then after it the LC\A's retreat die (+2, its Shock Defense).
func TestInfidelLightCavalryRetreatBeforeCounterCharge(t *testing.T) {
	for _, tc := range []struct {
		name       string
		die, total int
		retreats   bool
		disordered bool
	}{
		{"1+2 = 3: unharmed", 1, 3, true, false},
		{"5+2 = 7: Disordered", 5, 7, true, true},
		{"6+2 = 8: no retreat, the Charge resolved", 6, 8, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelMelee(t, 0, 0, tc.die, 5, 0, 0, 0)
			g.troop("CA1", "0505", hex.FaceW, "KN")
			g.troop("AN1", "0305", hex.FaceE, "LCA")
			g.send(0, "STANDING RETREAT BEFORE SHOCK ALWAYS")
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "FIRE AN1 AT CA1").Events
			if cc, ok := counterCharged(evs); !ok || !cc.Success {
				t.Fatalf("want a successful Counter-Charge:\n%s", g.story(evs))
			}
			rbs, retreated := findEvent[engine.RetreatedBeforeShock](evs)
			barred, isBarred := findEvent[engine.RetreatBarred](evs)
			if retreated != tc.retreats || isBarred == tc.retreats {
				t.Fatalf("retreated %v, barred %v; want retreat %v:\n%s", retreated, isBarred, tc.retreats, g.story(evs))
			}
			if tc.retreats {
				retreatRoll(t, rbs, tc.die, tc.total, tc.disordered)
				if len(resolved(evs)) != 0 {
					t.Errorf("the Counter-Charge was resolved on a unit that retreated:\n%s", g.story(evs))
				}
				return
			}
			if barred.Roll.Die != tc.die || barred.Roll.Total != tc.total || barred.Max != 7 || g.unit("AN1").Hex != h(t, "0305") {
				t.Errorf("barred %+v, AN1 in %s; want die %d = %d over 7, AN1 still in 0305", barred, g.unit("AN1").Hex, tc.die, tc.total)
			}
			if len(resolved(evs)) != 1 {
				t.Errorf("want the Charge resolved:\n%s", g.story(evs))
			}
		})
	}
}

// TestInfidelVictoryPoints: "The battle of Arsuf uses Victory Points to
// determine the winner, rather than the standard Flight Points" (Infidel
// 2.4). Herald's rule R176: each side scores its enemy's Flight Points at
// the end of each Free Activation, instead of Loss Checks; win_at wins at
// once, last_activation ends the battle. Carl's Heavy Cavalry CA1 is
// Eliminated: 3 points to the Red.
func TestInfidelVictoryPoints(t *testing.T) {
	for _, tc := range []struct {
		name      string
		vp        engine.VictoryPoints
		killed    bool
		over      bool
		winner    engine.Side
		draw      bool
		reasonHas string
	}{
		{"3 at win_at 3: the Red win", engine.VictoryPoints{WinAt: 3}, true, true, 0, false, "3 or more"},
		{"3 below win_at 4: the battle goes on", engine.VictoryPoints{WinAt: 4, LastActivation: 5}, true, false, 0, false, ""},
		{"last Activation, 3 to 0: the Red win", engine.VictoryPoints{LastActivation: 1}, true, true, 0, false, "last Activation"},
		{"last Activation, 0 to 0: a draw", engine.VictoryPoints{LastActivation: 1}, false, true, 0, true, "a draw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := infidelMelee(t)
			vp := tc.vp
			g.sc.Rules.VictoryPoints = &vp
			g.troop("CA1", "0505", hex.FaceW, "HC")
			if tc.killed {
				g.st.Unit("CA1").Status = engine.Eliminated
			}
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "END").Events
			if _, ok := findEvent[engine.LossCheckRolled](evs); ok {
				t.Errorf("a Loss Check in a battle by Victory Points:\n%s", g.story(evs))
			}
			c, ok := findEvent[engine.VictoryPointsCounted](evs)
			want := [2]int{0, 0}
			if tc.killed {
				want[0] = 3
			}
			if !ok || c.Points != want || c.Activation != 1 {
				t.Fatalf("Victory Points %+v, want %v after Activation 1:\n%s", c, want, g.story(evs))
			}
			end, ended := findEvent[engine.GameEnded](evs)
			if ended != tc.over {
				t.Fatalf("battle over %v, want %v:\n%s", ended, tc.over, g.story(evs))
			}
			if ended && (end.Outcome.Draw != tc.draw || !tc.draw && end.Outcome.Winner != tc.winner || !strings.Contains(end.Outcome.Reason, tc.reasonHas)) {
				t.Errorf("outcome %+v, want winner %v draw %v, reason with %q", end.Outcome, tc.winner, tc.draw, tc.reasonHas)
			}
		})
	}
}

// TestInfidelArchersWithFlails: "The Sudanese Archers with Flails may fire
// as regular Archers. Unlike regular Archers, they may also use (and
// defend ...) Shock attack, using the AF column/row on the Weapons Matrix.
// However, If they Fire when Activated, they may not Shock attack, and
// vice versa. If they use Reaction Fire, they must defend against Shock
// attacks against them in that Activation as Archers" (Infidel 16.2).
func TestInfidelArchersWithFlails(t *testing.T) {
	c := "0505"
	t.Run("fire or Shock, not both", func(t *testing.T) {
		g := infidelMelee(t, 0, 0, 0, 0)
		g.troop("CA1", c, hex.FaceW, "PK")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "AF")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "A")
		g.send(0, "ACTIVATE Anna")
		if legal := strings.Join(engine.Legal(g.sc, g.st), "\n"); !strings.Contains(legal, "SHOCK AN2 AT CA1") || strings.Contains(legal, "SHOCK AN1") {
			t.Errorf("before any fire the AF may Shock, plain Archers never (12.1):\n%s", legal)
		}
		g.refuse(0, "SHOCK AN1 AT CA1", "10.1")
		g.send(0, "FIRE AN2 AT CA1")
		if legal := strings.Join(engine.Legal(g.sc, g.st), "\n"); strings.Contains(legal, "SHOCK AN2") {
			t.Errorf("the AF that fired is offered a Shock:\n%s", legal)
		}
		g.refuse(0, "SHOCK AN2 AT CA1", "Infidel 16.2")
	})
	// Die 3, +1 (the AF's Shock Defense): against a reacting AF the Men-at-
	// Arms use the A column (+2), else the AF column (+1).
	for _, tc := range []struct {
		name   string
		react  string
		wsm    string
		total  int
		result string
	}{
		{"after Reaction Fire, as Archers", "ALWAYS", "MA against A", 6, "Defender Disordered"},
		{"without it, as Archers with Flails", "NEVER", "MA against AF", 5, "Defender Disordered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dice := []int{3} // the Shock
			if tc.react == "ALWAYS" {
				dice = []int{0, 3} // the Reaction Fire (0 +1 = 1, No Effect), the Shock
			}
			g := infidelMelee(t, dice...)
			g.troop("CA1", c, hex.FaceW, "AF")
			g.troop("AN1", g.nb(c, hex.SW, hex.SW), hex.FaceNE, "MA")
			g.send(1, "STANDING REACTION FIRE "+tc.react)
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "MOVE AN1 "+g.nb(c, hex.SW)).Events
			_, reacted := findEvent[engine.UnitFired](evs)
			if reacted != (tc.react == "ALWAYS") {
				t.Fatalf("Reaction Fire %v, want %v:\n%s", reacted, tc.react == "ALWAYS", g.story(evs))
			}
			evs = g.send(0, "SHOCK AN1 AT CA1\nEND").Events
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			drm := map[string]int{"MA against A": +2, "MA against AF": +1}[tc.wsm]
			wantAttack(t, atts[0], "CA1", 3, []string{"+1 10.4 #3", signed(drm) + " 10.4 #6"}, tc.total, "Shock", tc.result)
			if !strings.Contains(modText(atts[0].Roll.Mods), tc.wsm) {
				t.Errorf("WSM reason %s, want %s", modText(atts[0].Roll.Mods), tc.wsm)
			}
		})
	}
}

// TestInfidelPikeJavelineers: "The Bedouin Pike Infantry Javelineers may
// move, throw their javelins and attack/defend as Pike Infantry all in the
// same Activation" (Infidel 16.3). AN2 moves next to the Pike CA1, throws
// (die 0 +1 at range 1 = 1, No Effect), then Shocks it (die 5, PKJ
// against PK 0, the Pike's 0: 5, Defender Disordered).
func TestInfidelPikeJavelineers(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 0, 5)
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN2", g.nb(c, hex.SW, hex.SW), hex.FaceNE, "PKJ")
	g.send(0, "ACTIVATE Anna")
	g.send(0, "MOVE AN2 "+g.nb(c, hex.SW))
	evs := g.send(0, "FIRE AN2 AT CA1").Events
	f, ok := findEvent[engine.UnitFired](evs)
	if !ok || f.Roll.Die != 0 || f.Roll.Total != 1 || f.Result != "No Effect" {
		t.Fatalf("javelins %+v, want die 0 +1 = 1, No Effect:\n%s", f, g.story(evs))
	}
	evs = g.send(0, "SHOCK AN2 AT CA1\nEND").Events
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 5, nil, 5, "Shock", "Defender Disordered")
}

// TestInfidelRetreatBeforeAContinuedAttack: "Retreat Before Combat
// applies to any attack, including a Continued Attack" (Infidel 12.2;
// ruling R178). As in TestInfidelKnightAgainstTwoLightCavalry, the Knight
// wins a Continued Attack (die 8 → 12) and is Disordered (die 0 → 2);
// DO1, whose owner said STANDING RETREAT BEFORE SHOCK ASK for it, falls
// back before the Knight's Continued Attack and rolls 2 +2 = 4: unharmed.
// The other two stood (NEVER, the default).
func TestInfidelRetreatBeforeAContinuedAttack(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 8, 0, 2)
	g.troop("CA1", c, hex.FaceW, "LCA")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "LCA")
	g.sc.Map.Terrain[h(t, g.nb(c, hex.S))] = "woods"
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "KN")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "LCA")
	g.send(1, "STANDING RETREAT BEFORE SHOCK ASK DO1")
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	if atts := resolved(evs); len(atts) != 2 {
		t.Fatalf("%d attacks, want the two of the first round only:\n%s", len(atts), g.story(evs))
	}
	rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
	if !ok || rbs.Unit != "DO1" {
		t.Fatalf("want DO1 to Retreat Before the Continued Attack:\n%s", g.story(evs))
	}
	retreatRoll(t, rbs, 2, 4, false)
	// Men of Iron's tables (no retreat_before_continued) keep 10.2 to Step 2.
	g = infidelMelee(t, 8, 0, 5)
	tb := *g.sc.Tables
	tb.Rules.RetreatBeforeContinued = false
	g.sc.Tables = &tb
	g.troop("CA1", c, hex.FaceW, "LCA")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "LCA")
	g.sc.Map.Terrain[h(t, g.nb(c, hex.S))] = "woods"
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "KN")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "LCA")
	g.send(1, "STANDING RETREAT BEFORE SHOCK ASK DO1")
	evs = g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok || len(resolved(evs)) != 3 {
		t.Errorf("without the switch DO1 must stand the Continued Attack:\n%s", g.story(evs))
	}
}

// TestInfidelWhoCharges: "Only Knights and Heavy Cavalry can Charge"
// (Infidel 13.1); "Disordered Knights and Heavy Cavalry may not Charge;
// they may still Shock without a Charge." Medium Cavalry and a Disordered
// Knight are refused; a Knight charges.
func TestInfidelWhoCharges(t *testing.T) {
	for _, tc := range []struct {
		typ    string
		status engine.Status
		ok     bool
	}{
		{"KN", engine.Normal, true}, {"HC", engine.Normal, true},
		{"MC", engine.Normal, false}, {"MCA", engine.Normal, false}, {"KN", engine.Disordered, false},
	} {
		g := infidelMelee(t, 9, 9, 9)
		g.troop("CA1", "0505", hex.FaceW, "MC") // no Reluctance against it, no Counter-Charge from it
		g.troop("AN2", "0304", hex.FaceE, tc.typ)
		g.st.Unit("AN2").Status = tc.status
		g.send(0, "ACTIVATE Anna")
		if !tc.ok {
			ill := g.refuse(0, "CHARGE AN2 AT CA1", "11.1")
			if !strings.Contains(ill.Error(), "AN2") {
				t.Errorf("%s %v: refusal %q does not name AN2", tc.typ, tc.status, ill)
			}
			continue
		}
		evs := g.send(0, "CHARGE AN2 AT CA1\nEND").Events
		if atts := resolved(evs); len(atts) != 1 || !strings.HasPrefix(atts[0].Table, "Charge") {
			t.Errorf("%s: want one attack on the Charge Table:\n%s", tc.typ, g.story(evs))
		}
	}
}

// TestInfidelNoHeightAdvantage: Infidel's Shock DRMs (12.3) have no Height
// Advantage: a Pike on higher ground than the Men-at-Arms attacking it
// gives no DRM (shock_drm.height 0). Die 4, MA against PK +1: 5.
func TestInfidelNoHeightAdvantage(t *testing.T) {
	c := "0505"
	g := infidelMelee(t, 4)
	g.sc.Map.Elevation[h(t, c)] = 1
	g.troop("CA1", c, hex.FaceW, "PK")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "MA")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 4, []string{"+1 10.4 #6"}, 5, "Shock", "Defender Disordered")
}

// TestInfidelCounterChargeThresholds: Heavy Cavalry add their own Shock
// Defense (−1) and succeed on 4 or less against a Shock (13.8), when it
// costs the attacker −2, and against fire (13.9); 3 or less against a
// Charge (13.7, TestInfidelCounterChargeAgainstACharge).
func TestInfidelCounterChargeThresholds(t *testing.T) {
	for die, want := range map[int]bool{5: true, 6: false} {
		g := infidelMelee(t, die, 5)
		g.troop("CA1", "0505", hex.FaceW, "HC")
		g.troop("AN1", g.nb("0505", hex.SW), hex.FaceE, "MC")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		cc, ok := counterCharged(evs)
		if !ok || cc.Mode != "shock" || cc.Max != 4 || cc.Roll.Total != die-1 || cc.Success != want {
			t.Errorf("Shock, die %d: %+v, want %d -1 against 4 or less: %v", die, cc, die, want)
		}
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
		}
		// MC against HC −1 on the matrix, the HC's Shock Defense −1; −2
		// when the Counter-Charge succeeded.
		mods, total := []string{"-1 10.4 #3", "-1 10.4 #6"}, 3
		if want {
			mods, total = []string{"-1 10.4 #3", "-1 10.4 #6", "-2 11.6"}, 1
		}
		wantAttack(t, atts[0], "CA1", 5, mods, total, "Shock", atts[0].Result)
	}
	for die, want := range map[int]bool{5: true, 6: false} {
		g := infidelMelee(t, die, 0, 0, 0, 0, 0, 0)
		g.troop("CA1", "0505", hex.FaceW, "HC")
		g.troop("AN1", "0305", hex.FaceE, "A")
		g.send(0, "ACTIVATE Anna")
		evs := g.send(0, "FIRE AN1 AT CA1").Events
		cc, ok := counterCharged(evs)
		if !ok || cc.Mode != "fire" || cc.Max != 4 || cc.Roll.Total != die-1 || cc.Success != want {
			t.Errorf("fire, die %d: %+v, want %d -1 against 4 or less: %v:\n%s", die, cc, die, want, g.story(evs))
		}
	}
}

// TestInfidelKnightsRestraintAsked: under STANDING COUNTER-CHARGE ASK the
// fire at Knights waits for their owner; STAND is his wish to hold them,
// so it rolls their restraint (Infidel 13.9; ruling R172): die 2 −3 = −1,
// held, and the fire is resolved with no Counter-Charge.
func TestInfidelKnightsRestraintAsked(t *testing.T) {
	g := infidelMelee(t, 2, 0)
	g.troop("CA1", "0505", hex.FaceW, "KN")
	g.troop("AN1", "0305", hex.FaceE, "A")
	g.send(1, "STANDING COUNTER-CHARGE ASK CA1")
	g.send(0, "ACTIVATE Anna")
	g.send(0, "FIRE AN1 AT CA1")
	if legal := strings.Join(engine.Legal(g.sc, g.st), "\n"); !strings.Contains(legal, "COUNTER-CHARGE CA1") || !strings.Contains(legal, "STAND CA1") {
		t.Fatalf("the Knights' owner is not asked:\n%s", legal)
	}
	evs := g.send(1, "STAND CA1").Events
	r, ok := findEvent[engine.KnightsRestrained](evs)
	if !ok || r.Roll == nil || r.Roll.Die != 2 || r.Roll.Total != -1 || !r.Held {
		t.Errorf("restraint %+v, want die 2 -3 = -1, held:\n%s", r, g.story(evs))
	}
	if _, ok := counterCharged(evs); ok {
		t.Errorf("held Knights Counter-Charged:\n%s", g.story(evs))
	}
	if _, ok := findEvent[engine.UnitFired](evs); !ok {
		t.Errorf("the fire was not resolved:\n%s", g.story(evs))
	}
}
