package mailbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
	gomail "github.com/wneessen/go-mail"
)

func sampleOutgoing() Outgoing {
	return Outgoing{
		From:       "Herald <herald@localhost>",
		To:         []string{"player@localhost"},
		Subject:    "Crécy, turn 3: English activation",
		Date:       time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		MessageID:  "t3-result.g42@pbem.example",
		InReplyTo:  "t3-orders.p1@example.org",
		References: []string{"t1-result.g42@pbem.example", "t2-result.g42@pbem.example", "t3-orders.p1@example.org"},
		Headers:    map[string]string{"Auto-Submitted": "auto-replied", "X-Herald-Loop": "g42"},
		Text:       "The Genoese crossbowmen fire.\nRoll: 7 (dice log head 4f2a).\n",
		HTML:       `<p>The Genoese crossbowmen fire.</p><img src="cid:map-t3@pbem.example">`,
		Inline:     []Part{{Name: "map.png", ContentType: "image/png", ContentID: "map-t3@pbem.example", Data: []byte("\x89PNG\r\n\x1a\nfake")}},
	}
}

func TestSendToEmbeddedAndReceive(t *testing.T) {
	e := newEmbedded(t, nil)
	s := newTestSender(t, e)
	o := sampleOutgoing()
	want, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), o); err != nil {
		t.Fatalf("Send: %v", err)
	}
	ms, err := e.Messages("player", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("player's INBOX has %d messages, want 1", len(ms))
	}
	stripDeliveryHeaders(t, ms[0].Raw, want)
	if ms[0].HasFlag(`\Seen`) {
		t.Error("new mail is \\Seen")
	}
}

