package engine

import (
	"fmt"
	"sort"
	"strings"

	"herald/engine/hex"
)

// 10.3 Step 3 and 10.4: one attack resolved. "Shock is resolved against each
// defending unit, individually"; one attacker against two defenders rolls
// twice and the results, "which can be cumulative", are applied after both
// rolls (10.3 PLAY NOTE). "When multiple attacking units are involved in an
// attack, any negative combat results apply to all attacking units." The
// Charge Table is used "as long as at least half of the units in an
// individual attack succeeded in Charging" (10.3, 12.1).

// rollAttack rolls the attack at the head of the round's queue: one roll
// per defender still face to face with its attackers, each with the DRMs
// of 10.4; the results are applied after (applyResolution).
func (g *game) rollAttack(sa ShockAttack) error {
	a := g.attackOf(sa)
	atk, defs := g.engaged(a)
	if g.st.Shock.Round > 0 && len(atk) > 0 && g.sc.Tables.Rules.RetreatBeforeContinued {
		if err := g.continuedRetreats(atk, defs); err != nil {
			return err
		}
		atk, defs = g.engaged(a)
	}
	if len(atk) == 0 || len(defs) == 0 {
		g.emit(AttackLapsed{Attackers: sa.Attackers, Defenders: sa.Defenders, Queued: true,
			Reason: "the attackers and defenders are no longer face to face"})
		return nil
	}
	var charging []int
	for _, i := range atk {
		if containsInt(a.charging, i) {
			charging = append(charging, i)
		}
	}
	table, name := &g.sc.Tables.Shock, "Shock"
	if len(charging) > 0 && 2*len(charging) >= len(atk) {
		table, name = &g.sc.Tables.Charge, "Charge"
	}
	round := g.st.Shock.Round
	defs = oneAHex(g.st, defs) // Arquebus 10.3: a stack is one defender
	res := Resolution{Round: round, Attackers: unitIDs(g.sc, atk), Defenders: unitIDs(g.sc, defs), Charging: unitIDs(g.sc, charging)}
	for _, j := range defs {
		mods := shockModifiers(g.sc, g.st, atk, stackDefender(g.sc, g.st, j), len(defs), charging, round)
		mods = append(mods, g.counterChargeMods(a, j)...)
		mods = append(mods, g.breachMods(atk, j)...) // B&R 6.3 Into the Breach
		col := shockColumn(g.st, j)
		p := partner(g.st, j)
		if p >= 0 {
			col = stackColumn(g.st, j, p)
			res.Stacked = append(res.Stacked, g.sc.Units[p].ID)
		} else {
			res.Stacked = append(res.Stacked, "")
		}
		if p < 0 && unitType(g.sc, g.st, j).NoShockDie {
			// Arquebus 12.5: Artillery standing alone is overrun, no die.
			result := overrun(name == "Charge")
			g.emit(AttackResolved{Round: round, Attackers: res.Attackers, Defender: g.sc.Units[j].ID,
				Table: table.Name, Column: col, NoDie: true, Result: result.Text})
			res.From = append(res.From, g.st.Units[j].Hex)
			res.Results = append(res.Results, result)
			continue
		}
		r, err := g.roll(fmt.Sprintf("%s DR: %s against %s", name, strings.Join(res.Attackers, ", "), g.sc.Units[j].ID), mods...)
		if err != nil {
			return err
		}
		result, _ := table.Lookup(col, r.Total)
		g.emit(AttackResolved{Round: round, Attackers: res.Attackers, Defender: g.sc.Units[j].ID,
			Table: table.Name, Column: col, Roll: r, Result: result.Text})
		res.From = append(res.From, g.st.Units[j].Hex)
		res.Results = append(res.Results, result)
	}
	g.emit(AttackRolled{Resolution: res})
	return nil
}

// overrun is the result of a Shock or Charge against a unit of a
// NoShockDie type, with no die: "No die is rolled when Artillery units are
// Shocked or Charged, unless they are stacked with another non-Artillery
// unit. The result is automatically Defender Eliminated for Shock attacks
// and Defender Eliminated, Continued Attack for Charges" (Arquebus 12.5).
func overrun(charge bool) Result {
	why := "Arquebus 12.5: no die is rolled against Artillery"
	r := Result{Text: "Defender Eliminated", Defender: []Effect{{Kind: EffectEliminated, Why: why}}}
	if charge {
		r.Text, r.ContinuedAttack = "Defender Eliminated, Continued Attack", true
	}
	return r
}

