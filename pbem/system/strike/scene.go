package strike

import (
	"fmt"
	"math"

	"herald/engine/strike/battle"
	"herald/engine/strike/table"
	"herald/mapimg/tabletop"
)

var areaKind = map[table.Terrain]string{
	table.Open: "open", table.Obstacle: "obstacle", table.HigherGround: "higher ground", table.GentleSlope: "gentle slope",
}

func vec(v table.Vec) tabletop.Vec { return tabletop.Vec{X: v.X, Y: v.Y} }

// SceneOf is what the table picture shows after events brought before to
// after (before nil for the opening): the table and its areas, each unit
// on the table with the stands it has left, its facing, status and
// Personality, and marks for the block's moves, charges, retreats and
// shots, with the arc and range of each unit that shot.
func SceneOf(b *battle.Battle, before, after *battle.State, events [][]byte) (tabletop.Scene, error) {
	sc := tabletop.Scene{
		Title:  fmt.Sprintf("%s, turn %d", b.Title, after.Turn),
		Width:  b.Table.Width,
		Height: b.Table.Height,
		Sides:  b.Sides,
	}
	if after.Over {
		sc.Title = fmt.Sprintf("%s, the end", b.Title)
	}
	for _, a := range b.Table.Areas {
		ar := tabletop.Area{Kind: areaKind[a.Terrain], Name: a.Name}
		for _, v := range a.Shape {
			ar.Shape = append(ar.Shape, vec(v))
		}
		sc.Areas = append(sc.Areas, ar)
	}
	acted := map[string]bool{}
	var marks []tabletop.Mark
	// where a unit stood as the events went, for shots
	st := after
	if before != nil {
		st = before.Clone()
	}
	for i, raw := range events {
		e, err := battle.DecodeEvent(raw)
		if err != nil {
			return sc, fmt.Errorf("event %d: %w", i+1, err)
		}
		switch d := e.Data.(type) {
		case *battle.MovedEvent:
			acted[d.Unit] = true
			kind := "move"
			switch d.Order {
			case battle.MoveCharge, battle.MoveCounter:
				kind = "charge"
			case battle.MoveRetreat, battle.MoveFallBack, battle.MoveRetire:
				kind = "retreat"
			}
			m := tabletop.Mark{Kind: kind, Side: b.Units[b.Index(d.Unit)].Side}
			for _, p := range d.Path {
				m.Path = append(m.Path, vec(p))
			}
			if d.Inches > 0 && d.Order != battle.MoveTurn {
				m.Label = inch(d.Inches) + "\""
			}
			marks = append(marks, m)
		case *battle.VolleyEvent:
			acted[d.Shooter], acted[d.Target] = true, true
			si, ti := b.Index(d.Shooter), b.Index(d.Target)
			sf, tf := st.Footprint(b, si), st.Footprint(b, ti)
			p, q := closest(sf.Outline(), tf.Outline())
			if p.Sub(q).Len() < 0.05 {
				// Touching (fire at a charger at contact): from the
				// shooter's front to the target's centre instead.
				p, q = sf.Pos, table.Centre(tf.Outline())
			}
			marks = append(marks, tabletop.Mark{Kind: "shot", Side: b.Units[si].Side, Path: []tabletop.Vec{vec(p), vec(q)},
				Label: plural(d.Strikes, "strike", "strikes")})
			marks = append(marks, arcAndRange(b, sf, si)...)
		case *battle.MeleeEvent:
			acted[d.Attacker.Unit], acted[d.Defender.Unit] = true, true
		case *battle.RemovedEvent:
			acted[d.Unit] = true
		}
		if before != nil {
			if err := st.Apply(b, e); err != nil {
				return sc, fmt.Errorf("event %d: %w", i+1, err)
			}
		}
	}
	for i, u := range after.Units {
		if !u.On() {
			continue
		}
		sp := b.Units[i]
		fp := after.Footprint(b, i)
		tu := tabletop.Unit{ID: u.ID, Name: sp.Name, Side: u.Side, Front: vec(u.Pos), Facing: u.Facing, Highlight: acted[u.ID]}
		for k, s := range fp.Stands() {
			if k >= u.Stands {
				break
			}
			poly := fp.StandPoly(s)
			tu.Stands = append(tu.Stands, [4]tabletop.Vec{vec(poly[0]), vec(poly[1]), vec(poly[2]), vec(poly[3])})
		}
		if u.Disordered {
			tu.Status = append(tu.Status, "disordered")
		}
		if u.FiguresLost > 0 {
			tu.Status = append(tu.Status, plural(u.FiguresLost, "figure lost", "figures lost"))
		}
		if p := u.Personality; p != nil && !p.Lost() {
			tu.Personality = p.Name
			if p.Wounded {
				tu.Personality += " (wounded)"
			}
		}
		sc.Units = append(sc.Units, tu)
	}
	sc.Marks = marks
	return sc, nil
}

// arcAndRange are the marks of a shooter's arc of fire (ARC OF FIRE: its
// lines from the corners of its front, R506) out to its longest range,
// and of that range.
func arcAndRange(b *battle.Battle, f table.Unit, i int) []tabletop.Mark {
	sp := b.Units[i]
	w := b.Tables.WeaponOf(sp.Type)
	if w == nil {
		return nil
	}
	r := math.Max(w.Effective, w.Distant)
	half := b.Tables.Arcs[sp.Type.Arc]
	m := []tabletop.Mark{{Kind: "range", Side: sp.Side, Path: []tabletop.Vec{vec(f.Pos), vec(f.Pos.Add(f.Forward().Scale(r)))}, Label: inch(r) + "\""}}
	if half >= table.AllRound {
		return m
	}
	l, rt := f.World(table.Vec{X: -f.Frontage() / 2}), f.World(table.Vec{X: f.Frontage() / 2})
	arc := tabletop.Mark{Kind: "arc", Side: sp.Side, Path: []tabletop.Vec{
		vec(l), vec(l.Add(table.Heading(f.Facing - half).Scale(r))), vec(rt.Add(table.Heading(f.Facing + half).Scale(r))), vec(rt),
	}}
	return append(m, arc)
}

// closest are the closest points of two convex polygons.
func closest(a, b table.Polygon) (table.Vec, table.Vec) {
	best := math.Inf(1)
	var p, q table.Vec
	try := func(x table.Vec, poly table.Polygon, flip bool) {
		for k := range poly {
			s, t := poly[k], poly[(k+1)%len(poly)]
			d := t.Sub(s)
			u := 0.0
			if l := d.Dot(d); l > 0 {
				u = math.Max(0, math.Min(1, x.Sub(s).Dot(d)/l))
			}
			y := s.Add(d.Scale(u))
			if dist := x.Dist(y); dist < best {
				best = dist
				if flip {
					p, q = y, x
				} else {
					p, q = x, y
				}
			}
		}
	}
	for _, x := range a {
		try(x, b, false)
	}
	for _, x := range b {
		try(x, a, true)
	}
	return p, q
}
