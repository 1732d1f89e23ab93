package engine_test

import (
	"slices"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// Arquebus 5.2, 6.2, 6.3 and 6.4 (docs/arquebus.md E1-E3, rulings
// R320-R329 in docs/rulings.md), played through orders and
// scripted dice on the fixture with the rule switches of
// data/tables/arquebus.yaml.

// arqField is the fixture with Arquebus' rule switches; oc names the
// Overall Commander and eff his Effectiveness; edit changes the scenario
// before the game starts.
func arqField(t *testing.T, redCmds, blueCmds map[string]int, oc string, eff int, edit func(*engine.Scenario), dice ...int) *game {
	t.Helper()
	sc := fixture(redCmds, blueCmds)
	tb, err := data.Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	sc.Tables.Rules = tb.Rules
	for i := range sc.Leaders {
		if sc.Leaders[i].ID == oc {
			sc.Leaders[i].OC, sc.Leaders[i].Effectiveness = true, eff
		}
	}
	if edit != nil {
		edit(sc)
	}
	return newGame(t, sc, dice...)
}

// fornovo: the Italians (Red) with Gonzaga (OC, AR 3, Effectiveness -2)
// in 0205, Caiozzo (AR 2) within his Command Range of 3, in 0204, and
// Fortebraccio (AR 3) beyond it, in 0210; the French (Blue) hold no
// Seizure counter, so no Seizure is asked (R209).
func fornovo(t *testing.T, dice ...int) *game {
	t.Helper()
	g := arqField(t, map[string]int{"Gonzaga": 3, "Caiozzo": 2, "Fortebraccio": 3}, map[string]int{"Charles": 3}, "gonzaga", -2, nil, dice...)
	g.lead("gonzaga", "0205")
	g.lead("caiozzo", "0204")
	g.lead("fortebraccio", "0210")
	return g
}

func sumMods(r engine.Roll) int {
	n := 0
	for _, m := range r.Mods {
		n += m.DRM
	}
	return n
}

// ARQ 6.2 EXAMPLE (Fornovo): "Ricardo used his Free Activation for Army
// Activation. He then successfully rolled for Army Activation
// Continuation, adding Gonzaga's negative two (-2) Effectiveness to the
// DR. ... If Ricardo chose Caiozzo for Continuation and Caiozzo was within
// Gonzaga's Command Range, the net DRM would be negative one (-1) ... If
// he also succeeds with this Continuation roll, he will add two (+2) to
// his next Continuation DR." An Army Continuation succeeds on 2 or less
// (R320); Gonzaga's own Battle gets no Effectiveness, nor a leader beyond
// his Command Range (R321).
func TestArquebusFornovoContinuation(t *testing.T) {
	g := fornovo(t, 4, 3, 1, 0)
	g.send(red, "ACTIVATE ARMY\nEND")
	res := g.send(red, "CONTINUE ARMY")
	c := continuities(res.Events)
	if len(c) != 1 || !c[0].Army || !c[0].Fixed || c[0].Leader != "gonzaga" || c[0].AR != 2 || c[0].Effectiveness != -2 || c[0].OC != "gonzaga" ||
		mods(c[0].Roll) != "-2 ARQ 6.2" || c[0].Roll.Die != 4 || c[0].Roll.Total != 2 || !c[0].Success {
		t.Fatalf("Army Continuation: %+v:\n%s", c, g.story(res.Events))
	}
	if s := g.story(res.Events); !strings.Contains(s, "-2 the Overall Commander Gonzaga's Effectiveness (ARQ 6.2)") || !strings.Contains(s, "not higher than 2: Continuation succeeds (ARQ 6.2)") {
		t.Errorf("narrative:\n%s", s)
	}
	if !g.st.Army {
		t.Fatal("no Army Activation after the successful Continuation")
	}
	// Caiozzo within Gonzaga's Command Range: +1 successive, -2
	// Effectiveness, net -1; a die of 3 makes 2, his AR.
	res = g.send(red, "END\nCONTINUE Caiozzo")
	c = continuities(res.Events)
	if len(c) != 1 || c[0].Army || c[0].Fixed || c[0].Leader != "caiozzo" || c[0].AR != 2 || mods(c[0].Roll) != "+1 4.2, -2 ARQ 6.2" ||
		sumMods(c[0].Roll) != -1 || c[0].Roll.Total != 2 || !c[0].Success || c[0].Effectiveness != -2 {
		t.Fatalf("Caiozzo: %+v:\n%s", c, g.story(res.Events))
	}
	// Then +2, and Gonzaga's own Battle has no Effectiveness: 1 + 2 = 3.
	res = g.send(red, "END\nCONTINUE Gonzaga")
	c = continuities(res.Events)
	if len(c) != 1 || c[0].Leader != "gonzaga" || mods(c[0].Roll) != "+2 4.2" || c[0].Roll.Total != 3 || c[0].AR != 3 || !c[0].Success || c[0].Effectiveness != 0 {
		t.Fatalf("Gonzaga: %+v:\n%s", c, g.story(res.Events))
	}
	// Fortebraccio, five hexes from Gonzaga: +3 only.
	res = g.send(red, "END\nCONTINUE Fortebraccio")
	c = continuities(res.Events)
	if len(c) != 1 || mods(c[0].Roll) != "+3 4.2" || c[0].Roll.Total != 3 || !c[0].Success || c[0].Effectiveness != 0 {
		t.Fatalf("Fortebraccio beyond Gonzaga's Command Range: %+v:\n%s", c, g.story(res.Events))
	}

	// The Example's other branch: Gonzaga's Battle after the Army
	// Continuation, +1 only.
	g = fornovo(t, 4, 2)
	g.send(red, "ACTIVATE ARMY\nEND\nCONTINUE ARMY")
	res = g.send(red, "END\nCONTINUE Gonzaga")
	if c = continuities(res.Events); len(c) != 1 || mods(c[0].Roll) != "+1 4.2" || c[0].Roll.Total != 3 || !c[0].Success {
		t.Fatalf("Gonzaga after the Army: %+v:\n%s", c, g.story(res.Events))
	}
}

// ARQ 6.2: "If the (adjusted) DR is 3 or more, Continuation fails": a die
// of 5 with Gonzaga's -2 is 3, which fails, though it is not higher than
// his Activation Rating of 3 (R320). A Replacement of the OC is no OC:
// no Effectiveness, and no Army (R202).
func TestArquebusArmyContinuationFails(t *testing.T) {
	g := fornovo(t, 5)
	g.send(red, "ACTIVATE ARMY\nEND")
	res := g.send(red, "CONTINUE ARMY")
	c := continuities(res.Events)
	if len(c) != 1 || c[0].Roll.Total != 3 || c[0].AR != 2 || c[0].Success {
		t.Fatalf("Army Continuation at 3: %+v:\n%s", c, g.story(res.Events))
	}
	if f, ok := findEvent[engine.FreeActivationGranted](res.Events); !ok || f.Side != blue {
		t.Errorf("no Free Activation for the French: %+v", f)
	}
	if !strings.Contains(g.story(res.Events), "higher than 2: Continuation fails (ARQ 6.2)") {
		t.Errorf("narrative:\n%s", g.story(res.Events))
	}

	g = fornovo(t, 3)
	g.send(red, "ACTIVATE Fortebraccio\nEND")
	g.st.Leader("gonzaga").Replaced = true
	res = g.send(red, "CONTINUE Caiozzo")
	if c = continuities(res.Events); len(c) != 1 || mods(c[0].Roll) != "" || c[0].Roll.Total != 3 || c[0].Success {
		t.Fatalf("Caiozzo with Gonzaga's Replacement: %+v:\n%s", c, g.story(res.Events))
	}
}

// ARQ 6.2 "only leaders currently on the map can attempt Continuation";
// 6.3 the Seizing Battle "must have a leader on the map" (R323).
func TestArquebusContinuityNeedsLeaderOnMap(t *testing.T) {
	g := arqField(t, map[string]int{"Gonzaga": 3, "Caiozzo": 2}, map[string]int{"Charles": 3, "Trivulzio": 2}, "gonzaga", -2, nil, 0)
	g.deal(blue, "B1:opportunity:0-5")
	g.send(red, "ACTIVATE Caiozzo\nEND")
	g.st.Leader("gonzaga").Killed, g.st.Leader("gonzaga").OffMap = true, true
	g.refuse(red, "CONTINUE Gonzaga", "ARQ 6.2")
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); l != "PASS" {
		t.Errorf("legal with Gonzaga dead: %s", l)
	}
	g.st.Leader("gonzaga").Killed, g.st.Leader("gonzaga").OffMap = false, false
	g.send(red, "CONTINUE Gonzaga")
	g.st.Leader("trivulzio").OffMap = true
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); l != "SEIZE Charles WITH <counter>|DECLINE" {
		t.Errorf("legal Seizures with Trivulzio off the map: %s", l)
	}
	g.refuse(blue, "SEIZE Trivulzio WITH B1", "ARQ 6.3")
	res := g.send(blue, "SEIZE Charles WITH B1")
	if s, ok := findEvent[engine.SeizureRolled](res.Events); !ok || s.Command != "charles" || len(s.Roll.Mods) != 0 || !s.Success {
		t.Errorf("Charles's Seizure, no DRM (ARQ 6.3): %+v:\n%s", s, g.story(res.Events))
	}

	// No Battle of his with a leader on the map: the French are not asked.
	g = arqField(t, map[string]int{"Gonzaga": 3, "Caiozzo": 2}, map[string]int{"Charles": 3}, "gonzaga", -2, nil, 0)
	g.deal(blue, "B1:opportunity:0-5")
	g.send(red, "ACTIVATE Caiozzo\nEND")
	g.st.Leader("charles").Killed, g.st.Leader("charles").OffMap = true, true
	res = g.send(red, "CONTINUE Gonzaga")
	if c := continuities(res.Events); len(c) != 1 || !c[0].Success {
		t.Errorf("want the Continuation DR at once: %+v:\n%s", c, g.story(res.Events))
	}
}

