package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Blood & Roses 6.3 Seizing Continuity with Seizure counters
// (Rules.SeizureCounters). "Each player starts the game with a specific
// number of SEIZURE counters, as stated in the scenario for that battle."
// Herald deals each side's counters at setup (DealSeizureCounters, the
// composition given as data) and keeps them in the State, each with a
// stable identifier, so that a counter played can be checked later against
// the set dealt; Redacted removes a side's unplayed counters from what the
// other side is shown (design principle 7).

// CounterType is the kind of a Seizure counter (6.3).
type CounterType string

const (
	CounterOpportunity   CounterType = "opportunity"     // Seizure Opportunity, with a DR range
	CounterNegation      CounterType = "negation"        // Seizure Negation
	CounterBattleCry     CounterType = "battle-cry"      // rally one friendly Retired unit
	CounterTreachery     CounterType = "treachery"       // Disorder one enemy unit
	CounterNearMiss      CounterType = "near-miss"       // negate one friendly leader death
	CounterIntoTheBreach CounterType = "into-the-breach" // +1 DRM for one Shock/Charge attack
	// CounterUnsteadyTroops: Disorder one enemy unit, or Eliminate an
	// enemy Artillery unit (Arquebus 6.3).
	CounterUnsteadyTroops CounterType = "unsteady-troops"
)

var counterNames = map[CounterType]string{
	CounterOpportunity:    "Seizure Opportunity",
	CounterNegation:       "Seizure Negation",
	CounterBattleCry:      "Battle Cry",
	CounterTreachery:      "Treachery!",
	CounterNearMiss:       "Near Miss",
	CounterIntoTheBreach:  "Into the Breach",
	CounterUnsteadyTroops: "Unsteady Troops",
}

func (t CounterType) String() string {
	if s, ok := counterNames[t]; ok {
		return s
	}
	return string(t)
}

// SeizureCounter is one counter dealt to a side. Min and Max are a Seizure
// Opportunity's printed DR range ("0-5"); Played: it has been played and
// discarded (6.3: "may not be used again this battle").
type SeizureCounter struct {
	ID     string      `json:"id"`
	Type   CounterType `json:"type"`
	Min    int         `json:"min,omitempty"`
	Max    int         `json:"max,omitempty"`
	Played bool        `json:"played,omitempty"`
}

func (c SeizureCounter) label() string {
	if c.Type == CounterOpportunity {
		return fmt.Sprintf("%s (%s, %d-%d)", c.ID, c.Type, c.Min, c.Max)
	}
	return fmt.Sprintf("%s (%s)", c.ID, c.Type)
}

// CounterHand is a side's Seizure counters. Hidden counts the unplayed
// counters Redacted removed: how many a side holds is no secret, only
// which.
//
// Salt is a secret of the hand's own (docs/dice.md, "Hidden draws"): it
// makes the hash of a State holding the hand, which the dice log
// publishes, tell nothing of which counters are in it.
type CounterHand struct {
	Counters []SeizureCounter `json:"counters,omitempty"`
	Hidden   int              `json:"hidden,omitempty"`
	Salt     string           `json:"salt,omitempty"`
	// The side's plans for its counters, as secret as the counters
	// (seizure_plays.go): Standing maps a Battle Cry or Treachery! to
	// the play its standing order makes at the start of the next
	// Activation ("RALLY ED2"); Breach maps an Into the Breach to the
	// defender whose attack it is for in this Shock Phase; NearMissNever:
	// STANDING NEAR MISS NEVER.
	Standing      map[string]string `json:"standing,omitempty"`
	Breach        map[string]string `json:"breach,omitempty"`
	NearMissNever bool              `json:"near_miss_never,omitempty"`
}

// Counters are both sides' Seizure counters and the Seizure Opportunity
// in play while the Active player may Negate it.
type Counters struct {
	Hands [2]CounterHand `json:"hands"`
	// Playing is the Seizure Opportunity just played, Command the Battle
	// named to Seize with, while the Active player decides on Negation.
	Playing string `json:"playing,omitempty"`
	Command string `json:"command,omitempty"`
}

