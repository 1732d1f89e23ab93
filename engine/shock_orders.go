package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 10.3 Order of Shock Resolution, Step 1: "The Active player designates
// which of his units are attacking which defending units, including
// Charges." Each SHOCK or CHARGE order declares one unit's part, checked
// on its own when given; the declarations are checked as a whole at END,
// before any die is rolled, and then carried out (shock.go). The first
// declaration closes the Move/Fire Phase (ExtSoP C: "After all
// movement/firing ... is complete").

// ShockOrder declares Shock attackers and their defenders: "SHOCK X AT B",
// "SHOCK Y Z AT C" (several attackers, one defender), "SHOCK X AT A B" (one
// attacker against the two units in its Frontal hexes) (10.1).
type ShockOrder struct {
	at
	Attackers []string
	Defenders []string
}

func (o ShockOrder) String() string {
	return "SHOCK " + strings.Join(o.Attackers, " ") + " AT " + strings.Join(o.Defenders, " ")
}

// ChargeOrder declares a Charge: "CHARGE Z AT C", optionally with the hexes
// of its path, the last one adjacent to the target (11.3).
type ChargeOrder struct {
	at
	Unit   string
	Target string
	Path   []string
}

func (o ChargeOrder) String() string {
	s := "CHARGE " + o.Unit + " AT " + o.Target
	if len(o.Path) > 0 {
		s += " " + strings.Join(o.Path, " ")
	}
	return s
}

func parseShock(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "SHOCK <unit> [<unit> …] AT <enemy unit> [<enemy unit>]"
	by, to := splitKeyword(rest, "AT")
	if by == "" || len(to) == 0 {
		return nil, syntax("SHOCK needs the attacking units, AT, and the defending units", form)
	}
	o := ShockOrder{at: a, Attackers: strings.Fields(by), Defenders: to}
	switch {
	case len(o.Defenders) > 2:
		return nil, syntax("a Shock attack is against one unit, or two in the attacker's Frontal hexes (10.1)", form)
	case len(o.Defenders) == 2 && len(o.Attackers) > 1:
		return nil, syntax("only a unit attacking by itself may attack two defenders (10.1)", form)
	}
	return o, nil
}

func parseCharge(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "CHARGE <unit> AT <enemy unit> [<hex> [<hex>]]"
	by, to := splitKeyword(rest, "AT")
	if by == "" || strings.Contains(by, " ") || len(to) == 0 {
		return nil, syntax("CHARGE needs one charging unit, AT, and its target", form)
	}
	if len(to) > 3 {
		return nil, syntax("a Charge targets only one unit (11.3), along a path of one or two hexes", form)
	}
	for _, h := range to[1:] {
		if _, err := hex.Parse(h); err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a hex id: a Charge targets only one unit (11.3)", h), form)
		}
	}
	return ChargeOrder{at: a, Unit: by, Target: to[0], Path: to[1:]}, nil
}

// Declaration is one declared attack: its attackers and defenders, and for
// a Charge the path and the facing it ends with.
type Declaration struct {
	Attackers []string   `json:"attackers"`
	Defenders []string   `json:"defenders"`
	Charge    bool       `json:"charge,omitempty"`
	Path      []hex.Hex  `json:"path,omitempty"`
	Facing    hex.Facing `json:"facing,omitempty"`
	Text      string     `json:"text"`
}

func (d Declaration) clone() Declaration {
	c := d
	c.Attackers, c.Defenders, c.Path = slices.Clone(d.Attackers), slices.Clone(d.Defenders), slices.Clone(d.Path)
	return c
}

// mayDeclare: declarations belong to the Shock Phase of an activated
// Command.
func (g *game) mayDeclare(o Order) error {
	if g.st.Pending.Kind == DecideActions && g.st.Army {
		return g.armyOnlyMoves(o)
	}
	if g.st.Pending.Kind != DecideActions || g.st.Command == "" && g.st.Ambush == "" {
		return g.illegal(o, "10.3", "attacks are declared in the Shock Phase of your Command's Activation")
	}
	return nil
}

