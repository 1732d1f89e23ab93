package mapimg

import (
	"fmt"
	"image/color"
	"strings"

	"herald/engine"
)

// sideColours are the two armies: a red and a blue that stay apart for
// the common colour-blindnesses; every counter also carries its id.
var sideColours = [2]color.RGBA{rgb(0xb3342a), rgb(0x2c5aa0)}

// stripeColours mark the Commands of a side, in the scenario's order, as
// the printed counters' coloured stripes do.
var stripeColours = []color.RGBA{rgb(0xf2c14e), rgb(0xfafafa), rgb(0x6cc36c), rgb(0xf08a3c), rgb(0x6fd0e0), rgb(0xe58ac4)}

var (
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
		drawUnit(c, l, sc, spec, u, fs)
	}
}

// drawUnit draws one counter: a square turned to face its vertex, with
// the Command's stripe along its front edge; its id and printed ratings
// upright on it. A Disordered counter shows its pale back side and its
// Disordered ratings; a Retired one is grey with a RETIRED marker.
func drawUnit(c *canvas, l *layout, sc *engine.Scenario, spec engine.UnitSpec, u engine.UnitState, fs *faces) {
	p := l.centre(u.Hex)
	h := l.size * 0.5
	fwd := unit(60 * float64(u.Facing))
	side := pt{-fwd.Y, fwd.X}
	corner := func(f, s float64) pt { return p.add(fwd.scale(f * h)).add(side.scale(s * h)) }
	body := []pt{corner(1, 1), corner(1, -1), corner(-1, -1), corner(-1, 1)}
	fill, ink := sideColours[spec.Side], color.RGBA{0xff, 0xff, 0xff, 0xff}
	r := spec.Ratings
	ma, shock := r.MA, r.Shock
	switch u.Status {
	case engine.Disordered:
		fill, ink = shade(fill, 1.62), counterEdge
		ma, shock = r.MADisordered, r.ShockDisordered
	case engine.Retired:
		fill = retiredColour
	}
	c.fill(body, rgb(0x000000))
	c.fill(shrinkPoly(body, p, 0.93), fill)
	c.fill([]pt{corner(0.93, 0.93), corner(0.93, -0.93), corner(0.62, -0.93), corner(0.62, 0.93)}, stripe(sc, spec.Command))
	if u.Status == engine.Disordered {
		// The back side's mark: a band across the rear half.
		c.fill([]pt{corner(-0.1, 0.93), corner(-0.1, -0.93), corner(-0.35, -0.93), corner(-0.35, 0.93)}, rgb(0xc0392b))
	}
	c.text(fs.counterBold, spec.ID, p.add(pt{0, -h * 0.12}), ink)
	c.text(fs.counter, fmt.Sprintf("%d %+d", ma, shock), p.add(pt{0, h * 0.5}), ink)
	if u.Status == engine.Retired {
		drawMarker(c, p.add(pt{0, h * 0.95}), "RETIRED", fs, rgb(0xffffff), rgb(0x1d1a16))
	}
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
		p := l.centre(ls.Hex).add(pt{-l.size * 0.62, -l.size * 0.3})
		s := l.size * 0.2
		edge := counterEdge
		if spec.King {
			edge = rgb(0xd4a017)
		}
		c.rect(p.X-s-2, p.Y-s-2, p.X+s+2, p.Y+s+2, edge)
		c.rect(p.X-s, p.Y-s, p.X+s, p.Y+s, shade(sideColours[spec.Side], 0.75))
		c.text(fs.label, short(spec.Name), p, rgb(0xffffff))
	}
}

// drawStandards draws Standards as flags in the upper right of their hex.
func drawStandards(c *canvas, l *layout, sc *engine.Scenario, st *engine.State) {
	for i, spec := range sc.Standards {
		ss := st.Standards[i]
		if !l.inWindow(ss.Hex) {
			continue
		}
		p := l.centre(ss.Hex).add(pt{l.size * 0.45, -l.size * 0.45})
		s := l.size
		c.line(p, p.add(pt{0, s * 0.42}), s*0.05, counterEdge)
		c.fill([]pt{p, p.add(pt{s * 0.3, s * 0.08}), p.add(pt{0, s * 0.18})}, sideColours[spec.Side])
		c.outline([]pt{p, p.add(pt{s * 0.3, s * 0.08}), p.add(pt{0, s * 0.18})}, 1, counterEdge)
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
