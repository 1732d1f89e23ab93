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
		{"seize Somerset with SO4", "SEIZE Somerset WITH SO4"},
		{"SEIZE John, Lord Wenlock, with Edward, Prince of Wales WITH NM", "SEIZE John, Lord Wenlock, with Edward, Prince of Wales WITH NM"}, // a name holding "with"
		{"seize Somerset with SO4 SO5", "error: one Seizure Opportunity counter"},
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
		{"move kn1 3319 3420 face e", "MOVE kn1 3319 3420 FACE E"},
		{"MOVE MM1 with Edward 0409 0509", "MOVE MM1 WITH Edward 0409 0509"},
		{"move hb1 0303 dismount 0403 face sw", "MOVE hb1 0303 DISMOUNT 0403 FACE SW"},
		{"move hb1 mount", "MOVE hb1 MOUNT"},
		{"move Godfrey 0610 0609", "MOVE Godfrey 0610 0609"},
		{"face lb1 ne", "FACE lb1 NE"},
		{"MOVE KN1", "error: needs a unit and the hexes"},
		{"MOVE KN1 WITH Edward", "error: WITH needs the leader and the path"},
		{"MOVE KN1 3319 FACE", "error: FACE takes one vertex"},
		{"MOVE KN1 3319 FACE N", "error: is not a vertex"},
		{"MOVE KN1 33x9", "error: is not a hex id"},
		{"shock x y at b", "SHOCK x y AT b"},
		{"Shock X at A B", "SHOCK X AT A B"},
		{"shock x y at a b", "error: only a unit attacking by itself"},
		{"shock x at a b c", "error: one unit, or two"},
		{"shock at b", "error: needs the attacking units"},
		{"charge z at c 0504", "CHARGE z AT c 0504"},
		{"charge z y at c", "error: needs one charging unit"},
		{"counter-charge ma1", "COUNTER-CHARGE ma1"},
		{"counter-charge ma1 shock", "COUNTER-CHARGE ma1 SHOCK"},
		{"counter-charge ma1 fire", "error: CHARGE or SHOCK"},
		{"stand", "STAND"},
		{"stand ma1 ma2", "error: STAND takes one unit"},
		{"retreat before shock ge1 0604 face sw", "RETREAT BEFORE SHOCK ge1 0604 FACE SW"},
		{"retreat before shock ge1", "error: needs your unit and the hex"},
		{"standing counter-charge never percy", "STANDING COUNTER-CHARGE NEVER percy"},
		{"standing retreat before shock ask", "STANDING RETREAT BEFORE SHOCK ASK"},
		{"standing advance always", "STANDING ADVANCE ALWAYS"},
		{"standing advance ask", "error: cannot wait for a mail"},
		{"standing advance after combat ask", "STANDING ADVANCE AFTER COMBAT ASK"},
		{"Standing Advance After Combat auto", "STANDING ADVANCE AFTER COMBAT AUTO"},
		{"standing advance after combat always", "error: takes ASK or AUTO"},
		{"advance z 0505", "ADVANCE z 0505"},
		{"advance z 0505 face se", "ADVANCE z 0505 FACE SE"},
		{"advance z 0505 face n", "error: is not a vertex"},
		{"advance z 05x5", "error: is not a hex id"},
		{"advance z", "error: needs the unit and the vacated hex"},
		{"advance z 0505 se", "error: needs the unit and the vacated hex"},
		{"MOVE KN1 FACE E", "error: at least one hex"},
		{"MOVE HB1 MOUNT 0303 DISMOUNT", "error: mounts or dismounts once"},
		{"FACE LB1", "error: FACE needs a unit and a vertex"},
		{"FACE LB1 north", "error: is not a vertex"},
	} {
		orders, err := engine.ParseOrders([]engine.Line{{No: 3, Text: tc.in}})
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			ill, isIll := err.(*engine.IllegalOrderError)
			if !isIll || !strings.Contains(ill.Reason, want) || ill.Line != 3 || ill.Rule != "docs/orders.md" {
				t.Errorf("ParseOrders(%q) = %v, %v; want an error on line 3 containing %q, citing docs/orders.md", tc.in, orders, err, want)
			} else {
				checked(ill.Rule, ill.Reason)
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
	for _, s := range []string{"ACTIVATE Doria\nEND\nCONTINUE Grimaldi", "standing seize a if b, c", "SEIZE Alençon # c", "no seize", "\x00\n\n#",
		"MOVE KN1 3319 3420 FACE E", "move mm1 with edward 0409 0509 face ne", "MOVE HB1 0303 DISMOUNT 0403", "MOVE HB1 MOUNT", "FACE LB1 sw", "MOVE X FACE", "move a with b face e e",
		"SHOCK X Y AT B", "shock x at a b", "CHARGE Z AT C 0504", "charge z at c 0304 0404", "COUNTER-CHARGE MA1 shock", "STAND", "stand ma1",
		"RETREAT BEFORE SHOCK GE1 0604 face sw", "STANDING COUNTER-CHARGE ask MA1", "standing retreat before shock always percy", "STANDING ADVANCE NEVER",
		"ADVANCE Z 0505 face se", "standing advance after combat ask"} {
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
