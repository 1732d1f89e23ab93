package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// 11.0 CHARGING. "Charge is not Movement; it is part of combat" (11.1):
// no Movement Points, but it triggers Reaction Fire (9.2 "moves ... or
// Charges"). This file holds who may Charge whom along which path (11.1,
// 11.3, 14.1, 15.2), the charger's placement next to its target and the
// Charge Reluctance roll (11.4).

// mayCharge says why unit i may not Charge unit j, or "" if it may, path
// aside: only Mounted MAA charge (11.1), not Disordered (12.2), not when
// the Activation began next to an enemy (11.1), not Out of Command
// (15.2); nothing in Woods, Marsh, City or Rough (11.3); never through the
// Frontal hexside of a Shield Wall (14.1, checked with the path).
func mayCharge(sc *Scenario, st *State, i, j int) (rule, why string) {
	id, us := sc.Units[i].ID, st.Units[i]
	switch t := unitType(sc, st, i); {
	case t == nil || !t.Charges:
		return "11.1", fmt.Sprintf("%s (%s) may not Charge: only Mounted Men-at-Arms do", id, sc.Units[i].Type)
	case us.Status != Normal:
		return "11.1", fmt.Sprintf("%s is %s: it may Shock, not Charge (12.2)", id, us.Status)
	case us.Engaged:
		return "11.1", fmt.Sprintf("%s began the Activation next to an enemy unit: it may Shock, not Charge", id)
	case us.OutOfCommand:
		return "15.2", fmt.Sprintf("%s is Out of Command: it may not Charge", id)
	case sc.Tables.Rules.ChargeNotAdjacentAtShock && len(enemiesNextToUnit(sc, st, i)) > 0:
		return "Blood & Roses 13.3 #2", fmt.Sprintf("%s began the Shock Phase next to %s: it may Shock, not Charge",
			id, strings.Join(unitIDs(sc, enemiesNextToUnit(sc, st, i)), ", "))
	}
	if tt := sc.Tables.Terrain[sc.Map.TerrainAt(st.Units[j].Hex)]; tt != nil && tt.NoCharge {
		return "11.3", fmt.Sprintf("%s stands in %s: a unit there may not be Charged; Shock it instead", sc.Units[j].ID, tt.Name)
	}
	return "", ""
}

// chargePath is a legal Charge: the hexes entered, the last one next to the
// target, and the facing the charger ends with.
type chargePath struct {
	hexes  []hex.Hex
	facing hex.Facing
	turned bool
}

// chargePaths lists the legal Charges of unit i at unit j, the default
// first (ruling R72: without a turn before with one, then by hex ids), or
// none and why. 11.3: "start the Shock Phase with either one or two hexes
// between it and the target unit and have a LOS to the target hex. The
// path to the target must be through the unit's frontal hexes and it may
// only change facing one vertex to reach the target which must end in the
// Charging unit's frontal hexes ... may not Charge across rivers or steep
// slope hexsides ... into or across terrain which they are prohibited from
// moving into ... may not cross a hex in an enemy ZOC, but may end in a
// ZOC hex ... a path free of friendly or enemy combat units".
func chargePaths(sc *Scenario, st *State, i, j int) ([]chargePath, string) {
	g := sc.Map.Grid
	from, to := st.Units[i].Hex, st.Units[j].Hex
	d := g.Distance(from, to)
	if d < 2 || d > 3 {
		return nil, fmt.Sprintf("%s is %d hex(es) from %s: a Charge needs one or two hexes between them (11.3)", sc.Units[i].ID, d, sc.Units[j].ID)
	}
	if ok, by := LineOfSight(sc, st, from, to, true); !ok {
		return nil, fmt.Sprintf("%s has no line of sight to %s (%s; 11.3)", sc.Units[i].ID, sc.Units[j].ID, by)
	}
	f0 := st.Units[i].Facing
	var out []chargePath
	why := fmt.Sprintf("no path of %d hex(es) through the Frontal hexes of %s, turning one vertex at most, free of units, enemy ZOCs and terrain it may not charge, ends with %s in its Frontal hexes (11.3)", d-1, sc.Units[i].ID, sc.Units[j].ID)
	for _, f1 := range []hex.Facing{f0, f0.Turn(-1), f0.Turn(1)} {
		for _, p := range approaches(g, from, to, d-1) {
			if !frontalPath(g, from, p, f0, f1) || !isAspect(g, p[len(p)-1], f1, to, hex.Front) {
				continue
			}
			if r := chargeBlocked(sc, st, i, j, p); r != "" {
				why = r
				continue
			}
			out = append(out, chargePath{hexes: p, facing: f1, turned: f1 != f0})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].turned != out[b].turned {
			return !out[a].turned
		}
		return hexIDs(out[a].hexes) < hexIDs(out[b].hexes)
	})
	return dedupePaths(out), why
}

