package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 8.0 STACKING. "Combat units may not stack (be together in the same hex)
// at any time—even during movement. However, Mounted MAA may voluntarily
// move through, but not stop in, a hex with a friendly Missile Infantry
// unit at the cost of one extra MP ... for each missile unit so moved
// through, the player rolls the die: 0–4 the Missile Unit is Disordered.
// If it is already Disordered, it is Retired. 5–9 nothing happens."
// Leaders and Standards stack freely.

// occupant is the combat unit in h, or -1.
func occupant(st *State, h hex.Hex) int {
	for i, us := range st.Units {
		if !us.OffMap && us.Status != Eliminated && us.Hex == h {
			return i
		}
	}
	return -1
}

// passThrough reports whether unit i may move through unit j's hex, and
// the MP it pays for it on top of the terrain.
func passThrough(sc *Scenario, st *State, i, j int) (mp int, ok bool) {
	if sc.Tables.Rules.NoPassThrough || sc.Units[i].Side != sc.Units[j].Side {
		return 0, false // Infidel 10.0 "even during movement"
	}
	mt, ot := unitType(sc, st, i), unitType(sc, st, j)
	if pt := sc.Tables.Rules.PassThrough; pt != nil {
		// Blood & Roses 10.0: "Archer, Handgun, and Longbow units may move
		// through friendly units (not Artillery and Handguns, see below)
		// at a cost of 1 MP for each such hex entered ... Other units may
		// move through friendly Artillery and Handgun units at no extra
		// cost. However, Artillery units may not move through other
		// units."
		switch {
		case slices.Contains(pt.Never, mt.Key):
			return 0, false
		case stackedHex(st, st.Units[j].Hex):
			return 0, false // Arquebus 10.0 "a friendly unit that is not stacked with another unit"
		case slices.Contains(pt.NotThrough, ot.Key):
			return 0, false // Arquebus 10.0 "not a limbered Artillery, Pike, or Sword & Buckler unit"
		case pt.Unlimbered && ot.LimberedSide && st.Units[j].Limbered:
			return 0, false // Arquebus 10.0 "friendly unlimbered Artillery units" (R312)
		case slices.Contains(pt.Free, ot.Key):
			return 0, true
		case slices.Contains(pt.Movers, mt.Key):
			return sc.Tables.Movement.PassThroughMP, true
		}
		return 0, false
	}
	if mt.Mounted && mt.MAA && !ot.Mounted && ot.Missile() {
		return sc.Tables.Movement.PassThroughMP, true // 8.0
	}
	return 0, false
}

// passThroughRule says who may move through whom under the volume's own
// pass-through (Blood & Roses 10.0), for a refusal.
func passThroughRule(sc *Scenario, pt *PassThroughRule, mover *UnitType) string {
	names := func(keys []string) string {
		var out []string
		for _, k := range keys {
			if t := sc.Tables.UnitTypes[k]; t != nil {
				out = append(out, t.Name)
			}
		}
		return orList(out)
	}
	if slices.Contains(pt.Never, mover.Key) {
		return mover.Name + " may not move through other units"
	}
	s := "combat units never stack"
	if len(sc.Tables.Rules.Stacking) > 0 {
		s = "a unit may end its move stacked only as Arquebus 10.0 allows"
	}
	if len(pt.Movers) > 0 {
		s += fmt.Sprintf("; %s may move through friendly units at %d MP more a hex", names(pt.Movers), sc.Tables.Movement.PassThroughMP)
	}
	if len(pt.NotThrough) > 0 {
		s += fmt.Sprintf(", but not through %s", names(pt.NotThrough))
	}
	if len(pt.Free) > 0 {
		s += fmt.Sprintf("; other units may move through friendly %s at no extra cost", names(pt.Free))
	}
	if pt.Unlimbered {
		s += "; Artillery is passed only unlimbered, and no unit passes a stack"
	}
	if len(sc.Tables.Rules.Stacking) > 0 {
		return s
	}
	return s + "; none may stop stacked"
}

// passThroughSection is the section a pass-through refusal cites: the
// Arquebus list (its exceptions, 10.0) or Blood & Roses 10.0's.
func passThroughSection(sc *Scenario) string {
	if pt := sc.Tables.Rules.PassThrough; pt != nil && (pt.Unlimbered || len(pt.NotThrough) > 0) {
		return "Arquebus 10.0"
	}
	return "Blood & Roses 10.0"
}

// orList joins words: "A", "A or B", "A, B or C".
func orList(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}

// passThroughRolls rolls for each missile unit a Mounted MAA moved through
// (8.0). A volume's own pass-through has no die (Blood & Roses 10.0).
func (g *game) passThroughRolls(mover int, passed []int) error {
	if g.sc.Tables.Rules.PassThrough != nil {
		return nil
	}
	for _, j := range passed {
		m, u := g.sc.Units[mover].ID, g.sc.Units[j].ID
		r, err := g.roll(fmt.Sprintf("Pass-through DR: %s through %s (8.0)", m, u))
		if err != nil {
			return err
		}
		to := g.st.Units[j].Status
		if r.Total <= g.sc.Tables.Movement.PassThroughDisorderMax {
			to = Disordered
			if g.st.Units[j].Status == Disordered {
				to = Retired
			}
		}
		g.emit(PassedThrough{Unit: m, Through: u, Roll: r, Result: to})
	}
	return nil
}

// PassedThrough: a Mounted MAA moved through a friendly missile unit,
// which rolled for its order (8.0).
type PassedThrough struct {
	Unit    string `json:"unit"`
	Through string `json:"through"`
	Roll    Roll   `json:"roll"`
	Result  Status `json:"result"`
}

func (e PassedThrough) apply(st *State) {
	st.Unit(e.Through).Status = e.Result
}

func (e PassedThrough) describe(*Scenario) string {
	what := "nothing happens" // 5–9
	switch {
	case e.Roll.Total > 4:
	case e.Result == Retired:
		what = e.Through + ", already Disordered, is Retired"
	case e.Result == Disordered:
		what = e.Through + " is Disordered"
	}
	return fmt.Sprintf("%s rides through %s: %s, %s (8.0).", e.Unit, e.Through, describeRoll(e.Roll), what)
}

func init() { registerEvents(PassedThrough{}) }
