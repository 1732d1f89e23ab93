package data

import (
	"strings"
	"testing"

	"herald/engine"
)

// Arquebus 11.1, 14.2: every missile counter prints a Missile Fire DRM on
// each side, the Disordered one lower; a battle may give a unit its own,
// or none for a side that may not fire (ruling R400, superseding R300).
func TestArquebusMissileFireDRMs(t *testing.T) {
	tb, err := Tables("arquebus")
	if err != nil {
		t.Fatal(err)
	}
	for k, ut := range tb.UnitTypes {
		f, fd := ut.Ratings.Fire, ut.Ratings.FireDisordered
		switch {
		case ut.Weapon == "" && (f.Printed || fd.Printed):
			t.Errorf("%s has no weapon but prints a Missile Fire DRM", k)
		case ut.Weapon != "" && (!f.Printed || !fd.Printed || f.None || fd.None):
			t.Errorf("%s: Missile Fire DRMs %+v %+v, want both printed", k, f, fd)
		case ut.Weapon != "" && !ut.NeverDisordered && fd.DRM >= f.DRM:
			t.Errorf("14.2: %s's Disordered side %+d is not lower than its front %+d", k, fd.DRM, f.DRM)
		}
	}

	s := arquebusMelee(t)
	el1 := "  - {id: EL1, type: CB, command: percy, hex: 0505, facing: W}"
	if !strings.Contains(s, el1) {
		t.Fatalf("the melee battle has no %q: update the test", el1)
	}
	own := strings.Replace(s, el1, "  - {id: EL1, type: CB, command: percy, hex: 0505, facing: W, ratings: {fire: -2, fire_disordered: none}}", 1)
	sc, err := ParseScenario("arquebus-melee.yaml", []byte(own))
	if err != nil {
		t.Fatal(err)
	}
	var r engine.Ratings
	for _, u := range sc.Units {
		if u.ID == "EL1" {
			r = u.Ratings
		}
	}
	if !r.Fire.Printed || r.Fire.DRM != -2 || !r.FireDisordered.None || r.MA != tb.UnitTypes["CB"].Ratings.MA {
		t.Errorf("EL1 ratings %+v, want fire -2, none Disordered, the type's MA", r)
	}
	for _, c := range []struct{ to, want string }{
		{"ratings: {fire: -2}", ""}, // the type prints the other side
		{"ratings: {fire: minus}", `"minus": a Missile Fire DRM is a whole number, or none`},
		{"ratings: {fire: [1]}", "a single value"},
	} {
		text := strings.Replace(s, el1, strings.Replace(el1, "facing: W}", "facing: W, "+c.to+"}", 1), 1)
		_, err := ParseScenario("arquebus-melee.yaml", []byte(text))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.to, err, c.want)
		}
	}
	// A unit without a Missile Type prints none (a Men-at-Arms).
	mm := strings.Replace(s, "  - {id: EM1, type: MM, command: percy, hex: 0403, facing: W}", "  - {id: EM1, type: MM, command: percy, hex: 0403, facing: W, ratings: {fire: 0}}", 1)
	if _, err := ParseScenario("arquebus-melee.yaml", []byte(mm)); err == nil || !strings.Contains(err.Error(), "belongs to a unit with a Missile Type") {
		t.Errorf("a Men-at-Arms with a Missile Fire DRM: %v", err)
	}
	// Men of Iron's counters print none: one side alone is refused there.
	b := strings.Replace(strings.Replace(s, "volume: arquebus", "volume: moi", 1), "type: MM", "type: MMAA", -1)
	b = strings.Replace(b, el1, strings.Replace(el1, "type: CB", "type: LB", 1), 1)
	moi := strings.Replace(b, "type: LB, command: percy, hex: 0505, facing: W}", "type: LB, command: percy, hex: 0505, facing: W, ratings: {fire: 1}}", 1)
	if _, err := ParseScenario("moi-melee.yaml", []byte(moi)); err == nil || !strings.Contains(err.Error(), "fire and fire_disordered") {
		t.Errorf("one side's Missile Fire DRM on Men of Iron's tables: %v", err)
	}
	if _, err := ParseScenario("moi-melee.yaml", []byte(b)); err != nil {
		t.Errorf("control: %v", err)
	}

	checkTableEdits(t, "arquebus", []tableEdit{
		{"    fire: -2               # 11.1", "    fire: -3               # 11.1", ""}, // control
		{"    fire: -2               # 11.1", "    fire: none             # 11.1", ""},
		{"    fire: -2               # 11.1", "    fire: x                # 11.1", "a Missile Fire DRM is a whole number"},
		{"  SK:\n    name: Skirmishers\n", "  SK:\n    name: Skirmishers\n    fire: 0\n    fire_disordered: -1\n", "belongs to a unit with a Missile Type"},
		{"    fire_disordered: -3    # 14.2 \"Missile Fire DRM on the Disordered side of the counter is lower\" (R400)\n", "", "give the Missile Fire DRM of both sides"},
	})
}
