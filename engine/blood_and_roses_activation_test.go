package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses 6.1 Army Activation, 6.2 Continuity and 6.3 Seizure
// counters, played through orders and scripted dice on the fixture with
// the rule switches of data/tables/blood-and-roses.yaml.

// brField is the fixture with Blood & Roses' rule switches; oc names the
// Overall Commander, if any.
func brField(t *testing.T, redCmds, blueCmds map[string]int, oc string, dice ...int) *game {
	t.Helper()
	sc := fixture(redCmds, blueCmds)
	tb, err := data.Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	sc.Tables.Rules = tb.Rules
	for i := range sc.Leaders {
		if sc.Leaders[i].ID == oc {
			sc.Leaders[i].OC = true
		}
	}
	return newGame(t, sc, dice...)
}

// deal gives side its Seizure counters, "Y1:opportunity:0-5" and the like.
func (g *game) deal(side engine.Side, specs ...string) {
	g.t.Helper()
	var cs []engine.SeizureCounter
	for _, s := range specs {
		f := strings.Split(s, ":")
		c := engine.SeizureCounter{ID: f[0], Type: engine.CounterType(f[1])}
		if len(f) > 2 {
			fmt.Sscanf(f[2], "%d-%d", &c.Min, &c.Max)
		}
		cs = append(cs, c)
	}
	st, e, err := engine.DealSeizureCounters(g.sc, g.st, side, cs, "")
	if err != nil {
		g.t.Fatal(err)
	}
	g.st = st
	g.events = append(g.events, e)
}

func mods(r engine.Roll) string {
	var s []string
	for _, m := range r.Mods {
		s = append(s, fmt.Sprintf("%+d %s", m.DRM, m.Rule))
	}
	return strings.Join(s, ", ")
}

func continuities(evs []engine.Event) []engine.ContinuityRolled {
	var out []engine.ContinuityRolled
	for _, e := range evs {
		if c, ok := e.(engine.ContinuityRolled); ok {
			out = append(out, c)
		}
	}
	return out
}

// The table switches as blood-and-roses.md gives them (6.1, 6.2, 6.3;
// no Overall Commander bonus, 6.2 Design Note); Men of Iron and Infidel
// keep none of them.
func TestBloodAndRosesActivationSwitches(t *testing.T) {
	br, err := data.Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	r := br.Rules
	if !r.ArmyActivation || r.ArmyClearance != 3 || r.ArmyMoveClearance != 4 || r.ArmyContinuationDRM != 1 || r.OneBattleContinuationDRM != 1 || !r.SeizureCounters || r.OCActivationBonus != 0 {
		t.Errorf("blood-and-roses rules %+v", r)
	}
	for _, vol := range []string{"moi", "infidel"} {
		tb, err := data.Tables(vol)
		if err != nil {
			t.Fatal(err)
		}
		if r := tb.Rules; r.ArmyActivation || r.OneBattleContinuationDRM != 0 || r.SeizureCounters {
			t.Errorf("%s has a Blood & Roses switch: %+v", vol, r)
		}
	}
}

