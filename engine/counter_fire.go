package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 11.6, the third case: "If it is Counter-Charging against missile fire,
// the Counter-Charge die roll is made before the missile fire is resolved,
// the missile fire is resolved, then if the Counter-Charge DR was
// successful the Mounted MAA is moved adjacent to the firing missile unit
// and the Mounted MAA performs a Charge attack (with the +2 DRM for
// Charging) against the firing missile unit. There must be a clear Charge
// path or the unit may not Counter-Charge. The Counter-Charge ends the
// movement of the missile unit ... If the successfully Counter-Charging
// unit is Disordered during its Counter-Charge, the Counter-Charge is
// still undertaken, but is resolved as a normal Shock attack ... Any
// Continued Attacks that result from a Counter-Charge Against Fire should
// be resolved immediately. Treat this as a mini-Shock Phase for just this
// unit."
//
// It is the target owner's decision, by STANDING COUNTER-CHARGE (ALWAYS by
// default); ASK stops an Active Fire order before any die until he
// answers COUNTER-CHARGE or STAND. A fire made during a mounted archer's
// move cannot wait: there ASK counts as ALWAYS (ruling R71). The Charge
// path is that of 11.3 at one, two or three hexes' distance, with the
// facing fixed before it starts (ruling R81).

// counterChargeFirePath is the path Mounted MAA j would counter-charge
// firer i along, if it may: fired at through its Front or Flank, able to
// Counter-Charge (11.5), and with a clear Charge path.
func counterChargeFirePath(sc *Scenario, st *State, j, i int) (chargePath, bool) {
	if sc.Units[j].Side == st.Active || FiredThrough(sc, st, i, j) == hex.Rear {
		return chargePath{}, false
	}
	us := st.Units[j]
	// Arquebus 13.6 "Men-at-Arms that are not stacked with another unit
	// may attempt to Counter-Charge".
	if !unitType(sc, st, j).Charges || us.CounterCharged || us.Status != Normal || stillInOtherZOC(sc, st, j, []int{i}) || partner(st, j) >= 0 {
		return chargePath{}, false
	}
	g, to := sc.Map.Grid, st.Units[i].Hex
	d := g.Distance(us.Hex, to)
	if d < 1 || d > counterChargeFireReach(sc, st, j) {
		return chargePath{}, false
	}
	if ok, _ := LineOfSight(sc, st, us.Hex, to, true); !ok {
		return chargePath{}, false
	}
	for _, f := range []hex.Facing{us.Facing, us.Facing.Turn(1), us.Facing.Turn(-1)} {
		for _, p := range approaches(g, us.Hex, to, d-1) {
			end := us.Hex
			if len(p) > 0 {
				end = p[len(p)-1]
			}
			if frontalPath(g, us.Hex, p, f, f) && isAspect(g, end, f, to, hex.Front) && chargeBlocked(sc, st, j, i, p) == "" {
				return chargePath{hexes: p, facing: f, turned: f != us.Facing}, true
			}
		}
	}
	return chargePath{}, false
}

// counterChargeFireReach is how many hexes away unit j may Counter-Charge
// a firer: any distance (Blood & Roses 13.3 #5e iii: "any number of hexes
// may separate"), its Movement Allowance (Arquebus 13.9: "a number of
// hexes distant equal to or less than the Counter-Charging unit's Movement
// Allowance (including adjacent)"), else three (ruling R81).
func counterChargeFireReach(sc *Scenario, st *State, j int) int {
	r := sc.Tables.Rules
	switch {
	case r.CounterChargeFireAnyRange:
		return math.MaxInt
	case r.CounterChargeFireMA:
		return ratings(sc, st, j).MA // a Disordered unit may not Counter-Charge (13.3 #1)
	}
	return 3
}

// stillInOtherZOC: 11.5 bars a Counter-Charge by a unit "that began the
// Activation in the ZOC of another enemy unit and [is] still in that ZOC";
// another than the units it would counter-charge.
//
// With rules.counter_charge_adjacent it is Blood & Roses 13.3 #3: "It
// began the Activation adjacent to an enemy unit and is still adjacent to
// that enemy unit ... If an Active unit leaves the hex in which it started
// the Activation, voluntarily or involuntarily, then it no longer
// prevents" — any such unit, the attacker too (ruling R262).
func stillInOtherZOC(sc *Scenario, st *State, j int, targets []int) bool {
	us := st.Units[j]
	if sc.Tables.Rules.CounterChargeAdjacent {
		for n, z := range us.InZOCOf {
			k := unitIdx(sc, z)
			if k < 0 || !onField(st, k) || n >= len(us.InZOCAt) || st.Units[k].Hex != us.InZOCAt[n] {
				continue
			}
			if sc.Map.Grid.Distance(us.Hex, st.Units[k].Hex) == 1 {
				return true
			}
		}
		return false
	}
	for _, z := range us.InZOCOf {
		k := unitIdx(sc, z)
		if k < 0 || containsInt(targets, k) {
			continue
		}
		for _, e := range enemyZOC(sc, st, sc.Units[j].Side, us.Hex) {
			if e == k {
				return true
			}
		}
	}
	return false
}

