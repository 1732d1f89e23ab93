package engine

import (
	"fmt"
	"strings"

	"herald/engine/hex"
)

// 9.2–9.3 Active Fire and Return Fire, by order. "A unit may fire once
// when its Command is activated" (9.2). "Missile infantry may fire only
// after they have finished Movement": a foot missile unit's move ends when
// it fires. "Return Fire ... resolved simultaneously, before any results
// are applied ... A Missile unit cannot Return Fire if shot at through a
// Rear hex"; crossbows never do. Reaction Fire arrives with its decision.

// Fire is Active Fire at an enemy unit: "FIRE LB1 AT CB2".
type Fire struct {
	at
	Unit, Target string
}

func (o Fire) String() string { return "FIRE " + o.Unit + " AT " + o.Target }

func parseFire(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) != 3 || !strings.EqualFold(rest[1], "AT") {
		return nil, syntax("FIRE needs your unit, AT, and the enemy unit", "FIRE <unit> AT <enemy unit>")
	}
	return Fire{at: a, Unit: rest[0], Target: rest[2]}, nil
}

// StandingFire sets whether the side's missile units use Return Fire, or
// Reaction Fire, when they may: "STANDING RETURN FIRE ALWAYS" (the
// default), "STANDING RETURN FIRE NEVER" or "… ASK", the same with
// REACTION, and
// either for one Command or unit: "STANDING REACTION FIRE NEVER CB4".
type StandingFire struct {
	at
	Reaction bool
	// Kind is set for the standing orders of the Shock Phase that share
	// the same form: KindCounterCharge, KindRetreatBeforeShock.
	Kind string
	Mode string // FireAlways, FireNever or FireAsk
	Of   string // a unit or a Command; empty for the whole side
}

// The standing orders for the defender's responses to Shock (10.2, 11.5),
// given like those for fire: "STANDING COUNTER-CHARGE NEVER MA3",
// "STANDING RETREAT BEFORE SHOCK ALWAYS".
const (
	KindCounterCharge      = "counter-charge"
	KindRetreatBeforeShock = "retreat-before-shock"
	// KindAdvance: whether an attacker advances into the hex of a unit
	// that Retreated Before Shock (10.2), ALWAYS or NEVER (the default).
	KindAdvance = "advance"
	// KindAttackerRetreat: an attacking unit given the choice of Disorder
	// or Retreat takes the Retreat (ALWAYS) or the Disorder (NEVER, the
	// default) (Blood & Roses 14.1; ruling R267).
	KindAttackerRetreat = "attacker-retreat"
)

var kindWords = map[string]string{
	"return":               "RETURN FIRE",
	"reaction":             "REACTION FIRE",
	KindCounterCharge:      "COUNTER-CHARGE",
	KindRetreatBeforeShock: "RETREAT BEFORE SHOCK",
	KindAdvance:            "ADVANCE",
	KindAttackerRetreat:    "ATTACKER RETREAT",
	KindPursuit:            "PURSUIT",
}

// kind is the standing order's key base: "return", "reaction" or Kind.
func (o StandingFire) kind() string {
	switch {
	case o.Kind != "":
		return o.Kind
	case o.Reaction:
		return "reaction"
	}
	return "return"
}

// The answers a standing fire order gives: fire whenever allowed (the
// default), never, or ask the player each time (Return Fire only).
const (
	FireAlways = "ALWAYS"
	FireNever  = "NEVER"
	FireAsk    = "ASK"
)

func (o StandingFire) String() string {
	s := "STANDING " + kindWords[o.kind()] + " " + o.Mode
	if o.Of != "" {
		s += " " + o.Of
	}
	return s
}

func parseStandingFire(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	forms := []string{"STANDING RETURN FIRE ALWAYS|NEVER|ASK [<unit or command>]", "STANDING REACTION FIRE ALWAYS|NEVER|ASK [<unit or command>]"}
	if len(rest) < 3 || !strings.EqualFold(rest[1], "FIRE") {
		return nil, syntax("STANDING "+strings.ToUpper(rest[0])+" FIRE takes ALWAYS, NEVER or ASK", forms...)
	}
	o := StandingFire{at: a, Reaction: strings.EqualFold(rest[0], "REACTION")}
	return standingMode(o, rest[2:], "STANDING "+strings.ToUpper(rest[0])+" FIRE", syntax, forms)
}

