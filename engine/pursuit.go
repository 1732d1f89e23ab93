package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// Blood & Roses 14.9 PURSUIT (Optional), a battle rule the players choose
// with Battle Flight (BattleRules.Pursuit): "When an enemy Battle flees
// (14.8), the opposing player must roll a die to see if the Battle(s)
// that caused the enemy Battle to flee ... decides to Pursue ... If the
// adjusted Pursuit DR is 4 or less, the Battle Pursues. If the adjusted
// Pursuit DR is 5 or more, the player may choose to have his Battle
// pursue ... Add the Charisma Rating of the Battle leader to the DR, if
// that leader has at least one of his units in his Command Range. The
// player then rolls one die to determine the percentage of his Battle
// that will Pursue ... he may add or subtract the Charisma ... The number
// cannot be adjusted below 0 or above 10 ... multiplied by 10 ... the
// percentage of the non-Retired, non-Artillery units in the Battle that
// Pursue (Pursuer's choice) ... round any fractional numbers up ...
// Remove these units from the map ... roll one die for each Pursuing
// unit, subtracting one (-1) from the DR if the Pursuing unit is
// Disordered: For every Pursuing mounted unit that rolls a 5 or more, one
// fleeing enemy unit is Eliminated (Pursuer's choice). If a mounted unit
// rolls an unmodified 9, the Pursuer may choose to Eliminate the enemy
// Battle's leader or one fleeing enemy unit. For every Pursuing foot unit
// that rolls a 7 or more, one fleeing enemy foot unit is Eliminated."
// Coming back: "If a player has one or more Battles in Pursuit, he must
// use any Free Activations to re-enter one of them ... If the Battle
// leader did not join the Pursuit, the Activation to bring them back on
// must be a Free Activation ... the Pursuing units are considered Out of
// Command during this Activation ... If the adjusted DR is 6 or more,
// that unit must return. It re-enters the map using the Reinforcement
// rule (7.5), treating the fleeing Battle's Standard as its reinforcement
// entry hex ... If the adjusted DR is 5 or less, the unit is removed from
// the game ... These units do not count against the player's Flight Point
// total." The numbers are the tables' rules.pursuit.
//
// Herald's readings (rulings R284-R289): only the Battle(s) activated in
// the Activation in which an enemy Battle fled pursue it, the first of
// them in the battle file's order that has a unit to send (R284); past
// the Pursuit DR the side's STANDING PURSUIT ALWAYS|NEVER decides, NEVER
// by default (R285); the Charisma is added to the percentage DR, and the
// Pursuers are the mounted units first, units in good order before
// Disordered ones, then the battle file's order; the leader joins when
// all of them go, and only then (R286); each success Eliminates the fleeing unit worth the most Flight
// Points, the leader on a mounted unit's unmodified 9 (R287); the units
// come back through the fled Battle's Standard's hex as it stood at the
// flight, and without a Standard there is no Pursuit (R288); the Free
// Activations go to the Battles in Pursuit (R289), whose Pursuers come
// back in a Free Activation, or in any if their leader joined them.

// Pursuit is a Battle in Pursuit: its units off the map (14.9).
type Pursuit struct {
	Command string   `json:"command"`          // the Pursuing Battle
	Fled    string   `json:"fled"`             // the enemy Battle it pursued
	Entry   hex.Hex  `json:"entry"`            // the fled Battle's Standard: where its units re-enter
	Units   []string `json:"units"`            // its units off the map in Pursuit
	Leader  string   `json:"leader,omitempty"` // its Battle leader, if he joined the Pursuit
}

// KindPursuit: the standing order for the choice to Pursue on a Pursuit
// DR above rules.pursuit.pursues_max, ALWAYS or NEVER (the default)
// (Blood & Roses 14.9; ruling R285).
const KindPursuit = "pursuit"

// pursuitIndex is the index in st.Pursuits of cmd's Pursuit, or -1.
func pursuitIndex(st *State, cmd string) int {
	return slices.IndexFunc(st.Pursuits, func(p Pursuit) bool { return p.Command == cmd })
}