// leaderless makes the Command of leader id a Leaderless Battle (6.4).
func leaderless(id string) func(*engine.Scenario) {
	return func(sc *engine.Scenario) {
		for i := range sc.Commands {
			if sc.Commands[i].Leader == id {
				sc.Commands[i].Leader = ""
			}
		}
		sc.Leaders = slices.DeleteFunc(sc.Leaders, func(l engine.LeaderSpec) bool { return l.ID == id })
	}
}

// ARQ 6.4 Leaderless Battles: "may never be activated by Continuity or
// Seizure; they are activated solely as a Free Activation. Units of
// Battles without a leader are always Out of Command" (R324).
func TestArquebusLeaderlessBattles(t *testing.T) {
	both := func(sc *engine.Scenario) { leaderless("rearguard")(sc); leaderless("vanguard")(sc) }
	g := arqField(t, map[string]int{"Gonzaga": 3, "Rearguard": 0}, map[string]int{"Charles": 3, "Vanguard": 0}, "gonzaga", -2, both, 0)
	res := g.send(red, "ACTIVATE Rearguard")
	tr, ok := findEvent[engine.CommandTraced](res.Events)
	if !ok || strings.Join(tr.OutOfCommand, ",") != "RE1,RE2" {
		t.Fatalf("the Rearguard's units are always Out of Command: %+v:\n%s", tr, g.story(res.Events))
	}
	g.send(red, "END")
	g.refuse(red, "CONTINUE Rearguard", "4.2") // it just went
	g.deal(blue, "B1:opportunity:0-5")
	g.send(red, "CONTINUE Gonzaga")
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); l != "SEIZE Charles WITH <counter>|DECLINE" {
		t.Errorf("legal Seizures: %s", l)
	}
	g.refuse(blue, "SEIZE Vanguard WITH B1", "ARQ 6.4")
	g.send(blue, "DECLINE")
	g.send(red, "END")
	g.refuse(red, "CONTINUE Rearguard", "ARQ 6.4")
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); l != "PASS" {
		t.Errorf("legal: %s", l)
	}
	g.send(red, "PASS")
	g.send(blue, "ACTIVATE Charles\nEND")
	g.refuse(blue, "CONTINUE Vanguard", "ARQ 6.4")
	// An Army Activation takes no Leaderless Battle (6.1: "Units must be
	// within Command Range of their leader").
	g = arqField(t, map[string]int{"Gonzaga": 3, "Rearguard": 0}, map[string]int{"Charles": 3}, "gonzaga", -2, leaderless("rearguard"))
	res = g.send(red, "ACTIVATE ARMY")
	if a, ok := findEvent[engine.ArmyActivated](res.Events); !ok || strings.Join(a.Units, ",") != "GO1,GO2" {
		t.Errorf("army %+v", a)
	}
}

