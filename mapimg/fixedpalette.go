package mapimg

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"image"
	"image/color"
	"slices"
	"sync"
	"sync/atomic"

	"herald/engine"
	"herald/engine/hex"
)

// A mail's map used to choose its palette from its own pixels: count
// every colour, keep the 256 most frequent, find the nearest of them for
// the thousands of others, then write each pixel's index. Every pixel
// was read and written each time, though most of a map is its ground and
// its legend, the same from one mail to the next.
//
// A battle's mail maps now share one palette (battlePalette), taken
// from reference pictures of the battle (references): its whole field at
// the opening, with a legend that keys every symbol the maps can show,
// and its units in each state. The palette is the colours the drawing
// lays whole in them, then their most frequent blends (choose). A
// colour's index is then the same in every map of the battle and is
// remembered (colourIndex); the ground keeps its rows of indices, and so
// does each cached legend line, and a map's pixels are read only where
// they differ from its ground's (quantizeFixed). The same state gives
// the same bytes: the palette depends on the battle only, whatever the
// caches hold (TestBattlePaletteSameWhateverTheCaches).
//
// A colour far from every entry, in an area of its own, is one the
// references do not show; a map with more than a few such pixels gets a
// palette of its own instead, as before (farPixels).

// battlePalette is a battle's fixed palette and what it remembers.
type battlePalette struct {
	colours []uint32 // RGBA words, as quantize reads them
	plte    color.Palette
	near    *nearest
	index   colourIndex
}

// farDistance is the squared RGB distance beyond which a colour is not
// one of the palette's own or a blend between them (16 a channel);
// farPixels is how many solid pixels of such colours a map may have
// before it gets a palette of its own.
const (
	farDistance = 3 * 16 * 16
	farPixels   = 16
)

var palettes = struct {
	sync.Mutex
	byKey map[[16]byte]*paletteOnce
}{byKey: map[[16]byte]*paletteOnce{}}

// paletteOnce is a battle's palette, made once however many maps of the
// battle want it at once.
type paletteOnce struct {
	once sync.Once
	p    *battlePalette
}

// palettesMax bounds the palettes kept, a few kilobytes and a table of
// 1 MiB each; a club runs a handful of battles.
const palettesMax = 32

// paletteFor is the battle's palette, made on first use (the maps that
// want it meanwhile wait for it); nil if its reference pictures cannot
// be drawn.
func paletteFor(sc *engine.Scenario) *battlePalette {
	key := battleKeys.get(sc, battleKey)
	palettes.Lock()
	e := palettes.byKey[key]
	if e == nil {
		if len(palettes.byKey) >= palettesMax {
			clear(palettes.byKey)
		}
		e = &paletteOnce{}
		palettes.byKey[key] = e
	}
	palettes.Unlock()
	e.once.Do(func() { e.p = newBattlePalette(sc) })
	return e.p
}

// battleKey is everything the reference pictures depend on: the map
// (mapSum) and the rest of the battle but its rule tables (its name in
// the legend's title, its sides, Commands, forces and special rules), so
// that a battle changed or parsed again gets its own palette. It is
// taken once a battle's address (digests.go).
func battleKey(sc *engine.Scenario) [16]byte {
	rest := *sc
	rest.Map, rest.Tables = engine.Map{}, nil
	js, err := json.Marshal(&rest)
	if err != nil { // no scenario fails to marshal; a key of the map alone would still do
		js = nil
	}
	ms := mapSums.get(&sc.Map, mapSum)
	h := fnv.New128a()
	h.Write(ms[:])
	h.Write(js)
	var k [16]byte
	h.Sum(k[:0])
	return k
}

// newBattlePalette draws the battle's reference pictures and takes
// their colours: first those laid whole somewhere (solids), the more
// often the earlier, then the most frequent of the others, 256 in all.
func newBattlePalette(sc *engine.Scenario) *battlePalette {
	t := getTable()
	defer tablePool.Put(t)
	solid, laid := map[uint32]int{}, map[uint32]bool{}
	for _, ref := range references(sc) {
		ref.opt.laid = laid
		img, err := Render(sc, ref.st, ref.opt)
		if err != nil || !t.scan(img, 0, img.Rect.Dy()) {
			return nil
		}
		countSolids(img, solid)
	}
	p := &battlePalette{colours: choose(t, solid, laid)}
	p.plte = make(color.Palette, len(p.colours))
	for i, c := range p.colours {
		p.plte[i] = color.RGBA{byte(c), byte(c >> 8), byte(c >> 16), 0xff}
	}
	p.near = newNearest(p.colours)
	p.index.init()
	for i, c := range p.colours {
		p.index.put(c, byte(i), false)
	}
	return p
}

