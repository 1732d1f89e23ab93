package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// shooters is the fixture of fixture_test.go with Men of Iron's house
// tables (data/tables/moi.yaml): Red's AN1, AN2, BE1, BE2 and Blue's CA1,
// CA2, DO1, DO2, all off the map until a test places them with at, on
// clear level ground.
//
// Geometry used below (odd-shifted map): from 0505, the line to 0503
// leaves by hexside N through 0504; to 0305 it runs down 0505's W spine,
// along the hexside 0405|0406; to 0705 down its E spine. The line 0406 to
// 0606 runs along 0505|0506; 0408 to 0503 crosses 0407, 0406, 0505 and
// 0504 and touches 0506 and 0405 at a corner only.
func shooters(t *testing.T) *game {
	t.Helper()
	sc := fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3, "Dora": 3})
	tb, err := data.Tables("moi")
	if err != nil {
		t.Fatal(err)
	}
	sc.Tables = tb
	sc.Map.Terrain = map[hex.Hex]string{}
	sc.Map.Elevation = map[hex.Hex]int{}
	g := newGame(t, sc)
	for i := range g.st.Units {
		g.st.Units[i].OffMap = true
	}
	return g
}

// at places unit id on the map in hex hx, facing f, as a unit of type typ,
// and returns its index.
func (g *game) at(id, hx string, f hex.Facing, typ string) int {
	g.t.Helper()
	g.put(id, hx, f, typ)
	g.st.Unit(id).OffMap = false
	return g.index(id)
}

func (g *game) index(id string) int {
	for i, u := range g.sc.Units {
		if u.ID == id {
			return i
		}
	}
	g.t.Fatalf("no unit %s", id)
	return -1
}

// wantFire checks CanFire: refused under rule, or allowed when rule is "".
func (g *game) wantFire(firer, target int, reaction bool, rule string) *engine.FireRefusal {
	g.t.Helper()
	r := engine.CanFire(g.sc, g.st, firer, target, reaction)
	switch {
	case rule == "" && r != nil:
		g.t.Errorf("%s at %s (reaction %v): refused: %v", g.sc.Units[firer].ID, g.sc.Units[target].ID, reaction, r)
	case rule != "" && r == nil:
		g.t.Errorf("%s at %s (reaction %v): allowed, want refused under %s", g.sc.Units[firer].ID, g.sc.Units[target].ID, reaction, rule)
	case rule != "" && r.Rule != rule:
		g.t.Errorf("%s at %s (reaction %v): refused under %s (%v), want %s", g.sc.Units[firer].ID, g.sc.Units[target].ID, reaction, r.Rule, r, rule)
	case r != nil:
		checked(r.Rule, r.Reason)
	}
	return r
}

func modText(mods []engine.Modifier) string {
	var parts []string
	for _, m := range mods {
		parts = append(parts, fmt.Sprintf("%+d %s (%s)", m.DRM, m.Reason, m.Rule))
	}
	return strings.Join(parts, "; ")
}

func sum(mods []engine.Modifier) int {
	n := 0
	for _, m := range mods {
		n += m.DRM
	}
	return n
}

