package dice

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"herald/engine"
	"herald/pbem/system"
)

// A Batch and the replay dice are the dice of the Men of Iron engine and
// of a game system (the strike system's RollN).
var (
	_ engine.Dice = (*Batch)(nil)
	_ system.Dice = (*Batch)(nil)
	_ engine.Dice = Die(nil)
	_ system.Dice = Die(nil)
	_ Die         = (*replayDice)(nil)
	_ Die         = failDice{}
)

// facesPlays is a game of the strike system's dice: D20s (RollN 20),
// cards of a 54-card deck (RollN 54) and d10s, with a coin and a
// 256-faced die for the bounds, and a block withheld from the record.
var facesPlays = []mailPlay{
	{"French", "ACTIVATE Doria\nROLLN 20 To-hit: Ogre at Bear (D20)\nROLL Morale: Ogre\nROLLN 54 Card: the French draw\n", true},
	{"English", "ROLLN 54 Card: the English draw\nROLLN 54 Card: the English draw again\n", true},
	{"French", "ROLL Continuity DR: Doria (AR 3)\n", true},
	{"English", "ROLLN 20 Save: Bear\nROLLN 2 Coin\nROLLN 256 Byte\nROLL Charge\n", false},
	{"French", "END\n", true},
	{"English", "ROLLN 20 To-hit: Bear at Ogre (D20)\nROLLN 20 To-hit: Bear at Ogre (D20)\n", true},
}

