package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"herald/engine/hex"
)

// 5.0 MOVEMENT. Units of the activated Command move one at a time, each
// finishing its move before another begins (5.1): one MOVE or FACE order
// per unit and Activation. A move is checked whole before anything
// happens, so an illegal path changes nothing.

// Move moves a unit (or a leader alone) along an explicit path of hexes:
// "MOVE LB1 0611 0612 FACE E", "MOVE MM1 WITH Edward 0409 0509",
// "MOVE Godfrey 0610 0609". Without FACE the unit keeps its facing.
type Move struct {
	at
	Unit string   // unit id, or a leader's name for a leader moving alone
	With string   // leader moving with the unit (5.1)
	Path []string // hex ids entered, in order
	Face string   // final facing (6.1), empty to keep it
	// Fire is the enemy unit a mounted missile unit fires at during its
	// move (9.2), before the path's token FireAt: "MOVE GEN1 0303 FIRE
	// CA1 0404".
	Fire   string
	FireAt int
}

func (o Move) String() string {
	s := "MOVE " + o.Unit
	if o.With != "" {
		s += " WITH " + o.With
	}
	path := o.Path
	if o.Fire != "" {
		path = append(append(append([]string(nil), o.Path[:o.FireAt]...), "FIRE", o.Fire), o.Path[o.FireAt:]...)
	}
	s += " " + strings.Join(path, " ")
	if o.Face != "" {
		s += " FACE " + o.Face
	}
	return s
}

func parseMove(a at, rest []string, syntax func(string, ...string) error) (Order, error) {
	form := "MOVE <unit> [WITH <leader>] <hex> <hex> … [MOUNT|DISMOUNT] [FIRE <enemy>] … [FACE <E|NE|NW|W|SW|SE>]"
	if len(rest) < 2 {
		return nil, syntax("MOVE needs a unit and the hexes of its path", form)
	}
	o := Move{at: a, Unit: rest[0]}
	rest = rest[1:]
	if strings.EqualFold(rest[0], "WITH") {
		if len(rest) < 3 {
			return nil, syntax("MOVE … WITH needs the leader and the path", form)
		}
		o.With, rest = rest[1], rest[2:]
	}
	path, face := splitKeyword(rest, "FACE")
	if face != nil {
		if len(face) != 1 {
			return nil, syntax("FACE takes one vertex: E, NE, NW, W, SW or SE", form)
		}
		if _, err := hex.ParseFacing(face[0]); err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a vertex: E, NE, NW, W, SW or SE", face[0]), form)
		}
		o.Face = strings.ToUpper(face[0])
	}
	changes := 0
	words := strings.Fields(path)
	for k := 0; k < len(words); k++ {
		h := words[k]
		if strings.EqualFold(h, "FIRE") {
			if o.Fire != "" || k+1 == len(words) {
				return nil, syntax("FIRE in a move names one enemy unit, once", form)
			}
			o.Fire, o.FireAt = words[k+1], len(o.Path)
			k++
			continue
		}
		if w := strings.ToUpper(h); changeWords[w] {
			changes++
			o.Path = append(o.Path, w)
			continue
		}
		if _, err := hex.Parse(h); err != nil {
			return nil, syntax(fmt.Sprintf("%q is not a hex id (four digits, XXYY)", h), form)
		}
		o.Path = append(o.Path, h)
	}
	switch {
	case len(o.Path) == 0:
		return nil, syntax("MOVE needs at least one hex to move to", form)
	case changes > 1:
		return nil, syntax("a unit mounts or dismounts once in a move (14.2)", form)
	}
	return o, nil
}

// move carries out a MOVE order.
func (g *game) move(o Move) error {
	if err := g.mayGiveActions(o); err != nil {
		return err
	}
	if i, ok := g.findUnit(o.Unit); ok {
		return g.moveUnit(o, i)
	}
	if l, ok := g.findLeader(g.st.Pending.Side, o.Unit); ok && o.With == "" {
		return g.moveLeader(o, l)
	}
	return g.illegal(o, "5.1", fmt.Sprintf("the %s have no unit or leader called %q", g.sc.SideName(g.st.Pending.Side), o.Unit)+g.unitHint(g.st.Pending.Side, o.Unit, false))
}

