package command

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// herald serve against dovecot, a server nobody here wrote, with the mail
// strangers send (issue 15, findings 4, 5 and 8): From headers that are
// not RFC 5322, a From with no address, fifteen forged mails in a
// player's name with a wrong key, and a 3 MiB mail. Every mail is filed,
// none is left to be retried; the player's own keyed orders, from a
// lenient From, are applied; the forgeries bring him at most three
// answers without a key in all, the large mail's notice among them,
// which Herald writes from the header, all it fetches of that mail. Runs when .ci/run has started dovecot (see
// TestServeAgainstDovecot).
func TestServeStrangersAgainstDovecot(t *testing.T) {
	if os.Getenv("HERALD_TEST_DOVECOT") != "1" {
		t.Skip("set HERALD_TEST_DOVECOT=1 and start dovecot with .ci/dovecot-start.sh")
	}
	imapAddr, user, pass := os.Getenv("HERALD_DOVECOT_ADDR"), os.Getenv("HERALD_DOVECOT_USER"), os.Getenv("HERALD_DOVECOT_PASS")
	emb := startEmbedded(t, []mailbox.User{{Name: "alice", Password: "a"}, {Name: "bob", Password: "b"}})
	// Mailboxes of this test's own on the shared account.
	box := "t" + strings.ToLower(rand.Text()[:10])
	in, processed, rejected := box+"-in", box+"-processed", box+"-rejected"
	admin := dovecotClient(t, imapAddr, user, pass)
	if err := admin.Create(in, nil).Wait(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, mb := range []string{in, processed, rejected} {
			_ = admin.Delete(mb).Wait()
		}
	})
	dir := t.TempDir()
	config := filepath.Join(dir, "herald.yaml")
	os.WriteFile(filepath.Join(dir, "imap-password"), []byte(pass+"\n"), 0o600)
	os.WriteFile(config, []byte(fmt.Sprintf(`address: %s@localhost
store: herald.db
imap:
  addr: %s
  security: plain
  username: %s
  password_file: imap-password
  mailbox: %s
  processed: %s
  rejected: %s
  poll: 200ms
smtp:
  addr: %s
  security: plain
log:
  level: warn
`, user, imapAddr, user, in, processed, rejected, emb.SMTPAddr())), 0o600)
	stop := serveWithGame(t, config, "crecy-dvstrange")
	defer func() {
		if err := stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	key := ""
	waitDovecot(t, "bob's welcome", func() bool {
		for _, m := range inbox(t, emb, "bob") {
			if blocks, _ := pbem.FindBlocks(m.Text); len(blocks) == 1 {
				key = blocks[0].Key
			}
		}
		return key != ""
	})
	to := user + "+crecy-dvstrange@localhost"
	block := func(key string, lines ...string) string {
		return templates.OrderBlock{GameID: "crecy-dvstrange", Move: 1, Key: key, Prefill: lines}.Text()
	}
	mail := func(from, id, body string) []byte {
		return []byte("From: " + from + "\r\nTo: " + to + "\r\nSubject: Re: [crecy-dvstrange] Move 1\r\nMessage-ID: <" + id +
			">\r\nDate: Tue, 03 Mar 2026 18:40:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			strings.ReplaceAll(body, "\n", "\r\n"))
	}
	film := strings.Repeat("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", 3<<20/73)
	raws := [][]byte{mail("Bob <bob@localhost>", "big@localhost", block(key, "ACTIVATE Doria")+film)}
	for i := range 15 {
		raws = append(raws, mail("Bob <bob@localhost>", fmt.Sprintf("forged-%d@evil.example", i), block("AAAA-BBBB-CCCC-DDDD", "RESIGN")))
	}
	raws = append(raws,
		mail("=?utf-8?q?Bob_@_home?= <bob@localhost>", "status@localhost", block(key, "STATUS")),
		mail("Bob (no address here)", "noaddr@localhost", block(key, "STATUS")),
		mail("Bob [work] <bob@localhost>", "orders@localhost", block(key, "ACTIVATE Doria", "END")))
	for _, raw := range raws {
		appendTo(t, admin, in, raw)
	}
	waitDovecot(t, "every mail filed", func() bool {
		return count(t, admin, processed)+count(t, admin, rejected) == len(raws) && count(t, admin, in) == 0
	})
	waitDovecot(t, "bob's answers", func() bool { return len(inbox(t, emb, "bob")) >= 4 })
	time.Sleep(500 * time.Millisecond) // any answer too many
	var refusals, status, large, result int
	for _, m := range inbox(t, emb, "bob") {
		switch {
		case strings.Contains(m.MessageID, ".refusal."):
			refusals++
		case strings.Contains(m.MessageID, ".status."):
			status++
		case strings.Contains(m.Text, "your mail is 3 MB"):
			large++
		case strings.Contains(m.MessageID, ".result."):
			result++
		}
	}
	// The too-large notice and the refusals answer mail without a key:
	// three in all to one address in an hour.
	if large != 1 || refusals+large > 3 || status != 1 || result != 1 {
		t.Errorf("bob got %d too-large notices, %d refusals of forged mails (want 1, and 3 answers in all), %d STATUS answers and %d results (want 1 each)",
			large, refusals, status, result)
	}
	if n := count(t, admin, rejected); n < 17 {
		t.Errorf("%d mails in %s, want the 15 forged ones, the large one and the one without an address", n, rejected)
	}
}

// inbox reads a user's mailbox on the embedded server.
func inbox(t *testing.T, emb *mailbox.Embedded, user string) []*pbem.Mail {
	t.Helper()
	msgs, err := emb.Messages(user, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	var out []*pbem.Mail
	for _, m := range msgs {
		pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pm)
	}
	return out
}

func dovecotClient(t *testing.T, addr, user, pass string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pass).Wait(); err != nil {
		t.Fatal(err)
	}
	return c
}

// appendTo delivers a mail to a mailbox as a mail server would.
func appendTo(t *testing.T, c *imapclient.Client, mbox string, raw []byte) {
	t.Helper()
	cmd := c.Append(mbox, int64(len(raw)), nil)
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// count is the number of messages in a mailbox (0 before it exists).
func count(t *testing.T, c *imapclient.Client, mbox string) int {
	t.Helper()
	st, err := c.Status(mbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || st.NumMessages == nil {
		return 0
	}
	return int(*st.NumMessages)
}

func waitDovecot(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