// parseStandingResponse reads "STANDING COUNTER-CHARGE <mode> [<of>]" and
// "STANDING RETREAT BEFORE SHOCK <mode> [<of>]" (words after STANDING).
func parseStandingResponse(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	if strings.EqualFold(rest[0], "PURSUIT") {
		form := "STANDING PURSUIT ALWAYS|NEVER [<command>]"
		if len(rest) > 1 && strings.EqualFold(rest[1], FireAsk) {
			return nil, syntax("the choice to Pursue is made as the enemy Battle flees, at the end of the Activation, and cannot wait for a mail: ALWAYS or NEVER (Blood & Roses 14.9)", form)
		}
		return standingMode(StandingFire{at: a, Kind: KindPursuit}, rest[1:], "STANDING PURSUIT", syntax, []string{form})
	}
	if strings.EqualFold(rest[0], "ATTACKER") {
		form := "STANDING ATTACKER RETREAT ALWAYS|NEVER [<unit or command>]"
		if len(rest) < 2 || !strings.EqualFold(rest[1], "RETREAT") {
			return nil, syntax("STANDING ATTACKER RETREAT takes ALWAYS or NEVER", form)
		}
		if len(rest) > 2 && strings.EqualFold(rest[2], FireAsk) {
			return nil, syntax("the choice of Disorder or Retreat is made as the results apply and cannot wait for a mail: ALWAYS or NEVER (Blood & Roses 14.1)", form)
		}
		return standingMode(StandingFire{at: a, Kind: KindAttackerRetreat}, rest[2:], "STANDING ATTACKER RETREAT", syntax, []string{form})
	}
	if strings.EqualFold(rest[0], "ADVANCE") {
		form := "STANDING ADVANCE ALWAYS|NEVER [<unit or command>]"
		if len(rest) > 1 && strings.EqualFold(rest[1], FireAsk) {
			return nil, syntax("the advance after a Retreat Before Shock cannot wait for a mail: ALWAYS or NEVER", form)
		}
		return standingMode(StandingFire{at: a, Kind: KindAdvance}, rest[1:], "STANDING ADVANCE", syntax, []string{form})
	}
	if strings.EqualFold(rest[0], "COUNTER-CHARGE") {
		return standingMode(StandingFire{at: a, Kind: KindCounterCharge}, rest[1:], "STANDING COUNTER-CHARGE", syntax,
			[]string{"STANDING COUNTER-CHARGE ALWAYS|NEVER|ASK [<unit or command>]"})
	}
	form := "STANDING RETREAT BEFORE SHOCK ALWAYS|NEVER|ASK [<unit or command>]"
	if len(rest) < 3 || !strings.EqualFold(rest[1], "BEFORE") || !strings.EqualFold(rest[2], "SHOCK") {
		return nil, syntax("STANDING RETREAT BEFORE SHOCK takes ALWAYS, NEVER or ASK", form)
	}
	return standingMode(StandingFire{at: a, Kind: KindRetreatBeforeShock}, rest[3:], "STANDING RETREAT BEFORE SHOCK", syntax, []string{form})
}

// standingMode reads the mode and the optional unit or Command of a
// standing order.
func standingMode(o StandingFire, words []string, what string, syntax func(string, ...string) error, forms []string) (Order, error) {
	if len(words) == 0 {
		return nil, syntax(what+" takes ALWAYS, NEVER or ASK", forms...)
	}
	o.Mode, o.Of = strings.ToUpper(words[0]), strings.Join(words[1:], " ")
	switch o.Mode {
	case FireAlways, FireNever, FireAsk:
		return o, nil
	}
	return nil, syntax(what+" takes ALWAYS, NEVER or ASK", forms...)
}

func (g *game) standingFire(o StandingFire) error {
	e := FireOrderSet{Side: g.sender, Reaction: o.Reaction, Kind: o.Kind, Mode: o.Mode}
	if o.Of != "" {
		for _, u := range g.sc.Units {
			if u.Side == g.sender && strings.EqualFold(u.ID, o.Of) {
				e.Unit = u.ID
			}
		}
		if e.Unit != "" && o.Kind == KindPursuit {
			return g.illegal(o, "Blood & Roses 14.9", "a Battle Pursues, not a unit: STANDING PURSUIT ALWAYS|NEVER for the side or one of its Commands")
		}
		if e.Unit == "" {
			cmd, err := g.sideCommand(o, g.sender, o.Of)
			if err != nil {
				return err
			}
			e.Command = cmd
		}
	}
	g.emit(e)
	return nil
}

