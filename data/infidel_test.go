package data

import (
	"testing"

	"herald/engine"
)

// Infidel's house tables hold every number its rule book's examples
// reveal (infidel.md; /work notes: worked-examples.md section 2).
func TestInfidelTablesAgreeWithTheExamples(t *testing.T) {
	tb, err := Tables("infidel")
	if err != nil {
		t.Fatal(err)
	}
	if !tb.House {
		t.Error("Infidel's tables are Herald's own: house: true")
	}
	ut := func(k string) *engine.UnitType {
		t.Helper()
		u := tb.UnitTypes[k]
		if u == nil {
			t.Fatalf("no unit type %s", k)
		}
		return u
	}
	// 2.2 Unit Types of Infidel, with Camp Followers and Wagons (2.4).
	for _, k := range []string{"A", "AF", "CB", "HC", "KN", "LCA", "MA", "MC", "MCA", "PK", "PKJ", "CF", "WG"} {
		ut(k)
	}
	checks := []struct {
		what      string
		got, want int
	}{
		// 3.0 Flight Points: KN/HC 3, other mounted 2, foot 1, Retired 1,
		// named leader 2, Overall Commander 5.
		{"FP KN", ut("KN").FlightPoints, 3}, {"FP HC", ut("HC").FlightPoints, 3},
		{"FP MC", ut("MC").FlightPoints, 2}, {"FP LCA", ut("LCA").FlightPoints, 2}, {"FP MCA", ut("MCA").FlightPoints, 2},
		{"FP PK", ut("PK").FlightPoints, 1}, {"FP A", ut("A").FlightPoints, 1}, {"FP WG", ut("WG").FlightPoints, 1},
		{"FP Retired", tb.FlightPoints.Retired, 1}, {"FP leader", tb.FlightPoints.Leader, 2}, {"FP OC", tb.FlightPoints.OverallCommander, 5},
		// 3.0 Examples: a Retired HC eliminated adds 3-1 = 2; a Retired Pike 1-1 = 0.
		{"HC retired then eliminated", ut("HC").FlightPoints - tb.FlightPoints.Retired, 2},
		{"PK retired then eliminated", ut("PK").FlightPoints - tb.FlightPoints.Retired, 0},
		// 11.1: every missile unit's Maximum Range is 2 hexes.
		{"composite range", tb.Weapons["composite"].MaxRange(), 2},
		{"crossbow range", tb.Weapons["crossbow"].MaxRange(), 2},
		{"javelin range", tb.Weapons["javelin"].MaxRange(), 2},
		// 11.3 Example: an archer at range 1 +1, firing at Knights or HC -1.
		{"archer range 1", tb.Weapons["composite"].RangeDRM[0], +1},
		{"target KN", tb.FireDRM.TargetType["KN"], -1}, {"target HC", tb.FireDRM.TargetType["HC"], -1},
		// 11.2 Example: -1 for mounted archers firing; LC/A MA 8.
		{"mounted firer", tb.FireDRM.MountedFirer, -1}, {"LCA MA", ut("LCA").Ratings.MA, 8},
		// 12.3 #3 Example: the (Templar) Knight's Shock Defense -3.
		{"KN shock", ut("KN").Ratings.Shock, -3},
		// 12.3 #5 Example: PK -> PK 0, AF -> PK +1.
		{"WSM PK-PK", tb.WSM["PK"]["PK"], 0}, {"WSM AF-PK", tb.WSM["AF"]["PK"], +1},
		// 13.5 Example: the Saracen HC's Defender DRM -1; 6 or less charges.
		{"HC shock", ut("HC").Ratings.Shock, -1}, {"reluctance max", tb.ShockDRM.ReluctanceMax, 6},
		// 12.3 #6, 13.4: no Charge DRM, -1 for a charging unit that moved; no height.
		{"charge", tb.ShockDRM.Charge, 0}, {"charge moved", tb.ShockDRM.ChargeMoved, -1}, {"height", tb.ShockDRM.Height, 0},
		// 9.0: +2 MP for a foot unit to leave a mounted unit's ZOC.
		{"leave mounted ZOC", tb.Movement.LeaveMountedZOCMP, 2},
		// 11.2: 1 MP for a mounted archer to fire in an enemy ZOC.
		{"fire in ZOC", tb.Rules.MountedFireZOCMP, 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
		}
	}
	// 11.2 Example: modified 1 on Target Mounted Disordered is No Result.
	if r, _ := tb.Fire.Lookup("mounted-disordered", 1); len(r.Defender) != 0 {
		t.Errorf("fire 1 mounted-disordered: %q, want No Effect", r.Text)
	}
	// 13.1: only Knights and Heavy Cavalry Charge; 9.0: every mounted
	// unit and every missile infantry unit exerts a ZOC, no other foot.
	for k, u := range tb.UnitTypes {
		if want := k == "KN" || k == "HC"; u.Charges != want {
			t.Errorf("%s charges: %v", k, u.Charges)
		}
		if want := u.Mounted || u.Missile(); u.ZOC != want {
			t.Errorf("%s ZOC: %v, want %v", k, u.ZOC, want)
		}
	}
	if !tb.FlightPoints.NamedLeadersOnly {
		t.Error("5.5: only named leaders count, not their Replacements")
	}
	if !ut("KN").Mounted || !ut("KN").NeverReluctant {
		t.Error("Knights are mounted and never Reluctant (R150; 13.5, 16.1)")
	}
}
