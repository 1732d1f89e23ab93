package battle_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/engine/strike/table"
)

// TestJudge is the house victory condition (R540).
func TestJudge(t *testing.T) {
	b := mauron(t)
	cases := []struct {
		name   string
		change func(st *battle.State)
		winner int
		over   bool
		want   string
	}{
		{"opening", func(*battle.State) {}, -1, false, ""},
		{"half the French stands", func(st *battle.State) {
			st.Units[b.Index("Maa1")].Gone = "routed" // 8
			st.Units[b.Index("Maa1")].Personality.Warlord = false
			st.Units[b.Index("Kn1")].Gone = "destroyed" // 3 of 22: 11 lost
		}, 1, true, "the French have lost 11 of their 22 stands"},
		{"one short of half", func(st *battle.State) {
			st.Units[b.Index("Sp1")].Gone = "routed" // 6
			st.Units[b.Index("Cb1")].Stands = 1      // 2 more, 8 of 22
		}, -1, false, ""},
		{"Warlord killed", func(st *battle.State) { st.Units[b.Index("Maa2")].Personality.Killed = true }, 0, true, "Walter Bentley, is killed"},
		{"Warlord captured", func(st *battle.State) { st.Units[b.Index("Maa1")].Personality.Captured = true }, 1, true, "Guy de Nesle, is captured"},
		{"Warlord's unit routed", func(st *battle.State) { st.Units[b.Index("Maa1")].Gone = "routed" }, 1, true, "has left the field with his Maa1"},
		{"both Warlords", func(st *battle.State) {
			st.Units[b.Index("Maa1")].Personality.Killed = true
			st.Units[b.Index("Maa2")].Personality.Captured = true
		}, -1, true, "a draw"},
		{"turn limit, English lost less", func(st *battle.State) {
			st.Turn = 9
			st.Units[b.Index("Sp1")].Stands = 3
		}, 1, true, "the English win at the end of turn 8"},
		{"turn limit, equal", func(st *battle.State) { st.Turn = 9 }, -1, true, "a draw at the end of turn 8"},
	}
	for _, c := range cases {
		st := b.Start()
		c.change(st)
		w, why, over := battle.Judge(b, st)
		if w != c.winner || over != c.over || !strings.Contains(why, c.want) {
			t.Errorf("%s: winner %d over %v %q; want %d %v %q", c.name, w, over, why, c.winner, c.over, c.want)
		}
	}
}

// TestOrdersSequence: whatever order the lines are written in, a block
// carries out its charges, then its movement, then its shooting, then
// the melees (R542).
func TestOrdersSequence(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Lb1", ty: "LB", files: 2, ranks: 1, x: 34, y: 10, facing: 0},
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 6, y: 10, facing: 0},
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 20, y: 18, facing: 180},
		u{side: 1, id: "Sp3", ty: "Sp", files: 2, ranks: 1, x: 34, y: 18, facing: 180})
	rng := rand.New(rand.NewSource(5))
	out, err := battle.Apply(b, b.Start(), 0, lines([]string{"SHOOT Lb1 AT Sp3", "MOVE Sp1 2", "CHARGE Kn1 AT Sp2", "END"}), rngDice{rng})
	if err != nil {
		t.Fatal(err)
	}
	var seq []string
	for _, e := range out.Events {
		switch d := e.Data.(type) {
		case *battle.ChargeEvent:
			seq = append(seq, "charge "+d.Unit)
		case *battle.MovedEvent:
			if d.Order == battle.MoveForward {
				seq = append(seq, "move "+d.Unit)
			}
		case *battle.VolleyEvent:
			seq = append(seq, "shoot "+d.Shooter)
		case *battle.MeleeEvent:
			seq = append(seq, "melee "+d.Attacker.Unit)
		}
	}
	if got := strings.Join(seq, ", "); got != "charge Kn1, move Sp1, shoot Lb1, melee Kn1" {
		t.Errorf("sequence %s", got)
	}
}

