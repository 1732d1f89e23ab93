package games

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"herald/pbem"
	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

// ladderWorld is the daemon on the embedded mail servers with a fake
// clock, for ladders: the organizer "org", the observer "obs" and six
// members p1…p6, all scripted players.
type ladderWorld struct {
	*world
	now atomic.Int64 // the fake clock, Unix nanoseconds
	n   int
}

func (lw *ladderWorld) clock() time.Time { return time.Unix(0, lw.now.Load()).UTC() }

func newLadderWorld(t *testing.T) *ladderWorld {
	members := []string{"org", "obs", "p1", "p2", "p3", "p4", "p5", "p6"}
	lw := &ladderWorld{world: newWorld(t, members...)}
	lw.now.Store(epoch.UnixNano())
	lw.configure = func(c *Config) {
		c.Now = lw.clock
		c.ClockTick = time.Hour // the test ticks; the loop only at start
		c.OutageGrace = 2 * time.Hour
	}
	lw.start(nil)
	return lw
}

// inbox reads a user's mails, each once by Message-ID (the outbox may
// send a mail again after a crash: at least once, never lost).
func (lw *ladderWorld) inbox(user string) map[string]*pbem.Mail {
	lw.t.Helper()
	out := map[string]*pbem.Mail{}
	for _, m := range lw.messages(user, "INBOX") {
		pm, err := pbem.ReadMail(m.Raw, pbem.ReadOptions{MaxBytes: 32 << 20})
		if err != nil {
			lw.t.Fatal(err)
		}
		out[strings.Trim(pm.MessageID, "<>")] = pm
	}
	return out
}

// count is how many distinct mails user received whose Message-ID holds
// every one of parts.
func (lw *ladderWorld) count(user string, parts ...string) int {
	n := 0
	for id := range lw.inbox(user) {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(id, p)
		}
		if all {
			n++
		}
	}
	return n
}

// command mails Herald a block of ladder commands from user.
func (lw *ladderWorld) command(user, key string, lines ...string) {
	lw.t.Helper()
	lw.n++
	b := templates.OrderBlock{GameID: "ladder-club", Move: 0, Key: key, Prefill: lines}
	raw, err := mailbox.Compose(mailbox.Outgoing{From: user + "@localhost", To: []string{"herald+ladder-club@localhost"},
		Subject: "Re: [ladder-club] commands", Date: lw.clock(), MessageID: fmt.Sprintf("cmd%d.%s@localhost", lw.n, user), Text: b.Text()})
	if err != nil {
		lw.t.Fatal(err)
	}
	lw.deliver([][]byte{raw}, false)
	lw.settle()
}

// keyOf reads user's ladder key from the welcome Herald mailed him.
func (lw *ladderWorld) keyOf(user string) string {
	lw.t.Helper()
	for id, m := range lw.inbox(user) {
		if strings.HasPrefix(id, "ladder-club.welcome.") {
			blocks, _ := pbem.FindBlocks(m.Text)
			if len(blocks) == 1 && blocks[0].Key != "" {
				return blocks[0].Key
			}
		}
	}
	lw.t.Fatalf("%s has no ladder welcome with a key", user)
	return ""
}

