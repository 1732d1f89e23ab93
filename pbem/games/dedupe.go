package games

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"herald/pbem"
	"herald/pbem/store"
)

// A mail is processed once. Its mark in the store is keyed by what a
// stranger cannot borrow (docs/mail-orders.md, "Move numbers and
// duplicates"):
//
//   - a block whose sender authenticated as a player: the game, the side,
//     and the hash of the mail's Message-ID and the block's text. Only the
//     key holder can write a mark there, so a stranger who sends a mail
//     under a player's Message-ID, before or after him, shadows nothing.
//   - any other mail: the hash of the sender's address, the Message-ID and
//     the mail's text. It can only ever match a copy of itself.
//
// A copy of a processed mail (the same mail offered again after a crash
// between the commit and the IMAP flag, or sent twice) changes nothing,
// sends nothing, and gets the disposition of the first: it tells its sender
// nothing he did not know.

// anonymousKey is the mark of a mail as long as its sender has not
// authenticated.
func anonymousKey(m *pbem.Mail, me *pbem.MailError, id string, raw []byte) string {
	h := sha256.New()
	from, text := "", raw
	if m != nil {
		from = m.From
		if me == nil {
			text = []byte(m.Text)
		}
	}
	for _, part := range [][]byte{[]byte(from), []byte(id), text} {
		h.Write([]byte(hex.EncodeToString(sha256Of(part))))
	}
	return "mail/" + hex.EncodeToString(h.Sum(nil))
}

// playerKey is the mark of a block its sender authenticated for a side.
func playerKey(game, side, id string, b pbem.Block) string {
	var text strings.Builder
	text.WriteString(b.Marker())
	for _, l := range b.Lines {
		text.WriteString("\n" + l.Text)
	}
	h := sha256.New()
	for _, part := range []string{id, text.String()} {
		h.Write([]byte(hex.EncodeToString(sha256Of([]byte(part)))))
	}
	return "game/" + game + "/" + strings.ToLower(side) + "/" + hex.EncodeToString(h.Sum(nil))
}

func sha256Of(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// seen makes key the mail's mark and reports whether a mail was processed
// under it; if so the outcome is the first one's, marked as a copy.
func (w *work) seen(key string) bool {
	w.key = key
	p, ok := w.tx.Processed(key)
	if !ok {
		return false
	}
	w.copy = true
	*w.out = Outcome{MessageID: w.id, Game: p.Game, Status: "duplicate", Rejected: rejected(p)}
	w.s.log.Info("copy of a processed mail; nothing to do", "message_id", w.id, "first", p.Outcome, "at", p.At)
	return true
}

// rejected is whether a processed mail was filed as rejected; marks
// written before Processed.Rejected existed say it by their outcome.
func rejected(p *store.Processed) bool {
	return p.Rejected || strings.HasPrefix(p.Outcome, "refused:") || strings.HasPrefix(p.Outcome, "ignored:")
}
