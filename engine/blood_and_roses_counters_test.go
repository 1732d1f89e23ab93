package engine_test

import (
	"strings"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// Blood & Roses 6.3, the Other Effect counters at their own moments:
// Into the Breach (rulings R216, R217), Near Miss (R218, R219, R281) and
// Battle Cry and Treachery! by standing order at the start of either
// side's Activation (R282), all secret until played (R283). Played
// through orders and scripted dice.

// breachField: the Mounted MAA AN2 faces the Infantry CA1 (in 0505) and
// CA2 (south of it); the Reds hold Into the Breach R1 and R3 and Battle
// Cry R2.
func breachField(t *testing.T, dice ...int) *game {
	g := brMelee(t, dice...)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "INF")
	g.troop("CA2", g.nb(c, hex.S), hex.FaceW, "INF")
	g.troop("AN2", g.nb(c, hex.SW), hex.FaceE, "MM")
	g.deal(red, "R1:into-the-breach", "R2:battle-cry", "R3:into-the-breach")
	return g
}

func hasMod(r engine.Roll, reason, rule string) bool {
	for _, m := range r.Mods {
		if m.DRM == 1 && m.Reason == reason && m.Rule == rule {
			return true
		}
	}
	return false
}

// B&R 6.3 Into the Breach: "+1 DRM for one Shock/Charge attack against
// one defending unit. Play when determining DRMs for an attack, before
// the DR is made." One attacker against two defenders: only the roll
// against the defender named gets the +1 (R217).
func TestBloodAndRosesIntoTheBreach(t *testing.T) {
	g := breachField(t, 2, 2, 0, 0, 0, 0, 0, 0)
	g.refuse(red, "PLAY R1 AT CA1", "B&R 6.3") // Phase A: no attack of his own
	g.send(red, "ACTIVATE Anna")
	g.refuse(red, "PLAY R1 AT CA1", "B&R 6.3")                              // no attack on CA1 declared yet
	g.refuse(red, "SHOCK AN2 AT CA1 CA2\nPLAY R1 RALLY AN1", "B&R 6.3")     // Into the Breach is played AT a defender
	g.refuse(red, "SHOCK AN2 AT CA1 CA2\nPLAY R2 AT CA2", "docs/orders.md") // a Battle Cry is not
	g.refuse(red, "SHOCK AN2 AT CA1 CA2\nPLAY R1 AT CA2\nPLAY R3 AT CA2", "B&R 6.3")
	g.refuse(red, "SHOCK AN2 AT CA1 CA2\nPLAY R1 AT XX9", "B&R 6.3")
	g.send(red, "SHOCK AN2 AT CA1 CA2\nPLAY R1 AT CA2")
	// Readied, not yet played: the Blues see nothing of it (R283).
	if b := g.st.Counters.Hands[red].Breach; b["R1"] != "CA2" {
		t.Fatalf("R1 not readied for CA2: %+v", b)
	}
	if r := g.st.Redacted(blue).Counters.Hands[red]; r.Breach != nil || r.Hidden != 3 {
		t.Errorf("the Blues' view of the Reds' hand: %+v", r)
	}
	if side, private := engine.PrivateTo(engine.BreachReadied{Side: red}); !private || side != red {
		t.Error("BreachReadied is not private to its owner")
	}
	res := g.send(red, "END")
	atts := resolved(res.Events)
	if len(atts) < 2 || atts[0].Defender != "CA1" || atts[1].Defender != "CA2" {
		t.Fatalf("attacks: %+v\n%s", atts, g.story(res.Events))
	}
	if hasMod(atts[0].Roll, "Into the Breach", "B&R 6.3") || !hasMod(atts[1].Roll, "Into the Breach", "B&R 6.3") {
		t.Errorf("the +1 belongs to the roll against CA2 only: %s | %s", mods(atts[0].Roll), mods(atts[1].Roll))
	}
	if atts[1].Roll.Total != atts[0].Roll.Total+1 {
		t.Errorf("same die, CA2's total %d, want CA1's %d +1", atts[1].Roll.Total, atts[0].Roll.Total)
	}
	// Played as the DRMs were determined: before the roll, logged by id.
	played := -1
	for k, e := range res.Events {
		if c, ok := e.(engine.CounterPlayed); ok && c.Counter == "R1" && c.Type == engine.CounterIntoTheBreach && c.Unit == "CA2" {
			played = k
		}
		if a, ok := e.(engine.AttackResolved); ok && a.Defender == "CA2" && played < 0 {
			t.Errorf("CA2's roll before Into the Breach was played")
		}
	}
	if played < 0 || !playedIn(g.st, red, "R1") || playedIn(g.st, red, "R3") || len(g.st.Counters.Hands[red].Breach) != 0 {
		t.Errorf("R1 played %v, hand %+v", played, g.st.Counters.Hands[red])
	}
	if s := g.story(res.Events); !strings.Contains(s, "+1 Into the Breach (B&R 6.3)") || !strings.Contains(s, "Into the Breach R1 for the attack on CA2") {
		t.Errorf("the narrative does not name the modifier:\n%s", s)
	}
}

