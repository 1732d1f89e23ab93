package engine_test

import (
	"maps"
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses missile fire and Artillery (blood-and-roses.md 7.6, 11.1–
// 11.4, 12.3, 14.2, 14.4, 14.5), played through orders and scripted dice
// on the volume's house tables. Rulings R240–R259 are in
// docs/rulings.md.

// unlimbered places an Artillery unit on its unlimbered side; limbered on
// its limbered side.
func (g *game) artillery(id, at string, f hex.Facing, limbered bool) {
	g.t.Helper()
	g.troop(id, at, f, "ART")
	g.st.Unit(id).Limbered = limbered
}

// wantShot checks one UnitFired: firer, target, die, the modifiers (DRM and
// rule) in order, the total, the column and the result.
func wantShot(t *testing.T, got engine.UnitFired, unit, target string, die int, mods []string, total int, column, result string) {
	t.Helper()
	var have []string
	for _, m := range got.Roll.Mods {
		have = append(have, signed(m.DRM)+" "+m.Rule)
	}
	if got.Unit != unit || got.Target != target || got.Roll.Die != die || strings.Join(have, "; ") != strings.Join(mods, "; ") ||
		got.Roll.Total != total || got.Column != column || got.Result != result {
		t.Errorf("shot: %s at %s die %d mods [%s] total %d, %s: %q\nwant %s at %s die %d mods [%s] total %d, %s: %q\n(%s)",
			got.Unit, got.Target, got.Roll.Die, strings.Join(have, "; "), got.Roll.Total, got.Column, got.Result,
			unit, target, die, strings.Join(mods, "; "), total, column, result, modText(got.Roll.Mods))
	}
}

func eliminated(evs []engine.Event, unit string) (engine.UnitEliminated, bool) {
	for _, e := range evs {
		if x, ok := e.(engine.UnitEliminated); ok && x.Unit == unit {
			return x, true
		}
	}
	return engine.UnitEliminated{}, false
}

func count[T engine.Event](evs []engine.Event) int {
	n := 0
	for _, e := range evs {
		if _, ok := e.(T); ok {
			n++
		}
	}
	return n
}

// B&R 7.6: "A limbered Artillery unit can move; if it fires it is turned to
// its unlimbered side and thereafter may only fire or change facing. An
// unlimbered Artillery unit may change facing and fire in the same
// Activation." 11.1: "Artillery may only fire through their frontal
// hexes." LIMBER and UNLIMBER are answered by the rule (ruling R240).
func TestBRArtilleryLimberedAndUnlimbered(t *testing.T) {
	g := brMelee(t, 3, 4)
	g.artillery("AN1", "0505", hex.FaceE, true)
	g.artillery("AN2", "0303", hex.FaceE, false)
	g.troop("CA1", "0805", hex.FaceW, "INF")
	g.troop("CA2", "0306", hex.FaceNW, "INF")
	g.send(red, "ACTIVATE Anna")

	// Unlimbered Artillery does not move (7.6); it is not offered a MOVE.
	g.refuse(red, "MOVE AN2 0403", "B&R 7.6")
	legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
	if !strings.Contains(legal, "MOVE AN1 ") || strings.Contains(legal, "MOVE AN2 ") || !strings.Contains(legal, "FACE AN2 ") {
		t.Errorf("legal orders: want MOVE AN1 and FACE AN2 but no MOVE AN2:\n%s", legal)
	}
	// Nothing limbers or unlimbers but fire (ruling R240).
	for _, c := range []struct{ order, reason string }{
		{"LIMBER AN2", "never limbers again"},
		{"UNLIMBER AN2", "already unlimbered"},
		{"LIMBER AN1", "already limbered"},
		{"UNLIMBER AN1", "FIRE AN1 AT <enemy>"},
		{"LIMBER BE1", "not Artillery"},
		{"UNLIMBER XX9", `no unit called "XX9"`},
	} {
		if ill := g.refuse(red, c.order, "B&R 7.6"); !strings.Contains(ill.Reason, c.reason) {
			t.Errorf("%s: %q, want it to say %q", c.order, ill.Reason, c.reason)
		}
	}

	// Limbered, it moves, then fires: the fire unlimbers it, at no cost.
	evs := g.send(red, "MOVE AN1 0605 FACE E").Events
	if m := moves(evs); len(m) != 1 || m[0].MP != 1 || g.unit("AN1").Hex != h(t, "0605") {
		t.Fatalf("AN1's move: %s", g.story(evs))
	}
	evs = g.send(red, "FIRE AN1 AT CA1").Events
	var order []string
	for _, e := range evs {
		switch e := e.(type) {
		case engine.UnitUnlimbered:
			order = append(order, "unlimbered "+e.Unit)
		case engine.UnitFired:
			order = append(order, "fired "+e.Unit)
		}
	}
	if strings.Join(order, ", ") != "unlimbered AN1, fired AN1" {
		t.Errorf("events %v, want AN1 unlimbered as it fires:\n%s", order, g.story(evs))
	}
	f := shots(evs)
	if len(f) != 1 {
		t.Fatalf("shots: %s", g.story(evs))
	}
	// 3 +1 (Artillery at range 2) = 4: No Effect.
	wantShot(t, f[0], "AN1", "CA1", 3, []string{"+1 9.3"}, 4, "foot", "No Effect")
	if u := g.unit("AN1"); u.Limbered {
		t.Errorf("AN1 still limbered after its fire: %+v", u)
	}

	// 11.1: CA2 is down AN2's Flank; turned, AN2 fires in the same
	// Activation (7.6), and is not unlimbered again.
	g.refuse(red, "FIRE AN2 AT CA2", "B&R 11.1")
	g.send(red, "FACE AN2 SE")
	evs = g.send(red, "FIRE AN2 AT CA2").Events
	if n := count[engine.UnitUnlimbered](evs); n != 0 {
		t.Errorf("AN2 was unlimbered already: %s", g.story(evs))
	}
	f = shots(evs)
	if len(f) != 1 {
		t.Fatalf("shots: %s", g.story(evs))
	}
	// 4 +1 (range 3) = 5: Disordered.
	wantShot(t, f[0], "AN2", "CA2", 4, []string{"+1 9.3"}, 5, "foot", "Disordered")
	if g.unit("CA2").Status != engine.Disordered {
		t.Errorf("CA2 %+v, want Disordered", g.unit("CA2"))
	}
}

// B&R 7.6 in the battle's set-up: `limbered: true` only for a type with a
// limbered side; the state starts so.
func TestBRArtilleryStartsLimbered(t *testing.T) {
	g := brMelee(t)
	i := g.troop("AN1", "0505", hex.FaceE, "ART")
	g.sc.Units[i].Limbered = true
	if st := engine.NewState(g.sc); !st.Unit("AN1").Limbered || st.Unit("AN2").Limbered {
		t.Errorf("NewState: AN1 %+v, AN2 %+v; want only AN1 limbered", *st.Unit("AN1"), *st.Unit("AN2"))
	}
}

// B&R 11.1: "Artillery may fire at units up to ten (10) hexes away. You
// count the target hex, but not the firing hex"; 11.4: units block an
// Artillery unit's line of sight.
func TestBRArtilleryRangeTen(t *testing.T) {
	g := brMelee(t, 5)
	g.sc.Map.Grid.MaxRow = 20
	a := g.index("AN1")
	g.artillery("AN1", "0501", hex.FaceSE, false)
	c1 := g.troop("CA1", "0511", hex.FaceNW, "INF")
	c2 := g.troop("CA2", "0512", hex.FaceNW, "INF")
	g.wantFire(a, c1, false, "")
	if r := g.wantFire(a, c2, false, "9.1"); r != nil && !strings.Contains(r.Reason, "range of 10") {
		t.Errorf("refusal %q: want the range of 10", r.Reason)
	}
	g.send(red, "ACTIVATE Anna")
	f := shots(g.send(red, "FIRE AN1 AT CA1").Events)
	if len(f) != 1 {
		t.Fatal("no shot")
	}
	// 5 -2 (Artillery at range 10, house table) = 3: No Effect.
	wantShot(t, f[0], "AN1", "CA1", 5, []string{"-2 9.3"}, 3, "foot", "No Effect")
	g.troop("DO1", "0505", hex.FaceNW, "INF")
	if r := g.wantFire(a, c1, false, "9.4"); r != nil && !strings.Contains(r.Reason, "DO1 in 0505") {
		t.Errorf("refusal %q: want DO1 blocking", r.Reason)
	}
}

// B&R 11.3 Artillery/Handgun Reliability: "If a player rolls a natural
// '0' for an Artillery unit, the guns blow up and the unit is Eliminated.
// When a Handgun unit rolls a natural '0', some of its guns blow up and
// the unit is Disordered or if already Disordered, it is Retired. Unless
// the Handgun unit is Retired, the target of the Handgun unit's attack is
// still eligible to Return Fire ... This has no effect on other units or
// leaders." The shot has no effect on its target (ruling R241); a target
// whose firer is gone does not Return Fire (ruling R242). Each script
// holds exactly the dice the case may roll.
func TestBRReliabilityNaturalZero(t *testing.T) {
	for _, c := range []struct {
		name     string
		typ      string
		status   engine.Status
		dice     []int
		mods     []string
		want     engine.Status // the firer after
		returned bool
	}{
		{"Artillery blows up", "ART", engine.Normal, []int{0}, []string{"+1 9.3"}, engine.Eliminated, false},
		{"Handgun Disordered, fire returned", "HG", engine.Normal, []int{0, 3}, []string{"-1 9.3"}, engine.Disordered, true},
		{"Disordered Handgun Retired", "HG", engine.Disordered, []int{0}, []string{"-1 9.3", "-2 12.2"}, engine.Retired, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := brMelee(t, c.dice...)
			g.troop("AN1", "0505", hex.FaceE, c.typ)
			g.st.Unit("AN1").Status = c.status
			g.troop("CA1", "0705", hex.FaceW, "LB") // range 2: it may Return Fire
			g.lead("anna", "0505")
			g.lead("carl", "0705")
			g.send(red, "ACTIVATE Anna")
			evs := g.send(red, "FIRE AN1 AT CA1").Events
			f := shots(evs)
			if len(f) == 0 {
				t.Fatalf("no shot: %s", g.story(evs))
			}
			wantShot(t, f[0], "AN1", "CA1", 0, c.mods, 0+sum(f[0].Roll.Mods), "foot", "Misfire")
			if !f[0].Misfire || !strings.Contains(engine.Describe(g.sc, f[0]), "a natural 0, its guns blow up, with no effect on CA1 (B&R 11.3)") {
				t.Errorf("the misfire is not told: %s", engine.Describe(g.sc, f[0]))
			}
			if got := len(f) == 2 && f[1].Return && f[1].Unit == "CA1"; got != c.returned || len(f) > 2 {
				t.Errorf("Return Fire %v, want %v: %s", got, c.returned, g.story(evs))
			}
			if u := g.unit("AN1"); u.Status != c.want {
				t.Errorf("AN1 %v, want %v: %s", u.Status, c.want, g.story(evs))
			}
			if !strings.Contains(g.story(evs), "B&R 11.3") {
				t.Errorf("the firer's fate does not cite 11.3: %s", g.story(evs))
			}
			if u := g.unit("CA1"); u.Status != engine.Normal {
				t.Errorf("CA1 %v: a misfire has no effect on the target", u.Status)
			}
			if n := count[engine.LeaderCasualtyRolled](evs); n != 0 {
				t.Errorf("%d Leader Casualty checks: no effect on leaders", n)
			}
			if g.st.Leader("anna").Hex != h(t, "0505") || g.st.Leader("carl").Hex != h(t, "0705") {
				t.Errorf("leaders moved: anna %s, carl %s", g.st.Leader("anna").Hex, g.st.Leader("carl").Hex)
			}
		})
	}
}

// Without a natural 0 a firearm fires as any weapon: a die of 1 is no
// misfire.
func TestBRReliabilityOnlyNaturalZero(t *testing.T) {
	g := brMelee(t, 1)
	g.artillery("AN1", "0505", hex.FaceE, false)
	g.troop("CA1", "0605", hex.FaceW, "INF")
	g.send(red, "ACTIVATE Anna")
	evs := g.send(red, "FIRE AN1 AT CA1").Events
	f := shots(evs)
	if len(f) != 1 {
		t.Fatalf("shots: %s", g.story(evs))
	}
	// 1 +2 (Artillery at range 1) = 3: No Effect.
	wantShot(t, f[0], "AN1", "CA1", 1, []string{"+2 9.3"}, 3, "foot", "No Effect")
	if g.unit("AN1").Status != engine.Normal {
		t.Errorf("AN1 %v", g.unit("AN1").Status)
	}
}

// B&R 14.2: "When an Artillery unit suffers a Disorder result from missile
// fire, roll one die: if the DR is 4 or less the Artillery unit is
// Eliminated. if the DR is 5 or more, there is no effect." 14.4 and 14.5:
// a Retreat or Retire result Eliminates it.
func TestBRArtilleryFiredUpon(t *testing.T) {
	for _, c := range []struct {
		name   string
		dice   []int
		result string
		check  int // the Disorder check's die, -1 for none
		elim   string
	}{
		{"Disorder, check 4 eliminates", []int{5, 4}, "Disordered", 4, "B&R 14.2"},
		{"Disorder, check 5 no effect", []int{5, 5}, "Disordered", 5, ""},
		{"Disorder and Retreat, check 5, the Retreat eliminates", []int{7, 5}, "Disordered, Retreat 1 Hex", 5, "14.4"},
		{"Retire eliminates, no check", []int{9}, "Retire", -1, "14.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := brMelee(t, c.dice...)
			g.troop("AN1", "0505", hex.FaceE, "LB")
			g.artillery("CA1", "0605", hex.FaceW, false)
			g.send(red, "ACTIVATE Anna")
			evs := g.send(red, "FIRE AN1 AT CA1").Events
			f := shots(evs)
			if len(f) != 1 {
				t.Fatalf("shots (Artillery does not Return Fire): %s", g.story(evs))
			}
			wantShot(t, f[0], "AN1", "CA1", c.dice[0], []string{"+1 9.3"}, c.dice[0]+1, "foot", c.result)
			chk, ok := findEvent[engine.DisorderChecked](evs)
			switch {
			case c.check < 0 && ok:
				t.Errorf("a Disorder check without a Disorder result: %+v", chk)
			case c.check >= 0 && (!ok || chk.Unit != "CA1" || chk.Roll.Die != c.check || len(chk.Roll.Mods) != 0 || chk.Max != 4 || chk.Eliminated != (c.check <= 4)):
				t.Errorf("check %+v, want die %d unmodified against 4", chk, c.check)
			}
			if n := count[engine.UnitDisordered](evs); n != 0 {
				t.Errorf("Artillery is never Disordered: %s", g.story(evs))
			}
			e, gone := eliminated(evs, "CA1")
			switch {
			case c.elim == "" && (gone || g.unit("CA1").Status != engine.Normal):
				t.Errorf("CA1 %v, want no effect: %s", g.unit("CA1").Status, g.story(evs))
			case c.elim != "" && (!gone || !strings.Contains(e.Cause, c.elim) || g.unit("CA1").Status != engine.Eliminated):
				t.Errorf("CA1 %v, want Eliminated citing %s: %s", g.unit("CA1").Status, c.elim, g.story(evs))
			}
			if n := count[engine.UnitEliminated](evs); n > 1 {
				t.Errorf("eliminated %d times", n)
			}
		})
	}
}

