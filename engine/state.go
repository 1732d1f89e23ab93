package engine

import (
	"encoding/json"
	"fmt"
	"slices"

	"herald/engine/hex"
)

// Status is a combat unit's condition (2.2, 12.0).
type Status int

const (
	Normal     Status = iota // front side up
	Disordered               // back side up (12.2)
	Retired                  // Retired marker (12.4)
	Eliminated               // removed for the day (12.6)
)

var statusNames = [...]string{"Normal", "Disordered", "Retired", "Eliminated"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// ParseStatus is the inverse of Status.String, ignoring case.
func ParseStatus(s string) (Status, bool) {
	for i, name := range statusNames {
		if fold(name) == fold(s) {
			return Status(i), true
		}
	}
	return 0, false
}

// Phase is a phase of the Extended Sequence of Play.
type Phase int

const (
	PhaseActivation   Phase = iota // A: choose a Command or Standard, or Pass
	PhaseMoveFire                  // B
	PhaseShock                     // C
	PhaseRally                     // D
	PhaseContinuation              // E: Loss Check, then Continue or Pass
	PhaseOver                      // the battle has ended (16.0)
)

var phaseNames = [...]string{"Activation", "Move/Fire", "Shock", "Rally", "Continuation", "Over"}

func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// ActivationKind says how the current Activation came about (2.4).
type ActivationKind int

const (
	FreeActivation         ActivationKind = iota + 1 // first of the game, or after a Pass or a failed roll (2.4)
	ContinuationActivation                           // a successful Continuation DR (4.2)
	SeizureActivation                                // a successful Seizure (4.3)
)

var activationKindNames = map[ActivationKind]string{
	FreeActivation:         "Free Activation",
	ContinuationActivation: "Continuation",
	SeizureActivation:      "Seizure",
}

func (k ActivationKind) String() string {
	if s, ok := activationKindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("ActivationKind(%d)", int(k))
}

// State is everything about a battle that changes: where the counters are,
// whose Activation it is and in which phase, what decision the game waits
// for. It is the fold of the game's events over its scenario (see Replay),
// and it is plain data: it serialises to JSON and back without loss.
type State struct {
	Scenario string `json:"scenario"`
	// Move counts the order blocks applied so far. Every order block names
	// the move it answers, so a stale or repeated block cannot apply twice.
	Move int `json:"move"`

	Phase Phase `json:"phase"`
	// Active is the side whose Activation it is, or who must choose one.
	Active Side `json:"active"`
	// Kind of the current Activation; 0 while none is under way.
	Kind ActivationKind `json:"kind,omitempty"`
	// Command is the activated Command (Phases B–D), empty if a Standard
	// was activated instead.
	Command string `json:"command,omitempty"`
	// Standard is the Standard activated in this Free Activation (13.2).
	ActiveStandard string `json:"standard,omitempty"`
	// LastCommand is the Command that just completed its Activation; it may
	// not be chosen for Continuity (4.2).
	LastCommand string `json:"last_command,omitempty"`
	// Selected is the Command named for a Continuation attempt while the
	// opponent decides whether to Seize (4.2, 4.3).
	Selected string `json:"selected,omitempty"`
	// Continuations counts each side's successful Continuation DRs since
	// the last reset; it is the DRM of the next attempt (4.2).
	Continuations [2]int `json:"continuations"`
	// OneBattle is each side's DRM for Continuing with only one Battle,
	// kept until the penalties reset (B&R 6.2).
	OneBattle [2]int `json:"one_battle,omitzero"`
	// Army: the Activation under way is an Army Activation of ArmyUnits
	// and ArmyLeaders (B&R 6.1); LastArmy: the one that just completed
	// was; SelectedArmy: Army Activation is named for Continuity (6.2).
	Army         bool     `json:"army,omitempty"`
	ArmyUnits    []string `json:"army_units,omitempty"`
	ArmyLeaders  []string `json:"army_leaders,omitempty"`
	LastArmy     bool     `json:"last_army,omitempty"`
	SelectedArmy bool     `json:"selected_army,omitempty"`
	// Activations counts the Activations begun so far.
	Activations int `json:"activations"`
	// FlightChecked are the Commands (Battles) that have checked for
	// Battle Flight, which "never checks again"; Fled those that fled
	// (Blood & Roses 14.8).
	FlightChecked []string `json:"flight_checked,omitempty"`
	Fled          []string `json:"fled,omitempty"`
	// Pursuits are the Battles in Pursuit, their units off the map
	// (Blood & Roses 14.9).
	Pursuits []Pursuit `json:"pursuits,omitempty"`
	// TimeMoved: how many spaces the non-timed player has moved the time
	// marker of a Timed Engagement towards zero (Blood & Roses 16.2).
	TimeMoved int `json:"time_moved,omitempty"`
	// Ambush is the ambushing unit of the Ambush Activation under way,
	// Sprung that its arrival has struck the enemy units next to it;
	// AmbushesUsed the units whose Ambush has been used (Blood & Roses
	// 16.1, engine/ambush.go).
	Ambush       string   `json:"ambush,omitempty"`
	Sprung       bool     `json:"ambush_sprung,omitempty"`
	AmbushesUsed []string `json:"ambushes_used,omitempty"`

	// Counters are the sides' Seizure counters (B&R 6.3), nil in the
	// volumes without them.
	Counters *Counters `json:"seizure_counters,omitempty"`
	// Pending is the decision the game waits for.
	Pending Decision `json:"pending"`
	// Held are the orders the active side gave after CONTINUE, kept
	// while the opponent decides on Seizure (engine/held.go).
	Held *HeldOrders `json:"held,omitempty"`
	// Standing holds each side's standing orders.
	Standing [2]StandingOrders `json:"standing"`

	// Retreat is the retreat waiting for its owner's choice of hex, while
	// Pending is DecideRetreat (12.3).
	Retreat *PendingRetreat `json:"retreat,omitempty"`
	// Advance is the Advance after Combat waiting for the attacker's
	// choice, while Pending is DecideAdvance (10.5).
	Advance *PendingAdvance `json:"advance,omitempty"`
	// FireAsk is the Active Fire waiting for the target's owner to say
	// whether it returns the fire, while Pending is DecideReturnFire (9.2).
	FireAsk *PendingFire `json:"fire_ask,omitempty"`
	// Reaction is the move waiting for the Reaction Fire decision of the
	// units it came next to, while Pending is DecideReaction (9.2).
	Reaction *PendingReaction `json:"reaction,omitempty"`
	// Acting is the unit whose Move and/or Fire is under way in Phase B:
	// the last to move or fire. Each unit must finish its movement/firing
	// before another may begin (5.1, Extended Sequence of Play B), so only
	// this unit may go on acting once it has begun.
	Acting string `json:"acting,omitempty"`
	// Declared are the Shock and Charge attacks declared so far in Step 1
	// of the Shock Phase (10.3); they are carried out at END.
	Declared []Declaration `json:"declared,omitempty"`
	// Shock is the Shock Phase under way (10.3).
	Shock *ShockPhase `json:"shock,omitempty"`

	// WallOrders counts, by Command, the orders into Shield Wall given so
	// far, for the battles that limit them (14.1).
	WallOrders map[string]int `json:"wall_orders,omitempty"`

	Units     []UnitState     `json:"units"`
	Leaders   []LeaderState   `json:"leaders"`
	Standards []StandardState `json:"standards"`

	Outcome *Outcome `json:"outcome,omitempty"`
}

// UnitState is a combat unit's changing part.
type UnitState struct {
	ID     string     `json:"id"`
	Hex    hex.Hex    `json:"hex"`
	Facing hex.Facing `json:"facing"`
	Status Status     `json:"status"`
	OffMap bool       `json:"off_map,omitempty"`
	// Acted records that the unit moved, changed facing, fired, attacked or
	// was attacked in the current Activation (13.1).
	Acted bool `json:"acted,omitempty"`
	// Moved records that the unit has had its move (or facing change) in
	// the current Activation: each unit completes its move before another
	// begins (5.1).
	Moved bool `json:"moved,omitempty"`
	// Marched: the unit spent Movement Points in the current Activation;
	// a change of facing alone is not Movement (5.2 PLAY NOTE), and a
	// Charge by a unit that moved earns less (11.2).
	Marched bool `json:"marched,omitempty"`
	// OutOfCommand is the unit's command status, fixed at the start of the
	// current Activation (15.2).
	OutOfCommand bool `json:"out_of_command,omitempty"`
	// Type is the counter's side in play when it is not the side the unit
	// was set up with (14.2: a Hobilar mounted or dismounted); empty
	// otherwise.
	Type string `json:"type,omitempty"`
	// ShieldWall: the unit stands in Shield Wall (14.1).
	ShieldWall bool `json:"shield_wall,omitempty"`
	// NoRetreat: the unit carries a No Retreat marker (battle.go).
	NoRetreat bool `json:"no_retreat,omitempty"`
	// Schiltron: the unit stands in Schiltron (schiltron.go, ruling R89).
	Schiltron bool `json:"schiltron,omitempty"`
	// Rearmed: the unit changed how it is armed or arrayed in the current
	// Activation (a Hobilar's mount or dismount, entering or leaving
	// Shield Wall or Schiltron), which bars its Rally (13.1, ruling R90).
	Rearmed bool `json:"rearmed,omitempty"`
	// Fired: the unit has used its Active Fire in this Activation (9.2).
	Fired bool `json:"fired,omitempty"`
	// Reacted: the unit has used Reaction Fire in this Activation; a
	// weapon with one Reaction target per enemy Activation (crossbows,
	// 9.2) reacts no more.
	Reacted bool `json:"reacted,omitempty"`
	// Engaged: the unit began the current Activation adjacent to an enemy
	// unit, so it may not Charge in it (11.1).
	Engaged bool `json:"engaged,omitempty"`
	// InZOCOf are the enemy units in whose ZOC the unit began the enemy's
	// current Activation (11.5); CounterCharged: it has tried its one
	// Counter-Charge of that Activation.
	InZOCOf []string `json:"in_zoc_of,omitempty"`
	// InZOCAt: with rules.counter_charge_adjacent, InZOCOf are the enemy
	// units adjacent as the Activation began and InZOCAt the hexes they
	// stood in (Blood & Roses 13.3 #3).
	InZOCAt        []hex.Hex `json:"in_zoc_at,omitempty"`
	CounterCharged bool      `json:"counter_charged,omitempty"`
	// Fled: the unit left the field with its fleeing Battle, off the map
	// for good, counting no Flight Points (Blood & Roses 14.8).
	Fled bool `json:"fled,omitempty"`
	// Returning: the unit came back from a Pursuit and enters the map as
	// a reinforcement through its Hex, the fled Battle's Standard (Blood
	// & Roses 14.9).
	Returning bool `json:"returning,omitempty"`
	// Limbered: an Artillery unit on its limbered side (Blood & Roses 2.2,
	// 7.6): it may move; unlimbered it may only fire or change facing.
	Limbered bool `json:"limbered,omitempty"`
	// FiredMarker: the unit carries a FIRED marker (Arquebus 11.5): a
	// Mounted Arquebus or Crossbow that fired mounted may not fire again,
	// Active, Return or Reaction Fire, until it dismounts and reloads. It
	// stays from one Activation to the next.
	FiredMarker bool `json:"fired_marker,omitempty"`
	// EngagedWith are the enemy units this unit carries an ENGAGED marker
	// for (Arquebus 14.5, engaged.go): it may not fire or be fired at, may
	// not Retreat Before Combat, and must Disengage or Shock only them.
	// Not to be confused with Engaged above (11.1).
	EngagedWith []string `json:"engaged_with,omitempty"`
	// Joined is the Battle an ambushing unit joined after its Ambush when
	// it is not the Command it was set up with (Blood & Roses 16.1: "If
	// that Battle is no longer on the map, the player may choose
	// another"); empty otherwise. See unitCommand.
	Joined string `json:"joined,omitempty"`
}

// unitType is unit i's type as it stands: the side of its counter in play.
func unitType(sc *Scenario, st *State, i int) *UnitType {
	if t := st.Units[i].Type; t != "" {
		return sc.Tables.UnitTypes[t]
	}
	return sc.Tables.UnitTypes[sc.Units[i].Type]
}

// ratings are unit i's printed values on the side of its counter in play:
// the battle's own for the side it was set up with, else the type's.
func ratings(sc *Scenario, st *State, i int) Ratings {
	if st.Units[i].Type != "" {
		return unitType(sc, st, i).Ratings
	}
	return sc.Units[i].Ratings
}

// LeaderState is a leader's changing part.
type LeaderState struct {
	ID     string  `json:"id"`
	Hex    hex.Hex `json:"hex"`
	OffMap bool    `json:"off_map,omitempty"`
	// Moved records that the leader has moved in the current Activation,
	// alone or with a unit: he moves once (5.1, ruling R61).
	Moved bool `json:"moved,omitempty"`
	// Killed: the leader was killed or captured (15.4, 15.5) and is not
	// yet replaced (15.6): he is off the map meanwhile. Losses counts each
	// time, for the Flight Points (16.0); Replaced: the counter shows its
	// Replacement side.
	Killed   bool `json:"killed,omitempty"`
	Losses   int  `json:"losses,omitempty"`
	Replaced bool `json:"replaced,omitempty"`
	// Fled: the leader left the field with his Battle (Blood & Roses
	// 14.8).
	Fled bool `json:"fled,omitempty"`
	// Pursued: fled, the leader was Eliminated in Pursuit (Blood & Roses
	// 14.9); Losses counts it.
	Pursued bool `json:"pursued,omitempty"`
	// Returning: back from a Pursuit he joined, the leader is off the map
	// at its re-entry hex (Hex) until he enters with a unit of his Battle
	// or is placed with one (Blood & Roses 14.9).
	Returning bool `json:"returning,omitempty"`
}

// StandardState is a Standard's changing part.
type StandardState struct {
	ID       string  `json:"id"`
	Hex      hex.Hex `json:"hex"`
	Captured bool    `json:"captured,omitempty"`
}

// Outcome is how the battle ended (16.0).
type Outcome struct {
	Draw   bool   `json:"draw,omitempty"`
	Winner Side   `json:"winner"`
	Reason string `json:"reason"`
}

// NewState sets up the scenario's opening position: the first side has a
// Free Activation (3.4, 2.4).
func NewState(sc *Scenario) *State {
	st := &State{
		Scenario: sc.ID,
		Phase:    PhaseActivation,
		Active:   sc.First,
		Kind:     FreeActivation,
		Pending:  Decision{Kind: DecideActivation, Side: sc.First},
	}
	for _, u := range sc.Units {
		st.Units = append(st.Units, UnitState{ID: u.ID, Hex: u.Hex, Facing: u.Facing, Status: u.Status, OffMap: u.OffMap,
			ShieldWall: u.ShieldWall, NoRetreat: u.NoRetreat, Schiltron: u.Schiltron, Limbered: u.Limbered})
	}
	for _, l := range sc.Leaders {
		st.Leaders = append(st.Leaders, LeaderState{ID: l.ID, Hex: l.Hex, OffMap: l.OffMap})
	}
	for _, s := range sc.Standards {
		st.Standards = append(st.Standards, StandardState{ID: s.ID, Hex: s.Hex})
	}
	return st
}

// Clone returns a deep copy: Apply never touches the state it is given.
func (st *State) Clone() *State {
	c := *st
	c.Units = append([]UnitState(nil), st.Units...)
	for i := range c.Units {
		c.Units[i].EngagedWith = slices.Clone(st.Units[i].EngagedWith)
	}
	c.Leaders = append([]LeaderState(nil), st.Leaders...)
	c.Standards = append([]StandardState(nil), st.Standards...)
	c.ArmyUnits, c.ArmyLeaders = slices.Clone(st.ArmyUnits), slices.Clone(st.ArmyLeaders)
	c.AmbushesUsed = slices.Clone(st.AmbushesUsed)
	if st.WallOrders != nil {
		c.WallOrders = make(map[string]int, len(st.WallOrders))
		for k, v := range st.WallOrders {
			c.WallOrders[k] = v
		}
	}
	for i := range st.Standing {
		c.Standing[i] = st.Standing[i].clone()
	}
	if st.Outcome != nil {
		o := *st.Outcome
		c.Outcome = &o
	}
	if st.Retreat != nil {
		r := st.Retreat.clone()
		c.Retreat = &r
	}
	if st.Advance != nil {
		a := st.Advance.clone()
		c.Advance = &a
	}
	if st.FireAsk != nil {
		f := *st.FireAsk
		c.FireAsk = &f
	}
	if st.Reaction != nil {
		p := st.Reaction.clone()
		c.Reaction = &p
	}
	if st.Shock != nil {
		c.Shock = st.Shock.clone()
	}
	c.FlightChecked, c.Fled = slices.Clone(st.FlightChecked), slices.Clone(st.Fled)
	c.Pursuits = nil
	for _, p := range st.Pursuits {
		p.Units = slices.Clone(p.Units)
		c.Pursuits = append(c.Pursuits, p)
	}
	c.Held = st.Held.clone()
	c.Counters = st.Counters.clone()
	c.Declared = nil
	for _, d := range st.Declared {
		c.Declared = append(c.Declared, d.clone())
	}
	return &c
}

// Encode returns the canonical JSON form of the state; two states are the
// same exactly when their encodings are equal.
func (st *State) Encode() []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(fmt.Sprintf("engine: encode state: %v", err)) // plain data cannot fail
	}
	return b
}

// DecodeState is the inverse of Encode.
func DecodeState(b []byte) (*State, error) {
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("engine: decode state: %w", err)
	}
	return &st, nil
}

// Unit returns the state of the unit with the given id.
func (st *State) Unit(id string) *UnitState {
	for i := range st.Units {
		if st.Units[i].ID == id {
			return &st.Units[i]
		}
	}
	return nil
}

// Leader returns the state of the leader with the given id.
func (st *State) Leader(id string) *LeaderState {
	for i := range st.Leaders {
		if st.Leaders[i].ID == id {
			return &st.Leaders[i]
		}
	}
	return nil
}

// Standard returns the state of the Standard with the given id.
func (st *State) Standard(id string) *StandardState {
	for i := range st.Standards {
		if st.Standards[i].ID == id {
			return &st.Standards[i]
		}
	}
	return nil
}
