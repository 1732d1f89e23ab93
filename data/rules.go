package data

import (
	"slices"

	"gopkg.in/yaml.v3"

	"herald/engine"
)

// The `rules:` switches of a tables file (docs/data-format.md): the
// volume's named departures from Men of Iron. Most are a plain yes or no,
// or a number; those are read from the lists below, each key once, and
// the few with a shape or check of their own by rules.

// flag is a yes-or-no switch.
type flag struct {
	key string
	dst func(*engine.Rules) *bool
}

// count is a numeric switch; nonNegative refuses a negative one with why.
type count struct {
	key         string
	dst         func(*engine.Rules) *int
	nonNegative string
}

var flags = []flag{
	{"reluctance_own_drm", func(r *engine.Rules) *bool { return &r.ReluctanceOwnDRM }},
	{"leader_charisma", func(r *engine.Rules) *bool { return &r.LeaderCharisma }},
	{"counter_charge_reaction_fire", func(r *engine.Rules) *bool { return &r.CounterChargeReactionFire }},
	{"face_to_fire", func(r *engine.Rules) *bool { return &r.FaceToFire }},
	{"zoc_terrain", func(r *engine.Rules) *bool { return &r.ZOCTerrain }},
	{"retire_through_zoc", func(r *engine.Rules) *bool { return &r.RetireThroughZOC }},
	{"retire_clear_of_attackers", func(r *engine.Rules) *bool { return &r.RetireClearOfAttackers }},
	{"retreat_before_continued", func(r *engine.Rules) *bool { return &r.RetreatBeforeContinued }},
	{"leader_casualty_unmodified", func(r *engine.Rules) *bool { return &r.LeaderCasualtyUnmodified }},
	{"army_activation", func(r *engine.Rules) *bool { return &r.ArmyActivation }},
	{"seizure_counters", func(r *engine.Rules) *bool { return &r.SeizureCounters }},
	{"oc_effectiveness", func(r *engine.Rules) *bool { return &r.OCEffectiveness }},
	{"continuity_leader_on_map", func(r *engine.Rules) *bool { return &r.ContinuityLeaderOnMap }},
	{"charisma_own_leaders", func(r *engine.Rules) *bool { return &r.CharismaOwnLeaders }},
	{"adjacency_limits", func(r *engine.Rules) *bool { return &r.AdjacencyLimits }},
	{"dismount_at_start", func(r *engine.Rules) *bool { return &r.DismountAtStart }},
	{"change_in_command", func(r *engine.Rules) *bool { return &r.ChangeInCommand }},
	{"dismount_ends_move", func(r *engine.Rules) *bool { return &r.DismountEndsMove }},
	{"retreat_before_disorders", func(r *engine.Rules) *bool { return &r.RetreatBeforeDisorders }},
	{"charge_not_adjacent_at_shock", func(r *engine.Rules) *bool { return &r.ChargeNotAdjacentAtShock }},
	{"charge_path_not_adjacent", func(r *engine.Rules) *bool { return &r.ChargePathNotAdjacent }},
	{"charge_path_terrain", func(r *engine.Rules) *bool { return &r.ChargePathTerrain }},
	{"counter_charge_adjacent", func(r *engine.Rules) *bool { return &r.CounterChargeAdjacent }},
	{"counter_charge_fire_any_range", func(r *engine.Rules) *bool { return &r.CounterChargeFireAnyRange }},
	{"counter_charge_fire_unhorsed_ends", func(r *engine.Rules) *bool { return &r.CounterChargeFireUnhorsedEnds }},
	{"retire_next_to_standard", func(r *engine.Rules) *bool { return &r.RetireNextToStandard }},
	{"one_reaction_per_entry", func(r *engine.Rules) *bool { return &r.OneReactionPerEntry }},
	{"over_units_friend_adjacent", func(r *engine.Rules) *bool { return &r.OverUnitsFriendAdjacent }},
	{"hedgerow_cover", func(r *engine.Rules) *bool { return &r.HedgerowCover }},
	{"shock_terrain_all", func(r *engine.Rules) *bool { return &r.ShockTerrainAll }},
	{"retired_only_by_retreat", func(r *engine.Rules) *bool { return &r.RetiredOnlyByRetreat }},
	{"retire_at_standard_eliminates", func(r *engine.Rules) *bool { return &r.RetireAtStandardEliminates }},
	{"displace_to_battle", func(r *engine.Rules) *bool { return &r.DisplaceToBattle }},
	{"standards_displaced", func(r *engine.Rules) *bool { return &r.StandardsDisplaced }},
	{"reaction_unlimbered_only", func(r *engine.Rules) *bool { return &r.ReactionUnlimberedOnly }},
	{"counter_charge_fire_ma", func(r *engine.Rules) *bool { return &r.CounterChargeFireMA }},
	{"raining_fire", func(r *engine.Rules) *bool { return &r.RainingFire }},
	{"reaction_into_empty_hex", func(r *engine.Rules) *bool { return &r.ReactionIntoEmptyHex }},
}

