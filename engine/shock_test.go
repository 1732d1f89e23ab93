package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// melee is the shooters fixture (Men of Iron's house tables) with the
// Anna's Command made of AN1, AN2, BE1 and BE2, commanded from anywhere on the
// small map, and the leaders out of the way in the map's corners.
func melee(t *testing.T, dice ...int) *game {
	t.Helper()
	g := shooters(t)
	g.dice = engine.NewScript(dice...)
	for i := range g.sc.Units {
		if id := g.sc.Units[i].ID; id == "BE1" || id == "BE2" {
			g.sc.Units[i].Command = "anna"
		}
	}
	for i := range g.sc.Leaders {
		g.sc.Leaders[i].Range = 20
	}
	g.lead("anna", "0101")
	g.lead("bert", "0110")
	g.lead("carl", "1001")
	g.lead("dora", "1010")
	return g
}

// lead puts a leader in a hex.
func (g *game) lead(id, at string) {
	g.t.Helper()
	g.st.Leader(id).Hex = h(g.t, at)
}

// troop places unit id as a unit of type typ with the type's printed
// ratings, and returns its index.
func (g *game) troop(id, at string, f hex.Facing, typ string) int {
	g.t.Helper()
	i := g.at(id, at, f, typ)
	g.sc.Units[i].Ratings = g.sc.Tables.UnitTypes[typ].Ratings
	return i
}

func resolved(evs []engine.Event) []engine.AttackResolved {
	var out []engine.AttackResolved
	for _, e := range evs {
		if r, ok := e.(engine.AttackResolved); ok {
			out = append(out, r)
		}
	}
	return out
}

// wantAttack checks one AttackResolved: the die, the modifiers in the
// book's order (DRM and rule), the total, the table and the result.
func wantAttack(t *testing.T, got engine.AttackResolved, defender string, die int, mods []string, total int, table, result string) {
	t.Helper()
	var have []string
	for _, m := range got.Roll.Mods {
		have = append(have, strings.TrimSpace(strings.Join([]string{signed(m.DRM), m.Rule}, " ")))
	}
	if got.Defender != defender || got.Roll.Die != die || strings.Join(have, "; ") != strings.Join(mods, "; ") ||
		got.Roll.Total != total || !strings.HasPrefix(got.Table, table) || got.Result != result {
		t.Errorf("attack on %s: got %s die %d mods [%s] total %d, %s: %q\nwant %s die %d mods [%s] total %d, %s: %q\n(%s)",
			defender, got.Defender, got.Roll.Die, strings.Join(have, "; "), got.Roll.Total, got.Table, got.Result,
			defender, die, strings.Join(mods, "; "), total, table, result, modText(got.Roll.Mods))
	}
}

func signed(n int) string {
	if n >= 0 {
		return "+" + string(rune('0'+n%10))
	}
	return "-" + string(rune('0'-n%10))
}

