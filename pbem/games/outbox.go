package games

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// SendFunc submits one mail, from an envelope sender to recipients, as
// exact bytes (mailbox.Sender.SendRaw).
type SendFunc func(ctx context.Context, from string, to []string, raw []byte) error

// drainRound is how many due mails a drain reads at once. Their results
// are committed together, one fsync for the round rather than one per
// mail, so a crash during a round sends at most this many mails again
// (at-least-once, docs/mail-orders.md "Replies").
const drainRound = 100

// UnavailableError is a drain stopped because the SMTP server, not a
// mail, failed (mailbox.ServerUnavailable): the mail it was sending is
// not charged an attempt and stays due, and RunOutbox probes the server
// until it answers again.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string { return "games: SMTP server unavailable: " + e.Err.Error() }

func (e *UnavailableError) Unwrap() error { return e.Err }

// DrainOutbox sends every mail that is due, and removes each only after
// the server accepted it. The mails of a game to one recipient leave in
// the order they were written: one that waits for a retry holds back the
// later ones (store.OutboxEntry). It returns how many were sent; a mail
// refused is rescheduled, or given up after Config.GiveUpAfter permanent
// refusals, and the others go on. If the server itself is unavailable it
// stops with an *UnavailableError and reschedules nothing.
//
// It reads the due mails in rounds of drainRound, sends a round one mail
// after another, and records its results in one transaction; a mail
// sent makes the next of its stream due, so it reads again until a round
// sends nothing (what failed is due later, not now).
func (s *Service) DrainOutbox(ctx context.Context, send SendFunc) (int, error) {
	return s.drain(ctx, send, 1)
}

// sendConnections is how many mails of a round RunOutbox sends at once,
// each over a connection of its own. A round holds the head of each
// stream only (store.Tx.Due), so mails sent side by side are never of
// one stream, and the order of each stream is kept. While one waits for
// the server's answer, the server takes in the other: on one machine the
// server works on another core, and a distant server's round trips
// overlap.
const sendConnections = 2

// drain is DrainOutbox sending conns mails at once.
func (s *Service) drain(ctx context.Context, send SendFunc, conns int) (int, error) {
	sent := 0
	for {
		var due []store.OutboxEntry
		err := s.cfg.Store.View(func(tx *store.Tx) error {
			var err error
			due, err = tx.Due(s.cfg.Now(), drainRound)
			return err
		})
		if err != nil || len(due) == 0 {
			return sent, err
		}
		results, stop := s.sendRound(ctx, send, due, conns)
		if err := s.recordRound(results); err != nil {
			return sent, err
		}
		round := 0
		for _, r := range results {
			if r.err == nil {
				round++
			}
		}
		sent += round
		if stop != nil || round == 0 {
			return sent, stop
		}
	}
}

// sendResult is what became of one mail of a round, to be recorded.
type sendResult struct {
	e         store.OutboxEntry
	err       error     // nil: the server accepted it
	next      time.Time // the next attempt, after a refusal
	permanent bool      // refused for good
	giveUp    string    // why it is given up, if it is
}

// sendRound sends due mails in order, conns at once, until one finds the
// server unavailable or ctx ends, which it returns, and says what became
// of each mail it tried. The mails are rendered, drawn and composed ahead
// of the sending, on every core (composeAhead). Once a mail has found the
// server unavailable no other is begun; those being sent finish.
func (s *Service) sendRound(ctx context.Context, send SendFunc, due []store.OutboxEntry, conns int) ([]sendResult, error) {
	ahead := s.composeAhead(ctx, due)
	defer ahead.stop()
	tried := make([]*sendResult, len(due))
	var next atomic.Int64
	var stopped sync.Once
	var stop error
	var wg sync.WaitGroup
	for range min(conns, len(due)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(due); i = int(next.Add(1) - 1) {
				r, err := s.sendOne(ctx, send, due[i], ahead, i)
				if err != nil {
					stopped.Do(func() { stop = err })
					next.Store(int64(len(due))) // no other mail is begun
					return
				}
				tried[i] = &r
			}
		})
	}
	wg.Wait()
	var results []sendResult
	for _, r := range tried {
		if r != nil {
			results = append(results, *r)
		}
	}
	return results, stop
}

// sendOne sends the i-th mail of a round and says what became of it, or
// why the round stops: ctx ended, the server is unavailable, or the
// entry cannot be read.
func (s *Service) sendOne(ctx context.Context, send SendFunc, e store.OutboxEntry, ahead *ahead, i int) (sendResult, error) {
	c, ok := ahead.take(ctx, i)
	if !ok {
		return sendResult{}, ctx.Err()
	}
	if c.bad != nil {
		return sendResult{}, fmt.Errorf("games: outbox entry %d: %w", e.ID, c.bad)
	}
	m := c.m
	if c.err != nil {
		s.log.Error("mail cannot be composed", "entry", e.ID, "to", m.To, "err", c.err)
		return s.judge(e, m, c.err), nil
	}
	m.Raw = c.raw
	err := send(ctx, m.From, m.To, c.raw)
	switch {
	case err == nil:
		s.log.Info("mail sent", "entry", e.ID, "to", m.To)
	case ctx.Err() != nil:
		return sendResult{}, ctx.Err()
	case mailbox.ServerUnavailable(err):
		return sendResult{}, &UnavailableError{Err: err}
	}
	return s.judge(e, m, err), nil
}

