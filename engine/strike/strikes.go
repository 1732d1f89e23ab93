package strike

import "fmt"

// MaxHit is the highest roll that can strike (DOUBLE STRIKES: "the actual
// number to hit may never exceed 19 (remember, 20s always miss)").
const MaxHit = 19

// Roll is one D20 rolled for a stand (or a Personality's bonus die).
type Roll struct {
	Who     string
	CV      int
	Value   int
	Strikes int // 0, 1 or 2
}

// Strike scores one die against a modified CV: 1 strike on a roll equal to
// or less than the CV, never on a 20 (BASIC COMBAT VALUE; DOUBLE STRIKES),
// and a second strike, if double strikes are allowed, on a roll equal to or
// less than half the CV (DOUBLE STRIKES). The CV may exceed 20 ("it is
// possible for the hit number to exceed 20"): it still hits on 19 at most,
// but its half counts in full, so a CV of 24 doubles on 12 or less.
//
// The cap applies to shooting too: 20 always misses (ruling R502). Half a
// CV rounds down, which is exact for whole-number rolls (R501).
func Strike(cv, roll int, double bool) int {
	if roll > MaxHit || roll > cv {
		return 0
	}
	if double && roll <= floorHalf(cv) {
		return 2
	}
	return 1
}

// RollStands rolls one D20 for each of n stands at a CV (SHOOTING
// PROCEDURE: "Roll 1D20 for every shooting stand"; MELEEPROCEDURE) and
// returns the rolls and the total strikes.
func RollStands(d Dice, who string, n, cv int, double bool) ([]Roll, int, error) {
	var rolls []Roll
	total := 0
	for i := 1; i <= n; i++ {
		w := fmt.Sprintf("%s stand %d (CV %d)", who, i, cv)
		v, err := d.Roll20(w)
		if err != nil {
			return nil, 0, err
		}
		s := Strike(cv, v, double)
		rolls = append(rolls, Roll{Who: w, CV: cv, Value: v, Strikes: s})
		total += s
	}
	return rolls, total, nil
}

// DoublesInMelee reports whether a unit's stands score double strikes in
// melee (DOUBLE STRIKES: "Melee only - Kn, Cv, Maa, and trained Sp are
// allowed double strikes").
func DoublesInMelee(u *Unit) bool {
	switch u.Type.DoubleStrikes {
	case DoubleAlways:
		return true
	case DoubleTrained:
		return u.Trained
	}
	return false
}

// DoublesFiring reports whether a unit's stands score double strikes when
// shooting (NOTES TRAINED LONGBOW: "These score double strikes when
// firing").
func DoublesFiring(t *Tables, u *Unit) bool {
	w := t.WeaponOf(u.Type)
	return w != nil && w.TrainedDouble && u.Trained
}
