package tabletop

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"reflect"
	"strings"
	"testing"

	"herald/engine/strike/table"
)

// picture renders s and decodes the PNG back, with the layout that
// places table points on it.
func picture(t *testing.T, s Scene) (image.Image, *layout) {
	t.Helper()
	b, err := Render(s)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	fs, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLayout(s, fs)
	if err != nil {
		t.Fatal(err)
	}
	return img, l
}

// px is the colour of the pixel holding table point v.
func px(img image.Image, l *layout, v Vec) color.RGBA {
	p := l.at(v)
	return rgbaOf(img.At(int(math.Floor(p.X)), int(math.Floor(p.Y))))
}

func rgbaOf(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// near reports whether two colours differ by at most tol in each channel.
func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}

func blueish(c color.RGBA) bool   { return int(c.B) > int(c.R)+80 && int(c.B) > int(c.G)+40 }
func reddish(c color.RGBA) bool   { return int(c.R) > int(c.G)+80 && int(c.R) > int(c.B)+80 }
func yellowish(c color.RGBA) bool { return c.R > 200 && c.G > 160 && c.B < 100 }

// world is the table point of a point in a footprint's own frame (X to
// its right, Y forward of its front edge).
func world(u Unit, x, y float64) Vec {
	tu := table.Unit{Pos: table.Vec{X: u.Front.X, Y: u.Front.Y}, Facing: u.Facing}
	w := tu.World(table.Vec{X: x, Y: y})
	return Vec{w.X, w.Y}
}

// lone is a scene of a 48"×36" table with one side-1 unit in a corner,
// out of the way of what a test draws.
func lone() Scene {
	return Scene{Title: "test", Width: 48, Height: 36, Units: []Unit{footprint("Far", 1, 44, 33, 0, 2, 1, 1.5, 1)}}
}

// The picture's size follows the table's: 25 pixels an inch up to a
// table 1328 pixels wide or 1800 tall, fewer beyond, never under 560
// pixels wide for the legend; the table's frame is where the scale puts
// it (R580).
func TestSizeFromTable(t *testing.T) {
	for _, c := range []struct {
		w, h           float64
		wantPPI, wantW int
	}{
		{48, 36, 25, 44 + 1200 + 28},
		{72, 48, 18, 44 + 1296 + 28},
		{96, 48, 13, 44 + 1248 + 28},
		{120, 60, 11, 44 + 1320 + 28},
		{6, 4, 25, 560},
		{30, 120, 15, 560},
		{200, 40, 6, 44 + 1200 + 28},
	} {
		s := Scene{Width: c.w, Height: c.h, Units: []Unit{footprint("A", 0, c.w/2, c.h/2, 0, 1, 1, 1, 0.5)}}
		img, l := picture(t, s)
		if int(l.ppi) != c.wantPPI {
			t.Errorf("%g×%g: %g pixels an inch, want %d", c.w, c.h, l.ppi, c.wantPPI)
		}
		b := img.Bounds()
		if b.Dx() != c.wantW || b.Dx() > maxWidth {
			t.Errorf("%g×%g: %d pixels wide, want %d", c.w, c.h, b.Dx(), c.wantW)
		}
		tw, th := int(math.Round(c.w*float64(c.wantPPI))), int(math.Round(c.h*float64(c.wantPPI)))
		x0, y0 := int(l.ox), int(l.oy)
		if b.Dy() < y0+th+rulerBelow+scaleRow+legendRow {
			t.Errorf("%g×%g: %d pixels tall: no room under a %d-pixel table for the legend", c.w, c.h, b.Dy(), th)
		}
		for _, p := range []image.Point{{x0 + 2, y0 + 2}, {x0 + tw - 3, y0 + th - 3}, {x0 + 2, y0 + th - 3}} {
			if got := rgbaOf(img.At(p.X, p.Y)); got != cloth {
				t.Errorf("%g×%g: %v inside the table's corner is %v, not the cloth", c.w, c.h, p, got)
			}
		}
		for _, p := range []image.Point{{x0 - 1, y0 + 2}, {x0 + tw, y0 + 2}, {x0 + 2, y0 + th}, {x0 + 2, y0 - 1}} {
			if got := rgbaOf(img.At(p.X, p.Y)); got != frameCol {
				t.Errorf("%g×%g: %v on the table's edge is %v, not the frame", c.w, c.h, p, got)
			}
		}
	}
}