// B&R 12.3: "Artillery units which suffer a Disorder, Retreat, or Retire
// result are instead Eliminated" (14.2 "from Shock or Charge combat"),
// once, whatever else the result holds.
func TestBRArtilleryShocked(t *testing.T) {
	for _, c := range []struct {
		die    int
		result string
	}{
		{0, "Defender Disordered"},                // 0 +2 WSM +3 Shock Defense = 5
		{2, "Defender Disordered, Retreat 1 Hex"}, // 7
		{5, "Defender Retired, Continued Attack"}, // 10
	} {
		t.Run(c.result, func(t *testing.T) {
			g := brMelee(t, c.die)
			x := "0505"
			g.artillery("CA1", x, hex.FaceW, false)
			g.troop("AN1", g.nb(x, hex.NW), hex.FaceSE, "INF")
			evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
			atts := resolved(evs)
			if len(atts) != 1 {
				t.Fatalf("attacks: %s", g.story(evs))
			}
			wantAttack(t, atts[0], "CA1", c.die, []string{"+3 10.4 #3", "+2 10.4 #6"}, c.die+5, "Shock", c.result)
			e, ok := eliminated(evs, "CA1")
			if !ok || !strings.Contains(e.Cause, "B&R 12.3, 14.2, 14.4, 14.5") || g.unit("CA1").Status != engine.Eliminated {
				t.Errorf("CA1 %v, want Eliminated citing B&R 12.3: %s", g.unit("CA1").Status, g.story(evs))
			}
			if count[engine.UnitEliminated](evs) != 1 || count[engine.UnitDisordered](evs) != 0 || count[engine.UnitRetreated](evs) != 0 || count[engine.UnitRetired](evs) != 0 {
				t.Errorf("want one Elimination and nothing else: %s", g.story(evs))
			}
		})
	}
}

