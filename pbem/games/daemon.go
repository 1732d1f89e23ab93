package games

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// Handle is the mailbox.Handler of the service: it processes a fetched
// mail and tells the intake how to file it. An error leaves the mail
// unseen, to be offered again; other mails go on meanwhile.
func (s *Service) Handle(_ context.Context, m mailbox.Message) (mailbox.Disposition, error) {
	handle := s.HandleMail
	if m.HeaderOnly {
		handle = func(h []byte) (Outcome, error) { return s.HandleHeader(h, m.Size) }
	}
	out, err := handle(m.Raw)
	if err != nil {
		s.log.Error("mail failed", "uid", m.UID, "message_id", m.MessageID, "attempt", m.Attempt, "err", err)
		return 0, err
	}
	s.Kick()
	return disposition(out), nil
}

// HandleBatch is the mailbox.BatchHandler of the service: it processes a
// batch of fetched mails in order, each as HandleMail would (its
// effects, replies and processed mark, or nothing), in few store
// transactions, so that a burst of mail costs a commit and an fsync per
// Config.BatchWork of processing rather than one per mail. Each commit
// wakes the outbox, which composes and sends the replies it queued
// while the rest of the batch is processed. A mail whose processing
// fails (or a store error) rolls its transaction back, and each mail
// from that transaction's first on is then processed alone by Handle.
func (s *Service) HandleBatch(ctx context.Context, ms []mailbox.Message) []mailbox.Verdict {
	rs := s.readAll(ms)
	for _, r := range rs {
		if r.err != nil {
			return s.oneByOne(ctx, ms)
		}
	}
	vs := make([]mailbox.Verdict, len(ms))
	for start := 0; start < len(ms); {
		outs, err := s.processSome(rs[start:])
		if err != nil {
			if len(ms) > 1 {
				s.log.Info("a mail of the batch failed; each is processed alone", "mails", len(ms)-start, "err", err)
			}
			copy(vs[start:], s.oneByOne(ctx, ms[start:]))
			return vs
		}
		for i, out := range outs {
			out, _ = s.done(rs[start+i], out, nil)
			vs[start+i].Disposition = disposition(out)
		}
		s.Kick()
		start += len(outs)
	}
	return vs
}

// readAll reads a batch's mails on every core: reading them (MIME, the
// order blocks) needs nothing of the store, and the cores are otherwise
// idle while a batch's first transaction waits for it.
func (s *Service) readAll(ms []mailbox.Message) []received {
	rs := make([]received, len(ms))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ms); i = int(next.Add(1) - 1) {
				size := int64(0)
				if ms[i].HeaderOnly {
					size = ms[i].Size
				}
				rs[i] = s.read(ms[i].Raw, size)
			}
		})
	}
	wg.Wait()
	return rs
}

// processSome processes mails in one transaction, from the first, until
// its work budget has passed or none is left, and commits: the outcomes
// of those it processed. The budget is Config.BatchWork, or twice what
// the last commit took if that is more: on a disk whose fsync is slow,
// commits stay at most a third of the time.
func (s *Service) processSome(rs []received) ([]Outcome, error) {
	budget := max(s.cfg.BatchWork, 2*time.Duration(s.commitTook.Load()))
	var outs []Outcome
	var worked time.Time
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		outs = outs[:0]
		t0 := time.Now()
		defer func() { worked = time.Now() }()
		for _, r := range rs {
			out, err := s.process(tx, r)
			if err != nil {
				return err
			}
			if outs = append(outs, out); time.Since(t0) >= budget {
				break
			}
		}
		return nil
	})
	if err == nil {
		s.commitTook.Store(int64(time.Since(worked)))
	}
	return outs, err
}

// oneByOne handles each mail alone.
func (s *Service) oneByOne(ctx context.Context, ms []mailbox.Message) []mailbox.Verdict {
	vs := make([]mailbox.Verdict, len(ms))
	for i, m := range ms {
		vs[i].Disposition, vs[i].Err = s.Handle(ctx, m)
	}
	return vs
}

// disposition files a mail by its outcome.
func disposition(out Outcome) mailbox.Disposition {
	if out.Rejected {
		return mailbox.Rejected
	}
	return mailbox.Processed
}

// Kick wakes the outbox loop: mail was queued.
func (s *Service) Kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// RunOutbox drains the outbox whenever mail is queued, when the next
// retry falls due, and at least every interval, until ctx ends. While the
// SMTP server is unavailable it probes it with Config.ProbeBackoff (a
// server that refuses AUTH, with RetryBackoff), and a mail queued
// meanwhile does not make it try sooner. It sends sendConnections mails
// at once, so send must be safe for concurrent use (mailbox.Sender's
// SendRaw is), and while it runs the mails queued are composed as their
// transaction writes them (early).
func (s *Service) RunOutbox(ctx context.Context, send SendFunc, interval time.Duration) error {
	defer s.early.sending()()
	probes := 0 // failed attempts in a row to reach the server
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		_, err := s.drain(ctx, send, sendConnections)
		wait, wake := s.untilDue(interval), s.wake
		var down *UnavailableError
		switch {
		case errors.As(err, &down):
			probes++
			backoff, log := s.cfg.ProbeBackoff, s.log.Warn
			if !mailbox.IsTemporary(down.Err) {
				backoff, log = s.cfg.RetryBackoff, s.log.Error
			}
			wait, wake = backoff(probes), nil
			log("SMTP server unavailable; the outbox waits", "attempt", probes, "next", wait, "err", down.Err)
		case err != nil && !errors.Is(err, context.Canceled):
			s.log.Error("outbox", "err", err)
			wait = interval // a store error: not again at once
		default:
			if probes > 0 {
				s.log.Info("SMTP server available again", "after", probes)
			}
			probes = 0
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		case <-timer.C:
		}
	}
}

// untilDue is how long until the next mail of the outbox falls due, at
// most interval (and at least a few milliseconds, so that a backoff of
// nothing cannot make the loop spin).
func (s *Service) untilDue(interval time.Duration) time.Duration {
	var at time.Time
	var ok bool
	if err := s.cfg.Store.View(func(tx *store.Tx) error { at, ok = tx.NextDue(); return nil }); err != nil || !ok {
		return interval
	}
	return min(max(at.Sub(s.cfg.Now()), 10*time.Millisecond), interval)
}

// Serve runs the service on a mailbox until ctx ends: the intake hands
// every new mail to Handle, the outbox loop sends the replies (several at
// once: send must be safe for concurrent use, RunOutbox), and the
// clock loop ticks the ladders' clocks (Tick) every Config.ClockTick.
func (s *Service) Serve(ctx context.Context, in *mailbox.Intake, send SendFunc, interval time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.RunOutbox(ctx, send, interval) }()
	clocks := make(chan struct{})
	go func() { s.runClocks(ctx, s.cfg.ClockTick); close(clocks) }()
	err := in.RunBatch(ctx, s.HandleBatch)
	cancel()
	<-done
	<-clocks
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
