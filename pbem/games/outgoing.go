package games

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
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
	// redraw says how to draw each inline map again, when the mail is
	// kept as the side's latest: the store keeps no picture (issue 17).
	redraw []mapRedraw
	attach []mailbox.Part
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
	keep, err := json.Marshal(latestMail{Mail: withoutPictures(withoutKey(o, g.keyOf(ref.side), keyPlaceholder)), Redraw: ref.redraw})
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, "latest:"+ref.side, keep)
}

// latestMail is a side's latest mail as the store keeps it for STATUS and
// Remail: its text without the player's key and its inline maps without
// their pictures, with how to draw each again.
type latestMail struct {
	Mail   *mailbox.Outgoing `json:"mail"`
	Redraw []mapRedraw       `json:"redraw"`
}

// mapRedraw is how an inline map of a kept mail is drawn again: the
// opening position, or the army of Side in it (a welcome's), or the
// battlefield as it stands when the mail goes out again (a result's: its
// moves and results are in the mail's text).
type mapRedraw struct {
	Kind string `json:"kind"` // "opening", "army", "now"
	Side int    `json:"side,omitempty"`
}

// withoutPictures is o with its inline parts' data left out.
func withoutPictures(o mailbox.Outgoing) *mailbox.Outgoing {
	o.Inline = slices.Clone(o.Inline)
	for i := range o.Inline {
		o.Inline[i].Data = nil
	}
	return &o
}

// loadLatest reads a side's kept latest mail and draws its maps again;
// now says whether one of them shows the battlefield as it stands now,
// not as the mail first showed it. Mails kept before pictures were left
// out hold them still.
func (s *Service) loadLatest(tx *store.Tx, g *game, side engine.Side) (o *mailbox.Outgoing, now bool, err error) {
	raw, err := tx.Mail(g.rec.ID, "latest:"+g.sc.SideName(side))
	if err != nil || raw == nil {
		return nil, false, err
	}
	var kept latestMail
	if err := json.Unmarshal(raw, &kept); err != nil {
		return nil, false, err
	}
	if kept.Mail == nil { // kept whole, before issue 17
		kept.Mail = new(mailbox.Outgoing)
		return kept.Mail, false, json.Unmarshal(raw, kept.Mail)
	}
	o = kept.Mail
	for i := range o.Inline {
		if o.Inline[i].Data != nil || i >= len(kept.Redraw) {
			continue
		}
		png, err := s.redraw(g, kept.Redraw[i])
		if err != nil {
			return nil, false, err
		}
		o.Inline[i].Data = png
		now = now || kept.Redraw[i].Kind == "now"
	}
	return o, now, nil
}

// redraw draws a kept mail's map again.
func (s *Service) redraw(g *game, r mapRedraw) ([]byte, error) {
	switch {
	case r.Kind == "army" && s.cfg.ArmyMap != nil:
		return s.cfg.ArmyMap(g.sc, engine.NewState(g.sc), engine.Side(r.Side))
	case r.Kind == "opening" && s.cfg.Map != nil:
		st := engine.NewState(g.sc)
		return s.cfg.Map(g.sc, st, st, nil)
	case r.Kind == "now" && s.cfg.Map != nil:
		return s.cfg.Map(g.sc, g.st, g.st, nil)
	}
	return nil, fmt.Errorf("games: %s: no way to draw a %q map again", g.rec.ID, r.Kind)
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
	kept, now, err := s.loadLatest(tx, g, side)
	if err != nil || kept == nil {
		return false, err
	}
	o := withoutKey(*kept, keyPlaceholder, g.keys[side])
	o.To = []string{to}
	markResent(&o, s.cfg.Now().UTC(), why, now)
	o.MessageID = fmt.Sprintf("%s.status.%s@%s", g.rec.ID, tag, s.host())
	return true, s.enqueue(tx, g.rec.ID, o)
}

// hashTag is a short tag for a mail's Message-IDs derived from another
// identifier (the Message-ID of the mail it answers).
func hashTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:8])
}
