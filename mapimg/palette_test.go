package mapimg

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"
)

// refQuantize is quantize written the obvious way: a Go map of every
// pixel's colour, all of them sorted, each pixel's nearest entry found
// by trying them all.
func refQuantize(img *image.RGBA) (color.Palette, []byte) {
	b := img.Bounds()
	count := map[uint32]int{}
	var px []uint32
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := binary.LittleEndian.Uint32(img.Pix[img.PixOffset(x, y):])
			count[c]++
			px = append(px, c)
		}
	}
	var cs []uint32
	for c := range count {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b uint32) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return int(int64(a) - int64(b))
	})
	cs = cs[:min(len(cs), 256)]
	var pal color.Palette
	for _, c := range cs {
		pal = append(pal, color.RGBA{byte(c), byte(c >> 8), byte(c >> 16), 0xff})
	}
	idx := make([]byte, len(px))
	for i, c := range px {
		best, bi := 1<<30, 0
		for j, p := range cs {
			if d := distance2(p, c); d < best {
				best, bi = d, j
			}
		}
		idx[i] = byte(bi)
	}
	return pal, idx
}

// checkQuantized: quantize gives refQuantize's palette and indices, and
// the paletted PNG decodes to them exactly; with 256 colours or fewer,
// to the very pixels of the image.
func checkQuantized(t *testing.T, name string, img *image.RGBA, period int) {
	t.Helper()
	p, ok := quantize(img, nil)
	if !ok {
		t.Fatalf("%s: not quantized", name)
	}
	pal, idx := refQuantize(img)
	if !slices.Equal(p.Palette, pal) {
		t.Fatalf("%s: palette of %d colours, want %d: %v, want %v", name, len(p.Palette), len(pal), p.Palette[:min(len(p.Palette), 8)], pal[:min(len(pal), 8)])
	}
	if !bytes.Equal(p.Pix, idx) {
		t.Fatalf("%s: not the reference's indices", name)
	}
	b, err := encodePNG(img, period, true)
	if err != nil {
		t.Fatal(name, err)
	}
	got, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	gp, ok := got.(*image.Paletted)
	if !ok {
		t.Fatalf("%s: decoded as %T, not paletted", name, got)
	}
	if !slices.Equal(gp.Palette, p.Palette) || !bytes.Equal(gp.Pix, p.Pix) || gp.Rect != p.Rect {
		t.Fatalf("%s: the PNG does not decode to the quantized image", name)
	}
	if len(distinct(img)) <= 256 { // kept exactly
		b := img.Bounds()
		for y := range b.Dy() {
			for x := range b.Dx() {
				if g, w := color.RGBAModel.Convert(got.At(x, y)), img.At(b.Min.X+x, b.Min.Y+y); g != w {
					t.Fatalf("%s: %d colours, yet (%d,%d) is %v, not %v", name, len(pal), x, y, g, w)
				}
			}
		}
	}
	if again, _ := encodePNG(img, period, true); !bytes.Equal(again, b) {
		t.Errorf("%s: two encodings differ", name)
	}
}

func distinct(img *image.RGBA) map[uint32]bool {
	m := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			m[binary.LittleEndian.Uint32(img.Pix[img.PixOffset(x, y):])] = true
		}
	}
	return m
}

// opaque is an image of w×h pixels whose colour is colour(x, y).
func opaque(w, h int, colour func(x, y int) color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, colour(x, y))
		}
	}
	return img
}

