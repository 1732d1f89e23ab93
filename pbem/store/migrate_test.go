package store_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"

	"herald/pbem/store"
)

// v1Game is what a game held in the first schema, each game a bucket of
// its own (games/<id>/): its values and its sub-buckets' entries.
type v1Game struct {
	record, state, dice []byte
	events, log         [][]byte // under their sequence number, from 1
	secret, mail        map[string][]byte
}

// v1Games are games as the first schema kept them: ids one the prefix of
// another, a fresh game with empty sub-buckets, one well on.
func v1Games() map[string]v1Game {
	rec := func(id string, move int) []byte {
		raw, _ := json.Marshal(store.Game{ID: id, Scenario: "crecy", Move: move,
			Players: []store.Player{{Side: "English", Address: "alice@example.org", KeySHA256: [32]byte{1, 2}}}})
		return raw
	}
	return map[string]v1Game{
		"crecy-1": {record: rec("crecy-1", 0), state: []byte(`{"events":0,"state":"e30="}`),
			secret: map[string][]byte{}, mail: map[string][]byte{}},
		"crecy-10": {record: rec("crecy-10", 3), state: []byte(`{"events":3,"state":"eyJtb3ZlIjozfQ=="}`),
			dice:   []byte(`{"header":"SGVhZGVy","chain":"abc"}`),
			events: [][]byte{[]byte(`{"e":1}`), []byte(`{"e":2}`), []byte(`{"e":3}`)},
			log:    [][]byte{[]byte("roll 1"), []byte("roll 2")},
			secret: map[string][]byte{"seed": {0, 1, 2, 255}, "hidden:English": []byte("h"), "key0": []byte("LEGA-CY")},
			mail:   map[string][]byte{"latest:English": []byte("Subject: x\r\n\r\nbody"), "last-id:English": []byte("<m@x>"), "sent-blocks": []byte(`["f1"]`)}},
		"crecy-2": {record: rec("crecy-2", 1), state: []byte(`{"events":1,"state":"e30="}`),
			dice:   []byte(`{"header":"SA==","chain":null}`),
			events: [][]byte{[]byte(`{"e":"only"}`)},
			secret: map[string][]byte{"seed": []byte("s2")}, mail: map[string][]byte{"queued-standing": []byte("[]")}},
	}
}

