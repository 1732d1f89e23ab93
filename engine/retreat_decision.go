package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 12.3: "A unit that must Retreat must move one hex away ..." — the owner
// chooses among the legal retreats. By default Herald chooses for him
// (ruling R56); with STANDING RETREAT ASK the game waits for his
// RETREAT order, as for any decision of the player who is not active
// (design principle 4). While it waits, the active player's block stops
// ("no longer has the move"); the RETREAT order gives the move back.

// PendingRetreat is a retreat waiting for its owner's choice.
type PendingRetreat struct {
	Unit      string      `json:"unit"`
	Attackers []string    `json:"attackers"`
	Cause     string      `json:"cause"`
	Options   [][]hex.Hex `json:"options"`
	// Resume is the decision the game goes back to once the retreat is
	// made.
	Resume Decision `json:"resume"`
}

func (r PendingRetreat) clone() PendingRetreat {
	c := r
	c.Attackers = slices.Clone(r.Attackers)
	c.Options = make([][]hex.Hex, len(r.Options))
	for i, o := range r.Options {
		c.Options[i] = slices.Clone(o)
	}
	return c
}

// askRetreat turns a retreat with a choice into a decision for its owner,
// when his standing orders ask for it and no other retreat waits already.
func (g *game) askRetreat(i int, attackers []int, paths []retreatPath, cause string) bool {
	side := g.sc.Units[i].Side
	if !g.st.Standing[side].AskRetreat || len(paths) < 2 || g.st.Retreat != nil || g.st.Pending.Kind == 0 {
		return false
	}
	e := RetreatAsked{Side: side, Retreat: PendingRetreat{Unit: g.sc.Units[i].ID, Cause: cause, Resume: g.st.Pending}}
	for _, a := range attackers {
		e.Retreat.Attackers = append(e.Retreat.Attackers, g.sc.Units[a].ID)
	}
	for _, p := range paths {
		e.Retreat.Options = append(e.Retreat.Options, p.hexes)
	}
	g.emit(e)
	return true
}

// RetreatOrder is the owner's choice: "RETREAT CB2 1006" (two hexes when
// retreating through a friendly missile unit).
type RetreatOrder struct {
	at
	Unit string
	Path []string
}

func (o RetreatOrder) String() string { return "RETREAT " + o.Unit + " " + strings.Join(o.Path, " ") }

func parseRetreat(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) < 2 || len(rest) > 3 {
		return nil, syntax("RETREAT needs the unit and the hex it retreats to (two hexes through a friendly missile unit)", "RETREAT <unit> <hex> [<hex>]")
	}
	for _, h := range rest[1:] {
		if _, err := hex.Parse(h); err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a hex id", h), "RETREAT <unit> <hex> [<hex>]")
		}
	}
	return RetreatOrder{at: a, Unit: rest[0], Path: rest[1:]}, nil
}

// retreat carries out the owner's choice.
func (g *game) retreatOrder(o RetreatOrder) error {
	r := g.st.Retreat
	if g.st.Pending.Kind != DecideRetreat || r == nil {
		return g.illegal(o, "12.3", "no retreat waits for your choice")
	}
	if !strings.EqualFold(o.Unit, r.Unit) {
		return g.illegal(o, "12.3", fmt.Sprintf("the retreat that waits is %s's", r.Unit))
	}
	want := strings.Join(o.Path, " ")
	for _, opt := range r.Options {
		var ids []string
		for _, h := range opt {
			ids = append(ids, h.String())
		}
		if strings.Join(ids, " ") == want {
			g.emit(RetreatChosen{Unit: r.Unit, Resume: r.Resume})
			i := g.unitIndex(r.Unit)
			var attackers []int
			for _, a := range r.Attackers {
				attackers = append(attackers, g.unitIndex(a))
			}
			if err := g.doRetreat(i, attackers, retreatPath{hexes: opt, through: throughOf(g.sc, g.st, i, opt)}, r.Cause); err != nil {
				return err
			}
			if g.st.Shock != nil && g.st.Retreat == nil {
				return g.runShock() // the Shock Phase it stopped goes on
			}
			return nil
		}
	}
	return g.illegal(o, "12.3", fmt.Sprintf("%s may not retreat to %s", r.Unit, want))
}

func (g *game) unitIndex(id string) int { return unitIdx(g.sc, id) }

// throughOf is the friendly missile unit a two-hex retreat passes.
func throughOf(sc *Scenario, st *State, i int, p []hex.Hex) int {
	if len(p) < 2 {
		return -1
	}
	return occupant(st, p[0])
}

// retreatForms are the RETREAT orders open to the owner, for Legal.
func retreatForms(st *State) []string {
	r := st.Retreat
	if r == nil {
		return nil
	}
	var out []string
	for _, opt := range r.Options {
		var ids []string
		for _, h := range opt {
			ids = append(ids, h.String())
		}
		out = append(out, "RETREAT "+r.Unit+" "+strings.Join(ids, " "))
	}
	return out
}

// RetreatAsked: the game waits for a unit's owner to choose its retreat.
type RetreatAsked struct {
	Side    Side           `json:"side"`
	Retreat PendingRetreat `json:"retreat"`
}

func (e RetreatAsked) apply(st *State) {
	r := e.Retreat.clone()
	st.Retreat = &r
	st.Pending = Decision{Kind: DecideRetreat, Side: e.Side}
}

func (e RetreatAsked) describe(sc *Scenario) string {
	return fmt.Sprintf("%s must retreat (%s): the %s choose where (12.3).", e.Retreat.Unit, e.Retreat.Cause, sc.SideName(e.Side))
}

// RetreatChosen: the owner chose; the game goes back to what it waited
// for before.
type RetreatChosen struct {
	Unit   string   `json:"unit"`
	Resume Decision `json:"resume"`
}

func (e RetreatChosen) apply(st *State) {
	st.Retreat = nil
	st.Pending = e.Resume
}

func (e RetreatChosen) describe(*Scenario) string {
	return fmt.Sprintf("%s's owner has chosen its retreat.", e.Unit)
}

func init() { registerEvents(RetreatAsked{}, RetreatChosen{}) }