// approaches are the paths of n hexes from from, each a step nearer to, the
// last one adjacent to it.
func approaches(g hex.Grid, from, to hex.Hex, n int) [][]hex.Hex {
	if n == 0 {
		return [][]hex.Hex{nil}
	}
	var out [][]hex.Hex
	for _, h := range g.Neighbors(from) {
		if !g.Contains(h) || g.Distance(h, to) != g.Distance(from, to)-1 {
			continue
		}
		for _, rest := range approaches(g, h, to, n-1) {
			out = append(out, append([]hex.Hex{h}, rest...))
		}
	}
	return out
}

// frontalPath: every step enters a Frontal hex, the facing turning from f0
// to f1 at some point of the path (one vertex at most, 11.3).
func frontalPath(g hex.Grid, from hex.Hex, p []hex.Hex, f0, f1 hex.Facing) bool {
	for k := 0; k <= len(p); k++ {
		ok, at := true, from
		for s, h := range p {
			f := f1
			if s < k {
				f = f0
			}
			if !isAspect(g, at, f, h, hex.Front) {
				ok = false
				break
			}
			at = h
		}
		if ok {
			return true
		}
	}
	return false
}

// chargeBlocked says what on path p stops unit i's Charge at unit j, or "".
func chargeBlocked(sc *Scenario, st *State, i, j int, p []hex.Hex) string {
	side, at := sc.Units[i].Side, st.Units[i].Hex
	for k, h := range append(append([]hex.Hex{}, p...), st.Units[j].Hex) {
		target := k == len(p)
		if !target {
			if o := occupant(st, h); o >= 0 {
				return fmt.Sprintf("%s stands in %s on the path (11.3)", sc.Units[o].ID, h)
			}
			if k < len(p)-1 && len(enemyZOC(sc, st, side, h)) > 0 {
				return fmt.Sprintf("%s on the path is in an enemy ZOC: a Charge may end in one, not cross it (11.3)", h)
			}
			if k < len(p)-1 && sc.Tables.Rules.ChargePathNotAdjacent {
				if e := enemiesNextTo(sc, st, side, h); len(e) > 0 {
					return fmt.Sprintf("%s on the path is next to %s: a Charge may end next to an enemy unit, not cross such a hex (Blood & Roses 13.3 #5d)",
						h, strings.Join(unitIDs(sc, e), ", "))
				}
			}
			if tt := sc.Tables.Terrain[sc.Map.TerrainAt(h)]; sc.Tables.Rules.ChargePathTerrain && tt != nil && tt.NoCharge {
				return fmt.Sprintf("%s on the path is %s: a Charge may not cross it (Blood & Roses 13.3 #5h)", h, tt.Name)
			}
		}
		if enterCost(sc, at, h, Mounted) == NA {
			return fmt.Sprintf("mounted units may not enter %s from %s (11.3)", h, at)
		}
		for _, f := range featuresBetween(&sc.Map, at, h) {
			if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.NoCharge {
				return fmt.Sprintf("a Charge may not cross the %s between %s and %s (11.3)", t.Name, at, h)
			}
		}
		at = h
	}
	from := st.Units[i].Hex // where the charger ends, next to j
	if len(p) > 0 {
		from = p[len(p)-1]
	}
	if why := shockBarred(sc, st, i, j, from); why != "" {
		return why
	}
	if len(p) == 0 { // a Counter-Charge at an adjacent unit (11.5)
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(st.Units[j].Hex)]; tt != nil && tt.NoCharge {
			return fmt.Sprintf("%s stands in %s, where no unit may be Charged (11.3)", sc.Units[j].ID, tt.Name)
		}
		return ""
	}
	if inSchiltron(st, j) {
		return fmt.Sprintf("%s stands in Schiltron: no Charge reaches it from any side; Shock it instead (R89)", sc.Units[j].ID)
	}
	end := p[len(p)-1]
	if st.Units[j].ShieldWall && isAspect(sc.Map.Grid, st.Units[j].Hex, st.Units[j].Facing, end, hex.Front) {
		return fmt.Sprintf("%s stands in Shield Wall: no Charge through its Frontal hexsides; Shock it instead (14.1)", sc.Units[j].ID)
	}
	return ""
}

