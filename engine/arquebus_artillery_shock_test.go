package engine_test

import (
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Arquebus 12.5: "No die is rolled when Artillery units are Shocked or
// Charged, unless they are stacked with another non-Artillery unit. The
// result is automatically Defender Eliminated for Shock attacks and
// Defender Eliminated, Continued Attack for Charges. The attack otherwise
// follows all normal rules." (unit_types.*.no_shock_die; ruling R403.)
// The dice scripts are empty: a die rolled fails the test. The Artillery
// faces away, so it has no Reaction Fire at the Charge.
func TestArquebusArtilleryShockedWithoutADie(t *testing.T) {
	for _, c := range []struct {
		order, attacker, from, typ, result string
		ca                                 bool
	}{
		{"SHOCK AN1 AT CA1", "AN1", "x", "PK", "Defender Eliminated", false},
		{"CHARGE AN2 AT CA1", "AN2", "w", "MM", "Defender Eliminated, Continued Attack", true},
	} {
		g := arqMelee(t)
		p := brAround(g)
		at := map[string]string{"x": p.x, "w": p.w}[c.from]
		g.troop("CA1", p.c, hex.FaceNE, "SAK")
		g.troop(c.attacker, at, hex.FaceNE, c.typ)
		evs := g.shockRound(c.order + "\nEND")
		atts := resolved(evs)
		if len(atts) != 1 || !atts[0].NoDie || atts[0].Roll.Die != 0 || atts[0].Result != c.result || atts[0].Defender != "CA1" {
			t.Fatalf("%s: attacks %+v, want one on CA1 with no die: %q\n%s", c.order, atts, c.result, g.story(evs))
		}
		if u := g.unit("CA1"); u.Status != engine.Eliminated {
			t.Errorf("%s: CA1 %+v, want Eliminated", c.order, u)
		}
		// It advances into the vacated hex; a Charge's Continued Attack
		// finds no one in its frontal hexes.
		if u := g.unit(c.attacker); u.Hex.String() != p.c {
			t.Errorf("%s: %s in %s, want advanced into %s:\n%s", c.order, c.attacker, u.Hex, p.c, g.story(evs))
		}
		if a, ok := findEvent[engine.UnitAdvanced](evs); !ok || a.ContinuedAttack != c.ca {
			t.Errorf("%s: advance %+v, want Continued Attack %v", c.order, a, c.ca)
		}
	}
}

// Any other defender rolls as before; so does Blood & Roses' Artillery,
// whose tables leave no_shock_die off.
func TestArquebusNoShockDieOnlyForArtillery(t *testing.T) {
	g := arqMelee(t, 5)
	p := brAround(g)
	g.troop("CA1", p.c, hex.FaceNE, "AQ")
	g.troop("AN1", p.x, hex.FaceNE, "PK")
	g.send(1, "STANDING RETREAT BEFORE SHOCK NEVER")
	atts := resolved(g.shockRound("SHOCK AN1 AT CA1\nEND"))
	if len(atts) != 1 || atts[0].NoDie || atts[0].Roll.Die != 5 {
		t.Errorf("Arquebus AQ: attacks %+v, want a die of 5", atts)
	}

	b := brMelee(t, 5)
	b.troop("CA1", p.c, hex.FaceNE, "ART")
	b.troop("AN1", p.x, hex.FaceNE, "INF")
	atts = resolved(b.shockRound("SHOCK AN1 AT CA1\nEND"))
	if len(atts) != 1 || atts[0].NoDie || atts[0].Roll.Die != 5 {
		t.Errorf("Blood & Roses ART: attacks %+v, want a die of 5", atts)
	}
}

// Arquebus 11.2: Artillery may use Reaction Fire "When already unlimbered
// and any enemy unit moves or Charges into an adjacent frontal hex"
// (rules.reaction_unlimbered_only; ruling R404). Limbered, it lets AN2
// into its front without a die; unlimbered it fires. Blood & Roses'
// limbered Artillery reacts, and its fire unlimbers it (R240).
func TestArquebusLimberedArtilleryDoesNotReact(t *testing.T) {
	for _, limbered := range []bool{true, false} {
		dice := []int{3}
		if limbered {
			dice = nil
		}
		g := arqMelee(t, dice...)
		p := brAround(g)
		j := g.troop("CA1", p.c, hex.FaceSW, "SAK")
		g.st.Unit("CA1").Limbered = limbered
		i := g.troop("AN2", p.w, hex.FaceNE, "PK")
		res := g.send(red, "ACTIVATE Anna\nMOVE AN2 "+p.x)
		f, reacted := findEvent[engine.UnitFired](res.Events)
		if reacted == limbered || reacted && !f.Reaction {
			t.Errorf("limbered %v: reaction %v %+v\n%s", limbered, reacted, f, g.story(res.Events))
		}
		if limbered {
			g.wantFire(j, i, true, "Arquebus 11.2")
			g.wantFire(j, i, false, "") // its Active or any other fire is not barred
			if !g.unit("CA1").Limbered {
				t.Errorf("CA1 unlimbered without firing")
			}
		}
	}
	b := brMelee(t, 3)
	p := brAround(b)
	b.troop("CA1", p.c, hex.FaceSW, "ART")
	b.st.Unit("CA1").Limbered = true
	b.troop("AN2", p.w, hex.FaceNE, "INF")
	res := b.send(red, "ACTIVATE Anna\nMOVE AN2 "+p.x)
	if f, ok := findEvent[engine.UnitFired](res.Events); !ok || !f.Reaction || b.unit("CA1").Limbered {
		t.Errorf("Blood & Roses: reaction %v %+v, CA1 %+v; want limbered Artillery to react and unlimber", ok, f, b.unit("CA1"))
	}
}
