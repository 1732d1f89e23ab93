package strike

import (
	"fmt"

	"herald/engine/strike/table"
)

// Frontage is how a unit meets its enemy after the match up (4. MATCH UP),
// read from the table: its stands in contact on the face attacked, its
// overlapping stands (table.Overlaps, 0–2) and how many ranks deep it is
// behind that face.
type Frontage struct {
	InContact int
	Overlaps  int
	Depth     int
	Aspect    table.Aspect // the face of this unit the enemy is on
}

// Engagement reads both Frontages off the table after the match up: the
// attacker meets with its front; the defender on the face the attacker's
// first stand in contact is on (R507). ok is false if they do not touch.
func Engagement(att, def table.Unit) (attacker, defender Frontage, ok bool) {
	aspect, ok := table.AttackAspect(att, def)
	if !ok {
		return Frontage{}, Frontage{}, false
	}
	attacker = Frontage{InContact: len(table.InContact(att, def)), Overlaps: table.Overlaps(att, def), Depth: att.Ranks}
	defender = Frontage{InContact: len(table.InContact(def, att)), Depth: def.Ranks, Aspect: aspect}
	if aspect == table.Front {
		defender.Overlaps = table.Overlaps(def, att)
	}
	return attacker, defender, true
}

// Fighters is the number of a unit's stands that roll in a melee.
//
// WHO CAN MELEE and SHOOT: "Stationary Sp in the open and in good order
// may fight 3 ranks deep"; other units fight with the rank in contact
// (house, ruling R510). OVERLAPS: "A unit with a larger frontage may gain
// the advantage of one stand per flank. A stand directly to the rear of an
// overlapping stand may also fight." REAR and FLANK ATTACKS: the defender
// "may not use rear or overlapping stands against these attacks": on a
// flank its contacted end stands turn to face and stand one behind another,
// so one fights (the first example); in the rear the stands in contact
// fight (the second example). Ruling R532.
func Fighters(t *Tables, u *Unit, f Frontage, stationary, inOpen bool) int {
	var n int
	switch {
	case f.Aspect == table.LeftFlank || f.Aspect == table.RightFlank:
		n = min(f.InContact, 1)
	case f.Aspect == table.Rear:
		n = f.InContact
	default:
		ranks := t.Melee.Ranks
		if u.Type.ID == "Sp" && stationary && inOpen && !u.Disordered {
			ranks = t.Melee.SpearRanks
		}
		n = f.InContact*min(ranks, f.Depth) + f.Overlaps*min(2, f.Depth)
	}
	return min(n, u.Stands)
}

// FlankOrRearContact applies REAR and FLANK ATTACKS to the unit attacked:
// "Units attacked on their rear or flanks are disordered at the moment of
// contact ... Previously broken units are removed as destroyed." It
// reports whether the unit was destroyed.
func FlankOrRearContact(u *Unit) (destroyed bool) {
	if u.Broken {
		u.Stands, u.FiguresLost = 0, 0
		return true
	}
	u.Disordered = true
	return false
}

// SkirmishersContacted applies SKIRMISHERS: "Contact with formed enemy
// troops in the open destroys skirmishers." It reports whether sk was
// destroyed. Skirmishers are the Sk type (R535). (Their fire first, "if
// attacked from the front ... at effective range", is the charge's
// business.)
func SkirmishersContacted(sk, by *Unit, inOpen bool) bool {
	if sk.Type.Skirmisher && by.Type.Formed && inOpen {
		sk.Stands, sk.FiguresLost = 0, 0
		return true
	}
	return false
}

// woc lists A. WEAPON OF CHOICE in priority order: "Knights, mounted or on
// foot. Spears. Formed cavalry. Men At Arms." Knights are the Kn type
// (mounted or dismounted), not the undefined Fkn (R512).
var woc = [][]string{{"Kn"}, {"Sp"}, {"Cv"}, {"Maa"}}

