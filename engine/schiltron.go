package engine

import (
	"fmt"
	"strings"
)

// Schiltron: "The specialized Scots version of Shield Wall, a schiltron,
// is found in the rules for battles with Scots" (14.1 Design Note); 10.4
// #9 gives it "a negative DRM; see the individual rules", and 12.7's Play
// Note: "If a Pike unit in Schiltron is not Retired or eliminated and does
// not retreat when a Continued Attack results against it, the attacker
// does not Advance, but must continue to attack." The Battle Book is not
// among Herald's sources, so the rule is Herald's own (ruling R89), drawn
// from the history of Falkirk (1298) and Bannockburn (1314): a ring of
// pikes with no flank, that horsemen could not break and archers could.
//
//   - Units of a type the tables mark `schiltron` (Pike) form it as
//     Shield Wall is formed: at set-up (the battle's `schiltron: true`) or
//     by SCHILTRON upon activation, before anything else; SCHILTRON OFF
//     breaks it. A Disordered unit cannot form it, and one in Schiltron
//     that becomes Disordered stays in it.
//   - It may not move nor Shock attack, and turns one vertex at most.
//   - Shock attacked through any hexside it earns shock_drm.schiltron,
//     and no Angle of Attack DRM applies against it (10.4 #2A): a ring
//     has no Flank or Rear.
//   - It may not be Charged at all (a Charge loses itself on the pikes;
//     the horsemen Shock instead).
//   - It does not retreat: the Retreat part of any result, fire or
//     Shock, is replaced by Disorder if it was Normal, by nothing if
//     Disordered (as No Retreat, ruling R115), so its attacker does not
//     Advance and, with a Continued Attack, must attack it again (12.7
//     Play Note). Retired or Eliminated, it is broken.
//   - Missile fire gets no DRM against it: Falkirk's archers broke the
//     schiltrons the English horse could not.

// SchiltronOrder forms the activated Command's eligible units into
// Schiltron, or breaks it: "SCHILTRON", "SCHILTRON OFF".
type SchiltronOrder struct {
	at
	Off bool
}

func (o SchiltronOrder) String() string {
	if o.Off {
		return "SCHILTRON OFF"
	}
	return "SCHILTRON"
}

func parseSchiltron(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	switch {
	case len(rest) == 0:
		return SchiltronOrder{at: a}, nil
	case len(rest) == 1 && strings.EqualFold(rest[0], "OFF"):
		return SchiltronOrder{at: a, Off: true}, nil
	}
	return nil, syntax("SCHILTRON takes nothing but OFF", "SCHILTRON", "SCHILTRON OFF")
}

// schiltron carries out a Schiltron order.
func (g *game) schiltron(o SchiltronOrder) error {
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	if g.commandHasActed() {
		return g.illegal(o, "R89", "Schiltron is ordered upon activation, before any unit of the Command does anything, as Shield Wall is (14.1)")
	}
	if err := g.wallLimit(o, o.Off); err != nil {
		return err
	}
	var units []string
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if unitCommand(g.sc, g.st, i) != g.st.Command || !onField(g.st, i) || us.Schiltron == !o.Off {
			continue
		}
		if !o.Off && (!unitType(g.sc, g.st, i).Schiltron || us.Status != Normal || us.ShieldWall) {
			continue
		}
		units = append(units, u.ID)
	}
	if len(units) == 0 {
		what := "no unit of the Command may form Schiltron now (Pike units, not Disordered, not in Shield Wall)"
		if o.Off {
			what = "no unit of the Command stands in Schiltron"
		}
		return g.illegal(o, "R89", what)
	}
	g.emit(SchiltronOrdered{Command: g.st.Command, Units: units, On: !o.Off})
	return nil
}

// SchiltronOrdered: units formed Schiltron, or broke it (ruling R89).
type SchiltronOrdered struct {
	Command string   `json:"command"`
	Units   []string `json:"units"`
	On      bool     `json:"on"`
}

func (e SchiltronOrdered) apply(st *State) {
	for _, id := range e.Units {
		u := st.Unit(id)
		u.Schiltron, u.Rearmed = e.On, true
	}
	if e.On {
		countWallOrder(st, e.Command) // the battle's limit (R110)
	}
}

func (e SchiltronOrdered) describe(sc *Scenario) string {
	if e.On {
		return fmt.Sprintf("%s forms Schiltron: %s (Herald's rule R89).", commandName(sc, e.Command), strings.Join(e.Units, ", "))
	}
	return fmt.Sprintf("%s breaks Schiltron: %s (Herald's rule R89).", commandName(sc, e.Command), strings.Join(e.Units, ", "))
}

func init() { registerEvents(SchiltronOrdered{}) }

// schiltronMove: a unit in Schiltron may not move.
func schiltronMove(sc *Scenario, st *State, i int) *moveError {
	if st.Units[i].Schiltron {
		return moveErr("R89", "%s stands in Schiltron and may not move (SCHILTRON OFF upon activation breaks it)", sc.Units[i].ID)
	}
	return nil
}

// schiltronForms are the SCHILTRON orders open upon activation, for Legal.
func schiltronForms(sc *Scenario, st *State) []string {
	on, may := false, false
	for i := range sc.Units {
		us := st.Units[i]
		if unitCommand(sc, st, i) != st.Command || !onField(st, i) {
			continue
		}
		on = on || us.Schiltron
		may = may || !us.Schiltron && !us.ShieldWall && us.Status == Normal && unitType(sc, st, i).Schiltron
	}
	var out []string
	if may && mayOrderWall(sc, st, st.Command) {
		out = append(out, "SCHILTRON")
	}
	if on {
		out = append(out, "SCHILTRON OFF")
	}
	return out
}

// inSchiltron: defender j stands in Schiltron (for the Angle of Attack,
// the DRM and the Charge).
func inSchiltron(st *State, j int) bool { return st.Units[j].Schiltron }
