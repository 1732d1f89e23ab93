package strike

import (
	"fmt"

	"herald/engine/strike/table"
)

// Role is how a unit meets a charge: its target, or a supporting unit.
type Role int

const (
	Target Role = iota
	Supporting
)

// ChargeSituation is what the fragment's reactions depend on.
type ChargeSituation struct {
	Role Role
	// Contacted in the charger's first move (2. REACTION TO A CHARGE:
	// "Cavalry units contacted in the first move of a charge will not be
	// able to counter-charge"; skirmishers, Lc and Ha "contacted at
	// reaction point by formed troops or Lc/Ha are destroyed").
	ContactedFirstMove     bool
	ChargerFormedOrLight   bool // the charger is formed troops, Lc or Ha
	ChargerIsFormedCavalry bool
	InOpen                 bool
	// For supporting knights: the charger, not yet in contact, is in
	// their forward move zone and within 2 moves ("Those who find a
	// charger ... in their forward move zone and within 2 moves MUST
	// counter-charge in support").
	ChargerInReach bool
}

// ReactTo reads the house Charge Reaction Table for a unit and applies
// the fragment's conditions to it: contact in the first move destroys
// skirmishers, Lc and Ha contacted by formed troops or Lc/Ha, and stops
// counter-charges; "Men at arms and knights not charged by formed cavalry"
// counter-charge, the others stand; artillery and handguns never get
// defensive fire (they stand) and artillery contacted is destroyed.
// destroyed reports a unit lost before melee.
func ReactTo(t *Tables, u *Unit, s ChargeSituation) (r Reaction, destroyed bool, err error) {
	row, ok := t.Reactions[u.Type.ID]
	if !ok {
		return "", false, fmt.Errorf("the Charge Reaction Table has no row for %s", u.Type.ID)
	}
	r = row.Target
	if s.Role == Supporting {
		r = row.Supporting
	}
	w := t.WeaponOf(u.Type)
	switch {
	case !u.Type.Formed && s.ContactedFirstMove && s.ChargerFormedOrLight:
		return "", true, nil
	case w != nil && w.DestroyedContact && s.ContactedFirstMove:
		return "", true, nil
	case w != nil && w.NoDefensiveFire && (r == StandAndFire || r == ShootAtCharger || r == FireAndRetire):
		return Stand, false, nil
	case (r == CounterCharge || r == CounterChargeHalf) && s.ContactedFirstMove:
		return Stand, false, nil
	case r == CounterCharge && s.Role == Supporting && !s.ChargerInReach:
		return NoReaction, false, nil
	case r == CounterChargeHalf && (u.Type.ID == "Maa" || u.Type.ID == "Kn") && s.ChargerIsFormedCavalry:
		return Stand, false, nil
	}
	return r, false, nil
}

// ChargeDistance is a charge move: "3 normal moves" (1. DECLARE CHARGES).
func ChargeDistance(tt *TroopType) float64 { return 3 * tt.Move }

// ChargeTarget is where a charge's target is, as the restrictions see it.
type ChargeTarget struct {
	Unit   *Unit
	InOpen bool         // the target is in the open
	Aspect table.Aspect // the face of the target the charger is on
	Inches float64      // the distance from the charger to the target
}

// MayCharge applies CHARGE RESTRICTIONS to a unit's charge and returns
// nil, or an error naming the restriction and what would make the charge
// legal:
//
//   - "Infantry may not charge ordered cavalry in the open unless within 3"
//     of the targets front or one move of the target's flank or rear."
//   - "Missile infantry may not charge formed troops in the open unless
//     within 3" of the targets front or one move of the target's flank or
//     rear."
//   - "Sk, Lc and Ha may not charge any formed troops in the open unless
//     within 3" of the target front or one 1/3rd a move of the target's flank
//     or rear."
//
// "Ordered cavalry" is a mounted unit in good order; infantry is any foot
// unit; "one 1/3rd a move" is a third of the charger's MOVE (R537). The
// Personalities' restriction ("may not charge unless attached to a unit
// that is charging") is the orders' business: a Personality is not a Unit.
func MayCharge(charger *Unit, tg ChargeTarget) error {
	if !tg.InOpen {
		return nil
	}
	c, t := charger.Type, tg.Unit
	front, side := 3.0, c.Move
	var who, what string
	switch {
	case !c.Formed:
		if !t.Type.Formed {
			return nil
		}
		who, what, side = "Sk, Lc and Ha", "formed troops", c.Move/3
	case !c.Mounted && c.Weapon != "" && t.Type.Formed:
		who, what = "missile infantry", "formed troops"
	case !c.Mounted && t.Type.Mounted && !t.Disordered:
		who, what = "infantry", "ordered cavalry"
	default:
		return nil
	}
	limit := front
	if tg.Aspect.IsFlankOrRear() {
		limit = side
	}
	if tg.Inches <= limit+table.Eps {
		return nil
	}
	return fmt.Errorf("%s may not charge %s in the open from %g\" of its %s: only within %g\" of its front or %g\" of its flank or rear (CHARGE RESTRICTIONS)",
		who, what, tg.Inches, tg.Aspect, front, side)
}

// CounterChargeDistance is how far a half counter-charge goes: "half the
// remaining distance" between it and the charger (FORMED CAVALRY,
// DISMOUNTED KNIGHTS and MAA).
func CounterChargeDistance(remaining float64) float64 { return remaining / 2 }
