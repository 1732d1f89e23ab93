package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Blood & Roses 14.8 BATTLE FLIGHT (Optional), a battle rule the players
// choose (BattleRules.BattleFlight): "At the end of any player's
// Activation, any Battle that has more than half of its starting,
// non-Artillery units Eliminated or Retired checks for Battle Flight ...
// Once a Battle checks for Battle Flight it never checks again. To check
// for Battle Flight, roll one die: If the adjusted Battle Flight DR is 4
// or less, the Battle flees. If the adjusted Battle Flight DR is 5 or
// more, there is no effect. Add the Charisma Rating of the Battle leader
// to the DR, if that leader has at least one of his units remaining in
// his Command Range." Fleeing: "Eliminate all Artillery and Retired units
// and units that are surrounded (though in this case map edges do not
// count to surround a unit) ... All other units are removed from the
// game, these units do not count against the player's Flight Point total
// ... Fleeing leaders (other than the Overall Commander or King) do not
// count". "If all of a player's Battles flee, that player loses the
// instant his last Battle fails its Battle Flight DR. If both players'
// only Battles flee during an Activation, the game is a draw."
//
// Herald's readings (rulings R271-R273): a Battle's starting units are
// all the units of its Command in the battle file, reinforcements too,
// less the tables' rules.battle_flight_ignores types; the active side's
// Battles check first, each side's in the battle file's order; its
// Standard stays where it is (its placement on the Battle Flight map edge
// only matters to Pursuit, 14.9, engine/pursuit.go, whose Pursuers come
// back through the Standard's hex, ruling R288).

// battleFlight checks every Battle that must, at the end of an Activation
// of the activated Commands.
func (g *game) battleFlight(activated []string) error {
	if !g.sc.Rules.BattleFlight {
		return nil
	}
	fled := [2]bool{}
	for _, side := range []Side{g.st.Active, g.st.Active.Other()} {
		for _, c := range g.sc.Commands {
			if c.Side != side || slices.Contains(g.st.FlightChecked, c.ID) || !slices.Contains(availableCommands(g.sc, g.st, side), c.ID) {
				continue // checked once; or nothing of it is left to flee
			}
			lost, start := battleLosses(g.sc, g.st, c.ID)
			if start == 0 || 2*lost <= start {
				continue
			}
			var mods []Modifier
			if ch, who := battleLeaderCharisma(g.sc, g.st, c.ID); ch != 0 {
				mods = append(mods, Modifier{DRM: ch, Reason: who + "'s Charisma", Rule: "Blood & Roses 14.8"})
			}
			r, err := g.roll(fmt.Sprintf("Battle Flight DR: %s (Blood & Roses 14.8)", commandName(g.sc, c.ID)), mods...)
			if err != nil {
				return err
			}
			max := g.sc.Tables.Rules.BattleFlightMax
			g.emit(BattleFlightRolled{Command: c.ID, Lost: lost, Start: start, Roll: r, Max: max, Flees: r.Total <= max})
			if r.Total <= max {
				g.flee(c.ID)
				fled[side] = fled[side] || allFled(g.sc, g.st, side)
				if !fled[side] {
					if err := g.pursuit(c.ID, activated); err != nil {
						return err
					}
				}
			}
		}
	}
	g.endBattle(fled, "both armies' last Battles fled: a draw (Blood & Roses 14.8)", func(loser, winner string) string {
		return fmt.Sprintf("the last Battle of the %s fled: the %s win (Blood & Roses 14.8)", loser, winner)
	})
	return nil
}

// battleLosses are a Battle's starting units that count for Battle Flight
// and how many of them are Eliminated or Retired.
func battleLosses(sc *Scenario, st *State, cmd string) (lost, start int) {
	for i, u := range sc.Units {
		if u.Command != cmd || inAmbush(sc, st, i) || st.Units[i].Joined != "" || slices.Contains(sc.Tables.Rules.BattleFlightIgnores, sc.Units[i].Type) {
			continue
		}
		start++
		if s := st.Units[i].Status; s == Eliminated || s == Retired {
			lost++
		}
	}
	return lost, start
}

// battleLeaderCharisma is the Battle leader's Charisma when at least one
// unit of his Battle is in his Command Range (5.2), and his name; a
// Replacement has none (ruling R86).
func battleLeaderCharisma(sc *Scenario, st *State, cmd string) (int, string) {
	c := sc.Command(cmd)
	l := sc.Leader(c.Leader)
	if l == nil || st.Leader(l.ID).OffMap || st.Leader(l.ID).Killed || st.Leader(l.ID).Replaced || l.Charisma == 0 {
		return 0, ""
	}
	out := outOfRange(sc, st, cmd)
	for i, u := range sc.Units {
		if unitCommand(sc, st, i) == cmd && onField(st, i) && !slices.Contains(out, u.ID) {
			return l.Charisma, l.Name
		}
	}
	return 0, ""
}