// genPlays plays batches with the fake engine, so that the export replays
// (fakeReplayer), and returns the game.
func genPlays(t testing.TB, stream uint64, game string, plays []mailPlay) *testGame {
	t.Helper()
	fixedSeeds(t, stream)
	key := testKey(t)
	h, u, err := NewGame(key, game, "strike-demo", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{header: h, entries: u.Entries, updates: []*Update{u}}
	chain, seed := u.Chain, u.Next
	eng := &fakeEngine{}
	for i, p := range plays {
		b, err := Begin(chain, seed, p.side, uint64(i+1), p.orders)
		if err != nil {
			t.Fatal(err)
		}
		d, err := eng.apply(p.orders, b)
		if err != nil {
			t.Fatal(err)
		}
		up, err := b.Close(key, d.EventsSHA256, d.StateSHA256)
		if err != nil {
			t.Fatal(err)
		}
		g.entries = append(g.entries, up.Entries...)
		g.updates = append(g.updates, up)
		chain, seed = up.Chain, up.Next
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, g.entries); err != nil {
		t.Fatal(err)
	}
	g.export = buf.Bytes()
	return g
}

func TestRollMessageN(t *testing.T) {
	var bh, head Hash
	bh[0], bh[31] = 0xaa, 0xbb
	head[0] = 0xcc
	got := hex.EncodeToString(RollMessageN("g", 2, 3, "p€", bh, Checkpoint{Length: 5, Head: head}, 20, 1))
	want := "0000000000000019" + hex.EncodeToString([]byte("herald/dice/roll/v2/faces")) +
		"0000000000000001" + "67" +
		"0000000000000002" + "0000000000000003" +
		"0000000000000004" + "70e282ac" +
		"0000000000000020" + "aa" + strings.Repeat("00", 30) + "bb" +
		"0000000000000005" +
		"0000000000000020" + "cc" + strings.Repeat("00", 31) +
		"0000000000000014" + // faces 20
		"0000000000000001" // attempt 1
	if got != want {
		t.Errorf("RollMessageN = %s, want %s", got, want)
	}
	// The d10's message is another: the faces are bound in only here.
	if v2 := RollMessageV2("g", 2, 3, "p€", bh, Checkpoint{Length: 5, Head: head}, 1); bytes.Contains(v2, []byte("faces")) {
		t.Errorf("RollMessageV2 holds the faces tag: %x", v2)
	}
}

// Every face of a die of 2 to 256 faces comes from exactly as many byte
// values, 256 div faces; the bytes at or above the largest multiple are
// refused. (A plain byte % faces would favour the low faces.)
func TestPickNIsUniform(t *testing.T) {
	for faces := MinFaces; faces <= MaxFaces; faces++ {
		count := make([]int, faces)
		refused := 0
		for b := range 256 {
			v, ok := pickN([]byte{byte(b)}, faces)
			switch {
			case !ok:
				refused++
			case v < 0 || v >= faces:
				t.Fatalf("pickN(%d, %d) = %d", b, faces, v)
			default:
				count[v]++
			}
		}
		for f, c := range count {
			if c != 256/faces {
				t.Fatalf("d%d: face %d comes from %d byte values, want %d", faces, f, c, 256/faces)
			}
		}
		if refused != 256%faces {
			t.Errorf("d%d: %d byte values refused, want %d", faces, refused, 256%faces)
		}
		// A MAC all of refused bytes yields nothing: the next attempt.
		if faces&(faces-1) != 0 {
			if _, ok := pickN(bytes.Repeat([]byte{255}, 32), faces); ok {
				t.Errorf("d%d: a MAC of 0xff bytes yields a face", faces)
			}
		}
	}
	// The second byte is used when the first is refused.
	if v, ok := pickN([]byte{255, 41}, 54); !ok || v != 41 {
		t.Errorf("pickN(ff 29, 54) = %d, %v; want 41", v, ok)
	}
}

// RollN(p, 10) is Roll(p), in both format versions: the same values, the
// same Rolls, the same log lines and record, byte for byte, with no
// "faces" in them.
func TestRollNTenIsRoll(t *testing.T) {
	key := testKey(t)
	for _, version := range []int{VersionOne, Version} {
		fixedSeeds(t, 41)
		h, u, err := NewGame(key, "g", "crecy", []string{"English", "French"})
		if err != nil {
			t.Fatal(err)
		}
		c := u.Chain
		c.Version = version
		const orders = "[English]\nSTANDING SEIZE NEVER\n[French]\nROLL x\n"
		b1, err1 := Begin(c, u.Next, "French", 1, orders)
		b2, err2 := Begin(c, u.Next, "French", 1, orders)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for i := range 600 {
			p := fmt.Sprintf("%s #%d", purposes[i%len(purposes)], i)
			v1, err1 := b1.Roll(p)
			v2, err2 := b2.RollN(p, 10)
			if err1 != nil || err2 != nil || v1 != v2 {
				t.Fatalf("version %d, %q: Roll = %d, %v; RollN(10) = %d, %v", version, p, v1, err1, v2, err2)
			}
			if version == Version {
				want := DeriveV2(u.Next, "g", 1, uint64(i), p, sha256.Sum256([]byte("ROLL x\n")), c.After)
				got, err := DeriveN(u.Next, "g", 1, uint64(i), p, sha256.Sum256([]byte("ROLL x\n")), c.After, 10)
				if v1 != want || got != want || err != nil {
					t.Fatalf("%q: Roll = %d, DeriveN(10) = %d, %v; DeriveV2 = %d", p, v1, got, err, want)
				}
			}
		}
		if r1, r2 := b1.Rolls(), b2.Rolls(); !slices.Equal(r1, r2) || r1[0].Faces != 10 {
			t.Fatalf("version %d: Rolls differ or lack faces 10: %+v / %+v", version, r1[0], r2[0])
		}
		fixedSeeds(t, 42)
		u1, err1 := b1.Close(key, Hash{1}, Hash{2})
		fixedSeeds(t, 42)
		u2, err2 := b2.Close(key, Hash{1}, Hash{2})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for i := range u1.Entries {
			l1, _ := u1.Entries[i].Line()
			l2, _ := u2.Entries[i].Line()
			if !bytes.Equal(l1, l2) || bytes.Contains(l1, []byte("faces")) {
				t.Fatalf("version %d, entry %d:\n%s\n%s", version, i, l1, l2)
			}
		}
		if r1, r2 := BatchRecord(h, u1, true).String(), BatchRecord(h, u2, true).String(); r1 != r2 || strings.Contains(r1, " d10 ") {
			t.Fatalf("version %d: records differ:\n%s\n%s", version, r1, r2)
		}
		j, err := json.Marshal(u2.Rolls[0])
		want := fmt.Sprintf(`{"seq":1,"batch":1,"index":0,"purpose":%q,"value":%d}`, u2.Rolls[0].Purpose, u2.Rolls[0].Value)
		if err != nil || string(j) != want {
			t.Errorf("a d10's JSON = %s, %v; want %s", j, err, want)
		}
	}
}

func TestRollNRefuses(t *testing.T) {
	fixedSeeds(t, 44)
	key := testKey(t)
	_, u, err := NewGame(key, "g", "strike-demo", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Begin(u.Chain, u.Next, "French", 1, "x\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, faces := range []int{-20, -1, 0, 1, 257, 1000, 1 << 40, -1 << 63} {
		if v, err := b.RollN("To-hit", faces); err == nil || !strings.Contains(err.Error(), "a die has 2 to 256") || !strings.HasPrefix(err.Error(), "dice: ") {
			t.Errorf("RollN(%d faces) = %d, %v; want a refusal", faces, v, err)
		}
		if _, err := DeriveN(u.Next, "g", 1, 0, "To-hit", Hash{}, Checkpoint{}, faces); err == nil {
			t.Errorf("DeriveN(%d faces) = nil error", faces)
		}
	}
	for _, p := range []string{"", "\xff", strings.Repeat("x", MaxPurpose+1)} {
		if _, err := b.RollN(p, 20); err == nil {
			t.Errorf("RollN(%q, 20) = nil error", p)
		}
	}
	if n := len(b.Rolls()); n != 0 {
		t.Fatalf("refused rolls recorded %d rolls", n)
	}
	for _, faces := range []int{2, 256, 20, 54} {
		v, err := b.RollN("bounds", faces)
		if err != nil || v < 0 || v >= faces {
			t.Errorf("RollN(d%d) = %d, %v", faces, v, err)
		}
	}
	if rs := b.Rolls(); len(rs) != 4 || rs[3].Faces != 54 || rs[3].Index != 3 {
		t.Errorf("Rolls() = %+v", rs)
	}
	if _, err := b.Close(key, Hash{}, Hash{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.RollN("late", 20); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("RollN after Close = %v", err)
	}
	// A version 1 game rolls d10s only.
	c := u.Chain
	c.Version = VersionOne
	b1, err := Begin(c, u.Next, "French", 1, "x\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b1.RollN("To-hit", 20); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("RollN(20) in a version 1 game = %v", err)
	}
	if _, err := b1.RollN("DR", 10); err != nil || len(b1.Rolls()) != 1 {
		t.Errorf("RollN(10) in a version 1 game = %v, %d rolls", err, len(b1.Rolls()))
	}
}

// chiSquareBound is the chi-square statistic a fair die of faces faces
// exceeds with probability 10^-4 (df = faces − 1).
var chiSquareBound = map[int]float64{20: 50.80, 54: 100.06}

func chiSquare(counts []int, n int) float64 {
	e := float64(n) / float64(len(counts))
	var x float64
	for _, c := range counts {
		d := float64(c) - e
		x += d * d / e
	}
	return x
}

// 20,000 D20s and 20,000 cards from fixed seeds spread their faces as a
// fair die does (chi-square below its 1-in-10,000 bound); the same MACs
// read without rejection (byte % 54) do not pass the bound for 54 faces,
// so the test can tell.
func TestRollNDistribution(t *testing.T) {
	const n = 20000
	key := testKey(t)
	for _, faces := range []int{20, 54} {
		fixedSeeds(t, uint64(45+faces))
		_, u, err := NewGame(key, "dist", "strike-demo", []string{"English", "French"})
		if err != nil {
			t.Fatal(err)
		}
		const orders = "ATTACK\n"
		b, err := Begin(u.Chain, u.Next, "French", 1, orders)
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]int, faces)
		biased := make([]int, faces)
		mac := hmac.New(sha256.New, u.Next[:])
		for i := range n {
			p := fmt.Sprintf("To-hit %d", i)
			v, err := b.RollN(p, faces)
			if err != nil || v < 0 || v >= faces {
				t.Fatalf("RollN(%q, %d) = %d, %v", p, faces, v, err)
			}
			counts[v]++
			mac.Reset()
			mac.Write(RollMessageN("dist", 1, uint64(i), p, sha256.Sum256([]byte(orders)), u.Chain.After, faces, 0))
			biased[int(mac.Sum(nil)[0])%faces]++
		}
		x := chiSquare(counts, n)
		if x > chiSquareBound[faces] {
			t.Errorf("d%d: chi-square %.2f over %d rolls, above %.2f: %v", faces, x, n, chiSquareBound[faces], counts)
		}
		t.Logf("d%d: chi-square %.2f (bound %.2f); without rejection %.2f", faces, x, chiSquareBound[faces], chiSquare(biased, n))
		if faces == 54 && chiSquare(biased, n) <= chiSquareBound[faces] {
			t.Errorf("d54 read as byte %% 54: chi-square %.2f, want it above %.2f", chiSquare(biased, n), chiSquareBound[faces])
		}
	}
}

// facesCase is a change to a faces game's export and where Verify must
// fail: the entry, and the roll's words when the failure names it.
type facesCase struct {
	name   string
	export []byte
	entry  uint64
	roll   string
	reason string
}

// facesCases are changes to the faces and values of a faces game.
func facesCases(t *testing.T, g *testGame) []facesCase {
	t.Helper()
	find := func(faces int, nth int) int { // the index in g.entries of the nth roll of faces faces
		for i, e := range g.entries {
			if e.Kind == KindRoll && e.Faces == faces {
				if nth == 0 {
					return i
				}
				nth--
			}
		}
		t.Fatalf("no roll %d of a d%d", nth, faces)
		return 0
	}
	words := func(i int) string { return fmt.Sprintf("roll #%d, %s", g.entries[i].Seq, g.entries[i].Purpose) }
	set := func(i int, fn func(e *Entry)) []byte {
		return rewrite(t, g, func(es []Entry) []Entry {
			fn(&es[i])
			return es
		})
	}
	// The second d10: the first happens to derive its value on a d20
	// too (TestFacesKeepValueByChance).
	d20, card, d10, coin := find(20, 0), find(54, 1), find(10, 1), find(2, 0)
	line := func(i int, old, new string) []byte {
		return edit(g.export, i+1, func(l []byte) []byte {
			if !bytes.Contains(l, []byte(old)) {
				t.Fatalf("%q not in %s", old, l)
			}
			return bytes.Replace(l, []byte(old), []byte(new), 1)
		})
	}
	e := func(i int) uint64 { return uint64(i + 1) }
	return []facesCase{
		{"d20 made a d21", line(d20, `"faces":20,`, `"faces":21,`), e(d20), words(d20), "hash"},
		{"d20 made a d21, re-hashed", set(d20, func(e *Entry) { e.Faces = 21 }), e(d20), words(d20), "give"},
		{"d20 made a d10, re-hashed", set(d20, func(e *Entry) { e.Faces = 10; e.Value %= 10 }), e(d20), words(d20), "give"},
		{"card made a d20, re-hashed", set(card, func(e *Entry) { e.Faces = 20; e.Value %= 20 }), e(card), words(card), "give"},
		{"d10 made a d20, re-hashed", set(d10, func(e *Entry) { e.Faces = 20 }), e(d10), words(d10), "give"},
		{"coin made a d3, re-hashed", set(coin, func(e *Entry) { e.Faces = 3 }), e(coin), words(coin), "give"},
		{"d20 value, re-hashed", set(d20, func(e *Entry) { e.Value = (e.Value + 1) % 20 }), e(d20), words(d20), "give"},
		{"card value, re-hashed", set(card, func(e *Entry) { e.Value = (e.Value + 7) % 54 }), e(card), words(card), "give"},
		{"d20 value 20, re-hashed", set(d20, func(e *Entry) { e.Value = 20 }), e(d20), words(d20), "not a face of a d20"},
		{"faces 257, re-hashed", set(d20, func(e *Entry) { e.Faces = 257 }), e(d20), words(d20), "a die has 2 to 256"},
		{"faces 1, re-hashed", set(d20, func(e *Entry) { e.Faces = 1; e.Value = 0 }), e(d20), words(d20), "a die has 2 to 256"},
		{"faces -20, re-hashed", set(d20, func(e *Entry) { e.Faces = -20 }), e(d20), words(d20), "a die has 2 to 256"},
		{"faces 10 written", line(d10, `,"value":`, `,"faces":10,"value":`), e(d10), "", "canonical"},
		{"faces 0 written", line(d10, `,"value":`, `,"faces":0,"value":`), e(d10), "", "canonical"},
		{"faces after value", line(d20, fmt.Sprintf(`"faces":20,"value":%d`, g.entries[d20].Value), fmt.Sprintf(`"value":%d,"faces":20`, g.entries[d20].Value)), e(d20), "", "canonical"},
		{"faces 2^63", line(d20, `"faces":20,`, `"faces":9223372036854775808,`), e(d20), "", ""},
		{"faces on a block", line(d20-1, `,"rolls":`, `,"faces":20,"rolls":`), e(d20 - 1), "", "canonical"},
	}
}

// A game of D20s, cards and d10s verifies and replays; the report counts
// every roll and tallies the d10s only. Each change of a faces or a value
// fails at its entry, naming the roll.
func TestVerifyFaces(t *testing.T) {
	g := genPlays(t, 47, "strike-1", facesPlays)
	rep, err := Verify(bytes.NewReader(g.export), Options{Checkpoints: g.checkpoints(), Replayer: fakeReplayer{}})
	if err != nil || !rep.Replayed {
		t.Fatalf("Verify(faces game) = %v\n%s", err, rep)
	}
	var rolls, d10s uint64
	for _, e := range g.entries {
		if e.Kind == KindRoll {
			rolls++
			if e.Faces == 10 {
				d10s++
			}
		}
	}
	if rep.Rolls != rolls || rep.Tally.N != d10s || d10s == 0 || d10s == rolls {
		t.Errorf("report: %d rolls, tally of %d; want %d rolls, %d d10s", rep.Rolls, rep.Tally.N, rolls, d10s)
	}
	var all []Roll
	for _, u := range g.updates {
		all = append(all, u.Rolls...)
	}
	if tl := TallyOf(all); uint64(len(all)) != rolls || tl != rep.Tally {
		t.Errorf("TallyOf(%d rolls) = %+v, want the report's %+v", len(all), tl, rep.Tally)
	}
	for _, want := range []string{`"faces":20,"value":`, `"faces":54,"value":`, `"faces":2,"value":`, `"faces":256,"value":`} {
		if !bytes.Contains(g.export, []byte(want)) {
			t.Errorf("the export lacks %s", want)
		}
	}
	if bytes.Contains(g.export, []byte(`"faces":10`)) {
		t.Error(`the export holds "faces":10`)
	}
	// The replay is handed each roll with its faces.
	_, err = Verify(bytes.NewReader(g.export), Options{Replayer: funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
		var faces []int
		for _, b := range bs {
			for _, r := range b.Rolls {
				faces = append(faces, r.Faces)
			}
		}
		var want []int
		for _, e := range g.entries {
			if e.Kind == KindRoll {
				want = append(want, e.Faces)
			}
		}
		if !slices.Equal(faces, want) {
			t.Errorf("AppliedBlock rolls of faces %v, want %v", faces, want)
		}
		return fakeReplayer{}.Replay(h, bs, rs)
	})})
	if err != nil {
		t.Errorf("replay: %v", err)
	}
	// The entries read back with their faces.
	for _, l := range bytes.Split(bytes.TrimSuffix(g.export, []byte{'\n'}), []byte{'\n'})[1:] {
		e, err := ParseEntry(l)
		if err != nil {
			t.Fatal(err)
		}
		if i := e.I - 1; e.Kind == KindRoll && e.Faces != g.entries[i].Faces {
			t.Errorf("entry %d reads back as a d%d, want a d%d", e.I, e.Faces, g.entries[i].Faces)
		}
	}
	for _, c := range facesCases(t, g) {
		_, err := Verify(bytes.NewReader(c.export), Options{})
		var f *Failure
		if !errors.As(err, &f) || f.Entry != c.entry || f.Roll != c.roll || !strings.Contains(f.Reason, c.reason) {
			t.Errorf("%s: Verify = %v; want entry %d (%s), %q", c.name, err, c.entry, c.roll, c.reason)
		}
	}
	// A version 1 game rolls no other die.
	v1 := genGameV1(t, 48, 4)
	lines := bytes.Split(bytes.TrimSuffix(v1, []byte{'\n'}), []byte{'\n'})
	h, err := ParseHeader(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	var es []Entry
	roll := -1
	for _, l := range lines[1:] {
		e, err := ParseEntry(l)
		if err != nil {
			t.Fatal(err)
		}
		if e.Kind == KindRoll && roll < 0 {
			roll, e.Faces, e.Value = len(es), 20, 0
		}
		es = append(es, e)
	}
	b := rewrite(t, &testGame{header: &h, entries: es}, func(es []Entry) []Entry { return es })
	_, err = Verify(bytes.NewReader(b), Options{})
	var f *Failure
	if !errors.As(err, &f) || f.Entry != uint64(roll+1) || !strings.Contains(f.Reason, "version 1") {
		t.Errorf("a d20 in a version 1 game: Verify = %v, want a failure at entry %d", err, roll+1)
	}
}

