package mapimg

import (
	"errors"
	"image"
	"math"
	"sync"

	"herald/engine"
	"herald/engine/hex"
)

// Options choose what to draw and how big.
type Options struct {
	// HexSize is the distance from a hex's centre to a vertex in pixels
	// (default 40, where a counter's id is 13 pixels high); counters' text
	// stays legible down to MinHexSize.
	HexSize float64
	// Crop draws only the area of the marks and of Area, Margin hexes
	// around it (default 2); without either, the area of the units on
	// the map.
	Crop   bool
	Margin int
	// MaxWidth and MaxHeight bound the image (default 1600 × 1400, a size
	// mail clients show without fuss): a larger map is drawn with smaller
	// hexes, down to MinHexSize, and is then as large as it must be.
	MaxWidth, MaxHeight int
	// Marks is the overlay of the last order block (see Marks).
	Marks []Mark
	// Area are hexes a crop must show besides the marks' (ForArmy).
	Area []hex.Hex
	// Phone draws for a mail read on a phone, where the image fills a
	// column about 340 CSS pixels wide: the image is at least twice that
	// (crisp on the usual screens) and its legend grows with its width so
	// that it reads at about 11 pixels.
	Phone bool
	// Palette writes the PNG with a palette of 256 colours (an 8-bit
	// indexed-colour PNG) rather than 8-bit RGB: a map is a third the
	// bytes, for a mail to carry and a phone to fetch (choosing the
	// colours costs more than the shorter encoding saves, less than
	// composing and sending the larger mail: docs/performance.md). A
	// map has thousands of colours, most of them the blends of
	// anti-aliased edges; those outside the battle's palette
	// (fixedpalette.go) become the nearest of its colours, so a pixel's
	// colour may move to a near one (the difference cannot be seen at
	// 1:1). Render is not changed by it.
	Palette bool
	// keyAll makes the legend key every symbol, whether the map shows it
	// or not, and laid records the colours drawn: the reference pictures
	// of a battle's palette (fixedpalette.go).
	keyAll bool
	laid   map[uint32]bool
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
	if err := check(sc, st); err != nil {
		return nil, err
	}
	p, err := plan(sc, st, opt)
	if err != nil {
		return nil, err
	}
	c := paint(sc, st, opt, p, nil)
	c.done()
	return c.img, nil
}

func check(sc *engine.Scenario, st *engine.State) error {
	if sc == nil || st == nil {
		return errors.New("mapimg: no scenario or state")
	}
	if len(st.Units) != len(sc.Units) || len(st.Leaders) != len(sc.Leaders) || len(st.Standards) != len(sc.Standards) {
		return errors.New("mapimg: the state is not of this scenario")
	}
	return nil
}

// paint paints the map in layers: the ground with its hex numbers, the
// rings of the Command that acted, the arrows (under the counters, which
// they start and end at), the hex numbers they cross again (over them),
// the counters, the tags, the legend. The ground comes from a cache
// (ground); the numbers tags cover are taken off it. The
// image is drawn on pix when it is large enough (PNG reuses it).
func paint(sc *engine.Scenario, st *engine.State, opt Options, p *planned, pix []byte) *canvas {
	l, fs := p.l, p.fs
	_, h := l.extent()
	top := int(math.Ceil(h)) + 2*pad
	c := newCanvasOn(int(p.width), top+int(legendHeight(p.key, p.m)), pix)
	c.indexed = p.indexed
	c.laid = opt.laid
	// The legend's area, below top, is left as it is (on a reused
	// buffer, the last map's pixels): drawLegend paints all of it, over
	// whatever the map's layers drew there (on a canvas drawn for
	// indices, all but the rows its lines' indices give).
	ground(c, &sc.Map, l, fs.label, top)
	hideNumbers(c, l, &sc.Map, fs.label, p.scene.hidden)
	drawRings(c, l, opt.Marks)
	drawArrows(c, l, p.scene)
	numbersOver(c, l, &sc.Map, fs.label, p.scene)
	drawGhosts(c, sc, p.scene, fs)
	drawUnits(c, l, sc, st, fs)
	drawLeaders(c, l, sc, st, fs)
	drawStandards(c, l, sc, st)
	drawBombards(c, l, sc, fs)
	drawTags(c, l, p.scene, fs)
	drawLegend(c, p.key, math.Ceil(h)+2*pad, fs, p.m)
	return c
}

// planned is where everything goes, and whether the canvas is drawn
// for palette indices (canvas.indexed).
type planned struct {
	indexed bool
	l       *layout
	fs      *faces
	m       metrics
	width   float64
	key     []legendLine
	scene   *scene
}

// plan chooses the window, the hex size and the faces, and lays out the
// legend and the overlay: the legend's height depends on the width, the
// width on the hex size, and the hex size on the room the legend leaves.
func plan(sc *engine.Scenario, st *engine.State, opt Options) (*planned, error) {
	opt.defaults()
	l := window(sc, st, opt)
	reserve := 8.0*22 + 2*10 // a first guess at the legend's height, in pixels at scale 1
	for tries := 0; ; tries++ {
		fit(l, opt, reserve)
		if opt.Crop {
			widen(l, opt.Phone)
		}
		width := imageWidth(l, opt.Phone)
		m := metricsFor(legendScale(width, opt.Phone))
		fs, err := newFaces(l.size, m.k)
		if err != nil {
			return nil, err
		}
		key := legend(sc, st, fs, l, opt, m, width)
		if legendHeight(key, m) <= reserve || tries > 3 {
			// A narrow crop is centred above a legend that keeps its width.
			w, _ := l.extent()
			l.origin.X += (width - math.Ceil(w) - 2*pad) / 2
			return &planned{l: l, fs: fs, m: m, width: width, key: key, scene: arrange(sc, st, l, opt.Marks, fs)}, nil
		}
		// The legend wrapped to more lines than guessed: fit again with
		// its real height, which a narrower map may wrap further still.
		reserve = legendHeight(key, m)
	}
}

