package engine_test

import (
	"bytes"
	"strings"
	"testing"

	"herald/engine"
)

// heldGame: Red's Anna went and Red names Bert for Continuity with
// Bert's orders in the same block; Blue (Carl) may Seize (ruling R140).
func heldGame(t *testing.T, dice ...int) (*game, *engine.BlockResult) {
	t.Helper()
	g := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3}), dice...)
	res := g.send(0, "ACTIVATE Anna\nEND\nCONTINUE Bert\nMOVE BE1 0303\nEND")
	return g, res
}

func unitHex(g *game, id string) string {
	for _, u := range g.st.Units {
		if u.ID == id {
			return u.Hex.String()
		}
	}
	return ""
}

// The orders after CONTINUE wait in the state while Blue decides on
// Seizure: neither applied nor dropped, and known only to Red.
func TestOrdersAfterContinueAreHeld(t *testing.T) {
	g, res := heldGame(t)
	if len(res.NotApplied) != 0 || len(res.Held) != 2 || res.Held[0].LineNo() != 4 {
		t.Fatalf("held %v, not applied %v (%s); want lines 4 and 5 held", res.Held, res.NotApplied, res.Stopped)
	}
	if g.st.Pending.Kind != engine.DecideSeizure || g.st.Held == nil || len(g.st.Held.Lines) != 2 || g.st.Held.Lines[0].Text != "MOVE BE1 0303" {
		t.Fatalf("pending %v, held %+v", g.st.Pending, g.st.Held)
	}
	var private int
	for _, e := range res.Events {
		if side, ok := engine.PrivateTo(e); ok {
			if side != 0 {
				t.Errorf("%T is private to side %d, want Red", e, side)
			}
			private++
		}
	}
	if private != 1 {
		t.Errorf("%d private events, want the OrdersHeld", private)
	}
	if !bytes.Equal(engine.Replay(g.sc, g.events).Encode(), g.st.Encode()) {
		t.Error("Replay of the events does not give the state with the held orders")
	}
}

// DECLINE, and the Continuation DR succeeds: Bert's orders are carried
// out in Blue's block; Blue's own later orders were written before them
// and stop.
func TestHeldOrdersCarriedOutWhenTheContinuationSucceeds(t *testing.T) {
	g, _ := heldGame(t, 1)
	res := g.send(1, "DECLINE\nACTIVATE Carl")
	if len(res.Released) != 1 || !res.Released[0].Carried || len(res.Released[0].Applied) != 2 {
		t.Fatalf("released %+v", res.Released)
	}
	if h := unitHex(g, "BE1"); h != "0303" {
		t.Errorf("BE1 in %s, want 0303", h)
	}
	if g.st.Held != nil || g.st.Pending.Kind != engine.DecideContinuation || g.st.Pending.Side != 0 {
		t.Errorf("after the held END: held %+v, pending %+v; want Red to continue or pass", g.st.Held, g.st.Pending)
	}
	if len(res.NotApplied) != 1 || !strings.Contains(res.Stopped, "carried out the orders they had given with their Continuation") {
		t.Errorf("Blue's ACTIVATE: not applied %v, %q", res.NotApplied, res.Stopped)
	}
	if !bytes.Equal(engine.Replay(g.sc, g.events).Encode(), g.st.Encode()) {
		t.Error("Replay of the events does not give the state")
	}
}

// A failed Continuation DR or a Seizure hands the orders back, unapplied,
// with the reason.
func TestHeldOrdersDroppedWhenTheContinuationFails(t *testing.T) {
	for _, c := range []struct {
		name, block string
		dice        []int
		why         string
	}{
		{"the DR fails", "DECLINE", []int{9}, "the Continuity DR for Bert failed"},
		{"Blue Seizes", "SEIZE Carl", []int{0}, "the Blue Seized Continuity with Carl"},
		{"Blue fails to Seize", "SEIZE Carl", []int{9}, "Free Activation instead of the Continuation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, _ := heldGame(t, c.dice...)
			res := g.send(1, c.block)
			if len(res.Released) != 1 || res.Released[0].Carried || len(res.Released[0].NotApplied) != 2 ||
				!strings.Contains(res.Released[0].Stopped, c.why) {
				t.Fatalf("released %+v, want both lines back because %q", res.Released, c.why)
			}
			if h := unitHex(g, "BE1"); h != "0203" || g.st.Held != nil {
				t.Errorf("BE1 in %s, held %+v: the held orders acted", h, g.st.Held)
			}
		})
	}
}

// A held order that is illegal once the Continuation succeeded stops the
// held orders there: the Continuation DR has been rolled, so what went
// before stands, and Blue's block is not refused for it.
func TestHeldOrderIllegalAfterTheRoll(t *testing.T) {
	g := newGame(t, fixture(map[string]int{"Anna": 3, "Bert": 3}, map[string]int{"Carl": 3}), 0)
	g.send(0, "ACTIVATE Anna\nEND\nCONTINUE Bert\nMOVE BE1 0303\nMOVE BE9 0304\nEND")
	res := g.send(1, "DECLINE")
	rel := res.Released[0]
	if !rel.Carried || len(rel.Applied) != 1 || rel.Refused == nil || rel.Refused.Line != 5 || len(rel.NotApplied) != 2 {
		t.Fatalf("released %+v", rel)
	}
	if h := unitHex(g, "BE1"); h != "0303" {
		t.Errorf("BE1 in %s, want 0303", h)
	}
}
