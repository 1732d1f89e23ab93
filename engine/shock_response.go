package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// The defender's responses in Step 2 of the Shock Phase (10.3): "Any
// Retreat Before Combat by the defender is resolved at this time. The
// defender attempts any Counter-Charges of which he is capable." Both are
// the non-active player's decisions (design principle 4): settled by his
// standing orders (STANDING COUNTER-CHARGE, by default ALWAYS; STANDING
// RETREAT BEFORE SHOCK, by default NEVER), or, where they say ASK, asked
// of him in one mail once every Charge is home (ruling R79); the Shock
// Phase waits for his answers.
//
// 10.2: "All mounted units (that are not Disordered) may Retreat Before
// Shock when attacked (only) by Foot units. To retreat they move one hex
// away from the attacking unit. They may not enter an enemy ZOC, the path
// of a Charge, or an occupied hex, but they may change facing at will ...
// Mounted MAA that Retreat Before Shock become disordered at the
// completion of the retreat."
//
// 11.5, 11.6: "Non-Active Mounted MAA may Counter-Charge when Charged,
// Shock attacked ... through their front or flank hex sides. Disordered
// Mounted MAA or Mounted MAA units that began the Activation in the ZOC of
// another enemy unit and are still in that ZOC may not ... The
// Counter-Charged unit(s) must end in the unit's frontal hexes ... Each
// Mounted MAA unit is limited to one Counter-Charge attempt per enemy
// Activation. If a unit is attacked by enemy units using both Shock and
// Charge combat, the owner may choose to Counter-Charge either the
// Shocking Attackers or the Charging Attackers (but not both)." The roll:
// the die plus its Shock Defense DRM, +1 if it must turn; 4 or less
// succeeds. Against a Charge it cancels the Charge; against a Shock the
// attacker takes −2.

// Response is what one defending unit may do now.
type Response struct {
	Unit string `json:"unit"`
	// Charge and Shock are the attackers it may Counter-Charge: the
	// Charging ones, or the Shocking ones (11.5).
	Charge []string `json:"charge,omitempty"`
	Shock  []string `json:"shock,omitempty"`
	// Retreats are the hexes it may Retreat Before Shock into (10.2).
	Retreats []hex.Hex `json:"retreats,omitempty"`
}

func (r Response) clone() Response {
	c := r
	c.Charge, c.Shock, c.Retreats = slices.Clone(r.Charge), slices.Clone(r.Shock), slices.Clone(r.Retreats)
	return c
}

func (r Response) empty() bool { return len(r.Charge)+len(r.Shock)+len(r.Retreats) == 0 }

// responses settles each defender's options by its side's standing
// orders and asks for the rest; it reports whether the phase now waits.
func (g *game) responses() (asked bool, err error) {
	var ask []Response
	var defenders []string
	for _, a := range g.st.Shock.Attacks {
		defenders = append(defenders, a.Defenders...) // a Retreat Before Shock takes its unit off the list
	}
	for _, id := range defenders {
		j := unitIdx(g.sc, id)
		r := responseOf(g.sc, g.st, j)
		if r.empty() {
			continue
		}
		rbs := standingFor(g.sc, g.st, j, KindRetreatBeforeShock, FireNever)
		cc := standingFor(g.sc, g.st, j, KindCounterCharge, FireAlways)
		switch {
		case len(r.Retreats) > 0 && rbs == FireAlways:
			if err := g.retreatBeforeShock(j, r.Retreats[0], g.st.Units[j].Facing); err != nil {
				return false, err
			}
			continue
		case len(r.Charge)+len(r.Shock) > 0 && cc == FireAlways:
			if err := g.counterCharge(j, r, len(r.Charge) > 0); err != nil {
				return false, err
			}
			continue
		}
		if rbs != FireAsk {
			r.Retreats = nil
		}
		if cc != FireAsk {
			r.Charge, r.Shock = nil, nil
		}
		if !r.empty() {
			ask = append(ask, r)
		}
	}
	if len(ask) == 0 {
		return false, nil
	}
	g.emit(ResponsesAsked{Side: g.st.Active.Other(), Responses: ask})
	return true, nil
}