// reply is the last "Done"/"refused" answer user got about the ladder.
func (lw *ladderWorld) replies(user string) string {
	var b strings.Builder
	for id, m := range lw.inbox(user) {
		if strings.Contains(id, ".done.") || strings.Contains(id, ".refused.") {
			b.WriteString(m.Text)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// tickTo moves the fake clock to t an hour at a time, ticking at each
// step as the running daemon does (a longer gap between two heartbeats
// would be an outage, not charged), and returns the notices handled.
func (lw *ladderWorld) tickTo(t time.Time) int {
	lw.t.Helper()
	n := 0
	for lw.clock().Before(t) {
		next := min(lw.clock().Add(time.Hour).UnixNano(), t.UnixNano())
		lw.now.Store(next)
		k, err := lw.service().Tick(lw.clock())
		if err != nil {
			lw.t.Fatal(err)
		}
		n += k
	}
	return n
}

// crash stops the daemon at once, without waiting for its outbox, and
// starts it again on the same store file.
func (lw *ladderWorld) crash() {
	lw.t.Helper()
	lw.kill()
	lw.start(nil)
}

func (lw *ladderWorld) ladder() *ladder.Ladder {
	lw.t.Helper()
	l, err := lw.service().Ladder("club")
	if err != nil {
		lw.t.Fatal(err)
	}
	return l
}

// TestLadderDaemon: a ladder of six members plays a round by mail over
// real IMAP and SMTP; the organizer adjudicates two games by mail; in the
// third a clock runs out on a fake clock. The reminders, the warning, the
// forfeit, the rating change and the standings happen exactly once, with
// a crash of the daemon after each of them; Herald's own outage is not
// charged; the observer's copies carry no key and no block.
func TestLadderDaemon(t *testing.T) {
	lw := newLadderWorld(t)
	svc := lw.service()
	if _, err := svc.CreateLadder("club", "org@localhost", []string{"ladder", "scenarios=melee-test", "clock=1d+6h", "cap=2d",
		"reminders=0.5,0.25", "warning=3h", "timeout=forfeit", "k=32", "initial=1500"}); err != nil {
		t.Fatal(err)
	}
	lw.settle()
	orgKey := lw.keyOf("org")
	var add []string
	for i := 1; i <= 6; i++ {
		add = append(add, fmt.Sprintf("ADD p%d@localhost", i))
	}
	lw.command("org", orgKey, append(add, "OBSERVE obs@localhost")...)
	if l := lw.ladder(); len(l.Active()) != 6 || len(l.Observers) != 1 {
		t.Fatalf("members %v, observers %v\n%s", l.Active(), l.Observers, lw.replies("org"))
	}
	keys := map[string]string{}
	for i := 1; i <= 6; i++ {
		p := fmt.Sprintf("p%d", i)
		keys[p] = lw.keyOf(p)
	}
	// A member cannot pair a round; the organizer can.
	lw.command("p1", keys["p1"], "PAIR")
	if !strings.Contains(lw.replies("p1"), "not an organizer") || lw.ladder().Round != 0 {
		t.Fatalf("p1 paired a round:\n%s", lw.replies("p1"))
	}
	// The daemon crashes after committing the PAIR mail, before flagging
	// it: offered again after the restart, it pairs nothing more.
	errCrash := errors.New("injected crash")
	var armed atomic.Bool
	armed.Store(true)
	lw.kill()
	lw.start(&mailbox.Hooks{AfterCommit: func(mailbox.Message, mailbox.Disposition) error {
		if armed.CompareAndSwap(true, false) {
			return errCrash
		}
		return nil
	}})
	lw.command("org", orgKey, "PAIR melee-test")
	for deadline := time.Now().Add(10 * time.Second); !lw.crashed(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not crash after the PAIR mail")
		}
	}
	if err := lw.kill(); !errors.Is(err, errCrash) {
		t.Fatalf("daemon stopped with %v", err)
	}
	lw.start(nil)
	lw.settle()
	l := lw.ladder()
	if l.Round != 1 || len(l.Games) != 3 {
		t.Fatalf("round %d, %d games:\n%s", l.Round, len(l.Games), lw.replies("org"))
	}
	for i := 1; i <= 6; i++ {
		if got := lw.count(fmt.Sprintf("p%d", i), ".welcome.", "melee-test-"); got != 1 {
			t.Errorf("p%d got %d game welcomes, want 1", i, got)
		}
	}
	for _, ap := range lw.players {
		ap.LastMove = 3
	}
	seen := map[string]bool{}
	moves := 0
	for range 30 {
		lw.settle()
		n := lw.play(seen, false)
		moves += n
		if n == 0 {
			break
		}
	}
	lw.settle()
	if moves < 6 {
		t.Fatalf("the members sent %d order mails", moves)
	}
	t.Logf("%d order mails in round 1", moves)
	l = lw.ladder()
	var open []ladder.Game
	for _, g := range l.Games {
		if g.Status == ladder.Playing {
			open = append(open, g)
			if g.Clock == nil || g.Clock.ToMove < 0 {
				t.Fatalf("game %s waits with no clock running: %+v", g.ID, g.Clock)
			}
			// the clock ran only while the fake clock stood: nothing charged,
			// every move gained the increment up to the cap
			for i, left := range g.Clock.Left {
				if left < 24*time.Hour || left > 48*time.Hour {
					t.Errorf("game %s seat %d: %v left", g.ID, i, left)
				}
			}
		}
	}
	if len(open) == 0 {
		t.Fatal("every game of the round ended by itself before move 4")
	}
	// The organizer adjudicates all open games but the last, by mail.
	timed := open[len(open)-1]
	for i, g := range open[:len(open)-1] {
		winner := g.Seats[0].Side
		if i == 1 {
			winner = "DRAW"
		}
		lw.command("org", orgKey, "ADJUDICATE "+g.ID+" "+winner)
	}
	lw.command("org", orgKey, "ADJUDICATE "+open[0].ID+" DRAW") // a game already finished
	if len(open) > 1 && !strings.Contains(lw.replies("org"), "already finished") {
		t.Errorf("adjudicating a finished game again was not refused:\n%s", lw.replies("org"))
	}

	// The clock of the last game runs; Herald is down for ten hours
	// meanwhile, which no one is charged for.
	l = lw.ladder()
	g, _ := l.Game(timed.ID)
	late := g.Seats[g.Clock.ToMove]
	lateUser, _, _ := strings.Cut(late.Address, "@")
	asked := g.Clock.LeftAtAsk
	lw.tickTo(lw.clock().Add(3 * time.Hour))
	lw.kill()
	lw.now.Store(lw.clock().Add(10 * time.Hour).UnixNano())
	lw.start(nil)
	if _, err := lw.service().Tick(lw.clock()); err != nil { // or the loop's first tick: the same beat
		t.Fatal(err)
	}
	lw.settle()
	d, err := lw.service().Downtime()
	if err != nil {
		t.Fatal(err)
	}
	l = lw.ladder()
	g, _ = l.Game(timed.ID)
	if left := g.Clock.LeftAt(lw.clock(), d); left != asked-3*time.Hour {
		t.Fatalf("after a 10 h outage %s has %v left, want %v (the outage not charged)", late.Address, left, asked-3*time.Hour)
	}
	// Each threshold, ticked, then a crash: exactly once.
	ratings := map[string]float64{}
	for _, m := range l.Members {
		ratings[m.Address] = m.Rating
	}
	steps := []struct {
		name  string
		left  time.Duration // at which it falls due
		level int
	}{
		{"first reminder", asked / 2, 1},
		{"second reminder", asked / 4, 2},
		{"warning", 3 * time.Hour, 3},
		{"timeout", 0, 4},
	}
	for _, st := range steps {
		l = lw.ladder()
		g, _ = l.Game(timed.ID)
		d, _ = lw.service().Downtime()
		due := lw.clock().Add(g.Clock.LeftAt(lw.clock(), d) - st.left)
		if n := lw.tickTo(due.Add(-time.Minute)); n != 0 {
			t.Fatalf("%s: %d notices before it was due", st.name, n)
		}
		if n := lw.tickTo(due.Add(time.Minute)); n != 1 {
			t.Fatalf("%s: %d notices when due, want 1", st.name, n)
		}
		lw.crash()
		if n, err := lw.service().Tick(lw.clock()); n != 0 || err != nil {
			t.Fatalf("%s: after the crash %d notices again (%v)", st.name, n, err)
		}
		lw.crash()
		lw.settle()
		if st.level < 4 {
			if got := lw.count(lateUser, timed.ID+".clock.", fmt.Sprintf("-l%d-", st.level)); got != 1 {
				t.Errorf("%s: %s got %d mails of it, want 1", st.name, lateUser, got)
			}
		}
	}
	if got := lw.count(lateUser, timed.ID+".clock."); got != 3 {
		t.Errorf("%s got %d clock mails, want 2 reminders and a warning", lateUser, got)
	}
	// The forfeit: the game is over in the ladder and in Herald, both
	// players told once, the rating moved once, standings to all once.
	l = lw.ladder()
	g, _ = l.Game(timed.ID)
	winner := g.Seats[1-indexOf(g.Seats, late.Address)]
	if g.Status != ladder.Over || g.Result.Outcome != ladder.Forfeited || g.Result.Winner != winner.Address {
		t.Fatalf("game %s: %s %+v", g.ID, g.Status, g.Result)
	}
	s, err := lw.service().Summary(timed.ID)
	if err != nil || !s.Record.Over {
		t.Fatalf("Herald's game %s not over: %+v %v", timed.ID, s, err)
	}
	want := 32 * (1 - 1/(1+math.Pow(10, (ratings[late.Address]-ratings[winner.Address])/400)))
	for _, m := range l.Members {
		delta := m.Rating - ratings[m.Address]
		switch m.Address {
		case winner.Address:
			if math.Abs(delta-want) > 1e-9 {
				t.Errorf("winner's rating moved %v, want %v", delta, want)
			}
		case late.Address:
			if math.Abs(delta+want) > 1e-9 || m.Forfeits != 1 {
				t.Errorf("loser's rating moved %v, want %v; forfeits %d", delta, -want, m.Forfeits)
			}
		default:
			if delta != 0 {
				t.Errorf("%s's rating moved %v", m.Address, delta)
			}
		}
	}
	for _, seat := range g.Seats {
		user, _, _ := strings.Cut(seat.Address, "@")
		if got := lw.count(user, timed.ID+".gameover."); got != 1 {
			t.Errorf("%s got %d game-over mails of %s", user, got, timed.ID)
		}
	}
	results := 0
	for _, g := range l.Games {
		if g.Status == ladder.Over && g.Result.Outcome != ladder.Abandoned {
			results++
		}
	}
	for i := 1; i <= 6; i++ {
		p := fmt.Sprintf("p%d", i)
		if got := lw.count(p, "ladder-club.standings."); got != results {
			t.Errorf("%s got %d standings mails, want %d (one a result)", p, got, results)
		}
		if got := lw.count(p, "ladder-club.standings."+timed.ID); got != 1 {
			t.Errorf("%s got %d standings mails after the forfeit", p, got)
		}
	}
	// The observer: a copy of every result and end, never a key or a block.
	obsMail := lw.inbox("obs")
	copies := 0
	for id, m := range obsMail {
		if strings.Contains(id, ".observer.") {
			copies++
		}
		if blocks, _ := pbem.FindBlocks(m.Text); len(blocks) > 0 && !strings.HasPrefix(id, "ladder-club.") {
			t.Errorf("observer's mail %s holds a block", id)
		}
		for p, k := range keys {
			if strings.Contains(m.Text, k) {
				t.Errorf("observer's mail %s holds %s's ladder key", id, p)
			}
		}
		for _, lg := range l.Games {
			if k := lw.gameKeys(lg.ID); strings.Contains(m.Text, k[0]) || strings.Contains(m.Text, k[1]) {
				t.Errorf("observer's mail %s holds a player's key of %s", id, lg.ID)
			}
		}
	}
	if copies < moves {
		t.Errorf("the observer got %d copies for %d moves", copies, moves)
	}
	if got := lw.count("obs", timed.ID+".observer.over-"); got != 1 {
		t.Errorf("the observer got %d copies of %s's end", got, timed.ID)
	}
	// The organizer fetches a game's export by mail.
	lw.command("org", orgKey, "EXPORT "+timed.ID)
	found := false
	for id, m := range lw.inbox("org") {
		if strings.Contains(id, ".export.") && strings.Contains(m.Text, "dice log") {
			found = true
		}
	}
	if !found {
		t.Error("the organizer got no export")
	}
	// Standings on request.
	lw.command("p2", keys["p2"], "STANDINGS")
	if !strings.Contains(lw.replies("p2"), "Standings of club:") {
		t.Errorf("no standings for p2:\n%s", lw.replies("p2"))
	}
}

func indexOf(seats [2]ladder.Seat, addr string) int {
	if seats[0].Address == addr {
		return 0
	}
	return 1
}

// gameKeys are both players' keys of a game.
func (lw *ladderWorld) gameKeys(id string) [2]string {
	lw.t.Helper()
	var out [2]string
	svc := lw.service()
	if err := svc.cfg.Store.View(func(tx *store.Tx) error {
		g, err := svc.load(tx, id)
		if err != nil {
			return err
		}
		out = g.keys
		return nil
	}); err != nil {
		lw.t.Fatal(err)
	}
	return out
}
