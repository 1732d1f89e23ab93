package engine_test

import (
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// The Arquebus rule book's examples played on Herald's reconstructions of
// its battles, data/scenarios/fornovo.yaml and pavia.yaml (rulings
// R440-R445 in docs/rulings.md), through orders and scripted
// dice. The battles are the embedded ones, shared: only the game state is
// changed.

// The sides of both battles: the French are listed first.
const french, italians, imperialists = engine.Side(0), engine.Side(1), engine.Side(1)

func arqBattle(t *testing.T, id string, dice ...int) *game {
	t.Helper()
	sc, err := data.Scenario(id)
	if err != nil {
		t.Fatal(err)
	}
	return newGame(t, sc, dice...)
}

// ARQ 5.2 EXAMPLE (arq-5.2-gonzaga-charisma): "Gonzaga will give any unit
// he is stacked with a +4 DRM when attacking in Shock/Charge combat." At
// Fornovo the League's Gonzaga's Battle goes first; his household (IG3,
// Men-at-Arms, with him in 1010) Shocks the French rearguard's German foot
// (FR4, Pike) brought into its front: -1 the Pike's Shock Defense, +4
// Gonzaga's Charisma, -1 Men-at-Arms against Pike on the Weapon System
// Matrix; a die of 5 makes 7, Defender Disordered, Retreat 1 Hex. Without
// him the same die makes 3, Attacker Disordered. As the OC he gives it to
// a unit of another Battle too (5.2 "the OC or its Battle leader", R325),
// and his Charisma takes no Battle leader's.
func TestArquebusGonzagaCharisma(t *testing.T) {
	for _, tc := range []struct {
		name     string
		attacker string
		leader   string // in the attacker's hex, or none
		mods     []string
		total    int
		result   string
	}{
		{"IG3 with Gonzaga", "IG3", "gonzaga", []string{"-1 10.4 #3", "+4 10.4 #5, 12.3 #4", "-1 10.4 #6"}, 7, "Defender Disordered, Retreat 1 Hex"},
		{"IG3 without him", "IG3", "", []string{"-1 10.4 #3", "-1 10.4 #6"}, 3, "Attacker Disordered"},
		{"Caiozzo's IC3 with Gonzaga, the OC", "IC3", "gonzaga", []string{"-1 10.4 #3", "+4 10.4 #5, 12.3 #4", "-1 10.4 #6"}, 7, "Defender Disordered, Retreat 1 Hex"},
		{"Caiozzo's IC3 with Caiozzo", "IC3", "caiozzo", []string{"-1 10.4 #3", "+1 10.4 #5, 12.3 #4", "-1 10.4 #6"}, 4, "Engaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := arqBattle(t, "fornovo", 5)
			at := "1010"
			g.put(tc.attacker, at, hex.FaceW)
			if tc.attacker != "IG3" {
				g.put("IG3", "1212", hex.FaceW)
			}
			g.lead("gonzaga", "1212")
			if tc.leader != "" {
				g.lead(tc.leader, at)
			}
			front := g.nb(at, hex.NW)
			g.put("FR4", front, hex.FaceE)
			cmd := "Gonzaga"
			if tc.attacker == "IC3" {
				cmd = "Caiozzo"
			}
			g.send(italians, "ACTIVATE "+cmd)
			res := g.send(italians, "SHOCK "+tc.attacker+" AT FR4\nEND")
			atts := resolved(res.Events)
			if len(atts) != 1 {
				t.Fatalf("%d attacks, want 1:\n%s", len(atts), g.story(res.Events))
			}
			wantAttack(t, atts[0], "FR4", 5, tc.mods, tc.total, "Shock", tc.result)
			if _, ok := findEvent[engine.LeaderCasualtyRolled](res.Events); ok {
				t.Errorf("a leader checked, though his unit suffered nothing (5.4):\n%s", g.story(res.Events))
			}
		})
	}
}

// pavia63 plays the 6.3 Example up to the Imperialist Seizure: the
// Imperialists, who go first, pass; the French Free Activation takes
// Florence's Battle (R445: one Battle an Activation); the French select
// Francis's Battle for Continuation; the Imperialists, holding the
// Seizure Opportunity SO5 (0-5), try to Seize with Terranova's Battle.
func pavia63(t *testing.T, die int) (*game, *engine.BlockResult) {
	t.Helper()
	g := arqBattle(t, "pavia", die)
	g.deal(imperialists, "SO5:opportunity:0-5")
	g.send(imperialists, "PASS")
	res := g.send(french, "ACTIVATE Florence\nEND")
	if a, ok := findEvent[engine.CommandActivated](res.Events); !ok || a.Side != french || a.Command != "florence" || a.Kind != engine.FreeActivation {
		t.Fatalf("the French Free Activation: %+v:\n%s", a, g.story(res.Events))
	}
	res = g.send(french, "CONTINUE Francis")
	if c := continuities(res.Events); len(c) != 0 {
		t.Fatalf("a Continuation DR before the Imperialists could Seize (6.3 \"before the DR\"): %+v", c)
	}
	if l := strings.Join(engine.Legal(g.sc, g.st), "|"); !strings.HasPrefix(l, "SEIZE Terranova WITH <counter>|") || !strings.HasSuffix(l, "|DECLINE") {
		t.Fatalf("the Imperialists are not offered the Seizure: %s", l)
	}
	return g, g.send(imperialists, "SEIZE Terranova WITH SO5")
}