const atLeastZero = "must be 0 or more"

var counts = []count{
	{"mounted_fire_zoc_mp", func(r *engine.Rules) *int { return &r.MountedFireZOCMP }, ""},
	{"oc_activation_bonus", func(r *engine.Rules) *int { return &r.OCActivationBonus }, ""},
	{"battle_flight_max", func(r *engine.Rules) *int { return &r.BattleFlightMax }, ""},
	{"leader_alone_ma", func(r *engine.Rules) *int { return &r.LeaderAloneMA }, "must be 0 (the printed Movement Allowance) or more"},
	{"mounted_fire_adjacent_mp", func(r *engine.Rules) *int { return &r.MountedFireAdjacentMP }, atLeastZero},
	{"army_clearance", func(r *engine.Rules) *int { return &r.ArmyClearance }, atLeastZero},
	{"army_move_clearance", func(r *engine.Rules) *int { return &r.ArmyMoveClearance }, atLeastZero},
	{"army_continuation_drm", func(r *engine.Rules) *int { return &r.ArmyContinuationDRM }, atLeastZero},
	{"one_battle_continuation_drm", func(r *engine.Rules) *int { return &r.OneBattleContinuationDRM }, atLeastZero},
	{"no_advance_shock_defense", func(r *engine.Rules) *int { return &r.NoAdvanceShockDefense }, atLeastZero},
	{"retreat_before_hexes", func(r *engine.Rules) *int { return &r.RetreatBeforeHexes }, atLeastZero},
	{"into_the_breach_drm", func(r *engine.Rules) *int { return &r.IntoTheBreachDRM }, atLeastZero},
	{"ambush_ma_factor", func(r *engine.Rules) *int { return &r.AmbushMAFactor }, atLeastZero},
}

// shaped are the switches rules reads itself.
var shaped = []string{"mounted_missile_zoc", "counter_charge_defense_drm", "pass_through",
	"leader_presence_types", "charisma_types", "pass_through_movers", "pass_through_free", "pass_through_never",
	"battle_flight_ignores", "fire_on_move", "pursuit", "retreat_through", "retreat_eliminates", "army_continuation_max", "fire_disorder_check",
	"pass_through_not_through", "pass_through_unlimbered", "stacking", "stack_shock_row", "shock_immune",
	"swiss_attack_max", "swiss_refuse_max", "retreat_before_foot", "retreat_before_far"}

