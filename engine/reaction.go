package engine

import (
	"slices"
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
// far as its Disordered Movement Allowance reaches (ruling R69). A
// reacting unit whose side's standing orders say ASK interrupts the move:
// the run is kept in the state until its owner answers (reaction_ask.go).
func (g *game) carryOutMove(i int, path []hex.Hex, ch *sideChange, final UnitMoved, plan movePlan, fire *movingFire) error {
	fireAt := -1
	if fire != nil {
		fireAt = fire.At
	}
	run := &MoveRun{Unit: i, Path: path, Cum: cumulativeMP(g.sc, g.st, i, path, ch, fireAt), Total: plan.mp,
		Change: ch, Fire: fire, Final: final, WasDisordered: g.st.Units[i].Status == Disordered, Pause: -1}
	if fire != nil {
		for k := fire.At; k < len(run.Cum); k++ {
			run.Cum[k] += fire.MP
		}
		run.Total += fire.MP
	}
	return g.runMove(run)
}

// MoveRun is a move being carried out: its path, the MP spent on entering
// each hex, how far it has got, and what is still to come. It is plain
// data, kept in the state while a decision interrupts the move.
type MoveRun struct {
	Unit          int         `json:"unit"`
	Path          []hex.Hex   `json:"path"`
	Cum           []int       `json:"cum"`
	Total         int         `json:"total"`
	Next          int         `json:"next"`  // the next hex to enter
	Start         int         `json:"start"` // the first hex not yet in a UnitMoved
	Spent         int         `json:"spent"`
	Reacted       []int       `json:"reacted,omitempty"` // enemy units that have reacted to it
	Change        *sideChange `json:"change,omitempty"`
	Fire          *movingFire `json:"fire,omitempty"`
	Final         UnitMoved   `json:"final"`
	WasDisordered bool        `json:"was_disordered,omitempty"`
	// Pause is the hex where a Reaction Fire decision stopped the move,
	// -1 when none.
	Pause int `json:"pause"`
}

func (r *MoveRun) reacted(j int) bool { return slices.Contains(r.Reacted, j) }

// runMove carries a move on from where it stands.
func (g *game) runMove(r *MoveRun) error {
	i := r.Unit
	for ; r.Next < len(r.Path); r.Next++ {
		k := r.Next
		if f := r.Fire; f != nil && f.At == k {
			if k > r.Start {
				if err := g.moveSegment(r, k-1, r.Cum[k-1]-r.Spent, g.st.Units[i].Facing); err != nil {
					return err
				}
				r.Start, r.Spent = k, r.Cum[k-1]
			}
			if done, err := g.fireOnTheMove(i, f); err != nil || done {
				return err
			}
			r.Spent += f.MP
		}
		if done, err := g.terrainDisorder(r); err != nil || done {
			return err
		}
		var reactors []int
		for _, j := range g.reactors(i, r.Path[k]) {
			if !r.reacted(j) {
				reactors = append(reactors, j)
				r.Reacted = append(r.Reacted, j)
			}
		}
		if len(reactors) == 0 {
			continue
		}
		if r.Start <= k { // not yet moved into the hex by a terrain Disorder check
			if err := g.moveSegment(r, k, r.Cum[k]-r.Spent, g.st.Units[i].Facing); err != nil {
				return err
			}
			r.Start, r.Spent = k+1, r.Cum[k]
		}
		asked, err := g.reactionFire(r, reactors)
		if err != nil || asked {
			return err
		}
		if g.afterReaction(r) {
			return nil
		}
	}
	return g.finishMove(r)
}

// afterReaction: the mover gone from the hex ends its move; Disordered, it
// goes on only as far as its Disordered Movement Allowance reaches. It
// reports that the move is over.
func (g *game) afterReaction(r *MoveRun) bool {
	i, k := r.Unit, r.Next
	us := g.st.Units[i]
	if us.Hex != r.Path[k] || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
		return true // its move ends here (a retreat waiting for its owner's choice ends it too)
	}
	if us.Status == Disordered && !r.WasDisordered {
		ma := ratings(g.sc, g.st, i).MADisordered
		for len(r.Path)-1 > k && (r.Cum[len(r.Path)-1] > ma || occupant(g.st, r.Path[len(r.Path)-1]) >= 0) {
			r.Path, r.Cum = r.Path[:len(r.Path)-1], r.Cum[:len(r.Cum)-1]
		}
		if r.Change != nil && r.Change.At > len(r.Path) {
			r.Change = nil
		}
		if r.Fire != nil && r.Fire.At > len(r.Path) {
			r.Fire = nil // the fire was to come beyond where the move now ends
		}
		r.WasDisordered = true
	}
	return false
}

// finishMove makes a fire due at the end of the path and the last part of
// the move, with its facing.
func (g *game) finishMove(r *MoveRun) error {
	i, n := r.Unit, len(r.Path)
	if f := r.Fire; f != nil && f.At == n {
		if k := n - 1; k >= r.Start {
			if err := g.moveSegment(r, k, r.Cum[k]-r.Spent, g.st.Units[i].Facing); err != nil {
				return err
			}
			r.Start, r.Spent = n, r.Cum[k]
		}
		if done, err := g.fireOnTheMove(i, f); err != nil || done {
			return err
		}
		r.Spent += f.MP
	}
	ch := r.Change
	if r.Start == n && r.Final.Facing == g.st.Units[i].Facing && (ch == nil || ch.At < r.Start) {
		return nil
	}
	last := r.Total // with a change of sides or a fire at the end of the path
	if n > 0 && (ch == nil || ch.At < n) && (r.Fire == nil || r.Fire.At < n) {
		last = r.Cum[n-1]
	}
	return g.moveSegment(r, n-1, last-r.Spent, r.Final.Facing)
}

