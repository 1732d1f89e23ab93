package games

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/dice"
	"herald/pbem/mailbox"
	"herald/templates"
)

// resend mails Herald the very block a player sent before, under a new
// Message-ID: what an operator who wants another roll would inject (issue
// 15, finding 1), or a player who sends his mail twice.
func (tb *table) resend(player string, move int, id string, lines ...string) (alice, bob []*pbem.Mail) {
	tb.t.Helper()
	before := map[string]int{"alice": len(tb.inbox("alice")), "bob": len(tb.inbox("bob"))}
	blk := templates.OrderBlock{GameID: tb.game, Move: move, Key: tb.keys[player], Prefill: lines}
	raw, err := mailbox.Compose(mailbox.Outgoing{
		From: player + "@localhost", To: []string{"herald+" + tb.game + "@localhost"},
		Subject: fmt.Sprintf("Re: [%s] move %d", tb.game, move), Date: time.Now().UTC(),
		MessageID: id, Text: blk.Text() + "\n" + player + "\n",
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.w.deliver([][]byte{raw}, false)
	tb.w.settle()
	return tb.inbox("alice")[before["alice"]:], tb.inbox("bob")[before["bob"]:]
}

// records are the dice records of a player's mails, checked one by one
// and each following the one before.
func (tb *table) records(player string) []dice.Record {
	tb.t.Helper()
	var out []dice.Record
	for _, m := range tb.inbox(player) {
		found, _, err := dice.FindRecords(m.Text)
		if err != nil {
			tb.t.Fatalf("%s's mail %q: %v", player, m.Subject, err)
		}
		for _, r := range found {
			if err := dice.VerifyRecord(r, nil); err != nil {
				tb.t.Errorf("%s's mail %q, batch %d: %v", player, m.Subject, r.Batch, err)
			}
			if n := len(out); n > 0 && out[n-1].String() == r.String() {
				continue // the same record again (STATUS)
			}
			if n := len(out); n > 0 {
				if err := dice.Follows(out[n-1], r); err != nil {
					tb.t.Errorf("%s's mail %q, batch %d: %v", player, m.Subject, r.Batch, err)
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// Issue 15, finding 1, through the real daemon: copies of a standing
// orders mail under new Message-IDs are refused as copies, change
// nothing, and the opponent's rolls are those the first mail alone
// gives; every mail's dice record checks and follows the one before.
func TestRerollByCopiesOfStandingOrders(t *testing.T) {
	tb := newTable(t, "crecy", "English", "French")
	tb.send("alice", "STANDING SEIZE NEVER")
	for i := range 3 {
		alice, bob := tb.resend("alice", 1, fmt.Sprintf("copy.%d@localhost", i), "STANDING SEIZE NEVER")
		if len(bob) != 0 {
			t.Fatalf("copy %d: the French were told something: %q", i, bob[0].Subject)
		}
		note := tb.one("alice", alice)
		if !strings.Contains(note.Subject, "already set") || !strings.Contains(flat(note.Text), "Nothing has changed") {
			t.Errorf("copy %d: the English answer:\n%s\n%s", i, note.Subject, note.Text)
		}
	}
	tb.send("bob", "NONCE kestrel-1346", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "FACE CB4 NW", "END")
	var export bytes.Buffer
	if err := tb.w.service().Export(tb.game, &export); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(export.String(), "\n")
	block, err := dice.ParseEntry([]byte(lines[2]))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(block.Orders, "STANDING SEIZE NEVER"); n != 1 {
		t.Errorf("batch 1 carries the standing orders %d times:\n%s", n, block.Orders)
	}
	if own := dice.SenderBlock(block.Orders); !strings.HasPrefix(own, "NONCE kestrel-1346\nACTIVATE Doria\n") {
		t.Errorf("the French part of batch 1 does not start with the nonce:\n%s", own)
	}
	for _, p := range []string{"alice", "bob"} {
		recs := tb.records(p)
		if len(recs) != 2 || recs[1].Batch != 1 {
			t.Fatalf("%s's records: %d, want the opening and batch 1", p, len(recs))
		}
		shown := strings.Join(recs[1].Orders, "\n")
		// The French block holds no secret: both see it, nonce and all.
		if !strings.HasPrefix(shown, "NONCE kestrel-1346\nACTIVATE Doria") || strings.Contains(shown, "STANDING") {
			t.Errorf("%s's record of batch 1 shows orders:\n%s", p, shown)
		}
	}
	tb.w.checkGame(tb.game, 1)
}

// A block holding standing orders is the sender's secret: his opponent's
// record gives its hash, against which he checks the rolls all the same,
// and not its text.
func TestRecordWithholdsASecretBlock(t *testing.T) {
	tb := newTable(t, "crecy", "English", "French")
	tb.send("bob", "STANDING RETURN FIRE NEVER", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "FACE CB4 NW", "END")
	french, english := tb.records("bob"), tb.records("alice")
	if len(french) != 2 || len(english) != 2 {
		t.Fatalf("records: French %d, English %d; want 2 each", len(french), len(english))
	}
	if !strings.Contains(strings.Join(french[1].Orders, "\n"), "STANDING RETURN FIRE NEVER") {
		t.Errorf("the sender's own record lacks his block: %q", french[1].Orders)
	}
	if english[1].Orders != nil || english[1].Block != french[1].Block || len(english[1].Rolls) != len(french[1].Rolls) {
		t.Errorf("the opponent's record: orders %q, block %s (sender's %s), %d rolls (sender's %d)",
			english[1].Orders, english[1].Block, french[1].Block, len(english[1].Rolls), len(french[1].Rolls))
	}
}

// NONCE needs a word; a bare one is refused like any line that does not
// read, naming it, and changes nothing.
func TestBareNonceRefused(t *testing.T) {
	tb := newTable(t, "crecy", "English", "French")
	_, bob := tb.send("bob", "NONCE", "ACTIVATE Doria", "END")
	m := tb.one("bob", bob)
	if !strings.Contains(m.Text, "NONCE needs a word of your own after it") {
		t.Errorf("the refusal:\n%s", m.Text)
	}
	tb.w.checkGame(tb.game, 0)
}
