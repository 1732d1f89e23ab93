package engine_test

import (
	"errors"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
)

// Issue 16, item 8: a name typed wrong is answered with the nearest few
// names of the right kind, not with every Command, and unit typos get a
// suggestion too.
func TestDidYouMean(t *testing.T) {
	sc, err := data.Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	french, _ := sc.SideByName("French")
	for _, tc := range []struct {
		name, block string
		want        string // in the reason; "" for no suggestion
		not         []string
	}{
		{"a Command's typo: the one meant", "ACTIVATE Alencn", "did you mean Alençon?", []string{"Doria", "Grimaldi"}},
		{"nothing near: no list of every Command", "ACTIVATE Xerxes", "", []string{"Alençon", "Doria"}},
		{"an own unit's typo", "ACTIVATE Grimaldi\nMOVE CB44 1110", "did you mean CB4?", []string{"CB1", "CB5"}},
		{"an enemy unit's typo", "ACTIVATE Doria\nFIRE CB2 AT DM33", "did you mean DM3?", []string{"DM1", "LB3"}},
		{"an enemy unit named as one's own", "ACTIVATE Doria\nMOVE DM3 1006", "DM3 is a unit of the English", nil},
	} {
		lines := engine.SplitLines(tc.block)
		orders, err := engine.ParseOrders(lines)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = engine.Apply(sc, engine.NewState(sc), french, orders, engine.NewScript())
		var ill *engine.IllegalOrderError
		if !errors.As(err, &ill) {
			t.Fatalf("%s: got %v, want a refusal", tc.name, err)
		}
		switch {
		case tc.want == "" && strings.Contains(ill.Reason, "did you mean"):
			t.Errorf("%s: %q suggests", tc.name, ill.Reason)
		case tc.want != "" && !strings.Contains(ill.Reason, tc.want):
			t.Errorf("%s: %q does not say %q", tc.name, ill.Reason, tc.want)
		}
		for _, n := range tc.not {
			if strings.Contains(ill.Reason, n) {
				t.Errorf("%s: %q names %s", tc.name, ill.Reason, n)
			}
		}
	}
}
