package engine_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// TestShockPhaseProperties plays random legal Shock Phases with random
// dice on random little battles (Men of Iron's house tables, random
// types, facings, Disorder, terrain and standing orders) and checks after
// each, answering every decision the phase stops for at random: no two
// combat units share a hex, no Eliminated unit acts or is
// acted on after its elimination, every Flight Point is accounted for by
// the units lost and retired and the leaders lost (16.0), and replaying
// the events reproduces the state.
func TestShockPhaseProperties(t *testing.T) {
	tb, err := data.Tables("moi")
	if err != nil {
		t.Fatal(err)
	}
	types := []string{"LB", "CB", "PK", "AX", "MMAA", "MMAA", "DMAA", "GEN"}
	played, rounds, paused := 0, 0, 0
	for seed := uint64(1); seed <= 1000; seed++ {
		r := rand.New(rand.NewPCG(seed, 10))
		sc, st := randomMelee(t, r, tb, types)
		var events []engine.Event
		apply := func(side engine.Side, text string) error {
			res, err := engine.Apply(sc, st, side, parse(t, text), randomDice{r})
			if err != nil {
				return err
			}
			st = res.State
			events = append(events, res.Events...)
			return nil
		}
		standing := []string{"STANDING COUNTER-CHARGE ALWAYS", "STANDING COUNTER-CHARGE NEVER", "STANDING COUNTER-CHARGE ASK",
			"STANDING RETREAT BEFORE SHOCK ALWAYS", "STANDING RETREAT BEFORE SHOCK ASK", "STANDING RETREAT ASK", "STANDING REACTION FIRE ASK"}
		for _, s := range standing {
			if r.IntN(3) == 0 {
				must(t, seed, apply(1, s))
			}
		}
		for _, s := range []string{"STANDING RETREAT ASK", "STANDING ADVANCE ALWAYS", "STANDING ADVANCE AFTER COMBAT ASK"} {
			if r.IntN(3) == 0 {
				must(t, seed, apply(0, s))
			}
		}
		must(t, seed, apply(0, "ACTIVATE Anna"))
		var lines []string
		for _, l := range engine.Legal(sc, st) {
			if strings.HasPrefix(l, "SHOCK ") || strings.HasPrefix(l, "CHARGE ") {
				lines = append(lines, l)
			}
		}
		r.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
		for _, l := range lines {
			if r.IntN(3) > 0 {
				_ = apply(0, l) // a declaration the others make illegal is refused and changes nothing
			}
		}
		var ill *engine.IllegalOrderError
		if err := apply(0, "END"); errors.As(err, &ill) {
			continue // declarations that do not hold together (10.1, 11.3): refused whole
		} else {
			must(t, seed, err)
		}
		// Every decision the Shock Phase stops for, of either side, is
		// answered with one of its legal answers.
		for k := 0; st.Shock != nil && st.Outcome == nil && k < 40; k++ {
			var legal []string
			for _, l := range engine.Legal(sc, st) {
				if !strings.Contains(l, "<") { // a form to fill in
					legal = append(legal, l)
				}
			}
			must(t, seed, apply(st.Pending.Side, legal[r.IntN(len(legal))]))
		}
		if st.Shock != nil {
			t.Fatalf("seed %d: the Shock Phase did not end: %s", seed, engine.Waiting(sc, st))
		}
		played++
		for _, e := range events {
			switch e.(type) {
			case engine.AttackResolved:
				rounds++
			case engine.ShockPaused, engine.ChargeStopped, engine.ResponsesAsked, engine.AdvanceAsked:
				paused++
			}
		}
		checkMelee(t, seed, sc, st, events)
	}
	if played < 500 || rounds < 600 || paused < 50 {
		t.Errorf("only %d Shock Phases played, %d attacks resolved, %d stops for a decision: the generator tests too little", played, rounds, paused)
	}
}

func must(t *testing.T, seed uint64, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
}

