package command

import (
	"bytes"
	"image/png"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoStrikeBattle: the D20 strike system's house battle, Mauron 1352,
// plays by mail through the embedded server to its end (the house victory
// rule, R540), the scripted players' blocks chosen by the system (the
// table is public); the mails tell the D20s, the table's pictures decode,
// and the dice log verifies with every block replayed through the strike
// rules, as herald verify does.
func TestDemoStrikeBattle(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"demo", "--out", out, "--moves", "100", "--scenario", "mauron"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "The game is over") || !strings.Contains(stdout.String(), "engine replay: every block reproduced") {
		t.Errorf("the demo did not end the battle, or its log was not replayed:\n%s", stdout.String())
	}
	// Mail text is wrapped: a D20's line goes on after its first words.
	d20 := regexp.MustCompile(`d20 for \S+ [^\n]*\n[^\n]*: \d+, a (miss|strike)`)
	armies := regexp.MustCompile(`stands on the\s+table; the army\s+breaks at`)
	emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
	var rolled, standing bool
	for _, f := range emls {
		b := mustRead(t, f)
		rolled = rolled || d20.Match(b)
		standing = standing || armies.Match(b)
	}
	if !rolled || !standing {
		t.Errorf("in %d mails: a D20 told %v, the armies' stands %v", len(emls), rolled, standing)
	}
	pics, _ := filepath.Glob(filepath.Join(out, "map-*-table.png"))
	if len(pics) < 3 {
		t.Fatalf("%d pictures of the table written, want one a block", len(pics))
	}
	for _, p := range pics {
		img, err := png.Decode(bytes.NewReader(mustRead(t, p)))
		if err != nil || img.Bounds().Dx() < 1000 {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if code, out := runVerifyOn(t, mustRead(t, filepath.Join(out, "dice.jsonl"))); code != 0 {
		t.Errorf("herald verify on the demo's log: exit %d\n%s", code, out)
	}
}
