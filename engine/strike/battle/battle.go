// Package battle makes the D20 strike rules core (package strike, its
// table geometry and tables) into a game two players play by mail: a
// battle's opening set-up, the state of a game, its events, the orders a
// side writes and their legality, and the house turn sequence
// (docs/strike.md, "Orders by mail"; rulings R540–R569 in
// docs/rulings.md).
//
// Everything here is pure and deterministic: no files, no clock, chance
// only through strike.Dice. Every change of a State is an Event applied by
// State.Apply, so that Replay of a game's events rebuilds its state byte
// for byte.
package battle

import (
	"fmt"
	"math"

	"herald/engine/strike"
	"herald/engine/strike/table"
)

// Battle is a battle's set-up: the table, the two sides and their units,
// the turn limit and the house victory condition (R540). data.StrikeBattle
// loads one from data/strike/battles/<id>.yaml.
type Battle struct {
	ID      string
	Title   string   // "Mauron, 1352"
	Label   string   // "Herald's house scenario"
	Sources []string // what it draws on, for the welcome mail
	Sides   [2]string
	Table   table.Table
	Units   []UnitSpec // side 0's, then side 1's, in file order
	Turns   int        // the game ends after side 1's block of this turn
	Victory Victory
	Tables  *strike.Tables
}

// Victory is the house victory condition (R540): a side loses when it has
// lost StandsLost (a fraction) of the stands it set up with, or, if
// Warlord, when its Warlord Personality is killed or captured.
type Victory struct {
	StandsLost float64
	Warlord    bool
}

// UnitSpec is one unit as the battle sets it up.
type UnitSpec struct {
	ID          string // short id used in orders: "Kn1"
	Name        string
	Side        int
	Type        *strike.TroopType
	Superior    bool
	Trained     bool
	Files       int
	Ranks       int
	StandWidth  float64
	StandDepth  float64
	Pos         table.Vec // centre of the front edge
	Facing      float64
	Personality *PersonalitySpec
}

// PersonalitySpec is an attached Personality as the battle sets him up.
// A side's Warlord is the Personality whose loss loses the battle (R540).
type PersonalitySpec struct {
	Name    string
	SR      int
	Warlord bool
}

// Check reports a set-up the game cannot start from: footprints that
// overlap or leave the table, unknown or repeated ids, a side without
// units or with more than one Warlord.
func (b *Battle) Check() error {
	if b.Tables == nil {
		return fmt.Errorf("battle %s: no tables", b.ID)
	}
	if err := b.Table.Check(); err != nil {
		return fmt.Errorf("battle %s: %w", b.ID, err)
	}
	if !(b.Victory.StandsLost > 0 && b.Victory.StandsLost <= 1) {
		return fmt.Errorf("battle %s: a side loses at a fraction of its stands over 0 and at most 1, not %g", b.ID, b.Victory.StandsLost)
	}
	if b.Turns < 1 {
		return fmt.Errorf("battle %s: a turn limit of %d", b.ID, b.Turns)
	}
	seen := map[string]bool{}
	var per [2]int
	var warlords [2]int
	for _, u := range b.Units {
		if seen[u.ID] {
			return fmt.Errorf("battle %s: unit %s twice", b.ID, u.ID)
		}
		seen[u.ID] = true
		if u.Side != 0 && u.Side != 1 {
			return fmt.Errorf("unit %s: side %d", u.ID, u.Side)
		}
		if u.Type == nil {
			return fmt.Errorf("unit %s: no troop type", u.ID)
		}
		per[u.Side]++
		if u.Personality != nil && u.Personality.Warlord {
			warlords[u.Side]++
		}
	}
	for s := range per {
		if per[s] == 0 {
			return fmt.Errorf("battle %s: %s have no units", b.ID, b.Sides[s])
		}
		if warlords[s] > 1 {
			return fmt.Errorf("battle %s: %s have %d Warlords; one at most", b.ID, b.Sides[s], warlords[s])
		}
	}
	st := b.Start()
	for i := range b.Units {
		fp := st.Footprint(b, i)
		if err := fp.Check(); err != nil {
			return fmt.Errorf("unit %s: %w", b.Units[i].ID, err)
		}
		if !onTable(b, fp.Outline()) {
			return fmt.Errorf("unit %s is not wholly on the %g×%g\" table", b.Units[i].ID, b.Table.Width, b.Table.Height)
		}
		for j := i + 1; j < len(b.Units); j++ {
			if overlap(fp.Outline(), st.Footprint(b, j).Outline()) {
				return fmt.Errorf("units %s and %s overlap", b.Units[i].ID, b.Units[j].ID)
			}
		}
	}
	return nil
}

// Index is the index of a unit by id, case-insensitive; -1 if none.
func (b *Battle) Index(id string) int {
	for i, u := range b.Units {
		if equalFold(u.ID, id) {
			return i
		}
	}
	return -1
}

// Start is the opening position: turn 1, side 0's block.
func (b *Battle) Start() *State {
	st := &State{Turn: 1, Side: 0, Winner: -1}
	for _, u := range b.Units {
		us := Unit{ID: u.ID, Side: u.Side, Stands: u.Files * u.Ranks, Pos: u.Pos, Facing: u.Facing, Files: u.Files, Ranks: u.Ranks}
		if p := u.Personality; p != nil {
			us.Personality = &Personality{Name: p.Name, SR: p.SR, Warlord: p.Warlord}
		}
		st.Units = append(st.Units, us)
	}
	return st
}

// StartStands is how many stands a side sets up with.
func (b *Battle) StartStands(side int) int {
	n := 0
	for _, u := range b.Units {
		if u.Side == side {
			n += u.Files * u.Ranks
		}
	}
	return n
}

// BreaksAt is the number of stands on the table at which a side's army
// has lost the battle file's share of those it set up with (the house
// victory rule, R540).
func (b *Battle) BreaksAt(side int) int {
	start := b.StartStands(side)
	return start - int(math.Ceil(b.Victory.StandsLost*float64(start)-1e-9))
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