// mayGiveActions: movement orders belong to Phase B of the sender's
// Activation of a Command.
func (g *game) mayGiveActions(o Order) error {
	if g.st.Pending.Kind != DecideActions || g.st.Command == "" && !g.st.Army && g.st.Ambush == "" {
		return g.illegal(o, "5.1", "units move only in the Move/Fire Phase of their Command's Activation")
	}
	switch o.(type) {
	case Move, Face:
	default:
		if g.st.Army {
			return g.armyOnlyMoves(o)
		}
	}
	if len(g.st.Declared) > 0 && !g.engagedDuty(o) {
		return g.illegal(o, "ExtSoP C", "the Shock Phase has begun with your first SHOCK or CHARGE: movement and fire are over for this Activation")
	}
	return nil
}

// engagedDuty: o turns or Disengages an Engaged unit, which Arquebus 14.5
// demands before the Activation ends; it may come after the first SHOCK
// or CHARGE, so that the order of a block's lines never leaves END
// refused for good (ruling R373).
func (g *game) engagedDuty(o Order) bool {
	var id string
	switch o := o.(type) {
	case Face:
		id = o.Unit
	case Move:
		id = o.Unit
	default:
		return false
	}
	i, ok := g.findUnit(id)
	return ok && isEngaged(g.st, i)
}

func (g *game) moveUnit(o Move, i int) error {
	sc, st := g.sc, g.st
	spec, us := sc.Units[i], st.Units[i]
	if err := g.mayMove(o, i); err != nil {
		return err
	}
	words, ch := pathWords(o.Path)
	path, err := g.parsePath(o, words)
	if err != nil {
		return err
	}
	if len(path) > 0 {
		if err := g.mayMoveLimbered(o, i); err != nil {
			return err
		}
	}
	leader := -1
	if o.With != "" {
		if leader, err = g.leaderWith(o, i); err != nil {
			return err
		}
	} else if len(path) > 0 {
		leader = reinforcingLeader(sc, st, i)
	}
	target := -1
	if o.Fire != "" && !st.Army {
		if target, err = g.mayFireInMove(o, i); err != nil {
			return err
		}
	}
	disengage := isEngaged(st, i) && len(path) > 0
	if disengage {
		if err := g.mayDisengage(o, i, path); err != nil {
			return err
		}
	}
	plan, why := planUnitMove(sc, st, i, path, ch, fireAtIndex(o))
	if why != nil {
		return g.refuseMove(o, i, why)
	}
	if err := g.armyPath(o, spec.ID, spec.Side, path); err != nil {
		return err
	}
	if st.Army && o.Fire != "" {
		return g.armyOnlyMoves(o)
	}
	fire, err := g.fireInMove(o, i, target, path, plan)
	if err != nil {
		return err
	}
	facing := us.Facing
	if o.Face != "" {
		facing, _ = hex.ParseFacing(o.Face)
	}
	if facing, err = g.stackFacing(o, i, path, facing); err != nil {
		return err
	}
	e := UnitMoved{Unit: spec.ID, Path: path, Facing: facing, MP: plan.mp}
	if ch != nil {
		e.Change, e.ChangeAt, e.Type = ch.Word, ch.At, plan.becomes
		if plan.becomes == spec.Type {
			e.Type = "" // back on the side it was set up with
		}
		e.Reloaded = us.FiredMarker && ch.Word == "DISMOUNT" // Arquebus 11.5
	}
	if leader >= 0 {
		e.Leader = sc.Leaders[leader].ID
	}
	if err := g.carryOutMove(i, path, ch, e, plan, fire); err != nil || !disengage {
		return err
	}
	g.emit(UnitDisengaged{Unit: spec.ID, From: slices.Clone(us.EngagedWith)})
	return nil
}

