package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// Blood & Roses 6.3, the Other Effect counters at their own moments:
//
//	"Battle Cry: Rally one friendly Retired unit. Played at the start of
//	any Activation (yours or your opponents)."
//	"Treachery!: Disorder one enemy unit. Played at the start of any
//	Activation (yours or your opponents)."
//	"Near Miss: Negate one friendly leader death. Played when one of your
//	leaders dies. They escape death and are placed with any unit of their
//	Battle (or any friendly unit if they do not command units)."
//	"Into the Breach: +1 DRM for one Shock/Charge attack against one
//	defending unit. Play when determining DRMs for an attack, before the
//	DR is made."
//
// The Active player plays Battle Cry and Treachery! at the start of his
// own Activation by PLAY (seizure_counters.go, ruling R213). The moments
// that fall in the opponent's turn cost no mail: a standing order plays
// the counter at the start of the next Activation of either side (STANDING
// PLAY, ruling R282), and a leader's death plays a Near Miss unless the
// player has said NEVER (STANDING NEAR MISS, rulings R218, R219, R281).
// Into the Breach is readied by the attacker with his declarations and
// played when the DRMs of that attack are determined (rulings R216, R217).
// Every counter played is a CounterPlayed event, which the dice log notes
// as a play entry; the plans for unplayed counters are as secret as the
// counters (CounterHand, Redacted, PrivateTo; ruling R283).

func standingText(standing bool) string {
	if standing {
		return " by standing order"
	}
	return ""
}

// Into the Breach.

// playBreach readies Into the Breach c for the attack declared on the
// defender o names: "PLAY <counter> AT <defender>", in the attacker's own
// Shock Phase, after the declaration and before END (ruling R216).
func (g *game) playBreach(o PlayCounter, c SeizureCounter) error {
	if !strings.EqualFold(o.Verb, "AT") {
		return g.illegal(o, "B&R 6.3", fmt.Sprintf("%s is Into the Breach, played for one Shock or Charge attack: PLAY %s AT <defender>, after the attack on that defender is declared and before END", c.ID, c.ID))
	}
	st := g.st
	if st.Pending.Kind != DecideActions || st.Active != g.sender || st.Shock != nil {
		return g.illegal(o, "B&R 6.3", "Into the Breach is played for one of your own Shock or Charge attacks: PLAY it AT the defender after declaring the attack, before END (ruling R216)")
	}
	j, ok := g.sideUnit(g.sender.Other(), o.Unit)
	if !ok {
		return g.illegal(o, "B&R 6.3", fmt.Sprintf("the enemy has no unit called %q", o.Unit)+g.unitHint(g.sender.Other(), o.Unit, true))
	}
	id := g.sc.Units[j].ID
	declared := false
	for _, d := range st.Declared {
		declared = declared || slices.Contains(d.Defenders, id)
	}
	if !declared {
		return g.illegal(o, "B&R 6.3", fmt.Sprintf("no Shock or Charge attack on %s is declared: Into the Breach is for one attack against one defending unit; declare it first (SHOCK … AT %s, CHARGE … AT %s)", id, id, id))
	}
	for k, at := range st.Counters.Hands[g.sender].Breach {
		if at == id && k != c.ID {
			return g.illegal(o, "B&R 6.3", fmt.Sprintf("%s is already played for the attack on %s: one counter, +1, for one attack (ruling R217)", k, id))
		}
	}
	g.emit(BreachReadied{Side: g.sender, Counter: c.ID, Defender: id})
	return nil
}

