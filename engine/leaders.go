package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"herald/engine/hex"
)

// 15.4 Leader Casualties. "By Fire: Anytime an adjusted Fire DR of 9 or
// more occurs, and there is a leader in the target hex, roll the die. If
// the DR is an '8' or '9' the leader is killed ... If the combat unit the
// leader is stacked with is Retired or Eliminated by missile fire the
// owning player places the leader with the nearest unit from his Command,
// unless he is surrounded in which case he is killed." The thresholds are
// the tables' leader_casualty.

// leaderCasualties rolls for each leader in a hex hit by a modified 9+
// (by fire) or stacked with a unit Disordered, Retired or Eliminated by
// Shock or Charge (shock: the die minus his Activation Rating). It returns
// the leaders still where they were: not those a Near Miss saved and
// placed elsewhere (B&R 6.3), whom no displacement concerns.
func (g *game) leaderCasualties(leaders []int, by string, shock bool) ([]int, error) {
	var left []int
	lc := g.sc.Tables.LeaderCasualty
	for _, l := range leaders {
		spec := g.sc.Leaders[l]
		if g.st.Leaders[l].Killed || g.st.Leaders[l].OffMap {
			continue
		}
		var mods []Modifier
		threshold := lc.Fire
		if shock {
			threshold = lc.Shock
			// Blood & Roses 5.5: "roll one die for the leader, with no adjustments".
			if !g.sc.Tables.Rules.LeaderCasualtyUnmodified {
				ar, _ := leaderRatings(g.sc, g.st, spec.ID)
				mods = []Modifier{{DRM: -ar, Reason: "his Activation Rating", Rule: "15.4"}}
			}
		}
		r, err := g.roll(fmt.Sprintf("Leader casualty DR: %s (by %s)", spec.Name, by), mods...)
		if err != nil {
			return nil, err
		}
		g.emit(LeaderCasualtyRolled{Leader: spec.ID, Roll: r, Killed: r.Total >= threshold, Rule: "15.4"})
		if g.nearMiss(l) { // B&R 6.3
			continue
		}
		left = append(left, l)
	}
	return left, nil
}

// stackedLeaders are the leaders of unit i's side in its hex.
func stackedLeaders(sc *Scenario, st *State, i int) []int {
	var out []int
	for l, ls := range st.Leaders {
		if !ls.OffMap && !ls.Killed && ls.Hex == st.Units[i].Hex && sc.Leaders[l].Side == sc.Units[i].Side {
			out = append(out, l)
		}
	}
	return out
}

// displaceLeaders places each surviving leader whose unit was Retired or
// Eliminated under him with the nearest unit of his Command, or kills him
// when he is surrounded by enemy units and ZOCs (15.4, 15.5). A leader with
// no unit of his Command left rides off without penalty (15.0).
func (g *game) displaceLeaders(leaders []int) error {
	for _, l := range leaders {
		spec, ls := g.sc.Leaders[l], g.st.Leaders[l]
		if ls.Killed || ls.OffMap {
			continue
		}
		if surrounded(g.sc, g.st, spec.Side, ls.Hex) {
			g.emit(LeaderLost{Leader: spec.ID, Killed: true, Reason: "surrounded by enemy units and ZOCs (15.4)"})
			g.nearMiss(l) // B&R 6.3: a death, or a capture (B&R 5.5)
			continue
		}
		if g.sc.Tables.Rules.DisplaceToBattle {
			g.displaceToBattle(l)
			continue
		}
		to, ok := nearestOfCommand(g.sc, g.st, l)
		if !ok {
			g.emit(LeaderLost{Leader: spec.ID, Reason: "his whole Command is gone: he rides off the field without penalty (15.0)"})
			continue
		}
		g.emit(LeaderPlaced{Leader: spec.ID, To: to})
	}
	return nil
}

