package engine

import "herald/engine/hex"

// The Terrain Effects Chart (house tables, data/tables): what entering a
// hex and crossing its hexside cost (5.1).

// featuresBetween lists the hexside features between two adjacent hexes.
func featuresBetween(m *Map, a, b hex.Hex) []Hexside {
	var out []Hexside
	for _, hs := range m.Hexsides {
		if hs.A == a && hs.B == b || hs.A == b && hs.B == a {
			out = append(out, hs)
		}
	}
	return out
}

// enterCost is the MP a unit of class pays to move from h into the
// adjacent hex n: the hex's terrain plus each hexside feature crossed. A
// road along the hexside negates the terrain and the other features but
// not an elevation change (5.1): a slope still costs when climbed. A
// slope's cost is paid going up only, from its low to its high hex
// (ruling R45). NA if anything on the way prohibits the class.
func enterCost(sc *Scenario, h, n hex.Hex, class Class) Cost {
	return costAcross(sc, featuresBetween(&sc.Map, h, n), n, class)
}

// costAcross is enterCost into n across the hexside features between the
// two hexes (featuresBetween, or Reach's index of them).
func costAcross(sc *Scenario, features []Hexside, n hex.Hex, class Class) Cost {
	road := false
	for _, f := range features {
		if t := sc.Tables.Hexsides[f.Feature]; t != nil && t.Road {
			road = true
		}
	}
	total := Cost(0)
	add := func(c Cost) bool {
		if c == NA {
			return false
		}
		total += c
		return true
	}
	for _, f := range features {
		t := sc.Tables.Hexsides[f.Feature]
		switch {
		case t == nil:
		case t.Road:
			if !add(t.Cost[class]) {
				return NA
			}
		case t.Slope && f.B == n:
			if !add(t.Cost[class]) {
				return NA
			}
		case t.Slope, road:
			// Going down a slope costs nothing; a road negates the rest.
		default:
			if !add(t.Cost[class]) {
				return NA
			}
		}
	}
	if road {
		return total
	}
	tt := sc.Tables.Terrain[sc.Map.TerrainAt(n)]
	if tt == nil || !add(tt.Cost[class]) {
		return NA
	}
	return total
}

// leaderCost: a leader moving alone uses the most advantageous column of
// the chart for each hex and hexside (5.1).
func leaderCost(sc *Scenario, h, n hex.Hex) Cost {
	best := NA
	for _, class := range []Class{Foot, Mounted} {
		if c := enterCost(sc, h, n, class); c != NA && (best == NA || c < best) {
			best = c
		}
	}
	return best
}
