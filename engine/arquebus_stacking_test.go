package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus stacking (arquebus.md 10.0–10.3; rules.stacking and the
// pass_through lists of data/tables/arquebus.yaml; rulings R312,
// R360–R369), through orders and scripted dice. No enemy is near unless a
// test says so: each moving unit walks a column of clear hexes, a0 to a4,
// going north.

type column []string

func arqColumn(g *game) column {
	c := column{"0508"}
	for k := 1; k < 5; k++ {
		c = append(c, g.nb(c[k-1], hex.N))
	}
	return c
}

// gun places unlimbered (or limbered) Artillery.
func (g *game) gun(id, at string, f hex.Facing, typ string, limbered bool) {
	g.t.Helper()
	g.troop(id, at, f, typ)
	g.st.Unit(id).Limbered = limbered
}

// 10.0 "A non-Pike, non-Artillery foot unit may stack with an unlimbered
// Artillery unit"; 10.1 the unit that stacks faces as its partner (R362).
func TestArquebusStackWithUnlimberedArtillery(t *testing.T) {
	g := arqMelee(t)
	a := arqColumn(g)
	g.troop("AN1", a[0], hex.FaceNE, "AQ")
	g.gun("AN2", a[2], hex.FaceNW, "FAL", false)
	g.send(red, "ACTIVATE Anna\nMOVE AN1 "+a[1]+" "+a[2])
	u := g.unit("AN1")
	if u.Hex.String() != a[2] || u.Facing != hex.FaceNW || g.lastMove().MP != 2 {
		t.Errorf("AN1 %+v, move %+v: want stacked in %s facing NW for 2 MP", u, g.lastMove(), a[2])
	}
	if gun := g.unit("AN2"); gun.Hex.String() != a[2] || gun.Facing != hex.FaceNW {
		t.Errorf("AN2 %+v moved", gun)
	}
}

// 10.1 "they must always face the same direction": a MOVE that would
// stack facing another way is refused; a FACE turns the stack (R362).
func TestArquebusStackFacesAlike(t *testing.T) {
	g := arqMelee(t)
	a := arqColumn(g)
	g.troop("AN1", a[0], hex.FaceNE, "AQ")
	g.gun("AN2", a[1], hex.FaceNW, "FAL", false)
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+a[1]+" FACE NE", "Arquebus 10.1")
	if !strings.Contains(e.Reason, "FACE NW") {
		t.Errorf("refusal %q does not name the partner's facing", e.Reason)
	}
	if u := g.unit("AN1"); u.Hex.String() != a[0] {
		t.Errorf("refused move changed AN1: %+v", u)
	}
	g.send(red, "MOVE AN1 "+a[1]+" FACE NW")
	g.send(red, "FACE AN2 W")
	if g.unit("AN1").Facing != hex.FaceW || g.unit("AN2").Facing != hex.FaceW {
		t.Errorf("FACE AN2 W: AN1 %s, AN2 %s, want both W", g.unit("AN1").Facing, g.unit("AN2").Facing)
	}
	if f, ok := findEvent[engine.UnitFaced](g.events); !ok || f.With != "AN1" {
		t.Errorf("UnitFaced %+v, want With AN1", f)
	}
}

