package ladder

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

const h = time.Hour

func control(rule TimeoutRule) *TimeControl {
	return &TimeControl{Initial: 72 * h, Increment: 24 * h, Cap: 120 * h,
		Reminders: []float64{0.5, 0.25}, Warning: 6 * h, OnTimeout: rule}
}

// TestDue walks a move's time with a fake clock: what is due at each
// time, once each when recorded, only the latest after a long silence.
func TestDue(t *testing.T) {
	type step struct {
		at     time.Duration // since the move was asked
		want   NoticeKind    // "" nothing due
		level  int
		record bool
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"each notice once", []step{
			{35 * h, "", 0, false},
			{36 * h, Reminder, 1, true},
			{37 * h, "", 0, false},
			{54 * h, Reminder, 2, true},
			{60 * h, "", 0, false},
			{66 * h, Warning, 3, true},
			{71 * h, "", 0, false},
			{72 * h, Timeout, 4, false},
			{90 * h, Timeout, 4, false}, // a timeout stays due until flagged
		}},
		{"a daemon silent past two thresholds sends the latest", []step{
			{55 * h, Reminder, 2, true},
			{56 * h, "", 0, false},
		}},
		{"silent past the warning", []step{
			{67 * h, Warning, 3, true},
			{100 * h, Timeout, 4, false},
		}},
		{"an unrecorded notice stays due", []step{
			{36 * h, Reminder, 1, false},
			{40 * h, Reminder, 1, true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := withGame(t)
			for _, s := range c.steps {
				now := t0.Add(s.at)
				due := l.Due(now, nil)
				var kind NoticeKind
				var level int
				if len(due) == 1 {
					kind, level = due[0].Kind, due[0].Level
				} else if len(due) > 1 {
					t.Fatalf("at %v: %d notices for one game", s.at, len(due))
				}
				if kind != s.want || level != s.level {
					t.Fatalf("at %v: due %q %d, want %q %d", s.at, kind, level, s.want, s.level)
				}
				if s.record {
					if err := l.Notified(due[0], now, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// TestMoves: a move is charged from the asking mail to the applied one,
// gains the increment, stops at the cap; the opponent's time then runs.
func TestMoves(t *testing.T) {
	l := withGame(t)
	c := l.Games[0].Clock
	if err := l.Moved("g1", t0.Add(10*h), nil); err != nil { // 72-10+24 = 86
		t.Fatal(err)
	}
	if c.Left != [2]time.Duration{86 * h, 72 * h} || c.ToMove != -1 {
		t.Fatalf("after English's move: %v, to move %d", c.Left, c.ToMove)
	}
	if err := l.Asked("g1", addr('b'), t0.Add(10*h)); err != nil {
		t.Fatal(err)
	}
	if err := l.Moved("g1", t0.Add(11*h), nil); err != nil { // 72-1+24 = 95
		t.Fatal(err)
	}
	if err := l.Asked("g1", "English", t0.Add(11*h)); err != nil {
		t.Fatal(err)
	}
	if err := l.Moved("g1", t0.Add(11*h+time.Minute), nil); err != nil { // 86+24 capped at 120? 110 - 1m
		t.Fatal(err)
	}
	if c.Left != [2]time.Duration{110*h - time.Minute, 95 * h} {
		t.Fatalf("clocks %v", c.Left)
	}
	for range 3 { // quick moves reach the cap and stay there
		if err := l.Asked("g1", "English", t0.Add(12*h)); err != nil {
			t.Fatal(err)
		}
		if err := l.Moved("g1", t0.Add(12*h), nil); err != nil {
			t.Fatal(err)
		}
	}
	if c.Left[0] != 120*h {
		t.Fatalf("English %v, want the cap 120h", c.Left[0])
	}
	if err := l.Moved("g1", t0.Add(13*h), nil); !errors.Is(err, ErrState) {
		t.Fatalf("a move not asked: %v", err)
	}
}

// TestDowntime: Herald's outages, recorded by its beats, are not charged;
// a gap within the grace is.
func TestDowntime(t *testing.T) {
	var d Downtime
	grace := 5 * time.Minute
	beat := func(at time.Duration) bool {
		_, out := d.Beat(t0.Add(at), grace)
		return out
	}
	if beat(0) || beat(time.Minute) || beat(5*time.Minute) { // the first beat and short gaps
		t.Fatal("an outage recorded for gaps within the grace")
	}
	if !beat(10 * h) { // down from 0:05 to 10:00
		t.Fatal("no outage for ten hours down")
	}
	if beat(9 * h) { // the clock set back
		t.Fatal("an outage for a clock set back")
	}
	want := []Interval{{t0.Add(5 * time.Minute), t0.Add(10 * h)}}
	if !reflect.DeepEqual(d.Outages, want) {
		t.Fatalf("outages %v", d.Outages)
	}
	cases := []struct {
		from, to, want time.Duration
	}{
		{0, 5 * time.Minute, 5 * time.Minute}, // before
		{0, 20 * h, 10*h + 5*time.Minute},     // across
		{h, 2 * h, 0},                         // inside
		{h, 12 * h, 2 * h},                    // from inside
		{11 * h, 12 * h, h},                   // after
		{12 * h, 11 * h, 0},                   // backwards
	}
	for _, c := range cases {
		if got := d.Charged(t0.Add(c.from), t0.Add(c.to)); got != c.want {
			t.Errorf("Charged(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
	d.Prune(t0.Add(10 * h))
	if len(d.Outages) != 0 {
		t.Fatalf("pruned outages %v", d.Outages)
	}
}

// TestRestartAfterDowntime: a daemon down for 30 hours while a move's time
// ran: restarted, it beats first, and nothing is due that was not due
// when it went down; the move is charged the up time only.
func TestRestartAfterDowntime(t *testing.T) {
	l := withGame(t) // English asked at t0, 72h
	var d Downtime
	for at := time.Duration(0); at <= 30*h; at += time.Minute {
		d.Beat(t0.Add(at), 5*time.Minute)
	}
	// down from 30h to 60h; without the rule English would be past his
	// warning at 66h wall time…
	d.Beat(t0.Add(60*h), 5*time.Minute)
	if due := l.Due(t0.Add(60*h), &d); len(due) != 0 {
		t.Fatalf("due after restart: %+v", due)
	}
	if left := l.Games[0].Clock.LeftAt(t0.Add(60*h), &d); left != 42*h {
		t.Fatalf("left %v, want 42h (72 less 30 up)", left)
	}
	// …he is reminded at half (36h of up time: 66h wall), warned at 66h up
	// (96h wall), and times out at 72h up (102h wall).
	for _, c := range []struct {
		at   time.Duration
		want NoticeKind
	}{{65 * h, ""}, {66 * h, Reminder}, {95 * h, Reminder}, {96 * h, Warning}, {101 * h, Warning}, {102 * h, Timeout}} {
		var got NoticeKind
		if due := l.Due(t0.Add(c.at), &d); len(due) == 1 {
			got = due[0].Kind
		}
		if got != c.want {
			t.Errorf("at %v: %q, want %q", c.at, got, c.want)
		}
	}
	if err := l.Moved("g1", t0.Add(70*h), &d); err != nil {
		t.Fatal(err)
	}
	if got := l.Games[0].Clock.Left[0]; got != 72*h-40*h+24*h {
		t.Fatalf("English %v after a move at 70h wall, 40h up", got)
	}
}

// TestTimeoutRules: at zero, each configured outcome.
func TestTimeoutRules(t *testing.T) {
	out := t0.Add(72 * h)
	t.Run("forfeit", func(t *testing.T) {
		l := withGame(t)
		st, err := l.Flag("g1", out, nil)
		if err != nil || st != Over || l.Games[0].Result.Winner != addr('b') {
			t.Fatalf("%v %v %+v", st, err, l.Games[0].Result)
		}
		if _, err := l.Flag("g1", out, nil); !errors.Is(err, ErrGameOver) {
			t.Fatalf("flagged twice: %v", err)
		}
	})
	t.Run("adjudicate", func(t *testing.T) {
		l := withGame(t)
		l.Games[0].Clock.Control = *control(TimeoutAdjudicate)
		st, err := l.Flag("g1", out, nil)
		if err != nil || st != AwaitingAdjudication {
			t.Fatalf("%v %v", st, err)
		}
		if due := l.Due(out.Add(h), nil); len(due) != 0 {
			t.Fatalf("due while awaiting the organizer: %v", due)
		}
		if err := l.Moved("g1", out, nil); !errors.Is(err, ErrState) {
			t.Fatalf("a move while awaiting adjudication: %v", err)
		}
		if err := l.Adjudicate(org, "g1", "draw", out); err != nil || l.Games[0].Result.Outcome != Adjudicated {
			t.Fatalf("%v %+v", err, l.Games[0].Result)
		}
	})
	t.Run("opponent claims", func(t *testing.T) {
		l := withGame(t)
		l.Games[0].Clock.Control = *control(TimeoutOpponent)
		if st, err := l.Flag("g1", out, nil); err != nil || st != AwaitingClaim {
			t.Fatalf("%v %v", st, err)
		}
		if err := l.Claim(addr('b'), "g1", true, out); err != nil {
			t.Fatal(err)
		}
		if r := l.Games[0].Result; r.Outcome != Forfeited || r.Winner != addr('b') {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("opponent lets it go on", func(t *testing.T) {
		l := withGame(t)
		l.Games[0].Clock.Control = *control(TimeoutOpponent)
		if _, err := l.Flag("g1", out, nil); err != nil {
			t.Fatal(err)
		}
		if err := l.Claim(addr('b'), "g1", false, out); err != nil {
			t.Fatal(err)
		}
		g := l.Games[0]
		if g.Status != Playing || g.Clock.LeftAt(out, nil) != 24*h || g.Clock.ToMove != 0 {
			t.Fatalf("%s left %v to move %d", g.Status, g.Clock.LeftAt(out, nil), g.Clock.ToMove)
		}
	})
	t.Run("organizer gives time", func(t *testing.T) {
		l := withGame(t)
		l.Games[0].Clock.Control = *control(TimeoutAdjudicate)
		if _, err := l.Flag("g1", out, nil); err != nil {
			t.Fatal(err)
		}
		if err := l.SetClock(org, "g1", "English", 12*h, out); err != nil {
			t.Fatal(err)
		}
		g := l.Games[0]
		if g.Status != Playing || g.Clock.LeftAt(out.Add(h), nil) != 11*h {
			t.Fatalf("%s left %v", g.Status, g.Clock.LeftAt(out.Add(h), nil))
		}
	})
}

// TestRoundRobin: every pair meets once, nobody twice in a round, each
// plays one side at most one game more than the other.
func TestRoundRobin(t *testing.T) {
	for n := 2; n <= 9; n++ {
		var members []string
		for i := range n {
			members = append(members, string(rune('a'+i)))
		}
		rounds := RoundRobin(members)
		wantRounds := n - 1
		if n%2 == 1 {
			wantRounds = n
		}
		if len(rounds) != wantRounds {
			t.Fatalf("%d members: %d rounds", n, len(rounds))
		}
		met := map[[2]string]int{}
		first := map[string]int{}
		for r, round := range rounds {
			busy := map[string]bool{}
			for _, p := range round {
				if busy[p[0]] || busy[p[1]] {
					t.Fatalf("%d members, round %d: %v plays twice", n, r+1, p)
				}
				busy[p[0]], busy[p[1]] = true, true
				key := p
				if key[0] > key[1] {
					key[0], key[1] = key[1], key[0]
				}
				met[key]++
				first[p[0]]++
				first[p[1]]--
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Fatalf("%d members: %d pairs met, want %d", n, len(met), n*(n-1)/2)
		}
		for k, v := range met {
			if v != 1 {
				t.Fatalf("%d members: %v met %d times", n, k, v)
			}
		}
		for m, d := range first {
			if d > 1 || d < -1 {
				t.Errorf("%d members: %s first side minus second side %d", n, m, d)
			}
		}
	}
}

// TestPairRound: a round-robin of 6 pairs 5 rounds, refuses a round while
// the last one plays and a sixth; members are fixed once it started. A
// ladder pairs neighbours who are free.
func TestPairRound(t *testing.T) {
	l := club(t, KindRoundRobin, 6, nil)
	for r := 1; r <= 5; r++ {
		ps, err := l.PairRound(org, "poitiers")
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if len(ps) != 3 || ps[0].Round != r || ps[0].Scenario != "poitiers" {
			t.Fatalf("round %d: %+v", r, ps)
		}
		for i, p := range ps {
			id := "r" + itoa(r) + "g" + itoa(i)
			if err := l.StartPairing(p, id, sides, t0); err != nil {
				t.Fatal(err)
			}
		}
		before := l.Clone()
		if _, err := l.PairRound(org, ""); !errors.Is(err, ErrRoundInPlay) || !reflect.DeepEqual(before, l.Clone()) {
			t.Fatalf("round %d in play: %v", r, err)
		}
		for i := range ps {
			if err := l.Finish("r"+itoa(r)+"g"+itoa(i), "English", t0); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := l.PairRound(org, ""); !errors.Is(err, ErrComplete) {
		t.Fatalf("a sixth round: %v", err)
	}
	if err := l.AddMember(org, "late@club.example", t0); !errors.Is(err, ErrStarted) {
		t.Fatalf("joining a started round-robin: %v", err)
	}
	for _, m := range l.Members {
		if m.Played() != 5 {
			t.Fatalf("%s played %d", m.Address, m.Played())
		}
	}

	lad := club(t, KindLadder, 5, nil)
	if err := lad.Start(org, Pairing{Scenario: "crecy", First: addr('a'), Second: addr('b')}, "g1", sides, t0); err != nil {
		t.Fatal(err)
	}
	if err := lad.Finish("g1", addr('b'), t0); err != nil {
		t.Fatal(err)
	}
	if err := lad.Start(org, Pairing{Scenario: "crecy", First: addr('c'), Second: addr('e')}, "g2", sides, t0); err != nil {
		t.Fatal(err)
	}
	ps, err := lad.PairRound(org, "")
	if err != nil {
		t.Fatal(err)
	}
	// b (1516) and d (1500) are free; a (1484) is the odd one out
	want := []Pairing{{Scenario: "crecy", First: addr('b'), Second: addr('d'), Round: 1}}
	if !reflect.DeepEqual(ps, want) {
		t.Fatalf("ladder round %+v, want %+v", ps, want)
	}
}