// widen adds columns on either side of a narrow crop, as far as the grid
// goes, while they fit the width the legend takes anyway: more of the
// field around the action, for nothing.
func widen(l *layout, phone bool) {
	for side := 0; ; side++ {
		w, _ := l.extent()
		least := imageWidth(l, phone)
		if math.Ceil(w)+2*pad+1.5*l.size > least {
			return
		}
		switch {
		case side%2 == 0 && l.maxCol < l.grid.MaxCol:
			l.maxCol++
		case l.minCol > l.grid.MinCol:
			l.minCol--
		case l.maxCol < l.grid.MaxCol:
			l.maxCol++
		default:
			return
		}
	}
}

// imageWidth is the width of the image: the map's, or the legend's least.
func imageWidth(l *layout, phone bool) float64 {
	w, _ := l.extent()
	least := float64(minWidth)
	if phone {
		least = phoneWidth
	}
	return math.Max(math.Ceil(w)+2*pad, least)
}

// PNG renders the state and encodes it as a PNG. The image is drawn on a buffer reused from one call to the next, and
// encoded by encodePNG.
func PNG(sc *engine.Scenario, st *engine.State, opt Options) ([]byte, error) {
	if err := check(sc, st); err != nil {
		return nil, err
	}
	p, err := plan(sc, st, opt)
	if err != nil {
		return nil, err
	}
	buf, _ := pixPool.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	defer pixPool.Put(buf)
	p.indexed = opt.Palette
	c := paint(sc, st, opt, p, *buf)
	c.done()
	*buf = c.img.Pix
	var q quantizer
	if opt.Palette {
		q = mailQuantizer(sc, c)
	}
	return encodeWith(c.img, period(p.l), q)
}

// mailQuantizer gives a map's pixels in its battle's palette, or in a
// palette of its own when they do not fit the battle's
// (fixedpalette.go).
func mailQuantizer(sc *engine.Scenario, c *canvas) quantizer {
	return func(pix []byte) (*image.Paletted, []segmentAt, bool) {
		if bp := paletteFor(sc); bp != nil {
			if p, segs, ok := quantizeFixed(c, bp, pix); ok {
				return p, segs, true
			}
		}
		c.legendAll() // the whole picture, for a palette of its own or RGB
		p, ok := quantizeWith(c.img, pix, c.legend)
		return p, nil, ok
	}
}

// pixPool holds the pixels PNG draws on.
var pixPool sync.Pool

// period is the width in pixels of two columns of hexes, after which the
// grid repeats on a row, when it is a whole number; otherwise 0.
func period(l *layout) int {
	if p := 3 * l.size; p == math.Trunc(p) && p < 1<<20 {
		return int(p)
	}
	return 0
}

// window is the part of the grid to draw: all of it, or the marks' area
// (the units', without marks) with a margin when cropping.
func window(sc *engine.Scenario, st *engine.State, opt Options) *layout {
	g := sc.Map.Grid
	l := &layout{grid: g, size: opt.HexSize, minCol: g.MinCol, maxCol: g.MaxCol, minRow: g.MinRow, maxRow: g.MaxRow}
	if !opt.Crop {
		return l
	}
	area := append([]hex.Hex{}, opt.Area...)
	for _, m := range opt.Marks {
		area = append(area, m.Hexes...)
	}
	if len(area) == 0 {
		for _, u := range st.Units {
			if !u.OffMap && u.Status != engine.Eliminated {
				area = append(area, u.Hex)
			}
		}
	}
	first := true
	for _, h := range area {
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
	if first {
		return l
	}
	l.minCol, l.maxCol = max(g.MinCol, l.minCol-opt.Margin), min(g.MaxCol, l.maxCol+opt.Margin)
	l.minRow, l.maxRow = max(g.MinRow, l.minRow-opt.Margin), min(g.MaxRow, l.maxRow+opt.Margin)
	return l
}

// ForArmy are the options of the map of one army's area, for a phone:
// the welcome's picture of the player's own units, legible where the
// whole field's is not.
func ForArmy(sc *engine.Scenario, st *engine.State, side engine.Side) Options {
	o := ForMail(nil)
	for i, u := range sc.Units {
		if us := st.Units[i]; u.Side == side && !us.OffMap && us.Status != engine.Eliminated {
			o.Area = append(o.Area, us.Hex)
		}
	}
	return o
}

// ForMail are the options of a mail's map: the area of the marks (of the
// armies, without marks) and a hex around it, drawn for a phone; as tall
// as it needs, and at most 1100 pixels wide before its hexes shrink;
// written with a palette, for a mail a third the size.
func ForMail(marks []Mark) Options {
	return Options{Marks: marks, Crop: true, Margin: 1, HexSize: 64, Phone: true, MaxWidth: 1100, MaxHeight: 3000, Palette: true}
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