// mayMove: a unit of the activated Command that is still on the field and
// has not had its move in this Activation.
func (g *game) mayMove(o Order, i int) error {
	spec, us := g.sc.Units[i], g.st.Units[i]
	switch {
	case g.st.Army && !activatedUnit(g.sc, g.st, i):
		return g.illegal(o, "B&R 6.1", spec.ID+" was not Activated by the Army Activation: it began too near an enemy unit, or out of its leader's Command Range, or its leader out of the Overall Commander's")
	case g.st.Ambush != "" && !ambushing(g.sc, g.st, i):
		return g.illegal(o, "B&R 16.1", fmt.Sprintf("%s is not %s: only the ambushing unit acts in its Ambush Activation", spec.ID, g.st.Ambush))
	case inAmbush(g.sc, g.st, i) && !ambushing(g.sc, g.st, i):
		return g.illegal(o, "B&R 16.1", spec.ID+" lies in Ambush: it enters only with ACTIVATE AMBUSH, in a Free Activation")
	case !g.st.Army && !activatedUnit(g.sc, g.st, i):
		return g.illegal(o, "5.1", fmt.Sprintf("%s is not of the activated Command, %s", spec.ID, commandName(g.sc, g.st.Command)))
	case us.Status == Eliminated:
		return g.illegal(o, "12.6", spec.ID+" has been eliminated")
	case us.Fled:
		return g.illegal(o, "Blood & Roses 14.9", spec.ID+" has left the field for good: it did not come back from its Pursuit")
	case inPursuit(g.st, spec.ID):
		return g.illegal(o, "Blood & Roses 14.9", spec.ID+" is off the map in Pursuit: it comes back only when its Battle is given a Free Activation, its leader having stayed behind")
	case us.Moved:
		return g.illegal(o, "5.1", spec.ID+" has had its move in this Activation: each unit completes its move before another begins")
	case us.Fired && g.st.Acting != spec.ID:
		return g.illegal(o, "5.1", spec.ID+" has fired and another unit has moved or fired since: each unit must finish its movement/firing before another may begin")
	}
	return nil
}

// pathWords takes a MOUNT or DISMOUNT out of a path's words.
func pathWords(words []string) ([]string, *sideChange) {
	var out []string
	var ch *sideChange
	for _, w := range words {
		if changeWords[w] {
			ch = &sideChange{At: len(out), Word: w}
			continue
		}
		out = append(out, w)
	}
	return out, ch
}

// parsePath reads the path's hex ids.
func (g *game) parsePath(o Order, ids []string) ([]hex.Hex, error) {
	var out []hex.Hex
	for _, id := range ids {
		h, err := hex.Parse(id)
		if err != nil {
			return nil, g.illegal(o, "docs/orders.md", fmt.Sprintf("%q is not a hex id", id))
		}
		out = append(out, h)
	}
	return out, nil
}

// leaderWith finds the leader who moves with unit i: he must start the
// move stacked with it (5.1), off the map with it for reinforcements.
func (g *game) leaderWith(o Move, i int) (int, error) {
	side := g.sc.Units[i].Side
	l, ok := g.findLeader(side, o.With)
	if !ok {
		return -1, g.illegal(o, "5.1", fmt.Sprintf("the %s have no leader called %q", g.sc.SideName(side), o.With))
	}
	ls, us := g.st.Leaders[l], g.st.Units[i]
	if ls.Killed {
		return -1, g.illegal(o, "15.4", g.sc.Leaders[l].Name+" has been killed")
	}
	together := ls.OffMap && us.OffMap && !inAmbush(g.sc, g.st, i) && g.sc.Leaders[l].Command == g.sc.Units[i].Command || !ls.OffMap && !us.OffMap && ls.Hex == us.Hex
	if !together {
		return -1, g.illegal(o, "5.1", fmt.Sprintf("%s is not stacked with %s: a leader moves with the unit he starts its move with", g.sc.Leaders[l].Name, g.sc.Units[i].ID))
	}
	if ls.Moved {
		return -1, g.illegal(o, "5.1", fmt.Sprintf("%s has moved in this Activation: a leader moves once, alone or with a unit", g.sc.Leaders[l].Name))
	}
	return l, nil
}

