package games

import (
	"fmt"
	"testing"
	"time"

	"herald/pbem/mailbox"
)

// Fifty games on one daemon and one mailbox, their mails interleaved in
// Herald's INBOX, some sent twice at once (a client that retries) and some
// delivered again later (a server restored from a backup): every order
// mail is applied exactly once, in its own game only, every result reaches
// both players, and every game is its orders applied hot-seat with the
// same dice (checkGameOf: the export verifies block by block through the
// engine, and the stored state is the state that replay reached). Every
// copy is recognised as one, not merely refused as stale: it is filed as
// the first was and its sender gets no answer to it.
func TestFiftyGamesInterleaved(t *testing.T) {
	const games, rounds = 50, 6
	w, names := newManyWorld(t, games, 0, nil)
	seen := map[string]bool{}
	copies := map[string]int{} // deliveries of each order mail, by Message-ID
	count := func(raws [][]byte, times int) {
		for _, raw := range raws {
			copies[messageIDOf(raw)] += times
		}
	}
	for round := range rounds {
		w.settle()
		// Each round the players answer in a new order (map order), so
		// the games' mails interleave differently in Herald's INBOX.
		replies := w.replies(seen)
		if len(replies) != games {
			t.Fatalf("round %d: %d order mails, want one per game (%d)", round, len(replies), games)
		}
		dup := round%2 == 1
		w.deliver(replies, dup)
		count(replies, map[bool]int{false: 1, true: 2}[dup])
		switch round {
		case 2:
			w.settle()
			count(w.redeliver("Processed", 3), 1)
		case 4:
			w.settle()
			count(w.redeliver("Processed", 7), 1)
			count(w.redeliver("Rejected", 5), 1)
		}
	}
	w.settle()
	if w.crashed() {
		t.Fatal("the daemon stopped")
	}
	extra, repeated := 0, 0
	for _, n := range copies {
		extra += n - 1
		if n > 1 {
			repeated++
		}
	}
	t.Logf("%d games, %d order mails, %d of them delivered more than once, %d extra copies", games, len(copies), repeated, extra)

	total := 0
	for i := range games {
		n := w.sentBy(names[2*i], names[2*i+1])
		if n != rounds {
			t.Errorf("%s: %d order mails, want %d", manyGame(i), n, rounds)
		}
		total += n
		w.checkGameOf(manyGame(i), names[2*i], names[2*i+1], n)
	}
	if total != len(copies) {
		t.Errorf("the players sent %d order mails, Herald received %d different ones", total, len(copies))
	}
	// Herald filed each order mail and every copy as processed.
	processed, rejected := w.filed("Processed", total+extra), w.count("Rejected")
	if processed != total+extra || rejected != 0 {
		t.Errorf("Herald filed %d mails as processed and %d as rejected, want %d and none", processed, rejected, total+extra)
	}
	if got := w.unexpected(names...); len(got) != 0 {
		t.Errorf("the players got %d notices or refusals: %v", len(got), got)
	}
}

// newManyWorld runs a daemon with games between distinct pairs of
// players: game i (manyGame) between names[2i], the English, and
// names[2i+1]. perHour is the per-sender limit (0: the default).
func newManyWorld(tb testing.TB, games, perHour int, configure func(*Config)) (w *world, names []string) {
	for i := range games {
		names = append(names, fmt.Sprintf("en%02d", i), fmt.Sprintf("fr%02d", i))
	}
	w = newWorld(tb, names...)
	// Each game's players vary their moves (Autoplayer.Vary): games
	// played the same way would reach the same positions, and with maps
	// on the outbox would draw one map for them all (drawnMaps).
	for i := range games {
		w.players[names[2*i]].Vary, w.players[names[2*i+1]].Vary = i, i
	}
	w.perHour = perHour
	w.configure = configure
	w.start(nil)
	for i := range games {
		w.newGame(manyGame(i), names[2*i], names[2*i+1])
	}
	return w, names
}

func manyGame(i int) string { return fmt.Sprintf("crecy-m%02d", i) }

// sentBy counts the order mails the players sent.
func (w *world) sentBy(players ...string) int {
	n := 0
	for _, p := range players {
		ap := w.players[p]
		ap.mu.Lock()
		n += ap.sent
		ap.mu.Unlock()
	}
	return n
}

// count is the number of mails in one of Herald's mailboxes.
func (w *world) count(box string) int { return len(w.messages("herald", box)) }

// filed is count(box) once it is want, or after 5 s: settle returns when
// no mail is unread and no reply waits, but Intake flags a batch \Seen
// before it moves it (session.file), so the last batch's move may still
// be under way.
func (w *world) filed(box string, want int) int {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if n := w.count(box); n == want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// messages reads a user's mailbox.
func (w *world) messages(user, box string) []mailbox.StoredMessage {
	w.t.Helper()
	msgs, err := w.emb.Messages(user, box)
	if err != nil {
		w.t.Fatal(err)
	}
	return msgs
}

// redeliver puts every step-th mail Herald has filed in a mailbox back
// into its INBOX, and returns them.
func (w *world) redeliver(box string, step int) [][]byte {
	w.t.Helper()
	msgs := w.messages("herald", box)
	var raws [][]byte
	for i := 0; i < len(msgs); i += step {
		raws = append(raws, msgs[i].Raw)
	}
	w.deliver(raws, false)
	return raws
}
