package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// pursuitGame: blood-and-roses.md 14.9 Pursuit (Optional), the battle's
// rules.pursuit with rules.battle_flight. Carl's Battle is CA1 (already
// Retired), CA2 and DO1 (Infantry, far away); Anna's Mounted MAA AN2
// Shocks CA2: die 8 +2 = 10, Defender Retired, and Carl's Battle, 2 of 3
// lost, flees on the Battle Flight die 3 (14.8): DO1 flees the field. The
// Battle that caused it, Anna's, with AN2 (mounted) and AN1 (foot) on the
// field, rolls for Pursuit: the dice after the flight's are the Pursuit's.
func pursuitGame(t *testing.T, edit func(g *game), dice ...int) (*game, []engine.Event) {
	t.Helper()
	g := brMelee(t, append([]int{8, 3}, dice...)...)
	g.sc.Rules.BattleFlight, g.sc.Rules.Pursuit = true, true
	for i := range g.sc.Units {
		switch g.sc.Units[i].ID {
		case "DO1":
			g.sc.Units[i].Command = "carl"
		case "BE1":
			g.sc.Units[i].Command = "bert"
		}
	}
	g.troop("CA1", "0909", hex.FaceW, "INF")
	g.st.Unit("CA1").Status = engine.Retired
	g.troop("CA2", "0505", hex.FaceW, "INF")
	g.troop("DO1", "0808", hex.FaceW, "INF")
	g.troop("AN2", "0406", hex.FaceE, "MM")
	g.troop("AN1", "0202", hex.FaceE, "INF")
	g.troop("BE1", "0203", hex.FaceE, "INF")
	if edit != nil {
		edit(g)
	}
	g.send(red, "ACTIVATE Anna")
	if g.st.Unit("AN1").Status == engine.Disordered {
		g.send(red, "MOVE AN1 0302") // it moves, so does not Rally (13.1)
	}
	return g, g.send(red, "SHOCK AN2 AT CA2\nEND").Events
}

func pursuitRoll(t *testing.T, g *game, evs []engine.Event, die, total int, pursues bool, chosen string) {
	t.Helper()
	pr, ok := findEvent[engine.PursuitRolled](evs)
	if !ok || pr.Command != "anna" || pr.Fled != "carl" || pr.Roll.Die != die || pr.Roll.Total != total || pr.Max != 4 || pr.Pursues != pursues || pr.Chosen != chosen {
		t.Fatalf("Pursuit DR %+v, want Anna's after Carl's, %d -> %d against 4 or less: pursues %v, chosen %q:\n%s", pr, die, total, pursues, chosen, g.story(evs))
	}
	if !strings.Contains(pr.Roll.Purpose, "Blood & Roses 14.9") {
		t.Errorf("the Pursuit DR's purpose %q cites no rule", pr.Roll.Purpose)
	}
}

func pursuers(t *testing.T, g *game, evs []engine.Event, percent int, units ...string) {
	t.Helper()
	b, ok := findEvent[engine.PursuitBegan](evs)
	if !ok || b.Percent != percent || b.Eligible != 2 || strings.Join(b.Units, " ") != strings.Join(units, " ") || b.Entry != h(t, "1001") {
		t.Fatalf("Pursuit %+v, want %d%% of 2: %v, back through the Blue Standard in 1001:\n%s", b, percent, units, g.story(evs))
	}
	for _, id := range units {
		if u := g.unit(id); !u.OffMap {
			t.Errorf("%s %+v: a Pursuer leaves the map", id, u)
		}
	}
}

