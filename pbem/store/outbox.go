package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// OutboxEntry is a mail waiting to be sent. Entries leave the outbox only
// when the SMTP server accepted them, or when the sender gave up on one
// the server refused for good (GiveUp, which keeps it as undeliverable).
//
// Mails of one stream (a game's mails to one recipient) leave in the order
// they were queued: only the oldest entry of a stream is ever due, so a
// mail that waits for a retry holds back the later ones of its stream and
// no other.
type OutboxEntry struct {
	ID          uint64          `json:"id"`
	Mail        json.RawMessage `json:"mail"` // the composed mail, as the sender wants it
	Stream      string          `json:"stream,omitempty"`
	Created     time.Time       `json:"created"`
	Attempts    int             `json:"attempts"`
	Permanent   int             `json:"permanent,omitempty"` // attempts refused for good (5xx)
	NextAttempt time.Time       `json:"next_attempt"`
	LastError   string          `json:"last_error,omitempty"`
}

// The outbox's indexes (docs/architecture.md, the store's buckets):
//
//	outbox-due/<next attempt><seq>   the head of each stream, by due time
//	outbox-streams/<stream>\0<seq>   every entry, by stream and age
//	undeliverable/<seq>              entries given up, kept for the operator
var (
	bucketOutboxDue     = []byte("outbox-due")
	bucketOutboxStreams = []byte("outbox-streams")
	bucketUndeliverable = []byte("undeliverable")
)

// stream is the entry's ordering stream; an entry queued before streams
// existed is a stream of its own.
func (e *OutboxEntry) stream() string {
	if e.Stream != "" {
		return e.Stream
	}
	return fmt.Sprintf("#%d", e.ID)
}

func streamPrefix(stream string) []byte { return append([]byte(stream), 0) }

func streamKey(stream string, id uint64) []byte { return append(streamPrefix(stream), seqKey(id)...) }

// dueKey orders the due index by time, then by age.
func dueKey(at time.Time, id uint64) []byte {
	var k [16]byte
	ns := at.UnixNano()
	if ns < 0 {
		ns = 0
	}
	binary.BigEndian.PutUint64(k[:8], uint64(ns))
	binary.BigEndian.PutUint64(k[8:], id)
	return k[:]
}

// Enqueue adds a mail to the end of its stream in the outbox; it is due at
// once if the stream holds no older mail.
func (t *Tx) Enqueue(mail []byte, stream string, now time.Time) (uint64, error) {
	return t.enqueue(mail, stream, now, func(e OutboxEntry) ([]byte, error) { return json.Marshal(e) })
}

// EnqueueMarshaled is Enqueue for a mail as json.Marshal wrote it: the
// entry stored is the same, but the mail is copied into it as it is,
// where json.Marshal would check and compact its every byte again (a
// third of what queueing a reply costs, issue 17).
func (t *Tx) EnqueueMarshaled(mail []byte, stream string, now time.Time) (uint64, error) {
	return t.enqueue(mail, stream, now, marshaledEntry)
}

func (t *Tx) enqueue(mail []byte, stream string, now time.Time, encode func(OutboxEntry) ([]byte, error)) (uint64, error) {
	b := t.tx.Bucket(bucketOutbox)
	n, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	e := OutboxEntry{ID: n, Mail: mail, Stream: stream, Created: now, NextAttempt: now}
	raw, err := encode(e)
	if err != nil {
		return 0, fmt.Errorf("store: encode outbox entry %d: %w", n, err)
	}
	if err := b.Put(seqKey(n), raw); err != nil {
		return 0, err
	}
	return n, t.index(&e)
}

// marshaledEntry is json.Marshal(e) for an entry whose mail is already
// as json.Marshal writes JSON (compact, <, > and & escaped): the entry is
// encoded around a placeholder, which the mail then replaces.
func marshaledEntry(e OutboxEntry) ([]byte, error) {
	mail := e.Mail
	e.Mail = json.RawMessage("0")
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	// The first field is the numeric id, so the first "mail":0 is the
	// placeholder.
	at := bytes.Index(raw, []byte(`"mail":0`)) + len(`"mail":`)
	if at < len(`"mail":`) {
		return nil, fmt.Errorf("no mail field in %s", raw)
	}
	out := make([]byte, 0, len(raw)+len(mail))
	out = append(append(append(out, raw[:at]...), mail...), raw[at+1:]...)
	return out, nil
}

// index files a new entry under its stream, and in the due index if it
// heads its stream.
func (t *Tx) index(e *OutboxEntry) error {
	streams := t.tx.Bucket(bucketOutboxStreams)
	if err := streams.Put(streamKey(e.stream(), e.ID), nil); err != nil {
		return err
	}
	if t.head(e.stream()) != e.ID {
		return nil
	}
	return t.tx.Bucket(bucketOutboxDue).Put(dueKey(e.NextAttempt, e.ID), nil)
}

// head is the oldest entry of a stream (0: none).
func (t *Tx) head(stream string) uint64 {
	p := streamPrefix(stream)
	k, _ := t.tx.Bucket(bucketOutboxStreams).Cursor().Seek(p)
	if k == nil || !bytes.HasPrefix(k, p) || len(k) != len(p)+8 {
		return 0
	}
	return keySeq(k[len(p):])
}

// Due returns up to limit entries whose next attempt is not after now, the
// earliest due first; only the oldest entry of each stream is ever due. It
// reads the due index and decodes only the entries it returns.
func (t *Tx) Due(now time.Time, limit int) ([]OutboxEntry, error) {
	var out []OutboxEntry
	end := dueKey(now, ^uint64(0))
	c := t.tx.Bucket(bucketOutboxDue).Cursor()
	for k, _ := c.First(); k != nil && len(out) < limit && bytes.Compare(k, end) <= 0; k, _ = c.Next() {
		e, err := t.entry(keySeq(k[8:]))
		if err != nil {
			return out, err
		}
		out = append(out, *e)
	}
	return out, nil
}

