package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// 10.0 SHOCK, Phase C of the Extended Sequence of Play, carried out at END
// once the declarations hold as a whole (10.3):
//
//  1. the declared attacks (shock_orders.go);
//  2. "One at a time, the Active player moves each Charging unit adjacent
//     to its target. Any Reaction fire caused by this move is resolved. If
//     required, the Charging unit makes a Charge Reluctance roll. Any
//     Retreat Before Combat by the defender is resolved at this time. The
//     defender attempts any Counter-Charges of which he is capable"
//     (charge.go; the defender's responses, shock_response.go);
//  3. "The Active player resolves all his Shock and Charge attacks, in any
//     order he wishes" — Herald takes them in the order declared — with
//     Advances and Continued Attacks noted (shock_resolve.go);
//  4. "All Continued Attacks are now resolved. Begin again at Step 1,
//     except that only units that earned a Continued Attack Shock and they
//     must Shock; Charging and Counter-Charging is not allowed", until no
//     unit earns one (12.7).
//
// The phase is kept in the state (State.Shock), so that it can stop for
// any decision a player's standing orders ask him to make — a Reaction
// Fire at a Charge, the defender's responses, a retreat — and go on from
// there with the answer (ruling R73).

// ShockPhase is Phase C under way, or the Shock of a Counter-Charge
// against fire (Mini).
type ShockPhase struct {
	Attacks []ShockAttack `json:"attacks"`
	// Responses are the defender's choices the phase waits for (10.2,
	// 11.5), while Pending is DecideResponse; Responded: they were asked.
	Responses []Response `json:"responses,omitempty"`
	Responded bool       `json:"responded,omitempty"`
	// Resume is the decision the game goes back to after the phase.
	Resume Decision `json:"resume"`
	// Mini: the Shock of a Counter-Charge against missile fire (11.6);
	// neither the Rally Phase nor the end of the Activation follows it.
	Mini bool `json:"mini,omitempty"`
	// Placed counts the Charges of Step 2 carried out; Charge is the one
	// stopped on its way by a decision (a Reaction Fire, a retreat).
	Placed int        `json:"placed,omitempty"`
	Charge *ChargeRun `json:"charge,omitempty"`
	// SwissChecked: Step 2c, Swiss Shock Reluctance, is done (Arquebus
	// 16.2, swiss.go).
	SwissChecked bool `json:"swiss_checked,omitempty"`
	// Resolving: Step 3 has begun. Round is the Continued Attack round
	// (0 for the declared attacks), Queue its attacks not yet rolled,
	// Current the attack whose results are being applied, Earned the
	// units that have earned a Continued Attack in the round.
	Resolving bool          `json:"resolving,omitempty"`
	Round     int           `json:"round,omitempty"`
	Queue     []ShockAttack `json:"queue,omitempty"`
	Current   *Resolution   `json:"current,omitempty"`
	Earned    []string      `json:"earned,omitempty"`
}

// ChargeRun is a Charge stopped on its way: it stands in Path[Next]; the
// units in Reacted have fired at it.
type ChargeRun struct {
	Next    int      `json:"next"`
	Reacted []string `json:"reacted,omitempty"`
}

// Resolution is an attack rolled, its results being applied: Done effect
// steps so far (shock_resolve.go).
type Resolution struct {
	Round     int       `json:"round,omitempty"`
	Attackers []string  `json:"attackers"`
	Defenders []string  `json:"defenders"`
	Charging  []string  `json:"charging,omitempty"`
	From      []hex.Hex `json:"from"`
	Results   []Result  `json:"results"`
	Done      int       `json:"done,omitempty"`
	// Stacked is, for each defender, the unit stacked with it when the
	// die was rolled, or "" (Arquebus 10.3: "both units suffer any
	// results").
	Stacked []string `json:"stacked,omitempty"`
}

// ShockAttack is one declared attack: its attackers against one defender
// or, for a unit attacking by itself, two (10.1).
type ShockAttack struct {
	Attackers []string      `json:"attackers"`
	Defenders []string      `json:"defenders"`
	Charges   []Declaration `json:"charges,omitempty"`  // the Charges declared (11.3)
	Charging  []string      `json:"charging,omitempty"` // attackers still charging (11.3, 11.4, 11.6)
	// CounterChargers are the defenders whose Counter-Charge succeeded
	// (15.3); ShockCounters those of them that Counter-Charged a Shock,
	// −2 on the roll against them (11.6).
	CounterChargers []string `json:"counter_chargers,omitempty"`
	ShockCounters   []string `json:"shock_counters,omitempty"`
	// Vacated are the hexes its defenders left by Retreating Before
	// Shock (10.2); those defenders are no longer among Defenders.
	Vacated []hex.Hex `json:"vacated,omitempty"`
	Text    []string  `json:"text"`
}

