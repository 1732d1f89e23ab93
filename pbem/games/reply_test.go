package games

import (
	"html"
	"strings"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// inbox reads a player's mails as his client shows them, oldest first.
func (w *world) inbox(player string) []*pbem.Mail {
	w.t.Helper()
	var out []*pbem.Mail
	for _, m := range w.messages(player, "INBOX") {
		pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, pm)
	}
	return out
}

// replyQuoting is a reply to m as a mail client writes it when the player
// presses Reply: an attribution line and m's whole text quoted with "> ",
// with the player's own lines written inside the quote, after the quoted
// line that starts with after (or above the quote, when after is "").
func replyQuoting(from string, m *pbem.Mail, after string, own ...string) mailbox.Outgoing {
	var b strings.Builder
	if after == "" {
		b.WriteString(strings.Join(own, "\n") + "\n\n")
	}
	b.WriteString("On Tue, 3 Mar 2026 at 18:40, Herald <" + m.From + "> wrote:\n")
	inserted := after == ""
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
		if !inserted && strings.HasPrefix(l, after) {
			// Thunderbird and Apple Mail split the quote where the player
			// presses Enter, and leave a blank line on either side.
			b.WriteString("\n" + strings.Join(own, "\n") + "\n\n")
			inserted = true
		}
	}
	return mailbox.Outgoing{From: from, To: []string{m.From}, Subject: "Re: " + m.Subject,
		Date: time.Now().UTC(), MessageID: "reply-" + strings.ReplaceAll(from, "@", ".") + "-" + strings.Fields(after + " top")[0] + "@localhost",
		InReplyTo: m.MessageID, Text: b.String()}
}

