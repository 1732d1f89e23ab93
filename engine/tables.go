package engine

import "fmt"

// Tables are the charts of one series volume: unit types, the Terrain
// Effects Chart, the Fire/Range DRM chart, the Fire, Shock and Charge Combat
// Results Tables, the Weapon System Matrix. The rule books refer to them but
// do not print them, so Herald ships its own house tables (House is true) that
// agree with every value the books' examples reveal; a player who owns the
// printed game can replace them. Package data loads and validates them; no
// number of the game lives in Go code.
type Tables struct {
	Volume string // "moi", "infidel", ...: the name of its file in data/tables
	Title  string
	House  bool   // Herald's own tables, not the publisher's printed charts
	Source string // the file they were loaded from, for messages

	UnitTypes map[string]*UnitType
	Terrain   map[string]*TerrainType
	Hexsides  map[string]*HexsideType
	Weapons   map[string]*Weapon

	Fire   ResultTable // columns: foot, foot-disordered, mounted, mounted-disordered (12.1)
	Shock  ResultTable // columns: normal, disordered (12.1)
	Charge ResultTable // columns: normal, disordered (12.1)

	// FireDRM are the Fire Table's circumstance DRMs besides range (9.3).
	FireDRM FireDRMs
	// ShockDRM are the fixed Shock and Charge DRMs of 10.4 and the die
	// thresholds of Charge Reluctance and Counter-Charge (11.4, 11.6).
	ShockDRM ShockDRMs
	// LeaderCasualty are the thresholds of 15.4's Leader Casualty Checks.
	LeaderCasualty LeaderCasualty
	// Movement are the fixed Movement Point costs and die thresholds of
	// chapters 7 and 8 that are not terrain.
	Movement MovementRules

	// WSM is the Weapon System Matrix (10.4 #6): attacker type → defender
	// type → DRM. Types with a row here are the "Attacker" row of 10.1; no
	// other unit may Shock attack or Charge.
	WSM map[string]map[string]int

	// SeizurePool is the Seizure counters each player draws his hand from
	// (B&R 6.3, ARQ 6.3), blindly, as many as his side's SeizureCounters;
	// Herald's dice log keeps the hand secret until the game is over
	// (docs/dice.md, "Hidden draws").
	SeizurePool []SeizureCounter

	// CavalryRetreat is the Light Cavalry Retreat Before Shock table of
	// Infidel 12.2 (UnitType.RetreatBefore).
	CavalryRetreat CavalryRetreat

	FlightPoints FlightPointValues

	// Rules are the volume's named rule switches: where a later volume
	// changes a rule of the series, the difference is a switch here, not
	// a branch on the volume's name.
	Rules Rules
}

// MovementRules: "It costs any foot unit 2 MP to leave an enemy Mounted
// unit's ZOC" (7.2, LeaveMountedZOCMP); Mounted MAA move through a friendly
// Missile Infantry unit "at the cost of one extra MP" (8.0, PassThroughMP),
// which on a die of PassThroughDisorderMax or less is Disordered (8.0:
// "0–4").
type MovementRules struct {
	LeaveMountedZOCMP int
	// LeaveMissileZOCMP: "+1 MP for any unit to exit a hex in the ZOC of
	// an enemy missile unit (cumulative with the modifier above)"
	// (Infidel 9.0); 0 in Men of Iron.
	LeaveMissileZOCMP int
	// LeaveAdjacentMP: with Rules.AdjacencyLimits, what a unit pays more
	// to leave a hex adjacent to an enemy unit (Arquebus 7.2: "may move,
	// at the cost of one extra MP to leave the hex"; 11.2: a Light
	// Cavalry Archer that fired there pays it too). 0 in Blood & Roses.
	LeaveAdjacentMP int
	// DisengageMP: what an Engaged unit pays more to leave its hex
	// (Arquebus 14.5: "at a cost of one extra (+1) MP (cumulative with the
	// cost for leaving a hex adjacent to an enemy unit)").
	DisengageMP            int
	PassThroughMP          int
	PassThroughDisorderMax int
	// TerrainDisorderMax: a unit in good order that enters a hex, or
	// crosses a hexside, whose Terrain Chart entry is "D" for its class
	// (TerrainType.Disorder, HexsideType.Disorder) rolls one die, and this
	// or less Disorders it (Arquebus 7.2: "'D' means there is a chance of
	// Disorder"; Herald's own number, ruling R406).
	TerrainDisorderMax int
}

// ShockDRMs are the fixed numbers of Shock and Charge combat (10.4, 11.4,
// 11.6, 12.7, 14.1), "+" favouring the attacker.
type ShockDRMs struct {
	// Angle of Attack (10.4 #2A): through a Flank, through the Rear,
	// through two or more sides (not cumulative with the other two).
	Flank, Rear, TwoSides int
	// Height: all attackers on a lower level than the defender (10.4 #2C).
	Height int
	// Charge: a Mounted MAA successfully charging; ChargeMoved instead
	// when a charging unit moved in its Activation (10.4 #4, 11.2).
	Charge, ChargeMoved int
	// Leader stacked with a charging Mounted MAA (10.4 #5, 15.3).
	Leader int
	// AttackerDisordered: one or more attackers Disordered (10.4 #7).
	AttackerDisordered int
	// DefenderRetired: the defender is Retired (10.4 #8, 12.4).
	DefenderRetired int
	// ShieldWall: a defender in Shield Wall attacked through a Frontal
	// hexside (10.4 #9, 14.1).
	ShieldWall int
	// Schiltron: a defender in Schiltron attacked through any hexside
	// (10.4 #9; Herald's own value, ruling R89).
	Schiltron int
	// ContinuedAttack: per previous attack by the unit in the Activation
	// (12.7).
	ContinuedAttack int
	// CounterChargeShock: a Shock attack Counter-Charged (11.6).
	CounterChargeShock int
	// ReluctanceMax: a Charge Reluctance DR of this or less charges
	// (11.4: "0–4").
	ReluctanceMax int
	// CounterChargeMax: an adjusted Counter-Charge DR of this or less
	// succeeds (11.6: "4 or less"); CounterChargeFacing is added when the
	// unit must change facing to counter-charge.
	CounterChargeMax    int
	CounterChargeFacing int
	// CounterChargeMaxBy overrides CounterChargeMax for one of the three
	// cases, keyed "charge", "shock" or "fire": the later volumes give
	// each its own threshold (Infidel 13.7: "3 or less" against a Charge;
	// Blood & Roses 13.8, 13.9: "5 or less" against Shock and fire).
	CounterChargeMaxBy map[string]int
	// RestraintMax: a Knights' restraint roll, less its Command leader's
	// Activation Rating, of this or less holds it back (Infidel 13.9).
	RestraintMax int
}

