package games

import (
	"bytes"
	"strings"
	"testing"

	"herald/pbem"
	"herald/templates"
)

// A new game mails each player his own key, the dice commitment and the
// signing key; the other player's key appears in no mail to him.
func TestCreateGameWelcomesEachPlayerPrivately(t *testing.T) {
	f := newFixture(t)
	if len(f.keys) != 2 || f.keys[alice] == f.keys[bob] {
		t.Fatalf("keys %v: want two different keys", f.keys)
	}
	if s := f.summary(); s.Move != 1 || s.Chain.Length == 0 {
		t.Errorf("new game at move %d with %d log entries", s.Move, s.Chain.Length)
	}
	f.verify()
}

func TestCreateGameRefusesBadPlayers(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		players []PlayerSpec
		want    string
	}{
		{[]PlayerSpec{{"English", alice}}, "two players"},
		{[]PlayerSpec{{"English", alice}, {"Genoese", bob}}, `no side "Genoese"`},
		{[]PlayerSpec{{"English", alice}, {"French", alice}}, "own address"},
		{[]PlayerSpec{{"English", alice}, {"French", "bob"}}, "not a mail address"},
		{[]PlayerSpec{{"English", alice}, {"French", "herald+x@test.example"}}, "Herald's own address"},
	} {
		_, err := f.svc.CreateGame(NewGame{Scenario: "crecy", Players: tc.players})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error about %q", tc.players, err, tc.want)
		}
	}
}

// The opening of docs' sample game by mail: orders applied, both players
// told, the one who acts next given his block, the dice verifiable.
func TestOrdersByMail(t *testing.T) {
	f := newFixture(t)
	out := f.handle(f.orders(bob, "", "ACTIVATE Doria", "END", "CONTINUE Grimaldi"))
	if out.Status != "applied" || out.Rejected {
		t.Fatalf("outcome %+v", out)
	}
	mails := f.deliverAll()
	toAlice, toBob := only(t, mails, alice), only(t, mails, bob)
	// The French name Grimaldi for Continuity: the English decide on
	// Seizure, in the middle of the French turn.
	if !strings.Contains(toAlice.mail.Subject, "English to decide on Seizure") {
		t.Errorf("alice's subject %q", toAlice.mail.Subject)
	}
	blocks, _ := pbemBlocks(toAlice)
	if len(blocks) != 1 || blocks[0].Key != f.keys[alice] || blocks[0].Move != 2 {
		t.Errorf("alice's mail: want her block for move 2, got %+v", blocks)
	}
	if b, _ := pbemBlocks(toBob); len(b) != 0 {
		t.Errorf("bob, who waits, got a block: %+v", b)
	}
	if strings.Contains(string(toBob.raw), f.keys[alice]) || strings.Contains(string(toAlice.raw), f.keys[bob]) {
		t.Error("a player's key went to his opponent")
	}
	f.handle(f.orders(alice, "", "DECLINE"))
	f.deliverAll()
	if f.move() != 3 {
		t.Errorf("after two blocks the game is at move %d, want 3", f.move())
	}
	if rep := f.verify(); rep.Blocks != 2 {
		t.Errorf("verified %d blocks, want 2", rep.Blocks)
	}
}