// FireOrderSet: a side's standing order for Return or Reaction Fire, for
// the whole side, one Command or one unit.
type FireOrderSet struct {
	Side     Side   `json:"side"`
	Reaction bool   `json:"reaction,omitempty"`
	Kind     string `json:"kind,omitempty"` // KindCounterCharge, KindRetreatBeforeShock
	Mode     string `json:"mode"`           // FireAlways, FireNever or FireAsk
	Command  string `json:"command,omitempty"`
	Unit     string `json:"unit,omitempty"`
}

func (e FireOrderSet) key() string {
	k := StandingFire{Reaction: e.Reaction, Kind: e.Kind}.kind()
	switch {
	case e.Unit != "":
		k += ":unit:" + e.Unit
	case e.Command != "":
		k += ":command:" + e.Command
	}
	return k
}

func (e FireOrderSet) apply(st *State) {
	so := &st.Standing[e.Side]
	if so.HoldFire == nil {
		so.HoldFire = map[string]string{}
	}
	if e.Unit == "" && e.Command == "" {
		// A side-wide order replaces the particular ones of its kind.
		for k := range so.HoldFire {
			if strings.HasPrefix(k, strings.SplitN(e.key(), ":", 2)[0]) {
				delete(so.HoldFire, k)
			}
		}
	}
	so.HoldFire[e.key()] = e.Mode
}

func (e FireOrderSet) describe(sc *Scenario) string {
	kind := map[string]string{"return": "Return Fire", "reaction": "Reaction Fire", KindCounterCharge: "Counter-Charges",
		KindRetreatBeforeShock: "Retreat Before Shock", KindAdvance: "the advance after a Retreat Before Shock",
		KindAttackerRetreat: "a Retreat rather than a Disorder when a result gives the choice (Blood & Roses 14.1)",
		KindPursuit:         "a Pursuit of a fleeing enemy Battle when the Pursuit DR leaves the choice (Blood & Roses 14.9)"}[StandingFire{Reaction: e.Reaction, Kind: e.Kind}.kind()]
	who := "The " + sc.SideName(e.Side)
	switch {
	case e.Unit != "":
		who = e.Unit
	case e.Command != "":
		who = commandName(sc, e.Command) + "'s Command"
	}
	switch e.Mode {
	case FireNever:
		return fmt.Sprintf("%s will not use %s (standing order).", who, kind)
	case FireAsk:
		return fmt.Sprintf("%s will be asked each time about %s (standing order).", who, kind)
	}
	return fmt.Sprintf("%s will use %s whenever they may (standing order).", who, kind)
}

// fireMode is what unit i's side's standing orders say about its Return
// (or Reaction) Fire: the unit's own order decides, else its Command's,
// else the side's; FireAlways by default.
func fireMode(sc *Scenario, st *State, i int, reaction bool) string {
	return standingFor(sc, st, i, StandingFire{Reaction: reaction}.kind(), FireAlways)
}

// standingFor is what unit i's side's standing orders of kind say for it:
// the unit's own order, else its Command's, else the side's, else def.
func standingFor(sc *Scenario, st *State, i int, kind, def string) string {
	modes := st.Standing[sc.Units[i].Side].HoldFire
	for _, key := range []string{kind + ":unit:" + sc.Units[i].ID, kind + ":command:" + unitCommand(sc, st, i), kind} {
		if v, ok := modes[key]; ok {
			return v
		}
	}
	return def
}

