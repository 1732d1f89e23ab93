package games

import (
	"fmt"
	"strings"

	"herald/engine"
	"herald/templates"
)

// roster is each army's order of battle as a state holds it, Command by
// Command, the recipient's army first: enough, with the map, to write a
// first block without the printed counters.
func roster(sc *engine.Scenario, st *engine.State, first engine.Side) []templates.Roster {
	var out []templates.Roster
	for _, side := range []engine.Side{first, 1 - first} {
		for _, c := range sc.Commands {
			if c.Side != side {
				continue
			}
			r := templates.Roster{Side: sc.SideName(side), Command: c.Name, Activate: activateName(sc, c)}
			if r.Command == "" {
				r.Command = c.ID
			}
			for i, l := range sc.Leaders {
				if l.ID == c.Leader && !st.Leaders[i].Killed {
					r.Leader = leaderLine(l, st.Leaders[i])
				}
			}
			for i, u := range sc.Units {
				if u.Command == c.ID && st.Units[i].Status != engine.Eliminated {
					r.Units = append(r.Units, rosterUnit(sc, u, st.Units[i]))
				}
			}
			if len(r.Units) > 0 {
				out = append(out, r)
			}
		}
	}
	return out
}

// activateName is the Command as ACTIVATE names it (engine.Legal): its
// leader's name, or its own without one.
func activateName(sc *engine.Scenario, c engine.CommandSpec) string {
	if l := sc.Leader(c.Leader); l != nil {
		return l.Name
	}
	return c.Name
}

func leaderLine(l engine.LeaderSpec, ls engine.LeaderState) string {
	where := ", off map"
	if !ls.OffMap {
		where = " at " + ls.Hex.String()
	}
	return fmt.Sprintf("%s%s: Activation Rating %d, Command Range %d", l.Name, where, l.AR, l.Range)
}

func rosterUnit(sc *engine.Scenario, spec engine.UnitSpec, u engine.UnitState) templates.RosterUnit {
	typ := spec.Type
	if u.Type != "" {
		typ = u.Type // a Hobilar on its other side (14.2)
	}
	r := templates.RosterUnit{ID: spec.ID, Type: typ, Hex: "off map", MA: spec.Ratings.MA, Shock: spec.Ratings.Shock}
	if !u.OffMap {
		r.Hex, r.Facing = u.Hex.String(), u.Facing.String()
	}
	if t := sc.Tables.UnitTypes[typ]; t != nil {
		r.Kind = t.Name
		if w := sc.Tables.Weapons[t.Weapon]; w != nil {
			r.Weapon = w.Name
		}
	}
	switch u.Status {
	case engine.Disordered:
		r.Status = "Disordered"
		r.MA, r.Shock = spec.Ratings.MADisordered, spec.Ratings.ShockDisordered
	case engine.Retired:
		r.Status = "Retired"
	}
	return r
}

// example is a first block for the side that acts first, checked against
// the opening position: the first Command it may activate, one of its
// units a hex forward (5.1), END. Empty when no such block is legal
// without a die roll.
func example(sc *engine.Scenario, st *engine.State) []string {
	for _, order := range engine.Legal(sc, st) {
		name, ok := strings.CutPrefix(order, "ACTIVATE ")
		if !ok || strings.HasPrefix(name, "STANDARD ") {
			continue
		}
		for i, u := range sc.Units {
			us := st.Units[i]
			if us.OffMap || us.Status == engine.Eliminated || activateName(sc, *sc.Command(u.Command)) != name {
				continue
			}
			for _, h := range sc.Map.Grid.FrontalHexes(us.Hex, us.Facing) {
				block := []string{order, fmt.Sprintf("MOVE %s %s", u.ID, h), "END"}
				if legal(sc, st, block) {
					return block
				}
			}
		}
	}
	return nil
}

// legal reports whether a block applies to st in full without rolling a
// die.
func legal(sc *engine.Scenario, st *engine.State, lines []string) bool {
	orders, err := engine.ParseOrders(engine.SplitLines(strings.Join(lines, "\n")))
	if err != nil {
		return false
	}
	res, err := engine.Apply(sc, st, st.Pending.Side, orders, engine.NewScript())
	return err == nil && res.Refused == nil && len(res.NotApplied) == 0 && len(res.Applied) == len(orders)
}

// unitTypes name the types of the rosters' units, in order of appearance:
// "CB Crossbow".
func unitTypes(rs []templates.Roster) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, u := range r.Units {
			if !seen[u.Type] && u.Kind != "" {
				seen[u.Type] = true
				out = append(out, u.Type+" "+u.Kind)
			}
		}
	}
	return out
}
