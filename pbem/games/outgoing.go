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
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// outboxMail is an outbox entry: the envelope and the exact bytes to send,
// or, for a mail with maps, the mail to compose once its maps are drawn
// (mapjobs.go).
type outboxMail struct {
	From string            `json:"from"`
	To   []string          `json:"to"`
	Raw  []byte            `json:"raw,omitempty"`
	Mail *mailbox.Outgoing `json:"mail,omitempty"` // its inline parts without data
	Maps []mapJob          `json:"maps,omitempty"` // one per inline part
}

// mailRef says what a mail is about. Its Message-ID is derived from it, so
// a reply composed again (after a crash before the commit) keeps its
// identity, and two different mails never share one.
type mailRef struct {
	kind      string         // "welcome", "result", "refusal", …
	tag       string         // what makes it unique within the kind: "b12", a hash
	side      string         // the recipient's side, if a player
	inReplyTo string         // the Message-ID this answers, if any
	inline    []mailbox.Part // without their data: maps[i] draws inline[i]
	maps      []mapJob
	// rebuild, when set, keeps no copy of the mail as the side's latest
	// but says how to build it anew ("welcome").
	rebuild string
	attach  []mailbox.Part
	// latest keeps the mail as the side's latest, for STATUS.
	latest bool
}

// send renders a view and queues it for one recipient.
func (s *Service) send(tx *store.Tx, g *game, v templates.View, to string, ref mailRef) error {
	o, text, err := s.outgoing(tx, g, v, to, ref)
	if err != nil {
		return err
	}
	id := "herald"
	if g != nil {
		id = g.rec.ID
	}
	if err := s.enqueue(tx, id, o, ref.maps); err != nil {
		return err
	}
	if g == nil || ref.side == "" {
		return nil
	}
	if err := rememberBlocks(tx, g.rec.ID, text); err != nil {
		return err
	}
	if err := tx.PutMail(g.rec.ID, "last-id:"+ref.side, []byte(o.MessageID)); err != nil {
		return err
	}
	if !ref.latest {
		return nil
	}
	kept := latestMail{Rebuild: ref.rebuild}
	if ref.rebuild == "" {
		kept.Mail = withoutPictures(withoutKey(o, g.keyOf(ref.side), keyPlaceholder))
	}
	keep, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, "latest:"+ref.side, keep)
}

// outgoing renders a view into the mail for one recipient, threaded after
// the latest mail of the game he received; it returns the text part too.
func (s *Service) outgoing(tx *store.Tx, g *game, v templates.View, to string, ref mailRef) (mailbox.Outgoing, string, error) {
	m, err := templates.Render(v)
	if err != nil {
		return mailbox.Outgoing{}, "", err
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
			return o, "", err
		}
		if len(prev) > 0 {
			o.References = []string{string(prev)}
			if o.InReplyTo == "" {
				o.InReplyTo = string(prev)
			}
		}
	}
	return o, m.Text, nil
}

// latestMail is a side's latest mail as the store keeps it for STATUS and
// Remail: its text without the player's key and its inline map without
// its picture (drawn again as the battlefield stands when the mail goes
// out again: its moves and results are in its text); or, for a welcome,
// only that it is to be built anew (from the game as it stands: no move
// yet).
type latestMail struct {
	Rebuild string            `json:"rebuild,omitempty"`
	Mail    *mailbox.Outgoing `json:"mail,omitempty"`
}

// withoutPictures is o with its inline parts' data left out.
func withoutPictures(o mailbox.Outgoing) *mailbox.Outgoing {
	o.Inline = slices.Clone(o.Inline)
	for i := range o.Inline {
		o.Inline[i].Data = nil
	}
	return &o
}

// loadLatest reads a side's kept latest mail with the jobs that draw its
// maps again; now says whether one of them shows the battlefield as it
// stands now, not as the mail first showed it. Mails kept before pictures
// were left out hold them still.
func (s *Service) loadLatest(tx *store.Tx, g *game, side engine.Side) (o *mailbox.Outgoing, jobs []mapJob, now bool, err error) {
	raw, err := tx.Mail(g.rec.ID, "latest:"+g.sideName(side))
	if err != nil || raw == nil {
		return nil, nil, false, err
	}
	var kept latestMail
	if err := json.Unmarshal(raw, &kept); err != nil {
		return nil, nil, false, err
	}
	if kept.Rebuild == "welcome" {
		o, jobs, err := s.rebuildWelcome(tx, g, side)
		return o, jobs, false, err
	}
	if kept.Mail == nil { // kept whole, before issue 17
		kept.Mail = new(mailbox.Outgoing)
		return kept.Mail, nil, false, json.Unmarshal(raw, kept.Mail)
	}
	for range kept.Mail.Inline {
		j, err := g.nowJob()
		if err != nil {
			return nil, nil, false, err
		}
		jobs = append(jobs, j)
	}
	return kept.Mail, jobs, len(jobs) > 0, nil
}

// rebuildWelcome builds a side's welcome anew, as it was sent: the game
// has not moved since, or another mail would be the latest.
func (s *Service) rebuildWelcome(tx *store.Tx, g *game, side engine.Side) (*mailbox.Outgoing, []mapJob, error) {
	var opening dice.Checkpoint
	err := tx.Log(g.rec.ID, func(seq uint64, line []byte) error {
		if seq != 1 {
			return nil
		}
		e, err := dice.ParseEntry(line)
		if err != nil {
			return err
		}
		opening = dice.Checkpoint{Length: 0, Head: e.Prev, Sig: &e.Sig}
		return nil
	})
	if err != nil || opening.Sig == nil {
		return nil, nil, fmt.Errorf("games: %s: the opening seal: %v", g.rec.ID, err)
	}
	w, ref, err := s.welcomeMail(g, side, opening)
	if err != nil {
		return nil, nil, err
	}
	o, _, err := s.outgoing(tx, g, w, g.player(side), ref)
	if err != nil {
		return nil, nil, err
	}
	// As kept copies are, without the key: resendLatest writes it back.
	o = withoutKey(o, g.keys[side], keyPlaceholder)
	return &o, ref.maps, nil
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
// a player reads a game's mails in the order Herald wrote them. A mail
// with maps is queued uncomposed, with the jobs that draw them after the
// commit (mapjobs.go).
func (s *Service) enqueue(tx *store.Tx, game string, o mailbox.Outgoing, maps []mapJob) error {
	m := outboxMail{From: s.cfg.Address, To: o.To}
	if len(maps) > 0 {
		m.Mail, m.Maps = withoutPictures(o), maps
	} else {
		raw, err := mailbox.Compose(o)
		if err != nil {
			return err
		}
		m.Raw = raw
	}
	entry, err := json.Marshal(m)
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
	kept, jobs, now, err := s.loadLatest(tx, g, side)
	if err != nil || kept == nil {
		return false, err
	}
	o := withoutKey(*kept, keyPlaceholder, g.keys[side])
	o.To = []string{to}
	markResent(&o, s.cfg.Now().UTC(), why, now)
	o.MessageID = fmt.Sprintf("%s.status.%s@%s", g.rec.ID, tag, s.host())
	return true, s.enqueue(tx, g.rec.ID, o, jobs)
}

// hashTag is a short tag for a mail's Message-IDs derived from another
// identifier (the Message-ID of the mail it answers).
func hashTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:8])
}