// flee takes a Battle off the field (14.8).
func (g *game) flee(cmd string) {
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if unitCommand(g.sc, g.st, i) != cmd || inAmbush(g.sc, g.st, i) || us.Status == Eliminated || us.Fled {
			continue
		}
		switch {
		case us.OffMap:
			g.emit(UnitFled{Unit: u.ID}) // a reinforcement not yet arrived goes with it
		case us.Status == Retired:
			g.eliminate(i, "its Battle flees and it is Retired (Blood & Roses 14.8)")
		case slices.Contains(g.sc.Tables.Rules.BattleFlightIgnores, u.Type):
			g.eliminate(i, "its Battle flees and it cannot go with it (Blood & Roses 14.8)")
		case surroundedOnMap(g.sc, g.st, i):
			g.eliminate(i, "its Battle flees and it is surrounded (Blood & Roses 14.8)")
		default:
			g.emit(UnitFled{Unit: u.ID})
		}
	}
	var leaders []string
	for i, l := range g.sc.Leaders {
		if ls := g.st.Leaders[i]; l.Command == cmd && !ls.Fled && !(ls.Killed && !ls.Replaced) {
			leaders = append(leaders, l.ID)
		}
	}
	g.emit(BattleFled{Command: cmd, Leaders: leaders})
}

// surroundedOnMap: every hex next to unit i is on the map and holds an enemy
// unit ("map edges do not count to surround a unit", 14.8; ruling R272).
func surroundedOnMap(sc *Scenario, st *State, i int) bool {
	for _, n := range sc.Map.Grid.Neighbors(st.Units[i].Hex) {
		if !sc.Map.Grid.Contains(n) {
			return false
		}
		o := occupant(st, n)
		if o < 0 || sc.Units[o].Side == sc.Units[i].Side {
			return false
		}
	}
	return true
}

// allFled: no Battle of the side is left on the field, the last one
// having fled (ruling R271).
func allFled(sc *Scenario, st *State, side Side) bool {
	return len(availableCommands(sc, st, side)) == 0
}

// BattleFlightRolled: a Battle with more than half of its starting units
// lost checked for Battle Flight, once (Blood & Roses 14.8).
type BattleFlightRolled struct {
	Command string `json:"command"`
	Lost    int    `json:"lost"`
	Start   int    `json:"start"`
	Roll    Roll   `json:"roll"`
	Max     int    `json:"max"`
	Flees   bool   `json:"flees,omitempty"`
}

func (e BattleFlightRolled) apply(st *State) { st.FlightChecked = append(st.FlightChecked, e.Command) }

func (e BattleFlightRolled) describe(sc *Scenario) string {
	verdict := fmt.Sprintf("more than %d: it stands", e.Max)
	if e.Flees {
		verdict = fmt.Sprintf("%d or less: it flees", e.Max)
	}
	return fmt.Sprintf("%s has lost %d of its %d units and checks for Battle Flight: %s, %s (Blood & Roses 14.8).",
		commandName(sc, e.Command), e.Lost, e.Start, describeRoll(e.Roll), verdict)
}

// UnitFled: the unit leaves the field with its Battle, for good and with
// no Flight Points (Blood & Roses 14.8).
type UnitFled struct {
	Unit string `json:"unit"`
}

func (e UnitFled) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Fled, u.OffMap = true, true
}

func (e UnitFled) describe(*Scenario) string {
	return fmt.Sprintf("%s flees the field (Blood & Roses 14.8).", e.Unit)
}

// BattleFled: the Battle and its leaders are gone; an Overall Commander
// or King among them counts his Flight Points (3.0, 14.8).
type BattleFled struct {
	Command string   `json:"command"`
	Leaders []string `json:"leaders,omitempty"`
}

func (e BattleFled) apply(st *State) {
	st.Fled = append(st.Fled, e.Command)
	if k := pursuitIndex(st, e.Command); k >= 0 {
		// 14.9 "If the Pursuing Battle fails a Battle Flight DR, all of
		// its units (on and off map) are removed from play".
		st.Pursuits = slices.Delete(st.Pursuits, k, k+1)
	}
	for _, id := range e.Leaders {
		l := st.Leader(id)
		l.Fled, l.OffMap = true, true
	}
}

func (e BattleFled) describe(sc *Scenario) string {
	s := fmt.Sprintf("%s flees the field", commandName(sc, e.Command))
	if len(e.Leaders) > 0 {
		s += ", with " + strings.Join(e.Leaders, ", ")
	}
	return s + " (Blood & Roses 14.8)."
}

func init() { registerEvents(BattleFlightRolled{}, UnitFled{}, BattleFled{}) }
