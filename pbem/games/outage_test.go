package games

import (
	"testing"
	"time"
)

// The mail servers fail under a running daemon: the IMAP server goes away
// while the players' orders arrive, the SMTP server refuses while Herald
// has replies to send, and then both at once. Nothing is lost: every order
// mail is applied exactly once and every reply is delivered after recovery.
func TestIMAPAndSMTPOutages(t *testing.T) {
	players := [][2]string{{"alice", "bob"}, {"carol", "dave"}}
	w := newWorld(t, "alice", "bob", "carol", "dave")
	w.start(nil)
	ids := []string{"crecy-out1", "crecy-out2"}
	for i, p := range players {
		w.newGame(ids[i], p[0], p[1])
	}
	const refusing = 1 << 30
	seen := map[string]bool{}
	for round := range 8 {
		w.settle()
		switch round {
		case 2:
			// The IMAP server is down while the orders arrive: Herald
			// can read nothing, and reads them all once it is back.
			replies := w.replies(seen)
			before := w.blocks(ids)
			w.outage(func() { w.deliver(replies, false) })
			if w.blocks(ids) != before {
				t.Fatal("Herald applied orders while its IMAP server was down")
			}
		case 4:
			// The SMTP server refuses: the orders are applied, and the
			// replies wait in the outbox until it accepts again.
			w.refuseSMTP(refusing)
			n := w.play(seen, false)
			w.waitProcessed(2 * n)
			time.Sleep(200 * time.Millisecond) // Herald retries meanwhile
			if w.refuse.Load() == refusing {
				t.Fatal("Herald never tried to send while the SMTP server refused")
			}
			w.refuseSMTP(0)
		case 6:
			// Both: the SMTP server refuses the replies to the first
			// game's orders, then the whole server goes away while the
			// second game's orders arrive, and comes back still refusing.
			replies := w.replies(seen)
			if len(replies) != len(ids) {
				t.Fatalf("%d order mails, want one per game", len(replies))
			}
			w.refuseSMTP(refusing)
			w.deliver(replies[:1], false)
			w.waitProcessed(2)
			w.outage(func() { w.deliver(replies[1:], false) })
			w.waitProcessed(4)
			time.Sleep(200 * time.Millisecond)
			w.refuseSMTP(0)
		default:
			w.play(seen, false)
		}
	}
	w.settle()
	if w.crashed() {
		t.Fatal("the daemon stopped")
	}
	total := 0
	for i, p := range players {
		n := w.sentBy(p[0], p[1])
		if n != 8 {
			t.Errorf("%s: %d order mails, want 8", ids[i], n)
		}
		total += n
		w.checkGameOf(ids[i], p[0], p[1], n)
	}
	if got := w.filed("Processed", total); got != total {
		t.Errorf("Herald filed %d mails as processed, want %d", got, total)
	}
	if got := w.unexpected("alice", "bob", "carol", "dave"); len(got) != 0 {
		t.Errorf("the players got notices or refusals: %v", got)
	}
}

// outage stops the mail server, runs meanwhile while it is down, lets
// Herald's reconnection attempts and sends fail for a while, and starts it
// again.
func (w *world) outage(meanwhile func()) {
	w.t.Helper()
	if err := w.emb.Close(); err != nil {
		w.t.Fatal(err)
	}
	meanwhile()
	time.Sleep(300 * time.Millisecond)
	if w.crashed() {
		w.t.Fatal("the daemon stopped while the mail server was down")
	}
	if err := w.emb.Start(); err != nil {
		w.t.Fatal(err)
	}
}

// waitProcessed waits until Herald has read all its mail and holds n
// replies in its outbox.
func (w *world) waitProcessed(n int) {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for w.unseen() > 0 || w.pending() < n {
		if time.Now().After(deadline) {
			w.t.Fatalf("Herald did not process its mail in 20 s (%d replies waiting, want %d)", w.pending(), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p := w.pending(); p != n {
		w.t.Fatalf("%d replies waiting, want %d", p, n)
	}
}

// blocks counts the order blocks applied in games.
func (w *world) blocks(ids []string) uint64 {
	w.t.Helper()
	var n uint64
	for _, id := range ids {
		s, err := w.service().Summary(id)
		if err != nil {
			w.t.Fatal(err)
		}
		n += s.Chain.Batches
	}
	return n
}
