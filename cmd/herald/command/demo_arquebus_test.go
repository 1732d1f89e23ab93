package command

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoArquebusBattles: Herald's reconstructions of Fornovo (1495) and
// Pavia (1525), on Arquebus' house tables, play by mail through the
// embedded server to their end, a side's failed Loss Check against its
// Flight Level (Arquebus 3.0), like TestDemoBloodAndRosesBattles: the
// scripted players fire, close with the enemy (across the Taro at
// Fornovo, the Vernavola at Pavia), Charge and Shock. Each mail the
// players answered is read back, and the dice log verifies.
func TestDemoArquebusBattles(t *testing.T) {
	if raceBuild {
		t.Skip("whole battles take minutes under the race detector: .ci/run runs this test without -race")
	}
	for _, tc := range []struct{ scenario, sides string }{
		{"fornovo", "French|Italians"},
		{"pavia", "French|Imperialists"},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main([]string{"demo", "--out", out, "--moves", "1000", "--scenario", tc.scenario}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
			}
			emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
			combat := regexp.MustCompile(`(Fire|Shock|Charge) DR: \S+ (at|against)`)
			shock := regexp.MustCompile(`(Shock|Charge) DR: \S+ against`)
			flight := regexp.MustCompile(`(` + tc.sides + `) \(\S+\): \d+ Flight Points?, Flight Level \d+`)
			decided := regexp.MustCompile(`Loss Check for the (` + tc.sides + `): a roll of`)
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
		})
	}
}