// counterChargeMax is the threshold of a Counter-Charge against a Charge,
// a Shock or a fire (mode "charge", "shock", "fire").
func (d ShockDRMs) counterChargeMax(mode string) int {
	if m, ok := d.CounterChargeMaxBy[mode]; ok {
		return m
	}
	return d.CounterChargeMax
}

// LeaderCasualty: a leader in a hex hit by fire is killed on a die of
// Fire or more; a leader stacked with a unit hurt in shock, on a die minus
// his Activation Rating of Shock or more (15.4).
type LeaderCasualty struct {
	// FireTrigger: an adjusted Fire DR of this or more calls the check.
	FireTrigger int
	Fire        int
	Shock       int
}

// Rules are the rule switches of a volume.
type Rules struct {
	// MountedMissileZOC is how enemy ZOCs affect mounted missile units'
	// movement: ZOCIgnore (MoI 5.1: they need not stop on entering one)
	// or ZOCLeaveCost (Infidel 11.2: they need not stop, but pay 1 MP
	// more to leave a hex in an enemy ZOC, and may not enter the ZOC of
	// an enemy unit whose ZOC they have left in the same Activation).
	MountedMissileZOC ZOCRule
	// MountedFireZOCMP is what a mounted missile unit pays to fire during
	// its move from a hex in an enemy ZOC (Infidel 11.2: 1; Men of Iron: 0).
	MountedFireZOCMP int
	// FireOnMove, when set, are the only unit types that fire during their
	// move (a FIRE inside a MOVE order) and move on (Arquebus 11.2: "Light
	// Cavalry Archer and Genitor units may fire during their Movement and
	// continue to move"). Any other unit's Active Fire ends its Move/Fire
	// Phase, mounted or not ("Once a missile capable unit fires, its
	// Move/Fire Phase is finished"), and so does a FIRE order of theirs
	// outside a MOVE (ruling R343). With AdjacencyLimits a unit of these
	// types that fires in a hex adjacent to an enemy unit need not stop
	// there (7.2 "Exception"): it pays MountedFireAdjacentMP to fire,
	// Movement.LeaveAdjacentMP to leave, and may not enter another hex
	// adjacent to an enemy unit it fired next to. Unset: every mounted
	// missile unit fires during its move (Men of Iron 9.2, Infidel 11.2).
	FireOnMove []string
	// MountedFireAdjacentMP is what a FireOnMove unit pays to fire during
	// its move from a hex adjacent to an enemy unit (Arquebus 11.2: "If
	// they are in a hex adjacent to an enemy when they fire, it costs 1
	// MP to fire"), with AdjacencyLimits.
	MountedFireAdjacentMP int
	// ChangeInCommand: a unit mounts or dismounts (UnitType.Becomes) at
	// any point of its move, as Men of Iron 14.2, but on Arquebus 7.4's
	// conditions: within Command Range of its leader (its status at the
	// start of the Activation), not adjacent to an enemy unit, not
	// Disordered; enemy missile range is no bar, and a Hobilar's "no fire
	// in a turn they move" does not apply. A remounted unit moves on up to
	// its foot side's Movement Allowance, the one it began with.
	ChangeInCommand bool
	// DismountEndsMove: a unit that dismounts "may not move any further
	// this Activation" (Arquebus 7.4): DISMOUNT ends the path. Dismounting
	// removes a FIRED marker (UnitType.FiredMarker; 11.5 "When it
	// dismounts, the unit reloads its weapons").
	DismountEndsMove bool
	// ReluctanceOwnDRM adds the charging unit's own Shock Defense DRM to
	// its Charge Reluctance DR (Infidel 13.5: "A Saracen Heavy Cavalry
	// with a Defender DRM of -1 rolls a '7' ... adjusts that to a '6'").
	ReluctanceOwnDRM bool
	// CounterChargeNoDefense leaves the unit's Shock Defense DRM out of
	// the Counter-Charge DR (Blood & Roses 13.7–13.9: only +1 for a change
	// of facing); Men of Iron 11.6 adds it.
	CounterChargeNoDefense bool
	// LeaderCharisma: the Leader Presence DRM is the Charisma of a leader
	// stacked with any attacking unit, the highest one, once (Blood &
	// Roses and Arquebus 12.3 #4), instead of Men of Iron's +1 for a
	// leader with a charging Mounted MAA (10.4 #5, 15.3).
	LeaderCharisma bool
	// CharismaOwnLeaders limits LeaderCharisma to the Overall Commander
	// and the attacking unit's own Battle leader (Arquebus 5.2: "any
	// unit stacked with the OC or its Battle leader"); Blood & Roses 5.4
	// counts any leader, "even a unit from another Battle".
	CharismaOwnLeaders bool
	// CounterChargeReactionFire: a Counter-Charge against missile fire
	// draws Reaction Fire on its way like a Charge (Men of Iron 9.2:
	// "Charges (including Counter-Charge)"); Blood & Roses and Arquebus
	// 13.6: "No Reaction Fire is allowed against a unit Counter-Charging
	// against Fire" (ruling R87).
	CounterChargeReactionFire bool
	// OCActivationBonus is added to the Activation Rating of a leader
	// within his Overall Commander's Command Range, not the Overall
	// Commander himself, for Continuation and Seizure rolls (Infidel 5.3:
	// "increased by one"). 0 in Men of Iron, which has no Overall
	// Commanders.
	OCActivationBonus int
	// LeaderPresenceTypes: attacking units of these types stacked with
	// their Command leader or their Overall Commander earn the Leader
	// DRM (ShockDRMs.Leader) in Shock and Charge alike, once per attack
	// (Infidel 5.3, 12.3 #4: Knights and Heavy Cavalry), instead of Men
	// of Iron's leader with a charging Mounted MAA (10.4 #5).
	LeaderPresenceTypes []string
	// CharismaTypes: when units of these types attack stacked with a
	// leader who has Charisma, it is added too, the highest once
	// (Infidel 5.4, 12.3 #4: Knights and Crusader leaders).
	CharismaTypes []string
	// NoPassThrough: no unit moves through another (Infidel 10.0:
	// "Combat units may not stack ... at any time, even during
	// movement"), where Men of Iron 8.0 lets Mounted MAA pass through
	// friendly missile infantry.
	NoPassThrough bool
	// FaceToFire: a unit that fires during its move faces its target as
	// it fires (Infidel 8.0: "once it stops movement or conducts missile
	// fire it must be faced in a specific direction"; ruling R155).
	FaceToFire bool
	// ZOCTerrain: a ZOC does not extend into a hex, or across a hexside,
	// that the exerting unit may not enter or cross (Infidel 9.0); Men of
	// Iron's reaches both Frontal hexes whatever the terrain (7.1).
	ZOCTerrain bool
	// RetireThroughZOC: a Retiring unit's route to its Standard may pass
	// enemy ZOCs (Infidel 14.4: "not blocked by enemy units and impassable
	// terrain (but not ZOC)"); Men of Iron 12.4 counts them as blocking.
	RetireThroughZOC bool
	// RetireClearOfAttackers: a Retiring unit may not be placed next to
	// the enemy units that caused the result, and is Eliminated if every
	// hex it could reach is (Infidel 14.4).
	RetireClearOfAttackers bool
	// RetreatBeforeContinued: Retreat Before Shock is open against a
	// Continued Attack too (Infidel 12.2: "applies to any attack,
	// including a Continued Attack"); Men of Iron 10.2 says nothing of it,
	// and Herald offers it there only in the Shock Phase's Step 2.
	RetreatBeforeContinued bool
	// LeaderCasualtyUnmodified: the Leader Casualty die after a Shock or
	// Charge result is read "with no adjustments" against
	// leader_casualty.shock (Blood & Roses 5.5: 7 or more kills); Men of
	// Iron 15.4 subtracts the leader's Activation Rating.
	LeaderCasualtyUnmodified bool
	// ArmyActivation: a player may Activate his whole army instead of a
	// Battle, to move only (Blood & Roses 6.1): ACTIVATE ARMY in a Free
	// Activation, CONTINUE ARMY after an Army Activation (6.2, 4.0 E).
	// ArmyClearance: the units and leaders Activated must be more than
	// this many hexes from any enemy unit (6.1: three); ArmyMoveClearance:
	// none may move within this many hexes of an enemy unit (6.1: four);
	// ArmyContinuationDRM is added to an Army Continuation DR, against the
	// Overall Commander's Activation Rating (6.2: +1).
	ArmyActivation      bool
	ArmyClearance       int
	ArmyMoveClearance   int
	ArmyContinuationDRM int
	// ArmyContinuationFixed: an Army Continuation DR succeeds when,
	// adjusted, it is ArmyContinuationMax or less, not against the Overall
	// Commander's Activation Rating (Arquebus 6.2: "If the (adjusted) DR
	// is 2 or less, the Army Activation succeeds").
	ArmyContinuationFixed bool
	ArmyContinuationMax   int
	// RetreatBeforeFoot are the foot types that may Retreat Before Combat
	// as mounted units may (Arquebus 12.2: "Any Mounted unit, foot
	// Arquebus, foot Crossbow, Longbow, or Skirmisher unit"), one hex.
	// RetreatBeforeHexes, when more than 1, is how far mounted units and
	// the types in RetreatBeforeFar may go instead ("If the unit is a
	// Skirmisher or Mounted, it may retreat one to three hexes"), each hex
	// farther from every attacker (ruling R387).
	RetreatBeforeFoot, RetreatBeforeFar []string
	RetreatBeforeHexes                  int
	// NoAdvanceShockDefense: when more than 0, a unit whose Shock Defense
	// DRM on the side in play is this or more never Advances After Combat
	// (Arquebus 12.4: "It is a unit of any type with a Shock Defense DRM
	// +2 or higher"), read from the unit's own ratings (ruling R384).
	NoAdvanceShockDefense int
	// SwissReluctance: a unit of a type marked Swiss rolls before its
	// Shock attack (Arquebus 16.2, swiss.go); SwissAttackMax and
	// SwissRefuseMax are the highest adjusted DRs with which it attacks
	// ("6 or less") and refuses ("7 to 9"); above, it goes home.
	SwissReluctance                bool
	SwissAttackMax, SwissRefuseMax int
	// OCEffectiveness: the Overall Commander's Effectiveness
	// (LeaderSpec.Effectiveness) is added to the Continuation DR of a
	// Battle leader within his Command Range, not his own, and to every
	// Army Continuation DR (Arquebus 5.2, 6.2). A Replacement is no
	// Overall Commander and has none.
	OCEffectiveness bool
	// ContinuityLeaderOnMap: a Battle may be named for Continuation or
	// Seizure only while its leader is on the map (Arquebus 6.2: "only
	// leaders currently on the map can attempt Continuation"; 6.3: a
	// Battle "which must have a leader on the map"), and a battle may
	// give a Battle no leader at all (6.4 Leaderless Battles): it is
	// activated only by a Free Activation, and its units are always Out
	// of Command.
	ContinuityLeaderOnMap bool
	// OneBattleContinuationDRM: a player with only one Battle adds this
	// much more to each new Continuation DR, cumulative, kept until the
	// penalties reset even if another Battle enters (Blood & Roses 6.2:
	// +1). 0 in Men of Iron and Infidel.
	OneBattleContinuationDRM int
	// SeizureCounters: Continuity is Seized only by playing a Seizure
	// Opportunity counter, whose printed DR range decides, never against a
	// leader's Activation Rating; the counters are dealt to each side at
	// setup (DealSeizureCounters) and kept secret until played (Blood &
	// Roses 6.3).
	SeizureCounters bool
	// AdjacencyLimits: adjacency to an enemy unit takes the place of Zones
	// of Control in movement (Blood & Roses 9.0 Design Note: "while the
	// actual ZOC rule is gone, there are some adjacency limitations"). A
	// unit must stop when it moves adjacent to an enemy unit; an in-Command
	// unit that begins its move adjacent to an enemy unit may not move
	// directly into another hex adjacent to that unit (7.1); an Out of
	// Command unit that begins adjacent may not move (5.3); a unit that
	// begins adjacent and stays in its hex turns one vertex (8.0); a
	// leader moving alone may not enter a hex adjacent to an enemy unit
	// unless a friendly unit is there (7.1). Men of Iron's ZOC rules
	// (5.1, 6.2, 7.2, 15.2) are the default.
	AdjacencyLimits bool
	// LeaderAloneMA is the Movement Allowance of a leader who moves on his
	// own (Blood & Roses 7.1: "his Movement Allowance is 5"); 0, the
	// default, is his printed one (Men of Iron 5.1).
	LeaderAloneMA int
	// IntoTheBreachDRM is what an Into the Breach counter adds to the
	// Shock or Charge DR it is played for (Blood & Roses and Arquebus
	// 6.3: "+1 DRM for one Shock/Charge attack").
	IntoTheBreachDRM int
	// AmbushMAFactor multiplies the Movement Allowance of a unit coming
	// out of its Ambush (Blood & Roses 16.1: "can double its Movement
	// Allowance", 2); 0, the default, leaves it as printed.
	AmbushMAFactor int
	// PassThrough, when set, replaces Men of Iron 8.0's pass-through
	// (Mounted MAA through friendly missile infantry, with its die) by
	// the volume's lists (Blood & Roses 10.0). NoPassThrough still wins.
	PassThrough *PassThroughRule
	// Stacking, when set, lets two friendly units share a hex, each pair
	// only as a StackRule allows (Arquebus 10.0 "With some exceptions, one
	// unit ... may exist in one hex"). Empty: combat units never stack.
	Stacking []StackRule
	// StackShockRow: in Shock against a stack, the Weapon System Matrix
	// row (and the Shock Defense, terrain and facing) is the unit whose
	// type is not listed; of two listed, the one listed first (Arquebus
	// 10.3: "use the defender row of the other unit"; "If the stack is of
	// two Sapper units, or one Sapper unit and one Artillery unit, use the
	// Sapper row"; ruling R366).
	StackShockRow []string
	// ShockImmune types never suffer a Shock or Charge result (Arquebus
	// 10.3: "Baggage Wagons never suffer results from Shock/Charge
	// combat").
	ShockImmune []string
	// ReactionIntoEmptyHex: no Reaction Fire at a unit entering a hex that
	// already holds a unit of its side, as when it stacks (Arquebus 11.2:
	// "into an adjacent frontal hex that does not already contain an enemy
	// unit").
	ReactionIntoEmptyHex bool
	// DismountAtStart: a unit changes to its other side only at the
	// beginning of its move, and the change's cost comes out of the new
	// side's Movement Allowance (Blood & Roses 7.4: "may dismount at the
	// beginning of its move at the cost of 2 MP (subtracted from its
	// dismounted Movement Allowance)"); it must be in Command ("within
	// Command Range of their leader") and not adjacent to an enemy unit,
	// but enemy missile range does not bar it. Default false: Men of Iron
	// 14.2's Hobilars change anywhere on their path, out of enemy missile
	// range.
	DismountAtStart bool
	// RetreatBeforeDisorders: every unit that Retreats Before Shock is
	// Disordered at the end of it (Blood & Roses 12.2: "Mounted units
	// that Retreat Before Combat become Disordered"), where Men of Iron
	// 10.2 Disorders only Mounted MAA.
	RetreatBeforeDisorders bool
	// ChargeNotAdjacentAtShock: a unit next to an enemy unit as the Shock
	// Phase begins may not Charge (Blood & Roses 13.3 #2: "began the
	// Activation or the Shock Phase adjacent to an enemy unit"); Men of
	// Iron 11.1 bars only the Activation's start.
	ChargeNotAdjacentAtShock bool
	// ChargePathNotAdjacent: a Charge path may not cross a hex adjacent
	// to an enemy unit, but may end in one (Blood & Roses 13.3 #5d);
	// Men of Iron 11.3 bars enemy ZOC hexes, which Blood & Roses has not.
	ChargePathNotAdjacent bool
	// ChargePathTerrain: no hex of a Charge path may be of a terrain that
	// may not be Charged into (Blood & Roses 13.3 #5h: "May not cross a
	// Woods, Marsh, Bog, Town, or Hedgerow/Brush hex"); Men of Iron 11.3
	// bars only the target's hex.
	ChargePathTerrain bool
	// CounterChargeAdjacent: a unit that began the enemy Activation next
	// to an enemy unit may not Counter-Charge while that unit is still
	// adjacent and has not left its hex, whoever it attacks (Blood &
	// Roses 13.3 #3); Men of Iron 11.5 bars a unit still in the ZOC of
	// another enemy unit.
	CounterChargeAdjacent bool
	// CounterChargeFireAnyRange: a Counter-Charge against fire reaches a
	// firer at any distance along a clear Charge path (Blood & Roses 13.3
	// #5e iii: "any number of hexes may separate"); otherwise one to
	// three hexes, the Charge's reach (ruling R81).
	CounterChargeFireAnyRange bool
	// CounterChargeFireUnhorsedEnds: a unit Unhorsed by the fire it
	// Counter-Charges ends its Counter-Charge in its starting hex and
	// facing (Blood & Roses 13.9, 14.3); otherwise it attacks on foot.
	CounterChargeFireUnhorsedEnds bool
	// RetireNextToStandard: a Retiring unit is placed in or adjacent to
	// its Standard, else it is Eliminated (Blood & Roses 14.5); otherwise
	// as close to it as it can.
	RetireNextToStandard bool
	// BattleFlightMax: with the battle's optional Battle Flight
	// (BattleRules.BattleFlight), an adjusted Battle Flight DR of this or
	// less flees (Blood & Roses 14.8: "4 or less").
	BattleFlightMax int
	// BattleFlightIgnores are the unit types a Battle's Battle Flight
	// does not count among its starting units, and which are Eliminated
	// when it flees (Blood & Roses 14.8: Artillery).
	BattleFlightIgnores []string
	// Pursuit: the numbers of the optional Pursuit (Blood & Roses 14.9)
	// that a battle's rules.pursuit uses; nil in the volumes without it.
	Pursuit *PursuitTable
	// FireDisorderCheck: a unit of a type that is never Disordered
	// (UnitType.NeverDisordered) suffering a Disorder result from missile
	// fire rolls one die: FireDisorderCheckMax or less Eliminates it, more
	// has no effect (Blood & Roses 14.2: "if the DR is 4 or less the
	// Artillery unit is Eliminated. if the DR is 5 or more, there is no
	// effect"). Without it such a unit is Eliminated by a fire Disorder as
	// by a Shock one.
	FireDisorderCheck    bool
	FireDisorderCheckMax int
	// OneReactionPerEntry: "Only one missile unit (owner's choice) can
	// Reaction fire at an enemy unit when it enters a hex, no matter how
	// many units are adjacent to the hex" (Blood & Roses 11.2); Men of
	// Iron 9.2 lets every eligible unit react.
	OneReactionPerEntry bool
	// OverUnitsFriendAdjacent: units do not block the line of sight of a
	// weapon that fires over units "unless it is a friendly unit which is
	// adjacent to the target" (Blood & Roses 11.4); Men of Iron 9.4 lets
	// archers fire over any unit.
	OverUnitsFriendAdjacent bool
	// HedgerowCover: "If a LOS is traced through a Hedgerow/Brush hex or
	// Hedgerow hexside to a non-missile unit adjacent to the Hedgerow/
	// Brush hex or Hedgerow hexside, it and any leader stacked with it
	// are unaffected by incoming missile fire, unless the target and the
	// firer are in adjacent hexes" (Blood & Roses 11.4; the hedgerows are
	// the terrain and hexsides the tables mark `hedgerow`).
	HedgerowCover bool
	// ShockTerrainAll: with attackers in different hex or hexside terrain
	// "apply all terrain DRMs (but a single DRM is only applied once)"
	// (Arquebus 12.3 #2B): each terrain and hexside feature counts once,
	// at the value most favourable to the defender among the attackers it
	// concerns (ruling R420). Men of Iron 10.4 #2B takes the one attacker's
	// total most favourable to the defender.
	ShockTerrainAll bool
	// RetreatThrough, when set, are the only unit types a retreating
	// friendly unit may pass through, "not stacked with another unit, even
	// if that unit is Engaged" (Arquebus 14.3); a Retired one is
	// Eliminated, and a leader with a unit it Retires or Eliminates checks
	// (ruling R421). Unset, Men of Iron 12.3's friendly missile infantry.
	RetreatThrough []string
	// RetiredOnlyByRetreat: only a Retreat, Retire or Eliminated result
	// eliminates a Retired unit (Arquebus 14.4), not a Disorder (Men of
	// Iron 12.4 "any negative combat result"; ruling R423).
	RetiredOnlyByRetreat bool
	// RetireAtStandardEliminates: "If the unit is stacked with its
	// Standard when it incurs a Retired result, it is instead Eliminated"
	// (Arquebus 14.4).
	RetireAtStandardEliminates bool
	// RetreatEliminates are unit types a Retreat or Retire result, by fire
	// or Shock/Charge, Eliminates, where a Disorder does not (Arquebus 16.3
	// Gun Wagons; ruling R425).
	RetreatEliminates []string
	// DisplaceToBattle: a displaced leader goes to the nearest unit of his
	// Battle, on the map or a reinforcement group not yet entered, and an
	// Overall Commander with no unit of his own left to the closest
	// friendly unit (Arquebus 5.4 and its Play Note; ruling R426). Men of
	// Iron 15.4: the nearest unit of his Command on the map, or he rides
	// off.
	DisplaceToBattle bool
	// StandardsDisplaced: a Standard is never captured; an enemy unit
	// entering its hex moves it by the procedure of an Activated
	// Standard, and the Retired units left within one hex roll one die
	// with no DRM, 5 or more Eliminated (Arquebus 15.2; rulings R428,
	// R430); an Activated Standard may not move into a Reinforcement hex.
	// Men of Iron 13.2 captures it, and adds a Retired unit's Disordered
	// Shock DRM to that die.
	StandardsDisplaced bool
	// ReactionUnlimberedOnly: a unit with a limbered side (UnitType.
	// LimberedSide) may use Reaction Fire only while unlimbered (Arquebus
	// 11.2: Artillery "Reaction Fire ... When already unlimbered"); Blood
	// & Roses lets limbered Artillery react, its fire unlimbering it
	// (ruling R240).
	ReactionUnlimberedOnly bool
	// CounterChargeFireMA: a Counter-Charge against fire reaches a firer
	// as many hexes away as the unit's Movement Allowance, adjacent
	// included (Arquebus 13.3 #5e iii, 13.9; ruling R402), instead of one
	// to three hexes; CounterChargeFireAnyRange still wins.
	CounterChargeFireMA bool
	// RainingFire: a weapon that fires over units (Weapon.OverUnits) does
	// so only over a unit next to the firer at a target two hexes off,
	// and not over a friendly unit Engaged with the target (Arquebus 11.4
	// Raining Fire; ruling R405); other units block its line of sight as
	// they block a crossbow's. fire_drm.over_units is the Raining Fire
	// DRM. Men of Iron 9.4 lets archers fire over any unit at any range.
	RainingFire bool
}

