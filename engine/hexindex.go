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
	zoc units // units whose ZOC covers the hex, any side
	adj units // units on the map next to the hex, any side
	occ units // combat units in the hex
	// sides lists the hexside features between two hexes, under both
	// orders of the pair, in the map's order (featuresBetween).
	sides map[[2]hex.Hex][]Hexside
	// costs remembers enterCost by class, then by pair of hexes: a
	// search plans every path from its start, the rules of MOVE, so it
	// asks the same pairs again and again, and costAcross looks each up
	// in maps keyed by strings.
	costs []classCosts
}

type classCosts struct {
	class Class
	cost  map[uint64]Cost // by pairKey
}

func newHexIndex(sc *Scenario, st *State) *hexIndex {
	g := sc.Map.Grid
	ix := &hexIndex{sc: sc, st: st, zoc: newUnits(g), adj: newUnits(g), occ: newUnits(g), sides: hexsidesByPair(&sc.Map)}
	for i := range sc.Units {
		us := st.Units[i]
		if us.OffMap || us.Status == Eliminated {
			continue
		}
		ix.occ.add(us.Hex, i)
		for d := hex.N; d <= hex.NW; d++ {
			ix.adj.add(g.Neighbor(us.Hex, d), i)
		}
		if !exertsZOC(sc, st, i) {
			continue
		}
		for _, f := range g.FrontalHexes(us.Hex, us.Facing) {
			if l := ix.zoc.at(f); (len(l) == 0 || l[len(l)-1] != i) && zocInto(sc, st, i, f) {
				ix.zoc.add(f, i)
			}
		}
	}
	return ix
}

// units lists units by hex: in a slice by the hex's place in the grid,
// or, for a hex off the grid (next to a unit on its edge), in a map.
type units struct {
	grid    hex.Grid
	rows    int
	on      [][]int
	offGrid map[hex.Hex][]int
}

func newUnits(g hex.Grid) units {
	rows := g.MaxRow - g.MinRow + 1
	return units{grid: g, rows: rows, on: make([][]int, max(0, (g.MaxCol-g.MinCol+1)*rows))}
}

func (u *units) at(h hex.Hex) []int {
	if u.grid.Contains(h) {
		return u.on[(h.Col-u.grid.MinCol)*u.rows+h.Row-u.grid.MinRow]
	}
	return u.offGrid[h]
}

func (u *units) add(h hex.Hex, i int) {
	if u.grid.Contains(h) {
		k := (h.Col-u.grid.MinCol)*u.rows + h.Row - u.grid.MinRow
		u.on[k] = append(u.on[k], i)
		return
	}
	if u.offGrid == nil {
		u.offGrid = map[hex.Hex][]int{}
	}
	u.offGrid[h] = append(u.offGrid[h], i)
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

// enterCost is enterCost, with the hexside features from the index,
// remembered.
func (ix *hexIndex) enterCost(h, n hex.Hex, class Class) Cost {
	k, ok := pairKey(h, n)
	if !ok {
		return costAcross(ix.sc, ix.sides[[2]hex.Hex{h, n}], n, class)
	}
	var memo map[uint64]Cost
	for _, c := range ix.costs {
		if c.class == class {
			memo = c.cost
		}
	}
	if memo == nil {
		memo = map[uint64]Cost{}
		ix.costs = append(ix.costs, classCosts{class, memo})
	}
	c, ok := memo[k]
	if !ok {
		c = costAcross(ix.sc, ix.sides[[2]hex.Hex{h, n}], n, class)
		memo[k] = c
	}
	return c
}

// pairKey packs two hexes in a number, when their columns and rows are
// from 0 to 65535 (every map's).
func pairKey(h, n hex.Hex) (uint64, bool) {
	var k uint64
	for _, v := range [4]int{h.Col, h.Row, n.Col, n.Row} {
		if v < 0 || v > 0xffff {
			return 0, false
		}
		k = k<<16 | uint64(v)
	}
	return k, true
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
	return ix.enemies(ix.zoc.at(h), side)
}

// inZOCOf is inZOCOf.
func (ix *hexIndex) inZOCOf(e int, h hex.Hex) bool {
	for _, i := range ix.zoc.at(h) {
		if i == e {
			return true
		}
	}
	return false
}

// adjacentEnemies is adjacentEnemies; the list must not be changed.
func (ix *hexIndex) adjacentEnemies(side Side, h hex.Hex) []int {
	return ix.enemies(ix.adj.at(h), side)
}

// enemyAdjacent is enemyAdjacent.
func (ix *hexIndex) enemyAdjacent(side Side, h hex.Hex) bool {
	for _, i := range ix.adj.at(h) {
		if ix.sc.Units[i].Side != side {
			return true
		}
	}
	return false
}

// occupant is occupant.
func (ix *hexIndex) occupant(h hex.Hex) int {
	if l := ix.occ.at(h); len(l) > 0 {
		return l[0]
	}
	return -1
}

// otherIn is otherIn.
func (ix *hexIndex) otherIn(h hex.Hex, i int) int {
	for _, o := range ix.occ.at(h) {
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
