package mapimg

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"golang.org/x/image/font"

	"herald/engine"
)

// sideColours are the two armies: a red and a blue that stay apart for
// the common colour-blindnesses; every counter also carries its id.
var sideColours = [2]color.RGBA{rgb(0xb3342a), rgb(0x2c5aa0)}

// stripeColours mark the Commands of a side, in the scenario's order, as
// the printed counters' coloured stripes do.
var stripeColours = []color.RGBA{rgb(0xf2c14e), rgb(0xfafafa), rgb(0x6cc36c), rgb(0xf08a3c), rgb(0x6fd0e0), rgb(0xe58ac4)}

var (
	kingEdge      = rgb(0xd4a017)
	retiredColour = rgb(0x8f8a84)
	counterEdge   = rgb(0x1d1a16)
)

// stripe is the colour of a Command's stripe.
func stripe(sc *engine.Scenario, command string) color.RGBA {
	cs := sc.Command(command)
	if cs == nil {
		return stripeColours[0]
	}
	n := 0
	for _, c := range sc.Commands {
		if c.ID == command {
			break
		}
		if c.Side == cs.Side {
			n++
		}
	}
	return stripeColours[n%len(stripeColours)]
}

// drawUnits draws every combat unit on the map in the window.
func drawUnits(c *canvas, l *layout, sc *engine.Scenario, st *engine.State, fs *faces) {
	for i, spec := range sc.Units {
		u := st.Units[i]
		if u.OffMap || u.Status == engine.Eliminated || !l.inWindow(u.Hex) {
			continue
		}
		drawUnit(c, l, sc, spec, u, counterSquare(l, st, i), fs)
	}
}

// drawUnit draws one counter: a square turned to face its vertex, with
// the Command's stripe along its front edge; its type, id and printed
// ratings upright on it. A Disordered counter shows its pale, hatched back
// side, a "D" badge on its rear edge and its Disordered ratings (12.2); a
// Retired one is grey. Markers stack below it.
func drawUnit(c *canvas, l *layout, sc *engine.Scenario, spec engine.UnitSpec, u engine.UnitState, sq square, fs *faces) {
	p, h := sq.p, sq.h
	fill, ink := sideColours[spec.Side], color.RGBA{0xff, 0xff, 0xff, 0xff}
	r := spec.Ratings
	ma, shock := r.MA, r.Shock
	switch u.Status {
	case engine.Disordered:
		fill, ink = shade(fill, disorderedLight), counterEdge
		ma, shock = r.MADisordered, r.ShockDisordered
	case engine.Retired:
		fill = retiredColour
	}
	c.fill(sq.poly(1), counterEdge)
	c.fill(sq.poly(0.93), fill)
	c.fill(sq.band(0.93, 0.62), stripe(sc, spec.Command))
	c.used(symCounter)
	if !c.drawn[symStripe+spec.Command] {
		c.used(symStripe + spec.Command)
	}
	switch u.Status {
	case engine.Disordered:
		hatch(c, sq, shade(sideColours[spec.Side], 1.1))
		c.used(symDisordered)
	case engine.Retired:
		c.used(symRetired)
	}
	// The type line is the first to go when there is no room for it.
	if y := -h * 0.52; l.size >= minTypeHex && sq.fits(fs.small, spec.Type, y) {
		c.text(fs.small, spec.Type, p.add(pt{0, y}), ink)
	}
	c.text(fs.counterBold, spec.ID, p.add(pt{0, -h * 0.02}), ink)
	c.text(fs.counter, fmt.Sprintf("%d %+d", ma, shock), p.add(pt{0, h * 0.5}), ink)
	if u.Status == engine.Disordered {
		badge := sq.at(-1, 0)
		c.disc(badge, h*0.34, counterEdge)
		c.disc(badge, h*0.28, rgb(0xffffff))
		c.text(fs.small, "D", badge, counterEdge)
	}
	// The No Retreat marker stays all battle: a badge on the counter's
	// side rather than one more label under it (the legend names it).
	if u.NoRetreat {
		badge := noRetreatAt(p, h)
		c.disc(badge, h*0.4, counterEdge)
		c.disc(badge, h*0.31, rgb(0xffffff))
		c.text(fs.small, "NR", badge, counterEdge)
		c.used(symNoRetreat)
	}
	for i, m := range unitMarkers(u) {
		drawMarker(c, markerAt(sq, i), m, fs, rgb(0xffffff), counterEdge)
	}
}