// unsteadyField: the Reds hold Unsteady Troops R1 and Battle Cry R2, the
// Blues Unsteady Troops B1; the Blue CH2 is Artillery (never Disordered).
func unsteadyField(t *testing.T, dice ...int) *game {
	t.Helper()
	art := func(sc *engine.Scenario) {
		sc.Tables.UnitTypes["ART"] = &engine.UnitType{Key: "ART", Name: "Artillery", NeverDisordered: true, FlightPoints: 1, Ratings: engine.Ratings{MA: 2, MADisordered: 2}}
		for i := range sc.Units {
			if sc.Units[i].ID == "CH2" {
				sc.Units[i].Type, sc.Units[i].Ratings = "ART", sc.Tables.UnitTypes["ART"].Ratings
			}
		}
	}
	g := arqField(t, map[string]int{"Gonzaga": 3}, map[string]int{"Charles": 3}, "gonzaga", -2, art, dice...)
	g.deal(red, "R1:unsteady-troops", "R2:battle-cry")
	g.deal(blue, "B1:unsteady-troops")
	return g
}

// ARQ 6.3 Unsteady Troops: "Disorder one enemy unit (Eliminate
// Artillery). Play before units move or fire at the beginning of the
// Move/Fire Phase of any Activation" (R326).
func TestArquebusUnsteadyTroops(t *testing.T) {
	g := unsteadyField(t)
	g.refuse(red, "PLAY R1 DISORDER CH1", "ARQ 6.3") // Phase A: no Activation yet
	g.send(red, "ACTIVATE Gonzaga")
	g.refuse(red, "PLAY R1 RALLY CH1", "ARQ 6.3")
	g.refuse(red, "PLAY R1 AT CH1", "ARQ 6.3")
	g.refuse(red, "PLAY R1 DISORDER GO1", "ARQ 6.3") // not an enemy unit
	g.refuse(red, "MOVE GO1 0301\nPLAY R1 DISORDER CH1", "ARQ 6.3")
	res := g.send(red, "PLAY R1 DISORDER CH1")
	p, ok := findEvent[engine.CounterPlayed](res.Events)
	if !ok || p.Counter != "R1" || p.Type != engine.CounterUnsteadyTroops || p.Unit != "CH1" || p.Standing {
		t.Fatalf("played %+v:\n%s", p, g.story(res.Events))
	}
	if g.st.Unit("CH1").Status != engine.Disordered || !playedIn(g.st, red, "R1") {
		t.Errorf("CH1 %v, R1 played %v", g.st.Unit("CH1").Status, playedIn(g.st, red, "R1"))
	}
	if s := g.story(res.Events); !strings.Contains(s, "The Red play Unsteady Troops R1 on CH1 (ARQ 6.3).") {
		t.Errorf("narrative:\n%s", s)
	}
	g.refuse(red, "PLAY R1 DISORDER CH2", "B&R 6.3") // played: discarded
	// Artillery is Eliminated.
	g = unsteadyField(t)
	res = g.send(red, "ACTIVATE Gonzaga\nPLAY R1 DISORDER CH2")
	if g.st.Unit("CH2").Status != engine.Eliminated || !strings.Contains(g.story(res.Events), "Unsteady Troops (ARQ 6.3): an Artillery unit is Eliminated") {
		t.Errorf("CH2 %v:\n%s", g.st.Unit("CH2").Status, g.story(res.Events))
	}
	// A unit not in good order is no target (R326).
	g = unsteadyField(t)
	g.st.Unit("CH1").Status = engine.Disordered
	g.send(red, "ACTIVATE Gonzaga")
	g.refuse(red, "PLAY R1 DISORDER CH1", "ARQ 6.3")
}

