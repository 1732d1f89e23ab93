package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// 10.0 SHOCK, Phase C of the Extended Sequence of Play, carried out at END
// once the declarations hold as a whole (10.3):
//
//  1. the declared attacks (shock_orders.go);
//  2. "One at a time, the Active player moves each Charging unit adjacent
//     to its target. Any Reaction fire caused by this move is resolved. If
//     required, the Charging unit makes a Charge Reluctance roll. Any
//     Retreat Before Combat by the defender is resolved at this time. The
//     defender attempts any Counter-Charges of which he is capable"
//     (charge.go; the defender's responses, shock_response.go);
//  3. "The Active player resolves all his Shock and Charge attacks, in any
//     order he wishes" — Herald takes them in the order declared — with
//     Advances and Continued Attacks noted (shock_resolve.go);
//  4. "All Continued Attacks are now resolved. Begin again at Step 1,
//     except that only units that earned a Continued Attack Shock and they
//     must Shock; Charging and Counter-Charging is not allowed", until no
//     unit earns one (12.7).
//
// The phase is kept in the state (State.Shock) while it waits for the
// defender's responses; Steps 3 and 4 then run to the end without a stop.

// ShockPhase is Phase C under way.
type ShockPhase struct {
	Attacks []ShockAttack `json:"attacks"`
	// Responses are the defender's choices the phase waits for (10.2,
	// 11.5), while Pending is DecideResponse.
	Responses []Response `json:"responses,omitempty"`
	// Resume is the decision the game goes back to after the responses.
	Resume Decision `json:"resume"`
}

// ShockAttack is one declared attack: its attackers against one defender
// or, for a unit attacking by itself, two (10.1).
type ShockAttack struct {
	Attackers []string      `json:"attackers"`
	Defenders []string      `json:"defenders"`
	Charges   []Declaration `json:"charges,omitempty"`  // the Charges declared (11.3)
	Charging  []string      `json:"charging,omitempty"` // attackers still charging (11.3, 11.4, 11.6)
	// CounterChargers are the defenders whose Counter-Charge succeeded
	// (15.3); ShockCounters those of them that Counter-Charged a Shock,
	// −2 on the roll against them (11.6).
	CounterChargers []string `json:"counter_chargers,omitempty"`
	ShockCounters   []string `json:"shock_counters,omitempty"`
	// Vacated are the hexes its defenders left by Retreating Before
	// Shock (10.2); those defenders are no longer among Defenders.
	Vacated []hex.Hex `json:"vacated,omitempty"`
	Text    []string  `json:"text"`
}

func (p *ShockPhase) clone() *ShockPhase {
	c := &ShockPhase{Resume: p.Resume}
	for _, a := range p.Attacks {
		b := a
		b.Attackers, b.Defenders, b.Charging = slices.Clone(a.Attackers), slices.Clone(a.Defenders), slices.Clone(a.Charging)
		b.CounterChargers, b.ShockCounters, b.Text = slices.Clone(a.CounterChargers), slices.Clone(a.ShockCounters), slices.Clone(a.Text)
		b.Vacated = slices.Clone(a.Vacated)
		b.Charges = nil
		for _, d := range a.Charges {
			b.Charges = append(b.Charges, d.clone())
		}
		c.Attacks = append(c.Attacks, b)
	}
	for _, r := range p.Responses {
		c.Responses = append(c.Responses, r.clone())
	}
	return c
}

// attackOn is the attack whose defenders include unit id, or nil.
func (p *ShockPhase) attackOn(id string) *ShockAttack {
	if p == nil {
		return nil
	}
	for k := range p.Attacks {
		if slices.Contains(p.Attacks[k].Defenders, id) {
			return &p.Attacks[k]
		}
	}
	return nil
}

// attack is an attack being resolved, by unit index.
type attack struct {
	attackers, defenders []int
	charging             []int
	counterChargers      []int
	shockCounters        []int
}

func (g *game) attackOf(a ShockAttack) *attack {
	idx := func(ids []string) []int {
		var out []int
		for _, id := range ids {
			out = append(out, unitIdx(g.sc, id))
		}
		return out
	}
	return &attack{attackers: idx(a.Attackers), defenders: idx(a.Defenders), charging: idx(a.Charging),
		counterChargers: idx(a.CounterChargers), shockCounters: idx(a.ShockCounters)}
}

// maxShockRounds bounds the Continued Attack rounds of one Shock Phase: each
// round costs every attacker one more −1 (12.7), so a chain this long means
// the tables are broken, not that the dice were kind.
const maxShockRounds = 50

// shockPhase begins Phase C with the declared attacks: Step 2, then the
// defender's responses, which may wait for him.
func (g *game) shockPhase(attacks []ShockAttack) error {
	g.emit(ShockPhaseBegun{Attacks: attacks, Resume: g.st.Pending})
	for k := range g.st.Shock.Attacks {
		if err := g.chargeHome(k); err != nil {
			return err
		}
	}
	asked, err := g.responses()
	if err != nil || asked {
		return err
	}
	return g.finishShock()
}

