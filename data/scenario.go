package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"herald/engine"
	"herald/engine/hex"
)

// source says where a scenario finds its tables.
type source struct {
	// tables returns the tables of a volume.
	tables func(volume string) (*engine.Tables, error)
	// override loads a tables file named by the scenario's "tables:"
	// field, relative to the scenario file.
	override func(rel string) (*engine.Tables, error)
}

// ParseScenario reads a battle from YAML (docs/data-format.md). file names
// the source in messages and anchors a relative "tables:" path. The
// battle's tables are the embedded tables of its volume unless it names a
// tables file. Every problem is reported as an *Error.
func ParseScenario(file string, b []byte) (*engine.Scenario, error) {
	return parseScenario(file, b, source{
		tables: func(v string) (*engine.Tables, error) { return load().volume(v) },
		override: func(rel string) (*engine.Tables, error) {
			path := rel
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(file), rel)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			return ParseTables(path, b)
		},
	})
}

func parseScenario(file string, b []byte, src source) (*engine.Scenario, error) {
	p := &parser{collector: &collector{file: file}}
	s := &scen{parser: p, src: src}
	s.scenario(b)
	if err := p.err(); err != nil {
		return nil, errors.Join(append(s.foreign, err)...)
	}
	if len(s.foreign) > 0 {
		return nil, errors.Join(s.foreign...)
	}
	return s.sc, nil
}

// scen is the state of one scenario being read.
type scen struct {
	*parser
	src     source
	sc      *engine.Scenario
	foreign []error // problems of a tables file the scenario names

	sidesOK bool
	gridOK  bool
	lines   struct {
		command, leader, standard map[string]int
	}
	hexLine    map[hex.Hex]int // where a hex's terrain was given
	unitLines  []unitLine      // where each unit was given, by index
	unitCmdErr bool            // some unit's Command is missing or unknown
	// ambushUnits, ambushIDs: the units set up in Ambush (B&R 16.1).
	ambushUnits []unitLine
	ambushIDs   []string
	// extraFP are the sides' extra_flight_points, read once the units,
	// leaders and Standards they name are known (scenario_battle.go).
	extraFP [2]*yaml.Node
}

// hx writes a hex as its XXYY id.
func hx(h hex.Hex) string { return fmt.Sprintf("%02d%02d", h.Col, h.Row) }

func (s *scen) scenario(b []byte) {
	root := s.root(b)
	if root == nil {
		return
	}
	o := s.object(root, "", "id", "name", "volume", "tables", "map", "sides", "first",
		"commands", "leaders", "standards", "units", "rules", "bombards")
	if root.Kind != yaml.MappingNode {
		return
	}
	sc := &engine.Scenario{}
	s.sc = sc
	if sc.ID = o.str("id", true); sc.ID != "" {
		s.id(sc.ID, o.line("id"), "id")
	}
	sc.Name = o.str("name", true)
	if sc.Volume = o.str("volume", true); sc.Volume != "" {
		s.loadTables(o)
	}
	if n := o.node("sides", true); n != nil {
		s.sides(n)
	}
	if fn := o.node("first", true); fn != nil {
		if name, ok := s.scalar(fn, "first"); ok {
			if side, ok := s.side(name, fn.Line, "first"); ok {
				sc.First = side
			}
		}
	}
	if n := o.node("map", true); n != nil {
		s.mapSection(n)
	}
	s.lines.command = map[string]int{}
	s.lines.leader = map[string]int{}
	s.lines.standard = map[string]int{}
	if n := o.node("standards", true); n != nil {
		s.standards(n)
	}
	if n := o.node("commands", true); n != nil {
		s.commands(n)
	}
	if n := o.node("leaders", true); n != nil {
		s.leaders(n)
	}
	if n := o.node("units", true); n != nil {
		s.units(n)
	}
	s.battle(o)
	s.crossCheck(o)
}

func (s *scen) loadTables(o *object) {
	sc := s.sc
	if tn := o.node("tables", false); tn != nil {
		rel, ok := s.scalar(tn, "tables")
		if !ok {
			return
		}
		if !strings.HasSuffix(rel, ".yaml") {
			s.add(tn.Line, "tables", "%q: give the path of a tables file ending in .yaml, relative to this file", rel)
			return
		}
		t, err := s.src.override(rel)
		if err != nil {
			var de *Error
			if errors.As(err, &de) {
				s.foreign = append(s.foreign, err)
				s.add(tn.Line, "tables", "%s has errors (listed above)", rel)
			} else {
				if u := errors.Unwrap(err); u != nil {
					err = u
				}
				s.add(tn.Line, "tables", "cannot read %s: %v", rel, err)
			}
			return
		}
		if t.Volume != sc.Volume {
			s.add(tn.Line, "tables", "%s holds the tables of volume %q, but this battle is of volume %q", rel, t.Volume, sc.Volume)
			return
		}
		sc.Tables = t
		return
	}
	t, err := s.src.tables(sc.Volume)
	if err != nil {
		var de *Error
		if errors.As(err, &de) {
			s.foreign = append(s.foreign, err)
			s.add(o.line("volume"), "volume", "the tables of volume %q have errors (listed above)", sc.Volume)
		} else {
			s.add(o.line("volume"), "volume", "%v; give a tables file with tables: FILE.yaml", err)
		}
		return
	}
	sc.Tables = t
}

