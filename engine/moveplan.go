package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// movePlan is what a legal path costs and causes.
type movePlan struct {
	mp      int
	becomes string // the unit's type at the end of the move
	passed  []int  // friendly missile units moved through (8.0)
	stop    bool   // the path may not go on from its last hex (enemy ZOC)
}

// moveError says why a path is illegal. passable marks a path that may not
// end where it ends but may go on through (a friendly missile unit, 8.0).
// Its sentence is printed only when asked for (text): Reach checks
// thousands of paths and drops the reasons of those it rejects.
type moveError struct {
	rule     string
	passable bool
	format   string // with args, the reason, not yet printed
	args     []any
}

func moveErr(rule, format string, args ...any) *moveError {
	return &moveError{rule: rule, format: format, args: args}
}

// text is the reason, printed.
func (e *moveError) text() string { return fmt.Sprintf(e.format, e.args...) }

// planUnitMove checks unit i's move along path (the hexes entered, in
// order) against chapters 5–8, 12.4 and 15.2, and returns its cost.
// Retreats, advances and Retire placement are not Movement (5.2 Play
// Note) and do not come through here.
// A Hobilar's mount or dismount (ch, may be nil) costs its MP where it
// happens and changes the unit's type for the rest of the path (14.2).
// fireAt is where a FIRE inside the move stands (before entering
// path[fireAt]), -1 for none: under rules.fire_on_move a unit that fires
// in a hex adjacent to an enemy unit need not stop there (Arquebus 7.2,
// 11.2); the fire's own cost is fireInMove's.
func planUnitMove(sc *Scenario, st *State, i int, path []hex.Hex, ch *sideChange, fireAt int) (movePlan, *moveError) {
	return planUnitMoveAsk(sc, st, directAsk{sc, st}, i, path, ch, fireAt)
}

