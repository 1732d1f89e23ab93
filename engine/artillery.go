package engine

import (
	"fmt"
	"strings"
)

// Blood & Roses Artillery: its limbered side (2.2, 7.6), its fire (11.1,
// 11.3), its Reaction Fire at the first enemy unit only (11.2; Handguns
// too) and its results (12.3, 14.2, 14.4, 14.5). Everything here is keyed
// on the tables' unit type and weapon entries (limbered_side,
// never_disordered; front_only, misfire, reaction_first_only) and rule
// switches (rules.fire_disorder_check), never on the volume. The other
// Blood & Roses fire rules are in fire.go and los.go (11.1 front_only,
// 11.4 over units and hedgerows) and reaction.go (11.2 one reaction per
// entry).
//
// 7.6 "Artillery can either be in a limbered or unlimbered state. A
// limbered Artillery unit can move; if it fires it is turned to its
// unlimbered side and thereafter may only fire or change facing. An
// unlimbered Artillery unit may change facing and fire in the same
// Activation. See the individual battle for information about the state
// a player's Artillery begins the game in." So unlimbering is what firing
// does, at no cost, and nothing limbers a unit again (ruling R240): the
// LIMBER and UNLIMBER orders exist to say so.

// LimberOrder asks to limber or unlimber an Artillery unit: "LIMBER ART1",
// "UNLIMBER ART1". Blood & Roses gives neither as an action of its own
// (7.6, ruling R240), so both are answered with the rule and what to do
// instead.
type LimberOrder struct {
	at
	Unit string
	Un   bool // UNLIMBER
}

func (o LimberOrder) String() string {
	if o.Un {
		return "UNLIMBER " + o.Unit
	}
	return "LIMBER " + o.Unit
}

func parseLimber(a at, kw string, rest []string, syntax func(string, ...string) error) (Order, error) {
	if len(rest) != 1 {
		return nil, syntax(kw+" needs one unit", kw+" <unit>")
	}
	return LimberOrder{at: a, Unit: rest[0], Un: kw == "UNLIMBER"}, nil
}

// limber answers LIMBER and UNLIMBER (7.6, ruling R240).
func (g *game) limber(o LimberOrder) error {
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	i, ok := g.findUnit(o.Unit)
	if !ok {
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("the %s have no unit called %q", g.sc.SideName(g.st.Pending.Side), o.Unit)+g.unitHint(g.st.Pending.Side, o.Unit, false))
	}
	id, us := g.sc.Units[i].ID, g.st.Units[i]
	switch {
	case !unitType(g.sc, g.st, i).LimberedSide:
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is not Artillery: only Artillery has a limbered side (B&R 2.2)", id))
	case o.Un && us.Limbered:
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is turned to its unlimbered side when it fires, at no cost: FIRE %s AT <enemy> (it may move first; its fire ends its move)", id, id))
	case o.Un:
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is already unlimbered", id))
	case us.Limbered:
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is already limbered", id))
	}
	return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is unlimbered: once Artillery has fired it may only fire or change facing, and never limbers again", id))
}

// mayMoveLimbered: only limbered Artillery moves (7.6).
func (g *game) mayMoveLimbered(o Order, i int) error {
	if unitType(g.sc, g.st, i).LimberedSide && !g.st.Units[i].Limbered {
		id := g.sc.Units[i].ID
		return g.illegal(o, "B&R 7.6", fmt.Sprintf("%s is unlimbered Artillery: it may only fire or change facing (FIRE %s AT <enemy>, FACE %s <vertex>)", id, id, id))
	}
	return nil
}

// unlimberToFire turns limbered Artillery to its unlimbered side as it
// fires, by any kind of fire (7.6).
func (g *game) unlimberToFire(i int) {
	if unitType(g.sc, g.st, i).LimberedSide && g.st.Units[i].Limbered {
		g.emit(UnitUnlimbered{Unit: g.sc.Units[i].ID})
	}
}

// UnitUnlimbered: limbered Artillery is turned to its unlimbered side
// because it fires (7.6).
type UnitUnlimbered struct {
	Unit string `json:"unit"`
}

func (e UnitUnlimbered) apply(st *State) { st.Unit(e.Unit).Limbered = false }

func (e UnitUnlimbered) describe(*Scenario) string {
	return fmt.Sprintf("%s unlimbers to fire: from now on it may only fire or change facing (B&R 7.6).", e.Unit)
}

// neverDisordered converts the effects of a result on a unit that is never
// Disordered: "Artillery units which suffer a Disorder, Retreat, or Retire
// result are instead Eliminated" (12.3; 14.2, 14.4, 14.5), once. A
// Disorder from missile fire has already been through its die
// (fireDisorderCheck) when it gets here.
func neverDisordered(effects []Effect) []Effect {
	out := make([]Effect, 0, len(effects))
	elim := false
	why := "Artillery is never Disordered: a Disorder, Retreat or Retire result Eliminates it (B&R 12.3, 14.2, 14.4, 14.5)"
	for _, e := range effects {
		switch e.Kind {
		case EffectDisordered, EffectRetreat, EffectRetired, EffectUnhorsed, EffectEliminated:
			elim = true
			if e.Kind == EffectEliminated && e.Why != "" {
				why = e.Why // a rule's own elimination (Arquebus 12.5) keeps its reason
			}
		default:
			out = append(out, e)
		}
	}
	if elim {
		out = append(out, Effect{Kind: EffectEliminated, Why: why})
	}
	return out
}

