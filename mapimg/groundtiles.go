package mapimg

import "image"

// Most of a mail map is ground that nothing is drawn over. On a canvas
// drawn for palette indices (canvas.indexed), the ground is therefore not
// copied whole: each tile of it is copied when something is first drawn
// there (canvas.touch), and quantizeFixed takes the ground's own indices
// for a tile never copied, without comparing its pixels. Every drawing
// primitive touches what it is about to read or write: cover and rect
// their rows' spans, text each glyph's box. Copying the whole ground was
// a tenth of a mail map's CPU, comparing it with itself as much again.

// tileRows is the height of a ground tile; its width is groundBlock, the
// pixels quantizeFixed compares at once.
const tileRows = 16

// groundTiles is the ground of a canvas and which of its tiles were
// copied to the canvas.
type groundTiles struct {
	g      *image.RGBA
	cols   int    // tiles across
	copied []bool // row of tiles after row of tiles
}

func newGroundTiles(g *image.RGBA) *groundTiles {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	cols, rows := (w+groundBlock-1)/groundBlock, (h+tileRows-1)/tileRows
	return &groundTiles{g: g, cols: cols, copied: make([]bool, cols*rows)}
}

// touch copies the ground's tiles that r meets to the canvas, unless they
// were: something is about to be drawn there.
func (c *canvas) touch(r image.Rectangle) {
	t := c.tiles
	if t == nil {
		return
	}
	if r = r.Intersect(t.g.Rect); r.Empty() {
		return
	}
	for ty := r.Min.Y / tileRows; ty <= (r.Max.Y-1)/tileRows; ty++ {
		row := t.copied[ty*t.cols : (ty+1)*t.cols]
		for tx := r.Min.X / groundBlock; tx <= (r.Max.X-1)/groundBlock; tx++ {
			if !row[tx] {
				row[tx] = true
				t.copyTile(c.img, tx, ty)
			}
		}
	}
}

// copyTile copies a tile of the ground to img.
func (t *groundTiles) copyTile(img *image.RGBA, tx, ty int) {
	x0, x1 := 4*tx*groundBlock, 4*min((tx+1)*groundBlock, t.g.Rect.Dx())
	for y := ty * tileRows; y < min((ty+1)*tileRows, t.g.Rect.Dy()); y++ {
		copy(img.Pix[y*img.Stride+x0:y*img.Stride+x1], t.g.Pix[y*t.g.Stride+x0:])
	}
}

// groundAll copies every tile not yet copied: the canvas's pixels are
// read whole (a palette of the map's own).
func (c *canvas) groundAll() {
	if c.tiles != nil {
		c.touch(c.tiles.g.Rect)
		c.tiles = nil
	}
}

// copiedIn gives, for row y of the ground, which of its blocks were
// copied; nil when the ground was copied whole, or for a row below it.
func (t *groundTiles) copiedIn(y int) []bool {
	if t == nil || y >= t.g.Rect.Dy() {
		return nil
	}
	ty := y / tileRows
	return t.copied[ty*t.cols : (ty+1)*t.cols]
}