func (g *game) shock(o ShockOrder) error {
	if err := g.mayDeclare(o); err != nil {
		return err
	}
	d := Declaration{Text: o.String()}
	var atk []int
	for _, name := range o.Attackers {
		i, err := g.attacker(o, name)
		if err != nil {
			return err
		}
		if slices.Contains(atk, i) {
			return g.illegal(o, "10.1", fmt.Sprintf("%s is named twice", g.sc.Units[i].ID))
		}
		atk = append(atk, i)
		d.Attackers = append(d.Attackers, g.sc.Units[i].ID)
	}
	for _, name := range o.Defenders {
		j, ok := g.findEnemyUnit(name)
		if !ok || !onField(g.st, j) {
			return g.illegal(o, "10.1", fmt.Sprintf("the enemy has no unit called %q on the field", name)+g.unitHint(g.st.Pending.Side.Other(), name, true))
		}
		if slices.Contains(d.Defenders, g.sc.Units[j].ID) {
			return g.illegal(o, "10.1", fmt.Sprintf("%s is named twice", g.sc.Units[j].ID))
		}
		for _, i := range atk {
			if why := shockBarred(g.sc, g.st, i, j, g.st.Units[i].Hex); why != "" {
				return g.illegal(o, "Arquebus 12.3 #2B", why)
			}
			if !inFrontalHex(g.sc, g.st, i, j) {
				return g.illegal(o, "10.1", fmt.Sprintf("%s is not in a Frontal hex of %s: a unit Shocks the enemy units in its Frontal hexes (10.1)", g.sc.Units[j].ID, g.sc.Units[i].ID))
			}
		}
		for _, i := range atk {
			if isEngaged(g.st, i) && len(engagedIn(g.sc, g.st, i, []int{j})) == 0 {
				return g.illegal(o, "Arquebus 14.5", fmt.Sprintf("%s is Engaged with %s: it can never attack an enemy unit it is not Engaged with, such as %s",
					g.sc.Units[i].ID, strings.Join(g.st.Units[i].EngagedWith, ", "), g.sc.Units[j].ID))
			}
		}
		d.Defenders = append(d.Defenders, g.sc.Units[j].ID)
	}
	if err := g.partnerFirst(o, d); err != nil {
		return err
	}
	g.emit(AttackDeclared{Side: g.sender, Attack: d})
	return nil
}

// partnerFirst: a unit that Shocks only with a partner (Blood & Roses 16.3
// Levy Infantry) is declared after, or together with, a unit of another
// kind attacking the same defender; declared alone it could never be taken
// back, and END would be refused for ever.
func (g *game) partnerFirst(o Order, d Declaration) error {
	var needs []string
	partnered := false
	for _, id := range d.Attackers {
		if unitType(g.sc, g.st, unitIdx(g.sc, id)).ShockPartner {
			needs = append(needs, id)
		} else {
			partnered = true
		}
	}
	if len(needs) == 0 || partnered || partnerDeclared(g.sc, g.st, d.Defenders) {
		return nil
	}
	t := unitType(g.sc, g.st, unitIdx(g.sc, needs[0]))
	return g.illegal(o, "Blood & Roses 16.3", fmt.Sprintf("%s (%s) may Shock attack only in conjunction with another unit that is not %s: declare that unit's SHOCK or CHARGE at %s first, then this one",
		needs[0], t.Name, t.Name, strings.Join(d.Defenders, " ")))
}

func (g *game) charge(o ChargeOrder) error {
	if err := g.mayDeclare(o); err != nil {
		return err
	}
	i, err := g.attacker(o, o.Unit)
	if err != nil {
		return err
	}
	j, ok := g.findEnemyUnit(o.Target)
	if !ok || !onField(g.st, j) {
		return g.illegal(o, "11.3", fmt.Sprintf("the enemy has no unit called %q on the field", o.Target)+g.unitHint(g.st.Pending.Side.Other(), o.Target, true))
	}
	if rule, why := mayCharge(g.sc, g.st, i, j); why != "" {
		return g.illegal(o, rule, why)
	}
	paths, why := chargePaths(g.sc, g.st, i, j)
	if len(paths) == 0 {
		return g.illegal(o, "11.3", why)
	}
	p, err := g.pickChargePath(o, paths)
	if err != nil {
		return err
	}
	g.emit(AttackDeclared{Side: g.sender, Attack: Declaration{
		Attackers: []string{g.sc.Units[i].ID}, Defenders: []string{g.sc.Units[j].ID},
		Charge: true, Path: p.hexes, Facing: p.facing, Text: o.String(),
	}})
	return nil
}

