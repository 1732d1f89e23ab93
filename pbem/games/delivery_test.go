package games

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/templates"
)

// clock is a test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// newManualWorld is a daemon on real IMAP and SMTP whose outbox the test
// drains itself (drain) on its own clock, with the default backoffs.
func newManualWorld(t *testing.T, players ...string) (*world, *clock) {
	w := newWorld(t, players...)
	c := &clock{now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	w.manual = true
	w.configure = func(cfg *Config) {
		cfg.Now = c.Now
		cfg.RetryBackoff, cfg.PermanentBackoff = nil, nil
	}
	w.start(nil)
	return w, c
}

// drain hands the due replies to the SMTP server once.
func (w *world) drain() int {
	w.t.Helper()
	n, err := w.service().DrainOutbox(context.Background(), w.sender.SendRaw)
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

// waitRead waits until Herald has read every mail in its INBOX.
func (w *world) waitRead() {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for w.unseen() > 0 {
		if time.Now().After(deadline) {
			w.t.Fatal("Herald did not read its mail in 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// inboxIDs lists the Message-IDs a player received, in the order delivered.
func (w *world) inboxIDs(player string) []string {
	var ids []string
	for _, m := range w.messages(player, "INBOX") {
		ids = append(ids, messageIDOf(m.Raw))
	}
	return ids
}

// After an SMTP outage a player still reads a game's mails in the order
// Herald wrote them: a result that waits for its retry holds back a later
// mail to the same player, though the later one fell due first.
func TestRepliesKeepTheirOrderAfterAnOutage(t *testing.T) {
	w, c := newManualWorld(t, "alice", "bob")
	w.newGame("crecy-order", "alice", "bob")
	w.waitRead()
	w.drain() // the welcomes
	seen := map[string]bool{}
	player, orders := w.nextOrders(seen)

	// The SMTP server refuses for a while: the result to the player
	// fails three times and waits 40 s for its next attempt.
	w.refuseSMTP(1 << 30)
	w.post(*orders)
	w.waitRead()
	for i := range 3 {
		if i > 0 {
			c.advance(time.Minute)
		}
		w.drain()
	}
	// The player asks for his latest mail meanwhile (STATUS), and the
	// server accepts again before the result is due.
	key := welcomeKey(t, w.messages(player, "INBOX")[0].Raw)
	status := templates.OrderBlock{GameID: "crecy-order", Move: 1, Key: key, Prefill: []string{"STATUS"}}
	w.post(mailbox.Outgoing{From: player + "@localhost", To: []string{"herald+crecy-order@localhost"},
		Subject: "status?", MessageID: "status.1@localhost", Text: status.Text()})
	w.waitRead()
	w.refuseSMTP(0)
	w.drain()
	c.advance(time.Minute)
	w.drain()
	got := w.inboxIDs(player)
	result, asked := -1, -1
	for i, id := range got {
		switch {
		case strings.Contains(id, ".result.b1-"):
			result = i
		case strings.Contains(id, ".status."):
			asked = i
		}
	}
	if result < 0 || asked < 0 || asked < result {
		t.Errorf("%s received %v: want the result b1, then the answer to STATUS", player, got)
	}
	if n := w.pending(); n != 0 {
		t.Errorf("%d mails still wait", n)
	}
}

// welcomeKey is the player's key, from the block of his welcome.
func welcomeKey(t *testing.T, raw []byte) string {
	t.Helper()
	m, err := pbem.ReadMail(raw, pbem.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pbem.FindBlocks(m.Text)
	if len(b) != 1 || b[0].Key == "" {
		t.Fatalf("no key in the welcome:\n%s", m.Text)
	}
	return b[0].Key
}

// A mail the SMTP server refuses for good is not retried for ever: after
// Config.GiveUpAfter refusals it leaves the outbox, is kept as
// undeliverable with the reason, and the later mails to the same player
// go on.
func TestPermanentRefusalsAreGivenUp(t *testing.T) {
	w, c := newManualWorld(t, "alice", "bob")
	var refusing sync.Map
	refusing.Store("alice@localhost", true)
	w.smtp = func(stage mailbox.SMTPStage, rcpt string) error {
		if _, no := refusing.Load(rcpt); stage == mailbox.SMTPRcpt && no {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox"}
		}
		return nil
	}
	w.newGame("crecy-gone", "alice", "bob")
	w.waitRead()
	attempts := 0
	for w.pending() > 0 && attempts < 20 {
		w.drain()
		attempts++
		c.advance(7 * time.Hour)
	}
	if n := w.pending(); n != 0 {
		t.Fatalf("after %d attempts the refused welcome still waits (%d mails)", attempts, n)
	}
	if attempts != 6 {
		t.Errorf("given up after %d attempts, want 6 (the default)", attempts)
	}
	gone, err := w.service().Undeliverable()
	if err != nil {
		t.Fatal(err)
	}
	if len(gone) != 1 || !strings.Contains(gone[0].LastError, "550") || !strings.Contains(gone[0].LastError, "given up") || gone[0].Stream != "crecy-gone/alice@localhost" {
		t.Fatalf("undeliverable = %+v, want alice's welcome with the server's reason", gone)
	}
	// Alice's address works again: the next mails of the game reach her.
	refusing.Delete("alice@localhost")
	w.play(map[string]bool{}, false)
	w.waitRead()
	w.drain()
	if got := w.inboxIDs("alice"); len(got) == 0 || !strings.Contains(got[0], ".result.b1-") {
		t.Errorf("alice received %v, want the first result", got)
	}
}
