package mapimg

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font"

	"herald/engine"
	"herald/engine/hex"
)

// box is an axis-aligned rectangle in image pixels.
type box struct{ X0, Y0, X1, Y1 float64 }

func (b box) overlaps(o box) bool { return b.X0 < o.X1 && o.X0 < b.X1 && b.Y0 < o.Y1 && o.Y0 < b.Y1 }

func (b box) contains(p pt) bool { return p.X >= b.X0 && p.X <= b.X1 && p.Y >= b.Y0 && p.Y <= b.Y1 }

func (b box) grow(d float64) box { return box{b.X0 - d, b.Y0 - d, b.X1 + d, b.Y1 + d} }

func (b box) centre() pt { return pt{(b.X0 + b.X1) / 2, (b.Y0 + b.Y1) / 2} }

// nearest is the point of b nearest p.
func (b box) nearest(p pt) pt {
	return pt{math.Max(b.X0, math.Min(p.X, b.X1)), math.Max(b.Y0, math.Min(p.Y, b.Y1))}
}

func boxOf(ps []pt) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range ps {
		b.X0, b.Y0 = math.Min(b.X0, p.X), math.Min(b.Y0, p.Y)
		b.X1, b.Y1 = math.Max(b.X1, p.X), math.Max(b.Y1, p.Y)
	}
	return b
}

// boxKind is what a box of the scene holds.
type boxKind int

const (
	boxHexNumber boxKind = iota // a hex's XXYY label
	boxCounter                  // a counter's square, turned: its bounding box
	boxUnitID                   // a counter's id
	boxMarker                   // a marker stacked under a counter
	boxLeader
	boxStandard
	boxGhost // an eliminated unit, crossed out
	boxHead  // an arrowhead
	boxTag   // a result's tag
)

// item is one thing drawn on the map that text must not cover.
type item struct {
	kind boxKind
	name string
	b    box
}

// arrowShape is an arrow as drawn: its shaft through the hexes, trimmed
// at the counters it leaves and reaches, and its head.
type arrowShape struct {
	kind  MarkKind
	shaft []pt
	head  []pt
}

// tag is a result written in a box near its hex, with a thin line back to
// the hex when it had to be placed away from it.
type tag struct {
	text   string
	b      box
	leader []pt // from the tag to the counter; empty when the tag touches its hex
}

// ghost is an eliminated unit drawn where it fell, crossed out: full size
// in an empty hex, small in a corner when a unit has advanced into it.
type ghost struct {
	unit string
	sq   square
}

// scene is where everything of the overlay goes, laid out before anything
// is drawn so that tags can avoid what is under them. Tests assert on its
// boxes.
type scene struct {
	items  []item
	arrows []arrowShape
	tags   []tag
	ghosts []ghost
	// halo: the hex numbers an arrow or a tag's line crosses, drawn over
	// it on a patch of their hex's colour.
	halo map[hex.Hex]bool
	// hidden are the hex numbers a tag covers, by name: taken off the
	// ground (hideNumbers).
	hidden map[string]bool
	// ringed are the hexes of the rings of the Command that acted, whose
	// number the ring crosses: written again over it.
	ringed map[hex.Hex]bool
}