// rules reads a tables file's `rules:` into t.Rules.
func (p *parser) rules(t *engine.Tables, n *yaml.Node) {
	known := slices.Clone(shaped)
	for _, f := range flags {
		known = append(known, f.key)
	}
	for _, c := range counts {
		known = append(known, c.key)
	}
	ro := p.object(n, "rules", known...)
	r := &t.Rules
	for _, f := range flags {
		*f.dst(r) = ro.bool(f.key)
	}
	for _, c := range counts {
		v := ro.int(c.key, false)
		*c.dst(r) = v
		if v < 0 && c.nonNegative != "" {
			p.add(ro.line(c.key), "rules."+c.key, "%s", c.nonNegative)
		}
	}
	p.exclusive(ro, r)
	p.typeRules(t, ro)
	p.targetRules(ro, r)
	if pn := ro.node("pursuit", false); pn != nil {
		r.Pursuit = p.pursuit(pn)
	}
	r.NoPassThrough = ro.has("pass_through") && !ro.bool("pass_through")
	r.CounterChargeNoDefense = ro.has("counter_charge_defense_drm") && !ro.bool("counter_charge_defense_drm")
	switch z := engine.ZOCRule(ro.str("mounted_missile_zoc", false)); z {
	case "", engine.ZOCIgnore, engine.ZOCLeaveCost:
		r.MountedMissileZOC = z
	default:
		p.add(ro.line("mounted_missile_zoc"), "rules.mounted_missile_zoc", "%q: want %q (MoI 5.1) or %q (Infidel 11.2)", z, engine.ZOCIgnore, engine.ZOCLeaveCost)
	}
}

// exclusive refuses switches that do not go together, or one without the
// switch it needs.
func (p *parser) exclusive(ro *object, r *engine.Rules) {
	if r.DismountAtStart && (r.ChangeInCommand || r.DismountEndsMove) {
		p.add(ro.line("dismount_at_start"), "rules.dismount_at_start", "give either dismount_at_start (Blood & Roses 7.4) or change_in_command/dismount_ends_move (Arquebus 7.4), not both")
	}
	if r.CharismaOwnLeaders && !r.LeaderCharisma {
		p.add(ro.line("charisma_own_leaders"), "rules.charisma_own_leaders", "needs leader_charisma: it limits whose Charisma counts (Arquebus 5.2)")
	}
	if r.ArmyActivation && !(ro.has("army_clearance") && ro.has("army_move_clearance")) {
		p.add(ro.line("army_activation"), "rules.army_activation", "needs army_clearance and army_move_clearance (Blood & Roses 6.1: three and four hexes)")
	}
	if ro.has("army_continuation_max") && !r.ArmyActivation {
		p.add(ro.line("army_continuation_max"), "rules.army_continuation_max", "needs army_activation: it is the Army Continuation's target")
	}
}

// typeRules are the switches that list unit types.
func (p *parser) typeRules(t *engine.Tables, ro *object) {
	r := &t.Rules
	r.LeaderPresenceTypes = p.typeList(ro, "rules", "leader_presence_types", t)
	r.CharismaTypes = p.typeList(ro, "rules", "charisma_types", t)
	r.BattleFlightIgnores = p.typeList(ro, "rules", "battle_flight_ignores", t)
	if ro.has("retreat_through") {
		// Arquebus 14.3: the types a retreat may pass through.
		r.RetreatThrough = append([]string{}, p.typeList(ro, "rules", "retreat_through", t)...)
	}
	r.RetreatEliminates = p.typeList(ro, "rules", "retreat_eliminates", t)
	if n := ro.node("stacking", false); n != nil {
		r.Stacking = p.stacking(n, t)
	}
	r.StackShockRow = p.typeList(ro, "rules", "stack_shock_row", t)
	if ro.has("stack_shock_row") && len(r.Stacking) == 0 {
		p.add(ro.line("stack_shock_row"), "rules.stack_shock_row", "needs stacking: it says which unit of a stack defends in Shock (Arquebus 10.3)")
	}
	r.ShockImmune = p.typeList(ro, "rules", "shock_immune", t)
	r.RetreatBeforeFoot = p.typeList(ro, "rules", "retreat_before_foot", t) // Arquebus 12.2
	r.RetreatBeforeFar = p.typeList(ro, "rules", "retreat_before_far", t)
	if ro.has("fire_on_move") {
		r.FireOnMove = append([]string{}, p.typeList(ro, "rules", "fire_on_move", t)...)
	}
	if ro.has("pass_through_movers") || ro.has("pass_through_free") || ro.has("pass_through_never") ||
		ro.has("pass_through_not_through") || ro.has("pass_through_unlimbered") {
		r.PassThrough = &engine.PassThroughRule{
			Movers:     p.typeList(ro, "rules", "pass_through_movers", t),
			Free:       p.typeList(ro, "rules", "pass_through_free", t),
			Never:      p.typeList(ro, "rules", "pass_through_never", t),
			NotThrough: p.typeList(ro, "rules", "pass_through_not_through", t),
			Unlimbered: ro.bool("pass_through_unlimbered"),
		}
		if ro.has("pass_through") {
			p.add(ro.line("pass_through"), "rules.pass_through", "give either pass_through: false (no unit passes through another) or the pass_through_movers/free/never lists, not both")
		}
	}
}

