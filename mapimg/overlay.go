package mapimg

import (
	"image/color"
	"strings"

	"herald/engine"
	"herald/engine/hex"
)

// MarkKind is what an overlay mark shows.
type MarkKind int

const (
	MarkActive MarkKind = iota // a counter of the Command or Standard that acted
	MarkPath                   // a move, along Hexes in order
	MarkFire                   // missile fire, from Hexes[0] to Hexes[1]
	MarkResult                 // a result, written at Hexes[0]
	MarkShock                  // a Shock or Charge attack, from Hexes[0] to Hexes[1]
)

// Mark is one thing the last order block did, drawn over the map.
type Mark struct {
	Kind  MarkKind
	Hexes []hex.Hex
	Label string
}

// Marks turns a block's events into overlay marks: the counters of the
// Command that acted, the moves, Charges, Advances and attacks, and the
// results where they happened. before is the state the events started
// from, after where they led; units are followed hex by hex in between.
func Marks(sc *engine.Scenario, before, after *engine.State, events []engine.Event) []Mark {
	var out []Mark
	standards := map[string]hex.Hex{}
	for i, s := range sc.Standards {
		standards[s.ID] = before.Standards[i].Hex
	}
	at := map[string]hex.Hex{}
	for _, u := range before.Units {
		at[u.ID] = u.Hex
	}
	path := func(id string, hexes ...hex.Hex) Mark {
		m := Mark{Kind: MarkPath, Hexes: append([]hex.Hex{at[id]}, hexes...), Label: id}
		at[id] = hexes[len(hexes)-1]
		return m
	}
	for _, e := range events {
		switch e := e.(type) {
		case engine.ChargeMade:
			if len(e.Path) > 0 {
				out = append(out, path(e.Unit, e.Path...))
			}
		case engine.UnitAdvanced:
			out = append(out, path(e.Unit, e.To))
		case engine.RetreatedBeforeShock:
			out = append(out, path(e.Unit, e.To), Mark{Kind: MarkResult, Hexes: []hex.Hex{e.To}, Label: "retreats before shock"})
		case engine.AttackResolved:
			for _, a := range e.Attackers {
				out = append(out, Mark{Kind: MarkShock, Hexes: []hex.Hex{at[a], at[e.Defender]}, Label: e.Result})
			}
		case engine.UnitUnhorsed:
			out = append(out, Mark{Kind: MarkResult, Hexes: []hex.Hex{at[e.Unit]}, Label: "unhorsed"})
		case engine.StandardCaptured:
			out = append(out, Mark{Kind: MarkResult, Hexes: []hex.Hex{e.At}, Label: "standard captured"})
		case engine.CommandActivated:
			for i, u := range sc.Units {
				if u.Command == e.Command && !after.Units[i].OffMap && after.Units[i].Status != engine.Eliminated {
					out = append(out, Mark{Kind: MarkActive, Hexes: []hex.Hex{after.Units[i].Hex}})
				}
			}
		case engine.UnitMoved:
			if len(e.Path) > 0 {
				start := []hex.Hex{}
				if u := before.Unit(e.Unit); u != nil && !u.OffMap {
					start = append(start, u.Hex)
				}
				out = append(out, Mark{Kind: MarkPath, Hexes: append(start, e.Path...), Label: e.Unit})
				at[e.Unit] = e.Path[len(e.Path)-1]
			}
		case engine.PassedThrough:
			if e.Result != engine.Normal {
				if u := after.Unit(e.Through); u != nil {
					out = append(out, Mark{Kind: MarkResult, Hexes: []hex.Hex{u.Hex}, Label: strings.ToLower(e.Result.String())})
				}
			}
		case engine.UnitFired:
			out = append(out, Mark{Kind: MarkFire, Hexes: []hex.Hex{at[e.Unit], at[e.Target]}, Label: e.Result})
		case engine.UnitDisordered:
			out = append(out, resultAt(before, after, e.Unit, "disordered"))
		case engine.UnitRetreated:
			out = append(out, path(e.Unit, e.Path...), resultAt(before, after, e.Unit, "retreats"))
		case engine.UnitRetired:
			out = append(out, resultAt(before, before, e.Unit, "retired"))
		case engine.UnitEliminated:
			out = append(out, resultAt(before, before, e.Unit, "eliminated"))
		case engine.StandardMoved:
			out = append(out, Mark{Kind: MarkPath, Hexes: []hex.Hex{standards[e.Standard], e.To}})
			standards[e.Standard] = e.To
		case engine.UnitRallied:
			if u := after.Unit(e.Unit); u != nil {
				out = append(out, Mark{Kind: MarkResult, Hexes: []hex.Hex{u.Hex}, Label: "rallied"})
			}
		case engine.StandardLeftUnit:
			if u := before.Unit(e.Unit); u != nil && e.Eliminated {
				out = append(out, Mark{Kind: MarkResult, Hexes: []hex.Hex{u.Hex}, Label: "eliminated"})
			}
		}
	}
	return out
}