// responseOf is what defender j may do against the attack on it.
func responseOf(sc *Scenario, st *State, j int) Response {
	r := Response{Unit: sc.Units[j].ID}
	a := st.Shock.attackOn(r.Unit)
	if a == nil || !onField(st, j) || st.Units[j].Status != Normal {
		return r
	}
	var charging, shocking []int
	for _, id := range a.Attackers {
		i := unitIdx(sc, id)
		if !onField(st, i) || sc.Map.Grid.Distance(st.Units[i].Hex, st.Units[j].Hex) != 1 {
			continue
		}
		if slices.Contains(a.Charging, id) {
			charging = append(charging, i)
		} else {
			shocking = append(shocking, i)
		}
	}
	if _, ok := counterChargeFacing(sc, st, j, charging); ok {
		r.Charge = unitIDs(sc, charging)
	}
	if _, ok := counterChargeFacing(sc, st, j, shocking); ok {
		r.Shock = unitIDs(sc, shocking)
	}
	r.Retreats = retreatsBeforeShock(sc, st, j, append(charging, shocking...))
	return r
}

// counterChargeFacing is the facing defender j counter-charges units with,
// its own when they all stand in its Frontal hexes, else one vertex turned
// (11.5); ok is false when it may not Counter-Charge them.
func counterChargeFacing(sc *Scenario, st *State, j int, units []int) (hex.Facing, bool) {
	us := st.Units[j]
	if len(units) == 0 || !unitType(sc, st, j).Charges || us.CounterCharged || us.Status != Normal || partner(st, j) >= 0 { // Arquebus 13.6 unstacked only
		return 0, false
	}
	if stillInOtherZOC(sc, st, j, units) {
		return 0, false
	}
	for _, i := range units {
		if chargeBlocked(sc, st, j, i, nil) != "" {
			return 0, false // 11.5: "must meet all restrictions in 11.3 paragraphs 3 and 4"
		}
	}
	for _, f := range []hex.Facing{us.Facing, us.Facing.Turn(1), us.Facing.Turn(-1)} {
		all := true
		for _, i := range units {
			all = all && isAspect(sc.Map.Grid, us.Hex, f, st.Units[i].Hex, hex.Front)
		}
		if all {
			return f, true
		}
	}
	return 0, false
}

// retreatsBeforeShock are the hexes a mounted defender j, not Disordered,
// attacked only by foot units, may Retreat Before Shock into (10.2), the
// nearest its Standard first, then by hex id. A unit under a No Retreat
// marker has none: it "never retreats" (ruling R115), not even Before
// Shock, so no standing order moves it, no mail asks it, Legal offers
// nothing; this is where every Retreat Before Shock (the Shock Phase's,
// a Continued Attack's, Infidel's before a Counter-Charge) is decided.
//
// Arquebus 12.2 opens it to the foot types of rules.retreat_before_foot,
// not to an Engaged unit, and lets mounted units and the types of
// rules.retreat_before_far go up to rules.retreat_before_hexes hexes.
func retreatsBeforeShock(sc *Scenario, st *State, j int, attackers []int) []hex.Hex {
	paths := retreatBeforePaths(sc, st, j, attackers)
	out := make([]hex.Hex, 0, len(paths))
	for h := range paths {
		out = append(out, h)
	}
	std := hex.Hex{}
	if c := sc.Command(unitCommand(sc, st, j)); c != nil && st.Standard(c.Standard) != nil {
		std = st.Standard(c.Standard).Hex
	}
	sort.Slice(out, func(a, b int) bool {
		if da, db := sc.Map.Grid.Distance(out[a], std), sc.Map.Grid.Distance(out[b], std); da != db {
			return da < db
		}
		return out[a].String() < out[b].String()
	})
	return out
}

