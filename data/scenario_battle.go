package data

import (
	"slices"

	"gopkg.in/yaml.v3"

	"herald/engine"
)

// The battle's special rules (engine/battle.go, docs/data-format.md
// "Battle rules"): named switches and fields, never a battle's id.

// commandRules reads a Command's arrival and Shield Wall limit.
func (s *scen) commandRules(o *object, path string, c *engine.CommandSpec) {
	if o.has("arrives") {
		c.Arrives = o.int("arrives", false)
		if c.Arrives < 1 {
			s.add(o.line("arrives"), join(path, "arrives"), "the Activation from which the reinforcements may enter: 1 or more (5.3)")
		}
		if !o.has("entry") {
			s.add(o.line("arrives"), join(path, "arrives"), "a Command that arrives later needs entry hexes (5.3)")
		}
	}
	if o.has("shield_wall_orders") {
		n := o.int("shield_wall_orders", false)
		if n < 0 {
			s.add(o.line("shield_wall_orders"), join(path, "shield_wall_orders"), "how many times the leader may order Shield Wall: 0 or more (14.1)")
		}
		c.ShieldWallOrders = &n
	}
}

// unitMarkers reads the markers a unit is set up with: Shield Wall (14.1,
// "at the beginning of the game (during setup)") and No Retreat (2.2).
func (s *scen) unitMarkers(o *object, path string, u *engine.UnitSpec, ut *engine.UnitType) {
	u.NoRetreat = o.bool("no_retreat")
	s.schiltron(o, path, u, ut)
	if ut != nil && ut.NeverDisordered && u.Status != engine.Normal {
		s.add(o.line("status"), join(path, "status"), "%s is never Disordered or Retired: it starts Normal (B&R 14.2, 14.5)", ut.Name)
	}
	if o.bool("swiss") {
		// Arquebus 16.2 Swiss Shock Reluctance (ruling R385).
		u.Swiss = true
		switch t := s.sc.Tables; {
		case t != nil && !t.Rules.SwissReluctance:
			s.add(o.line("swiss"), join(path, "swiss"), "these tables have no Swiss Shock Reluctance (rules.swiss_attack_max, Arquebus 16.2)")
		case t != nil && ut != nil && t.WSM[ut.Key] == nil:
			s.add(o.line("swiss"), join(path, "swiss"), "%s never Shocks (no Weapon System Matrix row): only Swiss Pike roll for Swiss Shock Reluctance (Arquebus 16.2)", ut.Name)
		}
	}
	if o.bool("limbered") {
		u.Limbered = true
		if ut != nil && !ut.LimberedSide {
			s.add(o.line("limbered"), join(path, "limbered"), "%s has no limbered side: only Artillery limbers (B&R 2.2, 7.6)", ut.Name)
		}
	}
	if !o.bool("shield_wall") {
		return
	}
	u.ShieldWall = true
	line, p := o.line("shield_wall"), join(path, "shield_wall")
	switch {
	case u.OffMap:
		s.add(line, p, "a reinforcement forms Shield Wall on the map, upon its Command's activation (14.1)")
	case ut != nil && !ut.ShieldWall:
		s.add(line, p, "%s may not form Shield Wall: only Pike Infantry and Dismounted MAA may (14.1)", ut.Name)
	case u.Status != engine.Normal:
		s.add(line, p, "a %s unit cannot form Shield Wall (14.1: \"A Disordered unit cannot form Shield Wall\")", u.Status)
	}
}

