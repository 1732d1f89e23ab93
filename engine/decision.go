package engine

import (
	"fmt"
	"slices"
	"strings"
)

// DecisionKind names a moment where the game waits for one player. Some
// belong to the active player (what to activate, what the activated Command
// does, whether to continue); others interrupt the active player's turn and
// belong to the opponent (whether to Seize Continuity; later reaction and
// return fire, counter-charges, retreats). Principle 4 of the design: such a
// decision is settled by the owner's standing orders when they cover it,
// otherwise the game waits and the mail asks that player.
type DecisionKind int

const (
	// DecideActivation: Phase A of a Free Activation — activate a Command
	// or a Standard, or Pass (4.1, 13.2).
	DecideActivation DecisionKind = iota + 1
	// DecideActions: Phases B and C — orders for the activated Command,
	// ended by END (5.0–11.0).
	DecideActions
	// DecideContinuation: Phase E — name a Command for Continuity, or Pass
	// (4.2).
	DecideContinuation
	// DecideSeizure: the opponent of a player about to roll for Continuity
	// may try to Seize it (4.3).
	DecideSeizure
	// DecideRetreat: the owner of a unit that must retreat picks the hex,
	// when his standing orders ask him (12.3).
	DecideRetreat
	// DecideReturnFire: the owner of a unit fired at decides whether it
	// returns the fire, when his standing orders ask him (9.2).
	DecideReturnFire
	// DecideReaction: the owner of units an enemy moved next to decides
	// whether they fire, when his standing orders ask him (9.2).
	DecideReaction
	// DecideResponse: the defender decides whether his attacked units
	// Counter-Charge or Retreat Before Shock, when his standing orders ask
	// him (10.2, 11.5).
	DecideResponse
	// DecideCounterCharge: the owner of Mounted MAA fired at decides
	// whether it Counter-Charges the firer, when his standing orders ask
	// him (11.5, 11.6).
	DecideCounterCharge
	// DecideAdvance: the attacker chooses which unit advances into which
	// vacated hex, and its facing, when his standing orders ask him (10.5).
	DecideAdvance
	// DecideNegation: the Active player may play a Seizure Negation
	// counter against the Seizure Opportunity just played (B&R 6.3).
	DecideNegation
)

var decisionNames = map[DecisionKind]string{
	DecideActivation:    "activation",
	DecideActions:       "orders",
	DecideContinuation:  "continuation",
	DecideSeizure:       "seizure",
	DecideRetreat:       "retreat",
	DecideReturnFire:    "return fire",
	DecideReaction:      "reaction fire",
	DecideResponse:      "shock response",
	DecideCounterCharge: "counter-charge",
	DecideAdvance:       "advance",
	DecideNegation:      "seizure negation",
}

func (k DecisionKind) String() string {
	if s, ok := decisionNames[k]; ok {
		return s
	}
	return fmt.Sprintf("DecisionKind(%d)", int(k))
}

// Decision is what the game waits for and from whom. The zero Decision
// means the game waits for nobody: it is over.
type Decision struct {
	Kind DecisionKind `json:"kind,omitempty"`
	Side Side         `json:"side"`
}

// Waiting describes the pending decision in a line a player reads in a mail
// ("waiting for the French to decide whether to Seize Continuity").
func Waiting(sc *Scenario, st *State) string {
	d := st.Pending
	if st.Outcome != nil || d.Kind == 0 {
		return "the battle is over"
	}
	name := sc.SideName(d.Side)
	switch d.Kind {
	case DecideActivation:
		if cmds := pursuingCommands(sc, st, st.Pending.Side); len(cmds) > 0 {
			names := make([]string, len(cmds))
			for k, c := range cmds {
				names[k] = commandName(sc, c)
			}
			return fmt.Sprintf("waiting for the %s to activate a Battle in Pursuit for their Free Activation: %s (Blood & Roses 14.9)", name, strings.Join(names, " or "))
		}
		return fmt.Sprintf("waiting for the %s to choose a Command or Standard for their Free Activation, or to Pass (4.1)", name)
	case DecideActions:
		if st.Army {
			return fmt.Sprintf("waiting for the %s to move the units of their Army Activation, ending with END (B&R 6.1)", name)
		}
		if st.Ambush != "" {
			return fmt.Sprintf("waiting for the %s to bring %s out of its Ambush and attack with it, ending with END (B&R 16.1)", name, st.Ambush)
		}
		return fmt.Sprintf("waiting for the %s to give orders to %s, ending with END", name, commandLabel(sc, st.Command, st.ActiveStandard))
	case DecideContinuation:
		return fmt.Sprintf("waiting for the %s to choose a Command for Continuity, or to Pass (4.2)", name)
	case DecideSeizure:
		what := commandLabel(sc, st.Selected, "")
		if st.SelectedArmy {
			what = "Army Activation"
		}
		return fmt.Sprintf("waiting for the %s to decide whether to Seize Continuity before the %s roll for %s (4.3)",
			name, sc.SideName(d.Side.Other()), what)
	case DecideNegation:
		return fmt.Sprintf("waiting for the %s to decide whether to play a Seizure Negation counter against the %s' Seizure Opportunity (B&R 6.3)", name, sc.SideName(d.Side.Other()))
	case DecideRetreat:
		if r := st.Retreat; r != nil {
			return fmt.Sprintf("waiting for the %s to choose where %s retreats (12.3)", name, r.Unit)
		}
	case DecideAdvance:
		if st.Advance != nil {
			return fmt.Sprintf("waiting for the %s to choose which unit Advances after Combat, into which hex (10.5)", name)
		}
	case DecideReturnFire:
		if f := st.FireAsk; f != nil {
			return fmt.Sprintf("waiting for the %s to decide whether %s returns the fire of %s (9.2)", name, f.Target, f.Firer)
		}
	case DecideReaction:
		if p := st.Reaction; p != nil {
			return fmt.Sprintf("waiting for the %s to decide whether %s fire at %s, which has entered their Frontal hex (9.2)", name, strings.Join(p.Reactors, ", "), p.Mover)
		}
	case DecideCounterCharge:
		if f := st.FireAsk; f != nil {
			return fmt.Sprintf("waiting for the %s to decide whether %s Counter-Charges %s, which fires at it (11.5)", name, f.Target, f.Firer)
		}
	case DecideResponse:
		if p := st.Shock; p != nil {
			var units []string
			for _, r := range p.Responses {
				units = append(units, r.Unit)
			}
			return fmt.Sprintf("waiting for the %s to decide whether %s Counter-Charge or Retreat Before Shock (10.2, 11.5)", name, strings.Join(units, ", "))
		}
	}
	return "waiting for " + name
}