// pickChargePath takes the path the order names, or the first of the legal
// ones (ruling R72: no turn before a turn, then by hex ids).
func (g *game) pickChargePath(o ChargeOrder, paths []chargePath) (chargePath, error) {
	if len(o.Path) == 0 {
		return paths[0], nil
	}
	want := strings.Join(o.Path, " ")
	var legal []string
	for _, p := range paths {
		if hexIDs(p.hexes) == want {
			return p, nil
		}
		if !slices.Contains(legal, hexIDs(p.hexes)) {
			legal = append(legal, hexIDs(p.hexes))
		}
	}
	return chargePath{}, g.illegal(o, "11.3", fmt.Sprintf("%s is not a legal Charge path for %s; legal: %s", want, o.Unit, strings.Join(legal, "; ")))
}

func hexIDs(hs []hex.Hex) string {
	var ids []string
	for _, h := range hs {
		ids = append(ids, h.String())
	}
	return strings.Join(ids, " ")
}

// attacker finds a unit of the activated Command that may Shock attack:
// "Units not listed in the 'Attacker' row may never Shock Attack (or
// Charge)" (10.1); Retired units may not Shock (12.4); Shield Wall units
// may not Shock attack (14.1).
func (g *game) attacker(o Order, name string) (int, error) {
	i, ok := g.findUnit(name)
	if !ok {
		return -1, g.illegal(o, "10.1", fmt.Sprintf("the %s have no unit called %q", g.sc.SideName(g.st.Pending.Side), name)+g.unitHint(g.st.Pending.Side, name, false))
	}
	spec, us := g.sc.Units[i], g.st.Units[i]
	switch {
	case !activatedUnit(g.sc, g.st, i):
		return -1, g.illegal(o, "10.1", fmt.Sprintf("%s is not of the activated Command", spec.ID))
	case !onField(g.st, i):
		return -1, g.illegal(o, "10.1", fmt.Sprintf("%s is not on the field", spec.ID))
	case us.Status == Retired:
		return -1, g.illegal(o, "12.4", fmt.Sprintf("%s is Retired: Retired units may not Shock", spec.ID))
	case !shocker(g.sc, g.st, i) && unitType(g.sc, g.st, i).Becomes != "" && unitType(g.sc, g.st, i).Mounted:
		return -1, g.illegal(o, "14.2", fmt.Sprintf("%s is a mounted Hobilar: it cannot Shock Attack until it dismounts", spec.ID))
	case !shocker(g.sc, g.st, i):
		return -1, g.illegal(o, "10.1", fmt.Sprintf("%s (%s) is not in the Attacker row of the Weapon System Matrix: it never Shocks", spec.ID, spec.Type))
	case us.Fired && unitType(g.sc, g.st, i).FireOrShock:
		return -1, g.illegal(o, "Infidel 16.2", fmt.Sprintf("%s fired in this Activation: %s fire or Shock attack, not both", spec.ID, unitType(g.sc, g.st, i).Name))
	case us.ShieldWall:
		return -1, g.illegal(o, "14.1", fmt.Sprintf("%s stands in Shield Wall: it may not Shock attack", spec.ID))
	case us.Schiltron:
		return -1, g.illegal(o, "R89", fmt.Sprintf("%s stands in Schiltron: it may not Shock attack", spec.ID))
	}
	return i, nil
}

// shocker: unit i's type has a row in the Weapon System Matrix, "listed
// as Attacker" (10.1).
func shocker(sc *Scenario, st *State, i int) bool {
	t := unitType(sc, st, i)
	if t == nil {
		return false
	}
	_, listed := sc.Tables.WSM[t.Key]
	return listed
}

// onField: the unit is on the map and neither Eliminated nor Retired
// counts as gone; Retired units stay on the map and may be attacked.
func onField(st *State, i int) bool {
	us := st.Units[i]
	return !us.OffMap && us.Status != Eliminated
}

// frontalEnemies are the enemy combat units in unit i's Frontal hexes
// that it may attack: not those in or across terrain whose Shock DRM is
// "NA" for it (Arquebus 12.1: it must Shock them "unless those units ...
// are across/in terrain into which the Active unit cannot attack").
func frontalEnemies(sc *Scenario, st *State, i int) []int {
	var out []int
	for _, h := range sc.Map.Grid.FrontalHexes(st.Units[i].Hex, st.Units[i].Facing) {
		if o := occupant(st, h); o >= 0 && sc.Units[o].Side != sc.Units[i].Side && shockBarred(sc, st, i, o, st.Units[i].Hex) == "" {
			out = append(out, o)
		}
	}
	return out
}

