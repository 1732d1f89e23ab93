package engine

import (
	"fmt"
	"slices"
	"sort"

	"herald/engine/hex"
)

// 12.0 COMBAT RESULTS: the common machinery missile fire and shock apply
// to a unit. Each result is an event; Flight Points follow from the units'
// status (16.0, victory.go).

// disorder: "When a unit is Disordered, flip the counter ... Additional
// Disorders have no effect on a unit already Disordered" (12.2). "Any
// negative combat result suffered by a Retired unit ... eliminates that
// unit" (12.4). Causers are the units that inflicted the result (the
// firer; the attackers of a Shock): a unit with no Disordered side Retires
// instead (Infidel 2.2, 14.2), and its Retire is placed clear of them
// (Infidel 14.4, ruling R174).
//
// A unit that is never Disordered is Eliminated instead (Blood & Roses
// 14.2; 14.4 "If the unit was an Artillery unit it is Eliminated" when a
// retreat passes through it; ruling R243 for other Disorders).
func (g *game) disorder(i int, cause string, causers []int) {
	if unitType(g.sc, g.st, i).NeverDisordered {
		g.eliminate(i, cause+"; Artillery is never Disordered: it is Eliminated instead (B&R 14.2)")
		return
	}
	switch g.st.Units[i].Status {
	case Retired:
		if g.sc.Tables.Rules.RetiredOnlyByRetreat {
			// Arquebus 14.4: "Any Retreat, Retire, or Eliminated result
			// results in that unit being Eliminated": a Disorder does
			// nothing to a Retired unit (ruling R423).
			return
		}
		g.eliminate(i, cause+"; a Retired unit is eliminated by any result (12.4)")
	case Normal:
		if unitType(g.sc, g.st, i).NoDisorderedSide {
			g.retireFrom(i, cause+"; it has no Disordered side, so it Retires (Infidel 2.2, 14.2)", causers)
			return
		}
		g.emit(UnitDisordered{Unit: g.sc.Units[i].ID, Cause: cause})
	}
}

// asResults turns the effects of a result into those unit i suffers:
// "Knights never Retire ... Whenever a Knight suffers a Retire result it
// is Retreated (14.3) instead" (Infidel 16.1), once, after any other.
//
// A unit that is never Disordered (Blood & Roses Artillery) is Eliminated
// by a Disorder, Retreat or Retire result instead (12.3, 14.2, 14.4, 14.5).
func asResults(sc *Scenario, st *State, i int, effects []Effect) []Effect {
	if unitType(sc, st, i).NeverDisordered {
		return neverDisordered(effects)
	}
	if !unitType(sc, st, i).RetireAsRetreat {
		return effects
	}
	out := make([]Effect, 0, len(effects))
	retreat := false
	for _, e := range effects {
		switch e.Kind {
		case EffectRetired, EffectRetreat:
			retreat = true
		default:
			out = append(out, e)
		}
	}
	if retreat {
		out = append(out, Effect{Kind: EffectRetreat})
	}
	return out
}

// eliminate: "finished for the day. Remove it from the board" (12.6).
func (g *game) eliminate(i int, cause string) {
	g.emit(UnitEliminated{Unit: g.sc.Units[i].ID, Cause: cause})
}

// retire: "Pick up the unit and place it as close to its Standard as you
// can ... unless that unit is unable to trace a route to its Standard not
// blocked by enemy units, enemy ZOCs, and/or impassable terrain. In that
// case the Retiring unit is, instead Eliminated" (12.4). A Command whose
// Standard was captured loses its Retired units (13.2).
//
// Infidel 14.4 lets the route pass enemy ZOCs (rules.retire_through_zoc)
// and forbids a hex "adjacent to the enemy units that caused the Retire
// result, if this is not possible, it is Eliminated"
// (rules.retire_clear_of_attackers); causers are those units.
func (g *game) retire(i int, cause string) { g.retireFrom(i, cause, nil) }

