package mapimg

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/vector"
)

// canvas draws anti-aliased shapes. Each shape is rasterised in its own
// bounding box, so the cost of a shape is its size, not the image's.
type canvas struct {
	img  *image.RGBA
	r    *vector.Rasterizer
	mask *image.Alpha // the coverage of the shape being drawn (fill)
	// drawn are the legend symbols (sym…) drawn on the map, so that tests
	// can hold the legend to naming every one.
	drawn map[string]bool
	// legend are the rows where the legend's lines were copied from the
	// cache, in order (bandruns.go).
	legend []placedBand
	// ground is the ground of its first rows (layer.go), copied whole
	// or, when tiles is not nil, a tile at a time (groundtiles.go).
	ground *groundLayer
	tiles  *groundTiles
	// indexed is true for a canvas drawn for palette indices, whose
	// legend lines are placed and not copied (legendcache.go).
	indexed bool
	// laid, when not nil, records the opaque colours shapes and text are
	// drawn in (a battle's reference pictures: fixedpalette.go).
	laid map[uint32]bool
}

// lay records an opaque colour drawn, if the canvas records them.
func (c *canvas) lay(col color.Color) {
	if c.laid == nil {
		return
	}
	if r, g, b, a := col.RGBA(); a == 0xffff {
		c.laid[r>>8|g>>8<<8|b>>8<<16|0xff<<24] = true
	}
}

func newCanvas(w, h int) *canvas { return newCanvasOn(w, h, nil) }

// newCanvasOn makes a canvas on pix when it is large enough, its pixels
// left as they are: the caller paints every one.
func newCanvasOn(w, h int, pix []byte) *canvas {
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	if cap(pix) < 4*w*h {
		img = image.NewRGBA(img.Rect)
	}
	img.Pix = img.Pix[:4*w*h]
	r, _ := rasterizers.Get().(*rasterizer)
	if r == nil {
		r = &rasterizer{vector.NewRasterizer(1, 1), &image.Alpha{}}
	}
	return &canvas{img: img, r: r.Rasterizer, mask: r.mask, drawn: map[string]bool{}}
}

// rasterizer is a rasteriser and the mask it draws a shape's coverage on.
type rasterizer struct {
	*vector.Rasterizer
	mask *image.Alpha
}

// rasterizers are reused from one canvas to the next: a rasteriser's
// buffers grow to its largest shape, a few hundred KiB of garbage a map
// otherwise. Reset makes a reused one as a new one.
var rasterizers sync.Pool

// done is called when nothing more is drawn on the canvas.
func (c *canvas) done() {
	rasterizers.Put(&rasterizer{c.r, c.mask})
	c.r, c.mask = nil, nil
}

// used records that a symbol of the legend was drawn on the map.
func (c *canvas) used(sym string) { c.drawn[sym] = true }