// shockBarred says why unit i, attacking from hex from, may not Shock or
// Charge unit j: j's hex, or the hexside between them, has a Shock DRM of
// "NA" for i's class (Arquebus 12.3 #2B: "A unit may attack into/across
// any terrain not listed as NA in the Shock/Charge DRM column on the
// Terrain Chart, whether it is prohibited from entering the terrain or
// not"). "" when it may.
func shockBarred(sc *Scenario, st *State, i, j int, from hex.Hex) string {
	c := unitType(sc, st, i).Class()
	if tt := sc.Tables.Terrain[sc.Map.TerrainAt(st.Units[j].Hex)]; tt != nil && tt.NoShock[c] {
		return fmt.Sprintf("%s stands in %s, whose Shock/Charge DRM is NA for %s units: %s may not attack it (Arquebus 12.3 #2B)", sc.Units[j].ID, terrainName(tt), c, sc.Units[i].ID)
	}
	for _, f := range featuresBetween(&sc.Map, from, st.Units[j].Hex) {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.NoShock[c] {
			return fmt.Sprintf("the %s between %s and %s has a Shock/Charge DRM of NA for %s units: %s may not attack %s across it (Arquebus 12.3 #2B)", t.Name, from, st.Units[j].Hex, c, sc.Units[i].ID, sc.Units[j].ID)
		}
	}
	return ""
}

// inFrontalHex: enemy unit j stands in one of unit i's Frontal hexes,
// alone or stacked (Arquebus 10.0).
func inFrontalHex(sc *Scenario, st *State, i, j int) bool {
	fr := sc.Map.Grid.FrontalHexes(st.Units[i].Hex, st.Units[i].Facing)
	return sc.Units[j].Side != sc.Units[i].Side && slices.Contains(fr[:], st.Units[j].Hex)
}

// partnerAttacked: the unit stacked with j is attacked, which attacks
// j's hex (Arquebus 10.3: a stack is one defender).
func partnerAttacked(sc *Scenario, st *State, j int, byDefender map[string]int) bool {
	p := partner(st, j)
	if p < 0 {
		return false
	}
	_, ok := byDefender[sc.Units[p].ID]
	return ok
}

// AttackDeclared: a Shock or Charge attack was declared (10.3 Step 1). A
// unit declared again leaves its earlier declaration: declarations are
// final only at END.
type AttackDeclared struct {
	Side   Side        `json:"side"`
	Attack Declaration `json:"attack"`
}

func (e AttackDeclared) apply(st *State) {
	st.Phase = PhaseShock
	var kept []Declaration
	for _, d := range st.Declared {
		d.Attackers = slices.DeleteFunc(slices.Clone(d.Attackers), func(a string) bool { return slices.Contains(e.Attack.Attackers, a) })
		if len(d.Attackers) > 0 {
			kept = append(kept, d)
		}
	}
	st.Declared = append(kept, e.Attack.clone())
}

func (e AttackDeclared) describe(*Scenario) string {
	if e.Attack.Charge {
		return fmt.Sprintf("%s will Charge %s through %s (11.3).", e.Attack.Attackers[0], e.Attack.Defenders[0], hexIDs(e.Attack.Path))
	}
	return fmt.Sprintf("%s will Shock %s (10.1).", strings.Join(e.Attack.Attackers, " and "), strings.Join(e.Attack.Defenders, " and "))
}

func init() { registerEvents(AttackDeclared{}) }

// buildAttacks checks the declarations as a whole (10.1, 11.3) and groups
// them into attacks, one per defender, or one for a unit attacking two.
// It returns the first violation found, naming the unit and the rule.
func buildAttacks(sc *Scenario, st *State) ([]ShockAttack, *IllegalOrderError) {
	byDefender := map[string]int{}
	var out []ShockAttack
	for _, d := range st.Declared {
		for _, id := range d.Defenders {
			if k, ok := byDefender[id]; ok && (len(d.Defenders) > 1 || len(out[k].Defenders) > 1) {
				return nil, declError(d, "10.1", fmt.Sprintf("%s would be attacked twice: a unit attacking two defenders does so by itself, and a unit is attacked once per Activation", id))
			}
		}
		k, ok := byDefender[d.Defenders[0]]
		if !ok {
			k = len(out)
			out = append(out, ShockAttack{Defenders: slices.Clone(d.Defenders)})
			for _, id := range d.Defenders {
				byDefender[id] = k
			}
		}
		a := &out[k]
		a.Attackers = append(a.Attackers, d.Attackers...)
		if d.Charge {
			a.Charges = append(a.Charges, d.clone())
			a.Charging = append(a.Charging, d.Attackers[0])
		}
		a.Text = append(a.Text, d.Text)
	}
	if err := checkObligations(sc, st, byDefender); err != nil {
		return nil, err
	}
	return out, checkChargePaths(sc, st)
}

