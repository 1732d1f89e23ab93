package data

import (
	_ "embed"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// The D20 "strike" system's tables live in data/strike/ and load into
// package strike's types. They are embedded here, in package data, beside
// the Men of Iron tables, so that one loader style (file:line: field:
// problem, every problem at once) serves both systems; package strike
// itself stays free of YAML and files (principle 8 keeps the rules in
// their own package; data stays the one place for data).

//go:embed strike/tables.yaml
var strikeFile []byte

const strikePath = prefix + "strike/tables.yaml"

var strikeLoad = sync.OnceValues(func() (*strike.Tables, error) {
	return ParseStrikeTables(strikePath, strikeFile)
})

// StrikeTables returns the embedded strike tables (parsed once).
func StrikeTables() (*strike.Tables, error) { return strikeLoad() }

// ParseStrikeTables reads strike tables from YAML. file names the source in
// messages. Every problem is reported as an *Error; the result is nil if
// there is any.
func ParseStrikeTables(file string, b []byte) (*strike.Tables, error) {
	p := &parser{collector: &collector{file: file}}
	t := p.strikeTables(b)
	if err := p.err(); err != nil {
		return nil, err
	}
	return t, nil
}

func (p *parser) strikeTables(b []byte) *strike.Tables {
	root := p.root(b)
	if root == nil {
		return nil
	}
	o := p.object(root, "", "combat", "melee", "arcs", "weapons", "troops", "srt", "personalities", "pcs", "morale", "reactions", "movement", "stands")
	t := &strike.Tables{}
	if n := o.node("combat", true); n != nil {
		t.Combat = p.strikeCombat(n, "combat")
	}
	if n := o.node("melee", true); n != nil {
		m := p.object(n, "melee", "ranks", "spear_ranks", "retreat_per_strike")
		t.Melee = strike.MeleeTable{
			Ranks:            p.atLeast(m, "ranks", 1),
			SpearRanks:       p.atLeast(m, "spear_ranks", 1),
			RetreatPerStrike: p.inches(m, "retreat_per_strike", true),
		}
	}
	if n := o.node("arcs", true); n != nil {
		t.Arcs = p.strikeArcs(n)
	}
	if n := o.node("weapons", true); n != nil {
		t.Weapons = p.strikeWeapons(n)
	}
	if n := o.node("srt", true); n != nil {
		t.SRT = p.strikeSRT(n)
	}
	if n := o.node("troops", true); n != nil {
		t.Troops = p.strikeTroops(n, t)
	}
	if n := o.node("personalities", true); n != nil {
		t.Personalities = p.strikeBands(n)
	}
	if n := o.node("pcs", true); n != nil {
		m := p.object(n, "pcs", "wounded", "lost_melee", "per_strike_difference", "under_fire")
		t.PCS = strike.PCSTable{Wounded: m.int("wounded", true), LostMelee: m.int("lost_melee", true),
			PerStrikeDifference: m.int("per_strike_difference", true), UnderFire: m.int("under_fire", true)}
		if t.PCS.UnderFire < 2 || t.PCS.UnderFire > 21 {
			p.add(m.line("under_fire"), "pcs.under_fire", "%d: a D20 must roll under it, so 2 to 21", t.PCS.UnderFire)
		}
	}
	if n := o.node("morale", true); n != nil {
		t.Morale = p.strikeMorale(n)
	}
	if n := o.node("reactions", true); n != nil {
		t.Reactions = p.strikeReactions(n, t.Troops)
	}
	if n := o.node("movement", true); n != nil {
		m := p.object(n, "movement", "back_cost", "turn_cost", "charge_clearance")
		t.Movement = strike.MovementTable{BackCost: p.inches(m, "back_cost", true), TurnCost: p.inches(m, "turn_cost", true),
			ChargeClearance: p.inches(m, "charge_clearance", true)}
		if m.has("back_cost") && t.Movement.BackCost < 1 {
			p.add(m.line("back_cost"), "movement.back_cost", "%g: an inch backward costs at least an inch of MOVE", t.Movement.BackCost)
		}
		if m.has("turn_cost") && t.Movement.TurnCost > 1 {
			p.add(m.line("turn_cost"), "movement.turn_cost", "%g: a turn costs a share of a MOVE, 0 to 1", t.Movement.TurnCost)
		}
	}
	if n := o.node("stands", true); n != nil {
		m := p.object(n, "stands", "frontage", "foot_depth", "mounted_depth")
		t.Stands = strike.StandSizes{Frontage: p.inches(m, "frontage", true), FootDepth: p.inches(m, "foot_depth", true),
			MountedDepth: p.inches(m, "mounted_depth", true)}
		sizes := []float64{t.Stands.Frontage, t.Stands.FootDepth, t.Stands.MountedDepth}
		for i, k := range []string{"frontage", "foot_depth", "mounted_depth"} {
			if m.has(k) && sizes[i] == 0 {
				p.add(m.line(k), "stands."+k, "0: a stand needs a size over 0 inches")
			}
		}
	}
	return t
}

func (p *parser) strikeCombat(n *yaml.Node, path string) strike.CombatTable {
	o := p.object(n, path, "base_cv", "massed_target", "distant_range", "skirmisher", "fkn_charging", "foot_charging",
		"mounted_charging", "fkn_vs_foot", "superior", "trained", "foe_higher_or_obstacle", "weapon_of_choice")
	charge := func(key string) strike.ChargeMod {
		n := o.node(key, true)
		if n == nil {
			return strike.ChargeMod{}
		}
		c := p.object(n, join(path, key), "cv", "over")
		return strike.ChargeMod{CV: c.int("cv", true), Over: p.inches(c, "over", true)}
	}
	c := strike.CombatTable{
		BaseCV:              p.atLeast(o, "base_cv", 1),
		MassedTarget:        o.int("massed_target", true),
		DistantRange:        o.int("distant_range", true),
		Skirmisher:          o.int("skirmisher", true),
		FknCharging:         charge("fkn_charging"),
		FootCharging:        charge("foot_charging"),
		MountedCharging:     charge("mounted_charging"),
		FknVsFoot:           o.int("fkn_vs_foot", true),
		Superior:            o.int("superior", true),
		Trained:             o.int("trained", true),
		FoeHigherOrObstacle: o.int("foe_higher_or_obstacle", true),
		WeaponOfChoice:      o.int("weapon_of_choice", true),
	}
	return c
}

// atLeast reads a required whole number no less than lo.
func (p *parser) atLeast(o *object, key string, lo int) int {
	v := o.int(key, true)
	if o.has(key) && v < lo {
		p.add(o.line(key), join(o.path, key), "%d: must be %d or more", v, lo)
	}
	return v
}

// inches reads a distance: a number of inches, 0 or more, decimals allowed.
func (p *parser) inches(o *object, key string, required bool) float64 {
	n := o.node(key, required)
	if n == nil {
		return 0
	}
	s, ok := p.scalar(n, join(o.path, key))
	if !ok {
		return 0
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), `"`)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 10000 || v != v {
		p.add(n.Line, join(o.path, key), "%q is not a distance: write inches, 0 to 10000, such as 4 or 1.5", s)
		return 0
	}
	return v
}

