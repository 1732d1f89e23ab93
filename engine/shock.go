package engine

import (
	"fmt"
	"sort"
	"strings"
)

// 10.0 SHOCK, Phase C of the Extended Sequence of Play, carried out at END
// once the declarations hold as a whole (10.3):
//
//  1. the declared attacks (shock_orders.go);
//  2. "One at a time, the Active player moves each Charging unit adjacent
//     to its target. Any Reaction fire caused by this move is resolved. If
//     required, the Charging unit makes a Charge Reluctance roll" (charge.go);
//  3. "The Active player resolves all his Shock and Charge attacks, in any
//     order he wishes" — Herald takes them in the order declared — with
//     Advances and Continued Attacks noted (shock_resolve.go);
//  4. "All Continued Attacks are now resolved. Begin again at Step 1,
//     except that only units that earned a Continued Attack Shock and they
//     must Shock; Charging and Counter-Charging is not allowed", until no
//     unit earns one (12.7).

// maxShockRounds bounds the Continued Attack rounds of one Shock Phase: each
// round costs every attacker one more −1 (12.7), so a chain this long means
// the tables are broken, not that the dice were kind.
const maxShockRounds = 50

// shockPhase carries out the declared attacks.
func (g *game) shockPhase(attacks []*attack) error {
	var texts []string
	for _, a := range attacks {
		texts = append(texts, a.text...)
	}
	g.emit(ShockPhaseBegun{Attacks: texts})
	for _, a := range attacks {
		if err := g.chargeHome(a); err != nil {
			return err
		}
	}
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

// chargeHome is Step 2 for one attack: each Charge placed next to its
// target, then its Reluctance roll; a charger Disordered on the way or
// balking attacks by Shock (11.3, 11.4).
func (g *game) chargeHome(a *attack) error {
	for _, i := range a.attackers {
		d, ok := a.charges[i]
		if !ok {
			continue
		}
		charging, err := g.placeCharge(i, d)
		if err == nil && charging {
			charging, err = g.reluctance(i, a.defenders[0])
		}
		if err != nil {
			return err
		}
		if !charging {
			delete(a.charges, i)
		}
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
			a := &attack{attackers: []int{i}, defenders: free, charges: map[int]Declaration{}}
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
	Attacks []string `json:"attacks"`
}

func (e ShockPhaseBegun) apply(st *State) {
	st.Phase, st.Declared = PhaseShock, nil
}

func (e ShockPhaseBegun) describe(*Scenario) string {
	return fmt.Sprintf("Shock Phase: %s (10.3).", strings.Join(e.Attacks, "; "))
}

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

func init() { registerEvents(ShockPhaseBegun{}, ContinuedAttackRound{}, AttackLapsed{}) }
