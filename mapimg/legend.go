package mapimg

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"golang.org/x/image/font"

	"herald/engine"
	"herald/mapimg/wrap"
)

// legendLine is one line of the legend: items, each text after an
// optional sample drawing.
type legendLine struct {
	bold  bool
	items []legendItem
}

type legendItem struct {
	icon icon
	text string
	sym  string // the map symbol it explains (sym…), if any
}

// icon is an item's sample drawing: draw draws it in the iconW × iconH
// box whose top left is box; key names all it depends on (its kind and
// colours) for the cache of drawn lines (legendcache.go).
type icon struct {
	draw func(c *canvas, box pt, k float64)
	key  string
}

// The legend's symbols: every kind of thing the map draws has one, and
// the legend explains each that a map shows.
const (
	symTerrain    = "terrain:" // + the terrain's key
	symFeature    = "feature:" // + the hexside feature's key
	symHigher     = "higher ground"
	symCounter    = "counter"
	symStripe     = "stripe:" // + the Command's id
	symDisordered = "disordered"
	symRetired    = "retired"
	symLeader     = "leader"
	symKing       = "king"
	symStandard   = "standard"
	symNoRetreat  = "no retreat"
	symBombard    = "bombard"
	symRing       = "ring"
	symMove       = "move"
	symCharge     = "charge"
	symRetreat    = "retreat"
	symFire       = "fire"
	symShock      = "shock"
	symGone       = "eliminated"
	symTag        = "result"
)

// metrics are the legend's sizes in pixels, for a legend scaled by k.
type metrics struct{ k, lead, pad, iconW, iconH, gap float64 }

func metricsFor(k float64) metrics {
	return metrics{k: k, lead: 22 * k, pad: 10 * k, iconW: 24 * k, iconH: 18 * k, gap: 20 * k}
}

// minWidth keeps the legend readable under a small crop; a map for a
// phone is at least phoneWidth wide, twice what a phone shows of it, and
// its legend grows with it (legendScale).
const (
	minWidth   = 520
	phoneWidth = 680
)

// legendScale is how much larger than 15 pixels the legend's text is: for
// a phone, it reads at 11 CSS pixels when the image fills a 340-pixel
// column; otherwise 1.
func legendScale(width float64, phone bool) float64 {
	if !phone {
		return 1
	}
	return max(1, width*11/340/15)
}

// legend lays out, for an image width wide: the battle and move; each
// army with its colour and its Flight Points against its Flight Level;
// the Commands' stripes, the terrain and hexsides, the counters and the
// overlay the map shows; the units still off the map; and whom the game
// waits for.
func legend(sc *engine.Scenario, st *engine.State, fs *faces, l *layout, opt Options, m metrics, width float64) []legendLine {
	w := width - 2*m.pad
	syms := symbolsOf(sc, st, l, opt.Marks)
	if opt.keyAll {
		for _, s := range []string{symCounter, symDisordered, symRetired, symLeader, symKing, symStandard, symNoRetreat,
			symBombard, symRing, symMove, symCharge, symRetreat, symFire, symShock, symGone, symTag} {
			syms[s] = true
		}
		for _, cmd := range sc.Commands {
			syms[symStripe+cmd.ID] = true
		}
	}
	var lines []legendLine
	lines = append(lines, textLines(fs.legendBold, mapTitle(sc, st), w, true)...)
	for _, items := range [][]legendItem{sideItems(sc, st), counterItems(syms), stripeItems(sc, syms), mapKey(&sc.Map, l, syms), overlayItems(syms)} {
		lines = append(lines, flow(fs, items, w, m)...)
	}
	for _, s := range []string{offMap(sc, st), next(sc, st)} {
		lines = append(lines, textLines(fs.legend, s, w, false)...)
	}
	return lines
}

// mapTitle names the battle and the move of the mail the map goes with:
// the move the next block carries, and the one whose orders it shows.
func mapTitle(sc *engine.Scenario, st *engine.State) string {
	switch {
	case st.Outcome != nil:
		return fmt.Sprintf("%s — the battle as move %d ended it", sc.Name, st.Move)
	case st.Move == 0:
		return sc.Name + " — move 1: the opening position"
	}
	return fmt.Sprintf("%s — move %d: the battlefield as move %d left it", sc.Name, st.Move+1, st.Move)
}

