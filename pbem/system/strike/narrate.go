package strike

import (
	"fmt"
	"strings"

	"herald/engine/strike/battle"
	"herald/pbem/system"
)

// headings of the fragment (and Herald's house rules) a line cites.
var moveRule = map[string]string{
	battle.MoveForward:  "HOUSE MOVEMENT (R543)",
	battle.MoveBack:     "HOUSE MOVEMENT (R543)",
	battle.MoveWheel:    "HOUSE MOVEMENT (R543)",
	battle.MoveTurn:     "HOUSE MOVEMENT (R543)",
	battle.MoveCharge:   "1. DECLARE CHARGES and ADVANCE 1 MOVE",
	battle.MoveCounter:  "FORMED CAVALRY, DISMOUNTED KNIGHTS and MAA",
	battle.MoveRetreat:  "B. RETREAT AFTER MELEE",
	battle.MoveFallBack: "HOUSE MORALE (R526)",
	battle.MoveRetire:   "SKIRMISHERS/LIGHT CAVALRY/HORSE ARCHERS",
}

var fireRule = map[string]string{
	"":                "SHOOTING PROCEDURE",
	"return fire":     "RATE OF FIRE (ROF)",
	"supporting fire": "SUPPORTING UNIT REACTIONS",
	"stand and fire":  "MISSILES",
	"fire and retire": "SKIRMISHERS/LIGHT CAVALRY/HORSE ARCHERS",
}

