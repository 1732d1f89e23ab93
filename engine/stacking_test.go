package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// riders: Red's AN2 Mounted Men-at-Arms at 0203 behind AN1, archers at
// 0303, with the given dice.
func riders(t *testing.T, dice ...int) *game {
	g := movers(t, dice...)
	g.put("AN1", "0303", hex.FaceE, "ARC")
	g.put("AN2", "0203", hex.FaceE, "MMAA")
	return g
}

// 8.0: "for each missile unit so moved through, the player rolls the die:
// If that dieroll is a 0–4, the Missile Unit is Disordered. If it is
// already Disordered, it is Retired. If that dieroll is a 5–9, nothing
// happens." The roll is a real one, through the dice, and an event.
func TestPassThroughRoll(t *testing.T) {
	for _, c := range []struct {
		die        int
		was, wants engine.Status
		says       string
	}{
		{4, engine.Normal, engine.Disordered, "AN2 rides through AN1: a roll of 4, AN1 is Disordered (8.0)."},
		{5, engine.Normal, engine.Normal, "AN2 rides through AN1: a roll of 5, nothing happens (8.0)."},
		{9, engine.Disordered, engine.Disordered, "AN2 rides through AN1: a roll of 9, nothing happens (8.0)."},
		{0, engine.Disordered, engine.Retired, "AN2 rides through AN1: a roll of 0, AN1, already Disordered, is Retired (8.0)."},
	} {
		g := riders(t, c.die)
		g.st.Units[0].Status = c.was
		res := g.send(red, "ACTIVATE Anna\nMOVE AN2 0303 0403")
		pass, ok := findEvent[engine.PassedThrough](res.Events)
		if !ok || pass.Result != c.wants || g.unit("AN1").Status != c.wants || pass.Roll.Die != c.die {
			t.Errorf("die %d on a %v unit: %+v, AN1 %v; want %v", c.die, c.was, pass, g.unit("AN1").Status, c.wants)
		}
		if got := engine.Describe(g.sc, pass); got != c.says {
			t.Errorf("die %d: %q, want %q", c.die, got, c.says)
		}
		if r := g.dice.Rolls; len(r) != 1 || r[0].Purpose != "Pass-through DR: AN2 through AN1 (8.0)" {
			t.Errorf("rolls %+v", r)
		}
	}
}

// 8.0: only Mounted MAA, only through friendly missile infantry, never
// stopping there; nothing else stacks, even during movement.
func TestStackingLimits(t *testing.T) {
	g := riders(t)
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "MOVE AN2 0303", "8.0") // may not stop on the archers

	foot := riders(t)
	foot.put("AN2", "0203", hex.FaceE, "MAA")
	foot.send(red, "ACTIVATE Anna")
	foot.refuse(red, "MOVE AN2 0303 0403", "8.0") // foot men-at-arms

	enemy := riders(t)
	enemy.put("AN1", "0909", hex.FaceE)
	enemy.put("CA1", "0303", hex.FaceW, "ARC")
	enemy.send(red, "ACTIVATE Anna")
	enemy.refuse(red, "MOVE AN2 0303 0403", "8.0") // enemy archers

	infantry := riders(t)
	infantry.put("AN1", "0303", hex.FaceE, "INF")
	infantry.send(red, "ACTIVATE Anna")
	infantry.refuse(red, "MOVE AN2 0303 0403", "8.0") // not missile infantry

	// Reach offers the hexes beyond the archers but never theirs.
	r := riders(t)
	r.send(red, "ACTIVATE Anna")
	found := false
	for _, x := range engine.Reach(r.sc, r.st, "AN2") {
		if x.Hex == h(t, "0303") {
			t.Errorf("Reach offers the archers' hex: %+v", x)
		}
		found = found || x.Hex == h(t, "0403")
	}
	if !found {
		t.Error("Reach does not offer 0403 beyond the archers")
	}
}

// Every event of this chapter survives its JSON form and replays.
func TestMovementEventsRoundTrip(t *testing.T) {
	g := riders(t, 3)
	g.st.Leader("anna").Hex = h(t, "0203")
	start := g.st.Clone()
	g.send(red, "ACTIVATE Anna\nMOVE AN2 WITH Anna 0303 0403 FACE NE\nFACE AN1 SE")
	g2 := movers(t)
	start2 := g2.st.Clone()
	g2.send(red, "ACTIVATE Anna\nMOVE Anna 0301 0401")
	for k, gm := range []*game{g, g2} {
		evs := roundTrip(t, gm.events)
		st := []*engine.State{start, start2}[k]
		engine.ReplayFrom(st, evs)
		if got, want := st.Encode(), gm.st.Encode(); string(got) != string(want) {
			t.Errorf("replayed:\n%s\nplayed:\n%s", got, want)
		}
		for k, e := range evs {
			if a, b := engine.Describe(gm.sc, e), engine.Describe(gm.sc, gm.events[k]); a != b {
				t.Errorf("%q after JSON, %q before", a, b)
			}
		}
	}
	want := []string{
		"Move 1: orders of the Red.",
		"The Red activate Anna (Free Activation).",
		"AN2 with Anna moves to 0303, 0403 (3 MP) and faces NE (5.1).",
		"AN2 rides through AN1: a roll of 3, AN1 is Disordered (8.0).",
		"AN1 turns to face SE (6.2).",
	}
	got := narrative(g.sc, g.events)
	if len(got) != len(want) {
		t.Fatalf("narrative %q", got)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("line %d: %q, want %q", k, got[k], want[k])
		}
	}
}
