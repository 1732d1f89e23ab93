package games

import (
	"fmt"
	"strings"

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
	st := engine.NewState(sc)
	var out []dice.Digest
	for i, b := range blocks {
		side, ok := sc.SideByName(b.Side)
		if !ok {
			return out, fmt.Errorf("block %d: no side %q in %s", i, b.Side, sc.ID)
		}
		orders, err := engine.ParseOrders(engine.SplitLines(strings.TrimSuffix(b.Orders, "\n")))
		if err != nil {
			return out, fmt.Errorf("block %d: %w", i, err)
		}
		res, err := engine.Apply(sc, st, side, orders, rolls.Dice(i))
		if err != nil {
			return out, fmt.Errorf("block %d: %w", i, err)
		}
		d, err := Digests(res)
		if err != nil {
			return out, err
		}
		out = append(out, d)
		st = res.State
	}
	return out, nil
}