// breachMods plays the Into the Breach readied for the attack of atk on
// defender j, if any, as the DRMs of its roll are determined: the counter
// is played and discarded, and its +1 is one of the roll's modifiers
// (ruling R217).
func (g *game) breachMods(atk []int, j int) []Modifier {
	if g.st.Counters == nil || len(atk) == 0 {
		return nil
	}
	side := g.sc.Units[atk[0]].Side
	breach := g.st.Counters.Hands[side].Breach
	var ids []string
	for k, at := range breach {
		if at == g.sc.Units[j].ID {
			ids = append(ids, k)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids)
	c := g.st.Counters.counter(side, ids[0])
	if c == nil || c.Played {
		return nil
	}
	g.emit(CounterPlayed{Side: side, Counter: c.ID, Type: c.Type, Unit: g.sc.Units[j].ID})
	return []Modifier{{DRM: g.sc.Tables.Rules.IntoTheBreachDRM, Reason: "Into the Breach", Rule: "B&R 6.3"}}
}

// breachLapses returns to the hand, at the end of the Activation, every
// Into the Breach readied for an attack that was never rolled (ruling
// R217): it was not played.
func (g *game) breachLapses() {
	if g.st.Counters == nil {
		return
	}
	for side := range g.st.Counters.Hands {
		breach := g.st.Counters.Hands[side].Breach
		ids := make([]string, 0, len(breach))
		for k := range breach {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		for _, k := range ids {
			g.emit(BreachLapsed{Side: Side(side), Counter: k, Defender: breach[k]})
		}
	}
}

// BreachReadied: the attacker readies Into the Breach for the attack on
// Defender (B&R 6.3); it is played when that attack's DRMs are
// determined. Private to its owner until then (ruling R283).
type BreachReadied struct {
	Side     Side   `json:"side"`
	Counter  string `json:"counter"`
	Defender string `json:"defender"`
}

func (e BreachReadied) apply(st *State) {
	h := &st.Counters.Hands[e.Side]
	if h.Breach == nil {
		h.Breach = map[string]string{}
	}
	h.Breach[e.Counter] = e.Defender
}

func (e BreachReadied) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s ready Into the Breach %s for the attack on %s: it is played when that attack's DRMs are determined (B&R 6.3).", sc.SideName(e.Side), e.Counter, e.Defender)
}

// BreachLapsed: the attack an Into the Breach was readied for was never
// rolled; the counter stays in its owner's hand (ruling R217).
type BreachLapsed struct {
	Side     Side   `json:"side"`
	Counter  string `json:"counter"`
	Defender string `json:"defender"`
}

func (e BreachLapsed) apply(st *State) { delete(st.Counters.Hands[e.Side].Breach, e.Counter) }

func (e BreachLapsed) describe(sc *Scenario) string {
	return fmt.Sprintf("No attack on %s was rolled: Into the Breach %s is not played and stays in the %s's hand (B&R 6.3, ruling R217).", e.Defender, e.Counter, sc.SideName(e.Side))
}

// Near Miss.

// StandingNearMiss: "STANDING NEAR MISS ALWAYS" (the default) plays a
// Near Miss held the moment one of the side's leaders dies; NEVER keeps
// it (ruling R219).
type StandingNearMiss struct {
	at
	Never bool
}

func (o StandingNearMiss) String() string {
	if o.Never {
		return "STANDING NEAR MISS NEVER"
	}
	return "STANDING NEAR MISS ALWAYS"
}

func parseStandingNearMiss(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) == 1 {
		switch strings.ToUpper(rest[0]) {
		case "ALWAYS":
			return StandingNearMiss{at: a}, nil
		case "NEVER":
			return StandingNearMiss{at: a, Never: true}, nil
		}
	}
	return nil, syntax("STANDING NEAR MISS takes ALWAYS or NEVER", "STANDING NEAR MISS ALWAYS", "STANDING NEAR MISS NEVER")
}

func (g *game) standingNearMiss(o StandingNearMiss) error {
	if !g.sc.Tables.Rules.SeizureCounters {
		return g.illegal(o, "4.3", "this volume has no Seizure counters")
	}
	g.emit(NearMissOrderSet{Side: g.sender, Never: o.Never})
	return nil
}

// NearMissOrderSet: a side's standing order for its Near Miss counters
// (ruling R219); private to it.
type NearMissOrderSet struct {
	Side  Side `json:"side"`
	Never bool `json:"never,omitempty"`
}

func (e NearMissOrderSet) apply(st *State) {
	if st.Counters == nil {
		st.Counters = &Counters{}
	}
	st.Counters.Hands[e.Side].NearMissNever = e.Never
}

func (e NearMissOrderSet) describe(sc *Scenario) string {
	if e.Never {
		return fmt.Sprintf("The %s keep their Near Miss when a leader dies (standing order).", sc.SideName(e.Side))
	}
	return fmt.Sprintf("The %s play a Near Miss they hold when one of their leaders dies (standing order).", sc.SideName(e.Side))
}

