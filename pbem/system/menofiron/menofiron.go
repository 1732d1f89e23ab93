// Package menofiron puts the Men of Iron hex engine (package engine, its
// volumes' tables and battles in data, the map in mapimg) behind the game
// system seam, pbem/system.
//
// The mail service keeps features of its own for Men of Iron beyond the
// seam (standing orders, orders held over a Seizure decision, hidden
// Seizure counters, the what-if check): it reaches the engine's types
// through Scenario and EngineState. Everything else, and herald verify's
// replay, goes through the seam.
package menofiron

import (
	"errors"
	"fmt"

	"herald/data"
	"herald/engine"
	"herald/mapimg"
	"herald/pbem/system"
)

// System is Men of Iron and its volumes (Infidel, Blood & Roses,
// Arquebus): every battle of data.Scenarios.
type System struct{}

// ID implements system.System.
func (System) ID() string { return "men-of-iron" }

// Title implements system.System.
func (System) Title() string { return "the Men of Iron series" }

// Battles implements system.System.
func (System) Battles() []string { return data.Scenarios() }

// Battle implements system.System.
func (System) Battle(id string) (system.Battle, error) {
	sc, err := data.Scenario(id)
	if err != nil {
		return nil, err
	}
	return &Battle{sc: sc}, nil
}

// Battle is one battle of the hex engine.
type Battle struct{ sc *engine.Scenario }

// New wraps a loaded scenario.
func New(sc *engine.Scenario) *Battle { return &Battle{sc: sc} }

// Scenario is the engine's battle, for the mail service's Men of Iron
// features.
func (b *Battle) Scenario() *engine.Scenario { return b.sc }

// ID implements system.Battle.
func (b *Battle) ID() string { return b.sc.ID }

// Title implements system.Battle.
func (b *Battle) Title() string { return b.sc.Name }

// Sides implements system.Battle.
func (b *Battle) Sides() [2]string { return [2]string{b.sc.Sides[0].Name, b.sc.Sides[1].Name} }

// Start implements system.Battle: the battle's opening position, before
// any hidden draw (B&R's Seizure counters are dealt by the mail service
// from the dice log, which the seam leaves to it).
func (b *Battle) Start() (system.State, error) {
	return &State{sc: b.sc, st: engine.NewState(b.sc)}, nil
}

// Decode implements system.Battle.
func (b *Battle) Decode(raw []byte) (system.State, error) {
	st, err := engine.DecodeState(raw)
	if err != nil {
		return nil, err
	}
	return &State{sc: b.sc, st: st}, nil
}

// Play implements system.Battle: engine.ParseOrders, then engine.Apply.
func (b *Battle) Play(s system.State, side int, lines []system.Line, d system.Dice) (*system.Result, error) {
	st, err := b.engineState(s)
	if err != nil {
		return nil, err
	}
	if side != 0 && side != 1 {
		return nil, fmt.Errorf("menofiron: no side %d", side)
	}
	in := make([]engine.Line, len(lines))
	for i, l := range lines {
		in[i] = engine.Line{No: l.No, Text: l.Text}
	}
	orders, err := engine.ParseOrders(in)
	if err != nil {
		return nil, illegal(err)
	}
	res, err := engine.Apply(b.sc, st, engine.Side(side), orders, d)
	if err != nil {
		return nil, illegal(err)
	}
	out := &system.Result{State: &State{sc: b.sc, st: res.State}}
	for _, e := range res.Events {
		raw, err := engine.MarshalEvent(e)
		if err != nil {
			return nil, err
		}
		out.Events = append(out.Events, raw)
	}
	for _, o := range res.NotApplied {
		na := system.NotApplied{Line: o.LineNo(), Reason: res.Stopped}
		if r := res.Refused; r != nil && r.Line == o.LineNo() {
			na.Reason, na.Rule = r.Reason, r.Rule
		}
		out.NotApplied = append(out.NotApplied, na)
	}
	return out, nil
}

// illegal turns the engine's refusal into the seam's; other errors pass.
func illegal(err error) error {
	var e *engine.IllegalOrderError
	if errors.As(err, &e) {
		return &system.Illegal{Line: e.Line, Rule: e.Rule, Reason: e.Reason, Legal: e.Legal}
	}
	return err
}

// Narrate implements system.Battle: each event as engine.Describe tells
// it, none of the other side's private ones (engine.PrivateTo).
func (b *Battle) Narrate(events [][]byte, _ []system.Roll, side int) ([]string, error) {
	evs, err := decodeEvents(events)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range evs {
		if owner, private := engine.PrivateTo(e); private && int(owner) != side {
			continue
		}
		if text := engine.Describe(b.sc, e); text != "" {
			out = append(out, text)
		}
	}
	return out, nil
}

