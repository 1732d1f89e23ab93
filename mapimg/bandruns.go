package mapimg

import (
	"encoding/binary"
	"image"
)

// The legend is some 45% of a mail map's pixels, and its anti-aliased
// text as many of the runs of one colour that quantize reads and counts
// as the map above it. Its lines are copied from the cache of lines
// drawn (legendcache.go), so each line's runs are read once, when it is
// drawn (bandRuns), and quantize takes a copied line's runs from there
// instead of reading its pixels again: the rows of a band copied at top
// are the band's pixels, then paper to the image's right edge. A colour's
// count is its pixels, however the runs are cut, so the palette and the
// indices are those of reading every pixel (TestCachesSamePixels,
// TestBandRunsAsRead).

// bandRuns are a band's runs of one colour, row by row, numbered in the
// band's own list of colours.
type bandRuns struct {
	colours []uint32 // by the band's number: the colour
	runs    []uint64 // number<<32 | length
	at      []int32  // by row, its first run; one more at the end
}

// readBandRuns reads a band's runs; none (nil runs) for a band with a
// colour that is not opaque, whose rows are then read as any others.
func readBandRuns(b *band) bandRuns {
	var br bandRuns
	number := map[uint32]uint32{}
	for row := range b.h {
		br.at = append(br.at, int32(len(br.runs)))
		px := b.pix[4*b.w*row : 4*b.w*(row+1)]
		for x := 0; x < len(px); {
			c, n := binary.LittleEndian.Uint32(px[x:]), uint32(1)
			for x += 4; x < len(px) && binary.LittleEndian.Uint32(px[x:]) == c; x += 4 {
				n++
			}
			if c>>24 != 0xff {
				return bandRuns{}
			}
			id, ok := number[c]
			if !ok {
				id = uint32(len(br.colours))
				number[c] = id
				br.colours = append(br.colours, c)
			}
			br.runs = append(br.runs, uint64(id)<<32|uint64(n))
		}
	}
	br.at = append(br.at, int32(len(br.runs)))
	return br
}

// placedBand is where a band was copied: the image's rows from to to are
// the band's rows from-top to to-top, paper to their right.
type placedBand struct {
	b             *band
	top, from, to int
}

// countPlaced reads and counts the runs of rows y0 to y1 of an image
// with bands placed in it, in the order of their rows (scan): a band's
// rows take its runs, the others are read; false if a pixel is not
// opaque.
func (t *colourTable) countPlaced(img *image.RGBA, y0, y1 int, placed []placedBand) bool {
	t.runs = t.runs[:0]
	y := y0
	for _, p := range placed {
		from, to := max(p.from, y), min(p.to, y1)
		if from >= to || p.b.runs.at == nil {
			continue
		}
		if !t.scan(img, y, from) {
			return false
		}
		t.bandRows(img, p, from, to)
		y = to
	}
	return t.scan(img, y, y1)
}

// bandRows appends the runs of the image's rows from to to, those of the
// band placed there, numbered and counted.
func (t *colourTable) bandRows(img *image.RGBA, p placedBand, from, to int) {
	b, w := p.b, img.Bounds().Dx()
	ids := make([]uint32, len(b.runs.colours))
	for i, c := range b.runs.colours {
		ids[i] = t.id(c)
	}
	var paper uint32 // the number of the paper right of the band
	if b.w < w {
		paper = t.id(pixel(img.Pix[img.PixOffset(0, from):], b.w))
	}
	for y := from; y < to; y++ {
		row := y - p.top
		for _, r := range b.runs.runs[b.runs.at[row]:b.runs.at[row+1]] {
			id, n := ids[r>>32], uint32(r)
			t.counts[id] += n
			t.runs = append(t.runs, uint64(id)<<32|uint64(n))
		}
		if b.w < w {
			t.counts[paper] += uint32(w - b.w)
			t.runs = append(t.runs, uint64(paper)<<32|uint64(w-b.w))
		}
	}
}