// composed is an outbox entry made ready to send: its bytes, or why it
// cannot be composed (err) or even read (bad).
type composed struct {
	m   outboxMail
	raw []byte
	err error
	bad error
}

// composeAhead composes the due mails on twice as many goroutines as
// there are cores, a few mails ahead of the senders, who take them in
// order; a mail composed early from the same record (early.go) is taken
// as it is. The drawing of a block's map is shared by the mails that
// carry it (drawnMaps): both players' copies are queued one after the
// other, so a goroutine of every pair waits for the other's drawing, and
// twice the cores keep every core drawing. It stops when ctx ends or the
// round does (ahead.stop).
func (s *Service) composeAhead(ctx context.Context, due []store.OutboxEntry) *ahead {
	ctx, stop := context.WithCancel(ctx)
	workers := min(2*runtime.GOMAXPROCS(0), len(due))
	a := &ahead{slots: make([]chan composed, len(due)), room: make(chan struct{}, 2*workers), stop: stop}
	for i := range a.slots {
		a.slots[i] = make(chan composed, 1)
	}
	var next atomic.Int64
	for range workers {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case a.room <- struct{}{}:
				}
				i := int(next.Add(1) - 1)
				if i >= len(due) {
					return
				}
				c, ok := s.early.take(ctx, due[i])
				if ctx.Err() != nil {
					return
				}
				if !ok {
					c = s.compose(due[i])
				}
				a.slots[i] <- c
			}
		}()
	}
	return a
}

// ahead holds the mails composeAhead composed, one slot per due mail;
// room bounds how many are composed and not yet taken. stop ends the
// composing when the round ends.
type ahead struct {
	slots []chan composed
	room  chan struct{}
	stop  func()
}

// take waits for the i-th mail; false when ctx ended first.
func (a *ahead) take(ctx context.Context, i int) (composed, bool) {
	select {
	case <-ctx.Done():
		return composed{}, false
	case c := <-a.slots[i]:
		<-a.room
		return c, true
	}
}

// composeRecord composes a mail from its outbox record
// (store.OutboxEntry.Mail), which is all compose reads of an entry.
func (s *Service) composeRecord(record []byte) composed {
	return s.compose(store.OutboxEntry{Mail: record})
}

// compose reads an outbox entry and composes its mail.
func (s *Service) compose(e store.OutboxEntry) composed {
	var c composed
	if c.bad = json.Unmarshal(e.Mail, &c.m); c.bad != nil {
		return c
	}
	c.raw, c.err = s.rawOf(c.m) // its maps drawn now, after the commit that queued it
	return c
}

// judge decides what to do with a mail after an attempt: nothing more if
// it was accepted, else retry it later or give it up, and logs a refusal.
func (s *Service) judge(e store.OutboxEntry, m outboxMail, sendErr error) sendResult {
	r := sendResult{e: e, err: sendErr}
	if sendErr == nil {
		return r
	}
	r.permanent = !mailbox.IsTemporary(sendErr)
	if r.permanent && e.Permanent+1 >= s.cfg.GiveUpAfter {
		// It is kept among the undeliverable mails, with the reason, and
		// logged as an error, and the next mail to the same recipient
		// goes on. A result mail given up is still the player's latest
		// (STATUS sends it again).
		r.giveUp = fmt.Sprintf("%v (given up after %d permanent refusals in %d attempts)", sendErr, e.Permanent+1, e.Attempts+1)
		s.log.Error("mail undeliverable; given up", "entry", e.ID, "to", m.To, "stream", e.Stream,
			"message_id", headerValue(m.Raw, "Message-Id"), "queued", e.Created, "reason", r.giveUp)
		return r
	}
	backoff, level := s.cfg.RetryBackoff, "temporary"
	if r.permanent {
		backoff, level = s.cfg.PermanentBackoff, "permanent"
	}
	r.next = s.cfg.Now().Add(backoff(e.Attempts + 1))
	s.log.Warn("send failed", "entry", e.ID, "to", m.To, "failure", level, "attempt", e.Attempts+1, "next", r.next, "err", sendErr)
	return r
}

// recordRound commits the results of a round in one transaction.
func (s *Service) recordRound(results []sendResult) error {
	if len(results) == 0 {
		return nil
	}
	return s.cfg.Store.Update(func(tx *store.Tx) error {
		for _, r := range results {
			var err error
			switch {
			case r.err == nil:
				err = tx.Sent(r.e)
			case r.giveUp != "":
				err = tx.GiveUp(r.e.ID, r.giveUp, s.cfg.Now())
			default:
				err = tx.Retry(r.e.ID, r.next, r.err.Error(), r.permanent)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Undeliverable lists the mails given up, oldest first.
func (s *Service) Undeliverable() ([]store.OutboxEntry, error) {
	var out []store.OutboxEntry
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		return tx.Undeliverable(func(e store.OutboxEntry) error { out = append(out, e); return nil })
	})
	return out, err
}

// Pending counts the mails waiting in the outbox.
func (s *Service) Pending() (int, error) {
	n := 0
	err := s.cfg.Store.View(func(tx *store.Tx) error { n = tx.Pending(); return nil })
	return n, err
}

// headerValue is a header of a composed mail, for logs ("" if unreadable).
func headerValue(raw []byte, name string) string {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return msg.Header.Get(name)
}
