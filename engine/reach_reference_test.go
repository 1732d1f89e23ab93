package engine

import (
	"slices"
	"strings"

	"herald/engine/hex"
)

// The reachable-hex query as it was before the hex index (hexindex.go):
// Reach, planUnitMove, stepAllowed, planRetired and planLeaderMove copied
// verbatim from commit 1d3864b (renamed), each hex question a scan of
// every unit. TestReachMatchesReference compares Reach with it on random
// states of every battle; search, nextHexes and the rest are shared.

// ReachReference is Reach as it was before the hex index, for the tests.
func ReachReference(sc *Scenario, st *State, id string) []Reachable {
	for i, u := range sc.Units {
		if u.ID != id {
			continue
		}
		if st.Units[i].Status == Eliminated || inAmbush(sc, st, i) && !ambushing(sc, st, i) {
			return nil
		}
		return search(st.Units[i].Hex, !st.Units[i].OffMap,
			func(p []hex.Hex) []hex.Hex { return nextHexes(sc, st, i, p) },
			func(p []hex.Hex) step {
				if armyBarred(sc, st, sc.Units[i].Side, p) || disengageBarred(sc, st, i, p) {
					return step{}
				}
				plan, why := refPlanUnitMove(sc, st, i, p, nil, -1)
				return step{mp: plan.mp, stop: plan.stop, legal: why == nil, open: why == nil || why.passable}
			})
	}
	for l, ld := range sc.Leaders {
		if ld.ID != id || st.Leaders[l].OffMap {
			continue
		}
		return search(st.Leaders[l].Hex, true,
			func(p []hex.Hex) []hex.Hex { return sc.Map.Grid.Neighbors(lastOr(st.Leaders[l].Hex, p)) },
			func(p []hex.Hex) step {
				if armyBarred(sc, st, ld.Side, p) {
					return step{}
				}
				mp, why := refPlanLeaderMove(sc, st, l, p)
				return step{mp: mp, legal: why == nil, open: why == nil}
			})
	}
	return nil
}

func refPlanUnitMove(sc *Scenario, st *State, i int, path []hex.Hex, ch *sideChange, fireAt int) (movePlan, *moveError) {
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
		return refPlanRetired(sc, st, i, path)
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
		for _, e := range enemyZOC(sc, st, spec.Side, us.Hex) {
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
		startAdj = adjacentEnemies(sc, st, spec.Side, us.Hex)
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
		if err := refStepAllowed(sc, st, i, cur, n, k == 0); err != nil {
			return plan, err
		}
		if firesOnMove && fireAt == k && !(us.OffMap && k == 0) {
			firedNextTo = adjacentEnemies(sc, st, spec.Side, cur)
		}
		if adjacency && (k > 0 || !us.OffMap) && enemyAdjacent(sc, st, spec.Side, cur) {
			// Arquebus 7.2: "at the cost of one extra MP to leave the hex";
			// 11.2 the same for the hex a Light Cavalry Archer fired in.
			plan.mp += sc.Tables.Movement.LeaveAdjacentMP
		}
		if k == 0 && isEngaged(st, i) {
			plan.mp += sc.Tables.Movement.DisengageMP // Arquebus 14.5 Disengage
		}
		if mountedMissile && sc.Tables.Rules.MountedMissileZOC == ZOCLeaveCost && (k > 0 || !us.OffMap) && len(enemyZOC(sc, st, spec.Side, cur)) > 0 {
			plan.mp++ // Infidel 11.2: 1 MP more to leave a hex in an enemy ZOC
		}
		cost := enterCost(sc, cur, n, t.Class())
		if us.OffMap && k == 0 {
			cost = enterCost(sc, n, n, t.Class()) // entering from the off-map area: the hex's terrain (5.3)
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
			adj = adjacentEnemies(sc, st, spec.Side, n)
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
		if o := otherIn(st, n, i); o >= 0 {
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
		zoc := enemyZOC(sc, st, spec.Side, n)
		for _, e := range zoc {
			// 7.2 "Units may not leave and then re-enter the same ZOC in
			// the same activation", nor step from one hex of it into
			// another: "If that hex is another ZOC it must stop" (ruling
			// R47). A Men of Iron mounted missile unit rides on through
			// enemy ZOCs (5.1): only its re-entry is barred.
			if been[e] && !(mountedMissile && sc.Tables.Rules.MountedMissileZOC != ZOCLeaveCost && inZOCOf(sc, st, e, cur)) {
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

func refStepAllowed(sc *Scenario, st *State, i int, cur, n hex.Hex, first bool) *moveError {
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
		if enemyAdjacent(sc, st, spec.Side, n) {
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

func refPlanRetired(sc *Scenario, st *State, i int, path []hex.Hex) (movePlan, *moveError) {
	spec, us := sc.Units[i], st.Units[i]
	plan := movePlan{stop: true}
	if len(path) != 1 {
		return plan, moveErr("12.4", "%s is Retired: it moves one hex at most", spec.ID)
	}
	n := path[0]
	if err := refStepAllowed(sc, st, i, us.Hex, n, true); err != nil {
		return plan, err
	}
	std := st.Standard(sc.Command(spec.Command).Standard)
	if std == nil || sc.Map.Grid.Distance(n, std.Hex) >= sc.Map.Grid.Distance(us.Hex, std.Hex) {
		return plan, moveErr("12.4", "%s is Retired: it may only move toward its Standard", spec.ID)
	}
	t := unitType(sc, st, i)
	if c := enterCost(sc, us.Hex, n, t.Class()); c == NA {
		return plan, moveErr("5.1", "%s may not enter %s", spec.ID, n)
	} else {
		plan.mp = int(c)
	}
	if o := occupant(st, n); o >= 0 {
		return plan, moveErr("8.0", "%s may not enter %s: %s is there", spec.ID, n, sc.Units[o].ID)
	}
	return plan, nil
}

func refPlanLeaderMove(sc *Scenario, st *State, l int, path []hex.Hex) (int, *moveError) {
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
		occ := occupant(st, n)
		if occ >= 0 && sc.Units[occ].Side != spec.Side || enemyMarkerAt(sc, st, spec.Side, n) {
			return mp, moveErr("5.1", "%s may not enter %s: a leader alone never enters a hex with an enemy unit, leader or Standard", spec.Name, n)
		}
		if occ < 0 && len(enemyZOC(sc, st, spec.Side, n)) > 0 {
			return mp, moveErr("5.1", "%s may not enter %s, in an enemy ZOC without a friendly unit", spec.Name, n)
		}
		if occ < 0 && sc.Tables.Rules.AdjacencyLimits && enemyAdjacent(sc, st, spec.Side, n) {
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
