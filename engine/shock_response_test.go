package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// The Scots Mounted MAA CA1 stands in 0505 facing W: its Front is 0405 and
// 0406, its Flanks 0504 and 0506. AN2 charges it from 0304 through 0405;
// AN1 shocks it from 0406.

func counterCharged(evs []engine.Event) (engine.CounterChargeRolled, bool) {
	return findEvent[engine.CounterChargeRolled](evs)
}

// TestCounterCharge: 11.5–11.7, by the default standing order (ALWAYS).
func TestCounterCharge(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name    string
		dice    []int
		prepare func(g *game)
		block   string
		cc      string // "" for no roll, else "success" or "failure"
		facing  hex.Facing
		table   string
		mods    string
	}{
		{"cancels a Charge", []int{5, 5}, func(g *game) {
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
		}, "CHARGE AN2 AT CA1", "success", hex.FaceW, "Shock", "-1 10.4 #3"},
		{"fails on 5", []int{6, 5}, func(g *game) {
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
		}, "CHARGE AN2 AT CA1", "failure", hex.FaceW, "Charge", "-1 10.4 #3; +2 10.4 #4, 11.2"},
		{"against a Shock: -2", []int{5, 5}, func(g *game) {
			g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
		}, "SHOCK AN1 AT CA1", "success", hex.FaceW, "Shock", "-1 10.4 #3; -1 10.4 #6; -2 11.6"},
		{"turning one vertex: +1", []int{4, 5}, func(g *game) {
			g.troop("AN1", g.nb(c, hex.N), hex.FaceSE, "DMAA")
		}, "SHOCK AN1 AT CA1", "success", hex.FaceNW, "Shock", "-1 10.4 #3; -1 10.4 #6; -2 11.6"},
		{"a leader with the Counter-Charging unit: -1", []int{5, 5}, func(g *game) {
			g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
			g.lead("carl", c)
		}, "SHOCK AN1 AT CA1", "success", hex.FaceW, "Shock", "-1 10.4 #3; -1 10.4 #6; -2 11.6; -1 10.4 #5, 15.3"},
		{"standing order NEVER", []int{5}, func(g *game) {
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
			g.send(1, "STANDING COUNTER-CHARGE NEVER")
		}, "CHARGE AN2 AT CA1", "", hex.FaceW, "Charge", "-1 10.4 #3; +2 10.4 #4, 11.2"},
		{"not when Disordered", []int{5}, func(g *game) {
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
			g.st.Unit("CA1").Status = engine.Disordered
		}, "CHARGE AN2 AT CA1", "", hex.FaceW, "Charge", "+2 10.4 #4, 11.2"},
		{"not when still in another enemy's ZOC", []int{5}, func(g *game) {
			g.troop("AN2", "0304", hex.FaceE, "MMAA")
			g.troop("BE2", g.nb(c, hex.SE), hex.FaceNW, "MMAA") // CA1 in its ZOC as the Activation begins
		}, "CHARGE AN2 AT CA1", "", hex.FaceW, "Charge", "-1 10.4 #3; +2 10.4 #4, 11.2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := melee(t, tc.dice...)
			g.troop("CA1", c, hex.FaceW, "MMAA")
			tc.prepare(g)
			evs := g.shockRound(tc.block + "\nEND")
			cc, rolled := counterCharged(evs)
			switch {
			case tc.cc == "" && rolled, tc.cc != "" && !rolled, rolled && cc.Success != (tc.cc == "success"):
				t.Errorf("Counter-Charge %+v, want %q:\n%s", cc, tc.cc, g.story(evs))
			}
			a := resolved(evs)
			if len(a) == 0 || !strings.HasPrefix(a[0].Table, tc.table) || modRules(a[0]) != tc.mods {
				t.Errorf("got\n%s\nwant the %s Table with %s", g.story(evs), tc.table, tc.mods)
			}
			if f := g.unit("CA1").Facing; f != tc.facing && g.unit("CA1").Hex == h(t, c) {
				t.Errorf("CA1 faces %v, want %v (11.5, 11.7)", f, tc.facing)
			}
		})
	}
}

// TestCounterChargeAsked: with STANDING COUNTER-CHARGE ASK the Shock Phase
// waits for the defender; the attacker's further orders are not applied;
// the answer rolls, and the attacks are resolved in the answering block.
func TestCounterChargeAsked(t *testing.T) {
	g := melee(t, 5, 5)
	g.troop("CA1", "0505", hex.FaceW, "MMAA")
	g.troop("AN2", "0304", hex.FaceE, "MMAA")
	g.send(1, "STANDING COUNTER-CHARGE ASK CA1")
	g.send(0, "ACTIVATE Anna")
	res := g.send(0, "CHARGE AN2 AT CA1\nEND\nCONTINUE Bert")
	if g.st.Pending.Kind != engine.DecideResponse || g.st.Pending.Side != 1 || len(res.NotApplied) != 1 {
		t.Fatalf("after END: %s, not applied %v", engine.Waiting(g.sc, g.st), res.NotApplied)
	}
	legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
	for _, want := range []string{"COUNTER-CHARGE CA1", "STAND CA1", "STAND"} {
		if !strings.Contains(legal, want) {
			t.Errorf("legal answers lack %q:\n%s", want, legal)
		}
	}
	if !strings.Contains(engine.Waiting(g.sc, g.st), "CA1 Counter-Charge") {
		t.Errorf("waiting: %s", engine.Waiting(g.sc, g.st))
	}
	g.refuse(1, "COUNTER-CHARGE CA2", "11.5")
	evs := g.send(1, "COUNTER-CHARGE CA1").Events
	if cc, ok := counterCharged(evs); !ok || !cc.Success {
		t.Errorf("no successful Counter-Charge:\n%s", g.story(evs))
	}
	if a := resolved(evs); len(a) != 1 || !strings.HasPrefix(a[0].Table, "Shock") {
		t.Errorf("attack not resolved on the Shock Table:\n%s", g.story(evs))
	}
	if g.st.Pending.Kind != engine.DecideContinuation || g.st.Pending.Side != 0 {
		t.Errorf("after the answer: %s", engine.Waiting(g.sc, g.st))
	}
}