func (c *Counters) clone() *Counters {
	if c == nil {
		return nil
	}
	cp := *c
	for i := range cp.Hands {
		cp.Hands[i].Counters = slices.Clone(c.Hands[i].Counters)
		cp.Hands[i].Standing = maps.Clone(c.Hands[i].Standing)
		cp.Hands[i].Breach = maps.Clone(c.Hands[i].Breach)
	}
	return &cp
}

// counter finds side's counter by its identifier, any case.
func (c *Counters) counter(side Side, id string) *SeizureCounter {
	if c == nil {
		return nil
	}
	for i := range c.Hands[side].Counters {
		if fold(c.Hands[side].Counters[i].ID) == fold(id) {
			return &c.Hands[side].Counters[i]
		}
	}
	return nil
}

// markPlayed discards side's counter c; in a state redacted for the
// other side, c was among the hidden ones and comes to light played.
func (c *Counters) markPlayed(side Side, played SeizureCounter) {
	if k := c.counter(side, played.ID); k != nil {
		k.Played = true
	} else if h := &c.Hands[side]; h.Hidden > 0 {
		h.Hidden--
		played.Played = true
		h.Counters = append(h.Counters, played)
	}
}

// unplayedCounters are side's counters not yet played; with a redacted
// state, the hidden ones are counted as empty entries.
func unplayedCounters(st *State, side Side) []SeizureCounter {
	if st.Counters == nil {
		return nil
	}
	var out []SeizureCounter
	for _, c := range st.Counters.Hands[side].Counters {
		if !c.Played {
			out = append(out, c)
		}
	}
	for range st.Counters.Hands[side].Hidden {
		out = append(out, SeizureCounter{})
	}
	return out
}

// DealSeizureCounters gives side its Seizure counters at setup, before the
// first order block: Herald deals them (their number is the scenario's,
// their composition drawn and committed to by the dice log); the engine
// checks them and records the deal as an event folded into the state.
// salt is the hand's secret salt (see CounterHand).
func DealSeizureCounters(sc *Scenario, st *State, side Side, counters []SeizureCounter, salt string) (*State, Event, error) {
	if !sc.Tables.Rules.SeizureCounters {
		return nil, nil, fmt.Errorf("engine: the %s tables have no Seizure counters (rules.seizure_counters)", sc.Volume)
	}
	if st.Counters != nil && len(st.Counters.Hands[side].Counters) > 0 {
		return nil, nil, fmt.Errorf("engine: the %s have been dealt their Seizure counters already", sc.SideName(side))
	}
	seen := map[string]bool{}
	for _, c := range counters {
		switch {
		case c.ID == "" || strings.ContainsAny(c.ID, " \t#"):
			return nil, nil, fmt.Errorf("engine: Seizure counter id %q: want one word", c.ID)
		case seen[fold(c.ID)]:
			return nil, nil, fmt.Errorf("engine: Seizure counter id %q given twice", c.ID)
		case counterNames[c.Type] == "":
			return nil, nil, fmt.Errorf("engine: Seizure counter %s: unknown type %q", c.ID, c.Type)
		case c.Type == CounterOpportunity && (c.Min < 0 || c.Max > 9 || c.Min > c.Max):
			return nil, nil, fmt.Errorf("engine: Seizure Opportunity %s: DR range %d-%d is not within 0-9", c.ID, c.Min, c.Max)
		case c.Type != CounterOpportunity && (c.Min != 0 || c.Max != 0):
			return nil, nil, fmt.Errorf("engine: Seizure counter %s: only a Seizure Opportunity has a DR range", c.ID)
		case c.Played:
			return nil, nil, fmt.Errorf("engine: Seizure counter %s is dealt played", c.ID)
		}
		seen[fold(c.ID)] = true
	}
	e := CountersDealt{Side: side, Counters: slices.Clone(counters), Salt: salt}
	next := st.Clone()
	e.apply(next)
	return next, e, nil
}

// Redacted is the state as viewer may see it: the other side's unplayed
// Seizure counters are removed, only their number kept (Hidden), and the
// Seizure Opportunity under a Negation decision is public (it was played).
func (st *State) Redacted(viewer Side) *State {
	c := st.Clone()
	if c.Counters == nil {
		return c
	}
	h := &c.Counters.Hands[viewer.Other()]
	h.Salt = ""
	h.Standing, h.Breach, h.NearMissNever = nil, nil, false
	var kept []SeizureCounter
	for _, k := range h.Counters {
		if k.Played {
			kept = append(kept, k)
		} else {
			h.Hidden++
		}
	}
	h.Counters = kept
	return c
}

