package data

import (
	"errors"
	"strings"
	"testing"

	"herald/engine/strike"
)

func TestStrikeTablesLoad(t *testing.T) {
	tb, err := StrikeTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"Kn", "Cv", "Maa", "Sp", "Fkn", "Sk", "Lc", "Ha", "LB", "CB", "Art", "HG"} {
		if _, err := tb.Troop(id); err != nil {
			t.Error(err)
		}
	}
}

// TestStrikeTablesAgreeWithTheFragment checks every value the fragment
// states against the embedded tables.
func TestStrikeTablesAgreeWithTheFragment(t *testing.T) {
	tb, err := StrikeTables()
	if err != nil {
		t.Fatal(err)
	}
	c := tb.Combat
	eq := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, the fragment says %v", what, got, want)
		}
	}
	eq("BASIC COMBAT VALUE", c.BaseCV, 7)
	eq("massed target", c.MassedTarget, 3)
	eq("distant range", c.DistantRange, -3)
	eq("skirmisher", c.Skirmisher, -3)
	eq("Fkn charging", c.FknCharging, strike.ChargeMod{CV: 3, Over: 3})
	eq("foot charging", c.FootCharging, strike.ChargeMod{CV: 2, Over: 2})
	eq("other mounted charging", c.MountedCharging, strike.ChargeMod{CV: 2, Over: 3})
	eq("Fkn vs foot", c.FknVsFoot, 3)
	eq("superior", c.Superior, 3)
	eq("trained", c.Trained, 3)
	eq("foe higher or obstacle", c.FoeHigherOrObstacle, -3)
	eq("Sp ranks", tb.Melee.SpearRanks, 3)
	eq("retreat per strike", tb.Melee.RetreatPerStrike, 1.0)
	eq("charge clearance (CHARGE MOVEMENT and BONUS)", tb.Movement.ChargeClearance, 3.0)
	eq("skirmish arc", tb.Arcs["skirmish"], 45.0)
	eq("light cavalry arc", tb.Arcs["light_cavalry"], 180.0)
	eq("arcs", len(tb.Arcs), 3)
	eq("PCS lost melee", tb.PCS.LostMelee, -5)
	eq("PCS per strike", tb.PCS.PerStrikeDifference, -1)
	eq("under fire", tb.PCS.UnderFire, 20)
	for sr, want := range map[int][2]int{6: {6, 16}, 7: {6, 16}, 8: {7, 17}, 9: {7, 17}, 12: {7, 17}} {
		b, err := tb.Band(sr)
		if err != nil {
			t.Fatal(err)
		}
		eq("bonus of SR", b.Bonus, want[0])
		eq("PCS of SR", b.PCS, want[1])
	}
	// DOUBLE STRIKES: Kn, Cv, Maa and trained Sp; NOTES: trained longbow,
	// crossbows' NE; ROF 0–4.
	for id, want := range map[string]string{"Kn": "always", "Cv": "always", "Maa": "always", "Sp": "trained",
		"Fkn": "never", "Sk": "never", "Lc": "never", "Ha": "never", "LB": "never", "CB": "never", "Art": "never", "HG": "never"} {
		eq(id+" double strikes", tb.Troops[id].DoubleStrikes, want)
	}
	eq("longbow doubles when trained", tb.Weapons["longbow"].TrainedDouble, true)
	eq("crossbow NE", tb.Weapons["crossbow"].NEIsFigure, true)
	for id, w := range tb.Weapons {
		if w.ROF < 0 || w.ROF > 4 {
			t.Errorf("%s ROF %d", id, w.ROF)
		}
		if w.NEIsFigure != (id == "crossbow") {
			t.Errorf("%s: NE is a figure %v", id, w.NEIsFigure)
		}
	}
	eq("artillery no defensive fire", tb.Weapons["artillery"].NoDefensiveFire, true)
	eq("handgun no defensive fire", tb.Weapons["handgun"].NoDefensiveFire, true)
	eq("artillery destroyed if contacted", tb.Weapons["artillery"].DestroyedContact, true)
	// Sk, Lc and Ha are not formed; Sk is the skirmisher; Lc shoots all round.
	for _, id := range []string{"Sk", "Lc", "Ha"} {
		eq(id+" formed", tb.Troops[id].Formed, false)
	}
	eq("Sk skirmisher", tb.Troops["Sk"].Skirmisher, true)
	eq("Sk arc", tb.Troops["Sk"].Arc, "skirmish")
	eq("Lc arc", tb.Troops["Lc"].Arc, "light_cavalry")
	// "Other mtd." makes Fkn mounted (R503); half a MOVE is the charge
	// bonus distance of each charging line (R509).
	eq("Fkn mounted", tb.Troops["Fkn"].Mounted, true)
	eq("foot half move", tb.Troops["Maa"].Move/2, c.FootCharging.Over)
	eq("knights half move", tb.Troops["Kn"].Move/2, c.MountedCharging.Over)
}

