package games

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"herald/pbem"
	"herald/templates"
)

// Mail that did not authenticate, whatever its From claims, may make
// Herald write only so often, and never to an address its answers bounce
// from (docs/mail-orders.md, "Rate limits and bounces"): a stranger can
// neither lock a player out nor use Herald to spam a third party.

// mayAnswer reports whether an answer to the mail, which did not
// authenticate, may go to addr: not when a notice to addr bounced, nor
// past Config.AnswersPerHour answers to it in the last hour. It logs why
// not.
func (w *work) mayAnswer(addr string) bool {
	why := ""
	switch {
	case w.tx.Meta(bouncedKey(addr)) != nil:
		why = "an earlier notice to this address bounced"
	case !w.s.limiter.Answer(addr, w.s.cfg.Now()):
		why = "answers per hour to mail that did not authenticate reached"
	default:
		return true
	}
	w.s.log.Info("no answer to mail that did not authenticate", "message_id", w.id, "to", addr, "why", why)
	w.out.Status += " (unanswered)"
	return false
}

// answerTag is the Message-ID tag of an answer to mail that did not
// authenticate: the tag of the mail answered and a MAC binding it to the
// kind of answer and its recipient, so that a bounce naming this
// Message-ID and that recipient proves a notice Herald sent there came
// back (noteBounce), and no one can make one up.
func (s *Service) answerTag(kind, to, id string) string {
	base, _ := pbem.PlusTag(to)
	h := hashTag(id)
	return h + "." + hex.EncodeToString(s.mac("answer", kind, base, h)[:6])
}

// answerID finds the Message-IDs of answers Herald sent to mail that did
// not authenticate: kind, tag of the mail answered, MAC.
var answerID = regexp.MustCompile(`\.(notice|refusal)\.([0-9a-f]{16})\.([0-9a-f]{12})(?:-[a-z]*)?@`)

// anyAddress finds the addresses a bounce names (Final-Recipient,
// Original-Recipient, the returned header's To and others).
var anyAddress = regexp.MustCompile(`[^\s<>()\[\],;:"'=]+@[^\s<>()\[\],;:"'=]+`)

// noteBounce reads a robot's mail (a bounce, a delivery report, an
// automatic reply) for the Message-ID of an answer Herald sent to mail
// that did not authenticate, and the address it went to. When the MAC of
// that Message-ID binds it to that address, the answer really went there
// and came back: Herald answers that address's unauthenticated mail no
// more. A made-up bounce names no valid MAC and changes nothing.
func (w *work) noteBounce() error {
	text := string(w.raw) + "\n" + w.m.Text
	ids := answerID.FindAllStringSubmatch(text, 8)
	if len(ids) == 0 {
		return nil
	}
	addrs := map[string]bool{}
	for _, a := range anyAddress.FindAllString(text, 200) {
		if a = pbem.NormalizeAddress(a); strings.Contains(a, "@") {
			base, _ := pbem.PlusTag(a)
			addrs[base] = true
		}
	}
	for _, id := range ids {
		for a := range addrs {
			if hex.EncodeToString(w.s.mac("answer", id[1], a, id[2])[:6]) == id[3] {
				w.s.log.Warn("a notice bounced: no more answers to mail from this address that does not authenticate", "message_id", w.id, "address", a, "notice", id[0])
				return w.tx.PutMeta(bouncedKey(a), []byte(w.s.cfg.Now().UTC().Format("2006-01-02T15:04:05Z")))
			}
		}
	}
	return nil
}

// bouncedKey names an address's bounce mark in the store's meta bucket.
func bouncedKey(addr string) string {
	base, _ := pbem.PlusTag(addr)
	return "bounced:" + base
}

// tooMany answers the first mail over Config.PerHour of a player, who
// authenticated: he alone fills that count.
func (w *work) tooMany(g *game, side string, notify bool) error {
	w.out.Status, w.out.Rejected = "ignored:rate-limited", true
	if !notify {
		return nil
	}
	w.out.Status = "refused:rate-limited"
	n := templates.Notice{GameID: g.rec.ID, About: "Too many mails", Paragraphs: []string{
		fmt.Sprintf("Herald has read more mails with your key in the last hour than it reads from one player (%d), and will not read more of yours for a while. Nothing in the game has changed; send your orders again later.", w.s.cfg.PerHour)}}
	s, _ := g.side(side)
	return w.s.send(w.tx, g, n, g.player(s), mailRef{kind: "limit", tag: hashTag(w.id)})
}