// RedactEvents are events as viewer may see them: the deal of the other
// side's counters shows only how many were dealt.
func RedactEvents(evs []Event, viewer Side) []Event {
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		if d, ok := e.(CountersDealt); ok && d.Side != viewer {
			d = CountersDealt{Side: d.Side, Hidden: len(d.Counters) + d.Hidden} // and no Salt
			e = d
		}
		out = append(out, e)
	}
	return out
}

// CountersDealt: side is dealt its Seizure counters (6.3). Redacted for the
// opponent, Counters is empty and Hidden says how many.
type CountersDealt struct {
	Side     Side             `json:"side"`
	Counters []SeizureCounter `json:"counters,omitempty"`
	Hidden   int              `json:"hidden,omitempty"`
	Salt     string           `json:"salt,omitempty"`
}

func (e CountersDealt) apply(st *State) {
	if st.Counters == nil {
		st.Counters = &Counters{}
	}
	h := &st.Counters.Hands[e.Side]
	h.Counters = append(h.Counters, e.Counters...)
	h.Hidden += e.Hidden
	h.Salt = e.Salt
}

func (e CountersDealt) describe(sc *Scenario) string {
	if len(e.Counters) == 0 {
		return fmt.Sprintf("The %s are dealt %d Seizure counters (B&R 6.3).", sc.SideName(e.Side), e.Hidden)
	}
	var l []string
	for _, c := range e.Counters {
		l = append(l, c.label())
	}
	return fmt.Sprintf("The %s are dealt %d Seizure counters (B&R 6.3): %s.", sc.SideName(e.Side), len(e.Counters), strings.Join(l, ", "))
}

// ownCounter finds the sender's unplayed counter id of type want.
func (g *game) ownCounter(o Order, id string, want ...CounterType) (SeizureCounter, error) {
	if !g.sc.Tables.Rules.SeizureCounters {
		return SeizureCounter{}, g.illegal(o, "4.3", "this volume has no Seizure counters")
	}
	c := g.st.Counters.counter(g.sender, id)
	switch {
	case c == nil:
		return SeizureCounter{}, g.illegal(o, "B&R 6.3", fmt.Sprintf("the %s hold no Seizure counter %q", g.sc.SideName(g.sender), id))
	case c.Played:
		return SeizureCounter{}, g.illegal(o, "B&R 6.3", fmt.Sprintf("%s has been played: a counter played is discarded and may not be used again this battle", c.ID))
	case !slices.Contains(want, c.Type):
		var names []string
		for _, w := range want {
			names = append(names, w.String())
		}
		return SeizureCounter{}, g.illegal(o, "B&R 6.3", fmt.Sprintf("%s is a %s counter, not %s", c.ID, c.Type, strings.Join(names, " or ")))
	}
	return *c, nil
}

// seizeWithCounter plays a Seizure Opportunity counter with Battle cmd
// (6.3): "A player may play one, and only one, of his SEIZURE OPPORTUNITY
// counters before his opponent attempts Continuity, before the Continuity
// DR is made." The Active player may then Negate it, if he holds any
// counter at all (ruling R210: he is asked whenever he holds one, so
// that the wait reveals nothing).
func (g *game) seizeWithCounter(o Seize, cmd string) error {
	c, err := g.ownCounter(o, o.Counter, CounterOpportunity)
	if err != nil {
		return err
	}
	side := g.st.Pending.Side
	g.emit(CounterPlayed{Side: side, Counter: c.ID, Type: c.Type, Min: c.Min, Max: c.Max, Command: cmd})
	if len(unplayedCounters(g.st, side.Other())) > 0 {
		g.emit(NegationAsked{Side: side.Other()})
		return nil
	}
	return g.counterSeizureRoll()
}

