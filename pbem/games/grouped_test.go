package games

import (
	"strings"
	"testing"
)

// Issue 16, item 4: lines that share one reason get it once, after the
// last line of the group (templates.GroupReasons), in the mail the player
// reads: the orders after CONTINUE that Herald keeps over the opponent's
// Seizure decision, judged alike for every die face, and the same orders
// handed back when the Continuation fails.
func TestOneReasonForAGroupOfLines(t *testing.T) {
	const lines = "line 8: MOVE CB4 1011 line 9: MOVE CB5 1013 line 10: END "
	for try := 1; ; try++ {
		f := newFixture(t)
		if out := f.handle(f.orders(bob, "", "ACTIVATE Doria", "END", "CONTINUE Grimaldi", "MOVE CB4 1011", "MOVE CB5 1013", "END")); out.Status != "applied" {
			t.Fatalf("outcome %+v", out)
		}
		kept := mailSection(only(t, f.deliverAll(), bob).mail.Text, "Your orders after CONTINUE")
		groupedOnce(t, kept, lines, "Depends on the roll: carried out when the dice show 0–2; when they show 3–9, the Continuity DR for Grimaldi failed.")

		if out := f.handle(f.orders(alice, "", "DECLINE")); out.Status != "applied" {
			t.Fatalf("outcome %+v", out)
		}
		back := mailSection(only(t, f.deliverAll(), bob).mail.Text, "Your orders after CONTINUE")
		if strings.Contains(back, "succeeded") {
			if try == 20 {
				t.Fatalf("the Continuation of Grimaldi (AR 2) succeeded in 20 games in a row:\n%s", back)
			}
			continue // a new game, until the die fails it
		}
		if !strings.Contains(back, "were not carried out; they are back in your block below") {
			t.Fatalf("the kept orders are not handed back:\n%s", back)
		}
		groupedOnce(t, back, lines, "Not carried out: the Continuity DR for Grimaldi failed.")
		return
	}
}

// groupedOnce checks that a mail's section gives reason once, right after
// the group of lines it is the reason of.
func groupedOnce(t *testing.T, section, lines, reason string) {
	t.Helper()
	if n := strings.Count(section, reason); n != 1 {
		t.Errorf("the reason %q is given %d times, want once:\n%s", reason, n, section)
	}
	if !strings.Contains(section, lines+reason) {
		t.Errorf("the reason %q does not follow the group of lines %q:\n%s", reason, lines, section)
	}
}
