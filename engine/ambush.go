package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// Blood & Roses 16.1 AMBUSH, a battle rule (BattleRules.Ambushes): "When a
// player is noted as having an Ambush in a battle, that player may choose
// to use any Free Activation to activate an ambushing Cavalry unit. This
// Cavalry unit is taken from the counters for that Command Stripe, but
// not any initially deployed. The unit enters through hexes designated in
// the rules for the individual battle. For this one Activation it is
// considered "In Command" (but cannot enter the hex of an enemy
// Standard), can double its Movement Allowance, and may Shock attack
// normally." Then: "The Cavalry unit enters and moves up to double its
// Movement Allowance. At end of its move, all Disordered enemy units
// adjacent to the Cavalry unit suffer an automatic Retire result. All
// other adjacent enemy units suffer an automatic Disorder result. The
// Cavalry unit conducts its Shock Attack, with any earned Continued
// Attacks as normal. After the Ambush, the Cavalry unit is considered a
// unit of one of the players' Battles, the rules for the battle will
// specify which. If that Battle is no longer on the map, the player may
// choose another. If using the optional Battle Flight rules, this does
// not change the Battle Flight number of the Battle the unit joins."
//
// Herald's readings are rulings R274-R279 (docs/rulings.md):
// "ACTIVATE AMBUSH [<unit>] [JOIN <battle>]" spends a Free Activation on
// the unit alone (R274); ended before the unit enters, it leaves the
// Ambush unused (R275); its arrival
// strikes the enemy units next to it when its move is over, with the
// engine's own results (R276); it joins its Battle as the Activation
// begins, or another the player names when that one is gone (R277); while
// it waits it belongs to no Battle: it is no loss, counts no Flight
// Points, does not flee and is no part of any Battle Flight number (R278);
// the Ambush is public (R279).

// Ambush is one Ambush of a battle: the Cavalry unit (set up off the map,
// not deployed), the hexes it enters through and the Battle it joins (the
// Command it is set up with).
type Ambush struct {
	Unit  string
	Enter []hex.Hex
	Joins string
}

// ambushOf is the battle's Ambush of unit id, or nil.
func ambushOf(sc *Scenario, id string) *Ambush {
	for k := range sc.Rules.Ambushes {
		if sc.Rules.Ambushes[k].Unit == id {
			return &sc.Rules.Ambushes[k]
		}
	}
	return nil
}

// inAmbush: unit i still lies in Ambush, its Ambush unused (ruling R278:
// it is no unit of any Battle yet); the Ambush is used when the Activation
// in which it came out ends (ActivationEnded, ruling R275).
func inAmbush(sc *Scenario, st *State, i int) bool {
	id := sc.Units[i].ID
	return ambushOf(sc, id) != nil && !slices.Contains(st.AmbushesUsed, id)
}

// ambushing: unit i is the ambushing unit of the Ambush Activation under
// way.
func ambushing(sc *Scenario, st *State, i int) bool {
	return st.Ambush != "" && sc.Units[i].ID == st.Ambush
}

// unitCommand is the Battle unit i belongs to: the Command it is set up
// with, or the one it joined after its Ambush instead (ruling R277).
func unitCommand(sc *Scenario, st *State, i int) string {
	if j := st.Units[i].Joined; j != "" {
		return j
	}
	return sc.Units[i].Command
}

// battleOnMap: a Command still has a combat unit on the map (16.1 "If
// that Battle is no longer on the map").
func battleOnMap(sc *Scenario, st *State, cmd string) bool {
	if slices.Contains(st.Fled, cmd) {
		return false
	}
	for i := range sc.Units {
		if unitCommand(sc, st, i) == cmd && onField(st, i) && !st.Units[i].Fled {
			return true
		}
	}
	return false
}

// readyAmbushes are side's unused Ambushes, in the battle file's order.
func readyAmbushes(sc *Scenario, st *State, side Side) []int {
	var out []int
	for i, u := range sc.Units {
		if u.Side == side && inAmbush(sc, st, i) && st.Units[i].Status != Eliminated && !st.Units[i].Fled {
			out = append(out, i)
		}
	}
	return out
}

