package engine

import (
	"fmt"
	"slices"
	"strings"

	"herald/engine/hex"
)

// 9.0 MISSILE FIRE: who may fire at whom (9.1, 9.2), and what a shot's
// die roll is modified by and read against (9.3). These are pure queries
// on a state; the FIRE order, Return and Reaction Fire decisions and the
// results arrive with the rest of the chapter.

// FireDRMs are the Fire Table's circumstance DRMs (9.3) other than range,
// from the volume's tables (fire_drm).
type FireDRMs struct {
	// DisorderedFirer: "Disordered Firing units subtract one (-1) from
	// that DR" (12.2).
	DisorderedFirer int
	// RetiredTarget: "If a Retired unit is [...] fired upon, treat it as
	// Disordered and add two (+2)" (12.4).
	RetiredTarget int
	// AngleOfFire: "Missile Fire aimed at Mounted units through the
	// latter's Flank hexsides earns the firing unit a +1 DRM" (9.3).
	AngleOfFire int
	// AngleOfFireTypes, when set, limits AngleOfFire to targets of these
	// types (Infidel 11.3: "aimed at Medium or Light Cavalry"); empty, it
	// applies to every Mounted target (Men of Iron 9.3).
	AngleOfFireTypes []string
	// ShieldWall: a unit in Shield Wall "earns a -1 DRM, when [...] fired
	// on through a Frontal hexside" (14.1).
	ShieldWall int
	// MountedFirer is added when a mounted unit fires (Infidel 11.3: "-1
	// for mounted archers firing"; 0 in Men of Iron).
	MountedFirer int
	// TargetType adds a DRM by the target's unit type (Infidel 11.3: "-1
	// for firing at Knights"); none in Men of Iron.
	TargetType map[string]int
	// Bombard is added to fire at a Mounted unit near a friendly Bombard
	// marker (Herald's own rule for the marker of 2.2, ruling R116).
	Bombard int
	// OverUnits is added when a weapon that fires over units fires through
	// one or more hexes occupied by units (Blood & Roses 11.4: "receives
	// a -1 DRM, because visibility is hindered"); 0 in Men of Iron.
	OverUnits int
}

// The Fire Results Table's columns (9.3, 12.1): the target on foot or
// Mounted, Normal or Disordered.
const (
	FireFoot              = "foot"
	FireFootDisordered    = "foot-disordered"
	FireMounted           = "mounted"
	FireMountedDisordered = "mounted-disordered"
)

// FireRefusal says why a unit may not fire at a target: the rule and a
// sentence, as an IllegalOrderError will carry them.
type FireRefusal struct {
	Rule   string
	Reason string
}

func (r *FireRefusal) Error() string { return fmt.Sprintf("%s (%s)", r.Reason, r.Rule) }