// arrange lays out the overlay of marks over the state's counters.
func arrange(sc *engine.Scenario, st *engine.State, l *layout, marks []Mark, fs *faces) *scene {
	s := &scene{halo: map[hex.Hex]bool{}, hidden: map[string]bool{}, ringed: map[hex.Hex]bool{}}
	if len(marks) == 0 {
		return s // nothing to lay out around
	}
	for _, m := range marks {
		if m.Kind == MarkActive && len(m.Hexes) > 0 {
			s.ringed[m.Hexes[0]] = true // as drawRings draws them
		}
	}
	reach := map[hex.Hex]square{} // what stands in a hex, for the arrows' ends
	for _, h := range sc.Map.Grid.Hexes() {
		if l.inWindow(h) {
			s.add(boxHexNumber, h.String(), textBox(fs.label, h.String(), numberAt(l, h)))
		}
	}
	for i, spec := range sc.Units {
		u := st.Units[i]
		if u.OffMap || u.Status == engine.Eliminated || !l.inWindow(u.Hex) {
			continue
		}
		sq := counterSquare(l, st, i)
		reach[u.Hex] = sq
		outline := sq.poly(1)
		if u.Status == engine.Disordered { // the D badge stands out of the rear edge
			outline = append(outline, sq.at(-1.34, 0), sq.at(-1, 0.34), sq.at(-1, -0.34))
		}
		if u.NoRetreat { // so does the No Retreat badge, upright at its upper right
			nr := noRetreatAt(sq.p, sq.h)
			outline = append(outline, nr.add(pt{-sq.h * 0.4, -sq.h * 0.4}), nr.add(pt{sq.h * 0.4, sq.h * 0.4}))
		}
		s.add(boxCounter, spec.ID, boxOf(outline))
		s.add(boxUnitID, spec.ID, textBox(fs.counterBold, spec.ID, sq.p.add(pt{0, -sq.h * 0.02})))
		for k, m := range unitMarkers(u) {
			s.add(boxMarker, spec.ID+" "+m, markerBox(fs, m, markerAt(sq, k)))
		}
	}
	for i, spec := range sc.Leaders {
		if ls := st.Leaders[i]; !ls.OffMap && l.inWindow(ls.Hex) {
			s.add(boxLeader, spec.Name, leaderBox(l, fs, ls.Hex, short(spec.Name)))
		}
	}
	for i, spec := range sc.Standards {
		if ss := st.Standards[i]; l.inWindow(ss.Hex) {
			s.add(boxStandard, spec.ID, standardBox(l, ss.Hex))
		}
	}
	for _, b := range sc.Bombards {
		if l.inWindow(b.Hex) {
			s.add(boxMarker, "BOMBARD", markerBox(fs, "BOMBARD", bombardAt(l, b.Hex)))
		}
	}
	// An eliminated unit in an empty hex stands where it fell, and the
	// arrows end at its edge; one whose hex a unit advanced into is drawn
	// small, in a corner the arrows leave free.
	var small []Mark
	for _, m := range marks {
		if m.Kind != MarkGone || len(m.Hexes) == 0 || !l.inWindow(m.Hexes[0]) {
			continue
		}
		if _, taken := reach[m.Hexes[0]]; taken {
			small = append(small, m)
			continue
		}
		g := ghost{unit: m.Unit, sq: square{l.centre(m.Hexes[0]), unit(90), l.size * counterHalf}}
		reach[m.Hexes[0]] = g.sq
		s.ghosts = append(s.ghosts, g)
		s.add(boxGhost, m.Unit, boxOf(g.sq.poly(1)))
	}
	along := map[[2]hex.Hex]int{} // arrows already drawn between two hexes
	for _, m := range marks {
		if a, ok := shapeArrow(l, m, reach); ok {
			a.aside(along, m, l.size)
			s.clear(&a, l.size)
			s.arrows = append(s.arrows, a)
			s.add(boxHead, m.Unit, boxOf(a.head))
		}
	}
	for _, m := range small {
		s.corner(l, m)
	}
	for _, m := range marks {
		if m.Kind == MarkResult && len(m.Hexes) > 0 && l.inWindow(m.Hexes[0]) {
			s.place(l, fs, m, reach)
		}
	}
	s.crossings(l)
	return s
}

// corner puts a small crossed-out counter in a lower or side corner of
// its hex, over the edge of the unit that advanced into it: the first
// corner that no arrow runs through.
func (s *scene) corner(l *layout, m Mark) {
	var at *square
	for _, o := range []pt{{0.6, 0.32}, {-0.6, 0.32}, {0.66, -0.1}, {-0.66, -0.1}} {
		sq := square{l.centre(m.Hexes[0]).add(o.scale(l.size)), unit(90), l.size * counterHalf * 0.5}
		if at == nil {
			at = &sq
		}
		b := boxOf(sq.poly(1)).grow(2)
		if !s.onShafts(b) && !s.headIn(b) {
			at = &sq
			break
		}
	}
	s.ghosts = append(s.ghosts, ghost{unit: m.Unit, sq: *at})
	s.add(boxGhost, m.Unit, boxOf(at.poly(1)))
}

