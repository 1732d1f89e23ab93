package dice

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestVerifyUntampered(t *testing.T) {
	g := genGame(t, 1, 220)
	rep, err := Verify(bytes.NewReader(g.export), Options{
		Checkpoints: g.checkpoints(),
		PublicKey:   &g.header.PublicKey,
		Replayer:    fakeReplayer{},
	})
	if err != nil {
		t.Fatalf("Verify(untampered) = %v, want OK", err)
	}
	last := g.updates[len(g.updates)-1].Chain
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"entries", rep.Entries, uint64(len(g.entries))},
		{"batches", rep.Batches, last.Batches},
		{"blocks", rep.Blocks, last.Batches},
		{"rolls", rep.Rolls, last.Rolls},
		{"seals", rep.Seals, uint64(len(g.updates))},
		{"checkpoints", uint64(rep.Checkpoints), uint64(len(g.updates))},
		{"tally", rep.Tally.N, last.Rolls},
	} {
		if c.got != c.want {
			t.Errorf("Report.%s = %d, want %d", c.name, c.got, c.want)
		}
	}
	if rep.Rolls < 200 {
		t.Errorf("Report.Rolls = %d, want at least 200", rep.Rolls)
	}
	if rep.Head != last.Head || !rep.Replayed || !rep.OK() {
		t.Errorf("Report = head %s replayed %v ok %v, want head %s, replayed, ok", rep.Head, rep.Replayed, rep.OK(), last.Head)
	}
	if got := ChainFrom(g.header, g.entries); got != last {
		t.Errorf("ChainFrom = %+v, want %+v", got, last)
	}
	t.Log(rep.String())
	t.Log(rep.Tally.String())
}

// flipMasks are the bit flips tried at every byte: a neighbouring digit or
// letter, another hex digit, a case change, and a non-ASCII byte.
var flipMasks = []byte{0x01, 0x04, 0x20, 0x80}

// TestVerifyTamperEveryByte flips every byte of a small export (all entry
// kinds, escapes, a block without rolls) and checks that verification fails
// naming the line that holds the byte.
func TestVerifyTamperEveryByte(t *testing.T) {
	g := genGame(t, 2, 12)
	checkFlips(t, g, 1, flipMasks, false)
}

// TestVerifyTamperLargeExport does the same over a 200-roll export, on
// every fifth byte with one mask each, in turn.
func TestVerifyTamperLargeExport(t *testing.T) {
	g := genGame(t, 3, 200)
	step := 5
	if testing.Short() {
		step = 23
	}
	checkFlips(t, g, step, []byte{0x01, 0x20, 0x80}, true)
}

// checkFlips flips bytes of g's export, every step bytes, each with each
// mask (or, if rotate, with one mask in turn), and checks that verification fails at the line holding the byte.
// To keep this fast it verifies the lines before the flipped one once, and
// for each flip resumes from a copy of that verifier; every tenth line is
// also checked with a full Verify from the first byte.
func checkFlips(t *testing.T, g *testGame, step int, masks []byte, rotate bool) {
	t.Helper()
	lines := bytes.SplitAfter(g.export, []byte{'\n'})
	lines = lines[:len(lines)-1] // the empty piece after the last newline
	v := newVerifier(nil, Options{})
	tried, off := 0, 0
	for j, line := range lines {
		rest := g.export[off+len(line):]
		for k := (step - off%step) % step; k < len(line); k += step {
			ms := masks
			if rotate {
				ms = masks[(off+k)/step%len(masks) : (off+k)/step%len(masks)+1]
			}
			for _, m := range ms {
				buf := append([]byte(nil), line...)
				buf[k] ^= m
				w := v.clone(io.MultiReader(bytes.NewReader(buf), bytes.NewReader(rest)))
				f, err := w.lines(uint64(j))
				if f == nil && err == nil {
					f, err = w.end(), nil
				}
				if f == nil || f.Entry != uint64(j) {
					t.Fatalf("Verify(byte %d ^ %#x, %q→%q) = %v, %v; want a failure at entry %d", off+k, m, line[k], buf[k], f, err, j)
				}
				if j%10 == 0 && k < step {
					full := append([]byte(nil), g.export...)
					full[off+k] ^= m
					rep, err := Verify(bytes.NewReader(full), Options{})
					var ff *Failure
					if !errors.As(err, &ff) || ff.Entry != uint64(j) || rep.Failure != ff {
						t.Fatalf("Verify(byte %d ^ %#x, %q→%q) = %v, want a failure at entry %d", off+k, m, line[k], full[off+k], err, j)
					}
				}
				tried++
			}
		}
		if f := v.line(uint64(j), line[:len(line)-1]); f != nil {
			t.Fatalf("untampered line %d: %v", j, f)
		}
		off += len(line)
	}
	t.Logf("%d single-byte flips over %d bytes, %d lines: each failed at its own line", tried, len(g.export), len(lines))
}