// NextDue is when the earliest entry of the due index falls due (false:
// the outbox is empty), so that a sender can sleep until then.
func (t *Tx) NextDue() (time.Time, bool) {
	k, _ := t.tx.Bucket(bucketOutboxDue).Cursor().First()
	if len(k) < 8 {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))), true
}

func (t *Tx) entry(id uint64) (*OutboxEntry, error) {
	var e OutboxEntry
	if err := getDecoded(t.tx.Bucket(bucketOutbox), seqKey(id), func(raw []byte) error { return decodeEntry(raw, &e) }); err != nil {
		return nil, fmt.Errorf("store: outbox entry %d: %w", id, err)
	}
	return &e, nil
}

// Outbox calls fn for every entry of the outbox, due or not, in the order
// they were queued.
func (t *Tx) Outbox(fn func(OutboxEntry) error) error {
	return walkEntries(t.tx.Bucket(bucketOutbox), "store: decode outbox entry", func(e *OutboxEntry) error { return fn(*e) })
}

// Pending counts the entries in the outbox.
func (t *Tx) Pending() int { return t.tx.Bucket(bucketOutbox).Stats().KeyN }

// Retry records a failed attempt (permanent: refused for good) and when to
// try again.
func (t *Tx) Retry(id uint64, next time.Time, reason string, permanent bool) error {
	e, err := t.entry(id)
	if err != nil {
		return err
	}
	due := t.tx.Bucket(bucketOutboxDue)
	if err := due.Delete(dueKey(e.NextAttempt, id)); err != nil {
		return err
	}
	e.Attempts++
	if permanent {
		e.Permanent++
	}
	e.NextAttempt, e.LastError = next, reason
	if err := putJSON(t.tx.Bucket(bucketOutbox), seqKey(id), e); err != nil {
		return err
	}
	if t.head(e.stream()) != id {
		return nil // not due before the older mails of its stream left
	}
	return due.Put(dueKey(next, id), nil)
}

// Delivered removes an entry the SMTP server accepted; the next entry of
// its stream becomes due.
func (t *Tx) Delivered(id uint64) error {
	e, err := t.entry(id)
	if err != nil {
		return err
	}
	return t.remove(e)
}

// DeliveredAll removes every entry of the outbox, as if each had been
// sent: for tools and benchmarks that make games whose welcomes nobody
// reads.
func (t *Tx) DeliveredAll() error {
	var ids []uint64
	if err := t.Outbox(func(e OutboxEntry) error { ids = append(ids, e.ID); return nil }); err != nil {
		return err
	}
	for _, id := range ids {
		if err := t.Delivered(id); err != nil {
			return err
		}
	}
	return nil
}

// Sent removes an entry the SMTP server accepted, as Due returned it,
// without decoding it again (a mail's entry is tens of kilobytes of
// JSON); if it changed since (it is no longer due under the same key),
// it is read anew. The next entry of its stream becomes due.
func (t *Tx) Sent(e OutboxEntry) error {
	key := dueKey(e.NextAttempt, e.ID)
	if k, _ := t.tx.Bucket(bucketOutboxDue).Cursor().Seek(key); !bytes.Equal(k, key) {
		return t.Delivered(e.ID)
	}
	return t.remove(&e)
}

// GiveUp removes an entry the sender will not try again, with why, and
// keeps it among the undeliverable mails; the next entry of its stream
// becomes due.
func (t *Tx) GiveUp(id uint64, reason string, now time.Time) error {
	e, err := t.entry(id)
	if err != nil {
		return err
	}
	if err := t.remove(e); err != nil {
		return err
	}
	e.LastError, e.NextAttempt = reason, now
	return putJSON(t.tx.Bucket(bucketUndeliverable), seqKey(id), e)
}

// Undeliverable calls fn for each mail given up, oldest first.
func (t *Tx) Undeliverable(fn func(OutboxEntry) error) error {
	return walkEntries(t.tx.Bucket(bucketUndeliverable), "store: decode undeliverable entry", func(e *OutboxEntry) error { return fn(*e) })
}

// remove deletes an entry from the outbox and its indexes, and makes the
// next entry of its stream due.
func (t *Tx) remove(e *OutboxEntry) error {
	for _, del := range []struct {
		b *bolt.Bucket
		k []byte
	}{
		{t.tx.Bucket(bucketOutbox), seqKey(e.ID)},
		{t.tx.Bucket(bucketOutboxDue), dueKey(e.NextAttempt, e.ID)},
		{t.tx.Bucket(bucketOutboxStreams), streamKey(e.stream(), e.ID)},
	} {
		if err := del.b.Delete(del.k); err != nil {
			return err
		}
	}
	next := t.head(e.stream())
	if next == 0 {
		return nil
	}
	n, err := t.entry(next)
	if err != nil {
		return err
	}
	return t.tx.Bucket(bucketOutboxDue).Put(dueKey(n.NextAttempt, next), nil)
}

// indexOutbox builds the outbox's indexes of a store written before they
// existed.
func indexOutbox(tx *bolt.Tx) error {
	t := &Tx{tx: tx}
	return walkEntries(tx.Bucket(bucketOutbox), "store: index outbox", t.index)
}

// walkEntries calls fn with each entry of b, in order; an entry that does
// not decode (decodeEntry) stops the walk with an error that what begins.
func walkEntries(b *bolt.Bucket, what string, fn func(*OutboxEntry) error) error {
	return walk(b, 0, func(_ uint64, v []byte) error {
		var e OutboxEntry
		if err := decodeEntry(v, &e); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return fn(&e)
	})
}
