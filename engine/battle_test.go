package engine_test

import (
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
)

// battleRules is a small battle that switches on every battle rule of
// engine/battle.go, read from YAML as a battle file is, with the Men of
// Iron house tables.
const battleRules = `
id: battle-rules
name: Battle rules test
volume: moi
first: Red
sides:
  Red:
    flight_level: 30
    extra_flight_points:
      - {points: 2, enemy_in: [0204, 0205]}
      - {points: 1, eliminated: [PK2]}
      - {points: 3, standard_captured: red-std}
      - {points: 1, leader_lost: anna}
  Blue:
    flight_level: 30
map:
  columns: [1, 10]
  rows: [1, 8]
  shifted: odd
  default_terrain: clear
  terrain:
    wagons: [0605]
rules:
  no_zoc: [GEN]
bombards:
  - {side: Red, hex: 0403, range: 3}
standards:
  red-std: {name: Red, side: Red, hex: 0104}
  blue-std: {name: Blue, side: Blue, hex: 1004}
commands:
  anna: {name: Anna's Foot, side: Red, leader: anna, shield_wall_orders: 1}
  late: {name: Bert's Reserve, side: Red, leader: bert, entry: [0101, 0102], arrives: 3}
  carl: {name: Carl's Horse, side: Blue, leader: carl}
  dora: {name: Dora's Foot, side: Blue, leader: dora, shield_wall_orders: 0}
leaders:
  anna: {name: Anna, command: anna, ar: 3, range: 4, ma: 8, hex: 0304, replacement: {ar: 2, range: 3}}
  bert: {name: Bert, command: late, ar: 3, range: 4, ma: 8, off_map: true, replacement: {ar: 2, range: 3}}
  carl: {name: Carl, command: carl, ar: 3, range: 4, ma: 8, hex: 0806, replacement: {ar: 2, range: 3}}
  dora: {name: Dora, command: dora, ar: 3, range: 4, ma: 8, hex: 0902, replacement: {ar: 2, range: 3}}
units:
  - {id: PK1, type: PK, command: anna, hex: 0304, facing: E, shield_wall: true}
  - {id: PK2, type: PK, command: anna, hex: 0305, facing: E}
  - {id: LB1, type: LB, command: anna, hex: 0503, facing: E}
  - {id: LB2, type: LB, command: anna, hex: 0504, facing: E}
  - {id: LT1, type: DMAA, command: late, off_map: true}
  - {id: GEN1, type: GEN, command: carl, hex: 0604, facing: W}
  - {id: MM1, type: MMAA, command: carl, hex: 0704, facing: W}
  - {id: NR1, type: AX, command: carl, hex: 0705, facing: W, no_retreat: true}
  - {id: NR2, type: AX, command: carl, hex: 0703, facing: W, no_retreat: true, status: Disordered}
  - {id: DM1, type: DMAA, command: dora, hex: 0902, facing: W}
`

func battleGame(t *testing.T, dice ...int) *game {
	t.Helper()
	sc, err := data.ParseScenario("battle-rules.yaml", []byte(battleRules))
	if err != nil {
		t.Fatal(err)
	}
	return newGame(t, sc, dice...)
}

func legalHas(sc *engine.Scenario, st *engine.State, order string) bool {
	for _, l := range engine.Legal(sc, st) {
		if l == order {
			return true
		}
	}
	return false
}

