package games

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/templates"
)

// start has the organizer start a melee-test game between first (the
// Scots, who act first) and second, and returns its id and each player's
// key for it, read from the welcomes.
func (f *ladderFix) start(first, second string) (string, map[string]string) {
	f.t.Helper()
	says, err := f.svc.LadderCommand("club", org, "START melee-test "+first+" "+second)
	if err != nil {
		f.t.Fatal(err)
	}
	id := strings.TrimSuffix(strings.Fields(says[0])[1], ":")
	keys := map[string]string{}
	for _, m := range f.deliverAll() {
		if blocks, _ := pbemBlocks(m); len(blocks) == 1 && blocks[0].GameID == id {
			keys[m.to] = blocks[0].Key
		}
	}
	if len(keys) != 2 {
		f.t.Fatalf("game %s: keys %v", id, keys)
	}
	return id, keys
}

// play mails a block of orders for game id's current move.
func (f *ladderFix) play(id, from, key string, lines ...string) (Outcome, []sent) {
	f.t.Helper()
	f.game = id
	b := templates.OrderBlock{GameID: id, Move: f.move(), Key: key, Prefill: lines}
	f.n++
	raw, err := mailbox.Compose(mailbox.Outgoing{From: from, To: []string{"herald+" + id + "@test.example"}, Subject: "orders",
		Date: f.clock, MessageID: fmt.Sprintf("o%d.%s", f.n, from), Text: b.Text()})
	if err != nil {
		f.t.Fatal(err)
	}
	return f.handle(raw), f.deliverAll()
}

// tickTo moves the clock to t an hour at a time, ticking at each step.
func (f *ladderFix) tickTo(t time.Time) int {
	f.t.Helper()
	n := 0
	for f.clock.Before(t) {
		f.clock = f.clock.Add(time.Hour)
		if f.clock.After(t) {
			f.clock = t
		}
		k, err := f.svc.Tick(f.clock)
		if err != nil {
			f.t.Fatal(err)
		}
		n += k
	}
	return n
}

func (f *ladderFix) game1(id string) ladder.Game {
	f.t.Helper()
	l, err := f.svc.Ladder("club")
	if err != nil {
		f.t.Fatal(err)
	}
	g, err := l.Game(id)
	if err != nil {
		f.t.Fatal(err)
	}
	return *g
}

