package mapimg

import (
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
		a, b := l.side(hs.A, d)
		s := l.size
		switch hs.Feature {
		case "river":
			c.line(a, b, s*0.2, rgb(0x2f6db5))
		case "stream":
			c.line(a, b, s*0.1, rgb(0x4a8fd6))
		case "hedge":
			c.dashed(a, b, s*0.08, s*0.12, rgb(0x2e5b2a))
		case "road":
			c.line(l.centre(hs.A), l.centre(hs.B), s*0.09, rgb(0x8a6a3d))
		case "slope":
			drawSlope(c, l, a, b, l.centre(hs.B))
		default:
			c.line(a, b, s*0.08, rgb(0x7a3a7a))
		}
	}
}

// drawSlope: the line of the hexside and short ticks pointing up the
// slope, into the higher hex.
func drawSlope(c *canvas, l *layout, a, b, high pt) {
	col := rgb(0x7b4a1e)
	c.line(a, b, l.size*0.07, col)
	mid := a.lerp(b, 0.5)
	in := high.sub(mid)
	in = in.scale(l.size * 0.18 / in.len())
	for _, t := range []float64{0.2, 0.5, 0.8} {
		p := a.lerp(b, t)
		c.line(p, p.add(in), l.size*0.05, col)
	}
}
