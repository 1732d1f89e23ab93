package battle_test

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"

	"herald/engine/strike/battle"
)

// FuzzOrders: any block of lines is either refused with a located,
// reasoned *Refusal or applied; the input state never changes; an
// applied block replays byte for byte.
func FuzzOrders(f *testing.F) {
	for _, s := range []string{"MOVE Kn1 6", "move kn1 back 2", "WHEEL Maa1 LEFT 30", "TURN Sp1 ABOUT",
		"SHOOT Cb1 2 AT Lb1, 1 AT Sk2", "CHARGE Kn1 AT Lb1", "END", "SHOOT Cb1 AT", "MOVE Kn1 1e308", "WHEEL Kn1 RIGHT 0.0001",
		"SHOOT Cb1 1 AT Lb1,", "CHARGE Kn1 AT Kn1", "MOVE Kn1 -1", "MOVE Kn1 NaN"} {
		f.Add(s, "MOVE Maa1 2", int64(1))
	}
	b := mauron(f)
	f.Fuzz(func(t *testing.T, l1, l2 string, seed int64) {
		st := b.Start()
		before := st.Encode()
		out, err := battle.Apply(b, st, 0, lines([]string{l1, l2}), rngDice{rand.New(rand.NewSource(seed))})
		if !bytes.Equal(before, st.Encode()) {
			t.Fatal("Apply changed its input")
		}
		if err != nil {
			var r *battle.Refusal
			if !errors.As(err, &r) || r.Reason == "" || r.Line < 1 || r.Line > 2 {
				t.Fatalf("%q, %q: %#v", l1, l2, err)
			}
			return
		}
		var evs [][]byte
		for _, e := range out.Events {
			evs = append(evs, e.Encode())
		}
		re, err := battle.Replay(b, evs)
		if err != nil || !bytes.Equal(re.Encode(), out.State.Encode()) {
			t.Fatalf("%q, %q: replay %v", l1, l2, err)
		}
	})
}

// BenchmarkApply is order processing end to end: an Auto block of the
// house battle's first turn, parsed, checked and applied.
func BenchmarkApply(b *testing.B) {
	bt := mauron(b)
	st := bt.Start()
	ls := lines(battle.Auto(bt, st, 0, rand.New(rand.NewSource(1))))
	rng := rand.New(rand.NewSource(2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := battle.Apply(bt, st, 0, ls, rngDice{rng}); err != nil {
			b.Fatal(err)
		}
	}
}
