package engine

import (
	"fmt"
	"strings"

	"herald/engine/hex"
)

// 14.0 SPECIAL UNITS AND TACTICS: what this chapter does to movement and
// facing. Shield Wall's effects in combat arrive with the shock chapter.

// 14.1 Shield Wall: "Their leader may, at the beginning of the game
// (during setup) or upon activation (and before doing anything else),
// order these units in his command into (or out of) Shield Wall ... even
// if Out of Command ... The unit may not move ... It may change facing
// only one vertex per activation ... A Disordered unit cannot form Shield
// Wall."

// ShieldWallOrder orders the activated Command's eligible units into
// Shield Wall, or out of it: "SHIELD WALL", "SHIELD WALL OFF".
type ShieldWallOrder struct {
	at
	Off bool
}

func (o ShieldWallOrder) String() string {
	if o.Off {
		return "SHIELD WALL OFF"
	}
	return "SHIELD WALL"
}

func parseShieldWall(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	switch {
	case len(rest) == 1 && strings.EqualFold(rest[0], "WALL"):
		return ShieldWallOrder{at: a}, nil
	case len(rest) == 2 && strings.EqualFold(rest[0], "WALL") && strings.EqualFold(rest[1], "OFF"):
		return ShieldWallOrder{at: a, Off: true}, nil
	}
	return nil, syntax("SHIELD WALL takes nothing but OFF", "SHIELD WALL", "SHIELD WALL OFF")
}

// shieldWall carries out a Shield Wall order.
func (g *game) shieldWall(o ShieldWallOrder) error {
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	if g.commandHasActed() {
		return g.illegal(o, "14.1", "Shield Wall is ordered upon activation, before any unit of the Command does anything")
	}
	if err := g.wallLimit(o, o.Off); err != nil {
		return err
	}
	var units []string
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if unitCommand(g.sc, g.st, i) != g.st.Command || us.OffMap || us.Status == Eliminated || us.ShieldWall == !o.Off {
			continue
		}
		if !o.Off && (!unitType(g.sc, g.st, i).ShieldWall || us.Status != Normal || us.Schiltron) {
			continue // only Pike and Dismounted MAA, and never Disordered
		}
		units = append(units, u.ID)
	}
	if len(units) == 0 {
		what := "no unit of the Command may form Shield Wall now (14.1: Pike Infantry and Dismounted MAA, not Disordered)"
		if o.Off {
			what = "no unit of the Command stands in Shield Wall"
		}
		return g.illegal(o, "14.1", what)
	}
	g.emit(ShieldWallOrdered{Command: g.st.Command, Units: units, On: !o.Off})
	return nil
}

// commandHasActed: a unit of the activated Command has done something.
func (g *game) commandHasActed() bool {
	for i := range g.sc.Units {
		if unitCommand(g.sc, g.st, i) == g.st.Command && (g.st.Units[i].Moved || g.st.Units[i].Acted) {
			return true
		}
	}
	return false
}

// ShieldWallOrdered: units went into Shield Wall, or out of it (14.1).
type ShieldWallOrdered struct {
	Command string   `json:"command"`
	Units   []string `json:"units"`
	On      bool     `json:"on"`
}

func (e ShieldWallOrdered) apply(st *State) {
	for _, id := range e.Units {
		u := st.Unit(id)
		u.ShieldWall, u.Rearmed = e.On, true // 13.1 "rearmed" (ruling R90)
	}
	if e.On {
		countWallOrder(st, e.Command)
	}
}

// wallLimit refuses an order into Shield Wall or Schiltron (its Scots
// version, 14.1 Design Note) once the battle's orders are spent (R110).
func (g *game) wallLimit(o Order, off bool) error {
	if off || mayOrderWall(g.sc, g.st, g.st.Command) {
		return nil
	}
	c := g.sc.Command(g.st.Command)
	why := fmt.Sprintf("%s has ordered Shield Wall or Schiltron %s, all this battle allows", c.Name, times(*c.ShieldWallOrders))
	if *c.ShieldWallOrders == 0 {
		why = fmt.Sprintf("%s may not order Shield Wall or Schiltron in this battle", c.Name)
	}
	return g.illegal(o, "14.1", why+" (\"The use of Shield Wall is limited; see individual battles\")")
}

// countWallOrder counts an order into Shield Wall or Schiltron against the
// battle's limit.
func countWallOrder(st *State, command string) {
	if st.WallOrders == nil {
		st.WallOrders = map[string]int{}
	}
	st.WallOrders[command]++
}

// mayOrderWall: the battle leaves the Command an order into Shield Wall
// or Schiltron (14.1 "The use of Shield Wall is limited; see individual
// battles"; ruling R110). Units formed at set-up used none.
func mayOrderWall(sc *Scenario, st *State, command string) bool {
	c := sc.Command(command)
	return c == nil || c.ShieldWallOrders == nil || st.WallOrders[command] < *c.ShieldWallOrders
}

// times writes a count of orders: "never", "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 0:
		return "never"
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

func (e ShieldWallOrdered) describe(sc *Scenario) string {
	if e.On {
		return fmt.Sprintf("%s forms Shield Wall: %s (14.1).", commandName(sc, e.Command), strings.Join(e.Units, ", "))
	}
	return fmt.Sprintf("%s leaves Shield Wall: %s (14.1).", commandName(sc, e.Command), strings.Join(e.Units, ", "))
}