// The replay dice give each logged roll only for its purpose and faces.
func TestReplayFaces(t *testing.T) {
	g := genPlays(t, 49, "strike-2", facesPlays)
	var d20 Entry
	for _, e := range g.entries {
		if e.Kind == KindRoll && e.Faces == 20 {
			d20 = e
			break
		}
	}
	words := fmt.Sprintf("roll #%d, %s", d20.Seq, d20.Purpose)
	// An engine that reads the orders differently.
	reading := func(old, new string) Replayer {
		return funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
			bs = slices.Clone(bs)
			for i := range bs {
				bs[i].Orders = strings.ReplaceAll(bs[i].Orders, old, new)
			}
			return fakeReplayer{}.Replay(h, bs, rs)
		})
	}
	for _, c := range []struct {
		name   string
		r      Replayer
		reason string
	}{
		{"a d21 for a d20", reading("ROLLN 20 ", "ROLLN 21 "), "the engine rolls a d21 for"},
		{"Roll for a d20", reading("ROLLN 20 ", "ROLL "), "the engine rolls a d10 for"},
		{"RollN(10) for a d20", reading("ROLLN 20 ", "ROLLN 10 "), "the engine rolls a d10 for"},
	} {
		_, err := Verify(bytes.NewReader(g.export), Options{Replayer: c.r})
		var f *Failure
		if !errors.As(err, &f) || f.Entry != d20.I || f.Roll != words || !strings.Contains(f.Reason, c.reason) || !strings.Contains(f.Reason, "the log a d20") {
			t.Errorf("%s: Verify = %v; want entry %d (%s): %q", c.name, err, d20.I, words, c.reason)
		}
	}
	// Roll on a d10 the log holds, RollN(10) too: the replay agrees.
	if _, err := Verify(bytes.NewReader(g.export), Options{Replayer: reading("ROLL ", "ROLLN 10 ")}); err != nil {
		t.Errorf("RollN(10) for the logged d10s: %v", err)
	}
	// The dice of a block that does not exist fail both ways.
	src := &rollSource{blocks: nil, dice: map[int]*replayDice{}}
	if _, err := src.Dice(3).RollN("x", 20); err == nil {
		t.Error("the dice of a missing block rolled")
	}
	var _ Die = src.Dice(0)
}