// reinforcingLeader is the leader still off the map with unit i, a
// reinforcement of his Command about to enter, or -1: "A reinforcing
// leader must enter the map with his initial units" (5.3), so he comes
// with the first of them that enters without another leader named
// (ruling R460). Left behind, he could never enter: a leader alone may
// not (TestReinforcingLeaderEntersWithHisUnits).
func reinforcingLeader(sc *Scenario, st *State, i int) int {
	us := st.Units[i]
	if !us.OffMap || us.Returning || inAmbush(sc, st, i) {
		return -1
	}
	for l, ls := range st.Leaders {
		if sc.Leaders[l].Command == sc.Units[i].Command && ls.OffMap && !ls.Killed && !ls.Moved {
			return l
		}
	}
	return -1
}

// refuseMove explains an illegal path, with where the unit could go.
func (g *game) refuseMove(o Order, i int, why *moveError) error {
	e := g.illegal(o, why.rule, why.text())
	if reach := Reach(g.sc, g.st, g.sc.Units[i].ID); len(reach) > 0 {
		e.Legal = []string{g.sc.Units[i].ID + " can reach " + reachList(reach, 24)}
	}
	return e
}

// reachList prints reachable hexes with their cost: "0611 (1), 0612 (2)".
func reachList(r []Reachable, max int) string {
	var parts []string
	for i, x := range r {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(r)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", x.Hex, x.Cost))
	}
	return strings.Join(parts, ", ")
}

// findUnit finds one of the sender's units by its id.
func (g *game) findUnit(typed string) (int, bool) {
	return g.sideUnit(g.st.Pending.Side, typed)
}

// sideUnit finds a unit of side by its id, in any case.
func (g *game) sideUnit(side Side, typed string) (int, bool) {
	for i, u := range g.sc.Units {
		if u.Side == side && strings.EqualFold(u.ID, typed) {
			return i, true
		}
	}
	return -1, false
}

// findLeader finds one of side's leaders by name or id.
func (g *game) findLeader(side Side, typed string) (int, bool) {
	var idx []int
	var names [][]string
	for i, l := range g.sc.Leaders {
		if l.Side == side {
			idx = append(idx, i)
			names = append(names, []string{l.ID, l.Name})
		}
	}
	k, _ := match(typed, names)
	if k < 0 {
		return -1, false
	}
	return idx[k], true
}

// UnitMoved: a unit moved along Path, spending MP, and faces Facing; a
// leader may have moved with it (5.1). A reinforcement enters the map
// with its first hex (5.3).
type UnitMoved struct {
	Unit   string     `json:"unit"`
	Path   []hex.Hex  `json:"path"`
	Facing hex.Facing `json:"facing"`
	MP     int        `json:"mp"`
	Leader string     `json:"leader,omitempty"`
	// Change is MOUNT or DISMOUNT when a Hobilar turned its counter before
	// entering Path[ChangeAt] (14.2); Type is then its new type, empty
	// for the side it was set up with.
	Change   string `json:"change,omitempty"`
	ChangeAt int    `json:"change_at,omitempty"`
	Type     string `json:"type,omitempty"`
	// Reloaded: the unit dismounted with a FIRED marker, which it loses
	// (Arquebus 7.4, 11.5: "When it dismounts, the unit reloads").
	Reloaded bool `json:"reloaded,omitempty"`
}

func (e UnitMoved) apply(st *State) {
	u := st.Unit(e.Unit)
	if len(e.Path) > 0 {
		u.Hex, u.OffMap, u.Returning = e.Path[len(e.Path)-1], false, false
	}
	u.Facing, u.Moved, u.Acted = e.Facing, true, true
	st.Acting = e.Unit
	u.Marched = u.Marched || e.MP > 0 || len(e.Path) > 0
	if e.Change != "" {
		u.Type, u.Rearmed = e.Type, true // 13.1 "rearmed" (ruling R90)
	}
	if e.Reloaded {
		u.FiredMarker = false
	}
	if e.Leader != "" {
		l := st.Leader(e.Leader)
		l.Hex, l.OffMap, l.Moved, l.Returning = u.Hex, false, true, false
	}
}

