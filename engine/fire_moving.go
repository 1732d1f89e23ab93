package engine

import (
	"fmt"
	"slices"

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
	// Adjacent: MP is the cost of firing next to an enemy unit (Arquebus
	// 11.2), not in an enemy ZOC.
	Adjacent bool `json:"adjacent,omitempty"`
}

// fireAtIndex is where a MOVE's FIRE stands among the path's hexes (the
// number of hexes entered before it), -1 for a move without one.
func fireAtIndex(o Move) int {
	if o.Fire == "" {
		return -1
	}
	words, _ := pathWords(o.Path[:o.FireAt])
	return len(words)
}

// mayFireInMove checks a FIRE inside a MOVE before the path is planned:
// only a mounted missile unit fires as part of its move (with
// rules.fire_on_move, only a unit of those types: Arquebus 11.2), once per
// Activation, at an enemy unit.
func (g *game) mayFireInMove(o Move, i int) (int, error) {
	spec, us := g.sc.Units[i], g.st.Units[i]
	t := unitType(g.sc, g.st, i)
	j, ok := g.findEnemyUnit(o.Fire)
	switch {
	case g.sc.Tables.Rules.FireOnMove != nil && !slices.Contains(g.sc.Tables.Rules.FireOnMove, t.Key):
		return -1, g.illegal(o, "Arquebus 11.2", fmt.Sprintf("%s may not fire during its move: only %s fire and go on moving; any other unit's fire ends its Move/Fire Phase, so it fires after its move (FIRE %s AT %s)",
			spec.ID, typeNames(g.sc, g.sc.Tables.Rules.FireOnMove), spec.ID, o.Fire))
	case !t.Mounted || !t.Missile():
		return -1, g.illegal(o, "9.2", spec.ID+" is not a mounted missile unit: missile infantry fire only after their move (FIRE <unit> AT <enemy>)")
	case us.Fired:
		return -1, g.illegal(o, "9.2", spec.ID+" has fired in this Activation")
	case !ok:
		return -1, g.illegal(o, "9.1", fmt.Sprintf("the enemy has no unit called %q", o.Fire)+g.unitHint(g.st.Pending.Side.Other(), o.Fire, true))
	}
	return j, nil
}

// fireInMove prices a FIRE inside a MOVE whose path is planned: firing
// costs MP in an enemy ZOC (Infidel 11.2) or next to an enemy unit
// (Arquebus 11.2), within the Movement Allowance; whether the unit can see
// and reach the target is checked when it stands there.
func (g *game) fireInMove(o Move, i, j int, path []hex.Hex, plan movePlan) (*movingFire, error) {
	if o.Fire == "" {
		return nil, nil
	}
	spec, us := g.sc.Units[i], g.st.Units[i]
	at := fireAtIndex(o)
	where := us.Hex
	if at > 0 {
		where = path[at-1]
	}
	f := &movingFire{At: at, Target: j}
	rules := g.sc.Tables.Rules
	if len(enemyZOC(g.sc, g.st, spec.Side, where)) > 0 {
		f.MP = rules.MountedFireZOCMP
	}
	if rules.AdjacencyLimits && rules.FireOnMove != nil && !(us.OffMap && at == 0) && enemyAdjacent(g.sc, g.st, spec.Side, where) {
		f.MP, f.Adjacent = rules.MountedFireAdjacentMP, true
	}
	ma := ratings(g.sc, g.st, i).MA
	if us.Status == Disordered {
		ma = ratings(g.sc, g.st, i).MADisordered
	}
	if plan.mp+f.MP > ma {
		if f.Adjacent {
			return nil, g.illegal(o, "Arquebus 11.2", fmt.Sprintf("%s would spend %d MP with its fire next to an enemy unit (%d MP to fire), more than its Movement Allowance of %d", spec.ID, plan.mp+f.MP, f.MP, ma))
		}
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
	g.moving = f
	err = g.resolveFire(i, f.Target, f.MP)
	g.moving = nil
	if err != nil {
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
