package games

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/store"
)

// Hidden information: the Seizure counters each player of Blood & Roses
// draws blindly (B&R 6.3, ruling R280), kept from his opponent until he
// plays one, yet provable after the game (docs/dice.md, "Hidden draws").
// The dice log commits to each hand before the first mail; the engine's
// state holds the hands, with a secret salt each; every counter played is
// logged; when the game ends the hidden seeds are revealed.

// secretHidden names a side's hidden seed among the game's secrets.
func secretHidden(side string) string { return "hidden:" + side }

// hiddenDraws are the draws a new game of sc makes: one for each side with
// Seizure counters, from its tables' pool.
func hiddenDraws(sc *engine.Scenario) []dice.Draw {
	pool := poolNames(sc)
	var out []dice.Draw
	for _, s := range sc.Sides {
		if s.SeizureCounters > 0 && len(pool) > 0 {
			out = append(out, dice.Draw{Side: s.Name, Pool: pool, Count: s.SeizureCounters})
		}
	}
	return out
}

// poolNames are the names the dice log gives the counters of sc's pool:
// "SO5 Seizure Opportunity 0-5".
func poolNames(sc *engine.Scenario) []string {
	var out []string
	for _, c := range sc.Tables.SeizurePool {
		out = append(out, counterName(c))
	}
	return out
}

func counterName(c engine.SeizureCounter) string {
	if c.Type == engine.CounterOpportunity {
		return fmt.Sprintf("%s %s %d-%d", c.ID, c.Type, c.Min, c.Max)
	}
	return fmt.Sprintf("%s %s", c.ID, c.Type)
}

// dealHands gives each side the counters its hand draws, with the hand's
// salt, as the game's opening state holds them: the same for a new game
// and for the engine replay of its export. It returns the deal's events
// too, which a new game stores first, so that its events fold into its
// state.
func dealHands(sc *engine.Scenario, st *engine.State, hands []dice.Hand) (*engine.State, []engine.Event, error) {
	var events []engine.Event
	for _, h := range hands {
		side, ok := sc.SideByName(h.Side)
		if !ok {
			return nil, nil, fmt.Errorf("games: a hidden draw for %q, not a side of %s", h.Side, sc.ID)
		}
		if !slices.Equal(h.Pool, poolNames(sc)) {
			return nil, nil, fmt.Errorf("games: the %s drew from another pool than %s's tables hold", h.Side, sc.ID)
		}
		var cs []engine.SeizureCounter
		for _, c := range h.Counters {
			cs = append(cs, sc.Tables.SeizurePool[c])
		}
		next, e, err := engine.DealSeizureCounters(sc, st, side, cs, h.Salt.String())
		if err != nil {
			return nil, nil, err
		}
		st, events = next, append(events, e)
	}
	return st, events, nil
}

// saveHidden keeps each side's hidden seed among the game's secrets.
func saveHidden(tx *store.Tx, id string, hidden []dice.Hidden) error {
	for _, h := range hidden {
		b, err := h.Seed.MarshalText()
		if err != nil {
			return err
		}
		if err := tx.PutSecret(id, secretHidden(h.Hand.Side), b); err != nil {
			return err
		}
	}
	return nil
}

// logPlays notes in the batch every counter its events played, by its
// position in the pool: the dice log's play entries.
func logPlays(sc *engine.Scenario, b *dice.Batch, events []engine.Event) error {
	play := func(side engine.Side, id string) error {
		i := slices.IndexFunc(sc.Tables.SeizurePool, func(c engine.SeizureCounter) bool { return strings.EqualFold(c.ID, id) })
		if i < 0 {
			return fmt.Errorf("games: counter %q played, not in %s's pool", id, sc.ID)
		}
		return b.Play(sc.SideName(side), i, counterName(sc.Tables.SeizurePool[i]))
	}
	for _, e := range events {
		var err error
		switch e := e.(type) {
		case engine.CounterPlayed:
			err = play(e.Side, e.Counter)
		case engine.SeizureNegated:
			err = play(e.Side, e.Counter)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// revealHidden ends a game's hidden draws when it is over: the reveal
// entries and a seal, after which its export proves every hand.
func (s *Service) revealHidden(tx *store.Tx, g *game) error {
	if g.sc == nil {
		return nil // other systems draw nothing hidden
	}
	seeds := map[string]dice.Seed{}
	var order []string
	for _, d := range hiddenDraws(g.sc) {
		b, err := tx.Secret(g.rec.ID, secretHidden(d.Side))
		if err != nil || b == nil {
			return err // a game begun before its battle had counters: nothing to reveal
		}
		var seed dice.Seed
		if err := seed.UnmarshalText(b); err != nil {
			return fmt.Errorf("games: %s: hidden seed of the %s: %w", g.rec.ID, d.Side, err)
		}
		seeds[d.Side], order = seed, append(order, d.Side)
	}
	if len(order) == 0 || g.chain.Revealed {
		return nil
	}
	up, err := dice.Reveal(s.key, g.chain, seeds, order)
	if err != nil {
		return err
	}
	if err := appendLog(tx, g.rec.ID, up.Entries); err != nil {
		return err
	}
	g.chain = up.Chain
	chain, err := json.Marshal(g.chain)
	if err != nil {
		return err
	}
	return tx.PutDice(g.rec.ID, store.DiceRecord{Header: g.header.Line(), Chain: chain})
}

// appendDeal stores a new game's deal as its first events.
func appendDeal(tx *store.Tx, id string, deal []engine.Event, st *engine.State) error {
	if len(deal) == 0 {
		return nil
	}
	evs, err := marshalEvents(deal)
	if err != nil {
		return err
	}
	return tx.AppendEvents(id, evs, st.Encode())
}
