package engine

import (
	"fmt"

	"herald/engine/hex"
)

// 13.0 RALLYING UNITS

// 13.1 Rally: in Phase D, a Disordered unit of the activated Command that
// did nothing for the entire Activation (moved, changed facing, fired,
// rearmed, attacked or was attacked) and is not adjacent to an enemy unit
// flips back to its normal side. "Rearmed" is a change of how the unit is
// armed or arrayed: a Hobilar's mount or dismount, entering or leaving
// Shield Wall or Schiltron (ruling R90).
func (g *game) rallyPhase() {
	st := g.st
	for i, u := range g.sc.Units {
		us := st.Units[i]
		if unitCommand(g.sc, g.st, i) != st.Command || us.Status != Disordered || us.Acted || us.Rearmed || us.OffMap {
			continue
		}
		if g.adjacentEnemy(u.Side, us.Hex) {
			continue
		}
		g.emit(UnitRallied{Unit: u.ID, To: Normal, Rule: "13.1"})
	}
}

// adjacentEnemy reports whether a combat unit of the side opposing side
// stands next to h.
func (g *game) adjacentEnemy(side Side, h hex.Hex) bool {
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if u.Side == side || us.OffMap || us.Status == Eliminated {
			continue
		}
		if g.sc.Map.Grid.Distance(h, us.Hex) == 1 {
			return true
		}
	}
	return false
}

// 13.2 Standards: activated only in a Free Activation, a Standard either
// rallies the Retired units of its Commands in or within one hex of it that
// are not adjacent to an enemy unit (they become Disordered, or Normal if
// they have no Disordered side: Infidel 2.2, ruling R179), or moves to any
// hex, and each Retired unit within one hex of it before it moves rolls: the
// die plus its Disordered Shock DRM, 5 or more eliminates it.
func (g *game) activateStandard(o Activate) error {
	st := g.st
	side := st.Pending.Side
	id, ok := g.findStandard(side, o.Name)
	if !ok {
		return g.illegal(o, "13.2", fmt.Sprintf("the %s have no Standard called %q", g.sc.SideName(side), o.Name))
	}
	if st.Standard(id).Captured {
		return g.illegal(o, "13.2", fmt.Sprintf("the %s Standard has been captured", standardName(g.sc, id)))
	}
	if o.MoveTo == "" {
		g.emit(StandardActivated{Side: side, Standard: id})
		g.replaceLeaders(side)
		g.rallyRetired(id)
		return g.endActivation()
	}
	to, err := hex.Parse(o.MoveTo)
	if err != nil || !g.sc.Map.Grid.Contains(to) {
		return g.illegal(o, "13.2", fmt.Sprintf("%q is not a hex of this map", o.MoveTo))
	}
	if g.enemyUnitAt(side, to) {
		return g.illegal(o, "13.2", fmt.Sprintf("an enemy unit stands in %s", to))
	}
	if g.sc.Tables.Rules.StandardsDisplaced && entryHex(g.sc, to) {
		// Arquebus 15.2: "moved to any hex on the game-map (not a Reinforcement hex)".
		return g.illegal(o, "ARQ 15.2", fmt.Sprintf("%s is a Reinforcement hex: an Activated Standard may be moved to any hex on the map but a Reinforcement hex", to))
	}
	g.emit(StandardActivated{Side: side, Standard: id, MoveTo: o.MoveTo})
	g.replaceLeaders(side)
	if err := g.standardDepartureRolls(id); err != nil {
		return err
	}
	g.emit(StandardMoved{Standard: id, To: to})
	return g.endActivation()
}

// standardCommands reports whether unit i uses Standard std.
func (g *game) usesStandard(i int, std string) bool {
	c := g.sc.Command(unitCommand(g.sc, g.st, i))
	return c != nil && c.Standard == std
}

