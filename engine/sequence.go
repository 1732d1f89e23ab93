package engine

import (
	"errors"
	"fmt"
)

// 3.0 SEQUENCE OF PLAY and the Extended Sequence of Play, phases A–E.
//
// There are no game turns: Activations follow one another until a Loss Check
// ends the battle. This file walks an order block through the phases and
// hands each order to the chapter that implements it; it holds no rule
// details itself.

// BlockResult is what applying one order block did.
type BlockResult struct {
	State  *State  // the new state; the input state is never modified
	Events []Event // what happened, in order
	// Applied are the orders carried out; NotApplied the ones that were
	// not, with the reason in Stopped.
	Applied    []Order
	NotApplied []Order
	// Stopped says why orders were left unapplied: the sender no longer has
	// the move, the game waits for the opponent, the battle ended, or an
	// illegal order after a die had been rolled (then Refused is set).
	Stopped string
	Refused *IllegalOrderError
	// Rolled is true once a die has been rolled for this block: from then
	// on its results stand, whatever follows.
	Rolled bool
	// CheckStopped is true when a check-only run reached its first roll.
	CheckStopped bool
	// Held are the sender's orders after CONTINUE that wait for the
	// opponent's Seizure decision (engine/held.go); they are neither
	// applied nor refused yet.
	Held []Order
	// Released says what became of orders held by an earlier block,
	// settled in this one (the opponent's, usually).
	Released []*Released
}

// maxSteps bounds the automatic steps taken in one block (standing orders,
// phases that need no input), like Rally the Troops' runaway guard.
const maxSteps = 1000

// game is one Apply in progress.
type game struct {
	sc     *Scenario
	st     *State
	dice   Dice
	res    *BlockResult
	steps  int
	sender Side
	opened bool // OrdersApplied emitted
	// heldRan: the opponent's held orders were carried out in this
	// block; the sender's remaining orders were written before them.
	heldRan bool
	// moving is the fire a unit makes inside its MOVE while it is being
	// resolved (fire_moving.go), nil otherwise.
	moving *movingFire
	// failed is an error met where it cannot be returned (a die for a
	// Standard displaced by an enemy unit entering its hex, Arquebus
	// 15.2); Apply returns it after the order.
	failed error
}

// Apply carries out an order block sent by side. Orders are taken one at a
// time, in order:
//
//   - An illegal order met before any die has been rolled rejects the whole
//     block with an *IllegalOrderError: nothing changes.
//   - Once a die has been rolled its result stands (a roll is a point of no
//     return): an illegal order after it stops the block there, and the
//     Result reports it in Refused with the rest in NotApplied.
//   - When the sender no longer has the move, because a roll gave it to the
//     opponent or the game waits for the opponent's decision, the remaining
//     orders are not applied, and Stopped says why.
//
// Standing orders may be given by either side at any time. A Dice error
// aborts the block, except ErrCheckStop, which ends a check-only run at the
// first roll with what happened until then.
func Apply(sc *Scenario, st *State, side Side, orders []Order, dice Dice) (*BlockResult, error) {
	if len(orders) == 0 {
		return nil, &IllegalOrderError{Reason: "the block holds no orders", Rule: "docs/orders.md", Legal: Legal(sc, st)}
	}
	g := &game{sc: sc, st: st.Clone(), dice: dice, res: &BlockResult{}, sender: side}
	if st.Outcome != nil {
		return nil, g.notYours(orders[0])
	}
	hadMove := false
	for i, o := range orders {
		if st := g.st; st.Outcome != nil {
			g.stop(orders[i:], "the battle is over: "+st.Outcome.Reason)
			break
		}
		if g.heldRan {
			g.stop(orders[i:], fmt.Sprintf("the %s carried out the orders they had given with their Continuation, and these were written before them: %s",
				sc.SideName(side.Other()), Waiting(sc, g.st)))
			break
		}
		if !isStanding(o) {
			if g.st.Pending.Side != side || g.st.Pending.Kind == 0 {
				if hadMove && g.mayHold(side) {
					g.hold(side, orders[i:], func(k int) int { return i + k + 1 })
					g.res.Held = orders[i:]
					break
				}
				if hadMove {
					g.stop(orders[i:], fmt.Sprintf("the %s no longer have the move: %s", sc.SideName(side), Waiting(sc, g.st)))
					break
				}
				return nil, g.notYours(o)
			}
			hadMove = true
			g.open()
		}
		err := g.order(o)
		if err == nil && g.failed != nil {
			err, g.failed = g.failed, nil
		}
		var illegal *IllegalOrderError
		switch {
		case errors.Is(err, ErrCheckStop):
			g.res.CheckStopped = true
			g.stop(orders[i:], "check stops before the first die roll")
			return g.result(), nil
		case errors.As(err, &illegal) && !g.res.Rolled:
			return nil, illegal
		case errors.As(err, &illegal):
			g.res.Refused = illegal
			g.stop(orders[i:], "an illegal order after a die roll; everything before it stands")
			return g.result(), nil
		case err != nil:
			return nil, err
		}
		g.res.Applied = append(g.res.Applied, o)
		if isStanding(o) {
			// An explicit answer later in the same block takes precedence
			// over the standing order just given: settle at the end.
			continue
		}
		if err := g.settle(); err != nil {
			return g.settleFailed(err, orders[i+1:])
		}
	}
	if err := g.settle(); err != nil {
		return g.settleFailed(err, nil)
	}
	return g.result(), nil
}

