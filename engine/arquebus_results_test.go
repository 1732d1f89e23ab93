package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus combat results (arquebus.md 3.0, 5.4, 5.5, 12.3 #2B, 14.3,
// 14.4, 16.3; rulings R420–R439 in docs/rulings.md) on the
// volume's house tables, through orders and scripted dice. The Red
// Men-at-Arms AN1 in 0405 faces SE and Shocks the Blue unit CA1 in 0505,
// which faces W: MM against PK is -1 on the Weapon System Matrix and the
// Pike's Shock Defense is -1 (0 Disordered).

// arqShock is arqMelee with CA1 (typ, status) in x and AN1 (MM) next to
// it, north-west, facing it.
func arqShock(t *testing.T, typ string, status engine.Status, dice ...int) (*game, string) {
	t.Helper()
	g := arqMelee(t, dice...)
	x := "0505"
	g.troop("CA1", x, hex.FaceW, typ)
	g.st.Unit("CA1").Status = status
	g.troop("AN1", g.nb(x, hex.NW), hex.FaceSE, "MM")
	return g, x
}

// rules edits the game's copy of the tables' rule switches.
func (g *game) rules(edit func(*engine.Rules)) {
	tb := *g.sc.Tables
	edit(&tb.Rules)
	g.sc.Tables = &tb
}

// terrainMod is the 12.3 #2B modifier of an attack, 0 if none.
func terrainMod(a engine.AttackResolved) (int, string) {
	for _, m := range a.Roll.Mods {
		if m.Rule == "10.4 #2B" {
			return m.DRM, m.Reason
		}
	}
	return 0, ""
}

// Arquebus 12.3 #2B: "If there is more than one attacker with different
// hex or hexside terrain considerations (e.g., one is attacking across a
// ditch, the other isn't), apply all terrain DRMs (but a single DRM is
// only applied once)" (rules.shock_terrain_all, R420). CA1 stands in
// Woods (-2 against mounted attackers); AN1 attacks across a Stream (-1),
// AN2 from the south-west across a Ditch (-1) or another Stream.
func TestArquebusMixedAttackersTerrain(t *testing.T) {
	for _, c := range []struct {
		name, second string
		all          bool
		terrain      int
	}{
		{"stream and ditch: all apply", "ditch", true, -4},                      // Woods -2 once, Stream -1, Ditch -1
		{"two streams: the Stream DRM once", "stream", true, -3},                // Woods -2 once, Stream -1 once
		{"Men of Iron: the attacker best for the defender", "ditch", false, -3}, // each attacker -2 -1: -3
	} {
		t.Run(c.name, func(t *testing.T) {
			g, x := arqShock(t, "PK", engine.Normal, 9)
			g.rules(func(r *engine.Rules) { r.ShockTerrainAll = c.all })
			g.troop("AN2", g.nb(x, hex.SW), hex.FaceNE, "MM")
			g.sc.Map.Terrain[h(t, x)] = "woods"
			g.sc.Map.Hexsides = []engine.Hexside{
				{A: h(t, g.nb(x, hex.NW)), B: h(t, x), Feature: "stream"},
				{A: h(t, g.nb(x, hex.SW)), B: h(t, x), Feature: c.second},
			}
			evs := g.shockRound("SHOCK AN1 AT CA1\nSHOCK AN2 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("attacks: %s", g.story(evs))
			}
			drm, why := terrainMod(atts[0])
			// 9 +1 Strength, terrain, -1 Shock Defense, -1 WSM.
			if drm != c.terrain || atts[0].Roll.Total != 9+1+c.terrain-1-1 {
				t.Errorf("terrain %d (%s), total %d; want %d, %d:\n%s", drm, why, atts[0].Roll.Total, c.terrain, 8+c.terrain, g.story(evs))
			}
			if c.all && !strings.Contains(why, "Arquebus 12.3 #2B") {
				t.Errorf("terrain reason %q, want it to cite Arquebus 12.3 #2B", why)
			}
		})
	}
}

// Arquebus 14.3: a retreat "blocked by a friendly Arquebus, Artillery,
// Crossbow, Longbow, Sapper, or Skirmisher unit (not Pike or Sword &
// Buckler infantry armed with AQ or CB, or Mounted Arquebus or Mounted
// Crossbow) ... may retreat through that unit an extra hex. If it does
// so, the unit retreated through is Disordered; if already Disordered, it
// is Retired. If the unit retreated through is already Retired, it is
// Eliminated. If the unit retreated through was an Artillery unit, the
// unit retreated through is Eliminated. Any leader stacked with the newly
// Retired/Eliminated unit must make a Leader Casualty check"
// (rules.retreat_through, R421, R422). CA1, a Pike, is Disordered and
// Retreats on a 9 (9 -1 -1 = 7); of the three hexes away from AN1, CA2
// (Pike) and DO2 (Mounted Arquebus) hold two and DO1 the third.
func TestArquebusRetreatThroughFriends(t *testing.T) {
	for _, c := range []struct {
		name, typ string
		status    engine.Status
		leader    int // the leader's die, -1 for no leader with DO1
		want      engine.Status
		cause     string
	}{
		{"AQ in good order is Disordered", "AQ", engine.Normal, -1, engine.Disordered, ""},
		{"a Disordered Crossbow Retires, its leader checks", "CB", engine.Disordered, 6, engine.Retired, ""},
		{"a Retired Longbow is Eliminated, its leader killed", "LB", engine.Retired, 7, engine.Eliminated, "already Retired"},
		{"Artillery is Eliminated", "FAL", engine.Normal, -1, engine.Eliminated, "Artillery"},
		{"a Skirmisher, even Disordered, Retires", "SK", engine.Disordered, -1, engine.Retired, ""},
		{"not a Mounted Arquebus: CA1 cannot retreat", "MAQ", engine.Normal, -1, engine.Normal, ""},
		{"not a Pike with Arquebuses: CA1 cannot retreat", "PKAQ", engine.Normal, -1, engine.Normal, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dice := []int{9}
			if c.leader >= 0 {
				dice = append(dice, c.leader)
			}
			g, x := arqShock(t, "PK", engine.Normal, dice...)
			g.troop("CA2", g.nb(x, hex.SE), hex.FaceW, "PK")
			g.troop("DO2", g.nb(x, hex.S), hex.FaceW, "MAQ")
			g.troop("DO1", g.nb(x, hex.NE), hex.FaceW, c.typ)
			g.st.Unit("DO1").Status = c.status
			if c.leader >= 0 {
				g.lead("dora", g.nb(x, hex.NE))
			}
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 || atts[0].Roll.Total != 7 || atts[0].Result != "Defender Disordered, Retreat 1 Hex" {
				t.Fatalf("want 7, Defender Disordered, Retreat 1 Hex: %s", g.story(evs))
			}
			r, retreated := findEvent[engine.UnitRetreated](evs)
			if c.typ == "MAQ" || c.typ == "PKAQ" {
				e, ok := eliminated(evs, "CA1")
				if retreated || !ok || !strings.Contains(e.Cause, "cannot retreat") || g.unit("DO1").Status != engine.Normal {
					t.Errorf("CA1 must be Eliminated, unable to retreat, DO1 untouched: %s", g.story(evs))
				}
				return
			}
			if !retreated || len(r.Path) != 2 || r.Path[0] != h(t, g.nb(x, hex.NE)) {
				t.Fatalf("CA1's retreat %+v, want two hexes through DO1: %s", r, g.story(evs))
			}
			if got := g.unit("DO1").Status; got != c.want {
				t.Errorf("DO1 %v, want %v: %s", got, c.want, g.story(evs))
			}
			if c.cause != "" {
				if e, ok := eliminated(evs, "DO1"); !ok || !strings.Contains(e.Cause, "Arquebus 14.3") || !strings.Contains(e.Cause, c.cause) {
					t.Errorf("DO1's elimination %+v, want Arquebus 14.3 and %q", e, c.cause)
				}
			}
			lc, checked := findEvent[engine.LeaderCasualtyRolled](evs)
			switch {
			case c.leader < 0 && checked:
				t.Errorf("no leader, yet %+v", lc)
			case c.leader >= 0 && (!checked || lc.Leader != "dora" || lc.Roll.Die != c.leader || lc.Killed != (c.leader >= 7)):
				t.Errorf("Dora's check %+v, want die %d (killed on 7+, 5.4)", lc, c.leader)
			case c.leader == 6:
				// She survives and joins the nearest unit of her Battle
				// not Retired: DO2 (5.4, R426).
				if got := g.st.Leader("dora").Hex; got != h(t, g.nb(x, hex.S)) {
					t.Errorf("Dora in %s, want with DO2 in %s: %s", got, g.nb(x, hex.S), g.story(evs))
				}
			}
		})
	}
}

