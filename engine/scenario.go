package engine

import (
	"herald/engine/hex"
)

// Side is one of the two armies of a battle: 0 or 1, in the order the
// scenario lists them. Its name comes from the scenario (Scenario.Sides).
type Side int

// Other returns the opposing side.
func (s Side) Other() Side { return 1 - s }

// Scenario is one battle as the Battle Book would describe it: the map, the
// two armies with their Commands, leaders, Standards and units, who starts,
// and the Flight Levels. It is built by package data from YAML and never
// changes during a game; everything that changes lives in State.
type Scenario struct {
	ID     string // short id used in game ids and file names ("crecy")
	Name   string // "Crécy, 26 August 1346"
	Volume string // series volume whose rules and tables apply: "moi", "infidel", ...
	Tables *Tables

	Map       Map
	Sides     [2]SideSpec
	Commands  []CommandSpec
	Leaders   []LeaderSpec
	Standards []StandardSpec
	Units     []UnitSpec

	// First is the side whose Free Activation opens the battle (3.4, 2.4).
	First Side

	// Rules are the battle's special rules, as named switches (battle.go).
	Rules BattleRules
	// Bombards are the Bombard markers on the map (battle.go).
	Bombards []BombardSpec
}

// SideSpec is one army.
type SideSpec struct {
	Name string // "English"
	// FlightLevel is the number the side's Loss Check must not exceed (16.0).
	FlightLevel int
	// FlightPoints are Flight Points the side starts with, for battles whose
	// special rules add some (16.0 "Some battles will have special rules for
	// additional FPs").
	FlightPoints int
	// ExtraFlightPoints are the battle's conditional Flight Points (16.0,
	// battle.go).
	ExtraFlightPoints []ExtraFP
	// SeizureCounters is how many Seizure counters the side draws from its
	// tables' SeizurePool at the start (B&R 6.3 "as stated in the scenario
	// for that battle").
	SeizureCounters int
}

// CommandSpec is a Command (3.3, 15.1): the units sharing a leader's stripe.
type CommandSpec struct {
	ID       string // "godfrey"
	Name     string // "Godfrey's Longbow"
	Side     Side
	Leader   string // LeaderSpec.ID; empty for a Leaderless Battle (Arquebus 6.4)
	Standard string // StandardSpec.ID; several Commands may share one army Standard (13.2)
	// Entry lists the hexes through which the Command's reinforcements
	// enter the map (5.3).
	Entry []hex.Hex
	// Arrives is the Activation of the battle (the first is 1) from which
	// the Command's reinforcements may enter; 0 or 1: from the start
	// (5.3 "as defined in the battle book"; battle.go).
	Arrives int
	// ShieldWallOrders is how many times the Command's leader may order
	// its units into Shield Wall during the battle; nil: no limit (14.1
	// "The use of Shield Wall is limited; see individual battles").
	ShieldWallOrders *int
}

// LeaderSpec is a leader counter (2.2, 15.0).
type LeaderSpec struct {
	ID      string
	Name    string // as the players spell it: "Alençon"
	Side    Side
	Command string // the Command he leads
	// AR is the Activation Rating used for Continuity and Seizure (2.4, 4.2).
	AR int
	// Range is the Command Range in hexes (15.2).
	Range int
	MA    int  // printed Movement Allowance when moving alone (5.1)
	King  bool // 3 Flight Points instead of 2 when lost (16.0)
	// OC marks the army's Overall Commander (Infidel 5.1): the leaders
	// within his Command Range roll Continuation and Seizure at a better
	// Activation Rating (Rules.OCActivationBonus, 5.3), his Knights and
	// Heavy Cavalry gain Leader Presence (12.3 #4), and his loss costs
	// FlightPointValues.OverallCommander (3.0).
	OC bool
	// Charisma is the Shock/Charge DRM the later volumes print on their
	// leaders (Blood & Roses 5.4: Warwick +1; Arquebus 5.2: Gonzaga +4);
	// used when the tables' Rules.LeaderCharisma is set.
	Charisma int
	// Effectiveness is an Overall Commander's Effectiveness rating,
	// added to Continuation DRs (Arquebus 5.2, 6.2: Gonzaga -2); used
	// when the tables' Rules.OCEffectiveness is set.
	Effectiveness int
	Hex           hex.Hex
	// OffMap marks a leader that enters with his Command's reinforcements (5.3).
	OffMap bool
	// Replacement holds the ratings of the counter's Replacement side (15.6).
	Replacement struct{ AR, Range int }
	// NoReplacement: the battle gives him no Replacement (Arquebus 5.5 "In
	// some battles, there is no Replacement for a lost OC"); once killed
	// or captured his Battle is Leaderless (6.4, ruling R429).
	NoReplacement bool
}

