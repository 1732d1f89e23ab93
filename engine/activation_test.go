package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
)

const red, blue = engine.Side(0), engine.Side(1)

func twoByTwo() *engine.Scenario {
	return fixture(map[string]int{"Anna": 3, "Bert": 2}, map[string]int{"Carl": 3, "Dora": 2})
}

// 2.4, 3.4: the first Activation of the game is a Free Activation of the
// side the battle names.
func TestFirstActivationIsFree(t *testing.T) {
	g := newGame(t, twoByTwo())
	if g.st.Pending != (engine.Decision{Kind: engine.DecideActivation, Side: red}) || g.st.Kind != engine.FreeActivation {
		t.Fatalf("opening: pending %+v kind %v, want Red to choose a Free Activation", g.st.Pending, g.st.Kind)
	}
	res := g.send(red, "ACTIVATE Anna")
	ev, ok := findEvent[engine.CommandActivated](res.Events)
	if !ok || ev.Kind != engine.FreeActivation || ev.Command != "anna" {
		t.Fatalf("events %v: want Anna activated as a Free Activation", narrative(g.sc, res.Events))
	}
	if res.Rolled {
		t.Errorf("a Free Activation needs no die roll")
	}
}

// 4.2: the selected Command may not be the Command that just completed
// Activation, unless the player has only one Command.
func TestContinueWithCommandThatJustWent(t *testing.T) {
	g := newGame(t, twoByTwo())
	g.send(red, "ACTIVATE Anna\nEND")
	ill := g.refuse(red, "CONTINUE Anna", "4.2")
	if !strings.Contains(ill.Reason, "just") || len(ill.Legal) != 2 || ill.Legal[0] != "CONTINUE Bert" || ill.Legal[1] != "PASS" {
		t.Errorf("refusal %v: want the reason and legal CONTINUE Bert | PASS", ill)
	}
}

// 4.2, R42: with only one Command left it may continue again.
func TestOnlyCommandMayContinue(t *testing.T) {
	g := newGame(t, fixture(map[string]int{"Anna": 9}, map[string]int{"Carl": 3}), 0)
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Anna")
	g.send(blue, "DECLINE")
	if g.st.Command != "anna" || g.st.Kind != engine.ContinuationActivation {
		t.Fatalf("after the roll: command %q kind %v, want Anna by Continuation", g.st.Command, g.st.Kind)
	}
}

// 4.3 PLAY NOTE, R39: you cannot Seize a Seizure; only the player whose
// opponent is about to roll may Seize.
func TestCannotSeizeASeizure(t *testing.T) {
	g := newGame(t, twoByTwo())
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
	ill := g.refuse(red, "SEIZE Anna", "4.3")
	if !strings.Contains(ill.Reason, "cannot Seize a Seizure") {
		t.Errorf("refusal %v: want it to say a Seizure cannot be seized", ill)
	}
}

// Infidel 6.3 PLAY NOTE, R39: nor can a Free Activation be seized.
func TestCannotSeizeFreeActivation(t *testing.T) {
	g := newGame(t, twoByTwo())
	ill := g.refuse(blue, "SEIZE Carl", "4.3")
	if !strings.Contains(ill.Reason, "Free Activation") {
		t.Errorf("refusal %v: want it to name the Free Activation", ill)
	}
}

// 13.2: Standards may be Activated only in a Free Activation; they may not
// be Activated by DR.
func TestStandardNotByContinuity(t *testing.T) {
	g := newGame(t, twoByTwo())
	g.send(red, "ACTIVATE Anna\nEND")
	g.refuse(red, "CONTINUE STANDARD Red", "13.2")
	g.refuse(red, "CONTINUE red-std", "13.2")
	g.refuse(red, "ACTIVATE STANDARD Red", "13.2")
}

// Any order from the player who has no decision pending is refused.
func TestOrderFromPlayerWithoutDecision(t *testing.T) {
	g := newGame(t, twoByTwo())
	ill := g.refuse(blue, "ACTIVATE Carl", "4.1")
	if !strings.Contains(ill.Reason, "Blue have no decision pending") || !strings.Contains(ill.Reason, "Red") {
		t.Errorf("refusal %v: want it to say Blue has no decision and the game waits for Red", ill)
	}
	g.send(red, "ACTIVATE Anna")
	g.refuse(blue, "END", "4.1")
	g.refuse(blue, "PASS", "4.1")
}

