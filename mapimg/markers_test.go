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

// Arquebus 14.5: an Engaged unit carries an ENGAGED marker, drawn on its
// counter in the PNG: the map with the marker differs from the one without
// only on that counter's hex.
func TestEngagedMarker(t *testing.T) {
	if m := unitMarkers(engine.UnitState{EngagedWith: []string{"X1"}}); !slices.Contains(m, "ENGAGED") {
		t.Errorf("markers %v, want ENGAGED", m)
	}
	if m := unitMarkers(engine.UnitState{Engaged: true}); slices.Contains(m, "ENGAGED") {
		t.Errorf("markers %v for a unit only adjacent at the start of the Activation (11.1)", m)
	}
	sc, plain := crecy(t)
	marked := plain.Clone()
	marked.Unit("LB1").EngagedWith = []string{"CB1"}
	a, b := decoded(t, sc, plain, Options{}), decoded(t, sc, marked, Options{})
	l := place(t, sc, plain, Options{})
	c := l.centre(plain.Unit("LB1").Hex)
	near, far := 0, 0
	bounds := a.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 == r2 && g1 == g2 && b1 == b2 {
				continue
			}
			if dx, dy := float64(x)-c.X, float64(y)-c.Y; dx*dx+dy*dy <= 2.25*l.size*l.size { // the marker may stand out past the hex edge
				near++
			} else {
				far++
			}
		}
	}
	if near < 20 || far != 0 {
		t.Errorf("ENGAGED on LB1: %d pixels changed on its hex, %d elsewhere; want some on it and none elsewhere", near, far)
	}
}