// ambushForms are the ACTIVATE AMBUSH orders open in a Free Activation.
func ambushForms(sc *Scenario, st *State, side Side) []string {
	var out []string
	ready := readyAmbushes(sc, st, side)
	for _, i := range ready {
		o := "ACTIVATE AMBUSH"
		if len(ready) > 1 {
			o += " " + sc.Units[i].ID
		}
		if !battleOnMap(sc, st, ambushOf(sc, sc.Units[i].ID).Joins) {
			o += " JOIN <battle>"
		}
		out = append(out, o)
	}
	return out
}

// activateAmbush spends the Free Activation on an ambushing unit (B&R
// 16.1; rulings R274, R277).
func (g *game) activateAmbush(o Activate) error {
	sc, st := g.sc, g.st
	side := st.Pending.Side
	var mine []int
	for i, u := range sc.Units {
		if u.Side == side && ambushOf(sc, u.ID) != nil {
			mine = append(mine, i)
		}
	}
	if len(mine) == 0 {
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("the %s have no Ambush in this battle", sc.SideName(side)))
	}
	i := -1
	if o.Name == "" {
		ready := readyAmbushes(sc, st, side)
		switch len(ready) {
		case 0:
			return g.illegal(o, "B&R 16.1", fmt.Sprintf("the %s have used their Ambush (%s): an Ambush is one Activation", sc.SideName(side), sc.Units[mine[0]].ID))
		case 1:
			i = ready[0]
		default:
			return g.illegal(o, "B&R 16.1", "name the ambushing unit: ACTIVATE AMBUSH <unit>")
		}
	} else {
		for _, k := range mine {
			if strings.EqualFold(sc.Units[k].ID, o.Name) {
				i = k
			}
		}
		if i < 0 {
			return g.illegal(o, "B&R 16.1", fmt.Sprintf("%q is not an ambushing unit of the %s", o.Name, sc.SideName(side)))
		}
	}
	id := sc.Units[i].ID
	if !inAmbush(sc, st, i) {
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("the Ambush of %s has been used: it is now a unit of %s", id, commandName(sc, unitCommand(sc, st, i))))
	}
	a := ambushOf(sc, id)
	joins := a.Joins
	switch {
	case battleOnMap(sc, st, joins) && o.Join != "" && !strings.EqualFold(o.Join, commandName(sc, joins)) && !strings.EqualFold(o.Join, joins):
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("%s joins %s, which the battle's rules name and which is still on the map; JOIN names another Battle only when that one is gone", id, commandName(sc, joins)))
	case !battleOnMap(sc, st, joins) && o.Join == "":
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("%s is no longer on the map: name the Battle %s joins, ACTIVATE AMBUSH JOIN <battle> (ruling R277)", commandName(sc, joins), id))
	case !battleOnMap(sc, st, joins):
		cmd, err := g.ownCommand(o, o.Join)
		if err != nil {
			return err
		}
		if !battleOnMap(sc, st, cmd) {
			return g.illegal(o, "B&R 16.1", fmt.Sprintf("%s is no longer on the map either: the unit joins a Battle that is (ruling R277)", commandName(sc, cmd)))
		}
		joins = cmd
	}
	if len(openEntries(sc, st, i)) == 0 {
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("%s cannot enter: an enemy unit or Standard holds every one of its entry hexes (%s)", id, hexList(a.Enter)))
	}
	g.emit(AmbushActivated{Side: side, Unit: id, Joins: joins})
	g.replaceLeaders(side)
	return nil
}

// openEntries are the entry hexes of unit i's Ambush free of enemy units
// and Standards.
func openEntries(sc *Scenario, st *State, i int) []hex.Hex {
	var out []hex.Hex
	side := sc.Units[i].Side
	for _, h := range ambushOf(sc, sc.Units[i].ID).Enter {
		if !enemyOccupied(sc, st, side, h) && !enemyStandardAt(sc, st, side, h) {
			out = append(out, h)
		}
	}
	return out
}

// enemyStandardAt: a Standard of side's enemy, not captured, stands in h.
func enemyStandardAt(sc *Scenario, st *State, side Side, h hex.Hex) bool {
	for k, s := range sc.Standards {
		if s.Side != side && st.Standards[k].Hex == h && !st.Standards[k].Captured {
			return true
		}
	}
	return false
}

