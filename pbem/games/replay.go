package games

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/system"
)

// Replayer re-applies a game's order blocks through its game system with
// the logged rolls, for dice.Verify: the strongest check of an export.
type Replayer struct {
	// Systems are the game systems whose battles it knows (default
	// DefaultSystems).
	Systems []system.System
}

// Replay implements dice.Replayer.
func (r Replayer) Replay(h dice.Header, blocks []dice.AppliedBlock, rolls dice.RollSource) ([]dice.Digest, error) {
	systems := r.Systems
	if systems == nil {
		systems = DefaultSystems()
	}
	reg, err := system.NewRegistry(systems...)
	if err != nil {
		return nil, err
	}
	b, err := reg.Battle(h.Scenario)
	if err != nil {
		return nil, err
	}
	sc := iron(b)
	if sc == nil {
		return replaySystem(b, blocks, rolls)
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

// replaySystem replays the blocks of another system's game: each block's
// order text (systemText) through Battle.Play, its NONCE lines left out.
func replaySystem(b system.Battle, blocks []dice.AppliedBlock, rolls dice.RollSource) ([]dice.Digest, error) {
	st, err := b.Start()
	if err != nil {
		return nil, err
	}
	var out []dice.Digest
	for i, blk := range blocks {
		side, ok := sideIndex(b, blk.Side)
		if !ok {
			return out, fmt.Errorf("block %d: no side %q in %s", i, blk.Side, b.ID())
		}
		var lines []system.Line
		for _, l := range engine.SplitLines(strings.TrimSuffix(blk.Orders, "\n")) {
			if !isNonce(l.Text) && strings.TrimSpace(l.Text) != "" {
				lines = append(lines, system.Line{No: l.No, Text: l.Text})
			}
		}
		res, err := b.Play(st, int(side), lines, rolls.Dice(i))
		if err != nil {
			return out, fmt.Errorf("block %d: %w", i, err)
		}
		st = res.State
		out = append(out, dice.Digest{EventsSHA256: dice.EventsSHA256(res.Events), StateSHA256: sha256.Sum256(st.Encode())})
	}
	return out, nil
}