// TestLadderClockRules: a move is charged from the mail that asked for it
// to the mail applied, with the increment; at zero "adjudicate" holds the
// game for the organizer (orders refused meanwhile) and "opponent" lets
// the other player claim or continue.
func TestLadderClockRules(t *testing.T) {
	t.Run("charged and incremented", func(t *testing.T) {
		f := newLadderFix(t, "forfeit")
		id, keys := f.start(alice, bob)
		g := f.game1(id)
		if g.Clock.ToMove != 0 || !g.Clock.AskedAt.Equal(epoch) {
			t.Fatalf("clock %+v: want the Scots' running from the start", g.Clock)
		}
		f.tickTo(epoch.Add(5 * time.Hour))
		if out, _ := f.play(id, alice, keys[alice], "PASS"); out.Status != "applied" {
			t.Fatalf("PASS: %+v", out)
		}
		g = f.game1(id)
		if want := 48*time.Hour - 5*time.Hour + 24*time.Hour; g.Clock.Left[0] != min(want, 72*time.Hour) {
			t.Errorf("the Scots have %v, want %v", g.Clock.Left[0], want)
		}
		if g.Clock.ToMove != 1 || !g.Clock.AskedAt.Equal(f.clock) {
			t.Errorf("clock %+v: want the English's running from the result", g.Clock)
		}
	})
	t.Run("adjudicate", func(t *testing.T) {
		f := newLadderFix(t, "adjudicate")
		id, keys := f.start(alice, bob)
		f.tickTo(epoch.Add(49 * time.Hour))
		told := map[string]bool{}
		for _, m := range f.deliverAll() {
			told[m.to] = true
		}
		if !told[org] || !told[alice] || !told[bob] {
			t.Errorf("told of the timeout: %v", told)
		}
		g := f.game1(id)
		if g.Status != ladder.AwaitingAdjudication {
			t.Fatalf("status %s", g.Status)
		}
		before := ladderSnapshot(t, f.st)
		out, mails := f.play(id, alice, keys[alice], "PASS")
		if !out.Rejected || len(mails) != 1 || !strings.Contains(strings.Join(strings.Fields(mails[0].mail.Text), " "), "waits for an organizer") {
			t.Fatalf("orders while waiting: %+v\n%s", out, textOf(mails))
		}
		if ladderSnapshot(t, f.st) != before {
			t.Error("orders while waiting changed the store")
		}
		if out, mails := f.cmd(org, "", "ADJUDICATE "+id+" english"); out.Rejected {
			t.Fatalf("adjudicate: %s", textOf(mails))
		}
		g = f.game1(id)
		if g.Status != ladder.Over || g.Result.Winner != bob || g.Result.Outcome != ladder.Adjudicated {
			t.Errorf("game %+v", g.Result)
		}
	})
	t.Run("opponent", func(t *testing.T) {
		f := newLadderFix(t, "opponent")
		id1, keys1 := f.start(alice, bob)
		id2, _ := f.start(carol, dave)
		var mails []sent
		f.clock = f.clock.Add(time.Minute)
		for f.clock.Before(epoch.Add(49 * time.Hour)) {
			f.tickTo(f.clock.Add(time.Hour))
			mails = append(mails, f.deliverAll()...)
		}
		claims := 0
		for _, m := range mails {
			if strings.Contains(m.mail.Subject, "Your opponent's time ran out") {
				claims++
				if m.to != bob && m.to != dave {
					t.Errorf("claim offered to %s", m.to)
				}
			}
		}
		if claims != 2 {
			t.Fatalf("%d claim mails, want 2:\n%s", claims, textOf(mails))
		}
		// the late player cannot claim; the other decides
		before := ladderSnapshot(t, f.st)
		if out, _ := f.cmd(alice, "", "CLAIM "+id1+" WIN"); !out.Rejected || ladderSnapshot(t, f.st) != before {
			t.Errorf("the late player claimed: %+v", out)
		}
		if out, m := f.cmd(bob, "", "CLAIM "+id1+" CONTINUE"); out.Rejected {
			t.Fatalf("continue: %s", textOf(m))
		}
		if g := f.game1(id1); g.Status != ladder.Playing || g.Clock.Left[0] != 24*time.Hour {
			t.Errorf("after CONTINUE: %s %+v", g.Status, g.Clock)
		}
		if out, _ := f.play(id1, alice, keys1[alice], "PASS"); out.Status != "applied" {
			t.Errorf("the late player's move after CONTINUE: %+v", out)
		}
		l, _ := f.svc.Ladder("club")
		r0 := l.Members[3].Rating // dave
		if out, m := f.cmd(dave, "", "CLAIM "+id2+" WIN"); out.Rejected {
			t.Fatalf("claim: %s", textOf(m))
		}
		g := f.game1(id2)
		if g.Status != ladder.Over || g.Result.Outcome != ladder.Forfeited || g.Result.Winner != dave {
			t.Errorf("after CLAIM WIN: %+v", g.Result)
		}
		l, _ = f.svc.Ladder("club")
		if d := l.Members[3].Rating - r0; d != 16 {
			t.Errorf("dave gained %v, want 16 (K 32, equals)", d)
		}
		if out, _ := f.cmd(dave, "", "CLAIM "+id2+" WIN"); !out.Rejected {
			t.Error("a second claim was taken")
		}
	})
}

// TestLadderChallenge: a challenge by mail, accepted, starts the game
// with the sides asked; a declined one is gone and its challenger told.
func TestLadderChallenge(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	out, mails := f.cmd(alice, "", "CHALLENGE "+bob+" melee-test SECOND")
	if out.Rejected || len(mails) != 2 {
		t.Fatalf("challenge: %+v\n%s", out, textOf(mails))
	}
	if _, m := f.cmd(carol, "", "ACCEPT 1"); !strings.Contains(strings.Join(strings.Fields(textOf(m)), " "), "not addressed to you") {
		t.Errorf("carol accepted bob's challenge:\n%s", textOf(m))
	}
	out, mails = f.cmd(bob, "", "CHALLENGES", "ACCEPT 1")
	if out.Rejected {
		t.Fatalf("accept: %s", textOf(mails))
	}
	// the same mail again (a client that sends twice, a crash before the
	// mail was flagged): nothing more happens, nothing is sent
	before := ladderSnapshot(t, f.st)
	if again := f.handle(f.last); again.Status != "duplicate" && again.Status != out.Status {
		t.Errorf("the copy: %+v", again)
	}
	if len(f.deliverAll()) != 0 || ladderSnapshot(t, f.st) != before {
		t.Error("a copy of the ACCEPT mail did something")
	}
	l, _ := f.svc.Ladder("club")
	if len(l.Games) != 1 || l.Games[0].Seats[0].Address != bob || l.Games[0].Seats[1].Address != alice || len(l.Challenges) != 0 {
		t.Fatalf("games %+v, challenges %+v", l.Games, l.Challenges)
	}
	welcomes := 0
	for _, m := range mails {
		if strings.Contains(m.mail.Subject, "you command") {
			welcomes++
		}
	}
	if welcomes != 2 {
		t.Errorf("%d welcomes:\n%s", welcomes, textOf(mails))
	}
	f.cmd(carol, "", "CHALLENGE "+dave)
	out, mails = f.cmd(dave, "", "DECLINE 2")
	if out.Rejected || len(mails) != 2 || (mails[0].to != carol && mails[1].to != carol) {
		t.Errorf("decline: %+v\n%s", out, textOf(mails))
	}
	if l, _ := f.svc.Ladder("club"); len(l.Challenges) != 0 {
		t.Errorf("challenges left: %+v", l.Challenges)
	}
}