// inPursuit: unit id is off the map in Pursuit.
func inPursuit(st *State, id string) bool {
	for _, p := range st.Pursuits {
		if slices.Contains(p.Units, id) {
			return true
		}
	}
	return false
}

// pursuingCommands are side's Battles in Pursuit, in the battle file's
// order.
func pursuingCommands(sc *Scenario, st *State, side Side) []string {
	var out []string
	for _, c := range sc.Commands {
		if c.Side == side && pursuitIndex(st, c.ID) >= 0 {
			out = append(out, c.ID)
		}
	}
	return out
}

// pursuitEligible are cmd's units that may Pursue, in the order Herald
// sends them (ruling R286): on the field, not Retired, not of a type
// Battle Flight ignores (Artillery); mounted before foot, good order
// before Disordered, then the battle file's order.
func pursuitEligible(sc *Scenario, st *State, cmd string) []int {
	var out []int
	for i, u := range sc.Units {
		if u.Command == cmd && onField(st, i) && st.Units[i].Status != Retired && !slices.Contains(sc.Tables.Rules.BattleFlightIgnores, u.Type) {
			out = append(out, i)
		}
	}
	rank := func(i int) int {
		r := 0
		if !unitType(sc, st, i).Mounted {
			r += 2
		}
		if st.Units[i].Status == Disordered {
			r++
		}
		return r
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// activatedCommands are the Commands of the Activation under way, in the
// battle file's order: the one activated, or those of an Army Activation.
func activatedCommands(sc *Scenario, st *State) []string {
	var out []string
	for _, c := range sc.Commands {
		if st.Army && slices.ContainsFunc(st.ArmyUnits, func(id string) bool { return sc.Units[unitIdx(sc, id)].Command == c.ID }) || !st.Army && st.Command == c.ID {
			out = append(out, c.ID)
		}
	}
	return out
}

// pursuit follows the flight of the enemy Battle fled at the end of the
// Activation of the Commands activated (14.9).
func (g *game) pursuit(fled string, activated []string) error {
	pt := g.sc.Tables.Rules.Pursuit
	if !g.sc.Rules.Pursuit || pt == nil {
		return nil
	}
	side := g.sc.Command(fled).Side
	if side == g.st.Active {
		g.emit(PursuitNone{Fled: fled, Reason: "it fled in its own side's Activation, and only the Battles activated in it pursue (R284)"})
		return nil
	}
	pursuer := ""
	for _, c := range activated {
		if pursuitIndex(g.st, c) < 0 && len(pursuitEligible(g.sc, g.st, c)) > 0 {
			pursuer = c
			break
		}
	}
	if pursuer == "" {
		g.emit(PursuitNone{Fled: fled, Reason: "no Battle activated in this Activation has a unit to send: none on the field that is not Retired nor Artillery, or it is in Pursuit already (R284)"})
		return nil
	}
	std := g.sc.Command(fled).Standard
	ss := g.st.Standard(std)
	if std == "" || ss == nil || ss.Captured {
		g.emit(PursuitNone{Fled: fled, Reason: "it has no Standard on the map, where Pursuers would come back (R288)"})
		return nil
	}
	var mods []Modifier
	if ch, who := battleLeaderCharisma(g.sc, g.st, pursuer); ch != 0 {
		mods = append(mods, Modifier{DRM: ch, Reason: who + "'s Charisma", Rule: "Blood & Roses 14.9"})
	}
	r, err := g.roll(fmt.Sprintf("Pursuit DR: does %s pursue %s? (Blood & Roses 14.9)", commandName(g.sc, pursuer), commandName(g.sc, fled)), mods...)
	if err != nil {
		return err
	}
	e := PursuitRolled{Command: pursuer, Fled: fled, Roll: r, Max: pt.PursuesMax, Pursues: r.Total <= pt.PursuesMax}
	if !e.Pursues {
		e.Chosen = pursuitMode(g.st, side.Other(), pursuer)
	}
	g.emit(e)
	if !e.Pursues && e.Chosen != FireAlways {
		return nil
	}
	r, err = g.roll(fmt.Sprintf("Pursuit percentage: how much of %s pursues (Blood & Roses 14.9)", commandName(g.sc, pursuer)), mods...)
	if err != nil {
		return err
	}
	eligible := pursuitEligible(g.sc, g.st, pursuer)
	tenths := min(max(r.Total, 0), 10)
	n := (tenths*len(eligible) + 9) / 10 // "round any fractional numbers up"
	b := PursuitBegan{Command: pursuer, Fled: fled, Entry: ss.Hex, Roll: r, Percent: 10 * tenths, Eligible: len(eligible)}
	for _, i := range eligible[:n] {
		b.Units = append(b.Units, g.sc.Units[i].ID)
	}
	if l := g.sc.Command(pursuer).Leader; n > 0 && n == len(eligible) && l != "" && !g.st.Leader(l).OffMap && !g.st.Leader(l).Killed {
		// Ruling R286: the leader joins when his whole Battle that may
		// Pursue does, leaving nothing of it on the field for him.
		b.Leader = l
	}
	g.emit(b)
	for _, id := range b.Units {
		if err := g.pursue(id, fled, joinedCharisma(g.sc, g.st, b.Leader)); err != nil {
			return err
		}
	}
	return nil
}

// pursuitMode is side's standing order on Pursuing with cmd when the DR
// leaves the choice: its Command's order, else the side's, NEVER by
// default (ruling R285).
func pursuitMode(st *State, side Side, cmd string) string {
	modes := st.Standing[side].HoldFire
	for _, key := range []string{KindPursuit + ":command:" + cmd, KindPursuit} {
		if v, ok := modes[key]; ok {
			return v
		}
	}
	return FireNever
}

// joinedCharisma is the Charisma a leader who joined a Pursuit adds to
// its dice, none for a Replacement (ruling R86), as a modifier list.
func joinedCharisma(sc *Scenario, st *State, leader string) []Modifier {
	l := sc.Leader(leader)
	if l == nil || l.Charisma == 0 || st.Leader(leader).Replaced {
		return nil
	}
	return []Modifier{{DRM: l.Charisma, Reason: l.Name + "'s Charisma, in the Pursuit", Rule: "Blood & Roses 14.9"}}
}

// pursue rolls one Pursuing unit's die against the fleeing Battle (14.9),
// with the Charisma of a leader who joined.
func (g *game) pursue(id, fled string, charisma []Modifier) error {
	pt := g.sc.Tables.Rules.Pursuit
	i := unitIdx(g.sc, id)
	mods := slices.Clone(charisma)
	if g.st.Units[i].Status == Disordered {
		mods = append(mods, Modifier{DRM: -1, Reason: "Disordered", Rule: "Blood & Roses 14.9"})
	}
	mounted := unitType(g.sc, g.st, i).Mounted
	r, err := g.roll(fmt.Sprintf("Pursuit: %s chases the fleeing %s (Blood & Roses 14.9)", id, commandName(g.sc, fled)), mods...)
	if err != nil {
		return err
	}
	e := PursuitStruck{Unit: id, Fled: fled, Roll: r, Mounted: mounted, Need: pt.FootEliminates}
	if mounted {
		e.Need = pt.MountedEliminates
	}
	if r.Total >= e.Need {
		if l := g.sc.Leader(g.sc.Command(fled).Leader); mounted && r.Die == pt.LeaderDie && l != nil && g.st.Leader(l.ID).Fled && !g.st.Leader(l.ID).Pursued {
			e.Leader = l.ID
		} else if v := pursuitVictim(g.sc, g.st, fled, mounted); v >= 0 {
			e.Victim = g.sc.Units[v].ID
		}
	}
	g.emit(e)
	if e.Victim != "" {
		g.eliminate(unitIdx(g.sc, e.Victim), fmt.Sprintf("cut down in Pursuit by %s (Blood & Roses 14.9)", id))
	}
	return nil
}

// pursuitVictim is the fleeing unit of fled a Pursuer Eliminates (ruling
// R287): one that fled and is not yet Eliminated, a foot unit for a foot
// Pursuer, the one worth the most Flight Points, then the first in the
// battle file; -1 when none is left.
func pursuitVictim(sc *Scenario, st *State, fled string, mounted bool) int {
	best := -1
	for i, u := range sc.Units {
		us := st.Units[i]
		if u.Command != fled || !us.Fled || us.Status == Eliminated || !mounted && unitType(sc, st, i).Mounted {
			continue
		}
		if best < 0 || unitType(sc, st, i).FlightPoints > unitType(sc, st, best).FlightPoints {
			best = i
		}
	}
	return best
}

// pursuitReturn: the Activation of a Battle in Pursuit rolls for each of
// its Pursuing units, which come back or are gone (14.9): a Free
// Activation, or any if its leader joined the Pursuit. He comes back with
// them.
func (g *game) pursuitReturn(cmd string, kind ActivationKind) error {
	k := pursuitIndex(g.st, cmd)
	if k < 0 {
		return nil
	}
	p := g.st.Pursuits[k]
	if p.Leader == "" && kind != FreeActivation {
		return nil // "the Pursuing units are ignored during the Activation"
	}
	need := g.sc.Tables.Rules.Pursuit.ReturnsMin
	for _, id := range p.Units {
		r, err := g.roll(fmt.Sprintf("Pursuit return: does %s come back from the Pursuit? (Blood & Roses 14.9)", id), joinedCharisma(g.sc, g.st, p.Leader)...)
		if err != nil {
			return err
		}
		g.emit(PursuerReturned{Unit: id, Roll: r, Min: need, Returns: r.Total >= need, Entry: p.Entry, OutOfCommand: p.Leader == ""})
	}
	g.emit(PursuitEnded{Command: cmd, Leader: p.Leader, Entry: p.Entry})
	return nil
}

// pursuitLeaders places, as the Activation of the Commands activated
// ends, a leader back from a Pursuit who has not entered the map with one
// of his units: with the unit of his Battle nearest the re-entry hex
// ("The Battle leader automatically returns and must re-enter in the
// first Activation. If no Pursuing unit successfully re-enters, place the
// Battle leader with the unit of his Battle nearest the re-entry hex",
// 14.9; ruling R286). With none on the map he waits off the map.
func (g *game) pursuitLeaders(activated []string) {
	for l, spec := range g.sc.Leaders {
		ls := g.st.Leaders[l]
		if !ls.Returning || !ls.OffMap || !slices.Contains(activated, spec.Command) {
			continue
		}
		if to, ok := nearestOfCommand(g.sc, g.st, l); ok {
			g.emit(LeaderRejoined{Leader: spec.ID, To: to})
		}
	}
}

// pursuitFirst refuses a Free Activation that does not re-enter a Battle
// in Pursuit while the side has one (14.9, ruling R289).
func (g *game) pursuitFirst(o Order, side Side, cmd string) error {
	cmds := pursuingCommands(g.sc, g.st, side)
	if len(cmds) == 0 || slices.Contains(cmds, cmd) {
		return nil
	}
	names := make([]string, len(cmds))
	for k, c := range cmds {
		names[k] = commandName(g.sc, c)
	}
	return g.illegal(o, "Blood & Roses 14.9", fmt.Sprintf("a player with Battles in Pursuit must use his Free Activations to re-enter one of them: ACTIVATE %s", strings.Join(names, " or ")))
}

// PursuitNone: an enemy Battle fled and is not pursued, and why (14.9).
type PursuitNone struct {
	Fled   string `json:"fled"`
	Reason string `json:"reason"`
}

func (PursuitNone) apply(*State) {}

func (e PursuitNone) describe(sc *Scenario) string {
	return fmt.Sprintf("No Pursuit of %s: %s (Blood & Roses 14.9).", commandName(sc, e.Fled), e.Reason)
}

// PursuitRolled: the Battle that caused the flight rolled to Pursue;
// above Max its side's standing order chose (Chosen: ALWAYS or NEVER).
type PursuitRolled struct {
	Command string `json:"command"`
	Fled    string `json:"fled"`
	Roll    Roll   `json:"roll"`
	Max     int    `json:"max"`
	Pursues bool   `json:"pursues,omitempty"`
	Chosen  string `json:"chosen,omitempty"`
}

func (PursuitRolled) apply(*State) {}

func (e PursuitRolled) describe(sc *Scenario) string {
	verdict := fmt.Sprintf("%d or less: it Pursues", e.Max)
	switch {
	case e.Pursues:
	case e.Chosen == FireAlways:
		verdict = fmt.Sprintf("more than %d, and it Pursues by its side's STANDING PURSUIT ALWAYS", e.Max)
	default:
		verdict = fmt.Sprintf("more than %d, and it does not Pursue (STANDING PURSUIT NEVER, the default)", e.Max)
	}
	return fmt.Sprintf("%s may Pursue the fleeing %s: %s, %s (Blood & Roses 14.9).", commandName(sc, e.Command), commandName(sc, e.Fled), describeRoll(e.Roll), verdict)
}

// PursuitBegan: the percentage of the Battle that Pursues, and its units
// taken off the map (14.9).
type PursuitBegan struct {
	Command  string   `json:"command"`
	Fled     string   `json:"fled"`
	Entry    hex.Hex  `json:"entry"`
	Roll     Roll     `json:"roll"`
	Percent  int      `json:"percent"`
	Eligible int      `json:"eligible"`
	Units    []string `json:"units,omitempty"`
	Leader   string   `json:"leader,omitempty"` // the Battle leader joins it
}

func (e PursuitBegan) apply(st *State) {
	if len(e.Units) == 0 {
		return
	}
	for _, id := range e.Units {
		st.Unit(id).OffMap = true
	}
	if e.Leader != "" {
		st.Leader(e.Leader).OffMap = true
	}
	st.Pursuits = append(st.Pursuits, Pursuit{Command: e.Command, Fled: e.Fled, Entry: e.Entry, Units: slices.Clone(e.Units), Leader: e.Leader})
}

func (e PursuitBegan) describe(sc *Scenario) string {
	s := fmt.Sprintf("%s's Pursuit: %s, %d%% of its %d units that may go", commandName(sc, e.Command), describeRoll(e.Roll), e.Percent, e.Eligible)
	if len(e.Units) == 0 {
		return s + ": none Pursues (Blood & Roses 14.9)."
	}
	if e.Leader != "" {
		s += fmt.Sprintf(": %s and %s, the whole of it, leave the map after %s (Blood & Roses 14.9).", leaderName(sc, e.Leader), strings.Join(e.Units, ", "), commandName(sc, e.Fled))
		return s
	}
	return s + fmt.Sprintf(": %s leave the map after %s (Blood & Roses 14.9).", strings.Join(e.Units, ", "), commandName(sc, e.Fled))
}

// PursuitStruck: a Pursuing unit's die against the fleeing Battle; a
// success Eliminates Victim, or the Battle's Leader (14.9).
type PursuitStruck struct {
	Unit    string `json:"unit"`
	Fled    string `json:"fled"`
	Roll    Roll   `json:"roll"`
	Mounted bool   `json:"mounted,omitempty"`
	Need    int    `json:"need"`
	Victim  string `json:"victim,omitempty"`
	Leader  string `json:"leader,omitempty"`
}

func (e PursuitStruck) apply(st *State) {
	if e.Leader != "" {
		l := st.Leader(e.Leader)
		l.Pursued = true
		l.Losses++
	}
}

func (e PursuitStruck) describe(sc *Scenario) string {
	kind := "foot"
	if e.Mounted {
		kind = "mounted"
	}
	s := fmt.Sprintf("%s (%s) in Pursuit: %s, needing %d or more", e.Unit, kind, describeRoll(e.Roll), e.Need)
	switch {
	case e.Leader != "":
		s += fmt.Sprintf(": an unmodified %d, and %s, the fleeing Battle's leader, is Eliminated", e.Roll.Die, leaderName(sc, e.Leader))
	case e.Victim != "":
		s += ": it cuts down " + e.Victim
	case e.Roll.Total >= e.Need:
		s += ": no fleeing unit is left that it may Eliminate"
	default:
		s += ": the fleeing enemy escape it"
	}
	return s + " (Blood & Roses 14.9)."
}

// PursuerReturned: a Pursuing unit's die to come back: it enters as a
// reinforcement through Entry, Out of Command in this Activation, or it
// is gone for good without Flight Points (14.9).
type PursuerReturned struct {
	Unit    string  `json:"unit"`
	Roll    Roll    `json:"roll"`
	Min     int     `json:"min"`
	Returns bool    `json:"returns,omitempty"`
	Entry   hex.Hex `json:"entry"`
	// OutOfCommand: its leader did not join the Pursuit.
	OutOfCommand bool `json:"out_of_command,omitempty"`
}

func (e PursuerReturned) apply(st *State) {
	u := st.Unit(e.Unit)
	if e.Returns {
		u.Returning, u.Hex, u.OutOfCommand = true, e.Entry, e.OutOfCommand
		return
	}
	u.Fled = true
}

func (e PursuerReturned) describe(*Scenario) string {
	if e.Returns {
		s := fmt.Sprintf("%s comes back from the Pursuit: %s, %d or more; it enters as a reinforcement through %s", e.Unit, describeRoll(e.Roll), e.Min, e.Entry)
		if e.OutOfCommand {
			s += ", Out of Command in this Activation"
		}
		return s + " (Blood & Roses 14.9)."
	}
	return fmt.Sprintf("%s does not come back from the Pursuit: %s, less than %d; it is removed from the game, with no Flight Points (Blood & Roses 14.9).", e.Unit, describeRoll(e.Roll), e.Min)
}

// PursuitEnded: the Battle's Pursuit is over (14.9); a Leader who joined
// it comes back, off the map at Entry until he enters with a unit or is
// placed as the Activation ends.
type PursuitEnded struct {
	Command string  `json:"command"`
	Leader  string  `json:"leader,omitempty"`
	Entry   hex.Hex `json:"entry"`
}

func (e PursuitEnded) apply(st *State) {
	if k := pursuitIndex(st, e.Command); k >= 0 {
		st.Pursuits = slices.Delete(st.Pursuits, k, k+1)
	}
	if e.Leader != "" {
		l := st.Leader(e.Leader)
		l.Returning, l.Hex = true, e.Entry
	}
}

func (e PursuitEnded) describe(sc *Scenario) string {
	if e.Leader != "" {
		return fmt.Sprintf("%s's Pursuit is over; %s comes back, to enter through %s with one of his units, or be placed with the one nearest it as this Activation ends (Blood & Roses 14.9).", commandName(sc, e.Command), leaderName(sc, e.Leader), e.Entry)
	}
	return fmt.Sprintf("%s's Pursuit is over (Blood & Roses 14.9).", commandName(sc, e.Command))
}

// LeaderRejoined: a leader back from a Pursuit placed with the unit of his
// Battle nearest the re-entry hex (14.9).
type LeaderRejoined struct {
	Leader string  `json:"leader"`
	To     hex.Hex `json:"to"`
}

func (e LeaderRejoined) apply(st *State) {
	l := st.Leader(e.Leader)
	l.Hex, l.OffMap, l.Returning = e.To, false, false
}

func (e LeaderRejoined) describe(sc *Scenario) string {
	return fmt.Sprintf("%s, back from the Pursuit, joins the unit of his Battle nearest its re-entry hex, in %s (Blood & Roses 14.9).", leaderName(sc, e.Leader), e.To)
}

func init() {
	registerEvents(PursuitNone{}, PursuitRolled{}, PursuitBegan{}, PursuitStruck{}, PursuerReturned{}, PursuitEnded{}, LeaderRejoined{})
}