// TestRetreatBeforeShock: 10.2 a mounted unit attacked only by foot may
// fall back one hex, never into an enemy ZOC or an occupied hex; Mounted
// MAA are Disordered by it; the attack on it lapses; not against mounted
// attackers. By default (STANDING RETREAT BEFORE SHOCK NEVER) it stands.
func TestRetreatBeforeShock(t *testing.T) {
	c := "0505"
	t.Run("genitors, always", func(t *testing.T) {
		g := melee(t)
		g.troop("CA1", c, hex.FaceW, "GEN")
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		rbs, ok := findEvent[engine.RetreatedBeforeShock](evs)
		if !ok || rbs.Disordered || len(resolved(evs)) != 0 {
			t.Fatalf("want a Retreat Before Shock without Disorder and no attack:\n%s", g.story(evs))
		}
		if u := g.unit("CA1"); u.Hex == h(t, c) || g.sc.Map.Grid.Distance(u.Hex, h(t, g.nb(c, hex.SW))) != 2 {
			t.Errorf("CA1 in %s, want one hex away from AN1", u.Hex)
		}
	})
	t.Run("mounted MAA asked", func(t *testing.T) {
		g := melee(t)
		g.troop("CA1", c, hex.FaceW, "MMAA")
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
		g.troop("DO1", g.nb(c, hex.NE, hex.NE), hex.FaceW, "LB") // its own side's ZOC does not matter
		g.send(1, "STANDING RETREAT BEFORE SHOCK ASK\nSTANDING COUNTER-CHARGE NEVER")
		g.shockRound("SHOCK AN1 AT CA1\nEND")
		legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
		if !strings.Contains(legal, "RETREAT BEFORE SHOCK CA1 0605") || strings.Contains(legal, "COUNTER-CHARGE") {
			t.Fatalf("legal answers:\n%s", legal)
		}
		g.refuse(1, "RETREAT BEFORE SHOCK CA1 0404", "10.2")
		evs := g.send(1, "RETREAT BEFORE SHOCK CA1 0605 FACE E").Events
		if u := g.unit("CA1"); u.Hex != h(t, "0605") || u.Facing != hex.FaceE || u.Status != engine.Disordered {
			t.Errorf("CA1: %+v, want Disordered in 0605 facing E:\n%s", u, g.story(evs))
		}
		if _, ok := findEvent[engine.AttackLapsed](evs); !ok {
			t.Errorf("the attack did not lapse:\n%s", g.story(evs))
		}
	})
	t.Run("followed by the attacker", func(t *testing.T) {
		g := melee(t)
		g.troop("CA1", c, hex.FaceW, "GEN")
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
		g.send(0, "STANDING ADVANCE ALWAYS AN1")
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		adv, ok := findEvent[engine.UnitAdvanced](evs)
		if !ok || adv.Unit != "AN1" || adv.To != h(t, c) || len(resolved(evs)) != 0 {
			t.Errorf("want AN1 to follow into %s without attacking:\n%s", c, g.story(evs))
		}
		if u := g.unit("AN1"); u.Facing != hex.FaceE {
			t.Errorf("AN1 faces %v after following, want E (10.2: no change of facing)", u.Facing)
		}
	})
	t.Run("not from mounted attackers", func(t *testing.T) {
		g := melee(t, 5)
		g.troop("CA1", c, hex.FaceW, "GEN")
		g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MMAA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ALWAYS")
		evs := g.shockRound("SHOCK AN2 AT CA1\nEND")
		if _, ok := findEvent[engine.RetreatedBeforeShock](evs); ok {
			t.Errorf("retreated before a mounted attacker:\n%s", g.story(evs))
		}
	})
	t.Run("stand", func(t *testing.T) {
		g := melee(t, 5)
		g.troop("CA1", c, hex.FaceW, "GEN")
		g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "DMAA")
		g.send(1, "STANDING RETREAT BEFORE SHOCK ASK")
		g.shockRound("SHOCK AN1 AT CA1\nEND")
		evs := g.send(1, "STAND").Events
		if _, ok := findEvent[engine.ResponseDeclined](evs); !ok || len(resolved(evs)) != 1 {
			t.Errorf("want CA1 to stand and be attacked:\n%s", g.story(evs))
		}
	})
}
