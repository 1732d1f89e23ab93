package engine

import (
	"errors"
	"fmt"
)

// Orders held over a Seizure decision (4.2, 4.3).
//
// A player who names a Command for Continuity may write that Command's
// orders in the same block. When the opponent may Seize, the game waits
// for the opponent's decision, which the rules make without knowing what
// the Command would do (4.3: the Seizure is decided on the Continuation
// declared, nothing more). So the rest of the block is not dropped: it is
// kept in the state, unknown to the opponent, and carried out at once if
// the Continuation succeeds; if the Continuation DR fails or the opponent
// Seizes, it is not carried out and goes back to its owner (ruling R140).

// HeldOrders are the orders a side gave after CONTINUE, kept while the
// opponent decides whether to Seize.
type HeldOrders struct {
	Side    Side       `json:"side"`
	Command string     `json:"command"` // the Command named for Continuity
	Lines   []HeldLine `json:"lines"`
}

// HeldLine is one held order: its canonical text and its place in the
// block that gave it, counted from 1 among that block's orders (the line
// of the dice log's order text, so that a replay holds the same lines; a
// mail's own line numbers are the service's to keep).
type HeldLine struct {
	No   int    `json:"no"`
	Text string `json:"text"`
}

func (h *HeldOrders) clone() *HeldOrders {
	if h == nil {
		return nil
	}
	c := *h
	c.Lines = append([]HeldLine(nil), h.Lines...)
	return &c
}

// orders parses the held lines again; they parsed when they were held.
func (h *HeldOrders) orders() ([]Order, error) {
	var lines []Line
	for _, l := range h.Lines {
		lines = append(lines, Line{No: l.No, Text: l.Text})
	}
	return ParseOrders(lines)
}

// Released is what became of orders held over a Seizure decision, settled
// in the block that made the decision: carried out (Applied, and those
// not applied after a stop), or not carried out at all (Carried false).
type Released struct {
	Side       Side
	Command    string
	Carried    bool
	Applied    []Order
	NotApplied []Order
	Stopped    string
	Refused    *IllegalOrderError
	// Held are those of them held again, after a new CONTINUE.
	Held []Order
}

func (r *Released) stop(rest []Order, why string) {
	r.NotApplied = append(r.NotApplied, rest...)
	if r.Stopped == "" {
		r.Stopped = why
	}
}

// mayHold: the sender has just named a Command for Continuity and the
// game now waits for the opponent's Seizure decision.
func (g *game) mayHold(side Side) bool {
	st := g.st
	return st.Pending.Kind == DecideSeizure && st.Pending.Side == side.Other() && st.Active == side && (st.Selected != "" || st.SelectedArmy) && st.Held == nil
}

// hold keeps rest until the Seizure decision; place gives each order's
// place among its block's orders.
func (g *game) hold(side Side, rest []Order, place func(k int) int) {
	e := OrdersHeld{Side: side, Command: g.st.Selected}
	for k, o := range rest {
		e.Lines = append(e.Lines, HeldLine{No: place(k), Text: o.String()})
	}
	g.emit(e)
}

// releaseHeld settles the held orders once the Seizure decision is made:
// it carries them out when the Continuation succeeded, and drops them
// otherwise, saying why.
func (g *game) releaseHeld() error {
	h := g.st.Held
	if h == nil || g.st.Pending.Kind == DecideSeizure || g.st.Pending.Kind == DecideNegation {
		return nil
	}
	orders, err := h.orders()
	if err != nil {
		return fmt.Errorf("engine: held orders no longer parse: %w", err)
	}
	st := g.st
	rel := &Released{Side: h.Side, Command: h.Command}
	g.res.Released = append(g.res.Released, rel)
	if st.Outcome != nil || st.Pending.Kind != DecideActions || st.Active != h.Side || st.Command != h.Command || st.Kind != ContinuationActivation {
		why := g.heldDropped(h)
		g.emit(HeldOrdersReleased{Side: h.Side, Command: h.Command, Reason: why})
		rel.stop(orders, why)
		return nil
	}
	rel.Carried = true
	g.emit(HeldOrdersReleased{Side: h.Side, Command: h.Command, Carried: true})
	g.heldRan = true
	prev := g.sender
	g.sender = h.Side
	defer func() { g.sender = prev }()
	for i, o := range orders {
		if g.st.Outcome != nil {
			rel.stop(orders[i:], "the battle is over: "+g.st.Outcome.Reason)
			break
		}
		if !isStanding(o) && (g.st.Pending.Side != h.Side || g.st.Pending.Kind == 0) {
			if g.mayHold(h.Side) {
				rest := orders[i:]
				g.hold(h.Side, rest, func(k int) int { return rest[k].LineNo() })
				rel.Held = orders[i:]
				break
			}
			rel.stop(orders[i:], fmt.Sprintf("the %s no longer have the move: %s", g.sc.SideName(h.Side), Waiting(g.sc, g.st)))
			break
		}
		err := g.order(o)
		var illegal *IllegalOrderError
		if errors.As(err, &illegal) {
			// A die has been rolled (the Continuation DR): what went
			// before stands.
			rel.Refused = illegal
			rel.stop(orders[i:], "an illegal order after a die roll; everything before it stands")
			break
		}
		if err != nil {
			return err
		}
		rel.Applied = append(rel.Applied, o)
		if isStanding(o) {
			continue
		}
		if err := g.settle(); err != nil {
			return err
		}
	}
	return nil
}

