package mapimg

import (
	"image/color"
	"math"
	"strings"

	"herald/engine"
	"herald/engine/hex"
)

// MarkKind is what an overlay mark shows.
type MarkKind int

const (
	MarkActive  MarkKind = iota // a counter of the Command or Standard that acted: a ring
	MarkPath                    // a move or an Advance, along Hexes in order
	MarkFire                    // missile fire, from Hexes[0] to Hexes[1]
	MarkResult                  // a result, written in a tag near Hexes[0]
	MarkShock                   // a Shock attack, from Hexes[0] to Hexes[1]
	MarkCharge                  // a Charge, along Hexes to the defender's hex, the last
	MarkRetreat                 // a retreat, along Hexes in order
	MarkGone                    // an eliminated unit (Unit), drawn crossed out where it fell
)

// Mark is one thing the last order block did, drawn over the map.
type Mark struct {
	Kind  MarkKind
	Hexes []hex.Hex
	// Unit is the unit the mark is about; empty for a Standard's.
	Unit string
	// Label is a result's text: "EM1 disordered, retreats".
	Label string
}

// marker follows a block's units hex by hex and collects its marks.
type marker struct {
	sc            *engine.Scenario
	before, after *engine.State
	out           []Mark
	at            map[string]hex.Hex
	standards     map[string]hex.Hex
	// lastPath is the index in out of each unit's latest path, so that a
	// move interrupted by reaction fire, or a Charge and its Advance, is
	// one arrow and not pieces.
	lastPath map[string]int
	// results are each unit's results in order, written in one tag.
	results map[string][]string
	order   []string        // units with results, in the order of their first
	home    map[string]bool // the units whose Charge reached its target and has not struck yet (11.3)
}

// Marks turns a block's events into overlay marks: the counters of the
// Command that acted, the moves, Charges, Advances, retreats and attacks,
// the units eliminated, and one tag per unit naming its results. before
// is the state the events started from, after where they led; units are
// followed hex by hex in between.
func Marks(sc *engine.Scenario, before, after *engine.State, events []engine.Event) []Mark {
	m := &marker{sc: sc, before: before, after: after, at: map[string]hex.Hex{}, standards: map[string]hex.Hex{},
		lastPath: map[string]int{}, results: map[string][]string{}, home: map[string]bool{}}
	for i, s := range sc.Standards {
		m.standards[s.ID] = before.Standards[i].Hex
	}
	for _, u := range before.Units {
		if !u.OffMap {
			m.at[u.ID] = u.Hex
		}
	}
	for _, e := range events {
		m.event(e)
	}
	for _, id := range m.order {
		m.out = append(m.out, Mark{Kind: MarkResult, Hexes: []hex.Hex{m.at[id]}, Unit: id, Label: id + " " + strings.Join(m.results[id], ", ")})
	}
	return m.out
}

func (m *marker) event(e engine.Event) {
	switch e := e.(type) {
	case engine.CommandActivated:
		for i, u := range m.sc.Units {
			if u.Command == e.Command && !m.after.Units[i].OffMap && m.after.Units[i].Status != engine.Eliminated {
				m.out = append(m.out, Mark{Kind: MarkActive, Hexes: []hex.Hex{m.after.Units[i].Hex}})
			}
		}
	case engine.UnitMoved:
		m.path(e.Unit, MarkPath, e.Path...)
	case engine.ChargeMade:
		m.path(e.Unit, MarkCharge, e.Path...)
	case engine.ChargeHome:
		m.home[e.Unit] = true
	case engine.UnitAdvanced:
		m.path(e.Unit, MarkPath, e.To)
	case engine.RetreatedBeforeShock:
		m.path(e.Unit, MarkRetreat, e.To)
		m.result(e.Unit, "retreats before shock")
	case engine.UnitRetreated:
		m.path(e.Unit, MarkRetreat, e.Path...)
		m.result(e.Unit, "retreats")
	case engine.AttackResolved:
		for _, a := range e.Attackers {
			m.attack(a, e.Defender, e.Table)
		}
	case engine.UnitFired:
		m.out = append(m.out, Mark{Kind: MarkFire, Hexes: []hex.Hex{m.at[e.Unit], m.at[e.Target]}, Unit: e.Unit})
	case engine.PassedThrough:
		if e.Result != engine.Normal {
			m.result(e.Through, strings.ToLower(e.Result.String()))
		}
	case engine.UnitDisordered:
		m.result(e.Unit, "disordered")
	case engine.UnitRetired:
		m.result(e.Unit, "retired")
	case engine.UnitRallied:
		m.result(e.Unit, "rallied")
	case engine.UnitUnhorsed:
		m.result(e.Unit, "unhorsed")
	case engine.UnitEliminated:
		m.eliminated(e.Unit)
	case engine.StandardLeftUnit:
		if e.Eliminated {
			m.eliminated(e.Unit)
		}
	case engine.StandardCaptured:
		m.out = append(m.out, Mark{Kind: MarkResult, Hexes: []hex.Hex{e.At}, Label: "Standard captured"})
	case engine.StandardMoved:
		m.out = append(m.out, Mark{Kind: MarkPath, Hexes: []hex.Hex{m.standards[e.Standard], e.To}})
		m.standards[e.Standard] = e.To
	}
}

