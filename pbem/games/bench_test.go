package games

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"herald/engine"
	"herald/pbem/store"
)

// The daemon's benchmarks (docs/performance.md, "Mail daemon"):
//
//	go test -run '^$' -bench . -count 6 ./pbem/games/ | tee /tmp/games-bench.txt
//	benchstat /tmp/games-bench.txt

// BenchmarkMailEndToEnd measures order mails through the whole daemon on
// the embedded servers over loopback: each round, one order mail per game
// lands in Herald's INBOX and the round ends when the SMTP server has
// accepted both players' replies to each, so the time covers fetch, parse,
// apply, commit, the IMAP flag and move, and send. The players reading
// their mail and writing their orders is not timed.
func BenchmarkMailEndToEnd(b *testing.B) {
	const games = 20
	w, _ := newManyWorld(b, games, 1<<20, nil)
	mailRounds(b, w, games, 0, 20*time.Second)
}

// mailRounds times rounds of one order mail per game through the daemon
// of w, each until SMTP has accepted both replies to every mail, and
// reports mails/s and ns/mail, the cores the process kept busy meanwhile
// (its CPU time over the time, of 2 on the 2-core machine: how much of
// the machine the daemon's pipeline uses), and with maps on how many
// maps a mail took. The first warm rounds are not timed: games that
// start from one position make the same first moves, whose maps the
// outbox draws once for them all (drawnMaps), which a club's games at
// their own positions would not.
func mailRounds(b *testing.B, w *world, games, warm int, timeout time.Duration) {
	seen, last := map[string]bool{}, map[string]uint32{}
	for range warm {
		mailRound(b, w, games, seen, last, timeout)
	}
	mails, drawn := 0, mapsDrawn.Load()
	var cpu time.Duration
	for b.Loop() {
		n, c := mailRound(b, w, games, seen, last, timeout)
		mails, cpu = mails+n, cpu+c
	}
	b.ReportMetric(float64(cpu)/float64(b.Elapsed()), "cores")
	b.ReportMetric(float64(mails)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(mails), "ns/mail")
	b.ReportMetric(0, "ns/op")
	if n := mapsDrawn.Load() - drawn; n > 0 {
		b.ReportMetric(float64(n)/float64(mails), "maps/mail")
	}
}

// mailRound delivers the players' answers to the mails Herald sent since
// the round before, one per game, and waits until SMTP has accepted both
// replies to each; only the delivering and the waiting are timed. It
// gives the mails and the process's CPU time while timed.
func mailRound(b *testing.B, w *world, games int, seen map[string]bool, last map[string]uint32, timeout time.Duration) (int, time.Duration) {
	b.StopTimer()
	w.settle()
	replies := w.repliesAfter(seen, last)
	if len(replies) != games {
		b.Fatalf("%d order mails, want one per game (%d)", len(replies), games)
	}
	want := w.accepted.Load() + int64(2*len(replies))
	b.StartTimer()
	c0 := processCPU()
	w.deliver(replies, false)
	deadline := time.Now().Add(timeout)
	for w.accepted.Load() < want {
		if time.Now().After(deadline) || w.crashed() {
			b.Fatalf("%d of %d replies sent", w.accepted.Load(), want)
		}
		time.Sleep(time.Millisecond)
	}
	return len(replies), processCPU() - c0
}

// BenchmarkHandleMail measures one order mail (parse, authenticate, apply,
// render both replies, commit) in a store holding one game, a thousand or
// ten thousand: the cost per mail must not grow with the number of games.
// The stores of many games are made once per test binary (ten thousand
// games take a minute or two) and copied for each run (-count).
func BenchmarkHandleMail(b *testing.B) {
	for _, n := range []int{1, 1000, 10000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			f := manyGamesFixture(b, n)
			players := map[string]*Autoplayer{alice: {Address: alice}, bob: {Address: bob}}
			raw := f.orders(bob, "", "ACTIVATE Doria", "END")
			b.ReportAllocs()
			searched := reachHintStates.Load()
			var cpu time.Duration
			for b.Loop() {
				c0 := processCPU()
				if out := f.handle(raw); out.Status != "applied" {
					b.Fatalf("outcome %+v", out)
				}
				cpu += processCPU() - c0
				b.StopTimer()
				raw = f.autoplay(players)
				b.StartTimer()
			}
			// The mails whose result asks the sender for his Command's
			// orders carry Reach hints (reachHints): how many do.
			b.ReportMetric(float64(reachHintStates.Load()-searched)/float64(b.N), "reach-states/op")
			// The CPU a mail takes, every thread's, user and system: it
			// tells work that grows with the number of games from time
			// spent waiting on the disk, which on a shared machine
			// varies from one run to the next.
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// manyStores are the stores of manyGamesFixture, by number of games,
// made once per test binary and removed by TestMain.
var manyStores = map[int]*fixture{}

// manyGamesFixture is a fixture whose store holds n games, its own (no
// order played yet) and n-1 others, every welcome sent.
func manyGamesFixture(b *testing.B, n int) *fixture {
	b.Helper()
	if tmpl := manyStores[n]; tmpl != nil {
		path := filepath.Join(b.TempDir(), "herald.db")
		if err := copyFile(path, tmpl.st.Path()); err != nil {
			b.Fatal(err)
		}
		st, err := store.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		f := &fixture{t: b, st: st, game: tmpl.game, keys: maps.Clone(tmpl.keys), clock: tmpl.clock, n: tmpl.n}
		f.svc = f.service()
		return f
	}
	f := newFixture(b)
	for i := 1; i < n; i++ {
		_, err := f.svc.CreateGame(crecyGame(fmt.Sprintf("crecy-%04d", i)))
		if err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			// The welcomes go out as the daemon would send
			// them, soon after; a thousand of them deleted at
			// once would leave bbolt a long freelist to write
			// at every commit, whatever the number of games.
			// (Not composed: nobody reads them.)
			f.dropOutbox()
		}
	}
	f.dropOutbox()
	if n > 1 {
		dir, err := os.MkdirTemp("", "herald-bench-")
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, "herald.db")
		if err := copyFile(path, f.st.Path()); err != nil {
			os.RemoveAll(dir)
			b.Fatal(err)
		}
		st, err := store.Open(path)
		if err != nil {
			os.RemoveAll(dir)
			b.Fatal(err)
		}
		manyStores[n] = &fixture{st: st, game: f.game, keys: maps.Clone(f.keys), clock: f.clock, n: f.n}
	}
	return f
}