// symbolsOf are the symbols the map of the window will show.
func symbolsOf(sc *engine.Scenario, st *engine.State, l *layout, marks []Mark) map[string]bool {
	syms := map[string]bool{}
	for i, spec := range sc.Units {
		u := st.Units[i]
		if u.OffMap || u.Status == engine.Eliminated || !l.inWindow(u.Hex) {
			continue
		}
		syms[symCounter], syms[symStripe+spec.Command] = true, true
		syms[symDisordered] = syms[symDisordered] || u.Status == engine.Disordered
		syms[symRetired] = syms[symRetired] || u.Status == engine.Retired
		syms[symNoRetreat] = syms[symNoRetreat] || u.NoRetreat
	}
	for i, spec := range sc.Leaders {
		if ls := st.Leaders[i]; !ls.OffMap && l.inWindow(ls.Hex) {
			syms[symLeader] = true
			syms[symKing] = syms[symKing] || spec.King
		}
	}
	for i := range sc.Standards {
		syms[symStandard] = syms[symStandard] || l.inWindow(st.Standards[i].Hex)
	}
	for _, b := range sc.Bombards {
		syms[symBombard] = syms[symBombard] || l.inWindow(b.Hex)
	}
	for _, m := range marks {
		in := len(m.Hexes) > 0 && l.inWindow(m.Hexes[0])
		switch m.Kind {
		case MarkActive:
			syms[symRing] = syms[symRing] || in
		case MarkGone:
			syms[symGone] = syms[symGone] || in
		case MarkResult:
			syms[symTag] = syms[symTag] || in
		default:
			if _, ok := shapeArrow(l, m, nil); ok {
				syms[arrowStyles[m.Kind].key] = true
			}
		}
	}
	return syms
}

func sideItems(sc *engine.Scenario, st *engine.State) []legendItem {
	var out []legendItem
	for i := range sc.Sides {
		side := engine.Side(i)
		if sc.Rules.VictoryPoints != nil { // Infidel 2.4, ruling R176
			out = append(out, legendItem{icon: swatch(sideColours[i]), text: fmt.Sprintf("%s: %s (%s suffered)",
				sc.SideName(side), plural(engine.FlightPoints(sc, st, side.Other()), "Victory Point"), plural(engine.FlightPoints(sc, st, side), "Flight Point"))})
			continue
		}
		out = append(out, legendItem{icon: swatch(sideColours[i]), text: fmt.Sprintf("%s: %s, Flight Level %d",
			sc.SideName(side), plural(engine.FlightPoints(sc, st, side), "Flight Point"), sc.Sides[i].FlightLevel)})
	}
	return out
}

