package engine

import (
	"fmt"
	"slices"

	"herald/engine/hex"
)

// BATTLE RULES. The core book leaves several things to "the individual
// battles" of its Battle Book, which Herald does not have: when
// reinforcements arrive (5.3), how often Shield Wall may be ordered
// (14.1), extra Flight Points (16.0), the Nájera Genitors' exceptions to
// the ZOC rules (7.2 Design Note), and the Bombard, Wagon and No Retreat
// markers of the components list (2.2), of which the book says nothing
// more. A scenario switches each on by name (docs/data-format.md); none
// is tied to a battle's id. Where the book gives no rule the rule here is
// Herald's own, and docs/rulings.md says so (R110–R129).

// BattleRules are a battle's named rule switches.
type BattleRules struct {
	// NoZOC lists unit types that exert no ZOC in this battle (Herald's
	// reading of the 7.2 Design Note for the Genitors at Nájera: skirmishers
	// who gave ground rather than hold it; ruling R114).
	NoZOC []string
	// AttackerShock are the Shock DRMs of an attacker's own terrain, by
	// the terrain of the hex it attacks from and its class (10.4 #2B "In
	// some battles there are also modifiers for the attacker's terrain").
	AttackerShock map[string]map[Class]int
	// VictoryPoints, when set, decide the battle instead of Loss Checks
	// (Infidel 2.4: "The battle of Arsuf uses Victory Points"; Herald's
	// own rule R176).
	VictoryPoints *VictoryPoints
	// TimedEngagement, when set, makes the battle a Timed Engagement
	// (Blood & Roses 16.2).
	TimedEngagement *TimedEngagement
	// BattleFlight: the players use the optional Battle Flight (Blood &
	// Roses 14.8), with the tables' rules.battle_flight_max.
	BattleFlight bool
	// Ambushes are the battle's Ambushes (Blood & Roses 16.1), each a
	// Cavalry unit not deployed at the start (engine/ambush.go).
	Ambushes []Ambush
	// Pursuit: the players use the optional Pursuit (Blood & Roses 14.9)
	// with Battle Flight, and the tables' rules.pursuit.
	Pursuit bool
}

// TimedEngagement (Blood & Roses 16.2): "The time marker starts at a
// space on the General Track as defined in the battle. The timed player
// loses the battle if the time marker reaches the zero (0) space on the
// General Track. The non-timed player may Pass when he has a Free
// Activation and move the time marker one (1) space towards zero (0).
// This is the only way the time marker is moved." Timed is the timed
// side, Start the marker's first space (1 or more).
type TimedEngagement struct {
	Timed Side
	Start int
}

// TimeLeft is the space the time marker of a Timed Engagement is on, or
// -1 when the battle is not one.
func TimeLeft(sc *Scenario, st *State) int {
	if sc.Rules.TimedEngagement == nil {
		return -1
	}
	return sc.Rules.TimedEngagement.Start - st.TimeMoved
}

// VictoryPoints: each side scores the Flight Points its enemy has
// suffered (3.0, with the enemy's battle extra points), counted at the end
// of every Free Activation. A side with WinAt points or more, and more than
// its enemy, wins then; after the battle's LastActivation the side with
// more wins, equal points a draw (ruling R176).
type VictoryPoints struct {
	LastActivation int
	WinAt          int
}

// BombardSpec is a Bombard marker (2.2 "Bombard (Crecy)"). Herald's own
// rule (ruling R116): it is not a unit and never moves; while no enemy
// combat unit stands in its hex, missile fire by its side's units at a
// Mounted unit within Range hexes of it gets the tables' fire_drm.bombard
// (the noise frightened the horses).
type BombardSpec struct {
	Side  Side
	Hex   hex.Hex
	Range int
}

// ExtraFP is one of a side's battle-specific Flight Points (16.0 "Some
// battles will have special rules for additional FPs"). Exactly one
// condition is set; Points are added for each time it holds.
type ExtraFP struct {
	Points int
	// StandardCaptured: the side's Standard with this id is captured.
	StandardCaptured string
	// EnemyIn: each of these hexes in which an enemy combat unit (not
	// Retired) stands.
	EnemyIn []hex.Hex
	// Eliminated: each of these units of the side that is Eliminated, over
	// and above its type's Flight Points.
	Eliminated []string
	// LeaderLost: each time this leader has been killed or captured, over
	// and above the 16.0 points.
	LeaderLost string
}

// extraFlightPoints adds up a side's battle-specific Flight Points from the
// state (ruling R117): like the 16.0 points they follow the position, so a
// hex retaken stops counting.
func extraFlightPoints(sc *Scenario, st *State, side Side) int {
	fp := 0
	for _, x := range sc.Sides[side].ExtraFlightPoints {
		fp += x.Points * x.times(sc, st, side)
	}
	return fp
}