func (g *game) rallyRetired(std string) {
	at := g.st.Standard(std).Hex
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if !g.usesStandard(i, std) || us.Status != Retired || us.OffMap {
			continue
		}
		if g.sc.Map.Grid.Distance(at, us.Hex) > 1 || g.adjacentEnemy(u.Side, us.Hex) {
			continue
		}
		if unitType(g.sc, g.st, i).NoDisorderedSide {
			// "make sure the units are in Disordered status" (Infidel
			// 15.1), but "If there is no reverse side, the unit cannot be
			// Disordered" (2.2): it rallies to its one side (ruling R179).
			g.emit(UnitRallied{Unit: u.ID, To: Normal, Retired: true, Rule: "13.1, 13.2; Infidel 2.2, it has no Disordered side"})
			continue
		}
		g.emit(UnitRallied{Unit: u.ID, To: Disordered, Retired: true, Rule: "13.1, 13.2"})
	}
}

func (g *game) standardDepartureRolls(std string) error {
	at := g.st.Standard(std).Hex
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if !g.usesStandard(i, std) || us.Status != Retired || us.OffMap || g.sc.Map.Grid.Distance(at, us.Hex) > 1 {
			continue
		}
		var mods []Modifier
		if !g.sc.Tables.Rules.StandardsDisplaced {
			mods = []Modifier{{DRM: ratings(g.sc, g.st, i).ShockDisordered, Reason: "its Disordered Shock DRM", Rule: "13.2"}}
		} // Arquebus 15.2: "Roll one die. If the DR is a 5 or more, that Retired unit is now Eliminated" (R430)
		r, err := g.roll(fmt.Sprintf("Standard moves: Retired %s", u.ID), mods...)
		if err != nil {
			return err
		}
		g.emit(StandardLeftUnit{Unit: u.ID, Roll: r, Eliminated: r.Total >= 5})
	}
	return nil
}

func (g *game) enemyUnitAt(side Side, h hex.Hex) bool {
	for i, u := range g.sc.Units {
		us := g.st.Units[i]
		if u.Side != side && !us.OffMap && us.Status != Eliminated && us.Hex == h {
			return true
		}
	}
	return false
}

// UnitRallied: a unit recovers: Disordered to Normal (13.1) or Retired to
// Disordered (13.2); a Retired unit with no Disordered side to Normal
// (Infidel 2.2, ruling R179). Retired marks a rally from Retired (events
// recorded before it have it only from To: Disordered).
type UnitRallied struct {
	Unit    string `json:"unit"`
	To      Status `json:"to"`
	Retired bool   `json:"retired,omitempty"`
	Rule    string `json:"rule"`
}

func (e UnitRallied) apply(st *State) { st.Unit(e.Unit).Status = e.To }
func (e UnitRallied) describe(sc *Scenario) string {
	switch {
	case e.To == Normal && e.Retired:
		return fmt.Sprintf("%s rallies at its Standard: no longer Retired, and in good order, having no Disordered side (%s).", e.Unit, e.Rule)
	case e.To == Normal:
		return fmt.Sprintf("%s rallies: no longer Disordered (%s).", e.Unit, e.Rule)
	}
	return fmt.Sprintf("%s rallies at its Standard: no longer Retired, now Disordered (%s).", e.Unit, e.Rule)
}

// StandardActivated: a Standard is activated in a Free Activation (13.2).
type StandardActivated struct {
	Side     Side   `json:"side"`
	Standard string `json:"standard"`
	MoveTo   string `json:"move_to,omitempty"`
}

func (e StandardActivated) apply(st *State) {
	st.Phase, st.Active, st.Kind = PhaseRally, e.Side, FreeActivation
	st.Command, st.ActiveStandard = "", e.Standard
	st.Pending = Decision{}
	st.Activations++
}

func (e StandardActivated) describe(sc *Scenario) string {
	if e.MoveTo != "" {
		return fmt.Sprintf("The %s activate the %s Standard to move it to %s (13.2).", sc.SideName(e.Side), standardName(sc, e.Standard), e.MoveTo)
	}
	return fmt.Sprintf("The %s activate the %s Standard to rally Retired units (13.2).", sc.SideName(e.Side), standardName(sc, e.Standard))
}

// StandardLeftUnit: the roll for a Retired unit the moving Standard leaves
// behind (13.2).
type StandardLeftUnit struct {
	Unit       string `json:"unit"`
	Roll       Roll   `json:"roll"`
	Eliminated bool   `json:"eliminated"`
}

