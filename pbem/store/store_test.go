package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"herald/pbem/store"
)

// mustOpen opens a store in a temporary directory and checks its
// consistency when the test ends.
func mustOpen(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Check(); err != nil {
			t.Error(err)
		}
		s.Close()
	})
	return s
}

func TestGameLifecycle(t *testing.T) {
	s := mustOpen(t)
	g := &store.Game{ID: "crecy-4f2a", Scenario: "crecy", Players: []store.Player{{Side: "English", Address: "alice@example.org"}}}
	if err := s.Update(func(tx *store.Tx) error { return tx.CreateGame(g, []byte(`{"move":0}`)) }); err != nil {
		t.Fatal(err)
	}
	err := s.Update(func(tx *store.Tx) error { return tx.CreateGame(g, nil) })
	if !errors.Is(err, store.ErrExists) {
		t.Errorf("CreateGame twice: %v, want ErrExists", err)
	}
	err = s.Update(func(tx *store.Tx) error {
		if err := tx.AppendEvents(g.ID, [][]byte{[]byte("e1"), []byte("e2")}, []byte(`{"move":1}`)); err != nil {
			return err
		}
		return tx.AppendEvents(g.ID, [][]byte{[]byte("e3")}, []byte(`{"move":2}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		var got []string
		tx.Events(g.ID, func(seq uint64, e []byte) error {
			got = append(got, fmt.Sprintf("%d:%s", seq, e))
			return nil
		})
		if fmt.Sprint(got) != "[1:e1 2:e2 3:e3]" {
			t.Errorf("Events = %v, want [1:e1 2:e2 3:e3]", got)
		}
		st, err := tx.State(g.ID)
		if err != nil || st.Events != 3 || string(st.State) != `{"move":2}` {
			t.Errorf("State = %+v, %v; want 3 events and move 2", st, err)
		}
		if _, err := tx.Game("nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Game(nope): %v, want ErrNotFound", err)
		}
		return nil
	})
}

// A failing transaction leaves nothing behind: events, outbox and the
// processed mark go together or not at all.
func TestUpdateIsAtomic(t *testing.T) {
	s := mustOpen(t)
	s.Update(func(tx *store.Tx) error { return tx.CreateGame(&store.Game{ID: "g"}, nil) })
	boom := errors.New("boom")
	err := s.Update(func(tx *store.Tx) error {
		tx.AppendEvents("g", [][]byte{[]byte("e")}, nil)
		tx.Enqueue([]byte(`{}`), time.Now())
		tx.MarkProcessed("m1@x", store.Processed{Outcome: "applied"})
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update: %v", err)
	}
	s.View(func(tx *store.Tx) error {
		if _, ok := tx.Processed("m1@x"); ok {
			t.Error("processed mark survived a rollback")
		}
		if n := tx.Pending(); n != 0 {
			t.Errorf("outbox has %d entries after a rollback", n)
		}
		st, _ := tx.State("g")
		if st.Events != 0 {
			t.Errorf("%d events after a rollback", st.Events)
		}
		return nil
	})
}

func TestOutbox(t *testing.T) {
	s := mustOpen(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var a, b uint64
	s.Update(func(tx *store.Tx) error {
		a, _ = tx.Enqueue([]byte(`{"n":1}`), now)
		b, _ = tx.Enqueue([]byte(`{"n":2}`), now)
		return tx.Retry(a, now.Add(time.Minute), "451 try later")
	})
	s.Update(func(tx *store.Tx) error {
		due, _ := tx.Due(now, 10)
		if len(due) != 1 || due[0].ID != b {
			t.Errorf("Due(now) = %+v, want only entry %d", due, b)
		}
		due, _ = tx.Due(now.Add(2*time.Minute), 10)
		if len(due) != 2 || due[0].ID != a || due[0].Attempts != 1 || due[0].LastError != "451 try later" {
			t.Errorf("Due(later) = %+v, want both, the retried one first with its error", due)
		}
		return tx.Delivered(a)
	})
	s.View(func(tx *store.Tx) error {
		if n := tx.Pending(); n != 1 {
			t.Errorf("Pending = %d after one delivery, want 1", n)
		}
		return nil
	})
}

// A second process cannot open the same file: Open gives up after a second
// instead of hanging.
func TestSecondOpenTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := store.Open(path); err == nil {
		t.Fatal("second Open succeeded")
	}
}

// Data survives closing and reopening the file.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, _ := store.Open(path)
	s.Update(func(tx *store.Tx) error {
		tx.PutMeta("installation", []byte("k"))
		return tx.MarkProcessed("m@x", store.Processed{Game: "g", Outcome: "applied"})
	})
	s.Close()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *store.Tx) error {
		if p, ok := tx.Processed("m@x"); !ok || p.Game != "g" {
			t.Errorf("Processed after reopen = %+v, %v", p, ok)
		}
		if string(tx.Meta("installation")) != "k" {
			t.Error("meta lost after reopen")
		}
		return nil
	})
}
