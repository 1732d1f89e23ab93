package store

import (
	"fmt"
	"sort"
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

var (
	keyRecord = []byte("record")
	keyState  = []byte("state")
	subEvents = []byte("events")
	subLog    = []byte("log")
	subSecret = []byte("secret")
	subMail   = []byte("mail")
)

// CreateGame stores a new game; ErrExists if the id is taken.
func (t *Tx) CreateGame(g *Game, state []byte) error {
	games := t.tx.Bucket(bucketGames)
	if games.Bucket([]byte(g.ID)) != nil {
		return fmt.Errorf("store: game %q: %w", g.ID, ErrExists)
	}
	b, err := games.CreateBucket([]byte(g.ID))
	if err != nil {
		return fmt.Errorf("store: create game %q: %w", g.ID, err)
	}
	for _, sub := range [][]byte{subEvents, subLog, subSecret, subMail} {
		if _, err := b.CreateBucket(sub); err != nil {
			return err
		}
	}
	if err := putJSON(b, keyRecord, g); err != nil {
		return err
	}
	return putJSON(b, keyState, StateRecord{State: state})
}

func (t *Tx) game(id string) (*bolt.Bucket, error) {
	b := t.tx.Bucket(bucketGames).Bucket([]byte(id))
	if b == nil {
		return nil, fmt.Errorf("store: game %q: %w", id, ErrNotFound)
	}
	return b, nil
}

// Game returns a game's record.
func (t *Tx) Game(id string) (*Game, error) {
	b, err := t.game(id)
	if err != nil {
		return nil, err
	}
	var g Game
	return &g, getJSON(b, keyRecord, &g)
}

// PutGame replaces a game's record.
func (t *Tx) PutGame(g *Game) error {
	b, err := t.game(g.ID)
	if err != nil {
		return err
	}
	return putJSON(b, keyRecord, g)
}

// Games lists all game records, sorted by id.
func (t *Tx) Games() ([]*Game, error) {
	var out []*Game
	err := t.tx.Bucket(bucketGames).ForEachBucket(func(k []byte) error {
		g, err := t.Game(string(k))
		if err == nil {
			out = append(out, g)
		}
		return err
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// State returns the snapshot of the game's latest state.
func (t *Tx) State(id string) (*StateRecord, error) {
	b, err := t.game(id)
	if err != nil {
		return nil, err
	}
	var r StateRecord
	return &r, getJSON(b, keyState, &r)
}

// AppendEvents adds events (each engine.MarshalEvent output) to the game's
// log and stores the state they lead to as the new snapshot.
func (t *Tx) AppendEvents(id string, events [][]byte, state []byte) error {
	b, err := t.game(id)
	if err != nil {
		return err
	}
	ev := b.Bucket(subEvents)
	for _, e := range events {
		if _, err := appendSeq(ev, e); err != nil {
			return fmt.Errorf("store: append event to %q: %w", id, err)
		}
	}
	return putJSON(b, keyState, StateRecord{Events: ev.Sequence(), State: state})
}

// Events calls fn for each event of the game in order, from the first.
// The slice passed to fn is valid only during the call.
func (t *Tx) Events(id string, fn func(seq uint64, event []byte) error) error {
	b, err := t.game(id)
	if err != nil {
		return err
	}
	return walk(b.Bucket(subEvents), 1, fn)
}

// AppendLog adds an entry to the game's dice log and returns its sequence
// number (from 1).
func (t *Tx) AppendLog(id string, entry []byte) (uint64, error) {
	b, err := t.game(id)
	if err != nil {
		return 0, err
	}
	return appendSeq(b.Bucket(subLog), entry)
}

// Log calls fn for each dice-log entry of the game in order.
func (t *Tx) Log(id string, fn func(seq uint64, entry []byte) error) error {
	b, err := t.game(id)
	if err != nil {
		return err
	}
	return walk(b.Bucket(subLog), 1, fn)
}

// Secret returns a copy of a secret value of the game (nil if absent).
func (t *Tx) Secret(id, name string) ([]byte, error) {
	b, err := t.game(id)
	if err != nil {
		return nil, err
	}
	return clone(b.Bucket(subSecret).Get([]byte(name))), nil
}

// PutSecret stores a secret value of the game.
func (t *Tx) PutSecret(id, name string, v []byte) error {
	b, err := t.game(id)
	if err != nil {
		return err
	}
	return b.Bucket(subSecret).Put([]byte(name), v)
}

// Mail returns a copy of a stored mail of the game (nil if absent).
func (t *Tx) Mail(id, name string) ([]byte, error) {
	b, err := t.game(id)
	if err != nil {
		return nil, err
	}
	return clone(b.Bucket(subMail).Get([]byte(name))), nil
}

// PutMail keeps a mail of the game under a name ("latest:English").
func (t *Tx) PutMail(id, name string, v []byte) error {
	b, err := t.game(id)
	if err != nil {
		return err
	}
	return b.Bucket(subMail).Put([]byte(name), v)
}