// Arquebus 14.4: "If the unit is stacked with its Standard when it incurs
// a Retired result, it is instead Eliminated" (rules.
// retire_at_standard_eliminates, R424). CA1 Disordered: 7 -1 = 6,
// Defender Retired.
func TestArquebusRetiredWithItsStandard(t *testing.T) {
	for _, atStd := range []bool{true, false} {
		g, x := arqShock(t, "PK", engine.Disordered, 7)
		if atStd {
			g.st.Standard("blue-std").Hex = h(t, x)
		}
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if a := resolved(evs); len(a) != 1 || a[0].Roll.Total != 6 || a[0].Result != "Defender Retired" {
			t.Fatalf("want 6, Defender Retired: %s", g.story(evs))
		}
		e, gone := eliminated(evs, "CA1")
		switch {
		case atStd && (!gone || !strings.Contains(e.Cause, "stacked with its Standard") || !strings.Contains(e.Cause, "Arquebus 14.4")):
			t.Errorf("with its Standard: want CA1 Eliminated (Arquebus 14.4): %s", g.story(evs))
		case !atStd && (gone || g.unit("CA1").Status != engine.Retired):
			t.Errorf("away from its Standard: want CA1 Retired: %s", g.story(evs))
		}
	}
}

// Arquebus 14.4: "Any Retreat, Retire, or Eliminated result results in
// that unit being Eliminated" — not a Disorder (rules.
// retired_only_by_retreat, R423), where Men of Iron 12.4 eliminates a
// Retired unit by "any negative combat result". The house tables print no
// Disorder in the Disordered column a Retired unit is attacked on, so
// this test gives the 5-6 row a printed "Defender Disordered" there (a
// player's own tables may). The Retired CA1: 4 +2 Retired -1 WSM +0 = 5.
func TestArquebusRetiredUnitNotEliminatedByADisorder(t *testing.T) {
	for _, only := range []bool{true, false} {
		g, _ := arqShock(t, "PK", engine.Retired, 4)
		g.rules(func(r *engine.Rules) { r.RetiredOnlyByRetreat = only })
		tb := *g.sc.Tables
		tb.Shock.Rows = append([]engine.ResultRow{}, tb.Shock.Rows...)
		for k, row := range tb.Shock.Rows {
			if row.Min <= 5 && 5 <= row.Max {
				res := map[string]engine.Result{}
				for col, r := range row.Results {
					res[col] = r
				}
				res["disordered"] = engine.Result{Text: "Defender Disordered", Defender: []engine.Effect{{Kind: engine.EffectDisordered}}}
				tb.Shock.Rows[k].Results = res
			}
		}
		g.sc.Tables = &tb
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if a := resolved(evs); len(a) != 1 || a[0].Roll.Total != 5 || a[0].Result != "Defender Disordered" {
			t.Fatalf("want 5, Defender Disordered: %s", g.story(evs))
		}
		if _, gone := eliminated(evs, "CA1"); gone == only {
			t.Errorf("retired_only_by_retreat %v: CA1 eliminated %v: %s", only, gone, g.story(evs))
		}
		if want := map[bool]engine.Status{true: engine.Retired, false: engine.Eliminated}[only]; g.unit("CA1").Status != want {
			t.Errorf("retired_only_by_retreat %v: CA1 %v, want %v", only, g.unit("CA1").Status, want)
		}
	}
}