// retireFrom is retire with the units that caused the result.
func (g *game) retireFrom(i int, cause string, causers []int) {
	if unitType(g.sc, g.st, i).NeverDisordered {
		// Blood & Roses 14.5 "Artillery units which suffer a Retire result are instead Eliminated".
		g.eliminate(i, cause+"; Artillery which suffers a Retire result is Eliminated instead (B&R 14.5)")
		return
	}
	if g.st.Units[i].Status == Retired {
		g.eliminate(i, cause+"; a Retired unit is eliminated by any result (12.4)")
		return
	}
	if g.retreatEliminates(i, cause, "Retire") {
		return
	}
	if std := unitStandard(g.sc, g.st, i); g.sc.Tables.Rules.RetireAtStandardEliminates && std != nil && std.Hex == g.st.Units[i].Hex {
		g.eliminate(i, cause+"; it is stacked with its Standard, so the Retire is an Elimination (Arquebus 14.4)")
		return
	}
	to, why := retirePlace(g.sc, g.st, i, causers)
	if why != retirePlaced {
		g.eliminate(i, cause+"; "+noRetirePlace(g.sc.Tables.Rules, why))
		return
	}
	g.emit(UnitRetired{Unit: g.sc.Units[i].ID, To: to, Cause: cause})
}

// retirePlace finds where a Retiring unit goes. It needs a route to its
// Standard's hex free of enemy units, enemy ZOCs and hexes or hexsides
// impassable to it; then, of the hexes so reached, it takes the empty one
// nearest its Standard (the Standard's own hex included); ties go to the
// hex nearest the unit, then the lowest hex id (ruling R55). Why says
// what stopped it when it found none.
func retirePlace(sc *Scenario, st *State, i int, causers []int) (hex.Hex, retireOutcome) {
	std := unitStandard(sc, st, i)
	if std == nil {
		return hex.Hex{}, retireNoStandard
	}
	if std.Captured {
		return hex.Hex{}, retireCaptured
	}
	side, class, start := sc.Units[i].Side, unitType(sc, st, i).Class(), st.Units[i].Hex
	dist := map[hex.Hex]int{start: 0}
	queue := []hex.Hex{start}
	var found []hex.Hex
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if o := occupant(st, h); (o < 0 || o == i) && !nextToAny(sc, st, h, causers) {
			found = append(found, h)
		}
		for _, n := range sc.Map.Grid.Neighbors(h) {
			if _, seen := dist[n]; seen || !sc.Map.Grid.Contains(n) || enterCost(sc, h, n, class) == NA {
				continue
			}
			if o := occupant(st, n); o >= 0 && sc.Units[o].Side != side || !sc.Tables.Rules.RetireThroughZOC && len(enemyZOC(sc, st, side, n)) > 0 {
				continue
			}
			dist[n] = dist[h] + 1
			queue = append(queue, n)
		}
	}
	if _, route := dist[std.Hex]; !route {
		return hex.Hex{}, retireNoRoute
	}
	if sc.Tables.Rules.RetireNextToStandard {
		// Blood & Roses 14.5: "place it in a hex in or adjacent to its
		// Standard ... If all hexes in or adjacent to its Standard are
		// occupied by units or impassable terrain, it is Eliminated."
		near := found[:0:0]
		for _, h := range found {
			if sc.Map.Grid.Distance(h, std.Hex) <= 1 {
				near = append(near, h)
			}
		}
		if len(near) == 0 {
			return hex.Hex{}, retireStandardFull
		}
		found = near
	}
	if len(found) == 0 {
		return hex.Hex{}, retireNoClearHex
	}
	grid := sc.Map.Grid
	sort.Slice(found, func(a, b int) bool {
		da, db := grid.Distance(found[a], std.Hex), grid.Distance(found[b], std.Hex)
		if da != db {
			return da < db
		}
		if dist[found[a]] != dist[found[b]] {
			return dist[found[a]] < dist[found[b]]
		}
		return found[a].String() < found[b].String()
	})
	return found[0], retirePlaced
}

// unitStandard is unit i's Standard, or nil.
func unitStandard(sc *Scenario, st *State, i int) *StandardState {
	if cmd := sc.Command(unitCommand(sc, st, i)); cmd != nil {
		return st.Standard(cmd.Standard)
	}
	return nil
}

// retreatEliminates: "Gun Wagons that incur Retreat or Retire results,
// from either missile fire or Shock/Charge combat, are Eliminated
// instead" (Arquebus 16.3, rules.retreat_eliminates). A Disorder
// disorders them (ruling R425).
func (g *game) retreatEliminates(i int, cause, result string) bool {
	t := unitType(g.sc, g.st, i)
	if !slices.Contains(g.sc.Tables.Rules.RetreatEliminates, t.Key) {
		return false
	}
	g.eliminate(i, fmt.Sprintf("%s; %s which incur a %s result are Eliminated instead (Arquebus 16.3)", cause, t.Name, result))
	return true
}

