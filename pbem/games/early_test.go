package games

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// composer is a compose for early whose mail is its record's bytes, and
// which counts what it composed; records beginning "block" wait for
// release.
type composer struct {
	mu      sync.Mutex
	made    map[string]int
	release chan struct{}
}

func newComposer() *composer {
	return &composer{made: map[string]int{}, release: make(chan struct{})}
}

func (c *composer) compose(entry []byte) composed {
	if strings.HasPrefix(string(entry), "block") {
		<-c.release
	}
	c.mu.Lock()
	c.made[string(entry)]++
	c.mu.Unlock()
	if string(entry) == "broken" {
		return composed{err: errors.New("cannot compose")}
	}
	return composed{raw: append([]byte("mail of "), entry...)}
}

func (c *composer) times(entry string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made[entry]
}

// takeEarly is early.take of entry id with that record, failing the
// test if it waits more than a few seconds.
func takeEarly(t *testing.T, e *early, id uint64, record string) (composed, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, ok := e.take(ctx, store.OutboxEntry{ID: id, Mail: []byte(record)})
	if ctx.Err() != nil {
		t.Fatalf("take of entry %d waited 5 s", id)
	}
	return c, ok
}

// composedEarly waits until entry id's mail is composed.
func composedEarly(t *testing.T, e *early, id uint64) {
	t.Helper()
	e.mu.Lock()
	m := e.mails[id]
	e.mu.Unlock()
	if m == nil {
		t.Fatalf("entry %d was not offered", id)
	}
	select {
	case <-m.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("entry %d was not composed in 5 s", id)
	}
}

// started waits until entries 0 to n-1 are being composed.
func started(t *testing.T, e *early, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.mu.Lock()
		all := true
		for id := range n {
			all = all && e.mails[uint64(id)].started
		}
		e.mu.Unlock()
		if all {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first %d entries were not all taken up in 5 s", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A mail is composed early only while an outbox loop runs, once, and
// handed to the outbox only for the record it was composed from: a
// different record under the same entry (its transaction rolled back and
// the id went to another mail) is composed anew by the outbox.
func TestEarlyMailOnlyForItsRecord(t *testing.T) {
	c := newComposer()
	e := early{compose: c.compose}
	e.offer(1, []byte("one"))
	if _, ok := takeEarly(t, &e, 1, "one"); ok || c.times("one") != 0 {
		t.Fatalf("composed with no outbox loop running (%d times)", c.times("one"))
	}

	stop := e.sending()
	e.offer(2, []byte("two"))
	composedEarly(t, &e, 2)
	got, ok := takeEarly(t, &e, 2, "two")
	if !ok || string(got.raw) != "mail of two" || c.times("two") != 1 {
		t.Errorf("entry 2: %q, %v, composed %d times; want its mail, composed once", got.raw, ok, c.times("two"))
	}
	if _, ok := takeEarly(t, &e, 2, "two"); ok {
		t.Error("entry 2 was handed out twice")
	}

	e.offer(3, []byte("three"))
	composedEarly(t, &e, 3)
	if _, ok := takeEarly(t, &e, 3, "other"); ok {
		t.Error("the mail of record \"three\" was handed out for record \"other\"")
	}

	e.offer(4, []byte("rolled back"))
	e.offer(4, []byte("four"))
	composedEarly(t, &e, 4)
	if got, ok := takeEarly(t, &e, 4, "four"); !ok || string(got.raw) != "mail of four" {
		t.Errorf("entry 4 after its id was reused: %q, %v; want the new record's mail", got.raw, ok)
	}

	e.offer(5, []byte("broken"))
	composedEarly(t, &e, 5)
	if _, ok := takeEarly(t, &e, 5, "broken"); ok {
		t.Error("a mail that failed to compose was handed out: the outbox must compose it and report why")
	}

	stop()
	e.offer(6, []byte("six"))
	if _, ok := takeEarly(t, &e, 6, "six"); ok {
		t.Error("composed after the outbox loop stopped")
	}
}

// A mail still queued when the outbox asks for it is the outbox's to
// compose at once, and no worker composes it after; a mail being
// composed is waited for. At most earlyMost mails wait to be sent.
func TestEarlyQueueAndBound(t *testing.T) {
	c := newComposer()
	e := early{compose: c.compose}
	defer e.sending()()
	workers := runtime.GOMAXPROCS(0)
	for i := range workers {
		e.offer(uint64(i), fmt.Appendf(nil, "block%d", i))
	}
	started(t, &e, workers) // every worker waits in a "block" mail
	e.offer(100, []byte("queued"))
	if _, ok := takeEarly(t, &e, 100, "queued"); ok {
		t.Fatal("a mail still queued was waited for")
	}
	for i := range earlyMost + 5 {
		e.offer(uint64(200+i), fmt.Appendf(nil, "block-later%d", i))
	}
	e.mu.Lock()
	waiting := len(e.mails)
	e.mu.Unlock()
	if waiting != earlyMost {
		t.Errorf("%d mails wait, want at most earlyMost (%d)", waiting, earlyMost)
	}
	close(c.release)
	for i := range workers {
		record := fmt.Sprintf("block%d", i)
		if got, ok := takeEarly(t, &e, uint64(i), record); !ok || string(got.raw) != "mail of "+record {
			t.Errorf("entry %d, being composed: %q, %v; want it waited for", i, got.raw, ok)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.mu.Lock()
		idle := e.workers == 0
		e.mu.Unlock()
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the workers did not finish the queue")
		}
		time.Sleep(time.Millisecond)
	}
	if n := c.times("queued"); n != 0 {
		t.Errorf("the mail the outbox took from the queue was composed early too (%d times)", n)
	}
}

// The running daemon sends mails composed while their transaction ran,
// over sendConnections connections at once: ten games' welcomes, created
// one after another, reach every player, and SMTP sees two messages in
// flight at a time (its MAIL hook holds each a moment) over no more
// connections than that.
func TestDaemonComposesEarly(t *testing.T) {
	const games = 10
	w := newWorld(t, "alice", "bob")
	var mu sync.Mutex
	inFlight, most, hellos := 0, 0, 0
	w.smtp = func(stage mailbox.SMTPStage, _ string) error {
		mu.Lock()
		switch stage {
		case mailbox.SMTPHello:
			hellos++
		case mailbox.SMTPMail:
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			inFlight--
		}
		mu.Unlock()
		return nil
	}
	w.start(nil)
	before := earlySent.Load()
	for i := range games {
		w.newGame(fmt.Sprintf("crecy-e%02d", i), "alice", "bob")
	}
	w.settle()
	if n := w.pending(); n != 0 {
		t.Fatalf("%d mails still wait", n)
	}
	for _, p := range []string{"alice", "bob"} {
		if got := len(w.messages(p, "INBOX")); got != games {
			t.Errorf("%s received %d welcomes, want %d", p, got, games)
		}
	}
	if n := earlySent.Load() - before; n == 0 {
		t.Errorf("none of the %d welcomes was composed early", 2*games)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != sendConnections || hellos > sendConnections {
		t.Errorf("%d mails in flight at most over %d connections, want %d over at most %d", most, hellos, sendConnections, sendConnections)
	}
}
