package games

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// A player whose blocks are refused for declarations its view of the
// field cannot foresee leaves out every order the move's refusals named,
// not only the last one's. The two refusals are of a demo of Fornovo
// (move 267): with IG1's Shock on FK1 declared, Herald refused IG2's
// Shock on FK2 and then IG4's on FR1 and FK3, FK2 and FK3 "would be
// attacked twice"; a player that remembered one refusal at a time sent
// the two again in turn, at that move and at every later one, and the
// battle never ended.
func TestAutoplayerRemembersRefusals(t *testing.T) {
	named := []string{"SHOCK IG2 AT FK2", "SHOCK IG4 AT FR1 FK3"}
	// The player has read its welcome (the roster; where the units stand
	// matters not here).
	a := &Autoplayer{Address: "bob@localhost", Battle: "fornovo",
		views: map[string]*battleView{"fornovo-demo-2109": newBattleView("Italians")}}
	var mails [][]byte
	for _, f := range []string{"refused-fornovo-ig2.eml", "refused-fornovo-ig4.eml"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		mails = append(mails, b)
	}
	for try, raw := range [][]byte{mails[0], mails[1], mails[0], mails[1], mails[0]} {
		r, err := a.Reply(raw)
		if err != nil || r == nil {
			t.Fatalf("try %d: reply %v, %v", try+1, r, err)
		}
		block, _, _ := strings.Cut(r.Text, "\nYours,") // the player's block, before the quoted mail
		if !strings.Contains(block, "--- end orders ---") {
			t.Fatalf("try %d: no block in the reply:\n%s", try+1, r.Text)
		}
		if try < 1 {
			continue // the refusal named one order so far
		}
		for _, o := range named {
			if slices.Contains(strings.Split(block, "\n"), o) {
				t.Errorf("try %d sends %q again, which a refusal of the move named:\n%s", try+1, o, block)
			}
		}
	}
}