// sides reads the two armies, keyed by name, in order.
func (s *scen) sides(n *yaml.Node) {
	kvs := s.pairs(n, "sides")
	if n.Kind == yaml.MappingNode && len(kvs) != 2 {
		s.add(n.Line, "sides", "a battle has exactly two sides, not %d", len(kvs))
		return
	}
	if len(kvs) != 2 {
		return
	}
	for i, kv := range kvs {
		path := join("sides", kv.key)
		o := s.object(kv.v, path, "flight_level", "flight_points", "extra_flight_points", "seizure_counters")
		s.extraFP[i] = o.node("extra_flight_points", false)
		s.sc.Sides[i] = engine.SideSpec{
			Name:         kv.key,
			FlightLevel:  o.int("flight_level", true),
			FlightPoints: o.int("flight_points", false),

			SeizureCounters: o.int("seizure_counters", false),
		}
		s.seizureCounters(o, path, s.sc.Sides[i].SeizureCounters)
		if s.sc.Sides[i].FlightLevel < 1 && o.has("flight_level") {
			s.add(o.line("flight_level"), join(path, "flight_level"), "must be 1 or more (16.0)")
		}
		if s.sc.Sides[i].FlightPoints < 0 {
			s.add(o.line("flight_points"), join(path, "flight_points"), "must be 0 or more")
		}
	}
	// SideByName ignores case and accents: "Français" and "francais" clash.
	if side, _ := s.sc.SideByName(kvs[1].key); side == 0 {
		s.add(kvs[1].k.Line, "sides", "the two sides need different names")
		return
	}
	s.sidesOK = true
}

// side finds a side by name; a name that is not a side is reported.
func (s *scen) side(name string, line int, path string) (engine.Side, bool) {
	if !s.sidesOK {
		return 0, false
	}
	if side, ok := s.sc.SideByName(name); ok {
		return side, true
	}
	s.add(line, path, "%s", unknown("side", name, []string{s.sc.Sides[0].Name, s.sc.Sides[1].Name}))
	return 0, false
}

// bounds reads [min, max] or "min-max".
func (s *scen) bounds(o *object, key string) (lo, hi int, ok bool) {
	n := o.node(key, true)
	if n == nil {
		return 0, 0, false
	}
	path := join("map", key)
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) != 2 {
			s.add(n.Line, path, "write [first, last], e.g. [1, 24]")
			return 0, 0, false
		}
		a, ok1 := s.integer(n.Content[0], path)
		b, ok2 := s.integer(n.Content[1], path)
		lo, hi, ok = a, b, ok1 && ok2
	case yaml.ScalarNode:
		var a, b int
		a, b, ok = band(n.Value)
		if !ok || a == openLow || b == openHigh {
			s.add(n.Line, path, "write [first, last], e.g. [1, 24]")
			return 0, 0, false
		}
		lo, hi = a, b
	default:
		s.add(n.Line, path, "write [first, last], e.g. [1, 24]")
		return 0, 0, false
	}
	if !ok {
		return 0, 0, false
	}
	if lo < 0 || hi > 99 || lo > hi {
		s.add(n.Line, path, "[%d, %d]: must run upward within 0-99, as XXYY ids have two digits each", lo, hi)
		return 0, 0, false
	}
	return lo, hi, true
}