func (w *world) send(o mailbox.Outgoing) {
	w.t.Helper()
	raw, err := mailbox.Compose(o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.deliver([][]byte{raw}, false)
	w.settle()
}

// Issue 16, item 1: a player who presses Reply and types his orders
// between the block's markers, which his client quoted, has his orders
// carried out (the quoted KEY line authenticates them). Through the real
// IMAP and SMTP path.
func TestReplyBetweenQuotedMarkers(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	w.newGame("crecy-reply", "alice", "bob")
	w.settle()
	welcome := w.inbox("bob")[0] // the French act first at Crécy
	var activate string
	for _, l := range legalOrders(welcome.Text) {
		if strings.HasPrefix(l, "ACTIVATE ") && !strings.HasPrefix(l, "ACTIVATE STANDARD") {
			activate = l
			break
		}
	}
	if activate == "" {
		t.Fatalf("the welcome offers no ACTIVATE:\n%s", welcome.Text)
	}
	w.send(replyQuoting("bob@localhost", welcome, "KEY ", activate))

	s, err := w.service().Summary("crecy-reply")
	if err != nil {
		t.Fatal(err)
	}
	if s.Chain.Batches != 1 {
		got := w.inbox("bob")
		t.Fatalf("the orders typed between the quoted markers were not carried out; Herald answered %q:\n%s",
			got[len(got)-1].Subject, got[len(got)-1].Text)
	}
	last := w.inbox("bob")
	if subj := last[len(last)-1].Subject; strings.Contains(subj, "refused") || strings.Contains(subj, "no orders") {
		t.Errorf("Herald answered %q", subj)
	}
}

// Issue 16, item 1: a reply whose quoted block holds nothing the player
// wrote, with his orders typed above the quote, is refused saying exactly
// that, and the refusal's block carries his orders over.
func TestReplyOrdersOutsideTheBlock(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	w.newGame("crecy-stray", "alice", "bob")
	w.settle()
	welcome := w.inbox("bob")[0]
	var activate string
	for _, l := range legalOrders(welcome.Text) {
		if strings.HasPrefix(l, "ACTIVATE ") {
			activate = l
			break
		}
	}
	w.send(replyQuoting("bob@localhost", welcome, "", activate, "", "Bob"))
	got := w.inbox("bob")
	if len(got) != 2 {
		t.Fatalf("want the welcome and one answer, got %d mails", len(got))
	}
	r := got[1]
	for _, want := range []string{"no orders found", "quoted by your mail program", "line 1 (" + activate + ") reads as an order", "outside the block"} {
		if !strings.Contains(strings.Join(strings.Fields(r.Subject+" "+r.Text), " "), want) {
			t.Errorf("the refusal does not say %q:\n%s\n%s", want, r.Subject, r.Text)
		}
	}
	blocks, _ := pbem.FindBlocks(r.Text)
	if len(blocks) != 1 || len(blocks[0].Lines) != 1 || blocks[0].Lines[0].Text != activate {
		t.Fatalf("the refusal's block does not carry the order over: %+v", blocks)
	}
	// Sending that block back, as the refusal says, carries the order out.
	w.send(mailbox.Outgoing{From: "bob@localhost", To: []string{r.From}, Subject: "Re: " + r.Subject, Date: time.Now().UTC(),
		MessageID: "resend-bob@localhost", InReplyTo: r.MessageID, Text: templatesBlockText(blocks[0]) + "\n" + quote(r.Text)})
	if s, err := w.service().Summary("crecy-stray"); err != nil || s.Chain.Batches != 1 {
		t.Fatalf("the carried-over order was not carried out (%v)", err)
	}
}

// templatesBlockText is a found block written out again as Herald writes
// blocks, as a player copying it would.
func templatesBlockText(b pbem.Block) string {
	var lines []string
	for _, l := range b.Lines {
		lines = append(lines, l.Text)
	}
	return templates.OrderBlock{GameID: b.GameID, Move: b.Move, Key: b.Key, Prefill: lines}.Text()
}

// Issue 16, item 2, through the daemon: a reply to a refusal, written above
// the refusal quoted without ">" under a header Herald does not know
// (Italian Outlook), holds two blocks for the current move, the new one
// and the refusal's, which Herald prefilled. Herald knows its own block
// again (mail/sent-blocks) and carries out the new one.
func TestQuotedPrefilledBlockIsHeralds(t *testing.T) {
	f := newFixture(t)
	if out := f.handle(f.orders(bob, "", "ACTIVATE Dorja", "END")); out.Status != "refused:illegal-order" {
		t.Fatalf("outcome %+v", out)
	}
	r := only(t, f.deliverAll(), bob)
	if b, _ := pbem.FindBlocks(r.mail.Text); len(b) != 1 || blockLines(b[0]) != "ACTIVATE Dorja; END" {
		t.Fatalf("the refusal's block is not prefilled with the refused lines: %+v", b)
	}
	mine := templates.OrderBlock{GameID: f.game, Move: f.move(), Key: f.keys[bob], Prefill: []string{"ACTIVATE Doria", "END"}}.Text()
	body := mine + "\nCordiali saluti\nBob\n\nDa: Herald <" + r.mail.From + ">\nInviato: martedì 3 marzo 2026 19:40\nA: " + bob + "\nOggetto: " + r.mail.Subject + "\n\n" + r.mail.Text
	out := f.handle(f.mailFrom(bob, "R: "+r.mail.Subject, body))
	if out.Status != "applied" {
		got := only(t, f.deliverAll(), bob)
		t.Fatalf("outcome %+v; Herald answered %q:\n%s", out, got.mail.Subject, got.mail.Text)
	}
	if s := f.summary(); s.Chain.Batches != 1 {
		t.Errorf("%d blocks applied", s.Chain.Batches)
	}
}

// Issue 16, item 1, for HTML mail programs that keep what the player types
// inside a quote in the quote (Apple Mail): the orders typed into Herald's
// quoted block come out quoted whole, and are still carried out, since the
// block is for the current move and is not the one Herald sent. Through
// the real IMAP and SMTP path.
func TestReplyTypedInsideAnHTMLQuote(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	w.start(nil)
	w.newGame("crecy-html", "alice", "bob")
	w.settle()
	welcome := w.inbox("bob")[0]
	var activate string
	for _, l := range legalOrders(welcome.Text) {
		if strings.HasPrefix(l, "ACTIVATE ") && !strings.HasPrefix(l, "ACTIVATE STANDARD") {
			activate = l
			break
		}
	}
	var quoted []string
	for _, l := range strings.Split(strings.TrimRight(welcome.Text, "\n"), "\n") {
		quoted = append(quoted, html.EscapeString(l))
		if strings.HasPrefix(l, "KEY ") {
			quoted = append(quoted, activate) // typed inside the quote
		}
	}
	body := `<html><body><div><br><blockquote type="cite"><div>On 3 Mar 2026, at 18:40, Herald &lt;` + welcome.From +
		`&gt; wrote:</div><br><div>` + strings.Join(quoted, "<br>\n") + `</div></blockquote></div></body></html>`
	w.send(mailbox.Outgoing{From: "bob@localhost", To: []string{welcome.From}, Subject: "Re: " + welcome.Subject, Date: time.Now().UTC(),
		MessageID: "applemail-bob@localhost", InReplyTo: welcome.MessageID, HTML: body})
	if s, err := w.service().Summary("crecy-html"); err != nil || s.Chain.Batches != 1 {
		got := w.inbox("bob")
		t.Fatalf("the orders typed inside the quote were not carried out (%v); Herald answered %q:\n%s", err, got[len(got)-1].Subject, got[len(got)-1].Text)
	}
}
