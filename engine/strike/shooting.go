package strike

import (
	"fmt"
	"math"

	"herald/engine/strike/table"
)

// Band is a range band of the Missile Weapon Table.
type Band int

const (
	OutOfRange Band = iota
	Effective
	Distant
)

func (b Band) String() string { return [...]string{"out of range", "effective", "distant"}[b] }

// RangeBand is the band of a distance for a weapon (STANDS ELIGIBLE TO
// SHOOT: "within effective or distant range"). A range is inclusive: a
// target exactly at the effective range is at effective range.
func RangeBand(w *Weapon, inches float64) Band {
	switch {
	case inches <= w.Effective+table.Eps:
		return Effective
	case w.Distant > 0 && inches <= w.Distant+table.Eps:
		return Distant
	}
	return OutOfRange
}

// Shot is one stand's eligible shot at a target unit.
type Shot struct {
	Stand    table.Stand
	Distance float64 // to the nearest target stand wholly in its arc
	Band     Band
	Massed   bool
}

// Eligible lists the stands of shooter (footprint sf) that may shoot at
// target (footprint tf): STANDS ELIGIBLE TO SHOOT ("the target must be
// within the stand's shooting arc, and within effective or distant range")
// and ARC OF FIRE ("The entire target stand must be within the shooting
// arc"; distance "from the closest point of the firing stand to the
// closest point of the target"). Each stand measures to the nearest target
// stand wholly inside its arc, a range being inclusive (R513). A unit
// without a missile weapon has no shots.
func Eligible(t *Tables, shooter *Unit, sf table.Unit, target *Unit, tf table.Unit) []Shot {
	w := t.WeaponOf(shooter.Type)
	if w == nil {
		return nil
	}
	half := t.Arcs[shooter.Type.Arc]
	var shots []Shot
	for _, s := range sf.Stands() {
		best := nearestInArc(sf, s, half, tf)
		if b := RangeBand(w, best); b != OutOfRange {
			shot := Shot{Stand: s, Distance: best, Band: b}
			shot.Massed = Massed(target, tf, table.Centre(sf.StandPoly(s)))
			shots = append(shots, shot)
		}
	}
	return shots
}

// Massed reports whether a shot from point from is at a massed target
// (MASSED TARGETS: "shooting at the flank or rear of a formed unit or one
// that is in column, block or wedge formation"; SKIRMISHERS: "They can
// never be a massed target").
func Massed(target *Unit, tf table.Unit, from table.Vec) bool {
	if target.Type.Skirmisher {
		return false
	}
	if target.Column {
		return true
	}
	return target.Type.Formed && table.AspectOf(tf, from).IsFlankOrRear()
}

// Fire is one side of a shooting: the unit, its eligible shots and whether
// its target is on higher ground or in obstacle terrain.
type Fire struct {
	Unit                *Unit
	Shots               []Shot
	FoeHigherOrObstacle bool
}

// Volley is a shooting resolved: the rolls, the strikes and the SRT result
// (after the crossbow rule), and what it did to the target.
type Volley struct {
	Shooter, Target string
	Rolls           []Roll
	Strikes         int
	Result          Result
	Checks          []Check // the target's Personality
	StandsLost      int
	MoraleCheck     bool
}

// shotCV is one shot's modified CV (COMBAT TABLE, SHOOTING and SHARED
// lines).
func shotCV(t *Tables, f Fire, target *Unit, s Shot) CV {
	return ModifiedCV(t, Factors{
		MassedTarget:        s.Massed,
		DistantRange:        s.Band == Distant,
		Skirmisher:          f.Unit.Type.Skirmisher || target.Type.Skirmisher,
		Trained:             f.Unit.Trained,
		FoeHigherOrObstacle: f.FoeHigherOrObstacle,
		Disordered:          f.Unit.Disordered,
	})
}

// roll rolls a volley without applying it (SHOOTING PROCEDURE: roll 1D20
// for every shooting stand, the target's Personalities check, then the
// strikes go to the SRT).
func roll(t *Tables, d Dice, f Fire, target *Unit) (Volley, error) {
	v := Volley{Shooter: f.Unit.Name, Target: target.Name}
	double := DoublesFiring(t, f.Unit)
	for i, s := range f.Shots {
		cv := shotCV(t, f, target, s).Value
		w := fmt.Sprintf("%s stand %d shoots at %s (%s, CV %d)", f.Unit.Name, i+1, target.Name, s.Band, cv)
		n, err := d.Roll20(w)
		if err != nil {
			return Volley{}, err
		}
		st := Strike(cv, n, double)
		v.Rolls = append(v.Rolls, Roll{Who: w, CV: cv, Value: n, Strikes: st})
		v.Strikes += st
	}
	if p := target.Personality; p != nil && !p.Killed {
		c, err := FireCheck(t, d, p)
		if err != nil {
			return Volley{}, err
		}
		v.Checks = append(v.Checks, c)
	}
	r, err := Lookup(t, target, v.Strikes)
	if err != nil {
		return Volley{}, err
	}
	if w := t.WeaponOf(f.Unit.Type); w != nil && w.NEIsFigure {
		r = Crossbow(r, v.Strikes)
	}
	v.Result = r
	return v, nil
}

