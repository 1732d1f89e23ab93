package mapimg

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

func hx(s string) hex.Hex {
	h, err := hex.Parse(s)
	if err != nil {
		panic(err)
	}
	return h
}

func hexes(ss ...string) []hex.Hex {
	var out []hex.Hex
	for _, s := range ss {
		out = append(out, hx(s))
	}
	return out
}

// busy is a French block on Crécy that does a little of everything in a
// few hexes before the English line: Alençon's horse Charges LB4, which
// is eliminated and advanced upon, and Shocks DM2, which is Disordered and
// retreats, as does MA2; Doria's crossbowmen move up and fire, LB5 is
// Disordered and retreats. Four tags want the same few hexes.
func busy(t testing.TB) (sc *engine.Scenario, before, after *engine.State, events []engine.Event) {
	sc, start := crecy(t)
	before = start.Clone()
	before.Move = 6
	before.Unit("MA1").Hex, before.Unit("MA1").Facing = hx("0904"), hex.FaceW
	before.Unit("MA2").Hex, before.Unit("MA2").Facing = hx("0705"), hex.FaceW
	before.Unit("MA3").Hex, before.Unit("MA3").Facing = hx("0906"), hex.FaceW
	before.Unit("MA4").Hex, before.Unit("MA4").Facing = hx("0908"), hex.FaceW
	events = []engine.Event{
		engine.OrdersApplied{Side: 1, Move: 7},
		engine.CommandActivated{Command: "alencon"},
		engine.ChargeMade{Unit: "MA1", Target: "LB4", Path: hexes("0804", "0704"), Facing: hex.FaceW},
		engine.ChargeHome{Unit: "MA1"},
		engine.AttackResolved{Attackers: []string{"MA1"}, Defender: "LB4", Table: "Charge Combat Results Table", Result: "Defender Eliminated"},
		engine.UnitEliminated{Unit: "LB4"},
		engine.UnitAdvanced{Unit: "MA1", From: hx("0704"), To: hx("0604")},
		engine.AttackResolved{Attackers: []string{"MA2"}, Defender: "DM2", Table: "Shock Combat Results Table", Result: "Both Disordered, Defender Retreats"},
		engine.UnitDisordered{Unit: "DM2"},
		engine.UnitDisordered{Unit: "MA2"},
		engine.UnitRetreated{Unit: "DM2", Path: hexes("0505")},
		engine.UnitMoved{Unit: "CB2", Path: hexes("1007", "0907", "0807"), Facing: hex.FaceW},
		engine.UnitFired{Unit: "CB2", Target: "LB5", Result: "Disordered, Retreat"},
		engine.UnitDisordered{Unit: "LB5"},
		engine.UnitRetreated{Unit: "LB5", Path: hexes("0506")},
		engine.UnitMoved{Unit: "CB3", Path: hexes("1009", "0909"), Facing: hex.FaceW},
		engine.UnitFired{Unit: "CB3", Target: "LB1", Result: "No effect"},
	}
	after = before.Clone()
	after.Move = 7
	after.Unit("MA1").Hex = hx("0604")
	after.Unit("LB4").Status = engine.Eliminated
	for id, h := range map[string]string{"DM2": "0505", "LB5": "0506", "MA2": "0705"} {
		after.Unit(id).Hex, after.Unit(id).Status = hx(h), engine.Disordered
	}
	after.Unit("CB2").Hex, after.Unit("CB3").Hex = hx("0807"), hx("0909")
	return sc, before, after, events
}

