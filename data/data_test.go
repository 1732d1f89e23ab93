package data

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"herald/engine"
)

func TestEmbeddedDataLoads(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("Check:\n%v", err)
	}
	if got, want := Scenarios(), []string{"arsuf", "ascalon", "blore-heath", "crecy", "falkirk", "flight-test", "fornovo", "melee-test", "najera", "pavia", "poitiers", "tewkesbury"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Scenarios() = %v, want %v", got, want)
	}
	if got, want := Volumes(), []string{"arquebus", "blood-and-roses", "infidel", "moi"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Volumes() = %v, want %v", got, want)
	}
	for _, id := range Scenarios() {
		t.Run(id, func(t *testing.T) {
			sc, err := Scenario(id)
			if err != nil {
				t.Fatal(err)
			}
			if sc.ID != id || sc.Tables == nil || !sc.Tables.House {
				t.Errorf("id %q, tables %v", sc.ID, sc.Tables)
			}
			// The engine relies on every unit having its type and ratings.
			for _, u := range sc.Units {
				ut := sc.Tables.UnitTypes[u.Type]
				if ut == nil || u.Ratings.MA == 0 {
					t.Errorf("unit %s: type %q, ratings %+v", u.ID, u.Type, u.Ratings)
				}
				if sc.Command(u.Command) == nil || sc.Command(u.Command).Side != u.Side {
					t.Errorf("unit %s: command %q side %d", u.ID, u.Command, u.Side)
				}
			}
			// Cached: the same value every time.
			again, _ := Scenario(id)
			if again != sc {
				t.Error("embedded scenarios are not cached")
			}
			st := engine.NewState(sc)
			if len(st.Units) != len(sc.Units) {
				t.Errorf("NewState: %d units, scenario %d", len(st.Units), len(sc.Units))
			}
		})
	}
	if _, err := Tables("inf"); err == nil || !strings.Contains(err.Error(), `no tables for volume "inf"`) {
		t.Errorf("Tables(inf) = %v", err)
	}
	if _, err := Scenario("crecyy"); err == nil || !strings.Contains(err.Error(), `did you mean "crecy"`) {
		t.Errorf("Scenario(crecyy) = %v", err)
	}
}

// TestCrecyFollowsTheBook: the sample battle agrees with men-of-iron.md 4.3.
func TestCrecyFollowsTheBook(t *testing.T) {
	sc, err := Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	if sc.SideName(sc.First) != "French" {
		t.Errorf("first side %q; the French start Crecy (4.3 Example)", sc.SideName(sc.First))
	}
	ar := map[string]int{}
	for _, l := range sc.Leaders {
		ar[l.ID] = l.AR
	}
	want := map[string]int{"grimaldi": 2, "alencon": 3, "godfrey": 3, "edward": 3, "doria": 2, "northampton": 2, "philip": 2}
	if !reflect.DeepEqual(ar, want) {
		t.Errorf("Activation Ratings %v, want %v", ar, want)
	}
	if ar["grimaldi"] >= 7 || ar["alencon"] >= 5 {
		t.Error("4.3 Example: Grimaldi fails on a 7, Alençon on a 5")
	}
	if l := sc.Leader("edward"); l == nil || !l.King {
		t.Error("King Edward is a King (16.0)")
	}
	if l := sc.Leader("philip"); l == nil || !l.King {
		t.Error("King Philip is a King (16.0)")
	}
	var std [2]int
	for _, s := range sc.Standards {
		std[s.Side]++
	}
	if std != [2]int{1, 1} {
		t.Errorf("Standards per side %v, want one each", std)
	}
	reinforcements := 0
	for _, c := range sc.Commands {
		if len(c.Entry) > 0 {
			reinforcements++
			if sc.SideName(c.Side) != "French" {
				t.Errorf("Command %s has entry hexes; only the French get reinforcements", c.ID)
			}
		}
	}
	if reinforcements != 1 {
		t.Errorf("%d reinforcement groups, want 1", reinforcements)
	}
	var perSide [2]int
	for _, u := range sc.Units {
		perSide[u.Side]++
	}
	for side, n := range perSide {
		if n < 8 || n > 12 {
			t.Errorf("the %s have %d units, want 8-12", sc.SideName(engine.Side(side)), n)
		}
	}
}

func TestFlightTestStartsWithFlightPoints(t *testing.T) {
	sc, err := Scenario("flight-test")
	if err != nil {
		t.Fatal(err)
	}
	st := engine.NewState(sc)
	// Scots: 4 starting + 1 Retired; English: 2 starting + 1 Retired.
	for side, want := range []int{5, 3} {
		if got := engine.FlightPoints(sc, st, engine.Side(side)); got != want {
			t.Errorf("%s Flight Points %d, want %d", sc.SideName(engine.Side(side)), got, want)
		}
	}
}

