package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus missile fire (arquebus.md 11.1–11.4, 13.6, 13.9) on the
// volume's house tables, through orders and scripted dice; rulings
// R400–R419 in docs/rulings.md. Hexes are brAround's: CA1 in c,
// x next to it (SW), w two hexes off beyond x.

// firstShot is the first fire by unit id among evs.
func firstShot(t *testing.T, evs []engine.Event, id string) engine.UnitFired {
	t.Helper()
	for _, e := range evs {
		if f, ok := e.(engine.UnitFired); ok && f.Unit == id {
			return f
		}
	}
	t.Fatalf("%s did not fire", id)
	return engine.UnitFired{}
}

// arq-11.3-crossbow-range-1-vs-maa: "A Crossbow firing at a range of 1
// hex gets a DRM of +2. This particular Crossbow unit has a Missile Fire
// DRM of 0 on the counter. But if they are firing at Men-at-Arms, that
// incurs an additional DRM of -1, for an accumulated DRM of +1." The
// Men-at-Arms has its back to the Crossbow, so it cannot Counter-Charge
// (13.6: "attacked through their front or flank hexsides").
func TestArquebusCrossbowRangeOneAtMenAtArms(t *testing.T) {
	g := arqMelee(t, 4)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceNE, "MM")
	g.troop("AN1", p.x, hex.FaceNE, "CB")
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	// 4 +2 +0 -1 = 5: a Mounted target in good order, No Effect.
	wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", 4, []string{"+2 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 5, engine.FireMounted, "No Effect")
	if _, ok := findEvent[engine.CounterChargeRolled](res.Events); ok {
		t.Errorf("a Counter-Charge through the rear")
	}
}

// 11.1: "a Swiss Pike unit with a Missile Fire DRM of -2 and a Missile
// Type of CB ... giving them the ability to fire Crossbows but with a DRM
// of -2"; 14.2 the Disordered side prints a lower one, which replaces
// fire_drm.disordered_firer (ruling R400).
func TestArquebusMissileFireDRMOfTheCounter(t *testing.T) {
	for _, c := range []struct {
		typ        string
		disordered bool
		mods       string
		total      int
	}{
		{"PKCB", false, "+2 9.3; -2 Arquebus 11.1", 5},
		{"PKCB", true, "+2 9.3; -3 Arquebus 11.1", 4},
		{"CB", true, "+2 9.3; -1 Arquebus 11.1", 6},
		{"SBAQ", false, "+2 9.3; -1 Arquebus 11.1", 6},
	} {
		g := arqMelee(t, 5)
		p := brAround(g)
		g.troop("CA1", p.c, hex.FaceSW, "PK")
		g.troop("AN1", p.x, hex.FaceNE, c.typ)
		if c.disordered {
			g.st.Unit("AN1").Status = engine.Disordered
		}
		res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
		result := map[int]string{4: "No Effect", 5: "Disordered", 6: "Disordered"}[c.total]
		wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", 5, strings.Split(c.mods, "; "), c.total, engine.FireFoot, result)
	}
}

// 11.1 "A unit with a Missile Type, but no Missile Fire DRM on the current
// side of the counter may not fire": a battle's `fire_disordered: none`.
// Its front side still fires, with the battle's own DRM.
func TestArquebusNoMissileFireDRMMayNotFire(t *testing.T) {
	g := arqMelee(t, 5)
	p := brAround(g)
	j := g.troop("CA1", p.c, hex.FaceSW, "PK")
	i := g.troop("AN1", p.x, hex.FaceNE, "PKCB")
	g.sc.Units[i].Ratings.Fire = engine.MissileDRM{Printed: true, DRM: -1}
	g.sc.Units[i].Ratings.FireDisordered = engine.MissileDRM{Printed: true, None: true}
	g.st.Unit("AN1").Status = engine.Disordered
	g.wantFire(i, j, false, "Arquebus 11.1")
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "FIRE AN1 AT CA1", "Arquebus 11.1")
	if !strings.Contains(e.Reason, "Disordered side") {
		t.Errorf("refusal %v does not name the side", e)
	}
	g.st.Unit("AN1").Status = engine.Normal
	res := g.send(red, "FIRE AN1 AT CA1")
	wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", 5, []string{"+2 9.3", "-1 Arquebus 11.1"}, 6, engine.FireFoot, "Disordered")
}