func (e UnitMoved) describe(sc *Scenario) string {
	who := e.Unit
	if e.Leader != "" {
		who += " with " + leaderName(sc, e.Leader)
	}
	rule := "14.2"
	switch {
	case sc.Tables.Rules.DismountAtStart:
		rule = "Blood & Roses 7.4"
	case sc.Tables.Rules.ChangeInCommand:
		rule = "Arquebus 7.4"
	}
	reload := ""
	if e.Reloaded {
		reload = fmt.Sprintf(" %s reloads: its FIRED marker is removed (Arquebus 11.5).", e.Unit)
	}
	return e.text(who, rule) + reload
}

// text is the move's sentence; rule is the section of a change of sides.
func (e UnitMoved) text(who, rule string) string {
	switch {
	case e.Change == "" && len(e.Path) == 0:
		return fmt.Sprintf("%s ends its move facing %s (5.1).", who, e.Facing)
	case e.Change != "" && len(e.Path) == 0:
		return fmt.Sprintf("%s %ss (%d MP) and faces %s (%s).", who, strings.ToLower(e.Change), e.MP, e.Facing, rule)
	case e.Change != "":
		return fmt.Sprintf("%s moves %s, %sing before %s (%d MP), and faces %s (5.1, %s).", who, pathText(e.Path), strings.ToLower(e.Change), changePlace(e), e.MP, e.Facing, rule)
	}
	return fmt.Sprintf("%s moves %s (%d MP) and faces %s (5.1).", who, pathText(e.Path), e.MP, e.Facing)
}

// changePlace says where in the path a Hobilar changed sides.
func changePlace(e UnitMoved) string {
	if e.ChangeAt < len(e.Path) {
		return "entering " + e.Path[e.ChangeAt].String()
	}
	return "stopping"
}

func pathText(p []hex.Hex) string {
	var s []string
	for _, h := range p {
		s = append(s, h.String())
	}
	return "to " + strings.Join(s, ", ")
}

// Reachable is a hex a unit can end its move in, the MP it costs, and
// the cheapest path there (the hexes a MOVE order names).
type Reachable struct {
	Hex  hex.Hex
	Cost int
	Path []hex.Hex
}

// Reach lists the hexes unit (or leader) id can legally end a move in
// this Activation, cheapest first, by the same rules as MOVE: for replies
// ("LB1 can reach 0611 (1), …") and for players' tools. A leader's reach
// is his move on his own (5.1).
func Reach(sc *Scenario, st *State, id string) []Reachable {
	return NewReacher(sc, st).Reach(id)
}

// Reacher answers Reach for any number of units and leaders of one
// State, building once the index of enemy ZOCs, adjacent enemies and
// occupied hexes that every candidate path's check asks about (a mail's
// hints ask for every unit of a Command). The State must not change
// while the Reacher is in use, and a Reacher is for one goroutine (its
// index remembers the costs it is asked).
type Reacher struct {
	sc *Scenario
	st *State
	ix *hexIndex
}

// NewReacher is a Reacher for st; its index is built at the first Reach.
func NewReacher(sc *Scenario, st *State) *Reacher { return &Reacher{sc: sc, st: st} }

func (r *Reacher) index() *hexIndex {
	if r.ix == nil {
		r.ix = newHexIndex(r.sc, r.st)
	}
	return r.ix
}

