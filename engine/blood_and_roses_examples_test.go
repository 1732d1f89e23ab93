package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The worked examples of blood-and-roses.md 5.4, 12.1 and 12.3 replayed
// through orders and scripted dice on Blood & Roses' own house tables
// (data/tables/blood-and-roses.yaml): every die, modifier, total and
// result asserted. 13.6's is TestBloodAndRosesCounterChargeUsedExample.
// (The same examples on a copy of Men of Iron's tables, before the
// volume had its own, are in volumes_shock_test.go.)

// blood-and-roses.md 12.1 EXAMPLE: "Three units in a line attack two
// defending units in a line. The attacker must choose to attack one
// defender with two units and the other with one unit, the middle unit
// cannot split its attack against both defenders." AN2 stands next to
// both Infantry; AN1 reaches only CA1, BE1 only CA2. Split 2 + 1: CA1 die
// 4 +1 (Strength, 2 to 1) = 5, Defender Disordered; CA2 die 2, Attacker
// Disordered (Infantry against Infantry 0 on the matrix, Shock Defense 0).
func TestBloodAndRosesThreeAgainstTwo(t *testing.T) {
	c := "0505"
	setup := func(g *game) {
		g.troop("CA1", c, hex.FaceW, "INF")
		g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "INF")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "INF")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "INF")
		g.troop("BE1", g.nb(c, hex.S, hex.SW), hex.FaceE, "INF")
	}
	g := brMelee(t)
	setup(g)
	g.send(0, "ACTIVATE Anna")
	ill := g.refuse(0, "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1 CA2\nSHOCK BE1 AT CA2\nEND", "10.1")
	if !strings.Contains(ill.Error(), "AN2") {
		t.Errorf("refusal %q does not name the middle unit AN2", ill)
	}
	g = brMelee(t, 4, 2)
	setup(g)
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nSHOCK BE1 AT CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 2 {
		t.Fatalf("%d attacks, want 2:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 4, []string{"+1 10.4 #1"}, 5, "Shock", "Defender Disordered")
	wantAttack(t, atts[1], "CA2", 2, nil, 2, "Shock", "Attacker Disordered or Retreat 1 Hex")
}

// blood-and-roses.md 12.3 item 1 EXAMPLE: "One Cavalry attacks two
// Infantry. There is a –1 Strength (Dis-)Advantage DRM to the Shock
// resolution against each Infantry." Cavalry against Infantry 0 on the
// matrix, Shock Defense 0: die 5 −1 = 4, No Effect; die 7 −1 = 6,
// Defender Disordered. Both rolls come before either result (Play Note:
// "the attacker will roll twice, each with a –1 DRM").
func TestBloodAndRosesCavalryAgainstTwoInfantry(t *testing.T) {
	c := "0505"
	g := brMelee(t, 5, 7)
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "INF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "CAV")
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

// blood-and-roses.md 12.3 item 1, second EXAMPLE: "A Mounted Men-at-Arms
// Shock attacks two Infantry. In resolving each defender separately, the
// Mounted Men-at-Arms gets a Continue Attack against the first, but is
// Disordered in the second combat. The Mounted Men-at-Arms must then
// Continue Attacking, but is Disordered." MM against INF +2, −1 Strength
// each. CA1 in the open: die 9 → 10, Defender Retired, Continued Attack.
// CA2 in Woods (−2 against mounted): die 3 → 2, Attacker Disordered. AN2
// advances into CA1's hex, keeping its facing, and attacks DO1 in its
// front: die 5 +2 −2 (Disordered, 12.3 #6A) −1 (its previous Shock Phase,
// 12.3 #8) = 4, No Effect.
func TestBloodAndRosesMountedMAAAgainstTwoInfantry(t *testing.T) {
	c := "0505"
	g := brMelee(t, 9, 3, 5)
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "INF")
	g.sc.Map.Terrain[h(t, g.nb(c, hex.S))] = "woods"
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MM")
	g.troop("DO1", g.nb(c, hex.NE), hex.FaceW, "INF")
	evs := g.shockRound("SHOCK AN2 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 3 {
		t.Fatalf("%d attacks, want 3:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 9, []string{"-1 10.4 #1", "+2 10.4 #6"}, 10, "Shock", "Defender Retired, Continued Attack")
	wantAttack(t, atts[1], "CA2", 3, []string{"-1 10.4 #1", "-2 10.4 #2B", "+2 10.4 #6"}, 2, "Shock", "Attacker Disordered or Retreat 1 Hex")
	wantAttack(t, atts[2], "DO1", 5, []string{"+2 10.4 #6", "-2 10.4 #7", "-1 12.7"}, 4, "Shock", "No Effect")
	if u := g.unit("AN2"); u.Hex != h(t, c) || u.Facing != hex.FaceE || u.Status != engine.Disordered {
		t.Errorf("AN2 %+v, want Disordered in %s, still facing E (12.4)", u, c)
	}
	if u := g.unit("CA1"); u.Status != engine.Retired || g.sc.Map.Grid.Distance(u.Hex, h(t, "1001")) > 1 {
		t.Errorf("CA1 %+v, want Retired in or next to its Standard in 1001 (14.5)", u)
	}
}

// blood-and-roses.md 12.3 item 5 EXAMPLE: "A Lancastrian Infantry (0) and
// Dismounted Men-at-Arms (+1) are attacking a Yorkist Infantry. The +1
// DRM would be used." Die 4 +1 (Strength, 2 to 1) +1 (the best matrix
// entry) = 6, Defender Disordered.
func TestBloodAndRosesBestWSMOfMixedAttackers(t *testing.T) {
	c := "0505"
	g := brMelee(t, 4)
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "DM")
	evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 4, []string{"+1 10.4 #1", "+1 10.4 #6"}, 6, "Shock", "Defender Disordered")
	if !strings.Contains(modText(atts[0].Roll.Mods), "DM against INF") {
		t.Errorf("matrix reason %s, want the Dismounted MAA's entry", modText(atts[0].Roll.Mods))
	}
}

// blood-and-roses.md 5.4: Charisma "is a DRM you use when any unit
// stacked with that leader is attacking in Shock or Charge combat. This
// applies even if the leader is not the leader of that unit's Battle.
// Example: Richard, Earl of Warwick, will give any unit he is stacked
// with a +1 DRM." 12.3 #4: "If a leader is stacked with an attacker".
// Warwick leads Bert's Battle and stands with AN1 of Anna's. Leaders are
// not units (5.0): one alone, or next to the attacker, or with the
// defender, adds nothing.
func TestBloodAndRosesWarwickCharisma(t *testing.T) {
	c := "0505"
	setup := func(g *game) {
		for k := range g.sc.Leaders {
			switch g.sc.Leaders[k].ID {
			case "bert":
				g.sc.Leaders[k].Name, g.sc.Leaders[k].Charisma = "Warwick", 1
			case "carl":
				g.sc.Leaders[k].Charisma = 2
			}
		}
		g.troop("CA1", c, hex.FaceW, "INF")
		g.lead("carl", c) // the defender's leader: no DRM for the defence
	}
	t.Run("Shock, stacked: +1", func(t *testing.T) {
		// Die 3 +1 = 4, No Effect.
		g := brMelee(t, 3)
		setup(g)
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
		g.lead("bert", g.nb(c, hex.NW))
		atts := resolved(g.shockRound("SHOCK AN1 AT CA1\nEND"))
		if len(atts) != 1 {
			t.Fatalf("%d attacks", len(atts))
		}
		wantAttack(t, atts[0], "CA1", 3, []string{"+1 10.4 #5, 12.3 #4"}, 4, "Shock", "No Effect")
		if !strings.Contains(modText(atts[0].Roll.Mods), "Warwick's Charisma") {
			t.Errorf("reasons %s, want Warwick's Charisma", modText(atts[0].Roll.Mods))
		}
	})
	t.Run("Charge, stacked: +1", func(t *testing.T) {
		// The Mounted MAA charges with Warwick: die 1 +1 +2 (MM against
		// INF) = 4 on the Charge Table, Defender Disordered; Warwick
		// rides with it.
		g := brMelee(t, 1, 9, 9)
		setup(g)
		g.troop("AN2", "0305", hex.FaceE, "MM")
		g.lead("bert", "0305")
		evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 {
			t.Fatalf("%d attacks:\n%s", len(atts), g.story(evs))
		}
		wantAttack(t, atts[0], "CA1", 1, []string{"+1 10.4 #5, 12.3 #4", "+2 10.4 #6"}, 4, "Charge", "Defender Disordered")
		if g.st.Leader("bert").Hex != g.unit("AN2").Hex {
			t.Errorf("Warwick in %s, AN2 in %s: he charges with it", g.st.Leader("bert").Hex, g.unit("AN2").Hex)
		}
	})
	t.Run("next to the attacker, not stacked: none", func(t *testing.T) {
		// Die 3, Attacker Disordered.
		g := brMelee(t, 3)
		setup(g)
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
		g.lead("bert", g.nb(c, hex.NW, hex.N))
		atts := resolved(g.shockRound("SHOCK AN1 AT CA1\nEND"))
		if len(atts) != 1 {
			t.Fatalf("%d attacks", len(atts))
		}
		wantAttack(t, atts[0], "CA1", 3, nil, 3, "Shock", "Attacker Disordered or Retreat 1 Hex")
	})
	t.Run("a leader alone neither attacks nor is attacked", func(t *testing.T) {
		g := brMelee(t, 3)
		setup(g)
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceE, "INF")
		g.lead("bert", g.nb(c, hex.SW)) // alone, next to CA1
		g.lead("dora", g.nb(c, hex.NW, hex.NE))
		g.send(0, "ACTIVATE Anna")
		g.refuse(0, "SHOCK Warwick AT CA1\nEND", "10.1")
		g.refuse(0, "SHOCK AN1 AT Dora\nEND", "10.1")
		// Dora alone in AN1's Frontal hex does not have to be attacked
		// (12.1 "enemy units"): the Shock on CA1 alone is whole.
		atts := resolved(g.send(0, "SHOCK AN1 AT CA1\nEND").Events)
		if len(atts) != 1 || atts[0].Defender != "CA1" {
			t.Fatalf("attacks %+v, want CA1's only", atts)
		}
	})
}