// 14.1: units may stand in Shield Wall from set-up; "The use of Shield
// Wall is limited; see individual battles": a Command's
// shield_wall_orders counts the orders into it (ruling R110).
func TestShieldWallFromSetUpAndItsBattleLimit(t *testing.T) {
	g := battleGame(t)
	if !g.unit("PK1").ShieldWall || g.unit("PK2").ShieldWall {
		t.Fatalf("at set-up PK1 %+v, PK2 %+v: want PK1 alone in Shield Wall", g.unit("PK1"), g.unit("PK2"))
	}
	g.send(red, "ACTIVATE anna")
	g.refuse(red, "MOVE PK1 0404", "14.1") // formed at set-up, it stands
	g.send(red, "SHIELD WALL")             // the battle's one order: PK2 joins
	if !g.unit("PK2").ShieldWall || g.st.WallOrders["anna"] != 1 {
		t.Fatalf("after SHIELD WALL: PK2 %+v, orders %v", g.unit("PK2"), g.st.WallOrders)
	}
	g.send(red, "END\nPASS")
	g.send(blue, "ACTIVATE dora")
	ill := g.refuse(blue, "SHIELD WALL", "14.1") // Dora may never order it
	if !strings.Contains(ill.Reason, "may not order Shield Wall or Schiltron in this battle") {
		t.Errorf("refusal %v", ill)
	}
	g.send(blue, "END\nPASS")
	g.send(red, "ACTIVATE anna\nSHIELD WALL OFF") // leaving it is not limited
	if g.unit("PK1").ShieldWall || g.unit("PK2").ShieldWall {
		t.Fatalf("SHIELD WALL OFF left %+v %+v", g.unit("PK1"), g.unit("PK2"))
	}
	g.send(red, "END\nPASS")
	g.send(blue, "PASS")
	g.send(red, "ACTIVATE anna")
	if legalHas(g.sc, g.st, "SHIELD WALL") {
		t.Errorf("SHIELD WALL offered once the battle's orders are spent: %v", engine.Legal(g.sc, g.st))
	}
	ill = g.refuse(red, "SHIELD WALL", "14.1")
	if !strings.Contains(ill.Reason, "has ordered Shield Wall or Schiltron once, all this battle allows") {
		t.Errorf("refusal %v", ill)
	}
	// Schiltron, the Scots' Shield Wall (14.1 Design Note, R89), shares
	// the limit: spent here, and spending it in a fresh battle.
	if legalHas(g.sc, g.st, "SCHILTRON") {
		t.Errorf("SCHILTRON offered once the battle's orders are spent: %v", engine.Legal(g.sc, g.st))
	}
	g.refuse(red, "SCHILTRON", "14.1")
	s := battleGame(t)
	s.send(red, "ACTIVATE anna\nSCHILTRON") // PK2; PK1 stands in Shield Wall
	if !s.unit("PK2").Schiltron || s.st.WallOrders["anna"] != 1 {
		t.Fatalf("after SCHILTRON: PK2 %+v, orders %v", s.unit("PK2"), s.st.WallOrders)
	}
}

// A unit set up in Shield Wall must be one that may form it (14.1).
func TestShieldWallAtSetUpIsChecked(t *testing.T) {
	for _, c := range []struct{ unit, want string }{
		{"{id: LB1, type: LB, command: anna, hex: 0503, facing: E, shield_wall: true}", "may not form Shield Wall: only Pike Infantry and Dismounted MAA"},
		{"{id: LB1, type: PK, command: anna, hex: 0503, facing: E, status: Disordered, shield_wall: true}", "a Disordered unit cannot form Shield Wall"},
		{"{id: LT1, type: DMAA, command: late, off_map: true, shield_wall: true}", "a reinforcement forms Shield Wall on the map"},
	} {
		id := c.unit[len("{id: ") : len("{id: ")+3]
		var lines []string
		for _, l := range strings.Split(battleRules, "\n") {
			if strings.HasPrefix(l, "  - {id: "+id+",") {
				l = "  - " + c.unit
			}
			lines = append(lines, l)
		}
		_, err := data.ParseScenario("battle-rules.yaml", []byte(strings.Join(lines, "\n")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.unit, err, c.want)
		}
	}
}

