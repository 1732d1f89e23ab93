package games

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"herald/pbem/store"
)

// A mail leaves the outbox composed from its record alone (compose,
// rawOf): the same record gives the same bytes whenever it is composed.
// So while an outbox loop runs (RunOutbox), a mail is composed as soon as
// its record is written, on the cores the transaction that writes it
// leaves idle, and the outbox sends those bytes after the commit if the
// committed record is byte for byte the one they were composed from;
// otherwise, or when it was not composed early, the outbox composes the
// mail itself. Nothing is sent before the commit, and a crash loses only
// work: the record is still what the mail is made from. On a batch of
// order mails, the transaction applies them one after another on one
// core while the other composes their replies. Without an outbox loop (a
// command that queues mail and exits) nothing is composed early.
type early struct {
	compose func([]byte) composed // a mail from its record (Service.composeRecord): the record alone
	mu      sync.Mutex
	on      int                   // outbox loops running
	mails   map[uint64]*earlyMail // by outbox entry
	queue   []*earlyMail          // offered, not yet composed, oldest first
	workers int                   // goroutines composing the queue
}

// earlyMail is a mail composed, or to be, from a record not yet committed.
type earlyMail struct {
	entry   []byte        // the record (store.OutboxEntry.Mail)
	at      time.Time     // when it was offered
	started bool          // a worker took it from the queue
	dropped bool          // taken from the queue by the outbox or replaced: not to be composed
	done    chan struct{} // closed when c is set
	c       composed
}

const (
	// earlyMost bounds the mails composed early and not yet sent: the
	// outbox may lag the intake by a burst, and a mail with a map is a
	// quarter of a megabyte.
	earlyMost = 64
	// earlyStale is when a mail composed early and never asked for (its
	// transaction rolled back) is let go.
	earlyStale = time.Minute
)

// sending marks an outbox loop running, until the function it returns is
// called: mails are composed early only for a loop that will send them.
func (e *early) sending() func() {
	e.mu.Lock()
	e.on++
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.on--
		e.mu.Unlock()
	}
}

// offer composes the mail of outbox entry id from its record, unless no
// outbox loop runs or earlyMost are waiting.
func (e *early) offer(id uint64, entry []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.on == 0 {
		return
	}
	if e.mails == nil {
		e.mails = map[uint64]*earlyMail{}
	}
	if old := e.mails[id]; old != nil {
		old.dropped = true // a record rolled back; its id is this one's now
		delete(e.mails, id)
	}
	if len(e.mails) >= earlyMost {
		e.sweep()
		if len(e.mails) >= earlyMost {
			return
		}
	}
	m := &earlyMail{entry: entry, at: time.Now(), done: make(chan struct{})}
	e.mails[id] = m
	e.queue = append(e.queue, m)
	if e.workers < runtime.GOMAXPROCS(0) {
		e.workers++
		go e.work()
	}
}

// sweep lets go of the mails offered earlyStale ago and never taken.
func (e *early) sweep() {
	now := time.Now()
	for id, m := range e.mails {
		if now.Sub(m.at) > earlyStale {
			m.dropped = true
			delete(e.mails, id)
		}
	}
}

// work composes the queue's mails until it is empty.
func (e *early) work() {
	for {
		e.mu.Lock()
		var m *earlyMail
		for m == nil && len(e.queue) > 0 {
			// The slot is cleared: the queue's array would otherwise hold
			// the mail, and its map, until the array is replaced.
			m, e.queue[0], e.queue = e.queue[0], nil, e.queue[1:]
			if m.dropped {
				m = nil
			}
		}
		if m == nil {
			e.workers--
			e.mu.Unlock()
			return
		}
		m.started = true
		e.mu.Unlock()
		m.c = e.compose(m.entry)
		close(m.done)
	}
}

// take gives the mail of a due entry if it was composed early from the
// same record, waiting for it if it is being composed; false if it must
// be composed now: never offered, still queued (the outbox composes it
// at once rather than wait its turn), composed from another record, or
// failed (composing again reports the failure as the outbox does).
func (e *early) take(ctx context.Context, d store.OutboxEntry) (composed, bool) {
	e.mu.Lock()
	m := e.mails[d.ID]
	delete(e.mails, d.ID)
	if m != nil && !m.started {
		m.dropped = true
		m = nil
	}
	e.mu.Unlock()
	if m == nil {
		return composed{}, false
	}
	select {
	case <-ctx.Done():
		return composed{}, false
	case <-m.done:
	}
	if !bytes.Equal(m.entry, d.Mail) || m.c.bad != nil || m.c.err != nil {
		return composed{}, false
	}
	earlySent.Add(1)
	return m.c, true
}

// earlySent counts the mails the outbox took composed early, for the
// tests (TestDaemonComposesEarly).
var earlySent atomic.Int64
