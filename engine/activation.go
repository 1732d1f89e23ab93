package engine

import (
	"fmt"
	"slices"
)

// 4.0 ACTIVATION AND CONTINUITY

// 4.1 Activation

func (g *game) activate(o Activate) error {
	st := g.st
	if st.Pending.Kind != DecideActivation {
		if o.Standard {
			return g.illegal(o, "13.2", "Standards may be Activated only in a Free Activation, never by Continuation or Seizure")
		}
		if o.Ambush {
			return g.illegal(o, "B&R 16.1", "an ambushing unit is activated only with a Free Activation; "+Waiting(g.sc, st))
		}
		return g.illegal(o, "4.1", "a Command is activated without a roll only in a Free Activation; "+Waiting(g.sc, st))
	}
	if o.Standard || o.Army {
		if err := g.pursuitFirst(o, st.Pending.Side, ""); err != nil {
			return err
		}
	}
	if o.Standard {
		return g.activateStandard(o)
	}
	if o.Ambush {
		return g.activateAmbush(o)
	}
	if o.Army {
		if !g.sc.Tables.Rules.ArmyActivation {
			return g.illegal(o, "4.1", "this volume has no Army Activation: activate a Command or a Standard")
		}
		return g.activateArmy(o, st.Pending.Side, FreeActivation)
	}
	cmd, err := g.ownCommand(o, o.Name)
	if err != nil {
		return err
	}
	if !slices.Contains(availableCommands(g.sc, st, st.Pending.Side), cmd) {
		return g.illegal(o, "15.0", fmt.Sprintf("%s has no units left to activate", commandName(g.sc, cmd)))
	}
	if err := g.pursuitFirst(o, st.Pending.Side, cmd); err != nil {
		return err
	}
	g.activateCommand(st.Pending.Side, cmd, FreeActivation)
	return g.pursuitReturn(cmd, FreeActivation) // Blood & Roses 14.9
}

// A Player may always "Pass", instead of activating a Command. If he does
// that, it is treated as if he failed a Continuity dieroll (4.1, 4.2).
func (g *game) pass(o Pass) error {
	st := g.st
	side := st.Pending.Side
	switch st.Pending.Kind {
	case DecideActivation:
		if err := g.pursuitFirst(o, side, ""); err != nil {
			return err
		}
		// Ruling (docs/rulings.md R3): a Free Activation given up by a
		// Pass is still a completed Free Activation, so both players make
		// their Loss Checks (16.0; B&R and Arquebus 6.1 say so outright).
		g.emit(Passed{Side: side, Free: true})
		if te := g.sc.Rules.TimedEngagement; te != nil && side != te.Timed {
			// Blood & Roses 16.2, 6.1: the non-timed player's Pass of a
			// Free Activation moves the time marker one space towards
			// zero, always, as it can only help him (ruling R270).
			left := TimeLeft(g.sc, g.st) - 1
			g.emit(TimeMarkerMoved{Side: side, Left: left})
			if left <= 0 {
				g.emit(GameEnded{Outcome: Outcome{Winner: side, Reason: fmt.Sprintf("the time marker reached 0: the timed %s lose the Timed Engagement (Blood & Roses 16.2)", g.sc.SideName(te.Timed))}})
				return nil
			}
		}
		if err := g.lossChecks(); err != nil || g.st.Outcome != nil {
			return err
		}
	case DecideContinuation:
		g.emit(Passed{Side: side})
	default:
		return g.illegal(o, "4.1", "PASS is given instead of activating or continuing; END the Activation first")
	}
	g.emit(FreeActivationGranted{Side: side.Other(), Reason: fmt.Sprintf("the %s passed", g.sc.SideName(side))})
	return nil
}

