package mapimg

import (
	"testing"

	"herald/engine"
)

// A battle's digests are taken once for its address, and a copy of it
// changed gets its own.
func TestDigestsOncePerBattle(t *testing.T) {
	sc, _ := crecy(t)
	var memo digestMemo[*engine.Scenario]
	calls := 0
	sum := func(sc *engine.Scenario) [16]byte { calls++; return battleKey(sc) }
	first := memo.get(sc, sum)
	if again := memo.get(sc, sum); again != first || calls != 1 {
		t.Fatalf("the same battle: digest %x then %x, %d sums taken; want the same, 1", first, again, calls)
	}
	renamed := *sc
	renamed.Name += " (again)"
	if memo.get(&renamed, sum) == first || calls != 2 {
		t.Fatalf("a changed copy has the original's digest (%d sums taken)", calls)
	}
	for i := range digestMemoMax {
		c := *sc
		c.Name = string(rune('a' + i))
		memo.get(&c, sum)
	}
	if len(memo.m) > digestMemoMax {
		t.Errorf("%d digests remembered, at most %d", len(memo.m), digestMemoMax)
	}
}
