package battle_test

import (
	"bytes"
	"math/rand"
	"testing"

	"herald/data"
	"herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/engine/strike/table"
)

func mauron(t testing.TB) *battle.Battle {
	t.Helper()
	b, err := data.StrikeBattle("mauron")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rngDice rolls from a seeded source.
type rngDice struct{ r *rand.Rand }

func (d rngDice) Roll20(string) (int, error) { return d.r.Intn(20) + 1, nil }
func (d rngDice) Card(string) (strike.Card, error) {
	n := d.r.Intn(54)
	if n >= 52 {
		return strike.Card{Joker: true}, nil
	}
	return strike.Card{Suit: [...]string{"S", "H", "D", "C"}[n/13], Rank: n%13 + 1}, nil
}

func lines(ss []string) []battle.Line {
	out := make([]battle.Line, len(ss))
	for i, s := range ss {
		out[i] = battle.Line{No: i + 1, Text: s}
	}
	return out
}

// noOverlap checks that no two units on the table share more than an edge.
func noOverlap(t *testing.T, b *battle.Battle, st *battle.State) {
	t.Helper()
	for i := range st.Units {
		if !st.Units[i].On() {
			continue
		}
		a := st.Footprint(b, i).Outline()
		for j := i + 1; j < len(st.Units); j++ {
			if !st.Units[j].On() {
				continue
			}
			c := st.Footprint(b, j).Outline()
			// shrink a by a hair: touching is allowed
			ctr := table.Centre(a)
			var s table.Polygon
			for _, v := range a {
				s = append(s, ctr.Add(v.Sub(ctr).Scale(1-1e-5)))
			}
			if table.Intersects(s, c) {
				t.Fatalf("block %d: %s and %s overlap", st.Blocks, st.Units[i].ID, st.Units[j].ID)
			}
		}
	}
}

// TestAutoGamesToTheirEnd plays 20 random games of the house battle by
// Auto: every block is legal, Replay of all events reproduces the state
// byte for byte after every block, no two units overlap, and every game
// ends within its turn limit.
func TestAutoGamesToTheirEnd(t *testing.T) {
	b := mauron(t)
	ends := map[int]int{}
	for seed := int64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewSource(seed))
		st := b.Start()
		var all [][]byte
		for blocks := 0; !st.Over; blocks++ {
			if blocks > 2*b.Turns {
				t.Fatalf("seed %d: no end after %d blocks", seed, blocks)
			}
			ls := battle.Auto(b, st, st.Side, rng)
			out, err := battle.Apply(b, st, st.Side, lines(ls), rngDice{rng})
			if err != nil {
				t.Fatalf("seed %d block %d: %v\n%v", seed, blocks, err, ls)
			}
			for _, e := range out.Events {
				all = append(all, e.Encode())
			}
			re, err := battle.Replay(b, all)
			if err != nil {
				t.Fatalf("seed %d: replay: %v", seed, err)
			}
			if !bytes.Equal(re.Encode(), out.State.Encode()) {
				t.Fatalf("seed %d block %d: replay differs\n%s\n%s", seed, blocks, re.Encode(), out.State.Encode())
			}
			dec, err := battle.Decode(b, out.State.Encode())
			if err != nil || !bytes.Equal(dec.Encode(), out.State.Encode()) {
				t.Fatalf("seed %d: decode: %v", seed, err)
			}
			noOverlap(t, b, out.State)
			st = out.State
		}
		ends[st.Winner]++
		t.Logf("seed %d: %d blocks, %s", seed, st.Blocks, st.Result)
	}
	t.Logf("winners %v", ends)
}