// dropOutbox records every mail of the outbox as delivered, unread.
func (f *fixture) dropOutbox() {
	f.t.Helper()
	err := f.st.Update(func(tx *store.Tx) error { return tx.DeliveredAll() })
	if err != nil {
		f.t.Fatal(err)
	}
}

// removeManyStores removes the stores of manyGamesFixture.
func removeManyStores() {
	for _, f := range manyStores {
		dir := filepath.Dir(f.st.Path()) // bbolt forgets it at Close
		f.st.Close()
		os.RemoveAll(dir)
	}
}

// copyFile copies the file src to dst, a new file.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		// On disk before the benchmark: else the first commit's fsync,
		// and the writeback behind the next ones, write the whole copy.
		err = out.Sync()
	}
	if err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// autoplay hands the mails in the outbox to the players and returns the
// order mail one of them answers with. When the battle has ended, none
// is asked for orders: the players start another game (a benchmark of
// hundreds of mails plays one to its end).
func (f *fixture) autoplay(players map[string]*Autoplayer) []byte {
	f.t.Helper()
	raw := f.answers(players)
	if raw == nil && f.summary().Record.Over {
		f.games++
		g, err := f.svc.CreateGame(crecyGame(fmt.Sprintf("crecy-next-%d", f.games)))
		if err != nil {
			f.t.Fatal(err)
		}
		f.game = g.ID
		f.learnKeys()
		raw = f.answers(players)
	}
	if raw == nil {
		f.t.Fatal("no player was asked for orders")
	}
	// Two minutes a mail keeps each player within the hourly limit.
	f.clock = f.clock.Add(2 * time.Minute)
	return raw
}

// answers hands the mails in the outbox to the players and returns the
// order mail one of them answers with, or nil.
func (f *fixture) answers(players map[string]*Autoplayer) []byte {
	var raw []byte
	for _, m := range f.deliverAll() {
		if r := answer(f.t, players[m.to], m.raw); r != nil {
			raw = r
		}
	}
	return raw
}

// BenchmarkLoadGame loads a game of 2,000 events for a mail: from its
// snapshot, as Herald does (Service.load), or by decoding and folding
// every stored event from the opening position.
func BenchmarkLoadGame(b *testing.B) {
	f := newFixture(b)
	f.longGame(2000)
	f.verify() // the snapshot is the fold of the events
	var sc *engine.Scenario
	b.Run("snapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			err := f.st.View(func(tx *store.Tx) error {
				g, err := f.svc.load(tx, f.game)
				sc = g.sc
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			err := f.st.View(func(tx *store.Tx) error {
				_, err := replayEvents(tx, sc, f.game)
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// longGame plays the fixture's game until it holds at least events
// events, choosing orders as the Autoplayer does from what the engine
// allows, all in one transaction.
func (f *fixture) longGame(events uint64) {
	f.t.Helper()
	ap := &Autoplayer{}
	err := f.st.Update(func(tx *store.Tx) error {
		g, err := f.svc.load(tx, f.game)
		if err != nil {
			return err
		}
		for i := 0; ; i++ {
			snap, err := tx.State(f.game)
			if err != nil || snap.Events >= events {
				return err
			}
			var legal []string
			for _, l := range engine.Legal(g.sc, g.st) {
				if !placeholder.MatchString(l) {
					legal = append(legal, l)
				}
			}
			lines := engine.SplitLines(strings.Join(ap.choose(legal, nil), "\n"))
			orders, err := engine.ParseOrders(lines)
			if err != nil {
				return err
			}
			b := block{side: g.st.Pending.Side, orders: orders, lines: lineMap(lines), messageID: fmt.Sprintf("long-%d@test.example", i)}
			if err := f.svc.play(tx, g, b); err != nil {
				return err
			}
		}
	})
	if err != nil {
		f.t.Fatal(err)
	}
	f.deliverAll()
}

// processCPU is the CPU time the process has used so far, user and
// system, on every thread.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
