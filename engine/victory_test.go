package engine_test

import (
	"testing"

	"herald/engine"
)

// 16.0: at the end of each Free Activation each player rolls one die and
// adds his Flight Points; above his Flight Level he loses; both above: draw.
func TestLossChecks(t *testing.T) {
	for _, tc := range []struct {
		name       string
		dice       []int // Red rolls first (R44), then Blue
		wantOver   bool
		wantDraw   bool
		wantWinner engine.Side
	}{
		{"both hold", []int{8, 8}, false, false, 0}, // 12+8 = 20, not above 20
		{"Red flees", []int{9, 0}, true, false, blue},
		{"Blue flees", []int{0, 9}, true, false, red},
		{"draw", []int{9, 9}, true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := twoByTwo()
			sc.Sides[0].FlightPoints, sc.Sides[1].FlightPoints = 12, 12
			g := newGame(t, sc, tc.dice...)
			res := g.send(red, "ACTIVATE Anna\nEND")
			if over := g.st.Outcome != nil; over != tc.wantOver {
				t.Fatalf("events %v: over = %v, want %v", narrative(sc, res.Events), over, tc.wantOver)
			}
			if tc.wantOver {
				if g.st.Outcome.Draw != tc.wantDraw || (!tc.wantDraw && g.st.Outcome.Winner != tc.wantWinner) {
					t.Errorf("outcome %+v, want draw %v winner %v", g.st.Outcome, tc.wantDraw, tc.wantWinner)
				}
				if g.st.Phase != engine.PhaseOver || len(engine.Legal(sc, g.st)) != 0 {
					t.Errorf("phase %v, legal %v: want the game over with nothing legal", g.st.Phase, engine.Legal(sc, g.st))
				}
				g.refuse(red, "CONTINUE Bert", "16.0")
				g.refuse(blue, "ACTIVATE Carl", "16.0")
			}
		})
	}
}

// 16.0: no Loss Check after an Activation that was not Free.
func TestNoLossCheckAfterContinuation(t *testing.T) {
	sc := twoByTwo()
	sc.Sides[0].FlightPoints, sc.Sides[1].FlightPoints = 15, 15
	g := newGame(t, sc, 0, 0, 0)
	g.send(blue, "STANDING SEIZE NEVER")
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
	res := g.send(red, "END")
	if _, ok := findEvent[engine.LossCheckRolled](res.Events); ok {
		t.Errorf("events %v: no Loss Check after a Continuation", narrative(sc, res.Events))
	}
}

// R38: no die is rolled for a Loss Check that cannot fail.
func TestLossCheckSkippedWhenItCannotFail(t *testing.T) {
	sc := twoByTwo() // 0 FP, Flight Level 20
	g := newGame(t, sc)
	res := g.send(red, "ACTIVATE Anna\nEND")
	lc, ok := findEvent[engine.LossCheckRolled](res.Events)
	if !ok || lc.Roll != nil || res.Rolled {
		t.Errorf("events %v: want Loss Checks without a roll", narrative(sc, res.Events))
	}
}

// R17: Flight Points follow each unit's present status: Eliminated counts the
// type's value, Retired counts 1, a rallied unit nothing.
func TestFlightPointsFollowStatus(t *testing.T) {
	sc := twoByTwo()
	st := engine.NewState(sc)
	st.Unit("AN1").Status = engine.Eliminated // INF: 2
	st.Unit("AN2").Status = engine.Retired    // 1
	st.Unit("BE2").Status = engine.Eliminated // MAA: 3
	if got := engine.FlightPoints(sc, st, red); got != 6 {
		t.Errorf("FlightPoints = %d, want 6", got)
	}
	st.Unit("AN2").Status = engine.Eliminated // now 3, not 1 + 3
	if got := engine.FlightPoints(sc, st, red); got != 8 {
		t.Errorf("FlightPoints after the Retired MAA is eliminated = %d, want 8", got)
	}
	if got := engine.FlightPoints(sc, st, blue); got != 0 {
		t.Errorf("FlightPoints(Blue) = %d, want 0", got)
	}
}