// retreatBeforePaths are defender j's Retreats Before Shock, each end hex
// with the hexes of its path (retreatsBeforeShock).
func retreatBeforePaths(sc *Scenario, st *State, j int, attackers []int) map[hex.Hex][]hex.Hex {
	t, rules := unitType(sc, st, j), sc.Tables.Rules
	if !t.Mounted && !slices.Contains(rules.RetreatBeforeFoot, t.Key) || st.Units[j].Status != Normal || st.Units[j].NoRetreat || len(attackers) == 0 {
		return nil
	}
	if isEngaged(st, j) {
		return nil // Arquebus 12.2: a unit "that is not Disordered or Engaged"
	}
	for _, i := range attackers {
		if unitType(sc, st, i).Mounted && !slices.Contains(t.RetreatBefore, unitType(sc, st, i).Key) {
			return nil // Infidel 12.2: Light Cavalry only, and only from the types it lists
		}
	}
	charged := map[hex.Hex]bool{}
	if st.Shock != nil {
		for _, a := range st.Shock.Attacks {
			for _, d := range a.Charges {
				for _, h := range d.Path {
					charged[h] = true
				}
			}
		}
	}
	hexes := 1
	if rules.RetreatBeforeHexes > 1 && (t.Mounted || slices.Contains(rules.RetreatBeforeFar, t.Key)) {
		hexes = rules.RetreatBeforeHexes // Arquebus 12.2 "one to three hexes"
	}
	return retreatHexes(sc, st, j, attackers, charged, hexes)
}

// retreatHexes are the hexes unit j may Retreat Before Shock into, up to
// hexes hexes, each farther from every attacker (Arquebus 12.2 "Each hex
// retreated must increase the distance from each of the attacking
// units"), off the Charge paths charged, never into an occupied hex or an
// enemy ZOC; with the path to each.
func retreatHexes(sc *Scenario, st *State, j int, attackers []int, charged map[hex.Hex]bool, hexes int) map[hex.Hex][]hex.Hex {
	side, class := sc.Units[j].Side, unitType(sc, st, j).Class()
	out := map[hex.Hex][]hex.Hex{}
	var walk func(from hex.Hex, path []hex.Hex)
	walk = func(from hex.Hex, path []hex.Hex) {
		if len(path) == hexes {
			return
		}
		for _, n := range sc.Map.Grid.Neighbors(from) {
			if !sc.Map.Grid.Contains(n) || occupant(st, n) >= 0 || charged[n] || enterCost(sc, from, n, class) == NA ||
				!awayFrom(sc, st, from, n, attackers) || len(enemyZOC(sc, st, side, n)) > 0 {
				continue
			}
			p := append(slices.Clone(path), n)
			if _, seen := out[n]; !seen {
				out[n] = p
			}
			walk(n, p)
		}
	}
	walk(st.Units[j].Hex, nil)
	return out
}

// counterCharge rolls defender j's Counter-Charge against the Charging
// attackers (charge) or the Shocking ones (11.5, 11.6).
func (g *game) counterCharge(j int, r Response, charge bool) error {
	sc, st := g.sc, g.st
	against, mode := r.Shock, "shock"
	if charge {
		against, mode = r.Charge, "charge"
	}
	var units []int
	for _, id := range against {
		units = append(units, unitIdx(sc, id))
	}
	f, _ := counterChargeFacing(sc, st, j, units)
	mods := counterChargeMods(sc, st, j, f != st.Units[j].Facing)
	roll, err := g.roll(fmt.Sprintf("Counter-Charge DR: %s against %s (11.6)", r.Unit, strings.Join(against, ", ")), mods...)
	if err != nil {
		return err
	}
	max := sc.Tables.ShockDRM.counterChargeMax(mode)
	g.emit(CounterChargeRolled{Unit: r.Unit, Against: against, Mode: mode, Roll: roll, Max: max, Success: roll.Total <= max, Facing: f})
	return nil
}

// counterChargeMods are the DRMs of unit j's Counter-Charge DR (11.6):
// its Shock Defense, unless the volume leaves it out (Blood & Roses
// 13.7), and +1 when it must turn one vertex.
func counterChargeMods(sc *Scenario, st *State, j int, turned bool) []Modifier {
	var mods []Modifier
	if !sc.Tables.Rules.CounterChargeNoDefense {
		mods = append(mods, Modifier{DRM: ratings(sc, st, j).Shock, Reason: fmt.Sprintf("%s's Shock Defense", sc.Units[j].ID), Rule: "11.6"})
	}
	if turned {
		mods = append(mods, Modifier{DRM: sc.Tables.ShockDRM.CounterChargeFacing, Reason: "it must turn one vertex", Rule: "11.6"})
	}
	return nonZero(mods)
}