func (s *scene) headIn(b box) bool {
	for _, it := range s.items {
		if it.kind == boxHead && it.b.overlaps(b) {
			return true
		}
	}
	return false
}

func (s *scene) add(k boxKind, name string, b box) { s.items = append(s.items, item{k, name, b}) }

// numberAt is the centre of a hex's XXYY label, at the top of the hex.
func numberAt(l *layout, h hex.Hex) pt { return l.centre(h).add(pt{0, -l.size * 0.72}) }

// textBox is the box of text drawn centred at p (c.text), one pixel around.
func textBox(face font.Face, s string, p pt) box {
	w := textWidth(face, s) / 2
	capH := float64(face.Metrics().CapHeight) / 64
	return box{p.X - w, p.Y - capH/2, p.X + w, p.Y + capH/2}.grow(1)
}

func counterSquare(l *layout, st *engine.State, i int) square {
	u := st.Units[i]
	return square{l.centre(u.Hex).add(stackShift(l, st, i)), unit(60 * float64(u.Facing)), l.size * counterHalf}
}

// stackShift moves the two counters of a stack (Arquebus 10.0) apart, the
// first up and left, the second, drawn over it, down and right, so that
// both show. A unit alone stays in the middle of its hex.
func stackShift(l *layout, st *engine.State, i int) pt {
	u, k, n := st.Units[i], 0, 0
	for j, o := range st.Units {
		if !o.OffMap && o.Status != engine.Eliminated && o.Hex == u.Hex {
			if j < i {
				k++
			}
			n++
		}
	}
	if n < 2 {
		return pt{}
	}
	d := l.size * stackOffset
	if k == 0 {
		return pt{-d, -d}
	}
	return pt{d, d}
}

// stackOffset is how far each counter of a stack is moved from the
// middle of its hex, in hex sizes, along each axis.
const stackOffset = 0.18

func markerAt(sq square, k int) pt { return sq.p.add(pt{0, sq.h * (1.25 + 0.8*float64(k))}) }

func markerBox(fs *faces, label string, p pt) box {
	w, h := textWidth(fs.label, label)+6, l2(fs)
	return box{p.X - w/2, p.Y - h/2, p.X + w/2, p.Y + h/2}
}

// bombardAt is where a Bombard marker lies: the lower part of its hex.
func bombardAt(l *layout, h hex.Hex) pt { return l.centre(h).add(pt{0, l.size * 0.62}) }

// leaderAt is where a leader's counter sits: the upper left of its hex.
func leaderAt(l *layout, h hex.Hex) pt { return l.centre(h).add(pt{-l.size * 0.7, -l.size * 0.5}) }

func leaderBox(l *layout, fs *faces, h hex.Hex, name string) box {
	p := leaderAt(l, h)
	w, hh := textWidth(fs.small, name)/2+4, l.size*0.13+2
	return box{p.X - w, p.Y - hh, p.X + w, p.Y + hh}
}

// standardAt is where a Standard's flag is planted: the upper right.
func standardAt(l *layout, h hex.Hex) pt { return l.centre(h).add(pt{l.size * 0.45, -l.size * 0.45}) }

func standardBox(l *layout, h hex.Hex) box {
	p := standardAt(l, h)
	return box{p.X - l.size*0.03, p.Y, p.X + l.size*0.3, p.Y + l.size*0.42}
}

