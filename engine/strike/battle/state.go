package battle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// State is one position of a game: the units as they stand, whose block
// it is, and how the game ended. Its JSON (Encode) is canonical: fields in
// a fixed order, floats in Go's shortest exact form, units in the
// battle's order.
type State struct {
	Turn   int    `json:"turn"`   // 1, 2, ...
	Side   int    `json:"side"`   // whose block the game waits for
	Blocks int    `json:"blocks"` // blocks applied
	Units  []Unit `json:"units"`
	Over   bool   `json:"over"`
	Winner int    `json:"winner"` // -1 for none or a draw
	Result string `json:"result,omitempty"`
}

// Unit is one unit's state. Its troop type, quality and stand size are
// the battle's (UnitSpec).
type Unit struct {
	ID          string       `json:"id"`
	Side        int          `json:"side"`
	Stands      int          `json:"stands"`
	FiguresLost int          `json:"figures_lost"`
	Disordered  bool         `json:"disordered"`
	Gone        string       `json:"gone,omitempty"` // "destroyed", "routed": off the table
	Pos         table.Vec    `json:"pos"`
	Facing      float64      `json:"facing"`
	Files       int          `json:"files"`
	Ranks       int          `json:"ranks"`
	Personality *Personality `json:"personality,omitempty"`
	// This block's flags, cleared when a block ends.
	Moved   float64 `json:"moved"`   // inches of its MOVE used by MOVE, WHEEL and TURN orders
	Charged float64 `json:"charged"` // inches charged or counter-charged
	Fired   bool    `json:"fired"`
}

// Personality is an attached Personality's state.
type Personality struct {
	Name     string `json:"name"`
	SR       int    `json:"sr"`
	Warlord  bool   `json:"warlord,omitempty"`
	Wounded  bool   `json:"wounded,omitempty"`
	Captured bool   `json:"captured,omitempty"`
	Killed   bool   `json:"killed,omitempty"`
}

// Lost reports a Personality out of the battle.
func (p *Personality) Lost() bool { return p != nil && (p.Killed || p.Captured) }

// On reports whether the unit is on the table.
func (u *Unit) On() bool { return u.Gone == "" && u.Stands > 0 }

// Encode is the state's canonical JSON.
func (s *State) Encode() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a State holds only numbers, strings and bools
	}
	return b
}

// Decode reads a state Encode wrote for battle b, checking that it
// belongs to b.
func Decode(b *Battle, data []byte) (*State, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s State
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("strike state: %w", err)
	}
	if len(s.Units) != len(b.Units) {
		return nil, fmt.Errorf("strike state: %d units, battle %s has %d", len(s.Units), b.ID, len(b.Units))
	}
	for i, u := range s.Units {
		if u.ID != b.Units[i].ID || u.Side != b.Units[i].Side {
			return nil, fmt.Errorf("strike state: unit %d is %s of side %d, battle %s has %s", i, u.ID, u.Side, b.ID, b.Units[i].ID)
		}
		switch {
		case u.Files < 1 || u.Ranks < 1 || u.Stands < 0 || u.Stands > u.Files*u.Ranks:
			return nil, fmt.Errorf("strike state: %s has %d stands in %d×%d", u.ID, u.Stands, u.Files, u.Ranks)
		case u.FiguresLost < 0 || u.Moved < 0 || u.Charged < 0:
			return nil, fmt.Errorf("strike state: %s has negative counts", u.ID)
		case (u.Personality == nil) != (b.Units[i].Personality == nil):
			return nil, fmt.Errorf("strike state: %s's Personality does not match the battle's", u.ID)
		}
	}
	if s.Side != 0 && s.Side != 1 || s.Turn < 1 || s.Blocks < 0 || s.Winner < -1 || s.Winner > 1 {
		return nil, fmt.Errorf("strike state: side %d, turn %d, block %d, winner %d", s.Side, s.Turn, s.Blocks, s.Winner)
	}
	return &s, nil
}

// Clone is a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Units = append([]Unit(nil), s.Units...)
	for i := range c.Units {
		if p := c.Units[i].Personality; p != nil {
			cp := *p
			c.Units[i].Personality = &cp
		}
	}
	return &c
}

