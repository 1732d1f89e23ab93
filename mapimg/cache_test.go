package mapimg

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

// The caches (grounds, glyphs, tags' candidate places, legend lines) and the encoder
// never change a picture: for every shipped battle, at the opening and
// after random blocks, the mail's crop and the whole map encoded by PNG
// with the caches cold and then warm decode to the very pixels Render
// draws with every cache off (quantized, for the options with a
// palette: each pixel looked up in the battle's palette, whatever the
// ground's and the legend lines' indices kept, or the map's own palette
// where the PNG has one).
func TestCachesSamePixels(t *testing.T) {
	steps, every := 10, 5
	if testing.Short() {
		steps, every = 3, 3
	}
	if raceBuild {
		t.Skip("pixels are the same with or without the race detector, which makes each map twenty times slower: .ci/run runs this test without -race")
	}
	type shot struct {
		name  string
		sc    *engine.Scenario
		st    *engine.State
		opt   Options
		fresh *image.RGBA
	}
	var shots []shot
	cachesOff(true)
	everyBattle(t, steps, every, func(name, where string, sc *engine.Scenario, before, after *engine.State, events []engine.Event) {
		for i, opt := range mapOptions(sc, before, after, events) {
			forgetGrounds()
			img, err := Render(sc, after, opt)
			if err != nil {
				t.Fatalf("%s %s: %v", name, where, err)
			}
			shots = append(shots, shot{fmt.Sprintf("%s %s, options %d", name, where, i), sc, after, opt, img})
		}
	})
	cachesOff(false)
	check := func(how string, s shot) {
		b, err := PNG(s.sc, s.st, s.opt)
		if err != nil {
			t.Fatalf("%s, %s: %v", s.name, how, err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s, %s: %v", s.name, how, err)
		}
		if got.Bounds() != s.fresh.Bounds() {
			t.Fatalf("%s, %s: bounds %v, want %v", s.name, how, got.Bounds(), s.fresh.Bounds())
		}
		want := image.Image(s.fresh)
		if s.opt.Palette { // the PNG holds the quantized pixels
			q := quantizedAsMailed(t, s.sc, s.fresh, got)
			want = q
			if g, ok := got.(*image.Paletted); ok && bytes.Equal(g.Pix, q.Pix) && slices.Equal(g.Palette, q.Palette) {
				return
			}
		}
		if g, ok := got.(*image.RGBA); ok && bytes.Equal(g.Pix, s.fresh.Pix) {
			return
		}
		if n := differing(got, want, 0); n > 0 {
			t.Errorf("%s, %s: %d pixels differ from the uncached rendering", s.name, how, n)
		}
	}
	for _, s := range shots {
		forgetCaches()
		check("caches cold", s)
	}
	for _, s := range shots { // warmed by every map before
		check("caches warm", s)
	}
	t.Logf("%d maps", len(shots))
}

func cachesOff(off bool) {
	noGlyphCache, noCandCache, noLegendCache = off, off, off
	forgetCaches()
}

// quantizedAsMailed is img quantized as a mail's map is: each pixel
// looked up in the battle's palette, or, if got (the decoded PNG) has a
// palette of its own, by quantize.
func quantizedAsMailed(t *testing.T, sc *engine.Scenario, img *image.RGBA, got image.Image) *image.Paletted {
	t.Helper()
	bp := paletteFor(sc)
	if g, ok := got.(*image.Paletted); !ok || bp == nil || !slices.Equal(g.Palette, bp.plte) {
		q, _ := quantize(img, nil)
		return q
	}
	ix := indexImage(img, bp)
	return &image.Paletted{Pix: ix.pix, Stride: img.Rect.Dx(), Rect: img.Rect, Palette: bp.plte}
}

func forgetCaches() {
	forgetGrounds()
	glyphs.Lock()
	clear(glyphs.m)
	glyphs.Unlock()
	candCache.Lock()
	clear(candCache.m)
	candCache.Unlock()
	bands.Lock()
	clear(bands.m)
	bands.bytes = 0
	bands.Unlock()
}

type dice struct{ r *rand.Rand }

func (d dice) Roll(string) (int, error) { return d.r.IntN(10), nil }

// randomBlock applies one legal order picked at random (a move to a
// random reachable hex), or reports false.
func randomBlock(r *rand.Rand, sc *engine.Scenario, st *engine.State) (*engine.BlockResult, bool) {
	legal := engine.Legal(sc, st)
	if len(legal) == 0 {
		return nil, false
	}
	f := strings.Fields(legal[r.IntN(len(legal))])
	text := strings.Join(f, " ")
	switch f[0] {
	case "MOVE":
		reach := engine.Reach(sc, st, f[1])
		if len(reach) == 0 {
			return nil, false
		}
		var path []string
		for _, h := range reach[r.IntN(len(reach))].Path {
			path = append(path, h.String())
		}
		text = "MOVE " + f[1] + " " + strings.Join(path, " ")
		if st.Unit(f[1]) != nil {
			text += " FACE " + hex.Facing(r.IntN(6)).String()
		}
	case "FACE":
		u := st.Unit(f[1])
		if u == nil {
			return nil, false
		}
		text = "FACE " + f[1] + " " + u.Facing.Turn(2*r.IntN(2)-1).String()
	}
	if strings.Contains(text, "<") {
		return nil, false
	}
	orders, err := engine.ParseOrders(engine.SplitLines(text))
	if err != nil {
		return nil, false
	}
	res, err := engine.Apply(sc, st, st.Pending.Side, orders, dice{r})
	if err != nil { // a refused order, or one the dice left undecided
		return nil, false
	}
	return res, true
}

// everyBattle plays random legal blocks (randomBlock) of every shipped
// battle, seeded by its name, and calls add for the opening and after
// every every-th of the first steps blocks.
func everyBattle(t *testing.T, steps, every int, add func(name, where string, sc *engine.Scenario, before, after *engine.State, events []engine.Event)) {
	t.Helper()
	for _, name := range data.Scenarios() {
		sc, err := data.Scenario(name)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(17, uint64(len(name))))
		st := engine.NewState(sc)
		add(name, "opening", sc, st, st, nil)
		for step := 1; step <= steps && st.Outcome == nil; step++ {
			res, ok := randomBlock(r, sc, st)
			if !ok {
				continue
			}
			if step%every == 0 {
				add(name, fmt.Sprintf("block %d", step), sc, st, res.State, res.Events)
			}
			st = res.State
		}
	}
}

// mapOptions are the pictures a state is drawn as: the mail's crop with
// its marks, the army's area, and the whole map.
func mapOptions(sc *engine.Scenario, before, after *engine.State, events []engine.Event) []Options {
	return []Options{ForMail(Marks(sc, before, after, events)), ForMail(nil), {}}
}