// path moves a unit along hexes: the continuation of its last path when
// it starts where that ended and is of the same kind (or an Advance after
// its Charge), else a new arrow from where the unit stands.
func (m *marker) path(id string, kind MarkKind, hexes ...hex.Hex) {
	if len(hexes) == 0 {
		return
	}
	from, on := m.at[id]
	m.at[id] = hexes[len(hexes)-1]
	if i, ok := m.lastPath[id]; ok {
		last := &m.out[i]
		end := last.Hexes[len(last.Hexes)-1]
		switch {
		case last.Kind == MarkCharge && kind == MarkPath && end == hexes[len(hexes)-1]:
			return // the Advance into the hex the Charge's arrow points at
		case end == from && (last.Kind == kind || last.Kind == MarkCharge && kind == MarkPath):
			last.Hexes = append(last.Hexes, hexes...)
			return
		}
	}
	start := []hex.Hex{}
	if on {
		start = append(start, from)
	}
	m.lastPath[id] = len(m.out)
	m.out = append(m.out, Mark{Kind: kind, Hexes: append(start, hexes...), Unit: id})
}

// attack is one attacker's blow: the end of its Charge's arrow when it
// charged home (the Charge table), else a Shock arrow.
func (m *marker) attack(attacker, defender, table string) {
	home := m.home[attacker] || strings.HasPrefix(table, "Charge")
	delete(m.home, attacker) // a Continued Attack after it is a Shock (12.7)
	if i, ok := m.lastPath[attacker]; ok && home {
		last := &m.out[i]
		if last.Kind == MarkCharge && last.Hexes[len(last.Hexes)-1] == m.at[attacker] {
			last.Hexes = append(last.Hexes, m.at[defender])
			return
		}
	}
	m.out = append(m.out, Mark{Kind: MarkShock, Hexes: []hex.Hex{m.at[attacker], m.at[defender]}, Unit: attacker})
}

func (m *marker) result(id, what string) {
	if _, ok := m.at[id]; !ok {
		return // off the map: nowhere to write it
	}
	if len(m.results[id]) == 0 {
		m.order = append(m.order, id)
	}
	for _, r := range m.results[id] {
		if r == what {
			return
		}
	}
	m.results[id] = append(m.results[id], what)
}

// eliminated crosses the unit out where it fell: the hex an attacker may
// then advance into, so the tag names the dead unit.
func (m *marker) eliminated(id string) {
	h, ok := m.at[id]
	if !ok {
		return
	}
	m.out = append(m.out, Mark{Kind: MarkGone, Hexes: []hex.Hex{h}, Unit: id})
	m.result(id, "eliminated")
}

// arrowStyle is how an arrow of one kind is drawn: its colour, its width
// in hex sizes, and its dashes (0: solid).
type arrowStyle struct {
	col         color.RGBA
	width, dash float64
	key         string // its legend symbol
}

var arrowStyles = map[MarkKind]arrowStyle{
	MarkPath:    {rgb(0x5b2a86), 0.1, 0, symMove},
	MarkCharge:  {rgb(0xd9650b), 0.15, 0, symCharge},
	MarkRetreat: {rgb(0x4d4d4d), 0.08, 0.14, symRetreat},
	MarkFire:    {rgb(0xd0211c), 0.09, 0.2, symFire},
	MarkShock:   {rgb(0x1f1f1f), 0.13, 0, symShock},
}

