package engine

import (
	"fmt"
	"strings"

	"herald/engine/hex"
)

// 10.5 Advance after Combat leaves the attacker three choices: which of
// his units advances when the priorities (charging, mounted,
// non-Disordered) leave a tie — the book's example has "The English player
// chooses unit Z" —, which hex when one attacker vacated two, and the
// facing of a unit that advances without a Continued Attack ("may change
// its facing as it wishes after such advance"). By default Herald chooses
// (ruling R75: by unit id, the first defender's hex, facing kept); with
// STANDING ADVANCE AFTER COMBAT ASK the Shock Phase stops and waits for the
// attacker's ADVANCE order, as it does for a retreat (ruling R73).

// AdvanceOption is one unit that may advance into one vacated hex.
type AdvanceOption struct {
	Unit string  `json:"unit"`
	Hex  hex.Hex `json:"hex"`
}

// PendingAdvance is an Advance after Combat waiting for the attacker.
type PendingAdvance struct {
	Options []AdvanceOption `json:"options"`
	// ContinuedAttack: the unit that advances makes the Continued Attack
	// and may not change its facing (10.5, 12.7).
	ContinuedAttack bool `json:"continued_attack,omitempty"`
	// Resume is the decision the game goes back to once the unit advanced.
	Resume Decision `json:"resume"`
}

func (p PendingAdvance) clone() PendingAdvance {
	c := p
	c.Options = append([]AdvanceOption(nil), p.Options...)
	return c
}

// advanceOptions are the units that may advance into each hex of from
// their defenders vacated, in the order Herald's default takes them: for
// each hex, the eligible attackers of the first 10.5 priority found among
// them (unit id order within it).
func (g *game) advanceOptions(atk, charging []int, from []hex.Hex, ca bool) []AdvanceOption {
	var out []AdvanceOption
	for _, h := range from {
		if occupant(g.st, h) >= 0 {
			continue
		}
		var cands []int
		for _, i := range atk {
			if g.mayAdvance(i, h, ca) {
				cands = append(cands, i)
			}
		}
		g.sortAdvance(cands, charging)
		for k, i := range cands {
			if k > 0 && g.advanceRank(i, charging) != g.advanceRank(cands[0], charging) {
				break
			}
			out = append(out, AdvanceOption{Unit: g.sc.Units[i].ID, Hex: h})
		}
	}
	return out
}

// askAdvance stops the Shock Phase for the attacker's choice, when his
// standing orders ask for it and there is one to make: more than one
// option, or a facing to choose after an advance without a Continued
// Attack. done is how many of the attack's results are applied.
func (g *game) askAdvance(opts []AdvanceOption, ca bool, done int) bool {
	side := g.sc.Units[unitIdx(g.sc, opts[0].Unit)].Side
	if !g.st.Standing[side].AskAdvance || (len(opts) < 2 && ca) {
		return false
	}
	g.emit(AdvanceAsked{Side: side, Done: done, Advance: PendingAdvance{Options: opts, ContinuedAttack: ca, Resume: g.st.Pending}})
	return true
}

// AdvanceOrder is the attacker's choice: "ADVANCE Z 0505 FACE SE".
type AdvanceOrder struct {
	at
	Unit   string
	Hex    string
	Facing string // empty: keep the facing
}

func (o AdvanceOrder) String() string {
	s := "ADVANCE " + o.Unit + " " + o.Hex
	if o.Facing != "" {
		s += " FACE " + o.Facing
	}
	return s
}

const advanceSyntax = "ADVANCE <unit> <hex> [FACE <vertex>]"