// targetRules are the switches that are a die's target, 0-9, present or
// not.
func (p *parser) targetRules(ro *object, r *engine.Rules) {
	if ro.has("army_continuation_max") {
		// Arquebus 6.2: "If the (adjusted) DR is 2 or less, the Army Activation succeeds."
		r.ArmyContinuationFixed = true
		r.ArmyContinuationMax = ro.int("army_continuation_max", false)
		if m := r.ArmyContinuationMax; m < 0 || m > 9 {
			p.add(ro.line("army_continuation_max"), "rules.army_continuation_max", "%d: the highest adjusted die (0-9) with which an Army Continuation succeeds (Arquebus 6.2: 2)", m)
		}
	}
	if ro.has("swiss_attack_max") || ro.has("swiss_refuse_max") {
		// Arquebus 16.2: "If the DR is 6 or less ... If the DR is 7 to 9,
		// that unit refuses ... If the DR is 10 or more, the unit ... go[es]
		// home" (ruling R385).
		r.SwissReluctance = true
		r.SwissAttackMax, r.SwissRefuseMax = ro.int("swiss_attack_max", true), ro.int("swiss_refuse_max", true)
		if r.SwissRefuseMax < r.SwissAttackMax {
			p.add(ro.line("swiss_refuse_max"), "rules.swiss_refuse_max", "%d: the highest adjusted DR with which a Swiss unit refuses, at least swiss_attack_max (%d) (Arquebus 16.2: 6 and 9)", r.SwissRefuseMax, r.SwissAttackMax)
		}
	}
	if ro.has("fire_disorder_check") {
		// B&R 14.2: "if the DR is 4 or less the Artillery unit is Eliminated".
		r.FireDisorderCheck = true
		r.FireDisorderCheckMax = ro.int("fire_disorder_check", false)
		if m := r.FireDisorderCheckMax; m < 0 || m > 9 {
			p.add(ro.line("fire_disorder_check"), "rules.fire_disorder_check", "%d: the highest die (0-9) that Eliminates a never-Disordered unit Disordered by fire (B&R 14.2)", m)
		}
	}
}

// stacking reads rules.stacking, who may stack with whom (Arquebus 10.0):
// a list of {units: [types], with: [types or "any"], unlimbered: yes/no}.
func (p *parser) stacking(n *yaml.Node, t *engine.Tables) []engine.StackRule {
	const path = "rules.stacking"
	var out []engine.StackRule
	for _, en := range p.list(n, path) {
		eo := p.object(en, path, "units", "with", "unlimbered")
		sr := engine.StackRule{Units: p.typeList(eo, path, "units", t), Unlimbered: eo.bool("unlimbered")}
		wl := eo.node("with", true)
		if wl == nil {
			continue
		}
		for _, wn := range p.list(wl, path+".with") {
			k, ok := p.scalar(wn, path+".with")
			switch {
			case !ok:
			case k != engine.StackAny && t.UnitTypes[k] == nil:
				p.add(wn.Line, path+".with", "%s, or %q for every type", unknown("unit type", k, keys(t.UnitTypes)), engine.StackAny)
			default:
				sr.With = append(sr.With, k)
			}
		}
		if len(sr.Units) == 0 || len(sr.With) == 0 {
			p.add(en.Line, path, "each entry needs units and with: the types that may stack together (Arquebus 10.0)")
			continue
		}
		out = append(out, sr)
	}
	return out
}