// Refused mail changes nothing in the game and gets its own answer.
func TestRefusalsChangeNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mail   func(f *fixture) []byte
		status string
		to     string // who is answered
		says   string
	}{
		{"forged sender", func(f *fixture) []byte {
			return f.orders("eve@evil.example", f.keys[bob], "ACTIVATE Doria", "END")
		}, "refused:unknown-game", "eve@evil.example", "Herald runs no game \"crecy-test\" in which eve@evil.example plays"},
		{"wrong key", func(f *fixture) []byte {
			return f.orders(bob, "AAAA-BBBB-CCCC-DDDD", "ACTIVATE Doria", "END")
		}, "refused:wrong-key", bob, "wrong key"},
		{"other player's key", func(f *fixture) []byte {
			return f.orders(bob, f.keys[alice], "ACTIVATE Doria", "END")
		}, "refused:wrong-key", bob, "wrong key"},
		{"stale move", func(f *fixture) []byte {
			b := strings.Replace(string(f.orders(bob, "", "ACTIVATE Doria")), "move 1 ---", "move 0 ---", 1)
			return []byte(b)
		}, "refused:stale-move", bob, "earlier move"},
		{"not his turn", func(f *fixture) []byte {
			return f.orders(alice, "", "ACTIVATE Godfrey")
		}, "refused:not-your-turn", alice, "not your move"},
		{"illegal order", func(f *fixture) []byte {
			return f.orders(bob, "", "ACTIVATE Godfrey")
		}, "refused:illegal-order", bob, "line"},
		{"unparsable order", func(f *fixture) []byte {
			return f.orders(bob, "", "ACTIVTE Doria")
		}, "refused:illegal-order", bob, "could not be read"},
		{"no block", func(f *fixture) []byte {
			return f.mailFrom(bob, "Re: [crecy-test] hello", "I'll send my orders tomorrow.\n")
		}, "refused:no-block", bob, "no orders found"},
		{"two blocks", func(f *fixture) []byte {
			b := templates.OrderBlock{GameID: f.game, Move: f.move(), Key: f.keys[bob], Prefill: []string{"ACTIVATE Doria"}}.Text()
			b2 := templates.OrderBlock{GameID: f.game, Move: f.move(), Key: f.keys[bob], Prefill: []string{"ACTIVATE Grimaldi"}}.Text()
			return f.mailFrom(bob, "Re: [crecy-test] orders", b+"\nor rather\n\n"+b2)
		}, "refused:several-blocks", bob, "more than one order block"},
		{"unknown game", func(f *fixture) []byte {
			raw := f.orders(bob, "", "ACTIVATE Doria")
			return bytes.ReplaceAll(raw, []byte("crecy-test"), []byte("crecy-nope"))
		}, "refused:unknown-game", bob, "No such game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			before := f.snapshot()
			out := f.handle(tc.mail(f))
			if out.Status != tc.status || !out.Rejected {
				t.Errorf("outcome %+v, want %s and rejected", out, tc.status)
			}
			if after := f.snapshot(); after != before {
				t.Errorf("the game changed:\n%s\n-> %s", before, after)
			}
			reply := only(t, f.deliverAll(), tc.to)
			if !strings.Contains(reply.mail.Subject+reply.mail.Text, tc.says) {
				t.Errorf("reply %q does not say %q:\n%s", reply.mail.Subject, tc.says, reply.mail.Text)
			}
		})
	}
}

// The same mail twice is applied once; its copies change nothing, get no
// answer, and are filed as the first was (a copy may be the same mail
// offered again after a crash between the commit and the IMAP flag).
func TestDuplicateMessageID(t *testing.T) {
	f := newFixture(t)
	raw := f.orders(bob, "", "ACTIVATE Doria", "END")
	if out := f.handle(raw); out.Status != "applied" {
		t.Fatalf("first copy: %+v", out)
	}
	f.deliverAll()
	before := f.snapshot()
	for copy := 2; copy <= 3; copy++ {
		if out := f.handle(raw); out.Status != "duplicate" || out.Rejected {
			t.Errorf("copy %d: %+v, want a duplicate filed as processed", copy, out)
		}
		if n := len(f.deliverAll()); n != 0 {
			t.Errorf("copy %d answered with %d mails", copy, n)
		}
	}
	if f.snapshot() != before {
		t.Error("a duplicate changed the game")
	}
	// A refused mail's copy is filed as refused again, and unanswered.
	bad := f.orders(bob, "", "ACTIVATE Nobody")
	if out := f.handle(bad); !out.Rejected {
		t.Fatalf("bad orders: %+v", out)
	}
	f.deliverAll()
	if out := f.handle(bad); out.Status != "duplicate" || !out.Rejected {
		t.Errorf("copy of refused orders: %+v, want a duplicate filed as rejected", out)
	}
	if n := len(f.deliverAll()); n != 0 {
		t.Errorf("copy of refused orders answered with %d mails", n)
	}
}

