package mapimg

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math/bits"
	"slices"
	"sync"
)

// encodePNG writes an opaque image as an 8-bit RGB PNG, the format
// image/png chooses for it, or with palette as an 8-bit indexed-colour
// PNG of its quantized colours (quantize), compressed for maps rather
// than for any image: the rows are left unfiltered and each run of
// bytes is matched against the pixel to its left and the row above
// only, the two repeats a map of flat colours is made of. That is a
// quarter of the time of png.Encoder at BestSpeed (which tries five
// filters on every row and hashes every byte) for a smaller file. The
// output is a standard PNG, the same bytes for the same image. An image
// with any transparency (never a map) goes to image/png.
func encodePNG(img *image.RGBA, period int, palette bool) ([]byte, error) {
	var q quantizer
	if palette {
		q = func(pix []byte) (*image.Paletted, []segmentAt, bool) {
			p, ok := quantize(img, pix)
			return p, nil, ok
		}
	}
	return encodeWith(img, period, q)
}

// quantizer gives an image's pixels as palette indices, written on pix
// if it is large enough (quantize, quantizeWith, quantizeFixed), and the
// rows whose deflate stream is kept (segments.go); false for an image
// left to the RGB encoder.
type quantizer func(pix []byte) (*image.Paletted, []segmentAt, bool)