func playedIn(st *engine.State, side engine.Side, id string) bool {
	return played(st.Counters.Hands[side].Counters, id)
}

// R217: an Into the Breach readied for an attack that is never rolled —
// the defender Retreated Before Shock — is not played: it stays in the
// hand.
func TestBloodAndRosesIntoTheBreachLapses(t *testing.T) {
	g := brMelee(t)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "CAV")
	g.troop("AN1", g.nb(c, hex.SW), hex.FaceE, "INF")
	g.deal(red, "R1:into-the-breach")
	g.send(blue, "STANDING RETREAT BEFORE SHOCK ALWAYS\nSTANDING COUNTER-CHARGE NEVER")
	evs := g.shockRound("SHOCK AN1 AT CA1\nPLAY R1 AT CA1\nEND")
	if len(resolved(evs)) != 0 {
		t.Fatalf("want no attack rolled:\n%s", g.story(evs))
	}
	if _, ok := findEvent[engine.CounterPlayed](evs); ok || playedIn(g.st, red, "R1") {
		t.Errorf("R1 played with no attack rolled:\n%s", g.story(evs))
	}
	if l, ok := findEvent[engine.BreachLapsed](evs); !ok || l.Counter != "R1" || len(g.st.Counters.Hands[red].Breach) != 0 {
		t.Errorf("R1's readiness did not lapse: %+v %+v", l, g.st.Counters.Hands[red])
	}
}

// nearMissField: the Disordered Infantry CA1 with Carl in 0505, attacked
// by the Mounted MAA AN1; the Blues hold Near Miss B1.
func nearMissField(t *testing.T, status engine.Status, dice ...int) (*game, string) {
	g := brMelee(t, dice...)
	c := "0505"
	g.troop("CA1", c, hex.FaceW, "INF")
	g.st.Unit("CA1").Status = status
	g.troop("AN1", g.nb(c, hex.NW), hex.FaceSE, "MM")
	g.troop("CA2", "0909", hex.FaceW, "INF")
	g.lead("carl", c)
	g.deal(blue, "B1:near-miss")
	return g, c
}

// B&R 6.3 Near Miss: "Negate one friendly leader death. Played when one
// of your leaders dies. They escape death and are placed with any unit of
// their Battle." Herald plays it at the death (R219): Carl, killed by
// Shock (B&R 5.5: a DR of 7 or more) with his unit only Disordered, stays
// with it; his death does not count.
func TestBloodAndRosesNearMissShock(t *testing.T) {
	g, c := nearMissField(t, engine.Normal, 4, 7)
	before := engine.FlightPoints(g.sc, g.st, blue)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	lc, _ := findEvent[engine.LeaderCasualtyRolled](evs)
	cp, ok := findEvent[engine.CounterPlayed](evs)
	saved, _ := findEvent[engine.LeaderSaved](evs)
	if !lc.Killed || !ok || cp.Counter != "B1" || cp.Type != engine.CounterNearMiss || cp.Leader != "carl" || saved.With != "CA1" {
		t.Fatalf("want Carl killed and saved by B1 with CA1:\n%s", g.story(evs))
	}
	if l := g.st.Leader("carl"); l.Killed || l.OffMap || l.Hex != h(t, c) || l.Losses != 0 || !playedIn(g.st, blue, "B1") {
		t.Errorf("Carl %+v, B1 played %v", *l, playedIn(g.st, blue, "B1"))
	}
	if got := engine.FlightPoints(g.sc, g.st, blue); got != before {
		t.Errorf("Flight Points %d, want %d: a negated death does not count", got, before)
	}
	if s := g.story(evs); !strings.Contains(s, "Near Miss B1 by standing order: Carl escapes death (B&R 6.3)") {
		t.Errorf("narrative:\n%s", s)
	}
}