func (s *scen) mapSection(n *yaml.Node) {
	sc := s.sc
	o := s.object(n, "map", "columns", "rows", "shifted", "default_terrain", "terrain", "elevation", "hexsides")
	c0, c1, okc := s.bounds(o, "columns")
	r0, r1, okr := s.bounds(o, "rows")
	sc.Map.Grid = hex.Grid{MinCol: c0, MaxCol: c1, MinRow: r0, MaxRow: r1}
	shifted := o.str("shifted", true)
	switch strings.ToLower(shifted) {
	case "odd":
		sc.Map.Grid.OddShifted = true
	case "even":
	case "":
	default:
		s.add(o.line("shifted"), "map.shifted", "%q: write odd or even (which columns are shifted half a hex)", shifted)
	}
	s.gridOK = okc && okr
	sc.Map.Terrain = map[hex.Hex]string{}
	sc.Map.Elevation = map[hex.Hex]int{}
	s.hexLine = map[hex.Hex]int{}

	if d := o.str("default_terrain", true); d != "" {
		sc.Map.DefaultTerrain = d
		s.terrainKey(d, o.line("default_terrain"), "map.default_terrain")
	}
	if tn := o.node("terrain", false); tn != nil {
		for _, kv := range s.pairs(tn, "map.terrain") {
			path := join("map.terrain", kv.key)
			s.terrainKey(kv.key, kv.k.Line, path)
			for _, h := range s.hexList(kv.v, path) {
				if line, dup := s.hexLine[h.h]; dup {
					s.add(h.line, path, "hex %s already has terrain %s (line %d)", hx(h.h), sc.Map.Terrain[h.h], line)
					continue
				}
				s.hexLine[h.h] = h.line
				sc.Map.Terrain[h.h] = kv.key
			}
		}
	}
	if en := o.node("elevation", false); en != nil {
		seen := map[hex.Hex]int{}
		for _, kv := range s.pairs(en, "map.elevation") {
			path := join("map.elevation", kv.key)
			level, ok := atoi(kv.key)
			if !ok || level < -9 || level > 99 {
				s.add(kv.k.Line, path, "%q is not a level: write a whole number, e.g. 1: [0305, 0306]", kv.key)
				continue
			}
			for _, h := range s.hexList(kv.v, path) {
				if line, dup := seen[h.h]; dup {
					s.add(h.line, path, "hex %s already has level %d (line %d)", hx(h.h), sc.Map.Elevation[h.h], line)
					continue
				}
				seen[h.h] = h.line
				sc.Map.Elevation[h.h] = level
			}
		}
	}
	if hn := o.node("hexsides", false); hn != nil {
		s.hexsides(hn)
	}
}

func (s *scen) terrainKey(key string, line int, path string) {
	if t := s.sc.Tables; t != nil && t.Terrain[key] == nil {
		s.add(line, path, "%s", unknown("terrain", key, keys(t.Terrain)))
	}
}

type hexAt struct {
	h    hex.Hex
	line int
}

// hexID parses an XXYY id and checks it is on the map.
func (s *scen) hexID(str string, line int, path string) (hex.Hex, bool) {
	h, err := hex.Parse(str)
	if err != nil || len(str) != 4 {
		s.add(line, path, "%q is not a hex id: write four digits XXYY, column then row, e.g. 0305", str)
		return hex.Hex{}, false
	}
	if s.gridOK && !s.sc.Map.Grid.Contains(h) {
		g := s.sc.Map.Grid
		s.add(line, path, "hex %s is off the map (columns %02d-%02d, rows %02d-%02d)", str, g.MinCol, g.MaxCol, g.MinRow, g.MaxRow)
		return h, false
	}
	return h, true
}

// hexList reads one hex, a list of hexes, and "XXYY-XXYY" rectangles (every
// hex whose column and row lie between those of the two corners).
func (s *scen) hexList(n *yaml.Node, path string) []hexAt {
	var out []hexAt
	for _, item := range s.list(n, path) {
		str, ok := s.scalar(item, path)
		if !ok {
			continue
		}
		if a, b, isRange := strings.Cut(str, "-"); isRange {
			ha, oka := s.hexID(strings.TrimSpace(a), item.Line, path)
			hb, okb := s.hexID(strings.TrimSpace(b), item.Line, path)
			if !oka || !okb {
				continue
			}
			if ha.Col > hb.Col || ha.Row > hb.Row {
				s.add(item.Line, path, "%q: write a block of hexes from its top-left to its bottom-right hex", str)
				continue
			}
			for c := ha.Col; c <= hb.Col; c++ {
				for r := ha.Row; r <= hb.Row; r++ {
					out = append(out, hexAt{hex.Hex{Col: c, Row: r}, item.Line})
				}
			}
			continue
		}
		if h, ok := s.hexID(str, item.Line, path); ok {
			out = append(out, hexAt{h, item.Line})
		}
	}
	return out
}

func (s *scen) adjacent(a, b hex.Hex) bool {
	for _, n := range s.sc.Map.Grid.Neighbors(a) {
		if n == b {
			return true
		}
	}
	return false
}