// Arquebus 16.3: "Gun Wagons that incur Retreat or Retire results, from
// either missile fire or Shock/Charge combat, are Eliminated instead"; a
// Disorder disorders them (rules.retreat_eliminates, R425). The Gun Wagon
// CA1 (Shock Defense -1, 0 Disordered; MM against GW 0).
func TestArquebusGunWagons(t *testing.T) {
	for _, c := range []struct {
		status engine.Status
		die    int
		result string
		want   engine.Status
	}{
		{engine.Normal, 6, "Defender Disordered, Engaged", engine.Disordered},       // 6 -1 = 5 (R380)
		{engine.Normal, 8, "Defender Disordered, Retreat 1 Hex", engine.Eliminated}, // 7
		{engine.Disordered, 6, "Defender Retired", engine.Eliminated},               // 6 +0 = 6
		{engine.Disordered, 4, "Defender Retreat 1 Hex", engine.Eliminated},         // 4
	} {
		t.Run(c.result, func(t *testing.T) {
			g, _ := arqShock(t, "GW", c.status, c.die)
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			if a := resolved(evs); len(a) != 1 || a[0].Result != c.result {
				t.Fatalf("want %s: %s", c.result, g.story(evs))
			}
			if got := g.unit("CA1").Status; got != c.want {
				t.Errorf("Gun Wagon %v, want %v: %s", got, c.want, g.story(evs))
			}
			if c.want == engine.Eliminated {
				if e, _ := eliminated(evs, "CA1"); !strings.Contains(e.Cause, "Arquebus 16.3") {
					t.Errorf("cause %q, want Arquebus 16.3", e.Cause)
				}
			}
			if count[engine.UnitRetreated](evs)+count[engine.UnitRetired](evs) != 0 {
				t.Errorf("a Gun Wagon never retreats or retires: %s", g.story(evs))
			}
		})
	}
}