// retireOutcome is where a Retiring unit's placement ended.
type retireOutcome int

const (
	retirePlaced       retireOutcome = iota
	retireNoStandard                 // the unit has no Standard
	retireCaptured                   // its Standard was captured (13.2)
	retireNoRoute                    // no route to the Standard (12.4, Infidel 14.4)
	retireNoClearHex                 // every hex reached is next to a causer (Infidel 14.4)
	retireStandardFull               // no hex in or adjacent to the Standard is free and clear (Blood & Roses 14.5)
)

// nextToAny: with rules.retire_clear_of_attackers, hex h is adjacent to
// one of the units that caused a Retire (Infidel 14.4).
func nextToAny(sc *Scenario, st *State, h hex.Hex, causers []int) bool {
	if !sc.Tables.Rules.RetireClearOfAttackers {
		return false
	}
	for _, c := range causers {
		if onField(st, c) && sc.Map.Grid.Distance(h, st.Units[c].Hex) == 1 {
			return true
		}
	}
	return false
}

// noRetirePlace says why a Retiring unit found no hex, by the volume's rules.
func noRetirePlace(r Rules, why retireOutcome) string {
	switch {
	case why == retireNoStandard:
		return "it has no Standard to Retire to (12.4)"
	case why == retireCaptured:
		return "its Standard has been captured, so a Retire is an Elimination (13.2)"
	case why == retireStandardFull:
		return "no hex in or adjacent to its Standard is free of units, passable, reached by a route free of enemy units, and clear of the enemy units that caused the Retire (Blood & Roses 14.5)"
	case why == retireNoClearHex:
		return "every hex it can reach by a route to its Standard is next to an enemy unit that caused the Retire (Infidel 14.4)"
	case r.RetireThroughZOC:
		return "no route to its Standard free of enemy units and impassable terrain (Infidel 14.4)"
	}
	return "no route to its Standard free of enemy units, enemy ZOCs and impassable terrain (12.4)"
}

// UnitDisordered: the unit flipped to its Disordered side (12.2).
type UnitDisordered struct {
	Unit  string `json:"unit"`
	Cause string `json:"cause"`
}

func (e UnitDisordered) apply(st *State) { st.Unit(e.Unit).Status = Disordered }

func (e UnitDisordered) describe(*Scenario) string {
	return fmt.Sprintf("%s is Disordered (%s; 12.2).", e.Unit, e.Cause)
}

// UnitRetired: the unit was placed near its Standard, Retired (12.4). It
// loses Shield Wall (14.1: "forced to move because of adverse combat
// results").
type UnitRetired struct {
	Unit  string  `json:"unit"`
	To    hex.Hex `json:"to"`
	Cause string  `json:"cause"`
}

func (e UnitRetired) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Status, u.Hex, u.ShieldWall, u.Schiltron = Retired, e.To, false, false
}

func (e UnitRetired) describe(*Scenario) string {
	return fmt.Sprintf("%s retires to %s, near its Standard (%s; 12.4).", e.Unit, e.To, e.Cause)
}

// UnitEliminated: the unit is removed for the day (12.6).
type UnitEliminated struct {
	Unit  string `json:"unit"`
	Cause string `json:"cause"`
}

func (e UnitEliminated) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Status, u.ShieldWall, u.Schiltron = Eliminated, false, false
}

func (e UnitEliminated) describe(*Scenario) string {
	return fmt.Sprintf("%s is eliminated (%s; 12.6).", e.Unit, e.Cause)
}

func init() { registerEvents(UnitDisordered{}, UnitRetired{}, UnitEliminated{}) }