// solidMin is how many pixels of a colour must be solid (solidAt) for it
// to be one the drawing lays whole, not the blend of an edge.
const solidMin = 4

// solidAt reports whether the pixel at x of row has the colour of the
// pixel right of it and of the one below (in below, nil for the last
// row): inside an area of one colour, which an edge's blend hardly ever
// is.
func solidAt(row, below []byte, x int) bool {
	c := binary.LittleEndian.Uint32(row[4*x:])
	return below != nil && 4*x+8 <= len(row) &&
		binary.LittleEndian.Uint32(row[4*x+4:]) == c && binary.LittleEndian.Uint32(below[4*x:]) == c
}

// countSolids counts the solid pixels of each colour of img in solid,
// a run of them at a time.
func countSolids(img *image.RGBA, solid map[uint32]int) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	last, n := uint32(0), 0
	for y := 0; y+1 < h; y++ {
		row, below := img.Pix[y*img.Stride:y*img.Stride+4*w], img.Pix[(y+1)*img.Stride:]
		for x := 0; x+1 < w; x++ {
			if !solidAt(row, below, x) {
				continue
			}
			if c := binary.LittleEndian.Uint32(row[4*x:]); c != last {
				solid[last] += n
				last, n = c, 0
			}
			n++
		}
	}
	solid[last] += n
	delete(solid, 0)
}

// choose is the palette: the colours the drawing laid and those with
// solid pixels, the most solid first (then the smaller value), then the
// table's most frequent others. A colour laid may be solid in a map
// only, drawn larger there (a hatch's lines); one solid in the
// references only may come from the cached ground or legend, not drawn
// then.
func choose(t *colourTable, solid map[uint32]int, laid map[uint32]bool) []uint32 {
	var pal []uint32
	for c, n := range solid {
		if n >= solidMin || laid[c] {
			pal = append(pal, c)
		}
	}
	for c := range laid {
		if solid[c] == 0 {
			pal = append(pal, c)
		}
	}
	slices.SortFunc(pal, func(a, b uint32) int {
		if solid[a] != solid[b] {
			return solid[b] - solid[a]
		}
		return cmp.Compare(a, b)
	})
	pal = pal[:min(len(pal), 256)]
	in := map[uint32]bool{}
	for _, c := range pal {
		in[c] = true
	}
	for _, c := range t.palette() { // the most frequent 256, in order
		if len(pal) == 256 {
			break
		}
		if !in[c] {
			pal = append(pal, c)
		}
	}
	return pal
}

// reference is a picture a battle's palette is taken from.
type reference struct {
	st  *engine.State
	opt Options
}

// references are the pictures of a battle whose colours its maps' are:
// the whole field at the opening, its legend keying every symbol; then
// every unit Disordered, then Retired, then eliminated where it stands
// (MarkGone), for the colours of those states in both armies' (the
// legend samples one army's).
func references(sc *engine.Scenario) []reference {
	whole := ForMail(nil) // the mails' hex size and width, uncropped
	whole.Crop, whole.keyAll = false, true
	open := engine.NewState(sc)
	refs := []reference{{open, whole}}
	for _, status := range []engine.Status{engine.Disordered, engine.Retired} {
		st := open.Clone()
		for i := range st.Units {
			st.Units[i].Status = status
		}
		refs = append(refs, reference{st, whole})
	}
	gone, st := whole, open.Clone()
	for i, u := range sc.Units {
		if us := open.Units[i]; !us.OffMap {
			gone.Marks = append(gone.Marks, Mark{Kind: MarkGone, Hexes: []hex.Hex{us.Hex}, Unit: u.ID})
			st.Units[i].Status = engine.Eliminated
		}
	}
	return append(refs, reference{st, gone})
}

// colourIndex remembers colours' palette indices, and whether each is
// far from the palette: a table of slots shared by the maps drawn at
// once, each slot a colour<<32 | 1<<16 | far<<8 | index, filled once
// (compare and swap) and never changed. Half full, it takes no more:
// the colours after are looked up in the palette each time.
type colourIndex struct {
	slots []atomic.Uint64
	used  atomic.Int32
}

// colourIndexBits is the log2 of the table's slots; a colour's first
// slot is the top bits of its Fibonacci hash.
const (
	colourIndexBits  = 17
	colourIndexSlots = 1 << colourIndexBits
)