// PassThroughRule is a volume's own pass-through (Blood & Roses 10.0):
// units of a Movers type may move through friendly units at
// MovementRules.PassThroughMP a hex; any unit may move through a friendly
// unit of a Free type at no extra cost; units of a Never type move through
// no unit at all. Combat units still never end a move stacked.
type PassThroughRule struct {
	Movers, Free, Never []string
	// NotThrough types are never moved through (Arquebus 10.0: "not a
	// limbered Artillery, Pike, or Sword & Buckler unit"); Unlimbered:
	// Artillery (a limbered_side type) is moved through only unlimbered.
	NotThrough []string
	Unlimbered bool
}

// StackRule: a unit of a Units type may end a move in the hex of a
// friendly unit of a With type, or the other way round (Arquebus 10.0).
// With may hold StackAny, every type. Unlimbered: neither unit may be
// limbered Artillery ("an unlimbered Artillery unit"; Sappers "except
// limbered Artillery units"). Never more than two units a hex.
type StackRule struct {
	Units, With []string
	Unlimbered  bool
}

// StackAny in StackRule.With stands for every unit type.
const StackAny = "any"

// ZOCRule is a value of Rules.MountedMissileZOC.
type ZOCRule string

const (
	ZOCIgnore    ZOCRule = "ignore"     // the default
	ZOCLeaveCost ZOCRule = "leave-cost" // Infidel 11.2
)