// 11.4 LOS is blocked "by Wall hexsides and the two impassable hexsides of
// the Torre del Gallo, which are blocking terrain. Units may not fire
// through a Wall hexside" (hexsides.*.blocks_los; ruling R401): a Wall
// crossed anywhere on the line blocks, the target's own hexside too; one
// the line does not cross does not.
func TestArquebusWallHexsideBlocksLOS(t *testing.T) {
	for _, c := range []struct {
		name    string
		firer   func(p brPaths) string
		a, b    func(p brPaths) string
		feature string
		refused bool
	}{
		{"wall on the target's hexside, range 2", func(p brPaths) string { return p.w }, func(p brPaths) string { return p.x }, func(p brPaths) string { return p.c }, "wall", true},
		{"wall on the firer's hexside, range 2", func(p brPaths) string { return p.w }, func(p brPaths) string { return p.w }, func(p brPaths) string { return p.x }, "wall", true},
		{"wall between adjacent units", func(p brPaths) string { return p.x }, func(p brPaths) string { return p.x }, func(p brPaths) string { return p.c }, "wall", true},
		{"Torre del Gallo", func(p brPaths) string { return p.x }, func(p brPaths) string { return p.c }, func(p brPaths) string { return p.x }, "impassable", true},
		{"wall off the line", func(p brPaths) string { return p.x }, func(p brPaths) string { return p.c }, func(p brPaths) string { return p.s }, "wall", false},
		{"stream on the line", func(p brPaths) string { return p.x }, func(p brPaths) string { return p.x }, func(p brPaths) string { return p.c }, "stream", false},
	} {
		g := arqMelee(t, 5)
		p := brAround(g)
		j := g.troop("CA1", p.c, hex.FaceSW, "PK")
		i := g.troop("AN1", c.firer(p), hex.FaceNE, "AQ")
		g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, c.a(p)), B: h(t, c.b(p)), Feature: c.feature})
		if !c.refused {
			g.wantFire(i, j, false, "")
			res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
			firstShot(t, res.Events, "AN1")
			continue
		}
		r := g.wantFire(i, j, false, "9.4")
		if r != nil && !strings.Contains(r.Reason, "hexside") || r != nil && !strings.Contains(r.Reason, "Arquebus 11.4") {
			t.Errorf("%s: refusal %v does not name the hexside", c.name, r)
		}
		g.send(red, "ACTIVATE Anna")
		g.refuse(red, "FIRE AN1 AT CA1", "9.4")
	}
}

// ccRolls are the Counter-Charge rolls among evs.
func ccRolls(evs []engine.Event) []engine.CounterChargeRolled {
	var out []engine.CounterChargeRolled
	for _, e := range evs {
		if c, ok := e.(engine.CounterChargeRolled); ok {
			out = append(out, c)
		}
	}
	return out
}

