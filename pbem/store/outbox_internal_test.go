package store

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A drain reads only what is due: Due never decodes an entry that is not,
// so an outbox of many waiting mails costs nothing to look at (an entry
// that cannot be decoded proves it here).
func TestDueReadsOnlyDueEntries(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var waiting, due uint64
	err = s.Update(func(tx *Tx) error {
		waiting, _ = tx.Enqueue([]byte(`{}`), "g/a@x", now)
		if err := tx.Retry(waiting, now.Add(time.Hour), "451", false); err != nil {
			return err
		}
		due, _ = tx.Enqueue([]byte(`{}`), "g/b@x", now)
		return tx.tx.Bucket(bucketOutbox).Put(seqKey(waiting), []byte("not JSON"))
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *Tx) error {
		got, err := tx.Due(now, 100)
		if err != nil || len(got) != 1 || got[0].ID != due {
			t.Errorf("Due = %+v, %v; want entry %d alone, the waiting one unread", got, err, due)
		}
		return nil
	})
}

// A store written before the outbox had its indexes gets them on Open:
// each old entry is due as it was.
func TestOpenIndexesAnOldOutbox(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	err = s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketOutboxDue, bucketOutboxStreams} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		for i, at := range []time.Time{now, now.Add(time.Hour)} {
			raw, _ := json.Marshal(OutboxEntry{ID: uint64(i + 1), Mail: []byte(`{}`), Created: now, NextAttempt: at})
			if err := tx.Bucket(bucketOutbox).Put(seqKey(uint64(i+1)), raw); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(func(tx *Tx) error {
		got, err := tx.Due(now, 10)
		if err != nil || len(got) != 1 || got[0].ID != 1 {
			t.Errorf("Due(now) = %+v, %v; want entry 1", got, err)
		}
		if got, _ := tx.Due(now.Add(time.Hour), 10); len(got) != 2 {
			t.Errorf("Due(later) = %+v, want both", got)
		}
		return nil
	})
}
