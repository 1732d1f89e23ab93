package strike

import (
	"fmt"
	"sort"
)

// Tables are every number the strike rules use, loaded from
// data/strike/tables.yaml. Values the fragment states are checked against
// it by the data tests; the rest are Herald's house tables, labelled so in
// the file.
type Tables struct {
	Combat        CombatTable
	Melee         MeleeTable
	Arcs          map[string]float64 // arc name → half-angle in degrees, table.AllRound for all round
	Weapons       map[string]*Weapon
	Troops        map[string]*TroopType
	SRT           map[string]*SRT // by SRT class
	Personalities []SRBand
	PCS           PCSTable
	Morale        MoraleTable
	Reactions     map[string]*Reactions // by troop type id
	Movement      MovementTable
	Stands        StandSizes
}

// MovementTable holds the numbers of orders by mail (engine/strike/battle,
// ruling R543): the fragment has no movement rules but the 3" of CHARGE
// MOVEMENT and BONUS.
type MovementTable struct {
	BackCost        float64 // inches of MOVE one inch backward costs (house: 2, non-forward movement is halved)
	TurnCost        float64 // a TURN's cost as a share of MOVE (house: ½)
	ChargeClearance float64 // a charger may not come within this of an enemy it does not charge (FRAGMENT: 3")
}

// StandSizes are the house stand sizes of a unit whose battle file gives
// none (R541): the fragment measures in stands but never sizes them.
type StandSizes struct {
	Frontage     float64 // inches
	FootDepth    float64 // inches deep, a foot stand
	MountedDepth float64 // inches deep, a mounted stand
}

// Of is the frontage and depth of a stand of tt.
func (s StandSizes) Of(tt *TroopType) (w, d float64) {
	if tt.Mounted {
		return s.Frontage, s.MountedDepth
	}
	return s.Frontage, s.FootDepth
}

// CombatTable is the fragment's COMBAT TABLE: the basic CV and each
// modifier, in the order the table lists them (ModifiedCV applies them in
// that order).
type CombatTable struct {
	BaseCV              int       // BASIC COMBAT VALUE (CV) ‘7’
	MassedTarget        int       // +3 shooting at a massed target
	DistantRange        int       // −3 shooting at distant range
	Skirmisher          int       // −3 skirmisher shooting or as a target
	FknCharging         ChargeMod // +3 Fkn 1 rank deep charging over 3" in the open
	FootCharging        ChargeMod // +2 foot charging over 2" totally in the open
	MountedCharging     ChargeMod // +2 other mounted charging over 3" totally in the open
	FknVsFoot           int       // +3 Fkn vs foot other than ordered Sp in the open
	Superior            int       // +3 superior troop quality
	Trained             int       // +3 trained
	FoeHigherOrObstacle int       // −3 foe on higher elevation or in obstacle terrain
	WeaponOfChoice      int       // house: the side claiming the WOC (R512)
}

// ChargeMod is a charge bonus: CV when the charge covered over Over inches.
type ChargeMod struct {
	CV   int
	Over float64
}

// MeleeTable holds melee numbers outside the Combat Table.
type MeleeTable struct {
	Ranks            int     // house: ranks that fight in a frontal melee (R510)
	SpearRanks       int     // WHO CAN MELEE: stationary Sp in good order in the open, 3
	RetreatPerStrike float64 // B. RETREAT AFTER MELEE: 1" per strike difference
}

// Weapon is a row of the Missile Weapon Table (house; the fragment names
// it and its ROF scale, 4 highest to 0 lowest).
type Weapon struct {
	ID               string
	Name             string
	Effective        float64 // inches
	Distant          float64 // inches; 0 if the weapon has no distant range
	ROF              int     // 0–4
	NEIsFigure       bool    // crossbows: NE on the SRT becomes 1 figure casualty
	TrainedDouble    bool    // trained longbow: double strikes when firing
	NoDefensiveFire  bool    // artillery and handguns: no fire at chargers
	DestroyedContact bool    // artillery is destroyed if contacted
}

// TroopType is one troop type of the army domain (house values; the types
// are the fragment's).
type TroopType struct {
	ID            string
	Name          string
	Mounted       bool
	Formed        bool   // false for Sk, Lc, Ha (formed troops vs skirmishers and light horse)
	Skirmisher    bool   // the COMBAT TABLE's "skirmisher": Sk
	DoubleStrikes string // "always", "trained" or "never" (DOUBLE STRIKES, melee)
	Weapon        string // Missile Weapon Table id, "" for none
	Arc           string // arc name, for shooters
	Move          float64
	Figures       int    // figures per stand
	SRTClass      string // which Strike Results Table a target of this type uses
	Qualities     []string
}