// 6.1 Army Activation: the OC, the leaders within his Command Range and
// their units in Command, all more than three hexes from an enemy unit,
// move only, never within four hexes of an enemy unit.
func TestBloodAndRosesArmyActivation(t *testing.T) {
	newField := func() *game {
		g := brField(t, map[string]int{"Edward": 4, "Clarence": 3}, map[string]int{"Margaret": 2}, "edward")
		return g
	}
	g := newField()
	// Clarence's CL2 stands three hexes from Margaret's MA1: not Activated.
	ma1 := g.st.Unit("MA1").Hex
	near := hex.Hex{Col: ma1.Col - 3, Row: ma1.Row}
	if d := g.sc.Map.Grid.Distance(near, ma1); d != 3 {
		t.Fatalf("distance %d", d)
	}
	g.st.Unit("CL2").Hex = near
	res := g.send(red, "ACTIVATE ARMY")
	a, ok := findEvent[engine.ArmyActivated](res.Events)
	if !ok || strings.Join(a.Units, ",") != "CL1,ED1,ED2" || strings.Join(a.Leaders, ",") != "clarence,edward" {
		t.Fatalf("army %+v:\n%s", a, g.story(res.Events))
	}
	g.refuse(red, "MOVE CL2 "+hex.Hex{Col: near.Col - 1, Row: near.Row}.String(), "B&R 6.1")
	g.refuse(red, "FIRE ED1 AT MA1", "B&R 6.1")
	g.refuse(red, "SHOCK ED1 AT MA1", "B&R 6.1")
	// ED1 walks east: the hex five from MA1 is open, the one four from it is not.
	toward := func(from hex.Hex) (path []string, four string) {
		for c := from.Col + 1; c < ma1.Col; c++ {
			h := hex.Hex{Col: c, Row: from.Row}
			if g.sc.Map.Grid.Distance(h, ma1) <= 4 {
				return path, strings.Join(append(append([]string{}, path...), h.String()), " ")
			}
			path = append(path, h.String())
		}
		t.Fatalf("no path from %s toward %s", from, ma1)
		return
	}
	path, four := toward(g.st.Unit("ED1").Hex)
	g.refuse(red, "MOVE ED1 "+four, "B&R 6.1")
	_, lfour := toward(g.st.Leader("clarence").Hex)
	g.refuse(red, "MOVE clarence "+lfour, "B&R 6.1")
	// The hexes a mail offers (Reach) are those the move takes: none
	// within four hexes of an enemy unit, for a unit or a leader.
	for _, id := range []string{"ED1", "clarence"} {
		reach := engine.Reach(g.sc, g.st, id)
		if len(reach) == 0 {
			t.Fatalf("%s reaches nothing", id)
		}
		for _, r := range reach {
			if g.sc.Map.Grid.Distance(r.Hex, ma1) <= 4 {
				t.Errorf("Reach offers %s %s, %d from MA1", id, r.Hex, g.sc.Map.Grid.Distance(r.Hex, ma1))
			}
		}
	}
	g.send(red, "MOVE ED1 "+strings.Join(path, " "))
	if got := g.st.Unit("ED1").Hex.String(); got != path[len(path)-1] {
		t.Errorf("ED1 at %s, want %s", got, path[len(path)-1])
	}
	g.send(red, "FACE ED2 NE") // R204: facing is part of the move
	if g.st.Unit("ED2").Facing != hex.FaceNE {
		t.Errorf("ED2 faces %s", g.st.Unit("ED2").Facing)
	}
	g.send(red, "END")
	if !g.st.LastArmy {
		t.Error("the Army Activation that ended is not recorded")
	}

	// No Army Activation in Men of Iron; none without the OC on the map
	// (ruling R202); none when nothing qualifies.
	m := newGame(t, fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 2}))
	m.refuse(red, "ACTIVATE ARMY", "4.1")
	g = newField()
	g.st.Leader("edward").Killed, g.st.Leader("edward").OffMap = true, true
	g.refuse(red, "ACTIVATE ARMY", "B&R 6.1")
}

// 6.2 and 4.0 E: Army Activation is continued only after an Army
// Activation; after one, any Battle may be named, the OC's too.
func TestBloodAndRosesArmyContinuationChoice(t *testing.T) {
	g := brField(t, map[string]int{"Edward": 4, "Clarence": 3}, map[string]int{"Margaret": 2}, "edward", 0)
	g.send(red, "ACTIVATE Clarence\nEND")
	g.refuse(red, "CONTINUE ARMY", "B&R 6.2")
	m := newGame(t, fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 2}))
	m.send(red, "ACTIVATE Anna\nEND")
	m.refuse(red, "CONTINUE ARMY", "4.2")

	g = brField(t, map[string]int{"Edward": 4, "Clarence": 3}, map[string]int{"Margaret": 2}, "edward", 0)
	g.send(red, "ACTIVATE ARMY\nEND")
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); !strings.Contains(l, "CONTINUE ARMY") || !strings.Contains(l, "CONTINUE Edward") {
		t.Errorf("legal after an Army Activation: %s", l)
	}
	res := g.send(red, "CONTINUE Edward")
	if c := continuities(res.Events); len(c) != 1 || !c[0].Success || c[0].Army {
		t.Errorf("Edward's Battle after the Army: %+v", c)
	}
	// 6.2: with no OC on the map there is no Army to continue.
	g = brField(t, map[string]int{"Edward": 4, "Clarence": 3}, map[string]int{"Margaret": 2}, "edward", 0)
	g.send(red, "ACTIVATE ARMY\nEND")
	g.st.Leader("edward").Killed, g.st.Leader("edward").OffMap = true, true
	g.refuse(red, "CONTINUE ARMY", "B&R 6.1")
}