// Each side's stands are filled in its colour: side 0 blue, side 1 red.
func TestSideColours(t *testing.T) {
	s := lone()
	s.Units = []Unit{footprint("B", 0, 10, 10, 0, 3, 2, 1.5, 1), footprint("R", 1, 30, 20, 180, 3, 2, 1.5, 1)}
	img, l := picture(t, s)
	for i, check := range []func(color.RGBA) bool{blueish, reddish} {
		u := s.Units[i]
		// The left rear stand, away from the label in the middle.
		p := world(u, -1.7, -1.6)
		if got := px(img, l, p); !check(got) || got != sideFill[i] {
			t.Errorf("side %d: stand pixel at %v is %v, want %v", i, p, got, sideFill[i])
		}
	}
}

// Terrain areas are filled by kind, under either spelling of the kind;
// a later area paints over an earlier one (R581).
func TestTerrainFill(t *testing.T) {
	square := func(x0, y0, x1, y1 float64) []Vec { return []Vec{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} }
	for _, c := range []struct {
		kind string
		want []color.RGBA
	}{
		{"obstacle", []color.RGBA{obstacleFill, obstacleHatch}},
		{"higher ground", []color.RGBA{higherFill}},
		{"higher", []color.RGBA{higherFill}},
		{"gentle slope", []color.RGBA{slopeFill}},
		{"slope", []color.RGBA{slopeFill}},
		{"open", []color.RGBA{cloth}},
	} {
		s := lone()
		s.Areas = []Area{
			{Kind: c.kind, Shape: square(5, 5, 15, 15)},
			{Kind: "open", Name: "", Shape: square(8, 8, 11, 11)},
		}
		img, l := picture(t, s)
		seen := map[color.RGBA]bool{}
		for x := 12.0; x < 14; x += 0.04 {
			got := px(img, l, Vec{x, 13.3})
			if !among(c.want, got) {
				t.Fatalf("%s: pixel at %g,13.3 is %v, not one of %v", c.kind, x, got, c.want)
			}
			seen[got] = true
		}
		if len(seen) != len(c.want) {
			t.Errorf("%s: a row across the area shows %v, want every one of %v", c.kind, seen, c.want)
		}
		if got := px(img, l, Vec{9.5, 9.3}); got != cloth {
			t.Errorf("%s: the open area listed after it is %v, not the cloth", c.kind, got)
		}
		if got := px(img, l, Vec{20, 13.3}); got != cloth {
			t.Errorf("%s: outside the area the table is %v, not the cloth", c.kind, got)
		}
	}
}

func among[T comparable](list []T, x T) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// The front edge is drawn dark and thick and a small arrow stands just in
// front of its centre, pointing the unit's way, whichever way it faces;
// the stands turn with the facing (R582).
func TestFrontEdgeAndFacing(t *testing.T) {
	for _, f := range []float64{0, 90, 180, 270, 45, 330} {
		for side := range 2 {
			u := footprint("A", side, 20, 16.5, f, 3, 2, 1.5, 1)
			s := lone()
			s.Units = append(s.Units, u)
			img, l := picture(t, s)
			for _, c := range []struct {
				what string
				x, y float64
				want func(color.RGBA) bool
			}{
				{"the arrow just in front of the front's centre", 0, 0.3, func(c color.RGBA) bool { return near(c, sideDark[side], 40) }},
				{"the front edge", -1.2, -0.02, func(c color.RGBA) bool { return near(c, sideDark[side], 40) }},
				{"the front edge, just behind its line", -1.2, -0.07, func(c color.RGBA) bool { return near(c, sideDark[side], 60) }},
				{"the second rank's front, not thick", -1.2, -0.93, func(c color.RGBA) bool { return !near(c, sideDark[side], 60) }},
				{"a stand behind the front edge", -1.2, -0.4, func(c color.RGBA) bool { return c == sideFill[side] }},
				{"the table beside the arrow", 1.2, 0.3, func(c color.RGBA) bool { return c == cloth }},
				{"the table behind the unit", 0, -2.3, func(c color.RGBA) bool { return c == cloth }},
			} {
				p := world(u, c.x, c.y)
				if got := px(img, l, p); !c.want(got) {
					t.Errorf("facing %g, side %d: %s (%v) is %v", f, side, c.what, p, got)
				}
			}
		}
	}
}

