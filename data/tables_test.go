package data

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"herald/engine"
)

func moi(t *testing.T) *engine.Tables {
	t.Helper()
	tb, err := Tables("moi")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestRequiredTableValues: every value the examples of men-of-iron.md
// reveal, looked up as the engine will (docs/rulings.md R34).
func TestRequiredTableValues(t *testing.T) {
	tb := moi(t)
	if !tb.House || tb.Volume != "moi" {
		t.Errorf("volume %q house %v", tb.Volume, tb.House)
	}
	for _, c := range []struct {
		table  string
		column string
		total  int
		want   string
		source string
	}{
		{"fire", "foot", 4, "No Effect", "7.1 Extended Example: modified 4 = No effect"},
		{"fire", "foot", 5, "Disordered", "7.1 Extended Example: modified 5 -> Disordered"},
		{"fire", "foot", 6, "Disordered", "8.0 Example Continued: a 6 disorders (if modified)"},
		{"fire", "foot", 7, "Disordered", "7.1 Extended Example: Return Fire modified 7 -> Disordered"},
		{"fire", "foot", 8, "Disordered", "8.0 Example Continued: a raw 6 +2 = 8 disorders (if raw)"},
		{"fire", "foot-disordered", 6, "Retire", "7.1 Extended Example: a 6 Retires (if modified)"},
		{"fire", "foot-disordered", 7, "Retire", "7.1 Extended Example: a raw 6 +1 = 7 Retires (if raw)"},
		{"fire", "mounted-disordered", 1, "No Effect", "infidel.md 11.2 Example: modified 1 -> No Result"},
		{"shock", "normal", 3, "Attacker Disordered", "9.4 Example Continued: 2 +1 +2 -2 = 3"},
		{"shock", "normal", 7, "Defender Disordered, Retreat 1 Hex", "10.5 Example Continued, with the 12.7 -1"},
		{"shock", "normal", 8, "Defender Disordered, Retreat 1 Hex", "10.5 Example Continued, as printed"},
		{"shock", "disordered", 5, "Defender Retired", "10.5 Example Continued, with the 12.7 -1"},
		{"shock", "disordered", 6, "Defender Retired", "10.5 Example Continued, as printed"},
		{"charge", "normal", 12, "Defender Disordered, Retreat 1 Hex, Continued Attack", "9.4 Example Continued: 6 modified to 12"},
	} {
		t.Run(fmt.Sprintf("%s/%s/%d", c.table, c.column, c.total), func(t *testing.T) {
			rt := map[string]*engine.ResultTable{"fire": &tb.Fire, "shock": &tb.Shock, "charge": &tb.Charge}[c.table]
			res, ok := rt.Lookup(c.column, c.total)
			if !ok || res.Text != c.want {
				t.Errorf("%s %s modified %d = %q (%v), want %q (men-of-iron.md %s)", c.table, c.column, c.total, res.Text, ok, c.want, c.source)
			}
		})
	}

	// The effects behind the texts.
	res, _ := tb.Charge.Lookup("normal", 12)
	if !res.ContinuedAttack || len(res.Defender) != 2 || res.Defender[0].Kind != engine.EffectDisordered ||
		res.Defender[1] != (engine.Effect{Kind: engine.EffectRetreat, Hexes: 1}) || len(res.Attacker) != 0 {
		t.Errorf("charge normal 12 effects %+v", res)
	}
	res, _ = tb.Shock.Lookup("normal", 3)
	if len(res.Attacker) != 1 || res.Attacker[0].Kind != engine.EffectDisordered || len(res.Defender) != 0 {
		t.Errorf("shock normal 3 effects %+v", res)
	}
	res, _ = tb.Fire.Lookup("foot", 5)
	if len(res.Defender) != 1 || res.Defender[0].Kind != engine.EffectDisordered {
		t.Errorf("fire foot 5 effects %+v", res)
	}

	// 9.3 Example: the Disordered column has a Retreat.
	retreat := false
	for _, r := range tb.Fire.Rows {
		for _, e := range r.Results["foot-disordered"].Defender {
			retreat = retreat || e.Kind == engine.EffectRetreat
		}
	}
	if !retreat {
		t.Error("no Retreat on the Fire table's foot-disordered column (9.3 Example)")
	}
	// 15.4: rows reach a modified 9 and beyond, printed.
	if last := tb.Fire.Rows[len(tb.Fire.Rows)-1]; last.Min < 9 && last.Max < 9 {
		t.Error("the Fire table prints no row for 9 or more (15.4)")
	}
	if tb.Fire.Rows[len(tb.Fire.Rows)-1].Min <= 9 {
		t.Error("the Fire table should print rows beyond 9")
	}
	// The Fire Table's circumstance DRMs the rules state (12.2, 12.4, 9.3,
	// 14.1), and Herald's own for the Bombard marker (ruling R116).
	if want := (engine.FireDRMs{DisorderedFirer: -1, RetiredTarget: 2, AngleOfFire: 1, ShieldWall: -1, Bombard: 1}); !reflect.DeepEqual(tb.FireDRM, want) {
		t.Errorf("fire_drm %+v, want %+v", tb.FireDRM, want)
	}
}

func TestRequiredWSMAndWeapons(t *testing.T) {
	tb := moi(t)
	for _, c := range []struct {
		att, def string
		want     int
	}{
		{"DMAA", "LB", 2},  // 9.4 Example Continued
		{"MMAA", "PK", 0},  // 9.4 Example Continued
		{"MMAA", "LB", 3},  // 10.5 Example Continued
		{"AX", "UMAA", 2},  // 10.4 #6 Example
		{"UMAA", "AX", -1}, // 10.4 #6 Example
	} {
		row, ok := tb.WSM[c.att]
		if got, ok2 := row[c.def]; !ok || !ok2 || got != c.want {
			t.Errorf("WSM %s -> %s = %d, want %+d", c.att, c.def, got, c.want)
		}
	}
	// 10.1: only attackers listed may Shock; mounted Hobilars and missile
	// infantry may not (14.2, 7.1 Design Note).
	for _, ty := range []string{"LB", "CB", "SL", "MHOB", "DHOB"} {
		if _, ok := tb.WSM[ty]; ok {
			t.Errorf("%s is listed as an attacker", ty)
		}
	}
	// Every attacker row covers every type.
	for att, row := range tb.WSM {
		if len(row) != len(tb.UnitTypes) {
			t.Errorf("WSM row %s has %d columns, want %d", att, len(row), len(tb.UnitTypes))
		}
	}
	lb := tb.Weapons["longbow"]
	if lb == nil || len(lb.RangeDRM) < 2 || lb.RangeDRM[0] != 2 || lb.RangeDRM[1] != 1 {
		t.Errorf("longbow range DRMs %+v, want +2 at 1 (9.3) and +1 at 2 (7.1)", lb)
	}
	cb := tb.Weapons["crossbow"]
	if cb == nil || cb.ReturnFire || cb.ReactionTargets != 1 || cb.OverUnits {
		t.Errorf("crossbow %+v: no Return Fire, one Reaction target (9.2), not over units (9.4)", cb)
	}
	for key, w := range tb.Weapons {
		if key != "crossbow" && (!w.ReturnFire || !w.OverUnits || w.ReactionTargets != 0) {
			t.Errorf("weapon %s: %+v", key, w)
		}
		for r := 1; r < len(w.RangeDRM); r++ {
			if w.RangeDRM[r] > w.RangeDRM[r-1] {
				t.Errorf("weapon %s: range %d DRM %+d is better than range %d", key, r+1, w.RangeDRM[r], r)
			}
		}
	}
	if fp := tb.FlightPoints; fp != (engine.FlightPointValues{Retired: 1, Leader: 2, King: 3}) {
		t.Errorf("flight points %+v (16.0)", fp)
	}
}

func TestUnitTypes(t *testing.T) {
	tb := moi(t)
	type want struct {
		mounted, missile, maa, zoc, charges bool
		fp                                  int
	}
	for key, w := range map[string]want{
		"LB":   {missile: true, zoc: true, fp: 2},
		"CB":   {missile: true, zoc: true, fp: 2},
		"SL":   {missile: true, zoc: true, fp: 2},
		"PK":   {fp: 2},
		"AX":   {fp: 2},
		"MMAA": {mounted: true, maa: true, zoc: true, charges: true, fp: 3},
		"DMAA": {maa: true, fp: 3},
		"UMAA": {maa: true, fp: 3},
		"MHOB": {mounted: true, fp: 2},
		"DHOB": {missile: true, zoc: true, fp: 2},
		// 2.5: "At some battles (Poitiers, for instance) they were armed
		// with crossbows".
		"MHOBC": {mounted: true, fp: 2},
		"DHOBC": {missile: true, zoc: true, fp: 2},
		"GEN":   {mounted: true, missile: true, zoc: true, fp: 2},
	} {
		ut := tb.UnitTypes[key]
		if ut == nil {
			t.Errorf("no unit type %s", key)
			continue
		}
		got := want{ut.Mounted, ut.Missile(), ut.MAA, ut.ZOC, ut.Charges, ut.FlightPoints}
		if got != w {
			t.Errorf("%s = %+v, want %+v", key, got, w)
		}
		r := ut.Ratings
		if r.MADisordered != r.MA-1 || r.ShockDisordered < r.Shock {
			t.Errorf("%s ratings %+v: Disordered is one MA less and no better in Shock (12.2)", key, r)
		}
	}
	if len(tb.UnitTypes) != 13 {
		t.Errorf("%d unit types", len(tb.UnitTypes))
	}
	if r := tb.UnitTypes["LB"].Ratings; r.Shock != 1 {
		t.Errorf("Longbow Shock DRM %+d, want +1 (10.5 Example)", r.Shock)
	}
	if r := tb.UnitTypes["PK"].Ratings; r.Shock != 0 || r.ShockDisordered != 1 {
		t.Errorf("Pike Shock DRMs %+d/%+d, want 0/+1 (9.4, 10.5 Examples)", r.Shock, r.ShockDisordered)
	}
}

func TestTerrain(t *testing.T) {
	tb := moi(t)
	for _, k := range []string{"woods", "town", "castle", "building", "village"} {
		if tt := tb.Terrain[k]; tt == nil || !tt.BlocksLOS {
			t.Errorf("%s must block LOS (9.4)", k)
		}
	}
	if tb.Terrain["clear"].BlocksLOS {
		t.Error("clear blocks LOS")
	}
	for _, k := range []string{"woods", "marsh", "city", "rough"} {
		if tt := tb.Terrain[k]; tt == nil || !tt.NoCharge {
			t.Errorf("%s must forbid Charges (11.3)", k)
		}
	}
	for _, k := range []string{"river", "steep-slope"} {
		if ht := tb.Hexsides[k]; ht == nil || !ht.NoCharge {
			t.Errorf("%s must forbid Charges (11.3)", k)
		}
	}
	if ht := tb.Hexsides["hedge"]; ht == nil || ht.Reluctance != 1 {
		t.Error("hedges add +1 to Charge Reluctance (11.4 Play Note)")
	}
	if ht := tb.Hexsides["road"]; ht == nil || !ht.Road {
		t.Error("no road")
	}
	for _, k := range []string{"slope", "steep-slope"} {
		if ht := tb.Hexsides[k]; ht == nil || !ht.Slope {
			t.Errorf("%s is not a slope", k)
		}
	}
	for key, tt := range tb.Terrain {
		for _, c := range []engine.Class{engine.Foot, engine.Mounted, engine.Leader} {
			if _, ok := tt.Cost[c]; !ok {
				t.Errorf("terrain %s has no %s cost", key, c)
			}
		}
		// 5.1: a leader alone uses the most advantageous column.
		if l := tt.Cost[engine.Leader]; l == engine.NA {
			t.Errorf("terrain %s: leaders may not enter", key)
		}
	}
	if tb.Terrain["marsh"].Cost[engine.Mounted] != engine.NA || tb.Terrain["marsh"].Cost[engine.Leader] != 3 {
		t.Errorf("marsh costs %v", tb.Terrain["marsh"].Cost)
	}
}

// severity scores a result from the defender's point of view: higher is
// worse for the target or defender.
func severity(r engine.Result) int {
	score := func(effs []engine.Effect) int {
		s := 0
		for _, e := range effs {
			switch e.Kind {
			case engine.EffectDisordered:
				s += 2
			case engine.EffectRetreat:
				s += 2 * e.Hexes
			case engine.EffectRetired:
				s += 6
			case engine.EffectUnhorsed:
				s += 6
			case engine.EffectEliminated:
				s += 10
			}
		}
		return s
	}
	s := score(r.Defender) - score(r.Attacker)
	if r.ContinuedAttack {
		s++
	}
	return s
}

// TestHouseTablesMonotone: a higher modified roll is never better for the
// target or defender, and the Disordered column never better than the
// Normal one; rows are contiguous and open at both ends.
func TestHouseTablesMonotone(t *testing.T) {
	tb := moi(t)
	for _, rt := range []*engine.ResultTable{&tb.Fire, &tb.Shock, &tb.Charge} {
		rows := rt.Rows
		if rows[0].Min > -1000 || rows[len(rows)-1].Max < 1000 {
			t.Errorf("%s: first and last rows must be open-ended", rt.Name)
		}
		for i := 1; i < len(rows); i++ {
			if rows[i].Min != rows[i-1].Max+1 {
				t.Errorf("%s: rows %d and %d are not contiguous", rt.Name, i-1, i)
			}
		}
		for _, col := range rt.Columns {
			prev := -1 << 30
			for total := -3; total <= 16; total++ {
				res, ok := rt.Lookup(col, total)
				if !ok {
					t.Fatalf("%s %s %d: no result", rt.Name, col, total)
				}
				if s := severity(res); s < prev {
					t.Errorf("%s %s: modified %d (%q) is better for the defender than %d", rt.Name, col, total, res.Text, total-1)
				} else {
					prev = s
				}
			}
		}
		pairs := [][2]string{{"normal", "disordered"}}
		if rt == &tb.Fire {
			pairs = [][2]string{{"foot", "foot-disordered"}, {"mounted", "mounted-disordered"}, {"mounted", "foot"}, {"mounted-disordered", "foot-disordered"}}
		}
		for _, p := range pairs {
			for total := -3; total <= 16; total++ {
				a, _ := rt.Lookup(p[0], total)
				b, _ := rt.Lookup(p[1], total)
				if severity(b) < severity(a) {
					t.Errorf("%s modified %d: %s (%q) is better for the defender than %s (%q)", rt.Name, total, p[1], b.Text, p[0], a.Text)
				}
			}
		}
	}
}

// TestVolumeShockSwitches: the keys a later volume uses to change Charge
// Reluctance and Counter-Charge (Infidel 13.5, 13.7; Blood & Roses
// 13.7–13.9) are read, and absent they leave Men of Iron's rules.
func TestVolumeShockSwitches(t *testing.T) {
	if m := moi(t); m.Rules.ReluctanceOwnDRM || m.Rules.LeaderCharisma || m.Rules.CounterChargeNoDefense || m.ShockDRM.CounterChargeMaxBy != nil || m.UnitTypes["MMAA"].NeverReluctant {
		t.Errorf("Men of Iron's tables switch a later volume's rule on: %+v, %+v", m.Rules, m.ShockDRM)
	}
	b, err := files.ReadFile("tables/moi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "  counter_charge_facing: +1", "  counter_charge_max_charge: 3\n  counter_charge_max_fire: 5\n  counter_charge_facing: +1", 1)
	s = strings.Replace(s, "\nrules:\n", "\nrules:\n  reluctance_own_drm: true\n  counter_charge_defense_drm: false\n  leader_charisma: true\n", 1)
	s = strings.Replace(s, "    name: Pike Infantry\n", "    name: Pike Infantry\n    never_reluctant: true\n", 1)
	tb, err := ParseTables("inf-like.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Rules.ReluctanceOwnDRM || !tb.Rules.CounterChargeNoDefense || !tb.Rules.LeaderCharisma || !tb.UnitTypes["PK"].NeverReluctant {
		t.Errorf("switches not read: %+v, PK %+v", tb.Rules, tb.UnitTypes["PK"])
	}
	if want := map[string]int{"charge": 3, "fire": 5}; !reflect.DeepEqual(tb.ShockDRM.CounterChargeMaxBy, want) {
		t.Errorf("CounterChargeMaxBy %v, want %v", tb.ShockDRM.CounterChargeMaxBy, want)
	}
	bad := strings.Replace(s, "reluctance_own_drm: true", "reluctance_own_drm: often", 1)
	if _, err := ParseTables("bad.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "rules.reluctance_own_drm") {
		t.Errorf("a switch that is not true or false: %v", err)
	}
}

// A leader's Charisma (Blood & Roses 5.4) is read from the battle file.
func TestLeaderCharismaRead(t *testing.T) {
	b, err := files.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "douglas: {name: Douglas,", "douglas: {name: Douglas, charisma: 2,", 1)
	sc, err := ParseScenario("charisma.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if l := sc.Leader("douglas"); l == nil || l.Charisma != 2 {
		t.Errorf("Douglas: %+v, want Charisma 2", l)
	}
}
