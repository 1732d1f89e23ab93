package engine_test

import (
	"strings"
	"testing"
	"unicode"

	"herald/data"
	"herald/engine"
)

// The legal orders name a leader as a player would write him, with a
// capital ("MOVE Edward <hexes>", not the data's id "edward"), and the
// word names that leader when typed back (issue 16, item 8).
func TestLegalNamesLeadersAsWritten(t *testing.T) {
	for _, id := range data.Scenarios() {
		sc, err := data.Scenario(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range sc.Commands {
			if c.Side != sc.First {
				continue
			}
			st := engine.NewState(sc)
			res, err := engine.Apply(sc, st, sc.First, []engine.Order{engine.Activate{Name: c.ID}}, engine.NewScript())
			if err != nil {
				continue // a Command that cannot go first (reinforcements)
			}
			ld := sc.Leader(c.Leader)
			var word string
			for _, l := range engine.Legal(sc, res.State) {
				if f := strings.Fields(l); len(f) == 3 && f[0] == "MOVE" && f[2] == "<hexes>" {
					word = f[1]
				}
			}
			if word == "" {
				continue // the leader is off the map
			}
			if !unicode.IsUpper([]rune(word)[0]) {
				t.Errorf("%s: leader %s is offered as %q", id, ld.Name, word)
			}
			// Typed back to a hex he cannot reach, the refusal is about
			// the path, not about whom the word names.
			orders, err := engine.ParseOrders(engine.SplitLines("MOVE " + word + " 9999"))
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			_, err = engine.Apply(sc, res.State, sc.First, orders, engine.NewScript())
			if err == nil || strings.Contains(err.Error(), "no unit") || strings.Contains(err.Error(), "no leader") {
				t.Errorf("%s: MOVE %s 9999: %v, want a refusal of the path", id, word, err)
			}
		}
	}
}
