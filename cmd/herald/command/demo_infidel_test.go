package command

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoInfidelBattles: Herald's reconstructions of Infidel's battles,
// on Infidel's own tables, play by mail through the embedded server to
// their end: Ascalon (1099) by Loss Checks, Arsuf (1191) by Victory Points
// (Infidel 2.4, ruling R176): at the battle's last Activation, or as soon
// as a side leads by 10, which the scripted players, closing with the
// enemy, often reach first. Each mail the players answered is read back.
func TestDemoInfidelBattles(t *testing.T) {
	if raceBuild {
		t.Skip("whole battles take minutes under the race detector: .ci/run runs this test without -race")
	}
	for _, c := range []struct {
		scenario string
		decided  *regexp.Regexp // the line that decides the battle
	}{
		{"ascalon", regexp.MustCompile(`Loss Check for the (Crusaders|Fatimids): a roll of`)},
		{"arsuf", regexp.MustCompile(`Victory Points: the Crusaders \d+, the Ayyubids \d+, after Activation|(Crusaders|Ayyubids)\s+have\s+\d+\s+Victory\s+Points\s+to\s+the\s+(Crusaders|Ayyubids)'\s+\d+`)},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := Main([]string{"demo", "--out", out, "--moves", "400", "--scenario", c.scenario}, strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
			}
			emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
			combat := regexp.MustCompile(`(Fire|Shock|Charge) DR: \S+ (at|against)`)
			var fought, decided, over bool
			for _, f := range emls {
				b := mustRead(t, f)
				fought = fought || combat.Match(b)
				decided = decided || c.decided.Match(b)
				over = over || bytes.Contains(b, []byte("the battle is over"))
			}
			if !fought || !decided || !over {
				t.Errorf("in %d mails: combat %v, decided by %q %v, battle over %v", len(emls), fought, c.decided, decided, over)
			}
			for _, player := range []string{"alice", "bob"} {
				welcome := mustRead(t, filepath.Join(out, player+"-processed-001.eml"))
				if !bytes.Contains(welcome, []byte("This battle's own rules")) {
					t.Errorf("%s's welcome does not state the battle's own rules", player)
				}
			}
			if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
				t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
			}
		})
	}
}