// hexsides reads "0305/0306: river" entries, as a mapping or a list of
// one-line mappings; a value may list several features.
func (s *scen) hexsides(n *yaml.Node) {
	var entries []pair
	switch n.Kind {
	case yaml.SequenceNode:
		for _, item := range n.Content {
			entries = append(entries, s.pairs(item, "map.hexsides")...)
		}
	default:
		entries = s.pairs(n, "map.hexsides")
	}
	type side struct {
		a, b    hex.Hex
		feature string
	}
	seen := map[side]int{}
	for _, kv := range entries {
		path := join("map.hexsides", kv.key)
		as, bs, ok := strings.Cut(kv.key, "/")
		if !ok {
			s.add(kv.k.Line, path, "%q: write the two hexes either side, e.g. 0305/0306", kv.key)
			continue
		}
		a, oka := s.hexID(strings.TrimSpace(as), kv.k.Line, path)
		b, okb := s.hexID(strings.TrimSpace(bs), kv.k.Line, path)
		if !oka || !okb {
			continue
		}
		if s.gridOK && !s.adjacent(a, b) {
			s.add(kv.k.Line, path, "hexes %s and %s are not adjacent, so have no hexside between them", hx(a), hx(b))
			continue
		}
		for _, fn := range s.list(kv.v, path) {
			f, ok := s.scalar(fn, path)
			if !ok {
				continue
			}
			var ft *engine.HexsideType
			if t := s.sc.Tables; t != nil {
				if ft = t.Hexsides[f]; ft == nil {
					s.add(fn.Line, path, "%s", unknown("hexside feature", f, keys(t.Hexsides)))
					continue
				}
			}
			k1, k2 := side{a, b, f}, side{b, a, f}
			if line, dup := seen[k1]; dup {
				s.add(fn.Line, path, "%s given twice for this hexside (line %d)", f, line)
				continue
			}
			if line, dup := seen[k2]; dup {
				s.add(fn.Line, path, "%s given twice for this hexside (line %d)", f, line)
				continue
			}
			seen[k1] = fn.Line
			if ft != nil && ft.Slope {
				la, lb := s.sc.Map.Elevation[a], s.sc.Map.Elevation[b]
				if lb <= la {
					s.add(fn.Line, path, "a %s rises from the first hex to the second, but %s is at level %d and %s at level %d: write the lower hex first, or fix map.elevation", f, hx(a), la, hx(b), lb)
				}
			}
			s.sc.Map.Hexsides = append(s.sc.Map.Hexsides, engine.Hexside{A: a, B: b, Feature: f})
		}
	}
}

func (s *scen) standards(n *yaml.Node) {
	for _, kv := range s.pairs(n, "standards") {
		path := join("standards", kv.key)
		if !s.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := s.object(kv.v, path, "name", "side", "hex")
		st := engine.StandardSpec{ID: kv.key, Name: o.str("name", true)}
		if name := o.str("side", true); name != "" {
			st.Side, _ = s.side(name, o.line("side"), join(path, "side"))
		}
		if hs := o.str("hex", true); hs != "" {
			st.Hex, _ = s.hexID(hs, o.line("hex"), join(path, "hex"))
		}
		s.lines.standard[kv.key] = kv.k.Line
		s.sc.Standards = append(s.sc.Standards, st)
	}
}

func (s *scen) standard(id string) *engine.StandardSpec {
	for i := range s.sc.Standards {
		if s.sc.Standards[i].ID == id {
			return &s.sc.Standards[i]
		}
	}
	return nil
}

func (s *scen) commands(n *yaml.Node) {
	for _, kv := range s.pairs(n, "commands") {
		path := join("commands", kv.key)
		if !s.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := s.object(kv.v, path, "name", "side", "leader", "standard", "entry", "arrives", "shield_wall_orders")
		// Arquebus 6.4: a Battle may have no leader, where the tables
		// play Leaderless Battles (rules.continuity_leader_on_map).
		leaderless := s.sc.Tables != nil && s.sc.Tables.Rules.ContinuityLeaderOnMap
		c := engine.CommandSpec{ID: kv.key, Name: o.str("name", true), Leader: o.str("leader", !leaderless)}
		sideOK := false
		if name := o.str("side", true); name != "" {
			c.Side, sideOK = s.side(name, o.line("side"), join(path, "side"))
		}
		if std := o.str("standard", false); std != "" {
			c.Standard = std
			if st := s.standard(std); st == nil {
				var ids []string
				for _, x := range s.sc.Standards {
					ids = append(ids, x.ID)
				}
				s.add(o.line("standard"), join(path, "standard"), "%s", unknown("standard", std, ids))
			} else if sideOK && st.Side != c.Side {
				s.add(o.line("standard"), join(path, "standard"), "standard %s belongs to the %s, not the %s", std, s.sc.SideName(st.Side), s.sc.SideName(c.Side))
			}
		} else if sideOK {
			// With one Standard for the side, Commands may leave it out.
			var own []string
			for _, st := range s.sc.Standards {
				if st.Side == c.Side {
					own = append(own, st.ID)
				}
			}
			if len(own) == 1 {
				c.Standard = own[0]
			} else {
				s.add(o.n.Line, join(path, "standard"), "missing (the %s have %d Standards; name the one this Command rallies to, 13.2)", s.sc.SideName(c.Side), len(own))
			}
		}
		if en := o.node("entry", false); en != nil {
			g := s.sc.Map.Grid
			for _, h := range s.hexList(en, join(path, "entry")) {
				if s.gridOK && h.h.Col != g.MinCol && h.h.Col != g.MaxCol && h.h.Row != g.MinRow && h.h.Row != g.MaxRow {
					s.add(h.line, join(path, "entry"), "entry hex %s is not on a map edge (5.3)", hx(h.h))
					continue
				}
				c.Entry = append(c.Entry, h.h)
			}
		}
		s.commandRules(o, path, &c)
		s.lines.command[kv.key] = kv.k.Line
		s.sc.Commands = append(s.sc.Commands, c)
	}
}