// checkObligations: a unit that Shocks "must Shock any/all enemy units
// that are in their frontal hexes, unless those units are being attacked
// by other friendly units" (10.1); a Charge targets only one unit (11.3).
func checkObligations(sc *Scenario, st *State, byDefender map[string]int) *IllegalOrderError {
	for _, d := range st.Declared {
		if d.Charge {
			continue
		}
		for _, id := range d.Attackers {
			i := unitIdx(sc, id)
			for _, j := range obligedTargets(sc, st, i) {
				if _, ok := byDefender[sc.Units[j].ID]; !ok && !partnerAttacked(sc, st, j, byDefender) {
					return declError(d, "10.1", fmt.Sprintf("%s Shocks, so it must also attack %s in its Frontal hex, unless another unit attacks it; legal: SHOCK %s AT %s",
						id, sc.Units[j].ID, id, strings.Join(unitIDs(sc, frontalEnemies(sc, st, i)), " ")))
				}
			}
		}
	}
	return nil
}

// obligedTargets are the enemy units in unit i's Frontal hexes it must
// attack when it Shocks (10.1): with an ENGAGED marker, only those it is
// Engaged with (Arquebus 14.5: "ignoring any enemy units that it is not
// Engaged with").
func obligedTargets(sc *Scenario, st *State, i int) []int {
	if isEngaged(st, i) {
		return engagedIn(sc, st, i, frontalEnemies(sc, st, i))
	}
	return frontalEnemies(sc, st, i)
}

// checkChargePaths: "The path cannot be shared with other Charging units"
// (11.3).
func checkChargePaths(sc *Scenario, st *State) *IllegalOrderError {
	used := map[hex.Hex]string{}
	for _, d := range st.Declared {
		if !d.Charge {
			continue
		}
		for _, h := range d.Path {
			if other, ok := used[h]; ok {
				return declError(d, "11.3", fmt.Sprintf("its path shares %s with the Charge of %s", h, other))
			}
			used[h] = d.Attackers[0]
		}
	}
	return nil
}

func declError(d Declaration, rule, reason string) *IllegalOrderError {
	return &IllegalOrderError{Text: d.Text, Rule: rule, Reason: reason}
}

func unitIdx(sc *Scenario, id string) int {
	for i, u := range sc.Units {
		if u.ID == id {
			return i
		}
	}
	return -1
}

// partnerDeclared: a unit that needs no Shock partner has declared an
// attack on one of defenders.
func partnerDeclared(sc *Scenario, st *State, defenders []string) bool {
	for _, other := range st.Declared {
		shared := slices.ContainsFunc(other.Defenders, func(def string) bool { return slices.Contains(defenders, def) })
		for _, id := range other.Attackers {
			if shared && !unitType(sc, st, unitIdx(sc, id)).ShockPartner {
				return true
			}
		}
	}
	return false
}

// shockForms are the attacks the activated Command may declare, for Legal:
// each eligible unit against the enemy units in its Frontal hexes, and each
// Charge with a legal path.
func shockForms(sc *Scenario, st *State) []string {
	var out []string
	for i, u := range sc.Units {
		us := st.Units[i]
		if st.Army || !activatedUnit(sc, st, i) || !onField(st, i) || us.Status == Retired || us.ShieldWall || us.Schiltron || !shocker(sc, st, i) ||
			us.Fired && unitType(sc, st, i).FireOrShock {
			continue
		}
		fe := frontalEnemies(sc, st, i)
		if isEngaged(st, i) {
			fe = engagedIn(sc, st, i, fe) // Arquebus 14.5: only the units it is Engaged with
		}
		if unitType(sc, st, i).ShockPartner && !partnerDeclared(sc, st, unitIDs(sc, fe)) {
			continue // Blood & Roses 16.3: its partner is declared first
		}
		if len(fe) > 0 {
			out = append(out, "SHOCK "+u.ID+" AT "+strings.Join(unitIDs(sc, fe), " "))
		}
		for j, e := range sc.Units {
			if _, why := mayCharge(sc, st, i, j); e.Side == u.Side || !onField(st, j) || why != "" {
				continue
			}
			if paths, _ := chargePaths(sc, st, i, j); len(paths) > 0 {
				out = append(out, "CHARGE "+u.ID+" AT "+e.ID+" "+hexIDs(paths[0].hexes))
			}
		}
	}
	return out
}
