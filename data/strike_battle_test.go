package data

import (
	"errors"
	"strings"
	"testing"

	"herald/engine/strike/table"
)

func mauronFile(t testing.TB) string {
	b, err := strikeBattleFiles.ReadFile("strike/battles/mauron.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStrikeBattleMauron(t *testing.T) {
	if got := StrikeBattles(); len(got) != 1 || got[0] != "mauron" {
		t.Fatalf("StrikeBattles() = %v", got)
	}
	b, err := StrikeBattle("mauron")
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "Mauron, 1352" || b.Label != "Herald's house scenario" || b.Sides != [2]string{"French", "English"} {
		t.Errorf("title %q label %q sides %v", b.Title, b.Label, b.Sides)
	}
	if b.Table.Width != 48 || b.Table.Height != 36 || b.Turns != 8 || b.Victory.StandsLost != 0.5 || !b.Victory.Warlord {
		t.Errorf("table %v turns %d victory %+v", b.Table, b.Turns, b.Victory)
	}
	if len(b.Table.Areas) != 3 || b.Table.Areas[0].Terrain != table.HigherGround || b.Table.Areas[1].Terrain != table.Obstacle {
		t.Errorf("areas %+v", b.Table.Areas)
	}
	types := map[string]bool{}
	warlords := 0
	for _, u := range b.Units {
		types[u.Type.ID] = true
		if u.Personality != nil && u.Personality.Warlord {
			warlords++
		}
	}
	for _, id := range []string{"Kn", "Maa", "Sp", "LB", "CB", "Sk"} {
		if !types[id] {
			t.Errorf("no %s in the house battle", id)
		}
	}
	if warlords != 2 || b.Units[b.Index("Maa1")].Personality.Name != "Guy de Nesle" {
		t.Errorf("%d Warlords", warlords)
	}
	kn := b.Units[b.Index("kn1")]
	if kn.StandWidth != 2 || kn.StandDepth != 2 || !kn.Superior || kn.Personality.Name != "Jean de Beaumanoir" || kn.Personality.SR != 7 || kn.Personality.Warlord {
		t.Errorf("Kn1 %+v", kn)
	}
	lb := b.Units[b.Index("Lb1")]
	if lb.StandDepth != 1 || lb.Facing != 180 || lb.Pos != (table.Vec{X: 13, Y: 27}) || lb.Files != 3 || lb.Ranks != 2 {
		t.Errorf("Lb1 %+v", lb)
	}
	if _, err := StrikeBattle("crecy"); err == nil || !strings.Contains(err.Error(), "mauron") {
		t.Errorf("unknown battle: %v", err)
	}
}

func TestStrikeBattleBad(t *testing.T) {
	good := mauronFile(t)
	cases := []struct {
		name, old, new string
		want           []string
	}{
		{"not yaml", good, "sides: [\n", []string{"yaml"}},
		{"empty", good, "", []string{"empty"}},
		{"unknown field", "turns: 8", "turns: 8\nweather: rain", []string{`weather: unknown field "weather"`}},
		{"no turns", "turns: 8\n", "", []string{"turns: missing"}},
		{"bad width", "width: 48", "width: wide", []string{`table.width: "wide" is not a distance`}},
		{"victory fraction", "stands_lost: 0.5", "stands_lost: 2", []string{"victory.stands_lost: 2: the fraction"}},
		{"terrain kind", "kind: obstacle", "kind: swamp", []string{`terrain[1].kind: unknown terrain kind "swamp"`}},
		{"two corners", "points: [[39, 13], [47, 13], [47, 21], [39, 21]]", "points: [[39, 13], [47, 13]]", []string{"terrain[1].points: an area needs at least 3 corners"}},
		{"bad point", "[4, 20], [44, 20]", "[4, 20, 1], [44, 20]", []string{"terrain[2].points[0]: a point is [x, y]"}},
		{"one side", "  - name: English", "  - name: English\n  - name: Scots\n    units: []", []string{"3 sides"}},
		{"type", "type: CB,", "type: Cx,", []string{`sides[0].units[3].type: unknown troop type "Cx"`}},
		{"quality", "type: Sk, files: 2, ranks: 1, at: [5, 12]", "type: Sk, superior: yes, files: 2, ranks: 1, at: [5, 12]", []string{"sides[0].units[4].superior: Sk may not be superior"}},
		{"files", "type: Sp, files: 3", "type: Sp, files: 0", []string{"sides[0].units[2].files: 0: must be 1 or more"}},
		{"facing", "at: [36, 9], facing: 0", "at: [36, 9], facing: 400", []string{"sides[0].units[3].facing: 400"}},
		{"off the table", "at: [5, 12]", "at: [1, 12]", []string{"Sk1: its stands reach", "off the 48×36\" table"}},
		{"overlap", "at: [25, 4]", "at: [25, 7]", []string{"Sp1: its stands overlap Maa1's"}},
		{"dup id", "{id: Sk2,", "{id: SK1,", []string{`"SK1" is given twice`}},
		{"sr", "Jean de Beaumanoir, sr: 7}", "Jean de Beaumanoir, sr: 0}", []string{"sides[0].units[0].personality.sr: 0: must be 1 or more"}},
		{"two warlords", "Jean de Beaumanoir, sr: 7}", "Jean de Beaumanoir, sr: 7, warlord: yes}",
			[]string{"a second Warlord"}},
		{"bad id", "{id: Kn1,", "{id: Kn 1,", []string{`"Kn 1" is not a valid id`}},
		{"several at once", "turns: 8", "turns: none", []string{`turns: "none" is not a whole number`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(good, c.old) {
				t.Fatalf("the battle no longer holds %q", c.old)
			}
			src := strings.Replace(good, c.old, c.new, 1)
			b, err := ParseStrikeBattle("bad.yaml", []byte(src))
			if err == nil {
				t.Fatalf("loaded %v", b.ID)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nwant it to say %q", err, w)
				}
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "bad.yaml" || e.Line < 1 {
				t.Errorf("not a located *Error: %#v", e)
			}
		})
	}
	// Every problem at once: two broken units give two located lines.
	src := strings.Replace(strings.Replace(good, "type: CB,", "type: Cx,", 1), "kind: obstacle", "kind: swamp", 1)
	_, err := ParseStrikeBattle("bad.yaml", []byte(src))
	if err == nil || len(strings.Split(err.Error(), "\n")) != 2 {
		t.Errorf("two problems, got %v", err)
	}
}

func FuzzStrikeBattle(f *testing.F) {
	b, err := strikeBattleFiles.ReadFile("strike/battles/mauron.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("id: x\nsides: [{name: A, units: [{id: a, type: Kn, files: 1, ranks: 1, at: [1, 3], facing: 0}]}]\n"))
	f.Add([]byte("terrain: [{kind: obstacle, points: [[0,0],[1,0],[0,1]]}]\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		bt, err := ParseStrikeBattle("fuzz.yaml", b)
		if (bt == nil) == (err == nil) {
			t.Fatalf("battle %v and error %v", bt != nil, err)
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz.yaml:") {
					t.Fatalf("an error line without its file: %q", line)
				}
			}
			return
		}
		if err := bt.Check(); err != nil {
			t.Fatalf("a loaded battle fails its check: %v", err)
		}
	})
}
