package tabletop

import (
	"image"
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts, parsed once. Faces are made per rendering: a face is not
// safe for concurrent use.
var (
	fontsOnce             sync.Once
	regular, medium, bold *opentype.Font
	fontsErr              error
)

func loadFonts() error {
	fontsOnce.Do(func() {
		for _, f := range []struct {
			dst **opentype.Font
			ttf []byte
		}{{&regular, goregular.TTF}, {&medium, gomedium.TTF}, {&bold, gobold.TTF}} {
			if *f.dst, fontsErr = opentype.Parse(f.ttf); fontsErr != nil {
				return
			}
		}
	})
	return fontsErr
}

// faces are the sizes of text one picture uses, in pixels.
type faces struct {
	title, label, status, area, markLabel, ruler, legend font.Face
}

func newFaces() (*faces, error) {
	if err := loadFonts(); err != nil {
		return nil, err
	}
	var fs faces
	for _, x := range []struct {
		dst *font.Face
		f   *opentype.Font
		px  float64
	}{
		{&fs.title, bold, 22},
		{&fs.label, bold, 13},
		{&fs.status, medium, 11},
		{&fs.area, medium, 13},
		{&fs.markLabel, bold, 12},
		{&fs.ruler, regular, 11},
		{&fs.legend, regular, 14},
	} {
		face, err := opentype.NewFace(x.f, &opentype.FaceOptions{Size: x.px, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		*x.dst = face
	}
	return &fs, nil
}

func textWidth(face font.Face, s string) float64 { return float64(font.MeasureString(face, s)) / 64 }

// textAt draws s with its baseline starting at p.
func (c *canvas) textAt(face font.Face, s string, p pt, col color.Color) {
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: face,
		Dot: fixed.Point26_6{X: fixed.Int26_6(p.X * 64), Y: fixed.Int26_6(p.Y * 64)}}
	d.DrawString(s)
}

// centred is where s starts for its centre to be at p, horizontally and
// by the cap height.
func centred(face font.Face, s string, p pt) pt {
	capH := float64(face.Metrics().CapHeight) / 64
	return pt{p.X - textWidth(face, s)/2, p.Y + capH/2}
}

// haloText draws s from baseline p on a halo of halo's colour two
// pixels wide, so that it reads over anything.
func (c *canvas) haloText(face font.Face, s string, p pt, col, halo color.Color) {
	for _, o := range [...]pt{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}, {-2, 0}, {2, 0}, {0, -2}, {0, 2}} {
		c.textAt(face, s, p.add(o), halo)
	}
	c.textAt(face, s, p, col)
}