// The quantizer on odd images: one pixel, one colour, exactly 256
// colours (kept), 257 (the rarest moves to its nearest, the earlier of
// two as near), a map, noise, rows long enough to grow the table, a
// sub-image; each checked against the reference and through the PNG.
func TestQuantize(t *testing.T) {
	sc, before, after, events := busy(t)
	opt := ForMail(Marks(sc, before, after, events))
	mail, err := Render(sc, after, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	grey := func(v int) color.RGBA { return color.RGBA{byte(v), byte(v), byte(v), 0xff} }
	// 257 colours, two pixels each (the 256 greys, and red) but for
	// grey 1, whose second pixel is grey 0: grey 1 is the rarest, out of
	// the palette, and as near to greys 0 and 2: it goes to 0, the
	// earlier entry.
	rarest := opaque(257, 2, func(x, y int) color.RGBA {
		switch {
		case x == 256:
			return color.RGBA{0xff, 0, 0, 0xff}
		case y == 1 && x == 1:
			return grey(x - 1)
		}
		return grey(x)
	})
	for _, tc := range []struct {
		name   string
		img    *image.RGBA
		period int
		want   int // colours in the palette
	}{
		{"one pixel", opaque(1, 1, func(x, y int) color.RGBA { return color.RGBA{1, 2, 3, 0xff} }), 0, 1},
		{"one colour", opaque(70, 9, func(x, y int) color.RGBA { return grey(200) }), 0, 1},
		{"black", opaque(5, 5, func(x, y int) color.RGBA { return grey(0) }), 0, 1},
		{"256 colours", opaque(256, 3, func(x, y int) color.RGBA { return color.RGBA{byte(x), byte(x * 7), byte(y), 0xff} }), 0, 256},
		{"257 colours", rarest, 0, 256},
		{"noise", opaque(300, 40, func(x, y int) color.RGBA {
			return color.RGBA{byte(r.IntN(64) * 4), byte(r.IntN(8) * 32), byte(r.IntN(4) * 64), 0xff}
		}), 7, 256},
		{"many colours", opaque(600, 80, func(x, y int) color.RGBA { return color.RGBA{byte(x), byte(y * 3), byte(x ^ y), 0xff} }), 0, 256},
		{"mail", mail, period(place(t, sc, after, opt)), 256},
		{"sub-image", mail.SubImage(image.Rect(100, 200, 400, 333)).(*image.RGBA), 0, 256},
	} {
		checkQuantized(t, tc.name, tc.img, tc.period)
		if p, _ := quantize(tc.img, nil); len(p.Palette) != tc.want {
			t.Errorf("%s: %d colours, want %d", tc.name, len(p.Palette), tc.want)
		}
	}
	if p, _ := quantize(rarest, nil); p.Pix[1] != 0 {
		t.Errorf("grey 1, as near to greys 0 and 2: index %d (%v), want 0 (%v)", p.Pix[1], p.Palette[p.Pix[1]], p.Palette[0])
	}
}

// An image with any transparency is not quantized: its PNG is the
// full-colour one, with every pixel as it was.
func TestQuantizeTransparent(t *testing.T) {
	for name, img := range map[string]*image.RGBA{
		"first pixel": opaque(40, 30, func(x, y int) color.RGBA {
			if x+y == 0 {
				return color.RGBA{}
			}
			return color.RGBA{9, 9, 9, 0xff}
		}),
		"last pixel": opaque(40, 30, func(x, y int) color.RGBA { return color.RGBA{byte(x), 9, 9, byte(0xff - x/39*y/29)} }),
		"all":        image.NewRGBA(image.Rect(0, 0, 3, 3)),
	} {
		if _, ok := quantize(img, nil); ok {
			t.Errorf("%s: quantized", name)
		}
		b, err := encodePNG(img, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got.(*image.Paletted); ok {
			t.Errorf("%s: paletted", name)
		}
		for y := range 30 {
			for x := range 40 {
				if x < img.Bounds().Dx() && y < img.Bounds().Dy() && color.NRGBAModel.Convert(got.At(x, y)) != color.NRGBAModel.Convert(img.At(x, y)) {
					t.Fatalf("%s: (%d,%d) is %v, want %v", name, x, y, got.At(x, y), img.At(x, y))
				}
			}
		}
	}
}

// A mail's maps (the crop of a block, an army's area) are paletted PNGs
// whose pixels are near Render's: no channel more than maxShift away,
// and nine in ten exactly; the whole map without the option stays RGB.
func TestMailMapsPaletted(t *testing.T) {
	const maxShift = 64
	sc, before, after, events := busy(t)
	for name, opt := range map[string]Options{
		"mail": ForMail(Marks(sc, before, after, events)),
		"army": ForArmy(sc, after, 1),
	} {
		want, err := Render(sc, after, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := decoded(t, sc, after, opt)
		if _, ok := got.(*image.Paletted); !ok {
			t.Fatalf("%s: decoded as %T, not paletted", name, got)
		}
		far, moved := differing(got, want, maxShift), differing(got, want, 0)
		if far > 0 {
			t.Errorf("%s: %d pixels more than %d from Render's", name, far, maxShift)
		}
		if n := want.Bounds().Dx() * want.Bounds().Dy(); moved > n/10 {
			t.Errorf("%s: %d of %d pixels not Render's", name, moved, n)
		}
		t.Logf("%s: %d pixels of %d moved", name, moved, want.Bounds().Dx()*want.Bounds().Dy())
	}
	if img := decoded(t, sc, after, Options{}); img.ColorModel() != color.RGBAModel {
		t.Errorf("the whole map: %T", img)
	}
}

// FuzzQuantize: whatever opaque picture it is given, quantize agrees
// with refQuantize and the paletted PNG decodes to its indices. The
// fuzzer picks the size and the colours, repeated as on a map; few or
// many, as the bits of each byte allow.
func FuzzQuantize(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint8(0), []byte{1, 2, 3})
	f.Add(uint8(40), uint8(7), uint8(5), []byte{0xff, 0, 0, 0xff, 0, 0, 9})
	f.Add(uint8(255), uint8(9), uint8(17), []byte{7, 200, 3, 1, 99, 4, 250, 251, 252, 253, 254})
	f.Fuzz(func(t *testing.T, w, h, period uint8, data []byte) {
		if w == 0 || h == 0 || len(data) == 0 {
			return
		}
		img := image.NewRGBA(image.Rect(0, 0, int(w), int(h)))
		for i := range img.Pix {
			if i%4 == 3 {
				img.Pix[i] = 0xff
			} else {
				img.Pix[i] = data[(i/4*3+i%4)%len(data)] * byte(i/4%5+1)
			}
		}
		checkQuantized(t, "fuzz", img, int(period))
	})
}

// adler.bytes sums rows of palette indices as hash/adler32 sums the
// stream (a filter byte, then the row), for rows of any width.
func TestAdlerBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{1, 7, 8, 9, 4096, 40000, 70000} {
		for _, flat := range []bool{false, true} {
			a := adler{s1: 1}
			var stream []byte
			for range 3 {
				row := make([]byte, w)
				for i := range row {
					row[i] = 0xff
					if !flat {
						row[i] = byte(r.IntN(256))
					}
				}
				a.bytes(row)
				stream = append(append(stream, 0), row...)
			}
			if got, want := a.sum(), adler32.Checksum(stream); got != want {
				t.Errorf("width %d, flat %v: %08x, want %08x", w, flat, got, want)
			}
		}
	}
}

// BenchmarkQuantize is the quantizer alone on the busy block's crop.
func BenchmarkQuantize(b *testing.B) {
	sc, before, after, events := busy(b)
	img, err := Render(sc, after, ForMail(Marks(sc, before, after, events)))
	if err != nil {
		b.Fatal(err)
	}
	pix := make([]byte, len(img.Pix)/4)
	c0 := processCPU()
	for b.Loop() {
		quantize(img, pix)
	}
	reportCPU(b, c0)
}