// Arquebus 16.3 by missile fire: the Red Arquebus AN2 fires at the
// Disordered Gun Wagon from two hexes; 8 +1 range = 9 on the
// foot-disordered column is a Retire, which eliminates it.
func TestArquebusGunWagonFiredUpon(t *testing.T) {
	g, x := arqShock(t, "GW", engine.Disordered, 8, 0) // its Return Fire: 0, no effect
	g.st.Unit("AN1").OffMap = true
	g.troop("AN2", g.nb(x, hex.NW, hex.NW), hex.FaceSE, "AQ")
	res := g.send(red, "ACTIVATE Anna\nFIRE AN2 AT CA1")
	f, ok := findEvent[engine.UnitFired](res.Events)
	if !ok || f.Result != "Retire" {
		t.Fatalf("fire %+v, want a Retire: %s", f, g.story(res.Events))
	}
	if e, _ := eliminated(res.Events, "CA1"); g.unit("CA1").Status != engine.Eliminated || !strings.Contains(e.Cause, "Arquebus 16.3") {
		t.Errorf("Gun Wagon %v (%q), want Eliminated (Arquebus 16.3): %s", g.unit("CA1").Status, e.Cause, g.story(res.Events))
	}
}

// Arquebus 5.4 Displaced: "the owning player places the leader with the
// nearest unit from a Battle he commands. If there are no units left in
// any of his Battles, he is removed without penalty ... If he is an OC
// ... (with no units remaining), place him with the closest friendly
// unit"; Play Note: the nearest unit "can be a reinforcement group that
// has not yet entered the map" (rules.displace_to_battle, R426). Carl is
// with the Disordered Pike CA1, Retired on a 7 (7 -1 = 6); his die 3
// spares him (5.4: 7 or more kills).
func TestArquebusLeaderDisplaced(t *testing.T) {
	for _, c := range []struct {
		name     string
		ca2      string // CA2's hex, "entry" for a reinforcement, "" none left
		oc, moi  bool
		placed   string // Carl's hex after, "off" off the map
		friendly bool
		rideOff  bool
	}{
		{name: "with the nearest unit of his Battle", ca2: "0808", placed: "0808"},
		{name: "with his Battle's reinforcements", ca2: "entry", placed: "off"},
		{name: "an OC with the closest friendly unit", oc: true, placed: "0909", friendly: true},
		{name: "a Battle leader with no unit left rides off", rideOff: true},
		{name: "Men of Iron 15.4: reinforcements are no refuge", ca2: "entry", moi: true, rideOff: true},
		{name: "Men of Iron 15.4: nor is a friendly unit for an OC", oc: true, moi: true, rideOff: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, x := arqShock(t, "PK", engine.Disordered, 7, 3)
			g.lead("carl", x)
			g.troop("DO1", "0909", hex.FaceW, "PK")
			switch c.ca2 {
			case "entry":
				for i := range g.sc.Commands {
					if g.sc.Commands[i].ID == "carl" {
						g.sc.Commands[i].Entry = []hex.Hex{h(t, "1010")}
					}
				}
			case "":
				g.kill("CA2")
			default:
				g.troop("CA2", c.ca2, hex.FaceW, "PK")
			}
			for i := range g.sc.Leaders {
				if g.sc.Leaders[i].ID == "carl" {
					g.sc.Leaders[i].OC = c.oc
				}
			}
			if c.moi {
				g.rules(func(r *engine.Rules) { r.DisplaceToBattle = false })
			}
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			if a := resolved(evs); len(a) != 1 || a[0].Result != "Defender Retired" || g.unit("CA1").Status != engine.Retired {
				t.Fatalf("want CA1 Retired: %s", g.story(evs))
			}
			if lc, _ := findEvent[engine.LeaderCasualtyRolled](evs); lc.Leader != "carl" || lc.Roll.Die != 3 || lc.Killed {
				t.Fatalf("Carl's check %+v, want a 3 that spares him", lc)
			}
			ls := g.st.Leader("carl")
			lost, gone := findEvent[engine.LeaderLost](evs)
			switch {
			case c.rideOff:
				if !gone || lost.Killed || !ls.OffMap || ls.Killed {
					t.Errorf("Carl %+v, want him removed without penalty: %s", ls, g.story(evs))
				}
			case c.placed == "off":
				j, ok := findEvent[engine.LeaderJoinedReinforcements](evs)
				if !ok || j.Command != "carl" || !ls.OffMap || ls.Killed || gone {
					t.Errorf("Carl %+v, want him off the map with his reinforcements: %s", ls, g.story(evs))
				}
			default:
				p, ok := findEvent[engine.LeaderPlaced](evs)
				if !ok || p.Rule != "Arquebus 5.4" || p.Friendly != c.friendly || ls.Hex != h(t, c.placed) || ls.OffMap {
					t.Errorf("Carl %+v placed %+v, want in %s: %s", ls, p, c.placed, g.story(evs))
				}
			}
		})
	}
}