// cumulativeMP is the MP a move has spent on entering each hex of its path
// (a side change counted where it happens).
func cumulativeMP(sc *Scenario, st *State, i int, path []hex.Hex, ch *sideChange, fireAt int) []int {
	cum := make([]int, len(path))
	for k := range path {
		var prefix *sideChange
		if ch != nil && ch.At <= k {
			prefix = ch
		}
		p, _ := planUnitMove(sc, st, i, path[:k+1], prefix, fireAt)
		cum[k] = p.mp
	}
	return cum
}

// moveSegment emits the part of a move from where it stands to Path[to],
// with the rolls of the missile units ridden through on the way.
func (g *game) moveSegment(r *MoveRun, to, mp int, facing hex.Facing) error {
	final, from, ch := r.Final, r.Start, r.Change
	e := UnitMoved{Unit: final.Unit, Leader: final.Leader, Facing: facing, MP: mp}
	if to >= from {
		e.Path = append([]hex.Hex(nil), r.Path[from:to+1]...)
	}
	if ch != nil && ch.At >= from && (ch.At <= to || to == len(r.Path)-1 && ch.At == len(r.Path)) {
		e.Change, e.ChangeAt, e.Type, e.Reloaded = final.Change, ch.At-from, final.Type, final.Reloaded
	}
	var passed []int
	for k, h := range e.Path {
		if from+k == len(r.Path)-1 && len(g.sc.Tables.Rules.Stacking) > 0 {
			break // Arquebus 10.0: it stacks there, not passes through
		}
		if o := otherIn(g.st, h, r.Unit); o >= 0 {
			passed = append(passed, o)
		}
	}
	g.emit(e)
	for _, h := range e.Path {
		g.captureIn(r.Unit, h)
	}
	return g.passThroughRolls(r.Unit, passed)
}

// reactors are the enemy missile units that would fire at unit i entering
// h: h is one of their Frontal hexes, they have not used up their
// Reaction Fire, and their side's standing orders allow it. Whether they
// can see and reach i is checked when i stands there.
func (g *game) reactors(i int, h hex.Hex) []int {
	sc, st := g.sc, g.st
	side := sc.Units[i].Side
	if sc.Tables.Rules.ReactionIntoEmptyHex && otherIn(st, h, i) >= 0 {
		// Arquebus 11.2: Reaction Fire "When any enemy unit moves or
		// Charges into an adjacent frontal hex that does not already
		// contain an enemy unit" (R369).
		return nil
	}
	var out []int
	for j, u := range sc.Units {
		us := st.Units[j]
		w := unitWeapon(sc, st, j)
		if u.Side == side || w == nil || us.OffMap || us.Status == Eliminated || us.Status == Retired {
			continue
		}
		if (w.ReactionTargets > 0 || w.ReactionFirstOnly) && us.Reacted || us.FiredMarker || isEngaged(st, j) || fireMode(sc, st, j, true) == FireNever { // Arquebus 14.5: an Engaged unit may not fire
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

// reactionFire resolves the reactors' fire at the mover where it stands,
// one by one, results applied as they occur, until the mover is gone from
// the hex. Reactors whose side is to be asked (STANDING REACTION FIRE ASK)
// come last: when one is left, the move stops and waits (asked).
func (g *game) reactionFire(r *MoveRun, reactors []int) (asked bool, err error) {
	i, h := r.Unit, r.Path[r.Next]
	g.spendFirstOnly(i, reactors)
	var ask []string
	for _, j := range reactors {
		us := g.st.Units[i]
		if us.Hex != h || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
			return false, nil
		}
		if CanFire(g.sc, g.st, j, i, true) != nil {
			continue
		}
		if fireMode(g.sc, g.st, j, true) == FireAsk {
			ask = append(ask, g.sc.Units[j].ID)
			continue
		}
		if err := g.reactOnce(i, j); err != nil {
			return false, err
		}
		if g.sc.Tables.Rules.OneReactionPerEntry {
			// B&R 11.2 "Only one missile unit (owner's choice) can Reaction
			// fire at an enemy unit when it enters a hex": the first of
			// his standing order's choice (ruling R244).
			return false, nil
		}
	}
	if us := g.st.Units[i]; len(ask) == 0 || us.Hex != h || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil {
		return false, nil
	}
	run := *r
	run.Pause = r.Next
	g.emit(ReactionAsked{Side: g.sc.Units[i].Side.Other(), Mover: g.sc.Units[i].ID, Reactors: ask, Run: run, Resume: g.st.Pending})
	return true, nil
}

// reactOnce is one unit's Reaction Fire at the mover.
func (g *game) reactOnce(i, j int) error {
	s, err := g.shoot(j, i, "Reaction Fire DR")
	if err != nil {
		return err
	}
	g.emit(UnitFired{Unit: g.sc.Units[j].ID, Target: g.sc.Units[i].ID, Reaction: true, Roll: s.roll, Column: s.column, Result: s.result.Text, Misfire: s.misfire,
		Marker: unitType(g.sc, g.st, j).FiredMarker})
	for _, s := range g.stackShots([]*shot{s}) {
		if err := g.applyFire(s); err != nil {
			return err
		}
	}
	return nil
}
