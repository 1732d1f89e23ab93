package engine_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Issue 21's property test: random legal Activations of the Arquebus
// battles (playRandomBattles: random legal orders, random dice, random
// hands of Seizure counters), and after every block no illegal stack
// exists (10.0, 10.1), ENGAGED markers bind only adjacent enemies, none
// Retired (14.5), and each side's Flight Points are the sum
// 3.0 gives for what it lost; replay reproduces the state (checked by
// playRandomBattles at each game's end).
func TestArquebusRandomBattles(t *testing.T) {
	for _, name := range []string{"fornovo", "pavia"} {
		t.Run(name, func(t *testing.T) {
			var seen arquebusSeen
			n := playRandomBattles(t, name, 40, 400, func(t *testing.T, where string, sc *engine.Scenario, st *engine.State, events []engine.Event) {
				if os.Getenv("STORY") != "" && strings.Contains(where, os.Getenv("STORY")) {
					for _, e := range events[max(0, len(events)-40):] {
						t.Log(engine.Describe(sc, e))
					}
				}
				checkStacks(t, where, sc, st, &seen)
				checkEngaged(t, where, sc, st, &seen)
				checkArquebusFlightPoints(t, where, sc, st, events)
			})
			t.Logf("%s: %d blocks; %d states with a stack, %d with ENGAGED markers", name, n, seen.stacks, seen.engaged)
			if seen.stacks == 0 || seen.engaged == 0 {
				t.Errorf("%s: the random games never stacked (%d) or never Engaged (%d): the test checks too little", name, seen.stacks, seen.engaged)
			}
		})
	}
}

// arquebusSeen counts the states that had something to check.
type arquebusSeen struct{ stacks, engaged int }

// checkStacks: at most two units a hex, of one side, facing alike, a pair
// the tables' rules.stacking allows (limbered Artillery where an entry
// asks for it unlimbered never).
func checkStacks(t *testing.T, where string, sc *engine.Scenario, st *engine.State, seen *arquebusSeen) {
	t.Helper()
	in := map[hex.Hex][]int{}
	for i, u := range st.Units {
		if !u.OffMap && u.Status != engine.Eliminated {
			in[u.Hex] = append(in[u.Hex], i)
		}
	}
	stacked := false
	for h, us := range in {
		if len(us) == 1 {
			continue
		}
		stacked = true
		if len(us) > 2 {
			t.Fatalf("%s: %d units in %s", where, len(us), h)
		}
		a, b := us[0], us[1]
		switch {
		case sc.Units[a].Side != sc.Units[b].Side:
			t.Fatalf("%s: enemies %s and %s share %s", where, sc.Units[a].ID, sc.Units[b].ID, h)
		case st.Units[a].Facing != st.Units[b].Facing:
			t.Fatalf("%s: %s and %s stacked in %s face apart", where, sc.Units[a].ID, sc.Units[b].ID, h)
		case !stackAllowed(sc, st, a, b) && !stackAllowed(sc, st, b, a):
			t.Fatalf("%s: %s (%s) and %s (%s) may not stack (%s)", where, sc.Units[a].ID, typeOf(sc, st, a), sc.Units[b].ID, typeOf(sc, st, b), h)
		}
	}
	if stacked {
		seen.stacks++
	}
}

func typeOf(sc *engine.Scenario, st *engine.State, i int) string {
	if t := st.Units[i].Type; t != "" {
		return t
	}
	return sc.Units[i].Type
}

// stackAllowed: an entry of rules.stacking lets a stack with b.
func stackAllowed(sc *engine.Scenario, st *engine.State, a, b int) bool {
	ta, tb := typeOf(sc, st, a), typeOf(sc, st, b)
	for _, r := range sc.Tables.Rules.Stacking {
		if !slices.Contains(r.Units, ta) || !slices.Contains(r.With, tb) && !slices.Contains(r.With, engine.StackAny) {
			continue
		}
		if r.Unlimbered && (st.Units[a].Limbered || st.Units[b].Limbered) {
			continue
		}
		return true
	}
	return false
}

