package games

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/pbem/dice"
	"herald/pbem/store"
)

// handLine reads the hand a mail shows its recipient.
var handLine = regexp.MustCompile(`(?:Herald has drawn your Seizure counters blindly \(B&R 6\.3\)|Your Seizure counters, secret from your opponent until you play one \(B&R 6\.3\)): ([^.]+)\.`)

// counterIDs are the ids of the counters a mail lists as its recipient's
// hand.
func counterIDs(text string) []string {
	m := handLine.FindStringSubmatch(flat(text))
	if m == nil {
		return nil
	}
	var ids []string
	for _, c := range strings.Split(m[1], "; ") {
		ids = append(ids, strings.Fields(c)[0])
	}
	return ids
}

// bloreHeath is a game of Blore Heath whose Yorkist hand (alice's) holds a
// Seizure Opportunity: hands are drawn from crypto/rand, so games are
// made until one does (seven in eight do).
func bloreHeath(t *testing.T) (*fixture, []string, []string) {
	t.Helper()
	for range 40 {
		f := newFixtureOf(t, "blore-heath", PlayerSpec{Side: "Yorkists", Address: alice}, PlayerSpec{Side: "Lancastrians", Address: bob})
		york := counterIDs(only(t, f.welcomes, alice).mail.Text)
		lanc := counterIDs(only(t, f.welcomes, bob).mail.Text)
		if len(york) != 3 || len(lanc) != 2 {
			t.Fatalf("hands %v and %v, want 3 and 2 (blore-heath.yaml, ruling R290):\n%s", york, lanc, only(t, f.welcomes, alice).mail.Text)
		}
		if slices.ContainsFunc(york, func(id string) bool { return strings.HasPrefix(id, "SO") }) {
			return f, york, lanc
		}
	}
	t.Fatal("40 Yorkist hands without a Seizure Opportunity")
	return nil, nil, nil
}

