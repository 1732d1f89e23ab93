package battle

import (
	"fmt"
	"math"
	"sort"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// Rules headings the refusals and events cite.
const (
	RuleCharge       = "1. DECLARE CHARGES and ADVANCE 1 MOVE"
	RuleRestrictions = "CHARGE RESTRICTIONS"
	RuleChargeMove   = "CHARGE MOVEMENT and BONUS"
	RuleEligible     = "STANDS ELIGIBLE TO SHOOT"
	RuleSplit        = "SPLITTING FIRE"
	RuleMovement     = "HOUSE MOVEMENT (R543)"
	RuleSequence     = "HOUSE TURN SEQUENCE (R542)"
)

// NotApplied is a line of a block not carried out: it became illegal
// after a die had been rolled in the block.
type NotApplied struct {
	Line   int
	Reason string
	Rule   string
}

// Outcome is what a block did.
type Outcome struct {
	State      *State
	Events     []Event
	NotApplied []NotApplied
}

// play is one block being applied.
type play struct {
	b      *Battle
	st     *State
	side   int
	d      *countDice
	events []Event
	melees []pendingMelee
}

type pendingMelee struct {
	att, def   int
	counter    bool // the defender counter-charged
	attCounter bool // the attacker is a counter-charger in support (R557)
}

// countDice remembers whether a die has been rolled in the block.
type countDice struct {
	d      strike.Dice
	rolled bool
}

func (c *countDice) Roll20(why string) (int, error) {
	c.rolled = true
	return c.d.Roll20(why)
}

func (c *countDice) Card(why string) (strike.Card, error) {
	c.rolled = true
	return c.d.Card(why)
}

func (p *play) emit(name string, data any) {
	e := Event{Name: name, Data: data}
	if err := p.st.Apply(p.b, e); err != nil {
		panic(fmt.Sprintf("strike: an event Play built does not apply: %v", err))
	}
	p.events = append(p.events, e)
}

// Apply applies side's block of order lines to st under the dice (the
// house turn sequence, R542): the lines' charges, then their movement,
// then their shooting, each in the order written; then the melees of the
// charges that made contact, in the same order; then the block ends and
// the victory condition is checked. st is not changed. A line that is
// illegal before any die has been rolled refuses the whole block
// (*Refusal); once a die has been rolled, an illegal line is not applied
// and the block goes on.
func Apply(b *Battle, st *State, side int, lines []Line, d strike.Dice) (*Outcome, error) {
	if st.Over {
		return nil, &Refusal{Rule: RuleSequence, Reason: "the game is over: " + st.Result}
	}
	if side != st.Side {
		return nil, &Refusal{Rule: RuleSequence, Reason: fmt.Sprintf("it is the block of the %s, not of the %s", b.Sides[st.Side], b.Sides[side])}
	}
	var orders []Order
	for i, l := range lines {
		o, r := Parse(b, side, l)
		if r != nil {
			return nil, r
		}
		if o.Kind == OrdEnd {
			if i != len(lines)-1 {
				return nil, &Refusal{Line: l.No, Rule: Syntax, Reason: "END must be the last line of the block"}
			}
			continue
		}
		orders = append(orders, o)
	}
	sort.SliceStable(orders, func(i, j int) bool { return phase(orders[i].Kind) < phase(orders[j].Kind) })
	p := &play{b: b, st: st.Clone(), side: side, d: &countDice{d: d}}
	out := &Outcome{}
	for _, o := range orders {
		var r *Refusal
		var err error
		switch o.Kind {
		case OrdMove, OrdWheel, OrdTurn:
			r = p.move(o)
		case OrdCharge:
			r, err = p.charge(o)
		case OrdShoot:
			r, err = p.shoot(o)
		}
		if err != nil {
			return nil, err
		}
		if r != nil {
			if !p.d.rolled {
				return nil, r
			}
			out.NotApplied = append(out.NotApplied, NotApplied{Line: r.Line, Reason: r.Reason, Rule: r.Rule})
		}
	}
	fought := map[int]bool{}
	for _, m := range p.melees {
		if err := p.melee(m); err != nil {
			return nil, err
		}
		fought[m.att], fought[m.def] = true, true
	}
	// A melee goes on while the units stay in contact: each of the
	// side's units still touching an enemy it has not fought this block
	// attacks it (R549).
	for i := range p.st.Units {
		if p.st.Units[i].Side != side || !p.st.Units[i].On() || fought[i] {
			continue
		}
		for _, j := range p.inContact(i) {
			if fought[j] || !p.st.Units[i].On() {
				continue
			}
			if err := p.melee(pendingMelee{att: i, def: j}); err != nil {
				return nil, err
			}
			fought[i], fought[j] = true, true
			break
		}
	}
	p.rally(fought)
	p.endBlock()
	out.State, out.Events = p.st, p.events
	return out, nil
}

// ---- the unit being ordered

func (p *play) fp(i int) table.Unit  { return p.st.Footprint(p.b, i) }
func (p *play) id(i int) string      { return p.b.Units[i].ID }
func (p *play) spec(i int) *UnitSpec { return &p.b.Units[i] }
func (p *play) unit(i int) *Unit     { return &p.st.Units[i] }
func (p *play) move_(i int) float64  { return p.b.Units[i].Type.Move }
func refuse(o Order, rule, format string, args ...any) *Refusal {
	return &Refusal{Line: o.Line.No, Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// inContact lists the enemy units touching unit i.
func (p *play) inContact(i int) []int {
	var out []int
	a := p.fp(i).Outline()
	for j := range p.st.Units {
		if j != i && p.st.Units[j].On() && p.st.Units[j].Side != p.st.Units[i].Side && table.Distance(a, p.fp(j).Outline()) <= 1e-6 {
			out = append(out, j)
		}
	}
	return out
}

// ready checks that unit i may be given an order this block.
func (p *play) ready(o Order, i int) *Refusal {
	u := p.unit(i)
	if !u.On() {
		return refuse(o, RuleSequence, "%s is no longer on the table (%s)", p.id(i), u.Gone)
	}
	return nil
}

// blocked says what, if anything, a unit i at footprint f (sweeping
// sweep) runs into: a friend it would overlap, an enemy it would touch
// (only a charge contacts an enemy, R543), or the table's edge.
func (p *play) blocked(i int, f table.Unit, sweep table.Polygon, ignore int) string {
	if !onTable(p.b, f.Outline()) || !onTable(p.b, sweep) {
		return "the table's edge"
	}
	for j := range p.st.Units {
		v := &p.st.Units[j]
		if j == i || j == ignore || !v.On() {
			continue
		}
		o := p.fp(j).Outline()
		if v.Side == p.st.Units[i].Side {
			if overlap(sweep, o) {
				return p.id(j)
			}
		} else if overlap(sweep, o) || (table.Intersects(f.Outline(), o) && !table.Intersects(p.fp(i).Outline(), o)) {
			return p.id(j)
		}
	}
	return ""
}

// straight is unit i's footprint moved d inches along dir, facing kept.
func (p *play) straight(i int, dir table.Vec, d float64) table.Unit {
	f := p.fp(i)
	f.Pos = f.Pos.Add(dir.Scale(d))
	return f
}

// freeAlong is how far, up to want, unit i can move along dir before it
// runs into something (blocked).
func (p *play) freeAlong(i int, dir table.Vec, want float64, ignore int) float64 {
	start := p.fp(i)
	ok := func(d float64) bool {
		f := p.straight(i, dir, d)
		return p.blocked(i, f, swept(start, f), ignore) == ""
	}
	if ok(want) {
		return want
	}
	lo, hi := 0.0, want
	for k := 0; k < 40; k++ {
		m := (lo + hi) / 2
		if ok(m) {
			lo = m
		} else {
			hi = m
		}
	}
	return math.Floor(lo*100) / 100
}

// MaxForward is how far unit i could MOVE forward now: its MOVE left,
// shortened by what is in the way.
func MaxForward(b *Battle, st *State, i int) float64 {
	p := &play{b: b, st: st}
	left := b.Units[i].Type.Move - st.Units[i].Moved
	if left <= 0 || st.Units[i].Charged > 0 || len(p.inContact(i)) > 0 {
		return 0
	}
	return p.freeAlong(i, p.fp(i).Forward(), left, -1)
}

// rotate turns point q about c by deg compass degrees (clockwise).
func rotate(q, c table.Vec, deg float64) table.Vec {
	r := deg * math.Pi / 180
	d := q.Sub(c)
	s, k := math.Sin(r), math.Cos(r)
	return c.Add(table.Vec{X: d.X*k + d.Y*s, Y: -d.X*s + d.Y*k})
}

// pivoted is f turned by deg about point c.
func pivoted(f table.Unit, c table.Vec, deg float64) table.Unit {
	f.Pos = rotate(f.Pos, c, deg)
	f.Facing = norm(f.Facing + deg)
	return f
}

// sweepTurn checks a rotation of unit i about c by deg in 5° steps.
func (p *play) sweepTurn(i int, c table.Vec, deg float64) (table.Unit, string) {
	f0 := p.fp(i)
	steps := int(math.Ceil(math.Abs(deg)/5)) + 1
	var f table.Unit
	for k := 1; k <= steps; k++ {
		f = pivoted(f0, c, deg*float64(k)/float64(steps))
		if what := p.blocked(i, f, f.Outline(), -1); what != "" {
			return f, what
		}
	}
	return f, ""
}

// move carries out MOVE, WHEEL and TURN (HOUSE MOVEMENT, R543): a unit
// that charged this block or is in contact with an enemy may not move;
// forward inches cost their length, backward inches movement.back_cost
// times theirs ("NOT halved as 'non-forward movement is'", B. RETREAT
// AFTER MELEE), a wheel the arc of its outer front corner, a turn
// movement.turn_cost of its MOVE; it may not
// pass through a friend, touch an enemy, or leave the table.
func (p *play) move(o Order) *Refusal {
	i := o.Unit
	if r := p.ready(o, i); r != nil {
		return r
	}
	u, sp := p.unit(i), p.spec(i)
	if u.Charged > 0 {
		return refuse(o, "THIS ENDS A MELEE", "%s charged this block and is halted", sp.ID)
	}
	if c := p.inContact(i); len(c) > 0 {
		return refuse(o, RuleMovement, "%s is in contact with %s and may not move away but by a retreat", sp.ID, p.id(c[0]))
	}
	left := sp.Type.Move - u.Moved
	f0 := p.fp(i)
	switch o.Kind {
	case OrdMove:
		cost := o.Inches
		dir := f0.Forward()
		back := p.b.Tables.Movement.BackCost
		if o.Back {
			cost, dir = back*o.Inches, dir.Scale(-1)
		}
		if cost > left+table.Eps {
			r := refuse(o, RuleMovement, "%s may move at most %s\" (its MOVE is %g\", %g\" used)", sp.ID, inch(left), sp.Type.Move, u.Moved)
			if o.Back {
				r.Reason = fmt.Sprintf("%s may move back at most %s\" (each inch back costs %g of its %s\" left)", sp.ID, inch(left/back), back, inch(left))
				r.Legal = []string{fmt.Sprintf("MOVE %s BACK %s", sp.ID, inch(left/back))}
			} else {
				r.Legal = []string{fmt.Sprintf("MOVE %s %s", sp.ID, inch(left))}
			}
			return r
		}
		f := p.straight(i, dir, o.Inches)
		if what := p.blocked(i, f, swept(f0, f), -1); what != "" {
			free := p.freeAlong(i, dir, o.Inches, -1)
			r := refuse(o, RuleMovement, "%s would run into %s: it may move %s\" that way", sp.ID, what, inch(free))
			if free > 0 {
				back := ""
				if o.Back {
					back = "BACK "
				}
				r.Legal = []string{fmt.Sprintf("MOVE %s %s%s", sp.ID, back, inch(free))}
			}
			return r
		}
		ord := MoveForward
		if o.Back {
			ord = MoveBack
		}
		p.emit(EvMoved, &MovedEvent{Unit: sp.ID, Order: ord, Inches: cost, Path: []table.Vec{f0.Pos, f.Pos}, Pos: f.Pos, Facing: f.Facing})
	case OrdWheel:
		deg, pivot := o.Degrees, f0.World(table.Vec{X: f0.Frontage() / 2})
		if o.Dir == "LEFT" {
			deg, pivot = -deg, f0.World(table.Vec{X: -f0.Frontage() / 2})
		}
		cost := f0.Frontage() * o.Degrees * math.Pi / 180
		if cost > left+table.Eps {
			most := math.Floor(left / f0.Frontage() * 180 / math.Pi) // whole degrees
			r := refuse(o, RuleMovement, "%s may wheel at most %g° (its outer corner travels %s\" for %g°, %s\" of its MOVE left)", sp.ID, most, inch(cost), o.Degrees, inch(left))
			if most > 0 {
				r.Legal = []string{fmt.Sprintf("WHEEL %s %s %g", sp.ID, o.Dir, most)}
			}
			return r
		}
		f, what := p.sweepTurn(i, pivot, deg)
		if what != "" {
			return refuse(o, RuleMovement, "%s would wheel into %s", sp.ID, what)
		}
		p.emit(EvMoved, &MovedEvent{Unit: sp.ID, Order: MoveWheel, Inches: cost, Path: []table.Vec{f0.Pos, f.Pos}, Pos: f.Pos, Facing: f.Facing})
	case OrdTurn:
		cost := sp.Type.Move * p.b.Tables.Movement.TurnCost
		if cost > left+table.Eps {
			return refuse(o, RuleMovement, "%s has %s\" of its MOVE left; a turn costs %s\"", sp.ID, inch(left), inch(cost))
		}
		deg := map[string]float64{"LEFT": -90, "RIGHT": 90, "ABOUT": 180}[o.Dir]
		c := f0.World(table.Vec{Y: -f0.Depth() / 2})
		f, what := p.sweepTurn(i, c, deg)
		if what != "" {
			return refuse(o, RuleMovement, "%s would turn into %s", sp.ID, what)
		}
		p.emit(EvMoved, &MovedEvent{Unit: sp.ID, Order: MoveTurn, Inches: cost, Path: []table.Vec{f0.Pos, f.Pos}, Pos: f.Pos, Facing: f.Facing})
	}
	return nil
}

// inch formats a distance for a player: at most two decimals.
func inch(v float64) string {
	return fmt.Sprint(math.Floor(v*100+1e-6) / 100)
}

// rally is Herald's house rally (R550): at the end of its side's block, a
// disordered unit of that side that did not move, charge, shoot or fight
// in the block and touches no enemy is in good order again.
func (p *play) rally(fought map[int]bool) {
	for i := range p.st.Units {
		u := p.unit(i)
		if u.Side != p.side || !u.On() || !u.Disordered || fought[i] || u.Moved > 0 || u.Charged > 0 || u.Fired || len(p.inContact(i)) > 0 {
			continue
		}
		if p.movedThisBlock(i) {
			continue
		}
		st := Status{Stands: u.Stands, FiguresLost: u.FiguresLost}
		p.emit(EvStatus, &StatusEvent{Unit: u.ID, Why: "rallies: it stood still this block and touches no enemy (R550)", After: st})
	}
}

// movedThisBlock reports any move of unit i in the block's events
// (retreats and falls back included).
func (p *play) movedThisBlock(i int) bool {
	for _, e := range p.events {
		if m, ok := e.Data.(*MovedEvent); ok && m.Unit == p.id(i) {
			return true
		}
	}
	return false
}
