package games

import (
	"slices"
	"testing"

	"herald/engine/hex"
)

// The scripted player declares each unit's attack once: a unit's later
// declaration replaces its earlier one (engine AttackDeclared), so a
// second Charge would silently drop the first.
func TestAttacksOnePerUnit(t *testing.T) {
	legal := []string{
		"CHARGE SK2 AT EM1 0304 0404",
		"CHARGE SK2 AT EL1 0405",
		"SHOCK SK1 AT EM2",
		"SHOCK SK2 AT EL1",
	}
	got := attacks(legal, func(string) bool { return false })
	want := []string{"CHARGE SK2 AT EM1 0304 0404", "SHOCK SK1 AT EM2"}
	if !slices.Equal(got, want) {
		t.Errorf("attacks = %q, want %q", got, want)
	}
}

// A reinforcement, which the player does not see on the map, enters at
// its cheapest hex (5.3), the one nearest the enemy of those, facing the
// enemy; a hex another move of the block takes is left to it.
func TestReinforcementEnters(t *testing.T) {
	g := hex.Grid{MinCol: 1, MaxCol: 20, MinRow: 1, MaxRow: 12}
	at := func(id string) hex.Hex {
		h, err := hex.Parse(id)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	v := &battleView{at: map[string]hex.Hex{}}
	r, ok := parseReach("LY1: 0112 (1), 0212 (1), 0111 (2), 0211 (2), 0311 (2)")
	if !ok {
		t.Fatal("reach line not read")
	}
	enemies := []hex.Hex{at("1512")} // east: 0212 is nearer than 0112
	taken := map[hex.Hex]bool{}
	face := func(h string) string { return g.FacingToward(at(h), enemies[0]).String() }
	if got, want := v.advance(&g, r, enemies, taken), "MOVE LY1 0212 FACE "+face("0212"); got != want {
		t.Errorf("first entry %q, want %q", got, want)
	}
	if got, want := v.advance(&g, r, enemies, taken), "MOVE LY1 0112 FACE "+face("0112"); got != want {
		t.Errorf("with 0212 taken %q, want %q", got, want)
	}
}

// Players who vary their rounds (Autoplayer.Vary) answer the same mail
// with different blocks, and one who does not as the player always did:
// tools/burst's games then draw maps of their own.
func TestAutoplayerVaries(t *testing.T) {
	f := newFixture(t)
	blocks := map[string]int{}
	for _, m := range f.welcomes {
		for vary := range 6 {
			reply, err := (&Autoplayer{Address: m.to, Vary: vary}).Reply(m.raw)
			if err != nil {
				t.Fatal(err)
			}
			if reply != nil { // the welcome of the side to act
				blocks[reply.Text]++
			}
		}
	}
	if len(blocks) < 3 {
		t.Errorf("six players varied by 0…5 wrote %d different blocks, want at least 3", len(blocks))
	}
}