// B&R 14.4: a unit retreating "through that unit an extra hex ... If the
// unit was an Artillery unit it is Eliminated."
func TestBRRetreatThroughArtillery(t *testing.T) {
	g := brMelee(t, 1) // 1 +2 WSM (MM at INF) +1 (Disordered INF) = 4 on the Disordered column
	x := "0505"
	g.troop("CA1", x, hex.FaceW, "INF")
	g.st.Unit("CA1").Status = engine.Disordered
	g.troop("AN1", g.nb(x, hex.NW), hex.FaceSE, "MM")
	// Away from AN1 in 0405, CA1 may retreat to 0605, 0606 or 0506: two
	// are held by Blue Infantry, 0605 by Blue Artillery, beyond it 0704
	// and 0705 are free.
	g.troop("CA2", g.nb(x, hex.SE), hex.FaceW, "INF")
	g.troop("DO2", g.nb(x, hex.S), hex.FaceW, "INF")
	g.artillery("DO1", g.nb(x, hex.NE), hex.FaceW, false)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	atts := resolved(evs)
	if len(atts) != 1 || atts[0].Result != "Defender Retreat 1 Hex" || atts[0].Roll.Total != 4 {
		t.Fatalf("want 4, Defender Retreat 1 Hex: %s", g.story(evs))
	}
	r, ok := findEvent[engine.UnitRetreated](evs)
	if !ok || r.Unit != "CA1" || len(r.Path) != 2 || r.Path[0] != h(t, g.nb(x, hex.NE)) {
		t.Fatalf("CA1's retreat %+v, want through DO1: %s", r, g.story(evs))
	}
	e, ok := eliminated(evs, "DO1")
	if !ok || !strings.Contains(e.Cause, "B&R 14.2") || g.unit("DO1").Status != engine.Eliminated {
		t.Errorf("DO1 %v, want Eliminated: %s", g.unit("DO1").Status, g.story(evs))
	}
	if count[engine.UnitDisordered](evs) != 0 {
		t.Errorf("Artillery is never Disordered: %s", g.story(evs))
	}
}

