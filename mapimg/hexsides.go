package mapimg

import (
	"image/color"

	"herald/engine"
)

// drawHexsides draws the features of the hexsides: water as blue lines
// along the side, hedges dashed, roads from centre to centre, slopes as a
// brown line with hachures on the high side (the side of Hexside.B).
func drawHexsides(c *canvas, l *layout, m *engine.Map) {
	for _, hs := range m.Hexsides {
		if !l.inWindow(hs.A) && !l.inWindow(hs.B) {
			continue
		}
		d, ok := m.Grid.DirTo(hs.A, hs.B)
		if !ok {
			continue
		}
		if hs.Feature == "road" {
			continue
		}
		a, b := l.side(hs.A, d)
		drawFeature(c, hs.Feature, a, b, l.centre(hs.B), l.size)
		if !c.drawn[symFeature+hs.Feature] {
			c.used(symFeature + hs.Feature)
		}
	}
	drawRoads(c, l, m)
}

// drawRoads draws every road's dark casing before any pale fill, so the
// joints between hexes show no seams. A road crosses its hexside, joining
// the two hexes' centres.
func drawRoads(c *canvas, l *layout, m *engine.Map) {
	for _, pass := range []struct {
		width float64
		col   color.RGBA
	}{{0.13, roadEdge}, {0.07, roadFill}} {
		for _, hs := range m.Hexsides {
			if hs.Feature != "road" {
				continue
			}
			a, b := l.centre(hs.A), l.centre(hs.B)
			switch {
			case !l.inWindow(hs.A) && !l.inWindow(hs.B):
				continue
			case !l.inWindow(hs.B):
				b = a.lerp(b, 0.5) // the road leaves the window at the hexside
			case !l.inWindow(hs.A):
				a = a.lerp(b, 0.5)
			}
			c.roundLine(a, b, l.size*pass.width, pass.col)
			c.used(symFeature + "road")
		}
	}
}

var roadEdge, roadFill = rgb(0x6b5536), rgb(0xf3dfb0)

// drawFeature draws one hexside feature along a-b for hexes of size s;
// high is a point on the high side of a slope. The legend draws its
// samples with it too.
func drawFeature(c *canvas, feature string, a, b, high pt, s float64) {
	switch feature {
	case "river":
		c.line(a, b, s*0.2, rgb(0x2f6db5))
	case "stream":
		c.line(a, b, s*0.1, rgb(0x4a8fd6))
	case "hedge":
		c.dashed(a, b, s*0.08, s*0.12, rgb(0x2e5b2a))
	case "road":
		// A cased road, pale with dark edges, as printed maps draw them:
		// it reads apart from the slopes' brown.
		c.roundLine(a, b, s*0.13, roadEdge)
		c.roundLine(a, b, s*0.07, roadFill)
	case "slope":
		drawSlope(c, a, b, high, s)
	default:
		c.line(a, b, s*0.08, rgb(0x7a3a7a))
	}
}

// drawSlope: the line of the hexside and short ticks pointing up the
// slope, into the higher hex.
func drawSlope(c *canvas, a, b, high pt, s float64) {
	col := rgb(0x7b4a1e)
	c.line(a, b, s*0.07, col)
	mid := a.lerp(b, 0.5)
	in := high.sub(mid)
	in = in.scale(s * 0.18 / in.len())
	for _, t := range []float64{0.2, 0.5, 0.8} {
		p := a.lerp(b, t)
		c.line(p, p.add(in), s*0.05, col)
	}
}
