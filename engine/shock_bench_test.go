package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// battleLines is Men of Iron's house tables on a 20×20 map with two lines
// of fifteen units in contact, Mounted and Dismounted MAA facing Pikes and
// Longbows, the first side's Command activated.
func battleLines(b *testing.B) (*engine.Scenario, *engine.State) {
	tb, err := data.Tables("moi")
	if err != nil {
		b.Fatal(err)
	}
	sc := fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 3})
	sc.Tables = tb
	sc.Map.Grid = hex.Grid{MinCol: 1, MaxCol: 20, MinRow: 1, MaxRow: 20, OddShifted: true}
	sc.Map.Terrain, sc.Map.Elevation = map[hex.Hex]string{}, map[hex.Hex]int{}
	sc.Units = nil
	for k := 0; k < 15; k++ {
		red, blue := []string{"MMAA", "DMAA"}[k%2], []string{"PK", "LB"}[k%2]
		sc.Units = append(sc.Units,
			engine.UnitSpec{ID: fmt.Sprintf("R%d", k), Side: 0, Command: "anna", Type: red, Hex: hex.Hex{Col: 10, Row: k + 3}, Facing: hex.FaceE, Ratings: tb.UnitTypes[red].Ratings},
			engine.UnitSpec{ID: fmt.Sprintf("B%d", k), Side: 1, Command: "carl", Type: blue, Hex: hex.Hex{Col: 11, Row: k + 3}, Facing: hex.FaceW, Ratings: tb.UnitTypes[blue].Ratings})
	}
	sc.Leaders[0].Hex, sc.Leaders[0].Range = hex.Hex{Col: 10, Row: 10}, 20
	sc.Leaders[1].Hex = hex.Hex{Col: 11, Row: 10}
	res, err := engine.Apply(sc, engine.NewState(sc), 0, parseB(b, "ACTIVATE Anna"), engine.NewScript())
	if err != nil {
		b.Fatal(err)
	}
	return sc, res.State
}

// shockAll declares, for each unit of the first side in turn, a Shock on
// the enemy units in its Frontal hexes that no earlier unit attacks: every
// enemy in contact is attacked once, as 10.1 asks.
func shockAll(sc *engine.Scenario, st *engine.State) string {
	taken := map[string]bool{}
	var lines []string
	for _, l := range engine.Legal(sc, st) {
		if !strings.HasPrefix(l, "SHOCK ") {
			continue
		}
		by, at, _ := strings.Cut(strings.TrimPrefix(l, "SHOCK "), " AT ")
		var free []string
		for _, d := range strings.Fields(at) {
			if !taken[d] {
				free, taken[d] = append(free, d), true
			}
		}
		if len(free) > 0 {
			lines = append(lines, "SHOCK "+by+" AT "+strings.Join(free, " "))
		}
	}
	return strings.Join(lines, "\n") + "\nEND"
}

// A Shock Phase of fifteen attacks along two lines in contact, with their
// Advances and Continued Attack rounds, random dice: one Apply of the
// declaring block.
func BenchmarkShockPhase(b *testing.B) {
	sc, st := battleLines(b)
	block := parseB(b, shockAll(sc, st))
	r := rand.New(rand.NewPCG(1, 2))
	attacks := 0
	for b.Loop() {
		res, err := engine.Apply(sc, st, 0, block, randomDice{r})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range res.Events {
			if _, ok := e.(engine.AttackResolved); ok {
				attacks++
			}
		}
	}
	b.ReportMetric(float64(attacks)/float64(b.N), "attacks/op")
}

// The orders a mail lists as legal for a Command of fifteen units in
// contact: every Shock, every Charge path searched (engine.Legal).
func BenchmarkLegalInContact(b *testing.B) {
	sc, st := battleLines(b)
	for b.Loop() {
		engine.Legal(sc, st)
	}
}
