package engine

import "herald/engine/hex"

// 7.0 ZONES OF CONTROL. "The following units, only, exert a ZOC into their
// frontal hexes: Missile Infantry; all Mounted units that are capable of
// Attacking by Shock" (7.1) — the unit type's ZOC flag in the tables.
// Retired units have no ZOC (12.4 Play Note).

// exertsZOC reports whether unit i exerts a Zone of Control now.
func exertsZOC(sc *Scenario, st *State, i int) bool {
	us := st.Units[i]
	if us.OffMap || us.Status == Eliminated || us.Status == Retired {
		return false
	}
	t := unitType(sc, st, i)
	return t != nil && t.ZOC && !zocSuppressed(sc, t.Key)
}

// enemyZOC lists the units of side's enemy whose ZOC covers h.
func enemyZOC(sc *Scenario, st *State, side Side, h hex.Hex) []int {
	var out []int
	for i, u := range sc.Units {
		if u.Side == side || !exertsZOC(sc, st, i) {
			continue
		}
		for _, f := range sc.Map.Grid.FrontalHexes(st.Units[i].Hex, st.Units[i].Facing) {
			if f == h {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// inZOCOf reports whether enemy unit e's ZOC covers h.
func inZOCOf(sc *Scenario, st *State, e int, h hex.Hex) bool {
	if !exertsZOC(sc, st, e) {
		return false
	}
	for _, f := range sc.Map.Grid.FrontalHexes(st.Units[e].Hex, st.Units[e].Facing) {
		if f == h {
			return true
		}
	}
	return false
}
