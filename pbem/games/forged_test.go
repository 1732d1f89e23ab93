package games

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"herald/pbem"
	"herald/templates"
)

// dsn is a delivery status notification as an MTA writes it (RFC 3464):
// the notice it could not deliver, its recipient and the notice's header.
func dsn(rcpt string, returned []byte, id string) []byte {
	header, _, _ := strings.Cut(string(returned), "\r\n\r\n")
	return []byte("From: Mail Delivery System <MAILER-DAEMON@localhost>\r\nTo: herald@localhost\r\n" +
		"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <" + id + ">\r\nAuto-Submitted: auto-replied\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/plain\r\n\r\nI'm sorry to have to inform you that your message could not be delivered.\r\n\r\n" +
		"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.localhost\r\n\r\n" +
		"Final-Recipient: rfc822; " + rcpt + "\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n" +
		"--B\r\nContent-Type: text/rfc822-headers\r\n\r\n" + header + "\r\n\r\n--B--\r\n")
}

// Finding 5 (issue 15): forged mails in a player's name neither lock him
// out nor flood him, and a stranger's junk stops being answered once a
// notice about it bounces; a made-up bounce stops nothing.
func TestForgedFromLocksNobodyOut(t *testing.T) {
	w := newWorld(t, "alice", "bob", "victim")
	w.start(nil)
	w.newGame("crecy-forged", "alice", "bob")
	w.settle()
	blk := w.latestBlock("bob", "crecy-forged")
	to := "herald+crecy-forged@localhost"
	before := len(w.messages("bob", "INBOX"))

	// Fifteen mails in bob's name with a wrong key, from a stranger.
	for i := range 15 {
		forged := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: "AAAA-BBBB-CCCC-DDDD", Prefill: []string{"RESIGN"}}.Text()
		w.smtpSend(rawMail("Bob <bob@localhost>", to, "Re: [crecy-forged] Move 1", fmt.Sprintf("forged-%d@evil.example", i), forged))
	}
	w.settle()
	if n := len(w.messages("bob", "INBOX")) - before; n > 3 {
		t.Errorf("fifteen forged mails brought bob %d answers, want at most 3", n)
	}
	// Bob's own orders, with his key, still count.
	orders := templates.OrderBlock{GameID: blk.GameID, Move: blk.Move, Key: blk.Key, Prefill: []string{"ACTIVATE Doria", "END"}}.Text()
	w.smtpSend(rawMail("Bob <bob@localhost>", to, "Re: [crecy-forged] Move 1", "real-1@localhost", orders))
	w.settle()
	if s, err := w.service().Summary("crecy-forged"); err != nil || s.Chain.Batches != 1 {
		t.Fatalf("bob's keyed orders after the forgeries were not applied: %v", err)
	}

	// Junk in victim's name: one notice, which bounces; then no more.
	junk := func(n int) {
		w.smtpSend(rawMail("victim@localhost", to, "cheap pills", fmt.Sprintf("junk-%d@evil.example", n), "buy now\n"))
		w.settle()
	}
	junk(1)
	notices := w.messages("victim", "INBOX")
	if len(notices) != 1 {
		t.Fatalf("victim got %d notices for the first junk mail, want 1", len(notices))
	}
	w.smtpSend(dsn("victim@localhost", notices[0].Raw, "bounce-1@mx.localhost"))
	w.settle()
	junk(2)
	junk(3)
	if n := len(w.messages("victim", "INBOX")); n != 1 {
		t.Errorf("victim got %d notices after his first one bounced, want none more", n-1)
	}

	// A bounce made up for alice, with a Message-ID Herald never wrote,
	// does not silence Herald towards her.
	fake := []byte(strings.Replace(string(notices[0].Raw), "victim@localhost", "alice@localhost", -1))
	w.smtpSend(dsn("alice@localhost", fake, "bounce-2@mx.localhost"))
	w.settle()
	had := len(w.messages("alice", "INBOX"))
	w.smtpSend(rawMail("alice@localhost", to, "hello", "hello-1@localhost", "no block here\n"))
	w.settle()
	if n := len(w.messages("alice", "INBOX")); n != had+1 {
		t.Errorf("a made-up bounce silenced Herald towards alice (%d answers, want 1)", n-had)
	}
}

// Finding 9 (issue 15): game tags carry 50 random bits, and a stranger
// gets the same answer about a real game as about a missing one, whether
// his mail holds a block (with any key) or only the tag in its subject.
func TestStrangerCannotTellARealGame(t *testing.T) {
	w := newWorld(t, "alice", "bob", "mallory")
	w.answers = 10
	w.start(nil)
	g, err := w.service().CreateGame(NewGame{Scenario: "crecy", Players: []PlayerSpec{
		{Side: "English", Address: "alice@localhost"}, {Side: "French", Address: "bob@localhost"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^crecy-[a-z2-7]{10}$`).MatchString(g.ID) {
		t.Errorf("game tag %q: want crecy- and ten base32 characters (50 random bits)", g.ID)
	}
	real, missing := g.ID, "crecy-"+strings.Repeat("q", 10)
	answers := func(id string, n int) []string {
		t.Helper()
		block := templates.OrderBlock{GameID: id, Move: 1, Key: "AAAA-BBBB-CCCC-DDDD", Prefill: []string{"ACTIVATE Doria"}}.Text()
		w.smtpSend(rawMail("Mallory <mallory@localhost>", "herald+"+id+"@localhost", "Re: ["+id+"] Move 1", fmt.Sprintf("probe-%d@evil.example", n), block))
		w.smtpSend(rawMail("mallory@localhost", "herald@localhost", "Re: ["+id+"] Move 1", fmt.Sprintf("probe-%d@evil.example", n+1), "is this a game?\n"))
		w.settle()
		var out []string
		for _, m := range w.messages("mallory", "INBOX") {
			pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if pm.InReplyTo == fmt.Sprintf("probe-%d@evil.example", n) || pm.InReplyTo == fmt.Sprintf("probe-%d@evil.example", n+1) {
				out = append(out, strings.ReplaceAll(pm.From+"\n"+pm.Subject+"\n"+pm.Text, id, "GAME"))
			}
		}
		return out
	}
	a, b := answers(real, 1), answers(missing, 3)
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("%d answers about the real game, %d about the missing one; want 2 each", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("a stranger can tell the real game from a missing one:\n--- real\n%s\n--- missing\n%s", a[i], b[i])
		}
	}
}