func TestStrikeTablesBad(t *testing.T) {
	good := string(strikeFile)
	cases := []struct {
		name, old, new, want string
	}{
		{"not yaml", good, "combat: [\n", "yaml"},
		{"empty", good, "", "empty"},
		{"unknown section", "combat:\n", "combats: {}\ncombat:\n", `unknown field "combats"`},
		{"rof over 4", "rof: 4}", "rof: 5}", "weapons.javelin.rof: 5: the rate of fire runs from 4"},
		{"distant inside effective", "effective: 8, distant: 16", "effective: 8, distant: 6", "weapons.bow.distant: 6: distant range must be beyond"},
		{"arc of 90", "formed: 30 ", "formed: 90 ", "arcs.formed: 90: an arc is"},
		{"bad SRT cell", "[NE, 1DM, 1DM, 2DM", "[NE, X, 1DM, 2DM", `srt.mounted[0][1]: "X" is not a result`},
		{"short SRT row", "- [NE, 1, 1DM, 2DM, 2DM, 3DM, 3DM, 4DM]", "- [NE, 1]", "every row needs the same number"},
		{"unknown weapon", "weapon: longbow,", "weapon: longbw,", `unknown weapon "longbw" (did you mean "longbow"?)`},
		{"unknown srt", "srt: artillery}", "srt: artilery}", `unknown Strike Results Table "artilery"`},
		{"double kind", "double_strikes: trained,", "double_strikes: sometimes,", `unknown kind "sometimes"`},
		{"sr range", "sr: 6-7", "sr: six", `"six" is not a skill rating range`},
		{"sr overlap", "sr: 8+", "sr: 7+", "overlaps or comes before"},
		{"reaction", "Sp:  {target: stand,", "Sp:  {target: run,", `unknown reaction "run"`},
		{"missing reaction row", "  Art: {target: stand-and-fire, supporting: none}\n", "", "reactions.Art: missing"},
		{"bad distance", "move: 6, figures: 2", "move: six, figures: 2", `"six" is not a distance`},
		{"under fire", "under_fire: 20", "under_fire: 30", "pcs.under_fire: 30"},
		{"missing morale", "fail_break: 5", "", "morale.fail_break: missing"},
		{"back cost", "back_cost: 2 ", "back_cost: 0.5 ", "movement.back_cost: 0.5: an inch backward costs at least an inch"},
		{"no movement", "movement:\n", "moves:\n", `unknown field "moves"`},
		{"flat stand", "foot_depth: 1 ", "foot_depth: 0 ", "stands.foot_depth: 0: a stand needs a size over 0 inches"},
		{"a named type missing", "  Fkn: {name: Fkn,", "  Fkx: {name: Fkn,", "troops.Fkn: missing: the rules name this type"},
		{"quality", "qualities: [superior, trained]}\n  Fkn", "qualities: [veteran]}\n  Fkn", `unknown quality "veteran"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(good, c.old) {
				t.Fatalf("the tables no longer hold %q", c.old)
			}
			src := strings.Replace(good, c.old, c.new, 1)
			_, err := ParseStrikeTables("bad.yaml", []byte(src))
			if err == nil {
				t.Fatal("loaded")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error\n%v\nwant it to say %q", err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "bad.yaml" || e.Line < 1 {
				t.Errorf("not a located *Error: %#v", e)
			}
		})
	}
}

func FuzzStrikeTables(f *testing.F) {
	f.Add(strikeFile)
	f.Add([]byte("combat: {base_cv: 7}\n"))
	f.Add([]byte("srt: {a: [[NE, 1D], [2DM]]}\npersonalities: [{sr: 8+, bonus: 7, pcs: 17}]\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := ParseStrikeTables("fuzz.yaml", b)
		if (tb == nil) == (err == nil) {
			t.Fatalf("tables %v and error %v", tb != nil, err)
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz.yaml:") {
					t.Fatalf("an error line without its file: %q", line)
				}
			}
		}
	})
}