func (a ShockAttack) clone() ShockAttack {
	b := a
	b.Attackers, b.Defenders, b.Charging = slices.Clone(a.Attackers), slices.Clone(a.Defenders), slices.Clone(a.Charging)
	b.CounterChargers, b.ShockCounters, b.Text = slices.Clone(a.CounterChargers), slices.Clone(a.ShockCounters), slices.Clone(a.Text)
	b.Vacated = slices.Clone(a.Vacated)
	b.Charges = nil
	for _, d := range a.Charges {
		b.Charges = append(b.Charges, d.clone())
	}
	return b
}

func cloneAttacks(as []ShockAttack) []ShockAttack {
	var out []ShockAttack
	for _, a := range as {
		out = append(out, a.clone())
	}
	return out
}

func (r Resolution) clone() Resolution {
	c := r
	c.Attackers, c.Defenders, c.Charging, c.From = slices.Clone(r.Attackers), slices.Clone(r.Defenders), slices.Clone(r.Charging), slices.Clone(r.From)
	c.Stacked = slices.Clone(r.Stacked)
	c.Results = nil
	for _, x := range r.Results {
		y := x
		y.Defender, y.Attacker = slices.Clone(x.Defender), slices.Clone(x.Attacker)
		c.Results = append(c.Results, y)
	}
	return c
}

func (p *ShockPhase) clone() *ShockPhase {
	c := *p
	c.Attacks, c.Queue, c.Earned = cloneAttacks(p.Attacks), cloneAttacks(p.Queue), slices.Clone(p.Earned)
	c.Responses = nil
	for _, r := range p.Responses {
		c.Responses = append(c.Responses, r.clone())
	}
	if p.Charge != nil {
		run := *p.Charge
		run.Reacted = slices.Clone(p.Charge.Reacted)
		c.Charge = &run
	}
	if p.Current != nil {
		r := p.Current.clone()
		c.Current = &r
	}
	return &c
}

// charges lists the declared Charges in the order Step 2 places them.
func (p *ShockPhase) charges() []Declaration {
	var out []Declaration
	for _, a := range p.Attacks {
		out = append(out, a.Charges...)
	}
	return out
}

// attackOn is the attack whose defenders include unit id, or nil.
func (p *ShockPhase) attackOn(id string) *ShockAttack {
	if p == nil {
		return nil
	}
	for k := range p.Attacks {
		if slices.Contains(p.Attacks[k].Defenders, id) {
			return &p.Attacks[k]
		}
	}
	return nil
}

// attack is an attack being resolved, by unit index.
type attack struct {
	attackers, defenders []int
	charging             []int
	counterChargers      []int
	shockCounters        []int
}

func (g *game) attackOf(a ShockAttack) *attack {
	idx := func(ids []string) []int {
		var out []int
		for _, id := range ids {
			out = append(out, unitIdx(g.sc, id))
		}
		return out
	}
	return &attack{attackers: idx(a.Attackers), defenders: idx(a.Defenders), charging: idx(a.Charging),
		counterChargers: idx(a.CounterChargers), shockCounters: idx(a.ShockCounters)}
}

// maxShockRounds bounds the Continued Attack rounds of one Shock Phase: each
// round costs every attacker one more −1 (12.7), so a chain this long means
// the tables are broken, not that the dice were kind.
const maxShockRounds = 50

// shockPhase begins Phase C with the declared attacks.
func (g *game) shockPhase(attacks []ShockAttack) error {
	g.emit(ShockPhaseBegun{Attacks: attacks, Resume: g.st.Pending})
	return g.runShock()
}

