package games

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// outboxMail is an outbox entry: the envelope and the exact bytes to send.
type outboxMail struct {
	From string   `json:"from"`
	To   []string `json:"to"`
	Raw  []byte   `json:"raw"`
}

// mailRef says what a mail is about. Its Message-ID is derived from it, so
// a reply composed again (after a crash before the commit) keeps its
// identity, and two different mails never share one.
type mailRef struct {
	kind      string // "welcome", "result", "refusal", …
	tag       string // what makes it unique within the kind: "b12", a hash
	side      string // the recipient's side, if a player
	inReplyTo string // the Message-ID this answers, if any
	inline    []mailbox.Part
	attach    []mailbox.Part
	// latest keeps the mail as the side's latest, for STATUS.
	latest bool
}

// send renders a view and queues it for one recipient.
func (s *Service) send(tx *store.Tx, g *game, v templates.View, to string, ref mailRef) error {
	m, err := templates.Render(v)
	if err != nil {
		return err
	}
	from, id := s.cfg.Address, "herald"
	if g != nil {
		from, id = s.gameAddress(g.rec.ID), g.rec.ID
	}
	o := mailbox.Outgoing{
		From:      fmt.Sprintf("%s <%s>", s.cfg.Name, from),
		To:        []string{to},
		Subject:   m.Subject,
		Date:      s.cfg.Now().UTC(),
		MessageID: fmt.Sprintf("%s.%s.%s%s@%s", id, ref.kind, ref.tag, strings.ToLower(ref.side), s.host()),
		InReplyTo: ref.inReplyTo,
		Headers: map[string]string{
			// RFC 3834: an automatic answer; other robots must not answer it.
			"Auto-Submitted": "auto-replied",
			pbem.LoopHeader:  s.host(),
		},
		Text:        m.Text,
		HTML:        m.HTML,
		Inline:      ref.inline,
		Attachments: ref.attach,
	}
	if g != nil && ref.side != "" {
		prev, err := tx.Mail(g.rec.ID, "last-id:"+ref.side)
		if err != nil {
			return err
		}
		if len(prev) > 0 {
			o.References = []string{string(prev)}
			if o.InReplyTo == "" {
				o.InReplyTo = string(prev)
			}
		}
	}
	if err := s.enqueue(tx, id, o); err != nil {
		return err
	}
	if g == nil || ref.side == "" {
		return nil
	}
	if err := rememberBlocks(tx, g.rec.ID, m.Text); err != nil {
		return err
	}
	if err := tx.PutMail(g.rec.ID, "last-id:"+ref.side, []byte(o.MessageID)); err != nil {
		return err
	}
	if !ref.latest {
		return nil
	}
	keep, err := json.Marshal(withoutKey(o, g.keyOf(ref.side), keyPlaceholder))
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, "latest:"+ref.side, keep)
}

// keyPlaceholder stands for the player's key in the latest mail kept for
// STATUS, so that the store holds no key (keys.go); resendLatest writes
// the key back.
const keyPlaceholder = "{{herald:player-key}}"

// withoutKey is o with every occurrence of old in its bodies replaced.
func withoutKey(o mailbox.Outgoing, old, new string) mailbox.Outgoing {
	if old == "" {
		return o
	}
	o.Text = strings.ReplaceAll(o.Text, old, new)
	o.HTML = strings.ReplaceAll(o.HTML, old, new)
	return o
}

// keyOf is the key of a side's player, by the side's name.
func (g *game) keyOf(side string) string {
	s, ok := g.side(side)
	if !ok {
		return ""
	}
	return g.keys[s]
}

// enqueue composes a mail and puts it in the outbox, behind the mails of
// the same game (or "herald": about none) to the same recipient, so that
// a player reads a game's mails in the order Herald wrote them.
func (s *Service) enqueue(tx *store.Tx, game string, o mailbox.Outgoing) error {
	raw, err := mailbox.Compose(o)
	if err != nil {
		return err
	}
	entry, err := json.Marshal(outboxMail{From: s.cfg.Address, To: o.To, Raw: raw})
	if err != nil {
		return err
	}
	stream := game + "/" + strings.ToLower(strings.Join(o.To, ","))
	_, err = tx.Enqueue(entry, stream, s.cfg.Now())
	return err
}

// resendLatest queues again the latest mail a side received, with a new
// identity and date (STATUS).
func (s *Service) resendLatest(tx *store.Tx, g *game, side engine.Side, to, tag string, why resendReason) (bool, error) {
	raw, err := tx.Mail(g.rec.ID, "latest:"+g.sc.SideName(side))
	if err != nil || raw == nil {
		return false, err
	}
	var o mailbox.Outgoing
	if err := json.Unmarshal(raw, &o); err != nil {
		return false, err
	}
	o = withoutKey(o, keyPlaceholder, g.keys[side])
	o.To = []string{to}
	markResent(&o, s.cfg.Now().UTC(), why)
	o.MessageID = fmt.Sprintf("%s.status.%s@%s", g.rec.ID, tag, s.host())
	return true, s.enqueue(tx, g.rec.ID, o)
}

// hashTag is a short tag for a mail's Message-IDs derived from another
// identifier (the Message-ID of the mail it answers).
func hashTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:8])
}