// Reach is Reach(sc, st, id) for the Reacher's State.
func (r *Reacher) Reach(id string) []Reachable {
	sc, st := r.sc, r.st
	for i, u := range sc.Units {
		if u.ID != id {
			continue
		}
		if st.Units[i].Status == Eliminated || inAmbush(sc, st, i) && !ambushing(sc, st, i) {
			return nil
		}
		ix := r.index()
		return search(st.Units[i].Hex, !st.Units[i].OffMap,
			func(p []hex.Hex) []hex.Hex { return nextHexes(sc, st, i, p) },
			func(p []hex.Hex) step {
				if armyBarred(sc, st, sc.Units[i].Side, p) || disengageBarred(sc, st, i, p) {
					return step{}
				}
				plan, why := planUnitMoveAsk(sc, st, ix, i, p, nil, -1)
				return step{mp: plan.mp, stop: plan.stop, legal: why == nil, open: why == nil || why.passable}
			})
	}
	for l, ld := range sc.Leaders {
		if ld.ID != id || st.Leaders[l].OffMap {
			continue
		}
		ix := r.index()
		return search(st.Leaders[l].Hex, true,
			func(p []hex.Hex) []hex.Hex { return sc.Map.Grid.Neighbors(lastOr(st.Leaders[l].Hex, p)) },
			func(p []hex.Hex) step {
				if armyBarred(sc, st, ld.Side, p) {
					return step{}
				}
				mp, why := planLeaderMoveAsk(sc, st, ix, l, p)
				return step{mp: mp, legal: why == nil, open: why == nil}
			})
	}
	return nil
}

// step is what a path found by search costs, whether the move may end
// there (legal), and whether it may go on (open, and not stop).
type step struct {
	mp                int
	stop, legal, open bool
}

// search lists the hexes where a move from start may end, with the
// cheapest path to each: Dijkstra over paths, each hex's cheapest path
// extended by next and judged whole by plan. onMap is false for a
// reinforcement, whose start is no hex.
func search(start hex.Hex, onMap bool, next func([]hex.Hex) []hex.Hex, plan func([]hex.Hex) step) []Reachable {
	open := &pathQueue{{step: step{open: true}}}
	seq := 0
	done := map[hex.Hex]bool{start: onMap}
	stops := map[hex.Hex]Reachable{}
	var scratch []hex.Hex
	for len(*open) > 0 {
		cur := open.pop()
		if n := len(cur.path); n > 0 {
			last := cur.path[n-1]
			if done[last] {
				continue
			}
			done[last] = true
			if cur.legal {
				stops[last] = Reachable{Hex: last, Cost: cur.mp, Path: cur.path}
			}
			if cur.stop {
				continue
			}
		}
		for _, n := range next(cur.path) {
			if done[n] {
				continue
			}
			// Planned in a scratch path, kept only if it goes on: most
			// candidates are refused.
			scratch = append(append(scratch[:0], cur.path...), n)
			if s := plan(scratch); s.open {
				seq++
				open.push(pathNode{path: slices.Clone(scratch), step: s, seq: seq})
			}
		}
	}
	var out []Reachable
	for _, r := range stops {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Cost != out[b].Cost {
			return out[a].Cost < out[b].Cost
		}
		return idBefore(out[a].Hex, out[b].Hex)
	})
	return out
}

// idBefore orders hexes as their printed ids ("0705") sort, without
// printing them: by column, then row, for the hexes of a map (0..99);
// any other hex is compared by its printed id.
func idBefore(a, b hex.Hex) bool {
	if twoDigits(a) && twoDigits(b) {
		return a.Col < b.Col || a.Col == b.Col && a.Row < b.Row
	}
	return a.String() < b.String()
}

// twoDigits is whether both halves of a hex's id print as two digits.
func twoDigits(h hex.Hex) bool { return h.Col >= 0 && h.Col < 100 && h.Row >= 0 && h.Row < 100 }

// pathNode is a path waiting in search's queue; seq breaks ties of cost
// in the order paths were found, so the search is deterministic.
type pathNode struct {
	path []hex.Hex
	step
	seq int
}

// pathQueue is a binary heap of paths, cheapest first, then first found.
// Its order is total (no two paths share a seq), so paths leave it in
// the one order any heap would give; typed, unlike container/heap, it
// boxes no path in an interface.
type pathQueue []pathNode

