package engine

import "fmt"

// 16.0 VICTORY

// FlightPoints counts a side's Flight Points (16.0): the battle's starting
// points, plus for each of its units the type's points when Eliminated, or
// the Retired value when Retired. Counting from the units' present status
// settles two questions the core book leaves open the way the later volumes
// answer them (docs/rulings.md R17): a Retired unit later Eliminated counts
// only its Eliminated value, and a Retired unit that rallies stops counting.
// The battle's own extra Flight Points are counted the same way (battle.go).
func FlightPoints(sc *Scenario, st *State, side Side) int {
	fp := sc.Sides[side].FlightPoints + extraFlightPoints(sc, st, side)
	for i, u := range sc.Units {
		if u.Side != side {
			continue
		}
		switch st.Units[i].Status {
		case Eliminated:
			fp += unitType(sc, st, i).FlightPoints
		case Retired:
			fp += sc.Tables.FlightPoints.Retired
		}
	}
	for i, l := range sc.Leaders {
		if l.Side != side {
			continue
		}
		losses := st.Leaders[i].Losses
		if sc.Tables.FlightPoints.NamedLeadersOnly {
			losses = min(losses, 1)
		}
		if ls := st.Leaders[i]; ls.Fled && losses == 0 && !ls.Replaced {
			// Blood & Roses 3.0 "5 FP for your Overall Commander being
			// Eliminated (5.5) or fleeing", 14.8 "Fleeing leaders (other
			// than the Overall Commander or King) do not count".
			switch {
			case l.King:
				fp += sc.Tables.FlightPoints.King
			case l.OC:
				fp += sc.Tables.FlightPoints.OverallCommander
			}
			continue
		}
		switch {
		case l.King:
			fp += losses * sc.Tables.FlightPoints.King
		case l.OC && losses > 0 && sc.Tables.FlightPoints.OverallCommander > 0:
			// Infidel 3.0 "5 FP for losing your Overall Commander"; his
			// Replacement is a Command leader only (5.6).
			fp += sc.Tables.FlightPoints.OverallCommander + (losses-1)*sc.Tables.FlightPoints.Leader
		default:
			fp += losses * sc.Tables.FlightPoints.Leader
		}
	}
	return fp
}

// lossChecks: at the end of each Free Activation each player rolls one die
// and adds his Flight Points; above his Flight Level he loses, and if both
// players' totals exceed their levels the battle is a draw (16.0). The
// active player rolls first.
func (g *game) lossChecks() error {
	if g.sc.Rules.VictoryPoints != nil {
		return g.victoryPoints(*g.sc.Rules.VictoryPoints)
	}
	first := g.st.Active
	var lost [2]bool
	for _, side := range []Side{first, first.Other()} {
		fp := FlightPoints(g.sc, g.st, side)
		level := g.sc.Sides[side].FlightLevel
		if fp+9 <= level {
			// "Loss Checks will be unnecessary as players will be unable
			// to exceed their Flight Level with the roll of one die"
			// (16.0): no die is rolled (docs/rulings.md R38).
			g.emit(LossCheckRolled{Side: side, FlightPoints: fp, FlightLevel: level})
			continue
		}
		mod := Modifier{DRM: fp, Reason: "Flight Points", Rule: "16.0"}
		r, err := g.roll(fmt.Sprintf("Loss Check: %s (Flight Level %d)", g.sc.SideName(side), level), mod)
		if err != nil {
			return err
		}
		lost[side] = r.Total > level
		g.emit(LossCheckRolled{Side: side, Roll: &r, FlightPoints: fp, FlightLevel: level, Lost: lost[side]})
	}
	g.endBattle(lost, "both armies failed their Loss Checks: a draw (16.0)", func(loser, winner string) string {
		return fmt.Sprintf("the %s failed their Loss Check and flee the field; the %s win (16.0)", loser, winner)
	})
	return nil
}

// endBattle ends the game when one side, or both (a draw), has lost.
func (g *game) endBattle(lost [2]bool, draw string, won func(loser, winner string) string) {
	switch {
	case lost[0] && lost[1]:
		g.emit(GameEnded{Outcome: Outcome{Draw: true, Reason: draw}})
	case lost[0] || lost[1]:
		loser := Side(0)
		if lost[1] {
			loser = 1
		}
		g.emit(GameEnded{Outcome: Outcome{Winner: loser.Other(), Reason: won(g.sc.SideName(loser), g.sc.SideName(loser.Other()))}})
	}
}