// chargeHome is Step 2 for the Charges of attack k: each placed next to its
// target, then its Reluctance roll; a charger Disordered on the way or
// balking attacks by Shock (11.3, 11.4).
func (g *game) chargeHome(k int) error {
	for _, d := range g.st.Shock.Attacks[k].Charges {
		i := unitIdx(g.sc, d.Attackers[0])
		charging, err := g.placeCharge(i, d)
		if err == nil && charging {
			_, err = g.reluctance(i, unitIdx(g.sc, d.Defenders[0]))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// finishShock is Steps 3 and 4, then Phase D and the end of the Activation.
func (g *game) finishShock() error {
	var attacks []*attack
	for _, a := range g.st.Shock.Attacks {
		if len(a.Defenders) == 0 {
			g.emit(AttackLapsed{Attackers: a.Attackers, Reason: "its defenders Retreated Before Shock (10.2)"})
			g.followRetreat(a)
			continue
		}
		attacks = append(attacks, g.attackOf(a))
	}
	if err := g.shockRounds(attacks); err != nil {
		return err
	}
	g.emit(ShockPhaseEnded{})
	g.rallyPhase()
	return g.endActivation()
}

// shockRounds resolves attacks, then the Continued Attack rounds they
// lead to (10.3 Steps 3 and 4, 12.7). Retreats take their default here:
// the resolution does not stop for a decision (ruling R73).
func (g *game) shockRounds(attacks []*attack) error {
	g.shocking = true
	defer func() { g.shocking = false }()
	for round := 0; len(attacks) > 0; round++ {
		if round > maxShockRounds {
			return fmt.Errorf("engine: more than %d Continued Attack rounds; the Shock tables loop", maxShockRounds)
		}
		var earned []int
		for _, a := range attacks {
			ca, err := g.resolveAttack(a, round)
			if err != nil {
				return err
			}
			earned = append(earned, ca...)
		}
		if len(earned) == 0 {
			break
		}
		sort.Slice(earned, func(x, y int) bool { return g.sc.Units[earned[x]].ID < g.sc.Units[earned[y]].ID })
		g.emit(ContinuedAttackRound{Round: round + 1, Units: unitIDs(g.sc, earned)})
		attacks = continuedAttacks(g, earned)
	}
	return nil
}

// continuedAttacks declares the attacks of a Continued Attack round (12.7):
// each unit "must Shock attack" every enemy unit in its Frontal hexes
// unless another unit of the round attacks it (10.1). Units with one enemy
// in front go first and attack it together; a unit with two attacks both
// by itself, or the one no other unit attacks (ruling R75). A unit with no
// enemy in front has nothing left to attack.
func continuedAttacks(g *game, units []int) []*attack {
	sc, st := g.sc, g.st
	sort.SliceStable(units, func(x, y int) bool {
		return len(frontalEnemies(sc, st, units[x])) < len(frontalEnemies(sc, st, units[y]))
	})
	byDefender := map[int]*attack{}
	var out []*attack
	for _, i := range units {
		var free []int
		var join *attack
		for _, j := range frontalEnemies(sc, st, i) {
			switch a := byDefender[j]; {
			case a == nil:
				free = append(free, j)
			case len(a.defenders) == 1 && join == nil:
				join = a
			}
		}
		switch {
		case len(free) > 0 && (join == nil || len(free) == 2):
			a := &attack{attackers: []int{i}, defenders: free}
			for _, j := range free {
				byDefender[j] = a
			}
			out = append(out, a)
		case join != nil:
			join.attackers = append(join.attackers, i)
		default:
			g.emit(AttackLapsed{Attackers: []string{sc.Units[i].ID}, Reason: "no enemy unit is left in its Frontal hexes for its Continued Attack (12.7)"})
		}
	}
	return out
}

// ShockPhaseBegun: the declarations held; Phase C is carried out (10.3).
type ShockPhaseBegun struct {
	Attacks []ShockAttack `json:"attacks"`
	Resume  Decision      `json:"resume"`
}

func (e ShockPhaseBegun) apply(st *State) {
	st.Phase, st.Declared = PhaseShock, nil
	st.Shock = (&ShockPhase{Attacks: e.Attacks, Resume: e.Resume}).clone()
}

func (e ShockPhaseBegun) describe(*Scenario) string {
	var texts []string
	for _, a := range e.Attacks {
		texts = append(texts, a.Text...)
	}
	return fmt.Sprintf("Shock Phase: %s (10.3).", strings.Join(texts, "; "))
}

// ShockPhaseEnded: every attack and Continued Attack is resolved.
type ShockPhaseEnded struct{}

func (ShockPhaseEnded) apply(st *State) { st.Shock = nil }

func (ShockPhaseEnded) describe(*Scenario) string { return "The Shock Phase is over (10.3)." }

// ContinuedAttackRound: another Shock Phase for the units that earned a
// Continued Attack (12.7).
type ContinuedAttackRound struct {
	Round int      `json:"round"`
	Units []string `json:"units"`
}

func (ContinuedAttackRound) apply(*State) {}

func (e ContinuedAttackRound) describe(*Scenario) string {
	return fmt.Sprintf("Continued Attack %d: %s must Shock again (12.7).", e.Round, strings.Join(e.Units, ", "))
}

// AttackLapsed: a declared or continued attack has no one left to make it
// or to receive it.
type AttackLapsed struct {
	Attackers []string `json:"attackers"`
	Defenders []string `json:"defenders,omitempty"`
	Reason    string   `json:"reason"`
}

func (AttackLapsed) apply(*State) {}

func (e AttackLapsed) describe(*Scenario) string {
	return fmt.Sprintf("No attack by %s: %s.", strings.Join(e.Attackers, ", "), e.Reason)
}

func init() {
	registerEvents(ShockPhaseBegun{}, ShockPhaseEnded{}, ContinuedAttackRound{}, AttackLapsed{})
}