// battle reads the battle-wide rules, the Bombards and the sides' extra
// Flight Points, once everything they name is known.
func (s *scen) battle(o *object) {
	if n := o.node("rules", false); n != nil {
		ro := s.object(n, "rules", "no_zoc", "attacker_shock", "victory_points", "timed_engagement", "battle_flight", "ambush", "pursuit")
		if ro.bool("battle_flight") {
			// Blood & Roses 14.8 (Optional): it needs the tables' threshold.
			if t := s.sc.Tables; t != nil && t.Rules.BattleFlightMax == 0 {
				s.add(ro.line("battle_flight"), "rules.battle_flight", "these tables give no rules.battle_flight_max: Battle Flight is a Blood & Roses rule (14.8)")
			}
			s.sc.Rules.BattleFlight = true
		}
		if ro.bool("pursuit") {
			// Blood & Roses 14.9 (Optional): a Battle that flees (14.8)
			// is pursued; it needs Battle Flight and the tables' numbers.
			if !s.sc.Rules.BattleFlight {
				s.add(ro.line("pursuit"), "rules.pursuit", "Pursuit follows a Battle's flight: give rules.battle_flight: true too (Blood & Roses 14.9)")
			}
			if t := s.sc.Tables; t != nil && t.Rules.Pursuit == nil {
				s.add(ro.line("pursuit"), "rules.pursuit", "these tables give no rules.pursuit: Pursuit is a Blood & Roses rule (14.9)")
			}
			s.sc.Rules.Pursuit = true
		}
		if tn := ro.node("timed_engagement", false); tn != nil {
			s.timedEngagement(tn)
		}
		if an := ro.node("ambush", false); an != nil {
			s.ambushes(an)
		}
		if vn := ro.node("victory_points", false); vn != nil {
			vo := s.object(vn, "rules.victory_points", "last_activation", "win_at")
			v := &engine.VictoryPoints{LastActivation: vo.int("last_activation", false), WinAt: vo.int("win_at", false)}
			if v.LastActivation < 0 || v.WinAt < 0 || v.LastActivation == 0 && v.WinAt == 0 {
				s.add(vn.Line, "rules.victory_points", "give last_activation or win_at, or both, 1 or more: a battle by Victory Points must end (ruling R176)")
			}
			s.sc.Rules.VictoryPoints = v
		}
		if an := ro.node("attacker_shock", false); an != nil {
			s.attackerShock(an)
		}
		if zn := ro.node("no_zoc", false); zn != nil {
			for _, tn := range s.list(zn, "rules.no_zoc") {
				key, ok := s.scalar(tn, "rules.no_zoc")
				if !ok {
					continue
				}
				if t := s.sc.Tables; t != nil && t.UnitTypes[key] == nil {
					s.add(tn.Line, "rules.no_zoc", "%s", unknown("unit type", key, keys(t.UnitTypes)))
					continue
				}
				s.sc.Rules.NoZOC = append(s.sc.Rules.NoZOC, key)
			}
		}
	}
	if n := o.node("bombards", false); n != nil {
		s.bombards(n)
	}
	for k, id := range s.ambushIDs {
		if ambushNamed(s.sc, id) == nil {
			s.add(s.ambushUnits[k].line, s.ambushUnits[k].path, "%s is set up in Ambush, but rules.ambush does not name it: give its entry hexes there (Blood & Roses 16.1)", id)
		}
	}
	for side, n := range s.extraFP {
		if n != nil && s.sidesOK {
			s.extraFlightPoints(engine.Side(side), n)
		}
	}
}

// bombards reads the Bombard markers: side, hex and range (ruling R116).
func (s *scen) bombards(n *yaml.Node) {
	if !s.is(n, "bombards", yaml.SequenceNode, "a list of Bombards (- {side: English, hex: 0408, range: 3})") {
		return
	}
	for i, item := range n.Content {
		path := index("bombards", i)
		o := s.object(item, path, "side", "hex", "range")
		var b engine.BombardSpec
		if name := o.str("side", true); name != "" {
			b.Side, _ = s.side(name, o.line("side"), join(path, "side"))
		}
		if hs := o.str("hex", true); hs != "" {
			b.Hex, _ = s.hexID(hs, o.line("hex"), join(path, "hex"))
		}
		if b.Range = o.int("range", true); o.has("range") && b.Range < 1 {
			s.add(o.line("range"), join(path, "range"), "must be 1 or more (hexes from the Bombard)")
		}
		s.sc.Bombards = append(s.sc.Bombards, b)
	}
}

// extraFPKeys are the conditions of an extra Flight Point entry.
var extraFPKeys = []string{"standard_captured", "enemy_in", "eliminated", "leader_lost"}

