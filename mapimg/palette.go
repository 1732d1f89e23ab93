package mapimg

import (
	"encoding/binary"
	"image"
	"image/color"
	"math/bits"
	"slices"
	"sync"
)

// quantize gives an opaque image's pixels as indices into a palette of
// at most 256 colours, for a PNG a third the size of an RGB one (a map
// is flat colours and the anti-aliased edges between them). An image
// of 256 colours or fewer is kept exactly; a larger one gets its 256
// most frequent colours (the more frequent first, then the smaller
// 0xAABBGGRR value) and every other colour becomes the palette's
// nearest (squared RGB distance, the earlier entry on a tie): an
// edge's blend snaps to a near colour, which at 1:1 cannot be told. The
// same image gives the same palette and indices. It reports false for
// an image that is not opaque (or is empty), left to the RGB encoder;
// pix is a buffer for the indices, used if large enough.
//
// A map is mostly long runs of one colour: the pixels are read once,
// a run at a time, each run's colour looked up once in a small table
// of its own (not a Go map) and the run kept, and the indices are
// written from the runs. The two halves of the rows are read, and
// written, at once on two cores, in tables of their own, the second
// half's colours then counted into the first's table.
func quantize(img *image.RGBA, pix []byte) (*image.Paletted, bool) {
	return quantizeWith(img, pix, nil)
}

// quantizeWith is quantize for an image with the legend's bands placed
// in it, whose runs it takes from the bands instead of reading their
// pixels (bandruns.go).
func quantizeWith(img *image.RGBA, pix []byte, placed []placedBand) (*image.Paletted, bool) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil, false
	}
	halves := min(h, 2)
	if w*h < 64<<10 {
		halves = 1
	}
	var ts [2]*colourTable
	var ok [2]bool
	both(halves, func(i int) {
		ts[i] = getTable()
		ok[i] = ts[i].countPlaced(img, b.Min.Y+h*i/halves, b.Min.Y+h*(i+1)/halves, placed)
	})
	defer func() {
		for _, t := range ts[:halves] {
			if len(t.keys) <= 1<<17 { // not one grown by a picture of a million colours
				tablePool.Put(t)
			}
		}
	}()
	t := ts[0]
	if !ok[0] || halves == 2 && !ok[1] {
		return nil, false
	}
	var ids []uint32 // by the second half's numbers, the first's
	if halves == 2 {
		ids = t.merge(ts[1])
	}
	pal := t.palette()
	index := t.assign(pal)
	if cap(pix) < w*h {
		pix = make([]byte, w*h)
	}
	p := &image.Paletted{Pix: pix[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h), Palette: make(color.Palette, len(pal))}
	for i, c := range pal {
		p.Palette[i] = color.RGBA{byte(c), byte(c >> 8), byte(c >> 16), 0xff}
	}
	mid := w * h // where the second half's indices start
	if halves == 2 {
		mid = w * (h / 2)
	}
	both(halves, func(i int) {
		if i == 0 {
			t.writeRuns(index, nil, p.Pix[:mid])
		} else {
			ts[1].writeRuns(index, ids, p.Pix[mid:])
		}
	})
	return p, true
}

// both calls f(0) and, if n is 2, f(1) on another goroutine, and waits.
func both(n int, f func(int)) {
	if n == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { f(1) })
	f(0)
	wg.Wait()
}

// colourTable numbers the colours of an image (an RGBA pixel read as a
// little-endian uint32, never 0 when opaque: 0 marks a free slot) in
// the order they are met, and counts their pixels: open addressing,
// linear probing, at most half full. runs are the image's runs of one
// colour, in order, each its colour's number and length.
type colourTable struct {
	keys    []uint32 // by slot: the colour
	ids     []uint32 // by slot: the colour's number
	colours []uint32 // by number
	counts  []uint32 // by number: its pixels
	runs    []uint64 // number<<32 | length
	shift   uint
}

var tablePool sync.Pool

// getTable is an empty table, with room for the 16,384 colours of a
// busy map.
func getTable() *colourTable {
	t, _ := tablePool.Get().(*colourTable)
	if t == nil {
		t = new(colourTable)
		t.init(1 << 15)
	}
	clear(t.keys)
	t.colours, t.counts, t.runs = t.colours[:0], t.counts[:0], t.runs[:0]
	return t
}

func (t *colourTable) init(size int) {
	t.keys, t.ids = make([]uint32, size), make([]uint32, size)
	t.shift = uint(32 - bits.Len(uint(size-1)))
}

