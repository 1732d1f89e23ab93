package games

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/mail"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// SendFunc submits one mail, from an envelope sender to recipients, as
// exact bytes (mailbox.Sender.SendRaw).
type SendFunc func(ctx context.Context, from string, to []string, raw []byte) error

// DrainOutbox sends every mail that is due, and removes each only after
// the server accepted it. The mails of a game to one recipient leave in
// the order they were written: one that waits for a retry holds back the
// later ones (store.OutboxEntry). It returns how many were sent; a failed
// mail is rescheduled, or given up after Config.GiveUpAfter permanent
// refusals, and the others go on.
func (s *Service) DrainOutbox(ctx context.Context, send SendFunc) (int, error) {
	sent := 0
	for {
		var due []store.OutboxEntry
		err := s.cfg.Store.View(func(tx *store.Tx) error {
			var err error
			due, err = tx.Due(s.cfg.Now(), 100)
			return err
		})
		if err != nil || len(due) == 0 {
			return sent, err
		}
		// A mail sent makes the next of its stream due: read again until
		// a round sends nothing (what failed is due later, not now).
		round := 0
		for _, e := range due {
			if ctx.Err() != nil {
				return sent, ctx.Err()
			}
			ok, err := s.deliver(ctx, send, e)
			if err != nil {
				return sent, err
			}
			if ok {
				round++
			}
		}
		if round == 0 {
			return sent, nil
		}
		sent += round
	}
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
	permanent := !mailbox.IsTemporary(sendErr)
	if permanent && e.Permanent+1 >= s.cfg.GiveUpAfter {
		return false, s.giveUp(e, m, sendErr)
	}
	backoff, level := s.cfg.RetryBackoff, "temporary"
	if permanent {
		backoff, level = s.cfg.PermanentBackoff, "permanent"
	}
	next := s.cfg.Now().Add(backoff(e.Attempts + 1))
	s.log.Warn("send failed", "entry", e.ID, "to", m.To, "failure", level, "attempt", e.Attempts+1, "next", next, "err", sendErr)
	return false, s.cfg.Store.Update(func(tx *store.Tx) error { return tx.Retry(e.ID, next, sendErr.Error(), permanent) })
}

// giveUp ends the attempts at a mail the server refused for good too often:
// it is kept among the undeliverable mails, with the reason, and logged as
// an error, and the next mail to the same recipient goes on. A result mail
// given up is still the player's latest (STATUS sends it again).
func (s *Service) giveUp(e store.OutboxEntry, m outboxMail, sendErr error) error {
	reason := fmt.Sprintf("%v (given up after %d permanent refusals in %d attempts)", sendErr, e.Permanent+1, e.Attempts+1)
	s.log.Error("mail undeliverable; given up", "entry", e.ID, "to", m.To, "stream", e.Stream,
		"message_id", headerValue(m.Raw, "Message-Id"), "queued", e.Created, "reason", reason)
	return s.cfg.Store.Update(func(tx *store.Tx) error { return tx.GiveUp(e.ID, reason, s.cfg.Now()) })
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