// checkEngaged: a unit is Engaged only with enemy units next to it, on the
// field, not Retired. (Not always both ways: the receiver of a Continued
// Attack loses its markers, its enemies keep theirs, ruling R381.)
func checkEngaged(t *testing.T, where string, sc *engine.Scenario, st *engine.State, seen *arquebusSeen) {
	t.Helper()
	any := false
	for i, u := range st.Units {
		for _, id := range u.EngagedWith {
			any = true
			j := slices.IndexFunc(sc.Units, func(s engine.UnitSpec) bool { return s.ID == id })
			if j < 0 {
				t.Fatalf("%s: %s Engaged with unknown %q", where, sc.Units[i].ID, id)
			}
			e := st.Units[j]
			switch {
			case sc.Units[j].Side == sc.Units[i].Side:
				t.Fatalf("%s: %s Engaged with its friend %s", where, sc.Units[i].ID, id)
			case u.OffMap || e.OffMap || u.Status == engine.Eliminated || e.Status == engine.Eliminated:
				t.Fatalf("%s: %s Engaged with %s, one of them off the field", where, sc.Units[i].ID, id)
			case u.Status == engine.Retired || e.Status == engine.Retired:
				t.Fatalf("%s: %s Engaged with %s, one of them Retired (14.5)", where, sc.Units[i].ID, id)
			case sc.Map.Grid.Distance(u.Hex, e.Hex) != 1:
				t.Fatalf("%s: %s in %s Engaged with %s in %s, not adjacent", where, sc.Units[i].ID, u.Hex, id, e.Hex)
			}
		}
	}
	if any {
		seen.engaged++
	}
}

// checkArquebusFlightPoints recounts each side's Flight Points from the
// events (3.0): every unit eliminated at its type's value, 1 for each
// unit Retired now, a Swiss unit gone home nothing (16.2), and for each
// named leader lost once the King's 10, the Overall Commander's 5 or a
// leader's 2 (R427).
func checkArquebusFlightPoints(t *testing.T, where string, sc *engine.Scenario, st *engine.State, events []engine.Event) {
	t.Helper()
	fp := [2]int{sc.Sides[0].FlightPoints, sc.Sides[1].FlightPoints}
	lost := map[string]bool{}
	eliminated := map[string]bool{}
	for _, e := range events {
		switch e := e.(type) {
		case engine.UnitEliminated:
			eliminated[e.Unit] = true
		case engine.LeaderCasualtyRolled:
			if e.Killed {
				lost[e.Leader] = true
			}
		case engine.LeaderLost:
			lost[e.Leader] = true
		}
	}
	fpt := sc.Tables.FlightPoints
	for i, u := range sc.Units {
		switch st.Units[i].Status {
		case engine.Eliminated:
			if !eliminated[u.ID] {
				t.Fatalf("%s: %s Eliminated without an event", where, u.ID)
			}
			fp[u.Side] += sc.Tables.UnitTypes[typeOf(sc, st, i)].FlightPoints
		case engine.Retired:
			if onField := !st.Units[i].OffMap; onField {
				fp[u.Side] += fpt.Retired
			}
		}
	}
	for _, l := range sc.Leaders {
		if !lost[l.ID] {
			continue
		}
		switch {
		case l.King:
			fp[l.Side] += fpt.King
		case l.OC:
			fp[l.Side] += fpt.OverallCommander
		default:
			fp[l.Side] += fpt.Leader
		}
	}
	for s := engine.Side(0); s < 2; s++ {
		if got := engine.FlightPoints(sc, st, s); got != fp[s] {
			t.Fatalf("%s: %s Flight Points %d, the units and leaders lost make %d", where, sc.SideName(s), got, fp[s])
		}
	}
}
