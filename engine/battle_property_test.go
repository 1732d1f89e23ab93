package engine_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// Whole battles of random legal orders and random dice, from the battle
// files: each side is dealt a random hand of Seizure counters, every
// block is one order picked from what engine.Legal offers (its blanks
// filled at random: a hex the unit can reach, a counter the side holds),
// and after every block the battle's invariants must hold (battleChecks).
// A refused order must change nothing; most orders must apply.

// battleChecks are the invariants checked after every applied block.
type battleChecks func(t *testing.T, where string, sc *engine.Scenario, st *engine.State, events []engine.Event)

// playRandomBattles plays games of the battle file name, seeds 1..games,
// up to steps blocks each, and returns how many blocks were applied.
func playRandomBattles(t *testing.T, name string, games, steps int, check battleChecks) (applied int) {
	t.Helper()
	sc, err := data.Scenario(name)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	var stats gameStats
	for seed := uint64(1); seed <= uint64(games); seed++ {
		r := rand.New(rand.NewPCG(seed, 21))
		st, events := dealRandomHands(t, r, sc)
		for step := 0; step < steps && st.Outcome == nil; step++ {
			legal := engine.Legal(sc, st)
			if len(legal) == 0 {
				t.Fatalf("%s seed %d step %d: dead end: %s", name, seed, step, engine.Waiting(sc, st))
			}
			text, ok := fillForm(r, sc, st, legal[r.IntN(len(legal))])
			if !ok {
				continue
			}
			where := name + " seed " + strconv.Itoa(int(seed)) + " step " + strconv.Itoa(step) + " (" + text + ")"
			orders, err := engine.ParseOrders(engine.SplitLines(text))
			if err != nil {
				t.Fatalf("%s: ParseOrders: %v", where, err)
			}
			before := st.Encode()
			res, err := engine.Apply(sc, st, st.Pending.Side, orders, randomDice{r})
			var ill *engine.IllegalOrderError
			switch {
			case errors.As(err, &ill):
				refused++
				if os.Getenv("SHOWREFUSED") != "" {
					t.Logf("%s: %v", where, err)
				}
				if !bytes.Equal(st.Encode(), before) {
					t.Fatalf("%s: a refused order changed the state", where)
				}
				continue
			case err != nil:
				t.Fatalf("%s: %v", where, err)
			}
			st = res.State
			events = append(events, res.Events...)
			applied++
			check(t, where, sc, st, events)
		}
		stats.count(st, events)
		if got := engine.Replay(sc, events).Encode(); !bytes.Equal(got, st.Encode()) {
			t.Fatalf("%s seed %d: replay differs:\nreplayed %s\nplayed   %s", name, seed, got, st.Encode())
		}
		if got := engine.Replay(sc, roundTrip(t, events)).Encode(); !bytes.Equal(got, st.Encode()) {
			t.Fatalf("%s seed %d: replay after JSON differs", name, seed)
		}
	}
	t.Logf("%s: %d blocks applied, %d refused, %d attacks, %d fire, %d games ended", name, applied, refused, stats.attacks, stats.fire, stats.ended)
	if refused > applied/4 {
		t.Errorf("%s: %d orders refused against %d applied: the generator picks too many forms that are not legal", name, refused, applied)
	}
	return applied
}

// gameStats count what random games came to, so that a generator that
// stops reaching combat shows.
type gameStats struct{ attacks, fire, ended int }

func (s *gameStats) count(st *engine.State, events []engine.Event) {
	for _, e := range events {
		switch e.(type) {
		case engine.AttackResolved:
			s.attacks++
		case engine.UnitFired:
			s.fire++
		}
	}
	if st.Outcome != nil {
		s.ended++
	}
}

// dealRandomHands deals each side the battle's number of Seizure
// counters, drawn at random from the pool, as pbem/games does with a
// hidden draw.
func dealRandomHands(t *testing.T, r *rand.Rand, sc *engine.Scenario) (*engine.State, []engine.Event) {
	t.Helper()
	st := engine.NewState(sc)
	var events []engine.Event
	for s := engine.Side(0); s < 2; s++ {
		n := sc.Sides[s].SeizureCounters
		if n == 0 {
			continue
		}
		pool := append([]engine.SeizureCounter(nil), sc.Tables.SeizurePool...)
		r.Shuffle(len(pool), func(a, b int) { pool[a], pool[b] = pool[b], pool[a] })
		next, e, err := engine.DealSeizureCounters(sc, st, s, pool[:n], "salt-"+strconv.Itoa(int(s)))
		if err != nil {
			t.Fatal(err)
		}
		st, events = next, append(events, e)
	}
	return st, events
}