// fire carries out Active Fire.
func (g *game) fire(o Fire) error {
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	i, ok := g.findUnit(o.Unit)
	if !ok {
		return g.illegal(o, "9.1", fmt.Sprintf("the %s have no unit called %q", g.sc.SideName(g.st.Pending.Side), o.Unit)+g.unitHint(g.st.Pending.Side, o.Unit, false))
	}
	j, ok := g.findEnemyUnit(o.Target)
	if !ok {
		return g.illegal(o, "9.1", fmt.Sprintf("the enemy has no unit called %q", o.Target)+g.unitHint(g.st.Pending.Side.Other(), o.Target, true))
	}
	spec, us := g.sc.Units[i], g.st.Units[i]
	t := unitType(g.sc, g.st, i)
	switch {
	case spec.Command != g.st.Command:
		return g.illegal(o, "9.2", fmt.Sprintf("%s is not of the activated Command, %s", spec.ID, commandName(g.sc, g.st.Command)))
	case us.Fired:
		return g.illegal(o, "9.2", spec.ID+" has fired in this Activation: a unit fires once when its Command is activated")
	case t.Becomes != "" && us.Moved && !g.sc.Tables.Rules.ChangeInCommand:
		return g.illegal(o, "14.2", spec.ID+" has moved in this Activation: Hobilars may not fire in a turn they move")
	case us.Moved && g.st.Acting != spec.ID:
		return g.illegal(o, "5.1", spec.ID+" has finished its move: another unit has moved or fired since, and each unit must finish its movement/firing before another may begin")
	}
	if r := CanFire(g.sc, g.st, i, j, false); r != nil {
		return g.illegal(o, r.Rule, r.Reason)
	}
	if g.mayReturnFire(j, i) && fireMode(g.sc, g.st, j, false) == FireAsk {
		g.emit(ReturnFireAsked{Side: g.sc.Units[j].Side, Fire: PendingFire{Firer: spec.ID, Target: g.sc.Units[j].ID, Resume: g.st.Pending}})
		return nil
	}
	if _, ok := counterChargeFirePath(g.sc, g.st, j, i); ok && standingFor(g.sc, g.st, j, KindCounterCharge, FireAlways) == FireAsk {
		g.emit(CounterChargeAsked{Side: g.sc.Units[j].Side, Fire: PendingFire{Firer: spec.ID, Target: g.sc.Units[j].ID, Resume: g.st.Pending}})
		return nil
	}
	return g.resolveFire(i, j, 0)
}

// findEnemyUnit finds a unit of the sender's enemy by its id.
func (g *game) findEnemyUnit(typed string) (int, bool) {
	return g.sideUnit(g.st.Pending.Side.Other(), typed)
}

// shot is one unit's fire, rolled before any result applies.
type shot struct {
	firer, target int
	roll          Roll
	column        string
	result        Result
	leaders       []int // leaders in the target hex when fired on
	// misfire: a natural 0 blew up the firer's guns, and the shot has no
	// effect on its target (B&R 11.3).
	misfire bool
}

// resolveFire rolls the Active Fire and, if the target may and will, its
// Return Fire, then applies both results (9.2 "resolved simultaneously").
// mp is what firing costs the firer (a mounted archer in an enemy ZOC).
func (g *game) resolveFire(i, j, mp int) error {
	return g.fireAndAnswer(i, j, mp, g.mayReturnFire(j, i), "")
}

// resolveFireAnswered resolves an Active Fire whose target's owner said
// whether it returns the fire.
func (g *game) resolveFireAnswered(i, j int, returns bool) error {
	return g.fireAndAnswer(i, j, 0, returns && g.mayReturnFire(j, i), "")
}

// fireAndAnswer resolves an Active Fire with its answers: the target's
// Counter-Charge roll first (11.6; counter: "" for its standing order,
// else FireAlways or FireNever), both shots of a Return Fire together
// (9.2), then the Counter-Charge itself.
func (g *game) fireAndAnswer(i, j, mp int, returns bool, counter string) error {
	from := g.st.Units[j].Hex
	cc, err := g.counterChargeFireRoll(i, j, counter)
	if err != nil {
		return err
	}
	shots := []*shot{}
	active, err := g.shoot(i, j, "Fire DR")
	if err != nil {
		return err
	}
	shots = append(shots, active)
	removed := active.misfire && misfireRemoves(g.sc, g.st, i)
	if removed {
		// B&R 11.3: only while the Handgun is not Retired (the Artillery
		// not Eliminated) may its target Return Fire or Counter-Charge
		// (ruling R242).
		returns = false
	}
	if returns {
		back, err := g.shoot(j, i, "Return Fire DR")
		if err != nil {
			return err
		}
		shots = append(shots, back)
	}
	for k, s := range shots {
		e := UnitFired{Unit: g.sc.Units[s.firer].ID, Target: g.sc.Units[s.target].ID, Return: k > 0,
			Roll: s.roll, Column: s.column, Result: s.result.Text, Misfire: s.misfire, Marker: unitType(g.sc, g.st, s.firer).FiredMarker}
		if k == 0 {
			// 9.2 missile infantry; Arquebus 11.2 every unit but those
			// firing inside their MOVE.
			e.Moves = !unitType(g.sc, g.st, s.firer).Mounted || g.sc.Tables.Rules.FireOnMove != nil && g.moving == nil
			e.MP = mp
			e.Adjacent = mp > 0 && g.moving != nil && g.moving.Adjacent
		}
		g.emit(e)
	}
	shots = g.stackShots(shots)
	for _, s := range shots {
		if err := g.applyFire(s); err != nil {
			return err
		}
	}
	if cc != nil && removed {
		g.emit(AttackLapsed{Attackers: []string{g.sc.Units[j].ID}, Defenders: []string{g.sc.Units[i].ID},
			Reason: "the guns of " + g.sc.Units[i].ID + " blew up: nothing is left to Counter-Charge (B&R 11.3)"})
		return nil
	}
	if cc != nil {
		return g.counterChargeFire(j, i, *cc, from)
	}
	return nil
}

