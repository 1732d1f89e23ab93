package data

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"herald/engine"
)

// Result table columns, fixed by the rules (12.1).
var (
	fireColumns  = []string{"foot", "foot-disordered", "mounted", "mounted-disordered"}
	shockColumns = []string{"normal", "disordered"}
)

// ParseTables reads a volume's tables from YAML (docs/data-format.md).
// file names the source in messages. Every problem is reported as an
// *Error; the result is nil if there is any.
func ParseTables(file string, b []byte) (*engine.Tables, error) {
	p := &parser{collector: &collector{file: file}}
	t := p.tables(b)
	if err := p.err(); err != nil {
		return nil, err
	}
	t.Source = file
	return t, nil
}

func (p *parser) tables(b []byte) *engine.Tables {
	root := p.root(b)
	if root == nil {
		return nil
	}
	o := p.object(root, "", "volume", "title", "house", "unit_types", "terrain", "hexsides", "weapons",
		"fire", "fire_drm", "shock_drm", "leader_casualty", "movement", "shock", "charge", "weapon_system_matrix", "flight_points", "rules",
		"cavalry_retreat", "seizure_pool")
	t := &engine.Tables{
		UnitTypes: map[string]*engine.UnitType{},
		Terrain:   map[string]*engine.TerrainType{},
		Hexsides:  map[string]*engine.HexsideType{},
		Weapons:   map[string]*engine.Weapon{},
		WSM:       map[string]map[string]int{},
	}
	if t.Volume = o.str("volume", true); t.Volume != "" {
		p.id(t.Volume, o.line("volume"), "volume")
	}
	t.Title = o.str("title", true)
	t.House = o.bool("house")

	if n := o.node("weapons", true); n != nil {
		p.weapons(t, n)
	}
	if n := o.node("unit_types", true); n != nil {
		p.unitTypes(t, n)
	}
	if n := o.node("terrain", true); n != nil {
		p.terrain(t, n)
	}
	if n := o.node("hexsides", true); n != nil {
		p.hexsides(t, n)
	}
	if n := o.node("fire", true); n != nil {
		t.Fire = p.resultTable(n, "fire", "Fire Results Table", fireColumns, true)
	}
	if n := o.node("fire_drm", true); n != nil {
		fo := p.object(n, "fire_drm", "disordered_firer", "retired_target", "angle_of_fire", "angle_of_fire_types", "shield_wall", "mounted_firer", "target_type", "bombard", "over_units")
		t.FireDRM = engine.FireDRMs{
			DisorderedFirer: fo.int("disordered_firer", true),
			RetiredTarget:   fo.int("retired_target", true),
			AngleOfFire:     fo.int("angle_of_fire", true),
			ShieldWall:      fo.int("shield_wall", true),
			MountedFirer:    fo.int("mounted_firer", false),
			Bombard:         fo.int("bombard", false),
			OverUnits:       fo.int("over_units", false),
		}
		t.FireDRM.AngleOfFireTypes = p.typeList(fo, "fire_drm", "angle_of_fire_types", t)
		if tn := fo.node("target_type", false); tn != nil {
			t.FireDRM.TargetType = map[string]int{}
			for _, kv := range p.pairs(tn, "fire_drm.target_type") {
				var v int
				if err := kv.v.Decode(&v); err != nil {
					p.add(kv.v.Line, "fire_drm.target_type."+kv.key, "want a whole number (a DRM)")
					continue
				}
				t.FireDRM.TargetType[kv.key] = v
			}
		}
	}
	if n := o.node("shock_drm", true); n != nil {
		t.ShockDRM = p.shockDRMTable(n)
	}
	if n := o.node("movement", true); n != nil {
		mo := p.object(n, "movement", "leave_mounted_zoc_mp", "leave_missile_zoc_mp", "leave_adjacent_mp", "disengage_mp", "pass_through_mp", "pass_through_disorder_max", "terrain_disorder_max")
		t.Movement = engine.MovementRules{
			LeaveMountedZOCMP:      mo.int("leave_mounted_zoc_mp", true),
			LeaveMissileZOCMP:      mo.int("leave_missile_zoc_mp", false),
			LeaveAdjacentMP:        mo.int("leave_adjacent_mp", false),
			DisengageMP:            mo.int("disengage_mp", false),
			PassThroughMP:          mo.int("pass_through_mp", true),
			PassThroughDisorderMax: mo.int("pass_through_disorder_max", true),
			TerrainDisorderMax:     mo.int("terrain_disorder_max", false),
		}
		p.terrainDisorderMax = mo.has("terrain_disorder_max")
		if m := t.Movement.TerrainDisorderMax; m < 0 || m > 9 {
			p.add(mo.line("terrain_disorder_max"), "movement.terrain_disorder_max", "%d: the highest die (0-9) that Disorders a unit entering \"D\" terrain (Arquebus 7.2)", m)
		}
	}
	if p.disorderLine != 0 && !p.terrainDisorderMax {
		p.add(p.disorderLine, "movement.terrain_disorder_max", "missing: terrain marked disorder (a Terrain Chart \"D\", Arquebus 7.2) needs the die that Disorders")
	}
	if n := o.node("leader_casualty", true); n != nil {
		lo := p.object(n, "leader_casualty", "fire_trigger", "fire", "shock")
		t.LeaderCasualty = engine.LeaderCasualty{FireTrigger: lo.int("fire_trigger", true), Fire: lo.int("fire", true), Shock: lo.int("shock", true)}
	}
	if n := o.node("shock", true); n != nil {
		t.Shock = p.resultTable(n, "shock", "Shock Combat Results Table", shockColumns, false)
	}
	if n := o.node("charge", true); n != nil {
		t.Charge = p.resultTable(n, "charge", "Charge Combat Results Table", shockColumns, false)
	}
	var wsmLines map[string]int
	if n := o.node("weapon_system_matrix", true); n != nil {
		wsmLines = p.wsm(t, n)
	}
	if n := o.node("flight_points", true); n != nil {
		fo := p.object(n, "flight_points", "retired", "leader", "king", "overall_commander", "named_leaders_only")
		t.FlightPoints = engine.FlightPointValues{
			Retired:          fo.int("retired", true),
			Leader:           fo.int("leader", true),
			King:             fo.int("king", false),
			OverallCommander: fo.int("overall_commander", false),
			NamedLeadersOnly: fo.bool("named_leaders_only"),
		}
		for _, k := range []string{"retired", "leader", "king", "overall_commander"} {
			if fo.has(k) && fo.int(k, false) < 0 {
				p.add(fo.line(k), join("flight_points", k), "must be 0 or more")
			}
		}
	}

	if n := o.node("cavalry_retreat", false); n != nil {
		t.CavalryRetreat = p.cavalryRetreat(n)
	}
	if n := o.node("seizure_pool", false); n != nil {
		p.seizurePool(t, n)
	}
	if n := o.node("rules", false); n != nil {
		p.rules(t, n)
	}

	if slices.ContainsFunc(t.SeizurePool, func(c engine.SeizureCounter) bool { return c.Type == engine.CounterIntoTheBreach }) && t.Rules.IntoTheBreachDRM == 0 {
		p.add(o.line("seizure_pool"), "rules.into_the_breach_drm", "missing: an Into the Breach counter in the pool needs the DRM it adds (6.3: 1)")
	}
	if t.Rules.SeizureCounters != (len(t.SeizurePool) > 0) && o.has("rules") {
		p.add(o.line("rules"), "rules.seizure_counters", "seizure_counters and a seizure_pool go together: the pool is what players draw their counters from (6.3)")
	}

	// Cross-checks between sections.
	for _, key := range keys(t.UnitTypes) {
		ut := t.UnitTypes[key]
		line := p.typeLines[key]
		p.retreatBefore(t, key, line, o.has("cavalry_retreat"))
		if as := ut.ReactedDefendsAs; as != "" && t.UnitTypes[as] == nil {
			p.add(line, join("unit_types."+key, "reacted_defends_as"), "%s", unknown("unit type", as, keys(t.UnitTypes)))
		}
		if ut.Becomes != "" {
			other := t.UnitTypes[ut.Becomes]
			switch {
			case other == nil:
				p.add(line, join("unit_types."+key, "becomes"), "%s", unknown("unit type", ut.Becomes, keys(t.UnitTypes)))
			case ut.OneWay && other.Becomes != "":
				p.add(line, join("unit_types."+key, "one_way"), "%s becomes %q: a one-way change names no way back (7.4)", ut.Becomes, other.Becomes)
			case !ut.OneWay && other.Becomes != key:
				p.add(line, join("unit_types."+key, "becomes"), "%s becomes %q, not %s: the two sides of a counter name each other (14.2)", ut.Becomes, other.Becomes, key)
			case ut.ChangeCost <= 0:
				p.add(line, join("unit_types."+key, "change_cost"), "a type that becomes another needs the MP the change costs (14.2)")
			}
		}
		if ut.FiredMarker && (ut.Weapon == "" || ut.Becomes == "") {
			p.add(line, join("unit_types."+key, "fired_marker"), "a unit with a FIRED marker reloads by dismounting: the type needs a weapon and a side it becomes (Arquebus 11.5)")
		}
		if u := ut.Unhorsed; u != "" && t.UnitTypes[u] == nil {
			p.add(line, join("unit_types."+key, "unhorsed"), "%s", unknown("unit type", u, keys(t.UnitTypes)))
		}
		_, attacker := t.WSM[key]
		if ut.Charges && (!ut.Mounted || !attacker) && wsmLines != nil {
			p.add(line, join("unit_types."+key, "charges"), "only mounted types listed as attackers in the weapon_system_matrix may Charge (10.1, 11.1)")
		}
		if ut.ZOC && ut.Mounted && !attacker && wsmLines != nil {
			p.add(line, join("unit_types."+key, "zoc"), "a mounted type has a ZOC only if it may Shock, i.e. is an attacker in the weapon_system_matrix (7.1)")
		}
		if ut.ZOC && !ut.Mounted && !ut.Missile() {
			p.add(line, join("unit_types."+key, "zoc"), "a foot type has a ZOC only if it is missile infantry, i.e. has a weapon (7.1)")
		}
	}
	return t
}