// planUnitMoveAsk is planUnitMove asking q about hexes (Reach's index).
func planUnitMoveAsk(sc *Scenario, st *State, q hexAsk, i int, path []hex.Hex, ch *sideChange, fireAt int) (movePlan, *moveError) {
	spec, us := sc.Units[i], st.Units[i]
	t := unitType(sc, st, i)
	var plan movePlan
	if len(path) == 0 && ch == nil {
		return plan, moveErr("5.1", "%s needs at least one hex to move to", spec.ID)
	}
	if err := shieldWallMove(sc, st, i); err != nil {
		return plan, err
	}
	if err := schiltronMove(sc, st, i); err != nil {
		return plan, err
	}
	if us.Status == Retired {
		if ch != nil {
			return plan, moveErr("12.4", "%s is Retired: it may not mount or dismount", spec.ID)
		}
		return planRetired(sc, st, q, i, path)
	}
	r := ratings(sc, st, i)
	ma := r.MA
	if us.Status == Disordered {
		ma = r.MADisordered
	}
	if f := sc.Tables.Rules.AmbushMAFactor; f > 0 && ambushing(sc, st, i) {
		ma *= f // B&R 16.1 "can double its Movement Allowance"
	}
	startZOC := map[int]bool{}
	if !us.OffMap {
		for _, e := range q.enemyZOC(spec.Side, us.Hex) {
			startZOC[e] = true
		}
	}
	// 5.2, 15.2; turning in place is not Movement (ruling R63, facing.go).
	if us.OutOfCommand && !t.Mounted && len(startZOC) > 0 {
		return plan, moveErr("15.2", "%s is out of Command and in an enemy ZOC: a foot unit out of Command may not move away", spec.ID)
	}
	adjacency := sc.Tables.Rules.AdjacencyLimits
	var startAdj []int // enemy units next to the unit as it begins its move (Blood & Roses 7.1)
	if adjacency && !us.OffMap {
		startAdj = q.adjacentEnemies(spec.Side, us.Hex)
	}
	if us.OutOfCommand && len(startAdj) > 0 { // Blood & Roses 5.3; it may still turn (8.0)
		return plan, moveErr("Blood & Roses 5.3", "%s is out of Command and begins next to %s: a unit out of Command that begins its Activation adjacent to an enemy unit may not move (it may turn one vertex in place, 8.0)", spec.ID, sc.Units[startAdj[0]].ID)
	}
	if sc.Tables.Rules.DismountAtStart && ch != nil {
		if ch.At != 0 {
			return plan, moveErr("Blood & Roses 7.4", "%s dismounts at the beginning of its move, before its first hex: MOVE %s DISMOUNT <hexes>", spec.ID, spec.ID)
		}
		if err := mayChangeSides(sc, st, i, t, ch.Word, us.Hex); err != nil {
			return plan, err
		}
		// 7.4 "at the cost of 2 MP (subtracted from its dismounted
		// Movement Allowance)": the move is the new side's.
		plan.mp += t.ChangeCost
		t = sc.Tables.UnitTypes[t.Becomes]
		ma = t.Ratings.MA
		if us.Status == Disordered {
			ma = t.Ratings.MADisordered
		}
		ch = nil
		if plan.mp > ma {
			return plan, moveErr("Blood & Roses 7.4", "%s would spend %d MP to dismount, more than its dismounted Movement Allowance of %d", spec.ID, plan.mp, ma)
		}
	}
	if sc.Tables.Rules.DismountEndsMove && ch != nil && ch.Word == "DISMOUNT" && ch.At < len(path) {
		return plan, moveErr("Arquebus 7.4", "%s may not move any further this Activation once it dismounts: DISMOUNT ends the path (MOVE %s <hexes> DISMOUNT)", spec.ID, spec.ID)
	}
	// Arquebus 11.2: a Light Cavalry Archer or Genitor that fires during
	// its move (rules.fire_on_move) next to an enemy unit may ride on.
	firesOnMove := adjacency && fireAt >= 0 && slices.Contains(sc.Tables.Rules.FireOnMove, t.Key)
	var firedNextTo []int // enemy units it fired next to: it may not come next to them again
	change := func(at hex.Hex) *moveError {
		if err := mayChangeSides(sc, st, i, t, ch.Word, at); err != nil {
			return err
		}
		plan.mp += t.ChangeCost
		t = sc.Tables.UnitTypes[t.Becomes]
		return nil
	}
	mountedMissile := t.Mounted && t.Missile()
	been := map[int]bool{} // enemy units whose ZOC the unit has been in on this move
	for e := range startZOC {
		been[e] = true
	}
	cur := us.Hex
	for k, n := range path {
		last := k == len(path)-1
		if ch != nil && ch.At == k {
			if us.OffMap && k == 0 {
				return plan, moveErr("14.2", "%s mounts or dismounts on the map, not before entering it", spec.ID)
			}
			if err := change(cur); err != nil {
				return plan, err
			}
			mountedMissile = t.Mounted && t.Missile()
		}
		if err := stepAllowed(sc, st, q, i, cur, n, k == 0); err != nil {
			return plan, err
		}
		if firesOnMove && fireAt == k && !(us.OffMap && k == 0) {
			firedNextTo = q.adjacentEnemies(spec.Side, cur)
		}
		if adjacency && (k > 0 || !us.OffMap) && q.enemyAdjacent(spec.Side, cur) {
			// Arquebus 7.2: "at the cost of one extra MP to leave the hex";
			// 11.2 the same for the hex a Light Cavalry Archer fired in.
			plan.mp += sc.Tables.Movement.LeaveAdjacentMP
		}
		if k == 0 && isEngaged(st, i) {
			plan.mp += sc.Tables.Movement.DisengageMP // Arquebus 14.5 Disengage
		}
		if mountedMissile && sc.Tables.Rules.MountedMissileZOC == ZOCLeaveCost && (k > 0 || !us.OffMap) && len(q.enemyZOC(spec.Side, cur)) > 0 {
			plan.mp++ // Infidel 11.2: 1 MP more to leave a hex in an enemy ZOC
		}
		cost := q.enterCost(cur, n, t.Class())
		if us.OffMap && k == 0 {
			cost = q.enterCost(n, n, t.Class()) // entering from the off-map area: the hex's terrain (5.3)
		}
		if cost == NA {
			return plan, moveErr("5.1", "%s may not move from %s into %s (%s): the Terrain Effects Chart says NA for %s units",
				spec.ID, cur, n, sc.Map.TerrainAt(n), t.Class())
		}
		plan.mp += int(cost)
		if k == 0 && !t.Mounted && mountedAmong(sc, st, startZOC) {
			plan.mp += sc.Tables.Movement.LeaveMountedZOCMP // 7.2: foot leaving a mounted unit's ZOC
		}
		if k == 0 && !(mountedMissile && sc.Tables.Rules.MountedMissileZOC == ZOCLeaveCost) && missileAmong(sc, st, startZOC) {
			// Infidel 9.0: +1 MP for any unit leaving a missile unit's
			// ZOC, cumulative with the +2 above. A mounted missile unit
			// pays its own +1 above instead, "regardless of the unit type
			// exerting the ZOC" (ruling R154).
			plan.mp += sc.Tables.Movement.LeaveMissileZOCMP
		}
		var adj []int // Blood & Roses 7.1: enemy units next to n
		if adjacency {
			adj = q.adjacentEnemies(spec.Side, n)
			for _, e := range adj {
				if k == 0 && slices.Contains(startAdj, e) {
					return plan, moveErr("Blood & Roses 7.1", "%s begins next to %s: it may not move directly into %s, another hex adjacent to that unit; its first hex must be one not adjacent to %s", spec.ID, sc.Units[e].ID, n, sc.Units[e].ID)
				}
				if slices.Contains(firedNextTo, e) {
					return plan, moveErr("Arquebus 11.2", "%s fired next to %s: it may not enter %s, another hex adjacent to that unit, during this Activation", spec.ID, sc.Units[e].ID, n)
				}
			}
			if len(adj) > 0 && !last && !(firesOnMove && fireAt == k+1) {
				return plan, moveErr("Blood & Roses 7.1", "%s must stop in %s: it has moved adjacent to the enemy unit %s", spec.ID, n, sc.Units[adj[0]].ID)
			}
		}
		if o := q.otherIn(n, i); o >= 0 {
			if sc.Units[o].Side == spec.Side && isEngaged(st, o) {
				// Engaged exists only in Arquebus (14.5).
				return plan, moveErr("Arquebus 10.1", "%s may not enter %s: %s there is Engaged, and units may not enter a hex that contains an Engaged unit", spec.ID, n, sc.Units[o].ID)
			}
			// Arquebus 10.0: a unit may end its move stacked with a
			// friendly unit the tables allow, never pass a hex so.
			var stackWhy *moveError
			if last && len(sc.Tables.Rules.Stacking) > 0 && sc.Units[o].Side == spec.Side {
				stackWhy = stackInto(sc, st, i, t, n)
			}
			if stackWhy != nil || !last || len(sc.Tables.Rules.Stacking) == 0 || sc.Units[o].Side != spec.Side {
				extra, ok := passThrough(sc, st, i, o)
				if !ok {
					if stackWhy != nil {
						return plan, stackWhy
					}
					if pt := sc.Tables.Rules.PassThrough; pt != nil && !sc.Tables.Rules.NoPassThrough && sc.Units[o].Side == spec.Side {
						return plan, moveErr(passThroughSection(sc), "%s may not enter %s, where %s is: %s", spec.ID, n, sc.Units[o].ID, passThroughRule(sc, pt, t))
					}
					return plan, moveErr("8.0", "%s may not enter %s: %s is there, and combat units may not stack", spec.ID, n, sc.Units[o].ID)
				}
				plan.mp += extra // 8.0; Blood & Roses 10.0
				plan.passed = append(plan.passed, o)
				if last {
					plan.stop = plan.mp >= ma || len(adj) > 0
					if plan.mp > ma {
						return plan, moveErr("5.1", "%s would spend %d MP, more than its Movement Allowance of %d", spec.ID, plan.mp, ma)
					}
					if stackWhy != nil {
						stackWhy.passable = true
						return plan, stackWhy
					}
					through := moveErr("8.0", "%s may move through %s but not stop there", spec.ID, sc.Units[o].ID)
					through.passable = true
					return plan, through
				}
			}
		}
		if plan.mp > ma {
			return plan, moveErr("5.1", "%s would spend %d MP by %s, more than its Movement Allowance of %d", spec.ID, plan.mp, n, ma)
		}
		if len(adj) > 0 {
			plan.stop = true // Blood & Roses 7.1
		}
		zoc := q.enemyZOC(spec.Side, n)
		for _, e := range zoc {
			// 7.2 "Units may not leave and then re-enter the same ZOC in
			// the same activation", nor step from one hex of it into
			// another: "If that hex is another ZOC it must stop" (ruling
			// R47). A Men of Iron mounted missile unit rides on through
			// enemy ZOCs (5.1): only its re-entry is barred.
			if been[e] && !(mountedMissile && sc.Tables.Rules.MountedMissileZOC != ZOCLeaveCost && q.inZOCOf(e, cur)) {
				return plan, moveErr("7.2", "%s may not enter a hex of %s's ZOC again in the same Activation, whether it left that ZOC or steps within it; it may move into another enemy unit's ZOC", spec.ID, sc.Units[e].ID)
			}
			been[e] = true
		}
		if len(zoc) > 0 && !mountedMissile { // 5.1: mounted missile units need not stop
			if !last {
				return plan, moveErr("7.2", "%s must stop in %s: it is in the ZOC of %s", spec.ID, n, sc.Units[zoc[0]].ID)
			}
			plan.stop = true
		}
		cur = n
	}
	if ch != nil && ch.At == len(path) {
		if err := change(cur); err != nil {
			return plan, err
		}
		if plan.mp > ma && sc.Tables.Rules.ChangeInCommand {
			return plan, moveErr("Arquebus 7.4", "%s would spend %d MP with its %s (%d MP), more than its Movement Allowance of %d", spec.ID, plan.mp, strings.ToLower(ch.Word), sc.Tables.UnitTypes[t.Becomes].ChangeCost, ma)
		}
		if plan.mp > ma {
			return plan, moveErr("14.2", "%s would spend %d MP with its %s, more than its Movement Allowance of %d", spec.ID, plan.mp, strings.ToLower(ch.Word), ma)
		}
	}
	if plan.mp >= ma {
		plan.stop = true
	}
	plan.becomes = t.Key
	return plan, nil
}