// shieldWallLimits: a unit in Shield Wall may not move, and turns one
// vertex at most (14.1).
func shieldWallMove(sc *Scenario, st *State, i int) *moveError {
	if st.Units[i].ShieldWall {
		return moveErr("14.1", "%s stands in Shield Wall and may not move (SHIELD WALL OFF upon activation releases it)", sc.Units[i].ID)
	}
	return nil
}

// 14.2 Hobilars: "It takes 3 Movement Points for a Hobilar to mount or
// dismount, which they may expend at any time during movement. They may do
// this in any hex that is neither adjacent to an enemy unit or within
// Missile Fire range of an enemy unit." In a MOVE order the words MOUNT or
// DISMOUNT stand among the path's hexes where the change happens:
// "MOVE HB1 0308 0309 DISMOUNT", or alone: "MOVE HB1 DISMOUNT".

// changeWords are the path words that turn a counter to its other side.
var changeWords = map[string]bool{"MOUNT": true, "DISMOUNT": true}

// sideChange is a mount or dismount in a move: before entering path[At]
// (At = len(path): after the last hex).
type sideChange struct {
	At   int    `json:"at"`
	Word string `json:"word"` // MOUNT or DISMOUNT
}

// mayChangeSides checks a mount or dismount in h (14.2).
func mayChangeSides(sc *Scenario, st *State, i int, t *UnitType, word string, h hex.Hex) *moveError {
	id := sc.Units[i].ID
	other := sc.Tables.UnitTypes[t.Becomes]
	if sc.Tables.Rules.DismountAtStart {
		// Blood & Roses 7.4: "they may always dismount when Activated,
		// under the following conditions: They must be within Command
		// Range of their leader. They may not be adjacent to an enemy
		// unit. ... Once dismounted, they may not remount during the
		// battle." Enemy missile range does not matter.
		switch {
		case word == "MOUNT":
			return moveErr("Blood & Roses 7.4", "%s may not mount: Men-at-Arms only dismount, and once dismounted may not remount during the battle", id)
		case t.Becomes == "" || other == nil || other.Mounted:
			return moveErr("Blood & Roses 7.4", "%s cannot dismount: only units with a dismounted side (Mounted Men-at-Arms) do", id)
		case st.Units[i].OutOfCommand:
			return moveErr("Blood & Roses 7.4", "%s is out of Command: Men-at-Arms dismount only within Command Range of their leader", id)
		case !st.Units[i].OffMap && enemyAdjacent(sc, st, sc.Units[i].Side, h):
			// a reinforcement off the map is next to no enemy unit, and
			// in Command (7.5): it may dismount as it begins to enter
			// (ruling R226).
			return moveErr("Blood & Roses 7.4", "%s may not dismount in %s, next to an enemy unit", id, h)
		}
		return nil
	}
	if sc.Tables.Rules.ChangeInCommand {
		// Arquebus 7.4: "To dismount, a Mounted Arquebus or Mounted
		// Crossbow unit must be: Within Command Range of their leader. Not
		// adjacent to an enemy unit. Not Disordered." The same to remount.
		// Enemy missile range does not matter (ruling R345).
		us := st.Units[i]
		switch {
		case t.Becomes == "" || other == nil:
			return moveErr("Arquebus 7.4", "%s cannot mount or dismount: only Mounted Arquebus and Mounted Crossbow units dismount, and only their foot sides remount", id)
		case word == "MOUNT" && t.Mounted || word == "DISMOUNT" && !t.Mounted:
			return moveErr("Arquebus 7.4", "%s cannot %s: it is %s already", id, strings.ToLower(word), map[bool]string{true: "mounted", false: "on foot"}[t.Mounted])
		case us.OutOfCommand:
			return moveErr("Arquebus 7.4", "%s is out of Command: a unit dismounts or remounts only within Command Range of its leader", id)
		case us.Status == Disordered:
			return moveErr("Arquebus 7.4", "%s is Disordered: a Disordered unit may not dismount or remount", id)
		case !us.OffMap && enemyAdjacent(sc, st, sc.Units[i].Side, h):
			return moveErr("Arquebus 7.4", "%s may not %s in %s, next to an enemy unit", id, strings.ToLower(word), h)
		}
		return nil
	}
	switch {
	case t.Becomes == "" || other == nil:
		return moveErr("14.2", "%s cannot mount or dismount: only Hobilars do", id)
	case word == "MOUNT" && !other.Mounted:
		return moveErr("14.2", "%s is mounted already", id)
	case word == "DISMOUNT" && other.Mounted:
		return moveErr("14.2", "%s is on foot already", id)
	case enemyAdjacent(sc, st, sc.Units[i].Side, h):
		return moveErr("14.2", "%s may not %s in %s, next to an enemy unit", id, strings.ToLower(word), h)
	case inEnemyFireRange(sc, st, sc.Units[i].Side, h):
		return moveErr("14.2", "%s may not %s in %s, within Missile Fire range of an enemy unit", id, strings.ToLower(word), h)
	}
	return nil
}

// inEnemyFireRange: an enemy missile unit is within its weapon's range of
// h (the target hex counted, the firer's not, 9.1). Line of sight and
// facing are not considered: 14.2 speaks of range alone (ruling R53).
func inEnemyFireRange(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for i, u := range sc.Units {
		us := st.Units[i]
		if u.Side == side || us.OffMap || us.Status == Eliminated || us.Status == Retired {
			continue
		}
		w := sc.Tables.Weapons[unitType(sc, st, i).Weapon]
		if w != nil && sc.Map.Grid.Distance(us.Hex, h) <= len(w.RangeDRM) {
			return true
		}
	}
	return false
}

func init() { registerEvents(ShieldWallOrdered{}) }
