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

// At the prompt, help, map and units answer at once and are not orders
// (issue 16, item 8): the board shows each unit in its row, the roster
// each unit's hex, facing and state.
func TestPlayHelpMapUnits(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"play", "--scenario", "crecy"}, strings.NewReader("help\nmap\nunits\nACTIVATE Doria\nEND\n\n"), &stdout, &stderr)
	out := stdout.String()
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, stderr.String())
	}
	for _, want := range []string{"  map     the part of the map", "  LB1    Longbow                    0610 facing E  Normal",
		"King Philip's Battle (leader King Philip off the map", "The French activate Doria (Free Activation)."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// LB4 stands in 0604: on the line of row 04, under column 06.
	var header, row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "row 02") {
			header = l[strings.Index(l, "row 02"):]
		}
		if strings.HasPrefix(l, "04  ") {
			row = l
		}
	}
	col := strings.Index(header, "06")
	if header == "" || row == "" || col < 0 || !strings.HasPrefix(row[col:], "LB4") {
		t.Errorf("LB4 not under column 06 in row 04:\n%s\n%s", header, row)
	}
	if strings.Contains(out, "Refused") {
		t.Errorf("a word was taken for an order:\n%s", out)
	}
}

// Hot-seat play shows the orders kept after CONTINUE, and what became of
// them once the opponent declined and the Continuity DR failed.
func TestPlayShowsKeptOrders(t *testing.T) {
	var stdout, stderr bytes.Buffer
	in := "ACTIVATE Doria\nEND\nCONTINUE Grimaldi\nMOVE CB4 1011\n\nDECLINE\n\n"
	if code := Main([]string{"play", "--scenario", "crecy", "--dice", "9"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"Kept until the English decide on Seizure", "    line 4: MOVE CB4 1011",
		"Kept order of the French not carried out: MOVE CB4 1011 (the Continuity DR for Grimaldi failed)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Blood & Roses 6.3 hot-seat: --counters gives the hands, which are
// printed, and the Blore Heath example plays (a 1 on a 0-5 counter
// Seizes); without it each side draws its number blindly; a counter not
// in the pool is refused before anything is played.
func TestPlaySeizureCounters(t *testing.T) {
	orders := "[Lancastrians]\nACTIVATE audley\nEND\nCONTINUE dudley\n\n[Yorkists]\nSEIZE salisbury WITH SO5\n\n[Lancastrians]\nDECLINE\n"
	var out, errb bytes.Buffer
	code := Main([]string{"play", "--scenario", "blore-heath", "--counters", "Yorkists=SO5,SN,BC;Lancastrians=SO4,IB", "--dice", "1"},
		strings.NewReader(orders), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s\n%s", code, errb.String(), out.String())
	}
	for _, want := range []string{
		"The Yorkists hold Seizure counters: SO5 (Seizure Opportunity 0-5); SN (Seizure Negation); BC (Battle Cry).",
		"The Lancastrians hold Seizure counters: SO4 (Seizure Opportunity 0-4); IB (Into the Breach).",
		"counter SO5 (0-5): a roll of 1, within its range: Seized (B&R 6.3)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := Main([]string{"play", "--scenario", "blore-heath"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("drawn hands: exit %d: %s", code, errb.String())
	}
	if n := strings.Count(out.String(), "hold Seizure counters: "); n != 2 || strings.Count(out.String(), "; ") < 3 {
		t.Errorf("want two drawn hands of 3 and 2 (blore-heath.yaml):\n%s", out.String())
	}
	errb.Reset()
	if code := Main([]string{"play", "--scenario", "blore-heath", "--counters", "Yorkists=SO9"}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), `"SO9" is not a counter of the pool (SO3, SO4, SO5, SO6, SN, BC, TR, NM, IB)`) {
		t.Errorf("a counter not in the pool: exit %d, %s", code, errb.String())
	}
}
