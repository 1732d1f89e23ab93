package engine_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses 16.1 Ambush, played on Tewkesbury (the two hundred spears,
// GC1, in the park: rules.ambush, ruling R297) through orders and scripted
// dice; Herald's readings are R274-R279 (docs/rulings.md).

// tewkesbury is the battle at its start: the Yorkists' Free Activation.
func tewkesbury(t *testing.T, dice ...int) *game {
	t.Helper()
	sc, err := data.Scenario("../data/scenarios/tewkesbury.yaml") // a copy of its own
	if err != nil {
		t.Fatal(err)
	}
	return newGame(t, sc, dice...)
}

func legalPrefix(sc *engine.Scenario, st *engine.State, prefix string) bool {
	return slices.ContainsFunc(engine.Legal(sc, st), func(s string) bool { return strings.HasPrefix(s, prefix) })
}

// 16.1 "that player may choose to use any Free Activation to activate an
// ambushing Cavalry unit": only a Free Activation, only the side noted as
// having the Ambush, and the unit never moves in its Battle's own
// Activations while it lies in Ambush.
func TestAmbushOnlyInAFreeActivation(t *testing.T) {
	g := tewkesbury(t)
	if !legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH") || legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH JOIN") {
		t.Errorf("the Yorkists' Free Activation offers ACTIVATE AMBUSH: %v", engine.Legal(g.sc, g.st))
	}
	if u := g.unit("GC1"); !u.OffMap {
		t.Fatalf("GC1 starts off the map, in Ambush: %+v", u)
	}
	g.refuse(engine.Side(0), "ACTIVATE gloucester\nACTIVATE AMBUSH", "B&R 16.1")
	g.refuse(engine.Side(0), "ACTIVATE gloucester\nMOVE GC1 1012", "B&R 16.1")
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH HB1", "B&R 16.1")
	g.send(engine.Side(0), "ACTIVATE gloucester")
	if legalPrefix(g.sc, g.st, "MOVE GC1") {
		t.Errorf("GC1 lies in Ambush: no MOVE for it in Gloucester's Activation: %v", engine.Legal(g.sc, g.st))
	}
	g.send(engine.Side(0), "END\nPASS")
	// The Lancastrians have no Ambush in this battle.
	if legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH") {
		t.Errorf("the Lancastrians have no Ambush: %v", engine.Legal(g.sc, g.st))
	}
	g.refuse(engine.Side(1), "ACTIVATE AMBUSH", "B&R 16.1")
}

