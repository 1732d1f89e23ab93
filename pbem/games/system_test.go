package games

import (
	"bytes"
	"strings"
	"testing"

	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/store"
	"herald/pbem/system"
	"herald/pbem/system/menofiron"
)

// disguised is a Men of Iron battle the service does not recognise as
// one: its games take the seam's generic path (system.go), which any
// other game system's take, with rules whose every outcome the engine's
// own tests know.
type disguised struct{ system.Battle }

func (disguised) ID() string { return "disguised-melee" }

type disguisedSystem struct{}

func (disguisedSystem) ID() string        { return "disguised" }
func (disguisedSystem) Title() string     { return "a disguised test system" }
func (disguisedSystem) Battles() []string { return []string{"disguised-melee"} }
func (disguisedSystem) Battle(id string) (system.Battle, error) {
	b, err := menofiron.System{}.Battle("melee-test")
	return disguised{b}, err
}

func disguisedFixture(t *testing.T) *fixture {
	t.Helper()
	b, err := disguisedSystem{}.Battle("disguised-melee")
	if err != nil {
		t.Fatal(err)
	}
	sides := b.Sides()
	return newFixtureWith(t, []system.System{menofiron.System{}, disguisedSystem{}}, "disguised-melee",
		PlayerSpec{Side: sides[0], Address: alice}, PlayerSpec{Side: sides[1], Address: bob})
}

// TestSystemGamePlaysByMail plays a game through the seam alone: the
// welcomes, blocks chosen from what each mail says is legal, results to
// both players, and an export that verifies by replaying every block
// through the system.
func TestSystemGamePlaysByMail(t *testing.T) {
	f := disguisedFixture(t)
	if len(f.welcomes) != 2 {
		t.Fatalf("%d welcomes, want 2", len(f.welcomes))
	}
	for _, w := range f.welcomes {
		if !strings.Contains(w.mail.Text, "Melee") && !strings.Contains(w.mail.Text, "melee") {
			t.Errorf("welcome to %s does not name the battle:\n%s", w.to, w.mail.Text)
		}
	}
	mails, applied := f.playMails(map[string]*Autoplayer{alice: {Address: alice}, bob: {Address: bob}}, 40, 12)
	last := mails[len(mails)-1].mail.Text
	// The dice are truly random, so a Loss Check (16.0) may end the
	// battle before the twelfth block: the players then rightly stop.
	over := f.summary().Record.Over
	if applied < 12 && !over {
		t.Fatalf("%d blocks applied, want 12 (the players ran out of mails to answer with the battle on); the last mail:\n%s", applied, last)
	}
	if over && !strings.Contains(last, "the battle is over") {
		t.Errorf("the battle ended, but the last mail does not say so:\n%s", last)
	}
	t.Logf("the last mail:\n%s", last)
	if rep := f.verifySystem(); rep.Blocks < uint64(applied) {
		t.Errorf("the export replays %d blocks, want the %d applied", rep.Blocks, applied)
	}
}

// TestSystemGameRefusals: a block out of turn, an illegal block and a
// wrong key are each answered and change nothing.
func TestSystemGameRefusals(t *testing.T) {
	f := disguisedFixture(t)
	before := f.snapshot()
	turn, other := f.toAct(), alice
	if turn == alice {
		other = bob
	}
	for _, c := range []struct {
		name, from, key string
		lines           []string
		want            string
	}{
		{"out of turn", other, "", []string{"END"}, "no decision to make now"},
		{"illegal", turn, "", []string{"MOVE NOBODY TO 0101"}, ""},
		{"wrong key", turn, "WRONG-KEY-0000", []string{"END"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := f.handle(f.orders(c.from, c.key, c.lines...))
			if out.Status == "applied" {
				t.Fatalf("applied: %+v", out)
			}
			if got := f.snapshot(); got != before {
				t.Errorf("the game changed")
			}
			mails := f.deliverAll()
			if len(mails) == 0 && c.name != "wrong key" {
				t.Fatalf("no answer")
			}
			if c.want != "" && !strings.Contains(mails[0].mail.Text, c.want) {
				t.Errorf("answer lacks %q:\n%s", c.want, mails[0].mail.Text)
			}
		})
	}
}

// verifySystem checks the game's export as herald verify does, with the
// fixture's systems.
func (f *fixture) verifySystem() *dice.Report {
	f.t.Helper()
	var b bytes.Buffer
	if err := f.svc.Export(f.game, &b); err != nil {
		f.t.Fatal(err)
	}
	pub := f.svc.PublicKey()
	rep, err := dice.Verify(&b, dice.Options{PublicKey: &pub, Replayer: Replayer{Systems: f.systems}})
	if err != nil {
		f.t.Fatalf("export does not verify: %v", err)
	}
	return rep
}

// toAct is the address of the player whose block the game waits for.
func (f *fixture) toAct() string {
	f.t.Helper()
	var addr string
	err := f.st.View(func(tx *store.Tx) error {
		g, err := f.svc.load(tx, f.game)
		if err == nil {
			addr = g.player(engine.Side(g.current().Turn().Side))
		}
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return addr
}

// playMails answers the game's mails with the players' replies, from the
// welcomes, round after round, until enough blocks were applied, the
// players answer nothing or rounds are done; it returns every mail sent
// and the blocks applied.
func (f *fixture) playMails(players map[string]*Autoplayer, rounds, enough int) ([]sent, int) {
	f.t.Helper()
	var all []sent
	mails, applied := f.welcomes, 0
	for round := 0; round < rounds && applied < enough && len(mails) > 0; round++ {
		var next []sent
		for _, m := range mails {
			reply, err := players[m.to].Reply(m.raw)
			if err != nil {
				f.t.Fatal(err)
			}
			if reply == nil {
				continue
			}
			if out := f.handle(f.mailFrom(m.to, reply.Subject, reply.Text)); out.Status == "applied" {
				applied++
			}
			next = append(next, f.deliverAll()...)
		}
		all, mails = append(all, next...), next
	}
	return all, applied
}
