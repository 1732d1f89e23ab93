package store

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A value that no longer decodes is named in the error by its game and
// its own key, or its number, not by the raw bytes of its key (a NUL, a
// big-endian number).
func TestDecodeErrorsNameTheKey(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(func(tx *Tx) error {
		if err := tx.CreateGame(&Game{ID: "crecy-01"}, nil); err != nil {
			return err
		}
		_, err := tx.Enqueue([]byte(`{}`), "crecy-01", time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketGameValues).Put(gameKey("crecy-01", []byte(valueDice)), []byte("{")); err != nil {
			return err
		}
		return tx.Bucket(bucketOutbox).Put(seqKey(1), []byte("{"))
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		_, err := tx.Dice("crecy-01")
		if err == nil || !strings.Contains(err.Error(), "decode crecy-01 dice:") {
			t.Errorf("a broken dice record: %v", err)
		}
		_, err = tx.entry(1)
		if err == nil || !strings.Contains(err.Error(), "decode 1:") {
			t.Errorf("a broken outbox entry: %v", err)
		}
		return nil
	})
	for key, want := range map[string]string{
		string(seqKey(12)):                       "12",
		string(gameKey("crecy-01", seqKey(300))): "crecy-01 300",
		string(gameKey("a", []byte("mail:x"))):   "a mail:x",
		"crecy-01":                               "crecy-01",
		"abcdefgh":                               "abcdefgh",
	} {
		if got := keyName([]byte(key)); got != want {
			t.Errorf("keyName(%q) = %q, want %q", key, got, want)
		}
	}
}