// nearMiss plays the side's Near Miss for leader l, who has just died
// (killed by fire, Shock or Charge, or a retreat through his unit; killed
// surrounded; captured: ruling R218), unless its owner's standing order
// says NEVER or there is no unit to place him with (ruling R281).
func (g *game) nearMiss(l int) bool {
	spec := g.sc.Leaders[l]
	if !g.sc.Tables.Rules.SeizureCounters || g.st.Counters == nil || !g.st.Leaders[l].Killed {
		return false
	}
	h := g.st.Counters.Hands[spec.Side]
	if h.NearMissNever {
		return false
	}
	k := slices.IndexFunc(h.Counters, func(c SeizureCounter) bool { return c.Type == CounterNearMiss && !c.Played })
	if k < 0 {
		return false
	}
	u, ok := nearMissUnit(g.sc, g.st, l)
	if !ok {
		return false
	}
	g.emit(CounterPlayed{Side: spec.Side, Counter: h.Counters[k].ID, Type: CounterNearMiss, Leader: spec.ID, Standing: true})
	g.emit(LeaderSaved{Leader: spec.ID, With: g.sc.Units[u].ID, To: g.st.Units[u].Hex})
	return true
}

// nearMissUnit is the unit a leader saved by a Near Miss is placed with
// (ruling R281): a unit of his Battle on the field, one not Retired before
// a Retired one, the nearest to where he fell, the lowest id on a tie; any
// friendly unit, by the same order, if his Battle has no units at all.
func nearMissUnit(sc *Scenario, st *State, l int) (int, bool) {
	spec := sc.Leaders[l]
	commands := slices.ContainsFunc(sc.Units, func(u UnitSpec) bool { return spec.Command != "" && u.Command == spec.Command })
	var cands []int
	for i, u := range sc.Units {
		if u.Side != spec.Side || !onField(st, i) || st.Units[i].Fled || commands && u.Command != spec.Command {
			continue
		}
		cands = append(cands, i)
	}
	if len(cands) == 0 {
		return -1, false
	}
	return nearestUnit(sc, st, st.Leaders[l].Hex, cands, true), true
}

// LeaderSaved: a Near Miss negates a leader's death; he is placed with
// With, in To (B&R 6.3). His death does not count (Losses).
type LeaderSaved struct {
	Leader string  `json:"leader"`
	With   string  `json:"with"`
	To     hex.Hex `json:"to"`
}

func (e LeaderSaved) apply(st *State) {
	l := st.Leader(e.Leader)
	l.Killed, l.OffMap, l.Hex = false, false, e.To
	if l.Losses > 0 {
		l.Losses--
	}
}

func (e LeaderSaved) describe(sc *Scenario) string {
	return fmt.Sprintf("%s is placed with %s in %s (B&R 6.3 Near Miss, ruling R281).", leaderName(sc, e.Leader), e.With, e.To)
}

// Battle Cry and Treachery! at the start of any Activation.

// StandingPlay: "STANDING PLAY <counter> RALLY <unit>", "STANDING PLAY
// <counter> DISORDER <enemy unit>": play that Battle Cry or Treachery! at
// the start of the next Activation, the opponent's or one's own;
// "STANDING PLAY <counter> CANCEL" withdraws it (ruling R282).
type StandingPlay struct {
	at
	Counter, Verb, Unit string
}

func (o StandingPlay) String() string {
	return strings.TrimSpace("STANDING PLAY " + o.Counter + " " + strings.ToUpper(o.Verb) + " " + o.Unit)
}

func parseStandingPlay(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	forms := []string{"STANDING PLAY <counter> RALLY <unit>", "STANDING PLAY <counter> DISORDER <enemy unit>", "STANDING PLAY <counter> CANCEL"}
	switch {
	case len(rest) == 2 && strings.EqualFold(rest[1], "CANCEL"):
		return StandingPlay{at: a, Counter: rest[0], Verb: "CANCEL"}, nil
	case len(rest) == 3 && (strings.EqualFold(rest[1], "RALLY") || strings.EqualFold(rest[1], "DISORDER")):
		return StandingPlay{at: a, Counter: rest[0], Verb: strings.ToUpper(rest[1]), Unit: rest[2]}, nil
	}
	return nil, syntax("STANDING PLAY takes a Battle Cry or Treachery! counter, and RALLY or DISORDER and a unit, or CANCEL", forms...)
}