// heldDropped says why held orders are not carried out.
func (g *game) heldDropped(h *HeldOrders) string {
	st, sc := g.st, g.sc
	other := sc.SideName(h.Side.Other())
	for i := len(g.res.Events) - 1; i >= 0; i-- {
		switch e := g.res.Events[i].(type) {
		case SeizureRolled:
			if e.Success {
				return fmt.Sprintf("the %s Seized Continuity with %s", other, commandName(sc, e.Command))
			}
			return fmt.Sprintf("the %s tried to Seize and failed: the %s have a Free Activation instead of the Continuation, which begins with ACTIVATE", other, sc.SideName(h.Side))
		case ContinuityRolled:
			if !e.Success {
				return fmt.Sprintf("the Continuity DR for %s failed", commandName(sc, e.Command))
			}
		}
	}
	if st.Outcome != nil {
		return "the battle is over: " + st.Outcome.Reason
	}
	return "the Continuation did not take place: " + Waiting(sc, st)
}

// OrdersHeld: the orders a side gave after CONTINUE wait for the
// opponent's Seizure decision. Only their owner learns of them.
type OrdersHeld struct {
	Side    Side       `json:"side"`
	Command string     `json:"command"`
	Lines   []HeldLine `json:"lines"`
}

func (e OrdersHeld) apply(st *State) {
	st.Held = &HeldOrders{Side: e.Side, Command: e.Command, Lines: append([]HeldLine(nil), e.Lines...)}
}

func (e OrdersHeld) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s's orders after naming %s for Continuity are kept until the %s have decided on Seizure; they are carried out if the Continuation succeeds (4.3).",
		sc.SideName(e.Side), commandName(sc, e.Command), sc.SideName(e.Side.Other()))
}

// HeldOrdersReleased: the Seizure decision is made; the held orders are
// carried out now, or not at all (Reason).
type HeldOrdersReleased struct {
	Side    Side   `json:"side"`
	Command string `json:"command"`
	Carried bool   `json:"carried,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

func (e HeldOrdersReleased) apply(st *State) { st.Held = nil }

func (e HeldOrdersReleased) describe(sc *Scenario) string {
	if e.Carried {
		return fmt.Sprintf("The Continuation of %s succeeded: the orders the %s gave after naming it are carried out now.", commandName(sc, e.Command), sc.SideName(e.Side))
	}
	return fmt.Sprintf("The orders the %s gave after naming %s for Continuity are not carried out: %s.", sc.SideName(e.Side), commandName(sc, e.Command), e.Reason)
}

// PrivateTo reports the side that alone may learn of an event: a side's
// standing orders and the orders it holds over a Seizure decision are its
// own until they act (docs/orders.md). Other events are public.
func PrivateTo(e Event) (Side, bool) {
	switch e := e.(type) {
	case StandingOrderSet:
		return e.Side, true
	case OrdersHeld:
		return e.Side, true
	case HeldOrdersReleased:
		return e.Side, true
	case NearMissOrderSet:
		return e.Side, true
	case StandingPlaySet:
		return e.Side, true
	case StandingPlayDropped:
		return e.Side, true
	case BreachReadied:
		return e.Side, true
	case BreachLapsed:
		return e.Side, true
	}
	return 0, false
}

func init() { registerEvents(OrdersHeld{}, HeldOrdersReleased{}) }
