package engine

import (
	"fmt"
	"slices"

	"herald/engine/hex"
)

// Arquebus 10.0 STACKING. "With some exceptions, one unit, one Standard,
// and any number of leaders and markers may exist in one hex ... Units may
// not stack at any time, even during movement, with the following
// exceptions: A non-Pike, non-Artillery foot unit may stack with an
// unlimbered Artillery unit ... A non-Pike foot unit may stack with a
// Baggage Wagon (Exception: Two Baggage Wagons may not stack). Sapper
// units may stack with any one other unit, except limbered Artillery
// units." Who may stack with whom is the tables' rules.stacking
// (Rules.Stacking); without it no two combat units share a hex and
// occupant's one unit a hex holds.

// occupants are the combat units in h: one, or two where Rules.Stacking
// lets them stack.
func occupants(st *State, h hex.Hex) []int {
	var out []int
	for i, us := range st.Units {
		if !us.OffMap && us.Status != Eliminated && us.Hex == h {
			out = append(out, i)
		}
	}
	return out
}

// otherIn is a combat unit in h other than i, or -1.
func otherIn(st *State, h hex.Hex, i int) int {
	for _, o := range occupants(st, h) {
		if o != i {
			return o
		}
	}
	return -1
}

// partner is the unit stacked with i, or -1.
func partner(st *State, i int) int {
	if us := st.Units[i]; us.OffMap || us.Status == Eliminated {
		return -1
	}
	return otherIn(st, st.Units[i].Hex, i)
}

// stackedHex reports whether two units share h.
func stackedHex(st *State, h hex.Hex) bool { return len(occupants(st, h)) > 1 }

// mayStack reports whether units i, as type mt, and j may share a hex
// under one of the tables' StackRules, in either order.
func mayStack(sc *Scenario, st *State, i int, mt *UnitType, j int) bool {
	return sc.Tables.Rules.StackAllowed(mt, st.Units[i].Limbered, unitType(sc, st, j), st.Units[j].Limbered)
}

// StackAllowed reports whether a unit of type a and one of type b, each
// limbered or not, may share a hex under one of the StackRules, in either
// order (Arquebus 10.0). A battle's setup is checked with it too.
func (r *Rules) StackAllowed(a *UnitType, aLimbered bool, b *UnitType, bLimbered bool) bool {
	limbered := a.LimberedSide && aLimbered || b.LimberedSide && bLimbered
	for _, sr := range r.Stacking {
		if sr.Unlimbered && limbered {
			continue // "an unlimbered Artillery unit"; "except limbered Artillery units"
		}
		if stackPair(sr, a.Key, b.Key) || stackPair(sr, b.Key, a.Key) {
			return true
		}
	}
	return false
}

func stackPair(r StackRule, a, b string) bool {
	return slices.Contains(r.Units, a) && (slices.Contains(r.With, b) || slices.Contains(r.With, StackAny))
}

// stackInto says why unit i, as type mt, may not end its move stacked in
// h, a hex with a friendly unit, or nil when it may (Arquebus 10.0, 10.1).
func stackInto(sc *Scenario, st *State, i int, mt *UnitType, h hex.Hex) *moveError {
	id := sc.Units[i].ID
	var there []int
	for _, o := range occupants(st, h) {
		if o != i {
			there = append(there, o)
		}
	}
	switch {
	case len(there) == 0:
		return nil
	case len(there) > 1:
		return moveErr("Arquebus 10.0", "%s may not enter %s: %s and %s are stacked there, and no more than two units share a hex", id, h, sc.Units[there[0]].ID, sc.Units[there[1]].ID)
	case !mayStack(sc, st, i, mt, there[0]):
		j := there[0]
		return moveErr("Arquebus 10.0", "%s (%s) may not stack with %s (%s) in %s: %s", id, mt.Name, sc.Units[j].ID, stackName(sc, st, j), h, stackingRule(sc))
	}
	return nil
}

// stackName is a unit's type name, limbered Artillery said so.
func stackName(sc *Scenario, st *State, j int) string {
	t := unitType(sc, st, j)
	if t.LimberedSide && st.Units[j].Limbered {
		return "limbered " + t.Name
	}
	return t.Name
}

// stackingRule says who may stack with whom, for a refusal.
func stackingRule(sc *Scenario) string {
	names := func(keys []string) string {
		var out []string
		for _, k := range keys {
			if k == StackAny {
				out = append(out, "any unit")
			} else if t := sc.Tables.UnitTypes[k]; t != nil {
				out = append(out, t.Name)
			}
		}
		return orList(out)
	}
	s := "only these may stack:"
	for k, r := range sc.Tables.Rules.Stacking {
		if k > 0 {
			s += ";"
		}
		s += fmt.Sprintf(" %s with %s", names(r.Units), names(r.With))
		if r.Unlimbered {
			s += " (Artillery only unlimbered)"
		}
	}
	return s
}

