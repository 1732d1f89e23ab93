package data

import (
	"maps"
	"slices"
	"testing"

	"herald/engine"
)

// TestBloodAndRosesScenarios: Herald's reconstructions of Blore Heath
// (1459) and Tewkesbury (1471) load on Blood & Roses' house tables and
// agree with the rule book's examples set in them: 6.3's Blore Heath
// (Audley's and Dudley's Battles against Salisbury's, a Seizure "with
// Salisbury's Battle") and 6.2's Tewkesbury (Army Activation, then
// Edward's Battle, Edward the Overall Commander). Rulings R290-R299
// (docs/rulings.md).
func TestBloodAndRosesScenarios(t *testing.T) {
	type want struct {
		id, first string
		commands  map[string][]string // side -> Command ids
		oc        map[string]string   // side -> Overall Commander
		flight    [2]int
		types     []string // unit types the battle must hold
		counters  [2]int   // Seizure counters (6.3, ruling R290)
		timed     string   // the timed side (16.2, ruling R294)
		start     int      // its time marker's first space
	}
	for _, w := range []want{
		{
			id: "blore-heath", first: "Lancastrians",
			commands: map[string][]string{"Yorkists": {"salisbury"}, "Lancastrians": {"audley", "dudley"}},
			oc:       map[string]string{"Yorkists": "salisbury", "Lancastrians": "audley"},
			flight:   [2]int{14, 17},
			types:    []string{"MM", "DM", "LB", "INF", "LVY", "ART"},
			counters: [2]int{3, 2}, timed: "Lancastrians", start: 8,
		},
		{
			id: "tewkesbury", first: "Yorkists",
			commands: map[string][]string{"Yorkists": {"edward", "gloucester", "hastings"}, "Lancastrians": {"somerset", "wenlock", "devon"}},
			oc:       map[string]string{"Yorkists": "edward", "Lancastrians": "somerset"},
			flight:   [2]int{16, 15},
			types:    []string{"DM", "LB", "INF", "LVY", "ART", "HG", "CAV"},
			counters: [2]int{4, 2}, timed: "Yorkists", start: 10,
		},
	} {
		t.Run(w.id, func(t *testing.T) {
			sc, err := Scenario(w.id)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Volume != "blood-and-roses" || sc.Tables == nil || sc.Tables.Volume != "blood-and-roses" {
				t.Fatalf("volume %q", sc.Volume)
			}
			if got := sc.SideName(sc.First); got != w.first {
				t.Errorf("first %s, want %s", got, w.first)
			}
			for i, fl := range w.flight {
				// 3.0: a Loss Check cannot fail at the start (ruling R292).
				if sc.Sides[i].FlightLevel != fl || fl < 10 {
					t.Errorf("%s Flight Level %d, want %d", sc.Sides[i].Name, sc.Sides[i].FlightLevel, fl)
				}
			}
			got := map[string][]string{}
			for _, c := range sc.Commands {
				got[sc.SideName(c.Side)] = append(got[sc.SideName(c.Side)], c.ID)
				if c.Standard == "" {
					t.Errorf("Battle %s has no Standard (15.2)", c.ID)
				}
			}
			for side, ids := range w.commands {
				if !slices.Equal(got[side], ids) {
					t.Errorf("%s Battles %v, want %v", side, got[side], ids)
				}
			}
			ocs := map[string]string{}
			for _, l := range sc.Leaders {
				// 7.1: a leader on his own moves 5 (ruling R291); 2.4 AR 1-5.
				if l.MA != 5 || l.AR < 1 || l.AR > 5 {
					t.Errorf("leader %s: MA %d, AR %d", l.ID, l.MA, l.AR)
				}
				if l.OC {
					ocs[sc.SideName(l.Side)] = l.ID
				}
			}
			if !maps.Equal(ocs, w.oc) {
				t.Errorf("Overall Commanders %v, want %v (5.1)", ocs, w.oc)
			}
			seen := map[string]bool{}
			for _, u := range sc.Units {
				seen[u.Type] = true
				if sc.Tables.UnitTypes[u.Type] == nil {
					t.Errorf("unit %s: %q is not a unit type of 2.2", u.ID, u.Type)
				}
			}
			for _, k := range w.types {
				if !seen[k] {
					t.Errorf("no %s unit", k)
				}
			}
			st := engine.NewState(sc)
			if len(st.Units) != len(sc.Units) {
				t.Errorf("NewState: %d units, scenario %d", len(st.Units), len(sc.Units))
			}
			for i, u := range sc.Units {
				if u.Type == "ART" && st.Units[i].Limbered {
					t.Errorf("gun %s starts limbered, want unlimbered (7.6, ruling R293)", u.ID)
				}
			}
			for i, n := range w.counters {
				if sc.Sides[i].SeizureCounters != n {
					t.Errorf("%s: %d Seizure counters, want %d (ruling R290)", sc.Sides[i].Name, sc.Sides[i].SeizureCounters, n)
				}
			}
			if te := sc.Rules.TimedEngagement; te == nil || sc.SideName(te.Timed) != w.timed || te.Start != w.start {
				t.Errorf("Timed Engagement %+v, want the %s from space %d (16.2, ruling R294)", te, w.timed, w.start)
			}
			if sc.Rules.BattleFlight {
				t.Error("Battle Flight is optional and left off (ruling R295)")
			}
		})
	}
	// 3.0: Edward IV is the King (10 Flight Points if lost); the Prince of
	// Wales, with Wenlock, costs the Lancastrians 3 more (ruling R296).
	sc, err := Scenario("tewkesbury")
	if err != nil {
		t.Fatal(err)
	}
	if l := sc.Leader("edward"); l == nil || !l.King {
		t.Error("Edward IV is the King (3.0)")
	}
	lanc, _ := sc.SideByName("Lancastrians")
	if x := sc.Sides[lanc].ExtraFlightPoints; len(x) != 1 || x[0].LeaderLost != "wenlock" || x[0].Points != 3 {
		t.Errorf("Lancastrian extra Flight Points %+v, want 3 for Wenlock (R296)", x)
	}
	// 16.1 Ambush (ruling R297): the two hundred spears lie in the park,
	// not deployed, and join Gloucester's Battle.
	if a := sc.Rules.Ambushes; len(a) != 1 || a[0].Unit != "GC1" || a[0].Joins != "gloucester" ||
		len(a[0].Enter) != 2 || a[0].Enter[0].String() != "0912" || a[0].Enter[1].String() != "1012" {
		t.Errorf("Tewkesbury's Ambush %+v, want GC1 through 0912 and 1012, joining gloucester (R297)", a)
	}
	for _, u := range sc.Units {
		if u.ID == "GC1" && (!u.OffMap || u.Type != "CAV") {
			t.Errorf("GC1 %+v: Cavalry, not deployed at the start (16.1)", u)
		}
	}
	// Blore Heath: Audley's charge crosses the Hempmill Brook, a stream
	// hexside every Mounted Men-at-Arms may Charge across (13.3).
	bh, err := Scenario("blore-heath")
	if err != nil {
		t.Fatal(err)
	}
	brook := 0
	for _, hs := range bh.Map.Hexsides {
		if hs.Feature == "stream" {
			brook++
			if bh.Tables.Hexsides["stream"].NoCharge {
				t.Error("13.3: the brook must not forbid Audley's Charge")
			}
		}
	}
	if brook < 10 {
		t.Errorf("%d brook hexsides, want the Hempmill Brook across the map", brook)
	}
}