func (g *game) settleFailed(err error, rest []Order) (*BlockResult, error) {
	if errors.Is(err, ErrCheckStop) {
		g.res.CheckStopped = true
		g.stop(rest, "check stops before the first die roll")
		return g.result(), nil
	}
	return nil, err
}

// open records, once per block, that the block changes the position: it
// opens the block's events and advances the move number. A block of
// standing orders only that settles nothing does not, so that a player's
// standing orders never make the opponent's orders stale.
func (g *game) open() {
	if !g.opened {
		g.opened = true
		g.emit(OrdersApplied{Side: g.sender, Move: g.st.Move + 1})
	}
}

func isStanding(o Order) bool {
	switch o.(type) {
	case StandingSeize, StandingFire, StandingChoice, StandingNearMiss, StandingPlay:
		return true
	}
	return false
}

func (g *game) result() *BlockResult {
	g.res.State = g.st
	return g.res
}

func (g *game) stop(rest []Order, why string) {
	g.res.NotApplied = append(g.res.NotApplied, rest...)
	if g.res.Stopped == "" {
		g.res.Stopped = why
	}
}

// emit applies an event to the state and records it.
func (g *game) emit(e Event) {
	e.apply(g.st)
	g.res.Events = append(g.res.Events, e)
	if _, done := e.(EngagementEnded); !done {
		g.endLapsedEngagements() // Arquebus 14.5 "immediately remove its ENGAGED marker"
	}
}

// roll rolls one die for purpose.
func (g *game) roll(purpose string, mods ...Modifier) (Roll, error) {
	die, err := g.dice.Roll(purpose)
	if err != nil {
		return Roll{}, fmt.Errorf("roll %q: %w", purpose, err)
	}
	if die < 0 || die > 9 {
		return Roll{}, fmt.Errorf("roll %q: die %d is not a d10 face 0–9 (2.3)", purpose, die)
	}
	g.res.Rolled = true
	r := Roll{Purpose: purpose, Die: die, Mods: mods, Total: die}
	for _, m := range mods {
		r.Total += m.DRM
	}
	return r, nil
}