// LossCheckRolled: one player's Loss Check (16.0).
// Roll is nil when no die could take the total above the Flight Level.
type LossCheckRolled struct {
	Side         Side  `json:"side"`
	Roll         *Roll `json:"roll,omitempty"`
	FlightPoints int   `json:"flight_points"`
	FlightLevel  int   `json:"flight_level"`
	Lost         bool  `json:"lost"`
}

func (LossCheckRolled) apply(*State) {}
func (e LossCheckRolled) describe(sc *Scenario) string {
	if e.Roll == nil {
		return fmt.Sprintf("Loss Check for the %s: %d Flight Points + 9 cannot exceed their Flight Level of %d; no roll needed (16.0).",
			sc.SideName(e.Side), e.FlightPoints, e.FlightLevel)
	}
	verdict := "not above"
	if e.Lost {
		verdict = "above"
	}
	return fmt.Sprintf("Loss Check for the %s: a roll of %d + %d Flight Points = %d, %s their Flight Level of %d (16.0).",
		sc.SideName(e.Side), e.Roll.Die, e.FlightPoints, e.Roll.Total, verdict, e.FlightLevel)
}

// GameEnded: the battle is over (16.0).
type GameEnded struct {
	Outcome Outcome `json:"outcome"`
}

func (e GameEnded) apply(st *State) {
	o := e.Outcome
	st.Outcome = &o
	st.Phase = PhaseOver
	st.Pending = Decision{}
}

func (e GameEnded) describe(sc *Scenario) string {
	return "The battle is over: " + e.Outcome.Reason + "."
}

// victoryPoints replaces the Loss Checks of a battle decided by Victory
// Points (Infidel 2.4; ruling R176): each side's points are the Flight
// Points of its enemy, counted at the end of each Free Activation.
func (g *game) victoryPoints(r VictoryPoints) error {
	vp := [2]int{FlightPoints(g.sc, g.st, 1), FlightPoints(g.sc, g.st, 0)}
	g.emit(VictoryPointsCounted{Points: vp, Activation: g.st.Activations, LastActivation: r.LastActivation, WinAt: r.WinAt})
	lead := Side(0)
	if vp[1] > vp[0] {
		lead = 1
	}
	switch {
	case r.WinAt > 0 && vp[lead] >= r.WinAt && vp[0] != vp[1]:
		g.emit(GameEnded{Outcome: Outcome{Winner: lead,
			Reason: fmt.Sprintf("the %s have %d Victory Points to the %s' %d, %d or more: they win (Infidel 2.4, R176)", g.sc.SideName(lead), vp[lead], g.sc.SideName(lead.Other()), vp[lead.Other()], r.WinAt)}})
	case r.LastActivation > 0 && g.st.Activations >= r.LastActivation && vp[0] == vp[1]:
		g.emit(GameEnded{Outcome: Outcome{Draw: true, Reason: fmt.Sprintf("the battle's last Activation is over with %d Victory Points each: a draw (Infidel 2.4, R176)", vp[0])}})
	case r.LastActivation > 0 && g.st.Activations >= r.LastActivation:
		g.emit(GameEnded{Outcome: Outcome{Winner: lead,
			Reason: fmt.Sprintf("the battle's last Activation is over: the %s have %d Victory Points to the %s' %d and win (Infidel 2.4, R176)", g.sc.SideName(lead), vp[lead], g.sc.SideName(lead.Other()), vp[lead.Other()])}})
	}
	return nil
}

// VictoryPointsCounted: both sides' Victory Points at the end of a Free
// Activation (Infidel 2.4; ruling R176).
type VictoryPointsCounted struct {
	Points         [2]int `json:"points"`
	Activation     int    `json:"activation"`
	LastActivation int    `json:"last_activation,omitempty"`
	WinAt          int    `json:"win_at,omitempty"`
}

func (VictoryPointsCounted) apply(*State) {}

func (e VictoryPointsCounted) describe(sc *Scenario) string {
	s := fmt.Sprintf("Victory Points: the %s %d, the %s %d, after Activation %d", sc.SideName(0), e.Points[0], sc.SideName(1), e.Points[1], e.Activation)
	if e.LastActivation > 0 {
		s += fmt.Sprintf(" of %d", e.LastActivation)
	}
	if e.WinAt > 0 {
		s += fmt.Sprintf("; %d wins at once", e.WinAt)
	}
	return s + " (Infidel 2.4, R176)."
}

func init() { registerEvents(LossCheckRolled{}, GameEnded{}, VictoryPointsCounted{}) }
