package data

import (
	"os"
	"strings"
	"testing"

	"herald/engine"
)

// Blood & Roses' house tables hold every number its rule book's examples
// reveal (blood-and-roses.md; notes: worked-examples.md section 3).
func TestBloodAndRosesTablesAgreeWithTheExamples(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	if !tb.House {
		t.Error("Blood & Roses' tables are Herald's own: house: true")
	}
	ut := func(k string) *engine.UnitType {
		t.Helper()
		u := tb.UnitTypes[k]
		if u == nil {
			t.Fatalf("no unit type %s", k)
		}
		return u
	}
	// 2.2 the unit types of Blood & Roses.
	if len(tb.UnitTypes) != 10 {
		t.Errorf("%d unit types, want the 10 of 2.2", len(tb.UnitTypes))
	}
	checks := []struct {
		what      string
		got, want int
	}{
		// 3.0 Flight Points: MAA 3 (mounted, dismounted, unhorsed); Cavalry,
		// Longbow 2; Archer, Handgun, Infantry, Levy 1; Artillery 0;
		// Retired 1; named Battle leader 2; OC 5; King 10.
		{"FP MM", ut("MM").FlightPoints, 3}, {"FP DM", ut("DM").FlightPoints, 3}, {"FP UH", ut("UH").FlightPoints, 3},
		{"FP CAV", ut("CAV").FlightPoints, 2}, {"FP LB", ut("LB").FlightPoints, 2},
		{"FP A", ut("A").FlightPoints, 1}, {"FP HG", ut("HG").FlightPoints, 1}, {"FP INF", ut("INF").FlightPoints, 1}, {"FP LVY", ut("LVY").FlightPoints, 1},
		{"FP ART", ut("ART").FlightPoints, 0},
		{"FP Retired", tb.FlightPoints.Retired, 1}, {"FP leader", tb.FlightPoints.Leader, 2},
		{"FP OC", tb.FlightPoints.OverallCommander, 5}, {"FP King", tb.FlightPoints.King, 10},
		// 3.0 Example: a Retired Cavalry eliminated adds 2-1 = 1; a Retired Infantry 1-1 = 0.
		{"CAV retired then eliminated", ut("CAV").FlightPoints - tb.FlightPoints.Retired, 1},
		{"INF retired then eliminated", ut("INF").FlightPoints - tb.FlightPoints.Retired, 0},
		// 11.1: "Artillery may fire at units up to ten (10) hexes away".
		{"artillery range", tb.Weapons["artillery"].MaxRange(), 10},
		// 11.3 Example: a Longbow at range 1 +1; at Dismounted MAA -1 more: 0.
		{"longbow range 1", tb.Weapons["longbow"].RangeDRM[0], +1},
		{"target DM", tb.FireDRM.TargetType["DM"], -1},
		{"longbow at DM, range 1", tb.Weapons["longbow"].RangeDRM[0] + tb.FireDRM.TargetType["DM"], 0},
		// 14.2: a Disordered unit fires at -2.
		{"disordered firer", tb.FireDRM.DisorderedFirer, -2},
		// 12.3 #5 Example: INF -> INF 0, DM -> INF +1.
		{"WSM INF-INF", tb.WSM["INF"]["INF"], 0}, {"WSM DM-INF", tb.WSM["DM"]["INF"], +1},
		// 12.3 #2C Height -1; #6 no Charge DRM, -1 when a charging unit moved.
		{"height", tb.ShockDRM.Height, -1}, {"charge", tb.ShockDRM.Charge, 0}, {"charge moved", tb.ShockDRM.ChargeMoved, -1},
		// 13.7-13.9: Counter-Charge 4 or less against a Charge, 5 or less
		// against Shock and fire; 13.6 Example: a die of 8 fails.
		{"CC vs charge", tb.ShockDRM.CounterChargeMaxBy["charge"], 4},
		{"CC vs shock", tb.ShockDRM.CounterChargeMaxBy["shock"], 5},
		{"CC vs fire", tb.ShockDRM.CounterChargeMaxBy["fire"], 5},
		// 5.5: by fire a modified 9+, then 8 or 9; by Shock an unmodified 7+.
		{"casualty trigger", tb.LeaderCasualty.FireTrigger, 9}, {"casualty fire", tb.LeaderCasualty.Fire, 8},
		{"casualty shock", tb.LeaderCasualty.Shock, 7},
		// 10.0: A, HG, LB pass through friends at +1 MP a hex.
		{"pass-through MP", tb.Movement.PassThroughMP, 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
	if 8 <= tb.ShockDRM.CounterChargeMaxBy["fire"] {
		t.Error("13.6 Example: a Counter-Charge die of 8 against fire fails")
	}
	r := tb.Rules
	if !r.CounterChargeNoDefense || !r.LeaderCharisma || r.CounterChargeReactionFire || !r.LeaderCasualtyUnmodified || r.OCActivationBonus != 0 {
		t.Errorf("rules: %+v", r)
	}
	// 12.2 Retreat Before Combat against any attack, every unit Disordered
	// by it; 13.3 #2, #3, #5d, #5e iii, #5h; 13.9 Unhorsed by the fire;
	// 14.5 in or adjacent to the Standard.
	if !r.RetreatBeforeContinued || !r.RetreatBeforeDisorders || !r.ChargeNotAdjacentAtShock || !r.CounterChargeAdjacent || !r.ChargePathNotAdjacent ||
		!r.CounterChargeFireAnyRange || !r.ChargePathTerrain || !r.CounterChargeFireUnhorsedEnds || !r.RetireNextToStandard {
		t.Errorf("Blood & Roses shock switches: %+v", r)
	}
	// Men of Iron and Infidel keep every one of them off.
	for _, vol := range []string{"moi", "infidel"} {
		o, err := Tables(vol)
		if err != nil {
			t.Fatal(err)
		}
		if q := o.Rules; q.RetreatBeforeDisorders || q.ChargeNotAdjacentAtShock || q.CounterChargeAdjacent || q.ChargePathNotAdjacent ||
			q.CounterChargeFireAnyRange || q.ChargePathTerrain || q.CounterChargeFireUnhorsedEnds || q.RetireNextToStandard {
			t.Errorf("%s: a Blood & Roses switch is on: %+v", vol, q)
		}
	}
	for k, u := range tb.UnitTypes {
		// 9.0: no Zones of Control; 13.1: only Mounted MAA Charge; 13.5: no Reluctance.
		if u.ZOC || u.Charges != (k == "MM") || u.Reluctance {
			t.Errorf("%s: zoc %v, charges %v, reluctance %v", k, u.ZOC, u.Charges, u.Reluctance)
		}
		// 12.1 Play Note: "Missile units may not Shock Attack".
		if _, attacker := tb.WSM[k]; attacker == u.Missile() {
			t.Errorf("%s: missile %v, a Weapon System Matrix attacker %v", k, u.Missile(), attacker)
		}
		// 2.4 Mounted Units: Cav and MM.
		if u.Mounted != (k == "CAV" || k == "MM") {
			t.Errorf("%s mounted %v", k, u.Mounted)
		}
	}
	if ut("MM").Unhorsed != "UH" {
		t.Error("7.4, 14.3: Unhorsed Mounted Men-at-Arms become UH")
	}
	// 7.4 Dismounting: MM -> DM for 2 MP, never back; UH is another type.
	if mm, dm := ut("MM"), ut("DM"); mm.Becomes != "DM" || mm.ChangeCost != 2 || !mm.OneWay || dm.Becomes != "" || ut("UH").Becomes != "" {
		t.Errorf("7.4: MM becomes %q for %d MP, one way %v; DM becomes %q", mm.Becomes, mm.ChangeCost, mm.OneWay, dm.Becomes)
	}
	// 16.3 Levy Infantry: Shock attacks only with a partner, never
	// advances nor continues; no other type is so marked.
	for k, u := range tb.UnitTypes {
		levy := k == "LVY"
		if u.ShockPartner != levy || u.NoAdvance != levy || u.NoContinuedAttack != levy {
			t.Errorf("16.3: %s shock_partner %v, no_advance %v, no_continued_attack %v", k, u.ShockPartner, u.NoAdvance, u.NoContinuedAttack)
		}
	}
	// 7.1 adjacency instead of ZOC, a leader alone MA 5; 7.4 dismount at
	// the start; 10.0 pass-through (ruling R224, superseding R194).
	if !r.AdjacencyLimits || r.LeaderAloneMA != 5 || !r.DismountAtStart || r.NoPassThrough {
		t.Errorf("rules: %+v", r)
	}
	pt := r.PassThrough
	if pt == nil || strings.Join(pt.Movers, ",") != "A,HG,LB" || strings.Join(pt.Free, ",") != "ART,HG" || strings.Join(pt.Never, ",") != "ART" {
		t.Errorf("10.0 pass-through: %+v", pt)
	}
	if tb.Movement.PassThroughDisorderMax >= 0 {
		t.Error("10.0: passing through never Disorders")
	}
}

// The movement switches are checked at load time: a one-way change names
// no way back (7.4), pass_through: false does not go with the lists
// (R224), leader_alone_ma is not negative, and the lists name types.
func TestBloodAndRosesMovementRulesValidated(t *testing.T) {
	checkTableEdits(t, "blood-and-roses", []tableEdit{
		{"    one_way: true ", "    one_way: true\n    shield_wall: false ", ""}, // control: still valid
		{"  DM:\n    name: Dismounted Men-at-Arms\n", "  DM:\n    name: Dismounted Men-at-Arms\n    becomes: MM\n    change_cost: 1\n", "a one-way change names no way back"},
		{"  leader_alone_ma: 5 ", "  pass_through: false\n  leader_alone_ma: 5 ", "not both"},
		{"  leader_alone_ma: 5 ", "  leader_alone_ma: -1 ", "must be 0"},
		{"pass_through_never: [ART]", "pass_through_never: [GUN]", "GUN"},
	})
}

// Blood & Roses 7.1: the Terrain Effects Chart writes "NE" for No Effect;
// any other word is refused with the choices.
func TestTerrainCostNE(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	if c := tb.Hexsides["slope"].Cost[engine.Foot]; c != 0 {
		t.Errorf("slope foot cost NE: %v, want 0", c)
	}
	b, err := files.ReadFile("tables/blood-and-roses.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), "cost: {foot: NE, mounted: 1}", "cost: {foot: NX, mounted: 1}", 1)
	if bad == string(b) {
		t.Fatal("the slope's NE cost moved: update the test")
	}
	_, err = ParseTables("blood-and-roses.yaml", []byte(bad))
	if err == nil || !strings.Contains(err.Error(), `"NX" is not a cost`) || !strings.Contains(err.Error(), "NE (No Effect)") {
		t.Errorf("NX cost: %v", err)
	}
}

// Blood & Roses 14.1: "If the attacker has a choice of Disorder or
// Retreat, he may choose different effects for each attacking unit". The
// choice is a cell "Attacker Disordered or Retreat 1 Hex" (ruling R267):
// the house tables give it on the Normal column at Shock 2-3 and Charge
// 1-2; "Attacker Disordered, Retreat 1 Hex" (the lowest rows) is both.
// Any other "or" is refused when the file is read.
func TestBloodAndRosesAttackerResultChoice(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table       engine.ResultTable
		total       int
		choice      bool
		disordered  bool
		retreatHexs int
	}{
		{tb.Shock, 2, true, true, 1}, {tb.Shock, 3, true, true, 1}, {tb.Shock, 1, false, true, 1}, {tb.Shock, 4, false, false, 0},
		{tb.Charge, 1, true, true, 1}, {tb.Charge, 2, true, true, 1}, {tb.Charge, 0, false, true, 1},
	} {
		res, _ := c.table.Lookup("normal", c.total)
		d, r := false, 0
		for _, e := range res.Attacker {
			switch e.Kind {
			case engine.EffectDisordered:
				d = true
			case engine.EffectRetreat:
				r = e.Hexes
			}
		}
		if res.AttackerChoice != c.choice || d != c.disordered || r != c.retreatHexs {
			t.Errorf("%s normal %d: %q choice %v, Disordered %v, Retreat %d; want %v, %v, %d", c.table.Name, c.total, res.Text, res.AttackerChoice, d, r, c.choice, c.disordered, c.retreatHexs)
		}
	}
	b, err := files.ReadFile("tables/blood-and-roses.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Defender Disordered or Retreat 1 Hex", "Attacker Disordered or Retired", "Attacker Retreat 1 Hex, Disordered or Retreat 1 Hex"} {
		s := strings.Replace(string(b), "normal: Attacker Disordered or Retreat 1 Hex", "normal: "+bad, 1)
		if _, err := ParseTables("choice.yaml", []byte(s)); err == nil || !strings.Contains(err.Error(), "14.1") {
			t.Errorf("%q: %v, want a refusal citing 14.1", bad, err)
		}
	}
}

// A Timed Engagement (Blood & Roses 16.2) is read from the battle's rules:
// the timed side and the time marker's first space, 1 or more.
func TestTimedEngagementRead(t *testing.T) {
	b, err := files.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	with := func(rule string) string {
		return strings.TrimRight(string(b), "\n") + "\n\nrules:\n  timed_engagement: " + rule + "\n"
	}
	sc, err := ParseScenario("timed.yaml", []byte(with("{timed: English, start: 6}")))
	if err != nil {
		t.Fatal(err)
	}
	if te := sc.Rules.TimedEngagement; te == nil || te.Timed != 1 || te.Start != 6 {
		t.Errorf("timed engagement %+v, want the English (side 1) from space 6", te)
	}
	for rule, want := range map[string]string{
		"{timed: English, start: 0}": "rules.timed_engagement.start",
		"{timed: Welsh, start: 3}":   "rules.timed_engagement.timed",
		"{timed: English}":           "start",
	} {
		if _, err := ParseScenario("timed.yaml", []byte(with(rule))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error on %s", rule, err, want)
		}
	}
}

// Battle Flight (Blood & Roses 14.8, optional) is the battle's choice,
// rules.battle_flight, on tables that give its threshold: Blood & Roses'
// 4 or less, Artillery not counted.
func TestBattleFlightRead(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Rules.BattleFlightMax != 4 || len(tb.Rules.BattleFlightIgnores) != 1 || tb.Rules.BattleFlightIgnores[0] != "ART" {
		t.Errorf("battle flight: max %d, ignores %v; want 4, [ART]", tb.Rules.BattleFlightMax, tb.Rules.BattleFlightIgnores)
	}
	b, err := files.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimRight(string(b), "\n") + "\n\nrules:\n  battle_flight: true\n"
	if _, err := ParseScenario("flight.yaml", []byte(s)); err == nil || !strings.Contains(err.Error(), "rules.battle_flight") {
		t.Errorf("Battle Flight on Men of Iron's tables: %v, want refused", err)
	}
	s = strings.Replace(s, "volume: moi", "volume: blood-and-roses", 1)
	s = strings.ReplaceAll(s, "type: MMAA", "type: MM")
	sc, err := ParseScenario("flight.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Rules.BattleFlight {
		t.Error("rules.battle_flight not read")
	}
}

// Blood & Roses Artillery and missile fire (7.6, 11.1-11.4, 12.3, 14.2,
// 14.4, 14.5; rulings R240-R259): the entries and switches of the house
// tables, off in Men of Iron and Infidel.
func TestBloodAndRosesArtilleryEntries(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	art, hg := tb.Weapons["artillery"], tb.Weapons["handgun"]
	for _, c := range []struct {
		what      string
		got, want bool
	}{
		{"ART limbered_side (2.2, 7.6)", tb.UnitTypes["ART"].LimberedSide, true},
		{"ART never_disordered (14.2)", tb.UnitTypes["ART"].NeverDisordered, true},
		{"HG never_disordered", tb.UnitTypes["HG"].NeverDisordered, false},
		{"artillery front_only (11.1)", art.FrontOnly, true},
		{"longbow front_only", tb.Weapons["longbow"].FrontOnly, false},
		{"artillery misfire eliminated (11.3)", art.Misfire == engine.MisfireEliminated, true},
		{"handgun misfire disordered (11.3)", hg.Misfire == engine.MisfireDisordered, true},
		{"longbow no misfire", tb.Weapons["longbow"].Misfire == "", true},
		{"handgun hedgerow_blocks (11.4)", hg.HedgerowBlocks, true},
		{"artillery reaction_first_only (11.2)", art.ReactionFirstOnly, true},
		{"handgun reaction_first_only (11.2)", hg.ReactionFirstOnly, true},
		{"longbow reaction_first_only", tb.Weapons["longbow"].ReactionFirstOnly, false},
		{"artillery hedgerow_blocks", art.HedgerowBlocks, false},
		{"Hedgerow/Brush hedgerow", tb.Terrain["hedgerow-brush"].Hedgerow, true},
		{"Hedgerow hexside hedgerow", tb.Hexsides["hedgerow"].Hedgerow, true},
		{"woods not hedgerow", tb.Terrain["woods"].Hedgerow, false},
		{"rules.fire_disorder_check (14.2)", tb.Rules.FireDisorderCheck && tb.Rules.FireDisorderCheckMax == 4, true},
		{"rules.one_reaction_per_entry (11.2)", tb.Rules.OneReactionPerEntry, true},
		{"rules.over_units_friend_adjacent (11.4)", tb.Rules.OverUnitsFriendAdjacent, true},
		{"rules.hedgerow_cover (11.4)", tb.Rules.HedgerowCover, true},
		{"fire_drm.over_units -1 (11.4)", tb.FireDRM.OverUnits == -1, true},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	for _, vol := range []string{"moi", "infidel"} {
		other, err := Tables(vol)
		if err != nil {
			t.Fatal(err)
		}
		r := other.Rules
		if r.FireDisorderCheck || r.OneReactionPerEntry || r.OverUnitsFriendAdjacent || r.HedgerowCover || other.FireDRM.OverUnits != 0 {
			t.Errorf("%s: a Blood & Roses switch is on: %+v, over_units %d", vol, r, other.FireDRM.OverUnits)
		}
		for k, w := range other.Weapons {
			if w.FrontOnly || w.Misfire != "" || w.HedgerowBlocks || w.ReactionFirstOnly {
				t.Errorf("%s weapon %s: %+v", vol, k, w)
			}
		}
		for k, ut := range other.UnitTypes {
			if ut.LimberedSide || ut.NeverDisordered {
				t.Errorf("%s unit type %s: %+v", vol, k, ut)
			}
		}
	}

	b, err := os.ReadFile("tables/blood-and-roses.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"misfire: eliminated", "misfire: exploded", `weapons.artillery.misfire: "exploded": want "eliminated" or "disordered"`},
		{"fire_disorder_check: 4 ", "fire_disorder_check: 10 ", "rules.fire_disorder_check: 10: the highest die (0-9)"},
		{"limbered_side: true", "limbered_side: maybe", "unit_types.ART.limbered_side"},
	} {
		bad := strings.Replace(string(b), c.from, c.to, 1)
		if bad == string(b) {
			t.Fatalf("%q not in the tables", c.from)
		}
		if _, err := ParseTables("blood-and-roses.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
}

// B&R 7.6 "See the individual battle for information about the state a
// player's Artillery begins the game in": a unit's `limbered: true`, for
// a type with a limbered side only.
func TestBloodAndRosesLimberedAtSetUp(t *testing.T) {
	b, err := os.ReadFile("testdata/good/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "volume: moi", "volume: blood-and-roses", 1)
	src = strings.Replace(src, "{id: R1, type: LB,", "{id: R1, type: ART, limbered: true,", 1)
	src = strings.Replace(src, "type: PK,", "type: INF,", 1)
	sc, err := ParseScenario("limbered.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if st := engine.NewState(sc); !st.Units[0].Limbered || st.Units[1].Limbered {
		t.Errorf("units %+v: want R1 alone limbered", st.Units)
	}
	bad := strings.Replace(src, "limbered: true,", "limbered: true, status: disordered,", 1)
	if _, err := ParseScenario("limbered.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "Artillery is never Disordered or Retired: it starts Normal (B&R 14.2, 14.5)") {
		t.Errorf("a Disordered Artillery: %v", err)
	}
	bad = strings.Replace(src, "type: INF,", "type: INF, limbered: true,", 1)
	if _, err := ParseScenario("limbered.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "Infantry has no limbered side: only Artillery limbers (B&R 2.2, 7.6)") {
		t.Errorf("a limbered Infantry: %v", err)
	}
}

// An Ambush (Blood & Roses 16.1) is read from the battle's rules: a
// Cavalry unit set up with ambush: true (not deployed at the start), the
// hexes it enters through, the Battle it joins; each mistake is named.
func TestAmbushRead(t *testing.T) {
	b, err := files.ReadFile("scenarios/tewkesbury.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const unit = "{id: GC1, name: the two hundred spears, type: CAV, command: gloucester, ambush: true}"
	const rule = "ambush: {unit: GC1, enter: [0912, 1012], joins: gloucester}"
	for _, c := range []struct{ what, from, to, want string }{
		{"deployed", unit, "{id: GC1, name: the two hundred spears, type: CAV, command: gloucester, hex: 1012, facing: W}", "give it ambush: true"},
		{"a hex too", unit, "{id: GC1, type: CAV, command: gloucester, ambush: true, hex: 1012}", "it has no hex (Blood & Roses 16.1)"},
		{"not named", rule, "battle_flight: false", "rules.ambush does not name it"},
		{"unknown unit", rule, "ambush: {unit: GC9, enter: [0912]}", `"GC9" is not a unit`},
		{"not Cavalry", unit, "{id: GC1, type: INF, command: gloucester, ambush: true}", "an ambushing unit is Cavalry"},
		{"no entry", rule, "ambush: {unit: GC1, joins: gloucester}", "rules.ambush.enter: missing"},
		{"entry off the map", rule, "ambush: {unit: GC1, enter: [2020]}", "rules.ambush.enter"},
		{"another Battle", rule, "ambush: {unit: GC1, enter: [0912], joins: edward}", "joins the Battle it is set up with"},
		{"named twice", rule, "ambush: [{unit: GC1, enter: [0912]}, {unit: GC1, enter: [1012]}]", "it is named twice"},
		{"also off_map", unit, "{id: GC1, type: CAV, command: gloucester, ambush: true, off_map: true}", "not both"},
	} {
		s := strings.Replace(string(b), c.from, c.to, 1)
		if s == string(b) {
			t.Fatalf("%s: %q not in the file", c.what, c.from)
		}
		if _, err := ParseScenario("ambush.yaml", []byte(s)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.what, err, c.want)
		}
	}
	// joins may be left out: it is the unit's Command.
	s := strings.Replace(string(b), rule, "ambush: [{unit: GC1, enter: [0912]}]", 1)
	sc, err := ParseScenario("ambush.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if a := sc.Rules.Ambushes; len(a) != 1 || a[0].Joins != "gloucester" || len(a[0].Enter) != 1 {
		t.Errorf("ambushes %+v, want GC1 through 0912 joining gloucester", a)
	}
}

// Pursuit (Blood & Roses 14.9, optional) is the battle's choice,
// rules.pursuit, with rules.battle_flight, on tables that give its
// numbers (rulings R284-R289).
func TestPursuitRead(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	if p := tb.Rules.Pursuit; p == nil || *p != (engine.PursuitTable{PursuesMax: 4, MountedEliminates: 5, FootEliminates: 7, LeaderDie: 9, ReturnsMin: 6}) {
		t.Errorf("pursuit %+v, want 14.9's 4, 5, 7, 9, 6", p)
	}
	b, err := files.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := strings.ReplaceAll(strings.Replace(strings.TrimRight(string(b), "\n"), "volume: moi", "volume: blood-and-roses", 1), "type: MMAA", "type: MM")
	sc, err := ParseScenario("pursuit.yaml", []byte(base+"\n\nrules:\n  battle_flight: true\n  pursuit: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Rules.Pursuit || !sc.Rules.BattleFlight {
		t.Error("rules.pursuit not read")
	}
	if _, err := ParseScenario("pursuit.yaml", []byte(base+"\n\nrules:\n  pursuit: true\n")); err == nil || !strings.Contains(err.Error(), "rules.battle_flight") {
		t.Errorf("Pursuit without Battle Flight: %v, want refused", err)
	}
	moi := strings.TrimRight(string(b), "\n") + "\n\nrules:\n  pursuit: true\n"
	if _, err := ParseScenario("pursuit.yaml", []byte(moi)); err == nil || !strings.Contains(err.Error(), "rules.pursuit") {
		t.Errorf("Pursuit on Men of Iron's tables: %v, want refused", err)
	}
}

// tableEdit is one change to a volume's tables file and the error it must
// bring, "" for a change that must still load.
type tableEdit struct{ from, to, want string }

// checkTableEdits reads the volume's tables with each edit made alone.
func checkTableEdits(t *testing.T, volume string, edits []tableEdit) {
	t.Helper()
	b, err := files.ReadFile("tables/" + volume + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range edits {
		bad := strings.Replace(string(b), tc.from, tc.to, 1)
		if bad == string(b) {
			t.Fatalf("%q is not in the file: update the test", tc.from)
		}
		_, err := ParseTables(volume+".yaml", []byte(bad))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.to, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want %q", tc.to, err, tc.want)
		}
	}
}

// The numbers of Into the Breach (6.3, +1) and the Ambush's Movement
// Allowance (16.1, double) are the tables' (into_the_breach_drm,
// ambush_ma_factor); a pool with an Into the Breach needs its DRM.
func TestBloodAndRosesCounterNumbersAreData(t *testing.T) {
	tb, err := Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	if r := tb.Rules; r.IntoTheBreachDRM != 1 || r.AmbushMAFactor != 2 {
		t.Errorf("into_the_breach_drm %d, ambush_ma_factor %d, want 1 and 2", r.IntoTheBreachDRM, r.AmbushMAFactor)
	}
	checkTableEdits(t, "blood-and-roses", []tableEdit{
		{"  into_the_breach_drm: 1 ", "  into_the_breach_drm: 0 ", "rules.into_the_breach_drm: missing"},
		{"  ambush_ma_factor: 2 ", "  ambush_ma_factor: -2 ", "must be 0 or more"},
	})
}
