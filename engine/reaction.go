package engine

import (
	"sort"

	"herald/engine/hex"
)

// 9.2 Reaction Fire: "When any enemy unit moves (expends movement points)
// or Charges ... into its adjacent ZOC/frontal hexes. This applies to each
// enemy unit that does so" (crossbows: "only one enemy unit ... in a given
// activation"). "When a missile unit prompts Reaction Fire, the reacting
// unit gets to fire BEFORE the activated unit gets to fire." 9.3: "During
// Reaction Fire, if multiple units react to a single unit ... results are
// applied immediately, as they occur. The instant the unit is no longer in
// the hex that caused the Reaction Fire (due to Retreat, Retire, or
// Elimination), Reaction Fire ends." It is the non-active player's
// decision, settled by his standing orders: by default his units react
// whenever they may (STANDING REACTION FIRE NEVER holds them).

// carryOutMove applies a checked move hex by hex. After each hex entered,
// the enemy missile units that may react fire at once, each once at this
// mover in its move (9.2 "each enemy unit that does so"); a mover that no
// longer stands there stops, and one Disordered on the way goes on only as
// far as its Disordered Movement Allowance reaches (ruling R69).
func (g *game) carryOutMove(i int, path []hex.Hex, ch *sideChange, final UnitMoved, plan movePlan, fire *movingFire) error {
	st0 := g.st.Clone()
	cum := cumulativeMP(g.sc, st0, i, path, ch, plan.mp)
	if fire != nil {
		for k := fire.at; k < len(cum); k++ {
			cum[k] += fire.mp
		}
		plan.mp += fire.mp
	}
	start, spent := 0, 0
	fired := map[int]bool{} // each enemy unit reacts to this mover once in its move
	for k := 0; k < len(path); k++ {
		if fire != nil && fire.at == k {
			if k > start {
				if err := g.moveSegment(i, st0, path, ch, start, k-1, cum[k-1]-spent, g.st.Units[i].Facing, final); err != nil {
					return err
				}
				start, spent = k, cum[k-1]
			}
			if done, err := g.fireOnTheMove(i, fire); err != nil || done {
				return err
			}
			spent += fire.mp
		}
		var reactors []int
		for _, j := range g.reactors(i, path[k]) {
			if !fired[j] {
				reactors = append(reactors, j)
				fired[j] = true
			}
		}
		if len(reactors) == 0 {
			continue
		}
		if err := g.moveSegment(i, st0, path, ch, start, k, cum[k]-spent, g.st.Units[i].Facing, final); err != nil {
			return err
		}
		start, spent = k+1, cum[k]
		if err := g.reactionFire(i, path[k], reactors); err != nil {
			return err
		}
		us := g.st.Units[i]
		if us.Hex != path[k] || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
			return nil // its move ends here (a retreat waiting for its owner's choice ends it too)
		}
		if us.Status == Disordered && st0.Units[i].Status != Disordered {
			ma := ratings(g.sc, g.st, i).MADisordered
			for len(path)-1 > k && (cum[len(path)-1] > ma || occupant(st0, path[len(path)-1]) >= 0) {
				path = path[:len(path)-1]
			}
			if ch != nil && ch.At > len(path) {
				ch = nil
			}
			if fire != nil && fire.at > len(path) {
				fire = nil // the fire was to come beyond where the move now ends
			}
		}
	}
	if fire != nil && fire.at == len(path) {
		if k := len(path) - 1; k >= start {
			if err := g.moveSegment(i, st0, path, ch, start, k, cum[k]-spent, g.st.Units[i].Facing, final); err != nil {
				return err
			}
			start, spent = len(path), cum[k]
		}
		if done, err := g.fireOnTheMove(i, fire); err != nil || done {
			return err
		}
		spent += fire.mp
	}
	if start == len(path) && final.Facing == g.st.Units[i].Facing && (ch == nil || ch.At < start) {
		return nil
	}
	last := plan.mp // with a change of sides or a fire at the end of the path
	if len(path) > 0 && (ch == nil || ch.At < len(path)) && (fire == nil || fire.at < len(path)) {
		last = cum[len(path)-1]
	}
	return g.moveSegment(i, st0, path, ch, start, len(path)-1, last-spent, final.Facing, final)
}

// cumulativeMP is the MP a move has spent on entering each hex of its path
// (a side change counted where it happens).
func cumulativeMP(sc *Scenario, st *State, i int, path []hex.Hex, ch *sideChange, total int) []int {
	cum := make([]int, len(path))
	for k := range path {
		var prefix *sideChange
		if ch != nil && ch.At <= k {
			prefix = ch
		}
		p, _ := planUnitMove(sc, st, i, path[:k+1], prefix)
		cum[k] = p.mp
	}
	return cum
}

// moveSegment emits the part of a move from path[from] to path[to], with
// the rolls of the missile units ridden through on the way.
func (g *game) moveSegment(i int, st0 *State, path []hex.Hex, ch *sideChange, from, to, mp int, facing hex.Facing, final UnitMoved) error {
	e := UnitMoved{Unit: final.Unit, Leader: final.Leader, Facing: facing, MP: mp}
	if to >= from {
		e.Path = append([]hex.Hex(nil), path[from:to+1]...)
	}
	if ch != nil && ch.At >= from && (ch.At <= to || to == len(path)-1 && ch.At == len(path)) {
		e.Change, e.ChangeAt, e.Type = final.Change, ch.At-from, final.Type
	}
	g.emit(e)
	var passed []int
	for _, h := range e.Path {
		if o := occupant(st0, h); o >= 0 && o != i {
			passed = append(passed, o)
		}
	}
	return g.passThroughRolls(i, passed)
}

// reactors are the enemy missile units that would fire at unit i entering
// h: h is one of their Frontal hexes, they have not used up their
// Reaction Fire, and their side's standing orders allow it. Whether they
// can see and reach i is checked when i stands there.
func (g *game) reactors(i int, h hex.Hex) []int {
	sc, st := g.sc, g.st
	side := sc.Units[i].Side
	var out []int
	for j, u := range sc.Units {
		us := st.Units[j]
		w := unitWeapon(sc, st, j)
		if u.Side == side || w == nil || us.OffMap || us.Status == Eliminated || us.Status == Retired {
			continue
		}
		if w.ReactionTargets > 0 && us.Reacted || fireMode(sc, st, j, true) == FireNever {
			continue
		}
		fr := sc.Map.Grid.FrontalHexes(us.Hex, us.Facing)
		if fr[0] == h || fr[1] == h {
			out = append(out, j)
		}
	}
	// "the firing player chooses the order of fire resolution": by unit
	// id, the default of his standing orders (ruling R69).
	sort.Slice(out, func(a, b int) bool { return sc.Units[out[a]].ID < sc.Units[out[b]].ID })
	return out
}

// reactionFire resolves the reactors' fire at the mover in h, one by one,
// results applied as they occur, until the mover is gone from h.
func (g *game) reactionFire(i int, h hex.Hex, reactors []int) error {
	for _, j := range reactors {
		us := g.st.Units[i]
		if us.Hex != h || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
			return nil
		}
		if CanFire(g.sc, g.st, j, i, true) != nil {
			continue
		}
		s, err := g.shoot(j, i, "Reaction Fire DR")
		if err != nil {
			return err
		}
		g.emit(UnitFired{Unit: g.sc.Units[j].ID, Target: g.sc.Units[i].ID, Reaction: true, Roll: s.roll, Column: s.column, Result: s.result.Text})
		if err := g.applyFire(s); err != nil {
			return err
		}
	}
	return nil
}