func (p *parser) weapons(t *engine.Tables, n *yaml.Node) {
	for _, kv := range p.pairs(n, "weapons") {
		path := join("weapons", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "range_drm", "return_fire", "reaction_targets", "over_units", "front_only", "misfire", "hedgerow_blocks", "reaction_first_only")
		w := &engine.Weapon{Key: kv.key, Name: o.str("name", true)}
		if rn := o.node("range_drm", true); rn != nil {
			if p.is(rn, join(path, "range_drm"), yaml.SequenceNode, "a list of DRMs, one per range from 1 hex up to the maximum range") {
				if len(rn.Content) == 0 {
					p.add(rn.Line, join(path, "range_drm"), "must give the DRM for at least range 1")
				}
				for i, c := range rn.Content {
					v, _ := p.integer(c, index(join(path, "range_drm"), i))
					w.RangeDRM = append(w.RangeDRM, v)
				}
			}
		}
		w.ReturnFire = o.bool("return_fire")
		w.OverUnits = o.bool("over_units")
		w.FrontOnly = o.bool("front_only")
		w.HedgerowBlocks = o.bool("hedgerow_blocks")
		w.ReactionFirstOnly = o.bool("reaction_first_only")
		switch m := o.str("misfire", false); m {
		case "", engine.MisfireEliminated, engine.MisfireDisordered:
			w.Misfire = m
		default:
			p.add(o.line("misfire"), join(path, "misfire"), "%q: want %q or %q (B&R 11.3 Artillery/Handgun Reliability)", m, engine.MisfireEliminated, engine.MisfireDisordered)
		}
		if rn := o.node("reaction_targets", false); rn != nil {
			if s, ok := p.scalar(rn, join(path, "reaction_targets")); ok {
				if strings.EqualFold(s, "each") {
					w.ReactionTargets = 0
				} else if v, ok := atoi(s); ok && v >= 0 {
					w.ReactionTargets = v
				} else {
					p.add(rn.Line, join(path, "reaction_targets"), "%q: write each, or how many enemy units per enemy Activation (9.2)", s)
				}
			}
		}
		t.Weapons[kv.key] = w
	}
}