// displaceToBattle: Arquebus 5.4 "the owning player places the leader
// with the nearest unit from a Battle he commands. If there are no units
// left in any of his Battles, he is removed without penalty (see 5.0). If
// he is an OC that is not a Battle leader or is an OC that is also a
// Battle leader (with no units remaining), place him with the closest
// friendly unit." Play Note: "the nearest unit from that leader's Battle
// can be a reinforcement group that has not yet entered the map ... he
// will enter the map with them." The nearest unit is R65's (not Retired,
// lowest id on a tie); an off-map group only when no unit of his Battle
// is on the map (ruling R426).
func (g *game) displaceToBattle(l int) {
	spec := g.sc.Leaders[l]
	if to, ok := nearestOfCommand(g.sc, g.st, l); ok {
		g.emit(LeaderPlaced{Leader: spec.ID, To: to, Rule: "Arquebus 5.4"})
		return
	}
	if reinforcementsLeft(g.sc, g.st, spec.Command) {
		g.emit(LeaderJoinedReinforcements{Leader: spec.ID, Command: spec.Command})
		return
	}
	if spec.OC {
		var cands []int
		for i := range g.sc.Units {
			if us := g.st.Units[i]; g.sc.Units[i].Side == spec.Side && onField(g.st, i) && us.Status != Retired {
				cands = append(cands, i)
			}
		}
		if len(cands) > 0 {
			to := g.st.Units[nearestUnit(g.sc, g.st, g.st.Leaders[l].Hex, cands, false)].Hex
			g.emit(LeaderPlaced{Leader: spec.ID, To: to, Rule: "Arquebus 5.4", Friendly: true})
			return
		}
	}
	g.emit(LeaderLost{Leader: spec.ID, Reason: "no unit of his Battle is left: he is removed without penalty (Arquebus 5.0, 5.4)"})
}

// reinforcementsLeft: a unit of Command cmd is still off the map, to
// enter by its Command's entry hexes (5.3).
func reinforcementsLeft(sc *Scenario, st *State, cmd string) bool {
	c := sc.Command(cmd)
	if c == nil || len(c.Entry) == 0 {
		return false
	}
	for i, u := range sc.Units {
		if us := st.Units[i]; u.Command == cmd && us.OffMap && us.Status != Eliminated && !us.Returning {
			return true
		}
	}
	return false
}

// LeaderJoinedReinforcements: a displaced leader whose Battle has no unit
// on the map joins its reinforcements off the map and enters with them
// (Arquebus 5.4 Play Note).
type LeaderJoinedReinforcements struct {
	Leader  string `json:"leader"`
	Command string `json:"command"`
}

func (e LeaderJoinedReinforcements) apply(st *State) { st.Leader(e.Leader).OffMap = true }

func (e LeaderJoinedReinforcements) describe(sc *Scenario) string {
	return fmt.Sprintf("%s joins the reinforcements of %s off the map and will enter with them (Arquebus 5.4).", leaderName(sc, e.Leader), commandName(sc, e.Command))
}

// surrounded: every hex around h holds an enemy unit or lies in an enemy
// ZOC, or is off the map (15.5).
func surrounded(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for _, n := range sc.Map.Grid.Neighbors(h) {
		if !sc.Map.Grid.Contains(n) {
			continue
		}
		o := occupant(st, n)
		if (o < 0 || sc.Units[o].Side == side) && len(enemyZOC(sc, st, side, n)) == 0 {
			return false
		}
	}
	return true
}

