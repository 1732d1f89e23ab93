package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"herald/pbem/ladder"
	"herald/pbem/mailbox"
	"herald/pbem/store"
	"herald/templates"
)

const (
	boss  = "boss@test.example" // one of Config.Organizers: may CREATE
	org   = "org@test.example"  // organizes ladder club
	carol = "carol@test.example"
	dave  = "dave@test.example"
	eve   = "eve@test.example" // nobody's
	obs   = "obs@test.example" // observes
)

// ladderFix is a service on a real store with ladder "club" of alice,
// bob, carol and dave, organized by org, with a clock.
type ladderFix struct {
	*fixture
	last []byte // the last mail of cmd
}

func newLadderFix(t *testing.T, timeout string) *ladderFix {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "herald.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &ladderFix{fixture: &fixture{t: t, st: st, keys: map[string]string{}, clock: epoch}}
	svc, err := New(Config{Store: st, Address: heraldAddr, Now: func() time.Time { return f.clock }, Organizers: []string{boss},
		OutageGrace: 2 * time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	if _, err := svc.CreateLadder("club", org, []string{"ladder", "scenarios=crecy,melee-test", "clock=2d+1d", "cap=3d",
		"reminders=0.5,0.25", "warning=6h", "timeout=" + timeout, "k=32", "initial=1500"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.LadderCommand("club", org, "ADD "+alice, "ADD "+bob, "ADD "+carol, "ADD "+dave, "OBSERVE "+obs); err != nil {
		t.Fatal(err)
	}
	for _, m := range f.deliverAll() {
		if strings.Contains(m.mail.Subject, "Welcome to ladder") {
			blocks, _ := pbemBlocks(m)
			if len(blocks) != 1 || blocks[0].Key == "" {
				t.Fatalf("welcome to %s holds no block with a key:\n%s", m.to, m.mail.Text)
			}
			f.keys[m.to] = blocks[0].Key
		}
	}
	for _, a := range []string{org, alice, bob, carol, dave} {
		if f.keys[a] != svc.LadderKey("club", a) {
			t.Fatalf("%s's welcome key %q, want %q", a, f.keys[a], svc.LadderKey("club", a))
		}
	}
	return f
}

// cmd mails Herald a block of ladder commands from from, with his key
// unless key is given.
func (f *ladderFix) cmd(from, key string, lines ...string) (Outcome, []sent) {
	f.t.Helper()
	if key == "" {
		key = f.keys[from]
	}
	text := templates.OrderBlock{GameID: "ladder-club", Move: 0, Key: key, Prefill: lines}.Text()
	if key == "-" { // no KEY line
		text = "--- herald orders: ladder-club move 0 ---\n" + strings.Join(lines, "\n") + "\n--- end orders ---\n"
	}
	f.n++
	raw, err := mailbox.Compose(mailbox.Outgoing{From: from, To: []string{"herald+ladder-club@test.example"}, Subject: "ladder",
		Date: f.clock, MessageID: fmt.Sprintf("l%d.%s", f.n, from), Text: "Hi\n\n" + text + "\n"})
	if err != nil {
		f.t.Fatal(err)
	}
	f.last = raw
	out := f.handle(raw)
	return out, f.deliverAll()
}

// ladderSnapshot is everything of the store a ladder command may change:
// the ladders and their journals, every game's record, state and dice.
func ladderSnapshot(t testing.TB, st *store.Store) string {
	t.Helper()
	var b bytes.Buffer
	err := st.View(func(tx *store.Tx) error {
		for _, id := range tx.Ladders() {
			raw, err := tx.Ladder(id)
			if err != nil {
				return err
			}
			b.Write(raw)
			if err := tx.LadderLog(id, func(seq uint64, e []byte) error { fmt.Fprintf(&b, "%d %s\n", seq, e); return nil }); err != nil {
				return err
			}
		}
		games, err := tx.Games()
		if err != nil {
			return err
		}
		for _, g := range games {
			json.NewEncoder(&b).Encode(g)
			s, err := tx.State(g.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%d %s %s\n", s.Events, s.State, tx.LadderOfGame(g.ID))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func textOf(mails []sent) string {
	var b strings.Builder
	for _, m := range mails {
		fmt.Fprintf(&b, "To %s: %s\n%s\n", m.to, m.mail.Subject, m.mail.Text)
	}
	return b.String()
}

// TestLadderRefusals: every command refuses bad input with a clear reply
// to its sender and changes nothing in the store.
func TestLadderRefusals(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	// a game to refer to, and one already finished
	if _, err := f.svc.LadderCommand("club", org, "START crecy "+alice+" "+bob, "START crecy "+carol+" "+dave); err != nil {
		t.Fatal(err)
	}
	l, err := f.svc.Ladder("club")
	if err != nil {
		t.Fatal(err)
	}
	playing, over := l.Games[0].ID, l.Games[1].ID
	if _, err := f.svc.LadderCommand("club", org, "ADJUDICATE "+over+" french"); err != nil {
		t.Fatal(err)
	}
	f.deliverAll()
	cases := []struct {
		name, from, key string
		lines           []string
		want            string // in the reply
		to              string // the reply's recipient ("" : from)
	}{
		{"unknown member challenged", alice, "", []string{"CHALLENGE " + eve}, "not a member of the ladder", ""},
		{"challenge oneself", alice, "", []string{"CHALLENGE " + alice}, "cannot challenge himself", ""},
		{"scenario not allowed", alice, "", []string{"CHALLENGE " + carol + " agincourt"}, "scenario not allowed", ""},
		{"accept unknown challenge", bob, "", []string{"ACCEPT 7"}, "no such open challenge", ""},
		{"not an organizer adds", alice, "", []string{"ADD " + eve}, "not an organizer of the ladder", ""},
		{"not an organizer adjudicates", alice, "", []string{"ADJUDICATE " + playing + " english"}, "not an organizer", ""},
		{"adjudicate a finished game", org, "", []string{"ADJUDICATE " + over + " english"}, "game already finished", ""},
		{"abandon a finished game", org, "", []string{"ABANDON " + over}, "game already finished", ""},
		{"clock of a finished game", org, "", []string{"CLOCK " + over + " english 1d"}, "game already finished", ""},
		{"unknown game", org, "", []string{"ABANDON crecy-nope"}, "no such game", ""},
		{"winner neither side", org, "", []string{"ADJUDICATE " + playing + " burgundians"}, "neither side", ""},
		{"remove a member in play", org, "", []string{"REMOVE " + alice}, "has a game in play", ""},
		{"remove unknown", org, "", []string{"REMOVE " + eve}, "not a member", ""},
		{"add twice", org, "", []string{"ADD " + bob}, "already a member", ""},
		{"start unknown member", org, "", []string{"START crecy " + alice + " " + eve}, "not a member", ""},
		{"clock over the cap", org, "", []string{"CLOCK " + playing + " english 9d"}, "at most the cap", ""},
		{"bad time", org, "", []string{"CLOCK " + playing + " english soon"}, "want e.g. 36h", ""},
		{"unknown command", alice, "", []string{"FLY away"}, "no ladder command", ""},
		{"all or none", org, "", []string{"ADD " + eve, "ADD nobody"}, "not a mail address", ""},
		{"export by a member", alice, "", []string{"EXPORT " + playing}, "not an organizer", ""},
		{"claim without timeout", bob, "", []string{"CLAIM " + playing + " WIN"}, "not possible in the game's state", ""},
		{"wrong key", alice, "AAAA-BBBB-CCCC-DDDD", []string{"CHALLENGE " + bob}, "not your key", ""},
		{"another member's key", alice, f.keys[bob], []string{"CHALLENGE " + bob}, "not your key", ""},
		{"no key", alice, "-", []string{"CHALLENGE " + bob}, "no KEY line", ""},
		{"stranger", eve, "AAAA-BBBB-CCCC-DDDD", []string{"STANDINGS"}, "runs no ladder", ""},
		{"create without being one of Herald's organizers", org, f.keys[org], []string{"CREATE ladder scenarios=crecy"}, "runs no ladder", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := ladderSnapshot(t, f.st)
			out, mails := f.cmd(c.from, c.key, c.lines...)
			if !out.Rejected {
				t.Errorf("outcome %+v, want rejected", out)
			}
			if after := ladderSnapshot(t, f.st); after != before {
				t.Errorf("the store changed:\nbefore %s\nafter  %s", before, after)
			}
			if len(mails) != 1 || mails[0].to != c.from {
				t.Fatalf("want one reply to %s, got:\n%s", c.from, textOf(mails))
			}
			text := strings.Join(strings.Fields(mails[0].mail.Text), " ")
			if !strings.Contains(text, c.want) || !strings.Contains(text, "changed") {
				t.Errorf("reply does not say %q and that nothing changed:\n%s", c.want, mails[0].mail.Text)
			}
			if strings.Contains(mails[0].mail.Text, f.keys[c.to]) && c.to != "" {
				t.Errorf("reply holds another's key")
			}
		})
	}
}

// TestLadderCreateByMail: one of Herald's organizers creates a ladder by
// mail with his organizer key; bad settings are refused and create none.
func TestLadderCreateByMail(t *testing.T) {
	f := newLadderFix(t, "forfeit")
	send := func(key string, line string) (Outcome, []sent) {
		b := templates.OrderBlock{GameID: "ladder-spring", Move: 0, Key: key, Prefill: []string{line}}
		f.n++
		raw, err := mailbox.Compose(mailbox.Outgoing{From: boss, To: []string{"herald+ladder-spring@test.example"}, Subject: "new ladder",
			Date: f.clock, MessageID: fmt.Sprintf("c%d", f.n), Text: b.Text()})
		if err != nil {
			t.Fatal(err)
		}
		return f.handle(raw), f.deliverAll()
	}
	key := f.svc.OrganizerKey(boss)
	for _, bad := range []string{"CREATE swiss scenarios=crecy", "CREATE ladder scenarios=atlantis", "CREATE ladder", "CREATE ladder scenarios=crecy timeout=forfeit",
		"CREATE ladder scenarios=crecy clock=1d cap=2h", "CREATE ladder scenarios=crecy k=0"} {
		before := ladderSnapshot(t, f.st)
		out, mails := send(key, bad)
		if !out.Rejected || len(mails) != 1 || !strings.Contains(mails[0].mail.Text, "nothing has changed") {
			t.Errorf("%s: %+v\n%s", bad, out, textOf(mails))
		}
		if ladderSnapshot(t, f.st) != before {
			t.Errorf("%s: the store changed", bad)
		}
	}
	out, mails := send(key, "CREATE round-robin scenarios=melee-test clock=1d+2h cap=2d timeout=opponent organizers="+carol)
	if out.Rejected || out.Status != "ladder" {
		t.Fatalf("create: %+v\n%s", out, textOf(mails))
	}
	l, err := f.svc.Ladder("spring")
	if err != nil {
		t.Fatal(err)
	}
	if l.Kind != ladder.KindRoundRobin || l.Clock == nil || l.Clock.Cap != 48*time.Hour || l.Clock.OnTimeout != ladder.TimeoutOpponent || len(l.Organizers) != 2 {
		t.Errorf("ladder %+v", l)
	}
	if len(mails) != 2 {
		t.Errorf("want a welcome to each organizer, got:\n%s", textOf(mails))
	}
	all, err := f.svc.Ladders()
	if err != nil || len(all) != 2 {
		t.Errorf("Ladders: %d, %v", len(all), err)
	}
	if out, _ := send(key, "CREATE ladder scenarios=crecy"); !out.Rejected {
		t.Errorf("a second CREATE of the same id: %+v", out)
	}
}
