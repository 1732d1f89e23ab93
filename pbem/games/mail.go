package games

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"herald/pbem"
	"herald/pbem/store"
	"herald/templates"
)

// Outcome is what became of a mail.
type Outcome struct {
	MessageID string
	Game      string
	// Status is "applied", "checked", "status", "resign-asked",
	// "resigned", "refused:<code>", "ignored:<why>" or "duplicate" (a
	// copy of a mail processed before; Rejected is then as the first
	// time).
	Status string
	// Rejected is true when the mail changed no game: the daemon files it
	// in the Rejected mailbox.
	Rejected bool
}

// HandleMail processes one received mail, raw RFC 5322 bytes, in one store
// transaction: orders applied, replies queued and the mail's mark recorded
// together, or nothing. It is safe to call again with the same mail: a copy
// changes nothing, is answered by nothing and gets the outcome of the first
// (dedupe.go).
func (s *Service) HandleMail(raw []byte) (Outcome, error) {
	m, readErr := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: s.cfg.MaxMailBytes, Self: []string{s.cfg.Address}})
	var me *pbem.MailError
	if readErr != nil {
		if !errors.As(readErr, &me) {
			return Outcome{}, readErr
		}
		m = me.Mail
	}
	id := messageID(m, raw)
	var out Outcome
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		out = Outcome{MessageID: id}
		w := &work{s: s, tx: tx, m: m, id: id, out: &out, key: anonymousKey(m, me, id, raw)}
		if w.seen(w.key) {
			return nil
		}
		if err := w.run(me); err != nil || w.copy {
			return err
		}
		return tx.MarkProcessed(w.key, store.Processed{Game: out.Game, Outcome: out.Status, Rejected: out.Rejected, At: s.cfg.Now().UTC()})
	})
	if err != nil {
		return Outcome{}, fmt.Errorf("games: mail %s: %w", id, err)
	}
	s.log.Info("mail processed", "message_id", id, "game", out.Game, "outcome", out.Status)
	return out, nil
}

// messageID identifies a mail for exactly-once processing: its Message-ID,
// or for a mail without one the hash of its bytes.
func messageID(m *pbem.Mail, raw []byte) string {
	if m != nil && m.MessageID != "" {
		return m.MessageID
	}
	h := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(h[:])
}

// work is one mail being processed inside its transaction.
type work struct {
	s   *Service
	tx  *store.Tx
	m   *pbem.Mail
	id  string
	out *Outcome
	g   *game
	// key marks the mail as processed (dedupe.go); copy is set when it
	// was processed before.
	key  string
	copy bool
}

func (w *work) ignore(why string) error {
	w.out.Status, w.out.Rejected = "ignored:"+why, true
	w.s.log.Info("mail ignored", "message_id", w.id, "why", why)
	return nil
}

func (w *work) run(me *pbem.MailError) error {
	m := w.m
	switch {
	case m == nil || m.From == "":
		return w.ignore("no sender")
	case m.Robot != "":
		return w.ignore(m.Robot)
	}
	if ok, notify := w.s.limiter.Allow(m.From, w.s.cfg.Now()); !ok {
		if notify {
			return w.notice("rate-limited", "Too many mails", fmt.Sprintf("Herald has received more mails from %s in the last hour than it reads from one address (%d), or too many with a wrong key (%d), and will not read more from this address for a while. Nothing in any game has changed; send your orders again later.", m.From, w.s.cfg.PerHour, pbem.MaxFailures))
		}
		return w.ignore("rate-limited")
	}
	if me != nil {
		return w.notice(refusalCode(me), "Your mail could not be read", me.Reason+" Nothing in any game has changed.")
	}
	return w.orders()
}

func refusalCode(me *pbem.MailError) string {
	if me.TooLarge {
		return "too-large"
	}
	return "malformed"
}

// notice answers with a Notice and records the mail as refused.
func (w *work) notice(code, about string, paragraphs ...string) error {
	w.out.Status, w.out.Rejected = "refused:"+code, true
	n := templates.Notice{About: about, Paragraphs: paragraphs}
	if w.g != nil {
		n.GameID = w.g.rec.ID
	}
	return w.s.send(w.tx, nil, n, w.m.From, mailRef{kind: "notice", tag: hashTag(w.id), inReplyTo: w.id})
}