// resultAt is a result written where the unit stands in st (or in
// fallback, when it has left the map).
func resultAt(fallback, st *engine.State, id, label string) Mark {
	u := st.Unit(id)
	if u == nil || u.OffMap || u.Status == engine.Eliminated {
		u = fallback.Unit(id)
	}
	return Mark{Kind: MarkResult, Hexes: []hex.Hex{u.Hex}, Label: label}
}

// drawMarks draws the overlay: highlights first, then paths and fire,
// then results on top.
func drawMarks(c *canvas, l *layout, marks []Mark, fs *faces) {
	for _, m := range marks {
		if m.Kind == MarkActive && len(m.Hexes) > 0 && l.inWindow(m.Hexes[0]) {
			c.outline(l.corners(m.Hexes[0], 0.9), l.size*0.09, rgb(0xf5b400))
		}
	}
	for _, m := range marks {
		switch {
		case m.Kind == MarkPath && len(m.Hexes) > 1:
			arrow(c, l, m.Hexes, rgb(0x5b2a86), false)
		case m.Kind == MarkFire && len(m.Hexes) > 1:
			arrow(c, l, m.Hexes[:2], rgb(0xd0211c), true)
		case m.Kind == MarkShock && len(m.Hexes) > 1:
			arrow(c, l, m.Hexes[:2], rgb(0x1f1f1f), false)
		}
	}
	for _, m := range marks {
		if m.Kind == MarkResult && len(m.Hexes) > 0 && l.inWindow(m.Hexes[0]) {
			drawMarker(c, l.centre(m.Hexes[0]).add(pt{0, -l.size * 0.62}), m.Label, fs, rgb(0xfff3c4), rgb(0xb3342a))
		}
	}
}

// arrow draws a line through the hex centres with a head at the end,
// dashed for fire.
func arrow(c *canvas, l *layout, hexes []hex.Hex, col color.RGBA, dashed bool) {
	ps := make([]pt, len(hexes))
	for i, h := range hexes {
		ps[i] = l.centre(h)
	}
	w := l.size * 0.1
	end, prev := ps[len(ps)-1], ps[len(ps)-2]
	d := end.sub(prev)
	if d.len() == 0 {
		return
	}
	d = d.scale(1 / d.len())
	tip := end.sub(d.scale(l.size * 0.25))
	base := tip.sub(d.scale(l.size * 0.4))
	ps[len(ps)-1] = base
	if dashed {
		for i := 1; i < len(ps); i++ {
			c.dashed(ps[i-1], ps[i], w, l.size*0.2, col)
		}
	} else {
		c.polyline(ps, w, col)
	}
	n := pt{-d.Y, d.X}.scale(l.size * 0.2)
	c.fill([]pt{tip, base.add(n), base.sub(n)}, col)
}