// ARQ 6.3 EXAMPLE (arq-6.3-pavia-seizure-counter): "The French player
// has a Free Activation. He selects Florence's and Montmorency's Battles
// to Activate. After that Activation, he selects Francis's Battle for an
// attempt at Continuation. The Imperialist player ... announces, before
// the DR, that he is going to attempt to Seize Continuity with
// Terranova's Battle. He plays a SEIZURE OPPORTUNITY counter with a range
// of 0-5. He then rolls the die, getting a '6' which is higher than the
// range on the counter. The French, with a Free Activation, now decides
// to Activate Florence's Battle once again. If the Imperialist player had
// rolled a '5', he would have Seized Continuity." No DRM (6.3); the
// counter is discarded either way. Herald activates one Battle an
// Activation: the two Battles of one Free Activation are refused, and the
// Example is played with Florence's (R445).
func TestArquebusPaviaSeizureCounter(t *testing.T) {
	g := arqBattle(t, "pavia")
	g.send(imperialists, "PASS")
	if ill := g.refuse(french, "ACTIVATE Florence Montmorency", "15.1"); !strings.Contains(ill.Error(), "ACTIVATE Florence | ACTIVATE Montmorency") {
		t.Errorf("the refusal does not name the legal Activations: %v", ill)
	}

	g, res := pavia63(t, 6)
	s, ok := findEvent[engine.SeizureRolled](res.Events)
	if !ok || s.Side != imperialists || s.Command != "terranova" || s.Counter != "SO5" || s.Min != 0 || s.Max != 5 ||
		s.Roll.Die != 6 || len(s.Roll.Mods) != 0 || s.Roll.Total != 6 || s.Success {
		t.Fatalf("the Seizure: %+v:\n%s", s, g.story(res.Events))
	}
	if f, ok := findEvent[engine.FreeActivationGranted](res.Events); !ok || f.Side != french {
		t.Fatalf("no Free Activation for the French: %+v:\n%s", f, g.story(res.Events))
	}
	if c := continuities(res.Events); len(c) != 0 {
		t.Errorf("Francis's Continuation was rolled after the failed Seizure: %+v", c)
	}
	if !playedIn(g.st, imperialists, "SO5") || g.st.Continuations[french] != 0 {
		t.Errorf("SO5 played %v, French Continuations %d, want discarded and 0", playedIn(g.st, imperialists, "SO5"), g.st.Continuations[french])
	}
	if story := g.story(res.Events); !strings.Contains(story, "counter SO5 (0-5): a roll of 6, not within its range: the Seizure fails") {
		t.Errorf("narrative:\n%s", story)
	}
	// "The French ... now decides to Activate Florence's Battle once
	// again": the Battle that just went, in the Free Activation.
	res = g.send(french, "ACTIVATE Florence")
	if a, ok := findEvent[engine.CommandActivated](res.Events); !ok || a.Side != french || a.Command != "florence" || a.Kind != engine.FreeActivation {
		t.Errorf("Florence once again: %+v:\n%s", a, g.story(res.Events))
	}

	// "If the Imperialist player had rolled a '5', he would have Seized
	// Continuity."
	g, res = pavia63(t, 5)
	s, ok = findEvent[engine.SeizureRolled](res.Events)
	if !ok || s.Roll.Die != 5 || s.Roll.Total != 5 || len(s.Roll.Mods) != 0 || !s.Success {
		t.Fatalf("the Seizure on a 5: %+v:\n%s", s, g.story(res.Events))
	}
	if a, ok := findEvent[engine.CommandActivated](res.Events); !ok || a.Side != imperialists || a.Command != "terranova" || g.st.Active != imperialists {
		t.Errorf("Terranova's Battle not Activated: %+v, active %v:\n%s", a, g.st.Active, g.story(res.Events))
	}
	if !playedIn(g.st, imperialists, "SO5") {
		t.Error("SO5 not discarded after the Seizure")
	}
}
