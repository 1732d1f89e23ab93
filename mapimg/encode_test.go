package mapimg

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/adler32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"
)

// encodePNG's output decodes to the very pixels it was given, whatever
// they are: a map, noise (all literals), one pixel, rows too long for
// the row above to be in deflate's window, a sub-image, transparency.
func TestEncodePNG(t *testing.T) {
	sc, before, after, events := busy(t)
	mail, err := Render(sc, after, ForMail(Marks(sc, before, after, events)))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	noise := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for i := range noise.Pix {
		if i%4 == 3 {
			noise.Pix[i] = 0xff
		} else if r.IntN(4) == 0 {
			noise.Pix[i] = byte(r.IntN(256))
		}
	}
	wide := image.NewRGBA(image.Rect(0, 0, 11000, 30))
	for x := range 11000 {
		for y := range 30 {
			wide.Set(x, y, color.RGBA{byte(x / 7), byte(y), byte(x % 5 * 40), 0xff})
		}
	}
	glass := image.NewRGBA(image.Rect(0, 0, 20, 10))
	glass.Set(3, 4, color.RGBA{200, 10, 10, 0xff})
	// A map with a hole in its last strip (strips), which the others,
	// compressed at once, do not see.
	holed := image.NewRGBA(mail.Bounds())
	copy(holed.Pix, mail.Pix)
	holed.Set(5, mail.Bounds().Dy()-2, color.RGBA{})
	if strips(mail.Bounds().Dx(), mail.Bounds().Dy()) < 2 || strips(11000, 30) < 2 {
		t.Fatal("the test's images are no longer cut into strips")
	}
	for name, img := range map[string]*image.RGBA{
		"mail": mail, "noise": noise, "wide": wide, "transparent": glass, "transparent below": holed,
		"one pixel": image.NewRGBA(image.Rect(0, 0, 1, 1)),
		"sub-image": mail.SubImage(image.Rect(100, 200, 400, 333)).(*image.RGBA),
	} {
		if name == "one pixel" {
			img.Pix[3] = 0xff
		}
		b, err := encodePNG(img, 0, false)
		if err != nil {
			t.Fatal(name, err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Bounds().Size() != img.Bounds().Size() {
			t.Fatalf("%s: size %v, want %v", name, got.Bounds(), img.Bounds())
		}
		want := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
		draw.Draw(want, want.Bounds(), img, img.Bounds().Min, draw.Src)
		if n := differing(got, want, 0); n > 0 {
			t.Errorf("%s: %d pixels differ", name, n)
		}
		if name != "transparent" && name != "transparent below" { // the stream and its checksum, read to the end
			idat := b[33+8 : len(b)-12-4]
			zr, err := zlib.NewReader(bytes.NewReader(idat))
			if err == nil {
				_, err = io.ReadAll(zr)
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		if again, _ := encodePNG(img, 0, false); !bytes.Equal(again, b) {
			t.Errorf("%s: two encodings differ", name)
		}
	}
}

func BenchmarkEncodePNG(b *testing.B) {
	sc, before, after, events := busy(b)
	img, _ := Render(sc, after, ForMail(Marks(sc, before, after, events)))
	b.Run("custom", func(b *testing.B) {
		var n int
		for b.Loop() {
			p, _ := encodePNG(img, 0, false)
			n = len(p)
		}
		b.ReportMetric(float64(n), "bytes")
	})
	b.Run("std", func(b *testing.B) {
		var n int
		for b.Loop() {
			p, _ := stdPNG(img)
			n = len(p)
		}
		b.ReportMetric(float64(n), "bytes")
	})
}

// FuzzEncodePNG: whatever opaque picture it is given, encodePNG writes a
// PNG that image/png decodes to the same pixels. The fuzzer picks the
// size and the pixels (repeated, so that runs and rows above are common,
// as on a map).
func FuzzEncodePNG(f *testing.F) {
	f.Add(uint8(3), uint8(2), uint8(0), []byte{1, 2, 3})
	f.Add(uint8(40), uint8(7), uint8(5), []byte{0xff, 0, 0, 0xff, 0, 0, 9})
	f.Add(uint8(255), uint8(1), uint8(17), []byte{7})
	f.Fuzz(func(t *testing.T, w, h, period uint8, data []byte) {
		if w == 0 || h == 0 || len(data) == 0 {
			return
		}
		img := image.NewRGBA(image.Rect(0, 0, int(w)*3, int(h)))
		for i := range img.Pix {
			if i%4 == 3 {
				img.Pix[i] = 0xff
			} else {
				img.Pix[i] = data[(i/4*3+i%4)%len(data)]
			}
		}
		b, err := encodePNG(img, int(period), false) // the period of a map's hexes, in pixels
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%dx%d, period %d: %v", img.Bounds().Dx(), h, period, err)
		}
		if n := differing(got, img, 0); n > 0 {
			t.Fatalf("%dx%d: %d pixels differ", img.Bounds().Dx(), h, n)
		}
	})
}

// adler sums RGBA rows as hash/adler32 sums the stream's bytes (a filter
// byte, then RGB), for rows of any width, long ones included.
func TestAdlerRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, w := range []int{1, 2, 3, 7, 4096, 4097, 9000, 30000} {
		for _, flat := range []bool{false, true} {
			a := adler{s1: 1}
			var stream []byte
			for range 3 {
				row := make([]byte, 4*w)
				for i := range row {
					if flat {
						row[i] = 0xff
					} else {
						row[i] = byte(r.IntN(256))
					}
				}
				a.row(row)
				stream = append(stream, 0)
				for i := 0; i < len(row); i += 4 {
					stream = append(stream, row[i:i+3]...)
				}
			}
			if got, want := a.sum(), adler32.Checksum(stream); got != want {
				t.Errorf("width %d, flat %v: %08x, want %08x", w, flat, got, want)
			}
		}
	}
}

// join sums two parts of a stream as hash/adler32 sums the whole, for
// parts of any length, long ones included.
func TestAdlerJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, w := range []int{1, 5, 4096, 70000} {
		var a, b adler = adler{s1: 1}, adler{s1: 1}
		var stream []byte
		for i, part := range []*adler{&a, &b} {
			for range 2 + i {
				row := make([]byte, 4*w)
				for i := range row {
					row[i] = byte(r.IntN(256))
				}
				part.row(row)
				stream = append(stream, 0)
				for i := 0; i < len(row); i += 4 {
					stream = append(stream, row[i:i+3]...)
				}
			}
		}
		if got, want := a.join(b, uint64(3*(1+3*w))).sum(), adler32.Checksum(stream); got != want {
			t.Errorf("width %d: %08x, want %08x", w, got, want)
		}
	}
}

// sameRun and eqRun find a run's end wherever it falls in their words,
// for runs of every length up to past their 32-byte steps, followed by
// nothing or by a differing pixel and more, of RGBA pixels and of
// palette indices.
func TestRuns(t *testing.T) {
	for _, c := range [][]byte{{9, 8, 7, 0xff}, {5}} {
		size := len(c)
		word := bytes.Repeat(c, 8/size)
		for n := range 40 {
			for after := range 3 {
				p, q := bytes.Repeat(c, n+after), bytes.Repeat(c, n+after)
				if after > 0 {
					p[size*n+size/2]++
				}
				if got := sameRun(p, binary.LittleEndian.Uint64(word), size); got != n {
					t.Errorf("size %d: sameRun of %d pixels then %d: %d", size, n, after, got)
				}
				if got := eqRun(p, q, size); got != n {
					t.Errorf("size %d: eqRun of %d pixels then %d: %d", size, n, after, got)
				}
			}
		}
	}
}
