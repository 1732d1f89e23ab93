package battle_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"herald/data"
	"herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/engine/strike/table"
)

// u is a unit of a test battle: side, id, type, files × ranks, front
// centre, facing.
type u struct {
	side         int
	id, ty       string
	files, ranks int
	x, y, facing float64
	sup, trained bool
	pers         *battle.PersonalitySpec
}

// field builds a 48×36" open battle of the given units.
func field(t *testing.T, us ...u) *battle.Battle {
	t.Helper()
	tb, err := data.StrikeTables()
	if err != nil {
		t.Fatal(err)
	}
	b := &battle.Battle{ID: "test", Title: "Test", Sides: [2]string{"Blue", "Red"}, Table: table.Table{Width: 48, Height: 36},
		Turns: 4, Victory: battle.Victory{StandsLost: 0.9}, Tables: tb}
	for _, x := range us {
		tt := tb.Troops[x.ty]
		w, d := 2.0, 1.0
		if tt.Mounted {
			d = 2
		}
		b.Units = append(b.Units, battle.UnitSpec{ID: x.id, Name: tt.Name, Side: x.side, Type: tt, Superior: x.sup, Trained: x.trained,
			Files: x.files, Ranks: x.ranks, StandWidth: w, StandDepth: d, Pos: table.Vec{X: x.x, Y: x.y}, Facing: x.facing, Personality: x.pers})
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	return b
}

// play applies side 0's block (side 1's if the state says so) with
// scripted dice and cards, and checks that every die was used.
func play(t *testing.T, b *battle.Battle, st *battle.State, d20 []int, cards []strike.Card, ls ...string) *battle.Outcome {
	t.Helper()
	sc := &strike.Script{D20s: d20, Cards: cards}
	out, err := battle.Apply(b, st, st.Side, lines(ls), sc)
	if err != nil {
		t.Fatalf("%v: %v\ndice used: %v", ls, err, sc.Log)
	}
	if n, c := sc.Remaining(); n != 0 || c != 0 {
		t.Errorf("%d d20s and %d cards unused; used:\n%s", n, c, strings.Join(sc.Log, "\n"))
	}
	return out
}

func find[T any](out *battle.Outcome) []T {
	var got []T
	for _, e := range out.Events {
		if d, ok := e.Data.(T); ok {
			got = append(got, d)
		}
	}
	return got
}

func strikes(rs []battle.RollRec) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Strikes)
	}
	return out
}

// TestOrdersFlankExample is REAR and FLANK ATTACKS' first example through
// the orders: "a unit deployed 2 stands deep is attacked on its flank. It
// is disordered ... The attacked unit will fight back with only the stand
// that is in contact; the rear stand will not fight."
func TestOrdersFlankExample(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 10, y: 19, facing: 90},
		u{side: 1, id: "Maa1", ty: "Maa", files: 4, ranks: 2, x: 20, y: 20, facing: 0})
	// Knights 2 dice, the flanked men-at-arms 1: all miss; the tie goes
	// to the defender, the knights retreat ½ move.
	out := play(t, b, b.Start(), []int{20, 20, 20}, nil, "CHARGE Kn1 AT Maa1", "END")
	st := find[*battle.StatusEvent](out)
	if len(st) != 1 || st[0].Unit != "Maa1" || !st[0].After.Disordered || !strings.Contains(st[0].Why, "left flank") {
		t.Fatalf("status events %+v", st)
	}
	m := find[*battle.MeleeEvent](out)
	if len(m) != 1 {
		t.Fatalf("%d melees", len(m))
	}
	if m[0].Aspect != "left flank" || m[0].Defender.Fighters != 1 || len(m[0].Defender.Rolls) != 1 || m[0].Attacker.Fighters != 2 {
		t.Errorf("melee %+v", m[0])
	}
	if !m[0].AttackerLost || m[0].Difference != 0 {
		t.Errorf("a tie goes to the defender: %+v", m[0])
	}
	r := find[*battle.MovedEvent](out)
	if last := r[len(r)-1]; last.Order != battle.MoveRetreat || math.Abs(last.Inches-3) > 1e-9 || last.Unit != "Kn1" {
		t.Errorf("retreat %+v, want Kn1 3\"", last)
	}
}

