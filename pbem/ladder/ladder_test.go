package ladder

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const org = "org@club.example"

var sides = [2]string{"English", "French"}

// club is a ladder of n members a@, b@, c@…
func club(t *testing.T, kind Kind, n int, tc *TimeControl) *Ladder {
	t.Helper()
	l, err := New(Config{ID: "club", Kind: kind, Organizers: []string{org}, Scenarios: []string{"crecy", "poitiers"},
		Clock: tc, Rating: DefaultRating}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := l.AddMember(org, string(rune('a'+i))+"@club.example", t0); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func addr(c byte) string { return string(c) + "@club.example" }

// withGame is club(4) with game g1 between a (English) and b, and a
// challenge 1 from c to d.
func withGame(t *testing.T) *Ladder {
	t.Helper()
	l := club(t, KindLadder, 4, &TimeControl{Initial: 72 * time.Hour, Increment: 24 * time.Hour, Cap: 120 * time.Hour,
		Reminders: []float64{0.5, 0.25}, Warning: 6 * time.Hour, OnTimeout: TimeoutForfeit})
	if err := l.Start(org, Pairing{Scenario: "crecy", First: addr('a'), Second: addr('b')}, "g1", sides, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Challenge(addr('c'), addr('d'), "", 0, t0); err != nil {
		t.Fatal(err)
	}
	if err := l.Asked("g1", "English", t0); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRefusals holds that every operation refuses bad input with its
// specific error and changes nothing.
func TestRefusals(t *testing.T) {
	finished := func(l *Ladder) {
		if err := l.Finish("g1", "French", t0); err != nil {
			panic(err)
		}
	}
	cases := []struct {
		name  string
		setup func(*Ladder)
		op    func(*Ladder) error
		want  error
	}{
		{"add by a member", nil, func(l *Ladder) error { return l.AddMember(addr('a'), "x@club.example", t0) }, ErrNotOrganizer},
		{"add twice", nil, func(l *Ladder) error { return l.AddMember(org, "A@Club.Example", t0) }, ErrAlreadyMember},
		{"add no address", nil, func(l *Ladder) error { return l.AddMember(org, "nobody", t0) }, ErrInvalid},
		{"remove unknown", nil, func(l *Ladder) error { return l.RemoveMember(org, "x@club.example") }, ErrUnknownMember},
		{"remove in play", nil, func(l *Ladder) error { return l.RemoveMember(org, addr('a')) }, ErrInPlay},
		{"remove by a member", nil, func(l *Ladder) error { return l.RemoveMember(addr('c'), addr('d')) }, ErrNotOrganizer},
		{"challenge from a stranger", nil, func(l *Ladder) error { _, err := l.Challenge("x@y.example", addr('a'), "", 0, t0); return err }, ErrUnknownMember},
		{"challenge a stranger", nil, func(l *Ladder) error { _, err := l.Challenge(addr('a'), "x@y.example", "", 0, t0); return err }, ErrUnknownMember},
		{"challenge himself", nil, func(l *Ladder) error { _, err := l.Challenge(addr('a'), addr('a'), "", 0, t0); return err }, ErrInvalid},
		{"challenge a scenario not allowed", nil, func(l *Ladder) error { _, err := l.Challenge(addr('a'), addr('c'), "agincourt", 0, t0); return err }, ErrScenario},
		{"challenge seat 2", nil, func(l *Ladder) error { _, err := l.Challenge(addr('a'), addr('c'), "", 2, t0); return err }, ErrInvalid},
		{"challenge twice", nil, func(l *Ladder) error { _, err := l.Challenge(addr('c'), addr('d'), "crecy", 0, t0); return err }, ErrInvalid},
		{"accept unknown challenge", nil, func(l *Ladder) error { _, err := l.Accept(addr('d'), 9); return err }, ErrUnknownChallenge},
		{"accept another's challenge", nil, func(l *Ladder) error { _, err := l.Accept(addr('a'), 1); return err }, ErrNotYours},
		{"accept his own challenge", nil, func(l *Ladder) error { _, err := l.Accept(addr('c'), 1); return err }, ErrNotYours},
		{"accept by a stranger", nil, func(l *Ladder) error { _, err := l.Accept("x@y.example", 1); return err }, ErrUnknownMember},
		{"decline another's challenge", nil, func(l *Ladder) error { return l.Decline(addr('a'), 1) }, ErrNotYours},
		{"decline by a stranger", nil, func(l *Ladder) error { return l.Decline("x@y.example", 1) }, ErrUnknownMember},
		{"decline unknown", nil, func(l *Ladder) error { return l.Decline(addr('d'), 7) }, ErrUnknownChallenge},
		{"start by a member", nil, func(l *Ladder) error {
			return l.Start(addr('a'), Pairing{Scenario: "crecy", First: addr('c'), Second: addr('d')}, "g2", sides, t0)
		}, ErrNotOrganizer},
		{"start a taken id", nil, func(l *Ladder) error {
			return l.Start(org, Pairing{Scenario: "crecy", First: addr('c'), Second: addr('d')}, "g1", sides, t0)
		}, ErrInvalid},
		{"start a stranger", nil, func(l *Ladder) error {
			return l.Start(org, Pairing{Scenario: "crecy", First: addr('c'), Second: "x@y.example"}, "g2", sides, t0)
		}, ErrUnknownMember},
		{"start against himself", nil, func(l *Ladder) error {
			return l.Start(org, Pairing{Scenario: "crecy", First: addr('c'), Second: addr('c')}, "g2", sides, t0)
		}, ErrInvalid},
		{"start a scenario not allowed", nil, func(l *Ladder) error {
			return l.Start(org, Pairing{Scenario: "agincourt", First: addr('c'), Second: addr('d')}, "g2", sides, t0)
		}, ErrScenario},
		{"start one side twice", nil, func(l *Ladder) error {
			return l.Start(org, Pairing{Scenario: "crecy", First: addr('c'), Second: addr('d')}, "g2", [2]string{"English", "English"}, t0)
		}, ErrInvalid},
		{"adjudicate by a member", nil, func(l *Ladder) error { return l.Adjudicate(addr('a'), "g1", addr('a'), t0) }, ErrNotOrganizer},
		{"adjudicate unknown game", nil, func(l *Ladder) error { return l.Adjudicate(org, "g9", "draw", t0) }, ErrUnknownGame},
		{"adjudicate for a stranger", nil, func(l *Ladder) error { return l.Adjudicate(org, "g1", addr('c'), t0) }, ErrInvalid},
		{"adjudicate a finished game", finished, func(l *Ladder) error { return l.Adjudicate(org, "g1", "draw", t0) }, ErrGameOver},
		{"abandon a finished game", finished, func(l *Ladder) error { return l.Abandon(org, "g1", t0) }, ErrGameOver},
		{"finish a finished game", finished, func(l *Ladder) error { return l.Finish("g1", "English", t0) }, ErrGameOver},
		{"abandon by a member", nil, func(l *Ladder) error { return l.Abandon(addr('b'), "g1", t0) }, ErrNotOrganizer},
		{"pair by a member", nil, func(l *Ladder) error { _, err := l.PairRound(addr('a'), ""); return err }, ErrNotOrganizer},
		{"pair a scenario not allowed", nil, func(l *Ladder) error { _, err := l.PairRound(org, "agincourt"); return err }, ErrScenario},
		{"set clock by a member", nil, func(l *Ladder) error { return l.SetClock(addr('a'), "g1", "English", time.Hour, t0) }, ErrNotOrganizer},
		{"set clock past the cap", nil, func(l *Ladder) error { return l.SetClock(org, "g1", "English", 200*time.Hour, t0) }, ErrInvalid},
		{"set clock of a stranger", nil, func(l *Ladder) error { return l.SetClock(org, "g1", addr('c'), time.Hour, t0) }, ErrInvalid},
		{"set clock of a finished game", finished, func(l *Ladder) error { return l.SetClock(org, "g1", "English", time.Hour, t0) }, ErrGameOver},
		{"flag before time", nil, func(l *Ladder) error { _, err := l.Flag("g1", t0.Add(71*time.Hour), nil); return err }, ErrNotDue},
		{"move after time", nil, func(l *Ladder) error { return l.Moved("g1", t0.Add(73*time.Hour), nil) }, ErrState},
		{"claim while playing", nil, func(l *Ladder) error { return l.Claim(addr('b'), "g1", true, t0) }, ErrState},
		{"notify what is not due", nil, func(l *Ladder) error {
			return l.Notified(Notice{Game: "g1", Kind: Reminder, Level: 1, Seat: 0}, t0.Add(time.Hour), nil)
		}, ErrNotDue},
		{"notify a timeout", nil, func(l *Ladder) error {
			return l.Notified(Notice{Game: "g1", Kind: Timeout, Level: 4, Seat: 0}, t0.Add(80*time.Hour), nil)
		}, ErrNotDue},
		{"claim by the late player", func(l *Ladder) { l.Games[0].Status = AwaitingClaim }, func(l *Ladder) error { return l.Claim(addr('a'), "g1", true, t0) }, ErrNotYours},
		{"claim by a stranger", func(l *Ladder) { l.Games[0].Status = AwaitingClaim }, func(l *Ladder) error { return l.Claim(addr('c'), "g1", true, t0) }, ErrNotYours},
		{"asked for a stranger", nil, func(l *Ladder) error { return l.Asked("g1", addr('c'), t0) }, ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := withGame(t)
			if c.setup != nil {
				c.setup(l)
			}
			before := l.Clone()
			err := c.op(l)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if !reflect.DeepEqual(before, l.Clone()) {
				t.Fatalf("the refused operation changed the ladder")
			}
		})
	}
}

func TestNew(t *testing.T) {
	good := Config{ID: "club", Kind: KindLadder, Organizers: []string{org}, Scenarios: []string{"crecy"}, Rating: DefaultRating}
	cases := []struct {
		name string
		edit func(*Config)
	}{
		{"bad id", func(c *Config) { c.ID = "Club One" }},
		{"bad kind", func(c *Config) { c.Kind = "swiss" }},
		{"no organizer", func(c *Config) { c.Organizers = nil }},
		{"organizer not an address", func(c *Config) { c.Organizers = []string{"org"} }},
		{"no scenario", func(c *Config) { c.Scenarios = nil }},
		{"K zero", func(c *Config) { c.Rating.K = 0 }},
		{"initial rating 0", func(c *Config) { c.Rating.Initial = 0 }},
		{"clock without time", func(c *Config) { c.Clock = &TimeControl{Cap: time.Hour, OnTimeout: TimeoutForfeit} }},
		{"cap below start", func(c *Config) {
			c.Clock = &TimeControl{Initial: 2 * time.Hour, Cap: time.Hour, OnTimeout: TimeoutForfeit}
		}},
		{"reminders rising", func(c *Config) {
			c.Clock = &TimeControl{Initial: time.Hour, Cap: time.Hour, Reminders: []float64{0.25, 0.5}, OnTimeout: TimeoutForfeit}
		}},
		{"reminder 1", func(c *Config) {
			c.Clock = &TimeControl{Initial: time.Hour, Cap: time.Hour, Reminders: []float64{1}, OnTimeout: TimeoutForfeit}
		}},
		{"unknown timeout", func(c *Config) { c.Clock = &TimeControl{Initial: time.Hour, Cap: time.Hour, OnTimeout: "coin"} }},
	}
	if _, err := New(good, t0); err != nil {
		t.Fatalf("good config: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := good
			c.edit(&cfg)
			if _, err := New(cfg, t0); !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
}

// TestChallengeCycle: a challenge, an open one, accepting, declining,
// the seats, and starting the accepted game.
func TestChallengeCycle(t *testing.T) {
	l := club(t, KindLadder, 4, nil)
	c1, err := l.Challenge(addr('a'), addr('b'), "poitiers", 1, t0)
	if err != nil {
		t.Fatal(err)
	}
	open, err := l.Challenge(addr('c'), "", "", 0, t0)
	if err != nil {
		t.Fatal(err)
	}
	if c1.N != 1 || open.N != 2 || open.Scenario != "crecy" {
		t.Fatalf("challenges %+v %+v", c1, open)
	}
	if got := l.Open(addr('b')); len(got) != 2 {
		t.Fatalf("b may accept %v, want both", got)
	}
	if got := l.Open(addr('c')); len(got) != 0 {
		t.Fatalf("c may accept %v, want none (his own open challenge)", got)
	}
	p, err := l.Accept(addr('b'), 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Pairing{Scenario: "poitiers", First: addr('b'), Second: addr('a')}); p != want {
		t.Fatalf("pairing %+v, want %+v (the challenger chose the second side)", p, want)
	}
	if err := l.StartPairing(p, "p1", [2]string{"English", "French"}, t0); err != nil {
		t.Fatal(err)
	}
	g, _ := l.Game("p1")
	if g.Seats[1] != (Seat{"French", addr('a')}) || g.Clock != nil || g.Status != Playing {
		t.Fatalf("game %+v", g)
	}
	if _, err := l.Accept(addr('b'), 1); !errors.Is(err, ErrUnknownChallenge) {
		t.Fatalf("accepting twice: %v", err)
	}
	if err := l.Decline(addr('c'), 2); err != nil { // withdrawn by the challenger
		t.Fatal(err)
	}
	if len(l.Challenges) != 0 {
		t.Fatalf("challenges left %v", l.Challenges)
	}
	// removing a member withdraws his challenges
	if _, err := l.Challenge(addr('d'), addr('c'), "", 0, t0); err != nil {
		t.Fatal(err)
	}
	if err := l.RemoveMember(org, addr('c')); err != nil {
		t.Fatal(err)
	}
	if len(l.Challenges) != 0 || len(l.Active()) != 3 {
		t.Fatalf("after removing c: challenges %v, members %v", l.Challenges, l.Active())
	}
	if err := l.AddMember(org, addr('c'), t0); err != nil || len(l.Members) != 4 {
		t.Fatalf("c back: %v, %d records", err, len(l.Members))
	}
}

func TestResults(t *testing.T) {
	cases := []struct {
		name     string
		rating   Rating
		op       func(*Ladder) error
		outcome  Outcome
		winner   string
		rated    bool
		wdl      [2][3]int
		forfeits [2]int
	}{
		{"battle won", DefaultRating, func(l *Ladder) error { return l.Finish("g1", "French", t0) }, Won, addr('b'), true, [2][3]int{{0, 0, 1}, {1, 0, 0}}, [2]int{}},
		{"battle drawn", DefaultRating, func(l *Ladder) error { return l.Finish("g1", "draw", t0) }, Drawn, "", true, [2][3]int{{0, 1, 0}, {0, 1, 0}}, [2]int{}},
		{"draw unrated", Rating{K: 32, Initial: 1500, RateForfeits: true}, func(l *Ladder) error { return l.Finish("g1", "", t0) }, Drawn, "", false, [2][3]int{{0, 1, 0}, {0, 1, 0}}, [2]int{}},
		{"adjudicated by address", DefaultRating, func(l *Ladder) error { return l.Adjudicate(org, "g1", addr('a'), t0) }, Adjudicated, addr('a'), true, [2][3]int{{1, 0, 0}, {0, 0, 1}}, [2]int{}},
		{"abandoned", DefaultRating, func(l *Ladder) error { return l.Abandon(org, "g1", t0) }, Abandoned, "", false, [2][3]int{}, [2]int{}},
		{"forfeit rated", DefaultRating, func(l *Ladder) error { _, err := l.Flag("g1", t0.Add(72*time.Hour), nil); return err }, Forfeited, addr('b'), true, [2][3]int{{0, 0, 1}, {1, 0, 0}}, [2]int{1, 0}},
		{"forfeit unrated", Rating{K: 32, Initial: 1500, RateDraws: true}, func(l *Ladder) error { _, err := l.Flag("g1", t0.Add(72*time.Hour), nil); return err }, Forfeited, addr('b'), false, [2][3]int{{0, 0, 1}, {1, 0, 0}}, [2]int{1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := withGame(t)
			l.Rating = c.rating
			if err := c.op(l); err != nil {
				t.Fatal(err)
			}
			g, _ := l.Game("g1")
			r := g.Result
			if g.Status != Over || r.Outcome != c.outcome || r.Winner != c.winner || r.Rated != c.rated {
				t.Fatalf("game %s %+v", g.Status, r)
			}
			if g.Clock.ToMove != -1 {
				t.Fatalf("clock still runs for seat %d", g.Clock.ToMove)
			}
			for i, a := range []byte{'a', 'b'} {
				m := *l.record(addr(a))
				if got := [3]int{m.Won, m.Drawn, m.Lost}; got != c.wdl[i] || m.Forfeits != c.forfeits[i] {
					t.Errorf("%s: W/D/L %v forfeits %d, want %v %d", m.Address, got, m.Forfeits, c.wdl[i], c.forfeits[i])
				}
				want := 1500.0
				if c.rated && c.winner != "" {
					want = map[bool]float64{true: 1516, false: 1484}[m.Address == c.winner]
				}
				if m.Rating != want {
					t.Errorf("%s rated %v, want %v", m.Address, m.Rating, want)
				}
			}
		})
	}
}

func TestElo(t *testing.T) {
	r := DefaultRating
	cases := []struct {
		a, b, score, want float64
	}{
		{1500, 1500, 1, 16},
		{1500, 1500, 0.5, 0},
		{1500, 1500, 0, -16},
		{1700, 1500, 1, 32 * (1 - 1/(1+1/1.0/3.1622776601683795))},
		{1500, 1900, 1, 32 * (1 - 1/(1+10.0))}, // an upset: 29.09
		{1500, 1900, 0.5, 32 * (0.5 - 1/(1+10.0))},
	}
	for _, c := range cases {
		if got := r.Change(c.a, c.b, c.score); abs(got-c.want) > 1e-9 {
			t.Errorf("Change(%v, %v, %v) = %v, want %v", c.a, c.b, c.score, got, c.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestStandings(t *testing.T) {
	l := club(t, KindLadder, 4, nil)
	play := func(id string, a, b byte, winner string) {
		t.Helper()
		if err := l.Start(org, Pairing{Scenario: "crecy", First: addr(a), Second: addr(b)}, id, sides, t0); err != nil {
			t.Fatal(err)
		}
		if err := l.Finish(id, winner, t0); err != nil {
			t.Fatal(err)
		}
	}
	play("g1", 'a', 'b', addr('b'))
	play("g2", 'c', 'd', "draw")
	if err := l.Start(org, Pairing{Scenario: "crecy", First: addr('b'), Second: addr('c')}, "g3", sides, t0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range l.Standings() {
		got = append(got, string(s.Address[0])+":"+itoa(s.Rank)+":"+itoa(s.InPlay))
	}
	want := []string{"b:1:1", "c:2:1", "d:2:0", "a:4:0"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("standings %v, want %v", got, want)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestEncode: a ladder with a game, a clock running and a challenge comes
// back the same from its stored form.
func TestEncode(t *testing.T) {
	l := withGame(t)
	back, err := Decode(l.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l, back) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", back, l)
	}
	if _, err := Decode([]byte("{")); err == nil {
		t.Fatal("a broken record decoded")
	}
}

// TestObservers: only an organizer names observers; twice or unknown is refused.
func TestObservers(t *testing.T) {
	l, err := New(Config{ID: "club", Kind: KindLadder, Organizers: []string{"org@x.org"}, Scenarios: []string{"crecy"}, Rating: DefaultRating}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		op       func() error
		want     error
		observer []string
	}{
		{"stranger", func() error { return l.AddObserver("eve@x.org", "obs@x.org") }, ErrNotOrganizer, nil},
		{"add", func() error { return l.AddObserver("ORG@x.org", "Obs@x.org") }, nil, []string{"obs@x.org"}},
		{"twice", func() error { return l.AddObserver("org@x.org", "obs@x.org") }, ErrInvalid, []string{"obs@x.org"}},
		{"not an address", func() error { return l.AddObserver("org@x.org", "obs") }, ErrInvalid, []string{"obs@x.org"}},
		{"remove unknown", func() error { return l.RemoveObserver("org@x.org", "x@x.org") }, ErrInvalid, []string{"obs@x.org"}},
		{"remove", func() error { return l.RemoveObserver("org@x.org", "obs@x.org") }, nil, nil},
	}
	for _, c := range cases {
		err := c.op()
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if !slices.Equal(l.Observers, c.observer) {
			t.Errorf("%s: observers %v, want %v", c.name, l.Observers, c.observer)
		}
	}
}