// Narrate tells what a batch of events did, a line or more an event, in
// plain English with the heading of the fragment that decided it, each
// die named by its purpose. The strike game hides nothing: both sides
// read the same lines. The events carry their own dice; rolls (the
// batch's log) must hold as many dice as the events name.
func (b *Battle) Narrate(events [][]byte, rolls []system.Roll, side int) ([]string, error) {
	var out []string
	dice := 0
	say := func(rule, format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		if rule != "" {
			s += " (" + rule + ")"
		}
		out = append(out, s)
	}
	dieLines := func(rs []battle.RollRec) {
		for _, r := range rs {
			dice++
			res := "a miss"
			switch r.Strikes {
			case 1:
				res = "a strike"
			case 2:
				res = "a double strike"
			}
			out = append(out, fmt.Sprintf("  d20 for %s: %d, %s", r.Who, r.Roll, res))
		}
	}
	evs := make([]battle.Event, len(events))
	for i, raw := range events {
		e, err := battle.DecodeEvent(raw)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		evs[i] = e
	}
	// shootsNext: the volley after event i is the target's own SHOOT,
	// answered first by a faster shooter (RATE OF FIRE).
	shootsNext := func(i int, who string) bool {
		if i+1 >= len(evs) {
			return false
		}
		v, ok := evs[i+1].Data.(*battle.VolleyEvent)
		return ok && v.Shooter == who && v.Fire == ""
	}
	charged := map[string]bool{} // units whose first charge move was told
	for i, e := range evs {
		switch d := e.Data.(type) {
		case *battle.ChargeEvent:
			say("1. DECLARE CHARGES and ADVANCE 1 MOVE", "%s charge %s in its %s, %s\" away (charge move %s\")", b.name(d.Unit), d.Target, d.Aspect, inch(d.Inches), inch(d.Reach))
		case *battle.MovedEvent:
			what := map[string]string{
				battle.MoveForward: "moves forward", battle.MoveBack: "moves back", battle.MoveWheel: "wheels",
				battle.MoveTurn: "turns", battle.MoveCharge: "charges", battle.MoveCounter: "counter-charges",
				battle.MoveRetreat: "retreats", battle.MoveFallBack: "falls back", battle.MoveRetire: "retires",
			}[d.Order]
			s := fmt.Sprintf("%s %s", b.name(d.Unit), what)
			if d.Inches > 0 && d.Order != battle.MoveTurn {
				s += " " + inch(d.Inches) + "\""
			}
			if d.Target != "" {
				s += " towards " + d.Target
			}
			rule := moveRule[d.Order]
			if d.Order == battle.MoveCharge {
				if charged[d.Unit] {
					rule = "3. ADVANCE CHARGING UNIT TO CONTACT, 4. MATCH UP"
				}
				charged[d.Unit] = true
			}
			say(rule, "%s, now facing %g°", s, round(d.Facing))
		case *battle.ReactionEvent:
			s := fmt.Sprintf("%s react to %s's charge: %s", b.name(d.Unit), d.Charger, d.Reaction)
			if d.Why != "" {
				s += ": " + d.Why
			}
			rule := "2. REACTION TO A CHARGE"
			if d.Reaction == "shoot" || strings.Contains(d.Why, "in support") {
				rule = "SUPPORTING UNIT REACTIONS"
			}
			say(rule, "%s", s)
		case *battle.VolleyEvent:
			what := "shoot at"
			switch d.Fire {
			case "":
			case "return fire":
				what = "must shoot back at"
				if shootsNext(i, d.Target) {
					what = "must shoot back, and with the higher rate of fire roll first, at"
				}
			default:
				what = d.Fire + " at"
			}
			say(fireRule[d.Fire], "%s %s %s with %s", b.name(d.Shooter), what, d.Target, plural(len(d.Rolls), "stand", "stands"))
			dieLines(d.Rolls)
			res := "no effect"
			if d.Strikes > 0 {
				res = d.Result + " on the Strike Results Table"
			}
			s := fmt.Sprintf("  %s: %s", plural(d.Strikes, "strike", "strikes"), res)
			if d.StandsLost > 0 {
				s += fmt.Sprintf("; %s lose %s", d.Target, plural(d.StandsLost, "stand", "stands"))
			}
			say("Strike Results Table (SRT)", "%s", s)
		case *battle.CheckEvent:
			dice++
			rule := "PERSONALITIES UNDER FIRE"
			if d.Why == "after the melee" {
				rule = "C. PERSONAL COMBAT SKILL CHECKS (PCS)"
			}
			res := "unharmed"
			switch {
			case d.Killed:
				res = "killed (a second wound)"
			case !d.Unharmed:
				res = "wounded"
			}
			say(rule, "%s with %s, %s: d20 for his check (under %d): %d, %s", d.Name, d.Unit, d.Why, d.Need, d.Roll, res)
		case *battle.MeleeEvent:
			say("5. MELEE RESOLUTION", "Melee: %s against %s's %s", d.Attacker.Unit, d.Defender.Unit, d.Aspect)
			for _, s := range []battle.MeleeSideRec{d.Attacker, d.Defender} {
				say("COMBAT TABLE", "  %s fight with %s at %s", b.name(s.Unit), plural(s.Fighters, "stand", "stands"), s.CV)
				dieLines(s.Rolls)
			}
			loser, winner := d.Defender, d.Attacker
			if d.AttackerLost {
				loser, winner = d.Attacker, d.Defender
			}
			tie := ""
			if winner.Strikes == loser.Strikes {
				tie = " (ties always go to the defender or counter-charger)"
			}
			say("MELEEPROCEDURE", "  %s scored %d, %s %d: %s is the original loser%s", winner.Unit, winner.Strikes, loser.Unit, loser.Strikes, loser.Unit, tie)
			for _, s := range []battle.MeleeSideRec{d.Attacker, d.Defender} {
				if s.Taken != "NE" || s.StandsLost > 0 {
					say("Strike Results Table (SRT)", "  %s suffer %s on the table, losing %s", s.Unit, s.Taken, plural(s.StandsLost, "stand", "stands"))
				}
			}
		case *battle.MoraleEvent:
			dice++
			say("HOUSE MORALE (R526)", "%s morale check after %s: d20 %d, %s", b.name(d.Unit), d.Why, d.Roll, d.Outcome)
		case *battle.StatusEvent:
			rule := "REAR and FLANK ATTACKS"
			if strings.Contains(d.Why, "R550") {
				rule = "HOUSE RALLY (R550)"
			}
			say(rule, "%s: %s", b.name(d.Unit), d.Why)
		case *battle.CaptureEvent:
			dice++
			say("C. CAPTURING A PERSONALITY OR BANNER", "The opposing Warlord draws a card for %s of %s: %s, %s", d.Name, d.Unit, d.Card, d.Fate)
		case *battle.RemovedEvent:
			say("", "%s are %s: %s", b.name(d.Unit), d.Gone, d.Why)
		case *battle.FailedEvent:
			say("FAILED CHARGES", "%s's charge at %s fails: %s", d.Unit, d.Target, d.Why)
		case *battle.EndEvent:
			say("HOUSE TURN SEQUENCE (R542)", "The %s end their block of turn %d", b.B.Sides[d.Side], d.Turn)
		case *battle.OverEvent:
			say("HOUSE VICTORY (R540)", "The battle is over: %s", d.Result)
		}
	}
	if rolls != nil && len(rolls) != dice {
		return nil, fmt.Errorf("strike: the events name %d dice, the batch has %d", dice, len(rolls))
	}
	return out, nil
}

// name is "Kn1 (Knights of the Star)".
func (b *Battle) name(id string) string {
	if i := b.B.Index(id); i >= 0 {
		return fmt.Sprintf("%s (%s)", id, b.B.Units[i].Name)
	}
	return id
}

func inch(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

func round(v float64) float64 {
	return float64(int64(v*10+0.5)) / 10
}