// extraFlightPoints reads a side's battle-specific Flight Points (16.0):
// each entry gives points and exactly one condition.
func (s *scen) extraFlightPoints(side engine.Side, n *yaml.Node) {
	base := join(join("sides", s.sc.SideName(side)), "extra_flight_points")
	if !s.is(n, base, yaml.SequenceNode, "a list of {points: N, and one condition}") {
		return
	}
	for i, item := range n.Content {
		path := index(base, i)
		o := s.object(item, path, append([]string{"points"}, extraFPKeys...)...)
		x := engine.ExtraFP{Points: o.int("points", true)}
		if o.has("points") && x.Points < 1 {
			s.add(o.line("points"), join(path, "points"), "must be 1 or more")
		}
		var given []string
		for _, k := range extraFPKeys {
			if o.has(k) {
				given = append(given, k)
			}
		}
		if len(given) != 1 {
			if item.Kind == yaml.MappingNode {
				s.add(item.Line, path, "give exactly one condition of %v, not %d", extraFPKeys, len(given))
			}
			continue
		}
		line, p := o.line(given[0]), join(path, given[0])
		switch given[0] {
		case "standard_captured":
			x.StandardCaptured = o.str("standard_captured", false)
			if st := s.standard(x.StandardCaptured); st == nil || st.Side != side {
				s.add(line, p, "%q is not a Standard of the %s", x.StandardCaptured, s.sc.SideName(side))
			}
		case "enemy_in":
			for _, h := range s.hexList(o.node("enemy_in", false), p) {
				x.EnemyIn = append(x.EnemyIn, h.h)
			}
		case "eliminated":
			for _, un := range s.list(o.node("eliminated", false), p) {
				id, ok := s.scalar(un, p)
				if !ok {
					continue
				}
				if u := s.unit(id); u == nil || u.Side != side {
					s.add(un.Line, p, "%q is not a unit of the %s", id, s.sc.SideName(side))
					continue
				}
				x.Eliminated = append(x.Eliminated, id)
			}
		case "leader_lost":
			x.LeaderLost = o.str("leader_lost", false)
			if l := s.sc.Leader(x.LeaderLost); l == nil || l.Side != side {
				s.add(line, p, "%q is not a leader of the %s", x.LeaderLost, s.sc.SideName(side))
			}
		}
		s.sc.Sides[side].ExtraFlightPoints = append(s.sc.Sides[side].ExtraFlightPoints, x)
	}
}

func (s *scen) unit(id string) *engine.UnitSpec {
	for i := range s.sc.Units {
		if s.sc.Units[i].ID == id {
			return &s.sc.Units[i]
		}
	}
	return nil
}

// schiltron reads a unit set up in Schiltron (ruling R89: formed as
// Shield Wall is, "at the beginning of the game (during setup)", 14.1).
func (s *scen) schiltron(o *object, path string, u *engine.UnitSpec, ut *engine.UnitType) {
	if !o.bool("schiltron") {
		return
	}
	u.Schiltron = true
	line, p := o.line("schiltron"), join(path, "schiltron")
	switch {
	case u.OffMap:
		s.add(line, p, "a reinforcement forms Schiltron on the map, upon its Command's activation (R89)")
	case ut != nil && !ut.Schiltron:
		s.add(line, p, "%s may not form Schiltron: only the types the tables mark schiltron may (R89)", ut.Name)
	case u.Status != engine.Normal:
		s.add(line, p, "a %s unit cannot form Schiltron (R89, as 14.1 for Shield Wall)", u.Status)
	case o.bool("shield_wall"):
		s.add(line, p, "a unit stands in Shield Wall or in Schiltron, not both (R89)")
	}
}

// attackerShock reads rules.attacker_shock: the Shock DRMs of the terrain
// an attacker stands in, by class (10.4 #2B "In some battles there are
// also modifiers for the attacker's terrain"): {marsh: {foot: -1,
// mounted: -2}}.
func (s *scen) attackerShock(n *yaml.Node) {
	for _, kv := range s.pairs(n, "rules.attacker_shock") {
		path := join("rules.attacker_shock", kv.key)
		if t := s.sc.Tables; t != nil && t.Terrain[kv.key] == nil {
			s.add(kv.k.Line, path, "%s", unknown("terrain", kv.key, keys(t.Terrain)))
			continue
		}
		o := s.object(kv.v, path, "foot", "mounted")
		if s.sc.Rules.AttackerShock == nil {
			s.sc.Rules.AttackerShock = map[string]map[engine.Class]int{}
		}
		s.sc.Rules.AttackerShock[kv.key] = map[engine.Class]int{engine.Foot: o.int("foot", true), engine.Mounted: o.int("mounted", true)}
	}
}