// TestShockBookExample replays the Extended Example of men-of-iron.md, 8.0
// and 9.4 to 10.5: the English Dismounted MAA X (AN1) moves next to the
// Scottish Longbow B (CA1), which disorders it by Reaction Fire (6); the
// Mounted MAA Y (AN2) stands next to the Pike C (CA2) and Z (BE1) moves to
// stand off, then charges C. X Shocks B: +1 B's Shock DRM, +2 WSM, -2
// attacker Disordered, 2 -> 3, "attacker disordered", ignored. Y and Z
// against C: reluctance 4 succeeds; +1 Strength, +4 front and flank, +1
// Charge after moving (+0 WSM, +0 Pike), 6 -> 12 on the Charge Table:
// "Defender Disordered, Retreat 1 Hex, Continued Attack". Z, the charger,
// advances keeping its facing and attacks the Longbow and the Disordered
// Pike in its Frontal hexes: vs the Longbow -1 Strength, +1 Shock DRM, +2
// Flank, +3 WSM and 12.7's -1 for its previous attack: 3 -> 7 (the book
// prints 8, leaving the -1 out; ruling R78) "Defender Disordered, Retreat
// 1 Hex"; vs the Pike -1 Strength, +1 Shock DRM (Disordered side), -1
// (12.7): 6 -> 5 (book: 6), Disordered column, "Defender Retired". Both
// hexes vacated, Z advances into the first.
func TestShockBookExample(t *testing.T) {
	g := melee(t, 6, 4, 2, 6, 3, 6)
	g.troop("AN1", "0806", hex.FaceW, "DMAA") // X
	g.troop("AN2", "0605", hex.FaceW, "MMAA") // Y, already next to C
	g.troop("BE1", "0304", hex.FaceE, "MMAA") // Z
	g.troop("CA1", "0606", hex.FaceNE, "LB")  // B
	g.troop("CA2", "0505", hex.FaceNW, "PK")  // C
	g.st.Standards[1].Hex = h(t, "0708")      // the Scots' Standard, south
	g.send(0, "ACTIVATE Anna\nMOVE AN1 0705\nMOVE BE1 0404")
	if u := g.unit("AN1"); u.Status != engine.Disordered {
		t.Fatalf("X after the Longbow's Reaction Fire: %v, want Disordered (8.0 Example Continued)", u.Status)
	}
	res := g.send(0, "SHOCK AN1 AT CA1\nSHOCK AN2 AT CA2\nCHARGE BE1 AT CA2 0504\nEND")
	rel, ok := findEvent[engine.ChargeReluctance](res.Events)
	if !ok || rel.Roll.Die != 4 || !rel.Charges {
		t.Errorf("Charge Reluctance: %+v, want a 4 that charges home (11.4)", rel)
	}
	if cm, _ := findEvent[engine.ChargeMade](res.Events); cm.Facing != hex.FaceSE {
		t.Errorf("Z charges facing %v, want SE: turned one vertex to face the Pike (11.3)", cm.Facing)
	}
	atts := resolved(res.Events)
	if len(atts) != 4 {
		t.Fatalf("%d attacks resolved, want 4:\n%s", len(atts), strings.Join(narrative(g.sc, res.Events), "\n"))
	}
	wantAttack(t, atts[0], "CA1", 2, []string{"+1 10.4 #3", "+2 10.4 #6", "-2 10.4 #7"}, 3, "Shock", "Attacker Disordered")
	wantAttack(t, atts[1], "CA2", 6, []string{"+1 10.4 #1", "+4 10.4 #2A", "+1 10.4 #4, 11.2"}, 12, "Charge",
		"Defender Disordered, Retreat 1 Hex, Continued Attack")
	wantAttack(t, atts[2], "CA1", 3, []string{"-1 10.4 #1", "+2 10.4 #2A", "+1 10.4 #3", "+3 10.4 #6", "-1 12.7"}, 7, "Shock",
		"Defender Disordered, Retreat 1 Hex")
	wantAttack(t, atts[3], "CA2", 6, []string{"-1 10.4 #1", "+1 10.4 #3", "-1 12.7"}, 5, "Shock", "Defender Retired")
	if atts[3].Column != "disordered" || atts[2].Column != "normal" {
		t.Errorf("columns %s, %s; want normal for the Longbow, disordered for the Pike (12.1)", atts[2].Column, atts[3].Column)
	}
	var ca engine.ShockRound
	for _, e := range res.Events {
		if r, ok := e.(engine.ShockRound); ok && r.Round == 1 {
			ca = r
		}
	}
	if strings.Join(ca.Units, ",") != "BE1" {
		t.Errorf("Continued Attack round: %+v, want Z (BE1) alone, the unit that advanced (10.5 example)", ca)
	}
	var adv []string
	for _, e := range res.Events {
		if a, ok := e.(engine.UnitAdvanced); ok {
			adv = append(adv, a.Unit+"->"+a.To.String())
		}
	}
	if strings.Join(adv, " ") != "BE1->0505 BE1->0606" {
		t.Errorf("advances %v, want Z into the Pike's hex, then into the Longbow's (10.5)", adv)
	}
	z, b, c := g.unit("BE1"), g.unit("CA1"), g.unit("CA2")
	if z.Facing != hex.FaceSE || z.Status != engine.Normal {
		t.Errorf("Z: %+v, want Normal facing SE (12.7: no facing change with a Continued Attack)", z)
	}
	if b.Status != engine.Disordered || b.Hex == h(t, "0606") {
		t.Errorf("Longbow: %+v, want Disordered and retreated", b)
	}
	if c.Status != engine.Retired {
		t.Errorf("Pike: %+v, want Retired by its Standard (12.4)", c)
	}
	if x := g.unit("AN1"); x.Status != engine.Disordered || x.Hex != h(t, "0705") {
		t.Errorf("X: %+v, want still Disordered in 0705 (12.2)", x)
	}
	if g.st.Pending.Kind != engine.DecideContinuation {
		t.Errorf("after the Shock Phase: %s", engine.Waiting(g.sc, g.st))
	}
}