func (s *scen) commandIDs() []string {
	var ids []string
	for _, c := range s.sc.Commands {
		ids = append(ids, c.ID)
	}
	return ids
}

// sideOf checks an optional "side:" against the side of the Command.
func (s *scen) sideOf(o *object, path string, c *engine.CommandSpec, what string) {
	name := o.str("side", false)
	if name == "" || c == nil {
		return
	}
	if side, ok := s.side(name, o.line("side"), join(path, "side")); ok && side != c.Side {
		s.add(o.line("side"), join(path, "side"), "%s is of the %s, but Command %s is of the %s", what, name, c.ID, s.sc.SideName(c.Side))
	}
}

func (s *scen) leaders(n *yaml.Node) {
	for _, kv := range s.pairs(n, "leaders") {
		path := join("leaders", kv.key)
		if !s.id(kv.key, kv.k.Line, path) {
			continue
		}
		o := s.object(kv.v, path, "name", "side", "command", "ar", "range", "ma", "king", "oc", "hex", "off_map", "replacement", "charisma", "effectiveness")
		l := engine.LeaderSpec{
			ID:       kv.key,
			Name:     o.str("name", true),
			AR:       o.int("ar", true),
			Range:    o.int("range", true),
			MA:       o.int("ma", true),
			King:     o.bool("king"),
			OC:       o.bool("oc"),
			OffMap:   o.bool("off_map"),
			Charisma: o.int("charisma", false),
		}
		if o.has("effectiveness") {
			// Arquebus 5.2, 6.2: the Overall Commander's Effectiveness.
			l.Effectiveness = o.int("effectiveness", false)
			switch t := s.sc.Tables; {
			case !l.OC:
				s.add(o.line("effectiveness"), join(path, "effectiveness"), "only an Overall Commander (oc: true) has an Effectiveness rating (Arquebus 5.2)")
			case t != nil && !t.Rules.OCEffectiveness:
				s.add(o.line("effectiveness"), join(path, "effectiveness"), "the tables of volume %q do not play Effectiveness (rules.oc_effectiveness)", s.sc.Volume)
			case l.Effectiveness < -9 || l.Effectiveness > 9:
				s.add(o.line("effectiveness"), join(path, "effectiveness"), "%d: a DRM on a die of 0-9, so -9 to 9 (Arquebus 5.2: Gonzaga -2)", l.Effectiveness)
			}
		}
		if cmd := o.str("command", false); cmd == "" {
			s.noCommand(o, path, "every leader leads a Command (15.1)")
		} else if c := s.sc.Command(cmd); c == nil {
			s.add(o.line("command"), join(path, "command"), "%s", unknown("command", cmd, s.commandIDs()))
		} else {
			l.Command, l.Side = cmd, c.Side
			s.sideOf(o, path, c, "the leader")
		}
		if o.has("ar") && (l.AR < 0 || l.AR > 9) {
			s.add(o.line("ar"), join(path, "ar"), "an Activation Rating is compared with a die of 0-9, so must be 0 to 9 (2.4: usually 1-5)")
		}
		if o.has("range") && l.Range < 0 {
			s.add(o.line("range"), join(path, "range"), "must be 0 or more (15.2)")
		}
		if o.has("ma") && l.MA < 1 {
			s.add(o.line("ma"), join(path, "ma"), "must be 1 or more (5.1)")
		}
		if rn := o.node("replacement", true); rn != nil && rn.Kind == yaml.ScalarNode && rn.Value == "none" {
			// Arquebus 5.5 "In some battles, there is no Replacement for a
			// lost OC": his Battle becomes Leaderless (6.4, ruling R429).
			l.NoReplacement = true
			if t := s.sc.Tables; t != nil && !t.Rules.ContinuityLeaderOnMap {
				s.add(o.line("replacement"), join(path, "replacement"), "none: the tables of volume %q have no Leaderless Battles (rules.continuity_leader_on_map, Arquebus 6.4): every leader has a Replacement side {ar, range}", s.sc.Volume)
			}
		} else if rn != nil {
			ro := s.object(rn, join(path, "replacement"), "ar", "range")
			l.Replacement.AR = ro.int("ar", true)
			l.Replacement.Range = ro.int("range", true)
			if l.Replacement.AR < 0 || l.Replacement.AR > 9 {
				s.add(ro.line("ar"), join(path, "replacement.ar"), "must be 0 to 9")
			}
			if l.Replacement.Range < 0 {
				s.add(ro.line("range"), join(path, "replacement.range"), "must be 0 or more")
			}
		}
		s.placement(o, path, &l.Hex, l.OffMap, "leader")
		s.lines.leader[kv.key] = kv.k.Line
		if l.OC {
			s.oneOC(o, path, l)
		}
		s.sc.Leaders = append(s.sc.Leaders, l)
	}
}