func refuseFire(rule, format string, args ...any) *FireRefusal {
	return &FireRefusal{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// unitWeapon is unit i's missile weapon as its counter stands, or nil
// (2.4 Missile Unit; a mounted Hobilar has none, 14.2).
func unitWeapon(sc *Scenario, st *State, i int) *Weapon {
	t := unitType(sc, st, i)
	if t == nil || t.Weapon == "" {
		return nil
	}
	return sc.Tables.Weapons[t.Weapon]
}

// FireArc is the firer's arc the line of fire from unit firer to the hex
// at leaves through, with the 9.1 and 9.3 spine rules applied
// (hex.Angle.FireAspect): Front (the Front spine and the Front/Flank
// spines too), Flank, or Rear (the Flank/Rear spines and the Rear spine
// too). A missile unit may fire through Front and Flank, and React only
// through Front (9.1).
func FireArc(sc *Scenario, st *State, firer int, at hex.Hex) hex.Aspect {
	return fireAngle(sc, st, firer, at).FireAspect()
}

func fireAngle(sc *Scenario, st *State, firer int, at hex.Hex) hex.Angle {
	us := st.Units[firer]
	return us.Facing.ApproachAspect(sc.Map.Grid.ApproachFrom(us.Hex, at))
}

// FiredThrough is the aspect of the target's hexsides fire from unit
// firer comes through, spines resolved as for FireArc: a unit fired at
// down the spine between its Flank and Rear is fired at through a Rear
// hex and may not Return Fire (9.1, 9.2); fire down any spine is not
// Flank fire for the Angle of Fire (9.3).
func FiredThrough(sc *Scenario, st *State, firer, target int) hex.Aspect {
	return FireArc(sc, st, target, st.Units[firer].Hex)
}

// FireRange is the range from unit firer to unit target: "You count the
// target hex, but not the firing hex" (9.1), the hex distance.
func FireRange(sc *Scenario, st *State, firer, target int) int {
	return sc.Map.Grid.Distance(st.Units[firer].Hex, st.Units[target].Hex)
}

// CanFire says whether unit firer may fire at unit target now, as far as
// the units, range, arc and line of sight go: nil if it may, else why
// not. reaction asks about Reaction Fire, which goes through Frontal
// hexsides only (9.1). When and how often a unit may fire (9.2: Active
// Fire once per Activation, foot missile units after their move, Return
// Fire not for crossbows, Hobilars not in a turn they move) is for the
// orders that fire; target is a combat unit, so never a lone leader.
func CanFire(sc *Scenario, st *State, firer, target int, reaction bool) *FireRefusal {
	fs, ts := sc.Units[firer], sc.Units[target]
	fu, tu := st.Units[firer], st.Units[target]
	w := unitWeapon(sc, st, firer)
	switch {
	case w == nil && unitType(sc, st, firer).Becomes != "" && unitType(sc, st, firer).Mounted:
		return refuseFire("14.2", "%s is a mounted Hobilar: no missile capability until it dismounts", fs.ID)
	case w == nil:
		return refuseFire("9.1", "%s is not a missile unit", fs.ID)
	case fu.Status == Eliminated:
		return refuseFire("12.6", "%s is Eliminated", fs.ID)
	case fu.OffMap:
		return refuseFire("5.3", "%s has not entered the map", fs.ID)
	case fu.Status == Retired:
		return refuseFire("12.4", "%s is Retired, and Retired units may not Fire", fs.ID)
	case ts.Side == fs.Side:
		return refuseFire("9.1", "%s is not an enemy unit", ts.ID)
	case tu.Status == Eliminated || tu.OffMap:
		return refuseFire("9.1", "%s is not on the map", ts.ID)
	case isEngaged(st, firer):
		return refuseFire("Arquebus 14.5", "%s is Engaged with %s: an Engaged unit may not fire", fs.ID, strings.Join(fu.EngagedWith, ", "))
	case isEngaged(st, target):
		return refuseFire("Arquebus 14.5", "%s is Engaged with %s: an Engaged unit may not be targeted by missile fire", ts.ID, strings.Join(tu.EngagedWith, ", "))
	case fu.FiredMarker:
		return refuseFire("Arquebus 11.5", "%s carries a FIRED marker: a Mounted Arquebus or Mounted Crossbow fires once mounted and may not fire again, not even Return or Reaction Fire, until it dismounts to reload (7.4)", fs.ID)
	case reaction && fu.Limbered && sc.Tables.Rules.ReactionUnlimberedOnly:
		return refuseFire("Arquebus 11.2", "%s is limbered: Artillery may use Reaction Fire only \"When already unlimbered\"", fs.ID)
	case missileDRM(sc, st, firer).None:
		return refuseFire("Arquebus 11.1", "%s prints no Missile Fire DRM on its %s: \"A unit with a Missile Type, but no Missile Fire DRM on the current side of the counter may not fire\"", fs.ID, counterSide(st, firer))
	}
	r := FireRange(sc, st, firer, target)
	if r > w.MaxRange() {
		return refuseFire("9.1", "%s is %d hexes from %s, beyond a %s's range of %d (the target hex counted, the firing hex not)",
			ts.ID, r, fs.ID, weaponName(w), w.MaxRange())
	}
	switch angle := fireAngle(sc, st, firer, tu.Hex); {
	case angle == hex.SpineFlankRear:
		return refuseFire("9.1", "%s is down the hex spine between %s's Flank and Rear, which counts as Rear: missile units fire through Frontal and Flank hexsides only",
			ts.ID, fs.ID)
	case angle.FireAspect() == hex.Rear:
		return refuseFire("9.1", "%s is in %s's Rear: missile units fire through Frontal and Flank hexsides only", ts.ID, fs.ID)
	case w.FrontOnly && angle.FireAspect() != hex.Front:
		return refuseFire("B&R 11.1", "%s is in %s's Flank: %s fires through its Frontal hexes only", ts.ID, fs.ID, weaponName(w))
	case reaction && angle.FireAspect() != hex.Front:
		return refuseFire("9.1", "%s is in %s's Flank: Reaction Fire goes through Frontal hexsides only", ts.ID, fs.ID)
	}
	if ok, why := FireLineOfSight(sc, st, firer, w, tu.Hex); !ok {
		return refuseFire("9.4", "%s has no line of sight to %s: blocked by %s", fs.ID, ts.ID, why)
	}
	if h := hedgerowCover(sc, st, firer, target); h != "" {
		return refuseFire("B&R 11.4", "%s is not a missile unit and %s covers it: it is unaffected by missile fire unless the firer is adjacent", ts.ID, h)
	}
	return nil
}

// missileDRM is the Missile Fire DRM printed on the side of unit i's
// counter in play: the Disordered side's when it is Disordered (Arquebus
// 11.1, 14.2).
func missileDRM(sc *Scenario, st *State, i int) MissileDRM {
	r := ratings(sc, st, i)
	if st.Units[i].Status == Disordered {
		return r.FireDisordered
	}
	return r.Fire
}

// counterSide names the side of unit i's counter in play, for messages.
func counterSide(st *State, i int) string {
	if st.Units[i].Status == Disordered {
		return "Disordered side"
	}
	return "front side"
}

func weaponName(w *Weapon) string {
	if w.Name != "" {
		return w.Name
	}
	return w.Key
}

// FireModifiers are the DRMs of a shot by unit firer at unit target
// (9.3), every number from the tables: the weapon's Fire/Range DRM at the
// range (listed even when 0, so the roll shows the range), then, when
// they apply and are not 0, a Disordered firer (12.2), a Retired target
// (12.4; read on the Disordered column, see FireColumn), the Angle of
// Fire against a Mounted target fired at through a Flank hexside, not
// down a spine (9.3), and a target in Shield Wall fired on through a
// Frontal hexside (14.1). It assumes CanFire allowed the shot; out of
// range there is no range DRM.
func FireModifiers(sc *Scenario, st *State, firer, target int) []Modifier {
	fs, ts := sc.Units[firer], sc.Units[target]
	var mods []Modifier
	add := func(drm int, rule, format string, args ...any) {
		if drm != 0 {
			mods = append(mods, Modifier{DRM: drm, Reason: fmt.Sprintf(format, args...), Rule: rule})
		}
	}
	if w := unitWeapon(sc, st, firer); w != nil {
		if r := FireRange(sc, st, firer, target); r >= 1 && r <= w.MaxRange() {
			mods = append(mods, Modifier{DRM: w.RangeDRM[r-1], Reason: fmt.Sprintf("%s at range %d", weaponName(w), r), Rule: "9.3"})
		}
	}
	d := sc.Tables.FireDRM
	if m := missileDRM(sc, st, firer); m.Printed {
		// Arquebus 11.3 Example: "This particular Crossbow unit has a
		// Missile Fire DRM of 0 on the counter": listed even when 0. The
		// Disordered side prints its own, lower one (14.2), so no
		// disordered_firer besides.
		mods = append(mods, Modifier{DRM: m.DRM, Reason: fmt.Sprintf("%s's Missile Fire DRM on its %s", fs.ID, counterSide(st, firer)), Rule: "Arquebus 11.1"})
	} else if st.Units[firer].Status == Disordered {
		add(d.DisorderedFirer, "12.2", "%s is Disordered", fs.ID)
	}
	if t := unitType(sc, st, firer); t != nil && t.Mounted {
		add(d.MountedFirer, "11.3", "%s is a mounted missile unit", fs.ID)
	}
	if t := unitType(sc, st, target); t != nil {
		add(d.TargetType[t.Key], "11.3", "firing at %s", t.Name)
	}
	if st.Units[target].Status == Retired {
		add(d.RetiredTarget, "12.4", "%s is Retired (fired on as Disordered)", ts.ID)
	}
	through := FiredThrough(sc, st, firer, target)
	if t := unitType(sc, st, target); t != nil && t.Mounted && through == hex.Flank {
		if len(d.AngleOfFireTypes) == 0 {
			add(d.AngleOfFire, "9.3", "Angle of Fire: %s is Mounted and fired at through its Flank", ts.ID)
		} else if slices.Contains(d.AngleOfFireTypes, t.Key) {
			// Infidel 11.3: only "Medium or Light Cavalry".
			add(d.AngleOfFire, "11.3", "Angle of Fire: %s is %s, fired at through its Flank", ts.ID, t.Name)
		}
	}
	if st.Units[target].ShieldWall && through == hex.Front {
		add(d.ShieldWall, "14.1", "%s is in Shield Wall and fired on through a Frontal hexside", ts.ID)
	}
	if w := unitWeapon(sc, st, firer); w != nil && w.OverUnits {
		if h := overUnitsHex(sc, st, st.Units[firer].Hex, st.Units[target].Hex); h != "" && sc.Tables.Rules.RainingFire {
			add(d.OverUnits, "Arquebus 11.4", "Raining Fire over %s", h)
		} else if h != "" {
			add(d.OverUnits, "B&R 11.4", "firing through %s, occupied by units", h)
		}
	}
	if drm, b := bombardDRM(sc, st, firer, target); b != nil {
		add(drm, "2.2, R116", "%s is Mounted and within %d hexes of the Bombard in %s", ts.ID, b.Range, b.Hex)
	}
	return mods
}

// FireColumn is the Fire Results Table column for a shot at unit target
// (9.3, 12.1): on foot or Mounted, Normal or Disordered; a Retired target
// is treated as Disordered (12.4).
func FireColumn(sc *Scenario, st *State, target int) string {
	disordered := st.Units[target].Status == Disordered || st.Units[target].Status == Retired
	t := unitType(sc, st, target)
	switch {
	case t != nil && t.Mounted && disordered:
		return FireMountedDisordered
	case t != nil && t.Mounted:
		return FireMounted
	case disordered:
		return FireFootDisordered
	}
	return FireFoot
}