// CHECK says what would happen up to the first die roll and changes
// nothing; the opponent hears nothing.
func TestCheckChangesNothing(t *testing.T) {
	f := newFixture(t)
	before := f.snapshot()
	out := f.handle(f.orders(bob, "", "CHECK", "ACTIVATE Doria", "END", "CONTINUE Grimaldi"))
	if out.Status != "checked" {
		t.Fatalf("outcome %+v", out)
	}
	m := only(t, f.deliverAll(), bob)
	for _, want := range []string{"check of your orders", "Doria", "ACTIVATE Doria"} {
		if !strings.Contains(m.mail.Subject+m.mail.Text, want) {
			t.Errorf("check reply lacks %q:\n%s", want, m.mail.Text)
		}
	}
	if f.snapshot() != before {
		t.Error("CHECK changed the game")
	}
}

// RESIGN asks for confirmation; only the code it sends ends the game.
func TestResignNeedsConfirmation(t *testing.T) {
	f := newFixture(t)
	if out := f.handle(f.orders(alice, "", "RESIGN")); out.Status != "resign-asked" {
		t.Fatalf("RESIGN: %+v", out)
	}
	ask := only(t, f.deliverAll(), alice)
	blocks, _ := pbemBlocks(ask)
	if len(blocks) != 1 || len(blocks[0].Lines) == 0 {
		t.Fatalf("confirmation mail holds no block:\n%s", ask.mail.Text)
	}
	if out := f.handle(f.orders(alice, "", "RESIGN CONFIRM 000000")); out.Status != "refused:stale-move" {
		t.Errorf("wrong code: %+v", out)
	}
	f.deliverAll()
	if f.summary().Record.Over {
		t.Fatal("a wrong code ended the game")
	}
	if out := f.handle(f.orders(alice, "", strings.TrimSpace(blocks[0].Lines[0].Text))); out.Status != "resigned" {
		t.Fatalf("confirmation: %+v", out)
	}
	mails := f.deliverAll()
	for _, p := range []string{alice, bob} {
		m := only(t, mails, p)
		if !strings.Contains(m.mail.Text, "the French win") {
			t.Errorf("game-over mail to %s:\n%s", p, m.mail.Text)
		}
	}
	if s := f.summary(); !s.Record.Over || !strings.Contains(s.Waiting, "English resigned") {
		t.Errorf("after resigning: %+v", s)
	}
}

// Mail from robots is recorded and never answered.
func TestRobotsAreNotAnswered(t *testing.T) {
	f := newFixture(t)
	vacation := strings.Replace(string(f.mailFrom(bob, "Out of office", "I am away until Monday.\n")),
		"Subject:", "Auto-Submitted: auto-replied\r\nSubject:", 1)
	out := f.handle([]byte(vacation))
	if !strings.HasPrefix(out.Status, "ignored:") || !out.Rejected {
		t.Errorf("vacation notice: %+v", out)
	}
	if n := len(f.deliverAll()); n != 0 {
		t.Errorf("answered a robot with %d mails", n)
	}
}

