package mailbox

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// seen records what a handler saw, for tests.
type seen struct {
	mu   sync.Mutex
	msgs []Message
}

func (s *seen) add(m Message) {
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
}

func (s *seen) all() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.msgs)
}

func (s *seen) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

// waitMode returns a Hooks.Waiting that reports each wait on a channel.
func waitMode(ch chan WaitMode) func(WaitMode) {
	return func(m WaitMode) {
		select {
		case ch <- m:
		default:
		}
	}
}

func TestIntakeIdleProcessed(t *testing.T) {
	p := newServerPair(t)
	out := Outgoing{
		From:       "Player One <player@localhost>",
		To:         []string{"herald@localhost"},
		Subject:    "Orders for turn 3",
		Date:       time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		MessageID:  "t3-orders.p1@example.org",
		InReplyTo:  "t2-result.g42@pbem.example",
		References: []string{"t1-result.g42@pbem.example", "t2-result.g42@pbem.example"},
		Text:       "ORDERS\nactivate 1\n",
	}
	raw, err := Compose(out)
	if err != nil {
		t.Fatal(err)
	}

	waiting := make(chan WaitMode, 8)
	got := make(chan Message, 1)
	cfg := p.intakeConfig(t)
	cfg.Hooks.Waiting = waitMode(waiting)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		got <- m
		return Processed, nil
	})
	if mode := recv(t, waiting, "intake to wait"); mode != WaitIdle {
		t.Fatalf("wait mode = %q, want %q (server offers IDLE)", mode, WaitIdle)
	}
	// Poll interval is an hour: only IDLE can bring this mail in.
	p.deliver(t, raw)
	m := recv(t, got, "handler call")
	stripDeliveryHeaders(t, m.Raw, raw)
	if m.MessageID != out.MessageID {
		t.Errorf("MessageID = %q, want %q", m.MessageID, out.MessageID)
	}
	if m.Subject != out.Subject || !slices.Equal(m.From, []string{"player@localhost"}) {
		t.Errorf("Subject, From = %q, %q", m.Subject, m.From)
	}
	if m.UID == 0 || m.UIDValidity == 0 || m.Attempt != 1 || m.Mailbox != p.mailbox {
		t.Errorf("UID %d, UIDValidity %d, Attempt %d, Mailbox %q", m.UID, m.UIDValidity, m.Attempt, m.Mailbox)
	}

	waitFor(t, "message filed in "+p.processed, func() bool { return len(p.messages(t, p.processed)) == 1 })
	pm := p.messages(t, p.processed)[0]
	if !pm.HasFlag(`\Seen`) {
		t.Errorf("filed message flags = %v, want \\Seen", pm.Flags)
	}
	if string(pm.Raw) != string(m.Raw) {
		t.Errorf("filed message differs from the one handled")
	}
	if n := len(p.messages(t, p.mailbox)); n != 0 {
		t.Errorf("%d messages left in %s, want 0", n, p.mailbox)
	}
}

func TestIntakeRejected(t *testing.T) {
	p := newServerPair(t)
	cfg := p.intakeConfig(t)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		return Rejected, nil
	})
	p.deliver(t, testMail("bad-1@example.org", "garbage", "not an order"))
	waitFor(t, "message filed in "+p.rejected, func() bool { return len(p.messages(t, p.rejected)) == 1 })
	if m := p.messages(t, p.rejected)[0]; !m.HasFlag(`\Seen`) {
		t.Errorf("rejected message flags = %v, want \\Seen", m.Flags)
	}
	if n := len(p.messages(t, p.processed)); n != 0 {
		t.Errorf("%d messages in %s, want 0", n, p.processed)
	}
	if n := len(p.messages(t, p.mailbox)); n != 0 {
		t.Errorf("%d messages left in %s, want 0", n, p.mailbox)
	}
}