// order dispatches one order to the chapter that implements it.
func (g *game) order(o Order) error {
	switch o := o.(type) {
	case Activate:
		return g.activate(o)
	case Pass:
		return g.pass(o)
	case End:
		return g.end(o)
	case Continue:
		return g.continuation(o)
	case Seize:
		return g.seize(o)
	case Decline:
		return g.decline(o)
	case Negate:
		return g.negate(o)
	case PlayCounter:
		return g.playCounter(o)
	case StandingSeize:
		return g.standingSeize(o)
	case StandingNearMiss:
		return g.standingNearMiss(o)
	case StandingPlay:
		return g.standingPlay(o)
	case Move:
		return g.move(o)
	case Face:
		return g.face(o)
	case ShieldWallOrder:
		return g.shieldWall(o)
	case SchiltronOrder:
		return g.schiltron(o)
	case Fire:
		return g.fire(o)
	case StandingFire:
		return g.standingFire(o)
	case RetreatOrder:
		return g.retreatOrder(o)
	case ReturnFireOrder:
		return g.returnFire(o)
	case ReactOrder:
		return g.react(o)
	case StandingChoice:
		return g.standingChoice(o)
	case AdvanceOrder:
		return g.advanceOrder(o)
	case ShockOrder:
		return g.shock(o)
	case ChargeOrder:
		return g.charge(o)
	case CounterChargeOrder:
		return g.counterChargeOrder(o)
	case RetreatBeforeShockOrder:
		return g.retreatBeforeShockOrder(o)
	case StandOrder:
		return g.stand(o)
	case LimberOrder:
		return g.limber(o)
	}
	return fmt.Errorf("engine: no rule handles %T", o)
}

// settle takes the steps that need no order from the sender: decisions
// covered by their owner's standing orders.
func (g *game) settle() error {
	for {
		g.steps++
		if g.steps > maxSteps {
			return fmt.Errorf("engine: more than %d automatic steps in one block; the rules loop", maxSteps)
		}
		if err := g.releaseHeld(); err != nil {
			return err
		}
		g.springAmbush() // B&R 16.1: at the end of the ambushing unit's move
		done, err := g.standingStep()
		if err != nil || done {
			return err
		}
	}
}

// illegal builds the error for an order the rules forbid now.
func (g *game) illegal(o Order, rule, reason string) *IllegalOrderError {
	return &IllegalOrderError{Line: o.LineNo(), Text: o.String(), Rule: rule, Reason: reason, Legal: Legal(g.sc, g.st)}
}

// notYours explains why the sender may not give this order now.
func (g *game) notYours(o Order) *IllegalOrderError {
	st, sc := g.st, g.sc
	e := &IllegalOrderError{Line: o.LineNo(), Text: o.String(), Rule: "4.1"}
	switch {
	case st.Outcome != nil:
		e.Rule, e.Reason = "16.0", "the battle is over: "+st.Outcome.Reason
		return e
	case st.Pending.Kind == DecideSeizure:
		if _, ok := o.(Seize); ok {
			e.Rule = "4.3"
			e.Reason = fmt.Sprintf("you cannot Seize a Seizure, nor your own Continuation: the Seizure decision belongs to the %s", sc.SideName(st.Pending.Side))
			return e
		}
	case st.Pending.Kind == DecideActivation:
		if _, ok := o.(Seize); ok {
			e.Rule = "4.3"
			e.Reason = fmt.Sprintf("you cannot Seize a Free Activation: the %s activate without a die roll", sc.SideName(st.Pending.Side))
			return e
		}
	case st.Pending.Kind == DecideActions || st.Pending.Kind == DecideContinuation:
		if _, ok := o.(Seize); ok {
			e.Rule = "4.3"
			e.Reason = fmt.Sprintf("a Seizure is attempted only when the %s are about to roll for Continuity", sc.SideName(st.Pending.Side))
			return e
		}
	}
	e.Reason = fmt.Sprintf("the %s have no decision pending: %s", sc.SideName(g.sender), Waiting(sc, st))
	return e
}

// OrdersApplied opens the events of each order block that changed the
// position; the game is now at move Move.
type OrdersApplied struct {
	Side Side `json:"side"`
	Move int  `json:"move"`
}

func (e OrdersApplied) apply(st *State) { st.Move = e.Move }
func (e OrdersApplied) describe(sc *Scenario) string {
	return fmt.Sprintf("Move %d: orders of the %s.", e.Move, sc.SideName(e.Side))
}

func init() { registerEvents(OrdersApplied{}) }
