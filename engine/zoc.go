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
			if f == h && zocInto(sc, st, i, f) {
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
			return zocInto(sc, st, e, f)
		}
	}
	return false
}

// zocInto: unit i's ZOC reaches its Frontal hex f. Under the tables'
// Rules.ZOCTerrain, "Zones of Control do not extend into or across hexes
// or hexsides that a unit is prohibited from entering or crossing"
// (Infidel 9.0): not where the Terrain Effects Chart says NA for the
// unit's class from its hex into f. Men of Iron's ZOC reaches every
// Frontal hex (7.1).
func zocInto(sc *Scenario, st *State, i int, f hex.Hex) bool {
	if !sc.Tables.Rules.ZOCTerrain || !sc.Map.Grid.Contains(f) {
		return true
	}
	return enterCost(sc, st.Units[i].Hex, f, unitType(sc, st, i).Class()) != NA
}
