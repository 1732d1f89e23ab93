package data

import (
	"fmt"
	"strings"

	"herald/engine"
)

// Result cells are written as the tables print them and parsed into
// effects (12.0):
//
//	No Effect                                  nothing happens ("No Result", "NE" too)
//	Disordered                                 the target is Disordered (Fire table)
//	Retreat 1 Hex / Retire / Eliminated        the target retreats, retires, is eliminated
//	Attacker Disordered, Retreat 1 Hex         both effects on the attacker
//	Defender Disordered, Retreat 1 Hex, Continued Attack
//	Attacker Disordered or Retreat 1 Hex       one or the other, each attacker its own (Blood & Roses 14.1)
//
// A cell is a comma-separated list of effects. An effect may begin with
// "Attacker" or "Defender" (the Shock and Charge tables); later effects
// without one apply to the same unit as the effect before them, the first
// to the defender (the Fire table's target). The words are Disordered
// (Disorder), Retreat [N Hex|Hexes], Retire (Retired), Unhorsed,
// Eliminated, Continued Attack (Continue Attack), which the attacker
// earns, and Engaged, which binds the attackers and the defender together
// whichever side it is written on (Arquebus 14.5). Any other word is an
// error.

const resultWords = "No Effect; [Attacker|Defender] Disordered, Retreat N Hex, Retire, Unhorsed, Eliminated; Continued Attack; Engaged"

// parseResult parses one cell; fire is true for the Fire table, whose
// results fall only on the target.
func parseResult(text string, fire bool) (engine.Result, error) {
	res := engine.Result{Text: strings.TrimSpace(text)}
	norm := strings.ToLower(strings.Join(strings.Fields(text), " "))
	switch norm {
	case "":
		return res, fmt.Errorf("empty result: write No Effect for nothing")
	case "no effect", "no result", "ne", "-", "—":
		return res, nil
	}
	attacker := false
	seen := map[string]bool{}
	for _, orig := range strings.Split(res.Text, ",") {
		clause := strings.ToLower(orig)
		words := strings.Fields(clause)
		if len(words) == 0 {
			return res, fmt.Errorf("empty part in %q", res.Text)
		}
		switch words[0] {
		case "attacker", "attacker's":
			if fire {
				return res, fmt.Errorf("%q: Fire table results fall on the target only; leave out \"Attacker\"", strings.TrimSpace(orig))
			}
			attacker = true
			words = words[1:]
		case "defender", "defender's", "target":
			attacker = false
			words = words[1:]
		}
		if len(words) == 0 {
			return res, fmt.Errorf("%q names no effect", strings.TrimSpace(orig))
		}
		if alt, rest, ok := strings.Cut(strings.Join(words, " "), " or "); ok {
			// Blood & Roses 14.1: "a choice of Disorder or Retreat",
			// for the attacker, each unit its own.
			d, errD := parseResult("Attacker "+alt, false)
			r, errR := parseResult("Attacker "+rest, false)
			if fire || !attacker || res.AttackerChoice || errD != nil || errR != nil || len(d.Attacker) != 1 || len(r.Attacker) != 1 ||
				d.Attacker[0].Kind != engine.EffectDisordered || r.Attacker[0].Kind != engine.EffectRetreat || len(res.Attacker) > 0 {
				return res, fmt.Errorf("%q: the only choice a result gives is the attacker's, once, alone: Attacker Disordered or Retreat N Hex (Blood & Roses 14.1)", strings.TrimSpace(orig))
			}
			res.AttackerChoice = true
			res.Attacker = append(res.Attacker, d.Attacker[0], r.Attacker[0])
			seen["attackerDisordered"], seen["attackerRetreat"] = true, true
			continue
		}
		var eff engine.Effect
		switch w := strings.Join(words, " "); {
		case w == "disordered" || w == "disorder" || w == "disorders":
			eff.Kind = engine.EffectDisordered
		case w == "retire" || w == "retired" || w == "retires":
			eff.Kind = engine.EffectRetired
		case w == "unhorsed":
			eff.Kind = engine.EffectUnhorsed
		case w == "eliminated" || w == "eliminate":
			eff.Kind = engine.EffectEliminated
		case w == "engaged":
			// Arquebus 14.5: both sides of the combat are Engaged (R380).
			if fire {
				return res, fmt.Errorf("%q: the Fire table has no Engaged result (Arquebus 14.5 is a Shock result)", strings.TrimSpace(orig))
			}
			if res.Engaged {
				return res, fmt.Errorf("Engaged given twice in %q", res.Text)
			}
			res.Engaged = true
			continue
		case w == "continued attack" || w == "continue attack":
			if fire {
				return res, fmt.Errorf("%q: the Fire table has no Continued Attack (12.7 is a Shock result)", strings.TrimSpace(orig))
			}
			if clauseSubject(clause) == "defender" {
				return res, fmt.Errorf("%q: a Continued Attack is earned by the attacker", strings.TrimSpace(orig))
			}
			if res.ContinuedAttack {
				return res, fmt.Errorf("Continued Attack given twice in %q", res.Text)
			}
			res.ContinuedAttack = true
			continue
		case words[0] == "retreat" || words[0] == "retreats":
			eff.Kind = engine.EffectRetreat
			eff.Hexes = 1
			switch {
			case len(words) == 1:
			case len(words) == 3 && (words[2] == "hex" || words[2] == "hexes"):
				n, ok := atoi(words[1])
				if !ok || n < 1 || n > 9 {
					return res, fmt.Errorf("%q: a Retreat is 1 to 9 hexes", strings.TrimSpace(orig))
				}
				eff.Hexes = n
			default:
				return res, fmt.Errorf("%q: write Retreat N Hex (e.g. Retreat 1 Hex)", strings.TrimSpace(orig))
			}
		default:
			return res, fmt.Errorf("unknown result %q in %q (known: %s)", strings.TrimSpace(orig), res.Text, resultWords)
		}
		who := "defender"
		if attacker {
			who = "attacker"
		}
		if key := who + eff.Kind.String(); seen[key] {
			return res, fmt.Errorf("%s %s given twice in %q", who, eff.Kind, res.Text)
		} else {
			seen[key] = true
		}
		if attacker {
			res.Attacker = append(res.Attacker, eff)
		} else {
			res.Defender = append(res.Defender, eff)
		}
	}
	return res, nil
}

func clauseSubject(clause string) string {
	f := strings.Fields(clause)
	if len(f) > 0 && (f[0] == "defender" || f[0] == "target") {
		return "defender"
	}
	return ""
}
