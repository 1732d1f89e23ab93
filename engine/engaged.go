package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// Arquebus 14.5 ENGAGED: "Engaged represents the units involved in that
// combat mixing together and continuing to fight. Place an ENGAGED marker
// atop the units to so indicate; any existing ENGAGED markers remain.
// Retired units cannot be Engaged, disregard this result against a Retired
// unit." The result is a cell of the Shock or Charge table that says
// Engaged (Result.Engaged, rulings R306, R380): each attacker still next to
// the defender and the defender are Engaged with one another, and each
// unit keeps the list of the enemy units it is Engaged with
// (UnitState.EngagedWith). No volume but Arquebus prints the result, so no
// other volume ever has a marker.
//
// What the marker does is with each rule: no fire by or at the unit
// (CanFire, 14.5), no Retreat Before Combat (retreatsBeforeShock, 12.2),
// Disengage or stay (moveUnit, face), Shock only the units it is Engaged
// with and always (checkEngagedShocks, 12.1), no Swiss Reluctance (16.2).

// IsEngaged says whether the unit id carries an ENGAGED marker (Arquebus
// 14.5). Other rules ask it ("Stacked units ... may not enter an Engaged
// unit's hex", 10.1).
func IsEngaged(st *State, id string) bool {
	u := st.Unit(id)
	return u != nil && len(u.EngagedWith) > 0
}

// EngagedWith are the enemy units the unit id is Engaged with (Arquebus
// 14.5), none when it carries no ENGAGED marker.
func EngagedWith(st *State, id string) []string {
	if u := st.Unit(id); u != nil {
		return slices.Clone(u.EngagedWith)
	}
	return nil
}

func isEngaged(st *State, i int) bool { return len(st.Units[i].EngagedWith) > 0 }

// engagedIn are the enemy units unit i is Engaged with among units.
func engagedIn(sc *Scenario, st *State, i int, units []int) []int {
	var out []int
	for _, j := range units {
		if slices.Contains(st.Units[i].EngagedWith, sc.Units[j].ID) {
			out = append(out, j)
		}
	}
	return out
}

// engageAfter applies the Engaged results of a rolled attack once its
// other effects are done. "Engaged and Retreat: The unit must Retreat;
// ignore the Engaged result" (14.1): a unit that retreated is no longer
// next to the other side, so it is not Engaged with it. "Engaged/Retreat
// and Continued Attack: The unit must implement the Continued Attack;
// ignore the Engaged/Retreat result": with ca no pair is Engaged (ruling
// R381).
func (g *game) engageAfter(r Resolution, ca bool) {
	if ca {
		return
	}
	atk, defs := idxOf(g.sc, r.Attackers), idxOf(g.sc, r.Defenders)
	var pairs []EngagedPair
	for k, j := range defs {
		if !r.Results[k].Engaged {
			continue
		}
		for _, d := range g.engagedDefenders(r, k, j) {
			for _, i := range atk {
				if engageable(g.st, i) && g.sc.Map.Grid.Distance(g.st.Units[i].Hex, g.st.Units[d].Hex) == 1 {
					pairs = append(pairs, EngagedPair{Attacker: g.sc.Units[i].ID, Defender: g.sc.Units[d].ID})
				}
			}
		}
	}
	if len(pairs) > 0 {
		g.emit(UnitsEngaged{Pairs: pairs})
	}
}

// engagedDefenders are the units an Engaged result on defender j, the
// k-th of the resolution, Engages: j, and the unit stacked with it, which
// suffers the same results (Arquebus 10.3; 12.5 "If stacked with another
// unit that is Engaged, the Artillery is also Engaged"), but a Baggage
// Wagon, which suffers none (rules.shock_immune); Retired units never.
func (g *game) engagedDefenders(r Resolution, k, j int) []int {
	out := []int{j}
	if k < len(r.Stacked) && r.Stacked[k] != "" {
		if p := unitIdx(g.sc, r.Stacked[k]); p >= 0 && !slices.Contains(g.sc.Tables.Rules.ShockImmune, unitType(g.sc, g.st, p).Key) {
			out = append(out, p)
		}
	}
	return slices.DeleteFunc(out, func(d int) bool { return !engageable(g.st, d) })
}

// engageable: on the field and not Retired ("Retired units cannot be
// Engaged", 14.5).
func engageable(st *State, i int) bool { return onField(st, i) && st.Units[i].Status != Retired }

