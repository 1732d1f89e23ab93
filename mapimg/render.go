package mapimg

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math"

	"herald/engine"
	"herald/engine/hex"
)

// Options choose what to draw and how big.
type Options struct {
	// HexSize is the distance from a hex's centre to a vertex in pixels
	// (default 40, where a counter's id is 13 pixels high); counters' text
	// stays legible down to MinHexSize.
	HexSize float64
	// Crop draws only the area of the marks, Margin hexes around it
	// (default 2); without marks the whole map is drawn.
	Crop   bool
	Margin int
	// MaxWidth and MaxHeight bound the image (default 1600 × 1400, a size
	// mail clients show without fuss): a larger map is drawn with smaller
	// hexes, down to MinHexSize, and is then as large as it must be.
	MaxWidth, MaxHeight int
	// Marks is the overlay of the last order block (see Marks).
	Marks []Mark
}

// MinHexSize is the smallest hex Render draws: below it the counters'
// ratings cannot be read.
const MinHexSize = 22

const pad = 8 // pixels around the map

func (o *Options) defaults() {
	if o.HexSize == 0 {
		o.HexSize = 40
	}
	if o.Margin == 0 {
		o.Margin = 2
	}
	if o.MaxWidth == 0 {
		o.MaxWidth = 1600
	}
	if o.MaxHeight == 0 {
		o.MaxHeight = 1400
	}
}

// Render draws the battlefield of a state.
func Render(sc *engine.Scenario, st *engine.State, opt Options) (*image.RGBA, error) {
	if sc == nil || st == nil {
		return nil, errors.New("mapimg: no scenario or state")
	}
	if len(st.Units) != len(sc.Units) || len(st.Leaders) != len(sc.Leaders) || len(st.Standards) != len(sc.Standards) {
		return nil, errors.New("mapimg: the state is not of this scenario")
	}
	l, fs, key, err := plan(sc, st, opt)
	if err != nil {
		return nil, err
	}
	_, h := l.extent()
	c := newCanvas(int(imageWidth(l)), int(math.Ceil(h))+2*pad+int(legendHeight(key)))
	c.rect(0, 0, float64(c.img.Bounds().Dx()), float64(c.img.Bounds().Dy()), paper)
	drawTerrain(c, l, &sc.Map, fs)
	drawHexsides(c, l, &sc.Map)
	drawMarks(c, l, activeOnly(opt.Marks, true), fs)
	drawUnits(c, l, sc, st, fs)
	drawLeaders(c, l, sc, st, fs)
	drawStandards(c, l, sc, st)
	drawBombards(c, l, sc, fs)
	drawMarks(c, l, activeOnly(opt.Marks, false), fs)
	drawLegend(c, key, math.Ceil(h)+2*pad, fs)
	return c.img, nil
}

// plan chooses the window, the hex size and the faces, and lays out the
// legend: the legend's height depends on the width, the width on the hex
// size, and the hex size on the room the legend leaves.
func plan(sc *engine.Scenario, st *engine.State, opt Options) (*layout, *faces, []legendLine, error) {
	opt.defaults()
	l := window(sc.Map.Grid, opt)
	reserve := 8.0*legendLead + 2*legendPad // a first guess at the legend's height
	for {
		fit(l, opt, reserve)
		fs, err := newFaces(l.size)
		if err != nil {
			return nil, nil, nil, err
		}
		key := legend(sc, st, fs, l)
		if legendHeight(key) <= reserve || reserve > 8.0*legendLead+2*legendPad {
			// A narrow crop is centred above a legend that keeps its width.
			w, _ := l.extent()
			l.origin.X += (imageWidth(l) - math.Ceil(w) - 2*pad) / 2
			return l, fs, key, nil
		}
		// The legend wrapped to more lines than guessed: fit once more
		// with its real height.
		reserve = legendHeight(key)
	}
}

// imageWidth is the width of the image: the map's, or the legend's least.
func imageWidth(l *layout) float64 {
	w, _ := l.extent()
	return math.Max(math.Ceil(w)+2*pad, minWidth)
}

// activeOnly splits the marks drawn under the counters (the highlights)
// from those drawn over them.
func activeOnly(marks []Mark, active bool) []Mark {
	var out []Mark
	for _, m := range marks {
		if (m.Kind == MarkActive) == active {
			out = append(out, m)
		}
	}
	return out
}

// PNG renders the state and encodes it as a PNG.
func PNG(sc *engine.Scenario, st *engine.State, opt Options) ([]byte, error) {
	img, err := Render(sc, st, opt)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// window is the part of the grid to draw: all of it, or the marks' area
// with a margin when cropping.
func window(g hex.Grid, opt Options) *layout {
	l := &layout{grid: g, size: opt.HexSize, minCol: g.MinCol, maxCol: g.MaxCol, minRow: g.MinRow, maxRow: g.MaxRow}
	if !opt.Crop {
		return l
	}
	first := true
	for _, m := range opt.Marks {
		for _, h := range m.Hexes {
			if !g.Contains(h) {
				continue
			}
			if first {
				l.minCol, l.maxCol, l.minRow, l.maxRow = h.Col, h.Col, h.Row, h.Row
				first = false
			}
			l.minCol, l.maxCol = min(l.minCol, h.Col), max(l.maxCol, h.Col)
			l.minRow, l.maxRow = min(l.minRow, h.Row), max(l.maxRow, h.Row)
		}
	}
	if first {
		return l
	}
	l.minCol, l.maxCol = max(g.MinCol, l.minCol-opt.Margin), min(g.MaxCol, l.maxCol+opt.Margin)
	l.minRow, l.maxRow = max(g.MinRow, l.minRow-opt.Margin), min(g.MaxRow, l.maxRow+opt.Margin)
	return l
}

// fit shrinks the hexes until the map and a legend reserve pixels high
// fit the maximum size, and places the window's first hex.
func fit(l *layout, opt Options, reserve float64) {
	l.size = opt.HexSize
	w, h := l.extent()
	k := math.Min(float64(opt.MaxWidth-2*pad)/w, (float64(opt.MaxHeight-2*pad)-reserve)/h)
	if k < 1 {
		l.size = math.Max(MinHexSize, math.Floor(l.size*k))
	}
	l.origin = pt{pad + l.size, pad + sqrt3/2*l.size}
}