// Arquebus 5.5 "In some battles, there is no Replacement for a lost OC"
// (`replacement: none`, R429): Carl, killed with CA1 (7 -2 = 5, Defender
// Disordered; his die 8), never comes back, and his Battle is Leaderless
// (6.4): never activated by Continuity. With a Replacement he returns at
// the Blues' next Activation and Carl's Battle may Continue.
func TestArquebusNoReplacementMakesALeaderlessBattle(t *testing.T) {
	for _, none := range []bool{true, false} {
		g, x := arqShock(t, "PK", engine.Normal, 7, 8, 0)
		g.lead("carl", x)
		g.troop("DO1", "0909", hex.FaceW, "PK")
		for i := range g.sc.Leaders {
			if g.sc.Leaders[i].ID == "carl" {
				g.sc.Leaders[i].NoReplacement = none
			}
		}
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		if lc, _ := findEvent[engine.LeaderCasualtyRolled](evs); lc.Leader != "carl" || !lc.Killed {
			t.Fatalf("Carl's check %+v, want him killed: %s", lc, g.story(evs))
		}
		g.send(red, "PASS")
		res := g.send(blue, "ACTIVATE Dora")
		_, back := findEvent[engine.LeaderReplaced](res.Events)
		if back == none {
			t.Errorf("no replacement %v: Carl's Replacement came back %v: %s", none, back, g.story(res.Events))
		}
		g.send(blue, "END")
		if none {
			e := g.refuse(blue, "CONTINUE Carl", "ARQ 6.4")
			if !strings.Contains(e.Reason, "Leaderless Battle") {
				t.Errorf("refusal %v", e)
			}
			// A Free Activation it may have, its units Out of Command.
			g.send(blue, "PASS")
			g.send(red, "PASS") // AN1, Engaged with CA1 (R380), would have to Shock
			res = g.send(blue, "ACTIVATE Carl")
			if tr, ok := findEvent[engine.CommandTraced](res.Events); !ok || strings.Join(tr.OutOfCommand, ",") != "CA1" {
				t.Errorf("Carl's Battle, Leaderless: traced %+v, want CA1 Out of Command: %s", tr, g.story(res.Events))
			}
			continue
		}
		res = g.send(blue, "CONTINUE Carl")
		if _, ok := findEvent[engine.ContinuationDeclared](res.Events); !ok {
			t.Errorf("with a Replacement Carl's Battle Continues: %s", g.story(res.Events))
		}
	}
}