// A unit facing 90 degrees lies across the table: its stands cover what
// the same unit facing 0 leaves open, and the reverse.
func TestRotation(t *testing.T) {
	up := footprint("A", 0, 20, 18, 0, 2, 2, 1.5, 1)     // x 18.5..21.5, y 16..18
	right := footprint("A", 0, 20, 18, 90, 2, 2, 1.5, 1) // x 18..20, y 16.5..19.5
	for _, c := range []struct {
		u          Unit
		blue, open Vec
	}{
		{right, Vec{18.3, 19.2}, Vec{21, 16.3}},
		{up, Vec{21, 16.3}, Vec{18.3, 19.2}},
	} {
		s := lone()
		s.Units = append(s.Units, c.u)
		img, l := picture(t, s)
		if got := px(img, l, c.blue); got != sideFill[0] {
			t.Errorf("facing %g: %v should be under a stand, is %v", c.u.Facing, c.blue, got)
		}
		if got := px(img, l, c.open); got != cloth {
			t.Errorf("facing %g: %v should be open table, is %v", c.u.Facing, c.open, got)
		}
	}
}

// A highlighted unit has a yellow band round it; the same unit not
// highlighted has the table there.
func TestHighlight(t *testing.T) {
	for _, hl := range []bool{true, false} {
		u := footprint("A", 1, 20, 18, 30, 3, 2, 1.5, 1)
		u.Highlight = hl
		s := lone()
		s.Units = append(s.Units, u)
		img, l := picture(t, s)
		for _, at := range [][2]float64{{0, -2.09}, {-2.34, -1}, {2.34, -1.5}} {
			p := world(u, at[0], at[1])
			got := px(img, l, p)
			if hl && !yellowish(got) || !hl && got != cloth {
				t.Errorf("highlight %v: just outside the unit (%v) is %v", hl, p, got)
			}
		}
	}
}

// count is how many pixels of r match.
func count(img image.Image, r image.Rectangle, match func(color.RGBA) bool) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if match(rgbaOf(img.At(x, y))) {
				n++
			}
		}
	}
	return n
}

// The ID is written on the unit; its state words and its Personality
// under the ID, each in its own colour.
func TestUnitLabels(t *testing.T) {
	u := footprint("Kn1", 0, 20, 18, 0, 4, 2, 1.5, 1)
	bare := lone()
	bare.Units = append(bare.Units, u)
	u.Status, u.Personality = []string{"disordered", "broken"}, "Sir Guy"
	full := lone()
	full.Units = append(full.Units, u)
	for _, c := range []struct {
		s           Scene
		status, per bool
	}{{bare, false, false}, {full, true, true}} {
		img, l := picture(t, c.s)
		ctr := l.at(world(u, 0, -1))
		cx, cy := int(ctr.X), int(ctr.Y)
		if n := count(img, image.Rect(cx-20, cy-8, cx+20, cy+8), func(p color.RGBA) bool { return near(p, ink, 40) }); n < 20 {
			t.Errorf("the ID: %d ink pixels in the unit's middle", n)
		}
		below := image.Rect(cx-60, cy+6, cx+60, cy+36)
		st := count(img, below, func(p color.RGBA) bool { return near(p, rgb(0x8a1010), 40) })
		pe := count(img, below, func(p color.RGBA) bool { return near(p, persCol, 40) })
		if (st > 10) != c.status || (pe > 10) != c.per {
			t.Errorf("status %v, Personality %v: %d status pixels, %d Personality pixels under the ID", c.status, c.per, st, pe)
		}
	}
}