// effectStep is one unit's share of an attack's results.
type effectStep struct {
	unit    int
	effects []Effect
	against []int
	cause   string
	// noLeaders: the leaders in the unit's hex are checked with the unit
	// stacked with it, whose results come after (Arquebus 10.3; R368).
	noLeaders bool
}

// effectSteps lists the results of a rolled attack in the order they
// apply: each defender's, then each attacker's for each roll ("any
// negative combat results apply to all attacking units", cumulative for
// one attacker against two, 10.3).
func (g *game) effectSteps(r Resolution) []effectStep {
	atk, defs := idxOf(g.sc, r.Attackers), idxOf(g.sc, r.Defenders)
	var out []effectStep
	for k, j := range defs {
		cause := "Shock by " + strings.Join(r.Attackers, ", ")
		out = append(out, g.defenderSteps(j, r, k, atk, cause)...)
	}
	for k := range defs {
		for _, i := range atk {
			effects, cause := g.attackerEffects(i, r.Results[k])
			out = append(out, effectStep{unit: i, effects: effects, against: defs, cause: "its attack on " + r.Defenders[k] + cause})
		}
	}
	return out
}

// attackerEffects are the effects attacker i suffers from result res: all
// its attacker effects, or, where it gives "a choice of Disorder or
// Retreat", the one its player chose for it by STANDING ATTACKER RETREAT
// (ALWAYS: the Retreat; NEVER, the default: the Disorder, which "There is
// nothing prohibiting" even for a Disordered unit) (Blood & Roses 14.1;
// ruling R267). cause says it was his choice.
func (g *game) attackerEffects(i int, res Result) ([]Effect, string) {
	if !res.AttackerChoice {
		return res.Attacker, ""
	}
	retreat := standingFor(g.sc, g.st, i, KindAttackerRetreat, FireNever) == FireAlways
	var out []Effect
	for _, e := range res.Attacker {
		if (e.Kind == EffectRetreat) == retreat {
			out = append(out, e)
		}
	}
	if retreat {
		return out, ", Retreat chosen over Disorder (Blood & Roses 14.1)"
	}
	return out, ", Disorder chosen over Retreat (Blood & Roses 14.1)"
}

func idxOf(sc *Scenario, ids []string) []int {
	var out []int
	for _, id := range ids {
		out = append(out, unitIdx(sc, id))
	}
	return out
}

// applyResolution applies a rolled attack's results from where they stand,
// stopping when a retreat waits for its owner's choice, then the Advance
// and the Continued Attacks it earns (10.5).
func (g *game) applyResolution(r Resolution) error {
	steps := g.effectSteps(r)
	for k := r.Done; k < len(steps); k++ {
		s := steps[k]
		if err := g.combatEffects(s.unit, s.effects, s.against, s.cause, s.noLeaders); err != nil {
			return err
		}
		if g.st.Retreat != nil {
			g.emit(ShockPaused{Done: k + 1, Unit: g.st.Retreat.Unit})
			return nil
		}
	}
	ca := false
	for _, x := range r.Results {
		ca = ca || x.ContinuedAttack
	}
	g.engageAfter(r, ca)
	earned, asked := g.afterAttack(idxOf(g.sc, r.Attackers), idxOf(g.sc, r.Charging), r.From, ca, len(steps))
	if asked {
		return nil
	}
	g.attackDone(earned)
	return nil
}

// engaged are the attackers of a still able to attack (on the field, not
// Retired, next to one of its defenders) and the defenders next to them.
func (g *game) engaged(a *attack) (atk, defs []int) {
	grid := g.sc.Map.Grid
	for _, j := range a.defenders {
		if !onField(g.st, j) {
			continue
		}
		for _, i := range a.attackers {
			if onField(g.st, i) && g.st.Units[i].Status != Retired && grid.Distance(g.st.Units[i].Hex, g.st.Units[j].Hex) == 1 {
				defs = append(defs, j)
				break
			}
		}
	}
	for _, i := range a.attackers {
		if !onField(g.st, i) || g.st.Units[i].Status == Retired {
			continue
		}
		for _, j := range defs {
			if grid.Distance(g.st.Units[i].Hex, g.st.Units[j].Hex) == 1 {
				atk = append(atk, i)
				break
			}
		}
	}
	return atk, defs
}

