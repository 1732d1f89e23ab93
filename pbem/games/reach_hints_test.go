package games

import (
	"strings"
	"testing"
)

// Reach hints are searched once per state, for the one mail that shows
// them: the mail of the player who is to give his Command's orders, when
// it is composed after the commit (never in the mail's transaction). His
// opponent's mail of the same block, a refused block's mail and a block
// that ends the Activation search none.
func TestReachHintsOncePerState(t *testing.T) {
	f := newFixture(t)
	f.deliverAll()
	const hints = "Where your units can move"
	step := func(raw []byte, status string, searched int64, hinted string) {
		t.Helper()
		before := reachHintStates.Load()
		if out := f.handle(raw); out.Status != status {
			t.Fatalf("outcome %+v, want %s", out, status)
		}
		if got := reachHintStates.Load() - before; got != 0 {
			t.Errorf("reach hints searched %d times in the mail's transaction", got)
		}
		mails := f.deliverAll()
		if got := reachHintStates.Load() - before; got != searched {
			t.Errorf("reach hints searched %d times, want %d", got, searched)
		}
		for _, m := range mails {
			if shows := strings.Contains(string(m.raw), hints); shows != (m.to == hinted) {
				t.Errorf("mail to %s shows reach hints: %v", m.to, shows)
			}
		}
	}
	step(f.orders(bob, "", "ACTIVATE Doria"), "applied", 1, bob)
	// The hints the mail shows are those of the state as it stands, and
	// STATUS shows them again.
	g, err := f.svc.view(f.game)
	if err != nil {
		t.Fatal(err)
	}
	want := reachHints(g.sc, g.st)
	if len(want) == 0 {
		t.Fatal("no hints after ACTIVATE")
	}
	f.handle(f.orders(bob, "", "STATUS"))
	again := only(t, f.deliverAll(), bob)
	for _, h := range want {
		if !strings.Contains(flat(again.mail.Text), strings.Fields(h)[0]+" "+strings.Join(strings.Fields(h)[1:3], " ")) {
			t.Errorf("STATUS does not show the hint %q:\n%s", h, again.mail.Text)
		}
	}
	step(f.orders(bob, "", "MOVE NOSUCHUNIT 0101"), "refused:illegal-order", 0, "")
	step(f.orders(bob, "", "END"), "applied", 0, "")
}