// FlightPointValues are the Flight Points of 16.0 that do not depend on the
// unit type (those are UnitType.FlightPoints).
type FlightPointValues struct {
	Retired int // per Retired unit, regardless of type
	Leader  int // per eliminated leader who is not a King
	King    int
	// OverallCommander: losing the Overall Commander (Infidel 3.0: 5 FP).
	// Only his first loss counts so: his Replacement "never count[s] as
	// Overall Commander, only Command leader" (5.6). 0: he counts as any
	// other leader (Men of Iron has no Overall Commanders).
	OverallCommander int
	// NamedLeadersOnly: a leader's loss counts once, for the named
	// leader; his Replacement's do not (Infidel 5.5: "Killed/captured
	// named leaders (not replacements) count towards the Flight Point
	// total"). Men of Iron 16.0 counts each loss.
	NamedLeadersOnly bool
}

// Class is what the Terrain Effects Chart distinguishes: foot, mounted, and
// leaders moving alone (5.1).
type Class string

const (
	Foot    Class = "foot"
	Mounted Class = "mounted"
	Leader  Class = "leader"
)

// UnitType is one kind of combat unit (2.2, 2.4).
type UnitType struct {
	Key     string // "LB"
	Name    string // "Longbow"
	Mounted bool   // 2.4 Mounted Unit; otherwise a Foot unit
	// Weapon is the key of the missile weapon (Tables.Weapons); empty for a
	// unit that cannot fire (2.4 Missile Unit).
	Weapon string
	// MAA marks men-at-arms, mounted or not, which cost 3 Flight Points
	// (16.0).
	MAA bool
	// ZOC is true for units that exert a Zone of Control into their frontal
	// hexes (7.1: missile infantry and mounted units capable of Shock).
	ZOC bool
	// Charges is true for units that may Charge (11.1: Mounted MAA only).
	Charges bool
	// FlightPoints when the unit is Eliminated (16.0).
	FlightPoints int
	// Ratings are the printed values, used when a unit does not give its own.
	Ratings Ratings
	// ShieldWall: units of the type may form Shield Wall (14.1: Pike
	// Infantry and Dismounted MAA).
	ShieldWall bool
	// Schiltron: units of the type may form Schiltron (ruling R89: Pike).
	Schiltron bool
	// Becomes is the type on the counter's other side for units that mount
	// and dismount (14.2 Hobilars: MHOB ⇄ DHOB), and ChangeCost the MP the
	// change takes; empty and 0 for every other type.
	Becomes    string
	ChangeCost int
	// ShockPartner: a unit of this type may Shock attack only together
	// with another unit, of a type without this mark, attacking the same
	// defender (Blood & Roses 16.3 Levy Infantry: "May only Shock attack
	// in conjunction with another unit that is not also a Levy Infantry
	// unit").
	ShockPartner bool
	// NoAdvance: never Advances After Combat; NoContinuedAttack: is never
	// the unit to make a Continued Attack (Blood & Roses 16.3: "They may
	// never Advance After Combat and may never be the unit chosen to
	// receive a Continued Attack marker").
	NoAdvance, NoContinuedAttack bool
	// OneWay: the change to Becomes cannot be undone, and Becomes names
	// no way back (Blood & Roses 7.4: "Once dismounted, they may not
	// remount during the battle").
	OneWay bool
	// Unhorsed is the type that replaces a unit of this type Unhorsed by
	// a combat result (12.5: Mounted MAA become Unhorsed MAA); empty when
	// the type cannot be unhorsed.
	Unhorsed string
	// Reluctance: Mounted MAA charging a unit of this type through its
	// Frontal hexside roll for Charge Reluctance (11.4: Dismounted MAA
	// and pike-armed infantry, not Unhorsed MAA nor axes).
	Reluctance bool
	// NeverReluctant: chargers of this type never roll for Reluctance
	// (Infidel 13.5, 16.1: only Heavy Cavalry roll, "never Knights").
	NeverReluctant bool
	// RetreatBefore are the mounted types a unit of this type may Retreat
	// Before Shock from, rolling on Tables.CavalryRetreat (Infidel 12.2:
	// "Light Cavalry ... if attacked by Knights, Heavy Cavalry, or Medium
	// Cavalry"). Empty: like every mounted unit, only from foot (10.2).
	RetreatBefore []string
	// RetireAsRetreat: a Retire result Retreats the unit instead (Infidel
	// 16.1: "Knights never Retire ... it is Retreated (14.3) instead").
	RetireAsRetreat bool
	// NoDisorderedSide: the counter has no Disordered side, so a Disorder
	// Retires it instead (Infidel 2.2, 14.2).
	NoDisorderedSide bool
	// MustCounterChargeFire: a unit of this type must Counter-Charge a
	// unit firing at it when it can, unless its owner restrains it with a
	// roll less its Command leader's Activation Rating, ShockDRMs.
	// RestraintMax or less holding it back (Infidel 13.9, 16.1 Knights).
	MustCounterChargeFire bool
	// AlwaysInCommand: units of this type are never Out of Command,
	// wherever their leader is, except for the restraint of their
	// Counter-Charge against fire (Infidel 16.1: Knights).
	AlwaysInCommand bool
	// FireOrShock: a unit of this type that fired in its own Activation
	// may not Shock attack in it (Infidel 16.2 Archers with Flails: "If
	// they Fire when Activated, they may not Shock attack, and vice
	// versa"; the Shock Phase follows all fire, so the converse holds).
	FireOrShock bool
	// ReactedDefendsAs: a unit of this type that used Reaction Fire in an
	// enemy Activation is defended on the Weapon System Matrix as this
	// type for the rest of it (Infidel 16.2: "as Archers, not as Archers
	// with Flails").
	ReactedDefendsAs string
	// LimberedSide: the counter's reverse is its limbered side, not a
	// Disordered side (Blood & Roses 2.2: "Artillery have their limbered
	// side on the reverse"). Limbered it moves; unlimbered it may only
	// fire or change facing; firing turns it to its unlimbered side for
	// good (7.6; UnitState.Limbered).
	LimberedSide bool
	// NeverDisordered: the unit is never Disordered; a Disorder, Retreat
	// or Retire result Eliminates it instead (Blood & Roses 12.3, 14.2,
	// 14.4, 14.5: Artillery), a Disorder from missile fire only on a
	// die (Rules.FireDisorderCheck).
	NeverDisordered bool
	// FiredMarker: a unit of this type that fires (Active, Return or
	// Reaction Fire) takes a FIRED marker and may not fire again until it
	// dismounts, which reloads it (Arquebus 11.1, 11.5: Mounted Arquebus
	// and Mounted Crossbow; UnitState.FiredMarker).
	FiredMarker bool
	// NoShockDie: no die is rolled when a unit of this type is Shocked or
	// Charged (alone: the engine has no stacking yet); a Shock Eliminates
	// it, a Charge Eliminates it with a Continued Attack (Arquebus 12.5:
	// Artillery; ruling R403).
	NoShockDie bool
}

