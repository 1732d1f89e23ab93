package mapimg

import (
	"image/color"
	"math"

	"herald/engine"
	"herald/engine/hex"

	"golang.org/x/image/font"
)

// terrainStyle is how a terrain is drawn: a fill, and a symbol that tells
// it apart without colour.
type terrainStyle struct {
	fill   color.RGBA
	symbol func(c *canvas, centre pt, s float64)
}

// levelShade darkens a hex for each level of elevation.
const levelShade = 0.12

var (
	clearColour = rgb(0xf1e9cf)
	inkColour   = rgb(0x3b3226)
	paper       = rgb(0xfbf7ea) // around the map and under the legend
	hexEdge     = rgb(0x9c8f70)
	labelColour = rgb(0x6b604a)
)

// terrainStyles by the keys of the house tables (data/tables/*.yaml).
var terrainStyles = map[string]terrainStyle{
	"clear":    {fill: clearColour},
	"rough":    {fill: rgb(0xdccfa4), symbol: roughSymbol},
	"woods":    {fill: rgb(0xa9c98f), symbol: treesSymbol},
	"marsh":    {fill: rgb(0xbfd8d2), symbol: marshSymbol},
	"village":  {fill: rgb(0xe2d3b8), symbol: housesSymbol(2)},
	"town":     {fill: rgb(0xd6c3a3), symbol: housesSymbol(3)},
	"city":     {fill: rgb(0xc9b391), symbol: housesSymbol(4)},
	"building": {fill: rgb(0xcdb8a0), symbol: housesSymbol(1)},
	"castle":   {fill: rgb(0xb9aa98), symbol: castleSymbol},
	"wagons":   {fill: rgb(0xd9c7a0), symbol: wagonsSymbol},
	// Arquebus' terrain (data/tables/arquebus.yaml).
	"buildings":   {fill: rgb(0xcdb8a0), symbol: housesSymbol(1)},
	"light-woods": {fill: rgb(0xc4d9a8), symbol: treesSymbol},
	"vineyard":    {fill: rgb(0xd5cfa0)},
	"cropfields":  {fill: rgb(0xe8dcaa)},
	"taro-river":  {fill: rgb(0xa9c8de)},
}

// styleOf is a terrain's style; a terrain Herald has no style for (a
// player's own tables may add one) is plain grey, and the legend names it.
func styleOf(terrain string) terrainStyle {
	if st, ok := terrainStyles[terrain]; ok {
		return st
	}
	return terrainStyle{fill: rgb(0xd0d0d0)}
}

// drawTerrain fills every hex of the window with its terrain, darker for
// each level of elevation (a change of lightness, which every reader
// sees; the legend says so), and writes its XXYY label.
func drawTerrain(c *canvas, l *layout, m *engine.Map) {
	seen := map[string]bool{}
	for _, h := range m.Grid.Hexes() {
		if !l.inWindow(h) {
			continue
		}
		t := m.TerrainAt(h)
		st := styleOf(t)
		c.fill(l.corners(h, 1), hexFill(m, h))
		if st.symbol != nil {
			st.symbol(c, l.centre(h), l.size)
		}
		if !seen[t] { // one key per terrain, not a string per hex
			seen[t] = true
			c.used(symTerrain + t)
		}
		if m.Elevation[h] > 0 {
			c.used(symHigher)
		}
	}
	for _, h := range m.Grid.Hexes() {
		if l.inWindow(h) {
			c.outline(l.corners(h, 1), 1, hexEdge)
		}
	}
}

// hexFill is a hex's colour: its terrain's, darker for each level.
func hexFill(m *engine.Map, h hex.Hex) color.RGBA {
	return shade(styleOf(m.TerrainAt(h)).fill, 1-levelShade*float64(m.Elevation[h]))
}

// drawNumbers writes every hex's XXYY label on the ground.
func drawNumbers(c *canvas, l *layout, m *engine.Map, label font.Face) {
	for _, h := range m.Grid.Hexes() {
		if l.inWindow(h) {
			c.text(label, h.String(), numberAt(l, h), labelColour)
		}
	}
}

// hideNumbers takes the numbers a tag covers off the ground, under a
// patch of their hex's colour: a tag covering part of one would leave the
// rest showing.
func hideNumbers(c *canvas, l *layout, m *engine.Map, label font.Face, hidden map[string]bool) {
	if len(hidden) == 0 {
		return
	}
	for _, h := range m.Grid.Hexes() {
		if l.inWindow(h) && hidden[h.String()] {
			numberPatch(c, l, m, label, h)
		}
	}
}

