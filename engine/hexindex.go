package engine

import "herald/engine/hex"

// hexIndex answers, for one State, what a move's check asks of every hex
// it looks at — which enemy units' ZOC covers it (7.0), which units stand
// next to it (Blood & Roses 7.1, Arquebus 7.2), which combat units are in
// it (8.0, Arquebus 10.0) — from maps built once, instead of a scan of
// every unit per question. The lists keep the units' order, so every
// answer is the one enemyZOC, adjacentEnemies and occupants give (proved
// on random states of every battle by TestReachMatchesReference). The
// State must not change while the index is in use.
type hexIndex struct {
	sc  *Scenario
	st  *State
	zoc map[hex.Hex][]int // units whose ZOC covers the hex, any side
	adj map[hex.Hex][]int // units on the map next to the hex, any side
	occ map[hex.Hex][]int // combat units in the hex
	// sides lists the hexside features between two hexes, under both
	// orders of the pair, in the map's order (featuresBetween).
	sides map[[2]hex.Hex][]Hexside
}

func newHexIndex(sc *Scenario, st *State) *hexIndex {
	n := len(sc.Units)
	ix := &hexIndex{sc: sc, st: st, zoc: make(map[hex.Hex][]int, 2*n), adj: make(map[hex.Hex][]int, 4*n), occ: make(map[hex.Hex][]int, n),
		sides: hexsidesByPair(&sc.Map)}
	for i := range sc.Units {
		us := st.Units[i]
		if us.OffMap || us.Status == Eliminated {
			continue
		}
		ix.occ[us.Hex] = append(ix.occ[us.Hex], i)
		for d := hex.N; d <= hex.NW; d++ {
			n := sc.Map.Grid.Neighbor(us.Hex, d)
			ix.adj[n] = append(ix.adj[n], i)
		}
		if !exertsZOC(sc, st, i) {
			continue
		}
		for _, f := range sc.Map.Grid.FrontalHexes(us.Hex, us.Facing) {
			if l := ix.zoc[f]; (len(l) == 0 || l[len(l)-1] != i) && zocInto(sc, st, i, f) {
				ix.zoc[f] = append(l, i)
			}
		}
	}
	return ix
}

// hexsidesByPair indexes a map's hexside features by the pair of hexes
// they lie between, each pair under both orders.
func hexsidesByPair(m *Map) map[[2]hex.Hex][]Hexside {
	out := make(map[[2]hex.Hex][]Hexside, 2*len(m.Hexsides))
	for _, hs := range m.Hexsides {
		ab := [2]hex.Hex{hs.A, hs.B}
		out[ab] = append(out[ab], hs)
		if hs.A != hs.B {
			ba := [2]hex.Hex{hs.B, hs.A}
			out[ba] = append(out[ba], hs)
		}
	}
	return out
}

// enterCost is enterCost, with the hexside features from the index.
func (ix *hexIndex) enterCost(h, n hex.Hex, class Class) Cost {
	return costAcross(ix.sc, ix.sides[[2]hex.Hex{h, n}], n, class)
}

// enemies are the units of list not of side, list itself when all are.
func (ix *hexIndex) enemies(list []int, side Side) []int {
	for k, i := range list {
		if ix.sc.Units[i].Side == side {
			out := append([]int(nil), list[:k]...)
			for _, j := range list[k+1:] {
				if ix.sc.Units[j].Side != side {
					out = append(out, j)
				}
			}
			return out
		}
	}
	return list
}

// enemyZOC is enemyZOC; the list must not be changed.
func (ix *hexIndex) enemyZOC(side Side, h hex.Hex) []int {
	return ix.enemies(ix.zoc[h], side)
}

// inZOCOf is inZOCOf.
func (ix *hexIndex) inZOCOf(e int, h hex.Hex) bool {
	for _, i := range ix.zoc[h] {
		if i == e {
			return true
		}
	}
	return false
}

// adjacentEnemies is adjacentEnemies; the list must not be changed.
func (ix *hexIndex) adjacentEnemies(side Side, h hex.Hex) []int {
	return ix.enemies(ix.adj[h], side)
}

// enemyAdjacent is enemyAdjacent.
func (ix *hexIndex) enemyAdjacent(side Side, h hex.Hex) bool {
	for _, i := range ix.adj[h] {
		if ix.sc.Units[i].Side != side {
			return true
		}
	}
	return false
}

// occupant is occupant.
func (ix *hexIndex) occupant(h hex.Hex) int {
	if l := ix.occ[h]; len(l) > 0 {
		return l[0]
	}
	return -1
}

// otherIn is otherIn.
func (ix *hexIndex) otherIn(h hex.Hex, i int) int {
	for _, o := range ix.occ[h] {
		if o != i {
			return o
		}
	}
	return -1
}

// hexAsk is what a move's check asks of hexes: a hexIndex, or directAsk,
// which scans the State for each question (a single MOVE order, whose one
// path would not repay building an index).
type hexAsk interface {
	enemyZOC(side Side, h hex.Hex) []int
	inZOCOf(e int, h hex.Hex) bool
	adjacentEnemies(side Side, h hex.Hex) []int
	enemyAdjacent(side Side, h hex.Hex) bool
	occupant(h hex.Hex) int
	otherIn(h hex.Hex, i int) int
	enterCost(h, n hex.Hex, class Class) Cost
}

type directAsk struct {
	sc *Scenario
	st *State
}

func (d directAsk) enemyZOC(side Side, h hex.Hex) []int { return enemyZOC(d.sc, d.st, side, h) }
func (d directAsk) inZOCOf(e int, h hex.Hex) bool       { return inZOCOf(d.sc, d.st, e, h) }
func (d directAsk) adjacentEnemies(side Side, h hex.Hex) []int {
	return adjacentEnemies(d.sc, d.st, side, h)
}
func (d directAsk) enemyAdjacent(side Side, h hex.Hex) bool {
	return enemyAdjacent(d.sc, d.st, side, h)
}
func (d directAsk) occupant(h hex.Hex) int       { return occupant(d.st, h) }
func (d directAsk) otherIn(h hex.Hex, i int) int { return otherIn(d.st, h, i) }
func (d directAsk) enterCost(h, n hex.Hex, class Class) Cost {
	return enterCost(d.sc, h, n, class)
}
