package games

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// world is Herald's daemon on the embedded IMAP and SMTP servers, over
// loopback TCP, with its store on a real file. It can be killed and
// started again on the same store, as a crashed daemon would be.
type world struct {
	t      testing.TB
	emb    *mailbox.Embedded
	dbPath string
	log    *slog.Logger

	mu      sync.Mutex
	svc     *Service
	st      *store.Store
	cancel  context.CancelFunc
	done    chan error
	players map[string]*Autoplayer
	refuse  atomic.Int32
	// accepted counts the mails the SMTP server took; perHour is the
	// service's per-sender limit (0: the default).
	accepted atomic.Int64
	perHour  int
	// answers is the service's AnswersPerHour (0: the default).
	answers int
	// configure, when set, adjusts the service's configuration; with
	// manual the daemon runs no outbox loop and the test drains it
	// (drain) on a clock of its own.
	configure func(*Config)
	manual    bool
	sender    *mailbox.Sender
	// smtp, when set, is asked first at each SMTP stage (smtpHook).
	smtp func(stage mailbox.SMTPStage, rcpt string) error
	// interval is the outbox loop's longest sleep (default 50 ms).
	interval time.Duration
}

func newWorld(t testing.TB, players ...string) *world {
	t.Helper()
	users := []mailbox.User{{Name: "herald", Password: "h"}}
	for _, p := range players {
		users = append(users, mailbox.User{Name: p, Password: p})
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w := &world{t: t, dbPath: filepath.Join(t.TempDir(), "herald.db"), log: log, players: map[string]*Autoplayer{}}
	emb, err := mailbox.NewEmbedded(mailbox.EmbeddedConfig{Users: users, Logger: log, SMTPHook: w.smtpHook})
	if err != nil {
		t.Fatal(err)
	}
	if err := emb.Start(); err != nil {
		t.Fatal(err)
	}
	w.emb = emb
	for _, p := range players {
		w.players[p] = &Autoplayer{Address: p + "@localhost"}
	}
	t.Cleanup(func() {
		w.kill()
		emb.Close()
	})
	return w
}

// start runs the daemon; hooks may make its intake crash.
func (w *world) start(hooks *mailbox.Hooks) {
	w.t.Helper()
	st, err := store.Open(w.dbPath)
	if err != nil {
		w.t.Fatal(err)
	}
	cfg := Config{Store: st, Address: "herald@localhost", Logger: w.log, PerHour: w.perHour, AnswersPerHour: w.answers,
		RetryBackoff: mailbox.ConstantBackoff(50 * time.Millisecond), ProbeBackoff: mailbox.ConstantBackoff(50 * time.Millisecond)}
	if w.configure != nil {
		w.configure(&cfg)
	}
	svc, err := New(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: w.emb.IMAPAddr(), Username: "herald", Password: "h",
		Logger: w.log, Hooks: hooks, PollInterval: 50 * time.Millisecond, MaxMessageBytes: svc.MaxMailBytes(),
		ReconnectBackoff: mailbox.ConstantBackoff(50 * time.Millisecond), RetryBackoff: mailbox.ConstantBackoff(50 * time.Millisecond)})
	if err != nil {
		w.t.Fatal(err)
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: w.emb.SMTPAddr(), HELO: "herald.test", Timeout: 5 * time.Second, Logger: w.log})
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	if w.manual {
		go func() { done <- in.Run(ctx, svc.Handle) }()
	} else {
		interval := w.interval
		if interval == 0 {
			interval = 50 * time.Millisecond
		}
		go func() { done <- svc.Serve(ctx, in, sender.SendRaw, interval) }()
	}
	w.mu.Lock()
	w.svc, w.st, w.cancel, w.done, w.sender = svc, st, cancel, done, sender
	w.mu.Unlock()
}

// kill stops the daemon (if it still runs) and closes its store.
func (w *world) kill() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel == nil {
		return nil
	}
	w.cancel()
	err := <-w.done
	w.sender.Close()
	w.st.Close()
	w.cancel, w.svc = nil, nil
	return err
}

// crashed reports whether the daemon stopped by itself.
func (w *world) crashed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case err := <-w.done:
		w.done <- err
		return true
	default:
		return false
	}
}

