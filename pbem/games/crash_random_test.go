package games

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"herald/engine"
	"herald/pbem"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// The daemon's crash points a child stops at (crashChild): after the
// intake fetched a mail, after the handler committed it, after the \Seen
// flag, and after the SMTP server accepted a reply before the outbox
// recorded it.
var crashPoints = []string{"after-fetch", "after-commit", "after-seen", "after-send"}

// childSpec is what a child daemon is told through its environment.
type childSpec struct {
	DB, IMAP, SMTP string
	// Point and Hit: stop at the Hit-th pass through Point, say so on
	// stdout ("AT <point>") and wait to be killed. Settle: when stdin
	// closes, send what the outbox holds and exit.
	Point  string
	Hit    int
	Settle bool
}

const childEnv = "HERALD_CRASH_CHILD"

// TestCrashChild is the daemon TestCrashAtRandomMoments runs as a child
// process and kills; run alone it does nothing.
func TestCrashChild(t *testing.T) {
	raw := os.Getenv(childEnv)
	if raw == "" {
		t.Skip("the daemon of TestCrashAtRandomMoments, run by it")
	}
	var spec childSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		t.Fatal(err)
	}
	if err := runChild(spec); err != nil {
		t.Fatal(err)
	}
}

// runChild runs the daemon on the parent's store and mail server until it
// is killed or, settling, until its outbox is empty after stdin closed.
func runChild(spec childSpec) error {
	st, err := store.Open(spec.DB)
	if err != nil {
		return err
	}
	defer st.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The per-sender limit is not under test: a burst of fifty mails a
	// player must not reach it.
	svc, err := New(Config{Store: st, Address: "herald@localhost", Logger: log, PerHour: 1 << 20,
		RetryBackoff: mailbox.ConstantBackoff(20 * time.Millisecond),
		// Maps are drawn after the commit, from the outbox (issue 17): a
		// mail sent again after a kill must carry the same picture.
		Map: fingerprintMap, ArmyMap: func(sc *engine.Scenario, st *engine.State, side engine.Side) ([]byte, error) {
			return fingerprintMap(sc, st, st, []engine.Event{engine.OrdersApplied{Side: side}})
		}})
	if err != nil {
		return err
	}
	fmt.Println("UP") // random kills count from here
	var mu sync.Mutex
	hits := map[string]int{}
	at := func(point string) {
		mu.Lock()
		hits[point]++
		stop := point == spec.Point && hits[point] == spec.Hit
		mu.Unlock()
		if stop {
			fmt.Printf("AT %s\n", point)
			select {} // until SIGKILL
		}
	}
	hooks := &mailbox.Hooks{
		AfterFetch:  func(mailbox.Message) error { at("after-fetch"); return nil },
		AfterCommit: func(mailbox.Message, mailbox.Disposition) error { at("after-commit"); return nil },
		AfterSeen:   func(mailbox.Message, mailbox.Disposition) error { at("after-seen"); return nil },
	}
	in, err := mailbox.NewIntake(mailbox.IntakeConfig{Addr: spec.IMAP, Username: "herald", Password: "h",
		Logger: log, Hooks: hooks, PollInterval: 50 * time.Millisecond,
		ReconnectBackoff: mailbox.ConstantBackoff(20 * time.Millisecond), RetryBackoff: mailbox.ConstantBackoff(20 * time.Millisecond)})
	if err != nil {
		return err
	}
	sender, err := mailbox.NewSender(mailbox.SenderConfig{Addr: spec.SMTP, HELO: "herald.test", Timeout: 5 * time.Second, Logger: log})
	if err != nil {
		return err
	}
	send := func(ctx context.Context, from string, to []string, raw []byte) error {
		err := sender.SendRaw(ctx, from, to, raw)
		if err == nil {
			at("after-send")
		}
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// The parent closes stdin to end a settling child; a crashing
		// one whose parent is gone ends too.
		io.Copy(io.Discard, os.Stdin)
		if !spec.Settle {
			os.Exit(3)
		}
		for {
			if n, err := svc.Pending(); err == nil && n == 0 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return svc.Serve(ctx, in, send, 50*time.Millisecond)
}

// child is a running child daemon.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	at    chan string   // the crash point it stopped at
	up    chan struct{} // closed when its store and service are open
	done  chan error    // its end
}

// startChild runs the daemon as a child process on w's store and mail
// server.
func (w *world) startChild(spec childSpec) *child {
	w.t.Helper()
	spec.DB, spec.IMAP, spec.SMTP = w.dbPath, w.emb.IMAPAddr(), w.emb.SMTPAddr()
	raw, _ := json.Marshal(spec)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	stdout, out := io.Pipe()
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	c := &child{cmd: cmd, stdin: stdin, at: make(chan string, 1), up: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		err := cmd.Wait()
		out.Close()
		c.done <- err
	}()
	w.t.Cleanup(func() { cmd.Process.Kill() }) // a test that failed early
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if sc.Text() == "UP" {
				close(c.up)
			}
			if p, ok := strings.CutPrefix(sc.Text(), "AT "); ok {
				c.at <- p
			}
		}
	}()
	return c
}