// The mails of a faces game carry their rolls as "roll SEQ INDEX dFACES
// VALUE PURPOSE"; they read back, verify, and fail when a faces or a value
// is changed.
func TestRecordFaces(t *testing.T) {
	h, _, records := playGame(t, 52, "strike-3", facesPlays)
	var texts []string
	for i, r := range records {
		texts = append(texts, mailText(r))
		got, _, err := FindRecords(r.String())
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], r) {
			t.Fatalf("record %d: read back %+v, %v; want %+v", i, got, err, r)
		}
	}
	first := records[1].String()
	for _, re := range []string{`(?m)^roll 1 0 d20 \d+ To-hit: Ogre at Bear \(D20\)$`, `(?m)^roll 2 1 \d Morale: Ogre$`, `(?m)^roll 3 2 d54 \d+ Card: the French draw$`} {
		if !regexp.MustCompile(re).MatchString(first) {
			t.Errorf("the first batch's record does not match %s:\n%s", re, first)
		}
	}
	if mail, _, err := checkMails(texts, &h.PublicKey); err != nil {
		t.Fatalf("untampered: mail %d: %v", mail, err)
	}
	for _, c := range recordFacesTampers(t, records, texts) {
		mail, line, err := checkMails(c.texts, nil)
		var f *RecordFailure
		var re *RecordError
		switch {
		case c.parse && (!errors.As(err, &re) || mail != c.mail || line == recordLine):
			t.Errorf("%s: mail %d, line %d: %v; want a record that does not read in mail %d", c.name, mail, line, err, c.mail)
		case !c.parse && (!errors.As(err, &f) || mail != c.mail || line != recordLine || f.Roll != c.roll):
			t.Errorf("%s: mail %d, line %d: %v; want mail %d (%s)", c.name, mail, line, err, c.mail, c.roll)
		}
	}
}

