package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Reaction Fire as the non-active player's decision (9.2, principle 4):
// with STANDING REACTION FIRE ASK (for the side, a Command or a unit) a
// unit that may react does not fire at once; the mover's move stops where
// it stands and the game waits for its owner's REACT or HOLD FIRE. Then
// the chosen units fire, and the move goes on from there, in the same
// mail's block, exactly as it would have (ruling R71).

// PendingReaction is a move waiting for the reactors' owner to answer.
type PendingReaction struct {
	Mover    string   `json:"mover"`
	Reactors []string `json:"reactors"`
	Run      MoveRun  `json:"run"`
	Resume   Decision `json:"resume"`
	// Charge: the mover is a Charge of the Shock Phase, not a move; it
	// goes on from State.Shock.Charge (charge.go).
	Charge bool `json:"charge,omitempty"`
}

func (p PendingReaction) clone() PendingReaction {
	c := p
	c.Reactors = slices.Clone(p.Reactors)
	c.Run = p.Run.clone()
	return c
}

func (r MoveRun) clone() MoveRun {
	c := r
	c.Path, c.Cum, c.Reacted = slices.Clone(r.Path), slices.Clone(r.Cum), slices.Clone(r.Reacted)
	c.Final.Path = slices.Clone(r.Final.Path)
	if r.Change != nil {
		ch := *r.Change
		c.Change = &ch
	}
	if r.Fire != nil {
		f := *r.Fire
		c.Fire = &f
	}
	return c
}

// ReactOrder answers: "REACT CB1 CB2" (these fire) or "HOLD FIRE" (none).
type ReactOrder struct {
	at
	Units []string
}

func (o ReactOrder) String() string {
	if len(o.Units) == 0 {
		return "HOLD FIRE"
	}
	return "REACT " + strings.Join(o.Units, " ")
}

func parseReact(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) == 0 {
		return nil, syntax("REACT needs the units that fire", "REACT <unit> [<unit> …]", "HOLD FIRE")
	}
	return ReactOrder{at: a, Units: rest}, nil
}

// react carries out the answer and goes on with the move.
func (g *game) react(o ReactOrder) error {
	p := g.st.Reaction
	if g.st.Pending.Kind != DecideReaction || p == nil {
		return g.illegal(o, "9.2", "no move waits for your Reaction Fire")
	}
	var chosen []int
	for _, u := range o.Units {
		k := slices.IndexFunc(p.Reactors, func(r string) bool { return strings.EqualFold(r, u) })
		if k < 0 {
			return g.illegal(o, "9.2", fmt.Sprintf("%s is not asked to react; the units that may: %s", u, strings.Join(p.Reactors, ", ")))
		}
		chosen = append(chosen, g.unitIndex(p.Reactors[k]))
	}
	if len(chosen) > 1 && g.sc.Tables.Rules.OneReactionPerEntry {
		return g.illegal(o, "B&R 11.2", fmt.Sprintf("only one missile unit may use Reaction Fire at %s entering a hex: REACT with one of %s", p.Mover, strings.Join(p.Reactors, ", ")))
	}
	if p.Charge {
		return g.reactToCharge(*p, chosen)
	}
	run := p.Run.clone()
	g.emit(ReactionAnswered{Mover: p.Mover, Units: unitIDs(g.sc, chosen), Resume: p.Resume})
	i, h := run.Unit, run.Path[run.Next]
	for _, j := range chosen {
		us := g.st.Units[i]
		if us.Hex != h || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
			break
		}
		if CanFire(g.sc, g.st, j, i, true) == nil {
			if err := g.reactOnce(i, j); err != nil {
				return err
			}
		}
	}
	if g.afterReaction(&run) {
		return nil
	}
	run.Next++
	run.Pause = -1
	return g.runMove(&run)
}

func unitIDs(sc *Scenario, is []int) []string {
	var out []string
	for _, i := range is {
		out = append(out, sc.Units[i].ID)
	}
	return out
}

// reactForms are the answers open to the reactors' owner, for Legal.
func reactForms(sc *Scenario, st *State) []string {
	p := st.Reaction
	if p == nil {
		return nil
	}
	var out []string
	if len(p.Reactors) == 1 || !sc.Tables.Rules.OneReactionPerEntry {
		out = append(out, "REACT "+strings.Join(p.Reactors, " "))
	}
	if len(p.Reactors) > 1 {
		for _, r := range p.Reactors {
			out = append(out, "REACT "+r)
		}
	}
	return append(out, "HOLD FIRE")
}

// ReactionAsked: a move waits for the reactors' owner (9.2).
type ReactionAsked struct {
	Side     Side     `json:"side"`
	Mover    string   `json:"mover"`
	Reactors []string `json:"reactors"`
	Run      MoveRun  `json:"run"`
	Resume   Decision `json:"resume"`
}

func (e ReactionAsked) apply(st *State) {
	p := PendingReaction{Mover: e.Mover, Reactors: e.Reactors, Run: e.Run, Resume: e.Resume}.clone()
	st.Reaction = &p
	st.Pending = Decision{Kind: DecideReaction, Side: e.Side}
}

func (e ReactionAsked) describe(sc *Scenario) string {
	return fmt.Sprintf("%s has entered the Frontal hex of %s: the %s decide whether to fire (9.2).", e.Mover, strings.Join(e.Reactors, ", "), sc.SideName(e.Side))
}

// ReactionAnswered: the owner answered; the move goes on.
type ReactionAnswered struct {
	Mover  string   `json:"mover"`
	Units  []string `json:"units,omitempty"`
	Resume Decision `json:"resume"`
}

func (e ReactionAnswered) apply(st *State) {
	st.Reaction = nil
	st.Pending = e.Resume
}

func (e ReactionAnswered) describe(*Scenario) string {
	if len(e.Units) == 0 {
		return fmt.Sprintf("No Reaction Fire at %s (9.2).", e.Mover)
	}
	verb := "react"
	if len(e.Units) == 1 {
		verb = "reacts"
	}
	return fmt.Sprintf("%s %s with fire at %s (9.2).", strings.Join(e.Units, ", "), verb, e.Mover)
}

func init() { registerEvents(ReactionAsked{}, ReactionAnswered{}) }