// shockColumn: "The Shock and Charge combat results column used depend on
// whether the defending unit is Normal or Disordered" (12.1); a Retired
// unit is treated as Disordered (12.4).
func shockColumn(st *State, j int) string {
	if st.Units[j].Status == Normal {
		return "normal"
	}
	return "disordered"
}

// shockModifiers are the DRMs of 10.4 for attackers atk against defender j,
// in the book's order, each with its reason and section. Zero DRMs are left
// out, as the books' examples leave them out.
func shockModifiers(sc *Scenario, st *State, atk []int, j, defenders int, charging []int, round int) []Modifier {
	t := sc.Tables.ShockDRM
	var mods []Modifier
	add := func(drm int, rule, reason string, args ...any) {
		if drm != 0 {
			mods = append(mods, Modifier{DRM: drm, Reason: fmt.Sprintf(reason, args...), Rule: rule})
		}
	}
	add(len(atk)-defenders, "10.4 #1", "Strength Advantage, %s against %d", count(len(atk), "unit"), defenders)
	angle, why := angleOfAttack(sc, st, atk, j)
	add(angle, "10.4 #2A", "Angle of Attack: %s", why)
	if drm, what := shockTerrain(sc, st, atk, j); drm != 0 {
		add(drm, "10.4 #2B", "terrain: %s", what)
	}
	if lowerThan(sc, st, atk, j) {
		add(t.Height, "10.4 #2C", "every attacker lower than the defender")
	}
	r, dj := ratings(sc, st, j), st.Units[j]
	if dj.Status == Normal {
		add(r.Shock, "10.4 #3", "%s's Shock Defense", sc.Units[j].ID)
	} else {
		add(r.ShockDisordered, "10.4 #3", "%s's Shock Defense, Disordered side", sc.Units[j].ID)
	}
	if len(charging) > 0 {
		moved := false
		for _, i := range charging {
			moved = moved || st.Units[i].Marched
		}
		if moved {
			add(t.ChargeMoved, "10.4 #4, 11.2", "Charge by a unit that moved this Activation")
		} else {
			add(t.Charge, "10.4 #4, 11.2", "Charge")
		}
		for _, i := range charging {
			if len(stackedLeaders(sc, st, i)) > 0 && !sc.Tables.Rules.LeaderCharisma && len(sc.Tables.Rules.LeaderPresenceTypes) == 0 {
				add(t.Leader, "10.4 #5, 15.3", "a leader with the charging %s", sc.Units[i].ID)
				break
			}
		}
	}
	if sc.Tables.Rules.LeaderCharisma {
		if c, who := bestCharisma(sc, st, atk); c != 0 {
			add(c, "10.4 #5, 12.3 #4", "%s's Charisma", who)
		}
	}
	if who, unit := presentLeader(sc, st, atk); who != "" {
		add(t.Leader, "5.3, 12.3 #4", "%s with the attacking %s", who, unit)
	}
	if c, who := typedCharisma(sc, st, atk); c != 0 {
		add(c, "5.4, 12.3 #4", "%s's Charisma", who)
	}
	wsm, from, dt := bestWSM(sc, st, atk, j)
	add(wsm, "10.4 #6", "Weapon System Matrix, %s against %s", from, dt)
	for _, i := range atk {
		if st.Units[i].Status == Disordered {
			add(t.AttackerDisordered, "10.4 #7", "attacker Disordered")
			break
		}
	}
	if dj.Status == Retired {
		add(t.DefenderRetired, "10.4 #8, 12.4", "defender Retired")
	}
	if dj.ShieldWall && anyThrough(sc, st, atk, j, hex.Front) {
		add(t.ShieldWall, "10.4 #9, 14.1", "Shield Wall attacked through its Front")
	}
	if inSchiltron(st, j) {
		add(t.Schiltron, "10.4 #9, R89", "Schiltron")
	}
	if round > 0 {
		add(round*t.ContinuedAttack, "12.7", "Continued Attack, %s before this one in the Activation", count(round, "attack"))
	}
	return mods
}