// TestOrdersRearExample is the second example: "a unit is deployed 3
// stands deep and 4 stands across and is attacked on its rear ... The
// attacker is only 2 stands wide so the defender will only fight with the
// two stands in contact."
func TestOrdersRearExample(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Cv1", ty: "Cv", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Sp1", ty: "Sp", files: 4, ranks: 3, x: 20, y: 20, facing: 0})
	out := play(t, b, b.Start(), []int{20, 20, 20, 20}, nil, "charge cv1 at sp1")
	m := find[*battle.MeleeEvent](out)
	if len(m) != 1 || m[0].Aspect != "rear" || m[0].Defender.Fighters != 2 || m[0].Attacker.Fighters != 2 {
		t.Fatalf("melee %+v", m)
	}
	if !out.State.Units[1].Disordered {
		t.Error("the spearmen are not disordered")
	}
	re := find[*battle.ReactionEvent](out)
	if len(re) != 1 || re[0].Reaction != "stand" {
		t.Errorf("reactions %+v", re)
	}
}

// TestOrdersDoubleStrikeThreshold: knights charging 8" in the open with
// the weapon of choice against spearmen have CV 7 +2 +2 = 11: a 5 (half
// of 11, rounded down) scores two strikes, a 6 one (DOUBLE STRIKES).
func TestOrdersDoubleStrikeThreshold(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0},
		u{side: 1, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
	// Kn 5, 6; Sp 20, 20; the spearmen lose by 3: 1 figure and a
	// morale check (foot SRT, 2 stands, 3 strikes: 1DM), roll 1 passes.
	out := play(t, b, b.Start(), []int{5, 6, 20, 20, 1}, nil, "CHARGE Kn1 AT Sp1")
	m := find[*battle.MeleeEvent](out)[0]
	if !strings.HasSuffix(m.Attacker.CV, "CV 11") {
		t.Fatalf("knights' CV %s", m.Attacker.CV)
	}
	if got := strikes(m.Attacker.Rolls); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("strikes %v, want [2 1]", got)
	}
	if m.Difference != 3 || m.AttackerLost {
		t.Errorf("melee %+v", m)
	}
}