// 10.0: Pike, Artillery, limbered Artillery, two Baggage Wagons, mounted
// units with anything but Sappers, and a third unit are refused, naming
// who may stack; nothing changes.
func TestArquebusIllegalStacksRefused(t *testing.T) {
	cases := []struct {
		name, mover, there string
		limbered           bool
		want               string
	}{
		{"pike with artillery", "PK", "FAL", false, "AN1 (Pike) may not stack with AN2 (Falconet artillery)"},
		{"sleeved pike with a wagon", "PKAQ", "BW", false, "may not stack with AN2 (Baggage Wagon)"},
		{"foot with limbered artillery", "AQ", "FAL", true, "may not stack with AN2 (limbered Falconet artillery)"},
		{"two wagons", "BW", "BW", false, "Baggage Wagon) may not stack with AN2 (Baggage Wagon)"},
		{"horse with foot", "MM", "AQ", false, "may not stack with AN2 (Arquebus)"},
		{"foot with foot", "CB", "SB", false, "may not stack with AN2 (Sword & Buckler)"},
		{"sapper with limbered artillery", "SP", "SAK", true, "may not stack with AN2 (limbered Saker artillery)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := arqMelee(t)
			a := arqColumn(g)
			g.troop("AN1", a[0], hex.FaceNE, c.mover)
			g.gun("AN2", a[1], hex.FaceNE, c.there, c.limbered)
			g.send(red, "ACTIVATE Anna")
			e := g.refuse(red, "MOVE AN1 "+a[1], "Arquebus 10.0")
			if !strings.Contains(e.Reason, c.want) || !strings.Contains(e.Reason, "only these may stack: Arquebus, ") {
				t.Errorf("refusal %q, want %q and the list of who may stack", e.Reason, c.want)
			}
			if g.unit("AN1").Hex.String() != a[0] {
				t.Errorf("AN1 moved")
			}
		})
	}
}

// 10.0 the legal pairs other than foot with Artillery: non-Pike foot with
// a Baggage Wagon (either may move in), Sappers with any one other unit,
// two Sappers; limbered Artillery, a foot unit (2.4), into a Baggage
// Wagon's hex (R361).
func TestArquebusLegalStacks(t *testing.T) {
	cases := []struct{ mover, there string }{
		{"SB", "BW"}, {"BW", "LB"}, {"SP", "MM"}, {"MM", "SP"}, {"SP", "SP"}, {"SP", "PK"}, {"SP", "BW"}, {"DAQ", "HVY"},
		{"BW", "FAL"}, {"BW", "GW"}, // 2.4 Baggage Wagons, Gun Wagons and Artillery are foot units (R361)
	}
	for _, c := range cases {
		t.Run(c.mover+" into "+c.there, func(t *testing.T) {
			g := arqMelee(t)
			a := arqColumn(g)
			g.troop("AN1", a[0], hex.FaceNE, c.mover)
			g.gun("AN2", a[1], hex.FaceNE, c.there, false)
			g.send(red, "ACTIVATE Anna\nMOVE AN1 "+a[1])
			if g.unit("AN1").Hex.String() != a[1] || g.unit("AN2").Hex.String() != a[1] {
				t.Errorf("AN1 %s, AN2 %s: want both in %s", g.unit("AN1").Hex, g.unit("AN2").Hex, a[1])
			}
		})
	}
	for _, gun := range []string{"FAL", "SAK"} {
		t.Run("limbered "+gun+" into a wagon", func(t *testing.T) {
			g := arqMelee(t)
			a := arqColumn(g)
			g.gun("AN1", a[0], hex.FaceNE, gun, true)
			g.troop("AN2", a[1], hex.FaceNE, "BW")
			g.send(red, "ACTIVATE Anna\nMOVE AN1 "+a[1])
			if g.unit("AN1").Hex.String() != a[1] || g.unit("AN2").Hex.String() != a[1] {
				t.Errorf("AN1 %s, AN2 %s: want both in %s", g.unit("AN1").Hex, g.unit("AN2").Hex, a[1])
			}
		})
	}
}

// 10.0 "one unit ... in one hex" with its exceptions: never a third unit.
func TestArquebusNoThirdUnit(t *testing.T) {
	g := arqMelee(t)
	a := arqColumn(g)
	g.troop("AN1", a[0], hex.FaceNE, "SP")
	g.troop("AN2", a[1], hex.FaceNE, "SP")
	g.troop("BE1", a[1], hex.FaceNE, "SP")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+a[1], "Arquebus 10.0")
	if !strings.Contains(e.Reason, "AN2 and BE1 are stacked there") {
		t.Errorf("refusal %q", e.Reason)
	}
}

