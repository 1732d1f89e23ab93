package templates

import (
	"strings"
	"testing"
)

// Lines that share a reason in a row give it once, after the last of
// them (GroupReasons), in both parts of a rendered mail: the orders not
// carried out, and the orders kept after CONTINUE. A different reason
// after the group is its own.
func TestGroupReasonsRendered(t *testing.T) {
	const (
		stopped = "the Continuity DR for Grimaldi failed"
		refused = "no unit of the French is called MA22"
	)
	list := GroupReasons([]NotApplied{
		{LineNo: 8, Line: "MOVE CB4 1011", Reason: stopped},
		{LineNo: 9, Line: "MOVE CB5 1013", Reason: stopped},
		{LineNo: 10, Line: "END", Reason: stopped},
		{LineNo: 11, Line: "MOVE MA22 1308", Reason: refused, Rule: "5.1"},
	})
	for i, want := range []string{"", "", stopped, refused} {
		if list[i].Reason != want {
			t.Errorf("line %d: reason %q, want %q", list[i].LineNo, list[i].Reason, want)
		}
	}
	v := sampleNamed(t, "result-french-waits").(Result)
	v.NotApplied = list
	v.Kept, v.KeptSide, v.KeptIntro = list, french, "The orders you had given after CONTINUE were not carried out:"
	m, err := Render(v)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(m.Text), " ")
	group := "line 8: MOVE CB4 1011 line 9: MOVE CB5 1013 line 10: END The Continuity DR for Grimaldi failed. line 11: MOVE MA22 1308 No unit of the French is called MA22 (5.1)."
	if n := strings.Count(text, group); n != 2 {
		t.Errorf("the text part lists the group with its reason once %d times, want 2 (not carried out, kept):\n%s", n, m.Text)
	}
	if n := strings.Count(text, "Continuity DR for Grimaldi failed"); n != 2 {
		t.Errorf("the text part gives the group's reason %d times, want once in each list:\n%s", n, m.Text)
	}
	if n := strings.Count(m.HTML, "Continuity DR for Grimaldi failed"); n != 2 {
		t.Errorf("the HTML part gives the group's reason %d times, want once in each list", n)
	}
	for _, part := range strings.Split(m.HTML, "MOVE CB4 1011</code>")[1:] {
		end, reason, next := strings.Index(part, "END</code>"), strings.Index(part, "Continuity DR for Grimaldi failed"), strings.Index(part, "MOVE MA22 1308</code>")
		if end < 0 || reason < end || next < reason {
			t.Errorf("in the HTML part, the reason does not follow the group's last line:\n%s", part[:min(len(part), 2000)])
		}
	}
}