// numbersOver writes again, after the rings and arrows, the numbers they
// cross: on a patch of the hex's colour where an arrow or a tag's line
// runs through (scene.halo), so that it stays legible; as it is over the
// ring of the Command that acted (scene.ringed), which crosses the top of
// its hex's number.
func numbersOver(c *canvas, l *layout, m *engine.Map, label font.Face, s *scene) {
	for _, h := range m.Grid.Hexes() {
		if !l.inWindow(h) || !s.halo[h] && !s.ringed[h] || s.hidden[h.String()] {
			continue
		}
		if s.halo[h] {
			numberPatch(c, l, m, label, h)
		}
		c.text(label, h.String(), numberAt(l, h), labelColour)
	}
}

// numberPatch paints the box of a hex's number, a little grown, in its
// hex's colour.
func numberPatch(c *canvas, l *layout, m *engine.Map, label font.Face, h hex.Hex) {
	b := textBox(label, h.String(), numberAt(l, h)).grow(math.Max(1, l.size*0.04))
	c.rect(math.Floor(b.X0), math.Floor(b.Y0), math.Ceil(b.X1), math.Ceil(b.Y1), hexFill(m, h))
}

// The symbols sit in the lower part of a hex, below its counters' middle,
// small enough to be read around them.
func treesSymbol(c *canvas, p pt, s float64) {
	for _, o := range []pt{{-0.42, 0.38}, {0.42, 0.38}, {0, 0.52}, {-0.55, -0.1}, {0.55, -0.1}} {
		q := p.add(o.scale(s))
		c.line(q, q.add(pt{0, s * 0.12}), s*0.04, rgb(0x5b4a2a))
		c.disc(q, s*0.1, rgb(0x4f7a3a))
	}
}

func marshSymbol(c *canvas, p pt, s float64) {
	for _, o := range []pt{{-0.45, 0.35}, {0.2, 0.35}, {-0.15, 0.52}, {-0.62, -0.08}, {0.45, -0.08}} {
		q := p.add(o.scale(s))
		c.line(q, q.add(pt{s * 0.28, 0}), s*0.045, rgb(0x3f7f8f))
		c.line(q.add(pt{s * 0.14, 0}), q.add(pt{s * 0.14, -s * 0.12}), s*0.035, rgb(0x3f7f8f))
	}
}

func roughSymbol(c *canvas, p pt, s float64) {
	for _, o := range []pt{{-0.45, 0.35}, {0.35, 0.4}, {-0.05, 0.55}, {-0.6, -0.1}, {0.55, -0.1}} {
		q := p.add(o.scale(s))
		c.fill([]pt{q, q.add(pt{s * 0.1, -s * 0.14}), q.add(pt{s * 0.2, 0})}, rgb(0x8d7a4f))
	}
}

func housesSymbol(n int) func(c *canvas, p pt, s float64) {
	return func(c *canvas, p pt, s float64) {
		xs := []float64{-0.45, 0.3, -0.1, 0.55}
		ys := []float64{0.38, 0.38, 0.52, -0.08}
		for i := 0; i < n; i++ {
			q := p.add(pt{xs[i], ys[i]}.scale(s))
			c.rect(q.X, q.Y-s*0.1, q.X+s*0.16, q.Y+s*0.04, rgb(0x7c4b34))
			c.fill([]pt{{q.X - s*0.02, q.Y - s*0.1}, {q.X + s*0.08, q.Y - s*0.18}, {q.X + s*0.18, q.Y - s*0.1}}, rgb(0x5c3524))
		}
	}
}

// wagonsSymbol: two carts, a box on two wheels each (the Wagon marker of
// Men of Iron 2.2, drawn as the terrain it makes).
func wagonsSymbol(c *canvas, p pt, s float64) {
	for _, o := range []pt{{-0.5, 0.3}, {0.08, 0.46}} {
		q := p.add(o.scale(s))
		c.rect(q.X, q.Y-s*0.1, q.X+s*0.42, q.Y+s*0.02, rgb(0x6e4a2a))
		c.disc(pt{q.X + s*0.09, q.Y + s*0.05}, s*0.055, rgb(0x3b3226))
		c.disc(pt{q.X + s*0.33, q.Y + s*0.05}, s*0.055, rgb(0x3b3226))
	}
}

func castleSymbol(c *canvas, p pt, s float64) {
	q := p.add(pt{-0.25, 0.32}.scale(s))
	c.rect(q.X, q.Y, q.X+s*0.5, q.Y+s*0.22, rgb(0x5e5a55))
	for i := 0; i < 3; i++ {
		x := q.X + float64(i)*s*0.2
		c.rect(x, q.Y-s*0.08, x+s*0.1, q.Y, rgb(0x5e5a55))
	}
}