// 10.1 "Stacked units do not move together, they move one at a time": a
// unit leaves its stack, its partner stays, and moves after it.
func TestArquebusLeaveStack(t *testing.T) {
	g := arqMelee(t)
	a := arqColumn(g)
	g.troop("AN1", a[1], hex.FaceNE, "SP")
	g.troop("AN2", a[1], hex.FaceNE, "AQ")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 "+a[2]+" "+a[3])
	if g.unit("AN1").Hex.String() != a[3] || g.unit("AN2").Hex.String() != a[1] || g.lastMove().MP != 2 {
		t.Errorf("AN1 %s, AN2 %s, move %+v", g.unit("AN1").Hex, g.unit("AN2").Hex, g.lastMove())
	}
	g.send(red, "MOVE AN2 "+a[0])
	if g.unit("AN2").Hex.String() != a[0] {
		t.Errorf("AN2 %s, want %s", g.unit("AN2").Hex, a[0])
	}
}

// 10.0 pass-through (E14, R312): foot AQ/CB, LB and SK pass a friendly
// unstacked unit at 1 MP more, but not Pike, Sword & Buckler (sleeved
// too), limbered Artillery or a stack; any non-Artillery unit passes
// unlimbered, unstacked Artillery free; Artillery passes nothing.
func TestArquebusPassThrough(t *testing.T) {
	cases := []struct {
		name, mover, there string
		limbered, stack    bool
		mp                 int // 0: refused
	}{
		{"arquebus through crossbow", "AQ", "CB", false, false, 3},
		{"skirmisher through pike", "SK", "PK", false, false, 0},
		{"longbow through sleeved sword and buckler", "LB", "SBAQ", false, false, 0},
		{"arquebus through limbered artillery", "AQ", "FAL", true, false, 0},
		{"men-at-arms through unlimbered artillery", "MM", "FAL", false, false, 2},
		{"pike through unlimbered artillery", "PK", "SAK", false, false, 2},
		{"men-at-arms through a stacked gun", "MM", "FAL", false, true, 0},
		{"arquebus through a stack", "AQ", "CB", false, true, 0},
		{"men-at-arms through crossbow", "MM", "CB", false, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := arqMelee(t)
			a := arqColumn(g)
			g.troop("AN1", a[0], hex.FaceNE, c.mover)
			g.gun("AN2", a[1], hex.FaceNE, c.there, c.limbered)
			if c.stack {
				g.troop("BE1", a[1], hex.FaceNE, "SP")
			}
			g.send(red, "ACTIVATE Anna")
			order := "MOVE AN1 " + a[1] + " " + a[2]
			if c.mp == 0 {
				e := g.refuse(red, order, "Arquebus 10.0")
				if !strings.Contains(e.Reason, "Artillery is passed only unlimbered, and no unit passes a stack") {
					t.Errorf("refusal %q does not say who may be passed", e.Reason)
				}
				return
			}
			g.send(red, order)
			if g.unit("AN1").Hex.String() != a[2] || g.lastMove().MP != c.mp {
				t.Errorf("AN1 in %s for %d MP, want %s for %d", g.unit("AN1").Hex, g.lastMove().MP, a[2], c.mp)
			}
		})
	}
}

// "Artillery units may not move through other units" (10.0), refused
// with Blood & Roses' list wording.
func TestArquebusArtilleryPassesNothing(t *testing.T) {
	g := arqMelee(t)
	a := arqColumn(g)
	g.gun("AN1", a[0], hex.FaceNE, "FAL", true)
	g.troop("AN2", a[1], hex.FaceNE, "CB")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "MOVE AN1 "+a[1]+" "+a[2], "Arquebus 10.0")
	if !strings.Contains(e.Reason, "may not move through other units") {
		t.Errorf("refusal %q", e.Reason)
	}
}