// stepAllowed checks one step from cur into n but its cost: on the map,
// adjacent (or an entry hex for a reinforcement), not an enemy
// reinforcement hex, and the Out of Command limits.
func stepAllowed(sc *Scenario, st *State, q hexAsk, i int, cur, n hex.Hex, first bool) *moveError {
	spec, us := sc.Units[i], st.Units[i]
	if !sc.Map.Grid.Contains(n) {
		return moveErr("5.2", "%s is off the map", n)
	}
	if err := ambushStep(sc, st, i, n, first); err != nil {
		return err
	}
	if first && us.OffMap && ambushOf(sc, spec.ID) != nil {
		// B&R 16.1: its entry hexes are the Ambush's (ambushStep).
	} else if first && us.OffMap {
		if err := arrivalAllowed(sc, st, i); err != nil {
			return err
		}
		if err := entryAllowed(sc, st, i, n); err != nil {
			return err
		}
	} else if sc.Map.Grid.Distance(cur, n) != 1 {
		return moveErr("5.1", "%s is not next to %s: a path goes from hex to adjacent hex", n, cur)
	}
	if enemyEntryHex(sc, spec.Side, n) {
		return moveErr("5.2", "%s is where enemy reinforcements enter the map", n)
	}
	if us.OutOfCommand { // 5.2, 15.2: every hex of the path (ruling R64)
		if q.enemyAdjacent(spec.Side, n) {
			return moveErr("15.2", "%s is out of Command: it may not move next to an enemy unit, as at %s", spec.ID, n)
		}
		// Blood & Roses 14.9: a unit back from a Pursuit, Out of Command,
		// enters through the fled Battle's Standard (ruling R288).
		if enemyMarkerAt(sc, st, spec.Side, n) && !(first && us.OffMap && us.Returning) {
			return moveErr("15.2", "%s is out of Command: it may not move into a hex with an enemy leader or Standard", spec.ID)
		}
	}
	return nil
}