// TestOrdersNineteenCap: a Personality's bonus die with the knights' CV
// 17 (superior, trained, charging, weapon of choice) plus 7 is CV 24; it
// strikes on 19, never on 20, and doubles on 12 (DOUBLE STRIKES: "the
// actual number to hit may never exceed 19").
func TestOrdersNineteenCap(t *testing.T) {
	for _, c := range []struct{ die, want int }{{20, 0}, {19, 1}, {13, 1}, {12, 2}} {
		b := field(t,
			u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0, sup: true, trained: true,
				pers: &battle.PersonalitySpec{Name: "Bertrand", SR: 8}},
			u{side: 1, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
		// Kn stands 20, 20; bonus die; Sp 20, 20; the knights' PCS
		// check 1; the spearmen's morale check if they took M.
		// With no strike the tie goes to the spearmen: Bertrand's unit
		// lost, and the spearmen's Warlord draws his card (a 2: escaped).
		var cards []strike.Card
		if c.want == 0 {
			cards = []strike.Card{{Rank: 2, Suit: "S"}}
		}
		out := play(t, b, b.Start(), []int{20, 20, c.die, 20, 20, 1}, cards, "CHARGE Kn1 AT Sp1")
		m := find[*battle.MeleeEvent](out)[0]
		bonus := m.Attacker.Rolls[2]
		if bonus.CV != 24 || bonus.Roll != c.die || bonus.Strikes != c.want {
			t.Errorf("bonus die %d: %+v, want %d strikes at CV 24", c.die, bonus, c.want)
		}
	}
}

// TestOrdersMissileDuelROF: whoever gives the SHOOT order, the longbow
// (ROF 3) rolls before the crossbow (ROF 2), and the crossbow returns
// fire with what it has left (RATE OF FIRE (ROF)).
func TestOrdersMissileDuelROF(t *testing.T) {
	for _, c := range []struct {
		order string
		side  int
	}{{"SHOOT Cb1 AT Lb1", 0}, {"SHOOT Lb1 AT Cb1", 1}} {
		b := field(t,
			u{side: 0, id: "Cb1", ty: "CB", files: 3, ranks: 1, x: 20, y: 10, facing: 0},
			u{side: 1, id: "Lb1", ty: "LB", files: 3, ranks: 1, x: 20, y: 20, facing: 180})
		st := b.Start()
		st.Side = c.side
		// The longbow's 3 dice all miss; the crossbow's 3 dice: 1, 20, 20
		// (1 strike: NE on the SRT, made 1 figure by the crossbow).
		out := play(t, b, st, []int{20, 20, 20, 1, 20, 20}, nil, c.order)
		v := find[*battle.VolleyEvent](out)
		if len(v) != 2 || v[0].Shooter != "Lb1" || v[1].Shooter != "Cb1" {
			t.Fatalf("%s: volleys %+v", c.order, v)
		}
		if v[1].Result != "1" || v[1].After.FiguresLost != 1 {
			t.Errorf("crossbow's NE made 1 figure: %+v", v[1])
		}
		initiator := map[int]string{0: "Cb1", 1: "Lb1"}[c.side]
		for _, x := range v {
			if (x.Fire == "") != (x.Shooter == initiator) {
				t.Errorf("%s: volley of %s fire %q", c.order, x.Shooter, x.Fire)
			}
		}
	}
}

// TestOrdersMissileDuelStandsLost: the crossbow hit first by the
// longbow's double strikes loses a stand and returns fire with two.
func TestOrdersMissileDuelStandsLost(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Cb1", ty: "CB", files: 3, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Lb1", ty: "LB", files: 4, ranks: 1, x: 20, y: 20, facing: 180, trained: true})
	// Trained longbow CV 10, doubles on 5: 1,1,1,1 = 8 strikes: 4DM on
	// 3 stands, one stand of 4 figures lost. The crossbow returns 2 dice
	// (20, 20), then its morale check (1 passes).
	out := play(t, b, b.Start(), []int{1, 1, 1, 1, 20, 20, 1}, nil, "SHOOT Cb1 AT Lb1")
	v := find[*battle.VolleyEvent](out)
	if len(v) != 2 || v[0].Strikes != 8 || v[0].StandsLost != 1 || len(v[1].Rolls) != 2 {
		t.Fatalf("volleys %+v", v)
	}
	if out.State.Units[0].Stands != 2 || out.State.Units[0].Files != 2 {
		t.Errorf("crossbow %+v", out.State.Units[0])
	}
}

// TestOrdersRetreatDistance: knights beaten by 4 strikes retreat ½ move
// (3") + 1" a strike = 7" (B. RETREAT AFTER MELEE).
func TestOrdersRetreatDistance(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0},
		u{side: 1, id: "Maa1", ty: "Maa", files: 4, ranks: 1, x: 20, y: 20, facing: 180})
	// Kn 20, 20; Maa (4 fighters: 2 in contact, 2 overlapping) 1, 1, 20,
	// 20: two doubles, 4 strikes: 2DM on 2 stands; the knights' morale
	// check (10 −2 disordered −2 lost −4 strikes = 2) passes on 1.
	out := play(t, b, b.Start(), []int{20, 20, 1, 1, 20, 20, 1}, nil, "CHARGE Kn1 AT Maa1")
	m := find[*battle.MeleeEvent](out)[0]
	if m.Defender.Fighters != 4 || m.Difference != 4 || !m.AttackerLost {
		t.Fatalf("melee %+v", m)
	}
	mv := find[*battle.MovedEvent](out)
	last := mv[len(mv)-1]
	if last.Order != battle.MoveRetreat || math.Abs(last.Inches-7) > 1e-9 {
		t.Fatalf("retreat %+v, want 7\"", last)
	}
	if got := out.State.Units[0].Pos; math.Abs(got.Y-13) > 1e-6 || math.Abs(got.X-20) > 1e-6 || out.State.Units[0].Facing != 0 {
		t.Errorf("knights at %v facing %g, want (20, 13) facing the enemy", got, out.State.Units[0].Facing)
	}
}

