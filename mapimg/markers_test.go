package mapimg

import (
	"slices"
	"testing"

	"herald/engine"
)

// A unit in Schiltron carries the components list's SCHILTRON marker
// (ruling R89).
func TestSchiltronMarker(t *testing.T) {
	if m := unitMarkers(engine.UnitState{Schiltron: true}); !slices.Contains(m, "SCHILTRON") {
		t.Errorf("markers %v, want SCHILTRON", m)
	}
	if m := unitMarkers(engine.UnitState{}); slices.Contains(m, "SCHILTRON") {
		t.Errorf("markers %v of a unit not in Schiltron", m)
	}
}

// Blood & Roses 2.2, 7.6: limbered Artillery shows its limbered side, a
// LIMBERED marker on the map.
func TestLimberedMarker(t *testing.T) {
	if m := unitMarkers(engine.UnitState{Limbered: true}); !slices.Contains(m, "LIMBERED") {
		t.Errorf("markers %v, want LIMBERED", m)
	}
	if m := unitMarkers(engine.UnitState{}); slices.Contains(m, "LIMBERED") {
		t.Errorf("markers %v for an unlimbered unit", m)
	}
}

// Arquebus 11.5: a Mounted Arquebus or Crossbow that fired mounted carries
// a FIRED marker until it dismounts to reload.
func TestFiredMarker(t *testing.T) {
	if m := unitMarkers(engine.UnitState{FiredMarker: true}); !slices.Contains(m, "FIRED") {
		t.Errorf("markers %v, want FIRED", m)
	}
	if m := unitMarkers(engine.UnitState{Fired: true}); slices.Contains(m, "FIRED") {
		t.Errorf("markers %v for a unit that has fired in this Activation only", m)
	}
}