func (w *world) service() *Service {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.svc
}

// newGame creates a game between two local players.
func (w *world) newGame(id, english, french string) {
	w.t.Helper()
	_, err := w.service().CreateGame(NewGame{ID: id, Scenario: "crecy", Players: []PlayerSpec{
		{Side: "English", Address: english + "@localhost"}, {Side: "French", Address: french + "@localhost"}}})
	if err != nil {
		w.t.Fatal(err)
	}
	w.service().Kick()
}

// play lets every player answer each new mail of his once, as his mail
// client would, and returns how many replies they sent. Mail clients show
// a Message-ID once: a reply Herald's outbox sent again after a crash (at
// least once, never lost) is not answered twice. dup sends every reply
// twice (the same bytes, as a client that retries does).
func (w *world) play(seen map[string]bool, dup bool) int {
	w.t.Helper()
	replies := w.replies(seen)
	w.deliver(replies, dup)
	return len(replies)
}

// replies are the players' answers to their new mail, not yet sent.
func (w *world) replies(seen map[string]bool) [][]byte {
	return w.repliesAfter(seen, nil)
}

// repliesAfter is replies reading, when last is set, only the mails after
// the last UID it holds for the player, and moving it on: a benchmark of
// many rounds reads each mail once, not every round all of them.
func (w *world) repliesAfter(seen map[string]bool, last map[string]uint32) [][]byte {
	w.t.Helper()
	var out [][]byte
	for name, ap := range w.players {
		msgs, err := w.emb.MessagesAfter(name, "INBOX", last[name])
		if err != nil {
			w.t.Fatal(err)
		}
		for _, m := range msgs {
			if last != nil {
				last[name] = m.UID
			}
			key := name + "/" + messageIDOf(m.Raw)
			if seen[key] {
				continue
			}
			seen[key] = true
			if raw := answer(w.t, ap, m.Raw); raw != nil {
				out = append(out, raw)
			}
		}
	}
	return out
}

