package store

import (
	"time"
)

// Processed records what became of a mail, by its Message-ID.
type Processed struct {
	Game    string    `json:"game,omitempty"`
	Outcome string    `json:"outcome"` // "applied", "refused", "ignored", …
	At      time.Time `json:"at"`
}

// Processed reports whether a Message-ID was processed, and how.
func (t *Tx) Processed(messageID string) (*Processed, bool) {
	var p Processed
	if err := getJSON(t.tx.Bucket(bucketProcessed), []byte(messageID), &p); err != nil {
		return nil, false
	}
	return &p, true
}

// MarkProcessed records a Message-ID as processed.
func (t *Tx) MarkProcessed(messageID string, p Processed) error {
	return putJSON(t.tx.Bucket(bucketProcessed), []byte(messageID), p)
}
