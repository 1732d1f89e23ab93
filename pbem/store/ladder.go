package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Ladders are stored as pbem/ladder encodes them: the store keeps the
// bytes, a journal of what was done to each ladder, and which ladder each
// ladder game belongs to.

var (
	bucketLadders     = []byte("ladders")
	bucketLadderGames = []byte("ladder-games")
	keyDowntime       = "downtime"
	keyRecord         = []byte("record")
	subLog            = []byte("log")
)

// CreateLadder stores a new ladder's record; ErrExists if the id is taken.
func (t *Tx) CreateLadder(id string, record []byte) error {
	all := t.tx.Bucket(bucketLadders)
	if all.Bucket([]byte(id)) != nil {
		return fmt.Errorf("store: ladder %q: %w", id, ErrExists)
	}
	b, err := all.CreateBucket([]byte(id))
	if err != nil {
		return fmt.Errorf("store: create ladder %q: %w", id, err)
	}
	if _, err := b.CreateBucket(subLog); err != nil {
		return err
	}
	return b.Put(keyRecord, record)
}

func (t *Tx) ladder(id string) (*bolt.Bucket, error) {
	b := t.tx.Bucket(bucketLadders).Bucket([]byte(id))
	if b == nil {
		return nil, fmt.Errorf("store: ladder %q: %w", id, ErrNotFound)
	}
	return b, nil
}

// Ladder returns a copy of a ladder's record.
func (t *Tx) Ladder(id string) ([]byte, error) {
	b, err := t.ladder(id)
	if err != nil {
		return nil, err
	}
	return clone(b.Get(keyRecord)), nil
}

// PutLadder replaces a ladder's record and indexes its games: each id in
// games is recorded as the ladder's. A game already another ladder's is
// refused (ErrExists).
func (t *Tx) PutLadder(id string, record []byte, games []string) error {
	b, err := t.ladder(id)
	if err != nil {
		return err
	}
	index := t.tx.Bucket(bucketLadderGames)
	for _, g := range games {
		if other := index.Get([]byte(g)); other != nil && string(other) != id {
			return fmt.Errorf("store: game %q is ladder %s's: %w", g, other, ErrExists)
		}
		if err := index.Put([]byte(g), []byte(id)); err != nil {
			return err
		}
	}
	return b.Put(keyRecord, record)
}

// Ladders lists the ladders' ids in order.
func (t *Tx) Ladders() []string {
	var out []string
	t.tx.Bucket(bucketLadders).ForEachBucket(func(k []byte) error {
		out = append(out, string(k))
		return nil
	})
	return out
}

// LadderOfGame is the ladder a game belongs to, "" if none.
func (t *Tx) LadderOfGame(game string) string {
	return string(t.tx.Bucket(bucketLadderGames).Get([]byte(game)))
}

// AppendLadderLog appends a line to a ladder's journal.
func (t *Tx) AppendLadderLog(id string, entry []byte) (uint64, error) {
	b, err := t.ladder(id)
	if err != nil {
		return 0, err
	}
	return appendSeq(b.Bucket(subLog), entry)
}

// LadderLog walks a ladder's journal in order.
func (t *Tx) LadderLog(id string, fn func(seq uint64, entry []byte) error) error {
	b, err := t.ladder(id)
	if err != nil {
		return err
	}
	return walk(b.Bucket(subLog), 1, fn)
}

// Downtime is Herald's record of its outages (pbem/ladder.Downtime), nil
// before the first beat.
func (t *Tx) Downtime() []byte { return t.Meta(keyDowntime) }

// PutDowntime stores it.
func (t *Tx) PutDowntime(v []byte) error { return t.PutMeta(keyDowntime, v) }
