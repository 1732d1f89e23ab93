package games

import (
	"context"
	"encoding/json"
	"fmt"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// SendFunc submits one mail, from an envelope sender to recipients, as
// exact bytes (mailbox.Sender.SendRaw).
type SendFunc func(ctx context.Context, from string, to []string, raw []byte) error

// DrainOutbox sends every mail that is due, oldest first, and removes each
// only after the server accepted it. It returns how many were sent; a
// failed mail is rescheduled and the others go on.
func (s *Service) DrainOutbox(ctx context.Context, send SendFunc) (int, error) {
	var due []store.OutboxEntry
	err := s.cfg.Store.View(func(tx *store.Tx) error {
		var err error
		due, err = tx.Due(s.cfg.Now(), 100)
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, e := range due {
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		ok, err := s.deliver(ctx, send, e)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// deliver sends one outbox entry and records the result.
func (s *Service) deliver(ctx context.Context, send SendFunc, e store.OutboxEntry) (bool, error) {
	var m outboxMail
	if err := json.Unmarshal(e.Mail, &m); err != nil {
		return false, fmt.Errorf("games: outbox entry %d: %w", e.ID, err)
	}
	sendErr := send(ctx, m.From, m.To, m.Raw)
	if sendErr == nil {
		s.log.Info("mail sent", "entry", e.ID, "to", m.To)
		return true, s.cfg.Store.Update(func(tx *store.Tx) error { return tx.Delivered(e.ID) })
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	backoff, level := s.cfg.RetryBackoff, "temporary"
	if !mailbox.IsTemporary(sendErr) {
		backoff, level = s.cfg.PermanentBackoff, "permanent"
	}
	next := s.cfg.Now().Add(backoff(e.Attempts + 1))
	s.log.Warn("send failed", "entry", e.ID, "to", m.To, "failure", level, "attempt", e.Attempts+1, "next", next, "err", sendErr)
	return false, s.cfg.Store.Update(func(tx *store.Tx) error { return tx.Retry(e.ID, next, sendErr.Error()) })
}

// Pending counts the mails waiting in the outbox.
func (s *Service) Pending() (int, error) {
	n := 0
	err := s.cfg.Store.View(func(tx *store.Tx) error { n = tx.Pending(); return nil })
	return n, err
}
