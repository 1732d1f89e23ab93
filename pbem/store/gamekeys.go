package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	bolt "go.etcd.io/bbolt"
)

// The games share their buckets: one for their records, one for the
// values a mail rewrites (state, dice record, secrets, mails), one for
// their events and one for their dice logs, not a bucket of each game's
// own. A bucket of its own took pages of its own, mostly empty: a fresh
// game cost 12.7 kB (docs/performance.md); shared, the games' entries
// fill the same pages. A game's values lie side by side in one bucket, so
// that a mail rewrites few pages.
var (
	bucketGameRecords = []byte("game-records") // <id> → JSON Game
	bucketGameValues  = []byte("game-values")  // <id>\0state, dice, secret:<name>, mail:<name>
	bucketGameEvents  = []byte("game-events")  // <id>\0<seq> → event
	bucketGameLog     = []byte("game-log")     // <id>\0<seq> → dice-log entry

	gameBuckets = [][]byte{bucketGameRecords, bucketGameValues, bucketGameEvents, bucketGameLog}
)

// The keys of a game's values, after its id and a NUL.
const (
	valueState   = "state"   // StateRecord (staterecord.go)
	valueDice    = "dice"    // JSON DiceRecord
	secretPrefix = "secret:" // + name: a secret
	mailPrefix   = "mail:"   // + name: a mail kept
)

// gameKey is the key of a game's entry k in a bucket all games share: the
// game's id, a NUL, then k. No game id holds a NUL (CreateGame), so the
// keys of one game are exactly those that start with its id and a NUL, and
// they sort together, in the order of k.
func gameKey(id string, k []byte) []byte {
	key := make([]byte, 0, len(id)+1+len(k))
	key = append(key, id...)
	key = append(key, 0)
	return append(key, k...)
}

// keyName is a key as a message shows it: a sequence number as the
// number, a game's entry as its id and its own key ("crecy-01 state",
// "crecy-01 12"), any other key as it is.
func keyName(key []byte) string {
	if len(key) == 8 && bytes.IndexFunc(key, unicode.IsPrint) != 0 {
		return strconv.FormatUint(binary.BigEndian.Uint64(key), 10)
	}
	if id, own, ok := bytes.Cut(key, []byte{0}); ok {
		return string(id) + " " + keyName(own)
	}
	return string(key)
}

// checkGameID refuses an id with a NUL, which would mix its keys with
// another game's.
func checkGameID(id string) error {
	if strings.IndexByte(id, 0) >= 0 {
		return fmt.Errorf("store: game id %q holds a NUL", id)
	}
	return nil
}

// walkGame calls fn for each of the game's entries in b whose own key is
// from or after it, in order, with the entry's own key.
func walkGame(b *bolt.Bucket, id string, from []byte, fn func(k, v []byte) error) error {
	prefix := gameKey(id, nil)
	c := b.Cursor()
	for k, v := c.Seek(gameKey(id, from)); bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(k[len(prefix):], v); err != nil {
			return err
		}
	}
	return nil
}

// appendGameSeq appends v to the game's sequence in b under the number
// after its last one (the first is 1), and returns that number. Entries
// are never deleted, so the last key is the sequence's length.
func appendGameSeq(b *bolt.Bucket, id string, v []byte) (uint64, error) {
	n := lastGameSeq(b, id) + 1
	return n, b.Put(gameKey(id, seqKey(n)), v)
}

// lastGameSeq is the number of the game's last entry in sequence bucket b,
// 0 if it has none.
func lastGameSeq(b *bolt.Bucket, id string) uint64 {
	prefix := gameKey(id, nil)
	after := append([]byte(id), 1) // the first key past the game's own
	c := b.Cursor()
	k, _ := c.Seek(after)
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if !bytes.HasPrefix(k, prefix) || len(k) != len(prefix)+8 {
		return 0
	}
	return keySeq(k[len(prefix):])
}

// gameFill is how full bbolt leaves the pages of the games' buckets when
// it splits them, instead of its default half: a game's entries are
// mostly added after its last one, which with the default left most pages
// half empty. Measured (docs/performance.md; a bucket for each kind of
// value then), a fresh game took 7,195 bytes at 0.5, 6,376 at 0.75 and
// 6,185 at 0.9; an applied mail 4,451, 3,195 and 2,772.
const gameFill = 0.9

// shared is one of the buckets all games share.
func (t *Tx) shared(name []byte) *bolt.Bucket { return sharedBucket(t.tx, name) }

func sharedBucket(tx *bolt.Tx, name []byte) *bolt.Bucket {
	b := tx.Bucket(name)
	if tx.Writable() {
		b.FillPercent = gameFill // bbolt keeps it for the transaction only
	}
	return b
}
