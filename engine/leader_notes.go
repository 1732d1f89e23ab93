package engine

import (
	"fmt"
	"strings"
)

// leaderNotes word what a battle's leaders bring under its volume's
// rules, for the players' first mail (BattleRuleNotes): each Overall
// Commander (Infidel 3.0, 5.3) and each leader's Charisma (5.4).
func leaderNotes(sc *Scenario) []string {
	var out []string
	r, fp := sc.Tables.Rules, sc.Tables.FlightPoints
	for _, l := range sc.Leaders {
		if !l.OC {
			continue
		}
		var parts []string
		if r.OCActivationBonus != 0 {
			parts = append(parts, fmt.Sprintf("the other leaders within his Command Range roll Continuation and Seizure at %+d to their Activation Rating (5.3)", r.OCActivationBonus))
		}
		if len(r.LeaderPresenceTypes) > 0 {
			parts = append(parts, fmt.Sprintf("%s stacked with him attack at %+d, as with their own leader (12.3 #4)", typeNames(sc, r.LeaderPresenceTypes), sc.Tables.ShockDRM.Leader))
		}
		if fp.OverallCommander > 0 {
			parts = append(parts, fmt.Sprintf("losing him costs %d Flight Points (3.0)", fp.OverallCommander))
		}
		if len(parts) > 0 {
			out = append(out, fmt.Sprintf("%s is the Overall Commander of the %s: %s.", l.Name, sc.SideName(l.Side), strings.Join(parts, "; ")))
		}
	}
	if len(r.CharismaTypes) > 0 || r.LeaderCharisma {
		who := "any unit"
		if len(r.CharismaTypes) > 0 {
			who = typeNames(sc, r.CharismaTypes)
		}
		for _, l := range sc.Leaders {
			if l.Charisma != 0 {
				out = append(out, fmt.Sprintf("%s (%s) has a Charisma of %+d: added when %s stacked with him attack (5.4, 12.3 #4).", l.Name, sc.SideName(l.Side), l.Charisma, who))
			}
		}
	}
	return out
}

// typeNames is "Knights and Heavy Cavalry": the types' names.
func typeNames(sc *Scenario, keys []string) string {
	var names []string
	for _, k := range keys {
		if t := sc.Tables.UnitTypes[k]; t != nil && t.Name != "" {
			names = append(names, t.Name)
		} else {
			names = append(names, k)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