// retreatBeforeShock moves defender j one hex away (10.2). From mounted
// attackers it then rolls on the Light Cavalry Retreat table: "moving one
// hex away from the attacking unit and then rolling the die, adjusting the
// DR by the Retreating unit's Defensive DRM rating" (Infidel 12.2).
func (g *game) retreatBeforeShock(j int, to hex.Hex, f hex.Facing) error {
	var attackers []string
	if a := g.st.Shock.attackOn(g.sc.Units[j].ID); a != nil {
		attackers = a.Attackers
	}
	return g.retreatBeforeShockFrom(j, to, f, attackers)
}

// retreatBeforeShockFrom is retreatBeforeShock from the attackers named.
// Mounted MAA are Disordered by it (10.2); with rules.
// retreat_before_disorders every unit is (Blood & Roses 12.2: "Mounted
// units that Retreat Before Combat become Disordered").
func (g *game) retreatBeforeShockFrom(j int, to hex.Hex, f hex.Facing, attackers []string) error {
	t, all := unitType(g.sc, g.st, j), g.sc.Tables.Rules.RetreatBeforeDisorders
	e := RetreatedBeforeShock{Unit: g.sc.Units[j].ID, From: g.st.Units[j].Hex, To: to, Facing: f, Leaders: leaderIDs(g.sc, stackedLeaders(g.sc, g.st, j)),
		Disordered: t.MAA || all, AllDisordered: all}
	if p := retreatBeforePaths(g.sc, g.st, j, idxOf(g.sc, attackers))[to]; len(p) > 1 {
		e.Path = p // Arquebus 12.2 "one to three hexes"
	}
	if anyMounted(g.sc, g.st, attackers) {
		roll, err := g.cavalryRetreatRoll(j, attackers, false)
		if err != nil {
			return err
		}
		e.Roll, e.Disordered = &roll, roll.Total > g.sc.Tables.CavalryRetreat.Shock.UnharmedMax
	}
	g.emit(e)
	return nil
}

// anyMounted: one of the units named is mounted.
func anyMounted(sc *Scenario, st *State, ids []string) bool {
	for _, id := range ids {
		if i := unitIdx(sc, id); i >= 0 && unitType(sc, st, i).Mounted {
			return true
		}
	}
	return false
}

// cavalryRetreatRoll is unit j's die after it Retreats Before Shock from
// mounted attackers, plus its own Shock Defense DRM (Infidel 12.2).
func (g *game) cavalryRetreatRoll(j int, attackers []string, counter bool) (Roll, error) {
	what := "Shock"
	if counter {
		what = "Counter-Charge"
	}
	mods := nonZero([]Modifier{{DRM: ratings(g.sc, g.st, j).Shock, Reason: fmt.Sprintf("%s's Shock Defense", g.sc.Units[j].ID), Rule: "Infidel 12.2"}})
	return g.roll(fmt.Sprintf("Retreat Before %s DR: %s from %s (Infidel 12.2)", what, g.sc.Units[j].ID, strings.Join(attackers, ", ")), mods...)
}

func leaderIDs(sc *Scenario, ls []int) []string {
	var out []string
	for _, l := range ls {
		out = append(out, sc.Leaders[l].ID)
	}
	return out
}

// continuedRetreats: "Retreat Before Combat applies to any attack,
// including a Continued Attack" (Infidel 12.2). Before a Continued
// Attack is rolled, each defender that may Retreat Before Shock does so
// when its owner's STANDING RETREAT BEFORE SHOCK says ALWAYS or ASK: the
// round cannot stop for a mail, so ASK counts as ALWAYS (ruling R178).
// No attacker follows it.
func (g *game) continuedRetreats(atk, defs []int) error {
	for _, j := range defs {
		if standingFor(g.sc, g.st, j, KindRetreatBeforeShock, FireNever) == FireNever {
			continue
		}
		if hexes := retreatsBeforeShock(g.sc, g.st, j, atk); len(hexes) > 0 {
			if err := g.retreatBeforeShockFrom(j, hexes[0], g.st.Units[j].Facing, unitIDs(g.sc, atk)); err != nil {
				return err
			}
		}
	}
	return nil
}