func TestPlusAddressDelivery(t *testing.T) {
	e := newEmbedded(t, nil)
	s := newTestSender(t, e)
	o := sampleOutgoing()
	o.From = "player@localhost"
	o.To = []string{"Herald <HERALD+crecy-4f2a@localhost>"}
	if err := s.Send(context.Background(), o); err != nil {
		t.Fatalf("Send: %v", err)
	}
	ms, err := e.Messages("herald", "INBOX")
	if err != nil || len(ms) != 1 {
		t.Fatalf("herald's INBOX: %d messages, %v", len(ms), err)
	}
	r, err := mail.CreateReader(bytes.NewReader(ms[0].Raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header.Get("Delivered-To"); got != "HERALD+crecy-4f2a@localhost" {
		t.Errorf("Delivered-To = %q, want the original recipient", got)
	}
	if got := r.Header.Get("Return-Path"); got != "<player@localhost>" {
		t.Errorf("Return-Path = %q", got)
	}
	if !strings.Contains(r.Header.Get("Received"), "for <HERALD+crecy-4f2a@localhost>") {
		t.Errorf("Received = %q", r.Header.Get("Received"))
	}
}

func TestSendUnknownRecipientIsPermanent(t *testing.T) {
	e := newEmbedded(t, nil)
	s := newTestSender(t, e)
	o := sampleOutgoing()
	o.To = []string{"nobody@localhost"}
	err := s.Send(context.Background(), o)
	var se *SendError
	if !errors.As(err, &se) {
		t.Fatalf("Send = %v, want *SendError", err)
	}
	if IsTemporary(err) || se.Code != 550 || se.Stage != StageRcpt || len(se.Recipients) != 1 {
		t.Errorf("Send = %v: temporary %v, code %d, stage %q, recipients %v", err, IsTemporary(err), se.Code, se.Stage, se.Recipients)
	}
	if !strings.HasPrefix(err.Error(), "mailbox: ") || !strings.Contains(err.Error(), "5.1.1") {
		t.Errorf("error text %q", err)
	}
	// A mix of a good and a refused recipient delivers to nobody.
	o.To = []string{"player@localhost", "nobody@localhost"}
	if err := s.Send(context.Background(), o); IsTemporary(err) || err == nil {
		t.Errorf("mixed recipients: %v", err)
	}
	if ms, _ := e.Messages("player", "INBOX"); len(ms) != 0 {
		t.Errorf("player got %d messages from a refused transaction", len(ms))
	}
}

func TestSendTemporaryFailures(t *testing.T) {
	tests := []struct {
		stage SMTPStage
		want  SendStage
	}{
		{SMTPMail, StageMail},
		{SMTPRcpt, StageRcpt},
		{SMTPData, StageData},
	}
	for _, tc := range tests {
		t.Run(string(tc.stage), func(t *testing.T) {
			var fail atomic.Bool
			fail.Store(true)
			e := newEmbedded(t, func(c *EmbeddedConfig) {
				c.SMTPHook = func(stage SMTPStage, from, rcpt string) error {
					if stage == tc.stage && fail.Load() {
						return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Try again later"}
					}
					return nil
				}
			})
			s := newTestSender(t, e)
			err := s.Send(context.Background(), sampleOutgoing())
			var se *SendError
			if !errors.As(err, &se) || !IsTemporary(err) || se.Code != 451 || se.Stage != tc.want {
				t.Fatalf("Send = %v (%#v), want temporary 451 at %q", err, se, tc.want)
			}
			fail.Store(false)
			if err := s.Send(context.Background(), sampleOutgoing()); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if ms, _ := e.Messages("player", "INBOX"); len(ms) != 1 {
				t.Errorf("player has %d messages, want 1", len(ms))
			}
		})
	}
}

// TestSendServerDownThenUp sends to a fixed port where nothing listens
// yet, then starts the server there.
func TestSendServerDownThenUp(t *testing.T) {
	port := freePort(t)
	e, err := NewEmbedded(EmbeddedConfig{
		SMTPAddr: fmt.Sprintf("127.0.0.1:%d", port),
		Users:    []User{{"player", "pw"}},
		Logger:   testLogger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	s := newTestSender(t, e)
	err = s.Send(context.Background(), sampleOutgoing())
	var se *SendError
	if !errors.As(err, &se) || !IsTemporary(err) || se.Stage != StageConnect || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("Send with the server down = %v, want a temporary connect error (connection refused)", err)
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), sampleOutgoing()); err != nil {
		t.Fatalf("Send after Start: %v", err)
	}
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestSendAuth(t *testing.T) {
	e := newEmbedded(t, func(c *EmbeddedConfig) { c.RequireSMTPAuth = true })
	send := func(user, pass string) error {
		s, err := NewSender(SenderConfig{Addr: e.SMTPAddr(), Username: user, Password: pass, Logger: testLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		return s.Send(context.Background(), sampleOutgoing())
	}
	if err := send("", ""); err == nil || IsTemporary(err) {
		t.Errorf("without AUTH: %v, want a permanent error", err)
	}
	err := send("herald", "wrong")
	var se *SendError
	if !errors.As(err, &se) || se.Stage != StageConnect || se.Code != 535 || IsTemporary(err) {
		t.Errorf("wrong password: %v, want permanent 535 at connect", err)
	}
	if err := send("herald", testPass); err != nil {
		t.Errorf("right password: %v", err)
	}
}

func TestSendCancelledContext(t *testing.T) {
	// A server that accepts and then says nothing: only ctx can end Send.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	s, err := NewSender(SenderConfig{Addr: ln.Addr().String(), Timeout: time.Minute, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, sampleOutgoing())
	if err == nil || !IsTemporary(err) {
		t.Errorf("Send = %v, want a temporary error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Send took %v after its context expired", d)
	}
}

func TestSendConcurrent(t *testing.T) {
	e := newEmbedded(t, nil)
	s := newTestSender(t, e)
	sendSideBySide(t, s, 8, 1, "c")
	if ms, _ := e.Messages("player", "INBOX"); len(ms) != 8 {
		t.Errorf("player has %d messages, want 8", len(ms))
	}
}

// sendSideBySide sends messages on goroutines started at once, each
// message after message, and fails the test on any error.
func sendSideBySide(t *testing.T, s *Sender, goroutines, each int, tag string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*each)
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			for i := range each {
				o := sampleOutgoing()
				o.MessageID = fmt.Sprintf("%s-%d-%d@pbem.example", tag, g, i)
				errs <- s.Send(context.Background(), o)
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestSenderConfigErrors(t *testing.T) {
	for _, cfg := range []SenderConfig{
		{Addr: "smtp.example.org:25", Security: SecurityPlain},
		{Addr: "smtp.example.org"},
		{Addr: "127.0.0.1:0"},
		{Addr: "127.0.0.1:25", Security: "ssl"},
	} {
		if _, err := NewSender(cfg); err == nil || !strings.HasPrefix(err.Error(), "mailbox: ") {
			t.Errorf("NewSender(%+v) = %v, want a mailbox: error", cfg, err)
		}
	}
	if _, err := NewSender(SenderConfig{Addr: "smtp.example.org:25", Security: SecurityPlain, AllowPlaintext: true}); err != nil {
		t.Errorf("AllowPlaintext: %v", err)
	}
}

func TestIsTemporary(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain error", errors.New("mail: no address"), false},
		{"421", &textproto.Error{Code: 421, Msg: "closing"}, true},
		{"451 wrapped", fmt.Errorf("x: %w", &textproto.Error{Code: 451, Msg: "later"}), true},
		{"550", &textproto.Error{Code: 550, Msg: "no such user"}, false},
		{"554", &textproto.Error{Code: 554, Msg: "transaction failed"}, false},
		{"451 and 550", errors.Join(&textproto.Error{Code: 451}, &textproto.Error{Code: 550}), false},
		{"refused", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{"timeout", context.DeadlineExceeded, true},
		{"SendError temp", &SendError{Temporary: true, Err: errors.New("x")}, true},
		{"SendError perm", &SendError{Temporary: false, Err: errors.New("x")}, false},
		{"go-mail SendError", &gomail.SendError{Reason: gomail.ErrSMTPRcptTo}, false},
	}
	for _, tc := range tests {
		if got := IsTemporary(tc.err); got != tc.want {
			t.Errorf("IsTemporary(%s: %v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// countHellos counts the SMTP connections the server sees (one EHLO
// each) and, while refuse is set, answers MAIL FROM with it; while meet
// is set, each MAIL FROM waits there for the others.
type countHellos struct {
	hellos atomic.Int32
	refuse atomic.Pointer[smtp.SMTPError]
	meet   atomic.Pointer[meeting]
}

func (h *countHellos) hook(stage SMTPStage, _, _ string) error {
	switch stage {
	case SMTPHello:
		h.hellos.Add(1)
	case SMTPMail:
		if m := h.meet.Load(); m != nil {
			m.wait()
		}
		if e := h.refuse.Swap(nil); e != nil {
			return e
		}
	}
	return nil
}

// meeting holds transactions at MAIL FROM until n of them have come, so
// that they are all in flight at once, each on a connection of its own
// (for ten seconds at most, so that a test that sends fewer fails on
// what it checks rather than hangs).
type meeting struct {
	n    int32
	came atomic.Int32
	all  chan struct{}
}

func newMeeting(n int) *meeting { return &meeting{n: int32(n), all: make(chan struct{})} }

func (m *meeting) wait() {
	if m.came.Add(1) == m.n {
		close(m.all)
	}
	select {
	case <-m.all:
	case <-time.After(10 * time.Second):
	}
}

// A backlog of messages goes over one connection, kept open between
// them, and every message is delivered once.
func TestSendReusesTheConnection(t *testing.T) {
	var h countHellos
	e := newEmbedded(t, func(c *EmbeddedConfig) { c.SMTPHook = h.hook })
	s := newTestSender(t, e)
	for i := range 20 {
		o := sampleOutgoing()
		o.MessageID = fmt.Sprintf("r%d@pbem.example", i)
		if err := s.Send(context.Background(), o); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if n := h.hellos.Load(); n != 1 {
		t.Errorf("20 messages took %d connections, want 1", n)
	}
	if ms, _ := e.Messages("player", "INBOX"); len(ms) != 20 {
		t.Errorf("player has %d messages, want 20", len(ms))
	}
	// A refused recipient leaves the connection usable.
	o := sampleOutgoing()
	o.To = []string{"nobody@localhost"}
	if err := s.Send(context.Background(), o); err == nil {
		t.Fatal("an unknown recipient was accepted")
	}
	if err := s.Send(context.Background(), sampleOutgoing()); err != nil {
		t.Fatal(err)
	}
	if n := h.hellos.Load(); n != 1 {
		t.Errorf("a refused recipient cost a new connection (%d in all)", n)
	}
}

// Two goroutines sending backlogs side by side, as an outbox sends a
// round, keep their two connections between messages: rounds after
// rounds cost two connections, not one a message. More goroutines at
// once than keptConnections leave only keptConnections open.
func TestSendKeepsAConnectionPerSender(t *testing.T) {
	var h countHellos
	e := newEmbedded(t, func(c *EmbeddedConfig) { c.SMTPHook = h.hook })
	s := newTestSender(t, e)
	for round := range 5 {
		sendSideBySide(t, s, 2, 4, fmt.Sprintf("round%d", round))
	}
	if n := h.hellos.Load(); n > 2 {
		t.Errorf("five rounds of two backlogs took %d connections in all, want 2", n)
	}
	// The many at once, for sure: without the meeting, a loaded machine
	// can run some goroutines after others have finished and given back
	// their connections, and fewer than keptConnections are ever open.
	h.meet.Store(newMeeting(keptConnections + 3))
	sendSideBySide(t, s, keptConnections+3, 1, "many")
	if n := h.hellos.Load(); n != keptConnections+3 {
		t.Errorf("%d messages at once: %d connections in all, want %[1]d, one each (the kept ones and one dialled for each other)", keptConnections+3, n)
	}
	s.mu.Lock()
	kept := len(s.idle)
	s.mu.Unlock()
	if kept != keptConnections {
		t.Errorf("%d connections kept after %d messages at once, want %d", kept, keptConnections+3, keptConnections)
	}
	if ms, _ := e.Messages("player", "INBOX"); len(ms) != 40+keptConnections+3 {
		t.Errorf("player has %d messages, want %d", len(ms), 40+keptConnections+3)
	}
}

// A server that allows a client one connection at a time: messages sent
// side by side take turns on the one connection, and none fails. A
// connection refused while none is at work is the caller's error.
func TestSendOverOneConnectionWhenASecondIsRefused(t *testing.T) {
	var hellos atomic.Int32
	e := newEmbedded(t, func(c *EmbeddedConfig) {
		c.SMTPHook = func(stage SMTPStage, _, _ string) error {
			if stage == SMTPHello && hellos.Add(1) > 1 {
				return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "one connection at a time"}
			}
			return nil
		}
	})
	s := newTestSender(t, e)
	sendSideBySide(t, s, 2, 5, "one")
	if ms, _ := e.Messages("player", "INBOX"); len(ms) != 10 {
		t.Errorf("player has %d messages, want 10", len(ms))
	}
	s.Close()
	again := newTestSender(t, e)
	if err := again.Send(context.Background(), sampleOutgoing()); !ServerUnavailable(err) {
		t.Errorf("a refused connection with none at work: %v, want the server unavailable", err)
	}
}

// A kept connection that went stale (the server restarted, or closes the
// channel with 421 at MAIL FROM) is replaced at once, and the message is
// delivered exactly once; a fresh connection's 421 is the caller's error.
func TestSendReplacesAStaleConnection(t *testing.T) {
	var h countHellos
	e := newEmbedded(t, func(c *EmbeddedConfig) { c.SMTPHook = h.hook })
	s := newTestSender(t, e)
	send := func(id string) error {
		o := sampleOutgoing()
		o.MessageID = id
		return s.Send(context.Background(), o)
	}
	if err := send("a@pbem.example"); err != nil {
		t.Fatal(err)
	}
	// The server restarts under the kept connection.
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Start(); err != nil {
		t.Fatal(err)
	}
	if err := send("b@pbem.example"); err != nil {
		t.Fatalf("after the server restarted: %v", err)
	}
	// The server closes the kept connection with 421.
	h.refuse.Store(&smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "idle too long"})
	if err := send("c@pbem.example"); err != nil {
		t.Fatalf("after a 421: %v", err)
	}
	if n := h.hellos.Load(); n != 3 {
		t.Errorf("%d connections, want 3 (the first, after the restart, after the 421)", n)
	}
	var got []string
	ms, _ := e.Messages("player", "INBOX")
	for _, m := range ms {
		r, err := mail.CreateReader(bytes.NewReader(m.Raw))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := r.Header.MessageID()
		got = append(got, id)
	}
	if strings.Join(got, " ") != "a@pbem.example b@pbem.example c@pbem.example" {
		t.Errorf("player received %v, want a, b and c once each", got)
	}
	// A new connection answered with 421 is not tried again.
	s.Close()
	h.refuse.Store(&smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "shutting down"})
	err := send("d@pbem.example")
	var se *SendError
	if !errors.As(err, &se) || se.Code != 421 || se.Stage != StageMail || !IsTemporary(err) {
		t.Errorf("421 on a new connection: %v, want a temporary 421 at MAIL FROM", err)
	}
}

// recorder is a TCP proxy on loopback in front of addr that keeps what
// the client sends.
type recorder struct {
	mu   sync.Mutex
	sent bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent.Write(p)
}

func (r *recorder) client() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.sent.Bytes())
}

func recordingProxy(t *testing.T, addr string) (*recorder, string) {
	r := &recorder{}
	return r, proxy(t, addr, func(client, server net.Conn) {
		go func() { io.Copy(io.MultiWriter(server, r), client); server.Close() }()
		go func() { io.Copy(client, server); client.Close() }()
	})
}

// proxy listens on loopback and relays each connection to addr: relay
// is given both ends, and returns at once.
func proxy(t *testing.T, addr string, relay func(client, server net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				return
			}
			relay(c, s)
		}
	}()
	return ln.Addr().String()
}

// A composed mail goes as one chunk (BDAT) to a server that offers
// CHUNKING, and arrives as it was composed; a text DATA would change (a
// bare line feed) goes with DATA, and arrives as DATA delivers it.
func TestSendChunksWhenOffered(t *testing.T) {
	e := newEmbedded(t, nil)
	rec, addr := recordingProxy(t, e.SMTPAddr())
	s := newSenderAt(t, addr)
	o := withMap()
	o.To = []string{"player@localhost"}
	raw, err := Compose(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	sent := rec.client()
	if want := fmt.Appendf(nil, "BDAT %d LAST\r\n%s", len(raw), raw); !bytes.Contains(sent, want) {
		t.Errorf("the composed mail did not go as one chunk of %d bytes", len(raw))
	}
	if bytes.Contains(sent, []byte("\r\nDATA\r\n")) {
		t.Error("the composed mail went with DATA")
	}

	bare := []byte("Subject: bare\n\n.a dot\nend")
	if err := s.SendRaw(context.Background(), "herald@localhost", []string{"player@localhost"}, bare); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(rec.client()[len(sent):], []byte("DATA\r\n")) {
		t.Error("a text with bare line feeds did not go with DATA")
	}
	ms, err := e.Messages("player", "INBOX")
	if err != nil || len(ms) != 2 {
		t.Fatalf("player has %d messages (%v), want 2", len(ms), err)
	}
	stripDeliveryHeaders(t, ms[0].Raw, raw)
	stripDeliveryHeaders(t, ms[1].Raw, []byte("Subject: bare\r\n\r\n.a dot\r\nend\r\n"))
}
