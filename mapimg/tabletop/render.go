package tabletop

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"

	"herald/mapimg/wrap"
)

// The picture's sizes in pixels.
const (
	bestPPI    = 25   // pixels an inch, at most: a 48"×36" table is 1200×900 (R580)
	minPPI     = 4    // below this a stand is a few pixels: refused (R580)
	maxWidth   = 1400 // the whole picture, at most, when the table is wide
	maxTableH  = 1800 // the table's height on the picture, at most
	minWidth   = 560  // room for the title and legend under a small table
	marginL    = 44   // left of the table: the ruler's labels
	marginR    = 28
	pad        = 14
	titleLine  = 28
	legendRow  = 26
	nameRow    = 19
	scaleRow   = 38
	rulerBelow = 30 // from the table's bottom edge to the legend
)

// Colours.
var (
	page      = rgb(0xffffff)
	cloth     = rgb(0xeef1e0) // the table: open ground
	gridCol   = rgb(0xd5dac2)
	frameCol  = rgb(0x5a5f4c)
	ink       = rgb(0x1e1e1e)
	inkSoft   = rgb(0x55584a)
	yellow    = rgb(0xffd21a)
	retreatC  = rgb(0xe8780c)
	persCol   = rgb(0x5b2c83)
	sideFill  = [2]color.RGBA{rgb(0x4a78d8), rgb(0xd9473a)}
	sideDark  = [2]color.RGBA{rgb(0x1c3a85), rgb(0x7a1a12)}
	sideWords = [2]string{"blue", "red"}
)

// Render draws the scene as a PNG: the title, the table with its ruler
// and terrain, the units, the marks of the last block, and the legend.
// The same scene gives the same bytes. A scene that cannot be drawn
// (no table, no units, a stand without area, a mark without its points)
// is refused with an error naming what is wrong.
func Render(s Scene) ([]byte, error) {
	img, err := paint(s)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, paletted(img)); err != nil {
		return nil, fmt.Errorf("tabletop: encoding the picture: %w", err)
	}
	return b.Bytes(), nil
}

