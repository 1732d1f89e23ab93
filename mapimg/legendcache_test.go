package mapimg

import (
	"bytes"
	"testing"
)

// A legend whose line draws outside its band (an icon taller than the
// lead here) is drawn in place, lines over lines, as with the cache off;
// lines that keep to their bands are copied, and come out the same
// whether kept by an earlier, wider picture or drawn now.
func TestLegendBands(t *testing.T) {
	m := metricsFor(1.7)
	fs, err := newFaces(40, m.k)
	if err != nil {
		t.Fatal(err)
	}
	tall := icon{key: "tall", draw: func(c *canvas, p pt, k float64) {
		c.rect(p.X, p.Y-20*k, p.X+4*k, p.Y+40*k, inkColour)
	}}
	plain := legendLine{items: []legendItem{{icon: swatch(sideColours[0]), text: "English: 2 Flight Points"}, {icon: ringIcon, text: "Command that acted"}}}
	spills := legendLine{items: []legendItem{{icon: tall, text: "Too tall"}}}
	legend := func(w int, lines ...legendLine) []byte {
		c := newCanvas(w, int(legendHeight(lines, m))+20)
		drawLegend(c, lines, 10, fs, m)
		c.done()
		return c.img.Pix
	}
	for _, lines := range [][]legendLine{{plain, plain}, {plain, spills, plain}} {
		cachesOff(true)
		want := legend(600, lines...)
		cachesOff(false)
		legend(900, lines...) // kept from a wider picture
		if got := legend(600, lines...); !bytes.Equal(got, want) {
			t.Errorf("%d lines: the legend from the cache differs from the one drawn in place", len(lines))
		}
	}
	y := 10 + m.pad + 16*m.k + m.lead // the second line's baseline
	top, _ := lineBand(y, m)
	bands.RLock()
	defer bands.RUnlock()
	if b := bands.m[bandKey(spills, m, y-float64(top))]; b == nil || b.fits {
		t.Errorf("the line drawing outside its band: kept %+v, want kept as not fitting", b)
	}
	if len(bands.m) != 2 {
		t.Errorf("%d lines kept, want 2", len(bands.m))
	}
}