// recordFaceTamper is a change to a faces game's mails.
type recordFaceTamper struct {
	mailTamper
	parse bool // the record no longer reads (a RecordError on the roll's line)
}

func recordFacesTampers(t *testing.T, records []Record, texts []string) []recordFaceTamper {
	t.Helper()
	x, card := records[1].Rolls[0], records[2].Rolls[1]
	xw := fmt.Sprintf("roll #%d, %s", x.Seq, x.Purpose)
	cw := fmt.Sprintf("roll #%d, %s", card.Seq, card.Purpose)
	replace := func(n int, old, new string) []string {
		if !strings.Contains(texts[n], old) {
			t.Fatalf("mail %d lacks %q", n+1, old)
		}
		out := slices.Clone(texts)
		out[n] = strings.Replace(out[n], old, new, 1)
		return out
	}
	d20 := fmt.Sprintf("roll 1 0 d20 %d ", x.Value)
	return []recordFaceTamper{
		{mailTamper{"d20 made a d21", changeLine(t, texts, 1, `(?m)^roll 1 0 d2(0)`), 2, xw}, false},
		{mailTamper{"d20 value", changeLine(t, texts, 1, `(?m)^roll 1 0 d20 (\d)`), 2, xw}, false},
		{mailTamper{"card made a d55", changeLine(t, texts, 2, `(?m)^roll \d+ 1 d5(4)`), 3, cw}, false},
		{mailTamper{"card value", changeLine(t, texts, 2, `(?m)^roll \d+ 1 d54 (\d)`), 3, cw}, false},
		{mailTamper{"d20 made a d10", replace(1, d20, fmt.Sprintf("roll 1 0 %d ", x.Value%10)), 2, xw}, false},
		{mailTamper{"d20 value 20", replace(1, d20, "roll 1 0 d20 20 "), 2, xw}, false},
		{mailTamper{"d10 written", replace(1, d20, fmt.Sprintf("roll 1 0 d10 %d ", x.Value%10)), 2, ""}, true},
		{mailTamper{"d257", replace(1, d20, "roll 1 0 d257 0 "), 2, ""}, true},
		{mailTamper{"d1", replace(1, d20, "roll 1 0 d1 0 "), 2, ""}, true},
		{mailTamper{"d020", replace(1, d20, fmt.Sprintf("roll 1 0 d020 %d ", x.Value)), 2, ""}, true},
		{mailTamper{"d", replace(1, d20, fmt.Sprintf("roll 1 0 d %d ", x.Value)), 2, ""}, true},
		{mailTamper{"no purpose", replace(1, d20+"To-hit: Ogre at Bear (D20)", d20[:len(d20)-1]), 2, ""}, true},
	}
}