// planRetired: "Retired units have a Movement Allowance of 1 hex per
// activation, and they may only move towards their Standard" (12.4).
func planRetired(sc *Scenario, st *State, q hexAsk, i int, path []hex.Hex) (movePlan, *moveError) {
	spec, us := sc.Units[i], st.Units[i]
	plan := movePlan{stop: true}
	if len(path) != 1 {
		return plan, moveErr("12.4", "%s is Retired: it moves one hex at most", spec.ID)
	}
	n := path[0]
	if err := stepAllowed(sc, st, q, i, us.Hex, n, true); err != nil {
		return plan, err
	}
	std := st.Standard(sc.Command(spec.Command).Standard)
	if std == nil || sc.Map.Grid.Distance(n, std.Hex) >= sc.Map.Grid.Distance(us.Hex, std.Hex) {
		return plan, moveErr("12.4", "%s is Retired: it may only move toward its Standard", spec.ID)
	}
	t := unitType(sc, st, i)
	if c := q.enterCost(us.Hex, n, t.Class()); c == NA {
		return plan, moveErr("5.1", "%s may not enter %s", spec.ID, n)
	} else {
		plan.mp = int(c)
	}
	if o := q.occupant(n); o >= 0 {
		return plan, moveErr("8.0", "%s may not enter %s: %s is there", spec.ID, n, sc.Units[o].ID)
	}
	return plan, nil
}