// Every kind of mark draws along its path: the pixels along it change
// from the table's, in the mark's colour; its label is written.
func TestMarks(t *testing.T) {
	orange := func(c color.RGBA) bool { return near(c, retreatC, 40) }
	darkBlue := func(c color.RGBA) bool { return near(c, sideDark[0], 50) }
	darkRed := func(c color.RGBA) bool { return near(c, sideDark[1], 50) }
	for _, c := range []struct {
		m      Mark
		probe  []Vec // points the mark should cover
		share  float64
		colour func(color.RGBA) bool
	}{
		{Mark{Kind: "move", Side: 0, Path: []Vec{{5, 5}, {15, 5}, {15, 12}}, Label: "5″"}, line(Vec{6, 5}, Vec{14, 5}), 0.4, darkBlue},
		{Mark{Kind: "retreat", Side: 0, Path: []Vec{{5, 20}, {15, 24}}, Label: "retreat 4″"}, line(Vec{6, 20.4}, Vec{14, 23.6}), 0.4, orange},
		{Mark{Kind: "charge", Side: 1, Path: []Vec{{25, 5}, {25, 15}}, Label: "charge"}, line(Vec{25, 6}, Vec{25, 14}), 0.95, darkRed},
		{Mark{Kind: "shot", Side: 1, Path: []Vec{{30, 5}, {38, 13}}, Label: "2 hits"}, line(Vec{31, 6}, Vec{37, 12}), 0.95, darkRed},
		{Mark{Kind: "range", Side: 0, Path: []Vec{{20, 18}, {26, 18}}, Label: "6″"}, circle(Vec{20, 18}, 6), 0.4, darkBlue},
		{Mark{Kind: "arc", Side: 0, Path: []Vec{{10, 20}, {4, 30}, {16, 30}}, Label: "arc"}, line(Vec{9, 26}, Vec{11, 26}), 0.95, func(c color.RGBA) bool {
			return c != cloth && int(c.B) > int(c.R)+10 // the cloth tinted blue
		}},
	} {
		plain := lone()
		marked := lone()
		marked.Marks = []Mark{c.m}
		unlabelled := lone()
		m := c.m
		m.Label = ""
		unlabelled.Marks = []Mark{m}
		before, l := picture(t, plain)
		after, _ := picture(t, marked)
		bare, _ := picture(t, unlabelled)
		changed, coloured, probes := 0, 0, 0
		for _, v := range c.probe {
			if px(before, l, v) != cloth { // a grid line
				continue
			}
			probes++
			got := px(after, l, v)
			if got != cloth {
				changed++
			}
			if c.colour(got) {
				coloured++
			}
		}
		if probes < len(c.probe)*9/10 {
			t.Fatalf("%s: only %d of %d points along it are on open table before the mark", c.m.Kind, probes, len(c.probe))
		}
		if share := float64(changed) / float64(probes); share < c.share {
			t.Errorf("%s: %.0f%% of the pixels along it changed, want %.0f%% or more", c.m.Kind, 100*share, 100*c.share)
		}
		if coloured < probes/3 {
			t.Errorf("%s: %d of %d pixels along it are its colour", c.m.Kind, coloured, probes)
		}
		// The label: the picture differs from the unlabelled one beside
		// the point labelAt names.
		lp := labelAt(c.m.Kind, l.ats(c.m.Path))
		r := image.Rect(int(lp.X)-30, int(lp.Y)-8, int(lp.X)+30, int(lp.Y)+8)
		diff := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if rgbaOf(after.At(x, y)) != rgbaOf(bare.At(x, y)) {
					diff++
				}
			}
		}
		if diff < 20 {
			t.Errorf("%s: the label %q changed %d pixels", c.m.Kind, c.m.Label, diff)
		}
	}
}

// line is points every 0.05" from a to b.
func line(a, b Vec) []Vec {
	n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 0.05)
	var out []Vec
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		out = append(out, Vec{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t})
	}
	return out
}

// circle is points every half degree round a circle.
func circle(c Vec, r float64) []Vec {
	var out []Vec
	for a := 0.0; a < 360; a += 0.5 {
		h := table.Heading(a)
		out = append(out, Vec{c.X + r*h.X, c.Y + r*h.Y})
	}
	return out
}