// blood-and-roses.md 11.3 EXAMPLE: "A Longbow firing at a range of 1 hex
// gets a DRM of +1. But if they are firing at Dismounted Men-at-Arms, that
// incurs an additional DRM of –1, for an accumulated DRM of 0." And 14.2,
// 2.2: a Disordered unit fires at –2.
func TestBRExample113LongbowAtDismountedMAA(t *testing.T) {
	g := brMelee(t, 6, 6)
	g.troop("AN1", "0505", hex.FaceE, "LB")
	g.troop("AN2", "0506", hex.FaceE, "LB")
	g.st.Unit("AN2").Status = engine.Disordered
	g.troop("CA1", "0605", hex.FaceW, "DM")
	g.troop("CA2", "0606", hex.FaceW, "DM")
	g.send(red, "ACTIVATE Anna")
	f := shots(g.send(red, "FIRE AN1 AT CA1").Events)
	if len(f) != 1 {
		t.Fatal("no shot")
	}
	// 6 +1 (Longbow, range 1) -1 (Dismounted MAA) = 6, DRM 0: Disordered.
	wantShot(t, f[0], "AN1", "CA1", 6, []string{"+1 9.3", "-1 11.3"}, 6, "foot", "Disordered")
	if sum(f[0].Roll.Mods) != 0 {
		t.Errorf("accumulated DRM %d, want 0 (11.3 Example)", sum(f[0].Roll.Mods))
	}
	f = shots(g.send(red, "FIRE AN2 AT CA2").Events)
	if len(f) != 1 {
		t.Fatal("no shot")
	}
	// 6 +1 -2 (Disordered, 14.2) -1 = 4: No Effect.
	wantShot(t, f[0], "AN2", "CA2", 6, []string{"+1 9.3", "-2 12.2", "-1 11.3"}, 4, "foot", "No Effect")
	if g.unit("CA1").Status != engine.Disordered || g.unit("CA2").Status != engine.Normal {
		t.Errorf("CA1 %v, CA2 %v", g.unit("CA1").Status, g.unit("CA2").Status)
	}
}