func (q pathQueue) less(a, b int) bool {
	return q[a].mp < q[b].mp || q[a].mp == q[b].mp && q[a].seq < q[b].seq
}

func (q *pathQueue) push(n pathNode) {
	*q = append(*q, n)
	h := *q
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func (q *pathQueue) pop() pathNode {
	h := *q
	top, last := h[0], len(h)-1
	h[0] = h[last]
	h[last] = pathNode{} // let the path go
	h = h[:last]
	for i := 0; ; {
		least := i
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < len(h) && h.less(c, least) {
				least = c
			}
		}
		if least == i {
			break
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
	*q = h
	return top
}

// lastOr is the last hex of a path, or from for an empty one.
func lastOr(from hex.Hex, path []hex.Hex) hex.Hex {
	if len(path) > 0 {
		return path[len(path)-1]
	}
	return from
}

func init() { registerEvents(UnitMoved{}) }

// movementForms are the MOVE and FACE orders open to the activated
// Command's units that have not had their move, for Legal.
func movementForms(sc *Scenario, st *State) []string {
	var out []string
	acted, wall, mayWall := false, false, false
	for i := range sc.Units {
		if us := st.Units[i]; activatedUnit(sc, st, i) {
			acted = acted || us.Moved || us.Acted
			wall = wall || us.ShieldWall
			mayWall = mayWall || !us.ShieldWall && !us.Schiltron && us.Status == Normal && !us.OffMap && unitType(sc, st, i).ShieldWall
		}
	}
	if !acted && mayWall && mayOrderWall(sc, st, st.Command) {
		out = append(out, "SHIELD WALL")
	}
	if !acted && wall {
		out = append(out, "SHIELD WALL OFF")
	}
	if !acted {
		out = append(out, schiltronForms(sc, st)...)
	}
	for i, u := range sc.Units {
		us := st.Units[i]
		if !activatedUnit(sc, st, i) || us.Moved || us.Status == Eliminated || us.Fired && st.Acting != u.ID || us.Fled || inPursuit(st, u.ID) {
			continue
		}
		// Blood & Roses 5.3: out of Command and next to an enemy unit, it
		// may only turn; 7.6: unlimbered Artillery may only fire or turn.
		stuck := sc.Tables.Rules.AdjacencyLimits && us.OutOfCommand && !us.OffMap && enemyAdjacent(sc, st, u.Side, us.Hex)
		t := unitType(sc, st, i)
		unlimbered := t != nil && t.LimberedSide && !us.Limbered
		if !us.ShieldWall && !us.Schiltron && !stuck && !unlimbered && (!us.OffMap || arrived(sc, st, u.Command)) && (!inAmbush(sc, st, i) || ambushing(sc, st, i)) {
			out = append(out, "MOVE "+u.ID+" <hexes> [FACE <vertex>]")
			if t := unitType(sc, st, i); sc.Tables.Rules.DismountAtStart && t != nil && t.Becomes != "" && us.Status != Retired {
				out = append(out, "MOVE "+u.ID+" DISMOUNT [<hexes>] [FACE <vertex>]") // Blood & Roses 7.4
			}
			if t := unitType(sc, st, i); sc.Tables.Rules.ChangeInCommand && t != nil && t.Becomes != "" && us.Status == Normal && !us.OutOfCommand {
				if t.Mounted { // Arquebus 7.4
					out = append(out, "MOVE "+u.ID+" [<hexes>] DISMOUNT [FACE <vertex>]")
				} else {
					out = append(out, "MOVE "+u.ID+" [<hexes>] MOUNT [<hexes>] [FACE <vertex>]")
				}
			}
		}
		if !us.OffMap {
			out = append(out, "FACE "+u.ID+" <vertex>")
		}
	}
	for l, ld := range sc.Leaders {
		if ls := st.Leaders[l]; activatedLeader(sc, st, l) && !ls.OffMap && !ls.Moved {
			out = append(out, "MOVE "+leaderWord(ld)+" <hexes>")
		}
	}
	return out
}
