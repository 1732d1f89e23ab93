package strike

import (
	"bytes"
	"errors"
	"math/rand"
	"strings"
	"testing"

	core "herald/engine/strike"
	"herald/engine/strike/battle"
	"herald/engine/strike/table"
	"herald/mapimg/tabletop"
	"herald/pbem/system"
)

// logDice is a seam Dice from a seeded source that logs its rolls.
type logDice struct {
	r    *rand.Rand
	log  []system.Roll
	fail bool
}

func (d *logDice) Roll(p string) (int, error) { return d.RollN(p, 10) }
func (d *logDice) RollN(p string, faces int) (int, error) {
	if d.fail {
		return 0, errors.New("the dice log is closed")
	}
	v := d.r.Intn(faces)
	d.log = append(d.log, system.Roll{Index: len(d.log), Purpose: p, Faces: faces, Value: v})
	return v, nil
}

// fixed is a seam Dice that returns given values.
type fixed struct {
	vals []int
	log  []string
}

func (f *fixed) Roll(p string) (int, error) { return f.RollN(p, 10) }
func (f *fixed) RollN(p string, faces int) (int, error) {
	v := f.vals[0]
	f.vals = f.vals[1:]
	f.log = append(f.log, p)
	return v, nil
}

func mauron(t *testing.T) *Battle {
	t.Helper()
	s := New(nil)
	if s.ID() != "strike" || len(s.Battles()) != 1 || s.Battles()[0] != "mauron" {
		t.Fatalf("system %s battles %v", s.ID(), s.Battles())
	}
	b, err := s.Battle("mauron")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Battle("agincourt"); err == nil {
		t.Error("an unknown battle loaded")
	}
	return b.(*Battle)
}

func TestCardOf(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "AS"}, {9, "10S"}, {12, "KS"}, {13, "AH"}, {25, "KH"}, {26, "AD"}, {38, "KD"}, {39, "AC"}, {50, "QC"}, {51, "KC"}, {52, "Joker"}, {53, "Joker"}} {
		got, err := CardOf(c.n)
		if err != nil || got.String() != c.want || !got.Valid() {
			t.Errorf("CardOf(%d) = %v %v, want %s", c.n, got, err, c.want)
		}
	}
	for _, n := range []int{-1, 54} {
		if _, err := CardOf(n); err == nil {
			t.Errorf("CardOf(%d) gave a card", n)
		}
	}
	// The whole deck: 52 distinct cards and 2 Jokers.
	seen := map[string]int{}
	for n := 0; n < 54; n++ {
		c, _ := CardOf(n)
		seen[c.String()]++
	}
	if len(seen) != 53 || seen["Joker"] != 2 {
		t.Errorf("deck %v", seen)
	}
}

func TestDiceOf(t *testing.T) {
	f := &fixed{vals: []int{0, 19, 25, 53}}
	d := DiceOf(f)
	for _, want := range []int{1, 20} {
		if v, err := d.Roll20("a stand"); err != nil || v != want {
			t.Errorf("Roll20 = %d %v, want %d", v, err, want)
		}
	}
	if c, err := d.Card("capture"); err != nil || c.String() != "KH" {
		t.Errorf("card 25 = %v %v", c, err)
	}
	if c, err := d.Card("capture"); err != nil || !c.Joker {
		t.Errorf("card 53 = %v %v", c, err)
	}
	if strings.Join(f.log, "|") != "a stand|a stand|capture|capture" {
		t.Errorf("purposes %v", f.log)
	}
	if _, err := DiceOf(&logDice{fail: true}).Roll20("x"); err == nil {
		t.Error("a failing log gave a roll")
	}
}