// B&R 11.2: "Only one missile unit (owner's choice) can Reaction fire at
// an enemy unit when it enters a hex, no matter how many units are
// adjacent to the hex" (rules.one_reaction_per_entry; ruling R244): the
// first by his standing orders, or the one he names when asked.
func TestBROneReactionPerEntry(t *testing.T) {
	setup := func(t *testing.T, one bool, dice ...int) *game {
		g := brMelee(t, dice...)
		g.sc.Tables.Rules.OneReactionPerEntry = one
		g.troop("CA1", "0505", hex.FaceW, "LB")  // Frontal: 0406, 0405
		g.troop("CA2", "0506", hex.FaceNW, "LB") // Frontal: 0406, 0505
		g.troop("AN1", "0206", hex.FaceE, "INF")
		return g
	}
	for _, c := range []struct {
		one   bool
		dice  []int
		fired []string
	}{{true, []int{0}, []string{"CA1"}}, {false, []int{0, 0}, []string{"CA1", "CA2"}}} {
		g := setup(t, c.one, c.dice...)
		evs := g.send(red, "ACTIVATE Anna\nMOVE AN1 0306 0406").Events
		var got []string
		for _, f := range shots(evs) {
			if f.Reaction && f.Target == "AN1" {
				got = append(got, f.Unit)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.fired, " ") {
			t.Errorf("one per entry %v: reacted %v, want %v: %s", c.one, got, c.fired, g.story(evs))
		}
	}
	g := setup(t, true, 0)
	g.send(blue, "STANDING REACTION FIRE ASK")
	g.send(red, "ACTIVATE Anna\nMOVE AN1 0306 0406")
	if g.st.Pending.Kind != engine.DecideReaction || g.st.Pending.Side != blue {
		t.Fatalf("waiting: %s", engine.Waiting(g.sc, g.st))
	}
	legal := strings.Join(engine.Legal(g.sc, g.st), "\n")
	if strings.Contains(legal, "REACT CA1 CA2") || !strings.Contains(legal, "REACT CA2") {
		t.Errorf("legal answers:\n%s\nwant each reactor alone, not both", legal)
	}
	g.refuse(blue, "REACT CA1 CA2", "B&R 11.2")
	f := shots(g.send(blue, "REACT CA2").Events)
	if len(f) != 1 || f[0].Unit != "CA2" || !f[0].Reaction {
		t.Errorf("shots %+v, want CA2's only", f)
	}
}

// B&R 11.4: "Units do not block LOS for Archers and Longbows ... unless it
// is a friendly unit which is adjacent to the target. Fire from an Archer
// or Longbow through one or more hexes occupied by units receives a -1
// DRM" (ruling R245).
func TestBRFireOverUnits(t *testing.T) {
	g := brMelee(t, 5)
	a := g.index("AN1")
	g.troop("AN1", "0505", hex.FaceSE, "LB") // down the column: 0506, 0507, 0508
	c := g.troop("CA1", "0507", hex.FaceNW, "INF")
	d := g.troop("CA2", "0508", hex.FaceNW, "INF")
	g.troop("AN2", "0506", hex.FaceSE, "INF")
	if r := g.wantFire(a, c, false, "9.4"); r != nil && !strings.Contains(r.Reason, "friendly unit next to the target (B&R 11.4)") {
		t.Errorf("refusal %q", r.Reason)
	}
	g.wantFire(a, d, false, "") // AN2 is not next to CA2
	g.sc.Tables.Rules.OverUnitsFriendAdjacent = false
	g.wantFire(a, c, false, "") // Men of Iron 9.4: over any unit
	g.sc.Tables.Rules.OverUnitsFriendAdjacent = true
	g.send(red, "ACTIVATE Anna")
	f := shots(g.send(red, "FIRE AN1 AT CA2").Events)
	if len(f) != 1 {
		t.Fatal("no shot")
	}
	// 5 +0 (Longbow at range 3) -1 (over AN2 and CA1) = 4: No Effect.
	wantShot(t, f[0], "AN1", "CA2", 5, []string{"+0 9.3", "-1 B&R 11.4"}, 4, "foot", "No Effect")
	if !strings.Contains(f[0].Roll.Mods[1].Reason, "0506") {
		t.Errorf("the -1 names %q, want the first occupied hex 0506", f[0].Roll.Mods[1].Reason)
	}
}

// B&R 11.4: LOS is blocked "for Handguns by Hedgerow/Brush hexes and
// Hedgerow hexsides which are not part of the firing or target unit's
// hex" (ruling R246), not for other weapons.
func TestBRHedgerowsBlockHandguns(t *testing.T) {
	type hs struct{ a, b string }
	for _, c := range []struct {
		name     string
		terrain  map[string]string
		hexsides []hs
		long     bool   // a Handgun of range 3 (house table edited) at 0508
		block    string // "" if the Handgun sees CA1
	}{
		{name: "clear"},
		{name: "Hedgerow/Brush between", terrain: map[string]string{"0506": "hedgerow-brush"}, block: "Hedgerow/Brush in 0506"},
		{name: "Hedgerow/Brush is the target's hex", terrain: map[string]string{"0507": "hedgerow-brush"}},
		{name: "Hedgerow/Brush is the firer's hex", terrain: map[string]string{"0505": "hedgerow-brush"}},
		{name: "hedgerow hexside of the firer's hex", hexsides: []hs{{"0505", "0506"}}},
		{name: "hedgerow hexside of the target's hex", hexsides: []hs{{"0506", "0507"}}},
		{name: "hedgerow hexside between", hexsides: []hs{{"0506", "0507"}}, long: true, block: "Hedgerow hexside 0506|0507"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := brMelee(t)
			if c.long {
				g.sc.Tables.Weapons = maps.Clone(g.sc.Tables.Weapons)
				hg := *g.sc.Tables.Weapons["handgun"]
				hg.RangeDRM = []int{+1, -1, -1}
				g.sc.Tables.Weapons["handgun"] = &hg
			}
			for k, v := range c.terrain {
				g.sc.Map.Terrain[h(t, k)] = v
			}
			for _, s := range c.hexsides {
				g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, s.a), B: h(t, s.b), Feature: "hedgerow"})
			}
			target := "0507"
			if c.long {
				target = "0508"
			}
			hg := g.troop("AN1", "0505", hex.FaceSE, "HG")
			lb := g.troop("AN2", "0405", hex.FaceSE, "LB")
			ca := g.troop("CA1", target, hex.FaceNW, "LB") // a missile unit: no hedgerow cover
			rule := ""
			if c.block != "" {
				rule = "9.4"
			}
			if r := g.wantFire(hg, ca, false, rule); r != nil && !strings.Contains(r.Reason, c.block) {
				t.Errorf("refusal %q, want %q", r.Reason, c.block)
			}
			// The Longbow beside it is never blocked by hedgerows.
			g.put("AN2", "0505", hex.FaceSE)
			g.put("AN1", "0405", hex.FaceSE)
			g.wantFire(lb, ca, false, "")
		})
	}
}