// FuzzRollN: RollN refuses exactly the faces and purposes it must, and
// otherwise rolls a face of the die, DeriveN's, Roll's for a d10, and a log
// line that reads back with its faces.
func FuzzRollN(f *testing.F) {
	fixedSeeds(f, 53)
	key := testKey(f)
	_, u, err := NewGame(key, "fuzz-n", "strike-demo", []string{"English", "French"})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []struct {
		p string
		n int
	}{{"To-hit", 20}, {"Card", 54}, {"DR", 10}, {"", 20}, {"x", 1}, {"x", 257}, {"\xff", 20}, {"coin", 2}, {"byte", 256}, {"neg", -10}} {
		f.Add(s.p, s.n)
	}
	const orders = "ATTACK\n"
	blockH := Hash(sha256.Sum256([]byte(orders)))
	f.Fuzz(func(t *testing.T, purpose string, faces int) {
		b, err := Begin(u.Chain, u.Next, "French", 1, orders)
		if err != nil {
			t.Fatal(err)
		}
		v, err := b.RollN(purpose, faces)
		valid := faces >= MinFaces && faces <= MaxFaces && purpose != "" && utf8.ValidString(purpose) && len(purpose) <= MaxPurpose
		if (err == nil) != valid {
			t.Fatalf("RollN(%q, %d) = %d, %v; valid %v", purpose, faces, v, err, valid)
		}
		if err != nil {
			if len(b.Rolls()) != 0 {
				t.Fatalf("a refused roll was recorded")
			}
			return
		}
		want, err := DeriveN(u.Next, "fuzz-n", 1, 0, purpose, blockH, u.Chain.After, faces)
		if v < 0 || v >= faces || err != nil || v != want {
			t.Fatalf("RollN(%q, %d) = %d; DeriveN = %d, %v", purpose, faces, v, want, err)
		}
		if faces == 10 {
			b2, _ := Begin(u.Chain, u.Next, "French", 1, orders)
			if w, err := b2.Roll(purpose); w != v || err != nil {
				t.Fatalf("Roll(%q) = %d, %v; RollN(10) = %d", purpose, w, err, v)
			}
		}
		up, err := b.Close(key, Hash{}, Hash{})
		if err != nil {
			t.Fatal(err)
		}
		line, err := up.Entries[1].Line()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseEntry(line)
		if err != nil || back.Faces != faces || back.Value != v || bytes.Contains(line, []byte(`"faces"`)) != (faces != 10) {
			t.Fatalf("the roll's line %s reads back as %+v, %v", line, back, err)
		}
		if strings.ContainsAny(purpose, "\n\r") || strings.TrimRight(purpose, " \t") != purpose {
			return // a record's line cannot hold it (nor a d10's purpose)
		}
		recs, _, err := FindRecords(BatchRecord(&Header{Version: Version, Game: "fuzz-n"}, up, true).String())
		if err != nil || len(recs) != 1 || recs[0].Rolls[0] != up.Rolls[0] {
			t.Fatalf("the record's roll reads back as %v, %v; want %+v", recs, err, up.Rolls[0])
		}
	})
}