func (p *parser) unitTypes(t *engine.Tables, n *yaml.Node) {
	p.typeLines = map[string]int{}
	for _, kv := range p.pairs(n, "unit_types") {
		path := join("unit_types", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "mounted", "weapon", "maa", "zoc", "charges", "flight_points",
			"ma", "ma_disordered", "shock", "shock_disordered", "shield_wall", "schiltron", "becomes", "change_cost", "one_way", "shock_partner", "no_advance", "no_continued_attack", "unhorsed", "reluctance", "never_reluctant",
			"retreat_before", "retire_as_retreat", "no_disordered_side", "must_counter_charge_fire", "always_in_command", "fire_or_shock", "reacted_defends_as",
			"limbered_side", "never_disordered", "fired_marker", "fire", "fire_disordered", "no_shock_die")
		ut := &engine.UnitType{
			Key:          kv.key,
			Name:         o.str("name", true),
			Mounted:      o.bool("mounted"),
			Weapon:       o.str("weapon", false),
			MAA:          o.bool("maa"),
			ZOC:          o.bool("zoc"),
			Charges:      o.bool("charges"),
			FlightPoints: o.int("flight_points", true),
			Ratings: engine.Ratings{
				MA:              o.int("ma", true),
				MADisordered:    o.int("ma_disordered", true),
				Shock:           o.int("shock", true),
				ShockDisordered: o.int("shock_disordered", true),
				Fire:            o.missileDRM("fire"),
				FireDisordered:  o.missileDRM("fire_disordered"),
			},
			ShieldWall:   o.bool("shield_wall"),
			Schiltron:    o.bool("schiltron"),
			Becomes:      o.str("becomes", false),
			ChangeCost:   o.int("change_cost", false),
			OneWay:       o.bool("one_way"),
			ShockPartner: o.bool("shock_partner"),
			NoAdvance:    o.bool("no_advance"),

			NoContinuedAttack: o.bool("no_continued_attack"),
			Unhorsed:          o.str("unhorsed", false),
			Reluctance:        o.bool("reluctance"),
			NeverReluctant:    o.bool("never_reluctant"),

			RetireAsRetreat:       o.bool("retire_as_retreat"),
			NoDisorderedSide:      o.bool("no_disordered_side"),
			MustCounterChargeFire: o.bool("must_counter_charge_fire"),
			AlwaysInCommand:       o.bool("always_in_command"),
			FireOrShock:           o.bool("fire_or_shock"),
			ReactedDefendsAs:      o.str("reacted_defends_as", false),
			LimberedSide:          o.bool("limbered_side"),
			NeverDisordered:       o.bool("never_disordered"),
			FiredMarker:           o.bool("fired_marker"),
			NoShockDie:            o.bool("no_shock_die"),
		}
		if rn := o.node("retreat_before", false); rn != nil && p.is(rn, join(path, "retreat_before"), yaml.SequenceNode, "a list of unit types (Infidel 12.2)") {
			for i, c := range rn.Content {
				if s, ok := p.scalar(c, index(join(path, "retreat_before"), i)); ok {
					ut.RetreatBefore = append(ut.RetreatBefore, s)
				}
			}
		}
		if ut.Weapon != "" && t.Weapons[ut.Weapon] == nil {
			p.add(o.line("weapon"), join(path, "weapon"), "%s", unknown("weapon", ut.Weapon, keys(t.Weapons)))
		}
		p.missileRatings(o, path, ut.Ratings, ut.Weapon != "")
		if ut.FlightPoints < 0 {
			p.add(o.line("flight_points"), join(path, "flight_points"), "must be 0 or more")
		}
		if ut.Ratings.MA < 0 || ut.Ratings.MADisordered < 0 {
			p.add(o.line("ma"), join(path, "ma"), "a Movement Allowance must be 0 or more")
		}
		t.UnitTypes[kv.key] = ut
		p.typeLines[kv.key] = kv.k.Line
	}
	if len(t.UnitTypes) == 0 && n.Kind == yaml.MappingNode {
		p.add(n.Line, "unit_types", "no unit types")
	}
}

