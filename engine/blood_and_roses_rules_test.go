package engine_test

import (
	"maps"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// The rules Blood & Roses changes, each played on its own house tables
// (data/tables/blood-and-roses.yaml) through orders: every case cites the
// section of blood-and-roses.md it holds.

// brMelee is the melee fixture on Blood & Roses' tables (a copy the test
// may change), its leaders commanding the whole small map.
func brMelee(t *testing.T, dice ...int) *game {
	t.Helper()
	g := melee(t, dice...)
	tb, err := data.Tables("blood-and-roses")
	if err != nil {
		t.Fatal(err)
	}
	cp := *tb
	cp.WSM = maps.Clone(tb.WSM)
	cp.UnitTypes = maps.Clone(tb.UnitTypes)
	g.sc.Tables, g.sc.Volume = &cp, "blood-and-roses"
	return g
}

// blood-and-roses.md 5.5 By Shock: "roll one die for the leader, with no
// adjustments. If the DR is 7 or more the leader is killed" — where Men
// of Iron 15.4 subtracts his Activation Rating (a die of 6 less an AR of
// 3 is 3, which kills there).
func TestBloodAndRosesLeaderCasualtyUnmodified(t *testing.T) {
	for _, tc := range []struct {
		die    int
		killed bool
	}{{7, true}, {6, false}} {
		g := brMelee(t, 4, tc.die)
		c := "0505"
		g.troop("CA1", c, hex.FaceW, "INF")
		g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "MM")
		g.lead("carl", c)
		evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
		atts := resolved(evs)
		if len(atts) != 1 || g.unit("CA1").Status != engine.Disordered {
			t.Fatalf("want CA1 Disordered (4 +2 WSM = 6):\n%s", g.story(evs))
		}
		lc, ok := findEvent[engine.LeaderCasualtyRolled](evs)
		if !ok || lc.Leader != "carl" || lc.Roll.Total != tc.die || len(lc.Roll.Mods) != 0 || lc.Killed != tc.killed {
			t.Errorf("die %d: casualty %+v, want unmodified, killed %v:\n%s", tc.die, lc, tc.killed, g.story(evs))
		}
	}
}
