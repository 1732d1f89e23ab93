package store

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Game is a game's record: who plays it and how it stands.
type Game struct {
	ID         string    `json:"id"`
	Scenario   string    `json:"scenario"`
	Players    []Player  `json:"players"`
	Organizers []string  `json:"organizers,omitempty"`
	Created    time.Time `json:"created"`
	// Move is the move number the next order block must carry.
	Move int `json:"move"`
	// Over is set when the battle has ended or a player resigned.
	Over   bool   `json:"over,omitempty"`
	Result string `json:"result,omitempty"`
	// LastMessageID is the Message-ID of Herald's latest result mail, to
	// thread the next one.
	LastMessageID string `json:"last_message_id,omitempty"`
	// Deadline, if set, is when the player to act is reminded.
	Deadline time.Time `json:"deadline,omitempty"`
	// KeySalt, random and not secret, enters the derivation of the
	// players' keys from the installation secret (pbem/games/keys.go). A
	// game without one is older: its keys are kept among its secrets.
	KeySalt string `json:"key_salt,omitempty"`
}

// Player is one side's player.
type Player struct {
	Side    string `json:"side"`
	Address string `json:"address"`
	// KeySHA256 is the SHA-256 of the player's secret key, which
	// authenticates his orders: all the store keeps of it. Herald derives
	// the key again for the order blocks it mails him (pbem/games/keys.go).
	KeySHA256 [32]byte `json:"key_sha256"`
}

// StateRecord is the snapshot of a game's state after its last event.
type StateRecord struct {
	Events uint64 `json:"events"` // number of events folded into State
	State  []byte `json:"state"`  // engine.State.Encode()
}

// CreateGame stores a new game; ErrExists if the id is taken.
func (t *Tx) CreateGame(g *Game, state []byte) error {
	if err := checkGameID(g.ID); err != nil {
		return err
	}
	if t.shared(bucketGameRecords).Get([]byte(g.ID)) != nil {
		return fmt.Errorf("store: game %q: %w", g.ID, ErrExists)
	}
	if err := putJSON(t.shared(bucketGameRecords), []byte(g.ID), g); err != nil {
		return err
	}
	return t.shared(bucketGameValues).Put(gameKey(g.ID, []byte(valueState)), StateRecord{State: state}.encode())
}

// bucket is the bucket of one kind of entries of game id, which must exist.
func (t *Tx) bucket(name []byte, id string) (*bolt.Bucket, error) {
	if !t.games[id] {
		if t.shared(bucketGameRecords).Get([]byte(id)) == nil {
			return nil, fmt.Errorf("store: game %q: %w", id, ErrNotFound)
		}
		if t.games == nil {
			t.games = map[string]bool{}
		}
		t.games[id] = true
	}
	return t.shared(name), nil
}

// Game returns a game's record.
func (t *Tx) Game(id string) (*Game, error) {
	b, err := t.bucket(bucketGameRecords, id)
	if err != nil {
		return nil, err
	}
	var g Game
	return &g, getJSON(b, []byte(id), &g)
}

// PutGame replaces a game's record.
func (t *Tx) PutGame(g *Game) error {
	b, err := t.bucket(bucketGameRecords, g.ID)
	if err != nil {
		return err
	}
	return putJSON(b, []byte(g.ID), g)
}

// Games lists all game records, sorted by id.
func (t *Tx) Games() ([]*Game, error) {
	var out []*Game
	err := t.shared(bucketGameRecords).ForEach(func(k, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("store: decode game %q: %w", k, err)
		}
		out = append(out, &g)
		return nil
	})
	return out, err
}

// State returns the snapshot of the game's latest state.
func (t *Tx) State(id string) (*StateRecord, error) {
	b, err := t.bucket(bucketGameValues, id)
	if err != nil {
		return nil, err
	}
	return decodeState(b.Get(gameKey(id, []byte(valueState))))
}

// AppendEvents adds events (each engine.MarshalEvent output) to the game's
// log and stores the state they lead to as the new snapshot.
func (t *Tx) AppendEvents(id string, events [][]byte, state []byte) error {
	ev, err := t.bucket(bucketGameEvents, id)
	if err != nil {
		return err
	}
	n := lastGameSeq(ev, id)
	for _, e := range events {
		n++
		if err := ev.Put(gameKey(id, seqKey(n)), e); err != nil {
			return fmt.Errorf("store: append event to %q: %w", id, err)
		}
	}
	return t.shared(bucketGameValues).Put(gameKey(id, []byte(valueState)), StateRecord{Events: n, State: state}.encode())
}

// Events calls fn for each event of the game in order, from the first.
// The slice passed to fn is valid only during the call.
func (t *Tx) Events(id string, fn func(seq uint64, event []byte) error) error {
	return t.walkSeq(bucketGameEvents, id, fn)
}

// AppendLog adds an entry to the game's dice log and returns its sequence
// number (from 1).
func (t *Tx) AppendLog(id string, entry []byte) (uint64, error) {
	b, err := t.bucket(bucketGameLog, id)
	if err != nil {
		return 0, err
	}
	return appendGameSeq(b, id, entry)
}

// Log calls fn for each dice-log entry of the game in order.
func (t *Tx) Log(id string, fn func(seq uint64, entry []byte) error) error {
	return t.walkSeq(bucketGameLog, id, fn)
}

// walkSeq calls fn for each entry of the game's sequence in a bucket, in
// order, from the first.
func (t *Tx) walkSeq(name []byte, id string, fn func(seq uint64, v []byte) error) error {
	b, err := t.bucket(name, id)
	if err != nil {
		return err
	}
	return walkGame(b, id, seqKey(1), func(k, v []byte) error { return fn(keySeq(k), v) })
}

// Secret returns a copy of a secret value of the game (nil if absent).
func (t *Tx) Secret(id, name string) ([]byte, error) {
	return t.named(id, secretPrefix+name)
}

// PutSecret stores a secret value of the game.
func (t *Tx) PutSecret(id, name string, v []byte) error {
	return t.putNamed(id, secretPrefix+name, v)
}

// Mail returns a copy of a stored mail of the game (nil if absent).
func (t *Tx) Mail(id, name string) ([]byte, error) {
	return t.named(id, mailPrefix+name)
}

// PutMail keeps a mail of the game under a name ("latest:English").
func (t *Tx) PutMail(id, name string, v []byte) error {
	return t.putNamed(id, mailPrefix+name, v)
}

// named returns a copy of the game's value under key (nil if absent).
func (t *Tx) named(id, key string) ([]byte, error) {
	b, err := t.bucket(bucketGameValues, id)
	if err != nil {
		return nil, err
	}
	return clone(b.Get(gameKey(id, []byte(key)))), nil
}

func (t *Tx) putNamed(id, key string, v []byte) error {
	b, err := t.bucket(bucketGameValues, id)
	if err != nil {
		return err
	}
	return b.Put(gameKey(id, []byte(key)), v)
}
