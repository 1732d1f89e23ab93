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

// An entry queued by EnqueueMarshaled is stored byte for byte as Enqueue
// stores it, for any mail json.Marshal wrote: HTML characters, line
// separators, non-ASCII text, nested raw JSON written with spaces.
func TestMarshaledEntryAsMarshal(t *testing.T) {
	type mail struct {
		From string          `json:"from"`
		To   []string        `json:"to"`
		Raw  []byte          `json:"raw,omitempty"`
		View json.RawMessage `json:"view,omitempty"`
		N    float64         `json:"n"`
	}
	mails := []any{
		map[string]any{},
		mail{From: "a <a@x> & \u2028 \u2029 Crécy \"mail\":0", To: []string{"b@x"}, N: 1e21},
		mail{Raw: []byte("<html>\x00\xff"), View: json.RawMessage(`{ "k" : [1, 2, "<&>"] ,"mail":0 }`)},
		[]string{"\t\n\r", "\\"},
	}
	created := time.Date(2026, 11, 27, 17, 30, 0, 123, time.FixedZone("x", 3600))
	for i, m := range mails {
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []OutboxEntry{
			{ID: 1, Mail: raw},
			{ID: 1<<64 - 1, Mail: raw, Stream: `g/"mail":0<a@x>`, Created: created, NextAttempt: created, Attempts: 3, Permanent: 2, LastError: "550 <no>"},
		} {
			want, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshaledEntry(e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("mail %d:\n got %s\nwant %s", i, got, want)
			}
		}
	}
}
