package games

import (
	"fmt"
	"strings"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/store"
)

// Summary is where a game stands, for herald game list and show.
type Summary struct {
	ID, Scenario string
	Move         int
	Record       *store.Game
	// Waiting is whom the game waits for, or how it ended.
	Waiting string
	Sides   [2]SideSummary
	Chain   dice.Chain
	Events  uint64
	// Dice counts the faces rolled so far, with a chi-square test: the
	// report for the player who feels the dice hate him.
	Dice dice.Tally
}

// SideSummary is one army's standing.
type SideSummary struct {
	Name, Player              string
	FlightPoints, FlightLevel int
}

// Summary describes one game.
func (s *Service) Summary(id string) (*Summary, error) {
	var out *Summary
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		out, err = s.summary(tx, id)
		return err
	})
	return out, err
}

// Games describes every game of the store, by id.
func (s *Service) Games() ([]*Summary, error) {
	var out []*Summary
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		recs, err := tx.Games()
		if err != nil {
			return err
		}
		for _, r := range recs {
			sum, err := s.summary(tx, r.ID)
			if err != nil {
				return err
			}
			out = append(out, sum)
		}
		return nil
	})
	return out, err
}

func (s *Service) summary(tx *store.Tx, id string) (*Summary, error) {
	g, err := s.load(tx, id)
	if err != nil {
		return nil, err
	}
	snap, err := tx.State(id)
	if err != nil {
		return nil, err
	}
	sum := &Summary{ID: g.rec.ID, Scenario: g.rec.Scenario, Move: g.rec.Move, Record: g.rec,
		Waiting: g.current().Turn().Waiting, Chain: g.chain, Events: snap.Events}
	if sum.Dice, err = tally(tx, id); err != nil {
		return nil, err
	}
	if g.rec.Over {
		sum.Waiting = "over: " + g.rec.Result
	}
	for i, side := range s.gameView(g).Sides {
		sum.Sides[i] = SideSummary{Name: side.Name, Player: side.Player, FlightPoints: side.FlightPoints, FlightLevel: side.FlightLevel}
	}
	return sum, nil
}

// Position is a game's battle and its state now, for drawing it.
func (s *Service) Position(id string) (*engine.Scenario, *engine.State, error) {
	g, err := s.view(id)
	if err != nil {
		return nil, nil, err
	}
	return g.sc, g.st, nil
}

// tally counts the faces of a game's d10s (the report judges a d10; a
// die of other faces, dice.Batch.RollN, is left out).
func tally(tx *store.Tx, id string) (dice.Tally, error) {
	var t dice.Tally
	err := tx.Log(id, func(seq uint64, line []byte) error {
		e, err := dice.ParseEntry(line)
		if err == nil && e.Kind == dice.KindRoll && e.Faces == 10 {
			t.Add(e.Value)
		}
		return err
	})
	if err != nil {
		return t, fmt.Errorf("games: %s: dice log: %w", id, err)
	}
	return t, nil
}

// diceReport is the dice report of a game for its last mails, in lines
// of at most 72 columns; none when no die was rolled.
func diceReport(tx *store.Tx, id string) ([]string, error) {
	t, err := tally(tx, id)
	if err != nil || t.N == 0 {
		return nil, err
	}
	face, count := "  face: ", "  count:"
	for f, c := range t.Counts {
		face += fmt.Sprintf(" %4d", f)
		count += fmt.Sprintf(" %4d", c)
	}
	out := []string{fmt.Sprintf("Dice report: %d rolls of a d10", t.N), face, count,
		fmt.Sprintf("  chi-square %.2f (9 degrees of freedom), p = %.3f", t.ChiSquare(), t.P())}
	line := " "
	for _, w := range strings.Fields(t.Interpretation()) {
		if len(line)+1+len(w) > 72 {
			out = append(out, line)
			line = " "
		}
		line += " " + w
	}
	return append(out, line), nil
}