var (
	ringColour = rgb(0xf5b400)
	tagInk     = rgb(0x9e2a1f)
	tagFill    = rgb(0xfff3c4)
	ghostInk   = rgb(0x8b1a10)
)

// drawRings outlines the hexes of the Command that acted, under its
// counters.
func drawRings(c *canvas, l *layout, marks []Mark) {
	for _, m := range marks {
		if m.Kind == MarkActive && len(m.Hexes) > 0 && l.inWindow(m.Hexes[0]) {
			c.outline(l.corners(m.Hexes[0], 0.9), l.size*0.09, ringColour)
			c.used(symRing)
		}
	}
}

// drawArrows draws the arrows and the tags' lines, under the counters:
// they start and end at the counters' edges.
func drawArrows(c *canvas, l *layout, s *scene) {
	for _, a := range s.arrows {
		st := arrowStyles[a.kind]
		drawArrow(c, a, st, l.size)
		c.used(st.key)
	}
	for _, t := range s.tags {
		if len(t.leader) == 2 {
			c.line(t.leader[0], t.leader[1], math.Max(1.5, l.size*0.035), tagInk)
		}
	}
}

// drawArrow strokes a shaft on a pale casing, so that it reads on any
// terrain, and fills its head; the shaft stops under a head at its tip.
func drawArrow(c *canvas, a arrowShape, st arrowStyle, size float64) {
	w := st.width * size
	casing := rgb(0xfffdf4)
	shaft := a.shaft
	if n := len(shaft); a.head[0] == shaft[n-1] {
		shaft = append(append([]pt{}, shaft[:n-1]...), a.head[1].lerp(a.head[2], 0.5))
	}
	for _, pass := range []struct {
		w   float64
		col color.RGBA
	}{{w + math.Max(2, size*0.05), casing}, {w, st.col}} {
		if st.dash > 0 {
			for i := 1; i < len(shaft); i++ {
				c.dashed(shaft[i-1], shaft[i], pass.w, st.dash*size, pass.col)
			}
		} else {
			c.polyline(shaft, pass.w, pass.col)
		}
	}
	c.outline(a.head, math.Max(1.5, size*0.04), casing)
	c.fill(a.head, st.col)
}

// drawGhosts draws the units eliminated by the block where they fell:
// a pale counter crossed out, with its id when there is room.
func drawGhosts(c *canvas, sc *engine.Scenario, s *scene, fs *faces) {
	for _, g := range s.ghosts {
		fill := retiredColour
		if spec := unitSpec(sc, g.unit); spec != nil {
			fill = shade(sideColours[spec.Side], 1.72)
		}
		c.fill(g.sq.poly(1), ghostInk)
		c.fill(g.sq.poly(0.9), fill)
		w := g.sq.h * 0.16
		c.line(g.sq.at(0.8, 0.8), g.sq.at(-0.8, -0.8), w, ghostInk)
		c.line(g.sq.at(0.8, -0.8), g.sq.at(-0.8, 0.8), w, ghostInk)
		if g.sq.h >= l2(fs) {
			c.rect(g.sq.p.X-textWidth(fs.counterBold, g.unit)/2-2, g.sq.p.Y-g.sq.h*0.3, g.sq.p.X+textWidth(fs.counterBold, g.unit)/2+2, g.sq.p.Y+g.sq.h*0.3, fill)
			c.text(fs.counterBold, g.unit, g.sq.p, ghostInk)
		}
		c.used(symGone)
	}
}

// drawTags writes the results, over everything else on the map.
func drawTags(c *canvas, l *layout, s *scene, fs *faces) {
	for _, t := range s.tags {
		b := t.b
		c.rect(b.X0, b.Y0, b.X1, b.Y1, tagInk)
		bw := math.Max(1, math.Round(l.size*0.03))
		c.rect(b.X0+bw, b.Y0+bw, b.X1-bw, b.Y1-bw, tagFill)
		c.text(fs.tag, t.text, b.centre(), tagInk)
		c.used(symTag)
	}
}

func unitSpec(sc *engine.Scenario, id string) *engine.UnitSpec {
	for i := range sc.Units {
		if sc.Units[i].ID == id {
			return &sc.Units[i]
		}
	}
	return nil
}