func mountedAmong(sc *Scenario, st *State, units map[int]bool) bool {
	for e := range units {
		if unitType(sc, st, e).Mounted {
			return true
		}
	}
	return false
}

// adjacentEnemies lists side's enemy units on the map next to h, Retired
// ones too (Blood & Roses 7.1 "an enemy unit"; ruling R220).
func adjacentEnemies(sc *Scenario, st *State, side Side, h hex.Hex) []int {
	var out []int
	for i, u := range sc.Units {
		us := st.Units[i]
		if u.Side != side && !us.OffMap && us.Status != Eliminated && sc.Map.Grid.Distance(h, us.Hex) == 1 {
			out = append(out, i)
		}
	}
	return out
}

func enemyAdjacent(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for i, u := range sc.Units {
		us := st.Units[i]
		if u.Side != side && !us.OffMap && us.Status != Eliminated && sc.Map.Grid.Distance(h, us.Hex) == 1 {
			return true
		}
	}
	return false
}

// enemyMarkerAt: an enemy leader or Standard in h.
func enemyMarkerAt(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for i, l := range sc.Leaders {
		if l.Side != side && !st.Leaders[i].OffMap && st.Leaders[i].Hex == h {
			return true
		}
	}
	for i, s := range sc.Standards {
		if s.Side != side && st.Standards[i].Hex == h && !st.Standards[i].Captured {
			return true
		}
	}
	return false
}

func contains(hs []hex.Hex, h hex.Hex) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

func hexList(hs []hex.Hex) string {
	s := ""
	for k, h := range hs {
		if k > 0 {
			s += ", "
		}
		s += h.String()
	}
	return s
}

// moveLeader moves a leader on his own (5.1).
func (g *game) moveLeader(o Move, l int) error {
	sc, st := g.sc, g.st
	spec, ls := sc.Leaders[l], st.Leaders[l]
	switch {
	case !activatedLeader(sc, st, l):
		return g.illegal(o, "5.1", fmt.Sprintf("%s does not lead the activated Command, nor was he Activated by an Army Activation", spec.Name))
	case ls.Killed:
		return g.illegal(o, "15.4", fmt.Sprintf("%s has been killed; his Replacement comes with his side's next Activation (15.6)", spec.Name))
	case ls.OffMap:
		return g.illegal(o, "5.3", fmt.Sprintf("%s enters the map with his units: MOVE <unit> WITH %s <hex> …", spec.Name, spec.ID))
	case ls.Moved:
		return g.illegal(o, "5.1", fmt.Sprintf("%s has moved in this Activation: a leader moves once, alone or with a unit", spec.Name))
	}
	path, err := g.parsePath(o, o.Path)
	if err != nil {
		return err
	}
	mp, why := planLeaderMove(sc, st, l, path)
	if why != nil {
		e := g.illegal(o, why.rule, why.text())
		if reach := Reach(sc, st, spec.ID); len(reach) > 0 {
			e.Legal = []string{spec.Name + " can reach " + reachList(reach, 24)}
		}
		return e
	}
	if err := g.armyPath(o, spec.Name, spec.Side, path); err != nil {
		return err
	}
	g.emit(LeaderMoved{Leader: spec.ID, Path: path, MP: mp})
	return nil
}

