package games

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// The first game by mail of issue 16, items 4 to 6, played through
// Herald's daemon on the embedded IMAP and SMTP servers: each player reads
// his inbox and writes the orders a person would.

// table is a game between alice and bob on the daemon.
type table struct {
	t    *testing.T
	w    *world
	game string
	keys map[string]string
	n    int
}

func newTable(t *testing.T, scenario, first, second string) *table {
	t.Helper()
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	tb := &table{t: t, w: w, game: scenario + "-flow", keys: map[string]string{}}
	_, err := w.service().CreateGame(NewGame{ID: tb.game, Scenario: scenario, Players: []PlayerSpec{
		{Side: first, Address: "alice@localhost"}, {Side: second, Address: "bob@localhost"}}})
	if err != nil {
		t.Fatal(err)
	}
	w.service().Kick()
	w.settle()
	for _, p := range []string{"alice", "bob"} {
		m := tb.inbox(p)
		if len(m) != 1 {
			t.Fatalf("%s has %d mails, want the welcome", p, len(m))
		}
		blocks, _ := pbem.FindBlocks(m[0].Text)
		if len(blocks) != 1 || blocks[0].Key == "" {
			t.Fatalf("%s's welcome holds no block with a key:\n%s", p, m[0].Text)
		}
		tb.keys[p] = blocks[0].Key
	}
	return tb
}

// inbox is a player's mail, oldest first.
func (tb *table) inbox(player string) []*pbem.Mail {
	tb.t.Helper()
	msgs, err := tb.w.emb.Messages(player, "INBOX")
	if err != nil {
		tb.t.Fatal(err)
	}
	var out []*pbem.Mail
	for _, m := range msgs {
		pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			tb.t.Fatal(err)
		}
		out = append(out, pm)
	}
	return out
}

// send mails Herald a block of orders from player for the current move,
// as a reply to his latest mail, and waits until Herald has answered. It
// returns the mails each player received meanwhile.
func (tb *table) send(player string, lines ...string) (alice, bob []*pbem.Mail) {
	tb.t.Helper()
	before := map[string]int{"alice": len(tb.inbox("alice")), "bob": len(tb.inbox("bob"))}
	s, err := tb.w.service().Summary(tb.game)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.n++
	blk := templates.OrderBlock{GameID: tb.game, Move: s.Move, Key: tb.keys[player], Prefill: lines}
	raw, err := mailbox.Compose(mailbox.Outgoing{
		From: player + "@localhost", To: []string{"herald+" + tb.game + "@localhost"},
		Subject: fmt.Sprintf("Re: [%s] move %d", tb.game, s.Move), Date: time.Now().UTC(),
		MessageID: fmt.Sprintf("%s.%d@localhost", player, tb.n), Text: blk.Text() + "\n" + player + "\n",
	})
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.w.deliver([][]byte{raw}, false)
	tb.w.settle()
	return tb.inbox("alice")[before["alice"]:], tb.inbox("bob")[before["bob"]:]
}

// one is the single mail of a list.
func (tb *table) one(who string, mails []*pbem.Mail) *pbem.Mail {
	tb.t.Helper()
	if len(mails) != 1 {
		var subjects []string
		for _, m := range mails {
			subjects = append(subjects, m.Subject)
		}
		tb.t.Fatalf("%s received %d mails, want 1: %q", who, len(mails), subjects)
	}
	return mails[0]
}

// flat is text with every run of white space made one space, so that a
// test does not depend on where a line was wrapped.
func flat(text string) string { return strings.Join(strings.Fields(text), " ") }

// mailSection is the text of a mail from a heading to the next blank line
// after the list below it ends.
func mailSection(text, heading string) string {
	i := strings.Index(text, heading)
	if i < 0 {
		return ""
	}
	rest := text[i:]
	if j := strings.Index(rest, "\n\n\n"); j >= 0 {
		rest = rest[:j]
	}
	for _, end := range []string{"\nWhat next", "\nYour move", "\nDice verification", "\nTo send them for real", "\n--- herald orders"} {
		if j := strings.Index(rest, end); j > 0 {
			rest = rest[:j]
		}
	}
	return flat(rest)
}