func TestUnitOrderAndRatings(t *testing.T) {
	b, err := os.ReadFile("testdata/good/ratings.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario("testdata/good/ratings.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range sc.Units {
		ids = append(ids, u.ID)
	}
	if want := []string{"Z9", "A1", "M5"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("unit order %v, want file order %v", ids, want)
	}
	lb := sc.Tables.UnitTypes["LB"].Ratings
	if got := sc.Units[0].Ratings; got != lb {
		t.Errorf("Z9 ratings %+v, want the Longbow defaults %+v", got, lb)
	}
	want := lb
	want.Shock = 0
	want.MA = 6
	if got := sc.Units[1].Ratings; got != want {
		t.Errorf("A1 ratings %+v, want %+v (defaults with two overrides)", got, want)
	}
	if sc.Units[2].Status != engine.Retired || !sc.Units[1].OffMap {
		t.Errorf("status/off_map not read: %+v %+v", sc.Units[1], sc.Units[2])
	}
	if embedded, _ := Tables("moi"); sc.Tables == embedded || sc.Tables.Source != filepath.Join("tables", "moi.yaml") {
		t.Errorf("tables override not used: source %q", sc.Tables.Source)
	}
	// A FILE.yaml through Scenario reads from disk and is not cached.
	sc2, err := Scenario("testdata/good/ratings.yaml")
	if err != nil || sc2 == sc {
		t.Errorf("Scenario(file): %v", err)
	}
}

// TestBadFiles: each testdata/bad/NAME.yaml must fail with every line of
// NAME.err among its messages. Files named tables-*.yaml are tables, the
// others battles.
func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) < 20 {
		t.Fatalf("only %d bad files", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wantB, err := os.ReadFile(strings.TrimSuffix(file, ".yaml") + ".err")
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(name, "tables-") {
				var tb *engine.Tables
				tb, err = ParseTables(file, b)
				if tb != nil {
					t.Error("tables returned with an error")
				}
			} else {
				var sc *engine.Scenario
				sc, err = ParseScenario(file, b)
				if sc != nil {
					t.Error("scenario returned with an error")
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			var de *Error
			if !errors.As(err, &de) {
				t.Errorf("error %v is not a *data.Error", err)
			}
			got := strings.Split(err.Error(), "\n")
			for _, want := range strings.Split(strings.TrimSpace(string(wantB)), "\n") {
				if !contains(got, want) {
					t.Errorf("missing message\n  %s\ngot:\n  %s", want, strings.Join(got, "\n  "))
				}
			}
		})
	}
}

func TestErrorLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("volume: moi\n")
	for i := range 30 {
		b.WriteString("bogus" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ": 1\n")
	}
	_, err := ParseTables("many.yaml", []byte(b.String()))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxErrors+1 {
		t.Fatalf("%d lines, want %d:\n%v", len(lines), MaxErrors+1, err)
	}
	if last := lines[MaxErrors]; !strings.Contains(last, "too many errors") {
		t.Errorf("last line %q", last)
	}
	if !strings.HasPrefix(lines[0], "many.yaml:1: ") {
		t.Errorf("first line %q: errors are not sorted by line", lines[0])
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{File: "a.yaml", Line: 3, Field: "units.LB1.hex", Msg: "off the map"}
	if got := e.Error(); got != "a.yaml:3: units.LB1.hex: off the map" {
		t.Errorf("%q", got)
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"AX", "CB", "DMAA", "LB", "MMAA", "PK", "UMAA"}
	for in, want := range map[string]string{"LBB": "LB", "mmaa": "MMAA", "DMA": "DMAA", "Longbowmen": "", "PKE": "PK"} {
		if got := nearest(in, known); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBand(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"5", 5, 5, true},
		{"6-7", 6, 7, true},
		{"6 to 7", 6, 7, true},
		{"-2-0", -2, 0, true},
		{"3 or less", openLow, 3, true},
		{"≤3", openLow, 3, true},
		{"12 or more", 12, openHigh, true},
		{"12+", 12, openHigh, true},
		{"-1", -1, -1, true},
		{"five", 0, 0, false},
		{"", 0, 0, false},
	} {
		lo, hi, ok := band(c.in)
		if ok != c.ok || (ok && (lo != c.lo || hi != c.hi)) {
			t.Errorf("band(%q) = %d, %d, %v", c.in, lo, hi, ok)
		}
	}
}