// ambushStep is the limit 16.1 puts on the ambushing unit's path: it
// enters through its Ambush's hexes and never into an enemy Standard's.
func ambushStep(sc *Scenario, st *State, i int, n hex.Hex, first bool) *moveError {
	a := ambushOf(sc, sc.Units[i].ID)
	if a == nil {
		return nil
	}
	if first && st.Units[i].OffMap && !contains(a.Enter, n) {
		return moveErr("B&R 16.1", "%s enters from its Ambush through %s", sc.Units[i].ID, hexList(a.Enter))
	}
	if ambushing(sc, st, i) && enemyStandardAt(sc, st, sc.Units[i].Side, n) {
		return moveErr("B&R 16.1", "%s may not enter %s, the hex of an enemy Standard, in its Ambush", sc.Units[i].ID, n)
	}
	return nil
}

// springAmbush: "At end of its move, all Disordered enemy units adjacent
// to the Cavalry unit suffer an automatic Retire result. All other
// adjacent enemy units suffer an automatic Disorder result" (16.1). The
// move is over once the unit has moved and no decision interrupts it
// (ruling R276); a unit Retired or Eliminated on the way strikes no one.
// Leaders make no casualty checks for it (5.5).
func (g *game) springAmbush() {
	st := g.st
	if st.Ambush == "" || st.Sprung || st.Pending.Kind != DecideActions || st.Reaction != nil {
		return
	}
	i := unitIdx(g.sc, st.Ambush)
	us := st.Units[i]
	if !us.Moved {
		return
	}
	e := AmbushSprung{Unit: st.Ambush}
	if onField(st, i) && us.Status != Retired {
		e.Adjacent = unitIDs(g.sc, adjacentEnemies(g.sc, st, g.sc.Units[i].Side, us.Hex))
	}
	g.emit(e)
	cause := fmt.Sprintf("%s bursts from its Ambush (B&R 16.1)", e.Unit)
	for _, id := range e.Adjacent {
		j := unitIdx(g.sc, id)
		if !onField(g.st, j) {
			continue
		}
		if g.st.Units[j].Status == Disordered {
			g.retireFrom(j, cause+": a Disordered unit Retires", []int{i})
			continue
		}
		g.disorder(j, cause+": an automatic Disorder result", []int{i})
	}
}

// AmbushActivated: a Free Activation spent on an ambushing unit alone
// (B&R 16.1); Joins is the Battle it is a unit of from now on.
type AmbushActivated struct {
	Side  Side   `json:"side"`
	Unit  string `json:"unit"`
	Joins string `json:"joins"`
}

func (e AmbushActivated) apply(st *State) {
	startActivation(st, e.Side, FreeActivation, "")
	st.Ambush, st.Sprung = e.Unit, false
	// startActivation cleared OutOfCommand: "For this one Activation it
	// is considered In Command" (16.1).
	if u := st.Unit(e.Unit); u != nil && e.Joins != "" {
		u.Joined = e.Joins
	}
}

func (e AmbushActivated) describe(sc *Scenario) string {
	return fmt.Sprintf("The %s spring their Ambush: %s comes out, In Command, with double its Movement Allowance, and is a unit of %s from now on (Free Activation, B&R 16.1).",
		sc.SideName(e.Side), e.Unit, commandName(sc, e.Joins))
}

// AmbushSprung: the ambushing unit's move is over; Adjacent are the enemy
// units next to it, which the results that follow strike (16.1).
type AmbushSprung struct {
	Unit     string   `json:"unit"`
	Adjacent []string `json:"adjacent,omitempty"`
}

func (e AmbushSprung) apply(st *State) { st.Sprung = true }

func (e AmbushSprung) describe(*Scenario) string {
	if len(e.Adjacent) == 0 {
		return fmt.Sprintf("%s ends its move from Ambush next to no enemy unit (B&R 16.1).", e.Unit)
	}
	return fmt.Sprintf("%s ends its move from Ambush: the enemy units next to it, %s, are struck (Disordered ones Retire, the others are Disordered; B&R 16.1).",
		e.Unit, strings.Join(e.Adjacent, ", "))
}

func init() { registerEvents(AmbushActivated{}, AmbushSprung{}) }