// CavalryRetreat is the die a unit rolls after it Retreats Before Shock
// from mounted attackers (Infidel 12.2), plus its Shock Defense DRM: the
// band for a Shock or Charge, and the band for a Counter-Charge.
type CavalryRetreat struct {
	Shock, CounterCharge RetreatBand
}

// RetreatBand: an adjusted DR of UnharmedMax or less retreats unharmed; up
// to DisorderedMax (every higher roll when it is 0) retreats Disordered;
// above it the unit may not retreat and is attacked where it stood.
type RetreatBand struct {
	UnharmedMax, DisorderedMax int
}

// Class returns the Terrain Effects Chart column of the type.
func (t *UnitType) Class() Class {
	if t.Mounted {
		return Mounted
	}
	return Foot
}

// Missile reports whether the type can fire (2.4 Missile Unit).
func (t *UnitType) Missile() bool { return t.Weapon != "" }

// Cost is a Movement Point cost from the Terrain Effects Chart. NA means
// "Not Allowed" (entry prohibited).
type Cost int

// NA is the Terrain Effects Chart's "NA": prohibited.
const NA Cost = -1

func (c Cost) String() string {
	if c == NA {
		return "NA"
	}
	return fmt.Sprint(int(c))
}

// TerrainType is a row of the Terrain Effects Chart for hex terrain.
type TerrainType struct {
	Key  string
	Name string
	// Cost to enter, per class (5.1).
	Cost map[Class]Cost
	// BlocksLOS: woods, town, castle, building, village (9.4).
	BlocksLOS bool
	// NoCharge: a unit in this hex may not be Charged (11.3: woods, marsh,
	// city, rough).
	NoCharge bool
	// ShockDRM is the Position Advantage terrain DRM when the defender is
	// in this hex, per attacker class (10.4 #2B).
	ShockDRM map[Class]int
	// Hedgerow: a Hedgerow/Brush hex (Blood & Roses 11.4; Weapon.
	// HedgerowBlocks, Rules.HedgerowCover).
	Hedgerow bool
	// NoShock: the Shock DRM is "NA" for attackers of the class: they may
	// not Shock or Charge a defender in this hex (Arquebus 12.3 #2B).
	NoShock map[Class]bool
	// Disorder: the Terrain Chart's "D" for the class: a unit of it
	// entering the hex rolls for Disorder (Arquebus 7.2; MovementRules.
	// TerrainDisorderMax).
	Disorder map[Class]bool
}

