package engine

import (
	"fmt"

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

// mayPassThrough reports whether unit i may move through unit j's hex.
func mayPassThrough(sc *Scenario, st *State, i, j int) bool {
	if sc.Tables.Rules.NoPassThrough {
		return false // Infidel 10.0 "even during movement"
	}
	mt, ot := unitType(sc, st, i), unitType(sc, st, j)
	return sc.Units[i].Side == sc.Units[j].Side && mt.Mounted && mt.MAA && !ot.Mounted && ot.Missile()
}

// passThroughRolls rolls for each missile unit a Mounted MAA moved through.
func (g *game) passThroughRolls(mover int, passed []int) error {
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