func TestBloodAndRosesPursuitMounted(t *testing.T) {
	t.Run("DR 2 pursues; 50% of 2 is AN2, mounted first; 5 cuts down DO1", func(t *testing.T) {
		g, evs := pursuitGame(t, nil, 2, 5, 5)
		pursuitRoll(t, g, evs, 2, 2, true, "")
		pursuers(t, g, evs, 50, "AN2")
		if u := g.unit("AN1"); u.OffMap {
			t.Error("AN1 stays on the map")
		}
		s, ok := findEvent[engine.PursuitStruck](evs)
		if !ok || s.Unit != "AN2" || !s.Mounted || s.Need != 5 || s.Victim != "DO1" || s.Leader != "" {
			t.Fatalf("Pursuit roll %+v, want AN2 mounted, 5 of 5 or more, DO1 cut down", s)
		}
		if u := g.unit("DO1"); u.Status != engine.Eliminated || !u.Fled {
			t.Errorf("DO1 %+v, want a fled unit Eliminated in Pursuit", u)
		}
		// DO1 counts its Flight Points now: 2 (Infantry) more than CA1 and
		// CA2, Eliminated by the flight.
		ft := g.sc.Tables.UnitTypes["INF"].FlightPoints
		if fp := engine.FlightPoints(g.sc, g.st, blue); fp != 3*ft {
			t.Errorf("the Blue's Flight Points %d, want %d: three Infantry Eliminated", fp, 3*ft)
		}
	})
	t.Run("an unmodified 9: Carl, the fleeing Battle's leader", func(t *testing.T) {
		g, evs := pursuitGame(t, nil, 4, 0, 9)
		pursuitRoll(t, g, evs, 4, 4, true, "")
		pursuers(t, g, evs, 0) // 0%: nobody
		if _, ok := findEvent[engine.PursuitStruck](evs); ok {
			t.Fatal("0%: no unit pursues")
		}
		g, evs = pursuitGame(t, nil, 4, 1, 9)
		pursuers(t, g, evs, 10, "AN2") // 10% of 2, rounded up
		s, _ := findEvent[engine.PursuitStruck](evs)
		if s.Leader != "carl" || s.Victim != "" {
			t.Fatalf("Pursuit roll %+v, want Carl Eliminated", s)
		}
		if l := g.st.Leader("carl"); !l.Pursued || l.Losses != 1 {
			t.Errorf("Carl %+v, want Eliminated in Pursuit, one loss", l)
		}
		if u := g.unit("DO1"); u.Status == engine.Eliminated {
			t.Error("DO1 escapes: the 9 took the leader")
		}
	})
}

// Blood & Roses 14.9: "For every Pursuing foot unit that rolls a 7 or
// more, one fleeing enemy foot unit is Eliminated", "subtracting one (-1)
// from the DR if the Pursuing unit is Disordered"; 100% of the two: AN2
// (mounted) first, then AN1 (foot, Disordered).
func TestBloodAndRosesPursuitFoot(t *testing.T) {
	disorder := func(g *game) { g.st.Unit("AN1").Status = engine.Disordered }
	for _, tc := range []struct {
		name     string
		die      int
		mountedO bool // DO1 a mounted unit, out of a foot Pursuer's reach
		victim   string
	}{
		{"8 -1 Disordered = 7: DO1 cut down", 8, false, "DO1"},
		{"7 -1 Disordered = 6: it escapes", 7, false, ""},
		{"9 -1 = 8, but DO1 is mounted: a foot Pursuer Eliminates foot only", 9, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, evs := pursuitGame(t, func(g *game) {
				disorder(g)
				if tc.mountedO {
					g.troop("DO1", "0808", hex.FaceW, "MM")
				}
			}, 0, 9, 4, tc.die)
			pursuitRoll(t, g, evs, 0, 0, true, "")
			pursuers(t, g, evs, 90, "AN2", "AN1") // 90% of 2 is 1.8: 2
			var strikes []engine.PursuitStruck
			for _, e := range evs {
				if s, ok := e.(engine.PursuitStruck); ok {
					strikes = append(strikes, s)
				}
			}
			if len(strikes) != 2 || strikes[0].Unit != "AN2" || strikes[0].Victim != "" || strikes[1].Unit != "AN1" || strikes[1].Mounted || strikes[1].Need != 7 {
				t.Fatalf("Pursuit rolls %+v, want AN2's 4 missing, then AN1 (foot, 7 or more):\n%s", strikes, g.story(evs))
			}
			s := strikes[1]
			if len(s.Roll.Mods) != 1 || s.Roll.Mods[0].DRM != -1 || s.Roll.Total != tc.die-1 || s.Victim != tc.victim {
				t.Errorf("AN1's roll %+v, want %d -1 Disordered, victim %q", s, tc.die, tc.victim)
			}
			if got := g.unit("DO1").Status == engine.Eliminated; got != (tc.victim != "") {
				t.Errorf("DO1 %+v, Eliminated %v, want %v", g.unit("DO1"), got, tc.victim != "")
			}
		})
	}
}