// 4.1: Pass is treated as a failed Continuity DR: the opponent gets a Free
// Activation; R3: after a Pass in a Free Activation both make Loss Checks.
func TestPassFreeActivationMakesLossChecks(t *testing.T) {
	sc := twoByTwo()
	sc.Sides[0].FlightPoints, sc.Sides[1].FlightPoints = 12, 12 // 12 + 9 > 20: the checks must be rolled
	g := newGame(t, sc, 1, 2)
	res := g.send(red, "PASS")
	var checks int
	for _, e := range res.Events {
		if lc, ok := e.(engine.LossCheckRolled); ok && lc.Roll != nil {
			checks++
		}
	}
	if checks != 2 {
		t.Errorf("events %v: want two rolled Loss Checks", narrative(sc, res.Events))
	}
	if g.st.Pending != (engine.Decision{Kind: engine.DecideActivation, Side: blue}) {
		t.Errorf("pending %+v, want Blue's Free Activation", g.st.Pending)
	}
}

// 4.2: after a first successful Continuation DR the player adds one for each
// new attempt, cumulatively (Infidel 6.1 example: +1, then +2, R5); a failure
// resets it.
func TestInfidel61CumulativePenalty(t *testing.T) {
	sc := fixture(map[string]int{"Anna": 5, "Bert": 5}, map[string]int{"Carl": 3})
	g := newGame(t, sc, 0, 0, 4)
	g.send(blue, "STANDING SEIZE NEVER")
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert") // DR 0, no DRM: success
	g.send(red, "END\nCONTINUE Anna")                // DR 0 +1: success
	res := g.send(red, "END\nCONTINUE Bert")         // DR 4 +2 = 6 > 5: fails
	var drms []int
	for _, e := range g.events {
		if c, ok := e.(engine.ContinuityRolled); ok {
			drm := 0
			for _, m := range c.Roll.Mods {
				drm += m.DRM
			}
			drms = append(drms, drm)
		}
	}
	if len(drms) != 3 || drms[0] != 0 || drms[1] != 1 || drms[2] != 2 {
		t.Fatalf("Continuation DRMs %v, want [0 1 2]", drms)
	}
	if c, _ := findEvent[engine.ContinuityRolled](res.Events); c.Success || c.Roll.Total != 6 {
		t.Errorf("third roll %+v: want 4+2 = 6, failed against AR 5", c)
	}
	if g.st.Continuations[red] != 0 || g.st.Pending.Side != blue {
		t.Errorf("after the failure: penalty %d, pending %+v; want 0 and Blue's Free Activation", g.st.Continuations[red], g.st.Pending)
	}
}

// 4.2: the penalty resets when the opponent attempts to Seize, successfully
// or not; R4: a Seizure success does not add to the seizing player's count.
func TestSeizureDoesNotCountForPenalty(t *testing.T) {
	sc := fixture(map[string]int{"Anna": 5, "Bert": 5}, map[string]int{"Carl": 5, "Dora": 5})
	g := newGame(t, sc, 0, 9, 0)
	g.send(blue, "STANDING SEIZE NEVER")
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert") // 0: success, penalty 1
	if g.st.Continuations[red] != 1 {
		t.Fatalf("penalty %d after one success, want 1", g.st.Continuations[red])
	}
	g.send(blue, "STANDING SEIZE Carl")
	g.send(red, "END\nCONTINUE Anna") // Blue seizes: 9 fails, Red gets a Free Activation
	if g.st.Continuations[red] != 0 {
		t.Errorf("penalty %d after a Seizure attempt, want 0", g.st.Continuations[red])
	}
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert") // Blue seizes again: 0 succeeds
	if g.st.Command != "carl" || g.st.Kind != engine.SeizureActivation || g.st.Continuations[blue] != 0 {
		t.Errorf("command %q kind %v blue penalty %d; want Carl by Seizure, penalty 0", g.st.Command, g.st.Kind, g.st.Continuations[blue])
	}
}

// R43: no Seizure decision when the opponent has no Command left.
func TestNoSeizureWithoutCommands(t *testing.T) {
	sc := fixture(map[string]int{"Anna": 5, "Bert": 5}, map[string]int{"Carl": 5})
	for _, u := range sc.Units {
		if u.Side == blue {
			sc.Units[indexOf(sc, u.ID)].Status = engine.Eliminated
		}
	}
	g := newGame(t, sc, 0)
	res := g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
	if _, ok := findEvent[engine.ContinuityRolled](res.Events); !ok || g.st.Command != "bert" {
		t.Errorf("events %v: want the Continuation DR at once", narrative(sc, res.Events))
	}
}

func indexOf(sc *engine.Scenario, id string) int {
	for i, u := range sc.Units {
		if u.ID == id {
			return i
		}
	}
	return -1
}