func TestIntakeHandlerErrorRetries(t *testing.T) {
	p := newServerPair(t)
	var calls atomic.Int32
	var attempts seen
	unseenDuringRetry := make(chan bool, 1)
	cfg := p.intakeConfig(t)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		attempts.add(m)
		switch calls.Add(1) {
		case 1:
			return 0, errors.New("store is busy")
		case 2:
			// The first failure must have left the message unseen in place.
			ms, err := readMailbox(ctx, p.addr, p.user, p.pass, p.mailbox)
			unseenDuringRetry <- err == nil && len(ms) == 1 && !ms[0].HasFlag(`\Seen`)
			return 0, errors.New("still busy")
		}
		return Processed, nil
	})
	p.deliver(t, testMail("retry-1@example.org", "orders", "ORDERS"))
	if !recv(t, unseenDuringRetry, "second attempt") {
		t.Error("after a handler error the message was not left unseen in the inbox")
	}
	waitFor(t, "message filed after retries", func() bool { return len(p.messages(t, p.processed)) == 1 })
	var got []int
	for _, m := range attempts.all() {
		got = append(got, m.Attempt)
	}
	if !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("attempts = %v, want [1 2 3]", got)
	}
}

func TestIntakeInvalidDispositionIsAnError(t *testing.T) {
	p := newServerPair(t)
	var calls atomic.Int32
	runIntake(t, p.intakeConfig(t), func(ctx context.Context, m Message) (Disposition, error) {
		if calls.Add(1) == 1 {
			return 0, nil // a bug in the handler: no decision
		}
		return Processed, nil
	})
	p.deliver(t, testMail("zero-1@example.org", "orders", "ORDERS"))
	waitFor(t, "message filed on the retry", func() bool { return len(p.messages(t, p.processed)) == 1 })
	if n := calls.Load(); n != 2 {
		t.Errorf("handler calls = %d, want 2", n)
	}
}

func TestIntakeIgnoredIsLeftAlone(t *testing.T) {
	p := newServerPair(t)
	var got seen
	runIntake(t, p.intakeConfig(t), func(ctx context.Context, m Message) (Disposition, error) {
		got.add(m)
		if strings.Contains(m.Subject, "personal") {
			return Ignored, nil
		}
		return Processed, nil
	})
	p.deliver(t, testMail("personal-1@example.org", "personal note", "hi"))
	waitFor(t, "first message handled", func() bool { return got.count() == 1 })
	p.deliver(t, testMail("orders-1@example.org", "orders", "ORDERS"))
	waitFor(t, "second message filed", func() bool { return len(p.messages(t, p.processed)) == 1 })
	// Another pass happens when the second mail arrives; the ignored one must
	// not be offered again.
	time.Sleep(50 * time.Millisecond)
	if n := got.count(); n != 2 {
		t.Errorf("handler calls = %d, want 2 (ignored mail offered again?)", n)
	}
	in := p.messages(t, p.mailbox)
	if len(in) != 1 || in[0].HasFlag(`\Seen`) {
		t.Fatalf("inbox = %d messages (flags %v), want the ignored one, unseen", len(in), in)
	}
}

func TestIntakePollWithoutIdle(t *testing.T) {
	p := newServerPair(t)
	waiting := make(chan WaitMode, 8)
	got := make(chan Message, 1)
	cfg := p.intakeConfig(t)
	cfg.UseIdle = IdleNever
	cfg.PollInterval = 50 * time.Millisecond
	cfg.Hooks.Waiting = waitMode(waiting)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		got <- m
		return Processed, nil
	})
	if mode := recv(t, waiting, "intake to wait"); mode != WaitPoll {
		t.Fatalf("wait mode = %q, want %q", mode, WaitPoll)
	}
	p.deliver(t, testMail("poll-1@example.org", "orders", "ORDERS"))
	if m := recv(t, got, "handler call"); m.MessageID != "poll-1@example.org" {
		t.Errorf("MessageID = %q", m.MessageID)
	}
	waitFor(t, "message filed", func() bool { return len(p.messages(t, p.processed)) == 1 })
}

func TestIntakeProcessesBacklogInUIDOrder(t *testing.T) {
	p := newServerPair(t)
	for i := range 5 {
		p.deliver(t, testMail(fmt.Sprintf("backlog-%d@example.org", i), "orders", "ORDERS"))
	}
	var got seen
	runIntake(t, p.intakeConfig(t), func(ctx context.Context, m Message) (Disposition, error) {
		got.add(m)
		return Processed, nil
	})
	waitFor(t, "backlog filed", func() bool { return len(p.messages(t, p.processed)) == 5 })
	var ids []string
	var prev uint32
	for _, m := range got.all() {
		ids = append(ids, m.MessageID)
		if m.UID <= prev {
			t.Errorf("UID %d after %d: not in UID order", m.UID, prev)
		}
		prev = m.UID
	}
	want := []string{"backlog-0@example.org", "backlog-1@example.org", "backlog-2@example.org", "backlog-3@example.org", "backlog-4@example.org"}
	if !slices.Equal(ids, want) {
		t.Errorf("order = %v, want %v", ids, want)
	}
}

