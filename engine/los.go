package engine

import (
	"fmt"

	"herald/engine/hex"
)

// 9.4 LINE OF SIGHT (LOS). "A unit must be able to see a unit to fire at
// it. To do so, the player must be able to trace an unblocked LOS from the
// center of the firing hex to the center of the target hex. LOS is blocked:
// by Woods, Town, Castle, Building, and Village hexes. You may fire into
// these hexes, but not through one. [...] if the LOS passes through any
// intervening slope which is higher of greater elevation than both the
// firing and target hex. [...] Crossbowmen may not fire through other
// units." CLARIFICATION: blocking terrain makes the entire hex blocking.
// LOS AND HEXSIDES: "A LOS may be traced along a hexside if only one of the
// hexes tangent to the hexside contains blocking terrain."

// LineOfSight reports whether a LOS runs from the centre of from to the
// centre of to (9.4); when it does not, blockedBy says what blocks it
// ("Woods in 0504"). overUnits is the firer's weapon's Weapon.OverUnits:
// when false (crossbows), an intervening hex holding any combat unit,
// friendly or enemy, blocks.
//
// The hexes the line meets between its ends (hex.Grid.Line) are judged
// one by one. An intervening hex blocks when its terrain blocks LOS (the
// tables' BlocksLOS), when its elevation level is higher than both the
// firing and the target hex's (ruling R57: the "slope" is the higher
// ground a slope hexside leads up to; hexside features themselves do not
// block), or, for a weapon that may not fire over units, when a combat
// unit is in it. The firing and target hexes never block: fire goes into
// and out of blocking terrain (B&R and Arquebus 11.4 say "into and out
// of"; ruling R59). A line running along a hexside is blocked only when both hexes of
// the hexside block, for whatever reasons (9.4 LOS AND HEXSIDES; B&R 11.4
// "blocking terrain and/or a unit"). A hex the line only touches at a
// corner never blocks (ruling R58): at that vertex the line passes
// between it and the two hexes it crosses before and after, which block
// on their own if they block at all (B&R and Arquebus 11.4: "past a hex
// vertex if blocking terrain/units is not on both sides of the LOS").
func LineOfSight(sc *Scenario, st *State, from, to hex.Hex, overUnits bool) (ok bool, blockedBy string) {
	lf, lt := sc.Map.Elevation[from], sc.Map.Elevation[to]
	blocks := func(h hex.Hex) string {
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(h)]; tt != nil && tt.BlocksLOS {
			name := tt.Name
			if name == "" {
				name = tt.Key
			}
			return fmt.Sprintf("%s in %s", name, h)
		}
		if l := sc.Map.Elevation[h]; l > lf && l > lt {
			return fmt.Sprintf("higher ground in %s (level %d; %s is at level %d, %s at level %d)", h, l, from, lf, to, lt)
		}
		if !overUnits {
			if o := occupant(st, h); o >= 0 {
				return fmt.Sprintf("%s in %s (only archers fire over units)", sc.Units[o].ID, h)
			}
		}
		return ""
	}
	for _, s := range sc.Map.Grid.Line(from, to) {
		switch s.Kind {
		case hex.Through:
			if why := blocks(s.Hex); why != "" {
				return false, why
			}
		case hex.Along:
			a, b := blocks(s.Hex), blocks(s.Other)
			if a != "" && b != "" {
				return false, fmt.Sprintf("%s and %s, on both sides of the hexside %s|%s the line runs along", a, b, s.Hex, s.Other)
			}
		case hex.Corner:
			// Never blocks on its own (ruling R58).
		}
	}
	return true, ""
}
