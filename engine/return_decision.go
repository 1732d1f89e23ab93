package engine

import (
	"fmt"
	"strings"
)

// 9.2 Return Fire as the non-active player's decision. With STANDING
// RETURN FIRE ASK (for the side, a Command or a unit), an Active Fire at
// such a unit waits, before any die is rolled, for its owner's RETURN FIRE
// or HOLD FIRE; both shots are then rolled together, as the rule says, and
// the game goes back to the active player. A fire made during a mounted
// archer's move cannot wait: there the answer is ALWAYS (ruling R71).

// PendingFire is an Active Fire waiting for the target owner's answer.
type PendingFire struct {
	Firer  string   `json:"firer"`
	Target string   `json:"target"`
	Resume Decision `json:"resume"`
}

// ReturnFireOrder answers: "RETURN FIRE CB2" or "HOLD FIRE CB2".
type ReturnFireOrder struct {
	at
	Unit string
	Hold bool
}

func (o ReturnFireOrder) String() string {
	if o.Hold {
		return "HOLD FIRE " + o.Unit
	}
	return "RETURN FIRE " + o.Unit
}

func parseReturnFire(a at, kw string, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) != 2 || !strings.EqualFold(rest[0], "FIRE") {
		return nil, syntax(kw+" FIRE needs the unit fired at", "RETURN FIRE <unit>", "HOLD FIRE <unit>")
	}
	return ReturnFireOrder{at: a, Unit: rest[1], Hold: kw == "HOLD"}, nil
}

// returnFire carries out the answer.
func (g *game) returnFire(o ReturnFireOrder) error {
	f := g.st.FireAsk
	if g.st.Pending.Kind != DecideReturnFire || f == nil {
		return g.illegal(o, "9.2", "no fire waits for your answer")
	}
	if !strings.EqualFold(o.Unit, f.Target) {
		return g.illegal(o, "9.2", fmt.Sprintf("the fire that waits is at %s", f.Target))
	}
	i, j := g.unitIndex(f.Firer), g.unitIndex(f.Target)
	g.emit(ReturnFireAnswered{Target: f.Target, Returns: !o.Hold, Resume: f.Resume})
	return g.resolveFireAnswered(i, j, !o.Hold)
}

// ReturnFireAsked: an Active Fire waits for the target owner's answer.
type ReturnFireAsked struct {
	Side Side        `json:"side"`
	Fire PendingFire `json:"fire"`
}

func (e ReturnFireAsked) apply(st *State) {
	f := e.Fire
	st.FireAsk = &f
	st.Pending = Decision{Kind: DecideReturnFire, Side: e.Side}
}

func (e ReturnFireAsked) describe(sc *Scenario) string {
	return fmt.Sprintf("%s fires at %s: the %s decide whether it returns the fire (9.2).", e.Fire.Firer, e.Fire.Target, sc.SideName(e.Side))
}

// ReturnFireAnswered: the owner answered; the game goes back to what it
// waited for before, and the fire is resolved.
type ReturnFireAnswered struct {
	Target  string   `json:"target"`
	Returns bool     `json:"returns"`
	Resume  Decision `json:"resume"`
}

func (e ReturnFireAnswered) apply(st *State) {
	st.FireAsk = nil
	st.Pending = e.Resume
}

func (e ReturnFireAnswered) describe(*Scenario) string {
	if e.Returns {
		return e.Target + " returns the fire (9.2)."
	}
	return e.Target + " holds its fire (9.2)."
}

func init() { registerEvents(ReturnFireAsked{}, ReturnFireAnswered{}) }
