package tabletop

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sort"

	"golang.org/x/image/vector"
)

// pt is a point on the image, in pixels, y down.
type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt             { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt             { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) scale(k float64) pt      { return pt{p.X * k, p.Y * k} }
func (p pt) lerp(q pt, t float64) pt { return p.add(q.sub(p).scale(t)) }
func (p pt) len() float64            { return math.Hypot(p.X, p.Y) }

// norm is p scaled to length 1 (p itself when it has no length).
func (p pt) norm() pt {
	if n := p.len(); n > 0 {
		return p.scale(1 / n)
	}
	return p
}

// perp is p turned a right angle (clockwise on the image).
func (p pt) perp() pt { return pt{-p.Y, p.X} }

// canvas draws anti-aliased shapes on an RGBA image. Each shape is
// rasterised in its own bounding box, clipped to the image, so that a
// shape costs its size, not the image's.
type canvas struct {
	img *image.RGBA
	r   *vector.Rasterizer
	// clip, when not empty, is where shapes may paint: the table, while
	// its terrain and marks are drawn.
	clip image.Rectangle
}

// bounds is where a shape may paint.
func (c *canvas) bounds() image.Rectangle {
	if c.clip.Empty() {
		return c.img.Bounds()
	}
	return c.clip.Intersect(c.img.Bounds())
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), r: vector.NewRasterizer(1, 1)}
}

// path loads the closed polygon poly into the rasteriser for the part of
// its bounding box inside bounds and reports that part (empty: nothing to
// draw).
func (c *canvas) path(poly []pt, bounds image.Rectangle) image.Rectangle {
	if len(poly) < 3 {
		return image.Rectangle{}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range poly {
		minX, minY = math.Min(minX, p.X), math.Min(minY, p.Y)
		maxX, maxY = math.Max(maxX, p.X), math.Max(maxY, p.Y)
	}
	// Clamp before converting: a point far off the image must not
	// overflow an int.
	lim := func(v float64) int { return int(math.Max(-1e6, math.Min(1e6, v))) }
	box := image.Rect(lim(math.Floor(minX)), lim(math.Floor(minY)), lim(math.Ceil(maxX))+1, lim(math.Ceil(maxY))+1)
	clip := box.Intersect(bounds)
	if clip.Empty() {
		return clip
	}
	c.r.Reset(clip.Dx(), clip.Dy())
	o := pt{float64(clip.Min.X), float64(clip.Min.Y)}
	c.r.MoveTo(float32(poly[0].X-o.X), float32(poly[0].Y-o.Y))
	for _, p := range poly[1:] {
		c.r.LineTo(float32(p.X-o.X), float32(p.Y-o.Y))
	}
	c.r.ClosePath()
	return clip
}

// fill paints a closed polygon; a colour with alpha below 0xff is laid
// over what is there.
func (c *canvas) fill(poly []pt, col color.Color) {
	if clip := c.path(poly, c.bounds()); !clip.Empty() {
		c.r.Draw(c.img, clip, image.NewUniform(col), image.Point{})
	}
}

// hatch paints diagonal lines of col, every period pixels and width
// pixels wide, inside a closed polygon: the lines are fixed to the image,
// so neighbouring areas' hatches meet.
func (c *canvas) hatch(poly []pt, col color.RGBA, period, width int) {
	clip := c.path(poly, c.bounds())
	if clip.Empty() {
		return
	}
	mask := image.NewAlpha(image.Rect(0, 0, clip.Dx(), clip.Dy()))
	c.r.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		for x := clip.Min.X; x < clip.Max.X; x++ {
			if (x+y)%period >= width {
				continue
			}
			a := uint32(mask.Pix[(y-clip.Min.Y)*mask.Stride+x-clip.Min.X])
			if a == 0 {
				continue
			}
			i := c.img.PixOffset(x, y)
			p := c.img.Pix[i : i+3 : i+3]
			p[0] = uint8((uint32(p[0])*(255-a) + uint32(col.R)*a) / 255)
			p[1] = uint8((uint32(p[1])*(255-a) + uint32(col.G)*a) / 255)
			p[2] = uint8((uint32(p[2])*(255-a) + uint32(col.B)*a) / 255)
		}
	}
}

// line strokes a segment of the given width with square ends.
func (c *canvas) line(a, b pt, width float64, col color.Color) {
	d := b.sub(a)
	if d.len() == 0 {
		return
	}
	off := d.norm().perp().scale(width / 2)
	c.fill([]pt{a.add(off), b.add(off), b.sub(off), a.sub(off)}, col)
}

// polyline strokes connected segments with round joins.
func (c *canvas) polyline(ps []pt, width float64, col color.Color) {
	for i := 1; i < len(ps); i++ {
		c.line(ps[i-1], ps[i], width, col)
	}
	for i := 1; i+1 < len(ps); i++ {
		c.disc(ps[i], width/2, col)
	}
}

