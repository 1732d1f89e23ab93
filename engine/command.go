package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 15.1 Commands, 15.2 Command Range. "A leader's Command Range is traced
// in hexes, not Movement Points, from the leader to the combat unit ...
// Command status is determined at the start of Activation and stays with
// the unit throughout that Activation. You cannot trace Command range
// through an enemy unit, an enemy ZOC hex not occupied by a friendly unit,
// or a hex(side) impassable to all unit types. A combat unit not actually
// within Command Range but adjacent to a unit that is (or one that is
// considered in Command by virtue of this specific rule) is considered to
// be in Command (in a chain effect)."

// activateCommand begins a Command's Activation: the Command is activated,
// then its units' command status is fixed for the Activation (15.2).
func (g *game) activateCommand(side Side, cmd string, kind ActivationKind) {
	g.emit(CommandActivated{Side: side, Command: cmd, Kind: kind})
	g.replaceLeaders(side)
	g.standingPlays(side) // B&R 6.3, ruling R282
	if out := outOfCommand(g.sc, g.st, cmd); len(out) > 0 {
		g.emit(CommandTraced{Command: cmd, OutOfCommand: out})
	}
	e := CommandEngaged{Command: cmd}
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if us.OffMap || us.Status == Eliminated {
			continue
		}
		if unitCommand(g.sc, g.st, i) == cmd && g.adjacentEnemy(u.Side, us.Hex) {
			e.Units = append(e.Units, u.ID)
		}
		if u.Side != side && unitType(g.sc, g.st, i) != nil && unitType(g.sc, g.st, i).Charges {
			if g.sc.Tables.Rules.CounterChargeAdjacent {
				// Blood & Roses 13.3 #3: "began the Activation adjacent
				// to an enemy unit", and where that unit stood.
				if z := enemiesNextTo(g.sc, g.st, u.Side, us.Hex); len(z) > 0 {
					if e.InZOC == nil {
						e.InZOC, e.At = map[string][]string{}, map[string][]hex.Hex{}
					}
					e.InZOC[u.ID] = unitIDs(g.sc, z)
					for _, k := range z {
						e.At[u.ID] = append(e.At[u.ID], g.st.Units[k].Hex)
					}
				}
				continue
			}
			if z := enemyZOC(g.sc, g.st, u.Side, us.Hex); len(z) > 0 {
				if e.InZOC == nil {
					e.InZOC = map[string][]string{}
				}
				e.InZOC[u.ID] = unitIDs(g.sc, z)
			}
		}
	}
	if len(e.Units) > 0 || len(e.InZOC) > 0 {
		g.emit(e)
	}
}

// CommandEngaged: at the start of an Activation, the units of the Command
// next to an enemy unit, which may not Charge in it (11.1), and the enemy
// Mounted MAA in a ZOC of the active side, with whose ZOC, which may not
// Counter-Charge another unit while they stay in it (11.5).
type CommandEngaged struct {
	Command string              `json:"command"`
	Units   []string            `json:"units,omitempty"`
	InZOC   map[string][]string `json:"in_zoc,omitempty"`
	// At are the hexes the units of InZOC stood in, with rules.
	// counter_charge_adjacent, where InZOC are the adjacent enemy units
	// (Blood & Roses 13.3 #3).
	At map[string][]hex.Hex `json:"at,omitempty"`
}

func (e CommandEngaged) apply(st *State) {
	for _, id := range e.Units {
		st.Unit(id).Engaged = true
	}
	for id, z := range e.InZOC {
		st.Unit(id).InZOCOf = slices.Clone(z)
		st.Unit(id).InZOCAt = slices.Clone(e.At[id])
	}
}

func (e CommandEngaged) describe(sc *Scenario) string {
	// The enemy MAA stand next to, or in the ZOC of, any unit of the
	// active army, not only the Command's.
	maa := strings.Join(slices.Sorted(maps.Keys(e.InZOC)), ", ")
	army := sc.SideName(sc.Command(e.Command).Side)
	if len(e.Units) == 0 && e.At != nil {
		return fmt.Sprintf("As %s's Activation begins, enemy Mounted MAA stand next to units of the %s, and may not Counter-Charge them: %s (Blood & Roses 13.3 #3).", commandName(sc, e.Command), army, maa)
	}
	if len(e.Units) == 0 {
		return fmt.Sprintf("As %s's Activation begins, enemy Mounted MAA stand in ZOCs of the %s: %s (11.5).", commandName(sc, e.Command), army, maa)
	}
	return fmt.Sprintf("Next to the enemy as %s's Activation begins, so no Charge for them: %s (11.1).", commandName(sc, e.Command), strings.Join(e.Units, ", "))
}