// HexsideType is a row of the Terrain Effects Chart for hexside features.
type HexsideType struct {
	Key  string
	Name string
	// Cost added to cross the hexside, per class; NA = may not cross.
	Cost map[Class]Cost
	// Road hexsides negate the terrain of the hex entered, but not
	// elevation changes (5.1).
	Road bool
	// Slope hexsides rise from the Hexside's Low to High hex (9.4, 10.4).
	Slope bool
	// NoCharge: may not be crossed by a Charge (11.3: rivers, steep slopes).
	NoCharge bool
	// ShockDRM when attacking across the hexside, per attacker class.
	ShockDRM map[Class]int
	// Reluctance is added to the Charge Reluctance DR across it (11.4
	// PLAY NOTE: hedges +1).
	Reluctance int
	// Hedgerow: a Hedgerow hexside (Blood & Roses 11.4; Weapon.
	// HedgerowBlocks, Rules.HedgerowCover).
	Hedgerow bool
	// BlocksLOS: a line of sight that crosses the hexside is blocked, for
	// fire and for Charge alike, the firing and target hexes' own
	// hexsides too (Arquebus 11.4: "by Wall hexsides and the two
	// impassable hexsides of the Torre del Gallo ... Units may not fire
	// through a Wall hexside"; ruling R401).
	BlocksLOS bool
	// NoShock: no Shock or Charge across it by attackers of the class
	// (Arquebus 12.3 #2B: a Shock/Charge DRM of "NA").
	NoShock map[Class]bool
	// Disorder: a unit of the class crossing it rolls for Disorder
	// (Arquebus 7.2 "D").
	Disorder map[Class]bool
}