// END closes Phases B and C; Phase D (Rally) follows, then Phase E: the Loss
// Check after a Free Activation (16.0), then the choice to continue.
func (g *game) end(o End) error {
	if g.st.Pending.Kind != DecideActions {
		return g.illegal(o, "ExtSoP", "END closes the orders of an activated Command; no Command is activated")
	}
	if why, legal := undeclaredEngaged(g.sc, g.st); why != "" {
		return g.illegal(o, "Arquebus 14.5", why+"; legal: "+legal)
	}
	if len(g.st.Declared) > 0 {
		attacks, bad := buildAttacks(g.sc, g.st)
		if bad != nil {
			return g.illegal(o, bad.Rule, fmt.Sprintf("the attacks declared do not hold together: %s: %s", bad.Text, bad.Reason))
		}
		return g.shockPhase(attacks)
	}
	g.rallyPhase()
	return g.endActivation()
}

func (g *game) endActivation() error {
	st := g.st
	free := st.Kind == FreeActivation
	g.breachLapses()
	activated := activatedCommands(g.sc, st) // Blood & Roses 14.9: the Pursuers
	g.pursuitLeaders(activated)
	g.emit(ActivationEnded{Side: st.Active, Command: st.Command, Standard: st.ActiveStandard, Army: st.Army, Ambush: st.Ambush, Kind: st.Kind})
	if err := g.battleFlight(activated); err != nil || g.st.Outcome != nil {
		return err
	}
	if free {
		return g.lossChecks()
	}
	return nil
}

// 4.2 Continuity

func (g *game) continuation(o Continue) error {
	st := g.st
	if st.Pending.Kind != DecideContinuation {
		return g.illegal(o, "4.2", "Continuity is attempted after an Activation has ended; "+Waiting(g.sc, st))
	}
	if o.Standard {
		return g.illegal(o, "13.2", "Standards may be Activated only in a Free Activation; they may not be Activated by DR")
	}
	if o.Army {
		return g.continueArmy(o)
	}
	cmd, err := g.ownCommand(o, o.Name)
	if err != nil {
		if _, isStd := g.findStandard(st.Active, o.Name); isStd {
			return g.illegal(o, "13.2", "Standards may be Activated only in a Free Activation; they may not be Activated by DR")
		}
		return err
	}
	if cmd == st.LastCommand && len(availableCommands(g.sc, st, st.Active)) > 1 {
		return g.illegal(o, "4.2", fmt.Sprintf("%s has just completed its Activation; the selected Command may not be the one that just went unless the player has only one Command", commandName(g.sc, cmd)))
	}
	if !slices.Contains(availableCommands(g.sc, st, st.Active), cmd) {
		return g.illegal(o, "15.0", fmt.Sprintf("%s has no units left to activate", commandName(g.sc, cmd)))
	}
	if g.sc.Tables.Rules.ContinuityLeaderOnMap && !leaderOnMap(g.sc, st, cmd) {
		if leaderless(g.sc, st, cmd) {
			return g.illegal(o, "ARQ 6.4", fmt.Sprintf("%s has no leader: a Leaderless Battle is activated only by a Free Activation, never by Continuity or Seizure", commandName(g.sc, cmd)))
		}
		return g.illegal(o, "ARQ 6.2", fmt.Sprintf("only leaders currently on the map can attempt Continuation, and %s is not on the map", leaderName(g.sc, g.sc.Command(cmd).Leader)))
	}
	g.emit(ContinuationDeclared{Side: st.Active, Command: cmd})
	return g.afterContinuationDeclared()
}

// afterContinuationDeclared: the opponent may now Seize, unless he cannot
// — no Command left, or, where Seizure takes a counter, none unplayed
// (B&R 6.3; how many he holds is no secret) — when the roll follows at
// once.
func (g *game) afterContinuationDeclared() error {
	other := g.st.Active.Other()
	if len(seizingCommands(g.sc, g.st, other)) == 0 || g.sc.Tables.Rules.SeizureCounters && len(unplayedCounters(g.st, other)) == 0 {
		return g.continuityRoll()
	}
	return nil
}