// encodeWith is encodePNG with the palette's indices given by q, or RGB
// if q is nil.
func encodeWith(img *image.RGBA, period int, q quantizer) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return stdPNG(img)
	}
	src := rgbRows(img)
	var plte []byte
	var segs []segmentAt
	if q != nil {
		buf := getBuf(&indexPool, w*h)
		defer indexPool.Put(buf)
		if p, ss, ok := q(*buf); ok {
			*buf = p.Pix
			src = indexRows(p)
			plte = plteOf(p.Palette)
			segs = ss
		}
	}
	out := getBuf(&outPool, 64<<10)
	defer outPool.Put(out)
	o := (*out)[:0]
	o = append(o, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits per sample, RGB; deflate, no filter method, no interlace
	if plte != nil {
		ihdr[9] = 3 // 8-bit indices into PLTE
	}
	o = chunk(o, "IHDR", ihdr[:])
	if plte != nil {
		o = chunk(o, "PLTE", plte)
	}

	start := len(o)
	o = append(o, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	o = append(o, 0x78, 0x01) // zlib: deflate, 32 KiB window, fastest
	o, sum, ok := compressStrips(o, src, period, segs)
	if !ok {
		return stdPNG(img)
	}
	o = binary.BigEndian.AppendUint32(o, sum)
	binary.BigEndian.PutUint32(o[start:], uint32(len(o)-start-8))
	o = binary.BigEndian.AppendUint32(o, crc32.ChecksumIEEE(o[start+4:]))
	o = chunk(o, "IEND", nil)
	*out = o
	return bytes.Clone(o), nil
}

// rows are the pixels a deflater compresses: size bytes each in pix, of
// which the first bpp are written; an RGBA pixel is 4 bytes, its RGB
// written; a palette index 1, written.
type rows struct {
	pix          []byte
	stride, w, h int
	size, bpp    int
}

func rgbRows(img *image.RGBA) rows {
	b := img.Bounds()
	return rows{img.Pix[img.PixOffset(b.Min.X, b.Min.Y):], img.Stride, b.Dx(), b.Dy(), 4, 3}
}

func indexRows(p *image.Paletted) rows {
	b := p.Bounds()
	return rows{p.Pix[p.PixOffset(b.Min.X, b.Min.Y):], p.Stride, b.Dx(), b.Dy(), 1, 1}
}

// row is the pixels of row y.
func (r rows) row(y int) []byte {
	o := y * r.stride
	return r.pix[o : o+r.size*r.w : o+r.size*r.w]
}

// pixel is the pixel at x of a row, as a number.
func (r rows) pixel(row []byte, x int) uint32 {
	if r.size == 1 {
		return uint32(row[x])
	}
	return pixel(row, x)
}

// repeat is pixel c filling a word, for sameRun.
func (r rows) repeat(c uint32) uint64 {
	if r.size == 1 {
		return uint64(c) * 0x0101010101010101
	}
	return uint64(c) | uint64(c)<<32
}

// rowLen is the bytes of a row in the stream, its filter byte included.
func (r rows) rowLen() int { return 1 + r.bpp*r.w }

// plteOf is the PLTE chunk's data of a palette: RGB triples.
func plteOf(pal color.Palette) []byte {
	b := make([]byte, 0, 3*len(pal))
	for _, c := range pal {
		rgba := c.(color.RGBA)
		b = append(b, rgba.R, rgba.G, rgba.B)
	}
	return b
}

// compressStrips appends the deflate stream of the rows to o and
// reports its Adler-32. The rows are cut into pieces: segs, whose
// streams are kept (segments.go), and the rows between them, cut into
// strips (strips) compressed at once on the cores there are. Each
// piece's blocks end on a whole byte (an empty stored block, as a zlib
// sync flush writes) so that their outputs follow one another as one
// stream; a strip's matches still reach back into the piece before,
// which is already in the stream when the decoder gets there. The
// strips depend on the image's size and the segments only, so the bytes
// do not depend on the machine.
func compressStrips(o []byte, src rows, period int, segs []segmentAt) ([]byte, uint32, bool) {
	pieces := cut(src.w, src.h, segs)
	parts := make([]deflater, len(pieces))
	parts[0].out = o
	var wg sync.WaitGroup
	for i := len(pieces) - 1; i >= 0; i-- { // the first on this goroutine, last
		p, pc := &parts[i], pieces[i]
		if pc.seg != nil {
			continue
		}
		if i > 0 {
			buf := getBuf(&outPool, 64<<10)
			defer outPool.Put(buf)
			p.out = (*buf)[:0]
			defer func() { *buf = p.out }()
		}
		compress := func() { p.ok = p.compress(src, period, pc.y0, pc.y1, i == len(pieces)-1) }
		if i == 0 {
			compress()
		} else {
			wg.Go(compress)
		}
	}
	wg.Wait()
	o = parts[0].out // the first piece's stream, if it was compressed
	var sum adler
	for i, pc := range pieces {
		s := parts[i].sum
		switch {
		case pc.seg != nil:
			o, s = append(o, pc.seg.stream...), pc.seg.sum
		case !parts[i].ok:
			return nil, 0, false
		case i > 0:
			o = append(o, parts[i].out...)
		}
		if i == 0 {
			sum = s
		} else {
			sum = sum.join(s, uint64(pc.y1-pc.y0)*uint64(src.rowLen()))
		}
	}
	if pieces[len(pieces)-1].seg != nil {
		o = append(o, 0x03, 0x00) // an empty final block, fixed codes: the stream's end
	}
	return o, sum.sum(), true
}

// piece is rows y0 to y1 of an image: compressed now, or a segment's
// kept stream.
type piece struct {
	y0, y1 int
	seg    *segment
}

// cut cuts an image's rows into the segments and the rows between them,
// each of those cut into strips.
func cut(w, h int, segs []segmentAt) []piece {
	var out []piece
	fresh := func(y0, y1 int) {
		n := strips(w, y1-y0)
		for i := range n {
			out = append(out, piece{y0 + (y1-y0)*i/n, y0 + (y1-y0)*(i+1)/n, nil})
		}
	}
	y := 0
	for _, s := range segs {
		if s.y0 > y {
			fresh(y, s.y0)
		}
		out = append(out, piece{s.y0, s.y1, s.seg})
		y = s.y1
	}
	if y < h {
		fresh(y, h)
	}
	return out
}

// strips is how many strips compressStrips cuts an image into: one for
// a small image, four (two for each of two cores, which evens out
// strips of unequal cost) for a map.
func strips(w, h int) int {
	return min(max(w*h/(128<<10), 1), 4, h)
}

func chunk(o []byte, typ string, data []byte) []byte {
	o = binary.BigEndian.AppendUint32(o, uint32(len(data)))
	start := len(o)
	o = append(o, typ...)
	o = append(o, data...)
	return binary.BigEndian.AppendUint32(o, crc32.ChecksumIEEE(o[start:]))
}

// stdPNG is image/png at its fastest setting.
func stdPNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: encoderPool{}}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type encoderPool struct{}

var stdEncoders sync.Pool

func (encoderPool) Get() *png.EncoderBuffer {
	b, _ := stdEncoders.Get().(*png.EncoderBuffer)
	return b
}
func (encoderPool) Put(b *png.EncoderBuffer) { stdEncoders.Put(b) }

// outPool holds the scratch buffers the PNGs are written in; indexPool
// the palette indices of their pixels.
var outPool, indexPool sync.Pool

func getBuf(p *sync.Pool, n int) *[]byte {
	if b, ok := p.Get().(*[]byte); ok && cap(*b) >= n {
		return b
	}
	b := make([]byte, n)
	return &b
}

// tokPool holds the deflaters' token buffers.
var tokPool sync.Pool

func getToks() *[]uint32 {
	if t, ok := tokPool.Get().(*[]uint32); ok {
		return t
	}
	t := make([]uint32, 0, blockTokens)
	return &t
}