// 6.2 EXAMPLE (Tewkesbury): Army Continuation at +1 against Edward's
// rating; then Edward's Battle at +1 for successive Continuation; Army
// again would be +2; after that success the next DR is at +2.
func TestBloodAndRosesTewkesburyContinuation(t *testing.T) {
	g := brField(t, map[string]int{"Edward": 4, "Clarence": 3}, map[string]int{"Margaret": 2}, "edward", 3, 2, 1, 5)
	g.send(red, "ACTIVATE ARMY\nEND")
	res := g.send(red, "CONTINUE ARMY")
	c := continuities(res.Events)
	if len(c) != 1 || !c[0].Army || c[0].Leader != "edward" || c[0].AR != 4 || mods(c[0].Roll) != "+1 B&R 6.2" || c[0].Roll.Total != 4 || !c[0].Success {
		t.Fatalf("Army Continuation: %+v:\n%s", c, g.story(res.Events))
	}
	if !g.st.Army {
		t.Fatal("no Army Activation after the successful Continuation")
	}
	res = g.send(red, "END\nCONTINUE ARMY")
	c = continuities(res.Events)
	if len(c) != 1 || mods(c[0].Roll) != "+1 4.2, +1 B&R 6.2" || c[0].Roll.Total != 4 || !c[0].Success {
		t.Fatalf("Army again: %+v:\n%s", c, g.story(res.Events))
	}
	res = g.send(red, "END\nCONTINUE Edward")
	c = continuities(res.Events)
	if len(c) != 1 || c[0].Army || mods(c[0].Roll) != "+2 4.2" || c[0].Roll.Total != 3 || !c[0].Success {
		t.Fatalf("Edward's Battle: %+v:\n%s", c, g.story(res.Events))
	}
	res = g.send(red, "END\nCONTINUE Clarence")
	c = continuities(res.Events)
	if len(c) != 1 || c[0].Roll.Total != 8 || c[0].Success || c[0].AR != 3 || c[0].OCBonus != 0 {
		t.Fatalf("Clarence (no OC bonus, 6.2 Design Note): %+v:\n%s", c, g.story(res.Events))
	}
	if g.st.Continuations[red] != 0 || g.st.Pending.Side != blue {
		t.Errorf("a failed DR resets and gives the Free Activation: %+v", g.st.Pending)
	}
}

// 6.2: a player with only one Battle adds a further +1 per attempt,
// cumulative, kept until reset even if another Battle enters; a pass,
// a failure or the opponent's Seizure attempt resets it.
func TestBloodAndRosesOneBattleContinuation(t *testing.T) {
	g := brField(t, map[string]int{"Edward": 9, "Clarence": 9}, map[string]int{"Margaret": 2}, "edward", 0, 0, 0)
	for _, id := range []string{"CL1", "CL2"} {
		g.st.Unit(id).Status = engine.Eliminated
	}
	res := g.send(red, "ACTIVATE Edward\nEND\nCONTINUE Edward")
	c := continuities(res.Events)
	if len(c) != 1 || mods(c[0].Roll) != "+1 B&R 6.2" || !c[0].Success {
		t.Fatalf("first one-Battle attempt: %+v:\n%s", c, g.story(res.Events))
	}
	res = g.send(red, "END\nCONTINUE Edward")
	c = continuities(res.Events)
	if len(c) != 1 || mods(c[0].Roll) != "+1 4.2, +2 B&R 6.2" || !c[0].Success {
		t.Fatalf("second: %+v:\n%s", c, g.story(res.Events))
	}
	// Clarence's Battle comes back (as a Battle entering would): the +2
	// incurred stays, with no new +1.
	for _, id := range []string{"CL1", "CL2"} {
		g.st.Unit(id).Status = engine.Normal
	}
	res = g.send(red, "END\nCONTINUE Clarence")
	c = continuities(res.Events)
	if len(c) != 1 || mods(c[0].Roll) != "+2 4.2, +2 B&R 6.2" {
		t.Fatalf("after another Battle entered: %+v:\n%s", c, g.story(res.Events))
	}
	g.send(red, "END\nPASS")
	if g.st.OneBattle[red] != 0 || g.st.Continuations[red] != 0 {
		t.Errorf("a pass resets: %v %v", g.st.OneBattle, g.st.Continuations)
	}
}

