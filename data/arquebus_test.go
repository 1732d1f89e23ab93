package data

import (
	"os"
	"strings"
	"testing"

	"herald/engine"
)

// Arquebus' house tables hold every number its rule book and its examples
// reveal (arquebus.md; notes: worked-examples.md section 4; rulings
// R300-R319 in docs/rulings.md; docs/arquebus.md lists the engine work).
func TestArquebusTablesAgreeWithTheExamples(t *testing.T) {
	tb, err := Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	if !tb.House || tb.Volume != "arquebus" {
		t.Errorf("Arquebus' tables are Herald's own: house %v, volume %q", tb.House, tb.Volume)
	}
	ut := func(k string) *engine.UnitType {
		t.Helper()
		u := tb.UnitTypes[k]
		if u == nil {
			t.Fatalf("no unit type %s", k)
		}
		return u
	}
	// 2.2 the unit types of Arquebus (LC/A as LCA; the dismounted sides
	// of MAQ and MCB; the sleeved Pike and Sword & Buckler; the five guns
	// of 2.2's missile types; 16.3 Gun Wagons, 2.4 Baggage Wagons: R301).
	all := []string{"AQ", "CB", "GE", "LB", "LC", "LCA", "MAQ", "MCB", "MM", "PK", "SP", "SB", "SK", "STR",
		"DAQ", "DCB", "PKCB", "PKAQ", "SBCB", "SBAQ", "FAL", "SAK", "CUL", "OG", "HVY", "GW", "BW"}
	for _, k := range all {
		ut(k)
	}
	if len(tb.UnitTypes) != len(all) {
		t.Errorf("%d unit types, want %d", len(tb.UnitTypes), len(all))
	}
	checks := []struct {
		what      string
		got, want int
	}{
		// 3.0 Flight Points: PK, SB 5 "even if the infantry has AQ or CB";
		// MM, MAQ, AQ 3; CB, GE, LC/A, MCB, STR 2; Artillery, Gun Wagon, LC,
		// LB 1; SK, SP 0; Retired 1; named Battle leader 2; OC 5; King 10.
		{"FP PK", ut("PK").FlightPoints, 5}, {"FP PKCB", ut("PKCB").FlightPoints, 5}, {"FP PKAQ", ut("PKAQ").FlightPoints, 5},
		{"FP SB", ut("SB").FlightPoints, 5}, {"FP SBCB", ut("SBCB").FlightPoints, 5}, {"FP SBAQ", ut("SBAQ").FlightPoints, 5},
		{"FP MM", ut("MM").FlightPoints, 3}, {"FP MAQ", ut("MAQ").FlightPoints, 3}, {"FP AQ", ut("AQ").FlightPoints, 3}, {"FP DAQ", ut("DAQ").FlightPoints, 3},
		{"FP CB", ut("CB").FlightPoints, 2}, {"FP DCB", ut("DCB").FlightPoints, 2}, {"FP GE", ut("GE").FlightPoints, 2},
		{"FP LCA", ut("LCA").FlightPoints, 2}, {"FP MCB", ut("MCB").FlightPoints, 2}, {"FP STR", ut("STR").FlightPoints, 2},
		{"FP FAL", ut("FAL").FlightPoints, 1}, {"FP SAK", ut("SAK").FlightPoints, 1}, {"FP CUL", ut("CUL").FlightPoints, 1},
		{"FP OG", ut("OG").FlightPoints, 1}, {"FP HVY", ut("HVY").FlightPoints, 1},
		{"FP GW", ut("GW").FlightPoints, 1}, {"FP LC", ut("LC").FlightPoints, 1}, {"FP LB", ut("LB").FlightPoints, 1},
		{"FP SK", ut("SK").FlightPoints, 0}, {"FP SP", ut("SP").FlightPoints, 0}, {"FP BW", ut("BW").FlightPoints, 0},
		{"FP Retired", tb.FlightPoints.Retired, 1}, {"FP leader", tb.FlightPoints.Leader, 2},
		{"FP OC", tb.FlightPoints.OverallCommander, 5}, {"FP King", tb.FlightPoints.King, 10},
		// 3.0 Example: "A Retired Longbow unit is Eliminated, 0 FP are
		// added (1 – 1)"; its Retired Light Cavalry adding "(2 – 1)" is the
		// Light Cavalry Archers' value: the list gives Light Cavalry 1
		// (ruling R303).
		{"LB retired then eliminated", ut("LB").FlightPoints - tb.FlightPoints.Retired, 0},
		{"LCA retired then eliminated", ut("LCA").FlightPoints - tb.FlightPoints.Retired, 1},
		{"LC retired then eliminated", ut("LC").FlightPoints - tb.FlightPoints.Retired, 0},
		// 11.3 Example: a Crossbow at range 1 +2, its counter's Missile
		// Fire DRM 0 (the type's printed fire, R400), at Men-at-Arms -1
		// more: +1 in all.
		{"crossbow range 1", tb.Weapons["crossbow"].RangeDRM[0], +2},
		{"target MM", tb.FireDRM.TargetType["MM"], -1},
		{"CB Missile Fire DRM", ut("CB").Ratings.Fire.DRM, 0},
		{"crossbow at MM, range 1", tb.Weapons[ut("CB").Weapon].RangeDRM[0] + ut("CB").Ratings.Fire.DRM + tb.FireDRM.TargetType["MM"], +1},
		// 11.1: "a Swiss Pike unit with a Missile Fire DRM of -2 and a
		// Missile Type of CB ... the ability to fire Crossbows but with a
		// DRM of -2": the crossbow's row, the counter's -2 (R400).
		{"pike crossbow range 1", tb.Weapons[ut("PKCB").Weapon].RangeDRM[0], tb.Weapons["crossbow"].RangeDRM[0]},
		{"pike crossbow Missile Fire DRM", ut("PKCB").Ratings.Fire.DRM, -2},
		{"pike crossbow range", tb.Weapons[ut("PKCB").Weapon].MaxRange(), tb.Weapons["crossbow"].MaxRange()},
		// 11.4 Raining Fire -1; 14.4 Retired target +2; 14.2 a Disordered
		// firer's printed DRM lower (R400; disordered_firer is unused);
		// no Angle of Fire, no Shield Wall.
		{"raining fire", tb.FireDRM.OverUnits, -1}, {"retired target", tb.FireDRM.RetiredTarget, +2},
		{"disordered firer", tb.FireDRM.DisorderedFirer, -1}, {"angle of fire", tb.FireDRM.AngleOfFire, 0},
		{"shield wall", tb.FireDRM.ShieldWall, 0}, {"mounted firer", tb.FireDRM.MountedFirer, 0},
		// 12.3: flank +2, rear +3, two sides +4; no height; no Charge DRM,
		// -1 for a Charging unit that moved; attacker Disordered -2;
		// defender Retired +2; Continued Attack -1 per previous attack.
		{"flank", tb.ShockDRM.Flank, +2}, {"rear", tb.ShockDRM.Rear, +3}, {"two sides", tb.ShockDRM.TwoSides, +4},
		{"height", tb.ShockDRM.Height, 0}, {"charge", tb.ShockDRM.Charge, 0}, {"charge moved", tb.ShockDRM.ChargeMoved, -1},
		{"attacker disordered", tb.ShockDRM.AttackerDisordered, -2}, {"defender retired", tb.ShockDRM.DefenderRetired, +2},
		{"continued attack", tb.ShockDRM.ContinuedAttack, -1}, {"counter-charged shock", tb.ShockDRM.CounterChargeShock, -2},
		// 13.7-13.9: Counter-Charge 4 or less against a Charge, 5 or less
		// against Shock and fire, +1 to turn.
		{"CC vs charge", tb.ShockDRM.CounterChargeMaxBy["charge"], 4},
		{"CC vs shock", tb.ShockDRM.CounterChargeMaxBy["shock"], 5},
		{"CC vs fire", tb.ShockDRM.CounterChargeMaxBy["fire"], 5},
		{"CC facing", tb.ShockDRM.CounterChargeFacing, +1},
		// 5.4: by fire a modified 9+, then 8 or 9; by Shock an unmodified 7+.
		{"casualty trigger", tb.LeaderCasualty.FireTrigger, 9}, {"casualty fire", tb.LeaderCasualty.Fire, 8},
		{"casualty shock", tb.LeaderCasualty.Shock, 7},
		// 10.0: foot AQ, CB, LB, SK through friends at +1 MP a hex.
		{"pass-through MP", tb.Movement.PassThroughMP, 1},
		// 7.4: three MPs to dismount or remount.
		{"MAQ change", ut("MAQ").ChangeCost, 3}, {"MCB change", ut("MCB").ChangeCost, 3},
		{"DAQ change", ut("DAQ").ChangeCost, 3}, {"DCB change", ut("DCB").ChangeCost, 3},
		// 16.3 Gun Wagons "may not move".
		{"GW MA", ut("GW").Ratings.MA, 0}, {"GW MA disordered", ut("GW").Ratings.MADisordered, 0},
		// 14.2 Artillery Disordered by fire: 4 or less Eliminates it.
		{"fire disorder check", tb.Rules.FireDisorderCheckMax, 4},
		// 6.1 Army Activation more than 3 hexes off, moving no nearer than
		// 4; 6.2 no extra DRM for an Army Continuation (the Fornovo
		// Example adds only Gonzaga's Effectiveness), +1 a Battle alone.
		{"army clearance", tb.Rules.ArmyClearance, 3}, {"army move clearance", tb.Rules.ArmyMoveClearance, 4},
		{"army continuation", tb.Rules.ArmyContinuationDRM, 0}, {"one battle", tb.Rules.OneBattleContinuationDRM, 1},
		// 7.2 a leader alone moves 5.
		{"leader alone MA", tb.Rules.LeaderAloneMA, 5},
		// 6.2 "If the (adjusted) DR is 2 or less, the Army Activation
		// succeeds" (R320).
		{"army continuation max", tb.Rules.ArmyContinuationMax, 2},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
	// 13.6 Example: a Spanish Men-at-Arms Counter-Charging a Crossbow's
	// fire "rolls an 8 and fails", its Defense DRM added (ruling R84).
	if mm := ut("MM").Ratings.Shock; 8+mm <= tb.ShockDRM.CounterChargeMaxBy["fire"] || 8+mm+tb.ShockDRM.CounterChargeFacing <= tb.ShockDRM.CounterChargeMaxBy["fire"] {
		t.Errorf("13.6 Example: a Men-at-Arms (Defense %+d) rolling 8 against fire fails", mm)
	}

	r := tb.Rules
	for _, c := range []struct {
		what string
		got  bool
	}{
		{"adjacency_limits (9.0, 7.2)", r.AdjacencyLimits},
		{"face_to_fire (8.0)", r.FaceToFire},
		{"army_activation (6.1)", r.ArmyActivation},
		{"seizure_counters (6.3)", r.SeizureCounters},
		{"leader_charisma (5.2, 12.3 #4)", r.LeaderCharisma},
		{"leader_casualty_unmodified (5.4)", r.LeaderCasualtyUnmodified},
		{"no counter_charge_reaction_fire (13.9)", !r.CounterChargeReactionFire},
		{"counter_charge_defense_drm (13.7-13.9)", !r.CounterChargeNoDefense},
		{"retreat_before_continued (12.2)", r.RetreatBeforeContinued},
		{"retreat_before_disorders (12.2)", r.RetreatBeforeDisorders},
		{"charge_not_adjacent_at_shock (13.3 #2)", r.ChargeNotAdjacentAtShock},
		{"charge_path_not_adjacent (13.3 #5d)", r.ChargePathNotAdjacent},
		{"charge_path_terrain (13.3 #5h)", r.ChargePathTerrain},
		{"counter_charge_adjacent (13.3 #3)", r.CounterChargeAdjacent},
		{"retire_next_to_standard (14.4)", r.RetireNextToStandard},
		{"retire_clear_of_attackers (14.4)", r.RetireClearOfAttackers},
		{"fire_disorder_check (14.2)", r.FireDisorderCheck},
		{"one_reaction_per_entry (11.2)", r.OneReactionPerEntry},
		{"army_continuation_max (6.2)", r.ArmyContinuationFixed},
		{"oc_effectiveness (5.2, 6.2)", r.OCEffectiveness},
		{"continuity_leader_on_map (6.2, 6.3, 6.4)", r.ContinuityLeaderOnMap},
		{"charisma_own_leaders (5.2)", r.CharismaOwnLeaders},
		// 7.4 dismount and remount anywhere in the move, in Command, not
		// Disordered; the dismounted unit moves no further (R345, R346).
		{"change_in_command (7.4)", r.ChangeInCommand},
		{"dismount_ends_move (7.4)", r.DismountEndsMove},
		// 7.2, 11.2: only LC/A and Genitors fire on the move, 1 MP to fire
		// next to an enemy unit, 1 MP to leave such a hex (R340-R343).
		{"fire_on_move: [GE, LCA] (11.2)", strings.Join(r.FireOnMove, ",") == "GE,LCA"},
		{"mounted_fire_adjacent_mp: 1 (11.2)", r.MountedFireAdjacentMP == 1},
		{"leave_adjacent_mp: 1 (7.2)", tb.Movement.LeaveAdjacentMP == 1},
		// 14.5 Disengage +1 MP; 12.4 no Advance at +2 (R383, R384).
		{"disengage_mp: 1 (14.5)", tb.Movement.DisengageMP == 1},
		{"no_advance_shock_defense: 2 (12.4)", r.NoAdvanceShockDefense == 2},
		{"no mounted_fire_zoc_mp (9.0 no ZOC)", r.MountedFireZOCMP == 0},
		// 11.1, 11.5: the FIRED marker of Mounted Arquebus and Crossbow only.
		{"fired_marker: MAQ, MCB (11.5)", ut("MAQ").FiredMarker && ut("MCB").FiredMarker && !ut("LCA").FiredMarker && !ut("GE").FiredMarker && !ut("DAQ").FiredMarker && !ut("AQ").FiredMarker},
		// 12.3 #2B, 14.3, 14.4, 16.3, 5.4, 15.2 (R420-R430).
		{"shock_terrain_all (12.3 #2B)", r.ShockTerrainAll},
		{"retreat_through (14.3)", strings.Join(r.RetreatThrough, ",") == "AQ,DAQ,CB,DCB,LB,SP,SK,FAL,SAK,CUL,OG,HVY"},
		{"retired_only_by_retreat (14.4)", r.RetiredOnlyByRetreat},
		{"retire_at_standard_eliminates (14.4)", r.RetireAtStandardEliminates},
		{"retreat_eliminates: [GW] (16.3)", strings.Join(r.RetreatEliminates, ",") == "GW" && !ut("GW").NeverDisordered && ut("GW").Ratings.MA == 0},
		{"displace_to_battle (5.4)", r.DisplaceToBattle},
		{"standards_displaced (15.2)", r.StandardsDisplaced},
		// Switches whose engine behaviour is not Arquebus' stay off (R310):
		// 13.3 #5e iii (a Counter-Charge against fire up to the unit's MA,
		// not any range), 13.9 (no Unhorsed), 11.4 (Engaged, not adjacent,
		// friends block Raining Fire), 7.4 (dismount anywhere in the move,
		// not only at its start).
		{"no counter_charge_fire_any_range", !r.CounterChargeFireAnyRange},
		{"no counter_charge_fire_unhorsed_ends", !r.CounterChargeFireUnhorsedEnds},
		{"no over_units_friend_adjacent", !r.OverUnitsFriendAdjacent},
		{"no dismount_at_start", !r.DismountAtStart},
		{"no hedgerow_cover", !r.HedgerowCover},
		{"no battle flight (B&R 14.8 only)", r.BattleFlightMax == 0},
		{"no OC Activation bonus (Arquebus has Effectiveness instead)", r.OCActivationBonus == 0},
	} {
		if !c.got {
			t.Errorf("rules: %s", c.what)
		}
	}
	pt := r.PassThrough
	arty := "FAL,SAK,CUL,OG,HVY"
	if pt == nil || strings.Join(pt.Movers, ",") != "AQ,DAQ,CB,DCB,LB,SK" || strings.Join(pt.Free, ",") != arty || strings.Join(pt.Never, ",") != arty || r.NoPassThrough {
		t.Errorf("10.0 pass-through: %+v", pt)
	}

	mounted := map[string]bool{"GE": true, "LC": true, "LCA": true, "MAQ": true, "MCB": true, "MM": true, "STR": true}
	attackers := map[string]bool{"MM": true, "STR": true, "GE": true, "LC": true, "LCA": true,
		"PK": true, "PKCB": true, "PKAQ": true, "SB": true, "SBCB": true, "SBAQ": true}
	artillery := map[string]bool{"FAL": true, "SAK": true, "CUL": true, "OG": true, "HVY": true}
	for k, u := range tb.UnitTypes {
		// 2.4 Mounted Units: GE, LC (with LC/A), MAQ, MCB, MM, STR.
		if u.Mounted != mounted[k] {
			t.Errorf("2.4: %s mounted %v", k, u.Mounted)
		}
		// 9.0 no ZOC; 13.1 only Men-at-Arms Charge; 13.5 no Reluctance.
		if u.ZOC || u.Charges != (k == "MM") || u.Reluctance || u.NeverReluctant {
			t.Errorf("%s: zoc %v, charges %v, reluctance %v", k, u.ZOC, u.Charges, u.Reluctance)
		}
		// 12.1 the Weapon System Matrix's Attacker rows (R307).
		if _, ok := tb.WSM[k]; ok != attackers[k] {
			t.Errorf("12.1: %s an attacker %v", k, ok)
		}
		// 12.4 a unit with a Shock Defense DRM of +2 or more never
		// Advances: read from the unit's rating (rules.no_advance_shock_defense,
		// R384), so no type is no_advance.
		if u.NoAdvance {
			t.Errorf("12.4: %s no_advance: the rule reads the unit's own Shock Defense (R384)", k)
		}
		// 2.2, 7.6, 14.2: Artillery has a limbered side and is never
		// Disordered; its Disordered ratings repeat the front's (R305).
		if u.LimberedSide != artillery[k] || u.NeverDisordered != artillery[k] {
			t.Errorf("%s: limbered_side %v, never_disordered %v", k, u.LimberedSide, u.NeverDisordered)
		}
		if artillery[k] && (u.Ratings.MA != u.Ratings.MADisordered || u.Ratings.Shock != u.Ratings.ShockDisordered) {
			t.Errorf("2.2: %s has no Disordered side: %+v", k, u.Ratings)
		}
		// Missile units (2.4): every type with a missile type (R302).
		missile := !(k == "MM" || k == "STR" || k == "LC" || k == "PK" || k == "SB" || k == "SK" || k == "SP" || k == "BW")
		if u.Missile() != missile {
			t.Errorf("2.4: %s a missile unit %v", k, u.Missile())
		}
	}
	// 12.3 #1 Example: "One Stradiotti Cavalry attacks two Pike
	// Infantry"; 12.3 Example: "A Men-at-Arms Shock attacks two Pike".
	for _, a := range []string{"STR", "MM"} {
		if _, ok := tb.WSM[a]["PK"]; !ok {
			t.Errorf("12.3 Example: %s Shock attacks Pike", a)
		}
	}
	// A sleeved Pike or Sword & Buckler fights as the plain one (R307).
	for _, c := range [][2]string{{"PKCB", "PK"}, {"PKAQ", "PK"}, {"SBCB", "SB"}, {"SBAQ", "SB"}} {
		for d, v := range tb.WSM[c[1]] {
			if tb.WSM[c[0]][d] != v {
				t.Errorf("WSM %s -> %s %+d, %s -> %s %+d", c[0], d, tb.WSM[c[0]][d], c[1], d, v)
			}
		}
		for a := range tb.WSM {
			if tb.WSM[a][c[0]] != tb.WSM[a][c[1]] {
				t.Errorf("WSM %s -> %s %+d, -> %s %+d", a, c[0], tb.WSM[a][c[0]], c[1], tb.WSM[a][c[1]])
			}
		}
	}
	// 12.3 Example: a Men-at-Arms gets a Continued Attack against one
	// Pike and is Disordered against the other: both results are on the
	// Shock Table's Normal column.
	var ca, attDis bool
	for total := -2; total <= 14; total++ {
		res, _ := tb.Shock.Lookup("normal", total)
		ca = ca || res.ContinuedAttack
		for _, e := range res.Attacker {
			attDis = attDis || e.Kind == engine.EffectDisordered
		}
	}
	if !ca || !attDis {
		t.Errorf("12.3 Example: the Shock Table gives a Continued Attack %v and an Attacker Disordered %v", ca, attDis)
	}
	// 5.4 a leader check by fire needs a row for 9 or more.
	if res, _ := tb.Fire.Lookup("foot", 9); res.Text == "" {
		t.Error("the Fire Table has no row for 9")
	}

	// 11.1, 11.2 the weapons: Artillery fires through its Front only and
	// never Returns Fire, "not very effective at ranges over 4 hexes";
	// the sleeves may not Return Fire; GE, LB and LC/A react to each
	// enemy entering their Front, the others once.
	for k, u := range tb.UnitTypes {
		if !u.Missile() {
			continue
		}
		w := tb.Weapons[u.Weapon]
		sleeve := strings.HasPrefix(k, "PK") || strings.HasPrefix(k, "SB")
		if w.FrontOnly != artillery[k] || w.ReturnFire == (artillery[k] || sleeve) || w.Misfire != "" || w.ReactionFirstOnly || w.HedgerowBlocks {
			t.Errorf("11.1, 11.2: %s's %s: %+v", k, w.Key, w)
		}
		each := k == "GE" || k == "LB" || k == "LCA"
		if (w.ReactionTargets == 0) != each || !each && w.ReactionTargets != 1 {
			t.Errorf("11.2: %s reacts to %d (0: each)", k, w.ReactionTargets)
		}
		// 11.4 only Longbows and Light Cavalry Archers fire over units.
		if w.OverUnits != (k == "LB" || k == "LCA") {
			t.Errorf("11.4: %s over units %v", k, w.OverUnits)
		}
		if artillery[k] {
			if w.MaxRange() <= 4 && k != "OG" {
				t.Errorf("11.1: %s reaches %d hexes", k, w.MaxRange())
			}
			for r := 5; r <= w.MaxRange(); r++ {
				if w.RangeDRM[r-1] > 0 || w.RangeDRM[r-1] >= w.RangeDRM[0] {
					t.Errorf("11.1: %s at %d hexes %+d: not very effective over 4", k, r, w.RangeDRM[r-1])
				}
			}
		}
		for r := 1; r < w.MaxRange(); r++ {
			if w.RangeDRM[r] > w.RangeDRM[r-1] {
				t.Errorf("%s: range %d %+d better than range %d", w.Key, r+1, w.RangeDRM[r], r)
			}
		}
	}
	// 7.4: Mounted Arquebus and Crossbow dismount to their AQ and CB
	// counters and remount; no other type changes sides (Men-at-Arms do
	// not dismount in Arquebus).
	for k, u := range tb.UnitTypes {
		want := map[string]string{"MAQ": "DAQ", "DAQ": "MAQ", "MCB": "DCB", "DCB": "MCB"}[k]
		if u.Becomes != want || u.OneWay {
			t.Errorf("7.4: %s becomes %q (one way %v), want %q", k, u.Becomes, u.OneWay, want)
		}
	}

	// 6.3: 4 Seizure Opportunities, 1 Seizure Negation, Battle Cry, Into
	// the Breach and Unsteady Troops, the 8 of "his 8 possible Seizure
	// Counters" (R311, R327). Pavia Example: a counter of range 0-5, on
	// which a 6 fails and a 5 Seizes.
	n := map[engine.CounterType]int{}
	var pavia bool
	for _, c := range tb.SeizurePool {
		n[c.Type]++
		if c.Type == engine.CounterOpportunity && c.Min == 0 && c.Max == 5 {
			pavia = 5 >= c.Min && 5 <= c.Max && 6 > c.Max
		}
	}
	if n[engine.CounterOpportunity] != 4 || n[engine.CounterNegation] != 1 || n[engine.CounterBattleCry] != 1 || n[engine.CounterIntoTheBreach] != 1 ||
		n[engine.CounterUnsteadyTroops] != 1 || n[engine.CounterTreachery] != 0 || n[engine.CounterNearMiss] != 0 || len(tb.SeizurePool) != 8 || !pavia {
		t.Errorf("6.3 Seizure pool %+v", tb.SeizurePool)
	}
}

// Unsteady Troops (Arquebus 6.3) is a counter type of the engine
// (ruling R327): the pool holds it, and the parser reads the type from
// any tables' pool (the Blood & Roses one, say) and names it among the
// types a mistyped one may be.
func TestArquebusUnsteadyTroopsIsACounter(t *testing.T) {
	b, err := os.ReadFile("tables/blood-and-roses.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "seizure_pool:\n", "seizure_pool:\n  - {id: UT, type: unsteady-troops}\n", 1)
	if s == string(b) {
		t.Fatal("no seizure_pool in the Blood & Roses tables: update the test")
	}
	tb, err := ParseTables("blood-and-roses.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if c := tb.SeizurePool[0]; c.ID != "UT" || c.Type != engine.CounterUnsteadyTroops || c.Type.String() != "Unsteady Troops" {
		t.Errorf("UT read as %+v", c)
	}
	bad := strings.Replace(s, "type: unsteady-troops", "type: unsteady", 1)
	if _, err := ParseTables("blood-and-roses.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "into-the-breach or unsteady-troops") {
		t.Errorf("a mistyped type: %v", err)
	}
}

// A battle on the Arquebus tables loads: Gonzaga's Charisma +4 (5.2
// Example) and Cerignola's 2 and 1 Seizure counters (6.3) are battle data
// the tables accept; a side may draw no more than the pool holds.
func TestArquebusBattleLoads(t *testing.T) {
	s := arquebusMelee(t)
	s = strings.Replace(s, "douglas: {name: Douglas,", "douglas: {name: Gonzaga, oc: true, charisma: 4,", 1)
	s = strings.Replace(s, "    flight_level: 12\n", "    flight_level: 12\n    seizure_counters: 2\n", 1)
	s = strings.Replace(s, "  English:\n    flight_level: 12\n", "  English:\n    flight_level: 12\n    seizure_counters: 1\n", 1)
	sc, err := ParseScenario("arquebus-melee.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if g := sc.Leader("douglas"); g == nil || g.Charisma != 4 || !g.OC {
		t.Errorf("Gonzaga %+v, want OC with Charisma +4", g)
	}
	// 5.2, 6.2: Gonzaga's Effectiveness -2 (the Fornovo Example), an
	// Overall Commander's rating only, and only where the tables play it
	// (R320).
	eff := strings.Replace(s, "oc: true, charisma: 4,", "oc: true, charisma: 4, effectiveness: -2,", 1)
	if sc, err := ParseScenario("arquebus-melee.yaml", []byte(eff)); err != nil || sc.Leader("douglas").Effectiveness != -2 {
		t.Errorf("Gonzaga's Effectiveness -2: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Replace(eff, "oc: true, ", "", 1), "only an Overall Commander (oc: true) has an Effectiveness rating"},
		{strings.Replace(eff, "effectiveness: -2", "effectiveness: -12", 1), "-12: a DRM on a die of 0-9"},
		{strings.Replace(strings.Replace(eff, "volume: arquebus", "volume: blood-and-roses", 1), "type: MM", "type: MM", -1), "do not play Effectiveness (rules.oc_effectiveness)"},
	} {
		if _, err := ParseScenario("arquebus-melee.yaml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
	if sc.Sides[0].SeizureCounters != 2 || sc.Sides[1].SeizureCounters != 1 {
		t.Errorf("seizure counters %d and %d, want 2 and 1", sc.Sides[0].SeizureCounters, sc.Sides[1].SeizureCounters)
	}
	all := strings.Replace(s, "seizure_counters: 2", "seizure_counters: 8", 1)
	if _, err := ParseScenario("arquebus-melee.yaml", []byte(all)); err != nil {
		t.Errorf("8 counters from the pool of 8 (6.3): %v", err)
	}
	bad := strings.Replace(s, "seizure_counters: 2", "seizure_counters: 9", 1)
	if _, err := ParseScenario("arquebus-melee.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "0 to 8") {
		t.Errorf("9 counters from a pool of 8: %v", err)
	}
}

// Arquebus 6.4 Leaderless Battles: a battle on the Arquebus tables may
// give a Battle no leader (rules.continuity_leader_on_map); on tables
// without the switch every Command needs one (R324).
func TestArquebusLeaderlessBattleLoads(t *testing.T) {
	s := arquebusMelee(t)
	s = strings.Replace(s, "percy: {name: Percy's Battle, side: English, leader: percy}", "percy: {name: Percy's Battle, side: English, leader: percy}\n  rear: {name: The Rearguard, side: English}", 1)
	s = strings.Replace(s, "  - {id: EL1, type: CB, command: percy,", "  - {id: EL1, type: CB, command: rear,", 1)
	sc, err := ParseScenario("arquebus-leaderless.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if c := sc.Command("rear"); c == nil || c.Leader != "" {
		t.Errorf("the Rearguard %+v, want no leader", c)
	}
	// A leader must still be his Command's leader.
	led := strings.Replace(s, "  percy: {name: Percy, command: percy,", "  percy: {name: Percy, command: rear,", 1)
	if _, err := ParseScenario("arquebus-leaderless.yaml", []byte(led)); err == nil || !strings.Contains(err.Error(), "Command rear has no leader") {
		t.Errorf("a leader of a leaderless Command: %v", err)
	}
	b, err := os.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	moi := strings.Replace(string(b), "percy: {name: Percy's Battle, side: English, leader: percy}", "percy: {name: Percy's Battle, side: English}", 1)
	if _, err := ParseScenario("leaderless.yaml", []byte(moi)); err == nil || !strings.Contains(err.Error(), "commands.percy.leader: missing") {
		t.Errorf("a Command without a leader in Men of Iron: %v", err)
	}
}

// The Arquebus movement switches are checked at load time: a FIRED marker
// needs a weapon and a side to reload on (11.5), Blood & Roses'
// dismount_at_start does not go with Arquebus' 7.4 switches, and
// fire_on_move names unit types.
func TestArquebusMovementRulesValidated(t *testing.T) {
	checkTableEdits(t, "arquebus", []tableEdit{
		{"  fire_on_move: [GE, LCA] ", "  fire_on_move: [GE, LCA, MAQ] ", ""}, // control: still valid
		{"  fire_on_move: [GE, LCA] ", "  fire_on_move: [GE, LC/A] ", "LC/A"},
		{"  change_in_command: true ", "  change_in_command: true\n  dismount_at_start: true\n ", "not both"},
		{"  mounted_fire_adjacent_mp: 1 ", "  mounted_fire_adjacent_mp: -1 ", "must be 0"},
		{"  LB:\n    name: Longbow\n", "  LB:\n    name: Longbow\n    fired_marker: true\n", "reloads by dismounting"},
	})
}

// arquebusMelee is the melee test battle on the Arquebus tables: its
// Mounted MAA as MM, its first Longbow a Crossbow.
func arquebusMelee(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "volume: moi", "volume: arquebus", 1)
	s = strings.ReplaceAll(s, "type: MMAA", "type: MM")
	return strings.Replace(s, "type: LB", "type: CB", 1)
}

// Arquebus 5.5 "In some battles, there is no Replacement for a lost OC":
// a battle writes `replacement: none` for such a leader (R429), only
// where the tables have Leaderless Battles (rules.continuity_leader_on_map).
func TestArquebusNoReplacementLoads(t *testing.T) {
	s := strings.Replace(arquebusMelee(t), "hex: 0304, replacement: {ar: 2, range: 2}", "hex: 0304, replacement: none", 1)
	sc, err := ParseScenario("arquebus-melee.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Leader("douglas").NoReplacement || sc.Leader("percy").NoReplacement {
		t.Errorf("douglas %+v, percy %+v: want Douglas alone without a Replacement", sc.Leader("douglas"), sc.Leader("percy"))
	}
	moi := strings.Replace(s, "volume: arquebus", "volume: moi", 1)
	moi = strings.ReplaceAll(moi, "type: MM", "type: MMAA")
	moi = strings.Replace(moi, "type: CB", "type: LB", 1)
	if _, err := ParseScenario("melee.yaml", []byte(moi)); err == nil || !strings.Contains(err.Error(), "have no Leaderless Battles") {
		t.Errorf("replacement: none in Men of Iron: %v", err)
	}
	bad := strings.Replace(s, "replacement: none", "replacement: nobody", 1)
	if _, err := ParseScenario("arquebus-melee.yaml", []byte(bad)); err == nil {
		t.Errorf("replacement: nobody loads")
	}
}

// The Flight Points of issue 21's table (3.0): King 10, OC 5, PK/SB 5,
// MM/MAQ/AQ 3, CB/GE/LC-A/MCB/STR/named leader 2, Artillery/Gun Wagon/
// LC/LB 1, SK/SP 0; the sleeved and dismounted types as their kind, the
// Baggage Wagon 0 (R304), a Retired unit 1 (R427, worked example
// arq-3.0-fp-retired-then-eliminated).
func TestArquebusFlightPointsTable(t *testing.T) {
	tb, err := Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{
		5: {"PK", "PKCB", "PKAQ", "SB", "SBCB", "SBAQ"},
		3: {"MM", "MAQ", "AQ", "DAQ"},
		2: {"CB", "DCB", "GE", "LCA", "MCB", "STR"},
		1: {"FAL", "SAK", "CUL", "OG", "HVY", "GW", "LC", "LB"},
		0: {"SK", "SP", "BW"},
	}
	n := 0
	for fp, types := range want {
		for _, k := range types {
			n++
			if ut := tb.UnitTypes[k]; ut == nil || ut.FlightPoints != fp {
				t.Errorf("%s: %+v, want %d FP", k, ut, fp)
			}
		}
	}
	if n != len(tb.UnitTypes) {
		t.Errorf("%d unit types checked, the tables have %d", n, len(tb.UnitTypes))
	}
	if f := tb.FlightPoints; f.King != 10 || f.OverallCommander != 5 || f.Leader != 2 || f.Retired != 1 || !f.NamedLeadersOnly {
		t.Errorf("flight_points %+v, want King 10, OC 5, leader 2, Retired 1, named leaders only", f)
	}
}

// rules.stacking (Arquebus 10.0) is read into Rules.Stacking, and a bad
// entry is refused at load time.
func TestArquebusStackingTable(t *testing.T) {
	tb, err := Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	st := tb.Rules.Stacking
	if len(st) != 3 || !st[0].Unlimbered || st[1].Unlimbered || st[2].With[0] != engine.StackAny || len(st[0].Units) != 12 || len(st[1].Units) != 16 {
		t.Errorf("Stacking %+v", st)
	}
	if pt := tb.Rules.PassThrough; pt == nil || !pt.Unlimbered || len(pt.NotThrough) != 6 {
		t.Errorf("PassThrough %+v", pt)
	}
	checkTableEdits(t, "arquebus", []tableEdit{
		{"      with: [BW]  ", "      with: [BWX] ", `rules.stacking.with: unknown unit type "BWX"`},
		{"    - units: [SP]  ", "    - units: [XX]  ", `unknown unit type "XX"`},
		{"      with: [any]   ", "      whom: [any]   ", "rules.stacking.with: missing"},
		{"  pass_through_not_through: [PK,", "  pass_through_not_through: [PIKE,", `unknown unit type "PIKE"`},
		{"  shock_immune: [BW]", "  shock_immune: [WAGON]", `unknown unit type "WAGON"`},
		{"  stacking:\n", "  stacking_off:\n", "rules.stack_shock_row: needs stacking"},
	})
	if r := tb.Rules; len(r.StackShockRow) != 7 || r.StackShockRow[0] != "SP" || len(r.ShockImmune) != 1 || r.ShockImmune[0] != "BW" {
		t.Errorf("StackShockRow %v, ShockImmune %v", r.StackShockRow, r.ShockImmune)
	}
}

// A battle on the Arquebus tables may set up two friendly units in one
// hex as rules.stacking allows, facing alike (Arquebus 10.0, 10.1); Men of
// Iron never (8.0).
func TestArquebusSetupStacks(t *testing.T) {
	sk2 := "  - {id: SK2, type: MMAA, command: douglas, hex: 0305, facing: E}"
	for _, tc := range []struct{ name, line, want string }{
		{"a Sapper with Men-at-Arms", "  - {id: SK2, type: SP, command: douglas, hex: 0303, facing: E}", ""},
		{"two Men-at-Arms", "  - {id: SK2, type: MM, command: douglas, hex: 0303, facing: E}", "Men-at-Arms may not stack with Men-at-Arms (Arquebus 10.0, rules.stacking)"},
		{"facing apart", "  - {id: SK2, type: SP, command: douglas, hex: 0303, facing: W}", "stacked units face the same direction (Arquebus 10.1)"},
		{"three", "  - {id: SK2, type: SP, command: douglas, hex: 0303, facing: E}\n  - {id: SK3, type: SP, command: douglas, hex: 0303, facing: E}", "no more than two units share a hex"},
		{"with the enemy", "  - {id: SK2, type: SP, command: percy, hex: 0303, facing: E}", "units may not stack with enemy units"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := arquebusMelee(t)
			if !strings.Contains(s, strings.Replace(sk2, "MMAA", "MM", 1)) {
				t.Fatal("SK2 is not in the battle: update the test")
			}
			s = strings.Replace(s, strings.Replace(sk2, "MMAA", "MM", 1), tc.line, 1)
			_, err := ParseScenario("arquebus-melee.yaml", []byte(s))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	b, err := os.ReadFile("scenarios/melee-test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	moi := strings.Replace(string(b), sk2, strings.Replace(sk2, "0305", "0303", 1), 1)
	if _, err := ParseScenario("melee-test.yaml", []byte(moi)); err == nil || !strings.Contains(err.Error(), "combat units may not stack (8.0)") {
		t.Errorf("Men of Iron stack: %v", err)
	}
}

// Arquebus 16.2: a battle marks its Swiss Pike `swiss: true` (ruling
// R385); only where the tables play Swiss Shock Reluctance, and only on a
// unit that Shocks.
func TestArquebusSwissUnit(t *testing.T) {
	s := strings.Replace(arquebusMelee(t), "{id: SK2, type: MM,", "{id: SK2, type: PK, swiss: true,", 1)
	sc, err := ParseScenario("arquebus-melee.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range sc.Units {
		if u.Swiss != (u.ID == "SK2") {
			t.Errorf("%s swiss %v", u.ID, u.Swiss)
		}
	}
	if r := sc.Tables.Rules; !r.SwissReluctance || r.SwissAttackMax != 6 || r.SwissRefuseMax != 9 {
		t.Errorf("16.2 rules %v %d %d, want on, 6, 9", r.SwissReluctance, r.SwissAttackMax, r.SwissRefuseMax)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Replace(s, "type: PK, swiss", "type: CB, swiss", 1), "Crossbow never Shocks (no Weapon System Matrix row)"},
		{strings.Replace(strings.Replace(s, "volume: arquebus", "volume: blood-and-roses", 1), "type: PK, swiss", "type: INF, swiss", 1), "these tables have no Swiss Shock Reluctance"},
	} {
		if _, err := ParseScenario("arquebus-melee.yaml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
}

// Arquebus 14.1, 14.5: the house Shock and Charge tables carry Engaged
// results (rulings R306, R380), where neither side gives way; the parser
// reads "Engaged" on either side of a cell and refuses it on the Fire
// table.
func TestArquebusEngagedCells(t *testing.T) {
	tb, err := Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table  *engine.ResultTable
		col    string
		total  int
		text   string
		engage bool
	}{
		{&tb.Shock, "normal", 4, "Engaged", true},
		{&tb.Shock, "normal", 5, "Defender Disordered, Engaged", true},
		{&tb.Shock, "disordered", 3, "Engaged", true},
		{&tb.Shock, "normal", 3, "Attacker Disordered", false},
		{&tb.Charge, "normal", 1, "Attacker Disordered, Engaged", true},
		{&tb.Charge, "normal", 4, "Defender Disordered, Engaged", true},
		{&tb.Charge, "normal", 5, "Defender Disordered, Retreat 1 Hex", false},
	} {
		res, ok := c.table.Lookup(c.col, c.total)
		if !ok || res.Text != c.text || res.Engaged != c.engage || res.ContinuedAttack {
			t.Errorf("%s %s %d: %+v, want %q Engaged %v", c.table.Name, c.col, c.total, res, c.text, c.engage)
		}
	}
	if r, err := parseResult("Attacker Disordered, Engaged", false); err != nil || !r.Engaged || len(r.Attacker) != 1 || len(r.Defender) != 0 {
		t.Errorf("Attacker Disordered, Engaged: %+v %v", r, err)
	}
	for _, bad := range []struct {
		text string
		fire bool
		want string
	}{{"Engaged", true, "the Fire table has no Engaged result"}, {"Engaged, Defender Engaged", false, "Engaged given twice"}} {
		if _, err := parseResult(bad.text, bad.fire); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
}