// deflater writes a deflate stream (RFC 1951) in blocks with their own
// Huffman codes.
type deflater struct {
	out   []byte
	bits  uint64
	nbits uint
	toks  []uint32 // literals (litToken) or a match (matchFlag | length<<16 | the index of its distance in dists<<25)
	syms  int      // literals and matches in the block, as tokens of one literal byte or pixel each: where a block ends
	dists [3]int   // of a match: to the pixel on the left, the row above, the period
	sum   adler    // of the rows compressed
	ok    bool     // the rows were opaque
	lit   [286]uint32
	dist  [30]uint32
}

const (
	matchFlag   = 1 << 31
	noLiteral   = 256 // in a token of fewer than three literals
	blockTokens = 1 << 16
	maxMatch    = 258
	windowSize  = 32768
)

// compress writes the rows y0 to y1, unfiltered, as deflate blocks,
// the last of the stream if last, otherwise ending on a byte; each run
// of pixels as one match: of the pixel to its left, of the one above (a
// run that reaches the end of a row goes on into the next, the rows'
// filter bytes being equal), or of the one period pixels to the left
// (the same place in the hex grid's next pair of columns), the longest
// winning, the left one on a tie (the shortest distance code). It
// reports false for RGBA pixels that are not opaque: every pixel is
// either written or equal to one written before, so checking the ones
// written checks them all.
func (e *deflater) compress(src rows, period, y0, y1 int, last bool) bool {
	w, sz, bpp := src.w, src.size, src.bpp
	rowLen := src.rowLen()
	up := rowLen <= windowSize
	if period <= 1 || bpp*period > windowSize || period >= w {
		period = 0
	}
	toks := getToks()
	defer tokPool.Put(toks)
	e.toks = (*toks)[:0]
	e.dists = [3]int{bpp, rowLen, bpp * period}
	var cur run
	e.sum = adler{s1: 1}
	for y := y0; y < y1; y++ {
		row := src.row(y)
		var above []byte
		if y > 0 && up {
			above = src.row(y - 1)
		}
		x := 0
		if above != nil {
			x = eqRun(row, above, sz)
		}
		// The filter byte and the pixels as the ones above, as a match
		// going on from the row before, or a new one of 3 bytes or more.
		if above != nil && (cur.dist == rowLen || 1+bpp*x >= 3) {
			if cur.dist != rowLen {
				e.flush(&cur)
				cur.dist = rowLen
			}
			cur.n += 1 + bpp*x
		} else {
			x = 0
			e.flush(&cur)
			e.literal(0)
		}
		for x < w {
			if cur.n > 0 {
				e.flush(&cur)
			}
			if sz == 1 && x > 0 && x+4 <= w && noMatch(row, above, x, period) {
				e.literal(row[x])
				x++
				continue
			}
			// The longest run, the left one on a tie, then the one above:
			// a later candidate wins only by matching the pixel where
			// the best so far stopped, tried first (here, before a call:
			// on an anti-aliased edge, none matches).
			k, d := 0, 0
			if c := src.pixel(row, x); x > 0 && c == src.pixel(row, x-1) {
				k, d = sameRun(row[sz*x:], src.repeat(c), sz), bpp
			}
			if above != nil && x+k < w && src.pixel(row, x+k) == src.pixel(above, x+k) {
				if ku := eqRun(row[sz*x:], above[sz*x:], sz); ku > k {
					k, d = ku, rowLen
				}
			}
			if period > 0 && x >= period && x+k < w && src.pixel(row, x+k) == src.pixel(row, x+k-period) {
				if kp := eqRun(row[sz*x:], row[sz*(x-period):sz*(w-period)], sz); kp > k {
					k, d = kp, bpp*period
				}
			}
			if bpp*k < 3 { // a match is 3 bytes or more
				if !e.pixelLiteral(row[sz*x : sz*x+sz]) {
					return false
				}
				x++
				continue
			}
			cur = run{dist: d, n: bpp * k}
			x += k
		}
		if cur.dist != rowLen {
			e.flush(&cur)
		}
		if sz == 1 {
			e.sum.bytes(row)
		} else {
			e.sum.row(row)
		}
	}
	e.flush(&cur)
	e.block(last)
	if !last {
		e.write(0, 3) // BFINAL 0, BTYPE 00: stored, then its length on a whole byte
	}
	for e.nbits > 0 {
		e.out = append(e.out, byte(e.bits))
		e.bits >>= 8
		e.nbits = max(e.nbits, 8) - 8
	}
	if !last {
		e.out = append(e.out, 0, 0, 0xff, 0xff) // LEN 0, NLEN
	}
	return true
}