// edit returns the export with line n (0 = header) replaced by fn's result;
// fn returning nil deletes the line.
func edit(export []byte, n int, fn func(line []byte) []byte) []byte {
	lines := bytes.SplitAfter(export, []byte{'\n'})
	var out []byte
	for i, l := range lines {
		if i == n {
			l = fn(l)
		}
		out = append(out, l...)
	}
	return out
}

func TestVerifyFailures(t *testing.T) {
	g := genGame(t, 4, 8)
	n := uint64(len(g.entries))
	// The first block and its first roll.
	var block, roll int
	for i, e := range g.entries {
		if e.Kind == KindRoll {
			roll = i + 1
			break
		}
	}
	for i := roll - 1; i > 0; i-- {
		if g.entries[i-1].Kind == KindBlock {
			block = i
			break
		}
	}
	other, err := KeyFromSeed(bytes.Repeat([]byte{9}, 32))
	if err != nil {
		t.Fatal(err)
	}
	otherPub := other.Public()
	cp := g.updates[1].Checkpoint
	badSig := *cp.Sig
	badSig[3] ^= 1
	cpKind := string(g.entries[cp.Length-1].Kind)
	tests := []struct {
		name      string
		export    []byte
		opts      Options
		wantEntry uint64
		wantKind  string
		wantIn    string
	}{
		{"empty", nil, Options{}, 0, "header", "empty"},
		{"header only", g.export[:bytes.IndexByte(g.export, '\n')+1], Options{}, 1, "seal", "missing"},
		{"no final newline", g.export[:len(g.export)-1], Options{}, n, "", "newline"},
		{"CRLF", bytes.ReplaceAll(g.export, []byte("\n"), []byte("\r\n")), Options{}, 0, "header", "canonical"},
		{"ends inside a batch", edit(g.export, int(n), func([]byte) []byte { return nil }), Options{}, n, "seal", "missing"},
		{"roll dropped", edit(g.export, roll, func([]byte) []byte { return nil }), Options{}, uint64(roll), string(g.entries[roll].Kind), "numbered"},
		{"line too long", append(bytes.Repeat([]byte{'x'}, MaxLine+1), '\n'), Options{}, 0, "header", "longer"},
		{"pretty printed", edit(g.export, 0, func(l []byte) []byte { return bytes.Replace(l, []byte(`,"game"`), []byte(`, "game"`), 1) }), Options{}, 0, "header", "canonical"},
		{"wrong public key", g.export, Options{PublicKey: &otherPub}, 0, "header", "first mail"},
		{"checkpoint head differs", g.export, Options{Checkpoints: []Checkpoint{{Length: cp.Length, Head: Hash{1}}}}, cp.Length, cpKind, "rewritten"},
		{"checkpoint signature wrong", g.export, Options{Checkpoints: []Checkpoint{{Length: cp.Length, Head: cp.Head, Sig: &badSig}}}, cp.Length, cpKind, "signature"},
		{"checkpoint beyond the end", g.export, Options{Checkpoints: []Checkpoint{{Length: n + 5, Head: Hash{1}}}}, n + 1, "", "removed"},
		{"checkpoint at the header", g.export, Options{Checkpoints: []Checkpoint{{Length: 0, Head: Hash{1}}}}, 0, "header", "rewritten"},
		{"unknown kind", edit(g.export, 1, func(l []byte) []byte { return bytes.Replace(l, []byte(`"seal"`), []byte(`"stamp"`), 1) }), Options{}, 1, "", "unknown kind"},
		{"garbage", []byte("hello\n"), Options{}, 0, "header", "invalid"},
		{"block announces a roll too few", g.export, Options{}, 0, "", ""}, // replaced below
	}
	tests[len(tests)-1] = struct {
		name      string
		export    []byte
		opts      Options
		wantEntry uint64
		wantKind  string
		wantIn    string
	}{"roll where the seal belongs", rewrite(t, g, func(es []Entry) []Entry {
		e := es[block-1]
		e.Rolls--
		es[block-1] = e
		return es
	}), Options{}, uint64(roll) + uint64(g.entries[block-1].Rolls) - 1, "roll", "seal of batch"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Verify(bytes.NewReader(tc.export), tc.opts)
			var f *Failure
			if !errors.As(err, &f) {
				t.Fatalf("Verify = %v, want a failure at entry %d", err, tc.wantEntry)
			}
			if f.Entry != tc.wantEntry || f.Kind != tc.wantKind || !strings.Contains(f.Reason, tc.wantIn) {
				t.Errorf("Verify = %v, want entry %d (%s) with %q", f, tc.wantEntry, tc.wantKind, tc.wantIn)
			}
			if rep == nil || rep.OK() {
				t.Errorf("Verify report = %v, want a failed report", rep)
			}
			if !strings.HasPrefix(err.Error(), "dice: ") {
				t.Errorf("error %q lacks the dice: prefix", err)
			}
		})
	}
}