func (x *colourIndex) init() { x.slots = make([]atomic.Uint64, colourIndexSlots) }

// get is colour c's slot, 0 if it has none.
func (x *colourIndex) get(c uint32) uint64 {
	for i := c * 0x9e3779b1 >> (32 - colourIndexBits); ; i = (i + 1) & (colourIndexSlots - 1) {
		s := x.slots[i].Load()
		if s == 0 || uint32(s>>32) == c {
			return s
		}
	}
}

func (x *colourIndex) put(c uint32, index byte, far bool) {
	if int(x.used.Load()) >= colourIndexSlots/2 {
		return
	}
	s := uint64(c)<<32 | 1<<16 | uint64(index)
	if far {
		s |= 1 << 8
	}
	for i := c * 0x9e3779b1 >> (32 - colourIndexBits); ; i = (i + 1) & (colourIndexSlots - 1) {
		if x.slots[i].CompareAndSwap(0, s) {
			x.used.Add(1)
			return
		}
		if uint32(x.slots[i].Load()>>32) == c {
			return // put by another map meanwhile
		}
	}
}

// lookup is colour c's index, and whether it is far from the palette.
func (p *battlePalette) lookup(c uint32) (byte, bool) {
	if s := p.index.get(c); s != 0 {
		return byte(s), s&(1<<8) != 0
	}
	i := p.near.find(c)
	far := distance2(c, p.colours[i]) > farDistance
	p.index.put(c, byte(i), far)
	return byte(i), far
}

// distance2 is the squared RGB distance of two colours read as words.
func distance2(a, b uint32) int {
	dr, dg, db := int(a&0xff)-int(b&0xff), int(a>>8&0xff)-int(b>>8&0xff), int(a>>16&0xff)-int(b>>16&0xff)
	return dr*dr + dg*dg + db*db
}

// indexRow writes the indices of a row of RGBA pixels to dst, and
// reports how many of its pixels are solid (solidAt, below the next
// row's pixels or nil) in a colour far from the palette, or -1 for a
// pixel that is not opaque. Only those count against the palette: an
// edge's blend far from every entry becomes the nearest, as any palette
// does with blends.
func (p *battlePalette) indexRow(src, below, dst []byte) int {
	far := 0
	last, li, lf := uint32(0), byte(0), false
	for x := range dst {
		c := binary.LittleEndian.Uint32(src[4*x:])
		if c != last {
			if c>>24 != 0xff {
				return -1
			}
			last = c
			li, lf = p.lookup(c)
		}
		dst[x] = li
		if lf && solidAt(src[:4*len(dst)], below, x) {
			far++
		}
	}
	return far
}

// indexed are an image's rows of indices in one palette, kept with a
// ground or a legend line: made on first use, by whichever map needs
// them first. ok is false when the image has colours far from the
// palette, or not opaque.
type indexed struct {
	pal *battlePalette
	pix []byte
	ok  bool
}

// indexings are an image's indexed, one for each palette it was needed
// in (a legend line or a ground may be in maps of several battles).
type indexings struct {
	sync.Mutex
	l []*indexed
}

// in gives img's indices in palette p, made now if they were not.
func (s *indexings) in(img *image.RGBA, p *battlePalette) *indexed {
	s.Lock()
	defer s.Unlock()
	for _, ix := range s.l {
		if ix.pal == p {
			return ix
		}
	}
	if len(s.l) >= palettesMax {
		s.l = s.l[:0]
	}
	ix := indexImage(img, p)
	s.l = append(s.l, ix)
	return ix
}

// indexImage is img's indices in palette p.
func indexImage(img *image.RGBA, p *battlePalette) *indexed {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	ix := &indexed{pal: p, pix: make([]byte, w*h), ok: true}
	far := 0
	for y := range h {
		n := p.indexRow(img.Pix[y*img.Stride:], rowBelow(img, y), ix.pix[y*w:(y+1)*w])
		if n < 0 {
			ix.ok = false
			break
		}
		far += n
	}
	ix.ok = ix.ok && far < farPixels
	return ix
}