// Weapon is a row of the Fire/Range DRM chart (9.1, 9.3).
type Weapon struct {
	Key  string
	Name string
	// RangeDRM[r-1] is the DRM at range r; its length is the maximum range.
	RangeDRM []int
	// ReturnFire: may use Return Fire (9.2: not crossbows).
	ReturnFire bool
	// ReactionTargets limits Reaction Fire to that many enemy units per
	// enemy Activation; 0 means each unit that triggers it (9.2).
	ReactionTargets int
	// OverUnits: may fire over other units (9.4: all but crossbows).
	OverUnits bool
	// FrontOnly: fires through its Frontal hexsides only (Blood & Roses
	// 11.1: "Artillery may only fire through their frontal hexes"); other
	// weapons fire through Frontal and Flank hexsides (9.1).
	FrontOnly bool
	// Misfire is what a natural 0 on the unit's fire does to the firer
	// instead of any result on the target (Blood & Roses 11.3 Artillery/
	// Handgun Reliability): MisfireEliminated ("the guns blow up and the
	// unit is Eliminated"), MisfireDisordered ("the unit is Disordered or
	// if already Disordered, it is Retired"), or "" for none.
	Misfire string
	// HedgerowBlocks: the weapon's line of sight is blocked by hedgerow
	// hexes and hexsides (TerrainType.Hedgerow, HexsideType.Hedgerow)
	// other than those of the firing or target hex (Blood & Roses 11.4:
	// "for Handguns by Hedgerow/Brush hexes and Hedgerow hexsides which
	// are not part of the firing or target unit's hex").
	HedgerowBlocks bool
	// ReactionFirstOnly: the unit may react only to the first enemy unit
	// that moves or Charges into its Frontal hex in an enemy Activation
	// and that it could fire at; if it does not fire at that one it has
	// spent its Reaction Fire (Blood & Roses 11.2 Artillery and Handguns:
	// "This applies to only the first enemy unit that does so in a given
	// Activation"; ruling R248). ReactionTargets still limits its shots.
	ReactionFirstOnly bool
}