// randomMelee sets four units a side at random in the middle of the map.
func randomMelee(t *testing.T, r *rand.Rand, tb *engine.Tables, types []string) (*engine.Scenario, *engine.State) {
	sc := fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3, "Dora": 3})
	sc.Tables = tb
	sc.Map.Terrain, sc.Map.Elevation = map[hex.Hex]string{}, map[hex.Hex]int{}
	for k := 0; k < 4; k++ {
		at := hex.Hex{Col: 4 + r.IntN(4), Row: 4 + r.IntN(4)}
		sc.Map.Terrain[at] = []string{"woods", "rough", "village"}[r.IntN(3)]
		if r.IntN(2) == 0 {
			sc.Map.Elevation[at] = 1
		}
	}
	used := map[hex.Hex]bool{}
	for i := range sc.Units {
		u := &sc.Units[i]
		if u.Side == 0 {
			u.Command = "anna"
		}
		u.Type = types[r.IntN(len(types))]
		u.Ratings = tb.UnitTypes[u.Type].Ratings
		for {
			u.Hex = hex.Hex{Col: 4 + r.IntN(4), Row: 4 + r.IntN(4)}
			if !used[u.Hex] {
				used[u.Hex] = true
				break
			}
		}
		u.Facing = hex.Facing(r.IntN(6))
		if r.IntN(5) == 0 {
			u.Status = engine.Disordered
		}
	}
	for i := range sc.Leaders {
		sc.Leaders[i].Range = 20
		sc.Leaders[i].Hex = sc.Units[2*i].Hex // with the first unit of his Command
	}
	sc.Standards[0].Hex, sc.Standards[1].Hex = hex.Hex{Col: 1, Row: 5}, hex.Hex{Col: 10, Row: 5}
	return sc, engine.NewState(sc)
}

// checkMelee checks the invariants of a played Shock Phase.
func checkMelee(t *testing.T, seed uint64, sc *engine.Scenario, st *engine.State, events []engine.Event) {
	t.Helper()
	checkOneUnitAHex(t, "seed "+strconv.FormatUint(seed, 10), sc, st)
	gone := map[string]bool{}
	fp := [2]int{}
	side := map[string]engine.Side{}
	for _, u := range sc.Units {
		side[u.ID] = u.Side
	}
	for _, e := range events {
		for _, id := range actors(e) {
			if gone[id] {
				t.Fatalf("seed %d: %s acts or is acted on after its elimination: %s", seed, id, engine.Describe(sc, e))
			}
		}
		switch e := e.(type) {
		case engine.UnitEliminated:
			gone[e.Unit] = true
		case engine.LeaderCasualtyRolled:
			if e.Killed {
				fp[sc.Leader(e.Leader).Side] += sc.Tables.FlightPoints.Leader
			}
		case engine.LeaderLost:
			if e.Killed {
				fp[sc.Leader(e.Leader).Side] += sc.Tables.FlightPoints.Leader
			}
		}
	}
	for i, u := range sc.Units {
		switch st.Units[i].Status {
		case engine.Eliminated:
			if !gone[u.ID] {
				t.Fatalf("seed %d: %s Eliminated without an event", seed, u.ID)
			}
			fp[u.Side] += sc.Tables.UnitTypes[u.Type].FlightPoints // Unhorsed MAA count as the MAA they were
		case engine.Retired:
			fp[u.Side] += sc.Tables.FlightPoints.Retired
		}
	}
	for s := engine.Side(0); s < 2; s++ {
		if got := engine.FlightPoints(sc, st, s); got != fp[s] {
			t.Fatalf("seed %d: %s Flight Points %d, the units lost and retired make %d", seed, sc.SideName(s), got, fp[s])
		}
	}
	if got := engine.Replay(sc, events).Encode(); !bytes.Equal(got, st.Encode()) {
		t.Fatalf("seed %d: replay differs:\nreplayed %s\nplayed   %s", seed, got, st.Encode())
	}
	if got := engine.Replay(sc, roundTrip(t, events)).Encode(); !bytes.Equal(got, st.Encode()) {
		t.Fatalf("seed %d: replay after JSON differs", seed)
	}
}

// actors are the units an event has act or suffer something.
func actors(e engine.Event) []string {
	switch e := e.(type) {
	case engine.AttackResolved:
		return append([]string{e.Defender}, e.Attackers...)
	case engine.ChargeMade:
		return []string{e.Unit}
	case engine.UnitAdvanced:
		return []string{e.Unit}
	case engine.UnitRetreated:
		return []string{e.Unit}
	case engine.UnitDisordered:
		return []string{e.Unit}
	case engine.UnitRetired:
		return []string{e.Unit}
	case engine.UnitEliminated:
		return []string{e.Unit}
	case engine.UnitFired:
		return []string{e.Unit, e.Target}
	case engine.RetreatedBeforeShock:
		return []string{e.Unit}
	case engine.CounterChargeRolled:
		return append([]string{e.Unit}, e.Against...)
	}
	return nil
}