// 10.2 "Stacked units are both affected by missile fire targeting the hex
// (make one DR, with DRMs applied individually, and apply to both
// units)"; 13.6 only an unstacked Men-at-Arms Counter-Charges, so the one
// die scripted is the fire's. AN1's Arquebus at range 2 is +1 (it starts
// away from the Men-at-Arms, who may Counter-Charge it: 13.3 #3); the
// Men-at-Arms adds its -1 (11.3 Example) and reads the mounted column.
func TestArquebusFireAtStack(t *testing.T) {
	g := arqMelee(t, 4)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceW, "MM")
	g.troop("CA2", p.c, hex.FaceW, "SP")
	g.troop("AN1", p.w, hex.FaceNE, "AQ")
	g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	var fired []engine.UnitFired
	for _, e := range g.events {
		if f, ok := e.(engine.UnitFired); ok {
			fired = append(fired, f)
		}
	}
	if len(fired) != 2 {
		t.Fatalf("UnitFired %+v, want the shot and its stacked twin", fired)
	}
	mm, sp := fired[0], fired[1]
	if mm.Target != "CA1" || mm.Stacked || mm.Roll.Die != 4 || mm.Roll.Total != 4 || mm.Column != engine.FireMounted || mm.Result != "No Effect" {
		t.Errorf("shot at CA1 %+v, want die 4, total 4 (+1 range, -1 MM), mounted: No Effect", mm)
	}
	if sp.Target != "CA2" || !sp.Stacked || sp.Roll.Die != 4 || sp.Roll.Total != 5 || sp.Column != engine.FireFoot || sp.Result != "Disordered" {
		t.Errorf("shot at CA2 %+v, want the same die 4, total 5 (+1 range), foot: Disordered", sp)
	}
	if g.unit("CA1").Status != engine.Normal || g.unit("CA2").Status != engine.Disordered {
		t.Errorf("CA1 %s, CA2 %s, want Normal and Disordered", g.unit("CA1").Status, g.unit("CA2").Status)
	}
	if !g.unit("AN1").Fired {
		t.Error("AN1 has not fired")
	}

	// Unstacked, the Men-at-Arms rolls its Counter-Charge first (9: fails).
	u := arqMelee(t, 9, 4)
	u.troop("CA1", p.c, hex.FaceW, "MM")
	u.troop("AN1", p.w, hex.FaceNE, "AQ")
	u.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if _, ok := findEvent[engine.CounterChargeRolled](u.events); !ok {
		t.Error("an unstacked Men-at-Arms did not try to Counter-Charge")
	}
}

// 10.3 Shock against a stack in 0505, facing W, by Pikes from its
// Frontal hexes: the stack counts as one for Strength; the Weapon System
// Matrix row, and the Shock Defense, are those of the unit that is not
// Artillery, a Baggage Wagon or a Sapper, or the Sapper's (R366); the
// Disordered column if either is Disordered; both suffer the result,
// Artillery Eliminated by it (12.5), a Baggage Wagon never (R367).
func TestArquebusShockAgainstStack(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name           string
		one, two       string // CA1, CA2
		twoDisordered  bool
		attackers      int
		die            int
		mods           []string
		total          int
		result         string
		status1, stat2 engine.Status
	}{
		{"sword and buckler with a gun: SB row, one unit for Strength", "SB", "FAL", false, 2, 6,
			[]string{"+1 10.4 #1", "-1 10.4 #6"}, 6, "Defender Disordered, Engaged", engine.Disordered, engine.Eliminated},
		{"a Disordered Sapper: the Disordered column for both", "SB", "SP", true, 1, 6,
			[]string{"-1 10.4 #6"}, 5, "Defender Retired", engine.Retired, engine.Retired},
		{"a Baggage Wagon suffers nothing", "SB", "BW", false, 1, 6,
			[]string{"-1 10.4 #6"}, 5, "Defender Disordered, Engaged", engine.Disordered, engine.Normal},
		{"a wagon named first: still the SB row", "BW", "SB", false, 1, 6,
			[]string{"-1 10.4 #6"}, 5, "Defender Disordered, Engaged", engine.Normal, engine.Disordered},
		{"two Sappers: the Sapper row", "SP", "SP", false, 1, 0,
			[]string{"+3 10.4 #3", "+2 10.4 #6"}, 5, "Defender Disordered, Engaged", engine.Disordered, engine.Disordered},
		{"a Sapper with a gun: the Sapper row", "FAL", "SP", false, 1, 0,
			[]string{"+3 10.4 #3", "+2 10.4 #6"}, 5, "Defender Disordered, Engaged", engine.Eliminated, engine.Disordered},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := arqMelee(t, tc.die)
			g.gun("CA1", c, hex.FaceW, tc.one, false)
			g.gun("CA2", c, hex.FaceW, tc.two, false)
			if tc.twoDisordered {
				g.st.Unit("CA2").Status = engine.Disordered
			}
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "PK")
			block := "SHOCK AN1 AT CA1\nEND"
			if tc.attackers == 2 {
				g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "PK")
				block = "SHOCK AN1 AN2 AT CA1\nEND"
			}
			evs := g.shockRound(block)
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", tc.die, tc.mods, tc.total, "Shock", tc.result)
			if s1, s2 := g.unit("CA1").Status, g.unit("CA2").Status; s1 != tc.status1 || s2 != tc.stat2 {
				t.Errorf("CA1 %s, CA2 %s, want %s and %s:\n%s", s1, s2, tc.status1, tc.stat2, g.story(evs))
			}
		})
	}
}