// The values of Weapon.Misfire (Blood & Roses 11.3).
const (
	MisfireEliminated = "eliminated"
	MisfireDisordered = "disordered"
)

// MaxRange is the longest range the weapon can fire at.
func (w *Weapon) MaxRange() int { return len(w.RangeDRM) }

// ResultTable is a combat results table: rows are bands of modified die
// rolls, columns the target's or defender's condition. Totals beyond the
// first or last row use that row (a ruling: the books print modified totals
// such as 12 and never clamp).
type ResultTable struct {
	Name    string
	Columns []string
	Rows    []ResultRow
}

// ResultRow holds the results for modified totals from Min to Max inclusive.
type ResultRow struct {
	Min, Max int
	Results  map[string]Result // by column
}

// Lookup returns the result for a modified total in a column.
func (t *ResultTable) Lookup(column string, total int) (Result, bool) {
	if len(t.Rows) == 0 {
		return Result{}, false
	}
	row := t.Rows[0]
	switch {
	case total < t.Rows[0].Min:
		row = t.Rows[0]
	case total > t.Rows[len(t.Rows)-1].Max:
		row = t.Rows[len(t.Rows)-1]
	default:
		for _, r := range t.Rows {
			if total >= r.Min && total <= r.Max {
				row = r
				break
			}
		}
	}
	res, ok := row.Results[column]
	return res, ok
}

// Result is one cell of a results table (12.0), as printed and as effects.
type Result struct {
	Text     string   // as the table prints it: "Defender Disordered, Retreat 1 Hex, Continued Attack"
	Defender []Effect // effects on the target or defender
	Attacker []Effect // effects on the attacking units (Shock and Charge tables)
	// ContinuedAttack: the attacker earns a Continued Attack (12.7).
	ContinuedAttack bool
	// Engaged: the attackers and the defender are Engaged with one another
	// (Arquebus 14.5: "the units involved in that combat mixing together
	// and continuing to fight"; engaged.go, ruling R380).
	Engaged bool
	// AttackerChoice: Attacker holds a Disorder and a Retreat of which
	// each attacking unit suffers one, its player's choice (Blood & Roses
	// 14.1: "If the attacker has a choice of Disorder or Retreat, he may
	// choose different effects for each attacking unit"); the table
	// prints "Attacker Disordered or Retreat 1 Hex".
	AttackerChoice bool
}

// Effect is one combat result applied to a unit (12.2–12.6).
type Effect struct {
	Kind  EffectKind
	Hexes int // for Retreat: how many hexes
	// Why is set when a rule turned the printed result into this one
	// (Blood & Roses Artillery, neverDisordered): it is added to the cause.
	Why string
}

// why is the rule that made the effect what it is, as a cause's tail.
func (e Effect) why() string {
	if e.Why == "" {
		return ""
	}
	return "; " + e.Why
}

// EffectKind enumerates the combat results of 12.0.
type EffectKind int

const (
	EffectDisordered EffectKind = iota + 1 // 12.2
	EffectRetreat                          // 12.3
	EffectRetired                          // 12.4
	EffectUnhorsed                         // 12.5
	EffectEliminated                       // 12.6
)

var effectNames = map[EffectKind]string{
	EffectDisordered: "Disordered",
	EffectRetreat:    "Retreat",
	EffectRetired:    "Retired",
	EffectUnhorsed:   "Unhorsed",
	EffectEliminated: "Eliminated",
}

func (k EffectKind) String() string {
	if s, ok := effectNames[k]; ok {
		return s
	}
	return fmt.Sprintf("EffectKind(%d)", int(k))
}

// ParseEffectKind is the inverse of EffectKind.String, ignoring case.
func ParseEffectKind(s string) (EffectKind, bool) {
	for k, name := range effectNames {
		if fold(name) == fold(s) {
			return k, true
		}
	}
	return 0, false
}

// PursuitTable holds the numbers of Blood & Roses 14.9 Pursuit (Optional).
type PursuitTable struct {
	// PursuesMax: an adjusted Pursuit DR of this or less Pursues ("4 or
	// less"); above it, the player chooses.
	PursuesMax int
	// MountedEliminates, FootEliminates: a Pursuing mounted (foot) unit's
	// adjusted DR of this or more Eliminates one fleeing enemy unit (a
	// foot unit, for foot): "5 or more", "7 or more".
	MountedEliminates, FootEliminates int
	// LeaderDie: a mounted unit's unmodified die of this may Eliminate the
	// enemy Battle's leader instead ("an unmodified 9").
	LeaderDie int
	// ReturnsMin: a Pursuing unit's adjusted DR of this or more returns
	// ("6 or more"); less, it is removed from the game.
	ReturnsMin int
}
