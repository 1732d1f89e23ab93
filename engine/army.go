package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// Blood & Roses 6.1 Army Activation (Rules.ArmyActivation): "A player
// may choose to use Army Activation to Activate all units and leaders in
// his army that meet the requirements below: Battle leaders must be within
// the Command Range of the Overall Commander (or be the OC). Units must be
// within Command Range of their leader. Units and leaders must be more
// than three hexes away from an enemy unit. Units Activated for Army
// Activation may only move, and no unit or leader may move within four
// hexes of an enemy unit (three intervening hexes). Units may not fire,
// engage in Shock combat, or Rally."

// armyOC is side's Overall Commander for an Army Activation: on the map,
// not killed, not his Replacement (5.6: "Replacements for Overall
// Commanders never count as Overall Commanders"); -1 if there is none
// (ruling R202: no Army Activation then).
func armyOC(sc *Scenario, st *State, side Side) int {
	for l, spec := range sc.Leaders {
		ls := st.Leaders[l]
		if spec.OC && spec.Side == side && !ls.OffMap && !ls.Killed && !ls.Replaced {
			return l
		}
	}
	return -1
}

// enemyWithin reports whether an enemy of side's units on the field stands
// within n hexes of h.
func enemyWithin(sc *Scenario, st *State, side Side, h hex.Hex, n int) bool {
	for i, u := range sc.Units {
		if us := st.Units[i]; u.Side != side && onField(st, i) && sc.Map.Grid.Distance(us.Hex, h) <= n {
			return true
		}
	}
	return false
}

// armyMembers are the leaders and units an Army Activation of side would
// Activate now (6.1): the Overall Commander and the leaders within his
// Command Range (traced as for units, 5.2), the units in Command of those
// leaders (ruling R201: a unit whose leader does not qualify does not
// either), all more than Rules.ArmyClearance hexes from every enemy unit.
func armyMembers(sc *Scenario, st *State, side Side) (units, leaders []string) {
	oc := armyOC(sc, st, side)
	if oc < 0 {
		return nil, nil
	}
	clear := sc.Tables.Rules.ArmyClearance
	_, rng := leaderRatings(sc, st, sc.Leaders[oc].ID)
	reach := commandRange(sc, st, side, st.Leaders[oc].Hex, rng)
	cmds := map[string]bool{}
	for l, spec := range sc.Leaders {
		ls := st.Leaders[l]
		if spec.Side != side || ls.OffMap || ls.Killed || l != oc && !reach[ls.Hex] || enemyWithin(sc, st, side, ls.Hex, clear) {
			continue
		}
		leaders = append(leaders, spec.ID)
		if spec.Command != "" {
			cmds[spec.Command] = true
		}
	}
	out := map[string]bool{}
	for c := range cmds {
		for _, id := range outOfCommand(sc, st, c) {
			out[id] = true
		}
	}
	for i, u := range sc.Units {
		if u.Side != side || !cmds[unitCommand(sc, st, i)] || inAmbush(sc, st, i) || !onField(st, i) || out[u.ID] || enemyWithin(sc, st, side, st.Units[i].Hex, clear) {
			continue
		}
		units = append(units, u.ID)
	}
	return units, leaders
}

// activateArmy begins an Army Activation (6.1), the army's eligible units
// and leaders fixed at its start as command status is (5.2).
func (g *game) activateArmy(o Order, side Side, kind ActivationKind) error {
	units, leaders := armyMembers(g.sc, g.st, side)
	if len(units) == 0 && len(leaders) == 0 && o != nil {
		return g.noArmy(o)
	}
	g.emit(ArmyActivated{Side: side, Kind: kind, Units: units, Leaders: leaders})
	g.replaceLeaders(side)
	g.standingPlays(side) // B&R 6.3, ruling R282
	return nil
}

// noArmy refuses an Army Activation that would activate nothing.
func (g *game) noArmy(o Order) error {
	return g.illegal(o, "B&R 6.1", "no unit or leader qualifies for Army Activation: the Overall Commander must be on the map, and units and leaders more than "+
		fmt.Sprint(g.sc.Tables.Rules.ArmyClearance)+" hexes from any enemy unit, leaders within his Command Range and units within their leader's")
}

// armyOnlyMoves refuses what an Army Activation does not allow: "Units
// Activated for Army Activation may only move ... Units may not fire,
// engage in Shock combat, or Rally" (6.1).
func (g *game) armyOnlyMoves(o Order) error {
	return g.illegal(o, "B&R 6.1", "in an Army Activation units may only move: no fire, Shock, Charge, Shield Wall or Schiltron")
}

// armyPath refuses a move of an Army Activation that enters a hex within
// Rules.ArmyMoveClearance hexes of an enemy unit (6.1); nil if none does.
func (g *game) armyPath(o Order, who string, side Side, path []hex.Hex) error {
	if !g.st.Army {
		return nil
	}
	n := g.sc.Tables.Rules.ArmyMoveClearance
	for _, h := range path {
		if enemyWithin(g.sc, g.st, side, h, n) {
			return g.illegal(o, "B&R 6.1", fmt.Sprintf("%s may not enter %s: in an Army Activation no unit or leader moves within %d hexes of an enemy unit", who, h, n))
		}
	}
	return nil
}

// armyBarred: the last hex of path is one an Army Activation may not
// enter (armyPath), so Reach offers no move through or into it.
func armyBarred(sc *Scenario, st *State, side Side, path []hex.Hex) bool {
	return st.Army && len(path) > 0 && enemyWithin(sc, st, side, path[len(path)-1], sc.Tables.Rules.ArmyMoveClearance)
}

// activatedUnit: unit i belongs to the Activation under way — of the
// activated Command, or one the Army Activation activated.
func activatedUnit(sc *Scenario, st *State, i int) bool {
	if st.Army {
		return slices.Contains(st.ArmyUnits, sc.Units[i].ID)
	}
	if st.Ambush != "" {
		return ambushing(sc, st, i) // B&R 16.1: the unit alone
	}
	return st.Command != "" && unitCommand(sc, st, i) == st.Command && !inAmbush(sc, st, i)
}

// activatedLeader: leader l may move in the Activation under way.
func activatedLeader(sc *Scenario, st *State, l int) bool {
	if st.Army {
		return slices.Contains(st.ArmyLeaders, sc.Leaders[l].ID)
	}
	return st.Command != "" && sc.Leaders[l].Command == st.Command
}

// ArmyActivated: an Army Activation begins (6.1) with the units and
// leaders that qualify; Phase B follows, to move only.
type ArmyActivated struct {
	Side    Side           `json:"side"`
	Kind    ActivationKind `json:"kind"`
	Units   []string       `json:"units,omitempty"`
	Leaders []string       `json:"leaders,omitempty"`
}

func (e ArmyActivated) apply(st *State) {
	startActivation(st, e.Side, e.Kind, "")
	st.Army = true
	st.ArmyUnits, st.ArmyLeaders = slices.Clone(e.Units), slices.Clone(e.Leaders)
}

func (e ArmyActivated) describe(sc *Scenario) string {
	var names []string
	for _, id := range e.Leaders {
		names = append(names, leaderName(sc, id))
	}
	return fmt.Sprintf("The %s make an Army Activation (%s, B&R 6.1): %d units (%s) and %s, to move only.",
		sc.SideName(e.Side), e.Kind, len(e.Units), strings.Join(e.Units, ", "), strings.Join(names, ", "))
}

func init() { registerEvents(ArmyActivated{}) }