// Blood & Roses 14.9: "If the adjusted Pursuit DR is 5 or more, the
// player may choose to have his Battle pursue": by STANDING PURSUIT
// ALWAYS|NEVER, for the side or one Command; NEVER by default (ruling
// R285). ASK, or a unit, is refused.
func TestBloodAndRosesPursuitStanding(t *testing.T) {
	t.Run("DR 5, no standing order: no Pursuit", func(t *testing.T) {
		g, evs := pursuitGame(t, nil, 5) // no die left: a percentage roll would fail
		pursuitRoll(t, g, evs, 5, 5, false, engine.FireNever)
		if _, ok := findEvent[engine.PursuitBegan](evs); ok || len(g.st.Pursuits) != 0 {
			t.Fatal("a Pursuit without the player's choice")
		}
	})
	t.Run("DR 7, STANDING PURSUIT ALWAYS Anna: it pursues", func(t *testing.T) {
		g, evs := pursuitGame(t, func(g *game) {
			g.send(red, "STANDING PURSUIT NEVER")
			g.send(red, "STANDING PURSUIT ALWAYS Anna")
		}, 7, 5, 2)
		pursuitRoll(t, g, evs, 7, 7, false, engine.FireAlways)
		pursuers(t, g, evs, 50, "AN2")
		if len(g.st.Pursuits) != 1 || g.st.Pursuits[0].Command != "anna" {
			t.Errorf("Pursuits %+v, want Anna's", g.st.Pursuits)
		}
	})
	t.Run("STANDING PURSUIT ALWAYS, then NEVER for the side", func(t *testing.T) {
		g, evs := pursuitGame(t, func(g *game) {
			g.send(red, "STANDING PURSUIT ALWAYS Anna")
			g.send(red, "STANDING PURSUIT NEVER")
		}, 9)
		pursuitRoll(t, g, evs, 9, 9, false, engine.FireNever)
	})
	t.Run("refused", func(t *testing.T) {
		g := brMelee(t)
		if _, err := engine.ParseOrders(engine.SplitLines("STANDING PURSUIT ASK")); err == nil || !strings.Contains(err.Error(), "14.9") {
			t.Errorf("STANDING PURSUIT ASK: %v, want refused citing 14.9", err)
		}
		if _, err := engine.ParseOrders(engine.SplitLines("STANDING PURSUIT SOMETIMES")); err == nil {
			t.Error("STANDING PURSUIT SOMETIMES accepted")
		}
		g.refuse(red, "STANDING PURSUIT ALWAYS AN2", "Blood & Roses 14.9")
		g.refuse(red, "STANDING PURSUIT ALWAYS Zed", "15.1")
	})
}

// Blood & Roses 14.9: "If a player has one or more Battles in Pursuit, he
// must use any Free Activations to re-enter one of them"; in it, one die
// per Pursuer: "6 or more, that unit must return. It re-enters the map
// using the Reinforcement rule (7.5), treating the fleeing Battle's
// Standard as its reinforcement entry hex"; "5 or less, the unit is
// removed from the game ... These units do not count against the player's
// Flight Point total" (rulings R288, R289).
func TestBloodAndRosesPursuitReturn(t *testing.T) {
	toRedFree := func(t *testing.T, back int) *game {
		g, evs := pursuitGame(t, nil, 2, 5, 5, back)
		pursuers(t, g, evs, 50, "AN2")
		g.send(red, "PASS")
		g.send(blue, "ACTIVATE Dora\nEND")
		g.send(blue, "PASS")
		g.refuse(red, "ACTIVATE Bert", "Blood & Roses 14.9")
		g.refuse(red, "PASS", "Blood & Roses 14.9")
		g.refuse(red, "ACTIVATE STANDARD Red", "Blood & Roses 14.9")
		if l := strings.Join(engine.Legal(g.sc, g.st), "|"); l != "ACTIVATE Anna" {
			t.Errorf("legal orders %q, want only Anna's re-entry", l)
		}
		if w := engine.Waiting(g.sc, g.st); !strings.Contains(w, ": Anna (Blood & Roses 14.9)") {
			t.Errorf("waiting %q, want Anna's re-entry named", w)
		}
		return g
	}
	t.Run("6: AN2 comes back through the Blue Standard", func(t *testing.T) {
		g := toRedFree(t, 6)
		res := g.send(red, "ACTIVATE Anna")
		r, ok := findEvent[engine.PursuerReturned](res.Events)
		if !ok || r.Unit != "AN2" || r.Roll.Die != 6 || !r.Returns || r.Entry != h(t, "1001") || !strings.Contains(r.Roll.Purpose, "14.9") {
			t.Fatalf("return %+v, want AN2 back on 6", r)
		}
		if u := g.unit("AN2"); !u.OffMap || !u.Returning || !u.OutOfCommand || len(g.st.Pursuits) != 0 {
			t.Fatalf("AN2 %+v, pursuits %+v: want a reinforcement, Out of Command, the Pursuit over", u, g.st.Pursuits)
		}
		g.refuse(red, "MOVE AN2 0901", "Blood & Roses 14.9")
		g.send(red, "MOVE AN2 1001 1002")
		if u := g.unit("AN2"); u.OffMap || u.Returning || u.Hex != h(t, "1002") {
			t.Errorf("AN2 %+v, want on the map in 1002", u)
		}
	})
	t.Run("5: AN2 is gone, with no Flight Points", func(t *testing.T) {
		g := toRedFree(t, 5)
		fp := engine.FlightPoints(g.sc, g.st, red)
		res := g.send(red, "ACTIVATE Anna")
		if r, _ := findEvent[engine.PursuerReturned](res.Events); r.Returns {
			t.Fatalf("return %+v, want AN2 gone on 5", r)
		}
		if u := g.unit("AN2"); !u.Fled || u.Status == engine.Eliminated {
			t.Errorf("AN2 %+v, want removed from the game", u)
		}
		if got := engine.FlightPoints(g.sc, g.st, red); got != fp {
			t.Errorf("the Red's Flight Points %d, want %d still", got, fp)
		}
		g.refuse(red, "MOVE AN2 1001", "Blood & Roses 14.9")
	})
}

