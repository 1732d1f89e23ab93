package mapimg

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font"
)

// TestWrapTextMeasuresTheLineWhole checks wrapText, which measures each
// word once, against its definition: a word joins the line while the
// line with it, measured whole, fits.
func TestWrapTextMeasuresTheLineWhole(t *testing.T) {
	fs, err := newFaces(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"Next: waiting for the French to choose a Command or Standard for their Free Activation, or to Pass (4.1)",
		"Crécy, 26 August 1346 (Herald sample battle) — move 8: the battlefield as move 7 left it",
		"Off map: French MA5, MA6, DA1, King Philip.",
		"AV Wa To Ty ff fi LT — «quoted» ÆØÅ",
		"  spaces   between\twords\n",
		"",
		"Averyveryveryveryverylongwordthatfitsnowhere at all",
	}
	for _, face := range []font.Face{fs.legend, fs.legendBold, fs.small} {
		for _, s := range texts {
			for width := 0.0; width <= 900; width += 7 {
				got, want := wrapText(face, s, width), wrapWhole(face, s, width)
				if !slices.Equal(got, want) {
					t.Fatalf("wrapText(%q, %v) = %q, measured whole %q", s, width, got, want)
				}
			}
		}
	}
}

// wrapWhole is wrapText's definition, measuring the line again for each
// word.
func wrapWhole(face font.Face, s string, width float64) []string {
	var lines []string
	var cur string
	for _, word := range strings.Fields(s) {
		try := strings.TrimSpace(cur + " " + word)
		if cur != "" && textWidth(face, try) > width {
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