// followRetreat: "One attacker may advance into the vacated hex, if the
// player so wishes, but may not then Shock or change facing. If one
// attacker is attacking two defenders and both defenders Retreat Before
// Shock, the attacker may pick which hex to advance into ... If only one
// defender retreats, resolve the attack on the other" (10.2). The
// attacker's STANDING ADVANCE says whether he wishes (NEVER by default);
// the first attacker willing and able takes the first vacated hex. The
// advance draws no Reaction Fire.
func (g *game) followRetreat(a ShockAttack) {
	if len(a.Vacated) == 0 || len(a.Defenders) > 0 {
		return
	}
	for _, h := range a.Vacated {
		if occupant(g.st, h) >= 0 {
			continue
		}
		for _, id := range a.Attackers {
			i := unitIdx(g.sc, id)
			us := g.st.Units[i]
			if !onField(g.st, i) || us.Status == Retired || g.sc.Map.Grid.Distance(us.Hex, h) != 1 ||
				enterCost(g.sc, us.Hex, h, unitType(g.sc, g.st, i).Class()) == NA || standingFor(g.sc, g.st, i, KindAdvance, FireNever) != FireAlways {
				continue
			}
			g.emit(UnitAdvanced{Unit: id, From: us.Hex, To: h, Leaders: leaderIDs(g.sc, stackedLeaders(g.sc, g.st, i))})
			g.captureIn(i, h)
			return
		}
	}
}

// counterChargeMods are the DRMs a successful Counter-Charge by defender j
// brings to the attack on it: −2 against a Shock (11.6), and a leader with
// the Counter-Charging unit (15.3: "or effectively Counter-Charging";
// against the attacker, ruling R80).
func (g *game) counterChargeMods(a *attack, j int) []Modifier {
	t := g.sc.Tables.ShockDRM
	var mods []Modifier
	id := g.sc.Units[j].ID
	if containsInt(a.shockCounters, j) {
		mods = append(mods, Modifier{DRM: t.CounterChargeShock, Reason: fmt.Sprintf("%s Counter-Charged the Shock", id), Rule: "11.6"})
	}
	// Infidel's Leader Presence is for units "attacking" only (12.3 #4,
	// ruling R156): with leader_presence_types set, none here.
	if containsInt(a.counterChargers, j) && len(stackedLeaders(g.sc, g.st, j)) > 0 && len(g.sc.Tables.Rules.LeaderPresenceTypes) == 0 {
		mods = append(mods, Modifier{DRM: -t.Leader, Reason: fmt.Sprintf("a leader with the Counter-Charging %s", id), Rule: "10.4 #5, 15.3"})
	}
	return mods
}

// CounterChargeOrder answers a Counter-Charge decision: "COUNTER-CHARGE
// MA3", with CHARGE or SHOCK when it is attacked both ways (11.5).
type CounterChargeOrder struct {
	at
	Unit    string
	Against string // "", "CHARGE" or "SHOCK"
}

func (o CounterChargeOrder) String() string {
	return strings.TrimSpace("COUNTER-CHARGE " + o.Unit + " " + o.Against)
}

// RetreatBeforeShockOrder: "RETREAT BEFORE SHOCK MA3 0604 [FACE SW]".
type RetreatBeforeShockOrder struct {
	at
	Unit, To string
	Face     string
}

func (o RetreatBeforeShockOrder) String() string {
	s := "RETREAT BEFORE SHOCK " + o.Unit + " " + o.To
	if o.Face != "" {
		s += " FACE " + o.Face
	}
	return s
}

// StandOrder declines the responses of one unit, or of all: "STAND MA3",
// "STAND".
type StandOrder struct {
	at
	Unit string
}

func (o StandOrder) String() string { return strings.TrimSpace("STAND " + o.Unit) }

