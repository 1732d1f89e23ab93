package engine

import (
	"fmt"
	"strings"
)

// BattleRuleNotes says, one sentence each, which of the battle rules of
// battle.go this battle switches on, for the players' first mail: they
// play by mail and never see the battle file.
func BattleRuleNotes(sc *Scenario) []string {
	var out []string
	for _, c := range sc.Commands {
		if c.Arrives > 1 {
			out = append(out, fmt.Sprintf("The units of %s (%s) may enter from the battle's Activation %d on, through %s; the first Activation of the battle is 1, and every Command's or Standard's counts (5.3, R112).",
				c.Name, sc.SideName(c.Side), c.Arrives, hexList(c.Entry)))
		}
	}
	for _, c := range sc.Commands {
		switch n := c.ShieldWallOrders; {
		case n == nil:
		case *n == 0:
			out = append(out, fmt.Sprintf("%s (%s) may not order Shield Wall or Schiltron in this battle (14.1, R110).", c.Name, sc.SideName(c.Side)))
		default:
			out = append(out, fmt.Sprintf("%s (%s) may order Shield Wall or Schiltron %s in this battle (14.1, R110).", c.Name, sc.SideName(c.Side), times(*n)))
		}
	}
	marked := func(has func(UnitSpec) bool) []string {
		var ids []string
		for _, u := range sc.Units {
			if has(u) {
				ids = append(ids, u.ID)
			}
		}
		return ids
	}
	if ids := marked(func(u UnitSpec) bool { return u.ShieldWall }); len(ids) > 0 {
		out = append(out, fmt.Sprintf("In Shield Wall from set-up: %s (14.1).", strings.Join(ids, ", ")))
	}
	if ids := marked(func(u UnitSpec) bool { return u.Schiltron }); len(ids) > 0 {
		out = append(out, fmt.Sprintf("In Schiltron from set-up: %s (Herald's rule R89).", strings.Join(ids, ", ")))
	}
	if ids := marked(func(u UnitSpec) bool { return u.NoRetreat }); len(ids) > 0 {
		out = append(out, fmt.Sprintf("Under No Retreat: %s. They never retreat: the Retreat part of a result Disorders a Normal unit and leaves a Disordered one in its hex (Herald's rule R115).", strings.Join(ids, ", ")))
	}
	for _, key := range sc.Rules.NoZOC {
		name := key
		if t := sc.Tables.UnitTypes[key]; t != nil && t.Name != "" {
			name = t.Name
		}
		out = append(out, fmt.Sprintf("%s exert no ZOC in this battle (7.2 Design Note, R114).", name))
	}
	if v := sc.Rules.VictoryPoints; v != nil {
		s := "Victory Points decide this battle, not Loss Checks: each side scores the Flight Points its enemy has suffered, counted at the end of every Free Activation"
		if v.WinAt > 0 {
			s += fmt.Sprintf("; %d or more, and more than the enemy, wins at once", v.WinAt)
		}
		if v.LastActivation > 0 {
			s += fmt.Sprintf("; after the battle's Activation %d the side with more wins, equal points a draw", v.LastActivation)
		}
		out = append(out, s+" (Infidel 2.4, Herald's rule R176).")
	}
	if te := sc.Rules.TimedEngagement; te != nil {
		out = append(out, fmt.Sprintf("A Timed Engagement: the time marker starts on %d; each Free Activation the %s pass moves it one space towards 0, and when it reaches 0 the timed %s lose (Blood & Roses 16.2, R270).",
			te.Start, sc.SideName(te.Timed.Other()), sc.SideName(te.Timed)))
	}
	if sc.Rules.BattleFlight {
		out = append(out, fmt.Sprintf("Battle Flight (optional) is in use: at the end of every Activation a Battle with more than half of its units Eliminated or Retired checks once, and flees on %d or less plus its leader's Charisma (Blood & Roses 14.8, R271).",
			sc.Tables.Rules.BattleFlightMax))
	}
	for _, a := range sc.Rules.Ambushes {
		// The Ambush is public: it is in the battle's rules (ruling R279).
		if i := unitIdx(sc, a.Unit); i >= 0 {
			u, kind := sc.Units[i], sc.Units[i].Type
			if t := sc.Tables.UnitTypes[kind]; t != nil {
				kind = t.Name
			}
			out = append(out, fmt.Sprintf("The %s have an Ambush: %s (%s) is not on the map; in any of their Free Activations it may come out through %s (ACTIVATE AMBUSH), In Command, with double its Movement Allowance, strike the enemy units next to it (Disordered ones Retire, the others are Disordered) and Shock; then it is a unit of %s (Blood & Roses 16.1, R274-R279).",
				sc.SideName(u.Side), u.ID, kind, hexList(a.Enter), commandName(sc, a.Joins)))
		}
	}
	if pt := sc.Tables.Rules.Pursuit; sc.Rules.Pursuit && pt != nil {
		out = append(out, fmt.Sprintf("Pursuit (optional) is in use: the Battle activated when an enemy Battle flees Pursues on %d or less plus its leader's Charisma, else by STANDING PURSUIT ALWAYS; its Pursuers come back through the fled Battle's Standard on %d or more when their Battle is given a Free Activation, which it must be, or any Activation if its leader went with them (Blood & Roses 14.9, R284-R289).",
			pt.PursuesMax, pt.ReturnsMin))
	}
	for _, b := range sc.Bombards {
		out = append(out, fmt.Sprintf("The %s have a Bombard in %s: %s missile fire at a Mounted unit within %d hexes of it gets %+d while no enemy unit stands on it (Herald's rule R116).",
			sc.SideName(b.Side), b.Hex, sc.SideName(b.Side), b.Range, sc.Tables.FireDRM.Bombard))
	}
	for _, side := range sc.Sides {
		for _, x := range side.ExtraFlightPoints {
			points := fmt.Sprintf("%d Flight Points", x.Points)
			if x.Points == 1 {
				points = "1 Flight Point"
			}
			out = append(out, fmt.Sprintf("The %s add %s %s (16.0, R117).", side.Name, points, x.condition(sc)))
		}
	}
	return append(out, leaderNotes(sc)...)
}

// condition words an extra Flight Point's condition.
func (x ExtraFP) condition(sc *Scenario) string {
	switch {
	case x.StandardCaptured != "":
		name := x.StandardCaptured
		for _, st := range sc.Standards {
			if st.ID == name && st.Name != "" {
				name = st.Name
			}
		}
		return "if their Standard (" + name + ") is captured"
	case len(x.EnemyIn) > 0:
		return fmt.Sprintf("for each of %s in which an enemy unit (not Retired) stands", hexList(x.EnemyIn))
	case len(x.Eliminated) > 0:
		return "for each of " + strings.Join(x.Eliminated, ", ") + " Eliminated, over its type's"
	case x.LeaderLost != "":
		name := x.LeaderLost
		if l := sc.Leader(name); l != nil {
			name = l.Name
		}
		return "each time " + name + " is killed or captured, over 16.0's"
	}
	return ""
}
