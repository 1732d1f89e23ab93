package wrap

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// TestLinesMeasureTheLineWhole checks Lines, which measures each word
// once, against its definition: a word joins the line while the line
// with it, measured whole, fits.
func TestLinesMeasureTheLineWhole(t *testing.T) {
	texts := []string{
		"Next: waiting for the French to choose a Command or Standard for their Free Activation, or to Pass (4.1)",
		"Crécy, 26 August 1346 (Herald sample battle) — move 8: the battlefield as move 7 left it",
		"Off map: French MA5, MA6, DA1, King Philip.",
		"AV Wa To Ty ff fi LT — «quoted» ÆØÅ",
		"  spaces   between\twords\n",
		"",
		"Averyveryveryveryverylongwordthatfitsnowhere at all",
	}
	for _, face := range faces(t) {
		for _, s := range texts {
			for width := 0.0; width <= 900; width += 7 {
				got, want := Lines(face, s, width), whole(face, s, width)
				if !slices.Equal(got, want) {
					t.Fatalf("Lines(%q, %v) = %q, measured whole %q", s, width, got, want)
				}
			}
		}
	}
}

// TestLinesKern: a face's kerning counts between the words' glyphs and
// the space, as font.MeasureString counts it (the Go fonts have no
// kerning pairs, so kerned adds some).
func TestLinesKern(t *testing.T) {
	face := kerned{faces(t)[0]}
	s := "AV AV AV AV AV AV AV AV"
	for width := 0.0; width <= 300; width++ {
		if got, want := Lines(face, s, width), whole(face, s, width); !slices.Equal(got, want) {
			t.Fatalf("Lines(%q, %v) = %q, measured whole %q", s, width, got, want)
		}
	}
}

// whole is Lines's definition, measuring the line again for each word.
func whole(face font.Face, s string, width float64) []string {
	var lines []string
	var cur string
	for _, word := range strings.Fields(s) {
		try := strings.TrimSpace(cur + " " + word)
		if cur != "" && float64(font.MeasureString(face, try))/64 > width {
			lines = append(lines, cur)
			try = word
		}
		cur = try
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// faces are the Go fonts at the maps' sizes of legend and counter text.
func faces(t *testing.T) []font.Face {
	t.Helper()
	var out []font.Face
	for _, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []float64{8, 16.5, 24} {
			face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, face)
		}
	}
	return out
}

// kerned is a face that kerns "AV" and a space after "V" in by a few
// pixels.
type kerned struct{ font.Face }

func (k kerned) Kern(r0, r1 rune) fixed.Int26_6 {
	switch {
	case r0 == 'A' && r1 == 'V':
		return -fixed.I(3)
	case r0 == 'V' && r1 == ' ':
		return -fixed.I(2)
	}
	return 0
}