// rewrite re-chains and re-signs a modified log with the installation key,
// as a cheating operator could: only checkpoints catch it.
func rewrite(t *testing.T, g *testGame, fn func([]Entry) []Entry) []byte {
	t.Helper()
	es := fn(append([]Entry(nil), g.entries...))
	key := testKey(t)
	c := Chain{Game: g.header.Game, Head: g.header.Hash}
	for i := range es {
		if es[i].Kind == KindSeal {
			es[i].Sig = key.sign(c.Game, c.Length, c.Head)
		}
		if err := c.add(&es[i]); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, g.header, es); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestVerifyRewrittenHistory: an operator who replays a game with other
// orders and re-signs the log produces an export that verifies on its own;
// a checkpoint from a player's mailbox exposes it.
func TestVerifyRewrittenHistory(t *testing.T) {
	g := genGame(t, 5, 30)
	cps := g.checkpoints()
	// The same key and seeds, another first order block.
	fixedSeeds(t, 5)
	h, u, err := NewGame(testKey(t), "ladder-7", "crecy", []string{"English", "French"})
	if err != nil {
		t.Fatal(err)
	}
	orders := "ACTIVATE Doria\nROLL Continuity DR: Grimaldi (AR 2)\nROLL again\n"
	b, err := Begin(u.Chain, u.Next, "French", 1, orders)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := (&fakeEngine{}).apply(orders, b)
	u2, err := b.Close(testKey(t), d.EventsSHA256, d.StateSHA256)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteExport(&buf, h, append(u.Entries, u2.Entries...)); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(bytes.NewReader(buf.Bytes()), Options{}); err != nil {
		t.Fatalf("Verify(re-signed rewrite, no checkpoints) = %v, want OK: signatures alone cannot catch the operator", err)
	}
	_, err = Verify(bytes.NewReader(buf.Bytes()), Options{Checkpoints: cps[1:2]})
	var f *Failure
	if !errors.As(err, &f) || f.Entry != cps[1].Length || !strings.Contains(f.Reason, "rewritten") {
		t.Fatalf("Verify(rewrite, checkpoint %v) = %v, want a rewrite found at entry %d", cps[1], err, cps[1].Length)
	}
}

type panicReplayer struct{}

func (panicReplayer) Replay(h Header, blocks []AppliedBlock, rolls RollSource) ([]Digest, error) {
	rolls.Dice(2).Roll("x")
	panic("engine bug")
}

type funcReplayer func(h Header, blocks []AppliedBlock, rolls RollSource) ([]Digest, error)

func (f funcReplayer) Replay(h Header, blocks []AppliedBlock, rolls RollSource) ([]Digest, error) {
	return f(h, blocks, rolls)
}

func TestVerifyReplay(t *testing.T) {
	g := genGame(t, 6, 20)
	// The first block with rolls: its number among blocks and its entry.
	var blk int
	var blockEntry uint64
	for _, e := range g.entries {
		if e.Kind == KindBlock {
			if e.Rolls > 0 {
				blockEntry = e.I
				break
			}
			blk++
		}
	}
	tests := []struct {
		name      string
		r         Replayer
		wantEntry uint64
		wantIn    string
	}{
		{"buggy engine", fakeReplayer{bug: 1}, blockEntry, "events hash"},
		{"other purpose", funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
			out, _ := fakeReplayer{}.Replay(h, bs[:blk], rs)
			_, err := rs.Dice(blk).Roll("something else")
			return out, err
		}), blockEntry + 1, "the log for"},
		{"rolls too many", funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
			out, err := fakeReplayer{}.Replay(h, bs, rs)
			if _, err := rs.Dice(blk).Roll("one more"); err != nil {
				return out, err
			}
			return out, err
		}), blockEntry + g.entries[blockEntry-1].Rolls + 1, "logged only"},
		{"rolls too few", funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
			out, err := fakeReplayer{}.Replay(h, bs[:blk], rs)
			for range bs[blk:] {
				out = append(out, Digest{})
			}
			return out, err
		}), blockEntry, "events hash"},
		{"stops early", funcReplayer(func(h Header, bs []AppliedBlock, rs RollSource) ([]Digest, error) {
			out, _ := fakeReplayer{}.Replay(h, bs[:blk], rs)
			return out, fmt.Errorf("order %q does not parse", "ACTIVATE Nobody")
		}), blockEntry, "does not parse"},
		{"panics", panicReplayer{}, g.entries[len(g.entries)-1].I, "panicked"},
	}
	// "panics" blames block 2.
	n := 0
	for _, e := range g.entries {
		if e.Kind == KindBlock {
			if n == 2 {
				tests[len(tests)-1].wantEntry = e.I
			}
			n++
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(bytes.NewReader(g.export), Options{Replayer: tc.r})
			var f *Failure
			if !errors.As(err, &f) || f.Entry != tc.wantEntry || !strings.Contains(f.Reason, tc.wantIn) {
				t.Errorf("Verify(replay %s) = %v, want entry %d with %q", tc.name, err, tc.wantEntry, tc.wantIn)
			}
		})
	}
}
