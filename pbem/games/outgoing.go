package games

import (
	"bytes"
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

// outboxMail is an outbox entry: the envelope and the mail to compose when
// it leaves the outbox — its headers, the record of the view its bodies are
// rendered from, and the jobs that draw its maps — so that nothing but the
// record is written in the transaction that queues it (issue 17). Raw, the
// exact bytes, is what entries queued by earlier versions hold.
type outboxMail struct {
	From   string            `json:"from"`
	To     []string          `json:"to"`
	Raw    []byte            `json:"raw,omitempty"`
	Mail   *mailbox.Outgoing `json:"mail,omitempty"`  // its inline parts without data
	View   *templates.Record `json:"view,omitempty"`  // renders Mail's subject and bodies
	Reach  *reachJob         `json:"reach,omitempty"` // its view's Reach hints
	Resent *resent           `json:"resent,omitempty"`
	Maps   []mapJob          `json:"maps,omitempty"` // one per inline part
}

// rendered is the mail of an entry not queued composed (Mail is set), its
// subject and bodies rendered from its view with the Reach hints given,
// its maps not yet drawn.
func (m outboxMail) rendered(reach []string) (mailbox.Outgoing, error) {
	o := *m.Mail
	if m.View != nil {
		r, err := templates.RenderRecord(*m.View, reach)
		if err != nil {
			return o, err
		}
		o.Subject, o.Text, o.HTML = r.Subject, r.Text, r.HTML
	}
	if m.Resent != nil {
		m.Resent.mark(&o)
	}
	return o, nil
}

// QueuedMail reads an outbox entry (store.OutboxEntry.Mail): the mail as
// it will be sent, without its maps and Reach hints (found when it is
// sent), or, for an entry queued composed, nil and its exact bytes.
func QueuedMail(entry []byte) (*mailbox.Outgoing, []byte, error) {
	var m outboxMail
	if err := json.Unmarshal(entry, &m); err != nil {
		return nil, nil, fmt.Errorf("games: outbox entry: %w", err)
	}
	if m.Mail == nil {
		return nil, m.Raw, nil
	}
	o, err := m.rendered(nil)
	return &o, nil, err
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
	// reach, if set, finds the Reach hints of a Result when it is composed.
	reach *reachJob
}

// send queues a view for one recipient, to be rendered when it leaves the
// outbox: here it is only checked as rendering would check it.
func (s *Service) send(tx *store.Tx, g *game, v templates.View, to string, ref mailRef) error {
	rec, blocks, err := templates.Keep(v)
	if err != nil {
		return err
	}
	o, err := s.envelope(tx, g, to, ref)
	if err != nil {
		return err
	}
	id := "herald"
	if g != nil {
		id = g.rec.ID
	}
	if err := s.enqueue(tx, id, outboxMail{Mail: &o, View: &rec, Reach: ref.reach, Maps: ref.maps}); err != nil {
		return err
	}
	if g == nil || ref.side == "" {
		return nil
	}
	if err := rememberBlocks(tx, g.rec.ID, blocks); err != nil {
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
		kept.Mail, kept.View, kept.Reach = withoutPictures(o), recordWithout(rec, g.keyOf(ref.side), keyPlaceholder), ref.reach
	}
	keep, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return tx.PutMail(g.rec.ID, "latest:"+ref.side, keep)
}

// envelope is the mail to one recipient without its subject and bodies
// (rendered from its view when it leaves the outbox), threaded after the
// latest mail of the game he received.
func (s *Service) envelope(tx *store.Tx, g *game, to string, ref mailRef) (mailbox.Outgoing, error) {
	from, id := s.cfg.Address, "herald"
	if g != nil {
		from, id = s.gameAddress(g.rec.ID), g.rec.ID
	}
	o := mailbox.Outgoing{
		From:      fmt.Sprintf("%s <%s>", s.cfg.Name, from),
		To:        []string{to},
		Date:      s.cfg.Now().UTC(),
		MessageID: fmt.Sprintf("%s.%s.%s%s@%s", id, ref.kind, ref.tag, strings.ToLower(ref.side), s.host()),
		InReplyTo: ref.inReplyTo,
		Headers: map[string]string{
			// RFC 3834: an automatic answer; other robots must not answer it.
			"Auto-Submitted": "auto-replied",
			pbem.LoopHeader:  s.host(),
		},
		Inline:      ref.inline,
		Attachments: ref.attach,
	}
	if g != nil && ref.side != "" {
		prev, err := tx.Mail(g.rec.ID, "last-id:"+ref.side)
		if err != nil {
			return o, err
		}
		if len(prev) > 0 {
			o.References = []string{string(prev)}
			if o.InReplyTo == "" {
				o.InReplyTo = string(prev)
			}
		}
	}
	return o, nil
}

// latestMail is a side's latest mail as the store keeps it for STATUS and
// Remail: its headers and the record of its view, without the player's
// key and its inline map without its picture (drawn again as the
// battlefield stands when the mail goes out again: its moves and results
// are in its text); or, for a welcome, only that it is to be built anew
// (from the game as it stands: no move yet). Mails kept by earlier
// versions hold their rendered bodies in Mail and no View.
type latestMail struct {
	Rebuild string            `json:"rebuild,omitempty"`
	Mail    *mailbox.Outgoing `json:"mail,omitempty"`
	View    *templates.Record `json:"view,omitempty"`
	Reach   *reachJob         `json:"reach,omitempty"`
}

// withoutPictures is o with its inline parts' data left out.
func withoutPictures(o mailbox.Outgoing) *mailbox.Outgoing {
	o.Inline = slices.Clone(o.Inline)
	for i := range o.Inline {
		o.Inline[i].Data = nil
	}
	return &o
}

// keptLatest is a side's latest mail as loadLatest reads it: the mail, the
// record of its view (nil for a mail kept rendered), the jobs that draw its
// maps, and whether one of them shows the battlefield as it stands now,
// not as the mail first showed it.
type keptLatest struct {
	mail  *mailbox.Outgoing
	view  *templates.Record
	reach *reachJob
	jobs  []mapJob
	now   bool
}

// loadLatest reads a side's kept latest mail (nil if none), without the
// player's key. Mails kept before pictures were left out hold them still.
func (s *Service) loadLatest(tx *store.Tx, g *game, side engine.Side) (*keptLatest, error) {
	raw, err := tx.Mail(g.rec.ID, "latest:"+g.sideName(side))
	if err != nil || raw == nil {
		return nil, err
	}
	var kept latestMail
	if err := json.Unmarshal(raw, &kept); err != nil {
		return nil, err
	}
	if kept.Rebuild == "welcome" {
		return s.rebuildWelcome(tx, g, side)
	}
	if kept.Mail == nil { // kept whole, before issue 17
		kept.Mail = new(mailbox.Outgoing)
		return &keptLatest{mail: kept.Mail}, json.Unmarshal(raw, kept.Mail)
	}
	k := &keptLatest{mail: kept.Mail, view: kept.View, reach: kept.Reach}
	for range kept.Mail.Inline {
		j, err := g.nowJob()
		if err != nil {
			return nil, err
		}
		k.jobs = append(k.jobs, j)
	}
	k.now = len(k.jobs) > 0
	return k, nil
}

// rebuildWelcome builds a side's welcome anew, as it was sent: the game
// has not moved since, or another mail would be the latest.
func (s *Service) rebuildWelcome(tx *store.Tx, g *game, side engine.Side) (*keptLatest, error) {
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
		return nil, fmt.Errorf("games: %s: the opening seal: %v", g.rec.ID, err)
	}
	w, ref, err := s.welcomeMail(g, side, opening)
	if err != nil {
		return nil, err
	}
	rec, _, err := templates.Keep(w)
	if err != nil {
		return nil, err
	}
	o, err := s.envelope(tx, g, g.player(side), ref)
	if err != nil {
		return nil, err
	}
	// As kept copies are, without the key: resendLatest writes it back.
	return &keptLatest{mail: &o, view: recordWithout(rec, g.keys[side], keyPlaceholder), jobs: ref.maps}, nil
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

// recordWithout is a view's record with every occurrence of old in its
// data replaced. A key and its placeholder are plain ASCII that JSON
// writes as they are, so the replacement is the one Render would see.
func recordWithout(r templates.Record, old, new string) *templates.Record {
	if old != "" {
		r.View = bytes.ReplaceAll(r.View, []byte(old), []byte(new))
	}
	return &r
}

// keyOf is the key of a side's player, by the side's name.
func (g *game) keyOf(side string) string {
	s, ok := g.side(side)
	if !ok {
		return ""
	}
	return g.keys[s]
}

// enqueue puts a mail in the outbox, behind the mails of the same game
// (or "herald": about none) to the same recipient, so that a player reads
// a game's mails in the order Herald wrote them. It is composed when it
// leaves the outbox (rawOf), its maps drawn then, after the commit.
func (s *Service) enqueue(tx *store.Tx, game string, m outboxMail) error {
	m.From, m.To = s.cfg.Address, m.Mail.To
	if len(m.Maps) > 0 {
		m.Mail = withoutPictures(*m.Mail)
	}
	entry, err := json.Marshal(m)
	if err != nil {
		return err
	}
	stream := game + "/" + strings.ToLower(strings.Join(m.To, ","))
	id, err := tx.EnqueueMarshaled(entry, stream, s.cfg.Now())
	if err != nil {
		return err
	}
	s.early.offer(id, entry)
	return nil
}

// resendLatest queues again the latest mail a side received, with a new
// identity and date (STATUS).
func (s *Service) resendLatest(tx *store.Tx, g *game, side engine.Side, to, tag string, why resendReason) (bool, error) {
	kept, err := s.loadLatest(tx, g, side)
	if err != nil || kept == nil {
		return false, err
	}
	o := *kept.mail
	if kept.view != nil {
		kept.view = recordWithout(*kept.view, keyPlaceholder, g.keys[side])
	} else {
		o = withoutKey(o, keyPlaceholder, g.keys[side])
	}
	o.To = []string{to}
	r := &resent{Why: why, First: o.Date, MapNow: kept.now}
	o.Date = s.cfg.Now().UTC()
	o.MessageID = fmt.Sprintf("%s.status.%s@%s", g.rec.ID, tag, s.host())
	return true, s.enqueue(tx, g.rec.ID, outboxMail{Mail: &o, View: kept.view, Reach: kept.reach, Resent: r, Maps: kept.jobs})
}

// hashTag is a short tag for a mail's Message-IDs derived from another
// identifier (the Message-ID of the mail it answers).
func hashTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:8])
}