func parseCounterCharge(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "COUNTER-CHARGE <unit> [CHARGE|SHOCK]"
	switch {
	case len(rest) == 1:
		return CounterChargeOrder{at: a, Unit: rest[0]}, nil
	case len(rest) == 2 && (strings.EqualFold(rest[1], "CHARGE") || strings.EqualFold(rest[1], "SHOCK")):
		return CounterChargeOrder{at: a, Unit: rest[0], Against: strings.ToUpper(rest[1])}, nil
	}
	return nil, syntax("COUNTER-CHARGE needs your unit, and CHARGE or SHOCK when it is attacked both ways", form)
}

func parseRetreatBeforeShock(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "RETREAT BEFORE SHOCK <unit> <hex> [FACE <vertex>]"
	if len(rest) < 4 || !strings.EqualFold(rest[1], "SHOCK") {
		return nil, syntax("RETREAT BEFORE SHOCK needs your unit and the hex it retreats to", form)
	}
	o := RetreatBeforeShockOrder{at: a, Unit: rest[2], To: rest[3]}
	if _, err := hex.Parse(o.To); err != nil {
		return nil, syntax(fmt.Sprintf("%q is not a hex id", o.To), form)
	}
	switch {
	case len(rest) == 4:
		return o, nil
	case len(rest) == 6 && strings.EqualFold(rest[4], "FACE"):
		if _, err := hex.ParseFacing(rest[5]); err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a vertex: E, NE, NW, W, SW or SE", rest[5]), form)
		}
		o.Face = strings.ToUpper(rest[5])
		return o, nil
	}
	return nil, syntax("RETREAT BEFORE SHOCK takes the unit, the hex, and FACE with a vertex", form)
}

// pendingResponse finds the asked response of the unit the order names.
func (g *game) pendingResponse(o Order, name, rule string) (Response, int, error) {
	if g.st.Pending.Kind != DecideResponse || g.st.Shock == nil {
		return Response{}, -1, g.illegal(o, rule, "no Shock Phase waits for your responses")
	}
	for _, r := range g.st.Shock.Responses {
		if strings.EqualFold(r.Unit, name) {
			return r, unitIdx(g.sc, r.Unit), nil
		}
	}
	var waiting []string
	for _, r := range g.st.Shock.Responses {
		waiting = append(waiting, r.Unit)
	}
	return Response{}, -1, g.illegal(o, rule, fmt.Sprintf("%s has no response to give; waiting for %s", name, strings.Join(waiting, ", ")))
}

func (g *game) counterChargeOrder(o CounterChargeOrder) error {
	if g.st.Pending.Kind == DecideCounterCharge {
		return g.counterChargeFireAnswer(o, o.Unit, true)
	}
	r, j, err := g.pendingResponse(o, o.Unit, "11.5")
	if err != nil {
		return err
	}
	if fresh := responseOf(g.sc, g.st, j); len(fresh.Charge)+len(fresh.Shock) == 0 || len(r.Charge)+len(r.Shock) == 0 {
		return g.illegal(o, "11.5", fmt.Sprintf("%s may not Counter-Charge now", r.Unit))
	}
	charge := len(r.Charge) > 0
	switch {
	case o.Against == "CHARGE" && len(r.Charge) == 0:
		return g.illegal(o, "11.5", fmt.Sprintf("no Charging attacker %s may Counter-Charge", r.Unit))
	case o.Against == "SHOCK" && len(r.Shock) == 0:
		return g.illegal(o, "11.5", fmt.Sprintf("no Shocking attacker %s may Counter-Charge", r.Unit))
	case o.Against == "SHOCK":
		charge = false
	}
	if err := g.counterCharge(j, r, charge); err != nil {
		return err
	}
	return g.afterResponse()
}

func (g *game) retreatBeforeShockOrder(o RetreatBeforeShockOrder) error {
	r, j, err := g.pendingResponse(o, o.Unit, "10.2")
	if err != nil {
		return err
	}
	if g.st.Units[j].NoRetreat {
		return g.illegal(o, "10.2, R115", fmt.Sprintf("%s stands under a No Retreat marker: it never retreats, so it may not Retreat Before Shock", r.Unit))
	}
	to, _ := hex.Parse(o.To)
	fresh := responseOf(g.sc, g.st, j)
	if !slices.Contains(r.Retreats, to) || !slices.Contains(fresh.Retreats, to) {
		return g.illegal(o, "10.2", fmt.Sprintf("%s may not Retreat Before Shock to %s; it may to %s", r.Unit, o.To, hexIDs(fresh.Retreats)))
	}
	f := g.st.Units[j].Facing
	if o.Face != "" {
		f, _ = hex.ParseFacing(o.Face)
	}
	if err := g.retreatBeforeShock(j, to, f); err != nil {
		return err
	}
	return g.afterResponse()
}