// arq-3.0-fp-retired-then-eliminated (worked-examples.md section 4):
// "A Retired Light Cavalry unit is Eliminated, 1 more FP is added to the
// track (2 – 1). A Retired Longbow unit is Eliminated, 0 FP are added to
// the track (1 – 1)." The list prices Light Cavalry 1 and Light Cavalry
// Archers 2 (R303, R427): played by orders, Anna's AN1 Retires the
// Disordered CA1 (1 +2 WSM +3 = 6, Defender Retired) into its Standard's
// hex, and after a Continuation Bert's BE1 Eliminates it there (0 +2
// Retired +2 +3 = 7, Defender Retired, which eliminates a Retired unit).
func TestArquebusFlightPointsRetiredThenEliminated(t *testing.T) {
	for _, c := range []struct {
		typ        string
		elim, more int
	}{
		{"LCA", 2, 1}, // the Example's "(2 – 1)"
		{"LC", 1, 0},  // the list's Light Cavalry (R303)
		{"LB", 1, 0},  // the Example's "(1 – 1)"
		{"PK", 5, 4},  // 3.0 "5 FP for each Eliminated Pike"
	} {
		t.Run(c.typ, func(t *testing.T) {
			dice := map[string][]int{"LCA": {1, 0, 0}, "LC": {1, 0, 0}, "LB": {1, 0, 0}, "PK": {7, 0, 6}}[c.typ]
			g, _ := arqShock(t, c.typ, engine.Disordered, dice...)
			std := "0508"
			g.st.Standard("blue-std").Hex = h(t, std)
			g.sc.Units[g.troop("BE1", g.nb(std, hex.NW), hex.FaceSE, "MM")].Command = "bert"
			before := engine.FlightPoints(g.sc, g.st, blue)
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			if a := resolved(evs); len(a) != 1 || a[0].Roll.Total != 6 || a[0].Result != "Defender Retired" {
				t.Fatalf("want 6, Defender Retired: %s", g.story(evs))
			}
			if u := g.unit("CA1"); u.Status != engine.Retired || u.Hex != h(t, std) {
				t.Fatalf("CA1 %+v, want Retired in its Standard's hex %s", u, std)
			}
			if fp := engine.FlightPoints(g.sc, g.st, blue); fp != before+1 {
				t.Errorf("Retired: %d FP, want %d + 1 (3.0 \"1 FP for each Retired unit regardless of type\")", fp, before)
			}
			g.send(red, "CONTINUE Bert")
			res := g.send(red, "SHOCK BE1 AT CA1\nEND")
			if a := resolved(res.Events); len(a) != 1 || a[0].Roll.Total != 7 || a[0].Result != "Defender Retired" {
				t.Fatalf("want 7, Defender Retired: %s", g.story(res.Events))
			}
			if g.unit("CA1").Status != engine.Eliminated {
				t.Fatalf("CA1 %v, want Eliminated: %s", g.unit("CA1").Status, g.story(res.Events))
			}
			if fp := engine.FlightPoints(g.sc, g.st, blue); fp != before+c.elim || c.elim-1 != c.more {
				t.Errorf("Eliminated: %d FP, want %d + %d (%d more than Retired)", fp, before, c.elim, c.more)
			}
		})
	}
}