// 13.9 "A Counter-Charge against Fire can be undertaken against an enemy a
// number of hexes distant equal to or less than the Counter-Charging
// unit's Movement Allowance (including adjacent)"; 13.3 #5e iii
// (rules.counter_charge_fire_ma; ruling R402). A Falconet fires at the
// Men-at-Arms (MA 7) straight down the column: seven hexes off it
// Counter-Charges along the six hexes between, which the old three-hex
// reach refused; eight hexes off it may not. The Charge home on Artillery
// alone rolls no die (12.5). If the fire Disorders the Men-at-Arms, it
// still goes, as a Shock attack on the firer only (13.9).
func TestArquebusCounterChargeFireUpToTheMA(t *testing.T) {
	for _, c := range []struct {
		name     string
		at       string
		dice     []int
		cc       bool
		fireDie  int
		mods     []string
		total    int
		result   string
		attack   string
		ccHex    string
		advanced bool
	}{
		// CC 3 -1 = 2, success; fire 4 -2 +0 -1 = 1, No Effect; Charge, no die.
		{"seven hexes", "0609", []int{3, 4}, true, 4, []string{"-2 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 1, "No Effect", "Defender Eliminated, Continued Attack", "0603", true},
		// Fire 9 -2 +0 -1 = 6: Disordered; the Counter-Charge is a Shock.
		{"seven hexes, Disordered by the fire", "0609", []int{3, 9}, true, 9, []string{"-2 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 6, "Disordered", "Defender Eliminated", "0603", false},
		// No Counter-Charge: only the fire's die.
		{"eight hexes", "0610", []int{4}, false, 4, []string{"-2 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 1, "No Effect", "", "", false},
	} {
		g := arqMelee(t, c.dice...)
		g.troop("CA1", c.at, hex.FaceNE, "MM")
		g.troop("AN1", "0602", hex.FaceSE, "FAL")
		res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
		wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", c.fireDie, c.mods, c.total, engine.FireMounted, c.result)
		ccs := ccRolls(res.Events)
		if !c.cc {
			if len(ccs) != 0 || len(resolved(res.Events)) != 0 || g.unit("CA1").Hex.String() != c.at {
				t.Errorf("%s: Counter-Charge %+v beyond the MA\n%s", c.name, ccs, g.story(res.Events))
			}
			continue
		}
		if len(ccs) != 1 || ccs[0].Roll.Die != 3 || ccs[0].Roll.Total != 2 || ccs[0].Max != 5 || !ccs[0].Success || ccs[0].Mode != "fire" {
			t.Fatalf("%s: Counter-Charge rolls %+v, want 3 -1 = 2, 5 or less\n%s", c.name, ccs, g.story(res.Events))
		}
		atts := resolved(res.Events)
		if len(atts) != 1 || atts[0].Defender != "AN1" || !atts[0].NoDie || atts[0].Result != c.attack {
			t.Errorf("%s: attacks %+v, want %q with no die\n%s", c.name, atts, c.attack, g.story(res.Events))
		}
		_, lost := findEvent[engine.ChargeLost](res.Events)
		if lost == c.advanced {
			t.Errorf("%s: ChargeLost %v, want %v (Disordered by the fire: a Shock attack)", c.name, lost, !c.advanced)
		}
		// A Disordered attacker does not Advance without a Continued Attack (12.4).
		want := map[bool]string{true: "0602", false: c.ccHex}[c.advanced]
		if g.unit("AN1").Status != engine.Eliminated || g.unit("CA1").Hex.String() != want {
			t.Errorf("%s: AN1 %+v, CA1 %+v; want AN1 Eliminated, CA1 in %s\n%s", c.name, g.unit("AN1"), g.unit("CA1"), want, g.story(res.Events))
		}
	}
}

// 13.9 "The successful Counter-Charge ends the movement of the missile
// unit, even if it would still otherwise be eligible to move after firing
// (Light Cavalry/Archers or Genitors)": AN1 fires from its starting hex
// two hexes from CA1 and would ride on to y; CA1 Counter-Charges (3 -1 =
// 2), the fire misses (2 +0 +0 -1 = 1), the Charge (0 +2 +2 = 4:
// Defender Disordered) hits, and AN1 stays where it fired. With a failed
// roll (8 -1 = 7) AN1 rides on.
func TestArquebusCounterChargeEndsTheMountedArchersMove(t *testing.T) {
	for _, c := range []struct {
		dice    []int
		success bool
	}{{[]int{3, 2, 0}, true}, {[]int{8, 2}, false}} {
		g := arqMelee(t, c.dice...)
		p := brAround(g)
		y := g.nb(p.w, hex.NW)
		g.troop("CA1", p.c, hex.FaceSW, "MM")
		g.troop("AN1", p.w, hex.FaceNE, "LCA")
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 FIRE CA1 "+y)
		ccs := ccRolls(res.Events)
		if len(ccs) != 1 || ccs[0].Success != c.success {
			t.Fatalf("success %v: rolls %+v\n%s", c.success, ccs, g.story(res.Events))
		}
		wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", 2, []string{"+0 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 1, engine.FireMounted, "No Effect")
		want := map[bool]string{true: p.w, false: y}[c.success]
		if u := g.unit("AN1"); u.Hex.String() != want {
			t.Errorf("success %v: AN1 in %s, want %s\n%s", c.success, u.Hex, want, g.story(res.Events))
		}
		if c.success {
			atts := resolved(res.Events)
			if len(atts) != 1 {
				t.Fatalf("attacks %+v", atts)
			}
			wantAttack(t, atts[0], "AN1", 0, []string{"+2 10.4 #3", "+2 10.4 #6"}, 4, "Charge", "Defender Disordered, Engaged")
		}
	}
}

// arq-13.6-counter-charge-used: "a Spanish Men-at-Arms unit is fired upon
// by a French Crossbow unit. It attempts to Counter-Charge in response
// (13.9), but rolls an 8 and fails. The Spanish Men-at-Arms unit is marked
// with a COUNTER-CHARGE USED marker. It may not now Counter-Charge if
// fired on by other missile units or attacked by Shock in the Shock
// Phase". 13.9 adds the unit's Defense DRM, which the example does not
// name (worked-examples.md: "A raw 8 fails only if that DRM is ≥ −2";
// ruling R84): the house Men-at-Arms' −1 makes it 7, more than 5. AN1 and
// AN2 are Crossbows two hexes off in CA1's front; BE1, a Pike, moves next
// to its flank and Shocks it. Only the first fire draws a Counter-Charge.
func TestArquebusCounterChargeUsed(t *testing.T) {
	g := arqMelee(t, 8, 3, 3, 5)
	p := brAround(g)
	two := g.nb(p.c, hex.S, hex.S)
	g.troop("CA1", p.c, hex.FaceSW, "MM")
	g.troop("AN1", p.w, hex.FaceNE, "CB")
	g.troop("AN2", two, hex.FaceNE, "CB")
	g.troop("BE1", g.nb(p.c, hex.SE, hex.SE), hex.FaceNW, "PK")
	g.send(blue, "STANDING RETREAT BEFORE SHOCK NEVER")
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nFIRE AN2 AT CA1\nMOVE BE1 "+g.nb(p.c, hex.SE))
	ccs := ccRolls(res.Events)
	if len(ccs) != 1 || ccs[0].Roll.Die != 8 || modText(ccs[0].Roll.Mods) != "-1 CA1's Shock Defense (11.6)" || ccs[0].Roll.Total != 7 || ccs[0].Success {
		t.Fatalf("Counter-Charge rolls %+v, want one: 8 -1 = 7, failed\n%s", ccs, g.story(res.Events))
	}
	if !g.unit("CA1").CounterCharged {
		t.Errorf("CA1 %+v: no COUNTER-CHARGE USED marker", g.unit("CA1"))
	}
	// Range 2: crossbow +1, the counter 0, at Men-at-Arms -1.
	for _, id := range []string{"AN1", "AN2"} {
		wantShot(t, firstShot(t, res.Events, id), id, "CA1", 3, []string{"+1 9.3", "+0 Arquebus 11.1", "-1 11.3"}, 3, engine.FireMounted, "No Effect")
	}
	evs := g.send(red, "SHOCK BE1 AT CA1\nEND").Events
	if ccs := ccRolls(evs); len(ccs) != 0 {
		t.Errorf("a second Counter-Charge, against the Shock: %+v", ccs)
	}
	if atts := resolved(evs); len(atts) != 1 || atts[0].Roll.Die != 5 {
		t.Errorf("Shock %+v, want one attack on a die of 5\n%s", atts, g.story(evs))
	}

	// With a Defense DRM of -3 the same 8 succeeds (5 or less): the
	// example's Men-at-Arms had -2 or more.
	g = arqMelee(t, 8, 3, 9)
	i := g.troop("CA1", p.c, hex.FaceSW, "MM")
	g.sc.Units[i].Ratings.Shock = -3
	g.troop("AN1", p.w, hex.FaceNE, "CB")
	res = g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if ccs := ccRolls(res.Events); len(ccs) != 1 || ccs[0].Roll.Total != 5 || !ccs[0].Success {
		t.Errorf("Defense -3: Counter-Charge rolls %+v, want 8 -3 = 5, success\n%s", ccs, g.story(res.Events))
	}
}

// 11.4 Raining Fire: "Longbows and Light Cavalry Archers may fire
// "through" (they're actually firing over them) adjacent, intervening
// units at a target two hexes distant ... but with a Raining Fire DRM of
// minus one (-1)" (rules.raining_fire; ruling R405). Over a friend or a
// foe next to the firer at range 2 they fire; at range 3 any unit on the
// line blocks, next to the firer or not; a clear line at range 3 is open.
// Blood & Roses' Longbow fires over the same unit at range 3.
func TestArquebusRainingFire(t *testing.T) {
	for _, c := range []struct {
		name         string
		firer, other func(p brPaths, g *game) string
		side         string // the intervening unit's: "red" (AN2) or "blue" (CA2)
		refused      bool
		mods         []string
		total        int
	}{
		{"over a friend at range 2", func(p brPaths, g *game) string { return p.w }, func(p brPaths, g *game) string { return p.x }, "red", false, []string{"+1 9.3", "+0 Arquebus 11.1", "-1 Arquebus 11.4"}, 5},
		{"over a foe at range 2", func(p brPaths, g *game) string { return p.w }, func(p brPaths, g *game) string { return p.x }, "blue", false, []string{"+1 9.3", "+0 Arquebus 11.1", "-1 Arquebus 11.4"}, 5},
		{"range 3, over a unit next to the firer", func(p brPaths, g *game) string { return g.nb(p.w, hex.SW) }, func(p brPaths, g *game) string { return p.w }, "red", true, nil, 0},
		{"range 3, over a unit next to the target", func(p brPaths, g *game) string { return g.nb(p.w, hex.SW) }, func(p brPaths, g *game) string { return p.x }, "red", true, nil, 0},
		{"range 3, a clear line", func(p brPaths, g *game) string { return g.nb(p.w, hex.SW) }, func(p brPaths, g *game) string { return g.nb(p.c, hex.NE) }, "red", false, []string{"+0 9.3", "+0 Arquebus 11.1"}, 5},
	} {
		g := arqMelee(t, 5)
		p := brAround(g)
		j := g.troop("CA1", p.c, hex.FaceSW, "PK")
		i := g.troop("AN1", c.firer(p, g), hex.FaceNE, "LB")
		if c.side == "red" {
			g.troop("AN2", c.other(p, g), hex.FaceNE, "PK")
		} else {
			g.troop("CA2", c.other(p, g), hex.FaceSW, "PK")
		}
		if c.refused {
			r := g.wantFire(i, j, false, "9.4")
			if r != nil && !strings.Contains(r.Reason, "Raining Fire") {
				t.Errorf("%s: refusal %v does not name Raining Fire", c.name, r)
			}
			g.send(red, "ACTIVATE Anna")
			g.refuse(red, "FIRE AN1 AT CA1", "9.4")
			continue
		}
		res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
		result := map[int]string{5: "Disordered"}[c.total]
		wantShot(t, firstShot(t, res.Events, "AN1"), "AN1", "CA1", 5, c.mods, c.total, engine.FireFoot, result)
	}

	// "unless the intervening hex contains a friendly unit which is
	// Engaged with the target": refused, and first because an Engaged
	// unit "may not ... be targeted by missile fire" at all (14.5; R405).
	g := arqMelee(t, 5)
	q := brAround(g)
	g.troop("CA1", q.c, hex.FaceSW, "PK")
	g.troop("AN1", q.w, hex.FaceNE, "LB")
	g.troop("AN2", q.x, hex.FaceNE, "PK")
	g.engage("AN2", "CA1")
	g.send(red, "ACTIVATE Anna")
	if e := g.refuse(red, "FIRE AN1 AT CA1", "Arquebus 14.5"); !strings.Contains(e.Reason, "Engaged") {
		t.Errorf("fire over a friend Engaged with the target: %q", e.Reason)
	}
	// Only the friend's marker left (CA1 received a Continued Attack,
	// R381): CA1 may be fired at, but not over AN2.
	g.st.Unit("CA1").EngagedWith = nil
	if e := g.refuse(red, "FIRE AN1 AT CA1", "9.4"); !strings.Contains(e.Reason, "not over a friendly unit Engaged with CA1") {
		t.Errorf("fire over a friend whose marker names the target: %q", e.Reason)
	}

	b := brMelee(t)
	p := brAround(b)
	j := b.troop("CA1", p.c, hex.FaceSW, "INF")
	i := b.troop("AN1", b.nb(p.w, hex.SW), hex.FaceNE, "LB")
	b.troop("AN2", p.w, hex.FaceNE, "INF")
	b.wantFire(i, j, false, "")
}