// TestLineOfSight94: each case of 9.4, the hexside and vertex cases, and
// rulings R57 (higher ground), R58 (corner hexes), R59 (the end hexes).
func TestLineOfSight94(t *testing.T) {
	for _, c := range []struct {
		name      string
		terrain   map[string]string
		levels    map[string]int
		units     []string // hexes holding a combat unit (Blue's, Red's if prefixed "red:")
		from, to  string
		overUnits bool
		wantBlock string // "" when the LOS is clear, else a part of blockedBy
	}{
		{name: "clear", from: "0507", to: "0504", overUnits: true},
		{name: "woods between blocks", terrain: map[string]string{"0505": "woods"}, from: "0507", to: "0504", overUnits: true, wantBlock: "Woods in 0505"},
		{name: "village between blocks", terrain: map[string]string{"0506": "village"}, from: "0507", to: "0504", overUnits: true, wantBlock: "Village in 0506"},
		{name: "fire into woods", terrain: map[string]string{"0504": "woods"}, from: "0507", to: "0504", overUnits: true},
		{name: "fire out of woods (R59)", terrain: map[string]string{"0507": "woods"}, from: "0507", to: "0504", overUnits: true},
		{name: "rough does not block", terrain: map[string]string{"0505": "rough"}, from: "0507", to: "0504", overUnits: true},
		{name: "along a hexside, one hex woods", terrain: map[string]string{"0505": "woods"}, from: "0406", to: "0606", overUnits: true},
		{name: "along a hexside, the other hex woods", terrain: map[string]string{"0506": "woods"}, from: "0606", to: "0406", overUnits: true},
		{name: "along a hexside, both hexes woods", terrain: map[string]string{"0505": "woods", "0506": "town"}, from: "0406", to: "0606", overUnits: true, wantBlock: "on both sides of the hexside 0505|0506"},
		{name: "corner hex woods does not block (R58)", terrain: map[string]string{"0506": "woods", "0405": "castle"}, from: "0408", to: "0503", overUnits: true},
		{name: "woods crossed next to a corner blocks", terrain: map[string]string{"0406": "woods"}, from: "0408", to: "0503", overUnits: true, wantBlock: "Woods in 0406"},
		{name: "higher ground between blocks (R57)", levels: map[string]int{"0505": 1}, from: "0507", to: "0504", overUnits: true, wantBlock: "higher ground in 0505"},
		{name: "firer as high sees over it (R57)", levels: map[string]int{"0505": 1, "0507": 1}, from: "0507", to: "0504", overUnits: true},
		{name: "target as high is seen over it (R57)", levels: map[string]int{"0505": 1, "0504": 1}, from: "0507", to: "0504", overUnits: true},
		{name: "a hill above a firer on a lower hill blocks (R57)", levels: map[string]int{"0505": 2, "0507": 1}, from: "0507", to: "0504", overUnits: true, wantBlock: "higher ground in 0505 (level 2"},
		{name: "along a hexside, one hex higher (R57)", levels: map[string]int{"0505": 1}, from: "0406", to: "0606", overUnits: true},
		{name: "along a hexside, both hexes higher (R57)", levels: map[string]int{"0505": 1, "0506": 1}, from: "0406", to: "0606", overUnits: true, wantBlock: "on both sides"},
		{name: "corner hex higher does not block (R58)", levels: map[string]int{"0506": 1}, from: "0408", to: "0503", overUnits: true},
		{name: "longbow over a unit", units: []string{"0506"}, from: "0507", to: "0504", overUnits: true},
		{name: "crossbow not through a unit", units: []string{"0506"}, from: "0507", to: "0504", wantBlock: "in 0506 (only archers fire over units)"},
		{name: "crossbow not through a friendly unit", units: []string{"red:0505"}, from: "0507", to: "0504", wantBlock: "in 0505"},
		{name: "crossbow along a hexside, one unit", units: []string{"0505"}, from: "0406", to: "0606"},
		{name: "crossbow along a hexside, units on both sides", units: []string{"0505", "0506"}, from: "0406", to: "0606", wantBlock: "on both sides"},
		{name: "crossbow along a hexside, woods and a unit", terrain: map[string]string{"0505": "woods"}, units: []string{"0506"}, from: "0406", to: "0606", wantBlock: "Woods in 0505 and"},
		{name: "crossbow past a unit at a corner (R58)", units: []string{"0506"}, from: "0408", to: "0503"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := shooters(t)
			for k, v := range c.terrain {
				g.sc.Map.Terrain[h(t, k)] = v
			}
			for k, v := range c.levels {
				g.sc.Map.Elevation[h(t, k)] = v
			}
			blue, red := []string{"CA1", "CA2", "DO1"}, []string{"AN2", "BE1", "BE2"}
			for _, u := range c.units {
				if hx, ok := strings.CutPrefix(u, "red:"); ok {
					g.at(red[0], hx, hex.FaceE, "PK")
					red = red[1:]
					continue
				}
				g.at(blue[0], u, hex.FaceE, "PK")
				blue = blue[1:]
			}
			ok, why := engine.LineOfSight(g.sc, g.st, h(t, c.from), h(t, c.to), c.overUnits)
			switch {
			case c.wantBlock == "" && !ok:
				t.Errorf("LOS %s to %s blocked by %q, want clear", c.from, c.to, why)
			case c.wantBlock != "" && ok:
				t.Errorf("LOS %s to %s clear, want blocked by %q", c.from, c.to, c.wantBlock)
			case c.wantBlock != "" && !strings.Contains(why, c.wantBlock):
				t.Errorf("LOS %s to %s blocked by %q, want %q", c.from, c.to, why, c.wantBlock)
			case ok && why != "":
				t.Errorf("clear LOS with a reason %q", why)
			}
		})
	}
}