// continueArmy names Army Activation for Continuity (B&R 6.2): "If the
// completed Activation was an Army Activation, the player may either
// select Army Activation or a Battle"; "Army Activation can only follow
// an Army Activation" (4.0 E).
func (g *game) continueArmy(o Continue) error {
	st := g.st
	switch {
	case !g.sc.Tables.Rules.ArmyActivation:
		return g.illegal(o, "4.2", "this volume has no Army Activation: name a Command for Continuity")
	case !st.LastArmy:
		return g.illegal(o, "B&R 6.2", "Army Activation can be continued only after an Army Activation (4.0 E); name a Battle that did not just go")
	}
	if u, l := armyMembers(g.sc, st, st.Active); len(u) == 0 && len(l) == 0 {
		return g.noArmy(o)
	}
	g.emit(ContinuationDeclared{Side: st.Active, Army: true})
	return g.afterContinuationDeclared()
}

// continuityRoll is the Continuation DR (4.2): the die plus one for each
// successful Continuation DR since the last reset, against the leader's
// Activation Rating; with Rules.OCEffectiveness the Overall Commander's
// Effectiveness is added, and with Rules.ArmyContinuationFixed an Army
// Continuation is made against a fixed number (Arquebus 5.2, 6.2).
func (g *game) continuityRoll() error {
	st := g.st
	side, cmd, army := st.Active, st.Selected, st.SelectedArmy
	rules := g.sc.Tables.Rules
	var leader *LeaderSpec
	if army {
		// B&R 6.2: "the Overall Commander for Army Activation".
		leader = &g.sc.Leaders[armyOC(g.sc, st, side)]
	} else {
		leader = g.sc.Leader(g.sc.Command(cmd).Leader)
	}
	var mods []Modifier
	if n := st.Continuations[side]; n > 0 {
		reason := "for the successful Continuation DR before it"
		if n > 1 {
			reason = fmt.Sprintf("for the %d successful Continuation DRs before it", n)
		}
		mods = append(mods, Modifier{DRM: n, Reason: reason, Rule: "4.2"})
	}
	if army && rules.ArmyContinuationDRM != 0 {
		mods = append(mods, Modifier{DRM: rules.ArmyContinuationDRM, Reason: "for Army Activation Continuity", Rule: "B&R 6.2"})
	}
	eff, effOC := effectiveness(g.sc, st, leader.ID, army)
	if eff != 0 {
		mods = append(mods, Modifier{DRM: eff, Reason: fmt.Sprintf("the Overall Commander %s's Effectiveness", leaderName(g.sc, effOC)), Rule: "ARQ 6.2"})
	}
	// B&R 6.2: "If a player has only one Battle, he adds an additional one
	// (+1) cumulative DRM ... for each new such attempt ... Any DRM for
	// Continuing with one Battle incurred applies until reset ..., even if
	// the player enters another Battle before the reset occurs" (R205).
	one := st.OneBattle[side]
	if rules.OneBattleContinuationDRM > 0 && len(availableCommands(g.sc, st, side)) == 1 {
		one += rules.OneBattleContinuationDRM
	}
	if one > 0 {
		mods = append(mods, Modifier{DRM: one, Reason: "for Continuing with only one Battle", Rule: "B&R 6.2"})
	}
	ar, bonus, oc := activationRating(g.sc, g.st, leader.ID)
	purpose := fmt.Sprintf("Continuity DR: %s (AR %d)", leader.Name, ar)
	fixed := army && rules.ArmyContinuationFixed
	if fixed {
		// Arquebus 6.2: "If the (adjusted) DR is 2 or less, the Army
		// Activation succeeds."
		ar, bonus, oc = rules.ArmyContinuationMax, 0, ""
		purpose = fmt.Sprintf("Continuity DR: Army Activation (%d or less)", ar)
	}
	if eff != 0 {
		oc = effOC
	}
	r, err := g.roll(purpose, mods...)
	if err != nil {
		return err
	}
	ok := r.Total <= ar
	g.emit(ContinuityRolled{Side: side, Command: cmd, Army: army, Leader: leader.ID, Roll: r, AR: ar, OCBonus: bonus, OC: oc, Effectiveness: eff, Fixed: fixed, OneBattle: one, Success: ok})
	if ok && army {
		return g.activateArmy(nil, side, ContinuationActivation)
	}
	if ok {
		g.activateCommand(side, cmd, ContinuationActivation)
		return g.pursuitReturn(cmd, ContinuationActivation) // Blood & Roses 14.9: a leader who joined the Pursuit
	}
	g.emit(FreeActivationGranted{Side: side.Other(), Reason: fmt.Sprintf("the %s failed their Continuity DR", g.sc.SideName(side))})
	return nil
}