// StandardSpec is a Standard counter (13.2).
type StandardSpec struct {
	ID   string
	Name string
	Side Side
	Hex  hex.Hex
}

// UnitSpec is a combat unit as set up at the start of the battle.
type UnitSpec struct {
	ID      string // as printed on the counter and typed in orders: "LB1"
	Name    string // optional longer name
	Side    Side
	Command string
	Type    string // key into Tables.UnitTypes: "LB", "MMAA", …
	Hex     hex.Hex
	Facing  hex.Facing
	Status  Status // at setup: Normal, Disordered or Retired
	// OffMap marks a reinforcement that starts in the off-map area of its
	// Command (5.3).
	OffMap bool
	// Ratings printed on this counter. They default to the unit type's.
	Ratings Ratings
	// ShieldWall: the unit starts the battle in Shield Wall (14.1 "at the
	// beginning of the game (during setup)").
	ShieldWall bool
	// NoRetreat: the unit carries a No Retreat marker (2.2; battle.go).
	NoRetreat bool
	// Schiltron: the unit starts the battle in Schiltron (ruling R89).
	Schiltron bool
	// Limbered: an Artillery unit starts the battle on its limbered side
	// (Blood & Roses 7.6: "See the individual battle for information about
	// the state a player's Artillery begins the game in").
	Limbered bool
	// Swiss: a Swiss Pike unit, which rolls for Swiss Shock Reluctance
	// before it Shocks (Arquebus 16.2, rules.swiss_attack_max; ruling
	// R385).
	Swiss bool
}

// Ratings are the numbers printed on both sides of a combat unit (2.2):
// the front (normal) side and the back (Disordered) side.
type Ratings struct {
	MA, MADisordered       int // Movement Allowance (5.1, 12.2)
	Shock, ShockDisordered int // Shock Defense DRM (10.4 #3)
	// Fire, FireDisordered are the Missile Fire DRM printed on the front
	// and the Disordered side (Arquebus 11.1, 14.2); not Printed in the
	// volumes whose counters print none.
	Fire, FireDisordered MissileDRM
}

// MissileDRM is the Missile Fire DRM printed on one side of a counter
// (Arquebus 11.1: "All missile units have a Missile Fire DRM which is
// applied when resolving their Fire ... A unit with a Missile Type, but no
// Missile Fire DRM on the current side of the counter may not fire").
type MissileDRM struct {
	// Printed: the side has the rating at all (the tables' or the battle's
	// `fire`, `fire_disordered`). Unprinted, the Fire DR takes no counter
	// DRM, and a Disordered firer takes fire_drm.disordered_firer instead
	// (Men of Iron 12.2).
	Printed bool
	// None: the side prints no Missile Fire DRM, so the unit may not fire
	// on it (written `none`).
	None bool
	DRM  int
}

// Map is the battlefield: a hex grid with terrain, elevation and hexside
// features (2.1, 5.1, 9.4).
type Map struct {
	Grid hex.Grid
	// Terrain maps a hex to a key of Tables.Terrain; hexes not listed have
	// DefaultTerrain.
	Terrain        map[hex.Hex]string
	DefaultTerrain string
	// Elevation in levels; hexes not listed are at level 0.
	Elevation map[hex.Hex]int
	// Hexsides lists the features drawn on hexsides (rivers, slopes, roads…).
	Hexsides []Hexside
}

// Hexside is a feature on the hexside between two adjacent hexes. A slope
// rises from Low to High; for other features the order carries no meaning.
type Hexside struct {
	A, B    hex.Hex
	Feature string // key of Tables.Hexsides: "river", "stream", "slope", "hedge", "road"
}

// TerrainAt returns the terrain key of h.
func (m *Map) TerrainAt(h hex.Hex) string {
	if t, ok := m.Terrain[h]; ok {
		return t
	}
	return m.DefaultTerrain
}

// Command returns the Command with the given id.
func (sc *Scenario) Command(id string) *CommandSpec {
	for i := range sc.Commands {
		if sc.Commands[i].ID == id {
			return &sc.Commands[i]
		}
	}
	return nil
}

// Leader returns the leader with the given id.
func (sc *Scenario) Leader(id string) *LeaderSpec {
	for i := range sc.Leaders {
		if sc.Leaders[i].ID == id {
			return &sc.Leaders[i]
		}
	}
	return nil
}

// SideByName finds a side by its name, ignoring case and accents.
func (sc *Scenario) SideByName(name string) (Side, bool) {
	for i, s := range sc.Sides {
		if fold(s.Name) == fold(name) {
			return Side(i), true
		}
	}
	return 0, false
}

// SideName returns the name of side s.
func (sc *Scenario) SideName(s Side) string { return sc.Sides[s].Name }