// WeaponOfChoice says which of two units in melee claims the weapon of
// choice: 0 neither, 1 a, 2 b. "Is used only in open terrain and on gentle
// slopes ... use the first one that applies. If both or neither unit is
// able to claim the WOC, it cancels and is not used."
func WeaponOfChoice(a, b *Unit, openOrSlope bool) int {
	if !openOrSlope {
		return 0
	}
	for _, ids := range woc {
		ia, ib := contains(ids, a.Type.ID), contains(ids, b.Type.ID)
		switch {
		case ia && ib:
			return 0
		case ia:
			return 1
		case ib:
			return 2
		}
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MeleeSide is one unit in a melee with the facts its CV depends on.
type MeleeSide struct {
	Unit                *Unit
	Fighters            int     // stands that roll (Fighters)
	Charged             float64 // inches charged or counter-charged this turn; 0 if it did neither
	Ranks               int     // ranks deep
	InOpen              bool    // totally in the open
	FoeHigherOrObstacle bool
	WeaponOfChoice      bool
	CounterCharger      bool
}

// MeleeFactors selects the MELEE and SHARED lines of the COMBAT TABLE for
// a side against its foe. "Fkn vs. foot other than ordered Sp in the
// open" counts against foot totally in the open unless it is Sp in good
// order (R511); Fkn are mounted but get the Fkn lines, not "other
// mounted" (R503).
func MeleeFactors(t *Tables, me, foe MeleeSide) Factors {
	c, u := t.Combat, me.Unit
	charged := func(m ChargeMod) bool { return ChargeBonus(u.Type, me.Charged, m.Over) && me.InOpen }
	isFkn := u.Type.ID == "Fkn"
	foeFoot := !foe.Unit.Type.Mounted
	orderedSp := foe.Unit.Type.ID == "Sp" && !foe.Unit.Disordered
	return Factors{
		Melee:               true,
		FknCharging:         isFkn && me.Ranks == 1 && charged(c.FknCharging),
		FootCharging:        !u.Type.Mounted && charged(c.FootCharging),
		MountedCharging:     u.Type.Mounted && !isFkn && charged(c.MountedCharging),
		FknVsFoot:           isFkn && foeFoot && !orderedSp && foe.InOpen,
		Superior:            u.Superior,
		Trained:             u.Trained,
		FoeHigherOrObstacle: me.FoeHigherOrObstacle,
		Disordered:          u.Disordered,
		WeaponOfChoice:      me.WeaponOfChoice,
	}
}

// ChargeBonus reports whether a charge of the given inches earns a charge
// bonus whose line asks for "over" inches: CHARGE MOVEMENT and BONUS asks
// for "over a half a MOVE as listed on the army domain" as well (R509).
func ChargeBonus(tt *TroopType, charged, over float64) bool {
	return charged > over && charged > tt.Move/2
}

// SideResult is what one side did and suffered in a melee.
type SideResult struct {
	Name        string
	CV          CV
	Rolls       []Roll // its stands, then its Personality's bonus die
	Strikes     int    // strikes it scored
	Taken       Result // the SRT result of the strikes it took
	StandsLost  int
	MoraleCheck bool
	Checks      []Check // its Personality's PCS check
}

// MeleeResult is a melee resolved up to the melee morale checks.
type MeleeResult struct {
	Attacker, Defender SideResult
	AttackerLost       bool // the original loser: the attacker (else the defender)
	Difference         int  // strike difference
}

// Melee resolves 5. MELEE RESOLUTION: each side's stands roll at their
// modified CV, an attached Personality rolls his bonus die, the unit that
// took the most strikes is the original loser ("Ties always go to the
// defender or counter-charger"), both sides take their SRT results, and
// attached Personalities make their PCS checks. The attacker rolls first
// (R533); a counter-charger wins a tie (R534). Melee morale (6.) and
// captures follow: FinalMelee, Capture.
func Melee(t *Tables, d Dice, att, def MeleeSide) (MeleeResult, error) {
	var r MeleeResult
	var err error
	if r.Attacker, err = meleeRolls(t, d, att, def); err != nil {
		return r, err
	}
	if r.Defender, err = meleeRolls(t, d, def, att); err != nil {
		return r, err
	}
	taken := func(s SideResult) int { return s.Strikes }
	attTook, defTook := taken(r.Defender), taken(r.Attacker)
	switch {
	case attTook > defTook:
		r.AttackerLost = true
	case attTook == defTook:
		r.AttackerLost = !att.CounterCharger
	}
	r.Difference = abs(attTook - defTook)
	if err := takeStrikes(t, &r.Attacker, att.Unit, attTook); err != nil {
		return r, err
	}
	if err := takeStrikes(t, &r.Defender, def.Unit, defTook); err != nil {
		return r, err
	}
	if r.Attacker.Checks, err = pcsChecks(t, d, att.Unit, r.AttackerLost, r.Difference); err != nil {
		return r, err
	}
	if r.Defender.Checks, err = pcsChecks(t, d, def.Unit, !r.AttackerLost, r.Difference); err != nil {
		return r, err
	}
	return r, nil
}

func meleeRolls(t *Tables, d Dice, me, foe MeleeSide) (SideResult, error) {
	u := me.Unit
	s := SideResult{Name: u.Name, CV: ModifiedCV(t, MeleeFactors(t, me, foe))}
	rolls, n, err := RollStands(d, fmt.Sprintf("%s in melee with %s:", u.Name, foe.Unit.Name), me.Fighters, s.CV.Value, DoublesInMelee(u))
	if err != nil {
		return s, err
	}
	s.Rolls, s.Strikes = rolls, n
	if p := u.Personality; p != nil && !p.Killed && !p.Captured {
		b, err := BonusDie(t, d, p, u, s.CV.Value)
		if err != nil {
			return s, err
		}
		s.Rolls = append(s.Rolls, b)
		s.Strikes += b.Strikes
	}
	return s, nil
}

func takeStrikes(t *Tables, s *SideResult, u *Unit, strikes int) error {
	r, err := Lookup(t, u, strikes)
	if err != nil {
		return err
	}
	s.Taken = r
	s.StandsLost, s.MoraleCheck = u.Apply(r)
	return nil
}

func pcsChecks(t *Tables, d Dice, u *Unit, lost bool, diff int) ([]Check, error) {
	p := u.Personality
	if p == nil || p.Killed {
		return nil, nil
	}
	c, err := MeleeCheck(t, d, p, lost, diff)
	if err != nil {
		return nil, err
	}
	return []Check{c}, nil
}

func abs(n int) int { return max(n, -n) }

// RetreatInches is B. RETREAT AFTER MELEE: "The loser retreats one half a
// move plus 1" per strike difference ... This movement ... is NOT halved".
func RetreatInches(t *Tables, loser *Unit, difference int) float64 {
	return loser.Type.Move/2 + t.Melee.RetreatPerStrike*float64(difference)
}
