// Package wrap breaks text into lines that fit a width in a font: the
// legends and titles of the maps (mapimg, mapimg/tabletop).
package wrap

import (
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Lines breaks s into lines no wider than width pixels in face: a word
// joins the line while the line with it, measured whole as
// font.MeasureString measures it, fits; a word wider than width has a
// line of its own. Each word is measured once, continuing the line's
// sum (widthSum), not the line again for every word: a legend's long
// lines were half the time a map's layout took.
func Lines(face font.Face, s string, width float64) []string {
	var lines []string
	cur, sum := "", widthSum{face: face, prev: -1}
	for _, word := range strings.Fields(s) {
		if cur == "" {
			cur = word
			sum.add(word)
			continue
		}
		try := sum
		try.add(" ")
		try.add(word)
		if float64(try.w)/64 > width {
			lines = append(lines, cur)
			cur, sum = word, widthSum{face: face, prev: -1}
			sum.add(word)
			continue
		}
		cur, sum = cur+" "+word, try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// widthSum is font.MeasureString taken a piece at a time: the advances
// of the glyphs so far and the kerning between each and the one before.
type widthSum struct {
	face font.Face
	w    fixed.Int26_6
	prev rune // the last glyph's rune, -1 before the first
}

func (m *widthSum) add(s string) {
	for _, r := range s {
		if m.prev >= 0 {
			m.w += m.face.Kern(m.prev, r)
		}
		a, ok := m.face.GlyphAdvance(r)
		if !ok {
			continue // as MeasureString: no advance, and no kerning from it
		}
		m.w += a
		m.prev = r
	}
}