// TestCanFireArcs91: through Frontal and Flank hexsides, never Rear nor
// down the Flank/Rear spine; Reaction Fire through Frontal only; the
// Front/Flank spine counts as Front (9.1, 9.3; B&R and Arquebus 11.1).
func TestCanFireArcs91(t *testing.T) {
	for _, c := range []struct {
		target         string
		arc            hex.Aspect
		active, react  string // rule refusing Active (or Return) and Reaction Fire, "" if allowed
		reasonContains string
	}{
		{"0503", hex.Front, "", "", ""},
		{"0704", hex.Front, "", "", ""},
		{"0705", hex.Front, "", "", ""}, // down the Front/Flank spine
		{"0304", hex.Flank, "", "9.1", "Reaction Fire goes through Frontal hexsides only"},
		{"0706", hex.Flank, "", "9.1", "in AN1's Flank"},
		{"0306", hex.Rear, "9.1", "9.1", "in AN1's Rear"},
		{"0507", hex.Rear, "9.1", "9.1", "in AN1's Rear"},
		{"0305", hex.Rear, "9.1", "9.1", "spine between AN1's Flank and Rear"},
	} {
		t.Run(c.target, func(t *testing.T) {
			g := shooters(t)
			an := g.at("AN1", "0505", hex.FaceNE, "LB") // Frontal N, NE; Flank NW, SE; Rear SW, S
			ca := g.at("CA1", c.target, hex.FaceE, "PK")
			if got := engine.FireArc(g.sc, g.st, an, h(t, c.target)); got != c.arc {
				t.Errorf("FireArc to %s = %v, want %v", c.target, got, c.arc)
			}
			r1 := g.wantFire(an, ca, false, c.active)
			r2 := g.wantFire(an, ca, true, c.react)
			for _, r := range []*engine.FireRefusal{r1, r2} {
				if r != nil && !strings.Contains(r.Reason, c.reasonContains) {
					t.Errorf("refusal %q, want it to say %q", r.Reason, c.reasonContains)
				}
			}
		})
	}
}

// TestCanFireRange91: the range counts the target hex, not the firer's,
// up to the weapon's maximum (the length of its range_drm).
func TestCanFireRange91(t *testing.T) {
	g := shooters(t)
	lb := g.at("AN1", "0505", hex.FaceNE, "LB")
	cb := g.at("AN2", "0605", hex.FaceNE, "CB")
	ca := g.at("CA1", "0502", hex.FaceE, "PK")
	if r := engine.FireRange(g.sc, g.st, lb, ca); r != 3 {
		t.Fatalf("range 0505 to 0502 = %d, want 3", r)
	}
	g.wantFire(lb, ca, false, "") // longbow at 3, its maximum
	g.at("CA1", "0501", hex.FaceE, "PK")
	if r := g.wantFire(lb, ca, false, "9.1"); r != nil && !strings.Contains(r.Reason, "4 hexes") {
		t.Errorf("refusal %q", r.Reason)
	}
	g.at("CA1", "0603", hex.FaceE, "PK")
	g.wantFire(cb, ca, false, "") // crossbow at 2, its maximum
	g.at("CA1", "0602", hex.FaceE, "PK")
	g.wantFire(cb, ca, false, "9.1")
}

