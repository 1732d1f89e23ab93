package command

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoBloodAndRosesBattles: Herald's reconstructions of Blore Heath
// (1459) and Tewkesbury (1471), on Blood & Roses' house tables, play by
// mail through the embedded server: the scripted players open fire, every
// mail they answer is read back, and the dice log verifies.
//
// Unlike TestDemoInfidelBattles this does NOT play them to their end,
// because the scripted players (pbem/games.Autoplayer) cannot: they fire
// whenever any FIRE is legal and otherwise move one unit into a hex that
// costs 1 MP. Blood & Roses' Longbows reach 5 hexes and its Artillery 10
// (house tables), so from the opening both armies are in range and the
// players stand and shoot at long range for ever, where a modified roll
// rarely passes Disordered (400 moves: 7 and 9 Flight Points in all, far
// from Flight Levels of 14-17); and at Blore Heath no move across the
// Hempmill Brook costs 1 MP (stream +1), so no unit of either side would
// ever cross it. The test plays a fixed number of moves instead; when the
// players learn to close with the enemy, make it play to the end like the
// Infidel one.
func TestDemoBloodAndRosesBattles(t *testing.T) {
	if raceBuild {
		t.Skip("whole battles take minutes under the race detector: .ci/run runs this test without -race")
	}
	for _, scenario := range []string{"blore-heath", "tewkesbury"} {
		t.Run(scenario, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main([]string{"demo", "--out", out, "--moves", "40", "--scenario", scenario}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "to move 40 by mail") {
				t.Errorf("did not reach move 40:\n%s", stdout.String())
			}
			emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
			combat := regexp.MustCompile(`(Fire|Shock|Charge) DR: \S+ (at|against)`)
			flight := regexp.MustCompile(`(Yorkists|Lancastrians) \(\S+\): \d+ Flight Points?, Flight Level \d+`)
			var fought, armies bool
			for _, f := range emls {
				b := mustRead(t, f)
				fought = fought || combat.Match(b)
				armies = armies || flight.Match(b)
			}
			if !fought || !armies {
				t.Errorf("in %d mails: combat %v, Flight Points stated %v", len(emls), fought, armies)
			}
			if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
				t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
			}
		})
	}
}
