package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
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
		tx.Enqueue([]byte(`{}`), "g/a@x", time.Now())
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
		a, _ = tx.Enqueue([]byte(`{"n":1}`), "g/alice@x", now)
		b, _ = tx.Enqueue([]byte(`{"n":2}`), "g/bob@x", now)
		return tx.Retry(a, now.Add(time.Minute), "451 try later", false)
	})
	s.Update(func(tx *store.Tx) error {
		if at, ok := tx.NextDue(); !ok || !at.Equal(now) {
			t.Errorf("NextDue = %v %v, want %v (entry %d)", at, ok, now, b)
		}
		due, _ := tx.Due(now, 10)
		if len(due) != 1 || due[0].ID != b {
			t.Errorf("Due(now) = %+v, want only entry %d", due, b)
		}
		due, _ = tx.Due(now.Add(2*time.Minute), 10)
		if len(due) != 2 || due[1].ID != a || due[1].Attempts != 1 || due[1].LastError != "451 try later" {
			t.Errorf("Due(later) = %+v, want both, the retried one last with its error", due)
		}
		return tx.Delivered(a)
	})
	s.View(func(tx *store.Tx) error {
		if n := tx.Pending(); n != 1 {
			t.Errorf("Pending = %d after one delivery, want 1", n)
		}
		return nil
	})
	s.Update(func(tx *store.Tx) error { return tx.Delivered(b) })
	s.View(func(tx *store.Tx) error {
		if at, ok := tx.NextDue(); ok {
			t.Errorf("NextDue of an empty outbox = %v, want none", at)
		}
		return nil
	})
}

// DeliveredAll empties the outbox and its indexes: nothing is due after.
func TestDeliveredAll(t *testing.T) {
	s := mustOpen(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s.Update(func(tx *store.Tx) error {
		for _, stream := range []string{"g/alice@x", "g/alice@x", "g/bob@x"} {
			if _, err := tx.Enqueue([]byte(`{}`), stream, now); err != nil {
				return err
			}
		}
		return tx.DeliveredAll()
	})
	s.View(func(tx *store.Tx) error {
		if n := tx.Pending(); n != 0 {
			t.Errorf("Pending = %d after DeliveredAll, want 0", n)
		}
		if at, ok := tx.NextDue(); ok {
			t.Errorf("NextDue after DeliveredAll = %v, want none", at)
		}
		return nil
	})
}

// The mails of one stream leave in the order they were queued: a later
// one is not due while an older one waits for a retry, whatever their due
// times; other streams go on.
func TestOutboxStreamOrder(t *testing.T) {
	s := mustOpen(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ids := map[string]uint64{}
	s.Update(func(tx *store.Tx) error {
		ids["b1"], _ = tx.Enqueue([]byte(`{"n":1}`), "g/alice@x", now)
		return tx.Retry(ids["b1"], now.Add(time.Hour), "451 try later", false)
	})
	s.Update(func(tx *store.Tx) error {
		ids["b2"], _ = tx.Enqueue([]byte(`{"n":2}`), "g/alice@x", now.Add(time.Minute))
		ids["other"], _ = tx.Enqueue([]byte(`{"n":3}`), "h/alice@x", now.Add(time.Minute))
		return nil
	})
	due := func(at time.Time) (got []uint64) {
		s.View(func(tx *store.Tx) error {
			d, err := tx.Due(at, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range d {
				got = append(got, e.ID)
			}
			return nil
		})
		return got
	}
	if got := due(now.Add(10 * time.Minute)); fmt.Sprint(got) != fmt.Sprint([]uint64{ids["other"]}) {
		t.Errorf("due while b1 waits: %v, want only the other stream's %d", got, ids["other"])
	}
	if got := due(now.Add(2 * time.Hour)); fmt.Sprint(got) != fmt.Sprint([]uint64{ids["other"], ids["b1"]}) {
		t.Errorf("due when b1 is: %v, want %d and b1 %d, not b2", got, ids["other"], ids["b1"])
	}
	s.Update(func(tx *store.Tx) error { return tx.Delivered(ids["b1"]) })
	if got := due(now.Add(2 * time.Minute)); fmt.Sprint(got) != fmt.Sprint([]uint64{ids["b2"], ids["other"]}) {
		t.Errorf("due after b1 left: %v, want b2 %d then %d", got, ids["b2"], ids["other"])
	}
}

// A mail given up leaves the outbox for the undeliverable ones, with its
// reason, and the next mail of its stream becomes due.
func TestOutboxGiveUp(t *testing.T) {
	s := mustOpen(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var a, b uint64
	s.Update(func(tx *store.Tx) error {
		a, _ = tx.Enqueue([]byte(`{"n":1}`), "g/alice@x", now)
		b, _ = tx.Enqueue([]byte(`{"n":2}`), "g/alice@x", now)
		if err := tx.Retry(a, now, "550 no such user", true); err != nil {
			return err
		}
		return tx.GiveUp(a, "550 no such user (given up after 1 refusal)", now.Add(time.Hour))
	})
	s.View(func(tx *store.Tx) error {
		due, err := tx.Due(now, 10)
		if err != nil || len(due) != 1 || due[0].ID != b {
			t.Errorf("Due = %+v, %v; want only entry %d", due, err, b)
		}
		var gone []store.OutboxEntry
		tx.Undeliverable(func(e store.OutboxEntry) error { gone = append(gone, e); return nil })
		if len(gone) != 1 || gone[0].ID != a || gone[0].Permanent != 1 || !strings.Contains(gone[0].LastError, "given up") {
			t.Errorf("undeliverable = %+v, want entry %d with its reason", gone, a)
		}
		if n := tx.Pending(); n != 1 {
			t.Errorf("Pending = %d, want 1", n)
		}
		return nil
	})
	s.Update(func(tx *store.Tx) error { return tx.Delivered(b) })
	s.View(func(tx *store.Tx) error {
		if due, err := tx.Due(now.Add(24*time.Hour), 10); err != nil || len(due) != 0 {
			t.Errorf("Due on an empty outbox = %+v, %v", due, err)
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

// Sent removes an entry as Due returned it and makes the next of its
// stream due; an entry retried since it was read is removed all the same,
// with its new place in the due index.
func TestOutboxSent(t *testing.T) {
	s := mustOpen(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s.Update(func(tx *store.Tx) error {
		tx.Enqueue([]byte(`{"n":1}`), "g/alice@x", now)
		tx.Enqueue([]byte(`{"n":2}`), "g/alice@x", now)
		return nil
	})
	due := func() (d []store.OutboxEntry) {
		s.View(func(tx *store.Tx) error { d, _ = tx.Due(now.Add(time.Hour), 10); return nil })
		return d
	}
	first := due()
	if len(first) != 1 {
		t.Fatalf("due = %+v, want the stream's first entry", first)
	}
	if err := s.Update(func(tx *store.Tx) error { return tx.Sent(first[0]) }); err != nil {
		t.Fatal(err)
	}
	second := due()
	if len(second) != 1 || second[0].ID == first[0].ID {
		t.Fatalf("due after Sent = %+v, want the second entry", second)
	}
	err := s.Update(func(tx *store.Tx) error {
		if err := tx.Retry(second[0].ID, now.Add(time.Minute), "451", false); err != nil {
			return err
		}
		return tx.Sent(second[0]) // as read before the retry
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *store.Tx) error {
		if n := tx.Pending(); n != 0 {
			t.Errorf("Pending = %d, want 0", n)
		}
		if at, ok := tx.NextDue(); ok {
			t.Errorf("the due index still holds an entry due %v", at)
		}
		return nil
	})
}
