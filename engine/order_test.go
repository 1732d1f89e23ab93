package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
)

func TestParseOrders(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: canonical form, or "error: <substring>"
	}{
		{"activate godfrey", "ACTIVATE godfrey"},
		{"ACTIVATE  King   Edward  # the King", "ACTIVATE King Edward"},
		{"Activate Standard English", "ACTIVATE STANDARD English"},
		{"activate standard English move 1210", "ACTIVATE STANDARD English MOVE 1210"},
		{"pass", "PASS"},
		{"End", "END"},
		{"continue Grimaldi", "CONTINUE Grimaldi"},
		{"continue standard English", "CONTINUE STANDARD English"},
		{"seize Alençon", "SEIZE Alençon"},
		{"decline", "DECLINE"},
		{"no seize", "DECLINE"},
		{"standing seize never", "STANDING SEIZE NEVER"},
		{"standing seize ask", "STANDING SEIZE ASK"},
		{"standing seize Alencon if Edward,Northampton", "STANDING SEIZE Alencon IF Edward, Northampton"},
		{"# only a comment", ""},
		{"ACTIVATE", "error: needs the name"},
		{"PASS now", "error: takes nothing after it"},
		{"charge!", "error: unknown order"},
		{"standing fire", "error: STANDING orders exist for SEIZE"},
		{"standing seize Alencon if", "error: IF needs"},
		{"activate standard English move", "error: MOVE takes one hex"},
	} {
		orders, err := engine.ParseOrders([]engine.Line{{No: 3, Text: tc.in}})
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			ill, isIll := err.(*engine.IllegalOrderError)
			if !isIll || !strings.Contains(ill.Reason, want) || ill.Line != 3 {
				t.Errorf("ParseOrders(%q) = %v, %v; want an error on line 3 containing %q", tc.in, orders, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseOrders(%q): %v", tc.in, err)
			continue
		}
		if got := strings.TrimSuffix(engine.CanonicalBlock(orders), "\n"); got != tc.want {
			t.Errorf("ParseOrders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Parsing never panics, and the canonical form of what parses parses back
// to the same canonical form.
func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{"ACTIVATE Doria\nEND\nCONTINUE Grimaldi", "standing seize a if b, c", "SEIZE Alençon # c", "no seize", "\x00\n\n#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		orders, err := engine.ParseOrders(engine.SplitLines(text))
		if err != nil {
			return
		}
		canon := engine.CanonicalBlock(orders)
		again, err := engine.ParseOrders(engine.SplitLines(canon))
		if err != nil {
			t.Fatalf("canonical %q does not parse: %v", canon, err)
		}
		if c2 := engine.CanonicalBlock(again); c2 != canon {
			t.Fatalf("canonical form not stable: %q then %q", canon, c2)
		}
	})
}