// shapeArrow is the arrow of a path, Charge, retreat, fire or Shock mark:
// through the hexes' centres, leaving the counter it starts at by its edge
// and ending at the edge of what stands in its last hex, so that neither
// head nor shaft covers a counter's id.
func shapeArrow(l *layout, m Mark, reach map[hex.Hex]square) (arrowShape, bool) {
	hexes := m.Hexes
	switch m.Kind {
	case MarkFire, MarkShock:
		if len(hexes) < 2 {
			return arrowShape{}, false
		}
		hexes = hexes[:2]
	case MarkPath, MarkCharge, MarkRetreat:
	default:
		return arrowShape{}, false
	}
	var ps []pt
	for _, h := range hexes {
		if l.inWindow(h) {
			if p := l.centre(h); len(ps) == 0 || ps[len(ps)-1] != p {
				ps = append(ps, p)
			}
		}
	}
	if len(ps) < 2 {
		return arrowShape{}, false
	}
	gap := l.size * 0.06
	if sq, ok := reach[hexes[0]]; ok && m.Kind != MarkRetreat && m.Kind != MarkPath && m.Kind != MarkCharge {
		d := unitVec(ps[1].sub(ps[0]))
		ps[0] = ps[0].add(d.scale(sq.edge(d) + gap))
	}
	end, prev := ps[len(ps)-1], ps[len(ps)-2]
	d := unitVec(end.sub(prev))
	trim := l.size * 0.2
	if sq, ok := reach[hexes[len(hexes)-1]]; ok {
		trim = sq.edge(d.scale(-1)) + gap
	}
	tip := end.sub(d.scale(trim))
	length := tip.sub(prev).len()
	if len(ps) == 2 {
		length = tip.sub(ps[0]).len()
	}
	headLen := math.Min(l.size*0.36, length*0.6)
	ps[len(ps)-1] = tip
	return arrowShape{kind: m.Kind, shaft: ps, head: head(tip, d, headLen)}, true
}

// aside moves an arrow whose last leg joins the same two hexes as an arrow
// before it (a retreat, then a Continued Attack on the unit that retreated)
// a little to the side, so that both show.
func (a *arrowShape) aside(along map[[2]hex.Hex]int, m Mark, size float64) {
	n := len(m.Hexes)
	if n < 2 || m.Kind == MarkFire || m.Kind == MarkShock {
		n = 2
	}
	x, y := m.Hexes[n-2], m.Hexes[n-1]
	if y.Col < x.Col || y.Col == x.Col && y.Row < x.Row {
		x, y = y, x
	}
	k := along[[2]hex.Hex{x, y}]
	along[[2]hex.Hex{x, y}]++
	if k == 0 {
		return
	}
	last := a.shaft[len(a.shaft)-1].sub(a.shaft[len(a.shaft)-2])
	off := pt{-last.Y, last.X}.scale(size * 0.3 * float64(k) / math.Max(1, last.len()))
	for i := range a.shaft {
		a.shaft[i] = a.shaft[i].add(off)
	}
	for i := range a.head {
		a.head[i] = a.head[i].add(off)
	}
}

// head is an arrowhead of length n with its tip at tip, pointing along d.
func head(tip, d pt, n float64) []pt {
	base := tip.sub(d.scale(n))
	w := pt{-d.Y, d.X}.scale(n * 0.55)
	return []pt{tip, base.add(w), base.sub(w)}
}

// clear slides an arrow's head back along its last segment until it
// covers no hex number, counter, leader or flag, so that the head stays
// readable and reads nothing away; the shaft still runs to the tip. A
// head with no such place stays at the tip.
func (s *scene) clear(a *arrowShape, size float64) {
	n := len(a.shaft)
	tip, from := a.shaft[n-1], a.shaft[n-2]
	d := unitVec(tip.sub(from))
	headLen := a.head[0].sub(a.head[1].add(a.head[2]).scale(0.5)).len()
	room := tip.sub(from).len() - headLen
	var blocks []box
	for _, it := range s.items {
		switch it.kind {
		case boxHexNumber, boxCounter, boxUnitID, boxMarker, boxLeader, boxStandard, boxGhost:
			blocks = append(blocks, it.b)
		}
	}
	for back := 0.0; back <= room; back += math.Max(1, size*0.04) {
		h := head(tip.sub(d.scale(back)), d, headLen)
		if !covers(blocks, boxOf(h)) {
			a.head = h
			return
		}
	}
}

