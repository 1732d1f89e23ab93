package strike

import "fmt"

// Factors are the facts that select the COMBAT TABLE's modifiers for one
// rolling stand. The seam derives them from the table geometry and the
// state; ShootingFactors and MeleeFactors help.
type Factors struct {
	Melee bool // melee: the MELEE and SHARED lines; shooting: SHOOTING and SHARED

	// SHOOTING
	MassedTarget bool
	DistantRange bool
	Skirmisher   bool // the shooter or the target is a skirmisher

	// MELEE
	FknCharging     bool
	FootCharging    bool
	MountedCharging bool
	FknVsFoot       bool
	Superior        bool

	// SHARED
	Trained             bool
	FoeHigherOrObstacle bool
	Disordered          bool

	// House: the side claims the Weapon of Choice (R512).
	WeaponOfChoice bool
}

// Step is one modifier applied, for the log.
type Step struct {
	What  string
	Delta int // the change; for "×½" the change the halving made
	CV    int // the CV after this step
}

// CV is a modified combat value with the steps that made it.
type CV struct {
	Value int
	Steps []Step
}

func (c CV) String() string {
	s := fmt.Sprint(c.Steps[0].CV)
	for _, st := range c.Steps[1:] {
		if st.What == "disorder ×½" {
			s += fmt.Sprintf(" ×½ = %d", st.CV)
			continue
		}
		s += fmt.Sprintf(" %+d", st.Delta)
	}
	return fmt.Sprintf("%s → CV %d", s, c.Value)
}

// ModifiedCV works out a stand's modified combat value (COMBAT VALUE (CV):
// "Apply all modifiers in the order they are listed, to get the final CV.
// All units start with a 7 CV"). The order matters only for the ×½ of
// disorder, listed last: it halves the sum of every other modifier,
// rounding down (ruling R501; the die shows whole numbers, so rounding
// down a half is the same as comparing with the exact half).
func ModifiedCV(t *Tables, f Factors) CV {
	c := t.Combat
	cv := CV{Value: c.BaseCV, Steps: []Step{{What: "basic CV", CV: c.BaseCV}}}
	add := func(on bool, what string, d int) {
		if on && d != 0 {
			cv.Value += d
			cv.Steps = append(cv.Steps, Step{What: what, Delta: d, CV: cv.Value})
		}
	}
	if !f.Melee {
		add(f.MassedTarget, "massed target", c.MassedTarget)
		add(f.DistantRange, "distant range", c.DistantRange)
		add(f.Skirmisher, "skirmisher", c.Skirmisher)
	} else {
		add(f.FknCharging, "Fkn charging", c.FknCharging.CV)
		add(f.FootCharging, "foot charging", c.FootCharging.CV)
		add(f.MountedCharging, "mounted charging", c.MountedCharging.CV)
		add(f.FknVsFoot, "Fkn vs foot", c.FknVsFoot)
		add(f.Superior, "superior", c.Superior)
		add(f.WeaponOfChoice, "weapon of choice", c.WeaponOfChoice)
	}
	add(f.Trained, "trained", c.Trained)
	add(f.FoeHigherOrObstacle, "foe higher or in obstacle", c.FoeHigherOrObstacle)
	if f.Disordered {
		half := floorHalf(cv.Value)
		cv.Steps = append(cv.Steps, Step{What: "disorder ×½", Delta: half - cv.Value, CV: half})
		cv.Value = half
	}
	return cv
}

// floorHalf is n/2 rounded down, also for negative n (a CV of −3 halves to
// −2, which, like −1.5, no die roll reaches).
func floorHalf(n int) int {
	if n >= 0 {
		return n / 2
	}
	return -((-n + 1) / 2)
}