// nearestOfCommand is the hex of the unit of leader l's Command nearest
// him that is neither Retired nor Eliminated; ties go to the lowest unit
// id (ruling R65).
func nearestOfCommand(sc *Scenario, st *State, l int) (hex.Hex, bool) {
	from := st.Leaders[l].Hex
	var cands []int
	for i := range sc.Units {
		us := st.Units[i]
		if unitCommand(sc, st, i) == sc.Leaders[l].Command && !us.OffMap && us.Status != Eliminated && us.Status != Retired {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return hex.Hex{}, false
	}
	return st.Units[nearestUnit(sc, st, from, cands, false)].Hex, true
}

// nearestUnit is the candidate nearest from, the lowest unit id on a tie
// (ruling R65); with retiredLast, a Retired candidate only when no other
// is left (ruling R281).
func nearestUnit(sc *Scenario, st *State, from hex.Hex, cands []int, retiredLast bool) int {
	return slices.MinFunc(cands, func(a, b int) int {
		if ra, rb := st.Units[a].Status == Retired, st.Units[b].Status == Retired; retiredLast && ra != rb {
			if ra {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(sc.Map.Grid.Distance(from, st.Units[a].Hex), sc.Map.Grid.Distance(from, st.Units[b].Hex)); c != 0 {
			return c
		}
		return cmp.Compare(sc.Units[a].ID, sc.Units[b].ID)
	})
}

// LeaderCasualtyRolled: the roll for a leader in a hex hit hard (15.4).
type LeaderCasualtyRolled struct {
	Leader string `json:"leader"`
	Roll   Roll   `json:"roll"`
	Killed bool   `json:"killed"`
	Rule   string `json:"rule"`
}

func (e LeaderCasualtyRolled) apply(st *State) {
	if e.Killed {
		l := st.Leader(e.Leader)
		l.Killed, l.OffMap = true, true
		l.Losses++
	}
}

func (e LeaderCasualtyRolled) describe(sc *Scenario) string {
	if e.Killed {
		return fmt.Sprintf("Leader casualty check for %s: %s: he is killed (%s).", leaderName(sc, e.Leader), describeRoll(e.Roll), e.Rule)
	}
	return fmt.Sprintf("Leader casualty check for %s: %s: he survives (%s).", leaderName(sc, e.Leader), describeRoll(e.Roll), e.Rule)
}

// LeaderPlaced: a leader whose unit fell is placed with the nearest unit
// of his Command (15.4).
type LeaderPlaced struct {
	Leader string  `json:"leader"`
	To     hex.Hex `json:"to"`
	// Rule is the section placing him when not Men of Iron's 15.4.
	Rule string `json:"rule,omitempty"`
	// Friendly: an Overall Commander with no unit of his own left, placed
	// with the closest friendly unit (Arquebus 5.4).
	Friendly bool `json:"friendly,omitempty"`
}

func (e LeaderPlaced) apply(st *State) { st.Leader(e.Leader).Hex = e.To }

func (e LeaderPlaced) describe(sc *Scenario) string {
	rule := cmp.Or(e.Rule, "15.4")
	if e.Friendly {
		return fmt.Sprintf("%s has no unit of his own left: he joins the closest friendly unit, in %s (%s).", leaderName(sc, e.Leader), e.To, rule)
	}
	return fmt.Sprintf("%s joins the nearest unit of his Command, in %s (%s).", leaderName(sc, e.Leader), e.To, rule)
}

// LeaderLost: a leader killed when surrounded, or riding off when his
// Command is gone (15.0, 15.4).
type LeaderLost struct {
	Leader string `json:"leader"`
	Killed bool   `json:"killed,omitempty"`
	Reason string `json:"reason"`
}

func (e LeaderLost) apply(st *State) {
	l := st.Leader(e.Leader)
	if e.Killed {
		l.Killed, l.OffMap = true, true
		l.Losses++
	} else {
		l.OffMap = true
	}
}

func (e LeaderLost) describe(sc *Scenario) string {
	if e.Killed {
		return fmt.Sprintf("%s is killed: %s.", leaderName(sc, e.Leader), e.Reason)
	}
	return fmt.Sprintf("%s leaves the field: %s.", leaderName(sc, e.Leader), e.Reason)
}

func init() {
	registerEvents(LeaderCasualtyRolled{}, LeaderPlaced{}, LeaderLost{}, LeaderJoinedReinforcements{})
}

// 15.6 Replacement Leaders: "When a leader is killed or captured, at the
// start of that player's next activation - but after the Command for that
// Activation has been chosen and rolled for (if necessary) - flip the dead
// leader to its Replacement leader side and place it with any combat unit
// from that Command. Replacement leaders may return to play as often as
// necessary."

// replaceLeaders brings back the side's killed leaders whose Command still
// has a unit on the field, each with the first of its units by id, a unit
// in good order before a Retired one (ruling R70).
func (g *game) replaceLeaders(side Side) {
	for l, spec := range g.sc.Leaders {
		if spec.Side != side || !g.st.Leaders[l].Killed || spec.NoReplacement {
			// Arquebus 5.5 "In some battles, there is no Replacement for
			// a lost OC": his Battle is Leaderless from then on (6.4).
			continue
		}
		var fit, retired []string
		for i, u := range g.sc.Units {
			switch us := g.st.Units[i]; {
			case unitCommand(g.sc, g.st, i) != spec.Command || us.OffMap || us.Status == Eliminated:
			case us.Status == Retired:
				retired = append(retired, u.ID)
			default:
				fit = append(fit, u.ID)
			}
		}
		sort.Strings(fit)
		sort.Strings(retired)
		units := append(fit, retired...)
		if len(units) == 0 {
			continue
		}
		g.emit(LeaderReplaced{Leader: spec.ID, With: units[0], At: g.st.Unit(units[0]).Hex})
	}
}

// leaderRatings are a leader's Activation Rating and Command Range: his
// counter's Replacement side once he has been replaced (15.6).
func leaderRatings(sc *Scenario, st *State, id string) (ar, rng int) {
	l := sc.Leader(id)
	if ls := st.Leader(id); ls != nil && ls.Replaced {
		return l.Replacement.AR, l.Replacement.Range
	}
	return l.AR, l.Range
}

// LeaderReplaced: a killed leader's Replacement side enters with a unit of
// his Command (15.6).
type LeaderReplaced struct {
	Leader string  `json:"leader"`
	With   string  `json:"with"`
	At     hex.Hex `json:"at"`
}

func (e LeaderReplaced) apply(st *State) {
	l := st.Leader(e.Leader)
	l.Killed, l.Replaced, l.Hex, l.OffMap = false, true, e.At, false
}

func (e LeaderReplaced) describe(sc *Scenario) string {
	return fmt.Sprintf("%s's Replacement takes the field with %s in %s (15.6).", leaderName(sc, e.Leader), e.With, e.At)
}

func init() { registerEvents(LeaderReplaced{}) }

// Infidel 5.3: "Leaders that are within Command Range of their Overall
// Commander have their Activation Rating increased by one for
// Continuation (6.2) and Seizure (6.3) rolls. This does not apply to the
// Overall Commander himself."

// ocBonus is what the tables' Rules.OCActivationBonus adds to leader l's
// Activation Rating, and the Overall Commander it is owed to: l is on the
// map and within the Command Range of his side's Overall Commander (5.2,
// traced as for units), who is on the map and not his Replacement (5.6:
// a Replacement is never an Overall Commander).
func ocBonus(sc *Scenario, st *State, l string) (int, string) {
	bonus := sc.Tables.Rules.OCActivationBonus
	spec, ls := sc.Leader(l), st.Leader(l)
	if bonus == 0 || spec == nil || spec.OC || ls.OffMap || ls.Killed {
		return 0, ""
	}
	for k, oc := range sc.Leaders {
		os := st.Leaders[k]
		if !oc.OC || oc.Side != spec.Side || os.OffMap || os.Killed || os.Replaced {
			continue
		}
		_, rng := leaderRatings(sc, st, oc.ID)
		if commandRange(sc, st, oc.Side, os.Hex, rng)[ls.Hex] {
			return bonus, oc.ID
		}
	}
	return 0, ""
}

// activationRating is leader l's Activation Rating for a Continuation or
// Seizure roll: his counter's (15.6) plus his Overall Commander's bonus
// (Infidel 5.3), and who gave it.
func activationRating(sc *Scenario, st *State, l string) (ar, bonus int, oc string) {
	ar, _ = leaderRatings(sc, st, l)
	bonus, oc = ocBonus(sc, st, l)
	return ar + bonus, bonus, oc
}

// arText names the rating a Continuation or Seizure roll was made
// against: "Raymond's Activation Rating of 2", or with the Overall
// Commander's bonus "Raymond's Activation Rating of 3 (2 +1 within
// Godfrey's Command Range, 5.3)".
func arText(sc *Scenario, leader string, ar, bonus int, oc string) string {
	s := fmt.Sprintf("%s's Activation Rating of %d", leaderName(sc, leader), ar)
	if bonus != 0 {
		s += fmt.Sprintf(" (%d %+d within the Overall Commander %s's Command Range, 5.3)", ar-bonus, bonus, leaderName(sc, oc))
	}
	return s
}

// Arquebus 5.2 Effectiveness: "All friendly leaders, except the OC
// himself, within the Overall Commander's Command Range have this number
// added to their Continuation DRs (6.2)." 6.2: "For an Army Activation
// Continuation attempt, the Active player makes a Continuation DR, adding
// the Effectiveness Rating of the Overall Commander".

// effectiveness is what the tables' Rules.OCEffectiveness adds to the
// Continuation DR of leader l (of the army, when army), and the Overall
// Commander it comes from: his side's Overall Commander on the map, not
// killed, not his Replacement (5.5); for a Battle, l on the map within
// his Command Range (traced as for units, 5.2) and not the OC himself.
func effectiveness(sc *Scenario, st *State, l string, army bool) (int, string) {
	spec := sc.Leader(l)
	if !sc.Tables.Rules.OCEffectiveness || spec == nil {
		return 0, ""
	}
	k := armyOC(sc, st, spec.Side)
	if k < 0 {
		return 0, ""
	}
	oc := sc.Leaders[k]
	if army {
		return oc.Effectiveness, oc.ID
	}
	ls := st.Leader(l)
	if oc.ID == l || ls.OffMap || ls.Killed {
		return 0, ""
	}
	_, rng := leaderRatings(sc, st, oc.ID)
	if commandRange(sc, st, oc.Side, st.Leaders[k].Hex, rng)[ls.Hex] {
		return oc.Effectiveness, oc.ID
	}
	return 0, ""
}