// A leader with a stack Disordered by Shock is checked once, not once a
// unit (ruling R368): the script holds the Shock die and one leader die.
func TestArquebusShockStackLeaderCheckedOnce(t *testing.T) {
	c := "0505"
	g := arqMelee(t, 6, 3)
	g.troop("CA1", c, hex.FaceW, "SB")
	g.troop("CA2", c, hex.FaceW, "SP")
	g.lead("carl", c)
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "PK")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	n := 0
	for _, e := range evs {
		if _, ok := e.(engine.LeaderCasualtyRolled); ok {
			n++
		}
	}
	if n != 1 || g.unit("CA1").Status != engine.Disordered || g.unit("CA2").Status != engine.Disordered {
		t.Errorf("%d leader checks, CA1 %s, CA2 %s: want 1, both Disordered:\n%s", n, g.unit("CA1").Status, g.unit("CA2").Status, g.story(evs))
	}
}

// 11.2 Reaction Fire "When any enemy unit moves ... into an adjacent
// frontal hex that does not already contain an enemy unit"
// (rules.reaction_into_empty_hex; R369): CA1's Arquebus does not fire at
// AN1 stacking with the Sapper in its frontal hex x, but does at AN1
// entering x empty (die 0: No Effect).
func TestArquebusNoReactionFireIntoStack(t *testing.T) {
	for _, stacked := range []bool{true, false} {
		var g *game
		if stacked {
			g = arqMelee(t) // no die: a Reaction Fire would fail for want of one
		} else {
			g = arqMelee(t, 0)
		}
		p := brAround(g)
		g.troop("CA1", p.c, hex.FaceW, "AQ")
		g.troop("AN1", p.w, hex.FaceNE, "AQ")
		if stacked {
			g.troop("AN2", p.x, hex.FaceNE, "SP")
		}
		evs := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+p.x).Events
		f, fired := findEvent[engine.UnitFired](evs)
		if fired == stacked || g.unit("AN1").Hex.String() != p.x {
			t.Errorf("stacked %v: fired %v (%+v), AN1 in %s", stacked, fired, f, g.unit("AN1").Hex)
		}
		if !stacked && (f.Unit != "CA1" || !f.Reaction || f.Roll.Die != 0) {
			t.Errorf("reaction %+v", f)
		}
	}
}

// A Shock naming both units of a stack is one defender: one die, no
// Strength DRM for one attacker against it (10.3 "Stacked units count as
// a single unit"; R366).
func TestArquebusShockNamingBothStacked(t *testing.T) {
	c := "0505"
	g := arqMelee(t, 6)
	g.troop("CA1", c, hex.FaceW, "SB")
	g.troop("CA2", c, hex.FaceW, "SP")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "PK")
	evs := g.shockRound("SHOCK AN1 AT CA1 CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
	}
	wantAttack(t, atts[0], "CA1", 6, []string{"-1 10.4 #6"}, 5, "Shock", "Defender Disordered, Engaged")
	if g.unit("CA1").Status != engine.Disordered || g.unit("CA2").Status != engine.Disordered {
		t.Errorf("CA1 %s, CA2 %s, want both Disordered", g.unit("CA1").Status, g.unit("CA2").Status)
	}
}

