package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Store is an open Herald database.
type Store struct{ db *bolt.DB }

var (
	bucketMeta      = []byte("meta")
	bucketProcessed = []byte("processed")
	bucketOutbox    = []byte("outbox")
)

// Open opens or creates the database at path. It waits at most a second for
// another process to release the file.
func Open(path string) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		indexed := tx.Bucket(bucketOutboxDue) != nil
		buckets := [][]byte{bucketMeta, bucketProcessed, bucketOutbox, bucketOutboxDue,
			bucketOutboxStreams, bucketUndeliverable, bucketLadders, bucketLadderGames}
		for _, b := range append(buckets, gameBuckets...) {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if !indexed {
			if err := indexOutbox(tx); err != nil {
				return err
			}
		}
		return migrate(tx)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: init %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Store) Path() string { return s.db.Path() }

// Size is how many bytes the database's pages take, up to the last one in
// use. The file is larger: bbolt grows it ahead of need, doubling it up to
// 16 MiB and by 16 MiB after, so its size says little of what was written.
func (s *Store) Size() (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	return n, err
}

// Update runs fn in the one read-write transaction: it commits when fn
// returns nil and rolls everything back otherwise. Do no network I/O in fn.
func (s *Store) Update(fn func(*Tx) error) error {
	return s.db.Update(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx}) })
}

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(*Tx) error) error {
	return s.db.View(func(tx *bolt.Tx) error { return fn(&Tx{tx: tx}) })
}

// Check runs bbolt's consistency check.
func (s *Store) Check() error {
	return s.db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return fmt.Errorf("store: check: %w", err)
		}
		return nil
	})
}

// Tx is a transaction.
type Tx struct {
	tx *bolt.Tx
	// games are the ids of the games this transaction found: a game is
	// looked up once, not at every access to its entries (games are never
	// deleted).
	games map[string]bool
}

// Meta returns a copy of a meta value, nil if absent.
func (t *Tx) Meta(key string) []byte {
	return clone(t.tx.Bucket(bucketMeta).Get([]byte(key)))
}

// PutMeta sets a meta value.
func (t *Tx) PutMeta(key string, v []byte) error {
	return t.tx.Bucket(bucketMeta).Put([]byte(key), v)
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func seqKey(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

func keySeq(k []byte) uint64 { return binary.BigEndian.Uint64(k) }

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: encode %s: %w", keyName(key), err)
	}
	return b.Put(key, raw)
}

func getJSON(b *bolt.Bucket, key []byte, v any) error {
	return getDecoded(b, key, func(raw []byte) error { return json.Unmarshal(raw, v) })
}

// getDecoded is getJSON with a decoder of its own (decodeEntry).
func getDecoded(b *bolt.Bucket, key []byte, decode func([]byte) error) error {
	raw := b.Get(key)
	if raw == nil {
		return ErrNotFound
	}
	if err := decode(raw); err != nil {
		return fmt.Errorf("store: decode %s: %w", keyName(key), err)
	}
	return nil
}

// appendSeq appends v under the bucket's next sequence number.
func appendSeq(b *bolt.Bucket, v []byte) (uint64, error) {
	n, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	return n, b.Put(seqKey(n), v)
}

// walk calls fn for each entry of a sequence bucket from seq from on.
func walk(b *bolt.Bucket, from uint64, fn func(seq uint64, v []byte) error) error {
	c := b.Cursor()
	for k, v := c.Seek(seqKey(from)); k != nil; k, v = c.Next() {
		if err := fn(keySeq(k), v); err != nil {
			return err
		}
	}
	return nil
}