// Blood & Roses 6.3 by mail: each player is shown his own Seizure counters
// and only how many his opponent holds; a counter he plays is told to
// both; nothing in any mail to the opponent names a counter still hidden
// (nor the hidden seed or its salt); the game's end reveals the draws, and
// its export then proves every counter drawn and played, in herald verify
// (with the engine replay) and in the Python verifier; one counter changed
// in the log fails both.
func TestSeizureCountersHiddenUntilPlayedAndProvenAfter(t *testing.T) {
	f, york, lanc := bloreHeath(t)
	var seeds [2]dice.Seed
	err := f.st.View(func(tx *store.Tx) error {
		for i, side := range []string{"Yorkists", "Lancastrians"} {
			b, err := tx.Secret(f.game, secretHidden(side))
			if err != nil {
				return err
			}
			if err := seeds[i].UnmarshalText(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	toBob := []sent{only(t, f.welcomes, bob)}
	toAlice := []sent{only(t, f.welcomes, alice)}
	if w := flat(toAlice[0].mail.Text); !strings.Contains(w, "the Lancastrians hold 2") {
		t.Errorf("alice's welcome does not count the Lancastrian counters:\n%s", w)
	}
	deliver := func() {
		for _, m := range f.deliverAll() {
			switch m.to {
			case alice:
				toAlice = append(toAlice, m)
			case bob:
				toBob = append(toBob, m)
			}
		}
	}
	play := func(from string, lines ...string) {
		t.Helper()
		if out := f.handle(f.orders(from, "", lines...)); out.Status != "applied" {
			t.Fatalf("%s %q: %+v", from, lines, out)
		}
		deliver()
	}
	// 6.3 as the Blore Heath example: the Lancastrians activate Audley and
	// try to continue with Dudley; the Yorkists play a Seizure Opportunity
	// with Salisbury; the Lancastrians, who hold counters, are asked
	// whether they Negate, and decline.
	opp := york[slices.IndexFunc(york, func(id string) bool { return strings.HasPrefix(id, "SO") })]
	play(bob, "ACTIVATE audley", "END", "CONTINUE dudley")
	play(alice, "SEIZE salisbury WITH "+opp)
	told := []sent{toAlice[len(toAlice)-1], toBob[len(toBob)-1]}
	play(bob, "DECLINE")
	for _, m := range told {
		if !strings.Contains(flat(m.mail.Text), "play Seizure Opportunity "+opp) {
			t.Errorf("the mail to %s does not tell the counter played:\n%s", m.to, m.mail.Text)
		}
	}
	// Bob resigns: the game is over and the draws are revealed.
	if out := f.handle(f.orders(bob, "", "RESIGN")); out.Status != "resign-asked" {
		t.Fatalf("RESIGN: %+v", out)
	}
	ask := only(t, f.deliverAll(), bob)
	blocks, _ := pbemBlocks(ask)
	if out := f.handle(f.orders(bob, "", strings.TrimSpace(blocks[0].Lines[0].Text))); out.Status != "resigned" {
		t.Fatalf("confirmation: %+v", out)
	}
	deliver()

	// Nothing sent to bob before the end names a Yorkist counter he could
	// not see: the hand's seed and salt nowhere, a counter id only once
	// played (or if bob holds one of the same kind, in his own hand).
	yorkSalt := dice.DrawSalt(seeds[0], f.game, "Yorkists").String()
	for i, m := range toBob {
		over := strings.Contains(m.mail.Subject, "over") || strings.Contains(m.mail.Text, "resign")
		for _, secret := range []string{yorkSalt, hexOf(seeds[0])} {
			if strings.Contains(string(m.raw), secret) && !over {
				t.Errorf("mail %d to bob (%s) holds the Yorkists' hidden seed or salt", i, m.mail.Subject)
			}
		}
		if got := counterIDs(m.mail.Text); got != nil && !slices.Equal(got, lanc) && !strings.Contains(flat(m.mail.Text), "play Seizure") {
			t.Errorf("mail %d to bob lists the hand %v, not his own %v", i, got, lanc)
		}
		for _, id := range york {
			if id == opp || slices.Contains(lanc, id) {
				continue
			}
			if regexp.MustCompile(`\b` + id + `\b`).MatchString(m.mail.Text) {
				t.Errorf("mail %d to bob (%s) names the Yorkists' hidden counter %s:\n%s", i, m.mail.Subject, id, m.mail.Text)
			}
		}
	}

	rep := f.verify()
	if rep.Draws != 2 || rep.Plays != 1 || len(rep.Hidden) != 0 || !rep.Replayed {
		t.Errorf("verify: %d draws, %d plays, hidden %v, replayed %v; want 2, 1, none, true\n%s", rep.Draws, rep.Plays, rep.Hidden, rep.Replayed, rep)
	}
	var export bytes.Buffer
	if err := f.svc.Export(f.game, &export); err != nil {
		t.Fatal(err)
	}
	python := pythonVerify(t, export.Bytes())
	if python != "" && !strings.HasPrefix(python, "OK:") {
		t.Errorf("verify-dice.py: %s", python)
	}
	// One hidden counter changed in the log: the play names another.
	i := bytes.Index(export.Bytes(), []byte(`"kind":"play"`))
	line := bytes.Count(export.Bytes()[:i], []byte("\n"))
	tampered := regexp.MustCompile(`"counter":\d+,"name":"[^"]*"`).ReplaceAll(export.Bytes()[i:], []byte(`"counter":4,"name":"SN negation"`))
	tampered = append(slices.Clone(export.Bytes()[:i]), tampered...)
	rep, err = dice.Verify(bytes.NewReader(tampered), dice.Options{})
	if err == nil || rep.Failure.Entry != uint64(line) {
		t.Errorf("a changed play: herald verify says %v, want a failure at entry %d", err, line)
	}
	if py := pythonVerify(t, tampered); py != "" && !strings.HasPrefix(py, "FAILED: "+rep.Failure.Where()) {
		t.Errorf("a changed play: verify-dice.py says %q, herald verify %q", py, rep.Failure.Where())
	}
}

func hexOf(s dice.Seed) string { return dice.Hash(s).String() }

// pythonVerify runs tools/verify-dice.py on an export and returns the
// first line it prints; "" when python3 is not installed.
func pythonVerify(t *testing.T, export []byte) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Log("python3 is not on PATH: the Python verifier is not run")
		return ""
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "tools", "verify-dice.py")
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, export, 0o600); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(python, script, path).Output()
	return strings.SplitN(string(out), "\n", 2)[0]
}

// The maps of a Blood & Roses game are drawn from states that hold no
// hidden counter: the field map, which both players receive, from the
// public state; a side's army map from his own view.
func TestMapJobsHoldNoHiddenCounters(t *testing.T) {
	sc, err := data.Scenario("blore-heath")
	if err != nil {
		t.Fatal(err)
	}
	hands := []dice.Hand{
		{Side: "Yorkists", Pool: poolNames(sc), Counters: []int{2, 4, 5}, Salt: dice.Hash{1}},
		{Side: "Lancastrians", Pool: poolNames(sc), Counters: []int{1, 8}, Salt: dice.Hash{2}},
	}
	st, _, err := dealHands(sc, engine.NewState(sc), hands)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) *engine.State {
		s, err := engine.DecodeState(b)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	shown := func(s *engine.State, side engine.Side) []string {
		var ids []string
		for _, c := range engine.Unplayed(s, side) {
			if c.ID != "" {
				ids = append(ids, c.ID)
			}
		}
		return ids
	}
	job, err := fieldJob(sc, st, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	field := decode(job.After)
	for side := range engine.Side(2) {
		if ids := shown(field, side); len(ids) > 0 || len(engine.Unplayed(field, side)) != len(hands[side].Counters) {
			t.Errorf("field map: the %s show %v of %d counters, want none shown, all counted", sc.SideName(side), ids, len(engine.Unplayed(field, side)))
		}
	}
	if strings.Contains(string(job.After), dice.Hash{1}.String()) {
		t.Error("field map: a hand's salt is in the state drawn")
	}
	army := decode(armyJob(sc, st, 0).After)
	if got := shown(army, 0); !slices.Equal(got, []string{"SO5", "SN", "BC"}) || len(shown(army, 1)) > 0 {
		t.Errorf("the Yorkists' army map shows %v of theirs and %v of the Lancastrians'", got, shown(army, 1))
	}
}

// The welcome's advice is the battle's own: in Blood & Roses a Seizure is
// made only with a counter (B&R 6.3), which no standing order plays, and
// names are shortened from the side's own leaders; at Crécy standing
// orders Seize with one's own Command when the enemy names his.
func TestOrdersHelpIsTheBattles(t *testing.T) {
	for _, c := range []struct {
		battle string
		side   engine.Side
		want   []string
	}{
		{"blore-heath", 0, []string{"Ric for Richard", "`SEIZE <battle> WITH <counter>` (B&R 6.3)"}},
		{"crecy", 0, []string{"`STANDING SEIZE NEVER`, or `STANDING SEIZE"}},
	} {
		sc, err := data.Scenario(c.battle)
		if err != nil {
			t.Fatal(err)
		}
		help := strings.Join(ordersHelp(sc, c.side), "\n")
		for _, w := range c.want {
			if !strings.Contains(help, w) {
				t.Errorf("%s: help lacks %q:\n%s", c.battle, w, help)
			}
		}
		if c.battle == "blore-heath" && strings.Contains(help, " IF ") {
			t.Errorf("blore-heath: help offers a standing Seizure by Command:\n%s", help)
		}
		if c.battle == "crecy" && !regexp.MustCompile("STANDING SEIZE \\S+ IF \\S+`").MatchString(help) {
			t.Errorf("crecy: help %q", help)
		}
	}
}

// A block that readies Into the Breach (B&R 6.3) names the counter in its
// lines: the opponent's dice record gives only its hash, as for standing
// orders, so that a Breach that lapses back to the hand stays unknown.
func TestBlockWithAHiddenPlanIsSecret(t *testing.T) {
	for _, c := range []struct {
		events []engine.Event
		secret bool
	}{
		{nil, false},
		{[]engine.Event{engine.BreachReadied{Side: 0, Counter: "IB", Defender: "YB1"}}, true},
		{[]engine.Event{engine.BreachReadied{Side: 1, Counter: "IB", Defender: "AM1"}}, false},
	} {
		if got := secretBlock(block{side: 0}, &engine.BlockResult{Events: c.events}); got != c.secret {
			t.Errorf("events %v: secret %v, want %v", c.events, got, c.secret)
		}
	}
}