// bestCharisma is the highest Charisma among the leaders stacked with the
// attackers, and whose it is (Blood & Roses 12.3 #4: "only the highest
// Charisma applies, once"). A Replacement leader has none (ruling R86).
// With Rules.CharismaOwnLeaders only the Overall Commander and the unit's
// own Battle leader give theirs (Arquebus 5.2: "any unit stacked with the
// OC or its Battle leader"; a Replacement OC is only a Battle leader, 5.5).
func bestCharisma(sc *Scenario, st *State, atk []int) (best int, who string) {
	own := sc.Tables.Rules.CharismaOwnLeaders
	for _, i := range atk {
		for _, l := range stackedLeaders(sc, st, i) {
			spec := sc.Leaders[l]
			if own && spec.Command != sc.Units[i].Command && !spec.OC {
				continue
			}
			if c := spec.Charisma; !st.Leaders[l].Replaced && (who == "" || c > best) {
				best, who = c, spec.Name
			}
		}
	}
	return best, who
}

// count is "1 unit", "2 units": the reasons of DRMs read as the books do.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// angleOfAttack (10.4 #2A): through a Flank +2, through the Rear +3, through
// two or more of Front, Left Flank, Right Flank and Rear +4 instead.
func angleOfAttack(sc *Scenario, st *State, atk []int, j int) (int, string) {
	t, dj := sc.Tables.ShockDRM, st.Units[j]
	if inSchiltron(st, j) {
		return 0, "" // a ring of pikes has no Flank or Rear (ruling R89)
	}
	sides := map[string]bool{}
	var names []string
	for _, i := range atk {
		d, ok := sc.Map.Grid.DirTo(dj.Hex, st.Units[i].Hex)
		if !ok {
			continue
		}
		name := dj.Facing.SideAspect(d).String()
		if fl := dj.Facing.Flank(); d == fl[0] {
			name = "Left Flank"
		} else if d == fl[1] {
			name = "Right Flank"
		}
		if !sides[name] {
			sides[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	switch {
	case len(sides) >= 2:
		return t.TwoSides, strings.Join(names, " and ")
	case sides["Rear"]:
		return t.Rear, "through the Rear"
	case sides["Left Flank"] || sides["Right Flank"]:
		return t.Flank, "through a Flank"
	}
	return 0, ""
}

// anyThrough: some attacker stands at aspect a of defender j.
func anyThrough(sc *Scenario, st *State, atk []int, j int, a hex.Aspect) bool {
	for _, i := range atk {
		if isAspect(sc.Map.Grid, st.Units[j].Hex, st.Units[j].Facing, st.Units[i].Hex, a) {
			return true
		}
	}
	return false
}

// shockTerrain (10.4 #2B): the defender's hex and the hexside crossed, by
// the attacker's class; with attackers whose terrain differs, "the terrain
// DRM most favorable to the defender is used". A slope counts only when
// attacking up it (ruling R76).
func shockTerrain(sc *Scenario, st *State, atk []int, j int) (int, string) {
	if sc.Tables.Rules.ShockTerrainAll {
		return shockTerrainAll(sc, st, atk, j)
	}
	to := st.Units[j].Hex
	best, what := 0, ""
	for k, i := range atk {
		class := unitType(sc, st, i).Class()
		drm, names := 0, []string{}
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(to)]; tt != nil && tt.ShockDRM[class] != 0 {
			drm += tt.ShockDRM[class]
			names = append(names, tt.Name)
		}
		// 10.4 #2B "In some battles there are also modifiers for the
		// attacker's terrain": the battle's, added to the defender's.
		if from := sc.Map.TerrainAt(st.Units[i].Hex); sc.Rules.AttackerShock[from][class] != 0 {
			drm += sc.Rules.AttackerShock[from][class]
			name := from
			if tt := sc.Tables.Terrain[from]; tt != nil {
				name = tt.Name
			}
			names = append(names, fmt.Sprintf("%s attacks from %s", sc.Units[i].ID, name))
		}
		for _, f := range featuresBetween(&sc.Map, st.Units[i].Hex, to) {
			t := sc.Tables.Hexsides[f.Feature]
			if t == nil || t.ShockDRM[class] == 0 || t.Slope && f.B != to {
				continue
			}
			drm += t.ShockDRM[class]
			names = append(names, t.Name)
		}
		if k == 0 || drm < best {
			best, what = drm, strings.Join(names, ", ")
		}
	}
	return best, what
}

// shockTerrainAll: Arquebus 12.3 #2B "If there is more than one attacker
// with different hex or hexside terrain considerations (e.g., one is
// attacking across a ditch, the other isn't), apply all terrain DRMs (but
// a single DRM is only applied once)." Each terrain or hexside feature
// that concerns an attacker (the defender's hex, the attacker's own hex
// where the battle prices it, each hexside crossed) counts once; where
// its DRM differs by the attackers' class, the one most favourable to
// the defender (ruling R420).
func shockTerrainAll(sc *Scenario, st *State, atk []int, j int) (int, string) {
	to := st.Units[j].Hex
	drms := map[string]int{}
	var order []string
	note := func(name string, drm int) {
		if drm == 0 {
			return
		}
		if old, seen := drms[name]; !seen || drm < old {
			if !seen {
				order = append(order, name)
			}
			drms[name] = drm
		}
	}
	for _, i := range atk {
		class := unitType(sc, st, i).Class()
		if tt := sc.Tables.Terrain[sc.Map.TerrainAt(to)]; tt != nil {
			note(tt.Name, tt.ShockDRM[class])
		}
		if from := sc.Map.TerrainAt(st.Units[i].Hex); sc.Rules.AttackerShock[from][class] != 0 {
			name := from
			if tt := sc.Tables.Terrain[from]; tt != nil {
				name = tt.Name
			}
			note("attacking from "+name, sc.Rules.AttackerShock[from][class])
		}
		for _, f := range featuresBetween(&sc.Map, st.Units[i].Hex, to) {
			if t := sc.Tables.Hexsides[f.Feature]; t != nil && !(t.Slope && f.B != to) {
				note(t.Name, t.ShockDRM[class])
			}
		}
	}
	total, names := 0, make([]string, 0, len(order))
	for _, n := range order {
		total += drms[n]
		names = append(names, fmt.Sprintf("%s %+d", n, drms[n]))
	}
	return total, strings.Join(names, ", ") + " (each once, Arquebus 12.3 #2B)"
}

// lowerThan: "all attacking units are on lower level than the defending
// unit" (10.4 #2C).
func lowerThan(sc *Scenario, st *State, atk []int, j int) bool {
	h := sc.Map.Elevation[st.Units[j].Hex]
	for _, i := range atk {
		if sc.Map.Elevation[st.Units[i].Hex] >= h {
			return false
		}
	}
	return true
}

// bestWSM: the Weapon System Matrix DRM; "If an attacker is doing so with
// multiple units of different types, he may use the DRM with the best
// benefit for the Attacker" (10.4 #6).
func bestWSM(sc *Scenario, st *State, atk []int, j int) (drm int, attacker, defender string) {
	dt := unitType(sc, st, j).Key
	if as := unitType(sc, st, j).ReactedDefendsAs; as != "" && st.Units[j].Reacted {
		dt = as // Infidel 16.2: it used Reaction Fire, so it defends as Archers
	}
	best, from := 0, ""
	for k, i := range atk {
		at := unitType(sc, st, i).Key
		if v := sc.Tables.WSM[at][dt]; k == 0 || v > best {
			best, from = v, at
		}
	}
	return best, from, dt
}

// combatEffects applies one side of a Shock or Charge result to unit i,
// with the Leader Casualty Check of 15.4: "Any time a leader is stacked
// with a unit that receives either a Disordered, Retired or Eliminated
// result" (Unhorsed leaves it Disordered, 12.5; a unit that cannot retreat
// is eliminated, 12.3), once. A retreat comes last, after the check, so
// that a retreat waiting for its owner's choice ends the unit's share.
// Against are the units on the other side, which a retreat moves away
// from.
func (g *game) combatEffects(i int, effects []Effect, against []int, cause string, noLeaders bool) error {
	if len(effects) == 0 || !onField(g.st, i) {
		return nil
	}
	leaders := stackedLeaders(g.sc, g.st, i)
	if noLeaders {
		leaders = nil
	}
	check, retreat := false, false
	for _, e := range effects {
		check = check || e.Kind != EffectRetreat // a Knight's Retire checks its leaders though it Retreats (ruling R175)
	}
	for _, e := range asResults(g.sc, g.st, i, effects) {
		if g.st.Units[i].Status == Eliminated {
			break
		}
		switch e.Kind {
		case EffectDisordered:
			g.disorder(i, cause, against)
		case EffectRetreat:
			retreat = true
		case EffectRetired:
			g.retireFrom(i, cause, against)
		case EffectUnhorsed:
			g.unhorse(i, cause, against)
		case EffectEliminated:
			g.eliminate(i, cause+e.why())
		}
		check = check || e.Kind != EffectRetreat
	}
	if retreat && onField(g.st, i) && g.st.Units[i].Status != Retired && !g.st.Units[i].NoRetreat && !g.st.Units[i].Schiltron && len(retreatPaths(g.sc, g.st, i, against)) == 0 {
		g.eliminate(i, cause+"; it cannot retreat (12.3)")
	}
	status := g.st.Units[i].Status
	if check || status == Eliminated {
		left, err := g.leaderCasualties(leaders, "shock", true)
		if err != nil {
			return err
		}
		leaders = left
	}
	if status == Retired || status == Eliminated {
		return g.displaceLeaders(leaders)
	}
	if retreat {
		return g.retreat(i, against, cause)
	}
	return nil
}

// unhorse: "Replace the Mounted MAA with an Unhorsed MAA unit in Disordered
// status" (12.5). A unit with no horse to lose is Disordered instead
// (ruling R77); a Retired one is eliminated (12.4). Against are the units
// that inflicted it (Infidel 14.4, through disorder).
func (g *game) unhorse(i int, cause string, against []int) {
	switch t := unitType(g.sc, g.st, i); {
	case g.st.Units[i].Status == Retired:
		g.eliminate(i, cause+"; a Retired unit is eliminated by any result (12.4)")
	case t.Unhorsed == "":
		g.disorder(i, cause+"; it has no horse to lose", against)
	default:
		g.emit(UnitUnhorsed{Unit: g.sc.Units[i].ID, Type: t.Unhorsed, Cause: cause})
	}
}

// afterAttack is 10.5 Advance after Combat and the Continued Attacks it
// earns. "The attacker must, if possible, Advance one of his eligible
// attacking units into that hex": not a Disordered unit that did not earn
// a Continued Attack, nor one barred by terrain; a Charging unit first,
// then a Mounted unit, then a non-Disordered one. Where that leaves a
// choice the attacker's standing orders may ask him (advance_decision.go);
// else Herald takes the first unit by id and the first defender's hex
// (ruling R75). The unit that advances makes the Continued Attack,
// keeping its facing (10.5 example); with no advance every attacker still
// there continues. asked: the phase waits for the attacker's choice.
func (g *game) afterAttack(atk, charging []int, from []hex.Hex, ca bool, done int) (earned []int, asked bool) {
	opts := g.advanceOptions(atk, charging, from, ca)
	if len(opts) > 0 {
		if g.askAdvance(opts, ca, done) {
			return nil, true
		}
		return g.advance(unitIdx(g.sc, opts[0].Unit), opts[0].Hex, nil, ca), false
	}
	if !ca {
		return nil, false
	}
	for _, i := range atk {
		// Blood & Roses 16.3: Levy "may never be the unit chosen to
		// receive a Continued Attack marker".
		if onField(g.st, i) && g.st.Units[i].Status != Retired && !unitType(g.sc, g.st, i).NoContinuedAttack {
			earned = append(earned, i)
		}
	}
	return earned, false
}

// mayAdvance: attacker i is eligible to advance into h (10.5).
func (g *game) mayAdvance(i int, h hex.Hex, ca bool) bool {
	us := g.st.Units[i]
	return onField(g.st, i) && us.Status != Retired && (us.Status != Disordered || ca) && !unitType(g.sc, g.st, i).NoAdvance && // Blood & Roses 16.3
		!tooFirmToAdvance(g.sc, g.st, i) && // Arquebus 12.4
		g.sc.Map.Grid.Distance(us.Hex, h) == 1 && enterCost(g.sc, us.Hex, h, unitType(g.sc, g.st, i).Class()) != NA &&
		!(ambushing(g.sc, g.st, i) && enemyStandardAt(g.sc, g.st, g.sc.Units[i].Side, h)) // Blood & Roses 16.1
}

// tooFirmToAdvance: with rules.no_advance_shock_defense, unit i's Shock
// Defense DRM on the side of its counter in play is that or more, and it
// may not Advance After Combat (Arquebus 12.4: "It is a unit of any type
// with a Shock Defense DRM +2 or higher"; ruling R384).
func tooFirmToAdvance(sc *Scenario, st *State, i int) bool {
	min := sc.Tables.Rules.NoAdvanceShockDefense
	if min <= 0 {
		return false
	}
	r := ratings(sc, st, i)
	if st.Units[i].Status == Normal {
		return r.Shock >= min
	}
	return r.ShockDisordered >= min
}

// advance moves unit i into h, turned to face when it is not nil; it
// returns the unit when it makes the Continued Attack.
func (g *game) advance(i int, h hex.Hex, face *hex.Facing, ca bool) []int {
	g.emit(UnitAdvanced{Unit: g.sc.Units[i].ID, From: g.st.Units[i].Hex, To: h, ContinuedAttack: ca, Facing: face,
		Leaders: leaderIDs(g.sc, stackedLeaders(g.sc, g.st, i))})
	g.captureIn(i, h)
	if ca {
		return []int{i}
	}
	return nil
}

// advanceRank is a candidate's 10.5 priority: the higher, the sooner.
func (g *game) advanceRank(i int, charging []int) int {
	r := 0
	if containsInt(charging, i) {
		r += 4
	}
	if unitType(g.sc, g.st, i).Mounted {
		r += 2
	}
	if g.st.Units[i].Status == Normal {
		r++
	}
	return r
}

// sortAdvance orders the candidates of an advance by priority, then id.
func (g *game) sortAdvance(cands, charging []int) {
	sort.SliceStable(cands, func(x, y int) bool {
		rx, ry := g.advanceRank(cands[x], charging), g.advanceRank(cands[y], charging)
		if rx != ry {
			return rx > ry
		}
		return g.sc.Units[cands[x]].ID < g.sc.Units[cands[y]].ID
	})
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// captureIn: a unit entering a hex captures the enemy Standard standing
// there alone (13.2) and sends the enemy leaders there alone to their
// nearest unit, or takes them when surrounded (15.5).
func (g *game) captureIn(i int, h hex.Hex) {
	side := g.sc.Units[i].Side
	for k, s := range g.sc.Standards {
		ss := g.st.Standards[k]
		if s.Side == side || ss.Captured || ss.Hex != h {
			continue
		}
		if g.sc.Tables.Rules.StandardsDisplaced {
			if err := g.displaceStandard(s.ID, s.Side, g.sc.Units[i].ID); err != nil && g.failed == nil {
				g.failed = err
			}
			continue
		}
		g.emit(StandardCaptured{Standard: s.ID, By: g.sc.Units[i].ID, At: h})
		for u := range g.sc.Units {
			if c := g.sc.Command(unitCommand(g.sc, g.st, u)); c != nil && c.Standard == s.ID && g.st.Units[u].Status == Retired && !g.st.Units[u].OffMap {
				g.eliminate(u, fmt.Sprintf("its Standard %s was captured (13.2)", s.ID))
			}
		}
	}
	var alone []int
	for l, ls := range g.st.Leaders {
		if g.sc.Leaders[l].Side != side && !ls.OffMap && !ls.Killed && ls.Hex == h {
			alone = append(alone, l)
		}
	}
	if len(alone) > 0 {
		_ = g.displaceLeaders(alone) // never fails: it rolls no die
	}
}

// AttackResolved: one defender's Shock or Charge roll and its result
// (10.3, 10.4, 12.1); the effects follow as events.
type AttackResolved struct {
	Round     int      `json:"round,omitempty"`
	Attackers []string `json:"attackers"`
	Defender  string   `json:"defender"`
	Table     string   `json:"table"`
	Column    string   `json:"column"`
	Roll      Roll     `json:"roll"`
	// NoDie: no die was rolled, the result is the rule's (Arquebus 12.5);
	// Roll is empty.
	NoDie  bool   `json:"no_die,omitempty"`
	Result string `json:"result"`
}

func (e AttackResolved) apply(st *State) {
	for _, a := range e.Attackers {
		st.Unit(a).Acted = true
	}
	st.Unit(e.Defender).Acted = true
}

func (e AttackResolved) describe(*Scenario) string {
	if e.NoDie {
		return fmt.Sprintf("%s against %s: no die is rolled against Artillery (Arquebus 12.5), %s: %s.", strings.Join(e.Attackers, " and "), e.Defender, e.Table, e.Result)
	}
	return fmt.Sprintf("%s against %s: %s: %s, %s column: %s (10.3).", strings.Join(e.Attackers, " and "), e.Defender,
		describeRoll(e.Roll), e.Table, e.Column, e.Result)
}

// UnitUnhorsed: a Mounted MAA replaced by an Unhorsed MAA, Disordered
// (12.5).
type UnitUnhorsed struct {
	Unit  string `json:"unit"`
	Type  string `json:"type"`
	Cause string `json:"cause"`
}

func (e UnitUnhorsed) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Type, u.Status = e.Type, Disordered
}

func (e UnitUnhorsed) describe(*Scenario) string {
	return fmt.Sprintf("%s is Unhorsed: it fights on foot as %s, Disordered (%s; 12.5).", e.Unit, e.Type, e.Cause)
}

// UnitAdvanced: an attacker advanced into a vacated hex (10.5); it is not
// Movement and draws no Reaction Fire.
type UnitAdvanced struct {
	Unit            string  `json:"unit"`
	From            hex.Hex `json:"from"`
	To              hex.Hex `json:"to"`
	ContinuedAttack bool    `json:"continued_attack,omitempty"`
	// Facing is the vertex the unit turns to after an advance without a
	// Continued Attack (10.5); nil: it keeps its facing.
	Facing *hex.Facing `json:"facing,omitempty"`
	// Leaders stacked with the unit advance with it (5.1).
	Leaders []string `json:"leaders,omitempty"`
}

func (e UnitAdvanced) apply(st *State) {
	st.Unit(e.Unit).Hex = e.To
	if e.Facing != nil {
		st.Unit(e.Unit).Facing = *e.Facing
	}
	for _, l := range e.Leaders {
		st.Leader(l).Hex = e.To
	}
}

func (e UnitAdvanced) describe(*Scenario) string {
	if e.ContinuedAttack {
		return fmt.Sprintf("%s advances into %s, keeping its facing, for its Continued Attack (10.5, 12.7).", e.Unit, e.To)
	}
	if e.Facing != nil {
		return fmt.Sprintf("%s advances into %s and faces %s (10.5).", e.Unit, e.To, e.Facing)
	}
	return fmt.Sprintf("%s advances into %s (10.5).", e.Unit, e.To)
}

// StandardCaptured: an enemy unit entered the hex of a Standard standing
// alone (13.2).
type StandardCaptured struct {
	Standard string  `json:"standard"`
	By       string  `json:"by"`
	At       hex.Hex `json:"at"`
}

func (e StandardCaptured) apply(st *State) { st.Standard(e.Standard).Captured = true }

func (e StandardCaptured) describe(*Scenario) string {
	return fmt.Sprintf("%s captures the Standard %s in %s: its Retired units are lost, and so will be any it Retires hereafter (13.2).", e.By, e.Standard, e.At)
}

// AttackRolled: an attack's rolls are made; its results are applied
// next (10.3 PLAY NOTE: "results ... applied after both attacks are
// resolved").
type AttackRolled struct {
	Resolution Resolution `json:"resolution"`
}

func (e AttackRolled) apply(st *State) {
	r := e.Resolution.clone()
	st.Shock.Current = &r
	st.Shock.Queue = st.Shock.Queue[1:]
}

func (AttackRolled) describe(*Scenario) string { return "" }

// ShockPaused: an attack's results wait for a retreat to be chosen; Done
// of them are applied.
type ShockPaused struct {
	Done int    `json:"done"`
	Unit string `json:"unit"`
}

func (e ShockPaused) apply(st *State) { st.Shock.Current.Done = e.Done }

func (e ShockPaused) describe(*Scenario) string {
	return fmt.Sprintf("The Shock Phase waits for %s's retreat (12.3).", e.Unit)
}

// AttackDone: an attack's results and Advance are done; Earned made a
// Continued Attack (12.7).
type AttackDone struct {
	Earned []string `json:"earned,omitempty"`
}

func (e AttackDone) apply(st *State) {
	st.Shock.Current = nil
	st.Shock.Earned = append(st.Shock.Earned, e.Earned...)
}

func (AttackDone) describe(*Scenario) string { return "" }

func init() {
	registerEvents(AttackResolved{}, AttackRolled{}, ShockPaused{}, AttackDone{}, UnitUnhorsed{}, UnitAdvanced{}, StandardCaptured{})
}