func init() { registerEvents(CommandEngaged{}) }

// outOfCommand lists the units of cmd on the map that are out of their
// leader's Command Range, the chain of adjacent units included. Units off
// the map enter with their leader (5.3) and are in Command.
//
// Units of a type that is never Out of Command (Infidel 16.1: Knights)
// are left out; outOfRange keeps them, for the one thing 16.1 excepts.
func outOfCommand(sc *Scenario, st *State, cmd string) []string {
	var out []string
	for _, id := range outOfRange(sc, st, cmd) {
		if !unitType(sc, st, unitIdx(sc, id)).AlwaysInCommand {
			out = append(out, id)
		}
	}
	return out
}

// outOfRange lists the units of cmd out of their leader's Command Range.
func outOfRange(sc *Scenario, st *State, cmd string) []string {
	c := sc.Command(cmd)
	if c == nil {
		return nil
	}
	in := map[hex.Hex]bool{}
	if l := sc.Leader(c.Leader); l != nil && !st.Leader(l.ID).OffMap && !st.Leader(l.ID).Killed {
		_, r := leaderRatings(sc, st, l.ID)
		in = commandRange(sc, st, c.Side, st.Leader(l.ID).Hex, r)
	}
	inCmd := map[int]bool{}
	for changed := true; changed; {
		changed = false
		for i := range sc.Units {
			us := st.Units[i]
			if unitCommand(sc, st, i) != cmd || inCmd[i] || us.OffMap || us.Status == Eliminated {
				continue
			}
			if in[us.Hex] || adjacentInCommand(sc, st, i, inCmd) {
				inCmd[i], changed = true, true
			}
		}
	}
	var out []string
	for i, u := range sc.Units {
		us := st.Units[i]
		if unitCommand(sc, st, i) == cmd && !inCmd[i] && !us.OffMap && us.Status != Eliminated {
			out = append(out, u.ID)
		}
	}
	return out
}

// adjacentInCommand: the chain effect, through units of the same Command.
func adjacentInCommand(sc *Scenario, st *State, i int, inCmd map[int]bool) bool {
	for j := range inCmd {
		if sc.Map.Grid.Distance(st.Units[i].Hex, st.Units[j].Hex) == 1 {
			return true
		}
	}
	return false
}

// commandRange is the set of hexes within r hexes of the leader's hex by
// paths that do not pass through what blocks a Command Range (15.2).
func commandRange(sc *Scenario, st *State, side Side, from hex.Hex, r int) map[hex.Hex]bool {
	seen := map[hex.Hex]bool{from: true}
	frontier := []hex.Hex{from}
	for step := 0; step < r; step++ {
		var next []hex.Hex
		for _, h := range frontier {
			for _, n := range sc.Map.Grid.Neighbors(h) {
				if seen[n] || !sc.Map.Grid.Contains(n) || blocksCommand(sc, st, side, h, n) {
					continue
				}
				seen[n] = true
				next = append(next, n)
			}
		}
		frontier = next
	}
	return seen
}

// blocksCommand reports whether a Command Range may not be traced from h
// into n: an enemy unit in n, an enemy ZOC in n without a friendly unit,
// or a hex or hexside no unit type may enter or cross.
func blocksCommand(sc *Scenario, st *State, side Side, h, n hex.Hex) bool {
	if leaderCost(sc, h, n) == NA { // impassable to every unit type
		return true
	}
	if o := occupant(st, n); o >= 0 {
		return sc.Units[o].Side != side
	}
	return len(enemyZOC(sc, st, side, n)) > 0
}

// CommandTraced: at the start of an Activation, these units of the
// Command were out of Command Range; they stay so until it ends (15.2).
type CommandTraced struct {
	Command      string   `json:"command"`
	OutOfCommand []string `json:"out_of_command"`
}

func (e CommandTraced) apply(st *State) {
	for _, id := range e.OutOfCommand {
		st.Unit(id).OutOfCommand = true
	}
}

func (e CommandTraced) describe(sc *Scenario) string {
	return fmt.Sprintf("Out of %s's Command Range: %s (15.2).", commandName(sc, e.Command), strings.Join(e.OutOfCommand, ", "))
}

func init() { registerEvents(CommandTraced{}) }
