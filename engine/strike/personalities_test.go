package strike_test

import (
	"testing"

	"herald/engine/strike"
)

// B. PERSONALITY COMBAT DICE: "SR 6/7 have bonus of +6, SR 8 or higher
// equal a bonus of +7" (R520: the stated bonus, not the SR).
func TestBonusDie(t *testing.T) {
	tb := tables(t)
	for _, c := range []struct{ sr, cv int }{{6, 13}, {7, 13}, {8, 14}, {10, 14}} {
		u := unit(t, tb, "Maa", 4)
		d := strike.NewScript(c.cv, c.cv+1)
		p := &strike.Personality{Name: "Sir Hugh", SR: c.sr}
		hit, err := strike.BonusDie(tb, d, p, u, 7)
		if err != nil {
			t.Fatal(err)
		}
		miss, _ := strike.BonusDie(tb, d, p, u, 7)
		if hit.CV != c.cv || hit.Strikes != 1 || miss.Strikes != 0 {
			t.Errorf("SR %d: CV %d, %d and %d strikes; want CV %d", c.sr, hit.CV, hit.Strikes, miss.Strikes, c.cv)
		}
	}
	// The die doubles when his unit's stands do (R521): Maa at CV 7 with
	// SR 8, CV 14, doubles on 7.
	d := strike.NewScript(7, 8)
	p := &strike.Personality{Name: "Sir Hugh", SR: 8}
	two, _ := strike.BonusDie(tb, d, p, unit(t, tb, "Maa", 4), 7)
	one, _ := strike.BonusDie(tb, d, p, unit(t, tb, "Maa", 4), 7)
	if two.Strikes != 2 || one.Strikes != 1 {
		t.Errorf("Maa personality: %d and %d strikes, want 2 and 1", two.Strikes, one.Strikes)
	}
	// The die counts with his unit's strikes in a melee.
	kn, maa := unit(t, tb, "Kn", 2), unit(t, tb, "Maa", 4)
	kn.Personality = &strike.Personality{Name: "Sir Hugh", SR: 6}
	ds := strike.NewScript(10, 10, 13, 10, 10, 15)
	r, err := strike.Melee(tb, ds, strike.MeleeSide{Unit: kn, Fighters: 2}, strike.MeleeSide{Unit: maa, Fighters: 2})
	if err != nil {
		t.Fatal(err)
	}
	used(t, ds)
	if r.Attacker.Strikes != 1 || r.AttackerLost || len(r.Attacker.Checks) != 1 || !r.Attacker.Checks[0].Unharmed {
		t.Errorf("%+v", r)
	}
}

// C. PERSONAL COMBAT SKILL CHECKS: "SR 6/7 have a PCS of 16, SR 8 or
// higher have a PCS of 17" (R519); −5 if wounded (R522), −5 if the unit
// lost, −1 per strike difference if it lost; "roll under" (R518).
func TestPCS(t *testing.T) {
	tb := tables(t)
	cases := []struct {
		name    string
		sr      int
		wounded bool
		lost    bool
		diff    int
		want    int
	}{
		{"SR 6", 6, false, false, 0, 16},
		{"SR 7 (not SR+10 = 17)", 7, false, false, 0, 16},
		{"SR 8", 8, false, false, 0, 17},
		{"SR 9 (not SR+10 = 19)", 9, false, false, 0, 17},
		{"won by 3: no strike penalty", 8, false, false, 3, 17},
		{"wounded", 8, true, false, 0, 12},
		{"lost by 2", 6, false, true, 2, 9},
		{"wounded and lost by 4", 8, true, true, 4, 3},
	}
	for _, c := range cases {
		p := &strike.Personality{Name: "X", SR: c.sr, Wounded: c.wounded}
		got, err := strike.PCS(tb, p, c.lost, c.diff)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s: PCS %d, want %d", c.name, got, c.want)
		}
	}
	// Under: SR 6 is unharmed on 15, wounded on 16; a second wound kills (R523).
	p := &strike.Personality{Name: "Sir Ralph", SR: 6}
	d := strike.NewScript(15, 16, 16)
	for i, want := range []struct{ unharmed, wounded, killed bool }{{true, false, false}, {false, true, false}, {false, true, true}} {
		c, err := strike.MeleeCheck(tb, d, p, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Unharmed != want.unharmed || p.Wounded != want.wounded || p.Killed != want.killed {
			t.Errorf("check %d: %+v, personality %+v", i+1, c, p)
		}
	}
}