// kill ends a child with SIGKILL, as a crash would.
func (c *child) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

// The daemon, a child process on a bbolt file and on the embedded mail
// server kept in this process, is killed with SIGKILL at least 30 times
// while the players of four games keep mailing orders: half the kills at a
// random moment, half at a named crash point (after the fetch, after the
// commit, after \Seen, after the SMTP server accepted a reply), each
// restarted on the same store. In the end every order mail was applied
// once, every reply reached its player, in the order of its game, with no
// notice or refusal, every mail filed as processed, and a reply the SMTP
// server received twice (delivery is at-least-once) is the same mail with
// the same Message-ID.
func TestCrashAtRandomMoments(t *testing.T) {
	const kills = 32
	const games = 4
	var names []string
	for i := range games {
		names = append(names, fmt.Sprintf("en%d", i), fmt.Sprintf("fr%d", i))
	}
	w := newWorld(t, names...)
	ids := make([]string, games)
	w.withStore(func(svc *Service) {
		for i := range games {
			ids[i] = fmt.Sprintf("crecy-k%d", i)
			_, err := svc.CreateGame(NewGame{ID: ids[i], Scenario: "crecy", Players: []PlayerSpec{
				{Side: "English", Address: names[2*i] + "@localhost"}, {Side: "French", Address: names[2*i+1] + "@localhost"}}})
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 15))
	seen := map[string]bool{}
	stops := map[string]int{}
	for k := range kills {
		spec := childSpec{}
		if k%2 == 1 {
			spec.Point, spec.Hit = crashPoints[(k/2)%len(crashPoints)], 1+rng.IntN(3)
		}
		c := w.startChild(spec)
		killAt := time.After(5 * time.Second) // the point never came
		up := c.up
		tick := time.NewTicker(10 * time.Millisecond)
	life:
		for {
			select {
			case <-up:
				up = nil
				if spec.Point == "" {
					killAt = time.After(time.Duration(rng.IntN(300)) * time.Millisecond)
				}
			case p := <-c.at:
				stops[p]++
				break life
			case err := <-c.done:
				t.Fatalf("the daemon stopped by itself: %v", err)
			case <-killAt:
				stops["random"]++
				break life
			case <-tick.C:
				w.deliver(w.replies(seen), false)
			}
		}
		tick.Stop()
		c.kill()
	}
	t.Logf("%d kills: %v", kills, stops)
	for _, p := range crashPoints {
		if stops[p] == 0 {
			t.Errorf("no kill at %s: the daemon never got there during the burst", p)
		}
	}

	// The burst is over: a last daemon reads what is left and sends every
	// reply, and stops.
	deadline := time.Now().Add(30 * time.Second)
	for settled := false; !settled; {
		c := w.startChild(childSpec{Settle: true})
		for w.unseen() > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		c.stdin.Close()
		select {
		case err := <-c.done:
			if err != nil {
				t.Fatalf("the last daemon failed: %v", err)
			}
		case <-time.After(20 * time.Second):
			c.kill()
			t.Fatal("the last daemon did not send its outbox in 20 s")
		}
		settled = w.unseen() == 0
		if time.Now().After(deadline) {
			t.Fatal("Herald did not read its mail in 30 s")
		}
	}

	w.withStore(func(svc *Service) {
		if n, _ := svc.Pending(); n != 0 {
			t.Errorf("%d replies still in the outbox", n)
		}
		total, resent := 0, 0
		for i, id := range ids {
			sent := w.sentBy(names[2*i], names[2*i+1])
			total += sent
			resent += w.checkCrashedGame(svc, id, names[2*i], names[2*i+1], sent)
		}
		// Typically a few: the kills after the SMTP server accepted.
		t.Logf("%d replies received twice, each with its Message-ID", resent)
		if total < kills/2 {
			t.Errorf("only %d order mails during %d kills: not a burst", total, kills)
		}
		t.Logf("%d order mails", total)
	})
	if got := w.unexpected(names...); len(got) != 0 {
		t.Errorf("the players got notices or refusals: %v", got)
	}
	if n := w.count("Rejected"); n != 0 {
		t.Errorf("Herald filed %d mails as rejected", n)
	}
}

// withStore opens the store while no daemon runs, as a service.
func (w *world) withStore(fn func(*Service)) {
	w.t.Helper()
	st, err := store.Open(w.dbPath)
	if err != nil {
		w.t.Fatal(err)
	}
	defer st.Close()
	svc, err := New(Config{Store: st, Address: "herald@localhost", Logger: w.log})
	if err != nil {
		w.t.Fatal(err)
	}
	w.mu.Lock()
	w.svc, w.st = svc, st
	w.mu.Unlock()
	fn(svc)
	w.mu.Lock()
	w.svc, w.st = nil, nil
	w.mu.Unlock()
}

var batchID = regexp.MustCompile(`^(.+)\.(result|gameover)\.b(\d+)-([a-z]+)@localhost$`)

// checkCrashedGame: every order mail sent was applied once (a block of the
// dice log each) and the export verifies; each player received the
// welcome and then every batch's reply in order, first copies counted; and
// copies of a reply, the same Message-ID, are the same mail.
func (w *world) checkCrashedGame(svc *Service, id, english, french string, sent int) (resent int) {
	w.t.Helper()
	s, err := svc.Summary(id)
	if err != nil {
		w.t.Fatal(err)
	}
	if int(s.Chain.Batches) != sent {
		w.t.Errorf("%s: %d order mails sent, %d blocks applied", id, sent, s.Chain.Batches)
	}
	for _, p := range []string{english, french} {
		var order []int
		copies := map[string]string{}
		welcome := false
		for _, m := range w.messages(p, "INBOX") {
			mid := messageIDOf(m.Raw)
			pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
			if err != nil {
				w.t.Fatal(err)
			}
			if first, ok := copies[mid]; ok {
				if first != pm.Subject+"\n"+pm.Text {
					w.t.Errorf("%s: two different mails carry the Message-ID %s", p, mid)
				}
				resent++
				continue
			}
			copies[mid] = pm.Subject + "\n" + pm.Text
			if strings.HasPrefix(mid, id+".welcome.") {
				welcome = true
				continue
			}
			b := batchID.FindStringSubmatch(mid)
			if b == nil || b[1] != id {
				continue
			}
			if !welcome {
				w.t.Errorf("%s: %s came before the welcome", p, mid)
			}
			n, _ := strconv.Atoi(b[3])
			order = append(order, n)
		}
		for i, n := range order {
			if n != i+1 {
				w.t.Errorf("%s received %s's replies in the order %v, want 1 to %d", p, id, order, sent)
				break
			}
		}
		if len(order) != sent {
			w.t.Errorf("%s received %d of %s's %d replies", p, len(order), id, sent)
		}
	}
	f := &fixture{t: w.t, svc: svc, game: id}
	f.verify()
	return resent
}

// fingerprintMap is a small picture that differs for every state and
// block it is drawn for, so that a mail sent again with another map shows.
func fingerprintMap(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
	h := sha256.New()
	h.Write([]byte(sc.ID))
	h.Write(before.Encode())
	h.Write(after.Encode())
	for _, e := range events {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			return nil, err
		}
		h.Write(b)
	}
	sum := h.Sum(nil)
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 16 {
		img.Set(i%4, i/4, color.RGBA{sum[i], sum[i+16], sum[i] ^ sum[i+16], 0xff})
	}
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}