// 5.3 "as defined in the battle book": a Command with arrives: N brings its
// reinforcements on from the battle's Activation N (ruling R112).
func TestReinforcementsArriveOnSchedule(t *testing.T) {
	g := battleGame(t)
	g.send(red, "ACTIVATE late") // Activation 1
	if r := engine.Reach(g.sc, g.st, "LT1"); len(r) != 0 || legalHas(g.sc, g.st, "MOVE LT1 <hexes> [FACE <vertex>]") {
		t.Errorf("LT1 can reach %v before its Activation; legal: %v", r, engine.Legal(g.sc, g.st))
	}
	ill := g.refuse(red, "MOVE LT1 WITH bert 0101", "5.3")
	if !strings.Contains(ill.Reason, "from the battle's Activation 3 on; this is Activation 1") {
		t.Errorf("refusal %v", ill)
	}
	g.send(red, "END\nPASS")
	g.send(blue, "ACTIVATE carl\nEND\nPASS") // Activation 2
	g.send(red, "ACTIVATE late")             // Activation 3
	if r := engine.Reach(g.sc, g.st, "LT1"); len(r) == 0 || !legalHas(g.sc, g.st, "MOVE LT1 <hexes> [FACE <vertex>]") {
		t.Errorf("LT1 can reach nothing in its Activation; legal: %v", engine.Legal(g.sc, g.st))
	}
	g.send(red, "MOVE LT1 WITH bert 0101 0201")
	if u := g.unit("LT1"); u.OffMap || u.Hex != h(t, "0201") {
		t.Errorf("LT1 after its entry: %+v", u)
	}
}

// The Nájera Genitors (7.2 Design Note) as a battle switch: rules.no_zoc
// lists the types that exert no ZOC, so a foot unit leaves the Genitors'
// front without the 2 MP of 7.2 (ruling R114); without the switch it pays.
func TestBattleWithoutGenitorZOC(t *testing.T) {
	for _, c := range []struct {
		noZOC []string
		mp    int
	}{{[]string{"GEN"}, 1}, {nil, 3}} {
		g := battleGame(t)
		g.sc.Rules.NoZOC = c.noZOC
		g.send(red, "ACTIVATE anna\nMOVE LB1 0403")
		mv, ok := g.events[len(g.events)-1].(engine.UnitMoved)
		if !ok || mv.MP != c.mp {
			t.Errorf("no_zoc %v: LB1 leaves GEN1's front for %+v, want %d MP", c.noZOC, g.events[len(g.events)-1], c.mp)
		}
	}
}

// The No Retreat marker (2.2; Herald's rule, ruling R115): the Retreat
// part of a result becomes Disorder, or nothing for a unit Disordered
// already, which holds its hex.
func TestNoRetreatMarker(t *testing.T) {
	// LB2 at NR1, range 2 (+1): 8 -> 9, "Disordered, Retreat 1 Hex" on foot.
	g := battleGame(t, 8, 3)
	g.send(red, "ACTIVATE anna\nFIRE LB2 AT NR1")
	if u := g.unit("NR1"); u.Status != engine.Disordered || u.Hex != h(t, "0705") {
		t.Errorf("NR1 after Disordered, Retreat: %+v, want Disordered in 0705", u)
	}
	// LB1 at NR2 (Disordered), range 2: 3 -> 4, "Retreat 1 Hex".
	res := g.send(red, "FIRE LB1 AT NR2")
	held := false
	for _, e := range res.Events {
		_, held = e.(engine.HeldGround)
		if held {
			break
		}
	}
	if u := g.unit("NR2"); !held || u.Status != engine.Disordered || u.Hex != h(t, "0703") {
		t.Errorf("NR2 after Retreat 1 Hex: %+v, events %v", u, narrative(g.sc, res.Events))
	}

	// A bare Retreat on a Normal unit (no house table has one, so a copy
	// of the tables gets it): Disordered instead, in its hex.
	bare := battleGame(t, 8)
	tb := *bare.sc.Tables
	retreat, _ := tb.Fire.Lookup(engine.FireFootDisordered, 4)
	tb.Fire.Rows = append([]engine.ResultRow(nil), tb.Fire.Rows...)
	for k, r := range tb.Fire.Rows {
		if r.Min <= 9 && 9 <= r.Max {
			results := map[string]engine.Result{}
			for col, res := range r.Results {
				results[col] = res
			}
			results[engine.FireFoot] = retreat
			tb.Fire.Rows[k].Results = results
		}
	}
	bare.sc.Tables = &tb
	res = bare.send(red, "ACTIVATE anna\nFIRE LB2 AT NR1")
	if u := bare.unit("NR1"); u.Status != engine.Disordered || u.Hex != h(t, "0705") {
		t.Errorf("NR1 after a bare Retreat: %+v, events %v", u, narrative(bare.sc, res.Events))
	}

	// Without the marker the same shot makes NR2 retreat.
	plain := battleGame(t, 3)
	plain.st.Unit("NR2").NoRetreat = false
	plain.send(red, "ACTIVATE anna\nFIRE LB1 AT NR2")
	if u := plain.unit("NR2"); u.Hex == h(t, "0703") {
		t.Errorf("NR2 without No Retreat stayed: %+v", u)
	}
}