// counterChargeFireRoll rolls target j's Counter-Charge against firer i
// before the fire, when it may and its owner wants it (want: "" for the
// standing order, else FireAlways or FireNever). It returns the path
// when the roll succeeds.
func (g *game) counterChargeFireRoll(i, j int, want string) (*chargePath, error) {
	p, ok := counterChargeFirePath(g.sc, g.st, j, i)
	if want == "" {
		want = standingFor(g.sc, g.st, j, KindCounterCharge, FireAlways)
	}
	if ok && want == FireNever && unitType(g.sc, g.st, j).MustCounterChargeFire {
		held, err := g.restrain(j, i)
		if err != nil || held {
			return nil, err
		}
		want = FireAlways
	}
	if !ok || want == FireNever {
		return nil, nil
	}
	r := Response{Unit: g.sc.Units[j].ID}
	mods := counterChargeMods(g.sc, g.st, j, p.turned)
	roll, err := g.roll(fmt.Sprintf("Counter-Charge DR: %s against the fire of %s (11.6)", r.Unit, g.sc.Units[i].ID), mods...)
	if err != nil {
		return nil, err
	}
	max := g.sc.Tables.ShockDRM.counterChargeMax("fire")
	g.emit(CounterChargeRolled{Unit: r.Unit, Against: []string{g.sc.Units[i].ID}, Mode: "fire", Roll: roll, Max: max, Success: roll.Total <= max, Facing: p.facing})
	if roll.Total > max {
		return nil, nil
	}
	return &p, nil
}

// restrain is the Knights' restraint (Infidel 13.9): "A Knight unit must
// Counter-Charge an enemy unit that is firing at it ... If the player does
// not want his Knight to Counter-Charge and its Command leader is in
// Command Range (see 5.2), he must roll one die, from which he subtracts
// the Command leader's Activation Rating. If the adjusted DR is 3 or
// less, no Counter-Charge takes place. If the adjusted DR is 4 or more,
// the Knight Counter-Charges." Out of Command Range, for this alone
// (16.1), it cannot be held. held: no Counter-Charge.
func (g *game) restrain(j, i int) (held bool, err error) {
	sc, st := g.sc, g.st
	id := sc.Units[j].ID
	cmd := sc.Command(sc.Units[j].Command)
	leader := ""
	if cmd != nil {
		leader = cmd.Leader
	}
	ls := st.Leader(leader)
	if leader == "" || ls == nil || ls.OffMap || ls.Killed || slices.Contains(outOfRange(sc, st, cmd.ID), id) {
		g.emit(KnightsRestrained{Unit: id, Firer: sc.Units[i].ID, Leader: leader})
		return false, nil
	}
	ar, _ := leaderRatings(sc, st, leader)
	mod := Modifier{DRM: -ar, Reason: fmt.Sprintf("%s's Activation Rating", sc.Leader(leader).Name), Rule: "Infidel 13.9"}
	roll, err := g.roll(fmt.Sprintf("Restraint DR: %s under the fire of %s (Infidel 13.9)", id, sc.Units[i].ID), mod)
	if err != nil {
		return false, err
	}
	max := sc.Tables.ShockDRM.RestraintMax
	g.emit(KnightsRestrained{Unit: id, Firer: sc.Units[i].ID, Leader: leader, Roll: &roll, Max: max, Held: roll.Total <= max})
	return roll.Total <= max, nil
}

// KnightsRestrained: the owner of a unit that must Counter-Charge the fire
// did not want it to; Roll is his restraint roll, nil when its leader was
// out of Command Range and could not hold it (Infidel 13.9, 16.1).
type KnightsRestrained struct {
	Unit   string `json:"unit"`
	Firer  string `json:"firer"`
	Leader string `json:"leader,omitempty"`
	Roll   *Roll  `json:"roll,omitempty"`
	Max    int    `json:"max,omitempty"`
	Held   bool   `json:"held,omitempty"`
}

func (KnightsRestrained) apply(*State) {}