// oneOC: an army has one Overall Commander, or none (Infidel 5.1).
func (s *scen) oneOC(o *object, path string, l engine.LeaderSpec) {
	for _, other := range s.sc.Leaders {
		if other.OC && other.Side == l.Side {
			s.add(o.line("oc"), join(path, "oc"), "the %s already have an Overall Commander, %s (line %d): an army has one (Infidel 5.1)",
				s.sc.SideName(l.Side), other.ID, s.lines.leader[other.ID])
		}
	}
}

// placement reads hex/off_map: exactly one of them.
func (s *scen) placement(o *object, path string, h *hex.Hex, offMap bool, what string) bool {
	hs := o.str("hex", false)
	switch {
	case offMap && hs != "":
		s.add(o.line("hex"), join(path, "hex"), "an off-map %s has no hex; remove hex or off_map", what)
	case !offMap && hs == "":
		if o.n.Kind == yaml.MappingNode && !o.has("hex") {
			s.add(o.n.Line, join(path, "hex"), "missing (or off_map: true for a reinforcement, 5.3)")
		}
	case hs != "":
		var ok bool
		*h, ok = s.hexID(hs, o.line("hex"), join(path, "hex"))
		return ok
	}
	return false
}

var ratingKeys = []string{"ma", "ma_disordered", "shock", "shock_disordered", "fire", "fire_disordered"}