// answer is a player's reply to one of Herald's mails, as sent, or nil.
func answer(tb testing.TB, ap *Autoplayer, raw []byte) []byte {
	tb.Helper()
	reply, err := ap.Reply(raw)
	if err != nil {
		tb.Fatal(err)
	}
	if reply == nil {
		return nil
	}
	out, err := mailbox.Compose(*reply)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// deliver puts mails into Herald's INBOX, each twice with dup; it works
// while the servers are down.
func (w *world) deliver(raws [][]byte, dup bool) {
	w.t.Helper()
	for _, raw := range raws {
		for range map[bool]int{false: 1, dup: 2} {
			if err := w.emb.Deliver("herald@localhost", raw); err != nil {
				w.t.Fatal(err)
			}
		}
	}
}

// settle waits until Herald has read all its mail and sent all replies.
func (w *world) settle() {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if w.crashed() {
			return
		}
		if w.unseen() == 0 && w.pending() == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.t.Fatalf("Herald did not settle in 20 s: %d mails unread, %d replies waiting", w.unseen(), w.pending())
}

// unseen counts the mails in Herald's INBOX it has not processed yet.
func (w *world) unseen() int {
	w.t.Helper()
	n := 0
	for _, m := range w.messages("herald", "INBOX") {
		if !m.HasFlag(`\Seen`) {
			n++
		}
	}
	return n
}

// pending counts the mails in Herald's outbox.
func (w *world) pending() int {
	w.t.Helper()
	n, err := w.service().Pending()
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

// Each crash point, then a restart on the same store: every order mail is
// applied exactly once, every reply delivered, and the game verifies.
func TestDaemonSurvivesCrashes(t *testing.T) {
	errCrash := errors.New("injected crash")
	for _, point := range []string{"after fetch", "after commit", "after seen", "smtp refuses"} {
		t.Run(point, func(t *testing.T) {
			w := newWorld(t, "alice", "bob")
			var armed atomic.Int32
			hooks := &mailbox.Hooks{}
			crashOn := func() error {
				if armed.CompareAndSwap(1, 2) {
					return errCrash
				}
				return nil
			}
			switch point {
			case "after fetch":
				hooks.AfterFetch = func(mailbox.Message) error { return crashOn() }
			case "after commit":
				hooks.AfterCommit = func(mailbox.Message, mailbox.Disposition) error { return crashOn() }
			case "after seen":
				hooks.AfterSeen = func(mailbox.Message, mailbox.Disposition) error { return crashOn() }
			}
			w.start(hooks)
			w.newGame("crecy-crash", "alice", "bob")
			seen := map[string]bool{}
			sent := 0
			for round := 0; round < 8; round++ {
				w.settle()
				if round == 2 {
					armed.Store(1)
					if point == "smtp refuses" {
						w.refuseSMTP(3)
					}
				}
				if w.crashed() {
					if err := w.kill(); !errors.Is(err, errCrash) {
						t.Fatalf("daemon stopped with %v", err)
					}
					w.start(nil)
					w.settle()
				}
				sent += w.play(seen, false)
			}
			w.settle()
			if point != "smtp refuses" && armed.Load() != 2 {
				t.Fatal("the crash was never injected")
			}
			if point == "smtp refuses" && w.refuse.Load() >= 0 {
				t.Fatal("the SMTP server never refused")
			}
			if sent < 6 {
				t.Fatalf("the players sent %d order mails, want at least 6", sent)
			}
			t.Logf("%d order mails", sent)
			w.checkGame("crecy-crash", sent)
			// A mail offered again after the crash is filed as the
			// first time and answered by nothing.
			if rejected := w.count("Rejected"); rejected != 0 {
				t.Errorf("Herald filed %d mails as rejected", rejected)
			}
			if got := w.unexpected("alice", "bob"); len(got) != 0 {
				t.Errorf("the players got notices or refusals: %v", got)
			}
		})
	}
}

// refuseSMTP makes the SMTP server refuse the next n messages with a
// temporary error.
func (w *world) refuseSMTP(n int32) { w.refuse.Store(n) }

// smtpHook refuses DATA while refuse counts down.
func (w *world) smtpHook(stage mailbox.SMTPStage, _, rcpt string) error {
	if w.smtp != nil {
		if err := w.smtp(stage, rcpt); err != nil {
			return err
		}
	}
	if stage != mailbox.SMTPData {
		return nil
	}
	if w.refuse.Add(-1) >= 0 {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
	}
	w.accepted.Add(1)
	return nil
}

// checkGame: every order mail sent was applied exactly once (each makes
// one block of the dice log), every result reached both players, and the
// export verifies, replaying every block through the engine.
func (w *world) checkGame(id string, sent int) { w.checkGameOf(id, "alice", "bob", sent) }

// checkGameOf is checkGame for a game between english and french.
func (w *world) checkGameOf(id, english, french string, sent int) {
	w.t.Helper()
	svc := w.service()
	s, err := svc.Summary(id)
	if err != nil {
		w.t.Fatal(err)
	}
	if int(s.Chain.Batches) != sent {
		w.t.Errorf("%s: %d order mails sent, %d blocks applied", id, sent, s.Chain.Batches)
	}
	sides := map[string]string{english: "english", french: "french"}
	for p, side := range sides {
		msgs, err := w.emb.Messages(p, "INBOX")
		if err != nil {
			w.t.Fatal(err)
		}
		got := map[string]bool{}
		for _, m := range msgs {
			got[messageIDOf(m.Raw)] = true
		}
		for b := 1; b <= sent; b++ {
			want := fmt.Sprintf("%s.result.b%d-%s@localhost", id, b, side)
			if !got[want] {
				w.t.Errorf("%s never received %s", p, want)
			}
		}
	}
	f := &fixture{t: w.t, svc: svc, game: id}
	f.verify()
}

func messageIDOf(raw []byte) string {
	header, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	for _, l := range strings.Split(string(header), "\r\n") {
		if v, ok := strings.CutPrefix(l, "Message-Id: "); ok {
			return strings.Trim(v, "<>")
		}
		if v, ok := strings.CutPrefix(l, "Message-ID: "); ok {
			return strings.Trim(v, "<>")
		}
	}
	return ""
}
