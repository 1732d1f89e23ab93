package mapimg

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"golang.org/x/image/font"

	"herald/engine"
)

// legendLine is one line of the legend: items, each text after an
// optional sample drawing.
type legendLine struct {
	bold  bool
	items []legendItem
}

type legendItem struct {
	icon func(c *canvas, box pt) // draws in the iconW × 18 box whose top left is box
	text string
}

const (
	legendLead = 22 // pixels from one legend line to the next
	legendPad  = 10
	iconW      = 24 // an item's sample drawing, and the gap after it
	itemGap    = 22 // between items on one line
	// minWidth keeps the legend readable under a small crop.
	minWidth = 520
)

// legend lays out, for an image width wide: the battle and move; each
// army with its colour and its Flight Points against its Flight Level;
// a key to the terrain and hexsides the map shows and to the counters;
// the units still off the map; and whom the game waits for.
func legend(sc *engine.Scenario, st *engine.State, fs *faces, l *layout) []legendLine {
	width := imageWidth(l)
	w := width - 2*legendPad
	var lines []legendLine
	title := fmt.Sprintf("%s — after move %d", sc.Name, st.Move)
	if st.Move == 0 {
		title = sc.Name + " — the opening position"
	}
	lines = append(lines, textLines(fs.legendBold, title, w, true)...)
	lines = append(lines, flow(fs, sideItems(sc, st), w)...)
	lines = append(lines, flow(fs, mapKey(&sc.Map, l), w)...)
	for _, s := range []string{counterKey, offMap(sc, st), next(sc, st)} {
		lines = append(lines, textLines(fs.legend, s, w, false)...)
	}
	return lines
}

const counterKey = "Counters: type, id, Movement Allowance and Shock DRM of the side shown; " +
	"pale with a hatched rear and (D): Disordered; grey: Retired. Darker hexes are higher ground."

func sideItems(sc *engine.Scenario, st *engine.State) []legendItem {
	var out []legendItem
	for i := range sc.Sides {
		side := engine.Side(i)
		out = append(out, legendItem{icon: swatch(sideColours[i]), text: fmt.Sprintf("%s: %s, Flight Level %d",
			sc.SideName(side), plural(engine.FlightPoints(sc, st, side), "Flight Point"), sc.Sides[i].FlightLevel)})
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
func mapKey(m *engine.Map, l *layout) []legendItem {
	terrain := map[string]bool{}
	for _, h := range m.Grid.Hexes() {
		if l.inWindow(h) {
			terrain[m.TerrainAt(h)] = true
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
		out = append(out, legendItem{icon: terrainIcon(t), text: title(t)})
	}
	for _, f := range sortedKeys(features) {
		text := title(f)
		if f == "slope" {
			text = "Slope (ticks uphill)"
		}
		out = append(out, legendItem{icon: featureIcon(f), text: text})
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
func flow(fs *faces, items []legendItem, width float64) []legendLine {
	var lines []legendLine
	x := width
	for _, it := range items {
		w := itemWidth(fs, it)
		if x+w > width {
			lines = append(lines, legendLine{})
			x = 0
		}
		last := &lines[len(lines)-1]
		last.items = append(last.items, it)
		x += w + itemGap
	}
	return lines
}

func itemWidth(fs *faces, it legendItem) float64 {
	w := textWidth(fs.legend, it.text)
	if it.icon != nil {
		w += iconW
	}
	return w
}

// textLines wraps s into lines of text alone.
func textLines(face font.Face, s string, width float64, bold bool) []legendLine {
	var out []legendLine
	for _, l := range wrapText(face, s, width) {
		out = append(out, legendLine{bold: bold, items: []legendItem{{text: l}}})
	}
	return out
}

func legendHeight(lines []legendLine) float64 { return float64(len(lines))*legendLead + 2*legendPad }

// drawLegend draws the lines below the map, from top.
func drawLegend(c *canvas, lines []legendLine, top float64, fs *faces) {
	w := float64(c.img.Bounds().Dx())
	c.rect(0, top, w, top+legendHeight(lines), paper)
	c.line(pt{0, top}, pt{w, top}, 2, inkColour)
	y := top + legendPad + 16
	for _, l := range lines {
		x := float64(legendPad)
		face := fs.legend
		if l.bold {
			face = fs.legendBold
		}
		for _, it := range l.items {
			if it.icon != nil {
				it.icon(c, pt{x, y - 14})
				x += iconW
			}
			x = c.textLeft(face, it.text, pt{x, y}, inkColour) + itemGap
		}
		y += legendLead
	}
}

func swatch(col color.RGBA) func(*canvas, pt) {
	return func(c *canvas, p pt) { c.rect(p.X, p.Y+1, p.X+18, p.Y+17, col) }
}

// terrainIcon is a small hex of the terrain with its symbol.
func terrainIcon(t string) func(*canvas, pt) {
	return func(c *canvas, p pt) {
		const s = 11
		centre := p.add(pt{9, 9})
		l := &layout{size: s}
		st := styleOf(t)
		corners := l.cornersAt(centre, 1)
		c.fill(corners, st.fill)
		if st.symbol != nil {
			// The symbols sit low in a map hex, clear of the counters;
			// lift them to the icon's middle.
			st.symbol(c, centre.add(pt{0, -s * 0.3}), s)
		}
		c.outline(corners, 1, hexEdge)
	}
}

// featureIcon is a hexside feature along a sample hexside.
func featureIcon(f string) func(*canvas, pt) {
	return func(c *canvas, p pt) {
		drawFeature(c, f, p.add(pt{0, 12}), p.add(pt{18, 12}), p.add(pt{9, 0}), 14)
	}
}

// wrapText breaks s into lines that fit width.
func wrapText(face font.Face, s string, width float64) []string {
	var lines []string
	var cur string
	for _, word := range strings.Fields(s) {
		try := strings.TrimSpace(cur + " " + word)
		if cur != "" && textWidth(face, try) > width {
			lines = append(lines, cur)
			try = word
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