// paint checks s and draws it.
func paint(s Scene) (*image.RGBA, error) {
	if err := check(s); err != nil {
		return nil, err
	}
	fs, err := newFaces()
	if err != nil {
		return nil, fmt.Errorf("tabletop: loading the fonts: %w", err)
	}
	l, err := newLayout(s, fs)
	if err != nil {
		return nil, err
	}
	r := &renderer{c: newCanvas(l.w, l.h), l: l, fs: fs, s: s}
	r.c.rect(r.c.img.Bounds(), page)
	r.title()
	r.table()
	// Terrain and marks stop at the table's edge (a range's circle may
	// reach beyond it); units are drawn whole.
	r.c.clip = image.Rect(int(l.ox), int(l.oy), int(l.ox)+l.tw, int(l.oy)+l.th)
	for _, a := range s.Areas {
		r.area(a)
	}
	r.c.clip = image.Rectangle{}
	for _, a := range s.Areas {
		r.areaName(a)
	}
	r.ruler()
	for _, u := range s.Units {
		r.unit(u)
	}
	// Marks over the units: the translucent ones first, so that lines
	// read over them.
	r.c.clip = image.Rect(int(l.ox), int(l.oy), int(l.ox)+l.tw, int(l.oy)+l.th)
	for _, kinds := range [][]string{{"arc"}, {"range"}, {"move", "retreat", "charge", "shot"}} {
		for _, m := range s.Marks {
			if has(kinds, m.Kind) {
				r.mark(m)
			}
		}
	}
	r.c.clip = image.Rectangle{}
	for _, u := range s.Units {
		r.unitLabels(u)
	}
	for _, m := range s.Marks {
		r.markLabel(m)
	}
	r.legend()
	return r.c.img, nil
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Terrain kinds, by the names a Scene may use: the scene's own words and
// engine/strike/table's (R581).
var terrainKinds = map[string]string{
	"open": "open", "obstacle": "obstacle",
	"higher ground": "higher", "higher": "higher",
	"gentle slope": "slope", "slope": "slope",
}

// terrainOrder is the legend's order of terrain kinds, with their words.
var terrainOrder = []struct{ kind, text string }{
	{"open", "open ground"}, {"obstacle", "obstacle"}, {"higher", "higher ground"}, {"slope", "gentle slope"},
}

// markOrder is the legend's order of mark kinds, with their words.
var markOrder = []struct{ kind, text string }{
	{"move", "move"}, {"retreat", "retreat"}, {"charge", "charge"},
	{"shot", "shooting"}, {"arc", "arc of fire"}, {"range", "range"},
}

func finite(vs ...Vec) bool {
	for _, v := range vs {
		if math.IsNaN(v.X) || math.IsInf(v.X, 0) || math.IsNaN(v.Y) || math.IsInf(v.Y, 0) {
			return false
		}
	}
	return true
}

// area2 is twice the signed area of a polygon.
func area2(ps []Vec) float64 {
	a := 0.0
	for i, p := range ps {
		q := ps[(i+1)%len(ps)]
		a += p.X*q.Y - q.X*p.Y
	}
	return a
}

// minArea is the least area, in square inches, of a stand or a terrain
// area that is not degenerate.
const minArea = 1e-4

// check refuses a scene the picture cannot show (R583).
func check(s Scene) error {
	if !(s.Width > 0) || !(s.Height > 0) || math.IsInf(s.Width, 0) || math.IsInf(s.Height, 0) {
		return fmt.Errorf("tabletop: the table needs a width and a height over 0 inches, not %g×%g", s.Width, s.Height)
	}
	if scale(s.Width, s.Height) < minPPI {
		return fmt.Errorf("tabletop: a %g×%g inch table is too large to draw at %d pixels an inch or more", s.Width, s.Height, minPPI)
	}
	for i, a := range s.Areas {
		name := fmt.Sprintf("area %d (%q)", i+1, a.Name)
		if _, ok := terrainKinds[a.Kind]; !ok {
			return fmt.Errorf("tabletop: %s: terrain %q is not open, obstacle, higher ground or gentle slope", name, a.Kind)
		}
		if len(a.Shape) < 3 {
			return fmt.Errorf("tabletop: %s: a shape needs 3 corners or more, not %d", name, len(a.Shape))
		}
		if !finite(a.Shape...) {
			return fmt.Errorf("tabletop: %s: a corner is not a number: %v", name, a.Shape)
		}
		if math.Abs(area2(a.Shape))/2 < minArea {
			return fmt.Errorf("tabletop: %s has no area: its corners %v lie on a line", name, a.Shape)
		}
	}
	if len(s.Units) == 0 {
		return fmt.Errorf("tabletop: the scene has no units to draw")
	}
	for i, u := range s.Units {
		if strings.TrimSpace(u.ID) == "" {
			return fmt.Errorf("tabletop: unit %d (%q) has no ID to label it with", i+1, u.Name)
		}
		if u.Side != 0 && u.Side != 1 {
			return fmt.Errorf("tabletop: unit %s: side %d is neither 0 (blue) nor 1 (red)", u.ID, u.Side)
		}
		if !finite(u.Front) || math.IsNaN(u.Facing) || math.IsInf(u.Facing, 0) {
			return fmt.Errorf("tabletop: unit %s: its front %v or facing %g is not a number", u.ID, u.Front, u.Facing)
		}
		if len(u.Stands) == 0 {
			return fmt.Errorf("tabletop: unit %s has no stands on the table", u.ID)
		}
		for k, st := range u.Stands {
			if !finite(st[:]...) {
				return fmt.Errorf("tabletop: unit %s: stand %d: a corner is not a number: %v", u.ID, k+1, st)
			}
			if math.Abs(area2(st[:]))/2 < minArea {
				return fmt.Errorf("tabletop: unit %s: stand %d has no area: its corners %v lie on a line", u.ID, k+1, st)
			}
		}
	}
	for i, m := range s.Marks {
		name := fmt.Sprintf("mark %d (%s)", i+1, m.Kind)
		if m.Side != 0 && m.Side != 1 {
			return fmt.Errorf("tabletop: %s: side %d is neither 0 (blue) nor 1 (red)", name, m.Side)
		}
		if !finite(m.Path...) {
			return fmt.Errorf("tabletop: %s: a point is not a number: %v", name, m.Path)
		}
		n := len(m.Path)
		switch m.Kind {
		case "move", "retreat", "charge":
			if n < 2 {
				return fmt.Errorf("tabletop: %s: a path needs 2 points or more, not %d", name, n)
			}
			if pathLen(m.Path) == 0 {
				return fmt.Errorf("tabletop: %s: the path %v goes nowhere", name, m.Path)
			}
		case "shot":
			if n != 2 {
				return fmt.Errorf("tabletop: %s: a shot needs 2 points (the shooter's and the target's), not %d", name, n)
			}
			if pathLen(m.Path) == 0 {
				return fmt.Errorf("tabletop: %s: the shooter and the target are the same point %v", name, m.Path[0])
			}
		case "arc":
			if n < 3 {
				return fmt.Errorf("tabletop: %s: an arc needs its apex and 2 ends or more, not %d points", name, n)
			}
			if math.Abs(area2(m.Path))/2 < minArea {
				return fmt.Errorf("tabletop: %s has no area: its points %v lie on a line", name, m.Path)
			}
		case "range":
			if n != 2 {
				return fmt.Errorf("tabletop: %s: a range needs 2 points (the centre and one on the circle), not %d", name, n)
			}
			if pathLen(m.Path) == 0 {
				return fmt.Errorf("tabletop: %s: the circle round %v has no radius", name, m.Path[0])
			}
		default:
			return fmt.Errorf("tabletop: %s: the kind %q is not move, retreat, charge, shot, arc or range", name, m.Kind)
		}
	}
	return nil
}

func pathLen(ps []Vec) float64 {
	n := 0.0
	for i := 1; i < len(ps); i++ {
		n += math.Hypot(ps[i].X-ps[i-1].X, ps[i].Y-ps[i-1].Y)
	}
	return n
}

// scale is the pixels an inch for a width×height table: bestPPI, fewer
// when the picture would be wider than maxWidth or the table taller than
// maxTableH (R580).
func scale(w, h float64) int {
	return int(math.Floor(math.Min(bestPPI, math.Min((maxWidth-marginL-marginR)/w, maxTableH/h))))
}

// layout places the picture's parts.
type layout struct {
	ppi      float64
	height   float64 // the table's, in inches
	ox, oy   float64 // the table's top-left corner (X 0, Y height) on the image
	tw, th   int     // the table's size on the image
	w, h     int     // the image's
	title    []string
	legendY  float64
	rows     [][]legendItem
	names    []string // the units' names by side, wrapped
	scaleBar float64  // inches the scale bar spans
}

// at is the image point of a table point.
func (l *layout) at(v Vec) pt { return pt{l.ox + v.X*l.ppi, l.oy + (l.height-v.Y)*l.ppi} }

func (l *layout) ats(vs []Vec) []pt {
	ps := make([]pt, len(vs))
	for i, v := range vs {
		ps[i] = l.at(v)
	}
	return ps
}

// dir is the image direction of a compass facing.
func dir(facing float64) pt {
	r := facing * math.Pi / 180
	return pt{math.Sin(r), -math.Cos(r)}
}

func newLayout(s Scene, fs *faces) (*layout, error) {
	ppi := scale(s.Width, s.Height)
	l := &layout{ppi: float64(ppi), height: s.Height, ox: marginL}
	l.tw, l.th = int(math.Round(s.Width*l.ppi)), int(math.Round(s.Height*l.ppi))
	l.w = max(marginL+l.tw+marginR, minWidth)
	title := s.Title
	if strings.TrimSpace(title) == "" {
		title = "The table"
	}
	title += fmt.Sprintf(" — %g″ × %g″", s.Width, s.Height)
	l.title = wrap.Lines(fs.title, title, float64(l.w-2*pad))
	l.oy = float64(pad + len(l.title)*titleLine + 8)
	l.legendY = l.oy + float64(l.th) + rulerBelow
	l.scaleBar = 12
	if s.Width < 12 {
		l.scaleBar = 6
	}
	l.rows = flow(fs, legendItems(s, l), float64(l.w-2*pad))
	l.names = unitNames(s, fs, float64(l.w-2*pad))
	l.h = int(l.legendY) + scaleRow + len(l.rows)*legendRow + len(l.names)*nameRow + pad
	return l, nil
}

// renderer draws one scene.
type renderer struct {
	c  *canvas
	l  *layout
	fs *faces
	s  Scene
}

func (r *renderer) title() {
	for i, line := range r.l.title {
		r.c.textAt(r.fs.title, line, pt{pad, float64(pad + 20 + i*titleLine)}, ink)
	}
}

// table paints the cloth and its 6-inch grid.
func (r *renderer) table() {
	l := r.l
	x0, y0 := int(l.ox), int(l.oy)
	r.c.rect(image.Rect(x0, y0, x0+l.tw, y0+l.th), cloth)
	for x := 6.0; x < r.s.Width; x += 6 {
		p := l.at(Vec{x, 0})
		r.c.rect(image.Rect(int(math.Round(p.X)), y0, int(math.Round(p.X))+1, y0+l.th), gridCol)
	}
	for y := 6.0; y < r.s.Height; y += 6 {
		p := l.at(Vec{0, y})
		r.c.rect(image.Rect(x0, int(math.Round(p.Y)), x0+l.tw, int(math.Round(p.Y))+1), gridCol)
	}
}

// ruler frames the table with ticks every inch, longer every 6, labelled
// every 6 (or every 12, 18, … when the labels would crowd).
func (r *renderer) ruler() {
	l := r.l
	x0, y0, x1, y1 := int(l.ox), int(l.oy), int(l.ox)+l.tw, int(l.oy)+l.th
	for _, e := range []image.Rectangle{
		image.Rect(x0-1, y0-1, x1+1, y0), image.Rect(x0-1, y1, x1+1, y1+1),
		image.Rect(x0-1, y0, x0, y1), image.Rect(x1, y0, x1+1, y1),
	} {
		r.c.rect(e, frameCol)
	}
	every := 6 * math.Ceil(40/(6*l.ppi))
	tick := func(inch float64) int {
		switch {
		case math.Mod(inch, 6) == 0:
			return 7
		case l.ppi >= 8:
			return 3
		}
		return 0
	}
	for x := 0.0; x <= r.s.Width+1e-9; x++ {
		n := tick(x)
		px := int(math.Round(l.at(Vec{x, 0}).X))
		r.c.rect(image.Rect(px, y1+1, px+1, y1+1+n), frameCol)
		r.c.rect(image.Rect(px, y0-1-n, px+1, y0-1), frameCol)
		if math.Mod(x, every) == 0 {
			s := inches(x)
			r.c.textAt(r.fs.ruler, s, pt{float64(px) - textWidth(r.fs.ruler, s)/2, float64(y1 + 20)}, inkSoft)
		}
	}
	for y := 0.0; y <= r.s.Height+1e-9; y++ {
		n := tick(y)
		py := int(math.Round(l.at(Vec{0, y}).Y))
		r.c.rect(image.Rect(x0-1-n, py, x0-1, py+1), frameCol)
		r.c.rect(image.Rect(x1+1, py, x1+1+n, py+1), frameCol)
		if math.Mod(y, every) == 0 {
			s := inches(y)
			r.c.textAt(r.fs.ruler, s, pt{float64(x0) - 10 - textWidth(r.fs.ruler, s), float64(py) + 4}, inkSoft)
		}
	}
}

func inches(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%g″", v)
}

// Terrain colours: fill, outline (R581).
var (
	obstacleFill  = rgb(0x9cb77a)
	obstacleHatch = rgb(0x4d6b34)
	higherFill    = rgb(0xd8bd86)
	higherLine    = rgb(0x8a6a35)
	slopeFill     = rgb(0xeadcb6)
	slopeLine     = rgb(0xb59b66)
	openLine      = rgb(0xb9bfa3)
)

// drawTerrain paints a terrain polygon (image points) of a kind.
func drawTerrain(c *canvas, kind string, ps []pt) {
	switch terrainKinds[kind] {
	case "open":
		c.fill(ps, cloth)
		c.dashed(append(append([]pt{}, ps...), ps[0]), 1, 5, 4, openLine)
	case "obstacle":
		c.fill(ps, obstacleFill)
		c.hatch(ps, obstacleHatch, 7, 2)
		c.outline(ps, 2, obstacleHatch)
	case "higher":
		c.fill(ps, higherFill)
		c.outline(ps, 2.5, higherLine)
	case "slope":
		c.fill(ps, slopeFill)
		c.dashed(append(append([]pt{}, ps...), ps[0]), 1.5, 6, 4, slopeLine)
	}
}

func (r *renderer) area(a Area) { drawTerrain(r.c, a.Kind, r.l.ats(a.Shape)) }

// centroid is the centre of area of a polygon (the mean of its corners
// when it has none).
func centroid(ps []pt) pt {
	var a, cx, cy float64
	for i, p := range ps {
		q := ps[(i+1)%len(ps)]
		k := p.X*q.Y - q.X*p.Y
		a += k
		cx += (p.X + q.X) * k
		cy += (p.Y + q.Y) * k
	}
	if math.Abs(a) < 1e-9 {
		var m pt
		for _, p := range ps {
			m = m.add(p)
		}
		return m.scale(1 / float64(len(ps)))
	}
	return pt{cx / (3 * a), cy / (3 * a)}
}

func (r *renderer) areaName(a Area) {
	if strings.TrimSpace(a.Name) == "" {
		return
	}
	p := centroid(r.l.ats(a.Shape))
	r.c.haloText(r.fs.area, a.Name, centred(r.fs.area, a.Name, p), rgb(0x3a3a2a), rgb(0xf7f7ee))
}

// standPts are a stand's corners on the image.
func (r *renderer) standPts(st [4]Vec) []pt { return r.l.ats(st[:]) }

// frontEdges are the front edges (corners 0 to 1) of the unit's
// frontmost stands: those whose front edge's middle is, along the
// facing, within a tenth of an inch of the foremost (R582).
func frontEdges(u Unit) [][2]Vec {
	r := u.Facing * math.Pi / 180
	fwd := Vec{math.Sin(r), math.Cos(r)}
	along := func(st [4]Vec) float64 {
		m := Vec{(st[0].X + st[1].X) / 2, (st[0].Y + st[1].Y) / 2}
		return (m.X-u.Front.X)*fwd.X + (m.Y-u.Front.Y)*fwd.Y
	}
	best := math.Inf(-1)
	for _, st := range u.Stands {
		best = math.Max(best, along(st))
	}
	var out [][2]Vec
	for _, st := range u.Stands {
		if along(st) >= best-0.1 {
			out = append(out, [2]Vec{st[0], st[1]})
		}
	}
	return out
}

// drawStands paints stands (image corners) of a side: the highlight
// under them, the fill, the outline.
func drawStands(c *canvas, side int, stands [][]pt, highlight bool) {
	if highlight {
		for _, ps := range stands {
			c.fill(ps, yellow)
			c.outline(ps, 8, yellow)
		}
	}
	for _, ps := range stands {
		c.fill(ps, sideFill[side])
	}
	for _, ps := range stands {
		c.outline(ps, 1.5, sideDark[side])
	}
}

// facingArrow is the small arrow in front of a front edge's centre.
func facingArrow(c *canvas, front, d pt, ppi float64, col color.Color) {
	long := math.Max(9, 0.5*ppi)
	c.arrowhead(front.add(d.scale(2+long)), d, long, math.Max(9, 0.55*ppi), col)
}

func (r *renderer) unit(u Unit) {
	stands := make([][]pt, len(u.Stands))
	for i, st := range u.Stands {
		stands[i] = r.standPts(st)
	}
	drawStands(r.c, u.Side, stands, u.Highlight)
	for _, e := range frontEdges(u) {
		r.c.line(r.l.at(e[0]), r.l.at(e[1]), 4, sideDark[u.Side])
	}
	facingArrow(r.c, r.l.at(u.Front), dir(u.Facing), r.l.ppi, sideDark[u.Side])
}

// unitCentre is the mean of the unit's stands' corners on the image.
func (r *renderer) unitCentre(u Unit) pt {
	var m pt
	for _, st := range u.Stands {
		for _, v := range st {
			m = m.add(r.l.at(v))
		}
	}
	return m.scale(1 / float64(4*len(u.Stands)))
}

// unitLabels writes the unit's ID on it, and under the ID its state
// words and its Personality.
func (r *renderer) unitLabels(u Unit) {
	p := r.unitCentre(u)
	halo := color.RGBA{0xff, 0xff, 0xff, 0xff}
	r.c.haloText(r.fs.label, u.ID, centred(r.fs.label, u.ID, p), ink, halo)
	y := p.Y + 14
	var words []string
	for _, w := range u.Status {
		if w = strings.TrimSpace(w); w != "" {
			words = append(words, w)
		}
	}
	if len(words) > 0 {
		s := strings.Join(words, ", ")
		r.c.haloText(r.fs.status, s, centred(r.fs.status, s, pt{p.X, y}), rgb(0x8a1010), halo)
		y += 13
	}
	if name := strings.TrimSpace(u.Personality); name != "" {
		r.c.haloText(r.fs.status, name, centred(r.fs.status, name, pt{p.X, y}), persCol, halo)
	}
}

// markStyle draws a mark's line and head, in image points.
func drawMark(c *canvas, kind string, side int, ps []pt, ppi float64) {
	dark := sideDark[side]
	switch kind {
	case "arc":
		c.fill(ps, alpha(sideFill[side], 56))
		c.outline(ps, 1, alpha(dark, 150))
	case "range":
		c.ring(ps[0], ps[1].sub(ps[0]).len(), 2, 10, dark)
		c.disc(ps[0], 3, dark)
	case "move", "retreat":
		col := dark
		if kind == "retreat" {
			col = retreatC
		}
		end, d := trimmed(ps, 10)
		c.dashed(end, 3, 9, 6, col)
		c.disc(ps[0], 3.5, col)
		c.arrowhead(ps[len(ps)-1], d, 14, 13, col)
	case "charge":
		end, d := trimmed(ps, 16)
		c.polyline(end, 6, dark)
		c.arrowhead(ps[len(ps)-1], d, 20, 20, dark)
	case "shot":
		end, d := trimmed(ps, 8)
		c.line(end[0], end[1], 2, dark)
		c.disc(ps[0], 3, dark)
		c.arrowhead(ps[1], d, 11, 10, dark)
	}
}

// trimmed is the path shortened at its end by back pixels (for the
// arrowhead to end it cleanly), and the direction of its last segment.
func trimmed(ps []pt, back float64) ([]pt, pt) {
	out := append([]pt{}, ps...)
	// The last segment that goes somewhere gives the direction.
	i := len(out) - 1
	for i > 0 && out[i].sub(out[i-1]).len() == 0 {
		i--
	}
	if i == 0 {
		return out, pt{}
	}
	out = out[:i+1]
	d := out[i].sub(out[i-1])
	n := d.len()
	out[i] = out[i].sub(d.norm().scale(math.Min(back, n)))
	return out, d
}

func (r *renderer) mark(m Mark) { drawMark(r.c, m.Kind, m.Side, r.l.ats(m.Path), r.l.ppi) }

// labelAt is where a mark's label goes: beside the middle of a path, the
// middle of a shot, on a range's circle, beyond an arc's far side.
func labelAt(kind string, ps []pt) pt {
	switch kind {
	case "range":
		return ps[1]
	case "arc":
		far := ps[1:]
		var m pt
		for _, p := range far {
			m = m.add(p)
		}
		m = m.scale(1 / float64(len(far)))
		return m.add(m.sub(ps[0]).norm().scale(12))
	}
	total := 0.0
	for i := 1; i < len(ps); i++ {
		total += ps[i].sub(ps[i-1]).len()
	}
	half := total / 2
	for i := 1; i < len(ps); i++ {
		d := ps[i].sub(ps[i-1])
		n := d.len()
		if n >= half && n > 0 {
			mid := ps[i-1].lerp(ps[i], half/n)
			side := d.norm().perp()
			if side.Y > 0 { // above the line rather than below
				side = side.scale(-1)
			}
			off := 11.0
			if kind == "charge" { // clear of the thick line
				off = 17
			}
			return mid.add(side.scale(off))
		}
		half -= n
	}
	return ps[len(ps)-1]
}

func (r *renderer) markLabel(m Mark) {
	s := strings.TrimSpace(m.Label)
	if s == "" {
		return
	}
	col := sideDark[m.Side]
	if m.Kind == "retreat" {
		col = rgb(0x9a4a00)
	}
	p := labelAt(m.Kind, r.l.ats(m.Path))
	r.c.haloText(r.fs.markLabel, s, centred(r.fs.markLabel, s, p), col, page)
}
