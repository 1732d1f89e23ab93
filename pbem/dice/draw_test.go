package dice

import (
	"bytes"
	"crypto/sha256"
	"os"
	"slices"
	"strings"
	"testing"
)

// brPool is a pool like Blood & Roses's seizure counters (6.3).
var brPool = []string{
	"Seizure Opportunity 0-3", "Seizure Opportunity 0-4", "Seizure Opportunity 0-5",
	"Seizure Negation", "Battle Cry", "Treachery!", "Near Miss", "Into the Breach",
}

// hiddenGame plays a short game with hidden draws for both sides: each
// side plays the first of its counters (and York his second) in the
// batches given, then, if reveal, the draws are revealed.
type hiddenGame struct {
	header  *Header
	entries []Entry
	hidden  []Hidden
	export  []byte
}

func playHiddenGame(t *testing.T, reveal bool) *hiddenGame {
	t.Helper()
	fixedSeeds(t, 41)
	key := testKey(t)
	h, u, err := NewGame(key, "blore-1", "blore-heath", []string{"York", "Lancaster"},
		Draw{Side: "York", Pool: brPool, Count: 4}, Draw{Side: "Lancaster", Pool: brPool, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := &hiddenGame{header: h, entries: u.Entries, hidden: u.Hidden}
	chain, seed := u.Chain, u.Next
	plays := map[uint64][]Play{
		2: {hiddenPlay(u.Hidden[0], 0)},
		3: {hiddenPlay(u.Hidden[1], 0), hiddenPlay(u.Hidden[0], 1)},
	}
	for batch := uint64(1); batch <= 4; batch++ {
		side := []string{"York", "Lancaster"}[batch%2]
		b, err := Begin(chain, seed, side, batch, "ACTIVATE Salisbury\n")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Roll("Continuity DR: Salisbury (AR 3)"); err != nil {
			t.Fatal(err)
		}
		for _, p := range plays[batch] {
			if err := b.Play(p.Side, p.Counter, p.Name); err != nil {
				t.Fatal(err)
			}
		}
		u, err := b.Close(key, Hash{1}, Hash{2})
		if err != nil {
			t.Fatal(err)
		}
		g.entries = append(g.entries, u.Entries...)
		chain, seed = u.Chain, u.Next
	}
	if reveal {
		seeds := map[string]Seed{"York": u.Hidden[0].Seed, "Lancaster": u.Hidden[1].Seed}
		u, err := Reveal(key, chain, seeds, []string{"York", "Lancaster"})
		if err != nil {
			t.Fatal(err)
		}
		g.entries = append(g.entries, u.Entries...)
	}
	g.export = writeExport(t, h, g.entries)
	return g
}

func hiddenPlay(h Hidden, i int) Play {
	c := h.Hand.Counters[i]
	return Play{Side: h.Hand.Side, Counter: c, Name: h.Hand.Pool[c]}
}

func writeExport(t *testing.T, h *Header, es []Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, es); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// resign rebuilds the chain of es after an edit, rolls every die again
// from its batch's seed and signs every seal again: what an operator
// holding the key and the seeds could do to a log.
func resign(t *testing.T, h *Header, es []Entry) []byte {
	t.Helper()
	key := testKey(t)
	c := Chain{Game: h.Game, Head: h.Hash}
	var block Entry
	for i := range es {
		switch es[i].Kind {
		case KindSeal:
			es[i].Sig = key.sign(c.Game, c.Length, c.Head)
			c.After = Checkpoint{Length: c.Length, Head: c.Head}
		case KindBlock:
			block = es[i]
		case KindRoll:
			es[i].Value = DeriveV2(block.Seed, h.Game, block.Batch, es[i].Index, es[i].Purpose,
				sha256.Sum256([]byte(SenderBlock(block.Orders))), c.After)
		}
		if err := c.add(&es[i]); err != nil {
			t.Fatal(err)
		}
	}
	return writeExport(t, h, es)
}

func TestDrawHandIsAShuffle(t *testing.T) {
	seed := Hash(sha256.Sum256([]byte("x")))
	seen := map[int]int{}
	for side := range 400 {
		hand, err := DrawHand(seed, "g", strings.Repeat("s", side%7)+string(rune('a'+side%26))+string(rune('a'+side/26)), len(brPool), 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(hand) != 4 {
			t.Fatalf("hand %v, want 4 counters", hand)
		}
		s := slices.Sorted(slices.Values(hand))
		if len(slices.Compact(s)) != 4 {
			t.Fatalf("hand %v holds a counter twice", hand)
		}
		for _, c := range hand {
			seen[c]++
		}
	}
	// 400 hands of 4 from 8: each counter about 200 times.
	for c := range brPool {
		if seen[c] < 140 || seen[c] > 260 {
			t.Errorf("counter %d drawn %d times in 400 hands of 4 from 8, want about 200", c, seen[c])
		}
	}
	if _, err := DrawHand(seed, "g", "s", 3, 4); err == nil {
		t.Error("a draw of 4 from 3 was made")
	}
	a, _ := DrawHand(seed, "g", "York", 8, 8)
	b, _ := DrawHand(seed, "g", "York", 8, 3)
	if !slices.Equal(a[:3], b) {
		t.Errorf("a draw of 3 %v is not the start of the draw of all 8 %v", b, a)
	}
}

func TestHiddenDrawsVerify(t *testing.T) {
	g := playHiddenGame(t, true)
	rep, err := Verify(bytes.NewReader(g.export), Options{})
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, g.export)
	}
	if rep.Draws != 2 || rep.Plays != 3 || len(rep.Hidden) != 0 {
		t.Errorf("draws %d, plays %d, hidden %v; want 2, 3, none", rep.Draws, rep.Plays, rep.Hidden)
	}
	if !strings.Contains(rep.String(), "every play is in its side's revealed draw") {
		t.Errorf("report:\n%s", rep)
	}
	// The opening checkpoint covers the draws: the first mail binds them.
	if g.entries[2].Kind != KindSeal || g.entries[0].Kind != KindDraw || g.entries[1].Kind != KindDraw {
		t.Errorf("the log opens with %s, %s, %s; want draw, draw, seal", g.entries[0].Kind, g.entries[1].Kind, g.entries[2].Kind)
	}
}

func TestHiddenDrawsBeforeTheEnd(t *testing.T) {
	g := playHiddenGame(t, false)
	rep, err := Verify(bytes.NewReader(g.export), Options{Replayer: fakeReplayer{}})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !slices.Equal(rep.Hidden, []string{"York", "Lancaster"}) || rep.Replayed || rep.ReplaySkipped == "" {
		t.Errorf("hidden %v, replayed %v (%q); want both hidden and the replay skipped", rep.Hidden, rep.Replayed, rep.ReplaySkipped)
	}
	if s := rep.String(); !strings.Contains(s, "not revealed yet (the game is not over): York, Lancaster") {
		t.Errorf("report:\n%s", s)
	}
	for _, e := range g.entries {
		if e.Kind == KindReveal {
			t.Fatal("a reveal before the end")
		}
	}
	if bytes.Contains(g.export, []byte(hexOf(g.hidden[0].Seed[:]))) {
		t.Error("the export shows York's hidden seed before the end")
	}
}

func hexOf(b []byte) string { return Hash(b).String() }

// TestHiddenDrawsTampered: an operator holding the key who changes what a
// side drew or played, and signs the log again, is caught at the entry.
func TestHiddenDrawsTampered(t *testing.T) {
	g := playHiddenGame(t, true)
	york := g.hidden[0].Hand
	var notHeld int
	for c := range brPool {
		if !slices.Contains(york.Counters, c) {
			notHeld = c
			break
		}
	}
	firstPlay := slices.IndexFunc(g.entries, func(e Entry) bool { return e.Kind == KindPlay })
	cases := []struct {
		name string
		edit func(es []Entry) []Entry
		kind string
		want string
	}{
		{"a counter York never drew", func(es []Entry) []Entry {
			es[firstPlay].Counter, es[firstPlay].Name = uint64(notHeld), brPool[notHeld]
			return es
		}, "reveal", "York played counter"},
		{"the play's name changed", func(es []Entry) []Entry {
			es[firstPlay].Name = "Seizure Opportunity 0-9"
			return es
		}, "play", "pool names it"},
		{"the same counter twice", func(es []Entry) []Entry {
			dup := es[firstPlay]
			return slices.Insert(es, firstPlay+1, dup)
		}, "play", "already played"},
		{"another hidden seed revealed", func(es []Entry) []Entry {
			es[len(es)-3].Seed = Hash{9}
			return es
		}, "reveal", "committed to"},
		{"a draw changed (caught by the first mail's checkpoint)", func(es []Entry) []Entry {
			es[0].Count = 5
			return es
		}, "draw", "the log was rewritten"},
		{"a draw after the opening seal", func(es []Entry) []Entry {
			d := es[1]
			es = slices.Delete(es, 1, 2)
			return slices.Insert(es, 2, d)
		}, "draw", "a draw where"},
		{"a play for a side without a draw", func(es []Entry) []Entry {
			es[firstPlay].Side = "Percy"
			return es
		}, "play", "not one of the game's sides"},
		{"a block after the reveal", func(es []Entry) []Entry {
			return append(es, es[3], es[4])
		}, "block", "nothing more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			es := c.edit(slices.Clone(g.entries))
			export := resign(t, g.header, es)
			var opts Options
			if c.kind == "draw" && strings.Contains(c.want, "rewritten") {
				opts.Checkpoints = []Checkpoint{{Length: 2, Head: g.entries[1].Hash}}
			}
			rep, err := Verify(bytes.NewReader(export), opts)
			if err == nil {
				t.Fatalf("the tampered export verifies: %s", rep)
			}
			f := rep.Failure
			if f.Kind != c.kind || !strings.Contains(f.Reason, c.want) {
				t.Errorf("failure %v; want a %s failing with %q", f, c.kind, c.want)
			}
		})
	}
}