func (e StandardLeftUnit) apply(st *State) {
	if e.Eliminated {
		st.Unit(e.Unit).Status = Eliminated
	}
}

func (e StandardLeftUnit) describe(sc *Scenario) string {
	if e.Eliminated {
		return fmt.Sprintf("Retired %s left by its Standard: %s, 5 or more: Eliminated (13.2).", e.Unit, describeRoll(e.Roll))
	}
	return fmt.Sprintf("Retired %s left by its Standard: %s, less than 5: no effect (13.2).", e.Unit, describeRoll(e.Roll))
}

// StandardMoved: a Standard moves to any hex (13.2), or is moved by an
// enemy unit entering its hex (By, Arquebus 15.2).
type StandardMoved struct {
	Standard string  `json:"standard"`
	To       hex.Hex `json:"to"`
	By       string  `json:"by,omitempty"`
}

func (e StandardMoved) apply(st *State) { st.Standard(e.Standard).Hex = e.To }
func (e StandardMoved) describe(sc *Scenario) string {
	if e.By != "" {
		return fmt.Sprintf("%s enters the hex of the %s Standard, which is not captured: it moves to %s (Arquebus 15.2).", e.By, standardName(sc, e.Standard), e.To)
	}
	return fmt.Sprintf("The %s Standard moves to %s (13.2).", standardName(sc, e.Standard), e.To)
}

// displaceStandard: Arquebus 15.2 "Standards may be moved by enemy
// action if an enemy unit enters the hex with the Standard. When a
// Standard is moved, the player follows the same procedure for moving an
// Activated Standard": the Retired units of its Battles in or within one
// hex of it roll, 5 or more Eliminated, and it goes to a hex of the map
// that is not a Reinforcement hex. Herald places it in the hex nearest
// its own that holds no enemy unit and is next to none, the lowest hex id
// on a tie (ruling R428).
func (g *game) displaceStandard(id string, side Side, by string) error {
	if err := g.standardDepartureRolls(id); err != nil {
		return err
	}
	if to, ok := standardRefuge(g.sc, g.st, side, g.st.Standard(id).Hex); ok {
		g.emit(StandardMoved{Standard: id, To: to, By: by})
	}
	return nil
}

// standardRefuge is where a displaced Standard of side goes from h (R428).
func standardRefuge(sc *Scenario, st *State, side Side, h hex.Hex) (hex.Hex, bool) {
	best, found := hex.Hex{}, false
	for col := sc.Map.Grid.MinCol; col <= sc.Map.Grid.MaxCol; col++ {
		for row := sc.Map.Grid.MinRow; row <= sc.Map.Grid.MaxRow; row++ {
			x := hex.Hex{Col: col, Row: row}
			if !sc.Map.Grid.Contains(x) || x == h || entryHex(sc, x) || enemyUnitWithin(sc, st, side, x, 1) {
				continue
			}
			if d, bd := sc.Map.Grid.Distance(h, x), sc.Map.Grid.Distance(h, best); !found || d < bd || d == bd && x.String() < best.String() {
				best, found = x, true
			}
		}
	}
	return best, found
}

// entryHex: h is a Reinforcement hex of any Command (5.3).
func entryHex(sc *Scenario, h hex.Hex) bool {
	for _, c := range sc.Commands {
		if contains(c.Entry, h) {
			return true
		}
	}
	return false
}

// enemyUnitWithin: an enemy unit of side stands within n hexes of h.
func enemyUnitWithin(sc *Scenario, st *State, side Side, h hex.Hex, n int) bool {
	for i, u := range sc.Units {
		if u.Side != side && onField(st, i) && sc.Map.Grid.Distance(h, st.Units[i].Hex) <= n {
			return true
		}
	}
	return false
}

func init() {
	registerEvents(UnitRallied{}, StandardActivated{}, StandardLeftUnit{}, StandardMoved{})
}

// activatableStandards are a side's Standards that are not captured.
func activatableStandards(sc *Scenario, st *State, side Side) []string {
	var out []string
	for i, s := range sc.Standards {
		if s.Side == side && !st.Standards[i].Captured {
			out = append(out, s.ID)
		}
	}
	return out
}
