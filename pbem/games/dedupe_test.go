package games

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// A stranger cannot borrow a player's Message-ID, through the daemon on
// real IMAP and SMTP: sent first, it does not make the player's orders a
// "duplicate" (they are applied); sent after, under the Message-ID of a
// player's processed mail, it learns nothing of the game or how the mail
// fared.
func TestMessageIDSquatting(t *testing.T) {
	w := newWorld(t, "alice", "bob", "mallory")
	w.start(nil)
	w.newGame("crecy-squat", "alice", "bob")
	w.settle()
	seen := map[string]bool{}
	player, orders := w.nextOrders(seen)
	const squatted = "orders.1@localhost"
	orders.MessageID = squatted

	// Mallory writes first under the player's Message-ID: a block for
	// the game with the player's address as a display name, and a copy
	// of his orders under no key.
	b, _ := pbem.FindBlocks(orders.Text)
	forged := templates.OrderBlock{GameID: b[0].GameID, Move: b[0].Move, Prefill: texts(b[0].Lines)}
	w.post(mailbox.Outgoing{From: "mallory@localhost", To: []string{"herald+crecy-squat@localhost"},
		Subject: orders.Subject, MessageID: squatted, Text: forged.Text()})
	w.settle()
	w.post(*orders)
	w.settle()
	if n := w.blocks([]string{"crecy-squat"}); n != 1 {
		t.Fatalf("%s's orders after a stranger's mail with their Message-ID: %d blocks applied, want 1", player, n)
	}

	// The next orders are processed; Mallory then reuses their
	// Message-ID, learnt from a copy of the mail.
	next, orders := w.nextOrders(seen)
	w.post(*orders)
	w.settle()
	before := len(w.messages("mallory", "INBOX"))
	w.post(mailbox.Outgoing{From: "mallory@localhost", To: []string{"herald@localhost"},
		Subject: "hello", MessageID: orders.MessageID, Text: "What became of this mail?\n"})
	w.settle()
	answers := w.messages("mallory", "INBOX")[before:]
	if len(answers) == 0 {
		t.Error("the stranger's mail got no answer at all")
	}
	for _, m := range answers {
		// Its In-Reply-To is Mallory's own Message-ID; what it says is
		// in its subject and text.
		mail, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		text := mail.Subject + "\n" + mail.Text
		for _, leak := range []string{"crecy-squat", "applied", "already processed", next} {
			if strings.Contains(text, leak) {
				t.Errorf("the stranger's answer tells %q:\n%s", leak, text)
			}
		}
	}
	if n := w.blocks([]string{"crecy-squat"}); n != 2 {
		t.Errorf("%d blocks applied, want 2", n)
	}
}

// A crash after the commit and before \Seen offers the mail again: the
// restarted daemon files it as the first time (processed, not rejected)
// and sends nobody anything more.
func TestCrashAfterCommitSameDisposition(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	errCrash := errors.New("injected crash")
	var crashed atomic.Bool
	w.start(&mailbox.Hooks{AfterCommit: func(mailbox.Message, mailbox.Disposition) error {
		if crashed.CompareAndSwap(false, true) {
			return errCrash
		}
		return nil
	}})
	w.newGame("crecy-again", "alice", "bob")
	w.settle()
	seen := map[string]bool{}
	sent := w.play(seen, false)
	w.settle()
	if !w.crashed() {
		t.Fatal("the daemon did not crash after its commit")
	}
	if err := w.kill(); !errors.Is(err, errCrash) {
		t.Fatalf("daemon stopped with %v", err)
	}
	w.start(nil)
	w.settle()
	sent += w.play(seen, false)
	w.settle()
	if processed, rejected := w.filed("Processed", sent), w.count("Rejected"); processed != sent || rejected != 0 {
		t.Errorf("Herald filed %d mails as processed and %d as rejected, want %d and none", processed, rejected, sent)
	}
	if extra := w.unexpected("alice", "bob"); len(extra) > 0 {
		t.Errorf("the players got mails beyond welcomes and results: %v", extra)
	}
	w.checkGame("crecy-again", sent)
}

// nextOrders is the orders of the player whose turn it is, not yet sent.
func (w *world) nextOrders(seen map[string]bool) (string, *mailbox.Outgoing) {
	w.t.Helper()
	for name, ap := range w.players {
		for _, m := range w.messages(name, "INBOX") {
			key := name + "/" + messageIDOf(m.Raw)
			if seen[key] {
				continue
			}
			seen[key] = true
			reply, err := ap.Reply(m.Raw)
			if err != nil {
				w.t.Fatal(err)
			}
			if reply != nil {
				return name, reply
			}
		}
	}
	w.t.Fatal("no player has orders to send")
	return "", nil
}

// post composes a mail and puts it into Herald's INBOX, without waiting.
func (w *world) post(o mailbox.Outgoing) {
	w.t.Helper()
	raw, err := mailbox.Compose(o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.deliver([][]byte{raw}, false)
}

// unexpected lists the Message-IDs of the mails the players received that
// are neither a welcome nor a result (or the last, gameover): notices
// and refusals.
func (w *world) unexpected(players ...string) []string {
	w.t.Helper()
	var out []string
	for _, p := range players {
		for _, m := range w.messages(p, "INBOX") {
			id := messageIDOf(m.Raw)
			if !strings.Contains(id, ".welcome.") && !strings.Contains(id, ".result.") && !strings.Contains(id, ".gameover.") {
				out = append(out, p+": "+id)
			}
		}
	}
	return out
}