// planLeaderMove checks leader l's move on his own along path and returns
// its cost (5.1): his printed Movement Allowance, the most advantageous
// column of the chart, never into a hex with an enemy unit, leader or
// Standard, nor into an enemy ZOC unless a friendly unit is there. He need
// not stop in an enemy ZOC he may enter, nor keep off enemy entry hexes:
// 5.2 and 7.2 speak of units, and a leader is not a unit (15.0; ruling
// R62).
func planLeaderMove(sc *Scenario, st *State, l int, path []hex.Hex) (int, *moveError) {
	return planLeaderMoveAsk(sc, st, directAsk{sc, st}, l, path)
}

// planLeaderMoveAsk is planLeaderMove asking q about hexes.
func planLeaderMoveAsk(sc *Scenario, st *State, q hexAsk, l int, path []hex.Hex) (int, *moveError) {
	spec := sc.Leaders[l]
	mp, cur := 0, st.Leaders[l].Hex
	alone := sc.Tables.Rules.LeaderAloneMA // Blood & Roses 7.1 "his Movement Allowance is 5"
	if len(path) == 0 {
		return 0, moveErr("5.1", "%s needs at least one hex to move to", spec.Name)
	}
	for _, n := range path {
		switch {
		case !sc.Map.Grid.Contains(n):
			return mp, moveErr("5.2", "%s is off the map", n)
		case sc.Map.Grid.Distance(cur, n) != 1:
			return mp, moveErr("5.1", "%s is not next to %s: a path goes from hex to adjacent hex", n, cur)
		case leaderCost(sc, cur, n) == NA:
			return mp, moveErr("5.1", "no unit type may enter %s from %s", n, cur)
		}
		occ := q.occupant(n)
		if occ >= 0 && sc.Units[occ].Side != spec.Side || enemyMarkerAt(sc, st, spec.Side, n) {
			return mp, moveErr("5.1", "%s may not enter %s: a leader alone never enters a hex with an enemy unit, leader or Standard", spec.Name, n)
		}
		if occ < 0 && len(q.enemyZOC(spec.Side, n)) > 0 {
			return mp, moveErr("5.1", "%s may not enter %s, in an enemy ZOC without a friendly unit", spec.Name, n)
		}
		if occ < 0 && sc.Tables.Rules.AdjacencyLimits && q.enemyAdjacent(spec.Side, n) {
			return mp, moveErr("Blood & Roses 7.1", "%s may not enter %s: a leader moving alone may not enter a hex adjacent to an enemy unit unless that hex contains a friendly unit", spec.Name, n)
		}
		mp += int(leaderCost(sc, cur, n))
		if alone > 0 && mp > alone {
			return mp, moveErr("Blood & Roses 7.1", "%s would spend %d MP by %s: a leader moving on his own has a Movement Allowance of %d", spec.Name, mp, n, alone)
		}
		if mp > spec.MA {
			return mp, moveErr("5.1", "%s would spend %d MP by %s, more than his Movement Allowance of %d", spec.Name, mp, n, spec.MA)
		}
		cur = n
	}
	return mp, nil
}

// LeaderMoved: a leader moved on his own (5.1).
type LeaderMoved struct {
	Leader string    `json:"leader"`
	Path   []hex.Hex `json:"path"`
	MP     int       `json:"mp"`
}

func (e LeaderMoved) apply(st *State) {
	l := st.Leader(e.Leader)
	l.Hex, l.Moved = e.Path[len(e.Path)-1], true
	st.Acting = "" // a leader moving alone is another mover (5.1)
}

func (e LeaderMoved) describe(sc *Scenario) string {
	return fmt.Sprintf("%s rides %s (%d MP) (5.1).", leaderName(sc, e.Leader), pathText(e.Path), e.MP)
}

func init() { registerEvents(LeaderMoved{}) }

// missileAmong: one of units is a missile unit (Infidel 9.0).
func missileAmong(sc *Scenario, st *State, units map[int]bool) bool {
	for e := range units {
		if unitType(sc, st, e).Missile() {
			return true
		}
	}
	return false
}