// 6.2: "If he just completed a Free Activation with a Standard, the
// player may select any Battle, even the Battle whose Standard was just
// Activated"; a Standard is never Activated by Continuity (6.1).
func TestBloodAndRosesContinuationAfterStandard(t *testing.T) {
	g := brField(t, map[string]int{"Edward": 4}, map[string]int{"Margaret": 2}, "edward", 0)
	g.send(red, "ACTIVATE STANDARD Red")
	if g.st.Pending.Kind != engine.DecideContinuation {
		g.send(red, "END")
	}
	g.refuse(red, "CONTINUE STANDARD Red", "13.2")
	res := g.send(red, "CONTINUE Edward")
	if c := continuities(res.Events); len(c) != 1 || !c[0].Success {
		t.Errorf("Edward's Battle after his Standard: %+v:\n%s", c, g.story(res.Events))
	}
}

// blore is Blore Heath (6.3): the Lancastrians (red) with Audley's and
// Dudley's Battles, the Yorkists (blue) with Salisbury's; the Yorkists
// hold Seizure Opportunity Y1 (0-5), Battle Cry Y2, Negation Y3.
func blore(t *testing.T, dice ...int) *game {
	g := brField(t, map[string]int{"Audley": 3, "Dudley": 3}, map[string]int{"Salisbury": 4}, "", dice...)
	g.deal(blue, "Y1:opportunity:0-5", "Y2:battle-cry", "Y3:negation")
	return g
}

// 6.3 EXAMPLE (Blore Heath): Salisbury's Seizure with a 0-5 counter
// rolls a 6: no Seizure, and the Lancastrians' Free Activation may take
// Audley's Battle again; a roll of 1 would have Seized.
func TestBloodAndRosesBloreHeathSeizure(t *testing.T) {
	g := blore(t, 6)
	g.send(red, "ACTIVATE Audley\nEND\nCONTINUE Dudley")
	if g.st.Pending.Kind != engine.DecideSeizure || g.st.Pending.Side != blue {
		t.Fatalf("waiting: %s", engine.Waiting(g.sc, g.st))
	}
	g.refuse(blue, "SEIZE Salisbury", "B&R 6.3")
	g.refuse(blue, "SEIZE Salisbury WITH Y9", "B&R 6.3")
	g.refuse(blue, "SEIZE Salisbury WITH Y2", "B&R 6.3")
	g.refuse(blue, "STANDING SEIZE Salisbury", "B&R 6.3")
	res := g.send(blue, "SEIZE Salisbury WITH Y1")
	s, ok := findEvent[engine.SeizureRolled](res.Events)
	if !ok || s.Success || s.Counter != "Y1" || s.Roll.Total != 6 || len(s.Roll.Mods) != 0 {
		t.Fatalf("seizure %+v:\n%s", s, g.story(res.Events))
	}
	if g.st.Pending.Kind != engine.DecideActivation || g.st.Pending.Side != red || g.st.Continuations[red] != 0 {
		t.Fatalf("want a Lancastrian Free Activation: %s", engine.Waiting(g.sc, g.st))
	}
	g.send(red, "ACTIVATE Audley")
	if g.st.Command != "audley" || g.st.Kind != engine.FreeActivation {
		t.Errorf("Audley again: %s %s", g.st.Command, g.st.Kind)
	}
	// Y1 is spent.
	g.send(red, "END\nCONTINUE Dudley")
	g.refuse(blue, "SEIZE Salisbury WITH Y1", "B&R 6.3")

	g = blore(t, 1)
	g.send(red, "ACTIVATE Audley\nEND\nCONTINUE Dudley")
	res = g.send(blue, "SEIZE Salisbury WITH Y1")
	if s, _ := findEvent[engine.SeizureRolled](res.Events); !s.Success || g.st.Command != "salisbury" || g.st.Kind != engine.SeizureActivation {
		t.Errorf("a roll of 1 Seizes: %+v:\n%s", s, g.story(res.Events))
	}
	// A SEIZE with a counter where there are none (Men of Iron, 4.3).
	m := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 2}))
	m.send(red, "ACTIVATE Anna\nEND\nCONTINUE Bert")
	m.refuse(blue, "SEIZE Carl WITH Y1", "4.3")
}

