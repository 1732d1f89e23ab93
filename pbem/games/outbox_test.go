package games

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// An SMTP outage charges no mail: the drain stops at the first connection
// refused, every mail stays due as it was, and the first drain after the
// server's return sends them all, over one connection, without waiting
// for any backoff (the clock does not move).
func TestOutboxOutageChargesNoMail(t *testing.T) {
	const games = 10
	w := newWorld(t, "alice", "bob")
	c := &clock{now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	w.manual = true
	w.configure = func(cfg *Config) { cfg.Now, cfg.RetryBackoff = c.Now, nil }
	var hellos atomic.Int32
	w.smtp = func(stage mailbox.SMTPStage, _ string) error {
		if stage == mailbox.SMTPHello {
			hellos.Add(1)
		}
		return nil
	}
	w.start(nil)
	for i := range games {
		w.newGame(fmt.Sprintf("crecy-q%02d", i), "alice", "bob")
	}
	if err := w.emb.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := w.service().DrainOutbox(context.Background(), w.sender.SendRaw)
	var down *UnavailableError
	if n != 0 || !errors.As(err, &down) || !mailbox.IsTemporary(err) {
		t.Fatalf("drain with the server down: %d sent, %v; want none and a temporary *UnavailableError", n, err)
	}
	err = w.st.View(func(tx *store.Tx) error {
		return tx.Outbox(func(e store.OutboxEntry) error {
			if e.Attempts != 0 || e.NextAttempt.After(c.Now()) || e.LastError != "" {
				t.Errorf("entry %d was charged for the outage: %d attempts, next %v, %q", e.ID, e.Attempts, e.NextAttempt, e.LastError)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.emb.Start(); err != nil {
		t.Fatal(err)
	}
	if n := w.drain(); n != 2*games {
		t.Errorf("the drain after the outage sent %d mails, want %d", n, 2*games)
	}
	if n := hellos.Load(); n != 1 {
		t.Errorf("%d mails took %d SMTP connections, want 1", 2*games, n)
	}
	if n := w.pending(); n != 0 {
		t.Errorf("%d mails still wait", n)
	}
	if got := len(w.messages("alice", "INBOX")); got != games {
		t.Errorf("alice received %d welcomes, want %d", got, games)
	}
}

// After an outage the running daemon sends within moments of the
// server's return, not after a retry's backoff: here retries and the
// outbox loop's interval are an hour, so only its probe of the server
// can send the welcomes, and it must have been refused first.
func TestOutboxSendsWhenTheServerReturns(t *testing.T) {
	w := newWorld(t, "alice", "bob")
	var down atomic.Bool
	var refused atomic.Int32
	down.Store(true)
	w.smtp = func(stage mailbox.SMTPStage, _ string) error {
		if stage == mailbox.SMTPHello && down.Load() {
			refused.Add(1)
			return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "not now"}
		}
		return nil
	}
	w.interval = time.Hour
	w.configure = func(cfg *Config) {
		cfg.RetryBackoff = mailbox.ConstantBackoff(time.Hour)
		cfg.ProbeBackoff = mailbox.ConstantBackoff(20 * time.Millisecond)
	}
	w.start(nil)
	w.newGame("crecy-back", "alice", "bob")
	deadline := time.Now().Add(20 * time.Second)
	for refused.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the server refused %d connections in 20 s, want the outbox to probe it again and again", refused.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := w.pending(); n != 2 {
		t.Fatalf("%d mails wait during the outage, want the 2 welcomes", n)
	}
	down.Store(false)
	w.settle()
	if n := w.pending(); n != 0 {
		t.Fatalf("%d mails still wait after the server returned", n)
	}
	for _, p := range []string{"alice", "bob"} {
		if got := len(w.messages(p, "INBOX")); got != 1 {
			t.Errorf("%s received %d mails, want his welcome", p, got)
		}
	}
}

// Sending two mails at once, a round stops when one finds the server
// unavailable: the mail being sent beside it finishes and is recorded as
// sent, no other mail is begun, and none is charged; the next drain sends
// the rest, each mail once.
func TestOutboxSideBySideStopsAtAnOutage(t *testing.T) {
	const games = 6
	w := newWorld(t, "alice", "bob")
	w.manual = true
	var mu sync.Mutex
	down, mails := true, 0
	w.smtp = func(stage mailbox.SMTPStage, _ string) error {
		if stage != mailbox.SMTPMail {
			return nil
		}
		mu.Lock()
		mails++
		first, refuse := mails == 1, down && mails > 1
		mu.Unlock()
		if first {
			time.Sleep(50 * time.Millisecond) // the other mail is refused meanwhile
		}
		if refuse {
			return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "closing"}
		}
		return nil
	}
	w.start(nil)
	for i := range games {
		w.newGame(fmt.Sprintf("crecy-s%02d", i), "alice", "bob")
	}
	n, err := w.service().drain(context.Background(), w.sender.SendRaw, 2)
	var unavailable *UnavailableError
	if !errors.As(err, &unavailable) || n != 1 {
		t.Fatalf("drain: %d sent, %v; want the mail beside the refused one sent and an *UnavailableError", n, err)
	}
	if p := w.pending(); p != 2*games-1 {
		t.Errorf("%d mails wait, want %d", p, 2*games-1)
	}
	mu.Lock()
	if mails != 2 {
		t.Errorf("the round began %d mails, want the two side by side and no other after the refusal", mails)
	}
	mu.Unlock()
	err = w.st.View(func(tx *store.Tx) error {
		return tx.Outbox(func(e store.OutboxEntry) error {
			if e.Attempts != 0 || e.LastError != "" {
				t.Errorf("entry %d was charged for the outage: %d attempts, %q", e.ID, e.Attempts, e.LastError)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	if n := w.drain(); n != 2*games-1 {
		t.Errorf("the drain after the outage sent %d mails, want %d", n, 2*games-1)
	}
	for _, p := range []string{"alice", "bob"} {
		if got := len(w.messages(p, "INBOX")); got != games {
			t.Errorf("%s received %d welcomes, want %d, each once", p, got, games)
		}
	}
}
