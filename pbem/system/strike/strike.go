// Package strike puts the D20 strike miniatures game (engine/strike/battle)
// behind Herald's game-system seam (pbem/system): its battles, states,
// order blocks, the dice adapter, the narration a player reads, and the
// scene the table picture draws (docs/strike.md).
package strike

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"

	"herald/data"
	core "herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/mapimg/tabletop"
	"herald/pbem/system"
)

// Draw renders a scene of the table as a PNG (mapimg/tabletop's
// renderer).
type Draw func(tabletop.Scene) ([]byte, error)

// System is the strike system: its battles are data.StrikeBattles.
type System struct {
	draw Draw
}

// New returns the strike system; draw is the table's renderer, which
// Battle.Picture hands the SceneOf each block.
func New(draw Draw) *System { return &System{draw: draw} }

// ID is "strike".
func (*System) ID() string { return "strike" }

// Title implements system.System.
func (*System) Title() string { return "the D20 strike miniatures rules" }

// Battles lists the embedded strike battles, sorted.
func (*System) Battles() []string { return data.StrikeBattles() }

// Battle loads one.
func (s *System) Battle(id string) (system.Battle, error) {
	b, err := data.StrikeBattle(id)
	if err != nil {
		return nil, err
	}
	return &Battle{B: b, draw: s.draw}, nil
}

// Battle is a strike battle behind the seam.
type Battle struct {
	B    *battle.Battle
	draw Draw
}

func (b *Battle) ID() string        { return b.B.ID }
func (b *Battle) Title() string     { return b.B.Title }
func (b *Battle) Sides() [2]string  { return b.B.Sides }
func (b *Battle) Help(int) []string { return battle.Help() }

// Start is the opening position.
func (b *Battle) Start() (system.State, error) { return &State{b: b.B, S: b.B.Start()}, nil }

// Decode reads a state.
func (b *Battle) Decode(data []byte) (system.State, error) {
	s, err := battle.Decode(b.B, data)
	if err != nil {
		return nil, err
	}
	return &State{b: b.B, S: s}, nil
}

func (b *Battle) state(st system.State) (*battle.State, error) {
	s, ok := st.(*State)
	if !ok || s.b != b.B {
		return nil, fmt.Errorf("strike: a state of another battle or system (%T)", st)
	}
	return s.S, nil
}

// Play applies a side's block (battle.Apply); a refusal is a
// *system.Illegal.
func (b *Battle) Play(st system.State, side int, lines []system.Line, d system.Dice) (*system.Result, error) {
	s, err := b.state(st)
	if err != nil {
		return nil, err
	}
	ls := make([]battle.Line, len(lines))
	for i, l := range lines {
		ls[i] = battle.Line{No: l.No, Text: l.Text}
	}
	out, err := battle.Apply(b.B, s, side, ls, DiceOf(d))
	var r *battle.Refusal
	if errors.As(err, &r) {
		return nil, &system.Illegal{Line: r.Line, Rule: r.Rule, Reason: r.Reason, Legal: r.Legal}
	}
	if err != nil {
		return nil, err
	}
	res := &system.Result{State: &State{b: b.B, S: out.State}}
	for _, e := range out.Events {
		res.Events = append(res.Events, e.Encode())
	}
	for _, n := range out.NotApplied {
		res.NotApplied = append(res.NotApplied, system.NotApplied{Line: n.Line, Reason: n.Reason, Rule: n.Rule})
	}
	return res, nil
}

// Picture draws the table after the block: the scene (SceneOf) through
// the renderer New was given.
func (b *Battle) Picture(before, after system.State, events [][]byte) ([]byte, error) {
	if b.draw == nil {
		return nil, errors.New("strike: no table renderer was given to strike.New")
	}
	var bs *battle.State
	if before != nil {
		s, err := b.state(before)
		if err != nil {
			return nil, err
		}
		bs = s
	}
	as, err := b.state(after)
	if err != nil {
		return nil, err
	}
	sc, err := SceneOf(b.B, bs, as, events)
	if err != nil {
		return nil, err
	}
	return b.draw(sc)
}

// State is a strike state behind the seam.
type State struct {
	b *battle.Battle
	S *battle.State
}

func (s *State) Encode() []byte { return s.S.Encode() }
func (s *State) Move() int      { return s.S.Blocks }

// Outcome implements system.State: the winner the house victory rule
// names (R540), or a draw.
func (s *State) Outcome() *system.Outcome {
	if !s.S.Over {
		return nil
	}
	return &system.Outcome{Draw: s.S.Winner < 0, Winner: max(s.S.Winner, 0), Reason: s.S.Result}
}

// Standing implements system.State: the side's stands on the table
// against the loss that breaks its army (R540).
func (s *State) Standing(side int) string {
	return fmt.Sprintf("%d of %d stands on the table; the army breaks at %d.", s.S.Stands(side), s.b.StartStands(side), s.b.BreaksAt(side))
}

// Turn says whose block the game waits for, with example order lines
// legal now (battle.Suggest).
func (s *State) Turn() system.Turn {
	side := s.b.Sides[s.S.Side]
	if s.S.Over {
		return system.Turn{Side: s.S.Side, Label: s.b.Title + ": the battle is over", Waiting: "over: " + s.S.Result}
	}
	return system.Turn{
		Side:    s.S.Side,
		Label:   fmt.Sprintf("Turn %d, the %s move", s.S.Turn, side),
		Waiting: fmt.Sprintf("waiting for the orders of the %s for turn %d of %d", side, s.S.Turn, s.b.Turns),
		Legal:   battle.Suggest(s.b, s.S),
	}
}

// dice adapts the seam's dice to the rules core's.
type dice struct{ d system.Dice }

// DiceOf is the rules core's dice from the seam's (docs/strike.md): a
// D20 is RollN(why, 20)+1; a card is RollN(why, 54) read by CardOf.
func DiceOf(d system.Dice) core.Dice { return dice{d} }

func (x dice) Roll20(why string) (int, error) {
	n, err := x.d.RollN(why, 20)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > 19 {
		return 0, fmt.Errorf("strike: a d20 roll of %d from RollN(20)", n)
	}
	return n + 1, nil
}

func (x dice) Card(why string) (core.Card, error) {
	n, err := x.d.RollN(why, 54)
	if err != nil {
		return core.Card{}, err
	}
	return CardOf(n)
}

// CardOf reads a card of the 54-card deck from its index: 0–51 are the
// suits S, H, D, C in that order, each Ace (1) to King (13), index =
// suit×13 + rank−1; 52 and 53 are the Jokers.
func CardOf(n int) (core.Card, error) {
	switch {
	case n == 52 || n == 53:
		return core.Card{Joker: true}, nil
	case n < 0 || n > 53:
		return core.Card{}, fmt.Errorf("strike: card index %d is not 0–53", n)
	}
	return core.Card{Suit: [...]string{"S", "H", "D", "C"}[n/13], Rank: n%13 + 1}, nil
}

var _ system.System = (*System)(nil)
var _ system.Battle = (*Battle)(nil)
var _ system.State = (*State)(nil)

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// Auto is a legal block for side chosen by battle.Auto with a generator
// seeded by seed, for herald demo's scripted players (the table is
// public: they look at it as a player across the table does).
func (b *Battle) Auto(st system.State, side int, seed int64) ([]string, error) {
	s, err := b.state(st)
	if err != nil {
		return nil, err
	}
	return battle.Auto(b.B, s, side, rand.New(rand.NewSource(seed))), nil
}
