package engine

import (
	"fmt"

	"herald/engine/hex"
)

// 9.2 "Mounted Missile units may fire before, as part of (during), or
// after Movement": FIRE <enemy> among a MOVE's hexes. Infidel 11.2: "If in
// a hex in an enemy ZOC when they fire, it costs 1 MP to fire" — the
// tables' rules.mounted_fire_zoc_mp (0 in Men of Iron).

// movingFire is a fire during a move: before entering path[at].
type movingFire struct {
	At     int `json:"at"`
	Target int `json:"target"`
	MP     int `json:"mp"` // what firing there costs
}

// fireInMove checks a FIRE inside a MOVE before anything happens: only a
// mounted missile unit fires as part of its move, once per Activation,
// within its Movement Allowance; whether it can see and reach the target
// is checked when it stands there.
func (g *game) fireInMove(o Move, i int, path []hex.Hex, plan movePlan) (*movingFire, error) {
	if o.Fire == "" {
		return nil, nil
	}
	spec, us := g.sc.Units[i], g.st.Units[i]
	t := unitType(g.sc, g.st, i)
	j, ok := g.findEnemyUnit(o.Fire)
	switch {
	case !t.Mounted || !t.Missile():
		return nil, g.illegal(o, "9.2", spec.ID+" is not a mounted missile unit: missile infantry fire only after their move (FIRE <unit> AT <enemy>)")
	case us.Fired:
		return nil, g.illegal(o, "9.2", spec.ID+" has fired in this Activation")
	case !ok:
		return nil, g.illegal(o, "9.1", fmt.Sprintf("the enemy has no unit called %q", o.Fire)+g.unitHint(g.st.Pending.Side.Other(), o.Fire, true))
	}
	words, _ := pathWords(o.Path[:o.FireAt])
	at := len(words)
	where := us.Hex
	if at > 0 {
		where = path[at-1]
	}
	f := &movingFire{At: at, Target: j}
	if len(enemyZOC(g.sc, g.st, spec.Side, where)) > 0 {
		f.MP = g.sc.Tables.Rules.MountedFireZOCMP
	}
	ma := ratings(g.sc, g.st, i).MA
	if us.Status == Disordered {
		ma = ratings(g.sc, g.st, i).MADisordered
	}
	if plan.mp+f.MP > ma {
		return nil, g.illegal(o, "Infidel 11.2", fmt.Sprintf("%s would spend %d MP with its fire in an enemy ZOC, more than its Movement Allowance of %d", spec.ID, plan.mp+f.MP, ma))
	}
	return f, nil
}

// fireOnTheMove fires where the mover stands; done reports that its move
// is over (Return Fire drove it off, or a retreat waits).
func (g *game) fireOnTheMove(i int, f *movingFire) (done bool, err error) {
	g.faceToFire(i, f.Target)
	if r := CanFire(g.sc, g.st, i, f.Target, false); r != nil {
		g.emit(FireForgone{Unit: g.sc.Units[i].ID, Target: g.sc.Units[f.Target].ID, Reason: r.Reason, Rule: r.Rule})
		return false, nil
	}
	at, seen := g.st.Units[i].Hex, len(g.res.Events)
	if err := g.resolveFire(i, f.Target, f.MP); err != nil {
		return true, err
	}
	us := g.st.Units[i]
	return us.Hex != at || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil || counterCharged(g.res.Events[seen:]), nil
}

// counterCharged: a Counter-Charge against the fire succeeded among evs;
// it "ends the movement of the missile unit" (11.6).
func counterCharged(evs []Event) bool {
	for _, e := range evs {
		if c, ok := e.(CounterChargeRolled); ok && c.Success {
			return true
		}
	}
	return false
}

// FireForgone: a fire ordered inside a move could not be made where the
// unit stood (out of range or sight by then); the move goes on.
type FireForgone struct {
	Unit   string `json:"unit"`
	Target string `json:"target"`
	Reason string `json:"reason"`
	Rule   string `json:"rule"`
}

func (FireForgone) apply(*State) {}

func (e FireForgone) describe(*Scenario) string {
	return fmt.Sprintf("%s does not fire at %s: %s (%s).", e.Unit, e.Target, e.Reason, e.Rule)
}

// Infidel 8.0: "A unit may ignore this facing when moving, but once it
// stops movement or conducts missile fire it must be faced in a specific
// direction." Under the tables' Rules.FaceToFire a unit firing during its
// move is faced as it fires (ruling R155): it keeps its facing when the
// target is already in its Front, and otherwise turns to the first vertex,
// from E round to SE, that puts the target most squarely in its Front
// (down the Front spine, then across a Frontal hexside, then down a
// Front/Flank spine). It is turning during movement, which costs nothing
// and may be any number of vertices (8.0). A target it could not fire at
// from any facing leaves it as it was.
func (g *game) faceToFire(i, target int) {
	if !g.sc.Tables.Rules.FaceToFire {
		return
	}
	us := g.st.Units[i]
	at := g.sc.Map.Grid.ApproachFrom(us.Hex, g.st.Units[target].Hex)
	if us.Facing.ApproachAspect(at).FireAspect() == hex.Front {
		return
	}
	best, rank := us.Facing, 99
	for f := hex.FaceE; f <= hex.FaceSE; f++ {
		if k := frontRank(f.ApproachAspect(at)); k < rank {
			best, rank = f, k
		}
	}
	turned := *g.st
	turned.Units = append([]UnitState(nil), g.st.Units...)
	turned.Units[i].Facing = best
	if CanFire(g.sc, &turned, i, target, false) != nil {
		return
	}
	g.emit(FacedToFire{Unit: g.sc.Units[i].ID, Facing: best, Target: g.sc.Units[target].ID})
}

// frontRank orders the angles by how squarely they lie in front.
func frontRank(a hex.Angle) int {
	switch a {
	case hex.SpineFront:
		return 0
	case hex.SideFront:
		return 1
	case hex.SpineFrontFlank:
		return 2
	}
	return 9
}

// FacedToFire: a unit firing during its move faces its target (Infidel
// 8.0).
type FacedToFire struct {
	Unit   string     `json:"unit"`
	Facing hex.Facing `json:"facing"`
	Target string     `json:"target"`
}

func (e FacedToFire) apply(st *State) { st.Unit(e.Unit).Facing = e.Facing }

func (e FacedToFire) describe(*Scenario) string {
	return fmt.Sprintf("%s faces %s to fire at %s (8.0).", e.Unit, e.Facing, e.Target)
}

func init() { registerEvents(FireForgone{}, FacedToFire{}) }