// classCosts reads {foot: 1, mounted: 2, leader: 1}. Leader is optional:
// a leader moving alone uses the most advantageous column (5.1).
func (p *parser) classCosts(n *yaml.Node, path string) map[engine.Class]engine.Cost {
	o := p.object(n, path, "foot", "mounted", "leader")
	out := map[engine.Class]engine.Cost{}
	for _, c := range []engine.Class{engine.Foot, engine.Mounted, engine.Leader} {
		cn := o.node(string(c), c != engine.Leader)
		if cn == nil {
			continue
		}
		if v, ok := p.cost(cn, join(path, string(c))); ok {
			out[c] = v
		}
	}
	if _, ok := out[engine.Leader]; !ok && !o.has("leader") {
		f, fok := out[engine.Foot]
		m, mok := out[engine.Mounted]
		switch {
		case fok && mok:
			out[engine.Leader] = best(f, m)
		case fok:
			out[engine.Leader] = f
		case mok:
			out[engine.Leader] = m
		}
	}
	return out
}

// best is the more advantageous of two costs.
func best(a, b engine.Cost) engine.Cost {
	switch {
	case a == engine.NA:
		return b
	case b == engine.NA:
		return a
	}
	return min(a, b)
}

// shockDRMs reads {foot: -1, mounted: -2}: the Shock/Charge DRM per
// attacker class (10.4 #2B). Absent means 0 for both.
func (p *parser) shockDRMs(o *object, path string) (map[engine.Class]int, map[engine.Class]bool) {
	out := map[engine.Class]int{engine.Foot: 0, engine.Mounted: 0}
	var na map[engine.Class]bool
	n := o.node("shock", false)
	if n == nil {
		return out, na
	}
	so := p.object(n, join(path, "shock"), "foot", "mounted")
	for _, c := range []engine.Class{engine.Foot, engine.Mounted} {
		cn := so.node(string(c), true)
		if cn == nil {
			continue
		}
		cp := join(join(path, "shock"), string(c))
		if s, ok := p.scalar(cn, cp); ok && strings.EqualFold(s, "NA") {
			// Arquebus 12.3 #2B: "A unit may attack into/across any
			// terrain not listed as NA in the Shock/Charge DRM column".
			if na == nil {
				na = map[engine.Class]bool{}
			}
			na[c] = true
			continue
		}
		v, _ := p.integer(cn, cp)
		out[c] = v
	}
	return out, na
}