func (s *scen) units(n *yaml.Node) {
	if !s.is(n, "units", yaml.SequenceNode, "a list of units (- {id: LB1, ...})") {
		return
	}
	ids := map[string]int{}
	for i, item := range n.Content {
		path := index("units", i)
		if id := peek(item, "id"); id != "" {
			path = join("units", id)
		}
		o := s.object(item, path, "id", "name", "type", "side", "command", "hex", "facing", "status", "off_map", "ambush", "ratings", "shield_wall", "no_retreat", "schiltron", "limbered", "swiss")
		u := engine.UnitSpec{ID: o.str("id", true), Name: o.str("name", false), OffMap: o.bool("off_map")}
		ambush := o.bool("ambush") // Blood & Roses 16.1: not deployed at the start (rules.ambush)
		if ambush && u.OffMap {
			s.add(o.line("ambush"), join(path, "ambush"), "a unit lies in Ambush or arrives as a reinforcement (off_map), not both")
		}
		if ambush {
			s.ambushUnits = append(s.ambushUnits, unitLine{path: join(path, "ambush"), line: o.line("ambush")})
			s.ambushIDs = append(s.ambushIDs, u.ID)
		}
		if u.ID != "" {
			if s.id(u.ID, o.line("id"), join(path, "id")) {
				if line, dup := ids[u.ID]; dup {
					s.add(o.line("id"), join(path, "id"), "unit id %s is used twice (line %d)", u.ID, line)
				}
				ids[u.ID] = o.line("id")
			}
		}
		u.Type = o.str("type", true)
		var ut *engine.UnitType
		if t := s.sc.Tables; t != nil && u.Type != "" {
			if ut = t.UnitTypes[u.Type]; ut == nil {
				s.add(o.line("type"), join(path, "type"), "%s", unknown("unit type", u.Type, keys(t.UnitTypes)))
			} else {
				u.Ratings = ut.Ratings
			}
		}
		if cmd := o.str("command", false); cmd == "" {
			s.unitCmdErr = true
			s.noCommand(o, path, "every unit belongs to a Command (15.1)")
		} else if c := s.sc.Command(cmd); c == nil {
			s.unitCmdErr = true
			s.add(o.line("command"), join(path, "command"), "%s", unknown("command", cmd, s.commandIDs()))
		} else {
			u.Command, u.Side = cmd, c.Side
			s.sideOf(o, path, c, "the unit")
			if u.OffMap && len(c.Entry) == 0 {
				s.add(o.line("off_map"), join(path, "off_map"), "Command %s has no entry hexes for its reinforcements (5.3)", cmd)
			}
		}
		if ambush && o.has("hex") {
			s.add(o.line("hex"), join(path, "hex"), "a unit in Ambush is not deployed at the start: it has no hex (Blood & Roses 16.1)")
		} else if !ambush {
			s.placement(o, path, &u.Hex, u.OffMap, "unit")
		}
		u.OffMap = u.OffMap || ambush
		if fs := o.str("facing", false); fs != "" {
			f, err := hex.ParseFacing(fs)
			if err != nil {
				s.add(o.line("facing"), join(path, "facing"), "%q is not a facing: write one of the vertices E, NE, NW, W, SW, SE (6.1)", fs)
			}
			u.Facing = f
		} else if !u.OffMap && o.n.Kind == yaml.MappingNode {
			s.add(o.n.Line, join(path, "facing"), "missing: a unit on the map faces a vertex, one of E, NE, NW, W, SW, SE (6.1)")
		}
		if ss := o.str("status", false); ss != "" {
			st, ok := engine.ParseStatus(ss)
			if !ok || st == engine.Eliminated {
				s.add(o.line("status"), join(path, "status"), "%q: a unit starts Normal, Disordered or Retired", ss)
			}
			u.Status = st
		}
		if rn := o.node("ratings", false); rn != nil {
			ro := s.object(rn, join(path, "ratings"), ratingKeys...)
			if ro.has("ma") {
				u.Ratings.MA = ro.int("ma", false)
			}
			if ro.has("ma_disordered") {
				u.Ratings.MADisordered = ro.int("ma_disordered", false)
			}
			if ro.has("shock") {
				u.Ratings.Shock = ro.int("shock", false)
			}
			if ro.has("shock_disordered") {
				u.Ratings.ShockDisordered = ro.int("shock_disordered", false)
			}
			if ro.has("fire") {
				u.Ratings.Fire = ro.missileDRM("fire")
			}
			if ro.has("fire_disordered") {
				u.Ratings.FireDisordered = ro.missileDRM("fire_disordered")
			}
			if ut != nil {
				s.missileRatings(ro, join(path, "ratings"), u.Ratings, ut.Weapon != "")
			}
		}
		s.unitMarkers(o, path, &u, ut)
		s.sc.Units = append(s.sc.Units, u)
		s.unitLines = append(s.unitLines, unitLine{path: path, line: o.line("hex"), item: item.Line})
	}
}

type unitLine struct {
	path       string
	line, item int
}