// Naming only the second unit of a stack attacks the stack, and meets
// the Shock's duty to attack the unit first in the hex (10.1).
func TestArquebusShockNamingSecondStacked(t *testing.T) {
	c := "0505"
	g := arqMelee(t, 6)
	g.troop("CA1", c, hex.FaceW, "SB")
	g.troop("CA2", c, hex.FaceW, "SP")
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "PK")
	evs := g.shockRound("SHOCK AN1 AT CA2\nEND")
	atts := resolved(evs)
	if len(atts) != 1 {
		t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
	}
	// CA2 is named, but the Sword & Buckler defends for the hex (R366).
	wantAttack(t, atts[0], "CA2", 6, []string{"-1 10.4 #6"}, 5, "Shock", "Defender Disordered, Engaged")
	if g.unit("CA1").Status != engine.Disordered || g.unit("CA2").Status != engine.Disordered {
		t.Errorf("CA1 %s, CA2 %s, want both Disordered", g.unit("CA1").Status, g.unit("CA2").Status)
	}
}

// 10.1 "Units may not enter a hex that contains an Engaged unit" (R371):
// not to stack with it. (Nor to pass it: an Engaged unit's hex is next to
// its enemy, where a move stops, 7.1.)
func TestArquebusNoEnteringAnEngagedUnitsHex(t *testing.T) {
	for _, tc := range []struct{ name, mover, there string }{
		{"stacking with an Engaged Sapper", "AQ", "SP"},
		{"stacking with an Engaged Arquebus", "SP", "AQ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := arqMelee(t)
			a := arqColumn(g)
			g.troop("AN1", a[0], hex.FaceNE, tc.mover)
			g.troop("AN2", a[1], hex.FaceNE, tc.there)
			g.troop("CA1", g.nb(a[1], hex.NE), hex.FaceSW, "PK") // AN2's enemy, next to it
			order := "MOVE AN1 " + a[1]
			g.engage("AN2", "CA1")
			g.send(red, "ACTIVATE Anna")
			e := g.refuse(red, order, "Arquebus 10.1")
			if !strings.Contains(e.Reason, "AN2 there is Engaged") {
				t.Errorf("refusal %q", e.Reason)
			}
			g.st.Unit("AN2").EngagedWith = nil
			g.send(red, order)
			if g.unit("AN1").Hex.String() == a[0] {
				t.Errorf("AN2 not Engaged: AN1 did not move")
			}
		})
	}
}

// 12.5 "If stacked with another unit that is Engaged, the Artillery is
// also Engaged"; 10.3 both units of a stack suffer the result, but a
// Baggage Wagon none.
func TestArquebusStackEngagedTogether(t *testing.T) {
	for _, tc := range []struct {
		partner string
		engaged bool
	}{{"FAL", true}, {"BW", false}} {
		t.Run(tc.partner, func(t *testing.T) {
			c := "0505"
			g := arqMelee(t, 4) // SB against SB, no DRM: 4 is "Engaged" alone
			g.troop("CA1", c, hex.FaceW, "SB")
			g.gun("CA2", c, hex.FaceW, tc.partner, false)
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "SB")
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			if a := resolved(evs); len(a) != 1 || !strings.Contains(a[0].Result, "Engaged") {
				t.Fatalf("want an Engaged result:\n%s", g.story(evs))
			}
			if !engine.IsEngaged(g.st, "CA1") || engine.IsEngaged(g.st, "CA2") != tc.engaged {
				t.Errorf("CA1 Engaged %v, %s Engaged %v, want true, %v:\n%s", engine.IsEngaged(g.st, "CA1"), tc.partner, engine.IsEngaged(g.st, "CA2"), tc.engaged, g.story(evs))
			}
			if tc.engaged && !slices.Contains(engine.EngagedWith(g.st, "AN1"), "CA2") {
				t.Errorf("AN1 Engaged with %v, want CA2 too", engine.EngagedWith(g.st, "AN1"))
			}
		})
	}
}