// Standing orders: a rule with IF fires only for the named Commands; NEVER
// lets the roll go ahead; none matching makes the game wait.
func TestStandingSeizeConditions(t *testing.T) {
	sc := fixture(map[string]int{"Anna": 5, "Bert": 5, "Emil": 5}, map[string]int{"Carl": 5})
	g := newGame(t, sc, 9, 0)
	g.send(blue, "STANDING SEIZE Carl IF Bert\nSTANDING SEIZE NEVER")
	res := g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert") // Carl tries: 9 fails
	if s, ok := findEvent[engine.SeizureRolled](res.Events); !ok || s.Standing != "STANDING SEIZE Carl IF Bert" {
		t.Fatalf("events %v: want the conditional Seizure", narrative(sc, res.Events))
	}
	res = g.send(red, "ACTIVATE Bert\nEND\nCONTINUE Emil") // NEVER: roll 0 goes ahead
	if d, ok := findEvent[engine.SeizureDeclined](res.Events); !ok || d.Standing != "STANDING SEIZE NEVER" {
		t.Fatalf("events %v: want the standing NEVER", narrative(sc, res.Events))
	}
	g.send(blue, "STANDING SEIZE ASK")
	g.send(red, "END\nCONTINUE Anna")
	if g.st.Pending != (engine.Decision{Kind: engine.DecideSeizure, Side: blue}) {
		t.Errorf("pending %+v after ASK, want Blue asked about the Seizure", g.st.Pending)
	}
}

// A block of standing orders only does not advance the move number.
func TestStandingOrdersKeepMoveNumber(t *testing.T) {
	g := newGame(t, twoByTwo())
	g.send(blue, "STANDING SEIZE NEVER")
	if g.st.Move != 0 {
		t.Errorf("move %d after standing orders only, want 0", g.st.Move)
	}
	g.send(red, "ACTIVATE Anna")
	if g.st.Move != 1 {
		t.Errorf("move %d after a block, want 1", g.st.Move)
	}
}

// docs/orders.md: once a die is rolled its result stands; orders after the
// sender lost the move are not applied, with the reason.
func TestOrdersAfterLosingTheMoveAreNotApplied(t *testing.T) {
	g := newGame(t, twoByTwo(), 9)
	g.send(blue, "STANDING SEIZE NEVER")
	res := g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert\nEND")
	if len(res.NotApplied) != 1 || res.NotApplied[0].String() != "END" || !strings.Contains(res.Stopped, "no longer have the move") {
		t.Fatalf("not applied %v (%s): want the last END, because Red lost the move", res.NotApplied, res.Stopped)
	}
}

// docs/orders.md: an illegal order after a roll stops the block there and
// keeps what came before.
func TestIllegalOrderAfterRollStopsBlock(t *testing.T) {
	g := newGame(t, twoByTwo(), 0)
	g.send(blue, "STANDING SEIZE NEVER")
	res := g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert\nCONTINUE Anna\nEND")
	if res.Refused == nil || res.Refused.Line != 4 || len(res.NotApplied) != 2 {
		t.Fatalf("refused %v, not applied %v: want line 4 refused and two orders not applied", res.Refused, res.NotApplied)
	}
	if g.st.Command != "bert" {
		t.Errorf("command %q: the successful Continuation must stand", g.st.Command)
	}
}

// Apply never modifies the state it is given.
func TestApplyLeavesInputUntouched(t *testing.T) {
	g := newGame(t, twoByTwo(), 5, 5)
	before := g.st.Encode()
	if _, err := engine.Apply(g.sc, g.st, red, parse(t, "ACTIVATE Anna\nEND\nCONTINUE Bert"), g.dice); err != nil {
		t.Fatal(err)
	}
	if string(before) != string(g.st.Encode()) {
		t.Errorf("Apply changed its input state")
	}
}

// 13.1: a Disordered unit of the activated Command that did nothing and is
// not adjacent to an enemy rallies in Phase D.
func TestRallyPhase(t *testing.T) {
	sc := twoByTwo()
	sc.Units[0].Status = engine.Disordered // Anna's first unit
	g := newGame(t, sc)
	res := g.send(red, "ACTIVATE Anna\nEND")
	if r, ok := findEvent[engine.UnitRallied](res.Events); !ok || r.Unit != sc.Units[0].ID || r.To != engine.Normal {
		t.Fatalf("events %v: want %s rallied", narrative(sc, res.Events), sc.Units[0].ID)
	}
}

// 13.1: not when an enemy unit is adjacent.
func TestNoRallyNextToEnemy(t *testing.T) {
	sc := twoByTwo()
	sc.Units[0].Status = engine.Disordered
	enemy := indexOf(sc, "CA1")
	sc.Units[enemy].Hex = sc.Map.Grid.Neighbors(sc.Units[0].Hex)[0]
	g := newGame(t, sc)
	res := g.send(red, "ACTIVATE Anna\nEND")
	if _, ok := findEvent[engine.UnitRallied](res.Events); ok {
		t.Fatalf("events %v: no rally next to an enemy", narrative(sc, res.Events))
	}
}

