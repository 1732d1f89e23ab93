package strike

import "fmt"

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
	case r == CounterChargeHalf && (u.Type.ID == "Maa" || u.Type.ID == "Kn") && s.ChargerIsFormedCavalry:
		return Stand, false, nil
	}
	return r, false, nil
}

// ChargeDistance is a charge move: "3 normal moves" (1. DECLARE CHARGES).
func ChargeDistance(tt *TroopType) float64 { return 3 * tt.Move }
