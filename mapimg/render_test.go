package mapimg

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"herald/data"
	"herald/engine"
	"herald/engine/hex"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata (look at them!)")

func crecy(t testing.TB) (*engine.Scenario, *engine.State) {
	t.Helper()
	sc, err := data.Scenario("crecy")
	if err != nil {
		t.Fatal(err)
	}
	return sc, engine.NewState(sc)
}

// midGame is the opening position after a few things happened: one unit
// Disordered, one Retired, one Eliminated.
func midGame(t testing.TB, sc *engine.Scenario) *engine.State {
	st := engine.NewState(sc).Clone()
	st.Unit("LB1").Status = engine.Disordered
	st.Unit("LB2").Status = engine.Retired
	st.Unit("CB1").Status = engine.Eliminated
	st.Move = 9
	return st
}

// decoded renders to PNG bytes and reads them back, as a mail client would.
func decoded(t *testing.T, sc *engine.Scenario, st *engine.State, opt Options) image.Image {
	t.Helper()
	b, err := PNG(sc, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// place is where Render puts things, from the same layout code.
func place(t testing.TB, sc *engine.Scenario, st *engine.State, opt Options) *layout {
	t.Helper()
	p, err := plan(sc, st, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p.l
}

func near(t *testing.T, what string, got color.Color, want color.RGBA, tol int) {
	t.Helper()
	r, g, b, _ := got.RGBA()
	d := func(x uint32, y uint8) int { return abs(int(x>>8) - int(y)) }
	if d(r, want.R) > tol || d(g, want.G) > tol || d(b, want.B) > tol {
		t.Errorf("%s: colour %v, want about %v", what, got, want)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rearOf is a point on a counter's fill, behind its text.
func rearOf(l *layout, u engine.UnitState) image.Point {
	p := l.centre(u.Hex).sub(unit(60 * float64(u.Facing)).scale(l.size * 0.5 * 0.72))
	return image.Pt(int(p.X), int(p.Y))
}

func TestRenderSampleBattle(t *testing.T) {
	sc, st := crecy(t)
	img := decoded(t, sc, st, Options{})
	l := place(t, sc, st, Options{})
	w, h := l.extent()
	if b := img.Bounds(); b.Dx() != int(math.Ceil(w))+2*pad || b.Dy() < int(math.Ceil(h))+2*pad+4*22 {
		t.Errorf("size %v for a map of %.0f×%.0f", b, w, h)
	}
	lb1 := *st.Unit("LB1")
	near(t, "English counter LB1", img.At(rearOf(l, lb1).X, rearOf(l, lb1).Y), sideColours[0], 12)
	cb1 := *st.Unit("CB1")
	near(t, "French counter CB1", img.At(rearOf(l, cb1).X, rearOf(l, cb1).Y), sideColours[1], 12)
	// The stream along the hexside 0114/0115.
	a, b := l.side(hex.Hex{Col: 1, Row: 14}, hex.S)
	m := a.lerp(b, 0.5)
	near(t, "stream hexside 0114/0115", img.At(int(m.X), int(m.Y)), rgb(0x4a8fd6), 24)
	// Clear ground, and the ridge one level higher and darker.
	near(t, "clear hex 1208", img.At(int(l.centre(hex.Hex{Col: 12, Row: 8}).X), int(l.centre(hex.Hex{Col: 12, Row: 8}).Y)), clearColour, 4)
	ridge := l.centre(hex.Hex{Col: 2, Row: 4})
	near(t, "ridge hex 0204", img.At(int(ridge.X), int(ridge.Y)), shade(clearColour, 1-levelShade), 4)
}

func TestRenderStatuses(t *testing.T) {
	sc, _ := crecy(t)
	st := midGame(t, sc)
	img := decoded(t, sc, st, Options{})
	l := place(t, sc, st, Options{})
	lb1 := *st.Unit("LB1")
	sq := square{l.centre(lb1.Hex), unit(60 * float64(lb1.Facing)), l.size * counterHalf}
	pale := sq.at(-0.45, 0.85) // below the ratings, behind the hatched band
	near(t, "Disordered LB1 (pale back side)", img.At(int(pale.X), int(pale.Y)), shade(sideColours[0], disorderedLight), 14)
	band := sq.at(-0.78, 0.2) // the hatched rear band
	if r, _, _, _ := img.At(int(band.X), int(band.Y)).RGBA(); r>>8 > 0xe0 {
		t.Errorf("Disordered LB1: no hatched band at %v", band)
	}
	badge := sq.at(-1, 0).add(pt{0, l.size * counterHalf * 0.31})
	near(t, "Disordered LB1 (D badge ring)", img.At(int(badge.X), int(badge.Y)), counterEdge, 40)
	ret := rearOf(l, *st.Unit("LB2"))
	near(t, "Retired LB2", img.At(ret.X, ret.Y-6), retiredColour, 14)
	gone := rearOf(l, *st.Unit("CB1"))
	near(t, "Eliminated CB1 is not drawn", img.At(gone.X, gone.Y), clearColour, 4)
}

// A river hexside, which no shipped battle has yet, on a copy of Crécy.
func TestRenderRiver(t *testing.T) {
	sc, st := crecy(t)
	river := *sc
	river.Map.Hexsides = append([]engine.Hexside{{A: hex.Hex{Col: 12, Row: 8}, B: hex.Hex{Col: 12, Row: 9}, Feature: "river"}}, sc.Map.Hexsides...)
	img := decoded(t, &river, st, Options{})
	l := place(t, &river, st, Options{})
	a, b := l.side(hex.Hex{Col: 12, Row: 8}, hex.S)
	m := a.lerp(b, 0.5)
	near(t, "river hexside 1208/1209", img.At(int(m.X), int(m.Y)), rgb(0x2f6db5), 16)
}

func TestCropAndMaxSize(t *testing.T) {
	sc, st := crecy(t)
	marks := []Mark{{Kind: MarkPath, Hexes: []hex.Hex{{Col: 10, Row: 8}, {Col: 11, Row: 8}}}}
	full := decoded(t, sc, st, Options{Marks: marks}).Bounds()
	crop := decoded(t, sc, st, Options{Marks: marks, Crop: true}).Bounds()
	if crop.Dx() >= full.Dx()/2 || crop.Dy() >= full.Dy() {
		t.Errorf("crop %v not much smaller than the whole map %v", crop, full)
	}
	small := decoded(t, sc, st, Options{MaxWidth: 900, MaxHeight: 900}).Bounds()
	if small.Dx() > 900 || small.Dy() > 900 {
		t.Errorf("MaxWidth/MaxHeight 900: got %v", small)
	}
	tiny := decoded(t, sc, st, Options{MaxWidth: 300, MaxHeight: 300}).Bounds()
	if place(t, sc, st, Options{MaxWidth: 300, MaxHeight: 300}).size != MinHexSize || tiny.Dx() <= 300 {
		t.Errorf("a 300-pixel bound must stop at the legible minimum hex: %v", tiny)
	}
}

func TestRenderRefusesForeignState(t *testing.T) {
	sc, _ := crecy(t)
	other, err := data.Scenario("ascalon")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Render(sc, engine.NewState(other), Options{}); err == nil {
		t.Error("rendered Ascalon's state on Crécy's map")
	}
}

// Golden images: small crops, compared with a tolerance for anti-aliasing
// differences between platforms.
func TestGolden(t *testing.T) {
	sc, st := crecy(t)
	area := []Mark{{Kind: MarkActive, Hexes: []hex.Hex{{Col: 6, Row: 10}}}, {Kind: MarkActive, Hexes: []hex.Hex{{Col: 6, Row: 12}}},
		{Kind: MarkPath, Hexes: []hex.Hex{{Col: 8, Row: 9}, {Col: 9, Row: 10}, {Col: 10, Row: 10}}},
		{Kind: MarkResult, Hexes: []hex.Hex{{Col: 6, Row: 11}}, Label: "rallied"}}
	for _, tc := range []struct {
		name string
		st   *engine.State
	}{{"crecy-start", st}, {"crecy-midgame", midGame(t, sc)}} {
		t.Run(tc.name, func(t *testing.T) {
			got := decoded(t, sc, tc.st, Options{Marks: area, Crop: true, Margin: 1, HexSize: 30})
			file := filepath.Join("testdata", tc.name+".png")
			if *update {
				var b bytes.Buffer
				png.Encode(&b, got)
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(file, b.Bytes(), 0o644)
				return
			}
			golden(t, got, file)
		})
	}
}

// golden compares an image with a golden file, with a tolerance for
// anti-aliasing differences between platforms.
func golden(t *testing.T, got image.Image, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	if bad := differing(got, want, 24); bad > got.Bounds().Dx()*got.Bounds().Dy()/200 {
		t.Errorf("%d pixels differ from %s (more than 0.5%%); run with -update and look", bad, file)
	}
}

// differing counts the pixels whose channels differ by more than tol.
func differing(a, b image.Image, tol int) int {
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if abs(int(r1>>8)-int(r2>>8)) > tol || abs(int(g1>>8)-int(g2>>8)) > tol || abs(int(b1>>8)-int(b2>>8)) > tol {
				n++
			}
		}
	}
	return n
}

// The whole map of the largest shipped battle with all its counters.
func BenchmarkRender(b *testing.B) {
	sc, _ := crecy(b)
	st := midGame(nil, sc)
	for b.Loop() {
		if _, err := Render(sc, st, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPNG(b *testing.B) {
	sc, _ := crecy(b)
	st := midGame(nil, sc)
	for b.Loop() {
		if _, err := PNG(sc, st, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A block's moves become arrows from where each unit stood.
func TestMarksFollowMoves(t *testing.T) {
	sc, before := crecy(t)
	res, err := engine.Apply(sc, before, 1, mustParse(t, "ACTIVATE Doria\nMOVE CB1 1005 0905 FACE W"), engine.NewScript())
	if err != nil {
		t.Fatal(err)
	}
	var path *Mark
	for _, m := range Marks(sc, before, res.State, res.Events) {
		if m.Kind == MarkPath {
			path = &m
		}
	}
	want := []hex.Hex{{Col: 11, Row: 5}, {Col: 10, Row: 5}, {Col: 9, Row: 5}}
	if path == nil || len(path.Hexes) != 3 || path.Hexes[0] != want[0] || path.Hexes[2] != want[2] {
		t.Errorf("path mark %+v, want %v", path, want)
	}
}

func mustParse(t *testing.T, text string) []engine.Order {
	t.Helper()
	o, err := engine.ParseOrders(engine.SplitLines(text))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// The battle markers of Men of Iron 2.2: a No Retreat badge on the
// counter's upper right (white, ringed with the edge's ink), a Bombard box
// under its hex's centre, and the carts of Poitiers as terrain "wagons".
func TestRenderBattleMarkers(t *testing.T) {
	sc, err := data.Scenario("falkirk")
	if err != nil {
		t.Fatal(err)
	}
	st := engine.NewState(sc)
	img := decoded(t, sc, st, Options{})
	l := place(t, sc, st, Options{})
	h := l.size * counterHalf
	// The darkest pixel down the badge's ring, whatever the anti-aliasing.
	ring := func(u *engine.UnitState) color.Color {
		c := noRetreatAt(l.centre(u.Hex), h)
		var dark color.Color = color.White
		least := uint32(1 << 20)
		for d := h * 0.28; d <= h*0.44; d += 0.5 {
			px := img.At(int(c.X), int(c.Y+d))
			if r, g, b, _ := px.RGBA(); r+g+b < least {
				least, dark = r+g+b, px
			}
		}
		return dark
	}
	near(t, "No Retreat badge ring on SB1", ring(st.Unit("SB1")), counterEdge, 40)
	// no marker: the same place is the hex's ground
	near(t, "no badge on SP1", ring(st.Unit("SP1")), shade(clearColour, 1-levelShade), 6)

	crecy, st2 := crecy(t)
	img = decoded(t, crecy, st2, Options{})
	p, err := plan(crecy, st2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := crecy.Bombards[0]
	half := (textWidth(p.fs.label, "BOMBARD") + 6) / 2
	inside := bombardAt(p.l, b.Hex).add(pt{-half + 1.8, 0}) // white, left of the text
	near(t, "Bombard box in 0509", img.At(int(inside.X), int(inside.Y)), rgb(0xffffff), 10)
	beside := bombardAt(p.l, b.Hex).add(pt{-half - 3, 0})
	near(t, "ground beside the Bombard box", img.At(int(beside.X), int(beside.Y)), shade(clearColour, 1-levelShade), 6)

	poitiers, err := data.Scenario("poitiers")
	if err != nil {
		t.Fatal(err)
	}
	st3 := engine.NewState(poitiers)
	img = decoded(t, poitiers, st3, Options{})
	l = place(t, poitiers, st3, Options{})
	top := l.centre(hex.Hex{Col: 6, Row: 3}).add(pt{0, -l.size * 0.3})
	near(t, "wagons hex 0603", img.At(int(top.X), int(top.Y)), terrainStyles["wagons"].fill, 6)
}

// Two counters in one hex (Arquebus 10.0 stacking) are drawn apart, the
// first up and left, the second down and right, each showing its fill
// where a lone counter would leave the hex bare: DM1 is put on LB1.
func TestRenderStack(t *testing.T) {
	sc, st0 := crecy(t)
	st := st0.Clone()
	st.Unit("DM1").Hex = st.Unit("LB1").Hex
	img := decoded(t, sc, st, Options{})
	l := place(t, sc, st, Options{})
	p, h, d := l.centre(st.Unit("LB1").Hex), l.size*counterHalf, l.size*stackOffset
	fill := sideColours[0]
	first := p.add(pt{-d - 0.72*h, -d}) // LB1's rear, beyond a lone counter's edge
	near(t, "LB1, first of the stack, moved up and left", img.At(int(first.X), int(first.Y)), fill, 14)
	second := p.add(pt{d, d + 0.85*h}) // DM1's lower part, below a lone counter
	near(t, "DM1, second of the stack, moved down and right", img.At(int(second.X), int(second.Y)), fill, 14)
	alone := l.centre(st.Unit("LB2").Hex).add(pt{-0.72 * h, 0})
	near(t, "LB2 alone, in the middle of its hex", img.At(int(alone.X), int(alone.Y)), fill, 14)
}
