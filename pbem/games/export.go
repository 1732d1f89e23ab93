package games

import (
	"bytes"
	"fmt"
	"io"

	"herald/pbem/dice"
	"herald/pbem/store"
)

// Export writes a game's dice log as the JSON Lines file herald verify
// reads (docs/dice.md): the header, then every entry. Secrets (the next
// seed, the players' keys) are never part of it.
func (s *Service) Export(id string, w io.Writer) error {
	var b []byte
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		b, err = exportBytes(tx, id)
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func exportBytes(tx *store.Tx, id string) ([]byte, error) {
	d, err := tx.Dice(id)
	if err != nil {
		return nil, err
	}
	h, err := dice.ParseHeader(d.Header)
	if err != nil {
		return nil, fmt.Errorf("games: %s: %w", id, err)
	}
	var entries []dice.Entry
	err = tx.Log(id, func(seq uint64, line []byte) error {
		e, err := dice.ParseEntry(line)
		if err != nil {
			return fmt.Errorf("games: %s: dice log entry %d: %w", id, seq, err)
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := dice.WriteExport(&buf, &h, entries); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
