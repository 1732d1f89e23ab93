package store

import (
	"time"
)

// Processed records what became of a mail, under the key the service
// deduplicates it by (pbem/games: the authenticated sender and the mail's
// Message-ID and content), so that a copy of it changes nothing.
type Processed struct {
	Game    string `json:"game,omitempty"`
	Outcome string `json:"outcome"` // "applied", "refused:…", "ignored:…", …
	// Rejected: the mail changed no game, and was filed as rejected.
	Rejected bool      `json:"rejected,omitempty"`
	At       time.Time `json:"at"`
}

// Processed reports whether a mail was processed under key, and how.
func (t *Tx) Processed(key string) (*Processed, bool) {
	var p Processed
	if err := getJSON(t.tx.Bucket(bucketProcessed), []byte(key), &p); err != nil {
		return nil, false
	}
	return &p, true
}

// MarkProcessed records a mail as processed under key.
func (t *Tx) MarkProcessed(key string, p Processed) error {
	return putJSON(t.tx.Bucket(bucketProcessed), []byte(key), p)
}