// Item 4: orders after CONTINUE are kept over the opponent's Seizure
// decision, hidden from him, judged at once line by line, and carried out
// in the mail that settles the decision when the Continuation succeeds.
func TestFlowOrdersAfterContinue(t *testing.T) {
	tb := newTable(t, "crecy", "English", "French") // alice English, bob French (first)
	alice, bob := tb.send("bob", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "MOVE CB4 1011", "MOVE CB44 1012", "END")
	french := tb.one("bob", bob)
	english := tb.one("alice", alice)

	kept := mailSection(french.Text, "Your orders after CONTINUE")
	if kept == "" {
		t.Fatalf("the French result does not report the orders kept after CONTINUE:\n%s", french.Text)
	}
	for _, want := range []string{": MOVE CB4 1011", "Depends on the roll: carried out when the dice show 0–2",
		": MOVE CB44 1012", "so it is wrong now", `no unit or leader called "CB44"`, ": END"} {
		if !strings.Contains(kept, want) {
			t.Errorf("the kept orders lack %q:\n%s", want, kept)
		}
	}
	if strings.Contains(french.Text, "Not carried out") {
		t.Errorf("the kept orders are reported as not carried out:\n%s", french.Text)
	}
	// The English decide without seeing them.
	for _, secret := range []string{"CB4", "CB44", "kept", "after CONTINUE"} {
		if strings.Contains(english.Text, secret) {
			t.Errorf("the English Seizure question mentions %q:\n%s", secret, english.Text)
		}
	}
	if !strings.Contains(english.Text, "DECLINE") {
		t.Fatalf("the English are not asked about Seizure:\n%s", english.Text)
	}

	alice, bob = tb.send("alice", "DECLINE")
	english, french = tb.one("alice", alice), tb.one("bob", bob)
	succeeded := strings.Contains(english.Text, "Continuation succeeds")
	if !succeeded && !strings.Contains(english.Text, "Continuation fails") {
		t.Fatalf("no Continuity DR after DECLINE:\n%s", english.Text)
	}
	back := mailSection(french.Text, "Your orders after CONTINUE")
	if succeeded {
		// Carried out in the English mail's batch: CB4 moved, the typo
		// stopped the rest, and nobody needed another round trip.
		if !strings.Contains(english.Text, "CB4") || !strings.Contains(english.Text, "1011") {
			t.Errorf("CB4's move is not in the English mail:\n%s", english.Text)
		}
		for _, want := range []string{"succeeded", ": MOVE CB4 1011", "carried out", ": MOVE CB44 1012", `Refused: the French have no unit or leader called "CB44"`} {
			if !strings.Contains(back, want) {
				t.Errorf("the French mail's kept orders lack %q:\n%s", want, back)
			}
		}
	} else {
		for _, want := range []string{"were not carried out", ": MOVE CB4 1011", "Continuity DR for Grimaldi failed"} {
			if !strings.Contains(back, want) {
				t.Errorf("the French mail's kept orders lack %q:\n%s", want, back)
			}
		}
	}
	tb.w.checkGame(tb.game, 2)
}