// TestOrdersPCSAndCapture: a Personality of SR 7 with a losing unit
// checks under 16 −5 −4 = 7, one of SR 8 with the winner under 17 (C.
// PERSONAL COMBAT SKILL CHECKS); the loser's Personality draws a card:
// Joker killed, face or Ace captured, other escaped.
func TestOrdersPCSAndCapture(t *testing.T) {
	for _, c := range []struct {
		card strike.Card
		fate string
	}{
		{strike.Card{Joker: true}, "killed"},
		{strike.Card{Rank: 13, Suit: "H"}, "captured"},
		{strike.Card{Rank: 11, Suit: "C"}, "captured"},
		{strike.Card{Rank: 1, Suit: "S"}, "captured"},
		{strike.Card{Rank: 7, Suit: "D"}, "escaped"},
		{strike.Card{Rank: 10, Suit: "S"}, "escaped"},
	} {
		b := field(t,
			u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0, pers: &battle.PersonalitySpec{Name: "Jean", SR: 7}},
			u{side: 1, id: "Maa1", ty: "Maa", files: 4, ranks: 1, x: 20, y: 20, facing: 180, pers: &battle.PersonalitySpec{Name: "Hugh", SR: 8}})
		// Kn 20, 20, bonus 20; Maa 1, 1, 20, 20, bonus 20; PCS Jean 6
		// (under 7: unharmed), Hugh 16 (under 17: unharmed); the knights'
		// morale (2 +2 Personality = 4) 1 passes; the card.
		out := play(t, b, b.Start(), []int{20, 20, 20, 1, 1, 20, 20, 20, 6, 16, 1}, []strike.Card{c.card}, "CHARGE Kn1 AT Maa1")
		ch := find[*battle.CheckEvent](out)
		if len(ch) != 2 || ch[0].Name != "Jean" || ch[0].Need != 7 || !ch[0].Unharmed || ch[1].Name != "Hugh" || ch[1].Need != 17 || !ch[1].Unharmed {
			t.Fatalf("checks %+v", ch)
		}
		cp := find[*battle.CaptureEvent](out)
		if len(cp) != 1 || cp[0].Name != "Jean" || cp[0].Fate != c.fate || cp[0].Card != c.card.String() {
			t.Fatalf("%v: capture %+v, want %s", c.card, cp, c.fate)
		}
		p := out.State.Units[0].Personality
		if p.Killed != (c.fate == "killed") || p.Captured != (c.fate == "captured") {
			t.Errorf("%v: Jean %+v", c.card, p)
		}
	}
}

// TestOrdersPCSSixteen: a Personality of SR 6 whose unit wins checks
// under 16; failing wounds him and he draws (wounded in melee).
func TestOrdersPCSSixteen(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0, pers: &battle.PersonalitySpec{Name: "Jean", SR: 6}},
		u{side: 1, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 20, facing: 180})
	// Kn 20, 20, bonus 1 (2 strikes); Sp 20, 20; PCS 16 fails (not
	// under 16): wounded; the spearmen's morale (1DM? 2 strikes: 1) none;
	// the card for the wounded Jean.
	out := play(t, b, b.Start(), []int{20, 20, 1, 20, 20, 16}, []strike.Card{{Rank: 4, Suit: "C"}}, "CHARGE Kn1 AT Sp1")
	ch := find[*battle.CheckEvent](out)
	if len(ch) != 1 || ch[0].Need != 16 || ch[0].Unharmed {
		t.Fatalf("checks %+v", ch)
	}
	if !out.State.Units[0].Personality.Wounded {
		t.Error("not wounded")
	}
	if cp := find[*battle.CaptureEvent](out); len(cp) != 1 || cp[0].Fate != "escaped" {
		t.Errorf("captures %+v", cp)
	}
}