// ARQ 6.3, 4.0 B: in any Activation, "The Non-Active player plays any
// counters he wishes to, then the Active player": standing plays at the
// start of the Move/Fire Phase, before Command status is checked, the
// Non-Active player's first (R282, R326). Every counter played is a
// CounterPlayed with its id; the plans are secret until then (R283).
func TestArquebusUnsteadyTroopsStanding(t *testing.T) {
	g := unsteadyField(t)
	g.st.Unit("GO2").Status = engine.Retired
	g.send(blue, "STANDING PLAY B1 DISORDER GO1")
	g.send(red, "STANDING PLAY R2 RALLY GO2\nSTANDING PLAY R1 DISORDER CH2")
	if r := g.st.Redacted(red).Counters.Hands[blue]; r.Standing != nil || r.Hidden != 1 {
		t.Errorf("the Reds see the Blues' plans: %+v", r)
	}
	if side, private := engine.PrivateTo(engine.StandingPlaySet{Side: blue}); !private || side != blue {
		t.Error("StandingPlaySet is not private")
	}
	res := g.send(red, "ACTIVATE Gonzaga")
	var order []string
	for _, e := range res.Events {
		switch e := e.(type) {
		case engine.CounterPlayed:
			order = append(order, e.Counter+" "+e.Unit)
			if !e.Standing {
				t.Errorf("%s not by standing order", e.Counter)
			}
		case engine.CommandTraced:
			order = append(order, "traced")
		}
	}
	if got := strings.Join(order, ", "); !strings.HasPrefix(got, "B1 GO1, R1 CH2, R2 GO2") {
		t.Errorf("plays %s, want the Blues' B1 first, then the Reds' R1 and R2, before Command is traced:\n%s", got, g.story(res.Events))
	}
	if g.st.Unit("GO1").Status != engine.Disordered || g.st.Unit("CH2").Status != engine.Eliminated || g.st.Unit("GO2").Status != engine.Disordered {
		t.Errorf("GO1 %v, CH2 %v, GO2 %v", g.st.Unit("GO1").Status, g.st.Unit("CH2").Status, g.st.Unit("GO2").Status)
	}
	// A standing Unsteady Troops on a unit no longer in good order is
	// dropped, and the counter kept.
	g = unsteadyField(t)
	g.send(blue, "STANDING PLAY B1 DISORDER GO1")
	g.st.Unit("GO1").Status = engine.Disordered
	res = g.send(red, "ACTIVATE Gonzaga")
	if d, ok := findEvent[engine.StandingPlayDropped](res.Events); !ok || d.Counter != "B1" || !strings.Contains(d.Reason, "ARQ 6.3") || playedIn(g.st, blue, "B1") {
		t.Errorf("dropped %+v", d)
	}
}

