package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// men-of-iron.md 7.1 Extended Example, by orders and dice: two English
// longbows fire at the Scottish longbow A two hexes away. LB #1 rolls 4,
// +1 = 5: A Disordered; A's Return Fire, rolled before either result
// applies, 6 +1 = 7: LB #1 Disordered. LB #2 rolls 6, +1 = 7 on the
// Disordered column: A Retires; its Return Fire, "applying a -1 DRM for
// being disordered", 4 +1 -1 = 4: no effect.
func TestFireAndReturnFire71ExtendedExample(t *testing.T) {
	g := shooters(t)
	g.dice = engine.NewScript(4, 6, 6, 4)
	g.at("AN1", "0505", hex.FaceNE, "LB")
	g.at("AN2", "0704", hex.FaceNW, "LB")
	a := g.at("CA1", "0503", hex.FaceSW, "LB")
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nFIRE AN2 AT CA1")
	var fired []engine.UnitFired
	for _, e := range res.Events {
		if f, ok := e.(engine.UnitFired); ok {
			fired = append(fired, f)
		}
	}
	want := []struct {
		unit, target string
		ret          bool
		total        int
		result       string
	}{
		{"AN1", "CA1", false, 5, "Disordered"},
		{"CA1", "AN1", true, 7, "Disordered"},
		{"AN2", "CA1", false, 7, "Retire"},
		{"CA1", "AN2", true, 4, "No Effect"},
	}
	if len(fired) != len(want) {
		t.Fatalf("%d shots: %v", len(fired), narrative(g.sc, res.Events))
	}
	for k, w := range want {
		f := fired[k]
		if f.Unit != w.unit || f.Target != w.target || f.Return != w.ret || f.Roll.Total != w.total || f.Result != w.result {
			t.Errorf("shot %d: %+v, want %+v", k+1, f, w)
		}
	}
	if s := g.unit("AN1").Status; s != engine.Disordered {
		t.Errorf("LB #1 is %v, want Disordered by the Return Fire", s)
	}
	if s := g.st.Units[a].Status; s != engine.Retired {
		t.Errorf("the Scottish longbow is %v, want Retired", s)
	}
	if g.dice.Remaining() != 0 {
		t.Errorf("%d dice left unrolled", g.dice.Remaining())
	}
}

func TestFireOrdersRefused(t *testing.T) {
	g := shooters(t)
	g.at("AN1", "0505", hex.FaceNE, "LB")
	g.at("AN2", "0704", hex.FaceNW, "PK")
	g.at("CA1", "0503", hex.FaceSW, "CB")
	g.at("CA2", "0909", hex.FaceSW, "LB")
	g.dice = engine.NewScript(0, 0)
	g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	g.refuse(red, "FIRE AN1 AT CA1", "9.2")      // once per Activation
	g.refuse(red, "FIRE AN2 AT CA1", "9.1")      // a pike unit has no missiles
	g.refuse(red, "FIRE AN1 AT CA9", "9.1")      // no such enemy
	g.refuse(red, "MOVE AN1 0605", "5.1")        // a longbow that fired has finished its move
	e := g.refuse(red, "FIRE AN2 AT AN1", "9.1") // not an enemy
	if !strings.Contains(e.Reason, "AN1") && !strings.Contains(e.Reason, "enemy") {
		t.Errorf("reason %q", e.Reason)
	}
}

// Crossbows never return fire (9.2), nor does a unit shot through its
// Rear (9.1), nor a side whose standing orders say NEVER.
func TestReturnFireLimits(t *testing.T) {
	for _, c := range []struct {
		name     string
		typ      string
		face     hex.Facing
		standing string
		shots    int
	}{
		{"longbow answers", "LB", hex.FaceSW, "", 2},
		{"crossbow does not", "CB", hex.FaceSW, "", 1},
		{"not through its Rear", "LB", hex.FaceNE, "", 1},
		{"standing order NEVER", "LB", hex.FaceSW, "STANDING RETURN FIRE NEVER", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := shooters(t)
			g.at("AN1", "0505", hex.FaceNE, "LB")
			g.at("CA1", "0503", c.face, c.typ)
			if c.standing != "" {
				g.send(blue, c.standing)
			}
			g.dice = engine.NewScript(0, 0)
			res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
			n := 0
			for _, e := range res.Events {
				if _, ok := e.(engine.UnitFired); ok {
					n++
				}
			}
			if n != c.shots {
				t.Errorf("%d shots, want %d: %v", n, c.shots, narrative(g.sc, res.Events))
			}
		})
	}
}