// disorderClasses reads a Terrain Chart "D" (Arquebus 7.2: "there is a
// chance of Disorder"): the classes, foot and/or mounted, that roll for
// Disorder on entering the hex or crossing the hexside.
func (p *parser) disorderClasses(o *object, path string) map[engine.Class]bool {
	n := o.node("disorder", false)
	if n == nil || !p.is(n, join(path, "disorder"), yaml.SequenceNode, "a list of classes, foot and/or mounted (Arquebus 7.2 \"D\")") {
		return nil
	}
	out := map[engine.Class]bool{}
	for k, c := range n.Content {
		s, ok := p.scalar(c, index(join(path, "disorder"), k))
		switch cl := engine.Class(s); {
		case !ok:
		case cl == engine.Foot || cl == engine.Mounted:
			out[cl] = true
		default:
			p.add(c.Line, index(join(path, "disorder"), k), "%q: want foot or mounted", s)
		}
	}
	p.disorderLine = n.Line
	return out
}

func (p *parser) terrain(t *engine.Tables, n *yaml.Node) {
	for _, kv := range p.pairs(n, "terrain") {
		path := join("terrain", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "cost", "blocks_los", "no_charge", "shock", "hedgerow", "disorder")
		tt := &engine.TerrainType{
			Key:       kv.key,
			Name:      o.str("name", true),
			BlocksLOS: o.bool("blocks_los"),
			Hedgerow:  o.bool("hedgerow"),
			NoCharge:  o.bool("no_charge"),
			Disorder:  p.disorderClasses(o, path),
		}
		tt.ShockDRM, tt.NoShock = p.shockDRMs(o, path)
		if cn := o.node("cost", true); cn != nil {
			tt.Cost = p.classCosts(cn, join(path, "cost"))
		}
		t.Terrain[kv.key] = tt
	}
	if len(t.Terrain) == 0 && n.Kind == yaml.MappingNode {
		p.add(n.Line, "terrain", "no terrain types")
	}
}

func (p *parser) hexsides(t *engine.Tables, n *yaml.Node) {
	for _, kv := range p.pairs(n, "hexsides") {
		path := join("hexsides", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "cost", "road", "slope", "no_charge", "shock", "reluctance", "hedgerow", "blocks_los", "disorder")
		ht := &engine.HexsideType{
			Key:        kv.key,
			Name:       o.str("name", true),
			Road:       o.bool("road"),
			Slope:      o.bool("slope"),
			NoCharge:   o.bool("no_charge"),
			Reluctance: o.int("reluctance", false),
			Hedgerow:   o.bool("hedgerow"),
			BlocksLOS:  o.bool("blocks_los"),
			Disorder:   p.disorderClasses(o, path),
		}
		ht.ShockDRM, ht.NoShock = p.shockDRMs(o, path)
		if cn := o.node("cost", true); cn != nil {
			ht.Cost = p.classCosts(cn, join(path, "cost"))
		}
		t.Hexsides[kv.key] = ht
	}
}

var (
	bandRange = regexp.MustCompile(`^(-?\d+)\s*(?:-|–|to)\s*(-?\d+)$`)
	bandLess  = regexp.MustCompile(`^(-?\d+)\s*(?:or less|or lower|-)$`)
	bandMore  = regexp.MustCompile(`^(-?\d+)\s*(?:or more|or higher|\+)$`)
	bandLE    = regexp.MustCompile(`^(?:≤|<=)\s*(-?\d+)$`)
	bandGE    = regexp.MustCompile(`^(?:≥|>=)\s*(-?\d+)$`)
)

// Open ends of a band.
const (
	openLow  = -1 << 20
	openHigh = 1 << 20
)

