package strike

import "fmt"

// Morale is the outcome of a morale check (Herald's house check; the
// fragment refers to "Morale" and "Break Moves" without giving them).
type Morale string

const (
	Pass     Morale = "pass"
	FallBack Morale = "fall back" // disordered, falls back FallBackMoves
	Break    Morale = "break"
)

// MoraleFacts are what a morale check depends on.
type MoraleFacts struct {
	StandsLost  int // this combat
	LostMelee   bool
	StrikeDiff  int // if it lost the melee
	Personality bool
}

// MoraleCheck is one morale check: 1D20 at or under the unit's morale
// number passes; 20 always fails, like a strike (R526). Failing by
// FailBreak or more breaks the unit, failing by less makes it fall back
// disordered.
func MoraleCheck(t *Tables, d Dice, u *Unit, f MoraleFacts) (Morale, int, error) {
	m := t.Morale
	q := "ordinary"
	switch {
	case u.Superior:
		q = Superior
	case u.Trained:
		q = Trained
	}
	need := m.Base[q] + m.PerStandLost*f.StandsLost
	if u.Disordered {
		need += m.Disordered
	}
	if f.LostMelee {
		need += m.LostMelee + m.PerStrikeDiff*f.StrikeDiff
	}
	if f.Personality {
		need += m.Personality
	}
	v, err := d.Roll20(fmt.Sprintf("%s morale check (%d or less)", u.Name, need))
	if err != nil {
		return "", 0, err
	}
	switch {
	case v <= need && v < 20:
		return Pass, v, nil
	case v-need >= m.FailBreak:
		u.Broken = true
		return Break, v, nil
	}
	u.Disordered = true
	return FallBack, v, nil
}

// FinalMelee is 6. MELEE MORALE CHECKS, A. FINAL MELEE RESULTS: given the
// original loser and each side's morale outcome, it says who is the final
// loser and whether that loser makes the retreat after melee. "If neither
// unit fails morale the original loser retreats"; "it is possible for the
// original loser to remain as the final winner": an original winner that
// fails while the original loser passes becomes the loser. If both fail,
// the original loser stays the loser (R525). A unit that fails moves by
// its morale result, not by the retreat after melee.
func FinalMelee(attackerLost bool, att, def Morale) (attackerFinalLoser, retreat bool) {
	attFails, defFails := att != Pass, def != Pass
	switch {
	case !attFails && !defFails:
		return attackerLost, true
	case attFails && !defFails:
		return true, false
	case defFails && !attFails:
		return false, false
	}
	return attackerLost, false
}
