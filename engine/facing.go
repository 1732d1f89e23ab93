package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 6.0 FACING. "A unit must be faced so that the top of the unit faces one
// of the hex's vertices ... A unit may ignore this facing when moving, but
// once it stops movement it must be faced in a specific direction" (6.1).
// A MOVE ends with its FACE; FACE turns a unit in place. "Units in an
// enemy ZOC may only change facing one vertex, if they stay in the hex"
// (6.2); a unit in Shield Wall turns one vertex per Activation (14.1). The
// geometry (vertices, Frontal, Flank and Rear hexes) is in engine/hex.

// Face changes a unit's facing without moving (6.2): "FACE LB1 NE".
type Face struct {
	at
	Unit string
	Dir  string
}

func (o Face) String() string { return "FACE " + o.Unit + " " + o.Dir }

func parseFace(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "FACE <unit> <E|NE|NW|W|SW|SE>"
	if len(rest) != 2 {
		return nil, syntax("FACE needs a unit and a vertex", form)
	}
	if _, err := hex.ParseFacing(rest[1]); err != nil {
		return nil, syntax(fmt.Sprintf("%q is not a vertex: E, NE, NW, W, SW or SE", rest[1]), form)
	}
	return Face{at: a, Unit: rest[0], Dir: strings.ToUpper(rest[1])}, nil
}

// face carries out a FACE order: a change of facing in place (6.2).
func (g *game) face(o Face) error {
	if g.st.Pending.Kind != DecideActions || g.st.Command == "" && !g.st.Army {
		return g.illegal(o, "6.2", "units change facing only when their Command is activated")
	}
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	i, ok := g.findUnit(o.Unit)
	if !ok {
		return g.illegal(o, "6.2", fmt.Sprintf("the %s have no unit called %q", g.sc.SideName(g.st.Pending.Side), o.Unit)+g.unitHint(g.st.Pending.Side, o.Unit, false))
	}
	if err := g.mayMove(o, i); err != nil {
		return err
	}
	us := g.st.Units[i]
	if us.OffMap {
		return g.illegal(o, "5.3", g.sc.Units[i].ID+" is off the map: it faces when it enters")
	}
	to, _ := hex.ParseFacing(o.Dir)
	if h, ok := mustDisengage(g.sc, g.st, i); ok {
		return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s is Engaged and not eligible to Shock attack: it must Disengage, as it can; legal: MOVE %s %s", g.sc.Units[i].ID, g.sc.Units[i].ID, h))
	}
	if isEngaged(g.st, i) {
		// Arquebus 14.5: staying, it turns to face the units it is Engaged with.
		if fs := engagedFacings(g.sc, g.st, i); !slices.Contains(fs, to) {
			return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s is Engaged with %s: staying in its hex it may face only %s (it cannot turn with one of them in its Frontal hexes, else it turns one or two vertexes to face the most of them), or Disengage with MOVE",
				g.sc.Units[i].ID, strings.Join(us.EngagedWith, ", "), facingNames(fs)))
		}
		g.emit(UnitFaced{Unit: g.sc.Units[i].ID, Facing: to})
		return nil
	}
	if us.ShieldWall && hex.VertexSteps(us.Facing, to) > 1 {
		return g.illegal(o, "14.1", fmt.Sprintf("%s stands in Shield Wall: it may turn one vertex only, to %s or %s",
			g.sc.Units[i].ID, us.Facing.Turn(1), us.Facing.Turn(-1)))
	}
	if us.Schiltron && hex.VertexSteps(us.Facing, to) > 1 {
		return g.illegal(o, "R89", fmt.Sprintf("%s stands in Schiltron: it may turn one vertex only, to %s or %s",
			g.sc.Units[i].ID, us.Facing.Turn(1), us.Facing.Turn(-1)))
	}
	if len(enemyZOC(g.sc, g.st, g.sc.Units[i].Side, us.Hex)) > 0 && hex.VertexSteps(us.Facing, to) > 1 {
		return g.illegal(o, "6.2", fmt.Sprintf("%s is in an enemy ZOC: staying in its hex it may turn one vertex only, to %s or %s",
			g.sc.Units[i].ID, us.Facing.Turn(1), us.Facing.Turn(-1)))
	}
	// Blood & Roses 8.0: "A unit, regardless of Command status, that
	// begins its Activation adjacent to an enemy unit may change facing
	// one vertex if it does not move out of its starting hex."
	if g.sc.Tables.Rules.AdjacencyLimits && enemyAdjacent(g.sc, g.st, g.sc.Units[i].Side, us.Hex) && hex.VertexSteps(us.Facing, to) > 1 {
		return g.illegal(o, "Blood & Roses 8.0", fmt.Sprintf("%s is adjacent to an enemy unit: staying in its hex it may turn one vertex only, to %s or %s",
			g.sc.Units[i].ID, us.Facing.Turn(1), us.Facing.Turn(-1)))
	}
	e := UnitFaced{Unit: g.sc.Units[i].ID, Facing: to}
	if j := partner(g.st, i); j >= 0 {
		e.With = g.sc.Units[j].ID // Arquebus 10.1: stacked units face alike (R362)
	}
	g.emit(e)
	return nil
}

// UnitFaced: a unit changed facing in its hex (6.2). With is the unit
// stacked with it, which turns too (Arquebus 10.1) but has not acted.
type UnitFaced struct {
	Unit   string     `json:"unit"`
	Facing hex.Facing `json:"facing"`
	With   string     `json:"with,omitempty"`
}

func (e UnitFaced) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Facing, u.Moved, u.Acted = e.Facing, true, true
	st.Acting = e.Unit
	if e.With != "" {
		st.Unit(e.With).Facing = e.Facing
	}
}

func (e UnitFaced) describe(*Scenario) string {
	if e.With != "" {
		return fmt.Sprintf("%s turns to face %s, and %s, stacked with it, with it (6.2, Arquebus 10.1).", e.Unit, e.Facing, e.With)
	}
	return fmt.Sprintf("%s turns to face %s (6.2).", e.Unit, e.Facing)
}

func init() { registerEvents(UnitFaced{}) }