// B&R 11.4: "If a LOS is traced through a Hedgerow/Brush hex or Hedgerow
// hexside to a non-missile unit adjacent to the Hedgerow/Brush hex or
// Hedgerow hexside, it and any leader stacked with it in are unaffected
// by incoming missile fire, unless the target and the firer are in
// adjacent hexes" (rules.hedgerow_cover; ruling R247).
func TestBRHedgerowCover(t *testing.T) {
	for _, c := range []struct {
		name    string
		target  string // CA1's hex; AN1 Longbow in 0505 facing SE
		typ     string
		terrain map[string]string
		hexside [2]string
		cover   bool
	}{
		{name: "behind a hedgerow hexside", target: "0507", typ: "INF", hexside: [2]string{"0506", "0507"}, cover: true},
		{name: "next to a Hedgerow/Brush hex", target: "0508", typ: "MM", terrain: map[string]string{"0507": "hedgerow-brush"}, cover: true},
		{name: "a missile unit is not covered", target: "0507", typ: "A", hexside: [2]string{"0506", "0507"}},
		{name: "adjacent firer", target: "0506", typ: "INF", hexside: [2]string{"0505", "0506"}},
		{name: "the hedgerow by the firer", target: "0507", typ: "INF", hexside: [2]string{"0505", "0506"}},
		{name: "Hedgerow/Brush not next to the target", target: "0508", typ: "INF", terrain: map[string]string{"0506": "hedgerow-brush"}},
		{name: "in the Hedgerow/Brush hex itself", target: "0507", typ: "INF", terrain: map[string]string{"0507": "hedgerow-brush"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := brMelee(t, 9)
			for k, v := range c.terrain {
				g.sc.Map.Terrain[h(t, k)] = v
			}
			if c.hexside[0] != "" {
				g.sc.Map.Hexsides = append(g.sc.Map.Hexsides, engine.Hexside{A: h(t, c.hexside[0]), B: h(t, c.hexside[1]), Feature: "hedgerow"})
			}
			a := g.troop("AN1", "0505", hex.FaceSE, "LB")
			ca := g.troop("CA1", c.target, hex.FaceNW, c.typ)
			if !c.cover {
				g.wantFire(a, ca, false, "")
				return
			}
			g.wantFire(a, ca, false, "B&R 11.4")
			g.wantFire(a, ca, true, "B&R 11.4") // nor by Reaction Fire
			g.send(red, "ACTIVATE Anna")
			if ill := g.refuse(red, "FIRE AN1 AT CA1", "B&R 11.4"); !strings.Contains(ill.Reason, "unaffected by missile fire") {
				t.Errorf("refusal %q", ill.Reason)
			}
			g.sc.Tables.Rules.HedgerowCover = false
			g.wantFire(a, ca, false, "") // Men of Iron: no such cover
		})
	}
}