// 15.4: a modified 9 or more at a hex with a leader calls for his
// casualty check: an 8 or 9 kills him, and his Flight Points count; a
// leader whose unit is Retired by fire joins the nearest unit of his
// Command.
func TestLeadersUnderFire(t *testing.T) {
	g := shooters(t)
	g.at("AN1", "0505", hex.FaceNE, "LB")
	g.at("CA1", "0504", hex.FaceSW, "CB")
	g.at("CA2", "0507", hex.FaceSW, "CB")
	g.st.Leader("carl").Hex = h(t, "0504")
	before := engine.FlightPoints(g.sc, g.st, blue)
	g.dice = engine.NewScript(9, 8) // 9 +2 = 11: Retire; leader DR 8: killed
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if !g.st.Leader("carl").Killed {
		t.Fatalf("Carl survived: %v", narrative(g.sc, res.Events))
	}
	if got := engine.FlightPoints(g.sc, g.st, blue); got != before+g.sc.Tables.FlightPoints.Retired+g.sc.Tables.FlightPoints.Leader {
		t.Errorf("Flight Points %d, want %d + Retired + leader", got, before)
	}
	g2 := shooters(t)
	g2.at("AN1", "0505", hex.FaceNE, "LB")
	g2.at("CA1", "0504", hex.FaceSW, "CB")
	g2.at("CA2", "0507", hex.FaceSW, "CB")
	g2.st.Leader("carl").Hex = h(t, "0504")
	g2.dice = engine.NewScript(9, 3) // Retire; leader DR 3: survives, joins CA2
	g2.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if l := g2.st.Leader("carl"); l.Killed || l.Hex != h(t, "0507") {
		t.Errorf("Carl: %+v, want alive with CA2 in 0507", *l)
	}
}

// 15.6: a killed leader's Replacement side comes back with a unit of his
// Command when his side next activates, with the Replacement's ratings;
// the Flight Points of the loss stay.
func TestReplacementLeader(t *testing.T) {
	g := shooters(t)
	g.at("AN1", "0505", hex.FaceNE, "LB")
	g.at("CA1", "0504", hex.FaceSW, "CB")
	g.at("CA2", "0508", hex.FaceSW, "CB")
	g.st.Leader("carl").Hex = h(t, "0504")
	g.sc.Leader("carl").Replacement = struct{ AR, Range int }{AR: 1, Range: 2}
	g.dice = engine.NewScript(9, 9) // 9+2 = 11: Retire; leader DR 9: killed
	g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nEND\nPASS")
	lost := engine.FlightPoints(g.sc, g.st, blue)
	if !g.st.Leader("carl").Killed {
		t.Fatal("Carl was not killed")
	}
	g.send(blue, "ACTIVATE Carl")
	l := g.st.Leader("carl")
	if l.Killed || !l.Replaced || l.Hex != h(t, "0508") {
		t.Errorf("Carl after his side's activation: %+v, want his Replacement with CA2 in 0508", *l)
	}
	if got := engine.FlightPoints(g.sc, g.st, blue); got != lost {
		t.Errorf("Flight Points %d after the Replacement, want %d still", got, lost)
	}
}

// 15.4: a leader who survives his check but whose unit fell, surrounded
// by enemy units and ZOCs, is killed.
func TestLeaderSurroundedIsKilled(t *testing.T) {
	g := shooters(t)
	g.at("AN1", "0201", hex.FaceW, "LB") // fires at 0101 in the map's corner
	g.at("AN2", "0102", hex.FaceNE, "AX")
	g.at("BE1", "0202", hex.FaceNW, "AX")
	g.at("CA1", "0101", hex.FaceE, "CB")
	g.at("CA2", "0808", hex.FaceW, "CB")
	g.st.Leader("carl").Hex = h(t, "0101")
	g.dice = engine.NewScript(9, 3) // 9 +2 = 11: Retire (no route: Eliminated); leader DR 3: survives the check
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1")
	if l := g.st.Leader("carl"); !l.Killed {
		t.Errorf("Carl %+v, want killed, surrounded: %v", *l, narrative(g.sc, res.Events))
	}
}

