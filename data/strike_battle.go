package data

import (
	"embed"
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/engine/strike/table"
)

// The strike system's battles live in data/strike/battles/<id>.yaml, one
// a file, embedded like its tables and loaded with the same located
// errors (file:line: field: problem, every problem at once).

//go:embed strike/battles/*.yaml
var strikeBattleFiles embed.FS

var strikeBattles = sync.OnceValue(func() map[string]func() (*battle.Battle, error) {
	m := map[string]func() (*battle.Battle, error){}
	names, _ := strikeBattleFiles.ReadDir("strike/battles")
	for _, n := range names {
		file := "strike/battles/" + n.Name()
		id := strings.TrimSuffix(n.Name(), ".yaml")
		m[id] = sync.OnceValues(func() (*battle.Battle, error) {
			b, err := strikeBattleFiles.ReadFile(file)
			if err != nil {
				return nil, err
			}
			return ParseStrikeBattle(prefix+file, b)
		})
	}
	return m
})

// StrikeBattles lists the ids of the embedded strike battles, sorted.
func StrikeBattles() []string {
	var ids []string
	for id := range strikeBattles() {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// StrikeBattle loads an embedded strike battle by id (parsed once).
func StrikeBattle(id string) (*battle.Battle, error) {
	load, ok := strikeBattles()[id]
	if !ok {
		return nil, fmt.Errorf("no strike battle %q (there are %v)", id, StrikeBattles())
	}
	return load()
}

// ParseStrikeBattle reads a strike battle from YAML against the embedded
// strike tables. file names the source in messages; the file's id must
// match its name when file ends in <id>.yaml.
func ParseStrikeBattle(file string, b []byte) (*battle.Battle, error) {
	tb, err := StrikeTables()
	if err != nil {
		return nil, err
	}
	p := &parser{collector: &collector{file: file}}
	bt := p.strikeBattle(b, tb)
	if bt != nil && p.ok() {
		if base := strings.TrimSuffix(path.Base(file), ".yaml"); base != path.Base(file) && base != bt.ID && strings.HasPrefix(file, prefix) {
			p.add(1, "id", "%q: the file is %s, so its id must be %q", bt.ID, path.Base(file), base)
		}
	}
	if p.ok() {
		if err := bt.Check(); err != nil {
			p.add(1, "", "%v", err)
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return bt, nil
}

var terrainKinds = map[string]table.Terrain{
	"open": table.Open, "obstacle": table.Obstacle, "higher ground": table.HigherGround, "gentle slope": table.GentleSlope,
}

func (p *parser) strikeBattle(b []byte, tb *strike.Tables) *battle.Battle {
	root := p.root(b)
	if root == nil {
		return nil
	}
	o := p.object(root, "", "id", "title", "label", "sources", "table", "turns", "victory", "terrain", "sides")
	bt := &battle.Battle{Tables: tb, ID: o.str("id", true), Title: o.str("title", true), Label: o.str("label", true)}
	if o.has("id") && bt.ID != "" {
		p.id(bt.ID, o.line("id"), "id")
	}
	if n := o.node("sources", false); n != nil {
		for i, s := range p.list(n, "sources") {
			if v, ok := p.scalar(s, index("sources", i)); ok {
				bt.Sources = append(bt.Sources, v)
			}
		}
	}
	if n := o.node("table", true); n != nil {
		t := p.object(n, "table", "width", "height")
		bt.Table.Width, bt.Table.Height = p.inches(t, "width", true), p.inches(t, "height", true)
		for k, v := range map[string]float64{"width": bt.Table.Width, "height": bt.Table.Height} {
			if t.has(k) && v <= 0 {
				p.add(t.line(k), join("table", k), "must be over 0 inches")
			}
		}
	}
	bt.Turns = p.atLeast(o, "turns", 1)
	if n := o.node("victory", true); n != nil {
		v := p.object(n, "victory", "stands_lost", "warlord")
		bt.Victory.StandsLost = p.number(v, "stands_lost")
		if v.has("stands_lost") && !(bt.Victory.StandsLost > 0 && bt.Victory.StandsLost <= 1) {
			p.add(v.line("stands_lost"), "victory.stands_lost", "%g: the fraction of its stands a side may lose before it loses, over 0 and at most 1 (0.5 for half)", bt.Victory.StandsLost)
		}
		bt.Victory.Warlord = v.bool("warlord")
	}
	if n := o.node("terrain", false); n != nil && n.Kind != yaml.ScalarNode {
		if p.is(n, "terrain", yaml.SequenceNode, "a list of areas") {
			for i, a := range n.Content {
				bt.Table.Areas = append(bt.Table.Areas, p.strikeArea(a, index("terrain", i), bt.Table))
			}
		}
	}
	if n := o.node("sides", true); n != nil && p.is(n, "sides", yaml.SequenceNode, "a list of the two sides") {
		if len(n.Content) != 2 {
			p.add(n.Line, "sides", "%d sides: a battle has two", len(n.Content))
		}
		ids := map[string]int{}
		var lines []int
		for i, sn := range n.Content {
			if i > 1 {
				break
			}
			path := index("sides", i)
			so := p.object(sn, path, "name", "units")
			bt.Sides[i] = so.str("name", true)
			un := so.node("units", true)
			if un == nil || !p.is(un, join(path, "units"), yaml.SequenceNode, "a list of units") {
				continue
			}
			if len(un.Content) == 0 {
				p.add(un.Line, join(path, "units"), "a side needs at least one unit")
			}
			warlord := 0
			for j, u := range un.Content {
				lines = append(lines, u.Line)
				upath := index(join(path, "units"), j)
				spec := p.strikeUnit(u, upath, tb, i, bt.Table)
				if spec == nil {
					continue
				}
				if line, dup := ids[strings.ToLower(spec.ID)]; dup {
					p.add(u.Line, join(upath, "id"), "%q is given twice (first on line %d); ids are case-insensitive in orders", spec.ID, line)
				}
				ids[strings.ToLower(spec.ID)] = u.Line
				if spec.Personality != nil && spec.Personality.Warlord {
					warlord++
					if warlord > 1 {
						p.add(u.Line, join(upath, "personality.warlord"), "a second Warlord: a side has one")
					}
				}
				bt.Units = append(bt.Units, *spec)
			}
		}
		if len(lines) == len(bt.Units) {
			p.strikeFootprints(bt, lines)
		}
		if bt.Sides[0] != "" && strings.EqualFold(bt.Sides[0], bt.Sides[1]) {
			p.add(n.Line, "sides", "both sides are named %q", bt.Sides[0])
		}
	}
	return bt
}

// number reads a required number (decimals allowed).
func (p *parser) number(o *object, key string) float64 {
	n := o.node(key, true)
	if n == nil {
		return 0
	}
	s, ok := p.scalar(n, join(o.path, key))
	if !ok {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 100000 {
		p.add(n.Line, join(o.path, key), "%q is not a number", s)
		return 0
	}
	return v
}

// point reads [x, y].
func (p *parser) point(n *yaml.Node, path string) (table.Vec, bool) {
	if !p.is(n, path, yaml.SequenceNode, "a point [x, y] in inches") {
		return table.Vec{}, false
	}
	if len(n.Content) != 2 {
		p.add(n.Line, path, "a point is [x, y], not %d numbers", len(n.Content))
		return table.Vec{}, false
	}
	var xy [2]float64
	for i, c := range n.Content {
		s, ok := p.scalar(c, path)
		if !ok {
			return table.Vec{}, false
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 10000 {
			p.add(c.Line, path, "%q is not a distance in inches", s)
			return table.Vec{}, false
		}
		xy[i] = v
	}
	return table.Vec{X: xy[0], Y: xy[1]}, true
}

func (p *parser) strikeArea(n *yaml.Node, path string, tt table.Table) table.Area {
	o := p.object(n, path, "kind", "name", "points")
	a := table.Area{Name: o.str("name", false)}
	k := o.str("kind", true)
	if k != "" {
		t, ok := terrainKinds[strings.ToLower(k)]
		if !ok {
			p.add(o.line("kind"), join(path, "kind"), "%s", unknown("terrain kind", k, keys(terrainKinds)))
		}
		a.Terrain = t
	}
	if pn := o.node("points", true); pn != nil && p.is(pn, join(path, "points"), yaml.SequenceNode, "a list of points [x, y]") {
		for i, c := range pn.Content {
			if v, ok := p.point(c, index(join(path, "points"), i)); ok {
				a.Shape = append(a.Shape, v)
			}
		}
		if len(pn.Content) < 3 {
			p.add(pn.Line, join(path, "points"), "an area needs at least 3 corners, not %d", len(pn.Content))
		}
	}
	return a
}

func (p *parser) strikeUnit(n *yaml.Node, path string, tb *strike.Tables, side int, tt table.Table) *battle.UnitSpec {
	o := p.object(n, path, "id", "name", "type", "superior", "trained", "files", "ranks", "stand", "at", "facing", "personality")
	u := &battle.UnitSpec{Side: side, ID: o.str("id", true), Name: o.str("name", true)}
	if u.ID != "" && !p.id(u.ID, o.line("id"), join(path, "id")) {
		u.ID = ""
	}
	if ty := o.str("type", true); ty != "" {
		t, ok := tb.Troops[ty]
		if !ok {
			p.add(o.line("type"), join(path, "type"), "%s", unknown("troop type", ty, keys(tb.Troops)))
		}
		u.Type = t
	}
	u.Superior, u.Trained = o.bool("superior"), o.bool("trained")
	if u.Type != nil {
		for q, on := range map[string]bool{strike.Superior: u.Superior, strike.Trained: u.Trained} {
			if on && !u.Type.MayBe(q) {
				p.add(o.line(q), join(path, q), "%s may not be %s (the tables allow %v)", u.Type.ID, q, u.Type.Qualities)
			}
		}
	}
	u.Files, u.Ranks = p.atLeast(o, "files", 1), p.atLeast(o, "ranks", 1)
	if u.Files > 12 || u.Ranks > 6 {
		p.add(o.line("files"), join(path, "files"), "%d×%d stands: at most 12 files and 6 ranks", u.Files, u.Ranks)
	}
	if u.Type != nil {
		u.StandWidth, u.StandDepth = tb.Stands.Of(u.Type) // R541
	}
	if sn := o.node("stand", false); sn != nil {
		if v, ok := p.point(sn, join(path, "stand")); ok {
			if v.X <= 0 || v.Y <= 0 {
				p.add(sn.Line, join(path, "stand"), "a stand is [frontage, depth], both over 0 inches")
			} else {
				u.StandWidth, u.StandDepth = v.X, v.Y
			}
		}
	}
	if an := o.node("at", true); an != nil {
		if v, ok := p.point(an, join(path, "at")); ok {
			u.Pos = v
			if !tt.OnTable(v) && tt.Width > 0 {
				p.add(an.Line, join(path, "at"), "[%g, %g] is off the %g×%g\" table", v.X, v.Y, tt.Width, tt.Height)
			}
		}
	}
	f := p.number(o, "facing")
	if o.has("facing") && (f < 0 || f >= 360) {
		p.add(o.line("facing"), join(path, "facing"), "%g: a facing is a compass bearing, 0 (up the table) to under 360", f)
	}
	u.Facing = f
	if pn := o.node("personality", false); pn != nil {
		po := p.object(pn, join(path, "personality"), "name", "sr", "warlord")
		ps := &battle.PersonalitySpec{Name: po.str("name", true), SR: p.atLeast(po, "sr", 1), Warlord: po.bool("warlord")}
		if po.has("sr") && ps.SR >= 1 {
			if _, err := tb.Band(ps.SR); err != nil {
				p.add(po.line("sr"), join(path, "personality.sr"), "%v", err)
			}
		}
		u.Personality = ps
	}
	if u.ID == "" || u.Type == nil {
		return nil
	}
	return u
}

// strikeFootprints reports units off the table or on one another, at
// their lines.
func (p *parser) strikeFootprints(bt *battle.Battle, lines []int) {
	fp := func(u battle.UnitSpec) table.Polygon {
		return table.Unit{Pos: u.Pos, Facing: u.Facing, Files: u.Files, Ranks: u.Ranks, StandWidth: u.StandWidth, StandDepth: u.StandDepth}.Outline()
	}
	for i, u := range bt.Units {
		if u.Files < 1 || u.Ranks < 1 || u.StandWidth <= 0 {
			continue
		}
		for _, c := range fp(u) {
			if !bt.Table.OnTable(c) {
				p.add(lines[i], index("units", i)+"."+u.ID, "its stands reach [%.4g, %.4g], off the %g×%g\" table", c.X, c.Y, bt.Table.Width, bt.Table.Height)
				break
			}
		}
		for j := i + 1; j < len(bt.Units); j++ {
			v := bt.Units[j]
			if v.Files < 1 || v.Ranks < 1 || v.StandWidth <= 0 {
				continue
			}
			a, b := fp(u), fp(v)
			if table.Intersects(a, b) && table.Distance(shrinkPoly(a), b) == 0 {
				p.add(lines[j], index("units", j)+"."+v.ID, "its stands overlap %s's (line %d)", u.ID, lines[i])
			}
		}
	}
}

// shrinkPoly pulls a rectangle's corners a hair towards its centre, so
// that units side by side (touching) do not count as on one another.
func shrinkPoly(p table.Polygon) table.Polygon {
	c := table.Centre(p)
	out := make(table.Polygon, len(p))
	for i, v := range p {
		out[i] = c.Add(v.Sub(c).Scale(1 - 1e-6))
	}
	return out
}