// B&R 7.6 "if it fires it is turned to its unlimbered side": Reaction Fire
// too (ruling R240).
func TestBRLimberedArtilleryReacts(t *testing.T) {
	g := brMelee(t, 0+1)                        // 1 +2 (range 1) = 3: No Effect
	g.artillery("CA1", "0505", hex.FaceW, true) // Frontal: 0406, 0405
	g.troop("AN1", "0206", hex.FaceE, "INF")
	evs := g.send(red, "ACTIVATE Anna\nMOVE AN1 0306 0406").Events
	f := shots(evs)
	if len(f) != 1 || !f[0].Reaction || f[0].Unit != "CA1" {
		t.Fatalf("shots %+v: %s", f, g.story(evs))
	}
	wantShot(t, f[0], "CA1", "AN1", 1, []string{"+2 9.3"}, 3, "foot", "No Effect")
	if u, ok := findEvent[engine.UnitUnlimbered](evs); !ok || u.Unit != "CA1" || g.unit("CA1").Limbered {
		t.Errorf("CA1 %+v, want unlimbered by its Reaction Fire: %s", g.unit("CA1"), g.story(evs))
	}
}

// R242: a Mounted MAA Counter-Charging the Artillery that fired at it
// (B&R 13.9) finds nothing to charge when the guns blew up (11.3).
func TestBRMisfireEndsTheCounterCharge(t *testing.T) {
	g := brMelee(t, 2, 0) // Counter-Charge DR 2 (5 or less succeeds), then the natural 0
	g.artillery("AN1", "0505", hex.FaceE, false)
	g.troop("CA1", "0705", hex.FaceW, "MM")
	g.send(red, "ACTIVATE Anna")
	evs := g.send(red, "FIRE AN1 AT CA1").Events
	cc, ok := findEvent[engine.CounterChargeRolled](evs)
	if !ok || !cc.Success {
		t.Fatalf("want a successful Counter-Charge roll: %s", g.story(evs))
	}
	l, ok := findEvent[engine.AttackLapsed](evs)
	if !ok || !strings.Contains(l.Reason, "blew up") || !strings.Contains(l.Reason, "B&R 11.3") {
		t.Errorf("lapse %+v: %s", l, g.story(evs))
	}
	if g.unit("AN1").Status != engine.Eliminated || g.unit("CA1").Hex != h(t, "0705") || count[engine.AttackResolved](evs) != 0 {
		t.Errorf("AN1 %v, CA1 in %s: %s", g.unit("AN1").Status, g.unit("CA1").Hex, g.story(evs))
	}
}

