package games

import (
	"encoding/json"
	"fmt"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/store"
	"herald/pbem/system"
)

// game is a game loaded for one mail: its record, battle, state from the
// latest snapshot (never a replay) and where its dice stand.
type game struct {
	rec *store.Game
	// battle and its state, whatever its system; sc and st the same for
	// a Men of Iron battle, whose state lives in st (current, system.go).
	battle system.Battle
	state  system.State
	sc     *engine.Scenario
	st     *engine.State
	header dice.Header
	chain  dice.Chain
	seed   dice.Seed
	keys   [2]string // each side's player key, for the blocks mailed to him
	// encoded is st as stored by the block just played, so that its
	// Reach hints' job does not encode it again.
	encoded encodedState
}

// encodedState is a State and its encoding (engine.State.Encode).
type encodedState struct {
	of   *engine.State
	data []byte
}

// encodedState is st encoded: the block's encoding when st is still the
// state that block stored (States are not changed in place), else anew.
func (g *game) encodedState() []byte {
	if g.encoded.of == g.st && g.encoded.data != nil {
		return g.encoded.data
	}
	return g.st.Encode()
}

const secretSeed = "seed"

func (s *Service) load(tx *store.Tx, id string) (*game, error) {
	rec, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	b, err := s.battle(rec.Scenario)
	if err != nil {
		return nil, fmt.Errorf("games: game %s: %w", id, err)
	}
	snap, err := tx.State(id)
	if err != nil {
		return nil, err
	}
	g := &game{rec: rec, battle: b}
	if sc := iron(b); sc != nil {
		g.sc = sc
		if g.st, err = engine.DecodeState(snap.State); err != nil {
			return nil, fmt.Errorf("games: game %s: %w", id, err)
		}
	} else if err := g.loadSystem(b, snap.State); err != nil {
		return nil, err
	}
	if err := s.loadKeys(tx, g); err != nil {
		return nil, err
	}
	return g, g.loadDice(tx)
}

// view loads a game in a read transaction of its own, for what reads a
// game outside a mail (pictures, logs, scripted players).
func (s *Service) view(id string) (*game, error) {
	var g *game
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		g, err = s.load(tx, id)
		return err
	})
	return g, err
}

func (g *game) loadDice(tx *store.Tx) error {
	d, err := tx.Dice(g.rec.ID)
	if err != nil {
		return err
	}
	if g.header, err = dice.ParseHeader(d.Header); err != nil {
		return fmt.Errorf("games: game %s: %w", g.rec.ID, err)
	}
	if err := json.Unmarshal(d.Chain, &g.chain); err != nil {
		return fmt.Errorf("games: game %s: dice chain: %w", g.rec.ID, err)
	}
	seed, err := tx.Secret(g.rec.ID, secretSeed)
	if err != nil {
		return err
	}
	return g.seed.UnmarshalText(seed)
}

// saveDice stores what a closed batch (or a new game) brings to the log:
// its entries, the chain reached and the next secret seed.
func saveDice(tx *store.Tx, id string, header []byte, up *dice.Update) error {
	if err := appendLog(tx, id, up.Entries); err != nil {
		return err
	}
	chain, err := json.Marshal(up.Chain)
	if err != nil {
		return err
	}
	if err := tx.PutDice(id, store.DiceRecord{Header: header, Chain: chain}); err != nil {
		return err
	}
	seed, err := up.Next.MarshalText()
	if err != nil {
		return err
	}
	return tx.PutSecret(id, secretSeed, seed)
}

// appendLog appends entries to a game's dice log.
func appendLog(tx *store.Tx, id string, entries []dice.Entry) error {
	for _, e := range entries {
		line, err := e.Line()
		if err != nil {
			return err
		}
		if _, err := tx.AppendLog(id, line); err != nil {
			return err
		}
	}
	return nil
}

// side finds the player's side of the game by its name.
func (g *game) side(name string) (engine.Side, bool) { return g.sideOf(name) }

// player returns the address of a side's player.
func (g *game) player(side engine.Side) string {
	name := g.sideName(side)
	for _, p := range g.rec.Players {
		if p.Side == name {
			return p.Address
		}
	}
	return ""
}