// 6.3 Seizure Negation: the Active player answers a Seizure Opportunity
// before its die; both counters are discarded, no Seizure is attempted,
// and the Continuation DR is made (4.0 E) with its penalties (R212). If
// he lets it be, the die is rolled.
func TestBloodAndRosesSeizureNegation(t *testing.T) {
	for _, negate := range []bool{true, false} {
		g := blore(t, 0, 2)
		g.deal(red, "L1:negation", "L2:opportunity:0-3")
		g.send(red, "ACTIVATE Audley\nEND\nCONTINUE Dudley")
		g.send(blue, "DECLINE")
		g.send(red, "END\nCONTINUE Audley")
		g.refuse(red, "NEGATE L1", "4.1") // not his decision: the Yorkists decide on Seizure
		g.send(blue, "SEIZE Salisbury WITH Y1")
		if g.st.Pending.Kind != engine.DecideNegation || g.st.Pending.Side != red {
			t.Fatalf("waiting: %s", engine.Waiting(g.sc, g.st))
		}
		g.refuse(red, "NEGATE L2", "B&R 6.3")
		if !negate {
			res := g.send(red, "DECLINE")
			if s, _ := findEvent[engine.SeizureRolled](res.Events); !s.Success || g.st.Command != "salisbury" || g.st.Continuations[red] != 0 {
				t.Errorf("not negated, a 2 within 0-5 Seizes: %+v:\n%s", s, g.story(res.Events))
			}
			continue
		}
		res := g.send(red, "NEGATE L1")
		if _, ok := findEvent[engine.SeizureRolled](res.Events); ok {
			t.Errorf("a Seizure was rolled after the Negation:\n%s", g.story(res.Events))
		}
		c := continuities(res.Events)
		if len(c) != 1 || mods(c[0].Roll) != "+1 4.2" || !c[0].Success || g.st.Command != "audley" || g.st.Continuations[red] != 2 {
			t.Errorf("the Continuation DR after the Negation: %+v:\n%s", c, g.story(res.Events))
		}
		for side, id := range map[engine.Side]string{blue: "Y1", red: "L1"} {
			if cs := g.st.Counters.Hands[side].Counters; !played(cs, id) {
				t.Errorf("%s not discarded: %+v", id, cs)
			}
		}
		g.send(red, "END")
		g.refuse(red, "NEGATE L2", "B&R 6.3")
	}
}

func played(cs []engine.SeizureCounter, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return c.Played
		}
	}
	return false
}

// 6.3 and design principle 7: the opponent never sees a side's unplayed
// counters; he sees how many, and each one once played.
func TestBloodAndRosesCountersRedacted(t *testing.T) {
	g := blore(t, 6)
	g.send(red, "ACTIVATE Audley\nEND\nCONTINUE Dudley")
	g.send(blue, "SEIZE Salisbury WITH Y1")
	r := g.st.Redacted(red)
	enc := string(r.Encode())
	if strings.Contains(enc, "Y2") || strings.Contains(enc, "Y3") || !strings.Contains(enc, "Y1") {
		t.Errorf("redacted for the Lancastrians: %s", enc)
	}
	if h := r.Counters.Hands[blue]; h.Hidden != 2 || len(h.Counters) != 1 {
		t.Errorf("hand shown %+v, want Y1 and 2 hidden", h)
	}
	if own := string(g.st.Redacted(blue).Encode()); !strings.Contains(own, "Y2") {
		t.Error("the Yorkists' own view lacks their counters")
	}
	evs := engine.RedactEvents(g.events, red)
	for _, l := range narrative(g.sc, evs) {
		if strings.Contains(l, "Y2") || strings.Contains(l, "Y3") {
			t.Errorf("the Lancastrians read %q", l)
		}
	}
	if d, ok := findEvent[engine.CountersDealt](evs); !ok || d.Hidden != 3 || len(d.Counters) != 0 {
		t.Errorf("the deal as the Lancastrians see it: %+v", d)
	}
	// The redacted state plays on: a counter played from the hidden ones
	// comes to light.
	rs, err := engine.Apply(g.sc, r, red, parse(t, "ACTIVATE Audley\nEND\nCONTINUE Dudley"), engine.NewScript())
	if err != nil {
		t.Fatal(err)
	}
	if rs.State.Pending.Kind != engine.DecideSeizure {
		t.Errorf("with two hidden counters the Yorkists are asked: %s", engine.Waiting(g.sc, rs.State))
	}
}