// writeV1 writes a store file in the first schema exactly as its game.go
// built it, with a ladder and a meta value beside, and no schema version.
func writeV1(t *testing.T, path string, games map[string]v1Game) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"meta", "games", "processed", "outbox", "outbox-due",
			"outbox-streams", "undeliverable", "ladders", "ladder-games"} {
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		tx.Bucket([]byte("meta")).Put([]byte("installation-secret"), []byte("0123456789abcdef"))
		ladder, _ := tx.Bucket([]byte("ladders")).CreateBucket([]byte("spring"))
		ladder.Put([]byte("record"), []byte(`{"id":"spring"}`))
		journal, _ := ladder.CreateBucket([]byte("log"))
		journal.NextSequence()
		journal.Put(seq(1), []byte(`{"what":"opened"}`))
		tx.Bucket([]byte("ladder-games")).Put([]byte("crecy-2"), []byte("spring"))
		for id, g := range games {
			if err := writeV1Game(tx.Bucket([]byte("games")), id, g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeV1Game(games *bolt.Bucket, id string, g v1Game) error {
	b, err := games.CreateBucket([]byte(id))
	if err != nil {
		return err
	}
	subs := map[string]*bolt.Bucket{}
	for _, sub := range []string{"events", "log", "secret", "mail"} {
		if subs[sub], err = b.CreateBucket([]byte(sub)); err != nil {
			return err
		}
	}
	b.Put([]byte("record"), g.record)
	b.Put([]byte("state"), g.state)
	if g.dice != nil {
		b.Put([]byte("dice"), g.dice)
	}
	for sub, entries := range map[string][][]byte{"events": g.events, "log": g.log} {
		for _, e := range entries {
			n, _ := subs[sub].NextSequence()
			subs[sub].Put(seq(n), e)
		}
	}
	for name, v := range g.secret {
		subs["secret"].Put([]byte(name), v)
	}
	for name, v := range g.mail {
		subs["mail"].Put([]byte(name), v)
	}
	return nil
}

func seq(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// A store of the first schema, opened, holds every game's values as they
// were, read through the store's own methods, and goes on from there.
func TestOpenMigratesV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	want := v1Games()
	writeV1(t, path, want)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		if err != nil || len(games) != len(want) {
			t.Fatalf("Games: %d, %v; want %d", len(games), err, len(want))
		}
		for id, g := range want {
			checkGame(t, tx, id, g)
		}
		if string(tx.Meta("installation-secret")) != "0123456789abcdef" || tx.LadderOfGame("crecy-2") != "spring" {
			t.Error("the meta values or the ladder index changed")
		}
		if r, err := tx.Ladder("spring"); err != nil || string(r) != `{"id":"spring"}` {
			t.Errorf("Ladder: %s, %v", r, err)
		}
		return nil
	})
	err = s.Update(func(tx *store.Tx) error {
		if err := tx.AppendEvents("crecy-10", [][]byte{[]byte("e4")}, []byte("s4")); err != nil {
			return err
		}
		st, err := tx.State("crecy-10")
		if err != nil || st.Events != 4 {
			t.Errorf("after a fourth event: %+v, %v", st, err)
		}
		n, err := tx.AppendLog("crecy-10", []byte("roll 3"))
		if n != 3 {
			t.Errorf("AppendLog after 2 entries: %d, want 3", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkGame compares everything the store holds of a game with what its
// v1 bucket held.
func checkGame(t *testing.T, tx *store.Tx, id string, want v1Game) {
	t.Helper()
	var g store.Game
	json.Unmarshal(want.record, &g)
	if got, err := tx.Game(id); err != nil || !reflect.DeepEqual(*got, g) {
		t.Errorf("%s: Game = %+v, %v; want %+v", id, got, err, g)
	}
	var st store.StateRecord
	json.Unmarshal(want.state, &st)
	if got, err := tx.State(id); err != nil || !reflect.DeepEqual(*got, st) {
		t.Errorf("%s: State = %+v, %v; want %+v", id, got, err, st)
	}
	var d store.DiceRecord
	json.Unmarshal(want.dice, &d)
	if got, err := tx.Dice(id); (want.dice == nil) != (err != nil) || (err == nil && !reflect.DeepEqual(*got, d)) {
		t.Errorf("%s: Dice = %+v, %v; want %s", id, got, err, want.dice)
	}
	if got := entries(t, tx.Events, id); !reflect.DeepEqual(got, numbered(want.events)) {
		t.Errorf("%s: Events = %q, want %q", id, got, numbered(want.events))
	}
	if got := entries(t, tx.Log, id); !reflect.DeepEqual(got, numbered(want.log)) {
		t.Errorf("%s: Log = %q, want %q", id, got, numbered(want.log))
	}
	for name, v := range want.secret {
		if got, err := tx.Secret(id, name); err != nil || string(got) != string(v) {
			t.Errorf("%s: Secret(%s) = %q, %v; want %q", id, name, got, err, v)
		}
	}
	for name, v := range want.mail {
		if got, err := tx.Mail(id, name); err != nil || string(got) != string(v) {
			t.Errorf("%s: Mail(%s) = %q, %v; want %q", id, name, got, err, v)
		}
	}
	if got, _ := tx.Secret(id, "absent"); got != nil {
		t.Errorf("%s: a secret never stored reads %q", id, got)
	}
}

func entries(t *testing.T, walk func(string, func(uint64, []byte) error) error, id string) []string {
	var out []string
	if err := walk(id, func(n uint64, v []byte) error {
		out = append(out, fmt.Sprintf("%d:%s", n, v))
		return nil
	}); err != nil {
		t.Errorf("%s: %v", id, err)
	}
	return out
}

func numbered(vs [][]byte) []string {
	var out []string
	for i, v := range vs {
		out = append(out, fmt.Sprintf("%d:%s", i+1, v))
	}
	return out
}

// Opening a migrated store again changes nothing in it.
func TestSecondOpenAfterMigrationChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	writeV1(t, path, v1Games())
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	first := dump(t, path)
	if _, ok := first["games"]; ok {
		t.Error("the v1 bucket games is still there")
	}
	if first["meta/schema"] != "2" {
		t.Errorf("meta/schema = %q, want 2", first["meta/schema"])
	}
	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if second := dump(t, path); !reflect.DeepEqual(first, second) {
		t.Errorf("a second Open changed the store:\n%v\nthen\n%v", first, second)
	}
}

// dump is every bucket and value of a store file by path.
func dump(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		out[prefix] = fmt.Sprintf("bucket seq %d", b.Sequence())
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(prefix+"/"+string(k), b.Bucket(k))
			}
			out[prefix+"/"+string(k)] = string(v)
			return nil
		})
	}
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name), b) })
	})
	return out
}
