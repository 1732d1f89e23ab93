package engine_test

import (
	"maps"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus 7.2: on the Terrain Chart "'D' means there is a chance of
// Disorder" (terrain and hexsides' disorder, movement.terrain_disorder_max
// 4; ruling R406). AN2, a Men-at-Arms (MA 7, Disordered 6), crosses the
// house River (D, +3 MP) from 0303 into 0304 and rides on south: 4, 5, 6
// and 7 MP. A 3 Disorders it and it stops at 0306, its Disordered MA; a 5
// does not, and it reaches 0307. Already Disordered it does not roll (no
// die in the script). Along a road there is no roll.
func TestArquebusTerrainDisorderOnEntry(t *testing.T) {
	path := "MOVE AN2 0304 0305 0306 0307"
	for _, c := range []struct {
		name       string
		dice       []int
		disordered bool // before the move
		order      string
		end        string
		rolled     bool
		result     engine.Status
	}{
		{"a 3 Disorders", []int{3}, false, path, "0306", true, engine.Disordered},
		{"a 5 does not", []int{5}, false, path, "0307", true, engine.Normal},
		{"already Disordered", nil, true, "MOVE AN2 0304 0305 0306", "0306", false, engine.Disordered},
	} {
		g := arqMelee(t, c.dice...)
		g.troop("AN2", "0303", hex.FaceSE, "MM")
		g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, "0303"), B: h(t, "0304"), Feature: "river"})
		if c.disordered {
			g.st.Unit("AN2").Status = engine.Disordered
		}
		res := g.send(red, "ACTIVATE Anna\n"+c.order)
		r, rolled := findEvent[engine.TerrainDisorderRolled](res.Events)
		if rolled != c.rolled || rolled && (r.Roll.Die != c.dice[0] || r.Max != 4 || r.Disordered != (c.result == engine.Disordered) || !strings.Contains(r.Terrain, "River")) {
			t.Errorf("%s: roll %v %+v\n%s", c.name, rolled, r, g.story(res.Events))
		}
		if u := g.unit("AN2"); u.Hex.String() != c.end || u.Status != c.result {
			t.Errorf("%s: AN2 %+v, want in %s, %v\n%s", c.name, u, c.end, c.result, g.story(res.Events))
		}
	}

	// A "D" hex (here Cropfields for foot, on a copy of the tables): a
	// Pike entering 0304 rolls; one going round it does not.
	g := arqMelee(t, 2)
	crop := *g.sc.Tables.Terrain["cropfields"]
	crop.Disorder = map[engine.Class]bool{engine.Foot: true}
	g.sc.Tables.Terrain = maps.Clone(g.sc.Tables.Terrain)
	g.sc.Tables.Terrain["cropfields"] = &crop
	g.sc.Map.Terrain[h(t, "0304")] = "cropfields"
	g.troop("AN2", "0303", hex.FaceSE, "PK")
	res := g.send(red, "ACTIVATE Anna\nMOVE AN2 0304 0305")
	if r, ok := findEvent[engine.TerrainDisorderRolled](res.Events); !ok || r.Roll.Die != 2 || !r.Disordered || !strings.Contains(r.Terrain, "Cropfields in 0304") {
		t.Errorf("cropfields: roll %v %+v", ok, r)
	}
	// PK: MA 4, Disordered 3; 0304 and 0305 cost 1 each.
	if u := g.unit("AN2"); u.Hex.String() != "0305" || u.Status != engine.Disordered {
		t.Errorf("cropfields: AN2 %+v, want Disordered in 0305", u)
	}
	g = arqMelee(t)
	g.sc.Tables.Terrain = maps.Clone(g.sc.Tables.Terrain)
	g.sc.Tables.Terrain["cropfields"] = &crop
	g.sc.Map.Terrain[h(t, "0304")] = "cropfields"
	g.troop("AN2", "0303", hex.FaceSE, "MM") // mounted: no "D" for its class
	g.send(red, "ACTIVATE Anna\nMOVE AN2 0304 0305")
	if u := g.unit("AN2"); u.Hex.String() != "0305" || u.Status != engine.Normal {
		t.Errorf("cropfields, mounted: AN2 %+v, want in 0305 unrolled", u)
	}
}

// Arquebus 12.3 #2B: "A unit may attack into/across any terrain not listed
// as NA in the Shock/Charge DRM column on the Terrain Chart, whether it is
// prohibited from entering the terrain or not" (ruling R406). The Torre
// del Gallo's impassable hexside is NA: AN1 may not Shock CA1 across it,
// nor must it (12.1 "unless those units ... are across/in terrain into
// which the Active unit cannot attack"); a Wall (−2) it may attack across
// although foot pay 2 MP and mounted may not cross it.
func TestArquebusShockNA(t *testing.T) {
	for _, feature := range []string{"impassable", "wall"} {
		g := arqMelee(t, 5)
		p := brAround(g)
		g.troop("CA1", p.c, hex.FaceSW, "AQ")
		g.troop("AN1", p.x, hex.FaceNE, "PK")
		g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, p.x), B: h(t, p.c), Feature: feature})
		g.send(blue, "STANDING RETREAT BEFORE SHOCK NEVER")
		g.send(red, "ACTIVATE Anna")
		if feature == "impassable" {
			e := g.refuse(red, "SHOCK AN1 AT CA1", "Arquebus 12.3 #2B")
			if !strings.Contains(e.Reason, "Impassable") {
				t.Errorf("refusal %v does not name the hexside", e)
			}
			if evs := g.send(red, "END").Events; len(resolved(evs)) != 0 {
				t.Errorf("an attack across the impassable hexside:\n%s", g.story(evs))
			}
			continue
		}
		atts := resolved(g.send(red, "SHOCK AN1 AT CA1\nEND").Events)
		if len(atts) != 1 || atts[0].Roll.Die != 5 {
			t.Errorf("across a wall: attacks %+v, want one on a die of 5", atts)
		}
	}
}

// 12.3 #2B holds for a Charge too: AN2 may not Charge CA1 across a
// hexside whose Shock DRM is NA for mounted units (a Stream so marked, on
// a copy of the tables) at the end of its path.
func TestArquebusChargeNA(t *testing.T) {
	g := arqMelee(t)
	p := brAround(g)
	st := *g.sc.Tables.Hexsides["stream"]
	st.NoShock = map[engine.Class]bool{engine.Mounted: true}
	g.sc.Tables.Hexsides = maps.Clone(g.sc.Tables.Hexsides)
	g.sc.Tables.Hexsides["stream"] = &st
	g.troop("CA1", p.c, hex.FaceNE, "AQ")
	g.troop("AN2", p.w, hex.FaceNE, "MM")
	g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, p.x), B: h(t, p.c), Feature: "stream"})
	g.send(red, "ACTIVATE Anna")
	e := g.refuse(red, "CHARGE AN2 AT CA1", "11.3")
	if !strings.Contains(e.Reason, "Arquebus 12.3 #2B") {
		t.Errorf("refusal %v does not cite 12.3 #2B", e)
	}
}
