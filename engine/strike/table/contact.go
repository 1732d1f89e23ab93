package table

import "math"

// Aspect is which face of a unit an enemy is on: REAR and FLANK ATTACKS
// treat flank and rear contact differently from the front.
type Aspect int

const (
	Front Aspect = iota
	LeftFlank
	RightFlank
	Rear
)

func (a Aspect) String() string {
	return [...]string{"front", "left flank", "right flank", "rear"}[a]
}

// IsFlankOrRear is true for the faces REAR and FLANK ATTACKS speak of.
func (a Aspect) IsFlankOrRear() bool { return a != Front }

// AspectOf says on which face of u the point p lies. The fragment gives no
// rule; Herald's (ruling R507) extends the unit's corners by lines at 45° to
// its sides: ahead of the front edge and within 45° of straight ahead of
// its corners is front, the same behind is rear, the rest is flank. A point
// exactly on a 45° line belongs to the front or rear, the defender's
// benefit of the doubt going to the face it can fight with.
func AspectOf(u Unit, p Vec) Aspect {
	l := u.Local(p)
	beyond := math.Abs(l.X) - u.Frontage()/2 // how far outside the files
	switch {
	case l.Y >= 0 && beyond <= l.Y+Eps:
		return Front
	case l.Y <= -u.Depth() && beyond <= -u.Depth()-l.Y+Eps:
		return Rear
	case l.X < 0:
		return LeftFlank
	}
	return RightFlank
}

// Centre is the middle of a polygon's corners (of a rectangle, its centre).
func Centre(p Polygon) Vec {
	var c Vec
	for _, v := range p {
		c = c.Add(v)
	}
	return c.Scale(1 / float64(len(p)))
}

// AttackAspect is the face of defender that attacker's contact falls on:
// the aspect of the centre of the first attacking stand that touches it
// (4. MATCH UP: "The first charging stand to contact its target determines
// the point of melee"). ok is false if no stand touches.
func AttackAspect(attacker, defender Unit) (a Aspect, ok bool) {
	for _, s := range attacker.Stands() {
		if Distance(attacker.StandPoly(s), defender.Outline()) <= Eps {
			return AspectOf(defender, Centre(attacker.StandPoly(s))), true
		}
	}
	return Front, false
}

// InContact lists the stands of u that share a length of edge with the
// outline of enemy: stands matched up side to side (4. MATCH UP), not
// stands that meet it at one corner only (R531).
func InContact(u, enemy Unit) []Stand {
	var out []Stand
	for _, s := range u.Stands() {
		if EdgeContact(u.StandPoly(s), enemy.Outline()) {
			out = append(out, s)
		}
	}
	return out
}

// EdgeContact reports whether an edge of a lies along an edge of b for a
// length over Eps.
func EdgeContact(a, b Polygon) bool {
	for i := range a {
		p, q := a[i], a[(i+1)%len(a)]
		d := q.Sub(p)
		l := d.Len()
		if l == 0 {
			continue
		}
		u := d.Scale(1 / l)
		for j := range b {
			r, s := b[j], b[(j+1)%len(b)]
			// both ends of rs on the line of pq
			if math.Abs(u.Cross(r.Sub(p))) > Eps || math.Abs(u.Cross(s.Sub(p))) > Eps {
				continue
			}
			t0, t1 := r.Sub(p).Dot(u), s.Sub(p).Dot(u)
			lo, hi := math.Max(0, math.Min(t0, t1)), math.Min(l, math.Max(t0, t1))
			if hi-lo > Eps {
				return true
			}
		}
	}
	return false
}

// Overlaps counts, for a unit u in frontal contact with enemy, its
// overlapping stands (OVERLAPS: "A unit with a larger frontage may gain the
// advantage of one stand per flank"): a front-rank stand not in contact,
// next to the outermost front-rank stand that is, on each side, when u's
// frontage is the larger (R531). It returns 0, 1 or 2.
func Overlaps(u, enemy Unit) int {
	if u.Frontage() <= enemy.Frontage()+Eps {
		return 0
	}
	lo, hi := u.Files, -1
	for _, s := range InContact(u, enemy) {
		if s.Rank == 0 {
			lo, hi = min(lo, s.File), max(hi, s.File)
		}
	}
	if hi < 0 {
		return 0
	}
	n := 0
	if lo > 0 {
		n++
	}
	if hi < u.Files-1 {
		n++
	}
	return n
}