// TestIntakeReconnects takes the server away, delivers mail while it is
// down, brings it back, and expects the intake to reconnect and catch up.
func TestIntakeReconnects(t *testing.T) {
	e := newEmbedded(t, nil)
	p := &serverPair{embedded: e, addr: e.IMAPAddr(), user: testUser, pass: testPass,
		mailbox: "INBOX", processed: "Processed", rejected: "Rejected"}
	var got seen
	waiting := make(chan WaitMode, 16)
	cfg := p.intakeConfig(t)
	cfg.Hooks.Waiting = waitMode(waiting)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		got.add(m)
		return Processed, nil
	})
	recv(t, waiting, "intake to wait")
	p.deliver(t, testMail("before@example.org", "orders", "ORDERS"))
	waitFor(t, "first message filed", func() bool { return len(p.messages(t, "Processed")) == 1 })

	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// Delivered while both servers are down.
	if err := e.Deliver("herald+g1@localhost", testMail("during@example.org", "orders", "ORDERS")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the intake fail a few reconnects
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if e.IMAPAddr() != p.addr {
		t.Fatalf("restarted on %s, want %s", e.IMAPAddr(), p.addr)
	}
	waitFor(t, "mail delivered during the outage filed", func() bool { return len(p.messages(t, "Processed")) == 2 })
	// And the new session still gets new mail.
	p.deliver(t, testMail("after@example.org", "orders", "ORDERS"))
	waitFor(t, "mail after the restart filed", func() bool { return len(p.messages(t, "Processed")) == 3 })
	var ids []string
	for _, m := range got.all() {
		ids = append(ids, m.MessageID)
	}
	if !slices.Equal(ids, []string{"before@example.org", "during@example.org", "after@example.org"}) {
		t.Errorf("handled %v", ids)
	}
}

// TestIntakeUIDValidityChange recreates the mailbox (new UIDVALIDITY, UIDs
// start again) with a message that was already processed. The intake
// reports the new UIDVALIDITY and the handler's Message-ID dedupe keeps
// the old message from applying twice.
func TestIntakeUIDValidityChange(t *testing.T) {
	e := newEmbedded(t, func(c *EmbeddedConfig) { c.Mailboxes = []string{"Orders", "Processed", "Rejected"} })
	p := &serverPair{embedded: e, addr: e.IMAPAddr(), user: testUser, pass: testPass,
		mailbox: "Orders", processed: "Processed", rejected: "Rejected"}
	admin := p.admin(t)
	appendTo := func(raw []byte) {
		t.Helper()
		app := admin.Append("Orders", int64(len(raw)), nil)
		app.Write(raw)
		app.Close()
		if _, err := app.Wait(); err != nil {
			t.Fatalf("append: %v", err)
		}
	}

	var mu sync.Mutex
	applied := map[string]int{} // the daemon's store, keyed by Message-ID
	validities := map[uint32]bool{}
	var calls atomic.Int32
	cfg := p.intakeConfig(t)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) {
		calls.Add(1)
		mu.Lock()
		defer mu.Unlock()
		validities[m.UIDValidity] = true
		if applied[m.MessageID] == 0 {
			applied[m.MessageID]++
		}
		return Processed, nil
	})
	a := testMail("a@example.org", "orders", "A")
	appendTo(a)
	waitFor(t, "A filed", func() bool { return len(p.messages(t, "Processed")) == 1 })

	if err := admin.Delete("Orders").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Create("Orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	appendTo(a) // the same mail again, e.g. restored from a backup
	appendTo(testMail("b@example.org", "orders", "B"))
	// Force a new session so the intake SELECTs the new mailbox.
	e.Close()
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A and B filed", func() bool { return len(p.messages(t, "Processed")) == 3 })
	mu.Lock()
	defer mu.Unlock()
	if len(validities) != 2 {
		t.Errorf("UIDVALIDITY values seen = %v, want 2 distinct", validities)
	}
	if applied["a@example.org"] != 1 || applied["b@example.org"] != 1 {
		t.Errorf("applied = %v, want each once", applied)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("handler calls = %d, want 3 (A, A again, B)", n)
	}
}

