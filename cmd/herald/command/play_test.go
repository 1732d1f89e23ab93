package command

import (
	"bytes"
	"strings"
	"testing"
)

// The README's first command: the sample opening plays through and ends
// with the French to choose a Continuation.
func TestPlaySample(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"play", "--scenario", "crecy", "--orders", "../../../data/samples/crecy-opening.orders", "--dice", "7,5,2,8"},
		strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, errb.String(), out.String())
	}
	for _, want := range []string{
		"Continuity DR for Grimaldi: a roll of 7, higher than Grimaldi's Activation Rating of 2",
		"The French try to Seize Continuity with Alençon: a roll of 5",
		"The English activate Godfrey (Free Activation).",
		"waiting for the French to choose a Command for Continuity",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// An illegal block is refused with its line, rule and the legal orders,
// and the exit code says so.
func TestPlayRefusal(t *testing.T) {
	var out, errb bytes.Buffer
	in := "[French]\nACTIVATE Doria\nEND\nCONTINUE Doria\n"
	code := Main([]string{"play", "--scenario", "crecy", "--dice", "1"}, strings.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("interactive exit %d", code)
	}
	if !strings.Contains(out.String(), "Refused, line 4: CONTINUE Doria") || !strings.Contains(out.String(), "(4.2)") {
		t.Errorf("want a refusal citing 4.2:\n%s", out.String())
	}
}

func TestJSONOutput(t *testing.T) {
	var out, errb bytes.Buffer
	code := Main([]string{"play", "--scenario", "crecy", "--json", "--orders", "../../../data/samples/crecy-opening.orders", "--dice", "7,5,2,8"},
		strings.NewReader(""), &out, &errb)
	if code != 0 || !strings.Contains(out.String(), `"event":"ContinuityRolled"`) {
		t.Errorf("exit %d, output:\n%s", code, out.String())
	}
}
