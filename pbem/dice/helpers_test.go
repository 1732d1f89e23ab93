package dice

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testKey is a fixed installation key for reproducible exports.
func testKey(t testing.TB) *Key {
	t.Helper()
	k, err := KeyFromSeed(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// fixedSeeds makes NewGame and Close draw seeds from a deterministic
// stream for the rest of the test.
func fixedSeeds(t testing.TB, stream uint64) {
	t.Helper()
	old := newSeed
	var n uint64
	newSeed = func() (Seed, error) {
		n++
		var b [16]byte
		binary.BigEndian.PutUint64(b[:], stream)
		binary.BigEndian.PutUint64(b[8:], n)
		return Seed(sha256.Sum256(b[:])), nil
	}
	t.Cleanup(func() { newSeed = old })
}

// fakeEngine stands in for the rules engine: each order line "ROLL
// <purpose>" rolls one d10 for purpose, each line "ROLLN <faces>
// <purpose>" a die of faces faces; other lines roll nothing. Events are
// "purpose=value" lines; the state is a running hash.
type fakeEngine struct {
	state Hash
	// bug, when set, is added to every value in the events (a buggy
	// engine whose events disagree with a correct one).
	bug int
}

func (f *fakeEngine) apply(orders string, d Die) (Digest, error) {
	var events [][]byte
	for _, line := range strings.Split(orders, "\n") {
		faces, purpose, ok := rollLine(line)
		if !ok {
			continue
		}
		var v int
		var err error
		if faces == 10 && strings.HasPrefix(line, "ROLL ") {
			v, err = d.Roll(purpose)
		} else {
			v, err = d.RollN(purpose, faces)
		}
		if err != nil {
			return Digest{}, err
		}
		events = append(events, fmt.Appendf(nil, "%s=%d", purpose, v+f.bug))
	}
	ev := EventsSHA256(events)
	f.state = sha256.Sum256(append(f.state[:], ev[:]...))
	return Digest{EventsSHA256: ev, StateSHA256: f.state}, nil
}

// rollLine reads an order line "ROLL <purpose>" (a d10) or "ROLLN
// <faces> <purpose>".
func rollLine(line string) (faces int, purpose string, ok bool) {
	if purpose, ok := strings.CutPrefix(line, "ROLL "); ok {
		return 10, purpose, true
	}
	rest, ok := strings.CutPrefix(line, "ROLLN ")
	if !ok {
		return 0, "", false
	}
	n, purpose, ok := strings.Cut(rest, " ")
	faces, err := strconv.Atoi(n)
	return faces, purpose, ok && err == nil
}

// fakeReplayer replays with a fakeEngine.
type fakeReplayer struct{ bug int }

func (r fakeReplayer) Replay(h Header, blocks []AppliedBlock, rolls RollSource) ([]Digest, error) {
	f := &fakeEngine{bug: r.bug}
	var out []Digest
	for i, b := range blocks {
		d, err := f.apply(b.Orders, rolls.Dice(i))
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

// testGame is a generated game: its header, log, updates and export.
type testGame struct {
	header  *Header
	entries []Entry
	updates []*Update
	export  []byte
}

var purposes = []string{
	"Continuity DR: Grimaldi (AR 2)",
	"Seizure DR: Alençon (AR 3)",
	"Loss Check: English (Flight Level 12)",
	`Standard moves: Retired "1st Bow" <&> \ x`,
	"Fire: 1210 → 1311\tlongbow",
	"Charge 😀 test",
}

// genGame plays a game with the fake engine until it has at least minRolls
// rolls (and at least one batch), with an RNG seeded by stream.
func genGame(t testing.TB, stream uint64, minRolls int) *testGame {
	t.Helper()
	fixedSeeds(t, stream)
	rng := rand.New(rand.NewPCG(stream, 99))
	key := testKey(t)
	h, u, err := NewGame(key, "ladder-7", "crecy", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	g := &testGame{header: h, entries: u.Entries, updates: []*Update{u}}
	chain, seed := u.Chain, u.Next
	eng := &fakeEngine{}
	rolls := 0
	for move := uint64(1); rolls < minRolls || move == 1; move++ {
		var orders strings.Builder
		n := rng.IntN(6)
		if move%9 == 0 {
			n = 0 // some blocks roll nothing
		}
		fmt.Fprintf(&orders, "ACTIVATE Doria\n")
		for range n {
			fmt.Fprintf(&orders, "ROLL %s\n", purposes[rng.IntN(len(purposes))])
		}
		side := []string{"English", "French"}[move%2]
		b, err := Begin(chain, seed, side, move, orders.String())
		if err != nil {
			t.Fatal(err)
		}
		d, err := eng.apply(orders.String(), b)
		if err != nil {
			t.Fatal(err)
		}
		u, err := b.Close(key, d.EventsSHA256, d.StateSHA256)
		if err != nil {
			t.Fatal(err)
		}
		rolls += len(u.Rolls)
		g.entries = append(g.entries, u.Entries...)
		g.updates = append(g.updates, u)
		chain, seed = u.Chain, u.Next
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, g.entries); err != nil {
		t.Fatal(err)
	}
	g.export = buf.Bytes()
	return g
}

// checkpoints returns the signed checkpoint of every mail of the game.
func (g *testGame) checkpoints() []Checkpoint {
	var out []Checkpoint
	for _, u := range g.updates {
		out = append(out, u.Checkpoint)
	}
	return out
}

// lineOf returns the line (0 = header) holding byte i of export.
func lineOf(export []byte, i int) uint64 {
	return uint64(bytes.Count(export[:i], []byte{'\n'}))
}

// clone copies a verifier part-way through an export, to go on reading
// from rest.
func (v *verifier) clone(rest io.Reader) *verifier {
	w := *v
	rep := *v.rep
	w.rep = &rep
	w.br = bufio.NewReader(rest)
	w.blocks = slices.Clone(v.blocks)
	if n := len(w.blocks); n > 0 {
		w.blocks[n-1].Rolls = slices.Clone(w.blocks[n-1].Rolls)
	}
	return &w
}
