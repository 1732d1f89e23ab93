package engine

import (
	"fmt"
	"slices"

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
	units := func(h hex.Hex) string {
		if !overUnits {
			if o := occupant(st, h); o >= 0 {
				return fmt.Sprintf("%s in %s (only archers fire over units)", sc.Units[o].ID, h)
			}
		}
		return ""
	}
	return lineOfSight(sc, from, to, units)
}

// lineOfSight is LineOfSight with what else blocks in an intervening hex
// (units, a weapon's own blocking terrain) given by more.
func lineOfSight(sc *Scenario, from, to hex.Hex, more func(hex.Hex) string) (ok bool, blockedBy string) {
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
		return more(h)
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
	return hexsidesOfSight(sc, from, to)
}

// hexsidesOfSight: a line that crosses a hexside whose feature blocks LOS
// (HexsideType.BlocksLOS) is blocked, whichever hexes the hexside joins
// (Arquebus 11.4: "Units may not fire through a Wall hexside"). As for
// hedgerows (ruling R246), a hexside is crossed where the line passes from
// one hex into the next; one it runs along or meets at a vertex only is
// not (ruling R401).
func hexsidesOfSight(sc *Scenario, from, to hex.Hex) (ok bool, blockedBy string) {
	if !hexsidesBlock(sc) {
		return true, ""
	}
	for _, c := range crossedHexsides(sc, from, to) {
		for _, f := range featuresBetween(&sc.Map, c[0], c[1]) {
			if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.BlocksLOS {
				name := t.Name
				if name == "" {
					name = t.Key
				}
				return false, fmt.Sprintf("the %s hexside %s|%s (Arquebus 11.4)", name, c[0], c[1])
			}
		}
	}
	return true, ""
}

// hexsidesBlock: some hexside feature of the tables blocks LOS.
func hexsidesBlock(sc *Scenario) bool {
	for _, t := range sc.Tables.Hexsides {
		if t.BlocksLOS {
			return true
		}
	}
	return false
}

// FireLineOfSight is the line of sight of unit firer's weapon w to the hex
// at (9.4), with the changes of Blood & Roses 11.4 its tables switch on:
//
//   - "Units do not block LOS for Archers and Longbows (they're actually
//     firing over them), unless it is a friendly unit which is adjacent to
//     the target" (rules.over_units_friend_adjacent);
//   - LOS is blocked "for Handguns by Hedgerow/Brush hexes and Hedgerow
//     hexsides which are not part of the firing or target unit's hex"
//     (the weapon's hedgerow_blocks). A hexside is crossed where the line
//     passes from one hex it crosses into the next; one it runs along, or
//     meets at a vertex only, is not (ruling R246).
func FireLineOfSight(sc *Scenario, st *State, firer int, w *Weapon, at hex.Hex) (ok bool, blockedBy string) {
	from, side := st.Units[firer].Hex, sc.Units[firer].Side
	friendAdjacent := w.OverUnits && sc.Tables.Rules.OverUnitsFriendAdjacent
	more := func(h hex.Hex) string {
		if o := occupant(st, h); o >= 0 {
			switch {
			case !w.OverUnits:
				return fmt.Sprintf("%s in %s (only archers fire over units)", sc.Units[o].ID, h)
			case friendAdjacent && sc.Units[o].Side == side && sc.Map.Grid.Distance(h, at) == 1:
				return fmt.Sprintf("%s in %s, a friendly unit next to the target (B&R 11.4)", sc.Units[o].ID, h)
			case sc.Tables.Rules.RainingFire:
				if why := rainingFireBlocked(sc, st, from, at, o); why != "" {
					return fmt.Sprintf("%s in %s (Arquebus 11.4 Raining Fire: %s)", sc.Units[o].ID, h, why)
				}
			}
		}
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(h)]; w.HedgerowBlocks && tt != nil && tt.Hedgerow {
			return fmt.Sprintf("%s in %s (B&R 11.4: hedgerows block a %s's line of sight)", terrainName(tt), h, weaponName(w))
		}
		return ""
	}
	if ok, why := lineOfSight(sc, from, at, more); !ok {
		return false, why
	}
	if w.HedgerowBlocks {
		for _, c := range crossedHexsides(sc, from, at) {
			if c[0] == from || c[1] == at {
				continue // "not part of the firing or target unit's hex"
			}
			if f := hedgerowBetween(sc, c[0], c[1]); f != "" {
				return false, fmt.Sprintf("the %s hexside %s|%s (B&R 11.4: hedgerows block a %s's line of sight)", f, c[0], c[1], weaponName(w))
			}
		}
	}
	return true, ""
}

