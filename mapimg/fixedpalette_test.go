package mapimg

import (
	"fmt"
	"image"
	"math"
	"slices"
	"sync"
	"testing"

	"herald/engine"
)

// Every mail map of every shipped battle, at the opening, after random
// blocks and in the busy block, is written in its battle's palette
// (none falls back to a palette of its own), every colour it lays whole
// is in that palette within 4 of a channel's 255 (exactly, but for the
// blend of a line along a row, two rows high, that the references drew
// on another fraction of a pixel), and its pixels are on average as near
// their palette colour as the map's own palette would put them, near
// enough (within 0.5 of a channel's step more).
func TestBattlePaletteFitsEveryMap(t *testing.T) {
	if raceBuild {
		t.Skip("twenty times slower with the race detector; .ci/run runs it without")
	}
	type mapped struct {
		name string
		sc   *engine.Scenario
		st   *engine.State
		opt  Options
	}
	var maps []mapped
	everyBattle(t, 10, 5, func(name, where string, sc *engine.Scenario, before, after *engine.State, events []engine.Event) {
		for i, opt := range mapOptions(sc, before, after, events)[:2] { // the mail's options
			maps = append(maps, mapped{fmt.Sprintf("%s %s, options %d", name, where, i), sc, after, opt})
		}
	})
	sc, before, after, events := busy(t)
	maps = append(maps, mapped{"crécy busy block", sc, after, ForMail(Marks(sc, before, after, events))})
	for _, m := range maps {
		bp := paletteFor(m.sc)
		if bp == nil {
			t.Fatalf("%s: no palette", m.name)
		}
		c := painted(t, m.sc, m.st, m.opt)
		if _, _, ok := quantizeFixed(c, bp, nil); !ok {
			t.Errorf("%s: not in the battle's palette", m.name)
		}
		for _, c := range solidsMissing(c.img, bp) {
			e := bp.colours[bp.near.find(c)]
			if d := distance2(c, e); d > 3*4*4 {
				t.Errorf("%s: colour %08x laid whole, %08x in the palette (squared distance %d)", m.name, c, e, d)
			}
		}
		tb := getTable()
		tb.scan(c.img, 0, c.img.Rect.Dy())
		own := tb.palette()
		tablePool.Put(tb)
		fixed, mine := meanDistance(c.img, bp.colours), meanDistance(c.img, own)
		if fixed > mine+0.5 {
			t.Errorf("%s: pixels %.2f from their palette colour on average, %.2f in a palette of the map's own", m.name, fixed, mine)
		}
	}
}

// painted is the canvas of a map, drawn as PNG draws it but not for
// indices: every pixel on it.
func painted(t testing.TB, sc *engine.Scenario, st *engine.State, opt Options) *canvas {
	return paintedFor(t, sc, st, opt, false)
}

// paintedFor is the canvas of a map drawn as PNG draws it, for palette
// indices if indexed.
func paintedFor(t testing.TB, sc *engine.Scenario, st *engine.State, opt Options, indexed bool) *canvas {
	t.Helper()
	p, err := plan(sc, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	p.indexed = indexed
	c := paint(sc, st, opt, p, nil)
	c.done()
	return c
}

// solidsMissing are the colours of img with solidMin solid pixels or
// more that are not in the palette.
func solidsMissing(img *image.RGBA, bp *battlePalette) []uint32 {
	solid := map[uint32]int{}
	countSolids(img, solid)
	var out []uint32
	for c, n := range solid {
		if n >= solidMin && !slices.Contains(bp.colours, c) {
			out = append(out, c)
		}
	}
	return out
}

// meanDistance is the mean RGB distance of img's pixels to their
// nearest colour of pal.
func meanDistance(img *image.RGBA, pal []uint32) float64 {
	nf := newNearest(pal)
	memo := map[uint32]float64{}
	sum := 0.0
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for y := range h {
		for x := range w {
			c := pixel(img.Pix[y*img.Stride:], x)
			d, ok := memo[c]
			if !ok {
				d = math.Sqrt(float64(distance2(c, pal[nf.find(c)])))
				memo[c] = d
			}
			sum += d
		}
	}
	return sum / float64(w*h)
}

// A battle's palette depends on the battle only: made with every cache
// cold, then again after maps have filled them, it is the same.
func TestBattlePaletteSameWhateverTheCaches(t *testing.T) {
	sc, before, after, events := busy(t)
	forgetCaches()
	cold := newBattlePalette(sc)
	if _, err := PNG(sc, after, ForMail(Marks(sc, before, after, events))); err != nil {
		t.Fatal(err)
	}
	if _, err := PNG(sc, before, ForMail(nil)); err != nil {
		t.Fatal(err)
	}
	warm := newBattlePalette(sc)
	if cold == nil || warm == nil || !slices.Equal(cold.colours, warm.colours) {
		t.Fatalf("the palette made with the caches cold and warm differ")
	}
	if len(cold.colours) != 256 {
		t.Errorf("%d colours, want 256", len(cold.colours))
	}
}

// A map with a colour the battle's pictures never lay, drawn whole, gets
// a palette of its own: mailQuantizer falls back to quantize, and the
// colour is kept.
func TestMapBeyondItsBattlePalette(t *testing.T) {
	sc, before, after, events := busy(t)
	c := painted(t, sc, after, ForMail(Marks(sc, before, after, events)))
	bp := paletteFor(sc)
	if _, _, ok := quantizeFixed(c, bp, nil); !ok {
		t.Fatal("the map is not in its battle's palette before the new colour")
	}
	magenta := rgb(0xff00ff)
	c.rect(100, 100, 104, 104, magenta) // 16 pixels, 9 of them solid
	if _, _, ok := quantizeFixed(c, bp, nil); !ok {
		t.Fatal("9 solid pixels far from the palette made the map leave it: farPixels is 16")
	}
	c.rect(100, 100, 160, 160, magenta) // a palette of its own has room for 3,600 pixels of one colour
	if _, _, ok := quantizeFixed(c, bp, nil); ok {
		t.Fatal("a square of magenta was written in the battle's palette")
	}
	q, _, ok := mailQuantizer(sc, c)(nil)
	if !ok || slices.Equal(q.Palette, bp.plte) {
		t.Fatal("the map did not get a palette of its own")
	}
	if got := q.Palette[q.ColorIndexAt(130, 130)]; got != magenta {
		t.Errorf("the square is %v in the map's own palette, want %v", got, magenta)
	}
}

// BenchmarkQuantizeFixed is the busy block's crop given in its battle's
// palette, the ground's and legend lines' indices kept.
func BenchmarkQuantizeFixed(b *testing.B) {
	sc, before, after, events := busy(b)
	c := painted(b, sc, after, ForMail(Marks(sc, before, after, events)))
	bp := paletteFor(sc)
	pix := make([]byte, c.img.Rect.Dx()*c.img.Rect.Dy())
	for b.Loop() {
		if _, _, ok := quantizeFixed(c, bp, pix); !ok {
			b.Fatal("not in the battle's palette")
		}
	}
}

// Maps of a battle drawn at once, before its palette is made, share one
// palette made once.
func TestBattlePaletteMadeOnce(t *testing.T) {
	sc, _ := crecy(t)
	palettes.Lock()
	clear(palettes.byKey)
	palettes.Unlock()
	got := make([]*battlePalette, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = paletteFor(sc) })
	}
	wg.Wait()
	for _, p := range got {
		if p == nil || p != got[0] {
			t.Fatalf("palettes %p: want one, the same", got)
		}
	}
}