func unitVec(d pt) pt {
	n := d.len()
	if n == 0 {
		return pt{1, 0}
	}
	return d.scale(1 / n)
}

// edge is how far from its centre the counter's outline lies in the
// direction d (a unit vector).
func (q square) edge(d pt) float64 {
	side := pt{-q.fwd.Y, q.fwd.X}
	c, s := math.Abs(d.X*q.fwd.X+d.Y*q.fwd.Y), math.Abs(d.X*side.X+d.Y*side.Y)
	return q.h / math.Max(c, s)
}

// place puts a result's tag as near its hex as it can be without covering
// any counter, hex number, leader, flag, arrowhead or other tag, inside
// the map: the candidate places are tried nearest first, those that also
// keep off the arrows' shafts before those that do not. Where hexes are
// too small for a tag to fit between their numbers, it goes over the
// numbers, and those are not drawn.
func (s *scene) place(l *layout, fs *faces, m Mark, stands map[hex.Hex]square) {
	anchor := l.centre(m.Hexes[0])
	capH := float64(fs.tag.Metrics().CapHeight) / 64
	w, h := textWidth(fs.tag, m.Label)+capH*1.2, capH*1.9
	mw, mh := l.extent()
	inside := box{l.origin.X - l.size, l.origin.Y - sqrt3/2*l.size, l.origin.X - l.size + mw, l.origin.Y - sqrt3/2*l.size + mh}
	reach := math.Max(4*l.size, w)
	area := box{anchor.X, anchor.Y, anchor.X, anchor.Y}.grow(reach + w)
	var best *box
	cands := candidates(l.size, reach)
	for _, numbers := range []bool{true, false} {
		near := s.near(area, numbers)
		for _, c := range cands {
			p := anchor.add(c)
			b := box{p.X - w/2, p.Y - h/2, p.X + w/2, p.Y + h/2}
			if b.X0 < inside.X0 || b.Y0 < inside.Y0 || b.X1 > inside.X1 || b.Y1 > inside.Y1 || covers(near, b.grow(tagGap)) {
				continue
			}
			if !s.onShafts(b) && !s.leaderCrosses(l, anchor, b, m.Unit) {
				best = &b
				break
			}
			if best == nil {
				best = &b
			}
		}
		if best != nil {
			break
		}
	}
	if best == nil {
		return // no room anywhere in the window: the event list says it
	}
	s.hide(best.grow(tagGap))
	t := tag{text: m.Label, b: *best}
	if near := best.nearest(anchor); near.sub(anchor).len() > l.size*0.8 {
		d := unitVec(near.sub(anchor))
		from := l.size * 0.3
		if sq, ok := stands[m.Hexes[0]]; ok {
			from = sq.edge(d) + 1
		}
		t.leader = []pt{anchor.add(d.scale(from)), near}
	}
	s.tags = append(s.tags, t)
	s.add(boxTag, m.Label, *best)
}

// leaderCrosses reports whether the line from a tag at b back to its hex
// would cross another tag, or a counter other than the tag's own unit's.
func (s *scene) leaderCrosses(l *layout, anchor pt, b box, unit string) bool {
	near := b.nearest(anchor)
	if near.sub(anchor).len() <= l.size*0.8 {
		return false
	}
	for _, it := range s.items {
		switch it.kind {
		case boxTag, boxCounter, boxGhost, boxLeader:
			if it.name != unit && crosses(anchor, near, it.b) {
				return true
			}
		}
	}
	return false
}

// hide takes the hex numbers under b off the map.
func (s *scene) hide(b box) {
	kept := s.items[:0]
	for _, it := range s.items {
		if it.kind == boxHexNumber && it.b.overlaps(b) {
			s.hidden[it.name] = true
			continue
		}
		kept = append(kept, it)
	}
	s.items = kept
}

// tagGap is the least room, in pixels, between a tag and anything else.
const tagGap = 2