// 4.3 Seizing Continuity

func (g *game) seize(o Seize) error {
	st := g.st
	side := st.Pending.Side
	if st.Pending.Kind != DecideSeizure {
		return g.illegal(o, "4.3", seizureNotPending(g.sc, st))
	}
	cmd, err := g.ownCommand(o, o.Name)
	if err != nil {
		return err
	}
	if !slices.Contains(availableCommands(g.sc, st, side), cmd) {
		return g.illegal(o, "15.0", fmt.Sprintf("%s has no units left to activate", commandName(g.sc, cmd)))
	}
	if g.sc.Tables.Rules.ContinuityLeaderOnMap && !leaderOnMap(g.sc, st, cmd) {
		if leaderless(g.sc, st, cmd) {
			return g.illegal(o, "ARQ 6.4", fmt.Sprintf("%s has no leader: a Leaderless Battle may never Seize Continuity; it is activated only by a Free Activation", commandName(g.sc, cmd)))
		}
		return g.illegal(o, "ARQ 6.3", fmt.Sprintf("a Seizure is attempted by a Battle which must have a leader on the map, and %s is not on the map", leaderName(g.sc, g.sc.Command(cmd).Leader)))
	}
	switch {
	case g.sc.Tables.Rules.SeizureCounters && o.Counter == "":
		return g.illegal(o, "B&R 6.3", "a Seizure is attempted by playing a Seizure Opportunity counter: SEIZE <battle> WITH <counter>")
	case o.Counter != "":
		return g.seizeWithCounter(o, cmd)
	}
	return g.seizureRoll(cmd, "")
}

// seizureNotPending explains a SEIZE from the player who has the move: a
// Seizure answers only the opponent's Continuity attempt, before its DR
// (4.3), so he may not abandon his Activation for it, re-activate the
// Command that just went, dodge 4.2's cumulative +1, or forestall the
// opponent's own chance to Seize.
func seizureNotPending(sc *Scenario, st *State) string {
	switch st.Pending.Kind {
	case DecideActivation:
		return "you cannot Seize a Free Activation: a Seizure is attempted only when the opponent is about to roll for Continuity; activate a Command instead"
	case DecideContinuation:
		return "a Seizure is attempted only when the opponent is about to roll for Continuity; the Activation that just ended was yours: CONTINUE or PASS"
	}
	return "a Seizure is attempted only when the opponent is about to roll for Continuity, never in the middle of your own Activation; " + Waiting(sc, st)
}

// seizureRoll: DR not higher than the leader's Activation Rating seizes;
// standing names the standing order that made the attempt, if any.
func (g *game) seizureRoll(cmd, standing string) error {
	side := g.st.Pending.Side
	leader := g.sc.Leader(g.sc.Command(cmd).Leader)
	ar, bonus, oc := activationRating(g.sc, g.st, leader.ID)
	r, err := g.roll(fmt.Sprintf("Seizure DR: %s (AR %d)", leader.Name, ar))
	if err != nil {
		return err
	}
	ok := r.Total <= ar
	g.emit(SeizureRolled{Side: side, Command: cmd, Leader: leader.ID, Roll: r, AR: ar, OCBonus: bonus, OC: oc, Success: ok, Standing: standing})
	if ok {
		g.activateCommand(side, cmd, SeizureActivation)
		return g.pursuitReturn(cmd, SeizureActivation) // Blood & Roses 14.9: a leader who joined the Pursuit
	}
	g.emit(FreeActivationGranted{Side: side.Other(), Reason: fmt.Sprintf("the %s failed to Seize Continuity; they may activate even the Command that just went", g.sc.SideName(side))})
	return nil
}

