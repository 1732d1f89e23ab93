package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus missile fire (arquebus.md 11.1–11.4, 13.6, 13.9) on the
// volume's house tables, through orders and scripted dice; rulings
// R400–R419 in docs/rulings-arq-fire.md. Hexes are brAround's: CA1 in c,
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