func parseAdvance(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) != 2 && (len(rest) != 4 || !strings.EqualFold(rest[2], "FACE")) {
		return nil, syntax("ADVANCE needs the unit and the vacated hex it advances into, then FACE and a vertex if it turns", advanceSyntax)
	}
	if _, err := hex.Parse(rest[1]); err != nil {
		return nil, syntax(fmt.Sprintf("%q is not a hex id", rest[1]), advanceSyntax)
	}
	o := AdvanceOrder{at: a, Unit: rest[0], Hex: rest[1]}
	if len(rest) == 4 {
		f, err := hex.ParseFacing(rest[3])
		if err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a vertex: E, NE, NW, W, SW or SE", rest[3]), advanceSyntax)
		}
		o.Facing = f.String()
	}
	return o, nil
}

// advanceOrder carries out the attacker's choice, then the Shock Phase
// goes on.
func (g *game) advanceOrder(o AdvanceOrder) error {
	p := g.st.Advance
	if g.st.Pending.Kind != DecideAdvance || p == nil {
		return g.illegal(o, "10.5", "no Advance after Combat waits for your choice")
	}
	h, _ := hex.Parse(o.Hex)
	var pick *AdvanceOption
	for k, opt := range p.Options {
		if strings.EqualFold(opt.Unit, o.Unit) && opt.Hex == h {
			pick = &p.Options[k]
		}
	}
	if pick == nil {
		return g.illegal(o, "10.5", fmt.Sprintf("%s may not advance into %s: the priorities of 10.5 leave the choices listed", o.Unit, o.Hex))
	}
	if o.Facing != "" && p.ContinuedAttack {
		return g.illegal(o, "10.5, 12.7", "a unit that advances for a Continued Attack keeps its facing")
	}
	g.emit(AdvanceChosen{Resume: p.Resume})
	var face *hex.Facing
	if o.Facing != "" {
		f, _ := hex.ParseFacing(o.Facing)
		face = &f
	}
	earned := g.advance(unitIdx(g.sc, pick.Unit), pick.Hex, face, p.ContinuedAttack)
	g.attackDone(earned)
	return g.runShock()
}

// advanceForms are the ADVANCE orders open to the attacker, for Legal.
func advanceForms(st *State) []string {
	p := st.Advance
	if p == nil {
		return nil
	}
	var out []string
	for _, opt := range p.Options {
		out = append(out, "ADVANCE "+opt.Unit+" "+opt.Hex.String())
	}
	if !p.ContinuedAttack {
		out = append(out, advanceSyntax)
	}
	return out
}

// AdvanceAsked: the Shock Phase waits for the attacker to choose who
// advances where; Done of the attack's results are applied.
type AdvanceAsked struct {
	Side    Side           `json:"side"`
	Done    int            `json:"done"`
	Advance PendingAdvance `json:"advance"`
}

func (e AdvanceAsked) apply(st *State) {
	p := e.Advance.clone()
	st.Advance = &p
	st.Pending = Decision{Kind: DecideAdvance, Side: e.Side}
	st.Shock.Current.Done = e.Done
}

func (e AdvanceAsked) describe(sc *Scenario) string {
	p := e.Advance
	if len(p.Options) == 1 {
		return fmt.Sprintf("%s must advance into %s: the %s choose its facing (10.5).", p.Options[0].Unit, p.Options[0].Hex, sc.SideName(e.Side))
	}
	var opts []string
	for _, o := range p.Options {
		opts = append(opts, o.Unit+" into "+o.Hex.String())
	}
	what := "which unit advances where"
	if !p.ContinuedAttack {
		what += ", and its facing"
	}
	return fmt.Sprintf("Advance after Combat: the %s choose %s: %s (10.5).", sc.SideName(e.Side), what, strings.Join(opts, " or "))
}

// AdvanceChosen: the attacker chose; the game goes back to the Shock Phase.
type AdvanceChosen struct {
	Resume Decision `json:"resume"`
}

func (e AdvanceChosen) apply(st *State) {
	st.Advance = nil
	st.Pending = e.Resume
}

func (AdvanceChosen) describe(*Scenario) string { return "" }

func init() { registerEvents(AdvanceAsked{}, AdvanceChosen{}) }