// Arquebus 15.2: "Standards may be moved by enemy action if an enemy unit
// enters the hex with the Standard. When a Standard is moved, the player
// follows the same procedure for moving an Activated Standard": the
// Retired units in or within one hex of it roll one die, "If the DR is a
// 5 or more, that Retired unit is now Eliminated" — no DRM (rules.
// standards_displaced, R428, R430). AN1 moves into the Blue Standard's
// hex x; the Retired Pike CA1 north-east of x rolls 5 and is Eliminated,
// the Retired Light Cavalry CA2 south-east rolls 4 and stays (Men of Iron
// 13.2 would add its Disordered Shock DRM, +3: 7, Eliminated). The
// Standard goes to the nearest hex neither holding nor next to a Red
// unit, the lowest id on a tie: 0304. Men of Iron 13.2 captures it.
func TestArquebusStandardDisplaced(t *testing.T) {
	for _, displaced := range []bool{true, false} {
		g := arqMelee(t, 5, 4)
		x := "0505"
		g.st.Standard("blue-std").Hex = h(t, x)
		g.troop("AN1", g.nb(x, hex.NW, hex.NW), hex.FaceSE, "MM")
		g.troop("CA1", g.nb(x, hex.NE), hex.FaceW, "PK")
		g.troop("CA2", g.nb(x, hex.SE), hex.FaceW, "LC") // Disordered Shock +3
		g.st.Unit("CA1").Status = engine.Retired
		g.st.Unit("CA2").Status = engine.Retired
		g.rules(func(r *engine.Rules) { r.StandardsDisplaced = displaced })
		res := g.send(red, "ACTIVATE Anna\nMOVE AN1 "+g.nb(x, hex.NW)+" "+x)
		if !displaced {
			if c, ok := findEvent[engine.StandardCaptured](res.Events); !ok || !g.st.Standard("blue-std").Captured || g.unit("CA1").Status != engine.Eliminated {
				t.Errorf("Men of Iron 13.2: captured %+v, CA1 %v: %s", c, g.unit("CA1").Status, g.story(res.Events))
			}
			continue
		}
		if _, ok := findEvent[engine.StandardCaptured](res.Events); ok || g.st.Standard("blue-std").Captured {
			t.Fatalf("an Arquebus Standard is never captured: %s", g.story(res.Events))
		}
		var rolls []engine.StandardLeftUnit
		for _, e := range res.Events {
			if l, ok := e.(engine.StandardLeftUnit); ok {
				rolls = append(rolls, l)
			}
		}
		if len(rolls) != 2 || rolls[0].Unit != "CA1" || rolls[0].Roll.Total != 5 || !rolls[0].Eliminated || len(rolls[0].Roll.Mods) != 0 ||
			rolls[1].Unit != "CA2" || rolls[1].Roll.Total != 4 || rolls[1].Eliminated {
			t.Errorf("rolls %+v, want CA1 5 Eliminated and CA2 4 spared, no DRM: %s", rolls, g.story(res.Events))
		}
		if g.unit("CA1").Status != engine.Eliminated || g.unit("CA2").Status != engine.Retired {
			t.Errorf("CA1 %v, CA2 %v; want Eliminated, Retired", g.unit("CA1").Status, g.unit("CA2").Status)
		}
		m, ok := findEvent[engine.StandardMoved](res.Events)
		to := g.st.Standard("blue-std").Hex
		if !ok || m.By != "AN1" || to != m.To || g.sc.Map.Grid.Distance(to, h(t, x)) != 2 || to.String() != "0304" {
			t.Errorf("Standard moved %+v to %s, want by AN1 to 0304, two hexes off: %s", m, to, g.story(res.Events))
		}
	}
}