// The Bombard marker (2.2; Herald's rule, ruling R116): its side's fire at
// a Mounted unit within its range gets fire_drm.bombard; not at foot, not
// beyond its range, not while an enemy unit stands on it.
func TestBombardMarker(t *testing.T) {
	g := battleGame(t)
	idx := func(id string) int {
		for i, u := range g.sc.Units {
			if u.ID == id {
				return i
			}
		}
		t.Fatalf("no unit %s", id)
		return -1
	}
	bombard := func() bool {
		for _, m := range engine.FireModifiers(g.sc, g.st, idx("LB1"), idx("MM1")) {
			if strings.Contains(m.Reason, "Bombard") {
				return m.DRM == 1
			}
		}
		return false
	}
	if !bombard() {
		t.Errorf("no Bombard DRM on LB1's shot at MM1 (Mounted, 3 hexes from the Bombard): %v", engine.FireModifiers(g.sc, g.st, idx("LB1"), idx("MM1")))
	}
	for _, m := range engine.FireModifiers(g.sc, g.st, idx("LB1"), idx("NR2")) {
		if strings.Contains(m.Reason, "Bombard") {
			t.Errorf("Bombard DRM on fire at foot: %v", m)
		}
	}
	g.sc.Bombards[0].Range = 2
	if bombard() {
		t.Error("Bombard DRM beyond its range")
	}
	g.sc.Bombards[0].Range = 3
	g.st.Unit("DM1").Hex = h(t, "0403")
	if bombard() {
		t.Error("Bombard DRM while an enemy unit stands on it")
	}
}

// 16.0 "Some battles will have special rules for additional FPs": each
// condition counts from the state (ruling R117).
func TestBattleExtraFlightPoints(t *testing.T) {
	g := battleGame(t)
	if fp := engine.FlightPoints(g.sc, g.st, red); fp != 0 {
		t.Fatalf("Red start with %d Flight Points", fp)
	}
	g.st.Unit("MM1").Hex = h(t, "0204")
	g.st.Unit("GEN1").Hex = h(t, "0205")
	if fp := engine.FlightPoints(g.sc, g.st, red); fp != 4 {
		t.Errorf("two enemy units in the two hexes: %d Flight Points, want 4", fp)
	}
	g.st.Unit("GEN1").Status = engine.Retired // a Retired unit holds nothing
	g.st.Unit("PK2").Status = engine.Eliminated
	g.st.Standard("red-std").Captured = true
	g.st.Leader("anna").Losses = 1
	// 2 (MM1) + PK2's 2 + 1 + Standard 3 + Anna's 2 + 1 = 11
	if fp := engine.FlightPoints(g.sc, g.st, red); fp != 11 {
		t.Errorf("%d Flight Points, want 11", fp)
	}
	if fp := engine.FlightPoints(g.sc, g.st, blue); fp != 1 {
		t.Errorf("Blue: %d Flight Points, want 1 (GEN1 Retired)", fp)
	}
}