// counterSeizureRoll: "rolls the die, and consults the DR range on the
// counter played": within it, Seized with a Battle Activation; higher, no
// Seizure and a Free Activation for the Active player, who "may even use
// this Free Activation to Activate the Battle that just completed
// Activation!" No DRM applies (ruling R211).
func (g *game) counterSeizureRoll() error {
	st := g.st
	side, ctr := st.Active.Other(), st.Counters.counter(st.Active.Other(), st.Counters.Playing)
	cmd := st.Counters.Command
	leader := g.sc.Command(cmd).Leader
	r, err := g.roll(fmt.Sprintf("Seizure DR: %s, counter %s (%d-%d)", commandName(g.sc, cmd), ctr.ID, ctr.Min, ctr.Max))
	if err != nil {
		return err
	}
	ok := r.Total >= ctr.Min && r.Total <= ctr.Max
	g.emit(SeizureRolled{Side: side, Command: cmd, Leader: leader, Roll: r, Success: ok, Counter: ctr.ID, Min: ctr.Min, Max: ctr.Max})
	if ok {
		g.activateCommand(side, cmd, SeizureActivation)
		return g.pursuitReturn(cmd, SeizureActivation) // Blood & Roses 14.9: a leader who joined the Pursuit
	}
	g.emit(FreeActivationGranted{Side: side.Other(), Reason: fmt.Sprintf("the %s failed to Seize Continuity; they may activate even the Battle that just went (B&R 6.3)", g.sc.SideName(side))})
	return nil
}

// negate plays a Seizure Negation counter (6.3): "When an opponent plays a
// SEIZURE OPPORTUNITY counter and before that player rolls his die, the
// opposing player may play a SEIZURE NEGATION counter ... no Seizure
// attempt may be made. Both counters are then discarded", and "the
// Continuation attempt is then resolved" (4.0 E). No Seizure was
// attempted, so the Continuation penalties stand (ruling R212).
func (g *game) negate(o Negate) error {
	if g.st.Pending.Kind != DecideNegation || g.st.Pending.Side != g.sender {
		return g.illegal(o, "B&R 6.3", "a Seizure Negation is played only when the opponent has just played a Seizure Opportunity counter, before his die")
	}
	c, err := g.ownCounter(o, o.Counter, CounterNegation)
	if err != nil {
		return err
	}
	g.emit(SeizureNegated{Side: g.sender, Counter: c.ID, Opportunity: g.st.Counters.Playing})
	return g.continuityRoll()
}

// playCounter plays a Battle Cry or Treachery! counter (6.3): "Played at
// the start of any Activation". Herald takes the start of an Activation to
// be its Move/Fire Phase before any unit or leader has moved, fired or
// changed facing (ruling R213), and offers the moment to the Active
// player; Near Miss and Into the Breach have moments of their own.
func (g *game) playCounter(o PlayCounter) error {
	c, err := g.ownCounter(o, o.Counter, CounterBattleCry, CounterTreachery, CounterNearMiss, CounterIntoTheBreach, CounterUnsteadyTroops)
	if err != nil {
		return err
	}
	switch c.Type {
	case CounterNearMiss:
		return g.illegal(o, "B&R 6.3", c.ID+" is a Near Miss: Herald plays it when one of your leaders dies, unless you have sent STANDING NEAR MISS NEVER (ruling R219)")
	case CounterIntoTheBreach:
		return g.playBreach(o, c)
	case CounterUnsteadyTroops:
		return g.playUnsteady(o, c)
	}
	if strings.EqualFold(o.Verb, "AT") {
		return g.illegal(o, "docs/orders.md", fmt.Sprintf("%s is a %s counter: PLAY <counter> AT <defender> is for Into the Breach", c.ID, c.Type))
	}
	if g.st.Pending.Kind != DecideActions || g.activationBegun() {
		return g.illegal(o, "B&R 6.3", c.Type.String()+" is played at the start of an Activation, before any unit or leader has moved, fired or faced")
	}
	verb := "RALLY"
	if c.Type == CounterTreachery {
		verb = "DISORDER"
	}
	if !strings.EqualFold(o.Verb, verb) {
		return g.illegal(o, "docs/orders.md", fmt.Sprintf("%s: PLAY %s %s <unit>", c.Type, c.ID, verb))
	}
	if c.Type == CounterBattleCry {
		i, ok := g.findUnit(o.Unit)
		if !ok || g.st.Units[i].Status != Retired || g.st.Units[i].OffMap {
			return g.illegal(o, "B&R 6.3", fmt.Sprintf("Battle Cry rallies one friendly Retired unit: the %s have no Retired unit %q", g.sc.SideName(g.sender), o.Unit))
		}
		g.emit(CounterPlayed{Side: g.sender, Counter: c.ID, Type: c.Type, Unit: g.sc.Units[i].ID})
		to := Disordered
		if unitType(g.sc, g.st, i).NoDisorderedSide {
			to = Normal
		}
		g.emit(UnitRallied{Unit: g.sc.Units[i].ID, To: to, Retired: true, Rule: "B&R 6.3 Battle Cry"})
		return nil
	}
	j, ok := g.findEnemyUnit(o.Unit)
	if !ok || g.st.Units[j].Status != Normal || !onField(g.st, j) {
		return g.illegal(o, "B&R 6.3", fmt.Sprintf("Treachery! Disorders one enemy unit in good order on the field: %q is not one (ruling R214)", o.Unit))
	}
	g.emit(CounterPlayed{Side: g.sender, Counter: c.ID, Type: c.Type, Unit: g.sc.Units[j].ID})
	g.disorder(j, "Treachery! (B&R 6.3)", nil)
	return nil
}