func (g *game) decline(o Decline) error {
	if g.st.Pending.Kind == DecideNegation {
		g.emit(NegationDeclined{Side: g.st.Pending.Side})
		return g.counterSeizureRoll()
	}
	if g.st.Pending.Kind != DecideSeizure {
		return g.illegal(o, "4.3", "DECLINE answers the opponent's Continuation attempt; "+Waiting(g.sc, g.st))
	}
	g.emit(SeizureDeclined{Side: g.st.Pending.Side})
	return g.continuityRoll()
}

// Which Commands may act.

// availableCommands are a side's Commands that still have a combat unit
// that is not Eliminated (15.0: a leader whose entire Command is eliminated
// is removed), in scenario order.
func availableCommands(sc *Scenario, st *State, side Side) []string {
	var out []string
	for _, c := range sc.Commands {
		if c.Side != side {
			continue
		}
		for i := range sc.Units {
			if unitCommand(sc, st, i) == c.ID && st.Units[i].Status != Eliminated && !st.Units[i].Fled && !inAmbush(sc, st, i) {
				out = append(out, c.ID)
				break
			}
		}
	}
	return out
}

// continuationCommands are the Commands the active player may name for
// Continuity: not the one that just went, unless it is the only one (4.2),
// and with Rules.ContinuityLeaderOnMap only those whose leader is on the
// map (Arquebus 6.2, 6.4).
func continuationCommands(sc *Scenario, st *State) []string {
	all := availableCommands(sc, st, st.Active)
	if len(all) > 1 {
		all = slices.DeleteFunc(all, func(c string) bool { return c == st.LastCommand })
	}
	if sc.Tables.Rules.ContinuityLeaderOnMap {
		all = slices.DeleteFunc(all, func(c string) bool { return !leaderOnMap(sc, st, c) })
	}
	return all
}

// seizingCommands are the Commands side may Seize Continuity with: those
// available, and with Rules.ContinuityLeaderOnMap only those whose leader
// is on the map (Arquebus 6.3, 6.4).
func seizingCommands(sc *Scenario, st *State, side Side) []string {
	all := availableCommands(sc, st, side)
	if sc.Tables.Rules.ContinuityLeaderOnMap {
		all = slices.DeleteFunc(all, func(c string) bool { return !leaderOnMap(sc, st, c) })
	}
	return all
}

// leaderless: Command cmd has no leader (Arquebus 6.4), from the start or
// since its leader was lost in a battle that has no Replacement for him
// (5.5, ruling R429).
func leaderless(sc *Scenario, st *State, cmd string) bool {
	c := sc.Command(cmd)
	if c == nil || c.Leader == "" {
		return true
	}
	ls := st.Leader(c.Leader)
	return sc.Leader(c.Leader).NoReplacement && ls != nil && ls.Killed
}

// leaderOnMap: Command cmd has a leader and he is on the map, neither off
// it with reinforcements nor killed and not yet replaced (Arquebus 6.2,
// 6.3). A Leaderless Battle (6.4) has none.
func leaderOnMap(sc *Scenario, st *State, cmd string) bool {
	c := sc.Command(cmd)
	if c == nil || c.Leader == "" {
		return false
	}
	ls := st.Leader(c.Leader)
	return ls != nil && !ls.OffMap && !ls.Killed
}

// Events of chapter 4.