// TestOrdersRefused: a block with a line against the rules is refused
// as a whole, naming the line, the rule and what is legal.
func TestOrdersRefused(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 10, y: 4, facing: 0},
		u{side: 0, id: "Lb1", ty: "LB", files: 2, ranks: 1, x: 30, y: 10, facing: 0},
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 10, y: 8, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 10, y: 34, facing: 180},
		u{side: 1, id: "Sk2", ty: "Sk", files: 2, ranks: 1, x: 30, y: 20, facing: 180})
	cases := []struct {
		name  string
		lines []string
		line  int
		rule  string
		want  string
		legal string
	}{
		{"too far", []string{"MOVE Sp1 2", "MOVE Kn1 8"}, 2, battle.RuleMovement, `Kn1 may move at most 6"`, "MOVE Kn1 6"},
		{"too far back", []string{"MOVE Sp1 BACK 3"}, 1, battle.RuleMovement, `Sp1 may move back at most 2"`, "MOVE Sp1 BACK 2"},
		{"through a friend", []string{"MOVE Kn1 5"}, 1, battle.RuleMovement, "would run into Sp1", `MOVE Kn1 3`},
		{"off the table", []string{"MOVE Kn1 BACK 3"}, 1, battle.RuleMovement, "table's edge", ""},
		{"wheel too far", []string{"WHEEL Kn1 RIGHT 120"}, 1, battle.RuleMovement, "may wheel at most 85°", "WHEEL Kn1 RIGHT 85"},
		{"unknown unit", []string{"MOVE Kn9 2"}, 1, battle.Syntax, `no unit "Kn9"`, "Kn1"},
		{"enemy unit", []string{"MOVE Cv2 2"}, 1, battle.Syntax, "a unit of the Red", "Kn1"},
		{"not an order", []string{"FLY Kn1"}, 1, battle.Syntax, `"FLY" is not an order`, ""},
		{"bad distance", []string{"MOVE Kn1 far"}, 1, battle.Syntax, `"far" is not a distance`, ""},
		{"END not last", []string{"END", "MOVE Kn1 2"}, 1, battle.Syntax, "END must be the last line", ""},
		{"out of range", []string{"SHOOT Lb1 AT Cv2"}, 1, battle.RuleEligible, "no stand of Lb1 has Cv2 within its arc and range", "SHOOT Lb1 AT Sk2"},
		{"split too many", []string{"SHOOT Lb1 3 AT Sk2"}, 1, battle.RuleSplit, "only 2 stands of Lb1 may shoot at Sk2, not 3", "SHOOT Lb1 AT Sk2"},
		{"split without counts", []string{"SHOOT Lb1 AT Sk2, AT Cv2"}, 1, battle.Syntax, "split fire gives stands for every target", ""},
		{"no weapon", []string{"SHOOT Kn1 AT Sk2"}, 1, battle.RuleEligible, "has no missile weapon", ""},
		{"charge out of reach", []string{"CHARGE Sp1 AT Cv2"}, 1, battle.RuleCharge, `Cv2 is 26" away; Sp1's charge move (3 moves) reaches 12"`, ""},
		{"MOVE left", []string{"MOVE Lb1 3", "MOVE Lb1 2"}, 2, battle.RuleMovement, `Lb1 may move at most 1" (its MOVE is 4", 3" used)`, "MOVE Lb1 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := battle.Apply(b, b.Start(), 0, lines(c.lines), strike.NewScript())
			var r *battle.Refusal
			if !errors.As(err, &r) {
				t.Fatalf("not refused: %v", err)
			}
			if r.Line != c.line || r.Rule != c.rule || !strings.Contains(r.Reason, c.want) {
				t.Errorf("refusal line %d rule %q: %s\nwant line %d rule %q: %s", r.Line, r.Rule, r.Reason, c.line, c.rule, c.want)
			}
			if c.legal != "" && !strings.Contains(strings.Join(r.Legal, "|"), c.legal) {
				t.Errorf("legal %q, want %q among them", r.Legal, c.legal)
			}
		})
	}
	// Not the side's block.
	if _, err := battle.Apply(b, b.Start(), 1, lines([]string{"END"}), strike.NewScript()); err == nil || !strings.Contains(err.Error(), "block of the Blue") {
		t.Errorf("side 1 out of turn: %v", err)
	}
}

// TestOrdersChargeRestrictions: spearmen may not charge ordered cavalry
// in the open from beyond 3" of its front (CHARGE RESTRICTIONS, the
// core's MayCharge), and the refusal says what would be legal.
func TestOrdersChargeRestrictions(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 20, y: 16, facing: 180})
	_, err := battle.Apply(b, b.Start(), 0, lines([]string{"CHARGE Sp1 AT Cv2"}), strike.NewScript())
	var r *battle.Refusal
	if !errors.As(err, &r) || r.Rule != battle.RuleRestrictions || !strings.Contains(r.Reason, `only within 3" of its front`) {
		t.Fatalf("%v", err)
	}
}