// TestCanFireWhoAndWhom91: only missile units not Retired fire (9.1,
// 12.4, 14.2), at enemy combat units on the map.
func TestCanFireWhoAndWhom91(t *testing.T) {
	g := shooters(t)
	an := g.at("AN1", "0505", hex.FaceNE, "PK")
	ca := g.at("CA1", "0503", hex.FaceSW, "LB")
	g.wantFire(an, ca, false, "9.1") // pike infantry
	g.at("AN1", "0505", hex.FaceNE, "MHOB")
	g.wantFire(an, ca, false, "14.2") // mounted Hobilars have "no missile capability" (14.2), not 9.1
	g.at("AN1", "0505", hex.FaceNE, "DHOB")
	g.wantFire(an, ca, false, "") // dismounted, they fire as longbowmen
	g.st.Unit("AN1").Type = "MHOB"
	g.wantFire(an, ca, false, "14.2") // the counter's side in play counts
	g.st.Unit("AN1").Type = ""
	g.st.Unit("AN1").Status = engine.Retired
	g.wantFire(an, ca, false, "12.4")
	g.st.Unit("AN1").Status = engine.Disordered
	g.wantFire(an, ca, false, "") // Disordered units fire, at -1
	be := g.at("BE1", "0504", hex.FaceNE, "PK")
	g.wantFire(an, be, false, "9.1") // a friendly unit
	g.st.Unit("CA1").Status = engine.Retired
	g.wantFire(an, ca, false, "") // Retired targets may be fired upon (12.4)
	g.st.Unit("CA1").Status = engine.Eliminated
	g.wantFire(an, ca, false, "9.1")
	g.wantFire(ca, an, false, "12.6")
}

// TestCanFireLineOfSight94: a crossbow may not fire through a unit, a
// longbow may; nobody fires through woods.
func TestCanFireLineOfSight94(t *testing.T) {
	g := shooters(t)
	cb := g.at("AN1", "0505", hex.FaceNE, "CB")
	lb := g.at("AN2", "0506", hex.FaceNE, "LB")
	ca := g.at("CA1", "0503", hex.FaceSW, "PK")
	g.at("BE1", "0504", hex.FaceNE, "PK") // a friendly unit between
	if r := g.wantFire(cb, ca, false, "9.4"); r != nil && !strings.Contains(r.Reason, "BE1 in 0504") {
		t.Errorf("refusal %q", r.Reason)
	}
	g.wantFire(lb, ca, false, "") // range 3, over AN1 and BE1
	g.sc.Map.Terrain[h(t, "0504")] = "woods"
	g.wantFire(lb, ca, false, "9.4")
}