// CommandActivated: a Command begins its Activation (4.1); Phase B follows.
type CommandActivated struct {
	Side    Side           `json:"side"`
	Command string         `json:"command"`
	Kind    ActivationKind `json:"kind"`
}

func (e CommandActivated) apply(st *State) { startActivation(st, e.Side, e.Kind, e.Command) }

// startActivation begins an Activation of cmd, or of the army when cmd is
// empty (B&R 6.1, ArmyActivated).
func startActivation(st *State, side Side, kind ActivationKind, cmd string) {
	st.Phase, st.Active, st.Kind = PhaseMoveFire, side, kind
	st.Command, st.ActiveStandard, st.Selected, st.SelectedArmy = cmd, "", "", false
	st.Army, st.ArmyUnits, st.ArmyLeaders = false, nil, nil
	st.Ambush, st.Sprung = "", false
	st.Pending = Decision{Kind: DecideActions, Side: side}
	st.Activations++
	for i := range st.Units {
		st.Units[i].Acted, st.Units[i].Moved, st.Units[i].OutOfCommand, st.Units[i].Fired, st.Units[i].Reacted = false, false, false, false, false
		st.Units[i].Engaged, st.Units[i].InZOCOf, st.Units[i].InZOCAt, st.Units[i].CounterCharged, st.Units[i].Marched = false, nil, nil, false, false
		st.Units[i].Rearmed = false
	}
	st.Declared, st.Acting = nil, ""
	for i := range st.Leaders {
		st.Leaders[i].Moved = false
	}
}

func (e CommandActivated) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s activate %s (%s).", sc.SideName(e.Side), commandName(sc, e.Command), e.Kind)
}

// Passed: a player passed instead of activating or continuing (4.1); this
// resets his Continuation penalty (4.2).
type Passed struct {
	Side Side `json:"side"`
	Free bool `json:"free,omitempty"` // he gave up a Free Activation
}

func (e Passed) apply(st *State) {
	st.Continuations[e.Side], st.OneBattle[e.Side] = 0, 0
	st.Selected, st.SelectedArmy = "", false
	if e.Free {
		st.Phase = PhaseContinuation
		st.LastCommand, st.LastArmy = "", false
	}
}

func (e Passed) describe(sc *Scenario) string {
	if e.Free {
		return fmt.Sprintf("The %s pass their Free Activation (4.1).", sc.SideName(e.Side))
	}
	return fmt.Sprintf("The %s pass (4.1).", sc.SideName(e.Side))
}

// ActivationEnded: Phases B–D are over; Phase E follows (ExtSoP E).
type ActivationEnded struct {
	Side     Side           `json:"side"`
	Command  string         `json:"command,omitempty"`
	Standard string         `json:"standard,omitempty"`
	Army     bool           `json:"army,omitempty"`   // an Army Activation (B&R 6.1)
	Ambush   string         `json:"ambush,omitempty"` // the ambushing unit's Activation (B&R 16.1)
	Kind     ActivationKind `json:"kind"`
}

func (e ActivationEnded) apply(st *State) {
	st.Phase = PhaseContinuation
	st.LastCommand, st.LastArmy = e.Command, e.Army
	st.Command, st.ActiveStandard = "", ""
	st.Army, st.ArmyUnits, st.ArmyLeaders = false, nil, nil
	if u := st.Unit(e.Ambush); e.Ambush != "" && u != nil {
		// B&R 16.1: the Ambush is used once the unit has come out; if it
		// stayed out of sight it still lies in Ambush (ruling R275).
		if u.OffMap {
			u.Joined = ""
		} else {
			st.AmbushesUsed = append(st.AmbushesUsed, e.Ambush)
		}
	}
	st.Ambush, st.Sprung = "", false
	st.Pending = Decision{Kind: DecideContinuation, Side: e.Side}
}

