package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// A 40×30 battlefield with 60 units, 30 a side in two lines facing each
// other, woods scattered, a slope along one column: the reachable-hex
// query for a unit in the middle of its line.
func BenchmarkReach(b *testing.B) {
	sc := fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 3})
	sc.Map.Grid = hex.Grid{MinCol: 1, MaxCol: 40, MinRow: 1, MaxRow: 30, OddShifted: true}
	sc.Tables.Terrain["woods"] = &engine.TerrainType{Key: "woods", Cost: map[engine.Class]engine.Cost{engine.Foot: 2, engine.Mounted: 3}}
	sc.Tables.Hexsides["slope"] = &engine.HexsideType{Key: "slope", Slope: true, Cost: map[engine.Class]engine.Cost{engine.Foot: 1, engine.Mounted: 1}}
	sc.Map.Terrain = map[hex.Hex]string{}
	for c := 1; c <= 40; c += 3 {
		for r := 2; r <= 30; r += 4 {
			sc.Map.Terrain[hex.Hex{Col: c, Row: r}] = "woods"
		}
	}
	for r := 1; r <= 30; r++ {
		sc.Map.Hexsides = append(sc.Map.Hexsides, engine.Hexside{A: hex.Hex{Col: 20, Row: r}, B: hex.Hex{Col: 19, Row: r}, Feature: "slope"})
	}
	sc.Units = nil
	for side, col := range []int{14, 24} {
		cmd := sc.Commands[side].ID
		for k := 0; k < 30; k++ {
			typ := "INF"
			if k%3 == 0 {
				typ = "MAA"
			}
			f := hex.FaceE
			if side == 1 {
				f = hex.FaceW
			}
			sc.Units = append(sc.Units, engine.UnitSpec{ID: fmt.Sprintf("U%d-%d", side, k), Side: engine.Side(side), Command: cmd, Type: typ,
				Hex: hex.Hex{Col: col - k%2, Row: k + 1}, Facing: f, Ratings: engine.Ratings{MA: 6, MADisordered: 5}})
		}
	}
	st := engine.NewState(sc)
	if r, err := engine.Apply(sc, st, 0, parseB(b, "ACTIVATE Anna"), engine.NewScript()); err == nil {
		st = r.State
	} else {
		b.Fatal(err)
	}
	if n := len(engine.Reach(sc, st, "U0-15")); n < 20 {
		b.Fatalf("reach of %d hexes", n)
	}
	for b.Loop() {
		engine.Reach(sc, st, "U0-15")
	}
}

func parseB(b *testing.B, text string) []engine.Order {
	orders, err := engine.ParseOrders(engine.SplitLines(text))
	if err != nil {
		b.Fatal(err)
	}
	return orders
}

// The Reach hints of one mail on a shipped battle: Crécy after the first
// Command is activated, every unit of the battle asked (as reachHints
// asks the activated Command's): with the hex index shared by one
// Reacher, and by the reference without the index (the code before it).
func BenchmarkReachHints(b *testing.B) {
	sc, err := data.Scenario("crecy")
	if err != nil {
		b.Fatal(err)
	}
	st := engine.NewState(sc)
	var act string
	for _, l := range engine.Legal(sc, st) {
		if strings.HasPrefix(l, "ACTIVATE ") && !strings.Contains(l, "<") {
			act = l
			break
		}
	}
	r, err := engine.Apply(sc, st, st.Pending.Side, parseB(b, act), engine.NewScript())
	if err != nil {
		b.Fatalf("%s: %v", act, err)
	}
	st = r.State
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			rc := engine.NewReacher(sc, st)
			for _, u := range sc.Units {
				rc.Reach(u.ID)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			for _, u := range sc.Units {
				engine.ReachReference(sc, st, u.ID)
			}
		}
	})
}