func (g *game) standingPlay(o StandingPlay) error {
	c, err := g.ownCounter(o, o.Counter, CounterBattleCry, CounterTreachery, CounterNearMiss, CounterIntoTheBreach, CounterUnsteadyTroops)
	if err != nil {
		return err
	}
	switch c.Type {
	case CounterNearMiss:
		return g.illegal(o, "B&R 6.3", c.ID+" is a Near Miss, played when one of your leaders dies: STANDING NEAR MISS ALWAYS or NEVER (ruling R219)")
	case CounterIntoTheBreach:
		return g.illegal(o, "B&R 6.3", c.ID+" is Into the Breach, played for one of your attacks: PLAY "+c.ID+" AT <defender> in your Shock Phase (ruling R216)")
	}
	if o.Verb == "CANCEL" {
		g.emit(StandingPlaySet{Side: g.sender, Counter: c.ID, Text: o.String()})
		return nil
	}
	verb, side := "RALLY", g.sender
	if c.Type == CounterTreachery || c.Type == CounterUnsteadyTroops {
		verb, side = "DISORDER", g.sender.Other()
	}
	if o.Verb != verb {
		return g.illegal(o, "docs/orders.md", fmt.Sprintf("%s: STANDING PLAY %s %s <unit>", c.Type, c.ID, verb))
	}
	i, ok := g.sideUnit(side, o.Unit)
	if !ok {
		return g.illegal(o, "B&R 6.3", fmt.Sprintf("the %s have no unit called %q", g.sc.SideName(side), o.Unit)+g.unitHint(side, o.Unit, true))
	}
	g.emit(StandingPlaySet{Side: g.sender, Counter: c.ID, Play: verb + " " + g.sc.Units[i].ID, Text: o.String()})
	return nil
}

// StandingPlaySet: a side's standing play of a Battle Cry or Treachery!
// (Play, "RALLY ED2"), or its withdrawal (Play empty). Private to it.
type StandingPlaySet struct {
	Side    Side   `json:"side"`
	Counter string `json:"counter"`
	Play    string `json:"play,omitempty"`
	Text    string `json:"text"`
}

func (e StandingPlaySet) apply(st *State) {
	h := &st.Counters.Hands[e.Side]
	if e.Play == "" {
		delete(h.Standing, e.Counter)
		return
	}
	if h.Standing == nil {
		h.Standing = map[string]string{}
	}
	h.Standing[e.Counter] = e.Play
}

func (e StandingPlaySet) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s set a standing order: %s.", sc.SideName(e.Side), e.Text)
}

