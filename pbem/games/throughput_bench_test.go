package games

import (
	"fmt"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"herald/engine"
	"herald/mapimg"
	"herald/pbem/mailbox"
	"herald/pbem/store"
)

// Issue 17's throughput and latency benchmarks (docs/performance.md,
// "Throughput and latency (issue 17)"):
//
//	go test -run '^$' -bench 'MailEndToEnd|BareMailLoop' -count 6 ./pbem/games/ | tee /tmp/e2e.txt
//	go test -run '^$' -bench 'HandleMail' -count 6 ./pbem/games/ | tee /tmp/flat.txt
//	go test -run '^$' -bench 'MailLatency' -count 6 ./pbem/games/ | tee /tmp/latency.txt

// TestMain removes, after every test and benchmark, the stores
// BenchmarkHandleMail made once for all its runs.
func TestMain(m *testing.M) {
	code := m.Run()
	removeManyStores()
	os.Exit(code)
}

// mapsDrawn counts the result maps productionMaps drew: the throughput
// benchmarks report how many a mail took (drawnMaps draws one map for
// both players' mails, and none for a block whose map was drawn for
// another game, as happens when games make the very same moves).
var mapsDrawn atomic.Int64

// productionMaps gives a service the maps herald serve draws
// (cmd/herald/command/maps.go, mapFunc and armyMapFunc, which this
// package cannot import): the result mail's crop and each army's map of
// the welcome.
func productionMaps(cfg *Config) {
	cfg.Map = func(sc *engine.Scenario, before, after *engine.State, events []engine.Event) ([]byte, error) {
		mapsDrawn.Add(1)
		return mapimg.PNG(sc, after, mapimg.ForMail(mapimg.Marks(sc, before, after, events)))
	}
	cfg.ArmyMap = func(sc *engine.Scenario, st *engine.State, side engine.Side) ([]byte, error) {
		return mapimg.PNG(sc, st, mapimg.ForArmy(sc, st, side))
	}
}

// BenchmarkMailEndToEndMaps is BenchmarkMailEndToEnd with the maps of
// herald serve on: every result mail carries its crop of the battlefield,
// drawn by the outbox after the commit (once for both players' mails).
// Run it with BenchmarkBareMailLoop and BenchmarkMailEndToEnd: the ratio
// to the bare loop is only meaningful within one run.
func BenchmarkMailEndToEndMaps(b *testing.B) {
	const games = 20
	w, _ := newManyWorld(b, games, 1<<20, productionMaps)
	mailRounds(b, w, games, 4, 60*time.Second)
}

// BenchmarkMailLatency measures one order mail on an idle daemon, maps on
// (herald serve's), IDLE on the embedded IMAP server over loopback: from
// the mail landing in Herald's INBOX to the SMTP server accepting the
// first reply (the sender's, "first") and both ("both"). The daemon has
// settled before each mail: nothing is unread, nothing waits in the
// outbox. p50-ms and p90-ms are over the iterations of one run; ns/op is
// their mean.
func BenchmarkMailLatency(b *testing.B) {
	w := newWorld(b, "alice", "bob")
	w.perHour = 1 << 20
	w.configure = productionMaps
	accepted := make(chan time.Time, 16)
	w.smtp = func(stage mailbox.SMTPStage, _ string) error {
		if stage == mailbox.SMTPData {
			accepted <- time.Now()
		}
		return nil
	}
	w.start(nil)
	w.newGame("crecy-latency", "alice", "bob")
	seen := map[string]bool{}
	var first, both []time.Duration
	wait := func() time.Time {
		select {
		case t := <-accepted:
			return t
		case <-time.After(30 * time.Second):
			b.Fatal("no reply accepted in 30 s")
			return time.Time{}
		}
	}
	for b.Loop() {
		b.StopTimer()
		w.settle()
		for len(accepted) > 0 {
			<-accepted
		}
		replies := w.replies(seen)
		if len(replies) != 1 {
			b.Fatalf("%d order mails, want 1", len(replies))
		}
		// An idle daemon: its last mails gone, IDLE waiting.
		time.Sleep(20 * time.Millisecond)
		b.StartTimer()
		t0 := time.Now()
		w.deliver(replies, false)
		t1 := wait()
		t2 := wait()
		first = append(first, t1.Sub(t0))
		both = append(both, t2.Sub(t0))
	}
	b.ReportMetric(ms(percentile(first, 50)), "first-p50-ms")
	b.ReportMetric(ms(percentile(both, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(both, 90)), "p90-ms")
}

// percentile is the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkHandleMailLongGame is BenchmarkHandleMail in a game of 5,000
// events or more (its snapshot read, its events appended): the cost per
// mail must not grow with the game's length. A game that ends meanwhile
// is followed by another played to 5,000 events before the timer goes
// on.
func BenchmarkHandleMailLongGame(b *testing.B) {
	const events = 5000
	f := newFixture(b)
	f.longGame(events)
	raw := f.pendingOrders()
	players := map[string]*Autoplayer{alice: {Address: alice}, bob: {Address: bob}}
	b.ReportAllocs()
	for b.Loop() {
		if out := f.handle(raw); out.Status != "applied" {
			b.Fatalf("outcome %+v", out)
		}
		b.StopTimer()
		long := f.game
		if raw = f.autoplay(players); f.game != long { // the long game is over
			f.longGame(events)
			raw = f.pendingOrders()
		}
		b.StartTimer()
	}
	b.StopTimer()
	err := f.st.View(func(tx *store.Tx) error {
		snap, err := tx.State(f.game)
		if err == nil && snap.Events < events {
			err = fmt.Errorf("%d events", snap.Events)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}

// pendingOrders is the order mail of the side the game waits for, chosen
// as the Autoplayer does from what the engine allows.
func (f *fixture) pendingOrders() []byte {
	f.t.Helper()
	var from string
	var lines []string
	err := f.st.View(func(tx *store.Tx) error {
		g, err := f.svc.load(tx, f.game)
		if err != nil {
			return err
		}
		var legal []string
		for _, l := range engine.Legal(g.sc, g.st) {
			if !placeholder.MatchString(l) {
				legal = append(legal, l)
			}
		}
		if g.st.Phase == engine.PhaseOver {
			return fmt.Errorf("the game is over")
		}
		from = g.player(g.st.Pending.Side)
		lines = (&Autoplayer{}).choose(legal, nil)
		return nil
	})
	if err != nil || from == "" {
		f.t.Fatalf("no pending side: %v", err)
	}
	return f.orders(from, "", lines...)
}
