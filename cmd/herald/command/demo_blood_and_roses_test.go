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
// mail through the embedded server to their end, a side's failed Loss
// Check against its Flight Level (16.0), like TestDemoInfidelBattles. The
// scripted players close with the enemy (pbem/games.Autoplayer with its
// Battle set, as herald demo sets it): the units that may fire fire, every
// other unit that can come nearer the enemy units their mails told of
// moves to the nearest hex its reach list offers, at any cost (across the
// Hempmill Brook at Blore Heath), then they Charge and Shock. Before, they
// moved one unit a hex of 1 MP or fired, and both armies shot at long
// range for ever. Each mail the players answered is read back, and the
// dice log verifies.
func TestDemoBloodAndRosesBattles(t *testing.T) {
	if raceBuild {
		t.Skip("whole battles take minutes under the race detector: .ci/run runs this test without -race")
	}
	for _, scenario := range []string{"blore-heath", "tewkesbury"} {
		t.Run(scenario, func(t *testing.T) { demoToItsEnd(t, scenario, "Yorkists|Lancastrians") })
	}
}

// demoToItsEnd plays herald demo on a battle until its end and checks the
// mails the players answered (combat, a Shock or Charge, the armies'
// Flight Points, a Loss Check of one of sides rolled, the battle over)
// and that the dice log verifies. sides is a regexp of the side names.
func demoToItsEnd(t *testing.T, scenario, sides string) {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main([]string{"demo", "--out", out, "--moves", "1000", "--scenario", scenario}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
	combat := regexp.MustCompile(`(Fire|Shock|Charge) DR: \S+ (at|against)`)
	shock := regexp.MustCompile(`(Shock|Charge) DR: \S+ against`)
	flight := regexp.MustCompile(`(` + sides + `) \(\S+\): \d+ Flight Points?, Flight Level \d+`)
	decided := regexp.MustCompile(`Loss Check for the (` + sides + `): a roll of`)
	var fought, shocked, armies, lost, over bool
	for _, f := range emls {
		b := mustRead(t, f)
		fought = fought || combat.Match(b)
		shocked = shocked || shock.Match(b)
		armies = armies || flight.Match(b)
		lost = lost || decided.Match(b)
		over = over || bytes.Contains(b, []byte("the battle is over"))
	}
	if !fought || !shocked || !armies || !lost || !over {
		t.Errorf("in %d mails: combat %v, Shock or Charge %v, Flight Points stated %v, decided by %q %v, battle over %v\n%s",
			len(emls), fought, shocked, armies, decided, lost, over, stdout.String())
	}
	if !strings.Contains(stdout.String(), "The game is over") {
		t.Errorf("the demo did not end the battle:\n%s", stdout.String())
	}
	if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
		t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
	}
}