// noMatch reports whether none of the matches of an index row's bytes
// at x (x > 0, x+4 ≤ its length) could be 3 bytes long, the least a
// match is, so that its byte is a literal: whether the three bytes from
// x differ from the three one to the left, above (if any) and a period
// to the left (if any). It is cheaper than finding each match's length,
// on the anti-aliased edges where none is long.
func noMatch(row, above []byte, x, period int) bool {
	three := binary.LittleEndian.Uint32(row[x:]) << 8 // the 4th byte shifted out
	if three == binary.LittleEndian.Uint32(row[x-1:])<<8 {
		return false
	}
	if above != nil && three == binary.LittleEndian.Uint32(above[x:])<<8 {
		return false
	}
	return period == 0 || x < period || three != binary.LittleEndian.Uint32(row[x-period:])<<8
}

// pixelLiteral writes a pixel as literals: a palette index, or the RGB
// of an opaque RGBA pixel (one token of three); false for a pixel not
// opaque.
func (e *deflater) pixelLiteral(p []byte) bool {
	if len(p) == 1 {
		e.literal(p[0])
		return true
	}
	if p[3] != 0xff {
		return false
	}
	e.toks = append(e.toks, litToken(p[0], uint32(p[1]), uint32(p[2])))
	e.lit[p[0]]++
	e.lit[p[1]]++
	e.lit[p[2]]++
	if e.syms++; e.syms >= blockTokens {
		e.block(false)
	}
	return true
}

func pixel(row []byte, x int) uint32 { return binary.LittleEndian.Uint32(row[4*x:]) }

// adler is the Adler-32 checksum (RFC 1950) of the stream's rows, each a
// filter byte of 0 and the RGB of RGBA pixels, summed two pixels at a
// time: for the six bytes c1…c6 of a pair, s1 gains their sum and s2 six
// times s1 plus 6·c1 + 5·c2 + … + c6, both sums computed in the 16-bit
// lanes of one multiplication.
type adler struct{ s1, s2 uint64 }

func (a *adler) row(px []byte) {
	s1, s2 := a.s1, a.s2
	s2 += s1 // the filter byte, 0
	for len(px) > 0 {
		// Reduced every 4096 pixels at most, before s2 can overflow.
		n := min(len(px), 4*4096)
		chunk := px[:n]
		px = px[n:]
		for len(chunk) >= 4*adlerBlock {
			s1, s2 = adlerLanes(chunk[:4*adlerBlock], s1, s2)
			chunk = chunk[4*adlerBlock:]
		}
		for len(chunk) >= 16 { // four pixels: twelve bytes, the first six weighing six more
			v, u := binary.LittleEndian.Uint64(chunk), binary.LittleEndian.Uint64(chunk[8:])
			chunk = chunk[16:]
			e, f := v&0x00ff00ff00ff00ff, u&0x00ff00ff00ff00ff
			o, g := v>>8&0x000000ff000000ff, u>>8&0x000000ff000000ff
			sv := (e + o) * 0x0001000100010001 >> 48
			su := (f + g) * 0x0001000100010001 >> 48
			wv := e*(1|3<<16|4<<32|6<<48)>>48 + o*(2<<16|5<<48)>>48
			wu := f*(1|3<<16|4<<32|6<<48)>>48 + g*(2<<16|5<<48)>>48
			s2 += 12*s1 + 6*sv + wv + wu
			s1 += sv + su
		}
		for len(chunk) >= 8 {
			v := binary.LittleEndian.Uint64(chunk)
			chunk = chunk[8:]
			e := v & 0x00ff00ff00ff00ff      // r1 b1 r2 b2
			o := v >> 8 & 0x000000ff000000ff // g1 0 g2 0
			sum := (e + o) * 0x0001000100010001 >> 48
			weighted := e*(1|3<<16|4<<32|6<<48)>>48 + o*(2<<16|5<<48)>>48
			s2 += 6*s1 + weighted
			s1 += sum
		}
		for ; len(chunk) >= 4; chunk = chunk[4:] {
			for _, c := range chunk[:3] {
				s1 += uint64(c)
				s2 += s1
			}
		}
		s1 %= 65521
		s2 %= 65521
	}
	a.s1, a.s2 = s1, s2
}