// Legal lists the orders the pending decision's owner may give now, in the
// order language, one line each: the same list validates an answer and fills
// the "what would be legal" of a refusal.
func Legal(sc *Scenario, st *State) []string {
	if st.Outcome != nil {
		return nil
	}
	var out []string
	switch st.Pending.Kind {
	case DecideActivation:
		if cmds := pursuingCommands(sc, st, st.Pending.Side); len(cmds) > 0 {
			// Blood & Roses 14.9: the Free Activation re-enters a Battle
			// in Pursuit (ruling R289).
			for _, c := range cmds {
				out = append(out, "ACTIVATE "+commandName(sc, c))
			}
			break
		}
		for _, c := range availableCommands(sc, st, st.Pending.Side) {
			out = append(out, "ACTIVATE "+commandName(sc, c))
		}
		if sc.Tables.Rules.ArmyActivation {
			if u, l := armyMembers(sc, st, st.Pending.Side); len(u) > 0 || len(l) > 0 {
				out = append(out, "ACTIVATE ARMY")
			}
		}
		for _, s := range activatableStandards(sc, st, st.Pending.Side) {
			out = append(out, "ACTIVATE STANDARD "+standardName(sc, s))
		}
		out = append(out, ambushForms(sc, st, st.Pending.Side)...)
		out = append(out, "PASS")
	case DecideActions:
		if len(st.Declared) == 0 {
			out = append(out, movementForms(sc, st)...)
			out = append(out, fireForms(sc, st)...)
		}
		out = append(out, shockForms(sc, st)...)
		if why, legal := undeclaredEngaged(sc, st); why != "" {
			// END would be refused (Arquebus 14.5): what answers it comes
			// first.
			out = append([]string{legal}, slices.DeleteFunc(out, func(l string) bool { return l == legal })...)
		} else {
			out = append(out, "END")
		}
	case DecideContinuation:
		for _, c := range continuationCommands(sc, st) {
			out = append(out, "CONTINUE "+commandName(sc, c))
		}
		if sc.Tables.Rules.ArmyActivation && st.LastArmy {
			if u, l := armyMembers(sc, st, st.Active); len(u) > 0 || len(l) > 0 {
				out = append(out, "CONTINUE ARMY")
			}
		}
		out = append(out, "PASS")
	case DecideSeizure:
		for _, c := range seizingCommands(sc, st, st.Pending.Side) {
			if sc.Tables.Rules.SeizureCounters {
				out = append(out, "SEIZE "+commandName(sc, c)+" WITH <counter>")
			} else {
				out = append(out, "SEIZE "+commandName(sc, c))
			}
		}
		out = append(out, "DECLINE")
	case DecideNegation:
		out = append(out, "NEGATE <counter>", "DECLINE")
	case DecideRetreat:
		out = append(out, retreatForms(st)...)
	case DecideAdvance:
		out = append(out, advanceForms(st)...)
	case DecideReturnFire:
		if f := st.FireAsk; f != nil {
			out = append(out, "RETURN FIRE "+f.Target, "HOLD FIRE "+f.Target)
		}
	case DecideReaction:
		out = append(out, reactForms(sc, st)...)
	case DecideResponse:
		out = append(out, responseForms(sc, st)...)
	case DecideCounterCharge:
		if f := st.FireAsk; f != nil {
			out = append(out, "COUNTER-CHARGE "+f.Target, "STAND "+f.Target)
		}
	}
	return out
}
