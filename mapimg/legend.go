package mapimg

import (
	"fmt"
	"image/color"
	"strings"

	"golang.org/x/image/font"

	"herald/engine"
)

// legendLine is one line of the legend: text after optional swatches.
type legendLine struct {
	bold  bool
	items []legendItem
}

type legendItem struct {
	swatch *color.RGBA
	text   string
}

const (
	legendLead = 22 // pixels from one legend line to the next
	legendPad  = 10
)

// legend lays out, for an image width wide: the battle and move; each
// army with its colour and its Flight Points against its Flight Level (on
// one line when they fit); how elevation shows; and whom the game waits
// for.
func legend(sc *engine.Scenario, st *engine.State, fs *faces, width float64) []legendLine {
	var lines []legendLine
	for _, l := range wrapText(fs.legendBold, fmt.Sprintf("%s — after move %d", sc.Name, st.Move), width-2*legendPad) {
		lines = append(lines, legendLine{bold: true, items: []legendItem{{text: l}}})
	}
	var sides []legendItem
	for i := range sc.Sides {
		side := engine.Side(i)
		col := sideColours[i]
		sides = append(sides, legendItem{swatch: &col, text: fmt.Sprintf("%s: %d Flight Points, Flight Level %d",
			sc.SideName(side), engine.FlightPoints(sc, st, side), sc.Sides[i].FlightLevel)})
	}
	if itemsWidth(fs, sides) <= width-2*legendPad {
		lines = append(lines, legendLine{items: sides})
	} else {
		for _, it := range sides {
			lines = append(lines, legendLine{items: []legendItem{it}})
		}
	}
	next := "Next: " + engine.Waiting(sc, st)
	if st.Outcome != nil {
		next = "The battle is over: " + st.Outcome.Reason
	}
	for _, s := range []string{"Darker hexes are higher ground; hachures mark the high side of a slope.", next} {
		for _, l := range wrapText(fs.legend, s, width-2*legendPad) {
			lines = append(lines, legendLine{items: []legendItem{{text: l}}})
		}
	}
	return lines
}

func legendHeight(lines []legendLine) float64 { return float64(len(lines))*legendLead + 2*legendPad }

func itemsWidth(fs *faces, items []legendItem) float64 {
	w := 0.0
	for _, it := range items {
		w += textWidth(fs.legend, it.text) + 24 + 28
	}
	return w
}

// drawLegend draws the lines below the map, from top.
func drawLegend(c *canvas, lines []legendLine, top float64, fs *faces) {
	w := float64(c.img.Bounds().Dx())
	c.rect(0, top, w, top+legendHeight(lines), rgb(0xfbf7ea))
	c.line(pt{0, top}, pt{w, top}, 2, inkColour)
	y := top + legendPad + 16
	for _, l := range lines {
		x := float64(legendPad)
		face := fs.legend
		if l.bold {
			face = fs.legendBold
		}
		for _, it := range l.items {
			if it.swatch != nil {
				c.rect(x, y-13, x+18, y+3, *it.swatch)
				x += 24
			}
			x = c.textLeft(face, it.text, pt{x, y}, inkColour) + 28
		}
		y += legendLead
	}
}

// wrapText breaks s into lines that fit width.
func wrapText(face font.Face, s string, width float64) []string {
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