// Blood & Roses 14.9: "If the Battle leader is activated by Continuity
// or Seizure, the Pursuing units are ignored during the Activation (they
// are still Pursuing)"; Anna, with AN1 left on the field, does not join (ruling R286).
func TestBloodAndRosesPursuersIgnored(t *testing.T) {
	g, _ := pursuitGame(t, nil, 2, 5, 5, 0, 0)
	g.send(red, "CONTINUE Bert")
	res := g.send(red, "END\nCONTINUE Anna")
	if g.st.Command != "anna" || g.st.Kind != engine.ContinuationActivation {
		t.Fatalf("want Anna activated by Continuity:\n%s", g.story(res.Events))
	}
	if _, ok := findEvent[engine.PursuerReturned](res.Events); ok {
		t.Fatal("a Continuation brought the Pursuers back")
	}
	g.refuse(red, "MOVE AN2 1001", "Blood & Roses 14.9")
	if u := g.unit("AN2"); !u.OffMap || len(g.st.Pursuits) != 1 {
		t.Errorf("AN2 %+v, pursuits %+v: still Pursuing", u, g.st.Pursuits)
	}
}

// Blood & Roses 14.9 cases with no Pursuit (rulings R284, R288), and "If
// the Pursuing Battle fails a Battle Flight DR, all of its units (on and
// off map) are removed from play" (R289).
func TestBloodAndRosesNoPursuit(t *testing.T) {
	none := func(t *testing.T, g *game, evs []engine.Event, fled, why string) {
		t.Helper()
		for _, e := range evs {
			if n, ok := e.(engine.PursuitNone); ok && n.Fled == fled && strings.Contains(n.Reason, why) {
				return
			}
		}
		t.Errorf("want no Pursuit of %s (%s):\n%s", fled, why, g.story(evs))
	}
	t.Run("the Blue Standard captured: nowhere to come back to", func(t *testing.T) {
		g, evs := pursuitGame(t, func(g *game) { g.st.Standard("blue-std").Captured = true }) // no die after the flight's
		none(t, g, evs, "carl", "R288")
	})
	t.Run("Anna's own Battle flees in her Activation; Carl's then has no Pursuer", func(t *testing.T) {
		// Anna's Battle (AN1, AN2, BE2) has lost AN1 and BE2: the active
		// side checks first, 0: it flees, AN2 with it; then Carl's, 3.
		g, evs := pursuitGame(t, func(g *game) {
			g.dice = engine.NewScript(8, 0, 3)
			g.troop("BE2", "0210", hex.FaceE, "INF")
			g.st.Unit("AN1").Status, g.st.Unit("BE2").Status = engine.Retired, engine.Eliminated
		})
		none(t, g, evs, "anna", "R284")
		none(t, g, evs, "carl", "no Battle activated")
		if len(g.st.Pursuits) != 0 {
			t.Errorf("pursuits %+v, want none", g.st.Pursuits)
		}
	})
	t.Run("Anna's Battle, in Pursuit, flees: AN2 leaves with it", func(t *testing.T) {
		g, _ := pursuitGame(t, func(g *game) {
			g.troop("BE2", "0210", hex.FaceE, "INF")
			g.st.Unit("BE2").OffMap = true // a reinforcement, of a type of these tables
		}, 2, 5, 5, 0)
		g.send(red, "PASS")
		g.st.Unit("AN1").Status, g.st.Unit("BE2").Status = engine.Retired, engine.Eliminated
		res := g.send(blue, "ACTIVATE Dora\nEND")
		if bf, ok := findEvent[engine.BattleFled](res.Events); !ok || bf.Command != "anna" {
			t.Fatalf("want Anna's Battle fled:\n%s", g.story(res.Events))
		}
		if u := g.unit("AN2"); !u.Fled || len(g.st.Pursuits) != 0 {
			t.Errorf("AN2 %+v, pursuits %+v: want AN2 fled with its Battle, the Pursuit over", u, g.st.Pursuits)
		}
		g.send(blue, "PASS")
		g.send(red, "ACTIVATE Bert\nEND") // no Battle in Pursuit left
	})
}