func (g *game) stand(o StandOrder) error {
	if g.st.Pending.Kind == DecideCounterCharge {
		return g.counterChargeFireAnswer(o, o.Unit, false)
	}
	if o.Unit == "" {
		if g.st.Pending.Kind != DecideResponse || g.st.Shock == nil {
			return g.illegal(o, "10.3", "no Shock Phase waits for your responses")
		}
		for _, r := range g.st.Shock.Responses {
			g.emit(ResponseDeclined{Unit: r.Unit})
		}
		return g.afterResponse()
	}
	r, _, err := g.pendingResponse(o, o.Unit, "10.3")
	if err != nil {
		return err
	}
	g.emit(ResponseDeclined{Unit: r.Unit})
	return g.afterResponse()
}

// afterResponse goes on with the Shock Phase once every response is in.
func (g *game) afterResponse() error {
	if len(g.st.Shock.Responses) > 0 {
		return nil
	}
	return g.runShock()
}

// responseForms are the answers open to the defender, for Legal.
func responseForms(sc *Scenario, st *State) []string {
	if st.Shock == nil {
		return nil
	}
	var out []string
	for _, r := range st.Shock.Responses {
		switch {
		case len(r.Charge) > 0 && len(r.Shock) > 0:
			out = append(out, "COUNTER-CHARGE "+r.Unit+" CHARGE", "COUNTER-CHARGE "+r.Unit+" SHOCK")
		case len(r.Charge)+len(r.Shock) > 0:
			out = append(out, "COUNTER-CHARGE "+r.Unit)
		}
		for _, h := range r.Retreats {
			out = append(out, "RETREAT BEFORE SHOCK "+r.Unit+" "+h.String())
		}
		out = append(out, "STAND "+r.Unit)
	}
	return append(out, "STAND")
}

// ResponsesAsked: the Shock Phase waits for the defender's responses.
type ResponsesAsked struct {
	Side      Side       `json:"side"`
	Responses []Response `json:"responses"`
}

func (e ResponsesAsked) apply(st *State) {
	for _, r := range e.Responses {
		st.Shock.Responses = append(st.Shock.Responses, r.clone())
	}
	st.Shock.Responded = true
	st.Pending = Decision{Kind: DecideResponse, Side: e.Side}
}

func (e ResponsesAsked) describe(sc *Scenario) string {
	var units []string
	for _, r := range e.Responses {
		units = append(units, r.Unit)
	}
	return fmt.Sprintf("The %s decide whether %s Counter-Charge or Retreat Before Shock (10.2, 11.5).", sc.SideName(e.Side), strings.Join(units, ", "))
}

// answered removes unit id from the responses waited for; the last one
// gives the game back to the Shock Phase.
func (p *ShockPhase) answered(st *State, id string) {
	if p == nil {
		return
	}
	p.Responses = slices.DeleteFunc(p.Responses, func(r Response) bool { return r.Unit == id })
	if len(p.Responses) == 0 && st.Pending.Kind == DecideResponse {
		st.Pending = p.Resume
	}
}

// CounterChargeRolled: a defender's Counter-Charge roll (11.6).
type CounterChargeRolled struct {
	Unit    string     `json:"unit"`
	Against []string   `json:"against"`
	Mode    string     `json:"mode"` // "charge" or "shock"
	Roll    Roll       `json:"roll"`
	Max     int        `json:"max"`
	Success bool       `json:"success"`
	Facing  hex.Facing `json:"facing"`
}

