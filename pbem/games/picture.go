package games

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"herald/engine"
	"herald/mapimg"
	"herald/pbem/dice"
	"herald/pbem/store"
	"herald/pbem/system"
)

// What a game shows to anyone who is neither of its players: the web
// status page (pbem/web). Nothing here is private to a side: no hidden
// Seizure counter, no standing order or held order before it acts.

// Picture draws a game as it stands now, as its mails draw it: for a Men
// of Iron battle the mail's map (mapimg.ForMail) of the public position
// (no hidden Seizure counter), for another system its battle's Picture.
// It draws whether or not the service attaches maps to its mails.
func (s *Service) Picture(id string) ([]byte, error) {
	g, err := s.view(id)
	if err != nil {
		return nil, err
	}
	if g.sc != nil {
		pub := g.st.Public()
		png, err := mapimg.PNG(g.sc, pub, mapimg.ForMail(mapimg.Marks(g.sc, pub, pub, nil)))
		if err != nil {
			return nil, fmt.Errorf("games: picture of %s: %w", id, err)
		}
		return png, nil
	}
	png, err := g.battle.Picture(nil, g.state, nil)
	if err != nil {
		return nil, fmt.Errorf("games: picture of %s: %w", id, err)
	}
	return png, nil
}

// PublicLog narrates a game's events from the first, in the lines its
// mails tell them, leaving out what only one side may know: for a Men of
// Iron battle each event engine.PrivateTo gives no owner, as
// engine.Describe tells it (bookkeeping events, which describe
// themselves as "", make no line); for another system, block by block,
// the lines its Narrate tells both sides alike.
func (s *Service) PublicLog(id string) ([]string, error) {
	var out []string
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		g, err := s.load(tx, id)
		if err != nil {
			return err
		}
		if g.sc == nil {
			out, err = publicSystemLog(tx, g)
			return err
		}
		return tx.Events(id, func(seq uint64, raw []byte) error {
			e, err := engine.UnmarshalEvent(raw)
			if err != nil {
				return fmt.Errorf("games: %s: event %d: %w", id, seq, err)
			}
			if _, private := engine.PrivateTo(e); private {
				return nil
			}
			if text := engine.Describe(g.sc, e); text != "" {
				out = append(out, text)
			}
			return nil
		})
	})
	return out, err
}

// publicSystemLog narrates another system's game block by block. The
// store keeps its events in one list; the dice log's block entries tell
// where each block's end, by the SHA-256 of its events
// (dice.EventsSHA256), and carry its rolls for Narrate. A line goes in
// only if Narrate tells it to both sides.
func publicSystemLog(tx *store.Tx, g *game) ([]string, error) {
	var events [][]byte
	err := tx.Events(g.rec.ID, func(_ uint64, raw []byte) error {
		events = append(events, slices.Clone(raw))
		return nil
	})
	if err != nil {
		return nil, err
	}
	type block struct {
		sum   dice.Hash
		rolls []system.Roll
	}
	var blocks []*block
	err = tx.Log(g.rec.ID, func(seq uint64, line []byte) error {
		e, err := dice.ParseEntry(line)
		if err != nil {
			return fmt.Errorf("games: %s: dice log entry %d: %w", g.rec.ID, seq, err)
		}
		switch e.Kind {
		case dice.KindBlock:
			blocks = append(blocks, &block{sum: e.EventsSHA256})
		case dice.KindRoll:
			if len(blocks) > 0 {
				faces := e.Faces
				if faces == 0 {
					faces = 10
				}
				b := blocks[len(blocks)-1]
				b.rolls = append(b.rolls, system.Roll{Index: int(e.Index), Purpose: e.Purpose, Faces: faces, Value: e.Value})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	next := 0
	for i, b := range blocks {
		end, ok := blockEnd(events, next, b.sum)
		if !ok {
			return nil, fmt.Errorf("games: %s: the events of block %d do not match its dice log entry", g.rec.ID, i+1)
		}
		lines, err := commonNarration(g.battle, events[next:end], b.rolls)
		if err != nil {
			return nil, fmt.Errorf("games: %s: block %d: %w", g.rec.ID, i+1, err)
		}
		out = append(out, lines...)
		next = end
	}
	return out, nil
}

// blockEnd finds the end of the block of events starting at from whose
// dice.EventsSHA256 is sum: the shortest such run.
func blockEnd(events [][]byte, from int, sum dice.Hash) (int, bool) {
	h := sha256.New()
	for end := from; ; end++ {
		var got dice.Hash
		h.Sum(got[:0])
		if got == sum {
			return end, true
		}
		if end == len(events) {
			return 0, false
		}
		h.Write(events[end])
		h.Write([]byte{'\n'})
	}
}

// commonNarration is what Narrate tells both sides of a block alike, in
// the first side's order.
func commonNarration(b system.Battle, events [][]byte, rolls []system.Roll) ([]string, error) {
	first, err := b.Narrate(events, rolls, 0)
	if err != nil {
		return nil, err
	}
	second, err := b.Narrate(events, rolls, 1)
	if err != nil {
		return nil, err
	}
	left := map[string]int{}
	for _, l := range second {
		left[l]++
	}
	var out []string
	for _, l := range first {
		if left[l] > 0 {
			left[l]--
			out = append(out, l)
		}
	}
	return out, nil
}
