package engine_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// randomDice rolls from a seeded generator, so a failing game can be rerun.
type randomDice struct{ r *rand.Rand }

func (d randomDice) Roll(string) (int, error) { return d.r.IntN(10), nil }

// State is the fold of the events over the scenario: over many random games
// of random legal orders and random dice, replaying the events (also after a
// JSON round trip) gives a state identical byte for byte, and the game never
// reaches a dead end (a pending decision with nothing legal).
func TestReplayReproducesState(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		sc := fixture(map[string]int{"Anna": 3, "Bert": 2, "Emil": 4}, map[string]int{"Carl": 3, "Dora": 2})
		sc.Sides[0].FlightPoints, sc.Sides[1].FlightPoints = 13, 14
		st := engine.NewState(sc)
		var events []engine.Event
		for step := 0; step < 60 && st.Outcome == nil; step++ {
			side := st.Pending.Side
			text := randomBlock(r, sc, st)
			orders, err := engine.ParseOrders(engine.SplitLines(text))
			if err != nil {
				t.Fatalf("seed %d: ParseOrders(%q): %v", seed, text, err)
			}
			res, err := engine.Apply(sc, st, side, orders, randomDice{r})
			if err != nil {
				t.Fatalf("seed %d step %d: %s sends %q: %v", seed, step, sc.SideName(side), text, err)
			}
			st = res.State
			events = append(events, res.Events...)
			if st.Outcome == nil && len(engine.Legal(sc, st)) == 0 {
				t.Fatalf("seed %d: dead end: %s", seed, engine.Waiting(sc, st))
			}
		}
		if got := engine.Replay(sc, events).Encode(); !bytes.Equal(got, st.Encode()) {
			t.Fatalf("seed %d: replay differs:\nreplayed %s\nplayed   %s", seed, got, st.Encode())
		}
		if got := engine.Replay(sc, roundTrip(t, events)).Encode(); !bytes.Equal(got, st.Encode()) {
			t.Fatalf("seed %d: replay after JSON differs", seed)
		}
	}
}

// randomBlock picks one to three legal orders, sometimes with a standing
// order in front.
func randomBlock(r *rand.Rand, sc *engine.Scenario, st *engine.State) string {
	text := ""
	if r.IntN(5) == 0 {
		opts := []string{"STANDING SEIZE NEVER", "STANDING SEIZE ASK", "STANDING SEIZE Carl", "STANDING SEIZE Dora IF Anna, Bert", "STANDING SEIZE Anna", "STANDING SEIZE Emil IF Dora"}
		if st.Pending.Side == red {
			opts = opts[4:]
		} else {
			opts = opts[:4]
		}
		text += opts[r.IntN(len(opts))] + "\n"
	}
	legal := engine.Legal(sc, st)
	return text + concrete(r, sc, st, legal[r.IntN(len(legal))]) + "\n"
}

// concrete fills the blanks of a legal form: a MOVE to a random hex the
// unit can reach, by the path Reach found, a FACE one vertex round.
func concrete(r *rand.Rand, sc *engine.Scenario, st *engine.State, form string) string {
	f := strings.Fields(form)
	switch {
	case f[0] == "MOVE":
		reach := engine.Reach(sc, st, f[1])
		u := st.Unit(f[1])
		switch {
		case len(reach) == 0 && u == nil:
			return "END" // a leader hemmed in
		case len(reach) == 0:
			return "FACE " + f[1] + " " + u.Facing.Turn(1).String()
		}
		x := reach[r.IntN(len(reach))]
		var path []string
		for _, h := range x.Path {
			path = append(path, h.String())
		}
		if u == nil {
			return "MOVE " + f[1] + " " + strings.Join(path, " ")
		}
		with := ""
		for k, l := range st.Leaders {
			if sc.Leaders[k].Side == st.Pending.Side && !l.OffMap && !l.Moved && l.Hex == u.Hex && !u.OffMap && r.IntN(2) == 0 {
				with = " WITH " + l.ID
			}
		}
		return "MOVE " + f[1] + with + " " + strings.Join(path, " ") + " FACE " + hex.Facing(r.IntN(6)).String()
	case f[0] == "FACE":
		return "FACE " + f[1] + " " + st.Unit(f[1]).Facing.Turn(2*r.IntN(2)-1).String()
	}
	return form
}

func roundTrip(t *testing.T, evs []engine.Event) []engine.Event {
	t.Helper()
	var out []engine.Event
	for _, e := range evs {
		b, err := engine.MarshalEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		back, err := engine.UnmarshalEvent(b)
		if err != nil {
			t.Fatalf("UnmarshalEvent(%s): %v", b, err)
		}
		out = append(out, back)
	}
	return out
}

// The same scenario, orders and dice give the same events, byte for byte.
func TestDeterministic(t *testing.T) {
	run := func() []byte {
		g := newGame(t, twoByTwo(), 3, 1, 4, 1, 5)
		g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
		g.send(blue, "SEIZE Dora")
		var buf bytes.Buffer
		for _, e := range g.events {
			b, _ := engine.MarshalEvent(e)
			buf.Write(b)
			buf.WriteByte('\n')
		}
		return buf.Bytes()
	}
	if a, b := run(), run(); !bytes.Equal(a, b) {
		t.Errorf("two runs differ:\n%s\n%s", a, b)
	}
}
