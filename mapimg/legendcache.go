package mapimg

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"sync"
)

// The legend is half of a mail's picture, and most of its lines are the
// same from one map to the next (the armies' colours, the Commands'
// stripes, the terrain): drawing their text and icons was a fifth of a
// map's drawing. Each line is drawn on paper in a band of rows of its own
// (lineBand), as the legend draws it in place, and kept by everything its
// pixels depend on: the legend's scale, where the baseline falls in the
// band's first row, and the line's text and icons. A line from the cache
// is then the same pixels as one drawn afresh (TestCachesSamePixels).
// Kept lines are trimmed to the columns they use: a line is drawn alike
// in any image wide enough for it.

// bandCacheMax bounds the bytes the cache keeps (pixels and runs); it
// is emptied when full. A battle's maps use a few hundred lines at most.
const bandCacheMax = 32 << 20

// noLegendCache turns the cache off: the lines are drawn in place (for
// tests: the uncached path).
var noLegendCache bool

// band is a line drawn: w × h pixels, paper to their right. fits is
// false for a line that drew outside its rows, which no band can hold.
type band struct {
	w, h int
	pix  []byte
	fits bool
	runs bandRuns
	// indexed are its pixels' indices in the battles' palettes, and
	// segments their deflate streams (segments.go).
	indexed  indexings
	segments bandSegments
}

var bands = struct {
	sync.RWMutex
	m     map[string]*band
	bytes int
}{m: map[string]*band{}}

// linesDrawn are the bands of the legend's lines, whose baselines are
// ys, from the cache or drawn now; false when they cannot be copied onto
// c as they would be drawn on it: the cache is off or c records the
// colours drawn (fixedpalette.go), a band is not within
// c, or a line does not keep to its band (the legend is then drawn in
// place, lines over lines).
func linesDrawn(c *canvas, lines []legendLine, ys []float64, fs *faces, m metrics) ([]*band, bool) {
	if noLegendCache || c.laid != nil { // off, or a reference picture, whose colours are recorded as drawn
		return nil, false
	}
	w := c.img.Rect.Dx()
	out := make([]*band, len(lines))
	for i, l := range lines {
		top, bottom := lineBand(ys[i], m)
		if top < 0 || bottom > c.img.Rect.Dy() {
			return nil, false
		}
		key := bandKey(l, m, ys[i]-float64(top))
		bands.RLock()
		b := bands.m[key]
		bands.RUnlock()
		if b == nil || b.w >= w {
			b = drawnBand(w, bottom-top, l, ys[i]-float64(top), fs, m)
			if b.w < w {
				keepBand(key, b)
			}
		}
		if !b.fits {
			return nil, false
		}
		out[i] = b
	}
	return out, true
}

// drawnBand draws a line on paper in a band w pixels wide and h high, its
// baseline at y, with room above and below to see whether it keeps to
// the band, and trims it to the columns it drew on. A line that reaches
// the band's last column is not trimmed: it may have been cut there (and
// is not kept).
func drawnBand(w, h int, l legendLine, y float64, fs *faces, m metrics) *band {
	room := int(math.Ceil(8 * m.k))
	bc := newCanvas(w, h+2*room)
	bc.rect(0, 0, float64(w), float64(h+2*room), paper)
	drawLine(bc, l, y+float64(room), fs, m)
	bc.done()
	rows := func(from, to int) []byte { return bc.img.Pix[from*bc.img.Stride : to*bc.img.Stride] }
	b := &band{h: h, fits: blank(rows(0, room)) && blank(rows(room+h, h+2*room))}
	for row := room; row < room+h; row++ {
		px := rows(row, row+1)
		for x := w - 1; x >= b.w; x-- {
			if !isPaper(px[4*x:]) {
				b.w = x + 1
				break
			}
		}
	}
	b.pix = make([]byte, 4*b.w*h)
	for row := range h {
		copy(b.pix[4*b.w*row:], rows(room+row, room+row+1)[:4*b.w])
	}
	b.runs = readBandRuns(b)
	return b
}

func blank(px []byte) bool {
	for i := 0; i < len(px); i += 4 {
		if !isPaper(px[i:]) {
			return false
		}
	}
	return true
}

func isPaper(px []byte) bool { return px[0] == paper.R && px[1] == paper.G && px[2] == paper.B }

// copyTo copies the band onto c from row top, over paper, and notes
// where (canvas.legend): rows that an earlier band's copy reached are
// left out of both bands' notes, being neither's alone.
func (b *band) copyTo(c *canvas, top int) {
	b.copyRows(c, top, 0, b.h)
	b.placeOn(c, top)
}