// retreat: "A unit that must Retreat must move one hex away from the
// unit(s) inflicting the result. It must end its retreat one hex from
// every unit which participated in the attack ... It may not stack and it
// may not move into an enemy-occupied hex. Any leader stacked with the
// unit must retreat with it. It may move into an enemy ZOC and it may
// change facing. If its retreat is blocked by a friendly Missile infantry
// unit, it may retreat through that unit an extra hex ... the Missile unit
// is Disordered; if already Disordered, it is Retired ... If it cannot
// retreat ... it is eliminated" (12.3). Retreat is not Movement (5.2): no
// MP, no ZOC stop, no Reaction Fire.
func (g *game) retreat(i int, attackers []int, cause string) error {
	if unitType(g.sc, g.st, i).NeverDisordered {
		// Blood & Roses 14.4 "Artillery units which suffer a Retreat result are instead Eliminated".
		g.eliminate(i, cause+"; Artillery which suffers a Retreat result is Eliminated instead (B&R 14.4)")
		return nil
	}
	if g.st.Units[i].Status == Retired {
		g.eliminate(i, cause+"; a Retired unit is eliminated by any result (12.4)")
		return nil
	}
	if g.retreatEliminates(i, cause, "Retreat") {
		return nil
	}
	if g.noRetreat(i, cause, attackers) {
		return nil
	}
	paths := retreatPaths(g.sc, g.st, i, attackers)
	if len(paths) == 0 {
		g.eliminate(i, cause+"; it cannot retreat (12.3)")
		return nil
	}
	if g.askRetreat(i, attackers, paths, cause) {
		return nil
	}
	return g.doRetreat(i, attackers, paths[0], cause)
}

// doRetreat moves a retreating unit along a chosen retreat. A missile unit
// it passes through is Disordered, or Retired if it was already; a leader
// with a missile unit so Retired checks as for a Retire by Shock (12.3).
func (g *game) doRetreat(i int, attackers []int, p retreatPath, cause string) error {
	e := UnitRetreated{Unit: g.sc.Units[i].ID, Path: p.hexes, Cause: cause}
	for l, ls := range g.st.Leaders {
		if !ls.OffMap && ls.Hex == g.st.Units[i].Hex && g.sc.Leaders[l].Side == g.sc.Units[i].Side {
			e.Leaders = append(e.Leaders, g.sc.Leaders[l].ID)
		}
	}
	g.emit(e)
	if g.sc.Tables.Rules.StandardsDisplaced {
		// Arquebus 14.3: a unit "may retreat into a hex occupied solely
		// by an enemy leader (5.4) or Standard", which it displaces (5.4
		// By Capture, 15.2; ruling R428).
		for _, h := range p.hexes {
			g.captureIn(i, h)
		}
	}
	if p.through < 0 {
		return nil
	}
	if g.sc.Tables.Rules.RetreatThrough != nil {
		return g.retreatedThrough(p.through, g.sc.Units[i].ID, attackers)
	}
	why := fmt.Sprintf("%s retreated through it (12.3)", g.sc.Units[i].ID)
	if g.st.Units[p.through].Status != Disordered {
		g.disorder(p.through, why, attackers)
		return nil
	}
	leaders := stackedLeaders(g.sc, g.st, p.through)
	g.retireFrom(p.through, why, attackers)
	leaders, err := g.leaderCasualties(leaders, "a retreat through his unit", true)
	if err != nil {
		return err
	}
	return g.displaceLeaders(leaders)
}

// retreatPath is a legal retreat: one hex, or two through a friendly
// missile infantry unit.
type retreatPath struct {
	hexes   []hex.Hex
	through int // the missile unit passed through, or -1
}

// retreatPaths lists the legal retreats of unit i from attackers, the
// owner's best first: a plain one-hex retreat before one through a
// friendly missile unit, then the hex nearest the unit's Standard, then
// the fewest enemy ZOCs, then the lowest hex id (ruling R56: the owner's
// choice by mail arrives with the retreat decision; this is its default).
func retreatPaths(sc *Scenario, st *State, i int, attackers []int) []retreatPath {
	side, from := sc.Units[i].Side, st.Units[i].Hex
	class := unitType(sc, st, i).Class()
	ok := func(h, prev hex.Hex) bool {
		if !sc.Map.Grid.Contains(h) || enterCost(sc, prev, h, class) == NA {
			return false
		}
		for _, a := range attackers {
			if sc.Map.Grid.Distance(h, st.Units[a].Hex) < 2 {
				return false
			}
		}
		return true
	}
	var out []retreatPath
	for _, n := range sc.Map.Grid.Neighbors(from) {
		if !awayFrom(sc, st, from, n, attackers) || !sc.Map.Grid.Contains(n) || enterCost(sc, from, n, class) == NA {
			continue
		}
		o := occupant(st, n)
		switch {
		case o < 0 && ok(n, from):
			out = append(out, retreatPath{hexes: []hex.Hex{n}, through: -1})
		case o >= 0 && sc.Units[o].Side == side && retreatPassable(sc, st, o):
			for _, m := range sc.Map.Grid.Neighbors(n) {
				if occupant(st, m) < 0 && awayFrom(sc, st, n, m, attackers) && ok(m, n) {
					out = append(out, retreatPath{hexes: []hex.Hex{n, m}, through: o})
				}
			}
		}
	}
	std := hex.Hex{}
	if c := sc.Command(unitCommand(sc, st, i)); c != nil && st.Standard(c.Standard) != nil {
		std = st.Standard(c.Standard).Hex
	}
	sort.SliceStable(out, func(a, b int) bool {
		pa, pb := out[a], out[b]
		if (pa.through < 0) != (pb.through < 0) {
			return pa.through < 0
		}
		ea, eb := pa.hexes[len(pa.hexes)-1], pb.hexes[len(pb.hexes)-1]
		if da, db := sc.Map.Grid.Distance(ea, std), sc.Map.Grid.Distance(eb, std); da != db {
			return da < db
		}
		if za, zb := len(enemyZOC(sc, st, side, ea)), len(enemyZOC(sc, st, side, eb)); za != zb {
			return za < zb
		}
		return ea.String() < eb.String()
	})
	return out
}