func (e ActivationEnded) describe(sc *Scenario) string {
	what := commandName(sc, e.Command)
	if e.Army {
		what = "the army"
	}
	if e.Standard != "" {
		what = "the " + standardName(sc, e.Standard) + " Standard"
	}
	if e.Ambush != "" {
		what = e.Ambush + " from its Ambush (B&R 16.1)"
	}
	return fmt.Sprintf("The Activation of %s ends (%s).", what, e.Kind)
}

// ContinuationDeclared: the active player names a Command for Continuity;
// the opponent may now try to Seize (4.2, 4.3).
type ContinuationDeclared struct {
	Side    Side   `json:"side"`
	Command string `json:"command"`
	Army    bool   `json:"army,omitempty"` // Army Activation named (B&R 6.2)
}

func (e ContinuationDeclared) apply(st *State) {
	st.Selected, st.SelectedArmy = e.Command, e.Army
	st.Pending = Decision{Kind: DecideSeizure, Side: e.Side.Other()}
}

func (e ContinuationDeclared) describe(sc *Scenario) string {
	if e.Army {
		return fmt.Sprintf("The %s select Army Activation for Continuity (B&R 6.2).", sc.SideName(e.Side))
	}
	return fmt.Sprintf("The %s select %s for Continuity (4.2).", sc.SideName(e.Side), commandName(sc, e.Command))
}

// SeizureDeclined: the opponent lets the Continuation DR go ahead.
type SeizureDeclined struct {
	Side     Side   `json:"side"`
	Standing string `json:"standing,omitempty"` // the standing order that decided, if any
}

func (e SeizureDeclined) apply(st *State) { st.Pending = Decision{} }

func (e SeizureDeclined) describe(sc *Scenario) string {
	if e.Standing != "" {
		return fmt.Sprintf("The %s do not try to Seize (standing order %q).", sc.SideName(e.Side), e.Standing)
	}
	return fmt.Sprintf("The %s do not try to Seize.", sc.SideName(e.Side))
}

// ContinuityRolled: the Continuation DR (4.2).
type ContinuityRolled struct {
	Side    Side   `json:"side"`
	Command string `json:"command"`
	Army    bool   `json:"army,omitempty"` // for Army Activation (B&R 6.2); Command is empty
	Leader  string `json:"leader"`
	Roll    Roll   `json:"roll"`
	AR      int    `json:"ar"` // as rolled against, with OCBonus
	// OneBattle is the DRM for Continuing with only one Battle in the
	// roll (B&R 6.2), kept until the penalties reset.
	OneBattle int `json:"one_battle,omitempty"`
	// OCBonus is the Overall Commander OC's addition to AR (Infidel 5.3).
	OCBonus int    `json:"oc_bonus,omitempty"`
	OC      string `json:"oc,omitempty"`
	// Effectiveness is the Overall Commander OC's Effectiveness, one of
	// the roll's modifiers (Arquebus 5.2, 6.2); Fixed: an Army
	// Continuation made against the fixed AR, not a leader's rating
	// (Arquebus 6.2: "2 or less").
	Effectiveness int  `json:"effectiveness,omitempty"`
	Fixed         bool `json:"fixed,omitempty"`
	Success       bool `json:"success"`
}

// This penalty resets when he fails a Continuation DR (4.2).
func (e ContinuityRolled) apply(st *State) {
	if e.Success {
		st.Continuations[e.Side]++
		st.OneBattle[e.Side] = e.OneBattle
	} else {
		st.Continuations[e.Side], st.OneBattle[e.Side] = 0, 0
	}
	st.Pending = Decision{}
}

func (e ContinuityRolled) describe(sc *Scenario) string {
	verdict := "higher than"
	if e.Success {
		verdict = "not higher than"
	}
	outcome := "fails"
	if e.Success {
		outcome = "succeeds"
	}
	what := commandName(sc, e.Command)
	if e.Army {
		what = "Army Activation"
	}
	if e.Fixed {
		return fmt.Sprintf("Continuity DR for %s: %s, %s %d: Continuation %s (ARQ 6.2).",
			what, describeRoll(e.Roll), verdict, e.AR, outcome)
	}
	return fmt.Sprintf("Continuity DR for %s: %s, %s %s: Continuation %s (4.2).",
		what, describeRoll(e.Roll), verdict, arText(sc, e.Leader, e.AR, e.OCBonus, e.OC), outcome)
}