// standingPlays carries out the sides' standing plays at the start of an
// Activation of active: the Non-Active player's first, then the Active
// player's (Arquebus 6.3), each side's in the order of its counters' ids.
// Each is tried once: a play no longer legal is dropped, with its reason,
// and the counter stays in the hand (ruling R282).
func (g *game) standingPlays(active Side) {
	if g.st.Counters == nil || g.st.Outcome != nil {
		return
	}
	for _, side := range []Side{active.Other(), active} {
		plans := g.st.Counters.Hands[side].Standing
		ids := make([]string, 0, len(plans))
		for k := range plans {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		for _, k := range ids {
			g.standingPlayOne(side, k, plans[k])
		}
	}
}

func (g *game) standingPlayOne(side Side, id, play string) {
	c := g.st.Counters.counter(side, id)
	verb, unit, _ := strings.Cut(play, " ")
	i := unitIdx(g.sc, unit)
	drop := func(why string) {
		g.emit(StandingPlayDropped{Side: side, Counter: id, Play: play, Reason: why})
	}
	switch {
	case c == nil || c.Played:
		drop("the counter has been played")
	case i < 0:
		drop("no such unit")
	case verb == "RALLY" && (g.st.Units[i].Status != Retired || g.st.Units[i].OffMap):
		drop(fmt.Sprintf("Battle Cry rallies one friendly Retired unit, and %s is %s", unit, unitStatusText(g.st, i)))
	case verb == "DISORDER" && c.Type == CounterUnsteadyTroops && (g.st.Units[i].Status != Normal || !onField(g.st, i)):
		drop(fmt.Sprintf("Unsteady Troops Disorders one enemy unit in good order on the field, or Eliminates an Artillery unit (ARQ 6.3, ruling R326), and %s is %s", unit, unitStatusText(g.st, i)))
	case verb == "DISORDER" && (g.st.Units[i].Status != Normal || !onField(g.st, i)):
		drop(fmt.Sprintf("Treachery! Disorders one enemy unit in good order on the field (ruling R214), and %s is %s", unit, unitStatusText(g.st, i)))
	case verb == "RALLY":
		g.emit(CounterPlayed{Side: side, Counter: c.ID, Type: c.Type, Unit: unit, Standing: true})
		to := Disordered
		if unitType(g.sc, g.st, i).NoDisorderedSide {
			to = Normal
		}
		g.emit(UnitRallied{Unit: unit, To: to, Retired: true, Rule: "B&R 6.3 Battle Cry"})
	case c.Type == CounterUnsteadyTroops:
		g.emit(CounterPlayed{Side: side, Counter: c.ID, Type: c.Type, Unit: unit, Standing: true})
		g.unsteadyTroops(i)
	default:
		g.emit(CounterPlayed{Side: side, Counter: c.ID, Type: c.Type, Unit: unit, Standing: true})
		g.disorder(i, "Treachery! (B&R 6.3)", nil)
	}
}

// Arquebus 6.3 Unsteady Troops: "Disorder one enemy unit (Eliminate
// Artillery). Play before units move or fire at the beginning of the
// Move/Fire Phase of any Activation (yours or your opponent's)", the
// Non-Active player's counters first, then the Active player's (6.3, 4.0
// B). The moment is Treachery!'s in Herald (rulings R213, R282): PLAY at
// the start of one's own Activation, STANDING PLAY for either side's.

// playUnsteady plays Unsteady Troops c on the enemy unit o names: "PLAY
// <counter> DISORDER <enemy unit>", at the start of the sender's own
// Activation (ruling R326).
func (g *game) playUnsteady(o PlayCounter, c SeizureCounter) error {
	if !strings.EqualFold(o.Verb, "DISORDER") {
		return g.illegal(o, "ARQ 6.3", fmt.Sprintf("%s is Unsteady Troops, played on one enemy unit: PLAY %s DISORDER <enemy unit>", c.ID, c.ID))
	}
	if g.st.Pending.Kind != DecideActions || g.activationBegun() {
		return g.illegal(o, "ARQ 6.3", "Unsteady Troops is played at the beginning of the Move/Fire Phase, before any unit or leader has moved, fired or faced; in the opponent's Activation by STANDING PLAY")
	}
	j, ok := g.findEnemyUnit(o.Unit)
	if !ok || g.st.Units[j].Status != Normal || !onField(g.st, j) {
		return g.illegal(o, "ARQ 6.3", fmt.Sprintf("Unsteady Troops Disorders one enemy unit in good order on the field, or Eliminates an enemy Artillery unit: %q is not one (ruling R326)", o.Unit))
	}
	g.emit(CounterPlayed{Side: g.sender, Counter: c.ID, Type: c.Type, Unit: g.sc.Units[j].ID})
	g.unsteadyTroops(j)
	return nil
}

// unsteadyTroops: enemy unit j is Disordered, or Eliminated if it is
// Artillery, a type that is never Disordered (ruling R326).
func (g *game) unsteadyTroops(j int) {
	if unitType(g.sc, g.st, j).NeverDisordered {
		g.eliminate(j, "Unsteady Troops (ARQ 6.3): an Artillery unit is Eliminated")
		return
	}
	g.disorder(j, "Unsteady Troops (ARQ 6.3)", nil)
}

func unitStatusText(st *State, i int) string {
	us := st.Units[i]
	switch {
	case us.OffMap && us.Status != Eliminated:
		return "off the map"
	case us.Status == Normal:
		return "in good order"
	}
	return strings.ToLower(fmt.Sprint(us.Status))
}

// StandingPlayDropped: a standing play could not be made at the start of
// the Activation; the standing order is spent, the counter kept (ruling
// R282). Private to its owner.
type StandingPlayDropped struct {
	Side    Side   `json:"side"`
	Counter string `json:"counter"`
	Play    string `json:"play"`
	Reason  string `json:"reason"`
}

func (e StandingPlayDropped) apply(st *State) { delete(st.Counters.Hands[e.Side].Standing, e.Counter) }

func (e StandingPlayDropped) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s's standing order STANDING PLAY %s %s is not carried out at the start of this Activation: %s; %s stays in their hand (B&R 6.3, ruling R282).",
		sc.SideName(e.Side), e.Counter, e.Play, e.Reason, e.Counter)
}

func init() {
	registerEvents(BreachReadied{}, BreachLapsed{}, NearMissOrderSet{}, LeaderSaved{}, StandingPlaySet{}, StandingPlayDropped{})
}