// band parses a row's "roll": "5", "6-7", "6 to 7", "3 or less", "≤3",
// "12 or more", "12+", "≥12".
func band(s string) (lo, hi int, ok bool) {
	s = strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(s, "−", "-")), " "))
	num := func(x string) int { v, _ := atoi(x); return v }
	if v, good := atoi(s); good {
		return v, v, true
	}
	if m := bandRange.FindStringSubmatch(s); m != nil {
		if _, a := atoi(m[1]); a {
			if _, b := atoi(m[2]); b {
				return num(m[1]), num(m[2]), true
			}
		}
	}
	for _, re := range []*regexp.Regexp{bandLess, bandLE} {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, good := atoi(m[1]); good {
				return openLow, v, true
			}
		}
	}
	for _, re := range []*regexp.Regexp{bandMore, bandGE} {
		if m := re.FindStringSubmatch(s); m != nil {
			if v, good := atoi(m[1]); good {
				return v, openHigh, true
			}
		}
	}
	return 0, 0, false
}

func showBand(lo, hi int) string {
	switch {
	case lo == openLow:
		return fmt.Sprintf("%d or less", hi)
	case hi == openHigh:
		return fmt.Sprintf("%d or more", lo)
	case lo == hi:
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// resultTable reads a results table: rows of modified-roll bands, each
// with one result per column. The rows must run upward without gap or
// overlap, the first open below ("2 or less") and the last open above
// ("11 or more").
func (p *parser) resultTable(n *yaml.Node, path, defName string, columns []string, fire bool) engine.ResultTable {
	rt := engine.ResultTable{Name: defName, Columns: append([]string(nil), columns...)}
	o := p.object(n, path, "name", "rows")
	if s := o.str("name", false); s != "" {
		rt.Name = s
	}
	rn := o.node("rows", true)
	if rn == nil || !p.is(rn, join(path, "rows"), yaml.SequenceNode, "a list of rows (- roll: ...)") {
		return rt
	}
	if len(rn.Content) == 0 {
		p.add(rn.Line, join(path, "rows"), "no rows")
		return rt
	}
	known := append([]string{"roll"}, columns...)
	type placed struct {
		lo, hi, line int
	}
	var rows []placed
	for i, rowNode := range rn.Content {
		rp := index(join(path, "rows"), i)
		ro := p.object(rowNode, rp, known...)
		row := engine.ResultRow{Results: map[string]engine.Result{}}
		bs := ro.str("roll", true)
		lo, hi, ok := band(bs)
		if bs != "" && !ok {
			p.add(ro.line("roll"), join(rp, "roll"), "%q is not a band of modified rolls: write 5, 6-7, 3 or less, or 12 or more", bs)
		}
		if ok && lo > hi {
			p.add(ro.line("roll"), join(rp, "roll"), "%q runs downward", bs)
			ok = false
		}
		for _, c := range columns {
			cn := ro.node(c, false)
			if cn == nil {
				if rowNode.Kind == yaml.MappingNode {
					p.add(rowNode.Line, join(rp, c), "missing column (every row gives %s)", strings.Join(columns, ", "))
				}
				continue
			}
			s, good := p.scalar(cn, join(rp, c))
			if !good {
				continue
			}
			res, err := parseResult(s, fire)
			if err != nil {
				p.add(cn.Line, join(rp, c), "%v", err)
				continue
			}
			row.Results[c] = res
		}
		if ok {
			row.Min, row.Max = lo, hi
			rows = append(rows, placed{lo, hi, ro.line("roll")})
		}
		rt.Rows = append(rt.Rows, row)
	}
	// Bands: contiguous, open at both ends.
	if len(rows) != len(rt.Rows) {
		return rt // a band did not parse; already reported
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].lo < rows[j].lo })
	for i, r := range rows {
		at := join(path, "rows")
		if i == 0 && r.lo != openLow {
			p.add(r.line, at, "the first row must be open below (e.g. %q), so that every total has a row", fmt.Sprintf("%d or less", r.hi))
		}
		if i == len(rows)-1 && r.hi != openHigh {
			p.add(r.line, at, "the last row must be open above (e.g. %q), so that every total has a row", fmt.Sprintf("%d or more", r.lo))
		}
		if i > 0 && r.lo != openLow {
			prev := rows[i-1]
			switch {
			case prev.hi == openHigh || r.lo <= prev.hi:
				p.add(r.line, at, "row %s overlaps row %s (line %d)", showBand(r.lo, r.hi), showBand(prev.lo, prev.hi), prev.line)
			case r.lo > prev.hi+1:
				p.add(r.line, at, "gap: no row for %s, between rows %s (line %d) and %s", showBand(prev.hi+1, r.lo-1), showBand(prev.lo, prev.hi), prev.line, showBand(r.lo, r.hi))
			}
		} else if i > 0 {
			p.add(r.line, at, "only the first row may be open below; row %s overlaps row %s (line %d)", showBand(r.lo, r.hi), showBand(rows[i-1].lo, rows[i-1].hi), rows[i-1].line)
		}
	}
	// Keep the rows in ascending order for Lookup.
	sort.SliceStable(rt.Rows, func(i, j int) bool { return rt.Rows[i].Min < rt.Rows[j].Min })
	return rt
}

