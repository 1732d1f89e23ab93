package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// OutboxEntry is a mail waiting to be sent. Entries leave the outbox only
// when the SMTP server accepted them.
type OutboxEntry struct {
	ID          uint64          `json:"id"`
	Mail        json.RawMessage `json:"mail"` // the composed mail, as the sender wants it
	Created     time.Time       `json:"created"`
	Attempts    int             `json:"attempts"`
	NextAttempt time.Time       `json:"next_attempt"`
	LastError   string          `json:"last_error,omitempty"`
}

// Enqueue adds a mail to the outbox, due at once.
func (t *Tx) Enqueue(mail []byte, now time.Time) (uint64, error) {
	b := t.tx.Bucket(bucketOutbox)
	n, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	e := OutboxEntry{ID: n, Mail: mail, Created: now, NextAttempt: now}
	return n, putJSON(b, seqKey(n), e)
}

// Due returns up to limit entries whose next attempt is not after now, in
// the order they were queued.
func (t *Tx) Due(now time.Time, limit int) ([]OutboxEntry, error) {
	var out []OutboxEntry
	err := walk(t.tx.Bucket(bucketOutbox), 0, func(_ uint64, v []byte) error {
		if len(out) >= limit {
			return nil
		}
		var e OutboxEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("store: decode outbox entry: %w", err)
		}
		if !e.NextAttempt.After(now) {
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// Pending counts the entries in the outbox.
func (t *Tx) Pending() int { return t.tx.Bucket(bucketOutbox).Stats().KeyN }

// Retry records a failed attempt and when to try again.
func (t *Tx) Retry(id uint64, next time.Time, reason string) error {
	b := t.tx.Bucket(bucketOutbox)
	var e OutboxEntry
	if err := getJSON(b, seqKey(id), &e); err != nil {
		return fmt.Errorf("store: outbox entry %d: %w", id, err)
	}
	e.Attempts++
	e.NextAttempt, e.LastError = next, reason
	return putJSON(b, seqKey(id), e)
}

// Delivered removes an entry the SMTP server accepted.
func (t *Tx) Delivered(id uint64) error {
	return t.tx.Bucket(bucketOutbox).Delete(seqKey(id))
}