// NamedTypes are the troop types whose ids the rules name, because the
// fragment states rules for them by name: Sp's 3 ranks, the Fkn lines, the
// weapon of choice's Knights, Spears, Formed cavalry and Men At Arms, the
// reactions of MAA and knights. Every tables file must define them.
var NamedTypes = []string{"Kn", "Fkn", "Cv", "Maa", "Sp"}

// Double-strike kinds.
const (
	DoubleAlways  = "always"
	DoubleTrained = "trained"
	DoubleNever   = "never"
)

// Qualities a unit may have (COMBAT TABLE: superior troop quality, trained),
// independent of each other (R530).
const (
	Superior = "superior"
	Trained  = "trained"
)

// MayBe reports whether the type may have quality q.
func (t *TroopType) MayBe(q string) bool {
	for _, x := range t.Qualities {
		if x == q {
			return true
		}
	}
	return false
}

// SRT is one unit type's Strike Results Table: Rows[stands-1][strikes-1].
// Stands beyond the last row use the last row, strikes beyond the last
// column the last column (ruling R516).
type SRT struct {
	Class string
	Rows  [][]Result
}

// Result is one SRT cell: NE, or figure casualties, D and M.
type Result struct {
	Figures    int  // figure casualties
	Disordered bool // D
	Morale     bool // M: automatic morale check
}

// NE is the No Effect result.
func (r Result) NE() bool { return r == Result{} }

func (r Result) String() string {
	if r.NE() {
		return "NE"
	}
	s := ""
	if r.Figures > 0 {
		s = fmt.Sprint(r.Figures)
	}
	if r.Disordered {
		s += "D"
	}
	if r.Morale {
		s += "M"
	}
	return s
}

// SRBand is a row of the personalities table: skill ratings Min..Max
// (Max 0: no upper bound) give a bonus to the combat die and a PCS.
type SRBand struct {
	Min, Max int
	Bonus    int
	PCS      int
}

// PCSTable holds the modifiers of C. PERSONAL COMBAT SKILL CHECKS and the
// number of PERSONALITIES UNDER FIRE.
type PCSTable struct {
	Wounded             int // ":5 if wounded": −5 (R522)
	LostMelee           int // −5
	PerStrikeDifference int // −1 per strike difference if his unit lost
	UnderFire           int // "must roll under a 20"
}

// MoraleTable is Herald's house morale check (the fragment refers to
// "Morale" and "Break Moves" but lacks them): roll 1D20 at or under
// Base[quality] plus modifiers to pass; failing by FailBreak or more
// breaks the unit, failing by less disorders it and it falls back.
type MoraleTable struct {
	Base          map[string]int // "superior", "trained", "ordinary"
	PerStandLost  int
	Disordered    int
	LostMelee     int
	PerStrikeDiff int
	Personality   int
	FailBreak     int
	FallBackMoves float64
}

// Reactions is the house Charge Reaction Table row of a troop type: what
// it does as the target of a charge and as a supporting unit (2. REACTION
// TO A CHARGE).
type Reactions struct {
	Target     Reaction
	Supporting Reaction
}

// Reaction is one Charge Reaction Table entry.
type Reaction string

// The reactions the fragment describes.
const (
	Stand             Reaction = "stand"               // OTHERS: STAND
	CounterCharge     Reaction = "counter-charge"      // Knights
	CounterChargeHalf Reaction = "counter-charge-half" // formed cavalry, dismounted knights and MAA
	StandAndFire      Reaction = "stand-and-fire"      // MISSILES
	FireAndRetire     Reaction = "fire-and-retire"     // SKIRMISHERS/LIGHT CAVALRY/HORSE ARCHERS
	ShootAtCharger    Reaction = "shoot"               // supporting shooting
	NoReaction        Reaction = "none"                // a supporting unit that does nothing
)

// AllReactions lists every reaction name, for the loader.
var AllReactions = []Reaction{Stand, CounterCharge, CounterChargeHalf, StandAndFire, FireAndRetire, ShootAtCharger, NoReaction}

// Troop returns a troop type by id.
func (t *Tables) Troop(id string) (*TroopType, error) {
	if tt, ok := t.Troops[id]; ok {
		return tt, nil
	}
	return nil, fmt.Errorf("no troop type %q: the types are %v", id, t.troopIDs())
}

func (t *Tables) troopIDs() []string {
	var ids []string
	for id := range t.Troops {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// WeaponOf returns the missile weapon of a troop type, or nil.
func (t *Tables) WeaponOf(tt *TroopType) *Weapon {
	if tt.Weapon == "" {
		return nil
	}
	return t.Weapons[tt.Weapon]
}

// Band returns the personalities row for a skill rating.
func (t *Tables) Band(sr int) (SRBand, error) {
	for _, b := range t.Personalities {
		if sr >= b.Min && (b.Max == 0 || sr <= b.Max) {
			return b, nil
		}
	}
	return SRBand{}, fmt.Errorf("no personalities row covers SR %d", sr)
}
