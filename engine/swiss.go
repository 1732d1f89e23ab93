package engine

import (
	"fmt"
	"slices"
)

// Arquebus 16.2 Swiss Shock Reluctance (The Harry Lime/Jerry Maguire
// Rule): "each and every time a Swiss Pike infantry unit that is not
// already Engaged (which negates this rule) declares a Shock attack that
// is not a Continued Attack, the player must check to see if the Swiss
// carry out the Shock attack ... Before resolving the attack the player
// rolls one die, to which he adds that unit's Shock Defense DRM. If the DR
// is 6 or less, the Sons of Billy Tell lower their pikes and go to work
// ... If the DR is 7 to 9, that unit refuses to Shock attack. If the DR is
// 10 or more, the unit ... decides to go home ... Remove it from the game
// instantly. It is not considered an Eliminated unit for purposes of
// Victory (3.0). If a Swiss Pike infantry unit refuses to Shock attack or
// is removed, it does not affect any other declared attacks, since the
// refusal happens after attacks are declared. It has declared an attack
// and so is not eligible to Rally during this Activation."
//
// A Swiss unit is a battle's `swiss: true` unit (UnitSpec.Swiss, ruling
// R385); the rolls are Step 2c of 12.3, after the Charges are placed and
// before the defender's responses, once per Shock Phase (not in a
// Continued Attack round, nor the Shock of a Counter-Charge against fire).

// swissReluctance rolls for each Swiss attacker of the declared attacks
// that is not Engaged, in the order declared, then marks the step done.
func (g *game) swissReluctance() error {
	p := g.st.Shock
	if g.sc.Tables.Rules.SwissReluctance && !p.Mini {
		for _, a := range p.Attacks {
			for _, id := range a.Attackers {
				i := unitIdx(g.sc, id)
				if !g.sc.Units[i].Swiss || isEngaged(g.st, i) || !onField(g.st, i) {
					continue
				}
				if err := g.swissRoll(i); err != nil {
					return err
				}
			}
		}
	}
	g.emit(SwissChecked{})
	return nil
}

// swissRoll is one Swiss unit's die plus its Shock Defense DRM on the side
// of its counter in play (ruling R386).
func (g *game) swissRoll(i int) error {
	r, drm := ratings(g.sc, g.st, i), 0
	side := ""
	if g.st.Units[i].Status == Normal {
		drm = r.Shock
	} else {
		drm, side = r.ShockDisordered, ", Disordered side"
	}
	id := g.sc.Units[i].ID
	mods := nonZero([]Modifier{{DRM: drm, Reason: fmt.Sprintf("%s's Shock Defense%s", id, side), Rule: "Arquebus 16.2"}})
	roll, err := g.roll(fmt.Sprintf("Swiss Shock Reluctance DR: %s (Arquebus 16.2)", id), mods...)
	if err != nil {
		return err
	}
	rules := g.sc.Tables.Rules
	e := SwissReluctanceRolled{Unit: id, Roll: roll, AttackMax: rules.SwissAttackMax, RefuseMax: rules.SwissRefuseMax}
	switch {
	case roll.Total <= rules.SwissAttackMax:
		e.Outcome = SwissAttack
	case roll.Total <= rules.SwissRefuseMax:
		e.Outcome = SwissRefuse
	default:
		e.Outcome = SwissHome
	}
	g.emit(e)
	return nil
}

// SwissOutcome is what a Swiss Shock Reluctance DR decides.
type SwissOutcome string

const (
	SwissAttack SwissOutcome = "attacks"
	SwissRefuse SwissOutcome = "refuses"
	SwissHome   SwissOutcome = "goes home"
)

// SwissReluctanceRolled: a Swiss Pike's Shock Reluctance DR (Arquebus
// 16.2). Refusing, it leaves its attack but has declared one (no Rally);
// going home, it leaves the game, counting no Flight Points.
type SwissReluctanceRolled struct {
	Unit      string       `json:"unit"`
	Roll      Roll         `json:"roll"`
	AttackMax int          `json:"attack_max"`
	RefuseMax int          `json:"refuse_max"`
	Outcome   SwissOutcome `json:"outcome"`
}

func (e SwissReluctanceRolled) apply(st *State) {
	if e.Outcome == SwissAttack {
		return
	}
	u := st.Unit(e.Unit)
	u.Acted = true // "It has declared an attack and so is not eligible to Rally"
	if e.Outcome == SwissHome {
		u.OffMap, u.Fled = true, true // out of the game, not Eliminated (3.0)
	}
	for k := range st.Shock.Attacks {
		a := &st.Shock.Attacks[k]
		drop := func(id string) bool { return id == e.Unit }
		a.Attackers = slices.DeleteFunc(slices.Clone(a.Attackers), drop)
		a.Charging = slices.DeleteFunc(slices.Clone(a.Charging), drop)
	}
}

func (e SwissReluctanceRolled) describe(*Scenario) string {
	switch e.Outcome {
	case SwissAttack:
		return fmt.Sprintf("%s, Swiss: %s, %d or less: the Swiss lower their pikes and attack (Arquebus 16.2).", e.Unit, describeRoll(e.Roll), e.AttackMax)
	case SwissRefuse:
		return fmt.Sprintf("%s, Swiss: %s, %d to %d: it refuses to Shock attack; it has declared one, so it may not Rally (Arquebus 16.2).", e.Unit, describeRoll(e.Roll), e.AttackMax+1, e.RefuseMax)
	}
	return fmt.Sprintf("%s, Swiss: %s, more than %d: it goes home and is removed from the game, not as an Eliminated unit (Arquebus 16.2).", e.Unit, describeRoll(e.Roll), e.RefuseMax)
}

// SwissChecked: Step 2c is done for this Shock Phase.
type SwissChecked struct{}

func (SwissChecked) apply(st *State) { st.Shock.SwissChecked = true }

func (SwissChecked) describe(*Scenario) string { return "" }

func init() { registerEvents(SwissReluctanceRolled{}, SwissChecked{}) }