// times counts how often the condition holds.
func (x ExtraFP) times(sc *Scenario, st *State, side Side) int {
	n := 0
	switch {
	case x.StandardCaptured != "":
		if s := st.Standard(x.StandardCaptured); s != nil && s.Captured {
			n = 1
		}
	case len(x.EnemyIn) > 0:
		for i, u := range sc.Units {
			us := st.Units[i]
			if u.Side != side && onField(st, i) && us.Status != Retired && slices.Contains(x.EnemyIn, us.Hex) {
				n++
			}
		}
	case len(x.Eliminated) > 0:
		for _, id := range x.Eliminated {
			if u := st.Unit(id); u != nil && u.Status == Eliminated {
				n++
			}
		}
	case x.LeaderLost != "":
		if l := st.Leader(x.LeaderLost); l != nil {
			n = l.Losses
		}
	}
	return n
}

// arrived: the Command's reinforcements may enter now (5.3, the battle's
// schedule; ruling R112). The Activation under way counts: a Command
// that arrives in Activation 5 may enter during it.
func arrived(sc *Scenario, st *State, command string) bool {
	c := sc.Command(command)
	return c == nil || st.Activations >= c.Arrives
}

// arrivalAllowed refuses a reinforcement's entry before its time.
func arrivalAllowed(sc *Scenario, st *State, i int) *moveError {
	if !st.Units[i].OffMap || arrived(sc, st, sc.Units[i].Command) {
		return nil
	}
	c := sc.Command(sc.Units[i].Command)
	return moveErr("5.3", "%s arrives with %s from the battle's Activation %d on; this is Activation %d (the battle's reinforcement schedule)",
		sc.Units[i].ID, c.Name, c.Arrives, st.Activations)
}

// zocSuppressed: the battle denies unit type key a ZOC (7.2 Design Note,
// ruling R114).
func zocSuppressed(sc *Scenario, key string) bool {
	return slices.Contains(sc.Rules.NoZOC, key)
}

// bombardDRM is the Bombard's DRM on a shot by firer at a Mounted target
// (ruling R116): once, however many Bombards are in range.
func bombardDRM(sc *Scenario, st *State, firer, target int) (int, *BombardSpec) {
	t := unitType(sc, st, target)
	if t == nil || !t.Mounted || sc.Tables.FireDRM.Bombard == 0 {
		return 0, nil
	}
	for k, b := range sc.Bombards {
		if b.Side != sc.Units[firer].Side || enemyOccupied(sc, st, b.Side, b.Hex) {
			continue
		}
		if sc.Map.Grid.Distance(b.Hex, st.Units[target].Hex) <= b.Range {
			return sc.Tables.FireDRM.Bombard, &sc.Bombards[k]
		}
	}
	return 0, nil
}

// enemyOccupied: a combat unit of side's enemy stands in h.
func enemyOccupied(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for i, u := range sc.Units {
		if u.Side != side && onField(st, i) && st.Units[i].Hex == h {
			return true
		}
	}
	return false
}

// noRetreat: a unit with a No Retreat marker never retreats (Herald's own
// rule, ruling R115): the Retreat part of a result is replaced by Disorder
// (12.2) for a Normal unit, and by nothing for a Disordered one, which
// holds its hex; the rest of the result stands. It reports whether it took
// the place of the retreat. Attackers are the units the retreat was from.
func (g *game) noRetreat(i int, cause string, attackers []int) bool {
	us := g.st.Units[i]
	if !us.NoRetreat && !us.Schiltron || us.Status == Retired || !onField(g.st, i) {
		return false
	}
	marker := "No Retreat"
	if us.Schiltron {
		marker = "Schiltron" // ruling R89
	}
	if us.Status == Normal {
		g.disorder(i, cause+"; in "+marker+" it is Disordered instead of retreating", attackers)
		return true
	}
	g.emit(HeldGround{Unit: g.sc.Units[i].ID, Cause: cause, Schiltron: us.Schiltron})
	return true
}

// HeldGround: a Disordered unit under No Retreat did not retreat (ruling
// R115).
type HeldGround struct {
	Unit      string `json:"unit"`
	Cause     string `json:"cause"`
	Schiltron bool   `json:"schiltron,omitempty"` // in Schiltron (ruling R89)
}

func (HeldGround) apply(*State) {}

func (e HeldGround) describe(*Scenario) string {
	if e.Schiltron {
		return fmt.Sprintf("%s stands in Schiltron and holds its hex instead of retreating (%s; R89).", e.Unit, e.Cause)
	}
	return fmt.Sprintf("%s stands under No Retreat and holds its hex instead of retreating (%s).", e.Unit, e.Cause)
}

func init() { registerEvents(HeldGround{}) }

// TimeMarkerMoved: the non-timed side passed a Free Activation and moved
// the time marker one space towards zero; Left is the space it is on now
// (Blood & Roses 16.2).
type TimeMarkerMoved struct {
	Side Side `json:"side"`
	Left int  `json:"left"`
}

func (e TimeMarkerMoved) apply(st *State) { st.TimeMoved++ }

func (e TimeMarkerMoved) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s pass and move the time marker to %d (Blood & Roses 16.2).", sc.SideName(e.Side), e.Left)
}

func init() { registerEvents(TimeMarkerMoved{}) }