// ARQ 5.2 Charisma: "a DRM used when any unit stacked with the OC or its
// Battle leader is attacking": with charisma_own_leaders another
// Battle's leader gives none (R325); Blood & Roses counts any leader.
func TestArquebusCharismaOwnLeaders(t *testing.T) {
	c := "0505"
	for _, tc := range []struct {
		name  string
		own   bool
		oc    bool // Bert is the Overall Commander
		mods  []string
		total int // a die of 3
	}{
		{"B&R: Bert's +4, though of another Battle", false, false, []string{"+1 10.4 #1", "+4 10.4 #5, 12.3 #4"}, 8},
		{"ARQ: only Anna's +1, her own Battle's", true, false, []string{"+1 10.4 #1", "+1 10.4 #5, 12.3 #4"}, 5},
		{"ARQ: Bert as OC gives his +4", true, true, []string{"+1 10.4 #1", "+4 10.4 #5, 12.3 #4"}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := melee(t, 3)
			g.volume("arq", map[string]volType{"INF": {from: "AX", name: "Infantry"}}, map[string]map[string]int{"INF": {"INF": 0}}, func(tb *engine.Tables) {
				tb.Rules.LeaderCharisma, tb.Rules.CharismaOwnLeaders = true, tc.own
			})
			g.troop("CA1", c, hex.FaceW, "INF")
			g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "INF")
			g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "INF")
			for k := range g.sc.Leaders {
				switch g.sc.Leaders[k].ID {
				case "anna":
					g.sc.Leaders[k].Charisma = 1
				case "bert":
					g.sc.Leaders[k].Charisma, g.sc.Leaders[k].OC = 4, tc.oc
				}
			}
			g.lead("anna", g.nb(c, hex.NW))
			g.lead("bert", g.nb(c, hex.SW))
			evs := g.shockRound("SHOCK AN1 AN2 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", 3, tc.mods, tc.total, "Shock", atts[0].Result)
		})
	}
}