// crossCheck checks what ties the sections together.
func (s *scen) crossCheck(o *object) {
	sc := s.sc
	units := map[string]int{}
	for _, u := range sc.Units {
		units[u.Command]++
	}
	var perSide [2]int
	for _, c := range sc.Commands {
		path := join("commands", c.ID)
		line := s.lines.command[c.ID]
		perSide[c.Side]++
		if c.Leader != "" {
			if l := sc.Leader(c.Leader); l == nil {
				var ids []string
				for _, x := range sc.Leaders {
					ids = append(ids, x.ID)
				}
				s.add(line, join(path, "leader"), "%s", unknown("leader", c.Leader, ids))
			} else if l.Command != c.ID && l.Command != "" {
				s.add(line, join(path, "leader"), "leader %s leads Command %s, not %s", l.ID, l.Command, c.ID)
			}
		}
		if units[c.ID] == 0 && !s.unitCmdErr {
			s.add(line, path, "Command %s has no units", c.ID)
		}
	}
	if s.sidesOK && o.has("commands") {
		for side, n := range perSide {
			if n == 0 {
				s.add(o.line("commands"), "commands", "the %s have no Command", sc.SideName(engine.Side(side)))
			}
		}
	}
	for _, l := range sc.Leaders {
		path := join("leaders", l.ID)
		line := s.lines.leader[l.ID]
		c := sc.Command(l.Command)
		if c == nil {
			continue
		}
		if c.Leader == "" {
			s.add(line, join(path, "command"), "Command %s has no leader (a Leaderless Battle, Arquebus 6.4): give it leader: %s, or give %s his own Command", c.ID, l.ID, l.ID)
		}
		if c.Leader != l.ID && sc.Leader(c.Leader) != nil {
			s.add(line, join(path, "command"), "Command %s is led by %s; a Command has one leader (15.1)", c.ID, c.Leader)
		}
		if l.OffMap && len(c.Entry) == 0 {
			s.add(line, join(path, "off_map"), "Command %s has no entry hexes for its reinforcements (5.3)", c.ID)
		}
	}

	// Stacking (8.0), terrain and enemy entry hexes.
	t := sc.Tables
	occupied := map[hex.Hex]int{} // unit index
	stacked := map[hex.Hex]bool{}
	for i, u := range sc.Units {
		if u.OffMap || i >= len(s.unitLines) || !s.gridOK || !sc.Map.Grid.Contains(u.Hex) {
			continue
		}
		at := s.unitLines[i]
		if j, dup := occupied[u.Hex]; dup {
			if why := s.setupStack(sc, i, j, stacked[u.Hex]); why != "" {
				s.add(at.line, join(at.path, "hex"), "hex %s already holds unit %s (line %d): %s", hx(u.Hex), sc.Units[j].ID, s.unitLines[j].line, why)
			}
			stacked[u.Hex] = true
			continue
		}
		occupied[u.Hex] = i
		if t != nil {
			if ut := t.UnitTypes[u.Type]; ut != nil {
				terr := sc.Map.TerrainAt(u.Hex)
				if tt := t.Terrain[terr]; tt != nil && tt.Cost[ut.Class()] == engine.NA {
					s.add(at.line, join(at.path, "hex"), "hex %s is %s, which %s units may not enter", hx(u.Hex), terr, ut.Class())
				}
			}
		}
		for _, c := range sc.Commands {
			if c.Side == u.Side || u.Command == "" {
				continue
			}
			for _, e := range c.Entry {
				if e == u.Hex {
					s.add(at.line, join(at.path, "hex"), "hex %s is an entry hex of the enemy Command %s (5.2)", hx(u.Hex), c.ID)
				}
			}
		}
	}
	enemyIn := func(h hex.Hex, side engine.Side) string {
		if i, ok := occupied[h]; ok && sc.Units[i].Command != "" && sc.Units[i].Side != side {
			return sc.Units[i].ID
		}
		return ""
	}
	for _, l := range sc.Leaders {
		if l.OffMap || l.Command == "" || !s.gridOK || !sc.Map.Grid.Contains(l.Hex) {
			continue
		}
		path := join("leaders", l.ID)
		if id := enemyIn(l.Hex, l.Side); id != "" {
			s.add(s.lines.leader[l.ID], join(path, "hex"), "hex %s holds the enemy unit %s", hx(l.Hex), id)
		}
		if t != nil {
			terr := sc.Map.TerrainAt(l.Hex)
			if tt := t.Terrain[terr]; tt != nil && tt.Cost[engine.Leader] == engine.NA {
				s.add(s.lines.leader[l.ID], join(path, "hex"), "hex %s is %s, which leaders may not enter", hx(l.Hex), terr)
			}
		}
	}
	for _, st := range sc.Standards {
		if !s.gridOK || !sc.Map.Grid.Contains(st.Hex) {
			continue
		}
		if id := enemyIn(st.Hex, st.Side); id != "" {
			s.add(s.lines.standard[st.ID], join("standards", st.ID)+".hex", "hex %s holds the enemy unit %s", hx(st.Hex), id)
		}
	}
}

// setupStack says why unit i may not be set up in the hex of unit j, or
// "" when it may: Arquebus 10.0's pairs (rules.stacking), two friendly
// units facing alike (10.1); without stacking, never (8.0).
func (s *scen) setupStack(sc *engine.Scenario, i, j int, full bool) string {
	t := sc.Tables
	if t == nil || len(t.Rules.Stacking) == 0 {
		return "combat units may not stack (8.0)"
	}
	a, b := sc.Units[i], sc.Units[j]
	at, bt := t.UnitTypes[a.Type], t.UnitTypes[b.Type]
	switch {
	case full:
		return "no more than two units share a hex (Arquebus 10.0)"
	case a.Side != b.Side:
		return "units may not stack with enemy units (Arquebus 10.0)"
	case at == nil || bt == nil:
		return ""
	case !t.Rules.StackAllowed(at, a.Limbered, bt, b.Limbered):
		return fmt.Sprintf("%s may not stack with %s (Arquebus 10.0, rules.stacking)", at.Name, bt.Name)
	case a.Facing != b.Facing:
		return "stacked units face the same direction (Arquebus 10.1)"
	}
	return ""
}

// noCommand reports a leader's or unit's command that is missing or
// written empty ("command: ,"); a value of another kind was reported
// when it was read.
func (s *scen) noCommand(o *object, path, why string) {
	switch n := o.node("command", false); {
	case n == nil && o.n.Kind == yaml.MappingNode:
		s.add(o.n.Line, join(path, "command"), "missing: %s", why)
	case n != nil && n.Kind == yaml.ScalarNode:
		s.add(n.Line, join(path, "command"), "empty: %s", why)
	}
}