// R281: a leader killed with his unit Retired is placed with the nearest
// unit of his Battle not Retired, and no displacement follows.
func TestBloodAndRosesNearMissPlacement(t *testing.T) {
	g, _ := nearMissField(t, engine.Disordered, 4, 7)
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if g.unit("CA1").Status != engine.Retired {
		t.Fatalf("want CA1 Retired:\n%s", g.story(evs))
	}
	if l := g.st.Leader("carl"); l.Killed || l.Hex != g.unit("CA2").Hex {
		t.Errorf("Carl %+v, want with CA2 in %s:\n%s", *l, g.unit("CA2").Hex, g.story(evs))
	}
	if _, ok := findEvent[engine.LeaderPlaced](evs); ok {
		t.Errorf("a saved leader displaced again:\n%s", g.story(evs))
	}
}

// R219: STANDING NEAR MISS NEVER keeps the counter, and the leader dies;
// the order is the Blues' secret. In Men of Iron there is no Near Miss.
func TestBloodAndRosesNearMissNever(t *testing.T) {
	g, _ := nearMissField(t, engine.Normal, 4, 7)
	res := g.send(blue, "STANDING NEAR MISS NEVER")
	if s, ok := engine.PrivateTo(res.Events[0]); !ok || s != blue || g.st.Redacted(red).Counters.Hands[blue].NearMissNever {
		t.Errorf("STANDING NEAR MISS is not private: %+v", res.Events)
	}
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	if !g.st.Leader("carl").Killed || playedIn(g.st, blue, "B1") {
		t.Errorf("NEVER: Carl %+v, B1 played %v:\n%s", *g.st.Leader("carl"), playedIn(g.st, blue, "B1"), g.story(evs))
	}
	g.send(blue, "STANDING NEAR MISS ALWAYS")
	if g.st.Counters.Hands[blue].NearMissNever {
		t.Error("ALWAYS did not clear NEVER")
	}
	m := newGame(t, fixture(map[string]int{"Anna": 3}, map[string]int{"Carl": 2}))
	m.refuse(blue, "STANDING NEAR MISS ALWAYS", "4.3")
}

// R218: a leader surrounded when his unit falls is killed (B&R 5.5), a
// death a Near Miss negates: he is placed with the nearest unit of his
// Battle.
func TestBloodAndRosesNearMissSurrounded(t *testing.T) {
	g := brMelee(t, 9, 0, 0, 0, 0)
	g.troop("CA1", "0101", hex.FaceE, "INF")
	g.st.Unit("CA1").Status = engine.Disordered
	g.troop("AN1", "0201", hex.FaceW, "MM")
	g.troop("AN2", "0102", hex.FaceNE, "MM")
	g.troop("BE1", "0202", hex.FaceNW, "INF")
	g.troop("CA2", "0909", hex.FaceW, "INF")
	g.lead("carl", "0101")
	g.lead("anna", "0301")
	g.deal(blue, "B1:near-miss")
	evs := g.shockRound("SHOCK AN1 AT CA1\nEND")
	lost, ok := findEvent[engine.LeaderLost](evs)
	if !ok || !lost.Killed {
		t.Fatalf("want Carl killed, surrounded:\n%s", g.story(evs))
	}
	if l := g.st.Leader("carl"); l.Killed || l.Hex != g.unit("CA2").Hex || !playedIn(g.st, blue, "B1") {
		t.Errorf("Carl %+v, want saved with CA2 in %s:\n%s", *l, g.unit("CA2").Hex, g.story(evs))
	}
}

// countersField: Edward's Battle (ED1, ED2 Retired) against Margaret's
// (MA1, MA2 Retired); each side holds a Battle Cry and a Treachery!.
func countersField(t *testing.T) *game {
	g := brField(t, map[string]int{"Edward": 4}, map[string]int{"Margaret": 2}, "edward")
	g.deal(red, "R1:battle-cry", "R2:treachery")
	g.deal(blue, "B1:treachery", "B2:battle-cry", "B3:near-miss", "B4:into-the-breach")
	g.st.Unit("ED2").Status = engine.Retired
	g.st.Unit("MA2").Status = engine.Retired
	return g
}