// id is colour c's number, c numbered if it was not.
func (t *colourTable) id(c uint32) uint32 {
	mask := len(t.keys) - 1
	for i := int(c * 0x9e3779b1 >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case c:
			return t.ids[i]
		case 0:
			n := uint32(len(t.colours))
			t.keys[i], t.ids[i] = c, n
			t.colours, t.counts = append(t.colours, c), append(t.counts, 0)
			if 2*len(t.colours) > len(t.keys) {
				t.grow()
			}
			return n
		}
	}
}

func (t *colourTable) grow() {
	t.init(2 * len(t.keys))
	mask := len(t.keys) - 1
	for n, c := range t.colours {
		i := int(c * 0x9e3779b1 >> t.shift)
		for t.keys[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.ids[i] = c, uint32(n)
	}
}

// scan reads the runs of one colour of img's rows y0 to y1, appends
// them to the table's and counts their pixels, or reports false if a
// pixel is not opaque. Two passes: scanRuns finds the runs by their
// colours, then each run's colour is numbered in the table, the run
// keeping its number instead. Apart, each loop is simple: the scan does
// not wait on the table, and the table's lookups, almost all found in
// their first slot, do not wait on the scan's branches.
func (t *colourTable) scan(img *image.RGBA, y0, y1 int) bool {
	if y0 >= y1 {
		return true
	}
	first := len(t.runs)
	t.runs = scanRuns(img, y0, y1, t.runs)
	for i, r := range t.runs[first:] {
		c, n := uint32(r>>32), uint32(r)
		if c>>24 != 0xff {
			return false
		}
		var id uint32
		if slot := c * 0x9e3779b1 >> t.shift; t.keys[slot] == c { // most colours are in their first slot: no call
			id = t.ids[slot]
		} else {
			id = t.id(c)
		}
		t.counts[id] += n
		t.runs[first+i] = uint64(id)<<32 | uint64(n)
	}
	return true
}

// scanRuns appends to runs the runs of one colour of img's rows y0 to
// y1, each its colour<<32 | its length. Eight pixels are compared with
// the run's colour at a time, else two; failing both, each of the two
// pixels is a step without a branch (step): two thirds of a map's runs
// are a single pixel of an anti-aliased edge, whose ends no branch
// foresees. A run may go on into the next row.
func scanRuns(img *image.RGBA, y0, y1 int, runs []uint64) []uint64 {
	b := img.Bounds()
	w := b.Dx()
	last, n := pixel(img.Pix[img.PixOffset(b.Min.X, y0):], 0), uint32(0) // the run's colour and pixels so far
	k := len(runs)                                                       // runs kept, in buf
	buf := runs[:cap(runs)]
	for y := y0; y < y1; y++ {
		if len(buf)-k < w+1 { // a row's steps write at most w+1 runs ahead
			buf = slices.Grow(buf[:k], w+1)
			buf = buf[:cap(buf)]
		}
		o := img.PixOffset(b.Min.X, y)
		row := img.Pix[o : o+4*w : o+4*w]
		i := 0
		for ; i+8 <= len(row); i += 8 {
			two := uint64(last) | uint64(last)<<32
			if i+32 <= len(row) && sameWords(row[i:i+32], two) {
				n += 8
				i += 24
				continue
			}
			if binary.LittleEndian.Uint64(row[i:]) == two {
				n += 2
				continue
			}
			k, last, n = step(buf, k, last, n, binary.LittleEndian.Uint32(row[i:]))
			k, last, n = step(buf, k, last, n, binary.LittleEndian.Uint32(row[i+4:]))
		}
		if i < len(row) {
			k, last, n = step(buf, k, last, n, pixel(row, i/4))
		}
	}
	buf[k] = uint64(last)<<32 | uint64(n)
	return buf[:k+1]
}

// step goes on from a run of n pixels of colour last, kept or not in
// buf[k], to pixel c: the run is written at k whatever c is, and kept
// (k moves on) if c ends it.
func step(buf []uint64, k int, last, n, c uint32) (int, uint32, uint32) {
	buf[k] = uint64(last)<<32 | uint64(n)
	ends := 0
	if c != last {
		ends = 1
	}
	return k + ends, c, n&(uint32(ends)-1) + 1
}

// sameWords reports whether the 32 bytes of p are the word two, four
// times.
func sameWords(p []byte, two uint64) bool {
	p = p[:32]
	return (binary.LittleEndian.Uint64(p)^two)|(binary.LittleEndian.Uint64(p[8:])^two)|
		(binary.LittleEndian.Uint64(p[16:])^two)|(binary.LittleEndian.Uint64(p[24:])^two) == 0
}

// palette is the colours of the palette, the most frequent first. Only
// the colours at least as frequent as the 256th are sorted: those of
// the counts' binary orders (bits.Len) from the 256th's up.
func (t *colourTable) palette() []uint32 {
	var orders [33]int
	for _, n := range t.counts {
		orders[bits.Len32(n)]++
	}
	least, n := 32, orders[32]
	for least > 0 && n < 256 {
		least--
		n += orders[least]
	}
	byCount := make([]uint64, 0, n)
	for id, n := range t.counts {
		if bits.Len32(n) >= least { // fewer pixels sort after, then a larger value
			byCount = append(byCount, uint64(^n)<<32|uint64(t.colours[id]))
		}
	}
	slices.Sort(byCount)
	pal := make([]uint32, min(len(byCount), 256))
	for i := range pal {
		pal[i] = uint32(byCount[i])
	}
	return pal
}

// assign is each colour's palette index, by number: its own place, or
// the nearest entry's.
func (t *colourTable) assign(pal []uint32) []byte {
	index := make([]byte, len(t.colours))
	placed := make([]bool, len(t.colours))
	for i, c := range pal {
		id := t.id(c)
		index[id], placed[id] = byte(i), true
	}
	if len(pal) == len(t.colours) {
		return index
	}
	nf := newNearest(pal)
	for id, c := range t.colours {
		if !placed[id] {
			index[id] = byte(nf.find(c))
		}
	}
	return index
}

// merge counts the colours of u in t, and gives the numbers in t of
// u's colours.
func (t *colourTable) merge(u *colourTable) []uint32 {
	ids := make([]uint32, len(u.colours))
	for i, c := range u.colours {
		ids[i] = t.id(c)
		t.counts[ids[i]] += u.counts[i]
	}
	return ids
}

// writeRuns writes the runs' palette indices to pix, which they fill:
// index by the colours' numbers, or by their numbers in ids. A short run
// is one word's store, not a loop whose end the branch cannot foresee.
func (t *colourTable) writeRuns(index []byte, ids []uint32, pix []byte) {
	at := 0
	for _, r := range t.runs {
		n, id := int(uint32(r)), uint32(r>>32)
		if ids != nil {
			id = ids[id]
		}
		if n <= 8 && at+8 <= len(pix) { // a word, its excess written over by the runs after
			binary.LittleEndian.PutUint64(pix[at:], uint64(index[id])*0x0101010101010101)
		} else {
			fill(pix[at:at+n], index[id])
		}
		at += n
	}
}

// fill sets every byte of p to v, eight at a time.
func fill(p []byte, v byte) {
	vv := uint64(v) * 0x0101010101010101
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, vv)
		p = p[8:]
	}
	for i := range p {
		p[i] = v
	}
}