// TestFireModifiers71ExtendedExample replays the fire of men-of-iron.md
// 7.1's Extended Example: two English longbows at two hexes "each get a +1
// DRM—there are no other applicable DRMs"; modified 5 disorders the
// Scottish longbow; its Return Fire, modified 7, disorders LB #1; LB #2's
// 6 on the Disordered column Retires it; its Return Fire with "a -1 DRM
// for being disordered", modified 4, has no effect.
func TestFireModifiers71ExtendedExample(t *testing.T) {
	g := shooters(t)
	lb1 := g.at("AN1", "0505", hex.FaceNE, "LB")
	lb2 := g.at("AN2", "0704", hex.FaceNW, "LB")
	a := g.at("CA1", "0503", hex.FaceSW, "LB")
	fire := g.sc.Tables.Fire
	shot := func(firer, target, die int, wantMods int, wantCol, wantResult string) {
		t.Helper()
		g.wantFire(firer, target, false, "")
		mods := engine.FireModifiers(g.sc, g.st, firer, target)
		col := engine.FireColumn(g.sc, g.st, target)
		res, _ := fire.Lookup(col, die+sum(mods))
		if sum(mods) != wantMods || col != wantCol || res.Text != wantResult {
			t.Errorf("%s at %s: DRM %+d [%s], column %s, %d → %q; want %+d, %s, %q",
				g.sc.Units[firer].ID, g.sc.Units[target].ID, sum(mods), modText(mods), col, die+sum(mods), res.Text, wantMods, wantCol, wantResult)
		}
	}
	// "At a two hex range they each get a +1 DRM": the Fire/Range chart.
	mods := engine.FireModifiers(g.sc, g.st, lb1, a)
	if len(mods) != 1 || mods[0] != (engine.Modifier{DRM: 1, Reason: "Longbow at range 2", Rule: "9.3"}) {
		t.Errorf("LB #1's DRMs: %s", modText(mods))
	}
	shot(lb1, a, 4, +1, engine.FireFoot, "Disordered") // "a modified 5"
	shot(a, lb1, 6, +1, engine.FireFoot, "Disordered") // Return Fire, simultaneous: "a modified 7"
	g.st.Units[a].Status, g.st.Units[lb1].Status = engine.Disordered, engine.Disordered
	shot(lb2, a, 6, +1, engine.FireFootDisordered, "Retire") // "He rolls a 6" (7 modified; 6 Retires too)
	if res, _ := fire.Lookup(engine.FireFootDisordered, 6); res.Text != "Retire" {
		t.Errorf("foot-disordered 6 = %q, want Retire", res.Text)
	}
	shot(a, lb2, 4, 0, engine.FireFoot, "No Effect") // Return Fire at -1 for Disorder: "a modified 4"
	mods = engine.FireModifiers(g.sc, g.st, a, lb2)
	if len(mods) != 2 || mods[1] != (engine.Modifier{DRM: -1, Reason: "CA1 is Disordered", Rule: "12.2"}) {
		t.Errorf("Return Fire by the Disordered longbow: %s", modText(mods))
	}
}

// TestFireAngleOfFire93: +1 against a Mounted target fired at through its
// Flank hexsides; not through Front or Rear, not down a spine, not against
// foot.
func TestFireAngleOfFire93(t *testing.T) {
	for _, c := range []struct {
		name       string
		firerHex   string
		firerFace  hex.Facing
		targetHex  string
		targetFace hex.Facing
		typ        string
		through    hex.Aspect
		want       int
	}{
		{"mounted through its Flank", "0505", hex.FaceNE, "0503", hex.FaceE, "MMAA", hex.Flank, 1 + 1},
		{"mounted through its Front", "0505", hex.FaceNE, "0503", hex.FaceSE, "MMAA", hex.Front, 1},
		{"mounted through its Rear", "0505", hex.FaceNE, "0503", hex.FaceNE, "MMAA", hex.Rear, 1},
		{"foot through its Flank", "0505", hex.FaceNE, "0503", hex.FaceE, "PK", hex.Flank, 1},
		{"mounted down its Front/Flank spine", "0406", hex.FaceE, "0606", hex.FaceNW, "MMAA", hex.Front, 1},
		{"mounted down its Flank/Rear spine", "0406", hex.FaceE, "0606", hex.FaceNE, "MMAA", hex.Rear, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := shooters(t)
			an := g.at("AN1", c.firerHex, c.firerFace, "LB")
			ca := g.at("CA1", c.targetHex, c.targetFace, c.typ)
			g.wantFire(an, ca, false, "")
			if got := engine.FiredThrough(g.sc, g.st, an, ca); got != c.through {
				t.Errorf("fired through %v, want %v", got, c.through)
			}
			if mods := engine.FireModifiers(g.sc, g.st, an, ca); sum(mods) != c.want {
				t.Errorf("DRM %+d [%s], want %+d", sum(mods), modText(mods), c.want)
			}
		})
	}
}