// A roll given other faces keeps its value by chance only (one time in
// the claimed faces): the first d10 of facesPlays (stream 47) happens to
// derive the same value on a d20, others do not. Verify then passes that
// entry; the engine replay, whose dice know the faces the rules ask for,
// is what catches it (TestReplayFaces).
func TestFacesKeepValueByChance(t *testing.T) {
	g := genPlays(t, 47, "strike-1", facesPlays)
	var after Checkpoint
	var seed, blockH Hash
	var agree []uint64 // the d10 entries whose value a d20 derives too
	d10s := 0
	for _, e := range g.entries {
		switch e.Kind {
		case KindSeal:
			after = Checkpoint{Length: e.I - 1, Head: e.Prev}
		case KindBlock:
			seed, blockH = e.Seed, sha256.Sum256([]byte(SenderBlock(e.Orders)))
		case KindRoll:
			if e.Faces != 10 {
				continue
			}
			d10s++
			v, err := DeriveN(seed, g.header.Game, e.Batch, e.Index, e.Purpose, blockH, after, 20)
			if err != nil {
				t.Fatal(err)
			}
			if v == e.Value {
				agree = append(agree, e.I)
			}
		}
	}
	if len(agree) != 1 || d10s < 3 {
		t.Fatalf("of %d d10s, entries %v derive their value on a d20 too; want one (the first)", d10s, agree)
	}
	b := rewrite(t, g, func(es []Entry) []Entry {
		es[agree[0]-1].Faces = 20
		return es
	})
	_, err := Verify(bytes.NewReader(b), Options{})
	var f *Failure
	if !errors.As(err, &f) || f.Entry <= agree[0] {
		t.Errorf("entry %d relabelled a d20: Verify = %v, want it to pass that entry", agree[0], err)
	}
}