func (p *parser) strikeArcs(n *yaml.Node) map[string]float64 {
	arcs := map[string]float64{}
	for _, kv := range p.pairs(n, "arcs") {
		path := join("arcs", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := &object{p: p, path: "arcs", n: n, m: map[string]pair{kv.key: kv}}
		v := p.inches(o, kv.key, true)
		if !(v > 0 && v < 90) && v != table.AllRound {
			p.add(kv.v.Line, path, "%g: an arc is the angle to either side of straight ahead, over 0 and under 90 degrees, or 180 for all round", v)
			continue
		}
		arcs[kv.key] = v
	}
	if len(arcs) == 0 {
		p.add(n.Line, "arcs", "no arc of fire given")
	}
	return arcs
}

func (p *parser) strikeWeapons(n *yaml.Node) map[string]*strike.Weapon {
	ws := map[string]*strike.Weapon{}
	for _, kv := range p.pairs(n, "weapons") {
		path := join("weapons", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "effective", "distant", "rof", "ne_is_figure", "trained_double", "no_defensive_fire", "destroyed_if_contacted")
		w := &strike.Weapon{ID: kv.key, Name: o.str("name", true),
			Effective: p.inches(o, "effective", true), Distant: p.inches(o, "distant", true), ROF: o.int("rof", true),
			NEIsFigure: o.bool("ne_is_figure"), TrainedDouble: o.bool("trained_double"),
			NoDefensiveFire: o.bool("no_defensive_fire"), DestroyedContact: o.bool("destroyed_if_contacted")}
		if o.has("effective") && w.Effective <= 0 {
			p.add(o.line("effective"), join(path, "effective"), "must be over 0 inches")
		}
		if w.Distant != 0 && w.Distant <= w.Effective {
			p.add(o.line("distant"), join(path, "distant"), "%g: distant range must be beyond the effective range (%g), or 0 for none", w.Distant, w.Effective)
		}
		if w.ROF < 0 || w.ROF > 4 {
			p.add(o.line("rof"), join(path, "rof"), "%d: the rate of fire runs from 4 (highest) to 0 (lowest)", w.ROF)
		}
		ws[kv.key] = w
	}
	return ws
}

var doubleKinds = []string{strike.DoubleAlways, strike.DoubleTrained, strike.DoubleNever}

func (p *parser) strikeTroops(n *yaml.Node, t *strike.Tables) map[string]*strike.TroopType {
	troops := map[string]*strike.TroopType{}
	for _, kv := range p.pairs(n, "troops") {
		path := join("troops", kv.key)
		if !p.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := p.object(kv.v, path, "name", "mounted", "formed", "skirmisher", "double_strikes", "weapon", "arc", "move", "figures", "srt", "qualities")
		tt := &strike.TroopType{ID: kv.key, Name: o.str("name", true), Mounted: o.bool("mounted"), Formed: o.bool("formed"),
			Skirmisher: o.bool("skirmisher"), DoubleStrikes: o.str("double_strikes", true), Weapon: o.str("weapon", false),
			Arc: o.str("arc", false), Move: p.inches(o, "move", true), Figures: p.atLeast(o, "figures", 1), SRTClass: o.str("srt", true)}
		if tt.DoubleStrikes != "" && !contains(doubleKinds, tt.DoubleStrikes) {
			p.add(o.line("double_strikes"), join(path, "double_strikes"), "%s", unknown("kind", tt.DoubleStrikes, doubleKinds))
		}
		if tt.Formed && tt.Skirmisher {
			p.add(o.line("skirmisher"), join(path, "skirmisher"), "skirmishers are not formed troops: drop formed or skirmisher")
		}
		if tt.Weapon != "" && t.Weapons != nil && t.Weapons[tt.Weapon] == nil {
			p.add(o.line("weapon"), join(path, "weapon"), "%s", unknown("weapon", tt.Weapon, keys(t.Weapons)))
		}
		switch {
		case tt.Weapon != "" && tt.Arc == "":
			p.add(o.line("weapon"), join(path, "arc"), "missing: a shooter needs an arc of fire")
		case tt.Arc != "" && t.Arcs != nil:
			if _, ok := t.Arcs[tt.Arc]; !ok {
				p.add(o.line("arc"), join(path, "arc"), "%s", unknown("arc", tt.Arc, keys(t.Arcs)))
			}
		}
		if o.has("move") && tt.Move <= 0 {
			p.add(o.line("move"), join(path, "move"), "must be over 0 inches")
		}
		if tt.SRTClass != "" && t.SRT != nil && t.SRT[tt.SRTClass] == nil {
			p.add(o.line("srt"), join(path, "srt"), "%s", unknown("Strike Results Table", tt.SRTClass, keys(t.SRT)))
		}
		if q := o.node("qualities", false); q != nil {
			for i, item := range p.list(q, join(path, "qualities")) {
				s, _ := p.scalar(item, index(join(path, "qualities"), i))
				if s != strike.Superior && s != strike.Trained {
					p.add(item.Line, index(join(path, "qualities"), i), "%s", unknown("quality", s, []string{strike.Superior, strike.Trained}))
					continue
				}
				tt.Qualities = append(tt.Qualities, s)
			}
		}
		troops[kv.key] = tt
	}
	for _, id := range strike.NamedTypes {
		if _, ok := troops[id]; !ok {
			p.add(n.Line, join("troops", id), "missing: the rules name this type (%v must all be defined)", strike.NamedTypes)
		}
	}
	return troops
}

var srtCell = regexp.MustCompile(`^([0-9]{0,2})(D?)(M?)$`)

func (p *parser) strikeSRT(n *yaml.Node) map[string]*strike.SRT {
	out := map[string]*strike.SRT{}
	for _, kv := range p.pairs(n, "srt") {
		path := join("srt", kv.key)
		if !p.id(kv.key, kv.k.Line, path) || !p.is(kv.v, path, yaml.SequenceNode, "a list of rows, one per number of stands") {
			continue
		}
		s := &strike.SRT{Class: kv.key}
		for i, row := range kv.v.Content {
			rp := index(path, i)
			if !p.is(row, rp, yaml.SequenceNode, "a list of results, one per number of strikes") {
				continue
			}
			if len(row.Content) == 0 || (len(s.Rows) > 0 && len(row.Content) != len(s.Rows[0])) {
				p.add(row.Line, rp, "%d results: every row needs the same number of results, at least one", len(row.Content))
				continue
			}
			var cells []strike.Result
			for j, c := range row.Content {
				v, ok := p.scalar(c, index(rp, j))
				if !ok {
					continue
				}
				r, ok := parseSRTCell(v)
				if !ok {
					p.add(c.Line, index(rp, j), "%q is not a result: write NE, or figure casualties with D and M, such as 1, D, 2DM", v)
					continue
				}
				cells = append(cells, r)
			}
			s.Rows = append(s.Rows, cells)
		}
		if len(s.Rows) == 0 {
			p.add(kv.v.Line, path, "no rows")
			continue
		}
		out[kv.key] = s
	}
	return out
}

func parseSRTCell(v string) (strike.Result, bool) {
	v = strings.ToUpper(strings.TrimSpace(v))
	if v == "NE" {
		return strike.Result{}, true
	}
	m := srtCell.FindStringSubmatch(v)
	if m == nil || v == "" || v == "0" {
		return strike.Result{}, false
	}
	f := 0
	if m[1] != "" {
		f, _ = strconv.Atoi(m[1])
	}
	r := strike.Result{Figures: f, Disordered: m[2] != "", Morale: m[3] != ""}
	return r, !r.NE()
}

var srBand = regexp.MustCompile(`^([0-9]{1,2})(?:(\+)|-([0-9]{1,2}))?$`)

func (p *parser) strikeBands(n *yaml.Node) []strike.SRBand {
	if !p.is(n, "personalities", yaml.SequenceNode, "a list of skill rating rows") {
		return nil
	}
	var out []strike.SRBand
	for i, item := range n.Content {
		path := index("personalities", i)
		o := p.object(item, path, "sr", "bonus", "pcs")
		b := strike.SRBand{Bonus: o.int("bonus", true), PCS: o.int("pcs", true)}
		sr := o.str("sr", true)
		m := srBand.FindStringSubmatch(sr)
		if m == nil {
			if sr != "" {
				p.add(o.line("sr"), join(path, "sr"), "%q is not a skill rating range: write 6, 6-7 or 8+", sr)
			}
			continue
		}
		b.Min, _ = strconv.Atoi(m[1])
		switch {
		case m[2] == "+":
			b.Max = 0
		case m[3] != "":
			b.Max, _ = strconv.Atoi(m[3])
		default:
			b.Max = b.Min
		}
		if b.Max != 0 && b.Max < b.Min {
			p.add(o.line("sr"), join(path, "sr"), "%q runs backwards", sr)
			continue
		}
		if b.PCS < 2 || b.PCS > 21 {
			p.add(o.line("pcs"), join(path, "pcs"), "%d: a D20 must roll under it, so 2 to 21", b.PCS)
		}
		for _, prev := range out {
			if b.Min <= prev.Max || prev.Max == 0 {
				if prev.Max == 0 || b.Min <= prev.Max {
					p.add(o.line("sr"), join(path, "sr"), "%q overlaps or comes before an earlier row: list the rows from the lowest SR up", sr)
					break
				}
			}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		p.add(n.Line, "personalities", "no rows")
	}
	return out
}

func (p *parser) strikeMorale(n *yaml.Node) strike.MoraleTable {
	o := p.object(n, "morale", "base", "per_stand_lost", "disordered", "lost_melee", "per_strike_difference", "personality", "fail_break", "fall_back_moves")
	m := strike.MoraleTable{Base: map[string]int{}, PerStandLost: o.int("per_stand_lost", true), Disordered: o.int("disordered", true),
		LostMelee: o.int("lost_melee", true), PerStrikeDiff: o.int("per_strike_difference", true), Personality: o.int("personality", true),
		FailBreak: p.atLeast(o, "fail_break", 1), FallBackMoves: p.inches(o, "fall_back_moves", true)}
	if b := o.node("base", true); b != nil {
		q := p.object(b, "morale.base", strike.Superior, strike.Trained, "ordinary")
		for _, k := range []string{strike.Superior, strike.Trained, "ordinary"} {
			m.Base[k] = q.int(k, true)
		}
	}
	return m
}

func (p *parser) strikeReactions(n *yaml.Node, troops map[string]*strike.TroopType) map[string]*strike.Reactions {
	names := make([]string, len(strike.AllReactions))
	for i, r := range strike.AllReactions {
		names[i] = string(r)
	}
	out := map[string]*strike.Reactions{}
	for _, kv := range p.pairs(n, "reactions") {
		path := join("reactions", kv.key)
		if troops != nil && troops[kv.key] == nil {
			p.add(kv.k.Line, path, "%s", unknown("troop type", kv.key, keys(troops)))
			continue
		}
		o := p.object(kv.v, path, "target", "supporting")
		read := func(key string) strike.Reaction {
			s := o.str(key, true)
			if s != "" && !contains(names, s) {
				p.add(o.line(key), join(path, key), "%s", unknown("reaction", s, names))
			}
			return strike.Reaction(s)
		}
		out[kv.key] = &strike.Reactions{Target: read("target"), Supporting: read("supporting")}
	}
	for _, id := range keys(troops) {
		if out[id] == nil {
			p.add(n.Line, join("reactions", id), "missing: every troop type needs a Charge Reaction Table row")
		}
	}
	return out
}
