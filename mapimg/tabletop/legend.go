package tabletop

import (
	"fmt"
	"image"
	"math"
	"strings"

	"herald/mapimg/wrap"
)

// legendItem is one entry of the legend: a small drawing, then words.
type legendItem struct {
	iconW float64
	icon  func(c *canvas, x, y float64) // draws in the iconW × iconH box whose top left is x, y
	text  string
}

const (
	iconH   = 16
	iconGap = 6  // between an icon and its words
	itemGap = 22 // between items
)

// legendItems are what the legend explains: the sides, the front and
// facing, the highlight, and the terrain and marks the scene has.
func legendItems(s Scene, l *layout) []legendItem {
	var items []legendItem
	for side := range 2 {
		name := strings.TrimSpace(s.Sides[side])
		if name == "" {
			name = "side " + fmt.Sprint(side)
		}
		items = append(items, legendItem{22, func(c *canvas, x, y float64) {
			drawStands(c, side, [][]pt{box(x+1, y+2, 20, 12)}, false)
		}, fmt.Sprintf("%s (%s)", name, sideWords[side])})
	}
	items = append(items, legendItem{26, func(c *canvas, x, y float64) {
		drawStands(c, 0, [][]pt{box(x+2, y+7, 22, 9)}, false)
		c.line(pt{x + 2, y + 7}, pt{x + 24, y + 7}, 4, sideDark[0])
		facingArrow(c, pt{x + 13, y + 7}, pt{0, -1}, 10, sideDark[0])
	}, "front edge and facing"})
	highlight := false
	for _, u := range s.Units {
		highlight = highlight || u.Highlight
	}
	if highlight {
		items = append(items, legendItem{26, func(c *canvas, x, y float64) {
			drawStands(c, 0, [][]pt{box(x+4, y+3, 18, 10)}, true)
		}, "acted or was hit in the last block"})
	}
	kinds := map[string]bool{}
	for _, a := range s.Areas {
		kinds[terrainKinds[a.Kind]] = true
	}
	for _, t := range terrainOrder {
		if kinds[t.kind] {
			items = append(items, legendItem{26, func(c *canvas, x, y float64) {
				ps := box(x+1, y+1, 24, 14)
				c.fill(ps, cloth)
				drawTerrain(c, t.kind, ps)
			}, t.text})
		}
	}
	for _, k := range markOrder {
		side := -1
		for _, m := range s.Marks {
			if m.Kind == k.kind {
				side = m.Side
				break
			}
		}
		if side < 0 {
			continue
		}
		var ps []pt
		w := 34.0
		switch k.kind {
		case "arc":
			ps = []pt{{2, 14}, {30, 2}, {30, 16}}
		case "range":
			w = 20
			ps = []pt{{10, 8}, {18, 8}}
		default:
			ps = []pt{{2, 8}, {32, 8}}
		}
		items = append(items, legendItem{w, func(c *canvas, x, y float64) {
			at := make([]pt, len(ps))
			for i, p := range ps {
				at[i] = p.add(pt{x, y})
			}
			drawMark(c, k.kind, side, at, l.ppi)
		}, k.text})
	}
	return items
}

// box is an axis-aligned rectangle's corners.
func box(x, y, w, h float64) []pt { return []pt{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}} }

// flow lays the items out in rows no wider than w.
func flow(fs *faces, items []legendItem, w float64) [][]legendItem {
	var rows [][]legendItem
	var row []legendItem
	x := 0.0
	for _, it := range items {
		iw := it.iconW + iconGap + textWidth(fs.legend, it.text)
		if len(row) > 0 && x+iw > w {
			rows, row, x = append(rows, row), nil, 0
		}
		row = append(row, it)
		x += iw + itemGap
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

// legend draws the scale bar and the legend's rows under the table.
func (r *renderer) legend() {
	l := r.l
	y := l.legendY
	// The scale bar: 6-inch segments, dark and light.
	x := float64(pad)
	seg := 6 * l.ppi
	r.c.textAt(r.fs.legend, "Scale", pt{x, y + 14}, ink)
	x += textWidth(r.fs.legend, "Scale") + 10
	for i := 0; float64(i)*6 < l.scaleBar; i++ {
		col := ink
		if i%2 == 1 {
			col = page
		}
		x0 := int(math.Round(x + float64(i)*seg))
		x1 := int(math.Round(x + float64(i+1)*seg))
		r.c.rect(image.Rect(x0, int(y)+4, x1, int(y)+12), col)
	}
	bx1 := int(math.Round(x + l.scaleBar*l.ppi))
	r.c.outline(box(x, y+4, float64(bx1)-x, 8), 1, ink)
	for v := 0.0; v <= l.scaleBar; v += 6 {
		s := inches(v)
		px := x + v*l.ppi
		r.c.textAt(r.fs.ruler, s, pt{px - textWidth(r.fs.ruler, s)/2, y + 27}, inkSoft)
	}
	note := fmt.Sprintf("%g pixels an inch; grid every 6″", l.ppi)
	r.c.textAt(r.fs.ruler, note, pt{float64(bx1) + 16, y + 13}, inkSoft)

	y += scaleRow
	for _, row := range l.rows {
		x := float64(pad)
		for _, it := range row {
			it.icon(r.c, x, y+(legendRow-iconH)/2-3)
			x += it.iconW + iconGap
			r.c.textAt(r.fs.legend, it.text, pt{x, y + 15}, ink)
			x += textWidth(r.fs.legend, it.text) + itemGap
		}
		y += legendRow
	}
	for _, line := range l.names {
		r.c.textAt(r.fs.ruler, line, pt{pad, y + 13}, ink)
		y += nameRow
	}
}

// unitNames are the legend's lines naming the units of each side, "Kn1
// Mounted knights", those whose name says more than their ID, wrapped to
// w.
func unitNames(s Scene, fs *faces, w float64) []string {
	var lines []string
	for side := range 2 {
		var names []string
		for _, u := range s.Units {
			name := strings.TrimSpace(u.Name)
			if u.Side == side && name != "" && name != strings.TrimSpace(u.ID) {
				names = append(names, strings.TrimSpace(u.ID)+" "+name)
			}
		}
		if len(names) == 0 {
			continue
		}
		label := strings.TrimSpace(s.Sides[side])
		if label == "" {
			label = "side " + fmt.Sprint(side)
		}
		lines = append(lines, wrap.Lines(fs.ruler, label+": "+strings.Join(names, "; "), w)...)
	}
	return lines
}