// TestLadderGameEnds: a battle's own end (here a resignation) records
// the result in the ladder, rates it, mails the standings to every
// member and the end to the observer, once; an abandoned game has no
// result and moves no rating.
func TestLadderGameEnds(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	id, keys := f.start(alice, bob)
	id2, _ := f.start(carol, dave)
	out, ask := f.play(id, bob, keys[bob], "RESIGN")
	if out.Status != "resign-asked" {
		t.Fatalf("RESIGN: %+v", out)
	}
	var code string
	for _, m := range ask {
		if blocks, _ := pbemBlocks(m); m.to == bob && len(blocks) == 1 {
			code = strings.TrimSpace(blocks[0].Lines[0].Text)
		}
	}
	out, mails := f.play(id, bob, keys[bob], code)
	if out.Status != "resigned" {
		t.Fatalf("confirm %q: %+v", code, out)
	}
	g := f.game1(id)
	if g.Status != ladder.Over || g.Result.Outcome != ladder.Won || g.Result.Winner != alice || g.Result.Change[0] != 16 {
		t.Errorf("ladder game after the resignation: %+v", g.Result)
	}
	standings, over := map[string]int{}, 0
	for _, m := range mails {
		if strings.Contains(m.mail.MessageID, "ladder-club.standings."+id) {
			standings[m.to]++
		}
		if m.to == obs && strings.Contains(m.mail.MessageID, id+".observer.over-") {
			over++
			if !strings.Contains(string(m.raw), id+"-dice.jsonl") {
				t.Errorf("the observer's end has no dice log attached")
			}
		}
	}
	if len(standings) != 4 || over != 1 {
		t.Errorf("standings to %v, observer's ends %d:\n%s", standings, over, textOf(mails))
	}
	l, _ := f.svc.Ladder("club")
	before := map[string]float64{}
	for _, m := range l.Members {
		before[m.Address] = m.Rating
	}
	if _, err := f.svc.LadderCommand("club", org, "ABANDON "+id2); err != nil {
		t.Fatal(err)
	}
	mails = f.deliverAll()
	l, _ = f.svc.Ladder("club")
	for _, m := range l.Members {
		if m.Rating != before[m.Address] {
			t.Errorf("%s's rating moved on an abandoned game", m.Address)
		}
	}
	told := map[string]bool{}
	for _, m := range mails {
		if strings.Contains(m.mail.MessageID, ".standings.") {
			t.Errorf("standings mailed after an abandoned game")
		}
		if strings.Contains(m.mail.Subject, "abandoned") && strings.Contains(string(m.raw), id2+"-dice.jsonl") {
			told[m.to] = true
		}
	}
	if !told[carol] || !told[dave] || !told[obs] {
		t.Errorf("told of the abandonment: %v\n%s", told, textOf(mails))
	}
	f.game = id2
	if s := f.summary(); !s.Record.Over || !strings.Contains(s.Record.Result, "abandoned") {
		t.Errorf("Herald's game %s: over %v, %q", id2, s.Record.Over, s.Record.Result)
	}
}

// TestLadderRoundRobin: a round-robin of four by mail: three rounds,
// each starting its two games, a round not over refuses the next, a
// fourth is refused, and members are fixed once it started.
func TestLadderRoundRobin(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	if _, err := f.svc.CreateLadder("rr", org, []string{"round-robin", "scenarios=melee-test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.LadderCommand("rr", org, "ADD "+alice, "ADD "+bob, "ADD "+carol, "ADD "+dave); err != nil {
		t.Fatal(err)
	}
	met := map[[2]string]int{}
	for round := 1; round <= 3; round++ {
		if _, err := f.svc.LadderCommand("rr", org, "PAIR"); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_, err := f.svc.LadderCommand("rr", org, "PAIR")
		if !errors.Is(err, ladder.ErrRoundInPlay) {
			t.Errorf("round %d paired again while in play: %v", round, err)
		}
		l, _ := f.svc.Ladder("rr")
		for _, g := range l.Games {
			if g.Round != round {
				continue
			}
			a, b := g.Seats[0].Address, g.Seats[1].Address
			if a > b {
				a, b = b, a
			}
			met[[2]string{a, b}]++
			if _, err := f.svc.LadderCommand("rr", org, "ADJUDICATE "+g.ID+" draw"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(met) != 6 {
		t.Errorf("pairs met: %v, want all six once", met)
	}
	for p, n := range met {
		if n != 1 {
			t.Errorf("%v met %d times", p, n)
		}
	}
	for _, c := range []struct {
		line string
		want error
	}{{"PAIR", ladder.ErrComplete}, {"ADD " + eve, ladder.ErrStarted}, {"REMOVE " + alice, ladder.ErrStarted}} {
		if _, err := f.svc.LadderCommand("rr", org, c.line); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.line, err, c.want)
		}
	}
}