// Bad battle rules are refused with the field and the reason.
func TestBattleRulesChecked(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{"no_zoc: [GEN]", "no_zoc: [JINETE]", `unknown unit type "JINETE"`},
		{"entry: [0101, 0102], arrives: 3", "arrives: 3", "a Command that arrives later needs entry hexes"},
		{"arrives: 3", "arrives: 0", "1 or more (5.3)"},
		{"shield_wall_orders: 1", "shield_wall_orders: -1", "0 or more (14.1)"},
		{"{side: Red, hex: 0403, range: 3}", "{side: Red, hex: 0403, range: 0}", "must be 1 or more"},
		{"{points: 1, eliminated: [PK2]}", "{points: 1, eliminated: [MM1]}", `"MM1" is not a unit of the Red`},
		{"{points: 3, standard_captured: red-std}", "{points: 3, standard_captured: blue-std}", `"blue-std" is not a Standard of the Red`},
		{"{points: 1, leader_lost: anna}", "{points: 1, leader_lost: anna, eliminated: [PK1]}", "give exactly one condition"},
		{"{points: 1, leader_lost: anna}", "{points: 0, leader_lost: anna}", "must be 1 or more"},
	} {
		if !strings.Contains(battleRules, c.from) {
			t.Fatalf("the test battle has no %q", c.from)
		}
		_, err := data.ParseScenario("battle-rules.yaml", []byte(strings.Replace(battleRules, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.to, err, c.want)
		}
	}
}

// The Wagon marker as terrain "wagons" (2.2; Herald's rule, ruling R113):
// foot enter for 2 MP, mounted units may not enter.
func TestWagons(t *testing.T) {
	g := battleGame(t)
	g.send(red, "PASS")
	g.send(blue, "ACTIVATE carl")
	cost := func(id string) int {
		for _, r := range engine.Reach(g.sc, g.st, id) {
			if r.Hex == h(t, "0605") {
				return r.Cost
			}
		}
		return -1
	}
	if c := cost("NR1"); c != 2 {
		t.Errorf("NR1 (foot) enters the wagons for %d MP, want 2", c)
	}
	if c := cost("MM1"); c != -1 {
		t.Errorf("MM1 (mounted) reaches the wagons for %d MP; mounted units may not enter", c)
	}
	ill := g.refuse(blue, "MOVE MM1 0605", "5.1")
	if !strings.Contains(ill.Reason, "0605 (wagons)") {
		t.Errorf("refusal %v: want it to name the Wagons", ill)
	}
}

// The players read the battle's rules in their first mail: one sentence
// for each rule the battle switches on.
func TestBattleRuleNotes(t *testing.T) {
	g := battleGame(t)
	notes := strings.Join(engine.BattleRuleNotes(g.sc), "\n")
	for _, want := range []string{
		"The units of Bert's Reserve (Red) may enter from the battle's Activation 3 on, through 0101, 0102;",
		"Anna's Foot (Red) may order Shield Wall or Schiltron once in this battle (14.1, R110).",
		"Dora's Foot (Blue) may not order Shield Wall or Schiltron in this battle",
		"In Shield Wall from set-up: PK1 (14.1).",
		"Under No Retreat: NR1, NR2.",
		"Genitors exert no ZOC in this battle",
		"The Red have a Bombard in 0403: Red missile fire at a Mounted unit within 3 hexes of it gets +1",
		"The Red add 2 Flight Points for each of 0204, 0205 in which an enemy unit (not Retired) stands (16.0, R117).",
		"The Red add 1 Flight Point for each of PK2 Eliminated, over its type's",
		"The Red add 3 Flight Points if their Standard (Red) is captured",
		"The Red add 1 Flight Point each time Anna is killed or captured, over 16.0's",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	plain := fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 3})
	if n := engine.BattleRuleNotes(plain); len(n) != 0 {
		t.Errorf("a battle without special rules has notes %v", n)
	}
}