// bytes sums a row of palette indices, after its filter byte, eight
// bytes at a time: s1 gains their sum and s2 eight times s1 plus
// 8·c1 + 7·c2 + … + c8, the sums made in 16-bit lanes as row does.
func (a *adler) bytes(px []byte) {
	s1, s2 := a.s1, a.s2
	s2 += s1 // the filter byte, 0
	for len(px) > 0 {
		// Reduced every 32 KiB at most, long before s2 can overflow.
		n := min(len(px), 32<<10)
		chunk := px[:n]
		px = px[n:]
		for len(chunk) >= 8 {
			v := binary.LittleEndian.Uint64(chunk)
			chunk = chunk[8:]
			e := v & 0x00ff00ff00ff00ff      // c1 c3 c5 c7
			o := v >> 8 & 0x00ff00ff00ff00ff // c2 c4 c6 c8
			sum := (e + o) * 0x0001000100010001 >> 48
			weighted := e*(2|4<<16|6<<32|8<<48)>>48 + o*(1|3<<16|5<<32|7<<48)>>48
			s2 += 8*s1 + weighted
			s1 += sum
		}
		for _, c := range chunk {
			s1 += uint64(c)
			s2 += s1
		}
		s1 %= 65521
		s2 %= 65521
	}
	a.s1, a.s2 = s1, s2
}

// join is the checksum of a's bytes followed by n bytes summed as b
// (zlib's adler32_combine): each of b's bytes adds to s2 what a's s1
// already held, less the 1 that b's s1 started at.
func (a adler) join(b adler, n uint64) adler {
	const mod = 65521
	s1 := (a.s1 + b.s1 + mod - 1) % mod
	s2 := (a.s2 + b.s2 + n%mod*((a.s1+mod-1)%mod)) % mod
	return adler{s1, s2}
}

// adlerBlock is how many pixels adlerLanes sums: sixteen groups of four,
// few enough that no 16-bit lane overflows.
const adlerBlock = 64

// adlerLanes sums adlerBlock pixels with additions only. The twelve
// bytes of each group of four pixels go into 16-bit lanes, j being a
// byte's place in its group: A_j sums the bytes of place j, P_j the A_j
// before each group (at most 255·16·15/2). Over K groups of N = 12
// bytes, s1 gains ΣA_j and s2 gains K·N·s1 + N·ΣP_j + Σ(N−j)·A_j.
func adlerLanes(px []byte, s1, s2 uint64) (uint64, uint64) {
	const lo, gMask = 0x00ff00ff00ff00ff, 0x00ff000000ff0000
	var ae, af, ag, pe, pf, pg uint64 // lanes: R1 B1 R2 B2, R3 B3 R4 B4, G1 G3 G2 G4
	for i := 0; i+16 <= len(px); i += 16 {
		v, u := binary.LittleEndian.Uint64(px[i:]), binary.LittleEndian.Uint64(px[i+8:])
		pe, pf, pg = pe+ae, pf+af, pg+ag
		ae += v & lo
		af += u & lo
		ag += v>>8&0x000000ff000000ff | u<<8&gMask
	}
	const groups, n = adlerBlock / 4, 12
	sum := lanes(ae, 1, 1, 1, 1) + lanes(af, 1, 1, 1, 1) + lanes(ag, 1, 1, 1, 1)
	// The places j: R1 0, G1 1, B1 2, R2 3, G2 4, B2 5, R3 6, G3 7, …
	weighted := lanes(ae, n-0, n-2, n-3, n-5) + lanes(af, n-6, n-8, n-9, n-11) + lanes(ag, n-1, n-7, n-4, n-10)
	before := lanes(pe, 1, 1, 1, 1) + lanes(pf, 1, 1, 1, 1) + lanes(pg, 1, 1, 1, 1)
	return s1 + sum, s2 + groups*n*s1 + n*before + weighted
}

// lanes is the sum of x's four 16-bit lanes, weighted.
func lanes(x uint64, w0, w1, w2, w3 uint64) uint64 {
	return w0*(x&0xffff) + w1*(x>>16&0xffff) + w2*(x>>32&0xffff) + w3*(x>>48)
}

func (a adler) sum() uint32 {
	return uint32(a.s2)<<16 | uint32(a.s1)
}

// run is a match being extended: n bytes at distance dist.
type run struct{ dist, n int }

// flush writes a run of 3 bytes or more as matches of at most maxMatch
// bytes.
func (e *deflater) flush(r *run) {
	for n := r.n; n >= 3; {
		k := min(n, maxMatch)
		if n-k > 0 && n-k < 3 {
			k = n - 3
		}
		e.toks = append(e.toks, matchFlag|uint32(k)<<16|e.distIndex(r.dist)<<25)
		e.lit[lengthCode[k]]++
		e.dist[distCode(r.dist)]++
		n -= k
		if e.syms++; e.syms >= blockTokens {
			e.block(false)
		}
	}
	*r = run{}
}

// litToken is the token of one to three literals, noLiteral filling
// the places of those missing.
func litToken(a byte, b, c uint32) uint32 { return uint32(a) | b<<9 | c<<18 }