// docs/orders.md: LIMBER and UNLIMBER take one unit.
func TestBRLimberOrderSyntax(t *testing.T) {
	orders := parse(t, "limber ART1\nUnlimber ART2")
	if len(orders) != 2 || orders[0].String() != "LIMBER ART1" || orders[1].String() != "UNLIMBER ART2" {
		t.Errorf("parsed %v", orders)
	}
	for _, in := range []string{"LIMBER", "UNLIMBER ART1 ART2"} {
		_, err := engine.ParseOrders(engine.SplitLines(in))
		ill, ok := err.(*engine.IllegalOrderError)
		if !ok || ill.Rule != "docs/orders.md" || !strings.Contains(ill.Reason, "needs one unit") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// B&R 11.2 Artillery and Handguns: Reaction Fire "applies to only the
// first enemy unit that does so in a given Activation" (the weapon's
// reaction_first_only; ruling R248): CA1's Artillery, whose owner would
// be asked, meets AN1 first while the Longbow beside it fires at AN1 (one
// unit per entry, R244); when AN2 enters its Frontal hex after, it may
// not react. Without the entry, it would be asked about AN2.
func TestBRArtilleryReactsToTheFirstOnly(t *testing.T) {
	for _, firstOnly := range []bool{true, false} {
		g := brMelee(t, 1)
		if !firstOnly {
			g.sc.Tables.Weapons = maps.Clone(g.sc.Tables.Weapons)
			w := *g.sc.Tables.Weapons["artillery"]
			w.ReactionFirstOnly = false
			g.sc.Tables.Weapons["artillery"] = &w
		}
		g.artillery("CA1", "0505", hex.FaceW, false) // Frontal: 0406, 0405
		g.troop("CA2", "0506", hex.FaceNW, "LB")     // Frontal: 0406, 0505
		g.troop("AN1", "0206", hex.FaceE, "INF")
		g.troop("AN2", "0304", hex.FaceE, "INF")
		g.send(blue, "STANDING REACTION FIRE ASK CA1")
		evs := g.send(red, "ACTIVATE Anna\nMOVE AN1 0306 0406").Events
		f := shots(evs)
		if len(f) != 1 || f[0].Unit != "CA2" || g.st.Pending.Kind != engine.DecideActions {
			t.Fatalf("first only %v: shots %+v, waiting %s: %s", firstOnly, f, engine.Waiting(g.sc, g.st), g.story(evs))
		}
		sp, spent := findEvent[engine.ReactionSpent](evs)
		if spent != firstOnly || spent && (len(sp.Units) != 1 || sp.Units[0] != "CA1" || sp.Mover != "AN1") {
			t.Errorf("first only %v: spent %+v: %s", firstOnly, sp, g.story(evs))
		}
		evs = g.send(red, "MOVE AN2 0405").Events
		asked := g.st.Pending.Kind == engine.DecideReaction
		if asked == firstOnly || len(shots(evs)) != 0 {
			t.Errorf("first only %v: CA1 asked about AN2 %v: %s", firstOnly, asked, g.story(evs))
		}
	}
}

// B&R 11.2 "When any enemy unit moves or Charges into an adjacent frontal
// hex ... Only one missile unit (owner's choice) can Reaction fire at an
// enemy unit when it enters a hex": a Charge too (ruling R244).
func TestBROneReactionPerChargeEntry(t *testing.T) {
	for _, one := range []bool{true, false} {
		g := brMelee(t, 0, 0, 5, 5)
		g.sc.Tables.Rules.OneReactionPerEntry = one
		g.troop("CA1", "0505", hex.FaceSW, "INF")
		g.troop("DO1", "0504", hex.FaceSW, "LB") // Front: 0505, 0405, where the Charge ends
		g.troop("DO2", "0406", hex.FaceNW, "LB") // Front: 0405 too
		g.troop("AN2", "0304", hex.FaceE, "MM")
		evs := g.shockRound("CHARGE AN2 AT CA1\nEND")
		var got []string
		for _, f := range shots(evs) {
			if f.Reaction && f.Target == "AN2" {
				got = append(got, f.Unit)
			}
		}
		want := "DO1 DO2"
		if one {
			want = "DO1"
		}
		if strings.Join(got, " ") != want {
			t.Errorf("one per entry %v: reacted %v, want %s: %s", one, got, want, g.story(evs))
		}
	}
}

// B&R 11.3: "Unless the Handgun unit is Retired, the target of the Handgun
// unit's attack is still eligible to ... continue a Counter-Charge"
// (ruling R242): a Handgun only Disordered by its natural 0 is
// Counter-Charged.
func TestBRHandgunMisfireCounterCharged(t *testing.T) {
	g := brMelee(t, 2, 0, 5, 5, 5, 5)
	g.troop("AN1", "0505", hex.FaceE, "HG")
	g.troop("CA1", "0705", hex.FaceW, "MM")
	g.send(red, "ACTIVATE Anna")
	evs := g.send(red, "FIRE AN1 AT CA1").Events
	if cc, ok := findEvent[engine.CounterChargeRolled](evs); !ok || !cc.Success {
		t.Fatalf("want a successful Counter-Charge roll: %s", g.story(evs))
	}
	for _, e := range evs {
		if l, ok := e.(engine.AttackLapsed); ok && strings.Contains(l.Reason, "blew up") {
			t.Errorf("the Counter-Charge lapsed: %s", g.story(evs))
		}
	}
	atts := resolved(evs)
	if len(atts) == 0 || atts[0].Defender != "AN1" {
		t.Errorf("want CA1's Counter-Charge on AN1 resolved: %s", g.story(evs))
	}
	if d, ok := findEvent[engine.UnitDisordered](evs); !ok || d.Unit != "AN1" || !strings.Contains(d.Cause, "B&R 11.3") {
		t.Errorf("want AN1 Disordered by its misfire first: %s", g.story(evs))
	}
}