// fillForm turns a legal form into an order: MOVE and FACE by concrete,
// a <counter> by one of the kind the order takes that the side still
// holds. Forms with other blanks are
// skipped (ok false).
func fillForm(r *rand.Rand, sc *engine.Scenario, st *engine.State, form string) (string, bool) {
	if strings.Contains(form, "<counter>") {
		// Seizure is asked of a side holding any counter, since which it
		// holds is secret (B&R 6.3): SEIZE takes an Opportunity, NEGATE
		// a Negation.
		want := engine.CounterOpportunity
		if strings.HasPrefix(form, "NEGATE") {
			want = engine.CounterNegation
		}
		var ids []string
		for _, c := range st.Counters.Hands[st.Pending.Side].Counters {
			if !c.Played && c.Type == want {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) == 0 {
			return "", false
		}
		form = strings.Replace(form, "<counter>", ids[r.IntN(len(ids))], 1)
	}
	f := strings.Fields(form)
	if f[0] == "MOVE" && r.IntN(3) > 0 {
		if order, ok := closeIn(sc, st, f[1]); ok {
			return order, true
		}
	}
	if f[0] == "MOVE" || f[0] == "FACE" {
		return concrete(r, sc, st, form), true
	}
	if strings.Contains(form, "<") {
		return "", false
	}
	return form, true
}

// closeIn moves unit id to the hex it can reach nearest an enemy unit,
// facing that enemy, so that random games come to blows.
func closeIn(sc *engine.Scenario, st *engine.State, id string) (string, bool) {
	u := st.Unit(id)
	if u == nil {
		return "", false
	}
	side := st.Pending.Side
	best, bestD, foe := -1, 1<<30, hex.Hex{}
	reach := engine.Reach(sc, st, id)
	for k, x := range reach {
		for j, e := range st.Units {
			if sc.Units[j].Side == side || e.OffMap || e.Status == engine.Eliminated {
				continue
			}
			if d := sc.Map.Grid.Distance(x.Hex, e.Hex); d < bestD {
				best, bestD, foe = k, d, e.Hex
			}
		}
	}
	if best < 0 {
		return "", false
	}
	var path []string
	for _, h := range reach[best].Path {
		path = append(path, h.String())
	}
	return "MOVE " + id + " " + strings.Join(path, " ") + " FACE " + sc.Map.Grid.FacingToward(reach[best].Hex, foe).String(), true
}

// checkOneUnitAHex: no two combat units share a hex (Men of Iron 8.0,
// Blood & Roses 10.0).
func checkOneUnitAHex(t *testing.T, where string, sc *engine.Scenario, st *engine.State) {
	t.Helper()
	seen := map[hex.Hex]string{}
	for _, u := range st.Units {
		if u.OffMap || u.Status == engine.Eliminated {
			continue
		}
		if other, ok := seen[u.Hex]; ok {
			t.Fatalf("%s: %s and %s share %s", where, other, u.ID, u.Hex)
		}
		seen[u.Hex] = u.ID
	}
}

// Every battle Herald ships, ten random games of up to 300 blocks each.
func TestRandomBattles(t *testing.T) {
	for _, name := range data.Scenarios() {
		t.Run(name, func(t *testing.T) {
			n := playRandomBattles(t, name, 10, 300, func(t *testing.T, where string, sc *engine.Scenario, st *engine.State, _ []engine.Event) {
				if len(sc.Tables.Rules.Stacking) > 0 {
					checkStacks(t, where, sc, st, &arquebusSeen{}) // Arquebus 10.0
				} else {
					checkOneUnitAHex(t, where, sc, st)
				}
			})
			if n == 0 {
				t.Errorf("%s: no block applied", name)
			}
		})
	}
}