func (v *Volley) apply(target *Unit) {
	v.StandsLost, v.MoraleCheck = target.Apply(v.Result)
}

// Shoot resolves one unit's fire at a target that does not shoot back.
// A unit with no eligible shot does not shoot: no die is rolled and its
// target's Personality makes no check.
func Shoot(t *Tables, d Dice, f Fire, target *Unit) (Volley, error) {
	if len(f.Shots) == 0 {
		return Volley{Shooter: f.Unit.Name, Target: target.Name}, nil
	}
	v, err := roll(t, d, f, target)
	if err != nil {
		return Volley{}, err
	}
	v.apply(target)
	return v, nil
}

// MustShootBack reports whether a missile unit fired on must return fire
// (NOTES: "Missile units that are fired on MUST shoot back if able"):
// it has a missile weapon and at least one eligible shot at its shooter.
func MustShootBack(t *Tables, target *Unit, returnShots []Shot) bool {
	return t.WeaponOf(target.Type) != nil && len(returnShots) > 0 && !target.Destroyed()
}

// Duel resolves fire between two missile units (RATE OF FIRE (ROF): "the
// one with the highest rate of fire will roll first. The lower applies the
// results of the fire upon it and then returns fire"). The returning unit
// shoots with the stands it has left (its last eligible shots are the ones
// lost, R515) and in the order it is in then (disordered if the first
// volley disordered it). Equal rates of fire shoot at the same time: both
// roll, a first, then both results apply (R514). The volleys are returned
// in the order rolled.
func Duel(t *Tables, d Dice, a, b Fire) ([]Volley, error) {
	ra, rb := rof(t, a.Unit), rof(t, b.Unit)
	if rb > ra {
		a, b = b, a
	}
	switch {
	case len(a.Shots) == 0 && len(b.Shots) == 0:
		return nil, nil
	case len(a.Shots) == 0:
		v, err := Shoot(t, d, b, a.Unit)
		return []Volley{v}, err
	case len(b.Shots) == 0:
		v, err := Shoot(t, d, a, b.Unit)
		return []Volley{v}, err
	}
	first, err := roll(t, d, a, b.Unit)
	if err != nil {
		return nil, err
	}
	if ra == rb {
		second, err := roll(t, d, b, a.Unit)
		if err != nil {
			return nil, err
		}
		first.apply(b.Unit)
		second.apply(a.Unit)
		return []Volley{first, second}, nil
	}
	first.apply(b.Unit)
	b.Shots = b.Shots[:min(len(b.Shots), max(b.Unit.Stands, 0))]
	if len(b.Shots) == 0 {
		return []Volley{first}, nil
	}
	second, err := roll(t, d, b, a.Unit)
	if err != nil {
		return nil, err
	}
	second.apply(a.Unit)
	return []Volley{first, second}, nil
}

func rof(t *Tables, u *Unit) int {
	if w := t.WeaponOf(u.Type); w != nil {
		return w.ROF
	}
	return -1
}

// ChargeFire lists the shots of shooter at a charger during the charge
// (2. REACTION TO A CHARGE): every stand with a charger's stand wholly in
// its arc shoots, whatever the range ("even if the charge starts outside
// of shooting range the fire still takes place!"), at the band the
// reaction gives: supporting units "as if at distant range", "Weapons with
// out such range still may fire but with the -3 penalty"; missile troops
// standing to fire at effective range, or at distant range if in contact or
// in obstacle terrain. Artillery and handguns never fire at chargers.
func ChargeFire(t *Tables, shooter *Unit, sf table.Unit, charger *Unit, cf table.Unit, band Band) []Shot {
	w := t.WeaponOf(shooter.Type)
	if w == nil || w.NoDefensiveFire {
		return nil
	}
	half := t.Arcs[shooter.Type.Arc]
	var shots []Shot
	for _, s := range sf.Stands() {
		best := nearestInArc(sf, s, half, cf)
		if !math.IsInf(best, 1) {
			shots = append(shots, Shot{Stand: s, Distance: best, Band: band, Massed: Massed(charger, cf, table.Centre(sf.StandPoly(s)))})
		}
	}
	return shots
}

// nearestInArc is the distance from stand s of sf to the nearest stand of
// tf wholly within its arc of half-angle half, +Inf when none is ("The
// entire target stand must be within the shooting arc").
func nearestInArc(sf table.Unit, s table.Stand, half float64, tf table.Unit) float64 {
	best := math.Inf(1)
	for _, ts := range tf.Stands() {
		poly := tf.StandPoly(ts)
		if table.InArc(sf, s, half, poly) {
			best = math.Min(best, table.Distance(sf.StandPoly(s), poly))
		}
	}
	return best
}