// TestPlayThroughTheSeam: an illegal block is a *system.Illegal naming
// line, rule and what is legal; a legal one gives events, a new state,
// narration citing the fragment with every die by its purpose, and the
// state's Turn offers lines the next block accepts.
func TestPlayThroughTheSeam(t *testing.T) {
	b := mauron(t)
	st, _ := b.Start()
	if tu := st.Turn(); tu.Side != 0 || tu.Label != "Turn 1, the French move" || len(tu.Legal) == 0 || !strings.Contains(tu.Waiting, "orders of the French") {
		t.Fatalf("turn %+v", tu)
	}
	_, err := b.Play(st, 0, []system.Line{{No: 3, Text: "MOVE Kn1 9"}}, &logDice{r: rand.New(rand.NewSource(1))})
	var il *system.Illegal
	if !errors.As(err, &il) || il.Line != 3 || il.Rule != battle.RuleMovement || !strings.Contains(il.Reason, `Kn1 may move at most 6"`) || len(il.Legal) != 1 || il.Legal[0] != "MOVE Kn1 6" {
		t.Fatalf("illegal: %#v", err)
	}
	for _, l := range st.Turn().Legal {
		if _, err := b.Play(st, 0, []system.Line{{No: 1, Text: l}}, &logDice{r: rand.New(rand.NewSource(2))}); errors.As(err, &il) {
			t.Errorf("Turn().Legal offers %q, refused: %v", l, err)
		}
	}
	// The French advance; the English shoot.
	d := &logDice{r: rand.New(rand.NewSource(3))}
	res, err := b.Play(st, 0, []system.Line{{No: 1, Text: "MOVE Maa1 4"}, {No: 2, Text: "move kn1 6"}, {No: 3, Text: "END"}}, d)
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Move() != 1 || res.State.Turn().Side != 1 || len(res.Events) != 3 {
		t.Fatalf("after the French: move %d turn %+v, %d events", res.State.Move(), res.State.Turn(), len(res.Events))
	}
	d = &logDice{r: rand.New(rand.NewSource(4))}
	res2, err := b.Play(res.State, 1, []system.Line{{No: 1, Text: "SHOOT Lb1 AT Kn1"}}, d)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := b.Narrate(res2.Events, d.log, 1)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{"Lb1 (Archers of the left) shoot at Kn1 with", "(SHOOTING PROCEDURE)", "d20 for Lb1 Archers of the left stand 1 shoots at Kn1 Knights of the Star (",
		"Jean de Beaumanoir with Kn1, under fire: d20 for his check (under 20)", "(PERSONALITIES UNDER FIRE)", "The English end their block of turn 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("narration lacks %q:\n%s", want, text)
		}
	}
	if _, err := b.Narrate(res2.Events, d.log[1:], 1); err == nil {
		t.Error("narration with a die missing from the batch")
	}
	// Encode and Decode round trip; a state of another battle is refused.
	dec, err := b.Decode(res2.State.Encode())
	if err != nil || !bytes.Equal(dec.Encode(), res2.State.Encode()) {
		t.Fatalf("decode: %v", err)
	}
	if _, err := b.Decode([]byte(`{"turn":1}`)); err == nil {
		t.Error("a broken state decoded")
	}
	if _, err := b.Play(st, 1, nil, d); !errors.As(err, &il) || !strings.Contains(il.Reason, "block of the French") {
		t.Errorf("out of turn: %v", err)
	}
	if len(b.Help(0)) < 7 || !strings.HasPrefix(b.Help(0)[0], "MOVE") {
		t.Errorf("help %v", b.Help(0))
	}
}

// TestAutoGamesThroughPlay plays 20 random games of the house battle to
// their end through the seam's Play, Auto writing both sides' blocks:
// after every block Replay of all events gives the state byte for byte
// and no two units overlap.
func TestAutoGamesThroughPlay(t *testing.T) {
	b := mauron(t)
	for seed := int64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewSource(seed * 7))
		st, _ := b.Start()
		var all [][]byte
		for n := 0; ; n++ {
			if st.Outcome() != nil {
				break
			}
			if n > 2*b.B.Turns {
				t.Fatalf("seed %d: no end after %d blocks", seed, n)
			}
			s := st.(*State).S
			var ls []system.Line
			for i, l := range battle.Auto(b.B, s, s.Side, rng) {
				ls = append(ls, system.Line{No: i + 1, Text: l})
			}
			d := &logDice{r: rng}
			res, err := b.Play(st, s.Side, ls, d)
			if err != nil {
				t.Fatalf("seed %d block %d: %v\n%v", seed, n, err, ls)
			}
			if _, err := b.Narrate(res.Events, d.log, 0); err != nil {
				t.Fatalf("seed %d: narrate: %v", seed, err)
			}
			all = append(all, res.Events...)
			re, err := battle.Replay(b.B, all)
			if err != nil || !bytes.Equal(re.Encode(), res.State.Encode()) {
				t.Fatalf("seed %d block %d: replay differs (%v)", seed, n, err)
			}
			after := res.State.(*State).S
			for i := range after.Units {
				for j := i + 1; j < len(after.Units); j++ {
					if after.Units[i].On() && after.Units[j].On() && overlapping(after.Footprint(b.B, i).Outline(), after.Footprint(b.B, j).Outline()) {
						t.Fatalf("seed %d block %d: %s and %s overlap", seed, n, after.Units[i].ID, after.Units[j].ID)
					}
				}
			}
			if _, err := SceneOf(b.B, s, after, res.Events); err != nil {
				t.Fatalf("seed %d: scene: %v", seed, err)
			}
			st = res.State
		}
		t.Logf("seed %d: %s", seed, st.Outcome().Reason)
	}
}