// SeizureRolled: the opponent's Seizure attempt (4.3). Any attempt resets
// the active player's Continuation penalty (4.2).
type SeizureRolled struct {
	Side     Side   `json:"side"`
	Command  string `json:"command"`
	Leader   string `json:"leader"`
	Roll     Roll   `json:"roll"`
	AR       int    `json:"ar"`                 // as rolled against, with OCBonus
	OCBonus  int    `json:"oc_bonus,omitempty"` // Infidel 5.3
	OC       string `json:"oc,omitempty"`
	Success  bool   `json:"success"`
	Standing string `json:"standing,omitempty"` // the standing order that decided, if any
	// Counter is the Seizure Opportunity counter played, Min and Max its
	// DR range, which decides instead of AR (B&R 6.3).
	Counter string `json:"counter,omitempty"`
	Min     int    `json:"min,omitempty"`
	Max     int    `json:"max,omitempty"`
}

func (e SeizureRolled) apply(st *State) {
	st.Continuations[e.Side.Other()], st.OneBattle[e.Side.Other()] = 0, 0
	if st.Counters != nil {
		st.Counters.Playing, st.Counters.Command = "", ""
	}
	st.Pending = Decision{}
}

func (e SeizureRolled) describe(sc *Scenario) string {
	how := ""
	if e.Standing != "" {
		how = fmt.Sprintf(" (standing order %q)", e.Standing)
	}
	if e.Counter != "" {
		verdict := "within its range: Seized"
		if !e.Success {
			verdict = "not within its range: the Seizure fails"
		}
		return fmt.Sprintf("The %s try to Seize Continuity with %s, counter %s (%d-%d): %s, %s (B&R 6.3).",
			sc.SideName(e.Side), commandName(sc, e.Command), e.Counter, e.Min, e.Max, describeRoll(e.Roll), verdict)
	}
	if e.Success {
		return fmt.Sprintf("The %s try to Seize Continuity with %s%s: %s, not higher than %s: Seized (4.3).",
			sc.SideName(e.Side), commandName(sc, e.Command), how, describeRoll(e.Roll), arText(sc, e.Leader, e.AR, e.OCBonus, e.OC))
	}
	return fmt.Sprintf("The %s try to Seize Continuity with %s%s: %s, higher than %s: the Seizure fails (4.3).",
		sc.SideName(e.Side), commandName(sc, e.Command), how, describeRoll(e.Roll), arText(sc, e.Leader, e.AR, e.OCBonus, e.OC))
}

// FreeActivationGranted: play passes to Side, who may activate any one
// Command, no DR necessary (2.4, 4.2, 4.3).
type FreeActivationGranted struct {
	Side   Side   `json:"side"`
	Reason string `json:"reason"`
}

func (e FreeActivationGranted) apply(st *State) {
	st.Phase, st.Active, st.Kind = PhaseActivation, e.Side, FreeActivation
	st.Command, st.ActiveStandard, st.Selected, st.SelectedArmy = "", "", "", false
	st.Army, st.ArmyUnits, st.ArmyLeaders = false, nil, nil
	st.Pending = Decision{Kind: DecideActivation, Side: e.Side}
}

func (e FreeActivationGranted) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s have a Free Activation: %s.", sc.SideName(e.Side), e.Reason)
}

func init() {
	registerEvents(CommandActivated{}, Passed{}, ActivationEnded{}, ContinuationDeclared{},
		SeizureDeclined{}, ContinuityRolled{}, SeizureRolled{}, FreeActivationGranted{})
}