// copyRows copies the band's rows r0 to r1 onto c, the band's first
// row at top.
func (b *band) copyRows(c *canvas, top, r0, r1 int) {
	for row := r0; row < r1; row++ {
		at := c.img.PixOffset(0, top+row)
		copy(c.img.Pix[at:at+4*b.w], b.pix[4*b.w*row:4*b.w*(row+1)])
	}
}

// placeOn notes the band placed on c from row top (canvas.legend), as
// copyTo does.
func (b *band) placeOn(c *canvas, top int) {
	p := placedBand{b: b, top: top, from: top, to: top + b.h}
	if n := len(c.legend); n > 0 && c.legend[n-1].to > p.from {
		c.legend[n-1].to, p.from = p.from, c.legend[n-1].to
	}
	if p.from < p.to {
		c.legend = append(c.legend, p)
	}
}

// keepBand keeps a band drawn.
func keepBand(key string, b *band) {
	bands.Lock()
	defer bands.Unlock()
	if bands.m[key] != nil {
		return
	}
	if bands.bytes+b.size() > bandCacheMax {
		clear(bands.m)
		bands.bytes = 0
	}
	bands.m[key] = b
	bands.bytes += b.size()
}

// size is the bytes a band is counted for: its pixels and its runs, its
// indices in one battle's palette (fixedpalette.go, a quarter of its
// pixels' bytes) and about as much again for its kept streams
// (segments.go).
func (b *band) size() int {
	return len(b.pix)*6/4 + 8*len(b.runs.runs) + 4*len(b.runs.at) + 4*len(b.runs.colours)
}

// bandKey is everything the pixels of a line's band depend on: the
// legend's scale (its faces and sizes), the baseline's place in the
// band, and each item's icon and text.
func bandKey(l legendLine, m metrics, y float64) string {
	var k strings.Builder
	fmt.Fprintf(&k, "%x %x %v", m.k, y, l.bold)
	for _, it := range l.items {
		fmt.Fprintf(&k, "\x00%s\x00%s", it.icon.key, it.text)
	}
	return k.String()
}

// A map written in its battle's palette takes a copied line's rows from
// the line's indices (fixedpalette.go), not from the canvas: on a canvas
// drawn for indices (canvas.indexed) the lines are only placed, and the
// canvas's pixels of their rows are left as the reused buffer held them.
// The legend's other rows are painted as copyTo would leave them: paper,
// the line above the legend, and the rows two lines reach, the later
// over the earlier. Whoever needs the whole picture copies the lines
// (legendAll).

// paperAround paints paper on the rows top to bottom that no placed line
// holds alone.
func (c *canvas) paperAround(top, bottom float64) {
	w := float64(c.img.Rect.Dx())
	y := top
	for _, p := range c.legend {
		if float64(p.from) > y {
			c.rect(0, y, w, float64(p.from), paper)
		}
		y = math.Max(y, float64(p.to))
	}
	if y < bottom {
		c.rect(0, y, w, bottom, paper)
	}
}

// bandsOverlapping copies, over paper, the rows of the placed lines
// that are not theirs alone, in order, as copyTo copied them.
func (c *canvas) bandsOverlapping(placed []placedBand) {
	for _, p := range placed {
		p.b.copyRows(c, p.top, 0, p.from-p.top)
		p.b.copyRows(c, p.top, p.to-p.top, p.b.h)
	}
}

// legendAll copies the placed lines' rows onto a canvas drawn for
// indices, paper to their right: the canvas is then the whole picture.
func (c *canvas) legendAll() {
	if !c.indexed {
		return
	}
	w := c.img.Rect.Dx()
	for _, p := range c.legend {
		p.b.copyRows(c, p.top, p.from-p.top, p.to-p.top)
		for y := p.from; y < p.to; y++ {
			fillPaper(c.img.Pix[c.img.PixOffset(p.b.w, y):c.img.PixOffset(w, y)])
		}
	}
	c.indexed = false
}

// paperWord is paper as an RGBA pixel read as a little-endian word.
var paperWord = uint32(paper.R) | uint32(paper.G)<<8 | uint32(paper.B)<<16 | 0xff<<24

// fillPaper sets every pixel of px to paper.
func fillPaper(px []byte) {
	for i := 0; i+4 <= len(px); i += 4 {
		binary.LittleEndian.PutUint32(px[i:], paperWord)
	}
}