// runShock carries the Shock Phase on from where it stands until it ends
// or waits for a decision: Step 2's Charges one at a time, the defender's
// responses, then the attacks of each round, rolled and applied one by
// one, and the Continued Attack rounds; then, after a Shock Phase, the
// Rally Phase and the end of the Activation. Every decision it waits for
// (a Reaction Fire, a retreat, the responses) leaves its progress in
// State.Shock, and the answer calls it again.
func (g *game) runShock() error {
	p := g.st.Shock
	for !p.Resolving {
		if g.waiting() {
			return nil
		}
		if ds := p.charges(); p.Placed < len(ds) {
			if err := g.chargeHome(ds[p.Placed]); err != nil {
				return err
			}
			continue
		}
		if !p.SwissChecked {
			if err := g.swissReluctance(); err != nil {
				return err
			}
		}
		if !p.Responded {
			if asked, err := g.responses(); err != nil || asked {
				return err
			}
		}
		g.beginResolution()
	}
	for {
		if g.waiting() {
			return nil
		}
		switch {
		case p.Current != nil:
			if err := g.applyResolution(*p.Current); err != nil {
				return err
			}
		case len(p.Queue) > 0:
			if err := g.rollAttack(p.Queue[0]); err != nil {
				return err
			}
		case len(p.Earned) > 0:
			if p.Round >= maxShockRounds {
				return fmt.Errorf("engine: more than %d Continued Attack rounds; the Shock tables loop", maxShockRounds)
			}
			earned := make([]int, 0, len(p.Earned))
			for _, id := range p.Earned {
				earned = append(earned, unitIdx(g.sc, id))
			}
			attacks, idle := continuedAttacks(g, earned)
			g.emit(ShockRound{Round: p.Round + 1, Units: p.Earned, Attacks: attacks})
			for _, id := range idle {
				g.emit(AttackLapsed{Attackers: []string{id}, Reason: "no enemy unit is left in its Frontal hexes for its Continued Attack (12.7)"})
			}
		default:
			mini := p.Mini
			g.emit(ShockPhaseEnded{})
			if mini {
				return nil
			}
			g.rallyPhase()
			return g.endActivation()
		}
	}
}

// waiting: a decision of a player stops the phase.
func (g *game) waiting() bool {
	return g.st.Retreat != nil || g.st.Advance != nil || g.st.Reaction != nil || g.st.Pending.Kind == DecideResponse
}

// beginResolution is Step 3: the attacks whose defenders all Retreated
// Before Shock lapse (10.2), the others are queued in the order declared.
func (g *game) beginResolution() {
	var queue []ShockAttack
	for _, a := range g.st.Shock.Attacks {
		if len(a.Attackers) == 0 {
			g.emit(AttackLapsed{Defenders: a.Defenders, Reason: "its Swiss attackers did not attack (Arquebus 16.2)"})
			continue
		}
		if len(a.Defenders) == 0 {
			g.emit(AttackLapsed{Attackers: a.Attackers, Reason: "its defenders Retreated Before Shock (10.2)"})
			g.followRetreat(a)
			continue
		}
		queue = append(queue, a)
	}
	g.emit(ShockRound{Attacks: queue})
}

// chargeHome is Step 2 for one Charge: placed next to its target with the
// Reaction Fire it draws, then its Reluctance roll; a charger Disordered on
// the way or balking attacks by Shock (11.3, 11.4).
func (g *game) chargeHome(d Declaration) error {
	i := unitIdx(g.sc, d.Attackers[0])
	charging, err := g.placeCharge(i, d)
	if err != nil || g.waiting() {
		return err
	}
	// "A unit which passes a Counter-Charge DR does not roll for Charge
	// Reluctance" (11.5): the Charge of a mini Shock Phase is one.
	if charging && !g.st.Shock.Mini {
		if _, err := g.reluctance(i, unitIdx(g.sc, d.Defenders[0])); err != nil {
			return err
		}
	}
	g.emit(ChargeHome{Unit: d.Attackers[0]})
	return nil
}