// fireDisorderCheck: "When an Artillery unit suffers a Disorder result
// from missile fire, roll one die: if the DR is 4 or less the Artillery
// unit is Eliminated. if the DR is 5 or more, there is no effect" (14.2;
// rules.fire_disorder_check). It returns the effects left to apply: those
// of the result less its Disorder, which the die has settled.
func (g *game) fireDisorderCheck(s *shot, effects []Effect) ([]Effect, error) {
	i := s.target
	r := g.sc.Tables.Rules
	if !unitType(g.sc, g.st, i).NeverDisordered || !r.FireDisorderCheck {
		return effects, nil
	}
	var rest []Effect
	disorder := false
	for _, e := range effects {
		if e.Kind == EffectDisordered {
			disorder = true
			continue
		}
		rest = append(rest, e)
	}
	if !disorder {
		return effects, nil
	}
	id := g.sc.Units[i].ID
	roll, err := g.roll(fmt.Sprintf("Disorder check: %s, Disordered by the fire of %s", id, g.sc.Units[s.firer].ID))
	if err != nil {
		return nil, err
	}
	elim := roll.Total <= r.FireDisorderCheckMax
	g.emit(DisorderChecked{Unit: id, Roll: roll, Max: r.FireDisorderCheckMax, Eliminated: elim})
	if elim {
		g.eliminate(i, fmt.Sprintf("fire of %s; Artillery Disordered by fire and a Disorder check of %d (B&R 14.2)", g.sc.Units[s.firer].ID, roll.Total))
	}
	return rest, nil
}

// DisorderChecked: the die of an Artillery unit Disordered by missile fire
// (14.2): Max or less Eliminates it, more has no effect.
type DisorderChecked struct {
	Unit       string `json:"unit"`
	Roll       Roll   `json:"roll"`
	Max        int    `json:"max"`
	Eliminated bool   `json:"eliminated,omitempty"`
}

func (DisorderChecked) apply(*State) {}

func (e DisorderChecked) describe(*Scenario) string {
	what := "no effect"
	if e.Eliminated {
		what = "it is Eliminated"
	}
	return fmt.Sprintf("%s is never Disordered: Disorder check, %s (%d or less Eliminates): %s (B&R 14.2).", e.Unit, describeRoll(e.Roll), e.Max, what)
}

// misfires: a natural 0 on the fire of a unit whose weapon may blow up
// (11.3 Artillery/Handgun Reliability).
func misfires(sc *Scenario, st *State, i int, r Roll) bool {
	w := unitWeapon(sc, st, i)
	return w != nil && w.Misfire != "" && r.Die == 0
}

// misfireRemoves: the firer's misfire takes it out of the fight, so its
// target may not Return Fire at it: Artillery is Eliminated, a Handgun
// already Disordered is Retired ("Unless the Handgun unit is Retired, the
// target of the Handgun unit's attack is still eligible to Return Fire or
// continue a Counter-Charge", 11.3; ruling R242).
func misfireRemoves(sc *Scenario, st *State, i int) bool {
	w := unitWeapon(sc, st, i)
	return w.Misfire == MisfireEliminated || st.Units[i].Status != Normal
}

// misfire applies 11.3's reliability to the firer: "If a player rolls a
// natural '0' for an Artillery unit, the guns blow up and the unit is
// Eliminated. When a Handgun unit rolls a natural '0', some of its guns
// blow up and the unit is Disordered or if already Disordered, it is
// Retired ... This has no effect on other units or leaders."
func (g *game) misfire(s *shot) {
	i := s.firer
	id := g.sc.Units[i].ID
	switch w := unitWeapon(g.sc, g.st, i); {
	case w.Misfire == MisfireEliminated:
		g.eliminate(i, fmt.Sprintf("a natural 0 on its fire at %s: the guns blow up (B&R 11.3)", g.sc.Units[s.target].ID))
	case g.st.Units[i].Status == Normal:
		g.emit(UnitDisordered{Unit: id, Cause: fmt.Sprintf("a natural 0 on its fire at %s: some of its guns blow up (B&R 11.3)", g.sc.Units[s.target].ID)})
	default:
		g.retireFrom(i, fmt.Sprintf("a natural 0 on its fire at %s, already Disordered: some of its guns blow up (B&R 11.3)", g.sc.Units[s.target].ID), nil)
	}
}

// misfireText is the Fire Results Table's place in a misfire's UnitFired.
const misfireText = "Misfire"

func init() { registerEvents(UnitUnlimbered{}, DisorderChecked{}) }

// spendFirstOnly: the reactors whose weapon reacts only to the first enemy
// unit entering their Frontal hex (Weapon.ReactionFirstOnly, B&R 11.2) and
// that could fire at unit i, which just did, spend their Reaction Fire on
// it, whether they fire at it or not (ruling R248). They may still fire at
// it now: the list of this entry's reactors is made.
func (g *game) spendFirstOnly(i int, reactors []int) {
	var spent []string
	for _, j := range reactors {
		if w := unitWeapon(g.sc, g.st, j); w != nil && w.ReactionFirstOnly && CanFire(g.sc, g.st, j, i, true) == nil {
			spent = append(spent, g.sc.Units[j].ID)
		}
	}
	if len(spent) > 0 {
		g.emit(ReactionSpent{Units: spent, Mover: g.sc.Units[i].ID})
	}
}

// ReactionSpent: missile units that react only to the first enemy unit to
// enter their Frontal hex met it: they may fire at it, and at no other
// unit in this Activation (B&R 11.2).
type ReactionSpent struct {
	Units []string `json:"units"`
	Mover string   `json:"mover"`
}

func (e ReactionSpent) apply(st *State) {
	for _, u := range e.Units {
		st.Unit(u).Reacted = true
	}
}

func (e ReactionSpent) describe(*Scenario) string {
	return fmt.Sprintf("%s is the first enemy unit in the Frontal hex of %s: their Reaction Fire in this Activation is at it or at none (B&R 11.2).",
		e.Mover, strings.Join(e.Units, ", "))
}

func init() { registerEvents(ReactionSpent{}) }