// 6.3 Battle Cry and Treachery!, at the start of an Activation (R213);
// Near Miss and Into the Breach are not played by PLAY.
func TestBloodAndRosesBattleCryTreachery(t *testing.T) {
	g := brField(t, map[string]int{"Edward": 4}, map[string]int{"Margaret": 2}, "edward")
	g.deal(red, "R1:battle-cry", "R2:treachery", "R3:near-miss", "R4:into-the-breach", "R5:treachery")
	g.st.Unit("ED2").Status = engine.Retired
	g.st.Unit("MA2").Status = engine.Disordered
	g.refuse(red, "PLAY R1 RALLY ED2", "B&R 6.3") // Phase A: no Activation begun
	g.send(red, "ACTIVATE Edward")
	g.refuse(red, "PLAY R1 RALLY ED1", "B&R 6.3")
	g.refuse(red, "PLAY R1 DISORDER ED2", "docs/orders.md")
	g.refuse(red, "PLAY R2 DISORDER MA2", "B&R 6.3")
	g.refuse(red, "PLAY R3 RALLY ED2", "B&R 6.3")
	g.refuse(red, "PLAY R4 RALLY ED2", "B&R 6.3")
	g.send(red, "PLAY R1 RALLY ED2")
	if g.st.Unit("ED2").Status != engine.Disordered {
		t.Errorf("ED2 %s, want Disordered", g.st.Unit("ED2").Status)
	}
	g.refuse(red, "PLAY R1 RALLY ED2", "B&R 6.3")
	g.send(red, "PLAY R2 DISORDER MA1")
	if g.st.Unit("MA1").Status != engine.Disordered {
		t.Errorf("MA1 %s, want Disordered", g.st.Unit("MA1").Status)
	}
	g.send(red, "FACE ED1 NE")
	g.refuse(red, "PLAY R5 DISORDER MA2", "B&R 6.3") // no longer the start of the Activation
}

// DealSeizureCounters checks the counters Herald deals (6.3).
func TestBloodAndRosesDealChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		cs   []engine.SeizureCounter
	}{
		{"no id", []engine.SeizureCounter{{Type: engine.CounterNegation}}},
		{"two words", []engine.SeizureCounter{{ID: "Y 1", Type: engine.CounterNegation}}},
		{"twice", []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterNegation}, {ID: "y1", Type: engine.CounterTreachery}}},
		{"unknown type", []engine.SeizureCounter{{ID: "Y1", Type: "luck"}}},
		{"range past 9", []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterOpportunity, Min: 0, Max: 10}}},
		{"range upside down", []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterOpportunity, Min: 5, Max: 2}}},
		{"range on a Negation", []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterNegation, Max: 5}}},
		{"dealt played", []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterNegation, Played: true}}},
	} {
		g := brField(t, map[string]int{"Audley": 3}, map[string]int{"Salisbury": 4}, "")
		if _, _, err := engine.DealSeizureCounters(g.sc, g.st, blue, tc.cs, ""); err == nil {
			t.Errorf("%s: dealt", tc.name)
		}
	}
	g := brField(t, map[string]int{"Audley": 3}, map[string]int{"Salisbury": 4}, "")
	g.deal(blue, "Y1:negation")
	if _, _, err := engine.DealSeizureCounters(g.sc, g.st, blue, []engine.SeizureCounter{{ID: "Y2", Type: engine.CounterNegation}}, ""); err == nil {
		t.Error("dealt twice")
	}
	// Both sides draw from one pool: each side's ids are its own.
	if _, _, err := engine.DealSeizureCounters(g.sc, g.st, red, []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterNegation}}, ""); err != nil {
		t.Errorf("the other side's id Y1 refused: %v", err)
	}
	m := newGame(t, fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 2}))
	if _, _, err := engine.DealSeizureCounters(m.sc, m.st, blue, []engine.SeizureCounter{{ID: "Y1", Type: engine.CounterNegation}}, ""); err == nil {
		t.Error("counters dealt in a volume without them")
	}
}
