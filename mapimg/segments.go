package mapimg

import "sync"

// In a battle's palette (fixedpalette.go) a legend line's rows are the
// same indices in every map of the battle of the same width: the line's
// own, then paper to the right edge. Their deflate stream is then
// the same too, and is kept with the line (segment): a mail map's
// legend, some 45% of its pixels, is compressed once a line and width,
// not once a map. A segment is compressed on its own rows only (no match
// reaches into the rows before it), ends on a whole byte like a strip
// (compressStrips), and keeps its rows' Adler-32 for the stream's.

// segment is the deflate stream of some rows and their Adler-32.
type segment struct {
	stream []byte
	sum    adler
}

// segmentAt is a segment that is the image's rows y0 to y1.
type segmentAt struct {
	y0, y1 int
	seg    *segment
}

// keptSegment is a band's segment, and what its rows depend on: the
// palette (the band's indices and the paper's right of it), the image's
// width and the band's rows r0 to r1 placed.
type keptSegment struct {
	pal    *battlePalette
	w      int
	r0, r1 int
	seg    *segment
}

// bandSegments are the segments kept with a band: a few, for the widths
// of a battle's crops and the palettes of its battles; the oldest goes
// first.
type bandSegments struct {
	sync.Mutex
	l []keptSegment
}

const segmentsPerBand = 8

// segmentOf is the segment of rows y0 to y1 of the index rows src, band
// b's rows r0 to r1 and paper right of them in palette p (bandRow):
// kept, or compressed now and kept.
func (b *band) segmentOf(p *battlePalette, src rows, y0, y1, r0, r1 int) *segment {
	k := keptSegment{pal: p, w: src.w, r0: r0, r1: r1}
	b.segments.Lock()
	for _, s := range b.segments.l {
		if s.pal == k.pal && s.w == k.w && s.r0 == k.r0 && s.r1 == k.r1 {
			b.segments.Unlock()
			return s.seg
		}
	}
	b.segments.Unlock()
	own := rows{pix: src.pix[y0*src.stride:], stride: src.stride, w: src.w, h: y1 - y0, size: 1, bpp: 1}
	var d deflater
	if !d.compress(own, 0, 0, own.h, false) {
		return nil
	}
	k.seg = &segment{stream: d.out, sum: d.sum}
	b.segments.Lock()
	defer b.segments.Unlock()
	if len(b.segments.l) >= segmentsPerBand {
		b.segments.l = b.segments.l[1:]
	}
	b.segments.l = append(b.segments.l, k)
	return k.seg
}