// activationBegun: a unit or leader has moved, fired or faced, or an
// attack is declared, in the Activation under way.
func (g *game) activationBegun() bool {
	for _, us := range g.st.Units {
		if us.Acted || us.Moved || us.Fired || us.Rearmed {
			return true
		}
	}
	for _, ls := range g.st.Leaders {
		if ls.Moved {
			return true
		}
	}
	return len(g.st.Declared) > 0
}

// Orders of 6.3.

// Negate plays a Seizure Negation counter: "NEGATE <counter>".
type Negate struct {
	at
	Counter string
}

func (o Negate) String() string { return "NEGATE " + o.Counter }

// PlayCounter plays a Battle Cry or Treachery! counter: "PLAY <counter>
// RALLY <unit>", "PLAY <counter> DISORDER <enemy unit>"; or readies an
// Into the Breach for an attack declared: "PLAY <counter> AT <defender>".
type PlayCounter struct {
	at
	Counter, Verb, Unit string
}

func (o PlayCounter) String() string {
	return strings.TrimSpace("PLAY " + o.Counter + " " + strings.ToUpper(o.Verb) + " " + o.Unit)
}

func parsePlay(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) != 3 {
		return nil, syntax("PLAY takes a counter, RALLY, DISORDER or AT, and a unit", "PLAY <counter> RALLY <unit>", "PLAY <counter> DISORDER <enemy unit>", "PLAY <counter> AT <defender>")
	}
	return PlayCounter{at: a, Counter: rest[0], Verb: strings.ToUpper(rest[1]), Unit: rest[2]}, nil
}

// Events of 6.3.

// CounterPlayed: a Seizure counter is played and discarded (6.3); for a
// Seizure Opportunity, Command is the Battle named to Seize with.
type CounterPlayed struct {
	Side    Side        `json:"side"`
	Counter string      `json:"counter"`
	Type    CounterType `json:"type"`
	Min     int         `json:"min,omitempty"`
	Max     int         `json:"max,omitempty"`
	Command string      `json:"command,omitempty"`
	Unit    string      `json:"unit,omitempty"`
	// Leader is the leader a Near Miss saves; Standing: a standing
	// order played it (B&R 6.3, rulings R219, R282).
	Leader   string `json:"leader,omitempty"`
	Standing bool   `json:"standing,omitempty"`
}

func (e CounterPlayed) apply(st *State) {
	h := &st.Counters.Hands[e.Side]
	delete(h.Standing, e.Counter)
	delete(h.Breach, e.Counter)
	st.Counters.markPlayed(e.Side, SeizureCounter{ID: e.Counter, Type: e.Type, Min: e.Min, Max: e.Max})
	if e.Type == CounterOpportunity {
		st.Counters.Playing, st.Counters.Command = e.Counter, e.Command
		st.Pending = Decision{}
	}
}