// counterHalf is half a counter's side, in hex sizes: a counter covers
// about half the hex's width, as on the printed map.
const counterHalf = 0.5

// minTypeHex is the smallest hex whose counters show their unit type, in
// 8-pixel text.
const minTypeHex = 32

// disorderedLight is how much paler a Disordered counter's back side is.
const disorderedLight = 1.62

// unitMarkers are the marker counters the state puts on a unit, in the
// order they stack. Shield Wall, Continued Attack and Out of Command join
// here as the state comes to hold them.
func unitMarkers(u engine.UnitState) []string {
	var out []string
	if u.Status == engine.Retired {
		out = append(out, "RETIRED")
	}
	if u.ShieldWall {
		out = append(out, "SHIELD WALL")
	}
	if u.Schiltron {
		out = append(out, "SCHILTRON") // the components list's marker (ruling R89)
	}
	if u.Limbered {
		out = append(out, "LIMBERED") // B&R 2.2, 7.6: the counter's reverse
	}
	if u.FiredMarker {
		out = append(out, "FIRED") // Arquebus 11.5: a Mounted Arquebus or Crossbow that must reload
	}
	if len(u.EngagedWith) > 0 {
		out = append(out, "ENGAGED") // Arquebus 14.5
	}
	if u.OutOfCommand {
		out = append(out, "OUT OF CMD")
	}
	return out
}

// square is a counter's outline: centre, the unit vector it faces, and
// half its side.
type square struct {
	p, fwd pt
	h      float64
}

// at is the point f half-sides forward and s half-sides to the left.
func (q square) at(f, s float64) pt {
	side := pt{-q.fwd.Y, q.fwd.X}
	return q.p.add(q.fwd.scale(f * q.h)).add(side.scale(s * q.h))
}

func (q square) poly(k float64) []pt {
	return []pt{q.at(k, k), q.at(k, -k), q.at(-k, -k), q.at(-k, k)}
}

// band is the strip of the counter between f0 and f1 half-sides forward,
// across its whole width: the Command stripe at the front.
func (q square) band(f0, f1 float64) []pt {
	return []pt{q.at(f0, 0.93), q.at(f0, -0.93), q.at(f1, -0.93), q.at(f1, 0.93)}
}

// hatch rules the rear band of a Disordered counter with short diagonals:
// the back side then reads as different in grey print, not by lightness
// alone, and the text in the middle stays clean.
func hatch(c *canvas, q square, col color.RGBA) {
	c.fill(q.band(-0.62, -0.93), col)
	for s := -0.93; s < 0.93; s += 0.3 {
		c.line(q.at(-0.93, s), q.at(-0.62, math.Min(s+0.3, 0.93)), q.h*0.07, counterEdge)
	}
}

// fits reports whether upright text s, centred y pixels below the
// counter's centre, stays inside the turned square.
func (q square) fits(face font.Face, s string, y float64) bool {
	half := textWidth(face, s)/2 + 1
	capH := float64(face.Metrics().CapHeight) / 64
	for _, yy := range []float64{y - capH/2, y + capH/2} {
		for _, x := range []float64{-half, half} {
			d := pt{x, yy}
			side := pt{-q.fwd.Y, q.fwd.X}
			if math.Abs(d.X*q.fwd.X+d.Y*q.fwd.Y) > 0.9*q.h || math.Abs(d.X*side.X+d.Y*side.Y) > 0.9*q.h {
				return false
			}
		}
	}
	return true
}