// A scene the picture cannot show is refused, naming what is wrong.
func TestRefused(t *testing.T) {
	ok := func() Scene {
		s := lone()
		s.Areas = []Area{{Kind: "obstacle", Name: "wood", Shape: []Vec{{1, 1}, {5, 1}, {5, 5}}}}
		s.Marks = []Mark{{Kind: "move", Path: []Vec{{1, 1}, {2, 2}}}}
		return s
	}
	if _, err := Render(ok()); err != nil {
		t.Fatalf("the good scene: %v", err)
	}
	flat := footprint("Flat", 0, 20, 20, 0, 2, 1, 1, 1)
	flat.Stands[1] = [4]Vec{{20, 20}, {21, 20}, {22, 20}, {23, 20}}
	nan := footprint("NaN", 0, 20, 20, 0, 1, 1, 1, 1)
	nan.Stands[0][2].X = math.NaN()
	for _, c := range []struct {
		name string
		edit func(*Scene)
		want string
	}{
		{"zero width", func(s *Scene) { s.Width = 0 }, "width and a height over 0 inches, not 0×36"},
		{"negative height", func(s *Scene) { s.Height = -3 }, "not 48×-3"},
		{"NaN width", func(s *Scene) { s.Width = math.NaN() }, "width and a height over 0"},
		{"infinite height", func(s *Scene) { s.Height = math.Inf(1) }, "width and a height over 0"},
		{"too large", func(s *Scene) { s.Width = 1000 }, "a 1000×36 inch table is too large to draw"},
		{"no units", func(s *Scene) { s.Units = nil }, "the scene has no units to draw"},
		{"no stands", func(s *Scene) { s.Units[0].Stands = nil }, "unit Far has no stands on the table"},
		{"degenerate stand", func(s *Scene) { s.Units = append(s.Units, flat) }, "unit Flat: stand 2 has no area"},
		{"NaN corner", func(s *Scene) { s.Units = append(s.Units, nan) }, "unit NaN: stand 1: a corner is not a number"},
		{"side 2", func(s *Scene) { s.Units[0].Side = 2 }, "unit Far: side 2 is neither 0 (blue) nor 1 (red)"},
		{"no ID", func(s *Scene) { s.Units[0].ID = " " }, "unit 1 (\"Far\") has no ID"},
		{"unknown terrain", func(s *Scene) { s.Areas[0].Kind = "swamp" }, `area 1 ("wood"): terrain "swamp" is not open, obstacle`},
		{"area of 2 corners", func(s *Scene) { s.Areas[0].Shape = s.Areas[0].Shape[:2] }, "a shape needs 3 corners or more, not 2"},
		{"flat area", func(s *Scene) { s.Areas[0].Shape[2] = Vec{3, 1} }, `area 1 ("wood") has no area`},
		{"unknown mark", func(s *Scene) { s.Marks[0].Kind = "bombard" }, `mark 1 (bombard): the kind "bombard" is not move`},
		{"move of 1 point", func(s *Scene) { s.Marks[0].Path = s.Marks[0].Path[:1] }, "a path needs 2 points or more, not 1"},
		{"move nowhere", func(s *Scene) { s.Marks[0].Path[1] = s.Marks[0].Path[0] }, "goes nowhere"},
		{"shot of 3 points", func(s *Scene) {
			s.Marks[0] = Mark{Kind: "shot", Path: []Vec{{1, 1}, {2, 2}, {3, 3}}}
		}, "a shot needs 2 points (the shooter's and the target's), not 3"},
		{"range of no radius", func(s *Scene) { s.Marks[0] = Mark{Kind: "range", Path: []Vec{{1, 1}, {1, 1}}} }, "has no radius"},
		{"flat arc", func(s *Scene) { s.Marks[0] = Mark{Kind: "arc", Path: []Vec{{1, 1}, {2, 2}, {3, 3}}} }, "mark 1 (arc) has no area"},
		{"mark of side 3", func(s *Scene) { s.Marks[0].Side = 3 }, "mark 1 (move): side 3 is neither"},
		{"infinite mark", func(s *Scene) { s.Marks[0].Path[0].Y = math.Inf(-1) }, "a point is not a number"},
	} {
		s := ok()
		c.edit(&s)
		b, err := Render(s)
		if err == nil || !strings.Contains(err.Error(), c.want) || b != nil {
			t.Errorf("%s: got %d bytes and error %v, want an error with %q", c.name, len(b), err, c.want)
		}
	}
}