func TestMarksOfABusyBlock(t *testing.T) {
	sc, before, after, events := busy(t)
	var got []string
	for _, m := range Marks(sc, before, after, events) {
		got = append(got, strings.TrimSpace(fmt.Sprintf("%d %s %v %s", m.Kind, m.Unit, m.Hexes, m.Label)))
	}
	want := []string{
		"0  [0604]", "0  [0705]", "0  [0906]", "0  [0908]", // the rings of Alençon's units, where they end
		"5 MA1 [0904 0804 0704 0604]", // one Charge arrow, into LB4's hex, the Advance included
		"7 LB4 [0604]",                // LB4 crossed out where it fell
		"4 MA2 [0705 0605]",           // a Shock arrow
		"6 DM2 [0605 0505]",           // a retreat
		"1 CB2 [1107 1007 0907 0807]", // a move
		"2 CB2 [0807 0606]",           // fire, from where CB2 stood to where LB5 stood
		"6 LB5 [0606 0506]",
		"1 CB3 [1109 1009 0909]",
		"2 CB3 [0909 0610]",
		// One tag per unit, where it ended, its results in order.
		"3 LB4 [0604] LB4 eliminated",
		"3 DM2 [0505] DM2 disordered, retreats",
		"3 MA2 [0705] MA2 disordered",
		"3 LB5 [0506] LB5 disordered, retreats",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("marks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// No tag overlaps another, nor a counter, a hex number, a leader, a flag,
// an eliminated unit or an arrowhead; no arrowhead covers a unit's id.
func TestTagsDoNotCollide(t *testing.T) {
	sc, before, after, events := busy(t)
	marks := Marks(sc, before, after, events)
	for _, opt := range []Options{ForMail(marks), {Marks: marks}, {Marks: marks, Crop: true, HexSize: 30}, {Marks: marks, Crop: true, Margin: 1, HexSize: MinHexSize}} {
		t.Run(fmt.Sprintf("hex %v phone %v crop %v", opt.HexSize, opt.Phone, opt.Crop), func(t *testing.T) {
			p, err := plan(sc, after, opt)
			if err != nil {
				t.Fatal(err)
			}
			s := p.scene
			var tags int
			for i, a := range s.items {
				if a.kind == boxTag {
					tags++
				}
				for _, b := range s.items[i+1:] {
					if !a.b.overlaps(b.b) || !collide(a, b) {
						continue
					}
					t.Errorf("%s %q at %v overlaps %s %q at %v", kindName[a.kind], a.name, a.b, kindName[b.kind], b.name, b.b)
				}
			}
			if tags != 4 {
				t.Errorf("%d tags placed, want 4", tags)
			}
		})
	}
}

// collide says which pairs of boxes must not overlap: a tag with anything,
// an arrowhead with a unit's id or a hex number, and hex numbers with each
// other.
func collide(a, b item) bool {
	if a.kind == boxHead {
		a, b = b, a
	}
	switch {
	case a.kind == boxTag || b.kind == boxTag:
		return true
	case b.kind == boxHead:
		return a.kind == boxUnitID || a.kind == boxHexNumber
	}
	return a.kind == boxHexNumber && b.kind == boxHexNumber
}

var kindName = map[boxKind]string{boxHexNumber: "hex number", boxCounter: "counter", boxUnitID: "unit id", boxMarker: "marker",
	boxLeader: "leader", boxStandard: "standard", boxGhost: "eliminated unit", boxHead: "arrowhead", boxTag: "tag"}

// Every symbol drawn on the map has its line in the legend.
func TestLegendNamesEverySymbolDrawn(t *testing.T) {
	sc, before, after, events := busy(t)
	marks := Marks(sc, before, after, events)
	mid := midGame(t, sc)
	for name, tc := range map[string]struct {
		st  *engine.State
		opt Options
	}{
		"busy block, mail":     {after, ForMail(marks)},
		"busy block, whole":    {after, Options{Marks: marks}},
		"opening, whole":       {engine.NewState(sc), Options{}},
		"mid-game, whole":      {mid, Options{}},
		"mid-game, small crop": {mid, Options{Marks: []Mark{{Kind: MarkActive, Hexes: hexes("0610")}}, Crop: true, Margin: 1}},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := plan(sc, tc.st, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			keyed := map[string]bool{}
			for _, l := range p.key {
				for _, it := range l.items {
					if it.sym != "" {
						keyed[it.sym] = true
					}
				}
			}
			c := paint(sc, tc.st, tc.opt, p, nil)
			if len(c.drawn) < 5 {
				t.Fatalf("only %v drawn", c.drawn)
			}
			for sym := range c.drawn {
				if !keyed[sym] {
					t.Errorf("%q is drawn but not in the legend", sym)
				}
			}
		})
	}
	// The busy block shows every kind of arrow, the ring, the crossed-out
	// unit and the tags.
	p, _ := plan(sc, after, ForMail(marks))
	c := paint(sc, after, ForMail(marks), p, nil)
	for _, sym := range []string{symRing, symMove, symCharge, symShock, symFire, symRetreat, symGone, symTag, symDisordered, symStripe + "alencon", symStripe + "northampton"} {
		if !c.drawn[sym] {
			t.Errorf("the busy block's map does not draw %q", sym)
		}
	}
}

// The mail's map of the busy block is the golden image of the overlay:
// the drawing (Render); the PNG's palette is TestMailMapsPaletted's.
func TestGoldenBusyBlock(t *testing.T) {
	sc, before, after, events := busy(t)
	got, err := Render(sc, after, ForMail(Marks(sc, before, after, events)))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("testdata", "crecy-busy-block.png")
	if *update {
		var b bytes.Buffer
		png.Encode(&b, got)
		os.WriteFile(file, b.Bytes(), 0o644)
		return
	}
	golden(t, got, file)
}

// A Charge the engine resolves is one arrow from where the unit stood,
// through its path, into the defender's hex; no separate Shock arrow. A
// Continued Attack after it is a Shock arrow (12.7), beside the retreat
// it follows.
func TestMarksOfAnEngineCharge(t *testing.T) {
	sc, err := data.Scenario("melee-test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dice []int
		want []string
	}{
		// A roll of 1, modified to 4 on the Charge table: Attacker Disordered.
		{[]int{1}, []string{"5 SK2 [0305 0304 0404 0403]", "3 SK2 [0404] SK2 disordered"}},
		// 9, modified to 12: EM1 Disordered and retreats, SK2 advances and
		// attacks again; 3, modified to 2 on the Shock table: no effect.
		{[]int{9, 3}, []string{"5 SK2 [0305 0304 0404 0403]", "6 EM1 [0403 0502]", "4 SK2 [0403 0502]", "3 EM1 [0502] EM1 disordered, retreats"}},
	} {
		st := engine.NewState(sc)
		res, err := engine.Apply(sc, st, st.Pending.Side, mustParse(t, "ACTIVATE Douglas"), engine.NewScript())
		if err != nil {
			t.Fatal(err)
		}
		st = res.State
		res, err = engine.Apply(sc, st, st.Pending.Side, mustParse(t, "CHARGE SK2 AT EM1 0304 0404\nEND"), engine.NewScript(tc.dice...))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		marks := Marks(sc, st, res.State, res.Events)
		for _, m := range marks {
			if m.Kind != MarkActive {
				got = append(got, strings.TrimSpace(fmt.Sprintf("%d %s %v %s", m.Kind, m.Unit, m.Hexes, m.Label)))
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("dice %v: marks:\n%s\nwant:\n%s", tc.dice, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		// Every arrow's head shows: none lies on another's.
		p, err := plan(sc, res.State, ForMail(marks))
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range p.scene.arrows {
			for _, b := range p.scene.arrows[i+1:] {
				if d := a.head[0].sub(b.head[0]).len(); d < p.l.size*0.25 {
					t.Errorf("dice %v: the heads of a %d and a %d arrow are %.0f pixels apart", tc.dice, a.kind, b.kind, d)
				}
			}
		}
	}
}

// A result mail's map: the busy block's area, for a phone, with its tags
// laid out.
func BenchmarkRenderMail(b *testing.B) {
	sc, before, after, events := busy(b)
	opt := ForMail(Marks(sc, before, after, events))
	for b.Loop() {
		if _, err := Render(sc, after, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// The map of one army shows all its units on the map, in fewer hexes than
// the map of both armies, so that a phone shows it legibly.
func TestForArmy(t *testing.T) {
	sc, st := crecy(t)
	both := place(t, sc, st, ForMail(nil))
	for side := range sc.Sides {
		l := place(t, sc, st, ForArmy(sc, st, engine.Side(side)))
		for i, u := range sc.Units {
			if u.Side == engine.Side(side) && !st.Units[i].OffMap && !l.inWindow(st.Units[i].Hex) {
				t.Errorf("side %d: %s at %s is not on its army's map", side, u.ID, st.Units[i].Hex)
			}
		}
		if l.maxCol-l.minCol >= both.maxCol-both.minCol || l.size <= both.size {
			t.Errorf("side %d: the army's map (columns %d-%d, %.0f-pixel hexes) is not closer than both armies' (%d-%d, %.0f)",
				side, l.minCol, l.maxCol, l.size, both.minCol, both.maxCol, both.size)
		}
	}
}
