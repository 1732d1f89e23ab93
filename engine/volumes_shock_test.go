package engine_test

import (
	"maps"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The Shock and Charge examples of Blood & Roses and Arquebus, played
// through the engine with their volume's values put into a copy of the
// Men of Iron house tables: each value an example reveals is a table entry
// or a named rule switch (those volumes ship no tables yet, so the types
// the examples need are made here with the ratings the examples give).
// Infidel's, on its own tables, are in infidel_shock_test.go.

// volume replaces the melee game's tables by a copy for volume vol: the
// unit types of types are added (each made from an existing one, with
// the ratings given), the WSM rows of wsm set, and edit changes the rest.
func (g *game) volume(vol string, types map[string]volType, wsm map[string]map[string]int, edit func(*engine.Tables)) {
	g.t.Helper()
	tb := *g.sc.Tables
	tb.Volume = vol
	tb.UnitTypes = maps.Clone(tb.UnitTypes)
	for k, vt := range types {
		ut := *tb.UnitTypes[vt.from]
		ut.Key, ut.Name = k, vt.name
		ut.Ratings.Shock, ut.Ratings.ShockDisordered = vt.shock, vt.shock+1
		ut.Reluctance, ut.NeverReluctant = vt.reluctance, vt.never
		tb.UnitTypes[k] = &ut
	}
	tb.WSM = maps.Clone(tb.WSM)
	for k, row := range wsm {
		tb.WSM[k] = row
	}
	tb.ShockDRM.CounterChargeMaxBy = maps.Clone(tb.ShockDRM.CounterChargeMaxBy)
	if edit != nil {
		edit(&tb)
	}
	g.sc.Tables, g.sc.Volume = &tb, vol
}

type volType struct {
	from, name string
	shock      int
	reluctance bool // chargers roll against it through its front
	never      bool // never rolls when it charges
}

// The best Weapon System Matrix entry among mixed attackers (12.3 item 5):
// infidel.md "A Fatimid Pike Infantry (0) and a Sudanese Archer with
// Flails (+1) are attacking a Crusader Pike Infantry. The +1 DRM would be
// used."; blood-and-roses.md "A Lancastrian Infantry (0) and Dismounted
// Men-at-Arms (+1) are attacking a Yorkist Infantry. The +1 DRM would be
// used."
func TestBestWSMOfMixedAttackers(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		vol       string
		types     map[string]volType
		wsm       map[string]map[string]int
		a, b, def string
	}{
		{"br", map[string]volType{"INF": {from: "AX", name: "Infantry"}, "DM": {from: "DMAA", name: "Dismounted Men-at-Arms"}},
			map[string]map[string]int{"INF": {"INF": 0}, "DM": {"INF": +1}}, "INF", "DM", "INF"},
	} {
		t.Run(tc.vol, func(t *testing.T) {
			g := melee(t, 3)
			g.volume(tc.vol, tc.types, tc.wsm, nil)
			g.troop("CA1", c, hex.FaceW, tc.def)
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, tc.a)
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, tc.b)
			evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", 3, []string{"+1 10.4 #1", "+1 10.4 #6"}, 5, "Shock", atts[0].Result)
			if want := tc.b + " against " + tc.def; !strings.Contains(modText(atts[0].Roll.Mods), want) {
				t.Errorf("WSM reason %s, want %q", modText(atts[0].Roll.Mods), want)
			}
		})
	}
}