// near are the boxes of the scene that overlap area, the hex numbers'
// with them or not.
func (s *scene) near(area box, numbers bool) []box {
	var out []box
	for _, it := range s.items {
		if it.b.overlaps(area) && (numbers || it.kind != boxHexNumber) {
			out = append(out, it.b)
		}
	}
	return out
}

// covers reports whether b overlaps any of boxes.
func covers(boxes []box, b box) bool {
	for _, o := range boxes {
		if o.overlaps(b) {
			return true
		}
	}
	return false
}

// onShafts reports whether an arrow's shaft runs through b.
func (s *scene) onShafts(b box) bool {
	for _, a := range s.arrows {
		for i := 1; i < len(a.shaft); i++ {
			if crosses(a.shaft[i-1], a.shaft[i], b) {
				return true
			}
		}
	}
	return false
}

// crosses reports whether the segment p-q passes through b, sampled every
// pixel: the scene's segments are short.
func crosses(p, q pt, b box) bool {
	if bb := (box{math.Min(p.X, q.X), math.Min(p.Y, q.Y), math.Max(p.X, q.X), math.Max(p.Y, q.Y)}); !bb.grow(1).overlaps(b) {
		return false // the segment's box misses b: most segments, most boxes
	}
	n := int(q.sub(p).len()) + 1
	for i := 0; i <= n; i++ {
		if b.contains(p.lerp(q, float64(i)/float64(n))) {
			return true
		}
	}
	return false
}

// candidates are the offsets from a hex's centre where a tag may go, up
// to reach pixels away, nearest first (a vertical step counting a little
// more than a horizontal one, as a tag is wide and low), in steps of a
// quarter hex.
// The lists are the same for every map of a hex size, and kept (read
// only) by size and reach.
func candidates(size, reach float64) []pt {
	k := [2]float64{size, reach}
	candCache.Lock()
	out, ok := candCache.m[k]
	candCache.Unlock()
	if ok && !noCandCache {
		return out
	}
	out = sortedCandidates(size, reach)
	candCache.Lock()
	if len(candCache.m) >= 256 {
		clear(candCache.m)
	}
	candCache.m[k] = out
	candCache.Unlock()
	return out
}

var candCache = struct {
	sync.Mutex
	m map[[2]float64][]pt
}{m: map[[2]float64][]pt{}}

// noCandCache turns the cache of candidates off (for tests).
var noCandCache bool

func sortedCandidates(size, reach float64) []pt {
	var out []pt
	n := int(math.Ceil(reach / size * 4))
	for i := -n; i <= n; i++ {
		for j := -n; j <= n; j++ {
			out = append(out, pt{float64(i) * size / 4, float64(j) * size / 4})
		}
	}
	// Each distance computed once: the sort compares them many times.
	type cand struct {
		p pt
		d float64
	}
	cs := make([]cand, len(out))
	for i, p := range out {
		cs[i] = cand{p, math.Hypot(p.X, p.Y*1.4)}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	for i, c := range cs {
		out[i] = c.p
	}
	return out
}

// crossings marks the hex numbers the arrows and the tags' lines run
// through, to be drawn over them.
func (s *scene) crossings(l *layout) {
	var segs [][2]pt
	for _, a := range s.arrows {
		for i := 1; i < len(a.shaft); i++ {
			segs = append(segs, [2]pt{a.shaft[i-1], a.shaft[i]})
		}
		for i := range a.head {
			segs = append(segs, [2]pt{a.head[i], a.head[(i+1)%len(a.head)]})
		}
	}
	for _, t := range s.tags {
		if len(t.leader) == 2 {
			segs = append(segs, [2]pt{t.leader[0], t.leader[1]})
		}
	}
	for _, h := range l.grid.Hexes() {
		if !l.inWindow(h) {
			continue
		}
		p := numberAt(l, h)
		b := box{p.X - l.size*0.42, p.Y - l.size*0.16, p.X + l.size*0.42, p.Y + l.size*0.16}
		for _, sg := range segs {
			if crosses(sg[0], sg[1], b) {
				s.halo[h] = true
				break
			}
		}
	}
}
