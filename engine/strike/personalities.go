package strike

import "fmt"

// Personality is a named leader with a skill rating (SR), attached to a
// unit or alone.
type Personality struct {
	Name     string
	SR       int
	Wounded  bool
	Captured bool // captured and attached to his captor's unit
	Killed   bool
}

// BonusDie is a Personality's melee die (B. PERSONALITY COMBAT DICE: "he
// rolls 1 bonus D20. His CV is that of the unit's modified CV + his SR. SR
// 6/7 have bonus of +6, SR 8 or higher equal a bonus of +7"). Herald adds
// the stated bonus, not the SR itself (ruling R520): the die's CV is the
// unit's modified CV plus the bonus of his SR band. The die scores double
// strikes when his unit's stands do (R521).
func BonusDie(t *Tables, d Dice, p *Personality, u *Unit, unitCV int) (Roll, error) {
	b, err := t.Band(p.SR)
	if err != nil {
		return Roll{}, err
	}
	cv := unitCV + b.Bonus
	w := fmt.Sprintf("%s's bonus die with %s (CV %d)", p.Name, u.Name, cv)
	v, err := d.Roll20(w)
	if err != nil {
		return Roll{}, err
	}
	return Roll{Who: w, CV: cv, Value: v, Strikes: Strike(cv, v, DoublesInMelee(u))}, nil
}

// PCS is a Personality's personal combat skill for a melee (C. PERSONAL
// COMBAT SKILL CHECKS): the PCS of his SR band ("SR 6/7 have a PCS of 16,
// SR 8 or higher have a PCS of 17"; Herald takes these numbers over "SR
// +10", ruling R519), −5 if wounded (the text's ":5", R522), −5 if his
// unit lost the melee and −1 per strike difference if it lost.
func PCS(t *Tables, p *Personality, lost bool, difference int) (int, error) {
	b, err := t.Band(p.SR)
	if err != nil {
		return 0, err
	}
	n := b.PCS
	if p.Wounded {
		n += t.PCS.Wounded
	}
	if lost {
		n += t.PCS.LostMelee + t.PCS.PerStrikeDifference*difference
	}
	return n, nil
}

// Check is one personal combat skill check.
type Check struct {
	Who      string
	Need     int // the roll must be under this
	Roll     int
	Unharmed bool
	Killed   bool // a second wound (R523)
}

// MeleeCheck makes a Personality's PCS check after a melee: he must "roll
// under their PCS ... to have been unharmed" (strictly under, R518). A
// failed check wounds him; a wounded Personality wounded again is killed
// (R523).
func MeleeCheck(t *Tables, d Dice, p *Personality, lost bool, difference int) (Check, error) {
	need, err := PCS(t, p, lost, difference)
	if err != nil {
		return Check{}, err
	}
	return check(d, p, need, fmt.Sprintf("%s's combat skill check (under %d)", p.Name, need))
}

// FireCheck makes the check of a Personality attached to a unit shot at
// (SHOOTING PROCEDURE: "Personalities that are attached to the target must
// make a personal combat skill check"; PERSONALITIES UNDER FIRE: "must roll
// under a 20 to have been unharmed. This roll is made even if no strikes
// were rolled").
func FireCheck(t *Tables, d Dice, p *Personality) (Check, error) {
	need := t.PCS.UnderFire
	return check(d, p, need, fmt.Sprintf("%s under fire (under %d)", p.Name, need))
}

func check(d Dice, p *Personality, need int, why string) (Check, error) {
	v, err := d.Roll20(why)
	if err != nil {
		return Check{}, err
	}
	c := Check{Who: p.Name, Need: need, Roll: v, Unharmed: v < need}
	if !c.Unharmed {
		if p.Wounded {
			p.Killed, c.Killed = true, true
		}
		p.Wounded = true
	}
	return c, nil
}

// Fate is the outcome of a capture draw.
type Fate string

const (
	Killed   Fate = "killed"
	Captured Fate = "captured"
	Escaped  Fate = "escaped"
)

// FateOf reads the capture table (Joker: Killed; Face or Ace: Captured;
// Other: Escaped unharmed).
func FateOf(c Card) Fate {
	switch {
	case c.Joker:
		return Killed
	case c.Rank == 1 || c.Rank >= 11:
		return Captured
	}
	return Escaped
}

// MustDraw reports whether a Personality's fate is drawn after a melee
// (R524): he was wounded in it or his unit is its final loser, and he is
// neither dead nor already a prisoner.
func MustDraw(p *Personality, woundedInMelee, unitLost bool) bool {
	return !p.Killed && !p.Captured && (woundedInMelee || unitLost)
}

// Capture draws the card for one event (C. CAPTURING A PERSONALITY OR
// BANNER: "When a personality is wounded in melee or involved in a losing
// melee there is a chance he is lost, captured or killed ... The opposing
// Warlord draws a card for each event") and applies it to p. A
// Personality both wounded and on the losing side draws once (R524).
func Capture(d Dice, p *Personality, why string) (Card, Fate, error) {
	c, err := d.Card(fmt.Sprintf("capture of %s: %s", p.Name, why))
	if err != nil {
		return Card{}, "", err
	}
	f := FateOf(c)
	switch f {
	case Killed:
		p.Killed = true
	case Captured:
		p.Captured = true
	}
	return c, f, nil
}