// Counter-Charge thresholds and DRMs by volume. blood-and-roses.md 13.6:
// "a Lancastrian Mounted Men-at-Arms is fired upon by a Yorkist Longbow
// unit. It attempts to Counter-Charge in response (13.9), but rolls an 8
// and fails" — 13.9: 5 or less, no Defense DRM (only +1 to turn).
// arquebus.md 13.6 tells the same of a Spanish Men-at-Arms and a French
// Crossbow; its 13.9 adds the unit's Defense DRM (ruling R84). Infidel
// 13.7: a Counter-Charge against a Charge succeeds on 3 or less.
func TestCounterChargeByVolume(t *testing.T) {
	noDefense := func(tb *engine.Tables) {
		tb.Rules.CounterChargeNoDefense = true
		tb.ShockDRM.CounterChargeMaxBy = map[string]int{"shock": 5, "fire": 5}
	}
	withDefense := func(tb *engine.Tables) { tb.ShockDRM.CounterChargeMaxBy = map[string]int{"shock": 5, "fire": 5} }
	for _, tc := range []struct {
		name    string
		vol     string
		edit    func(*engine.Tables)
		shock   int // the Mounted MAA's Shock Defense
		die     int
		mods    string
		success bool
	}{
		{"B&R 13.6: 8 fails", "br", noDefense, -1, 8, "", false},
		{"B&R 13.9: 5 succeeds, no Defense DRM", "br", noDefense, +1, 5, "", true},
		{"Arquebus 13.6: 8 fails", "arq", withDefense, -1, 8, "-1 11.6", false},
		{"Arquebus 13.9: 5 +1 fails", "arq", withDefense, +1, 5, "+1 11.6", false},
		{"Men of Iron 11.6: 5 -1 = 4 succeeds", "moi", nil, -1, 5, "-1 11.6", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := melee(t, tc.die, 0, 0, 0, 0)
			g.volume(tc.vol, map[string]volType{"MM": {from: "MMAA", name: "Mounted Men-at-Arms", shock: tc.shock}},
				map[string]map[string]int{"MM": {}}, tc.edit)
			g.troop("CA1", "0505", hex.FaceW, "MM")
			g.troop("AN1", "0305", hex.FaceE, "LB")
			g.send(0, "ACTIVATE Anna")
			evs := g.send(0, "FIRE AN1 AT CA1").Events
			cc, ok := counterCharged(evs)
			if !ok {
				t.Fatalf("no Counter-Charge:\n%s", g.story(evs))
			}
			var mods []string
			for _, m := range cc.Roll.Mods {
				mods = append(mods, signed(m.DRM)+" "+m.Rule)
			}
			if strings.Join(mods, "; ") != tc.mods || cc.Success != tc.success || cc.Roll.Die != tc.die {
				t.Errorf("Counter-Charge %+v (mods %q), want die %d, mods %q, success %v", cc, mods, tc.die, tc.mods, tc.success)
			}
		})
	}
}

// Leader Presence by Charisma (12.3 #4 of Blood & Roses and Arquebus):
// blood-and-roses.md 5.4 "Richard, Earl of Warwick, will give any unit he
// is stacked with a +1 DRM"; arquebus.md 5.2 "Gonzaga will give any unit
// he is stacked with a +4 DRM when attacking in Shock/Charge combat".
// Only the highest Charisma counts, once, and for any attack, not only a
// Charge.
func TestLeaderCharisma(t *testing.T) {
	c := "0505"
	charisma := func(tb *engine.Tables) { tb.Rules.LeaderCharisma = true }
	for _, tc := range []struct {
		name  string
		vol   string
		anna  int // Charisma of the leader stacked with AN1
		bert  int // of the one stacked with AN2, or -1 for none
		mods  []string
		total int // a die of 3
	}{
		{"Warwick +1", "br", 1, -1, []string{"+1 10.4 #1", "+1 10.4 #5, 12.3 #4"}, 5},
		{"Gonzaga +4, the highest once", "arq", 4, 1, []string{"+1 10.4 #1", "+4 10.4 #5, 12.3 #4"}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := melee(t, 3)
			g.volume(tc.vol, map[string]volType{"INF": {from: "AX", name: "Infantry"}}, map[string]map[string]int{"INF": {"INF": 0}}, charisma)
			g.troop("CA1", c, hex.FaceW, "INF")
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "INF")
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "INF")
			for k := range g.sc.Leaders {
				switch g.sc.Leaders[k].ID {
				case "anna":
					g.sc.Leaders[k].Name, g.sc.Leaders[k].Charisma = "Anna", tc.anna
				case "bert":
					g.sc.Leaders[k].Charisma = tc.bert
				}
			}
			g.lead("anna", g.nb(c, hex.NW))
			if tc.bert >= 0 {
				g.lead("bert", g.nb(c, hex.SW))
			}
			evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", 3, tc.mods, tc.total, "Shock", atts[0].Result)
			if !strings.Contains(modText(atts[0].Roll.Mods), "Anna's Charisma") {
				t.Errorf("reasons %s, want Anna's Charisma", modText(atts[0].Roll.Mods))
			}
		})
	}
}