// continuedAttacks declares the attacks of a Continued Attack round (12.7):
// each unit "must Shock attack" every enemy unit in its Frontal hexes
// unless another unit of the round attacks it (10.1). Units with one enemy
// in front go first and attack it together; a unit with two attacks both
// by itself, or the one no other unit attacks (ruling R75). A unit with no
// enemy in front has nothing left to attack: it is returned in idle, to be
// told after the round is announced.
func continuedAttacks(g *game, units []int) (attacks []ShockAttack, idle []string) {
	sc, st := g.sc, g.st
	sort.SliceStable(units, func(x, y int) bool {
		return len(frontalEnemies(sc, st, units[x])) < len(frontalEnemies(sc, st, units[y]))
	})
	byDefender := map[int]*attack{}
	var out []*attack
	for _, i := range units {
		var free []int
		var join *attack
		for _, j := range frontalEnemies(sc, st, i) {
			switch a := byDefender[j]; {
			case a == nil:
				free = append(free, j)
			case len(a.defenders) == 1 && join == nil:
				join = a
			}
		}
		switch {
		case len(free) > 0 && (join == nil || len(free) == 2):
			a := &attack{attackers: []int{i}, defenders: free}
			for _, j := range free {
				byDefender[j] = a
			}
			out = append(out, a)
		case join != nil:
			join.attackers = append(join.attackers, i)
		default:
			idle = append(idle, sc.Units[i].ID)
		}
	}
	for _, a := range out {
		attacks = append(attacks, ShockAttack{Attackers: unitIDs(sc, a.attackers), Defenders: unitIDs(sc, a.defenders)})
	}
	return attacks, idle
}

// ShockPhaseBegun: the declarations held; Phase C is carried out (10.3).
type ShockPhaseBegun struct {
	Attacks []ShockAttack `json:"attacks"`
	Resume  Decision      `json:"resume"`
	// Mini: the Shock of a Counter-Charge against fire, in the Move/Fire
	// Phase; the units it attacks make no responses (ruling R81).
	Mini bool `json:"mini,omitempty"`
}

func (e ShockPhaseBegun) apply(st *State) {
	if !e.Mini {
		st.Phase, st.Declared = PhaseShock, nil
	}
	st.Shock = (&ShockPhase{Attacks: e.Attacks, Resume: e.Resume, Mini: e.Mini, Responded: e.Mini}).clone()
}

func (e ShockPhaseBegun) describe(*Scenario) string {
	if e.Mini {
		return ""
	}
	var texts []string
	for _, a := range e.Attacks {
		texts = append(texts, a.Text...)
	}
	return fmt.Sprintf("Shock Phase: %s (10.3).", strings.Join(texts, "; "))
}

// ShockPhaseEnded: every attack and Continued Attack is resolved.
type ShockPhaseEnded struct{}

func (ShockPhaseEnded) apply(st *State) { st.Shock = nil }

func (ShockPhaseEnded) describe(*Scenario) string { return "The Shock Phase is over (10.3)." }

// ShockRound: the attacks of a round are resolved one by one: the
// declared ones (Round 0, 10.3 Step 3), or those of the units that earned
// a Continued Attack (12.7, Step 4).
type ShockRound struct {
	Round   int           `json:"round,omitempty"`
	Units   []string      `json:"units,omitempty"`
	Attacks []ShockAttack `json:"attacks,omitempty"`
}

func (e ShockRound) apply(st *State) {
	p := st.Shock
	p.Resolving, p.Round, p.Queue, p.Earned = true, e.Round, cloneAttacks(e.Attacks), nil
}

func (e ShockRound) describe(*Scenario) string {
	if e.Round == 0 {
		return ""
	}
	return fmt.Sprintf("Continued Attack %d: %s must Shock again (12.7).", e.Round, strings.Join(e.Units, ", "))
}

// ChargeHome: a Charge has been placed and rolled for (10.3 Step 2).
type ChargeHome struct {
	Unit string `json:"unit"`
}

func (ChargeHome) apply(st *State) {
	st.Shock.Placed++
	st.Shock.Charge = nil
}

func (ChargeHome) describe(*Scenario) string { return "" }

// AttackLapsed: a declared or continued attack has no one left to make it
// or to receive it.
type AttackLapsed struct {
	Attackers []string `json:"attackers"`
	Defenders []string `json:"defenders,omitempty"`
	Reason    string   `json:"reason"`
	// Queued: the attack was at the head of its round's queue.
	Queued bool `json:"queued,omitempty"`
}

func (e AttackLapsed) apply(st *State) {
	if e.Queued {
		st.Shock.Queue = st.Shock.Queue[1:]
	}
}

func (e AttackLapsed) describe(*Scenario) string {
	if len(e.Attackers) == 0 {
		return fmt.Sprintf("No attack on %s: %s.", strings.Join(e.Defenders, ", "), e.Reason)
	}
	return fmt.Sprintf("No attack by %s: %s.", strings.Join(e.Attackers, ", "), e.Reason)
}

func init() {
	registerEvents(ShockPhaseBegun{}, ShockPhaseEnded{}, ShockRound{}, ChargeHome{}, AttackLapsed{})
}