// 12.3 with STANDING RETREAT ASK: the target's owner chooses the hex; the
// active player's block stops until he has, and goes on after.
func TestRetreatAskedOfItsOwner(t *testing.T) {
	g := shooters(t)
	g.at("AN1", "0505", hex.FaceNE, "LB")
	a := g.at("CA1", "0503", hex.FaceSW, "CB")
	g.st.Units[a].Status = engine.Disordered
	g.send(blue, "STANDING RETREAT ASK")
	g.dice = engine.NewScript(3) // 3 +1 = 4 on Foot Disordered: Retreat 1 Hex
	res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nEND")
	if g.st.Pending.Kind != engine.DecideRetreat || g.st.Pending.Side != blue || len(res.NotApplied) != 1 {
		t.Fatalf("pending %+v, not applied %v: %v", g.st.Pending, res.NotApplied, narrative(g.sc, res.Events))
	}
	legal := engine.Legal(g.sc, g.st)
	if len(legal) < 2 {
		t.Fatalf("retreat choices %v", legal)
	}
	g.refuse(blue, "RETREAT CA1 0505", "12.3")
	choice := legal[len(legal)-1]
	g.send(blue, choice)
	want := h(t, strings.Fields(choice)[len(strings.Fields(choice))-1])
	if u := g.unit("CA1"); u.Hex != want {
		t.Errorf("CA1 in %s, want %s as chosen", u.Hex, want)
	}
	if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != red {
		t.Errorf("after the retreat the game waits for %+v, want Red's orders again", g.st.Pending)
	}
	g.send(red, "END")
}

// 9.2 with STANDING RETURN FIRE ASK: the Active Fire waits, before any die,
// for the target owner's RETURN FIRE or HOLD FIRE; both shots are rolled
// together and the active player goes on.
func TestReturnFireAskedOfItsOwner(t *testing.T) {
	for _, c := range []struct {
		answer string
		shots  int
	}{{"RETURN FIRE CA1", 2}, {"HOLD FIRE CA1", 1}} {
		g := shooters(t)
		g.at("AN1", "0505", hex.FaceNE, "LB")
		g.at("CA1", "0503", hex.FaceSW, "LB")
		g.send(blue, "STANDING RETURN FIRE ASK CA1")
		g.dice = engine.NewScript(0, 0)
		res := g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nEND")
		if g.st.Pending.Kind != engine.DecideReturnFire || g.st.Pending.Side != blue || res.Rolled || len(res.NotApplied) != 1 {
			t.Fatalf("pending %+v, rolled %v, not applied %v", g.st.Pending, res.Rolled, res.NotApplied)
		}
		if legal := engine.Legal(g.sc, g.st); len(legal) != 2 || legal[0] != "RETURN FIRE CA1" {
			t.Errorf("legal %v", legal)
		}
		g.refuse(blue, "RETURN FIRE CA2", "9.2")
		res = g.send(blue, c.answer)
		if n := len(shots(res.Events)); n != c.shots {
			t.Errorf("%s: %d shots, want %d: %v", c.answer, n, c.shots, narrative(g.sc, res.Events))
		}
		if g.st.Pending.Kind != engine.DecideActions || g.st.Pending.Side != red {
			t.Errorf("%s: then waiting for %+v, want Red's orders", c.answer, g.st.Pending)
		}
		g.send(red, "END")
	}
}

// 5.1 and the Extended Sequence of Play B: "Each unit must finish its
// movement/firing before another unit may begin to move/fire". A Longbow
// that moved may fire at the end of that move, but not after another unit
// has moved or fired; nor may a Genitor that fired begin its move after
// another unit acted. Firing without moving, at any time, stays legal.
func TestEachUnitFinishesBeforeTheNext(t *testing.T) {
	setup := func(t *testing.T) *game {
		g := shooters(t)
		g.at("AN1", "0507", hex.FaceNE, "LB")
		g.at("AN2", "0607", hex.FaceNE, "LB")
		g.at("CA1", "0504", hex.FaceSW, "PK")
		g.dice = engine.NewScript(0)
		g.send(red, "ACTIVATE Anna")
		return g
	}
	t.Run("moves, another moves, then fires", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN1 0506\nMOVE AN2 0606")
		g.refuse(red, "FIRE AN1 AT CA1", "5.1")
	})
	t.Run("moves, another fires, then fires", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN1 0506\nFIRE AN2 AT CA1")
		g.refuse(red, "FIRE AN1 AT CA1", "5.1")
	})
	t.Run("moves, then fires", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN1 0506\nFIRE AN1 AT CA1")
		if !g.unit("AN1").Fired {
			t.Errorf("AN1 did not fire at the end of its own move")
		}
	})
	t.Run("another moves, then one fires without moving", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN2 0606\nFIRE AN1 AT CA1")
		if !g.unit("AN1").Fired {
			t.Errorf("AN1 did not fire without moving")
		}
	})
	t.Run("a Genitor fires, another moves, then it moves", func(t *testing.T) {
		g := shooters(t)
		g.at("AN1", "0505", hex.FaceNE, "GEN")
		g.at("AN2", "0607", hex.FaceNE, "LB")
		g.at("CA1", "0504", hex.FaceSW, "PK")
		g.dice = engine.NewScript(0)
		g.send(red, "ACTIVATE Anna\nFIRE AN1 AT CA1\nMOVE AN2 0606")
		g.refuse(red, "MOVE AN1 0506 0507", "5.1")
	})
}