// TestIntakeCrashPoints simulates a crash at each hook and restarts the
// intake, as the daemon's crash tests do.
func TestIntakeCrashPoints(t *testing.T) {
	crash := errors.New("simulated crash")
	tests := []struct {
		name         string
		hooks        func(*Hooks)
		wantCommits  int  // handler commits before the crash
		wantReoffer  bool // the restarted intake offers the message again
		wantInInbox  bool // after the crash
		wantSeenThen bool // flag right after the crash
	}{
		{"AfterFetch", func(h *Hooks) { h.AfterFetch = func(Message) error { return crash } }, 0, true, true, false},
		{"AfterCommit", func(h *Hooks) { h.AfterCommit = func(Message, Disposition) error { return crash } }, 1, true, true, false},
		{"AfterSeen", func(h *Hooks) { h.AfterSeen = func(Message, Disposition) error { return crash } }, 1, false, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newServerPair(t)
			var mu sync.Mutex
			committed := map[string]bool{}
			var calls atomic.Int32
			handler := func(ctx context.Context, m Message) (Disposition, error) {
				calls.Add(1)
				mu.Lock()
				defer mu.Unlock()
				committed[m.MessageID] = true // idempotent: a second delivery changes nothing
				return Processed, nil
			}
			p.deliver(t, testMail("crash@example.org", "orders", "ORDERS"))

			cfg := p.intakeConfig(t)
			tc.hooks(cfg.Hooks)
			err := runIntake(t, cfg, handler).wait(t)
			if !errors.Is(err, crash) {
				t.Fatalf("Run = %v, want the hook's error", err)
			}
			if n := int(calls.Load()); n != tc.wantCommits {
				t.Errorf("handler calls before crash = %d, want %d", n, tc.wantCommits)
			}
			in := p.messages(t, p.mailbox)
			if (len(in) == 1) != tc.wantInInbox {
				t.Fatalf("inbox after crash = %d messages", len(in))
			}
			if len(in) == 1 && in[0].HasFlag(`\Seen`) != tc.wantSeenThen {
				t.Errorf("flags after crash = %v", in[0].Flags)
			}

			// Restart without hooks.
			calls.Store(0)
			waiting := make(chan WaitMode, 4)
			cfg2 := p.intakeConfig(t)
			cfg2.Hooks.Waiting = waitMode(waiting)
			runIntake(t, cfg2, handler)
			recv(t, waiting, "restarted intake to finish its first pass")
			if got := calls.Load() == 1; got != tc.wantReoffer {
				t.Errorf("offered again after restart = %v, want %v", got, tc.wantReoffer)
			}
			if tc.wantReoffer {
				waitFor(t, "message filed after restart", func() bool { return len(p.messages(t, p.processed)) == 1 })
			}
			mu.Lock()
			defer mu.Unlock()
			if tc.wantCommits+int(calls.Load()) > 0 && !committed["crash@example.org"] {
				t.Error("message never committed")
			}
		})
	}
}

func TestIntakeConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  IntakeConfig
		want string
	}{
		{"plain to remote", IntakeConfig{Addr: "imap.example.org:143", Security: SecurityPlain, Username: "u"}, "plaintext"},
		{"bad security", IntakeConfig{Addr: "127.0.0.1:143", Security: "ssl", Username: "u"}, "unknown security"},
		{"no port", IntakeConfig{Addr: "127.0.0.1", Username: "u"}, "address"},
		{"no user", IntakeConfig{Addr: "127.0.0.1:143"}, "no username"},
		{"processed is inbox", IntakeConfig{Addr: "127.0.0.1:143", Username: "u", ProcessedMailbox: "inbox"}, "must differ"},
		{"bad idle mode", IntakeConfig{Addr: "127.0.0.1:143", Username: "u", UseIdle: "sometimes"}, "UseIdle"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewIntake(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mailbox: ") {
				t.Errorf("NewIntake(%+v) = %v, want error containing %q", tc.cfg, err, tc.want)
			}
		})
	}
	for _, cfg := range []IntakeConfig{
		{Addr: "imap.example.org:143", Security: SecurityPlain, AllowPlaintext: true, Username: "u"},
		{Addr: "imap.example.org:993", Username: "u"},
		{Addr: "[::1]:143", Username: "u"},
		{Addr: "localhost:143", Security: SecurityPlain, Username: "u"},
	} {
		if _, err := NewIntake(cfg); err != nil {
			t.Errorf("NewIntake(%+v) = %v, want nil", cfg, err)
		}
	}
}

