package games

import (
	"fmt"
	"slices"

	"herald/data"
	"herald/engine"
	"herald/pbem/dice"
)

// Replayer re-applies a game's order blocks through the engine with the
// logged rolls, for dice.Verify: the strongest check of an export.
type Replayer struct{}

// Replay implements dice.Replayer.
func (Replayer) Replay(h dice.Header, blocks []dice.AppliedBlock, rolls dice.RollSource) ([]dice.Digest, error) {
	sc, err := data.Scenario(h.Scenario)
	if err != nil {
		return nil, err
	}
	st, _, err := dealHands(sc, engine.NewState(sc), h.Hands)
	if err != nil {
		return nil, err
	}
	var out []dice.Digest
	for i, b := range blocks {
		parts := sections(b.Orders, b.Side)
		if len(parts) == 0 || parts[len(parts)-1].side != b.Side {
			return out, fmt.Errorf("block %d: its orders do not end with the %s's", i, b.Side)
		}
		dice := rolls.Dice(i)
		var events []engine.Event
		// A batch carries the standing orders queued since the last one,
		// each under its side's line, then the block (standing.go).
		for _, p := range parts {
			side, ok := sc.SideByName(p.side)
			if !ok {
				return out, fmt.Errorf("block %d: no side %q in %s", i, p.side, sc.ID)
			}
			orders, err := engine.ParseOrders(slices.DeleteFunc(p.lines, func(l engine.Line) bool { return isNonce(l.Text) }))
			if err != nil {
				return out, fmt.Errorf("block %d: %w", i, err)
			}
			res, err := engine.Apply(sc, st, side, orders, dice)
			if err != nil {
				return out, fmt.Errorf("block %d: %w", i, err)
			}
			events, st = append(events, res.Events...), res.State
		}
		d, err := Digests(&engine.BlockResult{State: st, Events: events})
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}