// nearest finds a colour's nearest palette entry. The entries are
// sorted by the sum of their channels, and the search goes out from the
// colour's sum both ways, stopping on a side where the sums differ by
// so much that no entry there can be as near as the best found (a
// difference s in the sum means a squared distance of at least s²/3).
type nearest struct {
	ents  []paletteEntry
	start [3*255 + 2]int32 // by sum: the first entry of that sum or more
}

type paletteEntry struct {
	sum, r, g, b, i int32
}

func newNearest(pal []uint32) *nearest {
	nf := &nearest{ents: make([]paletteEntry, len(pal))}
	for i, c := range pal {
		r, g, b := int32(c&0xff), int32(c>>8&0xff), int32(c>>16&0xff)
		nf.ents[i] = paletteEntry{r + g + b, r, g, b, int32(i)}
	}
	slices.SortFunc(nf.ents, func(a, b paletteEntry) int {
		if a.sum != b.sum {
			return int(a.sum - b.sum)
		}
		return int(a.i - b.i)
	})
	e := 0
	for s := range nf.start {
		for e < len(nf.ents) && int(nf.ents[e].sum) < s {
			e++
		}
		nf.start[s] = int32(e)
	}
	return nf
}

// find is the index of the entry nearest colour c, the earliest of
// those as near.
func (nf *nearest) find(c uint32) int {
	r, g, b := int32(c&0xff), int32(c>>8&0xff), int32(c>>16&0xff)
	sum := r + g + b
	best, bi := int32(1<<20), int32(len(nf.ents)) // above any distance, 3·255²
	try := func(e *paletteEntry) bool {
		if ds := e.sum - sum; ds*ds > 3*best {
			return false
		}
		dr, dg, db := e.r-r, e.g-g, e.b-b
		if d := dr*dr + dg*dg + db*db; d < best || d == best && e.i < bi {
			best, bi = d, e.i
		}
		return true
	}
	// Out from the colour's sum, a step each way in turn.
	hi := int(nf.start[sum])
	lo := hi - 1
	for lo >= 0 || hi < len(nf.ents) {
		if hi < len(nf.ents) && try(&nf.ents[hi]) {
			hi++
		} else {
			hi = len(nf.ents)
		}
		if lo >= 0 && try(&nf.ents[lo]) {
			lo--
		} else {
			lo = -1
		}
	}
	return int(bi)
}