func (e KnightsRestrained) describe(*Scenario) string {
	switch {
	case e.Roll == nil:
		return fmt.Sprintf("%s must Counter-Charge the fire of %s: its leader is out of Command Range and cannot restrain it (Infidel 13.9, 16.1).", e.Unit, e.Firer)
	case e.Held:
		return fmt.Sprintf("%s is restrained from Counter-Charging the fire of %s: %s, %d or less (Infidel 13.9).", e.Unit, e.Firer, describeRoll(*e.Roll), e.Max)
	}
	return fmt.Sprintf("%s will not be restrained from Counter-Charging the fire of %s: %s, more than %d (Infidel 13.9).", e.Unit, e.Firer, describeRoll(*e.Roll), e.Max)
}

func nonZero(mods []Modifier) []Modifier {
	var out []Modifier
	for _, m := range mods {
		if m.DRM != 0 {
			out = append(out, m)
		}
	}
	return out
}

// counterChargeFire is the Counter-Charge after the fire: j charges home on
// firer i, then its Continued Attacks at once, a Shock Phase of its own.
// A unit the fire drove off (or one waiting for its retreat) does not.
func (g *game) counterChargeFire(j, i int, p chargePath, from hex.Hex) error {
	us := g.st.Units[j]
	if us.Hex != from || us.Status == Retired || us.Status == Eliminated || g.st.Retreat != nil || !onField(g.st, i) {
		g.emit(AttackLapsed{Attackers: []string{g.sc.Units[j].ID}, Defenders: []string{g.sc.Units[i].ID}, Reason: "the fire drove it off before it could Counter-Charge (11.6)"})
		return nil
	}
	if g.sc.Tables.Rules.CounterChargeFireUnhorsedEnds && !unitType(g.sc, g.st, j).Charges {
		// Blood & Roses 13.9: "If the Counter-Charging unit is Unhorsed by
		// the fire, the Counter-Charge ends immediately and the unit is
		// left in its starting hex in its original facing" (and 14.3:
		// Unhorsed units carry on their attacks, "This does not apply to
		// Counter-Charge against Fire").
		g.emit(AttackLapsed{Attackers: []string{g.sc.Units[j].ID}, Defenders: []string{g.sc.Units[i].ID},
			Reason: "it was Unhorsed by the fire: its Counter-Charge ends in its starting hex and facing (Blood & Roses 13.9)"})
		return nil
	}
	a := ShockAttack{Attackers: []string{g.sc.Units[j].ID}, Defenders: []string{g.sc.Units[i].ID},
		Text: []string{g.sc.Units[j].ID + " Counter-Charges " + g.sc.Units[i].ID}}
	if len(p.hexes) > 0 {
		if chargeBlocked(g.sc, g.st, j, i, p.hexes) != "" {
			g.emit(AttackLapsed{Attackers: a.Attackers, Defenders: a.Defenders, Reason: "its Charge path is no longer clear (11.6)"})
			return nil
		}
		if g.sc.Tables.Rules.CounterChargeReactionFire {
			// Placed hex by hex in Step 2 of its mini Shock Phase, with
			// the Reaction Fire it draws (9.2), like a Charge.
			a.Charges = []Declaration{{Attackers: a.Attackers, Defenders: a.Defenders, Charge: true, Path: p.hexes, Facing: p.facing, Text: a.Text[0]}}
		} else {
			g.emit(ChargeMade{Unit: a.Attackers[0], Target: a.Defenders[0], Path: p.hexes, Facing: p.facing,
				Leaders: leaderIDs(g.sc, stackedLeaders(g.sc, g.st, j))})
		}
	}
	if done, err := g.retreatBeforeCounterCharge(i, j); err != nil || done {
		return err
	}
	if g.st.Units[j].Status == Normal {
		a.Charging = a.Attackers
	} else {
		g.emit(ChargeLost{Unit: a.Attackers[0], Reason: "Disordered by the fire: its Counter-Charge is a Shock attack (11.6)"})
	}
	g.emit(ShockPhaseBegun{Attacks: []ShockAttack{a}, Resume: g.st.Pending, Mini: true})
	return g.runShock()
}