// TestPythonVerifierAgreesOnHiddenDraws: tools/verify-dice.py checks the
// draws, plays and reveals as Verify does, failing at the same line.
func TestPythonVerifierAgreesOnHiddenDraws(t *testing.T) {
	python, script := pythonVerifier(t)
	for _, reveal := range []bool{false, true} {
		g := playHiddenGame(t, reveal)
		py := agree(t, python, script, "hidden draws", g.export, Options{})
		rep, _ := Verify(bytes.NewReader(g.export), Options{})
		want := strings.Split(rep.String(), "\n")[2]
		out, _ := runScript(t, python, script, writeTemp(t, g.export))
		if got := strings.Split(out, "\n")[1]; got != want || !py.OK {
			t.Errorf("reveal %v: verify-dice.py says %q, herald verify %q", reveal, got, want)
		}
	}
	g := playHiddenGame(t, true)
	firstPlay := slices.IndexFunc(g.entries, func(e Entry) bool { return e.Kind == KindPlay })
	for name, edit := range map[string]func(es []Entry) []Entry{
		"another counter played": func(es []Entry) []Entry {
			c := (es[firstPlay].Counter + 1) % uint64(len(brPool))
			for slices.Contains(g.hidden[0].Hand.Counters, int(c)) {
				c = (c + 1) % uint64(len(brPool))
			}
			es[firstPlay].Counter, es[firstPlay].Name = c, brPool[c]
			return es
		},
		"renamed":        func(es []Entry) []Entry { es[firstPlay].Name += "!"; return es },
		"played twice":   func(es []Entry) []Entry { return slices.Insert(es, firstPlay, es[firstPlay]) },
		"seed changed":   func(es []Entry) []Entry { es[len(es)-2].Seed[0] ^= 1; return es },
		"reveal missing": func(es []Entry) []Entry { return slices.Delete(es, len(es)-2, len(es)-1) },
		"draw late": func(es []Entry) []Entry {
			d := es[1]
			return slices.Insert(slices.Delete(es, 1, 2), 2, d)
		},
	} {
		agree(t, python, script, name, resign(t, g.header, edit(slices.Clone(g.entries))), Options{})
	}
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	path := t.TempDir() + "/export.jsonl"
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