// Footprint is unit i's stands on the table. Stands lost come off the
// rear: the unit keeps its files while it has as many stands, its ranks
// being as many as its stands fill (R548).
func (s *State) Footprint(b *Battle, i int) table.Unit {
	u, sp := s.Units[i], b.Units[i]
	return table.Unit{Pos: u.Pos, Facing: u.Facing, Files: u.Files, Ranks: u.Ranks, StandWidth: sp.StandWidth, StandDepth: sp.StandDepth}
}

// reform sets files and ranks for the stands left (R548).
func reform(u *Unit) {
	if u.Stands <= 0 {
		return
	}
	if u.Stands < u.Files {
		u.Files = u.Stands
	}
	u.Ranks = (u.Stands + u.Files - 1) / u.Files
}

// Core is unit i as the rules core sees it: a fresh strike.Unit the core
// may change; the caller turns the changes into events.
func (s *State) Core(b *Battle, i int) *strike.Unit {
	u, sp := s.Units[i], b.Units[i]
	c := &strike.Unit{Name: sp.ID + " " + sp.Name, Type: sp.Type, Superior: sp.Superior, Trained: sp.Trained,
		Stands: u.Stands, FiguresLost: u.FiguresLost, Disordered: u.Disordered}
	if p := u.Personality; p != nil && !p.Lost() {
		c.Personality = &strike.Personality{Name: p.Name, SR: p.SR, Wounded: p.Wounded}
	}
	return c
}

// Status is what combat changes of a unit.
type Status struct {
	Stands      int  `json:"stands"`
	FiguresLost int  `json:"figures_lost"`
	Disordered  bool `json:"disordered"`
}

func statusOf(c *strike.Unit) Status {
	return Status{Stands: max(c.Stands, 0), FiguresLost: c.FiguresLost, Disordered: c.Disordered}
}

// Stands counts a side's stands on the table.
func (s *State) Stands(side int) int {
	n := 0
	for _, u := range s.Units {
		if u.Side == side && u.On() {
			n += u.Stands
		}
	}
	return n
}

// geometry helpers

func onTable(b *Battle, p table.Polygon) bool {
	for _, v := range p {
		if !b.Table.OnTable(v) {
			return false
		}
	}
	return true
}

// overlap reports two footprints sharing more than an edge: touching is
// allowed (units side by side, units in contact).
func overlap(a, b table.Polygon) bool { return table.Intersects(shrink(a, 1e-6), b) }

func shrink(p table.Polygon, by float64) table.Polygon {
	c := table.Centre(p)
	out := make(table.Polygon, len(p))
	for i, v := range p {
		d := v.Sub(c)
		l := d.Len()
		if l <= by {
			out[i] = c
			continue
		}
		out[i] = c.Add(d.Scale((l - by) / l))
	}
	return out
}

// hull is the convex hull of points (monotone chain), for the ground a
// straight move sweeps.
func hull(pts []table.Vec) table.Polygon {
	ps := append([]table.Vec(nil), pts...)
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && (ps[j].X < ps[j-1].X || (ps[j].X == ps[j-1].X && ps[j].Y < ps[j-1].Y)); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	cross := func(o, a, b table.Vec) float64 { return a.Sub(o).Cross(b.Sub(o)) }
	var lo, hi []table.Vec
	for _, p := range ps {
		for len(lo) >= 2 && cross(lo[len(lo)-2], lo[len(lo)-1], p) <= 0 {
			lo = lo[:len(lo)-1]
		}
		lo = append(lo, p)
	}
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		for len(hi) >= 2 && cross(hi[len(hi)-2], hi[len(hi)-1], p) <= 0 {
			hi = hi[:len(hi)-1]
		}
		hi = append(hi, p)
	}
	return table.Polygon(append(lo[:len(lo)-1], hi[:len(hi)-1]...))
}

// swept is the ground a footprint covers moving in a straight line.
func swept(a, b table.Unit) table.Polygon {
	return hull(append(append([]table.Vec{}, a.Outline()...), b.Outline()...))
}

// norm keeps a bearing in [0, 360).
func norm(deg float64) float64 {
	d := math.Mod(deg, 360)
	if d < 0 {
		d += 360
	}
	if math.Abs(d-math.Round(d)) < 1e-9 {
		d = math.Round(d)
	}
	if d == 360 {
		d = 0
	}
	return d
}

// bearing is the compass bearing from a to b.
func bearing(a, b table.Vec) float64 {
	d := b.Sub(a)
	return norm(math.Atan2(d.X, d.Y) * 180 / math.Pi)
}