// endLapsedEngagements: "If all enemy units that a unit is Engaged with
// are no longer adjacent at any time, including during a Retreat,
// immediately remove its ENGAGED marker" (14.5). Called after every event;
// a unit gone from the field, or Retired, is Engaged with no one, and an
// enemy no longer next to it, gone or Retired is dropped from its list
// (ruling R382).
func (g *game) endLapsedEngagements() {
	for i := range g.st.Units {
		us := g.st.Units[i]
		if len(us.EngagedWith) == 0 {
			continue
		}
		if !engageable(g.st, i) {
			g.emit(EngagementEnded{Unit: g.sc.Units[i].ID, With: slices.Clone(us.EngagedWith), Reason: "it is no longer on the field in good standing (Retired units cannot be Engaged)"})
			continue
		}
		var gone []string
		for _, id := range us.EngagedWith {
			j := unitIdx(g.sc, id)
			if j < 0 || !engageable(g.st, j) || g.sc.Map.Grid.Distance(us.Hex, g.st.Units[j].Hex) != 1 {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			g.emit(EngagementEnded{Unit: g.sc.Units[i].ID, With: gone, Reason: "no longer adjacent"})
		}
	}
}

// attackDone ends an attack: "Remove all ENGAGED markers from a unit that
// receives a Continued Attack result" (14.5, 14.7).
func (g *game) attackDone(earned []int) {
	for _, i := range earned {
		if w := g.st.Units[i].EngagedWith; len(w) > 0 {
			g.emit(EngagementEnded{Unit: g.sc.Units[i].ID, With: slices.Clone(w), Reason: "it received a Continued Attack result", Rule: "Arquebus 14.5, Arquebus 14.7"})
		}
	}
	g.emit(AttackDone{Earned: unitIDs(g.sc, earned)})
}

// engagedFacings are the facings Engaged unit i may take staying in its
// hex: "If it does not Disengage and has none of the units it is Engaged
// with in its frontal hexes, it must turn one or two vertexes to place the
// maximum number of enemy units it is Engaged with in its frontal hexes.
// If it does not Disengage and has one or two of the units it is Engaged
// with in its frontal hexes, it cannot turn" (14.5).
func engagedFacings(sc *Scenario, st *State, i int) []hex.Facing {
	us := st.Units[i]
	inFront := func(f hex.Facing) int {
		n := 0
		for _, h := range sc.Map.Grid.FrontalHexes(us.Hex, f) {
			if o := occupant(st, h); o >= 0 && slices.Contains(us.EngagedWith, sc.Units[o].ID) {
				n++
			}
		}
		return n
	}
	if inFront(us.Facing) > 0 {
		return []hex.Facing{us.Facing}
	}
	best, out := 0, []hex.Facing{}
	for _, f := range []hex.Facing{us.Facing.Turn(1), us.Facing.Turn(-1), us.Facing.Turn(2), us.Facing.Turn(-2)} {
		switch n := inFront(f); {
		case n > best:
			best, out = n, []hex.Facing{f}
		case n == best && n > 0:
			out = append(out, f)
		}
	}
	if best == 0 {
		return []hex.Facing{us.Facing} // its enemies stand behind it, out of two vertexes' reach: it stays
	}
	return out
}

func facingNames(fs []hex.Facing) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, " or ")
}

// undeclaredEngaged is the first unit of the activated Command that stays
// Engaged with none of those units in its Frontal hexes where a turn would
// bring one there, or with one there and has declared no Shock: "During the Shock Phase a Shock capable unit *must* declare a
// Shock attack, satisfying 12.1, but ignoring any enemy units that it is
// not Engaged with" (14.5). Empty when there is none; else the refusal
// and the order that answers it.
func undeclaredEngaged(sc *Scenario, st *State) (why, legal string) {
	declared := map[string]bool{}
	for _, d := range st.Declared {
		for _, id := range d.Attackers {
			declared[id] = true
		}
	}
	for i, u := range sc.Units {
		if !isEngaged(st, i) || !activatedUnit(sc, st, i) || !engageable(st, i) {
			continue
		}
		if h, ok := mustDisengage(sc, st, i); ok && !st.Units[i].Moved {
			return fmt.Sprintf("%s is Engaged and not eligible to Shock attack: it must Disengage, as it can", u.ID), fmt.Sprintf("MOVE %s %s", u.ID, h)
		}
		// "it *must* turn one or two vertexes to place the maximum number
		// of enemy units it is Engaged with in its frontal hexes".
		if fs := engagedFacings(sc, st, i); fs[0] != st.Units[i].Facing {
			return fmt.Sprintf("%s has none of the units it is Engaged with (%s) in its Frontal hexes: it must turn to face them, or Disengage",
				u.ID, strings.Join(st.Units[i].EngagedWith, ", ")), fmt.Sprintf("FACE %s %s", u.ID, fs[0])
		}
		if !shocker(sc, st, i) || declared[u.ID] {
			continue
		}
		if front := engagedIn(sc, st, i, frontalEnemies(sc, st, i)); len(front) > 0 {
			return fmt.Sprintf("%s is Engaged with %s in its Frontal hexes and did not Disengage: it must declare a Shock attack on them", u.ID, strings.Join(unitIDs(sc, front), " and ")),
				fmt.Sprintf("SHOCK %s AT %s", u.ID, strings.Join(unitIDs(sc, front), " "))
		}
	}
	return "", ""
}

