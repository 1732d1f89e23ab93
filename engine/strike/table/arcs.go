package table

import "math"

// AllRound is the arc half-angle of a stand that shoots all round: the
// fragment's "Light cavalry, 360 degrees around".
const AllRound = 180

// InArc reports whether the whole of target lies in the shooting arc of a
// stand (ARC OF FIRE: "The entire target stand must be within the shooting
// arc to be an eligible target").
//
// half is the arc's angle to either side of straight ahead, in degrees
// ("the farthest angle that men in the unit can effectively shoot to either
// side"): 45 for skirmish foot, AllRound for light cavalry, the house value
// for formed shooters (data/strike). Herald reads "measured from the far
// side of each firing stand" as: the arc's two lines start at the corners
// of the stand's front edge, its side towards the enemy, and open outwards
// (ruling R506), so that a target straight ahead of the stand and touching
// it is always in the arc.
//
// half must be over 0 and under 90, or AllRound.
func InArc(shooter Unit, s Stand, half float64, target Polygon) bool {
	if half >= AllRound {
		return true
	}
	for _, p := range target {
		if !inArcPoint(shooter, s, half, p) {
			return false
		}
	}
	return true
}

// inArcPoint: in the stand's frame (x right of the centre of its front
// edge, y forward of it) the arc is y ≥ 0 and |x| ≤ w/2 + y·tan(half), a
// convex region, so a convex target is inside exactly when its corners
// are.
func inArcPoint(u Unit, s Stand, half float64, p Vec) bool {
	poly := u.StandPoly(s)
	front := poly[0].Add(poly[1]).Scale(0.5)
	l := Unit{Pos: front, Facing: u.Facing}.Local(p)
	if l.Y < -Eps {
		return false
	}
	reach := u.StandWidth/2 + l.Y*math.Tan(half*math.Pi/180)
	return math.Abs(l.X) <= reach+Eps
}