func (e CounterPlayed) describe(sc *Scenario) string {
	switch e.Type {
	case CounterOpportunity:
		return fmt.Sprintf("The %s play Seizure Opportunity %s (%d-%d) to Seize Continuity with %s (B&R 6.3).", sc.SideName(e.Side), e.Counter, e.Min, e.Max, commandName(sc, e.Command))
	case CounterBattleCry:
		return fmt.Sprintf("The %s play Battle Cry %s%s: %s rallies (B&R 6.3).", sc.SideName(e.Side), e.Counter, standingText(e.Standing), e.Unit)
	case CounterTreachery:
		return fmt.Sprintf("The %s play Treachery! %s%s on %s (B&R 6.3).", sc.SideName(e.Side), e.Counter, standingText(e.Standing), e.Unit)
	case CounterNearMiss:
		return fmt.Sprintf("The %s play Near Miss %s%s: %s escapes death (B&R 6.3).", sc.SideName(e.Side), e.Counter, standingText(e.Standing), leaderName(sc, e.Leader))
	case CounterIntoTheBreach:
		return fmt.Sprintf("The %s play Into the Breach %s for the attack on %s: +1 to its DR (B&R 6.3).", sc.SideName(e.Side), e.Counter, e.Unit)
	case CounterUnsteadyTroops:
		return fmt.Sprintf("The %s play Unsteady Troops %s%s on %s (ARQ 6.3).", sc.SideName(e.Side), e.Counter, standingText(e.Standing), e.Unit)
	}
	return fmt.Sprintf("The %s play %s %s on %s (B&R 6.3).", sc.SideName(e.Side), e.Type, e.Counter, e.Unit)
}

// NegationAsked: the Active player may Negate the Seizure Opportunity
// just played (6.3).
type NegationAsked struct {
	Side Side `json:"side"`
}

func (e NegationAsked) apply(st *State)              { st.Pending = Decision{Kind: DecideNegation, Side: e.Side} }
func (e NegationAsked) describe(sc *Scenario) string { return "" }

// SeizureNegated: both counters are discarded; no Seizure attempt is made
// (6.3).
type SeizureNegated struct {
	Side        Side   `json:"side"`
	Counter     string `json:"counter"`
	Opportunity string `json:"opportunity"`
}

func (e SeizureNegated) apply(st *State) {
	st.Counters.markPlayed(e.Side, SeizureCounter{ID: e.Counter, Type: CounterNegation})
	st.Counters.Playing, st.Counters.Command = "", ""
	st.Pending = Decision{}
}

func (e SeizureNegated) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s play Seizure Negation %s: Seizure Opportunity %s is negated, both are discarded, and no Seizure is attempted (B&R 6.3).",
		sc.SideName(e.Side), e.Counter, e.Opportunity)
}

// NegationDeclined: the Active player lets the Seizure die be rolled.
type NegationDeclined struct {
	Side Side `json:"side"`
}

func (e NegationDeclined) apply(st *State) { st.Pending = Decision{} }
func (e NegationDeclined) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s do not Negate the Seizure (B&R 6.3).", sc.SideName(e.Side))
}

func init() {
	registerEvents(CountersDealt{}, CounterPlayed{}, NegationAsked{}, SeizureNegated{}, NegationDeclined{})
}

// Unplayed are side's Seizure counters not yet played; in a state
// Redacted for the other side, the hidden ones are there with no ID, so
// that their number is right.
func Unplayed(st *State, side Side) []SeizureCounter { return unplayedCounters(st, side) }

// Label names a counter for its owner: "SO5 (Seizure Opportunity 0-5)".
func (c SeizureCounter) Label() string {
	if c.Type == CounterOpportunity {
		return fmt.Sprintf("%s (%s %d-%d)", c.ID, c.Type, c.Min, c.Max)
	}
	return fmt.Sprintf("%s (%s)", c.ID, c.Type)
}

// Public is the state as anyone may see it: both sides' unplayed Seizure
// counters removed, only their number kept (for what both players, or an
// observer, are shown alike, as the map). Without counters it is st.
func (st *State) Public() *State {
	if st.Counters == nil {
		return st
	}
	return st.Redacted(0).Redacted(1)
}