// shoot rolls one unit's fire at another.
func (g *game) shoot(i, j int, what string) (*shot, error) {
	sc, st := g.sc, g.st
	g.unlimberToFire(i)
	col := FireColumn(sc, st, j)
	r, err := g.roll(fmt.Sprintf("%s: %s at %s (range %d)", what, sc.Units[i].ID, sc.Units[j].ID, FireRange(sc, st, i, j)), FireModifiers(sc, st, i, j)...)
	if err != nil {
		return nil, err
	}
	if misfires(sc, st, i, r) {
		return &shot{firer: i, target: j, roll: r, column: col, result: Result{Text: misfireText}, misfire: true}, nil
	}
	res, _ := sc.Tables.Fire.Lookup(col, r.Total)
	return &shot{firer: i, target: j, roll: r, column: col, result: res, leaders: stackedLeaders(sc, st, j)}, nil
}

// mayReturnFire: the target of fire answers it when its weapon allows
// Return Fire, it could fire at the firer, the fire did not come through
// its Rear, and its side's standing orders do not forbid it (9.2).
func (g *game) mayReturnFire(j, firer int) bool {
	w := unitWeapon(g.sc, g.st, j)
	if w == nil || !w.ReturnFire || fireMode(g.sc, g.st, j, false) == FireNever {
		return false
	}
	if FiredThrough(g.sc, g.st, firer, j) == hex.Rear {
		return false
	}
	return CanFire(g.sc, g.st, j, firer, false) == nil
}

// applyFire applies a shot's result to its target, after the leader
// casualty check a modified 9 or more calls for (15.4).
func (g *game) applyFire(s *shot) error {
	if s.misfire {
		// B&R 11.3 "This has no effect on other units or leaders."
		g.misfire(s)
		return nil
	}
	if s.roll.Total >= g.sc.Tables.LeaderCasualty.FireTrigger {
		left, err := g.leaderCasualties(s.leaders, "fire", false)
		if err != nil {
			return err
		}
		s.leaders = left
	}
	cause := fmt.Sprintf("fire of %s", g.sc.Units[s.firer].ID)
	effects, err := g.fireDisorderCheck(s, s.result.Defender)
	if err != nil {
		return err
	}
	for _, e := range asResults(g.sc, g.st, s.target, effects) {
		if g.st.Units[s.target].Status == Eliminated {
			break
		}
		switch e.Kind {
		case EffectDisordered:
			g.disorder(s.target, cause, []int{s.firer})
		case EffectRetreat:
			if err := g.retreat(s.target, []int{s.firer}, cause); err != nil {
				return err
			}
		case EffectRetired:
			g.retireFrom(s.target, cause, []int{s.firer})
		case EffectUnhorsed:
			// Blood & Roses 7.4, 14.3: "the Unhorsed result which occurs
			// due to missile fire"; a mounted unit with no horse to lose
			// is Disordered instead.
			g.unhorse(s.target, cause, []int{s.firer})
		case EffectEliminated:
			g.eliminate(s.target, cause+e.why())
		}
	}
	if st := g.st.Units[s.target].Status; st == Retired || st == Eliminated {
		return g.displaceLeaders(s.leaders)
	}
	return nil
}

