package engine_test

import (
	"os"
	"reflect"
	"testing"

	"herald/data"
	"herald/engine"
)

// Reach with its hex index (one per State, shared by every unit and
// leader asked) lists exactly what the reference without it lists
// (ReachReference, the code before the index), for every unit and leader
// of every third state of a random game of up to 120 blocks of every
// battle Herald ships (REACHFULL=1: every state of three games of up to
// 150 blocks): the same hexes, costs and paths, in the same order.
func TestReachMatchesReference(t *testing.T) {
	if raceBuild {
		t.Skip("the same lists with or without the race detector, which makes this three minutes: .ci/run runs it without -race")
	}
	games, steps, every := 1, 120, 3
	switch {
	case os.Getenv("REACHFULL") != "":
		games, steps, every = 3, 150, 1 // every state: some 150,000 reaches, minutes
	case testing.Short():
		steps = 30
	}
	for _, name := range data.Scenarios() {
		t.Run(name, func(t *testing.T) {
			compared, nonEmpty, block := 0, 0, 0
			playRandomBattles(t, name, games, steps, func(t *testing.T, where string, sc *engine.Scenario, st *engine.State, _ []engine.Event) {
				if block++; block%every != 0 {
					return // the reference is slow
				}
				r := engine.NewReacher(sc, st)
				var ids []string
				for _, u := range sc.Units {
					ids = append(ids, u.ID)
				}
				for _, l := range sc.Leaders {
					ids = append(ids, l.ID)
				}
				for _, id := range ids {
					want := engine.ReachReference(sc, st, id)
					if got := r.Reach(id); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: Reach(%s) with the index:\n%v\nwithout:\n%v", where, id, got, want)
					}
					if got := engine.Reach(sc, st, id); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: Reach(%s):\n%v\nreference:\n%v", where, id, got, want)
					}
					compared++
					if len(want) > 0 {
						nonEmpty++
					}
				}
			})
			t.Logf("%s: %d reaches compared, %d not empty", name, compared, nonEmpty)
			if nonEmpty == 0 {
				t.Errorf("%s: no unit could move in any state compared", name)
			}
		})
	}
}

// Reach prices a step from its index of hexside features exactly as a
// MOVE order does (enterCost), on every shipped battle's map.
func TestIndexedEnterCosts(t *testing.T) {
	sided := 0
	for _, id := range data.Scenarios() {
		sc, err := data.Scenario(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.Map.Hexsides) > 0 {
			sided++
		}
		for _, d := range engine.EnterCostsDiffer(sc) {
			t.Errorf("%s: %s", id, d)
		}
	}
	if sided < 3 {
		t.Errorf("only %d battles have hexside features: the test proves little", sided)
	}
}