func TestParseResult(t *testing.T) {
	dis := engine.Effect{Kind: engine.EffectDisordered}
	ret := func(n int) engine.Effect { return engine.Effect{Kind: engine.EffectRetreat, Hexes: n} }
	for _, c := range []struct {
		text     string
		fire     bool
		def, att []engine.Effect
		ca       bool
		err      string
	}{
		{text: "No Effect"},
		{text: "no result", fire: true},
		{text: "Disordered", fire: true, def: []engine.Effect{dis}},
		{text: "Retire", fire: true, def: []engine.Effect{{Kind: engine.EffectRetired}}},
		{text: "Retreat", fire: true, def: []engine.Effect{ret(1)}},
		{text: "Attacker Disordered", att: []engine.Effect{dis}},
		{text: "Attacker Disordered, Retreat 1 Hex", att: []engine.Effect{dis, ret(1)}},
		{text: "Defender Disordered, Retreat 2 Hexes, Continued Attack", def: []engine.Effect{dis, ret(2)}, ca: true},
		{text: "Defender Eliminated, Continue Attack", def: []engine.Effect{{Kind: engine.EffectEliminated}}, ca: true},
		{text: "Attacker Unhorsed", att: []engine.Effect{{Kind: engine.EffectUnhorsed}}},
		{text: "Defender Routed", err: `unknown result "Defender Routed"`},
		{text: "Attacker Disordered", fire: true, err: "Fire table results fall on the target only"},
		{text: "Disordered, Continued Attack", fire: true, err: "no Continued Attack"},
		{text: "Retreat one Hex", err: "a Retreat is 1 to 9 hexes"},
		{text: "Retreat to the rear", err: "write Retreat N Hex"},
		{text: "Disordered, Disordered", err: "given twice"},
		{text: "", err: "empty result"},
		{text: "Disordered,", err: "empty part"},
	} {
		res, err := parseResult(c.text, c.fire)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseResult(%q): error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseResult(%q): %v", c.text, err)
			continue
		}
		if !reflect.DeepEqual(res.Defender, c.def) || !reflect.DeepEqual(res.Attacker, c.att) || res.ContinuedAttack != c.ca || res.Text != c.text {
			t.Errorf("parseResult(%q) = %+v", c.text, res)
		}
	}
}

// TestGoodFiles: the valid test files load.
func TestGoodFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/good/*.yaml")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(filepath.Base(file), "tables-") {
			_, err = ParseTables(file, b)
		} else {
			_, err = ParseScenario(file, b)
		}
		if err != nil {
			t.Errorf("%s:\n%v", file, err)
		}
	}
}

// Ruling R89: a Pike set up in Schiltron starts the battle in it; Men of
// Iron's tables let Pike form it and give it -2.
func TestSchiltronAtSetUp(t *testing.T) {
	b, err := os.ReadFile("testdata/good/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "facing: W}", "facing: W, schiltron: true}", 1)
	sc, err := ParseScenario("schiltron.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Units[1].Schiltron || sc.Units[0].Schiltron {
		t.Errorf("units %+v: want B1 alone in Schiltron", sc.Units)
	}
	if st := engine.NewState(sc); !st.Units[1].Schiltron {
		t.Errorf("B1 does not start in Schiltron: %+v", st.Units[1])
	}
	if tb := sc.Tables; !tb.UnitTypes["PK"].Schiltron || tb.UnitTypes["DMAA"].Schiltron || tb.ShockDRM.Schiltron != -2 {
		t.Errorf("moi tables: PK %v, DMAA %v, DRM %d; want Pike alone, -2", tb.UnitTypes["PK"].Schiltron, tb.UnitTypes["DMAA"].Schiltron, tb.ShockDRM.Schiltron)
	}
}

// 10.4 #2B: a battle's modifiers for the attacker's terrain,
// rules.attacker_shock, read by terrain and class.
func TestAttackerShockRule(t *testing.T) {
	b, err := os.ReadFile("testdata/good/base.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b) + "rules:\n  attacker_shock:\n    marsh: {foot: -1, mounted: -2}\n"
	sc, err := ParseScenario("attacker.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Rules.AttackerShock["marsh"]; got[engine.Foot] != -1 || got[engine.Mounted] != -2 {
		t.Errorf("attacker_shock %v", sc.Rules.AttackerShock)
	}
	_, err = ParseScenario("attacker.yaml", []byte(strings.Replace(src, "marsh:", "swamp:", 1)))
	if err == nil || !strings.Contains(err.Error(), `rules.attacker_shock.swamp: unknown terrain "swamp"`) {
		t.Errorf("an unknown terrain: %v", err)
	}
}