// fill paints a closed polygon.
func (c *canvas) fill(poly []pt, col color.Color) {
	if len(poly) < 3 {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range poly {
		minX, minY = math.Min(minX, p.X), math.Min(minY, p.Y)
		maxX, maxY = math.Max(maxX, p.X), math.Max(maxY, p.Y)
	}
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	clip := box.Intersect(c.img.Bounds())
	if clip.Empty() {
		return
	}
	// The rasteriser covers the visible part of the box only; the path may
	// run outside it, and is clipped there.
	c.r.Reset(clip.Dx(), clip.Dy())
	o := pt{float64(clip.Min.X), float64(clip.Min.Y)}
	c.r.MoveTo(float32(poly[0].X-o.X), float32(poly[0].Y-o.Y))
	for _, p := range poly[1:] {
		c.r.LineTo(float32(p.X-o.X), float32(p.Y-o.Y))
	}
	c.r.ClosePath()
	c.cover(clip, col)
}

// cover paints col over the pixels of clip as far as the rasteriser's
// shape covers them. The rasteriser writes the coverage as bytes, its
// fastest path, and the colour is laid only where the coverage is not
// zero, in one store where it is whole: most of a shape's box is outside the shape or
// inside it, where vector's own RGBA path does a division's blend for
// every pixel (a fifth of a mail map's time).
func (c *canvas) cover(clip image.Rectangle, col color.Color) {
	w, h := clip.Dx(), clip.Dy()
	m := c.mask
	if cap(m.Pix) < w*h {
		m.Pix = make([]byte, w*h)
	}
	m.Pix, m.Stride, m.Rect = m.Pix[:w*h], w, image.Rect(0, 0, w, h)
	c.lay(col)
	c.r.DrawOp = draw.Src // every byte of the mask written (Reset sets Over)
	c.r.Draw(m, m.Rect, image.Opaque, image.Point{})
	sr, sg, sb, sa := col.RGBA()
	whole := uint32(sr>>8) | uint32(sg>>8)<<8 | uint32(sb>>8)<<16 | uint32(sa>>8)<<24
	for y := range h {
		cov := m.Pix[y*w : (y+1)*w]
		x0, x1 := covered(cov)
		if x0 == x1 {
			continue
		}
		c.touch(image.Rect(clip.Min.X+x0, clip.Min.Y+y, clip.Min.X+x1, clip.Min.Y+y+1))
		o := c.img.PixOffset(clip.Min.X, clip.Min.Y+y)
		px := c.img.Pix[o : o+4*w]
		for x := x0; x < x1; x++ {
			if x+8 <= x1 && binary.LittleEndian.Uint64(cov[x:]) == 0 {
				x += 7
				continue
			}
			a := uint32(cov[x])
			switch {
			case a == 0:
			case a == 0xff && sa == 0xffff:
				binary.LittleEndian.PutUint32(px[4*x:], whole)
			default:
				over(px[4*x:4*x+4], sr, sg, sb, sa, a*0x101)
			}
		}
	}
}

// covered is the span of a row of coverage from its first byte that is
// not zero to its last: empty when every byte is zero.
func covered(cov []byte) (x0, x1 int) {
	x1 = len(cov)
	for x1 >= 8 && binary.LittleEndian.Uint64(cov[x1-8:]) == 0 {
		x1 -= 8
	}
	for x1 > 0 && cov[x1-1] == 0 {
		x1--
	}
	for x0+8 <= x1 && binary.LittleEndian.Uint64(cov[x0:]) == 0 {
		x0 += 8
	}
	for x0 < x1 && cov[x0] == 0 {
		x0++
	}
	return x0, x1
}

// over lays colour s at coverage ma (of 0xffff) over a pixel: the
// formula of vector's Over for a uniform colour on RGBA.
func over(px []byte, sr, sg, sb, sa, ma uint32) {
	a := 0xffff - sa*ma/0xffff
	px[0] = uint8((uint32(px[0])*0x101*a + sr*ma) / 0xffff >> 8)
	px[1] = uint8((uint32(px[1])*0x101*a + sg*ma) / 0xffff >> 8)
	px[2] = uint8((uint32(px[2])*0x101*a + sb*ma) / 0xffff >> 8)
	px[3] = uint8((uint32(px[3])*0x101*a + sa*ma) / 0xffff >> 8)
}

// line strokes a segment of the given width with square ends.
func (c *canvas) line(a, b pt, width float64, col color.Color) {
	d := b.sub(a)
	n := d.len()
	if n == 0 {
		return
	}
	off := pt{-d.Y / n, d.X / n}.scale(width / 2)
	c.fill([]pt{a.add(off), b.add(off), b.sub(off), a.sub(off)}, col)
}

// polyline strokes connected segments, with round joins.
func (c *canvas) polyline(ps []pt, width float64, col color.Color) {
	for i := 1; i < len(ps); i++ {
		c.line(ps[i-1], ps[i], width, col)
	}
	for _, p := range ps[1:max(1, len(ps)-1)] {
		c.disc(p, width/2, col)
	}
}

// roundLine strokes a segment with round ends, so that segments meeting
// at an angle join without a notch.
func (c *canvas) roundLine(a, b pt, width float64, col color.Color) {
	c.line(a, b, width, col)
	c.disc(a, width/2, col)
	c.disc(b, width/2, col)
}

// dashed strokes a segment in dashes of length dash.
func (c *canvas) dashed(a, b pt, width, dash float64, col color.Color) {
	n := b.sub(a).len()
	for t := 0.0; t < n; t += 2 * dash {
		c.line(a.lerp(b, t/n), a.lerp(b, math.Min(t+dash, n)/n), width, col)
	}
}

// disc fills a circle.
func (c *canvas) disc(p pt, r float64, col color.Color) {
	const n = 20
	poly := make([]pt, n)
	for i := range poly {
		poly[i] = p.add(unit(float64(i) * 360 / n).scale(r))
	}
	c.fill(poly, col)
}

// outline strokes a closed polygon.
func (c *canvas) outline(poly []pt, width float64, col color.Color) {
	for i := range poly {
		c.line(poly[i], poly[(i+1)%len(poly)], width, col)
	}
}

// rect fills an axis-aligned rectangle. One on whole pixels needs no
// anti-aliasing and is copied directly: the background and the legend's
// would otherwise make the rasteriser accumulate the whole image.
func (c *canvas) rect(x0, y0, x1, y1 float64, col color.Color) {
	// An edge outside the image is where the image ends: the pixels inside
	// are covered the same.
	b := c.img.Bounds()
	x0, y0 = math.Max(x0, float64(b.Min.X)), math.Max(y0, float64(b.Min.Y))
	x1, y1 = math.Min(x1, float64(b.Max.X)), math.Min(y1, float64(b.Max.Y))
	if x0 >= x1 || y0 >= y1 {
		return
	}
	if whole(x0) && whole(y0) && whole(x1) && whole(y1) {
		c.lay(col)
		r := image.Rect(int(x0), int(y0), int(x1), int(y1))
		c.touch(r)
		draw.Draw(c.img, r, image.NewUniform(col), image.Point{}, draw.Over)
		return
	}
	c.fill([]pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}, col)
}

func whole(x float64) bool { return x == math.Trunc(x) }

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// shade darkens (k < 1) or lightens toward white (k > 1) a colour.
func shade(c color.RGBA, k float64) color.RGBA {
	f := func(v uint8) uint8 {
		if k <= 1 {
			return uint8(float64(v) * k)
		}
		return uint8(float64(v) + (255-float64(v))*(k-1))
	}
	return color.RGBA{f(c.R), f(c.G), f(c.B), c.A}
}