// 16.1 "The unit enters through hexes designated in the rules for the
// individual battle ... can double its Movement Allowance ... (but cannot
// enter the hex of an enemy Standard)"; it alone acts (R274).
func TestAmbushEntryAndDoubleMovementAllowance(t *testing.T) {
	g := tewkesbury(t)
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 1011", "B&R 16.1") // not an entry hex
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GL1 1010", "B&R 16.1") // GL1 is not the ambushing unit
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH JOIN hastings", "B&R 16.1")  // Gloucester's Battle is on the map
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH GC1 JOIN edward\nMOVE GC1 0912", "B&R 16.1")
	// Double its Movement Allowance: the woods of 1012 cost 3 MP. With a
	// printed MA of 2 (doubled 4) it enters; with 1 (doubled 2) it may not.
	reach := engine.Reach(g.sc, g.afterAmbush(), "GC1")
	far := 0
	for _, r := range reach {
		far = max(far, r.Cost)
	}
	if far <= 8 || far > 16 {
		t.Errorf("GC1 from Ambush reaches at most %d MP, want more than its MA of 8 and no more than 16", far)
	}
	gc1 := idx(g.sc, "GC1")
	g.sc.Units[gc1].Ratings.MA = 1
	ill := g.refuse(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 1012", "5.1")
	if !strings.Contains(ill.Reason, "Movement Allowance of 2") {
		t.Errorf("want the doubled Movement Allowance of 2 named: %v", ill)
	}
	g.sc.Units[gc1].Ratings.MA = 2
	g2 := &game{t: t, sc: g.sc, st: g.st.Clone(), dice: engine.NewScript()}
	g2.send(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 1012")
	g.sc.Units[gc1].Ratings.MA = 8
	// An enemy Standard's hex is barred to it.
	g.st.Standards[stdIdx(g.sc, "somerset-std")].Hex = h(t, "0912")
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 0912", "B&R 16.1")
	// With an enemy unit or Standard on every entry hex it cannot come out.
	g.st.Units[idx(g.sc, "SB1")].Hex = h(t, "1012")
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH", "B&R 16.1")
}

// afterAmbush is the state once ACTIVATE AMBUSH is given (not kept).
func (g *game) afterAmbush() *engine.State {
	g.t.Helper()
	res, err := engine.Apply(g.sc, g.st, engine.Side(0), parse(g.t, "ACTIVATE AMBUSH"), g.dice)
	if err != nil {
		g.t.Fatal(err)
	}
	return res.State
}

func idx(sc *engine.Scenario, id string) int {
	for i, u := range sc.Units {
		if u.ID == id {
			return i
		}
	}
	panic(id)
}

func stdIdx(sc *engine.Scenario, id string) int {
	for i, s := range sc.Standards {
		if s.ID == id {
			return i
		}
	}
	panic(id)
}

// 16.1: "At end of its move, all Disordered enemy units adjacent to the
// Cavalry unit suffer an automatic Retire result. All other adjacent
// enemy units suffer an automatic Disorder result. The Cavalry unit
// conducts its Shock Attack ... After the Ambush, the Cavalry unit is
// considered a unit of one of the players' Battles". The results are the
// engine's: Artillery is Eliminated instead (B&R 14.2, 14.5), a Retired
// unit goes to its Standard (12.4); no leader checks (5.5).
func TestAmbushStrikesThenShocksThenJoins(t *testing.T) {
	g := tewkesbury(t, 9, 9, 9, 9, 9, 9)
	x := h(t, "0907")
	fr := g.sc.Map.Grid.FrontalHexes(x, hex.FaceW)
	g.st.Units[idx(g.sc, "SB1")].Hex = fr[0] // Normal: Disordered
	g.st.Units[idx(g.sc, "SD1")].Hex = fr[1] // Disordered: Retires
	g.st.Units[idx(g.sc, "SD1")].Status = engine.Disordered
	var rear hex.Hex
	for _, n := range g.sc.Map.Grid.Neighbors(x) {
		if n != fr[0] && n != fr[1] && g.sc.Map.Grid.Distance(n, h(t, "1012")) > g.sc.Map.Grid.Distance(x, h(t, "1012")) {
			rear = n
		}
	}
	g.st.Units[idx(g.sc, "WA1")].Hex = rear // Artillery: Eliminated
	var path []hex.Hex
	for _, r := range engine.Reach(g.sc, g.afterAmbush(), "GC1") {
		if r.Hex == x {
			path = r.Path
		}
	}
	if len(path) == 0 {
		t.Fatalf("GC1 cannot reach %s from Ambush", x)
	}
	var ids []string
	for _, p := range path {
		ids = append(ids, p.String())
	}
	res := g.send(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 "+strings.Join(ids, " ")+" FACE W")
	sprung, ok := findEvent[engine.AmbushSprung](res.Events)
	if !ok || len(sprung.Adjacent) != 3 {
		t.Fatalf("want the Ambush sprung on SB1, SD1 and WA1 at the end of the move:\n%s", g.story(res.Events))
	}
	for id, want := range map[string]engine.Status{"SB1": engine.Disordered, "SD1": engine.Retired, "WA1": engine.Eliminated} {
		if got := g.unit(id).Status; got != want {
			t.Errorf("%s is %s, want %s (16.1):\n%s", id, got, want, g.story(res.Events))
		}
	}
	if g.unit("SD1").Hex == fr[1] {
		t.Errorf("SD1 Retired stays at %s: a Retired unit goes to its Standard (12.4)", fr[1])
	}
	if _, ok := findEvent[engine.LeaderCasualtyRolled](res.Events); ok {
		t.Error("5.5: no leader casualty check for Ambush Disorder")
	}
	if !legalPrefix(g.sc, g.st, "SHOCK GC1 AT") {
		t.Errorf("16.1: GC1 may Shock attack normally: %v", engine.Legal(g.sc, g.st))
	}
	res = g.send(engine.Side(0), "SHOCK GC1 AT SB1\nEND")
	atk, ok := findEvent[engine.AttackResolved](res.Events)
	if !ok || atk.Defender != "SB1" || len(atk.Attackers) != 1 || atk.Attackers[0] != "GC1" {
		t.Errorf("want GC1's Shock on SB1 resolved:\n%s", g.story(res.Events))
	}
	// After the Ambush: a unit of Gloucester's Battle, the Ambush used.
	if u := g.unit("GC1"); u.Joined != "gloucester" {
		t.Errorf("GC1 joined %q, want gloucester", u.Joined)
	}
	if slices.Contains(g.st.AmbushesUsed, "GC1") == false {
		t.Error("the Ambush is used")
	}
}

// 16.1 "an Ambush": one Activation. The unit is then its Battle's: it
// moves in Gloucester's Activation with its own Movement Allowance.
func TestAmbushUsedOnce(t *testing.T) {
	g := tewkesbury(t)
	g.send(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 1012 1011 FACE W\nEND\nPASS")
	g.send(engine.Side(1), "PASS")
	if legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH") {
		t.Errorf("the Ambush is used: %v", engine.Legal(g.sc, g.st))
	}
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH", "B&R 16.1")
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH GC1", "B&R 16.1")
	g.send(engine.Side(0), "ACTIVATE gloucester")
	if !legalPrefix(g.sc, g.st, "MOVE GC1") {
		t.Errorf("GC1 is a unit of Gloucester's Battle: %v", engine.Legal(g.sc, g.st))
	}
	for _, r := range engine.Reach(g.sc, g.st, "GC1") {
		if r.Cost > 8 {
			t.Errorf("GC1 reaches %s for %d MP: its Movement Allowance is 8 again", r.Hex, r.Cost)
		}
	}
}

// 16.1 "If that Battle is no longer on the map, the player may choose
// another" (ruling R277): ACTIVATE AMBUSH JOIN <battle>.
func TestAmbushJoinsAnotherBattleWhenItsOwnIsGone(t *testing.T) {
	g := tewkesbury(t, 9, 9) // the two Loss Checks after the Free Activation
	for i, u := range g.sc.Units {
		if u.Command == "gloucester" && u.ID != "GC1" {
			g.st.Units[i].Status = engine.Eliminated
		}
	}
	if legalPrefix(g.sc, g.st, "ACTIVATE Gloucester") || !legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH JOIN <battle>") {
		t.Errorf("Gloucester's Battle is gone (GC1 in Ambush keeps it in no Activation, R278): %v", engine.Legal(g.sc, g.st))
	}
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH", "B&R 16.1")
	for i, u := range g.sc.Units {
		if u.Command == "hastings" {
			g.st.Units[i].Status = engine.Eliminated
		}
	}
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH JOIN hastings", "B&R 16.1")
	g.send(engine.Side(0), "ACTIVATE AMBUSH JOIN edward\nMOVE GC1 1012 FACE W\nEND")
	if u := g.unit("GC1"); u.Joined != "edward" {
		t.Errorf("GC1 joined %q, want edward", u.Joined)
	}
}

// 16.1 names "an ambushing Cavalry unit": with two, the order names it.
func TestAmbushNamesTheUnitWhenThereAreTwo(t *testing.T) {
	b, err := os.ReadFile("../data/scenarios/tewkesbury.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "ambush: {unit: GC1, enter: [0912, 1012], joins: gloucester}",
		"ambush: [{unit: GC1, enter: [0912, 1012]}, {unit: GC2, enter: [1012]}]", 1)
	s = strings.Replace(s, "  # Lancastrians (facing east)", "  - {id: GC2, type: CAV, command: gloucester, ambush: true}\n  # Lancastrians (facing east)", 1)
	sc, err := data.ParseScenario("two.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, sc)
	if !legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH GC1") || !legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH GC2") {
		t.Errorf("two Ambushes: %v", engine.Legal(g.sc, g.st))
	}
	g.refuse(engine.Side(0), "ACTIVATE AMBUSH", "B&R 16.1")
	g.send(engine.Side(0), "ACTIVATE AMBUSH GC2\nMOVE GC2 1012\nEND")
}

// The order's canonical form (docs/orders.md).
func TestAmbushOrderParses(t *testing.T) {
	for text, want := range map[string]string{
		"activate ambush":                 "ACTIVATE AMBUSH",
		"ACTIVATE AMBUSH GC1":             "ACTIVATE AMBUSH GC1",
		"ACTIVATE AMBUSH join edward":     "ACTIVATE AMBUSH JOIN edward",
		"ACTIVATE AMBUSH GC1 JOIN Edward": "ACTIVATE AMBUSH GC1 JOIN Edward",
	} {
		o := parse(t, text)
		if len(o) != 1 || o[0].String() != want {
			t.Errorf("%q parses to %v, want %s", text, o, want)
		}
	}
	for _, bad := range []string{"ACTIVATE AMBUSH GC1 GC2", "ACTIVATE AMBUSH JOIN"} {
		if _, err := engine.ParseOrders(engine.SplitLines(bad)); err == nil {
			t.Errorf("%q parses", bad)
		}
	}
}

// Ruling R275: an Ambush Activation ended before the unit enters leaves it
// in Ambush, the Ambush unused, the Free Activation spent.
func TestAmbushEndedBeforeEnteringStaysUnused(t *testing.T) {
	g := tewkesbury(t)
	g.send(engine.Side(0), "ACTIVATE AMBUSH\nEND")
	if u := g.unit("GC1"); !u.OffMap || u.Joined != "" || len(g.st.AmbushesUsed) != 0 {
		t.Errorf("GC1 %+v, used %v: still in Ambush, unused", u, g.st.AmbushesUsed)
	}
	g.send(engine.Side(0), "PASS")
	g.send(engine.Side(1), "PASS")
	if !legalPrefix(g.sc, g.st, "ACTIVATE AMBUSH") {
		t.Errorf("the Ambush is still there: %v", engine.Legal(g.sc, g.st))
	}
}

// Ruling R279: the Ambush is in the battle's rules, so both players are
// told of it in their first mail (engine.BattleRuleNotes).
func TestAmbushIsPublic(t *testing.T) {
	g := tewkesbury(t)
	notes := strings.Join(engine.BattleRuleNotes(g.sc), "\n")
	if !strings.Contains(notes, "The Yorkists have an Ambush: GC1") || !strings.Contains(notes, "0912") {
		t.Errorf("the first mail's battle rules do not tell of the Ambush:\n%s", notes)
	}
}

// 16.1 "If using the optional Battle Flight rules, this does not change
// the Battle Flight number of the Battle the unit joins" (ruling R278):
// GC1 is none of Gloucester's starting units, before or after it joins.
func TestAmbushLeavesTheBattleFlightNumber(t *testing.T) {
	g := tewkesbury(t, 9, 9, 9, 9)
	g.sc.Rules.BattleFlight = true
	for _, id := range []string{"GL1", "GL2", "GD1"} {
		g.st.Units[idx(g.sc, id)].Status = engine.Retired
	}
	res := g.send(engine.Side(0), "ACTIVATE AMBUSH\nMOVE GC1 1012 FACE W\nEND")
	bf, ok := findEvent[engine.BattleFlightRolled](res.Events)
	if !ok || bf.Command != "gloucester" || bf.Start != 5 || bf.Lost != 3 {
		t.Errorf("Gloucester's Battle Flight check %+v: want 3 lost of its 5 starting units (GL1, GL2, GD1, GD2, GB1; not the Artillery, not GC1):\n%s", bf, g.story(res.Events))
	}
}