// TestOrdersMoveWheelTurn: the costs of MOVE, BACK, WHEEL and TURN and
// where they leave a unit.
func TestOrdersMoveWheelTurn(t *testing.T) {
	b := field(t, u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 2, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 20, y: 34, facing: 180})
	cases := []struct {
		lines  []string
		pos    table.Vec
		facing float64
		moved  float64
	}{
		{[]string{"MOVE Sp1 3"}, table.Vec{X: 20, Y: 13}, 0, 3},
		{[]string{"move sp1 back 1.5"}, table.Vec{X: 20, Y: 8.5}, 0, 3},
		{[]string{"WHEEL Sp1 RIGHT 45"}, table.Vec{X: 22 - 2*math.Cos(math.Pi/4), Y: 10 + 2*math.Sin(math.Pi/4)}, 45, 4 * math.Pi / 4},
		{[]string{"WHEEL Sp1 LEFT 30"}, table.Vec{X: 18 + 2*math.Cos(math.Pi/6), Y: 10 + 2*math.Sin(math.Pi/6)}, 330, 4 * math.Pi / 6},
		{[]string{"TURN Sp1 ABOUT"}, table.Vec{X: 20, Y: 8}, 180, 2},
		{[]string{"TURN Sp1 RIGHT"}, table.Vec{X: 21, Y: 9}, 90, 2},
		{[]string{"MOVE Sp1 2", "TURN Sp1 LEFT"}, table.Vec{X: 19, Y: 11}, 270, 4},
	}
	for _, c := range cases {
		out := play(t, b, b.Start(), nil, nil, c.lines...)
		got := out.State.Units[0]
		used := 0.0
		for _, m := range find[*battle.MovedEvent](out) {
			used += m.Inches
		}
		if got.Pos.Dist(c.pos) > 1e-9 || math.Abs(got.Facing-c.facing) > 1e-9 || math.Abs(used-c.moved) > 1e-9 {
			t.Errorf("%v: at %v facing %g used %g; want %v facing %g used %g", c.lines, got.Pos, got.Facing, used, c.pos, c.facing, c.moved)
		}
		if got.Moved != 0 {
			t.Errorf("%v: the block's flags outlive it: moved %g", c.lines, got.Moved)
		}
	}
}

// TestOrdersContinuingMelee: units left in contact fight again in the
// block of the side whose units they are, that side attacking (R549);
// with no strike on either side the tie goes to the defender and the
// attacker retreats ½ move.
func TestOrdersContinuingMelee(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Kn1", ty: "Kn", files: 2, ranks: 1, x: 20, y: 12, facing: 0},
		u{side: 1, id: "Maa1", ty: "Maa", files: 4, ranks: 1, x: 20, y: 12, facing: 180})
	// Kn 2 dice, Maa 4 (2 in contact, 2 overlapping).
	out := play(t, b, b.Start(), []int{20, 20, 20, 20, 20, 20}, nil, "END")
	m := find[*battle.MeleeEvent](out)
	if len(m) != 1 || m[0].Attacker.Unit != "Kn1" || m[0].Defender.Fighters != 4 {
		t.Fatalf("melee %+v", m)
	}
	if mv := find[*battle.MovedEvent](out); len(mv) != 1 || mv[0].Order != battle.MoveRetreat || mv[0].Inches != 3 {
		t.Errorf("moves %+v", mv)
	}
	// In contact, Kn1 may neither move nor shoot nor charge.
	_, err := battle.Apply(b, b.Start(), 0, lines([]string{"MOVE Kn1 BACK 1"}), strike.NewScript())
	var r *battle.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Reason, "in contact with Maa1") {
		t.Errorf("move in contact: %v", err)
	}
}

// TestOrdersRally: a disordered unit that stands still through its
// side's block, touching no enemy, rallies (R550); one that moves does
// not.
func TestOrdersRally(t *testing.T) {
	b := field(t,
		u{side: 0, id: "Sp1", ty: "Sp", files: 2, ranks: 1, x: 20, y: 10, facing: 0},
		u{side: 1, id: "Cv2", ty: "Cv", files: 2, ranks: 1, x: 20, y: 34, facing: 180})
	for _, c := range []struct {
		lines []string
		still bool
	}{{[]string{"END"}, false}, {[]string{"MOVE Sp1 1"}, true}} {
		st := b.Start()
		st.Units[0].Disordered = true
		out := play(t, b, st, nil, nil, c.lines...)
		if out.State.Units[0].Disordered != c.still {
			t.Errorf("%v: disordered %v, want %v", c.lines, out.State.Units[0].Disordered, c.still)
		}
	}
}