// mustDisengage: "Units that are not eligible to Shock attack must
// Disengage, if possible" (14.5). Unit i, Engaged and never Shocking, can:
// h is a first hex of a legal Disengage.
func mustDisengage(sc *Scenario, st *State, i int) (hex.Hex, bool) {
	us := st.Units[i]
	if shocker(sc, st, i) || !isEngaged(st, i) || us.Status != Normal || us.OutOfCommand {
		return hex.Hex{}, false
	}
	for _, n := range sc.Map.Grid.Neighbors(us.Hex) {
		if !sc.Map.Grid.Contains(n) || enemyAdjacent(sc, st, sc.Units[i].Side, n) {
			continue
		}
		if _, why := planUnitMove(sc, st, i, []hex.Hex{n}, nil, -1); why == nil {
			return n, true
		}
	}
	return hex.Hex{}, false
}

// disengageBarred: the move an Engaged unit has is a Disengage (14.5), so
// Reach offers it none when it may not Disengage (mayDisengage), and no
// hex next to an enemy unit.
func disengageBarred(sc *Scenario, st *State, i int, path []hex.Hex) bool {
	us := st.Units[i]
	switch {
	case !isEngaged(st, i):
		return false
	case us.Status != Normal || us.OutOfCommand:
		return true
	}
	return len(path) > 0 && enemyAdjacent(sc, st, sc.Units[i].Side, path[len(path)-1])
}

// mayDisengage: "A unit may Disengage by moving if it is not Disordered or
// Out of Command, but at a cost of one extra (+1) MP ... During the
// Activation it Disengages, it may not move adjacent to an enemy unit"
// (14.5). The MP is planUnitMove's; this is the rest.
func (g *game) mayDisengage(o Order, i int, path []hex.Hex) error {
	spec, us := g.sc.Units[i], g.st.Units[i]
	switch {
	case us.Status != Normal:
		return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s is Engaged and Disordered: it may not Disengage; it stays, and may only turn to face the units it is Engaged with (%s)", spec.ID, facingNames(engagedFacings(g.sc, g.st, i))))
	case us.OutOfCommand:
		return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s is Engaged and Out of Command: it may not Disengage; it stays, and may only turn to face the units it is Engaged with (%s)", spec.ID, facingNames(engagedFacings(g.sc, g.st, i))))
	}
	for _, h := range path {
		if enemyAdjacent(g.sc, g.st, spec.Side, h) {
			return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s Disengages, and a unit that Disengages may not move adjacent to an enemy unit: %s is", spec.ID, h))
		}
	}
	return nil
}

// EngagedPair: an attacker and a defender Engaged by a result.
type EngagedPair struct {
	Attacker string `json:"attacker"`
	Defender string `json:"defender"`
}

// UnitsEngaged: an Engaged result placed ENGAGED markers (Arquebus 14.5).
type UnitsEngaged struct {
	Pairs []EngagedPair `json:"pairs"`
}

func (e UnitsEngaged) apply(st *State) {
	add := func(id, with string) {
		u := st.Unit(id)
		if !slices.Contains(u.EngagedWith, with) {
			u.EngagedWith = append(slices.Clone(u.EngagedWith), with)
		}
	}
	for _, p := range e.Pairs {
		add(p.Attacker, p.Defender)
		add(p.Defender, p.Attacker)
	}
}

func (e UnitsEngaged) describe(*Scenario) string {
	var s []string
	for _, p := range e.Pairs {
		s = append(s, p.Attacker+" and "+p.Defender)
	}
	return fmt.Sprintf("%s are Engaged (Arquebus 14.5).", strings.Join(s, "; "))
}

// EngagementEnded: the unit is no longer Engaged with the units in With;
// with none left its ENGAGED marker is removed (Arquebus 14.5).
type EngagementEnded struct {
	Unit   string   `json:"unit"`
	With   []string `json:"with"`
	Reason string   `json:"reason"`
	Rule   string   `json:"rule,omitempty"` // the sections, when not Arquebus 14.5 alone
}

func (e EngagementEnded) apply(st *State) {
	u := st.Unit(e.Unit)
	u.EngagedWith = slices.DeleteFunc(slices.Clone(u.EngagedWith), func(id string) bool { return slices.Contains(e.With, id) })
	if len(u.EngagedWith) == 0 {
		u.EngagedWith = nil
	}
}

func (e EngagementEnded) describe(*Scenario) string {
	rule := "Arquebus 14.5"
	if e.Rule != "" {
		rule = e.Rule
	}
	return fmt.Sprintf("%s is no longer Engaged with %s: %s (%s).", e.Unit, strings.Join(e.With, ", "), e.Reason, rule)
}

// UnitDisengaged: an Engaged unit moved away from the units in From. It
// is Disordered and no longer Engaged once its move is made (Arquebus
// 14.5: "in so Disengaging the unit is automatically Disordered"; ruling
// R383); their markers go as soon as it is no longer adjacent.
type UnitDisengaged struct {
	Unit string   `json:"unit"`
	From []string `json:"from"`
}

func (e UnitDisengaged) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Status, u.EngagedWith = Disordered, nil
}

func (e UnitDisengaged) describe(*Scenario) string {
	return fmt.Sprintf("%s Disengages from %s and is Disordered (Arquebus 14.5).", e.Unit, strings.Join(e.From, ", "))
}

func init() { registerEvents(UnitsEngaged{}, EngagementEnded{}, UnitDisengaged{}) }