func overlapping(a, b table.Polygon) bool {
	c := table.Centre(a)
	var s table.Polygon
	for _, v := range a {
		s = append(s, c.Add(v.Sub(c).Scale(1-1e-5)))
	}
	return table.Intersects(s, b)
}

// TestSceneOf: the opening scene shows the table, its areas and every
// stand; after a volley it shows the shot, the shooter's arc and range,
// and the stands the target has left.
func TestSceneOf(t *testing.T) {
	b := mauron(t)
	st := b.B.Start()
	sc, err := SceneOf(b.B, nil, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Width != 48 || sc.Height != 36 || sc.Sides != b.B.Sides || len(sc.Areas) != 3 || sc.Areas[0].Kind != "higher ground" || sc.Areas[1].Kind != "obstacle" || sc.Areas[2].Kind != "gentle slope" {
		t.Fatalf("scene %+v", sc)
	}
	if len(sc.Units) != len(b.B.Units) || len(sc.Marks) != 0 {
		t.Fatalf("%d units, %d marks", len(sc.Units), len(sc.Marks))
	}
	maa := sc.Units[b.B.Index("Maa1")]
	if len(maa.Stands) != 8 || maa.Personality != "Guy de Nesle" || maa.Side != 0 || maa.Facing != 0 || maa.Front != (tabletop.Vec{X: 25, Y: 8}) {
		t.Errorf("Maa1 %+v", maa)
	}
	// The front-left corner of Maa1's first stand: 4 stands of 2" each
	// side of x 25, facing up the table.
	if maa.Stands[0][0] != (tabletop.Vec{X: 21, Y: 8}) || maa.Stands[0][2] != (tabletop.Vec{X: 23, Y: 7}) {
		t.Errorf("first stand %v", maa.Stands[0])
	}
	// Lb1 shoots Kn1 after the knights come on: scripted to take a stand.
	st.Units[b.B.Index("Kn1")].Pos = table.Vec{X: 13, Y: 14}
	st.Units[b.B.Index("Kn1")].Facing = 0
	st.Side = 1
	// 6 stands of trained longbow at effective range, CV 10 (doubles on
	// 5): six 1s, 12 strikes: 4DM on 3 stands of knights (3 figures a
	// stand): one stand lost; the Personality's check 1; the morale 1.
	sd := core.NewScript(1, 1, 1, 1, 1, 1, 1, 1)
	out, err := battle.Apply(b.B, st, 1, []battle.Line{{No: 1, Text: "SHOOT Lb1 AT Kn1"}}, sd)
	if err != nil {
		t.Fatal(err)
	}
	var evs [][]byte
	for _, e := range out.Events {
		evs = append(evs, e.Encode())
	}
	sc, err = SceneOf(b.B, st, out.State, evs)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, m := range sc.Marks {
		kinds[m.Kind]++
		if m.Kind == "shot" && (m.Side != 1 || len(m.Path) != 2 || m.Label != "12 strikes") {
			t.Errorf("shot %+v", m)
		}
		if m.Kind == "range" && m.Label != `24"` {
			t.Errorf("range %+v", m)
		}
	}
	if kinds["shot"] != 1 || kinds["arc"] != 1 || kinds["range"] != 1 {
		t.Errorf("marks %v", kinds)
	}
	kn := sc.Units[b.B.Index("Kn1")]
	if len(kn.Stands) != 2 || !kn.Highlight || kn.Personality != "Jean de Beaumanoir" {
		t.Errorf("Kn1 %+v", kn)
	}
	if sc.Units[b.B.Index("Sp2")].Highlight {
		t.Error("Sp2 did nothing and is highlighted")
	}
	// A renderer given to New gets this scene.
	var got tabletop.Scene
	sys := New(func(s tabletop.Scene) ([]byte, error) { got = s; return []byte("png"), nil })
	bt, _ := sys.Battle("mauron")
	png, err := bt.Picture(&State{b: b.B, S: st}, &State{b: b.B, S: out.State}, evs)
	if err != nil || string(png) != "png" || len(got.Marks) != len(sc.Marks) {
		t.Errorf("picture %q %v, %d marks", png, err, len(got.Marks))
	}
	if _, err := b.Picture(nil, &State{b: b.B, S: out.State}, evs); err == nil {
		t.Error("a picture without a renderer")
	}
}

// TestNarrateDuelAndCharge: a duel the faster shooter opens is told as
// such (RATE OF FIRE), and a charge's second move cites the advance to
// contact and the match up.
func TestNarrateDuelAndCharge(t *testing.T) {
	m := mauron(t)
	tb := m.B.Tables
	b := &battle.Battle{ID: "t", Title: "T", Sides: [2]string{"Blue", "Red"}, Table: table.Table{Width: 48, Height: 36}, Turns: 2,
		Victory: battle.Victory{StandsLost: 1}, Tables: tb, Units: []battle.UnitSpec{
			{ID: "Cb1", Name: "Crossbows", Side: 0, Type: tb.Troops["CB"], Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1, Pos: table.Vec{X: 10, Y: 10}},
			{ID: "Kn1", Name: "Knights", Side: 0, Type: tb.Troops["Kn"], Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 2, Pos: table.Vec{X: 30, Y: 10}},
			{ID: "Lb2", Name: "Bows", Side: 1, Type: tb.Troops["LB"], Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1, Pos: table.Vec{X: 10, Y: 20}, Facing: 180},
			{ID: "Sp2", Name: "Spears", Side: 1, Type: tb.Troops["Sp"], Files: 2, Ranks: 1, StandWidth: 2, StandDepth: 1, Pos: table.Vec{X: 30, Y: 22}, Facing: 180},
		}}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
	bt := &Battle{B: b}
	st, _ := bt.Start()
	d := &logDice{r: rand.New(rand.NewSource(9))}
	res, err := bt.Play(st, 0, []system.Line{{No: 1, Text: "SHOOT Cb1 AT Lb2"}, {No: 2, Text: "CHARGE Kn1 AT Sp2"}}, d)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := bt.Narrate(res.Events, d.log, 0)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"Lb2 (Bows) must shoot back, and with the higher rate of fire roll first, at Cb1 with 2 stands (RATE OF FIRE (ROF))",
		"Cb1 (Crossbows) shoot at Lb2 with",
		"Kn1 (Knights) charges 6\" towards Sp2, now facing 0° (1. DECLARE CHARGES and ADVANCE 1 MOVE)",
		"Kn1 (Knights) charges 6\" towards Sp2, now facing 0° (3. ADVANCE CHARGING UNIT TO CONTACT, 4. MATCH UP)",
		"Melee: Kn1 against Sp2's front (5. MELEE RESOLUTION)",
		"Kn1 is the original loser (ties always go to the defender or counter-charger)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("narration lacks %q:\n%s", want, text)
		}
	}
}

// TestNarrateEveryMove: every kind of move a block can make is told with
// its verb.
func TestNarrateEveryMove(t *testing.T) {
	b := mauron(t)
	for order, verb := range map[string]string{
		battle.MoveForward: "moves forward", battle.MoveBack: "moves back", battle.MoveWheel: "wheels", battle.MoveTurn: "turns",
		battle.MoveCharge: "charges", battle.MoveCounter: "counter-charges", battle.MoveRetreat: "retreats",
		battle.MoveFallBack: "falls back", battle.MoveRetire: "retires",
	} {
		e := battle.Event{Name: battle.EvMoved, Data: &battle.MovedEvent{Unit: "Kn1", Order: order, Inches: 2}}
		lines, err := b.Narrate([][]byte{e.Encode()}, nil, 0)
		if err != nil || len(lines) != 1 || !strings.HasPrefix(lines[0], "Kn1 (Knights of the Star) "+verb) || !strings.HasSuffix(lines[0], ")") {
			t.Errorf("%s: %q %v", order, lines, err)
		}
	}
}