// retreatBeforeCounterCharge: a Light Cavalry firer Counter-Charged by a
// type it may Retreat Before Shock from rolls on the Counter-Charge band:
// "If the adjusted DR is 3 or less, the Retreat has no negative effect. If
// the adjusted DR is 4-7 or more, the unit Retreats but is Disordered. If
// the adjusted DR is an 8 or more, there is no Retreat allowed, move the
// unit back to its original hex and resolve the Charge" (Infidel 12.2,
// 13.9: "Any Light Cavalry Retreat Before Combat still rolls on the Light
// Cavalry Retreat Before Counter-Charge Table"). It is its owner's
// STANDING RETREAT BEFORE SHOCK; the Counter-Charge cannot wait for a
// mail, so ASK counts as ALWAYS (ruling R171). done: it retreated and the
// Counter-Charge lapses; no attacker follows it.
func (g *game) retreatBeforeCounterCharge(i, j int) (done bool, err error) {
	sc, st := g.sc, g.st
	if !slices.Contains(unitType(sc, st, i).RetreatBefore, unitType(sc, st, j).Key) || st.Units[i].Status != Normal ||
		standingFor(sc, st, i, KindRetreatBeforeShock, FireNever) == FireNever {
		return false, nil
	}
	hexes := retreatsBeforeShock(sc, st, i, []int{j})
	if len(hexes) == 0 {
		return false, nil
	}
	id, by := sc.Units[i].ID, sc.Units[j].ID
	roll, err := g.cavalryRetreatRoll(i, []string{by}, true)
	if err != nil {
		return false, err
	}
	band := sc.Tables.CavalryRetreat.CounterCharge
	if band.DisorderedMax > 0 && roll.Total > band.DisorderedMax {
		g.emit(RetreatBarred{Unit: id, Against: by, Roll: roll, Max: band.DisorderedMax})
		return false, nil
	}
	g.emit(RetreatedBeforeShock{Unit: id, From: st.Units[i].Hex, To: hexes[0], Facing: st.Units[i].Facing,
		Leaders: leaderIDs(sc, stackedLeaders(sc, st, i)), Roll: &roll, Disordered: roll.Total > band.UnharmedMax})
	g.emit(AttackLapsed{Attackers: []string{by}, Defenders: []string{id}, Reason: "its target Retreated Before its Counter-Charge (Infidel 12.2)"})
	return true, nil
}

// RetreatBarred: the Light Cavalry's roll was too high to retreat from a
// Counter-Charge; it stands and the Charge is resolved (Infidel 12.2).
type RetreatBarred struct {
	Unit    string `json:"unit"`
	Against string `json:"against"`
	Roll    Roll   `json:"roll"`
	Max     int    `json:"max"`
}

func (RetreatBarred) apply(*State) {}

func (e RetreatBarred) describe(*Scenario) string {
	return fmt.Sprintf("%s tries to Retreat Before the Counter-Charge of %s: %s, more than %d: no retreat, it stands (Infidel 12.2).", e.Unit, e.Against, describeRoll(e.Roll), e.Max)
}

// counterChargeFireAnswer carries out the target owner's answer,
// COUNTER-CHARGE or STAND, to the fire waiting in st.FireAsk.
func (g *game) counterChargeFireAnswer(o Order, unit string, charges bool) error {
	f := g.st.FireAsk
	if f == nil {
		return fmt.Errorf("engine: a Counter-Charge decision with no fire waiting for it")
	}
	if !strings.EqualFold(unit, f.Target) {
		return g.illegal(o, "11.5", fmt.Sprintf("the fire that waits is at %s", f.Target))
	}
	g.emit(CounterChargeAnswered{Target: f.Target, Charges: charges, Resume: f.Resume})
	want := FireNever
	if charges {
		want = FireAlways
	}
	return g.fireAndAnswer(g.unitIndex(f.Firer), g.unitIndex(f.Target), 0, false, want)
}

// CounterChargeAsked: an Active Fire waits for its target's owner to say
// whether it Counter-Charges (11.5).
type CounterChargeAsked struct {
	Side Side        `json:"side"`
	Fire PendingFire `json:"fire"`
}

func (e CounterChargeAsked) apply(st *State) {
	f := e.Fire
	st.FireAsk = &f
	st.Pending = Decision{Kind: DecideCounterCharge, Side: e.Side}
}

func (e CounterChargeAsked) describe(sc *Scenario) string {
	return fmt.Sprintf("%s fires at %s: the %s decide whether it Counter-Charges (11.5).", e.Fire.Firer, e.Fire.Target, sc.SideName(e.Side))
}

// CounterChargeAnswered: the owner answered; the fire is resolved.
type CounterChargeAnswered struct {
	Target  string   `json:"target"`
	Charges bool     `json:"charges"`
	Resume  Decision `json:"resume"`
}

func (e CounterChargeAnswered) apply(st *State) {
	st.FireAsk = nil
	st.Pending = e.Resume
}

func (e CounterChargeAnswered) describe(*Scenario) string {
	if e.Charges {
		return e.Target + " will try to Counter-Charge (11.5)."
	}
	return e.Target + " stands under the fire (11.5)."
}

func init() {
	registerEvents(CounterChargeAsked{}, CounterChargeAnswered{}, KnightsRestrained{}, RetreatBarred{})
}
