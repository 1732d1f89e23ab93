package mapimg

import (
	"image"
	"image/color"
	"testing"

	"herald/engine"
	"herald/engine/hex"
)

// TestNumbersOnTheGround: the hex numbers are drawn with the ground; a
// number a tag covers is taken off it, even where the tag leaves part of
// its box bare (or, here, all of it); one an arrow crosses is written
// again on a patch of its hex's colour, one the ring of the Command that
// acted runs over is written again over the ring. Every shipped battle's
// mail maps after random blocks, and with the smallest hexes.
func TestNumbersOnTheGround(t *testing.T) {
	var hidden, crossed int
	everyBattle(t, 10, 5, func(name, where string, sc *engine.Scenario, before, after *engine.State, events []engine.Event) {
		// Small hexes leave no room for a tag between the numbers.
		marks := Marks(sc, before, after, events)
		small := ForMail(marks)
		small.HexSize = MinHexSize
		for _, opt := range []Options{ForMail(marks), small, {Marks: marks, HexSize: MinHexSize}} {
			h, c := numbersChecked(t, name+" "+where, sc, after, opt)
			hidden, crossed = hidden+h, crossed+c
		}
	})
	if hidden == 0 || crossed == 0 {
		t.Errorf("%d numbers hidden, %d crossed: the maps test neither", hidden, crossed)
	}
}

// numbersChecked checks the numbers of a map as TestNumbersOnTheGround
// says, and counts those hidden and crossed.
func numbersChecked(t *testing.T, name string, sc *engine.Scenario, after *engine.State, opt Options) (hidden, crossed int) {
	p, err := plan(sc, after, opt)
	if err != nil {
		t.Fatal(err)
	}
	// A tag goes over numbers only where nothing else has room, which no
	// shipped battle's blocks here come to: one number is hidden as that
	// tag would hide it, with no tag over it.
	for _, h := range sc.Map.Grid.Hexes() {
		if p.l.inWindow(h) && !p.scene.halo[h] && !p.scene.ringed[h] {
			p.scene.hidden[h.String()] = true
			break
		}
	}
	c := paint(sc, after, opt, p, nil)
	c.done()
	s := p.scene
	for _, h := range sc.Map.Grid.Hexes() {
		if !p.l.inWindow(h) || underLater(s, textBox(p.fs.label, h.String(), numberAt(p.l, h))) {
			continue
		}
		var bad int
		switch {
		case s.hidden[h.String()]:
			hidden++
			bad = numberPixels(c, p, &sc.Map, h, func(got, alone color.RGBA) bool { return got == hexFill(&sc.Map, h) })
		case s.halo[h]:
			crossed++
			bad = numberPixels(c, p, &sc.Map, h, func(got, alone color.RGBA) bool { return got == alone })
		case s.ringed[h]:
			crossed++
			bad = numberPixels(c, p, &sc.Map, h, func(got, alone color.RGBA) bool { return alone != labelColour || closeTo(got, alone) })
		}
		if bad > 0 {
			t.Errorf("%s, hex %g: number %s (hidden %v, crossed by an arrow %v, ringed %v): %d pixels wrong",
				name, opt.HexSize, h, s.hidden[h.String()], s.halo[h], s.ringed[h], bad)
		}
	}
	return hidden, crossed
}

// numberPixels counts the pixels of a hex number's glyphs, as it is
// drawn alone on its hex's colour, that are not as ok wants them.
func numberPixels(c *canvas, p *planned, m *engine.Map, h hex.Hex, ok func(got, alone color.RGBA) bool) int {
	b := textBox(p.fs.label, h.String(), numberAt(p.l, h))
	alone := numberAlone(p, m, h)
	bad := 0
	for y := int(b.Y0); y < int(b.Y1); y++ {
		for x := int(b.X0); x < int(b.X1); x++ {
			if a := alone.RGBAAt(x, y); a != hexFill(m, h) && !ok(c.img.RGBAAt(x, y), a) {
				bad++
			}
		}
	}
	return bad
}

// underLater reports whether anything drawn after the numbers, a counter
// or a tag, covers part of b.
func underLater(s *scene, b box) bool {
	for _, it := range s.items {
		if it.kind != boxHexNumber && it.kind != boxHead && it.b.overlaps(b) {
			return true
		}
	}
	for _, tg := range s.tags {
		if tg.b.overlaps(b) {
			return true
		}
	}
	return false
}

// numberAlone is a hex's number drawn alone on its hex's colour.
func numberAlone(p *planned, m *engine.Map, h hex.Hex) *image.RGBA {
	b := textBox(p.fs.label, h.String(), numberAt(p.l, h))
	c := newCanvas(int(b.X1)+2, int(b.Y1)+2)
	c.rect(0, 0, b.X1+2, b.Y1+2, hexFill(m, h))
	c.text(p.fs.label, h.String(), numberAt(p.l, h), labelColour)
	c.done()
	return c.img
}

// closeTo reports whether two colours are within 2 of each other in
// each channel: a glyph's pixel all but wholly covered blends a little of
// what is under it.
func closeTo(a, b color.RGBA) bool {
	d := func(x, y uint8) bool { return abs(int(x)-int(y)) <= 2 }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}
