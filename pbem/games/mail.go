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
func (s *Service) HandleMail(raw []byte) (Outcome, error) { return s.handleMail(raw, 0) }

// HandleHeader processes a mail of size bytes of which only the header
// was fetched, because it is larger than MaxMailBytes: it is answered as
// too large, from its header alone.
func (s *Service) HandleHeader(header []byte, size int64) (Outcome, error) {
	return s.handleMail(header, size)
}

// MaxMailBytes is the largest mail the service reads: the intake fetches
// only the header of a larger one (mailbox.IntakeConfig.MaxMessageBytes).
func (s *Service) MaxMailBytes() int64 { return s.cfg.MaxMailBytes }

func (s *Service) handleMail(raw []byte, size int64) (Outcome, error) {
	r := s.read(raw, size)
	if r.err != nil {
		return Outcome{}, r.err
	}
	var out Outcome
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		var err error
		out, err = s.process(tx, r)
		return err
	})
	return s.done(r, out, err)
}

// received is a mail read before its transaction: parsing needs no store.
type received struct {
	raw []byte
	m   *pbem.Mail
	me  *pbem.MailError // why it could not be read, if it could not
	err error           // not a mail's fault: it is offered again
	id  string
	// blocks and problems are what pbem.FindBlocks found in the text of
	// a mail read whole: looked for here, before the transaction, on
	// every core (readAll), rather than in it, where mails take turns.
	blocks   []pbem.Block
	problems []pbem.Problem
}

// read reads a mail of size bytes (0: raw is the whole mail).
func (s *Service) read(raw []byte, size int64) received {
	m, readErr := pbem.ReadMail(raw, pbem.ReadOptions{MaxBytes: s.cfg.MaxMailBytes, Self: []string{s.cfg.Address}, Size: size})
	r := received{raw: raw, m: m}
	if readErr == nil && m != nil {
		r.blocks, r.problems = pbem.FindBlocks(m.Text)
	}
	if readErr != nil {
		if !errors.As(readErr, &r.me) {
			r.err = readErr
		} else {
			r.m = r.me.Mail
		}
	}
	r.id = messageID(r.m, raw)
	return r
}

// key is the mail's processed mark (dedupe.go).
func (r received) key() string { return anonymousKey(r.m, r.me, r.id, r.raw) }

// process carries a read mail out in tx: its effects, its replies and its
// processed mark, or a *mailFailure.
func (s *Service) process(tx *store.Tx, r received) (Outcome, error) {
	out := Outcome{MessageID: r.id}
	w := &work{s: s, tx: tx, m: r.m, id: r.id, out: &out, key: r.key(), raw: r.raw, blocks: r.blocks, problems: r.problems}
	if w.seen(w.key) {
		return out, nil
	}
	if err := w.run(r.me); err != nil {
		return out, &mailFailure{err}
	}
	if err := w.ladderAfter(); err != nil {
		return out, &mailFailure{err}
	}
	if w.copy {
		return out, nil
	}
	return out, tx.MarkProcessed(w.key, store.Processed{Game: out.Game, Outcome: out.Status, Rejected: out.Rejected, At: s.cfg.Now().UTC()})
}

// done is what became of a mail once its transaction ended with err.
func (s *Service) done(r received, out Outcome, err error) (Outcome, error) {
	var mf *mailFailure
	if errors.As(err, &mf) {
		return s.failed(r.m, r.id, r.key(), mf.err)
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("games: mail %s: %w", r.id, err)
	}
	s.log.Info("mail processed", "message_id", r.id, "game", out.Game, "outcome", out.Status)
	return out, nil
}

// mailFailure is an error of processing a mail itself, not of the store:
// processing it again would fail again.
type mailFailure struct{ err error }

func (e *mailFailure) Error() string { return e.err.Error() }
func (e *mailFailure) Unwrap() error { return e.err }

// failed gives a mail whose processing failed (its effects rolled back)
// its disposition all the same, so that it is not offered again for
// ever: it is recorded as "failed", filed as rejected and logged as an
// error for the operator, and the sender, if he can be answered, is told
// that nothing changed. Only when even that cannot be committed is the
// mail left for a retry.
func (s *Service) failed(m *pbem.Mail, id, key string, cause error) (Outcome, error) {
	s.log.Error("mail could not be processed; filed as rejected, nothing changed", "message_id", id, "err", cause)
	out := Outcome{MessageID: id, Status: "failed", Rejected: true}
	err := s.cfg.Store.Update(func(tx *store.Tx) error {
		if m != nil && m.From != "" && m.Robot == "" {
			n := templates.Notice{About: "Your mail could not be processed", Paragraphs: []string{
				"Herald failed on your mail because of an error of its own, which its operator can read in the log. Nothing in any game has changed. Write again later, or to the organizer of your game."}}
			if err := s.send(tx, nil, n, m.From, mailRef{kind: "failed", tag: hashTag(id), inReplyTo: id}); err != nil {
				s.log.Error("no notice of the failure", "message_id", id, "err", err)
			}
		}
		return tx.MarkProcessed(key, store.Processed{Outcome: out.Status, Rejected: true, At: s.cfg.Now().UTC()})
	})
	if err != nil {
		return Outcome{}, fmt.Errorf("games: mail %s: %w (and recording the failure: %w)", id, cause, err)
	}
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
	// raw is the mail as received (its header only when it is too
	// large); authed is set once its block authenticated a player.
	raw    []byte
	authed bool
	// ladderMove is the move of a ladder game when its mail was read
	// (clock.go).
	ladderMove int
	// blocks and problems are the mail's order blocks (received).
	blocks   []pbem.Block
	problems []pbem.Problem
}

func (w *work) ignore(why string) error {
	w.out.Status, w.out.Rejected = "ignored:"+why, true
	w.s.log.Info("mail ignored", "message_id", w.id, "why", why)
	return nil
}

func (w *work) run(me *pbem.MailError) error {
	m := w.m
	switch {
	case m == nil:
		return w.ignore("no header")
	case m.From == "":
		w.s.log.Warn("no address to answer in From", "message_id", w.id, "from", m.FromHeader)
		return w.ignore("no sender")
	case m.Robot != "":
		if err := w.noteBounce(); err != nil {
			return err
		}
		return w.ignore(m.Robot)
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

// notice answers the sender, who did not authenticate, with a Notice
// (as often as mayAnswer lets it) and records the mail as refused.
func (w *work) notice(code, about string, paragraphs ...string) error {
	w.out.Status, w.out.Rejected = "refused:"+code, true
	if !w.mayAnswer(w.m.From) {
		return nil
	}
	n := templates.Notice{About: about, Paragraphs: paragraphs}
	if w.g != nil {
		n.GameID = w.g.rec.ID
	}
	return w.s.send(w.tx, nil, n, w.m.From, mailRef{kind: "notice", tag: w.s.answerTag("notice", w.m.From, w.id), inReplyTo: w.id})
}