func (e CounterChargeRolled) apply(st *State) {
	u := st.Unit(e.Unit)
	u.CounterCharged = true
	if e.Success && e.Mode != "fire" { // against fire it turns as it charges, after the fire
		u.Facing = e.Facing
	}
	if e.Success {
		if a := st.Shock.attackOn(e.Unit); a != nil {
			a.CounterChargers = append(a.CounterChargers, e.Unit)
			if e.Mode == "shock" {
				a.ShockCounters = append(a.ShockCounters, e.Unit)
			}
		}
		if e.Mode == "charge" {
			for _, id := range e.Against {
				st.Shock.loseCharge(id)
			}
		}
	}
	st.Shock.answered(st, e.Unit)
}

func (e CounterChargeRolled) describe(*Scenario) string {
	what := "the Charge of " + strings.Join(e.Against, " and ")
	switch e.Mode {
	case "shock":
		what = "the Shock of " + strings.Join(e.Against, " and ")
	case "fire":
		what = "the fire of " + strings.Join(e.Against, " and ")
	}
	if !e.Success {
		return fmt.Sprintf("%s tries to Counter-Charge %s: %s, more than %d: it fails (11.7).", e.Unit, what, describeRoll(e.Roll), e.Max)
	}
	effect := map[string]string{"charge": "their Charge is cancelled", "shock": "the attacker takes -2",
		"fire": "it will charge the firer once the fire is resolved"}[e.Mode]
	return fmt.Sprintf("%s Counter-Charges %s: %s, %d or less: %s (11.6).", e.Unit, what, describeRoll(e.Roll), e.Max, effect)
}

// RetreatedBeforeShock: a mounted defender fell back one hex; Mounted MAA
// are Disordered by it (10.2). Its leaders go with it.
type RetreatedBeforeShock struct {
	Unit string  `json:"unit"`
	From hex.Hex `json:"from"`
	To   hex.Hex `json:"to"`
	// Path: the hexes of a retreat of more than one hex (Arquebus 12.2).
	Path       []hex.Hex  `json:"path,omitempty"`
	Facing     hex.Facing `json:"facing"`
	Leaders    []string   `json:"leaders,omitempty"`
	Disordered bool       `json:"disordered,omitempty"`
	// Roll: the Light Cavalry's die after retreating from mounted
	// attackers (Infidel 12.2).
	Roll *Roll `json:"roll,omitempty"`
	// AllDisordered: every unit is Disordered by it (Blood & Roses
	// 12.2), which its text cites.
	AllDisordered bool `json:"all_disordered,omitempty"`
}

func (e RetreatedBeforeShock) apply(st *State) {
	u := st.Unit(e.Unit)
	u.Hex, u.Facing = e.To, e.Facing
	if e.Disordered {
		u.Status = Disordered
	}
	for _, l := range e.Leaders {
		st.Leader(l).Hex = e.To
	}
	if a := st.Shock.attackOn(e.Unit); a != nil {
		a.Vacated = append(a.Vacated, e.From)
		a.Defenders = slices.DeleteFunc(a.Defenders, func(d string) bool { return d == e.Unit })
	}
	st.Shock.answered(st, e.Unit)
}

func (e RetreatedBeforeShock) describe(*Scenario) string {
	s := fmt.Sprintf("%s Retreats Before Shock to %s, facing %s", e.Unit, e.To, e.Facing)
	if len(e.Path) > 1 {
		s = fmt.Sprintf("%s Retreats Before Shock %d hexes, through %s to %s, facing %s", e.Unit, len(e.Path), hexIDs(e.Path[:len(e.Path)-1]), e.To, e.Facing)
	}
	if e.Roll != nil {
		s += ", and rolls " + describeRoll(*e.Roll)
	}
	if e.Disordered {
		s += ", and is Disordered by it"
	}
	if e.Roll != nil {
		return s + " (Infidel 12.2)."
	}
	if e.AllDisordered {
		return s + " (Blood & Roses 12.2)."
	}
	return s + " (10.2)."
}

// ResponseDeclined: the defender stands.
type ResponseDeclined struct {
	Unit string `json:"unit"`
}

func (e ResponseDeclined) apply(st *State) { st.Shock.answered(st, e.Unit) }

func (e ResponseDeclined) describe(*Scenario) string {
	return fmt.Sprintf("%s stands its ground.", e.Unit)
}

func init() {
	registerEvents(ResponsesAsked{}, CounterChargeRolled{}, RetreatedBeforeShock{}, ResponseDeclined{})
}