// stackFacing is the facing of unit i ending its move along path: a unit
// that stacks takes its partner's, and may not be given another (Arquebus
// 10.1 "When units that are allowed to stack are stacked together they
// must always face the same direction"; ruling R362).
func (g *game) stackFacing(o Move, i int, path []hex.Hex, facing hex.Facing) (hex.Facing, error) {
	if len(path) == 0 || len(g.sc.Tables.Rules.Stacking) == 0 {
		return facing, nil
	}
	j := otherIn(g.st, path[len(path)-1], i)
	if j < 0 {
		return facing, nil
	}
	pf := g.st.Units[j].Facing
	if o.Face != "" && facing != pf {
		return facing, g.illegal(o, "Arquebus 10.1", fmt.Sprintf("%s stacks with %s, which faces %s: stacked units face the same direction (FACE %s, or leave FACE out)", g.sc.Units[i].ID, g.sc.Units[j].ID, pf, pf))
	}
	return pf, nil
}

// stackShots adds to each shot at a stacked unit the same fire's shot at
// its partner, emitted: Arquebus 10.2 "Stacked units are both affected by
// missile fire targeting the hex (make one DR, with DRMs applied
// individually, and apply to both units)". The partner's shot has its own
// DRMs and Fire Results column, no leaders (they are the target's shot's)
// and no Return Fire (10.2 names Active Fire; ruling R364).
func (g *game) stackShots(shots []*shot) []*shot {
	if len(g.sc.Tables.Rules.Stacking) == 0 {
		return shots
	}
	var out []*shot
	for _, s := range shots {
		out = append(out, s)
		p := partner(g.st, s.target)
		if p < 0 || s.misfire {
			continue
		}
		mods := FireModifiers(g.sc, g.st, s.firer, p)
		r := Roll{Purpose: fmt.Sprintf("%s, the same DR at %s, stacked with %s (Arquebus 10.2)", s.roll.Purpose, g.sc.Units[p].ID, g.sc.Units[s.target].ID), Die: s.roll.Die, Mods: mods, Total: s.roll.Die}
		for _, m := range mods {
			r.Total += m.DRM
		}
		col := FireColumn(g.sc, g.st, p)
		res, _ := g.sc.Tables.Fire.Lookup(col, r.Total)
		ps := &shot{firer: s.firer, target: p, roll: r, column: col, result: res}
		g.emit(UnitFired{Unit: g.sc.Units[s.firer].ID, Target: g.sc.Units[p].ID, Stacked: true, Roll: r, Column: col, Result: res.Text})
		out = append(out, ps)
	}
	return out
}

// Arquebus 10.3 Shock/Charge against a stack.

// oneAHex keeps one defender a hex: "Stacked units count as a single unit
// when determining strength advantage", and the die is rolled "for each
// defending hex" (12.3). The first declared stands for the stack.
func oneAHex(st *State, defs []int) []int {
	var out []int
	seen := map[hex.Hex]bool{}
	for _, j := range defs {
		if h := st.Units[j].Hex; !seen[h] {
			seen[h] = true
			out = append(out, j)
		}
	}
	return out
}

// stackDefender is the unit that defends for j's hex in Shock: its
// Weapon System Matrix row, Shock Defense, terrain and facing (10.3;
// Rules.StackShockRow; ruling R366). Alone, j itself.
func stackDefender(sc *Scenario, st *State, j int) int {
	p := partner(st, j)
	if p < 0 {
		return j
	}
	row := sc.Tables.Rules.StackShockRow
	rj := slices.Index(row, unitType(sc, st, j).Key)
	rp := slices.Index(row, unitType(sc, st, p).Key)
	switch {
	case rj < 0:
		return j // j is the fighting unit, or both are (not a stack 10.0 allows)
	case rp < 0 || rp < rj:
		return p
	}
	return j
}

// stackColumn: "If one of the units is Disordered, use the Disordered
// status column when consulting the Shock or Charge Combat Results table"
// (10.3).
func stackColumn(st *State, j, p int) string {
	if shockColumn(st, j) == "disordered" {
		return "disordered"
	}
	return shockColumn(st, p)
}

// defenderSteps are the k-th defender's share of an attack's results and
// that of the unit stacked with it when the die was rolled: "When stacked
// units are attacked by Shock/Charge combat, both units suffer any results
// (Exception: Baggage Wagons never suffer results from Shock/Charge
// combat). Sappers and Artillery suffer the same results as the unit they
// are stacked with" (10.3). Artillery, never Disordered, is Eliminated by
// a Disorder, Retreat or Retire result (asResults), which is 12.5's "the
// Artillery unit is Eliminated if the other unit is Disordered or
// Eliminated". A ShockImmune type (Baggage Wagons) suffers nothing, stacked
// or not (ruling R367). Leaders in the hex are checked once, with the
// last unit to suffer (ruling R368).
func (g *game) defenderSteps(j int, r Resolution, k int, atk []int, cause string) []effectStep {
	units := []int{j}
	if k < len(r.Stacked) && r.Stacked[k] != "" {
		units = append(units, unitIdx(g.sc, r.Stacked[k]))
	}
	var out []effectStep
	for _, u := range units {
		if slices.Contains(g.sc.Tables.Rules.ShockImmune, unitType(g.sc, g.st, u).Key) {
			continue
		}
		out = append(out, effectStep{unit: u, effects: r.Results[k].Defender, against: atk, cause: cause})
	}
	for n := 0; n < len(out)-1; n++ {
		out[n].noLeaders = true // one Leader Casualty Check a hex, with its last unit (R368)
	}
	return out
}