// The same scene gives the same bytes, and Render leaves the scene as it
// was.
func TestDeterministic(t *testing.T) {
	s := sampleScene()
	keep := sampleScene()
	a, err := Render(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two renderings of one scene differ")
	}
	if !reflect.DeepEqual(s, keep) {
		t.Error("Render changed the scene")
	}
	s.Units[0].Highlight = false
	c, err := Render(s)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Error("a scene with a highlight less gives the same picture")
	}
}

// The legend explains the sides, the front and facing, and exactly the
// terrain kinds and marks the scene has, and is drawn inside the image.
func TestLegend(t *testing.T) {
	s := lone()
	s.Sides = [2]string{"", "The Count's host"}
	s.Areas = []Area{{Kind: "obstacle", Shape: []Vec{{1, 1}, {5, 1}, {5, 5}}}}
	s.Marks = []Mark{{Kind: "move", Side: 1, Path: []Vec{{1, 1}, {2, 2}}}}
	img, l := picture(t, s)
	var texts []string
	for _, row := range l.rows {
		for _, it := range row {
			texts = append(texts, it.text)
		}
	}
	want := []string{"side 0 (blue)", "The Count's host (red)", "front edge and facing", "obstacle", "move"}
	if !reflect.DeepEqual(texts, want) {
		t.Errorf("legend %q, want %q", texts, want)
	}
	below := image.Rect(0, int(l.legendY), img.Bounds().Dx(), img.Bounds().Dy())
	for side := range 2 {
		if n := count(img, below, func(c color.RGBA) bool { return c == sideFill[side] }); n < 50 {
			t.Errorf("the legend has %d pixels of side %d's colour", n, side)
		}
	}
	if n := count(img, below, func(c color.RGBA) bool { return c == obstacleFill }); n < 20 {
		t.Errorf("the legend has %d pixels of the obstacle's colour", n)
	}
	if len(l.names) != 0 {
		t.Errorf("units named only by their IDs are listed: %q", l.names)
	}
	named := lone()
	named.Units[0].Name = "Mounted knights"
	named.Units = append(named.Units, footprint("Sp1", 0, 10, 10, 0, 2, 1, 1, 1))
	named.Units[1].Name = "Spearmen"
	_, nl := picture(t, named)
	if want := []string{"side 0: Sp1 Spearmen", "side 1: Far Mounted knights"}; !reflect.DeepEqual(nl.names, want) {
		t.Errorf("the units' names: %q, want %q", nl.names, want)
	}
	sample := legendItems(sampleScene(), l)
	if len(sample) != 2+1+1+4+6 {
		t.Errorf("the sample's legend has %d items, want the sides, front, highlight, 4 terrains and 6 marks", len(sample))
	}
}

// Terrain and marks stop at the table's edge: a range's circle or an
// area reaching past it leaves the margin as it was (R584). The drawing
// before the PNG's palette is compared: the palette of the commonest
// colours may round an anti-aliased pixel of the ruler's text otherwise
// when the picture has other colours.
func TestClippedToTable(t *testing.T) {
	plain := lone()
	over := lone()
	over.Areas = []Area{{Kind: "higher", Shape: []Vec{{-10, -10}, {10, -10}, {10, 10}, {-10, 10}}}}
	over.Marks = []Mark{{Kind: "range", Side: 0, Path: []Vec{{24, 2}, {24, 14}}}}
	a, err := paint(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := paint(over)
	if err != nil {
		t.Fatal(err)
	}
	_, l := picture(t, over)
	if got := px(b, l, Vec{5, 5}); got != higherFill {
		t.Fatalf("the area on the table is %v, not higher ground", got)
	}
	if got := px(b, l, Vec{24, 14}); got == cloth {
		t.Fatalf("the range's circle is not drawn on the table")
	}
	// The legend gains entries for higher ground and the range: compare
	// down to its rows.
	diff := 0
	for y := 0; y < int(l.legendY)+scaleRow; y++ {
		for x := 0; x < a.Bounds().Dx(); x++ {
			inTable := float64(x) >= l.ox && float64(x) < l.ox+float64(l.tw) && float64(y) >= l.oy && float64(y) < l.oy+float64(l.th)
			if !inTable && a.At(x, y) != b.At(x, y) {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d pixels outside the table changed", diff)
	}
}
