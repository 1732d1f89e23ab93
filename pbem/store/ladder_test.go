package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"herald/pbem/store"
)

// TestLadders: a ladder's record, journal and game index on a real file,
// across a reopening; a failed transaction leaves nothing.
func TestLadders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := tx.CreateLadder("club", []byte(`{"id":"club"}`)); err != nil {
			return err
		}
		if err := tx.CreateLadder("other", []byte(`{"id":"other"}`)); err != nil {
			return err
		}
		if _, err := tx.AppendLadderLog("club", []byte("created")); err != nil {
			return err
		}
		if _, err := tx.AppendLadderLog("club", []byte("added a")); err != nil {
			return err
		}
		if err := tx.PutDowntime([]byte(`{"last_alive":"x"}`)); err != nil {
			return err
		}
		return tx.PutLadder("club", []byte(`{"id":"club","v":2}`), []string{"crecy-1", "crecy-2"})
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		fn   func(tx *store.Tx) error
		want error
	}{
		{"create twice", func(tx *store.Tx) error { return tx.CreateLadder("club", []byte(`{}`)) }, store.ErrExists},
		{"put unknown", func(tx *store.Tx) error { return tx.PutLadder("nope", []byte(`{}`), nil) }, store.ErrNotFound},
		{"another ladder's game", func(tx *store.Tx) error {
			return tx.PutLadder("other", []byte(`{"v":9}`), []string{"crecy-9", "crecy-1"})
		}, store.ErrExists},
		{"log of unknown", func(tx *store.Tx) error { _, err := tx.AppendLadderLog("nope", nil); return err }, store.ErrNotFound},
		{"rolled back", func(tx *store.Tx) error {
			tx.PutLadder("club", []byte(`{"v":3}`), []string{"crecy-3"})
			tx.AppendLadderLog("club", []byte("lost"))
			return store.ErrStale
		}, store.ErrStale},
	}
	for _, c := range cases {
		if err := s.Update(c.fn); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	s.Close()
	if s, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *store.Tx) error {
		rec, err := tx.Ladder("club")
		if err != nil || string(rec) != `{"id":"club","v":2}` {
			t.Errorf("record %s %v", rec, err)
		}
		if rec, _ := tx.Ladder("other"); string(rec) != `{"id":"other"}` {
			t.Errorf("other's record %s", rec)
		}
		if _, err := tx.Ladder("nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown ladder: %v", err)
		}
		if got := fmt.Sprint(tx.Ladders()); got != "[club other]" {
			t.Errorf("ladders %s", got)
		}
		for g, want := range map[string]string{"crecy-1": "club", "crecy-2": "club", "crecy-3": "", "crecy-9": ""} {
			if got := tx.LadderOfGame(g); got != want {
				t.Errorf("ladder of %s: %q, want %q", g, got, want)
			}
		}
		var log []string
		tx.LadderLog("club", func(seq uint64, e []byte) error {
			log = append(log, fmt.Sprintf("%d:%s", seq, e))
			return nil
		})
		if fmt.Sprint(log) != "[1:created 2:added a]" {
			t.Errorf("journal %v", log)
		}
		if string(tx.Downtime()) != `{"last_alive":"x"}` {
			t.Errorf("downtime %s", tx.Downtime())
		}
		return nil
	})
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