func (e *deflater) distIndex(d int) uint32 {
	switch d {
	case e.dists[0]:
		return 0
	case e.dists[1]:
		return 1
	}
	return 2
}

// literal writes a byte as a literal: into the token before if that is
// literals with a place left (a palette index after another), else as
// a token of its own. The codes written are the same; a token is the
// costliest part of writing them.
func (e *deflater) literal(v byte) {
	// A token of one or two literals has noLiteral in its last place; a
	// match's top bit, or a third literal, is there otherwise.
	if n := len(e.toks); n > 0 && e.toks[n-1]>>18 == noLiteral {
		if t := e.toks[n-1]; t>>9&0x1ff == noLiteral {
			e.toks[n-1] = t&^(0x1ff<<9) | uint32(v)<<9
		} else {
			e.toks[n-1] = t&^(0x1ff<<18) | uint32(v)<<18
		}
	} else {
		e.toks = append(e.toks, litToken(v, noLiteral, noLiteral))
	}
	e.lit[v]++
	if e.syms++; e.syms >= blockTokens {
		e.block(false)
	}
}

// sameRun is how many pixels of size bytes at the start of px are the
// colour c, given repeated to fill a word.
func sameRun(px []byte, cc uint64, size int) int {
	n := 0
	for ; n+32 <= len(px); n += 32 {
		x0, x1 := binary.LittleEndian.Uint64(px[n:])^cc, binary.LittleEndian.Uint64(px[n+8:])^cc
		x2, x3 := binary.LittleEndian.Uint64(px[n+16:])^cc, binary.LittleEndian.Uint64(px[n+24:])^cc
		if x0|x1|x2|x3 != 0 {
			return (n + firstDiff(x0, x1, x2, x3)) / size
		}
	}
	for ; n+8 <= len(px); n += 8 {
		if x := binary.LittleEndian.Uint64(px[n:]) ^ cc; x != 0 {
			return (n + bits.TrailingZeros64(x)/8) / size
		}
	}
	for i := 0; n < len(px) && px[n] == byte(cc>>(8*i)); i++ {
		n++
	}
	return n / size
}

// eqRun is how many pixels of size bytes at the start of p equal those
// of q.
func eqRun(p, q []byte, size int) int {
	q = q[:len(p)]
	n := 0
	for ; n+32 <= len(p); n += 32 {
		x0 := binary.LittleEndian.Uint64(p[n:]) ^ binary.LittleEndian.Uint64(q[n:])
		x1 := binary.LittleEndian.Uint64(p[n+8:]) ^ binary.LittleEndian.Uint64(q[n+8:])
		x2 := binary.LittleEndian.Uint64(p[n+16:]) ^ binary.LittleEndian.Uint64(q[n+16:])
		x3 := binary.LittleEndian.Uint64(p[n+24:]) ^ binary.LittleEndian.Uint64(q[n+24:])
		if x0|x1|x2|x3 != 0 {
			return (n + firstDiff(x0, x1, x2, x3)) / size
		}
	}
	for ; n+8 <= len(p); n += 8 {
		if x := binary.LittleEndian.Uint64(p[n:]) ^ binary.LittleEndian.Uint64(q[n:]); x != 0 {
			return (n + bits.TrailingZeros64(x)/8) / size
		}
	}
	for n < len(p) && p[n] == q[n] {
		n++
	}
	return n / size
}