// awayFrom: a retreat step from h to n moves away from every attacker.
func awayFrom(sc *Scenario, st *State, h, n hex.Hex, attackers []int) bool {
	for _, a := range attackers {
		if sc.Map.Grid.Distance(n, st.Units[a].Hex) <= sc.Map.Grid.Distance(h, st.Units[a].Hex) {
			return false
		}
	}
	return true
}

// retreatPassable: a retreating friendly unit may pass through unit o:
// one of rules.retreat_through (Arquebus 14.3), or else a missile
// infantry unit (12.3).
func retreatPassable(sc *Scenario, st *State, o int) bool {
	if types := sc.Tables.Rules.RetreatThrough; types != nil {
		// Arquebus 14.3 "a friendly ... unit (not stacked with another
		// unit, even if that unit is Engaged)".
		return slices.Contains(types, unitType(sc, st, o).Key) && partner(st, o) < 0
	}
	return isMissileInfantry(sc, st, o)
}

// retreatedThrough applies Arquebus 14.3 to unit o a friendly unit
// (mover) retreated through: "the unit retreated through is Disordered;
// if already Disordered, it is Retired. If the unit retreated through is
// already Retired, it is Eliminated. If the unit retreated through was an
// Artillery unit, the unit retreated through is Eliminated. Any leader
// stacked with the newly Retired/Eliminated unit must make a Leader
// Casualty check (5.4) as if the unit suffered the Retire/Eliminated
// result from Shock combat" (ruling R421).
func (g *game) retreatedThrough(o int, mover string, attackers []int) error {
	why := fmt.Sprintf("%s retreated through it (Arquebus 14.3)", mover)
	leaders := stackedLeaders(g.sc, g.st, o)
	switch {
	case unitType(g.sc, g.st, o).NeverDisordered:
		g.eliminate(o, why+"; an Artillery unit retreated through is Eliminated")
	case g.st.Units[o].Status == Retired:
		g.eliminate(o, why+"; it was already Retired, so it is Eliminated")
	case g.st.Units[o].Status == Disordered:
		g.retireFrom(o, why+"; it was already Disordered, so it Retires", attackers)
	default:
		g.disorder(o, why, attackers)
		return nil
	}
	leaders, err := g.leaderCasualties(leaders, "a retreat through his unit", true)
	if err != nil {
		return err
	}
	return g.displaceLeaders(leaders)
}

func isMissileInfantry(sc *Scenario, st *State, i int) bool {
	t := unitType(sc, st, i)
	return !t.Mounted && t.Missile()
}

// UnitRetreated: the unit retreated along Path, with the leaders stacked
// with it (12.3). It loses Shield Wall (14.1).
type UnitRetreated struct {
	Unit    string    `json:"unit"`
	Path    []hex.Hex `json:"path"`
	Leaders []string  `json:"leaders,omitempty"`
	Cause   string    `json:"cause"`
}

func (e UnitRetreated) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Hex, u.ShieldWall, u.Schiltron = e.Path[len(e.Path)-1], false, false
	for _, l := range e.Leaders {
		st.Leader(l).Hex = u.Hex
	}
}

func (e UnitRetreated) describe(*Scenario) string {
	return fmt.Sprintf("%s retreats %s (%s; 12.3).", e.Unit, pathText(e.Path), e.Cause)
}

func init() { registerEvents(UnitRetreated{}) }
