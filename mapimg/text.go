package mapimg

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	gomediumttf "golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts, parsed once. Faces are made per rendering: a face is not
// safe for concurrent use.
var (
	fontsOnce               sync.Once
	regular, gomedium, bold *opentype.Font
	fontsErr                error
)

func fonts() error {
	fontsOnce.Do(func() {
		for _, f := range []struct {
			dst **opentype.Font
			ttf []byte
		}{{&regular, goregular.TTF}, {&gomedium, gomediumttf.TTF}, {&bold, gobold.TTF}} {
			if *f.dst, fontsErr = opentype.Parse(f.ttf); fontsErr != nil {
				return
			}
		}
	})
	return fontsErr
}

// faces are the sizes of text one rendering uses.
type faces struct{ label, small, counter, counterBold, tag, legend, legendBold font.Face }

// newFaces makes the faces for hexes of hexSize pixels and a legend scaled
// by k (1: 15-pixel text).
func newFaces(hexSize, k float64) (*faces, error) {
	if err := fonts(); err != nil {
		return nil, err
	}
	mk := func(f *opentype.Font, px float64) (font.Face, error) {
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
		if err != nil || noGlyphCache {
			return face, err
		}
		return &cachedFace{Face: face, font: f, px: px}, nil
	}
	var fs faces
	var err error
	for _, x := range []struct {
		dst *font.Face
		f   *opentype.Font
		px  float64
	}{
		{&fs.label, regular, hexSize * 0.27},
		{&fs.small, gomedium, hexSize * 0.25},
		{&fs.counter, regular, hexSize * 0.30},
		{&fs.counterBold, bold, hexSize * 0.33},
		{&fs.tag, gomedium, math.Max(hexSize*0.32, 12)},
		{&fs.legend, regular, 15 * k},
		{&fs.legendBold, bold, 16 * k},
	} {
		if *x.dst, err = mk(x.f, x.px); err != nil {
			return nil, err
		}
	}
	return &fs, nil
}

// text draws s with its centre at p (horizontally and by the cap height).
func (c *canvas) text(face font.Face, s string, p pt, col color.Color) {
	w := font.MeasureString(face, s)
	m := face.Metrics()
	x := fixed.Int26_6(p.X*64) - w/2
	y := fixed.Int26_6(p.Y*64) + m.CapHeight/2
	c.lay(col)
	c.drawString(face, s, fixed.Point26_6{X: x, Y: y}, col)
}

// textLeft draws s with its baseline starting at p.
func (c *canvas) textLeft(face font.Face, s string, p pt, col color.Color) float64 {
	c.lay(col)
	return float64(c.drawString(face, s, fixed.Point26_6{X: fixed.Int26_6(p.X * 64), Y: fixed.Int26_6(p.Y * 64)}, col)) / 64
}

// drawString draws s from the dot as font.Drawer does, kerned glyph after
// glyph, each glyph's box touched first (groundtiles.go); it returns
// where the dot ends.
func (c *canvas) drawString(face font.Face, s string, dot fixed.Point26_6, col color.Color) fixed.Int26_6 {
	src := image.NewUniform(col)
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot.X += face.Kern(prev, r)
		}
		dr, mask, mp, advance, ok := face.Glyph(dot, r)
		if !ok {
			continue
		}
		c.touch(dr)
		draw.DrawMask(c.img, dr, src, image.Point{}, mask, mp, draw.Over)
		dot.X += advance
		prev = r
	}
	return dot.X
}

func textWidth(face font.Face, s string) float64 { return float64(font.MeasureString(face, s)) / 64 }

// The glyphs of a map are few and the same from one map to the next (the
// counters' ids and ratings, the hex numbers, the legend), and
// rasterising them was a fifth of a map's drawing. A cachedFace keeps
// each glyph's mask, by font, size, rune and the dot's sub-pixel offset
// — everything the mask depends on: opentype.Face.Glyph places the
// glyph's box by the dot's whole pixels and rasterises it by the
// fraction — so a glyph from the cache is the same pixels as one
// rasterised afresh (TestCachesSamePixels). The cache is shared by all
// renderings, safe for concurrent use, and emptied when it holds
// glyphCacheMax glyphs (a few hundred suffice for a battle's maps).
const glyphCacheMax = 1 << 14

// noGlyphCache turns the cache off (for tests: the uncached path).
var noGlyphCache bool

type glyphKey struct {
	font   *opentype.Font
	px     float64
	r      rune
	fx, fy fixed.Int26_6 // the dot's fraction of a pixel
}

type glyph struct {
	dr      image.Rectangle // at a dot of whole pixels (0, 0)
	mask    *image.Alpha
	advance fixed.Int26_6
	ok      bool
}

var glyphs = struct {
	sync.RWMutex
	m map[glyphKey]*glyph
}{m: map[glyphKey]*glyph{}}

// cachedFace is a face whose glyphs' masks come from the cache, and
// which remembers its glyphs' advances and kerning: a map measures and
// kerns its few dozen runes thousands of times (its labels, counters and
// legend), each a look-up in the font's tables. A face is made for one
// rendering, so those are its own, unlocked.
type cachedFace struct {
	font.Face
	font     *opentype.Font
	px       float64
	advances map[rune]advance
	kerns    map[[2]rune]fixed.Int26_6
}

type advance struct {
	w  fixed.Int26_6
	ok bool
}

func (f *cachedFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	a, ok := f.advances[r]
	if !ok {
		a.w, a.ok = f.Face.GlyphAdvance(r)
		if f.advances == nil {
			f.advances = map[rune]advance{}
		}
		f.advances[r] = a
	}
	return a.w, a.ok
}

func (f *cachedFace) Kern(r0, r1 rune) fixed.Int26_6 {
	k, ok := f.kerns[[2]rune{r0, r1}]
	if !ok {
		k = f.Face.Kern(r0, r1)
		if f.kerns == nil {
			f.kerns = map[[2]rune]fixed.Int26_6{}
		}
		f.kerns[[2]rune{r0, r1}] = k
	}
	return k
}

func (f *cachedFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	k := glyphKey{font: f.font, px: f.px, r: r, fx: dot.X & 63, fy: dot.Y & 63}
	whole := image.Pt(int(dot.X>>6), int(dot.Y>>6))
	glyphs.RLock()
	g := glyphs.m[k]
	glyphs.RUnlock()
	if g == nil {
		dr, mask, maskp, advance, ok := f.Face.Glyph(fixed.Point26_6{X: k.fx, Y: k.fy}, r)
		a, isAlpha := mask.(*image.Alpha)
		if !isAlpha || maskp != a.Rect.Min {
			return f.Face.Glyph(dot, r)
		}
		g = &glyph{dr: dr, advance: advance, ok: ok, mask: &image.Alpha{
			Pix: append([]uint8(nil), a.Pix...), Stride: a.Stride, Rect: a.Rect}}
		glyphs.Lock()
		if len(glyphs.m) >= glyphCacheMax {
			clear(glyphs.m)
		}
		glyphs.m[k] = g
		glyphs.Unlock()
	}
	return g.dr.Add(whole), g.mask, g.mask.Rect.Min, g.advance, g.ok
}