// stripeItems key the Commands' stripes: a counter faces the vertex its
// striped edge points to (counterItems says so), and the stripe's colour
// is its Command's.
func stripeItems(sc *engine.Scenario, syms map[string]bool) []legendItem {
	var out []legendItem
	for _, cmd := range sc.Commands {
		if !syms[symStripe+cmd.ID] {
			continue
		}
		name := cmd.Name
		if name == "" {
			name = cmd.ID
		}
		out = append(out, legendItem{icon: counterIcon(sideColours[cmd.Side], stripe(sc, cmd.ID), 0), text: name, sym: symStripe + cmd.ID})
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// mapKey samples each terrain and hexside feature the drawn window has,
// in a fixed order, so that a reader needs no Terrain Effects Chart to
// read the map.
func mapKey(m *engine.Map, l *layout, syms map[string]bool) []legendItem {
	terrain := map[string]bool{}
	higher := false
	for _, h := range m.Grid.Hexes() {
		if l.inWindow(h) {
			terrain[m.TerrainAt(h)] = true
			higher = higher || m.Elevation[h] > 0
		}
	}
	features := map[string]bool{}
	for _, hs := range m.Hexsides {
		if l.inWindow(hs.A) || l.inWindow(hs.B) {
			features[hs.Feature] = true
		}
	}
	var out []legendItem
	for _, t := range sortedKeys(terrain) {
		out = append(out, legendItem{icon: terrainIcon(t, 0), text: title(t), sym: symTerrain + t})
	}
	if higher {
		out = append(out, legendItem{icon: terrainIcon("clear", 1), text: "Higher ground (darker)", sym: symHigher})
	}
	for _, f := range sortedKeys(features) {
		text := title(f)
		if f == "slope" {
			text = "Slope (ticks uphill)"
		}
		out = append(out, legendItem{icon: featureIcon(f), text: text, sym: symFeature + f})
	}
	return out
}

// counterItems key the counters: a unit's, its Disordered and Retired
// sides, leaders and Standards.
func counterItems(syms map[string]bool) []legendItem {
	all := []legendItem{
		{icon: counterIcon(sideColours[0], stripeColours[0], 0), text: "Unit: type, id, MA, Shock DRM; faces its stripe", sym: symCounter},
		{icon: counterIcon(shade(sideColours[0], disorderedLight), stripeColours[0], engine.Disordered), text: "Disordered (pale, hatched, D)", sym: symDisordered},
		{icon: counterIcon(retiredColour, stripeColours[0], 0), text: "Retired (grey)", sym: symRetired},
		{icon: leaderIcon(counterEdge), text: "Leader", sym: symLeader},
		{icon: leaderIcon(kingEdge), text: "King (gold edge)", sym: symKing},
		{icon: flagIcon, text: "Standard", sym: symStandard},
		{icon: noRetreatIcon, text: "No Retreat marker (NR)", sym: symNoRetreat},
		{icon: bombardIcon, text: "Bombard marker", sym: symBombard},
	}
	return keep(all, syms)
}

// overlayItems key what the last order block did.
func overlayItems(syms map[string]bool) []legendItem {
	all := []legendItem{
		{icon: ringIcon, text: "Command that acted", sym: symRing},
		{icon: arrowIcon(MarkPath), text: "Move or Advance", sym: symMove},
		{icon: arrowIcon(MarkCharge), text: "Charge", sym: symCharge},
		{icon: arrowIcon(MarkShock), text: "Shock attack", sym: symShock},
		{icon: arrowIcon(MarkFire), text: "Missile fire", sym: symFire},
		{icon: arrowIcon(MarkRetreat), text: "Retreat", sym: symRetreat},
		{icon: ghostIcon, text: "Eliminated", sym: symGone},
		{icon: tagIcon, text: "Result", sym: symTag},
	}
	return keep(all, syms)
}

func keep(items []legendItem, syms map[string]bool) []legendItem {
	var out []legendItem
	for _, it := range items {
		if syms[it.sym] {
			out = append(out, it)
		}
	}
	return out
}

func sortedKeys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// offMap names the units and leaders not on the map (reinforcements to
// enter), which the map cannot show; empty when there are none.
func offMap(sc *engine.Scenario, st *engine.State) string {
	var names [2][]string
	for i, u := range sc.Units {
		if us := st.Units[i]; us.OffMap && us.Status != engine.Eliminated {
			names[u.Side] = append(names[u.Side], u.ID)
		}
	}
	for i, l := range sc.Leaders {
		if st.Leaders[i].OffMap && !st.Leaders[i].Killed {
			names[l.Side] = append(names[l.Side], l.Name)
		}
	}
	var parts []string
	for side, ns := range names {
		if len(ns) > 0 {
			parts = append(parts, sc.SideName(engine.Side(side))+" "+strings.Join(ns, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Off map: " + strings.Join(parts, "; ") + "."
}

func next(sc *engine.Scenario, st *engine.State) string {
	if st.Outcome != nil {
		return "The battle is over: " + st.Outcome.Reason
	}
	return "Next: " + engine.Waiting(sc, st)
}

// flow places items on as few lines as fit width.
func flow(fs *faces, items []legendItem, width float64, m metrics) []legendLine {
	var lines []legendLine
	x := width
	for _, it := range items {
		w := itemWidth(fs, it, m)
		if x+w > width {
			lines = append(lines, legendLine{})
			x = 0
		}
		last := &lines[len(lines)-1]
		last.items = append(last.items, it)
		x += w + m.gap
	}
	return lines
}

func itemWidth(fs *faces, it legendItem, m metrics) float64 {
	w := textWidth(fs.legend, it.text)
	if it.icon.draw != nil {
		w += m.iconW + 4*m.k
	}
	return w
}

// textLines wraps s into lines of text alone.
func textLines(face font.Face, s string, width float64, bold bool) []legendLine {
	var out []legendLine
	for _, l := range wrap.Lines(face, s, width) {
		out = append(out, legendLine{bold: bold, items: []legendItem{{text: l}}})
	}
	return out
}

func legendHeight(lines []legendLine, m metrics) float64 {
	return float64(len(lines))*m.lead + 2*m.pad
}

// drawLegend draws the lines below the map, from top: copied from the
// lines drawn for earlier maps where it can (legendcache.go).
func drawLegend(c *canvas, lines []legendLine, top float64, fs *faces, m metrics) {
	w := float64(c.img.Bounds().Dx())
	ys := make([]float64, len(lines)) // the baselines
	y := top + m.pad + 16*m.k
	for i := range lines {
		ys[i] = y
		y += m.lead
	}
	drawn, ok := linesDrawn(c, lines, ys, fs, m)
	if ok && c.indexed {
		// Only the rows no line's indices give are painted (legendcache.go).
		for i, b := range drawn {
			top, _ := lineBand(ys[i], m)
			b.placeOn(c, top)
		}
		c.paperAround(top, top+legendHeight(lines, m))
		c.line(pt{0, top}, pt{w, top}, 2*m.k, inkColour)
		c.bandsOverlapping(c.legend)
		return
	}
	c.rect(0, top, w, top+legendHeight(lines, m), paper)
	c.line(pt{0, top}, pt{w, top}, 2*m.k, inkColour)
	if ok {
		for i, b := range drawn {
			top, _ := lineBand(ys[i], m)
			b.copyTo(c, top)
		}
		return
	}
	for i, l := range lines {
		drawLine(c, l, ys[i], fs, m)
	}
}

// lineBand are the rows of the line whose baseline is at y: a lead's
// height, from 15 k above the baseline, where its icons and text lie.
func lineBand(y float64, m metrics) (top, bottom int) {
	return int(math.Round(y - 15*m.k)), int(math.Round(y + 7*m.k))
}

// drawLine draws a line of the legend with its baseline at y.
func drawLine(c *canvas, l legendLine, y float64, fs *faces, m metrics) {
	x := m.pad
	face := fs.legend
	if l.bold {
		face = fs.legendBold
	}
	for _, it := range l.items {
		if it.icon.draw != nil {
			it.icon.draw(c, pt{x, y - 14*m.k}, m.k)
			x += m.iconW + 4*m.k
		}
		x = c.textLeft(face, it.text, pt{x, y}, inkColour) + m.gap
	}
}

func swatch(col color.RGBA) icon {
	return icon{func(c *canvas, p pt, k float64) { c.fill(iconBox(p, k, 0), col) }, fmt.Sprint("swatch ", col)}
}

// iconBox is the icon's square, inset by d of its 18 units.
func iconBox(p pt, k, d float64) []pt {
	a, b := p.add(pt{(3 + d) * k, (1 + d) * k}), p.add(pt{(21 - d) * k, (19 - d) * k})
	return []pt{a, {b.X, a.Y}, b, {a.X, b.Y}}
}

// terrainIcon is a small hex of the terrain with its symbol, level
// levels high.
func terrainIcon(t string, level int) icon {
	return icon{key: fmt.Sprint("terrain ", t, level), draw: func(c *canvas, p pt, k float64) {
		s := 11 * k
		centre := p.add(pt{12 * k, 10 * k})
		l := &layout{size: s}
		st := styleOf(t)
		corners := l.cornersAt(centre, 1)
		c.fill(corners, shade(st.fill, 1-levelShade*float64(level)))
		if st.symbol != nil {
			// The symbols sit low in a map hex, clear of the counters;
			// lift them to the icon's middle.
			st.symbol(c, centre.add(pt{0, -s * 0.3}), s)
		}
		c.outline(corners, 1, hexEdge)
	}}
}

// featureIcon is a hexside feature along a sample hexside.
func featureIcon(f string) icon {
	return icon{key: "feature " + f, draw: func(c *canvas, p pt, k float64) {
		drawFeature(c, f, p.add(pt{3 * k, 12 * k}), p.add(pt{21 * k, 12 * k}), p.add(pt{12 * k, 0}), 14*k)
	}}
}

// counterIcon is a small counter facing up, its stripe on top.
func counterIcon(fill, stripeCol color.RGBA, status engine.Status) icon {
	return icon{key: fmt.Sprint("counter ", fill, stripeCol, status), draw: func(c *canvas, p pt, k float64) {
		sq := square{p.add(pt{12 * k, 10 * k}), unit(90), 9 * k}
		c.fill(sq.poly(1), counterEdge)
		c.fill(sq.poly(0.9), fill)
		c.fill(sq.band(0.9, 0.5), stripeCol)
		if status == engine.Disordered {
			hatch(c, sq, shade(fill, 0.9))
		}
	}}
}

func leaderIcon(edge color.RGBA) icon {
	return icon{key: fmt.Sprint("leader ", edge), draw: func(c *canvas, p pt, k float64) {
		c.fill(iconBox(p, k, 3), edge)
		c.fill(iconBox(p, k, 5), shade(sideColours[0], 0.7))
	}}
}

// The icons of a kind alone.
var (
	flagIcon      = icon{drawFlagIcon, "flag"}
	noRetreatIcon = icon{drawNoRetreatIcon, "no retreat"}
	bombardIcon   = icon{drawBombardIcon, "bombard"}
	ringIcon      = icon{drawRingIcon, "ring"}
	ghostIcon     = icon{drawGhostIcon, "ghost"}
	tagIcon       = icon{drawTagIcon, "tag"}
)

func drawFlagIcon(c *canvas, p pt, k float64) {
	drawFlag(c, p.add(pt{8 * k, 2 * k}), 36*k, sideColours[0])
}

// drawNoRetreatIcon is the NR badge a unit under No Retreat wears.
func drawNoRetreatIcon(c *canvas, p pt, k float64) {
	centre := p.add(pt{12 * k, 10 * k})
	c.disc(centre, 8*k, counterEdge)
	c.disc(centre, 6.5*k, rgb(0xffffff))
}

// drawBombardIcon is the Bombard's box.
func drawBombardIcon(c *canvas, p pt, k float64) {
	c.fill(iconBox(p, k, 3), shade(sideColours[0], 0.7))
	c.fill(iconBox(p, k, 4.5), rgb(0xffffff))
}

func drawRingIcon(c *canvas, p pt, k float64) {
	l := &layout{size: 10 * k}
	c.outline(l.cornersAt(p.add(pt{12 * k, 10 * k}), 0.9), 2.5*k, ringColour)
}

// arrowIcon is a short arrow of a kind, left to right.
func arrowIcon(kind MarkKind) icon {
	return icon{key: fmt.Sprint("arrow ", kind), draw: func(c *canvas, p pt, k float64) {
		st := arrowStyles[kind]
		size := 16 * k
		from, tip := p.add(pt{0, 10 * k}), p.add(pt{24 * k, 10 * k})
		drawArrow(c, arrowShape{kind: kind, shaft: []pt{from, tip}, head: head(tip, pt{1, 0}, size*0.4)}, st, size)
	}}
}

func drawGhostIcon(c *canvas, p pt, k float64) {
	sq := square{p.add(pt{12 * k, 10 * k}), unit(90), 9 * k}
	c.fill(sq.poly(1), ghostInk)
	c.fill(sq.poly(0.9), shade(sideColours[1], 1.72))
	c.line(sq.at(0.8, 0.8), sq.at(-0.8, -0.8), 2*k, ghostInk)
	c.line(sq.at(0.8, -0.8), sq.at(-0.8, 0.8), 2*k, ghostInk)
}

func drawTagIcon(c *canvas, p pt, k float64) {
	c.fill(iconBox(p, k, 2), tagInk)
	c.fill(iconBox(p, k, 3.5), tagFill)
}