// rainingFireBlocked says why unit o, in a hex the line from a firer in
// from to the target in at passes, blocks a weapon that fires over units
// under Arquebus 11.4 Raining Fire, or "": "Longbows and Light Cavalry
// Archers may fire "through" (they're actually firing over them)
// adjacent, intervening units at a target two hexes distant, unless the
// intervening hex contains a friendly unit which is Engaged with the
// target" (rules.raining_fire; ruling R405).
func rainingFireBlocked(sc *Scenario, st *State, from, at hex.Hex, o int) string {
	if sc.Map.Grid.Distance(from, at) != 2 {
		return "only over a unit next to the firer, at a target two hexes off"
	}
	if t := occupant(st, at); t >= 0 && sc.Units[o].Side != sc.Units[t].Side && engagedWith(sc, st, o, t) {
		return fmt.Sprintf("not over a friendly unit Engaged with %s", sc.Units[t].ID)
	}
	return ""
}

// engagedWith reports whether unit a carries an ENGAGED marker for unit b
// (Arquebus 14.5). Mostly b carries one for a too, and 14.5 keeps it from
// being fired at at all; after b received a Continued Attack only a's
// marker stays (ruling R381), and then Raining Fire's exception decides.
func engagedWith(sc *Scenario, st *State, a, b int) bool {
	return slices.Contains(st.Units[a].EngagedWith, sc.Units[b].ID)
}

func terrainName(tt *TerrainType) string {
	if tt.Name != "" {
		return tt.Name
	}
	return tt.Key
}

// crossedHexsides are the hexsides the line from a to b crosses, as pairs
// of the hex it leaves and the hex it enters, in order (ruling R246).
func crossedHexsides(sc *Scenario, a, b hex.Hex) [][2]hex.Hex {
	var out [][2]hex.Hex
	prev, ok := a, true
	step := func(h hex.Hex) {
		if ok && sc.Map.Grid.Distance(prev, h) == 1 {
			out = append(out, [2]hex.Hex{prev, h})
		}
		prev, ok = h, true
	}
	for _, s := range sc.Map.Grid.Line(a, b) {
		switch s.Kind {
		case hex.Through:
			step(s.Hex)
		case hex.Along:
			ok = false
		}
	}
	step(b)
	return out
}

// hedgerowBetween names a hedgerow hexside feature between two adjacent
// hexes, or "".
func hedgerowBetween(sc *Scenario, a, b hex.Hex) string {
	for _, f := range featuresBetween(&sc.Map, a, b) {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.Hedgerow {
			if t.Name != "" {
				return t.Name
			}
			return t.Key
		}
	}
	return ""
}

// hedgerowCover: "If a LOS is traced through a Hedgerow/Brush hex or
// Hedgerow hexside to a non-missile unit adjacent to the Hedgerow/Brush
// hex or Hedgerow hexside, it and any leader stacked with it in are
// unaffected by incoming missile fire, unless the target and the firer
// are in adjacent hexes" (B&R 11.4; rules.hedgerow_cover). A unit is next
// to a hedgerow hexside that is one of its own hex's (ruling R247). It
// returns the hedgerow that covers unit target from unit firer, or "".
func hedgerowCover(sc *Scenario, st *State, firer, target int) string {
	if !sc.Tables.Rules.HedgerowCover || unitType(sc, st, target).Missile() {
		return ""
	}
	from, to := st.Units[firer].Hex, st.Units[target].Hex
	if sc.Map.Grid.Distance(from, to) <= 1 {
		return ""
	}
	for _, s := range sc.Map.Grid.Line(from, to) {
		if s.Kind != hex.Through || sc.Map.Grid.Distance(s.Hex, to) != 1 {
			continue
		}
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(s.Hex)]; tt != nil && tt.Hedgerow {
			return fmt.Sprintf("the %s in %s", terrainName(tt), s.Hex)
		}
	}
	for _, c := range crossedHexsides(sc, from, to) {
		if c[1] == to {
			if f := hedgerowBetween(sc, c[0], c[1]); f != "" {
				return fmt.Sprintf("the %s hexside %s|%s", f, c[0], c[1])
			}
		}
	}
	return ""
}

// overUnitsHex: the line from a to b passes through one or more hexes
// occupied by units (B&R 11.4: "Fire from an Archer or Longbow through one
// or more hexes occupied by units receives a -1 DRM"): a hex it crosses,
// or both hexes of a hexside it runs along (ruling R245). It returns the
// first such hex, or "".
func overUnitsHex(sc *Scenario, st *State, a, b hex.Hex) string {
	for _, s := range sc.Map.Grid.Line(a, b) {
		switch {
		case s.Kind == hex.Through && occupant(st, s.Hex) >= 0:
			return s.Hex.String()
		case s.Kind == hex.Along && occupant(st, s.Hex) >= 0 && occupant(st, s.Other) >= 0:
			return s.Hex.String() + " and " + s.Other.String()
		}
	}
	return ""
}