// A player over the hourly cap of mails with his key gets one polite
// notice, then silence, and nothing more he sends is read; chatter without
// a key, which anyone could send in his name, counts nothing against him
// and is answered at most AnswersPerHour times.
func TestRateLimit(t *testing.T) {
	f := newFixture(t)
	f.svc.cfg.PerHour = 2
	f.svc.limiter = pbem.NewLimiter(2, 3)
	for i := 0; i < 5; i++ {
		f.handle(f.mailFrom(bob, "chatter", "hello"))
	}
	if n := len(f.deliverAll()); n != 3 {
		t.Errorf("%d answers to five mails without a key, want 3", n)
	}
	for i := 0; i < 2; i++ {
		if out := f.handle(f.orders(bob, "", "CHECK", "ACTIVATE Doria")); out.Status != "checked" {
			t.Errorf("keyed mail %d: %+v", i+1, out)
		}
	}
	f.deliverAll()
	before := f.snapshot()
	if out := f.handle(f.orders(bob, "", "ACTIVATE Doria")); out.Status != "refused:rate-limited" {
		t.Errorf("third keyed mail: %+v", out)
	}
	if m := only(t, f.deliverAll(), bob); !strings.Contains(m.mail.Subject, "Too many mails") {
		t.Errorf("notice %q", m.mail.Subject)
	}
	if out := f.handle(f.orders(bob, "", "ACTIVATE Doria")); out.Status != "ignored:rate-limited" {
		t.Errorf("fourth keyed mail: %+v", out)
	}
	if n := len(f.deliverAll()); n != 0 || f.snapshot() != before {
		t.Errorf("%d more notices, or the game changed", n)
	}
	if out := f.handle(f.orders(alice, "", "STANDING SEIZE NEVER")); out.Status == "ignored:rate-limited" {
		t.Errorf("the other player was stopped too: %+v", out)
	}
}

// The last mail of a game carries its dice report.
func TestGameOverCarriesTheDiceReport(t *testing.T) {
	f := newFixture(t)
	f.handle(f.orders(bob, "", "ACTIVATE Doria", "END", "CONTINUE Grimaldi"))
	f.handle(f.orders(alice, "", "DECLINE")) // the French roll for Continuity
	f.deliverAll()
	f.handle(f.orders(alice, "", "RESIGN"))
	ask := only(t, f.deliverAll(), alice)
	blocks, _ := pbemBlocks(ask)
	f.handle(f.orders(alice, "", strings.TrimSpace(blocks[0].Lines[0].Text)))
	m := only(t, f.deliverAll(), bob)
	if !strings.Contains(m.mail.Text, "Dice report: 1 rolls of a d10") || !strings.Contains(m.mail.Text, "chi-square") {
		t.Errorf("game-over mail without the dice report:\n%s", m.mail.Text)
	}
}

// A Shock Phase by mail: the English ask to decide their Counter-Charges
// themselves; the Scots' Shock stops for it, the English get a Decision
// mail listing their answers, and their answer resolves the attack.
func TestShockResponseByMail(t *testing.T) {
	f := newFixtureOf(t, "melee-test", PlayerSpec{Side: "English", Address: alice}, PlayerSpec{Side: "Scots", Address: bob})
	if out := f.handle(f.orders(alice, "", "STANDING COUNTER-CHARGE ASK")); out.Status != "applied" {
		t.Fatalf("standing order: %+v", out)
	}
	f.deliverAll()
	if out := f.handle(f.orders(bob, "", "ACTIVATE Douglas", "SHOCK SK1 AT EM1", "END")); out.Status != "applied" {
		t.Fatalf("shock: %+v", out)
	}
	toAlice := only(t, f.deliverAll(), alice)
	text := toAlice.mail.Text
	for _, want := range []string{"English to meet the Shock attacks", "COUNTER-CHARGE EM1", "STAND EM1", "STANDING COUNTER-CHARGE ALWAYS"} {
		if !strings.Contains(toAlice.mail.Subject+"\n"+text, want) {
			t.Errorf("alice's decision mail lacks %q:\n%s", want, text)
		}
	}
	if out := f.handle(f.orders(alice, "", "COUNTER-CHARGE EM1")); out.Status != "applied" {
		t.Fatalf("answer: %+v", out)
	}
	mails := f.deliverAll()
	for _, addr := range []string{alice, bob} {
		m := only(t, mails, addr)
		if !strings.Contains(m.mail.Text, "Counter-Charge DR") && !strings.Contains(m.mail.Text, "Counter-Charge") {
			t.Errorf("%s's mail does not report the Counter-Charge:\n%s", addr, m.mail.Text)
		}
		if !strings.Contains(m.mail.Text, "SK1 against EM1") {
			t.Errorf("%s's mail does not report the attack:\n%s", addr, m.mail.Text)
		}
	}
	if rep := f.verify(); rep.Blocks != 3 {
		t.Errorf("verified %d blocks, want 3", rep.Blocks)
	}
}