// quantizeFixed gives the canvas's pixels as indices into the battle's
// palette: the ground's rows where the map left them as the ground has
// them, compared a block of pixels at a time; each placed legend line's
// rows, and paper to their right; every other pixel looked up. It gives
// the legend lines' segments too. It reports false, for a palette of the
// map's own, when farPixels solid pixels or more are far from the
// palette or a pixel is not opaque.
func quantizeFixed(c *canvas, p *battlePalette, pix []byte) (*image.Paletted, []segmentAt, bool) {
	img := c.img
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if cap(pix) < w*h {
		pix = make([]byte, w*h)
	}
	out := &image.Paletted{Pix: pix[:w*h], Stride: w, Rect: image.Rect(0, 0, w, h), Palette: p.plte}
	var g *indexed
	gh := 0 // the ground's rows
	if c.ground != nil {
		if g = c.ground.indexed.in(c.ground.img, p); !g.ok {
			return nil, nil, false
		}
		gh = min(h, c.ground.img.Rect.Dy())
	}
	far := 0
	placed := c.legend
	for y := 0; y < h; y++ {
		for len(placed) > 0 && placed[0].to <= y {
			placed = placed[1:]
		}
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		dst := out.Pix[y*w : (y+1)*w]
		var n int
		switch {
		case len(placed) > 0 && placed[0].from <= y:
			n = bandRow(placed[0], y, p, dst)
		case y < gh:
			n = groundRow(c, y, g.pix[y*w:(y+1)*w], p, dst)
		case c.indexed && len(placed) > 0 && placed[0].from == y+1: // the canvas has not the line's pixels
			n = p.indexRow(row, nil, dst)
		default:
			n = p.indexRow(row, rowBelow(img, y), dst)
		}
		if n < 0 {
			return nil, nil, false
		}
		if far += n; far >= farPixels {
			return nil, nil, false
		}
	}
	return out, legendSegments(c.legend, p, out), true
}

// legendSegments are the segments of the legend lines' rows, each
// kept with its line (segments.go).
func legendSegments(placed []placedBand, p *battlePalette, out *image.Paletted) []segmentAt {
	src := indexRows(out)
	var segs []segmentAt
	for _, pb := range placed {
		if s := pb.b.segmentOf(p, src, pb.from, pb.to, pb.from-pb.top, pb.to-pb.top); s != nil {
			segs = append(segs, segmentAt{pb.from, pb.to, s})
		}
	}
	return segs
}

// rowBelow is the pixels of the row below y, nil for the last.
func rowBelow(img *image.RGBA, y int) []byte {
	if y+1 >= img.Rect.Dy() {
		return nil
	}
	return img.Pix[(y+1)*img.Stride:]
}

// groundBlock is how many pixels are compared with the ground's at once.
const groundBlock = 32

// groundRow writes the indices of row y of the ground's rows: the
// ground's where its pixels are the ground's, a block at a time, else
// looked up. A block of a tile never copied (groundtiles.go) is the
// ground's.
func groundRow(c *canvas, y int, gix []byte, p *battlePalette, dst []byte) int {
	img, g := c.img, c.ground.img
	row, ground := img.Pix[y*img.Stride:y*img.Stride+4*len(dst)], g.Pix[y*g.Stride:]
	copied, copiedBelow := c.tiles.copiedIn(y), c.tiles.copiedIn(y+1)
	if copied == nil && string(row) == string(ground[:len(row)]) {
		copy(dst, gix)
		return 0
	}
	below := rowBelow(img, y)
	far := 0
	for x := 0; x < len(dst); x += groundBlock {
		e := min(x+groundBlock, len(dst))
		if copied != nil && !copied[x/groundBlock] || string(row[4*x:4*e]) == string(ground[4*x:4*e]) {
			copy(dst[x:e], gix[x:e])
			continue
		}
		var b []byte
		switch {
		case copiedBelow != nil && !copiedBelow[x/groundBlock]:
			b = g.Pix[(y+1)*g.Stride+4*x:] // the canvas has not the ground's pixels there
		case below != nil:
			b = below[4*x:]
		}
		n := p.indexRow(row[4*x:4*e], b, dst[x:e])
		if n < 0 {
			return -1
		}
		far += n
	}
	return far
}

// bandRow writes the indices of row y, a row of the legend line placed
// there: the line's own, then paper (band.copyTo).
func bandRow(pb placedBand, y int, p *battlePalette, dst []byte) int {
	b := pb.b
	ix := b.indexed.in(&image.RGBA{Pix: b.pix, Stride: 4 * b.w, Rect: image.Rect(0, 0, b.w, b.h)}, p)
	if !ix.ok {
		return -1
	}
	r := y - pb.top
	copy(dst, ix.pix[r*b.w:(r+1)*b.w])
	if b.w == len(dst) {
		return 0
	}
	i, _ := p.lookup(paperWord)
	fill(dst[b.w:], i)
	return 0
}
