package engine

import "herald/engine/hex"

// 5.3 REINFORCEMENTS. "All reinforcing units are considered to begin in an
// off-map area adjacent to every reinforcement hex for their Command ...
// Their first MP spent moves them into any reinforcement entry hex for
// their Command ... Every reinforcing unit can spend its full MA the turn
// it enter the map ... A reinforcing leader must enter the map with his
// initial units." A reinforcement is a unit with OffMap set; its MOVE
// names an entry hex first (ruling R49 prices it).

// nextHexes are the candidate next steps of a path: the neighbours of its
// last hex, or the Command's entry hexes for a reinforcement (5.3).
func nextHexes(sc *Scenario, st *State, i int, path []hex.Hex) []hex.Hex {
	if len(path) == 0 && st.Units[i].OffMap {
		return entryHexes(sc, st, i)
	}
	return sc.Map.Grid.Neighbors(lastOr(st.Units[i].Hex, path))
}

// entryHexes are unit i's entry hexes: its Command's, an ambushing unit's
// the Ambush's (Blood & Roses 16.1), or for a unit back from a Pursuit the
// fled Battle's Standard's hex, its Hex (Blood & Roses 14.9, ruling R288).
func entryHexes(sc *Scenario, st *State, i int) []hex.Hex {
	if st.Units[i].Returning {
		return []hex.Hex{st.Units[i].Hex}
	}
	if a := ambushOf(sc, sc.Units[i].ID); a != nil {
		return a.Enter // B&R 16.1
	}
	return sc.Command(sc.Units[i].Command).Entry
}

// entryAllowed: a reinforcement's first hex is an entry hex of its
// Command (5.3), or the fled Battle's Standard for a unit back from a
// Pursuit (Blood & Roses 14.9).
func entryAllowed(sc *Scenario, st *State, i int, n hex.Hex) *moveError {
	entry := entryHexes(sc, st, i)
	if st.Units[i].Returning && !contains(entry, n) {
		return moveErr("Blood & Roses 14.9", "%s is back from a Pursuit: it enters through the fled Battle's Standard, %s", sc.Units[i].ID, hexList(entry))
	}
	if !contains(entry, n) {
		return moveErr("5.3", "%s is off the map: it enters through an entry hex of its Command (%s)", sc.Units[i].ID, hexList(entry))
	}
	return nil
}

// enemyEntryHex: "A unit may not move into a hex where enemy
// reinforcements enter the map" (5.2).
func enemyEntryHex(sc *Scenario, side Side, h hex.Hex) bool {
	for _, c := range sc.Commands {
		if c.Side != side && contains(c.Entry, h) {
			return true
		}
	}
	return false
}