// Blood & Roses 14.9 "A pursuing Battle's leader may join the Pursuit":
// Herald's Anna joins when her whole Battle that may Pursue does (ruling
// R286), adding her Charisma to every Pursuer's die and return die; "If
// the Battle leader did join the Pursuit, the Activation may be a Free
// Activation, Continuity, or Seizure"; "The Battle leader automatically
// returns and must re-enter in the first Activation".
func TestBloodAndRosesPursuitLeaderJoins(t *testing.T) {
	charisma := func(g *game) {
		for k := range g.sc.Leaders {
			if g.sc.Leaders[k].ID == "anna" {
				g.sc.Leaders[k].Charisma = 1
			}
		}
	}
	// DR 0 +1; percentage 9 +1 = 10: 100%, Anna with them; AN2 3 +1 = 4
	// misses, AN1 6 +1 = 7 cuts DO1 down. Bert's Continuity 0, Anna's 0;
	// returns: AN2 5 +1 = 6 back, AN1 4 +1 = 5 gone.
	setup := func(t *testing.T) *game {
		g, evs := pursuitGame(t, charisma, 0, 9, 3, 6, 0, 0, 5, 4)
		pursuitRoll(t, g, evs, 0, 1, true, "")
		b, _ := findEvent[engine.PursuitBegan](evs)
		if b.Percent != 100 || b.Leader != "anna" || !g.st.Leader("anna").OffMap {
			t.Fatalf("Pursuit %+v, want 100%% with Anna:\n%s", b, g.story(evs))
		}
		var totals []int
		for _, e := range evs {
			if s, ok := e.(engine.PursuitStruck); ok {
				totals = append(totals, s.Roll.Total)
			}
		}
		if len(totals) != 2 || totals[0] != 4 || totals[1] != 7 || g.unit("DO1").Status != engine.Eliminated {
			t.Fatalf("Pursuit totals %v, want 4 and 7 with Anna's Charisma, DO1 cut down:\n%s", totals, g.story(evs))
		}
		g.send(red, "CONTINUE Bert")
		res := g.send(red, "END\nCONTINUE Anna")
		var back []engine.PursuerReturned
		for _, e := range res.Events {
			if r, ok := e.(engine.PursuerReturned); ok {
				back = append(back, r)
			}
		}
		if len(back) != 2 || !back[0].Returns || back[0].Roll.Total != 6 || back[0].OutOfCommand || back[1].Returns || back[1].Roll.Total != 5 {
			t.Fatalf("returns %+v, want AN2 back on 5 +1, in Command, AN1 gone on 4 +1:\n%s", back, g.story(res.Events))
		}
		if l := g.st.Leader("anna"); !l.OffMap || !l.Returning || g.st.Kind != engine.ContinuationActivation {
			t.Fatalf("Anna %+v, want back off the map, in a Continuation", l)
		}
		return g
	}
	t.Run("Anna enters with AN2", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN2 WITH Anna 1001 1002")
		if l := g.st.Leader("anna"); l.OffMap || l.Returning || l.Hex != h(t, "1002") {
			t.Errorf("Anna %+v, want in 1002 with AN2", l)
		}
		if _, ok := findEvent[engine.LeaderRejoined](g.send(red, "END").Events); ok {
			t.Error("Anna placed again")
		}
	})
	t.Run("Anna left off the map: placed with the unit nearest 1001 as the Activation ends", func(t *testing.T) {
		g := setup(t)
		g.send(red, "MOVE AN2 1001 1002")
		lr, ok := findEvent[engine.LeaderRejoined](g.send(red, "END").Events)
		if l := g.st.Leader("anna"); !ok || lr.To != h(t, "1002") || l.OffMap || l.Returning || l.Hex != h(t, "1002") {
			t.Errorf("Anna %+v (%+v), want placed with AN2 in 1002", l, lr)
		}
	})
}