// drawMarker is a small label box, like a marker counter on the stack.
func drawMarker(c *canvas, p pt, label string, fs *faces, bg, ink color.RGBA) {
	w := textWidth(fs.label, label) + 6
	hgt := l2(fs)
	c.rect(p.X-w/2, p.Y-hgt/2, p.X+w/2, p.Y+hgt/2, ink)
	c.rect(p.X-w/2+1, p.Y-hgt/2+1, p.X+w/2-1, p.Y+hgt/2-1, bg)
	c.text(fs.label, label, p, ink)
}

func l2(fs *faces) float64 { return float64(fs.label.Metrics().Height)/64 + 2 }

func shrinkPoly(poly []pt, centre pt, k float64) []pt {
	out := make([]pt, len(poly))
	for i, q := range poly {
		out[i] = centre.lerp(q, k)
	}
	return out
}

// drawLeaders draws leaders as small counters in the upper left of their
// hex, with the leader's name shortened; a King's has a gold edge.
func drawLeaders(c *canvas, l *layout, sc *engine.Scenario, st *engine.State, fs *faces) {
	for i, spec := range sc.Leaders {
		ls := st.Leaders[i]
		if ls.OffMap || !l.inWindow(ls.Hex) {
			continue
		}
		p := leaderAt(l, ls.Hex)
		name := short(spec.Name)
		w, h := textWidth(fs.small, name)/2+2, l.size*0.13
		edge := counterEdge
		c.used(symLeader)
		if spec.King {
			edge = kingEdge
			c.used(symKing)
		}
		c.rect(p.X-w-2, p.Y-h-2, p.X+w+2, p.Y+h+2, edge)
		c.rect(p.X-w, p.Y-h, p.X+w, p.Y+h, shade(sideColours[spec.Side], 0.7))
		c.text(fs.small, name, p, rgb(0xffffff))
	}
}

// drawStandards draws Standards as flags in the upper right of their hex.
func drawStandards(c *canvas, l *layout, sc *engine.Scenario, st *engine.State) {
	for i, spec := range sc.Standards {
		ss := st.Standards[i]
		if !l.inWindow(ss.Hex) {
			continue
		}
		drawFlag(c, standardAt(l, ss.Hex), l.size, sideColours[spec.Side])
		c.used(symStandard)
	}
}

// drawFlag plants a flag with its pole's top at p, for hexes of size s.
func drawFlag(c *canvas, p pt, s float64, col color.RGBA) {
	c.line(p, p.add(pt{0, s * 0.42}), s*0.05, counterEdge)
	flag := []pt{p, p.add(pt{s * 0.3, s * 0.08}), p.add(pt{0, s * 0.18})}
	c.fill(flag, col)
	c.outline(flag, 1, counterEdge)
}

// noRetreatAt is where a counter of centre p and half side h wears its No
// Retreat badge: at its upper right whatever its facing, clear of the
// Disordered badge on its rear side.
func noRetreatAt(p pt, h float64) pt { return p.add(pt{h, -h * 0.92}) }

// drawBombards draws each Bombard marker (Men of Iron 2.2) as a labelled
// box in the lower part of its hex, in its side's colour.
func drawBombards(c *canvas, l *layout, sc *engine.Scenario, fs *faces) {
	for _, b := range sc.Bombards {
		if !l.inWindow(b.Hex) {
			continue
		}
		drawMarker(c, bombardAt(l, b.Hex), "BOMBARD", fs, rgb(0xffffff), shade(sideColours[b.Side], 0.7))
		c.used(symBombard)
	}
}

// short is a leader's name in three letters: "Ale" for Alençon.
func short(name string) string {
	r := []rune(strings.TrimSpace(name))
	if len(r) > 3 {
		r = r[:3]
	}
	return string(r)
}