// enemiesNextTo are the enemy units of side next to hex h, on the field.
func enemiesNextTo(sc *Scenario, st *State, side Side, h hex.Hex) []int {
	var out []int
	for k, u := range sc.Units {
		if u.Side != side && onField(st, k) && sc.Map.Grid.Distance(h, st.Units[k].Hex) == 1 {
			out = append(out, k)
		}
	}
	return out
}

// enemiesNextToUnit are the enemy units on the field next to unit i.
func enemiesNextToUnit(sc *Scenario, st *State, i int) []int {
	return enemiesNextTo(sc, st, sc.Units[i].Side, st.Units[i].Hex)
}

// isAspect: other is adjacent to h and stands at aspect a of a unit in h
// facing f.
func isAspect(g hex.Grid, h hex.Hex, f hex.Facing, other hex.Hex, a hex.Aspect) bool {
	got, ok := g.NeighborAspect(h, f, other)
	return ok && got == a
}

func dedupePaths(ps []chargePath) []chargePath {
	seen := map[string]bool{}
	var out []chargePath
	for _, p := range ps {
		k := hexIDs(p.hexes) + p.facing.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// placeCharge moves a charger along its path next to its target (10.3 Step
// 2), with the Reaction Fire it draws hex by hex (9.2), and reports whether
// it is still charging: Disordered on the way, it attacks by Shock (11.3);
// gone from its hex, it does not attack at all. A Reaction Fire its
// owner is asked about, or a retreat waiting for a choice, stops it where
// it stands (State.Shock.Charge); the answer calls it again to go on.
func (g *game) placeCharge(i int, d Declaration) (charging bool, err error) {
	start, reacted := 0, []string(nil)
	if run := g.st.Shock.Charge; run != nil {
		if chargerGone(g.st, i, d.Path[run.Next]) {
			return false, nil
		}
		start, reacted = run.Next+1, slices.Clone(run.Reacted)
	}
	for k := start; k < len(d.Path); k++ {
		h := d.Path[k]
		var reactors []int
		for _, j := range g.reactors(i, h) {
			if id := g.sc.Units[j].ID; !slices.Contains(reacted, id) {
				reactors, reacted = append(reactors, j), append(reacted, id)
			}
		}
		if len(reactors) == 0 && k < len(d.Path)-1 {
			continue
		}
		facing := g.st.Units[i].Facing
		if k == len(d.Path)-1 {
			facing = d.Facing
		}
		g.emit(ChargeMade{Unit: g.sc.Units[i].ID, Target: d.Defenders[0], Path: slices.Clone(d.Path[start : k+1]), Facing: facing,
			Leaders: leaderIDs(g.sc, stackedLeaders(g.sc, g.st, i))})
		for _, x := range d.Path[start : k+1] {
			g.captureIn(i, x)
		}
		start = k + 1
		g.spendFirstOnly(i, reactors)
		var ask []string
		fired := false
		for _, j := range reactors {
			if chargerGone(g.st, i, h) || g.st.Retreat != nil {
				break
			}
			switch {
			case CanFire(g.sc, g.st, j, i, true) != nil:
			case fireMode(g.sc, g.st, j, true) == FireAsk:
				ask = append(ask, g.sc.Units[j].ID)
			case g.sc.Tables.Rules.OneReactionPerEntry && fired:
				// B&R 11.2: one missile unit reacts to one entry (ruling R244).
			default:
				if err := g.reactOnce(i, j); err != nil {
					return false, err
				}
				fired = true
			}
		}
		if fired && g.sc.Tables.Rules.OneReactionPerEntry {
			ask = nil
		}
		if chargerGone(g.st, i, h) {
			return false, nil
		}
		if g.st.Retreat != nil {
			ask = nil // it must retreat from the hex: the rest of the Reaction Fire ends (9.3)
		}
		if g.st.Retreat != nil || len(ask) > 0 {
			g.emit(ChargeStopped{Unit: g.sc.Units[i].ID, Side: g.sc.Units[i].Side.Other(), Next: k, Reacted: reacted, Ask: ask})
			return false, nil
		}
	}
	if g.st.Units[i].Status == Disordered && g.st.Shock.charging(g.sc.Units[i].ID) {
		g.emit(ChargeLost{Unit: g.sc.Units[i].ID, Reason: "Disordered by Reaction Fire during its Charge: it attacks by Shock (11.3)"})
		return false, nil
	}
	return true, nil
}

// chargerGone: the charger no longer stands in h, fit to go on.
func chargerGone(st *State, i int, h hex.Hex) bool {
	us := st.Units[i]
	return us.Hex != h || us.Status == Retired || us.Status == Eliminated
}

// reactToCharge carries out the answer to a Reaction Fire decision a
// Charge stopped for, and the Shock Phase goes on.
func (g *game) reactToCharge(p PendingReaction, chosen []int) error {
	g.emit(ReactionAnswered{Mover: p.Mover, Units: unitIDs(g.sc, chosen), Resume: p.Resume})
	i := g.unitIndex(p.Mover)
	h := g.st.Units[i].Hex
	for _, j := range chosen {
		if chargerGone(g.st, i, h) || g.st.Retreat != nil {
			break
		}
		if CanFire(g.sc, g.st, j, i, true) == nil {
			if err := g.reactOnce(i, j); err != nil {
				return err
			}
		}
	}
	return g.runShock()
}

// reluctance rolls Charge Reluctance when a Mounted MAA charges a unit of a
// reluctance type through its Frontal hexside (11.4): "If the DR is a 0–4,
// the attacking unit successfully Charges", else it attacks by Shock.
// Hedges add to the roll (11.4 PLAY NOTE). A volume may exempt a type of
// charger, or add the charger's own Shock Defense (Infidel 13.5).
func (g *game) reluctance(i, j int) (charging bool, err error) {
	sc, st := g.sc, g.st
	at, to := st.Units[i].Hex, st.Units[j].Hex
	if !unitType(sc, st, j).Reluctance || unitType(sc, st, i).NeverReluctant || !isAspect(sc.Map.Grid, to, st.Units[j].Facing, at, hex.Front) {
		return true, nil
	}
	var mods []Modifier
	if sc.Tables.Rules.ReluctanceOwnDRM {
		mods = nonZero([]Modifier{{DRM: ratings(sc, st, i).Shock, Reason: fmt.Sprintf("%s's own Shock Defense", sc.Units[i].ID), Rule: "Infidel 13.5"}})
	}
	for _, f := range featuresBetween(&sc.Map, at, to) {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.Reluctance != 0 {
			mods = append(mods, Modifier{DRM: t.Reluctance, Reason: t.Name, Rule: "11.4 PLAY NOTE"})
		}
	}
	r, err := g.roll(fmt.Sprintf("Charge Reluctance DR: %s at %s (11.4)", sc.Units[i].ID, sc.Units[j].ID), mods...)
	if err != nil {
		return false, err
	}
	ok := r.Total <= sc.Tables.ShockDRM.ReluctanceMax
	g.emit(ChargeReluctance{Unit: sc.Units[i].ID, Target: sc.Units[j].ID, Roll: r, Max: sc.Tables.ShockDRM.ReluctanceMax, Charges: ok})
	return ok, nil
}

// ChargeMade: a charging unit was placed along its path (10.3 Step 2); it
// is not Movement and spends no MP (11.3).
type ChargeMade struct {
	Unit   string     `json:"unit"`
	Target string     `json:"target"`
	Path   []hex.Hex  `json:"path"`
	Facing hex.Facing `json:"facing"`
	// Leaders stacked with the unit charge with it (5.1).
	Leaders []string `json:"leaders,omitempty"`
}

func (e ChargeMade) apply(st *State) {
	u := st.Unit(e.Unit)
	if len(e.Path) > 0 {
		u.Hex = e.Path[len(e.Path)-1]
	}
	u.Facing, u.Acted = e.Facing, true
	for _, l := range e.Leaders {
		st.Leader(l).Hex = u.Hex
	}
}

func (e ChargeMade) describe(*Scenario) string {
	if len(e.Path) == 0 {
		return fmt.Sprintf("%s turns to face %s and charges it (11.5).", e.Unit, e.Target)
	}
	return fmt.Sprintf("%s charges %s at %s, facing %s (11.3).", e.Unit, pathText(e.Path), e.Target, e.Facing)
}

// ChargeLost: a charger attacks by Shock after all (11.3, 11.4, 11.6).
type ChargeLost struct {
	Unit   string `json:"unit"`
	Reason string `json:"reason"`
}

func (e ChargeLost) apply(st *State) { st.Shock.loseCharge(e.Unit) }

// charging: the unit still carries its Charge marker.
func (p *ShockPhase) charging(id string) bool {
	for _, a := range p.Attacks {
		if slices.Contains(a.Charging, id) {
			return true
		}
	}
	return false
}

// loseCharge: the unit's Charge marker becomes a Shock marker (11.6).
func (p *ShockPhase) loseCharge(id string) {
	if p == nil {
		return
	}
	for k := range p.Attacks {
		p.Attacks[k].Charging = slices.DeleteFunc(p.Attacks[k].Charging, func(c string) bool { return c == id })
	}
}

func (e ChargeLost) describe(*Scenario) string {
	return fmt.Sprintf("%s loses its Charge: %s.", e.Unit, e.Reason)
}

// ChargeReluctance: the Charge Reluctance roll (11.4).
type ChargeReluctance struct {
	Unit    string `json:"unit"`
	Target  string `json:"target"`
	Roll    Roll   `json:"roll"`
	Max     int    `json:"max"`
	Charges bool   `json:"charges"`
}

func (e ChargeReluctance) apply(st *State) {
	if !e.Charges {
		st.Shock.loseCharge(e.Unit)
	}
}

func (e ChargeReluctance) describe(*Scenario) string {
	if e.Charges {
		return fmt.Sprintf("Charge Reluctance for %s at %s: %s, %d or less: it charges home (11.4).", e.Unit, e.Target, describeRoll(e.Roll), e.Max)
	}
	return fmt.Sprintf("Charge Reluctance for %s at %s: %s, more than %d: the horses balk, it attacks by Shock (11.4).", e.Unit, e.Target, describeRoll(e.Roll), e.Max)
}

// ChargeStopped: a Charge stops in Path[Next] for a decision: the
// Reaction Fire of the units in Ask, asked of their owner (9.2), or a
// retreat its owner chooses.
type ChargeStopped struct {
	Unit    string   `json:"unit"`
	Side    Side     `json:"side"`
	Next    int      `json:"next"`
	Reacted []string `json:"reacted,omitempty"`
	Ask     []string `json:"ask,omitempty"`
}

func (e ChargeStopped) apply(st *State) {
	st.Shock.Charge = &ChargeRun{Next: e.Next, Reacted: slices.Clone(e.Reacted)}
	if len(e.Ask) > 0 {
		st.Reaction = &PendingReaction{Mover: e.Unit, Reactors: slices.Clone(e.Ask), Resume: st.Pending, Charge: true}
		st.Pending = Decision{Kind: DecideReaction, Side: e.Side}
	}
}

func (e ChargeStopped) describe(sc *Scenario) string {
	if len(e.Ask) == 0 {
		return ""
	}
	return fmt.Sprintf("%s charges into the Frontal hex of %s: the %s decide whether to fire (9.2).", e.Unit, strings.Join(e.Ask, ", "), sc.SideName(e.Side))
}

func init() { registerEvents(ChargeMade{}, ChargeLost{}, ChargeReluctance{}, ChargeStopped{}) }
