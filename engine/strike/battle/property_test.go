package battle_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"herald/engine/strike/battle"
)

// randomLine is any order a player might write for side: often illegal.
func randomLine(b *battle.Battle, side int, rng *rand.Rand) string {
	var own, foe []string
	for _, u := range b.Units {
		if u.Side == side {
			own = append(own, u.ID)
		} else {
			foe = append(foe, u.ID)
		}
	}
	o, f := own[rng.Intn(len(own))], foe[rng.Intn(len(foe))]
	switch rng.Intn(8) {
	case 0:
		return fmt.Sprintf("MOVE %s %.1f", o, rng.Float64()*8)
	case 1:
		return fmt.Sprintf("MOVE %s BACK %.1f", o, rng.Float64()*3)
	case 2:
		return fmt.Sprintf("WHEEL %s %s %d", o, []string{"LEFT", "RIGHT"}[rng.Intn(2)], 1+rng.Intn(90))
	case 3:
		return fmt.Sprintf("TURN %s %s", o, []string{"LEFT", "RIGHT", "ABOUT"}[rng.Intn(3)])
	case 4:
		return fmt.Sprintf("SHOOT %s AT %s", o, f)
	case 5:
		return fmt.Sprintf("SHOOT %s 1 AT %s, 1 AT %s", o, f, foe[rng.Intn(len(foe))])
	case 6:
		return fmt.Sprintf("CHARGE %s AT %s", o, f)
	}
	return fmt.Sprintf("MOVE %s %d", o, 1+rng.Intn(3))
}

// TestRandomOrders plays games of random order lines, mostly refused:
// a refused block changes nothing, the accepted ones replay byte for
// byte, units never overlap, and every game ends.
func TestRandomOrders(t *testing.T) {
	b := mauron(t)
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		st := b.Start()
		var all [][]byte
		refused := 0
		for blocks := 0; !st.Over; blocks++ {
			if blocks > 2*b.Turns {
				t.Fatalf("seed %d: no end", seed)
			}
			var ls []string
			for k := rng.Intn(6); k > 0; k-- {
				ls = append(ls, randomLine(b, st.Side, rng))
			}
			before := st.Encode()
			var out *battle.Outcome
			for {
				var err error
				out, err = battle.Apply(b, st, st.Side, lines(ls), rngDice{rng})
				if !bytes.Equal(before, st.Encode()) {
					t.Fatalf("seed %d: Apply changed its input state", seed)
				}
				var r *battle.Refusal
				if errors.As(err, &r) && r.Line > 0 {
					refused++
					if r.Reason == "" || r.Rule == "" {
						t.Fatalf("seed %d: a refusal without reason or rule: %+v", seed, r)
					}
					ls = append(ls[:r.Line-1], ls[r.Line:]...)
					continue
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				break
			}
			for _, e := range out.Events {
				all = append(all, e.Encode())
			}
			re, err := battle.Replay(b, all)
			if err != nil || !bytes.Equal(re.Encode(), out.State.Encode()) {
				t.Fatalf("seed %d block %d: replay differs (%v)", seed, blocks, err)
			}
			noOverlap(t, b, out.State)
			for i := range out.State.Units {
				u := out.State.Units[i]
				if u.On() && (u.Stands > u.Files*u.Ranks || u.Stands <= (u.Ranks-1)*u.Files) {
					t.Fatalf("seed %d: %s has %d stands in %d×%d", seed, u.ID, u.Stands, u.Files, u.Ranks)
				}
			}
			st = out.State
		}
		if refused == 0 {
			t.Errorf("seed %d: no line refused; the test tries nothing illegal", seed)
		}
	}
}