// UnitFired: a unit fired at another, Active or Return Fire (9.2, 9.3).
// Result is the Fire Results Table's text; the effects follow as events.
type UnitFired struct {
	Unit     string `json:"unit"`
	Target   string `json:"target"`
	Return   bool   `json:"return,omitempty"`
	Reaction bool   `json:"reaction,omitempty"`
	Roll     Roll   `json:"roll"`
	Column   string `json:"column"`
	Result   string `json:"result"`
	// Moves: the firer's move ends with its fire: missile infantry, and
	// under rules.fire_on_move every unit firing outside a MOVE (Arquebus
	// 11.2).
	Moves bool `json:"moves,omitempty"`
	// Adjacent: MP was paid to fire next to an enemy unit (Arquebus 11.2),
	// not in an enemy ZOC.
	Adjacent bool `json:"adjacent,omitempty"`
	// Marker: the firer takes a FIRED marker (Arquebus 11.5).
	Marker bool `json:"marker,omitempty"`
	// MP is what the fire cost a mounted archer firing during its move
	// from an enemy ZOC (Infidel 11.2).
	MP int `json:"mp,omitempty"`
	// Misfire: a natural 0 blew up the firer's guns; the shot has no
	// result on the target (B&R 11.3).
	Misfire bool `json:"misfire,omitempty"`
	// Stacked: the same DR against the unit stacked with the fire's
	// target, with its own DRMs and column (Arquebus 10.2); the firer
	// fired once.
	Stacked bool `json:"stacked,omitempty"`
}

func (e UnitFired) apply(st *State) {
	if e.Stacked {
		st.Unit(e.Target).Acted = true
		return
	}
	u := st.Unit(e.Unit)
	u.Acted = true
	switch {
	case e.Reaction:
		u.Reacted = true
	case !e.Return:
		u.Fired = true
		st.Acting = e.Unit
	}
	if e.Moves {
		u.Moved = true
	}
	if e.Marker {
		u.FiredMarker = true
	}
	st.Unit(e.Target).Acted = true
}

func (e UnitFired) describe(*Scenario) string {
	what := "fires at"
	switch {
	case e.Return:
		what = "returns fire at"
	case e.Reaction:
		what = "reacts with fire at"
	}
	cost := ""
	if e.MP > 0 {
		cost = fmt.Sprintf(" (%d MP to fire from an enemy ZOC)", e.MP)
		if e.Adjacent {
			cost = fmt.Sprintf(" (%d MP to fire next to an enemy unit, Arquebus 11.2)", e.MP)
		}
	}
	if e.Misfire {
		return fmt.Sprintf("%s %s %s: %s: a natural 0, its guns blow up, with no effect on %s (B&R 11.3).", e.Unit, what, e.Target, describeRoll(e.Roll), e.Target)
	}
	if e.Stacked {
		return fmt.Sprintf("The same DR falls on %s, stacked with the target: %s on the %s column: %s (Arquebus 10.2).", e.Target, describeRoll(e.Roll), e.Column, e.Result)
	}
	marker := ""
	if e.Marker {
		marker = fmt.Sprintf(" %s takes a FIRED marker: it fires no more until it dismounts to reload (Arquebus 11.5).", e.Unit)
	}
	return fmt.Sprintf("%s %s %s%s: %s on the %s column: %s (9.3).%s", e.Unit, what, e.Target, cost, describeRoll(e.Roll), e.Column, e.Result, marker)
}

func init() { registerEvents(UnitFired{}, FireOrderSet{}) }

// fireForms are the FIRE orders open now to the activated Command's
// missile units, one line per firer and target, for Legal.
func fireForms(sc *Scenario, st *State) []string {
	var out []string
	for i, u := range sc.Units {
		us := st.Units[i]
		if st.Command == "" || unitCommand(sc, st, i) != st.Command || us.Fired || unitWeapon(sc, st, i) == nil {
			continue
		}
		if t := unitType(sc, st, i); t.Becomes != "" && us.Moved && !sc.Tables.Rules.ChangeInCommand || us.Moved && st.Acting != u.ID {
			continue
		}
		for j, v := range sc.Units {
			if v.Side != u.Side && CanFire(sc, st, i, j, false) == nil {
				out = append(out, "FIRE "+u.ID+" AT "+v.ID)
			}
		}
	}
	return out
}