func TestIntakeRunTwice(t *testing.T) {
	p := newServerPair(t)
	in, err := NewIntake(p.intakeConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h := func(context.Context, Message) (Disposition, error) { return Processed, nil }
	go func() { done <- in.Run(ctx, h) }()
	waitFor(t, "Run to start", func() bool { return in.running.Load() })
	if err := in.Run(ctx, h); err == nil {
		t.Error("second concurrent Run succeeded")
	}
	cancel()
	if err := recv(t, done, "Run to stop"); !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel = %v, want context.Canceled", err)
	}
}

func TestExponentialBackoff(t *testing.T) {
	b := ExponentialBackoff(100*time.Millisecond, time.Second)
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 50: time.Second} {
		for range 20 {
			if d := b(attempt); d < want/2 || d > want {
				t.Errorf("attempt %d: %v, want in [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

// TestIntakeMoveFallbacks files mail on servers without MOVE. A message
// another client flagged \Deleted must survive: Intake never sends a plain
// EXPUNGE.
func TestIntakeMoveFallbacks(t *testing.T) {
	tests := []struct {
		name      string
		caps      imap.CapSet
		wantInbox int // messages left in INBOX: the other client's, plus ours without UIDPLUS
	}{
		{"UIDPLUS without MOVE", imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapUIDPlus: {}}, 1},
		{"neither MOVE nor UIDPLUS", imap.CapSet{imap.CapIMAP4rev1: {}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEmbedded(EmbeddedConfig{Users: []User{{testUser, testPass}}, Logger: testLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			e.imapCaps = tc.caps
			if err := e.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			p := &serverPair{embedded: e, addr: e.IMAPAddr(), user: testUser, pass: testPass,
				mailbox: "INBOX", processed: "Processed", rejected: "Rejected"}
			// Another client's message, flagged for deletion but not expunged.
			admin := p.admin(t)
			raw := testMail("other@example.org", "other", "x")
			app := admin.Append("INBOX", int64(len(raw)), &imap.AppendOptions{Flags: []imap.Flag{imap.FlagSeen, imap.FlagDeleted}})
			app.Write(raw)
			app.Close()
			if _, err := app.Wait(); err != nil {
				t.Fatal(err)
			}

			runIntake(t, p.intakeConfig(t), func(ctx context.Context, m Message) (Disposition, error) {
				return Processed, nil
			})
			if err := e.Deliver("herald", testMail("ours@example.org", "orders", "ORDERS")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "message copied to Processed", func() bool { return len(p.messages(t, "Processed")) == 1 })
			// Without MOVE the copy comes first and the \Deleted flag after
			// it: the inbox has settled when every message left there has it.
			waitFor(t, "the messages left in the inbox, each \\Seen and \\Deleted", func() bool {
				ms := p.messages(t, "INBOX")
				for _, m := range ms {
					if !m.HasFlag(`\Seen`) || !m.HasFlag(`\Deleted`) {
						return false
					}
				}
				return len(ms) == tc.wantInbox
			})
			if m := p.messages(t, "Processed")[0]; !m.HasFlag(`\Seen`) || m.HasFlag(`\Deleted`) {
				t.Errorf("filed message flags %v, want \\Seen only", m.Flags)
			}
		})
	}
}

// TestIntakeRecreatesDeletedDestination deletes the processed mailbox
// behind the intake's back; the move creates it again.
func TestIntakeRecreatesDeletedDestination(t *testing.T) {
	p := newServerPair(t)
	waiting := make(chan WaitMode, 4)
	cfg := p.intakeConfig(t)
	cfg.Hooks.Waiting = waitMode(waiting)
	runIntake(t, cfg, func(ctx context.Context, m Message) (Disposition, error) { return Processed, nil })
	recv(t, waiting, "intake to wait")
	if err := p.admin(t).Delete(p.processed).Wait(); err != nil {
		t.Fatal(err)
	}
	p.deliver(t, testMail("recreate@example.org", "orders", "ORDERS"))
	waitFor(t, "message filed in the recreated mailbox", func() bool {
		ms, err := readMailbox(context.Background(), p.addr, p.user, p.pass, p.processed)
		return err == nil && len(ms) == 1
	})
}

// TestIntakeKeepsUpWithBackToBackMail sends each mail as soon as the handler
// has seen the previous one, so deliveries land while the intake files the
// previous message and enters IDLE. None may wait for the IDLE restart.
func TestIntakeKeepsUpWithBackToBackMail(t *testing.T) {
	e := newEmbedded(t, nil)
	p := &serverPair{embedded: e, addr: e.IMAPAddr(), user: testUser, pass: testPass,
		mailbox: "INBOX", processed: "Processed", rejected: "Rejected"}
	got := make(chan string, 1)
	runIntake(t, p.intakeConfig(t), func(ctx context.Context, m Message) (Disposition, error) {
		got <- m.MessageID
		return Processed, nil
	})
	s := newTestSender(t, e)
	for i := range 200 {
		id := fmt.Sprintf("burst-%d@example.org", i)
		if err := s.SendRaw(context.Background(), "player@localhost", []string{"herald@localhost"}, testMail(id, "orders", "ORDERS")); err != nil {
			t.Fatal(err)
		}
		select {
		case g := <-got:
			if g != id {
				t.Fatalf("handler saw %q, want %q", g, id)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("mail %d not picked up within 5 s (lost IDLE wake-up?)", i)
		}
	}
}

// A backlog is fetched, handled and filed in batches of IntakeConfig.Batch,
// in UID order: the handler's verdict applies to each message alone (a
// failure is retried, a rejection goes to Rejected), and a message over
// MaxMessageBytes in a batch is fetched as its header only.
func TestIntakeBatches(t *testing.T) {
	p := newServerPair(t)
	big := testMail("batch-big@example.org", "orders", strings.Repeat(strings.Repeat("x", 70)+"\r\n", 60))
	for i := range 7 {
		raw := testMail(fmt.Sprintf("batch-%d@example.org", i), "orders", "ORDERS")
		if i == 5 {
			raw = big
		}
		p.deliver(t, raw)
	}
	cfg := p.intakeConfig(t)
	cfg.Batch, cfg.MaxMessageBytes = 3, 2048
	var mu sync.Mutex
	var sizes []int
	var firsts []string
	failed := false
	in, err := NewIntake(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- in.RunBatch(ctx, func(_ context.Context, ms []Message) []Verdict {
			mu.Lock()
			defer mu.Unlock()
			sizes = append(sizes, len(ms))
			vs := make([]Verdict, len(ms))
			for i, m := range ms {
				if m.Attempt == 1 {
					firsts = append(firsts, m.MessageID)
				}
				switch {
				case m.MessageID == "batch-2@example.org" && !failed:
					failed = true
					vs[i].Err = errors.New("not now")
				case m.MessageID == "batch-4@example.org":
					vs[i].Disposition = Rejected
				case m.MessageID == "batch-big@example.org" && (!m.HeaderOnly || strings.Contains(string(m.Raw), "xxxx")):
					vs[i].Err = errors.New("the large message was fetched whole")
				default:
					vs[i].Disposition = Processed
				}
			}
			return vs
		})
	}()
	defer func() { cancel(); <-done }()
	waitFor(t, "backlog filed", func() bool {
		return len(p.messages(t, p.processed)) == 6 && len(p.messages(t, p.rejected)) == 1
	})
	mu.Lock()
	defer mu.Unlock()
	want := []string{"batch-0@example.org", "batch-1@example.org", "batch-2@example.org", "batch-3@example.org",
		"batch-4@example.org", "batch-big@example.org", "batch-6@example.org"}
	if !slices.Equal(firsts, want) {
		t.Errorf("first offered %v, want %v", firsts, want)
	}
	if len(sizes) < 3 || !slices.Equal(sizes[:3], []int{3, 3, 1}) {
		t.Errorf("batches of %v, want 3, 3, 1, then the retry", sizes)
	}
	if left := p.messages(t, p.mailbox); len(left) != 0 {
		t.Errorf("%d messages left in the inbox", len(left))
	}
}