// timedEngagement reads a Timed Engagement (Blood & Roses 16.2): the
// timed side and the time marker's first space on the General Track.
func (s *scen) timedEngagement(n *yaml.Node) {
	o := s.object(n, "rules.timed_engagement", "timed", "start")
	te := &engine.TimedEngagement{Start: o.int("start", true)}
	if name := o.str("timed", true); name != "" && s.sidesOK {
		te.Timed, _ = s.side(name, o.line("timed"), "rules.timed_engagement.timed")
	}
	if o.has("start") && te.Start < 1 {
		s.add(o.line("start"), "rules.timed_engagement.start", "the time marker's first space on the General Track: 1 or more (Blood & Roses 16.2)")
	}
	s.sc.Rules.TimedEngagement = te
}

func ambushNamed(sc *engine.Scenario, id string) *engine.Ambush {
	for k := range sc.Rules.Ambushes {
		if sc.Rules.Ambushes[k].Unit == id {
			return &sc.Rules.Ambushes[k]
		}
	}
	return nil
}

// ambushes reads rules.ambush (Blood & Roses 16.1): one Ambush, or a list
// of them, each {unit: GC1, enter: [0912, 1012], joins: gloucester}. The
// unit is a Cavalry unit of the units list set up with ambush: true (not
// deployed at the start); joins, the Battle it is a unit of after its
// Ambush, is the Command it is set up with, and may be left out.
func (s *scen) ambushes(n *yaml.Node) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for k, item := range items {
		path := "rules.ambush"
		if n.Kind == yaml.SequenceNode {
			path = index(path, k)
		}
		o := s.object(item, path, "unit", "enter", "joins")
		a := engine.Ambush{Unit: o.str("unit", true)}
		u := s.unit(a.Unit)
		switch {
		case a.Unit == "":
		case u == nil:
			s.add(o.line("unit"), join(path, "unit"), "%q is not a unit of the units list", a.Unit)
		case ambushNamed(s.sc, a.Unit) != nil:
			s.add(o.line("unit"), join(path, "unit"), "%s has one Ambush: it is named twice", a.Unit)
		case !slices.Contains(s.ambushIDs, a.Unit):
			s.add(o.line("unit"), join(path, "unit"), "%s is not deployed at the start: give it ambush: true instead of a hex in the units list (Blood & Roses 16.1)", a.Unit)
		}
		if u != nil {
			if t := s.sc.Tables; t != nil && t.UnitTypes[u.Type] != nil && !t.UnitTypes[u.Type].Mounted {
				s.add(o.line("unit"), join(path, "unit"), "%s is %s: an ambushing unit is Cavalry, a mounted unit (Blood & Roses 16.1)", a.Unit, t.UnitTypes[u.Type].Name)
			}
			a.Joins = u.Command
		}
		if j := o.str("joins", false); j != "" && u != nil && u.Command != "" && j != u.Command {
			s.add(o.line("joins"), join(path, "joins"), "%s joins the Battle it is set up with, %s; set its command in the units list to %s instead (Blood & Roses 16.1)", a.Unit, u.Command, j)
		}
		if !o.has("enter") {
			s.add(item.Line, join(path, "enter"), "missing: the hexes the ambushing unit enters through (Blood & Roses 16.1)")
		}
		if en := o.node("enter", false); en != nil {
			for _, h := range s.hexList(en, join(path, "enter")) {
				a.Enter = append(a.Enter, h.h)
			}
		}
		if o.has("enter") && len(a.Enter) == 0 {
			s.add(o.line("enter"), join(path, "enter"), "give at least one hex the ambushing unit enters through (Blood & Roses 16.1)")
		}
		if a.Unit != "" && u != nil && ambushNamed(s.sc, a.Unit) == nil {
			s.sc.Rules.Ambushes = append(s.sc.Rules.Ambushes, a)
		}
	}
}