// TestFireDisorderedFirer122: a Disordered firer subtracts one.
func TestFireDisorderedFirer122(t *testing.T) {
	g := shooters(t)
	an := g.at("AN1", "0505", hex.FaceNE, "CB")
	ca := g.at("CA1", "0504", hex.FaceSW, "PK")
	g.st.Units[an].Status = engine.Disordered
	mods := engine.FireModifiers(g.sc, g.st, an, ca)
	if want := "+1 Crossbow at range 1 (9.3); -1 AN1 is Disordered (12.2)"; modText(mods) != want {
		t.Errorf("DRMs %s, want %s", modText(mods), want)
	}
}

// TestFireRetiredTarget124: a Retired target is fired on as Disordered,
// +2.
func TestFireRetiredTarget124(t *testing.T) {
	g := shooters(t)
	an := g.at("AN1", "0505", hex.FaceNE, "LB")
	ca := g.at("CA1", "0502", hex.FaceSW, "MMAA")
	g.st.Units[ca].Status = engine.Retired
	mods := engine.FireModifiers(g.sc, g.st, an, ca)
	if want := "+0 Longbow at range 3 (9.3); +2 CA1 is Retired (fired on as Disordered) (12.4)"; modText(mods) != want {
		t.Errorf("DRMs %s, want %s", modText(mods), want)
	}
	if col := engine.FireColumn(g.sc, g.st, ca); col != engine.FireMountedDisordered {
		t.Errorf("column %s, want %s", col, engine.FireMountedDisordered)
	}
}

// TestFireShieldWall141: a unit in Shield Wall fired on through a Frontal
// hexside earns -1; through a Flank it does not.
func TestFireShieldWall141(t *testing.T) {
	g := shooters(t)
	an := g.at("AN1", "0505", hex.FaceNE, "LB")
	ca := g.at("CA1", "0503", hex.FaceSW, "PK")
	g.st.Units[ca].ShieldWall = true
	if mods := engine.FireModifiers(g.sc, g.st, an, ca); sum(mods) != 0 || len(mods) != 2 || mods[1].Rule != "14.1" {
		t.Errorf("through its Front: %s, want +1 range -1 Shield Wall", modText(mods))
	}
	g.at("CA1", "0503", hex.FaceE, "PK")
	if mods := engine.FireModifiers(g.sc, g.st, an, ca); sum(mods) != 1 {
		t.Errorf("through its Flank: %s, want +1 range only", modText(mods))
	}
}

// TestFireColumn93: foot or Mounted, Normal or Disordered (9.3, 12.1), a
// Retired target as Disordered (12.4); every column is the tables'.
func TestFireColumn93(t *testing.T) {
	g := shooters(t)
	ca := g.at("CA1", "0503", hex.FaceSW, "PK")
	for _, c := range []struct {
		typ    string
		status engine.Status
		want   string
	}{
		{"PK", engine.Normal, engine.FireFoot},
		{"PK", engine.Disordered, engine.FireFootDisordered},
		{"LB", engine.Retired, engine.FireFootDisordered},
		{"MMAA", engine.Normal, engine.FireMounted},
		{"GEN", engine.Disordered, engine.FireMountedDisordered},
		{"MMAA", engine.Retired, engine.FireMountedDisordered},
	} {
		g.at("CA1", "0503", hex.FaceSW, c.typ)
		g.st.Units[ca].Status = c.status
		got := engine.FireColumn(g.sc, g.st, ca)
		if got != c.want {
			t.Errorf("%s %v: column %s, want %s", c.typ, c.status, got, c.want)
		}
		if _, ok := g.sc.Tables.Fire.Lookup(got, 5); !ok {
			t.Errorf("column %s is not in the tables' Fire Results Table", got)
		}
	}
}
