package mapimg

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"slices"
	"testing"
)

// quantizeWith takes the runs of the legend's copied lines from their
// bands and gives the palette and indices of reading every pixel: on a
// mail's map, and on bands of noise copied over noise: two overlapping
// by a row (which is neither band's alone), one as wide as the image,
// one empty, one across the middle row (where the halves that quantize
// reads on two cores meet) and the last cut short by the image's edge.
func TestBandRunsAsRead(t *testing.T) {
	sc, before, after, events := busy(t)
	opt := ForMail(Marks(sc, before, after, events))
	opt.defaults()
	p, err := plan(sc, after, opt)
	if err != nil {
		t.Fatal(err)
	}
	paint(sc, after, opt, p, nil).done() // the lines drawn and kept
	c := paint(sc, after, opt, p, nil)
	c.done()
	if len(c.legend) < 10 {
		t.Fatalf("%d lines copied from the cache, want the legend's", len(c.legend))
	}
	sameQuantized(t, "mail map", c.img, c.legend)

	r := rand.New(rand.NewPCG(1, 2))
	colours := []color.RGBA{{0xfb, 0xf7, 0xea, 0xff}, {0x20, 0x20, 0x20, 0xff}, {0xc0, 0x30, 0x30, 0xff}, {0x90, 0x90, 0x90, 0xff}}
	pick := func(int, int) color.RGBA { return colours[r.IntN(len(colours))] }
	const w, h = 600, 240
	img := opaque(w, h, pick)
	nc := &canvas{img: img}
	for _, bb := range []struct{ top, w, h int }{{10, 120, 20}, {29, 600, 20}, {49, 0, 5}, {110, 150, 30}, {225, 100, 30}} {
		bi := opaque(max(bb.w, 1), bb.h, pick)
		b := &band{w: bb.w, h: bb.h, pix: bi.Pix[:4*bb.w*bb.h], fits: true}
		if bb.w == 0 {
			b.pix = nil
		}
		b.runs = readBandRuns(b)
		for row := range min(bb.h, h-bb.top) { // paper to the right, as drawLegend leaves it
			for x := bb.w; x < w; x++ {
				img.SetRGBA(x, bb.top+row, colours[0])
			}
		}
		if bb.top+bb.h > h {
			b.h = h - bb.top // as placed on the image: copyTo copies the rows there are
		}
		b.copyTo(nc, bb.top)
	}
	if len(nc.legend) != 5 || nc.legend[0].to != 29 || nc.legend[1].from != 30 {
		t.Fatalf("placed %+v: want the row both bands reach left to neither", nc.legend)
	}
	sameQuantized(t, "noise", img, nc.legend)
}

func sameQuantized(t *testing.T, name string, img *image.RGBA, placed []placedBand) {
	t.Helper()
	want, ok := quantize(img, nil)
	got, ok2 := quantizeWith(img, nil, placed)
	if !ok || !ok2 {
		t.Fatalf("%s: not quantized", name)
	}
	if !slices.Equal(got.Palette, want.Palette) || !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("%s: the bands' runs give another palette or other indices than reading every pixel", name)
	}
}

// On a canvas drawn for indices the legend's lines are placed, not
// copied: the rows no line holds alone (paper, and the row two lines
// reach, the later over the earlier) are painted as copyTo leaves them,
// and legendAll then makes the whole picture copyTo makes.
func TestLinesPlacedAsCopied(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	colours := []color.RGBA{{0x20, 0x20, 0x20, 0xff}, {0xc0, 0x30, 0x30, 0xff}, {0x90, 0x90, 0x90, 0xff}}
	pick := func(int, int) color.RGBA { return colours[r.IntN(len(colours))] }
	const w, h = 300, 120
	var bs []*band
	tops := []int{10, 29, 49, 80}
	for _, bw := range []int{120, 200, 60, 300} {
		bi := opaque(bw, 20, pick)
		bs = append(bs, &band{w: bw, h: 20, pix: bi.Pix, fits: true})
	}
	garbage := opaque(w, h, pick)
	eager := &canvas{img: opaque(w, h, pick)}
	eager.rect(0, 5, w, 110, paper)
	for i, b := range bs {
		b.copyTo(eager, tops[i])
	}
	lazy := &canvas{img: garbage, indexed: true}
	for i, b := range bs {
		b.placeOn(lazy, tops[i])
	}
	lazy.paperAround(5, 110)
	lazy.bandsOverlapping(lazy.legend)
	if !slices.Equal(lazy.legend, eager.legend) {
		t.Fatalf("placed %+v, copied %+v", lazy.legend, eager.legend)
	}
	mine := func(y int) bool {
		return slices.ContainsFunc(lazy.legend, func(p placedBand) bool { return p.from <= y && y < p.to })
	}
	for y := 5; y < 110; y++ {
		if !mine(y) && !bytes.Equal(lazy.img.Pix[y*lazy.img.Stride:(y+1)*lazy.img.Stride], eager.img.Pix[y*eager.img.Stride:(y+1)*eager.img.Stride]) {
			t.Errorf("row %d, no line's alone, is not as copied", y)
		}
	}
	lazy.legendAll()
	if !bytes.Equal(lazy.img.Pix[5*lazy.img.Stride:110*lazy.img.Stride], eager.img.Pix[5*eager.img.Stride:110*eager.img.Stride]) {
		t.Error("the lines placed, then copied, are not the lines copied")
	}
}