// Arquebus 14.3: a retreating unit "may retreat into a hex occupied solely
// by an enemy leader (5.4) or Standard", and moves that Standard (15.2,
// R428). The Pike CA1 retreats on a 9 (9 -1 -1 = 7) into 0605, the only
// hex away from AN1 not held by a Blue unit, where the Red Standard stands
// alone; it moves to 0404, by its own Men-at-Arms: of the hexes nearest
// 0605 that neither hold nor touch a Blue unit, the lowest id.
func TestArquebusRetreatMovesAStandard(t *testing.T) {
	g, x := arqShock(t, "PK", engine.Normal, 9)
	g.troop("CA2", g.nb(x, hex.SE), hex.FaceW, "PK")
	g.troop("DO2", g.nb(x, hex.S), hex.FaceW, "PK")
	std := g.nb(x, hex.NE)
	g.st.Standard("red-std").Hex = h(t, std)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if r, ok := findEvent[engine.UnitRetreated](evs); !ok || len(r.Path) != 1 || r.Path[0] != h(t, std) {
		t.Fatalf("CA1's retreat %+v, want into %s: %s", r, std, g.story(evs))
	}
	m, ok := findEvent[engine.StandardMoved](evs)
	to := g.st.Standard("red-std").Hex
	if !ok || m.By != "CA1" || to != h(t, "0404") || g.st.Standard("red-std").Captured {
		t.Fatalf("the Red Standard %+v, want moved by CA1 out of %s: %s", m, std, g.story(evs))
	}
	for _, id := range []string{"CA1", "CA2", "DO2"} {
		if d := g.sc.Map.Grid.Distance(to, g.unit(id).Hex); d < 2 {
			t.Errorf("the Red Standard in %s, %d from %s: want it clear of Blue units", to, d, id)
		}
	}
}

// Arquebus 15.2: "An Activated Standard may be moved to any hex on the
// game-map (not a Reinforcement hex)"; the Retired units within one hex
// of it before it moves roll with no DRM (R430): the Retired Light
// Cavalry AN1 next to it rolls 4, which its Disordered Shock DRM (+3)
// would have made a 7.
func TestArquebusActivatedStandardMoves(t *testing.T) {
	g := arqMelee(t, 4)
	for i := range g.sc.Commands {
		if g.sc.Commands[i].ID == "anna" {
			g.sc.Commands[i].Entry = []hex.Hex{h(t, "0110")}
		}
	}
	g.troop("AN1", "0102", hex.FaceE, "LC")
	g.st.Unit("AN1").Status = engine.Retired
	e := g.refuse(red, "ACTIVATE STANDARD Red MOVE 0110", "ARQ 15.2")
	if !strings.Contains(e.Reason, "Reinforcement hex") {
		t.Errorf("refusal %v", e)
	}
	res := g.send(red, "ACTIVATE STANDARD Red MOVE 0305")
	l, ok := findEvent[engine.StandardLeftUnit](res.Events)
	if !ok || l.Unit != "AN1" || l.Roll.Total != 4 || len(l.Roll.Mods) != 0 || l.Eliminated || g.unit("AN1").Status != engine.Retired {
		t.Errorf("AN1's roll %+v, want 4 with no DRM, still Retired: %s", l, g.story(res.Events))
	}
	if got := g.st.Standard("red-std").Hex; got != h(t, "0305") {
		t.Errorf("the Red Standard in %s, want 0305", got)
	}
}

// 14.3: a retreat passes a friendly unit "not stacked with another unit":
// the Arquebus DO1 stacked with the Sapper DO2 is not passed, and CA1,
// with no other way (the Pike CA2 and Red's BE1 behind it), cannot
// retreat and is Eliminated, leaving both as they were.
func TestArquebusRetreatNotThroughAStack(t *testing.T) {
	g, x := arqShock(t, "PK", engine.Normal, 9)
	g.troop("CA2", g.nb(x, hex.SE), hex.FaceW, "PK")
	g.troop("BE1", g.nb(x, hex.S), hex.FaceNE, "PK")
	g.troop("DO1", g.nb(x, hex.NE), hex.FaceW, "AQ")
	g.troop("DO2", g.nb(x, hex.NE), hex.FaceW, "SP")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if a := resolved(evs); len(a) != 1 || a[0].Result != "Defender Disordered, Retreat 1 Hex" {
		t.Fatalf("want Defender Disordered, Retreat 1 Hex: %s", g.story(evs))
	}
	if _, retreated := findEvent[engine.UnitRetreated](evs); retreated {
		t.Errorf("CA1 retreated through the stack: %s", g.story(evs))
	}
	if e, ok := eliminated(evs, "CA1"); !ok || !strings.Contains(e.Cause, "cannot retreat") {
		t.Errorf("CA1 must be Eliminated, unable to retreat: %s", g.story(evs))
	}
	if g.unit("DO1").Status != engine.Normal || g.unit("DO2").Status != engine.Normal {
		t.Errorf("DO1 %v, DO2 %v, want both untouched", g.unit("DO1").Status, g.unit("DO2").Status)
	}
}