// tools/verify-dice.py verifies a game of D20s, cards and d10s, and fails
// every change of a faces or a value at the same line, naming the same
// roll, as Verify.
func TestPythonVerifierAgreesOnFaces(t *testing.T) {
	python, script := pythonVerifier(t)
	g := genPlays(t, 47, "strike-1", facesPlays)
	opts := Options{Checkpoints: g.checkpoints(), PublicKey: &g.header.PublicKey}
	if py := agree(t, python, script, "faces game", g.export, opts); !py.OK || py.Rolls != 12 {
		t.Errorf("verify-dice.py(faces game) = %+v, want OK with 12 rolls", py)
	}
	for _, c := range facesCases(t, g) {
		if py := agree(t, python, script, c.name, c.export, Options{}); py.OK {
			t.Errorf("%s: verify-dice.py = OK", c.name)
		}
	}
}

// tools/verify-dice.py --mail reads and checks the d20 and card rolls of
// a faces game's mails, and fails on the same mail, line and roll as
// checkMails when a faces or a value is changed.
func TestPythonVerifiesFacesMails(t *testing.T) {
	python, script := pythonVerifier(t)
	h, _, records := playGame(t, 52, "strike-3", facesPlays)
	var texts []string
	rolls := 0
	for _, r := range records {
		texts = append(texts, mailText(r))
		rolls += len(r.Rolls)
	}
	last := records[len(records)-1].Checkpoint
	want := fmt.Sprintf("OK: %d mails of game strike-3, batches 0–%d, %d rolls; checkpoint %d:%s\n",
		len(records), len(records)-1, rolls, last.Length, last.Head)
	if out, ok := runMails(t, python, script, writeMails(t, texts), "--public-key", h.PublicKey.String()); !ok || out != want {
		t.Fatalf("untampered mails: verify-dice.py printed\n%s\nwant\n%s", out, want)
	}
	for _, c := range recordFacesTampers(t, records, texts) {
		mail, line, err := checkMails(c.texts, nil)
		if err == nil {
			t.Fatalf("%s: Go verifies it", c.name)
		}
		paths := writeMails(t, c.texts)
		where := fmt.Sprintf("FAILED: mail %d (%s), line %d", mail, paths[mail-1], line)
		if c.roll != "" {
			where += " (" + c.roll + ")"
		}
		if out, ok := runMails(t, python, script, paths); ok || !strings.HasPrefix(out, where+": ") {
			t.Errorf("%s: verify-dice.py printed\n%s\nwant it to begin with\n%s: (Go: %v)", c.name, out, where, err)
		}
	}
}

// baseRev is the commit before dice of other faces: its
// tools/verify-dice.py is a verifier that does not know them.
const baseRev = "9e9c6be"

// A verifier written before dice of other faces refuses them rather than
// mis-verify them (docs/dice.md, "Versions"; R570): the script of baseRev
// fails a faces game's export at its first roll of other faces and its
// mail at the record's d20 line, and still passes a game of d10s.
func TestOldVerifierRefusesFaces(t *testing.T) {
	python, _ := pythonVerifier(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not on PATH: no older verifier to run")
	}
	_, file, _, _ := runtime.Caller(0)
	cmd := exec.Command(git, "show", baseRev+":tools/verify-dice.py")
	cmd.Dir = filepath.Dir(file)
	old, err := cmd.Output()
	if err != nil {
		t.Skipf("git show %s:tools/verify-dice.py: %v (a shallow clone?)", baseRev, err)
	}
	script := filepath.Join(t.TempDir(), "old-verify-dice.py")
	if err := os.WriteFile(script, old, 0o600); err != nil {
		t.Fatal(err)
	}
	if py := runPython(t, python, script, genGame(t, 9, 20).export, Options{}); !py.OK {
		t.Errorf("the old script on a game of d10s: %s", py.Line)
	}
	g := genPlays(t, 47, "strike-1", facesPlays)
	first := 0
	for i, e := range g.entries {
		if e.Kind == KindRoll && e.Faces != 10 {
			first = i + 1
			break
		}
	}
	if py := runPython(t, python, script, g.export, Options{}); py.OK || !strings.HasPrefix(py.Line, fmt.Sprintf("FAILED: line %d (entry %d, roll): ", first+1, first)) {
		t.Errorf("the old script on a faces game: %s; want a failure at entry %d", py.Line, first)
	}
	_, _, records := playGame(t, 52, "strike-3", facesPlays)
	paths := writeMails(t, []string{mailText(records[1])})
	out, ok := runMails(t, python, script, paths)
	if ok || !strings.HasPrefix(out, fmt.Sprintf("FAILED: mail 1 (%s), line ", paths[0])) || !strings.Contains(out, `roll value "d20" is not a number`) {
		t.Errorf("the old script on a faces game's mail: %s", out)
	}
}