// dashed strokes connected segments in dashes of length dash with gaps
// of length gap, the pattern running on round the corners.
func (c *canvas) dashed(ps []pt, width, dash, gap float64, col color.Color) {
	on, left := true, dash // in a dash or a gap, and how much of it is left
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		n := b.sub(a).len()
		for t := 0.0; t < n; {
			step := math.Min(left, n-t)
			if on {
				c.line(a.lerp(b, t/n), a.lerp(b, (t+step)/n), width, col)
			}
			t += step
			if left -= step; left <= 1e-9 {
				on = !on
				left = dash
				if !on {
					left = gap
				}
			}
		}
	}
}

// arrowhead fills a triangle with its point at tip, pointing along dir,
// length long and width wide at its base.
func (c *canvas) arrowhead(tip, dir pt, long, wide float64, col color.Color) {
	d := dir.norm()
	if d.len() == 0 {
		return
	}
	base := tip.sub(d.scale(long))
	side := d.perp().scale(wide / 2)
	c.fill([]pt{tip, base.add(side), base.sub(side)}, col)
}

// circlePoints are n points round a circle.
func circlePoints(p pt, r float64, n int) []pt {
	ps := make([]pt, n)
	for i := range ps {
		a := 2 * math.Pi * float64(i) / float64(n)
		ps[i] = pt{p.X + r*math.Cos(a), p.Y + r*math.Sin(a)}
	}
	return ps
}

// disc fills a circle.
func (c *canvas) disc(p pt, r float64, col color.Color) {
	c.fill(circlePoints(p, r, 20), col)
}

// ring strokes a circle of radius r, in dashes when dash > 0.
func (c *canvas) ring(p pt, r, width, dash float64, col color.Color) {
	n := max(24, min(720, int(r/3)))
	ps := circlePoints(p, r, n)
	ps = append(ps, ps[0])
	if dash > 0 {
		c.dashed(ps, width, dash, dash*0.6, col)
		return
	}
	c.polyline(ps, width, col)
}

// outline strokes a closed polygon with round corners.
func (c *canvas) outline(poly []pt, width float64, col color.Color) {
	if len(poly) == 0 {
		return
	}
	c.polyline(append(append([]pt{}, poly...), poly[0], poly[min(1, len(poly)-1)]), width, col)
}

// rect fills an axis-aligned rectangle of whole pixels.
func (c *canvas) rect(r image.Rectangle, col color.Color) {
	draw.Draw(c.img, r, image.NewUniform(col), image.Point{}, draw.Over)
}

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

// alpha is col at opacity a (0-255), premultiplied as color.RGBA wants.
func alpha(col color.RGBA, a uint8) color.RGBA {
	k := uint32(a)
	return color.RGBA{uint8(uint32(col.R) * k / 255), uint8(uint32(col.G) * k / 255), uint8(uint32(col.B) * k / 255), a}
}

// paletted turns the picture into at most 256 colours for a smaller
// PNG: the 256 commonest colours (the flat fills, the lines, the text)
// are kept exactly, each rarer one (an anti-aliased edge pixel) becomes
// the nearest of them. Ties go to the smaller colour value, so the same
// picture gives the same palette.
func paletted(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	count := map[uint32]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		var last uint32 = 1 << 31
		n := 0
		for i := 0; i < len(row); i += 4 {
			c := uint32(row[i])<<16 | uint32(row[i+1])<<8 | uint32(row[i+2])
			if c != last {
				if n > 0 {
					count[last] += n
				}
				last, n = c, 0
			}
			n++
		}
		if n > 0 {
			count[last] += n
		}
	}
	cols := make([]uint32, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if count[cols[i]] != count[cols[j]] {
			return count[cols[i]] > count[cols[j]]
		}
		return cols[i] < cols[j]
	})
	if len(cols) > 256 {
		cols = cols[:256]
	}
	pal := make(color.Palette, len(cols))
	index := make(map[uint32]uint8, len(count))
	for i, c := range cols {
		pal[i] = color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff}
		index[c] = uint8(i)
	}
	nearest := func(c uint32) uint8 {
		r, g, bl := int(c>>16&0xff), int(c>>8&0xff), int(c&0xff)
		best, bestD := 0, math.MaxInt
		for i, p := range cols {
			dr, dg, db := r-int(p>>16&0xff), g-int(p>>8&0xff), bl-int(p&0xff)
			// Weighted as the eye sees green most, blue least.
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		return uint8(best)
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		last, k := uint32(1<<31), uint8(0) // a run of one colour looks it up once
		for i := 0; i < len(row); i += 4 {
			c := uint32(row[i])<<16 | uint32(row[i+1])<<8 | uint32(row[i+2])
			if c != last {
				var ok bool
				if k, ok = index[c]; !ok {
					k = nearest(c)
					index[c] = k
				}
				last = c
			}
			dst[i/4] = k
		}
	}
	return out
}
