package mailbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// The tests run against real servers over loopback TCP: the embedded server,
// or dovecot when HERALD_TEST_DOVECOT=1 (see .ci/dovecot-start.sh):
//
//	HERALD_TEST_DOVECOT=1 HERALD_DOVECOT_ADDR=127.0.0.1:14300 \
//	HERALD_DOVECOT_USER=herald HERALD_DOVECOT_PASS=secret go test -race ./pbem/mailbox/
//
// Tests that need SMTP or a server restart use the embedded server in both
// modes.

const (
	testUser = "herald"
	testPass = "secret"
)

// testLogger logs to t.Log while the test runs and drops records that
// server goroutines write after it has ended.
func testLogger(t testing.TB) *slog.Logger {
	w := &testLogWriter{t: t}
	t.Cleanup(func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
	})
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testLogWriter struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (w *testLogWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// newEmbedded starts an embedded server with users "herald" and "player"
// and closes it at the end of the test.
func newEmbedded(t testing.TB, mod func(*EmbeddedConfig)) *Embedded {
	t.Helper()
	cfg := EmbeddedConfig{
		Users:  []User{{testUser, testPass}, {"player", "pw"}},
		Logger: testLogger(t),
	}
	if mod != nil {
		mod(&cfg)
	}
	e, err := NewEmbedded(cfg)
	if err != nil {
		t.Fatalf("NewEmbedded: %v", err)
	}
	if err := e.Start(); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// serverPair is an IMAP account to test Intake against, with a way to put
// mail into its mailbox and to read mailboxes back.
type serverPair struct {
	embedded *Embedded // nil with dovecot
	addr     string
	user     string
	pass     string
	// mailbox, processed and rejected are the mailbox names Intake uses.
	mailbox, processed, rejected string
	dovecot                      bool
}

// newServerPair gives the test an IMAP account: the embedded server, or
// with HERALD_TEST_DOVECOT=1 the dovecot at HERALD_DOVECOT_ADDR. On
// dovecot, where tests share one account, each test gets mailboxes of its
// own, deleted at the end.
func newServerPair(t testing.TB) *serverPair {
	t.Helper()
	if os.Getenv("HERALD_TEST_DOVECOT") != "1" {
		e := newEmbedded(t, nil)
		return &serverPair{
			embedded: e, addr: e.IMAPAddr(), user: testUser, pass: testPass,
			mailbox: "INBOX", processed: "Processed", rejected: "Rejected",
		}
	}
	p := &serverPair{
		addr:    os.Getenv("HERALD_DOVECOT_ADDR"),
		user:    os.Getenv("HERALD_DOVECOT_USER"),
		pass:    os.Getenv("HERALD_DOVECOT_PASS"),
		dovecot: true,
	}
	if p.addr == "" || p.user == "" {
		t.Fatal("HERALD_TEST_DOVECOT=1 needs HERALD_DOVECOT_ADDR, HERALD_DOVECOT_USER and HERALD_DOVECOT_PASS")
	}
	prefix := "t" + strings.ToLower(rand.Text()[:10])
	p.mailbox, p.processed, p.rejected = prefix+"-in", prefix+"-processed", prefix+"-rejected"
	c := p.admin(t)
	if err := c.Create(p.mailbox, nil).Wait(); err != nil {
		t.Fatalf("create %q on dovecot: %v", p.mailbox, err)
	}
	t.Cleanup(func() {
		c, err := dialIMAP(context.Background(), p.addr, SecurityPlain, nil, 5*time.Second, &imapclient.Options{})
		if err != nil {
			return
		}
		defer c.Close()
		if c.Login(p.user, p.pass).Wait() == nil {
			for _, mb := range []string{p.mailbox, p.processed, p.rejected} {
				_ = c.Delete(mb).Wait()
			}
		}
	})
	return p
}

// admin is a logged-in IMAP client for setting up the test, closed at its
// end.
func (p *serverPair) admin(t testing.TB) *imapclient.Client {
	t.Helper()
	c, err := dialIMAP(context.Background(), p.addr, SecurityPlain, nil, 5*time.Second, &imapclient.Options{})
	if err != nil {
		t.Fatalf("dial %s: %v", p.addr, err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(p.user, p.pass).Wait(); err != nil {
		t.Fatalf("login: %v", err)
	}
	return c
}

// deliver puts raw into the intake mailbox: by SMTP on the embedded server
// (so it passes the real delivery path), by IMAP APPEND on dovecot.
func (p *serverPair) deliver(t testing.TB, raw []byte) {
	t.Helper()
	if p.embedded != nil {
		s := newTestSender(t, p.embedded)
		if err := s.SendRaw(context.Background(), "player@localhost", []string{p.user + "@localhost"}, raw); err != nil {
			t.Fatalf("deliver by SMTP: %v", err)
		}
		return
	}
	c := p.admin(t)
	app := c.Append(p.mailbox, int64(len(raw)), nil)
	if _, err := app.Write(raw); err != nil {
		t.Fatalf("append: %v", err)
	}
	if err := app.Close(); err != nil {
		t.Fatalf("append: %v", err)
	}
	if _, err := app.Wait(); err != nil {
		t.Fatalf("append: %v", err)
	}
}

// messages reads a mailbox without changing flags.
func (p *serverPair) messages(t testing.TB, mailbox string) []StoredMessage {
	t.Helper()
	ms, err := readMailbox(context.Background(), p.addr, p.user, p.pass, mailbox)
	var imapErr *imap.Error
	// Not created yet (the intake creates it when it connects): the
	// embedded server says NONEXISTENT, dovecot 2.3 only in words.
	if errors.As(err, &imapErr) && (imapErr.Code == imap.ResponseCodeNonExistent || strings.Contains(imapErr.Text, "doesn't exist")) {
		return nil
	}
	if err != nil {
		t.Fatalf("read %q: %v", mailbox, err)
	}
	return ms
}

// intakeConfig is a fast-retrying configuration for p's account.
func (p *serverPair) intakeConfig(t testing.TB) IntakeConfig {
	return IntakeConfig{
		Addr:             p.addr,
		Username:         p.user,
		Password:         p.pass,
		Mailbox:          p.mailbox,
		ProcessedMailbox: p.processed,
		RejectedMailbox:  p.rejected,
		PollInterval:     time.Hour, // IDLE must do the work unless a test says otherwise
		ReconnectBackoff: ConstantBackoff(20 * time.Millisecond),
		RetryBackoff:     ConstantBackoff(50 * time.Millisecond),
		Logger:           testLogger(t),
		Hooks:            &Hooks{},
	}
}

func newTestSender(t testing.TB, e *Embedded) *Sender {
	t.Helper()
	return newSenderAt(t, e.SMTPAddr())
}

// newSenderAt is a Sender to the SMTP server at addr.
func newSenderAt(t testing.TB, addr string) *Sender {
	t.Helper()
	s, err := NewSender(SenderConfig{Addr: addr, HELO: "test.local", Timeout: 10 * time.Second, Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("NewSender: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// intakeRun is an Intake.Run in the background.
type intakeRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// runIntake runs Intake.Run in the background; at the end of the test it
// is cancelled and awaited.
func runIntake(t testing.TB, cfg IntakeConfig, h Handler) *intakeRun {
	t.Helper()
	in, err := NewIntake(cfg)
	if err != nil {
		t.Fatalf("NewIntake: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &intakeRun{cancel: cancel, done: make(chan struct{})}
	go func() {
		r.err = in.Run(ctx, h)
		close(r.done)
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop cancels Run and returns its result.
func (r *intakeRun) stop(t testing.TB) error {
	r.cancel()
	return r.wait(t)
}

// wait waits for Run to return by itself.
func (r *intakeRun) wait(t testing.TB) error {
	select {
	case <-r.done:
		return r.err
	case <-time.After(20 * time.Second):
		t.Errorf("Intake.Run did not return")
		return nil
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recv waits for a value from ch.
func recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// testMail is a small message with a unique Message-ID.
func testMail(id, subject, body string) []byte {
	return []byte("From: Player <player@localhost>\r\n" +
		"To: herald@localhost\r\n" +
		"Subject: " + subject + "\r\n" +
		"Message-ID: <" + id + ">\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"\r\n" + body + "\r\n")
}

// stripDeliveryHeaders removes the header lines a delivering server puts
// in front of a message (Return-Path, Delivered-To, Received with its
// continuation lines) and reports whether anything else preceded original.
func stripDeliveryHeaders(t testing.TB, raw, original []byte) {
	t.Helper()
	if !bytes.HasSuffix(raw, original) {
		t.Fatalf("received message does not end with the sent bytes\n--- got\n%s\n--- want suffix\n%s", raw, original)
	}
	prefix := string(raw[:len(raw)-len(original)])
	for _, line := range strings.SplitAfter(prefix, "\r\n") {
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "Return-Path: "), strings.HasPrefix(line, "Delivered-To: "),
			strings.HasPrefix(line, "Received: "), strings.HasPrefix(line, "\t"):
		default:
			t.Errorf("unexpected line added on delivery: %q", line)
		}
	}
}