// B&R 6.3 Battle Cry and Treachery!: "Played at the start of any
// Activation (yours or your opponents)". A standing order plays them at
// the start of the next Activation, the Non-Active player's first
// (Arquebus 6.3), with no mail (R282).
func TestBloodAndRosesStandingPlay(t *testing.T) {
	g := countersField(t)
	g.refuse(blue, "STANDING PLAY B3 RALLY MA2", "B&R 6.3")
	g.refuse(blue, "STANDING PLAY B4 RALLY MA2", "B&R 6.3")
	g.refuse(blue, "STANDING PLAY B1 RALLY MA2", "docs/orders.md")
	g.refuse(blue, "STANDING PLAY B1 DISORDER MA1", "B&R 6.3") // not an enemy unit
	g.refuse(blue, "STANDING PLAY B9 DISORDER ED1", "B&R 6.3")
	res := g.send(blue, "STANDING PLAY B1 DISORDER ED1\nSTANDING PLAY B2 RALLY MA2")
	for _, e := range res.Events {
		if s, ok := engine.PrivateTo(e); !ok || s != blue {
			t.Errorf("not private to the Blues: %#v", e)
		}
	}
	if r := g.st.Redacted(red).Counters.Hands[blue]; r.Standing != nil {
		t.Errorf("the Reds see the Blues' standing plays: %+v", r)
	}
	g.send(red, "STANDING PLAY R1 RALLY ED2")
	res = g.send(red, "ACTIVATE Edward")
	var got []string
	for _, e := range res.Events {
		if c, ok := e.(engine.CounterPlayed); ok {
			got = append(got, c.Counter+" "+c.Unit)
		}
	}
	if strings.Join(got, ", ") != "B1 ED1, B2 MA2, R1 ED2" {
		t.Errorf("plays at the start of Edward's Activation: %v, want the Blues' then the Reds'\n%s", got, g.story(res.Events))
	}
	for id, want := range map[string]engine.Status{"ED1": engine.Disordered, "MA2": engine.Disordered, "ED2": engine.Disordered} {
		if s := g.unit(id).Status; s != want {
			t.Errorf("%s %s, want %s", id, s, want)
		}
	}
	for side, ids := range map[engine.Side][]string{red: {"R1"}, blue: {"B1", "B2"}} {
		for _, id := range ids {
			if !playedIn(g.st, side, id) {
				t.Errorf("%s not played", id)
			}
		}
		if len(g.st.Counters.Hands[side].Standing) != 0 {
			t.Errorf("standing plays left: %+v", g.st.Counters.Hands[side].Standing)
		}
	}
	if s := g.story(res.Events); !strings.Contains(s, "Treachery! B1 by standing order on ED1 (B&R 6.3)") {
		t.Errorf("narrative:\n%s", s)
	}
}

// R282: a standing play no longer legal at the start of the Activation is
// dropped, its owner alone told why; the counter stays in his hand.
// CANCEL withdraws a standing play.
func TestBloodAndRosesStandingPlayDropped(t *testing.T) {
	g := countersField(t)
	g.send(blue, "STANDING PLAY B1 DISORDER ED1\nSTANDING PLAY B2 RALLY MA2\nSTANDING PLAY B2 CANCEL")
	if _, ok := g.st.Counters.Hands[blue].Standing["B2"]; ok {
		t.Error("CANCEL left B2's standing play")
	}
	g.st.Unit("ED1").Status = engine.Disordered
	res := g.send(red, "ACTIVATE Edward")
	d, ok := findEvent[engine.StandingPlayDropped](res.Events)
	if !ok || d.Counter != "B1" || !strings.Contains(d.Reason, "ED1 is disordered") {
		t.Fatalf("want B1 dropped: %+v\n%s", d, g.story(res.Events))
	}
	if s, ok := engine.PrivateTo(d); !ok || s != blue {
		t.Error("the drop is not private to the Blues")
	}
	if playedIn(g.st, blue, "B1") || playedIn(g.st, blue, "B2") || len(g.st.Counters.Hands[blue].Standing) != 0 {
		t.Errorf("hand after the drop: %+v", g.st.Counters.Hands[blue])
	}
	if _, ok := findEvent[engine.CounterPlayed](res.Events); ok {
		t.Errorf("a counter played:\n%s", g.story(res.Events))
	}
}