// firstDiff is the offset of the first differing byte in 32 bytes,
// given the XOR of their four words (one not 0): found from the bits,
// not by comparing again, as the end of a run is where a branch goes
// wrong.
func firstDiff(x0, x1, x2, x3 uint64) int {
	n := 0
	for _, x := range [3]uint64{x0, x1, x2} {
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	return n + bits.TrailingZeros64(x3)/8
}

func (e *deflater) write(v uint64, n uint) {
	e.bits |= v << e.nbits
	e.nbits += n
	if e.nbits >= 32 {
		e.out = binary.LittleEndian.AppendUint32(e.out, uint32(e.bits))
		e.bits >>= 32
		e.nbits -= 32
	}
}

// clOrder is the order of the code length code's lengths in a header.
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// block writes the tokens gathered as one block with dynamic codes.
func (e *deflater) block(final bool) {
	e.lit[256]++ // end of block
	var litLen [286]uint8
	var distLen [30]uint8
	huffLengths(e.lit[:], 15, litLen[:])
	huffLengths(e.dist[:], 15, distLen[:])
	var litCode [286]uint16
	var distCodes [30]uint16
	canonical(litLen[:], litCode[:])
	canonical(distLen[:], distCodes[:])

	nlit, ndist := 286, 30
	for nlit > 257 && litLen[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && distLen[ndist-1] == 0 {
		ndist--
	}
	// The code lengths, run-length coded.
	var seq []uint8
	seq = append(seq, litLen[:nlit]...)
	seq = append(seq, distLen[:ndist]...)
	type clTok struct{ sym, extra uint8 }
	var cl []clTok
	var clFreq [19]uint32
	for i := 0; i < len(seq); {
		v, run := seq[i], 1
		for i+run < len(seq) && seq[i+run] == v {
			run++
		}
		i += run
		if v == 0 {
			for run >= 11 {
				k := min(run, 138)
				cl, run = append(cl, clTok{18, uint8(k - 11)}), run-k
				clFreq[18]++
			}
			if run >= 3 {
				cl, run = append(cl, clTok{17, uint8(run - 3)}), 0
				clFreq[17]++
			}
		} else {
			cl, run = append(cl, clTok{v, 0}), run-1
			clFreq[v]++
			for run >= 3 {
				k := min(run, 6)
				cl, run = append(cl, clTok{16, uint8(k - 3)}), run-k
				clFreq[16]++
			}
		}
		for ; run > 0; run-- {
			cl = append(cl, clTok{v, 0})
			clFreq[v]++
		}
	}
	var clLen [19]uint8
	var clCode [19]uint16
	huffLengths(clFreq[:], 7, clLen[:])
	canonical(clLen[:], clCode[:])
	ncl := 19
	for ncl > 4 && clLen[clOrder[ncl-1]] == 0 {
		ncl--
	}

	f := uint64(0)
	if final {
		f = 1
	}
	e.write(f|2<<1, 3) // BFINAL, BTYPE 10: dynamic codes
	e.write(uint64(nlit-257), 5)
	e.write(uint64(ndist-1), 5)
	e.write(uint64(ncl-4), 4)
	for _, k := range clOrder[:ncl] {
		e.write(uint64(clLen[k]), 3)
	}
	for _, t := range cl {
		e.write(uint64(clCode[t.sym]), uint(clLen[t.sym]))
		switch t.sym {
		case 16:
			e.write(uint64(t.extra), 2)
		case 17:
			e.write(uint64(t.extra), 3)
		case 18:
			e.write(uint64(t.extra), 7)
		}
	}
	e.codes(litCode[:], litLen[:], distCodes[:], distLen[:])
	e.write(uint64(litCode[256]), uint(litLen[256]))
	e.toks, e.syms = e.toks[:0], 0
	e.lit, e.dist = [286]uint32{}, [30]uint32{}
}

// codes writes the tokens with the block's codes. A token is at most
// 48 bits (three literal codes of 15; a length's code and extra bits of
// 15 + 5 and a distance's of 15 + 13), gathered with the fewer than 8
// left over in one word that is stored whole, the output advancing by
// the bytes completed. Both readings of a token, as literals and as a
// match, are made and one kept without a branch: which a token is
// follows the picture and cannot be predicted.
func (e *deflater) codes(litCode []uint16, litLen []uint8, distCodes []uint16, distLen []uint8) {
	// Each literal's code and length in one word (none for noLiteral
	// and above); each length's code and extra bits, and each distance's.
	var lit [512]uint32
	for v := range 256 {
		lit[v] = uint32(litCode[v]) | uint32(litLen[v])<<16
	}
	var lenBits [512]uint32
	var lenN [512]uint8
	for l := 3; l <= maxMatch; l++ {
		lc := lengthCode[l]
		n := lengthExtra[lc-257]
		lenBits[l] = uint32(litCode[lc]) | uint32(l-int(lengthBase[lc-257]))<<litLen[lc]
		lenN[l] = litLen[lc] + n
	}
	var dBits [4]uint64
	var dN [4]uint
	for i, d := range e.dists {
		if d > 0 && d <= windowSize { // the row above may be out of reach
			dc := distCode(d)
			dBits[i], dN[i] = uint64(distCodes[dc])|uint64(d-distBase(dc))<<distLen[dc], uint(distLen[dc])+distExtra(dc)
		}
	}
	e.flushBytes()
	out, bits, nbits := e.out, e.bits, e.nbits
	pos := len(out)
	const chunk = 1024 // tokens written between checks of the room left
	for i := 0; i < len(e.toks); i += chunk {
		out = slices.Grow(out[:pos], 6*chunk+8)
		out = out[:cap(out)]
		for _, t := range e.toks[i:min(i+chunk, len(e.toks))] {
			r, g, b := lit[t&0x1ff], lit[t>>9&0x1ff], lit[t>>18&0x1ff]
			nr, ng := uint(r>>16), uint(g>>16)
			v := uint64(r&0xffff) | uint64(g&0xffff)<<nr | uint64(b&0xffff)<<(nr+ng)
			n := nr + ng + uint(b>>16)
			l, k := t>>16&0x1ff, t>>25&3
			mv := uint64(lenBits[l]) | dBits[k]<<lenN[l]
			mn := uint(lenN[l]) + dN[k]
			match := -uint64(t >> 31) // all ones for a match
			v ^= (v ^ mv) & match
			n ^= (n ^ mn) & uint(match)
			bits |= v << nbits
			nbits += n
			binary.LittleEndian.PutUint64(out[pos:], bits)
			pos += int(nbits / 8)
			bits >>= nbits &^ 7
			nbits &= 7
		}
	}
	e.out, e.bits, e.nbits = out[:pos], bits, nbits
}

// flushBytes writes the whole bytes of the bits pending.
func (e *deflater) flushBytes() {
	for e.nbits >= 8 {
		e.out = append(e.out, byte(e.bits))
		e.bits >>= 8
		e.nbits -= 8
	}
}

// The length codes 257-285 of RFC 1951: base lengths and extra bits.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	lengthCode  [maxMatch + 1]uint16 // by match length
)

func init() {
	for c := range lengthBase {
		for l := int(lengthBase[c]); l < int(lengthBase[c])+1<<lengthExtra[c] && l <= maxMatch; l++ {
			lengthCode[l] = uint16(257 + c)
		}
	}
	lengthCode[maxMatch] = 285 // 258 has a code of its own
}

// distCode is the distance code (0-29) of a distance of 1-32768.
func distCode(d int) int {
	x := d - 1
	if x < 4 {
		return x
	}
	n := bits.Len(uint(x))
	return 2*(n-1) + (x>>(n-2))&1
}

func distExtra(c int) uint {
	if c < 4 {
		return 0
	}
	return uint(c/2 - 1)
}

func distBase(c int) int {
	if c < 4 {
		return c + 1
	}
	return 1 + (2|c&1)<<(c/2-1)
}

// huffLengths sets the lengths of a Huffman code for the frequencies,
// none longer than limit; at least two symbols get a code, so that every
// decoder takes the code as complete. Frequencies too skewed for the
// limit are halved until they fit.
func huffLengths(freq []uint32, limit int, lens []uint8) {
	type node struct {
		f           uint64
		left, right int // children, -1 for a leaf
		sym         int
	}
	var fa, ka [286]uint64 // the largest alphabet
	var na [2 * 286]node
	var da [2 * 286]int
	f := fa[:len(freq)]
	for i, v := range freq {
		f[i] = uint64(v)
	}
	used := 0
	for _, v := range f {
		if v > 0 {
			used++
		}
	}
	for i := 0; used < 2 && i < len(f); i++ {
		if f[i] == 0 {
			f[i], used = 1, used+1
		}
	}
	for {
		clear(lens)
		// The leaves sorted by frequency, then symbol: both in one word.
		keys := ka[:0]
		for s, v := range f {
			if v > 0 {
				keys = append(keys, v<<9|uint64(s))
			}
		}
		slices.Sort(keys)
		nodes := na[:0]
		for _, k := range keys {
			nodes = append(nodes, node{f: k >> 9, left: -1, right: -1, sym: int(k & 0x1ff)})
		}
		leaves := len(nodes)
		// Two queues: the sorted leaves, and the internal nodes, made in
		// order of weight.
		li, ii := 0, leaves
		pick := func() int {
			if li < leaves && (ii >= len(nodes) || nodes[li].f <= nodes[ii].f) {
				li++
				return li - 1
			}
			ii++
			return ii - 1
		}
		for k := 0; k < leaves-1; k++ {
			a := pick()
			b := pick()
			nodes = append(nodes, node{f: nodes[a].f + nodes[b].f, left: a, right: b})
		}
		depth := da[:len(nodes)]
		clear(depth)
		longest := 0
		for n := len(nodes) - 1; n >= 0; n-- {
			if nodes[n].left >= 0 {
				depth[nodes[n].left], depth[nodes[n].right] = depth[n]+1, depth[n]+1
			} else {
				lens[nodes[n].sym] = uint8(depth[n])
				longest = max(longest, depth[n])
			}
		}
		if longest <= limit {
			return
		}
		for i, v := range f {
			if v > 0 {
				f[i] = v/2 | 1
			}
		}
	}
}

// canonical sets the canonical codes (RFC 1951 3.2.2) of the lengths,
// bit-reversed for writing from the least significant bit.
func canonical(lens []uint8, codes []uint16) {
	var count [16]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for s, l := range lens {
		if l > 0 {
			codes[s] = bits.Reverse16(next[l]) >> (16 - l)
			next[l]++
		}
	}
}