// The loser's Personality checks with the loss and the strike
// difference, in the melee.
func TestMeleePCSOfTheLoser(t *testing.T) {
	tb := tables(t)
	kn, maa := unit(t, tb, "Kn", 2), unit(t, tb, "Maa", 4)
	maa.Personality = &strike.Personality{Name: "Sir Ralph", SR: 8} // bonus +7
	// Kn (CV 7, doubles ≤3): 1, 2 → 4 strikes. Maa 12, 12 miss; his die
	// at 14: 15 misses. Lost by 4: PCS 17-5-4 = 8: 8 wounds him.
	d := strike.NewScript(1, 2, 12, 12, 15, 8)
	r, err := strike.Melee(tb, d, strike.MeleeSide{Unit: kn, Fighters: 2}, strike.MeleeSide{Unit: maa, Fighters: 2})
	if err != nil {
		t.Fatal(err)
	}
	used(t, d)
	if r.AttackerLost || r.Difference != 4 || r.Defender.Checks[0].Need != 8 || !maa.Personality.Wounded {
		t.Errorf("%+v; %+v", r, maa.Personality)
	}
}

// C. CAPTURING: "Joker: Killed Face or Ace: Captured Other: Escaped
// unharmed", a card per event, through the dice.
func TestCapture(t *testing.T) {
	cases := []struct {
		c    strike.Card
		want strike.Fate
	}{
		{strike.Card{Joker: true}, strike.Killed},
		{strike.Card{Rank: 1, Suit: "S"}, strike.Captured},
		{strike.Card{Rank: 11, Suit: "H"}, strike.Captured},
		{strike.Card{Rank: 12, Suit: "D"}, strike.Captured},
		{strike.Card{Rank: 13, Suit: "C"}, strike.Captured},
		{strike.Card{Rank: 2, Suit: "C"}, strike.Escaped},
		{strike.Card{Rank: 10, Suit: "H"}, strike.Escaped},
	}
	for _, c := range cases {
		d := &strike.Script{Cards: []strike.Card{c.c}}
		p := &strike.Personality{Name: "Sir Ralph", SR: 7}
		card, fate, err := strike.Capture(d, p, "his unit lost the melee")
		if err != nil {
			t.Fatal(err)
		}
		if fate != c.want || card != c.c || p.Killed != (c.want == strike.Killed) || p.Captured != (c.want == strike.Captured) {
			t.Errorf("%s: %s, %+v; want %s", c.c, fate, p, c.want)
		}
		if d.Log[0] != "card "+c.c.String()+": capture of Sir Ralph: his unit lost the melee" {
			t.Errorf("log %q", d.Log)
		}
	}
	bad := &strike.Script{Cards: []strike.Card{{Rank: 14, Suit: "S"}}}
	if _, _, err := strike.Capture(bad, &strike.Personality{Name: "X"}, "x"); err == nil {
		t.Error("a 14 of spades was drawn")
	}
}

// R524: one draw for a Personality wounded in the melee or on the losing
// side, once if both; none for the dead or the already captured.
func TestMustDraw(t *testing.T) {
	cases := []struct {
		p             strike.Personality
		wounded, lost bool
		want          bool
	}{
		{strike.Personality{}, false, false, false},
		{strike.Personality{}, true, false, true},
		{strike.Personality{}, false, true, true},
		{strike.Personality{}, true, true, true},
		{strike.Personality{Killed: true}, true, true, false},
		{strike.Personality{Captured: true}, false, true, false},
	}
	for i, c := range cases {
		p := c.p
		if got := strike.MustDraw(&p, c.wounded, c.lost); got != c.want {
			t.Errorf("case %d: %v, want %v", i+1, got, c.want)
		}
	}
}