// 13.1, 13.2: an activated Standard rallies Retired units within one hex;
// R40: then any Command may be chosen for Continuity.
func TestContinueAfterStandard(t *testing.T) {
	sc := twoByTwo()
	sc.Units[0].Status = engine.Retired
	sc.Units[0].Hex = sc.Standards[0].Hex
	g := newGame(t, sc)
	res := g.send(red, "ACTIVATE STANDARD Red")
	if r, ok := findEvent[engine.UnitRallied](res.Events); !ok || r.To != engine.Disordered {
		t.Fatalf("events %v: want the Retired unit rallied to Disordered", narrative(sc, res.Events))
	}
	if g.st.Pending != (engine.Decision{Kind: engine.DecideContinuation, Side: red}) {
		t.Fatalf("pending %+v: want Red to choose Continuation", g.st.Pending)
	}
	want := []string{"CONTINUE Anna", "CONTINUE Bert", "PASS"}
	if got := engine.Legal(sc, g.st); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Legal = %v, want %v", got, want)
	}
}

// 13.2: moving a Standard rolls for each Retired unit within one hex of it:
// die + Disordered Shock DRM, 5 or more eliminates.
func TestStandardMoveRolls(t *testing.T) {
	sc := twoByTwo()
	maa := indexOf(sc, "AN2") // Disordered Shock DRM +1
	sc.Units[maa].Status = engine.Retired
	sc.Units[maa].Hex = sc.Standards[0].Hex
	g := newGame(t, sc, 4)
	res := g.send(red, "ACTIVATE STANDARD Red MOVE 0505")
	l, ok := findEvent[engine.StandardLeftUnit](res.Events)
	if !ok || l.Roll.Total != 5 || !l.Eliminated {
		t.Fatalf("events %v: want 4 +1 = 5, Eliminated", narrative(sc, res.Events))
	}
	if g.st.Standards[0].Hex.String() != "0505" {
		t.Errorf("Standard at %v, want 0505", g.st.Standards[0].Hex)
	}
}

// R41: not into a hex with an enemy unit.
func TestStandardMoveNotIntoEnemy(t *testing.T) {
	sc := twoByTwo()
	g := newGame(t, sc)
	g.refuse(red, "ACTIVATE STANDARD Red MOVE "+sc.Units[indexOf(sc, "CA1")].Hex.String(), "13.2")
}

// A standing order sent alone by the player whose decision is pending
// answers it at once, and the block counts as a move; an explicit answer in
// the same block takes precedence over a standing order given before it.
func TestStandingOrderAnswersPendingDecision(t *testing.T) {
	g := newGame(t, twoByTwo(), 0, 9)
	g.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
	move := g.st.Move
	res := g.send(blue, "STANDING SEIZE NEVER")
	if _, ok := findEvent[engine.SeizureDeclined](res.Events); !ok || g.st.Move != move+1 {
		t.Fatalf("events %v, move %d: want the standing NEVER to decline at once and advance the move", narrative(g.sc, res.Events), g.st.Move)
	}
	g.send(blue, "STANDING SEIZE ASK")
	g.send(red, "END\nCONTINUE Anna")
	res = g.send(blue, "STANDING SEIZE NEVER\nSEIZE Carl") // 9: fails
	if s, ok := findEvent[engine.SeizureRolled](res.Events); !ok || s.Standing != "" {
		t.Fatalf("events %v: want the explicit SEIZE, not the standing order", narrative(g.sc, res.Events))
	}
}

// 4.3: a Seizure is attempted only when the opponent is about to roll for
// Continuity. The player who has the move may not SEIZE in his own
// Activation (abandoning it half-way, skipping Rally and the Loss Check),
// after it (re-activating the Command that just went, dodging 4.2's
// cumulative +1 and the opponent's chance to Seize), nor in his Free
// Activation. Each is refused, the state unchanged, and no die rolled.
func TestSeizeOnlyAgainstContinuity(t *testing.T) {
	for _, c := range []struct{ name, setup, order string }{
		{"in a Free Activation", "", "SEIZE Anna"},
		{"in his own Activation", "ACTIVATE Anna", "SEIZE Bert"},
		{"after his Activation ended", "ACTIVATE Anna\nEND", "SEIZE Anna"},
		{"with another Command after it ended", "ACTIVATE Anna\nEND", "SEIZE Bert"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, twoByTwo())
			if c.setup != "" {
				g.send(red, c.setup)
			}
			g.dice = engine.NewScript()
			ill := g.refuse(red, c.order, "4.3")
			if !strings.Contains(ill.Reason, "Continuity") {
				t.Errorf("refusal %v: want it to say a Seizure answers a Continuity attempt", ill)
			}
		})
	}
}