// TestOrdersNotAppliedAfterDice: once a die has been rolled in a block,
// a line that has become illegal is not applied and the block goes on;
// before any die, it refuses the block.
func TestOrdersNotAppliedAfterDice(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 6, y: 10, facing: 0},
		u{side: 1, id: "Lb2", ty: "LB", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
	out, err := battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Kn1 AT Lb2", "MOVE Sp1 9"}), rngDice{rand.New(rand.NewSource(1))})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.NotApplied) != 1 || out.NotApplied[0].Line != 2 || !strings.Contains(out.NotApplied[0].Reason, `Sp1 may move at most 4"`) {
		t.Errorf("not applied %+v", out.NotApplied)
	}
	// Charging spearmen rolls no die before the melee: the move is
	// refused with the whole block.
	b = field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 6, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
	_, err = battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Kn1 AT Sp2", "MOVE Sp1 9"}), strike.NewScript())
	var r *battle.Refusal
	if !errors.As(err, &r) || r.Line != 2 {
		t.Errorf("want line 2 refused, got %v", err)
	}
}

// TestOrdersRouted: a unit that fails its morale check by 5 or more
// breaks and routs off the table (R546).
func TestOrdersRouted(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Lb1", ty: "LB", files: 4, ranks: 1, x: 20, y: 10, facing: 0, trained: true},
		u{side: 1, id: "Sp2", ty: "Sp", files: 3, ranks: 1, x: 20, y: 20, facing: 180})
	// 4 doubles: 8 strikes, 4DM on 3 stands; morale 10 −1 (a stand) −2
	// (disordered) = 7: a 20 fails by 13 and breaks.
	out := play(t, b, b.Start(), []int{1, 1, 1, 1, 20}, nil, "SHOOT Lb1 AT Sp2")
	if g := out.State.Units[1].Gone; g != "routed" {
		t.Fatalf("Sp2 gone %q", g)
	}
	if mo := find[*battle.MoraleEvent](out); len(mo) != 1 || mo[0].Outcome != "break" {
		t.Errorf("morale %+v", mo)
	}
}

// TestOrdersSupportingFire: a missile unit not charged with the charger
// in its arc and range shoots it as if at distant range (SUPPORTING UNIT
// REACTIONS, R552).
func TestOrdersSupportingFire(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 20, y: 22, facing: 180},
		u{side: 1, id: "Cb2", ty: "CB", files: 2, ranks: 1, x: 26, y: 26, facing: 180})
	// Cb2's stand with the whole of a charging stand in its arc shoots,
	// as at distant range, CV 4: 20; the other's arc holds no whole
	// stand. Sp2 stands; Kn 20, 20; Sp 20, 20: a tie, the knights retreat.
	out := play(t, b, b.Start(), []int{20, 20, 20, 20, 20}, nil, "CHARGE Kn1 AT Sp2")
	v := find[*battle.VolleyEvent](out)
	if len(v) != 1 || v[0].Shooter != "Cb2" || v[0].Fire != "supporting fire" || len(v[0].Rolls) != 1 || v[0].Rolls[0].CV != 4 {
		t.Fatalf("volleys %+v", v)
	}
	if len(find[*battle.MeleeEvent](out)) != 1 {
		t.Error("no melee")
	}
}

// TestOrdersCounterCharge: cavalry charged by knights counter-charges
// half the remaining distance and earns its charge bonus (FORMED
// CAVALRY, DISMOUNTED KNIGHTS and MAA; R552).
func TestOrdersCounterCharge(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 20, y: 24, facing: 180})
	out := play(t, b, b.Start(), []int{20, 20, 20, 20}, nil, "CHARGE Kn1 AT Cv2")
	var counter *battle.MovedEvent
	for _, m := range find[*battle.MovedEvent](out) {
		if m.Order == battle.MoveCounter {
			counter = m
		}
	}
	if counter == nil || counter.Unit != "Cv2" || counter.Inches != 4 {
		t.Fatalf("counter-charge %+v", counter)
	}
	m := find[*battle.MeleeEvent](out)[0]
	if !strings.Contains(m.Defender.CV, "+2") || !strings.Contains(m.Attacker.CV, "+2") {
		t.Errorf("charge bonuses: attacker %s, defender %s", m.Attacker.CV, m.Defender.CV)
	}
}

// TestOrdersStationarySpears: spearmen charged frontally in the open in
// good order, not having moved in the block, fight 3 ranks deep (WHO CAN
// MELEE and SHOOT).
func TestOrdersStationarySpears(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 3, x: 20, y: 20, facing: 180})
	out, err := battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Kn1 AT Sp2"}), rngDice{rand.New(rand.NewSource(2))})
	if err != nil {
		t.Fatal(err)
	}
	if m := find[*battle.MeleeEvent](out); len(m) != 1 || m[0].Defender.Fighters != 6 {
		t.Errorf("melee %+v", m)
	}
}

// TestOrdersChargeSight: a unit charges only what is ahead of its front
// (R544), and nobody shoots at units in melee (R545).
func TestOrdersChargeSight(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 0, id: "Lb1", ty: "LB", files: 2, ranks: 1, x: 34, y: 4, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 20, y: 4, facing: 0},
		u{side: 1, id: "Maa2", ty: "Maa", files: 2, ranks: 1, x: 34, y: 12, facing: 180},
		u{side: 0, id: "Maa1", ty: "Maa", files: 2, ranks: 1, x: 34, y: 12, facing: 0})
	_, err := battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Sp1 AT Cv2"}), strike.NewScript())
	var r *battle.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "Sp1 cannot see Cv2") {
		t.Errorf("charge behind: %v", err)
	}
	_, err = battle.Apply(b, b.Start(), 0, lines([]string{"SHOOT Lb1 AT Maa2"}), strike.NewScript())
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "units in melee are not shot at") {
		t.Errorf("shooting into melee: %v", err)
	}
}

// TestOrdersFoeHigher: shooting at a unit on higher ground costs 3 (COMBAT
// TABLE, SHARED), judged from the units' centres (R555).
func TestOrdersFoeHigher(t *testing.T) {
	for _, c := range []struct {
		kind table.Terrain
		cv   int
	}{{table.HigherGround, 4}, {table.GentleSlope, 7}, {table.Obstacle, 4}} {
		b := field(t,
			u{side: 0, id: "Lb1", ty: "LB", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
			u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
		b.Table.Areas = []table.Area{{Name: "hill", Terrain: c.kind, Shape: table.Polygon{{X: 0, Y: 18}, {X: 48, Y: 18}, {X: 48, Y: 36}, {X: 0, Y: 36}}}}
		out := play(t, b, b.Start(), []int{20, 20}, nil, "SHOOT Lb1 AT Sp2")
		v := find[*battle.VolleyEvent](out)
		if len(v) != 1 || v[0].Rolls[0].CV != c.cv {
			t.Errorf("%s: volleys %+v, want CV %d", c.kind, v, c.cv)
		}
	}
}

// TestOrdersSplitFire: SPLITTING FIRE assigns each eligible stand once,
// in order, to the targets as written.
func TestOrdersSplitFire(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Lb1", ty: "LB", files: 3, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 18, y: 20, facing: 180},
		u{side: 1, id: "Sp3", ty: "Sp", files: 2, ranks: 1, x: 25, y: 20, facing: 180})
	out, err := battle.Apply(b, b.Start(), 0, lines([]string{"SHOOT Lb1 2 AT Sp2, 1 AT Sp3"}), rngDice{rand.New(rand.NewSource(3))})
	if err != nil {
		t.Fatal(err)
	}
	v := find[*battle.VolleyEvent](out)
	if len(v) != 2 || v[0].Target != "Sp2" || len(v[0].Rolls) != 2 || v[1].Target != "Sp3" || len(v[1].Rolls) != 1 {
		t.Fatalf("volleys %+v", v)
	}
	_, err = battle.Apply(b, b.Start(), 0, lines([]string{"SHOOT Lb1 3 AT Sp2, 1 AT Sp3"}), strike.NewScript())
	var r *battle.Refusal
	if !errors.As(err, &r) || r.Rule != battle.RuleSplit || !strings.Contains(r.Reason, "2 stands of Lb1 may shoot at Sp3, 2 of them given to other targets; 0 are left for it, not 1") {
		t.Errorf("over-split: %v", err)
	}
}

// TestDecodeRefuses states that are not of the battle or not whole.
func TestDecodeRefuses(t *testing.T) {
	b := mauron(t)
	good := string(b.Start().Encode())
	for _, c := range []struct{ old, new, want string }{
		{`"id":"Kn1"`, `"id":"Kn9"`, "unit 0 is Kn9"},
		{`"stands":3`, `"stands":4`, "Kn1 has 4 stands in 3×1"},
		{`"files":3`, `"files":0`, "stands in 0×1"},
		{`"turn":1`, `"turn":0`, "turn 0"},
		{`"side":0,"blocks"`, `"side":2,"blocks"`, "side 2"},
		{`"over":false`, `"over":false,"extra":1`, "unknown field"},
		{`"moved":0`, `"moved":-1`, "negative"},
	} {
		if !strings.Contains(good, c.old) {
			t.Fatalf("no %s in %s", c.old, good)
		}
		_, err := battle.Decode(b, []byte(strings.Replace(good, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.new, err, c.want)
		}
	}
	if _, err := battle.Decode(b, []byte(good)); err != nil {
		t.Error(err)
	}
}

// TestOrdersKnightsInSupport: knights who find a charger ahead of them
// within 2 moves counter-charge it in support; the charge halts and the
// knights' new charge is fought (SUPPORTING UNIT REACTIONS, Knights;
// R557).
func TestOrdersKnightsInSupport(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp2", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180},
		u{side: 1, id: "Kn2", ty: "Kn", files: 2, ranks: 1, x: 28, y: 21, facing: 180})
	// Every die misses: a tie, which goes to the counter-charger.
	out, err := battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Sp1 AT Sp2"}), strike.NewScript(20, 20, 20, 20, 20, 20))
	if err != nil {
		t.Fatal(err)
	}
	re := find[*battle.ReactionEvent](out)
	if len(re) != 1 || re[0].Unit != "Kn2" || re[0].Reaction != "counter-charge" {
		t.Fatalf("reactions %+v", re)
	}
	if f := find[*battle.FailedEvent](out); len(f) != 1 || f[0].Unit != "Sp1" || !strings.Contains(f[0].Why, "Kn2's counter-charge") {
		t.Errorf("failed %+v", f)
	}
	m := find[*battle.MeleeEvent](out)
	if len(m) != 1 || m[0].Attacker.Unit != "Kn2" || m[0].Defender.Unit != "Sp1" {
		t.Fatalf("melee %+v", m)
	}
	if m[0].Attacker.Strikes != 0 || m[0].Defender.Strikes != 0 || m[0].AttackerLost {
		t.Errorf("a tie went against the counter-charger: %+v", m[0])
	}
	if mv := find[*battle.MovedEvent](out); mv[len(mv)-1].Unit != "Sp1" || mv[len(mv)-1].Order != battle.MoveRetreat {
		t.Errorf("the charger does not retreat: %+v", mv[len(mv)-1])
	}
	// Knights facing away do not see the charger.
	b.Units[2].Facing = 0
	b.Units[2].Pos.Y = 19
	out, err = battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Sp1 AT Sp2"}), rngDice{rand.New(rand.NewSource(4))})
	if err != nil {
		t.Fatal(err)
	}
	if m := find[*battle.MeleeEvent](out); len(m) != 1 || m[0].Attacker.Unit != "Sp1" {
		t.Errorf("melee %+v", m)
	}
}