// wsm reads the Weapon System Matrix: attacker type → {defender type:
// DRM}. Every attacker row must give a DRM against every unit type.
func (p *parser) wsm(t *engine.Tables, n *yaml.Node) map[string]int {
	lines := map[string]int{}
	types := keys(t.UnitTypes)
	for _, kv := range p.pairs(n, "weapon_system_matrix") {
		path := join("weapon_system_matrix", kv.key)
		if t.UnitTypes[kv.key] == nil {
			if len(t.UnitTypes) > 0 {
				p.add(kv.k.Line, path, "%s", unknown("attacker unit type", kv.key, types))
			}
			continue
		}
		row := map[string]int{}
		for _, d := range p.pairs(kv.v, path) {
			dp := join(path, d.key)
			if t.UnitTypes[d.key] == nil {
				p.add(d.k.Line, dp, "%s", unknown("defender unit type", d.key, types))
				continue
			}
			v, _ := p.integer(d.v, dp)
			row[d.key] = v
		}
		if kv.v.Kind == yaml.MappingNode {
			var missing []string
			for _, ty := range types {
				if _, ok := row[ty]; !ok {
					missing = append(missing, ty)
				}
			}
			if len(missing) > 0 {
				p.add(kv.v.Line, path, "missing column: no DRM against %s (every attacker row gives one per unit type)", strings.Join(missing, ", "))
			}
		}
		t.WSM[kv.key] = row
		lines[kv.key] = kv.k.Line
	}
	if len(t.WSM) == 0 && n.Kind == yaml.MappingNode && len(t.UnitTypes) > 0 {
		p.add(n.Line, "weapon_system_matrix", "no attacker rows: no unit could Shock (10.1)")
	}
	return lines
}

// shockDRMTable reads shock_drm: the fixed DRMs and thresholds of Shock and
// Charge combat (10.4, 11.4, 11.6, 12.7, 14.1). All are required but the
// Counter-Charge thresholds of one case (counter_charge_max_charge,
// _shock, _fire), which default to counter_charge_max.
func (p *parser) shockDRMTable(n *yaml.Node) engine.ShockDRMs {
	keys := []string{"flank", "rear", "two_sides", "height", "charge", "charge_moved", "leader",
		"attacker_disordered", "defender_retired", "shield_wall", "continued_attack", "counter_charge_shock",
		"reluctance_max", "counter_charge_max", "counter_charge_facing"}
	cases := []string{"charge", "shock", "fire"}
	var optional []string
	for _, c := range cases {
		optional = append(optional, "counter_charge_max_"+c)
	}
	optional = append(optional, "schiltron", "restraint_max") // ruling R89; Infidel 13.9
	o := p.object(n, "shock_drm", append(keys, optional...)...)
	var by map[string]int
	for _, c := range cases {
		if k := "counter_charge_max_" + c; o.has(k) {
			if by == nil {
				by = map[string]int{}
			}
			by[c] = o.int(k, false)
		}
	}
	v := func(k string) int { return o.int(k, true) }
	return engine.ShockDRMs{CounterChargeMaxBy: by,
		Flank: v("flank"), Rear: v("rear"), TwoSides: v("two_sides"), Height: v("height"),
		Charge: v("charge"), ChargeMoved: v("charge_moved"), Leader: v("leader"),
		AttackerDisordered: v("attacker_disordered"), DefenderRetired: v("defender_retired"),
		ShieldWall: v("shield_wall"), Schiltron: o.int("schiltron", false), ContinuedAttack: v("continued_attack"),
		CounterChargeShock: v("counter_charge_shock"), ReluctanceMax: v("reluctance_max"),
		CounterChargeMax: v("counter_charge_max"), CounterChargeFacing: v("counter_charge_facing"),
		RestraintMax: o.int("restraint_max", false),
	}
}

