package mapimg

import (
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

// The PNGs' very bytes, not only their pixels, as commit b0af0b4 wrote
// them (SHA-256 of each), the maps' as drawn since shapes are laid from
// a coverage of bytes (canvas.cover), the mails' in their battle's
// palette (fixedpalette.go), the crops' since the hex numbers are drawn
// with the ground (terrain.go): the passes that make the encoder or the
// quantizer cheaper must not change a byte. The maps of the mails (a
// palette) and of herald render (RGB), and made-up pictures of many
// literals that fill several deflate blocks a strip.
func TestPNGBytesAsRecorded(t *testing.T) {
	want := map[string]string{
		"mail crop":              "b247ea3e109c4ca26b12e21b3d4d3e57f3187866a508c8168c2f8a2e95a0aa19",
		"mail whole":             "5434ffc2ecbb570c99d70eb391d2505c662cc3157c3b13fbef501a88f0957827",
		"crop RGB":               "98bbb04303f7beea743dc8f4ccd3ca7557e89b6fa936e0afd19719f8ef85d76d",
		"noise, 200 colours":     "3d189169b802b08df73d4561961ad1cedfdc8d63c368d7e44e90916bd5c1d747",
		"noise, 3000 colours":    "38d8be6a10020340f62ac6ab3fa19403175f26eced54fd102a277a07c7076698",
		"noise RGB":              "b3b16d6713a7ff19efd05ae154ab2fedb339ced9abe5c90d0fcbde8f9660bc0e",
		"pairs, 2 of 40 colours": "6f87eebd3fe8eb54396124728dfdae9e0b1ffd2cbff97071d4a0ba790aa72e6e",
	}
	sc, before, after, events := busy(t)
	crecySc, st := crecy(t)
	mail := ForMail(Marks(sc, before, after, events))
	rgbCrop := mail
	rgbCrop.Palette = false
	maps := map[string]func() ([]byte, error){
		"mail crop":  func() ([]byte, error) { return PNG(sc, after, mail) },
		"mail whole": func() ([]byte, error) { return PNG(crecySc, st, ForMail(Marks(crecySc, st, st, nil))) },
		"crop RGB":   func() ([]byte, error) { return PNG(sc, after, rgbCrop) },
	}
	r := rand.New(rand.NewPCG(17, 27))
	noise := func(w, h, colours, every int) *image.RGBA {
		pal := make([]color.RGBA, colours)
		for i := range pal {
			pal[i] = color.RGBA{byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)), 0xff}
		}
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		c := pal[0]
		for y := range h {
			for x := range w {
				if x%every == 0 {
					c = pal[r.IntN(colours)]
				}
				img.SetRGBA(x, y, c)
			}
		}
		return img
	}
	pics := map[string]func() ([]byte, error){
		"noise, 200 colours":     func() ([]byte, error) { return encodePNG(noise(900, 700, 200, 1), 0, true) },
		"noise, 3000 colours":    func() ([]byte, error) { return encodePNG(noise(900, 700, 3000, 1), 0, true) },
		"noise RGB":              func() ([]byte, error) { return encodePNG(noise(900, 700, 3000, 1), 0, false) },
		"pairs, 2 of 40 colours": func() ([]byte, error) { return encodePNG(noise(1000, 600, 40, 2), 7, true) },
	}
	for name, f := range maps {
		pics[name] = f
	}
	for _, name := range []string{"mail crop", "mail whole", "crop RGB", "noise, 200 colours", "noise, 3000 colours", "noise RGB", "pairs, 2 of 40 colours"} {
		b, err := pics[name]()
		if err != nil {
			t.Fatal(name, err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want[name] {
			t.Errorf("%s: %d bytes, SHA-256 %s, want %s", name, len(b), got, want[name])
		}
	}
}