// Item 5: standing orders are private until they act. A block of them
// alone that settles nothing mails its owner alone, changes nothing the
// opponent sees, and is carried out with the next block; when the order
// acts, both learn of it then.
func TestFlowStandingOrdersArePrivate(t *testing.T) {
	tb := newTable(t, "crecy", "English", "French")
	alice, bob := tb.send("alice", "STANDING SEIZE NEVER")
	if len(bob) != 0 {
		t.Fatalf("the French were told of the English standing orders: %q\n%s", bob[0].Subject, bob[0].Text)
	}
	note := tb.one("alice", alice)
	if !strings.Contains(note.Subject, "Standing orders set") || !strings.Contains(note.Text, "STANDING SEIZE NEVER") ||
		!strings.Contains(flat(note.Text), "the French are not told of them until they act") {
		t.Errorf("the English confirmation:\n%s\n%s", note.Subject, note.Text)
	}
	s, err := tb.w.service().Summary(tb.game)
	if err != nil {
		t.Fatal(err)
	}
	if s.Move != 1 || s.Chain.Batches != 0 {
		t.Errorf("after standing orders alone: move %d, %d dice batches; want move 1 and none", s.Move, s.Chain.Batches)
	}

	alice, bob = tb.send("bob", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "FACE CB4 NW", "END")
	french, english := tb.one("bob", bob), tb.one("alice", alice)
	for who, m := range map[string]*pbem.Mail{"French": french, "English": english} {
		if strings.Contains(flat(m.Text), "set a standing order") {
			t.Errorf("the %s mail narrates the setting of a standing order:\n%s", who, m.Text)
		}
		if !strings.Contains(flat(m.Text), `do not try to Seize (standing order "STANDING SEIZE NEVER")`) {
			t.Errorf("the %s mail does not show the standing order acting:\n%s", who, m.Text)
		}
	}
	tb.w.checkGame(tb.game, 1)
}

// Item 6: CHECK judges every order, also after the first die roll, with
// every result the die can show, and says which hold whatever the roll;
// no die of the game is rolled and the opponent hears nothing.
func TestFlowCheckBeyondTheRoll(t *testing.T) {
	tb := newTable(t, "melee-test", "Scots", "English") // alice Scots (first), bob English
	alice, bob := tb.send("alice", "CHECK", "ACTIVATE Douglas", "SHOCK SK1 AT EM1", "END", "CONTINUE Douglas", "MOVE SK2 0406", "MOVE SK9 0101")
	if len(bob) != 0 {
		t.Fatalf("the English were told of a CHECK: %q", bob[0].Subject)
	}
	check := tb.one("alice", alice)
	judged := mailSection(check.Text, "Judged without the roll")
	if judged == "" {
		t.Fatalf("the check judges nothing after the first roll:\n%s", check.Text)
	}
	for _, want := range []string{
		": END", "Legal whatever the die shows",
		": MOVE SK2 0406", "Depends on the roll: carried out when the dice show",
		": MOVE SK9 0101", "so it is wrong now", `no unit or leader called "SK9"`,
	} {
		if !strings.Contains(judged, want) {
			t.Errorf("the judgement lacks %q:\n%s", want, judged)
		}
	}
	if !strings.Contains(flat(check.Text), "The check stopped here: at the first die roll") {
		t.Errorf("the check does not say where the certain part ends:\n%s", check.Text)
	}
	s, err := tb.w.service().Summary(tb.game)
	if err != nil {
		t.Fatal(err)
	}
	if s.Move != 1 || s.Chain.Batches != 0 || s.Chain.Rolls != 0 {
		t.Errorf("after CHECK: move %d, %d batches, %d rolls; want 1, 0, 0", s.Move, s.Chain.Batches, s.Chain.Rolls)
	}
}

// A CHECK never reveals the opponent's standing orders: it takes his
// decisions as if he had none (ruling R141). With the English set never
// to Seize, the French check of a Continuation shows the Seizure decision
// still open, not the standing order's answer.
func TestCheckKeepsTheOpponentsStandingOrdersSecret(t *testing.T) {
	f := newFixture(t)
	f.handle(f.orders(alice, "", "STANDING SEIZE NEVER"))
	f.deliverAll()
	f.handle(f.orders(bob, "", "CHECK", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "FACE CB4 NW"))
	check := only(t, f.deliverAll(), bob)
	text := flat(check.mail.Text)
	for _, secret := range []string{"standing order", "do not try to Seize", "SEIZE NEVER"} {
		if strings.Contains(text, secret) {
			t.Errorf("the French check reveals %q:\n%s", secret, check.mail.Text)
		}
	}
	if !strings.Contains(text, "at the English's Seizure decision") || !strings.Contains(text, "FACE CB4 NW Depends on the roll") {
		t.Errorf("the check does not stop at the Seizure decision and judge FACE CB4 NW:\n%s", check.mail.Text)
	}
}