// Picture implements system.Battle: the area of the block's marks drawn
// for a phone (mapimg.ForMail), the map result mails carry.
func (b *Battle) Picture(before, after system.State, events [][]byte) ([]byte, error) {
	a, err := b.engineState(after)
	if err != nil {
		return nil, err
	}
	p := a
	if before != nil {
		if p, err = b.engineState(before); err != nil {
			return nil, err
		}
	}
	evs, err := decodeEvents(events)
	if err != nil {
		return nil, err
	}
	return mapimg.PNG(b.sc, a, mapimg.ForMail(mapimg.Marks(b.sc, p, a, evs)))
}

// Help implements system.Battle: the first orders of the order syntax
// (docs/orders.md has them all).
func (b *Battle) Help(int) []string {
	return []string{
		"ACTIVATE <command>: activate a Command (4.0)",
		"MOVE <unit> TO <hex> [FACING <vertex>]: move (5.0)",
		"FIRE <unit> AT <unit>: missile fire (9.0)",
		"SHOCK <unit> AT <unit> / CHARGE <unit> AT <unit>: Shock and Charge (10.0, 11.0)",
		"END: end the Command's orders",
	}
}

func (b *Battle) engineState(s system.State) (*engine.State, error) {
	st, ok := s.(*State)
	if !ok {
		return nil, fmt.Errorf("menofiron: a %T is not a Men of Iron state", s)
	}
	return st.st, nil
}

func decodeEvents(events [][]byte) ([]engine.Event, error) {
	out := make([]engine.Event, 0, len(events))
	for _, raw := range events {
		e, err := engine.UnmarshalEvent(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// State is a position of the hex engine.
type State struct {
	sc *engine.Scenario
	st *engine.State
}

// Wrap puts an engine state behind the seam.
func Wrap(sc *engine.Scenario, st *engine.State) *State { return &State{sc: sc, st: st} }

// EngineState is the engine's state, for the mail service's Men of Iron
// features.
func (s *State) EngineState() *engine.State { return s.st }

// Encode implements system.State.
func (s *State) Encode() []byte { return s.st.Encode() }

// Move implements system.State.
func (s *State) Move() int { return s.st.Move }

// Outcome implements system.State.
func (s *State) Outcome() *system.Outcome {
	if o := s.st.Outcome; o != nil {
		return &system.Outcome{Draw: o.Draw, Winner: int(o.Winner), Reason: o.Reason}
	}
	return nil
}

// Standing implements system.State: the side's Flight Points against
// its Flight Level (16.0), or its Victory Points (Infidel 2.4).
func (s *State) Standing(side int) string {
	own := engine.FlightPoints(s.sc, s.st, engine.Side(side))
	if s.sc.Rules.VictoryPoints != nil {
		return fmt.Sprintf("%d Victory Points; %d Flight Points suffered.", engine.FlightPoints(s.sc, s.st, engine.Side(side).Other()), own)
	}
	return fmt.Sprintf("%d Flight Points, Flight Level %d.", own, s.sc.Sides[side].FlightLevel)
}

// Turn implements system.State.
func (s *State) Turn() system.Turn {
	p := s.st.Pending
	return system.Turn{Side: int(p.Side), Label: NextLabel(s.sc, p), Waiting: engine.Waiting(s.sc, s.st), Legal: engine.Legal(s.sc, s.st)}
}

// NextLabel names whom a decision waits for and what for: "English to
// give orders".
func NextLabel(sc *engine.Scenario, p engine.Decision) string {
	if p.Kind == 0 {
		return "the battle is over"
	}
	verb := map[engine.DecisionKind]string{
		engine.DecideActivation:    "to activate",
		engine.DecideActions:       "to give orders",
		engine.DecideContinuation:  "to continue or pass",
		engine.DecideSeizure:       "to decide on Seizure",
		engine.DecideRetreat:       "to choose a retreat",
		engine.DecideReturnFire:    "to decide on Return Fire",
		engine.DecideReaction:      "to decide on Reaction Fire",
		engine.DecideResponse:      "to meet the Shock attacks",
		engine.DecideCounterCharge: "to decide on a Counter-Charge",
		engine.DecideAdvance:       "to choose an Advance",
	}[p.Kind]
	if verb == "" {
		verb = "to decide"
	}
	return sc.SideName(p.Side) + " " + verb
}

var (
	_ system.System = System{}
	_ system.Battle = (*Battle)(nil)
	_ system.State  = (*State)(nil)
)