// cavalryRetreat reads the Light Cavalry Retreat Before Shock table
// (Infidel 12.2): {shock: {unharmed_max: 5}, counter_charge:
// {unharmed_max: 3, disordered_max: 7}}.
func (p *parser) cavalryRetreat(n *yaml.Node) engine.CavalryRetreat {
	o := p.object(n, "cavalry_retreat", "shock", "counter_charge")
	band := func(k string) engine.RetreatBand {
		bn := o.node(k, true)
		if bn == nil {
			return engine.RetreatBand{}
		}
		path := join("cavalry_retreat", k)
		bo := p.object(bn, path, "unharmed_max", "disordered_max")
		b := engine.RetreatBand{UnharmedMax: bo.int("unharmed_max", true), DisorderedMax: bo.int("disordered_max", false)}
		if bo.has("disordered_max") && b.DisorderedMax <= b.UnharmedMax {
			p.add(bo.line("disordered_max"), join(path, "disordered_max"), "must be more than unharmed_max (%d)", b.UnharmedMax)
		}
		return b
	}
	return engine.CavalryRetreat{Shock: band("shock"), CounterCharge: band("counter_charge")}
}

// retreatBefore checks a type's retreat_before: mounted types, known, and
// a cavalry_retreat table to roll on (Infidel 12.2).
func (p *parser) retreatBefore(t *engine.Tables, key string, line int, table bool) {
	ut := t.UnitTypes[key]
	if len(ut.RetreatBefore) == 0 {
		return
	}
	path := join("unit_types."+key, "retreat_before")
	if !ut.Mounted {
		p.add(line, path, "only a mounted type may Retreat Before Shock (Infidel 12.2)")
	}
	if !table {
		p.add(line, path, "needs the cavalry_retreat table to roll on (Infidel 12.2)")
	}
	for _, k := range ut.RetreatBefore {
		switch other := t.UnitTypes[k]; {
		case other == nil:
			p.add(line, path, "%s", unknown("unit type", k, keys(t.UnitTypes)))
		case !other.Mounted:
			p.add(line, path, "%s is not mounted: every mounted unit may Retreat Before Shock from foot (12.2)", k)
		}
	}
}

// typeList reads an optional list of unit type keys, o's key, each of
// which must be a type of the tables.
func (p *parser) typeList(o *object, path, key string, t *engine.Tables) []string {
	n := o.node(key, false)
	if n == nil {
		return nil
	}
	var out []string
	for _, tn := range p.list(n, join(path, key)) {
		k, ok := p.scalar(tn, join(path, key))
		switch {
		case !ok:
		case t.UnitTypes[k] == nil:
			p.add(tn.Line, join(path, key), "%s", unknown("unit type", k, keys(t.UnitTypes)))
		default:
			out = append(out, k)
		}
	}
	return out
}

// pursuit reads rules.pursuit, the numbers of Blood & Roses 14.9 Pursuit
// (Optional): every one is required, a die face 0-9 (the leader's die) or
// an adjusted DR 0-19.
func (p *parser) pursuit(n *yaml.Node) *engine.PursuitTable {
	keys := []string{"pursues_max", "mounted_eliminates", "foot_eliminates", "leader_die", "returns_min"}
	po := p.object(n, "rules.pursuit", keys...)
	v := map[string]int{}
	for _, k := range keys {
		v[k] = po.int(k, true)
		max := 19
		if k == "leader_die" {
			max = 9
		}
		if v[k] < 0 || v[k] > max {
			p.add(po.line(k), join("rules.pursuit", k), "must be 0 to %d", max)
		}
	}
	return &engine.PursuitTable{PursuesMax: v["pursues_max"], MountedEliminates: v["mounted_eliminates"], FootEliminates: v["foot_eliminates"],
		LeaderDie: v["leader_die"], ReturnsMin: v["returns_min"]}
}

// missileRatings checks a counter's printed Missile Fire DRMs (Arquebus
// 11.1): only a unit with a Missile Type prints them, and on both sides or
// neither, so that a Disordered firer never falls back on
// fire_drm.disordered_firer for one side only.
func (p *parser) missileRatings(o *object, path string, r engine.Ratings, missile bool) {
	switch {
	case !missile && (r.Fire.Printed || r.FireDisordered.Printed):
		key := "fire"
		if !r.Fire.Printed {
			key = "fire_disordered"
		}
		p.add(o.line(key), join(path, key), "a Missile Fire DRM belongs to a unit with a Missile Type (a weapon), and this one has none (Arquebus 11.1)")
	case r.Fire.Printed != r.FireDisordered.Printed:
		p.add(o.n.Line, path, "give the Missile Fire DRM of both sides, fire and fire_disordered (none for a side that may not fire), or neither (Arquebus 11.1, 14.2)")
	}
}
